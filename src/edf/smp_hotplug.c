/*
 * CPU hotplug: a CPU leaves the heap, the masks and the admitted capacity
 * before its entities are evicted (so nothing is pushed to it meanwhile),
 * and on its return takes back the entities stranded on offline CPUs that
 * may use it.
 */
#include "edf/smp_impl.h"

int dls_cpu_offline(struct dls_domain *dom, int cpu, bool force,
		    dls_stranded_fn stranded, void *arg)
{
	struct dls_smp *smp = dom->smp;
	struct dls_rq *rq;
	struct dls_entity *se, *next;
	int rc;

	if (!smp || cpu < 0 || cpu >= dom->nr_cpus)
		return DLS_EINVAL;
	rq = &dom->rqs[cpu];
	dls__rq_lock(rq);
	rc = rq->online ? dls__smp_bw_cpu_leave(rq, force) : DLS_ESTATE;
	if (rc) {
		dls__rq_unlock(rq);
		return rc;
	}
	/* Leave the masks and the heap first, so nobody pushes to it. */
	rq->online = false;
	dls__smp_update_overload(rq);
	dls__cpudl_offline(smp->cpudl, cpu);
	if (rq->curr) {
		dls_put_prev(rq, rq->curr);
		/* The one request an offline CPU gets (dls__resched() skips
		 * offline CPUs): stop running it; dls_schedule() there
		 * returns NULL. */
		dom->ops->resched(dom->ctx, cpu);
	}
	/* dls__smp_evict() may drop our lock, and a pull may then take entities off
	 * the list: rescan from the head after every move. */
	for (bool moved = true; moved;) {
		moved = false;
		for (se = rq->attached; se; se = se->attached_next) {
			int target = dls__smp_least_loaded_cpu(dom, se, cpu);

			if (target >= 0) {
				dls__smp_evict(se, &dom->rqs[target]);
				moved = true;
				break; /* se may be elsewhere now: do not follow it */
			}
		}
	}
	for (se = rq->attached; se; se = next) {
		next = se->attached_next;
		DLS_ASSERT(se->rq == rq); /* our lock is held again: stable */
		if (stranded)
			stranded(arg, se);
	}
	dls__rq_unlock(rq);
	return 0;
}

int dls_cpu_online(struct dls_domain *dom, int cpu)
{
	struct dls_smp *smp = dom->smp;
	struct dls_rq *rq;

	if (!smp || cpu < 0 || cpu >= dom->nr_cpus)
		return DLS_EINVAL;
	rq = &dom->rqs[cpu];
	dls__rq_lock(rq);
	if (rq->online) {
		dls__rq_unlock(rq);
		return DLS_ESTATE;
	}
	dls__cpudl_online(smp->cpudl, cpu);
	dls__smp_bw_cpu_join(rq);
	rq->online = true;
	dls__smp_earliest_changed(rq);
	dls__smp_update_overload(rq);
	/* Entities stranded on other offline CPUs that may use this one come
	 * here too (nothing runs on an offline CPU, so none is current). */
	for (int o = 0; o < dom->nr_cpus; o++) {
		struct dls_rq *src = &dom->rqs[o];
		struct dls_entity *se, *next;

		if (o == cpu || cpu_online(dom, o))
			continue;
		/* Our lock may drop on the way: recheck both states. */
		if (dls__smp_double_lock(rq, src) && !rq->online) {
			dls__rq_unlock(src);
			break;
		}
		DLS_ASSERT(rq->online);
		for (se = src->attached; se && !src->online; se = next) {
			next = se->attached_next;
			DLS_ASSERT(se->rq == src); /* src locked: its list is stable */
			if (allowed_on(se, cpu) && src->curr != se)
				dls__smp_migrate(se, rq);
		}
		dls__rq_unlock(src);
	}
	dls__resched(rq);
	dls__rq_unlock(rq);
	return 0;
}
