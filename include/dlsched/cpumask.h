/**
 * @file cpumask.h
 * @brief CPU masks over caller-sized storage, any CPU count.
 *
 * A mask is a header (CPU count, word count) followed by the bitmap words.
 * The caller asks dls_cpumask_size() for the bytes, provides them (aligned
 * for a dls_cpumask_word_t, as malloc() or a word array gives) and calls
 * dls_cpumask_init(). Bits at and above the CPU count are always zero.
 *
 * Small systems: when the CPU count fits one machine word
 * (DLS_CPUMASK_WORD_BITS: 64 on 64-bit targets, 32 on 32-bit ones) the mask
 * is one word of bits and every operation takes a single-word path first:
 * test/set/clear are inline shift-and-mask instructions, first/next are
 * inline count-trailing-zeros, and the out-of-line set operations branch
 * once to one word's worth of work. bench/cpudl.c measures both paths.
 *
 * @code
 * int nr = 128;
 * struct dls_cpumask *m = malloc(dls_cpumask_size(nr));
 * dls_cpumask_init(m, dls_cpumask_size(nr), nr);
 * dls_cpumask_set(m, 3);
 * dls_cpumask_set(m, 100);
 * int cpu;
 * dls_cpumask_for_each(cpu, m)
 *     printf("%d\n", cpu);           // 3, then 100
 * @endcode
 *
 * Binary operations expect masks of the same CPU count (asserted in debug
 * builds). Plain operations are not atomic: the caller serialises writers
 * with readers. The *_atomic functions may run concurrently with each other
 * on one mask (the domain's overload mask); src/atomic_impl.h documents the
 * ordering.
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_CPUMASK_H
#define DLSCHED_CPUMASK_H

#include <dlsched/common.h>

/**
 * @defgroup cpumask CPU masks
 * @brief Bitmaps of CPU ids over caller-provided storage.
 * @{
 */

/** @brief One word of a mask's bitmap (the machine word). */
typedef unsigned long dls_cpumask_word_t;

/** @brief Bits per bitmap word. */
#define DLS_CPUMASK_WORD_BITS ((int)(sizeof(dls_cpumask_word_t) * 8))

/** @brief Largest CPU count a mask accepts. */
#define DLS_CPUMASK_MAX_CPUS (1 << 24)

/** @brief Bitmap words for @p nr CPUs (a constant expression). */
#define DLS_CPUMASK_WORDS(nr)                                                  \
	(((size_t)(nr) + sizeof(dls_cpumask_word_t) * 8 - 1) /                 \
	 (sizeof(dls_cpumask_word_t) * 8))

/**
 * @brief A CPU mask. Storage comes from the caller; see dls_cpumask_size().
 *
 * A structure with a flexible array: embed a pointer to it, not the struct.
 */
struct dls_cpumask {
	uint32_t nr_cpus;          /**< read-only: CPU ids are 0 .. nr_cpus-1 */
	uint32_t nr_words;         /**< read-only: words in @c bits */
	dls_cpumask_word_t bits[]; /**< private: the bitmap, CPU c is bit c % W of word c / W */
};

/** @brief Bytes of storage for a mask of @p nr CPUs (a constant expression). */
#define DLS_CPUMASK_SIZE(nr)                                                   \
	(offsetof(struct dls_cpumask, bits) +                                  \
	 DLS_CPUMASK_WORDS(nr) * sizeof(dls_cpumask_word_t))

/**
 * @brief Bytes of storage a mask of @p nr_cpus CPUs needs.
 * @param[in] nr_cpus number of CPUs, 1 .. DLS_CPUMASK_MAX_CPUS.
 * @return the size in bytes, or 0 when @p nr_cpus is out of range.
 */
DLS_API size_t dls_cpumask_size(int nr_cpus);

/**
 * @brief Make @p storage an empty mask of @p nr_cpus CPUs.
 * @param[out] m storage of at least dls_cpumask_size(@p nr_cpus) bytes,
 *             aligned for dls_cpumask_word_t.
 * @param[in] size bytes available at @p m.
 * @param[in] nr_cpus number of CPUs, 1 .. DLS_CPUMASK_MAX_CPUS.
 * @retval 0 success.
 * @retval DLS_EINVAL @p m is NULL or misaligned, @p nr_cpus out of range or
 *         @p size too small; @p m is untouched.
 * @note No locking: @p m is not yet shared.
 */
DLS_API int dls_cpumask_init(struct dls_cpumask *m, size_t size, int nr_cpus);

/** @cond INTERNAL */
#if defined(__GNUC__)
#  define DLS__CTZW(w) __builtin_ctzl(w)
#else
DLS_INLINE int dls__ctzw(dls_cpumask_word_t w)
{
	int n = 0;

	while (!(w & 1u)) {
		w >>= 1;
		n++;
	}
	return n;
}
#  define DLS__CTZW(w) dls__ctzw(w)
#endif
/*
 * Population count: the instruction where the target has one; else SWAR
 * arithmetic inline rather than a libgcc call (the freestanding core links
 * no runtime helpers beyond division and shifts).
 */
#if defined(__GNUC__) && (defined(__POPCNT__) || defined(__aarch64__))
#  define DLS__POPW(w) __builtin_popcountl(w)
#else
DLS_INLINE int dls__popw(dls_cpumask_word_t w)
{
	uint64_t x = (uint64_t)w;

	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) +
	    ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}
#  define DLS__POPW(w) dls__popw(w)
#endif
#define DLS__CPU_WORD(cpu) ((unsigned int)(cpu) / (unsigned int)DLS_CPUMASK_WORD_BITS)
#define DLS__CPU_BIT(cpu)                                                      \
	((dls_cpumask_word_t)1 << ((unsigned int)(cpu) % (unsigned int)DLS_CPUMASK_WORD_BITS))
/** @endcond */

/**
 * @brief Is @p cpu in @p m?
 * @param[in] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @return true when set.
 * @note Caller serialises with writers (or see dls_cpumask_test_atomic()).
 */
DLS_INLINE bool dls_cpumask_test(const struct dls_cpumask *m, int cpu)
{
	return (m->bits[DLS__CPU_WORD(cpu)] & DLS__CPU_BIT(cpu)) != 0;
}

/**
 * @brief Add @p cpu to @p m.
 * @param[in,out] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note Caller serialises access to @p m.
 */
DLS_INLINE void dls_cpumask_set(struct dls_cpumask *m, int cpu)
{
	m->bits[DLS__CPU_WORD(cpu)] |= DLS__CPU_BIT(cpu);
}

/**
 * @brief Remove @p cpu from @p m.
 * @param[in,out] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note Caller serialises access to @p m.
 */
DLS_INLINE void dls_cpumask_clear(struct dls_cpumask *m, int cpu)
{
	m->bits[DLS__CPU_WORD(cpu)] &= ~DLS__CPU_BIT(cpu);
}

/**
 * @brief First CPU of @p m at or after @p start.
 * @param[in] m the mask.
 * @param[in] start first CPU id to consider, >= 0 (may be >= nr_cpus).
 * @return the CPU id, or -1 when there is none.
 * @note Caller serialises with writers.
 */
DLS_API int dls_cpumask_scan(const struct dls_cpumask *m, int start);

/**
 * @brief Next CPU of @p m after @p cpu.
 * @param[in] m the mask.
 * @param[in] cpu a CPU id, or -1 to get the first.
 * @return the next CPU id, or -1 when there is none.
 * @note Caller serialises with writers.
 */
DLS_INLINE int dls_cpumask_next(const struct dls_cpumask *m, int cpu)
{
	unsigned int n = (unsigned int)(cpu + 1);

	if (DLS_LIKELY(m->nr_words == 1)) {
		dls_cpumask_word_t w;

		if (n >= (unsigned int)DLS_CPUMASK_WORD_BITS)
			return -1;
		w = m->bits[0] >> n;
		return w ? (int)n + DLS__CTZW(w) : -1;
	}
	return dls_cpumask_scan(m, (int)n);
}

/**
 * @brief Lowest CPU in @p m.
 * @param[in] m the mask.
 * @return the CPU id, or -1 when @p m is empty.
 * @note Caller serialises with writers.
 */
DLS_INLINE int dls_cpumask_first(const struct dls_cpumask *m)
{
	return dls_cpumask_next(m, -1);
}

/**
 * @brief Iterate over the CPUs of a mask in ascending order.
 * @param cpu an int lvalue receiving each CPU id.
 * @param m the mask (must not change during the loop).
 */
#define dls_cpumask_for_each(cpu, m)                                           \
	for ((cpu) = dls_cpumask_first(m); (cpu) >= 0;                         \
	     (cpu) = dls_cpumask_next((m), (cpu)))

/**
 * @brief Next CPU in both @p a and @p b after @p cpu.
 * @param[in] a first mask.
 * @param[in] b second mask, same CPU count.
 * @param[in] cpu a CPU id, or -1 to get the first.
 * @return the CPU id, or -1 when there is none.
 * @note Caller serialises with writers.
 */
DLS_API int dls_cpumask_next_and(const struct dls_cpumask *a,
				 const struct dls_cpumask *b, int cpu);

/**
 * @brief Any CPU in both @p a and @p b (the lowest one).
 * @param[in] a first mask.
 * @param[in] b second mask, same CPU count.
 * @return the CPU id, or -1 when the masks do not intersect.
 * @note Caller serialises with writers.
 */
DLS_INLINE int dls_cpumask_first_and(const struct dls_cpumask *a,
				     const struct dls_cpumask *b)
{
	if (DLS_LIKELY(a->nr_words == 1)) {
		dls_cpumask_word_t w = a->bits[0] & b->bits[0];

		return w ? DLS__CTZW(w) : -1;
	}
	return dls_cpumask_next_and(a, b, -1);
}

/**
 * @brief Iterate over the CPUs in both masks, ascending.
 * @param cpu an int lvalue receiving each CPU id.
 * @param a first mask.
 * @param b second mask (neither may change during the loop).
 */
#define dls_cpumask_for_each_and(cpu, a, b)                                    \
	for ((cpu) = dls_cpumask_first_and((a), (b)); (cpu) >= 0;              \
	     (cpu) = dls_cpumask_next_and((a), (b), (cpu)))

/**
 * @brief Remove every CPU.
 * @param[in,out] m the mask.
 * @note Caller serialises access to @p m.
 */
DLS_API void dls_cpumask_zero(struct dls_cpumask *m);

/**
 * @brief Add every CPU 0 .. nr_cpus-1.
 * @param[in,out] m the mask.
 * @note Caller serialises access to @p m.
 */
DLS_API void dls_cpumask_fill(struct dls_cpumask *m);

/**
 * @brief Number of CPUs in @p m.
 * @param[in] m the mask.
 * @return the population count.
 * @note Caller serialises with writers.
 */
DLS_API int dls_cpumask_weight(const struct dls_cpumask *m);

/**
 * @brief Is @p m empty?
 * @param[in] m the mask.
 * @return true when no CPU is set.
 * @note Caller serialises with writers.
 */
DLS_API bool dls_cpumask_empty(const struct dls_cpumask *m);

/**
 * @brief dst = src.
 * @param[out] dst destination, same CPU count.
 * @param[in] src source.
 * @note Caller serialises access to both masks.
 */
DLS_API void dls_cpumask_copy(struct dls_cpumask *dst,
			      const struct dls_cpumask *src);

/**
 * @brief dst = a & b (dst may be a or b).
 * @param[out] dst destination.
 * @param[in] a first operand.
 * @param[in] b second operand (all three of one CPU count).
 * @return true when the result is not empty.
 * @note Caller serialises access to the masks.
 */
DLS_API bool dls_cpumask_and(struct dls_cpumask *dst,
			     const struct dls_cpumask *a,
			     const struct dls_cpumask *b);

/**
 * @brief dst = a | b (dst may be a or b).
 * @param[out] dst destination.
 * @param[in] a first operand.
 * @param[in] b second operand (all three of one CPU count).
 * @note Caller serialises access to the masks.
 */
DLS_API void dls_cpumask_or(struct dls_cpumask *dst,
			    const struct dls_cpumask *a,
			    const struct dls_cpumask *b);

/**
 * @brief dst = a & ~b (dst may be a or b).
 * @param[out] dst destination.
 * @param[in] a first operand.
 * @param[in] b CPUs to remove (all three of one CPU count).
 * @return true when the result is not empty.
 * @note Caller serialises access to the masks.
 */
DLS_API bool dls_cpumask_andnot(struct dls_cpumask *dst,
				const struct dls_cpumask *a,
				const struct dls_cpumask *b);

/**
 * @brief a == b?
 * @param[in] a first mask.
 * @param[in] b second mask, same CPU count.
 * @return true when they hold the same CPUs.
 * @note Caller serialises with writers.
 */
DLS_API bool dls_cpumask_equal(const struct dls_cpumask *a,
			       const struct dls_cpumask *b);

/**
 * @brief Is every CPU of @p a also in @p b?
 * @param[in] a the candidate subset.
 * @param[in] b the candidate superset, same CPU count.
 * @return true when a ⊆ b.
 * @note Caller serialises with writers.
 */
DLS_API bool dls_cpumask_subset(const struct dls_cpumask *a,
				const struct dls_cpumask *b);

/**
 * @brief Do @p a and @p b share a CPU?
 * @param[in] a first mask.
 * @param[in] b second mask, same CPU count.
 * @return true when a & b is not empty.
 * @note Caller serialises with writers.
 */
DLS_API bool dls_cpumask_intersects(const struct dls_cpumask *a,
				    const struct dls_cpumask *b);

/**
 * @brief Atomically add @p cpu to @p m (no ordering implied).
 * @param[in,out] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note May race with other *_atomic calls on @p m; plain writers must not.
 */
DLS_API void dls_cpumask_set_atomic(struct dls_cpumask *m, int cpu);

/**
 * @brief Atomically remove @p cpu from @p m (no ordering implied).
 * @param[in,out] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note May race with other *_atomic calls on @p m; plain writers must not.
 */
DLS_API void dls_cpumask_clear_atomic(struct dls_cpumask *m, int cpu);

/**
 * @brief Atomically add @p cpu to @p m and tell whether it was there
 * (full barrier).
 * @param[in,out] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @return true when @p cpu was already set.
 * @note May race with other *_atomic calls on @p m.
 */
DLS_API bool dls_cpumask_test_and_set_atomic(struct dls_cpumask *m, int cpu);

/**
 * @brief Atomically remove @p cpu from @p m and tell whether it was there
 * (full barrier).
 * @param[in,out] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @return true when @p cpu was set.
 * @note May race with other *_atomic calls on @p m.
 */
DLS_API bool dls_cpumask_test_and_clear_atomic(struct dls_cpumask *m, int cpu);

/**
 * @brief Atomic read of one bit (no ordering implied).
 * @param[in] m the mask.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @return true when set.
 * @note Safe against concurrent *_atomic writers.
 */
DLS_API bool dls_cpumask_test_atomic(const struct dls_cpumask *m, int cpu);

/**
 * @brief Next CPU of @p m after @p cpu, reading each word atomically.
 *
 * For scanning a mask that other CPUs update with the *_atomic calls (the
 * overload mask): every bit returned was set at the time its word was read.
 * @param[in] m the mask.
 * @param[in] cpu a CPU id, or -1 to get the first.
 * @return the CPU id, or -1 when there is none.
 * @note Safe against concurrent *_atomic writers.
 */
DLS_API int dls_cpumask_next_atomic(const struct dls_cpumask *m, int cpu);

/**
 * @brief Iterate over a concurrently updated mask (see
 * dls_cpumask_next_atomic()).
 * @param cpu an int lvalue receiving each CPU id.
 * @param m the mask.
 */
#define dls_cpumask_for_each_atomic(cpu, m)                                    \
	for ((cpu) = dls_cpumask_next_atomic((m), -1); (cpu) >= 0;             \
	     (cpu) = dls_cpumask_next_atomic((m), (cpu)))

/**
 * @brief Validate a mask: word count matches the CPU count, no bit set at
 * or above nr_cpus.
 * @param[in] m the mask.
 * @return NULL when valid, else a static string naming the first violated
 *         property.
 */
DLS_API const char *dls_cpumask_check(const struct dls_cpumask *m);

/** @} */

#endif /* DLSCHED_CPUMASK_H */
