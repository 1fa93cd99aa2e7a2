/**
 * @file posix.h
 * @brief The POSIX platform: a real clock, a timer service thread, pthread
 * runqueue locks, parkable per-CPU worker threads and CPU hotplug.
 *
 * Four pieces that can be used on their own or together, in three headers
 * that this one includes:
 *  - dlsched/posix_clock.h: a clock (CLOCK_MONOTONIC, or
 *    CLOCK_MONOTONIC_RAW / CLOCK_BOOTTIME) and locks (a pthread mutex or a
 *    spinlock, chosen at init);
 *  - dlsched/posix_timer.h: a timer service: armed timers wait on an
 *    rbtree in expiry order and one thread sleeps until the earliest;
 *    timers never fire early;
 *  - dlsched/posix_worker.h: workers: threads bound to a CPU that can be
 *    parked and unparked (Linux's kthread park facility), which is how a
 *    CPU goes offline and comes back without tearing its thread down.
 *
 * This header adds struct dls_posix, which bundles a clock, a timer service
 * and one lock per CPU, and dls_posix_fill_ops(), which turns it into the
 * platform of a domain: the integrator supplies only @c resched.
 *
 * @code
 * struct my_sys { struct dls_posix plat; struct dls_posix_lock locks[2]; ... } s;
 * struct dls_posix_config cfg = { DLS_POSIX_CLOCK_MONOTONIC, DLS_POSIX_LOCK_MUTEX };
 * struct dls_ops ops;
 * dls_posix_init(&s.plat, &cfg, s.locks, 2);
 * s.plat.user = &s;                             // reach it from my_resched
 * dls_posix_fill_ops(&ops, my_resched, NULL);    // ctx is &s.plat
 * dls_domain_init(&dom, &ops, &s.plat, NULL, rqs, 2);
 * dls_posix_smp_init(&s.plat, &dom, smp_mem, dls_smp_size(2)); // global EDF
 * dls_posix_start(&s.plat);                     // the timer thread
 * dls_entity_init(&task->se);
 * dls_posix_timer_bind(&task->ptimer, &task->se.timer);
 * dls_posix_worker_create(&w[0], cpu_main, &cpus[0], 0, 0);
 * dls_posix_worker_wake(&w[0]);                 // likewise for CPU 1
 * ...
 * dls_posix_cpu_down(&dom, 1, &w[1], false, on_stranded, NULL);
 * dls_posix_cpu_up(&dom, 1, &w[1]);
 * ...
 * dls_posix_stop(&s.plat);
 * dls_posix_destroy(&s.plat);
 * @endcode
 *
 * examples/posix_reservations.c is a complete program built this way.
 *
 * No global state: two struct dls_posix in one process are independent.
 * Only built with pthreads (src/platform/posix/).
 */
#ifndef DLSCHED_POSIX_H
#define DLSCHED_POSIX_H

#include <pthread.h>
#include <time.h>

#include <dlsched/smp.h>
#include <dlsched/posix_clock.h>
#include <dlsched/posix_timer.h>
#include <dlsched/posix_worker.h>

/**
 * @defgroup posix POSIX platform
 * @brief Clock, timer service, locks, parkable workers and hotplug on pthreads.
 * @{
 */

/* ---- the platform bundle and its dls_ops ------------------------------------ */

/** @brief Choices for dls_posix_init(). */
struct dls_posix_config {
	enum dls_posix_clock_id clock;     /**< public: clock (default MONOTONIC) */
	enum dls_posix_lock_kind lock;     /**< public: runqueue locks (default MUTEX) */
};

/** @brief A domain's POSIX platform: clock, timer service, per-CPU locks. */
struct dls_posix {
	struct dls_posix_clock clock;   /**< read-only */
	struct dls_posix_timers timers; /**< read-only: its own timer service */
	/** read-only: the service its entities' timers use: @c timers, or
	 *  another platform's (dls_posix_share_timers()) */
	struct dls_posix_timers *svc;
	struct dls_posix_lock *locks;   /**< read-only: caller-owned, one per CPU */
	struct dls_posix_lock heap_lock; /**< read-only: the cpudl heap's lock */
	struct dls_posix_lock bw_lock;  /**< read-only: the domain's admission lock */
	int nr_cpus;                    /**< read-only */
	void *user;                     /**< public: the integrator's (reach it from resched) */
};

/**
 * @brief Initialise the platform: the clock, the timer service (not started)
 * and @p nr_cpus locks.
 * @param[out] p the platform.
 * @param[in] cfg choices, or NULL for the defaults.
 * @param[out] locks caller-owned array of @p nr_cpus locks.
 * @param[in] nr_cpus number of CPUs of the domain.
 * @retval 0 success.
 * @retval DLS_EINVAL NULL pointer or nr_cpus < 1.
 * @retval DLS_ECLOCK the chosen clock does not exist here.
 * @retval DLS_ENOMEM a lock or condition variable could not be created.
 * @note Before any other use of @p p and @p locks.
 */
DLS_API int dls_posix_init(struct dls_posix *p, const struct dls_posix_config *cfg,
			   struct dls_posix_lock *locks, int nr_cpus);

/**
 * @brief Fill @p ops with the platform's now, timer_arm, timer_cancel
 * (dls_posix_timer_try_cancel(): it never waits, as the core calls it with
 * a runqueue lock held), lock and unlock; the domain's ctx must be the
 * struct dls_posix.
 *
 * Every entity has two core timers, and each one the library arms needs a
 * platform timer bound to it (dls_posix_timer_bind()) before the entity is
 * attached:
 *  - dls_entity::timer, the replenishment timer: always;
 *  - dls_entity::inactive_timer, the 0-lag timer of bandwidth reclaiming
 *    (GRUB): the library arms it for @em every entity that blocks before
 *    its 0-lag time while the domain has a DLS_FLAG_RECLAIM entity, so
 *    bind it for every entity of a domain that may hold one.
 *    An unbound 0-lag timer is handled, never dereferenced: it does not
 *    fire, so the entity's bandwidth stays active while it is blocked
 *    (until it wakes or dies) and reclaiming entities reclaim less than
 *    they could, never more.
 *
 * @code
 * dls_entity_init(&task->se);
 * dls_posix_timer_bind(&task->repl, &task->se.timer);
 * dls_posix_timer_bind(&task->zero_lag, &task->se.inactive_timer);
 * @endcode
 * @param[out] ops the ops.
 * @param[in] resched the integrator's reschedule request (receives the
 *            struct dls_posix as ctx).
 * @param[in] trace optional trace callback, or NULL.
 * @note Any thread; touches only @p ops.
 */
DLS_API void dls_posix_fill_ops(struct dls_ops *ops,
				void (*resched)(void *ctx, int cpu),
				void (*trace)(void *ctx, const struct dls_trace_event *ev));

/**
 * @brief dls_smp_init() for a domain on this platform, with the cpudl heap
 * locked by the platform's heap lock (dls_smp_set_heap_lock()) and
 * admission by its bandwidth lock (dls_smp_set_bw_lock()), so that worker
 * threads may schedule, attach and hotplug their CPUs concurrently.
 * @param[in,out] p the platform (the domain's ctx).
 * @param[in,out] dom the domain, initialised with dls_posix_fill_ops() ops.
 * @param[out] storage dls_smp_size(nr_cpus) bytes (see dls_smp_init()).
 * @param[in] size its size.
 * @retval 0 success.
 * @retval other the error of dls_smp_init().
 * @note As dls_smp_init(): once, before entities are attached and before
 *       the workers run.
 */
DLS_API int dls_posix_smp_init(struct dls_posix *p, struct dls_domain *dom,
			       void *storage, size_t size);

/**
 * @brief Make @p p's domain use @p owner's timer service, so that entities
 * may move between the two domains (dls_entity_move_domain()) with their
 * replenishment timers: one service then owns every such timer, and an
 * expiry in progress follows its entity into the other domain, as the
 * kernel's timers follow a task between root domains.
 *
 * Without it a moved entity's timer stays on the service it was first
 * armed on (see dls_posix_timer_arm()), so that platform's service must
 * keep running while the entity lives elsewhere.
 * @param[in,out] p the platform, initialised, not started.
 * @param[in] owner the platform whose service both use; it outlives @p p's
 *            use and is started and stopped by its own dls_posix_start() /
 *            dls_posix_stop() (those of @p p then do nothing).
 * @retval 0 success.
 * @retval DLS_EINVAL NULL, or @p p itself as owner, or an owner that
 *         shares another's service.
 * @retval DLS_ESTATE @p p's own service is started.
 */
DLS_API int dls_posix_share_timers(struct dls_posix *p, struct dls_posix *owner);

/**
 * @brief Start the timer service thread (nothing for a platform that
 * shares another's service).
 * @param[in,out] p the platform.
 * @retval 0 success.
 * @retval DLS_ESTATE already started.
 * @retval DLS_ETHREAD the thread could not be created.
 * @note Not concurrently with dls_posix_stop() or dls_posix_destroy().
 */
DLS_API int dls_posix_start(struct dls_posix *p);

/**
 * @brief Stop the timer service thread (nothing for a platform that
 * shares another's service).
 * @param[in,out] p the platform.
 * @note With no runqueue lock held.
 */
DLS_API void dls_posix_stop(struct dls_posix *p);

/**
 * @brief Destroy the platform (stopped; no lock held).
 * @param[in,out] p the platform.
 */
DLS_API void dls_posix_destroy(struct dls_posix *p);

/**
 * @brief Lock the runqueue an entity is attached to, following it if it
 * migrates meanwhile, also into another domain (Linux's task_rq_lock); the
 * lock taken is that of the runqueue's own domain, through its lock op.
 * The same as the core's dls_entity_lock(); unlock with
 * dls_entity_unlock() or the lock op.
 * @param[in] se an entity; its domains' ops have lock and unlock.
 * @return the entity's runqueue, locked; NULL (nothing locked) when it is
 *         not attached.
 * @note With no runqueue lock held.
 */
DLS_API struct dls_rq *dls_posix_entity_lock(struct dls_entity *se);

/**
 * @brief The task died: detach its entity (dls_task_dead() under the lock
 * of its runqueue, followed if it migrates), then cancel every platform
 * timer the entity owns and wait until no expiry of any is in progress:
 * @p t and the timers bound to dls_entity::timer and
 * dls_entity::inactive_timer (its 0-lag timer). Afterwards the entity and
 * its platform timers may be freed or initialised again.
 * @param[in,out] dom the domain it was attached in; its ctx is the struct
 *            dls_posix (the entity may have moved to another domain since).
 * @param[in,out] se the entity.
 * @param[in,out] t its replenishment timer's platform half
 *            (dls_posix_timer_bind(t, &se->timer)).
 * @retval 0 success.
 * @retval DLS_EINVAL a NULL argument.
 * @retval DLS_ESTATE @p se was not attached (the timer was still waited for).
 * @retval DLS_EDEADLK called from a timer callback; nothing changed.
 * @note With no runqueue lock held.
 */
DLS_API int dls_posix_task_dead(struct dls_domain *dom, struct dls_entity *se,
				struct dls_posix_timer *t);

/** @} */

#endif /* DLSCHED_POSIX_H */
