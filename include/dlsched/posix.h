/**
 * @file posix.h
 * @brief The POSIX platform: a real clock, a timer service thread, pthread
 * runqueue locks, parkable per-CPU worker threads and CPU hotplug.
 *
 * Four pieces that can be used on their own or together:
 *  - a clock (CLOCK_MONOTONIC, or CLOCK_MONOTONIC_RAW / CLOCK_BOOTTIME);
 *  - a timer service: armed timers wait on an rbtree in expiry order and
 *    one thread sleeps until the earliest; timers never fire early;
 *  - locks (a pthread mutex or a spinlock, chosen at init);
 *  - workers: threads bound to a CPU that can be parked and unparked
 *    (Linux's kthread park facility), which is how a CPU goes offline and
 *    comes back without tearing its thread down.
 *
 * struct dls_posix bundles a clock, a timer service and one lock per CPU,
 * and dls_posix_fill_ops() turns it into the platform of a domain: the
 * integrator supplies only @c resched.
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

/**
 * @defgroup posix POSIX platform
 * @brief Clock, timer service, locks, parkable workers and hotplug on pthreads.
 * @{
 */

/* ---- clock ------------------------------------------------------------- */

/** @brief Which system clock a struct dls_posix_clock reads. */
enum dls_posix_clock_id {
	DLS_POSIX_CLOCK_MONOTONIC = 0, /**< CLOCK_MONOTONIC (NTP-slewed, the default) */
	DLS_POSIX_CLOCK_MONOTONIC_RAW, /**< CLOCK_MONOTONIC_RAW (hardware rate) */
	DLS_POSIX_CLOCK_BOOTTIME       /**< CLOCK_BOOTTIME (counts suspend) */
};

/** @brief A clock. */
struct dls_posix_clock {
	int id;                        /**< read-only: the system clockid_t */
	enum dls_posix_clock_id which; /**< read-only: as chosen */
};

/**
 * @brief Choose a clock.
 * @param[out] c the clock.
 * @param[in] which the system clock to read.
 * @retval 0 success.
 * @retval DLS_EINVAL @p c is NULL or @p which unknown.
 * @retval DLS_ECLOCK the clock does not exist on this system.
 */
DLS_API int dls_posix_clock_init(struct dls_posix_clock *c,
				 enum dls_posix_clock_id which);

/**
 * @brief The clock's time in ns.
 * @param[in] c an initialised clock.
 * @return nanoseconds since the clock's origin.
 * @note Any thread.
 */
DLS_API uint64_t dls_posix_clock_now(const struct dls_posix_clock *c);

/* ---- locks ------------------------------------------------------------- */

/** @brief Kind of a struct dls_posix_lock. */
enum dls_posix_lock_kind {
	DLS_POSIX_LOCK_MUTEX = 0, /**< pthread mutex: sleeps when contended */
	DLS_POSIX_LOCK_SPIN       /**< pthread spinlock: spins when contended */
};

/** @brief A runqueue lock. */
struct dls_posix_lock {
	union {
		pthread_mutex_t mutex;     /**< private */
		/** private: a pthread_spinlock_t (not declared by strict C11 headers) */
		unsigned char spin[sizeof(pthread_mutex_t)];
	} u;                               /**< private: the lock itself */
	enum dls_posix_lock_kind kind;     /**< read-only */
};

/**
 * @brief Initialise a lock.
 * @param[out] l the lock.
 * @param[in] kind mutex or spinlock.
 * @retval 0 success.
 * @retval DLS_EINVAL @p l is NULL or @p kind unknown.
 * @retval DLS_ENOMEM the system could not create it.
 */
DLS_API int dls_posix_lock_init(struct dls_posix_lock *l,
				enum dls_posix_lock_kind kind);

/**
 * @brief Destroy a lock (not held).
 * @param[in,out] l the lock.
 */
DLS_API void dls_posix_lock_destroy(struct dls_posix_lock *l);

/**
 * @brief Take a lock (not recursive).
 * @param[in,out] l the lock.
 */
DLS_API void dls_posix_lock_acquire(struct dls_posix_lock *l);

/**
 * @brief Release a lock the caller holds.
 * @param[in,out] l the lock.
 */
DLS_API void dls_posix_lock_release(struct dls_posix_lock *l);

/* ---- timer service ------------------------------------------------------ */

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
 */
DLS_API int dls_posix_timers_init(struct dls_posix_timers *s,
				  const struct dls_posix_clock *clock);

/**
 * @brief Start the service thread. Timers armed before fire once it runs.
 * @param[in,out] s the service.
 * @retval 0 success.
 * @retval DLS_ESTATE already started.
 * @retval DLS_ETHREAD the thread could not be created.
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
 */
DLS_API void dls_posix_timers_destroy(struct dls_posix_timers *s);

/**
 * @brief Prepare a plain timer.
 * @param[out] t the timer (not armed).
 * @param[in] fn its callback, run on the service thread with no lock held;
 *            it may re-arm @p t.
 * @param[in] arg its first argument.
 */
DLS_API void dls_posix_timer_init(struct dls_posix_timer *t, dls_posix_timer_fn fn,
				  void *arg);

/**
 * @brief Make @p t the platform half of a scheduler entity's timer
 * (@p core is &se->timer): the ops of dls_posix_fill_ops() arm and cancel
 * it, and its expiry calls dls_timer_expired() with the lock of the
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
 */
DLS_API bool dls_posix_timer_armed(struct dls_posix_timers *s, const struct dls_posix_timer *t);

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
 */
DLS_API int dls_posix_init(struct dls_posix *p, const struct dls_posix_config *cfg,
			   struct dls_posix_lock *locks, int nr_cpus);

/**
 * @brief Fill @p ops with the platform's now, timer_arm, timer_cancel
 * (dls_posix_timer_try_cancel(): it never waits, as the core calls it with
 * a runqueue lock held), lock and unlock; the domain's ctx must be the
 * struct dls_posix. Every entity's timer must be bound
 * (dls_posix_timer_bind()) before it is attached.
 * @param[out] ops the ops.
 * @param[in] resched the integrator's reschedule request (receives the
 *            struct dls_posix as ctx).
 * @param[in] trace optional trace callback, or NULL.
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
 * @param[in] se an entity; its domains' ops have lock and unlock.
 * @return the entity's runqueue, locked; NULL (nothing locked) when it is
 *         not attached.
 * @note With no runqueue lock held.
 */
DLS_API struct dls_rq *dls_posix_entity_lock(struct dls_entity *se);

/**
 * @brief The task died: detach its entity (dls_task_dead() under the lock
 * of its runqueue, followed if it migrates), then wait until no expiry of
 * its replenishment timer is in progress. Afterwards the entity and @p t
 * may be freed or initialised again.
 * @param[in,out] dom the domain it was attached in; its ctx is the struct
 *            dls_posix (the entity may have moved to another domain since).
 * @param[in,out] se the entity.
 * @param[in,out] t its platform timer (dls_posix_timer_bind()).
 * @retval 0 success.
 * @retval DLS_EINVAL a NULL argument.
 * @retval DLS_ESTATE @p se was not attached (the timer was still waited for).
 * @retval DLS_EDEADLK called from a timer callback; nothing changed.
 * @note With no runqueue lock held.
 */
DLS_API int dls_posix_task_dead(struct dls_domain *dom, struct dls_entity *se,
				struct dls_posix_timer *t);

/* ---- parkable workers ---------------------------------------------------------- */

struct dls_posix_worker;

/**
 * @brief A worker's thread function. It returns when
 * dls_posix_worker_should_stop() or dls_posix_worker_should_park() says
 * so; its result is what dls_posix_worker_stop() reports. After a return
 * while parking is requested it is called again once unparked.
 */
typedef int (*dls_posix_worker_fn)(struct dls_posix_worker *w, void *arg);

/** @brief dls_posix_worker_create(): do not bind to the CPU, even if it exists. */
#define DLS_POSIX_WORKER_NOBIND 0x1u

/** @brief A per-CPU thread that can be parked (Linux's kthread park). */
struct dls_posix_worker {
	pthread_t thread;          /**< read-only */
	pthread_mutex_t lock;      /**< private */
	pthread_cond_t cond;       /**< private: every state change is broadcast */
	dls_posix_worker_fn fn;    /**< read-only */
	void *arg;                 /**< read-only */
	int cpu;                   /**< read-only: its CPU */
	unsigned int flags;        /**< read-only: DLS_POSIX_WORKER_* */
	unsigned long requests;    /**< private: stop/park bits (atomic) */
	unsigned long runs;        /**< read-only (under lock): calls of fn */
	int result;                /**< private: fn's last result */
	bool bound;                /**< read-only: pinned to a real CPU */
	bool woken;                /**< private: first wake-up given */
	bool kicked;               /**< private: pending dls_posix_worker_kick() */
	bool parked;               /**< private: in the park position */
	bool exited;               /**< private: thread has finished */
	bool joined;               /**< private: stopped and joined */
};

/**
 * @brief Create a worker for @p cpu, sleeping: @p fn does not run until
 * dls_posix_worker_wake() (or, after a park, dls_posix_worker_unpark()).
 * It is pinned to @p cpu with pthread_setaffinity_np when that CPU exists
 * for this process, else it is a logical CPU (unpinned; see @c bound).
 * @param[out] w the worker.
 * @param[in] fn its thread function.
 * @param[in] arg second argument of @p fn.
 * @param[in] cpu its CPU (>= 0).
 * @param[in] flags DLS_POSIX_WORKER_* bits.
 * @retval 0 success.
 * @retval DLS_EINVAL NULL pointer or cpu < 0.
 * @retval DLS_ENOMEM a mutex or condition variable could not be created.
 * @retval DLS_ETHREAD the thread could not be created.
 */
DLS_API int dls_posix_worker_create(struct dls_posix_worker *w, dls_posix_worker_fn fn,
				    void *arg, int cpu, unsigned int flags);

/**
 * @brief First wake-up: let @p fn run (wake_up_process after kthread_create).
 * Nothing happens when already woken, parked or stopped.
 * @param[in,out] w the worker.
 */
DLS_API void dls_posix_worker_wake(struct dls_posix_worker *w);

/**
 * @brief Whether the thread function should return for good.
 * @param[in] w the worker (called by its own thread).
 * @return true after dls_posix_worker_stop() was called.
 */
DLS_API bool dls_posix_worker_should_stop(struct dls_posix_worker *w);

/**
 * @brief Whether the thread function should return to be parked.
 * @param[in] w the worker (called by its own thread).
 * @return true while a park is requested.
 */
DLS_API bool dls_posix_worker_should_park(struct dls_posix_worker *w);

/**
 * @brief Park the worker: ask its function to return and wait until the
 * thread sits in the park position. A worker never woken parks without
 * running its function. From the worker itself, only sets the request.
 * @param[in,out] w the worker.
 * @retval 0 parked (or, from the worker itself, requested).
 * @retval DLS_EEXITED the thread has exited (its function returned while
 *         no park was requested, or it was stopped).
 * @retval DLS_EBUSY the worker reached the park position but another
 *         thread unparked it before this call returned.
 */
DLS_API int dls_posix_worker_park(struct dls_posix_worker *w);

/**
 * @brief Unpark: re-bind to the CPU and wake it; its function is called
 * again. Nothing happens for a worker that is not parked (also while a
 * park is in progress: that park completes, as in the seed).
 * @param[in,out] w the worker.
 * @retval 0 success (also when it was not parked).
 * @retval DLS_EEXITED the thread has exited.
 */
DLS_API int dls_posix_worker_unpark(struct dls_posix_worker *w);

/**
 * @brief Stop the worker (woken, parked or never run) and join its thread.
 * @param[in,out] w the worker; destroyed on success.
 * @param[out] result the thread function's last result, or DLS_ESTOPPED
 *             when it never ran (may be NULL).
 * @retval 0 success.
 * @retval DLS_ESTATE already stopped.
 * @retval DLS_EDEADLK called by the worker itself.
 */
DLS_API int dls_posix_worker_stop(struct dls_posix_worker *w, int *result);

/**
 * @brief Wake the worker from dls_posix_worker_sleep() (or make its next
 * sleep return at once). The natural body of a resched op.
 * @param[in,out] w the worker.
 * @note Any thread, any lock held.
 */
DLS_API void dls_posix_worker_kick(struct dls_posix_worker *w);

/**
 * @brief Sleep until kicked, asked to park or stop, or @p timeout_ns passed.
 * @param[in,out] w the worker (called by its own thread).
 * @param[in] timeout_ns relative timeout; UINT64_MAX waits without one.
 * @return true when kicked or asked to park/stop, false on timeout.
 */
DLS_API bool dls_posix_worker_sleep(struct dls_posix_worker *w, uint64_t timeout_ns);

/* ---- hotplug ---------------------------------------------------------------------- */

/**
 * @brief Take @p cpu down: park its worker, then take its runqueue offline
 * with dls_cpu_offline() (its entities move to other CPUs; those with
 * nowhere to go are reported to @p stranded). Other workers keep running.
 * On failure the worker is unparked again.
 * @param[in,out] dom the domain (global: dls_smp_init()).
 * @param[in] cpu the CPU.
 * @param[in,out] w its worker, or NULL.
 * @param[in] force see dls_cpu_offline().
 * @param[in] stranded see dls_cpu_offline() (may be NULL).
 * @param[in] arg its argument.
 * @retval 0 success.
 * @retval DLS_EEXITED the worker has exited.
 * @retval other the error of dls_cpu_offline(); nothing changed.
 * @note No runqueue lock held; the caller serialises hotplug of one domain.
 */
DLS_API int dls_posix_cpu_down(struct dls_domain *dom, int cpu, struct dls_posix_worker *w,
			       bool force, dls_stranded_fn stranded, void *arg);

/**
 * @brief Bring @p cpu up: dls_cpu_online(), then unpark its worker.
 * @param[in,out] dom the domain.
 * @param[in] cpu the CPU.
 * @param[in,out] w its worker, or NULL.
 * @retval 0 success.
 * @retval DLS_EEXITED the worker has exited (the runqueue is online).
 * @retval other the error of dls_cpu_online(); nothing changed.
 * @note No runqueue lock held; the caller serialises hotplug of one domain.
 */
DLS_API int dls_posix_cpu_up(struct dls_domain *dom, int cpu, struct dls_posix_worker *w);

/** @} */

#endif /* DLSCHED_POSIX_H */
