/*
 * dlsim's threads: blocking and waking, the rt-app program each thread
 * runs (one function per event kind), job accounting, placement and
 * spawning. The lower scheduling classes are in lower.c.
 *
 * A thread runs its program from its program counter (phase, event) until
 * it has work to do (a run/runtime event) or blocks; zero-time events are
 * processed at once. A job ends at a timer event: its response time is
 * measured from its release, and it misses when it ends after its deadline
 * (a deadline task's release + dl-deadline; for others the next tick of the
 * timer, rt-app's negative slack).
 */
#include "sim_impl.h"

#include <string.h>

#include <dlsched/math128.h>

/* ---- threads ---------------------------------------------------------- */

/* @t's wake-up event (its start, a sleep's end or a timer tick) is due. */
void dlsim_thread_wake_event(struct sim *s, struct thread *t)
{
	/* Its next events run once it is picked: a thread takes a mutex
	 * when it runs, not when it wakes. */
	t->started = true;
	dlsim_thread_wake(s, t);
}

/* The job ending now, for --jobs and the JSON; the next one starts afresh. */
static void log_job(struct sim *s, struct thread *t, uint64_t deadline)
{
	if (s->job_log || s->job_ends) {
		struct job_rec j = {
			.thread = t->id, .index = t->jobs - 1, .release = t->job_release,
			.start = t->job_start, .end = s->now, .ran = t->job_ran,
			.deadline = deadline, .has_server = t->is_dl,
			.server_deadline = t->se.deadline, .cpus = t->job_cpus,
			.preemptions = t->job_preemptions, .migrations = t->job_migrations,
			.throttles = t->job_throttles,
		};

		if (s->job_ends)
			sim_emit_job_end(s, &j);
		if (s->job_log) {
			/* held until the clock moves on: a throttle at this
			 * instant still counts for the job (dlsim_job_note_throttle()) */
			if (s->nr_jobs && s->jobs_at != s->now)
				sim_emit_jobs(s);
			s->jobs_at = s->now;
			GROW(s->jobs, s->nr_jobs, s->cap_jobs, { sim_oom(s); return; });
			s->jobs[s->nr_jobs++] = j;
			t->last_job_rec = s->nr_jobs - 1;
		}
	}
	t->last_job_end = s->now;
	t->job_ran = false;
	t->job_cpus = (struct wl_cpuset){ { 0 } };
	t->job_preemptions = 0;
	t->job_migrations = 0;
	t->job_throttles = 0;
}

/*
 * @t's reservation was throttled now. One count in every output: the
 * summary's and the JSON's per thread (the library's stats.throttles) and
 * the jobs' rows, which split it. A throttle at the instant a job completes
 * belongs to that job: its work spent the budget, and Linux throttles a
 * task whose runtime is exhausted as it blocks (dequeue_task_dl() ->
 * update_curr_dl(); dl_task_timer() then finds it throttled and not
 * queued, and only replenishes it). Any other throttle belongs to the job
 * under way (it delays that job's work).
 */
void dlsim_job_note_throttle(struct sim *s, struct thread *t)
{
	if (t->jobs && t->last_job_end == s->now) {
		if (s->job_log) /* still held: it ended at this instant */
			s->jobs[t->last_job_rec].throttles++;
	} else {
		t->job_throttles++;
	}
}

/* A job of @t ends now; it misses when that is after @deadline. */
static void record_job(struct sim *s, struct thread *t, uint64_t deadline)
{
	uint64_t resp = s->now - t->job_release;
	bool miss = dls_time_after(s->now, deadline);

	t->jobs++;
	t->resp_sum += resp;
	if (resp > t->resp_max)
		t->resp_max = resp;
	/* Every sample is kept for the p99 of the summary and the JSON; a
	 * quiet run without JSON (a sweep) needs none of them. */
	if (s->samples) {
		GROW(t->resp, t->nr_resp, t->cap_resp, { sim_oom(s); return; });
		t->resp[t->nr_resp++] = resp;
	}
	if (miss) {
		uint64_t late = s->now - deadline;

		t->misses++;
		if (late > t->max_lateness)
			t->max_lateness = late;
		dlsim_add_mark(s, tcpu(t), t->id, "miss");
	}
	log_job(s, t, deadline); /* and to the observer (sim_options::on_job) */
}

/* ---- timers --------------------------------------------------------------
 * rt-app's timer resource (rt-app src/rt-app.c, run_event): the first use
 * sets its next expiry to the user's start; every use, by whichever
 * thread, adds that use's period to it and sleeps until then, or, when that
 * time has passed already, goes straight on (a relative timer then
 * restarts from now). So threads sharing a timer take turns: each use
 * advances the one expiry, and a thread that comes late to its timer finds
 * it moved on by the others' periods.
 */

static bool timer_unique(const char *ref)
{
	return strncmp(ref, "unique", 6) == 0; /* rt-app: a prefix, "uniqueA" too */
}

/* The timer @ref names for @t, or NULL when nobody has used it yet. */
static struct utimer *utimer_find(const struct sim *s, const struct thread *t,
				  const char *ref)
{
	struct utimer *u = timer_unique(ref) ? t->timers : s->timers;
	size_t n = timer_unique(ref) ? t->nr_timers : s->nr_timers;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(u[i].ref, ref))
			return &u[i];
	return NULL;
}

/* As utimer_find, creating it on first use: no limit on the number. */
static struct utimer *utimer_new(struct sim *s, struct thread *t, const char *ref)
{
	struct utimer *u = utimer_find(s, t, ref);

	if (u)
		return u;
	if (timer_unique(ref)) {
		/* one per thread is the common case: room for two, not 16
		 * (384 bytes a thread, 3.7 MB of 10,000 threads) */
		GROW_FROM(t->timers, t->nr_timers, t->cap_timers, 2,
			  { sim_oom(s); return NULL; });
		u = &t->timers[t->nr_timers++];
	} else {
		GROW(s->timers, s->nr_timers, s->cap_timers, { sim_oom(s); return NULL; });
		u = &s->timers[s->nr_timers++];
	}
	*u = (struct utimer){ .ref = ref };
	return u;
}

/* As utimer_new; a thread's jobs mostly end at one timer event, whose
 * timer it keeps by index (the arrays move as they grow, and never lose
 * an element): no string compared. */
static struct utimer *utimer_get(struct sim *s, struct thread *t, const char *ref)
{
	struct utimer *u;

	if (t->last_timer_ref == ref)
		return t->last_timer_own ? &t->timers[t->last_timer] : &s->timers[t->last_timer];
	u = utimer_new(s, t, ref);
	if (u) {
		t->last_timer_ref = ref;
		t->last_timer_own = timer_unique(ref);
		t->last_timer = (size_t)(u - (t->last_timer_own ? t->timers : s->timers));
	}
	return u;
}

/* The timer event that ends @t's current job: the first its program
 * reaches from its program counter; NULL when it reaches none (no timer,
 * or its loops end first). */
static const struct wl_event *next_timer_event(const struct thread *t)
{
	const struct wl_task *task = t->task;
	const struct wl_phase *ph = &task->phases[t->phase];
	bool phase_again = ph->loop < 0 || t->phase_iter + 1 < ph->loop;
	bool task_again = task->loop < 0 || t->task_iter + 1 < task->loop;

	for (size_t e = t->ev; e < ph->nr_events; e++)
		if (ph->events[e].type == WL_TIMER)
			return &ph->events[e];
	for (size_t k = phase_again ? 0 : 1; k <= task->nr_phases; k++) {
		size_t p = (t->phase + k) % task->nr_phases;

		if (t->phase + k >= task->nr_phases && !task_again)
			break;
		for (size_t e = 0; e < task->phases[p].nr_events; e++)
			if (task->phases[p].events[e].type == WL_TIMER)
				return &task->phases[p].events[e];
	}
	return NULL;
}

/*
 * A deadline thread whose jobs end at a timer event and whose current job,
 * released at job_release, is still unfinished at the end of the run
 * although its deadline has passed: a miss that record_job() never saw.
 * The deadline is the one its next timer event would give it now (a
 * shared timer may have moved on since the job's release).
 */
bool dlsim_job_overdue(const struct sim *s, const struct thread *t)
{
	const struct wl_event *ev;
	const struct utimer *u;
	uint64_t deadline;

	if (!t->dl_policy || !t->started || t->exited || dls_time_after(t->job_release, s->now))
		return false;
	ev = next_timer_event(t);
	if (!ev)
		return false;
	u = utimer_find(s, t, ev->ref);
	deadline = t->task->job_deadline_us
			   ? t->job_release + (uint64_t)t->task->job_deadline_us * US
			   : (u && u->started ? u->next : t->t_first) + (uint64_t)ev->us * US;
	return dls_time_before(deadline, s->now);
}

/*
 * Run the thread's program from its program counter until it has work to
 * do (a run/runtime event) or blocks. Zero-time events are processed here.
 */

/* ---- rt-app events -------------------------------------------------------
 * One function per event kind. Each returns true when the thread must stop
 * processing events at this instant although it is still runnable (a yield
 * that lets its CPU pick again).
 */

typedef bool event_fn(struct sim *s, struct thread *t, const struct wl_event *ev);

/* A run's execution time: fixed, or drawn from its distribution. */
static uint64_t run_us(struct thread *t, const struct wl_event *ev)
{
	if (ev->us_max > ev->us)
		return (uint64_t)ev->us + dls_prng_below(&t->rng, (uint64_t)(ev->us_max - ev->us) + 1);
	if (ev->nr_choices > 1)
		return (uint64_t)ev->choices[dls_prng_below(&t->rng, ev->nr_choices)];
	return (uint64_t)ev->us;
}

/* run: CPU work, scaled by the CPU's capacity. */
static bool ev_run(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	(void)s;
	t->work_left = run_us(t, ev) * US;
	t->in_run = t->work_left > 0;
	return false;
}

/*
 * mem, iorun: rt-app writes this many bytes (a memset into its buffer, a
 * write() to its io_device); CPU work at the platform's rate, which is the
 * rate at capacity 1024, so it scales with capacity as run does.
 */
static bool ev_mem(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	uint64_t rate = ev->type == WL_MEM ? s->w->mem_bw : s->w->io_bw;

	t->work_left = dls_u128_mul_u64_u64_div_u64((uint64_t)ev->bytes, 1000000000u, rate);
	t->in_run = t->work_left > 0;
	return false;
}

/* runtime: rt-app busy-loops until this much wall-clock time has passed,
 * time spent preempted or throttled included. */
static bool ev_runtime(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	t->wall_end = s->now + (uint64_t)ev->us * US;
	t->in_wall = ev->us > 0;
	return false;
}

static bool ev_sleep(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	if (ev->us > 0) {
		dlsim_thread_block(s, t, false);
		dlsim_q_add(s, &t->wake, s->now + (uint64_t)ev->us * US);
	}
	return false;
}

/* The job ends here; the thread sleeps until the timer's next tick. */
static bool ev_timer(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct utimer *u = utimer_get(s, t, ev->ref);
	uint64_t period = (uint64_t)ev->us * US;
	uint64_t rel_dl = t->dl_deadline;
	uint64_t job_dl = (uint64_t)t->task->job_deadline_us * US;
	bool dl = t->dl_policy;

	if (!u)
		return true; /* no memory: the run stops */
	if (!u->started) {
		u->started = true;
		u->next = t->t_first;
	}
	u->next += period;
	/* A job's own deadline is its release + "job-deadline", else the next
	 * tick of its timer (rt-app's negative slack). Its reservation's
	 * deadline (release + dl-deadline) is another thing: a pass of it is
	 * counted apart. */
	if (dl && dls_time_after(s->now, t->job_release + rel_dl))
		t->server_misses++;
	record_job(s, t, job_dl ? t->job_release + job_dl : u->next);
	/* A relative timer that fell behind restarts from now. */
	if (!ev->absolute && dls_time_before(u->next, s->now))
		u->next = s->now;
	if (dls_time_after(u->next, s->now)) {
		dlsim_thread_block(s, t, true);
		dlsim_q_add(s, &t->wake, u->next);
	}
	t->job_release = u->next;
	if (t->runnable && s->cpus[tcpu(t)].curr == t) {
		/* Straight into its next job: the run slice ends with this
		 * one; the next job starts when it is next charged (it may
		 * be throttled or preempted in this very instant). */
		dlsim_close_slice(s, tcpu(t));
	}
	dlsim_add_mark_at(s, tcpu(t), t->id, u->next, "release");
	if (dl)
		dlsim_add_mark_at(s, tcpu(t), t->id, u->next + rel_dl, "deadline");
	return false;
}

static bool ev_yield(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	(void)ev;
	if (t->is_dl && s->cpus[tcpu(t)].curr == t) {
		dls_yield(rq_of(s, t));
		dlsim_resched(s, tcpu(t));
		return true;
	}
	if (!t->is_dl && s->cpus[t->cpu].nr_lower) {
		/* Let the others of its class run first. */
		dlsim_lower_yield(s, t);
		dlsim_resched(s, t->cpu);
		return true;
	}
	return false;
}

static bool ev_lock(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	dlsim_mutex_lock(s, dlsim_list_get(s, ev->ref, WAIT_MUTEX), t);
	return false;
}

static bool ev_unlock(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	dlsim_mutex_unlock(s, dlsim_list_get(s, ev->ref, WAIT_MUTEX), t);
	return false;
}

/* signal wakes one waiter, broad every one, resume every suspended one. */
static bool ev_signal(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *c = dlsim_list_get(s, ev->ref, ev->type == WL_RESUME ? WAIT_SUSPEND
									 : WAIT_COND);
	struct thread *w;

	(void)t;
	while ((w = dlsim_list_pop(c))) {
		dlsim_cond_wake(s, w);
		if (ev->type == WL_SIGNAL)
			break;
	}
	return false;
}

/*
 * wait, sync: pthread_cond_wait: release the mutex (if held), wait for a
 * signal, take the mutex back before going on. sync signals the condition
 * first, as rt-app does.
 */
static bool ev_wait(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *c = dlsim_list_get(s, ev->ref, WAIT_COND);
	struct wait_list *m = dlsim_list_get(s, ev->mutex, WAIT_MUTEX);

	if (ev->type == WL_SYNC) {
		struct thread *w = dlsim_list_pop(c);

		if (w)
			dlsim_cond_wake(s, w);
	}
	t->relock = NULL;
	if (m && m->pm.owner == &t->pi) {
		dlsim_mutex_unlock(s, m, t);
		t->relock = m;
	}
	dlsim_list_push(s, c, t);
	dlsim_thread_block(s, t, false);
	return false;
}

static bool ev_suspend(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	dlsim_list_push(s, dlsim_list_get(s, ev->ref, WAIT_SUSPEND), t);
	dlsim_thread_block(s, t, false);
	return false;
}

static bool ev_barrier(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *b = dlsim_list_get(s, ev->ref, WAIT_BARRIER);

	if (++b->arrived >= b->participants) {
		struct thread *w;

		b->arrived = 0;
		while ((w = dlsim_list_pop(b)))
			dlsim_thread_wake(s, w);
	} else {
		dlsim_list_push(s, b, t);
		dlsim_thread_block(s, t, false);
	}
	return false;
}

/*
 * sem_post, sem_wait: a POSIX semaphore of initial count 0 (rt-app's
 * tutorial, "sem_post"): a post wakes one waiter (futex order), or is kept
 * for a later wait, which then goes straight on.
 */
static bool ev_sem_post(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *l = dlsim_list_get(s, ev->ref, WAIT_SEM);
	struct thread *w = dlsim_list_pop_futex(l);

	(void)t;
	if (w)
		dlsim_thread_wake(s, w);
	else
		l->sem_count++;
	return false;
}

static bool ev_sem_wait(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *l = dlsim_list_get(s, ev->ref, WAIT_SEM);

	if (l->sem_count) {
		l->sem_count--;
		return false;
	}
	dlsim_list_push(s, l, t);
	dlsim_thread_block(s, t, false);
	return false;
}

/* fork: one new thread of the task named, as rt-app's create_thread(); a
 * thread's FORKS_LIMIT-th fork of one task more stops the run, as rt-app
 * exits there. */
static bool ev_fork(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct fork_count *fc = NULL;

	if (s->opt->max_threads && s->nr_threads >= s->opt->max_threads) {
		s->thread_cap = true;
		return true;
	}
	for (size_t i = 0; i < t->nr_forks && !fc; i++)
		if (!strcmp(t->forks[i].ref, ev->ref))
			fc = &t->forks[i];
	if (!fc) {
		struct fork_count *nf = realloc(t->forks, (t->nr_forks + 1) * sizeof(*nf));

		if (!nf) {
			sim_oom(s);
			return true;
		}
		t->forks = nf;
		fc = &t->forks[t->nr_forks++];
		*fc = (struct fork_count){ .ref = ev->ref };
	}
	if (fc->n >= FORKS_LIMIT) {
		sim_fatal(s, "%s:%d:%d: \"%s\" forks \"%s\" a %uth time: rt-app stops there "
			  "(its limit of %u forks per thread and task)", s->w->fname ? s->w->fname
			  : "workload", ev->line, ev->col, t->name, ev->ref, FORKS_LIMIT + 1,
			  FORKS_LIMIT);
		return true;
	}
	fc->n++;
	for (size_t k = 0; k < s->w->nr_tasks; k++)
		if (!strcmp(s->w->tasks[k].name, ev->ref))
			sim_spawn(s, &s->w->tasks[k], s->nr_threads);
	return false;
}

static event_fn *const event_fns[] = {
	[WL_RUN] = ev_run,         [WL_MEM] = ev_mem,       [WL_IORUN] = ev_mem,
	[WL_RUNTIME] = ev_runtime, [WL_SLEEP] = ev_sleep,   [WL_TIMER] = ev_timer,
	[WL_YIELD] = ev_yield,     [WL_LOCK] = ev_lock,     [WL_UNLOCK] = ev_unlock,
	[WL_SIGNAL] = ev_signal,   [WL_BROAD] = ev_signal,  [WL_RESUME] = ev_signal,
	[WL_WAIT] = ev_wait,       [WL_SYNC] = ev_wait,     [WL_SUSPEND] = ev_suspend,
	[WL_BARRIER] = ev_barrier, [WL_FORK] = ev_fork,
	[WL_SEM_POST] = ev_sem_post, [WL_SEM_WAIT] = ev_sem_wait,
};

/*
 * Past the last event of a phase: the next iteration of the phase, the next
 * phase, or (the task's loops done) the thread exits. Returns false when it
 * exited.
 */
static bool next_phase(struct sim *s, struct thread *t)
{
	const struct wl_task *task = t->task;
	const struct wl_phase *ph = &task->phases[t->phase];

	t->ev = 0;
	if (ph->loop < 0 || ++t->phase_iter < ph->loop)
		return true;
	t->phase_iter = 0;
	if (++t->phase < task->nr_phases)
		return true;
	t->phase = 0;
	if (task->loop < 0 || ++t->task_iter < task->loop)
		return true;
	dlsim_thread_block(s, t, true);
	t->exited = true;
	return false;
}

static bool phase_apply(struct sim *s, struct thread *t);

/*
 * Run the thread's program from its program counter until it has work to
 * do (a run/runtime event) or blocks. Zero-time events are processed here.
 */
void dlsim_thread_advance_events(struct sim *s, struct thread *t)
{
	if (t->zero_time_at != s->now) {
		t->zero_time_at = s->now;
		t->zero_time_events = 0;
	}
	while (!t->exited && t->runnable && !t->in_run && !t->in_runtime && !t->in_wall) {
		const struct wl_phase *ph = &t->task->phases[t->phase];
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
			if (!next_phase(s, t))
				return;
			continue;
		}
		/* rt-app sets each phase iteration's CPUs and scheduling
		 * keys before its first event */
		if (t->ev == 0 && phase_apply(s, t))
			return;
		ev = &ph->events[t->ev++];
		if (event_fns[ev->type](s, t, ev))
			return;
	}
}

/* ---- placement -------------------------------------------------------- */

/*
 * Clustered mode: a deadline thread stays inside one cluster (global EDF
 * within it), the one with the least admitted bandwidth per capacity among
 * the clusters it may use; admission stays domain-wide.
 */
static struct wl_cpuset cluster_bits(struct sim *s, const struct wl_cpuset *allowed)
{
	const struct cluster_sum *best = NULL;

	memset(s->clusters, 0, sizeof(*s->clusters) * (size_t)s->nr_clusters);
	for (int k = 0; k < s->nr_cpus; k++) {
		struct cluster_sum *c = &s->clusters[s->cpus[k].cluster];

		if (s->cpus[k].offline || !wl_cpuset_allows(allowed, k))
			continue;
		wl_cpuset_set(&c->bits, k);
		c->bw += s->rqs[k].bw.total;
		c->cap += s->rqs[k].capacity;
	}
	/* in the order of their lowest usable CPUs: the first of equals wins */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct cluster_sum *c = &s->clusters[s->cpus[cpu].cluster];

		if (c->seen || !wl_cpuset_test(&c->bits, cpu))
			continue;
		c->seen = true;
		if (!best || c->bw * best->cap < best->bw * c->cap)
			best = c;
	}
	return best ? best->bits : *allowed;
}

/* The CPU a new thread starts on, or -1 with *err the library's refusal
 * of a deadline thread (DLS_EBANDWIDTH when no CPU it may use admits it). */
static int place(struct sim *s, struct thread *t, struct dls_params *p, int *err)
{
	const struct wl_cpuset *allowed = &t->allowed;
	int best = -1;

	*err = DLS_EBANDWIDTH;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!wl_cpuset_allows(allowed, cpu) || s->cpus[cpu].offline)
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
		if (wl_cpuset_allows(allowed, cpu))
			best = cpu;
	return best;
}

static double bw_ratio(uint64_t bw)
{
	return (double)bw / (double)DLS_BW_UNIT;
}

/* Why admission refused thread t with bandwidth bw: the limit, what is
 * admitted already and the capacity it is measured against. */
/* What the servers took of the admitted bandwidth (admitted before any
 * thread): the fair servers and the vCPUs. */
static void explain_servers(const struct sim *s)
{
	const struct wl_fair_server *fs = &s->w->fair_server;

	if (fs->on)
		fprintf(stderr, "dlsim:   of which platform.fair_server %.4f on each CPU\n",
			(double)fs->runtime_us / (double)fs->period_us);
	for (int i = 0; i < s->nr_guests; i++) {
		const struct wl_server *g = s->guests[i].w;

		fprintf(stderr, "dlsim:   of which server \"%s\" %.4f on each of its CPUs\n",
			g->name, (double)g->runtime_us / (double)g->period_us);
	}
}

static void explain_admission(const struct sim *s, const struct thread *t, uint64_t bw)
{
	const struct dls_domain_config *cfg = &s->dom.cfg;
	double limit = cfg->bw_limit == DLS_BW_UNLIMITED ? 0 : bw_ratio(cfg->bw_limit);

	if (s->dom.smp) {
		double cap = (double)s->dom.smp->bw.capacity / 1024.0;

		fprintf(stderr, "dlsim:   it needs %.4f of a CPU; admitted already %.4f; "
			"limit %.0f%% of the online capacity %.3f CPUs = %.4f\n", bw_ratio(bw),
			bw_ratio(s->dom.smp->bw.total), limit * 100, cap, limit * cap);
		explain_servers(s);
		return;
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		double cap = (double)s->rqs[cpu].capacity / 1024.0;

		if (!wl_cpuset_allows(&t->allowed, cpu) || s->cpus[cpu].offline)
			continue;
		fprintf(stderr, "dlsim:   CPU %d: it needs %.4f; admitted already %.4f; limit "
			"%.0f%% of capacity %.3f = %.4f\n", cpu, bw_ratio(bw),
			bw_ratio(s->rqs[cpu].bw.total), limit * 100, cap, limit * cap);
	}
	explain_servers(s);
}

/* The library refused thread t's reservation @p (err): say why, with the
 * place in the workload file that asked for it (line:col). */
static void report_refusal_at(const struct sim *s, const struct thread *t,
			      const struct dls_params *p, int err, int line, int col)
{
	fprintf(stderr, "dlsim: %s:%d:%d: ", s->w->fname ? s->w->fname : "workload", line, col);
	if (err == DLS_EBANDWIDTH) {
		fprintf(stderr, "admission control refused \"%s\" (%llu/%llu us) on every "
			"CPU it may use\n", t->name,
			(unsigned long long)(p->runtime / US),
			(unsigned long long)((p->period ? p->period : p->deadline) / US));
		explain_admission(s, t, dls_params_bw(p));
		fprintf(stderr, "dlsim:   the limit (%s) is Linux's sched_rt_runtime_us / "
			"sched_rt_period_us; change it with --admission PERCENT|off or "
			"\"simulation\": {\"admission\": PERCENT|\"off\"}\n", s->admission_from);
		return;
	}
	fprintf(stderr, "the library refused \"%s\" (dl-runtime %llu us, dl-deadline %llu us, "
		"dl-period %llu us): %s", t->name,
		(unsigned long long)(p->runtime / US),
		(unsigned long long)(p->deadline / US),
		(unsigned long long)(p->period / US), dls_strerror(err));
	if (err == DLS_EPERIOD_RANGE)
		fprintf(stderr, " (%llu us to %llu us)",
			(unsigned long long)(s->dom.cfg.period_min / US),
			(unsigned long long)(s->dom.cfg.period_max / US));
	fprintf(stderr, "\n");
}

static void report_refusal(const struct sim *s, const struct thread *t,
			   const struct dls_params *p, int err)
{
	const struct wl_server *g = t->guest ? t->guest->w : NULL;

	if (g && err == DLS_EBANDWIDTH) {
		/* admission inside a guest: against the servers that back it */
		fprintf(stderr, "dlsim: %s:%d:%d: admission control refused \"%s\" (%llu/%llu us) "
			"inside server \"%s\": its guest admits at most the bandwidth of its "
			"%d vCPU server%s (%llu us every %llu us each)\n",
			s->w->fname ? s->w->fname : "workload", t->task->line, t->task->col, t->name,
			(unsigned long long)(p->runtime / US),
			(unsigned long long)((p->period ? p->period : p->deadline) / US), g->name,
			t->guest->nr, t->guest->nr > 1 ? "s" : "", (unsigned long long)g->runtime_us,
			(unsigned long long)g->period_us);
		return;
	}
	report_refusal_at(s, t, p, err, t->task->line, t->task->col);
}

/* Every CPU of the platform. */
static struct wl_cpuset all_cpus(const struct sim *s)
{
	return wl_cpuset_first_n(s->nr_cpus);
}

/*
 * Linux admits a SCHED_DEADLINE task only when it may run on every CPU of
 * its root domain, as long as admission control is on (kernel/sched/core.c:
 * __sched_setscheduler() refuses the policy with EPERM, and
 * dl_task_check_affinity() refuses narrowing a deadline task's affinity
 * with EBUSY, both under dl_bandwidth_enabled(); Documentation/scheduler/
 * sched-deadline.rst, 5 "Tasks CPU affinity"). Whether @allowed (empty: all)
 * leaves out an online CPU where that rule holds: global mode (dlsim's
 * partitioned and clustered modes pin reservations by design) without
 * "affinity": "library".
 */
static bool linux_refuses_pin(const struct sim *s, const struct wl_cpuset *allowed)
{
	if (wl_cpuset_empty(allowed) || !s->dom.smp || s->w->mode != WL_MODE_GLOBAL || s->w->affinity_library ||
	    s->dom.cfg.bw_limit == DLS_BW_UNLIMITED)
		return false;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		if (!s->cpus[cpu].offline && !wl_cpuset_test(allowed, cpu))
			return true;
	return false;
}

/* Say that Linux refuses deadline thread @t restricted to @allowed: @call
 * failed with @err; line:col is where the file asks for it. */
static void report_pin(struct sim *s, const struct thread *t, const struct wl_cpuset *allowed,
		       const char *call, const char *err, int line, int col)
{
	char list[WL_MAX_CPUS * 4] = "";
	size_t len = 0;

	for (int cpu = 0; cpu < s->nr_cpus && len < sizeof(list) - 4; cpu++)
		if (wl_cpuset_test(allowed, cpu))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d",
						len ? "," : "", cpu);
	fprintf(stderr, "dlsim: %s:%d:%d: Linux refuses SCHED_DEADLINE thread \"%s\" on CPUs "
		"[%s] of %d: %s fails with %s, as a deadline task must be allowed on every CPU "
		"of its root domain while admission control is on\n", s->w->fname ? s->w->fname
		: "workload", line, col, t->name, list, s->nr_cpus, call, err);
	fprintf(stderr, "dlsim:   \"simulation\": {\"affinity\": \"library\"} lets the "
		"library pin it (beyond Linux); \"admission\": \"off\" is Linux's own way\n");
	sim_refused(s);
}

/* The library's CPU mask of the CPUs in @bits (global scheduling). */
static struct dls_cpumask *affinity_mask(struct sim *s, const struct wl_cpuset *bits)
{
	size_t msz = dls_cpumask_size(s->nr_cpus);
	struct dls_cpumask *mask = calloc(1, msz);

	if (!mask) {
		sim_oom(s); /* NULL, as for every CPU; the run stops */
		return NULL;
	}
	dls_cpumask_init(mask, msz, s->nr_cpus);
	for (int c = 0; c < s->nr_cpus; c++)
		if (wl_cpuset_test(bits, c))
			dls_cpumask_set(mask, c);
	return mask;
}

/* ---- phase start: rt-app's set_thread_affinity(), set_thread_param() --- */

/* A phase's place in the file, for its messages. */
static void phase_pos(const struct thread *t, int *line, int *col)
{
	const struct wl_phase *ph = &t->task->phases[t->phase];

	*line = ph->line ? ph->line : t->task->line;
	*col = ph->line ? ph->col : t->task->col;
}

/* The scheduling change at line:col is not modelled: the run stops. */
static bool phase_refuse(struct sim *s, const struct thread *t, const char *why)
{
	int line, col;

	phase_pos(t, &line, &col);
	fprintf(stderr, "dlsim: %s:%d:%d: phase \"%s\" of \"%s\": %s\n",
		s->w->fname ? s->w->fname : "workload", line, col,
		t->task->phases[t->phase].name, t->name, why);
	sim_refused(s);
	return true;
}

/* A thread of a lower class leaves its CPU for @cpu: queued, it moves
 * there (dlsim_lower_move); running, once its CPU has switched it out
 * (dlsim_lower_put_prev()). */
static void phase_move_lower(struct sim *s, struct thread *t, int cpu)
{
	if (s->cpus[t->cpu].curr != t) {
		dlsim_lower_move(s, t, cpu);
		return;
	}
	t->move_to = cpu + 1;
	dlsim_resched(s, t->cpu);
}

/* The entity's affinity becomes @bits (empty: all CPUs); false when no
 * online CPU is in it. The old mask is freed once the library holds the new
 * one. */
static bool entity_affinity(struct sim *s, struct thread *t, const struct wl_cpuset *bits)
{
	struct dls_cpumask *mask = s->dom.smp && !wl_cpuset_empty(bits) ? affinity_mask(s, bits)
									 : NULL;

	if (t->is_dl && s->dom.smp && dls_entity_set_affinity(&t->se, mask)) {
		free(mask);
		return false;
	}
	free(t->mask);
	t->mask = mask;
	t->allowed = *bits;
	return true;
}

/* The phase's CPUs (its own, else the task's, else all: rt-app's order),
 * when they differ from those the thread has. Returns true when the thread
 * must stop here (it moves, or the run stops). */
static bool phase_cpus(struct sim *s, struct thread *t, const struct wl_cpuset *cpus)
{
	const struct wl_cpuset none = { { 0 } };
	struct wl_cpuset all, bits;
	int line, col, cpu;

	/* the same CPUs as last time: at every job of most threads */
	if (wl_cpuset_equal(cpus, &t->want_cpus))
		return false;
	all = all_cpus(s);
	bits = wl_cpuset_equal(cpus, &all) ? none : *cpus;
	if (wl_cpuset_equal(&bits, wl_cpuset_equal(&t->want_cpus, &all) ? &none : &t->want_cpus))
		return false;
	cpu = tcpu(t);
	t->want_cpus = bits;
	phase_pos(t, &line, &col);
	if (t->dl_policy) {
		if (linux_refuses_pin(s, &bits)) {
			report_pin(s, t, &bits, "sched_setaffinity()", "EBUSY", line, col);
			return true;
		}
		if (!s->dom.smp) {
			/* partitioned: a reservation stays on its CPU */
			if (!wl_cpuset_allows(&bits, cpu))
				return phase_refuse(s, t, "moving a deadline thread to another CPU "
						    "in partitioned mode is not modelled");
			t->allowed = bits;
			return false;
		}
		if (s->w->mode == WL_MODE_CLUSTERED)
			bits = cluster_bits(s, &bits);
		if (!entity_affinity(s, t, &bits))
			return phase_refuse(s, t, "none of its CPUs is online");
		return tcpu(t) != cpu;
	}
	if (!entity_affinity(s, t, &bits))
		return phase_refuse(s, t, "none of its CPUs is online");
	if (t->is_dl)
		return tcpu(t) != cpu; /* boosted: its entity moved, or not */
	if (wl_cpuset_allows(&bits, t->cpu))
		return false;
	cpu = dlsim_cpu_least_crowded(s, &bits);
	if (cpu < 0)
		return phase_refuse(s, t, "none of its CPUs is online (Linux's "
				    "sched_setaffinity() fails with EINVAL)");
	phase_move_lower(s, t, cpu);
	return true;
}

/* Into SCHED_DEADLINE with @p: admission on its CPU (first fit over the CPUs
 * it may use in partitioned mode), as sched_setattr() does. */
static bool become_dl(struct sim *s, struct thread *t, const struct dls_params *p)
{
	struct wl_cpuset allowed = t->want_cpus;
	bool running = s->cpus[t->cpu].curr == t;
	int line, col, r = DLS_EBANDWIDTH, cpu = -1;

	phase_pos(t, &line, &col);
	if (linux_refuses_pin(s, &allowed)) {
		report_pin(s, t, &allowed, "sched_setattr()", "EPERM", line, col);
		return true;
	}
	if (s->dom.smp && s->w->mode == WL_MODE_CLUSTERED)
		allowed = cluster_bits(s, &allowed);
	for (int k = -1; k < s->nr_cpus && r == DLS_EBANDWIDTH; k++) {
		cpu = k < 0 ? t->cpu : k;
		if ((k >= 0 && k == t->cpu) || s->cpus[cpu].offline ||
		    !wl_cpuset_allows(&allowed, cpu))
			continue;
		r = dls_entity_attach(&s->rqs[cpu], &t->se, p);
		if (s->dom.smp)
			break; /* one domain-wide admission */
	}
	if (r) {
		report_refusal_at(s, t, p, r, line, col);
		sim_refused(s);
		return true;
	}
	if (!entity_affinity(s, t, &allowed)) {
		dlsim_lib_ok(s, dls_task_dead(t->se.rq, &t->se), "dls_task_dead", t);
		return phase_refuse(s, t, "none of its CPUs is online");
	}
	if (t->runnable && !running)
		dlsim_lower_remove(s, t);
	s->cpus[t->cpu].nr_assigned--;
	if (running)
		dlsim_resched(s, t->cpu);
	t->cpu = cpu;
	t->is_dl = t->dl_policy = true;
	t->prio = 0;
	t->dl_deadline = p->deadline;
	if (t->runnable)
		dlsim_lib_ok(s, dls_wakeup(t->se.rq, &t->se), "dls_wakeup", t);
	dls_pi_set_own(&s->pi, &t->pi, dlsim_pi_prio(t), true, t->se.deadline);
	dlsim_resched(s, tcpu(t));
	return true;
}

/* Out of SCHED_DEADLINE into a lower class at @prio: its bandwidth goes
 * (dls_task_dead), it stays on the CPU its entity was on. */
static void leave_dl(struct sim *s, struct thread *t, int prio)
{
	int cpu = tcpu(t);
	bool running = s->cpus[cpu].curr == t;

	dlsim_lib_ok(s, dls_task_dead(t->se.rq, &t->se), "dls_task_dead", t);
	t->is_dl = t->dl_policy = false;
	t->cpu = cpu;
	s->cpus[cpu].nr_assigned++;
	t->prio = prio;
	if (prio == 0)
		dlsim_thread_reweight(s, t, dlsim_fair_weight(t->policy, t->nice));
	dls_pi_set_own(&s->pi, &t->pi, dlsim_pi_prio(t), false, 0);
	if (t->runnable && !running)
		dlsim_lower_add(s, t, false);
	dlsim_resched(s, cpu);
}

/*
 * The phase's scheduling keys, when it gives any and they are not those
 * applied last (rt-app's set_thread_param(): a phase without a policy
 * keeps the thread's; one without a priority leaves a FIFO/RR/fair thread
 * as it is). Returns true when the thread must stop here.
 */
/* A phase without "policy" takes the thread's when first applied, and
 * keeps that one for every thread of its task (rt-app's set_thread_param()
 * writes it into the parsed phase, which the task's threads share). */
static enum wl_policy same_policy(struct sim *s, const struct wl_sched *ps,
				  enum wl_policy current)
{
	for (size_t i = 0; i < s->nr_same; i++)
		if (s->same[i].sched == ps)
			return s->same[i].policy;
	GROW(s->same, s->nr_same, s->cap_same, { sim_oom(s); return current; });
	s->same[s->nr_same++] = (struct same_policy){ ps, current };
	return current;
}

static bool phase_sched(struct sim *s, struct thread *t, const struct wl_sched *ps)
{
	enum wl_policy pol;

	if (t->cur_sched == ps)
		return false;
	t->cur_sched = ps;
	pol = ps->set ? ps->policy : same_policy(s, ps, t->policy);
	if (t->nr_held || t->is_dl != t->dl_policy)
		return phase_refuse(s, t, "a scheduling change while the thread holds a "
				    "mutex is not modelled");
	if (pol == WL_DEADLINE) {
		struct dls_params p = { 0 };

		p.runtime = ps->dl_runtime_us * US;
		p.period = (ps->dl_period_us ? ps->dl_period_us : ps->dl_runtime_us) * US;
		p.deadline = ps->dl_deadline_us ? ps->dl_deadline_us * US : p.period;
		if (ps->dl_reclaim)
			p.flags |= DLS_FLAG_RECLAIM;
		else if (ps->dl_soft > 0 || (ps->dl_soft == 0 && s->w->soft_reservations))
			p.flags |= DLS_FLAG_SOFT;
		t->policy_changed |= pol != t->task->sched.policy;
		t->policy = pol;
		if (!t->dl_policy)
			return become_dl(s, t, &p);
		{
			int r = dls_entity_set_params(t->se.rq, &t->se, &p);
			int line, col;

			if (r) {
				phase_pos(t, &line, &col);
				report_refusal_at(s, t, &p, r, line, col);
				sim_refused(s);
				return true;
			}
		}
		t->dl_deadline = p.deadline;
		dlsim_resched(s, tcpu(t));
		return false;
	}
	/* rt-app changes nothing for a FIFO/RR or fair policy when the phase
	 * gives neither a policy nor a priority (its dl-* keys alone) */
	if (!ps->set && !ps->prio_given)
		return false;
	t->policy_changed |= pol != t->task->sched.policy;
	t->policy = pol;
	{
		int prio = pol == WL_FIFO || pol == WL_RR ? ps->prio : 0;
		bool running = s->cpus[t->cpu].curr == t;

		/* a fair thread's "priority" is its nice value, which rt-app
		 * hands to sched_setattr() (-20..19, else it stops); SCHED_IDLE
		 * takes none */
		if (ps->prio_given && (pol == WL_OTHER || pol == WL_BATCH)) {
			if (ps->prio < -20 || ps->prio > 19)
				return phase_refuse(s, t, "its \"priority\" is a nice value "
						    "outside -20..19: rt-app's sched_setattr() "
						    "fails there");
			t->nice = ps->prio;
		}
		if (t->dl_policy) {
			leave_dl(s, t, prio);
			return true;
		}
		if (t->runnable && !running)
			dlsim_lower_remove(s, t);
		if (prio == 0)
			dlsim_thread_reweight(s, t, dlsim_fair_weight(pol, t->nice));
		t->prio = prio;
		dls_pi_set_own(&s->pi, &t->pi, dlsim_pi_prio(t), false, 0);
		if (t->runnable && !running)
			dlsim_lower_add(s, t, false);
		dlsim_resched(s, t->cpu);
	}
	return false;
}

/* A phase iteration starts: its CPUs, then its scheduling keys, as rt-app's
 * thread_body() does. Returns true when the thread must stop here (it
 * moves; the next call finds nothing left to change) or the run stops. */
static bool phase_apply(struct sim *s, struct thread *t)
{
	const struct wl_phase *ph = &t->task->phases[t->phase];

	if (phase_cpus(s, t, wl_cpuset_empty(&ph->cpus) ? &t->task->cpus : &ph->cpus))
		return true;
	return wl_phase_sets(ph) && phase_sched(s, t, &ph->sched);
}

/* Each thread draws from its own stream: (simulation seed, thread id). */
static void thread_seed(const struct sim *s, struct thread *t)
{
	uint64_t x = s->w->seed;

	dls_prng_seed(&t->rng, dls_prng_splitmix64(&x) ^ (uint64_t)t->id);
}

void sim_spawn(struct sim *s, const struct wl_task *task, int instance)
{
	struct thread *t;
	struct dls_params p = { 0 };
	int err;

	if ((size_t)s->nr_threads == s->cap_threads) {
		size_t cap = s->cap_threads ? s->cap_threads * 2 : 64;
		struct thread **nt = realloc(s->threads, cap * sizeof(*nt));

		if (!nt || cap > (size_t)INT32_MAX) {
			if (nt)
				s->threads = nt;
			sim_oom(s);
			return;
		}
		s->threads = nt;
		s->cap_threads = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		sim_oom(s);
		return;
	}
	t->id = s->nr_threads;
	t->task = task;
	t->guest = task->server >= 0 && s->guests ? &s->guests[task->server] : NULL;
	thread_seed(s, t);
	t->last_cpu = -1;
	if (task->instance > 1 || instance > 0)
		snprintf(t->name, sizeof(t->name), "%s-%d", task->name, instance);
	else
		snprintf(t->name, sizeof(t->name), "%s", task->name);
	t->policy = task->sched.policy;
	t->cur_sched = &task->sched;
	t->dl_deadline = task->sched.dl_deadline_us * US;
	t->dl_policy = task->sched.policy == WL_DEADLINE;
	t->is_dl = t->dl_policy;
	t->prio = task->sched.policy == WL_FIFO || task->sched.policy == WL_RR
			  ? task->sched.prio : 0;
	t->nice = task->sched.nice_given ? task->sched.nice : 0;
	t->weight = dlsim_fair_weight(task->sched.policy, t->nice);
	dls_rb_node_init(&t->wake.node);
	dls_rb_node_init(&t->timer.node);
	t->wake.kind = EV_WAKE;
	t->timer.kind = EV_TIMER;
	dls_rb_node_init(&t->zero_lag.node);
	t->zero_lag.kind = EV_ZERO_LAG;
	dls_entity_init(&t->se);
	dls_pi_task_init(&t->pi, dlsim_pi_prio(t), t->dl_policy, 0);
	/* the first phase's CPUs, else the task's (rt-app's order) */
	t->allowed = wl_cpuset_empty(&task->phases[0].cpus) ? task->cpus : task->phases[0].cpus;
	t->want_cpus = t->allowed;
	if (t->dl_policy && s->dom.smp && s->w->mode == WL_MODE_CLUSTERED)
		t->allowed = cluster_bits(s, &t->allowed);
	if (s->dom.smp && !wl_cpuset_empty(&t->allowed))
		t->mask = affinity_mask(s, &t->allowed);
	p.runtime = task->sched.dl_runtime_us * US;
	p.deadline = task->sched.dl_deadline_us * US;
	p.period = task->sched.dl_period_us * US;
	/* A reclaiming task is a hard reservation, also where the file makes
	 * soft the default (the reader refuses "dl-soft" with "dl-reclaim"). */
	if (task->sched.dl_reclaim)
		p.flags |= DLS_FLAG_RECLAIM;
	else if (task->sched.dl_soft > 0 ||
		 (task->sched.dl_soft == 0 && s->w->soft_reservations))
		p.flags |= DLS_FLAG_SOFT;
	if (t->dl_policy && linux_refuses_pin(s, &t->allowed)) {
		/* rt-app sets the policy first, then the CPUs */
		const struct wl_phase *ph0 = &task->phases[0];
		bool in_phase = !wl_cpuset_empty(&ph0->cpus) && ph0->line;

		s->threads[s->nr_threads++] = t;
		report_pin(s, t, &t->allowed, "sched_setaffinity()", "EBUSY",
			   in_phase ? ph0->line : task->line, in_phase ? ph0->col : task->col);
		t->exited = true;
		return;
	}
	t->cpu = t->guest ? dlsim_guest_place(s, t, &p, &err) : place(s, t, &p, &err);
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
		sim_refused(s);
		return;
	}
	/* rt-app's t_first: the run's start (t_zero) + delay, for a forked
	 * thread too, which sleeps to it only if it is still ahead */
	t->t_first = (uint64_t)task->delay_us * US;
	t->job_release = dls_time_after(t->t_first, s->now) ? t->t_first : s->now;
	dlsim_q_add(s, &t->wake, t->job_release);
	dlsim_add_mark_at(s, tcpu(t), t->id, t->job_release, "release");
	if (t->is_dl)
		dlsim_add_mark_at(s, tcpu(t), t->id, t->job_release + task->sched.dl_deadline_us * US,
			    "deadline");
}

