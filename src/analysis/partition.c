/*
 * Partitioned EDF: bin packing with the exact per-CPU test.
 *
 * Tasks are taken in decreasing utilisation (or density) order, ties by
 * index, and each goes to one CPU: the first in index order (first fit), the
 * most loaded (best fit) or the least loaded (worst fit) among the CPUs
 * whose tasks plus this one pass QPA (dls_analysis_qpa()); load is the sum
 * of the key, compared exactly (fixed-point floor and ceiling, then over the
 * LCM of the denominators), ties to the lower CPU index. A task that fits
 * nowhere ends the packing (Lopez, Diaz & Garcia, RTS 28(1), 2004, study
 * these heuristics for EDF).
 */
#include "analysis/analysis_impl.h"

size_t dls_analysis_partition_size(size_t n, int m)
{
	size_t cpus = m > 0 ? (size_t)m : 0;

	return n * sizeof(struct dls_params) + cpus * sizeof(uint64_t) +
	       n * sizeof(size_t);
}

static uint64_t key_den(const struct dls_params *p, bool by_density)
{
	return by_density ? p->deadline : dls__an_period(p);
}

/* a before b: larger C / X first, then lower index. */
static bool key_before(const struct dls_params *ts, size_t a, size_t b, bool by_density)
{
	int c = dls_u128_mul_cmp(ts[a].runtime, key_den(&ts[b], by_density),
				 ts[b].runtime, key_den(&ts[a], by_density));

	return c > 0 || (c == 0 && a < b);
}

/* Floor and ceiling of @cpu's load in 64-bit fixed point, and the LCM of
 * its denominators folded into *@lcm (0 once it exceeds 64 bits). */
static void load_bounds(const struct dls_params *ts, size_t n, const int *cpu_of, int cpu,
			bool by_density, dls_u128 *lo, dls_u128 *hi, uint64_t *lcm)
{
	*lo = *hi = dls_u128_from_u64(0);
	for (size_t i = 0; i < n; i++) {
		uint64_t x = key_den(&ts[i], by_density), rem, g;
		dls_u128 q;

		if (cpu_of[i] != cpu)
			continue;
		/* C <= X: the quotient of C 2^64 / X is at most 2^64 */
		q = dls_u128_div_u64_rem((dls_u128){ .hi = ts[i].runtime }, x, &rem);
		*lo = dls_u128_add(*lo, q);
		*hi = dls_u128_add(*hi, dls_u128_add(q, dls_u128_from_u64(rem != 0)));
		if (!*lcm)
			continue;
		g = dls__gcd64(*lcm, x);
		*lcm = dls_u128_mul_u64_u64(*lcm / g, x).hi ? 0 : *lcm / g * x;
	}
}

/* The exact load of @cpu times @lcm (a multiple of each denominator). */
static dls_u128 load_scaled(const struct dls_params *ts, size_t n, const int *cpu_of,
			    int cpu, bool by_density, uint64_t lcm)
{
	dls_u128 sum = dls_u128_from_u64(0);

	for (size_t i = 0; i < n; i++)
		if (cpu_of[i] == cpu)
			sum = dls_u128_add(sum, dls_u128_mul_u64_u64(ts[i].runtime,
								     lcm / key_den(&ts[i],
										   by_density)));
	return sum;
}

/* -1, 0 or 1 as CPU @a's load is below, equal to or above CPU @b's. */
static int load_cmp(const struct dls_params *ts, size_t n, const int *cpu_of, int a, int b,
		    bool by_density)
{
	dls_u128 alo, ahi, blo, bhi;
	uint64_t lcm = 1;

	load_bounds(ts, n, cpu_of, a, by_density, &alo, &ahi, &lcm);
	load_bounds(ts, n, cpu_of, b, by_density, &blo, &bhi, &lcm);
	if (dls_u128_lt(ahi, blo))
		return -1;
	if (dls_u128_lt(bhi, alo))
		return 1;
	if (!lcm) /* within n 2^-64: counted equal */
		return 0;
	return dls_u128_cmp(load_scaled(ts, n, cpu_of, a, by_density, lcm),
			    load_scaled(ts, n, cpu_of, b, by_density, lcm));
}

/* Does @cpu still pass QPA with task @cand added? */
static int fits(const struct dls_params *ts, size_t n, const int *cpu_of, int cpu,
		size_t cand, struct dls_params *sub, bool *ok)
{
	struct dls_analysis_result r;
	size_t k = 0;
	int err;

	for (size_t i = 0; i < n; i++)
		if (cpu_of[i] == cpu)
			sub[k++] = ts[i];
	sub[k++] = ts[cand];
	err = dls_analysis_qpa(sub, k, &r);
	*ok = !err && r.schedulable;
	return err;
}

int dls_analysis_partition(const struct dls_params *ts, size_t n, int m,
			   enum dls_analysis_fit fit, bool by_density,
			   int *cpu_of, void *scratch, struct dls_analysis_result *r)
{
	struct dls_params *sub = scratch;
	size_t *order;
	int err = dls__an_args(ts, n, m, r);

	if (err)
		return err;
	if ((n && (!cpu_of || !scratch)) ||
	    (fit != DLS_FIT_FIRST && fit != DLS_FIT_BEST && fit != DLS_FIT_WORST))
		return DLS_EINVAL;
	/* the size function keeps room for m loads, no longer stored */
	order = (size_t *)((uint64_t *)(sub + n) + m);
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		cpu_of[i] = -1;
		/* insertion sort: sets are small and the order must be stable */
		for (; j > 0 && key_before(ts, i, order[j - 1], by_density); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (size_t k = 0; k < n; k++) {
		size_t t = order[k];
		int best = -1;

		for (int c = 0; c < m; c++) {
			bool ok;

			if (best >= 0 &&
			    (fit == DLS_FIT_FIRST ||
			     (fit == DLS_FIT_BEST &&
			      load_cmp(ts, n, cpu_of, c, best, by_density) <= 0) ||
			     (fit == DLS_FIT_WORST &&
			      load_cmp(ts, n, cpu_of, c, best, by_density) >= 0)))
				continue;
			err = fits(ts, n, cpu_of, c, t, sub, &ok);
			if (err)
				return err;
			if (ok)
				best = c;
		}
		if (best < 0) {
			r->schedulable = false;
			r->task = t;
			return 0;
		}
		cpu_of[t] = best;
	}
	return 0;
}
