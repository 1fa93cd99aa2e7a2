/*
 * Admission in a global domain: the domain keeps the bandwidth admitted
 * on all its CPUs and the capacity of those online, and every change of
 * either is checked (by the one rule of src/cbs/admission.c) and made in
 * one critical section of the bandwidth lock (dls_smp_set_bw_lock()), so
 * CPUs attaching, changing capacity or going offline at once can never
 * admit more than the limit between them. Giving bandwidth back, or
 * adding capacity, is never refused.
 */
#include "cbs/admission_impl.h"
#include "cbs/grub_impl.h"
#include "edf/smp_impl.h"

static void bw_lock(const struct dls_smp *smp)
{
	if (smp->bw_lock_ops)
		smp->bw_lock_ops->lock(smp->bw_lock_ctx);
}

static void bw_unlock(const struct dls_smp *smp)
{
	if (smp->bw_lock_ops)
		smp->bw_lock_ops->unlock(smp->bw_lock_ctx);
}

int dls_smp_set_bw_lock(struct dls_domain *dom, const struct dls_lock_ops *lock_ops,
			void *lock_ctx)
{
	if (!dom || !dom->smp || (lock_ops && (!lock_ops->lock || !lock_ops->unlock)))
		return DLS_EINVAL;
	dom->smp->bw_lock_ops = lock_ops;
	dom->smp->bw_lock_ctx = lock_ctx;
	return 0;
}

/* The admission rule (admission.c) for @dom's limit. */
static bool bw_fits(const struct dls_domain *dom, uint64_t total, uint64_t capacity)
{
	return dls__bw_fits(dom->cfg.bw_limit, total, capacity);
}

/*
 * Change the domain's admitted bandwidth from @old_bw to @new_bw, checked
 * when @check and the change adds bandwidth (giving some back is always
 * allowed, also in a domain a forced offline left overcommitted). Check
 * and update are one critical section of the bandwidth lock.
 */
bool dls__smp_bw_change(struct dls_domain *dom, uint64_t old_bw,
			uint64_t new_bw, bool check)
{
	struct dls_smp *smp = dom->smp;
	bool ok;

	bw_lock(smp);
	ok = !check || dls__bw_change_fits(dom->cfg.bw_limit, smp->bw_total,
					   smp->capacity_online, old_bw, new_bw);
	if (ok)
		smp->bw_total = smp->bw_total - old_bw + new_bw;
	bw_unlock(smp);
	return ok;
}

/* Set @rq's capacity unless lowering it takes admitted capacity away that
 * the domain needs (an offline CPU's counts only when it comes back).
 * @rq locked. */
bool dls__smp_set_capacity(struct dls_rq *rq, uint32_t capacity)
{
	struct dls_smp *smp = rq->dom->smp;
	uint64_t online_cap;
	bool ok;

	bw_lock(smp);
	online_cap = smp->capacity_online;
	if (rq->online)
		online_cap = online_cap - rq->capacity + capacity;
	ok = capacity >= rq->capacity || !rq->online ||
	     bw_fits(rq->dom, smp->bw_total, online_cap);
	if (ok) {
		bool asym;

		rq->capacity = capacity;
		smp->capacity_online = online_cap;
		asym = dls__smp_capacities_differ(rq->dom);
		if (smp->asymmetric != asym)
			smp->asymmetric = asym;
	}
	bw_unlock(smp);
	return ok;
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

	bw_lock(smp);
	if (dls_cpumask_weight(smp->online) < 2)
		rc = DLS_ESTATE;
	else if (!force && !bw_fits(rq->dom, smp->bw_total,
				    smp->capacity_online - rq->capacity))
		rc = DLS_ECAPACITY;
	if (rc == 0) {
		dls_cpumask_clear_atomic(smp->online, rq->cpu);
		smp->capacity_online -= rq->capacity;
	}
	bw_unlock(smp);
	return rc;
}

void dls__smp_bw_cpu_join(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	bw_lock(smp);
	dls_cpumask_set_atomic(smp->online, rq->cpu);
	smp->capacity_online += rq->capacity;
	bw_unlock(smp);
}

/*
 * GRUB's Uextra in a global domain (src/cbs/grub.c's dls__grub_extra();
 * the class hook extra_bw): Umax minus the admitted bandwidth per full-speed CPU of online
 * capacity, at least 0. The sums are read without the bandwidth lock, a
 * hint, as the kernel reads its root domain's totals while charging; they
 * are derived afresh on each call, so Uextra stays exact across hotplug.
 */
DLS_RACY uint64_t dls__smp_extra_bw(const struct dls_rq *rq)
{
	const struct dls_smp *smp = rq->dom->smp;
	uint64_t total = *(const volatile uint64_t *)&smp->bw_total;
	uint64_t cap = *(const volatile uint64_t *)&smp->capacity_online;
	uint64_t used;

	if (cap == 0)
		return 0;
	used = dls_u128_mul_u64_u64_div_u64(total, DLS_CAPACITY_SCALE, cap);
	return dls__grub_extra(rq->dom->max_bw, used);
}
