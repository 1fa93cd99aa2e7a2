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
	int rc = -1;

	if (!wt || !ph || !ev || !names || !w || !order)
		goto out;
	/* threads start, and are placed, in packing order */
	sweep_pack_order(c, tasks, n, order);
	if (!no_admission && !admitted(c, tasks, order)) {
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
			.phases = &ph[i], .nr_phases = 1,
		};
	}
	if (sim_run(w, &opt, stdout, &res) == 0) {
		*events += res.events;
		rc = res.exit_code == 0 && res.misses == 0 && res.overdue == 0;
		if (res.exit_code == 3)
			rc = -1;
	}
out:
	free(order);
	free(w);
	free(names);
	free(ev);
	free(ph);
	free(wt);
	return rc;
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
	fprintf(f, "\t}\n}\n");
	return ferror(f) ? -1 : 0;
}

int sweep_write_taskset(const struct sweep_config *c, const struct sweep_task *tasks,
			double util, const char *path)
{
	char tmp[4200];
	int *order = malloc(sizeof(*order) * (size_t)(c->nr_tasks ? c->nr_tasks : 1));
	int fd, err = 0;
	FILE *f = NULL;

	if (!order)
		return -1;
	/* Beside the final name, then renamed: never a half-written set. */
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
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
	free(order);
	errno = err;
	return err ? -1 : 0;
}
