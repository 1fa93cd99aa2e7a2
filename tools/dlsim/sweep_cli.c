/*
 * dlsim sweep's command line: workload directories (--dir), the table, CSV
 * and SVG outputs, and the options. The generators, the task sets and the
 * parallel runner are in sweep.c.
 */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dlsched/sched.h>

#include "sim.h"

/* ---- workload directories ------------------------------------------------- */

struct dir_ctx {
	struct workload *w;
	bool check;
};

/* dir_item(): the library refused a reservation (not schedulable). */
#define DIR_REFUSED 2

static int dir_item(void *arg, size_t i, uint64_t *events)
{
	struct dir_ctx *d = arg;
	struct sim_options opt = { .quiet = true, .check = d->check };
	struct sim_result res;

	if (sim_run(&d->w[i], &opt, stdout, &res))
		return -1;
	*events += res.events;
	if (res.exit_code == DLSIM_EXIT_INVARIANT)
		return -1;
	if (res.exit_code == DLSIM_EXIT_REFUSED)
		return DIR_REFUSED;
	return res.exit_code == 0 && res.misses == 0 && res.overdue == 0;
}

/* Reserved bandwidth of a workload: sum of runtime/period of its deadline
 * tasks, every instance counted. */
static double workload_util(const struct workload *w)
{
	double u = 0;

	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_sched *s = &w->tasks[i].sched;
		uint64_t period = s->dl_period_us ? s->dl_period_us : s->dl_deadline_us;

		if (s->policy == WL_DEADLINE && period)
			u += (double)w->tasks[i].instance * (double)s->dl_runtime_us / (double)period;
	}
	return u;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Read every *.json in dir (sorted by name), --cpus applied; files that do
 * not load are reported and make the whole run fail before anything is
 * simulated. */
static int load_dir(const char *dir, bool strict, const struct wl_load_options *o,
		    struct workload **out, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct workload *w;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "dlsim sweep: cannot open directory %s: %s\n", dir, strerror(errno));
		return DLSIM_EXIT_NOINPUT;
	}
	while ((de = readdir(d))) {
		char *path;

		if (!ends_with(de->d_name, ".json"))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));

			if (!nn)
				break;
			names = nn;
		}
		path = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!path)
			break;
		sprintf(path, "%s/%s", dir, de->d_name);
		names[n++] = path;
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "dlsim sweep: no *.json workload files in %s\n", dir);
		free(names);
		return DLSIM_EXIT_NOINPUT;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	w = calloc(n, sizeof(*w));
	for (size_t i = 0; w && i < n; i++) {
		int lr = workload_load_file_opts(&w[i], names[i], strict, o);

		if (lr == -2) {
			fprintf(stderr, "dlsim sweep: cannot read %s: %s\n", names[i],
				workload_load_error(&w[i]));
			rc = 66;
			continue;
		}
		workload_print_diags(&w[i], stderr);
		if (lr) {
			fprintf(stderr, "dlsim sweep: %u error(s) in %s\n", w[i].errors, names[i]);
			rc = rc ? rc : 65;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!w) {
		fprintf(stderr, "dlsim sweep: out of memory\n");
		return DLSIM_EXIT_FAILURE;
	}
	*out = w;
	*nr = n;
	return rc;
}

/* ---- output ---------------------------------------------------------------- */

static double accepted_ratio(const struct sweep_point *p, int t)
{
	return p->sets ? (double)p->accepted[t] / p->sets : 0.0;
}

/* A sweep that stopped early shows the rows that ran, each with a
 * "partial" column: yes when some of its sets did not run. */
static void print_table(FILE *f, const struct sweep_point *p, int n, unsigned int tests,
			bool stopped)
{
	fprintf(f, "%11s %6s %11s %6s", "utilisation", "sets", "schedulable", "ratio");
	for (int t = 0; t < SWEEP_NR_TESTS; t++)
		if (tests & (1u << t))
			fprintf(f, " %6s", sweep_test_names[t]);
	fprintf(f, stopped ? " partial\n" : "\n");
	for (int i = 0; i < n; i++) {
		if (stopped && !p[i].sets)
			continue;
		fprintf(f, "%11.3f %6u %11u %6.3f", p[i].util, p[i].sets, p[i].schedulable,
			p[i].sets ? (double)p[i].schedulable / p[i].sets : 0.0);
		for (int t = 0; t < SWEEP_NR_TESTS; t++)
			if (tests & (1u << t))
				fprintf(f, " %6.3f", accepted_ratio(&p[i], t));
		fprintf(f, stopped ? " %7s\n" : "\n", p[i].partial ? "yes" : "no");
	}
}

/* The CSV into the output opened before the sweep ran; 0 or -1. */
static void write_csv(FILE *f, const struct sweep_point *p, int n, unsigned int tests,
		      bool stopped)
{
	fprintf(f, "utilisation,sets,schedulable,ratio");
	for (int t = 0; t < SWEEP_NR_TESTS; t++)
		if (tests & (1u << t))
			fprintf(f, ",%s", sweep_test_names[t]);
	fprintf(f, stopped ? ",partial\n" : "\n");
	for (int i = 0; i < n; i++) {
		if (stopped && !p[i].sets)
			continue;
		fprintf(f, "%.6g,%u,%u,%.6g", p[i].util, p[i].sets, p[i].schedulable,
			p[i].sets ? (double)p[i].schedulable / p[i].sets : 0.0);
		for (int t = 0; t < SWEEP_NR_TESTS; t++)
			if (tests & (1u << t))
				fprintf(f, ",%.6g", accepted_ratio(&p[i], t));
		fprintf(f, stopped ? ",%d\n" : "\n", p[i].partial);
	}
}

/* The x of utilisation @u and the y of ratio @r in the plot area. */
struct plot {
	double left, top, w, h, xmax;
};

static double px(const struct plot *pl, double u)
{
	return pl->left + pl->w * u / pl->xmax;
}

static double py(const struct plot *pl, double r)
{
	return pl->top + pl->h - pl->h * r;
}

static void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* Axes, ticks, grid and labels. */
static void svg_axes(FILE *f, const struct plot *pl)
{
	/* A tick step of 1, 2 or 5 times a power of ten, 4 to 10 ticks. */
	double step = pow(10, floor(log10(pl->xmax)));

	if (pl->xmax / step < 4)
		step /= pl->xmax / step < 2 ? 5 : 2;
	for (int k = 0; k <= 4; k++) {
		double y = py(pl, k / 4.0);

		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
			pl->left, pl->left + pl->w, y, y, pl->left - 6, y + 4, k / 4.0);
	}
	for (int k = 0; k * step <= pl->xmax * (1 + 1e-9); k++) {
		double x = px(pl, k * step);

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
			x, x, pl->top, pl->top + pl->h, x, pl->top + pl->h + 16, k * step);
	}
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		"stroke=\"black\"/>\n", pl->left, pl->top, pl->w, pl->h);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">total utilisation</text>\n",
		pl->left + pl->w / 2, pl->top + pl->h + 40);
	fprintf(f, "<text x=\"16\" y=\"%.0f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.0f)\">schedulable ratio</text>\n",
		pl->top + pl->h / 2, pl->top + pl->h / 2);
}

/*
 * Ratio against utilisation: axes with ticks, the simulated curve with its
 * points, and one dashed curve per analysis test. The legend sits right of
 * the plot area, so it never covers a curve. Rows with no set run (a
 * stopped sweep) are left out.
 */
static void write_svg(FILE *f, const char *title, const struct sweep_point *p, int n,
		      unsigned int tests)
{
	static const char *const colour[SWEEP_NR_TESTS] = {
		"#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#b07aa1", "#9c755f", "#ff9da7",
		"#edc948",
	};
	struct plot pl = { .left = 60, .top = 40, .w = 560, .h = 300 };
	int curves = 1;
	const double lw = 100; /* legend width */

	for (int t = 0; t < SWEEP_NR_TESTS; t++)
		curves += (tests >> t) & 1;
	for (int i = 0; i < n; i++)
		if (p[i].util > pl.xmax)
			pl.xmax = p[i].util;
	if (pl.xmax <= 0)
		pl.xmax = 1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		pl.left + pl.w + (curves > 1 ? 15 + lw + 10 : 30), pl.top + pl.h + 60);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"20\">", pl.left);
	svg_text(f, title);
	fprintf(f, "</text>\n");
	svg_axes(f, &pl);
	/* One dashed curve per analysis test: the share of sets it accepts. */
	for (int t = 0; t < SWEEP_NR_TESTS; t++) {
		bool first = true;

		if (!(tests & (1u << t)))
			continue;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
			"stroke-dasharray=\"5,3\" points=\"", colour[t]);
		for (int i = 0; i < n; i++)
			if (p[i].sets) {
				fprintf(f, "%s%.1f,%.1f", first ? "" : " ", px(&pl, p[i].util),
					py(&pl, accepted_ratio(&p[i], t)));
				first = false;
			}
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" points=\"");
	for (int i = 0, first = 1; i < n; i++)
		if (p[i].sets) {
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ", px(&pl, p[i].util),
				py(&pl, (double)p[i].schedulable / p[i].sets));
			first = 0;
		}
	fprintf(f, "\"/>\n");
	for (int i = 0; i < n; i++)
		if (p[i].sets)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#4e79a7\">"
				"<title>U = %g: %u/%u%s</title></circle>\n", px(&pl, p[i].util),
				py(&pl, (double)p[i].schedulable / p[i].sets), p[i].util,
				p[i].schedulable, p[i].sets, p[i].partial ? " (partial)" : "");
	if (curves > 1) {
		double x = pl.left + pl.w + 15, y = pl.top;
		int k = 0;

		fprintf(f, "<g class=\"legend\">\n<rect class=\"legend\" x=\"%.0f\" y=\"%.0f\" "
			"width=\"%.0f\" height=\"%d\" fill=\"white\" stroke=\"#999\"/>\n",
			x, y, lw, 8 + 16 * curves);
		for (int t = -1; t < SWEEP_NR_TESTS; t++) {
			const char *c = t < 0 ? "#4e79a7" : colour[t];
			double ly = y + 16 + 16 * k;

			if (t >= 0 && !(tests & (1u << t)))
				continue;
			fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" "
				"stroke=\"%s\" stroke-width=\"2\"%s/><text x=\"%.0f\" y=\"%.0f\" "
				"fill=\"%s\">%s</text>\n", x + 8, x + 28, ly - 4, ly - 4, c,
				t < 0 ? "" : " stroke-dasharray=\"5,3\"", x + 34, ly, c,
				t < 0 ? "simulated" : sweep_test_names[t]);
			k++;
		}
		fprintf(f, "</g>\n");
	}
	fprintf(f, "</svg>\n");
}

/* ---- output files ---------------------------------------------------------- */

/*
 * An output opened before the sweep runs, so that a path that cannot be
 * written fails at once and not after hours of simulation. A regular file
 * (or a new one) is written beside its name and renamed when complete; a
 * device or pipe (/dev/stdout, /dev/full) is written directly.
 */
struct out_file {
	const char *path;
	char tmp[4200];         /* "" when written directly */
	int slot;               /* its sweep_remove_on_signal() slot */
	FILE *f;
};

/* Named for removal at a second signal before it exists, so that no
 * moment leaves it behind. */
static int out_open(struct out_file *o, const char *path, int slot)
{
	struct stat st;

	o->path = path;
	o->tmp[0] = '\0';
	o->slot = slot;
	if (!path)
		return 0;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
	} else {
		int fd;

		snprintf(o->tmp, sizeof(o->tmp), "%s.%ld.tmp", path, (long)getpid());
		sweep_remove_on_signal(slot, o->tmp);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (fd >= 0 && !o->f) {
			close(fd);
			unlink(o->tmp);
		}
		if (!o->f)
			sweep_remove_on_signal(slot, NULL);
	}
	if (!o->f) {
		fprintf(stderr, "dlsim sweep: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Close @o: keep it (renamed into place) or drop it; 0, or -1 with the
 * reason on stderr. */
static int out_close(struct out_file *o, bool keep)
{
	int rc;

	if (!o->f)
		return 0;
	rc = sim_close_output(o->f, "dlsim sweep", o->path);
	o->f = NULL;
	if (!o->tmp[0])
		return rc;
	if (!rc && keep && rename(o->tmp, o->path)) {
		fprintf(stderr, "dlsim sweep: cannot write %s: %s\n", o->path, strerror(errno));
		rc = -1;
	}
	if (rc || !keep)
		unlink(o->tmp);
	sweep_remove_on_signal(o->slot, NULL);
	return rc;
}

/* ---- command line ---------------------------------------------------------- */

static int usage(FILE *f, int code)
{
	fprintf(f,
		"usage: dlsim sweep [options]\n"
		"Simulate many task sets on the real library and print, per total\n"
		"utilisation, the share of sets with no deadline miss within the horizon.\n"
		"\n"
		"Generated task sets (one periodic SCHED_DEADLINE task each, budget = WCET):\n"
		"  --cpus M             CPUs (1..%d, default 1)\n"
		"  --tasks N            tasks per set (1..%d, default 10)\n"
		"  --util A:B:S | LIST  total utilisation from A to B by S (at most 100000\n"
		"                       steps), or a comma list (default M/20 to M by\n"
		"                       M/20); each <= N\n"
		"  --sets K             task sets per utilisation (default 100)\n"
		"  --gen G              randfixedsum (default) or uunifast (UUniFast-discard)\n"
		"  --deadlines D        implicit (default) or constrained (C <= D <= T)\n"
		"  --periods A:B[:G]    periods log-uniform in [A, B] ms, multiples of\n"
		"                       G ms (default 10:100:1; 0.1 <= A <= B <= 4194)\n"
		"  --horizon MS         simulated time per set, 0.001 to 1e9 ms (default\n"
		"                       10 x the longest period)\n"
		"  --mode M             global (default) or partitioned\n"
		"  --fit F              partitioned packing, each task on the first CPU that\n"
		"                       admits it: ff (default) in task order, ffd in\n"
		"                       decreasing utilisation (ties by index), as the ffd test\n"
		"  --seed S             seed (default 1); set i of step j depends only on\n"
		"                       (S, j, i)\n"
		"  --save DIR           also write each set as DIR/set-STEP-INDEX.json\n"
		"                       (an existing directory, checked first), to replay\n"
		"                       with dlsim; tasks in packing order\n"
		"  --guest P[:Q]        run each set inside one server (a one-vCPU guest)\n"
		"                       on CPU 0, period = deadline P ms (0.1 to 4194),\n"
		"                       budget Q ms, or without Q theta_min of the periodic\n"
		"                       resource model rounded up to a whole us (the whole\n"
		"                       period when none passes); whole us; one CPU only;\n"
		"                       adds the prm test; a set whose server or task\n"
		"                       admission refuses (above Q / P) is counted as not\n"
		"                       schedulable and the sweep says how many\n"
		"Workload files instead:\n"
		"  --dir DIR            simulate every DIR/*.json as `dlsim FILE` would and\n"
		"                       group them by reserved utilisation; a set refused by\n"
		"                       admission counts as not schedulable, and is counted\n"
		"  --cpus M             with --dir: CPUs for files whose platform section\n"
		"                       gives no count, as dlsim FILE --cpus\n"
		"  --bin W              utilisation bin width for --dir (default 0.05)\n"
		"  --strict             warnings about a file are errors\n"
		"Running and output:\n"
		"  --jobs J             worker threads, 1 to 1024 (default: the online CPUs,\n"
		"                       at most 256); the result does not depend on J\n"
		"  --check              run every validator after every event (slow)\n"
		"  --csv FILE           the table as CSV\n"
		"  --svg FILE           a plot of the ratio against utilisation\n"
		"  --progress           a progress bar with the time left on stderr even\n"
		"                       when it is not a terminal\n"
		"  --no-progress        no progress bar (it is off anyway when stderr is\n"
		"                       not a terminal)\n"
		"  SIGINT or SIGTERM stops the sweep between sets: the sets that ran are\n"
		"  printed and written (rows marked partial), exit status 128 + signal;\n"
		"  a second signal ends it at once. --csv and --svg are written beside\n"
		"  their names and renamed, so a file is never half written (a second\n"
		"  signal removes them first).\n"
		"  Across machines: mpirun -n K dlsim-mpi sweep [options] shares the sets\n"
		"  among K MPI ranks, with the same result (dlsim-mpi --help).\n"
		"Analysis beside simulation (generated sets):\n"
		"  --tests LIST         also run these tests and report the share of sets\n"
		"                       each accepts: qpa (one CPU), gfb, bak, bcl, rta\n"
		"                       (global EDF), ff (first fit in task order, QPA per\n"
		"                       CPU), ffd (first-fit decreasing, QPA per CPU),\n"
		"                       prm (with --guest: theta_min of the periodic\n"
		"                       resource model, Shin & Lee 2003, is at most Q, or\n"
		"                       without Q at most P)\n"
		"  --check-analysis     cross-check: a set a sufficient test accepts must not\n"
		"                       miss (global tests in global mode; ff and ffd CPU by\n"
		"                       CPU), a set QPA rejects must miss on one CPU at the\n"
		"                       deadline QPA names, a set prm accepts must not miss\n"
		"                       in its server (and qpa must accept it, and without\n"
		"                       Q, prm accept what qpa accepts: theta_min <= P is\n"
		"                       EDF's exact test on the whole CPU), the\n"
		"                       other tests then against bare-CPU simulations only;\n"
		"                       a disagreement is written as\n"
		"                       disagree-STEP-INDEX.json (in --save DIR, or here)\n"
		"                       and the sweep exits with status 2\n"
		"Exit status: 0 done; 1 a set failed to run or out of memory; 2 a\n"
		"disagreement under --check-analysis; 64 bad\n"
		"command line; 65 errors in a file of --dir; 66 --dir or one of its files\n"
		"cannot be read; 73 --csv, --svg, --save or stdout could not be written;\n"
		"130 and 143 stopped by SIGINT and SIGTERM.\n",
		WL_MAX_CPUS, SWEEP_MAX_TASKS);
	return code;
}

/* A number defined by a macro, as a string literal. */
#define STR_(x) #x
#define STR(x) STR_(x)

static int bad(const char *opt, const char *expected, const char *got)
{
	fprintf(stderr, "dlsim sweep: %s: expected %s, got \"%s\"\n", opt, expected, got);
	fprintf(stderr, "Try 'dlsim sweep --help'.\n");
	return DLSIM_EXIT_USAGE;
}

static bool parse_long(const char *s, long lo, long hi, long *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (*s == '-' || *s == '+')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return false;
	*v = x;
	return true;
}

/* A finite double; *end is where it stopped. */
static bool parse_double_at(const char *s, double *v, const char **end)
{
	char *e;

	errno = 0;
	*v = strtod(s, &e);
	*end = e;
	return e != s && !errno && isfinite(*v);
}

static bool parse_double(const char *s, double *v)
{
	const char *end;

	return parse_double_at(s, v, &end) && !*end;
}

/* "A:B:S" (range) or "a,b,c" (list). */
/* "A:B:S" (range) or "a,b,c" (list); -1 malformed, -2 more than 100000
 * steps (*steps says how many). */
static int parse_utils(const char *s, double **out, int *nr, double *steps)
{
	double v[3];
	const char *p = s, *end;
	int k = 0;

	if (strchr(s, ':')) {
		while (k < 3 && parse_double_at(p, &v[k], &end)) {
			k++;
			if (*end != ':')
				break;
			p = end + 1;
		}
		if (k != 3 || *end || v[0] <= 0 || v[1] < v[0] || v[2] <= 0)
			return -1;
		*steps = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
		if (*steps > 100000)
			return -2;
		*nr = (int)*steps;
		*out = malloc(sizeof(**out) * (size_t)*nr);
		if (!*out)
			return -1;
		/* Computed from the index, not accumulated: no drift; and to 12
		 * digits, so 0.1 + 0.05 x 3 is 0.25, not 0.25000000000000006. */
		for (int i = 0; i < *nr; i++) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%.12g", v[0] + v[2] * i);
			(*out)[i] = strtod(buf, NULL);
		}
		return 0;
	}
	*nr = 1;
	for (const char *c = s; *c; c++)
		*nr += *c == ',';
	*out = malloc(sizeof(**out) * (size_t)*nr);
	if (!*out)
		return -1;
	for (int i = 0; i < *nr; i++) {
		if (!parse_double_at(p, &(*out)[i], &end) || (*out)[i] <= 0 ||
		    (*end != ',' && *end))
			return -1;
		p = end + 1;
	}
	return 0;
}

static bool takes_value(const char *a)
{
	static const char *const opts[] = {
		"--cpus", "--tasks", "--util", "--sets", "--gen", "--deadlines", "--periods",
		"--horizon", "--mode", "--seed", "--dir", "--bin", "--jobs", "--csv", "--svg",
		"--save", "--tests", "--fit", "--guest",
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return true;
	return false;
}

static int default_jobs(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n > 0)
		return n > 256 ? 256 : (int)n;
#endif
	return 1;
}

/* The outputs a sweep writes, opened before it runs. */
struct outputs {
	struct out_file csv, svg;
};

static int outputs_open(struct outputs *o, const char *csv, const char *svg)
{
	memset(o, 0, sizeof(*o));
	if (out_open(&o->csv, csv, 0) || out_open(&o->svg, svg, 1)) {
		out_close(&o->csv, false);
		out_close(&o->svg, false);
		return DLSIM_EXIT_CANTCREAT;
	}
	return 0;
}

/* A sweep that stopped early says so after its table; the exit status. */
static int report_stop(int rc, size_t ran, size_t total)
{
	int sig = sweep_caught_signal();
	const char *why = sig == SIGINT ? "interrupted by SIGINT" : sig ? "interrupted by SIGTERM" :
		"stopped (a set could not be saved)";

	if (ran == total)
		return rc;
	printf("dlsim sweep: %s after %zu of %zu sets: rows marked partial ran only some of "
	       "their sets\n", why, ran, total);
	if (sig)
		fprintf(stderr, "dlsim sweep: %s: the table has the %zu sets that ran\n", why,
			ran);
	return rc ? rc : 128 + sig;
}

/* A shared sweep stopped by a signal writes no table (mpirun ends the
 * other ranks too, so the sets they ran may never come): the status. */
static int report_shared_stop(const struct sweep_dist *d)
{
	int sig = d->stop_signal;

	fprintf(stderr, "dlsim sweep: interrupted by %s: a sweep shared by %d ranks writes no "
		"partial table; nothing written\n", sig == SIGINT ? "SIGINT" :
		sig == SIGTERM ? "SIGTERM" : "a signal", d->size);
	return 128 + sig;
}

/* The table on stdout and the files; a stopped sweep marks partial rows.
 * Drops the outputs (no file) when @rc says the sweep failed. */
static int finish(struct outputs *o, const struct sweep_point *pts, int n, const char *title,
		  unsigned int tests, int rc)
{
	bool stopped = false;
	char t[300];

	for (int i = 0; i < n; i++)
		stopped |= pts[i].partial;
	if (rc && rc != DLSIM_EXIT_CANTCREAT) {
		out_close(&o->csv, false);
		out_close(&o->svg, false);
		return rc;
	}
	snprintf(t, sizeof(t), "%s%s", title, stopped ? " (stopped: partial)" : "");
	print_table(stdout, pts, n, tests, stopped);
	if (o->csv.f)
		write_csv(o->csv.f, pts, n, tests, stopped);
	if (o->svg.f)
		write_svg(o->svg.f, t, pts, n, tests);
	if (out_close(&o->csv, true))
		rc = DLSIM_EXIT_CANTCREAT;
	if (out_close(&o->svg, true))
		rc = DLSIM_EXIT_CANTCREAT;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dlsim sweep: cannot write standard output: %s\n",
			strerror(errno));
		rc = DLSIM_EXIT_CANTCREAT;
	}
	return rc;
}

/* Rows: the distinct bins, ascending; 0 or -1 (memory). */
static int dir_bins(const double *key, size_t n, struct sweep_point *pts, int *np)
{
	double *sorted = malloc(n * sizeof(*sorted));

	if (!sorted)
		return -1;
	memcpy(sorted, key, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (!*np || sorted[i] != pts[*np - 1].util)
			pts[(*np)++].util = sorted[i];
	free(sorted);
	return 0;
}

struct dir_args {
	const char *dir;
	double bin;
	bool strict;
	struct wl_load_options load;
};

static int run_dir(const struct sweep_config *c, const struct dir_args *d, struct outputs *o)
{
	struct workload *w = NULL;
	size_t n = 0, ran = 0, refused = 0;
	int rc = load_dir(d->dir, d->strict, &d->load, &w, &n);
	signed char *result = NULL;
	uint64_t *events = NULL;
	double *key = NULL;
	struct sweep_point *pts = NULL;
	int np = 0;
	char title[256];

	if (rc)
		goto out;
	result = calloc(n, 1);
	events = calloc(n, sizeof(*events));
	key = malloc(n * sizeof(*key));
	pts = calloc(n, sizeof(*pts));
	if (!result || !events || !key || !pts) {
		fprintf(stderr, "dlsim sweep: out of memory\n");
		rc = 1;
		goto out;
	}
	{
		struct dir_ctx ctx = { w, c->check };

		sweep_run_items(n, c->jobs, c->progress, dir_item, &ctx, result, events);
	}
	for (size_t i = 0; i < n; i++)
		key[i] = round(workload_util(&w[i]) / d->bin) * d->bin;
	if (dir_bins(key, n, pts, &np)) {
		rc = 1;
		goto out;
	}
	/* files add up in name order */
	for (size_t i = 0; i < n; i++) {
		int p = 0;

		while (pts[p].util != key[i])
			p++;
		if (result[i] == SWEEP_NOT_RUN) {
			pts[p].partial = true;
			continue;
		}
		ran++;
		pts[p].sets++;
		pts[p].events += events[i];
		refused += result[i] == DIR_REFUSED;
		if (result[i] == 1)
			pts[p].schedulable++;
		if (result[i] < 0) {
			fprintf(stderr, "dlsim sweep: %s could not be simulated\n", w[i].fname);
			rc = 1;
		}
	}
	printf("dlsim sweep: %zu workload files from %s, bins of %g\n", n, d->dir, d->bin);
	if (refused)
		fprintf(stderr, "dlsim sweep: %zu of %zu files refused by admission control (each "
			"said why above), counted as not schedulable\n", refused, ran);
	snprintf(title, sizeof(title), "dlsim sweep: %zu workloads from %s", n, d->dir);
	rc = finish(o, pts, np, title, 0, rc);
	rc = report_stop(rc, ran, n);
out:
	for (size_t i = 0; w && i < n; i++)
		workload_free(&w[i]);
	free(w);
	free(result);
	free(events);
	free(key);
	free(pts);
	return rc;
}

struct sweep_cli {
	struct sweep_config c;
	const char *csv, *svg, *dir, *util_arg;
	double bin;
	bool strict, cpus_given;
	const char *gen_only;   /* the first option that shapes generated sets */
	const char *dir_only;   /* the first option that applies to --dir only */
};

/* --periods MIN:MAX[:GRAN] in ms; false when malformed. */
static bool parse_periods(const char *v, struct sweep_config *c)
{
	double p[3] = { 0, 0, 1 };
	const char *q = v, *end = v;
	int k = 0;

	while (k < 3 && parse_double_at(q, &p[k], &end)) {
		k++;
		if (*end != ':')
			break;
		q = end + 1;
	}
	if (k < 2 || *end || p[0] < 0.1 || p[1] < p[0] || p[1] > 4194 ||
	    p[2] <= 0 || p[2] * 1000 < 1 || p[2] > p[1])
		return false;
	c->period_min_us = (uint64_t)llround(p[0] * 1000);
	c->period_max_us = (uint64_t)llround(p[1] * 1000);
	c->period_gran_us = (uint64_t)llround(p[2] * 1000);
	return true;
}

/* A time in ms that is a whole number of microseconds in [lo, hi] ms. */
static bool parse_whole_us(const char *v, const char **end, double lo, double hi,
			   uint64_t *us)
{
	double ms, x;

	if (!parse_double_at(v, &ms, end) || ms < lo || ms > hi)
		return false;
	x = ms * 1000;
	if (fabs(x - round(x)) > 1e-6 * x)
		return false;
	*us = (uint64_t)llround(x);
	return true;
}

/* --guest MS[:BUDGET_MS]: the server's period in the library's period
 * range, and a budget of at least 2 us (the library's least runtime is
 * 1024 ns) up to it; whole microseconds; false otherwise. */
static bool parse_guest(const char *v, struct sweep_config *c)
{
	const char *end;

	c->guest_budget_us = 0;
	if (!parse_whole_us(v, &end, 0.1, 4194, &c->guest_period_us))
		return false;
	if (*end == ':')
		return parse_whole_us(end + 1, &end, 0.002, (double)c->guest_period_us / 1000,
				      &c->guest_budget_us) && !*end;
	return !*end;
}

/* An option shaping the generated sets; -1 when @a is none of them. */
static int set_option(struct sweep_cli *s, const char *a, const char *v)
{
	struct sweep_config *c = &s->c;
	long l;
	double ms;

	if (!strcmp(a, "--cpus")) {
		if (!parse_long(v, 1, WL_MAX_CPUS, &l))
			return bad(a, "a CPU count from 1 to " STR(WL_MAX_CPUS), v);
		c->nr_cpus = (int)l;
		s->cpus_given = true;
	} else if (!strcmp(a, "--tasks")) {
		if (!parse_long(v, 1, SWEEP_MAX_TASKS, &l))
			return bad(a, "a task count from 1 to 4096", v);
		c->nr_tasks = (int)l;
	} else if (!strcmp(a, "--util")) {
		s->util_arg = v;
	} else if (!strcmp(a, "--sets")) {
		if (!parse_long(v, 1, 10000000, &l))
			return bad(a, "a number of sets from 1 to 10000000", v);
		c->sets = (int)l;
	} else if (!strcmp(a, "--gen")) {
		if (!strcmp(v, "randfixedsum"))
			c->gen = SWEEP_RANDFIXEDSUM;
		else if (!strcmp(v, "uunifast") || !strcmp(v, "uunifast-discard"))
			c->gen = SWEEP_UUNIFAST;
		else
			return bad(a, "randfixedsum or uunifast", v);
	} else if (!strcmp(a, "--deadlines")) {
		if (!strcmp(v, "implicit"))
			c->deadlines = SWEEP_IMPLICIT;
		else if (!strcmp(v, "constrained"))
			c->deadlines = SWEEP_CONSTRAINED;
		else
			return bad(a, "implicit or constrained", v);
	} else if (!strcmp(a, "--periods")) {
		if (!parse_periods(v, c))
			return bad(a, "MIN:MAX[:GRAN] in ms with 0.1 <= MIN <= MAX <= 4194 "
				   "and 0.001 <= GRAN <= MAX", v);
	} else if (!strcmp(a, "--horizon")) {
		if (!parse_double(v, &ms) || ms < 0.001 || ms > 1e9)
			return bad(a, "a time in ms from 0.001 to 1e9", v);
		c->horizon_us = (uint64_t)llround(ms * 1000);
	} else if (!strcmp(a, "--mode")) {
		if (!strcmp(v, "global"))
			c->mode = WL_MODE_GLOBAL;
		else if (!strcmp(v, "partitioned"))
			c->mode = WL_MODE_PARTITIONED;
		else
			return bad(a, "global or partitioned", v);
	} else if (!strcmp(a, "--fit")) {
		if (!strcmp(v, "ff"))
			c->fit = SWEEP_FIT_FF;
		else if (!strcmp(v, "ffd"))
			c->fit = SWEEP_FIT_FFD;
		else
			return bad(a, "ff (first fit in task order) or ffd (first-fit decreasing)",
				   v);
	} else if (!strcmp(a, "--seed")) {
		if (!parse_u64(v, &c->seed))
			return bad(a, "an unsigned 64-bit integer", v);
	} else if (!strcmp(a, "--guest")) {
		if (!parse_guest(v, c))
			return bad(a, "PERIOD[:BUDGET] in ms, whole numbers of us, with 0.1 <= "
				   "PERIOD <= 4194 and 0.002 <= BUDGET <= PERIOD", v);
	} else {
		return -1;
	}
	if (strcmp(a, "--cpus") && !s->gen_only)
		s->gen_only = a;
	return 0;
}

/* An option about running and output (the rest of takes_value()'s). */
static int run_option(struct sweep_cli *s, const char *a, const char *v)
{
	long l;

	if (!strcmp(a, "--dir")) {
		s->dir = v;
	} else if (!strcmp(a, "--bin")) {
		if (!parse_double(v, &s->bin) || s->bin <= 0)
			return bad(a, "a positive utilisation width", v);
		s->dir_only = s->dir_only ? s->dir_only : a;
	} else if (!strcmp(a, "--jobs")) {
		if (!parse_long(v, 1, SWEEP_MAX_JOBS, &l))
			return bad(a, "a number of threads from 1 to 1024", v);
		s->c.jobs = (int)l;
	} else if (!strcmp(a, "--csv")) {
		s->csv = v;
	} else if (!strcmp(a, "--save")) {
		s->c.save_dir = v;
		s->gen_only = s->gen_only ? s->gen_only : a;
	} else if (!strcmp(a, "--tests")) {
		if (sweep_parse_tests(v, &s->c.tests))
			return bad(a, "a comma list of qpa, gfb, bak, bcl, rta, ff, ffd, prm", v);
		s->gen_only = s->gen_only ? s->gen_only : a;
	} else {
		s->svg = v;
	}
	return 0;
}

/* A flag without a value; false when @a is none. */
static bool flag_option(struct sweep_cli *s, const char *a)
{
	if (!strcmp(a, "--check"))
		s->c.check = true;
	else if (!strcmp(a, "--no-progress") || !strcmp(a, "--progress"))
		s->c.progress = a[2] == 'p';
	else if (!strcmp(a, "--strict"))
		s->strict = true;
	else if (!strcmp(a, "--check-analysis"))
		s->c.check_analysis = true;
	else
		return false;
	if (!strcmp(a, "--strict") && !s->dir_only)
		s->dir_only = a;
	if (!strcmp(a, "--check-analysis") && !s->gen_only)
		s->gen_only = a;
	return true;
}

/* The command line into @s; 0, -1 for --help, or the exit code. */
static int parse_args(struct sweep_cli *s, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int rc;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return -1;
		if (flag_option(s, a))
			continue;
		if (!takes_value(a)) {
			if (a[0] == '-')
				fprintf(stderr, "dlsim sweep: unknown option %s\n", a);
			else
				fprintf(stderr, "dlsim sweep: unexpected argument \"%s\"\n", a);
			return usage(stderr, DLSIM_EXIT_USAGE);
		}
		if (!v) {
			fprintf(stderr, "dlsim sweep: %s needs a value\n", a);
			return usage(stderr, DLSIM_EXIT_USAGE);
		}
		i++;
		rc = set_option(s, a, v);
		if (rc < 0)
			rc = run_option(s, a, v);
		if (rc)
			return rc;
	}
	return 0;
}

/* The utilisation steps: --util's, or M/20 to M by M/20. */
static int setup_utils(struct sweep_cli *s)
{
	struct sweep_config *c = &s->c;

	if (s->util_arg) {
		double steps = 0;
		int rc = parse_utils(s->util_arg, &c->utils, &c->nr_utils, &steps);

		if (rc == -2) {
			fprintf(stderr, "dlsim sweep: --util %s: %.0f steps, at most 100000; a "
				"larger S gives fewer\n", s->util_arg, steps);
			return DLSIM_EXIT_USAGE;
		}
		if (rc)
			return bad("--util", "A:B:S with 0 < A <= B and S > 0, or a comma list "
				   "of positive utilisations", s->util_arg);
	} else {
		c->nr_utils = 20;
		c->utils = malloc(sizeof(*c->utils) * 20);
		if (!c->utils)
			return DLSIM_EXIT_FAILURE;
		for (int i = 0; i < 20; i++)
			c->utils[i] = c->nr_cpus * (i + 1) / 20.0;
	}
	for (int i = 0; i < c->nr_utils; i++)
		if (c->utils[i] > c->nr_tasks) {
			fprintf(stderr, "dlsim sweep: --util: utilisation %g needs more than "
				"--tasks %d tasks (each task's utilisation is at most 1)\n",
				c->utils[i], c->nr_tasks);
			free(c->utils);
			c->utils = NULL;
			return DLSIM_EXIT_USAGE;
		}
	return 0;
}

static void print_header(const struct sweep_config *c)
{
	printf("dlsim sweep: %d CPU%s (%s), %d tasks, %s, %s deadlines, periods %g-%g ms "
	       "(step %g), horizon %g ms, %d sets per utilisation, seed %llu\n",
	       c->nr_cpus, c->nr_cpus > 1 ? "s" : "",
	       c->mode != WL_MODE_PARTITIONED ? "global EDF" : c->fit == SWEEP_FIT_FFD ?
	       "partitioned, first-fit decreasing" : "partitioned, first fit in task order",
	       c->nr_tasks, c->gen == SWEEP_UUNIFAST ? "UUniFast-discard" : "Randfixedsum",
	       c->deadlines == SWEEP_IMPLICIT ? "implicit" : "constrained",
	       (double)c->period_min_us / 1000, (double)c->period_max_us / 1000,
	       (double)c->period_gran_us / 1000, (double)c->horizon_us / 1000, c->sets,
	       (unsigned long long)c->seed);
	if (c->guest_budget_us)
		printf("dlsim sweep: each set inside one server on CPU 0, budget %g ms every "
		       "%g ms (deadline = period); prm: theta_min of the periodic resource "
		       "model (Shin & Lee 2003) fits the budget\n",
		       (double)c->guest_budget_us / 1000, (double)c->guest_period_us / 1000);
	else if (c->guest_period_us)
		printf("dlsim sweep: each set inside one server on CPU 0, period = deadline %g "
		       "ms, budget theta_min of the periodic resource model (Shin & Lee 2003) "
		       "rounded up to a whole us, the whole period when none passes\n",
		       (double)c->guest_period_us / 1000);
}

/* --guest: the sets whose server, or a task inside it, admission refused
 * (counted as not schedulable). */
static void report_refused(const struct sweep_config *c, const struct sweep_point *pts)
{
	unsigned int refused = 0, sets = 0;

	for (int i = 0; i < c->nr_utils; i++) {
		refused += pts[i].refused;
		sets += pts[i].sets;
	}
	if (c->guest_period_us)
		fprintf(refused ? stderr : stdout, "dlsim sweep: %u of %u sets not admitted (the "
			"server on the host at 100%%, or a task inside it within the server's "
			"bandwidth), counted as not schedulable\n", refused, sets);
}

/* Budgets raised to the 2 us minimum above their step's utilisation. */
static void report_lifted(const struct sweep_config *c, const struct sweep_point *pts)
{
	unsigned int lifted = 0;

	for (int i = 0; i < c->nr_utils; i++)
		lifted += pts[i].lifted;
	if (lifted)
		fprintf(stderr, "dlsim sweep: warning: in %u set%s a task's u T was under "
			"2 us and its budget was raised to 2 us, above the step's "
			"utilisation; longer periods avoid it\n", lifted, lifted > 1 ? "s" : "");
}

/* --check-analysis: the sets where analysis and simulation disagree (2). */
static int report_disagree(const struct sweep_config *c, const struct sweep_point *pts,
			   int rc)
{
	unsigned int disagree = 0;

	for (int i = 0; i < c->nr_utils; i++)
		disagree += pts[i].disagree;
	if (c->check_analysis)
		fprintf(disagree ? stderr : stdout,
			"dlsim sweep: analysis and simulation disagree on %u set%s\n",
			disagree, disagree == 1 ? "" : "s");
	return disagree && !rc ? 2 : rc;
}

/* The generated sweep: simulate, print the table and write its files. */
static int run_generated(struct sweep_cli *s, struct outputs *o)
{
	struct sweep_config *c = &s->c;
	struct sweep_point *pts;
	char title[256];
	size_t ran = 0;
	int rc;

	if (!c->horizon_us)
		c->horizon_us = 10 * c->period_max_us;
	if (!c->dist || c->dist->rank == 0)
		print_header(c);
	pts = calloc((size_t)c->nr_utils, sizeof(*pts));
	if (!pts)
		return DLSIM_EXIT_FAILURE;
	rc = sweep_run(c, pts, stderr);
	if (c->dist && (c->dist->rank != 0 || rc == SWEEP_ESTOPPED)) {
		free(pts);
		return rc == SWEEP_ESTOPPED ? report_shared_stop(c->dist) : rc ? 1 : 0;
	}
	rc = rc == SWEEP_ESAVE ? DLSIM_EXIT_CANTCREAT : rc ? 1 : 0;
	for (int i = 0; i < c->nr_utils; i++)
		ran += pts[i].sets;
	report_lifted(c, pts);
	snprintf(title, sizeof(title), "%d CPU%s, %d tasks, %s, %s deadlines, %d sets per point",
		 c->nr_cpus, c->nr_cpus > 1 ? "s" : "", c->nr_tasks,
		 c->gen == SWEEP_UUNIFAST ? "UUniFast-discard" : "Randfixedsum",
		 c->deadlines == SWEEP_IMPLICIT ? "implicit" : "constrained", c->sets);
	rc = finish(o, pts, c->nr_utils, title, c->tests, rc);
	report_refused(c, pts);
	rc = report_disagree(c, pts, rc);
	rc = report_stop(rc, ran, (size_t)c->nr_utils * (size_t)c->sets);
	free(pts);
	return rc;
}

/* Options for the other kind of sweep, and a --save directory that is not
 * there: refused before anything runs. */
static int check_args(const struct sweep_cli *s)
{
	struct stat st;

	if (s->dir && s->gen_only) {
		fprintf(stderr, "dlsim sweep: %s shapes generated sets; --dir takes its sets "
			"from the files (%s needs generated sets)\n", s->gen_only, s->gen_only);
		return DLSIM_EXIT_USAGE;
	}
	if (!s->dir && s->dir_only) {
		fprintf(stderr, "dlsim sweep: %s applies to --dir only\n", s->dir_only);
		return DLSIM_EXIT_USAGE;
	}
	if (s->c.save_dir) {
		int err = stat(s->c.save_dir, &st) ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR :
			access(s->c.save_dir, W_OK | X_OK) ? errno : 0;

		if (err) {
			fprintf(stderr, "dlsim sweep: --save %s: %s\n", s->c.save_dir,
				strerror(err));
			return DLSIM_EXIT_CANTCREAT;
		}
	}
	return 0;
}

/* --guest: one CPU (the server is on CPU 0), and the prm column it adds;
 * prm needs the server's period. */
static int check_guest(struct sweep_cli *s)
{
	struct sweep_config *c = &s->c;

	if (!c->guest_period_us && (c->tests & (1u << SWEEP_TEST_PRM))) {
		fprintf(stderr, "dlsim sweep: --tests prm needs --guest MS (the period of the "
			"server the set runs in)\n");
		return DLSIM_EXIT_USAGE;
	}
	if (c->guest_period_us && c->nr_cpus > 1) {
		fprintf(stderr, "dlsim sweep: --guest puts each set in one server on CPU 0: "
			"--cpus %d is refused (one CPU only)\n", c->nr_cpus);
		return DLSIM_EXIT_USAGE;
	}
	if (c->guest_period_us)
		c->tests |= 1u << SWEEP_TEST_PRM;
	return 0;
}

/*
 * Plain dlsim started by mpirun: every rank would run the whole sweep and
 * write the same files. The launchers' own variables say so (Open MPI's,
 * and the PMI ones of MPICH, Intel MPI and Slurm).
 */
static int refuse_under_mpirun(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && atoi(v) > 1) {
			fprintf(stderr, "dlsim sweep: started as one of %s MPI ranks (%s), but "
				"this dlsim does not use MPI: each rank would run the whole "
				"sweep; run dlsim-mpi sweep (built when CMake finds MPI)\n",
				v, vars[i]);
			return DLSIM_EXIT_USAGE;
		}
	}
	return 0;
}

/* parse_args() and setup_utils(): deterministic, so on a rank other than
 * 0 their messages (rank 0 prints the same) go to /dev/null. */
static int parse_quietly(struct sweep_cli *s, int argc, char **argv, bool quiet)
{
	int saved = -1, null = -1, rc;

	if (quiet) {
		fflush(stderr);
		saved = dup(STDERR_FILENO);
		null = open("/dev/null", O_WRONLY);
		if (saved >= 0 && null >= 0)
			dup2(null, STDERR_FILENO);
	}
	rc = parse_args(s, argc, argv);
	if (!rc && !s->dir)
		rc = setup_utils(s);
	if (saved >= 0 && null >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
	}
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return rc;
}

int sweep_main(int argc, char **argv)
{
	return sweep_main_dist(argc, argv, NULL);
}

int sweep_main_dist(int argc, char **argv, struct sweep_dist *dist)
{
	struct sweep_cli s = {
		.c = {
			.gen = SWEEP_RANDFIXEDSUM, .deadlines = SWEEP_IMPLICIT,
			.nr_cpus = 1, .nr_tasks = 10, .sets = 100, .seed = 1,
			.period_min_us = 10000, .period_max_us = 100000, .period_gran_us = 1000,
			.mode = WL_MODE_GLOBAL, .jobs = default_jobs(),
			.progress = isatty(STDERR_FILENO), .max_tries = 100000,
		},
		.bin = 0.05,
	};
	bool root = !dist || dist->rank == 0;
	int rc;
	struct outputs out;

	if (dist && dist->default_jobs > 0)
		s.c.jobs = dist->default_jobs;
	s.c.dist = dist;
	rc = parse_quietly(&s, argc, argv, !root);
	if (rc < 0) {
		usage(stdout, DLSIM_EXIT_OK);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "dlsim sweep: cannot write standard output: %s\n",
				strerror(errno));
			return DLSIM_EXIT_CANTCREAT;
		}
		return DLSIM_EXIT_OK;
	}
	if (!rc && !dist)
		rc = refuse_under_mpirun();
	if (!rc && dist && s.dir) {
		if (root)
			fprintf(stderr, "dlsim sweep: --dir is not shared across ranks; run it "
				"with dlsim sweep --dir (one process, --jobs threads)\n");
		rc = DLSIM_EXIT_USAGE;
	}
	if (!rc)
		rc = check_args(&s);
	if (!rc && !s.dir)
		rc = check_guest(&s);
	/* Before any file is created: a signal from here on stops the sweep
	 * (and a second one removes the temporary files), never leaves one. */
	if (!rc)
		sweep_catch_signals();
	/* only rank 0 writes the table and the files */
	memset(&out, 0, sizeof(out));
	if (!rc && root)
		rc = outputs_open(&out, s.csv, s.svg);
	if (dist) {
		int all = dist->agree(dist->ctx, rc);

		if (all && !rc && root)
			fprintf(stderr, "dlsim sweep: another rank could not start (its reason "
				"is above); nothing ran\n");
		if (all && !rc) {
			out_close(&out.csv, false);
			out_close(&out.svg, false);
		}
		rc = rc ? rc : all;
		dist->running = !rc;
	}
	if (rc) {
		free(s.c.utils);
		return rc;
	}
	if (s.dir) {
		struct dir_args d = { s.dir, s.bin, s.strict,
				      { .cpus = s.cpus_given ? s.c.nr_cpus : 0 } };

		rc = run_dir(&s.c, &d, &out);
	} else {
		rc = run_generated(&s, &out);
	}
	/* a sweep that failed before its table leaves no file behind */
	out_close(&out.csv, false);
	out_close(&out.svg, false);
	free(s.c.utils);
	return rc;
}
