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
		"With no FILE, runs %s/mobile.json.\n"
		"dlsim sweep --help: schedulability ratio of many task sets.\n"
		"dlsim analyze FILE [--json]: schedulability tests on FILE's deadline tasks.\n",
		DLSIM_EXAMPLES_DIR);
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
			return usage(stdout, 0);
		} else if (!strcmp(a, "--json") || !strcmp(a, "--trace") || !strcmp(a, "--svg")) {
			if (i + 1 >= argc)
				return usage(stderr, 64);
			if (a[2] == 'j')
				opt.json_path = argv[++i];
			else if (a[2] == 't')
				opt.trace_path = argv[++i];
			else
				opt.svg_path = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, "dlsim: unknown option %s\n", a);
			return usage(stderr, 64);
		} else if (!file) {
			file = a;
		} else {
			return usage(stderr, 64);
		}
	}
	if (!file)
		file = DLSIM_EXAMPLES_DIR "/mobile.json";

	rc = workload_load_file(&w, file, strict);
	if (rc == -2) {
		fprintf(stderr, "dlsim: cannot read %s\n", file);
		return 66;
	}
	workload_print_diags(&w, stderr);
	if (rc) {
		fprintf(stderr, "dlsim: %u error(s) in %s\n", w.errors, file);
		workload_free(&w);
		return 65;
	}
	if (dump) {
		workload_dump(&w, stdout);
		workload_free(&w);
		return 0;
	}
	if (sim_run(&w, &opt, stdout, &res)) {
		workload_free(&w);
		return 1;
	}
	workload_free(&w);
	return res.exit_code;
}
