/*
 * dlsim's wait lists and mutexes. rt-app names mutexes, conditions,
 * barriers and suspend points; each name of each kind is one wait list.
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
 */
#include "sim_impl.h"

#include <string.h>

/* ---- wait lists ----------------------------------------------------------- */

struct wait_list *dlsim_list_get(struct sim *s, const char *name, enum wait_kind kind)
{
	for (size_t i = 0; i < s->nr_lists; i++)
		if (s->lists[i].kind == kind && !strcmp(s->lists[i].name, name))
			return &s->lists[i];
	return NULL;
}

void dlsim_list_push(struct sim *s, struct wait_list *l, struct thread *t)
{
	GROW(l->waiters, l->n, l->cap, { sim_oom(s); return; });
	l->waiters[l->n++] = t;
}

struct thread *dlsim_list_pop(struct wait_list *l)
{
	struct thread *t;

	if (!l->n)
		return NULL;
	t = l->waiters[0];
	memmove(l->waiters, l->waiters + 1, (l->n - 1) * sizeof(*l->waiters));
	l->n--;
	return t;
}

/*
 * The waiter a futex wake-up takes (sem_post: glibc's futex_wake of one):
 * Linux queues futex waiters by priority (futex_q's plist, keyed by
 * min(normal_prio, MAX_RT_PRIO)): deadline first, then FIFO/RR by
 * priority, the fair classes last; arrival order among equals.
 */
static int futex_key(const struct thread *t)
{
	return t->dl_policy ? -1 : t->prio > 0 ? 99 - t->prio : 100;
}

struct thread *dlsim_list_pop_futex(struct wait_list *l)
{
	size_t best = 0;
	struct thread *t;

	if (!l->n)
		return NULL;
	for (size_t i = 1; i < l->n; i++)
		if (futex_key(l->waiters[i]) < futex_key(l->waiters[best]))
			best = i;
	t = l->waiters[best];
	memmove(l->waiters + best, l->waiters + best + 1, (l->n - best - 1) * sizeof(*l->waiters));
	l->n--;
	return t;
}

/* The wait list @name of @kind, created on first sight; NULL for no name. */
static struct wait_list *list_declare(struct sim *s, const char *name, enum wait_kind kind)
{
	struct wait_list *l = name ? dlsim_list_get(s, name, kind) : NULL;

	if (l || !name)
		return l;
	l = realloc(s->lists, (s->nr_lists + 1) * sizeof(*s->lists));
	if (!l) {
		sim_oom(s);
		return NULL;
	}
	s->lists = l;
	l = &s->lists[s->nr_lists++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->kind = kind;
	return l;
}

/* Declare the lists one event names: its resource, and wait/sync's mutex. */
static void declare_event_lists(struct sim *s, const struct wl_task *task,
				const struct wl_event *ev)
{
	switch (ev->type) {
	case WL_LOCK: case WL_UNLOCK:
		list_declare(s, ev->ref, WAIT_MUTEX);
		break;
	case WL_WAIT: case WL_SYNC:
		list_declare(s, ev->ref, WAIT_COND);
		list_declare(s, ev->mutex, WAIT_MUTEX);
		break;
	case WL_SIGNAL: case WL_BROAD:
		list_declare(s, ev->ref, WAIT_COND);
		break;
	case WL_BARRIER: {
		struct wait_list *l = list_declare(s, ev->ref, WAIT_BARRIER);

		if (l)
			l->participants += (int)task->instance;
		break;
	}
	case WL_SUSPEND: case WL_RESUME:
		list_declare(s, ev->ref, WAIT_SUSPEND);
		break;
	case WL_SEM_POST: case WL_SEM_WAIT:
		list_declare(s, ev->ref, WAIT_SEM);
		break;
	default:
		break;
	}
}

static void setup_lists(struct sim *s)
{
	const struct workload *w = s->w;

	for (size_t i = 0; i < w->nr_tasks; i++)
		for (size_t p = 0; p < w->tasks[i].nr_phases; p++)
			for (size_t e = 0; e < w->tasks[i].phases[p].nr_events; e++)
				declare_event_lists(s, &w->tasks[i],
						    &w->tasks[i].phases[p].events[e]);
}

/* ---- PI mutexes --------------------------------------------------------- */

static struct wait_list *pi_list(struct dls_pi_mutex *m)
{
	return dls_container_of(m, struct wait_list, pm);
}

/* PI priorities: lower is more important. FIFO/RR priority p (1..99) is
 * 99 - p, the fair classes 120; a deadline thread's key is its deadline. */
int dlsim_pi_prio(const struct thread *t)
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
void dlsim_pi_sync_own(struct sim *s, struct thread *t)
{
	if (t->dl_policy && t->started && t->pi.own.dl != t->se.deadline)
		dls_pi_set_own(&s->pi, &t->pi, t->pi.own.prio, true, t->se.deadline);
}

/* Deboosted: back to its own class, on the CPU the entity was last on. */
static void dl_boost_end(struct sim *s, struct thread *t)
{
	int cpu = tcpu(t);
	bool was_curr = s->cpus[cpu].curr == t;

	dlsim_thread_touch(s, t); /* its class changes */
	dlsim_lib_ok(s, dls_task_dead(t->se.rq, &t->se), "dls_task_dead", t);
	t->is_dl = false;
	if (cpu != t->cpu) {
		s->cpus[t->cpu].nr_assigned--;
		s->cpus[cpu].nr_assigned++;
		t->cpu = cpu;
	}
	t->prio = eff_prio(t);
	if (t->runnable && !was_curr)
		dlsim_lower_add(s, t, false);
	dlsim_resched(s, cpu);
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
	dlsim_thread_touch(s, t);
	if (pt->boosted && !t->boost_on) {
		t->boost_on = true;
		t->boosts++;
		t->boost_start = s->now;
		dlsim_add_mark(s, tcpu(t), t->id, "boost");
	} else if (!pt->boosted && t->boost_on) {
		t->boost_on = false;
		t->boosted_ns += s->now - t->boost_start;
		dlsim_add_mark(s, tcpu(t), t->id, "deboost");
	}
	if (t->dl_policy || (t->is_dl && pt->eff.has_dl)) {
		bool want = pt->boosted && pt->eff.has_dl;

		if (t->se.rq && (t->se.boosted != want ||
				 (want && t->se.pi_deadline != pt->eff.dl))) {
			dlsim_lib_ok(s, dls_entity_set_boost(t->se.rq, &t->se, want, pt->eff.dl),
			       "dls_entity_set_boost", t);
			/* Its CPU picks again (and pushes or pulls): the
			 * new key may belong on another CPU now. */
			dlsim_resched(s, tcpu(t));
		}
		return;
	}
	if (t->is_dl)
		dl_boost_end(s, t);
	else if (pt->eff.has_dl && dlsim_dl_boost_start(s, t))
		return;
	if (t->cpu >= 0 && eff_prio(t) != t->prio) {
		bool listed = t->runnable && s->cpus[t->cpu].curr != t;

		if (listed)
			dlsim_lower_remove(s, t);
		t->prio = eff_prio(t);
		if (listed)
			dlsim_lower_add(s, t, false);
		dlsim_resched(s, t->cpu);
	}
}

static const struct dls_pi_ops sim_pi_ops = { .boost_changed = on_boost };

/* Name the cycle (or chain) a refused lock request would have closed. */
static void report_deadlock(struct sim *s, struct thread *t, struct wait_list *m, int err)
{
	char buf[400];
	size_t len = 0;
	struct dls_pi_task *o = m->pm.owner;

	if (o == &t->pi) {
		sim_fatal(s, "deadlock at %.3f ms: %s locks \"%s\", which it already holds",
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
	sim_fatal(s, "%s at %.3f ms: %s locks \"%s\"%s",
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
bool dlsim_mutex_lock(struct sim *s, struct wait_list *m, struct thread *t)
{
	int r;

	if (!m)
		return true;
	dlsim_pi_sync_own(s, t);
	r = dls_pi_lock(&s->pi, &t->pi, &m->pm, &t->pi_wait);
	if (r == 0) {
		got_mutex(s, t);
		return true;
	}
	if (r != DLS_PI_BLOCKED) {
		report_deadlock(s, t, m, r);
		dlsim_thread_block(s, t, false);
		return false;
	}
	t->lock_waiting = true;
	t->lock_wait_start = s->now;
	dlsim_thread_block(s, t, false);
	return false;
}

/* Release @m; the top waiter owns it now and wakes. */
void dlsim_mutex_unlock(struct sim *s, struct wait_list *m, struct thread *t)
{
	struct dls_pi_task *next;

	if (!m || m->pm.owner != &t->pi) {
		sim_fatal(s, "%s unlocks \"%s\" at %.3f ms without holding it", t->name,
		      m ? m->name : "?", (double)s->now / 1e6);
		return;
	}
	next = dls_pi_unlock(&s->pi, &t->pi, &m->pm);
	t->nr_held--;
	s->mutexes_held--;
	if (next) {
		struct thread *n = pi_thread(next);

		got_mutex(s, n);
		dlsim_thread_wake(s, n);
	}
}

/* A condition wait ends: retake the mutex released by wait/sync first. */
void dlsim_cond_wake(struct sim *s, struct thread *t)
{
	struct wait_list *m = t->relock;

	t->relock = NULL;
	if (m && !dlsim_mutex_lock(s, m, t))
		return; /* it waits for the mutex now */
	dlsim_thread_wake(s, t);
}

/* ---- set-up and --check ---------------------------------------------------- */

/* The wait lists of the workload and the PI context of its mutexes. */
int dlsim_lock_setup(struct sim *s)
{
	setup_lists(s);
	dls_pi_ctx_init(&s->pi, &sim_pi_ops, s);
	for (size_t i = 0; i < s->nr_lists; i++)
		if (s->lists[i].kind == WAIT_MUTEX)
			s->nr_pi_mutexes++;
	if (!s->nr_pi_mutexes)
		return 0;
	s->has_mutexes = true;
	s->pi_mutexes = calloc(s->nr_pi_mutexes, sizeof(*s->pi_mutexes));
	if (!s->pi_mutexes)
		return -1;
	s->nr_pi_mutexes = 0;
	for (size_t i = 0; i < s->nr_lists; i++)
		if (s->lists[i].kind == WAIT_MUTEX) {
			dls_pi_mutex_init(&s->lists[i].pm);
			s->pi_mutexes[s->nr_pi_mutexes++] = &s->lists[i].pm;
		}
	return 0;
}

/* The PI validator, and every deadline entity's boost against its PI key. */
const char *dlsim_lock_check(struct sim *s)
{
	const char *e;

	if (s->nr_pi_tasks != (size_t)s->nr_threads) {
		struct dls_pi_task **pt = realloc(s->pi_tasks,
						  (size_t)s->nr_threads * sizeof(*pt));

		if (!pt) {
			sim_oom(s);
			return NULL; /* the run stops: nothing checked */
		}
		s->pi_tasks = pt;
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
	return NULL;
}
