/*
 * Server entities (include/dlsched/server.h): a deadline entity on a host
 * runqueue that runs an inner scheduler's work. The host's EDF and CBS
 * treat it as any entity (the core charges it while it is current); this
 * file adds what the core does not know: asking the inner scheduler what
 * runs, stopping it when the host switches away, blocking the server when
 * nothing is inside, and the deferral of Linux's fair server.
 *
 * States (dls_server::state):
 *   IDLE      nothing inside: the host entity is blocked (not runnable);
 *   DEFERRED  work waits but the server does not compete: it holds an
 *             instance (deadline d, runtime q), lower-class time run
 *             outside it is charged to q (dls_server_background()), and its
 *             timer fires at the zero-laxity time d - q. A q spent in the
 *             background starts a new instance from now, still deferred
 *             (the fair server's rule since Linux 6.12: the lower class got
 *             its share without the server, so no starvation yet);
 *   ACTIVE    runnable on the host: queued, running or throttled; from a
 *             zero-laxity expiry it is queued with the (d, q) it holds, no
 *             wake-up rule (at zero laxity q/(d - now) = 1 would renew it).
 * An ACTIVE server whose inner scheduler is empty when picked blocks (the
 * CBS/GRUB blocked rules apply: dls_dequeue(DLS_DEQUEUE_SLEEP)) and returns
 * to IDLE; the next dls_server_start() defers again.
 *
 * Invariants (dls_server_check()):
 *  - IDLE and DEFERRED: the host entity is not runnable; ACTIVE: it is;
 *  - DEFERRED: the timer is armed at deadline - runtime, runtime > 0;
 *  - cpu >= 0 exactly when curr != NULL, and then the host entity is the
 *    current one of the runqueue of that CPU.
 */
#include <dlsched/server.h>

#include "cbs/cbs_impl.h"
#include "edf/bw_impl.h"
#include "edf/sched_impl.h"

/* Tag of a server's host entity (dls_entity::server_tag). */
#define SERVER_TAG UINT64_C(0x736572766572) /* "server" */

struct dls_server *dls_server_of(const struct dls_entity *se)
{
	DLS_ASSERT(se);
	if (se->server_tag != SERVER_TAG)
		return NULL;
	return dls_container_of(se, struct dls_server, se);
}

int dls_server_init(struct dls_server *srv, const struct dls_server_ops *ops,
		    void *arg, uint32_t flags)
{
	DLS_ASSERT(srv && ops);
	if (!ops->has_work || !ops->pick || !ops->stop ||
	    (flags & ~DLS_SERVER_DEFER) ||
	    ((flags & DLS_SERVER_DEFER) && (!ops->timer_arm || !ops->timer_cancel)))
		return DLS_EINVAL;
	*srv = (struct dls_server){ 0 };
	dls_entity_init(&srv->se);
	srv->se.server_tag = SERVER_TAG;
	srv->ops = ops;
	srv->arg = arg;
	srv->flags = flags;
	srv->state = DLS_SERVER_IDLE;
	srv->cpu = -1;
	return 0;
}

int dls_server_attach(struct dls_rq *rq, struct dls_server *srv,
		      const struct dls_params *p)
{
	DLS_ASSERT(rq && srv && p);
	if ((srv->flags & DLS_SERVER_DEFER) &&
	    (p->flags & (DLS_FLAG_SOFT | DLS_FLAG_RECLAIM)))
		return DLS_EFLAGS;
	return dls_entity_attach(rq, &srv->se, p);
}

/* The host stops running @srv: what ran inside is charged up to now. */
static void stop_running(struct dls_server *srv)
{
	if (srv->cpu < 0)
		return;
	srv->ops->stop(srv->arg, srv->cpu);
	srv->cpu = -1;
	srv->curr = NULL;
}

static void arm(struct dls_server *srv, uint64_t at)
{
	srv->defer_at = at;
	srv->timer_armed = true;
	srv->ops->timer_arm(srv->arg, at);
}

static void disarm(struct dls_server *srv)
{
	if (!srv->timer_armed)
		return;
	srv->timer_armed = false;
	srv->ops->timer_cancel(srv->arg);
}

/* A fresh deferred instance from @now: zero laxity at now + D - Q. */
static void defer_fresh(struct dls_rq *rq, struct dls_server *srv, uint64_t now)
{
	struct dls_entity *se = &srv->se;

	dls__rq_fresh_instance(rq, se, now);
	srv->stats.defers++;
	arm(srv, se->deadline - (uint64_t)se->runtime);
}

/*
 * A deferred start from idle: the CBS wake-up rule of the domain
 * (dls__cbs_wakeup_rule(), the one dls_wakeup() applies) decides whether
 * the instance (d, q) still held is kept, trimmed or renewed, as Linux
 * lets a deferred server take the revised wake-up path; a decision to
 * renew, or to wait for the next period, starts a fresh instance from now.
 * Either way the server waits for its zero-laxity time.
 */
static void defer_start(struct dls_rq *rq, struct dls_server *srv, uint64_t now)
{
	struct dls_entity *se = &srv->se;
	struct dls__cbs_decision d = dls__cbs_wakeup_rule(se, now, &rq->dom->cfg);

	if ((d.action == DLS_CBS_KEEP || d.action == DLS_CBS_TRIM) && d.runtime > 0) {
		se->runtime = d.runtime;
		srv->stats.defers++;
		arm(srv, se->deadline - (uint64_t)se->runtime);
		return;
	}
	defer_fresh(rq, srv, now);
}

int dls_server_start(struct dls_rq *rq, struct dls_server *srv)
{
	struct dls_entity *se = &srv->se;
	uint64_t now;
	int err;

	DLS_ASSERT(rq && srv);
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	if (srv->state != DLS_SERVER_IDLE)
		return 0;
	srv->stats.starts++;
	/* A server that blocked while throttled is still within the period
	 * it was starved in: it resumes as a plain reservation (the timer
	 * that replenishes it queues it). */
	if ((srv->flags & DLS_SERVER_DEFER) && !se->throttled) {
		now = dls__now(rq);
		srv->state = DLS_SERVER_DEFERRED;
		defer_start(rq, srv, now);
		return 0;
	}
	err = dls_wakeup(rq, se);
	if (err)
		return err;
	srv->state = DLS_SERVER_ACTIVE;
	return 0;
}

int dls_server_stop(struct dls_rq *rq, struct dls_server *srv)
{
	struct dls_entity *se = &srv->se;
	int err = 0;

	DLS_ASSERT(rq && srv);
	if (DLS_UNLIKELY(se->rq != rq))
		return dls__se_rq_err(se);
	switch (srv->state) {
	case DLS_SERVER_IDLE:
		return 0;
	case DLS_SERVER_DEFERRED:
		disarm(srv);
		break;
	default:
		stop_running(srv);
		err = dls_dequeue(rq, se, DLS_DEQUEUE_SLEEP);
	}
	srv->state = DLS_SERVER_IDLE;
	return err;
}

struct dls_entity *dls_server_schedule(struct dls_rq *rq, void **what)
{
	struct dls_entity *se = rq->curr;
	struct dls_server *srv;
	void *w;

	DLS_ASSERT(rq && what);
	srv = se ? dls_server_of(se) : NULL;
	if (srv) {
		/* On a CPU scheduled on its own, a server that stays the
		 * earliest is charged (as dls_put_prev() would) and kept
		 * current: putting it back and picking it again would change
		 * nothing on the host. It keeps running: its inner scheduler
		 * picks again without a stop. */
		if (!rq->dom->smp && srv->cpu == rq->cpu) {
			dls_update_curr(rq);
			if (se->queued && rq->curr == se &&
			    dls_rb_first_cached(&rq->root) == &se->node)
				goto ask;
		}
		stop_running(srv);
	}
	for (;;) {
		se = dls_schedule(rq);
		srv = se ? dls_server_of(se) : NULL;
		if (!srv) {
			*what = se;
			return se;
		}
ask:
		w = srv->ops->pick(srv->arg, rq->cpu);
		if (!w)
			stop_running(srv); /* a re-pick found nothing */
		if (w) {
			srv->cpu = rq->cpu;
			srv->curr = w;
			srv->stats.picks++;
			*what = w;
			return se;
		}
		/* Nothing inside: the server blocks, the pick goes on. */
		srv->stats.empty_picks++;
		(void)dls_dequeue(rq, se, DLS_DEQUEUE_SLEEP);
		srv->state = DLS_SERVER_IDLE;
	}
}

void dls_server_background(struct dls_rq *rq, struct dls_server *srv,
			   uint64_t delta)
{
	struct dls_entity *se = &srv->se;

	DLS_ASSERT(rq && srv && se->rq == rq);
	if (srv->state != DLS_SERVER_DEFERRED || !delta)
		return;
	srv->stats.background_ns += delta;
	if ((uint64_t)se->runtime > delta) {
		/* Less budget left: zero laxity comes later. */
		se->runtime -= (int64_t)delta;
		arm(srv, se->deadline - (uint64_t)se->runtime); /* re-armed */
		return;
	}
	/* The lower class got the whole budget without the server. */
	disarm(srv);
	defer_fresh(rq, srv, dls__now(rq));
}

void dls_server_timer_expired(struct dls_rq *rq, struct dls_server *srv)
{
	struct dls_entity *se = &srv->se;
	uint64_t now;

	DLS_ASSERT(rq && srv && se->rq == rq);
	if (!srv->timer_armed || srv->state != DLS_SERVER_DEFERRED)
		return; /* cancelled: an expiry in flight */
	now = dls__now(rq);
	if (dls_time_before(now, srv->defer_at)) {
		srv->ops->timer_arm(srv->arg, srv->defer_at); /* early */
		return;
	}
	srv->timer_armed = false;
	if (!srv->ops->has_work(srv->arg)) {
		srv->state = DLS_SERVER_IDLE;
		return;
	}
	srv->stats.defer_runs++;
	srv->state = DLS_SERVER_ACTIVE;
	/* Queued with the instance it holds: no wake-up rule. */
	(void)dls_enqueue(rq, se, 0);
	if (se->queued)
		(void)dls_check_preempt(rq, se);
}

const char *dls_server_check(const struct dls_server *srv)
{
	const struct dls_entity *se = &srv->se;

	if (se->server_tag != SERVER_TAG)
		return "server: host entity not tagged";
	if ((srv->cpu >= 0) != (srv->curr != NULL))
		return "server: cpu and curr disagree";
	if (srv->cpu >= 0 &&
	    (!se->rq || se->rq->curr != se || se->rq->cpu != srv->cpu))
		return "server: running but not current on its CPU";
	switch (srv->state) {
	case DLS_SERVER_IDLE:
		if (se->runnable)
			return "server: idle but its host entity is runnable";
		if (srv->timer_armed)
			return "server: idle with its deferral timer armed";
		break;
	case DLS_SERVER_DEFERRED:
		if (se->runnable)
			return "server: deferred but its host entity is runnable";
		if (!srv->timer_armed || se->runtime <= 0 ||
		    srv->defer_at != se->deadline - (uint64_t)se->runtime)
			return "server: deferred without a timer at zero laxity";
		if (srv->cpu >= 0)
			return "server: deferred but running";
		break;
	case DLS_SERVER_ACTIVE:
		if (!se->runnable)
			return "server: active but its host entity is not runnable";
		if (srv->timer_armed)
			return "server: active with its deferral timer armed";
		break;
	default:
		return "server: unknown state";
	}
	return NULL;
}

/* ---- A guest domain's vCPU: the inner scheduler is a libdlsched rq ---- */

static bool guest_has_work(void *arg)
{
	const struct dls_rq *rq = arg;

	return rq->nr_running > 0 || rq->curr;
}

/* The guest's own entities may be servers too (a third level). */
static void *guest_pick(void *arg, int cpu)
{
	void *what;

	(void)cpu;
	(void)dls_server_schedule(arg, &what);
	return what;
}

static void guest_stop(void *arg, int cpu)
{
	struct dls_rq *rq = arg;
	struct dls_entity *curr = rq->curr;
	struct dls_server *inner;

	(void)cpu;
	if (!curr)
		return;
	inner = dls_server_of(curr);
	if (inner)
		stop_running(inner);
	(void)dls_put_prev(rq, curr);
}

const struct dls_server_ops dls_server_guest_ops = {
	.has_work = guest_has_work,
	.pick = guest_pick,
	.stop = guest_stop,
};

int dls_server_guest_admit(struct dls_domain *guest,
			   const struct dls_server *srv, int nr)
{
	uint64_t sum = 0, limit;

	DLS_ASSERT(guest && srv);
	if (nr != guest->nr_cpus)
		return DLS_EINVAL;
	for (int i = 0; i < nr; i++) {
		if (!srv[i].se.rq || guest->rqs[i].nr_attached)
			return DLS_EINVAL;
		sum += srv[i].se.bw;
	}
	limit = sum / (uint64_t)nr;
	guest->cfg.bw_limit = limit;
	for (int i = 0; i < nr; i++)
		dls__bw_set_limit(&guest->rqs[i].bw, limit);
	if (guest->smp)
		dls__bw_set_limit(dls__bw_of(&guest->rqs[0]), limit);
	return 0;
}
