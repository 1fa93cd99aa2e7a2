/*
 * dlsim's engine: the library's platform ops and the step loop, the top of
 * the simulator (sim_impl.h lists the files below it).
 *
 * Time is virtual (ns). One event queue (platform.c), ordered by (time,
 * sequence) on the library's rbtree, holds replenishment timers, thread wake-ups, thread
 * starts and CPU hotplug events; the CPUs' own decision points (end of a
 * run event, budget exhaustion, end of a time slice) are computed from
 * their current thread. Each step advances the clock to the earliest of
 * these, charges running threads, processes what is due, and lets the
 * library pick again on every CPU that asked for it. The same input gives
 * the same output, bit for bit.
 *
 * Scheduling classes: SCHED_DEADLINE threads are entities of libdlsched;
 * below them (lower.c), SCHED_FIFO/RR threads by priority (RR with a
 * 100 ms slice), then SCHED_OTHER/BATCH/IDLE by weight as EEVDF. Deadline
 * threads are placed first fit by reserved bandwidth and, in global mode,
 * migrate by the library's push/pull; other threads start on the least
 * crowded CPU they may use and move as Linux moves them (RT push/pull,
 * fair wake-up placement and idle balancing).
 *
 * Mutexes (lock.c) are the library's PI mutexes (pi.h): a thread that finds a mutex
 * taken leaves its runqueue, unlock hands the mutex to the top waiter, and,
 * when the workload sets rt-app's "pi_enabled", boost_changed gives a
 * deadline owner its donor's deadline through dls_entity_set_boost(). A
 * FIFO/RR/OTHER owner inherits its donor's priority; one that inherits a
 * deadline runs in the deadline class until it is deboosted, as in Linux:
 * its entity is attached with its donor's reservation (not admitted, as
 * Linux does not count it either) and ordered by the inherited deadline.
 * A lock request that would close a cycle stops the run with the cycle.
 *
 * Hotplug (cpu.c): at the times the simulation section gives, a CPU leaves with
 * dls_cpu_offline() (global mode) and comes back with dls_cpu_online();
 * entities with nowhere to go stay stranded on it and are reported. In
 * partitioned mode every deadline entity of the CPU is stranded. Threads
 * of the lower classes move to the least crowded online CPU they may use,
 * or stay stranded likewise.
 */
#include "sim_impl.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* ---- platform ops ----------------------------------------------------- */

static uint64_t op_now(void *ctx, int cpu)
{
	struct sim *s = ctx;

	/* The library acts on @cpu's runqueue: its thread is charged up to
	 * now first (the per-CPU loop charges a CPU only when touched). */
	return dlsim_cpu_touch(s, cpu);
}

/* The event of the thread's timer @t: its replenishment or 0-lag timer. */
/* Whether the run has server entities (a fair server, a vCPU's): only then
 * may an entity the library hands over be one. */
static bool has_servers(const struct sim *s)
{
	return s->fsrv || s->nr_guests;
}

static struct qev *timer_event(struct sim *s, struct dls_timer *t)
{
	struct dls_entity *se = dls_timer_entity(t);
	struct thread *th;

	if (has_servers(s) && dls_server_of(se)) {
		struct vcpu *v = dlsim_vcpu_of(se);

		return v ? &v->timer : dlsim_fs_timer_event(se);
	}
	th = dls_container_of(se, struct thread, se);

	return t->zero_lag ? &th->zero_lag : &th->timer;
}

static void op_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	dlsim_q_add(ctx, timer_event(ctx, t), abs_ns);
}

static void op_cancel(void *ctx, struct dls_timer *t)
{
	q_remove(ctx, timer_event(ctx, t));
}

static void op_resched(void *ctx, int cpu)
{
	dlsim_resched(ctx, cpu);
}

/* A thread's reservation was throttled or replenished. */
__attribute__((noinline)) static void budget_trace(struct sim *s,
						 const struct dls_trace_event *ev)
{
	struct thread *th = dls_container_of(ev->se, struct thread, se);

	if (ev->type == DLS_TRACE_THROTTLE)
		dlsim_job_note_throttle(s, th);
	if (!s->timeline && !s->budget_log)
		return;
	/* the entity's state after the throttle or replenishment */
	if (s->timeline)
		sim_emit_mark(s, &(struct mark){
			.cpu = ev->cpu, .thread = th->id, .t = s->now,
			.what = ev->type == DLS_TRACE_THROTTLE ? "throttle" : "replenish",
			.has_budget = true, .runtime = ev->runtime, .deadline = ev->deadline });
	dlsim_add_budget_sample(s, th->id, ev->runtime, ev->deadline);
}

/* The only kinds of a thread's events dlsim records. */
static bool budget_event(const struct dls_trace_event *ev)
{
	return ev->type == DLS_TRACE_THROTTLE || ev->type == DLS_TRACE_REPLENISH;
}

/* An event of a run with servers: a server entity's, or a thread's. */
__attribute__((noinline)) static void trace_with_servers(struct sim *s,
							 const struct dls_trace_event *ev)
{
	struct vcpu *v;

	if (!dls_server_of(ev->se)) {
		if (budget_event(ev))
			budget_trace(s, ev);
		return;
	}
	v = dlsim_vcpu_of(ev->se);
	if (v)
		dlsim_vcpu_trace(s, v, ev);
	else
		dlsim_fs_trace(s, ev);
}

/* Most events the library reports are of other kinds and need nothing:
 * they return here, before any call (the two above are out of line). */
static void op_trace(void *ctx, const struct dls_trace_event *ev)
{
	struct sim *s = ctx;

	if (has_servers(s))
		trace_with_servers(s, ev);
	else if (budget_event(ev))
		budget_trace(s, ev);
}

static const struct dls_ops sim_ops = {
	.now = op_now,
	.timer_arm = op_arm,
	.timer_cancel = op_cancel,
	.resched = op_resched,
	.trace = op_trace,
};

/* A guest domain's ops (guest.c): its clock is the simulation's, its CPUs
 * are vCPUs, each on a host CPU; timers and traces are its threads'. */
static uint64_t guest_now(void *ctx, int vcpu)
{
	struct guest *g = ctx;

	return op_now(g->s, g->vc[vcpu].host);
}

static void guest_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	op_arm(((struct guest *)ctx)->s, t, abs_ns);
}

static void guest_cancel(void *ctx, struct dls_timer *t)
{
	op_cancel(((struct guest *)ctx)->s, t);
}

/* The host CPU picks again (not the host's runqueue lock from here). */
static void guest_resched(void *ctx, int vcpu)
{
	struct guest *g = ctx;

	op_resched(g->s, g->vc[vcpu].host);
}

static void guest_trace(void *ctx, const struct dls_trace_event *ev)
{
	struct guest *g = ctx;
	struct dls_trace_event e = *ev;

	e.cpu = g->vc[ev->cpu].host; /* marks go on the host CPU's row */
	op_trace(g->s, &e);
}

static const struct dls_ops guest_ops = {
	.now = guest_now,
	.timer_arm = guest_arm,
	.timer_cancel = guest_cancel,
	.resched = guest_resched,
	.trace = guest_trace,
};

/* ---- progress bar ------------------------------------------------------ */

static double wall_seconds(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

void dlsim_format_eta(char *buf, size_t len, double seconds)
{
	unsigned long t = seconds > 0 && seconds < 1e9 ? (unsigned long)(seconds + 0.5) : 0;

	if (!(seconds < 1e9))
		snprintf(buf, len, "unknown");
	else if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

static void draw_progress(struct sim *s, uint64_t horizon, bool done)
{
	double el, frac;
	char bar[41], eta[32];
	int fill;

	if (done) {
		if (s->drawn)
			fprintf(stderr, "\r%100s\r", "");
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
	/* the simulated time left at the rate so far */
	frac = horizon ? (double)s->now / (double)horizon : 1;
	dlsim_format_eta(eta, sizeof(eta), frac > 0 ? el * (1 - frac) / frac : 1e9);
	fprintf(stderr, "\rdlsim [%s] %3d%%  %.3f of %.3f s, ETA %-9s", bar,
		horizon ? (int)((double)s->now * 100 / (double)horizon) : 100,
		(double)s->now / 1e9, (double)horizon / 1e9, eta);
	fflush(stderr);
	s->last_draw = el;
	s->drawn = true;
}

/* ---- --check ------------------------------------------------------------ */

static const char *check_all(struct sim *s)
{
	const char *err = dls_domain_check(&s->dom);

	if (err)
		return err;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct thread *t = s->cpus[cpu].curr;

		if (t && t->is_dl && rq_of(s, t)->curr != &t->se)
			return "the running deadline thread is not the runqueue's current";
	}
	err = dlsim_q_check(s);
	if (err)
		return err;
	err = dlsim_fs_check(s);
	if (!err)
		err = dlsim_guests_check(s);
	if (err)
		return err;
	if (s->has_mutexes) {
		err = dlsim_lock_check(s);
		if (err)
			return err;
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->cpus[cpu].offline && s->cpus[cpu].curr)
			return "an offline CPU runs a thread";
	return dlsim_lower_check(s);
}

/* ---- set-up and tear-down ------------------------------------------------ */

/* horizon_us, else global.duration (s), else 10 s. */
static uint64_t horizon_of(const struct workload *w)
{
	if (w->horizon_us)
		return (uint64_t)w->horizon_us * US;
	if (w->duration_s > 0)
		return (uint64_t)w->duration_s * 1000000 * US;
	return 10ULL * 1000000 * US;
}

/*
 * The admission limit per CPU (Linux's sched_rt_runtime_us over
 * sched_rt_period_us): the caller's (--admission), else the file's
 * simulation.admission, else the library's default @dflt. Says which.
 */
static uint64_t admission_limit(struct sim *s, uint64_t dflt)
{
	int pct = s->w->admission;

	if (s->opt->bw_limit) {
		s->admission_from = "--admission";
		return s->opt->bw_limit;
	}
	if (pct < 0) {
		s->admission_from = "the default";
		return dflt;
	}
	s->admission_from = "simulation.admission";
	return pct ? DLS_BW_UNIT * (uint64_t)pct / 100 : DLS_BW_UNLIMITED;
}

/* Each CPU's cluster by index, numbered in the order of their first CPUs,
 * so that a placement sums them in one pass (thread.c). */
static int setup_clusters(struct sim *s)
{
	s->clusters = calloc((size_t)s->nr_cpus, sizeof(*s->clusters));
	if (!s->clusters)
		return -1;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		int k = 0;

		while (k < cpu && !dlsim_same_cluster(s->w, k, cpu))
			k++;
		s->cpus[cpu].cluster = k < cpu ? s->cpus[k].cluster : s->nr_clusters++;
	}
	return 0;
}

/* The domain, its runqueues and CPUs; SMP unless partitioned or one CPU. */
static int setup_domain(struct sim *s)
{
	const struct workload *w = s->w;
	struct dls_domain_config cfg;

	s->rqs = calloc((size_t)s->nr_cpus, sizeof(*s->rqs));
	s->cpus = calloc((size_t)s->nr_cpus, sizeof(*s->cpus));
	s->nr_words = ((size_t)s->nr_cpus + 63) / 64;
	s->touched = calloc(s->nr_words, sizeof(*s->touched));
	s->eager = calloc(s->nr_words, sizeof(*s->eager));
	s->idle = calloc(s->nr_words, sizeof(*s->idle));
	if (!s->rqs || !s->cpus || !s->touched || !s->eager || !s->idle)
		return -1;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		s->idle[WL_CPUSET_WORD(cpu)] |= WL_CPUSET_BIT(cpu);
	if (w->mode == WL_MODE_CLUSTERED && setup_clusters(s))
		return -1;
	dls_domain_config_default(&cfg);
	cfg.bw_limit = admission_limit(s, cfg.bw_limit);
	if (s->w->wakeup_rule)
		cfg.wakeup_rule = (enum dls_wakeup_rule)(s->w->wakeup_rule - 1);
	if (s->w->overrun_rule)
		cfg.overrun_rule = (enum dls_overrun_rule)(s->w->overrun_rule - 1);
	if (s->w->replenish_rule)
		cfg.replenish_rule = (enum dls_replenish_rule)(s->w->replenish_rule - 1);
	if (s->opt->rules_2012) {
		cfg.overrun_rule = DLS_OVERRUN_2012;
		cfg.replenish_rule = DLS_REPLENISH_AT_DEADLINE;
		cfg.wakeup_rule = DLS_WAKEUP_CBS;
	}
	dls_domain_init(&s->dom, &sim_ops, s, &cfg, s->rqs, s->nr_cpus);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		s->cpus[cpu].capacity = w->cpus[cpu].capacity;
		dls_rq_set_capacity(&s->rqs[cpu], w->cpus[cpu].capacity);
	}
	if (w->mode != WL_MODE_PARTITIONED && s->nr_cpus > 1) {
		size_t sz = dls_smp_size(s->nr_cpus);

		s->smp_mem = calloc(1, sz);
		if (!s->smp_mem || dls_smp_init(&s->dom, s->smp_mem, sz))
			return -1;
	}
	return 0;
}

/*
 * The global-EDF validator holds only when every deadline thread may use
 * every CPU (of its cluster, in clustered mode: then only per cluster).
 */
static bool full_affinity(const struct workload *w, int nr_cpus)
{
	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];
		bool dl = t->sched.policy == WL_DEADLINE, pinned = !wl_cpuset_empty(&t->cpus);

		/* a phase may switch it to SCHED_DEADLINE or pin it */
		for (size_t p = 0; p < t->nr_phases; p++) {
			const struct wl_sched *ps = &t->phases[p].sched;

			dl |= ps->set ? ps->policy == WL_DEADLINE : wl_phase_sets(&t->phases[p]);
			pinned |= !wl_cpuset_empty(&t->phases[p].cpus);
		}
		if (dl && pinned)
			return false;
	}
	if (w->fair_server.on || w->nr_servers)
		return false; /* each server is pinned to its CPU */
	for (int cpu = 1; cpu < nr_cpus; cpu++)
		if (w->mode == WL_MODE_CLUSTERED && !dlsim_same_cluster(w, 0, cpu))
			return false;
	return true;
}

static int setup_hotplug(struct sim *s)
{
	const struct workload *w = s->w;

	s->hp = calloc(w->nr_hotplug + 1, sizeof(*s->hp));
	s->hp_log = calloc(w->nr_hotplug + 1, sizeof(*s->hp_log));
	if (!s->hp || !s->hp_log)
		return -1;
	for (size_t i = 0; i < w->nr_hotplug; i++) {
		dls_rb_node_init(&s->hp[i].q.node);
		s->hp[i].q.kind = EV_HOTPLUG;
		s->hp[i].idx = i;
		dlsim_q_add(s, &s->hp[i].q, (uint64_t)w->hotplug[i].at_us * US);
	}
	return 0;
}

static int sim_setup(struct sim *s, const struct workload *w, const struct sim_options *opt)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->opt = opt;
	s->nr_cpus = w->nr_cpus;
	s->tick_ns = w->tick_hz ? 1000000000ULL / (uint64_t)w->tick_hz : 0;
	/* One CPU: the reference loop walks nothing it could skip and its
	 * per-step bookkeeping is lighter (callgrind, bench_dlsim --one 100 1:
	 * about 1080 instructions per event against 1380 for the queued loop);
	 * the two give the same outputs (test_dlsim_loops). */
	s->scan = opt->loop_scan || (w->nr_cpus == 1 && !opt->loop_queue);
	s->tick_phase = w->tick_phase_ns;
	if (s->tick_ns && w->tick_phase_random) {
		/* one draw per seed, its own stream (not a thread's) */
		uint64_t x = w->seed ^ UINT64_C(0x7469636b70686173); /* "tickphas" */

		s->tick_phase = dls_prng_splitmix64(&x) % s->tick_ns;
	}
	dls_rb_root_cached_init(&s->queue);
	dls_rb_root_cached_init(&s->cpu_queue);
	sim_outputs_plan(s);
	if (setup_domain(s) || dlsim_lock_setup(s) || s->err.code == DLSIM_EXIT_FAILURE)
		return -1;
	s->full_affinity = full_affinity(w, s->nr_cpus);
	return 0;
}

/* Every thread that exists from the start; false when admission refused one. */
static bool spawn_all(struct sim *s)
{
	const struct workload *w = s->w;
	/* the servers' bandwidth first: the fair servers', the vCPUs' */
	int rc = dlsim_fs_setup(s);

	if (!rc)
		rc = dlsim_guests_setup(s, &guest_ops);
	if (rc < 0)
		sim_oom(s);
	else if (rc > 0)
		sim_refused(s);
	if (rc)
		return false;
	/* Every task its "instance" count, fork targets too (rt-app: instance
	 * 0 creates no thread at start, only the forks do). */
	for (size_t i = 0; i < w->nr_tasks; i++)
		for (int64_t k = 0; k < w->tasks[i].instance; k++)
			sim_spawn(s, &w->tasks[i], (int)k);
	return s->err.code != DLSIM_EXIT_REFUSED && s->err.code != DLSIM_EXIT_FAILURE;
}

static void sim_free(struct sim *s)
{
	for (int i = 0; s->threads && i < s->nr_threads; i++) {
		free(s->threads[i]->resp);
		free(s->threads[i]->mask);
		free(s->threads[i]->forks);
		free(s->threads[i]->timers);
		free(s->threads[i]);
	}
	free(s->same);
	dlsim_fs_free(s);
	dlsim_guests_free(s);
	for (int cpu = 0; s->cpus && cpu < s->nr_cpus; cpu++)
		free(s->cpus[cpu].lower);
	for (size_t i = 0; i < s->nr_lists; i++)
		free(s->lists[i].waiters);
	free(s->lists);
	free(s->timers);
	free(s->pi_tasks);
	free(s->pi_mutexes);
	free(s->hp);
	free(s->hp_log);
	free(s->spans);
	free(s->jobs);
	sim_outputs_discard(s);
	free(s->threads);
	free(s->check_marks);
	free(s->clusters);
	free(s->cpus);
	free(s->touched);
	free(s->eager);
	free(s->idle);
	free(s->rqs);
	free(s->smp_mem);
}

/* ---- one step ------------------------------------------------------------- */

/* The first tick at or after @b: ticks fall at tick_phase + k * tick_ns. */
static uint64_t tick_ceil(const struct sim *s, uint64_t b)
{
	if (dls_time_before(b, s->tick_phase))
		return s->tick_phase;
	return s->tick_phase + (b - s->tick_phase + s->tick_ns - 1) / s->tick_ns * s->tick_ns;
}

/* What is left of a deferred fair server's budget, after what its class
 * ran outside it and it has not been told of yet. */
static uint64_t fs_left(const struct fair_srv *fs)
{
	uint64_t q = (uint64_t)fs->srv.se.runtime;

	return q > fs->bg_pending ? q - fs->bg_pending : 0;
}

/* @c's next decision point before @n from the budget of entity @se on @rq
 * (its deadline thread's, its server's or, in a guest, the thread's own).
 * This, cpu_next() and finish_cpu() run for every CPU a step looks at and
 * are called from this file only: always inline (their calls and saved
 * registers cost 37 instructions an event on one CPU, 40 on eight). */
DLS_INLINE uint64_t budget_point(struct sim *s, struct cpu *c, struct dls_rq *rq,
				 const struct dls_entity *se, uint64_t n)
{
	/* The library charged its entity up to exec_start: now in the
	 * reference loop, which charges it at every step; the last event on
	 * its CPU in the per-CPU loop. */
	uint64_t base = !s->scan && rq->curr == se ? se->exec_start : s->now;
	uint64_t left, b;

	if (!se->queued || se->runtime <= 0)
		return n;
	/* A reclaiming budget drains at the GRUB rate, which only the library
	 * knows; a plain one at the runqueue's capacity. */
	left = se->params.flags & DLS_FLAG_RECLAIM ? dls_budget_ns(rq, se)
						   : ceil_scale((uint64_t)se->runtime, rq->capacity);
	b = base + left;
	/* A budget that lasts past @n is no decision point: one that does
	 * not drain at all (dls_budget_ns() at a GRUB rate of 0: UINT64_MAX)
	 * would wrap around the clock. */
	if (left >= n - base)
		return n;
	/* (an entity the library has not charged since before its budget
	 * would have run out is counted from now, as the reference loop
	 * counts every budget) */
	if (!s->scan && dls_time_before(b, s->now)) {
		b = s->now + left;
		s->late_budgets++; /* said after the run (sim_run()) */
	}
	/* Without exact budget timers the kernel notices an exhausted budget
	 * at its next tick: the overrun is charged there. */
	if (s->tick_ns) {
		b = tick_ceil(s, b);
		if (!c->has_budget_at || dls_time_before(b, c->budget_at))
			c->budget_at = b;
		c->has_budget_at = true;
	}
	return dls_time_before(b, n) ? b : n;
}

/* The next decision point of CPU @c before @limit (else @limit), from its
 * thread's state charged up to now. */
DLS_INLINE uint64_t cpu_next(struct sim *s, struct cpu *c, uint64_t limit)
{
	struct thread *t = c->curr;
	struct dls_entity *se = dlsim_host_se(s, (int)(c - s->cpus));
	uint64_t n = limit;

	c->has_budget_at = false;
	if (!t || !t->runnable || (se && !se->queued) || (t->guest && !t->se.queued))
		return n;
	if (!t->in_run && !t->in_runtime && !t->in_wall)
		return s->now; /* it has zero-time events to process first */
	if (t->in_wall && dls_time_before(t->wall_end, n))
		n = dls_time_after(t->wall_end, s->now) ? t->wall_end : s->now;
	if (t->in_run && dls_time_before(s->now + ceil_scale(t->work_left, c->capacity), n))
		n = s->now + ceil_scale(t->work_left, c->capacity);
	if (t->in_runtime && dls_time_before(s->now + t->wall_left, n))
		n = s->now + t->wall_left;
	if (c->fs && !c->in_server && c->fs->srv.state == DLS_SERVER_DEFERRED &&
	    dlsim_fs_serves(s, t) && dls_time_before(s->now + fs_left(c->fs), n))
		n = s->now + fs_left(c->fs); /* its class ran the deferred budget out */
	if (se)
		n = budget_point(s, c, &s->rqs[c - s->cpus], se, n);
	if (t->guest)
		n = budget_point(s, c, t->se.rq, &t->se, n);
	if (!t->is_dl && t->slice_left && dls_time_before(s->now + t->slice_left, n))
		n = s->now + t->slice_left;
	return n;
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

/* The reference loop: advance the clock to the next instant something
 * happens, charging every CPU. */
static void scan_advance(struct sim *s, uint64_t horizon)
{
	struct dls_rb_node *first = dls_rb_first_cached(&s->queue);
	uint64_t t = horizon;

	if (first) {
		uint64_t qt = dls_container_of(first, struct qev, node)->t;

		if (dls_time_before(qt, t))
			t = qt;
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		t = cpu_next(s, &s->cpus[cpu], t);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		cpu_charge(s, cpu, s->now, t - s->now);
	s->now = t;
}

/* What CPU @cpu's thread finished, its budget and slice. */
DLS_INLINE void finish_cpu(struct sim *s, int cpu)
{
	struct thread *c = s->cpus[cpu].curr;
	struct dls_entity *se = dlsim_host_se(s, cpu);

	/* Finished work first: a job that completes exactly as its
	 * budget runs out is done, not throttled mid-job. */
	if (c && c->runnable && (!se || se->queued) && (!c->guest || c->se.queued)) {
		if (c->in_run && !c->work_left)
			c->in_run = false;
		if (c->in_runtime && !c->wall_left)
			c->in_runtime = false;
		if (c->in_wall && !dls_time_after(c->wall_end, s->now))
			c->in_wall = false;
		thread_advance(s, c);
	}
	/* With ticks, the per-CPU loop charges the library's entity at its
	 * own CPU's tick that notices the exhausted budget (or when the
	 * library acts on its runqueue: a block, a preemption), as the
	 * kernel's update_curr(), not at another CPU's event. */
	if (se && (!s->tick_ns || s->scan ||
		   (s->cpus[cpu].has_budget_at &&
		    !dls_time_before(s->now, s->cpus[cpu].budget_at)))) {
		/* a guest's thread: its own reservation, then its vCPU's */
		if (c->guest && c->se.rq->curr == &c->se)
			dls_update_curr(c->se.rq);
		if (s->rqs[cpu].curr == se)
			dls_update_curr(&s->rqs[cpu]);
	}
	if (c && !c->is_dl && c->runnable && c->sliced && c->slice_left == 0)
		dlsim_resched(s, cpu);
	if (s->cpus[cpu].fs)
		dlsim_fs_flush(s, cpu); /* a deferred budget its class ran out */
}

static void scan_finish(struct sim *s)
{
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		finish_cpu(s, cpu);
}

/* Timers, wake-ups and hotplug events due now, in (time, sequence) order. */
static void run_due_events(struct sim *s)
{
	struct dls_rb_node *first;

	while ((first = dls_rb_first_cached(&s->queue)) &&
	       !dls_time_after(dls_container_of(first, struct qev, node)->t, s->now)) {
		struct qev *e = dls_container_of(first, struct qev, node);

		q_remove(s, e);
		s->events++;
		if (e->kind == EV_TIMER) {
			struct thread *th = dls_container_of(e, struct thread, timer);

			dls_timer_expired(&th->se.timer);
			if (th->guest)
				dlsim_guest_kick(s, th->guest); /* replenished inside */
		} else if (e->kind == EV_ZERO_LAG) {
			struct thread *th = dls_container_of(e, struct thread, zero_lag);

			dls_timer_expired(&th->se.inactive_timer);
		} else if (e->kind == EV_VCPU_TIMER) {
			struct vcpu *v = dls_container_of(e, struct vcpu, timer);

			dls_timer_expired(&v->g->srv[v->idx].se.timer);
		} else if (e->kind == EV_FS_TIMER || e->kind == EV_FS_DEFER) {
			dlsim_fs_event(s, e);
		} else if (e->kind == EV_HOTPLUG) {
			dlsim_hotplug_apply(s, dls_container_of(e, struct hotplug_ev, q));
		} else {
			dlsim_thread_wake_event(s, dls_container_of(e, struct thread, wake));
		}
	}
}

DLS_INLINE bool must_pick(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];

	return c->need_resched ||
	       (c->curr && (!c->curr->runnable ||
			    (c->curr->is_dl && !c->curr->guest &&
			     s->rqs[cpu].curr != &c->curr->se) ||
			    (c->in_server && s->rqs[cpu].curr != &c->fs->srv.se) ||
			    (c->vcpu && (s->rqs[cpu].curr != &c->vcpu->g->srv[c->vcpu->idx].se ||
					 c->curr->se.rq->curr != &c->curr->se))));
}

/* What a visit of a pick pass did: it only looked (must_pick() and
 * nothing_to_pick() change nothing), it acted (told the CPU's servers, or
 * picked again) and the CPU runs what it ran, or that changed. */
enum visit { VISIT_LOOKED, VISIT_ACTED, VISIT_CHANGED };

/* A pick pass looks at @cpu: its servers are told of what ran and started
 * when they have work, and it picks again if it must (or may, idle). */
DLS_INLINE enum visit visit(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];
	struct thread *before = c->curr;
	enum visit did = VISIT_LOOKED;

	if (c->offline)
		return VISIT_LOOKED;
	if (c->fs || c->nr_vcpus)
		did = VISIT_ACTED;
	if (c->fs)
		dlsim_fs_update(s, cpu);
	if (c->nr_vcpus)
		dlsim_guests_update(s, cpu);
	if (!must_pick(s, cpu) && (c->curr || nothing_to_pick(s, cpu)))
		return did;
	dlsim_cpu_reschedule(s, cpu);
	return c->curr != before ? VISIT_CHANGED : VISIT_ACTED;
}

/* A pass's visits so far: whether one changed what a CPU runs, whether
 * any acted. */
struct pass {
	bool changed, acted;
};

DLS_INLINE void pass_note(struct pass *p, enum visit v)
{
	p->changed |= v == VISIT_CHANGED;
	p->acted |= v != VISIT_LOOKED;
}

/* Lower-class threads left waiting move to CPUs that can run them now
 * (lower.c), which then pick again. */
DLS_INLINE void pass_balance(struct sim *s, struct pass *p)
{
	if (s->nr_lower_waiting) {
		p->acted = true;
		p->changed |= dlsim_lower_balance(s);
	}
}

/*
 * Every CPU that must pick again does. Pushes and pulls may ask CPUs
 * already visited to pick again. An idle CPU tries (and may pull) on every
 * pass, but a pass in which no CPU changed what it runs and none was asked
 * to pick again changed nothing, and neither would the next one.
 */
static void scan_pick(struct sim *s)
{
	for (int pass = 0; pass < 4 * s->nr_cpus + 4; pass++) {
		struct pass p = { false, false };
		bool again;

		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			pass_note(&p, visit(s, cpu));
		pass_balance(s, &p);
		/* (a pass whose visits only looked left every CPU as its
		 * visit found it: none must pick) */
		again = p.changed;
		for (int cpu = 0; cpu < s->nr_cpus && !again && p.acted; cpu++)
			again = !s->cpus[cpu].offline && must_pick(s, cpu);
		if (!again)
			break;
	}
}

/* ---- the per-CPU loop ------------------------------------------------------
 * The same step as the reference loop above, at a cost per event that does
 * not grow with the CPU count. Each CPU's next decision point waits in
 * cpu_queue (the library's rbtree, by (time, CPU)); a CPU is charged (the
 * kernel's update_curr) and looked at only when touched (dlsim_cpu_touch():
 * its own decision point, the library acting on its runqueue, a wake-up or
 * a request to pick again there, an output reading it, the end of the run).
 * A step visits the touched CPUs in CPU order, as the reference loop visits
 * every CPU (a CPU touched by one visited earlier is visited in the same
 * pass; one below, in the next pass, as there), so both give the same
 * output bit for bit (tests/cli: dlsim_loops_agree).
 *
 * Charging in one piece instead of one per step changes nothing on a
 * full-speed CPU. Where it would (rounding per charge: the work on a CPU of
 * capacity below 1024, GRUB's charge, the 2012 overrun rule that forfeits
 * at the first charge past the deadline, a slice that ran out), the CPU is
 * "eager": charged and looked at every step, as in the reference loop. With
 * platform.tick_hz the library's entity is charged at its own CPU's events
 * only (finish_cpu()): the kernel's per-CPU accounting.
 */

static bool cpu_node_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	const struct cpu *x = dls_container_of(a, struct cpu, next_node);
	const struct cpu *y = dls_container_of(b, struct cpu, next_node);

	/* one array: the address orders by CPU id */
	return dls_time_before(x->next_t, y->next_t) || (x->next_t == y->next_t && x < y);
}

static bool cpu_eager(const struct sim *s, const struct cpu *c)
{
	const struct thread *t = c->curr;

	if (!t)
		return false;
	if (c->capacity != CAPACITY_SCALE)
		return true;
	/* its class runs outside a deferred server, which is told at every
	 * step (dlsim_fs_flush()), as in the reference loop: the server's
	 * zero-laxity timer moves with it */
	if (c->fs && !c->in_server && c->fs->srv.state == DLS_SERVER_DEFERRED &&
	    t->runnable && dlsim_fs_serves(s, t))
		return true;
	if (!t->is_dl && c->in_server && !s->tick_ns &&
	    s->dom.cfg.overrun_rule == DLS_OVERRUN_2012)
		return true;
	if (!t->is_dl)
		return t->runnable && t->sliced && !t->slice_left;
	return !s->tick_ns && ((t->se.params.flags & DLS_FLAG_RECLAIM) ||
			       s->dom.cfg.overrun_rule == DLS_OVERRUN_2012);
}

/* Something (other than the overload pull) would make @cpu pick again. */
static bool wants_pick(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];
	const struct dls_rq *rq = &s->rqs[cpu];

	return !c->offline && (must_pick(s, cpu) ||
			       (!c->curr && (rq->curr || rq->nr_running || c->nr_lower)));
}

/* @c's decision point in cpu_queue is @n, or none past @horizon. */
static void cpu_queue_set(struct sim *s, struct cpu *c, uint64_t n, uint64_t horizon)
{
	if (c->next_queued) {
		dls_rb_erase_cached(&c->next_node, &s->cpu_queue);
		c->next_queued = false;
	}
	if (!dls_time_after(n, horizon)) {
		c->next_t = n;
		dls_rb_add_cached(&c->next_node, &s->cpu_queue, cpu_node_less);
		c->next_queued = true;
	}
}

/* @cpu's next decision point, found again after it was touched. */
static void cpu_requeue(struct sim *s, int cpu, uint64_t horizon)
{
	struct cpu *c = &s->cpus[cpu];
	uint64_t n;
	uint64_t bit = WL_CPUSET_BIT(cpu);

	if (c->charged_to != s->now) {
		cpu_charge(s, cpu, c->charged_to, s->now - c->charged_to);
		c->charged_to = s->now;
	}
	/* a decision point at the horizon itself is due in the last step */
	n = cpu_next(s, c, horizon + 1);
	/* a touch that left the decision point where it was keeps its place */
	if (!c->next_queued || c->next_t != n)
		cpu_queue_set(s, c, n, horizon);
	if (cpu_eager(s, c))
		s->eager[WL_CPUSET_WORD(cpu)] |= bit;
	else
		s->eager[WL_CPUSET_WORD(cpu)] &= ~bit;
	/* left to pick again (the passes' bound): looked at next step too */
	if (wants_pick(s, cpu))
		s->touched[WL_CPUSET_WORD(cpu)] |= bit;
}

/* The first CPU from @from on in touched, or also in idle with @idle. */
DLS_INLINE int next_bit(const struct sim *s, int from, bool idle)
{
	size_t w = WL_CPUSET_WORD(from);
	uint64_t bits;

	if (from >= s->nr_cpus)
		return -1;
	bits = s->touched[w] | (idle ? s->idle[w] : 0);
	bits &= ~(WL_CPUSET_BIT(from) - 1); /* from @from on */
	while (!bits) {
		if (++w == s->nr_words)
			return -1;
		bits = s->touched[w] | (idle ? s->idle[w] : 0);
	}
	return (int)(w * 64) + __builtin_ctzll(bits);
}

/* The first touched CPU from @from on, or -1. */
static int next_touched(const struct sim *s, int from)
{
	return next_bit(s, from, false);
}

static void lazy_advance(struct sim *s, uint64_t horizon)
{
	struct dls_rb_node *first = dls_rb_first_cached(&s->queue);
	uint64_t t = horizon;

	for (size_t w = 0; w < s->nr_words; w++) {
		uint64_t bits = s->touched[w];

		s->touched[w] = 0;
		for (; bits; bits &= bits - 1)
			cpu_requeue(s, (int)(w * 64) + __builtin_ctzll(bits), horizon);
	}
	if (first) {
		uint64_t qt = dls_container_of(first, struct qev, node)->t;

		if (dls_time_before(qt, t))
			t = qt;
	}
	first = dls_rb_first_cached(&s->cpu_queue);
	if (first) {
		uint64_t ct = dls_container_of(first, struct cpu, next_node)->next_t;

		if (dls_time_before(ct, t))
			t = ct;
	}
	s->now = t;
	/* the CPUs whose decision point is due, and the eager ones */
	while ((first = dls_rb_first_cached(&s->cpu_queue))) {
		struct cpu *c = dls_container_of(first, struct cpu, next_node);

		if (dls_time_after(c->next_t, t))
			break;
		dls_rb_erase_cached(&c->next_node, &s->cpu_queue);
		c->next_queued = false;
		dlsim_cpu_touch(s, (int)(c - s->cpus));
	}
	for (size_t w = 0; w < s->nr_words; w++)
		for (uint64_t bits = s->eager[w]; bits; bits &= bits - 1)
			dlsim_cpu_touch(s, (int)(w * 64) + __builtin_ctzll(bits));
}

static void lazy_finish(struct sim *s)
{
	for (int cpu = next_touched(s, 0); cpu >= 0; cpu = next_touched(s, cpu + 1))
		finish_cpu(s, cpu);
}


/* The next CPU from @from on the pick passes look at: the touched ones,
 * and while a CPU is overloaded every idle one too, which tries to pull (as
 * in the reference loop, CPU by CPU). A busy CPU nothing touched has
 * nothing to do: nothing asked it to pick again, its thread runs on. */
static int next_pick(const struct sim *s, int from)
{
	return next_bit(s, from, s->dom.smp && s->dom.smp->overload_count);
}

static void lazy_pick(struct sim *s)
{
	for (int pass = 0; pass < 4 * s->nr_cpus + 4; pass++) {
		struct pass p = { false, false };
		bool again;

		for (int cpu = next_pick(s, 0); cpu >= 0; cpu = next_pick(s, cpu + 1))
			pass_note(&p, visit(s, cpu));
		pass_balance(s, &p);
		again = p.changed;
		for (int cpu = next_touched(s, 0); cpu >= 0 && !again && p.acted;
		     cpu = next_touched(s, cpu + 1))
			again = !s->cpus[cpu].offline && must_pick(s, cpu);
		if (!again)
			break;
	}
}

/* After a step: the run stops on a fatal error, a refusal or a broken invariant. */
static bool step_stops(struct sim *s, struct sim_result *res)
{
	const char *broken = NULL;

	if (s->thread_cap && !s->err.code) {
		res->truncated = true; /* summaries cover [0, now) */
		return true;
	}
	if (!s->err.code && s->opt->check) {
		broken = check_all(s);
		if (!broken && !s->err.code && s->dom.smp && s->full_affinity)
			broken = dls_domain_check_global_edf(&s->dom);
		if (broken)
			sim_error(s, DLSIM_EXIT_INVARIANT, "%s", broken);
	}
	switch (s->err.code) {
	case 0:
		return false;
	case DLSIM_EXIT_FAILURE:
		return true; /* sim_run() returns -1 */
	case DLSIM_EXIT_DEADLOCK:
		fprintf(stderr, "dlsim: %s\n", s->err.msg);
		break;
	case DLSIM_EXIT_INVARIANT:
		fprintf(stderr, "dlsim: invariant broken at %llu ns: %s\n",
			(unsigned long long)s->now, s->err.msg);
		break;
	default:
		/* A forked reservation refused by admission stops the run, as
		 * rt-app stops when sched_setattr() fails (sim_spawn() said which). */
		break;
	}
	res->exit_code = s->err.code;
	return true;
}

/* The step loop up to @horizon; returns the time actually simulated. */
static uint64_t run_loop(struct sim *s, uint64_t horizon, struct sim_result *res)
{
	for (uint64_t iter = 1; dls_time_before(s->now, horizon); iter++) {
		if ((s->opt->max_events && s->events >= s->opt->max_events) ||
		    (s->opt->max_steps && iter > s->opt->max_steps)) {
			res->truncated = true; /* summaries cover [0, now) */
			return s->now;
		}
		if (s->scan) {
			scan_advance(s, horizon);
			scan_finish(s);
		} else {
			lazy_advance(s, horizon);
			lazy_finish(s);
		}
		run_due_events(s);
		/* Owners' own keys follow their deadlines (replenishments,
		 * new instances) before anyone picks. */
		if (!sim_stopping(s) && s->mutexes_held)
			for (int i = 0; i < s->nr_threads; i++)
				if (s->threads[i]->nr_held || s->threads[i]->pi.blocked_on)
					dlsim_pi_sync_own(s, s->threads[i]);
		if (!sim_stopping(s) && s->scan)
			scan_pick(s);
		else if (!sim_stopping(s))
			lazy_pick(s);
		if (step_stops(s, res))
			break;
		if (s->progress && !(iter & 1023))
			draw_progress(s, horizon, false);
	}
	return horizon;
}

/* Close what is still open at the end: slices, offline spans, boosts, waits. */
static void close_run(struct sim *s, struct sim_result *res)
{
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		dlsim_cpu_touch(s, cpu); /* charged up to the end */
		dlsim_close_slice(s, cpu);
		if (s->cpus[cpu].offline)
			dlsim_add_offline_span(s, cpu, s->now);
	}
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];

		if (t->boost_on)
			t->boosted_ns += s->now - t->boost_start;
		res->overdue += dlsim_job_overdue(s, t);
		if (t->lock_waiting) {
			/* Still waiting: count the wait so far. */
			uint64_t wt = s->now - t->lock_wait_start;

			t->lock_wait_ns += wt;
			if (wt > t->lock_wait_max)
				t->lock_wait_max = wt;
		}
	}
}

static void collect(const struct sim *s, struct sim_result *res)
{
	res->events = s->events;
	for (size_t i = 0; i < s->nr_hp_log; i++)
		res->stranded += s->hp_log[i].stranded;
	for (int i = 0; i < s->nr_threads; i++) {
		res->jobs += s->threads[i]->jobs;
		res->misses += s->threads[i]->misses;
		res->server_misses += s->threads[i]->server_misses;
		res->boosts += s->threads[i]->boosts;
		res->lock_wait_ns += s->threads[i]->lock_wait_ns;
	}
	for (int cpu = 0; s->fsrv && cpu < s->nr_cpus; cpu++) {
		res->fair_server_ns += s->fsrv[cpu].run_ns;
		res->fair_server_throttles += s->fsrv[cpu].throttles;
	}
}

int sim_run(const struct workload *w, const struct sim_options *opt, FILE *out,
	    struct sim_result *res)
{
	struct sim s;
	uint64_t horizon = horizon_of(w);
	int rc;

	memset(res, 0, sizeof(*res));
	rc = sim_setup(&s, w, opt);
	if (!rc && sim_outputs_start(&s)) {
		res->exit_code = DLSIM_EXIT_IOERR;
	} else if (!rc && !spawn_all(&s)) {
		if (s.err.code == DLSIM_EXIT_FAILURE)
			rc = -1;
		else
			res->exit_code = DLSIM_EXIT_REFUSED;
	} else if (!rc && sim_outputs_open(&s)) {
		/* before simulating: a bad output path fails at once */
		res->exit_code = DLSIM_EXIT_IOERR;
	} else if (!rc) {
		rc = setup_hotplug(&s);
		if (!rc) {
			s.progress = opt->progress && isatty(STDERR_FILENO);
			if (s.progress)
				clock_gettime(CLOCK_MONOTONIC, &s.wall_start);
			horizon = run_loop(&s, horizon, res);
			if (s.late_budgets)
				fprintf(stderr, "dlsim: warning: %llu time%s a reservation's budget was "
					"found spent before its CPU's last charge and was counted from "
					"then on (the per-CPU step loop's guard; the reference loop, "
					"--loop=scan, counts every budget at every step)\n",
					(unsigned long long)s.late_budgets,
					s.late_budgets == 1 ? "" : "s");
		}
		if (!rc && s.err.code == DLSIM_EXIT_FAILURE) {
			rc = -1; /* the outputs are discarded (sim_free) */
		} else if (!rc) {
			if (res->truncated)
				horizon = s.now; /* report the time actually simulated */
			if (s.progress)
				draw_progress(&s, horizon, true);
			close_run(&s, res);
			/* An output that fails ends the run with IOERR unless
			 * it already ends with a status of its own. */
			if (sim_outputs_write(&s, out, horizon) && !res->exit_code)
				res->exit_code = DLSIM_EXIT_IOERR;
		}
	}
	if (rc) {
		/* Only memory fails a run; whatever was allocated is freed. */
		fprintf(stderr, "dlsim: out of memory\n");
		memset(res, 0, sizeof(*res));
	} else {
		collect(&s, res);
	}
	sim_free(&s);
	return rc;
}

void dlsim_print_exit_codes(FILE *f)
{
#define DLSIM_EXIT_LINE(name, code, text) fprintf(f, "  %3d  %s\n", code, text);
	DLSIM_EXIT_CODES(DLSIM_EXIT_LINE)
#undef DLSIM_EXIT_LINE
}
