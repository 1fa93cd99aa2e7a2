/*
 * dlsim's classes below SCHED_DEADLINE (tools/dlsim/lower.c), every run
 * with --check (its invariants after every event):
 *
 * - the fair class shares a CPU by weight: nice 0 against nice 5, and
 *   SCHED_OTHER against SCHED_IDLE (sched-design-CFS.rst, sched-eevdf.rst,
 *   the weights of kernel/sched/core.c's sched_prio_to_weight[]);
 * - "priority" is a fair task's nice value, refused outside -20..19 as
 *   rt-app refuses it; a "nice" key is not rt-app's and is said so;
 * - a fair thread preempted by a reservation that fills its CPU runs on an
 *   idle CPU (idle balancing);
 * - a FIFO thread preempted by a higher-priority one is pushed to a CPU
 *   running fair work (kernel/sched/rt.c's push);
 * - random FIFO sets on 2-4 CPUs finish every job exactly when a reference
 *   global fixed-priority scheduler written from the definition says.
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "sim.h"
#include "workload.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)

struct rec {
	char names[16][16];
	uint64_t run[16][8];  /* per thread, per CPU */
	size_t nr;
	struct { int thread; uint64_t end; } jobs[4096];
	size_t nr_jobs;
};

static int thread_index(struct rec *r, const char *name)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->names[i], name))
			return (int)i;
	CU_ASSERT_FATAL(r->nr < 16);
	/* names longer than the slot are cut (the tests use short ones) */
	snprintf(r->names[r->nr], sizeof(r->names[0]), "%.*s",
		 (int)sizeof(r->names[0]) - 1, name);
	return (int)r->nr++;
}

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	struct rec *r = arg;

	if (cpu < 8)
		r->run[thread_index(r, thread)][cpu] += end - start;
}

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct rec *r = arg;

	(void)release;
	(void)miss;
	if (r->nr_jobs < sizeof(r->jobs) / sizeof(r->jobs[0])) {
		r->jobs[r->nr_jobs].thread = thread_index(r, thread);
		r->jobs[r->nr_jobs++].end = end;
	}
}

static void run(const char *text, struct rec *r)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true, .on_slice = on_slice,
				   .on_job = on_job, .cb_arg = r };
	struct sim_result res;

	memset(r, 0, sizeof(*r));
	if (workload_load(&w, "w.json", text, strlen(text), true)) {
		workload_print_diags(&w, stderr);
		workload_free(&w);
		CU_FAIL_FATAL("workload did not load");
	}
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	DLS_ASSERT_EQ_S64(res.exit_code, DLSIM_EXIT_OK);
	workload_free(&w);
}

static uint64_t run_on(struct rec *r, const char *name, int cpu)
{
	return r->run[thread_index(r, name)][cpu];
}

static uint64_t run_total(struct rec *r, const char *name)
{
	uint64_t sum = 0;

	for (int cpu = 0; cpu < 8; cpu++)
		sum += run_on(r, name, cpu);
	return sum;
}

/* The end of @name's job @k (0 when it has none). */
static uint64_t job_end(struct rec *r, const char *name, size_t k)
{
	int t = thread_index(r, name);

	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].thread == t && k-- == 0)
			return r->jobs[i].end;
	return 0;
}

/*
 * Two always-running fair threads on one CPU share it in proportion to
 * their weights: sched-design-CFS.rst ("CFS ... models an ideal, precise
 * multi-tasking CPU", each task's vruntime advancing by its weight) and
 * sched-eevdf.rst (EEVDF keeps every task's lag bounded by its slice, so
 * service follows weight within a slice). Weights from kernel/sched/
 * core.c: nice 0 = 1024, nice 5 = 335 (rt-app's "priority" of a
 * SCHED_OTHER task is its nice value: tutorial.txt, "priority"), and a
 * SCHED_IDLE thread weighs 3 (WEIGHT_IDLEPRIO). Over 1 s: 1024/1359 s and
 * 335/1359 s, within one base slice (0.75 ms on one CPU) of each.
 */
static void expect_share(struct rec *r, const char *a, const char *b, uint64_t wa,
			 uint64_t wb, uint64_t total)
{
	uint64_t want = total * wa / (wa + wb), got = run_total(r, a);
	uint64_t d = got > want ? got - want : want - got;

	if (d > 750 * US)
		fprintf(stderr, "%s ran %llu ns, want %llu +- 750 us (%s ran %llu)\n", a,
			(unsigned long long)got, (unsigned long long)want, b,
			(unsigned long long)run_total(r, b));
	CU_ASSERT(d <= 750 * US);
	DLS_ASSERT_EQ_U64(run_total(r, a) + run_total(r, b), total);
}

static void test_nice_shares(void)
{
	struct rec *r = calloc(1, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	run("{\"simulation\": {\"horizon_us\": 1000000}, \"tasks\": {\n"
	    " \"n0\": {\"policy\": \"SCHED_OTHER\", \"run\": 5000000},\n"
	    " \"n5\": {\"policy\": \"SCHED_OTHER\", \"priority\": 5, \"run\": 5000000}}}", r);
	expect_share(r, "n0", "n5", 1024, 335, 1000 * MS);

	/* The same with the weights the other way round: the order of the
	 * tasks in the file does not decide. */
	run("{\"simulation\": {\"horizon_us\": 1000000}, \"tasks\": {\n"
	    " \"n5\": {\"policy\": \"SCHED_BATCH\", \"priority\": -5, \"run\": 5000000},\n"
	    " \"n0\": {\"policy\": \"SCHED_OTHER\", \"run\": 5000000}}}", r);
	expect_share(r, "n5", "n0", 3121, 1024, 1000 * MS);

	run("{\"simulation\": {\"horizon_us\": 1000000}, \"tasks\": {\n"
	    " \"idle\": {\"policy\": \"SCHED_IDLE\", \"run\": 5000000},\n"
	    " \"other\": {\"policy\": \"SCHED_OTHER\", \"run\": 5000000}}}", r);
	expect_share(r, "idle", "other", 3, 1024, 1000 * MS);
	free(r);
}

/*
 * Random sets of 2-8 always-running fair threads on one CPU, nice values
 * drawn from -20..19 (some SCHED_IDLE): over 2 s each gets its weight's
 * share of the CPU, w_i / sum w, within two base slices (EEVDF bounds
 * every lag by about a slice: Stoica et al., "Earliest Eligible Virtual
 * Deadline First", 1995, and sched-eevdf.rst).
 */
static void test_nice_shares_random(void)
{
	static const uint32_t weight[40] = {
		88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
		9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
		1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
		110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
	};
	uint64_t seed = dls_test_seed("dlsim fair shares by weight", 3);
	struct dls_test_rng rng;
	struct rec *r = calloc(1, sizeof(*r));
	size_t sets = dls_test_scaled(40);
	uint64_t worst = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	dls_test_rng_seed(&rng, seed);
	for (size_t k = 0; k < sets; k++) {
		size_t n = 2 + dls_test_rng_below(&rng, 7), len;
		uint64_t w[8], sum = 0;
		char text[4096];

		len = (size_t)snprintf(text, sizeof(text),
				       "{\"simulation\": {\"horizon_us\": 2000000}, \"tasks\": {\n");
		for (size_t i = 0; i < n; i++) {
			bool idle = dls_test_rng_below(&rng, 8) == 0;
			int nice = (int)dls_test_rng_below(&rng, 40) - 20;

			w[i] = idle ? 3 : weight[nice + 20];
			sum += w[i];
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s\"t%zu\": {\"policy\": \"%s\", \"priority\": %d, "
						"\"run\": 10000000}\n", i ? "," : "", i,
						idle ? "SCHED_IDLE" : "SCHED_OTHER", idle ? 0 : nice);
		}
		snprintf(text + len, sizeof(text) - len, "}}");
		run(text, r);
		for (size_t i = 0; i < n; i++) {
			char name[32];
			uint64_t want = 2000 * MS * w[i] / sum, got, d;

			snprintf(name, sizeof(name), "t%zu", i);
			got = run_total(r, name);
			d = got > want ? got - want : want - got;
			if (d > worst)
				worst = d;
			if (d > 1500 * US) {
				fprintf(stderr, "seed %llu set %zu: %s ran %llu ns, want %llu\n%s\n",
					(unsigned long long)seed, k, name, (unsigned long long)got,
					(unsigned long long)want, text);
				CU_FAIL_FATAL("a share off its weight");
			}
		}
	}
	fprintf(stderr, "[%zu sets, largest error %llu us] ", sets,
		(unsigned long long)(worst / US));
	free(r);
}

/*
 * A phase's "priority" is the fair thread's nice value from that phase on
 * (rt-app's set_thread_param() at each phase start: tutorial.txt, "priority"
 * in a phase). "p" runs 250 ms of work at nice 0 beside an always-running
 * nice-0 thread (half the CPU: done at 500 ms), then a phase at nice 5: from
 * 500 ms to 1 s it gets 335/1359 of the CPU. 250 + 500 * 335 / 1359 =
 * 373.25 ms in all, within a slice of each phase.
 */
static void test_phase_nice(void)
{
	struct rec *r = calloc(1, sizeof(*r));
	uint64_t want = 250 * MS + 500 * MS * 335 / 1359, got, d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	run("{\"simulation\": {\"horizon_us\": 1000000}, \"tasks\": {\n"
	    " \"n0\": {\"policy\": \"SCHED_OTHER\", \"run\": 5000000},\n"
	    " \"p\": {\"policy\": \"SCHED_OTHER\", \"loop\": 1, \"phases\": {\n"
	    "   \"a\": {\"run\": 250000},\n"
	    "   \"b\": {\"priority\": 5, \"run\": 5000000}}}}}", r);
	got = run_total(r, "p");
	d = got > want ? got - want : want - got;
	if (d > 1500 * US)
		fprintf(stderr, "p ran %llu ns, want %llu +- 1.5 ms\n", (unsigned long long)got,
			(unsigned long long)want);
	CU_ASSERT(d <= 1500 * US);
	DLS_ASSERT_EQ_U64(got + run_total(r, "n0"), 1000 * MS);
	free(r);
}

/* The first diagnostic of loading @text contains @want; returns the load's result. */
static int load_diag(const char *text, const char *want)
{
	struct workload w;
	int rc = workload_load(&w, "w.json", text, strlen(text), false);
	bool found = false;

	for (size_t i = 0; i < w.nr_diags; i++)
		found |= strstr(w.diags[i], want) != NULL;
	if (!found)
		workload_print_diags(&w, stderr);
	CU_ASSERT(found);
	workload_free(&w);
	return rc;
}

/*
 * rt-app hands a SCHED_OTHER/SCHED_BATCH task's "priority" to
 * sched_setattr() as sched_nice and stops outside -20..19 (its
 * src/rt-app.c, the sched_other attributes); SCHED_IDLE takes no nice
 * value; "nice" itself is no key of rt-app's (tutorial.txt lists
 * "priority" only).
 */
static void test_nice_keys(void)
{
	CU_ASSERT(load_diag("{\"tasks\": {\"t\": {\"priority\": 20, \"run\": 10}}}",
			    "is its nice value, -20..19") < 0);
	CU_ASSERT(load_diag("{\"tasks\": {\"t\": {\"policy\": \"SCHED_IDLE\", \"priority\": 3, "
			    "\"run\": 10}}}", "has no effect on a SCHED_IDLE task") == 0);
	CU_ASSERT(load_diag("{\"tasks\": {\"t\": {\"nice\": 3, \"run\": 10}}}",
			    "\"nice\" is not an rt-app key") == 0);
}

/*
 * A fair thread waits behind a reservation that takes all of CPU 0 while
 * CPU 1 idles (the situation of rt-app's doc/examples/custom-slice.json):
 * Linux's idle balancing moves it (Documentation/scheduler/
 * sched-domains.rst: "...when a CPU goes idle... it pulls from the busiest
 * group"; an already idle CPU is kicked by nohz balancing). Here F (fair,
 * run 10 ms) starts at 0 on CPU 0, D (deadline, 10/10 ms, CPU 0 only,
 * admission off) arrives at 2 ms: F goes on on CPU 1 and ends at 10 ms,
 * 2 ms on CPU 0 and 8 ms on CPU 1. Before, F waited on CPU 0 forever.
 */
static void test_fair_idle_balance(void)
{
	struct rec *r = calloc(1, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 30000, "
	    "\"admission\": \"off\"}, \"tasks\": {\n"
	    " \"F\": {\"policy\": \"SCHED_OTHER\", \"loop\": 1, \"run\": 10000,\n"
	    "        \"timer\": {\"ref\": \"unique\", \"period\": 100000}},\n"
	    " \"D\": {\"policy\": \"SCHED_DEADLINE\", \"cpus\": [0], \"delay\": 2000,\n"
	    "        \"dl-runtime\": 10000, \"dl-period\": 10000, \"run\": 100000}}}", r);
	DLS_ASSERT_EQ_U64(job_end(r, "F", 0), 10 * MS);
	DLS_ASSERT_EQ_U64(run_on(r, "F", 0), 2 * MS);
	DLS_ASSERT_EQ_U64(run_on(r, "F", 1), 8 * MS);

	/* Both start at 0 on CPU 0 (the least crowded CPU, and the first that
	 * admits D) with CPUs 1-3 idle: D runs, and F is taken once, by the
	 * idle CPU of the lowest id (dlsim's tie rule), where it runs 0-10. */
	run("{\"platform\": {\"cpus\": 4}, \"simulation\": {\"horizon_us\": 30000, "
	    "\"admission\": \"off\"}, \"tasks\": {\n"
	    " \"F\": {\"policy\": \"SCHED_OTHER\", \"loop\": 1, \"run\": 10000,\n"
	    "        \"timer\": {\"ref\": \"unique\", \"period\": 100000}},\n"
	    " \"D\": {\"policy\": \"SCHED_DEADLINE\", \"cpus\": [0],\n"
	    "        \"dl-runtime\": 10000, \"dl-period\": 10000, \"run\": 100000}}}", r);
	DLS_ASSERT_EQ_U64(job_end(r, "F", 0), 10 * MS);
	DLS_ASSERT_EQ_U64(run_on(r, "F", 1), 10 * MS);
	free(r);
}

/*
 * kernel/sched/rt.c: a FIFO thread preempted by a higher-priority one is
 * pushed to the CPU of the lowest priority it may use (push_rt_task(),
 * find_lowest_rq(); a CPU running only fair threads is below every RT
 * priority). A (FIFO 10, run 10 ms) starts at 0 on CPU 0; B (FIFO 20,
 * CPU 0 only, run 5 ms) arrives at 2 ms; F (fair, CPU 1 only) runs all the
 * time on CPU 1. A goes on on CPU 1 at 2 ms and ends at 10 ms; F loses
 * those 8 ms. Before, A waited for B and ended at 15 ms.
 */
static void test_rt_push(void)
{
	struct rec *r = calloc(1, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 30000}, "
	    "\"tasks\": {\n"
	    " \"A\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"loop\": 1, \"run\": 10000,\n"
	    "        \"timer\": {\"ref\": \"unique\", \"period\": 100000}},\n"
	    " \"B\": {\"policy\": \"SCHED_FIFO\", \"priority\": 20, \"cpus\": [0], \"delay\": 2000,\n"
	    "        \"loop\": 1, \"run\": 5000, \"timer\": {\"ref\": \"unique\", \"period\": 100000}},\n"
	    " \"F\": {\"policy\": \"SCHED_OTHER\", \"cpus\": [1], \"run\": 100000}}}", r);
	DLS_ASSERT_EQ_U64(job_end(r, "A", 0), 10 * MS);
	DLS_ASSERT_EQ_U64(job_end(r, "B", 0), 7 * MS);
	DLS_ASSERT_EQ_U64(run_on(r, "A", 1), 8 * MS);
	DLS_ASSERT_EQ_U64(run_total(r, "F"), 30 * MS - 8 * MS);
	free(r);
}

/*
 * kernel/sched/rt.c, select_task_rq_rt(): a waking RT task leaves its CPU
 * when the task running there is RT and either of at least its priority or
 * unable to move (nr_cpus_allowed < 2), for the lowest CPU it may use. A
 * (FIFO 10, CPU 0 only, run 10 ms) runs on CPU 0 from 0; F (fair, CPU 1
 * only) runs on CPU 1; B (FIFO 20, run 5 ms), placed on CPU 0 too, wakes
 * at 2 ms: it goes to CPU 1, preempting F, and ends at 7 ms; A is not
 * preempted and ends at 10 ms (not 15 ms, stuck behind B on its one CPU).
 */
static void test_rt_wake_leaves_pinned(void)
{
	struct rec *r = calloc(1, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 30000}, "
	    "\"tasks\": {\n"
	    " \"A\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"cpus\": [0], \"loop\": 1,\n"
	    "        \"run\": 10000, \"timer\": {\"ref\": \"unique\", \"period\": 100000}},\n"
	    " \"F\": {\"policy\": \"SCHED_OTHER\", \"cpus\": [1], \"run\": 100000},\n"
	    " \"B\": {\"policy\": \"SCHED_FIFO\", \"priority\": 20, \"delay\": 2000,\n"
	    "        \"loop\": 1, \"run\": 5000, \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}", r);
	DLS_ASSERT_EQ_U64(run_on(r, "B", 1), 5 * MS);
	DLS_ASSERT_EQ_U64(job_end(r, "B", 0), 7 * MS);
	DLS_ASSERT_EQ_U64(job_end(r, "A", 0), 10 * MS);
	free(r);
}

/*
 * A fair thread that inherits a FIFO priority runs in the RT class with
 * its own policy, and only SCHED_RR threads have a slice there
 * (kernel/sched/rt.c, task_tick_rt(): "if (p->policy != SCHED_RR) return"):
 * it is not put behind an equal-priority FIFO thread while it holds the
 * mutex. One CPU, pi_enabled: L (OTHER) locks m at 0 and runs 150 ms; H
 * (FIFO 50) blocks on m at 1 ms and L inherits 50; X (FIFO 50) arrives at
 * 2 ms and waits behind L (FIFO order within a priority) until L unlocks
 * at 150 ms; H, woken then, queues behind X: X ends at 160 ms, H at 161.
 */
static void test_boosted_fair_runs_as_fifo(void)
{
	struct rec *r = calloc(1, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	run("{\"global\": {\"pi_enabled\": true}, \"simulation\": {\"horizon_us\": 300000},\n"
	    " \"tasks\": {\n"
	    " \"L\": {\"loop\": 1, \"lock\": \"m\", \"run\": 150000, \"unlock\": \"m\",\n"
	    "        \"timer\": {\"ref\": \"unique\", \"period\": 1000000}},\n"
	    " \"H\": {\"policy\": \"SCHED_FIFO\", \"priority\": 50, \"delay\": 1000, \"loop\": 1,\n"
	    "        \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\",\n"
	    "        \"timer\": {\"ref\": \"unique\", \"period\": 1000000}},\n"
	    " \"X\": {\"policy\": \"SCHED_FIFO\", \"priority\": 50, \"delay\": 2000, \"loop\": 1,\n"
	    "        \"run\": 10000, \"timer\": {\"ref\": \"unique\", \"period\": 1000000}}}}", r);
	DLS_ASSERT_EQ_U64(job_end(r, "L", 0), 150 * MS);
	DLS_ASSERT_EQ_U64(job_end(r, "X", 0), 160 * MS);
	DLS_ASSERT_EQ_U64(job_end(r, "H", 0), 161 * MS);
	free(r);
}

/* ---- random FIFO sets against a reference ----------------------------- */

/*
 * The reference: global fixed-priority scheduling on M identical CPUs,
 * from its definition (Davis & Burns, "A survey of hard real-time
 * scheduling for multiprocessor systems", ACM CSUR 2011, section 4: at
 * every instant the M highest-priority ready jobs execute). Priorities are
 * distinct, so which jobs run is fixed at every instant and so is every
 * job's end. Each task runs C then waits for its rt-app timer of period T:
 * a relative timer's next tick is release + T, or the job's end when that
 * is later (rt-app's tutorial.txt, "timer", relative mode).
 */
struct ref_task {
	uint64_t c, t, delay, prio;
	uint64_t release, left;
	bool ready;
};

static size_t ref_run(struct ref_task *ts, size_t n, int m, uint64_t horizon,
		      uint64_t (*ends)[64], size_t *nr_ends)
{
	uint64_t now = 0;
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		ts[i].release = ts[i].delay;
		ts[i].ready = false;
		nr_ends[i] = 0;
	}
	while (now < horizon) {
		bool running[16] = { false };
		uint64_t next = horizon;

		for (size_t i = 0; i < n; i++)
			if (!ts[i].ready && ts[i].release == now) {
				ts[i].ready = true;
				ts[i].left = ts[i].c;
			}
		/* the m highest-priority ready tasks run */
		for (int k = 0; k < m; k++) {
			int best = -1;

			for (size_t i = 0; i < n; i++)
				if (ts[i].ready && !running[i] &&
				    (best < 0 || ts[i].prio > ts[best].prio))
					best = (int)i;
			if (best >= 0)
				running[best] = true;
		}
		for (size_t i = 0; i < n; i++) {
			if (!ts[i].ready && ts[i].release < next)
				next = ts[i].release;
			if (running[i] && now + ts[i].left < next)
				next = now + ts[i].left;
		}
		for (size_t i = 0; i < n; i++) {
			if (!running[i])
				continue;
			ts[i].left -= next - now;
			if (ts[i].left == 0 && next < horizon) {
				if (nr_ends[i] < 64)
					ends[i][nr_ends[i]++] = next;
				total++;
				ts[i].release += ts[i].t;
				if (ts[i].release < next)
					ts[i].release = next;
				ts[i].ready = ts[i].release == next;
				ts[i].left = ts[i].c;
			}
		}
		now = next;
	}
	return total;
}

static bool prio_taken(const struct ref_task *ts, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (ts[j].prio == ts[i].prio)
			return true;
	return false;
}

static void test_fifo_reference(void)
{
	uint64_t seed = dls_test_seed("dlsim FIFO against global fixed priority", 5);
	struct dls_test_rng rng;
	struct rec *r = calloc(1, sizeof(*r));
	uint64_t(*ends)[64] = calloc(16, sizeof(*ends));
	size_t nr_ends[16], sets = dls_test_scaled(200), jobs = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ends);
	dls_test_rng_seed(&rng, seed);
	for (size_t k = 0; k < sets; k++) {
		int m = 2 + (int)dls_test_rng_below(&rng, 3);
		size_t n = (size_t)m + 1 + dls_test_rng_below(&rng, (uint64_t)m + 2);
		struct ref_task ts[16];
		char text[8192];
		size_t len;
		uint64_t horizon = 100 * MS;

		len = (size_t)snprintf(text, sizeof(text), "{\"platform\": {\"cpus\": %d}, "
				       "\"simulation\": {\"horizon_us\": %llu}, \"tasks\": {\n", m,
				       (unsigned long long)(horizon / US));
		for (size_t i = 0; i < n; i++) {
			ts[i].t = (20 + dls_test_rng_below(&rng, 81)) * 100 * US;
			ts[i].c = (1 + dls_test_rng_below(&rng, ts[i].t / (100 * US) * m / n)) *
				  100 * US;
			ts[i].delay = dls_test_rng_below(&rng, ts[i].t / (100 * US)) * 100 * US;
			/* distinct priorities 1..99 in a random order */
			do
				ts[i].prio = 1 + dls_test_rng_below(&rng, 99);
			while (prio_taken(ts, i));
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s\"t%zu\": {\"policy\": \"SCHED_FIFO\", \"priority\": %llu, "
						"\"delay\": %llu, \"run\": %llu, \"timer\": {\"ref\": "
						"\"unique\", \"period\": %llu}}\n", i ? "," : "", i,
						(unsigned long long)ts[i].prio,
						(unsigned long long)(ts[i].delay / US),
						(unsigned long long)(ts[i].c / US),
						(unsigned long long)(ts[i].t / US));
		}
		snprintf(text + len, sizeof(text) - len, "}}");
		ref_run(ts, n, m, horizon, ends, nr_ends);
		run(text, r);
		for (size_t i = 0; i < n; i++) {
			char name[32];

			snprintf(name, sizeof(name), "t%zu", i);
			for (size_t j = 0; j < nr_ends[i]; j++) {
				uint64_t got = job_end(r, name, j);

				if (got != ends[i][j]) {
					fprintf(stderr, "seed %llu set %zu: %s job %zu ended at %llu, "
						"reference %llu\n%s\n", (unsigned long long)seed, k,
						name, j, (unsigned long long)got,
						(unsigned long long)ends[i][j], text);
					CU_FAIL_FATAL("a job ended off the reference");
				}
				jobs++;
			}
		}
	}
	fprintf(stderr, "[%zu sets, %zu jobs equal] ", sets, jobs);
	free(ends);
	free(r);
}

static const struct dls_test_case cases[] = {
	{ "a phase's priority is the fair thread's nice value from then on", test_phase_nice },
	{ "fair shares follow nice weights", test_nice_shares },
	{ "random fair sets share by weight", test_nice_shares_random },
	{ "priority is a fair task's nice value", test_nice_keys },
	{ "an idle CPU pulls a waiting fair thread", test_fair_idle_balance },
	{ "a preempted FIFO thread is pushed", test_rt_push },
	{ "a waking FIFO thread leaves a CPU with a pinned one", test_rt_wake_leaves_pinned },
	{ "a boosted fair owner runs as FIFO", test_boosted_fair_runs_as_fifo },
	{ "random FIFO sets against global fixed priority", test_fifo_reference },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim lower classes", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
