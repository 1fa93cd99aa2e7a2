/*
 * The bandwidth object (struct dls_bw, Linux's dl_bw with its dl_rq sums):
 * every runqueue has one (attached and active bandwidth; on a CPU
 * scheduled on its own also its admission state), and a globally
 * scheduled domain one for all its CPUs. dls__bw_of() picks the object
 * that admits a runqueue's entities; one set of methods (here and
 * src/edf/bw.c) serves both kinds, so a one-CPU program reaches no
 * global-scheduling code. The admission rule is src/cbs/admission.c's,
 * GRUB's Umax, 1/Umax and Uextra src/cbs/grub.c's. Never installed.
 *
 * Invariants (dls_rq_check(), dls_domain_check()):
 *  - max_bw = dls__grub_max_bw(limit), bw_ratio = dls__grub_bw_ratio(max_bw),
 *    limit = the domain's bw_limit, in every object;
 *  - a runqueue's object: running <= total; capacity = the CPU's;
 *  - nr_reclaiming counts the attached DLS_FLAG_RECLAIM entities whose
 *    runqueue the object admits (0 in a global domain's runqueue objects);
 *  - a global domain's object: total = the sum of its runqueues' totals,
 *    capacity = the sum over its online CPUs, running = 0.
 */
#ifndef DLSCHED_BW_IMPL_H
#define DLSCHED_BW_IMPL_H

#include <dlsched/smp.h>

#include "atomic_impl.h"
#include "cbs/admission_impl.h"
#include "cbs/grub_impl.h"
#include "internal.h"

/* The object that admits @rq's entities: its own, or its global domain's
 * (Linux's dl_bw_of()). */
static inline struct dls_bw *dls__bw_of(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	return smp ? &smp->bw : &rq->bw;
}

static inline const struct dls_bw *dls__bw_of_const(const struct dls_rq *rq)
{
	const struct dls_smp *smp = rq->dom->smp;

	return smp ? &smp->bw : &rq->bw;
}

/* An empty object of @capacity under @limit; @shared for a global domain's. */
static inline void dls__bw_init(struct dls_bw *b, uint64_t capacity,
				uint64_t limit, bool shared)
{
	b->total = 0;
	b->capacity = capacity;
	b->limit = limit;
	b->running = 0;
	b->max_bw = dls__grub_max_bw(limit);
	b->bw_ratio = dls__grub_bw_ratio(b->max_bw);
	b->nr_reclaiming = 0;
	b->shared = shared;
	b->lock_ops = NULL;
	b->lock_ctx = NULL;
}

/* A new admission limit for @b (a guest domain's, from the servers that
 * back it: src/server/server.c), with GRUB's Umax and 1/Umax to match. */
static inline void dls__bw_set_limit(struct dls_bw *b, uint64_t limit)
{
	b->limit = limit;
	b->max_bw = dls__grub_max_bw(limit);
	b->bw_ratio = dls__grub_bw_ratio(b->max_bw);
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
 * @b (giving bandwidth back always may); the caller holds @b's lock. */
static inline bool dls__bw_admits(const struct dls_bw *b, uint64_t old_bw,
				  uint64_t new_bw)
{
	return dls__bw_change_fits(b->limit, b->total, b->capacity, old_bw,
				   new_bw);
}

/* Change @b's admitted bandwidth from @old_bw to @new_bw, checked when
 * @check; check and update are one critical section of @b's lock. */
DLS_HIDDEN bool dls__bw_change(struct dls_bw *b, uint64_t old_bw,
			       uint64_t new_bw, bool check);

/* A CPU's share of @b's capacity changes from @old_cap to @new_cap: refused
 * (false, nothing changed) when it shrinks below what @b admitted, unless
 * @force. The caller holds @b's lock. */
DLS_HIDDEN bool dls__bw_capacity_change(struct dls_bw *b, uint64_t old_cap,
					uint64_t new_cap, bool force);

/* A shared object's Uextra (src/edf/bw.c): per full-speed CPU of its
 * capacity, read without the lock. */
DLS_HIDDEN DLS_RACY uint64_t dls__bw_extra_shared(const struct dls_bw *b);

/*
 * GRUB's Uextra of @b (src/cbs/grub.c's dls__grub_extra()): Umax minus the
 * admitted bandwidth per CPU, at least 0. A CPU scheduled on its own takes
 * its admitted bandwidth as it is, whatever its speed (Linux's extra_bw on
 * a one-CPU root domain); a global domain's object divides it by its
 * online capacity in full-speed CPUs, derived afresh on each call so that
 * it stays exact across hotplug, and read without the lock, a hint, as
 * the kernel reads its root domain's while charging.
 */
static inline uint64_t dls__bw_extra(const struct dls_bw *b)
{
	if (DLS_LIKELY(!b->shared))
		return dls__grub_extra(b->max_bw, b->total);
	return dls__bw_extra_shared(b);
}

/* An entity admitted by @b starts or stops reclaiming. */
static inline void dls__bw_count_reclaiming(struct dls_bw *b, bool add)
{
	if (add)
		dls__atomic_fetch_add(&b->nr_reclaiming, 1);
	else
		dls__atomic_fetch_sub(&b->nr_reclaiming, 1);
}

/* Whether any entity @b admits reclaims (then blocked entities keep their
 * bandwidth active until their 0-lag time). */
static inline bool dls__bw_reclaims(const struct dls_bw *b)
{
	return dls__atomic_load(&b->nr_reclaiming) != 0;
}

/* What is wrong with @b's derived values, or NULL (the validators'). */
DLS_HIDDEN const char *dls__bw_check(const struct dls_bw *b);

#endif /* DLSCHED_BW_IMPL_H */
