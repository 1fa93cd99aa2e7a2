/*
 * The POSIX platform of a domain: dls_ops on a clock, the timer service and
 * per-CPU locks; the task_rq_lock pattern; CPU hotplug with parked workers.
 */
#define _GNU_SOURCE

#include "platform/posix/posix_impl.h"

static struct dls_posix *plat(void *ctx)
{
	return ctx;
}

static uint64_t ops_now(void *ctx, int cpu)
{
	(void)cpu;
	return dls_posix_clock_now(&plat(ctx)->clock);
}

/* The platform half bound to @t (dls_posix_timer_bind()), or NULL. */
static struct dls_posix_timer *bound_timer(const struct dls_timer *t)
{
	struct dls_posix_timer *pt = (struct dls_posix_timer *)t->platform_data;

	return pt && pt->core == t ? pt : NULL;
}

/*
 * An unbound replenishment timer is a broken integration (the entity would
 * stay throttled): asserted in checked builds, never dereferenced. An
 * unbound 0-lag timer is a documented choice (dls_posix_fill_ops()): it
 * never fires, so a blocked entity's bandwidth stays active until it wakes
 * or dies, and reclaiming entities reclaim less, never more.
 */
static void ops_timer_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	struct dls_posix_timer *pt = bound_timer(t);

	DLS_ASSERT(pt != NULL || t->zero_lag);
	if (pt)
		dls_posix_timer_arm(plat(ctx)->svc, pt, abs_ns);
}

static void ops_timer_cancel(void *ctx, struct dls_timer *t)
{
	struct dls_posix_timer *pt = bound_timer(t);

	/* The core holds a runqueue lock: never wait for a running expiry. */
	if (pt)
		(void)dls_posix_timer_try_cancel(plat(ctx)->svc, pt);
}

static void ops_lock(void *ctx, int cpu)
{
	DLS_ASSERT(cpu >= 0 && cpu < plat(ctx)->nr_cpus);
	dls_posix_lock_acquire(&plat(ctx)->locks[cpu]);
}

static void ops_unlock(void *ctx, int cpu)
{
	dls_posix_lock_release(&plat(ctx)->locks[cpu]);
}

void dls_posix_fill_ops(struct dls_ops *ops, void (*resched)(void *ctx, int cpu),
			void (*trace)(void *ctx, const struct dls_trace_event *ev))
{
	*ops = (struct dls_ops){
		.now = ops_now,
		.timer_arm = ops_timer_arm,
		.timer_cancel = ops_timer_cancel,
		.resched = resched,
		.lock = ops_lock,
		.unlock = ops_unlock,
		.trace = trace,
	};
}

int dls_posix_init(struct dls_posix *p, const struct dls_posix_config *cfg,
		   struct dls_posix_lock *locks, int nr_cpus)
{
	static const struct dls_posix_config defaults = {
		DLS_POSIX_CLOCK_MONOTONIC, DLS_POSIX_LOCK_MUTEX
	};
	int rc, cpu;

	if (!p || !locks || nr_cpus < 1)
		return DLS_EINVAL;
	if (!cfg)
		cfg = &defaults;
	*p = (struct dls_posix){ .locks = locks, .nr_cpus = nr_cpus };
	rc = dls_posix_clock_init(&p->clock, cfg->clock);
	if (rc)
		return rc;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		rc = dls_posix_lock_init(&locks[cpu], cfg->lock);
		if (rc)
			goto undo;
	}
	rc = dls_posix_lock_init(&p->heap_lock, cfg->lock);
	if (rc)
		goto undo;
	rc = dls_posix_lock_init(&p->bw_lock, cfg->lock);
	if (rc)
		goto undo_heap;
	rc = dls_posix_timers_init(&p->timers, &p->clock);
	p->svc = &p->timers;
	if (rc == 0)
		return 0;
	dls_posix_lock_destroy(&p->bw_lock);
undo_heap:
	dls_posix_lock_destroy(&p->heap_lock);
undo:
	while (cpu-- > 0)
		dls_posix_lock_destroy(&locks[cpu]);
	return rc;
}

static void plain_lock(void *ctx)
{
	dls_posix_lock_acquire(ctx);
}

static void plain_unlock(void *ctx)
{
	dls_posix_lock_release(ctx);
}

/* The heap's and the admission's locks: a platform lock as ctx. */
static const struct dls_lock_ops plain_lock_ops = { plain_lock, plain_unlock };

int dls_posix_smp_init(struct dls_posix *p, struct dls_domain *dom, void *storage,
		       size_t size)
{
	int rc;

	if (!p || !dom)
		return DLS_EINVAL;
	rc = dls_smp_init(dom, storage, size);
	if (rc)
		return rc;
	rc = dls_smp_set_heap_lock(dom, &plain_lock_ops, &p->heap_lock);
	if (rc == 0)
		rc = dls_smp_set_bw_lock(dom, &plain_lock_ops, &p->bw_lock);
	return rc;
}

int dls_posix_share_timers(struct dls_posix *p, struct dls_posix *owner)
{
	bool started;

	if (!p || !owner || p == owner || owner->svc != &owner->timers)
		return DLS_EINVAL;
	pthread_mutex_lock(&p->timers.lock);
	started = p->timers.started;
	pthread_mutex_unlock(&p->timers.lock);
	if (started)
		return DLS_ESTATE;
	p->svc = &owner->timers;
	return 0;
}

int dls_posix_start(struct dls_posix *p)
{
	if (p->svc != &p->timers)
		return 0; /* the owner's service runs our timers */
	return dls_posix_timers_start(&p->timers);
}

void dls_posix_stop(struct dls_posix *p)
{
	if (p->svc == &p->timers)
		dls_posix_timers_stop(&p->timers);
}

void dls_posix_destroy(struct dls_posix *p)
{
	dls_posix_timers_destroy(&p->timers);
	dls_posix_lock_destroy(&p->bw_lock);
	dls_posix_lock_destroy(&p->heap_lock);
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		dls_posix_lock_destroy(&p->locks[cpu]);
}

struct dls_rq *dls_posix_entity_lock(struct dls_entity *se)
{
	return dls_entity_lock(se);
}

/* The service @pt belongs to: that of its first arm, else the domain's. */
static struct dls_posix_timers *timer_service(struct dls_domain *dom,
					      const struct dls_posix_timer *pt)
{
	return pt->svc ? pt->svc : plat(dom->ctx)->svc;
}

int dls_posix_task_dead(struct dls_domain *dom, struct dls_entity *se,
			struct dls_posix_timer *t)
{
	/* Every platform timer the entity owns: @t, and what is bound to its
	 * two core timers (the same as @t for the replenishment one when the
	 * caller passes it, as it should). */
	struct dls_posix_timer *own[3];
	struct dls_rq *rq;
	int n = 0;

	if (!dom || !se || !t)
		return DLS_EINVAL;
	own[n++] = t;
	if (bound_timer(&se->timer) && bound_timer(&se->timer) != t)
		own[n++] = bound_timer(&se->timer);
	if (bound_timer(&se->inactive_timer) && bound_timer(&se->inactive_timer) != t)
		own[n++] = bound_timer(&se->inactive_timer);
	rq = dls_posix_entity_lock(se);
	/* Arms happen under the runqueue lock we hold: the services are stable. */
	for (int i = 0; i < n; i++) {
		if (dls__posix_timers_on_service(timer_service(dom, own[i]))) {
			if (rq)
				rq->dom->ops->unlock(rq->dom->ctx, rq->cpu);
			return DLS_EDEADLK; /* it would wait for its own callback */
		}
	}
	if (rq) {
		int err = dls_task_dead(rq, se); /* rq is se's: cannot fail */

		DLS_ASSERT(err == 0);
		(void)err;
		rq->dom->ops->unlock(rq->dom->ctx, rq->cpu);
	}
	/* An expiry already taken off the tree may still be on its way to
	 * the lock we held: wait until each has looked and gone. */
	for (int i = 0; i < n; i++)
		(void)dls_posix_timer_cancel(timer_service(dom, own[i]), own[i]);
	return rq ? 0 : DLS_ESTATE;
}

int dls_posix_cpu_down(struct dls_domain *dom, int cpu, struct dls_posix_worker *w,
		       bool force, dls_stranded_fn stranded, void *arg)
{
	int rc;

	if (w) {
		rc = dls_posix_worker_park(w);
		if (rc)
			return rc;
	}
	rc = dls_cpu_offline(dom, cpu, force, stranded, arg);
	if (rc && w)
		(void)dls_posix_worker_unpark(w);
	return rc;
}

int dls_posix_cpu_up(struct dls_domain *dom, int cpu, struct dls_posix_worker *w)
{
	int rc = dls_cpu_online(dom, cpu);

	if (rc)
		return rc;
	return w ? dls_posix_worker_unpark(w) : 0;
}
