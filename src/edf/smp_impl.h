/*
 * Internals shared by the parts of global scheduling (src/edf/smp*.c; see
 * smp.c for the invariants and the locking rules). Never installed.
 */
#ifndef DLSCHED_SMP_IMPL_H
#define DLSCHED_SMP_IMPL_H

#include <dlsched/smp.h>

#include "atomic_impl.h"
#include "edf/bw_impl.h"
#include "edf/cpudl.h"
#include "edf/sched_impl.h"

/* The entity of a pushable-tree node; the pushable tree's order (EDF). */
static inline struct dls_entity *pushable_se(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct dls_entity, pushable_node);
}

static inline bool pushable_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls__edf_before(pushable_se(a), pushable_se(b));
}

/* Whether @se's affinity allows @cpu. */
static inline bool allowed_on(const struct dls_entity *se, int cpu)
{
	return !se->allowed || dls_cpumask_test(se->allowed, cpu);
}

/* Whether @cpu is in the domain's online mask (an atomic read). */
static inline bool cpu_online(const struct dls_domain *dom, int cpu)
{
	return dls_cpumask_test_atomic(dom->smp->online, cpu);
}

/* What dls__smp_evict() did: moved the entity, found it gone (a pull took
 * it while a lock was dropped), or moved nothing (retry elsewhere). */
enum evict_result { EVICT_MOVED, EVICT_GONE, EVICT_RETRY };

/* bookkeeping, locking and racy peeks (smp_rq.c) */
DLS_HIDDEN DLS_RACY bool dls__smp_still_on(const struct dls_entity *se,
					   const struct dls_rq *rq);
DLS_HIDDEN DLS_RACY uint32_t dls__smp_capacity_peek(const struct dls_domain *dom,
						    int cpu);
DLS_HIDDEN bool dls__smp_double_lock(struct dls_rq *this, struct dls_rq *other);
DLS_HIDDEN void dls__smp_update_overload(struct dls_rq *rq);
DLS_HIDDEN void dls__smp_earliest_changed(struct dls_rq *rq);

/* a CPU leaving or joining the domain's capacity (smp_bw.c) */
DLS_HIDDEN int dls__smp_bw_cpu_leave(struct dls_rq *rq, bool force);
DLS_HIDDEN void dls__smp_bw_cpu_join(struct dls_rq *rq);

/* placement (smp_place.c) */
DLS_HIDDEN int dls__smp_find_later_cpu(const struct dls_domain *dom,
				       const struct dls_entity *se, int prefer);

/* migration, push and pull (smp_push.c) */
DLS_HIDDEN void dls__smp_migrate_to(struct dls_entity *se, struct dls_rq *dst,
				    bool reaffine, const struct dls_cpumask *mask);
DLS_HIDDEN void dls__smp_migrate(struct dls_entity *se, struct dls_rq *dst);
DLS_HIDDEN bool dls__smp_preempt_equal(struct dls_rq *rq,
				       const struct dls_entity *se);
DLS_HIDDEN void dls__smp_push_surplus(struct dls_rq *rq);
DLS_HIDDEN void dls__smp_pre_schedule(struct dls_rq *rq);

/* affinity and eviction (smp_affinity.c; the count of allowed CPUs is smp_rq.c's) */
DLS_HIDDEN int dls__smp_count_allowed(const struct dls_domain *dom,
				      const struct dls_cpumask *mask);
DLS_HIDDEN int dls__smp_least_loaded_cpu(const struct dls_domain *dom,
					 const struct dls_entity *se, int except);
DLS_HIDDEN enum evict_result dls__smp_evict(struct dls_entity *se,
					    struct dls_rq *dst);

#endif /* DLSCHED_SMP_IMPL_H */
