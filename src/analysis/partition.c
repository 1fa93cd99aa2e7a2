/*
 * Partitioned EDF: bin packing with the exact per-CPU test.
 *
 * Tasks are taken in decreasing utilisation (or density) order, ties by
 * index, and each goes to one CPU: the first in index order (first fit), the
 * most loaded (best fit) or the least loaded (worst fit) among the CPUs
 * whose tasks plus this one pass QPA (dls_analysis_qpa()); load is the sum
 * of the key in fixed point, ties to the lower CPU index. A task that fits
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
	uint64_t *load;
	size_t *order;
	int err = dls__an_args(ts, n, m, r);

	if (err)
		return err;
	if ((n && (!cpu_of || !scratch)) ||
	    (fit != DLS_FIT_FIRST && fit != DLS_FIT_BEST && fit != DLS_FIT_WORST))
		return DLS_EINVAL;
	load = (uint64_t *)(sub + n);
	order = (size_t *)(load + m);
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (int c = 0; c < m; c++)
		load[c] = 0;
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
		uint64_t key = dls__mul_div_ceil(ts[t].runtime, DLS__FIX_ONE,
						 key_den(&ts[t], by_density));
		int best = -1;

		for (int c = 0; c < m; c++) {
			bool ok;

			if (best >= 0 && (fit == DLS_FIT_FIRST ||
					  (fit == DLS_FIT_BEST && load[c] <= load[best]) ||
					  (fit == DLS_FIT_WORST && load[c] >= load[best])))
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
		load[best] = dls__sat_add(load[best], key);
	}
	return 0;
}
