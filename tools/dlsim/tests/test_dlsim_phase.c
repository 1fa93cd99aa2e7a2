/*
 * dlsim runs rt-app's phase-level settings, forks and thread counts as
 * rt-app does (its doc/tutorial.txt and src/rt-app.c: thread_body() sets
 * each phase iteration's CPUs with set_thread_affinity() and its scheduling
 * keys with set_thread_param() before the phase's events; main() starts
 * every task's "instance" threads, a fork event one more), and refuses
 * with Linux's reasons what Linux refuses:
 *
 * - CPUs per phase: tutorial.txt, "CPUs affinity" (a phase's "cpus", else
 *   the task's): a thread hopping over three CPUs gives each a third;
 * - a phase switching to SCHED_DEADLINE (tutorial.txt, "scheduling
 *   policy": the properties change at the beginning of each phase that
 *   sets them) is throttled by its reservation, and one switching back
 *   leaves the deadline class;
 * - fork: tutorial.txt, "instance" (0: no thread at start) and "fork";
 *   a task forking itself is refused by name and place;
 * - Linux's affinity rule for deadline tasks (kernel/sched/core.c:
 *   __sched_setscheduler() EPERM, dl_task_check_affinity() EBUSY, while
 *   admission control is on) and "simulation": {"affinity": "library"};
 * - no cap on the thread count.
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "sim.h"
#include "workload.h"

#define MS UINT64_C(1000000)

struct rec {
	uint64_t busy[4];        /* per CPU, of the thread watched */
	const char *watch;       /* the thread whose slices count (NULL: all) */
	uint64_t win[16];        /* its run time in each 10 ms window */
	char names[8][32];       /* distinct threads seen running */
	size_t nr_names;
	unsigned int jobs;
	uint64_t first;          /* when the thread watched first ran */
	bool ran;
	/* no validators after every event (--check): in the runs of
	 * thousands of threads, where they cost O(n^2) and the count is what
	 * is tested */
	bool unchecked;
};

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	struct rec *r = arg;
	size_t i;

	for (i = 0; i < r->nr_names && strcmp(r->names[i], thread); i++)
		;
	if (i == r->nr_names && i < 8)
		snprintf(r->names[r->nr_names++], sizeof(r->names[0]), "%s", thread);
	if (r->watch && strcmp(r->watch, thread))
		return;
	if (!r->ran)
		r->first = start;
	r->ran = true;
	if (cpu < 4)
		r->busy[cpu] += end - start;
	/* split the slice over 10 ms windows */
	while (start < end) {
		uint64_t w = start / (10 * MS), wend = (w + 1) * 10 * MS;
		uint64_t e = end < wend ? end : wend;

		if (w < 16)
			r->win[w] += e - start;
		start = e;
	}
}

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct rec *r = arg;

	(void)thread;
	(void)release;
	(void)end;
	(void)miss;
	r->jobs++;
}

/* Load @text (strictly) and simulate it with every check on; the exit
 * code of the run, or -1 when the file is refused (@diag then holds the
 * first diagnostic). */
static int run(const char *text, struct rec *r, char *diag, size_t dsz)
{
	struct workload w;
	struct sim_options opt = { .check = !r->unchecked, .quiet = true, .on_slice = on_slice,
				   .on_job = on_job, .cb_arg = r };
	struct sim_result res;

	if (workload_load(&w, "w.json", text, strlen(text), true)) {
		if (diag)
			snprintf(diag, dsz, "%s", w.nr_diags ? w.diags[0] : "");
		workload_free(&w);
		return -1;
	}
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	workload_free(&w);
	return res.exit_code;
}

/*
 * tutorial.txt, "CPUs affinity" (rt-app's doc/examples/tutorial/example8
 * does the same): a task on CPU 2 whose first phase runs on CPU 0, its
 * second on CPU 1 and its third on the task's CPU 2, 1.5 ms each, looping:
 * over 90 ms each CPU runs it 30 ms. Before phases set their CPUs, all of
 * it ran on CPU 2.
 */
static void test_cpus_per_phase(void)
{
	static const char text[] =
		"{\"platform\": {\"cpus\": 3}, \"simulation\": {\"horizon_us\": 90000},\n"
		" \"tasks\": {\"hop\": {\"cpus\": [2], \"phases\": {\n"
		"   \"p0\": {\"cpus\": [0], \"run\": 1500},\n"
		"   \"p1\": {\"cpus\": [1], \"run\": 1500},\n"
		"   \"p2\": {\"run\": 1500}}}}}";
	struct rec r = { .watch = "hop" };

	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	DLS_ASSERT_EQ_U64(r.busy[0], 30 * MS);
	DLS_ASSERT_EQ_U64(r.busy[1], 30 * MS);
	DLS_ASSERT_EQ_U64(r.busy[2], 30 * MS);
}

/*
 * A SCHED_OTHER task whose phase switches it to SCHED_DEADLINE 2/10 ms
 * (tutorial.txt, "scheduling policy") with 100 ms of work: a hard
 * reservation runs it 2 ms in every 10 ms period (Linux's
 * Documentation/scheduler/sched-deadline.rst, 2.2 "Bandwidth reservation"),
 * its first period starting at the switch at 0. Its second phase switches
 * it back to SCHED_OTHER: from then on it runs without a budget.
 */
static void test_phase_to_deadline(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 120000}, \"tasks\": {\"t\": {\"loop\": 1,\n"
		" \"phases\": {\"dl\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000,\n"
		"                    \"dl-period\": 10000, \"run\": 10000},\n"
		"            \"fair\": {\"policy\": \"SCHED_OTHER\", \"run\": 20000}}}}}";
	struct rec r = { .watch = "t" };

	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	/* 10 ms of work at 2 ms per period: periods 0..4, done at 42 ms */
	for (int w = 0; w < 4; w++)
		DLS_ASSERT_EQ_U64(r.win[w], 2 * MS);
	/* then the fair phase runs its 20 ms at once: 42-62 ms */
	DLS_ASSERT_EQ_U64(r.win[4], 10 * MS);
	DLS_ASSERT_EQ_U64(r.win[5], 10 * MS);
	DLS_ASSERT_EQ_U64(r.win[6], 2 * MS);
	DLS_ASSERT_EQ_U64(r.win[7], 0);
	DLS_ASSERT_EQ_U64(r.busy[0], 30 * MS);
}

/*
 * A phase with a priority and no policy takes the thread's policy when it
 * is first applied and keeps it (rt-app's set_thread_param() writes the
 * policy into the parsed phase). On one CPU, "x" (FIFO 10) raises itself
 * to 20 in "up" and turns SCHED_OTHER in "down", twice; "y" (FIFO 15)
 * wakes at 2.5 ms, during the second "up": that is still FIFO 20, so y
 * first runs when x turns SCHED_OTHER again at 3 ms (x: up 0-1, down 1-2,
 * up 2-3). Resolving "up" afresh would make it SCHED_OTHER and let y run
 * at 2.5 ms.
 */
static void test_phase_same_policy(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 20000}, \"tasks\": {\n"
		" \"x\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"loop\": 2, \"phases\": {\n"
		"   \"up\": {\"priority\": 20, \"run\": 1000},\n"
		"   \"down\": {\"policy\": \"SCHED_OTHER\", \"run\": 1000}}},\n"
		" \"y\": {\"policy\": \"SCHED_FIFO\", \"priority\": 15, \"delay\": 2500,\n"
		"        \"loop\": 1, \"run\": 3000}}}";
	struct rec r = { .watch = "y" };

	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	CU_ASSERT_TRUE(r.ran);
	DLS_ASSERT_EQ_U64(r.first, 3 * MS);
	DLS_ASSERT_EQ_U64(r.busy[0], 3 * MS);
}

/*
 * tutorial.txt, "instance" and "fork" (rt-app's example9 does the same):
 * "one" (instance 1 by default) runs from the start and again when "boss"
 * forks it; "two" (instance 0) only when forked. Four threads run.
 */
static void test_fork_instances(void)
{
	static const char text[] =
		"{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 200000},\n"
		" \"tasks\": {\n"
		"  \"one\": {\"loop\": 1, \"run\": 10000, \"sleep\": 10000},\n"
		"  \"two\": {\"instance\": 0, \"loop\": 1, \"run\": 20000, \"sleep\": 20000},\n"
		"  \"boss\": {\"loop\": 1, \"phases\": {\n"
		"    \"a\": {\"fork\": \"one\", \"run\": 10000, \"sleep\": 10000},\n"
		"    \"b\": {\"fork\": \"two\", \"run\": 20000, \"sleep\": 20000}}}}}";
	struct rec r = { 0 };
	bool one = false, two = false;
	unsigned int ones = 0;

	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	DLS_ASSERT_EQ_U64(r.nr_names, 4);
	for (size_t i = 0; i < r.nr_names; i++) {
		one |= !strcmp(r.names[i], "one");
		ones += !strncmp(r.names[i], "one", 3);
		two |= !strncmp(r.names[i], "two", 3);
	}
	CU_ASSERT_TRUE(one);
	DLS_ASSERT_EQ_U64(ones, 2);
	CU_ASSERT_TRUE(two);
}

/* The jobs of the threads whose names start with "u". */
struct u_jobs {
	uint64_t release[8], end[8];
	unsigned int n;
};

static void on_u_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct u_jobs *j = arg;

	(void)miss;
	if (thread[0] == 'u' && j->n < 8) {
		j->release[j->n] = release;
		j->end[j->n++] = end;
	}
}

static void run_u_jobs(const char *text, struct u_jobs *j)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true, .on_job = on_u_job,
				   .cb_arg = j };
	struct sim_result res;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, strlen(text), true), 0);
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	DLS_ASSERT_EQ_S64(res.exit_code, 0);
	workload_free(&w);
}

/*
 * A forked thread counts its delay and its timers from the run's start, as
 * rt-app's thread_body() sets t_first = t_zero (+ delay) for every thread,
 * forked or not, and a timer's first expiry is t_first + period (src/rt-app.c;
 * tutorial.txt, "timer": a relative timer that fell behind restarts from
 * now). "u" is forked at 25 ms with a 10 ms relative timer: its first
 * expiry, 10 ms, has passed, so its second job starts at once (26 ms) and
 * the third at 36 ms. With a 30 ms delay it first runs at 30 ms, not 55.
 */
static void test_fork_counts_from_start(void)
{
	static const char fmt[] =
		"{\"simulation\": {\"horizon_us\": 100000}, \"tasks\": {\n"
		" \"t\": {\"loop\": 1, \"sleep\": 25000, \"fork\": \"u\"},\n"
		" \"u\": {\"instance\": 0, \"loop\": 3, \"delay\": %d, \"run\": 1000,\n"
		"       \"timer\": {\"ref\": \"unique\", \"period\": 10000}}}}";
	char text[sizeof(fmt) + 16];
	struct u_jobs j = { 0 };

	snprintf(text, sizeof(text), fmt, 0);
	run_u_jobs(text, &j);
	DLS_ASSERT_EQ_U64(j.n, 3);
	DLS_ASSERT_EQ_U64(j.release[0], 25 * MS);
	DLS_ASSERT_EQ_U64(j.end[0], 26 * MS);
	DLS_ASSERT_EQ_U64(j.release[1], 26 * MS);
	DLS_ASSERT_EQ_U64(j.end[1], 27 * MS);
	DLS_ASSERT_EQ_U64(j.release[2], 36 * MS);
	DLS_ASSERT_EQ_U64(j.end[2], 37 * MS);

	memset(&j, 0, sizeof(j));
	snprintf(text, sizeof(text), fmt, 30000);
	run_u_jobs(text, &j);
	DLS_ASSERT_EQ_U64(j.n, 3);
	DLS_ASSERT_EQ_U64(j.release[0], 30 * MS);
	DLS_ASSERT_EQ_U64(j.end[0], 31 * MS);
	DLS_ASSERT_EQ_U64(j.release[1], 40 * MS);
}

/* A task that forks itself, or a cycle of forks, is refused with its
 * place: every new thread would fork another. */
static void test_fork_cycle_refused(void)
{
	struct rec r = { 0 };
	char diag[512];

	DLS_ASSERT_EQ_S64(run("{\"tasks\": {\"rabbit\": {\"loop\": 1,\n"
			      " \"fork\": \"rabbit\", \"run\": 100}}}", &r, diag, sizeof(diag)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(diag, "w.json:2:10: error: task \"rabbit\" forks itself"));
	DLS_ASSERT_EQ_S64(run("{\"tasks\": {\"a\": {\"loop\": 1, \"fork\": \"b\", \"run\": 1},\n"
			      " \"b\": {\"instance\": 0, \"loop\": 1, \"fork\": \"a\", \"run\": 1}}}",
			      &r, diag, sizeof(diag)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(diag, "fork of \"b\", which forks \"a\" again"));
}

/*
 * Linux refuses SCHED_DEADLINE for a task allowed on fewer CPUs than its
 * root domain while admission control is on (kernel/sched/core.c); dlsim
 * refuses it likewise, and runs it with "affinity": "library" (the
 * library's affinity, beyond Linux) or with admission off (as Linux).
 */
static const char pin_fmt[] =
	"{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 50000%s},\n"
	" \"tasks\": {\"pinned\": {\"policy\": \"SCHED_DEADLINE\", \"cpus\": [1],\n"
	"  \"dl-runtime\": 2000, \"dl-period\": 10000, \"run\": 1000,\n"
	"  \"timer\": {\"ref\": \"t\", \"period\": 10000}}}}";

static void test_pinned_deadline(void)
{
	char text[1024];
	struct rec r = { .watch = "pinned" };

	snprintf(text, sizeof(text), pin_fmt, "");
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 2);
	DLS_ASSERT_EQ_U64(r.busy[0] + r.busy[1], 0);

	memset(&r, 0, sizeof(r));
	r.watch = "pinned";
	snprintf(text, sizeof(text), pin_fmt, ", \"affinity\": \"library\"");
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	DLS_ASSERT_EQ_U64(r.busy[0], 0);
	DLS_ASSERT_EQ_U64(r.busy[1], 5 * MS);

	memset(&r, 0, sizeof(r));
	r.watch = "pinned";
	snprintf(text, sizeof(text), pin_fmt, ", \"admission\": \"off\"");
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	DLS_ASSERT_EQ_U64(r.busy[1], 5 * MS);
}

/* A phase narrowing a deadline thread's CPUs: sched_setaffinity() fails
 * with EBUSY in Linux, the run stops; with the library's affinity the
 * thread moves to CPU 1 for that phase. */
static const char narrow_fmt[] =
	"{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 40000%s},\n"
	" \"tasks\": {\"d\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000,\n"
	"  \"dl-period\": 10000, \"loop\": 1, \"phases\": {\n"
	"   \"free\": {\"run\": 1000, \"timer\": {\"ref\": \"t\", \"period\": 10000}},\n"
	"   \"one\": {\"cpus\": [1], \"loop\": 2, \"run\": 1000,\n"
	"           \"timer\": {\"ref\": \"t\", \"period\": 10000}}}}}}";

static void test_phase_narrows_deadline(void)
{
	char text[1024];
	struct rec r = { .watch = "d" };

	snprintf(text, sizeof(text), narrow_fmt, "");
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 2);
	memset(&r, 0, sizeof(r));
	r.watch = "d";
	snprintf(text, sizeof(text), narrow_fmt, ", \"affinity\": \"library\"");
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	DLS_ASSERT_EQ_U64(r.busy[1], 2 * MS);
	DLS_ASSERT_EQ_U64(r.busy[0] + r.busy[1], 3 * MS);
}

/* rt-app's fork limit (src/rt-app.c, FORKS_LIMIT: a thread's 1025th fork
 * of one task exits with "reached its fork limit"): 1024 forks run, the
 * next one stops the run. */
static void test_fork_limit(void)
{
	static const char fmt[] =
		"{\"simulation\": {\"horizon_us\": 100000}, \"tasks\": {\n"
		" \"kid\": {\"instance\": 0, \"loop\": 1, \"run\": 1},\n"
		" \"main\": {\"loop\": %d, \"fork\": \"kid\", \"sleep\": 10}}}";
	char text[512];
	struct rec r = { .watch = NULL, .unchecked = true };

	snprintf(text, sizeof(text), fmt, 1024);
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	DLS_ASSERT_EQ_U64(r.busy[0], 1024 * UINT64_C(1000));
	snprintf(text, sizeof(text), fmt, 1025);
	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 4);
}

/* More threads than the 4096 dlsim once cut the run to: five tasks of
 * 1024 instances, each one run of 10 us; every one runs. */
static void test_many_threads(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 100000}, \"tasks\": {\n"
		" \"a\": {\"instance\": 1024, \"loop\": 1, \"run\": 10},\n"
		" \"b\": {\"instance\": 1024, \"loop\": 1, \"run\": 10},\n"
		" \"c\": {\"instance\": 1024, \"loop\": 1, \"run\": 10},\n"
		" \"d\": {\"instance\": 1024, \"loop\": 1, \"run\": 10},\n"
		" \"e\": {\"instance\": 1024, \"loop\": 1, \"run\": 10}}}";
	struct rec r = { .watch = NULL, .unchecked = true };
	uint64_t total;

	DLS_ASSERT_EQ_S64(run(text, &r, NULL, 0), 0);
	total = r.busy[0];
	DLS_ASSERT_EQ_U64(total, 5120 * 10 * UINT64_C(1000));
}

/* sim_options::max_threads (the fuzzer's bound) stops the run at the fork
 * that would pass it, and says so; without it every fork runs. "boss"
 * forks "kid" every millisecond: 20 forks in 20 ms. */
static void test_max_threads(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 20000}, \"tasks\": {\n"
		" \"boss\": {\"fork\": \"kid\", \"run\": 1000},\n"
		" \"kid\": {\"instance\": 0, \"loop\": 1, \"run\": 10}}}";
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true, .max_threads = 8 };
	struct sim_result res;
	struct rec r = { 0 };

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, strlen(text), true), 0);
	opt.on_slice = on_slice;
	opt.cb_arg = &r;
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	CU_ASSERT_TRUE(res.truncated);
	CU_ASSERT_TRUE(res.exit_code == 0);
	opt.max_threads = 0;
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	CU_ASSERT_FALSE(res.truncated);
	workload_free(&w);
}

/* sim_options::max_steps bounds the event loop (the fuzzer's bound for a
 * loop of nanosecond events: 10 bytes of "mem" at 10 GB/s is 1 ns): the
 * run stops truncated before the horizon; without it it reaches it. */
static void test_max_steps(void)
{
	static const char text[] =
		"{\"platform\": {\"mem_bw\": 10000000000}, \"simulation\": {\"horizon_us\": 100},\n"
		" \"tasks\": {\"t\": {\"mem\": 10}}}";
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true, .max_steps = 1000 };
	struct sim_result res;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, strlen(text), true), 0);
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	CU_ASSERT_TRUE(res.truncated);
	opt.max_steps = 0;
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	CU_ASSERT_FALSE(res.truncated);
	workload_free(&w);
}

static const struct dls_test_case cases[] = {
	{ "CPUs per phase: a third each", test_cpus_per_phase },
	{ "a phase switches to SCHED_DEADLINE and back", test_phase_to_deadline },
	{ "a phase without policy keeps the one it first took", test_phase_same_policy },
	{ "fork: instance threads at 0, one more per fork", test_fork_instances },
	{ "a task forking itself is refused", test_fork_cycle_refused },
	{ "a forked thread counts delay and timers from the start",
	  test_fork_counts_from_start },
	{ "a pinned deadline task: Linux refuses, the library option runs it",
	  test_pinned_deadline },
	{ "a phase narrowing a deadline thread's CPUs", test_phase_narrows_deadline },
	{ "more than 4096 threads", test_many_threads },
	{ "rt-app's fork limit", test_fork_limit },
	{ "sim_options::max_threads stops the run at a fork", test_max_threads },
	{ "sim_options::max_steps bounds the event loop", test_max_steps },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim phases, forks and affinity", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
