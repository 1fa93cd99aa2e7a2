/*
 * The CBS and GRUB rules alone (src/cbs/cbs_impl.h, src/cbs/grub_impl.h):
 * an entity's state, now and a configuration in, a decision out; no
 * runqueue, no domain, no timer. Every expected value is derived by hand
 * from the rule's source, cited at the case:
 *
 *  [AB98]  L. Abeni and G. Buttazzo, "Integrating Multimedia Applications
 *          in Hard Real-Time Systems", RTSS 1998: the CBS rules (a) on a
 *          job arriving at an idle server (keep (c, d) if c < (d - r) Q/T,
 *          else d = r + T, c = Q) and (b) on budget exhaustion (d = d + T,
 *          c = Q).
 *  [SD2.1] Linux Documentation/scheduler/sched-deadline.rst §2.1 "Main
 *          algorithm": the wake-up test runtime / (deadline - t) >
 *          dl_runtime / dl_deadline, throttling at runtime <= 0 and the
 *          replenishment deadline += period, runtime += dl_runtime.
 *  [SD2.2] the same document, §2.2 "Bandwidth reclaiming": the 0-lag time,
 *          the inactive state and dq = -max{u, Umax - Uinact - Uextra} /
 *          Umax dt.
 *  [REV]   Linux commit 3effcb4247e7 "sched/deadline: Use the revised
 *          wakeup rule for suspending constrained dl tasks" (its example:
 *          runtime 5 ms, deadline 7 ms, period 1000 ms).
 *  [CON]   Linux commit df8eac8cafce "sched/deadline: Throttle a constrained
 *          deadline task activated after the deadline".
 *  [NP]    Linux commit 5ac69d37784b "sched/deadline: Make sure the
 *          replenishment timer fires in the next period".
 *  [LAG]   Linux's replenish_dl_entity(): a deadline still behind now after
 *          the replenishment is reset to now + dl_deadline, full runtime.
 *  [LB00]  G. Lipari and S. Baruah, "Greedy reclamation of unused
 *          bandwidth in constant-bandwidth servers", ECRTS 2000: the 0-lag
 *          time d - c T / Q.
 *  [AL16]  L. Abeni, G. Lipari, A. Parri and Y. Sun, "Multicore CPU
 *          reclaiming: parallel or sequential?", SAC 2016, with the kernel's
 *          fixed point (RATIO_SHIFT 8, bw_ratio = (1 << 40) / Umax >> 12).
 *
 * Each case runs twice: with the clock at 1 s and at 2^64 - 5 ms, so that
 * every instant below wraps (the rules compare with dls_time_before()).
 */
#include <dlsched/math128.h>
#include <dlsched/sched.h>

#include "cbs/cbs_impl.h"
#include "cbs/grub_impl.h"
#include "dls_test.h"
#include "edf/bw_impl.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static uint64_t T; /* the suite's base instant */

/* An entity with reservation (Q, D, P) in its first instance, deadline at
 * T + @dl with @runtime left: only what the rules read. */
static struct dls_entity entity(uint64_t q, uint64_t d, uint64_t p,
				uint64_t dl, int64_t runtime)
{
	struct dls_entity se;

	dls_entity_init(&se);
	se.params = (struct dls_params){ .runtime = q, .deadline = d, .period = p };
	se.period = p ? p : d;
	se.bw = dls_params_bw(&se.params);
	se.is_new = false;
	se.deadline = T + dl;
	se.runtime = runtime;
	return se;
}

static struct dls_domain_config config(enum dls_wakeup_rule w,
				       enum dls_replenish_rule r)
{
	struct dls_domain_config cfg;

	dls_domain_config_default(&cfg);
	cfg.wakeup_rule = w;
	cfg.replenish_rule = r;
	return cfg;
}

#define EXPECT(dec, act, dl, rt)                                               \
	do {                                                                   \
		DLS_ASSERT_EQ_S64((dec).action, (act));                        \
		DLS_ASSERT_EQ_U64((dec).deadline, (dl));                       \
		DLS_ASSERT_EQ_S64((dec).runtime, (rt));                        \
	} while (0)

/* [AB98] rule (a), [SD2.1]: Q = 2 ms, D = P = 10 ms, 1 ms left, deadline
 * at T + 10 ms. Woken at T + 4 ms the laxity is 6 ms and 1/6 <= 2/10:
 * keep. At T + 5 ms, 1/5 = 2/10 exactly: keep (the test is strict, and
 * exact in 128 bits). At T + 6 ms, 1/4 > 2/10: a new instance (T + 16 ms,
 * 2 ms). Past the deadline, or with nothing left: a new instance. */
static void test_wakeup_cbs(void)
{
	struct dls_domain_config cfg = config(DLS_WAKEUP_REVISED, DLS_REPLENISH_NEXT_PERIOD);
	struct dls_entity se = entity(2 * MS, 10 * MS, 0, 10 * MS, 1 * MS);
	struct dls__cbs_decision d;

	d = dls__cbs_wakeup_rule(&se, T + 4 * MS, &cfg);
	EXPECT(d, DLS_CBS_KEEP, T + 10 * MS, 1 * MS);
	CU_ASSERT_TRUE(d.kept);
	d = dls__cbs_wakeup_rule(&se, T + 5 * MS, &cfg);
	EXPECT(d, DLS_CBS_KEEP, T + 10 * MS, 1 * MS);
	d = dls__cbs_wakeup_rule(&se, T + 5 * MS + 1, &cfg);
	EXPECT(d, DLS_CBS_RENEW, T + 15 * MS + 1, 2 * MS);
	CU_ASSERT_FALSE(d.kept);
	d = dls__cbs_wakeup_rule(&se, T + 6 * MS, &cfg);
	EXPECT(d, DLS_CBS_RENEW, T + 16 * MS, 2 * MS);
	d = dls__cbs_wakeup_rule(&se, T + 10 * MS, &cfg);
	EXPECT(d, DLS_CBS_RENEW, T + 20 * MS, 2 * MS);
	se.runtime = 0;
	d = dls__cbs_wakeup_rule(&se, T + 1 * MS, &cfg);
	EXPECT(d, DLS_CBS_RENEW, T + 11 * MS, 2 * MS);
	/* A first activation always starts an instance. */
	se.runtime = 1 * MS;
	se.is_new = true;
	d = dls__cbs_wakeup_rule(&se, T + 4 * MS, &cfg);
	EXPECT(d, DLS_CBS_RENEW, T + 14 * MS, 2 * MS);
}

/* [REV]'s example: Q = 5 ms, D = 7 ms, P = 1000 ms; it ran 1 ms (4 ms
 * left) and wakes at T + 2 ms, laxity 5 ms: 4/5 > 5/7. The revised rule
 * keeps the deadline and trims the runtime to (Q/D) * laxity = 25/7 ms =
 * 3571428 ns (truncated); the 2012 rule (DLS_WAKEUP_CBS, against Q/P)
 * starts an instance (T + 9 ms, 5 ms). A trimmed runtime of 0 (laxity
 * below 7/5 ns) is a new instance, still counted as kept. */
static void test_wakeup_revised(void)
{
	struct dls_domain_config rev = config(DLS_WAKEUP_REVISED, DLS_REPLENISH_NEXT_PERIOD);
	struct dls_domain_config cbs = config(DLS_WAKEUP_CBS, DLS_REPLENISH_NEXT_PERIOD);
	struct dls_entity se = entity(5 * MS, 7 * MS, 1000 * MS, 7 * MS, 4 * MS);
	struct dls__cbs_decision d;

	d = dls__cbs_wakeup_rule(&se, T + 2 * MS, &rev);
	EXPECT(d, DLS_CBS_TRIM, T + 7 * MS, 3571428);
	CU_ASSERT_TRUE(d.kept);
	d = dls__cbs_wakeup_rule(&se, T + 2 * MS, &cbs);
	EXPECT(d, DLS_CBS_RENEW, T + 9 * MS, 5 * MS);
	CU_ASSERT_FALSE(d.kept);
	d = dls__cbs_wakeup_rule(&se, T + 7 * MS - 1, &rev);
	EXPECT(d, DLS_CBS_RENEW, T + 14 * MS - 1, 5 * MS);
	CU_ASSERT_TRUE(d.kept);
	/* Boosted by inheritance, the trim does not apply [REV]. */
	se.boosted = true;
	d = dls__cbs_wakeup_rule(&se, T + 2 * MS, &rev);
	EXPECT(d, DLS_CBS_RENEW, T + 9 * MS, 5 * MS);
}

/* [CON]: the same reservation, deadline T + 7 ms, 2 ms left, woken at
 * T + 8 ms: after its deadline, before its next period (T + 1000 ms). It
 * stays throttled, with no runtime, until then. Not so once the period
 * started, when boosted, or under the 2012 replenishment rule: there the
 * deadline has passed and an instance starts. */
static void test_wakeup_late_constrained(void)
{
	struct dls_domain_config np = config(DLS_WAKEUP_REVISED, DLS_REPLENISH_NEXT_PERIOD);
	struct dls_domain_config ad = config(DLS_WAKEUP_REVISED, DLS_REPLENISH_AT_DEADLINE);
	struct dls_entity se = entity(5 * MS, 7 * MS, 1000 * MS, 7 * MS, 2 * MS);
	struct dls__cbs_decision d;

	d = dls__cbs_wakeup_rule(&se, T + 8 * MS, &np);
	EXPECT(d, DLS_CBS_THROTTLE, T + 7 * MS, 0);
	DLS_ASSERT_EQ_U64(d.at, T + 1000 * MS);
	/* An overrun's debt is kept. */
	se.runtime = -(int64_t)MS;
	d = dls__cbs_wakeup_rule(&se, T + 8 * MS, &np);
	EXPECT(d, DLS_CBS_THROTTLE, T + 7 * MS, -(int64_t)MS);
	se.runtime = 2 * MS;
	d = dls__cbs_wakeup_rule(&se, T + 1000 * MS, &np);
	EXPECT(d, DLS_CBS_RENEW, T + 1007 * MS, 5 * MS);
	d = dls__cbs_wakeup_rule(&se, T + 8 * MS, &ad);
	EXPECT(d, DLS_CBS_RENEW, T + 15 * MS, 5 * MS);
	se.boosted = true;
	d = dls__cbs_wakeup_rule(&se, T + 8 * MS, &np);
	EXPECT(d, DLS_CBS_RENEW, T + 15 * MS, 5 * MS);
}

/* [SD2.1], [AB98] rule (b): Q = 2 ms, P = 10 ms, deadline T + 10 ms. With
 * 0 left: one period, (T + 20 ms, 2 ms). With -3 ms (an overrun beyond Q):
 * -3 + 2 <= 0, -3 + 4 > 0, two periods, (T + 30 ms, 1 ms). With -4 ms:
 * three, (T + 40 ms, 2 ms). With runtime left (a boosted entity's
 * replenishment) the pair stays. */
static void test_replenish(void)
{
	struct dls_entity se = entity(2 * MS, 10 * MS, 0, 10 * MS, 0);
	struct dls__cbs_decision d;

	d = dls__cbs_replenish_rule(&se, T + 10 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 20 * MS, 2 * MS);
	se.runtime = -3 * (int64_t)MS;
	d = dls__cbs_replenish_rule(&se, T + 10 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 30 * MS, 1 * MS);
	se.runtime = -4 * (int64_t)MS;
	d = dls__cbs_replenish_rule(&se, T + 10 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 40 * MS, 2 * MS);
	se.runtime = 1 * MS;
	d = dls__cbs_replenish_rule(&se, T + 3 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 10 * MS, 1 * MS);
	se.is_new = true;
	d = dls__cbs_replenish_rule(&se, T + 3 * MS);
	EXPECT(d, DLS_CBS_RENEW, T + 13 * MS, 2 * MS);
}

/* [LAG]: deadline T + 10 ms, 0 left, replenished only at T + 25 ms: one
 * period gives T + 20 ms, still behind now, so the entity starts afresh
 * at (T + 35 ms, 2 ms); the lagging pair (T + 20 ms, 2 ms) is reported. A
 * replenishment exactly at the postponed deadline is not lagging. */
static void test_replenish_lagged(void)
{
	struct dls_entity se = entity(2 * MS, 10 * MS, 0, 10 * MS, 0);
	struct dls__cbs_decision d;

	d = dls__cbs_replenish_rule(&se, T + 25 * MS);
	EXPECT(d, DLS_CBS_LAGGED, T + 35 * MS, 2 * MS);
	DLS_ASSERT_EQ_U64(d.lag_deadline, T + 20 * MS);
	DLS_ASSERT_EQ_S64(d.lag_runtime, 2 * MS);
	d = dls__cbs_replenish_rule(&se, T + 20 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 20 * MS, 2 * MS);
}

/* [NP], [SD2.1]: Q = 2 ms, D = 5 ms, P = 10 ms, deadline T + 5 ms, budget
 * spent at T + 3 ms: throttled until the next period, T + 5 - 5 + 10 =
 * T + 10 ms (at the deadline, T + 5 ms, under the 2012 rule). Spent at
 * T + 12 ms, past that instant: replenished at once, (T + 15 ms, 2 ms). */
static void test_throttle(void)
{
	struct dls_domain_config np = config(DLS_WAKEUP_REVISED, DLS_REPLENISH_NEXT_PERIOD);
	struct dls_domain_config ad = config(DLS_WAKEUP_REVISED, DLS_REPLENISH_AT_DEADLINE);
	struct dls_entity se = entity(2 * MS, 5 * MS, 10 * MS, 5 * MS, 0);
	struct dls__cbs_decision d;

	d = dls__cbs_throttle_rule(&se, T + 3 * MS, &np);
	DLS_ASSERT_EQ_S64(d.action, DLS_CBS_THROTTLE);
	DLS_ASSERT_EQ_U64(d.at, T + 10 * MS);
	d = dls__cbs_throttle_rule(&se, T + 3 * MS, &ad);
	DLS_ASSERT_EQ_S64(d.action, DLS_CBS_THROTTLE);
	DLS_ASSERT_EQ_U64(d.at, T + 5 * MS);
	d = dls__cbs_throttle_rule(&se, T + 12 * MS, &np);
	EXPECT(d, DLS_CBS_REPLENISH, T + 15 * MS, 2 * MS);
	d = dls__cbs_throttle_rule(&se, T + 10 * MS, &np);
	EXPECT(d, DLS_CBS_REPLENISH, T + 15 * MS, 2 * MS);
}

/* [AB98] rule (b) for a soft reservation: Q = 2 ms, P = 10 ms, deadline
 * T + 10 ms, -1 ms left: (T + 20 ms, 1 ms), and no lag reset even when
 * the new deadline is behind now, so the deadlines keep their sequence. */
static void test_soft_postpone(void)
{
	struct dls_entity se = entity(2 * MS, 10 * MS, 0, 10 * MS, -(int64_t)MS);
	struct dls__cbs_decision d;

	d = dls__cbs_postpone_rule(&se, T + 10 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 20 * MS, 1 * MS);
	se.runtime = 0;
	d = dls__cbs_postpone_rule(&se, T + 50 * MS);
	EXPECT(d, DLS_CBS_REPLENISH, T + 20 * MS, 2 * MS);
}

/* The charge: @delta at capacity c is delta * c / 1024 (truncated; the
 * kernel's cap_scale); the 2012 rule forfeits what is left at the deadline
 * and charges the time run after it once: deadline T + 10 ms, 3 ms left,
 * run from T + 8 ms to T + 12 ms: -2 ms (-1 ms at half speed); a debt
 * already larger stays. */
static void test_charge(void)
{
	struct dls_entity se = entity(4 * MS, 10 * MS, 0, 10 * MS, 3 * MS);

	DLS_ASSERT_EQ_U64(dls__cbs_scale(DLS_CAPACITY_SCALE, 1000), 1000);
	DLS_ASSERT_EQ_U64(dls__cbs_scale(512, 1001), 500);
	DLS_ASSERT_EQ_U64(dls__cbs_scale(DLS_CAPACITY_SCALE, UINT64_MAX),
			  DLS_CBS_STEP_MAX);
	DLS_ASSERT_EQ_S64(dls__cbs_forfeit_rule(&se, T + 8 * MS, T + 12 * MS,
						DLS_CAPACITY_SCALE),
			  -2 * (int64_t)MS);
	DLS_ASSERT_EQ_S64(dls__cbs_forfeit_rule(&se, T + 8 * MS, T + 12 * MS, 512),
			  -1 * (int64_t)MS);
	/* Started after the deadline: all of it counts. */
	DLS_ASSERT_EQ_S64(dls__cbs_forfeit_rule(&se, T + 11 * MS, T + 12 * MS,
						DLS_CAPACITY_SCALE),
			  -1 * (int64_t)MS);
	se.runtime = -5 * (int64_t)MS;
	DLS_ASSERT_EQ_S64(dls__cbs_forfeit_rule(&se, T + 8 * MS, T + 12 * MS,
						DLS_CAPACITY_SCALE),
			  -5 * (int64_t)MS);
}

/* [SD2.1]: at runtime <= 0 the budget is spent; an overrun is a job that
 * needed more (runtime < 0) or ran past its deadline, unless it yielded.
 * A boosted entity is replenished and keeps running, a soft one is
 * postponed ([AB98] rule (b)), any other throttled. */
static void test_exhausted(void)
{
	struct dls_entity se = entity(2 * MS, 10 * MS, 0, 10 * MS, 0);

	CU_ASSERT_FALSE(dls__cbs_overran(&se, false));
	CU_ASSERT_TRUE(dls__cbs_overran(&se, true));
	se.runtime = -1;
	CU_ASSERT_TRUE(dls__cbs_overran(&se, false));
	se.yielded = true;
	CU_ASSERT_FALSE(dls__cbs_overran(&se, true));
	DLS_ASSERT_EQ_S64(dls__cbs_exhausted_rule(&se), DLS_CBS_EXHAUSTED_THROTTLE);
	se.params.flags = DLS_FLAG_SOFT;
	DLS_ASSERT_EQ_S64(dls__cbs_exhausted_rule(&se), DLS_CBS_EXHAUSTED_THROTTLE);
	se.yielded = false;
	DLS_ASSERT_EQ_S64(dls__cbs_exhausted_rule(&se), DLS_CBS_EXHAUSTED_POSTPONE);
	se.boosted = true;
	DLS_ASSERT_EQ_S64(dls__cbs_exhausted_rule(&se), DLS_CBS_EXHAUSTED_REPLENISH);
}

/* The least dt with floor(dt * rate / 2^shift) >= want: at rate 1/2
 * (2^19 of 2^20) 1000 ns of runtime last 2000 ns; at 3 (shift 0), 334;
 * in the 128-bit range the defining property holds at dt and fails at
 * dt - 1. */
static void test_time_for(void)
{
	uint64_t want = UINT64_C(1) << 45, rate = (UINT64_C(1) << 20) + 1, dt;

	DLS_ASSERT_EQ_U64(dls__cbs_time_for(1000, UINT64_C(1) << 19, 20), 2000);
	DLS_ASSERT_EQ_U64(dls__cbs_time_for(1000, 3, 0), 334);
	DLS_ASSERT_EQ_U64(dls__cbs_time_for(1000, UINT64_C(1) << 20, 20), 1000);
	dt = dls__cbs_time_for(want, rate, 20);
	CU_ASSERT_TRUE(dls_u128_mul_u64_u64_shr(dt, rate, 20) >= want);
	CU_ASSERT_TRUE(dls_u128_mul_u64_u64_shr(dt - 1, rate, 20) < want);
}

/* [LB00], [SD2.2]: Q = 2 ms, P = 10 ms, deadline T + 10 ms. With 1 ms
 * left the 0-lag time is T + 10 - 1 * 10 / 2 = T + 5 ms; with -1 ms,
 * T + 15 ms. Blocking at T + 4 ms it stays non-contending until then while
 * somebody reclaims; at or after it, or when nobody reclaims, it turns
 * inactive at once. */
static void test_grub_zero_lag(void)
{
	struct dls_entity se = entity(2 * MS, 10 * MS, 0, 10 * MS, 1 * MS);
	uint64_t t0 = 0;

	DLS_ASSERT_EQ_U64(dls__grub_zero_lag_time(&se), T + 5 * MS);
	CU_ASSERT_FALSE(dls__grub_inactive_now(&se, T + 4 * MS, true, &t0));
	DLS_ASSERT_EQ_U64(t0, T + 5 * MS);
	CU_ASSERT_TRUE(dls__grub_inactive_now(&se, T + 5 * MS, true, &t0));
	CU_ASSERT_TRUE(dls__grub_inactive_now(&se, T + 4 * MS, false, &t0));
	se.runtime = -(int64_t)MS;
	DLS_ASSERT_EQ_U64(dls__grub_zero_lag_time(&se), T + 15 * MS);
}

/* [SD2.2], [AL16]: Umax from the limit (95% = floor(0.95 * 2^20) =
 * 996147; unlimited is 1.0) and 1/Umax = floor(2^40 / 996147) >> 12 = 269
 * (256 for 1.0). With Umax = 1: u = 1/4 and idle (Uinact + Uextra) = 1/2
 * charge at max(1/4, 1 - 1/2) = 1/2; with idle 0.9, at u = 1/4. With
 * Umax = 0.95 and nothing idle: 996147 * 269 >> 8 = 1046732, just under
 * 1.0 (the kernel's fixed point). Uextra = Umax - used, at least 0. */
static void test_grub_rate(void)
{
	uint64_t one = DLS_BW_UNIT, m95 = 996147;

	DLS_ASSERT_EQ_U64(dls__grub_max_bw(DLS_BW_UNLIMITED), one);
	DLS_ASSERT_EQ_U64(dls__grub_max_bw(m95), m95);
	DLS_ASSERT_EQ_U64(dls__grub_bw_ratio(m95), 269);
	DLS_ASSERT_EQ_U64(dls__grub_bw_ratio(one), 256);
	DLS_ASSERT_EQ_U64(dls__grub_bw_ratio(0), 0);
	DLS_ASSERT_EQ_U64(dls__grub_rate(one, 256, one / 2, one / 4), one / 2);
	DLS_ASSERT_EQ_U64(dls__grub_rate(one, 256, one * 9 / 10, one / 4), one / 4);
	DLS_ASSERT_EQ_U64(dls__grub_rate(m95, 269, 0, one / 4), 1046732);
	DLS_ASSERT_EQ_U64(dls__grub_extra(one, one * 3 / 10), one - one * 3 / 10);
	DLS_ASSERT_EQ_U64(dls__grub_extra(m95, one), 0);
}

/* A global domain's Uextra (the bandwidth object, src/edf/bw_impl.h) is Umax
 * minus floor(total * 1024 / capacity), at least 0, computed in 64 bits:
 * the same as the exact 128-bit quotient for every total and every
 * capacity a domain can have (below 2^41: nr_cpus is an int), also past
 * 2^54 where total * 1024 no longer fits. */
static void test_bw_extra(void)
{
	static const uint64_t totals[] = {
		0, 1, 996147, DLS_BW_UNIT, 3 * DLS_BW_UNIT + 7,
		UINT64_MAX / DLS_CAPACITY_SCALE, UINT64_MAX / DLS_CAPACITY_SCALE + 1,
		UINT64_C(1) << 60, UINT64_MAX,
	};
	static const uint64_t caps[] = {
		0, 1, 512, DLS_CAPACITY_SCALE, 3 * DLS_CAPACITY_SCALE + 100,
		(uint64_t)INT32_MAX * DLS_CAPACITY_SCALE,
	};
	static const uint64_t umax[] = { 996147, DLS_BW_UNIT, 0 };

	for (size_t t = 0; t < DLS__NR(totals); t++)
		for (size_t c = 0; c < DLS__NR(caps); c++)
			for (size_t m = 0; m < DLS__NR(umax); m++) {
				struct dls_bw b = { .total = totals[t], .capacity = caps[c],
						    .max_bw = umax[m], .shared = true };
				uint64_t want = caps[c] == 0 ? 0 :
					dls__grub_extra(umax[m], dls_u128_mul_u64_u64_div_u64(
						totals[t], DLS_CAPACITY_SCALE, caps[c]));

				DLS_ASSERT_EQ_U64(dls__bw_extra(&b), want);
				/* A CPU scheduled on its own takes its total as
				 * it is, whatever its capacity (Linux's extra_bw
				 * on a one-CPU root domain). */
				b.shared = false;
				DLS_ASSERT_EQ_U64(dls__bw_extra(&b),
						  dls__grub_extra(umax[m], totals[t]));
			}
}

static const struct dls_test_case cases[] = {
	{ "a domain's Uextra in 64 bits equals the 128-bit quotient", test_bw_extra },
	{ "wake-up: CBS rule (a), exact at the boundary", test_wakeup_cbs },
	{ "wake-up: the revised rule for constrained deadlines", test_wakeup_revised },
	{ "wake-up: a constrained entity late in its period", test_wakeup_late_constrained },
	{ "replenishment: k periods until the runtime is positive", test_replenish },
	{ "replenishment: the lag reset", test_replenish_lagged },
	{ "throttle: until the next period, or replenished at once", test_throttle },
	{ "soft reservation: CBS rule (b) without the lag reset", test_soft_postpone },
	{ "charge: capacity scaling and the 2012 overrun rule", test_charge },
	{ "exhausted budget: overrun, replenish, postpone or throttle", test_exhausted },
	{ "the time a runtime lasts at a rate", test_time_for },
	{ "GRUB: 0-lag time and the inactive state", test_grub_zero_lag },
	{ "GRUB: Umax, 1/Umax, the charging rate and Uextra", test_grub_rate },
	{ NULL, NULL }
};

static int base_plain(void) { T = 1 * SEC; return 0; }
static int base_wrap5ms(void) { T = (uint64_t)0 - 5 * MS; return 0; }

int main(void)
{
	static int (*const inits[2])(void) = { base_plain, base_wrap5ms };
	static const char *const names[2] = {
		"cbs rules (clock at 1 s)", "cbs rules (clock at 2^64 - 5 ms, wraps)"
	};

	return dls_test_main_inits(2, names, inits, cases);
}
