/*
 * Migration, push and pull (the SCHED_DEADLINE SMP rules): a CPU pushes
 * the earliest of its waiting migratory entities to the CPU running the
 * latest deadline when that deadline is later; a CPU about to pick pulls
 * from overloaded CPUs an entity earlier than its own earliest. A path
 * that drops its lock on the way to another (dls__smp_double_lock())
 * checks again what it saw before it moves anything.
 */
#include "edf/smp_impl.h"

/* find_lock_later_rq() gives up after this many CPUs that stopped being
 * later while it took their locks (Linux's DL_MAX_TRIES). */
#define MAX_PUSH_TRIES 3

/*
 * dls_balance() repeats push and pull rounds until one moves nothing. Each
 * move puts an earlier deadline where a later one ran, so the rounds end;
 * the bound only stops a livelock should placement ever disagree with
 * itself (hints read without locks), at a count no real domain reaches.
 */
#define BALANCE_ROUNDS_MAX 1024

/*
 * Move @se from its rq to @dst, maybe in another domain. Both locks held;
 * @se is not running. With @reaffine its affinity becomes @mask (counted in
 * @dst's domain) while it is on neither tree, so both rqs' counts follow.
 */
void dls__smp_migrate_to(struct dls_entity *se, struct dls_rq *dst, bool reaffine,
			 const struct dls_cpumask *mask)
{
	struct dls_rq *src = se->rq;
	bool queued = se->queued;
	uint64_t now;

	if (src == dst)
		return;
	now = dls__now(src);
	if (queued)
		dls__rq_erase(src, se, now);
	dls__rq_detach(src, se);
	if (reaffine) {
		se->allowed = mask;
		se->nr_cpus_allowed = dls__smp_count_allowed(dst->dom, mask);
	}
	dls__rq_attach(dst, se);
	se->stats.migrations++;
	if (queued) {
		se->exec_start = dls__now(dst);
		dls__rq_insert(dst, se, se->exec_start);
	}
}

/* Move @se to @dst in its domain. Both locks held; @se is not running. */
void dls__smp_migrate(struct dls_entity *se, struct dls_rq *dst)
{
	dls__smp_migrate_to(se, dst, false, NULL);
}

int dls_entity_move(struct dls_entity *se, struct dls_rq *dst)
{
	DLS_ASSERT(se && dst);
	if (!se->rq)
		return DLS_EDETACHED;
	if (se->rq->dom != dst->dom || !dst->dom->smp)
		return DLS_ESTATE;
	if (se->rq->curr == se)
		return DLS_ERUNNING;
	if (!dst->online || !allowed_on(se, dst->cpu))
		return DLS_ENOCPU;
	dls__smp_migrate(se, dst);
	return 0;
}

static bool rq_is_later(const struct dls_rq *rq, const struct dls_entity *se)
{
	return !rq->nr_running || dls_time_before(dls__se_key(se), rq->earliest.curr);
}

static struct dls_entity *first_pushable(const struct dls_rq *rq)
{
	struct dls_rb_node *n = dls_rb_first_cached(&rq->pushable);

	return n ? pushable_se(n) : NULL;
}

/* find_lock_later_rq: a later CPU for @se, locked, with everything rechecked
 * after any lock drop; NULL after MAX_PUSH_TRIES attempts. */
static struct dls_rq *find_lock_later_rq(struct dls_rq *rq, struct dls_entity *se)
{
	struct dls_domain *dom = rq->dom;

	for (int tries = 0; tries < MAX_PUSH_TRIES; tries++) {
		int cpu = dls__smp_find_later_cpu(dom, se, -1);
		struct dls_rq *later;

		if (cpu < 0 || cpu == rq->cpu)
			return NULL;
		later = &dom->rqs[cpu];
		if (dls__smp_double_lock(rq, later)) {
			/* Our lock was dropped: is the entity still ours to push? */
			if (!dls__smp_still_on(se, rq) || !se->queued || se == rq->curr ||
			    !allowed_on(se, cpu) || !cpu_online(dom, cpu)) {
				dls__rq_unlock(later);
				return NULL;
			}
		}
		if (rq_is_later(later, se) && later->online) {
			/* Both locks held, rechecked: ours to move, and there. */
			DLS_ASSERT(se->rq == rq && se->queued && se != rq->curr);
			DLS_ASSERT(allowed_on(se, later->cpu));
			return later;
		}
		dls__rq_unlock(later);
	}
	return NULL;
}

/*
 * check_preempt_equal_dl: @se, queued here, has the deadline of the current
 * entity. When the current one could run elsewhere and @se could not, @se
 * should run here: requeue the current one behind it (FIFO among equal
 * deadlines) and reschedule, so that the next dls_schedule() picks @se and
 * pushes the other to the later CPU.
 */
bool dls__smp_preempt_equal(struct dls_rq *rq, const struct dls_entity *se)
{
	struct dls_entity *curr = rq->curr;
	int cpu;

	if (curr->nr_cpus_allowed < 2)
		return false;
	cpu = dls__smp_find_later_cpu(rq->dom, curr, -1);
	if (cpu < 0 || cpu == rq->cpu)
		return false;
	if (se->nr_cpus_allowed > 1) {
		cpu = dls__smp_find_later_cpu(rq->dom, se, -1);
		if (cpu >= 0 && cpu != rq->cpu)
			return false; /* @se can go there itself */
	}
	dls_update_curr(rq);
	if (curr->queued)
		dls__rq_requeue(rq, curr, dls__now(rq), NULL);
	dls__resched(rq);
	return true;
}

bool dls_push(struct dls_rq *rq)
{
	struct dls_entity *next;
	struct dls_rq *later;

	if (!rq->dom->smp || !rq->overloaded)
		return false;
	next = first_pushable(rq);
	if (!next)
		return false;
	/* It should preempt our own current entity: reschedule here instead. */
	if (rq->curr && rq->curr->queued &&
	    dls_time_before(dls__se_key(next), dls__se_key(rq->curr))) {
		dls__resched(rq);
		return false;
	}
	/* With affinities the earliest may have nowhere to go while a later
	 * one has: try the next ones, up to the first allowed everywhere (if
	 * that one finds no CPU, no later entity can). */
	while (next->allowed) {
		int cpu = dls__smp_find_later_cpu(rq->dom, next, -1);
		struct dls_rb_node *n;

		if (cpu >= 0 && cpu != rq->cpu)
			break;
		n = dls_rb_next(&next->pushable_node);
		if (!n)
			return false;
		next = pushable_se(n);
	}
	later = find_lock_later_rq(rq, next);
	if (!later)
		return false;
	dls__smp_migrate(next, later);
	dls__resched(later);
	dls__rq_unlock(later);
	return true;
}

/* The earliest pushable entity of @src that may run on @cpu. */
static struct dls_entity *pick_pullable(const struct dls_rq *src, int cpu)
{
	for (struct dls_rb_node *n = dls_rb_first_cached(&src->pushable); n;
	     n = dls_rb_next(n)) {
		struct dls_entity *se = pushable_se(n);

		if (allowed_on(se, cpu))
			return se;
	}
	return NULL;
}

/* Could @src's second entity beat our earliest? Read without src's lock. */
DLS_RACY static bool pull_peek(const struct dls_rq *rq, const struct dls_rq *src)
{
	const volatile struct dls_rq *v = src;

	if (v->nr_running < 2)
		return false;
	return !rq->nr_running || dls_time_before(v->earliest.next, rq->earliest.curr);
}

bool dls_pull(struct dls_rq *rq)
{
	struct dls_domain *dom = rq->dom;
	struct dls_smp *smp = dom->smp;
	bool moved = false;
	int cpu;

	if (!smp || !rq->online || !dls__atomic_load_acquire(&smp->overload_count))
		return false;
	dls_cpumask_for_each_atomic(cpu, smp->overload) {
		struct dls_rq *src = &dom->rqs[cpu];
		struct dls_entity *p;

		if (src == rq || !pull_peek(rq, src))
			continue;
		if (dls__smp_double_lock(rq, src) && !rq->online) {
			/* Went offline while our lock was dropped: pull nothing. */
			dls__rq_unlock(src);
			break;
		}
		DLS_ASSERT(rq->online);
		if (src->nr_running >= 2) {
			p = pick_pullable(src, rq->cpu);
			if (p && (!rq->nr_running ||
				  dls_time_before(dls__se_key(p), rq->earliest.curr)) &&
			    !(src->curr && src->curr->queued &&
			      dls_time_before(dls__se_key(p), dls__se_key(src->curr)))) {
				/* p is not about to preempt there: take it. */
				DLS_ASSERT(p->rq == src && p->queued && p != src->curr);
				DLS_ASSERT(allowed_on(p, rq->cpu));
				dls__smp_migrate(p, rq);
				moved = true;
			}
		}
		dls__rq_unlock(src);
	}
	if (moved)
		dls__resched(rq);
	return moved;
}

/* post_schedule and task_woken: push until nothing moves. */
void dls__smp_push_surplus(struct dls_rq *rq)
{
	while (dls_push(rq))
		;
}

/* dls__smp_pre_schedule: pull earlier work from overloaded CPUs. */
void dls__smp_pre_schedule(struct dls_rq *rq)
{
	(void)dls_pull(rq);
}

unsigned int dls_balance(struct dls_domain *dom)
{
	unsigned int moves = 0, round;

	if (!dom->smp)
		return 0;
	for (round = 0; round < BALANCE_ROUNDS_MAX; round++) {
		unsigned int before = moves;

		for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
			while (dls_push(&dom->rqs[cpu]))
				moves++;
		for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
			moves += dls_pull(&dom->rqs[cpu]);
		if (moves == before)
			break;
	}
	return moves;
}
