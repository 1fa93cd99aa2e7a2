/*
 * Exact outcomes of each CBS rule on one CPU. Every case runs three times:
 * from an ordinary clock, from 2^64 - 10 s and from 2^64 - 5 ms, so in the
 * last suite every case's times wrap past zero mid-test.
 *
 * Reference: L. Abeni and G. Buttazzo, "Integrating Multimedia Applications
 * in Hard Real-Time Systems", RTSS 1998 (the CBS rules); the hard-reservation
 * and period/deadline variants follow SCHED_DEADLINE.
 */
#include <string.h>

#include <dlsched/sched.h>

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

static void env_init(struct env *e, const struct dls_domain_config *cfg)
{
	fake_init(&e->fp, base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&e->dom, &fake_ops, &e->fp, cfg,
					      &e->rq, 1), 0);
}

static void at(struct env *e, uint64_t rel)
{
	e->fp.now = base + rel;
}

static void attach(struct env *e, struct dls_entity *se, uint64_t q,
		   uint64_t d, uint64_t p)
{
	struct dls_params prm = { .runtime = q, .deadline = d, .period = p };

	dls_entity_init(se);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e->rq, se, &prm), 0);
}

#define CHECK(e) DLS_ASSERT_VALID(dls_rq_check(&(e)->rq))

/* Hard reservation: Q = 2 ms every 10 ms; throttled at 2 ms, replenished
 * at the deadline 10 ms with deadline 20 ms. */
static void test_throttle_replenish(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CHECK(&e);
	DLS_ASSERT_EQ_U64(a.deadline, base + 10 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);

	at(&e, 1 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	CU_ASSERT_FALSE(a.throttled);

	at(&e, 2 * MS);
	unsigned int before = e.fp.resched;
	dls_tick(&e.rq);
	CHECK(&e);
	CU_ASSERT_TRUE(a.throttled);
	CU_ASSERT_FALSE(a.queued);
	CU_ASSERT_TRUE(e.fp.resched > before);
	CU_ASSERT_TRUE(fake_timer_armed(&e.fp, &a.timer));
	DLS_ASSERT_EQ_U64(a.timer.expires, base + 10 * MS);
	DLS_ASSERT_EQ_U64(a.stats.throttles, 1);
	/* Exactly the budget: throttled (runtime <= 0) but not an overrun. */
	DLS_ASSERT_EQ_U64(a.stats.overruns, 0);
	CU_ASSERT_PTR_NULL(dls_schedule(&e.rq));

	at(&e, 10 * MS - 1);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 0);
	at(&e, 10 * MS);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	CHECK(&e);
	CU_ASSERT_FALSE(a.throttled);
	CU_ASSERT_TRUE(a.queued);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	DLS_ASSERT_EQ_U64(a.stats.replenishments, 1);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
}

/* What counts as an overrun (types.h, dls_stats::overruns): a charge that
 * takes the runtime below zero, or finds the deadline passed while
 * running. A job that uses exactly its budget is throttled as in Linux
 * (dl_runtime_exceeded is runtime <= 0) but is not an overrun, and no
 * DLS_TRACE_OVERRUN event or callback comes with it. Q = 2 ms, D = P = 10 ms. */
static void test_overrun_counts_more_than_budget(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	attach(&e, &b, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 2 * MS); /* exactly the budget */
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	DLS_ASSERT_EQ_U64(a.stats.throttles, 1);
	DLS_ASSERT_EQ_U64(a.stats.overruns, 0);
	DLS_ASSERT_EQ_U64(fake_count(&e.fp, DLS_TRACE_OVERRUN), 0);
	dls_schedule(&e.rq);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	at(&e, 4 * MS + 1); /* 1 ns over */
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(b.throttled);
	DLS_ASSERT_EQ_S64(b.runtime, -1);
	DLS_ASSERT_EQ_U64(b.stats.overruns, 1);
	DLS_ASSERT_EQ_U64(fake_count(&e.fp, DLS_TRACE_OVERRUN), 1);
	CHECK(&e);
}

/* Back-to-back jobs (docs/rtos-integration.md): a job released while the
 * previous one runs is started by DONE then an immediate wake-up; the CBS
 * wake-up rule (Abeni & Buttazzo 1998) keeps the server's deadline and
 * runtime since 1 ms / (10 ms - 1 ms) <= 2 ms / 10 ms, so the two jobs
 * together still get 2 ms in the 10 ms period. Q = 2 ms, D = P = 10 ms. */
static void test_back_to_back_jobs(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	/* The second job is released at 500 us while the first runs. */
	at(&e, 500 * US);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), DLS_ERUNNABLE);
	at(&e, 1 * MS);
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &a, DLS_DEQUEUE_DONE), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CHECK(&e);
	DLS_ASSERT_EQ_U64(a.stats.jobs_done, 1);
	DLS_ASSERT_EQ_U64(a.stats.wakeups_kept, 1);
	DLS_ASSERT_EQ_U64(a.stats.instances, 1);
	DLS_ASSERT_EQ_U64(a.deadline, base + 10 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	DLS_ASSERT_EQ_U64(a.timer.expires, base + 10 * MS);
	CHECK(&e);
}

/* Overrun is carried: a late charge leaves runtime -1 ms, so the next
 * instance gets 1 ms; a 5 ms debt takes three periods to repay. */
static void test_overrun_carried(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 3 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	DLS_ASSERT_EQ_S64(a.runtime, -(int64_t)MS);
	at(&e, 10 * MS);
	fake_fire_due(&e.fp);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	DLS_ASSERT_EQ_S64(dls_task_dead(&e.rq, &a), 0);
	CHECK(&e);

	/* b: budget 2 ms, charged 7 ms: runtime -5 ms -> +2 three times. */
	attach(&e, &b, 2 * MS, 10 * MS, 0);
	at(&e, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	dls_schedule(&e.rq);
	at(&e, 17 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_S64(b.runtime, -5 * (int64_t)MS);
	DLS_ASSERT_EQ_U64(b.timer.expires, base + 20 * MS);
	at(&e, 20 * MS);
	fake_fire_due(&e.fp);
	DLS_ASSERT_EQ_U64(b.deadline, base + 50 * MS);
	DLS_ASSERT_EQ_S64(b.runtime, 1 * MS);
	DLS_ASSERT_EQ_U64(b.stats.lagged, 0);
	CHECK(&e);
}

/* A debt that is an exact multiple of Q: runtime must end > 0, not 0. */
static void test_overrun_exact_multiple(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 6 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_S64(a.runtime, -4 * (int64_t)MS);
	at(&e, 10 * MS);
	fake_fire_due(&e.fp);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	DLS_ASSERT_EQ_U64(a.deadline, base + 40 * MS);
}

/* Wake-up rule at its boundary: runtime 1 ms left, deadline at 10 ms,
 * Q/P = 2/10. Keeping is allowed iff 1 * 10 <= (10 - t) * 2, i.e. t <= 5 ms:
 * at exactly 5 ms the pair is kept (equality keeps), 1 ns later renewed. */
static void test_wakeup_boundary(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	attach(&e, &b, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 1 * MS);
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	at(&e, 2 * MS);
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &b, DLS_DEQUEUE_SLEEP), 0);
	CU_ASSERT_PTR_NULL(dls_schedule(&e.rq));
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	DLS_ASSERT_EQ_S64(b.runtime, 1 * MS);
	CHECK(&e);

	at(&e, 5 * MS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_U64(a.deadline, base + 10 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	DLS_ASSERT_EQ_U64(a.stats.wakeups_kept, 1);

	at(&e, 5 * MS + 1);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	DLS_ASSERT_EQ_U64(b.deadline, base + 15 * MS + 1);
	DLS_ASSERT_EQ_S64(b.runtime, 2 * MS);
	DLS_ASSERT_EQ_U64(b.stats.wakeups_renewed, 1);
	DLS_ASSERT_EQ_U64(b.stats.instances, 2);
	CHECK(&e);
}

/* Waking after the deadline always starts a new instance. */
static void test_wakeup_after_deadline(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP), 0);
	at(&e, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
}

/* Constrained deadline (Q 2, D 5, P 10 ms), 1.5 ms left, woken at 3 ms
 * (laxity 2 ms): 1.5 * 10 > 2 * 2, so the CBS rule renews (deadline 8 ms),
 * while the revised rule keeps deadline 5 ms with runtime 2 * 2 / 5 = 0.8 ms. */
static void constrained_case(enum dls_wakeup_rule rule, uint64_t expect_dl,
			     int64_t expect_rt)
{
	struct dls_domain_config cfg;
	struct env e;
	struct dls_entity a;

	dls_domain_config_default(&cfg);
	cfg.wakeup_rule = rule;
	env_init(&e, &cfg);
	attach(&e, &a, 2 * MS, 5 * MS, 10 * MS);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_U64(a.deadline, base + 5 * MS);
	dls_schedule(&e.rq);
	at(&e, 500 * US);
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP), 0);
	DLS_ASSERT_EQ_S64(a.runtime, 1500 * US);
	at(&e, 3 * MS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_U64(a.deadline, base + expect_dl);
	DLS_ASSERT_EQ_S64(a.runtime, expect_rt);
	CHECK(&e);
}

static void test_constrained_cbs_rule(void)
{
	constrained_case(DLS_WAKEUP_CBS, 8 * MS, 2 * MS);
}

static void test_constrained_revised_rule(void)
{
	constrained_case(DLS_WAKEUP_REVISED, 5 * MS, 800 * US);
}

/* Period separate from deadline: the replenishment adds P, not D. A
 * throttled 1/4/10 ms entity is replenished at the start of its next
 * period, 10 ms (today's Linux: start_dl_timer arms dl_next_period =
 * deadline - D + P, Documentation/scheduler/sched-deadline.rst §2), or
 * with the 2012 rule at its deadline, 4 ms; deadline 14 ms either way. */
static void period_replenish_case(enum dls_replenish_rule rule, uint64_t expect_at)
{
	struct env e;
	struct dls_entity a;
	struct dls_domain_config cfg;

	dls_domain_config_default(&cfg);
	cfg.replenish_rule = rule;
	env_init(&e, &cfg);
	attach(&e, &a, 1 * MS, 4 * MS, 10 * MS);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 1 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	DLS_ASSERT_EQ_U64(a.timer.expires, base + expect_at);
	at(&e, expect_at - 1);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 0);
	CU_ASSERT_TRUE(a.throttled);
	at(&e, expect_at);
	fake_fire_due(&e.fp);
	CU_ASSERT_FALSE(a.throttled);
	DLS_ASSERT_EQ_U64(a.deadline, base + 14 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	CHECK(&e);
}

static void test_period_replenish(void)
{
	period_replenish_case(DLS_REPLENISH_NEXT_PERIOD, 10 * MS);
	period_replenish_case(DLS_REPLENISH_AT_DEADLINE, 4 * MS);
}

/* Lag: the timer fires 25 ms late; deadline += P is still behind now, so
 * the entity restarts at now + D with a full budget and a lagged count. */
static void test_lag_reset(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	at(&e, 35 * MS);
	fake_fire_due(&e.fp);
	DLS_ASSERT_EQ_U64(a.stats.lagged, 1);
	DLS_ASSERT_EQ_U64(a.deadline, base + 45 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	CU_ASSERT_EQUAL(fake_count(&e.fp, DLS_TRACE_LAGGED), 1);
	CHECK(&e);
}

/* A throttle whose replenishment instant has already passed replenishes at
 * once instead of arming a timer (deadline passed while running). Both
 * overrun rules charge the 12 ms run once: the runtime had run out before
 * the deadline, so the 2012 rule has nothing left to forfeit. */
static void throttle_past_deadline_case(enum dls_overrun_rule rule)
{
	struct env e;
	struct dls_entity a;
	struct dls_domain_config cfg;

	dls_domain_config_default(&cfg);
	cfg.overrun_rule = rule;
	env_init(&e, &cfg);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	/* No tick for 12 ms: 2 ms over the deadline, runtime -10 ms owed. */
	at(&e, 12 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_U64(a.stats.misses, 1);
	DLS_ASSERT_EQ_U64(a.stats.max_lateness, 2 * MS);
	CU_ASSERT_FALSE(a.throttled);
	CU_ASSERT_TRUE(a.queued);
	CU_ASSERT_FALSE(fake_timer_armed(&e.fp, &a.timer));
	/* Charged 12 ms of a 2 ms budget: -10 ms; +2 ms x 6 = 2 ms, deadline
	 * 10 + 6 * 10 = 70 ms (replenish_dl_entity's loop). The 2012
	 * SCHED_DEADLINE patches subtracted the 2 ms of tardiness again
	 * (-12 ms, deadline 80 ms): a charge that grew with the lateness of
	 * the call. */
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	DLS_ASSERT_EQ_U64(a.deadline, base + 70 * MS);
	CHECK(&e);
}

static void test_throttle_past_deadline(void)
{
	throttle_past_deadline_case(DLS_OVERRUN_LINUX);
	throttle_past_deadline_case(DLS_OVERRUN_2012);
}

/*
 * A deadline missed without a budget overrun (EDF with U > 1, admission
 * off): A (Q 3, D = P = 10 ms) and B (Q 8, D = P = 10 ms), both woken at
 * 0, A first on the tie. A runs 0-3 and is throttled until 10; B runs
 * 3-10 and still has 1 ms at its deadline 10. At a charge at 10.5 ms:
 *  - today's Linux (dl_runtime_exceeded() is runtime <= 0 since commit
 *    269ad8015a6b, "sched/deadline: Avoid double-accounting in case of
 *    missed deadlines"): B keeps 0.5 ms and its deadline and runs on; at
 *    11 ms the budget is spent and, its next period (10) being past, it is
 *    replenished at once: deadline 20, runtime 8;
 *  - the 2012 rule: the 1 ms left at the deadline is forfeited and the
 *    0.5 ms run since is charged once: -0.5 ms, replenished at once to
 *    deadline 20, runtime 7.5 (the 2012 patches charged the 0.5 ms again,
 *    7 ms, more the later the charge came).
 */
static void overrun_rule_case(enum dls_overrun_rule rule)
{
	struct dls_domain_config cfg;
	struct env e;
	struct dls_entity a, b;

	dls_domain_config_default(&cfg);
	cfg.overrun_rule = rule;
	cfg.bw_limit = DLS_BW_UNLIMITED;
	env_init(&e, &cfg);
	attach(&e, &a, 3 * MS, 10 * MS, 0);
	attach(&e, &b, 8 * MS, 10 * MS, 0);
	at(&e, 0);
	dls_wakeup(&e.rq, &a);
	dls_wakeup(&e.rq, &b);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 3 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	at(&e, 10 * MS);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	at(&e, 10 * MS + 500 * US);
	dls_tick(&e.rq);
	CHECK(&e);
	DLS_ASSERT_EQ_U64(b.stats.misses, 1);
	if (rule == DLS_OVERRUN_LINUX) {
		DLS_ASSERT_EQ_S64(b.runtime, 500 * US);
		DLS_ASSERT_EQ_U64(b.deadline, base + 10 * MS);
		DLS_ASSERT_EQ_U64(b.stats.overruns, 0);
		CU_ASSERT_PTR_EQUAL(e.rq.curr, &b);
		at(&e, 11 * MS);
		dls_tick(&e.rq);
		DLS_ASSERT_EQ_S64(b.runtime, 8 * MS);
	} else {
		DLS_ASSERT_EQ_S64(b.runtime, 7500 * US);
	}
	CHECK(&e);
	DLS_ASSERT_EQ_U64(b.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_U64(b.stats.overruns, 1);
	CU_ASSERT_FALSE(b.throttled);
	CU_ASSERT_TRUE(b.queued);
}

static void test_overrun_rule_linux(void)
{
	overrun_rule_case(DLS_OVERRUN_LINUX);
}

static void test_overrun_rule_2012(void)
{
	overrun_rule_case(DLS_OVERRUN_2012);
}

/*
 * Late wake-up of a constrained entity (Q 2, D 5, P 20 ms): it runs 0-1 and
 * sleeps with 1 ms left; woken at 7 ms, after its deadline 5 but before its
 * next period 20, it has had its share of this period. Today's Linux
 * (dl_check_constrained_dl(), Documentation/scheduler/sched-deadline.rst
 * §2 on constrained deadlines) keeps it throttled with no runtime until 20,
 * then deadline 25, runtime 2. The 2012 rule starts a new instance at once:
 * deadline 12, runtime 2.
 */
static void late_wakeup_case(enum dls_replenish_rule rule)
{
	struct dls_domain_config cfg;
	struct env e;
	struct dls_entity a;

	dls_domain_config_default(&cfg);
	cfg.replenish_rule = rule;
	env_init(&e, &cfg);
	attach(&e, &a, 2 * MS, 5 * MS, 20 * MS);
	at(&e, 0);
	dls_wakeup(&e.rq, &a);
	dls_schedule(&e.rq);
	at(&e, 1 * MS);
	dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP);
	dls_schedule(&e.rq);
	at(&e, 7 * MS);
	dls_wakeup(&e.rq, &a);
	CHECK(&e);
	if (rule == DLS_REPLENISH_AT_DEADLINE) {
		CU_ASSERT_TRUE(a.queued);
		DLS_ASSERT_EQ_U64(a.deadline, base + 12 * MS);
		DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
		return;
	}
	CU_ASSERT_TRUE(a.throttled);
	CU_ASSERT_FALSE(a.queued);
	DLS_ASSERT_EQ_S64(a.runtime, 0);
	DLS_ASSERT_EQ_U64(a.timer.expires, base + 20 * MS);
	CU_ASSERT_PTR_NULL(dls_schedule(&e.rq));
	at(&e, 20 * MS - 1);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 0);
	at(&e, 20 * MS);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	CHECK(&e);
	CU_ASSERT_TRUE(a.queued);
	DLS_ASSERT_EQ_U64(a.deadline, base + 25 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
}

static void test_late_wakeup_linux(void)
{
	late_wakeup_case(DLS_REPLENISH_NEXT_PERIOD);
}

static void test_late_wakeup_2012(void)
{
	late_wakeup_case(DLS_REPLENISH_AT_DEADLINE);
}

/*
 * Soft reservation (the original CBS: Abeni & Buttazzo, RTSS 1998, §3,
 * "when the budget is exhausted it is recharged and the deadline postponed
 * by the server period"): A soft (Q 2, T 10 ms) and B hard (Q 3, D = P =
 * 15 ms) woken at 0. A runs 0-2 and is postponed to deadline 20 with 2 ms,
 * not throttled; B (15) runs 2-5 and is throttled until 15; A runs 5-7
 * (deadline 30) and 7-9 (deadline 40) alone: the CPU never idles.
 */
static void test_soft_postpone(void)
{
	struct env e;
	struct dls_entity a, b;
	struct dls_params soft = { .runtime = 2 * MS, .deadline = 10 * MS,
				   .flags = DLS_FLAG_SOFT };

	env_init(&e, NULL);
	dls_entity_init(&a);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq, &a, &soft), 0);
	attach(&e, &b, 3 * MS, 15 * MS, 0);
	at(&e, 0);
	dls_wakeup(&e.rq, &a);
	dls_wakeup(&e.rq, &b);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CHECK(&e);
	CU_ASSERT_FALSE(a.throttled);
	CU_ASSERT_TRUE(a.queued);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	at(&e, 5 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(b.throttled);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 7 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_U64(a.deadline, base + 30 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 9 * MS);
	dls_tick(&e.rq);
	CHECK(&e);
	DLS_ASSERT_EQ_U64(a.deadline, base + 40 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	DLS_ASSERT_EQ_U64(a.stats.throttles, 0);
	DLS_ASSERT_EQ_U64(a.stats.replenishments, 3);
	/* The parameter check accepts the flag. */
	DLS_ASSERT_EQ_S64(dls_params_check(&e.dom, &soft), 0);
}

/* Yield gives up the rest of the instance: runtime 0, no overrun, throttled
 * until the deadline, then a full budget for the next period. */
static void test_yield(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 500 * US);
	dls_yield(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	DLS_ASSERT_EQ_S64(a.runtime, 0);
	DLS_ASSERT_EQ_U64(a.stats.yields, 1);
	DLS_ASSERT_EQ_U64(a.stats.overruns, 0);
	DLS_ASSERT_EQ_U64(a.timer.expires, base + 10 * MS);
	at(&e, 10 * MS);
	fake_fire_due(&e.fp);
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	CHECK(&e);
}

/* Parameters changed while queued: the instance keeps its deadline, the
 * next replenishment uses the new budget and period. */
static void test_params_change_queued(void)
{
	struct env e;
	struct dls_entity a, b;
	struct dls_params np = { .runtime = 3 * MS, .deadline = 20 * MS };
	struct dls_params got;
	int64_t rt;
	uint64_t dl;

	env_init(&e, NULL);
	attach(&e, &a, 1 * MS, 10 * MS, 0);
	attach(&e, &b, 1 * MS, 5 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &a, &np), 0);
	CHECK(&e);
	dls_entity_get(&a, &got, &rt, &dl);
	DLS_ASSERT_EQ_U64(got.runtime, 3 * MS);
	DLS_ASSERT_EQ_U64(got.deadline, 20 * MS);
	DLS_ASSERT_EQ_S64(rt, 1 * MS);
	DLS_ASSERT_EQ_U64(dl, base + 10 * MS);
	CU_ASSERT_TRUE(a.queued);

	at(&e, 1 * MS);
	dls_tick(&e.rq); /* b exhausted */
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	at(&e, 10 * MS);
	fake_fire_due(&e.fp);
	DLS_ASSERT_EQ_U64(a.deadline, base + 30 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 3 * MS);
	CHECK(&e);
}

/* Parameters changed while running: the remaining runtime is cut to the
 * new, smaller budget at once. */
static void test_params_change_running(void)
{
	struct env e;
	struct dls_entity a;
	struct dls_params np = { .runtime = 500 * US, .deadline = 10 * MS };

	env_init(&e, NULL);
	attach(&e, &a, 4 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 1 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &a, &np), 0);
	DLS_ASSERT_EQ_S64(a.runtime, 500 * US);
	CU_ASSERT_PTR_EQUAL(e.rq.curr, &a);
	at(&e, 1500 * US);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	CHECK(&e);
}

/* Admission at the limit passes, 1 LSB over fails and changes nothing.
 * bw(5/10) = 524288, bw(4.5/10) = 471859, limit 95% = 996147. */
static void test_admission(void)
{
	struct env e;
	struct dls_entity a, b, c;
	struct dls_params pc = { .runtime = 1024, .deadline = 10 * MS };
	struct dls_params grow = { .runtime = 5 * MS + 1000, .deadline = 10 * MS };

	env_init(&e, NULL);
	attach(&e, &a, 5 * MS, 10 * MS, 0);
	attach(&e, &b, 4500 * US, 10 * MS, 0);
	DLS_ASSERT_EQ_U64(e.rq.bw.total, 996147);
	dls_entity_init(&c);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq, &c, &pc), DLS_EBANDWIDTH);
	CU_ASSERT_PTR_NULL(c.rq);
	DLS_ASSERT_EQ_U64(e.rq.bw.total, 996147);
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&e.rq, &a, &grow), DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(a.params.runtime, 5 * MS);
	DLS_ASSERT_EQ_U64(e.rq.bw.total, 996147);
	/* Releasing b makes room. */
	DLS_ASSERT_EQ_S64(dls_task_dead(&e.rq, &b), 0);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq, &c, &pc), 0);
	/* Half capacity halves the room: 524288 + 107 > 498073. */
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq, 512), DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(e.rq.capacity, 1024);
}

static void test_admission_disabled(void)
{
	struct dls_domain_config cfg;
	struct env e;
	struct dls_entity a, b;

	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	env_init(&e, &cfg);
	attach(&e, &a, 10 * MS, 10 * MS, 0);
	attach(&e, &b, 10 * MS, 10 * MS, 0);
	DLS_ASSERT_EQ_U64(e.rq.bw.total, 2 * DLS_BW_UNIT);
}

/* EDF order and preemption: an earlier deadline preempts, ties are FIFO. */
static void test_edf_preempt(void)
{
	struct env e;
	struct dls_entity a, b, c;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 20 * MS, 0);
	attach(&e, &b, 2 * MS, 10 * MS, 0);
	attach(&e, &c, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	unsigned int r = e.fp.resched;
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	CU_ASSERT_EQUAL(e.fp.resched, r + 1);
	/* same deadline as b: no preemption of b */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &c), 0);
	CHECK(&e);
	DLS_ASSERT_EQ_U64(e.rq.earliest.curr, base + 10 * MS);
	DLS_ASSERT_EQ_U64(e.rq.earliest.next, base + 10 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	r = e.fp.resched;
	CU_ASSERT_FALSE(dls_check_preempt(&e.rq, &c));
	CU_ASSERT_EQUAL(e.fp.resched, r);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &c);
	DLS_ASSERT_EQ_U64(e.rq.earliest.curr, base + 10 * MS);
	DLS_ASSERT_EQ_U64(e.rq.earliest.next, base + 20 * MS);
}

/* A job reported done after its deadline is a miss with exact lateness. */
static void test_job_done_miss(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, NULL);
	attach(&e, &a, 4 * MS, 10 * MS, 0);
	attach(&e, &b, 2 * MS, 5 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 3 * MS);
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &a, DLS_DEQUEUE_DONE), 0);
	DLS_ASSERT_EQ_U64(a.stats.jobs_done, 1);
	DLS_ASSERT_EQ_U64(a.stats.misses, 0);
	dls_schedule(&e.rq);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	dls_schedule(&e.rq);
	at(&e, 9 * MS); /* b's deadline was 8 ms: done 1 ms late */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &b, DLS_DEQUEUE_DONE), 0);
	DLS_ASSERT_EQ_U64(b.stats.misses, 1);
	DLS_ASSERT_EQ_U64(b.stats.max_lateness, 1 * MS);
	CHECK(&e);
}

static unsigned int overrun_calls;
static void on_overrun(void *arg, struct dls_entity *se)
{
	(void)se;
	*(unsigned int *)arg += 1;
}

/* Overrun notification reaches the per-entity callback when flagged. */
static void test_overrun_callback(void)
{
	struct env e;
	struct dls_entity a;
	struct dls_params p = { .runtime = 1 * MS, .deadline = 10 * MS,
				.flags = DLS_FLAG_OVERRUN };

	env_init(&e, NULL);
	dls_entity_init(&a);
	overrun_calls = 0;
	a.overrun_cb = on_overrun;
	a.overrun_arg = &overrun_calls;
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq, &a, &p), 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 1 * MS + 1000); /* 1 us more than the budget */
	dls_tick(&e.rq);
	CU_ASSERT_EQUAL(overrun_calls, 1);
}

/* Capacity scaling: on a half-speed CPU 2 ms of wall time cost 1 ms. */
static void test_capacity_scaling(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq, 512), 0);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	DLS_ASSERT_EQ_S64(a.runtime, 1 * MS);
	DLS_ASSERT_EQ_U64(a.stats.exec_time, 1 * MS);
	DLS_ASSERT_EQ_U64(a.stats.runtime_charged, 1 * MS);
	at(&e, 4 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
}

/* Boost: ordered by the inherited deadline, replenished instead of throttled. */
static void test_boost(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, NULL);
	attach(&e, &a, 1 * MS, 50 * MS, 0);
	attach(&e, &b, 1 * MS, 20 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &b), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
	DLS_ASSERT_EQ_S64(dls_entity_set_boost(&e.rq, &a, true, base + 5 * MS), 0);
	CHECK(&e);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 1 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_FALSE(a.throttled);
	CU_ASSERT_TRUE(a.queued);
	DLS_ASSERT_EQ_U64(a.deadline, base + 100 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_boost(&e.rq, &a, false, 0), 0);
	CHECK(&e);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &b);
}

/* DLS_ENQUEUE_REPLENISH on a throttled entity: replenished and queued at
 * once, no longer throttled, its replenishment timer cancelled. */
static void test_enqueue_replenish_throttled(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 2 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
	at(&e, 2 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	CU_ASSERT_TRUE(fake_timer_armed(&e.fp, &a.timer));
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq, &a, DLS_DEQUEUE_SLEEP), 0);
	CU_ASSERT_PTR_NULL(dls_schedule(&e.rq));
	DLS_ASSERT_EQ_S64(dls_enqueue(&e.rq, &a, DLS_ENQUEUE_REPLENISH), 0);
	CHECK(&e);
	CU_ASSERT_FALSE(a.throttled);
	CU_ASSERT_TRUE(a.queued);
	CU_ASSERT_FALSE(fake_timer_armed(&e.fp, &a.timer));
	DLS_ASSERT_EQ_U64(a.deadline, base + 20 * MS);
	DLS_ASSERT_EQ_S64(a.runtime, 2 * MS);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq), &a);
}

/* Stale and early timer expiries are harmless. */
static void test_timer_stale(void)
{
	struct env e;
	struct dls_entity a;

	env_init(&e, NULL);
	attach(&e, &a, 1 * MS, 10 * MS, 0);
	at(&e, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq, &a), 0);
	dls_schedule(&e.rq);
	at(&e, 1 * MS);
	dls_tick(&e.rq);
	CU_ASSERT_TRUE(a.throttled);
	at(&e, 5 * MS);
	dls_timer_expired(&a.timer); /* early: re-armed, nothing else */
	CU_ASSERT_TRUE(a.throttled);
	CU_ASSERT_TRUE(fake_timer_armed(&e.fp, &a.timer));
	DLS_ASSERT_EQ_S64(dls_task_dead(&e.rq, &a), 0);
	CU_ASSERT_FALSE(fake_timer_armed(&e.fp, &a.timer));
	dls_timer_expired(&a.timer); /* after cancel: ignored */
	CU_ASSERT_FALSE(a.queued);
	DLS_ASSERT_EQ_U64(e.rq.bw.total, 0);
}

static const struct dls_test_case cases[] = {
	{ "throttle and replenish", test_throttle_replenish },
	{ "overrun carried", test_overrun_carried },
	{ "overrun exact multiple", test_overrun_exact_multiple },
	{ "wake-up boundary", test_wakeup_boundary },
	{ "wake-up after deadline", test_wakeup_after_deadline },
	{ "constrained: CBS rule", test_constrained_cbs_rule },
	{ "constrained: revised rule", test_constrained_revised_rule },
	{ "period replenish", test_period_replenish },
	{ "lag reset", test_lag_reset },
	{ "throttle past deadline", test_throttle_past_deadline },
	{ "overrun rule: today's Linux", test_overrun_rule_linux },
	{ "overrun rule: 2012", test_overrun_rule_2012 },
	{ "late wake-up, D < P: today's Linux", test_late_wakeup_linux },
	{ "late wake-up, D < P: 2012", test_late_wakeup_2012 },
	{ "soft reservation postpones", test_soft_postpone },
	{ "yield", test_yield },
	{ "params change queued", test_params_change_queued },
	{ "params change running", test_params_change_running },
	{ "admission", test_admission },
	{ "admission disabled", test_admission_disabled },
	{ "EDF preemption and ties", test_edf_preempt },
	{ "job done miss", test_job_done_miss },
	{ "overrun callback", test_overrun_callback },
	{ "capacity scaling", test_capacity_scaling },
	{ "enqueue with REPLENISH while throttled", test_enqueue_replenish_throttled },
	{ "boost", test_boost },
	{ "back-to-back jobs: done, then wake-up", test_back_to_back_jobs },
	{ "overrun: more than the budget, not exactly it",
	  test_overrun_counts_more_than_budget },
	{ "stale timer", test_timer_stale },
	{ NULL, NULL },
};

static int base_plain(void) { base = 1 * SEC; return 0; }
static int base_wrap10s(void) { base = (uint64_t)0 - 10 * SEC; return 0; }
static int base_wrap5ms(void) { base = (uint64_t)0 - 5 * MS; return 0; }

int main(void)
{
	static int (*const inits[3])(void) = { base_plain, base_wrap10s, base_wrap5ms };
	static const char *const names[3] = {
		"cbs (clock at 1 s)", "cbs (clock at 2^64 - 10 s)",
		"cbs (clock at 2^64 - 5 ms, wraps mid-test)"
	};

	return dls_test_main_inits(3, names, inits, cases);
}
