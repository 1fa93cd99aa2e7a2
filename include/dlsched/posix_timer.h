/**
 * @file posix_timer.h
 * @brief POSIX platform, part 2: the timer service.
 *
 * Armed timers wait on an rbtree in (expiry, arming order); one service
 * thread sleeps until the earliest and fires it, never early. A timer is
 * either plain, with a callback run on the service thread with no lock held
 * (dls_posix_timer_init()), or bound to a scheduler entity's replenishment
 * timer (dls_posix_timer_bind()), whose expiry calls dls_timer_expired()
 * under the lock of the entity's runqueue. Cancel comes in the two forms of
 * the kernel's hrtimers: one that never waits (safe under a runqueue lock)
 * and one that waits for an expiry in progress.
 *
 * Lock order: a runqueue lock, then the service's internal lock (the core
 * arms and cancels with a runqueue lock held); the service thread never
 * holds its own lock while it takes a runqueue lock.
 *
 * @code
 * static void tick(void *arg, struct dls_posix_timer *t) { ... }
 *
 * struct dls_posix_timers svc;
 * struct dls_posix_timer t;
 * dls_posix_timers_init(&svc, &clk);            // clk: dlsched/posix_clock.h
 * dls_posix_timers_start(&svc);
 * dls_posix_timer_init(&t, tick, NULL);
 * dls_posix_timer_arm(&svc, &t, dls_posix_clock_now(&clk) + 1000000);
 * ...
 * dls_posix_timer_cancel(&svc, &t);             // waits if tick() runs
 * dls_posix_timers_stop(&svc);
 * dls_posix_timers_destroy(&svc);
 * @endcode
 *
 * Included by dlsched/posix.h, whose struct dls_posix owns one service.
 * No global state. Only built with pthreads (src/platform/posix/).
 */
#ifndef DLSCHED_POSIX_TIMER_H
#define DLSCHED_POSIX_TIMER_H

#include <pthread.h>

#include <dlsched/posix_clock.h>
#include <dlsched/rbtree.h>
#include <dlsched/types.h>

/**
 * @defgroup posix_timer POSIX timer service
 * @ingroup posix
 * @brief A thread firing plain and replenishment timers in expiry order.
 * @{
 */

struct dls_posix_timer;

/** @brief Callback of a plain timer; runs on the service thread, no lock held. */
typedef void (*dls_posix_timer_fn)(void *arg, struct dls_posix_timer *t);

/**
 * @brief A timer of the service: either a plain one with a callback
 * (dls_posix_timer_init()) or the platform half of a scheduler entity's
 * replenishment timer (dls_posix_timer_bind()). Caller-owned.
 */
struct dls_posix_timer {
	struct dls_rb_node node;    /**< private: node in the armed tree */
	uint64_t expires;           /**< read-only: expiry, ns on the service clock */
	uint64_t seq;               /**< private: FIFO tie-break */
	uint64_t gen;               /**< private: bumped by every arm and cancel */
	dls_posix_timer_fn fn;      /**< read-only: plain timer's callback */
	void *arg;                  /**< read-only: its argument */
	struct dls_timer *core;     /**< read-only: bound scheduler timer, or NULL */
	struct dls_rq *rq;          /**< private: runqueue whose lock expiry takes */
	struct dls_posix_timers *svc; /**< private: the service it belongs to */
	bool queued;                /**< private: on the armed tree */
};

/** @brief Results of dls_posix_timer_try_cancel() (as hrtimer_try_to_cancel). */
enum dls_posix_cancel {
	DLS_POSIX_TIMER_NOT_ARMED = 0, /**< it was not armed: nothing to do */
	DLS_POSIX_TIMER_CANCELLED = 1, /**< it was armed and will not fire */
	DLS_POSIX_TIMER_RUNNING = 2    /**< its expiry is being handled now */
};

/** @brief The timer service: armed timers and the thread that fires them. */
struct dls_posix_timers {
	pthread_mutex_t lock;         /**< private: protects everything below */
	pthread_cond_t wake;          /**< private: the service thread sleeps here */
	pthread_cond_t done;          /**< private: a callback finished */
	struct dls_rb_root_cached armed; /**< private: timers by (expires, seq) */
	struct dls_posix_timer *running; /**< private: expiry being handled */
	struct dls_posix_clock clock; /**< read-only: time base of expiries */
	pthread_t thread;             /**< private: the service thread */
	uint64_t seq;                 /**< private: tie-break counter */
	uint64_t fired;               /**< read-only (under lock): expiries handled */
	bool started;                 /**< private: thread running */
	bool stopping;                /**< private: thread asked to exit */
};

/**
 * @brief Initialise a service (no thread yet: see dls_posix_timers_start()).
 * @param[out] s the service.
 * @param[in] clock the clock expiries are measured on (copied).
 * @retval 0 success.
 * @retval DLS_EINVAL NULL pointer.
 * @retval DLS_ENOMEM the mutex or condition variables could not be created.
 * @note Before any other use of @p s.
 */
DLS_API int dls_posix_timers_init(struct dls_posix_timers *s,
				  const struct dls_posix_clock *clock);

/**
 * @brief Start the service thread. Timers armed before fire once it runs.
 * @param[in,out] s the service.
 * @retval 0 success.
 * @retval DLS_ESTATE already started.
 * @retval DLS_ETHREAD the thread could not be created.
 * @note Any thread; not concurrently with dls_posix_timers_stop() or
 *       dls_posix_timers_destroy() of @p s.
 */
DLS_API int dls_posix_timers_start(struct dls_posix_timers *s);

/**
 * @brief Stop the service thread, after the callback it runs (if any)
 * returns. Armed timers stay armed and fire after a new start.
 * @param[in,out] s the service.
 * @note Not from a timer callback; no lock a callback takes may be held.
 */
DLS_API void dls_posix_timers_stop(struct dls_posix_timers *s);

/**
 * @brief Destroy a stopped service.
 * @param[in,out] s the service.
 * @note After dls_posix_timers_stop(), once no thread calls into @p s or
 *       its timers any more.
 */
DLS_API void dls_posix_timers_destroy(struct dls_posix_timers *s);

/**
 * @brief Prepare a plain timer.
 * @param[out] t the timer (not armed).
 * @param[in] fn its callback, run on the service thread with no lock held;
 *            it may re-arm @p t.
 * @param[in] arg its first argument.
 * @note @p t is neither armed nor running (initialising an armed timer
 *       would corrupt its service's tree).
 */
DLS_API void dls_posix_timer_init(struct dls_posix_timer *t, dls_posix_timer_fn fn,
				  void *arg);

/**
 * @brief Make @p t the platform half of one of a scheduler entity's two
 * timers: @p core is &se->timer (replenishment; always bind it) or
 * &se->inactive_timer (0-lag; bind it in any domain that may hold a
 * DLS_FLAG_RECLAIM entity, see dls_posix_fill_ops()), each with its own
 * @p t. The ops of dls_posix_fill_ops() arm and cancel it, and its expiry calls dls_timer_expired() with the lock of the
 * entity's current runqueue held (taken through the domain's lock op,
 * following the entity if it migrated while armed).
 * @param[out] t the platform timer; it must outlive the entity's attachment.
 * @param[in,out] core the entity's timer; call after dls_entity_init().
 * @note After dls_task_dead() an expiry already in progress may still read
 *       @p t and the entity (it waits for the runqueue lock, then sees the
 *       entity gone): call dls_posix_timer_cancel() with no runqueue lock
 *       held before freeing, re-initialising or re-binding either, as the
 *       kernel holds a task reference while its deadline timer runs;
 *       dls_posix_task_dead() does both steps.
 */
DLS_API void dls_posix_timer_bind(struct dls_posix_timer *t, struct dls_timer *core);

/**
 * @brief Arm (or re-arm) @p t to fire at @p expires, never before.
 *
 * A timer belongs to the service of its first arm until it is initialised
 * or bound again; this and the cancel calls then act on that service even
 * when they name another (an entity that moved to a domain of another
 * platform keeps its timer on the first platform's service, which must
 * keep running: dls_posix_share_timers() makes that one service explicit).
 * @param[in,out] s the service.
 * @param[in,out] t the timer.
 * @param[in] expires absolute time on the service clock, ns.
 * @note Any thread, also from a callback. For a bound timer the caller
 *       holds the lock of the entity's runqueue (as the core does).
 */
DLS_API void dls_posix_timer_arm(struct dls_posix_timers *s, struct dls_posix_timer *t,
				 uint64_t expires);

/**
 * @brief Cancel without waiting (hrtimer_try_to_cancel).
 * @param[in,out] s the service.
 * @param[in,out] t the timer.
 * @retval DLS_POSIX_TIMER_CANCELLED it was armed; it will not fire.
 * @retval DLS_POSIX_TIMER_RUNNING its expiry is in progress (a plain
 *         timer's callback runs, or a bound timer waits for or holds its
 *         runqueue lock); nothing removed. A bound timer's expiry then
 *         does nothing: it sees the cancel once it holds the lock.
 * @retval DLS_POSIX_TIMER_NOT_ARMED neither armed nor running.
 * @note Any thread, any lock held.
 */
DLS_API int dls_posix_timer_try_cancel(struct dls_posix_timers *s,
				       struct dls_posix_timer *t);

/**
 * @brief Cancel and wait until no expiry of @p t is in progress
 * (hrtimer_cancel): afterwards @p t is neither armed nor running.
 * @param[in,out] s the service.
 * @param[in,out] t the timer.
 * @retval DLS_POSIX_TIMER_CANCELLED it was armed.
 * @retval DLS_POSIX_TIMER_NOT_ARMED it was not armed (it may have been
 *         running; that has finished).
 * @retval DLS_EDEADLK called from the service thread (a callback would
 *         wait for itself).
 * @note Must not hold a lock that the expiry takes (for a bound timer: no
 *       runqueue lock).
 */
DLS_API int dls_posix_timer_cancel(struct dls_posix_timers *s, struct dls_posix_timer *t);

/**
 * @brief Whether @p t is armed.
 * @param[in] s the service.
 * @param[in] t the timer.
 * @return true when armed (waiting to fire).
 * @note Any thread, any lock held; the answer may be stale at once unless
 *       the caller excludes arms, cancels and the expiry of @p t.
 */
DLS_API bool dls_posix_timer_armed(struct dls_posix_timers *s, const struct dls_posix_timer *t);

/** @} */

#endif /* DLSCHED_POSIX_TIMER_H */
