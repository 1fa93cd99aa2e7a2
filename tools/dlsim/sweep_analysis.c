/*
 * dlsim sweep --tests / --check-analysis: the library's schedulability tests
 * on each generated set, beside its simulation, each side checking the other.
 *
 * With --check-analysis a set is a disagreement when
 *  - gfb, bak, bcl or rta accepts it on the sweep's CPUs (global mode) and
 *    the simulation misses a deadline or refuses it;
 *  - ff or ffd accepts it and some CPU's share, simulated alone on one
 *    CPU, misses;
 *  - QPA rejects it and its one-CPU simulation from synchronous release,
 *    with admission off, does not miss first at the deadline QPA names (the
 *    earliest deadline a synchronous EDF schedule misses is the first t
 *    with h(t) > t); or, on one CPU, QPA accepts and the sweep's own
 *    simulation misses.
 *  - with --guest, prm accepts it (theta_min fits the server's budget,
 *    sweep_guest_budget()) and a task inside the server misses; or prm
 *    accepts and QPA rejects (sbf(t) <= t: a server supplies no more than
 *    the CPU), or, with the budget theta_min, QPA accepts and prm rejects
 *    (a budget of the whole period supplies sbf(t) = t, so the two are
 *    then the same test). The other
 *    tests judge the set on the bare CPU, so their checks against the
 *    sweep's own (guest) simulation are left out; those that simulate on
 *    their own (QPA's rejection, ff, ffd) run the set on the bare CPU.
 * Each simulated set is released synchronously at 0 and runs the tasks'
 * budgets exactly, so the reservations behave as plain EDF up to the first
 * miss.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/analysis.h>

#include "sweep.h"

const char *const sweep_test_names[SWEEP_NR_TESTS] = { "qpa", "gfb", "bak", "bcl", "rta",
						       "ff", "ffd", "prm" };

int sweep_parse_tests(const char *s, unsigned int *mask)
{
	*mask = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		int t;

		for (t = 0; t < SWEEP_NR_TESTS; t++)
			if (strlen(sweep_test_names[t]) == len &&
			    !strncmp(s, sweep_test_names[t], len))
				break;
		if (t == SWEEP_NR_TESTS)
			return -1;
		*mask |= 1u << t;
		s += len;
		if (*s == ',' && *++s == '\0')
			return -1;
	}
	return *mask ? 0 : -1;
}

static int disagree(const struct sweep_config *c, int step, int index,
		    const struct sweep_task *tasks, const char *what)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/disagree-%04d-%06d.json",
		 c->save_dir ? c->save_dir : ".", step, index);
	if (sweep_write_taskset(c, tasks, c->utils[step], path)) {
		fprintf(stderr, "dlsim sweep: set %d/%d: %s (cannot write %s)\n", step, index,
			what, path);
		return 1;
	}
	fprintf(stderr, "dlsim sweep: set %d/%d: %s; written to %s\n", step, index, what, path);
	return 1;
}

/*
 * QPA's rejection against one CPU from synchronous release, admission off:
 * up to the named deadline nothing misses (no job late, none overdue at
 * the end), and one microsecond later a job has missed.
 * Parameters are whole microseconds, so every deadline is one.
 */
static int check_qpa(const struct sweep_config *c, int step, int index,
		     const struct sweep_task *tasks, const struct dls_analysis_result *r,
		     uint64_t *events)
{
	struct sweep_config one = *c;
	int before, after;
	char what[160];

	one.nr_cpus = 1;
	one.mode = WL_MODE_GLOBAL;
	one.guest_period_us = 0; /* QPA judges the bare CPU */
	one.horizon_us = r->at / 1000;
	before = sweep_simulate_unadmitted(&one, tasks, events, true);
	one.horizon_us++;
	after = sweep_simulate_unadmitted(&one, tasks, events, true);
	if (before < 0 || after < 0)
		return -1;
	if (before == 1 && after == 0)
		return 0;
	snprintf(what, sizeof(what), "QPA names the first miss at %" PRIu64 " ns; one-CPU "
		 "simulation %s", r->at, before != 1 ? "misses before it" : "does not miss there");
	return disagree(c, step, index, tasks, what);
}

/*
 * First fit in task order (the simulation's packing under --fit ff): each
 * task on the first CPU whose tasks stay schedulable by QPA with it, as
 * dls_analysis_partition() does in decreasing order. @sub holds n tasks.
 */
static int first_fit(const struct dls_params *ts, size_t n, int m, int *cpu_of,
		     struct dls_params *sub, struct dls_analysis_result *r)
{
	*r = (struct dls_analysis_result){ .schedulable = true };
	for (size_t i = 0; i < n; i++)
		cpu_of[i] = -1;
	for (size_t i = 0; i < n; i++) {
		for (int cpu = 0; cpu < m && cpu_of[i] < 0; cpu++) {
			struct dls_analysis_result q;
			size_t k = 0;
			int err;

			for (size_t j = 0; j < i; j++)
				if (cpu_of[j] == cpu)
					sub[k++] = ts[j];
			sub[k++] = ts[i];
			err = dls_analysis_qpa(sub, k, &q);
			if (err)
				return err;
			if (q.schedulable)
				cpu_of[i] = cpu;
		}
		if (cpu_of[i] < 0) {
			r->schedulable = false;
			r->task = i;
			return 0;
		}
	}
	return 0;
}

/* Every CPU of an accepted first-fit partition, simulated on its own. */
static int check_partition(const struct sweep_config *c, int step, int index,
			   const struct sweep_task *tasks, const int *cpu_of, const char *test,
			   struct sweep_task *sub, uint64_t *events)
{
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		struct sweep_config one = *c;
		int k = 0, rc;
		char what[96];

		for (int i = 0; i < c->nr_tasks; i++)
			if (cpu_of[i] == cpu)
				sub[k++] = tasks[i];
		if (!k)
			continue;
		one.nr_cpus = 1;
		one.nr_tasks = k;
		one.mode = WL_MODE_GLOBAL;
		one.guest_period_us = 0; /* the partition is of bare CPUs */
		rc = sweep_simulate(&one, sub, events);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			snprintf(what, sizeof(what), "%s accepts, CPU %d's share misses alone", test,
				 cpu);
			return disagree(c, step, index, tasks, what);
		}
	}
	return 0;
}

/* prm: a budget up to the server's period passes the periodic resource
 * test (the sweep gives the server that budget). DLS_ERANGE: undecided. */
static int prm_test(const struct sweep_config *c, const struct sweep_task *tasks,
		    struct dls_analysis_result *r)
{
	uint64_t budget;
	bool accepted;
	int err = sweep_guest_budget(c, tasks, &budget, &accepted);

	*r = (struct dls_analysis_result){ .schedulable = accepted, .value = budget };
	return err;
}

/* --guest: a set prm accepts must not miss inside its server (sim_rc 0; a
 * server admission refused, SWEEP_REFUSED, is counted apart), and prm
 * must agree with QPA as the header says. */
static int check_prm(const struct sweep_config *c, int step, int index,
		     const struct sweep_task *tasks, int sim_rc,
		     const struct dls_analysis_result *r)
{
	const struct dls_analysis_result *prm = &r[SWEEP_TEST_PRM];
	char what[160];

	if (prm->schedulable && sim_rc == 0) {
		snprintf(what, sizeof(what), "prm accepts (budget %" PRIu64 " us every %" PRIu64
			 " us), a task in the server misses", prm->value, c->guest_period_us);
		return disagree(c, step, index, tasks, what);
	}
	if (prm->schedulable != r[SWEEP_TEST_QPA].schedulable &&
	    (prm->schedulable || !c->guest_budget_us)) {
		snprintf(what, sizeof(what), "prm %s and qpa %s on the whole CPU",
			 prm->schedulable ? "accepts" : "rejects",
			 prm->schedulable ? "rejects" : "accepts");
		return disagree(c, step, index, tasks, what);
	}
	return 0;
}

struct scratch {
	struct dls_params *ts, *ff_sub;
	uint64_t *resp;
	int *cpu_of, *ff_cpu_of;
	void *part;
	struct sweep_task *sub;
};

static int run_tests(const struct sweep_config *c, int step, int index,
		     const struct sweep_task *tasks, int sim_rc, unsigned char *accepts,
		     uint64_t *events, struct scratch *s)
{
	static const char *const global_name[] = { "gfb", "bak", "bcl", "rta" };
	unsigned int want = c->tests | (c->check_analysis ? (1u << SWEEP_NR_TESTS) - 1 : 0);
	size_t n = (size_t)c->nr_tasks;
	struct dls_analysis_result r[SWEEP_NR_TESTS];
	int m = c->nr_cpus, err = 0, bad = 0;

	for (size_t i = 0; i < n; i++)
		s->ts[i] = (struct dls_params){ .runtime = tasks[i].runtime_us * 1000,
						.deadline = tasks[i].deadline_us * 1000,
						.period = tasks[i].period_us * 1000 };
	memset(r, 0, sizeof(r));
	if (want & (1u << SWEEP_TEST_QPA))
		err |= dls_analysis_qpa(s->ts, n, &r[SWEEP_TEST_QPA]);
	if (want & (1u << SWEEP_TEST_GFB))
		err |= dls_analysis_gfb(s->ts, n, m, &r[SWEEP_TEST_GFB]);
	if (want & (1u << SWEEP_TEST_BAK))
		err |= dls_analysis_bak(s->ts, n, m, &r[SWEEP_TEST_BAK]);
	if (want & (1u << SWEEP_TEST_BCL))
		err |= dls_analysis_bcl(s->ts, n, m, &r[SWEEP_TEST_BCL]);
	if (want & (1u << SWEEP_TEST_RTA))
		err |= dls_analysis_rta(s->ts, n, m, s->resp, &r[SWEEP_TEST_RTA]);
	if (want & (1u << SWEEP_TEST_FF))
		err |= first_fit(s->ts, n, m, s->ff_cpu_of, s->ff_sub, &r[SWEEP_TEST_FF]);
	if (want & (1u << SWEEP_TEST_FFD))
		err |= dls_analysis_partition(s->ts, n, m, DLS_FIT_FIRST, false, s->cpu_of,
					      s->part, &r[SWEEP_TEST_FFD]);
	if (c->guest_period_us && (want & (1u << SWEEP_TEST_PRM)))
		err |= prm_test(c, tasks, &r[SWEEP_TEST_PRM]);
	if (err) /* undecided (DLS_ERANGE): counted as not accepted, not checked */
		return 0;
	for (int t = 0; t < SWEEP_NR_TESTS; t++)
		if ((c->tests & (1u << t)) && r[t].schedulable)
			*accepts |= (unsigned char)(1u << t);
	if (!c->check_analysis)
		return 0;
	if (c->guest_period_us)
		bad = check_prm(c, step, index, tasks, sim_rc, r);
	if (c->mode == WL_MODE_GLOBAL && !c->guest_period_us)
		for (int t = SWEEP_TEST_GFB; t <= SWEEP_TEST_RTA && !bad; t++)
			if (r[t].schedulable && sim_rc != 1) {
				char what[96];

				snprintf(what, sizeof(what), "%s accepts on %d CPU%s, simulation "
					 "misses", global_name[t - SWEEP_TEST_GFB], m, m > 1 ? "s" : "");
				bad = disagree(c, step, index, tasks, what);
			}
	if (!bad && m == 1 && c->mode == WL_MODE_GLOBAL && !c->guest_period_us &&
	    r[SWEEP_TEST_QPA].schedulable && sim_rc != 1)
		bad = disagree(c, step, index, tasks, "qpa accepts, simulation misses");
	if (!bad && !r[SWEEP_TEST_QPA].schedulable)
		bad = check_qpa(c, step, index, tasks, &r[SWEEP_TEST_QPA], events);
	if (!bad && r[SWEEP_TEST_FF].schedulable)
		bad = check_partition(c, step, index, tasks, s->ff_cpu_of, "ff", s->sub, events);
	if (!bad && r[SWEEP_TEST_FFD].schedulable)
		bad = check_partition(c, step, index, tasks, s->cpu_of, "ffd", s->sub, events);
	return bad;
}

int sweep_analyze_set(const struct sweep_config *c, int step, int index,
		      const struct sweep_task *tasks, int sim_rc, unsigned char *accepts,
		      uint64_t *events)
{
	size_t n = (size_t)c->nr_tasks;
	struct scratch s = {
		.ts = malloc(n * sizeof(*s.ts)),
		.ff_sub = malloc(n * sizeof(*s.ff_sub)),
		.resp = malloc(n * sizeof(*s.resp)),
		.cpu_of = malloc(n * sizeof(*s.cpu_of)),
		.ff_cpu_of = malloc(n * sizeof(*s.ff_cpu_of)),
		.part = malloc(dls_analysis_partition_size(n, c->nr_cpus)),
		.sub = malloc(n * sizeof(*s.sub)),
	};
	int rc = -1;

	if (s.ts && s.ff_sub && s.resp && s.cpu_of && s.ff_cpu_of && s.part && s.sub)
		rc = run_tests(c, step, index, tasks, sim_rc, accepts, events, &s);
	free(s.ts);
	free(s.ff_sub);
	free(s.resp);
	free(s.cpu_of);
	free(s.ff_cpu_of);
	free(s.part);
	free(s.sub);
	return rc;
}
