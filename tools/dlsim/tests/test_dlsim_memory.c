/*
 * dlsim's memory. Its outputs take each record as the run makes it, so
 * with the trace, the Gantt chart and the jobs CSV on, no allocation grows
 * with simulated time (the p99 of the summary and the JSON keeps every
 * response time, 8 bytes a job: those outputs are off here).
 *
 * And dlsim runs out of memory gracefully: sim_run() promises -1 when memory
 * runs out, with everything it allocated freed, and nothing below main()
 * may exit. The test links with the linker's --wrap for malloc, calloc and
 * realloc, counts the allocations of one run, then runs it again once per
 * allocation with that one failing: every run must come back with -1 (or,
 * when the failing allocation is an output file's name, with the output
 * refused by name and DLSIM_EXIT_IOERR), never exit, crash or leak (the
 * ASan build checks leaks).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "sim.h"
#include "workload.h"

#ifdef DLSIM_ALLOC_WRAP
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static bool armed;
static unsigned long nr_allocs, fail_at; /* fail_at 0: none fails */
static size_t largest; /* the largest block asked for while armed */

/* Whether this allocation of @size bytes is the one to fail. */
static bool fails(size_t size)
{
	if (armed && size > largest)
		largest = size;
	return armed && ++nr_allocs == fail_at;
}

/* A failed allocation sets errno as the C library's does. */
static void *failed(void)
{
	errno = ENOMEM;
	return NULL;
}

void *__wrap_malloc(size_t size)
{
	return fails(size) ? failed() : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fails(n * size) ? failed() : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fails(size) ? failed() : __real_realloc(p, size);
}

/* The largest allocation and the number of allocations of a run of
 * mobile_dl.json (its phases, FIFO and fair threads, four CPUs of two
 * capacities) over @horizon_s, with the trace, the chart and the jobs. */
static void measure(int64_t horizon_s, size_t *big, unsigned long *count)
{
	struct workload w;
	struct sim_options opt = { .quiet = true, .trace_path = "/dev/null",
				   .svg_path = "/dev/null", .jobs_path = "/dev/null" };
	struct sim_result res;

	DLS_ASSERT_EQ_S64(workload_load_file(&w, DLSIM_EXAMPLES_DIR "/mobile_dl.json", false), 0);
	w.horizon_us = horizon_s * 1000000;
	armed = true;
	nr_allocs = 0;
	largest = 0;
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
	armed = false;
	DLS_ASSERT_EQ_S64(res.exit_code, DLSIM_EXIT_OK);
	CU_ASSERT_TRUE(res.jobs > (uint64_t)horizon_s * 1000); /* thousands of records */
	*big = largest;
	*count = nr_allocs;
	workload_free(&w);
}

/* Ten times the simulated time: not one allocation more, none larger
 * (before the outputs were fed as the run went, the run slices alone made
 * an array that doubled with the time simulated). */
static void test_flat_in_time(void)
{
	size_t big1, big10;
	unsigned long n1, n10;

	measure(2, &big1, &n1);
	measure(20, &big10, &n10);
	DLS_ASSERT_EQ_U64(big10, big1);
	DLS_ASSERT_EQ_U64(n10, n1);
}

/* Simulate @path (examples or tools/dlsim/tests/cli) with every output, the
 * summary to /dev/null, each allocation of the run failing in turn. */
static void run_failing_each(const char *path)
{
	struct workload w;
	struct sim_options opt = { .json_path = "/dev/null", .trace_path = "/dev/null",
				   .svg_path = "/dev/null", .jobs_path = "/dev/null",
				   .check = true, .max_events = 3000 };
	struct sim_result res;
	FILE *out = fopen("/dev/null", "w");
	unsigned long total;

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	if (workload_load_file(&w, path, false)) {
		workload_print_diags(&w, stderr);
		workload_free(&w);
		fclose(out);
		CU_FAIL_FATAL("workload did not load");
	}
	/* the run without failures: its allocations counted */
	armed = true;
	nr_allocs = 0;
	fail_at = 0;
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, out, &res), 0);
	armed = false;
	total = nr_allocs;
	printf("%s: %lu allocations\n", path, total); /* the coverage, in the log */
	CU_ASSERT_TRUE(total > 3);
	for (fail_at = 1; fail_at <= total; fail_at++) {
		int rc;

		armed = true;
		nr_allocs = 0;
		rc = sim_run(&w, &opt, out, &res);
		armed = false;
#ifdef DLSIM_ALLOC_WRAP_STATIC
		/* Linked statically, the C library's own allocations come here
		 * too, and it works on without some (a stdio buffer: it writes
		 * unbuffered); such a run completes, which is right. */
		if (rc == 0 && res.exit_code == DLSIM_EXIT_OK)
			continue;
#endif
		if (rc != -1 && res.exit_code != DLSIM_EXIT_IOERR) {
			fprintf(stderr, "%s: allocation %lu of %lu failed, sim_run() returned %d "
				"with exit code %d\n", path, fail_at, total, rc, res.exit_code);
			CU_FAIL("a failed allocation went unreported");
			break;
		}
	}
	fail_at = 0;
	workload_free(&w);
	fclose(out);
}

static void test_examples(void)
{
	static const char *const names[] = { "mobile_dl.json", "mobile.json", "hotplug.json",
					     "pi_inheritance.json", "grub_reclaim.json",
					     "dhall_partitioned.json" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", DLSIM_EXAMPLES_DIR, names[i]);
		run_failing_each(path);
	}
}

static void test_cli_workloads(void)
{
	static const char *const names[] = { "forked_deadline.json", "workgen_suspend.json",
					     "phase_policy.json", "custom_slice.json" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/tools/dlsim/tests/cli/%s", DLSIM_SOURCE_DIR, names[i]);
		run_failing_each(path);
	}
}
#else
/* Without the linker's --wrap there is no way to see an allocation. */
static void test_flat_in_time(void)
{
}

static void test_examples(void)
{
}

static void test_cli_workloads(void)
{
}
#endif

static const struct dls_test_case cases[] = {
	{ "no allocation grows with simulated time", test_flat_in_time },
	{ "each allocation failing in the examples", test_examples },
	{ "each allocation failing: forks, suspend, phases", test_cli_workloads },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim memory", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
