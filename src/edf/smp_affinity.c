/*
 * Affinity and moves between domains: an entity's allowed CPUs change
 * under its runqueue's lock, and an entity no longer allowed where it is
 * (or stranded on an offline CPU) is evicted to the least loaded CPU it
 * may use; dls_entity_move_domain() hands an entity to another domain,
 * whose admission decides.
 */
#include "edf/smp_impl.h"

/* Admitted bandwidth of another rq, read without its lock (a hint). */
DLS_RACY static uint64_t rq_bw_peek(const struct dls_rq *rq)
{
	return *(const volatile uint64_t *)&rq->bw.total;
}

/* The least loaded (by bandwidth per capacity) online CPU @se may use. */
int dls__smp_least_loaded_cpu(const struct dls_domain *dom, const struct dls_entity *se,
			      int except)
{
	int best = -1;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
		const struct dls_rq *r = &dom->rqs[cpu];

		if (cpu == except || !cpu_online(dom, cpu) || !allowed_on(se, cpu))
			continue;
		/* bw / capacity compared by cross-multiplication */
		if (best < 0 || dls_u128_mul_cmp(rq_bw_peek(r), dls__smp_capacity_peek(dom, best),
					     rq_bw_peek(&dom->rqs[best]),
					     dls__smp_capacity_peek(dom, cpu)) < 0)
			best = cpu;
	}
	return best;
}

/* dls__rq_requeue() step: count the CPUs of the new se->allowed. */
static void recount_allowed(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	(void)now;
	se->nr_cpus_allowed = dls__smp_count_allowed(rq->dom, se->allowed);
}

/*
 * Move @se (possibly running) off its rq to @dst; src lock held. GONE: @se
 * left src while dls__smp_double_lock had dropped src's lock (a pull took it, to a
 * CPU its affinity allows). RETRY: nothing moved, @dst is offline or no
 * longer allowed.
 */
enum evict_result dls__smp_evict(struct dls_entity *se, struct dls_rq *dst)
{
	struct dls_rq *src = se->rq;

	if (dls__smp_double_lock(src, dst) && !dls__smp_still_on(se, src)) {
		dls__rq_unlock(dst);
		return EVICT_GONE;
	}
	DLS_ASSERT(se->rq == src); /* both locks held, rechecked */
	if (!dst->online || !allowed_on(se, dst->cpu)) {
		dls__rq_unlock(dst);
		return EVICT_RETRY;
	}
	if (src->curr == se) {
		dls_put_prev(src, se);
		dls__resched(src);
	}
	DLS_ASSERT(src->curr != se && dst->online);
	dls__smp_migrate(se, dst);
	/* Placed by load, not by deadline: if it waits there, dst's next
	 * schedule pushes it on (pushing here would nest a third lock). */
	if (se->queued && !dls_check_preempt(dst, se) && dst->overloaded)
		dls__resched(dst);
	dls__rq_unlock(dst);
	return EVICT_MOVED;
}

int dls_entity_set_affinity(struct dls_entity *se, const struct dls_cpumask *mask)
{
	struct dls_rq *rq = se->rq;
	struct dls_domain *dom;
	int target;
	bool found = false;

	DLS_ASSERT(se);
	if (!rq)
		return DLS_EDETACHED;
	dom = rq->dom;
	if (mask && mask->nr_cpus != (uint32_t)dom->nr_cpus)
		return DLS_EINVAL;
	if (dom->smp) {
		for (int cpu = 0; cpu < dom->nr_cpus && !found; cpu++)
			found = cpu_online(dom, cpu) && (!mask || dls_cpumask_test(mask, cpu));
	} else {
		found = !mask || dls_cpumask_test(mask, rq->cpu);
	}
	if (!found)
		return DLS_ENOCPU;
	/* The mask is read by nothing on the way off the tree; the count is,
	 * so a queued entity is requeued around it (the migratory count and
	 * the pushable tree follow). */
	se->allowed = mask;
	if (se->queued)
		dls__rq_requeue(rq, se, dls__now(rq), recount_allowed);
	else
		recount_allowed(rq, se, 0);
	/* Stay, unless not allowed here or stranded on an offline CPU. */
	if (!dom->smp || (allowed_on(se, rq->cpu) && rq->online)) {
		/* Waiting, it may now run on a CPU it could not use before. */
		if (dom->smp && se->queued && se != rq->curr)
			dls__smp_push_surplus(rq);
		return 0;
	}
	/* dls__smp_evict() may drop our lock: then another thread may have moved the
	 * entity, or changed its affinity again (the last change wins). */
	while (!allowed_on(se, rq->cpu) || !rq->online) {
		target = dls__smp_least_loaded_cpu(dom, se, -1);
		if (target < 0)
			return DLS_ENOCPU;
		if (dls__smp_evict(se, &dom->rqs[target]) != EVICT_RETRY)
			return 0; /* moved, by us or by a pull */
	}
	return 0;
}

int dls_entity_move_domain(struct dls_entity *se, struct dls_rq *dst,
			   const struct dls_cpumask *mask)
{
	struct dls_rq *src;
	struct dls_domain *to;

	DLS_ASSERT(se && dst);
	if (mask && mask->nr_cpus != (uint32_t)dst->dom->nr_cpus)
		return DLS_EINVAL;
	src = se->rq;
	if (!src)
		return DLS_EDETACHED;
	if (src->curr == se)
		return DLS_ERUNNING;
	if (src->dom == dst->dom || se->boosted)
		return DLS_ESTATE;
	to = dst->dom;
	if (!dst->online || (mask && !dls_cpumask_test(mask, dst->cpu)))
		return DLS_ENOCPU;
	/* The source only gives bandwidth back: the destination decides
	 * (and, in a global domain, counts it from here on). */
	if (!dls__rq_admit(dst, 0, se->bw))
		return DLS_EBANDWIDTH;
	if (src->dom->smp)
		dls__bw_change(&src->dom->smp->bw, se->bw, 0, false);
	/* A throttled entity's timer moves to the other platform (a throttled
	 * entity is off the tree: the timer and the queue never both move),
	 * and so does a non-contending one's 0-lag timer. */
	if (se->timer.armed)
		src->dom->ops->timer_cancel(src->dom->ctx, &se->timer);
	if (se->inactive_timer.armed)
		src->dom->ops->timer_cancel(src->dom->ctx, &se->inactive_timer);
	dls__smp_migrate_to(se, dst, true, mask);
	if (se->timer.armed)
		to->ops->timer_arm(to->ctx, &se->timer, se->timer.expires);
	if (se->inactive_timer.armed)
		to->ops->timer_arm(to->ctx, &se->inactive_timer,
				   se->inactive_timer.expires);
	if (se->queued && !dls_check_preempt(dst, se) && dst->overloaded)
		dls__resched(dst);
	return 0;
}
