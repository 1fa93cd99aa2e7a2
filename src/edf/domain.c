/*
 * Domain and runqueue set-up: the runqueues of a domain (the default
 * configuration is src/cbs/params.c's), a CPU's capacity, and where an
 * entity's bandwidth change is admitted: against the bandwidth object
 * dls__bw_of() picks (per runqueue, or the domain's once dls_smp_init()
 * made it global; src/edf/bw.c).
 */
#include "edf/bw_impl.h"
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
		rq->root_last.word = 0; /* the whole word, on ILP32 too */
		rq->root_last.node = NULL;
		rq->dom = dom;
		rq->curr = NULL;
		rq->earliest.curr = rq->earliest.next = 0;
		rq->nr_running = 0;
		rq->nr_attached = 0;
		rq->cpu = cpu;
		rq->capacity = DLS_CAPACITY_SCALE;
		dls__bw_init(&rq->bw, DLS_CAPACITY_SCALE, dom->cfg.bw_limit,
			     false);
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
	return 0;
}

/* Capacity-aware placement is on while any CPU differs from full speed.
 * Capacities change under the bandwidth lock (or before dls_smp_init()). */
bool dls__capacities_differ(const struct dls_domain *dom)
{
	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		if (dom->rqs[cpu].capacity != DLS_CAPACITY_SCALE)
			return true;
	return false;
}

/* Admit a change of an entity's bandwidth on @rq: against @rq's own
 * object, or, in a global domain, against the domain's and committed to
 * its sum in the same critical section (a runqueue's own sum follows when
 * the entity attaches or takes the parameters). @rq locked. */
bool dls__rq_admit(struct dls_rq *rq, uint64_t old_bw, uint64_t new_bw)
{
	struct dls_bw *b = dls__bw_of(rq);

	if (b->shared)
		return dls__bw_change(b, old_bw, new_bw, true);
	return dls__bw_admits(b, old_bw, new_bw);
}

/* A CPU's capacity counts in its object's while it is online (always on a
 * CPU scheduled on its own); lowering it must keep what that admitted. */
int dls_rq_set_capacity(struct dls_rq *rq, uint32_t capacity)
{
	struct dls_domain *dom;
	struct dls_bw *b;
	bool ok = true;

	DLS_ASSERT(rq);
	if (capacity == 0 || capacity > DLS_CAPACITY_SCALE)
		return DLS_EINVAL;
	dom = rq->dom;
	b = dls__bw_of(rq);
	dls__bw_lock(b);
	if (rq->online)
		ok = dls__bw_capacity_change(b, rq->capacity, capacity, false);
	if (ok) {
		rq->capacity = capacity;
		rq->bw.capacity = capacity;
		if (dom->smp) {
			bool asym = dls__capacities_differ(dom);

			if (dom->smp->asymmetric != asym)
				dom->smp->asymmetric = asym;
		}
	}
	dls__bw_unlock(b);
	return ok ? 0 : DLS_EBANDWIDTH;
}
