/*
 * dlsim: simulate an rt-app workload file on the real libdlsched.
 *
 *   dlsim [FILE] [--check] [--strict] [--dump] [--quiet]
 *         [--json OUT] [--trace OUT] [--svg OUT]
 *   dlsim sweep [options]     schedulability ratio against utilisation
 *   dlsim analyze FILE [options]  schedulability tests on FILE's deadline tasks
 *
 * With no FILE it runs the bundled mobile workload, found beside the
 * executable (datadir.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/types.h>

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
		"  --jobs FILE    one CSV row per completed job (also in --json)\n"
		"  --cpus N       CPUs (1..256) for a file whose platform section gives no\n"
		"                 count (none, or only tick_hz; rt-app files assume the host's)\n"
		"  --platform FILE  the platform section of FILE replaces the workload's\n"
		"  --admission off|PERCENT  admission limit per CPU, over the file's\n"
		"With no FILE, runs the bundled example mobile.json (installed in\n"
		"share/dlsched/examples/dlsim beside the executable's bin/).\n"
		"Workload files larger than 64 MiB are refused.\n"
		"Sections beside rt-app's tasks, every key with its default:\n"
		"  global.duration       s; the horizon when simulation.horizon_us is not\n"
		"                        given (-1, the default: run until the horizon)\n"
		"  global.default_policy SCHED_OTHER   global.pi_enabled false\n"
		"  platform.cpus         1 (or --cpus; at most 256, CPU ids 0..255 in \"cpus\")\n"
		"  platform.capacity     [1024 each]\n"
		"  platform.clusters     none           platform.tick_hz 0 (exact budget\n"
		"                        timers; N: budgets enforced at N Hz ticks)\n"
		"  platform.tick_phase_us 0 (ticks at phase + k * period; \"random\":\n"
		"                        drawn from simulation.seed)\n"
		"  platform.mem_bw       10000000000 bytes/s of \"mem\" (a memset), at\n"
		"                        capacity 1024; platform.io_bw 100000000000 (\"iorun\")\n"
		"  platform.fair_server  none; {\"runtime_us\": 50000, \"period_us\": 1000000,\n"
		"                        \"defer\": true, \"serve\": \"fair\" or \"rt\"}: a deadline\n"
		"                        server on each CPU for the fair class (Linux 6.12+)\n"
		"                        or the SCHED_FIFO/RR threads\n"
		"  simulation.horizon_us the horizon: horizon_us, else global.duration,\n"
		"                        else 10 s\n"
		"  simulation.seed       1 (execution-time draws)\n"
		"  simulation.mode       global (as Linux's root domain); partitioned,\n"
		"                        clustered\n"
		"  simulation.admission  95 (percent of each CPU, Linux's\n"
		"                        sched_rt_runtime_us/period); \"off\"\n"
		"  simulation.reservations hard; soft\n"
		"  simulation.affinity   linux (a deadline task on fewer CPUs than the\n"
		"                        platform is refused, as Linux does while\n"
		"                        admission is on); library (the library pins it,\n"
		"                        beyond Linux)\n"
		"  simulation.wakeup     revised (Linux's); cbs (the 2012 rule)\n"
		"  simulation.overrun    linux; 2012     simulation.replenish next-period;\n"
		"                        deadline\n"
		"  simulation.hotplug    [] ({\"cpu\", \"at_us\", \"online\"} each)\n"
		"  servers.NAME          {\"runtime\", \"period\", \"deadline\" (the period),\n"
		"                        \"cpus\", \"tasks\"}: a server per vCPU on each host\n"
		"                        CPU, its tasks inside (a guest: global EDF across\n"
		"                        its vCPUs); dlsim analyze checks each guest\n"
		"Task keys beside rt-app's: \"job-deadline\" (us; default: the timer's\n"
		"period), \"dl-soft\", \"dl-reclaim\" (rt-app's GRUB branch: GRUB\n"
		"reclaiming, a hard reservation); \"run\" also takes {\"min\", \"max\"} or a list.\n"
		"dlsim sweep --help: schedulability ratio of many task sets.\n"
		"dlsim analyze --help: schedulability tests on FILE's deadline tasks, with\n"
		"  --cpus, --platform and --admission as here.\n"
		"Exit status:\n");
	dlsim_print_exit_codes(f);
	return code;
}

/* stdout is an output like the others: a full disk is an error (74
 * unless the run already ends with a status of its own). */
static int finish_stdout(int code)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dlsim: cannot write standard output: %s\n", strerror(errno));
		return code ? code : DLSIM_EXIT_IOERR;
	}
	return code;
}

struct cli {
	struct sim_options opt;
	struct wl_load_options load;
	const char *file, *platform;
	bool strict, dump;
};

/* "off" or a percentage 1..100 as the library's fixed-point limit. */
static bool parse_admission(const char *v, uint64_t *limit)
{
	char *end;
	long pct;

	if (!strcmp(v, "off")) {
		*limit = DLS_BW_UNLIMITED;
		return true;
	}
	pct = strtol(v, &end, 10);
	if (end == v || *end || pct < 1 || pct > 100)
		return false;
	*limit = DLS_BW_UNIT * (uint64_t)pct / 100;
	return true;
}

/* An option's value, the next argument (a @what); NULL with a message if none. */
static const char *value_of(int argc, char **argv, int *i, const char *what)
{
	if (*i + 1 < argc)
		return argv[++*i];
	fprintf(stderr, "dlsim: %s needs a %s argument (dlsim --help lists the options)\n",
		argv[*i], what);
	return NULL;
}

/* An option with a value; -1 when @a is none of them, else 0 or an exit code. */
static int parse_value_option(struct cli *c, int argc, char **argv, int *i)
{
	static const char *const names[] = { "--json", "--trace", "--svg", "--jobs", "--cpus",
					      "--platform", "--admission" };
	const char *a = argv[*i], *v;
	size_t k = 0;
	char *end;

	while (k < sizeof(names) / sizeof(names[0]) && strcmp(a, names[k]))
		k++;
	if (k == sizeof(names) / sizeof(names[0]))
		return -1;
	v = value_of(argc, argv, i, k == 4 ? "N" : k == 6 ? "PERCENT" : "FILE");
	if (!v)
		return DLSIM_EXIT_USAGE;
	switch (k) {
	case 0: c->opt.json_path = v; break;
	case 1: c->opt.trace_path = v; break;
	case 2: c->opt.svg_path = v; break;
	case 3: c->opt.jobs_path = v; break;
	case 4:
		c->load.cpus = (int)strtol(v, &end, 10);
		if (end == v || *end || c->load.cpus < 1 || c->load.cpus > WL_MAX_CPUS) {
			fprintf(stderr, "dlsim: --cpus %s: expected 1..%d\n", v, WL_MAX_CPUS);
			return DLSIM_EXIT_USAGE;
		}
		break;
	case 5: c->platform = v; break;
	default:
		if (!parse_admission(v, &c->opt.bw_limit)) {
			fprintf(stderr, "dlsim: --admission %s: expected off or a percentage "
				"1..100\n", v);
			return DLSIM_EXIT_USAGE;
		}
	}
	return 0;
}

/* The command line into @c; 0, or the exit code to leave with (-1: --help). */
static int parse_args(struct cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (!strcmp(a, "--check")) {
			c->opt.check = true;
		} else if (!strcmp(a, "--strict")) {
			c->strict = true;
		} else if (!strcmp(a, "--dump")) {
			c->dump = true;
		} else if (!strcmp(a, "--quiet")) {
			c->opt.quiet = true;
		} else if (!strcmp(a, "--loop=scan")) {
			/* internal, for tests: the reference step loop that
			 * visits every CPU at every step (sim_options::loop_scan) */
			c->opt.loop_scan = true;
		} else if (!strcmp(a, "--balance=scan")) {
			/* internal, for tests: the reference balancing of the
			 * lower classes (sim_options::balance_scan) */
			c->opt.balance_scan = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			return -1;
		} else if ((rc = parse_value_option(c, argc, argv, &i)) >= 0) {
			if (rc)
				return rc;
		} else if (a[0] == '-') {
			fprintf(stderr, "dlsim: unknown option %s\n", a);
			return usage(stderr, DLSIM_EXIT_USAGE);
		} else if (!c->file) {
			c->file = a;
		} else {
			fprintf(stderr, "dlsim: one workload FILE at a time (got %s and %s; "
				"dlsim --help lists the options)\n", c->file, a);
			return DLSIM_EXIT_USAGE;
		}
	}
	return 0;
}

static int run(struct cli *c)
{
	struct sim_result res;
	struct workload w;
	int rc;

	rc = workload_load_cli_opts(&w, "dlsim", c->file, c->strict, &c->load);

	if (rc)
		return rc;
	if (c->dump) {
		workload_dump(&w, stdout);
		workload_free(&w);
		return finish_stdout(DLSIM_EXIT_OK);
	}
	if (sim_run(&w, &c->opt, stdout, &res)) {
		workload_free(&w);
		return DLSIM_EXIT_FAILURE;
	}
	workload_free(&w);
	return finish_stdout(res.exit_code);
}

int main(int argc, char **argv)
{
	struct cli c = { .opt = { .progress = true } };
	struct json_doc platform_doc;
	char default_path[4096];
	int rc;

	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "analyze"))
		return analyze_main(argc - 1, argv + 1);
	rc = parse_args(&c, argc, argv);
	if (rc < 0)
		return finish_stdout(usage(stdout, DLSIM_EXIT_OK));
	if (rc)
		return rc;
	if (!c.file) {
		c.file = dlsim_default_example(argv[0], default_path, sizeof(default_path));
		if (!c.file) {
			fprintf(stderr, "dlsim: no FILE given and the bundled example mobile.json "
				"is not installed beside this executable\n");
			return DLSIM_EXIT_NOINPUT;
		}
	}
	if (c.platform) {
		rc = workload_read_platform(&platform_doc, "dlsim", c.platform, &c.load.platform);
		if (rc)
			return rc;
		c.load.platform_fname = c.platform;
	}
	rc = run(&c);
	if (c.platform)
		json_free(&platform_doc);
	return rc;
}
