/**
 * @file posix_clock.h
 * @brief POSIX platform, part 1: the system clock and the runqueue locks.
 *
 * A struct dls_posix_clock reads CLOCK_MONOTONIC (or CLOCK_MONOTONIC_RAW /
 * CLOCK_BOOTTIME) in nanoseconds; a struct dls_posix_lock is a pthread mutex
 * or a pthread spinlock behind one switch. struct dls_posix (dlsched/posix.h)
 * holds one clock and one lock per CPU and hands them to a domain as its
 * @c now, @c lock and @c unlock ops; both can also be used on their own.
 *
 * @code
 * struct dls_posix_clock clk;
 * struct dls_posix_lock l;
 * if (dls_posix_clock_init(&clk, DLS_POSIX_CLOCK_MONOTONIC) ||
 *     dls_posix_lock_init(&l, DLS_POSIX_LOCK_SPIN))
 *         return -1;
 * dls_posix_lock_acquire(&l);
 * uint64_t t = dls_posix_clock_now(&clk);
 * dls_posix_lock_release(&l);
 * dls_posix_lock_destroy(&l);
 * @endcode
 *
 * Included by dlsched/posix.h. No global state. Only built with pthreads
 * (src/platform/posix/).
 */
#ifndef DLSCHED_POSIX_CLOCK_H
#define DLSCHED_POSIX_CLOCK_H

#include <pthread.h>
#include <time.h>

#include <dlsched/common.h>

/**
 * @defgroup posix_clock POSIX clock and locks
 * @ingroup posix
 * @brief A system clock in ns; mutex or spinlock runqueue locks.
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
 * @note Any thread; @p c is not in use by another.
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
 * @note Any thread; @p l is not in use (not initialised, or destroyed).
 */
DLS_API int dls_posix_lock_init(struct dls_posix_lock *l,
				enum dls_posix_lock_kind kind);

/**
 * @brief Destroy a lock (not held).
 * @param[in,out] l the lock.
 * @note No thread holds it or waits for it.
 */
DLS_API void dls_posix_lock_destroy(struct dls_posix_lock *l);

/**
 * @brief Take a lock (not recursive).
 * @param[in,out] l the lock.
 * @note Any thread that does not hold it already; a spinlock spins while
 *       contended, so hold one only for short sections.
 */
DLS_API void dls_posix_lock_acquire(struct dls_posix_lock *l);

/**
 * @brief Release a lock the caller holds.
 * @param[in,out] l the lock.
 * @note The thread that took it.
 */
DLS_API void dls_posix_lock_release(struct dls_posix_lock *l);

/** @} */

#endif /* DLSCHED_POSIX_CLOCK_H */
