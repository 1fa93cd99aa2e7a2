/*
 * Internal helpers shared by the library's sources. Never installed.
 */
#ifndef DLSCHED_INTERNAL_H
#define DLSCHED_INTERNAL_H

#include <dlsched/common.h>

#if defined(__GNUC__)
#  define DLS_HIDDEN __attribute__((visibility("hidden")))
#  define DLS_NORETURN __attribute__((noreturn))
#  define DLS_NOINLINE __attribute__((noinline))
#else
#  define DLS_HIDDEN
#  define DLS_NORETURN
#  define DLS_NOINLINE
#endif

/*
 * DLS_RACY marks a small function whose loads read another CPU's state
 * without that CPU's lock, by design: the result is a hint that the caller
 * checks again under the lock (the kernel's data_race()/READ_ONCE peeks).
 * ThreadSanitizer does not instrument it, and it is never inlined into an
 * instrumented caller.
 */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#  define DLS_RACY __attribute__((no_sanitize("thread"), noinline))
#elif defined(__GNUC__)
#  define DLS_RACY __attribute__((noinline))
#else
#  define DLS_RACY
#endif

/*
 * Two levels of checks, and the rule for choosing between them: a state
 * that only a bug inside the library can produce is an internal invariant,
 * checked with DLS_ASSERT; a wrong call that a caller can make and recover
 * from is API misuse, refused with an error code and nothing changed.
 *  - DLS_ASSERT: internal invariants and cheap-to-detect misuse. On when the
 *    library is built with DLSCHED_ENABLE_ASSERT (debug and test builds), off
 *    in release builds, independent of NDEBUG.
 *  - API misuse that a caller can recover from returns DLS_EINVAL (or the
 *    DLS_E* code naming the state it found), in every build.
 */
DLS_HIDDEN DLS_NORETURN void dls__assert_fail(const char *expr,
					      const char *file, int line,
					      const char *func);

/* @n rounded up to a multiple of @align, a power of two: where the next
 * part of a caller-provided storage block may start. */
static inline size_t dls__align_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
#  define DLS_ASSERT(x)                                                        \
	((x) ? (void)0 : dls__assert_fail(#x, __FILE__, __LINE__, __func__))
#else
#  define DLS_ASSERT(x) ((void)0)
#endif

/*
 * The growth policy's reserved words (types.h): init functions zero them,
 * dls_domain_init() refuses caller-filled ones that are not zero.
 */
#define DLS__NR(array) (sizeof(array) / sizeof((array)[0]))
#define DLS__CLEAR_RESERVED(obj) dls__zero_words((obj)->reserved, DLS__NR((obj)->reserved))

static inline void dls__zero_words(uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		w[i] = 0;
}

static inline bool dls__words_zero(const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i])
			return false;
	return true;
}

static inline bool dls__slots_null(void (*const *slot)(void), size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (slot[i])
			return false;
	return true;
}

/* math128's backends: the library's own dls_u128_* calls inline them. */
#include "math128/math128_impl.h"

#endif /* DLSCHED_INTERNAL_H */
