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

static const struct dls_test_case cases[] = {
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
