/*
 * An entity's lifecycle on a runqueue, in one place: init, attach (its
 * bandwidth admitted by src/edf/domain.c, with the rule of
 * src/cbs/admission.c), new parameters, the attached list (also a
 * migration's detach and attach), and death. A refused change leaves every
 * object exactly as it was. GRUB's sums follow each step (the rules are
 * src/cbs/grub.c's); what the entity does while attached is src/edf/rq.c's.
 */
#include "atomic_impl.h"
#include "cbs/cbs_impl.h"
#include "edf/bw_impl.h"
#include "edf/sched_impl.h"

static bool reclaiming(const struct dls_entity *se)
{
	return (se->params.flags & DLS_FLAG_RECLAIM) != 0;
}

void dls_entity_init(struct dls_entity *se)
{
	*se = (struct dls_entity){ 0 };
	dls_rb_node_init(&se->node);
	dls_rb_node_init(&se->pushable_node);
	se->inactive_timer.zero_lag = true;
	se->is_new = true;
}

/* Attach and detach (migrations, hotplug, attach, death) change this_bw
 * and, when active, running_bw, and the count of reclaiming entities of
 * the object that admits them: a reclaiming current entity is charged
 * first, at the rate in force until then. */
void dls__rq_attach(struct dls_rq *rq, struct dls_entity *se)
{
	se->rq = rq;
	se->attached_prev = NULL;
	se->attached_next = rq->attached;
	if (rq->attached)
		rq->attached->attached_prev = se;
	rq->attached = se;
	rq->bw.total += se->bw;
	rq->nr_attached++;
	if (rq->curr && reclaiming(rq->curr))
		dls__rq_settle(rq, dls__now(rq));
	if (se->bw_state != DLS_BW_INACTIVE)
		rq->bw.running += se->bw;
	if (reclaiming(se))
		dls__bw_count_reclaiming(dls__bw_of(rq), true);
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
	rq->bw.total -= se->bw;
	rq->nr_attached--;
	if (rq->curr && rq->curr != se && reclaiming(rq->curr))
		dls__rq_settle(rq, dls__now(rq));
	if (se->bw_state != DLS_BW_INACTIVE)
		rq->bw.running -= se->bw;
	if (reclaiming(se))
		dls__bw_count_reclaiming(dls__bw_of(rq), false);
	/* se->rq is left alone: a migration stores the new runqueue over it
	 * in one write, so a racy reader (the POSIX timer service following
	 * a bound timer) never sees NULL mid-move and takes it for detached.
	 * dls_task_dead() clears it. */
}

static void entity_set(struct dls_entity *se, const struct dls_params *p,
		       uint64_t bw)
{
	se->params = *p;
	se->period = dls__params_period(p);
	se->bw = bw;
}

/* Attach, admitting the reservation's bandwidth unless it is @borrowed. */
static int entity_attach(struct dls_rq *rq, struct dls_entity *se,
			 const struct dls_params *p, bool borrowed)
{
	uint64_t bw;
	int err;

	DLS_ASSERT(rq && se);
	if (se->rq)
		return DLS_EATTACHED;
	err = dls_params_check(rq->dom, p);
	if (err)
		return err;
	bw = borrowed ? 0 : dls_params_bw(p);
	if (!dls__rq_admit(rq, 0, bw))
		return DLS_EBANDWIDTH;
	entity_set(se, p, bw);
	se->is_new = true;
	if (!se->allowed)
		se->nr_cpus_allowed = rq->dom->nr_cpus;
	dls__rq_attach(rq, se);
	return 0;
}

int dls_entity_attach(struct dls_rq *rq, struct dls_entity *se,
		      const struct dls_params *p)
{
	return entity_attach(rq, se, p, false);
}

int dls_entity_attach_borrowed(struct dls_rq *rq, struct dls_entity *se,
			       const struct dls_params *p)
{
	return entity_attach(rq, se, p, true);
}

/*
 * New parameters (Linux's dl_change_utilization): a contending entity's
 * share of running_bw follows its new bandwidth; a non-contending one
 * becomes inactive (its lag was computed from the old parameters).
 */
static void grub_set_params(struct dls_rq *rq, struct dls_entity *se,
			    uint64_t new_bw, uint32_t new_flags, uint64_t now)
{
	bool was = reclaiming(se), will = (new_flags & DLS_FLAG_RECLAIM) != 0;

	dls__rq_settle(rq, now);
	if (se->bw_state == DLS_BW_CONTENDING) {
		rq->bw.running = rq->bw.running - se->bw + new_bw;
	} else if (se->bw_state == DLS_BW_NON_CONTENDING) {
		dls__timer_cancel(rq, &se->inactive_timer);
		dls__grub_make_inactive(rq, se);
	}
	if (was != will)
		dls__bw_count_reclaiming(dls__bw_of(rq), will);
}

int dls_entity_set_params(struct dls_rq *rq, struct dls_entity *se,
			  const struct dls_params *p)
{
	uint64_t bw, now;
	int err;

	DLS_ASSERT(rq && se);
	if (se->rq != rq)
		return dls__se_rq_err(se);
	err = dls_params_check(rq->dom, p);
	if (err)
		return err;
	bw = dls_params_bw(p);
	if (!dls__rq_admit(rq, se->bw, bw))
		return DLS_EBANDWIDTH;

	if (se == rq->curr)
		dls_update_curr(rq);
	now = dls__now(rq);
	grub_set_params(rq, se, bw, p->flags, now);
	rq->bw.total = rq->bw.total - se->bw + bw;
	entity_set(se, p, bw);
	if (se->runtime > (int64_t)p->runtime)
		se->runtime = (int64_t)p->runtime;
	if (se->queued) {
		/* Requeue: the key is unchanged, but a later instance's is not. */
		dls__rq_requeue(rq, se, now, NULL);
	}
	dls__trace(rq, DLS_TRACE_PARAMS, se, now);
	return 0;
}

int dls_task_dead(struct dls_rq *rq, struct dls_entity *se)
{
	uint64_t now;

	DLS_ASSERT(rq && se);
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	now = dls__now(rq);
	if (se == rq->curr) {
		dls__rq_charge(rq, se, now);
		rq->curr = NULL;
		dls__resched(rq);
	}
	if (se->queued)
		dls__rq_erase(rq, se, now);
	dls__timer_cancel(rq, &se->timer);
	se->throttled = false;
	se->runnable = false;
	dls__rq_detach(rq, se);
	dls__timer_cancel(rq, &se->inactive_timer);
	se->bw_state = DLS_BW_INACTIVE;
	if (rq->dom->smp)
		dls__bw_change(&rq->dom->smp->bw, se->bw, 0, false);
	se->rq = NULL;
	return 0;
}
