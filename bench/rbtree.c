/*
 * EDF runqueue benchmark: the library's intrusive rbtree against peers.
 *
 * Patterns, each on n entities with random deadlines:
 *   a      steady state, one op = erase + insert: pop the earliest deadline
 *          and re-insert it with deadline += period (a periodic task
 *          finishing its job);
 *   b      steady state, one op = erase + insert: erase a random entity and
 *          re-insert it with a new random deadline (a task blocking and
 *          waking up);
 *   build  insert only, one op = one insert: build the tree of n entities
 *          from empty, in index order, with fresh random keys every round;
 *   erase  erase only, one op = one erase: drain a full tree by erasing its
 *          entities in a fresh random order every round;
 *   pop    erase only, one op = one erase: drain a full tree by taking the
 *          earliest entity off until it is empty (the tree's own "next"
 *          where it has one, its minimum search otherwise).
 * In build, erase and pop, the untimed part of a round (drawing the keys,
 * emptying the tree, and for erase and pop building it) is outside the
 * clock; a round is timed on its own and the clock's own cost (the median
 * of back-to-back readings, printed) is subtracted.
 *
 * Ours is the two-ended tree the EDF runqueue keeps (struct
 * dls_rb_root_ends: leftmost and rightmost cached, an insert after every
 * node linked at once); ours-l is the same tree with only its leftmost node
 * cached (dls_rb_add_cached), the first peer.
 *
 * Peers, measured in the same run on identical operation streams:
 *   kern    a kernel-style red-black tree (krbtree.h: Linux lib/rbtree.c's
 *           algorithm rewritten for this benchmark, cached leftmost,
 *           rb_add_cached's inline descent, out-of-line rebalance);
 *   libbsd  <bsd/sys/tree.h> RB_* macros (intrusive; RB_MIN walks the left
 *           spine since the tree does not cache its minimum);
 *   tsearch glibc tsearch/tdelete (allocates a node per insert). It has no
 *           "minimum" call: the minimum is found by twalk(), which visits
 *           the root, walks down the left spine and reports the leftmost
 *           node first as `postorder` or `leaf`; the callback longjmp()s
 *           out right there, so the cost is O(depth), not O(n);
 *   heap    an array binary min-heap with the keys stored in the slots and
 *           a position index per entity, so it can erase by index; an op
 *           of (a) and (b) is erase-at-index + push, like the trees'.
 * Every implementation orders by (deadline, seq) with the wrap-safe
 * dls_time_before(); seq is a per-insert stamp, so keys are unique (libbsd's
 * RB_INSERT and tsearch reject duplicates) and all of them pop the same
 * sequence, which the run checks (a checksum of the deadlines taken off,
 * the final minimum, an in-order hash of each built tree, and empty trees
 * after each drain). Each gets the comparator form that runs fastest for
 * it on this benchmark: the int-returning callbacks and the heap use the
 * plain branching form, ours and kern a branch-free bool (key_less below).
 * Rebuild with -DBSD_CMP=key_cmp, -DTS_CMP=key_cmp, -DHEAP_LESS=key_less or
 * -DKERN_LESS=key_less_branchy to try the other forms.
 *
 * Deadlines are uniform in [0, 2^48) and periods in [1, 2^48]: in pattern
 * (a) the live deadlines then always span less than 2^48, so the wrap-safe
 * comparison is a total order even after the values pass 2^64.
 *
 * Timing: the implementations run interleaved, one sample each per
 * repetition, after one warm-up sample; a sample is about 200000 ops for
 * n <= 16384 (whole rounds in build, erase and pop), 100000 for (a) and
 * (b) at n = 65536, and one round or 30000 ops at n = 2^20.
 *
 * Usage:
 *   bench_rbtree [--max-n N] [--reps R] [--seed S]
 *       the table: pattern, n, median ns/op of each, our ratio to each peer;
 *   bench_rbtree --ops N --impl IMPL --pattern a|b|build|erase|pop --n N
 *       run exactly N operations (whole rounds of n in build, erase and
 *       pop) in one function per implementation and pattern, named
 *       IMPL_run or IMPL_build, IMPL_erase, IMPL_pop (for callgrind's
 *       --toggle-collect; see rbtree_callgrind.sh), print a checksum.
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
#include "krbtree.h"

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
#ifndef KERN_LESS
#define KERN_LESS key_less
#endif

enum pattern {
	PAT_A,
	PAT_B,
	PAT_BUILD,      /* fresh random keys each round */
	PAT_BUILD_ASC,  /* keys ascending in insertion order */
	PAT_BUILD_DESC, /* keys descending in insertion order */
	PAT_BUILD_REP,  /* the same random keys every round */
	PAT_ERASE,
	PAT_POP,
	PAT_COUNT
};

static const char *const pattern_names[PAT_COUNT] = {
	"a", "b", "build", "build-asc", "build-desc", "build-rep", "erase",
	"pop"
};

/* The build patterns: one op = one insert into a tree built from empty. */
static bool pat_is_build(enum pattern pat)
{
	return pat >= PAT_BUILD && pat <= PAT_BUILD_REP;
}

/* One entity's key, as drawn by the driver for a build/erase/pop round. */
struct bkey {
	uint64_t deadline;
	uint64_t seq;
};

/* Common state of one implementation instance. */
struct run_state {
	struct rng rng;
	uint64_t seq;
	uint64_t checksum; /* sum of the deadlines taken off, per op */
	size_t n;
	enum pattern pat;
};

/* Order-sensitive hash step, for in-order walks and drains. */
BENCH_INLINE uint64_t hash_step(uint64_t h, uint64_t deadline)
{
	return (h ^ deadline) * UINT64_C(0x100000001b3);
}

static void state_init(struct run_state *st, size_t n, enum pattern pat,
		       uint64_t seed)
{
	*st = (struct run_state){ { seed }, 0, 0, n, pat };
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "bench_rbtree: out of memory\n");
		exit(1);
	}
	return p;
}

/* ------------------------------------------------------------------------ */
/* Ours: the two-ended tree of the EDF runqueue, dls_rb_add_ends with an   */
/* inlined less and dls_rb_erase_ends; ours-l: the same tree with only its  */
/* leftmost node cached (dls_rb_add_cached, dls_rb_erase_cached).           */

struct our_ent {
	uint64_t deadline;
	uint64_t seq;
	struct dls_rb_node node;
};

struct our_ctx {
	struct run_state st;
	struct dls_rb_root_ends q;
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
	struct our_ctx *c = xcalloc(1, sizeof(*c));

	state_init(&c->st, n, pat, seed);
	c->ents = xcalloc(n, sizeof(*c->ents));
	dls_rb_root_ends_init(&c->q);
	return c;
}

static void our_fill(void *p)
{
	struct our_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		dls_rb_node_init(&c->ents[i].node);
		dls_rb_add_ends(&c->ents[i].node, &c->q, our_less);
	}
}

/*
 * The timed functions of ours and ours-l, which differ in the insert and
 * erase calls only; each is its own function for callgrind's
 * --toggle-collect.
 */
#define OUR_TIMED(P, ADD, ERASE)                                               \
static BENCH_NOINLINE void P##_run(void *p, uint64_t ops)                       \
{                                                                               \
	struct our_ctx *c = p;                                                  \
	struct run_state st = c->st;                                            \
                                                                                \
	if (st.pat == PAT_A) {                                                  \
		while (ops--) {                                                 \
			struct dls_rb_node *n = dls_rb_first_cached(&c->q.cached); \
			struct our_ent *e =                                     \
				dls_container_of(n, struct our_ent, node);      \
                                                                                \
			ERASE(n, c);                                            \
			st.checksum += e->deadline;                             \
			e->deadline += rnd_period(&st.rng);                     \
			e->seq = ++st.seq;                                      \
			ADD(n, c);                                              \
		}                                                               \
	} else {                                                                \
		while (ops--) {                                                 \
			struct our_ent *e = &c->ents[rng_below(&st.rng, st.n)]; \
                                                                                \
			ERASE(&e->node, c);                                     \
			st.checksum += e->deadline;                             \
			e->deadline = rnd_deadline(&st.rng);                    \
			e->seq = ++st.seq;                                      \
			ADD(&e->node, c);                                       \
		}                                                               \
	}                                                                       \
	c->st = st;                                                             \
}                                                                               \
                                                                                \
static BENCH_NOINLINE void P##_build(void *p)                                   \
{                                                                               \
	struct our_ctx *c = p;                                                  \
                                                                                \
	for (size_t i = 0; i < c->st.n; i++)                                    \
		ADD(&c->ents[i].node, c);                                       \
}                                                                               \
                                                                                \
static BENCH_NOINLINE void P##_erase(void *p, const uint32_t *perm)             \
{                                                                               \
	struct our_ctx *c = p;                                                  \
                                                                                \
	for (size_t i = 0; i < c->st.n; i++)                                    \
		ERASE(&c->ents[perm[i]].node, c);                               \
}                                                                               \
                                                                                \
static BENCH_NOINLINE uint64_t P##_pop(void *p)                                 \
{                                                                               \
	struct our_ctx *c = p;                                                  \
	struct dls_rb_node *n = dls_rb_first_cached(&c->q.cached);              \
	uint64_t h = 0;                                                         \
                                                                                \
	while (n) {                                                             \
		h = hash_step(h, dls_container_of(n, struct our_ent,            \
						  node)->deadline);             \
		n = ERASE(n, c);                                                \
	}                                                                       \
	return h;                                                               \
}

#define OURS_ADD(n, c) dls_rb_add_ends((n), &(c)->q, our_less)
#define OURS_ERASE(n, c) dls_rb_erase_ends((n), &(c)->q)
#define OURL_ADD(n, c) dls_rb_add_cached((n), &(c)->q.cached, our_less)
#define OURL_ERASE(n, c) dls_rb_erase_cached((n), &(c)->q.cached)
OUR_TIMED(our, OURS_ADD, OURS_ERASE)
OUR_TIMED(ourl, OURL_ADD, OURL_ERASE)

static void our_load(void *p, const struct bkey *keys)
{
	struct our_ctx *c = p;

	dls_rb_root_ends_init(&c->q);
	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = keys[i].deadline;
		c->ents[i].seq = keys[i].seq;
		dls_rb_node_init(&c->ents[i].node);
	}
}

static uint64_t our_inorder(void *p)
{
	struct our_ctx *c = p;
	uint64_t h = 0;

	for (struct dls_rb_node *n = dls_rb_first_cached(&c->q.cached); n;
	     n = dls_rb_next(n))
		h = hash_step(h, dls_container_of(n, struct our_ent,
						  node)->deadline);
	return h;
}

static bool our_empty(void *p)
{
	struct our_ctx *c = p;

	return dls_rb_empty(&c->q.cached.rb_root) &&
	       !dls_rb_first_cached(&c->q.cached) && !c->q.rightmost;
}

static uint64_t our_min(void *p)
{
	struct our_ctx *c = p;

	return dls_container_of(dls_rb_first_cached(&c->q.cached), struct our_ent,
				node)->deadline;
}

static void our_teardown(void *p)
{
	struct our_ctx *c = p;

	free(c->ents);
	free(c);
}

/* ------------------------------------------------------------------------ */
/* Kernel-style: krb_add_cached with an inlined less, krb_erase_cached.      */

struct kern_ent {
	uint64_t deadline;
	uint64_t seq;
	struct krb_node node;
};

struct kern_ctx {
	struct run_state st;
	struct krb_root_cached q;
	struct kern_ent *ents;
};

BENCH_INLINE bool kern_less(const struct krb_node *a, const struct krb_node *b)
{
	const struct kern_ent *ea = dls_container_of(a, struct kern_ent, node);
	const struct kern_ent *eb = dls_container_of(b, struct kern_ent, node);

	return KERN_LESS(ea->deadline, ea->seq, eb->deadline, eb->seq);
}

static void *kern_setup(size_t n, enum pattern pat, uint64_t seed)
{
	struct kern_ctx *c = xcalloc(1, sizeof(*c));

	state_init(&c->st, n, pat, seed);
	c->ents = xcalloc(n, sizeof(*c->ents));
	return c;
}

static void kern_fill(void *p)
{
	struct kern_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		krb_add_cached(&c->ents[i].node, &c->q, kern_less);
	}
}

static BENCH_NOINLINE void kern_run(void *p, uint64_t ops)
{
	struct kern_ctx *c = p;
	struct run_state st = c->st;

	if (st.pat == PAT_A) {
		while (ops--) {
			struct krb_node *n = c->q.leftmost;
			struct kern_ent *e =
				dls_container_of(n, struct kern_ent, node);

			krb_erase_cached(n, &c->q);
			st.checksum += e->deadline;
			e->deadline += rnd_period(&st.rng);
			e->seq = ++st.seq;
			krb_add_cached(n, &c->q, kern_less);
		}
	} else {
		while (ops--) {
			struct kern_ent *e = &c->ents[rng_below(&st.rng, st.n)];

			krb_erase_cached(&e->node, &c->q);
			st.checksum += e->deadline;
			e->deadline = rnd_deadline(&st.rng);
			e->seq = ++st.seq;
			krb_add_cached(&e->node, &c->q, kern_less);
		}
	}
	c->st = st;
}

static void kern_load(void *p, const struct bkey *keys)
{
	struct kern_ctx *c = p;

	c->q.root.node = NULL;
	c->q.leftmost = NULL;
	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = keys[i].deadline;
		c->ents[i].seq = keys[i].seq;
	}
}

static BENCH_NOINLINE void kern_build(void *p)
{
	struct kern_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		krb_add_cached(&c->ents[i].node, &c->q, kern_less);
}

static BENCH_NOINLINE void kern_erase(void *p, const uint32_t *perm)
{
	struct kern_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		krb_erase_cached(&c->ents[perm[i]].node, &c->q);
}

static BENCH_NOINLINE uint64_t kern_pop(void *p)
{
	struct kern_ctx *c = p;
	struct krb_node *n;
	uint64_t h = 0;

	while ((n = c->q.leftmost) != NULL) {
		h = hash_step(h, dls_container_of(n, struct kern_ent,
						  node)->deadline);
		krb_erase_cached(n, &c->q);
	}
	return h;
}

static uint64_t kern_inorder(void *p)
{
	struct kern_ctx *c = p;
	uint64_t h = 0;

	for (struct krb_node *n = c->q.leftmost; n; n = krb_next(n))
		h = hash_step(h, dls_container_of(n, struct kern_ent,
						  node)->deadline);
	return h;
}

static bool kern_empty(void *p)
{
	struct kern_ctx *c = p;

	return !c->q.root.node && !c->q.leftmost;
}

static uint64_t kern_min(void *p)
{
	struct kern_ctx *c = p;

	return dls_container_of(c->q.leftmost, struct kern_ent,
				node)->deadline;
}

static void kern_teardown(void *p)
{
	struct kern_ctx *c = p;

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
	struct bsd_ctx *c = xcalloc(1, sizeof(*c));

	state_init(&c->st, n, pat, seed);
	c->ents = xcalloc(n, sizeof(*c->ents));
	RB_INIT(&c->q);
	return c;
}

static void bsd_fill(void *p)
{
	struct bsd_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		RB_INSERT(bsd_tree, &c->q, &c->ents[i]);
	}
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

static void bsd_load(void *p, const struct bkey *keys)
{
	struct bsd_ctx *c = p;

	RB_INIT(&c->q);
	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = keys[i].deadline;
		c->ents[i].seq = keys[i].seq;
	}
}

static BENCH_NOINLINE void bsd_build(void *p)
{
	struct bsd_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		RB_INSERT(bsd_tree, &c->q, &c->ents[i]);
}

static BENCH_NOINLINE void bsd_erase(void *p, const uint32_t *perm)
{
	struct bsd_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		RB_REMOVE(bsd_tree, &c->q, &c->ents[perm[i]]);
}

static BENCH_NOINLINE uint64_t bsd_pop(void *p)
{
	struct bsd_ctx *c = p;
	struct bsd_ent *e = RB_MIN(bsd_tree, &c->q);
	uint64_t h = 0;

	/* One RB_MIN, then RB_NEXT before each removal (O(1) amortized). */
	while (e) {
		struct bsd_ent *next = RB_NEXT(bsd_tree, &c->q, e);

		h = hash_step(h, e->deadline);
		RB_REMOVE(bsd_tree, &c->q, e);
		e = next;
	}
	return h;
}

static uint64_t bsd_inorder(void *p)
{
	struct bsd_ctx *c = p;
	struct bsd_ent *e;
	uint64_t h = 0;

	RB_FOREACH(e, bsd_tree, &c->q)
		h = hash_step(h, e->deadline);
	return h;
}

static bool bsd_empty(void *p)
{
	return RB_EMPTY(&((struct bsd_ctx *)p)->q);
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
	if (root && setjmp(ts_min_jmp) == 0)
		twalk(root, ts_min_visit);
	return (struct ts_ent *)ts_min_found;
}

static void *ts_setup(size_t n, enum pattern pat, uint64_t seed)
{
	struct ts_ctx *c = xcalloc(1, sizeof(*c));

	state_init(&c->st, n, pat, seed);
	c->ents = xcalloc(n, sizeof(*c->ents));
	return c;
}

static void ts_fill(void *p)
{
	struct ts_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = rnd_deadline(&c->st.rng);
		c->ents[i].seq = ++c->st.seq;
		if (!tsearch(&c->ents[i], &c->root, ts_cmp))
			abort();
	}
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

static void ts_free_node(void *nodep)
{
	(void)nodep; /* the entities live in ents[] */
}

static void ts_load(void *p, const struct bkey *keys)
{
	struct ts_ctx *c = p;

	if (c->root)
		tdestroy(c->root, ts_free_node);
	c->root = NULL;
	for (size_t i = 0; i < c->st.n; i++) {
		c->ents[i].deadline = keys[i].deadline;
		c->ents[i].seq = keys[i].seq;
	}
}

static BENCH_NOINLINE void ts_build(void *p)
{
	struct ts_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		if (!tsearch(&c->ents[i], &c->root, ts_cmp))
			abort();
}

static BENCH_NOINLINE void ts_erase(void *p, const uint32_t *perm)
{
	struct ts_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		tdelete(&c->ents[perm[i]], &c->root, ts_cmp);
}

static BENCH_NOINLINE uint64_t ts_pop(void *p)
{
	struct ts_ctx *c = p;
	struct ts_ent *e;
	uint64_t h = 0;

	while ((e = ts_min(c->root)) != NULL) {
		h = hash_step(h, e->deadline);
		tdelete(e, &c->root, ts_cmp);
	}
	return h;
}

static uint64_t ts_inorder_h;

static void ts_inorder_visit(const void *nodep, VISIT which, int depth)
{
	(void)depth;
	if (which == postorder || which == leaf)
		ts_inorder_h = hash_step(
			ts_inorder_h,
			(*(const struct ts_ent *const *)nodep)->deadline);
}

static uint64_t ts_inorder(void *p)
{
	struct ts_ctx *c = p;

	ts_inorder_h = 0;
	twalk(c->root, ts_inorder_visit);
	return ts_inorder_h;
}

static bool ts_empty(void *p)
{
	return ((struct ts_ctx *)p)->root == NULL;
}

static uint64_t ts_min_deadline(void *p)
{
	struct ts_ctx *c = p;

	return ts_min(c->root)->deadline;
}

static void ts_teardown(void *p)
{
	struct ts_ctx *c = p;

	if (c->root)
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
	const struct bkey *keys; /* build: the round's keys */
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
	struct heap_ctx *c = xcalloc(1, sizeof(*c));

	state_init(&c->st, n, pat, seed);
	c->a = xcalloc(n, sizeof(*c->a));
	c->pos = xcalloc(n, sizeof(*c->pos));
	return c;
}

static void heap_fill(void *p)
{
	struct heap_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++) {
		struct heap_slot s = { rnd_deadline(&c->st.rng), ++c->st.seq,
				       i };

		heap_insert(c, s);
	}
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

static void heap_load(void *p, const struct bkey *keys)
{
	struct heap_ctx *c = p;

	c->len = 0;
	c->keys = keys;
}

static BENCH_NOINLINE void heap_build(void *p)
{
	struct heap_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++) {
		struct heap_slot s = { c->keys[i].deadline, c->keys[i].seq,
				       i };

		heap_insert(c, s);
	}
}

static BENCH_NOINLINE void heap_erase_all(void *p, const uint32_t *perm)
{
	struct heap_ctx *c = p;

	for (size_t i = 0; i < c->st.n; i++)
		heap_erase(c, c->pos[perm[i]]);
}

static BENCH_NOINLINE uint64_t heap_pop(void *p)
{
	struct heap_ctx *c = p;
	uint64_t h = 0;

	while (c->len) {
		h = hash_step(h, c->a[0].deadline);
		heap_erase(c, 0);
	}
	return h;
}

static int slot_cmp(const void *x, const void *y)
{
	const struct heap_slot *a = x, *b = y;

	return key_cmp_branchy(a->deadline, a->seq, b->deadline, b->seq);
}

static uint64_t heap_inorder(void *p)
{
	struct heap_ctx *c = p;
	struct heap_slot *copy = xcalloc(c->len, sizeof(*copy));
	uint64_t h = 0;

	memcpy(copy, c->a, c->len * sizeof(*copy));
	qsort(copy, c->len, sizeof(*copy), slot_cmp);
	for (size_t i = 0; i < c->len; i++)
		h = hash_step(h, copy[i].deadline);
	free(copy);
	return h;
}

static bool heap_empty(void *p)
{
	return ((struct heap_ctx *)p)->len == 0;
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
	void (*fill)(void *ctx);              /* (a), (b): fill from ctx rng */
	void (*run)(void *ctx, uint64_t ops); /* (a), (b): steady ops */
	void (*load)(void *ctx, const struct bkey *keys); /* empty, set keys */
	void (*build)(void *ctx);             /* insert entities 0..n-1 */
	void (*erase)(void *ctx, const uint32_t *perm); /* erase all */
	uint64_t (*pop)(void *ctx);           /* drain by minimum: hash */
	uint64_t (*inorder)(void *ctx);       /* untimed: in-order hash */
	bool (*empty)(void *ctx);
	uint64_t (*min)(void *ctx);
	void (*teardown)(void *ctx);
};

static const struct impl impls[] = {
	{ "ours", our_setup, our_fill, our_run, our_load, our_build,
	  our_erase, our_pop, our_inorder, our_empty, our_min, our_teardown },
	{ "ours-l", our_setup, our_fill, ourl_run, our_load, ourl_build,
	  ourl_erase, ourl_pop, our_inorder, our_empty, our_min, our_teardown },
	{ "kern", kern_setup, kern_fill, kern_run, kern_load, kern_build,
	  kern_erase, kern_pop, kern_inorder, kern_empty, kern_min,
	  kern_teardown },
#ifdef HAVE_LIBBSD_TREE
	{ "libbsd", bsd_setup, bsd_fill, bsd_run, bsd_load, bsd_build,
	  bsd_erase, bsd_pop, bsd_inorder, bsd_empty, bsd_min, bsd_teardown },
#endif
	{ "tsearch", ts_setup, ts_fill, ts_run, ts_load, ts_build, ts_erase,
	  ts_pop, ts_inorder, ts_empty, ts_min_deadline, ts_teardown },
	{ "heap", heap_setup, heap_fill, heap_run, heap_load, heap_build,
	  heap_erase_all, heap_pop, heap_inorder, heap_empty, heap_min,
	  heap_teardown },
};
#define NIMPL (sizeof(impls) / sizeof(impls[0]))

/* ------------------------------------------------------------------------ */
/* Rounds of build, erase and pop: keys and orders drawn by the driver.      */

/* Keys and erase order of one round, the same for every implementation. */
struct round {
	size_t n;
	struct bkey *keys;
	uint32_t *perm;
};

static void round_draw(struct round *r, enum pattern pat, uint64_t seed)
{
	struct rng g = { seed };
	uint64_t d = rnd_deadline(&g);

	for (size_t i = 0; i < r->n; i++) {
		/* Ordered keys: random gaps below 2^20 from a random start. */
		if (pat == PAT_BUILD_ASC)
			d += 1 + (rng_next(&g) >> 44);
		else if (pat == PAT_BUILD_DESC)
			d -= 1 + (rng_next(&g) >> 44);
		else
			d = rnd_deadline(&g);
		r->keys[i].deadline = d;
		r->keys[i].seq = i + 1;
		r->perm[i] = (uint32_t)i;
	}
	for (size_t i = r->n; i > 1; i--) { /* Fisher-Yates */
		size_t j = (size_t)rng_below(&g, i);
		uint32_t t = r->perm[i - 1];

		r->perm[i - 1] = r->perm[j];
		r->perm[j] = t;
	}
}

/* Seed of round @p k of repetition @p rep (rep -1 is the warm-up). */
static uint64_t round_seed(uint64_t seed, enum pattern pat, int rep,
			   size_t k)
{
	if (pat == PAT_BUILD_REP)
		rep = 0, k = 0;
	return seed ^ ((uint64_t)(rep + 2) << 40) ^
	       ((uint64_t)k * UINT64_C(0x9e3779b97f4a7c15));
}

/* Result of one implementation's rounds, for the cross-checks. */
struct round_result {
	uint64_t hash; /* build: in-order hash; pop: drain hash; of all rounds */
	bool all_empty;
};

/*
 * Run one round of @p pat on @p ctx with the keys and order in @p r;
 * returns the timed nanoseconds (the clock reading minus @p clock_ns).
 */
static double run_round(const struct impl *im, void *ctx, enum pattern pat,
			const struct round *r, double clock_ns,
			struct round_result *res)
{
	double t0, t1;

	im->load(ctx, r->keys);
	if (pat_is_build(pat)) {
		t0 = now_ns();
		im->build(ctx);
		t1 = now_ns();
		res->hash = hash_step(res->hash, im->inorder(ctx));
	} else {
		im->build(ctx);
		t0 = now_ns();
		if (pat == PAT_ERASE) {
			im->erase(ctx, r->perm);
			t1 = now_ns();
		} else {
			uint64_t h = im->pop(ctx);

			t1 = now_ns();
			res->hash = hash_step(res->hash, h);
		}
		if (!im->empty(ctx))
			res->all_empty = false;
	}
	return t1 - t0 - clock_ns;
}

static uint64_t ops_for(size_t n, enum pattern pat)
{
	if (pat > PAT_B)
		return n >= 200000 ? n : (200000 / n) * n;
	if (n <= 16384)
		return 200000;
	if (n <= 65536)
		return 100000;
	return 30000;
}

/* Median cost of one now_ns() reading, subtracted from each timed round. */
static double clock_cost(void)
{
	double v[101];

	for (int i = 0; i < 101; i++) {
		double t0 = now_ns(), t1;

		for (int k = 0; k < 99; k++)
			(void)now_ns();
		t1 = now_ns();
		v[i] = (t1 - t0) / 100;
	}
	return median(v, 101);
}

static int run_fixed(uint64_t ops, const char *impl, enum pattern pat,
		     size_t n, uint64_t seed)
{
	for (size_t i = 0; i < NIMPL; i++) {
		const struct impl *im = &impls[i];
		void *ctx;

		if (strcmp(im->name, impl) != 0)
			continue;
		ctx = im->setup(n, pat, seed);
		if (pat <= PAT_B) {
			im->fill(ctx);
			im->run(ctx, ops);
			printf("%s pattern %s n %zu ops %" PRIu64
			       " checksum %016" PRIx64 " min %016" PRIx64 "\n",
			       impl, pattern_names[pat], n, ops,
			       ((struct run_state *)ctx)->checksum,
			       im->min(ctx));
		} else {
			struct round r = { n, xcalloc(n, sizeof(*r.keys)),
					   xcalloc(n, sizeof(*r.perm)) };
			struct round_result res = { 0, true };
			size_t rounds = (size_t)(ops / n);

			for (size_t k = 0; k < rounds; k++) {
				round_draw(&r, pat, round_seed(seed, pat, 0, k));
				run_round(im, ctx, pat, &r, 0, &res);
			}
			printf("%s pattern %s n %zu ops %zu checksum %016" PRIx64
			       "%s\n",
			       impl, pattern_names[pat], n, rounds * n,
			       res.hash,
			       pat_is_build(pat) || res.all_empty
				       ? "" : " NOT EMPTY");
			free(r.keys);
			free(r.perm);
		}
		im->teardown(ctx);
		return 0;
	}
	fprintf(stderr, "unknown --impl %s\n", impl);
	return 2;
}

/* Ops per timed chunk of (a) and (b). */
#define STEADY_CHUNK 10000

/*
 * One table row: every implementation on one pattern and size. The
 * implementations take turns chunk by chunk (STEADY_CHUNK ops of (a) or
 * (b), one round of the others), so a burst of load from elsewhere on the
 * machine lands on one chunk of one of them, and the median of all chunks
 * leaves it out.
 */
static int run_row(enum pattern pat, size_t n, int reps, uint64_t seed,
		   double clock_ns)
{
	void *ctx[NIMPL];
	double *t[NIMPL], med[NIMPL];
	struct round_result res[NIMPL];
	uint64_t ops = ops_for(n, pat);
	uint64_t chunk = pat <= PAT_B ? STEADY_CHUNK : n;
	size_t chunks = (size_t)(ops / chunk), samples = 0;
	struct round r = { n, NULL, NULL };
	int mismatches = 0;

	if (pat > PAT_B) {
		r.keys = xcalloc(n, sizeof(*r.keys));
		r.perm = xcalloc(n, sizeof(*r.perm));
	}
	for (size_t i = 0; i < NIMPL; i++) {
		ctx[i] = impls[i].setup(n, pat, seed);
		if (pat <= PAT_B)
			impls[i].fill(ctx[i]);
		res[i] = (struct round_result){ 0, true };
		t[i] = xcalloc((size_t)reps * chunks, sizeof(double));
	}
	for (int rep = -1; rep < reps; rep++) {
		for (size_t k = 0; k < chunks; k++) {
			for (size_t i = 0; i < NIMPL; i++) {
				double ns;

				if (pat <= PAT_B) {
					double t0 = now_ns();

					impls[i].run(ctx[i], chunk);
					ns = now_ns() - t0 - clock_ns;
				} else {
					round_draw(&r, pat,
						   round_seed(seed, pat, rep, k));
					ns = run_round(&impls[i], ctx[i], pat,
						       &r, clock_ns, &res[i]);
				}
				if (rep >= 0)
					t[i][samples] = ns / (double)chunk;
			}
			if (rep >= 0)
				samples++;
		}
	}
	for (size_t i = 0; i < NIMPL; i++) {
		bool same;

		med[i] = median(t[i], (int)samples);
		if (pat <= PAT_B)
			same = ((struct run_state *)ctx[i])->checksum ==
				       ((struct run_state *)ctx[0])->checksum &&
			       impls[i].min(ctx[i]) == impls[0].min(ctx[0]);
		else
			same = res[i].hash == res[0].hash && res[i].all_empty;
		if (!same) {
			fprintf(stderr,
				"MISMATCH: %s disagrees with ours at n=%zu "
				"pattern %s\n",
				impls[i].name, n, pattern_names[pat]);
			mismatches++;
		}
	}
	for (size_t i = 0; i < NIMPL; i++) {
		impls[i].teardown(ctx[i]);
		free(t[i]);
	}
	free(r.keys);
	free(r.perm);
	printf("%-10s %8zu", pattern_names[pat], n);
	for (size_t i = 0; i < NIMPL; i++)
		printf(" %8.1f", med[i]);
	for (size_t i = 1; i < NIMPL; i++)
		printf(" %7.2fx", med[0] / med[i]);
	printf("\n");
	fflush(stdout);
	return mismatches;
}

static const size_t sizes[] = { 64, 1024, 16384, 1048576 };

static int parse_pattern(const char *s)
{
	for (int p = 0; p < PAT_COUNT; p++)
		if (!strcmp(s, pattern_names[p]))
			return p;
	return -1;
}

int main(int argc, char **argv)
{
	size_t max_n = 1048576, fixed_n = 1024;
	uint64_t seed = 0x0edf5eedULL, fixed_ops = 0;
	int reps = 5, fixed_pat = PAT_A, only_pat = -1;
	const char *fixed_impl = NULL;
	int mismatches = 0;
	double clock_ns;

	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "%s needs a value\n", a);
			return 2;
		}
		if (!strcmp(a, "--max-n")) {
			max_n = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--reps")) {
			reps = atoi(v);
		} else if (!strcmp(a, "--seed")) {
			seed = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--ops")) {
			fixed_ops = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--impl")) {
			fixed_impl = v;
		} else if (!strcmp(a, "--pattern")) {
			fixed_pat = only_pat = parse_pattern(v);
			if (fixed_pat < 0) {
				fprintf(stderr, "unknown --pattern %s (a, b, "
					"build, build-asc, build-desc, "
					"build-rep, erase or pop)\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--n")) {
			fixed_n = strtoull(v, NULL, 0);
		} else {
			fprintf(stderr, "unknown option %s\n", a);
			return 2;
		}
	}
	if (fixed_n < 1 || fixed_n > UINT32_MAX) {
		fprintf(stderr, "--n %zu out of range [1, 2^32)\n", fixed_n);
		return 2;
	}
	if (fixed_impl)
		return run_fixed(fixed_ops, fixed_impl, (enum pattern)fixed_pat,
				 fixed_n, seed);
	if (reps < 1 || reps > 99) {
		fprintf(stderr, "--reps %d out of range [1, 99]\n", reps);
		return 2;
	}

	clock_ns = clock_cost();
	printf("red-black tree patterns (EDF runqueue); median of %d runs "
	       "(after one warm-up), seed 0x%" PRIx64 "\n"
	       "a: pop earliest + reinsert at deadline + period; b: erase "
	       "random + reinsert (op = erase + insert)\n"
	       "build: insert n from empty; erase: drain in random order; "
	       "pop: drain by earliest (op = one insert or erase)\n"
	       "build/erase/pop rounds are timed one by one, less the clock's "
	       "own %.1f ns per reading\n\n",
	       reps, seed, clock_ns);
	printf("%-10s %8s", "pattern", "n");
	for (size_t i = 0; i < NIMPL; i++)
		printf(" %8s", impls[i].name);
	for (size_t i = 1; i < NIMPL; i++) {
		char h[32];

		snprintf(h, sizeof(h), "/%s", impls[i].name);
		printf(" %8s", h);
	}
	printf("\n%-10s %8s", "", "");
	for (size_t i = 0; i < NIMPL; i++)
		printf(" %8s", "ns/op");
	printf("\n");

	for (int pat = 0; pat < PAT_COUNT; pat++) {
		if (only_pat >= 0 && pat != only_pat)
			continue;
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]);
		     si++) {
			if (sizes[si] > max_n)
				break;
			mismatches += run_row((enum pattern)pat, sizes[si],
					      reps, seed, clock_ns);
		}
	}
	printf("\nns/op: median wall time per op; /peer: ours divided by the "
	       "peer (< 1 = ours faster).\n"
	       "kern: Linux lib/rbtree.c's algorithm (bench/krbtree.h). "
	       "tsearch finds the minimum with twalk() + longjmp "
	       "(O(depth));\nlibbsd (a) uses RB_MIN, its pop one RB_MIN then "
	       "RB_NEXT.\n");
	return mismatches ? 1 : 0;
}
