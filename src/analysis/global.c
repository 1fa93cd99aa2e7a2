/*
 * Global EDF on m identical CPUs: sufficient tests and the tardiness bound;
 * GFB's generalisation to uniform CPUs.
 *
 *  - GFB (Goossens, Funk & Baruah, RTS 25(2-3), 2003), in the density form
 *    for constrained deadlines: sum_i C_i/D_i <= m - (m - 1) max_i C_i/D_i.
 *  - BAK (Baker, RTSS 2003, as Bertogna, Cirinei & Lipari, ECRTS 2005,
 *    Theorem 3, state it), with lambda = C_k / D_k for each task k:
 *    sum_i min(1, beta_i) <= m - (m - 1) lambda, where
 *    beta_i = u_i (1 + (T_i - D_i) / D_k) + [u_i > lambda] (C_i - lambda T_i) / D_k.
 *  - BCL (Bertogna, Cirinei & Lipari, ECRTS 2005), exact in integers after
 *    scaling by D_k: with N_i = floor((D_k - D_i) / T_i) + 1 (0 when
 *    D_k < D_i), I_i = N_i C_i + min(C_i, max(0, D_k - N_i T_i)), task k is
 *    safe when sum_{i != k} min(I_i, D_k - C_k) < m (D_k - C_k), or equal
 *    with some i != k having 0 < I_i <= D_k - C_k.
 *  - RTA (Bertogna & Cirinei, RTSS 2007): R_k = C_k + floor(sum_{i != k}
 *    min(W_i(R_k), E_i(D_k), R_k - C_k + 1) / m) iterated from C_k, with the
 *    workload bound W_i(L) (eq. 4 and 8) and the EDF bound E_i(D_k) (eq. 5
 *    and 9) both shrunk by the slack S_i = D_i - R_i of earlier rounds;
 *    rounds repeat while a slack grows. Each R_k is the least fixed point,
 *    the plain iteration's, found piece by piece: every term is piecewise
 *    linear in R with slope 0 or 1, so a step solves the fixed-point
 *    inequality on the current piece or jumps past it. When about m terms
 *    grow with R the plain iteration crawls by one time unit per step
 *    (nanoseconds); the walk's length depends on the periods, not the unit.
 *    Any R with R >= C_k + floor(...(R) / m) bounds the response (the
 *    paper's proof needs no more), so after RTA_PLAIN_STEPS pieces each
 *    step still advances at least (D_k - C_k) / RTA_MIN_STEP, as schedcat's
 *    min_delta does; only sets with that many pieces below the fixed point
 *    reach it, and then the bound stays safe but may exceed the least
 *    fixed point.
 *  - Uniform CPUs (Funk, Goossens & Baruah, RTSS 2001, main theorem, with the
 *    reference platform of one CPU of speed u_i per task): EDF meets every
 *    deadline when sum u_i <= S - lambda u_max, with S the total speed and
 *    lambda = max_i sum_{j > i} s_j / s_i, speeds sorted decreasing. With
 *    D < T, densities C/D replace u (a job runs at rate C/D over its
 *    window on its own reference CPU; windows of one task do not overlap).
 *    Identical CPUs give lambda = m - 1: GFB. Compared exactly after
 *    multiplying by DLS_CAPACITY_SCALE times lambda's denominator.
 *  - Tardiness (Devi & Anderson, RTSS 2005; Linux sched-deadline.rst §3):
 *    U <= m bounds every job's lateness by
 *    ((m - 1) C_max - C_min) / (m - (m - 2) U_max) + C_max. The proof is
 *    for implicit deadlines; a set with D < T is refused (DLS_EMODEL): EDF
 *    then orders jobs by D, not T, and even one CPU with U < 1 misses
 *    ((3.31, 26.88, 150) and (36.54, 38.49, 770) ms miss by 1.36 ms).
 *
 * Sums that the papers state over rationals are compared exactly (GFB,
 * BAK, BCL): floor and ceiling in fixed point first, then, when those
 * straddle the bound, over the LCM of the denominators (DLS_ERANGE when it
 * exceeds 64 bits), so no verdict depends on the time unit.
 */
#include "analysis/analysis_impl.h"

#define RTA_ROUNDS 64
#define RTA_PLAIN_STEPS 32
#define RTA_MIN_STEP 256
#define RESP_FAILED (UINT64_C(1) << 63)

/* The task with the largest C / X (X = D for density, T otherwise). */
static size_t max_ratio(const struct dls_params *ts, size_t n, bool density)
{
	size_t best = 0;

	for (size_t i = 1; i < n; i++) {
		uint64_t xi = density ? ts[i].deadline : dls__an_period(&ts[i]);
		uint64_t xb = density ? ts[best].deadline : dls__an_period(&ts[best]);

		if (dls_u128_mul_cmp(ts[i].runtime, xb, ts[best].runtime, xi) > 0)
			best = i;
	}
	return best;
}

int dls_analysis_gfb(const struct dls_params *ts, size_t n, int m,
		     struct dls_analysis_result *r)
{
	struct dls__ratio_sum s;
	int err = dls__an_args(ts, n, m, r), cmp;

	if (err)
		return err;
	*r = (struct dls_analysis_result){ .schedulable = true };
	if (n == 0)
		return 0;
	err = dls__ratio_sum_cmp(ts, n, true, max_ratio(ts, n, true),
				 (uint64_t)m - 1, (uint64_t)m, &s, &cmp);
	if (err)
		return err;
	r->schedulable = cmp <= 0;
	r->task = max_ratio(ts, n, true);
	r->value = dls__fix_to_bw(s.lo);
	return 0;
}

/*
 * BAK, exactly. Scaled by D_k, task i's term is D_k min(1, beta_i) =
 * min(D_k, p / T_i + q / D_k) with p = C_i (D_k + T_i - D_i) and, when
 * u_i > lambda, q = C_i D_k - C_k T_i (else 0); the bound is the integer
 * m D_k - (m - 1) C_k. Each term is held as whole + rho / T_i + sigma / D_k
 * with proper fractions, so the comparison has no rounding and the verdict
 * does not depend on the time unit.
 */
struct bak_term {
	dls_u128 whole;
	uint64_t rho, sigma;
	bool capped;      /* the term is D_k */
};

static struct bak_term bak_term(const struct dls_params *ti, const struct dls_params *tk)
{
	uint64_t Ti = dls__an_period(ti), Dk = tk->deadline, rho, sigma = 0;
	dls_u128 p = dls_u128_mul_u64_u64(ti->runtime, Dk + (Ti - ti->deadline));
	struct bak_term b = { .whole = dls_u128_div_u64_rem(p, Ti, &rho) };
	dls_u128 K;

	b.rho = rho;
	if (dls_u128_mul_cmp(ti->runtime, Dk, tk->runtime, Ti) > 0) {
		dls_u128 q = dls_u128_sub(dls_u128_mul_u64_u64(ti->runtime, Dk),
					  dls_u128_mul_u64_u64(tk->runtime, Ti));

		b.whole = dls_u128_add(b.whole, dls_u128_div_u64_rem(q, Dk, &sigma));
	}
	b.sigma = sigma;
	/* capped when whole + rho / T_i + sigma / D_k >= D_k; the fractions sum below 2 */
	if (!dls_u128_lt(b.whole, dls_u128_from_u64(Dk)))
		b.capped = true;
	else if (dls_u128_eq(K = dls_u128_sub(dls_u128_from_u64(Dk), b.whole),
			     dls_u128_from_u64(1)))
		b.capped = !dls_u128_lt(dls_u128_add(dls_u128_mul_u64_u64(b.rho, Dk),
						     dls_u128_mul_u64_u64(b.sigma, Ti)),
					dls_u128_mul_u64_u64(Ti, Dk));
	if (b.capped)
		b = (struct bak_term){ .whole = dls_u128_from_u64(Dk), .capped = true };
	return b;
}

/* floor(x 2^32 / d) for x < d, and whether it was exact. */
static uint64_t fix_frac(uint64_t x, uint64_t d, bool *exact)
{
	uint64_t rem, q = dls_u128_div_u64_rem(dls_u128_shl(dls_u128_from_u64(x),
							      DLS__FIX_SHIFT), d, &rem).lo;

	*exact = rem == 0;
	return q;
}

/* Exact sum of task k's terms against the bound over the LCM of the
 * fractions' denominators: 1 if within it, 0 if not, DLS_ERANGE if the LCM
 * exceeds 64 bits. */
static int bak_exact(const struct dls_params *ts, size_t n, size_t k, dls_u128 bound)
{
	uint64_t Dk = ts[k].deadline, L = Dk;
	dls_u128 whole = dls_u128_from_u64(0), frac = whole, room;

	for (size_t i = 0; i < n; i++) {
		struct bak_term b = bak_term(&ts[i], &ts[k]);
		uint64_t Ti = dls__an_period(&ts[i]), g;

		whole = dls_u128_add(whole, b.whole);
		if (!b.rho) /* L / T_i is then not needed */
			continue;
		g = dls__gcd64(L, Ti);
		if (dls_u128_mul_u64_u64(L / g, Ti).hi)
			return DLS_ERANGE;
		L = L / g * Ti;
	}
	for (size_t i = 0; i < n; i++) {
		struct bak_term b = bak_term(&ts[i], &ts[k]);

		frac = dls_u128_add(frac, dls_u128_mul_u64_u64(b.rho,
							      L / dls__an_period(&ts[i])));
		frac = dls_u128_add(frac, dls_u128_mul_u64_u64(b.sigma, L / Dk));
	}
	if (dls_u128_lt(bound, whole))
		return 0;
	/* the fractions sum below 2n: compare frac with (bound - whole) L */
	room = dls_u128_sub(bound, whole);
	if (room.hi || room.lo >= 2 * (uint64_t)n)
		return 1;
	return !dls_u128_lt(dls_u128_mul_u64_u64(room.lo, L), frac);
}

int dls_analysis_bak(const struct dls_params *ts, size_t n, int m,
		     struct dls_analysis_result *r)
{
	int err = dls__an_args(ts, n, m, r);

	if (err)
		return err;
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (size_t k = 0; k < n; k++) {
		uint64_t Dk = ts[k].deadline;
		/* m D_k - (m - 1) C_k >= D_k, as C_k <= D_k */
		dls_u128 bound = dls_u128_sub(dls_u128_mul_u64_u64((uint64_t)m, Dk),
					      dls_u128_mul_u64_u64((uint64_t)m - 1,
								   ts[k].runtime));
		dls_u128 lo = dls_u128_from_u64(0), hi = lo, fb;
		int within;

		/* first the sum's floor and ceiling in 32-bit fixed point */
		for (size_t i = 0; i < n; i++) {
			struct bak_term b = bak_term(&ts[i], &ts[k]);
			bool e1, e2;
			uint64_t f = fix_frac(b.rho, dls__an_period(&ts[i]), &e1) +
				     fix_frac(b.sigma, Dk, &e2);
			dls_u128 x = dls_u128_add(dls_u128_shl(b.whole, DLS__FIX_SHIFT),
						  dls_u128_from_u64(f));

			lo = dls_u128_add(lo, x);
			hi = dls_u128_add(hi, dls_u128_add(x, dls_u128_from_u64(!e1 + !e2)));
		}
		fb = dls_u128_shl(bound, DLS__FIX_SHIFT);
		if (!dls_u128_lt(fb, hi))
			within = 1;
		else if (dls_u128_lt(fb, lo))
			within = 0;
		else if ((within = bak_exact(ts, n, k, bound)) < 0)
			return within;
		if (!within) {
			r->schedulable = false;
			r->task = k;
			return 0;
		}
	}
	return 0;
}

/* BCL's interference bound I_i of task i in a window of task k, times D_k. */
static uint64_t bcl_interference(const struct dls_params *ti, uint64_t Dk)
{
	uint64_t Ti = dls__an_period(ti), N, body, rest;

	N = Dk < ti->deadline ? 0 : (Dk - ti->deadline) / Ti + 1;
	body = N * ti->runtime;            /* <= D_k - D_i + C_i */
	rest = Dk > N * Ti ? Dk - N * Ti : 0; /* N T_i <= D_k - D_i + T_i */
	return body + (rest < ti->runtime ? rest : ti->runtime);
}

int dls_analysis_bcl(const struct dls_params *ts, size_t n, int m,
		     struct dls_analysis_result *r)
{
	int err = dls__an_args(ts, n, m, r);

	if (err)
		return err;
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (size_t k = 0; k < n; k++) {
		uint64_t Dk = ts[k].deadline, slack = Dk - ts[k].runtime;
		dls_u128 sum = dls_u128_from_u64(0), cap;
		bool fits_once = false;
		int c;

		for (size_t i = 0; i < n; i++) {
			uint64_t I;

			if (i == k)
				continue;
			I = bcl_interference(&ts[i], Dk);
			if (I > 0 && I <= slack)
				fits_once = true;
			sum = dls_u128_add(sum, dls_u128_from_u64(I < slack ? I : slack));
		}
		cap = dls_u128_mul_u64_u64((uint64_t)m, slack);
		c = dls_u128_cmp(sum, cap);
		if (c > 0 || (c == 0 && !fits_once)) {
			r->schedulable = false;
			r->task = k;
			return 0;
		}
	}
	return 0;
}

/* W_i(L) of Bertogna & Cirinei, eq. (4) and (8), with slack S_i. */
static uint64_t rta_workload(const struct dls_params *ti, uint64_t slack, uint64_t L)
{
	uint64_t Ti = dls__an_period(ti);
	uint64_t span = dls__sat_add(L, ti->deadline - ti->runtime - slack);
	uint64_t rest = span % Ti;

	return (span / Ti) * ti->runtime + (rest < ti->runtime ? rest : ti->runtime);
}

/* E_i(D_k), eq. (5) and (9), with slack S_i. */
static uint64_t rta_edf_bound(const struct dls_params *ti, uint64_t slack, uint64_t Dk)
{
	uint64_t Ti = dls__an_period(ti), rest = Dk % Ti;

	rest = rest > slack ? rest - slack : 0;
	return (Dk / Ti) * ti->runtime + (rest < ti->runtime ? rest : ti->runtime);
}

static uint64_t slack_of(const struct dls_params *t, uint64_t resp)
{
	return t->deadline - (resp & ~RESP_FAILED);
}

/* One term min(W_i(x), E_i(D_k), x - C_k + 1) of the interference sum at
 * x: its value, its slope (0 or 1) and how far past x it stays linear. */
struct rta_piece {
	uint64_t value, slope, len;
};

static struct rta_piece rta_term(const struct dls_params *ti, uint64_t slack,
				 const struct dls_params *tk, uint64_t x)
{
	uint64_t Ti = dls__an_period(ti), Ci = ti->runtime;
	uint64_t span = dls__sat_add(x, ti->deadline - Ci - slack), rest = span % Ti;
	uint64_t w = rta_workload(ti, slack, x), e = rta_edf_bound(ti, slack, tk->deadline);
	uint64_t cap = x - tk->runtime + 1, v = cap;
	/* W ramps (slope 1) for C_i - rest more units, or is flat for T_i - rest */
	bool w_ramp = rest < Ci;
	uint64_t w_len = w_ramp ? Ci - rest : Ti - rest;
	struct rta_piece p;

	if (w < v)
		v = w;
	if (e <= v)
		return (struct rta_piece){ e, 0, UINT64_MAX };
	if (w == v && !w_ramp)
		return (struct rta_piece){ w, 0, w_len };
	/* the minimum grows at slope 1 until it meets E or a flat W */
	p = (struct rta_piece){ v, 1, e - v };
	if (w_ramp && w_len < p.len)
		p.len = w_len;
	if (!w_ramp && w - v < p.len)
		p.len = w - v;
	return p;
}

/*
 * Response bound of task k, or a value above D_k: the least x >= C_k with
 * C_k + floor(S(x) / m) <= x, S the interference sum, which is the least
 * fixed point the plain iteration from C_k converges to. S is piecewise
 * linear with slope sigma on each piece, so each step either solves
 * S(x + t) = S(x) + sigma t < m (x + t - C_k + 1) on the piece or moves past
 * it (or to the plain iteration's next value, if further): the walk's
 * length depends on the task set, not on the time unit.
 */
static uint64_t rta_fixpoint(const struct dls_params *ts, size_t n, int m,
			     const uint64_t *resp, size_t k)
{
	const struct dls_params *tk = &ts[k];
	uint64_t x = tk->runtime, next, steps = 0;
	uint64_t min_step = (tk->deadline - tk->runtime) / RTA_MIN_STEP + 1;

	for (;;) {
		dls_u128 sum = dls_u128_from_u64(0), supply, deficit, q;
		uint64_t sigma = 0, len = UINT64_MAX;

		for (size_t i = 0; i < n; i++) {
			struct rta_piece p;

			if (i == k)
				continue;
			p = rta_term(&ts[i], slack_of(&ts[i], resp[i]), tk, x);
			sum = dls_u128_add(sum, dls_u128_from_u64(p.value));
			sigma += p.slope;
			if (p.len < len)
				len = p.len;
		}
		/* done when S(x) < m (x - C_k + 1) */
		supply = dls_u128_mul_u64_u64((uint64_t)m, x - tk->runtime + 1);
		if (dls_u128_lt(sum, supply))
			return x;
		deficit = dls_u128_add(dls_u128_sub(sum, supply), dls_u128_from_u64(1));
		if (sigma < (uint64_t)m) {
			uint64_t rem, gain = (uint64_t)m - sigma;
			dls_u128 t = dls_u128_div_u64_rem(deficit, gain, &rem);

			t = dls_u128_add(t, dls_u128_from_u64(rem != 0));
			if (t.hi == 0 && t.lo < len)
				return dls__sat_add(x, t.lo);
		}
		/* the plain iteration's next value, if beyond the piece */
		q = dls_u128_div_u64_rem(sum, (uint64_t)m, NULL);
		next = q.hi ? UINT64_MAX : dls__sat_add(tk->runtime, q.lo);
		if (dls__sat_add(x, len) > next)
			next = dls__sat_add(x, len);
		if (next > tk->deadline)
			return next;
		/* past RTA_PLAIN_STEPS, steps of at least (D - C) / RTA_MIN_STEP */
		if (++steps > RTA_PLAIN_STEPS && next - x < min_step)
			next = x + min_step < tk->deadline ? x + min_step : tk->deadline;
		x = next;
	}
}

int dls_analysis_rta(const struct dls_params *ts, size_t n, int m,
		     uint64_t *resp, struct dls_analysis_result *r)
{
	int err = dls__an_args(ts, n, m, r);
	bool updated = true, ok = false;

	if (err)
		return err;
	if (n && !resp)
		return DLS_EINVAL;
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (size_t k = 0; k < n; k++)
		resp[k] = ts[k].deadline; /* slack 0 */
	for (int round = 0; updated && !ok && round < RTA_ROUNDS; round++) {
		updated = false;
		ok = true;
		for (size_t k = 0; k < n; k++) {
			uint64_t R = rta_fixpoint(ts, n, m, resp, k);

			if (R <= ts[k].deadline) {
				if (R != (resp[k] & ~RESP_FAILED))
					updated = true;
				resp[k] = R;
			} else {
				resp[k] |= RESP_FAILED;
				ok = false;
			}
		}
	}
	r->schedulable = ok;
	for (size_t k = 0; k < n; k++) {
		if (!(resp[k] & RESP_FAILED))
			continue;
		resp[k] = ts[k].deadline + 1;
		if (r->schedulable == false && r->at == 0) {
			r->task = k;
			r->at = resp[k];
		}
	}
	return 0;
}

/* Quotient of a 128-bit value by a 128-bit divisor (restoring division). */
static dls_u128 div_u128(dls_u128 a, dls_u128 d)
{
	dls_u128 q = dls_u128_from_u64(0), rem = q;

	for (int bit = 127; bit >= 0; bit--) {
		rem = dls_u128_shl(rem, 1);
		rem.lo |= (bit >= 64 ? a.hi >> (bit - 64) : a.lo >> bit) & 1;
		if (!dls_u128_lt(rem, d)) {
			rem = dls_u128_sub(rem, d);
			if (bit >= 64)
				q.hi |= UINT64_C(1) << (bit - 64);
			else
				q.lo |= UINT64_C(1) << bit;
		}
	}
	return q;
}

int dls_analysis_tardiness(const struct dls_params *ts, size_t n, int m,
			   struct dls_analysis_result *r)
{
	struct dls__ratio_sum s;
	uint64_t cmax = 0, cmin = UINT64_MAX, Cu, Tu;
	dls_u128 num, den, q;
	int err = dls__an_args(ts, n, m, r), cmp;
	size_t u;

	if (err)
		return err;
	*r = (struct dls_analysis_result){ 0 };
	r->task = dls__first_constrained(ts, n);
	if (r->task < n)
		return DLS_EMODEL;
	err = dls__ratio_sum_cmp(ts, n, false, SIZE_MAX, 0, (uint64_t)m, &s, &cmp);
	if (err)
		return err;
	r->schedulable = cmp <= 0;
	if (!r->schedulable || n == 0 || m == 1)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (ts[i].runtime > cmax)
			cmax = ts[i].runtime;
		if (ts[i].runtime < cmin)
			cmin = ts[i].runtime;
	}
	u = max_ratio(ts, n, false);
	Cu = ts[u].runtime;
	Tu = dls__an_period(&ts[u]);
	/* ((m-1) Cmax - Cmin) Tu / (m Tu - (m-2) Cu), rounded up, + Cmax */
	num = dls_u128_sub(dls_u128_mul_u64_u64((uint64_t)m - 1, cmax),
			   dls_u128_from_u64(cmin));
	if (num.hi)
		return DLS_ERANGE;
	num = dls_u128_mul_u64_u64(num.lo, Tu);
	den = dls_u128_sub(dls_u128_mul_u64_u64((uint64_t)m, Tu),
			   dls_u128_mul_u64_u64((uint64_t)m - 2, Cu));
	num = dls_u128_add(num, dls_u128_sub(den, dls_u128_from_u64(1)));
	q = div_u128(num, den);
	if (q.hi || q.lo + cmax < cmax)
		return DLS_ERANGE;
	r->value = q.lo + cmax;
	return 0;
}

/* lambda = max_i sum_{j > i} s_j / s_i over the speeds sorted decreasing
 * (ties in index order, which gives the same maximum), as num / den. */
static void uniform_lambda(const uint32_t *cap, int m, uint64_t *num, uint64_t *den)
{
	*num = 0;
	*den = 1;
	for (int i = 0; i < m; i++) {
		uint64_t tail = 0;

		for (int j = 0; j < m; j++)
			if (cap[j] < cap[i] || (cap[j] == cap[i] && j > i))
				tail += cap[j];
		if (dls_u128_mul_cmp(tail, *den, *num, cap[i]) > 0) {
			*num = tail;
			*den = cap[i];
		}
	}
}

int dls_analysis_uniform(const struct dls_params *ts, size_t n, const uint32_t *capacity,
			 int m, struct dls_analysis_result *r)
{
	struct dls__ratio_weights w = { .density = true };
	struct dls__ratio_sum s;
	uint64_t num, den, g, speed = 0, rem;
	dls_u128 extra;
	int err = dls__an_args(ts, n, m, r), cmp;

	if (err)
		return err;
	if (!capacity)
		return dls_analysis_gfb(ts, n, m, r);
	for (int c = 0; c < m; c++) {
		if (capacity[c] == 0)
			return DLS_EINVAL;
		speed += capacity[c];
	}
	*r = (struct dls_analysis_result){ .schedulable = true };
	if (n == 0)
		return 0;
	uniform_lambda(capacity, m, &num, &den);
	g = dls__gcd64(num, den);
	num /= g;
	den /= g;
	/* times SCALE den: SCALE den sum d_i + SCALE num d_max <= den S */
	extra = dls_u128_mul_u64_u64(DLS_CAPACITY_SCALE, num);
	if (extra.hi)
		return DLS_ERANGE;
	w.base = (uint64_t)DLS_CAPACITY_SCALE * den;
	w.extra = max_ratio(ts, n, true);
	w.extra_w = extra.lo;
	w.bound = dls_u128_mul_u64_u64(den, speed);
	err = dls__ratio_sum_cmp_w(ts, n, &w, &s, &cmp);
	if (err)
		return err;
	r->schedulable = cmp <= 0;
	r->task = w.extra;
	r->value = dls__fix_to_bw(dls_u128_div_u64_rem(s.lo, w.base, &rem));
	return 0;
}
