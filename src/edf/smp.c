/*
 * Global EDF across the CPUs of a domain, in the way of the SCHED_DEADLINE
 * SMP patches: each CPU keeps its own EDF runqueue; entities that another
 * CPU could run are "pushable"; a CPU with more than one queued entity and
 * a migratory one is "overloaded" and advertises it in the domain's
 * overload mask; the cpudl max-heap names the CPU running the latest
 * deadline (or an idle one) so that push finds its target in O(1).
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
 * (double_lock) rechecks what it saw before acting: the entity may have
 * moved and the destination may have gone offline.
 */
#include <dlsched/smp.h>

#include "atomic_impl.h"
#include "cbs/admission_impl.h"
#include "edf/sched_impl.h"

#define MAX_PUSH_TRIES 3

/*
 * dls_balance() repeats push and pull rounds until one moves nothing. Each
 * move puts an earlier deadline where a later one ran, so the rounds end;
 * the bound only stops a livelock should placement ever disagree with
 * itself (hints read without locks), at a count no real domain reaches.
 */
#define BALANCE_ROUNDS_MAX 1024

/* Alignment of each part carved out of dls_smp_init()'s storage: enough
 * for the u64 and pointer fields of every part (and a cache-friendly 16). */
#define STORAGE_ALIGN ((size_t)16)

static struct dls_entity *pushable_se(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct dls_entity, pushable_node);
}

static bool pushable_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls__edf_before(pushable_se(a), pushable_se(b));
}

static bool allowed_on(const struct dls_entity *se, int cpu)
{
	return !se->allowed || dls_cpumask_test(se->allowed, cpu);
}

static bool cpu_online(const struct dls_domain *dom, int cpu)
{
	return dls_cpumask_test_atomic(dom->smp->online, cpu);
}

/*
 * An entity's runqueue, read after our lock of @rq was dropped and retaken:
 * equal to @rq it is stable (leaving needs our lock); else the entity has
 * moved on, maybe again between runqueues whose locks we do not hold.
 */
DLS_RACY static bool still_on(const struct dls_entity *se, const struct dls_rq *rq)
{
	return *(struct dls_rq *const volatile *)&se->rq == rq;
}

/* Admitted bandwidth of another rq, read without its lock (a hint). */
DLS_RACY static uint64_t rq_bw_peek(const struct dls_rq *rq)
{
	return *(const volatile uint64_t *)&rq->bw_total;
}

/* Another CPU's capacity, and whether capacities differ, read without the
 * locks they are written under (hints: dls_rq_set_capacity() may run on
 * another CPU meanwhile; placement only prefers, never relies on them). */
DLS_RACY static uint32_t capacity_peek(const struct dls_domain *dom, int cpu)
{
	return *(const volatile uint32_t *)&dom->rqs[cpu].capacity;
}

DLS_RACY static bool asymmetric_peek(const struct dls_domain *dom)
{
	return *(const volatile bool *)&dom->smp->asymmetric;
}

/* ---- locking ------------------------------------------------------------ */

/*
 * Lock @other while holding @this, in CPU-id order. Returns true when the
 * lock of @this was dropped on the way, so what the caller saw must be
 * checked again.
 */
static bool double_lock(struct dls_rq *this, struct dls_rq *other)
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

/* ---- overload, pushable, cpudl -------------------------------------------- */

static void update_overload(struct dls_rq *rq)
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
	update_overload(rq);
}

static void smp_dequeued(struct dls_rq *rq, struct dls_entity *se)
{
	if (se->nr_cpus_allowed > 1)
		rq->nr_migratory--;
	pushable_remove(rq, se);
	update_overload(rq);
}

static void smp_earliest_changed(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	if (!rq->online)
		return;
	if (rq->nr_running)
		dls_cpudl_set(&smp->cpudl, rq->cpu, rq->earliest.curr);
	else
		dls_cpudl_clear(&smp->cpudl, rq->cpu);
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

/* ---- setup ---------------------------------------------------------------- */

static const struct dls_class_hooks smp_hooks; /* below, with its slots */

static size_t align_up(size_t n)
{
	return dls__align_up(n, STORAGE_ALIGN);
}

/* Capacity-aware placement is on while any CPU differs from full speed.
 * Capacities change under the bandwidth lock (or before dls_smp_init()). */
static bool capacities_differ(const struct dls_domain *dom)
{
	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		if (dom->rqs[cpu].capacity != DLS_CAPACITY_SCALE)
			return true;
	return false;
}

size_t dls_smp_size(int nr_cpus)
{
	return align_up(sizeof(struct dls_smp)) + align_up(dls_cpumask_size(nr_cpus)) * 3 +
	       align_up(dls_cpudl_size(nr_cpus));
}

int dls_smp_set_heap_lock(struct dls_domain *dom,
			  const struct dls_lock_ops *lock_ops, void *lock_ctx)
{
	if (!dom || !dom->smp || (lock_ops && (!lock_ops->lock || !lock_ops->unlock)))
		return DLS_EINVAL;
	dom->smp->cpudl.lock_ops = lock_ops;
	dom->smp->cpudl.lock_ctx = lock_ctx;
	return 0;
}

int dls_smp_init(struct dls_domain *dom, void *storage, size_t size)
{
	struct dls_smp *smp;
	char *p = storage;
	size_t msz, need;

	if (!dom || !storage)
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
	msz = align_up(dls_cpumask_size(dom->nr_cpus));
	smp->online = (struct dls_cpumask *)(void *)p;
	smp->overload = (struct dls_cpumask *)(void *)(p + msz);
	smp->span = (struct dls_cpumask *)(void *)(p + 2 * msz);
	if (dls_cpumask_init(smp->online, msz, dom->nr_cpus) ||
	    dls_cpumask_init(smp->overload, msz, dom->nr_cpus) ||
	    dls_cpumask_init(smp->span, msz, dom->nr_cpus) ||
	    dls_cpudl_init(&smp->cpudl, p + 3 * msz, size - align_up(sizeof(*smp)) - 3 * msz,
			   dom->nr_cpus, NULL, NULL))
		return DLS_EINVAL;
	dls_cpumask_fill(smp->online);
	dls_cpumask_fill(smp->span);
	smp->overload_count = 0;
	smp->asymmetric = capacities_differ(dom);
	smp->bw_total = 0;
	smp->capacity_online = 0;
	smp->bw_lock_ops = NULL;
	smp->bw_lock_ctx = NULL;
	for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
		smp->capacity_online += dom->rqs[cpu].capacity;
		dls_cpudl_online(&smp->cpudl, cpu);
	}
	dom->smp = smp;
	dom->hooks = &smp_hooks;
	return 0;
}

/* ---- admission ------------------------------------------------------------- */

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
static bool domain_bw_change(struct dls_domain *dom, uint64_t old_bw,
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
static bool domain_set_capacity(struct dls_rq *rq, uint32_t capacity)
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
		asym = capacities_differ(rq->dom);
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
static int bw_cpu_leave(struct dls_rq *rq, bool force)
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

static void bw_cpu_join(struct dls_rq *rq)
{
	struct dls_smp *smp = rq->dom->smp;

	bw_lock(smp);
	dls_cpumask_set_atomic(smp->online, rq->cpu);
	smp->capacity_online += rq->capacity;
	bw_unlock(smp);
}

/* ---- migration -------------------------------------------------------------- */

static int count_allowed(const struct dls_domain *dom, const struct dls_cpumask *mask);

/*
 * Move @se from its rq to @dst, maybe in another domain. Both locks held;
 * @se is not running. With @reaffine its affinity becomes @mask (counted in
 * @dst's domain) while it is on neither tree, so both rqs' counts follow.
 */
static void migrate_to(struct dls_entity *se, struct dls_rq *dst, bool reaffine,
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
		se->nr_cpus_allowed = count_allowed(dst->dom, mask);
	}
	dls__rq_attach(dst, se);
	se->stats.migrations++;
	if (queued) {
		se->exec_start = dls__now(dst);
		dls__rq_insert(dst, se, se->exec_start);
	}
}

/* Move @se to @dst in its domain. Both locks held; @se is not running. */
static void migrate(struct dls_entity *se, struct dls_rq *dst)
{
	migrate_to(se, dst, false, NULL);
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
	migrate(se, dst);
	return 0;
}

/* ---- placement ---------------------------------------------------------------- */

struct fit_ctx {
	const struct dls_domain *dom;
	const struct dls_entity *se;
};

/* Linux's dl_task_fits_capacity: runtime scaled to the CPU within D. */
static bool fits_cpu(void *ctx, int cpu)
{
	const struct fit_ctx *f = ctx;
	uint32_t cap = capacity_peek(f->dom, cpu);

	return dls_u128_mul_cmp(f->se->params.runtime, DLS_CAPACITY_SCALE,
			    f->se->params.deadline, cap) <= 0;
}

static uint32_t cpu_capacity(void *ctx, int cpu)
{
	return capacity_peek(((const struct fit_ctx *)ctx)->dom, cpu);
}

/*
 * latest_cpu_find of the 2012 SCHED_DEADLINE patches, over @se's allowed online CPUs: an idle one,
 * else the one running the latest deadline later than @se's, else -1.
 * O(CPUs in the mask); reads other rqs without their locks (the callers
 * check again under the lock).
 */
DLS_RACY static int later_cpu_scan(const struct dls_domain *dom,
				   const struct dls_entity *se)
{
	uint64_t key = dls__se_key(se), latest = 0;
	int best = -1, cpu;

	dls_cpumask_for_each(cpu, se->allowed) {
		const volatile struct dls_rq *r = &dom->rqs[cpu];
		uint64_t dl;

		if (!cpu_online(dom, cpu))
			continue;
		if (!r->nr_running)
			return cpu;
		dl = r->earliest.curr;
		if (dls_time_before(key, dl) && (best < 0 || dls_time_after(dl, latest))) {
			best = cpu;
			latest = dl;
		}
	}
	return best;
}

/*
 * find_later_rq: a CPU running a later deadline than @se (or nothing) among
 * those it may use; the heap's best, with @prefer winning capacity ties.
 */
static int find_later_cpu(const struct dls_domain *dom, const struct dls_entity *se,
			  int prefer)
{
	struct dls_smp *smp = dom->smp;
	struct fit_ctx fc = { dom, se };
	struct dls_cpudl_fit fit = { fits_cpu, cpu_capacity, &fc, prefer };
	/* The heap holds online CPUs only, so no entity needs the online mask
	 * here (which hotplug changes under our feet): the span will do. */
	const struct dls_cpumask *allowed = se->allowed ? se->allowed : smp->span;

	int cpu = dls_cpudl_find((struct dls_cpudl *)&smp->cpudl, allowed, dls__se_key(se),
				 asymmetric_peek(dom) ? &fit : NULL, NULL);

	/* The heap answers for its root only; when the root is not allowed,
	 * another allowed CPU may still run a later deadline. */
	if (cpu < 0 && se->allowed)
		cpu = later_cpu_scan(dom, se);
	return cpu;
}

static bool rq_is_later(const struct dls_rq *rq, const struct dls_entity *se)
{
	return !rq->nr_running || dls_time_before(dls__se_key(se), rq->earliest.curr);
}

/*
 * Would @se wait behind what @rq runs (its current entity is pinned, or
 * not later than @se)? Reads another CPU's current entity without its lock.
 */
DLS_RACY static bool curr_blocks_peek(const struct dls_rq *rq, uint64_t key)
{
	const struct dls_entity *curr = ((const volatile struct dls_rq *)rq)->curr;
	const volatile struct dls_entity *c = curr;

	if (!c)
		return false;
	return c->nr_cpus_allowed < 2 ||
	       !dls_time_before(key, c->boosted ? c->pi_deadline : c->deadline);
}

/* rq_is_later() without @rq's lock. */
DLS_RACY static bool is_later_peek(const struct dls_rq *rq, uint64_t key)
{
	const volatile struct dls_rq *v = rq;

	return !v->nr_running || dls_time_before(key, v->earliest.curr);
}

int dls_select_cpu(const struct dls_domain *dom, const struct dls_entity *se,
		   int prev_cpu)
{
	int cpu;

	if (!dom->smp)
		return prev_cpu;
	if (prev_cpu < 0 || prev_cpu >= dom->nr_cpus || !cpu_online(dom, prev_cpu) ||
	    !allowed_on(se, prev_cpu)) {
		cpu = find_later_cpu(dom, se, -1);
		if (cpu >= 0)
			return cpu;
		/* Nothing later: any allowed online CPU. */
		for (cpu = 0; cpu < dom->nr_cpus; cpu++)
			if (cpu_online(dom, cpu) && allowed_on(se, cpu))
				return cpu;
		return DLS_ENOCPU;
	}
	/* Stay unless it would wait behind an earlier entity there, or it does
	 * not fit the CPU's capacity (Linux's select_task_rq_dl). */
	if (se->nr_cpus_allowed > 1 &&
	    (curr_blocks_peek(&dom->rqs[prev_cpu], dls__se_key(se)) ||
	     (asymmetric_peek(dom) && !fits_cpu(&(struct fit_ctx){ dom, se }, prev_cpu)))) {
		cpu = find_later_cpu(dom, se, prev_cpu);
		if (cpu >= 0 && is_later_peek(&dom->rqs[cpu], dls__se_key(se)))
			return cpu;
	}
	return prev_cpu;
}

/* ---- push and pull -------------------------------------------------------------- */

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
		int cpu = find_later_cpu(dom, se, -1);
		struct dls_rq *later;

		if (cpu < 0 || cpu == rq->cpu)
			return NULL;
		later = &dom->rqs[cpu];
		if (double_lock(rq, later)) {
			/* Our lock was dropped: is the entity still ours to push? */
			if (!still_on(se, rq) || !se->queued || se == rq->curr ||
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
static bool smp_preempt_equal(struct dls_rq *rq, const struct dls_entity *se)
{
	struct dls_entity *curr = rq->curr;
	int cpu;

	if (curr->nr_cpus_allowed < 2)
		return false;
	cpu = find_later_cpu(rq->dom, curr, -1);
	if (cpu < 0 || cpu == rq->cpu)
		return false;
	if (se->nr_cpus_allowed > 1) {
		cpu = find_later_cpu(rq->dom, se, -1);
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
		int cpu = find_later_cpu(rq->dom, next, -1);
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
	migrate(next, later);
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
		if (double_lock(rq, src) && !rq->online) {
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
				migrate(p, rq);
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
static void push_surplus(struct dls_rq *rq)
{
	while (dls_push(rq))
		;
}

/* pre_schedule: pull earlier work from overloaded CPUs. */
static void pre_schedule(struct dls_rq *rq)
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

/* ---- affinity ---------------------------------------------------------------------- */

static int count_allowed(const struct dls_domain *dom, const struct dls_cpumask *mask)
{
	int n = 0;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++)
		n += !mask || dls_cpumask_test(mask, cpu);
	return n;
}

/* The least loaded (by bandwidth per capacity) online CPU @se may use. */
static int least_loaded_cpu(const struct dls_domain *dom, const struct dls_entity *se,
			    int except)
{
	int best = -1;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
		const struct dls_rq *r = &dom->rqs[cpu];

		if (cpu == except || !cpu_online(dom, cpu) || !allowed_on(se, cpu))
			continue;
		/* bw / capacity compared by cross-multiplication */
		if (best < 0 || dls_u128_mul_cmp(rq_bw_peek(r), capacity_peek(dom, best),
					     rq_bw_peek(&dom->rqs[best]),
					     capacity_peek(dom, cpu)) < 0)
			best = cpu;
	}
	return best;
}

/* dls__rq_requeue() step: count the CPUs of the new se->allowed. */
static void recount_allowed(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	(void)now;
	se->nr_cpus_allowed = count_allowed(rq->dom, se->allowed);
}

enum evict_result { EVICT_MOVED, EVICT_GONE, EVICT_RETRY };

/*
 * Move @se (possibly running) off its rq to @dst; src lock held. GONE: @se
 * left src while double_lock had dropped src's lock (a pull took it, to a
 * CPU its affinity allows). RETRY: nothing moved, @dst is offline or no
 * longer allowed.
 */
static enum evict_result evict(struct dls_entity *se, struct dls_rq *dst)
{
	struct dls_rq *src = se->rq;

	if (double_lock(src, dst) && !still_on(se, src)) {
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
	migrate(se, dst);
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
			push_surplus(rq);
		return 0;
	}
	/* evict() may drop our lock: then another thread may have moved the
	 * entity, or changed its affinity again (the last change wins). */
	while (!allowed_on(se, rq->cpu) || !rq->online) {
		target = least_loaded_cpu(dom, se, -1);
		if (target < 0)
			return DLS_ENOCPU;
		if (evict(se, &dom->rqs[target]) != EVICT_RETRY)
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
		domain_bw_change(src->dom, se->bw, 0, false);
	/* A throttled entity's timer moves to the other platform (a throttled
	 * entity is off the tree: the timer and the queue never both move). */
	if (se->timer.armed)
		src->dom->ops->timer_cancel(src->dom->ctx, &se->timer);
	migrate_to(se, dst, true, mask);
	if (se->timer.armed)
		to->ops->timer_arm(to->ctx, &se->timer, se->timer.expires);
	if (se->queued && !dls_check_preempt(dst, se) && dst->overloaded)
		dls__resched(dst);
	return 0;
}

/* ---- hotplug ---------------------------------------------------------------------------- */

int dls_cpu_offline(struct dls_domain *dom, int cpu, bool force,
		    dls_stranded_fn stranded, void *arg)
{
	struct dls_smp *smp = dom->smp;
	struct dls_rq *rq;
	struct dls_entity *se, *next;
	int rc;

	if (!smp || cpu < 0 || cpu >= dom->nr_cpus)
		return DLS_EINVAL;
	rq = &dom->rqs[cpu];
	dls__rq_lock(rq);
	rc = rq->online ? bw_cpu_leave(rq, force) : DLS_ESTATE;
	if (rc) {
		dls__rq_unlock(rq);
		return rc;
	}
	/* Leave the masks and the heap first, so nobody pushes to it. */
	rq->online = false;
	update_overload(rq);
	dls_cpudl_offline(&smp->cpudl, cpu);
	if (rq->curr) {
		dls_put_prev(rq, rq->curr);
		dls__resched(rq);
	}
	/* evict() may drop our lock, and a pull may then take entities off
	 * the list: rescan from the head after every move. */
	for (bool moved = true; moved;) {
		moved = false;
		for (se = rq->attached; se; se = se->attached_next) {
			int target = least_loaded_cpu(dom, se, cpu);

			if (target >= 0) {
				evict(se, &dom->rqs[target]);
				moved = true;
				break; /* se may be elsewhere now: do not follow it */
			}
		}
	}
	for (se = rq->attached; se; se = next) {
		next = se->attached_next;
		DLS_ASSERT(se->rq == rq); /* our lock is held again: stable */
		if (stranded)
			stranded(arg, se);
	}
	dls__rq_unlock(rq);
	return 0;
}

int dls_cpu_online(struct dls_domain *dom, int cpu)
{
	struct dls_smp *smp = dom->smp;
	struct dls_rq *rq;

	if (!smp || cpu < 0 || cpu >= dom->nr_cpus)
		return DLS_EINVAL;
	rq = &dom->rqs[cpu];
	dls__rq_lock(rq);
	if (rq->online) {
		dls__rq_unlock(rq);
		return DLS_ESTATE;
	}
	dls_cpudl_online(&smp->cpudl, cpu);
	bw_cpu_join(rq);
	rq->online = true;
	smp_earliest_changed(rq);
	update_overload(rq);
	/* Entities stranded on other offline CPUs that may use this one come
	 * here too (nothing runs on an offline CPU, so none is current). */
	for (int o = 0; o < dom->nr_cpus; o++) {
		struct dls_rq *src = &dom->rqs[o];
		struct dls_entity *se, *next;

		if (o == cpu || cpu_online(dom, o))
			continue;
		/* Our lock may drop on the way: recheck both states. */
		if (double_lock(rq, src) && !rq->online) {
			dls__rq_unlock(src);
			break;
		}
		DLS_ASSERT(rq->online);
		for (se = src->attached; se && !src->online; se = next) {
			next = se->attached_next;
			DLS_ASSERT(se->rq == src); /* src locked: its list is stable */
			if (allowed_on(se, cpu) && src->curr != se)
				migrate(se, rq);
		}
		dls__rq_unlock(src);
	}
	dls__resched(rq);
	dls__rq_unlock(rq);
	return 0;
}

/* ---- the runqueue's hooks ----------------------------------------------------------------- */

static const struct dls_class_hooks smp_hooks = {
	.enqueued = smp_enqueued,
	.dequeued = smp_dequeued,
	.earliest_changed = smp_earliest_changed,
	.set_curr = smp_set_curr,
	.put_prev = smp_put_prev,
	.preempt_equal = smp_preempt_equal,
	.pre_schedule = pre_schedule,
	.push_surplus = push_surplus,
	.bw_change = domain_bw_change,
	.set_capacity = domain_set_capacity,
};

/* ---- validators ---------------------------------------------------------------------------- */

const char *dls_domain_check(const struct dls_domain *dom)
{
	const struct dls_smp *smp = dom->smp;
	unsigned long overloaded = 0;
	const char *err;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
		const struct dls_rq *rq = &dom->rqs[cpu];
		unsigned int migratory = 0, pushable = 0;
		uint64_t dl;

		err = dls_rq_check(rq);
		if (err)
			return err;
		if (!smp)
			continue;
		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
			const struct dls_entity *se = dls__node_se(n);
			bool want = se->nr_cpus_allowed > 1 && se != rq->curr;

			migratory += se->nr_cpus_allowed > 1;
			if (want != dls_rb_node_on_tree(&se->pushable_node))
				return "pushable tree membership differs from the rule";
			pushable += want;
		}
		if (migratory != rq->nr_migratory)
			return "nr_migratory differs from the queued migratory entities";
		err = dls_rb_check_cached(&rq->pushable, pushable_less);
		if (err)
			return err;
		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->pushable); n; n = dls_rb_next(n))
			pushable--;
		if (pushable)
			return "pushable tree holds entities that are not pushable";
		if (rq->overloaded != (rq->nr_migratory > 0 && rq->nr_running > 1 && rq->online))
			return "overloaded flag differs from the rule";
		if (rq->overloaded != dls_cpumask_test(smp->overload, cpu))
			return "overload mask differs from the overloaded flags";
		overloaded += rq->overloaded;
		if (rq->online != dls_cpumask_test(smp->online, cpu))
			return "online mask differs from the runqueues";
		if (rq->online && rq->nr_running) {
			if (!dls_cpudl_deadline((struct dls_cpudl *)&smp->cpudl, cpu, &dl) ||
			    dl != rq->earliest.curr)
				return "cpudl heap key differs from the CPU's earliest deadline";
		} else if (dls_cpudl_deadline((struct dls_cpudl *)&smp->cpudl, cpu, &dl)) {
			return "cpudl heap holds a CPU with nothing queued or offline";
		}
	}
	if (smp) {
		uint64_t bw = 0, cap = 0;

		for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
			bw += dom->rqs[cpu].bw_total;
			cap += dom->rqs[cpu].online ? dom->rqs[cpu].capacity : 0;
		}
		if (bw != smp->bw_total)
			return "domain bandwidth differs from the runqueues' sum";
		if (cap != smp->capacity_online)
			return "online capacity differs from the online CPUs' sum";
		if (capacities_differ(dom) != smp->asymmetric)
			return "asymmetric flag differs from the CPU capacities";
		if (overloaded != smp->overload_count)
			return "overload count differs from the overload mask";
		err = dls_cpudl_check(&smp->cpudl);
		if (err)
			return err;
	}
	return NULL;
}

const char *dls_domain_check_global_edf(const struct dls_domain *dom)
{
	for (int src = 0; src < dom->nr_cpus; src++) {
		const struct dls_rq *rq = &dom->rqs[src];

		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
			const struct dls_entity *se = dls__node_se(n);

			if (se == rq->curr)
				continue;
			for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
				const struct dls_rq *c = &dom->rqs[cpu];

				if (!c->online || !allowed_on(se, cpu))
					continue;
				if (!c->curr)
					return "an entity waits while a CPU it may use is idle";
				if (dls_time_before(dls__se_key(se), dls__se_key(c->curr)))
					return "an entity waits while a CPU it may use runs a later deadline";
			}
		}
	}
	return NULL;
}
