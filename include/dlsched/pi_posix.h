/**
 * @file pi_posix.h
 * @brief A priority/deadline-inheriting mutex for POSIX threads, built on
 * the PI core of pi.h.
 *
 * One struct dls_pi_posix is a PI domain: a pthread mutex (the domain
 * lock) serialises every PI operation of the threads and mutexes that
 * belong to it, as pi.h requires. A thread that must wait sleeps on its
 * own condition variable (its waiter's) and is signalled by the unlocker
 * that hands the mutex over to it, so ownership passes directly to the top
 * waiter and no lower waiter can steal the mutex.
 *
 * @code
 * struct dls_pi_posix d;
 * struct dls_pi_posix_mutex m;
 * struct dls_pi_posix_thread me;      // one per thread
 * dls_pi_posix_init(&d, NULL, NULL);
 * dls_pi_posix_mutex_init(&d, &m);
 * dls_pi_posix_thread_init(&d, &me, 10, true, my_deadline);
 * if (dls_pi_posix_lock(&d, &me, &m) == 0) {
 *     ...
 *     dls_pi_posix_unlock(&d, &me, &m);
 * }
 * @endcode
 *
 * Only built with pthreads (src/platform/posix/).
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_PI_POSIX_H
#define DLSCHED_PI_POSIX_H

#include <pthread.h>

#include <dlsched/pi.h>

/**
 * @defgroup pi_posix POSIX PI mutex
 * @brief PI mutexes for real threads; one domain lock, a condvar per waiter.
 * @{
 */

/** @brief A PI domain: the PI context and the lock that serialises it. */
struct dls_pi_posix {
	pthread_mutex_t lock;   /**< private: the domain lock */
	struct dls_pi_ctx pi;   /**< read-only: the PI context (ops, depth) */
};

/** @brief A thread's PI state (one per thread, owned by the caller). */
struct dls_pi_posix_thread {
	struct dls_pi_task task;     /**< read-only: its PI task */
	struct dls_pi_waiter waiter; /**< private: its wait, when blocked */
	pthread_cond_t cond;         /**< private: where it sleeps when blocked */
};

/** @brief A PI mutex of a domain. */
struct dls_pi_posix_mutex {
	struct dls_pi_mutex m;  /**< read-only: the PI core mutex */
};

/**
 * @brief Initialise a domain.
 * @param[out] d the domain.
 * @param[in] ops PI callbacks (may be NULL); boost_changed runs with the
 *            domain lock held, from whichever thread changed the chain.
 * @param[in] ctx first argument of the callbacks.
 * @retval 0 success.
 * @retval DLS_ENOMEM the pthread mutex could not be created.
 */
DLS_API int dls_pi_posix_init(struct dls_pi_posix *d, const struct dls_pi_ops *ops,
			      void *ctx);

/**
 * @brief Destroy a domain (no thread may use it any more).
 * @param[in,out] d the domain.
 */
DLS_API void dls_pi_posix_destroy(struct dls_pi_posix *d);

/**
 * @brief Initialise a thread's PI state.
 * @param[in] d the domain.
 * @param[out] th the thread state.
 * @param[in] prio its priority (lower = more important).
 * @param[in] has_dl whether it is a deadline thread.
 * @param[in] dl its absolute deadline (when @p has_dl).
 * @retval 0 success.
 * @retval DLS_ENOMEM the condition variable could not be created.
 */
DLS_API int dls_pi_posix_thread_init(struct dls_pi_posix *d,
				     struct dls_pi_posix_thread *th, int prio,
				     bool has_dl, uint64_t dl);

/**
 * @brief Destroy a thread's PI state (it owns and waits on nothing).
 * @param[in,out] th the thread state.
 */
DLS_API void dls_pi_posix_thread_destroy(struct dls_pi_posix_thread *th);

/**
 * @brief Initialise a mutex of @p d (free).
 * @param[in] d the domain.
 * @param[out] m the mutex.
 */
DLS_API void dls_pi_posix_mutex_init(struct dls_pi_posix *d,
				     struct dls_pi_posix_mutex *m);

/**
 * @brief Take @p m, sleeping (and boosting its owner chain) while it is held.
 * @param[in,out] d the domain.
 * @param[in,out] th the calling thread's state.
 * @param[in,out] m the mutex.
 * @retval 0 the thread owns @p m.
 * @retval DLS_EDEADLK the thread owns @p m already, or waiting would close
 *         a cycle; nothing changed.
 * @retval DLS_ELOOP the owner chain is deeper than the domain's max_depth.
 * @note Takes the domain lock; must not be called with it held.
 */
DLS_API int dls_pi_posix_lock(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
			      struct dls_pi_posix_mutex *m);

/**
 * @brief Take @p m only if it is free.
 * @param[in,out] d the domain.
 * @param[in,out] th the calling thread's state.
 * @param[in,out] m the mutex.
 * @retval 0 the thread owns @p m.
 * @retval DLS_EBUSY @p m is held.
 * @note Takes the domain lock.
 */
DLS_API int dls_pi_posix_trylock(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
				 struct dls_pi_posix_mutex *m);

/**
 * @brief Release @p m: hand it to its top waiter (woken) and deboost.
 * @param[in,out] d the domain.
 * @param[in,out] th the calling thread's state.
 * @param[in,out] m the mutex.
 * @retval 0 success.
 * @retval DLS_EINVAL the thread does not own @p m.
 * @note Takes the domain lock.
 */
DLS_API int dls_pi_posix_unlock(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
				struct dls_pi_posix_mutex *m);

/**
 * @brief dls_pi_check() under the domain lock, for tests and debugging.
 * @param[in] d the domain.
 * @param[in] threads every thread state of the domain.
 * @param[in] nr_threads their number (at most 256 for the recomputation).
 * @param[in] mutexes every mutex of the domain.
 * @param[in] nr_mutexes their number.
 * @return NULL when valid, else the first violated property.
 * @note Takes the domain lock.
 */
DLS_API const char *dls_pi_posix_check(struct dls_pi_posix *d,
				       struct dls_pi_posix_thread *const *threads,
				       size_t nr_threads,
				       struct dls_pi_posix_mutex *const *mutexes,
				       size_t nr_mutexes);

/** @} */

#endif /* DLSCHED_PI_POSIX_H */
