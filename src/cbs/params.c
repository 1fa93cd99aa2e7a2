/*
 * Reservation parameters and the rules' configuration: the checks, the
 * bandwidth Q/P, the default configuration of a domain. A leaf: the
 * entity calls that admit a reservation (attach, set_params) are the
 * runqueue's (src/edf/entity.c).
 */
#include <dlsched/sched.h>

#include "cbs/cbs_impl.h"

#define NSEC_PER_USEC UINT64_C(1000)

static uint64_t params_period(const struct dls_params *p)
{
	return dls__params_period(p);
}

void dls_domain_config_default(struct dls_domain_config *cfg)
{
	DLS__CLEAR_RESERVED(cfg);
	cfg->period_min = 100 * NSEC_PER_USEC;
	cfg->period_max = (UINT64_C(1) << 22) * NSEC_PER_USEC;
	cfg->bw_limit = (95 * DLS_BW_UNIT) / 100;
	cfg->wakeup_rule = DLS_WAKEUP_REVISED;
	cfg->overrun_rule = DLS_OVERRUN_LINUX;
	cfg->replenish_rule = DLS_REPLENISH_NEXT_PERIOD;
	cfg->avg_period = 500 * 1000 * NSEC_PER_USEC;
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
