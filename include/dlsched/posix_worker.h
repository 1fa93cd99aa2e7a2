/**
 * @file posix_worker.h
 * @brief POSIX platform, part 3: parkable per-CPU workers and CPU hotplug.
 *
 * A worker is a thread bound to one CPU that runs the integrator's function
 * and can be parked and unparked (Linux's kthread park facility): that is
 * how a CPU goes offline and comes back without tearing its thread down.
 * dls_posix_cpu_down() and dls_posix_cpu_up() pair a worker's park/unpark
 * with dls_cpu_offline() / dls_cpu_online() of its runqueue.
 *
 * @code
 * static int cpu_main(struct dls_posix_worker *w, void *arg)
 * {
 *         while (!dls_posix_worker_should_stop(w) &&
 *                !dls_posix_worker_should_park(w)) {
 *                 ... // lock the runqueue, dls_schedule(), run the pick
 *                 dls_posix_worker_sleep(w, UINT64_MAX); // until kicked
 *         }
 *         return 0;
 * }
 *
 * dls_posix_worker_create(&w[1], cpu_main, &cpus[1], 1, 0);
 * dls_posix_worker_wake(&w[1]);
 * ...
 * dls_posix_cpu_down(&dom, 1, &w[1], false, on_stranded, NULL);
 * dls_posix_cpu_up(&dom, 1, &w[1]);
 * ...
 * dls_posix_worker_stop(&w[1], NULL);
 * @endcode
 *
 * Included by dlsched/posix.h. No global state. Only built with pthreads
 * (src/platform/posix/).
 */
#ifndef DLSCHED_POSIX_WORKER_H
#define DLSCHED_POSIX_WORKER_H

#include <pthread.h>

#include <dlsched/smp.h>

/**
 * @defgroup posix_worker POSIX workers and hotplug
 * @ingroup posix
 * @brief Per-CPU threads that park and unpark; CPU down and up.
 * @{
 */

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
 * @note Any thread. The thread keeps a pointer to @p w: it stays in place
 *       until dls_posix_worker_stop().
 */
DLS_API int dls_posix_worker_create(struct dls_posix_worker *w, dls_posix_worker_fn fn,
				    void *arg, int cpu, unsigned int flags);

/**
 * @brief First wake-up: let @p fn run (wake_up_process after kthread_create).
 * Nothing happens when already woken, parked or stopped.
 * @param[in,out] w the worker.
 * @note Any thread, any lock held.
 */
DLS_API void dls_posix_worker_wake(struct dls_posix_worker *w);

/**
 * @brief Whether the thread function should return for good.
 * @param[in] w the worker (called by its own thread).
 * @return true after dls_posix_worker_stop() was called.
 * @note Never blocks (an atomic load); any lock may be held.
 */
DLS_API bool dls_posix_worker_should_stop(struct dls_posix_worker *w);

/**
 * @brief Whether the thread function should return to be parked.
 * @param[in] w the worker (called by its own thread).
 * @return true while a park is requested.
 * @note Never blocks (an atomic load); any lock may be held.
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
 * @note From another thread it waits for the worker's function to
 *       return: hold no lock that function needs.
 */
DLS_API int dls_posix_worker_park(struct dls_posix_worker *w);

/**
 * @brief Unpark: re-bind to the CPU and wake it; its function is called
 * again. Nothing happens for a worker that is not parked (also while a
 * park is in progress: that park completes, as in the 2012 kthread
 * park/unpark patch).
 * @param[in,out] w the worker.
 * @retval 0 success (also when it was not parked).
 * @retval DLS_EEXITED the thread has exited.
 * @note Any thread, any lock held.
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
 * @note Joins the thread: hold no lock its function needs to return; one
 *       stop per worker (stops of one worker are not concurrent).
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
 * @note Blocks: call it with no runqueue lock held.
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
 * @retval DLS_EBUSY another thread unparked the worker meanwhile (see
 *         dls_posix_worker_park()); the runqueue is still online.
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

#endif /* DLSCHED_POSIX_WORKER_H */
