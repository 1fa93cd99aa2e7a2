/*
 * Global EDF across the CPUs of a domain, in the way of the SCHED_DEADLINE
 * SMP patches: each CPU keeps its own EDF runqueue; entities that another
 * CPU could run are "pushable"; a CPU with more than one queued entity and
 * a migratory one is "overloaded" and advertises it in the domain's
 * overload mask; the cpudl max-heap names the CPU running the latest
 * deadline (or an idle one) so that push finds its target in O(1).
 *
 * The parts, one file each, sharing src/edf/smp_impl.h: this file (set-up
 * and the runqueue's class hooks, the top of global scheduling: nothing
 * below calls back into it), smp_rq.c (the per-runqueue bookkeeping and
 * locking two runqueues, the bottom: it calls none of the others),
 * smp_bw.c (the domain's bandwidth lock, CPUs leaving and joining its
 * capacity; the object and its methods are src/edf/bw.c's),
 * smp_place.c (wake-up placement), smp_push.c (migration, push and pull),
 * smp_affinity.c (affinity and moves between domains), smp_hotplug.c (CPUs
 * going offline and online) and smp_check.c (the validators).
 *
 * Invariants (dls_domain_check()):
 *  - an entity is on its rq's pushable tree iff it is queued, is not the
 *    rq's current entity and may run on more than one CPU;
 *  - rq->nr_migratory counts queued entities allowed on more than one CPU;
 *  - rq->overloaded == (nr_migratory > 0 && nr_running > 1), and the
 *    overload mask and count agree with the flags (mask bit set before the
 *    count is raised, count lowered before the bit is cleared);
 *  - the cpudl heap holds each online CPU with queued entities, keyed by its
 *    earliest deadline; online CPUs with none are in its free mask.
 *
 * Concurrency (threads scheduling different CPUs at once): every rq field
 * is written under that rq's lock; the online and overload masks are
 * written and read with atomics; the heap has its own lock
 * (dls_smp_set_heap_lock()). Reads of another rq's fields without its
 * lock are hints only (wake-up placement, the pull peek, load by
 * bandwidth), confined to the DLS_RACY functions below and checked again
 * under the lock. A path that drops its own lock to take a lower CPU's
 * (dls__smp_double_lock()) rechecks what it saw before acting, and asserts
 * what the recheck established: the entity may have moved and the
 * destination may have gone offline.
 */
#include "edf/smp_impl.h"

/* Alignment of each part carved out of dls_smp_init()'s storage: enough
 * for the u64 and pointer fields of every part (and a cache-friendly 16). */
#define STORAGE_ALIGN ((size_t)16)

static void pushable_add(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->nr_cpus_allowed > 1 && se != rq->curr &&
	    !dls_rb_node_on_tree(&se->pushable_node))
		dls_rb_add_cached(&se->pushable_node, &rq->pushable, pushable_less);
}

static void pushable_remove(struct dls_rq *rq, struct dls_entity *se)
{
	if (dls_rb_node_on_tree(&se->pushable_node))
		dls_rb_erase_cached(&se->pushable_node, &rq->pushable);
}

static void smp_enqueued(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->nr_cpus_allowed > 1)
		rq->nr_migratory++;
	pushable_add(rq, se);
	dls__smp_update_overload(rq);
}

static void smp_dequeued(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->nr_cpus_allowed > 1)
		rq->nr_migratory--;
	pushable_remove(rq, se);
	dls__smp_update_overload(rq);
}

static void smp_set_curr(struct dls_rq *rq, struct dls_entity *se)
{
	pushable_remove(rq, se);
}

static void smp_put_prev(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->queued)
		pushable_add(rq, se);
}

static const struct dls_class_hooks smp_hooks = {
	.enqueued = smp_enqueued,
	.dequeued = smp_dequeued,
	.earliest_changed = dls__smp_earliest_changed,
	.set_curr = smp_set_curr,
	.put_prev = smp_put_prev,
	.preempt_equal = dls__smp_preempt_equal,
	.pre_schedule = dls__smp_pre_schedule,
	.push_surplus = dls__smp_push_surplus,
};


static size_t align_up(size_t n)
{
	return dls__align_up(n, STORAGE_ALIGN);
}

size_t dls_smp_size(int nr_cpus)
{
	return align_up(sizeof(struct dls_smp)) + align_up(sizeof(struct dls_cpudl)) +
	       align_up(dls_cpumask_size(nr_cpus)) * 3 + align_up(dls__cpudl_size(nr_cpus));
}

int dls_smp_set_heap_lock(struct dls_domain *dom,
			  const struct dls_lock_ops *lock_ops, void *lock_ctx)
{
	if (!dom || !dom->smp || (lock_ops && (!lock_ops->lock || !lock_ops->unlock)))
		return DLS_EINVAL;
	dom->smp->cpudl->lock_ops = lock_ops;
	dom->smp->cpudl->lock_ctx = lock_ctx;
	return 0;
}

int dls_smp_init(struct dls_domain *dom, void *storage, size_t size)
{
	struct dls_smp *smp;
	char *p = storage;
	size_t msz, need;

	if (!dom || !storage)
		return DLS_EINVAL;
	/* Before the first write: a misaligned store faults on strict-
	 * alignment CPUs. */
	if ((uintptr_t)storage % _Alignof(struct dls_smp) != 0)
		return DLS_EINVAL;
	need = dls_smp_size(dom->nr_cpus);
	if (size < need)
		return DLS_EINVAL;
	if (dom->smp)
		return DLS_ESTATE;
	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		if (dom->rqs[cpu].nr_attached)
			return DLS_ESTATE;
	smp = storage;
	p += align_up(sizeof(*smp));
	smp->cpudl = (struct dls_cpudl *)(void *)p;
	p += align_up(sizeof(*smp->cpudl));
	msz = align_up(dls_cpumask_size(dom->nr_cpus));
	smp->online = (struct dls_cpumask *)(void *)p;
	smp->overload = (struct dls_cpumask *)(void *)(p + msz);
	smp->span = (struct dls_cpumask *)(void *)(p + 2 * msz);
	if (dls_cpumask_init(smp->online, msz, dom->nr_cpus) ||
	    dls_cpumask_init(smp->overload, msz, dom->nr_cpus) ||
	    dls_cpumask_init(smp->span, msz, dom->nr_cpus) ||
	    dls__cpudl_init(smp->cpudl, p + 3 * msz, size - (size_t)(p - (char *)storage) - 3 * msz,
			    dom->nr_cpus, NULL, NULL))
		return DLS_EINVAL;
	dls_cpumask_fill(smp->online);
	dls_cpumask_fill(smp->span);
	smp->overload_count = 0;
	smp->asymmetric = dls__capacities_differ(dom);
	dls__bw_init(&smp->bw, 0, dom->cfg.bw_limit, true);
	for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
		smp->bw.capacity += dom->rqs[cpu].capacity;
		dls__cpudl_online(smp->cpudl, cpu);
	}
	dom->smp = smp;
	dom->hooks = &smp_hooks;
	return 0;
}
