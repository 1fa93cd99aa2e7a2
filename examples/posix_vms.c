/*
 * Two-level scheduling on the POSIX platform: a host of two CPUs runs, on
 * each CPU, one plain reservation and one vCPU server (server.h); behind
 * each server a guest domain of one vCPU runs its own tasks under EDF +
 * CBS, inside the server's budget. Real threads, for a couple of seconds.
 *
 *   example_posix_vms [seconds]     (default 2)
 *
 * Locks: each host CPU's runqueue lock, then its guest's runqueue lock (a
 * vCPU server is pinned to its host CPU). The guest's timers and job
 * releases take only the guest's lock; when they give the guest work, the
 * guest's resched op kicks the host CPU's worker (an atomic flag and a
 * wake-up) instead of taking the host's lock, which would invert the
 * order. The worker, holding both, starts an idle server and schedules
 * through the servers (dls_server_schedule()).
 *
 * Guest B's "greedy" task needs 8 ms every 20 ms on a 4 ms reservation
 * inside its guest, and guest B's tasks together need more than its
 * server: the greedy task is throttled inside the guest, the server is
 * throttled on the host, and the host tasks and guest A keep their
 * deadlines (isolation at both levels). Printed per task and per server.
 * On a machine busy with other processes the workers lose the CPU and that
 * time is charged too (as in posix_reservations.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/dlsched.h>

#if DLSCHED_HAVE_POSIX

#define US 1000ull
#define MS 1000000ull
#define NCPU 2
#define NTASK 6
#define SLICE (100 * US)

struct task {
	const char *name;
	int cpu, in_guest;                /* host CPU; 1 when in its guest */
	uint64_t budget, period, work;
	struct dls_entity se;
	struct dls_posix_timer replenish;
	struct dls_posix_timer release;
	struct app *app;
	/* Below: under the lock of the entity's runqueue. */
	uint64_t next_release, job_release, left;
	unsigned long released, done, backlog;
	uint64_t resp_max;
};

struct guest {
	struct dls_posix plat;
	struct dls_posix_lock lock;
	struct dls_ops ops;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_server srv;            /* its vCPU on the host */
	struct dls_posix_timer srv_repl;  /* the server's replenishment timer */
};

struct cpu {
	struct app *app;
	int id;
	struct dls_posix_worker worker;
	bool need_resched;     /* under the host CPU's lock */
	atomic_bool kicked;    /* the guest asked: set under the guest's lock */
	struct guest g;
};

struct app {
	struct dls_posix plat;
	struct dls_posix_lock locks[NCPU];
	struct dls_ops ops;
	struct dls_domain dom;
	struct dls_rq rqs[NCPU];
	struct cpu cpus[NCPU];
	struct task tasks[NTASK];
	atomic_bool workers_gone;
};

static void must(int rc, const char *call)
{
	if (rc) {
		fprintf(stderr, "%s: %s\n", call, dls_strerror(rc));
		abort();
	}
}

/* ---- platform glue -------------------------------------------------- */

/* Host runqueue lock held. */
static void host_resched(void *ctx, int cpu)
{
	struct app *a = ((struct dls_posix *)ctx)->user;

	a->cpus[cpu].need_resched = true;
	if (!atomic_load(&a->workers_gone))
		dls_posix_worker_kick(&a->cpus[cpu].worker);
}

/* Guest runqueue lock held (not the host's): kick the host CPU. */
static void guest_resched(void *ctx, int cpu)
{
	struct cpu *c = ((struct dls_posix *)ctx)->user;

	(void)cpu;
	atomic_store(&c->kicked, true);
	if (!atomic_load(&c->app->workers_gone))
		dls_posix_worker_kick(&c->worker);
}

static void lock_cpu(struct app *a, struct cpu *c)
{
	a->ops.lock(&a->plat, c->id);
	c->g.ops.lock(&c->g.plat, 0);
}

static void unlock_cpu(struct app *a, struct cpu *c)
{
	c->g.ops.unlock(&c->g.plat, 0);
	a->ops.unlock(&a->plat, c->id);
}

/* ---- jobs ------------------------------------------------------------- */

static void start_job(struct task *t, uint64_t release)
{
	t->job_release = release;
	t->left = t->work;
	t->released++;
}

/* A new job every period, under the lock of the task's runqueue only. */
static void on_release(void *arg, struct dls_posix_timer *timer)
{
	struct task *t = arg;
	struct dls_rq *rq = dls_posix_entity_lock(&t->se);
	uint64_t release = t->next_release;

	t->next_release += t->period;
	if (!t->se.runnable) {
		start_job(t, release);
		must(dls_wakeup(rq, &t->se), "dls_wakeup");
	} else {
		t->backlog++;
	}
	dls_posix_timer_arm(&t->app->plat.timers, timer, t->next_release);
	dls_entity_unlock(rq);
}

static void job_progress(struct task *t, struct dls_rq *rq, uint64_t ran, uint64_t now)
{
	t->left = ran >= t->left ? 0 : t->left - ran;
	if (t->left)
		return;
	t->done++;
	if (now - t->job_release > t->resp_max)
		t->resp_max = now - t->job_release;
	if (t->se.runnable)
		must(dls_dequeue(rq, &t->se, DLS_DEQUEUE_DONE), "dls_dequeue");
	if (t->backlog) {
		t->backlog--;
		start_job(t, t->job_release + t->period);
		must(dls_wakeup(rq, &t->se), "dls_wakeup");
	}
}

/* ---- the host CPU's worker --------------------------------------------- */

static void spin_for(const struct dls_posix_clock *c, uint64_t ns)
{
	uint64_t end = dls_posix_clock_now(c) + ns;

	while (dls_time_before(dls_posix_clock_now(c), end))
		;
}

static int cpu_main(struct dls_posix_worker *w, void *arg)
{
	struct cpu *c = arg;
	struct app *a = c->app;
	struct dls_rq *rq = &a->rqs[c->id];
	struct guest *g = &c->g;

	while (!dls_posix_worker_should_stop(w) && !dls_posix_worker_should_park(w)) {
		struct dls_entity *host_se;
		void *what = NULL;
		uint64_t t0, ran;

		lock_cpu(a, c);
		if (atomic_exchange(&c->kicked, false) || c->need_resched || !rq->curr) {
			c->need_resched = false;
			if (g->srv.state == DLS_SERVER_IDLE && g->rq.nr_running)
				must(dls_server_start(rq, &g->srv), "dls_server_start");
			dls_server_schedule(rq, &what);
		} else {
			what = dls_server_of(rq->curr) ? g->srv.curr : rq->curr;
		}
		host_se = rq->curr;
		unlock_cpu(a, c);
		if (!what) {
			dls_posix_worker_sleep(w, 2 * MS);
			continue;
		}
		t0 = dls_posix_clock_now(&a->plat.clock);
		spin_for(&a->plat.clock, SLICE);
		ran = dls_posix_clock_now(&a->plat.clock) - t0;
		lock_cpu(a, c);
		if (rq->curr == host_se) {
			struct task *t = dls_container_of(what, struct task, se);

			dls_tick(rq); /* the host entity: the server or a task */
			if (t->in_guest && g->srv.curr == what) {
				dls_tick(&g->rq);
				job_progress(t, &g->rq, ran, t0 + ran);
			} else if (!t->in_guest) {
				job_progress(t, rq, ran, t0 + ran);
			}
		}
		unlock_cpu(a, c);
	}
	return 0;
}

/* ---- set-up and report ------------------------------------------------- */

static const struct {
	const char *name;
	int cpu, in_guest;
	uint64_t budget, period, work;
} task_set[NTASK] = {
	{ "ctl", 0, 0, 2 * MS, 10 * MS, 1 * MS },       /* host, CPU 0 */
	{ "a.audio", 0, 1, 1 * MS, 10 * MS, 800 * US }, /* guest A */
	{ "a.video", 0, 1, 3 * MS, 33 * MS, 2 * MS },
	{ "log", 1, 0, 1 * MS, 20 * MS, 500 * US },     /* host, CPU 1 */
	{ "b.greedy", 1, 1, 4 * MS, 20 * MS, 8 * MS },  /* guest B: overruns */
	{ "b.net", 1, 1, 1 * MS, 20 * MS, 500 * US },
};

/* vCPU servers: guest A 40 % of CPU 0, guest B 30 % of CPU 1. */
static const uint64_t srv_budget[NCPU] = { 4 * MS, 3 * MS };
static const uint64_t srv_period = 10 * MS;

static int setup_guest(struct app *a, struct cpu *c)
{
	struct guest *g = &c->g;
	struct dls_params sp = { .runtime = srv_budget[c->id], .deadline = srv_period };
	int rc;

	rc = dls_posix_init(&g->plat, NULL, &g->lock, 1);
	if (rc)
		return rc;
	g->plat.user = c;
	/* One timer service for both levels, so the guest's clock is the host's. */
	rc = dls_posix_share_timers(&g->plat, &a->plat);
	if (rc)
		return rc;
	dls_posix_fill_ops(&g->ops, guest_resched, NULL);
	rc = dls_domain_init(&g->dom, &g->ops, &g->plat, NULL, &g->rq, 1);
	if (rc)
		return rc;
	rc = dls_server_init(&g->srv, &dls_server_guest_ops, &g->rq, 0);
	if (rc)
		return rc;
	dls_posix_timer_bind(&g->srv_repl, &g->srv.se.timer);
	rc = dls_server_attach(&a->rqs[c->id], &g->srv, &sp);
	if (rc)
		return rc;
	return dls_server_guest_admit(&g->dom, &g->srv, 1);
}

static int setup(struct app *a)
{
	int rc;

	memset(a, 0, sizeof(*a));
	rc = dls_posix_init(&a->plat, NULL, a->locks, NCPU);
	if (rc)
		return rc;
	a->plat.user = a;
	dls_posix_fill_ops(&a->ops, host_resched, NULL);
	rc = dls_domain_init(&a->dom, &a->ops, &a->plat, NULL, a->rqs, NCPU);
	if (rc)
		return rc;
	for (int i = 0; i < NCPU; i++) {
		a->cpus[i].app = a;
		a->cpus[i].id = i;
		atomic_init(&a->cpus[i].kicked, false);
		rc = setup_guest(a, &a->cpus[i]);
		if (rc)
			return rc;
	}
	for (int i = 0; i < NTASK; i++) {
		struct task *t = &a->tasks[i];
		struct dls_params p = { .runtime = task_set[i].budget,
					.deadline = task_set[i].period };
		struct cpu *c = &a->cpus[task_set[i].cpu];

		t->name = task_set[i].name;
		t->cpu = task_set[i].cpu;
		t->in_guest = task_set[i].in_guest;
		t->budget = task_set[i].budget;
		t->period = task_set[i].period;
		t->work = task_set[i].work;
		t->app = a;
		dls_entity_init(&t->se);
		dls_posix_timer_bind(&t->replenish, &t->se.timer);
		dls_posix_timer_init(&t->release, on_release, t);
		rc = dls_entity_attach(t->in_guest ? &c->g.rq : &a->rqs[t->cpu], &t->se, &p);
		if (rc)
			return rc;
	}
	for (int i = 0; i < NCPU; i++) {
		rc = dls_posix_worker_create(&a->cpus[i].worker, cpu_main, &a->cpus[i], i, 0);
		if (rc)
			return rc;
	}
	return dls_posix_start(&a->plat);
}

static void report(struct app *a, double seconds)
{
	printf("%d host CPUs, a guest of one vCPU on each, %.2f s\n\n", NCPU, seconds);
	printf("%-9s %-8s %9s %8s %6s %6s %10s %9s %7s\n", "task", "where", "Q/P ms",
	       "work ms", "jobs", "done", "resp max", "throttles", "misses");
	for (int i = 0; i < NTASK; i++) {
		struct task *t = &a->tasks[i];

		printf("%-9s %-8s %4.1f/%-4.0f %8.1f %6lu %6lu %8.2fms %9llu %7llu\n",
		       t->name, t->in_guest ? (t->cpu ? "guest B" : "guest A") : "host",
		       (double)t->budget / MS, (double)t->period / MS, (double)t->work / MS,
		       t->released, t->done, (double)t->resp_max / MS,
		       (unsigned long long)t->se.stats.throttles,
		       (unsigned long long)t->se.stats.misses);
	}
	printf("\n%-9s %9s %10s %9s %7s %8s\n", "server", "Q/P ms", "used ms", "throttles",
	       "picks", "blocked");
	for (int i = 0; i < NCPU; i++) {
		const struct dls_server *s = &a->cpus[i].g.srv;

		printf("%-9s %4.1f/%-4.0f %10.1f %9llu %7llu %8llu\n", i ? "guest B" : "guest A",
		       (double)srv_budget[i] / MS, (double)srv_period / MS,
		       (double)s->se.stats.exec_time / MS,
		       (unsigned long long)s->se.stats.throttles,
		       (unsigned long long)s->stats.picks,
		       (unsigned long long)s->stats.empty_picks);
	}
}

int main(int argc, char **argv)
{
	struct app *a = malloc(sizeof(*a));
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	struct timespec ts;
	uint64_t start;
	int rc, status = 0;

	if (!a || seconds <= 0) {
		fprintf(stderr, "usage: %s [seconds]\n", argv[0]);
		return 2;
	}
	rc = setup(a);
	if (rc) {
		fprintf(stderr, "setup: %s\n", dls_strerror(rc));
		return 1;
	}
	start = dls_posix_clock_now(&a->plat.clock) + 5 * MS;
	for (int i = 0; i < NTASK; i++) {
		struct task *t = &a->tasks[i];
		struct dls_rq *rq = dls_posix_entity_lock(&t->se);

		t->next_release = start;
		dls_posix_timer_arm(&a->plat.timers, &t->release, start);
		dls_entity_unlock(rq);
	}
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_wake(&a->cpus[c].worker);

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);

	for (int i = 0; i < NTASK; i++)
		dls_posix_timer_cancel(&a->plat.timers, &a->tasks[i].release);
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_park(&a->cpus[c].worker);
	dls_posix_stop(&a->plat);
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_stop(&a->cpus[c].worker, NULL);
	atomic_store(&a->workers_gone, true);

	report(a, seconds);
	/* Every task was served; the greedy one throttled inside its guest,
	 * and the guest that needs more than its server throttled on the host. */
	for (int i = 0; i < NTASK; i++)
		if (a->tasks[i].done == 0)
			status = 1;
	if (a->tasks[4].se.stats.throttles == 0 || a->cpus[1].g.srv.se.stats.throttles == 0)
		status = 1;
	for (int i = 0; i < NCPU; i++) {
		const char *e = dls_server_check(&a->cpus[i].g.srv);

		if (e || (e = dls_rq_check(&a->cpus[i].g.rq)) || (e = dls_rq_check(&a->rqs[i]))) {
			fprintf(stderr, "CPU %d: %s\n", i, e);
			status = 1;
		}
	}
	for (int i = 0; i < NTASK; i++)
		must(dls_task_dead(a->tasks[i].se.rq, &a->tasks[i].se), "dls_task_dead");
	for (int i = 0; i < NCPU; i++) {
		must(dls_server_stop(&a->rqs[i], &a->cpus[i].g.srv), "dls_server_stop");
		must(dls_task_dead(&a->rqs[i], &a->cpus[i].g.srv.se), "dls_task_dead");
		dls_posix_destroy(&a->cpus[i].g.plat);
	}
	dls_posix_destroy(&a->plat);
	free(a);
	return status;
}

#else /* !DLSCHED_HAVE_POSIX */

int main(void)
{
	puts("libdlsched was built without the POSIX platform");
	return 0;
}

#endif
