/**
 * @file pi.h
 * @brief Priority and deadline inheritance through rb-trees of waiters.
 *
 * Each PI mutex keeps its waiters in an rb-tree ordered by the waiters'
 * effective scheduling keys; each task keeps the top waiter of every mutex
 * it owns in its own "pi-waiters" tree. A task's effective key is the best
 * of its own and its top pi-waiter's: it inherits the earliest deadline, or
 * the highest priority, of everything blocked behind it, transitively.
 *
 * Order of keys: deadline tasks before priority-only tasks; among deadline
 * tasks the earlier absolute deadline; then the lower priority number;
 * then FIFO. A donor without a deadline never changes a deadline task's
 * deadline.
 *
 * The module knows nothing of runqueues: when a task's effective key
 * changes, dls_pi_ops::boost_changed tells the integrator, who requeues the
 * task (for a deadline entity: dls_entity_set_boost()).
 *
 * A deadline task's own key must follow its entity's absolute deadline
 * (dls_entity::deadline), which the EDF core moves at every replenishment
 * and at every wake-up that starts a new instance. The core cannot tell
 * this module itself: it moves deadlines under a runqueue lock, often in
 * a timer expiry, while boost_changed runs under the PI lock and takes
 * runqueue locks, so the two locks are taken in that order only. The
 * integrator therefore calls dls_pi_sync_entity() (PI lock held, the
 * entity's deadline stable) for a deadline task before it locks or
 * trylocks, and for every task that owns a mutex or waits on one before
 * its CPU picks again; dls_pi_check_entity() tells a task that was missed.
 * A stale own key orders a waiter by an old deadline, and leaves an owner
 * whose deadline moved past a waiter's unboosted: a priority inversion.
 *
 * Growth policy (as types.h's): dls_pi_task, dls_pi_mutex and dls_pi_ctx
 * end in reserved words their init functions zero, and dls_pi_ops in
 * reserved slots the caller leaves NULL, so a release can add a field or
 * a callback without changing a size or an offset; dls_pi_key and
 * dls_pi_waiter are frozen (they change only with the major version).
 *
 * @code
 * struct dls_pi_ctx pi;
 * dls_pi_ctx_init(&pi, &my_pi_ops, my_ctx);
 * dls_pi_task_init(&a, 10, true, a_deadline);
 * dls_pi_mutex_init(&m);
 * int r = dls_pi_lock(&pi, &a, &m, &a_waiter);   // 0: owned; DLS_PI_BLOCKED: wait
 * ...
 * struct dls_pi_task *next = dls_pi_unlock(&pi, &a, &m);  // wake `next`
 * @endcode
 *
 * Locking: the caller serialises every call on one context with one lock
 * for the whole PI state (tasks, mutexes, waiters, the FIFO counter), as
 * the POSIX mutex of pi_posix.h does with its domain lock; boost_changed
 * runs with that lock held. Calls on different contexts are independent.
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_PI_H
#define DLSCHED_PI_H

#include <dlsched/rbtree.h>

struct dls_entity;

/**
 * @defgroup pi Priority and deadline inheritance
 * @brief PI mutexes, waiter trees, chain walk with deadlock detection.
 * @{
 */

/** @brief dls_pi_lock() result: the task was queued as a waiter. */
#define DLS_PI_BLOCKED 1

/** @brief Default bound of a chain walk (the kernel's max_lock_depth). */
#define DLS_PI_MAX_DEPTH 1024

/** @brief A scheduling key: what inheritance propagates. */
struct dls_pi_key {
	bool has_dl;   /**< it has an absolute deadline */
	uint64_t dl;   /**< the deadline, when has_dl */
	int prio;      /**< priority, lower number = more important */
};

struct dls_pi_task;
struct dls_pi_mutex;

/** @brief A task's wait on one mutex (caller-owned, one per blocked task). */
struct dls_pi_waiter {
	struct dls_rb_node lock_node;  /**< private: in the mutex's waiters */
	struct dls_rb_node pi_node;    /**< private: in the owner's pi-waiters */
	struct dls_pi_task *task;      /**< read-only: the waiting task */
	struct dls_pi_mutex *lock;     /**< read-only: the mutex */
	struct dls_pi_key key;         /**< read-only: the task's effective key */
	uint64_t seq;                  /**< private: FIFO among equal keys */
};

/** @brief PI state of a task (embed it). */
struct dls_pi_task {
	/** read-only: its own key; for a deadline task own.dl is its
	 *  entity's deadline as of the last dls_pi_sync_entity() */
	struct dls_pi_key own;
	struct dls_pi_key eff;          /**< read-only: own key or an inherited one */
	bool boosted;                   /**< read-only: eff differs from own */
	/** read-only: when boosted, the task of the top pi-waiter (blocked
	 *  directly on a mutex this task owns) whose key eff is; else NULL.
	 *  It may change without eff changing (an equal key). */
	struct dls_pi_task *donor;
	struct dls_rb_root_cached pi_waiters; /**< private: top waiters of its mutexes */
	struct dls_pi_waiter *blocked_on; /**< read-only: its wait, or NULL */
	uint64_t reserved[2];           /**< private: room to grow; zero */
};

/** @brief A PI mutex (caller-owned). */
struct dls_pi_mutex {
	struct dls_rb_root_cached waiters; /**< private: waiters by key */
	struct dls_pi_task *owner;      /**< read-only: owner or NULL */
	uint64_t reserved[1];           /**< private: room to grow; zero */
};

/** @brief Integrator callbacks. */
struct dls_pi_ops {
	/**
	 * @brief @p task's effective key (dls_pi_task::eff) changed (may be NULL).
	 *
	 * Called once per task whose eff or boosted changed (an own key
	 * moving past an equal inherited one changes boosted alone), after
	 * eff and boosted are updated, and only then. The callee requeues the task's scheduling
	 * entity under the new key: for a deadline entity, while
	 * task->boosted and task->eff.has_dl, it is ordered in its EDF tree
	 * by task->eff.dl and must not be throttled (a boosted entity whose
	 * budget runs out keeps running, as in Linux); once unboosted it goes
	 * back to its own deadline and the CBS rules. A donor without a
	 * deadline never lends one: a deadline task's eff.dl is always a real
	 * deadline (its own or a deadline donor's), never a priority task's
	 * placeholder. With the EDF core that is, under the task's rq lock,
	 * `dls_entity_set_boost(rq, se, task->boosted && task->eff.has_dl,
	 * task->eff.dl)` for a deadline entity; a priority-only task that
	 * inherits a deadline (eff.has_dl, own.has_dl false) runs in the
	 * deadline class under eff.dl until deboosted, as in Linux. The
	 * callee must not call back into this context.
	 * @param[in] ctx dls_pi_ctx::ctx.
	 * @param[in] task the task.
	 */
	void (*boost_changed)(void *ctx, struct dls_pi_task *task);
	/** Reserved slots for optional callbacks of later releases: leave
	 *  them NULL (a designated initializer does; checked builds assert). */
	void (*reserved[2])(void);
};

/** @brief A PI context: ops, chain bound and FIFO counter (no global state). */
struct dls_pi_ctx {
	const struct dls_pi_ops *ops;   /**< read-only */
	void *ctx;                      /**< read-only: first argument of the ops */
	unsigned int max_depth;         /**< public: chain-walk bound */
	uint64_t seq;                   /**< private */
	uint64_t reserved[2];           /**< private: room to grow; zero */
};

/**
 * @brief Initialise a context (max_depth = DLS_PI_MAX_DEPTH).
 * @param[out] pi the context.
 * @param[in] ops callbacks (may be NULL).
 * @param[in] ctx their first argument.
 */
DLS_API void dls_pi_ctx_init(struct dls_pi_ctx *pi, const struct dls_pi_ops *ops,
			     void *ctx);

/**
 * @brief Initialise a task's PI state.
 * @param[out] t the task.
 * @param[in] prio its priority (lower = more important).
 * @param[in] has_dl whether it is a deadline task.
 * @param[in] dl its absolute deadline (when @p has_dl).
 */
DLS_API void dls_pi_task_init(struct dls_pi_task *t, int prio, bool has_dl,
			      uint64_t dl);

/**
 * @brief Initialise a mutex (free, no waiters).
 * @param[out] m the mutex.
 */
DLS_API void dls_pi_mutex_init(struct dls_pi_mutex *m);

/**
 * @brief Take @p m, or queue @p t on it and boost the chain of owners.
 * @param[in,out] pi the context.
 * @param[in,out] t the task, not blocked.
 * @param[in,out] m the mutex.
 * @param[out] w the waiter to use if @p t must wait (unused otherwise).
 * @retval 0 @p t owns @p m now.
 * @retval DLS_PI_BLOCKED @p t waits; it owns @p m once dls_pi_unlock()
 *         returns it.
 * @retval DLS_EDEADLK waiting would close a cycle (or @p t owns @p m);
 *         nothing changed.
 * @retval DLS_ELOOP the chain of owners is longer than max_depth; nothing
 *         changed.
 * @retval DLS_EBLOCKED @p t is already blocked on a mutex; nothing changed.
 */
DLS_API int dls_pi_lock(struct dls_pi_ctx *pi, struct dls_pi_task *t,
			struct dls_pi_mutex *m, struct dls_pi_waiter *w);

/**
 * @brief Take @p m only if it is free.
 *
 * Ownership passes directly to the top waiter at unlock, so a free mutex
 * never has waiters and the top-waiter rule is satisfied by construction.
 * @param[in,out] t the task, not blocked.
 * @param[in,out] m the mutex.
 * @return true when @p t owns @p m now; false when @p m is taken or @p t
 *         is blocked on a mutex (nothing changed).
 */
DLS_API bool dls_pi_trylock(struct dls_pi_task *t, struct dls_pi_mutex *m);

/**
 * @brief Release @p m: hand it to its top waiter and deboost @p t.
 * @param[in,out] pi the context.
 * @param[in,out] t the owner.
 * @param[in,out] m the mutex.
 * @return the new owner (the caller wakes it), or NULL when none waited —
 *         or when @p t does not own @p m, which changes nothing.
 */
DLS_API struct dls_pi_task *dls_pi_unlock(struct dls_pi_ctx *pi,
					  struct dls_pi_task *t,
					  struct dls_pi_mutex *m);

/**
 * @brief Stop waiting (timeout, signal): dequeue @p t's waiter and deboost
 * the chain it boosted.
 * @param[in,out] pi the context.
 * @param[in,out] t a blocked task.
 */
DLS_API void dls_pi_remove_waiter(struct dls_pi_ctx *pi, struct dls_pi_task *t);

/**
 * @brief Change a task's own priority and deadline, and propagate the
 * change through the chain it blocks.
 * @param[in,out] pi the context.
 * @param[in,out] t the task.
 * @param[in] prio its new priority.
 * @param[in] has_dl whether it has a deadline.
 * @param[in] dl its new absolute deadline.
 */
DLS_API void dls_pi_set_own(struct dls_pi_ctx *pi, struct dls_pi_task *t,
			    int prio, bool has_dl, uint64_t dl);

/**
 * @brief Bring a deadline task's own key in step with its entity: when
 * @p t has a deadline and own.dl differs from @p se's absolute deadline,
 * dls_pi_set_own() with that deadline (its priority kept), which re-keys
 * its waiter and boosts or deboosts the chain it blocks (boost_changed
 * runs for every task whose effective key changes, @p t included).
 * @param[in,out] pi the context.
 * @param[in,out] t the task.
 * @param[in] se the scheduling entity of the task.
 * @return true when own.dl changed.
 * @note The PI lock held, and @p se's deadline stable (its runqueue lock
 *       held, or nothing else runs): call it before @p t locks or
 *       trylocks, and, for every task owning a mutex or blocked on one,
 *       after its entity was replenished or started a new instance.
 */
DLS_API bool dls_pi_sync_entity(struct dls_pi_ctx *pi, struct dls_pi_task *t,
				const struct dls_entity *se);

/**
 * @brief Check a task against its scheduling entity: a deadline task's
 * own.dl equals the entity's deadline (dls_pi_sync_entity()), and the
 * entity's boost follows the effective key (boosted with eff.dl exactly
 * while t->boosted and t->eff.has_dl, as boost_changed applies it).
 * @param[in] t the task.
 * @param[in] se its scheduling entity.
 * @return NULL when in step, else what differs.
 * @note The PI lock and @p se's runqueue lock held.
 */
DLS_API const char *dls_pi_check_entity(const struct dls_pi_task *t,
					const struct dls_entity *se);

/**
 * @brief Key order used by every tree here.
 * @param[in] a a key.
 * @param[in] b another key.
 * @return true when @p a is strictly more urgent than @p b.
 */
DLS_API bool dls_pi_key_before(const struct dls_pi_key *a, const struct dls_pi_key *b);

/**
 * @brief Validate tasks and mutexes: both kinds of trees, cached tops,
 * links, and every effective key against a recomputation from scratch.
 * @param[in] tasks every task involved.
 * @param[in] nr_tasks their number.
 * @param[in] mutexes every mutex involved.
 * @param[in] nr_mutexes their number.
 * @return NULL when valid, else the first violated property.
 * @note The from-scratch recomputation runs for up to 256 tasks; a larger
 *       list gets the structural checks only.
 */
DLS_API const char *dls_pi_check(struct dls_pi_task *const *tasks, size_t nr_tasks,
				 struct dls_pi_mutex *const *mutexes, size_t nr_mutexes);

/** @} */

#endif /* DLSCHED_PI_H */
