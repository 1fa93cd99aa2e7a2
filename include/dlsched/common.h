/**
 * @file common.h
 * @brief Types, error codes and helpers shared by every libdlsched module.
 *
 * This header needs nothing but the freestanding C headers, so a struct in an
 * RTOS or hypervisor can embed libdlsched objects without pulling in the API.
 *
 * NULL, in every libdlsched header: pointer arguments are preconditions,
 * as in the kernel. NULL where an object is expected is a bug in the
 * caller: builds with DLSCHED_ENABLE_ASSERT stop on it with a message,
 * release builds do not test it. The exceptions are named in the
 * parameter's documentation ("may be NULL", "NULL for the defaults"); the
 * set-up functions of caller-provided storage and locks (dls_cpumask_init(),
 * dls_smp_init(), dls_smp_set_heap_lock(), dls_smp_set_bw_lock()) and dls_params_check() also return DLS_EINVAL for
 * NULL, as their documentation says. What is checked in every build is the
 * state of an object: a call that does not apply to it returns a distinct
 * DLS_E* code and changes nothing.
 */
#ifndef DLSCHED_COMMON_H
#define DLSCHED_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dlsched/config.h>

/**
 * @defgroup common Common definitions
 * @brief Export macro, error codes, wrap-safe time comparison, container_of.
 * @{
 */

/** @cond INTERNAL */
#if defined(DLSCHED_STATIC_DEFINE) || defined(DLSCHED_FREESTANDING)
#  define DLS_API
#elif defined(_WIN32)
#  ifdef DLSCHED_BUILDING
#    define DLS_API __declspec(dllexport)
#  else
#    define DLS_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define DLS_API __attribute__((visibility("default")))
#else
#  define DLS_API
#endif

#if defined(__GNUC__)
#  define DLS_LIKELY(x) __builtin_expect(!!(x), 1)
#  define DLS_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  define DLS_INLINE static inline __attribute__((always_inline))
#else
#  define DLS_LIKELY(x) (x)
#  define DLS_UNLIKELY(x) (x)
#  define DLS_INLINE static inline
#endif
/** @endcond */

/**
 * @brief Error codes, as an X-macro table: `X(name, value, message)`.
 *
 * Every function that can fail returns 0 or one of the negative values built
 * from this table; dls_strerror() gives the message.
 */
#define DLS_ERRNO_MAP(X)                                                       \
	X(EINVAL, -1, "invalid argument")                                      \
	X(ENOMEM, -2, "not enough memory")                                     \
	X(EBUSY, -3, "object is busy")                                         \
	X(ERANGE, -4, "result does not fit in 64 bits")                        \
	X(EMODEL, -5, "task set or platform outside the test's model")         \
	X(EDEADLINE_ZERO, -10, "relative deadline is zero")                    \
	X(ERUNTIME_GT_DEADLINE, -11, "runtime exceeds relative deadline")      \
	X(EDEADLINE_GT_PERIOD, -12, "relative deadline exceeds period")        \
	X(ERUNTIME_MIN, -13, "runtime below the minimum of 1024 ns")           \
	X(ETOPBIT, -14, "a time parameter has bit 63 set")                     \
	X(EPERIOD_RANGE, -15, "period outside the domain's [min, max] range")  \
	X(EFLAGS, -16, "unknown flags, or flags that exclude each other")     \
	X(EBANDWIDTH, -17, "admission control: bandwidth limit exceeded")      \
	X(EDEADLK, -20, "deadlock detected")                                   \
	X(ELOOP, -21, "lock chain deeper than the configured limit")           \
	X(ENOCPU, -30, "no online CPU allowed by the affinity mask")           \
	X(ESTATE, -31, "operation not allowed in the object's current state")  \
	X(ECAPACITY, -32, "remaining CPUs cannot hold the admitted bandwidth") \
	X(EOFFLINE, -33, "the runqueue's CPU is offline")                      \
	X(EEXITED, -40, "worker thread has exited")                            \
	X(ESTOPPED, -41, "worker stopped before its thread function ran")      \
	X(ETHREAD, -42, "a thread could not be created")                       \
	X(ECLOCK, -43, "clock not available on this system")                   \
	X(EDETACHED, -50, "entity is not attached to a runqueue")              \
	X(EOTHERRQ, -51, "entity is attached to another runqueue")             \
	X(EATTACHED, -52, "entity is already attached")                        \
	X(EQUEUED, -53, "entity is already queued")                            \
	X(ENOTQUEUED, -54, "entity is not queued")                             \
	X(ERUNNABLE, -55, "entity is already runnable")                        \
	X(ENOTRUNNABLE, -56, "entity is not runnable")                         \
	X(ERUNNING, -57, "entity is running (current on its runqueue)")        \
	X(ENOTCURR, -58, "entity is not the runqueue's current entity")        \
	X(EHASCURR, -59, "runqueue already has a current entity")              \
	X(EBLOCKED, -60, "task is already blocked on a mutex")

/** @brief Error codes returned (negated) by libdlsched functions. */
enum dls_errno {
/** @cond INTERNAL */
#define DLS__ERRNO_ENUM(name, val, msg) DLS_##name = (val),
	DLS_ERRNO_MAP(DLS__ERRNO_ENUM)
#undef DLS__ERRNO_ENUM
/** @endcond */
	DLS_OK = 0 /**< success */
};

/**
 * @brief Human-readable message for a libdlsched return code.
 * @param[in] err 0 or a negative DLS_E* code.
 * @return A static string; "unknown error" for a value not in the table.
 */
DLS_API const char *dls_strerror(int err);

/**
 * @brief Symbolic name ("DLS_EINVAL") of a libdlsched return code.
 * @param[in] err 0 or a negative DLS_E* code.
 * @return A static string; "DLS_E?" for a value not in the table.
 */
DLS_API const char *dls_errname(int err);

/**
 * @brief Wrap-safe "a is before b" for u64 nanosecond times.
 *
 * Correct as long as the two instants are less than 2^63 ns (292 years) apart,
 * so times may wrap past 2^64 - 1.
 * @param[in] a first instant, ns.
 * @param[in] b second instant, ns.
 * @return true when @p a lies strictly before @p b.
 */
DLS_INLINE bool dls_time_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

/**
 * @brief Wrap-safe "a is after b"; see dls_time_before().
 * @param[in] a first instant, ns.
 * @param[in] b second instant, ns.
 * @return true when @p a lies strictly after @p b.
 */
DLS_INLINE bool dls_time_after(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) < 0;
}

/**
 * @brief From a pointer to a member back to the struct that embeds it.
 * @param ptr pointer to the member.
 * @param type type of the containing struct.
 * @param member name of the member within @p type.
 */
#define dls_container_of(ptr, type, member)                                    \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/**
 * @brief A plain lock supplied by the integrator: a domain's heap of CPU
 * deadlines (dls_smp_set_heap_lock()) and a domain's bandwidth
 * lock (dls_smp_set_bw_lock()).
 */
struct dls_lock_ops {
	/** Take the lock (not recursive; the library never nests it). */
	void (*lock)(void *ctx);
	/** Release it. */
	void (*unlock)(void *ctx);
};

/** @} */

#endif /* DLSCHED_COMMON_H */
