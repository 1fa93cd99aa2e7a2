/*
 * cpudl: exact small cases, the validator, randomized operations against a
 * brute-force model and against the linear reference (latest_cpu_find),
 * deadlines across the u64 wrap, lock callbacks, and a threaded run with a
 * real mutex.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "dls_test.h"
#include "edf/cpudl_impl.h"

struct heap {
	struct dls_cpudl cp;
	void *storage;
};

static void heap_new(struct heap *h, int nr,
		     const struct dls_lock_ops *ops, void *ctx)
{
	size_t sz = dls__cpudl_size(nr);

	CU_ASSERT_FATAL(sz > 0);
	h->storage = malloc(sz);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h->storage);
	memset(h->storage, 0x5a, sz);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&h->cp, h->storage, sz, nr, ops, ctx), 0);
	DLS_ASSERT_VALID(dls__cpudl_check(&h->cp));
}

static struct dls_cpumask *mask_new(int nr)
{
	size_t sz = dls_cpumask_size(nr);
	struct dls_cpumask *m = malloc(sz);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	DLS_ASSERT_EQ_S64(dls_cpumask_init(m, sz, nr), 0);
	return m;
}

static struct dls_cpumask *mask_of(int nr, const char *cpus)
{
	struct dls_cpumask *m = mask_new(nr);

	for (const char *p = cpus; *p; p++)
		dls_cpumask_set(m, *p - '0');
	return m;
}

/* "0123"-style listing of a mask with single-digit CPUs. */
static const char *mask_str(const struct dls_cpumask *m, char *buf)
{
	int cpu, n = 0;

	dls_cpumask_for_each(cpu, m)
		buf[n++] = (char)('0' + cpu);
	buf[n] = 0;
	return buf;
}

static void test_init_errors(void)
{
	struct dls_cpudl cp;
	uint64_t st[64];
	static const struct dls_lock_ops half = { .lock = NULL };

	DLS_ASSERT_EQ_U64(dls__cpudl_size(0), 0);
	CU_ASSERT(dls__cpudl_size(4) <= sizeof(st));
	DLS_ASSERT_EQ_S64(dls__cpudl_init(NULL, st, sizeof(st), 4, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&cp, NULL, sizeof(st), 4, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&cp, st, dls__cpudl_size(4) - 1, 4, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&cp, (char *)st + 4, sizeof(st) - 8, 4, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&cp, st, sizeof(st), 0, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&cp, st, sizeof(st), 4, &half, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls__cpudl_init(&cp, st, dls__cpudl_size(4), 4, NULL, NULL), 0);
	DLS_ASSERT_VALID(dls__cpudl_check(&cp));
}

static void test_exact_small(void)
{
	struct heap h;
	struct dls_cpumask *all = mask_of(4, "0123"), *later = mask_new(4);
	struct dls_cpumask *a012 = mask_of(4, "012"), *a02 = mask_of(4, "02");
	uint64_t dl = 0;
	char buf[8];

	heap_new(&h, 4, NULL, NULL);
	struct dls_cpudl *cp = &h.cp;

	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, &dl), -1);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, all, 100, NULL, later), 0);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "0123");

	dls__cpudl_set(cp, 0, 100);
	dls__cpudl_set(cp, 1, 300);
	dls__cpudl_set(cp, 2, 200);
	DLS_ASSERT_VALID(dls__cpudl_check(cp));
	CU_ASSERT_STRING_EQUAL(mask_str(cp->free_cpus, buf), "3");
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, &dl), 1);
	DLS_ASSERT_EQ_U64(dl, 300);

	/* Free CPU first; then the root if allowed and strictly later. */
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, all, 50, NULL, later), 3);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "3");
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, a012, 50, NULL, later), 1);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "1");
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, a012, 300, NULL, later), -1);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "");
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, a012, 299, NULL, NULL), 1);
	/* Root not allowed: the heap says none (CPU 2 at 200 would do). */
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, a02, 50, NULL, later), -1);

	/* Update moves down; equal deadlines go to the lower id. */
	dls__cpudl_set(cp, 1, 150);
	DLS_ASSERT_VALID(dls__cpudl_check(cp));
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, &dl), 2);
	DLS_ASSERT_EQ_U64(dl, 200);
	dls__cpudl_set(cp, 3, 200);
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, NULL), 2);
	CU_ASSERT_TRUE(dls_cpumask_empty(cp->free_cpus));
	CU_ASSERT_TRUE(dls__cpudl_deadline(cp, 1, &dl));
	DLS_ASSERT_EQ_U64(dl, 150);

	/* Clear: off the heap and free; a second clear changes nothing. */
	dls__cpudl_clear(cp, 2);
	DLS_ASSERT_VALID(dls__cpudl_check(cp));
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, &dl), 3);
	CU_ASSERT_STRING_EQUAL(mask_str(cp->free_cpus, buf), "2");
	CU_ASSERT_FALSE(dls__cpudl_deadline(cp, 2, &dl));
	dls__cpudl_clear(cp, 2);
	DLS_ASSERT_EQ_S64(cp->size, 3);
	CU_ASSERT_STRING_EQUAL(mask_str(cp->free_cpus, buf), "2");

	/* Offline: neither free nor on the heap; clear keeps it so. */
	dls__cpudl_offline(cp, 2);
	dls__cpudl_clear(cp, 2);
	CU_ASSERT_STRING_EQUAL(mask_str(cp->free_cpus, buf), "");
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, all, 50, NULL, later), 3);
	dls__cpudl_offline(cp, 3);
	DLS_ASSERT_VALID(dls__cpudl_check(cp));
	DLS_ASSERT_EQ_S64(cp->size, 2);
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, &dl), 1);
	DLS_ASSERT_EQ_U64(dl, 150);
	/* Online: free again, unless it is on the heap. */
	dls__cpudl_online(cp, 3);
	dls__cpudl_online(cp, 0);
	DLS_ASSERT_VALID(dls__cpudl_check(cp));
	CU_ASSERT_STRING_EQUAL(mask_str(cp->free_cpus, buf), "3");
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, a012, 120, NULL, later), 1);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(cp, a012, 150, NULL, later), -1);

	/* Emptying the heap. */
	dls__cpudl_clear(cp, 0);
	dls__cpudl_clear(cp, 1);
	DLS_ASSERT_VALID(dls__cpudl_check(cp));
	DLS_ASSERT_EQ_S64(cp->size, 0);
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(cp, NULL), -1);
	CU_ASSERT_STRING_EQUAL(mask_str(cp->free_cpus, buf), "013");

	free(h.storage);
	free(all);
	free(later);
	free(a012);
	free(a02);
}

static void test_wrap(void)
{
	struct heap h;
	struct dls_cpumask *all = mask_of(3, "012");
	uint64_t dl;

	heap_new(&h, 3, NULL, NULL);
	dls__cpudl_set(&h.cp, 0, UINT64_MAX - 10);
	dls__cpudl_set(&h.cp, 1, 5);             /* past the wrap: later */
	dls__cpudl_set(&h.cp, 2, UINT64_MAX);
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(&h.cp, &dl), 1);
	DLS_ASSERT_EQ_U64(dl, 5);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, UINT64_MAX, NULL, NULL), 1);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, 5, NULL, NULL), -1);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, 4, NULL, NULL), 1);
	dls__cpudl_set(&h.cp, 1, UINT64_MAX - 20);
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(&h.cp, &dl), 2);
	dls__cpudl_set(&h.cp, 0, 0);
	DLS_ASSERT_EQ_S64(dls__cpudl_maximum(&h.cp, &dl), 0);
	DLS_ASSERT_EQ_U64(dl, 0);
	free(h.storage);
	free(all);
}

/* Capacity filter: CPUs 0,1 little (512), 2,3 big (1024). */
struct fitctx {
	uint32_t cap[8];
	uint32_t need;
};

static bool fit_fits(void *ctx, int cpu)
{
	struct fitctx *f = ctx;

	return f->cap[cpu] >= f->need;
}

static uint32_t fit_cap(void *ctx, int cpu)
{
	return ((struct fitctx *)ctx)->cap[cpu];
}

static void test_fit_exact(void)
{
	struct heap h;
	struct fitctx fc = { .cap = { 512, 512, 1024, 1024 }, .need = 600 };
	struct dls_cpudl_fit fit = { .fits = fit_fits, .capacity = fit_cap,
				     .ctx = &fc, .prefer = -1 };
	struct dls_cpumask *all = mask_of(4, "0123"), *later = mask_new(4);
	struct dls_cpumask *a01 = mask_of(4, "01");
	char buf[8];

	heap_new(&h, 4, NULL, NULL);
	/* Both bigs free: the first big; later mask = the fitting ones. */
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, 100, &fit, later), 2);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "23");
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, 100, &fit, NULL), 2);
	/* Only littles allowed: none fits, the largest (tie: lowest, or prefer). */
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, a01, 100, &fit, later), 0);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "0");
	fit.prefer = 1;
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, a01, 100, &fit, later), 1);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "1");
	/* Bigs busy: a free little beats preempting a big. */
	dls__cpudl_set(&h.cp, 2, 500);
	dls__cpudl_set(&h.cp, 3, 400);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, 100, &fit, later), 1);
	/* No free CPU: the root, fit not consulted. */
	dls__cpudl_set(&h.cp, 0, 300);
	dls__cpudl_set(&h.cp, 1, 600);
	DLS_ASSERT_EQ_S64(dls__cpudl_find(&h.cp, all, 100, &fit, later), 1);
	CU_ASSERT_STRING_EQUAL(mask_str(later, buf), "1");
	free(h.storage);
	free(all);
	free(later);
	free(a01);
}

static void test_check_detects(void)
{
	struct heap h;
	struct dls_cpudl_item t;

	heap_new(&h, 4, NULL, NULL);
	dls__cpudl_set(&h.cp, 0, 100);
	dls__cpudl_set(&h.cp, 1, 300);
	dls__cpudl_set(&h.cp, 2, 200);
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));

	/* Swap root and child: links intact, order broken. */
	t = h.cp.heap[0];
	h.cp.heap[0] = h.cp.heap[1];
	h.cp.heap[1] = t;
	h.cp.pos[h.cp.heap[0].cpu] = 0;
	h.cp.pos[h.cp.heap[1].cpu] = 1;
	CU_ASSERT_STRING_EQUAL(dls__cpudl_check(&h.cp),
			       "cpudl: heap order (child above parent)");
	h.cp.heap[1] = h.cp.heap[0];
	h.cp.heap[0] = t;
	h.cp.pos[h.cp.heap[0].cpu] = 0;
	h.cp.pos[h.cp.heap[1].cpu] = 1;
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));

	h.cp.pos[h.cp.heap[2].cpu] = 1;
	CU_ASSERT_STRING_EQUAL(dls__cpudl_check(&h.cp),
			       "cpudl: heap item not linked back from its CPU");
	h.cp.pos[h.cp.heap[2].cpu] = 2;

	h.cp.pos[3] = 0; /* CPU 3 claims CPU 1's slot */
	CU_ASSERT_STRING_EQUAL(dls__cpudl_check(&h.cp),
			       "cpudl: CPU index points at another CPU");
	h.cp.pos[3] = -1;

	dls_cpumask_set(h.cp.free_cpus, 2);
	CU_ASSERT_STRING_EQUAL(dls__cpudl_check(&h.cp),
			       "cpudl: CPU both on the heap and free");
	dls_cpumask_clear(h.cp.free_cpus, 2);

	h.cp.nr_free = 2;
	CU_ASSERT_STRING_EQUAL(dls__cpudl_check(&h.cp),
			       "cpudl: nr_free differs from the free mask");
	h.cp.nr_free = 1;
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));

	h.cp.size = 2;
	CU_ASSERT_STRING_EQUAL(dls__cpudl_check(&h.cp),
			       "cpudl: CPU index out of range");
	h.cp.size = 3;
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));
	free(h.storage);
}

/* ---- randomized against a brute-force model ------------------------------ */

enum cstate { OFFLINE, FREE, BUSY };

struct model {
	int nr;
	enum cstate *st;
	uint64_t *dl;
	uint32_t *cap;  /* per-CPU capacity for the fit filter */
	uint32_t need;  /* capacity the entity of the current find needs */
};

static bool model_earliest(void *ctx, int cpu, uint64_t *edl)
{
	const struct model *md = ctx;

	CU_ASSERT_FATAL(md->st[cpu] != OFFLINE); /* the span excludes it */
	if (md->st[cpu] == FREE)
		return false;
	*edl = md->dl[cpu];
	return true;
}

static bool model_fits(void *ctx, int cpu)
{
	const struct model *md = ctx;

	return md->cap[cpu] >= md->need;
}

static uint32_t model_cap(void *ctx, int cpu)
{
	return ((const struct model *)ctx)->cap[cpu];
}

/* Brute-force maximum: latest deadline, ties to the lowest id. */
static int model_max(const struct model *md)
{
	int best = -1;

	for (int c = 0; c < md->nr; c++)
		if (md->st[c] == BUSY &&
		    (best < 0 || dls_time_after(md->dl[c], md->dl[best])))
			best = c;
	return best;
}

/* What dls__cpudl_find must answer, computed from the model. */
static int model_find(const struct model *md, const struct dls_cpumask *allowed,
		      uint64_t dl, const struct dls_cpudl_fit *fit,
		      struct dls_cpumask *later)
{
	int first_free = -1, first_fit = -1, maxc = -1, m;
	uint32_t maxcap = 0;

	dls_cpumask_zero(later);
	for (int c = 0; c < md->nr; c++) {
		if (md->st[c] != FREE || !dls_cpumask_test(allowed, c))
			continue;
		if (first_free < 0)
			first_free = c;
		if (!fit) {
			dls_cpumask_set(later, c);
		} else if (md->cap[c] >= md->need) {
			if (first_fit < 0)
				first_fit = c;
			dls_cpumask_set(later, c);
		} else if (maxc < 0 || md->cap[c] > maxcap ||
			   (md->cap[c] == maxcap && c == fit->prefer)) {
			maxcap = md->cap[c];
			maxc = c;
		}
	}
	if (first_free >= 0) {
		if (!fit)
			return first_free;
		if (first_fit >= 0)
			return first_fit;
		dls_cpumask_set(later, maxc);
		return maxc;
	}
	m = model_max(md);
	if (m >= 0 && dls_cpumask_test(allowed, m) &&
	    dls_time_before(dl, md->dl[m])) {
		dls_cpumask_set(later, m);
		return m;
	}
	return -1;
}

struct rnd {
	struct dls_test_rng rng;
	uint64_t base;
	uint64_t window;
};

/* Deadlines in [base, base + window), wrapping past 2^64; often tied. */
static uint64_t rnd_dl(struct rnd *r)
{
	if (dls_test_rng_below(&r->rng, 4) == 0)
		return r->base + 1000 * dls_test_rng_below(&r->rng, 4);
	return r->base + dls_test_rng_below(&r->rng, r->window);
}

struct run_stats {
	uint64_t finds, by_free, by_root, none, heap_none_linear_some;
};

static void random_find(struct heap *h, struct model *md, struct rnd *r,
			struct dls_cpumask **mk, struct run_stats *rs)
{
	static const uint32_t needs[] = { 0, 300, 600, 1100 };
	struct dls_cpumask *allowed = mk[0], *span = mk[1], *later = mk[2];
	struct dls_cpumask *want = mk[3], *lin_later = mk[4];
	struct dls_cpudl_fit fitv = { .fits = model_fits, .capacity = model_cap,
				      .ctx = md, .prefer = -1 };
	const struct dls_cpudl_fit *fit = NULL;
	uint64_t dens = 1 + dls_test_rng_below(&r->rng, 8), dl;
	int nr = md->nr, got, exp, lin, m;

	dls_cpumask_zero(allowed);
	dls_cpumask_zero(span);
	for (int c = 0; c < nr; c++) {
		if (dls_test_rng_below(&r->rng, 8) < dens)
			dls_cpumask_set(allowed, c);
		if (md->st[c] != OFFLINE)
			dls_cpumask_set(span, c);
	}
	dl = rnd_dl(r);
	if (dls_test_rng_below(&r->rng, 3) == 0) {
		md->need = needs[dls_test_rng_below(&r->rng, 4)];
		if (dls_test_rng_below(&r->rng, 2))
			fitv.prefer = (int)dls_test_rng_below(&r->rng, (uint64_t)nr);
		fit = &fitv;
	}
	exp = model_find(md, allowed, dl, fit, want);
	got = dls__cpudl_find(&h->cp, allowed, dl, fit, NULL);
	DLS_ASSERT_EQ_S64(got, exp);
	got = dls__cpudl_find(&h->cp, allowed, dl, fit, later);
	DLS_ASSERT_EQ_S64(got, exp);
	CU_ASSERT_FATAL(dls_cpumask_equal(later, want));

	/* Cross-check with the linear reference (latest_cpu_find of the 2012 SCHED_DEADLINE patches). */
	lin = dls__cpudl_find_linear(span, allowed, dl, model_earliest, md, fit,
				    lin_later);
	m = model_max(md);
	rs->finds++;
	if (got < 0)
		rs->none++;
	else if (dls_cpumask_test(h->cp.free_cpus, got))
		rs->by_free++;
	else
		rs->by_root++;
	if (got >= 0) {
		/* Same choice; the heap's candidates are among the scan's. */
		DLS_ASSERT_EQ_S64(lin, got);
		CU_ASSERT_FATAL(dls_cpumask_subset(later, lin_later));
	} else if (lin >= 0) {
		/* The O(1) heap misses only when its root is not allowed. */
		CU_ASSERT_FATAL(m >= 0 && !dls_cpumask_test(allowed, m));
		rs->heap_none_linear_some++;
	}
	if (dls_cpumask_subset(span, allowed))
		DLS_ASSERT_EQ_S64(lin, got);
}

static void random_run(int nr, uint64_t ops, int clear_pct, struct rnd *r)
{
	struct heap h;
	struct model md = { .nr = nr };
	struct dls_cpumask *mk[5];
	struct run_stats rs = { 0, 0, 0, 0, 0 };

	for (int i = 0; i < 5; i++)
		mk[i] = mask_new(nr);
	md.st = malloc(sizeof(*md.st) * (size_t)nr);
	md.dl = malloc(sizeof(*md.dl) * (size_t)nr);
	md.cap = malloc(sizeof(*md.cap) * (size_t)nr);
	for (int c = 0; c < nr; c++) {
		md.st[c] = FREE;
		md.cap[c] = 256u << dls_test_rng_below(&r->rng, 3);
	}
	heap_new(&h, nr, NULL, NULL);
	if (clear_pct == 0) /* saturated mode starts with every CPU busy */
		for (int c = 0; c < nr; c++) {
			md.st[c] = BUSY;
			md.dl[c] = rnd_dl(r);
			dls__cpudl_set(&h.cp, c, md.dl[c]);
		}
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));

	for (uint64_t op = 0; op < ops; op++) {
		int cpu = (int)dls_test_rng_below(&r->rng, (uint64_t)nr);
		uint64_t k = dls_test_rng_below(&r->rng, 100), dl = 0;
		int m;

		/*
		 * Mixed mode (clear_pct > 0): set, clear, online, offline and
		 * find; free CPUs often answer. Saturated mode (0): only set
		 * and find, so once every CPU is busy the root answers.
		 */
		if (k < (clear_pct ? 60 - (uint64_t)clear_pct : 64)) {
			dl = rnd_dl(r);
			dls__cpudl_set(&h.cp, cpu, dl);
			md.st[cpu] = BUSY;
			md.dl[cpu] = dl;
		} else if (clear_pct && k < 60) {
			dls__cpudl_clear(&h.cp, cpu);
			if (md.st[cpu] == BUSY)
				md.st[cpu] = FREE;
		} else if (clear_pct && k < 62) {
			dls__cpudl_online(&h.cp, cpu);
			if (md.st[cpu] == OFFLINE)
				md.st[cpu] = FREE;
		} else if (clear_pct && k < 64) {
			dls__cpudl_offline(&h.cp, cpu);
			md.st[cpu] = OFFLINE;
		} else {
			random_find(&h, &md, r, mk, &rs);
		}
		DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));
		m = model_max(&md);
		DLS_ASSERT_EQ_S64(dls__cpudl_maximum(&h.cp, &dl), m);
		if (m >= 0)
			DLS_ASSERT_EQ_U64(dl, md.dl[m]);
		CU_ASSERT_EQUAL_FATAL(dls__cpudl_deadline(&h.cp, cpu, &dl),
				      md.st[cpu] == BUSY);
		if (md.st[cpu] == BUSY)
			DLS_ASSERT_EQ_U64(dl, md.dl[cpu]);
		CU_ASSERT_EQUAL_FATAL(dls_cpumask_test(h.cp.free_cpus, cpu),
				      md.st[cpu] == FREE);
	}
	/* Full state at the end. */
	for (int c = 0; c < nr; c++) {
		uint64_t dl;

		CU_ASSERT_EQUAL_FATAL(dls__cpudl_deadline(&h.cp, c, &dl),
				      md.st[c] == BUSY);
		CU_ASSERT_EQUAL_FATAL(dls_cpumask_test(h.cp.free_cpus, c),
				      md.st[c] == FREE);
	}
	printf("[cpudl random] nr=%d clear=%d%% ops=%llu finds=%llu (free %llu, "
	       "root %llu, none %llu; heap none but linear some %llu)\n",
	       nr, clear_pct, (unsigned long long)ops,
	       (unsigned long long)rs.finds, (unsigned long long)rs.by_free,
	       (unsigned long long)rs.by_root, (unsigned long long)rs.none,
	       (unsigned long long)rs.heap_none_linear_some);
	free(h.storage);
	for (int i = 0; i < 5; i++)
		free(mk[i]);
	free(md.st);
	free(md.dl);
	free(md.cap);
}

static void test_random(void)
{
	static const struct { int nr; uint64_t ops; } runs[] = {
		{ 1, 5000 }, { 2, 5000 }, { 5, 10000 }, { 63, 10000 },
		{ 64, 10000 }, { 65, 10000 }, { 200, 20000 }, { 4096, 20000 },
	};
	struct rnd r;

	dls_test_rng_seed(&r.rng, dls_test_seed("cpudl random", 0x5eed0501));
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		/* Half the runs straddle the u64 wrap. */
		r.base = (i % 2) ? UINT64_MAX - 500000 : 1000000;
		r.window = 1000000;
		/* Many clears: free CPUs answer; few: the root answers. */
		random_run(runs[i].nr, dls_test_scaled(runs[i].ops), 20, &r);
		random_run(runs[i].nr, dls_test_scaled(runs[i].ops), 0, &r);
	}
}

/* ---- lock callbacks ------------------------------------------------------ */

struct count_lock {
	int depth, locks, unlocks;
	bool nested;
};

static void cl_lock(void *ctx)
{
	struct count_lock *l = ctx;

	l->nested |= l->depth != 0;
	l->depth++;
	l->locks++;
}

static void cl_unlock(void *ctx)
{
	struct count_lock *l = ctx;

	l->depth--;
	l->unlocks++;
}

static void test_lock_calls(void)
{
	static const struct dls_lock_ops ops = { .lock = cl_lock,
						       .unlock = cl_unlock };
	struct count_lock l = { 0, 0, 0, false };
	struct dls_cpumask *all = mask_of(4, "0123");
	struct heap h;
	uint64_t dl;

	heap_new(&h, 4, &ops, &l);
	DLS_ASSERT_EQ_S64(l.locks, 0);
	dls__cpudl_set(&h.cp, 1, 10);
	dls__cpudl_clear(&h.cp, 1);
	dls__cpudl_offline(&h.cp, 2);
	dls__cpudl_online(&h.cp, 2);
	(void)dls__cpudl_find(&h.cp, all, 5, NULL, NULL);
	(void)dls__cpudl_maximum(&h.cp, &dl);
	(void)dls__cpudl_deadline(&h.cp, 0, &dl);
	(void)dls__cpudl_check(&h.cp); /* does not lock */
	DLS_ASSERT_EQ_S64(l.locks, 7);
	DLS_ASSERT_EQ_S64(l.unlocks, 7);
	DLS_ASSERT_EQ_S64(l.depth, 0);
	CU_ASSERT_FALSE(l.nested);
	free(h.storage);
	free(all);
}

/* ---- threads sharing one heap through a mutex --------------------------- */

#define TH_N 4
#define TH_CPUS 64

static void mtx_lock(void *ctx)
{
	pthread_mutex_lock(ctx);
}

static void mtx_unlock(void *ctx)
{
	pthread_mutex_unlock(ctx);
}

struct th_arg {
	struct heap *h;
	int id;
	uint64_t iters, seed;
	bool busy[TH_CPUS];
	uint64_t dl[TH_CPUS];
	const char *err;
};

static void *th_main(void *p)
{
	struct th_arg *a = p;
	struct dls_test_rng rng;
	struct dls_cpumask *allowed = mask_new(TH_CPUS), *later = mask_new(TH_CPUS);

	dls_test_rng_seed(&rng, a->seed + (uint64_t)a->id);
	dls_cpumask_fill(allowed);
	for (uint64_t i = 0; i < a->iters && !a->err; i++) {
		int cpu = (int)dls_test_rng_below(&rng, TH_CPUS / TH_N) * TH_N + a->id;
		uint64_t k = dls_test_rng_below(&rng, 3), dl;
		int got;

		if (k == 0) {
			a->dl[cpu] = UINT64_MAX - 1000 + dls_test_rng_below(&rng, 3000);
			a->busy[cpu] = true;
			dls__cpudl_set(&a->h->cp, cpu, a->dl[cpu]);
		} else if (k == 1) {
			a->busy[cpu] = false;
			dls__cpudl_clear(&a->h->cp, cpu);
		} else {
			got = dls__cpudl_find(&a->h->cp, allowed, UINT64_MAX - 2000,
					      NULL, later);
			if (got < -1 || got >= TH_CPUS ||
			    (got >= 0 && !dls_cpumask_test(later, got)))
				a->err = "find returned an impossible CPU";
		}
		/* Our own CPUs are only changed by us. */
		if (dls__cpudl_deadline(&a->h->cp, cpu, &dl) != a->busy[cpu] ||
		    (a->busy[cpu] && dl != a->dl[cpu]))
			a->err = "own CPU state lost";
	}
	free(allowed);
	free(later);
	return NULL;
}

static void test_threads(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();

	static const struct dls_lock_ops ops = { .lock = mtx_lock,
						       .unlock = mtx_unlock };
	pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
	struct th_arg *a = calloc(TH_N, sizeof(*a));
	pthread_t tid[TH_N];
	uint64_t seed = dls_test_seed("cpudl threads", 0x5eed0502);
	struct heap h;
	int busy = 0;

	heap_new(&h, TH_CPUS, &ops, &mtx);
	for (int i = 0; i < TH_N; i++) {
		a[i].h = &h;
		a[i].id = i;
		a[i].iters = dls_test_scaled(50000);
		a[i].seed = seed;
		CU_ASSERT_FATAL(pthread_create(&tid[i], NULL, th_main, &a[i]) == 0);
	}
	for (int i = 0; i < TH_N; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < TH_N; i++) {
		if (a[i].err)
			fprintf(stderr, "thread %d: %s\n", i, a[i].err);
		CU_ASSERT_PTR_NULL(a[i].err);
	}
	DLS_ASSERT_VALID(dls__cpudl_check(&h.cp));
	for (int c = 0; c < TH_CPUS; c++) {
		const struct th_arg *o = &a[c % TH_N];
		uint64_t dl;

		CU_ASSERT_EQUAL_FATAL(dls__cpudl_deadline(&h.cp, c, &dl), o->busy[c]);
		CU_ASSERT_EQUAL_FATAL(dls_cpumask_test(h.cp.free_cpus, c), !o->busy[c]);
		busy += o->busy[c];
	}
	DLS_ASSERT_EQ_S64(h.cp.size, busy);
	free(h.storage);
	free(a);
}

static const struct dls_test_case cpudl_cases[] = {
	{ "init errors", test_init_errors },
	{ "exact small heap", test_exact_small },
	{ "deadlines across the wrap", test_wrap },
	{ "capacity fit", test_fit_exact },
	{ "validator detects", test_check_detects },
	{ "random vs brute force and linear scan", test_random },
	{ "lock callbacks", test_lock_calls },
	{ "4 threads, mutex lock ops", test_threads },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "cpudl", cpudl_cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
