/*
 * The per-CPU step loop (engine.c: each CPU charged and looked at only
 * when something touches it) against the reference loop that visits and
 * charges every CPU at every step (sim_options::loop_scan): on random
 * workloads both must write the same bytes in every output (JSON, jobs
 * CSV, trace, SVG) and end with the same result. The workloads mix what
 * charging per CPU could get wrong: CPUs of capacity below 1024 (work and
 * budgets rounded per charge), GRUB reclaiming, the 2012 overrun rule,
 * hotplug, FIFO/RR/fair threads with slices, PI mutexes, partitioned and
 * global modes. The same for the indexed balancing of the FIFO/RR and
 * fair classes against the reference that scans every CPU for every
 * waiting thread (sim_options::balance_scan). The seed is printed;
 * DLSIM_LOOPS_SEED and DLSIM_LOOPS_N choose others.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "prng.h"
#include "sim.h"
#include "workload.h"

#define OUT_FILES 4

static const char *const suffix[OUT_FILES] = { "json", "csv", "trace", "svg" };

struct buf {
	char *p;
	size_t n, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->n)
			break;
		b->cap = b->cap * 2 + (size_t)n + 64;
		b->p = realloc(b->p, b->cap);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b->p);
	}
	b->n += (size_t)n;
}

static uint64_t pick(struct dls_prng *r, uint64_t lo, uint64_t hi)
{
	return lo + dls_prng_below(r, hi - lo + 1);
}

/* A fair server drawn from @fsr, on one workload in three. */
static void put_fair_server(struct dls_prng *fsr, struct buf *b)
{
	uint64_t period;

	if (pick(fsr, 0, 2) != 0)
		return;
	period = pick(fsr, 2, 30) * 1000;
	put(b, ", \"fair_server\": {\"runtime_us\": %llu, \"period_us\": %llu, "
	    "\"defer\": %s, \"serve\": \"%s\"}",
	    (unsigned long long)pick(fsr, 1, period / 1000) * 500, (unsigned long long)period,
	    pick(fsr, 0, 3) ? "true" : "false", pick(fsr, 0, 1) ? "rt" : "fair");
}

/* @nhp hotplug events of CPUs 1..@ncpu-1 within @horizon ns (none: nothing). */
static void put_hotplug(struct dls_prng *r, struct buf *b, unsigned int nhp, int ncpu,
			uint64_t horizon)
{
	if (!nhp)
		return;
	put(b, ", \"hotplug\": [");
	for (unsigned int h = 0; h < nhp; h++)
		put(b, "%s{\"cpu\": %d, \"at_us\": %llu, \"online\": %s}", h ? ", " : "",
		    (int)pick(r, 1, (uint64_t)ncpu - 1),
		    (unsigned long long)pick(r, 1, horizon / 1000 - 1) * 1000,
		    pick(r, 0, 1) ? "true" : "false");
	put(b, "]");
}

/* One random workload into @b (NUL-terminated); a fair server drawn from
 * @fsr (its own stream: the workloads drawn from @r stay as they were) on
 * one workload in three without hotplug. */
static void gen(struct dls_prng *r, struct dls_prng *fsr, struct buf *b, bool *rules_2012)
{
	static const unsigned int caps[] = { 1024, 1024, 446, 700, 1023 };
	int ncpu = (int)pick(r, 1, 6), ntask = (int)pick(r, 1, 9);
	int big = (int)pick(r, 0, (uint64_t)ncpu - 1);
	bool global = ncpu > 1 && pick(r, 0, 3) != 0, pi = pick(r, 0, 1);
	unsigned int nhp = ncpu > 1 ? (unsigned int)pick(r, 0, 3) : 0;
	uint64_t horizon = pick(r, 30, 150) * 1000;

	b->n = 0;
	*rules_2012 = pick(r, 0, 7) == 0;
	put(b, "{\"global\": {\"pi_enabled\": %s},\n\"platform\": {\"clusters\": {", pi ? "true" : "false");
	/* CPUs [0, big] in one cluster, the rest in another */
	put(b, "\"a\": {\"cpus\": [");
	for (int c = 0; c <= big; c++)
		put(b, "%s%d", c ? "," : "", c);
	put(b, "], \"capacity\": %u}", caps[pick(r, 0, 4)]);
	if (big + 1 < ncpu) {
		put(b, ", \"b\": {\"cpus\": [");
		for (int c = big + 1; c < ncpu; c++)
			put(b, "%s%d", c > big + 1 ? "," : "", c);
		put(b, "], \"capacity\": %u}", caps[pick(r, 0, 4)]);
	}
	put(b, "}");
	if (!nhp)
		put_fair_server(fsr, b);
	put(b, "},\n\"simulation\": {\"horizon_us\": %llu, \"seed\": %llu, \"mode\": \"%s\", "
	    "\"admission\": \"off\"", (unsigned long long)horizon,
	    (unsigned long long)pick(r, 1, 1000), global ? "global" : "partitioned");
	put_hotplug(r, b, nhp, ncpu, horizon);
	put(b, "},\n\"tasks\": {");
	for (int i = 0; i < ntask; i++) {
		int kind = (int)pick(r, 0, 5);
		uint64_t period = pick(r, 2, 40) * 1000, run = pick(r, 1, period / 1000) * 900;
		bool lock = pi && pick(r, 0, 2) == 0;

		put(b, "%s\"t%d\": {", i ? ",\n" : "", i);
		if (kind <= 2) {
			uint64_t budget = pick(r, run / 1000 / 2 + 1, period / 1000) * 1000;

			put(b, "\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, \"dl-period\": %llu, ",
			    (unsigned long long)budget, (unsigned long long)period);
			if (kind == 1)
				put(b, "\"dl-reclaim\": true, ");
		} else if (kind == 3) {
			put(b, "\"policy\": \"SCHED_FIFO\", \"priority\": %d, ", (int)pick(r, 1, 50));
		} else if (kind == 4) {
			put(b, "\"policy\": \"SCHED_RR\", \"priority\": %d, ", (int)pick(r, 1, 3));
		} else {
			put(b, "\"policy\": \"SCHED_OTHER\", ");
		}
		if (!global && ncpu > 1 && pick(r, 0, 1))
			put(b, "\"cpus\": [%d], ", (int)pick(r, 0, (uint64_t)ncpu - 1));
		put(b, "\"delay\": %llu, ", (unsigned long long)pick(r, 0, 5) * 1000);
		if (lock)
			put(b, "\"lock\": \"m\", \"run0\": %llu, \"unlock\": \"m\", ",
			    (unsigned long long)pick(r, 1, 3) * 300);
		if (pick(r, 0, 3) == 0)
			put(b, "\"sleep\": %llu, ", (unsigned long long)pick(r, 1, 5) * 700);
		put(b, "\"run\": %llu, \"timer\": {\"ref\": \"unique\", \"period\": %llu}}",
		    (unsigned long long)run, (unsigned long long)period);
	}
	put(b, "}}\n");
}

/* A random workload into @b where FIFO/RR and fair threads move between
 * CPUs: up to 12 CPUs in global mode, most threads of those classes,
 * affinities of a few CPUs, hotplug, PI mutexes; a fair server from @fsr
 * on one workload in three without hotplug, as gen() draws it. */
static void gen_lower(struct dls_prng *r, struct dls_prng *fsr, struct buf *b, bool *rules_2012)
{
	static const char *const fair[] = { "SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE" };
	int ncpu = (int)pick(r, 2, 12), ntask = (int)pick(r, 2, 24);
	unsigned int nhp = (unsigned int)pick(r, 0, 3);
	uint64_t horizon = pick(r, 30, 120) * 1000;

	b->n = 0;
	*rules_2012 = false;
	put(b, "{\"global\": {\"pi_enabled\": true},\n\"platform\": {\"cpus\": %d", ncpu);
	if (!nhp)
		put_fair_server(fsr, b);
	put(b, "},\n");
	put(b, "\"simulation\": {\"horizon_us\": %llu, \"mode\": \"global\", "
	    "\"admission\": \"off\"", (unsigned long long)horizon);
	put_hotplug(r, b, nhp, ncpu, horizon);
	put(b, "},\n\"tasks\": {");
	for (int i = 0; i < ntask; i++) {
		int kind = (int)pick(r, 0, 9);
		uint64_t period = pick(r, 2, 30) * 1000, run = pick(r, 1, period / 1000) * 600;

		put(b, "%s\"t%d\": {", i ? ",\n" : "", i);
		if (kind == 0) {
			put(b, "\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, "
			    "\"dl-period\": %llu, ", (unsigned long long)(run + 500),
			    (unsigned long long)period);
		} else if (kind <= 4) {
			put(b, "\"policy\": \"%s\", \"priority\": %d, ",
			    kind == 4 ? "SCHED_RR" : "SCHED_FIFO", (int)pick(r, 1, 8));
		} else {
			put(b, "\"policy\": \"%s\", ", fair[pick(r, 0, 2)]);
		}
		if (pick(r, 0, 2) == 0) {
			/* one to four CPUs drawn, in id order */
			unsigned int set = 0, n = (unsigned int)pick(r, 1, 4), k = 0;

			for (unsigned int j = 0; j < n; j++)
				set |= 1u << pick(r, 0, (uint64_t)ncpu - 1);
			put(b, "\"cpus\": [");
			for (int c = 0; c < ncpu; c++)
				if (set & 1u << c)
					put(b, "%s%d", k++ ? ", " : "", c);
			put(b, "], ");
		}
		if (pick(r, 0, 4) == 0)
			put(b, "\"lock\": \"m\", \"run0\": %llu, \"unlock\": \"m\", ",
			    (unsigned long long)pick(r, 1, 3) * 300);
		if (pick(r, 0, 3) == 0)
			put(b, "\"sleep\": %llu, ", (unsigned long long)pick(r, 1, 5) * 700);
		put(b, "\"run\": %llu, \"timer\": {\"ref\": \"unique\", \"period\": %llu}}",
		    (unsigned long long)run, (unsigned long long)period);
	}
	put(b, "}}\n");
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		p = malloc((size_t)n + 1);
		if (p && fread(p, 1, (size_t)n, f) == (size_t)n)
			*len = (size_t)n;
	}
	fclose(f);
	return p;
}

/* Which loop and which balancing of the lower classes a run uses. */
enum variant { REFERENCE_LOOP, PER_CPU_LOOP, REFERENCE_BALANCE };

/* Run @w with one variant; its outputs go to loops_<tag>.<suffix>. */
static void run_one(const struct workload *w, enum variant v, bool rules_2012, const char *tag,
		    struct sim_result *res, char *summary, size_t summary_len)
{
	char path[OUT_FILES][64];
	struct sim_options opt = { .quiet = false, .loop_scan = v == REFERENCE_LOOP,
				   .loop_queue = v != REFERENCE_LOOP,
				   .balance_scan = v == REFERENCE_BALANCE,
				   .rules_2012 = rules_2012 };
	FILE *out = fmemopen(summary, summary_len, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	for (int k = 0; k < OUT_FILES; k++) {
		snprintf(path[k], sizeof(path[k]), "loops_%s.%s", tag, suffix[k]);
		remove(path[k]);
	}
	opt.json_path = path[0];
	opt.jobs_path = path[1];
	opt.trace_path = path[2];
	opt.svg_path = path[3];
	CU_ASSERT_EQUAL_FATAL(sim_run(w, &opt, out, res), 0);
	fclose(out);
}

/* Do the outputs of runs @ta and @tb hold the same bytes? */
static bool same_outputs(const char *ta, const char *tb)
{
	bool same = true;

	for (int k = 0; k < OUT_FILES && same; k++) {
		char pa[64], pb[64];
		size_t la, lb;
		char *a, *c;

		snprintf(pa, sizeof(pa), "loops_%s.%s", ta, suffix[k]);
		snprintf(pb, sizeof(pb), "loops_%s.%s", tb, suffix[k]);
		a = slurp(pa, &la);
		c = slurp(pb, &lb);
		same = (!a && !c) || (a && c && la == lb && !memcmp(a, c, la));
		free(a);
		free(c);
	}
	return same;
}

typedef void gen_fn(struct dls_prng *r, struct dls_prng *fsr, struct buf *b, bool *rules_2012);

/* On random workloads of @make, variant @v writes what the per-CPU loop
 * with the indexed balancing writes. */
static void agree(gen_fn *make, enum variant v, const char *tag, const char *what)
{
	const char *env_seed = getenv("DLSIM_LOOPS_SEED"), *env_n = getenv("DLSIM_LOOPS_N");
	uint64_t seed = env_seed ? strtoull(env_seed, NULL, 0) : 25;
	int n = env_n ? atoi(env_n) : 300, compared = 0;
	struct dls_prng r, fsr;
	struct buf b = { 0 };
	static char sum_a[1 << 16], sum_b[1 << 16];

	printf("\n  seed %llu, %d workloads\n", (unsigned long long)seed, n);
	dls_prng_seed(&r, seed);
	dls_prng_seed(&fsr, seed ^ UINT64_C(0x6661697273727672)); /* "fairsrvr" */
	for (int i = 0; i < n; i++) {
		struct workload w;
		struct sim_result ra, rb;
		bool rules_2012;

		make(&r, &fsr, &b, &rules_2012);
		if (workload_load(&w, "w.json", b.p, b.n, false)) {
			workload_print_diags(&w, stderr);
			fprintf(stderr, "%s", b.p);
			workload_free(&w);
			CU_FAIL_FATAL("a generated workload did not load");
		}
		if (getenv("DLSIM_LOOPS_VERBOSE"))
			fprintf(stderr, "workload %d:\n%s", i, b.p);
		memset(sum_a, 0, sizeof(sum_a));
		memset(sum_b, 0, sizeof(sum_b));
		run_one(&w, v, rules_2012, tag, &ra, sum_a, sizeof(sum_a));
		run_one(&w, PER_CPU_LOOP, rules_2012, "cpu", &rb, sum_b, sizeof(sum_b));
		workload_free(&w);
		if (memcmp(&ra, &rb, sizeof(ra)) || strcmp(sum_a, sum_b) ||
		    !same_outputs(tag, "cpu")) {
			fprintf(stderr, "workload %d (seed %llu%s) differs from the %s:\n%s", i,
				(unsigned long long)seed, rules_2012 ? ", 2012 rules" : "", what,
				b.p);
			CU_FAIL("the per-CPU loop's outputs differ from the reference's");
			break;
		}
		compared += ra.exit_code == 0;
	}
	/* most workloads run to their end (a refusal still compares) */
	CU_ASSERT_TRUE(compared > n / 2);
	free(b.p);
}

static void test_loops_agree(void)
{
	agree(gen, REFERENCE_LOOP, "scan", "reference loop");
}

/* The balancing of the FIFO/RR and fair classes indexed by level and
 * priority (lower.c) chooses the CPUs and threads that scanning every CPU
 * for every waiting thread chooses. */
static void test_balance_agree(void)
{
	agree(gen, REFERENCE_BALANCE, "balance", "reference balancing");
	agree(gen_lower, REFERENCE_BALANCE, "balance", "reference balancing");
}

static const struct dls_test_case cases[] = {
	{ "per-CPU loop == reference loop on random workloads", test_loops_agree },
	{ "indexed balancing == reference balancing on random workloads", test_balance_agree },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim step loops", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
