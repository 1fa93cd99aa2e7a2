/*
 * Internals shared by the EDF runqueue (src/edf/) and the CBS rules
 * (src/cbs/). Never installed.
 */
#ifndef DLSCHED_SCHED_IMPL_H
#define DLSCHED_SCHED_IMPL_H

#include <dlsched/math128.h>
#include <dlsched/sched.h>

#include "internal.h"

/* The key the EDF tree orders by: the inherited deadline while boosted. */
static inline uint64_t dls__se_key(const struct dls_entity *se)
{
	return se->boosted ? se->pi_deadline : se->deadline;
}

static inline struct dls_entity *dls__node_se(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct dls_entity, node);
}

/*
 * Entry guards: the state checks every public entry point makes before it
 * changes anything, on in every build (the kernel's WARN_ON_ONCE guards).
 * The error for an entity that is not on @rq is worked out off the fast
 * path.
 */
static inline int dls__se_rq_err(const struct dls_entity *se)
{
	return se->rq ? DLS_EOTHERRQ : DLS_EDETACHED;
}

static inline uint64_t dls__now(const struct dls_rq *rq)
{
	return rq->dom->ops->now(rq->dom->ctx, rq->cpu);
}

static inline void dls__trace(const struct dls_rq *rq, enum dls_trace_type type,
			      const struct dls_entity *se, uint64_t now)
{
	const struct dls_ops *ops = rq->dom->ops;

	if (DLS_UNLIKELY(ops->trace != NULL)) {
		struct dls_trace_event ev = {
			.type = type, .cpu = rq->cpu, .now = now, .se = se,
			.deadline = se->deadline, .runtime = se->runtime,
		};
		ops->trace(rq->dom->ctx, &ev);
	}
}

/* Admission (src/cbs/params.c, src/edf/smp.c). dls__rq_admit() checks a
 * change of an entity's bandwidth on @rq and, in a global domain, commits
 * it to the domain's sum in the same critical section. */
DLS_HIDDEN bool dls__rq_admit(struct dls_rq *rq, uint64_t old_bw, uint64_t new_bw);
DLS_HIDDEN bool dls__domain_bw_change(struct dls_domain *dom, uint64_t old_bw,
				      uint64_t new_bw, bool check);
DLS_HIDDEN bool dls__domain_set_capacity(struct dls_rq *rq, uint32_t capacity);

/* Attached-entity list and bandwidth (src/edf/rq.c). */
DLS_HIDDEN void dls__rq_attach(struct dls_rq *rq, struct dls_entity *se);
DLS_HIDDEN void dls__rq_detach(struct dls_rq *rq, struct dls_entity *se);

/* Global scheduling hooks (src/edf/smp.c); no-ops without dom->smp. */
DLS_HIDDEN void dls__smp_enqueued(struct dls_rq *rq, struct dls_entity *se);
DLS_HIDDEN void dls__smp_dequeued(struct dls_rq *rq, struct dls_entity *se);
DLS_HIDDEN void dls__smp_earliest_changed(struct dls_rq *rq);
DLS_HIDDEN void dls__smp_set_curr(struct dls_rq *rq, struct dls_entity *se);
DLS_HIDDEN void dls__smp_put_prev(struct dls_rq *rq, struct dls_entity *se);
DLS_HIDDEN bool dls__smp_check_preempt_equal(struct dls_rq *rq,
					     const struct dls_entity *se);

/* EDF tree (src/edf/rq.c). */
DLS_HIDDEN void dls__rq_insert(struct dls_rq *rq, struct dls_entity *se, uint64_t now);
DLS_HIDDEN void dls__rq_erase(struct dls_rq *rq, struct dls_entity *se, uint64_t now);
DLS_HIDDEN void dls__resched(struct dls_rq *rq);

/* CBS rules (src/cbs/cbs.c), each named after the rule it implements. */
DLS_HIDDEN void dls__cbs_new_instance(struct dls_rq *rq, struct dls_entity *se,
				      uint64_t now);
DLS_HIDDEN void dls__cbs_wakeup(struct dls_rq *rq, struct dls_entity *se,
				uint64_t now);
DLS_HIDDEN void dls__cbs_replenish(struct dls_rq *rq, struct dls_entity *se,
				   uint64_t now);
DLS_HIDDEN void dls__cbs_account(struct dls_rq *rq, struct dls_entity *se,
				 uint64_t now);
DLS_HIDDEN void dls__cbs_throttle(struct dls_rq *rq, struct dls_entity *se,
				  uint64_t now);
DLS_HIDDEN void dls__cbs_avg_update(struct dls_rq *rq, uint64_t delta,
				    uint64_t now);

#endif /* DLSCHED_SCHED_IMPL_H */
