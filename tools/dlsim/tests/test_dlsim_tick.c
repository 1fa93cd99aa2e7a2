/*
 * Budgets enforced at ticks (platform.tick_hz) and where the ticks fall
 * (platform.tick_phase_us). Linux without HRTICK notices an exhausted
 * runtime only at the next tick of the task's own CPU (update_curr_dl()
 * from task_tick_dl(); Documentation/scheduler/sched-deadline.rst, §5:
 * "the runtime is enforced at tick granularity"), charges the overrun and
 * throttles until the next period, where replenish_dl_entity() adds the
 * budget to the negative runtime.
 *
 * Hand-derived case (1 CPU, 1000 Hz, one task Q = 1.5 ms, P = 5 ms, one job
 * of 3 ms released at 0):
 *   phase 0.4 ms: ticks at 0.4, 1.4, 2.4 ... The budget runs out at 1.5 ms,
 *     is noticed at 2.4 ms (runtime -0.9 ms, 2.4 ms of work done);
 *     throttled to 5 ms, replenished to 0.6 ms (deadline 10 ms), which is
 *     exactly the 0.6 ms left: the job ends at 5.6 ms.
 *   phase 0: noticed at 2.0 ms (runtime -0.5 ms, 2.0 ms done); replenished
 *     to 1.0 ms at 5 ms: the job ends at 6.0 ms.
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "sim.h"
#include "workload.h"

static const char *const tmpl =
	"{ \"platform\": { \"cpus\": 1, \"tick_hz\": %s %s },"
	"  \"simulation\": { \"horizon_us\": 10000 },"
	"  \"tasks\": { \"t\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1500,"
	"  \"dl-period\": 5000, \"run\": 3000, \"timer\": { \"ref\": \"unique\", \"period\": 5000 } } } }";

static uint64_t first_end;

static void on_job(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	(void)arg, (void)thread, (void)release, (void)miss;
	if (!first_end)
		first_end = end;
}

/* The first job's end with tick_hz @hz and the phase member @phase ("" for
 * none); 0 when the file is refused. */
static uint64_t first_job_end(const char *hz, const char *phase)
{
	char text[1024];
	struct workload w;
	struct sim_options opt = { .quiet = true, .on_job = on_job };
	struct sim_result res;
	int rc;

	snprintf(text, sizeof(text), tmpl, hz, phase);
	first_end = 0;
	if (workload_load(&w, "w.json", text, strlen(text), true)) {
		workload_free(&w);
		return 0;
	}
	rc = sim_run(&w, &opt, stdout, &res);
	workload_free(&w);
	CU_ASSERT_EQUAL(rc, 0);
	return first_end;
}

static void test_phase_moves_the_throttle(void)
{
	DLS_ASSERT_EQ_U64(first_job_end("1000", ""), UINT64_C(6000000));
	DLS_ASSERT_EQ_U64(first_job_end("1000", ", \"tick_phase_us\": 0"), UINT64_C(6000000));
	DLS_ASSERT_EQ_U64(first_job_end("1000", ", \"tick_phase_us\": 400"), UINT64_C(5600000));
}

static void test_random_phase_is_per_seed(void)
{
	uint64_t a = first_job_end("1000", ", \"tick_phase_us\": \"random\"");
	uint64_t b = first_job_end("1000", ", \"tick_phase_us\": \"random\"");

	/* deterministic, and within what phases in [0, 1 ms) can give:
	 * noticed in [1.5, 2.5) ms, so the end is in (5.5, 6.0] ms */
	DLS_ASSERT_EQ_U64(a, b);
	CU_ASSERT_TRUE(a > 5500000 && a <= 6000000);
}

static void test_bad_phase_refused(void)
{
	/* refused: 0 from first_job_end() */
	DLS_ASSERT_EQ_U64(first_job_end("1000", ", \"tick_phase_us\": 1000"), 0);
	DLS_ASSERT_EQ_U64(first_job_end("1000", ", \"tick_phase_us\": -1"), 0);
	DLS_ASSERT_EQ_U64(first_job_end("1000", ", \"tick_phase_us\": 1.5"), 0);
	DLS_ASSERT_EQ_U64(first_job_end("1000", ", \"tick_phase_us\": \"later\""), 0);
	DLS_ASSERT_EQ_U64(first_job_end("0", ", \"tick_phase_us\": 100"), 0);
}

/* The end of thread "a"'s first job (on_job sees every thread). */
static uint64_t a_end;

static void on_job_a(void *arg, const char *thread, uint64_t release, uint64_t end, bool miss)
{
	(void)arg, (void)release, (void)miss;
	if (!strcmp(thread, "a") && !a_end)
		a_end = end;
}

/*
 * A task is charged only at its own CPU's events (the kernel's
 * update_curr_dl() runs from its own tick, its block, a preemption there;
 * Documentation/scheduler/sched-deadline.rst, section 5: the runtime is
 * enforced at tick granularity), never at another CPU's event. Two CPUs at
 * 250 Hz (ticks at 0, 4, 8 ms ...), partitioned. CPU 0: "a", Q = 5 ms,
 * P = 20 ms, one 10 ms job at 0. CPU 1: "b" (fair) ends a 6.237 ms run at
 * 6.237 ms, an event on CPU 1 only.
 *  - a's budget runs out at 5 ms and is noticed at CPU 0's tick at 8 ms:
 *    runtime -3 ms, 8 ms done; throttled to 20 ms and replenished there to
 *    -3 + 5 = 2 ms (replenish_dl_entity() adds the budget to the overrun),
 *    exactly the 2 ms left: the job ends at 22 ms.
 *  - Charged at b's end instead (the reference loop, which charges every
 *    CPU at every event), a would be throttled at 6.237 ms with runtime
 *    -1.237 ms, replenished to 3.763 ms and end at 23.763 ms.
 */
static void test_charged_at_own_cpu_only(void)
{
	static const char text[] =
		"{ \"platform\": { \"cpus\": 2, \"tick_hz\": 250 },"
		"  \"simulation\": { \"mode\": \"partitioned\", \"horizon_us\": 40000 },"
		"  \"tasks\": {"
		"    \"a\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 5000,"
		"           \"dl-period\": 20000, \"run\": 10000,"
		"           \"timer\": { \"ref\": \"unique\", \"period\": 40000 } },"
		"    \"b\": { \"cpus\": [1], \"run\": 6237, \"sleep\": 100000 } } }";
	struct workload w;
	struct sim_result res;

	for (int scan = 0; scan < 2; scan++) {
		struct sim_options opt = { .quiet = true, .check = true, .on_job = on_job_a,
					   .loop_scan = scan, .loop_queue = !scan };

		CU_ASSERT_EQUAL_FATAL(workload_load(&w, "w.json", text, strlen(text), true), 0);
		a_end = 0;
		CU_ASSERT_EQUAL(sim_run(&w, &opt, stdout, &res), 0);
		workload_free(&w);
		DLS_ASSERT_EQ_U64(a_end, scan ? UINT64_C(23763000) : UINT64_C(22000000));
	}
}

static const struct dls_test_case cases[] = {
	{ "a task is charged at its own CPU's tick, not another CPU's event (hand-derived)",
	  test_charged_at_own_cpu_only },
	{ "tick phase moves the noticed exhaustion (hand-derived)", test_phase_moves_the_throttle },
	{ "random tick phase is drawn from the seed", test_random_phase_is_per_seed },
	{ "bad tick_phase_us refused", test_bad_phase_refused },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim ticks", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
