/*
 * CPU masks over caller-sized storage.
 *
 * Invariants of a mask (dls_cpumask_check):
 *  - nr_words == ceil(nr_cpus / W), W = bits per word;
 *  - no bit at or above nr_cpus is set, so whole-word operations (weight,
 *    equal, subset, the scans) never need to mask the last word, and the
 *    only operation that must trim is fill.
 *
 * Every whole-mask operation tests nr_words == 1 first: a mask of at most W
 * CPUs is then handled by straight-line code on one word.
 */
#include <dlsched/cpumask.h>

#include "atomic_impl.h"
#include "internal.h"

_Static_assert(sizeof(dls_cpumask_word_t) == sizeof(dls__atomic_word),
	       "mask words are atomic words");
_Static_assert(offsetof(struct dls_cpumask, bits) % sizeof(dls_cpumask_word_t) == 0,
	       "bitmap is word aligned");

#define W ((unsigned int)DLS_CPUMASK_WORD_BITS)

/* Mask of the valid bits of the last word. */
static dls_cpumask_word_t tail_mask(const struct dls_cpumask *m)
{
	unsigned int r = m->nr_cpus % W;

	return r ? ((dls_cpumask_word_t)1 << r) - 1 : ~(dls_cpumask_word_t)0;
}

size_t dls_cpumask_size(int nr_cpus)
{
	if (nr_cpus < 1 || nr_cpus > DLS_CPUMASK_MAX_CPUS)
		return 0;
	return DLS_CPUMASK_SIZE(nr_cpus);
}

int dls_cpumask_init(struct dls_cpumask *m, size_t size, int nr_cpus)
{
	size_t need = dls_cpumask_size(nr_cpus);
	uint32_t i;

	if (m == NULL || need == 0 || size < need ||
	    (uintptr_t)m % _Alignof(dls_cpumask_word_t) != 0)
		return DLS_EINVAL;
	m->nr_cpus = (uint32_t)nr_cpus;
	m->nr_words = (uint32_t)DLS_CPUMASK_WORDS(nr_cpus);
	for (i = 0; i < m->nr_words; i++)
		m->bits[i] = 0;
	return 0;
}

#define SAME_SIZE(a, b) DLS_ASSERT((a)->nr_cpus == (b)->nr_cpus)

int dls_cpumask_scan(const struct dls_cpumask *m, int start)
{
	unsigned int i;
	dls_cpumask_word_t w;

	DLS_ASSERT(start >= 0);
	if ((unsigned int)start >= m->nr_cpus)
		return -1;
	i = (unsigned int)start / W;
	w = m->bits[i] & (~(dls_cpumask_word_t)0 << ((unsigned int)start % W));
	for (;;) {
		if (w)
			return (int)(i * W) + DLS__CTZW(w);
		if (++i >= m->nr_words)
			return -1;
		w = m->bits[i];
	}
}

int dls_cpumask_next_and(const struct dls_cpumask *a,
			 const struct dls_cpumask *b, int cpu)
{
	unsigned int n = (unsigned int)(cpu + 1), i;
	dls_cpumask_word_t w;

	SAME_SIZE(a, b);
	if (n >= a->nr_cpus)
		return -1;
	i = n / W;
	w = a->bits[i] & b->bits[i] & (~(dls_cpumask_word_t)0 << (n % W));
	for (;;) {
		if (w)
			return (int)(i * W) + DLS__CTZW(w);
		if (++i >= a->nr_words)
			return -1;
		w = a->bits[i] & b->bits[i];
	}
}

void dls_cpumask_zero(struct dls_cpumask *m)
{
	uint32_t i;

	for (i = 0; i < m->nr_words; i++)
		m->bits[i] = 0;
}

void dls_cpumask_fill(struct dls_cpumask *m)
{
	uint32_t i;

	for (i = 0; i + 1 < m->nr_words; i++)
		m->bits[i] = ~(dls_cpumask_word_t)0;
	m->bits[m->nr_words - 1] = tail_mask(m);
}

int dls_cpumask_weight(const struct dls_cpumask *m)
{
	uint32_t i;
	int n = 0;

	if (DLS_LIKELY(m->nr_words == 1))
		return DLS__POPW(m->bits[0]);
	for (i = 0; i < m->nr_words; i++)
		n += DLS__POPW(m->bits[i]);
	return n;
}

bool dls_cpumask_empty(const struct dls_cpumask *m)
{
	uint32_t i;

	for (i = 0; i < m->nr_words; i++)
		if (m->bits[i])
			return false;
	return true;
}

void dls_cpumask_copy(struct dls_cpumask *dst, const struct dls_cpumask *src)
{
	uint32_t i;

	SAME_SIZE(dst, src);
	if (DLS_LIKELY(dst->nr_words == 1)) {
		dst->bits[0] = src->bits[0];
		return;
	}
	for (i = 0; i < dst->nr_words; i++)
		dst->bits[i] = src->bits[i];
}

bool dls_cpumask_and(struct dls_cpumask *dst, const struct dls_cpumask *a,
		     const struct dls_cpumask *b)
{
	dls_cpumask_word_t any = 0;
	uint32_t i;

	SAME_SIZE(dst, a);
	SAME_SIZE(a, b);
	if (DLS_LIKELY(dst->nr_words == 1))
		return (dst->bits[0] = a->bits[0] & b->bits[0]) != 0;
	for (i = 0; i < dst->nr_words; i++)
		any |= dst->bits[i] = a->bits[i] & b->bits[i];
	return any != 0;
}

void dls_cpumask_or(struct dls_cpumask *dst, const struct dls_cpumask *a,
		    const struct dls_cpumask *b)
{
	uint32_t i;

	SAME_SIZE(dst, a);
	SAME_SIZE(a, b);
	if (DLS_LIKELY(dst->nr_words == 1)) {
		dst->bits[0] = a->bits[0] | b->bits[0];
		return;
	}
	for (i = 0; i < dst->nr_words; i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

bool dls_cpumask_andnot(struct dls_cpumask *dst, const struct dls_cpumask *a,
			const struct dls_cpumask *b)
{
	dls_cpumask_word_t any = 0;
	uint32_t i;

	SAME_SIZE(dst, a);
	SAME_SIZE(a, b);
	if (DLS_LIKELY(dst->nr_words == 1))
		return (dst->bits[0] = a->bits[0] & ~b->bits[0]) != 0;
	for (i = 0; i < dst->nr_words; i++)
		any |= dst->bits[i] = a->bits[i] & ~b->bits[i];
	return any != 0;
}

bool dls_cpumask_equal(const struct dls_cpumask *a, const struct dls_cpumask *b)
{
	uint32_t i;

	SAME_SIZE(a, b);
	for (i = 0; i < a->nr_words; i++)
		if (a->bits[i] != b->bits[i])
			return false;
	return true;
}

bool dls_cpumask_subset(const struct dls_cpumask *a, const struct dls_cpumask *b)
{
	uint32_t i;

	SAME_SIZE(a, b);
	for (i = 0; i < a->nr_words; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

bool dls_cpumask_intersects(const struct dls_cpumask *a,
			    const struct dls_cpumask *b)
{
	uint32_t i;

	SAME_SIZE(a, b);
	for (i = 0; i < a->nr_words; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

/* Atomic variants: one word, through the atomics wrapper. */

static dls__atomic_word *word_of(struct dls_cpumask *m, int cpu)
{
	DLS_ASSERT(cpu >= 0 && (unsigned int)cpu < m->nr_cpus);
	return (dls__atomic_word *)&m->bits[DLS__CPU_WORD(cpu)];
}

void dls_cpumask_set_atomic(struct dls_cpumask *m, int cpu)
{
	dls__atomic_or(word_of(m, cpu), DLS__CPU_BIT(cpu));
}

void dls_cpumask_clear_atomic(struct dls_cpumask *m, int cpu)
{
	dls__atomic_and(word_of(m, cpu), ~DLS__CPU_BIT(cpu));
}

bool dls_cpumask_test_and_set_atomic(struct dls_cpumask *m, int cpu)
{
	return (dls__atomic_fetch_or(word_of(m, cpu), DLS__CPU_BIT(cpu)) &
		DLS__CPU_BIT(cpu)) != 0;
}

bool dls_cpumask_test_and_clear_atomic(struct dls_cpumask *m, int cpu)
{
	return (dls__atomic_fetch_and(word_of(m, cpu), ~DLS__CPU_BIT(cpu)) &
		DLS__CPU_BIT(cpu)) != 0;
}

bool dls_cpumask_test_atomic(const struct dls_cpumask *m, int cpu)
{
	DLS_ASSERT(cpu >= 0 && (unsigned int)cpu < m->nr_cpus);
	return (dls__atomic_load(&m->bits[DLS__CPU_WORD(cpu)]) &
		DLS__CPU_BIT(cpu)) != 0;
}

int dls_cpumask_next_atomic(const struct dls_cpumask *m, int cpu)
{
	unsigned int n = (unsigned int)(cpu + 1), i;
	dls_cpumask_word_t w;

	if (n >= m->nr_cpus)
		return -1;
	i = n / W;
	w = dls__atomic_load(&m->bits[i]) & (~(dls_cpumask_word_t)0 << (n % W));
	for (;;) {
		if (w)
			return (int)(i * W) + DLS__CTZW(w);
		if (++i >= m->nr_words)
			return -1;
		w = dls__atomic_load(&m->bits[i]);
	}
}

const char *dls_cpumask_check(const struct dls_cpumask *m)
{
	if (m == NULL)
		return "mask is NULL";
	if (m->nr_cpus < 1 || m->nr_cpus > (uint32_t)DLS_CPUMASK_MAX_CPUS)
		return "nr_cpus out of range";
	if (m->nr_words != DLS_CPUMASK_WORDS(m->nr_cpus))
		return "nr_words does not match nr_cpus";
	if (m->bits[m->nr_words - 1] & ~tail_mask(m))
		return "bit set at or above nr_cpus";
	return NULL;
}
