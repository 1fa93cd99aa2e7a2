/*
 * Internals of the EDF runqueue (src/edf/), which applies the CBS and GRUB
 * rules of src/cbs/ (those include none of this). Never installed.
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

/*
 * An expiry of @t on @rq that is due: false for a stale one (the timer was
 * cancelled, or the entity left) and for an early one, which is armed
 * again for its instant; true, with *@now read and @t disarmed, otherwise.
 */
static inline bool dls__timer_due(struct dls_rq *rq, struct dls_timer *t,
				  uint64_t *now)
{
	if (!rq || !t->armed)
		return false;
	*now = dls__now(rq);
	if (dls_time_before(*now, t->expires)) {
		rq->dom->ops->timer_arm(rq->dom->ctx, t, t->expires);
		return false;
	}
	t->armed = false;
	return true;
}

/*
 * The EDF order: earlier key first, equal keys by the sequence number taken
 * at insertion (FIFO). The EDF tree and the pushable tree both sort by it.
 */
static inline bool dls__edf_before(const struct dls_entity *x,
				   const struct dls_entity *y)
{
	uint64_t kx = dls__se_key(x), ky = dls__se_key(y);

	if (kx != ky)
		return dls_time_before(kx, ky);
	return x->seq < y->seq;
}

/*
 * Class hooks: what the runqueue asks of global scheduling, in the places
 * Linux's sched_class calls its SMP callbacks. dom->hooks is NULL while each
 * CPU is scheduled on its own; dls_smp_init() installs the table of
 * src/edf/smp.c together with dom->smp, so a program that never calls it
 * links no SMP code. Every slot is filled. Callers test dom->smp and then
 * call through dom->hooks: on one CPU a hook site costs one compare with
 * memory, as the direct calls it replaced did. All run with @rq's lock held.
 */
struct dls_class_hooks {
	/* @se joined / left @rq's EDF tree (counts, pushable tree, overload). */
	void (*enqueued)(struct dls_rq *rq, struct dls_entity *se);
	void (*dequeued)(struct dls_rq *rq, struct dls_entity *se);
	/* rq->earliest changed (the cpudl heap follows). */
	void (*earliest_changed)(struct dls_rq *rq);
	/* @se became current / stopped being current (pushable tree). */
	void (*set_curr)(struct dls_rq *rq, struct dls_entity *se);
	void (*put_prev)(struct dls_rq *rq, struct dls_entity *se);
	/* @se, queued, has the current entity's deadline: should they swap? */
	bool (*preempt_equal)(struct dls_rq *rq, const struct dls_entity *se);
	/* Before picking: pull earlier work from overloaded CPUs. */
	void (*pre_schedule)(struct dls_rq *rq);
	/* After picking, a wake-up or a replenishment: push what another CPU
	 * should run (post_schedule, task_woken). */
	void (*push_surplus)(struct dls_rq *rq);
};

/* Whether any CPU of @dom runs below full speed (src/edf/domain.c). */
DLS_HIDDEN bool dls__capacities_differ(const struct dls_domain *dom);

/* The runqueue's check of an entity's bandwidth change (src/edf/domain.c):
 * per runqueue, or domain-wide committed in the same critical section in a
 * global domain; the rule is src/cbs/admission.c's. */
DLS_HIDDEN bool dls__rq_admit(struct dls_rq *rq, uint64_t old_bw, uint64_t new_bw);

/* Attached-entity list and bandwidth (src/edf/entity.c). */
DLS_HIDDEN void dls__rq_attach(struct dls_rq *rq, struct dls_entity *se);
DLS_HIDDEN void dls__rq_detach(struct dls_rq *rq, struct dls_entity *se);

/* EDF tree (src/edf/rq.c). dls__rq_requeue() takes @se off the tree, lets
 * @change (may be NULL) alter what it is sorted or counted by, and puts it
 * back behind its equals. */
DLS_HIDDEN void dls__rq_insert(struct dls_rq *rq, struct dls_entity *se, uint64_t now);
DLS_HIDDEN void dls__rq_erase(struct dls_rq *rq, struct dls_entity *se, uint64_t now);
DLS_HIDDEN void dls__rq_requeue(struct dls_rq *rq, struct dls_entity *se,
				uint64_t now,
				void (*change)(struct dls_rq *rq,
					       struct dls_entity *se,
					       uint64_t now));
DLS_HIDDEN void dls__resched(struct dls_rq *rq);

/* The per-runqueue lock through the platform's lock op (none = a single
 * thread drives the domain). */
static inline void dls__rq_lock(struct dls_rq *rq)
{
	const struct dls_ops *ops = rq->dom->ops;

	if (ops->lock)
		ops->lock(rq->dom->ctx, rq->cpu);
}

static inline void dls__rq_unlock(struct dls_rq *rq)
{
	const struct dls_ops *ops = rq->dom->ops;

	if (ops->unlock)
		ops->unlock(rq->dom->ctx, rq->cpu);
}

/* The CBS rules applied (src/edf/rq.c): the charge of the time @se ran
 * until @now (update_curr), and a replenishment (also a dls__rq_requeue()
 * step). */
DLS_HIDDEN void dls__rq_charge(struct dls_rq *rq, struct dls_entity *se,
			       uint64_t now);
DLS_HIDDEN void dls__rq_replenish(struct dls_rq *rq, struct dls_entity *se,
				  uint64_t now);
/* A fresh instance (now + D, Q) for an entity off the tree: a deferred
 * server's start (src/server/server.c). */
DLS_HIDDEN void dls__rq_fresh_instance(struct dls_rq *rq, struct dls_entity *se,
				       uint64_t now);

/* GRUB applied (src/edf/rq.c): charge a reclaiming current entity at the
 * rate in force until @now, before the bandwidth sums change. */
DLS_HIDDEN void dls__rq_settle(struct dls_rq *rq, uint64_t now);
/* dls_domain_check()'s part: a global domain's nr_reclaiming against its
 * attached entities. */
DLS_HIDDEN const char *dls__rq_reclaiming_check(const struct dls_domain *dom);

/* Cancel @t, an entity's timer on @rq, if armed. */
static inline void dls__timer_cancel(struct dls_rq *rq, struct dls_timer *t)
{
	if (t->armed) {
		t->armed = false;
		rq->dom->ops->timer_cancel(rq->dom->ctx, t);
	}
}

/* @se's bandwidth leaves running_bw (GRUB's inactive state). */
static inline void dls__grub_make_inactive(struct dls_rq *rq,
					   struct dls_entity *se)
{
	rq->bw.running -= se->bw;
	se->bw_state = DLS_BW_INACTIVE;
}

#endif /* DLSCHED_SCHED_IMPL_H */
