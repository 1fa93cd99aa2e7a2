/* dlsim --json: per-thread, per-CPU and hotplug statistics, and every job
 * (written as the run goes, appended at the end). */
#include "output.h"

#include <inttypes.h>

/* One object per completed job, the columns of --jobs, into section 0;
 * each but the first after a comma (the last has none). */
static void json_job(struct sim_sink *k, const struct sim *s, const struct job_rec *j)
{
	char e[ESC_SIZE], cpus[OUT_CPU_LIST_SIZE];
	FILE *f = k->part[0];

	fprintf(f, "%s    {\"thread\": \"%s\", \"job\": %" PRIu64 ", \"release_ns\": %" PRIu64
		", \"start_ns\": ", k->n[0] ? ",\n" : "",
		out_esc(e, sizeof(e), s->threads[j->thread]->name, false), j->index, j->release);
	if (j->ran)
		fprintf(f, "%" PRIu64, j->start);
	else
		fprintf(f, "null");
	fprintf(f, ", \"end_ns\": %" PRIu64 ", \"deadline_ns\": %" PRIu64
		", \"server_deadline_ns\": ", j->end, j->deadline);
	if (j->has_server)
		fprintf(f, "%" PRIu64, j->server_deadline);
	else
		fprintf(f, "null");
	fprintf(f, ", \"response_ns\": %" PRIu64 ", \"lateness_ns\": %" PRId64
		", \"cpus\": [%s], \"preemptions\": %u, \"migrations\": %u, "
		"\"throttles\": %u}", j->end - j->release, out_lateness(j),
		out_cpu_list(cpus, sizeof(cpus), &j->cpus, ", "), j->preemptions,
		j->migrations, j->throttles);
	k->n[0]++;
}

/* platform.fair_server: one object per CPU's server (only with one). */
static void write_fair_servers(const struct sim *s, FILE *f)
{
	const struct wl_fair_server *w = &s->w->fair_server;

	if (!s->fsrv)
		return;
	fprintf(f, "  ],\n  \"fair_servers\": [\n");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct fair_srv *fs = &s->fsrv[cpu];

		fprintf(f, "    {\"cpu\": %d, \"runtime_ns\": %llu, \"period_ns\": %llu, "
			"\"defer\": %s, \"serve\": \"%s\", \"run_ns\": %llu, \"throttles\": %llu, "
			"\"replenishments\": %llu, \"starts\": %llu, \"defers\": %llu, "
			"\"zero_laxity_runs\": %llu, \"background_ns\": %llu}%s\n", cpu,
			(unsigned long long)(w->runtime_us * 1000),
			(unsigned long long)(w->period_us * 1000), w->defer ? "true" : "false",
			w->serve == WL_SERVE_RT ? "rt" : "fair", (unsigned long long)fs->run_ns,
			(unsigned long long)fs->throttles, (unsigned long long)fs->replenishes,
			(unsigned long long)fs->srv.stats.starts,
			(unsigned long long)fs->srv.stats.defers,
			(unsigned long long)fs->srv.stats.defer_runs,
			(unsigned long long)fs->srv.stats.background_ns,
			cpu + 1 < s->nr_cpus ? "," : "");
	}
}

/* The "servers" section: one object per vCPU server (only with servers). */
static void write_guests(const struct sim *s, FILE *f)
{
	char e[ESC_SIZE];
	bool first = true;

	if (!s->nr_guests)
		return;
	fprintf(f, "  ],\n  \"servers\": [\n");
	for (int i = 0; i < s->nr_guests; i++) {
		const struct guest *g = &s->guests[i];

		for (int v = 0; v < g->nr; v++) {
			fprintf(f, "%s    {\"name\": \"%s\", \"vcpu\": %d, \"cpu\": %d, "
				"\"runtime_ns\": %llu, \"deadline_ns\": %llu, \"period_ns\": %llu, "
				"\"run_ns\": %llu, \"throttles\": %llu, \"replenishments\": %llu, "
				"\"starts\": %llu, \"picks\": %llu, \"empty_picks\": %llu}",
				first ? "" : ",\n", out_esc(e, sizeof(e), g->w->name, false), v,
				g->vc[v].host, (unsigned long long)(g->w->runtime_us * 1000),
				(unsigned long long)(g->w->deadline_us * 1000),
				(unsigned long long)(g->w->period_us * 1000),
				(unsigned long long)g->vc[v].run_ns,
				(unsigned long long)g->vc[v].throttles,
				(unsigned long long)g->vc[v].replenishes,
				(unsigned long long)g->srv[v].stats.starts,
				(unsigned long long)g->srv[v].stats.picks,
				(unsigned long long)g->srv[v].stats.empty_picks);
			first = false;
		}
	}
	fprintf(f, "\n");
}

static int write_json(struct sim_sink *k, struct sim *s, FILE *f, uint64_t horizon)
{
	char e[ESC_SIZE];
	int err;

	fprintf(f, "{\n  \"horizon_ns\": %llu,\n  \"threads\": [\n", (unsigned long long)horizon);
	for (int i = 0; i < s->nr_threads; i++) {
		struct thread *t = s->threads[i];

		char srv[ESC_SIZE + 16] = "";

		if (t->guest)
			snprintf(srv, sizeof(srv), " \"server\": \"%s\",",
				 out_esc(e, sizeof(e), t->guest->w->name, false));
		fprintf(f, "    {\"name\": \"%s\", \"policy\": \"%s\",%s%s \"cpu\": %d, \"jobs\": %llu, "
			"\"misses\": %llu, \"resp_max_ns\": %llu, \"resp_p99_ns\": %llu, "
			"\"max_lateness_ns\": %llu, \"throttles\": %llu, \"preemptions\": %llu, "
			"\"run_ns\": %llu, \"lock_acquires\": %llu, \"lock_wait_ns\": %llu, "
			"\"lock_wait_max_ns\": %llu, \"boosts\": %llu, \"boosted_ns\": %llu, "
			"\"server_misses\": %llu}%s\n",
			out_esc(e, sizeof(e), t->name, false), wl_policy_name(t->task->sched.policy),
			t->policy_changed ? " \"policy_changed\": true," : "", srv, tcpu(t),
			(unsigned long long)t->jobs, (unsigned long long)t->misses,
			(unsigned long long)t->resp_max, (unsigned long long)out_p99(t),
			(unsigned long long)t->max_lateness,
			(unsigned long long)t->se.stats.throttles,
			(unsigned long long)t->preemptions, (unsigned long long)t->run_ns,
			(unsigned long long)t->lock_acquires, (unsigned long long)t->lock_wait_ns,
			(unsigned long long)t->lock_wait_max, (unsigned long long)t->boosts,
			(unsigned long long)t->boosted_ns, (unsigned long long)t->server_misses,
			i + 1 < s->nr_threads ? "," : "");
	}
	fprintf(f, "  ],\n  \"cpus\": [\n");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "    {\"cpu\": %d, \"capacity\": %u, \"busy_ns\": %llu, "
			"\"offline_ns\": %llu, \"energy_mj\": %.3f}%s\n",
			cpu, s->cpus[cpu].capacity, (unsigned long long)s->cpus[cpu].busy_ns,
			(unsigned long long)s->cpus[cpu].offline_ns,
			out_energy_mj(s, cpu, horizon), cpu + 1 < s->nr_cpus ? "," : "");
	fprintf(f, "  ],\n  \"hotplug\": [\n");
	for (size_t i = 0; i < s->nr_hp_log; i++) {
		const struct hotplug_log *l = &s->hp_log[i];

		fprintf(f, "    {\"at_ns\": %llu, \"cpu\": %d, \"online\": %s, \"refused\": %s%s%s, "
			"\"moved_deadline\": %u, \"moved_other\": %u, \"stranded\": %u, "
			"\"back\": %u, \"threads\": \"%s\"}%s\n", (unsigned long long)l->t, l->cpu,
			l->online ? "true" : "false", l->refused ? "\"" : "",
			l->refused ? l->refused : "null", l->refused ? "\"" : "", l->moved_dl,
			l->moved_other, l->stranded, l->back, out_esc(e, sizeof(e), l->names, false),
			i + 1 < s->nr_hp_log ? "," : "");
	}
	write_fair_servers(s, f);
	write_guests(s, f);
	fprintf(f, "  ],\n  \"jobs\": [\n");
	if ((err = out_part_copy(k, 0, f)))
		return err;
	fprintf(f, "%s  ]\n}\n", k->n[0] ? "\n" : "");
	return 0;
}

const struct sim_writer sim_json_writer = {
	.samples = true,
	.jobs = true,
	.nr_parts = 1,
	.on_job = json_job,
	.finish = write_json,
};
