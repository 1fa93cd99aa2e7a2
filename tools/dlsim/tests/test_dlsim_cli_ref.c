/*
 * The reference global EDF comparison (tests/support/dls_ref_edf.c) run
 * through the dlsim executable, as a researcher runs it: each random set
 * is written as a workload file without a platform section, run with
 * `dlsim FILE --cpus M --admission off --jobs jobs.csv --trace trace.json
 * --quiet` (soft or hard reservations from the file's simulation section),
 * and every job's completion read back from the CSV is compared with the
 * reference's. The tie rule reads dlsim's run slices from the trace.
 *
 * Partitioned sets run with --admission 100 instead: dlsim places each
 * reservation first fit under the admission limit, so with no limit every
 * one would land on CPU 0; the reference places them at 100%.
 *
 * make check runs 40 sets; DLS_TEST_SCALE (check-stress: 1000) scales it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_ref_edf.h"
#include "dls_test.h"

#define US UINT64_C(1000)

#ifndef DLSIM_EXE
#error "DLSIM_EXE: the path of the dlsim executable"
#endif
#ifndef DLSIM_EMULATOR
#define DLSIM_EMULATOR "" /* the emulator that runs it, '|' between words */
#endif

static const char set_file[] = "cli_ref_set.json", jobs_file[] = "cli_ref_jobs.csv",
		  trace_file[] = "cli_ref_trace.json", log_file[] = "cli_ref.log";

/* µs with three decimals ("%.3f" of ns / 1000) to ns, exactly. */
static uint64_t parse_us3(const char *p)
{
	unsigned long long whole = 0;
	unsigned int frac = 0;
	int k = 0;

	CU_ASSERT_FATAL(sscanf(p, "%llu.%3u%n", &whole, &frac, &k) == 2 && k > 0);
	return (uint64_t)whole * US + frac;
}

/* Rows "tI",job,release,start,end,... of the --jobs CSV. */
static void parse_jobs(char *csv, struct dls_ref_out *out)
{
	char *line = strchr(csv, '\n');

	CU_ASSERT_FATAL(line != NULL && !strncmp(csv, "thread,job,release_ns,start_ns,end_ns,", 38));
	for (line++; *line; line = strchr(line, '\n') + 1) {
		const char *f = line;
		unsigned long long end;

		if (out->nr_jobs == sizeof(out->jobs) / sizeof(out->jobs[0])) {
			out->truncated = true;
			return;
		}
		CU_ASSERT_EQUAL_FATAL(sscanf(f, "\"t%d\",", &out->jobs[out->nr_jobs].task), 1);
		for (int i = 0; i < 4; i++) { /* to the fifth field, end_ns */
			f = strchr(f, ',');
			CU_ASSERT_PTR_NOT_NULL_FATAL(f);
			f++;
		}
		CU_ASSERT_EQUAL_FATAL(sscanf(f, "%llu,", &end), 1);
		out->jobs[out->nr_jobs++].end = end;
		CU_ASSERT_PTR_NOT_NULL_FATAL(strchr(line, '\n'));
	}
}

/* The run slices ("ph": "X" events of the threads) of the --trace file. */
static void parse_slices(char *trace, struct dls_ref_out *out)
{
	static const char x[] = "{\"ph\": \"X\", \"name\": \"t";

	for (char *p = strstr(trace, x); p; p = strstr(p + 1, x)) {
		const char *ts = strstr(p, "\"ts\": "), *dur = strstr(p, "\"dur\": ");
		uint64_t start;

		CU_ASSERT_FATAL(ts && dur);
		if (out->nr_slices == sizeof(out->slices) / sizeof(out->slices[0])) {
			out->truncated = true;
			return;
		}
		CU_ASSERT_EQUAL_FATAL(sscanf(p + sizeof(x) - 2, "t%d\"", &out->slices[out->nr_slices].task), 1);
		start = parse_us3(ts + 6);
		out->slices[out->nr_slices].start = start;
		out->slices[out->nr_slices++].end = start + parse_us3(dur + 7);
	}
}

struct cli_stats {
	unsigned int runs;
};

/* Write @text without its platform section, run dlsim on it, read back. */
static void cli_runner(void *arg, const char *text, struct dls_ref_out *out)
{
	struct cli_stats *st = arg;
	char cpus[16];
	int m = 0, off = 0;
	bool part = strstr(text, "\"mode\": \"partitioned\"") != NULL;
	char *const args[] = { DLSIM_EXE, (char *)set_file, "--cpus", cpus, "--admission",
			       part ? "100" : "off", "--jobs", (char *)jobs_file, "--trace",
			       (char *)trace_file, "--quiet", NULL };
	char emulator[] = DLSIM_EMULATOR, *argv[24];
	size_t n = 0;
	FILE *f = fopen(set_file, "w");
	char *csv, *trace;

	/* cross builds: the emulator's words first */
	for (char *w = strtok(emulator, "|"); w && n < 8; w = strtok(NULL, "|"))
		argv[n++] = w;
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		argv[n++] = args[i];

	CU_ASSERT_FATAL(sscanf(text, "{\"platform\": {\"cpus\": %d}, %n", &m, &off) == 1 && off > 0);
	snprintf(cpus, sizeof(cpus), "%d", m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_FATAL(fprintf(f, "{%s", text + off) > 0 && fclose(f) == 0);
	remove(jobs_file);
	remove(trace_file);
	out->exit_code = dls_test_run_cmd(argv, log_file, 60000);
	st->runs++;
	if (out->exit_code != 0 && out->exit_code != 2) {
		char *log = dls_test_read_file(log_file, NULL);

		fprintf(stderr, "%s %s --cpus %s: exit %d\n%s\n", argv[0], set_file, cpus,
			out->exit_code, log ? log : "");
		free(log);
		return;
	}
	if (out->exit_code != 0)
		return;
	csv = dls_test_read_file(jobs_file, NULL);
	trace = dls_test_read_file(trace_file, NULL);
	CU_ASSERT_FATAL(csv && trace);
	parse_jobs(csv, out);
	parse_slices(trace, out);
	free(csv);
	free(trace);
}

static void test_cli_reference(void)
{
	uint64_t seed = dls_test_seed("dlsim executable against reference global EDF", 23);
	struct cli_stats st = { 0 };
	struct dls_ref_stats r;

	r = dls_ref_compare_sets(seed, dls_test_scaled(40), 60000 * US, cli_runner, &st);
	printf("[%u dlsim runs] ", st.runs);
	DLS_ASSERT_EQ_U64(st.runs, 2 * (uint64_t)r.sets);
	CU_ASSERT(r.jobs_soft > 0 && r.jobs_hard > 0);
	remove(set_file);
	remove(jobs_file);
	remove(trace_file);
	remove(log_file);
}

static const struct dls_test_case cases[] = {
	{ "dlsim executable equal to a reference simulator", test_cli_reference },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim command line against the reference", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
