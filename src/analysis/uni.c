/*
 * Uniprocessor EDF: utilisation and density tests, the demand bound
 * function and the exact processor-demand test decided by QPA.
 *
 * Liu & Layland (JACM 20(1), 1973, Theorem 7) decide EDF by U <= 1 only for
 * implicit deadlines on one CPU; elsewhere U <= m is necessary, not
 * sufficient (Dhall's effect on m CPUs; D < T on one), and sum C/D <= 1 is
 * a one-CPU test. Where a sum would claim more, DLS_EMODEL refuses it.
 *
 * Processor demand (Baruah, Rosier & Howell 1990): a constrained-deadline
 * sporadic set is EDF-schedulable on one CPU iff h(t) <= t at every
 * absolute deadline t of synchronous release, where
 *   h(t) = sum_{D_i <= t} (floor((t - D_i) / T_i) + 1) C_i.
 * QPA (Zhang & Burns, IEEE TC 58(9), 2009, Theorem 5) walks t downward from
 * an upper bound L of the first violation: t <- h(t) while h(t) < t, t <- the
 * latest deadline below t when h(t) = t, and stops at h(t) > t (a violation)
 * or h(t) <= d_min (none). Every skipped t' in [h(t), t] has h(t') <= t'.
 * L is La = max(D_max, sum (T_i - D_i) U_i / (1 - U)) for U < 1 (each
 * violation satisfies t < La since h(t) <= U t + sum (T_i - D_i) U_i),
 * capped by the synchronous busy period Lb; Lb alone for U = 1. For U > 1,
 * h(t) >= U t - sum D_i U_i, so the latest deadline at or below
 * sum D_i U_i / (U - 1) + 1 is a violation.
 *
 * The violation QPA finds is the latest below its start, not the first:
 * later passes start below it until one finds none; past a few passes a
 * forward walk over the deadlines finds the first. That first violation is
 * the earliest deadline a synchronous-release EDF schedule misses.
 */
#include "analysis/analysis_impl.h"

#define QPA_PASSES 8
#define BUSY_PERIOD_ITERS 10000000

int dls_analysis_check(const struct dls_params *ts, size_t n)
{
	if (n && !ts)
		return DLS_EINVAL;
	for (size_t i = 0; i < n; i++) {
		const struct dls_params *p = &ts[i];

		if ((p->runtime | p->deadline | p->period) & (UINT64_C(1) << 63))
			return DLS_ETOPBIT;
		if (p->deadline == 0)
			return DLS_EDEADLINE_ZERO;
		if (p->runtime == 0)
			return DLS_EINVAL;
		if (p->runtime > p->deadline)
			return DLS_ERUNTIME_GT_DEADLINE;
		if (p->period && p->deadline > p->period)
			return DLS_EDEADLINE_GT_PERIOD;
	}
	return 0;
}

int dls__an_args(const struct dls_params *ts, size_t n, int m,
		 const struct dls_analysis_result *r)
{
	if (!r || m < 1)
		return DLS_EINVAL;
	return dls_analysis_check(ts, n);
}

uint64_t dls__fix_to_bw(dls_u128 x)
{
	dls_u128 y = dls_u128_shr(x, DLS__FIX_SHIFT - DLS_BW_SHIFT);

	return y.hi ? UINT64_MAX : y.lo;
}

/* a * b, or false when it does not fit 128 bits. */
static bool mul_u128_u64(dls_u128 a, uint64_t b, dls_u128 *p)
{
	dls_u128 lo = dls_u128_mul_u64_u64(a.lo, b), hi = dls_u128_mul_u64_u64(a.hi, b);

	if (hi.hi || lo.hi + hi.lo < lo.hi)
		return false;
	*p = (dls_u128){ .lo = lo.lo, .hi = lo.hi + hi.lo };
	return true;
}

/* Exact comparison through the LCM of the denominators, when it fits. */
static int ratio_sum_exact(const struct dls_params *ts, size_t n,
			   const struct dls__ratio_weights *w, struct dls__ratio_sum *s,
			   int *cmp)
{
	uint64_t lcm = 1;
	dls_u128 num = dls_u128_from_u64(0), bound;

	for (size_t i = 0; i < n; i++) {
		uint64_t x = w->density ? ts[i].deadline : dls__an_period(&ts[i]);
		dls_u128 l = dls_u128_mul_u64_u64(lcm / dls__gcd64(lcm, x), x);

		if (l.hi)
			return DLS_ERANGE;
		lcm = l.lo;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t x = w->density ? ts[i].deadline : dls__an_period(&ts[i]);
		/* C <= X, so C lcm / X <= lcm fits 64 bits */
		uint64_t t = dls_u128_mul_u64_u64(ts[i].runtime, lcm / x).lo;

		num = dls_u128_add(num, dls_u128_mul_u64_u64(t, w->base));
		if (i == w->extra)
			num = dls_u128_add(num, dls_u128_mul_u64_u64(t, w->extra_w));
	}
	if (!mul_u128_u64(w->bound, lcm, &bound))
		return DLS_ERANGE;
	s->lcm = lcm;
	s->num = num;
	*cmp = dls_u128_cmp(num, bound);
	return 0;
}

int dls__ratio_sum_cmp_w(const struct dls_params *ts, size_t n,
			 const struct dls__ratio_weights *w, struct dls__ratio_sum *s,
			 int *cmp)
{
	dls_u128 lo = dls_u128_from_u64(0), hi = lo, bound;

	for (size_t i = 0; i < n; i++) {
		uint64_t x = w->density ? ts[i].deadline : dls__an_period(&ts[i]);
		uint64_t rem;
		/* C <= X, so the quotient is at most 2^32 */
		uint64_t q = dls_u128_div_u64_rem(
			dls_u128_shl(dls_u128_from_u64(ts[i].runtime), DLS__FIX_SHIFT),
			x, &rem).lo;

		lo = dls_u128_add(lo, dls_u128_mul_u64_u64(q, w->base));
		hi = dls_u128_add(hi, dls_u128_mul_u64_u64(q + (rem != 0), w->base));
		if (i == w->extra) {
			lo = dls_u128_add(lo, dls_u128_mul_u64_u64(q, w->extra_w));
			hi = dls_u128_add(hi, dls_u128_mul_u64_u64(q + (rem != 0), w->extra_w));
		}
	}
	s->lo = lo;
	s->hi = hi;
	s->lcm = 0;
	s->num = dls_u128_from_u64(0);
	if (w->bound.hi >> (64 - DLS__FIX_SHIFT))
		return DLS_ERANGE;
	bound = dls_u128_shl(w->bound, DLS__FIX_SHIFT);
	if (dls_u128_lt(hi, bound)) {
		*cmp = -1;
		return 0;
	}
	if (dls_u128_lt(bound, lo)) {
		*cmp = 1;
		return 0;
	}
	if (dls_u128_eq(lo, hi)) {
		*cmp = 0;
		return 0;
	}
	return ratio_sum_exact(ts, n, w, s, cmp);
}

int dls__ratio_sum_cmp(const struct dls_params *ts, size_t n, bool density,
		       size_t extra, uint64_t extra_w, uint64_t m,
		       struct dls__ratio_sum *s, int *cmp)
{
	const struct dls__ratio_weights w = { .density = density, .base = 1, .extra = extra,
					      .extra_w = extra_w,
					      .bound = dls_u128_from_u64(m) };

	return dls__ratio_sum_cmp_w(ts, n, &w, s, cmp);
}

int dls_analysis_utilization(const struct dls_params *ts, size_t n, int m,
			     bool density, struct dls_analysis_result *r)
{
	struct dls__ratio_sum s;
	int err = dls__an_args(ts, n, m, r), cmp;

	if (err)
		return err;
	*r = (struct dls_analysis_result){ 0 };
	err = dls__ratio_sum_cmp(ts, n, density, SIZE_MAX, 0, (uint64_t)m, &s, &cmp);
	if (err)
		return err;
	r->value = dls__fix_to_bw(s.lo);
	r->task = n;
	/*
	 * Proven: U > m (no scheduler keeps up); U <= 1 on one CPU with D = T
	 * (Liu & Layland); density <= 1 on one CPU (each job fits its own
	 * window). Elsewhere the comparison shows nothing about EDF.
	 */
	if (density && m > 1)
		return DLS_EMODEL; /* GFB is the density test on m CPUs */
	if (!density && cmp <= 0) {
		r->task = dls__first_constrained(ts, n);
		if (m > 1 || r->task < n)
			return DLS_EMODEL;
	}
	r->schedulable = cmp <= 0;
	return 0;
}

uint64_t dls_analysis_dbf(const struct dls_params *ts, size_t n, uint64_t t)
{
	uint64_t h = 0;

	for (size_t i = 0; i < n; i++) {
		const struct dls_params *p = &ts[i];

		/* each term is at most t, as C <= D <= T */
		if (t >= p->deadline)
			h = dls__sat_add(h, ((t - p->deadline) / dls__an_period(p) + 1) *
						    p->runtime);
	}
	return h;
}

bool dls__deadline_at_or_below(const struct dls_params *ts, size_t n,
			       uint64_t t, uint64_t *d)
{
	bool any = false;
	uint64_t best = 0;

	for (size_t i = 0; i < n; i++) {
		const struct dls_params *p = &ts[i];
		uint64_t T = dls__an_period(p), x;

		if (t < p->deadline)
			continue;
		x = t - (t - p->deadline) % T;
		if (!any || x > best)
			best = x;
		any = true;
	}
	*d = best;
	return any;
}

uint64_t dls__deadline_after(const struct dls_params *ts, size_t n, uint64_t t)
{
	uint64_t best = UINT64_MAX;

	for (size_t i = 0; i < n; i++) {
		const struct dls_params *p = &ts[i];
		uint64_t T = dls__an_period(p), x;

		if (t < p->deadline) {
			x = p->deadline;
		} else {
			uint64_t k = (t - p->deadline) / T + 1;
			dls_u128 y = dls_u128_mul_u64_u64(k, T);

			x = y.hi ? UINT64_MAX : dls__sat_add(p->deadline, y.lo);
		}
		if (x < best)
			best = x;
	}
	return best;
}

/*
 * One QPA pass over the deadlines at or below @start: true with the
 * violation in *@at, false when there is none.
 */
static bool qpa_pass(const struct dls_params *ts, size_t n, uint64_t dmin,
		     uint64_t start, uint64_t *at)
{
	uint64_t t, h;

	if (!dls__deadline_at_or_below(ts, n, start, &t))
		return false;
	for (;;) {
		h = dls_analysis_dbf(ts, n, t);
		if (h > t) {
			/* h is flat since the latest deadline at or below t */
			dls__deadline_at_or_below(ts, n, t, at);
			return true;
		}
		if (h <= dmin)
			return false;
		if (h < t)
			t = h;
		else if (!dls__deadline_at_or_below(ts, n, t - 1, &t))
			return false;
	}
}

/* Synchronous busy period, or UINT64_MAX once it passes @cap. */
static int busy_period(const struct dls_params *ts, size_t n, uint64_t cap,
		       uint64_t *len)
{
	uint64_t w = 0, next;

	for (size_t i = 0; i < n; i++)
		w = dls__sat_add(w, ts[i].runtime);
	for (long it = 0; it < BUSY_PERIOD_ITERS; it++) {
		next = 0;
		for (size_t i = 0; i < n; i++) {
			uint64_t T = dls__an_period(&ts[i]);

			next = dls__sat_add(next, (w / T + (w % T != 0)) * ts[i].runtime);
		}
		if (next == w) {
			*len = w;
			return 0;
		}
		if (next > cap) {
			*len = UINT64_MAX;
			return 0;
		}
		if (next == UINT64_MAX)
			return DLS_ERANGE;
		w = next;
	}
	return DLS_ERANGE;
}

/* sum ceil(a_i C_i / T_i) for a_i = T_i - D_i, or D_i when @by_deadline. */
static uint64_t weighted_util(const struct dls_params *ts, size_t n, bool by_deadline)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t T = dls__an_period(&ts[i]);
		uint64_t a = by_deadline ? ts[i].deadline : T - ts[i].deadline;

		if (a)
			sum = dls__sat_add(sum, dls__mul_div_ceil(a, ts[i].runtime, T));
	}
	return sum;
}

/* The bound QPA starts from. */
static int qpa_bound(const struct dls_params *ts, size_t n, uint64_t dmax,
		     uint64_t *L)
{
	struct dls__ratio_sum s;
	int err, cmp;

	err = dls__ratio_sum_cmp(ts, n, false, SIZE_MAX, 0, 1, &s, &cmp);
	if (err)
		return err;
	if (cmp < 0) {
		uint64_t la = UINT64_MAX;

		if (s.hi.hi == 0 && s.hi.lo < DLS__FIX_ONE) {
			la = dls__mul_div_ceil(weighted_util(ts, n, false),
					       DLS__FIX_ONE, DLS__FIX_ONE - s.hi.lo);
			if (la < dmax)
				la = dmax;
		}
		err = busy_period(ts, n, la, L);
		if (!err && *L > la)
			*L = la;
		if (!err && *L == UINT64_MAX)
			return DLS_ERANGE;
		return err;
	}
	if (cmp == 0)
		return busy_period(ts, n, UINT64_MAX - 1, L);
	/* U > 1: (U - 1) >= lo - 1 in fixed point, or 1 / lcm exactly */
	if (s.lcm == 0) {
		uint64_t excess = s.lo.hi ? UINT64_MAX : s.lo.lo - DLS__FIX_ONE;

		*L = dls__sat_add(dls__mul_div_ceil(weighted_util(ts, n, true),
						    DLS__FIX_ONE, excess), 1);
	} else {
		dls_u128 b = dls_u128_mul_u64_u64(weighted_util(ts, n, true), s.lcm);

		*L = b.hi ? UINT64_MAX : dls__sat_add(b.lo, 1);
	}
	return *L == UINT64_MAX ? DLS_ERANGE : 0;
}

int dls_analysis_qpa(const struct dls_params *ts, size_t n,
		     struct dls_analysis_result *r)
{
	uint64_t dmin = UINT64_MAX, dmax = 0, L, at, t;
	int err = dls__an_args(ts, n, 1, r);

	if (err)
		return err;
	*r = (struct dls_analysis_result){ .schedulable = true };
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (ts[i].deadline < dmin)
			dmin = ts[i].deadline;
		if (ts[i].deadline > dmax)
			dmax = ts[i].deadline;
	}
	err = qpa_bound(ts, n, dmax, &L);
	if (err)
		return err;
	if (!qpa_pass(ts, n, dmin, L, &at))
		return 0;
	r->schedulable = false;
	for (int pass = 0; pass < QPA_PASSES; pass++) {
		uint64_t below;

		if (at == dmin || !qpa_pass(ts, n, dmin, at - 1, &below))
			goto found;
		at = below;
	}
	/* Dense violations: walk forward to the first. */
	for (t = dmin; t < at; t = dls__deadline_after(ts, n, t))
		if (dls_analysis_dbf(ts, n, t) > t)
			break;
	at = t;
found:
	r->at = at;
	r->value = dls_analysis_dbf(ts, n, at);
	for (size_t i = 0; i < n; i++)
		if (at >= ts[i].deadline && (at - ts[i].deadline) % dls__an_period(&ts[i]) == 0) {
			r->task = i;
			break;
		}
	return 0;
}
