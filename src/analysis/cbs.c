/*
 * CBS: the library's own admission rule applied to a task set, and the
 * periodic resource model.
 *
 * Admission is what attaching the set in index order to a domain does: each
 * reservation passes dls_params_check() and the running sum of
 * dls_params_bw() stays within the limit times the capacity
 * (dls__bw_fits(), the one rule of src/cbs/admission.c that runqueues and
 * global domains apply).
 *
 * Periodic resource (Pi, Theta) (Shin & Lee, RTSS 2003, Theorem 1 and
 * eq. 1): at least Theta every Pi, the worst case starving for
 * 2 (Pi - Theta) first, so with y = floor((t - (Pi - Theta)) / Pi)
 *   sbf(t) = y Theta + max(0, t - 2 (Pi - Theta) - y Pi)   (t >= Pi - Theta)
 * and 0 before. EDF inside it meets every deadline iff h(t) <= sbf(t) at
 * each deadline t; since sbf(t) >= (Theta / Pi)(t - 2 (Pi - Theta)) and
 * h(t) <= U t + sum (T_i - D_i) U_i, only t below
 *   (sum (T_i - D_i) U_i + 2 (Pi - Theta) Theta / Pi) / (Theta / Pi - U)
 * can fail. sbf grows with Theta, so the least budget is found by bisection.
 */
#include "analysis/analysis_impl.h"
#include "cbs/admission_impl.h"

#include <dlsched/sched.h>

/* Deadlines a budget's test may visit before it counts as failed. */
#define PRM_MAX_DEADLINES (UINT64_C(1) << 22)

int dls_analysis_cbs_admit(const struct dls_domain_config *cfg,
			   const uint32_t *capacity, int m,
			   const struct dls_params *ts, size_t n,
			   struct dls_analysis_result *r)
{
	/* dls_params_check() reads only the domain's configuration */
	struct dls_domain dom = { 0 };
	uint64_t cap = 0, total = 0;

	if (!r || m < 1 || (n && !ts))
		return DLS_EINVAL;
	if (cfg)
		dom.cfg = *cfg;
	else
		dls_domain_config_default(&dom.cfg);
	for (int c = 0; c < m; c++)
		cap += capacity ? capacity[c] : DLS_CAPACITY_SCALE;
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (size_t i = 0; i < n; i++) {
		int err = dls_params_check(&dom, &ts[i]);
		uint64_t bw;

		if (!err) {
			bw = dls_params_bw(&ts[i]);
			if (!dls__bw_fits(dom.cfg.bw_limit, total + bw, cap))
				err = DLS_EBANDWIDTH;
			else
				total += bw;
		}
		if (err) {
			r->schedulable = false;
			r->task = i;
			r->error = err;
			break;
		}
	}
	r->value = total;
	return 0;
}

uint64_t dls_analysis_prm_sbf(uint64_t period, uint64_t budget, uint64_t t)
{
	uint64_t gap, y, rest;

	if (period == 0 || budget > period)
		return 0;
	gap = period - budget;
	if (t < gap)
		return 0;
	y = (t - gap) / period;
	/* t - gap - y Pi = (t - gap) mod Pi; the extra gap is the second starve */
	rest = (t - gap) % period;
	return y * budget + (rest > gap ? rest - gap : 0);
}

/* Does EDF meet every deadline inside (period, budget), budget < period? */
static int prm_ok(const struct dls_params *ts, size_t n, uint64_t period,
		  uint64_t budget, uint64_t util_hi, uint64_t slack_util, bool *ok)
{
	uint64_t share = dls_u128_mul_u64_u64_div_u64(budget, DLS__FIX_ONE, period);
	uint64_t starve, limit, t;

	*ok = false;
	if (share <= util_hi)
		return 0;
	starve = dls__mul_div_ceil(2 * (period - budget), budget, period);
	limit = dls__mul_div_ceil(dls__sat_add(slack_util, starve), DLS__FIX_ONE,
				  share - util_hi);
	t = dls__deadline_after(ts, n, 0);
	for (uint64_t visited = 0; t <= limit; visited++) {
		if (visited == PRM_MAX_DEADLINES || t == UINT64_MAX)
			return 0;
		if (dls_analysis_dbf(ts, n, t) > dls_analysis_prm_sbf(period, budget, t))
			return 0;
		t = dls__deadline_after(ts, n, t);
	}
	*ok = true;
	return 0;
}

int dls_analysis_prm_budget(const struct dls_params *ts, size_t n,
			    uint64_t period, struct dls_analysis_result *r)
{
	struct dls__ratio_sum s;
	uint64_t lo = 0, hi = period, util_hi, slack_util = 0;
	int err = dls__an_args(ts, n, 1, r), cmp;

	if (err)
		return err;
	if (period == 0)
		return DLS_EINVAL;
	*r = (struct dls_analysis_result){ .schedulable = true };
	if (n == 0)
		return 0;
	err = dls_analysis_qpa(ts, n, r);
	if (err || !r->schedulable)
		return err;
	*r = (struct dls_analysis_result){ .schedulable = true, .value = period };
	err = dls__ratio_sum_cmp(ts, n, false, SIZE_MAX, 0, 1, &s, &cmp);
	if (err)
		return err;
	util_hi = s.hi.hi ? UINT64_MAX : s.hi.lo;
	for (size_t i = 0; i < n; i++) {
		uint64_t T = dls__an_period(&ts[i]);

		slack_util = dls__sat_add(slack_util,
					  dls__mul_div_ceil(T - ts[i].deadline,
							    ts[i].runtime, T));
	}
	/* invariant: lo fails, hi passes */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		bool ok;

		err = prm_ok(ts, n, period, mid, util_hi, slack_util, &ok);
		if (err)
			return err;
		if (ok)
			hi = mid;
		else
			lo = mid;
	}
	r->value = hi;
	return 0;
}
