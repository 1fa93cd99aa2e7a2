/*
 * Priority and deadline inheritance (the rt_mutex design with rb-trees of
 * waiters, as the 2012 SCHED_DEADLINE patches made it, extended with deadline
 * inheritance).
 *
 * Invariants (dls_pi_check()):
 *  - a mutex with waiters has an owner; every waiter's key equals its
 *    task's effective key;
 *  - an owner's pi-waiters tree holds exactly the top waiter of each mutex
 *    it owns that has waiters;
 *  - eff(T) = the best of own(T) and the key of T's top pi-waiter; hence
 *    eff(T) is the best own key over T and everything blocked behind T,
 *    transitively.
 * The chain walk is iterative and bounded by max_depth; a lock request
 * that would close a cycle is refused before anything changes.
 */
#include <dlsched/pi.h>
#include <dlsched/types.h>

#include "internal.h"

bool dls_pi_key_before(const struct dls_pi_key *a, const struct dls_pi_key *b)
{
	if (a->has_dl != b->has_dl)
		return a->has_dl;
	if (a->has_dl && a->dl != b->dl)
		return dls_time_before(a->dl, b->dl);
	return a->prio < b->prio;
}

static bool key_equal(const struct dls_pi_key *a, const struct dls_pi_key *b)
{
	return a->has_dl == b->has_dl && a->prio == b->prio &&
	       (!a->has_dl || a->dl == b->dl);
}

static struct dls_pi_waiter *lock_waiter(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct dls_pi_waiter, lock_node);
}

static struct dls_pi_waiter *pi_waiter(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct dls_pi_waiter, pi_node);
}

static bool waiter_before(const struct dls_pi_waiter *a, const struct dls_pi_waiter *b)
{
	if (dls_pi_key_before(&a->key, &b->key))
		return true;
	if (dls_pi_key_before(&b->key, &a->key))
		return false;
	return a->seq < b->seq;
}

static bool lock_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return waiter_before(lock_waiter(a), lock_waiter(b));
}

static bool pi_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return waiter_before(pi_waiter(a), pi_waiter(b));
}

static struct dls_pi_waiter *top_waiter(const struct dls_pi_mutex *m)
{
	struct dls_rb_node *n = dls_rb_first_cached(&m->waiters);

	return n ? lock_waiter(n) : NULL;
}

void dls_pi_ctx_init(struct dls_pi_ctx *pi, const struct dls_pi_ops *ops, void *ctx)
{
	pi->ops = ops;
	pi->ctx = ctx;
	pi->max_depth = DLS_PI_MAX_DEPTH;
	pi->seq = 0;
	DLS__CLEAR_RESERVED(pi);
	DLS_ASSERT(!ops || dls__slots_null(ops->reserved, DLS__NR(ops->reserved)));
}

void dls_pi_task_init(struct dls_pi_task *t, int prio, bool has_dl, uint64_t dl)
{
	t->own.has_dl = has_dl;
	t->own.dl = has_dl ? dl : 0;
	t->own.prio = prio;
	t->eff = t->own;
	t->boosted = false;
	t->donor = NULL;
	dls_rb_root_cached_init(&t->pi_waiters);
	t->blocked_on = NULL;
	DLS__CLEAR_RESERVED(t);
}

void dls_pi_mutex_init(struct dls_pi_mutex *m)
{
	dls_rb_root_cached_init(&m->waiters);
	m->owner = NULL;
	DLS__CLEAR_RESERVED(m);
}

/*
 * eff = best of own and the top pi-waiter. The integrator hears of a change
 * of eff or of boosted: an owner whose own key moves past an equal
 * inherited one keeps eff but becomes boosted, and its entity must then
 * leave the CBS rules. Returns whether eff changed (what the chain walk
 * propagates).
 */
static bool recompute(struct dls_pi_ctx *pi, struct dls_pi_task *t)
{
	struct dls_rb_node *n = dls_rb_first_cached(&t->pi_waiters);
	struct dls_pi_key eff = t->own;
	bool was_boosted = t->boosted, eff_changed;

	if (n && dls_pi_key_before(&pi_waiter(n)->key, &eff))
		eff = pi_waiter(n)->key;
	t->boosted = !key_equal(&eff, &t->own);
	t->donor = t->boosted ? pi_waiter(n)->task : NULL;
	eff_changed = !key_equal(&eff, &t->eff);
	t->eff = eff;
	if ((eff_changed || was_boosted != t->boosted) && pi->ops &&
	    pi->ops->boost_changed)
		pi->ops->boost_changed(pi->ctx, t);
	return eff_changed;
}

/*
 * Task @t's effective key changed: requeue its waiter and walk the chain
 * of owners, updating each one's pi-waiters and effective key, until
 * nothing changes. Bounded by max_depth (the lock path validated the
 * chain; other paths only ever shorten or reorder it).
 */
static void adjust_chain(struct dls_pi_ctx *pi, struct dls_pi_task *t)
{
	for (unsigned int depth = 0; t->blocked_on && depth <= pi->max_depth; depth++) {
		struct dls_pi_waiter *w = t->blocked_on;
		struct dls_pi_mutex *m = w->lock;
		struct dls_pi_task *owner = m->owner;
		struct dls_pi_waiter *old_top = top_waiter(m), *new_top;

		dls_rb_erase_cached(&w->lock_node, &m->waiters);
		w->key = t->eff;
		dls_rb_add_cached(&w->lock_node, &m->waiters, lock_less);
		new_top = top_waiter(m);
		DLS_ASSERT(owner != NULL);
		if (old_top == new_top && new_top != w)
			return; /* the owner sees the same top waiter */
		dls_rb_erase_cached(&old_top->pi_node, &owner->pi_waiters);
		dls_rb_add_cached(&new_top->pi_node, &owner->pi_waiters, pi_less);
		if (!recompute(pi, owner))
			return;
		t = owner;
	}
}

int dls_pi_lock(struct dls_pi_ctx *pi, struct dls_pi_task *t,
		struct dls_pi_mutex *m, struct dls_pi_waiter *w)
{
	struct dls_pi_waiter *old_top;
	struct dls_pi_task *owner = m->owner;
	unsigned int depth = 0;

	DLS_ASSERT(pi && t && m);
	if (DLS_UNLIKELY(t->blocked_on))
		return DLS_EBLOCKED; /* a blocked task cannot ask for a lock */
	if (!owner) {
		m->owner = t;
		return 0;
	}
	if (owner == t)
		return DLS_EDEADLK;
	/* Validate the whole chain before touching anything. */
	for (struct dls_pi_task *o = owner; o; ) {
		if (o == t)
			return DLS_EDEADLK;
		if (!o->blocked_on)
			break;
		if (++depth > pi->max_depth)
			return DLS_ELOOP;
		o = o->blocked_on->lock->owner;
	}

	dls_rb_node_init(&w->lock_node);
	dls_rb_node_init(&w->pi_node);
	w->task = t;
	w->lock = m;
	w->key = t->eff;
	w->seq = pi->seq++;
	old_top = top_waiter(m);
	dls_rb_add_cached(&w->lock_node, &m->waiters, lock_less);
	t->blocked_on = w;
	if (top_waiter(m) == w) {
		if (old_top)
			dls_rb_erase_cached(&old_top->pi_node, &owner->pi_waiters);
		dls_rb_add_cached(&w->pi_node, &owner->pi_waiters, pi_less);
		if (recompute(pi, owner))
			adjust_chain(pi, owner);
	}
	return DLS_PI_BLOCKED;
}

bool dls_pi_trylock(struct dls_pi_task *t, struct dls_pi_mutex *m)
{
	if (m->owner || DLS_UNLIKELY(t->blocked_on != NULL))
		return false;
	DLS_ASSERT(dls_rb_first_cached(&m->waiters) == NULL);
	m->owner = t;
	return true;
}

struct dls_pi_task *dls_pi_unlock(struct dls_pi_ctx *pi, struct dls_pi_task *t,
				  struct dls_pi_mutex *m)
{
	struct dls_pi_waiter *top = top_waiter(m), *next_top;
	struct dls_pi_task *next;

	if (DLS_UNLIKELY(m->owner != t))
		return NULL; /* not the owner's to release: nothing changes */
	if (!top) {
		m->owner = NULL;
		return NULL;
	}
	dls_rb_erase_cached(&top->lock_node, &m->waiters);
	dls_rb_erase_cached(&top->pi_node, &t->pi_waiters);
	next = top->task;
	next->blocked_on = NULL;
	m->owner = next;
	next_top = top_waiter(m);
	if (next_top) {
		dls_rb_add_cached(&next_top->pi_node, &next->pi_waiters, pi_less);
		recompute(pi, next);
	}
	recompute(pi, t);
	return next;
}

void dls_pi_remove_waiter(struct dls_pi_ctx *pi, struct dls_pi_task *t)
{
	struct dls_pi_waiter *w = t->blocked_on, *new_top;
	struct dls_pi_mutex *m;
	struct dls_pi_task *owner;
	bool was_top;

	if (!w)
		return;
	m = w->lock;
	owner = m->owner;
	was_top = top_waiter(m) == w;
	dls_rb_erase_cached(&w->lock_node, &m->waiters);
	t->blocked_on = NULL;
	if (!was_top)
		return;
	dls_rb_erase_cached(&w->pi_node, &owner->pi_waiters);
	new_top = top_waiter(m);
	if (new_top)
		dls_rb_add_cached(&new_top->pi_node, &owner->pi_waiters, pi_less);
	if (recompute(pi, owner))
		adjust_chain(pi, owner);
}

void dls_pi_set_own(struct dls_pi_ctx *pi, struct dls_pi_task *t, int prio,
		    bool has_dl, uint64_t dl)
{
	t->own.prio = prio;
	t->own.has_dl = has_dl;
	t->own.dl = has_dl ? dl : 0;
	if (recompute(pi, t))
		adjust_chain(pi, t);
}

bool dls_pi_sync_entity(struct dls_pi_ctx *pi, struct dls_pi_task *t,
			const struct dls_entity *se)
{
	if (!t->own.has_dl || t->own.dl == se->deadline)
		return false;
	dls_pi_set_own(pi, t, t->own.prio, true, se->deadline);
	return true;
}

/* ---- validator -------------------------------------------------------- */

const char *dls_pi_check_entity(const struct dls_pi_task *t, const struct dls_entity *se)
{
	bool want = t->boosted && t->eff.has_dl;

	if (t->own.has_dl && t->own.dl != se->deadline)
		return "a deadline task's own PI deadline differs from its entity's "
		       "deadline (dls_pi_sync_entity() was not called)";
	if (se->rq && (se->boosted != want || (want && se->pi_deadline != t->eff.dl)))
		return "the entity's boost differs from its PI effective key";
	return NULL;
}

static bool listed(struct dls_pi_task *const *tasks, size_t n, const struct dls_pi_task *t)
{
	for (size_t i = 0; i < n; i++)
		if (tasks[i] == t)
			return true;
	return false;
}

/* Each mutex's waiters tree and links. */
static const char *check_mutex(const struct dls_pi_mutex *m)
{
	const struct dls_pi_waiter *top = top_waiter(m);
	const char *err = dls_rb_check_cached(&m->waiters, lock_less);

	if (err)
		return err;
	if (top && !m->owner)
		return "mutex has waiters but no owner";
	if (top && !dls_rb_node_on_tree(&top->pi_node))
		return "top waiter is missing from its owner's pi-waiters";
	for (struct dls_rb_node *n = dls_rb_first_cached(&m->waiters); n; n = dls_rb_next(n)) {
		const struct dls_pi_waiter *w = lock_waiter(n);

		if (w->lock != m)
			return "waiter points to another mutex";
		if (w->task->blocked_on != w)
			return "waiting task's blocked_on is not its waiter";
		if (w->task == m->owner)
			return "owner waits on its own mutex";
		if (!key_equal(&w->key, &w->task->eff))
			return "waiter key differs from its task's effective key";
		if (w != top && dls_rb_node_on_tree(&w->pi_node))
			return "a waiter that is not the top is in pi-waiters";
	}
	return NULL;
}

/* A task's pi-waiters: exactly the top waiters of the mutexes it owns. */
static const char *check_task(struct dls_pi_task *const *tasks, size_t nr_tasks,
			      const struct dls_pi_task *t,
			      struct dls_pi_mutex *const *mutexes, size_t nr_mutexes)
{
	size_t owned_with_waiters = 0, pi_count = 0;
	const char *err = dls_rb_check_cached(&t->pi_waiters, pi_less);

	if (err)
		return err;
	for (size_t k = 0; k < nr_mutexes; k++)
		owned_with_waiters += mutexes[k]->owner == t && top_waiter(mutexes[k]);
	for (struct dls_rb_node *n = dls_rb_first_cached(&t->pi_waiters); n; n = dls_rb_next(n)) {
		const struct dls_pi_waiter *w = pi_waiter(n);

		if (w->lock->owner != t || top_waiter(w->lock) != w)
			return "pi-waiter is not the top waiter of a mutex the task owns";
		pi_count++;
	}
	if (pi_count != owned_with_waiters)
		return "pi-waiters count differs from owned mutexes with waiters";
	if (t->blocked_on && !listed(tasks, nr_tasks, t->blocked_on->lock->owner))
		return "blocked on a mutex whose owner is not listed";
	return NULL;
}

/* From scratch: eff = best own key over each task and everything blocked
 * behind it (a fixpoint over the waits-for graph), for test-sized graphs. */
static const char *check_effective_keys(struct dls_pi_task *const *tasks,
					size_t nr_tasks)
{
	struct dls_pi_key best[256];
	bool changed = true;
	unsigned int rounds = 0;

	if (nr_tasks > 256)
		return NULL; /* the brute force is for test-sized graphs */
	for (size_t i = 0; i < nr_tasks; i++)
		best[i] = tasks[i]->own;
	while (changed && rounds++ <= nr_tasks + 1) {
		changed = false;
		for (size_t i = 0; i < nr_tasks; i++) {
			const struct dls_pi_waiter *w = tasks[i]->blocked_on;

			if (!w)
				continue;
			for (size_t j = 0; j < nr_tasks; j++)
				if (tasks[j] == w->lock->owner &&
				    dls_pi_key_before(&best[i], &best[j])) {
					best[j] = best[i];
					changed = true;
				}
		}
	}
	for (size_t i = 0; i < nr_tasks; i++) {
		if (!key_equal(&best[i], &tasks[i]->eff))
			return "effective key differs from the recomputation";
		if (tasks[i]->boosted != !key_equal(&tasks[i]->eff, &tasks[i]->own))
			return "boosted flag differs from eff != own";
		if (tasks[i]->donor != (tasks[i]->boosted ?
		    pi_waiter(dls_rb_first_cached(&tasks[i]->pi_waiters))->task : NULL))
			return "donor is not the top pi-waiter's task while boosted";
	}
	return NULL;
}

const char *dls_pi_check(struct dls_pi_task *const *tasks, size_t nr_tasks,
			 struct dls_pi_mutex *const *mutexes, size_t nr_mutexes)
{
	const char *err;

	for (size_t i = 0; i < nr_mutexes; i++) {
		err = check_mutex(mutexes[i]);
		if (err)
			return err;
	}
	for (size_t i = 0; i < nr_tasks; i++) {
		err = check_task(tasks, nr_tasks, tasks[i], mutexes, nr_mutexes);
		if (err)
			return err;
	}
	return check_effective_keys(tasks, nr_tasks);
}
