/*
 * dlsim's outputs tell one story: the summary, the JSON, the jobs CSV, the
 * trace and the Gantt chart of one run, read back from the files and
 * compared with each other and with schedules worked out by hand with EDF
 * and hard CBS reservations on one CPU (Abeni & Buttazzo, RTSS 1998;
 * Linux's Documentation/scheduler/sched-deadline.rst sec. 2 and 3: a
 * reservation whose runtime is exhausted is throttled until its next
 * period, then replenished with a new deadline one period later).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "dls_test_dlsim.h"
#include "sim.h"
#include "workload.h"

#define MS UINT64_C(1000000)
#define MAX_THREADS 16
#define MAX_JOBS 1024
#define MAX_SLICES 8192

struct job_row {
	int thread;
	uint64_t release, start, end;
	bool ran;
	unsigned int preemptions, throttles;
};

struct slice_ev {
	int thread, cpu;
	uint64_t start, end;
};

/* One run's outputs, read back from its files. */
struct outputs {
	char name[MAX_THREADS][64];
	int nr_threads;
	/* per thread: each output's throttle count, the summary's preemptions */
	uint64_t summary_throttles[MAX_THREADS], summary_preempt[MAX_THREADS];
	uint64_t summary_migr[MAX_THREADS], csv_migr[MAX_THREADS];
	uint64_t json_throttles[MAX_THREADS], trace_throttles[MAX_THREADS];
	uint64_t csv_throttles[MAX_THREADS], json_job_throttles[MAX_THREADS];
	uint64_t csv_preempt[MAX_THREADS];
	struct job_row jobs[MAX_JOBS];
	size_t nr_jobs, nr_json_jobs;
	struct slice_ev slices[MAX_SLICES];
	size_t nr_slices;
};

static int thread_index(struct outputs *o, const char *name, size_t len)
{
	int i;

	for (i = 0; i < o->nr_threads; i++)
		if (strlen(o->name[i]) == len && !strncmp(o->name[i], name, len))
			return i;
	CU_ASSERT_FATAL(o->nr_threads < MAX_THREADS && len < sizeof(o->name[0]));
	memcpy(o->name[i], name, len);
	o->name[i][len] = 0;
	return o->nr_threads++;
}

/* The number after @key in @line (which must have it). */
static uint64_t field(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	return strtoull(p + strlen(key), NULL, 10);
}

/* The summary's thread rows: name, ..., throttle (10th), preempt (11th),
 * migr (12th). */
static void parse_summary(struct outputs *o, char *text)
{
	char *line = strstr(text, "\nthread ");
	bool rows = false;

	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	for (line = strtok(line, "\n"); line; line = strtok(NULL, "\n")) {
		char name[64];
		unsigned long long thr, pre, migr;

		if (!strncmp(line, "thread ", 7)) {
			rows = true;
			continue;
		}
		if (!strncmp(line, "cpu ", 4))
			break;
		if (rows && sscanf(line, "%63s %*s %*d %*u %*u %*s %*s %*s %*s %llu %llu %llu",
				   name, &thr, &pre, &migr) == 4) {
			int i = thread_index(o, name, strlen(name));

			o->summary_throttles[i] = thr;
			o->summary_preempt[i] = pre;
			o->summary_migr[i] = migr;
		}
	}
}

/* The JSON's thread objects and job objects, one per line. */
static void parse_json(struct outputs *o, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		const char *n;

		if ((n = strstr(line, "{\"name\": \""))) {
			n += 10;
			o->json_throttles[thread_index(o, n, strcspn(n, "\""))] =
				field(line, "\"throttles\": ");
		} else if ((n = strstr(line, "{\"thread\": \""))) {
			n += 12;
			o->json_job_throttles[thread_index(o, n, strcspn(n, "\""))] +=
				field(line, "\"throttles\": ");
			o->nr_json_jobs++;
		}
	}
}

/* The trace's run slices and throttle marks. */
static void parse_trace(struct outputs *o, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char name[64];
		int cpu;
		double ts, dur;
		const char *n;

		if (sscanf(line, "{\"ph\": \"X\", \"name\": \"%63[^\"]\", \"pid\": 0, \"tid\": %d, "
			   "\"ts\": %lf, \"dur\": %lf}", name, &cpu, &ts, &dur) == 4) {
			struct slice_ev *s = &o->slices[o->nr_slices];

			CU_ASSERT_FATAL(o->nr_slices < MAX_SLICES);
			s->thread = thread_index(o, name, strlen(name));
			s->cpu = cpu;
			/* microseconds with three decimals: exact in ns */
			s->start = (uint64_t)(ts * 1000 + 0.5);
			s->end = s->start + (uint64_t)(dur * 1000 + 0.5);
			o->nr_slices++;
		} else if ((n = strstr(line, "\"name\": \"throttle "))) {
			n += 18;
			o->trace_throttles[thread_index(o, n, strcspn(n, "\""))]++;
		}
	}
}

/* The jobs CSV: "thread",job,release,start,end,...,preemptions,migrations,throttles. */
static void parse_csv(struct outputs *o, char *text)
{
	char *line = strtok(text, "\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_EQUAL_FATAL(strncmp(line, "thread,job,release_ns,start_ns,", 31), 0);
	while ((line = strtok(NULL, "\n"))) {
		struct job_row *j = &o->jobs[o->nr_jobs];
		char *f[16] = { 0 }, *p = line + 1;
		size_t n = 0;

		CU_ASSERT_FATAL(o->nr_jobs < MAX_JOBS && line[0] == '"');
		j->thread = thread_index(o, p, strcspn(p, "\""));
		p = strchr(p, '"') + 1;
		while (n < 16 && (p = strchr(p, ','))) {
			*p++ = 0;
			f[n++] = p;
		}
		CU_ASSERT_EQUAL_FATAL(n, 12);
		j->release = strtoull(f[1], NULL, 10);
		j->ran = *f[2] != 0;
		j->start = strtoull(f[2], NULL, 10);
		j->end = strtoull(f[3], NULL, 10);
		j->preemptions = (unsigned int)strtoul(f[9], NULL, 10);
		j->throttles = (unsigned int)strtoul(f[11], NULL, 10);
		o->csv_throttles[j->thread] += j->throttles;
		o->csv_preempt[j->thread] += j->preemptions;
		o->csv_migr[j->thread] += strtoul(f[10], NULL, 10);
		o->nr_jobs++;
	}
}

static char *slurp(const char *path)
{
	char *buf = dls_test_read_file(path, NULL);

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	return buf;
}

/* Run @text with --check and every output; read them all back into @o. */
static void run_outputs(const char *text, struct outputs *o)
{
	static const char *const json = "test_dlsim_outputs.json",
			 *const trace = "test_dlsim_outputs.trace",
			 *const csv = "test_dlsim_outputs.csv";
	struct sim_options opt = { .check = true, .json_path = json, .trace_path = trace,
				   .jobs_path = csv };
	struct sim_result res;
	struct workload w;
	char *summary = NULL, *buf;
	size_t len = 0;
	FILE *f = open_memstream(&summary, &len);

	memset(o, 0, sizeof(*o));
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	if (workload_load(&w, "w.json", text, strlen(text), true)) {
		workload_print_diags(&w, stderr);
		CU_FAIL_FATAL("workload did not load");
	}
	DLS_ASSERT_EQ_S64(sim_run(&w, &opt, f, &res), 0);
	DLS_ASSERT_EQ_S64(res.exit_code, DLSIM_EXIT_OK);
	workload_free(&w);
	fclose(f);
	parse_summary(o, summary);
	free(summary);
	parse_json(o, buf = slurp(json));
	free(buf);
	parse_trace(o, buf = slurp(trace));
	free(buf);
	parse_csv(o, buf = slurp(csv));
	free(buf);
	remove(json);
	remove(trace);
	remove(csv);
}

/* Every output counts each thread's throttles alike (docs/dlsim-researchers.md). */
static void assert_throttles_agree(const struct outputs *o)
{
	DLS_ASSERT_EQ_U64(o->nr_json_jobs, o->nr_jobs);
	for (int i = 0; i < o->nr_threads; i++) {
		if (o->summary_throttles[i] != o->csv_throttles[i])
			fprintf(stderr, "%s: summary %" PRIu64 " throttles, jobs CSV %" PRIu64 "\n",
				o->name[i], o->summary_throttles[i], o->csv_throttles[i]);
		DLS_ASSERT_EQ_U64(o->json_throttles[i], o->summary_throttles[i]);
		DLS_ASSERT_EQ_U64(o->trace_throttles[i], o->summary_throttles[i]);
		DLS_ASSERT_EQ_U64(o->json_job_throttles[i], o->csv_throttles[i]);
		DLS_ASSERT_EQ_U64(o->csv_throttles[i], o->summary_throttles[i]);
	}
}

/*
 * Each job's start is its first run slice in the trace, and its
 * preemptions are its slices that end before it does (these workloads
 * never block inside a job, and slices are split at job boundaries). The
 * summary's preemptions and migrations are the jobs' sums.
 */
static void assert_jobs_match_trace(const struct outputs *o)
{
	for (int t = 0; t < o->nr_threads; t++) {
		uint64_t from = 0;

		for (size_t k = 0; k < o->nr_jobs; k++) {
			const struct job_row *j = &o->jobs[k];
			unsigned int early_ends = 0;
			bool first = true;

			if (j->thread != t)
				continue;
			for (size_t i = 0; i < o->nr_slices; i++) {
				const struct slice_ev *s = &o->slices[i];

				if (s->thread != t || s->start < from || s->end > j->end)
					continue;
				if (first) {
					CU_ASSERT_TRUE(j->ran);
					if (s->start != j->start)
						fprintf(stderr, "%s job ending at %" PRIu64 ": start %"
							PRIu64 ", first run slice at %" PRIu64 "\n",
							o->name[t], j->end, j->start, s->start);
					DLS_ASSERT_EQ_U64(j->start, s->start);
					first = false;
				}
				early_ends += s->end < j->end;
			}
			CU_ASSERT_EQUAL(first, !j->ran);
			if (early_ends != j->preemptions)
				fprintf(stderr, "%s job ending at %" PRIu64 ": %u preemptions, "
					"%u slices end before it\n", o->name[t], j->end,
					j->preemptions, early_ends);
			DLS_ASSERT_EQ_U64(j->preemptions, early_ends);
			from = j->end;
		}
		DLS_ASSERT_EQ_U64(o->csv_preempt[t], o->summary_preempt[t]);
		DLS_ASSERT_EQ_U64(o->csv_migr[t], o->summary_migr[t]);
	}
}

/* The row of @name's job @index. */
static const struct job_row *job_of(struct outputs *o, const char *name, size_t index)
{
	int t = thread_index(o, name, strlen(name));

	for (size_t k = 0; k < o->nr_jobs; k++)
		if (o->jobs[k].thread == t && !index--)
			return &o->jobs[k];
	CU_FAIL_FATAL("no such job");
	return NULL;
}

/*
 * run = budget: a (Q = C = 1, T = D = 3 ms) and b (Q = C = 4, T = D = 8 ms)
 * on one CPU for 15 ms, the EDF schedule of test_dlsim_jobs.c: a's five
 * jobs and b's two each spend their whole budget at the instant they
 * complete. Linux throttles such a task as it blocks (dequeue_task_dl()
 * -> update_curr_dl(): dl_runtime_exceeded() is runtime <= 0; the
 * replenishment timer then finds it throttled and not queued and only
 * refills it), so each job has one throttle and every output says 5 and 2.
 */
static const char run_is_budget[] =
	"{\"simulation\": {\"horizon_us\": 15000}, \"tasks\": {\n"
	"\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 3000,\n"
	"       \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 3000}},\n"
	"\"b\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4000, \"dl-period\": 8000,\n"
	"       \"run\": 4000, \"timer\": {\"ref\": \"unique\", \"period\": 8000}}}}";

/*
 * Back-to-back jobs held back by their reservation: hog (Q = 2, T = 10 ms)
 * has 6 ms of work per job on a 10 ms relative timer, so it falls behind
 * and each job is released as the last ends. Job 0 runs 0-2, 10-12, 20-22
 * (throttled at 2 and 12, preempted by its throttle each time, and at 22
 * as it completes); job 1, released at 22 with the budget spent, first
 * runs at 30 when the reservation is replenished: 30-32, 40-42, 50-52.
 */
static const char back_to_back_throttled[] =
	"{\"simulation\": {\"horizon_us\": 55000}, \"tasks\": {\n"
	"\"hog\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 10000,\n"
	"         \"run\": 6000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}}}}";

/*
 * Back-to-back jobs preempted in the instant they begin: x (Q = 3, T = D =
 * 6 ms, 1 ms of work on a 0.5 ms relative timer) runs job after job on one
 * reservation; y (Q = C = 1, T = D = 2 ms) starts at 1 ms. EDF: x0 runs
 * 0-1; at 1 x1 is released as x0 ends but y (deadline 3 < 6) takes the CPU
 * in that instant: y 1-2, x1 2-3; at 3 likewise y (deadline 5) 3-4, x2
 * 4-5, when x's budget (3 ms since 0) is spent as x2 completes: throttled
 * until 6 (its deadline, next period). y 5-6; x3 runs from 6. U = 1:
 * admission at 100%.
 */
static const char back_to_back_preempted[] =
	"{\"simulation\": {\"horizon_us\": 6500, \"admission\": 100}, \"tasks\": {\n"
	"\"x\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 6000,\n"
	"       \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 500}},\n"
	"\"y\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 2000,\n"
	"       \"delay\": 1000, \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 2000}}}}";

/*
 * Two CPUs under global EDF (no hand-derived schedule: the outputs are
 * compared with each other): a heavy reservation throttled inside its
 * jobs, lighter ones spending their budgets as they complete, migrations.
 */
static const char global_two_cpus[] =
	"{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 60000}, \"tasks\": {\n"
	"\"h\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 10000,\n"
	"       \"run\": 5000, \"timer\": {\"ref\": \"unique\", \"period\": 20000}},\n"
	"\"l1\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 2000,\n"
	"       \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 2000}},\n"
	"\"l2\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1500, \"dl-period\": 3000,\n"
	"       \"run\": 1500, \"timer\": {\"ref\": \"unique\", \"period\": 3000}},\n"
	"\"l3\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 500, \"dl-period\": 5000,\n"
	"       \"run\": 400, \"timer\": {\"ref\": \"unique\", \"period\": 5000}}}}";

/*
 * FIFO threads beside a reservation on two CPUs (compared with each other:
 * the outputs agree): the deadline thread takes a CPU, the FIFO threads
 * are pushed to the other and back, so they migrate.
 */
static const char fifo_pushed[] =
	"{\"platform\": {\"cpus\": 2}, \"simulation\": {\"horizon_us\": 60000}, \"tasks\": {\n"
	"\"r1\": {\"policy\": \"SCHED_FIFO\", \"priority\": 50,\n"
	"       \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 3000}},\n"
	"\"r2\": {\"policy\": \"SCHED_FIFO\", \"priority\": 40,\n"
	"       \"run\": 1500, \"timer\": {\"ref\": \"unique\", \"period\": 3000}},\n"
	"\"d\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2500, \"dl-period\": 4000,\n"
	"       \"run\": 2500, \"timer\": {\"ref\": \"unique\", \"period\": 4000}}}}";

static void test_throttles_one_count(void)
{
	static const char *const texts[] = { run_is_budget, back_to_back_throttled,
					     back_to_back_preempted, global_two_cpus,
					     fifo_pushed };
	struct outputs *o = calloc(1, sizeof(*o));

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		run_outputs(texts[i], o);
		assert_throttles_agree(o);
		if (i == 0) {
			DLS_ASSERT_EQ_U64(o->summary_throttles[thread_index(o, "a", 1)], 5);
			DLS_ASSERT_EQ_U64(o->summary_throttles[thread_index(o, "b", 1)], 2);
			for (size_t k = 0; k < o->nr_jobs; k++)
				DLS_ASSERT_EQ_U64(o->jobs[k].throttles, 1);
		}
	}
	free(o);
}

static void test_job_start_is_first_run(void)
{
	static const char *const texts[] = { run_is_budget, back_to_back_throttled,
					     back_to_back_preempted, global_two_cpus,
					     fifo_pushed };
	struct outputs *o = calloc(1, sizeof(*o));
	const struct job_row *j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		run_outputs(texts[i], o);
		assert_jobs_match_trace(o);
	}
	/* the hand-derived schedules above */
	run_outputs(back_to_back_throttled, o);
	DLS_ASSERT_EQ_U64(o->nr_jobs, 2);
	j = job_of(o, "hog", 0);
	DLS_ASSERT_EQ_U64(j->start, 0);
	DLS_ASSERT_EQ_U64(j->end, 22 * MS);
	DLS_ASSERT_EQ_U64(j->preemptions, 2);
	DLS_ASSERT_EQ_U64(j->throttles, 3);
	j = job_of(o, "hog", 1);
	DLS_ASSERT_EQ_U64(j->release, 22 * MS);
	DLS_ASSERT_EQ_U64(j->start, 30 * MS);
	DLS_ASSERT_EQ_U64(j->end, 52 * MS);
	DLS_ASSERT_EQ_U64(j->preemptions, 2);
	DLS_ASSERT_EQ_U64(j->throttles, 3);
	run_outputs(back_to_back_preempted, o);
	for (size_t k = 0; k < 3; k++) {
		static const uint64_t x_release[] = { 0, 1 * MS, 3 * MS };

		j = job_of(o, "x", k);
		DLS_ASSERT_EQ_U64(j->release, x_release[k]);
		DLS_ASSERT_EQ_U64(j->start, 2 * k * MS);
		DLS_ASSERT_EQ_U64(j->end, (2 * k + 1) * MS);
		DLS_ASSERT_EQ_U64(j->preemptions, 0);
		DLS_ASSERT_EQ_U64(j->throttles, k == 2);
		j = job_of(o, "y", k);
		DLS_ASSERT_EQ_U64(j->start, (2 * k + 1) * MS);
		DLS_ASSERT_EQ_U64(j->end, (2 * k + 2) * MS);
	}
	free(o);
}

/* "#rrggbb" as its three components. */
static void rgb_of(const char *hex, int rgb[3])
{
	unsigned int r = 0, g = 0, b = 0;

	CU_ASSERT_EQUAL_FATAL(sscanf(hex, "#%2x%2x%2x", &r, &g, &b), 3);
	rgb[0] = (int)r;
	rgb[1] = (int)g;
	rgb[2] = (int)b;
}

/* The hue of @rgb in degrees (0 for a grey). */
static double hue_of(const int rgb[3])
{
	int max = rgb[0], min = rgb[0], k = 0;
	double h;

	for (int i = 1; i < 3; i++) {
		if (rgb[i] > max) {
			max = rgb[i];
			k = i;
		}
		if (rgb[i] < min)
			min = rgb[i];
	}
	if (max == min)
		return 0;
	h = 60.0 * (rgb[(k + 1) % 3] - rgb[(k + 2) % 3]) / (max - min) + 120.0 * k;
	return h < 0 ? h + 360 : h;
}

static int rgb_distance2(const int a[3], const int b[3])
{
	int d = 0;

	for (int i = 0; i < 3; i++)
		d += (a[i] - b[i]) * (a[i] - b[i]);
	return d;
}

/* The attribute @name="..." of the element at @p, as a number or a string. */
static double attr_num(const char *p, const char *name)
{
	char key[32];
	const char *v;

	snprintf(key, sizeof(key), " %s=\"", name);
	v = strstr(p, key);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	return strtod(v + strlen(key), NULL);
}

static void attr_str(const char *p, const char *name, char *buf, size_t size)
{
	char key[32];
	const char *v;
	size_t n;

	snprintf(key, sizeof(key), " %s=\"", name);
	v = strstr(p, key);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	v += strlen(key);
	n = strcspn(v, "\"");
	CU_ASSERT_FATAL(n < size);
	memcpy(buf, v, n);
	buf[n] = 0;
}

/*
 * The Gantt chart of @n threads on two CPUs of capacities 1024 and 512,
 * overloaded so that jobs miss: every thread's colour is far from the miss
 * red and from every other thread's; the CPU labels fit their column with
 * a conservative width (every glyph as wide as the font size: no glyph of
 * a sans-serif font is wider than 1 em); the time axis has ticks labelled
 * with a unit, at the places their values give.
 */
static void check_svg(int n)
{
	static const char *const path = "test_dlsim_outputs.svg";
	char text[4096], colors[16][8], miss[8] = "", unit[8] = "";
	size_t len;
	struct sim_options opt = { .check = true, .quiet = true, .svg_path = path };
	double left = 1e9, axis_x1 = -1, axis_x2 = -1, prev = -1;
	int ticks = 0, rgb[16][3], miss_rgb[3];
	const uint64_t horizon_us = 60000;
	char *svg, *p;

	len = (size_t)snprintf(text, sizeof(text), "{\"platform\": {\"cpus\": 2, \"capacity\": "
			       "[1024, 512]}, \"simulation\": {\"horizon_us\": %llu, "
			       "\"admission\": \"off\"}, \"tasks\": {",
			       (unsigned long long)horizon_us);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s\"t%d\": {\"policy\": "
					"\"SCHED_DEADLINE\", \"dl-runtime\": %d, "
					"\"dl-period\": 10000, \"run\": 4000, \"timer\": "
					"{\"ref\": \"unique\", \"period\": 10000}}",
					i ? ", " : "", i, 3000 + 500 * (i % 3));
	snprintf(text + len, sizeof(text) - len, "}}");
	DLS_ASSERT_EQ_S64(dls_test_sim_text(text, &opt), DLSIM_EXIT_OK);
	svg = slurp(path);
	/* the legend: one colour per thread, in order */
	p = svg;
	for (int i = 0; i < n; i++) {
		p = strstr(p, "<rect class=\"legend\"");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		attr_str(p, "fill", colors[i], sizeof(colors[i]));
		rgb_of(colors[i], rgb[i]);
		p++;
	}
	CU_ASSERT_PTR_NULL(strstr(p, "<rect class=\"legend\""));
	/* the misses: the colour the title calls red */
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "red: miss"));
	p = strstr(svg, "<line class=\"miss\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	attr_str(p, "stroke", miss, sizeof(miss));
	rgb_of(miss, miss_rgb);
	DLS_ASSERT_EQ_U64(hue_of(miss_rgb) < 15 || hue_of(miss_rgb) > 345, 1);
	for (int i = 0; i < n; i++) {
		double dh = hue_of(rgb[i]) - hue_of(miss_rgb);

		dh = dh < 0 ? -dh : dh;
		dh = dh > 180 ? 360 - dh : dh;
		if (dh < 30 || rgb_distance2(rgb[i], miss_rgb) < 120 * 120)
			fprintf(stderr, "%d threads: t%d's colour %s is close to the miss "
				"colour %s\n", n, i, colors[i], miss);
		CU_ASSERT_TRUE(dh >= 30 && rgb_distance2(rgb[i], miss_rgb) >= 120 * 120);
		for (int k = 0; k < i; k++) {
			if (rgb_distance2(rgb[i], rgb[k]) < 40 * 40)
				fprintf(stderr, "%d threads: t%d and t%d have close colours %s "
					"and %s\n", n, k, i, colors[k], colors[i]);
			CU_ASSERT_TRUE(rgb_distance2(rgb[i], rgb[k]) >= 40 * 40);
		}
	}
	/* every run slice is drawn in its thread's colour; the column left of
	 * the slices and the axis is the labels' */
	for (p = svg; (p = strstr(p, "<rect class=\"run\"")); p++) {
		char fill[8], name[8];
		int t;

		attr_str(p, "fill", fill, sizeof(fill));
		CU_ASSERT_EQUAL_FATAL(sscanf(strstr(p, "<title>") + 7, "t%d", &t), 1);
		CU_ASSERT_FATAL(t >= 0 && t < n);
		snprintf(name, sizeof(name), "%s", colors[t]);
		CU_ASSERT_STRING_EQUAL(fill, name);
		if (attr_num(p, "x") < left)
			left = attr_num(p, "x");
	}
	p = strstr(svg, "<line x1=\"");
	for (; p; p = strstr(p + 1, "<line x1=\"")) {
		char stroke[16];

		attr_str(p, "stroke", stroke, sizeof(stroke));
		if (!strcmp(stroke, "#666")) {
			axis_x1 = attr_num(p, "x1");
			axis_x2 = attr_num(p, "x2");
			break;
		}
	}
	CU_ASSERT_FATAL(axis_x1 >= 0 && axis_x2 > axis_x1);
	if (axis_x1 < left)
		left = axis_x1;
	for (p = svg; (p = strstr(p, "<text class=\"cpu\"")); p++) {
		const char *body = strchr(p, '>') + 1;
		double font = strstr(p, "font-size") && strstr(p, "font-size") < body
			      ? attr_num(p, "font-size") : attr_num(svg, "font-size");
		double width = (double)strcspn(body, "<") * font;

		if (attr_num(p, "x") + width > left)
			fprintf(stderr, "label \"%.*s\" at x %g, %g px wide, crosses %g\n",
				(int)strcspn(body, "<"), body, attr_num(p, "x"), width, left);
		CU_ASSERT_TRUE(attr_num(p, "x") + width <= left);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">capacity 512</text>"));
	/* the axis: ticks from 0, one unit, each where its value falls */
	for (p = svg; (p = strstr(p, "<text class=\"tick\"")); p++) {
		const char *body = strchr(p, '>') + 1;
		double v, ns, x = attr_num(p, "x");
		char u[8];

		CU_ASSERT_EQUAL_FATAL(sscanf(body, "%lf %7[^<]", &v, u), 2);
		if (!ticks)
			snprintf(unit, sizeof(unit), "%s", u);
		CU_ASSERT_STRING_EQUAL(u, unit);
		ns = v * (!strcmp(u, "s") ? 1e9 : !strcmp(u, "ms") ? 1e6
			  : !strcmp(u, "\xc2\xb5s") ? 1e3 : !strcmp(u, "ns") ? 1 : -1);
		CU_ASSERT_TRUE(ns >= 0 && ns > prev && ns <= horizon_us * 1e3);
		CU_ASSERT_DOUBLE_EQUAL(x, axis_x1 + ns / (horizon_us * 1e3) * (axis_x2 - axis_x1), 0.01);
		prev = ns;
		ticks++;
	}
	CU_ASSERT_TRUE(ticks >= 4 && ticks <= 12);
	CU_ASSERT_DOUBLE_EQUAL(prev, horizon_us * 1e3, 0.5);
	free(svg);
	remove(path);
}

static void test_svg(void)
{
	for (int n = 1; n <= 12; n++)
		check_svg(n);
}

static const struct dls_test_case cases[] = {
	{ "one throttle count in every output", test_throttles_one_count },
	{ "a job starts at its first run slice", test_job_start_is_first_run },
	{ "Gantt chart: colours, labels, time axis", test_svg },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim outputs", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
