/*
 * GRUB bandwidth reclaiming (Lipari & Baruah, "Greedy reclamation of
 * unused bandwidth in constant-bandwidth servers", ECRTS 2000), in the form
 * SCHED_DEADLINE gives it (Abeni, Lelli, Scordino, Palopoli, "Greedy CPU
 * reclaiming for SCHED_DEADLINE", RTLWS 2014; M-GRUB: Abeni, Lipari, Parri,
 * Sun, "Multicore CPU reclaiming: parallel or sequential?", SAC 2016;
 * Documentation/scheduler/sched-deadline.rst §2.2).
 *
 * Every entity is in one of three states (enum dls_bw_state):
 *  - active contending: runnable (queued, running or throttled);
 *  - active non-contending: blocked, but its 0-lag time
 *        t0 = deadline - runtime * P / Q
 *    is still ahead (it could wake and keep its deadline), so its
 *    bandwidth is still owed to it; the 0-lag timer fires at t0;
 *  - inactive: not woken since attach, or blocked past its 0-lag time.
 *
 * Invariants (dls_rq_check(), dls_domain_check()):
 *  - rq->running_bw = sum of bw over the rq's attached entities that are
 *    not inactive, and running_bw <= bw_total (this_bw);
 *  - an entity is contending iff it is runnable, and its 0-lag timer is
 *    armed iff it is non-contending;
 *  - dom->nr_reclaiming counts the attached entities with
 *    DLS_FLAG_RECLAIM.
 *
 * A reclaiming entity running for dt is charged (Linux's grub_reclaim)
 *
 *     dq = -max{u, Umax - Uinact - Uextra} / Umax * dt
 *
 * with u its bandwidth, Umax the domain's bw_limit (1.0 when unlimited),
 * Uinact = this_bw - running_bw and Uextra the bandwidth admission leaves
 * free on the CPU, Umax - (admitted bandwidth per CPU). 1/Umax is kept
 * with DLS_RATIO_SHIFT fractional bits and the product truncated as the
 * kernel does. As in the kernel (GRUB-PA), the reclaiming charge is not
 * scaled by the CPU's capacity. Uextra is derived from the admission sums
 * whenever it is needed (Linux keeps it incrementally, rounding each
 * task's share), so it stays exact across hotplug.
 *
 * With the domain's CBS rules: the charge replaces only the rate; a
 * reclaiming entity is throttled, replenished and woken by the rules
 * dls_domain_config selects, and under DLS_OVERRUN_2012 the time it runs
 * past its deadline is charged at full rate, as for any entity. A soft
 * reservation (DLS_FLAG_SOFT) runs into all idle time already and never
 * throttles, so dls_params_check() refuses it with DLS_FLAG_RECLAIM.
 *
 * Linux arms the 0-lag timer of every deadline task; here it is armed
 * only while the domain has a reclaiming entity (dom->nr_reclaiming), as
 * nobody else reads running_bw: a domain without DLS_FLAG_RECLAIM
 * schedules exactly as before. An entity that blocked before the first
 * reclaiming entity attached counts as inactive at once.
 */
#include "atomic_impl.h"
#include "cbs/grub_impl.h"

static bool reclaiming(const struct dls_entity *se)
{
	return (se->params.flags & DLS_FLAG_RECLAIM) != 0;
}

void dls__grub_domain_init(struct dls_domain *dom)
{
	uint64_t limit = dom->cfg.bw_limit;

	dom->max_bw = limit == DLS_BW_UNLIMITED || limit > DLS_BW_UNIT ? DLS_BW_UNIT
									: limit;
	dom->bw_ratio = dom->max_bw == 0 ? 0
		: ((DLS_BW_UNIT << DLS_BW_SHIFT) / dom->max_bw) >>
		  (DLS_BW_SHIFT - DLS_RATIO_SHIFT);
	dom->nr_reclaiming = 0;
}

uint64_t dls_rq_extra_bw(const struct dls_rq *rq)
{
	return dls__grub_extra_bw(rq);
}

/* Charge a reclaiming current entity at the rate in force until @now,
 * before the bandwidth sums change. */
static void settle(struct dls_rq *rq, uint64_t now)
{
	if (rq->curr && reclaiming(rq->curr))
		dls__cbs_account(rq, rq->curr, now);
}

static void cancel_inactive_timer(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->inactive_timer.armed) {
		se->inactive_timer.armed = false;
		rq->dom->ops->timer_cancel(rq->dom->ctx, &se->inactive_timer);
	}
}

static void make_inactive(struct dls_rq *rq, struct dls_entity *se)
{
	rq->running_bw -= se->bw;
	se->bw_state = DLS_BW_INACTIVE;
}

void dls__grub_contending(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	if (se->bw_state == DLS_BW_NON_CONTENDING) {
		cancel_inactive_timer(rq, se);
	} else {
		settle(rq, now);
		rq->running_bw += se->bw;
	}
	se->bw_state = DLS_BW_CONTENDING;
}

/* 0-lag time: when the entity's remaining runtime, served at its
 * bandwidth Q/P, would end: deadline - runtime * P / Q (truncated). */
static uint64_t zero_lag_time(const struct dls_entity *se)
{
	uint64_t q = se->params.runtime, p = se->period;

	if (se->runtime >= 0)
		return se->deadline -
		       dls_u128_mul_u64_u64_div_u64((uint64_t)se->runtime, p, q);
	return se->deadline +
	       dls_u128_mul_u64_u64_div_u64((uint64_t)-(se->runtime + 1) + 1, p, q);
}

void dls__grub_non_contending(struct dls_rq *rq, struct dls_entity *se,
			      uint64_t now)
{
	uint64_t t0 = zero_lag_time(se);
	struct dls_domain *dom = rq->dom;

	if (!dls_time_before(now, t0) ||
	    dls__atomic_load(&dom->nr_reclaiming) == 0) {
		settle(rq, now);
		make_inactive(rq, se);
		return;
	}
	se->bw_state = DLS_BW_NON_CONTENDING;
	se->inactive_timer.expires = t0;
	se->inactive_timer.armed = true;
	dom->ops->timer_arm(dom->ctx, &se->inactive_timer, t0);
}

void dls__grub_timer_expired(struct dls_timer *t)
{
	struct dls_entity *se = dls_container_of(t, struct dls_entity, inactive_timer);
	struct dls_rq *rq = se->rq;
	uint64_t now;

	if (!dls__timer_due(rq, t, &now))
		return;
	if (se->bw_state != DLS_BW_NON_CONTENDING)
		return;
	settle(rq, now);
	make_inactive(rq, se);
}

static void count_reclaiming(struct dls_domain *dom, bool add)
{
	if (add)
		dls__atomic_fetch_add(&dom->nr_reclaiming, 1);
	else
		dls__atomic_fetch_sub(&dom->nr_reclaiming, 1);
}

/* Attach and detach (migrations, hotplug, attach, death) change this_bw
 * and, when active, running_bw: the current entity is charged first. */
void dls__grub_attach(struct dls_rq *rq, struct dls_entity *se)
{
	if (rq->curr && reclaiming(rq->curr))
		settle(rq, dls__now(rq));
	if (se->bw_state != DLS_BW_INACTIVE)
		rq->running_bw += se->bw;
	if (reclaiming(se))
		count_reclaiming(rq->dom, true);
}

void dls__grub_detach(struct dls_rq *rq, struct dls_entity *se)
{
	if (rq->curr && rq->curr != se && reclaiming(rq->curr))
		settle(rq, dls__now(rq));
	if (se->bw_state != DLS_BW_INACTIVE)
		rq->running_bw -= se->bw;
	if (reclaiming(se))
		count_reclaiming(rq->dom, false);
}

void dls__grub_dead(struct dls_rq *rq, struct dls_entity *se)
{
	cancel_inactive_timer(rq, se);
	se->bw_state = DLS_BW_INACTIVE;
}

/*
 * New parameters (Linux's dl_change_utilization): a contending entity's
 * share of running_bw follows its new bandwidth; a non-contending one
 * becomes inactive (its lag was computed from the old parameters).
 */
void dls__grub_set_params(struct dls_rq *rq, struct dls_entity *se,
			  uint64_t new_bw, uint32_t new_flags, uint64_t now)
{
	bool was = reclaiming(se), will = (new_flags & DLS_FLAG_RECLAIM) != 0;

	settle(rq, now);
	if (se->bw_state == DLS_BW_CONTENDING) {
		rq->running_bw = rq->running_bw - se->bw + new_bw;
	} else if (se->bw_state == DLS_BW_NON_CONTENDING) {
		cancel_inactive_timer(rq, se);
		make_inactive(rq, se);
	}
	if (was != will)
		count_reclaiming(rq->dom, will);
}

const char *dls__grub_rq_check(const struct dls_rq *rq)
{
	uint64_t active = 0;

	for (const struct dls_entity *se = rq->attached; se; se = se->attached_next) {
		if ((se->bw_state == DLS_BW_CONTENDING) != se->runnable)
			return "an entity is contending but not runnable, or the reverse";
		if ((se->bw_state == DLS_BW_NON_CONTENDING) != se->inactive_timer.armed)
			return "0-lag timer armed differs from the non-contending state";
		if (se->bw_state != DLS_BW_INACTIVE)
			active += se->bw;
	}
	if (active != rq->running_bw)
		return "running_bw differs from the sum of active bandwidths";
	if (rq->running_bw > rq->bw_total)
		return "running_bw exceeds bw_total";
	return NULL;
}

const char *dls__grub_domain_check(const struct dls_domain *dom)
{
	unsigned long n = 0;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		for (const struct dls_entity *se = dom->rqs[cpu].attached; se;
		     se = se->attached_next)
			n += reclaiming(se);
	if (n != dls__atomic_load(&dom->nr_reclaiming))
		return "nr_reclaiming differs from the attached reclaiming entities";
	return NULL;
}
