/*
 * platform.fair_server: a deadline server on every CPU for the classes
 * below SCHED_DEADLINE, as Linux's fair server (dl_server, 6.8+; deferred
 * from 6.12: commit a110a81c "sched/deadline: Deferrable dl server"). The
 * library's server entity (include/dlsched/server.h) is the reservation;
 * its inner scheduler is the CPU's lower-class queue (lower.c), either the
 * fair class (as Linux) or the FIFO/RR threads as a group ("serve": "rt").
 *
 * Deferred (the default), a server with work waiting holds an instance
 * (d, q) and competes only from its zero-laxity time d - q on; the time its
 * class runs outside it meanwhile is charged to q (dls_server_background()):
 * a class that is not starved never needs it. Not deferred, it competes as
 * soon as its class has work (6.8's server).
 *
 * The server is pinned to its CPU (in a global domain through its
 * affinity), as Linux's per-CPU fair server. Its bandwidth is admitted
 * before any thread's, as Linux counts the fair server's bandwidth in the
 * root domain's.
 */
#include "sim_impl.h"

#include <string.h>

static struct fair_srv *fs_of(struct dls_server *srv)
{
	return dls_container_of(srv, struct fair_srv, srv);
}

/* The thread @cpu runs in its server's class now, runnable. */
static bool curr_served(const struct sim *s, int cpu)
{
	const struct thread *t = s->cpus[cpu].curr;

	return t && t->runnable && !t->exited && dlsim_fs_serves(s, t);
}

static bool fs_has_work(void *arg)
{
	struct fair_srv *fs = arg;
	const struct sim *s = fs->s;
	const struct cpu *c = &s->cpus[fs->cpu];

	if (curr_served(s, fs->cpu))
		return true;
	if (s->w->fair_server.serve == WL_SERVE_RT)
		return c->nr_lower && c->lower[0]->prio > 0;
	return c->fair_n > 0;
}

static void *fs_pick(void *arg, int cpu)
{
	struct fair_srv *fs = arg;
	bool rt = fs->s->w->fair_server.serve == WL_SERVE_RT;

	return dlsim_lower_pick_class(fs->s, cpu, rt, !rt);
}

/* dlsim charges what ran inside when its CPU is touched (cpu_charge()). */
static void fs_stop(void *arg, int cpu)
{
	(void)arg;
	(void)cpu;
}

static void fs_timer_arm(void *arg, uint64_t abs_ns)
{
	struct fair_srv *fs = arg;

	dlsim_q_add(fs->s, &fs->defer, abs_ns);
}

static void fs_timer_cancel(void *arg)
{
	struct fair_srv *fs = arg;

	q_remove(fs->s, &fs->defer);
}

static const struct dls_server_ops fs_ops = {
	.has_work = fs_has_work,
	.pick = fs_pick,
	.stop = fs_stop,
	.timer_arm = fs_timer_arm,
	.timer_cancel = fs_timer_cancel,
};

/* One server per CPU, attached before any thread (its bandwidth comes
 * first in admission). Returns 0, -1 without memory, or 1 when admission
 * refused a server (said on stderr). */
int dlsim_fs_setup(struct sim *s)
{
	const struct wl_fair_server *w = &s->w->fair_server;
	struct dls_params p = { .runtime = w->runtime_us * US, .deadline = w->period_us * US,
				.period = w->period_us * US };

	if (!w->on)
		return 0;
	s->fsrv = calloc((size_t)s->nr_cpus, sizeof(*s->fsrv));
	s->fs_masks = calloc((size_t)s->nr_cpus, sizeof(*s->fs_masks));
	if (!s->fsrv || !s->fs_masks)
		return -1;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct fair_srv *fs = &s->fsrv[cpu];
		int rc;

		fs->s = s;
		fs->cpu = cpu;
		dls_rb_node_init(&fs->timer.node);
		dls_rb_node_init(&fs->defer.node);
		fs->timer.kind = EV_FS_TIMER;
		fs->defer.kind = EV_FS_DEFER;
		if (dls_server_init(&fs->srv, &fs_ops, fs, w->defer ? DLS_SERVER_DEFER : 0))
			return -1;
		rc = dls_server_attach(&s->rqs[cpu], &fs->srv, &p);
		if (rc) {
			fprintf(stderr, "dlsim: platform.fair_server: CPU %d refused the server "
				"(%llu us every %llu us): %s\n", cpu,
				(unsigned long long)w->runtime_us, (unsigned long long)w->period_us,
				dls_strerror(rc));
			return 1;
		}
		/* pinned in a global domain, as Linux's per-CPU server */
		if (s->dom.smp && dlsim_pin_entity(s, &fs->srv.se, cpu, &s->fs_masks[cpu]))
			return -1;
		s->cpus[cpu].fs = fs;
	}
	return 0;
}

void dlsim_fs_free(struct sim *s)
{
	if (s->fs_masks)
		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			free(s->fs_masks[cpu]);
	free(s->fs_masks);
	free(s->fsrv);
}

void dlsim_fs_flush(struct sim *s, int cpu)
{
	struct fair_srv *fs = s->cpus[cpu].fs;
	uint64_t d;

	if (!fs)
		return;
	dlsim_cpu_touch(s, cpu); /* charged up to now: bg_pending is whole */
	d = fs->bg_pending;
	fs->bg_pending = 0;
	if (d)
		dls_server_background(&s->rqs[cpu], &fs->srv, d);
}

void dlsim_fs_update(struct sim *s, int cpu)
{
	struct fair_srv *fs = s->cpus[cpu].fs;

	if (!fs)
		return;
	dlsim_fs_flush(s, cpu);
	if (fs->srv.state == DLS_SERVER_IDLE && fs_has_work(fs))
		dlsim_lib_ok(s, dls_server_start(&s->rqs[cpu], &fs->srv), "dls_server_start",
			     NULL);
}

/* A server's timer fired: its replenishment, or its zero-laxity time. */
void dlsim_fs_event(struct sim *s, struct qev *e)
{
	struct fair_srv *fs;

	if (e->kind == EV_FS_TIMER) {
		fs = dls_container_of(e, struct fair_srv, timer);
		dls_timer_expired(&fs->srv.se.timer);
		return;
	}
	fs = dls_container_of(e, struct fair_srv, defer);
	dlsim_fs_flush(s, fs->cpu); /* its budget as of now first */
	dls_server_timer_expired(&s->rqs[fs->cpu], &fs->srv);
}

/* The queue event of a server entity's timer, or NULL for a thread's. */
struct qev *dlsim_fs_timer_event(struct dls_entity *se)
{
	struct dls_server *srv = dls_server_of(se);

	return srv ? &fs_of(srv)->timer : NULL;
}

/* The library traced a server's throttle or replenishment: counted, and
 * marked on its CPU's row. */
void dlsim_fs_trace(struct sim *s, const struct dls_trace_event *ev)
{
	static const char *const what[2] = { "fair server throttle", "fair server replenish" };
	struct fair_srv *fs = fs_of(dls_server_of(ev->se));

	dlsim_server_mark(s, fs->cpu, ev, what, &fs->throttles, &fs->replenishes);
}

const char *dlsim_fs_check(struct sim *s)
{
	for (int cpu = 0; s->fsrv && cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];
		const char *err = dls_server_check(&c->fs->srv);

		if (err)
			return err;
		if (c->in_server && (!c->curr || c->curr->is_dl || !dlsim_fs_serves(s, c->curr)))
			return "fair server: the CPU runs inside its server a thread it does not serve";
		if (c->in_server && c->fs->srv.curr != c->curr)
			return "fair server: the CPU and its server disagree on what runs inside";
	}
	return NULL;
}
