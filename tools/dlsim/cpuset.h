/*
 * dlsim's CPU sets: a bitmap of WL_MAX_CPUS bits held by value, CPU c in
 * bit c % 64 of word c / 64.
 *
 * Why not the library's struct dls_cpumask: that mask is sized for one CPU
 * count and lives in storage the caller allocates, while dlsim reads a
 * task's "cpus" before it knows the platform's count (the platform section
 * may come later, --platform may replace it), copies sets into job records
 * and compares them. A fixed set of 32 bytes does all that without an
 * allocation; the library's mask is made from it where the library needs
 * one (an entity's affinity, thread.c: affinity_mask()).
 *
 * Where a set stands for a thread's affinity, the empty set means "every
 * CPU" (nothing asked for), as it always has in dlsim: wl_cpuset_allows().
 * Every function takes CPU ids 0 .. WL_MAX_CPUS-1; the reader refuses any
 * other before it reaches a set.
 */
#ifndef DLSIM_CPUSET_H
#define DLSIM_CPUSET_H

#include <stdbool.h>
#include <stdint.h>

/* The most CPUs a platform may have (platform.cpus, --cpus). */
#define WL_MAX_CPUS 256
#define WL_CPUSET_WORDS (WL_MAX_CPUS / 64)

struct wl_cpuset {
	uint64_t w[WL_CPUSET_WORDS];
};

#define WL_CPUSET_BIT(cpu) (UINT64_C(1) << ((unsigned int)(cpu) % 64))
#define WL_CPUSET_WORD(cpu) ((unsigned int)(cpu) / 64)

static inline bool wl_cpuset_test(const struct wl_cpuset *s, int cpu)
{
	return (s->w[WL_CPUSET_WORD(cpu)] & WL_CPUSET_BIT(cpu)) != 0;
}

static inline void wl_cpuset_set(struct wl_cpuset *s, int cpu)
{
	s->w[WL_CPUSET_WORD(cpu)] |= WL_CPUSET_BIT(cpu);
}

static inline void wl_cpuset_clear(struct wl_cpuset *s, int cpu)
{
	s->w[WL_CPUSET_WORD(cpu)] &= ~WL_CPUSET_BIT(cpu);
}

static inline bool wl_cpuset_empty(const struct wl_cpuset *s)
{
	uint64_t any = 0;

	for (int i = 0; i < WL_CPUSET_WORDS; i++)
		any |= s->w[i];
	return !any;
}

/* An affinity: may a thread restricted to @s run on @cpu? (empty: yes) */
static inline bool wl_cpuset_allows(const struct wl_cpuset *s, int cpu)
{
	return wl_cpuset_test(s, cpu) || wl_cpuset_empty(s);
}

static inline bool wl_cpuset_equal(const struct wl_cpuset *a, const struct wl_cpuset *b)
{
	uint64_t diff = 0;

	for (int i = 0; i < WL_CPUSET_WORDS; i++)
		diff |= a->w[i] ^ b->w[i];
	return !diff;
}

/* Is every CPU of @a in @b? */
static inline bool wl_cpuset_subset(const struct wl_cpuset *a, const struct wl_cpuset *b)
{
	uint64_t out = 0;

	for (int i = 0; i < WL_CPUSET_WORDS; i++)
		out |= a->w[i] & ~b->w[i];
	return !out;
}

/* The lowest CPU of @s above @cpu (-1: from the start), or -1. */
static inline int wl_cpuset_next(const struct wl_cpuset *s, int cpu)
{
	unsigned int n = (unsigned int)(cpu + 1), i = n / 64;
	uint64_t word;

	if (n >= WL_MAX_CPUS)
		return -1;
	word = s->w[i] & (~UINT64_C(0) << (n % 64));
	while (!word) {
		if (++i == WL_CPUSET_WORDS)
			return -1;
		word = s->w[i];
	}
	return (int)(i * 64) + __builtin_ctzll(word);
}

/* The lowest CPU of @s, or -1 when it is empty. */
static inline int wl_cpuset_first(const struct wl_cpuset *s)
{
	return wl_cpuset_next(s, -1);
}

#define wl_cpuset_for_each(cpu, s)                                             \
	for ((cpu) = wl_cpuset_first(s); (cpu) >= 0; (cpu) = wl_cpuset_next((s), (cpu)))

static inline int wl_cpuset_count(const struct wl_cpuset *s)
{
	int n = 0;

	for (int i = 0; i < WL_CPUSET_WORDS; i++)
		n += __builtin_popcountll(s->w[i]);
	return n;
}

static inline struct wl_cpuset wl_cpuset_and(const struct wl_cpuset *a,
					     const struct wl_cpuset *b)
{
	struct wl_cpuset r;

	for (int i = 0; i < WL_CPUSET_WORDS; i++)
		r.w[i] = a->w[i] & b->w[i];
	return r;
}

static inline struct wl_cpuset wl_cpuset_or(const struct wl_cpuset *a,
					    const struct wl_cpuset *b)
{
	struct wl_cpuset r;

	for (int i = 0; i < WL_CPUSET_WORDS; i++)
		r.w[i] = a->w[i] | b->w[i];
	return r;
}

/* CPUs 0 .. @n-1 (@n in 0 .. WL_MAX_CPUS). */
static inline struct wl_cpuset wl_cpuset_first_n(int n)
{
	struct wl_cpuset r;

	for (int i = 0; i < WL_CPUSET_WORDS; i++) {
		int k = n - i * 64;

		r.w[i] = k >= 64 ? ~UINT64_C(0) : k <= 0 ? 0 : (UINT64_C(1) << k) - 1;
	}
	return r;
}

#endif
