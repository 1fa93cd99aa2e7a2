/*
 * dlsim's model of the kernel's timing (issue: rt-app's "runtime" is
 * wall-clock time; budgets enforced at the scheduler tick). Schedules
 * worked out by hand; the sources are named in each case.
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "dls_test_dlsim.h"

#define MS UINT64_C(1000000)

struct ends {
	uint64_t end[64], resp[64];
	size_t n;
};

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	struct ends *e = arg;

	(void)miss;
	if (!strcmp(thread, "t") && e->n < 64) {
		e->resp[e->n] = end - release;
		e->end[e->n++] = end;
	}
}

/* The completion times of thread "t" in @text, with --check. */
static void run_ends(const char *text, struct ends *e)
{
	struct sim_options opt = { .check = true, .quiet = true, .on_job = on_job, .cb_arg = e };

	memset(e, 0, sizeof(*e));
	DLS_ASSERT_EQ_S64(dls_test_sim_text(text, &opt), DLSIM_EXIT_OK);
}

/*
 * rt-app (doc/tutorial.txt, "runtime"): the thread busy-loops until the
 * duration has passed on the wall clock. t (FIFO 10) runs 5 ms of
 * "runtime"; h (FIFO 50) preempts it at 1 ms for 3 ms. t's job ends at 5
 * ms, having run 2 ms; with "run" (CPU time) it ends at 8 ms.
 */
static void test_runtime_is_wall_clock(void)
{
	static const char fmt[] =
		"{\"simulation\": {\"horizon_us\": 20000}, \"tasks\": {\n"
		"\"t\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"%s\": 5000,\n"
		"       \"timer\": {\"ref\": \"unique\", \"period\": 100000}},\n"
		"\"h\": {\"policy\": \"SCHED_FIFO\", \"priority\": 50, \"delay\": 1000, \"run\": 3000,\n"
		"       \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}";
	char text[1024];
	struct ends e;

	snprintf(text, sizeof(text), fmt, "runtime");
	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	DLS_ASSERT_EQ_U64(e.end[0], 5 * MS);
	snprintf(text, sizeof(text), fmt, "run");
	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	DLS_ASSERT_EQ_U64(e.end[0], 8 * MS);
}

/*
 * A throttled "runtime" still ends on the wall clock: a 2/10 ms
 * reservation busy for 5 ms runs 0-2, is throttled until 10 (CBS hard
 * reservation, sched-deadline.rst sec. 2), and its loop, past its 5 ms,
 * ends as soon as it runs again at 10.
 */
static void test_runtime_throttled(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 30000}, \"tasks\": {\n"
		"\"t\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 10000,\n"
		"       \"runtime\": 5000, \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}";
	struct ends e;

	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	DLS_ASSERT_EQ_U64(e.end[0], 10 * MS);
}

/*
 * Tick-based enforcement (Linux without HRTICK: the budget is checked in
 * task_tick_dl/update_curr_dl at each tick). Q 2 ms, P 10 ms, a 6 ms job,
 * 250 Hz (4 ms ticks): it runs 0-4, overrunning by 2 ms, throttled at the
 * 4 ms tick with runtime -2; replenished at 10 (runtime += Q while <= 0,
 * as replenish_dl_entity: -2 -> 0 -> 2, deadline 30) it runs 10-12, and
 * its 6 ms are done at 12. With exact budget timers (tick_hz 0): 0-2,
 * 10-12, 20-22, done at 22.
 */
static void test_tick_enforcement(void)
{
	static const char fmt[] =
		"{\"platform\": {\"tick_hz\": %d}, \"simulation\": {\"horizon_us\": 40000},\n"
		"\"tasks\": {\"t\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000,\n"
		"       \"dl-period\": 10000, \"run\": 6000,\n"
		"       \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}";
	char text[1024];
	struct ends e;

	snprintf(text, sizeof(text), fmt, 250);
	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	DLS_ASSERT_EQ_U64(e.end[0], 12 * MS);
	snprintf(text, sizeof(text), fmt, 0);
	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 1);
	DLS_ASSERT_EQ_U64(e.end[0], 22 * MS);
}

/*
 * "run": {"min", "max"} draws each job's execution time uniformly, and a
 * list draws one of its values, from the simulation seed: alone on a CPU
 * each job's response is its draw. The same seed repeats the draws; a
 * different one changes them.
 */
static void test_run_distribution(void)
{
	static const char fmt[] =
		"{\"simulation\": {\"horizon_us\": 400000, \"seed\": %d}, \"tasks\": {\n"
		"\"t\": {\"policy\": \"SCHED_FIFO\", \"run\": %s,\n"
		"       \"timer\": {\"ref\": \"unique\", \"period\": 10000}}}}";
	char text[1024];
	struct ends a, b;
	bool seen[2] = { false, false };

	snprintf(text, sizeof(text), fmt, 7, "{\"min\": 1000, \"max\": 3000}");
	run_ends(text, &a);
	DLS_ASSERT_EQ_U64(a.n, 40);
	for (size_t i = 0; i < a.n; i++)
		CU_ASSERT(a.resp[i] >= 1 * MS && a.resp[i] <= 3 * MS && a.resp[i] % 1000 == 0);
	run_ends(text, &b);
	CU_ASSERT_EQUAL(memcmp(a.resp, b.resp, sizeof(a.resp)), 0);
	snprintf(text, sizeof(text), fmt, 8, "{\"min\": 1000, \"max\": 3000}");
	run_ends(text, &b);
	CU_ASSERT_NOT_EQUAL(memcmp(a.resp, b.resp, sizeof(a.resp)), 0);

	snprintf(text, sizeof(text), fmt, 7, "[1000, 2000]");
	run_ends(text, &a);
	DLS_ASSERT_EQ_U64(a.n, 40);
	for (size_t i = 0; i < a.n; i++) {
		CU_ASSERT(a.resp[i] == 1 * MS || a.resp[i] == 2 * MS);
		seen[a.resp[i] == 2 * MS] = true;
	}
	CU_ASSERT(seen[0] && seen[1]);
}

/*
 * The CBS rules are selectable in the simulation section. A 5/10/100 ms
 * reservation with 6 ms of work per 100 ms (test_dlsim_sim's constrained
 * Linux case, sched-deadline.rst sec. 2 and the 2012 patches' rules):
 * under today's rules the 1 ms overrun waits for the next period, jobs end
 * at 101, 202, 303, 404 ms; under the 2012 rules (wake-up against Q/P,
 * overrun forfeited at the deadline, replenished at the deadline) at 11,
 * 111, 211, 311, 411 ms.
 */
static void test_rules_in_section(void)
{
	static const char fmt[] =
		"{\"simulation\": {\"horizon_us\": 450000%s}, \"tasks\": {\n"
		"\"t\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 5000, \"dl-deadline\": 10000,\n"
		"      \"dl-period\": 100000, \"run\": 6000,\n"
		"      \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}";
	static const uint64_t linux_ends[] = { 101, 202, 303, 404 };
	static const uint64_t old_ends[] = { 11, 111, 211, 311, 411 };
	char text[1024];
	struct ends e;

	snprintf(text, sizeof(text), fmt, ", \"wakeup\": \"revised\", \"overrun\": \"linux\", "
		 "\"replenish\": \"next-period\"");
	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 4);
	for (size_t i = 0; i < 4 && i < e.n; i++)
		DLS_ASSERT_EQ_U64(e.end[i], linux_ends[i] * MS);
	snprintf(text, sizeof(text), fmt, ", \"wakeup\": \"cbs\", \"overrun\": \"2012\", "
		 "\"replenish\": \"deadline\"");
	run_ends(text, &e);
	DLS_ASSERT_EQ_U64(e.n, 5);
	for (size_t i = 0; i < 5 && i < e.n; i++)
		DLS_ASSERT_EQ_U64(e.end[i], old_ends[i] * MS);
}

static const struct dls_test_case cases[] = {
	{ "runtime is wall-clock time", test_runtime_is_wall_clock },
	{ "runtime ends on the wall clock while throttled", test_runtime_throttled },
	{ "tick-based budget enforcement", test_tick_enforcement },
	{ "run time distributions, deterministic per seed", test_run_distribution },
	{ "CBS rules chosen in the simulation section", test_rules_in_section },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim timing model", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
