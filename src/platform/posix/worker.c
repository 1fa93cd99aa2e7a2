/*
 * Parkable per-CPU workers: Linux's kthread park/unpark facility
 * (kernel/kthread.c, "kthread: Implement park/unpark facility") on pthreads.
 *
 * States, all under w->lock and broadcast on w->cond when they change:
 *   created --wake/park/stop--> loop;  in the loop the thread either runs
 *   fn, or sits parked while PARK is requested, until STOP is requested or
 *   fn returns with no park request. Then exited, then joined by stop.
 *
 * The loop (kthread() with the park/unpark facility of the 2012 kthread
 * patch that SCHED_DEADLINE's SMP work came with):
 *     result = DLS_ESTOPPED
 *     while (!STOP) {
 *         if (PARK) { parked = true; wait while PARK && !STOP; continue; }
 *         result = fn(w, arg);
 *         if (!PARK) break;       // a return while parking: run again later
 *     }
 * Loop invariant: PARK is cleared only together with parked (by unpark),
 * so a thread function that returned because of a park request always
 * finds it and parks; and a park() issued before the thread saw an unpark
 * waits for a fresh park position instead of returning on a stale one.
 *
 * The STOP/PARK requests are also read without the lock by the thread
 * function (should_stop/should_park) through acquire loads of an atomic
 * word; they are written with full-barrier read-modify-writes under the
 * lock.
 */
#define _GNU_SOURCE

#include <sched.h>

#include "atomic_impl.h"
#include "platform/posix/posix_impl.h"

#define REQ_STOP 0x1ul
#define REQ_PARK 0x2ul

static unsigned long requests(struct dls_posix_worker *w)
{
	return dls__atomic_load_acquire(&w->requests);
}

static void request(struct dls_posix_worker *w, unsigned long bit)
{
	(void)dls__atomic_fetch_or(&w->requests, bit);
}

static void unrequest(struct dls_posix_worker *w, unsigned long bit)
{
	(void)dls__atomic_fetch_and(&w->requests, ~bit);
}

/* Pin the thread to its CPU when the process may use that CPU. */
static bool bind_cpu(pthread_t th, int cpu)
{
#if defined(__linux__) && defined(CPU_SET)
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) != 0 ||
	    !CPU_ISSET(cpu, &set))
		return false;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(th, sizeof(set), &set) == 0;
#else
	(void)th;
	(void)cpu;
	return false;
#endif
}

static void *worker_main(void *arg)
{
	struct dls_posix_worker *w = arg;
	int result = DLS_ESTOPPED;

	pthread_mutex_lock(&w->lock);
	while (!w->woken && !requests(w))
		pthread_cond_wait(&w->cond, &w->lock);
	while (!(requests(w) & REQ_STOP)) {
		if (requests(w) & REQ_PARK) {
			if (!w->parked) {
				w->parked = true;
				pthread_cond_broadcast(&w->cond);
			}
			pthread_cond_wait(&w->cond, &w->lock);
			continue;
		}
		pthread_mutex_unlock(&w->lock);
		result = w->fn(w, w->arg);
		pthread_mutex_lock(&w->lock);
		w->runs++;
		if (!(requests(w) & REQ_PARK))
			break;
	}
	w->result = result;
	w->exited = true;
	w->parked = false;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int dls_posix_worker_create(struct dls_posix_worker *w, dls_posix_worker_fn fn,
			    void *arg, int cpu, unsigned int flags)
{
	int rc;

	if (!w || !fn || cpu < 0)
		return DLS_EINVAL;
	*w = (struct dls_posix_worker){ .fn = fn, .arg = arg, .cpu = cpu, .flags = flags };
	if (pthread_mutex_init(&w->lock, NULL) != 0)
		return DLS_ENOMEM;
	if (dls__posix_cond_init(&w->cond) != 0) {
		pthread_mutex_destroy(&w->lock);
		return DLS_ENOMEM;
	}
	pthread_mutex_lock(&w->lock);
	rc = pthread_create(&w->thread, NULL, worker_main, w);
	if (rc == 0 && !(flags & DLS_POSIX_WORKER_NOBIND))
		w->bound = bind_cpu(w->thread, cpu);
	pthread_mutex_unlock(&w->lock);
	if (rc != 0) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		return DLS_ETHREAD;
	}
	return 0;
}

void dls_posix_worker_wake(struct dls_posix_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->woken = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

bool dls_posix_worker_should_stop(struct dls_posix_worker *w)
{
	return (requests(w) & REQ_STOP) != 0;
}

bool dls_posix_worker_should_park(struct dls_posix_worker *w)
{
	return (requests(w) & REQ_PARK) != 0;
}

int dls_posix_worker_park(struct dls_posix_worker *w)
{
	int ret = 0;

	pthread_mutex_lock(&w->lock);
	if (w->exited) {
		ret = DLS_EEXITED;
	} else if (!w->parked) {
		request(w, REQ_PARK);
		if (!pthread_equal(pthread_self(), w->thread)) {
			pthread_cond_broadcast(&w->cond);
			while (!w->parked && !w->exited && (requests(w) & REQ_PARK))
				pthread_cond_wait(&w->cond, &w->lock);
			if (w->exited)
				ret = DLS_EEXITED;
			else if (!w->parked)
				ret = DLS_EBUSY; /* an unpark overrode this park */
		}
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

int dls_posix_worker_unpark(struct dls_posix_worker *w)
{
	int ret = 0;

	pthread_mutex_lock(&w->lock);
	if (w->exited) {
		ret = DLS_EEXITED;
	} else {
		/* As kthread_unpark(): only a parked worker is unparked. Withdrawing a
		 * park in progress could let a thread function that returned for
		 * it find no request and end the thread. */
		if (w->parked) {
			/* Hotplug may have broken the affinity: bind again. */
			if (!(w->flags & DLS_POSIX_WORKER_NOBIND))
				w->bound = bind_cpu(w->thread, w->cpu);
			w->parked = false;
			w->woken = true;
			unrequest(w, REQ_PARK);
			pthread_cond_broadcast(&w->cond);
		}
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

int dls_posix_worker_stop(struct dls_posix_worker *w, int *result)
{
	/* Only the stopper writes joined, and stops are not concurrent. */
	if (w->joined)
		return DLS_ESTATE;
	pthread_mutex_lock(&w->lock);
	if (pthread_equal(pthread_self(), w->thread)) {
		pthread_mutex_unlock(&w->lock);
		return DLS_EDEADLK;
	}
	w->joined = true;
	request(w, REQ_STOP);
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (result)
		*result = w->result;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	return 0;
}

void dls_posix_worker_kick(struct dls_posix_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->kicked = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

bool dls_posix_worker_sleep(struct dls_posix_worker *w, uint64_t timeout_ns)
{
	uint64_t until = UINT64_MAX;
	bool woke;

	if (timeout_ns != UINT64_MAX)
		until = dls__posix_mono_now() + timeout_ns;
	pthread_mutex_lock(&w->lock);
	while (!w->kicked && !requests(w)) {
		if (until != UINT64_MAX && !dls_time_before(dls__posix_mono_now(), until))
			break;
		dls__posix_cond_wait_until(&w->cond, &w->lock, until);
	}
	woke = w->kicked || requests(w);
	w->kicked = false;
	pthread_mutex_unlock(&w->lock);
	return woke;
}
