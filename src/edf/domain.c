/*
 * Domain and runqueue set-up: the runqueues of a domain (the default
 * configuration is src/cbs/params.c's), a CPU's capacity, and where an
 * entity's bandwidth change is admitted (per runqueue, or domain-wide once
 * dls_smp_init() installed the global-scheduling hooks). The admission rule itself is
 * src/cbs/admission.c's.
 */
#include "cbs/admission_impl.h"
#include "cbs/grub_impl.h"
#include "edf/sched_impl.h"

int dls_domain_init(struct dls_domain *dom, const struct dls_ops *ops,
		    void *ctx, const struct dls_domain_config *cfg,
		    struct dls_rq *rqs, int nr_cpus)
{
	DLS_ASSERT(dom && ops && rqs);
	/* Reserved words and slots: zero today (types.h, growth policy). */
	if (!dls__slots_null(ops->reserved, DLS__NR(ops->reserved)) ||
	    (cfg && !dls__words_zero(cfg->reserved, DLS__NR(cfg->reserved))))
		return DLS_EINVAL;
	if (nr_cpus < 1 || !ops->now || !ops->timer_arm || !ops->timer_cancel ||
	    !ops->resched)
		return DLS_EINVAL;
	/* A CPU cannot serve more than all of its time. */
	if (cfg && (cfg->period_min == 0 || cfg->period_min > cfg->period_max ||
		    cfg->avg_period == 0 ||
		    (cfg->bw_limit > DLS_BW_UNIT &&
		     cfg->bw_limit != DLS_BW_UNLIMITED) ||
		    (cfg->wakeup_rule != DLS_WAKEUP_CBS &&
		     cfg->wakeup_rule != DLS_WAKEUP_REVISED) ||
		    (cfg->overrun_rule != DLS_OVERRUN_LINUX &&
		     cfg->overrun_rule != DLS_OVERRUN_2012) ||
		    (cfg->replenish_rule != DLS_REPLENISH_NEXT_PERIOD &&
		     cfg->replenish_rule != DLS_REPLENISH_AT_DEADLINE)))
		return DLS_EINVAL;

	dom->ops = ops;
	dom->ctx = ctx;
	if (cfg)
		dom->cfg = *cfg;
	else
		dls_domain_config_default(&dom->cfg);
	dom->rqs = rqs;
	dom->nr_cpus = nr_cpus;
	DLS__CLEAR_RESERVED(dom);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct dls_rq *rq = &rqs[cpu];

		DLS__CLEAR_RESERVED(rq);
		dls_rb_root_cached_init(&rq->root);
		rq->dom = dom;
		rq->curr = NULL;
		rq->earliest.curr = rq->earliest.next = 0;
		rq->nr_running = 0;
		rq->nr_attached = 0;
		rq->cpu = cpu;
		rq->capacity = DLS_CAPACITY_SCALE;
		rq->bw_total = 0;
		rq->running_bw = 0;
		rq->seq = 0;
		rq->avg = 0;
		rq->avg_stamp = ops->now(ctx, cpu);
		dls_rb_root_cached_init(&rq->pushable);
		rq->attached = NULL;
		rq->nr_migratory = 0;
		rq->overloaded = false;
		rq->online = true;
	}
	dom->smp = NULL;
	dom->hooks = NULL;
	dom->max_bw = dls__grub_max_bw(dom->cfg.bw_limit);
	dom->bw_ratio = dls__grub_bw_ratio(dom->max_bw);
	dom->nr_reclaiming = 0;
	return 0;
}

/* Admit a change of an entity's bandwidth on @rq: against @rq's capacity,
 * or, in a global domain, against the domain's and committed to its sum in
 * the same critical section. @rq locked. */
bool dls__rq_admit(struct dls_rq *rq, uint64_t old_bw, uint64_t new_bw)
{
	const struct dls_domain *dom = rq->dom;

	if (dom->smp)
		return dom->hooks->bw_change(rq->dom, old_bw, new_bw, true);
	return dls__bw_change_fits(dom->cfg.bw_limit, rq->bw_total, rq->capacity,
				   old_bw, new_bw);
}

int dls_rq_set_capacity(struct dls_rq *rq, uint32_t capacity)
{
	DLS_ASSERT(rq);
	if (capacity == 0 || capacity > DLS_CAPACITY_SCALE)
		return DLS_EINVAL;
	if (rq->dom->smp) {
		if (!rq->dom->hooks->set_capacity(rq, capacity))
			return DLS_EBANDWIDTH;
		return 0;
	}
	/* One CPU on its own: lowering its capacity must keep what it holds. */
	if (capacity < rq->capacity &&
	    !dls__bw_fits(rq->dom->cfg.bw_limit, rq->bw_total, capacity))
		return DLS_EBANDWIDTH;
	rq->capacity = capacity;
	return 0;
}
