/*
 * rt-app's events as rt-app runs them (rt-app doc/tutorial.txt, "events",
 * and src/rt-app.c, run_event()): shared and unique timers, mem and iorun
 * as bytes at the platform's rates, semaphores. Each schedule is worked out
 * by hand from the tutorial's description and rt-app's code, cited per case;
 * FIFO threads, each alone on its CPU unless said otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "dls_test_dlsim.h"
#include "workload.h"

#define MS UINT64_C(1000000)
#define MAX_JOBS 32

struct job {
	char thread[16];
	uint64_t release, end;
	bool miss;
};

struct jobs {
	struct job j[MAX_JOBS];
	size_t n;
	uint64_t busy; /* run slices' total */
};

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct jobs *e = arg;

	if (e->n < MAX_JOBS) {
		snprintf(e->j[e->n].thread, sizeof(e->j[0].thread), "%s", thread);
		e->j[e->n].release = release;
		e->j[e->n].end = end;
		e->j[e->n].miss = miss;
		e->n++;
	}
}

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	struct jobs *e = arg;

	(void)cpu;
	(void)thread;
	e->busy += end - start;
}

/* Load @text (strict unless @lax) and simulate it; the completed jobs in @e. */
static struct sim_result run_lax(const char *text, struct jobs *e, bool lax)
{
	struct workload w;
	struct sim_result res;
	struct sim_options opt = { .check = true, .quiet = true, .on_job = on_job,
				   .on_slice = on_slice, .cb_arg = e };

	memset(&res, 0, sizeof(res));
	e->n = 0;
	e->busy = 0;
	if (workload_load(&w, "w.json", text, strlen(text), !lax)) {
		workload_print_diags(&w, stderr);
		workload_free(&w);
		CU_FAIL_FATAL("workload did not load");
	}
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	workload_free(&w);
	return res;
}

static struct sim_result run(const char *text, struct jobs *e)
{
	return run_lax(text, e, false);
}

/* Expect job @i to be @thread's, released at @rel_ms, ended at @end_ms. */
static void expect_job(const struct jobs *e, size_t i, const char *thread, uint64_t rel_ms,
		       uint64_t end_ms, bool miss)
{
	CU_ASSERT_FATAL(i < e->n);
	CU_ASSERT_STRING_EQUAL(e->j[i].thread, thread);
	DLS_ASSERT_EQ_U64(e->j[i].release, rel_ms * MS);
	DLS_ASSERT_EQ_U64(e->j[i].end, end_ms * MS);
	CU_ASSERT_EQUAL(e->j[i].miss, miss);
}

/*
 * Two threads name one timer (ref "tick", not "unique"): rt-app keeps one
 * expiry for it and every use adds its period (run_event(), rtapp_timer:
 * t_next += period; the tutorial's "timer": "the timer will be shared
 * across the thread instance which disturbs the original sequence"). a and
 * b run 1 ms from 0; a reaches the timer first (thread order) and sleeps to
 * 10, b to 20; a at 11 sets 30, b at 21 sets 40: they take turns, each
 * every 20 ms. b's job ending at 1 ms has the deadline 20 (its slack).
 */
static void test_shared_timer(void)
{
	struct jobs e;

	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 45000}, "
	    "\"tasks\": {"
	    "\"a\": {\"policy\": \"SCHED_FIFO\", \"run\": 1000, "
	    "\"timer\": {\"ref\": \"tick\", \"period\": 10000}}, "
	    "\"b\": {\"policy\": \"SCHED_FIFO\", \"run\": 1000, "
	    "\"timer\": {\"ref\": \"tick\", \"period\": 10000}}}}", &e);
	DLS_ASSERT_EQ_U64(e.n, 6);
	expect_job(&e, 0, "a", 0, 1, false);
	expect_job(&e, 1, "b", 0, 1, false);
	expect_job(&e, 2, "a", 10, 11, false);
	expect_job(&e, 3, "b", 20, 21, false);
	expect_job(&e, 4, "a", 30, 31, false);
	expect_job(&e, 5, "b", 40, 41, false);
}

/*
 * A job's deadline is the shared timer's next expiry when the job ends:
 * b runs 12 ms per job. a's uses set 10 (at 1 ms) and 20 (at 11); b's
 * first job ends at 12 and its use sets 30: that is its deadline (rt-app's
 * slack, t_next - now = 18 ms), met. With a timer of its own the deadline
 * would be 10 and the job a miss. a at 21 sets 40, b at 42 sets 50.
 */
static void test_shared_timer_deadline(void)
{
	struct jobs e;

	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 45000}, "
	    "\"tasks\": {"
	    "\"a\": {\"policy\": \"SCHED_FIFO\", \"run\": 1000, "
	    "\"timer\": {\"ref\": \"tick\", \"period\": 10000}}, "
	    "\"b\": {\"policy\": \"SCHED_FIFO\", \"run\": 12000, "
	    "\"timer\": {\"ref\": \"tick\", \"period\": 10000}}}}", &e);
	DLS_ASSERT_EQ_U64(e.n, 6);
	expect_job(&e, 0, "a", 0, 1, false);
	expect_job(&e, 1, "a", 10, 11, false);
	expect_job(&e, 2, "b", 0, 12, false);
	expect_job(&e, 3, "a", 20, 21, false);
	expect_job(&e, 4, "a", 40, 41, false);
	expect_job(&e, 5, "b", 30, 42, false);
}

/*
 * At the end of the run, an unfinished job of a deadline thread counts as
 * overdue when the deadline its next timer use would give it has passed.
 * With a shared timer that is the timer's expiry now plus the period: b's
 * 50 ms job is unfinished at 25 ms, when a's uses (at 1, 11, 21) have moved
 * "tick" to 30, so b's deadline would be 40: not overdue. With a timer of
 * its own b's deadline would be 10: overdue.
 */
static void test_overdue_shared_timer(void)
{
	static const char fmt[] =
		"{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 25000}, "
		"\"tasks\": {"
		"\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, "
		"\"dl-period\": 10000, \"run\": 1000, "
		"\"timer\": {\"ref\": \"tick\", \"period\": 10000}}, "
		"\"b\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 50000, "
		"\"dl-period\": 100000, \"run\": 50000, "
		"\"timer\": {\"ref\": \"%s\", \"period\": 10000}}}}";
	char text[1024];
	struct jobs e;
	struct sim_result res;

	snprintf(text, sizeof(text), fmt, "tick");
	res = run(text, &e);
	DLS_ASSERT_EQ_U64(res.overdue, 0);
	snprintf(text, sizeof(text), fmt, "unique");
	res = run(text, &e);
	DLS_ASSERT_EQ_U64(res.overdue, 1);
}

/*
 * Instances share a timer too (the tutorial: "the timer will be shared
 * across the thread instance"), unless its ref starts with "unique": two
 * instances on two CPUs with a "uniqueX" timer each release every 10 ms
 * together.
 */
static void test_unique_timer_per_instance(void)
{
	struct jobs e;

	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 15000}, "
	    "\"tasks\": {\"a\": {\"policy\": \"SCHED_FIFO\", \"instance\": 2, \"run\": 1000, "
	    "\"timer\": {\"ref\": \"uniqueX\", \"period\": 10000}}}}", &e);
	DLS_ASSERT_EQ_U64(e.n, 4);
	expect_job(&e, 0, "a-0", 0, 1, false);
	expect_job(&e, 1, "a-1", 0, 1, false);
	expect_job(&e, 2, "a-0", 10, 11, false);
	expect_job(&e, 3, "a-1", 10, 11, false);
}

/*
 * Nine timers of one thread, each its own (the tutorial: "If you want to
 * refer to different timer you must use different name"): timer k has
 * period 10 (k + 1) ms, and its first expiry counts from the thread's start
 * (run_event(): t_next = t_first on first use). Each job runs 1 ms: jobs
 * end at 1, 11, ..., 81 and the ninth timer (90 ms) releases the tenth job
 * at 90. A ninth timer sharing the first's state would release it at 100.
 * That job's timer (the first, 10 ms) expired at 20 already: a miss, and a
 * relative timer goes straight on (the tutorial's "relative" mode).
 */
static void test_nine_timers(void)
{
	char text[2048];
	size_t n;
	struct jobs e;

	n = (size_t)snprintf(text, sizeof(text), "{\"simulation\": {\"horizon_us\": 91500}, "
			     "\"tasks\": {\"a\": {\"policy\": \"SCHED_FIFO\"");
	for (int k = 0; k < 9; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, ", \"run%d\": 1000, "
				      "\"timer%d\": {\"ref\": \"unique%c\", \"period\": %d}",
				      k, k, 'A' + k, 10000 * (k + 1));
	snprintf(text + n, sizeof(text) - n, "}}}");
	run(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 10);
	for (size_t k = 0; k < 10 && k < e.n; k++)
		expect_job(&e, k, "a", 10 * k, 10 * k + 1, k == 9);
}

/*
 * rt-app keeps one mode per timer: the reader says so where one use is
 * written relative and another makes the timer absolute
 * (rt-app_parse_config.c clears the timer's relative flag for good).
 */
static void test_timer_one_mode(void)
{
	static const char text[] =
		"{\"tasks\": {\"a\": {\"phases\": {"
		"\"p\": {\"run\": 1000, \"timer\": {\"ref\": \"t\", \"period\": 10000}},"
		"\"q\": {\"run\": 1000, \"timer\": {\"ref\": \"t\", \"period\": 10000, "
		"\"mode\": \"absolute\"}}}}}}";
	struct workload w;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, sizeof(text) - 1, false), 0);
	DLS_ASSERT_EQ_U64(w.nr_diags, 1);
	if (w.nr_diags)
		CU_ASSERT_PTR_NOT_NULL(strstr(w.diags[0], "timer \"t\" is absolute"));
	CU_ASSERT_TRUE(w.tasks[0].phases[0].events[1].absolute);
	workload_free(&w);
}

/*
 * mem and iorun are bytes (the tutorial: "mem : Integer. ... the size in
 * byte to be written into the memory buffer", "iorun : ... the size in
 * byte to be write into the IO device"): CPU work of bytes / rate at the
 * platform's mem_bw / io_bw. 2 MB at 1 GB/s is 2 ms, 3 MB is 3 ms: the job
 * ends at 5 ms; on a CPU of capacity 512 at 10 ms (the rates are at
 * capacity 1024, as run's times are).
 */
static void test_mem_iorun_bytes(void)
{
	static const char fmt[] =
		"{\"platform\": {\"cpus\": 1, \"capacity\": [%d], \"mem_bw\": 1000000000, "
		"\"io_bw\": 1000000000}, \"simulation\": {\"horizon_us\": 20000}, "
		"\"tasks\": {\"a\": {\"policy\": \"SCHED_FIFO\", \"mem\": 2000000, "
		"\"iorun\": 3000000, \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}";
	char text[512];
	struct jobs e;

	snprintf(text, sizeof(text), fmt, 1024);
	run(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	expect_job(&e, 0, "a", 0, 5, false);
	snprintf(text, sizeof(text), fmt, 512);
	run(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	expect_job(&e, 0, "a", 0, 10, false);
}

/*
 * Without the rates the file gets the defaults, said out loud (a warning
 * with the event's position; an error under --strict): rt-app's tutorial
 * example 6 (run 1000 us, mem 1000 B, sleep 5000 us, iorun 100000 B, in a
 * loop) keeps one CPU 1000.1 + 1 us busy per 6001.1 us: in 12 ms it runs
 * 0-1000.1 (run, mem), 6000.1-6001.1 (iorun), 6001.1-7001.2 (run, mem).
 */
static void test_mem_iorun_defaults(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 12000}, \"tasks\": {\"a\": {"
		"\"loop\": -1, \"run\": 1000, \"mem\": 1000, \"sleep\": 5000, "
		"\"iorun\": 100000}}}";
	struct workload w;
	struct jobs e;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, sizeof(text) - 1, false), 0);
	DLS_ASSERT_EQ_U64(w.nr_diags, 2);
	if (w.nr_diags == 2) {
		CU_ASSERT_PTR_NOT_NULL(strstr(w.diags[0], "w.json:1:87: warning: \"mem\" writes "
					      "bytes: no platform.mem_bw given, so 10000000000"));
		CU_ASSERT_PTR_NOT_NULL(strstr(w.diags[1], "w.json:1:117: warning: \"iorun\" "
					      "writes bytes: no platform.io_bw given, so "
					      "100000000000"));
	}
	workload_free(&w);
	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, sizeof(text) - 1, true), -1);
	workload_free(&w);
	run_lax(text, &e, true);
	DLS_ASSERT_EQ_U64(e.busy, 2001200);
}

/* memrun (rt-app master) is refused by name: its time is the caches'. */
static void test_memrun_refused(void)
{
	static const char text[] =
		"{\"tasks\": {\"a\": {\"memrun\": {\"type\": \"read\", \"size\": 4096, "
		"\"count\": 4096}}}}";
	struct workload w;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, sizeof(text) - 1, false), -1);
	CU_ASSERT_PTR_NOT_NULL(w.nr_diags ? strstr(w.diags[0], "w.json:1:18: error: \"memrun\"")
				: NULL);
	workload_free(&w);
}

#define SEM_TIMER "\"timer\": {\"ref\": \"unique\", \"period\": 100000}"

/*
 * sem_wait blocks until a sem_post (the tutorial's "sem_wait": "Decrement
 * the POSIX semaphore ..., or block until count > 0"): b waits from 0, a
 * posts after its 2 ms run, b runs 2-3.
 */
static void test_sem_orders(void)
{
	struct jobs e;

	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 20000}, "
	    "\"tasks\": {"
	    "\"a\": {\"policy\": \"SCHED_FIFO\", \"run\": 2000, \"sem_post\": \"s\", "
	    SEM_TIMER "}, "
	    "\"b\": {\"policy\": \"SCHED_FIFO\", \"sem_wait\": \"s\", \"run\": 1000, "
	    SEM_TIMER "}}}", &e);
	DLS_ASSERT_EQ_U64(e.n, 2);
	expect_job(&e, 0, "a", 0, 2, false);
	expect_job(&e, 1, "b", 0, 3, false);
}

/*
 * Posts are remembered (the tutorial's "sem_wait": "posts that arrive
 * before any waiter is blocked accumulate, so a later wait consumes the
 * count without blocking"): a posts twice at 0, b waits twice after 2 ms
 * and goes straight on: it ends at 3.
 */
static void test_sem_memory(void)
{
	struct jobs e;

	run("{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 20000}, "
	    "\"tasks\": {"
	    "\"a\": {\"policy\": \"SCHED_FIFO\", \"sem_post0\": \"s\", \"sem_post1\": \"s\", "
	    "\"run\": 1000, " SEM_TIMER "}, "
	    "\"b\": {\"policy\": \"SCHED_FIFO\", \"run0\": 2000, \"sem_wait0\": \"s\", "
	    "\"sem_wait1\": \"s\", \"run1\": 1000, " SEM_TIMER "}}}", &e);
	DLS_ASSERT_EQ_U64(e.n, 2);
	expect_job(&e, 0, "a", 0, 1, false);
	expect_job(&e, 1, "b", 0, 3, false);
}

/*
 * One post wakes one waiter, in Linux's futex order (kernel/futex: the
 * waiters' plist is keyed by min(normal_prio, MAX_RT_PRIO), so the higher
 * RT priority first, whatever the arrival): lo (FIFO 10) waits from 0, hi
 * (FIFO 20) from 1 ms; p posts once at 2: hi runs 2-3, lo keeps waiting.
 */
static void test_sem_futex_order(void)
{
	struct jobs e;

	run("{\"platform\": {\"cpus\": 3}, \"simulation\": {\"horizon_us\": 20000}, "
	    "\"tasks\": {"
	    "\"lo\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"sem_wait\": \"s\", "
	    "\"run\": 1000, " SEM_TIMER "}, "
	    "\"hi\": {\"policy\": \"SCHED_FIFO\", \"priority\": 20, \"run0\": 1000, "
	    "\"sem_wait\": \"s\", \"run1\": 1000, " SEM_TIMER "}, "
	    "\"p\": {\"policy\": \"SCHED_FIFO\", \"run\": 2000, \"sem_post\": \"s\", "
	    SEM_TIMER "}}}", &e);
	DLS_ASSERT_EQ_U64(e.n, 2);
	expect_job(&e, 0, "p", 0, 2, false);
	expect_job(&e, 1, "hi", 0, 3, false);
}

static const struct dls_test_case cases[] = {
	{ "a shared timer: threads take turns", test_shared_timer },
	{ "a shared timer gives the job's deadline", test_shared_timer_deadline },
	{ "an unfinished job's deadline from a shared timer", test_overdue_shared_timer },
	{ "a unique timer per instance", test_unique_timer_per_instance },
	{ "nine timers of one thread", test_nine_timers },
	{ "one mode per timer", test_timer_one_mode },
	{ "mem and iorun: bytes at the platform's rates", test_mem_iorun_bytes },
	{ "mem and iorun: the default rates said", test_mem_iorun_defaults },
	{ "memrun refused", test_memrun_refused },
	{ "sem_wait waits for sem_post", test_sem_orders },
	{ "sem_post is remembered", test_sem_memory },
	{ "sem_post wakes in futex order", test_sem_futex_order },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim rt-app events", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
