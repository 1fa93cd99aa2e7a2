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

/* ---- threads ---------------------------------------------------------- */

void thread_block(struct sim *s, struct thread *t, bool job_done)
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

void thread_wake(struct sim *s, struct thread *t)
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
		lower_wake(s, t);
	}
}

/* @t's wake-up event (its start, a sleep's end or a timer tick) is due. */
void thread_wake_event(struct sim *s, struct thread *t)
{
	/* A job's throttles count from its release. */
	if (s->now == t->job_release)
		t->job_throttles0 = t->se.stats.throttles;
	/* Its next events run once it is picked: a thread takes a mutex
	 * when it runs, not when it wakes. */
	t->started = true;
	thread_wake(s, t);
}

/* The job ending now, for --jobs and the JSON; the next one starts afresh. */
static void log_job(struct sim *s, struct thread *t, uint64_t deadline)
{
	if (s->job_log) {
		GROW(s->jobs, s->nr_jobs, s->cap_jobs);
		s->jobs[s->nr_jobs++] = (struct job_rec){
			.thread = t->id, .index = t->jobs - 1, .release = t->job_release,
			.start = t->job_start, .end = s->now, .ran = t->job_ran,
			.deadline = deadline, .has_server = t->is_dl,
			.server_deadline = t->se.deadline, .cpus = t->job_cpus,
			.preemptions = t->job_preemptions, .migrations = t->job_migrations,
			.throttles = (unsigned int)(t->se.stats.throttles - t->job_throttles0),
		};
	}
	t->job_ran = false;
	t->job_cpus = 0;
	t->job_preemptions = 0;
	t->job_migrations = 0;
	t->job_throttles0 = t->se.stats.throttles;
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
		GROW(t->resp, t->nr_resp, t->cap_resp);
		t->resp[t->nr_resp++] = resp;
	}
	if (miss) {
		uint64_t late = s->now - deadline;

		t->misses++;
		if (late > t->max_lateness)
			t->max_lateness = late;
		add_mark(s, tcpu(t), t->id, "miss");
	}
	if (s->opt->on_job)
		s->opt->on_job(s->opt->cb_arg, t->name, t->job_release, s->now, miss);
	log_job(s, t, deadline);
}

/* The period of the first timer event of @task (0: it has none). */
static uint64_t first_timer_period(const struct wl_task *task)
{
	for (size_t p = 0; p < task->nr_phases; p++)
		for (size_t e = 0; e < task->phases[p].nr_events; e++)
			if (task->phases[p].events[e].type == WL_TIMER)
				return (uint64_t)task->phases[p].events[e].us * US;
	return 0;
}

/*
 * A deadline thread whose jobs end at a timer event and whose current job,
 * released at job_release, is still unfinished at the end of the run
 * although its deadline has passed: a miss that record_job() never saw.
 */
bool job_overdue(const struct sim *s, const struct thread *t)
{
	return t->dl_policy && t->started && !t->exited &&
	       first_timer_period(t->task) && !dls_time_after(t->job_release, s->now) &&
	       dls_time_before(t->job_deadline, s->now);
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

/* run, mem, iorun: CPU work, scaled by the CPU's capacity. */
static bool ev_run(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	(void)s;
	t->work_left = run_us(t, ev) * US;
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
		thread_block(s, t, false);
		q_add(s, &t->wake, s->now + (uint64_t)ev->us * US);
	}
	return false;
}

/* The job ends here; the thread sleeps until the timer's next tick. */
static bool ev_timer(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct utimer *u = utimer_get(t, ev->ref);
	uint64_t period = (uint64_t)ev->us * US;
	uint64_t rel_dl = t->task->sched.dl_deadline_us * US;
	uint64_t job_dl = (uint64_t)t->task->job_deadline_us * US;
	bool dl = t->dl_policy;

	if (!u->started) {
		u->started = true;
		u->next = t->job_release;
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
		thread_block(s, t, true);
		q_add(s, &t->wake, u->next);
	}
	t->job_release = u->next;
	t->job_deadline = u->next + (job_dl ? job_dl : period);
	if (t->runnable && s->cpus[tcpu(t)].curr == t) {
		/* Straight into its next job: the run slice ends with this one. */
		close_slice(s, tcpu(t));
		job_begin_running(s, t, tcpu(t));
	}
	add_mark_at(s, tcpu(t), t->id, u->next, "release");
	if (dl)
		add_mark_at(s, tcpu(t), t->id, u->next + rel_dl, "deadline");
	return false;
}

static bool ev_yield(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	(void)ev;
	if (t->is_dl && s->cpus[tcpu(t)].curr == t) {
		dls_yield(rq_of(s, t));
		s->cpus[tcpu(t)].need_resched = true;
		return true;
	}
	if (!t->is_dl && s->cpus[t->cpu].nr_lower) {
		/* Let the others of its class run first. */
		lower_yield(s, t);
		s->cpus[t->cpu].need_resched = true;
		return true;
	}
	return false;
}

static bool ev_lock(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	mutex_lock(s, list_get(s, ev->ref, WAIT_MUTEX), t);
	return false;
}

static bool ev_unlock(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	mutex_unlock(s, list_get(s, ev->ref, WAIT_MUTEX), t);
	return false;
}

/* signal wakes one waiter, broad every one, resume every suspended one. */
static bool ev_signal(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *c = list_get(s, ev->ref, ev->type == WL_RESUME ? WAIT_SUSPEND
									 : WAIT_COND);
	struct thread *w;

	(void)t;
	while ((w = list_pop(c))) {
		cond_wake(s, w);
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
	struct wait_list *c = list_get(s, ev->ref, WAIT_COND);
	struct wait_list *m = list_get(s, ev->mutex, WAIT_MUTEX);

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
	return false;
}

static bool ev_suspend(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	list_push(list_get(s, ev->ref, WAIT_SUSPEND), t);
	thread_block(s, t, false);
	return false;
}

static bool ev_barrier(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	struct wait_list *b = list_get(s, ev->ref, WAIT_BARRIER);

	if (++b->arrived >= b->participants) {
		struct thread *w;

		b->arrived = 0;
		while ((w = list_pop(b)))
			thread_wake(s, w);
	} else {
		list_push(b, t);
		thread_block(s, t, false);
	}
	return false;
}

static bool ev_fork(struct sim *s, struct thread *t, const struct wl_event *ev)
{
	(void)t;
	for (size_t k = 0; k < s->w->nr_tasks; k++)
		if (!strcmp(s->w->tasks[k].name, ev->ref))
			sim_spawn(s, &s->w->tasks[k], s->nr_threads);
	return false;
}

static event_fn *const event_fns[] = {
	[WL_RUN] = ev_run,         [WL_MEM] = ev_run,       [WL_IORUN] = ev_run,
	[WL_RUNTIME] = ev_runtime, [WL_SLEEP] = ev_sleep,   [WL_TIMER] = ev_timer,
	[WL_YIELD] = ev_yield,     [WL_LOCK] = ev_lock,     [WL_UNLOCK] = ev_unlock,
	[WL_SIGNAL] = ev_signal,   [WL_BROAD] = ev_signal,  [WL_RESUME] = ev_signal,
	[WL_WAIT] = ev_wait,       [WL_SYNC] = ev_wait,     [WL_SUSPEND] = ev_suspend,
	[WL_BARRIER] = ev_barrier, [WL_FORK] = ev_fork,
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
	thread_block(s, t, true);
	t->exited = true;
	return false;
}

/*
 * Run the thread's program from its program counter until it has work to
 * do (a run/runtime event) or blocks. Zero-time events are processed here.
 */
void thread_advance_events(struct sim *s, struct thread *t)
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
		ev = &ph->events[t->ev++];
		if (event_fns[ev->type](s, t, ev))
			return;
	}
}

/* ---- placement -------------------------------------------------------- */

bool same_cluster(const struct workload *w, int a, int b)
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
		fprintf(stderr, "dlsim:   the limit (%s) is Linux's sched_rt_runtime_us / "
			"sched_rt_period_us; change it with --admission PERCENT|off or "
			"\"simulation\": {\"admission\": PERCENT|\"off\"}\n", s->admission_from);
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

/* The library's CPU mask of the CPUs in @bits (global scheduling). */
static struct dls_cpumask *affinity_mask(const struct sim *s, uint64_t bits)
{
	size_t msz = dls_cpumask_size(s->nr_cpus);
	struct dls_cpumask *mask = calloc(1, msz);

	if (!mask)
		exit(1);
	dls_cpumask_init(mask, msz, s->nr_cpus);
	for (int c = 0; c < s->nr_cpus; c++)
		if (bits & (UINT64_C(1) << c))
			dls_cpumask_set(mask, c);
	return mask;
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

	if (s->nr_threads >= MAX_THREADS)
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		exit(1);
	t->id = s->nr_threads;
	t->task = task;
	thread_seed(s, t);
	t->last_cpu = -1;
	if (task->instance > 1 || instance > 0)
		snprintf(t->name, sizeof(t->name), "%s-%d", task->name, instance);
	else
		snprintf(t->name, sizeof(t->name), "%s", task->name);
	t->dl_policy = task->sched.policy == WL_DEADLINE;
	t->is_dl = t->dl_policy;
	t->prio = task->sched.policy == WL_FIFO || task->sched.policy == WL_RR
			  ? task->sched.prio : 0;
	t->nice = task->sched.nice_given ? task->sched.nice : 0;
	t->weight = fair_weight(task->sched.policy, t->nice);
	dls_rb_node_init(&t->wake.node);
	dls_rb_node_init(&t->timer.node);
	t->wake.kind = EV_WAKE;
	t->timer.kind = EV_TIMER;
	dls_rb_node_init(&t->zero_lag.node);
	t->zero_lag.kind = EV_ZERO_LAG;
	dls_entity_init(&t->se);
	dls_pi_task_init(&t->pi, pi_prio(t), t->dl_policy, 0);
	t->allowed = task->cpus ? task->cpus : task->phases[0].cpus;
	if (t->dl_policy && s->dom.smp && s->w->mode == WL_MODE_CLUSTERED)
		t->allowed = cluster_bits(s, t->allowed);
	if (s->dom.smp && t->allowed)
		t->mask = affinity_mask(s, t->allowed);
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
	t->job_deadline = t->job_release + (task->job_deadline_us
		? (uint64_t)task->job_deadline_us * US : first_timer_period(task));
	q_add(s, &t->wake, t->job_release);
	add_mark_at(s, tcpu(t), t->id, t->job_release, "release");
	if (t->is_dl)
		add_mark_at(s, tcpu(t), t->id, t->job_release + task->sched.dl_deadline_us * US,
			    "deadline");
}

