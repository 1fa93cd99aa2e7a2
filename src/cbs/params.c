/*
 * Reservation parameters: the checks, bandwidth and admission control.
 *
 * Admission control on one CPU (the single-processor EDF utilisation bound,
 * Liu & Layland 1973, applied to CBS servers as in Abeni & Buttazzo 1998):
 * the sum of Q_i/P_i over the entities attached to a runqueue may not
 * exceed the domain's limit scaled by the CPU's capacity. A refused change
 * leaves every object exactly as it was.
 */
#include "cbs/admission_impl.h"
#include "edf/sched_impl.h"

#define NSEC_PER_USEC UINT64_C(1000)

void dls_domain_config_default(struct dls_domain_config *cfg)
{
	cfg->period_min = 100 * NSEC_PER_USEC;
	cfg->period_max = (UINT64_C(1) << 22) * NSEC_PER_USEC;
	cfg->bw_limit = (95 * DLS_BW_UNIT) / 100;
	cfg->wakeup_rule = DLS_WAKEUP_REVISED;
	cfg->overrun_rule = DLS_OVERRUN_LINUX;
	cfg->replenish_rule = DLS_REPLENISH_NEXT_PERIOD;
	cfg->avg_period = 500 * 1000 * NSEC_PER_USEC;
}

int dls_domain_init(struct dls_domain *dom, const struct dls_ops *ops,
		    void *ctx, const struct dls_domain_config *cfg,
		    struct dls_rq *rqs, int nr_cpus)
{
	DLS_ASSERT(dom && ops && rqs);
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
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct dls_rq *rq = &rqs[cpu];

		dls_rb_root_cached_init(&rq->root);
		rq->dom = dom;
		rq->curr = NULL;
		rq->earliest.curr = rq->earliest.next = 0;
		rq->nr_running = 0;
		rq->nr_attached = 0;
		rq->cpu = cpu;
		rq->capacity = DLS_CAPACITY_SCALE;
		rq->bw_total = 0;
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
	return 0;
}

/* Bandwidth this runqueue may admit: the limit scaled by its capacity. */
static uint64_t rq_bw_capacity(const struct dls_rq *rq)
{
	uint64_t limit = rq->dom->cfg.bw_limit;

	if (limit == DLS_BW_UNLIMITED)
		return DLS_BW_UNLIMITED;
	return dls_u128_mul_u64_u64_div_u64(limit, rq->capacity,
					    DLS_CAPACITY_SCALE);
}

/*
 * With global scheduling the test is domain-wide (the GFB-style bound the
 * Linux root domain uses): the sum of all bandwidths may not exceed the
 * limit times the online capacity, and the domain keeps that sum (smp.c).
 * Otherwise it is per runqueue, under the runqueue's lock. A change that
 * gives bandwidth back is never refused.
 */
bool dls__rq_admit(struct dls_rq *rq, uint64_t old_bw, uint64_t new_bw)
{
	if (rq->dom->smp)
		return dls__domain_bw_change(rq->dom, old_bw, new_bw, true);
	return new_bw <= old_bw ||
	       dls__bw_fits(rq->dom->cfg.bw_limit, rq->bw_total - old_bw + new_bw,
			    rq->capacity);
}

int dls_rq_set_capacity(struct dls_rq *rq, uint32_t capacity)
{
	uint32_t old;

	DLS_ASSERT(rq);
	if (capacity == 0 || capacity > DLS_CAPACITY_SCALE)
		return DLS_EINVAL;
	if (rq->dom->smp) {
		if (!dls__domain_set_capacity(rq, capacity))
			return DLS_EBANDWIDTH;
		return 0;
	}
	/* One CPU on its own: lowering its capacity must keep what it holds. */
	old = rq->capacity;
	rq->capacity = capacity;
	if (capacity < old && rq->bw_total > rq_bw_capacity(rq)) {
		rq->capacity = old;
		return DLS_EBANDWIDTH;
	}
	return 0;
}

static uint64_t params_period(const struct dls_params *p)
{
	return p->period ? p->period : p->deadline;
}

int dls_params_check(const struct dls_domain *dom, const struct dls_params *p)
{
	struct dls_domain_config def;
	const struct dls_domain_config *cfg;
	uint64_t period;

	if (!p)
		return DLS_EINVAL;
	if ((p->runtime | p->deadline | p->period) & (UINT64_C(1) << 63))
		return DLS_ETOPBIT;
	if (p->flags & ~(uint32_t)DLS_FLAGS_ALL)
		return DLS_EFLAGS;
	if (p->deadline == 0)
		return DLS_EDEADLINE_ZERO;
	if (p->runtime < DLS_RUNTIME_MIN)
		return DLS_ERUNTIME_MIN;
	if (p->runtime > p->deadline)
		return DLS_ERUNTIME_GT_DEADLINE;
	if (p->period != 0 && p->deadline > p->period)
		return DLS_EDEADLINE_GT_PERIOD;
	if (dom) {
		cfg = &dom->cfg;
	} else {
		dls_domain_config_default(&def);
		cfg = &def;
	}
	period = params_period(p);
	if (period < cfg->period_min || period > cfg->period_max)
		return DLS_EPERIOD_RANGE;
	return 0;
}

uint64_t dls_params_bw(const struct dls_params *p)
{
	return dls_u128_mul_u64_u64_div_u64(p->runtime, DLS_BW_UNIT,
					    params_period(p));
}

void dls_entity_init(struct dls_entity *se)
{
	*se = (struct dls_entity){ 0 };
	dls_rb_node_init(&se->node);
	dls_rb_node_init(&se->pushable_node);
	se->is_new = true;
}

static void entity_set(struct dls_entity *se, const struct dls_params *p,
		       uint64_t bw)
{
	se->params = *p;
	se->period = params_period(p);
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
	rq->bw_total = rq->bw_total - se->bw + bw;
	entity_set(se, p, bw);
	if (se->runtime > (int64_t)p->runtime)
		se->runtime = (int64_t)p->runtime;
	now = dls__now(rq);
	if (se->queued) {
		/* Requeue: the key is unchanged, but a later instance's is not. */
		dls__rq_erase(rq, se, now);
		dls__rq_insert(rq, se, now);
	}
	dls__trace(rq, DLS_TRACE_PARAMS, se, now);
	return 0;
}

void dls_entity_get(const struct dls_entity *se, struct dls_params *p,
		    int64_t *runtime, uint64_t *deadline)
{
	if (p)
		*p = se->params;
	if (runtime)
		*runtime = se->runtime;
	if (deadline)
		*deadline = se->deadline;
}
