/*
 * Contracts between the core and its integrator that a port relies on
 * without reading another port's source: a deadline task's PI key follows
 * its entity's deadline (pi.h, dls_pi_sync_entity()), and the statistics
 * count what their names say (types.h, struct dls_stats).
 *
 * Built twice, as test_misuse is: against the checked library
 * (test_contract) and a release-configured copy (test_contract_release).
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/pi.h>
#include <dlsched/sched.h>

#include "dls_test.h"
#include "fake_platform.h"

#define MS UINT64_C(1000000)

struct task {
	struct dls_entity se;
	struct dls_pi_task pi;
	struct dls_pi_waiter w;
};

struct world {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_pi_ctx pi;
	uint64_t base;
};

/* pi.h's boost_changed for a deadline entity. */
static void on_boost(void *ctx, struct dls_pi_task *pt)
{
	struct world *w = ctx;
	struct task *t = dls_container_of(pt, struct task, pi);

	DLS_ASSERT_EQ_S64(dls_entity_set_boost(&w->rq, &t->se,
					       pt->boosted && pt->eff.has_dl, pt->eff.dl), 0);
}

static const struct dls_pi_ops pi_ops = { .boost_changed = on_boost };

static void world_init(struct world *w, uint64_t limit)
{
	struct dls_domain_config cfg;

	dls_domain_config_default(&cfg);
	cfg.bw_limit = limit;
	memset(w, 0, sizeof(*w));
	w->base = 1000 * MS;
	fake_init(&w->fp, w->base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&w->dom, &fake_ops_notrace, &w->fp,
					      &cfg, &w->rq, 1), 0);
	dls_pi_ctx_init(&w->pi, &pi_ops, w);
}

static void at(struct world *w, uint64_t rel)
{
	w->fp.now = w->base + rel;
}

static void task_init(struct world *w, struct task *t, uint64_t q, uint64_t p,
		      uint32_t flags)
{
	struct dls_params par = { .runtime = q, .deadline = p, .flags = flags };

	memset(t, 0, sizeof(*t));
	dls_entity_init(&t->se);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&w->rq, &t->se, &par), 0);
	dls_pi_task_init(&t->pi, 0, true, t->se.deadline);
}

static void wake(struct world *w, struct task *t)
{
	DLS_ASSERT_EQ_S64(dls_wakeup(&w->rq, &t->se), 0);
	CU_ASSERT_TRUE(dls_pi_sync_entity(&w->pi, &t->pi, &t->se)); /* a new instance */
	CU_ASSERT_PTR_NULL(dls_pi_check_entity(&t->pi, &t->se));
}

/*
 * The owner's deadline moves past its waiter's at a replenishment.
 * O (2 ms / 10 ms) takes m at 0 and is throttled at 2 (deadline 10); W
 * (1 ms / 15 ms, deadline 18) and X (1 ms / 16 ms, deadline 19) wake at 3;
 * W blocks on m. O's deadline 10 is earlier than W's: no boost. At 10 O is
 * replenished (deadline += P: 20, sched-deadline.rst §3) and W's 18 is now
 * the earlier: O inherits it (Linux's rt_mutex_setprio() boosts a deadline
 * owner whose top waiter's deadline is earlier, dl_entity_preempt()) and
 * runs before X (19). Before the sync the PI state still holds O's old
 * deadline 10, and the check says so; without it X would run first.
 */
static void test_pi_owner_replenished(void)
{
	struct world w;
	struct task o, wt, x;
	struct dls_pi_mutex m;
	struct dls_pi_task *tasks[3] = { &o.pi, &wt.pi, &x.pi };
	struct dls_pi_mutex *mutexes[1] = { &m };

	world_init(&w, DLS_BW_UNLIMITED);
	dls_pi_mutex_init(&m);
	task_init(&w, &o, 2 * MS, 10 * MS, 0);
	task_init(&w, &wt, 1 * MS, 15 * MS, 0);
	task_init(&w, &x, 1 * MS, 16 * MS, 0);
	at(&w, 0);
	wake(&w, &o);
	DLS_ASSERT_EQ_S64(dls_pi_lock(&w.pi, &o.pi, &m, &o.w), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&w.rq), &o.se);
	at(&w, 2 * MS);
	dls_tick(&w.rq);
	CU_ASSERT_TRUE_FATAL(o.se.throttled);
	DLS_ASSERT_EQ_U64(o.se.timer.expires, w.base + 10 * MS);

	at(&w, 3 * MS);
	wake(&w, &wt);
	wake(&w, &x);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&w.rq), &wt.se);
	CU_ASSERT_FALSE(dls_pi_sync_entity(&w.pi, &wt.pi, &wt.se)); /* in step */
	DLS_ASSERT_EQ_S64(dls_pi_lock(&w.pi, &wt.pi, &m, &wt.w), DLS_PI_BLOCKED);
	DLS_ASSERT_EQ_S64(dls_dequeue(&w.rq, &wt.se, DLS_DEQUEUE_SLEEP), 0);
	CU_ASSERT_FALSE(o.pi.boosted); /* 10 is earlier than 18 */
	CU_ASSERT_FALSE(o.se.boosted);

	at(&w, 10 * MS);
	DLS_ASSERT_EQ_U64(fake_fire_due(&w.fp), 1);
	DLS_ASSERT_EQ_U64(o.se.deadline, w.base + 20 * MS);
	CU_ASSERT_PTR_NOT_NULL(dls_pi_check_entity(&o.pi, &o.se)); /* stale: 10 */
	CU_ASSERT_TRUE(dls_pi_sync_entity(&w.pi, &o.pi, &o.se));
	CU_ASSERT_PTR_NULL(dls_pi_check_entity(&o.pi, &o.se));
	CU_ASSERT_TRUE(o.pi.boosted);
	DLS_ASSERT_EQ_U64(o.pi.eff.dl, w.base + 18 * MS);
	CU_ASSERT_TRUE(o.se.boosted);
	DLS_ASSERT_EQ_U64(o.se.pi_deadline, w.base + 18 * MS);
	DLS_ASSERT_VALID(dls_pi_check(tasks, 3, mutexes, 1));
	DLS_ASSERT_VALID(dls_rq_check(&w.rq));
	CU_ASSERT_PTR_EQUAL(dls_schedule(&w.rq), &o.se); /* 18 before X's 19 */

	/* Unlocked: W owns m, O back to its own deadline 20, after X. */
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&w.pi, &o.pi, &m), &wt.pi);
	CU_ASSERT_FALSE(o.se.boosted);
	CU_ASSERT_PTR_NULL(dls_pi_check_entity(&o.pi, &o.se));
	CU_ASSERT_PTR_EQUAL(dls_schedule(&w.rq), &x.se);
	DLS_ASSERT_VALID(dls_pi_check(tasks, 3, mutexes, 1));
}

/*
 * A reclaiming entity is charged at GRUB's rate, not for the time it ran:
 * stats.exec_time counts the time it ran, stats.runtime_charged the budget
 * charged. A (5 ms / 10 ms, DLS_FLAG_RECLAIM) alone on a CPU with no
 * bandwidth limit: Umax = 1, Uinact = 0, Uextra = 1 - 1/2, so it is
 * charged max{u, Umax - Uinact - Uextra}/Umax = 1/2 of the time it runs
 * (src/cbs/grub.c; Linux's grub_reclaim()): 4 ms run, 2 ms charged. A
 * plain B (2 ms / 10 ms) beside it is charged what it runs.
 */
static void test_stats_exec_vs_charged(void)
{
	struct world w;
	struct task a, b;

	world_init(&w, DLS_BW_UNLIMITED);
	task_init(&w, &a, 5 * MS, 10 * MS, DLS_FLAG_RECLAIM);
	at(&w, 0);
	wake(&w, &a);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&w.rq), &a.se);
	at(&w, 4 * MS);
	dls_tick(&w.rq);
	DLS_ASSERT_EQ_U64(a.se.stats.exec_time, 4 * MS);
	DLS_ASSERT_EQ_U64(a.se.stats.runtime_charged, 2 * MS);
	DLS_ASSERT_EQ_S64(a.se.runtime, 3 * MS);
	DLS_ASSERT_EQ_S64(dls_dequeue(&w.rq, &a.se, DLS_DEQUEUE_DONE), 0);
	DLS_ASSERT_EQ_S64(dls_task_dead(&w.rq, &a.se), 0);

	task_init(&w, &b, 2 * MS, 10 * MS, 0);
	wake(&w, &b);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&w.rq), &b.se);
	at(&w, 5 * MS + 500000);
	dls_tick(&w.rq);
	DLS_ASSERT_EQ_U64(b.se.stats.exec_time, 1 * MS + 500000);
	DLS_ASSERT_EQ_U64(b.se.stats.runtime_charged, 1 * MS + 500000);
}

static const struct dls_test_case cases[] = {
	{ "PI: an owner replenished past its waiter inherits once synced",
	  test_pi_owner_replenished },
	{ "stats: time run and budget charged (GRUB)", test_stats_exec_vs_charged },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "contract", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
