/*
 * GRUB's charge (src/cbs/grub.c), inline for the accounting path.
 * Never installed.
 */
#ifndef DLSCHED_GRUB_IMPL_H
#define DLSCHED_GRUB_IMPL_H

#include "edf/sched_impl.h"

/* Fractional bits of 1/Umax (Linux's RATIO_SHIFT). */
#define DLS_RATIO_SHIFT 8

DLS_HIDDEN void dls__grub_domain_init(struct dls_domain *dom);

/* Uextra: Umax minus the admitted bandwidth per CPU, at least 0. */
static inline uint64_t dls__grub_extra_bw(const struct dls_rq *rq)
{
	uint64_t m = rq->dom->max_bw;

	if (rq->dom->smp)
		return rq->dom->hooks->extra_bw(rq);
	return rq->bw_total >= m ? 0 : m - rq->bw_total;
}

/*
 * The rate at which a reclaiming entity is charged (Linux's grub_reclaim):
 * max{u, Umax - Uinact - Uextra} / Umax, compared as Uinact + Uextra + u >
 * Umax so that nothing goes below zero; 1/Umax in DLS_RATIO_SHIFT fixed
 * point, the product truncated. DLS_BW_SHIFT fixed point.
 */
static inline uint64_t dls__grub_rate(const struct dls_rq *rq,
				      const struct dls_entity *se)
{
	const struct dls_domain *dom = rq->dom;
	uint64_t m = dom->max_bw, idle, u_act;

	/* idle = Uinact + Uextra; on a CPU scheduled on its own, where
	 * Uextra = max(0, Umax - this_bw), that is max(this_bw, Umax) -
	 * running_bw. */
	if (DLS_LIKELY(!dom->smp))
		idle = (rq->bw_total > m ? rq->bw_total : m) - rq->running_bw;
	else
		idle = rq->bw_total - rq->running_bw + dom->hooks->extra_bw(rq);
	if (idle + se->bw > m)
		u_act = se->bw;
	else
		u_act = m - idle;
	return (u_act * dom->bw_ratio) >> DLS_RATIO_SHIFT;
}

/* The charge of a reclaiming entity that ran @delta ns, truncated. */
static inline uint64_t dls__grub_reclaim(const struct dls_rq *rq,
					 const struct dls_entity *se,
					 uint64_t delta)
{
	return dls_u128_mul_u64_u64_shr(delta, dls__grub_rate(rq, se), DLS_BW_SHIFT);
}

#endif /* DLSCHED_GRUB_IMPL_H */
