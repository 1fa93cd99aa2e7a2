/*
 * POSIX PI mutex: the PI core of src/pi/ driven by real threads.
 *
 * Contract: every PI-core call on a domain runs under the domain lock, so
 * the core's trees, owner and blocked_on links are only ever touched by one
 * thread at a time. A thread that dls_pi_lock() queues sleeps on its own
 * condvar until its task's blocked_on link is cleared, which only
 * dls_pi_unlock() does when it makes the thread the owner (the unlocker then
 * signals it). Spurious wake-ups re-test that link.
 */
#include <dlsched/pi_posix.h>

#include "internal.h"

int dls_pi_posix_init(struct dls_pi_posix *d, const struct dls_pi_ops *ops, void *ctx)
{
	if (pthread_mutex_init(&d->lock, NULL) != 0)
		return DLS_ENOMEM;
	dls_pi_ctx_init(&d->pi, ops, ctx);
	return 0;
}

void dls_pi_posix_destroy(struct dls_pi_posix *d)
{
	pthread_mutex_destroy(&d->lock);
}

int dls_pi_posix_thread_init(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
			     int prio, bool has_dl, uint64_t dl)
{
	(void)d;
	if (pthread_cond_init(&th->cond, NULL) != 0)
		return DLS_ENOMEM;
	dls_pi_task_init(&th->task, prio, has_dl, dl);
	return 0;
}

void dls_pi_posix_thread_destroy(struct dls_pi_posix_thread *th)
{
	DLS_ASSERT(th->task.blocked_on == NULL);
	pthread_cond_destroy(&th->cond);
}

void dls_pi_posix_mutex_init(struct dls_pi_posix *d, struct dls_pi_posix_mutex *m)
{
	(void)d;
	dls_pi_mutex_init(&m->m);
}

int dls_pi_posix_lock(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
		      struct dls_pi_posix_mutex *m)
{
	int rc;

	pthread_mutex_lock(&d->lock);
	rc = dls_pi_lock(&d->pi, &th->task, &m->m, &th->waiter);
	if (rc == DLS_PI_BLOCKED) {
		while (th->task.blocked_on)
			pthread_cond_wait(&th->cond, &d->lock);
		DLS_ASSERT(m->m.owner == &th->task);
		rc = 0;
	}
	pthread_mutex_unlock(&d->lock);
	return rc;
}

int dls_pi_posix_trylock(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
			 struct dls_pi_posix_mutex *m)
{
	bool taken;

	pthread_mutex_lock(&d->lock);
	taken = dls_pi_trylock(&th->task, &m->m);
	pthread_mutex_unlock(&d->lock);
	return taken ? 0 : DLS_EBUSY;
}

int dls_pi_posix_unlock(struct dls_pi_posix *d, struct dls_pi_posix_thread *th,
			struct dls_pi_posix_mutex *m)
{
	struct dls_pi_task *next;

	pthread_mutex_lock(&d->lock);
	if (m->m.owner != &th->task) {
		pthread_mutex_unlock(&d->lock);
		return DLS_EINVAL;
	}
	next = dls_pi_unlock(&d->pi, &th->task, &m->m);
	if (next)
		pthread_cond_signal(&dls_container_of(next, struct dls_pi_posix_thread,
						      task)->cond);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

const char *dls_pi_posix_check(struct dls_pi_posix *d,
			       struct dls_pi_posix_thread *const *threads, size_t nr_threads,
			       struct dls_pi_posix_mutex *const *mutexes, size_t nr_mutexes)
{
	struct dls_pi_task *ts[256];
	struct dls_pi_mutex *ms[256];
	const char *err;

	if (nr_threads > 256 || nr_mutexes > 256)
		return "too many threads or mutexes to check";
	for (size_t i = 0; i < nr_threads; i++)
		ts[i] = &threads[i]->task;
	for (size_t i = 0; i < nr_mutexes; i++)
		ms[i] = &mutexes[i]->m;
	pthread_mutex_lock(&d->lock);
	err = dls_pi_check(ts, nr_threads, ms, nr_mutexes);
	pthread_mutex_unlock(&d->lock);
	return err;
}
