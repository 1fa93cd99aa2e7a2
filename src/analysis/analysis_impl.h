/*
 * Internals of the analysis module (src/analysis/). Never installed.
 *
 * Fixed point: a ratio C / X is held in DLS__FIX_SHIFT (32) fractional bits,
 * floor or ceiling as the caller needs: a sufficient test rounds each term
 * against itself, an exact test falls back to the periods' LCM.
 */
#ifndef DLSCHED_ANALYSIS_IMPL_H
#define DLSCHED_ANALYSIS_IMPL_H

#include <dlsched/analysis.h>
#include <dlsched/math128.h>

#include "internal.h"

#define DLS__FIX_SHIFT 32
#define DLS__FIX_ONE (UINT64_C(1) << DLS__FIX_SHIFT)

static inline uint64_t dls__an_period(const struct dls_params *p)
{
	return p->period ? p->period : p->deadline;
}

static inline uint64_t dls__sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static inline uint64_t dls__gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* ceil(a * b / c), saturating; c != 0. */
static inline uint64_t dls__mul_div_ceil(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t rem;
	dls_u128 q = dls_u128_div_u64_rem(dls_u128_mul_u64_u64(a, b), c, &rem);

	if (q.hi || (rem && q.lo == UINT64_MAX))
		return UINT64_MAX;
	return q.lo + (rem != 0);
}

/* A sum of ratios sum_i w_i C_i / X_i (X_i = T_i, or D_i for densities,
 * w_i = 1 except w = @extra_w at index @extra) compared with an integer. */
struct dls__ratio_sum {
	dls_u128 lo;   /* floor of the sum, DLS__FIX_SHIFT fixed point */
	dls_u128 hi;   /* ceiling */
	uint64_t lcm;  /* LCM of the X_i when the fallback computed it, else 0 */
	dls_u128 num;  /* the sum times lcm, exact, when lcm != 0 */
};

/* The general form: sum_i w_i C_i / X_i with w_i = @base, plus @extra_w at
 * index @extra, compared with @bound (below 2^96). */
struct dls__ratio_weights {
	bool density;
	uint64_t base;
	size_t extra;      /* SIZE_MAX for none */
	uint64_t extra_w;
	dls_u128 bound;
};

int dls__ratio_sum_cmp_w(const struct dls_params *ts, size_t n,
			 const struct dls__ratio_weights *w, struct dls__ratio_sum *s,
			 int *cmp);

/* Sum the ratios into @s and set *@cmp to -1, 0 or 1 as the sum is below,
 * equal to or above @m. Returns DLS_ERANGE when undecided. */
int dls__ratio_sum_cmp(const struct dls_params *ts, size_t n, bool density,
		       size_t extra, uint64_t extra_w, uint64_t m,
		       struct dls__ratio_sum *s, int *cmp);

/* The first task with D < T, or @n if every deadline is implicit. */
static inline size_t dls__first_constrained(const struct dls_params *ts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ts[i].period && ts[i].period != ts[i].deadline)
			return i;
	return n;
}

/* Task set checks shared by every test. */
int dls__an_args(const struct dls_params *ts, size_t n, int m,
		 const struct dls_analysis_result *r);

/* Utilisation in DLS_BW_UNIT from a DLS__FIX_SHIFT value, saturating. */
uint64_t dls__fix_to_bw(dls_u128 x);

/* The latest deadline of synchronous release at or below @t; false if none. */
bool dls__deadline_at_or_below(const struct dls_params *ts, size_t n,
			       uint64_t t, uint64_t *d);

/* The earliest deadline strictly after @t (UINT64_MAX if none fits). */
uint64_t dls__deadline_after(const struct dls_params *ts, size_t n, uint64_t t);

#endif /* DLSCHED_ANALYSIS_IMPL_H */
