/*
 * The "servers" section simulated: guests of the library (one runqueue per
 * vCPU) behind server entities on their host CPUs (hierarchical CBS, Lipari
 * & Baruah, RTAS 2001). Every run is made with --check (both levels'
 * validators after every step: dls_domain_check() of the host and of each
 * guest, dls_server_check() of every vCPU server) and with both step loops,
 * which must agree slice for slice.
 *  - A server holding one task schedules exactly as that task's plain
 *    reservation with the same parameters: random workloads, every run slice
 *    and job of every thread compared (overruns, blocking, ties, FIFO and fair
 *    threads beside it).
 *  - Isolation: a guest whose tasks overrun (soft reservations inside, three
 *    times their budget) takes nothing from another guest on the same CPU or
 *    from the host's reservations.
 *  - The periodic resource model (Shin & Lee, RTSS 2003): where
 *    dls_analysis_prm_budget() says a guest's set fits its server, no guest
 *    job misses its deadline (random sets, synchronous and not).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/analysis.h>

#include "dls_test.h"
#include "prng.h"
#include "sim.h"
#include "workload.h"

#define MAX_REC 20000

struct rec {
	char thread[24];
	int cpu;
	uint64_t a, b;
	bool job, miss;
};

struct log {
	struct rec r[MAX_REC];
	size_t n;
	uint64_t misses, jobs;
	const char *prefix; /* count jobs and misses of these threads */
	uint64_t prefix_misses, prefix_jobs;
};

static void add(struct log *l, const char *thread, int cpu, uint64_t a, uint64_t b, bool job,
		bool miss)
{
	struct rec *r;

	CU_ASSERT_FATAL(l->n < MAX_REC);
	r = &l->r[l->n++];
	snprintf(r->thread, sizeof(r->thread), "%s", thread);
	r->cpu = cpu;
	r->a = a;
	r->b = b;
	r->job = job;
	r->miss = miss;
}

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	add(arg, thread, cpu, start, end, false, false);
}

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct log *l = arg;

	add(l, thread, -1, release, end, true, miss);
	l->jobs++;
	l->misses += miss;
	if (l->prefix && !strncmp(thread, l->prefix, strlen(l->prefix))) {
		l->prefix_jobs++;
		l->prefix_misses += miss;
	}
}

static bool same_log(const struct log *x, const struct log *y)
{
	if (x->n != y->n)
		return false;
	for (size_t i = 0; i < x->n; i++) {
		const struct rec *a = &x->r[i], *b = &y->r[i];

		if (strcmp(a->thread, b->thread) || a->cpu != b->cpu || a->a != b->a ||
		    a->b != b->b || a->job != b->job || a->miss != b->miss)
			return false;
	}
	return true;
}

/* Run @text with --check and both loops into @l; the exit code, -1 when
 * the file is refused. */
static int run(const char *text, struct log *l)
{
	static struct log other;
	struct workload w;
	struct sim_result r1, r2;

	if (workload_load(&w, "g.json", text, strlen(text), true)) {
		workload_print_diags(&w, stderr);
		workload_free(&w);
		return -1;
	}
	other.prefix = l->prefix;
	for (int scan = 0; scan < 2; scan++) {
		struct log *into = scan ? &other : l;
		struct sim_options opt = { .quiet = true, .check = true, .loop_scan = scan,
					   .loop_queue = !scan, .on_slice = on_slice,
					   .on_job = on_job, .cb_arg = into };

		into->n = 0;
		into->misses = into->jobs = into->prefix_misses = into->prefix_jobs = 0;
		CU_ASSERT_EQUAL_FATAL(sim_run(&w, &opt, stdout, scan ? &r2 : &r1), 0);
	}
	workload_free(&w);
	CU_ASSERT_EQUAL(r1.exit_code, r2.exit_code);
	if (!same_log(l, &other)) {
		fprintf(stderr, "the two loops disagree on:\n%s\n", text);
		CU_FAIL("per-CPU loop != reference loop with servers");
	}
	return r1.exit_code;
}

struct buf {
	char p[8192];
	size_t n;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	b->n += (size_t)vsnprintf(b->p + b->n, sizeof(b->p) - b->n, fmt, ap);
	va_end(ap);
	CU_ASSERT_FATAL(b->n < sizeof(b->p));
}

static uint64_t pick(struct dls_prng *r, uint64_t lo, uint64_t hi)
{
	return lo + dls_prng_below(r, hi - lo + 1);
}

/*
 * One random partitioned workload whose first task "x" is a deadline task
 * (budget, period) that may overrun and block; @in_server puts it inside a
 * one-vCPU server on CPU 0 with the same (budget, period). Admission places
 * the host's deadline tasks first fit after x (or after the server): the
 * same CPUs either way.
 */
static void gen_one(struct dls_prng *r, struct buf *b, bool in_server, uint64_t seed)
{
	int ncpu = (int)pick(r, 1, 3), ntask = (int)pick(r, 1, 5);
	uint64_t period = pick(r, 2, 30) * 1000, budget = pick(r, 1, period / 1000) * 500;
	uint64_t run = pick(r, 1, 3 * budget / 300) * 300;

	b->n = 0;
	put(b, "{ \"platform\": { \"cpus\": %d }, \"simulation\": { \"mode\": \"partitioned\", "
	    "\"horizon_us\": 150000, \"seed\": %llu }, \"tasks\": {", ncpu,
	    (unsigned long long)seed);
	put(b, "\"x\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, \"dl-period\": %llu, "
	    "\"delay\": %llu, ", (unsigned long long)budget, (unsigned long long)period,
	    (unsigned long long)pick(r, 0, 3) * 1000);
	if (pick(r, 0, 2) == 0)
		put(b, "\"sleep\": %llu, ", (unsigned long long)pick(r, 1, 5) * 700);
	put(b, "\"run\": %llu, \"timer\": { \"ref\": \"unique\", \"period\": %llu } }",
	    (unsigned long long)run, (unsigned long long)(pick(r, 0, 1) ? period : period * 2));
	for (int i = 0; i < ntask; i++) {
		int kind = (int)pick(r, 0, 3);
		uint64_t p = pick(r, 2, 30) * 1000, c = pick(r, 1, p / 1000) * 400;

		put(b, ", \"t%d\": { ", i);
		if (kind <= 1)
			put(b, "\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, "
			    "\"dl-period\": %llu, ", (unsigned long long)pick(r, 1,
			    p / 3000 + 1) * 1000, (unsigned long long)p);
		else if (kind == 2)
			put(b, "\"policy\": \"SCHED_FIFO\", \"priority\": %d, ", (int)pick(r, 1, 50));
		put(b, "\"delay\": %llu, \"run\": %llu, \"timer\": { \"ref\": \"unique\", "
		    "\"period\": %llu } }", (unsigned long long)pick(r, 0, 4) * 1000,
		    (unsigned long long)c, (unsigned long long)p);
	}
	put(b, " }");
	if (in_server)
		put(b, ", \"servers\": { \"vm\": { \"runtime\": %llu, \"deadline\": %llu, "
		    "\"period\": %llu, \"cpus\": [0], \"tasks\": [\"x\"] } }",
		    (unsigned long long)budget, (unsigned long long)period,
		    (unsigned long long)period);
	put(b, " }");
}

static void test_one_task_is_a_reservation(void)
{
	static struct log plain, served;
	struct dls_prng r;
	unsigned int compared = 0, refused = 0;
	uint64_t jobs = 0, misses = 0;

	dls_prng_seed(&r, 0x6f6e6574);
	for (int i = 0; i < 1000; i++) {
		struct dls_prng r2;
		struct buf a, b;
		int ra, rb;

		r2 = r;
		gen_one(&r, &a, false, (uint64_t)i + 1);
		gen_one(&r2, &b, true, (uint64_t)i + 1);
		plain.prefix = served.prefix = "x";
		ra = run(a.p, &plain);
		rb = run(b.p, &served);
		CU_ASSERT_EQUAL(ra, rb);
		if (ra) {
			refused++; /* admission: refused alike (the same bandwidth first) */
			continue;
		}
		if (!same_log(&plain, &served)) {
			fprintf(stderr, "set %d: a task in a server differs from its plain "
				"reservation:\n%s\n", i, b.p);
			CU_FAIL("one task in a server != a plain reservation");
			break;
		}
		compared++;
		jobs += plain.prefix_jobs;
		misses += plain.prefix_misses;
	}
	printf("\n  %u sets compared (%u refused alike), %llu jobs of x, %llu missed\n",
	       compared, refused, (unsigned long long)jobs, (unsigned long long)misses);
	CU_ASSERT_TRUE(compared > 800);
	CU_ASSERT_TRUE(misses > 0); /* the hard case is in: x overruns and misses */
}

/*
 * Isolation on one CPU: guest "bad" (25 %) runs soft reservations that
 * overrun threefold; guest "good" gets the budget the periodic resource
 * model asks for its tasks at a 5 ms period; a host task takes 30 %. The
 * good guest and the host miss nothing; the bad guest misses.
 */
static void test_isolation(void)
{
	static struct log l;
	struct dls_params good[2] = {
		{ .runtime = 1000 * 1000, .deadline = 10000 * 1000, .period = 10000 * 1000 },
		{ .runtime = 2000 * 1000, .deadline = 25000 * 1000, .period = 25000 * 1000 },
	};
	struct dls_analysis_result pr;
	struct buf b = { .n = 0 };
	uint64_t theta;

	CU_ASSERT_EQUAL_FATAL(dls_analysis_prm_budget(good, 2, 5000 * 1000, &pr), 0);
	CU_ASSERT_TRUE_FATAL(pr.schedulable);
	theta = (pr.value + 999) / 1000; /* us, rounded up */
	put(&b, "{ \"platform\": { \"cpus\": 1 }, \"simulation\": { \"horizon_us\": 500000 },"
	    " \"tasks\": {"
	    " \"bad1\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000,"
	    "   \"dl-soft\": true, \"run\": 3000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } },"
	    " \"bad2\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000,"
	    "   \"dl-soft\": true, \"run\": 3000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } },"
	    " \"good1\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000,"
	    "   \"run\": 1000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } },"
	    " \"good2\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 25000,"
	    "   \"run\": 2000, \"timer\": { \"ref\": \"unique\", \"period\": 25000 } },"
	    " \"host\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 10000,"
	    "   \"run\": 3000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } },"
	    " \"servers\": {"
	    " \"bad\": { \"runtime\": 2500, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0],"
	    "   \"tasks\": [\"bad1\", \"bad2\"] },"
	    " \"good\": { \"runtime\": %llu, \"deadline\": 5000, \"period\": 5000, \"cpus\": [0],"
	    "   \"tasks\": [\"good1\", \"good2\"] } } }", (unsigned long long)theta);
	l.prefix = "good";
	CU_ASSERT_EQUAL_FATAL(run(b.p, &l), 0);
	DLS_ASSERT_EQ_U64(l.prefix_misses, 0);
	CU_ASSERT_EQUAL(l.prefix_jobs, 50 + 20);
	l.prefix = "host";
	CU_ASSERT_EQUAL_FATAL(run(b.p, &l), 0);
	DLS_ASSERT_EQ_U64(l.prefix_misses, 0);
	CU_ASSERT_EQUAL(l.prefix_jobs, 50);
	/* it overran: 6 ms of work every 10 ms on 2.5 ms of server, so at most
	 * 125 ms / 3 ms = 41 jobs end in the 500 ms, every one late */
	l.prefix = "bad";
	CU_ASSERT_EQUAL_FATAL(run(b.p, &l), 0);
	CU_ASSERT_TRUE(l.prefix_jobs > 30 && l.prefix_jobs <= 41);
	DLS_ASSERT_EQ_U64(l.prefix_misses, l.prefix_jobs);
}

/*
 * Random guests: 2-4 implicit-deadline tasks (periods multiples of 1 ms,
 * releases synchronous or offset), a server period Pi, the budget
 * dls_analysis_prm_budget() computes (rounded up to a microsecond, so the
 * set fits), next to a host task with the rest of the CPU under the 95 %
 * limit. No guest job may miss its deadline.
 */
static void test_prm_fit_meets_deadlines(void)
{
	static struct log l;
	struct dls_prng r;
	uint64_t jobs = 0;
	unsigned int sets = 0;

	dls_prng_seed(&r, 0x70726d);
	for (int i = 0; i < 500; i++) {
		struct dls_params ts[4];
		struct dls_analysis_result pr;
		int n = (int)pick(&r, 2, 4);
		uint64_t pi_us = pick(&r, 2, 10) * 1000, theta, host_c;
		double u = 0;
		struct buf b = { .n = 0 };

		for (int k = 0; k < n; k++) {
			uint64_t t = pick(&r, 5, 40) * 1000;
			uint64_t c = pick(&r, 1, t / 8000 + 1) * 250;

			ts[k] = (struct dls_params){ .runtime = c * 1000, .deadline = t * 1000,
						     .period = t * 1000 };
			u += (double)c / (double)t;
		}
		if (dls_analysis_prm_budget(ts, (size_t)n, pi_us * 1000, &pr) || !pr.schedulable)
			continue;
		theta = (pr.value + 999) / 1000;
		if (theta > pi_us || (double)theta / (double)pi_us > 0.9)
			continue;
		host_c = (uint64_t)((0.94 - (double)theta / (double)pi_us) * 10000);
		put(&b, "{ \"platform\": { \"cpus\": 1 }, \"simulation\": { \"horizon_us\": 200000 },"
		    " \"tasks\": { \"host\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu,"
		    " \"dl-period\": 10000, \"run\": %llu, \"timer\": { \"ref\": \"unique\","
		    " \"period\": 10000 } }", (unsigned long long)host_c,
		    (unsigned long long)host_c);
		for (int k = 0; k < n; k++)
			put(&b, ", \"g%d\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu,"
			    " \"dl-period\": %llu, \"delay\": %llu, \"run\": %llu, \"timer\":"
			    " { \"ref\": \"unique\", \"period\": %llu } }", k,
			    (unsigned long long)(ts[k].runtime / 1000),
			    (unsigned long long)(ts[k].period / 1000),
			    (unsigned long long)(pick(&r, 0, 1) ? 0 : pick(&r, 0, 9) * 1000),
			    (unsigned long long)(ts[k].runtime / 1000),
			    (unsigned long long)(ts[k].period / 1000));
		put(&b, " }, \"servers\": { \"vm\": { \"runtime\": %llu, \"deadline\": %llu, "
		    "\"period\": %llu, \"cpus\": [0], \"tasks\": [", (unsigned long long)theta,
		    (unsigned long long)pi_us, (unsigned long long)pi_us);
		for (int k = 0; k < n; k++)
			put(&b, "%s\"g%d\"", k ? ", " : "", k);
		put(&b, "] } } }");
		l.prefix = "g";
		if (run(b.p, &l)) {
			fprintf(stderr, "set %d refused:\n%s\n", i, b.p);
			CU_FAIL("a set that fits was refused");
			continue;
		}
		if (l.prefix_misses) {
			fprintf(stderr, "set %d (U %.3f, theta %llu us of %llu): %llu guest misses:\n%s\n",
				i, u, (unsigned long long)theta, (unsigned long long)pi_us,
				(unsigned long long)l.prefix_misses, b.p);
			CU_FAIL("a guest the periodic resource model admits missed a deadline");
		}
		jobs += l.prefix_jobs;
		sets++;
	}
	printf("\n  %u guests, %llu guest jobs\n", sets, (unsigned long long)jobs);
	CU_ASSERT_TRUE(sets > 250);
}

static const struct dls_test_case cases[] = {
	{ "one task in a server == its plain reservation (random)", test_one_task_is_a_reservation },
	{ "an overrunning guest takes nothing from the others", test_isolation },
	{ "guests the periodic resource model admits meet their deadlines",
	  test_prm_fit_meets_deadlines },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim guests", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
