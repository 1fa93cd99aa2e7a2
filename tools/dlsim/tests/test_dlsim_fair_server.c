/*
 * platform.fair_server: a deadline server on every CPU for the lower
 * classes, as Linux's fair server (dl_server; deferred from 6.12, commit
 * a110a81c "sched/deadline: Deferrable dl server"). The semantics the
 * hand-derived schedules below follow, from kernel/sched/deadline.c:
 *  - the server starts when its class gets work (dl_server_start()): a
 *    deferred one holds an instance (d, q) and arms its timer at the
 *    zero-laxity time d - q; not deferred, it is queued at once;
 *  - while deferred, the time its class runs outside it is charged to q;
 *    a q spent that way starts a new period, deferred again
 *    (update_curr_dl_se(): "the server is not required for the current
 *    period");
 *  - at zero laxity with work it is queued with the instance it holds
 *    (dl_defer_running) and from then on is a plain reservation: throttled
 *    when q is spent, replenished at its deadline, until its class has no
 *    work (dl_server_stop()).
 * Every case runs with --check (the library's and dlsim's validators after
 * every step, dls_server_check() among them) and with both step loops.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "prng.h"
#include "sim.h"
#include "workload.h"

#define MS UINT64_C(1000000)
#define MAX_SLICES 4096

/* The run slices of one thread (merged where they touch), and every job's
 * response time of the threads named with a prefix. */
struct watch {
	const char *thread;
	uint64_t start[MAX_SLICES], end[MAX_SLICES];
	int n;
	uint64_t total;
	const char *job_prefix;
	uint64_t resp_max, jobs;
};

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	struct watch *w = arg;

	(void)cpu;
	if (strcmp(thread, w->thread))
		return;
	w->total += end - start;
	if (w->n && w->end[w->n - 1] == start) {
		w->end[w->n - 1] = end;
		return;
	}
	CU_ASSERT_FATAL(w->n < MAX_SLICES);
	w->start[w->n] = start;
	w->end[w->n++] = end;
}

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct watch *w = arg;

	(void)miss;
	if (!w->job_prefix || strncmp(thread, w->job_prefix, strlen(w->job_prefix)))
		return;
	w->jobs++;
	if (end - release > w->resp_max)
		w->resp_max = end - release;
}

/* Run @text with both loops (they must agree on what @w sees); returns
 * the exit code, -1 when the file is refused. */
static int run(const char *text, struct watch *w, struct sim_result *res)
{
	struct workload wl;
	struct watch other = *w;
	struct sim_result r2;
	int rc = -1;

	if (workload_load(&wl, "w.json", text, strlen(text), true)) {
		workload_free(&wl);
		return -1;
	}
	for (int scan = 0; scan < 2; scan++) {
		struct watch *into = scan ? &other : w;
		struct sim_options opt = { .quiet = true, .check = true, .loop_scan = scan,
					   .loop_queue = !scan, .on_slice = on_slice,
					   .on_job = on_job, .cb_arg = into };

		into->n = 0;
		into->total = into->resp_max = into->jobs = 0;
		CU_ASSERT_EQUAL_FATAL(sim_run(&wl, &opt, stdout, scan ? &r2 : res), 0);
	}
	workload_free(&wl);
	rc = res->exit_code;
	CU_ASSERT_EQUAL(res->exit_code, r2.exit_code);
	CU_ASSERT_EQUAL(w->n, other.n);
	CU_ASSERT_TRUE(!memcmp(w->start, other.start, sizeof(w->start[0]) * (size_t)w->n));
	CU_ASSERT_TRUE(!memcmp(w->end, other.end, sizeof(w->end[0]) * (size_t)w->n));
	DLS_ASSERT_EQ_U64(res->fair_server_ns, r2.fair_server_ns);
	return rc;
}

/* One CPU, a SCHED_FIFO thread that never blocks and a fair thread that
 * never blocks, the fair server @fs (a JSON object's members). */
static int starved(const char *fs, struct watch *w, struct sim_result *res)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{ \"platform\": { \"cpus\": 1, \"fair_server\": { %s } },"
		 "  \"simulation\": { \"horizon_us\": 1000000 },"
		 "  \"tasks\": {"
		 "    \"hog\": { \"policy\": \"SCHED_FIFO\", \"priority\": 50, \"run\": 5000000 },"
		 "    \"fair\": { \"policy\": \"SCHED_OTHER\", \"run\": 5000000 } } }", fs);
	return run(text, w, res);
}

/*
 * Deferred, 10 ms every 100 ms, the fair class starved by SCHED_FIFO from
 * 0: started at 0 with (d = 100, q = 10), zero laxity at 90; it runs
 * [90, 100], is throttled at its deadline and replenished there to
 * (200, 10), runs [100, 110] (it stays a plain reservation: dl_defer_running),
 * then [200, 210], ..., [900, 910]: 100 ms in the 1 s, 10 throttles.
 */
static void test_deferred_starved(void)
{
	static struct watch w = { .thread = "fair" };
	struct sim_result res;

	CU_ASSERT_EQUAL_FATAL(starved("\"runtime_us\": 10000, \"period_us\": 100000", &w, &res), 0);
	CU_ASSERT_EQUAL_FATAL(w.n, 9);
	DLS_ASSERT_EQ_U64(w.start[0], 90 * MS);
	DLS_ASSERT_EQ_U64(w.end[0], 110 * MS);
	for (int k = 1; k < 9; k++) {
		DLS_ASSERT_EQ_U64(w.start[k], (uint64_t)(k + 1) * 100 * MS);
		DLS_ASSERT_EQ_U64(w.end[k], (uint64_t)(k + 1) * 100 * MS + 10 * MS);
	}
	DLS_ASSERT_EQ_U64(w.total, 100 * MS);
	DLS_ASSERT_EQ_U64(res.fair_server_ns, 100 * MS);
	DLS_ASSERT_EQ_U64(res.fair_server_throttles, 10);
}

/*
 * Not deferred (Linux 6.8's server), the same load: queued at 0 with
 * (100, 10), it runs [0, 10], [100, 110], ..., [900, 910].
 */
static void test_not_deferred_starved(void)
{
	static struct watch w = { .thread = "fair" };
	struct sim_result res;

	CU_ASSERT_EQUAL_FATAL(starved("\"runtime_us\": 10000, \"period_us\": 100000, "
				      "\"defer\": false", &w, &res), 0);
	CU_ASSERT_EQUAL_FATAL(w.n, 10);
	for (int k = 0; k < 10; k++) {
		DLS_ASSERT_EQ_U64(w.start[k], (uint64_t)k * 100 * MS);
		DLS_ASSERT_EQ_U64(w.end[k], (uint64_t)k * 100 * MS + 10 * MS);
	}
	DLS_ASSERT_EQ_U64(res.fair_server_ns, 100 * MS);
}

/* Linux's defaults (50 ms every 1 s), deferred: [950, 1000] in the first second. */
static void test_linux_defaults(void)
{
	static struct watch w = { .thread = "fair" };
	struct sim_result res;

	CU_ASSERT_EQUAL_FATAL(starved("", &w, &res), 0);
	CU_ASSERT_EQUAL_FATAL(w.n, 1);
	DLS_ASSERT_EQ_U64(w.start[0], 950 * MS);
	DLS_ASSERT_EQ_U64(w.end[0], 1000 * MS);
}

/*
 * A fair class that is not starved never needs its server: SCHED_FIFO runs
 * 50 ms every 100 ms, the fair thread the other 50 ms, in background; each
 * 10 ms it runs there spends a deferred q and starts a new period, so zero
 * laxity is never reached. The fair thread's slices are those of the same
 * file without a server, and nothing runs inside the server.
 */
static void test_not_starved_never_runs(void)
{
	static const char *const tmpl =
		"{ \"platform\": { \"cpus\": 1 %s },"
		"  \"simulation\": { \"horizon_us\": 1000000 },"
		"  \"tasks\": {"
		"    \"rt\": { \"policy\": \"SCHED_FIFO\", \"priority\": 50, \"run\": 50000,"
		"              \"timer\": { \"ref\": \"unique\", \"period\": 100000 } },"
		"    \"fair\": { \"policy\": \"SCHED_OTHER\", \"run\": 5000000 } } }";
	static struct watch with = { .thread = "fair" }, without = { .thread = "fair" };
	struct sim_result r1, r2;
	char text[1024];

	snprintf(text, sizeof(text), tmpl,
		 ", \"fair_server\": { \"runtime_us\": 10000, \"period_us\": 100000 }");
	CU_ASSERT_EQUAL_FATAL(run(text, &with, &r1), 0);
	snprintf(text, sizeof(text), tmpl, "");
	CU_ASSERT_EQUAL_FATAL(run(text, &without, &r2), 0);
	DLS_ASSERT_EQ_U64(r1.fair_server_ns, 0);
	CU_ASSERT_EQUAL_FATAL(with.n, without.n);
	CU_ASSERT_EQUAL(with.n, 10);
	for (int k = 0; k < with.n; k++) {
		DLS_ASSERT_EQ_U64(with.start[k], without.start[k]);
		DLS_ASSERT_EQ_U64(with.end[k], without.end[k]);
	}
	DLS_ASSERT_EQ_U64(with.total, 500 * MS);
}

/*
 * "serve": "rt": the SCHED_FIFO threads as a group behind a server of 2 ms
 * every 10 ms, under a deadline thread that runs 70 ms of every 100 ms. A
 * FIFO job (1 ms every 10 ms) released while the deadline thread runs
 * waits for the server's zero laxity: released at r, the server starts
 * with (r + 10, 2) (the old instance's deadline has passed: a new one),
 * runs at r + 8 and the job ends at r + 9; one released after the deadline
 * thread is done runs at once (in background). Worst response: 9 ms, the
 * server's period bounding it. Without the server the first FIFO job
 * waits for the whole 70 ms.
 */
static void test_rt_group_bounded(void)
{
	static const char *const tmpl =
		"{ \"platform\": { \"cpus\": 1 %s },"
		"  \"simulation\": { \"horizon_us\": 1000000 },"
		"  \"tasks\": {"
		"    \"dl\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 70000,"
		"              \"dl-period\": 100000, \"run\": 70000,"
		"              \"timer\": { \"ref\": \"unique\", \"period\": 100000 } },"
		"    \"cyclic\": { \"policy\": \"SCHED_FIFO\", \"priority\": 80, \"run\": 1000,"
		"              \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	static struct watch with = { .thread = "cyclic", .job_prefix = "cyclic" };
	static struct watch without = { .thread = "cyclic", .job_prefix = "cyclic" };
	struct sim_result r1, r2;
	char text[1024];

	snprintf(text, sizeof(text), tmpl, ", \"fair_server\": { \"runtime_us\": 2000, "
		 "\"period_us\": 10000, \"serve\": \"rt\" }");
	CU_ASSERT_EQUAL_FATAL(run(text, &with, &r1), 0);
	snprintf(text, sizeof(text), tmpl, "");
	CU_ASSERT_EQUAL_FATAL(run(text, &without, &r2), 0);
	DLS_ASSERT_EQ_U64(with.resp_max, 9 * MS);
	CU_ASSERT_EQUAL(with.jobs, 100);
	DLS_ASSERT_EQ_U64(without.resp_max, 71 * MS);
}

/* Refusals: bad keys and values, with hotplug, and admission. */
static void test_refused(void)
{
	static const char *const bad[] = {
		"\"runtime_us\": 0", "\"period_us\": 0", "\"runtime_us\": 20, \"period_us\": 10",
		"\"defer\": 1", "\"serve\": \"batch\"", "\"serve\": 3", "\"budget\": 5",
	};
	static struct watch w = { .thread = "fair" };
	struct sim_result res;
	char text[1024];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(starved(bad[i], &w, &res), -1);
	snprintf(text, sizeof(text),
		 "{ \"platform\": { \"cpus\": 2, \"fair_server\": {} },"
		 "  \"simulation\": { \"hotplug\": [ { \"cpu\": 1, \"at_us\": 10, \"online\": false } ] },"
		 "  \"tasks\": { \"t\": { \"run\": 10 } } }");
	CU_ASSERT_EQUAL(run(text, &w, &res), -1);
	/* 96 % of the CPU leaves no room for the deadline thread under the
	 * default 95 % limit: the run is refused (exit 2), as Linux counts the
	 * fair server's bandwidth in the root domain's */
	snprintf(text, sizeof(text),
		 "{ \"platform\": { \"cpus\": 1, \"fair_server\": { \"runtime_us\": 960, "
		 "\"period_us\": 1000 } },"
		 "  \"tasks\": { \"t\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 100,"
		 "  \"dl-period\": 1000, \"run\": 10 } } }");
	CU_ASSERT_EQUAL(run(text, &w, &res), DLSIM_EXIT_REFUSED);
}

/*
 * Random sets: 1 or 2 CPUs (partitioned), on each a fair thread that never
 * blocks, SCHED_FIFO threads of random periodic loads (up to overload) and
 * sometimes a deadline thread, and a random deferred fair server (q, P).
 * Checked, besides the validators at every step and the two loops'
 * agreement: the server gives its class no more than its bandwidth (at
 * most q per instance: q * (H / P + 1) on a CPU), and, where nothing but
 * FIFO competes, no less: every window of 2P holds at least q of fair time
 * (an instance that does not see q in background reaches zero laxity by
 * its deadline and then gets q of every period, first in EDF order).
 */
static void test_random_share(void)
{
	struct dls_prng r;
	static struct watch w;
	uint64_t checked = 0, served = 0, background = 0;

	dls_prng_seed(&r, 0x66736672);
	for (int iter = 0; iter < 500; iter++) {
		char text[4096], name[16];
		size_t len = 0;
		uint64_t period_us = 2000 + dls_prng_below(&r, 30) * 1000;
		uint64_t q_us = 200 + dls_prng_below(&r, period_us / 2 - 200);
		uint64_t horizon = 300 * MS;
		int nfifo = 1 + (int)dls_prng_below(&r, 3);
		bool dl = dls_prng_below(&r, 3) == 0;
		struct sim_result res;

		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"{ \"platform\": { \"cpus\": 1, \"fair_server\": { \"runtime_us\": %llu, "
			"\"period_us\": %llu } }, \"simulation\": { \"horizon_us\": 300000, "
			"\"seed\": %d }, \"tasks\": { \"fair\": { \"run\": 10000000 }",
			(unsigned long long)q_us, (unsigned long long)period_us, iter + 1);
		for (int k = 0; k < nfifo; k++) {
			uint64_t p = 1000 + dls_prng_below(&r, 40) * 500;
			uint64_t c = 100 + dls_prng_below(&r, p);

			len += (size_t)snprintf(text + len, sizeof(text) - len,
				", \"rt%d\": { \"policy\": \"SCHED_FIFO\", \"priority\": %d, "
				"\"run\": %llu, \"timer\": { \"ref\": \"unique\", \"period\": %llu } }",
				k, 10 + k, (unsigned long long)c, (unsigned long long)p);
		}
		if (dl)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
				", \"d\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, "
				"\"dl-period\": 10000, \"run\": 1500, "
				"\"timer\": { \"ref\": \"unique\", \"period\": 10000 } }");
		snprintf(text + len, sizeof(text) - len, " } }");
		snprintf(name, sizeof(name), "fair");
		w.thread = name;
		w.job_prefix = NULL;
		if (run(text, &w, &res)) {
			fprintf(stderr, "set %d refused:\n%s\n", iter, text);
			CU_FAIL("a random set did not run");
			continue;
		}
		served += res.fair_server_ns > 0;
		background += res.fair_server_ns == 0;
		/* no more than its bandwidth */
		CU_ASSERT_TRUE(res.fair_server_ns <= q_us * 1000 * (horizon / (period_us * 1000) + 1));
		if (dl)
			continue;
		/* no less: q in every window of 2P (windows on a grid of P / 2) */
		for (uint64_t t = 0; t + 2 * period_us * 1000 <= horizon; t += period_us * 500) {
			uint64_t a = t, b = t + 2 * period_us * 1000, got = 0;

			for (int k = 0; k < w.n; k++) {
				uint64_t s = w.start[k] > a ? w.start[k] : a;
				uint64_t e = w.end[k] < b ? w.end[k] : b;

				got += e > s ? e - s : 0;
			}
			if (got < q_us * 1000) {
				fprintf(stderr, "set %d: %llu ns of fair time in [%llu, %llu):\n%s\n",
					iter, (unsigned long long)got, (unsigned long long)a,
					(unsigned long long)b, text);
				CU_FAIL("the fair server gave less than its budget in a window of 2P");
				break;
			}
			checked++;
		}
	}
	/* both kinds of set: starved (the server ran) and not */
	CU_ASSERT_TRUE(checked > 3000);
	CU_ASSERT_TRUE(served > 60 && background > 60);
}

static const struct dls_test_case cases[] = {
	{ "deferred server under a FIFO hog (hand-derived)", test_deferred_starved },
	{ "server not deferred (6.8) under a FIFO hog (hand-derived)", test_not_deferred_starved },
	{ "Linux's defaults: 50 ms every 1 s", test_linux_defaults },
	{ "a class not starved never runs inside (hand-derived)", test_not_starved_never_runs },
	{ "FIFO threads as a group: response bounded by the period", test_rt_group_bounded },
	{ "refusals", test_refused },
	{ "random sets: the share, no more and no less", test_random_share },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim fair server", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
