/*
 * CPU masks: exact outcomes at word boundaries, randomized operations
 * against a bool-array model, the atomic variants (single-threaded exact,
 * then threaded: concurrent bit toggles and the overload publish protocol).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/cpumask.h>

#include "atomic_impl.h"
#include "dls_test.h"

static const int sizes[] = { 1, 63, 64, 65, 128, 4096 };
#define NR_SIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static struct dls_cpumask *mask_new(int nr)
{
	size_t sz = dls_cpumask_size(nr);
	struct dls_cpumask *m = malloc(sz);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	/* Garbage first: init must clear every word. */
	memset(m, 0xa5, sz);
	DLS_ASSERT_EQ_S64(dls_cpumask_init(m, sz, nr), 0);
	DLS_ASSERT_VALID(dls_cpumask_check(m));
	return m;
}

static void test_size(void)
{
	DLS_ASSERT_EQ_U64(dls_cpumask_size(0), 0);
	DLS_ASSERT_EQ_U64(dls_cpumask_size(-1), 0);
	DLS_ASSERT_EQ_U64(dls_cpumask_size(DLS_CPUMASK_MAX_CPUS + 1), 0);
	if (sizeof(unsigned long) == 8) {
		DLS_ASSERT_EQ_S64(DLS_CPUMASK_WORD_BITS, 64);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(1), 16);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(63), 16);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(64), 16);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(65), 24);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(128), 24);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(4096), 8 + 512);
	} else {
		DLS_ASSERT_EQ_S64(DLS_CPUMASK_WORD_BITS, 32);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(1), 12);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(32), 12);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(33), 16);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(64), 16);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(65), 20);
		DLS_ASSERT_EQ_U64(dls_cpumask_size(4096), 8 + 512);
	}
	/* The constant-expression macro agrees with the function. */
	DLS_ASSERT_EQ_U64(DLS_CPUMASK_SIZE(4096), dls_cpumask_size(4096));
	DLS_ASSERT_EQ_U64(DLS_CPUMASK_SIZE(65), dls_cpumask_size(65));
}

static void test_init_errors(void)
{
	unsigned long buf[8];
	struct dls_cpumask *m = (struct dls_cpumask *)(void *)buf;

	DLS_ASSERT_EQ_S64(dls_cpumask_init(NULL, sizeof(buf), 4), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_cpumask_init(m, sizeof(buf), 0), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_cpumask_init(m, dls_cpumask_size(65) - 1, 65),
			  DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_cpumask_init((struct dls_cpumask *)(void *)
					   ((char *)buf + 1), 32, 4), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_cpumask_init(m, dls_cpumask_size(65), 65), 0);
	DLS_ASSERT_EQ_U64(m->nr_cpus, 65);
}

/* Exact outcomes around the word boundaries of each size. */
static void test_boundaries(void)
{
	for (int s = 0; s < NR_SIZES; s++) {
		int nr = sizes[s];
		struct dls_cpumask *m = mask_new(nr);
		/* Candidate CPUs at the edges of words; keep those < nr. */
		const int cand[] = { 0, 1, 31, 32, 62, 63, 64, 65, 127, 128,
				     4000, 4095 };
		int want[16], nw = 0, cpu, i;

		DLS_ASSERT_EQ_S64(dls_cpumask_first(m), -1);
		CU_ASSERT_TRUE(dls_cpumask_empty(m));
		DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), 0);
		for (i = 0; i < (int)(sizeof(cand) / sizeof(cand[0])); i++)
			if (cand[i] < nr) {
				dls_cpumask_set(m, cand[i]);
				want[nw++] = cand[i];
			}
		DLS_ASSERT_VALID(dls_cpumask_check(m));
		DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), nw);
		CU_ASSERT_FALSE(dls_cpumask_empty(m));
		/* Iteration visits exactly the candidates, ascending. */
		i = 0;
		dls_cpumask_for_each(cpu, m) {
			CU_ASSERT_FATAL(i < nw);
			DLS_ASSERT_EQ_S64(cpu, want[i]);
			i++;
		}
		DLS_ASSERT_EQ_S64(i, nw);
		/* Every non-candidate tests false. */
		for (cpu = 0, i = 0; cpu < nr; cpu++) {
			bool in = i < nw && want[i] == cpu;

			CU_ASSERT_EQUAL_FATAL(dls_cpumask_test(m, cpu), in);
			if (in)
				i++;
		}
		/* next at the ends. */
		DLS_ASSERT_EQ_S64(dls_cpumask_next(m, nr - 1), -1);
		DLS_ASSERT_EQ_S64(dls_cpumask_next(m, -1), 0);
		DLS_ASSERT_EQ_S64(dls_cpumask_scan(m, nr), -1);
		DLS_ASSERT_EQ_S64(dls_cpumask_scan(m, nr + 1000), -1);
		dls_cpumask_set(m, nr - 1);
		DLS_ASSERT_EQ_S64(dls_cpumask_scan(m, nr - 1), nr - 1);
		if (nr > 1) {
			DLS_ASSERT_EQ_S64(dls_cpumask_next(m, nr - 2), nr - 1);
			dls_cpumask_clear(m, 0);
			DLS_ASSERT_EQ_S64(dls_cpumask_first(m), nw > 1 ? want[1] : nr - 1);
		}

		/* fill sets exactly nr CPUs and nothing beyond. */
		dls_cpumask_fill(m);
		DLS_ASSERT_VALID(dls_cpumask_check(m));
		DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), nr);
		DLS_ASSERT_EQ_S64(dls_cpumask_first(m), 0);
		DLS_ASSERT_EQ_S64(dls_cpumask_next(m, nr - 2), nr - 1);
		DLS_ASSERT_EQ_S64(dls_cpumask_next(m, nr - 1), -1);
		dls_cpumask_clear(m, nr - 1);
		DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), nr - 1);
		CU_ASSERT_FALSE(dls_cpumask_test(m, nr - 1));
		dls_cpumask_zero(m);
		CU_ASSERT_TRUE(dls_cpumask_empty(m));
		free(m);
	}
}

/* Binary operations with hand-picked operands at 65 CPUs (two words). */
static void test_binary_exact(void)
{
	struct dls_cpumask *a = mask_new(65), *b = mask_new(65), *d = mask_new(65);
	int cpu;

	dls_cpumask_set(a, 0);
	dls_cpumask_set(a, 63);
	dls_cpumask_set(a, 64);
	dls_cpumask_set(b, 63);
	dls_cpumask_set(b, 5);

	CU_ASSERT_TRUE(dls_cpumask_and(d, a, b));
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(d), 1);
	CU_ASSERT_TRUE(dls_cpumask_test(d, 63));
	DLS_ASSERT_EQ_S64(dls_cpumask_first_and(a, b), 63);
	DLS_ASSERT_EQ_S64(dls_cpumask_next_and(a, b, 63), -1);

	dls_cpumask_or(d, a, b);
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(d), 4);
	CU_ASSERT_TRUE(dls_cpumask_test(d, 5) && dls_cpumask_test(d, 64));
	CU_ASSERT_TRUE(dls_cpumask_subset(a, d));
	CU_ASSERT_TRUE(dls_cpumask_subset(b, d));
	CU_ASSERT_FALSE(dls_cpumask_subset(d, a));

	CU_ASSERT_TRUE(dls_cpumask_andnot(d, a, b));
	DLS_ASSERT_EQ_S64(dls_cpumask_first(d), 0);
	DLS_ASSERT_EQ_S64(dls_cpumask_next(d, 0), 64);
	DLS_ASSERT_EQ_S64(dls_cpumask_next(d, 64), -1);
	CU_ASSERT_FALSE(dls_cpumask_andnot(d, b, b));
	CU_ASSERT_TRUE(dls_cpumask_empty(d));

	CU_ASSERT_TRUE(dls_cpumask_intersects(a, b));
	dls_cpumask_clear(b, 63);
	CU_ASSERT_FALSE(dls_cpumask_intersects(a, b));
	CU_ASSERT_FALSE(dls_cpumask_and(d, a, b));
	DLS_ASSERT_EQ_S64(dls_cpumask_first_and(a, b), -1);

	dls_cpumask_copy(d, a);
	CU_ASSERT_TRUE(dls_cpumask_equal(d, a));
	CU_ASSERT_FALSE(dls_cpumask_equal(d, b));
	/* dst aliasing an operand. */
	dls_cpumask_set(b, 64);
	dls_cpumask_and(a, a, b);
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(a), 1);
	CU_ASSERT_TRUE(dls_cpumask_test(a, 64));

	/* for_each_and over the intersection, ascending. */
	dls_cpumask_fill(a);
	int seen[3], n = 0;
	dls_cpumask_for_each_and(cpu, a, b) {
		CU_ASSERT_FATAL(n < 3);
		seen[n++] = cpu;
	}
	DLS_ASSERT_EQ_S64(n, 2);
	DLS_ASSERT_EQ_S64(seen[0], 5);
	DLS_ASSERT_EQ_S64(seen[1], 64);
	free(a);
	free(b);
	free(d);
}

static void test_check_detects(void)
{
	const int W = DLS_CPUMASK_WORD_BITS;
	struct dls_cpumask *m = mask_new(65);

	/* CPU 65 does not exist (word-size independent positions). */
	m->bits[65 / W] |= (dls_cpumask_word_t)1 << (65 % W);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dls_cpumask_check(m));
	CU_ASSERT_STRING_EQUAL(dls_cpumask_check(m), "bit set at or above nr_cpus");
	m->bits[65 / W] = (dls_cpumask_word_t)1 << (64 % W);
	DLS_ASSERT_VALID(dls_cpumask_check(m));
	m->nr_words = DLS_CPUMASK_WORDS(65) + 1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(dls_cpumask_check(m));
	CU_ASSERT_STRING_EQUAL(dls_cpumask_check(m), "nr_words does not match nr_cpus");
	free(m);
	CU_ASSERT_STRING_EQUAL(dls_cpumask_check(NULL), "mask is NULL");
}

/* ---- randomized operations against a bool-array model ------------------ */

struct model {
	int nr;
	bool *b;
};

static void model_check(const struct model *md, const struct dls_cpumask *m)
{
	int w = 0, first = -1, cpu, prev = -1;

	DLS_ASSERT_VALID(dls_cpumask_check(m));
	for (cpu = 0; cpu < md->nr; cpu++) {
		CU_ASSERT_EQUAL_FATAL(dls_cpumask_test(m, cpu), md->b[cpu]);
		if (md->b[cpu]) {
			w++;
			if (first < 0)
				first = cpu;
		}
	}
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), w);
	DLS_ASSERT_EQ_S64(dls_cpumask_first(m), first);
	CU_ASSERT_EQUAL_FATAL(dls_cpumask_empty(m), w == 0);
	/* Iteration yields exactly the model's CPUs, in order. */
	dls_cpumask_for_each(cpu, m) {
		CU_ASSERT_FATAL(cpu > prev && md->b[cpu]);
		for (int k = prev + 1; k < cpu; k++)
			CU_ASSERT_FATAL(!md->b[k]);
		prev = cpu;
	}
	for (int k = prev + 1; k < md->nr; k++)
		CU_ASSERT_FATAL(!md->b[k]);
}

static void random_masks(int nr, struct dls_test_rng *rng, uint64_t ops)
{
	struct dls_cpumask *m[3];
	struct model md[3];
	bool *tmp = malloc((size_t)nr);

	for (int i = 0; i < 3; i++) {
		m[i] = mask_new(nr);
		md[i].nr = nr;
		md[i].b = calloc((size_t)nr, 1);
	}
	for (uint64_t op = 0; op < ops; op++) {
		int x = (int)dls_test_rng_below(rng, 3);
		int y = (int)dls_test_rng_below(rng, 3);
		int z = (int)dls_test_rng_below(rng, 3);
		int cpu = (int)dls_test_rng_below(rng, (uint64_t)nr);
		bool any = false, r;

		switch (dls_test_rng_below(rng, 12)) {
		case 0: case 1: case 2:
			dls_cpumask_set(m[x], cpu);
			md[x].b[cpu] = true;
			break;
		case 3: case 4:
			dls_cpumask_clear(m[x], cpu);
			md[x].b[cpu] = false;
			break;
		case 5:
			r = dls_cpumask_and(m[x], m[y], m[z]);
			for (int c = 0; c < nr; c++)
				any |= tmp[c] = md[y].b[c] && md[z].b[c];
			memcpy(md[x].b, tmp, (size_t)nr);
			CU_ASSERT_EQUAL_FATAL(r, any);
			break;
		case 6:
			dls_cpumask_or(m[x], m[y], m[z]);
			for (int c = 0; c < nr; c++)
				tmp[c] = md[y].b[c] || md[z].b[c];
			memcpy(md[x].b, tmp, (size_t)nr);
			break;
		case 7:
			r = dls_cpumask_andnot(m[x], m[y], m[z]);
			for (int c = 0; c < nr; c++)
				any |= tmp[c] = md[y].b[c] && !md[z].b[c];
			memcpy(md[x].b, tmp, (size_t)nr);
			CU_ASSERT_EQUAL_FATAL(r, any);
			break;
		case 8:
			dls_cpumask_copy(m[x], m[y]);
			memcpy(md[x].b, md[y].b, (size_t)nr);
			break;
		case 9: {
			bool eq = true, sub = true, inter = false;
			int fa = -1, na = -1;

			for (int c = 0; c < nr; c++) {
				eq &= md[x].b[c] == md[y].b[c];
				sub &= !md[x].b[c] || md[y].b[c];
				if (md[x].b[c] && md[y].b[c]) {
					inter = true;
					if (fa < 0)
						fa = c;
					if (c > cpu && na < 0)
						na = c;
				}
			}
			CU_ASSERT_EQUAL_FATAL(dls_cpumask_equal(m[x], m[y]), eq);
			CU_ASSERT_EQUAL_FATAL(dls_cpumask_subset(m[x], m[y]), sub);
			CU_ASSERT_EQUAL_FATAL(dls_cpumask_intersects(m[x], m[y]), inter);
			DLS_ASSERT_EQ_S64(dls_cpumask_first_and(m[x], m[y]), fa);
			DLS_ASSERT_EQ_S64(dls_cpumask_next_and(m[x], m[y], cpu), na);
			break;
		}
		case 10: {
			int nx = -1;

			for (int c = cpu + 1; c < nr && nx < 0; c++)
				if (md[x].b[c])
					nx = c;
			DLS_ASSERT_EQ_S64(dls_cpumask_next(m[x], cpu), nx);
			DLS_ASSERT_EQ_S64(dls_cpumask_next_atomic(m[x], cpu), nx);
			DLS_ASSERT_EQ_S64(dls_cpumask_scan(m[x], cpu + 1), nx);
			break;
		}
		default:
			if (dls_test_rng_below(rng, 8) == 0) {
				dls_cpumask_fill(m[x]);
				memset(md[x].b, 1, (size_t)nr);
			} else if (dls_test_rng_below(rng, 4) == 0) {
				dls_cpumask_zero(m[x]);
				memset(md[x].b, 0, (size_t)nr);
			}
			break;
		}
		model_check(&md[x], m[x]);
	}
	for (int i = 0; i < 3; i++) {
		model_check(&md[i], m[i]);
		free(m[i]);
		free(md[i].b);
	}
	free(tmp);
}

static void test_random(void)
{
	struct dls_test_rng rng;

	dls_test_rng_seed(&rng, dls_test_seed("cpumask random", 0x5eed0401));
	for (int s = 0; s < NR_SIZES; s++) {
		int nr = sizes[s];
		/* model_check is O(nr): keep the 4096 run shorter. */
		uint64_t ops = nr >= 4096 ? 3000 : 30000;

		random_masks(nr, &rng, dls_test_scaled(ops));
	}
}

/* ---- atomic variants ---------------------------------------------------- */

static void test_atomic_single(void)
{
	struct dls_cpumask *m = mask_new(130);

	CU_ASSERT_FALSE(dls_cpumask_test_and_set_atomic(m, 129));
	CU_ASSERT_TRUE(dls_cpumask_test_and_set_atomic(m, 129));
	CU_ASSERT_TRUE(dls_cpumask_test_atomic(m, 129));
	CU_ASSERT_TRUE(dls_cpumask_test(m, 129));
	dls_cpumask_set_atomic(m, 64);
	dls_cpumask_set_atomic(m, 0);
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), 3);
	DLS_ASSERT_EQ_S64(dls_cpumask_next_atomic(m, -1), 0);
	DLS_ASSERT_EQ_S64(dls_cpumask_next_atomic(m, 0), 64);
	DLS_ASSERT_EQ_S64(dls_cpumask_next_atomic(m, 64), 129);
	DLS_ASSERT_EQ_S64(dls_cpumask_next_atomic(m, 129), -1);
	dls_cpumask_clear_atomic(m, 64);
	CU_ASSERT_FALSE(dls_cpumask_test_atomic(m, 64));
	CU_ASSERT_TRUE(dls_cpumask_test_and_clear_atomic(m, 0));
	CU_ASSERT_FALSE(dls_cpumask_test_and_clear_atomic(m, 0));
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(m), 1);
	DLS_ASSERT_VALID(dls_cpumask_check(m));
	free(m);
}

/* The wrapper's own operations (this file compiles the C11 backend). */
static void test_atomic_wrapper(void)
{
	dls__atomic_word w = 0, e;

	printf("[atomics] test backend: %s\n", DLS_ATOMIC_BACKEND);
	DLS_ASSERT_EQ_U64(dls__atomic_fetch_add(&w, 5), 0);
	DLS_ASSERT_EQ_U64(dls__atomic_fetch_sub(&w, 2), 5);
	DLS_ASSERT_EQ_U64(dls__atomic_load_acquire(&w), 3);
	dls__atomic_or(&w, 0x10);
	DLS_ASSERT_EQ_U64(dls__atomic_load(&w), 0x13);
	dls__atomic_and(&w, ~(dls__atomic_word)1);
	DLS_ASSERT_EQ_U64(w, 0x12);
	DLS_ASSERT_EQ_U64(dls__atomic_fetch_or(&w, 0x1), 0x12);
	DLS_ASSERT_EQ_U64(dls__atomic_fetch_and(&w, 0x3), 0x13);
	e = 7;
	CU_ASSERT_FALSE(dls__atomic_cas(&w, &e, 9));
	DLS_ASSERT_EQ_U64(e, 3);
	CU_ASSERT_TRUE(dls__atomic_cas(&w, &e, 9));
	dls__atomic_store_release(&w, 4);
	dls__atomic_fence();
	DLS_ASSERT_EQ_U64(dls__atomic_load(&w), 4);
	dls__atomic_store(&w, 0);
	DLS_ASSERT_EQ_U64(dls__atomic_fetch_sub(&w, 1), 0);
	DLS_ASSERT_EQ_U64(w, ~(dls__atomic_word)0);
}

#define NTHREADS 4
#define OVL_CPUS 130 /* three words on 64-bit hosts, five on 32-bit */

struct ovl {
	struct dls_cpumask *mask;
	dls__atomic_word count;
	dls__atomic_word phase; /* publish test: round number, odd = clearing */
	dls__atomic_word acks;
	uint64_t iters;
	uint64_t seed;
};

struct ovl_thread {
	struct ovl *o;
	int id;
	bool state[OVL_CPUS];
	long tally;
};

/* The domain's overload protocol (src/atomic_impl.h): bit, then count. */
static void ovl_set(struct ovl *o, int cpu)
{
	dls_cpumask_set_atomic(o->mask, cpu);
	dls__atomic_fetch_add(&o->count, 1);
}

static void ovl_clear(struct ovl *o, int cpu)
{
	dls__atomic_fetch_sub(&o->count, 1);
	dls_cpumask_clear_atomic(o->mask, cpu);
}

/* Each thread toggles its own CPUs (c % NTHREADS == id); words are shared. */
static void *toggle_main(void *arg)
{
	struct ovl_thread *t = arg;
	struct dls_test_rng rng;

	dls_test_rng_seed(&rng, t->o->seed + (uint64_t)t->id);
	for (uint64_t i = 0; i < t->o->iters; i++) {
		int k = (int)dls_test_rng_below(&rng, OVL_CPUS / NTHREADS);
		int cpu = k * NTHREADS + t->id;

		if (!t->state[cpu]) {
			ovl_set(t->o, cpu);
			t->tally++;
		} else {
			ovl_clear(t->o, cpu);
			t->tally--;
		}
		t->state[cpu] = !t->state[cpu];
		/* Our own bit is never disturbed by the others' updates. */
		if (dls_cpumask_test_atomic(t->o->mask, cpu) != t->state[cpu])
			return "own bit lost";
	}
	return NULL;
}

static void test_atomic_threads_toggle(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();

	struct ovl o = { .mask = mask_new(OVL_CPUS), .count = 0 };
	struct ovl_thread th[NTHREADS];
	pthread_t tid[NTHREADS];
	long total = 0;

	o.iters = dls_test_scaled(200000);
	o.seed = dls_test_seed("cpumask atomic toggle", 0x5eed0402);
	memset(th, 0, sizeof(th));
	for (int i = 0; i < NTHREADS; i++) {
		th[i].o = &o;
		th[i].id = i;
		CU_ASSERT_FATAL(pthread_create(&tid[i], NULL, toggle_main, &th[i]) == 0);
	}
	for (int i = 0; i < NTHREADS; i++) {
		void *ret;

		pthread_join(tid[i], &ret);
		if (ret)
			fprintf(stderr, "thread %d: %s\n", i, (const char *)ret);
		CU_ASSERT_PTR_NULL(ret);
		total += th[i].tally;
	}
	/* No lost update: every bit is what its owner last wrote. */
	for (int cpu = 0; cpu < OVL_CPUS; cpu++)
		CU_ASSERT_EQUAL_FATAL(dls_cpumask_test(o.mask, cpu),
				      th[cpu % NTHREADS].state[cpu]);
	DLS_ASSERT_EQ_S64(dls_cpumask_weight(o.mask), total);
	DLS_ASSERT_EQ_U64(o.count, (uint64_t)total);
	DLS_ASSERT_VALID(dls_cpumask_check(o.mask));
	free(o.mask);
}

static void spin_until(dls__atomic_word *p, dls__atomic_word v)
{
	while (dls__atomic_load_acquire(p) != v)
		sched_yield();
}

/*
 * Publish protocol: in round r every writer sets its bit and counts it,
 * then waits; the reader, once it sees the full count, must see every bit.
 * Then the writers uncount and clear, and the reader sees both go to zero.
 */
static void *publish_writer(void *arg)
{
	struct ovl_thread *t = arg;
	struct ovl *o = t->o;
	int cpu = 33 * t->id; /* two per word on 64-bit hosts */

	for (uint64_t r = 0; r < o->iters; r++) {
		spin_until(&o->phase, 2 * r);
		ovl_set(o, cpu);
		spin_until(&o->phase, 2 * r + 1);
		ovl_clear(o, cpu);
		dls__atomic_fetch_add(&o->acks, 1);
	}
	return NULL;
}

static void test_atomic_threads_publish(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();

	struct ovl o = { .mask = mask_new(OVL_CPUS) };
	struct ovl_thread th[NTHREADS];
	pthread_t tid[NTHREADS];
	bool ok = true;

	o.iters = dls_test_scaled(2000);
	memset(th, 0, sizeof(th));
	for (int i = 0; i < NTHREADS; i++) {
		th[i].o = &o;
		th[i].id = i;
		CU_ASSERT_FATAL(pthread_create(&tid[i], NULL, publish_writer, &th[i]) == 0);
	}
	for (uint64_t r = 0; r < o.iters; r++) {
		int cpu, n = 0;

		spin_until(&o.count, NTHREADS);
		/* Count seen (acquire): every counted bit is visible. */
		dls_cpumask_for_each_atomic(cpu, o.mask)
			n++;
		ok = ok && n == NTHREADS;
		dls__atomic_store_release(&o.phase, 2 * r + 1);
		spin_until(&o.acks, (dls__atomic_word)(NTHREADS * (r + 1)));
		ok = ok && dls__atomic_load(&o.count) == 0 &&
		     dls_cpumask_next_atomic(o.mask, -1) == -1;
		dls__atomic_store_release(&o.phase, 2 * r + 2);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(tid[i], NULL);
	CU_ASSERT_TRUE(ok);
	free(o.mask);
}

static const struct dls_test_case cpumask_cases[] = {
	{ "size", test_size },
	{ "init errors", test_init_errors },
	{ "word boundaries 1..4096", test_boundaries },
	{ "binary ops exact", test_binary_exact },
	{ "validator detects", test_check_detects },
	{ "random vs model", test_random },
	{ "atomic single-threaded", test_atomic_single },
	{ "atomics wrapper", test_atomic_wrapper },
	{ "atomic toggles, 4 threads", test_atomic_threads_toggle },
	{ "overload publish protocol", test_atomic_threads_publish },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "cpumask", cpumask_cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
