/* dlsim's summary table (stdout unless --quiet). */
#include "output.h"

/*
 * Threads whose reservation's deadline passed a different number of times
 * than their jobs' own deadlines (a server period other than the job's):
 * one line, printed only when some thread differs.
 */
static void write_server_passes(const struct sim *s, FILE *out)
{
	bool any = false;

	for (int i = 0; i < s->nr_threads; i++) {
		const struct thread *t = s->threads[i];

		if (!t->dl_policy || t->server_misses == t->misses)
			continue;
		fprintf(out, "%s %s %llu", any ? "," : "server deadline passes (jobs ending "
			"after their reservation's deadline, not their own):", t->name,
			(unsigned long long)t->server_misses);
		any = true;
	}
	if (any)
		fprintf(out, "\n");
}

/* Whether the workload has a deadline task or phase (forked tasks included). */
static bool has_deadline_tasks(const struct workload *w)
{
	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		if (t->sched.policy == WL_DEADLINE)
			return true;
		for (size_t p = 0; p < t->nr_phases; p++)
			if (t->phases[p].sched.set && t->phases[p].sched.policy == WL_DEADLINE)
				return true;
	}
	return false;
}

/* The first line: the platform, the horizon, how deadline tasks are placed. */
static void write_heading(const struct sim *s, FILE *out, uint64_t horizon)
{
	fprintf(out, "dlsim: %d CPUs, %d threads, %.3f s simulated, ", s->nr_cpus,
		s->nr_threads, (double)horizon / 1e9);
	if (!has_deadline_tasks(s->w)) {
		fprintf(out, "no deadline tasks\n");
		return;
	}
	fprintf(out, "deadline tasks %s%s\n",
		!s->dom.smp ? "partitioned" : s->w->mode == WL_MODE_CLUSTERED ? "under clustered EDF"
									 : "under global EDF",
		s->w->mode_given || s->nr_cpus == 1 ? ""
			: " (no simulation.mode: global, as Linux's root domain)");
}

/* platform.fair_server: what each CPU's server did. */
static void write_fair_servers(const struct sim *s, FILE *out)
{
	const struct wl_fair_server *w = &s->w->fair_server;

	if (!s->fsrv)
		return;
	fprintf(out, "fair server: %.3f ms every %.3f ms on each CPU, %s, serving %s\n",
		(double)w->runtime_us / 1e3, (double)w->period_us / 1e3,
		w->defer ? "deferred (Linux 6.12+)" : "not deferred (Linux 6.8)",
		w->serve == WL_SERVE_RT ? "the SCHED_FIFO/RR threads" : "the fair class");
	fprintf(out, "%-6s %12s %8s %8s %10s %12s\n", "cpu", "ran_inside", "throttle",
		"starts", "zero_lax", "background");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct fair_srv *fs = &s->fsrv[cpu];

		fprintf(out, "%-6d %10.3fms %8llu %8llu %10llu %10.3fms\n", cpu,
			(double)fs->run_ns / 1e6, (unsigned long long)fs->throttles,
			(unsigned long long)fs->srv.stats.starts,
			(unsigned long long)fs->srv.stats.defer_runs,
			(double)fs->srv.stats.background_ns / 1e6);
	}
}

/* The "servers" section: what each vCPU's server did, and its tasks. */
static void write_guests(const struct sim *s, FILE *out)
{
	if (!s->nr_guests)
		return;
	fprintf(out, "%-12s %4s %3s %17s %12s %8s %8s  %s\n", "server", "vcpu", "cpu",
		"budget/period", "ran_inside", "throttle", "starts", "tasks");
	for (int i = 0; i < s->nr_guests; i++) {
		const struct guest *g = &s->guests[i];

		for (int v = 0; v < g->nr; v++) {
			char budget[40];

			snprintf(budget, sizeof(budget), "%.3f/%.3fms",
				 (double)g->w->runtime_us / 1e3, (double)g->w->period_us / 1e3);
			fprintf(out, "%-12s %4d %3d %17s %10.3fms %8llu %8llu  ", g->w->name, v,
				g->vc[v].host, budget, (double)g->vc[v].run_ns / 1e6,
				(unsigned long long)g->vc[v].throttles,
				(unsigned long long)g->srv[v].stats.starts);
			for (size_t k = 0; k < g->w->nr_tasks; k++)
				fprintf(out, "%s%s", k ? ", " : "",
					s->w->tasks[g->w->tasks[k]].name);
			fprintf(out, "\n");
		}
	}
}

static int write_summary(struct sim_sink *k, struct sim *s, FILE *out, uint64_t horizon)
{
	uint64_t jobs = 0, misses = 0;
	double energy = 0;
	bool changed = false;

	write_heading(s, out, horizon);
	fprintf(out, "%-20s %-14s %3s %7s %6s %10s %10s %10s %10s %8s %7s %5s\n", "thread",
		"policy", "cpu", "jobs", "misses", "resp_max", "resp_mean", "resp_p99",
		"lateness", "throttle", "preempt", "migr");
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];
		char policy[20];

		jobs += t->jobs;
		misses += t->misses;
		changed |= t->policy_changed;
		snprintf(policy, sizeof(policy), "%s%s", wl_policy_name(t->task->sched.policy),
			 t->policy_changed ? "+" : "");
		fprintf(out, "%-20s %-14s %3d %7llu %6llu %8.3fms %8.3fms %8.3fms %8.3fms %8llu %7llu %5llu\n",
			t->name, policy, tcpu(t),
			(unsigned long long)t->jobs, (unsigned long long)t->misses,
			(double)t->resp_max / 1e6,
			t->jobs ? (double)t->resp_sum / (double)t->jobs / 1e6 : 0.0,
			(double)out_p99(t) / 1e6, (double)t->max_lateness / 1e6,
			(unsigned long long)t->se.stats.throttles,
			(unsigned long long)t->preemptions,
			(unsigned long long)t->migrations);
	}
	if (changed)
		fprintf(out, "+ a phase changed the thread's policy during the run (the "
			"task's policy is shown; --json says \"policy_changed\")\n");
	fprintf(out, "%-6s %8s %8s %10s %10s\n", "cpu", "capacity", "util", "idle", "energy");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		double util = horizon ? (double)s->cpus[cpu].busy_ns / (double)horizon : 0;
		double e = out_energy_mj(s, cpu, horizon);
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
	write_server_passes(s, out);
	write_fair_servers(s, out);
	write_guests(s, out);
	fprintf(out, "total: %llu jobs, %llu deadline misses, %llu scheduling events, "
		"%.2f mJ\n", (unsigned long long)jobs, (unsigned long long)misses,
		(unsigned long long)s->events, energy);
	(void)k;
	return 0;
}

const struct sim_writer sim_summary_writer = {
	.samples = true,
	.finish = write_summary,
};
