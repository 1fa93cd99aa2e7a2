/*
 * Deadline inheritance end to end: the PI module (pi.h) wired to the EDF +
 * CBS core (sched.h) the way pi.h's boost_changed documents it, on one CPU
 * of the fake platform.
 *
 * - The chain of the issue: A waits on L1 held by B, B waits on L2 held by
 *   C, so C runs with A's deadline, ahead of an independent entity whose
 *   own deadline lies between; unlocks deboost step by step.
 * - A boosted entity is not throttled when its budget runs out (Linux:
 *   dl_boosted entities are replenished instead of throttled).
 * - A donor without a deadline never lends one to a deadline entity.
 * - Random lock traffic with wake-ups, ticks, timeouts and timer expiries,
 *   validated after every operation: both validators, and every entity's
 *   boost and ordering key agree with the PI state.
 * Each case runs from three clock origins, two of which wrap mid-test.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/pi.h>
#include <dlsched/sched.h>

#include "dls_test.h"
#include "fake_platform.h"

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static const uint64_t bases[] = {
	1 * SEC,
	(uint64_t)0 - 10 * MS,
	(uint64_t)0 - 1 * MS,
};

struct task {
	struct dls_entity se;    /* used when dl */
	struct dls_pi_task pi;
	struct dls_pi_waiter w;
	bool dl;
	bool asleep;             /* not runnable: never woken, blocked or done */
	int prio;
};

struct world {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_pi_ctx pi;
	uint64_t base;
	unsigned int boost_calls;
};

/* The integrator's side of pi.h: requeue under the new effective key. */
static void on_boost(void *ctx, struct dls_pi_task *pt)
{
	struct world *w = ctx;
	struct task *t = dls_container_of(pt, struct task, pi);

	w->boost_calls++;
	if (t->dl)
		dls_entity_set_boost(&w->rq, &t->se,
				     pt->boosted && pt->eff.has_dl, pt->eff.dl);
}

static const struct dls_pi_ops pi_ops = { .boost_changed = on_boost };

/* Admission is off: the random runs overload the CPU on purpose. */
static void world_init(struct world *w, uint64_t base)
{
	struct dls_domain_config cfg;

	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	memset(w, 0, sizeof(*w));
	w->base = base;
	fake_init(&w->fp, base);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&w->dom, &fake_ops_notrace, &w->fp,
					      &cfg, &w->rq, 1), 0);
	dls_pi_ctx_init(&w->pi, &pi_ops, w);
}

static void at(struct world *w, uint64_t rel)
{
	w->fp.now = w->base + rel;
}

static void task_dl(struct world *w, struct task *t, uint64_t q, uint64_t d)
{
	struct dls_params p = { .runtime = q, .deadline = d, .period = d };

	memset(t, 0, sizeof(*t));
	t->dl = true;
	t->asleep = true;
	dls_entity_init(&t->se);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&w->rq, &t->se, &p), 0);
	dls_pi_task_init(&t->pi, 0, true, t->se.deadline);
}

/* The PI key follows the entity's own deadline (new instance, replenish). */
static void sync_own(struct world *w, struct task *t)
{
	if (t->dl && t->pi.own.dl != t->se.deadline)
		dls_pi_set_own(&w->pi, &t->pi, t->prio, true, t->se.deadline);
}

static void wake(struct world *w, struct task *t)
{
	t->asleep = false;
	if (t->dl) {
		DLS_ASSERT_EQ_S64(dls_wakeup(&w->rq, &t->se), 0);
		sync_own(w, t);
	}
}

/* @t asks for @m: owns it (0) or blocks and leaves the runqueue. */
static int lock(struct world *w, struct task *t, struct dls_pi_mutex *m)
{
	int r = dls_pi_lock(&w->pi, &t->pi, m, &t->w);

	if (r == DLS_PI_BLOCKED) {
		t->asleep = true;
		if (t->dl)
			DLS_ASSERT_EQ_S64(dls_dequeue(&w->rq, &t->se, DLS_DEQUEUE_SLEEP), 0);
	}
	return r;
}

static void unlock(struct world *w, struct task *t, struct dls_pi_mutex *m)
{
	struct dls_pi_task *next = dls_pi_unlock(&w->pi, &t->pi, m);

	if (next)
		wake(w, dls_container_of(next, struct task, pi));
}

static struct dls_entity *pick(struct world *w)
{
	return dls_schedule(&w->rq);
}

/* Every deadline entity's boost and key agree with its PI state. */
static const char *agree(struct task *const *ts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct task *t = ts[i];
		bool want = t->pi.boosted && t->pi.eff.has_dl;

		if (!t->dl)
			continue;
		if (t->se.boosted != want)
			return "entity boost differs from the PI state";
		if (want && t->se.pi_deadline != t->pi.eff.dl)
			return "boosted entity not keyed by the inherited deadline";
		if (t->pi.blocked_on && t->se.queued)
			return "a task blocked on a mutex is queued";
		if (want && t->se.throttled)
			return "a boosted entity is throttled";
	}
	return NULL;
}

#define CHECK_ALL(w, ts, n, ms, nm)                                            \
	do {                                                                   \
		DLS_ASSERT_VALID(dls_rq_check(&(w)->rq));                      \
		DLS_ASSERT_VALID(dls_pi_check((struct dls_pi_task *const *)   \
						      pts_of(ts, n), n, ms, nm)); \
		DLS_ASSERT_VALID(agree(ts, n));                                \
	} while (0)

static struct dls_pi_task *pts_buf[64];

static struct dls_pi_task **pts_of(struct task *const *ts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pts_buf[i] = &ts[i]->pi;
	return pts_buf;
}

/* The chain of the issue; X's own deadline lies between A's and B's. */
static void chain_from(uint64_t base)
{
	struct world w;
	struct task a, b, c, x;
	struct task *ts[] = { &a, &b, &c, &x };
	struct dls_pi_mutex l1, l2;
	struct dls_pi_mutex *ms[] = { &l1, &l2 };

	world_init(&w, base);
	task_dl(&w, &a, 2 * MS, 10 * MS);
	task_dl(&w, &b, 2 * MS, 30 * MS);
	task_dl(&w, &c, 2 * MS, 50 * MS);
	task_dl(&w, &x, 5 * MS, 15 * MS);
	dls_pi_mutex_init(&l1);
	dls_pi_mutex_init(&l2);
	at(&w, 0);

	wake(&w, &c);
	CU_ASSERT_PTR_EQUAL(pick(&w), &c.se);
	DLS_ASSERT_EQ_S64(lock(&w, &c, &l2), 0);
	wake(&w, &b);
	CU_ASSERT_PTR_EQUAL(pick(&w), &b.se); /* 30 ms before 50 ms */
	DLS_ASSERT_EQ_S64(lock(&w, &b, &l1), 0);
	DLS_ASSERT_EQ_S64(lock(&w, &b, &l2), DLS_PI_BLOCKED);
	CHECK_ALL(&w, ts, 4, ms, 2);
	CU_ASSERT_TRUE(c.se.boosted);
	DLS_ASSERT_EQ_U64(c.se.pi_deadline, base + 30 * MS);
	CU_ASSERT_PTR_EQUAL(pick(&w), &c.se);

	/* X (15 ms) is earlier than what C inherited so far (30 ms)... */
	wake(&w, &x);
	CU_ASSERT_PTR_EQUAL(pick(&w), &x.se);
	/* ...until A (10 ms) blocks behind B and the chain hands C 10 ms. */
	wake(&w, &a);
	CU_ASSERT_PTR_EQUAL(pick(&w), &a.se);
	DLS_ASSERT_EQ_S64(lock(&w, &a, &l1), DLS_PI_BLOCKED);
	CHECK_ALL(&w, ts, 4, ms, 2);
	DLS_ASSERT_EQ_U64(b.pi.eff.dl, base + 10 * MS);
	DLS_ASSERT_EQ_U64(c.pi.eff.dl, base + 10 * MS);
	DLS_ASSERT_EQ_U64(c.se.pi_deadline, base + 10 * MS);
	CU_ASSERT_PTR_EQUAL(c.pi.donor, &b.pi);
	CU_ASSERT_PTR_EQUAL(pick(&w), &c.se);

	/* C overruns its 2 ms budget while boosted: it is not throttled. */
	at(&w, 3 * MS);
	dls_tick(&w.rq);
	CU_ASSERT_FALSE(c.se.throttled);
	CU_ASSERT_PTR_EQUAL(pick(&w), &c.se);
	CHECK_ALL(&w, ts, 4, ms, 2);

	/* C releases L2: B owns it and runs with A's deadline, ahead of X. */
	unlock(&w, &c, &l2);
	CU_ASSERT_FALSE(c.se.boosted);
	CU_ASSERT_TRUE(b.se.boosted);
	DLS_ASSERT_EQ_U64(b.se.pi_deadline, base + 10 * MS);
	CHECK_ALL(&w, ts, 4, ms, 2);
	CU_ASSERT_PTR_EQUAL(pick(&w), &b.se);

	/* B releases both: A owns L1 and runs first, then X, B, C by deadline. */
	unlock(&w, &b, &l2);
	unlock(&w, &b, &l1);
	CU_ASSERT_FALSE(b.se.boosted);
	CU_ASSERT_PTR_EQUAL(l1.owner, &a.pi);
	CHECK_ALL(&w, ts, 4, ms, 2);
	CU_ASSERT_PTR_EQUAL(pick(&w), &a.se);
	unlock(&w, &a, &l1);
	DLS_ASSERT_EQ_S64(dls_dequeue(&w.rq, &a.se, DLS_DEQUEUE_DONE), 0);
	CU_ASSERT_PTR_EQUAL(pick(&w), &x.se);
	DLS_ASSERT_EQ_S64(dls_dequeue(&w.rq, &x.se, DLS_DEQUEUE_DONE), 0);
	CU_ASSERT_PTR_EQUAL(pick(&w), &b.se);
	DLS_ASSERT_EQ_S64(dls_dequeue(&w.rq, &b.se, DLS_DEQUEUE_DONE), 0);
	/* C's budget ran out while boosted: it was replenished on the spot
	 * (deadline postponed by a period), never throttled. */
	CU_ASSERT_PTR_EQUAL(pick(&w), &c.se);
	CU_ASSERT_TRUE(c.se.runtime > 0);
	DLS_ASSERT_EQ_U64(c.se.deadline, base + 100 * MS);
	DLS_ASSERT_EQ_U64(c.se.stats.throttles, 0);
	CHECK_ALL(&w, ts, 4, ms, 2);
	CU_ASSERT_EQUAL(a.se.stats.misses + b.se.stats.misses +
				x.se.stats.misses,
			0);
}

static void test_chain(void)
{
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		chain_from(bases[i]);
}

/* A priority-only donor (an RT thread) never lends a deadline. */
static void no_deadline_donor_from(uint64_t base)
{
	struct world w;
	struct task c, x, r;
	struct task *ts[] = { &c, &x, &r };
	struct dls_pi_mutex l;
	struct dls_pi_mutex *ms[] = { &l };

	world_init(&w, base);
	task_dl(&w, &c, 2 * MS, 50 * MS);
	task_dl(&w, &x, 2 * MS, 20 * MS);
	memset(&r, 0, sizeof(r));
	r.prio = 1;
	dls_pi_task_init(&r.pi, r.prio, false, 0);
	dls_pi_mutex_init(&l);
	at(&w, 0);

	wake(&w, &c);
	CU_ASSERT_PTR_EQUAL(pick(&w), &c.se);
	DLS_ASSERT_EQ_S64(lock(&w, &c, &l), 0);
	wake(&w, &x);
	DLS_ASSERT_EQ_S64(lock(&w, &r, &l), DLS_PI_BLOCKED);
	CHECK_ALL(&w, ts, 3, ms, 1);
	CU_ASSERT_FALSE(c.se.boosted);
	DLS_ASSERT_EQ_U64(c.pi.eff.dl, c.se.deadline);
	CU_ASSERT_PTR_EQUAL(pick(&w), &x.se);
	unlock(&w, &c, &l);
	CU_ASSERT_PTR_EQUAL(l.owner, &r.pi);
	CHECK_ALL(&w, ts, 3, ms, 1);
}

static void test_no_deadline_donor(void)
{
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		no_deadline_donor_from(bases[i]);
}

/* ---- random traffic ------------------------------------------------------ */

#define RT 10 /* tasks: 8 deadline, 2 priority-only */
#define RM 4  /* mutexes */

struct rworld {
	struct world w;
	struct task t[RT];
	struct task *ts[RT];
	struct dls_pi_mutex m[RM];
	struct dls_pi_mutex *ms[RM];
	struct task *holder[RM]; /* mirror of the owners, as seen by the test */
	uint64_t now;
};

static bool owns_any(const struct rworld *r, const struct task *t)
{
	for (int i = 0; i < RM; i++)
		if (r->m[i].owner == &t->pi)
			return true;
	return false;
}

static void random_from(uint64_t base, uint64_t seed, uint64_t steps)
{
	struct rworld *r = calloc(1, sizeof(*r));
	struct dls_test_rng rng;
	unsigned long blocks = 0, boosted_picks = 0, deadlocks = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	dls_test_rng_seed(&rng, seed);
	world_init(&r->w, base);
	for (int i = 0; i < RT; i++) {
		struct task *t = &r->t[i];

		r->ts[i] = t;
		if (i < 8) {
			uint64_t d = (5 + dls_test_rng_below(&rng, 60)) * MS;

			task_dl(&r->w, t, d / (4 + dls_test_rng_below(&rng, 8)), d);
		} else {
			memset(t, 0, sizeof(*t));
			t->prio = (int)dls_test_rng_below(&rng, 3);
			dls_pi_task_init(&t->pi, t->prio, false, 0);
		}
	}
	for (int i = 0; i < RM; i++) {
		dls_pi_mutex_init(&r->m[i]);
		r->ms[i] = &r->m[i];
	}
	for (int i = 0; i < RT; i++)
		r->t[i].asleep = true;

	for (uint64_t s = 0; s < steps; s++) {
		struct task *t = &r->t[dls_test_rng_below(&rng, RT)];
		struct dls_pi_mutex *m = &r->m[dls_test_rng_below(&rng, RM)];
		uint64_t when;

		switch (dls_test_rng_below(&rng, 8)) {
		case 0: /* wake a sleeping task that waits on nothing */
			if (t->asleep && !t->pi.blocked_on)
				wake(&r->w, t);
			break;
		case 1: /* a running task asks for a mutex */
		case 2:
			if (t->asleep || t->pi.blocked_on)
				break;
			if (m->owner == &t->pi)
				break;
			{
				int rc = lock(&r->w, t, m);

				if (rc == DLS_EDEADLK)
					deadlocks++;
				else if (rc == DLS_PI_BLOCKED)
					blocks++;
				else
					DLS_ASSERT_EQ_S64(rc, 0);
			}
			break;
		case 3: /* release */
			if (m->owner && !m->owner->blocked_on)
				unlock(&r->w, dls_container_of(m->owner, struct task, pi), m);
			break;
		case 4: /* a wait times out */
			if (t->pi.blocked_on) {
				dls_pi_remove_waiter(&r->w.pi, &t->pi);
				wake(&r->w, t);
			}
			break;
		case 5: /* a job ends: only tasks that hold nothing block */
			if (t->dl && !t->asleep && !owns_any(r, t) &&
			    !t->pi.blocked_on) {
				DLS_ASSERT_EQ_S64(dls_dequeue(&r->w.rq, &t->se, DLS_DEQUEUE_DONE),
						  0);
				t->asleep = true;
			}
			break;
		default: /* time passes: tick, fire timers, reschedule */
			r->now += dls_test_rng_below(&rng, 3 * MS);
			at(&r->w, r->now);
			if (r->w.rq.curr)
				dls_tick(&r->w.rq);
			if (fake_next_timer(&r->w.fp, &when) &&
			    !dls_time_before(r->w.fp.now, when))
				fake_fire_due(&r->w.fp);
			{
				struct dls_entity *se = pick(&r->w);

				if (se && se->boosted)
					boosted_picks++;
			}
			for (int i = 0; i < RT; i++)
				if (!r->t[i].pi.boosted)
					sync_own(&r->w, &r->t[i]);
			break;
		}
		CHECK_ALL(&r->w, r->ts, RT, r->ms, RM);
	}
	printf("  %llu steps: %lu blocks, %lu refused deadlocks, %lu boosted "
	       "picks, %u boost calls\n",
	       (unsigned long long)steps, blocks, deadlocks, boosted_picks,
	       r->w.boost_calls);
	CU_ASSERT_TRUE(blocks > 0);
	CU_ASSERT_TRUE(boosted_picks > 0);
	free(r);
}

static void test_random(void)
{
	uint64_t seed = dls_test_seed("pi+edf random", 0x5eed0901);
	uint64_t steps = dls_test_scaled(40000);

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		random_from(bases[i], seed + i, steps);
}

static const struct dls_test_case cases[] = {
	{ "chain A->L1->B->L2->C: C runs with A's deadline", test_chain },
	{ "a donor without a deadline lends none", test_no_deadline_donor },
	{ "random lock traffic on the EDF core", test_random },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "pi over the EDF core", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
