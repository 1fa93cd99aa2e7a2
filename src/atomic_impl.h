/*
 * Word-sized atomics for the library's shared state (the overload mask and
 * count of a domain, and any other word two CPUs update without a common
 * lock). Never installed.
 *
 * Backends, chosen at compile time:
 *  - libatomic_ops (AO_*), when the build found atomic_ops.h and defined
 *    DLSCHED_HAVE_ATOMIC_OPS (the hosted library build);
 *  - C11 <stdatomic.h> otherwise. A freestanding compiler ships that header
 *    itself, so the RTOS build of the core needs no libc and no
 *    libatomic_ops. Test programs that include this header directly also get
 *    this backend, so both are exercised.
 *
 * Every operation works on a plain dls__atomic_word (unsigned long, the
 * machine word: the same type as a CPU-mask word), so a mask that is mostly
 * updated under a lock can also take atomic updates of single bits.
 *
 * Orderings (the names say which):
 *  - dls__atomic_load / dls__atomic_store: atomic, no ordering;
 *  - dls__atomic_load_acquire: later loads and stores stay after it;
 *  - dls__atomic_store_release: earlier loads and stores stay before it;
 *  - dls__atomic_or / dls__atomic_and: atomic read-modify-write, no ordering;
 *  - dls__atomic_fetch_or / _fetch_and / _fetch_add / _fetch_sub / _cas:
 *    atomic read-modify-write returning the old value, full barrier (as
 *    Linux's value-returning atomics);
 *  - dls__atomic_fence: full barrier.
 *
 * The overload protocol of a domain (dl_set_overload/dl_clear_overload of
 * the 2012 SCHED_DEADLINE patches) is written with these:
 *
 *   set:   dls__atomic_or(&mask_word, bit);       the bit is set ...
 *          dls__atomic_fetch_add(&count, 1);      ... before the count counts
 *                                                 it (full barrier, so the
 *                                                 patches' wmb() is implied);
 *   clear: dls__atomic_fetch_sub(&count, 1);      the count drops first ...
 *          dls__atomic_and(&mask_word, ~bit);     ... then the bit goes;
 *   pull:  if (dls__atomic_load_acquire(&count))  a reader that sees the
 *              scan the mask with dls__atomic_load  count see every bit it
 *                                                 counted.
 *
 * So a CPU is never counted without its bit being visible; a reader may
 * still see a bit whose count is already gone (harmless: pull rechecks the
 * source runqueue under its lock).
 */
#ifndef DLSCHED_ATOMIC_IMPL_H
#define DLSCHED_ATOMIC_IMPL_H

#include <stdbool.h>
#include <stddef.h>

/** Word the atomic operations act on. */
typedef unsigned long dls__atomic_word;

#if defined(DLSCHED_HAVE_ATOMIC_OPS) && DLSCHED_HAVE_ATOMIC_OPS

#include <atomic_ops.h>

#define DLS_ATOMIC_BACKEND "libatomic_ops"

_Static_assert(sizeof(AO_t) == sizeof(dls__atomic_word),
	       "AO_t must be the machine word");

#define DLS__AO(p) ((volatile AO_t *)(void *)(p))

static inline dls__atomic_word dls__atomic_load(const dls__atomic_word *p)
{
	return (dls__atomic_word)AO_load((const volatile AO_t *)(const void *)p);
}

static inline dls__atomic_word
dls__atomic_load_acquire(const dls__atomic_word *p)
{
	return (dls__atomic_word)AO_load_acquire(
		(const volatile AO_t *)(const void *)p);
}

static inline void dls__atomic_store(dls__atomic_word *p, dls__atomic_word v)
{
	AO_store(DLS__AO(p), (AO_t)v);
}

static inline void dls__atomic_store_release(dls__atomic_word *p,
					     dls__atomic_word v)
{
	AO_store_release(DLS__AO(p), (AO_t)v);
}

static inline void dls__atomic_or(dls__atomic_word *p, dls__atomic_word v)
{
	AO_or(DLS__AO(p), (AO_t)v);
}

static inline void dls__atomic_and(dls__atomic_word *p, dls__atomic_word v)
{
	AO_and(DLS__AO(p), (AO_t)v);
}

/*
 * Compare-and-swap: when *p == *expected store desired and return true,
 * else load *p into *expected and return false. Full barrier.
 */
static inline bool dls__atomic_cas(dls__atomic_word *p,
				   dls__atomic_word *expected,
				   dls__atomic_word desired)
{
	AO_t old = AO_fetch_compare_and_swap_full(DLS__AO(p), (AO_t)*expected,
						  (AO_t)desired);

	if (old == (AO_t)*expected)
		return true;
	*expected = (dls__atomic_word)old;
	return false;
}

static inline dls__atomic_word dls__atomic_fetch_or(dls__atomic_word *p,
						    dls__atomic_word v)
{
	dls__atomic_word old = dls__atomic_load(p);

	while (!dls__atomic_cas(p, &old, old | v))
		;
	return old;
}

static inline dls__atomic_word dls__atomic_fetch_and(dls__atomic_word *p,
						     dls__atomic_word v)
{
	dls__atomic_word old = dls__atomic_load(p);

	while (!dls__atomic_cas(p, &old, old & v))
		;
	return old;
}

static inline dls__atomic_word dls__atomic_fetch_add(dls__atomic_word *p,
						     dls__atomic_word v)
{
	return (dls__atomic_word)AO_fetch_and_add_full(DLS__AO(p), (AO_t)v);
}

static inline dls__atomic_word dls__atomic_fetch_sub(dls__atomic_word *p,
						     dls__atomic_word v)
{
	return (dls__atomic_word)AO_fetch_and_add_full(DLS__AO(p),
						       (AO_t)0 - (AO_t)v);
}

static inline void dls__atomic_fence(void)
{
	AO_nop_full();
}

#undef DLS__AO

#else /* C11 */

#include <stdatomic.h>

#define DLS_ATOMIC_BACKEND "c11"

/*
 * The words are plain objects also accessed under locks without atomics;
 * C11 atomics reach them through an _Atomic view, which is sound where the
 * atomic type has the plain type's size and is always lock-free.
 */
_Static_assert(sizeof(_Atomic dls__atomic_word) == sizeof(dls__atomic_word),
	       "atomic word must be the size of a plain word");
#if !defined(ATOMIC_LONG_LOCK_FREE) || ATOMIC_LONG_LOCK_FREE != 2
#error "libdlsched needs lock-free atomics on unsigned long"
#endif

#define DLS__A(p) ((_Atomic dls__atomic_word *)(void *)(p))
#define DLS__CA(p) ((const _Atomic dls__atomic_word *)(const void *)(p))

static inline dls__atomic_word dls__atomic_load(const dls__atomic_word *p)
{
	return atomic_load_explicit(DLS__CA(p), memory_order_relaxed);
}

static inline dls__atomic_word
dls__atomic_load_acquire(const dls__atomic_word *p)
{
	return atomic_load_explicit(DLS__CA(p), memory_order_acquire);
}

static inline void dls__atomic_store(dls__atomic_word *p, dls__atomic_word v)
{
	atomic_store_explicit(DLS__A(p), v, memory_order_relaxed);
}

static inline void dls__atomic_store_release(dls__atomic_word *p,
					     dls__atomic_word v)
{
	atomic_store_explicit(DLS__A(p), v, memory_order_release);
}

static inline void dls__atomic_or(dls__atomic_word *p, dls__atomic_word v)
{
	(void)atomic_fetch_or_explicit(DLS__A(p), v, memory_order_relaxed);
}

static inline void dls__atomic_and(dls__atomic_word *p, dls__atomic_word v)
{
	(void)atomic_fetch_and_explicit(DLS__A(p), v, memory_order_relaxed);
}

static inline bool dls__atomic_cas(dls__atomic_word *p,
				   dls__atomic_word *expected,
				   dls__atomic_word desired)
{
	return atomic_compare_exchange_strong(DLS__A(p), expected, desired);
}

static inline dls__atomic_word dls__atomic_fetch_or(dls__atomic_word *p,
						    dls__atomic_word v)
{
	return atomic_fetch_or(DLS__A(p), v);
}

static inline dls__atomic_word dls__atomic_fetch_and(dls__atomic_word *p,
						     dls__atomic_word v)
{
	return atomic_fetch_and(DLS__A(p), v);
}

static inline dls__atomic_word dls__atomic_fetch_add(dls__atomic_word *p,
						     dls__atomic_word v)
{
	return atomic_fetch_add(DLS__A(p), v);
}

static inline dls__atomic_word dls__atomic_fetch_sub(dls__atomic_word *p,
						     dls__atomic_word v)
{
	return atomic_fetch_sub(DLS__A(p), v);
}

static inline void dls__atomic_fence(void)
{
	atomic_thread_fence(memory_order_seq_cst);
}

#undef DLS__A
#undef DLS__CA

#endif /* backend */

#endif /* DLSCHED_ATOMIC_IMPL_H */
