/*
 * dlsim: simulate an rt-app workload file on the real libdlsched.
 *
 *   dlsim [FILE] [--check] [--strict] [--dump] [--quiet]
 *         [--json OUT] [--trace OUT] [--svg OUT]
 *   dlsim sweep [options]     schedulability ratio against utilisation
 *   dlsim analyze FILE [--json]  schedulability tests on FILE's deadline tasks
 *
 * With no FILE it runs the bundled mobile workload.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "sim.h"
#include "sweep.h"
#include "workload.h"

#ifndef DLSIM_EXAMPLES_DIR
#define DLSIM_EXAMPLES_DIR "examples/dlsim"
#endif

static int usage(FILE *f, int code)
{
	fprintf(f,
		"usage: dlsim [FILE] [options]\n"
		"  --check        run every validator after every event\n"
		"  --strict       treat warnings about the workload as errors\n"
		"  --dump         print the parsed workload and stop\n"
		"  --quiet        no summary table\n"
		"  --json FILE    statistics as JSON\n"
		"  --trace FILE   Chrome/Perfetto trace (chrome://tracing, ui.perfetto.dev)\n"
		"  --svg FILE     Gantt chart\n"
		"  --jobs FILE    one CSV row per completed job (also in --json)\n"
		"With no FILE, runs %s/mobile.json.\n"
		"dlsim sweep --help: schedulability ratio of many task sets.\n"
		"dlsim analyze FILE [--json]: schedulability tests on FILE's deadline tasks.\n"
		"Exit codes:\n",
		DLSIM_EXAMPLES_DIR);
	dlsim_print_exit_codes(f);
	return code;
}

int main(int argc, char **argv)
{
	struct sim_options opt = { .progress = true };
	struct sim_result res;
	struct workload w;
	const char *file = NULL;
	bool strict = false, dump = false;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "analyze"))
		return analyze_main(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--check")) {
			opt.check = true;
		} else if (!strcmp(a, "--strict")) {
			strict = true;
		} else if (!strcmp(a, "--dump")) {
			dump = true;
		} else if (!strcmp(a, "--quiet")) {
			opt.quiet = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			return usage(stdout, DLSIM_EXIT_OK);
		} else if (!strcmp(a, "--json") || !strcmp(a, "--trace") || !strcmp(a, "--svg") ||
			   !strcmp(a, "--jobs")) {
			if (i + 1 >= argc)
				return usage(stderr, DLSIM_EXIT_USAGE);
			if (!strcmp(a, "--jobs"))
				opt.jobs_path = argv[++i];
			else if (a[2] == 'j')
				opt.json_path = argv[++i];
			else if (a[2] == 't')
				opt.trace_path = argv[++i];
			else
				opt.svg_path = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, "dlsim: unknown option %s\n", a);
			return usage(stderr, DLSIM_EXIT_USAGE);
		} else if (!file) {
			file = a;
		} else {
			return usage(stderr, DLSIM_EXIT_USAGE);
		}
	}
	if (!file)
		file = DLSIM_EXAMPLES_DIR "/mobile.json";

	rc = workload_load_file(&w, file, strict);
	if (rc == -2) {
		fprintf(stderr, "dlsim: cannot read %s\n", file);
		return DLSIM_EXIT_NOINPUT;
	}
	workload_print_diags(&w, stderr);
	if (rc) {
		fprintf(stderr, "dlsim: %u error(s) in %s\n", w.errors, file);
		workload_free(&w);
		return DLSIM_EXIT_DATAERR;
	}
	if (dump) {
		workload_dump(&w, stdout);
		workload_free(&w);
		return DLSIM_EXIT_OK;
	}
	if (sim_run(&w, &opt, stdout, &res)) {
		workload_free(&w);
		return DLSIM_EXIT_FAILURE;
	}
	workload_free(&w);
	return res.exit_code;
}
