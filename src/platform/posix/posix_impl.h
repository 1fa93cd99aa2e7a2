/*
 * Functions shared by the POSIX platform sources. Never installed.
 */
#ifndef DLSCHED_POSIX_IMPL_H
#define DLSCHED_POSIX_IMPL_H

#include <dlsched/posix.h>

#include "internal.h"

/* A condition variable whose timed waits run on CLOCK_MONOTONIC. */
DLS_HIDDEN int dls__posix_cond_init(pthread_cond_t *cond);

/* CLOCK_MONOTONIC now, ns. */
DLS_HIDDEN uint64_t dls__posix_mono_now(void);

/*
 * Wait on @cond until CLOCK_MONOTONIC reaches @until_mono (UINT64_MAX:
 * no timeout). Returns false on timeout. Spurious wake-ups return true:
 * callers re-test their condition.
 */
DLS_HIDDEN bool dls__posix_cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *m,
					   uint64_t until_mono);

/* Whether the calling thread is @s's service thread (a timer callback). */
DLS_HIDDEN bool dls__posix_timers_on_service(struct dls_posix_timers *s);

#endif /* DLSCHED_POSIX_IMPL_H */
