/*
 * dlsim's output interface (output.h) and the summary table.
 */
#include "output.h"

#include <errno.h>
#include <string.h>

/* The writers the options ask for, in the order they run; a NULL path is
 * the summary's stream. */
static size_t chosen(const struct sim_options *opt, const struct sim_writer **w,
		     const char **path)
{
	size_t n = 0;

	if (!opt->quiet) {
		w[n] = &sim_summary_writer;
		path[n++] = NULL;
	}
	if (opt->json_path) {
		w[n] = &sim_json_writer;
		path[n++] = opt->json_path;
	}
	if (opt->trace_path) {
		w[n] = &sim_trace_writer;
		path[n++] = opt->trace_path;
	}
	if (opt->svg_path) {
		w[n] = &sim_svg_writer;
		path[n++] = opt->svg_path;
	}
	if (opt->jobs_path) {
		w[n] = &sim_jobs_writer;
		path[n++] = opt->jobs_path;
	}
	return n;
}

#define MAX_WRITERS MAX_OUTPUTS

void sim_outputs_plan(struct sim *s)
{
	const struct sim_writer *w[MAX_WRITERS];
	const char *path[MAX_WRITERS];
	size_t n = chosen(s->opt, w, path);

	for (size_t i = 0; i < n; i++) {
		s->timeline |= w[i]->timeline;
		s->samples |= w[i]->samples;
		s->job_log |= w[i]->jobs;
		s->budget_log |= w[i]->budget;
	}
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

int sim_outputs_open(struct sim *s)
{
	const struct sim_writer *w[MAX_WRITERS];
	const char *path[MAX_WRITERS];
	size_t n = chosen(s->opt, w, path);

	for (size_t i = 0; i < n; i++)
		if (path[i] && out_file_open(&s->outs[i], "dlsim", path[i])) {
			sim_outputs_discard(s);
			return -1;
		}
	return 0;
}

int sim_outputs_write(struct sim *s, FILE *out, uint64_t horizon)
{
	const struct sim_writer *w[MAX_WRITERS];
	const char *path[MAX_WRITERS];
	size_t n = chosen(s->opt, w, path);
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		struct out_file *o = &s->outs[i];

		if (!path[i]) {
			w[i]->write(s, out, horizon);
			continue;
		}
		if (!o->f) {
			rc = -1; /* not opened: sim_outputs_open() said why */
			continue;
		}
		w[i]->write(s, o->f, horizon);
		if (out_file_commit(o, "dlsim"))
			rc = -1;
	}
	return rc;
}

void sim_outputs_discard(struct sim *s)
{
	for (size_t i = 0; i < MAX_WRITERS; i++)
		out_file_discard(&s->outs[i]);
}

/* ---- helpers ------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t out_p99(struct thread *t)
{
	if (!t->nr_resp)
		return 0;
	qsort(t->resp, t->nr_resp, sizeof(*t->resp), cmp_u64);
	return t->resp[(t->nr_resp * 99 + 99) / 100 - 1];
}

double out_energy_mj(const struct sim *s, int cpu, uint64_t horizon)
{
	const struct wl_cpu *wc = &s->w->cpus[cpu];
	uint64_t busy = s->cpus[cpu].busy_ns;
	uint64_t idle = horizon - busy - s->cpus[cpu].offline_ns; /* offline: no power */

	return (wc->power_busy_mw * (double)busy + wc->power_idle_mw * (double)idle) / 1e9;
}

/*
 * Thread names come from the workload's keys: escape them for JSON (quote,
 * backslash, control characters) or XML (markup characters). @buf holds at
 * least 6 bytes per input byte plus one.
 */
const char *out_esc(char *buf, size_t size, const char *str, bool xml)
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

const char *out_csv_name(char *buf, size_t size, const char *str)
{
	size_t n = 0;

	for (; *str && n + 3 < size; str++) {
		if (*str == '"')
			buf[n++] = '"';
		buf[n++] = *str;
	}
	buf[n] = 0;
	return buf;
}

int64_t out_lateness(const struct job_rec *j)
{
	return (int64_t)(j->end - j->deadline);
}

const char *out_cpu_list(char *buf, size_t size, uint64_t bits, const char *sep)
{
	size_t n = 0;

	buf[0] = 0;
	for (int cpu = 0; cpu < 64 && n + 24 < size; cpu++)
		if (bits & (UINT64_C(1) << cpu))
			n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? sep : "", cpu);
	return buf;
}

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

/* ---- summary ------------------------------------------------------------ */

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

static void write_summary(struct sim *s, FILE *out, uint64_t horizon)
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
	fprintf(out, "total: %llu jobs, %llu deadline misses, %llu scheduling events, "
		"%.2f mJ\n", (unsigned long long)jobs, (unsigned long long)misses,
		(unsigned long long)s->events, energy);
}


const struct sim_writer sim_summary_writer = {
	.samples = true,
	.write = write_summary,
};
