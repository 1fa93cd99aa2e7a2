/*
 * rt-app's event grammar (rt-app doc/tutorial.txt), the rows of the table
 * in docs/dlsim-researchers.md that no other suite runs through the
 * simulator: barrier, suspend/resume and sync (mem, iorun and the
 * semaphores: test_dlsim_rtapp). Each case is
 * worked out by hand from the tutorial's description of the event; FIFO
 * threads on two CPUs, each alone on its CPU (the lower classes take the
 * least crowded CPU).
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "dls_test_dlsim.h"

#define MS UINT64_C(1000000)

struct ends {
	char thread[8][16];
	uint64_t end[8];
	size_t n;
};

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct ends *e = arg;

	(void)release;
	(void)miss;
	if (e->n < 8) {
		snprintf(e->thread[e->n], sizeof(e->thread[0]), "%s", thread);
		e->end[e->n++] = end;
	}
}

/* Simulate @tasks (the "tasks" object's members) for 20 ms on 2 CPUs and
 * expect exactly the completions (thread, ms) given, in order. */
static void expect(const char *tasks, size_t n, const char *const *thread,
		   const uint64_t *end_ms)
{
	char text[2048];
	struct ends e = { .n = 0 };
	struct sim_options opt = { .check = true, .quiet = true, .on_job = on_job, .cb_arg = &e };

	snprintf(text, sizeof(text), "{\"platform\": {\"cpus\": 2}, \"simulation\": "
		 "{\"horizon_us\": 20000}, \"tasks\": {%s}}", tasks);
	DLS_ASSERT_EQ_S64(dls_test_sim_text(text, &opt), DLSIM_EXIT_OK);
	DLS_ASSERT_EQ_U64(e.n, n);
	for (size_t i = 0; i < n && i < e.n; i++) {
		CU_ASSERT_STRING_EQUAL(e.thread[i], thread[i]);
		DLS_ASSERT_EQ_U64(e.end[i], end_ms[i] * MS);
	}
}

#define TIMER "\"timer\": {\"ref\": \"unique\", \"period\": 100000}"

/* barrier: every thread that names it waits until the last arrives. a
 * arrives at 1 ms, c at 3: both go on at 3; c's job ends there, a runs
 * 1 ms more and ends at 4. */
static void test_barrier(void)
{
	static const char *const th[] = { "c", "a" };
	static const uint64_t end[] = { 3, 4 };

	expect("\"a\": {\"policy\": \"SCHED_FIFO\", \"run0\": 1000, \"barrier\": \"b\", "
	       "\"run1\": 1000, " TIMER "}, "
	       "\"c\": {\"policy\": \"SCHED_FIFO\", \"run\": 3000, \"barrier\": \"b\", " TIMER "}",
	       2, th, end);
}

/* suspend/resume: w suspends at once; r resumes it after 2 ms of work; w
 * then runs 1 ms: r ends at 2, w at 3. */
static void test_suspend_resume(void)
{
	static const char *const th[] = { "r", "w" };
	static const uint64_t end[] = { 2, 3 };

	expect("\"w\": {\"policy\": \"SCHED_FIFO\", \"suspend\": \"s\", \"run\": 1000, " TIMER "}, "
	       "\"r\": {\"policy\": \"SCHED_FIFO\", \"run\": 2000, \"resume\": \"s\", " TIMER "}",
	       2, th, end);
}

/*
 * sync: signal the condition, then wait on it, releasing the mutex (as
 * pthread_cond_signal + pthread_cond_wait). a takes m and syncs at 0
 * (nobody to signal: it waits, m released). b runs 2 ms, takes m, syncs:
 * a is signalled and b waits, releasing m; a retakes m, unlocks, runs 1
 * ms and ends at 3. b waits for ever: no job of b ends.
 */
static void test_sync(void)
{
	static const char *const th[] = { "a" };
	static const uint64_t end[] = { 3 };

	expect("\"a\": {\"policy\": \"SCHED_FIFO\", \"lock\": \"m\", "
	       "\"sync\": {\"ref\": \"c\", \"mutex\": \"m\"}, \"unlock\": \"m\", \"run\": 1000, "
	       TIMER "}, "
	       "\"b\": {\"policy\": \"SCHED_FIFO\", \"run\": 2000, \"lock\": \"m\", "
	       "\"sync\": {\"ref\": \"c\", \"mutex\": \"m\"}, \"unlock\": \"m\", " TIMER "}",
	       1, th, end);
}

static const struct dls_test_case cases[] = {
	{ "barrier", test_barrier },
	{ "suspend and resume", test_suspend_resume },
	{ "sync signals, then waits", test_sync },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim rt-app grammar", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
