/*
 * Reservation parameters: the checks, the bandwidth Q/P, and the entity
 * calls that admit it (attach, set_params; the rule is admission.c's). A
 * refused change leaves every object exactly as it was.
 */
#include "edf/sched_impl.h"

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
	/* A soft reservation runs into all idle time already: reclaiming
	 * would only change its charge, so the pair is refused. */
	if ((p->flags & DLS_FLAG_SOFT) && (p->flags & DLS_FLAG_RECLAIM))
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
	se->inactive_timer.zero_lag = true;
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
	now = dls__now(rq);
	dls__grub_set_params(rq, se, bw, p->flags, now);
	rq->bw_total = rq->bw_total - se->bw + bw;
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
