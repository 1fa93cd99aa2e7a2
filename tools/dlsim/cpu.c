/*
 * dlsim's CPUs: picking again (the library's dls_schedule() for the
 * deadline class, then the lower classes by priority), the run slices the
 * outputs draw, and hotplug.
 *
 * Hotplug: at the times the simulation section gives, a CPU leaves with
 * dls_cpu_offline() (global mode) and comes back with dls_cpu_online();
 * entities with nowhere to go stay stranded on it and are reported. In
 * partitioned mode every deadline entity of the CPU is stranded. Threads
 * of the lower classes move to the least crowded online CPU they may use,
 * or stay stranded likewise.
 */
#include "sim_impl.h"

#include <string.h>

void dlsim_close_slice(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];

	if (!c->curr || c->slice_start == s->now)
		return;
	if (s->slices)
		sim_emit_slice(s, &(struct slice){ cpu, c->curr->id, c->slice_start, s->now,
						   c->in_server ? 0 : c->vcpu ? c->vcpu->g->id + 1 : -1 });
	c->slice_start = s->now;
}

void dlsim_cpu_reschedule(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];
	struct thread *prev = c->curr, *next = NULL;
	struct dls_entity *se;
	bool in = false; /* next runs inside the CPU's fair server */
	struct vcpu *nv = NULL; /* or inside a vCPU's server */

	dlsim_cpu_touch(s, cpu); /* charged up to now before it switches */
	/* A fair or rt thread goes back to its queue (lower.c); a deadline
	 * thread only when it left the fair class for it (a boost). */
	if (prev && (!prev->is_dl || prev->fair_queued))
		dlsim_lower_put_prev(s, cpu, prev);
	if (c->fs || c->nr_vcpus) {
		/* through the servers: a fair server may run a lower-class
		 * thread, a vCPU's server a thread of its guest */
		void *what;

		dlsim_fs_flush(s, cpu);
		se = dls_server_schedule(&s->rqs[cpu], &what);
		nv = se ? dlsim_vcpu_of(se) : NULL;
		in = se && !nv && dls_server_of(se);
		if (nv) {
			next = dls_container_of(what, struct thread, se);
		} else if (in)
			next = what;
		else if (se)
			next = dls_container_of(se, struct thread, se);
		else if (c->nr_lower)
			next = dlsim_lower_pick(s, cpu);
	} else {
		se = dls_schedule(&s->rqs[cpu]);
		if (se)
			next = dls_container_of(se, struct thread, se);
		else if (c->nr_lower)
			next = dlsim_lower_pick(s, cpu);
	}
	if (next == prev && (in != c->in_server || nv != c->vcpu)) {
		/* the same thread, now inside its server or out of it: a
		 * slice of its own on the chart */
		dlsim_close_slice(s, cpu);
		c->slice_start = s->now;
	}
	if (next != prev) {
		/* A thread switched out in the instant it was given the CPU
		 * (or began a job) never ran: no preemption. */
		bool ran = c->slice_start != s->now;

		s->lower_dirty = true;
		dlsim_close_slice(s, cpu);
		c->slice_start = s->now;
		if (prev && prev->runnable && !prev->exited && ran) {
			prev->preemptions++;
			prev->job_preemptions++;
		}
		if (prev && prev->is_dl)
			dlsim_add_budget_sample(s, prev->id, prev->se.runtime, prev->se.deadline);
		s->events++;
	}
	dlsim_cpu_set_curr(s, cpu, next);
	c->in_server = in;
	c->vcpu = nv;
	c->need_resched = false;
	if (next && next != prev) {
		if (next->last_cpu >= 0 && next->last_cpu != cpu) {
			dlsim_add_mark(s, cpu, next->id, "migration");
			next->job_migrations++;
			next->migrations++;
		}
		next->last_cpu = cpu;
		if (next->is_dl)
			dlsim_add_budget_sample(s, next->id, next->se.runtime, next->se.deadline);
	}
}


/* ---- hotplug ---------------------------------------------------------- */

/* CPU @cpu was offline from its offline_since up to @end. */
void dlsim_add_offline_span(struct sim *s, int cpu, uint64_t end)
{
	struct cpu *c = &s->cpus[cpu];

	c->offline_ns += end - c->offline_since;
	GROW(s->spans, s->nr_spans, s->cap_spans, { sim_oom(s); return; });
	s->spans[s->nr_spans++] = (struct span){ cpu, c->offline_since, end };
}

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
	dlsim_add_mark(s, se->rq->cpu, t->id, "stranded");
}

int dlsim_cpu_least_crowded(const struct sim *s, const struct wl_cpuset *allowed)
{
	int best = -1;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!wl_cpuset_allows(allowed, cpu) || s->cpus[cpu].offline)
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
	dlsim_close_slice(s, cpu);
	dlsim_lower_put_prev(s, cpu, prev);
	dlsim_cpu_set_curr(s, cpu, NULL);
	c->offline = true;
	c->offline_since = s->now;
	dlsim_add_mark(s, cpu, -1, "offline");
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];
		int target;

		if (t->is_dl || t->exited || t->cpu != cpu)
			continue;
		target = dlsim_cpu_least_crowded(s, &t->allowed); /* its current phase's CPUs */
		if (target < 0) {
			t->stranded = true;
			l->stranded++;
			log_name(l, t->name);
			dlsim_add_mark(s, cpu, t->id, "stranded");
			continue;
		}
		dlsim_lower_move(s, t, target);
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
	dlsim_add_offline_span(s, cpu, s->now);
	c->slice_start = s->now;
	dlsim_add_mark(s, cpu, -1, "online");
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
				dlsim_dl_boost_start(s, t);
		}
	}
	dlsim_resched(s, (int)(c - s->cpus));
	if (s->dom.smp)
		dls_balance(&s->dom);
}

void dlsim_hotplug_apply(struct sim *s, const struct hotplug_ev *h)
{
	const struct wl_hotplug *wh = &s->w->hotplug[h->idx];
	struct hotplug_log *l = &s->hp_log[s->nr_hp_log++];

	memset(l, 0, sizeof(*l));
	l->t = s->now;
	l->cpu = wh->cpu;
	l->online = wh->online;
	s->hp_cur = l;
	s->lower_dirty = true;
	/* Hotplug moves threads between any CPUs: every CPU is charged up
	 * to now before, and looked at again after (a rare event). */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		dlsim_cpu_touch(s, cpu);
	if (wh->online)
		cpu_up(s, wh->cpu, l);
	else
		cpu_down(s, wh->cpu, l);
	s->hp_cur = NULL;
}

