/*
 * A global domain's bandwidth object (struct dls_smp::bw, the methods of
 * src/edf/bw.c): its lock, and the CPUs that leave or join its capacity.
 * Every change of its bandwidth or capacity is checked and made in one
 * critical section of that lock (dls_smp_set_bw_lock()), so CPUs
 * attaching, changing capacity or going offline at once can never admit
 * more than the limit between them. Giving bandwidth back, or adding
 * capacity, is never refused.
 */
#include "edf/smp_impl.h"

int dls_smp_set_bw_lock(struct dls_domain *dom, const struct dls_lock_ops *lock_ops,
			void *lock_ctx)
{
	if (!dom || !dom->smp || (lock_ops && (!lock_ops->lock || !lock_ops->unlock)))
		return DLS_EINVAL;
	dom->smp->bw.lock_ops = lock_ops;
	dom->smp->bw.lock_ctx = lock_ctx;
	return 0;
}

/*
 * Take @rq's CPU out of the online mask and the admitted capacity, or say
 * why not. Under the bandwidth lock, so the last online CPU cannot leave
 * by two concurrent calls and an attach never sees capacity that is going.
 */
int dls__smp_bw_cpu_leave(struct dls_rq *rq, bool force)
{
	struct dls_smp *smp = rq->dom->smp;
	int rc = 0;

	dls__bw_lock(&smp->bw);
	if (dls_cpumask_weight(smp->online) < 2)
		rc = DLS_ESTATE;
	else if (!dls__bw_capacity_change(&smp->bw, rq->capacity, 0, force))
		rc = DLS_ECAPACITY;
	if (rc == 0)
		dls_cpumask_clear_atomic(smp->online, rq->cpu);
	dls__bw_unlock(&smp->bw);
	return rc;
}

void dls__smp_bw_cpu_join(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	dls__bw_lock(&smp->bw);
	dls_cpumask_set_atomic(smp->online, rq->cpu);
	dls__bw_capacity_change(&smp->bw, 0, rq->capacity, true);
	dls__bw_unlock(&smp->bw);
}
