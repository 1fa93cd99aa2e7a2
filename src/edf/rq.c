/*
 * Per-CPU EDF runqueue.
 *
 * Invariants (checked by dls_rq_check()):
 *  - the tree holds exactly the queued entities, ordered by key (absolute
 *    deadline, or the inherited one while boosted) with ties broken by the
 *    sequence number taken at insertion, so equal deadlines run FIFO;
 *  - nr_running is the number of nodes on the tree;
 *  - earliest.curr is the key of the leftmost entity (when nr_running >= 1)
 *    and earliest.next the key of its successor (when nr_running >= 2);
 *    both are refreshed on every insertion and erasure;
 *  - the current entity stays on the tree while it runs, as in Linux; it
 *    leaves only when it blocks, is throttled or detaches.
 *
 * The runqueue applies the CBS and GRUB rules (src/cbs/): a rule returns a
 * decision about an entity's (deadline, runtime) pair, and this file moves
 * the entity on or off the tree, arms the timers, keeps GRUB's running_bw,
 * counts the statistics and traces. The entity's lifecycle (init, attach,
 * new parameters, detach, death) is src/edf/entity.c's.
 *
 * Every entry point that changes an entity first checks, in one or two
 * branches kept in release builds, that the entity is in a state the call
 * is defined for, and otherwise returns a DLS_E* code with nothing changed;
 * a misused call can never reach the tree or the counts.
 */
#include "atomic_impl.h"
#include "cbs/cbs_impl.h"
#include "cbs/grub_impl.h"
#include "edf/bw_impl.h"
#include "edf/sched_impl.h"

static bool se_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls__edf_before(dls__node_se(a), dls__node_se(b));
}

static void update_earliest(struct dls_rq *rq)
{
	struct dls_rb_node *first = dls_rb_first_cached(&rq->root);
	struct dls_rb_node *second;

	if (!first) {
		rq->earliest.curr = rq->earliest.next = 0;
	} else {
		rq->earliest.curr = dls__se_key(dls__node_se(first));
		second = dls_rb_next(first);
		rq->earliest.next = second ? dls__se_key(dls__node_se(second)) : 0;
	}
	if (rq->dom->smp)
		rq->dom->hooks->earliest_changed(rq);
}

void dls__rq_insert(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	DLS_ASSERT(!se->queued && !dls_rb_node_on_tree(&se->node));
	se->seq = rq->seq++;
	dls_rb__add_ends(&se->node, &rq->root, &rq->root_last.node, se_less);
	se->queued = true;
	rq->nr_running++;
	if (rq->dom->smp)
		rq->dom->hooks->enqueued(rq, se);
	update_earliest(rq);
	dls__trace(rq, DLS_TRACE_ENQUEUE, se, now);
}

void dls__rq_erase(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	DLS_ASSERT(se->queued && dls_rb_node_on_tree(&se->node));
	dls_rb__erase_ends(&se->node, &rq->root, &rq->root_last.node);
	se->queued = false;
	rq->nr_running--;
	if (rq->dom->smp)
		rq->dom->hooks->dequeued(rq, se);
	update_earliest(rq);
	dls__trace(rq, DLS_TRACE_DEQUEUE, se, now);
}

void dls__rq_requeue(struct dls_rq *rq, struct dls_entity *se, uint64_t now,
		     void (*change)(struct dls_rq *rq, struct dls_entity *se,
				    uint64_t now))
{
	dls__rq_erase(rq, se, now);
	if (change)
		change(rq, se, now);
	dls__rq_insert(rq, se, now);
}

/* An offline CPU is never asked to pick: what is queued there (an entity
 * stranded by dls_cpu_offline(), replenished by its timer) waits for the
 * CPU to come back. dls_cpu_offline() itself asks the CPU going down to
 * stop running its current entity, through the op. */
void dls__resched(struct dls_rq *rq)
{
	if (DLS_UNLIKELY(!rq->online))
		return;
	rq->dom->ops->resched(rq->dom->ctx, rq->cpu);
}

/* ---- Applying the CBS rules (src/cbs/cbs.c) ---- */

static void new_instance(struct dls_rq *rq, struct dls_entity *se, uint64_t now,
			 const struct dls__cbs_decision *d)
{
	se->deadline = d->deadline;
	se->runtime = d->runtime;
	se->is_new = false;
	se->yielded = false;
	se->missed = false;
	se->stats.instances++;
	dls__trace(rq, DLS_TRACE_NEW, se, now);
}

/* A replenishment decision: RENEW, REPLENISH or LAGGED. */
static void apply_replenish(struct dls_rq *rq, struct dls_entity *se,
			    uint64_t now, const struct dls__cbs_decision *d)
{
	if (d->action == DLS_CBS_RENEW) {
		new_instance(rq, se, now, d);
		return;
	}
	se->yielded = false;
	se->stats.replenishments++;
	if (d->action == DLS_CBS_LAGGED) {
		se->deadline = d->lag_deadline;
		se->runtime = d->lag_runtime;
		se->stats.lagged++;
		dls__trace(rq, DLS_TRACE_LAGGED, se, now);
	}
	se->deadline = d->deadline;
	se->runtime = d->runtime;
	dls__trace(rq, DLS_TRACE_REPLENISH, se, now);
}

void dls__rq_replenish(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	struct dls__cbs_decision d = dls__cbs_replenish_rule(se, now);

	apply_replenish(rq, se, now, &d);
}

/* A fresh instance at @now (deadline now + D, full budget) for an entity
 * that is not queued: a deferred server's (src/server/server.c). */
void dls__rq_fresh_instance(struct dls_rq *rq, struct dls_entity *se,
			    uint64_t now)
{
	struct dls__cbs_decision d = { .action = DLS_CBS_RENEW };

	DLS_ASSERT(!se->queued);
	d.deadline = now + se->params.deadline;
	d.runtime = (int64_t)se->params.runtime;
	new_instance(rq, se, now, &d);
}

/* Sleep until the replenishment instant @at (the timer queues it again). */
static void throttle_until(struct dls_rq *rq, struct dls_entity *se, uint64_t at)
{
	const struct dls_domain *dom = rq->dom;

	se->throttled = true;
	se->timer.expires = at;
	se->timer.armed = true;
	dom->ops->timer_arm(dom->ctx, &se->timer, at);
}

/* The wake-up rule applied; the caller queues the entity only if it is
 * not throttled on return. */
static void wakeup(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	struct dls__cbs_decision d = dls__cbs_wakeup_rule(se, now, &rq->dom->cfg);

	switch (d.action) {
	case DLS_CBS_THROTTLE:
		se->runtime = d.runtime;
		se->stats.throttles++;
		dls__trace(rq, DLS_TRACE_THROTTLE, se, now);
		throttle_until(rq, se, d.at);
		return;
	case DLS_CBS_KEEP:
		se->stats.wakeups_kept++;
		return;
	case DLS_CBS_TRIM:
		se->runtime = d.runtime;
		se->stats.wakeups_kept++;
		return;
	default:
		if (d.kept)
			se->stats.wakeups_kept++;
		else if (!se->is_new)
			se->stats.wakeups_renewed++;
		new_instance(rq, se, now, &d);
	}
}

/* The throttle rule applied: off the tree, and asleep until the
 * replenishment instant or replenished at once. */
static void throttle(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	struct dls__cbs_decision d = dls__cbs_throttle_rule(se, now, &rq->dom->cfg);

	if (se->queued)
		dls__rq_erase(rq, se, now);
	se->stats.throttles++;
	dls__trace(rq, DLS_TRACE_THROTTLE, se, now);
	if (d.action == DLS_CBS_THROTTLE) {
		throttle_until(rq, se, d.at);
	} else {
		apply_replenish(rq, se, now, &d);
		if (se->runnable)
			dls__rq_insert(rq, se, now);
	}
	if (se == rq->curr)
		dls__resched(rq);
}

/* dls__rq_requeue() step of a soft reservation's postponement. */
static void soft_postpone_step(struct dls_rq *rq, struct dls_entity *se,
			       uint64_t now)
{
	struct dls__cbs_decision d = dls__cbs_postpone_rule(se, now);

	se->deadline = d.deadline;
	se->runtime = d.runtime;
	se->yielded = false;
	se->stats.replenishments++;
	dls__trace(rq, DLS_TRACE_REPLENISH, se, now);
}

/*
 * Decaying average of the time deadline entities consumed on this CPU (the
 * avg_update of the 2012 SCHED_DEADLINE patches): halved every avg_period,
 * so it reads as roughly two periods' worth of recent deadline load.
 */
static void avg_update(struct dls_rq *rq, uint64_t delta, uint64_t now)
{
	uint64_t period = rq->dom->cfg.avg_period;
	uint64_t age = now - rq->avg_stamp;

	if ((int64_t)age >= 0 && age >= period) {
		uint64_t halvings = age / period;

		if (halvings >= 64) {
			rq->avg = 0;
			rq->avg_stamp = now;
		} else {
			rq->avg >>= halvings;
			rq->avg_stamp += halvings * period;
		}
	}
	rq->avg += delta;
}

/* A deadline miss, counted once per instance with its lateness. */
static void note_miss(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t lateness = now - se->deadline;

	if (se->missed)
		return;
	se->missed = true;
	se->stats.misses++;
	if (lateness > se->stats.max_lateness)
		se->stats.max_lateness = lateness;
	dls__trace(rq, DLS_TRACE_MISS, se, now);
}

/* GRUB's charging rate on @rq for @se (src/cbs/grub.c), from the
 * runqueue's sums: idle = Uinact + Uextra, Uinact = this_bw - running_bw,
 * Uextra of the object that admits @rq's entities (src/edf/bw_impl.h). */
static inline uint64_t grub_rate(const struct dls_rq *rq,
				 const struct dls_entity *se)
{
	const struct dls_bw *b = &rq->bw;
	const struct dls_smp *smp = rq->dom->smp;
	uint64_t idle = b->total - b->running;

	/* dls__bw_extra() of the object that admits here, its choice made
	 * once: a runqueue's own object is never shared. */
	if (DLS_LIKELY(!smp))
		idle += dls__grub_extra(b->max_bw, b->total);
	else
		idle += dls__bw_extra_shared(&smp->bw);
	return dls__grub_rate(b->max_bw, b->bw_ratio, idle, se->bw);
}

uint64_t dls_rq_extra_bw(const struct dls_rq *rq)
{
	return dls__bw_extra(dls__bw_of_const(rq));
}

uint64_t dls_budget_ns(const struct dls_rq *rq, const struct dls_entity *se)
{
	uint64_t rate;

	DLS_ASSERT(rq && se);
	if (se->runtime <= 0)
		return 0;
	if (se->params.flags & DLS_FLAG_RECLAIM) {
		rate = grub_rate(rq, se);
		return rate ? dls__cbs_time_for((uint64_t)se->runtime, rate, DLS_BW_SHIFT)
			    : UINT64_MAX;
	}
	if (rq->capacity == DLS_CAPACITY_SCALE)
		return (uint64_t)se->runtime;
	return dls__cbs_time_for((uint64_t)se->runtime, rq->capacity, DLS_CAPACITY_SHIFT);
}

/*
 * The budget is spent (runtime <= 0 after a charge): count an overrun,
 * then replenish, postpone or throttle as dls__cbs_exhausted_rule() says.
 * Out of line, so that a charge that leaves runtime pays for none of it.
 */
static DLS_NOINLINE void exhausted(struct dls_rq *rq, struct dls_entity *se,
				   uint64_t now, bool dmiss)
{
	/* An overrun is a job that needed more than its budget (or ran past
	 * its deadline); one that used exactly its budget is throttled
	 * (runtime <= 0, as Linux) but did not overrun. */
	if (dls__cbs_overran(se, dmiss)) {
		se->stats.overruns++;
		dls__trace(rq, DLS_TRACE_OVERRUN, se, now);
		if ((se->params.flags & DLS_FLAG_OVERRUN) && se->overrun_cb)
			se->overrun_cb(se->overrun_arg, se);
	}
	switch (dls__cbs_exhausted_rule(se)) {
	case DLS_CBS_EXHAUSTED_REPLENISH:
		dls__rq_requeue(rq, se, now, dls__rq_replenish);
		return;
	case DLS_CBS_EXHAUSTED_POSTPONE:
		dls__rq_requeue(rq, se, now, soft_postpone_step);
		if (se == rq->curr)
			dls__resched(rq);
		return;
	default:
		throttle(rq, se, now);
	}
}

/*
 * Accounting (update_curr): charge the running entity the time since its
 * last charge, scaled by the CPU's capacity (a reclaiming one at GRUB's
 * rate). The budget is exhausted when runtime <= 0 (today's Linux,
 * dl_runtime_exceeded; a passed deadline is only recorded as a miss). The
 * overrun is carried into the next instance and the entity is throttled —
 * unless it is boosted by inheritance, in which case it is replenished at
 * once and keeps running, or it is a soft reservation, which is postponed
 * and keeps running (dls__cbs_exhausted_rule()).
 */
static inline void charge_curr(struct dls_rq *rq, struct dls_entity *se,
			       uint64_t now)
{
	uint64_t start = se->exec_start;
	uint64_t delta = now - start;
	uint64_t scaled, charge;
	bool dmiss;

	if ((int64_t)delta <= 0)
		return;
	se->exec_start = now;
	if (!se->queued)
		return; /* throttled but not yet switched out: not charged */

	scaled = dls__cbs_scale(rq->capacity, delta);
	se->stats.exec_time += scaled;
	if (DLS_UNLIKELY(se->params.flags & DLS_FLAG_RECLAIM))
		charge = dls_u128_mul_u64_u64_shr(
			delta > DLS_CBS_STEP_MAX ? DLS_CBS_STEP_MAX : delta,
			grub_rate(rq, se), DLS_BW_SHIFT);
	else
		charge = scaled;
	se->runtime -= (int64_t)charge;
	se->stats.runtime_charged += charge;
	avg_update(rq, scaled, now);

	dmiss = dls_time_before(se->deadline, now);
	if (dmiss) {
		note_miss(rq, se, now);
		if (rq->dom->cfg.overrun_rule == DLS_OVERRUN_2012)
			se->runtime = dls__cbs_forfeit_rule(se, start, now,
							    rq->capacity);
	}
	if (se->runtime > 0)
		return;
	exhausted(rq, se, now, dmiss);
}

/* The charge for every caller but dls_update_curr(), which has it inline
 * (the scheduling step's path): one more copy, out of line. */
DLS_NOINLINE void dls__rq_charge(struct dls_rq *rq, struct dls_entity *se,
				 uint64_t now)
{
	charge_curr(rq, se, now);
}

/* ---- Applying GRUB (src/cbs/grub.c): running_bw and the 0-lag timers ---- */

void dls__rq_settle(struct dls_rq *rq, uint64_t now)
{
	if (rq->curr && (rq->curr->params.flags & DLS_FLAG_RECLAIM))
		dls__rq_charge(rq, rq->curr, now);
}

static void grub_contending(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	if (se->bw_state == DLS_BW_NON_CONTENDING) {
		dls__timer_cancel(rq, &se->inactive_timer);
	} else {
		dls__rq_settle(rq, now);
		rq->bw.running += se->bw;
	}
	se->bw_state = DLS_BW_CONTENDING;
}

static void grub_non_contending(struct dls_rq *rq, struct dls_entity *se,
				uint64_t now)
{
	struct dls_domain *dom = rq->dom;
	uint64_t t0;

	if (dls__grub_inactive_now(se, now, dls__bw_reclaims(dls__bw_of(rq)),
				   &t0)) {
		dls__rq_settle(rq, now);
		dls__grub_make_inactive(rq, se);
		return;
	}
	se->bw_state = DLS_BW_NON_CONTENDING;
	se->inactive_timer.expires = t0;
	se->inactive_timer.armed = true;
	dom->ops->timer_arm(dom->ctx, &se->inactive_timer, t0);
}

static void grub_timer_expired(struct dls_timer *t)
{
	struct dls_entity *se = dls_container_of(t, struct dls_entity, inactive_timer);
	struct dls_rq *rq = se->rq;
	uint64_t now;

	if (!dls__timer_due(rq, t, &now))
		return;
	if (se->bw_state != DLS_BW_NON_CONTENDING)
		return;
	dls__rq_settle(rq, now);
	dls__grub_make_inactive(rq, se);
}

/* ---- Entry points ---- */

void dls_update_curr(struct dls_rq *rq)
{
	if (rq->curr)
		charge_curr(rq, rq->curr, dls__now(rq));
}

int dls_enqueue(struct dls_rq *rq, struct dls_entity *se, unsigned int flags)
{
	uint64_t now;

	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(flags & ~(DLS_ENQUEUE_WAKEUP | DLS_ENQUEUE_REPLENISH)))
		return DLS_EFLAGS;
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	if (DLS_UNLIKELY(se->queued))
		return DLS_EQUEUED;
	now = dls__now(rq);
	se->runnable = true;
	se->exec_start = now;
	if (se->bw_state != DLS_BW_CONTENDING)
		grub_contending(rq, se, now);
	if (se->throttled && !(flags & DLS_ENQUEUE_REPLENISH))
		return 0; /* the replenishment timer will queue it */
	if (flags & DLS_ENQUEUE_REPLENISH) {
		/* Replenished now: the pending replenishment is not needed. */
		if (se->throttled) {
			dls__timer_cancel(rq, &se->timer);
			se->throttled = false;
		}
		dls__rq_replenish(rq, se, now);
	}
	else if ((flags & DLS_ENQUEUE_WAKEUP) || se->is_new)
		wakeup(rq, se, now);
	if (se->throttled)
		return 0; /* woke between its deadline and its next period */
	dls__rq_insert(rq, se, now);
	return 0;
}

int dls_dequeue(struct dls_rq *rq, struct dls_entity *se, unsigned int flags)
{
	uint64_t now;

	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(flags & ~(DLS_DEQUEUE_SLEEP | DLS_DEQUEUE_DONE)))
		return DLS_EFLAGS;
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	/* Only a runnable entity can block or complete a job. */
	if (DLS_UNLIKELY(!se->runnable &&
			 (flags & (DLS_DEQUEUE_SLEEP | DLS_DEQUEUE_DONE))))
		return DLS_ENOTRUNNABLE;
	/* With no flag there must be something to take off the tree. */
	if (DLS_UNLIKELY(!flags && !se->queued))
		return DLS_ENOTQUEUED;
	now = dls__now(rq);
	if (se == rq->curr)
		dls__rq_charge(rq, se, now);
	if (se->queued)
		dls__rq_erase(rq, se, now);
	if ((flags & (DLS_DEQUEUE_SLEEP | DLS_DEQUEUE_DONE)) && se->runnable) {
		se->runnable = false;
		grub_non_contending(rq, se, now);
	}
	if (flags & DLS_DEQUEUE_DONE) {
		se->stats.jobs_done++;
		if (dls_time_after(now, se->deadline))
			note_miss(rq, se, now);
	}
	if (se == rq->curr)
		dls__resched(rq);
	return 0;
}

bool dls_check_preempt(struct dls_rq *rq, const struct dls_entity *se)
{
	const struct dls_entity *curr = rq->curr;

	if (curr == se)
		return false;
	if (curr && curr->queued &&
	    !dls_time_before(dls__se_key(se), dls__se_key(curr))) {
		/* Equal deadlines: which of the two should move (global only)? */
		if (rq->dom->smp && dls__se_key(se) == dls__se_key(curr))
			return rq->dom->hooks->preempt_equal(rq, se);
		return false;
	}
	dls__resched(rq);
	return true;
}

int dls_wakeup(struct dls_rq *rq, struct dls_entity *se)
{
	int err;

	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(se->runnable))
		return se->rq == rq ? DLS_ERUNNABLE : dls__se_rq_err(se);
	err = dls_enqueue(rq, se, DLS_ENQUEUE_WAKEUP);
	if (err || !se->queued)
		return err;
	/* An entity that does not preempt here may run elsewhere (task_woken). */
	if (!dls_check_preempt(rq, se) && rq->dom->smp)
		rq->dom->hooks->push_surplus(rq);
	return 0;
}

static void set_curr(struct dls_rq *rq, struct dls_entity *se)
{
	rq->curr = se;
	se->exec_start = dls__now(rq);
	if (rq->dom->smp)
		rq->dom->hooks->set_curr(rq, se);
}

int dls_set_curr(struct dls_rq *rq, struct dls_entity *se)
{
	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	if (DLS_UNLIKELY(!se->queued))
		return DLS_ENOTQUEUED;
	if (DLS_UNLIKELY(rq->curr))
		return rq->curr == se ? 0 : DLS_EHASCURR;
	if (DLS_UNLIKELY(!rq->online))
		return DLS_EOFFLINE;
	set_curr(rq, se);
	return 0;
}

/* The unguarded steps dls_schedule() strings together: their state is
 * right by construction there, so the step pays for no guard. */
static struct dls_entity *pick_next(struct dls_rq *rq)
{
	struct dls_rb_node *first = dls_rb_first_cached(&rq->root);
	struct dls_entity *se;

	if (!first)
		return NULL;
	se = dls__node_se(first);
	set_curr(rq, se);
	return se;
}

static void put_prev(struct dls_rq *rq, struct dls_entity *se)
{
	dls_update_curr(rq);
	rq->curr = NULL;
	if (rq->dom->smp)
		rq->dom->hooks->put_prev(rq, se);
}

struct dls_entity *dls_pick_next(struct dls_rq *rq)
{
	DLS_ASSERT(rq);
	if (DLS_UNLIKELY(rq->curr))
		return rq->curr; /* still current: dls_put_prev() comes first */
	if (DLS_UNLIKELY(!rq->online))
		return NULL;
	return pick_next(rq);
}

int dls_put_prev(struct dls_rq *rq, struct dls_entity *se)
{
	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(se != rq->curr))
		return DLS_ENOTCURR;
	put_prev(rq, se);
	return 0;
}

struct dls_entity *dls_schedule(struct dls_rq *rq)
{
	struct dls_entity *prev = rq->curr, *next;

	if (prev)
		put_prev(rq, prev);
	if (DLS_UNLIKELY(!rq->online))
		return NULL; /* nothing runs on an offline CPU */
	/* Global scheduling: before picking, pull earlier work from overloaded
	 * CPUs (pre_schedule; a pull with no overloaded CPU costs one atomic
	 * load). Also with no previous entity: the current one may have left
	 * without passing here (dls_task_dead(), eviction by an affinity
	 * change), and what waits elsewhere may now beat what is queued here.
	 * After picking, push what another CPU should run (post_schedule). */
	if (rq->dom->smp)
		rq->dom->hooks->pre_schedule(rq);
	next = pick_next(rq);
	if (rq->dom->smp)
		rq->dom->hooks->push_surplus(rq);
	return next;
}

void dls_tick(struct dls_rq *rq)
{
	struct dls_entity *curr = rq->curr;

	if (!curr)
		return;
	dls_update_curr(rq);
	/* A throttled current already asked for a reschedule. */
	if (curr->queued && dls_rb_first_cached(&rq->root) != &curr->node)
		dls__resched(rq);
}

void dls_yield(struct dls_rq *rq)
{
	struct dls_entity *se = rq->curr;
	uint64_t now;

	if (!se)
		return;
	now = dls__now(rq);
	dls__rq_charge(rq, se, now);
	se->stats.yields++;
	dls__trace(rq, DLS_TRACE_YIELD, se, now);
	if (!se->queued)
		return; /* already throttled by the charge */
	se->yielded = true;
	if (se->runtime > 0)
		se->runtime = 0;
	if (se->boosted) {
		dls__rq_requeue(rq, se, now, dls__rq_replenish);
		dls__resched(rq);
		return;
	}
	throttle(rq, se, now);
}

/*
 * The entity's runqueue read without its lock: it may be changing under a
 * migration, which is why dls_entity_lock() locks what it saw and checks
 * again under that lock (task_rq_lock's READ_ONCE). A word-sized load.
 */
DLS_RACY static struct dls_rq *racy_rq(const struct dls_entity *se)
{
	return *(struct dls_rq *const volatile *)&se->rq;
}

struct dls_rq *dls_entity_lock(struct dls_entity *se)
{
	/* The runqueue names its domain and lock, also after a move. */
	for (;;) {
		struct dls_rq *rq = racy_rq(se);

		if (!rq)
			return NULL;
		dls__rq_lock(rq);
		if (racy_rq(se) == rq)
			return rq; /* stable: leaving rq needs its lock */
		dls__rq_unlock(rq);
	}
}

void dls_entity_unlock(struct dls_rq *rq)
{
	if (rq)
		dls__rq_unlock(rq);
}

struct dls_entity *dls_timer_entity(const struct dls_timer *t)
{
	return t->zero_lag ? dls_container_of(t, struct dls_entity, inactive_timer)
			   : dls_container_of(t, struct dls_entity, timer);
}

struct dls_rq *dls_timer_rq(const struct dls_timer *t)
{
	return dls_timer_entity(t)->rq;
}

void dls_timer_expired(struct dls_timer *t)
{
	struct dls_entity *se;
	struct dls_rq *rq;
	uint64_t now;

	if (t->zero_lag) {
		grub_timer_expired(t);
		return;
	}
	se = dls_container_of(t, struct dls_entity, timer);
	rq = se->rq;
	if (!dls__timer_due(rq, t, &now))
		return;
	se->throttled = false;
	dls__rq_replenish(rq, se, now);
	if (se->runnable && !se->queued) {
		se->exec_start = now;
		dls__rq_insert(rq, se, now);
		dls_check_preempt(rq, se);
		/* The replenished entity may overload this CPU: push. */
		if (rq->dom->smp)
			rq->dom->hooks->push_surplus(rq);
	}
}

int dls_entity_set_boost(struct dls_rq *rq, struct dls_entity *se,
			 bool boosted, uint64_t inherited_deadline)
{
	uint64_t now;
	bool was_queued;

	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	now = dls__now(rq);
	was_queued = se->queued;
	if (se == rq->curr)
		dls__rq_charge(rq, se, now);
	if (se->queued)
		dls__rq_erase(rq, se, now);
	se->boosted = boosted;
	se->pi_deadline = boosted ? inherited_deadline : 0;
	if (boosted && se->throttled) {
		dls__timer_cancel(rq, &se->timer);
		se->throttled = false;
		dls__rq_replenish(rq, se, now);
	}
	if (se->runnable && !se->throttled) {
		if (!boosted && se->runtime <= 0)
			dls__rq_replenish(rq, se, now);
		dls__rq_insert(rq, se, now);
	}
	dls__trace(rq, DLS_TRACE_BOOST, se, now);
	if (se->queued && (!was_queued || se != rq->curr))
		dls_check_preempt(rq, se);
	else if (rq->curr && (!rq->curr->queued ||
			      dls_rb_first_cached(&rq->root) != &rq->curr->node))
		dls__resched(rq);
	return 0;
}

static const char *grub_rq_check(const struct dls_rq *rq)
{
	uint64_t active = 0;
	unsigned long reclaiming = 0;
	const char *err = dls__bw_check(&rq->bw);

	if (err)
		return err;
	if (rq->bw.limit != rq->dom->cfg.bw_limit)
		return "bandwidth object: limit differs from the domain's bw_limit";
	if (rq->bw.shared)
		return "a runqueue's bandwidth object is marked shared";

	for (const struct dls_entity *se = rq->attached; se; se = se->attached_next) {
		if ((se->bw_state == DLS_BW_CONTENDING) != se->runnable)
			return "an entity is contending but not runnable, or the reverse";
		if ((se->bw_state == DLS_BW_NON_CONTENDING) != se->inactive_timer.armed)
			return "0-lag timer armed differs from the non-contending state";
		if (se->bw_state != DLS_BW_INACTIVE)
			active += se->bw;
		reclaiming += (se->params.flags & DLS_FLAG_RECLAIM) != 0;
	}
	if (active != rq->bw.running)
		return "bw.running differs from the sum of active bandwidths";
	/* A global domain's object counts its runqueues' (checked by
	 * dls_domain_check()); a runqueue's own counts its own, or none. */
	if (dls__atomic_load(&rq->bw.nr_reclaiming) !=
	    (rq->dom->smp ? 0 : reclaiming))
		return "bw.nr_reclaiming differs from the attached reclaiming entities";
	return NULL;
}

const char *dls__rq_reclaiming_check(const struct dls_domain *dom)
{
	const struct dls_bw *b = dom->smp ? &dom->smp->bw : NULL;
	unsigned long n = 0;
	const char *err;

	if (!b)
		return NULL;
	err = dls__bw_check(b);
	if (err)
		return err;
	if (b->limit != dom->cfg.bw_limit)
		return "bandwidth object: limit differs from the domain's bw_limit";
	if (!b->shared || b->running != 0)
		return "a global domain's bandwidth object is not shared, or keeps a running sum";
	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		for (const struct dls_entity *se = dom->rqs[cpu].attached; se;
		     se = se->attached_next)
			n += (se->params.flags & DLS_FLAG_RECLAIM) != 0;
	if (n != dls__atomic_load(&b->nr_reclaiming))
		return "nr_reclaiming differs from the attached reclaiming entities";
	return NULL;
}

const char *dls_rq_check(const struct dls_rq *rq)
{
	const char *err = dls_rb__check_ends(&rq->root, rq->root_last.node,
					     se_less);
	const struct dls_rb_node *n;
	unsigned int count = 0;

	if (err)
		return err;
	for (n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
		const struct dls_entity *se = dls__node_se(n);

		if (!se->queued)
			return "entity on the tree is not marked queued";
		if (se->rq != rq)
			return "queued entity belongs to another runqueue";
		if (!se->runnable)
			return "queued entity is not runnable";
		if (se->throttled)
			return "throttled entity is on the tree";
		if (count == 0 && dls__se_key(se) != rq->earliest.curr)
			return "earliest.curr differs from the leftmost deadline";
		if (count == 1 && dls__se_key(se) != rq->earliest.next)
			return "earliest.next differs from the second deadline";
		count++;
	}
	if (count != rq->nr_running)
		return "nr_running differs from the number of queued entities";
	{
		unsigned int attached = 0;
		uint64_t bw = 0;

		for (const struct dls_entity *se = rq->attached; se; se = se->attached_next) {
			if (se->rq != rq)
				return "attached entity points to another runqueue";
			attached++;
			bw += se->bw;
		}
		if (attached != rq->nr_attached)
			return "nr_attached differs from the attached list";
		if (bw != rq->bw.total)
			return "bw.total differs from the sum of attached bandwidths";
		if (rq->bw.capacity != rq->capacity)
			return "bw.capacity differs from the CPU's capacity";
		if (rq->bw.lock_ops || rq->bw.lock_ctx)
			return "a runqueue's bandwidth object has a lock of its own";
	}
	if (rq->nr_running > rq->nr_attached)
		return "more entities queued than attached";
	if (rq->curr && rq->curr->rq != rq)
		return "current entity belongs to another runqueue";
	return grub_rq_check(rq);
}
