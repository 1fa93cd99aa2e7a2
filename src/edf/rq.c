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
 * Every entry point that changes an entity first checks, in one or two
 * branches kept in release builds, that the entity is in a state the call
 * is defined for, and otherwise returns a DLS_E* code with nothing changed;
 * a misused call can never reach the tree or the counts.
 */
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

void dls__rq_attach(struct dls_rq *rq, struct dls_entity *se)
{
	se->rq = rq;
	se->attached_prev = NULL;
	se->attached_next = rq->attached;
	if (rq->attached)
		rq->attached->attached_prev = se;
	rq->attached = se;
	rq->bw_total += se->bw;
	rq->nr_attached++;
	dls__grub_attach(rq, se);
}

void dls__rq_detach(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->attached_prev)
		se->attached_prev->attached_next = se->attached_next;
	else
		rq->attached = se->attached_next;
	if (se->attached_next)
		se->attached_next->attached_prev = se->attached_prev;
	se->attached_next = se->attached_prev = NULL;
	rq->bw_total -= se->bw;
	rq->nr_attached--;
	dls__grub_detach(rq, se);
	/* se->rq is left alone: a migration stores the new runqueue over it
	 * in one write, so a racy reader (the POSIX timer service following
	 * a bound timer) never sees NULL mid-move and takes it for detached.
	 * dls_task_dead() clears it. */
}

void dls__rq_insert(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	DLS_ASSERT(!se->queued && !dls_rb_node_on_tree(&se->node));
	se->seq = rq->seq++;
	dls_rb_add_cached(&se->node, &rq->root, se_less);
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
	dls_rb_erase_cached(&se->node, &rq->root);
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

void dls_update_curr(struct dls_rq *rq)
{
	if (rq->curr)
		dls__cbs_account(rq, rq->curr, dls__now(rq));
}

static void cancel_timer(struct dls_rq *rq, struct dls_entity *se);

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
		dls__grub_contending(rq, se, now);
	if (se->throttled && !(flags & DLS_ENQUEUE_REPLENISH))
		return 0; /* the replenishment timer will queue it */
	if (flags & DLS_ENQUEUE_REPLENISH) {
		/* Replenished now: the pending replenishment is not needed. */
		if (se->throttled) {
			cancel_timer(rq, se);
			se->throttled = false;
		}
		dls__cbs_replenish(rq, se, now);
	}
	else if ((flags & DLS_ENQUEUE_WAKEUP) || se->is_new)
		dls__cbs_wakeup(rq, se, now);
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
		dls__cbs_account(rq, se, now);
	if (se->queued)
		dls__rq_erase(rq, se, now);
	if ((flags & (DLS_DEQUEUE_SLEEP | DLS_DEQUEUE_DONE)) && se->runnable) {
		se->runnable = false;
		dls__grub_non_contending(rq, se, now);
	}
	if (flags & DLS_DEQUEUE_DONE) {
		se->stats.jobs_done++;
		if (dls_time_after(now, se->deadline))
			dls__cbs_note_miss(rq, se, now);
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
	dls__cbs_account(rq, se, now);
	se->stats.yields++;
	dls__trace(rq, DLS_TRACE_YIELD, se, now);
	if (!se->queued)
		return; /* already throttled by the charge */
	se->yielded = true;
	if (se->runtime > 0)
		se->runtime = 0;
	if (se->boosted) {
		dls__rq_requeue(rq, se, now, dls__cbs_replenish);
		dls__resched(rq);
		return;
	}
	dls__cbs_throttle(rq, se, now);
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
		dls__grub_timer_expired(t);
		return;
	}
	se = dls_container_of(t, struct dls_entity, timer);
	rq = se->rq;
	if (!dls__timer_due(rq, t, &now))
		return;
	se->throttled = false;
	dls__cbs_replenish(rq, se, now);
	if (se->runnable && !se->queued) {
		se->exec_start = now;
		dls__rq_insert(rq, se, now);
		dls_check_preempt(rq, se);
		/* The replenished entity may overload this CPU: push. */
		if (rq->dom->smp)
			rq->dom->hooks->push_surplus(rq);
	}
}

static void cancel_timer(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->timer.armed) {
		se->timer.armed = false;
		rq->dom->ops->timer_cancel(rq->dom->ctx, &se->timer);
	}
}

int dls_task_dead(struct dls_rq *rq, struct dls_entity *se)
{
	uint64_t now;

	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	now = dls__now(rq);
	if (se == rq->curr) {
		dls__cbs_account(rq, se, now);
		rq->curr = NULL;
		dls__resched(rq);
	}
	if (se->queued)
		dls__rq_erase(rq, se, now);
	cancel_timer(rq, se);
	se->throttled = false;
	se->runnable = false;
	dls__rq_detach(rq, se);
	dls__grub_dead(rq, se);
	if (rq->dom->smp)
		rq->dom->hooks->bw_change(rq->dom, se->bw, 0, false);
	se->rq = NULL;
	return 0;
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
		dls__cbs_account(rq, se, now);
	if (se->queued)
		dls__rq_erase(rq, se, now);
	se->boosted = boosted;
	se->pi_deadline = boosted ? inherited_deadline : 0;
	if (boosted && se->throttled) {
		cancel_timer(rq, se);
		se->throttled = false;
		dls__cbs_replenish(rq, se, now);
	}
	if (se->runnable && !se->throttled) {
		if (!boosted && se->runtime <= 0)
			dls__cbs_replenish(rq, se, now);
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

const char *dls_rq_check(const struct dls_rq *rq)
{
	const char *err = dls_rb_check_cached(&rq->root, se_less);
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
		if (bw != rq->bw_total)
			return "bw_total differs from the sum of attached bandwidths";
	}
	if (rq->nr_running > rq->nr_attached)
		return "more entities queued than attached";
	if (rq->curr && rq->curr->rq != rq)
		return "current entity belongs to another runqueue";
	return dls__grub_rq_check(rq);
}
