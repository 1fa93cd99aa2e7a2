/*
 * GRUB bandwidth reclaiming (DLS_FLAG_RECLAIM): exact schedules derived by
 * hand, and invariants under random workloads against a reference written
 * from the definitions.
 *
 * References: G. Lipari and S. Baruah, "Greedy reclamation of unused
 * bandwidth in constant-bandwidth servers", ECRTS 2000 (the active /
 * inactive states and the 0-lag time); L. Abeni, J. Lelli, C. Scordino and
 * L. Palopoli, "Greedy CPU reclaiming for SCHED_DEADLINE", RTLWS 2014, and
 * Linux's Documentation/scheduler/sched-deadline.rst §2.2 (the accounting
 * rule dq = -max{u, Umax - Uinact - Uextra} / Umax dt, the non-contending
 * state and its timer); L. Abeni, G. Lipari, A. Parri and Y. Sun,
 * "Multicore CPU reclaiming: parallel or sequential?", SAC 2016 (M-GRUB,
 * per-runqueue sums).
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/sched.h>
#include <dlsched/math128.h>
#include <dlsched/smp.h>

#include "dls_test.h"
#include "fake_platform.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static uint64_t base; /* set per suite */

struct env {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
};

static void env_init(struct env *e, uint64_t bw_limit)
{
	struct dls_domain_config cfg;

	dls_domain_config_default(&cfg);
	cfg.bw_limit = bw_limit;
	fake_init(&e->fp, base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&e->dom, &fake_ops, &e->fp, &cfg,
					      &e->rq, 1), 0);
}

static void at(struct env *e, uint64_t rel)
{
	e->fp.now = base + rel;
}

static void attach(struct dls_rq *rq, struct dls_entity *se, uint64_t q,
		   uint64_t p, uint32_t flags)
{
	struct dls_params prm = { .runtime = q, .deadline = p, .flags = flags };

	dls_entity_init(se);
	DLS_ASSERT_EQ_S64(dls_entity_attach(rq, se, &prm), 0);
}

#define CHECK(e) DLS_ASSERT_VALID(dls_domain_check(&(e)->dom))

/*
 * One CPU, Umax = 1 (admission unlimited, so bw_ratio is exactly 1 and
 * Uextra = 1 - this_bw = 0): A reclaims, Q = 5 ms, P = 10 ms (u = 1/2);
 * B does not, Q = 2 ms, P = 4 ms (u = 1/2). Derived from the GRUB rules
 * (Lipari & Baruah 2000 §3; sched-deadline.rst §2.2):
 *   0: both wake; B (deadline 4) runs.
 *   1: B's job is done with 1 ms left: 0-lag time 4 - 1 * 4/2 = 2, so B
 *      stays active (non-contending) until 2. A runs, charged at
 *      max{1/2, 1 - 0 - 0} = 1: runtime 5 -> 4 at time 2.
 *   2: B's 0-lag timer: B inactive, Uinact = 1/2; A is now charged at
 *      max{1/2, 1 - 1/2} = 1/2: over [2, 8] 3 ms, runtime 1.
 *   8: B wakes (new instance, deadline 12); A (deadline 10) keeps the CPU,
 *      charged at 1 again: runtime 0 at 9, throttled until 10. A ran 8 ms
 *      of its 10 ms period on a 5 ms budget (without reclaiming: 5 ms,
 *      throttled at 6).
 *   9: B runs to 11 (done, runtime 0: throttled until its next period 12,
 *      and 0-lag time 12: non-contending until then).
 *  10: A replenished: runtime 5, deadline 20.
 *  11: A runs, charged at 1 until B's 0-lag time 12 (runtime 4), then at
 *      1/2: blocks at 13 with 3.5 ms left: 0-lag time 20 - 3.5 * 2 = 13,
 *      so it is inactive at once.
 */
static void test_one_cpu_schedule(void)
{
	struct env e;
	struct dls_entity a, b;
	const uint64_t half = DLS_BW_UNIT / 2;

	env_init(&e, DLS_BW_UNLIMITED);
	attach(&e.rq, &a, 5 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	attach(&e.rq, &b, 2 * MS, 4 * MS, 0);
	DLS_ASSERT_EQ_U64(e.rq.bw.nr_reclaiming, 1);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, 0);
	DLS_ASSERT_EQ_U64(dls_rq_extra_bw(&e.rq), 0);
	at(&e, 0);
	dls_wakeup(&e.rq, &a);
	dls_wakeup(&e.rq, &b);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, DLS_BW_UNIT);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	CHECK(&e);

	at(&e, 1 * MS);
	dls_dequeue(&e.rq, &b, DLS_DEQUEUE_DONE);
	CU_ASSERT_EQUAL(b.bw_state, DLS_BW_NON_CONTENDING);
	CU_ASSERT_TRUE(fake_timer_armed(&e.fp, &b.inactive_timer));
	DLS_ASSERT_EQ_U64(b.inactive_timer.expires, base + 2 * MS);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, DLS_BW_UNIT);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	CHECK(&e);

	at(&e, 2 * MS - 1);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 0);
	at(&e, 2 * MS);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	CU_ASSERT_EQUAL(b.bw_state, DLS_BW_INACTIVE);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, half);
	DLS_ASSERT_EQ_S64(a.runtime, 4 * MS); /* settled at rate 1 */
	CHECK(&e);

	at(&e, 5 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_S64(a.runtime, 4 * MS - 3 * MS / 2);
	at(&e, 8 * MS);
	dls_wakeup(&e.rq, &b);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	DLS_ASSERT_EQ_U64(b.deadline, base + 12 * MS);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, DLS_BW_UNIT);
	CU_ASSERT_FALSE(a.throttled);
	CHECK(&e);

	at(&e, 9 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	DLS_ASSERT_EQ_S64(a.runtime, 0);
	DLS_ASSERT_EQ_U64(a.timer.expires, base + 10 * MS);
	DLS_ASSERT_EQ_U64(a.stats.exec_time, 8 * MS);
	DLS_ASSERT_EQ_U64(a.stats.runtime_charged, 5 * MS); /* its whole budget */
	CU_ASSERT_EQUAL(a.bw_state, DLS_BW_CONTENDING); /* throttled: still active */
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	CHECK(&e);

	at(&e, 10 * MS);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	DLS_ASSERT_EQ_S64(a.runtime, 5 * MS);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	at(&e, 11 * MS);
	dls_dequeue(&e.rq, &b, DLS_DEQUEUE_DONE);
	DLS_ASSERT_EQ_U64(b.inactive_timer.expires, base + 12 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 12 * MS);
	/* B's 0-lag timer, and its replenishment timer: its budget ran out
	 * exactly as its job ended. */
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 2);
	DLS_ASSERT_EQ_S64(a.runtime, 4 * MS);
	CU_ASSERT_EQUAL(b.bw_state, DLS_BW_INACTIVE);
	at(&e, 13 * MS);
	dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP);
	DLS_ASSERT_EQ_S64(a.runtime, 7 * MS / 2);
	CU_ASSERT_EQUAL(a.bw_state, DLS_BW_INACTIVE);
	CU_ASSERT_FALSE(fake_timer_armed(&e.fp, &a.inactive_timer));
	DLS_ASSERT_EQ_U64(e.rq.bw.running, 0);
	CHECK(&e);
}

/*
 * The kernel's fixed point with the default Umax = 95%: max_bw =
 * floor(0.95 * 2^20) = 996147, bw_ratio = floor(2^40 / 996147) >> 12 = 269
 * (1/Umax in 8 fractional bits). A reclaims, u = 1/2 (524288); B does not,
 * u = 1/4 (262144); Uextra = 996147 - 786432 = 209715.
 *  - A alone, B attached but inactive: Uinact = 262144, and
 *    996147 - 262144 - 209715 = 524288 -> * 269 >> 8 = 550912; 1 ms costs
 *    floor(10^6 * 550912 / 2^20) = 525390 ns.
 *  - B active (here throttled, which keeps it active): Uinact = 0,
 *    996147 - 209715 = 786432 -> * 269 >> 8 = 826368; 1 ms costs
 *    floor(10^6 * 826368 / 2^20) = 788085 ns.
 */
static void test_fixed_point(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, (95 * DLS_BW_UNIT) / 100);
	attach(&e.rq, &a, 5 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	attach(&e.rq, &b, 1 * MS, 4 * MS, 0);
	DLS_ASSERT_EQ_U64(dls_rq_extra_bw(&e.rq), 209715);
	at(&e, 0);
	dls_wakeup(&e.rq, &a);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 1 * MS);
	dls_wakeup(&e.rq, &b); /* settles A first, at the old rate */
	DLS_ASSERT_EQ_S64(a.runtime, 5 * MS - 525390);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(b.throttled);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 3 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_S64(a.runtime, 5 * MS - 525390 - 788085);
	CHECK(&e);
}

/* A non-reclaiming domain arms no 0-lag timer (it schedules as before);
 * a parameter change keeps the sums and the reclaiming count exact. */
static void test_params_and_gate(void)
{
	struct env e;
	struct dls_entity a, b;
	struct dls_params p = { .runtime = 2 * MS, .deadline = 10 * MS };

	env_init(&e, DLS_BW_UNLIMITED);
	attach(&e.rq, &a, 5 * MS, 10 * MS, 0);
	attach(&e.rq, &b, 1 * MS, 10 * MS, 0);
	at(&e, 0);
	dls_wakeup(&e.rq, &a);
	dls_wakeup(&e.rq, &b);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 1 * MS);
	dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP);
	CU_ASSERT_EQUAL(a.bw_state, DLS_BW_INACTIVE); /* nobody reclaims */
	DLS_ASSERT_EQ_U64(e.fp.arms, 0);
	CHECK(&e);

	/* b becomes reclaiming with a new bandwidth while contending. */
	p.flags = DLS_FLAG_RECLAIM;
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &b, &p), 0);
	DLS_ASSERT_EQ_U64(e.rq.bw.nr_reclaiming, 1);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, dls_params_bw(&p));
	CHECK(&e);
	/* a wakes and blocks early: non-contending now that b reclaims. */
	dls_wakeup(&e.rq, &a);
	at(&e, 2 * MS);
	dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP);
	CU_ASSERT_EQUAL(a.bw_state, DLS_BW_NON_CONTENDING);
	CHECK(&e);
	/* New parameters end its non-contending state (Linux's
	 * dl_change_utilization). */
	p.flags = 0;
	p.runtime = 3 * MS;
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &a, &p), 0);
	CU_ASSERT_EQUAL(a.bw_state, DLS_BW_INACTIVE);
	CU_ASSERT_FALSE(fake_timer_armed(&e.fp, &a.inactive_timer));
	CHECK(&e);
	dls_task_dead(&e.rq, &b);
	DLS_ASSERT_EQ_U64(e.rq.bw.nr_reclaiming, 0);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, 0);
	CHECK(&e);
}

/*
 * The flags and the CBS rules of the domain. DLS_FLAG_RECLAIM with
 * DLS_FLAG_SOFT is refused (a soft reservation already runs into all idle
 * time) and leaves every object as it was. Under the 2012 overrun rule
 * (DLS_OVERRUN_2012, the 2012 SCHED_DEADLINE patches' "runtime = 0;
 * runtime -= now - deadline") the time a reclaiming entity runs past its
 * deadline is charged at full rate, as for any entity; under today's rule
 * it is charged at the GRUB rate. One CPU, Umax = 1: A alone, reclaiming,
 * Q = 2 ms, P = 10 ms: u = floor(2^20 / 5) = 209715, Uinact + Uextra =
 * 1 - u, so A is charged at u (sched-deadline.rst §2.2: it reclaims the
 * whole CPU):
 *  10 ms: charged floor(10^7 * 209715 / 2^20) = 1999998: runtime 2 ns,
 *         the deadline (10 ms) not passed;
 *  11 ms: today's rule: charged floor(10^6 * 209715 / 2^20) = 199999:
 *         runtime -199997; the 2012 rule: runtime = -(11 - 10) ms =
 *         -1000000. Either way the budget is spent and the next period
 *         (10 ms) has begun, so A is replenished at once with its overrun
 *         carried (runtime -= ... + Q, deadline 20 ms): 1800003 and 1000000.
 */
static void overrun_2012_case(enum dls_overrun_rule rule, int64_t want)
{
	struct dls_domain_config cfg;
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity a;

	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	cfg.overrun_rule = rule;
	fake_init(&fp, base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, &rq, 1), 0);
	attach(&rq, &a, 2 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	dls_wakeup(&rq, &a);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&rq), &a);
	fp.now = base + 10 * MS;
	dls_update_curr(&rq);
	DLS_ASSERT_EQ_S64(a.runtime, 2);
	CU_ASSERT_FALSE(a.throttled);
	fp.now = base + 11 * MS;
	dls_update_curr(&rq);
	DLS_ASSERT_EQ_S64(a.runtime, want + (int64_t)(2 * MS));
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_U64(a.stats.misses, 1);
	DLS_ASSERT_VALID(dls_domain_check(&dom));
}

static void test_flags_and_rules(void)
{
	struct env e;
	struct dls_entity a, b;
	struct dls_params p = { .runtime = 2 * MS, .deadline = 10 * MS,
				.flags = DLS_FLAG_RECLAIM | DLS_FLAG_SOFT };
	uint64_t bw_total;

	DLS_ASSERT_EQ_S64(dls_params_check(NULL, &p), DLS_EFLAGS);
	env_init(&e, DLS_BW_UNLIMITED);
	DLS_ASSERT_EQ_S64(dls_params_check(&e.dom, &p), DLS_EFLAGS);
	dls_entity_init(&a);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq, &a, &p), DLS_EFLAGS);
	CU_ASSERT_PTR_NULL(a.rq);
	DLS_ASSERT_EQ_U64(e.rq.bw.nr_reclaiming, 0);
	/* A soft entity cannot become reclaiming, nor the reverse. */
	attach(&e.rq, &a, 1 * MS, 10 * MS, DLS_FLAG_SOFT);
	attach(&e.rq, &b, 1 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	bw_total = e.rq.bw.total;
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &a, &p), DLS_EFLAGS);
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &b, &p), DLS_EFLAGS);
	DLS_ASSERT_EQ_U64(a.params.flags, DLS_FLAG_SOFT);
	DLS_ASSERT_EQ_U64(b.params.flags, DLS_FLAG_RECLAIM);
	DLS_ASSERT_EQ_U64(e.rq.bw.total, bw_total);
	DLS_ASSERT_EQ_U64(e.rq.bw.nr_reclaiming, 1);
	CHECK(&e);

	overrun_2012_case(DLS_OVERRUN_LINUX, -199997);
	overrun_2012_case(DLS_OVERRUN_2012, -1000000);
}

/*
 * dls_budget_ns() is the exact delay to the end of the budget at the rate
 * in force: charging one ns less leaves budget, charging that long spends
 * it, for a reclaiming entity (charged at the GRUB rate u / Umax when
 * alone, sched-deadline.rst §2.2) and for a plain one on a CPU at 3/4
 * capacity (charged 3/4 of the time: 2 ms last 8/3 ms). Umax = 95%.
 */
static void budget_case(uint32_t flags, uint32_t capacity, uint64_t want)
{
	struct env e;
	struct dls_entity a;
	uint64_t b;

	for (int spend = 0; spend < 2; spend++) {
		env_init(&e, (95 * DLS_BW_UNIT) / 100);
		CU_ASSERT_EQUAL_FATAL(dls_rq_set_capacity(&e.rq, capacity), 0);
		attach(&e.rq, &a, 2 * MS, 20 * MS, flags);
		at(&e, 0);
		dls_wakeup(&e.rq, &a);
		CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
		b = dls_budget_ns(&e.rq, &a);
		DLS_ASSERT_EQ_U64(b, want);
		at(&e, b - 1 + (uint64_t)spend);
		dls_update_curr(&e.rq);
		CU_ASSERT_EQUAL(a.throttled, spend == 1);
		CU_ASSERT_EQUAL(a.runtime > 0, spend == 0);
		CU_ASSERT_EQUAL(dls_budget_ns(&e.rq, &a) == 0, spend == 1);
		CHECK(&e);
	}
}

static void test_budget_ns(void)
{
	/* u = floor(2^20 / 10) = 104857, Umax = 996147, 1/Umax = 269 / 2^8:
	 * rate floor(104857 * 269 / 2^8) = 110181; the least dt with
	 * floor(dt * 110181 / 2^20) >= 2000000 is ceil(2000000 * 2^20 /
	 * 110181) = 19033700, before the deadline (20 ms). */
	budget_case(DLS_FLAG_RECLAIM, DLS_CAPACITY_SCALE, 19033700);
	/* ceil(2000000 * 1024 / 768) = 2666667. */
	budget_case(0, 768, 2666667);
	budget_case(0, DLS_CAPACITY_SCALE, 2000000);
}

/* ---- random workloads against a reference ------------------------------ */

#define NR_RAND 6

struct ref {
	bool runnable;
	uint64_t zero_lag; /* blocked: active while now is before it */
	bool blocked_active;
};

/* Reference 0-lag time from the definition: the instant at which the
 * remaining runtime, served at Q/P, would be used up (truncated toward
 * zero as an integer division). */
static uint64_t ref_zero_lag(const struct dls_entity *se)
{
	int64_t lag = se->runtime * (int64_t)se->period / (int64_t)se->params.runtime;

	return se->deadline - (uint64_t)lag;
}

static uint64_t ref_running_bw(const struct dls_rq *rq, const struct dls_entity *se,
			       const struct ref *ref, uint64_t now)
{
	uint64_t sum = 0;

	for (int i = 0; i < NR_RAND; i++)
		if (se[i].rq == rq &&
		    (ref[i].runnable ||
		     (ref[i].blocked_active && dls_time_before(now, ref[i].zero_lag))))
			sum += se[i].bw;
	return sum;
}

static void check_rq(const struct dls_rq *rq, const struct dls_entity *se,
		     const struct ref *ref, uint64_t now)
{
	DLS_ASSERT_EQ_U64(rq->bw.running, ref_running_bw(rq, se, ref, now));
	CU_ASSERT_TRUE_FATAL(rq->bw.running <= rq->bw.total);
}

/* Advance to @to, charging the current entity at every timer on the way,
 * and check the charge of a reclaiming current: at most the time it ran
 * (so it never gets less than its reservation), at least its own rate. */
static void advance(struct env *e, struct dls_entity *se, struct ref *ref,
		    uint64_t to)
{
	for (;;) {
		uint64_t when = to;
		struct dls_entity *c = e->rq.curr;

		if (fake_next_timer(&e->fp, &when) && dls_time_before(to, when))
			when = to;
		if (dls_time_before(when, e->fp.now))
			when = e->fp.now;
		if (c && c->queued && (c->params.flags & DLS_FLAG_RECLAIM)) {
			int64_t before = c->runtime;
			uint64_t dt = when - c->exec_start, min;
			uint64_t renewals = c->stats.replenishments + c->stats.instances;

			e->fp.now = when;
			dls_update_curr(&e->rq);
			if (renewals == c->stats.replenishments + c->stats.instances) {
				CU_ASSERT_TRUE(before - c->runtime <= (int64_t)dt);
				min = dls_u128_mul_u64_u64_div_u64(dt, c->bw, DLS_BW_UNIT);
				CU_ASSERT_TRUE(before - c->runtime + 1 >= (int64_t)min * 95 / 100);
			}
		}
		e->fp.now = when;
		fake_fire_due(&e->fp);
		if (fake_take_resched(&e->fp, 0) || !e->rq.curr)
			dls_schedule(&e->rq);
		CHECK(e);
		check_rq(&e->rq, se, ref, e->fp.now);
		/* Work-conserving while reclaimable: an idle CPU has no
		 * runnable reclaiming entity with budget left. */
		if (!e->rq.curr)
			for (int i = 0; i < NR_RAND; i++)
				if (se[i].runnable && (se[i].params.flags & DLS_FLAG_RECLAIM))
					CU_ASSERT_TRUE(se[i].throttled && se[i].runtime <= 0);
		if (when == to)
			return;
	}
}

static void random_run(uint64_t seed, uint64_t bw_limit)
{
	struct env e;
	struct dls_entity se[NR_RAND];
	struct ref ref[NR_RAND];
	struct dls_test_rng rng;
	uint64_t steps = dls_test_scaled(4000);

	dls_test_rng_seed(&rng, seed);
	env_init(&e, bw_limit);
	memset(ref, 0, sizeof(ref));
	at(&e, 0);
	for (int i = 0; i < NR_RAND; i++) {
		uint64_t p = (2 + dls_test_rng_below(&rng, 20)) * MS;
		uint64_t q = p * (5 + dls_test_rng_below(&rng, 10)) / 100;
		uint32_t f = (i == 0 || dls_test_rng_below(&rng, 2)) ? DLS_FLAG_RECLAIM : 0;

		attach(&e.rq, &se[i], q, p, f);
	}
	for (uint64_t step = 0; step < steps; step++) {
		int i = (int)dls_test_rng_below(&rng, NR_RAND);
		uint64_t now = e.fp.now - base;

		switch (dls_test_rng_below(&rng, 5)) {
		case 0: /* wake */
			if (!se[i].runnable) {
				dls_wakeup(&e.rq, &se[i]);
				ref[i].runnable = true;
			}
			break;
		case 1: /* block (job done or sleep) */
			if (se[i].runnable) {
				dls_dequeue(&e.rq, &se[i], dls_test_rng_below(&rng, 2)
						? DLS_DEQUEUE_DONE : DLS_DEQUEUE_SLEEP);
				ref[i].runnable = false;
				ref[i].zero_lag = ref_zero_lag(&se[i]);
				ref[i].blocked_active = true;
			}
			break;
		case 2: { /* new parameters; keeps entity 0's reclaiming flag */
			uint64_t p = (2 + dls_test_rng_below(&rng, 20)) * MS;
			struct dls_params prm = {
				.runtime = p * (5 + dls_test_rng_below(&rng, 10)) / 100,
				.deadline = p,
				.flags = (i == 0 || dls_test_rng_below(&rng, 2))
						 ? DLS_FLAG_RECLAIM : 0,
			};
			bool nc = se[i].bw_state == DLS_BW_NON_CONTENDING;

			if (dls_entity_set_params(&e.rq, &se[i], &prm) == 0 && nc)
				ref[i].blocked_active = false;
			break;
		}
		default:
			break;
		}
		if (e.rq.curr == NULL || fake_take_resched(&e.fp, 0))
			dls_schedule(&e.rq);
		CHECK(&e);
		check_rq(&e.rq, se, ref, e.fp.now);
		advance(&e, se, ref, base + now + dls_test_rng_below(&rng, 3 * MS));
	}
	for (int i = 0; i < NR_RAND; i++)
		dls_task_dead(&e.rq, &se[i]);
	DLS_ASSERT_EQ_U64(e.rq.bw.running, 0);
	DLS_ASSERT_EQ_U64(e.rq.bw.nr_reclaiming, 0);
}

static void test_random_one_cpu(void)
{
	uint64_t seed = dls_test_seed("grub random one CPU", 0x6e0bULL);

	random_run(seed, DLS_BW_UNLIMITED);
	random_run(seed + 1, (95 * DLS_BW_UNIT) / 100);
}

/* ---- two CPUs (M-GRUB) --------------------------------------------------- */

#define NCPU 3

struct smp_env {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[NCPU];
	void *mem;
};

static void smp_init(struct smp_env *e, int ncpu)
{
	struct dls_domain_config cfg;
	size_t sz = dls_smp_size(ncpu);

	memset(e, 0, sizeof(*e));
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	fake_init(&e->fp, base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&e->dom, &fake_ops, &e->fp, &cfg,
					      e->rq, ncpu), 0);
	e->mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	CU_ASSERT_EQUAL_FATAL(dls_smp_init(&e->dom, e->mem, sz), 0);
}

/*
 * Two CPUs, Umax = 1, per-runqueue sums (M-GRUB, Abeni et al. SAC 2016;
 * Linux's per-rq running_bw/this_bw and extra_bw, sched-deadline.rst
 * §2.2): A reclaims, Q = 5 ms, P = 10 ms, on CPU 0; B does not, Q = 2 ms,
 * P = 4 ms, on CPU 1. The domain admits 1 on 2 CPUs: Uextra = 1 - 1/2.
 *   0: A charged at max{1/2, 1 - 0 - 1/2} = 1/2.
 *   1: B done with 1 ms left (0-lag time 2) and moved to CPU 0 while
 *      non-contending: its bandwidth leaves CPU 1's sums for CPU 0's (A,
 *      settled first: runtime 4.5). A still at max{1/2, 1 - 0 - 1/2}.
 *   2: B's 0-lag timer fires on CPU 0: running_bw 1/2 (A: 4.0).
 *   3: CPU 1 goes offline: one CPU holds the domain's 1, Uextra = 0
 *      (A: 3.5). B wakes on CPU 0: a new instance (1 * 4 > 1 * 2),
 *      deadline 7, preempts A.
 *   5: B done, budget spent: throttled until 7, 0-lag time 7. A runs at
 *      max{1/2, 1 - 0 - 0} = 1: runtime 1.5 at 7.
 *   7: B inactive: A at max{1/2, 1 - 1/2} = 1/2, runtime 0 at 10, its
 *      deadline: replenished at once (8 ms of CPU in its first period).
 */
static void test_two_cpus_schedule(void)
{
	struct smp_env e;
	struct dls_entity a, b;

	smp_init(&e, 2);
	attach(&e.rq[0], &a, 5 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	attach(&e.rq[1], &b, 2 * MS, 4 * MS, 0);
	DLS_ASSERT_EQ_U64(dls_rq_extra_bw(&e.rq[0]), DLS_BW_UNIT / 2);
	e.fp.now = base;
	dls_wakeup(&e.rq[0], &a);
	dls_wakeup(&e.rq[1], &b);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &a);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[1]), &b);
	CHECK(&e);

	e.fp.now = base + 1 * MS;
	dls_dequeue(&e.rq[1], &b, DLS_DEQUEUE_DONE);
	CU_ASSERT_PTR_NULL(dls_schedule(&e.rq[1]));
	CU_ASSERT_EQUAL(b.bw_state, DLS_BW_NON_CONTENDING);
	DLS_ASSERT_EQ_S64(dls_entity_move(&b, &e.rq[0]), 0);
	DLS_ASSERT_EQ_S64(a.runtime, 9 * MS / 2);
	DLS_ASSERT_EQ_U64(e.rq[0].bw.running, DLS_BW_UNIT);
	DLS_ASSERT_EQ_U64(e.rq[0].bw.total, DLS_BW_UNIT);
	DLS_ASSERT_EQ_U64(e.rq[1].bw.running, 0);
	DLS_ASSERT_EQ_U64(e.rq[1].bw.total, 0);
	CU_ASSERT_PTR_EQUAL(dls_timer_rq(&b.inactive_timer), &e.rq[0]);
	CHECK(&e);

	e.fp.now = base + 2 * MS;
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	DLS_ASSERT_EQ_S64(a.runtime, 4 * MS);
	DLS_ASSERT_EQ_U64(e.rq[0].bw.running, DLS_BW_UNIT / 2);
	CHECK(&e);

	e.fp.now = base + 3 * MS;
	dls_tick(&e.rq[0]);
	DLS_ASSERT_EQ_S64(a.runtime, 7 * MS / 2);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, false, NULL, NULL), 0);
	DLS_ASSERT_EQ_U64(dls_rq_extra_bw(&e.rq[0]), 0);
	dls_wakeup(&e.rq[0], &b);
	DLS_ASSERT_EQ_U64(b.deadline, base + 7 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &b);
	CHECK(&e);

	e.fp.now = base + 5 * MS;
	dls_dequeue(&e.rq[0], &b, DLS_DEQUEUE_DONE);
	CU_ASSERT_TRUE(b.throttled);
	DLS_ASSERT_EQ_U64(b.inactive_timer.expires, base + 7 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &a);
	DLS_ASSERT_EQ_S64(a.runtime, 7 * MS / 2);
	e.fp.now = base + 7 * MS;
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 2);
	DLS_ASSERT_EQ_S64(a.runtime, 3 * MS / 2);
	DLS_ASSERT_EQ_U64(e.rq[0].bw.running, DLS_BW_UNIT / 2);
	e.fp.now = base + 10 * MS;
	dls_tick(&e.rq[0]);
	DLS_ASSERT_EQ_U64(a.stats.exec_time, 8 * MS);
	DLS_ASSERT_EQ_U64(a.stats.runtime_charged, 5 * MS); /* its whole budget */
	DLS_ASSERT_EQ_U64(a.stats.throttles, 1);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 5 * MS);
	CHECK(&e);
	free(e.mem);
}

/* Random workloads on three CPUs: wake-ups (with push), blocking,
 * explicit moves of any entity that is not running, CPU offline and
 * online; after every event each runqueue's running_bw equals the
 * reference sum and the validators pass. */
static void smp_schedule_all(struct smp_env *e)
{
	for (int pass = 0; pass < 3; pass++)
		for (int c = 0; c < NCPU; c++)
			if (e->rq[c].online &&
			    (fake_take_resched(&e->fp, c) || !e->rq[c].curr))
				dls_schedule(&e->rq[c]);
}

static void smp_check(struct smp_env *e, const struct dls_entity *se,
		      const struct ref *ref)
{
	DLS_ASSERT_VALID(dls_domain_check(&e->dom));
	for (int c = 0; c < NCPU; c++)
		check_rq(&e->rq[c], se, ref, e->fp.now);
}

static void random_smp_run(uint64_t seed)
{
	struct smp_env e;
	struct dls_entity se[NR_RAND];
	struct ref ref[NR_RAND];
	struct dls_test_rng rng;
	uint64_t steps = dls_test_scaled(4000);

	dls_test_rng_seed(&rng, seed);
	smp_init(&e, NCPU);
	memset(ref, 0, sizeof(ref));
	e.fp.now = base;
	for (int i = 0; i < NR_RAND; i++) {
		uint64_t p = (2 + dls_test_rng_below(&rng, 20)) * MS;
		uint64_t q = p * (5 + dls_test_rng_below(&rng, 40)) / 100;
		uint32_t f = (i == 0 || dls_test_rng_below(&rng, 2)) ? DLS_FLAG_RECLAIM : 0;

		attach(&e.rq[dls_test_rng_below(&rng, NCPU)], &se[i], q, p, f);
	}
	for (uint64_t step = 0; step < steps; step++) {
		int i = (int)dls_test_rng_below(&rng, NR_RAND);
		int cpu = (int)dls_test_rng_below(&rng, NCPU);
		uint64_t to = e.fp.now + dls_test_rng_below(&rng, 3 * MS);

		switch (dls_test_rng_below(&rng, 6)) {
		case 0:
			if (!se[i].runnable) {
				dls_wakeup(se[i].rq, &se[i]);
				ref[i].runnable = true;
			}
			break;
		case 1:
			if (se[i].runnable) {
				dls_dequeue(se[i].rq, &se[i], DLS_DEQUEUE_DONE);
				ref[i].runnable = false;
				ref[i].zero_lag = ref_zero_lag(&se[i]);
				ref[i].blocked_active = true;
			}
			break;
		case 2:
			if (se[i].rq->curr != &se[i] && e.rq[cpu].online)
				dls_entity_move(&se[i], &e.rq[cpu]);
			break;
		case 3: {
			int online = 0;

			for (int c = 0; c < NCPU; c++)
				online += e.rq[c].online;
			if (e.rq[cpu].online && online > 1)
				dls_cpu_offline(&e.dom, cpu, true, NULL, NULL);
			else if (!e.rq[cpu].online)
				dls_cpu_online(&e.dom, cpu);
			break;
		}
		default:
			break;
		}
		smp_schedule_all(&e);
		smp_check(&e, se, ref);
		/* Advance, timer by timer. */
		for (;;) {
			uint64_t when = to;

			if (fake_next_timer(&e.fp, &when) && dls_time_before(to, when))
				when = to;
			if (dls_time_before(when, e.fp.now))
				when = e.fp.now;
			e.fp.now = when;
			for (int c = 0; c < NCPU; c++) {
				struct dls_entity *cur = e.rq[c].curr;
				int64_t before = cur ? cur->runtime : 0;
				uint64_t dt = cur ? when - cur->exec_start : 0;
				uint64_t renewals = cur ? cur->stats.replenishments +
								  cur->stats.instances : 0;

				dls_update_curr(&e.rq[c]);
				/* Reclaiming never charges more than the time run. */
				if (cur && renewals == cur->stats.replenishments +
							       cur->stats.instances)
					CU_ASSERT_TRUE(before - cur->runtime <= (int64_t)dt);
			}
			fake_fire_due(&e.fp);
			smp_schedule_all(&e);
			smp_check(&e, se, ref);
			if (when == to)
				break;
		}
	}
	for (int i = 0; i < NR_RAND; i++)
		dls_task_dead(se[i].rq, &se[i]);
	for (int c = 0; c < NCPU; c++)
		DLS_ASSERT_EQ_U64(e.rq[c].bw.running, 0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.nr_reclaiming, 0);
	free(e.mem);
}

static void test_random_smp(void)
{
	random_smp_run(dls_test_seed("grub random three CPUs", 0x36e0bULL));
}

/*
 * A partitioned domain (each CPU scheduled on its own): each CPU's
 * bandwidth object counts the reclaiming entities it admits, so the 0-lag
 * rule applies per CPU (src/cbs/grub.c: a blocked entity's bandwidth stays
 * active only where somebody reclaims it; Lipari & Baruah 2000 §3 define
 * the sums per server set, here per CPU). CPU 0 holds A (reclaiming,
 * 2/10 ms) and B (1/4 ms); CPU 1 holds C (1/4 ms). B and C both end their
 * job at 0.5 ms with 0.5 ms left: 0-lag time 4 - 0.5 * 4 = 2 ms. On CPU 0
 * B stays non-contending until 2 ms; on CPU 1, where nobody reclaims, C is
 * inactive at once.
 */
static void test_partitioned_per_cpu(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[2];
	struct dls_domain_config cfg;
	struct dls_entity a, b, c;

	dls_domain_config_default(&cfg);
	fake_init(&fp, base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, rq, 2), 0);
	attach(&rq[0], &a, 2 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	attach(&rq[0], &b, 1 * MS, 4 * MS, 0);
	attach(&rq[1], &c, 1 * MS, 4 * MS, 0);
	DLS_ASSERT_EQ_U64(rq[0].bw.nr_reclaiming, 1);
	DLS_ASSERT_EQ_U64(rq[1].bw.nr_reclaiming, 0);
	fp.now = base;
	dls_wakeup(&rq[0], &b);
	dls_wakeup(&rq[1], &c);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&rq[0]), &b);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&rq[1]), &c);
	fp.now = base + MS / 2;
	dls_dequeue(&rq[0], &b, DLS_DEQUEUE_DONE);
	dls_dequeue(&rq[1], &c, DLS_DEQUEUE_DONE);
	CU_ASSERT_EQUAL(b.bw_state, DLS_BW_NON_CONTENDING);
	DLS_ASSERT_EQ_U64(b.inactive_timer.expires, base + 2 * MS);
	DLS_ASSERT_EQ_U64(rq[0].bw.running, b.bw);
	CU_ASSERT_EQUAL(c.bw_state, DLS_BW_INACTIVE);
	CU_ASSERT_FALSE(fake_timer_armed(&fp, &c.inactive_timer));
	DLS_ASSERT_EQ_U64(rq[1].bw.running, 0);
	DLS_ASSERT_VALID(dls_domain_check(&dom));
	/* C takes the reclaim flag: CPU 1 counts it, CPU 0 is unchanged. */
	{
		struct dls_params p = c.params;

		p.flags |= DLS_FLAG_RECLAIM;
		DLS_ASSERT_EQ_S64(dls_entity_set_params(&rq[1], &c, &p), 0);
	}
	DLS_ASSERT_EQ_U64(rq[0].bw.nr_reclaiming, 1);
	DLS_ASSERT_EQ_U64(rq[1].bw.nr_reclaiming, 1);
	DLS_ASSERT_VALID(dls_domain_check(&dom));
	dls_task_dead(&rq[0], &a);
	dls_task_dead(&rq[0], &b);
	dls_task_dead(&rq[1], &c);
	DLS_ASSERT_EQ_U64(rq[0].bw.nr_reclaiming, 0);
	DLS_ASSERT_EQ_U64(rq[1].bw.nr_reclaiming, 0);
	DLS_ASSERT_EQ_U64(rq[0].bw.running, 0);
	DLS_ASSERT_VALID(dls_domain_check(&dom));
}

static const struct dls_test_case cases[] = {
	{ "partitioned: the 0-lag rule per CPU's bandwidth object", test_partitioned_per_cpu },
	{ "one CPU: reclaiming into idle bandwidth until the 0-lag time", test_one_cpu_schedule },
	{ "kernel fixed point with Umax = 95%", test_fixed_point },
	{ "parameter changes and the no-reclaimer gate", test_params_and_gate },
	{ "RECLAIM with SOFT refused; the 2012 overrun rule", test_flags_and_rules },
	{ "dls_budget_ns: the exact delay to the end of the budget", test_budget_ns },
	{ "random workloads on one CPU vs reference sums", test_random_one_cpu },
	{ "two CPUs (M-GRUB): moves, 0-lag timer and offline", test_two_cpus_schedule },
	{ "random workloads on three CPUs with moves and hotplug", test_random_smp },
	{ NULL, NULL }
};

static int base_plain(void) { base = 1 * SEC; return 0; }
static int base_wrap5ms(void) { base = (uint64_t)0 - 5 * MS; return 0; }

int main(void)
{
	static int (*const inits[2])(void) = { base_plain, base_wrap5ms };
	static const char *const names[2] = {
		"grub (clock at 1 s)", "grub (clock at 2^64 - 5 ms, wraps mid-test)"
	};

	return dls_test_main_inits(2, names, inits, cases);
}
