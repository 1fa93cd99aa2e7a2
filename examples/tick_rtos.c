/*
 * A tick-driven RTOS port of libdlsched in a page: the "kernel" has a 1 ms
 * tick, one CPU, and three periodic threads with CBS reservations. Timers
 * are a sorted list checked at each tick, as a small RTOS would do.
 *
 * The program runs 100 ticks of simulated time and prints each thread's
 * statistics; it exits non-zero if a reservation missed a deadline.
 */
#include <stdio.h>

#include <dlsched/sched.h>

#define MS 1000000ULL
#define NTHREADS 3
#define MAX_TIMERS 8

/* ---- the RTOS side -------------------------------------------------- */

/* An armed timer: the library's timer and the time timer_arm gave. */
struct rtos_timer {
	struct dls_timer *t;
	uint64_t abs_ns;
};

struct rtos {
	uint64_t ticks_ns;                     /* the tick counter, in ns */
	struct rtos_timer timers[MAX_TIMERS];  /* armed timers */
	int need_resched;
};

struct thread {
	const char *name;
	struct dls_entity se;   /* the embedded scheduling entity */
	uint64_t period, work;  /* job period and work per job, ns */
	uint64_t next_release, left;
	unsigned int pending;   /* jobs released while the previous one ran */
};

static uint64_t rtos_now(void *ctx, int cpu)
{
	(void)cpu;
	return ((struct rtos *)ctx)->ticks_ns;
}

/* Program the time given here (abs_ns), not a field of the library's
 * timer: see docs/rtos-integration.md, "Which time timer_arm programs". */
static void rtos_timer_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	struct rtos *os = ctx;

	for (int i = 0; i < MAX_TIMERS; i++)
		if (!os->timers[i].t || os->timers[i].t == t) {
			os->timers[i] = (struct rtos_timer){ t, abs_ns };
			return;
		}
}

static void rtos_timer_cancel(void *ctx, struct dls_timer *t)
{
	struct rtos *os = ctx;

	for (int i = 0; i < MAX_TIMERS; i++)
		if (os->timers[i].t == t)
			os->timers[i].t = NULL;
}

static void rtos_resched(void *ctx, int cpu)
{
	(void)cpu;
	((struct rtos *)ctx)->need_resched = 1;
}

static const struct dls_ops rtos_ops = {
	.now = rtos_now,
	.timer_arm = rtos_timer_arm,
	.timer_cancel = rtos_timer_cancel,
	.resched = rtos_resched,
};

/* Called from the tick interrupt (interrupts off = the runqueue lock). */
static void rtos_fire_timers(struct rtos *os)
{
	for (int i = 0; i < MAX_TIMERS; i++) {
		struct dls_timer *t = os->timers[i].t;

		if (t && !dls_time_after(os->timers[i].abs_ns, os->ticks_ns)) {
			os->timers[i].t = NULL;
			dls_timer_expired(t);
		}
	}
}

/* ---- the application ------------------------------------------------ */

int main(void)
{
	struct rtos os = { .ticks_ns = 0 };
	struct dls_domain dom;
	struct dls_rq rq;
	struct thread th[NTHREADS] = {
		{ .name = "control", .period = 10 * MS, .work = 2 * MS },
		{ .name = "sensor", .period = 20 * MS, .work = 5 * MS },
		{ .name = "logger", .period = 50 * MS, .work = 10 * MS },
	};
	struct dls_entity *running;
	int failures = 0;

	if (dls_domain_init(&dom, &rtos_ops, &os, NULL, &rq, 1) != 0)
		return 1;
	for (int i = 0; i < NTHREADS; i++) {
		/* Reserve exactly the work per period: U = 0.2 + 0.25 + 0.2. */
		struct dls_params p = { .runtime = th[i].work,
					.deadline = th[i].period };

		dls_entity_init(&th[i].se);
		if (dls_entity_attach(&rq, &th[i].se, &p) != 0)
			return 1;
	}

	running = NULL;
	for (int tick = 0; tick < 100; tick++) {
		/* 1. The running thread did one tick's worth of work. */
		if (running) {
			struct thread *t = dls_container_of(running, struct thread, se);

			os.ticks_ns += MS;
			t->left -= MS;
			dls_tick(&rq); /* charge; may throttle */
			if (t->left == 0) {
				/* Job done; the state is right by construction. */
				if (dls_dequeue(&rq, running, DLS_DEQUEUE_DONE) != 0)
					return 1;
				if (t->pending) { /* back-to-back: next job is out */
					t->pending--;
					t->left = t->work;
					if (dls_wakeup(&rq, running) != 0)
						return 1;
				}
			}
		} else {
			os.ticks_ns += MS;
		}
		/* 2. Timers and job releases due at this tick. */
		rtos_fire_timers(&os);
		for (int i = 0; i < NTHREADS; i++)
			if (!dls_time_after(th[i].next_release, os.ticks_ns)) {
				th[i].next_release += th[i].period;
				if (th[i].se.runnable) {
					th[i].pending++; /* still on its last job */
				} else {
					th[i].left = th[i].work;
					if (dls_wakeup(&rq, &th[i].se) != 0)
						return 1;
				}
			}
		/* 3. Context switch when asked (or when idle). */
		if (os.need_resched || !running) {
			os.need_resched = 0;
			running = dls_schedule(&rq);
		}
	}

	printf("%-8s %6s %6s %9s %7s\n", "thread", "jobs", "misses", "throttles",
	       "used_ms");
	for (int i = 0; i < NTHREADS; i++) {
		const struct dls_stats *s = &th[i].se.stats;

		printf("%-8s %6llu %6llu %9llu %7llu\n", th[i].name,
		       (unsigned long long)s->jobs_done,
		       (unsigned long long)s->misses,
		       (unsigned long long)s->throttles,
		       (unsigned long long)(s->exec_time / MS));
		failures += s->misses != 0 || s->jobs_done == 0;
	}
	return failures ? 1 : 0;
}
