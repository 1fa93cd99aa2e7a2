/*
 * dlsim sweep: one task set on its own, below the sweep's loop and its
 * analyses (sweep.c, sweep_analysis.c): the order threads are placed in,
 * the admission test the simulator would run, the simulation itself, and
 * the set written as a workload file.
 */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dlsched/analysis.h>
#include <dlsched/sched.h>

#include "sim.h"

static struct dls_params task_params(const struct sweep_task *tk)
{
	return (struct dls_params){ .runtime = tk->runtime_us * 1000,
				    .deadline = tk->deadline_us * 1000,
				    .period = tk->period_us * 1000 };
}

/* C_i T_j against C_j T_i: whole microseconds up to 4194 s fit 64 bits. */
static bool packed_before(const struct sweep_task *a, int ia, const struct sweep_task *b,
			  int ib)
{
	uint64_t x = a->runtime_us * b->period_us, y = b->runtime_us * a->period_us;

	return x != y ? x > y : ia < ib;
}

void sweep_pack_order(const struct sweep_config *c, const struct sweep_task *tasks, int n,
		      int *order)
{
	for (int i = 0; i < n; i++) {
		int k = i;

		/* insertion sort: stable, and sets are small */
		while (c->mode == WL_MODE_PARTITIONED && c->fit == SWEEP_FIT_FFD && k > 0 &&
		       packed_before(&tasks[i], i, &tasks[order[k - 1]], order[k - 1])) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
}

/*
 * The admission test the simulator will run (limit 100%), done here first
 * so that a refused set costs nothing and prints nothing: the domain-wide
 * sum under global scheduling, first fit in packing order otherwise.
 */
static uint32_t cpu_capacity(const struct sweep_config *c, int cpu)
{
	return c->capacity ? c->capacity[cpu] : 1024;
}

static uint64_t cpu_capacity_sum(const struct sweep_config *c)
{
	uint64_t sum = 0;

	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		sum += cpu_capacity(c, cpu);
	return sum;
}

static bool admitted(const struct sweep_config *c, const struct sweep_task *tasks,
		     const int *order)
{
	uint64_t bw[WL_MAX_CPUS] = { 0 };
	bool global = c->mode != WL_MODE_PARTITIONED && c->nr_cpus > 1;
	uint64_t total = 0;

	for (int i = 0; i < c->nr_tasks; i++) {
		struct dls_params p = task_params(&tasks[order[i]]);
		uint64_t b = dls_params_bw(&p);
		int cpu;

		if (global) {
			total += b;
			continue;
		}
		for (cpu = 0; cpu < c->nr_cpus; cpu++)
			if (bw[cpu] + b <= cpu_capacity(c, cpu) * (DLS_BW_UNIT / 1024))
				break;
		if (cpu == c->nr_cpus)
			return false;
		bw[cpu] += b;
	}
	return !global || total <= cpu_capacity_sum(c) * (DLS_BW_UNIT / 1024);
}

/* ---- --guest: the set inside one server --------------------------------- */

int sweep_guest_budget(const struct sweep_config *c, const struct sweep_task *tasks,
		       uint64_t *budget_us, bool *accepted)
{
	uint64_t pi = c->guest_period_us;
	struct dls_params *ts;
	struct dls_analysis_result r;
	int err;

	if (c->guest_set) {
		*budget_us = c->guest_set->budget_us;
		*accepted = c->guest_set->accepted;
		return c->guest_set->err;
	}
	ts = malloc(sizeof(*ts) * (size_t)c->nr_tasks);
	if (!ts)
		return DLS_ENOMEM;
	for (int i = 0; i < c->nr_tasks; i++)
		ts[i] = task_params(&tasks[i]);
	err = dls_analysis_prm_budget(ts, (size_t)c->nr_tasks, pi * 1000, &r);
	free(ts);
	*budget_us = c->guest_budget_us ? c->guest_budget_us : pi;
	*accepted = false;
	if (err) /* DLS_ERANGE: undecided, not accepted */
		return err;
	if (r.schedulable && c->guest_budget_us) {
		*accepted = r.value <= c->guest_budget_us * 1000;
	} else if (r.schedulable) {
		*budget_us = (r.value + 999) / 1000;
		*accepted = *budget_us <= pi;
		if (*budget_us > pi)
			*budget_us = pi;
	}
	return 0;
}

static struct dls_params guest_params(const struct sweep_config *c, uint64_t budget_us)
{
	return (struct dls_params){ .runtime = budget_us * 1000,
				    .deadline = c->guest_period_us * 1000,
				    .period = c->guest_period_us * 1000 };
}

/*
 * The admission the simulator will run for a guest, done first as
 * admitted() is: the server on CPU 0 under the host's 100% limit, then the
 * guest's tasks in start order under the server's bandwidth (the limit
 * dls_server_guest_admit() gives the guest), each at CPU 0's speed.
 */
static bool guest_admitted(const struct sweep_config *c, const struct sweep_task *tasks,
			   const int *order, uint64_t budget_us)
{
	struct dls_params srv = guest_params(c, budget_us);
	struct dls_params *ts = malloc(sizeof(*ts) * (size_t)c->nr_tasks);
	uint32_t cap = cpu_capacity(c, 0);
	struct dls_domain_config cfg;
	struct dls_analysis_result host, guest = { .schedulable = false };

	if (!ts)
		return false;
	for (int i = 0; i < c->nr_tasks; i++)
		ts[i] = task_params(&tasks[order[i]]);
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNIT;
	if (!dls_analysis_cbs_admit(&cfg, &cap, 1, &srv, 1, &host) && host.schedulable) {
		cfg.bw_limit = dls_params_bw(&srv);
		if (dls_analysis_cbs_admit(&cfg, &cap, 1, ts, (size_t)c->nr_tasks, &guest))
			guest.schedulable = false;
	}
	free(ts);
	return guest.schedulable;
}

/* Server "guest" on CPU 0 running every task of @w; @members holds n. */
static int put_in_guest(const struct sweep_config *c, const struct sweep_task *tasks,
			struct workload *w, struct wl_server *srv, size_t *members)
{
	uint64_t budget;
	bool accepted;
	int err = sweep_guest_budget(c, tasks, &budget, &accepted);

	if (err && err != DLS_ERANGE)
		return -1;
	*srv = (struct wl_server){ .name = "guest", .runtime_us = budget,
				   .period_us = c->guest_period_us,
				   .deadline_us = c->guest_period_us,
				   .tasks = members, .nr_tasks = w->nr_tasks };
	wl_cpuset_set(&srv->cpus, 0);
	for (size_t i = 0; i < w->nr_tasks; i++) {
		members[i] = i;
		w->tasks[i].server = 0;
	}
	w->servers = srv;
	w->nr_servers = 1;
	return 0;
}

int sweep_simulate(const struct sweep_config *c, const struct sweep_task *tasks,
		   uint64_t *events)
{
	return sweep_simulate_unadmitted(c, tasks, events, false);
}

int sweep_simulate_unadmitted(const struct sweep_config *c, const struct sweep_task *tasks,
			      uint64_t *events, bool no_admission)
{
	int n = c->nr_tasks;
	struct wl_task *wt = calloc((size_t)n, sizeof(*wt));
	struct wl_phase *ph = calloc((size_t)n, sizeof(*ph));
	struct wl_event *ev = calloc(2 * (size_t)n, sizeof(*ev));
	char (*names)[16] = calloc((size_t)n, sizeof(*names));
	int *order = calloc((size_t)n, sizeof(*order));
	struct sim_options opt = { .quiet = true, .check = c->check,
				   .bw_limit = no_admission ? DLS_BW_UNLIMITED : DLS_BW_UNIT };
	struct sim_result res;
	struct workload *w = calloc(1, sizeof(*w));
	size_t *members = calloc((size_t)n, sizeof(*members));
	struct wl_server srv;
	int rc = -1;

	if (!wt || !ph || !ev || !names || !w || !order || !members)
		goto out;
	/* threads start, and are placed, in packing order */
	sweep_pack_order(c, tasks, n, order);
	if (!no_admission && !c->guest_period_us && !admitted(c, tasks, order)) {
		rc = 0;
		goto out;
	}
	w->duration_s = -1;
	w->default_policy = WL_OTHER;
	w->admission = -1; /* opt.bw_limit gives the limit */
	w->nr_cpus = c->nr_cpus;
	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		w->cpus[cpu].capacity = cpu_capacity(c, cpu);
	w->horizon_us = (int64_t)c->horizon_us;
	w->seed = c->seed;
	w->mode = c->mode;
	w->tasks = wt;
	w->nr_tasks = (size_t)n;
	for (int i = 0; i < n; i++) {
		const struct sweep_task *tk = &tasks[order[i]];

		snprintf(names[i], sizeof(names[i]), "t%d", order[i]);
		ev[2 * i] = (struct wl_event){ .type = WL_RUN, .key = "run",
					       .us = (int64_t)tk->runtime_us };
		ev[2 * i + 1] = (struct wl_event){ .type = WL_TIMER, .key = "timer",
						   .us = (int64_t)tk->period_us,
						   .ref = "unique", .absolute = true };
		ph[i] = (struct wl_phase){ .name = names[i], .loop = 1,
					   .events = &ev[2 * i], .nr_events = 2 };
		wt[i] = (struct wl_task){
			.name = names[i], .instance = 1, .loop = -1,
			/* a job's own deadline is D, not the timer's period */
			.job_deadline_us = (int64_t)tk->deadline_us,
			.sched = { .set = true, .policy = WL_DEADLINE,
				   .dl_runtime_us = tk->runtime_us,
				   .dl_period_us = tk->period_us,
				   .dl_deadline_us = tk->deadline_us },
			.phases = &ph[i], .nr_phases = 1, .server = -1,
		};
	}
	if (c->guest_period_us) {
		if (put_in_guest(c, tasks, w, &srv, members))
			goto out;
		if (!no_admission && !guest_admitted(c, tasks, order, srv.runtime_us)) {
			rc = SWEEP_REFUSED;
			goto out;
		}
	}
	if (sim_run(w, &opt, stdout, &res) == 0) {
		*events += res.events;
		rc = res.exit_code == 0 && res.misses == 0 && res.overdue == 0;
		if (res.exit_code == DLSIM_EXIT_REFUSED && c->guest_period_us)
			rc = SWEEP_REFUSED;
		if (res.exit_code == 3)
			rc = -1;
	}
out:
	free(members);
	free(order);
	free(w);
	free(names);
	free(ev);
	free(ph);
	free(wt);
	return rc;
}

/* --guest: the servers section, every task in the one server. */
static int write_guest(const struct sweep_config *c, const struct sweep_task *tasks, FILE *f,
		       const int *order)
{
	uint64_t budget;
	bool accepted;

	int err = sweep_guest_budget(c, tasks, &budget, &accepted);

	if (err && err != DLS_ERANGE) {
		errno = ENOMEM;
		return -1;
	}
	fprintf(f, "\t\"servers\": {\n\t\t\"guest\": { \"runtime\": %llu, \"deadline\": %llu, "
		"\"period\": %llu, \"cpus\": [0],\n\t\t\t\"tasks\": [",
		(unsigned long long)budget, (unsigned long long)c->guest_period_us,
		(unsigned long long)c->guest_period_us);
	for (int k = 0; k < c->nr_tasks; k++)
		fprintf(f, "%s\"t%d\"", k ? ", " : " ", order[k]);
	fprintf(f, " ] }\n\t}\n");
	return 0;
}

static int write_taskset(const struct sweep_config *c, const struct sweep_task *tasks,
			 double util, FILE *f, int *order)
{
	char u[32];

	sweep_pack_order(c, tasks, c->nr_tasks, order);
	json_number_text(u, sizeof(u), util); /* 0.05, not 0.050000000000000003 */
	fprintf(f, "// dlsim sweep: %d tasks, total utilisation %s (%s), seed %llu.\n"
		"// The simulation section reproduces the sweep's verdict: `dlsim sweep`\n"
		"// admits up to 100%% per CPU, as \"admission\": 100 tells `dlsim FILE`.\n",
		c->nr_tasks, u, c->gen == SWEEP_UUNIFAST ? "UUniFast-discard" : "Randfixedsum",
		(unsigned long long)c->seed);
	if (c->guest_period_us)
		fprintf(f, "// Every task runs in server \"guest\" on CPU 0: period = deadline %llu "
			"us,\n// %s.\n", (unsigned long long)c->guest_period_us,
			c->guest_budget_us ? "runtime as --guest gave it" : "runtime theta_min of "
			"the periodic resource model, rounded up to a whole us\n// (the whole "
			"period when no budget passes it)");
	if (c->mode == WL_MODE_PARTITIONED && c->fit == SWEEP_FIT_FFD)
		fprintf(f, "// Tasks in decreasing utilisation: dlsim packs them first fit in "
			"file order.\n");
	fprintf(f, "{\n\t\"platform\": { \"cpus\": %d", c->nr_cpus);
	if (c->capacity)
		for (int cpu = 0; cpu < c->nr_cpus; cpu++)
			fprintf(f, "%s%u", cpu ? ", " : ", \"capacity\": [ ", c->capacity[cpu]);
	fprintf(f, "%s },\n", c->capacity ? " ]" : "");
	fprintf(f, "\t\"simulation\": { \"horizon_us\": %llu, \"mode\": \"%s\", "
		"\"admission\": 100 },\n",
		(unsigned long long)c->horizon_us,
		c->mode == WL_MODE_PARTITIONED ? "partitioned" : "global");
	fprintf(f, "\t\"tasks\": {\n");
	for (int k = 0; k < c->nr_tasks; k++) {
		int i = order[k];
		const struct sweep_task *t = &tasks[i];

		fprintf(f, "\t\t\"t%d\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, "
			"\"dl-deadline\": %llu, \"dl-period\": %llu, \"job-deadline\": %llu,\n"
			"\t\t\t\"run\": %llu, "
			"\"timer\": { \"ref\": \"unique\", \"period\": %llu, \"mode\": \"absolute\" } "
			"}%s\n", i, (unsigned long long)t->runtime_us,
			(unsigned long long)t->deadline_us, (unsigned long long)t->period_us,
			(unsigned long long)t->deadline_us,
			(unsigned long long)t->runtime_us, (unsigned long long)t->period_us,
			k + 1 < c->nr_tasks ? "," : "");
	}
	fprintf(f, "\t}%s\n", c->guest_period_us ? "," : "");
	if (c->guest_period_us && write_guest(c, tasks, f, order))
		return -1;
	fprintf(f, "}\n");
	return ferror(f) ? -1 : 0;
}

int sweep_write_taskset(const struct sweep_config *c, const struct sweep_task *tasks,
			double util, const char *path)
{
	char tmp[4200];
	int *order = malloc(sizeof(*order) * (size_t)(c->nr_tasks ? c->nr_tasks : 1));
	int fd, err = 0, slot;
	FILE *f = NULL;

	if (!order)
		return -1;
	/* Beside the final name, then renamed: never a half-written set. It
	 * is named for removal at a second signal before it exists. */
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	slot = sweep_temp_claim(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd >= 0 && !(f = fdopen(fd, "w"))) {
		err = errno;
		close(fd);
	}
	if (fd < 0)
		err = errno;
	if (f) {
		errno = 0;
		if (write_taskset(c, tasks, util, f, order) || fflush(f))
			err = errno ? errno : EIO;
		if (fclose(f) && !err)
			err = errno;
		if (!err && rename(tmp, path))
			err = errno;
		if (err)
			unlink(tmp);
	}
	sweep_temp_release(slot);
	free(order);
	errno = err;
	return err ? -1 : 0;
}
