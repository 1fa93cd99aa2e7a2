/*
 * dlsim's virtual platform.
 *
 * Time is virtual (ns). One event queue, ordered by (time, sequence) on the
 * library's rbtree, holds replenishment timers, thread wake-ups, thread
 * starts and CPU hotplug events; the CPUs' own decision points (end of a
 * run event, budget exhaustion, end of a time slice) are computed from
 * their current thread. Each step advances the clock to the earliest of
 * these, charges running threads, processes what is due, and lets the
 * library pick again on every CPU that asked for it. The same input gives
 * the same output, bit for bit.
 *
 * Scheduling classes: SCHED_DEADLINE threads are entities of libdlsched;
 * below them, SCHED_FIFO/RR threads by priority (RR with a 100 ms slice),
 * then SCHED_OTHER/BATCH/IDLE round-robin with a 4 ms slice. Deadline
 * threads are placed first fit by reserved bandwidth and, in global mode,
 * migrate by the library's push/pull; other threads stay on the least
 * crowded CPU they may use.
 *
 * Mutexes are the library's PI mutexes (pi.h): a thread that finds a mutex
 * taken leaves its runqueue, unlock hands the mutex to the top waiter, and,
 * when the workload sets rt-app's "pi_enabled", boost_changed gives a
 * deadline owner its donor's deadline through dls_entity_set_boost(). A
 * FIFO/RR/OTHER owner inherits its donor's priority; one that inherits a
 * deadline runs in the deadline class until it is deboosted, as in Linux:
 * its entity is attached with its donor's reservation (not admitted, as
 * Linux does not count it either) and ordered by the inherited deadline.
 * A lock request that would close a cycle stops the run with the cycle.
 *
 * Hotplug: at the times the simulation section gives, a CPU leaves with
 * dls_cpu_offline() (global mode) and comes back with dls_cpu_online();
 * entities with nowhere to go stay stranded on it and are reported. In
 * partitioned mode every deadline entity of the CPU is stranded. Threads
 * of the lower classes move to the least crowded online CPU they may use,
 * or stay stranded likewise.
 */
#include "sim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dlsched/pi.h>
#include <dlsched/rbtree.h>
#include <dlsched/sched.h>
#include <dlsched/smp.h>

#define US 1000ULL
#define SLICE_OTHER (4 * 1000 * US)
#define SLICE_RR (100 * 1000 * US)
#define MAX_THREADS 4096
#define MAX_TIMERS_PER_THREAD 8

enum ev_kind { EV_TIMER, EV_WAKE, EV_HOTPLUG };

struct qev {
	struct dls_rb_node node;
	uint64_t t, seq;
	enum ev_kind kind;
	bool queued;
};

struct thread;

struct wait_list {
	const char *name;
	int kind; /* 0 mutex, 1 condition, 2 barrier, 3 suspend */
	struct dls_pi_mutex pm; /* kind 0: the waiters are in its tree */
	struct thread **waiters;
	size_t n, cap;
	int participants, arrived;
};

struct utimer {
	const char *ref;
	uint64_t next;
	bool started;
};

struct thread {
	int id;
	char name[64];
	const struct wl_task *task;
	struct dls_entity se;
	bool dl_policy;       /* SCHED_DEADLINE by its own policy */
	bool is_dl;           /* in the deadline class now (own or inherited) */
	bool runnable, exited, started;
	int cpu;
	uint64_t allowed; /* CPUs it may use (bits), 0 = all */
	int last_cpu; /* where it last ran, -1 before it first runs */
	int prio; /* FIFO/RR priority, 0 for the fair class */
	/* program counter */
	size_t phase, ev;
	int64_t phase_iter, task_iter;
	uint64_t work_left, wall_left;
	bool in_run, in_runtime;
	uint64_t zero_time_at;           /* instant of the events counted below */
	unsigned int zero_time_events;   /* zero-time events run at that instant */
	/* queue events */
	struct qev wake, timer;
	/* fair / rt class */
	uint64_t slice_left;
	/* jobs */
	uint64_t job_release;
	struct utimer timers[MAX_TIMERS_PER_THREAD];
	size_t nr_timers;
	/* stats */
	uint64_t jobs, misses, max_lateness, resp_sum, resp_max, preemptions;
	uint64_t *resp;
	size_t nr_resp, cap_resp;
	uint64_t run_ns;
	struct dls_cpumask *mask; /* affinity under global scheduling */
	/* locks */
	struct dls_pi_task pi;
	struct dls_pi_waiter pi_wait;
	struct wait_list *relock;  /* condition wait: the mutex to take back */
	unsigned int nr_held;
	bool lock_waiting, boost_on, stranded;
	uint64_t lock_wait_start, lock_wait_ns, lock_wait_max, lock_acquires;
	uint64_t boosts, boost_start, boosted_ns;
};

struct cpu {
	struct thread *curr;
	bool need_resched;
	uint32_t capacity;
	uint64_t busy_ns, slice_start;
	struct thread **lower; /* runnable non-deadline threads */
	size_t nr_lower, cap_lower;
	unsigned int nr_assigned; /* non-deadline threads placed here */
	bool offline;
	uint64_t offline_since, offline_ns;
};

struct hotplug_ev {
	struct qev q;
	size_t idx;              /* in workload.hotplug */
};

/* What one hotplug event did, for the summary. */
struct hotplug_log {
	uint64_t t;
	int cpu;
	bool online;
	const char *refused;     /* why nothing happened, or NULL */
	unsigned int moved_dl, moved_other, stranded, back;
	char names[160];         /* the stranded threads, or those back */
};

struct span {
	int cpu;
	uint64_t start, end;
};

struct slice {
	int cpu, thread;
	uint64_t start, end;
};

struct mark {
	int cpu, thread; /* thread -1: the CPU itself */
	uint64_t t;
	const char *what;
};

struct sim {
	const struct workload *w;
	const struct sim_options *opt;
	uint64_t now, seq, events;
	struct dls_rb_root_cached queue;
	struct dls_domain dom;
	struct dls_rq *rqs;
	struct cpu *cpus;
	int nr_cpus;
	struct thread **threads;
	int nr_threads;
	struct wait_list *lists;
	size_t nr_lists;
	struct slice *slices;
	size_t nr_slices, cap_slices;
	struct mark *marks;
	size_t nr_marks, cap_marks;
	const char *broken;
	/* the library's refusal (DLS_E*) of a thread's reservation: the run
	 * stops, as rt-app does when sched_setattr() fails; 0 = none */
	int refused;
	void *smp_mem;
	bool full_affinity; /* no deadline thread is restricted to some CPUs */
	/* locks */
	struct dls_pi_ctx pi;
	struct dls_pi_task **pi_tasks;
	struct dls_pi_mutex **pi_mutexes;
	size_t nr_pi_tasks, nr_pi_mutexes;
	bool has_mutexes;
	unsigned int mutexes_held;  /* owned right now, by anyone */
	char fatal[512];   /* a deadlock or a misused mutex stops the run */
	/* hotplug */
	struct hotplug_ev *hp;
	struct hotplug_log *hp_log;
	size_t nr_hp_log;
	struct span *spans;
	size_t nr_spans, cap_spans;
	struct hotplug_log *hp_cur; /* the event being applied */
	/* progress bar */
	bool progress;
	struct timespec wall_start;
	double last_draw;
	bool drawn;
};

#define GROW(arr, n, cap)                                                      \
	do {                                                                   \
		if ((n) == (cap)) {                                            \
			size_t nc_ = (cap) ? (cap) * 2 : 16;                   \
			void *na_ = realloc((arr), nc_ * sizeof(*(arr)));      \
			if (!na_) {                                            \
				fprintf(stderr, "dlsim: out of memory\n");     \
				exit(1);                                       \
			}                                                      \
			(arr) = na_;                                           \
			(cap) = nc_;                                           \
		}                                                              \
	} while (0)

/* ---- event queue ---------------------------------------------------- */

static bool qev_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	const struct qev *x = dls_container_of(a, struct qev, node);
	const struct qev *y = dls_container_of(b, struct qev, node);

	if (x->t != y->t)
		return dls_time_before(x->t, y->t);
	return x->seq < y->seq;
}

static void q_remove(struct sim *s, struct qev *e)
{
	if (e->queued) {
		dls_rb_erase_cached(&e->node, &s->queue);
		e->queued = false;
	}
}

static void q_add(struct sim *s, struct qev *e, uint64_t t)
{
	q_remove(s, e);
	e->t = t;
	e->seq = s->seq++;
	dls_rb_add_cached(&e->node, &s->queue, qev_less);
	e->queued = true;
}

/* ---- platform ops ----------------------------------------------------- */

static uint64_t op_now(void *ctx, int cpu)
{
	(void)cpu;
	return ((struct sim *)ctx)->now;
}

static struct thread *timer_thread(struct dls_timer *t)
{
	return dls_container_of(dls_container_of(t, struct dls_entity, timer),
				struct thread, se);
}

static void op_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	q_add(ctx, &timer_thread(t)->timer, abs_ns);
}

static void op_cancel(void *ctx, struct dls_timer *t)
{
	q_remove(ctx, &timer_thread(t)->timer);
}

static void op_resched(void *ctx, int cpu)
{
	((struct sim *)ctx)->cpus[cpu].need_resched = true;
}

static void add_mark_at(struct sim *s, int cpu, int thread, uint64_t t, const char *what)
{
	if (!s->opt->trace_path && !s->opt->svg_path)
		return;
	GROW(s->marks, s->nr_marks, s->cap_marks);
	s->marks[s->nr_marks++] = (struct mark){ cpu, thread, t, what };
}

static void add_mark(struct sim *s, int cpu, int thread, const char *what)
{
	add_mark_at(s, cpu, thread, s->now, what);
}

static void op_trace(void *ctx, const struct dls_trace_event *ev)
{
	struct sim *s = ctx;
	const struct thread *th = dls_container_of(ev->se, struct thread, se);

	if (ev->type == DLS_TRACE_THROTTLE)
		add_mark(s, ev->cpu, th->id, "throttle");
	else if (ev->type == DLS_TRACE_REPLENISH)
		add_mark(s, ev->cpu, th->id, "replenish");
}

static const struct dls_ops sim_ops = {
	.now = op_now,
	.timer_arm = op_arm,
	.timer_cancel = op_cancel,
	.resched = op_resched,
	.trace = op_trace,
};

/* ---- lower classes ---------------------------------------------------- */

static void lower_add(struct sim *s, struct thread *t, bool head)
{
	struct cpu *c = &s->cpus[t->cpu];
	size_t pos = c->nr_lower;

	GROW(c->lower, c->nr_lower, c->cap_lower);
	/* Keep the array sorted by priority (higher first), FIFO within one. */
	for (size_t i = 0; i < c->nr_lower; i++)
		if (c->lower[i]->prio < t->prio || (head && c->lower[i]->prio == t->prio)) {
			pos = i;
			break;
		}
	memmove(c->lower + pos + 1, c->lower + pos, (c->nr_lower - pos) * sizeof(*c->lower));
	c->lower[pos] = t;
	c->nr_lower++;
	if (!c->curr || (!c->curr->is_dl && c->curr->prio < t->prio))
		c->need_resched = true;
}

static void lower_remove(struct sim *s, struct thread *t)
{
	struct cpu *c = &s->cpus[t->cpu];

	for (size_t i = 0; i < c->nr_lower; i++)
		if (c->lower[i] == t) {
			memmove(c->lower + i, c->lower + i + 1,
				(c->nr_lower - i - 1) * sizeof(*c->lower));
			c->nr_lower--;
			return;
		}
}

/* ---- threads ---------------------------------------------------------- */

/* A deadline thread's CPU follows its entity, which push/pull may move. */
static int tcpu(const struct thread *t)
{
	return t->is_dl && t->se.rq ? t->se.rq->cpu : t->cpu;
}

static struct dls_rq *rq_of(struct sim *s, const struct thread *t)
{
	return &s->rqs[tcpu(t)];
}

static void fatal(struct sim *s, const char *fmt, ...);

/* The simulator calls the library only where the call applies to the
 * entity's state: a refusal is a simulator bug, reported as one. */
static void lib_ok(struct sim *s, int rc, const char *call, const struct thread *t)
{
	if (rc)
		fatal(s, "internal error: %s refused for \"%s\": %s", call, t->name,
		      dls_strerror(rc));
}

static void thread_block(struct sim *s, struct thread *t, bool job_done)
{
	if (!t->runnable)
		return;
	t->runnable = false;
	if (t->is_dl)
		lib_ok(s, dls_dequeue(rq_of(s, t), &t->se,
				      job_done ? DLS_DEQUEUE_DONE : DLS_DEQUEUE_SLEEP),
		       "dls_dequeue", t);
	else
		lower_remove(s, t);
	if (s->cpus[tcpu(t)].curr == t)
		s->cpus[tcpu(t)].need_resched = true;
}

static void thread_wake(struct sim *s, struct thread *t)
{
	if (t->runnable || t->exited)
		return;
	t->runnable = true;
	if (t->is_dl) {
		if (s->dom.smp && !t->se.throttled) {
			int cpu = dls_select_cpu(&s->dom, &t->se, tcpu(t));

			if (cpu >= 0)
				dls_entity_move(&t->se, &s->rqs[cpu]);
		}
		lib_ok(s, dls_wakeup(rq_of(s, t), &t->se), "dls_wakeup", t);
	} else {
		lower_add(s, t, false);
	}
}

static struct wait_list *list_get(struct sim *s, const char *name, int kind)
{
	for (size_t i = 0; i < s->nr_lists; i++)
		if (s->lists[i].kind == kind && !strcmp(s->lists[i].name, name))
			return &s->lists[i];
	return NULL;
}

static void list_push(struct wait_list *l, struct thread *t)
{
	GROW(l->waiters, l->n, l->cap);
	l->waiters[l->n++] = t;
}

static struct thread *list_pop(struct wait_list *l)
{
	struct thread *t;

	if (!l->n)
		return NULL;
	t = l->waiters[0];
	memmove(l->waiters, l->waiters + 1, (l->n - 1) * sizeof(*l->waiters));
	l->n--;
	return t;
}

/* ---- PI mutexes --------------------------------------------------------- */

static struct thread *pi_thread(struct dls_pi_task *p)
{
	return dls_container_of(p, struct thread, pi);
}

static struct wait_list *pi_list(struct dls_pi_mutex *m)
{
	return dls_container_of(m, struct wait_list, pm);
}

/* PI priorities: lower is more important. FIFO/RR priority p (1..99) is
 * 99 - p, the fair classes 120; a deadline thread's key is its deadline. */
static int pi_prio(const struct thread *t)
{
	return t->dl_policy ? -1 : t->prio ? 99 - t->prio : 120;
}

/* The lower-class priority a thread runs at under its effective key. */
static int eff_prio(const struct thread *t)
{
	if (t->pi.eff.has_dl)
		return 100; /* could not join the deadline class: above FIFO/RR 99 */
	return t->pi.eff.prio < 99 ? 99 - t->pi.eff.prio : 0;
}

static void on_boost(void *ctx, struct dls_pi_task *pt);

/*
 * A deadline thread's own key follows its entity's current deadline; the
 * chain walk re-keys what it boosts, and boost_changed also reports a
 * thread that becomes boosted with an unchanged effective key (its own
 * deadline moving past an equal inherited one).
 */
static void pi_sync_own(struct sim *s, struct thread *t)
{
	if (t->dl_policy && t->started && t->pi.own.dl != t->se.deadline)
		dls_pi_set_own(&s->pi, &t->pi, t->pi.own.prio, true, t->se.deadline);
}

/*
 * A priority thread inherits a deadline: it joins the deadline class on
 * its CPU with its donor's reservation (the donor is a deadline thread or
 * one boosted like this), ordered by the inherited deadline. Returns
 * false when that cannot be done; it then stays at the top of its class.
 */
static bool dl_boost_start(struct sim *s, struct thread *t)
{
	struct thread *d = t->pi.donor ? pi_thread(t->pi.donor) : NULL;
	struct cpu *c = &s->cpus[t->cpu];
	struct dls_params p;
	int r;

	/* A stranded thread (its CPU offline) stays where it is. */
	if (!d || !d->se.rq || t->cpu < 0 || c->offline)
		return false;
	p = d->se.params;
	r = dls_entity_attach_borrowed(&s->rqs[t->cpu], &t->se, &p);
	if (r)
		return false;
	if (t->mask && s->dom.smp && dls_entity_set_affinity(&t->se, t->mask)) {
		dls_task_dead(t->se.rq, &t->se);
		return false;
	}
	if (t->runnable && c->curr != t)
		lower_remove(s, t);
	t->is_dl = true;
	if (t->runnable)
		lib_ok(s, dls_wakeup(t->se.rq, &t->se), "dls_wakeup", t);
	lib_ok(s, dls_entity_set_boost(t->se.rq, &t->se, true, t->pi.eff.dl),
	       "dls_entity_set_boost", t);
	s->cpus[tcpu(t)].need_resched = true;
	c->need_resched = true;
	return true;
}

/* Deboosted: back to its own class, on the CPU the entity was last on. */
static void dl_boost_end(struct sim *s, struct thread *t)
{
	int cpu = tcpu(t);
	bool was_curr = s->cpus[cpu].curr == t;

	lib_ok(s, dls_task_dead(t->se.rq, &t->se), "dls_task_dead", t);
	t->is_dl = false;
	if (cpu != t->cpu) {
		s->cpus[t->cpu].nr_assigned--;
		s->cpus[cpu].nr_assigned++;
		t->cpu = cpu;
	}
	t->prio = eff_prio(t);
	if (t->runnable && !was_curr)
		lower_add(s, t, false);
	s->cpus[cpu].need_resched = true;
}

static void on_boost(void *ctx, struct dls_pi_task *pt)
{
	struct sim *s = ctx;
	struct thread *t = pi_thread(pt);

	/* rt-app's global "pi_enabled" (default false) picks
	 * PTHREAD_PRIO_INHERIT; without it the waiters queue the same way
	 * but nobody inherits anything. */
	if (!s->w->pi_enabled)
		return;
	if (pt->boosted && !t->boost_on) {
		t->boost_on = true;
		t->boosts++;
		t->boost_start = s->now;
		add_mark(s, tcpu(t), t->id, "boost");
	} else if (!pt->boosted && t->boost_on) {
		t->boost_on = false;
		t->boosted_ns += s->now - t->boost_start;
		add_mark(s, tcpu(t), t->id, "deboost");
	}
	if (t->dl_policy || (t->is_dl && pt->eff.has_dl)) {
		bool want = pt->boosted && pt->eff.has_dl;

		if (t->se.rq && (t->se.boosted != want ||
				 (want && t->se.pi_deadline != pt->eff.dl))) {
			lib_ok(s, dls_entity_set_boost(t->se.rq, &t->se, want, pt->eff.dl),
			       "dls_entity_set_boost", t);
			/* Its CPU picks again (and pushes or pulls): the
			 * new key may belong on another CPU now. */
			s->cpus[tcpu(t)].need_resched = true;
		}
		return;
	}
	if (t->is_dl)
		dl_boost_end(s, t);
	else if (pt->eff.has_dl && dl_boost_start(s, t))
		return;
	if (t->cpu >= 0 && eff_prio(t) != t->prio) {
		bool listed = t->runnable && s->cpus[t->cpu].curr != t;

		if (listed)
			lower_remove(s, t);
		t->prio = eff_prio(t);
		if (listed)
			lower_add(s, t, false);
		s->cpus[t->cpu].need_resched = true;
	}
}

static const struct dls_pi_ops sim_pi_ops = { .boost_changed = on_boost };

static void fatal(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	if (s->fatal[0])
		return; /* the first error is the one to report */
	va_start(ap, fmt);
	vsnprintf(s->fatal, sizeof(s->fatal), fmt, ap);
	va_end(ap);
}

/* Name the cycle (or chain) a refused lock request would have closed. */
static void report_deadlock(struct sim *s, struct thread *t, struct wait_list *m, int err)
{
	char buf[400];
	size_t len = 0;
	struct dls_pi_task *o = m->pm.owner;

	if (o == &t->pi) {
		fatal(s, "deadlock at %.3f ms: %s locks \"%s\", which it already holds",
		      (double)s->now / 1e6, t->name, m->name);
		return;
	}
	buf[0] = 0;
	for (unsigned int depth = 0; o && depth < 16 && len < sizeof(buf) - 1; depth++) {
		int n;

		n = snprintf(buf + len, sizeof(buf) - len, ", held by %s", pi_thread(o)->name);
		len += n > 0 ? (size_t)n : 0;
		if (o == &t->pi || !o->blocked_on || len >= sizeof(buf) - 1)
			break;
		n = snprintf(buf + len, sizeof(buf) - len, ", which waits for \"%s\"",
			     pi_list(o->blocked_on->lock)->name);
		len += n > 0 ? (size_t)n : 0;
		o = o->blocked_on->lock->owner;
	}
	fatal(s, "%s at %.3f ms: %s locks \"%s\"%s",
	      err == DLS_EDEADLK ? "deadlock" : "lock chain too long",
	      (double)s->now / 1e6, t->name, m->name, buf);
}

static void got_mutex(struct sim *s, struct thread *t)
{
	s->mutexes_held++;
	t->nr_held++;
	t->lock_acquires++;
	if (t->lock_waiting) {
		uint64_t w = s->now - t->lock_wait_start;

		t->lock_waiting = false;
		t->lock_wait_ns += w;
		if (w > t->lock_wait_max)
			t->lock_wait_max = w;
	}
}

/*
 * Take @m for @t. Returns true when @t owns it; false when @t waits (it
 * leaves its runqueue if it was runnable) or the request was refused.
 */
static bool mutex_lock(struct sim *s, struct wait_list *m, struct thread *t)
{
	int r;

	if (!m)
		return true;
	pi_sync_own(s, t);
	r = dls_pi_lock(&s->pi, &t->pi, &m->pm, &t->pi_wait);
	if (r == 0) {
		got_mutex(s, t);
		return true;
	}
	if (r != DLS_PI_BLOCKED) {
		report_deadlock(s, t, m, r);
		thread_block(s, t, false);
		return false;
	}
	t->lock_waiting = true;
	t->lock_wait_start = s->now;
	thread_block(s, t, false);
	return false;
}

/* Release @m; the top waiter owns it now and wakes. */
static void mutex_unlock(struct sim *s, struct wait_list *m, struct thread *t)
{
	struct dls_pi_task *next;

	if (!m || m->pm.owner != &t->pi) {
		fatal(s, "%s unlocks \"%s\" at %.3f ms without holding it", t->name,
		      m ? m->name : "?", (double)s->now / 1e6);
		return;
	}
	next = dls_pi_unlock(&s->pi, &t->pi, &m->pm);
	t->nr_held--;
	s->mutexes_held--;
	if (next) {
		struct thread *n = pi_thread(next);

		got_mutex(s, n);
		thread_wake(s, n);
	}
}

/* A condition wait ends: retake the mutex released by wait/sync first. */
static void cond_wake(struct sim *s, struct thread *t)
{
	struct wait_list *m = t->relock;

	t->relock = NULL;
	if (m && !mutex_lock(s, m, t))
		return; /* it waits for the mutex now */
	thread_wake(s, t);
}

static void record_job(struct sim *s, struct thread *t, uint64_t deadline, bool has_dl)
{
	uint64_t resp = s->now - t->job_release;

	t->jobs++;
	t->resp_sum += resp;
	if (resp > t->resp_max)
		t->resp_max = resp;
	/* Every sample is kept for the p99 of the summary and the JSON; a
	 * quiet run without JSON (a sweep) needs none of them. */
	if (!s->opt->quiet || s->opt->json_path) {
		GROW(t->resp, t->nr_resp, t->cap_resp);
		t->resp[t->nr_resp++] = resp;
	}
	if (has_dl && dls_time_after(s->now, deadline)) {
		uint64_t late = s->now - deadline;

		t->misses++;
		if (late > t->max_lateness)
			t->max_lateness = late;
		add_mark(s, tcpu(t), t->id, "miss");
	}
	if (s->opt->on_job)
		s->opt->on_job(s->opt->cb_arg, t->name, t->job_release, s->now,
			       has_dl && dls_time_after(s->now, deadline));
}

static bool has_timer(const struct wl_task *task)
{
	for (size_t p = 0; p < task->nr_phases; p++)
		for (size_t e = 0; e < task->phases[p].nr_events; e++)
			if (task->phases[p].events[e].type == WL_TIMER)
				return true;
	return false;
}

/*
 * A deadline thread whose jobs end at a timer event and whose current job,
 * released at job_release, is still unfinished at the end of the run
 * although its deadline has passed: a miss that record_job() never saw.
 */
static bool job_overdue(const struct sim *s, const struct thread *t)
{
	return t->dl_policy && t->started && !t->exited &&
	       has_timer(t->task) && !dls_time_after(t->job_release, s->now) &&
	       dls_time_before(t->job_release + t->task->sched.dl_deadline_us * US,
			       s->now);
}

static struct utimer *utimer_get(struct thread *t, const char *ref)
{
	for (size_t i = 0; i < t->nr_timers; i++)
		if (!strcmp(t->timers[i].ref, ref))
			return &t->timers[i];
	if (t->nr_timers == MAX_TIMERS_PER_THREAD)
		return &t->timers[0];
	t->timers[t->nr_timers].ref = ref;
	return &t->timers[t->nr_timers++];
}

static void spawn(struct sim *s, const struct wl_task *task, int instance);

/*
 * Run the thread's program from its program counter until it has work to
 * do (a run/runtime event) or blocks. Zero-time events are processed here.
 */
static void thread_advance_events(struct sim *s, struct thread *t)
{
	const struct wl_task *task = t->task;

	if (t->zero_time_at != s->now) {
		t->zero_time_at = s->now;
		t->zero_time_events = 0;
	}
	while (!t->exited && t->runnable && !t->in_run && !t->in_runtime) {
		const struct wl_phase *ph = &task->phases[t->phase];
		const struct wl_event *ev;

		if (++t->zero_time_events > 1000) {
			/* A loop of zero-time events only (a thread spinning
			 * through lock/signal/resume/yield..., across calls at
			 * one instant): a thousand of them cost 100 us of CPU
			 * time, so that time passes. */
			t->zero_time_events = 0;
			t->wall_left = 100 * US;
			t->in_runtime = true;
			return;
		}
		if (t->ev >= ph->nr_events) {
			t->ev = 0;
			if (ph->loop >= 0 && ++t->phase_iter >= ph->loop) {
				t->phase_iter = 0;
				if (++t->phase >= task->nr_phases) {
					t->phase = 0;
					if (task->loop >= 0 && ++t->task_iter >= task->loop) {
						thread_block(s, t, true);
						t->exited = true;
						return;
					}
				}
			}
			continue;
		}
		ev = &ph->events[t->ev++];
		switch (ev->type) {
		case WL_RUN:
		case WL_MEM:
		case WL_IORUN:
			t->work_left = (uint64_t)ev->us * US;
			t->in_run = t->work_left > 0;
			break;
		case WL_RUNTIME:
			t->wall_left = (uint64_t)ev->us * US;
			t->in_runtime = t->wall_left > 0;
			break;
		case WL_SLEEP:
			if (ev->us > 0) {
				thread_block(s, t, false);
				q_add(s, &t->wake, s->now + (uint64_t)ev->us * US);
			}
			break;
		case WL_TIMER: {
			struct utimer *u = utimer_get(t, ev->ref);
			uint64_t period = (uint64_t)ev->us * US;
			bool dl = t->dl_policy;

			if (!u->started) {
				u->started = true;
				u->next = t->job_release;
			}
			u->next += period;
			/* The job ends here: a deadline task's deadline is its
			 * release + dl-deadline, any other task's the next tick
			 * of its timer (rt-app's negative slack). */
			record_job(s, t, dl ? t->job_release + t->task->sched.dl_deadline_us * US
					    : u->next, true);
			/* A relative timer that fell behind restarts from now. */
			if (!ev->absolute && dls_time_before(u->next, s->now))
				u->next = s->now;
			if (dls_time_after(u->next, s->now)) {
				thread_block(s, t, true);
				q_add(s, &t->wake, u->next);
			}
			t->job_release = u->next;
			add_mark_at(s, tcpu(t), t->id, u->next, "release");
			if (dl)
				add_mark_at(s, tcpu(t), t->id,
					    u->next + t->task->sched.dl_deadline_us * US, "deadline");
			break;
		}
		case WL_YIELD:
			if (t->is_dl && s->cpus[tcpu(t)].curr == t) {
				dls_yield(rq_of(s, t));
				s->cpus[tcpu(t)].need_resched = true;
				return;
			}
			if (!t->is_dl && s->cpus[t->cpu].nr_lower) {
				/* Let the others of its class run first. */
				t->slice_left = 0;
				s->cpus[t->cpu].need_resched = true;
				return;
			}
			break;
		case WL_LOCK:
			mutex_lock(s, list_get(s, ev->ref, 0), t);
			break;
		case WL_UNLOCK:
			mutex_unlock(s, list_get(s, ev->ref, 0), t);
			break;
		case WL_SIGNAL:
		case WL_BROAD:
		case WL_RESUME: {
			struct wait_list *c = list_get(s, ev->ref, ev->type == WL_RESUME ? 3 : 1);
			struct thread *w;

			while ((w = list_pop(c))) {
				cond_wake(s, w);
				if (ev->type == WL_SIGNAL)
					break;
			}
			break;
		}
		case WL_SYNC:
		case WL_WAIT: {
			/* pthread_cond_wait: release the mutex (if held), wait
			 * for a signal, take the mutex back before going on.
			 * sync signals the condition first, as rt-app does. */
			struct wait_list *c = list_get(s, ev->ref, 1);
			struct wait_list *m = list_get(s, ev->mutex, 0);

			if (ev->type == WL_SYNC) {
				struct thread *w = list_pop(c);

				if (w)
					cond_wake(s, w);
			}
			t->relock = NULL;
			if (m && m->pm.owner == &t->pi) {
				mutex_unlock(s, m, t);
				t->relock = m;
			}
			list_push(c, t);
			thread_block(s, t, false);
			break;
		}
		case WL_SUSPEND: {
			struct wait_list *c = list_get(s, ev->ref, 3);

			list_push(c, t);
			thread_block(s, t, false);
			break;
		}
		case WL_BARRIER: {
			struct wait_list *b = list_get(s, ev->ref, 2);

			if (++b->arrived >= b->participants) {
				struct thread *w;

				b->arrived = 0;
				while ((w = list_pop(b)))
					thread_wake(s, w);
			} else {
				list_push(b, t);
				thread_block(s, t, false);
			}
			break;
		}
		case WL_FORK:
			for (size_t k = 0; k < s->w->nr_tasks; k++)
				if (!strcmp(s->w->tasks[k].name, ev->ref))
					spawn(s, &s->w->tasks[k], s->nr_threads);
			break;
		}
	}
}

/* Run @t's zero-time events up to its next run, sleep or block. Called for
 * every running thread at every step: most are inside a run and have none. */
static inline void thread_advance(struct sim *s, struct thread *t)
{
	if (!t->exited && t->runnable && !t->in_run && !t->in_runtime)
		thread_advance_events(s, t);
}

/* ---- placement -------------------------------------------------------- */

static bool same_cluster(const struct workload *w, int a, int b)
{
	const char *x = w->cpus[a].cluster, *y = w->cpus[b].cluster;

	return x && y ? !strcmp(x, y) : x == y;
}

/*
 * Clustered mode: a deadline thread stays inside one cluster (global EDF
 * within it), the one with the least admitted bandwidth per capacity among
 * the clusters it may use; admission stays domain-wide.
 */
static uint64_t cluster_bits(const struct sim *s, uint64_t allowed)
{
	uint64_t best = 0, best_bw = 0, best_cap = 1;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint64_t bits = 0, bw = 0, cap = 0;

		for (int k = 0; k < s->nr_cpus; k++) {
			if (!same_cluster(s->w, k, cpu) || s->cpus[k].offline ||
			    (allowed && !(allowed & (UINT64_C(1) << k))))
				continue;
			bits |= UINT64_C(1) << k;
			bw += s->rqs[k].bw_total;
			cap += s->rqs[k].capacity;
		}
		/* each cluster once, from its lowest usable CPU */
		if (!bits || !(bits & (UINT64_C(1) << cpu)) || (bits & ((UINT64_C(1) << cpu) - 1)))
			continue;
		if (!best || bw * best_cap < best_bw * cap) {
			best = bits;
			best_bw = bw;
			best_cap = cap;
		}
	}
	return best ? best : allowed;
}

/* The CPU a new thread starts on, or -1 with *err the library's refusal
 * of a deadline thread (DLS_EBANDWIDTH when no CPU it may use admits it). */
static int place(struct sim *s, struct thread *t, struct dls_params *p, int *err)
{
	uint64_t allowed = t->allowed;
	int best = -1;

	*err = DLS_EBANDWIDTH;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if ((allowed && !(allowed & (UINT64_C(1) << cpu))) || s->cpus[cpu].offline)
			continue;
		if (t->is_dl) {
			/* First fit by reserved bandwidth (admission decides). */
			int r = dls_entity_attach(&s->rqs[cpu], &t->se, p);

			if (r == 0)
				return cpu;
			if (r != DLS_EBANDWIDTH) {
				*err = r; /* the parameters themselves: no CPU takes them */
				return -1;
			}
		} else if (best < 0 || s->cpus[cpu].nr_assigned < s->cpus[best].nr_assigned) {
			best = cpu; /* the least crowded allowed CPU */
		}
	}
	/* Every CPU it may use is offline: it waits stranded on the first. */
	for (int cpu = 0; best < 0 && !t->is_dl && cpu < s->nr_cpus; cpu++)
		if (!allowed || (allowed & (UINT64_C(1) << cpu)))
			best = cpu;
	return best;
}

static double bw_ratio(uint64_t bw)
{
	return (double)bw / (double)DLS_BW_UNIT;
}

/* Why admission refused thread t with bandwidth bw: the limit, what is
 * admitted already and the capacity it is measured against. */
static void explain_admission(const struct sim *s, const struct thread *t, uint64_t bw)
{
	const struct dls_domain_config *cfg = &s->dom.cfg;
	double limit = cfg->bw_limit == DLS_BW_UNLIMITED ? 0 : bw_ratio(cfg->bw_limit);

	if (s->dom.smp) {
		double cap = (double)s->dom.smp->capacity_online / 1024.0;

		fprintf(stderr, "dlsim:   it needs %.4f of a CPU; admitted already %.4f; "
			"limit %.0f%% of the online capacity %.3f CPUs = %.4f\n", bw_ratio(bw),
			bw_ratio(s->dom.smp->bw_total), limit * 100, cap, limit * cap);
		return;
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		double cap = (double)s->rqs[cpu].capacity / 1024.0;

		if ((t->allowed && !(t->allowed & (UINT64_C(1) << cpu))) || s->cpus[cpu].offline)
			continue;
		fprintf(stderr, "dlsim:   CPU %d: it needs %.4f; admitted already %.4f; limit "
			"%.0f%% of capacity %.3f = %.4f\n", cpu, bw_ratio(bw),
			bw_ratio(s->rqs[cpu].bw_total), limit * 100, cap, limit * cap);
	}
}

/* The library refused thread t's reservation (err): say why, with the
 * task's place in the workload file. */
static void report_refusal(const struct sim *s, const struct thread *t,
			   const struct dls_params *p, int err)
{
	const struct wl_task *task = t->task;

	fprintf(stderr, "dlsim: %s:%d:%d: ", s->w->fname ? s->w->fname : "workload",
		task->line, task->col);
	if (err == DLS_EBANDWIDTH) {
		fprintf(stderr, "admission control refused \"%s\" (%llu/%llu us) on every "
			"CPU it may use\n", t->name,
			(unsigned long long)task->sched.dl_runtime_us,
			(unsigned long long)task->sched.dl_period_us);
		explain_admission(s, t, dls_params_bw(p));
		return;
	}
	fprintf(stderr, "the library refused \"%s\" (dl-runtime %llu us, dl-deadline %llu us, "
		"dl-period %llu us): %s", t->name,
		(unsigned long long)task->sched.dl_runtime_us,
		(unsigned long long)task->sched.dl_deadline_us,
		(unsigned long long)task->sched.dl_period_us, dls_strerror(err));
	if (err == DLS_EPERIOD_RANGE)
		fprintf(stderr, " (%llu us to %llu us)",
			(unsigned long long)(s->dom.cfg.period_min / US),
			(unsigned long long)(s->dom.cfg.period_max / US));
	fprintf(stderr, "\n");
}

static void spawn(struct sim *s, const struct wl_task *task, int instance)
{
	struct thread *t;
	struct dls_params p = { 0 };
	int err;

	if (s->nr_threads >= MAX_THREADS)
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		exit(1);
	t->id = s->nr_threads;
	t->task = task;
	t->last_cpu = -1;
	if (task->instance > 1 || instance > 0)
		snprintf(t->name, sizeof(t->name), "%s-%d", task->name, instance);
	else
		snprintf(t->name, sizeof(t->name), "%s", task->name);
	t->dl_policy = task->sched.policy == WL_DEADLINE;
	t->is_dl = t->dl_policy;
	t->prio = task->sched.policy == WL_FIFO || task->sched.policy == WL_RR
			  ? task->sched.prio : 0;
	dls_rb_node_init(&t->wake.node);
	dls_rb_node_init(&t->timer.node);
	t->wake.kind = EV_WAKE;
	t->timer.kind = EV_TIMER;
	dls_entity_init(&t->se);
	dls_pi_task_init(&t->pi, pi_prio(t), t->dl_policy, 0);
	t->allowed = task->cpus ? task->cpus : task->phases[0].cpus;
	if (t->dl_policy && s->dom.smp && s->w->mode == WL_MODE_CLUSTERED)
		t->allowed = cluster_bits(s, t->allowed);
	if (s->dom.smp && t->allowed) {
		uint64_t bits = t->allowed;
		size_t msz = dls_cpumask_size(s->nr_cpus);

		t->mask = calloc(1, msz);
		if (!t->mask)
			exit(1);
		dls_cpumask_init(t->mask, msz, s->nr_cpus);
		for (int c = 0; c < s->nr_cpus; c++)
			if (bits & (UINT64_C(1) << c))
				dls_cpumask_set(t->mask, c);
	}
	p.runtime = task->sched.dl_runtime_us * US;
	p.deadline = task->sched.dl_deadline_us * US;
	p.period = task->sched.dl_period_us * US;
	if (task->sched.dl_soft > 0 || (task->sched.dl_soft == 0 && s->w->soft_reservations))
		p.flags |= DLS_FLAG_SOFT;
	t->cpu = place(s, t, &p, &err);
	if (t->cpu >= 0 && !t->is_dl)
		s->cpus[t->cpu].nr_assigned++;
	if (t->cpu >= 0 && s->cpus[t->cpu].offline)
		t->stranded = true; /* forked while every CPU it may use is offline */
	if (t->cpu >= 0 && t->is_dl && s->dom.smp && t->mask)
		dls_entity_set_affinity(&t->se, t->mask);
	s->threads[s->nr_threads++] = t;
	if (t->cpu < 0) {
		report_refusal(s, t, &p, err);
		t->exited = true;
		s->refused = err;
		return;
	}
	t->job_release = s->now + (uint64_t)task->delay_us * US;
	q_add(s, &t->wake, t->job_release);
	add_mark_at(s, tcpu(t), t->id, t->job_release, "release");
	if (t->is_dl)
		add_mark_at(s, tcpu(t), t->id, t->job_release + task->sched.dl_deadline_us * US,
			    "deadline");
}

/* ---- CPUs ------------------------------------------------------------- */

static uint64_t ceil_scale(uint64_t work, uint32_t cap)
{
	/* Full-speed CPUs are the common case: skip the 64-bit division
	 * (called for every CPU at every step). */
	if (cap == 1024)
		return work;
	return (work * 1024 + cap - 1) / cap;
}

static uint64_t cpu_next(struct sim *s, struct cpu *c, uint64_t limit)
{
	struct thread *t = c->curr;
	uint64_t n = limit;

	if (!t || !t->runnable || (t->is_dl && !t->se.queued))
		return n;
	if (!t->in_run && !t->in_runtime)
		return s->now; /* it has zero-time events to process first */
	if (t->in_run && dls_time_before(s->now + ceil_scale(t->work_left, c->capacity), n))
		n = s->now + ceil_scale(t->work_left, c->capacity);
	if (t->in_runtime && dls_time_before(s->now + t->wall_left, n))
		n = s->now + t->wall_left;
	if (t->is_dl && t->se.queued && t->se.runtime > 0) {
		uint64_t b = s->now + ceil_scale((uint64_t)t->se.runtime, c->capacity);

		if (dls_time_before(b, n))
			n = b;
	}
	if (!t->is_dl && t->slice_left && dls_time_before(s->now + t->slice_left, n))
		n = s->now + t->slice_left;
	return n;
}

static void close_slice(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];

	if (!c->curr || c->slice_start == s->now)
		return;
	if (s->opt->on_slice)
		s->opt->on_slice(s->opt->cb_arg, cpu, c->curr->name, c->slice_start, s->now);
	if (s->opt->trace_path || s->opt->svg_path) {
		GROW(s->slices, s->nr_slices, s->cap_slices);
		s->slices[s->nr_slices++] = (struct slice){ cpu, c->curr->id,
							    c->slice_start, s->now };
	}
	c->slice_start = s->now;
}

static void progress(struct sim *s, struct cpu *c, uint64_t dt)
{
	struct thread *t = c->curr;

	if (!t || !t->runnable || !dt || (t->is_dl && !t->se.queued))
		return;
	c->busy_ns += dt;
	t->run_ns += dt;
	if (t->in_run) {
		if (dt >= ceil_scale(t->work_left, c->capacity))
			t->work_left = 0;
		else
			t->work_left -= dt * c->capacity / 1024;
	}
	if (t->in_runtime)
		t->wall_left -= dt < t->wall_left ? dt : t->wall_left;
	if (!t->is_dl && t->slice_left)
		t->slice_left -= dt < t->slice_left ? dt : t->slice_left;
	(void)s;
}

/*
 * An idle CPU with an empty runqueue, no lower-class thread and no request
 * to pick again, while no CPU is overloaded: dls_schedule() there would find
 * nothing (the pull returns at once, the tree is empty, nothing is
 * pushable), so the pick-again passes skip it. With many CPUs and few tasks
 * most CPUs are such, at every step.
 */
static bool nothing_to_pick(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];
	const struct dls_rq *rq = &s->rqs[cpu];

	return !c->curr && !c->need_resched && !rq->curr && !rq->nr_running &&
	       !c->nr_lower && (!s->dom.smp || !s->dom.smp->overload_count);
}

static void reschedule(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];
	struct thread *prev = c->curr, *next = NULL;
	struct dls_entity *se;

	if (prev && !prev->is_dl && prev->runnable) {
		/* Put a fair or rt thread back: at the tail when its slice ran out. */
		bool expired = prev->slice_left == 0;

		lower_add(s, prev, !expired);
	}
	se = dls_schedule(&s->rqs[cpu]);
	if (se) {
		next = dls_container_of(se, struct thread, se);
	} else if (c->nr_lower) {
		next = c->lower[0];
		lower_remove(s, next);
		if (!next->slice_left)
			next->slice_left = next->task->sched.policy == WL_RR ? SLICE_RR
										: SLICE_OTHER;
		if (next->task->sched.policy == WL_FIFO)
			next->slice_left = 0; /* no slice: runs until it blocks */
	}
	if (next != prev) {
		close_slice(s, cpu);
		c->slice_start = s->now;
		if (prev && prev->runnable && !prev->exited)
			prev->preemptions++;
		s->events++;
	}
	c->curr = next;
	c->need_resched = false;
	if (next && next != prev) {
		if (next->last_cpu >= 0 && next->last_cpu != cpu)
			add_mark(s, cpu, next->id, "migration");
		next->last_cpu = cpu;
	}
}

/* ---- hotplug ---------------------------------------------------------- */

static void log_name(struct hotplug_log *l, const char *name)
{
	size_t len = strlen(l->names);

	if (len < sizeof(l->names) - 1)
		snprintf(l->names + len, sizeof(l->names) - len, "%s%s", len ? ", " : "", name);
}

static void on_stranded(void *arg, struct dls_entity *se)
{
	struct sim *s = arg;
	struct thread *t = dls_container_of(se, struct thread, se);

	t->stranded = true;
	s->hp_cur->stranded++;
	log_name(s->hp_cur, t->name);
	add_mark(s, se->rq->cpu, t->id, "stranded");
}

/* The least crowded online CPU a lower-class thread may use, or -1. */
static int lower_target(const struct sim *s, const struct thread *t)
{
	uint64_t allowed = t->task->cpus ? t->task->cpus : t->task->phases[0].cpus;
	int best = -1;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if ((allowed && !(allowed & (UINT64_C(1) << cpu))) || s->cpus[cpu].offline)
			continue;
		if (best < 0 || s->cpus[cpu].nr_assigned < s->cpus[best].nr_assigned)
			best = cpu;
	}
	return best;
}

static void cpu_down(struct sim *s, int cpu, struct hotplug_log *l)
{
	struct cpu *c = &s->cpus[cpu];
	struct dls_rq *rq = &s->rqs[cpu];
	struct thread *prev = c->curr;
	unsigned int before = rq->nr_attached;
	int online = 0;

	for (int k = 0; k < s->nr_cpus; k++)
		online += !s->cpus[k].offline;
	if (c->offline) {
		l->refused = "it is already offline";
		return;
	}
	if (online < 2) {
		l->refused = "it is the last online CPU";
		return;
	}
	if (s->dom.smp) {
		/* As Linux does, refuse when the admitted bandwidth would no
		 * longer fit the remaining CPUs. */
		int r = dls_cpu_offline(&s->dom, cpu, false, on_stranded, s);

		if (r == DLS_ECAPACITY) {
			l->refused = "the admitted bandwidth would not fit the other CPUs";
			return;
		}
		if (r) {
			l->refused = dls_strerror(r);
			return;
		}
	} else {
		/* Partitioned: no entity may leave its CPU. */
		if (rq->curr)
			dls_put_prev(rq, rq->curr);
		for (int i = 0; i < s->nr_threads; i++)
			if (s->threads[i]->is_dl && s->threads[i]->se.rq == rq)
				on_stranded(s, &s->threads[i]->se);
	}
	l->moved_dl = before - rq->nr_attached;
	close_slice(s, cpu);
	c->curr = NULL;
	c->offline = true;
	c->offline_since = s->now;
	add_mark(s, cpu, -1, "offline");
	if (prev && !prev->is_dl && prev->runnable)
		lower_add(s, prev, true);
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];
		int target;

		if (t->is_dl || t->exited || t->cpu != cpu)
			continue;
		target = lower_target(s, t);
		if (target < 0) {
			t->stranded = true;
			l->stranded++;
			log_name(l, t->name);
			add_mark(s, cpu, t->id, "stranded");
			continue;
		}
		if (t->runnable)
			lower_remove(s, t);
		c->nr_assigned--;
		t->cpu = target;
		s->cpus[target].nr_assigned++;
		if (t->runnable)
			lower_add(s, t, false);
		l->moved_other++;
	}
	c->need_resched = false;
	if (s->dom.smp)
		dls_balance(&s->dom);
}

static void cpu_up(struct sim *s, int cpu, struct hotplug_log *l)
{
	struct cpu *c = &s->cpus[cpu];

	if (!c->offline) {
		l->refused = "it is already online";
		return;
	}
	if (s->dom.smp) {
		int r = dls_cpu_online(&s->dom, cpu);

		if (r) {
			l->refused = dls_strerror(r);
			return;
		}
	}
	c->offline = false;
	c->offline_ns += s->now - c->offline_since;
	GROW(s->spans, s->nr_spans, s->cap_spans);
	s->spans[s->nr_spans++] = (struct span){ cpu, c->offline_since, s->now };
	c->slice_start = s->now;
	add_mark(s, cpu, -1, "online");
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];

		if (t->stranded && (t->is_dl ? tcpu(t) : t->cpu) == cpu) {
			t->stranded = false;
			l->back++;
			log_name(l, t->name);
			/* A lower-class owner that inherited a deadline while
			 * stranded joins the deadline class now it can run. */
			if (!t->is_dl && s->w->pi_enabled && t->pi.boosted &&
			    t->pi.eff.has_dl)
				dl_boost_start(s, t);
		}
	}
	c->need_resched = true;
	if (s->dom.smp)
		dls_balance(&s->dom);
}

static void hotplug_apply(struct sim *s, const struct hotplug_ev *h)
{
	const struct wl_hotplug *wh = &s->w->hotplug[h->idx];
	struct hotplug_log *l = &s->hp_log[s->nr_hp_log++];

	memset(l, 0, sizeof(*l));
	l->t = s->now;
	l->cpu = wh->cpu;
	l->online = wh->online;
	s->hp_cur = l;
	if (wh->online)
		cpu_up(s, wh->cpu, l);
	else
		cpu_down(s, wh->cpu, l);
	s->hp_cur = NULL;
}

/* ---- progress bar ------------------------------------------------------ */

static double wall_seconds(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

static void draw_progress(struct sim *s, uint64_t horizon, bool done)
{
	double el;
	char bar[41];
	int fill;

	if (done) {
		if (s->drawn)
			fprintf(stderr, "\r%70s\r", "");
		return;
	}
	el = wall_seconds(&s->wall_start);
	if (el < 1.0 || (s->drawn && el - s->last_draw < 0.1))
		return;
	fill = horizon ? (int)((double)s->now / (double)horizon * 40) : 40;
	fill = fill < 0 ? 0 : fill > 40 ? 40 : fill;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, ' ', (size_t)(40 - fill));
	bar[40] = 0;
	fprintf(stderr, "\rdlsim [%s] %3d%%  %.3f of %.3f s", bar,
		horizon ? (int)((double)s->now * 100 / (double)horizon) : 100,
		(double)s->now / 1e9, (double)horizon / 1e9);
	fflush(stderr);
	s->last_draw = el;
	s->drawn = true;
}

static const char *check_all(struct sim *s)
{
	const char *err = dls_domain_check(&s->dom);

	if (err)
		return err;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (s->cpus[cpu].curr && s->cpus[cpu].curr->is_dl &&
		    s->rqs[cpu].curr != &s->cpus[cpu].curr->se)
			return "the running deadline thread is not the runqueue's current";
	}
	{
		const char *e = dls_rb_check_cached(&s->queue, qev_less);

		if (e)
			return e;
	}
	if (s->has_mutexes) {
		const char *e;

		if (s->nr_pi_tasks != (size_t)s->nr_threads) {
			s->pi_tasks = realloc(s->pi_tasks, (size_t)s->nr_threads * sizeof(*s->pi_tasks));
			if (!s->pi_tasks)
				exit(1);
			s->nr_pi_tasks = (size_t)s->nr_threads;
			for (int i = 0; i < s->nr_threads; i++)
				s->pi_tasks[i] = &s->threads[i]->pi;
		}
		e = dls_pi_check(s->pi_tasks, s->nr_pi_tasks, s->pi_mutexes, s->nr_pi_mutexes);
		if (e)
			return e;
		for (int i = 0; i < s->nr_threads; i++) {
			const struct thread *t = s->threads[i];
			bool want = s->w->pi_enabled && t->pi.boosted && t->pi.eff.has_dl;

			if (!t->is_dl || !t->se.rq)
				continue;
			if (t->se.boosted != want || (want && t->se.pi_deadline != t->pi.eff.dl))
				return "a deadline entity's boost differs from its PI effective key";
			if (t->pi.blocked_on && t->runnable)
				return "a thread waiting for a mutex is runnable";
		}
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->cpus[cpu].offline && s->cpus[cpu].curr)
			return "an offline CPU runs a thread";
	return NULL;
}

/* ---- outputs ---------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t p99(struct thread *t)
{
	if (!t->nr_resp)
		return 0;
	qsort(t->resp, t->nr_resp, sizeof(*t->resp), cmp_u64);
	return t->resp[(t->nr_resp * 99 + 99) / 100 - 1];
}

static double energy_mj(const struct sim *s, int cpu, uint64_t horizon)
{
	const struct wl_cpu *wc = &s->w->cpus[cpu];
	uint64_t busy = s->cpus[cpu].busy_ns;
	uint64_t idle = horizon - busy - s->cpus[cpu].offline_ns; /* offline: no power */

	return (wc->power_busy_mw * (double)busy + wc->power_idle_mw * (double)idle) / 1e9;
}

static void print_summary(struct sim *s, FILE *out, uint64_t horizon)
{
	uint64_t jobs = 0, misses = 0;
	double energy = 0;

	fprintf(out, "dlsim: %d CPUs, %d threads, %.3f s simulated, deadline tasks %s\n",
		s->nr_cpus, s->nr_threads, (double)horizon / 1e9,
		!s->dom.smp ? "partitioned" : s->w->mode == WL_MODE_CLUSTERED ? "under clustered EDF"
									 : "under global EDF");
	fprintf(out, "%-20s %-14s %3s %7s %6s %10s %10s %10s %10s %8s %7s %5s\n", "thread",
		"policy", "cpu", "jobs", "misses", "resp_max", "resp_mean", "resp_p99",
		"lateness", "throttle", "preempt", "migr");
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];

		jobs += t->jobs;
		misses += t->misses;
		fprintf(out, "%-20s %-14s %3d %7llu %6llu %8.3fms %8.3fms %8.3fms %8.3fms %8llu %7llu %5llu\n",
			t->name, wl_policy_name(t->task->sched.policy), tcpu(t),
			(unsigned long long)t->jobs, (unsigned long long)t->misses,
			(double)t->resp_max / 1e6,
			t->jobs ? (double)t->resp_sum / (double)t->jobs / 1e6 : 0.0,
			(double)p99(t) / 1e6, (double)t->max_lateness / 1e6,
			(unsigned long long)t->se.stats.throttles,
			(unsigned long long)t->preemptions,
			(unsigned long long)t->se.stats.migrations);
	}
	fprintf(out, "%-6s %8s %8s %10s %10s\n", "cpu", "capacity", "util", "idle", "energy");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		double util = horizon ? (double)s->cpus[cpu].busy_ns / (double)horizon : 0;
		double e = energy_mj(s, cpu, horizon);
		double off = horizon ? (double)s->cpus[cpu].offline_ns / (double)horizon : 0;

		energy += e;
		fprintf(out, "%-6d %8u %7.1f%% %9.1f%% %8.2fmJ\n", cpu, s->cpus[cpu].capacity,
			100 * util, 100 * (1 - util - off), e);
	}
	if (s->has_mutexes) {
		fprintf(out, "%-20s %8s %11s %10s %6s %10s\n", "locks", "acquired",
			"wait_total", "wait_max", "boosts", "boosted");
		for (int i = 0; i < s->nr_threads; i++) {
			const struct thread *t = s->threads[i];

			if (!t->lock_acquires && !t->lock_waiting && !t->boosts)
				continue;
			fprintf(out, "%-20s %8llu %9.3fms %8.3fms %6llu %8.3fms\n", t->name,
				(unsigned long long)t->lock_acquires,
				(double)t->lock_wait_ns / 1e6, (double)t->lock_wait_max / 1e6,
				(unsigned long long)t->boosts, (double)t->boosted_ns / 1e6);
		}
	}
	if (s->nr_hp_log) {
		fprintf(out, "hotplug:\n");
		for (size_t i = 0; i < s->nr_hp_log; i++) {
			const struct hotplug_log *l = &s->hp_log[i];

			fprintf(out, "  %10.3fms CPU %d %s", (double)l->t / 1e6, l->cpu,
				l->online ? "online" : "offline");
			if (l->refused)
				fprintf(out, " refused: %s\n", l->refused);
			else if (l->online)
				fprintf(out, ": %u stranded thread(s) back%s%s\n", l->back,
					l->back ? ": " : "", l->names);
			else
				fprintf(out, ": %u deadline and %u other thread(s) moved, "
					"%u stranded%s%s\n", l->moved_dl, l->moved_other, l->stranded,
					l->stranded ? ": " : "", l->names);
		}
		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			if (s->cpus[cpu].offline_ns)
				fprintf(out, "  CPU %d offline %.3f ms in all\n", cpu,
					(double)s->cpus[cpu].offline_ns / 1e6);
	}
	fprintf(out, "total: %llu jobs, %llu deadline misses, %llu scheduling events, "
		"%.2f mJ\n", (unsigned long long)jobs, (unsigned long long)misses,
		(unsigned long long)s->events, energy);
}

/*
 * Thread names come from the workload's keys: escape them for JSON (quote,
 * backslash, control characters) or XML (markup characters). @buf holds at
 * least 6 bytes per input byte plus one.
 */
static const char *esc(char *buf, size_t size, const char *str, bool xml)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)str; *p && n + 7 < size; p++) {
		if (xml && (*p == '<' || *p == '>' || *p == '&' || *p == '"'))
			n += (size_t)snprintf(buf + n, size - n, "&#%u;", *p);
		else if (!xml && (*p == '"' || *p == '\\'))
			n += (size_t)snprintf(buf + n, size - n, "\\%c", *p);
		else if (*p < 0x20)
			n += xml ? (size_t)snprintf(buf + n, size - n, "?") /* not in XML 1.0 */
				 : (size_t)snprintf(buf + n, size - n, "\\u%04x", *p);
		else
			buf[n++] = (char)*p;
	}
	buf[n] = 0;
	return buf;
}

#define ESC_SIZE 1024 /* names are under 64 bytes, hotplug lists 160 */

static FILE *open_output(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "dlsim: cannot open %s: %s\n", path, strerror(errno));
	return f;
}

int sim_close_output(FILE *f, const char *prog, const char *path)
{
	int err = 0;

	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(err));
	return -1;
}

static int write_json(struct sim *s, const char *path, uint64_t horizon)
{
	char e[ESC_SIZE];
	FILE *f = open_output(path);

	if (!f)
		return -1;
	fprintf(f, "{\n  \"horizon_ns\": %llu,\n  \"threads\": [\n", (unsigned long long)horizon);
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];

		fprintf(f, "    {\"name\": \"%s\", \"policy\": \"%s\", \"cpu\": %d, \"jobs\": %llu, "
			"\"misses\": %llu, \"resp_max_ns\": %llu, \"resp_p99_ns\": %llu, "
			"\"max_lateness_ns\": %llu, \"throttles\": %llu, \"preemptions\": %llu, "
			"\"run_ns\": %llu, \"lock_acquires\": %llu, \"lock_wait_ns\": %llu, "
			"\"lock_wait_max_ns\": %llu, \"boosts\": %llu, \"boosted_ns\": %llu}%s\n",
			esc(e, sizeof(e), t->name, false), wl_policy_name(t->task->sched.policy),
			tcpu(t), (unsigned long long)t->jobs, (unsigned long long)t->misses,
			(unsigned long long)t->resp_max, (unsigned long long)p99(t),
			(unsigned long long)t->max_lateness,
			(unsigned long long)t->se.stats.throttles,
			(unsigned long long)t->preemptions, (unsigned long long)t->run_ns,
			(unsigned long long)t->lock_acquires, (unsigned long long)t->lock_wait_ns,
			(unsigned long long)t->lock_wait_max, (unsigned long long)t->boosts,
			(unsigned long long)t->boosted_ns, i + 1 < s->nr_threads ? "," : "");
	}
	fprintf(f, "  ],\n  \"cpus\": [\n");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "    {\"cpu\": %d, \"capacity\": %u, \"busy_ns\": %llu, "
			"\"offline_ns\": %llu, \"energy_mj\": %.3f}%s\n",
			cpu, s->cpus[cpu].capacity, (unsigned long long)s->cpus[cpu].busy_ns,
			(unsigned long long)s->cpus[cpu].offline_ns,
			energy_mj(s, cpu, horizon), cpu + 1 < s->nr_cpus ? "," : "");
	fprintf(f, "  ],\n  \"hotplug\": [\n");
	for (size_t i = 0; i < s->nr_hp_log; i++) {
		const struct hotplug_log *l = &s->hp_log[i];

		fprintf(f, "    {\"at_ns\": %llu, \"cpu\": %d, \"online\": %s, \"refused\": %s%s%s, "
			"\"moved_deadline\": %u, \"moved_other\": %u, \"stranded\": %u, "
			"\"back\": %u, \"threads\": \"%s\"}%s\n", (unsigned long long)l->t, l->cpu,
			l->online ? "true" : "false", l->refused ? "\"" : "",
			l->refused ? l->refused : "null", l->refused ? "\"" : "", l->moved_dl,
			l->moved_other, l->stranded, l->back, esc(e, sizeof(e), l->names, false),
			i + 1 < s->nr_hp_log ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	return sim_close_output(f, "dlsim", path);
}

static int write_trace(struct sim *s, const char *path)
{
	char e[ESC_SIZE];
	FILE *f = open_output(path);

	if (!f)
		return -1;
	fprintf(f, "{\"traceEvents\": [\n");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": %d, "
			"\"args\": {\"name\": \"CPU %d\"}},\n", cpu, cpu);
	for (size_t i = 0; i < s->nr_slices; i++) {
		const struct slice *sl = &s->slices[i];

		fprintf(f, "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
			"\"ts\": %.3f, \"dur\": %.3f},\n",
			esc(e, sizeof(e), s->threads[sl->thread]->name, false), sl->cpu,
			(double)sl->start / 1e3, (double)(sl->end - sl->start) / 1e3);
	}
	for (size_t i = 0; i < s->nr_spans; i++) {
		const struct span *sp = &s->spans[i];

		fprintf(f, "{\"ph\": \"X\", \"name\": \"offline\", \"cname\": \"grey\", "
			"\"pid\": 0, \"tid\": %d, \"ts\": %.3f, \"dur\": %.3f},\n", sp->cpu,
			(double)sp->start / 1e3, (double)(sp->end - sp->start) / 1e3);
	}
	for (size_t i = 0; i < s->nr_marks; i++) {
		const struct mark *m = &s->marks[i];

		fprintf(f, "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"%s%s%s\", \"pid\": 0, "
			"\"tid\": %d, \"ts\": %.3f},\n", m->what, m->thread >= 0 ? " " : "",
			m->thread >= 0 ? esc(e, sizeof(e), s->threads[m->thread]->name, false) : "",
			m->cpu < 0 ? 0 : m->cpu, (double)m->t / 1e3);
	}
	fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, "
		"\"args\": {\"name\": \"dlsim\"}}\n]}\n");
	return sim_close_output(f, "dlsim", path);
}

static int write_svg(struct sim *s, const char *path, uint64_t horizon)
{
	static const char *const colors[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
					      "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
					      "#9c755f", "#bab0ac" };
	const int left = 70, row = 40, width = 1000;
	int legend_rows = (s->nr_threads + 3) / 4;
	int height = 40 + s->nr_cpus * row + 30 + legend_rows * 18;
	double scale = horizon ? (double)width / (double)horizon : 0;
	char e[ESC_SIZE];
	FILE *f = open_output(path);

	if (!f)
		return -1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", left + width + 20, height);
	fprintf(f, "<text x=\"%d\" y=\"16\">dlsim: %.3f s on %d CPUs (red: miss, "
		"black: throttle, purple: boost, green tick: release, blue tick: deadline, "
		"hatched: offline)</text>\n", left,
		(double)horizon / 1e9, s->nr_cpus);
	fprintf(f, "<defs><pattern id=\"offline\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#eee\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" "
		"stroke-width=\"2\"/></pattern></defs>\n");
	for (size_t i = 0; i < s->nr_spans; i++) {
		const struct span *sp = &s->spans[i];

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"32\" "
			"fill=\"url(#offline)\"><title>CPU %d offline</title></rect>\n",
			left + (double)sp->start * scale, 40 + sp->cpu * row + 2,
			(double)(sp->end - sp->start) * scale, sp->cpu);
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "<text x=\"4\" y=\"%d\">CPU %d (%u)</text>\n"
			"<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n",
			40 + cpu * row + 20, cpu, s->cpus[cpu].capacity, left, left + width,
			40 + cpu * row + 30, 40 + cpu * row + 30);
	for (size_t i = 0; i < s->nr_slices; i++) {
		const struct slice *sl = &s->slices[i];
		double x = left + (double)sl->start * scale;
		double wd = (double)(sl->end - sl->start) * scale;

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"24\" fill=\"%s\">"
			"<title>%s</title></rect>\n", x, 40 + sl->cpu * row + 6, wd < 0.2 ? 0.2 : wd,
			colors[sl->thread % 10], esc(e, sizeof(e), s->threads[sl->thread]->name, true));
	}
	for (size_t i = 0; i < s->nr_marks; i++) {
		const struct mark *m = &s->marks[i];
		const char *col = !strcmp(m->what, "miss") ? "red"
				  : !strcmp(m->what, "throttle") ? "black"
				  : !strcmp(m->what, "boost") ? "purple" : NULL;
		double x = left + (double)m->t * scale;

		if (m->cpu < 0 || m->t > horizon)
			continue;
		if (!strcmp(m->what, "release") || !strcmp(m->what, "deadline")) {
			/* a short tick above the row (release) or below it (deadline) */
			bool rel = m->what[0] == 'r';
			int y = 40 + m->cpu * row + (rel ? 0 : 30);

			fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" "
				"stroke=\"%s\"/>\n", x, x, y, y + 6, rel ? "green" : "blue");
			continue;
		}
		if (!col)
			continue;
		fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n",
			x, x, 40 + m->cpu * row + 2, 40 + m->cpu * row + 34, col);
	}
	for (int i = 0; i < s->nr_threads; i++) {
		int lx = left + (i % 4) * 250, ly = 40 + s->nr_cpus * row + 20 + (i / 4) * 18;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 10, colors[i % 10],
			lx + 16, ly, esc(e, sizeof(e), s->threads[i]->name, true));
	}
	fprintf(f, "</svg>\n");
	return sim_close_output(f, "dlsim", path);
}

/* ---- main loop -------------------------------------------------------- */

static void setup_lists(struct sim *s)
{
	const struct workload *w = s->w;

	for (size_t i = 0; i < w->nr_tasks; i++)
		for (size_t p = 0; p < w->tasks[i].nr_phases; p++)
			for (size_t e = 0; e < w->tasks[i].phases[p].nr_events; e++) {
				const struct wl_event *ev = &w->tasks[i].phases[p].events[e];
				const char *names[2] = { ev->ref, ev->mutex };
				int kinds[2] = { -1, -1 };

				switch (ev->type) {
				case WL_LOCK: case WL_UNLOCK: kinds[0] = 0; break;
				case WL_WAIT: case WL_SYNC: kinds[0] = 1; kinds[1] = 0; break;
				case WL_SIGNAL: case WL_BROAD: kinds[0] = 1; break;
				case WL_BARRIER: kinds[0] = 2; break;
				case WL_SUSPEND: case WL_RESUME: kinds[0] = 3; break;
				default: break;
				}
				for (int k = 0; k < 2; k++) {
					struct wait_list *l;

					if (kinds[k] < 0 || !names[k])
						continue;
					l = list_get(s, names[k], kinds[k]);
					if (!l) {
						s->lists = realloc(s->lists, (s->nr_lists + 1) * sizeof(*s->lists));
						if (!s->lists)
							exit(1);
						l = &s->lists[s->nr_lists++];
						memset(l, 0, sizeof(*l));
						l->name = names[k];
						l->kind = kinds[k];
					}
					if (kinds[k] == 2 && ev->type == WL_BARRIER)
						l->participants += (int)w->tasks[i].instance;
				}
			}
}

int sim_run(const struct workload *w, const struct sim_options *opt, FILE *out,
	    struct sim_result *res)
{
	struct sim s;
	struct dls_domain_config cfg;
	uint64_t horizon;

	memset(&s, 0, sizeof(s));
	memset(res, 0, sizeof(*res));
	s.w = w;
	s.opt = opt;
	s.nr_cpus = w->nr_cpus;
	horizon = w->horizon_us ? (uint64_t)w->horizon_us * US
		  : w->duration_s > 0 ? (uint64_t)w->duration_s * 1000000 * US
				      : 10ULL * 1000000 * US;
	dls_rb_root_cached_init(&s.queue);
	s.rqs = calloc((size_t)s.nr_cpus, sizeof(*s.rqs));
	s.cpus = calloc((size_t)s.nr_cpus, sizeof(*s.cpus));
	s.threads = calloc(MAX_THREADS, sizeof(*s.threads));
	if (!s.rqs || !s.cpus || !s.threads)
		return -1;
	dls_domain_config_default(&cfg);
	if (opt->bw_limit)
		cfg.bw_limit = opt->bw_limit;
	if (opt->rules_2012) {
		cfg.overrun_rule = DLS_OVERRUN_2012;
		cfg.replenish_rule = DLS_REPLENISH_AT_DEADLINE;
		cfg.wakeup_rule = DLS_WAKEUP_CBS;
	}
	dls_domain_init(&s.dom, &sim_ops, &s, &cfg, s.rqs, s.nr_cpus);
	for (int cpu = 0; cpu < s.nr_cpus; cpu++) {
		s.cpus[cpu].capacity = w->cpus[cpu].capacity;
		dls_rq_set_capacity(&s.rqs[cpu], w->cpus[cpu].capacity);
	}
	if (w->mode != WL_MODE_PARTITIONED && s.nr_cpus > 1) {
		size_t sz = dls_smp_size(s.nr_cpus);

		s.smp_mem = calloc(1, sz);
		if (!s.smp_mem || dls_smp_init(&s.dom, s.smp_mem, sz))
			return -1;
	}
	setup_lists(&s);
	dls_pi_ctx_init(&s.pi, &sim_pi_ops, &s);
	for (size_t i = 0; i < s.nr_lists; i++)
		if (s.lists[i].kind == 0)
			s.nr_pi_mutexes++;
	if (s.nr_pi_mutexes) {
		s.has_mutexes = true;
		s.pi_mutexes = calloc(s.nr_pi_mutexes, sizeof(*s.pi_mutexes));
		if (!s.pi_mutexes)
			return -1;
		s.nr_pi_mutexes = 0;
		for (size_t i = 0; i < s.nr_lists; i++)
			if (s.lists[i].kind == 0) {
				dls_pi_mutex_init(&s.lists[i].pm);
				s.pi_mutexes[s.nr_pi_mutexes++] = &s.lists[i].pm;
			}
	}
	s.full_affinity = true;
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (w->tasks[i].sched.policy == WL_DEADLINE &&
		    (w->tasks[i].cpus || w->tasks[i].phases[0].cpus))
			s.full_affinity = false;
	for (int cpu = 1; cpu < s.nr_cpus; cpu++)
		if (w->mode == WL_MODE_CLUSTERED && !same_cluster(w, 0, cpu))
			s.full_affinity = false; /* the invariant holds per cluster only */
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (!w->tasks[i].forked_only)
			for (int64_t k = 0; k < w->tasks[i].instance; k++)
				spawn(&s, &w->tasks[i], (int)k);
	if (s.refused) {
		res->exit_code = 2;
		goto done;
	}
	s.hp = calloc(w->nr_hotplug + 1, sizeof(*s.hp));
	s.hp_log = calloc(w->nr_hotplug + 1, sizeof(*s.hp_log));
	if (!s.hp || !s.hp_log)
		return -1;
	for (size_t i = 0; i < w->nr_hotplug; i++) {
		dls_rb_node_init(&s.hp[i].q.node);
		s.hp[i].q.kind = EV_HOTPLUG;
		s.hp[i].idx = i;
		q_add(&s, &s.hp[i].q, (uint64_t)w->hotplug[i].at_us * US);
	}
	s.progress = opt->progress && isatty(STDERR_FILENO);
	if (s.progress)
		clock_gettime(CLOCK_MONOTONIC, &s.wall_start);

	for (uint64_t iter = 1; dls_time_before(s.now, horizon); iter++) {
		if (opt->max_events && s.events >= opt->max_events) {
			res->truncated = true; /* summaries cover [0, now) */
			break;
		}
		struct dls_rb_node *first = dls_rb_first_cached(&s.queue);
		uint64_t t = horizon;

		if (first) {
			uint64_t qt = dls_container_of(first, struct qev, node)->t;

			if (dls_time_before(qt, t))
				t = qt;
		}
		for (int cpu = 0; cpu < s.nr_cpus; cpu++)
			t = cpu_next(&s, &s.cpus[cpu], t);
		for (int cpu = 0; cpu < s.nr_cpus; cpu++)
			progress(&s, &s.cpus[cpu], t - s.now);
		s.now = t;

		for (int cpu = 0; cpu < s.nr_cpus; cpu++) {
			struct thread *c = s.cpus[cpu].curr;

			/* Finished work first: a job that completes exactly as
			 * its budget runs out is done, not throttled mid-job. */
			if (c && c->runnable && (!c->is_dl || c->se.queued)) {
				if (c->in_run && !c->work_left)
					c->in_run = false;
				if (c->in_runtime && !c->wall_left)
					c->in_runtime = false;
				thread_advance(&s, c);
			}
			if (c && c->is_dl && s.rqs[cpu].curr == &c->se)
				dls_update_curr(&s.rqs[cpu]);
			if (c && !c->is_dl && c->runnable && c->slice_left == 0 &&
			    c->task->sched.policy != WL_FIFO)
				s.cpus[cpu].need_resched = true;
		}
		while ((first = dls_rb_first_cached(&s.queue)) &&
		       !dls_time_after(dls_container_of(first, struct qev, node)->t, s.now)) {
			struct qev *e = dls_container_of(first, struct qev, node);

			q_remove(&s, e);
			s.events++;
			if (e->kind == EV_TIMER) {
				struct thread *th = dls_container_of(e, struct thread, timer);

				dls_timer_expired(&th->se.timer);
			} else if (e->kind == EV_HOTPLUG) {
				hotplug_apply(&s, dls_container_of(e, struct hotplug_ev, q));
			} else {
				struct thread *th = dls_container_of(e, struct thread, wake);

				/* Its next events run once it is picked: a thread
				 * takes a mutex when it runs, not when it wakes. */
				th->started = true;
				thread_wake(&s, th);
			}
		}
		if (s.fatal[0]) {
			fprintf(stderr, "dlsim: %s\n", s.fatal);
			res->exit_code = 4;
			break;
		}
		/* Owners' own keys follow their deadlines (replenishments, new
		 * instances) before anyone picks. */
		if (s.mutexes_held)
			for (int i = 0; i < s.nr_threads; i++)
				if (s.threads[i]->nr_held || s.threads[i]->pi.blocked_on)
					pi_sync_own(&s, s.threads[i]);
		/*
		 * Pushes and pulls may ask CPUs already visited to pick again.
		 * An idle CPU tries (and may pull) on every pass, but a pass in
		 * which no CPU changed what it runs and none was asked to pick
		 * again changed nothing, and neither would the next one.
		 */
		for (int pass = 0; pass < 4 * s.nr_cpus + 4; pass++) {
			bool again = false;

			for (int cpu = 0; cpu < s.nr_cpus; cpu++) {
				struct cpu *c = &s.cpus[cpu];

				if (c->offline)
					continue;
				if (c->need_resched ||
				    (!c->curr && !nothing_to_pick(&s, cpu)) ||
				    (c->curr && (!c->curr->runnable ||
				     (c->curr->is_dl && s.rqs[cpu].curr != &c->curr->se)))) {
					struct thread *before = c->curr;

					reschedule(&s, cpu);
					again |= c->curr != before;
				}
			}
			for (int cpu = 0; cpu < s.nr_cpus && !again; cpu++) {
				struct cpu *c = &s.cpus[cpu];

				again = !c->offline && (c->need_resched ||
					(c->curr && (!c->curr->runnable ||
					 (c->curr->is_dl && s.rqs[cpu].curr != &c->curr->se))));
			}
			if (!again)
				break;
		}
		/* A forked reservation the library refused stops the run, as
		 * rt-app stops when sched_setattr() fails (spawn() said why). */
		if (s.refused) {
			res->exit_code = 2;
			break;
		}
		if (opt->check && !s.broken) {
			s.broken = check_all(&s);
			if (!s.broken && s.dom.smp && s.full_affinity)
				s.broken = dls_domain_check_global_edf(&s.dom);
		}
		if (s.broken) {
			fprintf(stderr, "dlsim: invariant broken at %llu ns: %s\n",
				(unsigned long long)s.now, s.broken);
			res->exit_code = 3;
			break;
		}
		if (s.progress && !(iter & 1023))
			draw_progress(&s, horizon, false);
	}
	if (res->truncated)
		horizon = s.now; /* report the time actually simulated */
	if (s.progress)
		draw_progress(&s, horizon, true);
	for (int cpu = 0; cpu < s.nr_cpus; cpu++) {
		struct cpu *c = &s.cpus[cpu];

		close_slice(&s, cpu);
		if (c->offline) {
			c->offline_ns += s.now - c->offline_since;
			GROW(s.spans, s.nr_spans, s.cap_spans);
			s.spans[s.nr_spans++] = (struct span){ cpu, c->offline_since, s.now };
		}
	}
	for (int i = 0; i < s.nr_threads; i++)
		if (s.threads[i]->boost_on)
			s.threads[i]->boosted_ns += s.now - s.threads[i]->boost_start;
	for (int i = 0; i < s.nr_threads; i++)
		res->overdue += job_overdue(&s, s.threads[i]);
	for (int i = 0; i < s.nr_threads; i++)
		if (s.threads[i]->lock_waiting) {
			/* Still waiting: count the wait so far. */
			struct thread *t = s.threads[i];
			uint64_t wt = s.now - t->lock_wait_start;

			t->lock_wait_ns += wt;
			if (wt > t->lock_wait_max)
				t->lock_wait_max = wt;
		}

	if (!opt->quiet)
		print_summary(&s, out, horizon);
	/* Every output is attempted; one that fails ends the run with 74
	 * unless it already ends with a status of its own. */
	if ((opt->json_path && write_json(&s, opt->json_path, horizon)) |
	    (opt->trace_path && write_trace(&s, opt->trace_path)) |
	    (opt->svg_path && write_svg(&s, opt->svg_path, horizon)))
		res->exit_code = res->exit_code ? res->exit_code : 74;
done:
	res->events = s.events;
	for (size_t i = 0; i < s.nr_hp_log; i++)
		res->stranded += s.hp_log[i].stranded;
	for (int i = 0; i < s.nr_threads; i++) {
		res->jobs += s.threads[i]->jobs;
		res->misses += s.threads[i]->misses;
		res->boosts += s.threads[i]->boosts;
		res->lock_wait_ns += s.threads[i]->lock_wait_ns;
		free(s.threads[i]->resp);
		free(s.threads[i]->mask);
		free(s.threads[i]);
	}
	for (int cpu = 0; cpu < s.nr_cpus; cpu++)
		free(s.cpus[cpu].lower);
	for (size_t i = 0; i < s.nr_lists; i++)
		free(s.lists[i].waiters);
	free(s.lists);
	free(s.pi_tasks);
	free(s.pi_mutexes);
	free(s.hp);
	free(s.hp_log);
	free(s.spans);
	free(s.slices);
	free(s.marks);
	free(s.threads);
	free(s.cpus);
	free(s.rqs);
	free(s.smp_mem);
	return 0;
}
