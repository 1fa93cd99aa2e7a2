/*
 * POSIX clock and runqueue locks.
 *
 * The clock is a clockid_t read with clock_gettime(); the Linux clocks
 * MONOTONIC_RAW and BOOTTIME are used when the headers and the running
 * kernel have them (clock_getres() says so at init). Locks are a pthread
 * mutex or a pthread spinlock behind one switch: a spinlock suits short
 * critical sections on CPUs that are not oversubscribed, a mutex everything
 * else (the threaded tests run more threads than CPUs, so they use both).
 */
#define _GNU_SOURCE

#include <dlsched/posix.h>

#include "internal.h"

_Static_assert(sizeof(clockid_t) <= sizeof(int), "clockid_t must fit an int");
_Static_assert(sizeof(pthread_spinlock_t) <= sizeof(pthread_mutex_t) &&
		       _Alignof(pthread_spinlock_t) <= _Alignof(pthread_mutex_t),
	       "a spinlock must fit the mutex slot");

static pthread_spinlock_t *spin(struct dls_posix_lock *l)
{
	return (pthread_spinlock_t *)(void *)l->u.spin;
}

int dls_posix_clock_init(struct dls_posix_clock *c, enum dls_posix_clock_id which)
{
	struct timespec res;
	clockid_t id;

	if (!c)
		return DLS_EINVAL;
	switch (which) {
	case DLS_POSIX_CLOCK_MONOTONIC:
		id = CLOCK_MONOTONIC;
		break;
	case DLS_POSIX_CLOCK_MONOTONIC_RAW:
#ifdef CLOCK_MONOTONIC_RAW
		id = CLOCK_MONOTONIC_RAW;
		break;
#else
		return DLS_ECLOCK;
#endif
	case DLS_POSIX_CLOCK_BOOTTIME:
#ifdef CLOCK_BOOTTIME
		id = CLOCK_BOOTTIME;
		break;
#else
		return DLS_ECLOCK;
#endif
	default:
		return DLS_EINVAL;
	}
	if (clock_getres(id, &res) != 0)
		return DLS_ECLOCK;
	c->id = (int)id;
	c->which = which;
	return 0;
}

uint64_t dls_posix_clock_now(const struct dls_posix_clock *c)
{
	struct timespec ts;

	clock_gettime((clockid_t)c->id, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

int dls_posix_lock_init(struct dls_posix_lock *l, enum dls_posix_lock_kind kind)
{
	if (!l)
		return DLS_EINVAL;
	switch (kind) {
	case DLS_POSIX_LOCK_MUTEX:
		if (pthread_mutex_init(&l->u.mutex, NULL) != 0)
			return DLS_ENOMEM;
		break;
	case DLS_POSIX_LOCK_SPIN:
		if (pthread_spin_init(spin(l), PTHREAD_PROCESS_PRIVATE) != 0)
			return DLS_ENOMEM;
		break;
	default:
		return DLS_EINVAL;
	}
	l->kind = kind;
	return 0;
}

void dls_posix_lock_destroy(struct dls_posix_lock *l)
{
	if (l->kind == DLS_POSIX_LOCK_SPIN)
		pthread_spin_destroy(spin(l));
	else
		pthread_mutex_destroy(&l->u.mutex);
}

void dls_posix_lock_acquire(struct dls_posix_lock *l)
{
	int rc;

	if (l->kind == DLS_POSIX_LOCK_SPIN)
		rc = pthread_spin_lock(spin(l));
	else
		rc = pthread_mutex_lock(&l->u.mutex);
	DLS_ASSERT(rc == 0);
	(void)rc;
}

void dls_posix_lock_release(struct dls_posix_lock *l)
{
	if (l->kind == DLS_POSIX_LOCK_SPIN)
		pthread_spin_unlock(spin(l));
	else
		pthread_mutex_unlock(&l->u.mutex);
}
