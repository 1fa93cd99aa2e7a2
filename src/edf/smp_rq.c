/*
 * The bottom of global scheduling (see smp.c for the invariants and the
 * locking rules): per-runqueue bookkeeping (the overload flag and mask,
 * the cpudl heap's key), locking two runqueues, and the racy peeks the
 * other parts check again under a lock. It calls no other smp*.c file, so
 * the parts above it (placement, push and pull, affinity, bandwidth,
 * hotplug, the hooks table in smp.c) form levels without a cycle
 * (tools/check-levels.sh).
 */
#include "edf/smp_impl.h"

/*
 * An entity's runqueue, read after our lock of @rq was dropped and retaken:
 * equal to @rq it is stable (leaving needs our lock); else the entity has
 * moved on, maybe again between runqueues whose locks we do not hold.
 */
DLS_RACY bool dls__smp_still_on(const struct dls_entity *se, const struct dls_rq *rq)
{
	return *(struct dls_rq *const volatile *)&se->rq == rq;
}

/* Another CPU's capacity, read without the lock it is written under (a
 * hint: dls_rq_set_capacity() may run on another CPU meanwhile; placement
 * and eviction only prefer, never rely on it). */
DLS_RACY uint32_t dls__smp_capacity_peek(const struct dls_domain *dom, int cpu)
{
	return *(const volatile uint32_t *)&dom->rqs[cpu].capacity;
}

/*
 * Lock @other while holding @this, in CPU-id order. Returns true when the
 * lock of @this was dropped on the way, so what the caller saw must be
 * checked again.
 */
bool dls__smp_double_lock(struct dls_rq *this, struct dls_rq *other)
{
	if (!this->dom->ops->lock)
		return false;
	if (other->cpu > this->cpu) {
		dls__rq_lock(other);
		return false;
	}
	dls__rq_unlock(this);
	dls__rq_lock(other);
	dls__rq_lock(this);
	return true;
}

/* rq->overloaded follows its rule, and the domain's mask and count follow
 * the flag (mask bit before count up, count down before bit). */
void dls__smp_update_overload(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;
	bool over = rq->nr_migratory > 0 && rq->nr_running > 1 && rq->online;

	if (over == rq->overloaded)
		return;
	rq->overloaded = over;
	if (over) {
		/* The bit must be visible before the count says to look. */
		dls_cpumask_set_atomic(smp->overload, rq->cpu);
		dls__atomic_fetch_add(&smp->overload_count, 1);
	} else {
		dls__atomic_fetch_sub(&smp->overload_count, 1);
		dls_cpumask_clear_atomic(smp->overload, rq->cpu);
	}
}

void dls__smp_earliest_changed(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	if (!rq->online)
		return;
	if (rq->nr_running)
		dls__cpudl_set(smp->cpudl, rq->cpu, rq->earliest.curr);
	else
		dls__cpudl_clear(smp->cpudl, rq->cpu);
}

int dls__smp_count_allowed(const struct dls_domain *dom, const struct dls_cpumask *mask)
{
	int n = 0;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		n += !mask || dls_cpumask_test(mask, cpu);
	return n;
}
