/*
 * dlsim's "servers" section: the model a good file reads into, and dlsim
 * analyze's verdict per guest against a brute-force periodic resource
 * written here from its definition (Shin & Lee, "Periodic resource model
 * for compositional real-time guarantees", RTSS 2003, section 3): a
 * resource (Pi, Theta) supplies Theta units in each period [k Pi, (k+1) Pi),
 * placed anywhere in it. The least supply in a window W of length t is then
 * the minimum over where W starts of, per period, the part of Theta that
 * cannot be placed outside W: max(0, Theta - (Pi - |W n period|)). EDF
 * meets every deadline iff the demand of synchronous releases (jobs with
 * release and deadline inside [0, t]) stays within it at every deadline
 * (Theorem 1). Nothing here calls the library's sbf or budget search.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "dls_test.h"
#include "json.h"
#include "workload.h"

static const char good[] =
	"{\n"
	"\t\"platform\": { \"cpus\": 4 },\n"
	"\t\"servers\": {\n"
	"\t\t\"vm1\": { \"runtime\": 3000, \"period\": 10000, \"deadline\": 8000,\n"
	"\t\t         \"cpus\": [3, 1], \"tasks\": [\"b\", \"a\"] },\n"
	"\t\t\"vm2\": { \"runtime\": 500, \"period\": 1000, \"deadline\": 1000,\n"
	"\t\t         \"cpus\": [1], \"tasks\": [\"c\"] }\n"
	"\t},\n"
	"\t\"tasks\": {\n"
	"\t\t\"a\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 100, \"dl-period\": 1000,\n"
	"\t\t       \"run\": 100, \"timer\": { \"ref\": \"a\", \"period\": 1000 } },\n"
	"\t\t\"b\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 200, \"dl-period\": 2000,\n"
	"\t\t       \"run\": 200, \"timer\": { \"ref\": \"b\", \"period\": 2000 } },\n"
	"\t\t\"c\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 100, \"dl-period\": 4000,\n"
	"\t\t       \"run\": 100, \"timer\": { \"ref\": \"c\", \"period\": 4000 } },\n"
	"\t\t\"h\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 100, \"dl-period\": 1000,\n"
	"\t\t       \"run\": 100, \"timer\": { \"ref\": \"h\", \"period\": 1000 } }\n"
	"\t}\n"
	"}\n";

/* The servers' model: parameters, CPUs, tasks both ways, positions. */
static void test_model(void)
{
	struct workload w;
	const struct wl_server *s;

	CU_ASSERT_EQUAL_FATAL(workload_load(&w, "s.json", good, strlen(good), true), 0);
	CU_ASSERT_EQUAL_FATAL(w.nr_servers, 2);
	s = &w.servers[0];
	CU_ASSERT_STRING_EQUAL(s->name, "vm1");
	DLS_ASSERT_EQ_U64(s->runtime_us, 3000);
	DLS_ASSERT_EQ_U64(s->period_us, 10000);
	DLS_ASSERT_EQ_U64(s->deadline_us, 8000);
	DLS_ASSERT_EQ_U64(s->cpus.w[0], 0xa); /* CPUs 1 and 3 */
	DLS_ASSERT_EQ_S64(s->line, 4);
	DLS_ASSERT_EQ_S64(s->col, 3);
	CU_ASSERT_EQUAL_FATAL(s->nr_tasks, 2);
	CU_ASSERT_STRING_EQUAL(w.tasks[s->tasks[0]].name, "b"); /* file order of "tasks" */
	CU_ASSERT_STRING_EQUAL(w.tasks[s->tasks[1]].name, "a");
	/* two servers on CPU 1: 0.3 + 0.5 <= 1 is allowed */
	CU_ASSERT_TRUE(wl_cpuset_test(&w.servers[1].cpus, 1));
	for (size_t i = 0; i < w.nr_tasks; i++) {
		const char *n = w.tasks[i].name;

		DLS_ASSERT_EQ_S64(w.tasks[i].server, !strcmp(n, "h") ? -1 : !strcmp(n, "c") ? 1 : 0);
	}
	workload_free(&w);
}

/* A guest task in whole ms. */
struct gtask {
	uint64_t c, d, t;
};

/* Demand of synchronous releases in [0, t], counted job by job. */
static uint64_t brute_dbf(const struct gtask *ts, size_t n, uint64_t t)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		for (uint64_t r = 0; r + ts[i].d <= t; r += ts[i].t)
			sum += ts[i].c;
	return sum;
}

/* The least supply of (pi, theta) in a window of length t: every start in
 * one period (integers suffice: the supply is piecewise linear in the start,
 * with breaks at integers), every period the window meets. */
static uint64_t brute_sbf(uint64_t pi, uint64_t theta, uint64_t t)
{
	uint64_t best = UINT64_MAX;

	for (uint64_t s = 0; s < pi; s++) {
		uint64_t sum = 0;

		for (uint64_t k = 0; k * pi < s + t; k++) {
			uint64_t lo = k * pi > s ? k * pi : s;
			uint64_t hi = (k + 1) * pi < s + t ? (k + 1) * pi : s + t;
			uint64_t in = hi > lo ? hi - lo : 0;

			sum += theta > pi - in ? theta - (pi - in) : 0;
		}
		best = sum < best ? sum : best;
	}
	return best;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	return b ? gcd(b, a % b) : a;
}

/* The first deadline t <= @limit with demand above supply, or 0. */
static uint64_t brute_miss(const struct gtask *ts, size_t n, uint64_t pi, uint64_t theta,
			   uint64_t limit)
{
	for (uint64_t t = 1; t <= limit; t++) {
		bool deadline = false;

		for (size_t i = 0; i < n; i++)
			deadline |= t >= ts[i].d && (t - ts[i].d) % ts[i].t == 0;
		if (deadline && brute_dbf(ts, n, t) > brute_sbf(pi, theta, t))
			return t;
	}
	return 0;
}

/* One guest row of `dlsim analyze FILE --json`, stdout to a file. */
struct row {
	char verdict[32];
	uint64_t value;
	char reason[512];
};

static int run_analyze(const char *file, const char *out, struct row *r)
{
	char *argv[] = { "analyze", (char *)file, "--json", NULL };
	struct json_doc doc;
	char buf[16384];
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), saved, rc;
	FILE *f;
	size_t len;

	fflush(stdout);
	saved = dup(1);
	if (fd < 0 || saved < 0 || dup2(fd, 1) < 0)
		return -1;
	close(fd);
	rc = analyze_main(3, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	f = fopen(out, "r");
	if (rc || !f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (json_parse(&doc, out, buf, len))
		return -1;
	rc = -1;
	for (size_t i = 0; i < doc.root->len; i++) {
		const struct json_value *tests = doc.root->members[i].value;

		if (strcmp(doc.root->members[i].key, "tests"))
			continue;
		for (size_t k = 0; k < tests->len; k++) {
			const struct json_value *t = tests->items[k];

			if (strncmp(t->members[0].value->string, "guest ", 6))
				continue;
			snprintf(r->verdict, sizeof(r->verdict), "%s", t->members[1].value->string);
			r->value = (uint64_t)t->members[2].value->integer;
			snprintf(r->reason, sizeof(r->reason), "%s", t->members[3].value->string);
			rc = 0;
		}
	}
	json_free(&doc);
	return rc;
}

/* The guest set @ts in a server (pi, theta) on one CPU, as a file (us). */
static int write_file(const char *path, const struct gtask *ts, size_t n, uint64_t pi,
		      uint64_t theta)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "{ \"platform\": { \"cpus\": 1 },\n \"servers\": { \"vm\": { \"runtime\": "
		"%llu, \"deadline\": %llu, \"period\": %llu, \"cpus\": [0], \"tasks\": [",
		(unsigned long long)theta * 1000, (unsigned long long)pi * 1000,
		(unsigned long long)pi * 1000);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\"t%zu\"", i ? ", " : "", i);
	fprintf(f, "] } },\n \"tasks\": {\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s  \"t%zu\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, "
			"\"dl-deadline\": %llu, \"dl-period\": %llu, \"run\": %llu, \"timer\": "
			"{ \"ref\": \"t%zu\", \"period\": %llu } }", i ? ",\n" : "", i,
			(unsigned long long)ts[i].c * 1000, (unsigned long long)ts[i].d * 1000,
			(unsigned long long)ts[i].t * 1000, (unsigned long long)ts[i].c * 1000, i,
			(unsigned long long)ts[i].t * 1000);
	fprintf(f, "\n} }\n");
	return fclose(f) ? -1 : 0;
}

/* "at t = 12000.000 us" in a reason, in whole ms; 0 when absent. */
static uint64_t witness_ms(const char *reason)
{
	const char *at = strstr(reason, "at t = ");
	double us;

	if (!at || sscanf(at, "at t = %lf us", &us) != 1)
		return 0;
	return (uint64_t)(us / 1000);
}

/*
 * Random guests (1-3 tasks, C <= D <= T <= 12 ms, in whole ms) in random
 * one-vCPU servers (Pi <= 10 ms): "schedulable" must mean no deadline up to
 * twice the hyperperiod of the tasks and Pi has demand above the
 * brute-force supply; "not schedulable" must name a deadline where the
 * demand is above it (or above t, on a whole CPU).
 */
static void test_prm_random(void)
{
	struct dls_test_rng rng;
	char file[] = "/tmp/dlsim-servers-XXXXXX", out[64];
	int fd = mkstemp(file);
	unsigned int yes = 0, no = 0, sets = (unsigned int)dls_test_scaled(600);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(out, sizeof(out), "%s.out", file);
	dls_test_rng_seed(&rng, dls_test_seed("servers: PRM verdicts against brute force", 31));
	for (unsigned int it = 0; it < sets; it++) {
		struct gtask ts[3];
		size_t n = 1 + (size_t)dls_test_rng_below(&rng, 3);
		uint64_t pi = 2 + dls_test_rng_below(&rng, 9), hyper = pi, miss;
		uint64_t theta = 1 + dls_test_rng_below(&rng, pi);
		struct row r;

		for (size_t i = 0; i < n; i++) {
			ts[i].t = 2 + dls_test_rng_below(&rng, 11);
			ts[i].d = 1 + dls_test_rng_below(&rng, ts[i].t);
			ts[i].c = 1 + dls_test_rng_below(&rng, ts[i].d < 3 ? ts[i].d : 3);
			hyper = hyper / gcd(hyper, ts[i].t) * ts[i].t;
		}
		CU_ASSERT_EQUAL_FATAL(write_file(file, ts, n, pi, theta), 0);
		CU_ASSERT_EQUAL_FATAL(run_analyze(file, out, &r), 0);
		if (!strcmp(r.verdict, "schedulable")) {
			miss = brute_miss(ts, n, pi, theta, 2 * hyper);
			if (miss)
				fprintf(stderr, "set %u: schedulable, but dbf > sbf at t = %llu ms "
					"(%s)\n", it, (unsigned long long)miss, r.reason);
			CU_ASSERT_EQUAL(miss, 0);
			CU_ASSERT(r.value <= theta * 1000 * 1000); /* theta_min, ns */
			yes++;
		} else if (!strcmp(r.verdict, "not schedulable")) {
			uint64_t t = witness_ms(r.reason);
			bool whole_cpu = strstr(r.reason, "even on a whole CPU") != NULL;

			if (whole_cpu) {
				CU_ASSERT(brute_miss(ts, n, 1, 1, 2 * hyper) > 0);
			} else {
				CU_ASSERT(t > 0);
				CU_ASSERT(brute_dbf(ts, n, t) > brute_sbf(pi, theta, t));
				CU_ASSERT(r.value > theta * 1000 * 1000);
			}
			no++;
		} else {
			/* "not shown" only when the witness search gave up */
			CU_ASSERT_STRING_EQUAL(r.verdict, "not shown");
		}
	}
	fprintf(stderr, "servers: %u schedulable, %u not schedulable of %u sets\n", yes, no,
		sets);
	/* both verdicts are exercised (the draws above give each often) */
	CU_ASSERT(yes > sets / 10);
	CU_ASSERT(no > sets / 10);
	unlink(file);
	unlink(out);
}

/* The brute force itself on the case servers_cli.cmake derives by hand:
 * C = 1, T = 10 in Pi = 5 needs Theta = 1 (sbf(10) = 1 at Theta = 1). */
static void test_brute_force_by_hand(void)
{
	const struct gtask t = { 1, 10, 10 };

	DLS_ASSERT_EQ_U64(brute_sbf(5, 1, 10), 1);
	DLS_ASSERT_EQ_U64(brute_sbf(5, 1, 8), 0);  /* 2 (Pi - Theta) = 8 of starving */
	DLS_ASSERT_EQ_U64(brute_sbf(5, 5, 7), 7);  /* a whole CPU */
	DLS_ASSERT_EQ_U64(brute_miss(&t, 1, 5, 1, 100), 0);
	DLS_ASSERT_EQ_U64(brute_dbf(&t, 1, 30), 3);
}

static const struct dls_test_case cases[] = {
	{ "servers model", test_model },
	{ "brute-force periodic resource by hand", test_brute_force_by_hand },
	{ "PRM verdicts against brute force", test_prm_random },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim servers", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
