/*
 * The bandwidth object (struct dls_bw, Linux's dl_bw): admission state
 * per runqueue on a CPU scheduled on its own, per domain when globally
 * scheduled; dls__bw_of() picks it, and one set of methods (src/edf/bw.c)
 * serves both, so a one-CPU program reaches no global-scheduling code.
 * The admission rule is src/cbs/admission.c's, GRUB's Uextra
 * src/cbs/grub.c's. Never installed.
 */
#ifndef DLSCHED_BW_IMPL_H
#define DLSCHED_BW_IMPL_H

#include <dlsched/smp.h>

#include "cbs/admission_impl.h"
#include "internal.h"

/* The object @rq admits against: its own, or its global domain's. */
static inline struct dls_bw *dls__bw_of(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	return smp ? &smp->bw : &rq->bw;
}

static inline void dls__bw_init(struct dls_bw *b, uint64_t capacity)
{
	b->total = 0;
	b->capacity = capacity;
	b->lock_ops = NULL;
	b->lock_ctx = NULL;
}

static inline void dls__bw_lock(const struct dls_bw *b)
{
	if (b->lock_ops)
		b->lock_ops->lock(b->lock_ctx);
}

static inline void dls__bw_unlock(const struct dls_bw *b)
{
	if (b->lock_ops)
		b->lock_ops->unlock(b->lock_ctx);
}

/* Whether an entity's bandwidth may change from @old_bw to @new_bw within
 * @b under @limit (giving bandwidth back always may); the caller holds
 * @b's lock. */
static inline bool dls__bw_admits(const struct dls_bw *b, uint64_t limit,
				  uint64_t old_bw, uint64_t new_bw)
{
	return dls__bw_change_fits(limit, b->total, b->capacity, old_bw, new_bw);
}

/* Change @b's admitted bandwidth from @old_bw to @new_bw, checked when
 * @check; check and update are one critical section of @b's lock. */
DLS_HIDDEN bool dls__bw_change(struct dls_bw *b, uint64_t limit,
			       uint64_t old_bw, uint64_t new_bw, bool check);

/* A CPU's share of @b's capacity changes from @old_cap to @new_cap: refused
 * (false, nothing changed) when it shrinks below what @b admitted, unless
 * @force. The caller holds @b's lock. */
DLS_HIDDEN bool dls__bw_capacity_change(struct dls_bw *b, uint64_t limit,
					uint64_t old_cap, uint64_t new_cap,
					bool force);

/* GRUB's Uextra of a domain's @b for Umax @max_bw (src/cbs/grub.c's
 * dls__grub_extra()): Umax minus the admitted bandwidth per full-speed CPU
 * of its capacity, at least 0. The sums are read without the lock, a hint,
 * as the kernel reads its root domain's while charging; derived afresh on
 * each call, so Uextra stays exact across hotplug. (A CPU scheduled on its
 * own takes this_bw itself as the admitted bandwidth, whatever its speed;
 * see src/edf/rq.c.) */
DLS_HIDDEN DLS_RACY uint64_t dls__bw_extra(const struct dls_bw *b,
					   uint64_t max_bw);

#endif /* DLSCHED_BW_IMPL_H */
