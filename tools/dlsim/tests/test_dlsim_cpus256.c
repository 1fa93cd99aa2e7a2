/*
 * dlsim past 64 CPUs: the CPU sets of cpuset.h against a plain array of
 * bools written from the definition (CPU c is in the set or not), 256-CPU
 * runs whose affinities sit at the 64-bit word boundaries (CPUs 63, 64,
 * 127, 128, 255) checked job by job in the jobs CSV and the JSON, and the
 * reader's refusals at the new limit (257 CPUs, CPU 256).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "dls_test.h"
#include "dls_test_dlsim.h"
#include "sim.h"
#include "workload.h"

/* ---- the sets against a bool array ---------------------------------- */

struct ref {
	bool in[WL_MAX_CPUS];
};

static void ref_check(const struct wl_cpuset *s, const struct ref *r)
{
	int count = 0, first = -1;

	for (int c = 0; c < WL_MAX_CPUS; c++) {
		CU_ASSERT_EQUAL_FATAL(wl_cpuset_test(s, c), r->in[c]);
		count += r->in[c];
		if (first < 0 && r->in[c])
			first = c;
	}
	DLS_ASSERT_EQ_S64(wl_cpuset_count(s), count);
	CU_ASSERT_EQUAL_FATAL(wl_cpuset_empty(s), count == 0);
	DLS_ASSERT_EQ_S64(wl_cpuset_first(s), first);
	/* next(c): the lowest member above c, from every starting point */
	for (int c = -1; c < WL_MAX_CPUS; c++) {
		int want = -1;

		for (int k = c + 1; k < WL_MAX_CPUS && want < 0; k++)
			if (r->in[k])
				want = k;
		DLS_ASSERT_EQ_S64(wl_cpuset_next(s, c), want);
	}
	for (int c = 0; c < WL_MAX_CPUS; c++)
		CU_ASSERT_EQUAL_FATAL(wl_cpuset_allows(s, c), count == 0 || r->in[c]);
	/* the iterator visits exactly the members, in order */
	{
		int c, prev = -1, n = 0;

		wl_cpuset_for_each(c, s) {
			CU_ASSERT_FATAL(c > prev && r->in[c]);
			prev = c;
			n++;
		}
		DLS_ASSERT_EQ_S64(n, count);
	}
}

/* A CPU id, one time in two next to a word boundary. */
static int pick_cpu(struct dls_test_rng *rng)
{
	static const int edge[] = { 0, 1, 62, 63, 64, 65, 126, 127, 128, 129,
				    190, 191, 192, 193, 254, 255 };

	if (dls_test_rng_below(rng, 2))
		return edge[dls_test_rng_below(rng, sizeof(edge) / sizeof(edge[0]))];
	return (int)dls_test_rng_below(rng, WL_MAX_CPUS);
}

static void random_set(struct dls_test_rng *rng, struct wl_cpuset *s, struct ref *r)
{
	int n = (int)dls_test_rng_below(rng, 8) == 0 ? 0 : (int)dls_test_rng_below(rng, 40);

	memset(r, 0, sizeof(*r));
	*s = (struct wl_cpuset){ { 0 } };
	if (dls_test_rng_below(rng, 16) == 0) { /* nearly full */
		for (int c = 0; c < WL_MAX_CPUS; c++) {
			wl_cpuset_set(s, c);
			r->in[c] = true;
		}
	}
	for (int i = 0; i < n; i++) {
		int c = pick_cpu(rng);

		if (dls_test_rng_below(rng, 4)) {
			wl_cpuset_set(s, c);
			r->in[c] = true;
		} else {
			wl_cpuset_clear(s, c);
			r->in[c] = false;
		}
	}
}

static void test_cpuset_random(void)
{
	struct dls_test_rng rng;
	uint64_t rounds = dls_test_scaled(3000);

	dls_test_rng_seed(&rng, dls_test_seed("cpuset", 25));
	for (uint64_t i = 0; i < rounds; i++) {
		struct wl_cpuset a, b, x;
		struct ref ra, rb, rx;
		bool eq = true, sub = true;

		random_set(&rng, &a, &ra);
		random_set(&rng, &b, &rb);
		/* one time in four b is a with one CPU changed, or a itself */
		if (dls_test_rng_below(&rng, 4) == 0) {
			int c = pick_cpu(&rng);

			b = a;
			rb = ra;
			if (dls_test_rng_below(&rng, 2)) {
				rb.in[c] = !rb.in[c];
				if (rb.in[c])
					wl_cpuset_set(&b, c);
				else
					wl_cpuset_clear(&b, c);
			}
		}
		ref_check(&a, &ra);
		ref_check(&b, &rb);
		for (int c = 0; c < WL_MAX_CPUS; c++) {
			eq &= ra.in[c] == rb.in[c];
			sub &= !ra.in[c] || rb.in[c];
		}
		CU_ASSERT_EQUAL_FATAL(wl_cpuset_equal(&a, &b), eq);
		CU_ASSERT_EQUAL_FATAL(wl_cpuset_subset(&a, &b), sub);
		x = wl_cpuset_and(&a, &b);
		for (int c = 0; c < WL_MAX_CPUS; c++)
			rx.in[c] = ra.in[c] && rb.in[c];
		ref_check(&x, &rx);
		x = wl_cpuset_or(&a, &b);
		for (int c = 0; c < WL_MAX_CPUS; c++)
			rx.in[c] = ra.in[c] || rb.in[c];
		ref_check(&x, &rx);
	}
}

/* CPUs 0 .. n-1 for every n, the word boundaries included. */
static void test_cpuset_first_n(void)
{
	for (int n = 0; n <= WL_MAX_CPUS; n++) {
		struct wl_cpuset s = wl_cpuset_first_n(n);
		struct ref r;

		for (int c = 0; c < WL_MAX_CPUS; c++)
			r.in[c] = c < n;
		ref_check(&s, &r);
	}
}

/* ---- 256-CPU runs ----------------------------------------------------- */

#define MAX_JOBS 512

struct job_row {
	char thread[32];
	char cpus[WL_MAX_CPUS * 5 + 1];
};

/* One CSV row's thread and cpus columns (the 1st and the 10th; a field
 * may be empty, the names have no comma). */
static void parse_row(char *line, struct job_row *j)
{
	char *field[13];
	int n = 0;

	for (char *p = line; p && n < 13; n++) {
		field[n] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = 0;
	}
	DLS_ASSERT_EQ_S64(n, 13);
	/* "name": the quotes off */
	snprintf(j->thread, sizeof(j->thread), "%.*s", (int)strlen(field[0]) - 2, field[0] + 1);
	snprintf(j->cpus, sizeof(j->cpus), "%s", field[9]);
}

/* The rows of the jobs CSV at @path; returns how many. */
static size_t read_jobs(const char *path, struct job_row *rows)
{
	char *text = dls_test_read_file(path, NULL), *save = NULL, *line;
	size_t n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	line = strtok_r(text, "\n", &save); /* the header */
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",cpus,"));
	while ((line = strtok_r(NULL, "\n", &save)) && n < MAX_JOBS)
		parse_row(line, &rows[n++]);
	free(text);
	return n;
}

/* The CPUs of a CSV list "63;64;255" into @r. */
static void list_cpus(const char *list, struct ref *r)
{
	char *end;

	memset(r, 0, sizeof(*r));
	while (*list) {
		long c = strtol(list, &end, 10);

		CU_ASSERT_FATAL(end != list && c >= 0 && c < WL_MAX_CPUS);
		r->in[c] = true;
		list = *end == ';' ? end + 1 : end;
	}
}

struct slice_log {
	unsigned int on_200, elsewhere;
};

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	struct slice_log *l = arg;

	if (strcmp(thread, "p200") || end == start)
		return;
	if (cpu == 200)
		l->on_200++;
	else
		l->elsewhere++;
}

/*
 * Threads pinned to one CPU each, at the word boundaries 63/64 and
 * 127/128 and at the last CPU, in the three classes: deadline (the
 * library's per-entity affinity), FIFO and fair, alongside 32 deadline
 * threads free to go anywhere. An affinity of one CPU means every job
 * runs on that CPU and nowhere else (sched_setaffinity(2)): each job's
 * CPU list is exactly that CPU; p200's run slices are all on CPU 200.
 */
static void test_pinned_at_word_boundaries(void)
{
	static const char text[] =
		"{\"platform\": {\"cpus\": 256}, \"simulation\": {\"horizon_us\": 50000,\n"
		" \"affinity\": \"library\"}, \"tasks\": {\n"
		"\"p63\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"cpus\": [63],\n"
		"  \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"p64\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 10000,\n"
		"  \"cpus\": [64], \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"p127\": {\"policy\": \"SCHED_OTHER\", \"cpus\": [127],\n"
		"  \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"p128\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 10000,\n"
		"  \"cpus\": [128], \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"p200\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 10000,\n"
		"  \"cpus\": [200], \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"p255\": {\"policy\": \"SCHED_RR\", \"priority\": 5, \"cpus\": [255],\n"
		"  \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"f255\": {\"policy\": \"SCHED_OTHER\", \"cpus\": [255],\n"
		"  \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 5000}},\n"
		"\"free\": {\"policy\": \"SCHED_DEADLINE\", \"instance\": 32, \"dl-runtime\": 5000,\n"
		"  \"dl-period\": 10000, \"run\": 4000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}}\n"
		"}}";
	static const struct {
		const char *thread, *cpus;
		unsigned int jobs; /* horizon / period */
	} want[] = {
		{ "p63", "63", 5 }, { "p64", "64", 5 }, { "p127", "127", 5 }, { "p128", "128", 5 },
		{ "p200", "200", 5 }, { "p255", "255", 5 }, { "f255", "255", 10 },
	};
	const char *csv = "test_dlsim_cpus256.csv", *json = "test_dlsim_cpus256.json";
	struct slice_log log = { 0, 0 };
	struct sim_options opt = { .check = true, .quiet = true, .jobs_path = csv,
				   .json_path = json, .on_slice = on_slice, .cb_arg = &log };
	static struct job_row rows[MAX_JOBS];
	unsigned int free_jobs = 0;
	size_t n;
	char *js;

	DLS_ASSERT_EQ_S64(dls_test_sim_text(text, &opt), DLSIM_EXIT_OK);
	n = read_jobs(csv, rows);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		unsigned int jobs = 0;

		for (size_t i = 0; i < n; i++) {
			if (strcmp(rows[i].thread, want[k].thread))
				continue;
			jobs++;
			if (strcmp(rows[i].cpus, want[k].cpus))
				fprintf(stderr, "%s job %u ran on %s\n", want[k].thread, jobs,
					rows[i].cpus);
			CU_ASSERT_STRING_EQUAL(rows[i].cpus, want[k].cpus);
		}
		DLS_ASSERT_EQ_U64(jobs, want[k].jobs);
	}
	for (size_t i = 0; i < n; i++)
		free_jobs += !strncmp(rows[i].thread, "free-", 5);
	DLS_ASSERT_EQ_U64(free_jobs, 32 * 5);
	CU_ASSERT(log.on_200 > 0);
	DLS_ASSERT_EQ_U64(log.elsewhere, 0);
	/* the JSON's jobs say the same */
	js = dls_test_read_file(json, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(js);
	{
		unsigned int on_255 = 0;

		for (const char *p = js; (p = strstr(p, "\"thread\": \"p255\"")); p++) {
			const char *c = strstr(p, "\"cpus\": [");

			CU_ASSERT_FATAL(c != NULL);
			CU_ASSERT(!strncmp(c, "\"cpus\": [255]", 13));
			on_255++;
		}
		DLS_ASSERT_EQ_U64(on_255, 5);
	}
	free(js);
	remove(csv);
	remove(json);
}

/*
 * Five threads allowed on {63, 64, 127, 128, 255}, each with 9 ms of work
 * in each 10 ms: 4.5 CPUs of demand on five CPUs. At each release all five
 * are ready and a work-conserving scheduler runs them at once, so they
 * use every CPU of the set; an affinity keeps every job inside it.
 * The same with global EDF (the library's affinity) and with SCHED_FIFO
 * (dlsim's RT push and pull).
 */
static void test_set_across_words(void)
{
	static const char *const policy[] = {
		"\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 9500, \"dl-period\": 10000",
		"\"policy\": \"SCHED_FIFO\", \"priority\": 10",
	};
	static const int set[] = { 63, 64, 127, 128, 255 };

	for (size_t p = 0; p < 2; p++) {
		char text[1024];
		const char *csv = "test_dlsim_cpus256_set.csv";
		struct sim_options opt = { .check = true, .quiet = true, .jobs_path = csv };
		static struct job_row rows[MAX_JOBS];
		struct ref in_set, used, job;
		size_t n;

		snprintf(text, sizeof(text),
			 "{\"platform\": {\"cpus\": 256}, \"simulation\": {\"horizon_us\": 40000,\n"
			 " \"affinity\": \"library\"}, \"tasks\": {\n"
			 "\"s\": {%s, \"instance\": 5, \"cpus\": [255, 128, 127, 64, 63],\n"
			 "  \"run\": 9000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}}}}",
			 policy[p]);
		DLS_ASSERT_EQ_S64(dls_test_sim_text(text, &opt), DLSIM_EXIT_OK);
		n = read_jobs(csv, rows);
		DLS_ASSERT_EQ_U64(n, 5 * 4);
		memset(&in_set, 0, sizeof(in_set));
		memset(&used, 0, sizeof(used));
		for (size_t i = 0; i < 5; i++)
			in_set.in[set[i]] = true;
		for (size_t i = 0; i < n; i++) {
			list_cpus(rows[i].cpus, &job);
			for (int c = 0; c < WL_MAX_CPUS; c++) {
				if (job.in[c] && !in_set.in[c])
					fprintf(stderr, "%s ran on CPU %d\n", rows[i].thread, c);
				CU_ASSERT(!job.in[c] || in_set.in[c]);
				used.in[c] |= job.in[c];
			}
		}
		for (size_t i = 0; i < 5; i++)
			CU_ASSERT(used.in[set[i]]);
		remove(csv);
	}
}

/* ---- refusals at the limit ------------------------------------------- */

/* @text must fail to load with @want as its first diagnostic. */
static void refused(const char *text, const char *want)
{
	struct workload w;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, strlen(text), false), -1);
	CU_ASSERT_FATAL(w.nr_diags >= 1);
	if (strcmp(w.diags[0], want))
		fprintf(stderr, "got:  %s\nwant: %s\n", w.diags[0], want);
	CU_ASSERT_STRING_EQUAL(w.diags[0], want);
	workload_free(&w);
}

static void test_refusals(void)
{
	static char cap[8192];
	size_t len;
	struct workload w;
	const char *ok = "{\"platform\": {\"cpus\": 256}, \"tasks\": {\"a\": {\"cpus\": [255], "
			 "\"run\": 10}}}";

	/* the largest platform and its last CPU load */
	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", ok, strlen(ok), true), 0);
	DLS_ASSERT_EQ_S64(w.nr_cpus, 256);
	CU_ASSERT(wl_cpuset_test(&w.tasks[0].cpus, 255));
	DLS_ASSERT_EQ_S64(wl_cpuset_count(&w.tasks[0].cpus), 1);
	workload_free(&w);

	refused("{\"platform\": {\"cpus\": 257}, \"tasks\": {\"a\": {\"run\": 10}}}",
		"w.json:1:23: error: \"cpus\" = 257 is too large (maximum 256)");
	refused("{\"platform\": {\"cpus\": 256}, \"tasks\": {\"a\": {\"cpus\": [0, 256], "
		"\"run\": 10}}}",
		"w.json:1:57: error: a CPU in \"cpus\" must be an integer in [0, 256)");
	/* in a phase */
	refused("{\"platform\": {\"cpus\": 256}, \"tasks\": {\"a\": {\"phases\": {\"p\": "
		"{\"cpus\": [256], \"run\": 10}}}}}",
		"w.json:1:71: error: a CPU in \"cpus\" must be an integer in [0, 256)");
	/* a CPU the platform has not, past the first word: said at the task */
	refused("{\"platform\": {\"cpus\": 128}, \"tasks\": {\"a\": {\"cpus\": [200], "
		"\"run\": 10}}}",
		"w.json:1:39: error: task \"a\" uses a CPU the platform does not have (it has 128)");
	refused("{\"platform\": {\"clusters\": {\"c\": {\"cpus\": [256]}}}, \"tasks\": "
		"{\"a\": {\"run\": 10}}}",
		"w.json:1:43: error: a CPU in \"cpus\" must be an integer in [0, 256)");
	refused("{\"platform\": {\"cpus\": 256}, \"simulation\": {\"hotplug\": [{\"cpu\": 256, "
		"\"at_us\": 5}]}, \"tasks\": {\"a\": {\"run\": 10}}}",
		"w.json:1:64: error: \"cpu\" = 256 is too large (maximum 255)");
	/* a capacity list of 257 CPUs */
	len = (size_t)snprintf(cap, sizeof(cap), "{\"platform\": {\"capacity\": [");
	for (int c = 0; c < 257; c++)
		len += (size_t)snprintf(cap + len, sizeof(cap) - len, "%s1024", c ? ", " : "");
	snprintf(cap + len, sizeof(cap) - len, "]}, \"tasks\": {\"a\": {\"run\": 10}}}");
	refused(cap, "w.json:1:27: error: \"capacity\" lists 257 CPUs (maximum 256)");
}

/* The dump's CPU sets: one hexadecimal number, CPU 0 its lowest bit. */
static void test_dump_wide_set(void)
{
	const char *text = "{\"platform\": {\"cpus\": 256}, \"tasks\": {\"a\": "
			   "{\"cpus\": [0, 64, 255], \"run\": 10}}}";
	struct workload w;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, strlen(text), true), 0);
	workload_dump(&w, f);
	fclose(f);
	/* bits 255, 64 and 0: words 3..0 are 2^63, 0, 1, 1 */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " cpus 0x8000000000000000" "0000000000000000"
					   "0000000000000001" "0000000000000001\n"));
	free(buf);
	workload_free(&w);
}

static const struct dls_test_case cases[] = {
	{ "CPU sets against a bool array, randomized", test_cpuset_random },
	{ "CPUs 0..n-1 for every n", test_cpuset_first_n },
	{ "threads pinned at word boundaries of 256 CPUs", test_pinned_at_word_boundaries },
	{ "one affinity across four words", test_set_across_words },
	{ "257 CPUs and CPU 256 refused by name and place", test_refusals },
	{ "a 256-bit set in the dump", test_dump_wide_set },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim on 256 CPUs", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
