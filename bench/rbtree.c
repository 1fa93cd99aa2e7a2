/*
 * EDF runqueue benchmark: the library's intrusive rbtree against peers.
 *
 * Fill n entities with random deadlines, then measure two steady-state
 * patterns, one operation = one erase + one insert:
 *   (a) pop the earliest deadline and re-insert it with deadline += period
 *       (a periodic task finishing its job);
 *   (b) erase a random entity and re-insert it with a new random deadline
 *       (a task blocking and waking up).
 *
 * Peers, measured in the same run on identical operation streams:
 *   libbsd  <bsd/sys/tree.h> RB_* macros (intrusive; RB_MIN walks the left
 *           spine since the tree does not cache its minimum);
 *   tsearch glibc tsearch/tdelete (allocates a node per insert). It has no
 *           "minimum" call: for (a) the minimum is found by twalk(), which
 *           visits the root, walks down the left spine and reports the
 *           leftmost node first as `postorder` or `leaf`; the callback
 *           longjmp()s out right there, so the cost is O(depth), not O(n);
 *   heap    an array binary min-heap with the keys stored in the slots and
 *           a position index per entity, so (b) can erase by index; an op
 *           is erase-at-index + push, like the trees' erase + insert.
 * Every implementation orders by (deadline, seq) with the wrap-safe
 * dls_time_before(); seq is a per-insert stamp, so keys are unique (libbsd's
 * RB_INSERT and tsearch reject duplicates) and all four pop the same
 * sequence, which the run checks (checksum of the deadlines taken off and
 * the final minimum). Each gets the comparator form that runs fastest for
 * it on this benchmark: the trees' int-returning callbacks and the heap use
 * the plain branching form, ours a branch-free bool (key_less below), which
 * suits its branch-free descent. Rebuild with -DBSD_CMP=key_cmp,
 * -DTS_CMP=key_cmp or -DHEAP_LESS=key_less to try the other forms.
 *
 * Deadlines are uniform in [0, 2^48) and periods in [1, 2^48]: in pattern
 * (a) the live deadlines then always span less than 2^48, so the wrap-safe
 * comparison is a total order even after the values pass 2^64.
 *
 * Timing: the implementations run interleaved, one batch each per
 * repetition, after one warm-up batch; a batch is 200000 ops for n <= 1024,
 * 100000 for n = 65536 and 30000 for n = 2^20.
 *
 * Usage:
 *   bench_rbtree [--max-n N] [--reps R] [--seed S]
 *       the table: n, pattern, median ns/op of each, our ratio to each peer;
 *   bench_rbtree --ops N --impl ours|libbsd|tsearch|heap --pattern a|b --n N
 *       fill, run exactly N operations, print a checksum (for callgrind;
 *       see rbtree_callgrind.sh).
 */
#define _GNU_SOURCE 1

#include <inttypes.h>
#include <search.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/rbtree.h>

#include "bench_util.h"

#if defined(__has_include)
#  if __has_include(<bsd/sys/tree.h>)
#    include <bsd/sys/tree.h>
#    define HAVE_LIBBSD_TREE 1
#  endif
#endif

#if defined(__GNUC__)
#  define BENCH_INLINE static inline __attribute__((always_inline, unused))
#  define BENCH_NOINLINE __attribute__((noinline))
#else
#  define BENCH_INLINE static inline
#  define BENCH_NOINLINE
#endif

#define KEY_MASK ((UINT64_C(1) << 48) - 1)

/* ------------------------------------------------------------------------ */
/* Deterministic random stream, one per implementation.                      */

struct rng {
	uint64_t s;
};

BENCH_INLINE uint64_t rng_next(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

BENCH_INLINE uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Multiply-shift on the top 32 bits: n stays below 2^32 here. */
	return ((rng_next(r) >> 32) * n) >> 32;
}

BENCH_INLINE uint64_t rnd_deadline(struct rng *r)
{
	return rng_next(r) & KEY_MASK;
}

BENCH_INLINE uint64_t rnd_period(struct rng *r)
{
	return (rng_next(r) & KEY_MASK) + 1;
}

BENCH_INLINE bool key_less(uint64_t da, uint64_t sa, uint64_t db, uint64_t sb)
{
	/*
	 * Earlier deadline, or the same one inserted first, as one signed
	 * 128-bit comparison (da - db : sa - sb) < 0: the seq borrow lowers
	 * the deadline difference by one exactly when sa < sb. It matches
	 * dls_time_before() || (da == db && sa < sb) whenever the deadlines
	 * are less than 2^63 apart, dls_time_before()'s own domain.
	 */
	return (int64_t)(da - db - (uint64_t)(sa < sb)) < 0;
}

/* The same order, written with branches. */
BENCH_INLINE bool key_less_branchy(uint64_t da, uint64_t sa, uint64_t db,
				   uint64_t sb)
{
	if (da != db)
		return dls_time_before(da, db);
	return sa < sb;
}

/* Three-way forms for the callback APIs that want an int. */
BENCH_INLINE int key_cmp_branchy(uint64_t da, uint64_t sa, uint64_t db,
				 uint64_t sb)
{
	if (da != db)
		return dls_time_before(da, db) ? -1 : 1;
	return sa < sb ? -1 : sa > sb;
}

BENCH_INLINE int key_cmp(uint64_t da, uint64_t sa, uint64_t db, uint64_t sb)
{
	int64_t hi = (int64_t)(da - db - (uint64_t)(sa < sb));

	return hi < 0 ? -1 : (hi > 0 || sa != sb);
}

#ifndef HEAP_LESS
#define HEAP_LESS key_less_branchy
#endif
#ifndef BSD_CMP
#define BSD_CMP key_cmp_branchy
#endif
#ifndef TS_CMP
#define TS_CMP key_cmp_branchy
#endif

enum pattern { PAT_A, PAT_B };

/* Common state of one implementation instance. */
struct run_state {
	struct rng rng;
	uint64_t seq;
	uint64_t checksum; /* sum of the deadlines taken off, per op */
	size_t n;
	enum pattern pat;
};

/* ------------------------------------------------------------------------ */
/* Ours: dls_rb_add_cached with an inlined less, dls_rb_erase_cached.        */

struct our_ent {
	uint64_t deadline;
	uint64_t seq;
	struct dls_rb_node node;
};

struct our_ctx {
	struct run_state st;
	struct dls_rb_root_cached q;
	struct our_ent *ents;
};

BENCH_INLINE bool our_less(const struct dls_rb_node *a,
			   const struct dls_rb_node *b)
{
	const struct our_ent *ea = dls_container_of(a, struct our_ent, node);
	const struct our_ent *eb = dls_container_of(b, struct our_ent, node);

	return key_less(ea->deadline, ea->seq, eb->deadline, eb->seq);
}

static void *our_setup(size_t n, enum pattern pat, uint64_t seed)
{
	struct our_ctx *c = calloc(1, sizeof(*c));

	c->st = (struct run_state){ { seed }, 0, 0, n, pat };
	c->ents = calloc(n, sizeof(*c->ents));
	if (!c->ents)
		abort();
	dls_rb_root_cached_init(&c->q);
	for (size_t i = 0; i < n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		dls_rb_node_init(&c->ents[i].node);
		dls_rb_add_cached(&c->ents[i].node, &c->q, our_less);
	}
	return c;
}

static BENCH_NOINLINE void our_run(void *p, uint64_t ops)
{
	struct our_ctx *c = p;
	struct run_state st = c->st;

	if (st.pat == PAT_A) {
		while (ops--) {
			struct dls_rb_node *n = dls_rb_first_cached(&c->q);
			struct our_ent *e =
				dls_container_of(n, struct our_ent, node);

			dls_rb_erase_cached(n, &c->q);
			st.checksum += e->deadline;
			e->deadline += rnd_period(&st.rng);
			e->seq = ++st.seq;
			dls_rb_add_cached(n, &c->q, our_less);
		}
	} else {
		while (ops--) {
			struct our_ent *e = &c->ents[rng_below(&st.rng, st.n)];

			dls_rb_erase_cached(&e->node, &c->q);
			st.checksum += e->deadline;
			e->deadline = rnd_deadline(&st.rng);
			e->seq = ++st.seq;
			dls_rb_add_cached(&e->node, &c->q, our_less);
		}
	}
	c->st = st;
}

static uint64_t our_min(void *p)
{
	struct our_ctx *c = p;

	return dls_container_of(dls_rb_first_cached(&c->q), struct our_ent,
				node)->deadline;
}

static void our_teardown(void *p)
{
	struct our_ctx *c = p;

	free(c->ents);
	free(c);
}

/* ------------------------------------------------------------------------ */
/* libbsd <bsd/sys/tree.h>.                                                  */

#ifdef HAVE_LIBBSD_TREE
struct bsd_ent {
	uint64_t deadline;
	uint64_t seq;
	RB_ENTRY(bsd_ent) link;
};

RB_HEAD(bsd_tree, bsd_ent);

static inline int bsd_cmp(struct bsd_ent *a, struct bsd_ent *b)
{
	return BSD_CMP(a->deadline, a->seq, b->deadline, b->seq);
}

/* RB_GENERATE_STATIC spelled out: libbsd leaves __unused undefined. */
RB_GENERATE_INTERNAL(bsd_tree, bsd_ent, link, bsd_cmp,
		     __attribute__((unused)) static)

struct bsd_ctx {
	struct run_state st;
	struct bsd_tree q;
	struct bsd_ent *ents;
};

static void *bsd_setup(size_t n, enum pattern pat, uint64_t seed)
{
	struct bsd_ctx *c = calloc(1, sizeof(*c));

	c->st = (struct run_state){ { seed }, 0, 0, n, pat };
	c->ents = calloc(n, sizeof(*c->ents));
	if (!c->ents)
		abort();
	RB_INIT(&c->q);
	for (size_t i = 0; i < n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		RB_INSERT(bsd_tree, &c->q, &c->ents[i]);
	}
	return c;
}

static BENCH_NOINLINE void bsd_run(void *p, uint64_t ops)
{
	struct bsd_ctx *c = p;
	struct run_state st = c->st;

	if (st.pat == PAT_A) {
		while (ops--) {
			struct bsd_ent *e = RB_MIN(bsd_tree, &c->q);

			RB_REMOVE(bsd_tree, &c->q, e);
			st.checksum += e->deadline;
			e->deadline += rnd_period(&st.rng);
			e->seq = ++st.seq;
			RB_INSERT(bsd_tree, &c->q, e);
		}
	} else {
		while (ops--) {
			struct bsd_ent *e = &c->ents[rng_below(&st.rng, st.n)];

			RB_REMOVE(bsd_tree, &c->q, e);
			st.checksum += e->deadline;
			e->deadline = rnd_deadline(&st.rng);
			e->seq = ++st.seq;
			RB_INSERT(bsd_tree, &c->q, e);
		}
	}
	c->st = st;
}

static uint64_t bsd_min(void *p)
{
	struct bsd_ctx *c = p;

	return RB_MIN(bsd_tree, &c->q)->deadline;
}

static void bsd_teardown(void *p)
{
	struct bsd_ctx *c = p;

	free(c->ents);
	free(c);
}
#endif

/* ------------------------------------------------------------------------ */
/* glibc tsearch / tdelete.                                                  */

struct ts_ent {
	uint64_t deadline;
	uint64_t seq;
};

struct ts_ctx {
	struct run_state st;
	void *root;
	struct ts_ent *ents;
};

static int ts_cmp(const void *a, const void *b)
{
	const struct ts_ent *ea = a, *eb = b;

	return TS_CMP(ea->deadline, ea->seq, eb->deadline, eb->seq);
}

/*
 * twalk() has no way to stop early and no context pointer; the minimum
 * search keeps its jump buffer and result here (the benchmark is one
 * thread).
 */
static jmp_buf ts_min_jmp;
static const struct ts_ent *ts_min_found;

static void ts_min_visit(const void *nodep, VISIT which, int depth)
{
	(void)depth;
	if (which == postorder || which == leaf) {
		ts_min_found = *(const struct ts_ent *const *)nodep;
		longjmp(ts_min_jmp, 1);
	}
}

static struct ts_ent *ts_min(void *root)
{
	ts_min_found = NULL;
	if (setjmp(ts_min_jmp) == 0)
		twalk(root, ts_min_visit);
	return (struct ts_ent *)ts_min_found;
}

static void *ts_setup(size_t n, enum pattern pat, uint64_t seed)
{
	struct ts_ctx *c = calloc(1, sizeof(*c));

	c->st = (struct run_state){ { seed }, 0, 0, n, pat };
	c->ents = calloc(n, sizeof(*c->ents));
	if (!c->ents)
		abort();
	for (size_t i = 0; i < n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		if (!tsearch(&c->ents[i], &c->root, ts_cmp))
			abort();
	}
	return c;
}

static BENCH_NOINLINE void ts_run(void *p, uint64_t ops)
{
	struct ts_ctx *c = p;
	struct run_state st = c->st;

	if (st.pat == PAT_A) {
		while (ops--) {
			struct ts_ent *e = ts_min(c->root);

			tdelete(e, &c->root, ts_cmp);
			st.checksum += e->deadline;
			e->deadline += rnd_period(&st.rng);
			e->seq = ++st.seq;
			if (!tsearch(e, &c->root, ts_cmp))
				abort();
		}
	} else {
		while (ops--) {
			struct ts_ent *e = &c->ents[rng_below(&st.rng, st.n)];

			tdelete(e, &c->root, ts_cmp);
			st.checksum += e->deadline;
			e->deadline = rnd_deadline(&st.rng);
			e->seq = ++st.seq;
			if (!tsearch(e, &c->root, ts_cmp))
				abort();
		}
	}
	c->st = st;
}

static uint64_t ts_min_deadline(void *p)
{
	struct ts_ctx *c = p;

	return ts_min(c->root)->deadline;
}

static void ts_free_node(void *nodep)
{
	(void)nodep; /* the entities live in ents[] */
}

static void ts_teardown(void *p)
{
	struct ts_ctx *c = p;

	tdestroy(c->root, ts_free_node);
	free(c->ents);
	free(c);
}

/* ------------------------------------------------------------------------ */
/* Indexed binary min-heap: keys in the slots, pos[id] = slot of entity id. */

struct heap_slot {
	uint64_t deadline;
	uint64_t seq;
	size_t id;
};

struct heap_ctx {
	struct run_state st;
	struct heap_slot *a;
	size_t *pos;
	size_t len;
};

BENCH_INLINE bool slot_less(const struct heap_slot *x,
			    const struct heap_slot *y)
{
	return HEAP_LESS(x->deadline, x->seq, y->deadline, y->seq);
}

/* Move the hole at @p i up until @p s fits, then drop @p s there. */
BENCH_INLINE void heap_sift_up(struct heap_ctx *h, size_t i,
			       struct heap_slot s)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!slot_less(&s, &h->a[parent]))
			break;
		h->a[i] = h->a[parent];
		h->pos[h->a[i].id] = i;
		i = parent;
	}
	h->a[i] = s;
	h->pos[s.id] = i;
}

BENCH_INLINE void heap_sift_down(struct heap_ctx *h, size_t i,
				 struct heap_slot s)
{
	size_t len = h->len;

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= len)
			break;
		if (child + 1 < len && slot_less(&h->a[child + 1], &h->a[child]))
			child++;
		if (!slot_less(&h->a[child], &s))
			break;
		h->a[i] = h->a[child];
		h->pos[h->a[i].id] = i;
		i = child;
	}
	h->a[i] = s;
	h->pos[s.id] = i;
}

BENCH_INLINE void heap_insert(struct heap_ctx *h, struct heap_slot s)
{
	heap_sift_up(h, h->len++, s);
}

BENCH_INLINE void heap_erase(struct heap_ctx *h, size_t i)
{
	struct heap_slot last = h->a[--h->len];

	if (i == h->len)
		return;
	if (i > 0 && slot_less(&last, &h->a[(i - 1) / 2]))
		heap_sift_up(h, i, last);
	else
		heap_sift_down(h, i, last);
}

static void *heap_setup(size_t n, enum pattern pat, uint64_t seed)
{
	struct heap_ctx *c = calloc(1, sizeof(*c));

	c->st = (struct run_state){ { seed }, 0, 0, n, pat };
	c->a = calloc(n, sizeof(*c->a));
	c->pos = calloc(n, sizeof(*c->pos));
	if (!c->a || !c->pos)
		abort();
	for (size_t i = 0; i < n; i++) {
		struct heap_slot s = { rnd_deadline(&c->st.rng), ++c->st.seq,
				       i };

		heap_insert(c, s);
	}
	return c;
}

static BENCH_NOINLINE void heap_run(void *p, uint64_t ops)
{
	struct heap_ctx *c = p;
	struct run_state st = c->st;

	if (st.pat == PAT_A) {
		while (ops--) {
			struct heap_slot s = c->a[0];

			heap_erase(c, 0);
			st.checksum += s.deadline;
			s.deadline += rnd_period(&st.rng);
			s.seq = ++st.seq;
			heap_insert(c, s);
		}
	} else {
		while (ops--) {
			size_t id = rng_below(&st.rng, st.n);
			struct heap_slot s = c->a[c->pos[id]];

			heap_erase(c, c->pos[id]);
			st.checksum += s.deadline;
			s.deadline = rnd_deadline(&st.rng);
			s.seq = ++st.seq;
			heap_insert(c, s);
		}
	}
	c->st = st;
}

static uint64_t heap_min(void *p)
{
	return ((struct heap_ctx *)p)->a[0].deadline;
}

static void heap_teardown(void *p)
{
	struct heap_ctx *c = p;

	free(c->a);
	free(c->pos);
	free(c);
}

/* ------------------------------------------------------------------------ */

struct impl {
	const char *name;
	void *(*setup)(size_t n, enum pattern pat, uint64_t seed);
	void (*run)(void *ctx, uint64_t ops);
	uint64_t (*min)(void *ctx);
	void (*teardown)(void *ctx);
};

static const struct impl impls[] = {
	{ "ours", our_setup, our_run, our_min, our_teardown },
#ifdef HAVE_LIBBSD_TREE
	{ "libbsd", bsd_setup, bsd_run, bsd_min, bsd_teardown },
#endif
	{ "tsearch", ts_setup, ts_run, ts_min_deadline, ts_teardown },
	{ "heap", heap_setup, heap_run, heap_min, heap_teardown },
};
#define NIMPL (sizeof(impls) / sizeof(impls[0]))

static uint64_t checksum_of(void *ctx)
{
	/* run_state is the first member of every context. */
	return ((struct run_state *)ctx)->checksum;
}

static uint64_t ops_for(size_t n)
{
	if (n <= 1024)
		return 200000;
	if (n <= 65536)
		return 100000;
	return 30000;
}

static int run_fixed(uint64_t ops, const char *impl, const char *pat,
		     size_t n, uint64_t seed)
{
	for (size_t i = 0; i < NIMPL; i++) {
		void *ctx;

		if (strcmp(impls[i].name, impl) != 0)
			continue;
		ctx = impls[i].setup(n, pat[0] == 'b' ? PAT_B : PAT_A, seed);
		impls[i].run(ctx, ops);
		printf("%s pattern %s n %zu ops %" PRIu64 " checksum %016" PRIx64
		       " min %016" PRIx64 "\n",
		       impl, pat, n, ops, checksum_of(ctx), impls[i].min(ctx));
		impls[i].teardown(ctx);
		return 0;
	}
	fprintf(stderr, "unknown --impl %s\n", impl);
	return 2;
}

static const size_t sizes[] = { 16, 64, 1024, 65536, 1048576 };

int main(int argc, char **argv)
{
	size_t max_n = 1048576, fixed_n = 1024;
	uint64_t seed = 0x0edf5eedULL, fixed_ops = 0;
	int reps = 5;
	const char *fixed_impl = NULL, *fixed_pat = "a";
	int mismatches = 0;

	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "%s needs a value\n", a);
			return 2;
		}
		if (!strcmp(a, "--max-n"))
			max_n = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--reps"))
			reps = atoi(v);
		else if (!strcmp(a, "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--ops"))
			fixed_ops = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--impl"))
			fixed_impl = v;
		else if (!strcmp(a, "--pattern"))
			fixed_pat = v;
		else if (!strcmp(a, "--n"))
			fixed_n = strtoull(v, NULL, 0);
		else {
			fprintf(stderr, "unknown option %s\n", a);
			return 2;
		}
	}
	if (fixed_impl)
		return run_fixed(fixed_ops, fixed_impl, fixed_pat, fixed_n,
				 seed);
	if (reps < 1 || reps > 99)
		reps = 5;

	printf("EDF runqueue pattern, one op = erase + insert; median of %d "
	       "runs (after one warm-up), seed 0x%" PRIx64 "\n"
	       "(a) pop earliest, deadline += period; (b) erase random, new "
	       "random deadline\n\n",
	       reps, seed);
	printf("%8s %3s %9s", "n", "pat", "ours");
	for (size_t i = 1; i < NIMPL; i++)
		printf(" %9s", impls[i].name);
	for (size_t i = 1; i < NIMPL; i++) {
		char h[32];

		snprintf(h, sizeof(h), "/%s", impls[i].name);
		printf(" %8s", h);
	}
	printf("\n%8s %3s %9s", "", "", "ns/op");
	for (size_t i = 1; i < NIMPL; i++)
		printf(" %9s", "ns/op");
	printf("\n");

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];

		if (n > max_n)
			break;
		for (int pat = PAT_A; pat <= PAT_B; pat++) {
			void *ctx[NIMPL];
			double t[NIMPL][100], med[NIMPL];
			uint64_t ops = ops_for(n);

			for (size_t i = 0; i < NIMPL; i++)
				ctx[i] = impls[i].setup(n, (enum pattern)pat,
							seed);
			/* Interleave the implementations, rep by rep. */
			for (int r = -1; r < reps; r++) {
				for (size_t i = 0; i < NIMPL; i++) {
					double t0 = now_ns();

					impls[i].run(ctx[i], ops);
					if (r >= 0)
						t[i][r] = (now_ns() - t0) /
							  (double)ops;
				}
			}
			for (size_t i = 0; i < NIMPL; i++) {
				qsort(t[i], (size_t)reps, sizeof(double),
				      cmp_double);
				med[i] = t[i][reps / 2];
				if (checksum_of(ctx[i]) != checksum_of(ctx[0]) ||
				    impls[i].min(ctx[i]) != impls[0].min(ctx[0])) {
					fprintf(stderr,
						"MISMATCH: %s disagrees with "
						"ours at n=%zu pattern %c\n",
						impls[i].name, n, 'a' + pat);
					mismatches++;
				}
			}
			for (size_t i = 0; i < NIMPL; i++)
				impls[i].teardown(ctx[i]);
			printf("%8zu %3c %9.1f", n, 'a' + pat, med[0]);
			for (size_t i = 1; i < NIMPL; i++)
				printf(" %9.1f", med[i]);
			for (size_t i = 1; i < NIMPL; i++)
				printf(" %7.2fx", med[0] / med[i]);
			printf("\n");
			fflush(stdout);
		}
	}
	printf("\nns/op: median wall time per erase+insert; /peer: ours "
	       "divided by the peer (< 1 = ours faster).\n"
	       "tsearch (a) finds the minimum with twalk() + longjmp "
	       "(O(depth)); libbsd (a) uses RB_MIN.\n");
	return mismatches ? 1 : 0;
}
