/*
 * dlsim: simulate an rt-app workload file on the real libdlsched.
 *
 *   dlsim [FILE] [--check] [--strict] [--dump] [--quiet]
 *         [--json OUT] [--trace OUT] [--svg OUT]
 *   dlsim sweep [options]     schedulability ratio against utilisation
 *   dlsim analyze FILE [--json]  schedulability tests on FILE's deadline tasks
 *
 * With no FILE it runs the bundled mobile workload, found beside the
 * executable (datadir.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "datadir.h"
#include "sim.h"
#include "sweep.h"
#include "workload.h"

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
		"With no FILE, runs the bundled example mobile.json (installed in\n"
		"share/dlsched/examples/dlsim beside the executable's bin/).\n"
		"Workload files larger than 64 MiB are refused.\n"
		"Exit status: 0 done; 1 out of memory; 2 admission control or the\n"
		"library refused a task; 3 an invariant broke (--check); 4 deadlock or a\n"
		"mutex misused; 64 bad command line; 65 errors in the workload;\n"
		"66 the workload cannot be read; 74 an output could not be written\n"
		"(after a run that ended 0).\n"
		"dlsim sweep --help: schedulability ratio of many task sets.\n"
		"dlsim analyze FILE [--json]: schedulability tests on FILE's deadline tasks.\n");
	return code;
}

/* stdout is an output like the others: a full disk is an error (74
 * unless the run already ends with a status of its own). */
static int finish_stdout(int code)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dlsim: cannot write standard output: %s\n", strerror(errno));
		return code ? code : 74;
	}
	return code;
}

int main(int argc, char **argv)
{
	struct sim_options opt = { .progress = true };
	struct sim_result res;
	struct workload w;
	const char *file = NULL;
	char default_path[4096];
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
			return finish_stdout(usage(stdout, 0));
		} else if (!strcmp(a, "--json") || !strcmp(a, "--trace") || !strcmp(a, "--svg")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dlsim: %s needs a FILE argument "
					"(dlsim --help lists the options)\n", a);
				return 64;
			}
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
			fprintf(stderr, "dlsim: one workload FILE at a time (got %s and %s; "
				"dlsim --help lists the options)\n", file, a);
			return 64;
		}
	}
	if (!file) {
		file = dlsim_default_example(argv[0], default_path, sizeof(default_path));
		if (!file) {
			fprintf(stderr, "dlsim: no FILE given and the bundled example mobile.json "
				"is not installed beside this executable\n");
			return 66;
		}
	}

	rc = workload_load_cli(&w, "dlsim", file, strict);
	if (rc)
		return rc;
	if (dump) {
		workload_dump(&w, stdout);
		workload_free(&w);
		return finish_stdout(0);
	}
	if (sim_run(&w, &opt, stdout, &res)) {
		workload_free(&w);
		return 1;
	}
	workload_free(&w);
	return finish_stdout(res.exit_code);
}
