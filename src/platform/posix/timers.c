/*
 * Timer service: one thread fires the armed timers of one service in
 * expiry order.
 *
 * Invariants (under s->lock):
 *  - t->queued iff t is on s->armed, ordered by (expires, seq): equal
 *    expiries fire in arming order;
 *  - s->running is the timer whose expiry the service thread is handling
 *    (taken off the tree, not yet finished), or NULL;
 *  - t->gen changes on every arm and cancel, so an expiry in progress can
 *    tell whether the timer it took was re-armed or cancelled meanwhile.
 *
 * A timer belongs to the first service it is armed on (t->svc) until it is
 * initialised or bound again: later calls naming another service act on
 * that one. So every field of a timer is guarded by one service's lock even
 * when its entity moves to a domain of another platform (the expiry then
 * follows the entity across domains, one runqueue lock at a time).
 *
 * Never early: the thread fires the leftmost timer only once the service
 * clock has reached its expiry. It sleeps on a CLOCK_MONOTONIC condition
 * variable; for another service clock (RAW, BOOTTIME: different rate) the
 * sleep is the remaining time converted at rate 1, and the clock is read
 * again on waking, so a short sleep only costs another round.
 *
 * Bound timers (the core's replenishment timers) expire under the lock of
 * the entity's runqueue. Lock order is runqueue lock -> s->lock (the core
 * arms and cancels with a runqueue lock held), so the thread drops s->lock,
 * takes the runqueue lock, then takes s->lock again to see whether the arm
 * it took is still current (gen unchanged, not queued again). The runqueue
 * is the one recorded at arm time, when the arming caller held its lock;
 * the entity can only leave a runqueue under that runqueue's lock, so
 * finding se->rq equal to the runqueue whose lock the thread holds is
 * stable; when the entity has moved, the thread follows it one lock at a
 * time (the task_rq_lock pattern).
 * A cancel by the core (runqueue lock held) while the thread waits for the
 * lock returns RUNNING and bumps gen; the thread then sees it and does
 * nothing, which is the "stale expiry" the core expects.
 */
#define _GNU_SOURCE

#include "platform/posix/posix_impl.h"

static struct dls_posix_timer *node_timer(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct dls_posix_timer, node);
}

static bool timer_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	const struct dls_posix_timer *x = node_timer(a), *y = node_timer(b);

	if (x->expires != y->expires)
		return dls_time_before(x->expires, y->expires);
	return x->seq < y->seq;
}

int dls__posix_cond_init(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int rc;

	if (pthread_condattr_init(&attr) != 0)
		return DLS_ENOMEM;
	rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
	return rc == 0 ? 0 : DLS_ENOMEM;
}

uint64_t dls__posix_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

bool dls__posix_cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *m,
				uint64_t until_mono)
{
	struct timespec ts;

	if (until_mono == UINT64_MAX) {
		pthread_cond_wait(cond, m);
		return true;
	}
	ts.tv_sec = (time_t)(until_mono / 1000000000u);
	ts.tv_nsec = (long)(until_mono % 1000000000u);
	return pthread_cond_timedwait(cond, m, &ts) == 0;
}

int dls_posix_timers_init(struct dls_posix_timers *s, const struct dls_posix_clock *clock)
{
	if (!s || !clock)
		return DLS_EINVAL;
	*s = (struct dls_posix_timers){ .armed = DLS_RB_ROOT_CACHED_INIT, .clock = *clock };
	if (pthread_mutex_init(&s->lock, NULL) != 0)
		return DLS_ENOMEM;
	if (dls__posix_cond_init(&s->wake) != 0) {
		pthread_mutex_destroy(&s->lock);
		return DLS_ENOMEM;
	}
	if (dls__posix_cond_init(&s->done) != 0) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
		return DLS_ENOMEM;
	}
	return 0;
}

void dls_posix_timers_destroy(struct dls_posix_timers *s)
{
	DLS_ASSERT(!s->started);
	pthread_cond_destroy(&s->done);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
}

void dls_posix_timer_init(struct dls_posix_timer *t, dls_posix_timer_fn fn, void *arg)
{
	*t = (struct dls_posix_timer){ .fn = fn, .arg = arg };
	dls_rb_node_init(&t->node);
}

void dls_posix_timer_bind(struct dls_posix_timer *t, struct dls_timer *core)
{
	dls_posix_timer_init(t, NULL, NULL);
	t->core = core;
	core->platform_data = (uintptr_t)t;
}

static void dequeue(struct dls_posix_timers *s, struct dls_posix_timer *t)
{
	dls_rb_erase_cached(&t->node, &s->armed);
	dls_rb_node_init(&t->node);
	t->queued = false;
}

/* The service @t belongs to: its first arm's, else @s (not yet armed). */
static struct dls_posix_timers *owner(struct dls_posix_timers *s,
				      const struct dls_posix_timer *t)
{
	return t->svc ? t->svc : s;
}

void dls_posix_timer_arm(struct dls_posix_timers *s, struct dls_posix_timer *t,
			 uint64_t expires)
{
	s = owner(s, t);
	if (!t->svc)
		t->svc = s; /* its first arm: the caller serialises arms of a timer */
	pthread_mutex_lock(&s->lock);
	if (t->queued)
		dequeue(s, t);
	t->expires = expires;
	t->seq = s->seq++;
	t->gen++;
	if (t->core)
		t->rq = dls_timer_rq(t->core);
	t->queued = true;
	if (dls_rb_add_cached(&t->node, &s->armed, timer_less))
		pthread_cond_signal(&s->wake); /* new earliest: sleep less */
	pthread_mutex_unlock(&s->lock);
}

static int try_cancel_locked(struct dls_posix_timers *s, struct dls_posix_timer *t)
{
	if (s->running == t) {
		t->gen++;
		return DLS_POSIX_TIMER_RUNNING;
	}
	if (!t->queued)
		return DLS_POSIX_TIMER_NOT_ARMED;
	dequeue(s, t);
	t->gen++;
	return DLS_POSIX_TIMER_CANCELLED;
}

int dls_posix_timer_try_cancel(struct dls_posix_timers *s, struct dls_posix_timer *t)
{
	int ret;

	s = owner(s, t);
	pthread_mutex_lock(&s->lock);
	ret = try_cancel_locked(s, t);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Whether the caller is the service thread. s->lock held. */
static bool on_service_thread(const struct dls_posix_timers *s)
{
	return s->started && pthread_equal(pthread_self(), s->thread);
}

bool dls__posix_timers_on_service(struct dls_posix_timers *s)
{
	bool on;

	pthread_mutex_lock(&s->lock);
	on = on_service_thread(s);
	pthread_mutex_unlock(&s->lock);
	return on;
}

int dls_posix_timer_cancel(struct dls_posix_timers *s, struct dls_posix_timer *t)
{
	int ret;

	s = owner(s, t);
	pthread_mutex_lock(&s->lock);
	if (on_service_thread(s)) {
		pthread_mutex_unlock(&s->lock);
		return DLS_EDEADLK;
	}
	while ((ret = try_cancel_locked(s, t)) == DLS_POSIX_TIMER_RUNNING)
		pthread_cond_wait(&s->done, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

bool dls_posix_timer_armed(struct dls_posix_timers *s, const struct dls_posix_timer *t)
{
	bool armed;

	s = owner(s, t);
	pthread_mutex_lock(&s->lock);
	armed = t->queued;
	pthread_mutex_unlock(&s->lock);
	return armed;
}

/*
 * The bound entity's runqueue, read while holding the lock of the one it
 * was last seen on. Equal to that one: stable (leaving it needs the lock we
 * hold). Different: only a hint to follow, since later moves between other
 * runqueues do not take our lock — hence read without instrumentation, as
 * dls_posix_entity_lock() does.
 */
DLS_RACY static struct dls_rq *bound_rq(const struct dls_timer *core)
{
	const struct dls_entity *se = dls_timer_entity(core);

	return *(struct dls_rq *const volatile *)&se->rq;
}

static void rq_lock(struct dls_rq *rq)
{
	rq->dom->ops->lock(rq->dom->ctx, rq->cpu);
}

static void rq_unlock(struct dls_rq *rq)
{
	rq->dom->ops->unlock(rq->dom->ctx, rq->cpu);
}

/*
 * Expire a bound timer taken off the tree at generation @gen, whose arm
 * recorded runqueue @rq. Called and returns without s->lock.
 */
static void expire_bound(struct dls_posix_timers *s, struct dls_posix_timer *t,
			 struct dls_rq *rq, uint64_t gen)
{
	for (;;) {
		struct dls_rq *now_rq;

		rq_lock(rq);
		pthread_mutex_lock(&s->lock);
		if (t->gen != gen || t->queued) {
			/* Cancelled or re-armed while we waited for the lock. */
			pthread_mutex_unlock(&s->lock);
			rq_unlock(rq);
			return;
		}
		now_rq = bound_rq(t->core);
		if (now_rq != rq)
			t->rq = now_rq;
		pthread_mutex_unlock(&s->lock);
		if (now_rq == rq) {
			dls_timer_expired(t->core);
			rq_unlock(rq);
			return;
		}
		rq_unlock(rq);
		if (!now_rq)
			return; /* detached: nothing to replenish */
		rq = now_rq;
	}
}

static void *service_main(void *arg)
{
	struct dls_posix_timers *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		struct dls_rb_node *first = dls_rb_first_cached(&s->armed);
		struct dls_posix_timer *t;
		uint64_t now, gen;
		struct dls_rq *rq;

		if (!first) {
			pthread_cond_wait(&s->wake, &s->lock);
			continue;
		}
		t = node_timer(first);
		now = dls_posix_clock_now(&s->clock);
		if (dls_time_before(now, t->expires)) {
			uint64_t until = t->expires;

			if (s->clock.which != DLS_POSIX_CLOCK_MONOTONIC)
				until = dls__posix_mono_now() + (t->expires - now);
			dls__posix_cond_wait_until(&s->wake, &s->lock, until);
			continue;
		}
		dequeue(s, t);
		s->running = t;
		s->fired++;
		gen = t->gen;
		rq = t->rq;
		pthread_mutex_unlock(&s->lock);
		if (t->core) {
			if (rq)
				expire_bound(s, t, rq, gen);
		} else {
			t->fn(t->arg, t);
		}
		pthread_mutex_lock(&s->lock);
		s->running = NULL;
		pthread_cond_broadcast(&s->done);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int dls_posix_timers_start(struct dls_posix_timers *s)
{
	int rc;

	pthread_mutex_lock(&s->lock);
	if (s->started) {
		pthread_mutex_unlock(&s->lock);
		return DLS_ESTATE;
	}
	s->stopping = false;
	rc = pthread_create(&s->thread, NULL, service_main, s);
	s->started = rc == 0;
	pthread_mutex_unlock(&s->lock);
	return rc == 0 ? 0 : DLS_ETHREAD;
}

void dls_posix_timers_stop(struct dls_posix_timers *s)
{
	pthread_t th;

	pthread_mutex_lock(&s->lock);
	if (!s->started) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	s->stopping = true;
	th = s->thread;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(th, NULL);
	pthread_mutex_lock(&s->lock);
	s->started = false;
	pthread_mutex_unlock(&s->lock);
}
