/*
 * dlsim runs out of memory gracefully: sim_run() promises -1 when memory
 * runs out, with everything it allocated freed, and nothing below main()
 * may exit. The test links with the linker's --wrap for malloc, calloc and
 * realloc, counts the allocations of one run, then runs it again once per
 * allocation with that one failing: every run must come back with -1 (or,
 * when the failing allocation is an output file's name, with the output
 * refused by name and DLSIM_EXIT_IOERR), never exit, crash or leak (the
 * ASan build checks leaks).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "sim.h"
#include "workload.h"

#ifdef DLSIM_OOM_WRAP
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static bool armed;
static unsigned long nr_allocs, fail_at; /* fail_at 0: none fails */

/* Whether this allocation is the one to fail. */
static bool fails(void)
{
	return armed && ++nr_allocs == fail_at;
}

void *__wrap_malloc(size_t size)
{
	return fails() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fails() ? NULL : __real_realloc(p, size);
}

/* Simulate @path (examples or tests/dlsim_cli) with every output, the
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

		snprintf(path, sizeof(path), "%s/tests/dlsim_cli/%s", DLSIM_SOURCE_DIR, names[i]);
		run_failing_each(path);
	}
}
#else
/* Without the linker's --wrap there is no way to fail an allocation. */
static void test_examples(void)
{
}

static void test_cli_workloads(void)
{
}
#endif

static const struct dls_test_case cases[] = {
	{ "each allocation failing in the examples", test_examples },
	{ "each allocation failing: forks, suspend, phases", test_cli_workloads },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim out of memory", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
