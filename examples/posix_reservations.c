/*
 * A user-space reservation executor on the POSIX platform: periodic jobs
 * under CBS reservations, executed in real time by one worker thread per
 * CPU under global EDF, for a couple of seconds.
 *
 *   example_posix_reservations [seconds]     (default 2)
 *
 * What each part does:
 *  - struct dls_posix gives the domain its clock, runqueue locks and timer
 *    service (replenishment timers); the integrator adds only resched;
 *  - each task's job releases come from a plain timer of the same service,
 *    which re-arms itself every period and wakes the task's entity;
 *  - each CPU's worker asks the scheduler for an entity, "executes" its job
 *    in slices of busy time, charges it with dls_tick() after each slice and
 *    reports the job done with DLS_DEQUEUE_DONE; a resched request from the
 *    library (preemption, throttling) is seen at the next slice boundary.
 *
 * The "greedy" task needs more than its reservation every period: it is
 * throttled, its jobs pile up and miss, and the other tasks keep their
 * deadlines (temporal isolation). Printed per task: jobs released and done,
 * response times, throttles and deadline misses.
 *
 * Reservations are charged in wall-clock time while an entity is current,
 * as in the kernel. The workers are ordinary threads: on a machine busy
 * with other processes they lose the CPU, that time is charged too, and
 * throttles and misses show up even for tasks whose work fits their budget.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/dlsched.h>

#if DLSCHED_HAVE_POSIX

#define US 1000ull
#define MS 1000000ull
#define NCPU 2
#define NTASK 5
#define SLICE (100 * US)

struct task {
	const char *name;
	uint64_t budget, period, work;   /* reservation Q, P; work per job */
	struct dls_entity se;
	struct dls_posix_timer replenish; /* the entity's timer, platform half */
	struct dls_posix_timer release;   /* job releases */
	struct app *app;
	/* Below: under the lock of the entity's runqueue. */
	uint64_t next_release;  /* of the job after the current one */
	uint64_t job_release;   /* of the job being served */
	uint64_t left;          /* work left in that job */
	unsigned long released, done, backlog;
	uint64_t resp_sum, resp_max;
};

struct cpu {
	struct app *app;
	int id;
	struct dls_posix_worker worker;
	bool need_resched; /* under this CPU's runqueue lock */
};

struct app {
	struct dls_posix plat;
	struct dls_posix_lock locks[NCPU];
	struct dls_ops ops;
	struct dls_domain dom;
	struct dls_rq rqs[NCPU];
	void *smp_mem;
	struct cpu cpus[NCPU];
	struct task tasks[NTASK];
	bool workers_gone; /* set once the workers are stopped */
};

/* ---- platform glue ---------------------------------------------------- */

/* The library wants a CPU to pick again: flag it and wake its worker.
 * Called with that CPU's runqueue lock held. */
static void app_resched(void *ctx, int cpu)
{
	struct app *a = ((struct dls_posix *)ctx)->user;

	a->cpus[cpu].need_resched = true;
	if (!a->workers_gone)
		dls_posix_worker_kick(&a->cpus[cpu].worker);
}

static void rq_unlock(struct app *a, struct dls_rq *rq)
{
	a->ops.unlock(&a->plat, rq->cpu);
}

/* ---- job releases -------------------------------------------------------- */

/* These calls apply to the entity's state by construction: a refusal
 * (DLS_ERUNNABLE, DLS_EOTHERRQ, ...) would be a bug in this program. */
static void must(int rc, const char *call)
{
	if (rc) {
		fprintf(stderr, "%s: %s\n", call, dls_strerror(rc));
		abort();
	}
}

static void start_job(struct task *t, uint64_t release)
{
	t->job_release = release;
	t->left = t->work;
	t->released++;
}

/* Release timer: a new job every period; re-arms itself. */
static void on_release(void *arg, struct dls_posix_timer *timer)
{
	struct task *t = arg;
	struct app *a = t->app;
	struct dls_rq *rq = dls_posix_entity_lock(&t->se);
	uint64_t release = t->next_release;

	t->next_release += t->period;
	if (!t->se.runnable) {
		start_job(t, release);
		must(dls_wakeup(rq, &t->se), "dls_wakeup");
	} else {
		t->backlog++; /* previous job still running: queue this one */
	}
	dls_posix_timer_arm(&a->plat.timers, timer, t->next_release);
	rq_unlock(a, rq);
}

/* ---- workers --------------------------------------------------------------- */

static void spin_for(const struct dls_posix_clock *c, uint64_t ns)
{
	uint64_t end = dls_posix_clock_now(c) + ns;

	while (dls_time_before(dls_posix_clock_now(c), end))
		;
}

/* The current job's slice is over: account it; finish the job if done. */
static void after_slice(struct app *a, struct dls_rq *rq, struct task *t, uint64_t ran)
{
	uint64_t now;

	dls_tick(rq); /* charge the reservation; may throttle */
	t->left = ran >= t->left ? 0 : t->left - ran;
	if (t->left)
		return;
	now = dls_posix_clock_now(&a->plat.clock);
	t->done++;
	t->resp_sum += now - t->job_release;
	if (now - t->job_release > t->resp_max)
		t->resp_max = now - t->job_release;
	if (t->se.queued || t->se.throttled || t->se.runnable)
		must(dls_dequeue(rq, &t->se, DLS_DEQUEUE_DONE), "dls_dequeue");
	if (t->backlog) {
		/* A queued release: the next job starts now. */
		t->backlog--;
		start_job(t, t->job_release + t->period);
		must(dls_wakeup(rq, &t->se), "dls_wakeup");
	}
}

static int cpu_main(struct dls_posix_worker *w, void *arg)
{
	struct cpu *c = arg;
	struct app *a = c->app;
	struct dls_rq *rq = &a->rqs[c->id];

	while (!dls_posix_worker_should_stop(w) && !dls_posix_worker_should_park(w)) {
		struct dls_entity *se;
		struct task *t;
		uint64_t t0, ran;

		a->ops.lock(&a->plat, c->id);
		if (c->need_resched || !rq->curr) {
			c->need_resched = false;
			dls_schedule(rq);
		}
		se = rq->curr;
		a->ops.unlock(&a->plat, c->id);
		if (!se) {
			dls_posix_worker_sleep(w, 2 * MS);
			continue;
		}
		/* Run the job: the running entity stays on this CPU (it is not
		 * pushable) until we report back under the lock. */
		t = dls_container_of(se, struct task, se);
		t0 = dls_posix_clock_now(&a->plat.clock);
		spin_for(&a->plat.clock, SLICE);
		ran = dls_posix_clock_now(&a->plat.clock) - t0;
		a->ops.lock(&a->plat, c->id);
		if (rq->curr == se)
			after_slice(a, rq, t, ran);
		a->ops.unlock(&a->plat, c->id);
	}
	return 0;
}

/* ---- set-up and report ------------------------------------------------------- */

static const struct {
	const char *name;
	uint64_t budget, period, work;
} task_set[NTASK] = {
	{ "control", 1 * MS, 5 * MS, 600 * US },
	{ "audio", 2 * MS, 10 * MS, 1500 * US },
	{ "video", 6 * MS, 33 * MS, 4 * MS },
	{ "logger", 1 * MS, 20 * MS, 500 * US },
	{ "greedy", 3 * MS, 20 * MS, 8 * MS }, /* needs 8 ms, reserved 3 ms */
};

static int setup(struct app *a)
{
	size_t sz = dls_smp_size(NCPU);
	int rc;

	memset(a, 0, sizeof(*a));
	rc = dls_posix_init(&a->plat, NULL, a->locks, NCPU);
	if (rc)
		return rc;
	a->plat.user = a;
	dls_posix_fill_ops(&a->ops, app_resched, NULL);
	rc = dls_domain_init(&a->dom, &a->ops, &a->plat, NULL, a->rqs, NCPU);
	if (rc)
		return rc;
	a->smp_mem = aligned_alloc(16, (sz + 15) & ~(size_t)15);
	if (!a->smp_mem)
		return DLS_ENOMEM;
	rc = dls_posix_smp_init(&a->plat, &a->dom, a->smp_mem, sz);
	if (rc)
		return rc;
	for (int i = 0; i < NTASK; i++) {
		struct task *t = &a->tasks[i];
		struct dls_params p = { .runtime = task_set[i].budget,
					.deadline = task_set[i].period };

		t->name = task_set[i].name;
		t->budget = task_set[i].budget;
		t->period = task_set[i].period;
		t->work = task_set[i].work;
		t->app = a;
		dls_entity_init(&t->se);
		dls_posix_timer_bind(&t->replenish, &t->se.timer);
		dls_posix_timer_init(&t->release, on_release, t);
		rc = dls_entity_attach(&a->rqs[i % NCPU], &t->se, &p);
		if (rc)
			return rc;
	}
	for (int c = 0; c < NCPU; c++) {
		a->cpus[c].app = a;
		a->cpus[c].id = c;
		rc = dls_posix_worker_create(&a->cpus[c].worker, cpu_main, &a->cpus[c], c, 0);
		if (rc)
			return rc;
	}
	return dls_posix_start(&a->plat);
}

static void report(struct app *a, double seconds)
{
	printf("%d tasks on %d CPUs for %.2f s (global EDF, CBS reservations)\n\n",
	       NTASK, NCPU, seconds);
	printf("%-8s %9s %8s %6s %6s %10s %10s %9s %7s\n", "task", "Q/P ms", "work ms",
	       "jobs", "done", "resp avg", "resp max", "throttles", "misses");
	for (int i = 0; i < NTASK; i++) {
		struct task *t = &a->tasks[i];

		printf("%-8s %4.1f/%-4.0f %8.1f %6lu %6lu %8.2fms %8.2fms %9llu %7llu\n",
		       t->name, (double)t->budget / MS, (double)t->period / MS,
		       (double)t->work / MS, t->released, t->done,
		       t->done ? (double)t->resp_sum / (double)t->done / MS : 0.0,
		       (double)t->resp_max / MS,
		       (unsigned long long)t->se.stats.throttles,
		       (unsigned long long)t->se.stats.misses);
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
	/* First releases one period from now, then the workers start. */
	start = dls_posix_clock_now(&a->plat.clock) + 5 * MS;
	for (int i = 0; i < NTASK; i++) {
		struct task *t = &a->tasks[i];
		struct dls_rq *rq = dls_posix_entity_lock(&t->se);

		t->next_release = start;
		dls_posix_timer_arm(&a->plat.timers, &t->release, start);
		rq_unlock(a, rq);
	}
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_wake(&a->cpus[c].worker);

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);

	/* Stop releases, park the workers, stop the timer thread. */
	for (int i = 0; i < NTASK; i++)
		dls_posix_timer_cancel(&a->plat.timers, &a->tasks[i].release);
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_park(&a->cpus[c].worker);
	dls_posix_stop(&a->plat);
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_stop(&a->cpus[c].worker, NULL);
	a->workers_gone = true;

	report(a, seconds);
	for (int i = 0; i < NTASK; i++) {
		/* Every task got its jobs served; the overrunning one throttled. */
		if (a->tasks[i].done == 0)
			status = 1;
	}
	if (a->tasks[NTASK - 1].se.stats.throttles == 0)
		status = 1;
	for (int i = 0; i < NTASK; i++)
		must(dls_task_dead(a->tasks[i].se.rq, &a->tasks[i].se), "dls_task_dead");
	dls_posix_destroy(&a->plat);
	free(a->smp_mem);
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
