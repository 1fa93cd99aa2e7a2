/*
 * dlsim analyze: every test of the analysis module on the SCHED_DEADLINE
 * tasks of one workload file (each instance one sporadic task with the
 * file's dl-runtime, dl-deadline, dl-period), printed as a table or JSON.
 * One function per test kind; each fills one verdict row.
 *
 * A row claims only what its test proves: "schedulable" and "not
 * schedulable" are proofs, a sufficient test that fails says "not shown",
 * and a test whose model the set or platform leaves (D < T where the proof
 * needs D = T, several CPUs for a one-CPU test, CPUs not all at full speed
 * for the identical-CPU tests) says "no verdict" and why.
 *
 * With a "servers" section, the host's set is its own deadline tasks plus
 * one sporadic task (runtime, deadline, period) per vCPU, named
 * "vm1/cpu0" (the server's first vCPU) and so on, each pinned to its host
 * CPU; the tasks inside a server are the guest's, one row per server
 * judges them inside the server's periodic resource (guest_row()).
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/analysis.h>
#include <dlsched/sched.h>

#include "analyze.h"
#include "sim.h"
#include "workload.h"

#define US UINT64_C(1000)

struct verdict {
	const char *test;
	int err;                /* 0, or why the test could not decide */
	bool schedulable;
	bool bound_only;        /* a bound, not a yes/no (tardiness) */
	bool sufficient;        /* failing proves nothing: "not shown" */
	bool outside;           /* outside the test's model: "no verdict" */
	bool admission;         /* the attach rule: "admitted", "refused" */
	char reason[384];
	uint64_t value;
};

/* The tasks inside one server, in ns, one sporadic task per instance. */
struct guest {
	const struct wl_server *srv;
	struct dls_params *ts;
	char (*names)[48];
	size_t n;
	size_t vcpu0;           /* its first vCPU in the host's set */
	char title[96];         /* its verdict's test name */
};

struct an {
	struct dls_domain_config cfg; /* admission: the limit the simulation uses */
	const char *limit_from;       /* --admission, simulation.admission, the default */
	struct dls_params *ts;
	char (*names)[48];      /* as dlsim names threads: task-instance */
	int *pin;               /* each task's host CPU (a vCPU's), -1: placed by the rule */
	size_t n;
	size_t nr_vcpus;        /* the first nr_vcpus tasks are pinned: the fair
				   servers (nr_fair), then the servers' vCPUs */
	size_t nr_fair;
	int m;
	enum wl_mode mode;      /* simulation.mode: how dlsim admits (per CPU when partitioned) */
	uint32_t cap[WL_MAX_CPUS];
	struct verdict v[18];
	int nv;
	struct guest *guests;   /* one per server */
	struct verdict *gv;     /* one verdict per server */
	size_t nr_guests;
};

static struct verdict *row(struct an *a, const char *test, int err)
{
	struct verdict *v = &a->v[a->nv++];

	memset(v, 0, sizeof(*v));
	v->test = test;
	v->err = err;
	if (err == DLS_EMODEL) { /* the caller says why */
		v->err = 0;
		v->outside = true;
	} else if (err) {
		snprintf(v->reason, sizeof(v->reason), "undecided: %s", dls_strerror(err));
	}
	return v;
}

static const char *verdict_word(const struct verdict *v)
{
	if (v->err)
		return "undecided";
	if (v->outside)
		return "no verdict";
	if (v->admission)
		return v->schedulable ? "admitted" : "refused";
	if (v->bound_only)
		return v->schedulable ? "bound" : "none";
	if (v->schedulable)
		return "schedulable";
	return v->sufficient ? "not shown" : "not schedulable";
}

/* The identical-CPU tests model full-speed CPUs: the first CPU that is
 * not, or -1. */
static int slow_cpu(const struct an *a)
{
	for (int c = 0; c < a->m; c++)
		if (a->cap[c] != DLS_CAPACITY_SCALE)
			return c;
	return -1;
}

/* A row for a test of identical full-speed CPUs; NULL (the row says why)
 * when the platform is not one. */
static struct verdict *identical_row(struct an *a, const char *test)
{
	int c = slow_cpu(a);
	struct verdict *v;

	if (c < 0)
		return NULL;
	v = row(a, test, DLS_EMODEL);
	snprintf(v->reason, sizeof(v->reason),
		 "assumes identical full-speed CPUs; CPU %d has capacity %" PRIu32 " of %d", c,
		 a->cap[c], DLS_CAPACITY_SCALE);
	return v;
}

static double bw(uint64_t x)
{
	return (double)x / (double)DLS_BW_UNIT;
}

/*
 * Partitioned, `dlsim FILE` attaches each reservation, in file order, on
 * the first CPU whose admission takes it (thread.c's place()), and stops at
 * the first that none takes: the same rule, CPU by CPU. A vCPU (first in
 * the set: a server's reservation exists before the tasks start) is tried
 * on its host CPU only. @tmp holds n entries; @r as dls_analysis_cbs_admit()
 * fills it for the whole set.
 */
static int admit_first_fit(const struct an *a, int *cpu_of, struct dls_params *tmp,
			   struct dls_analysis_result *r)
{
	memset(r, 0, sizeof(*r));
	r->schedulable = true;
	for (size_t i = 0; i < a->n; i++) {
		cpu_of[i] = -1;
		r->error = DLS_EBANDWIDTH;
		for (int c = 0; c < a->m && cpu_of[i] < 0; c++) {
			struct dls_analysis_result rc;
			size_t k = 0;
			int err;

			if (a->pin[i] >= 0 && c != a->pin[i])
				continue;
			for (size_t j = 0; j < i; j++)
				if (cpu_of[j] == c)
					tmp[k++] = a->ts[j];
			tmp[k++] = a->ts[i];
			err = dls_analysis_cbs_admit(&a->cfg, &a->cap[c], 1, tmp, k, &rc);
			if (err)
				return err;
			if (rc.schedulable)
				cpu_of[i] = c;
			else if (rc.error != DLS_EBANDWIDTH) {
				r->error = rc.error; /* the parameters: no CPU takes them */
				break;
			}
		}
		if (cpu_of[i] < 0) {
			r->schedulable = false;
			r->task = i;
			return 0;
		}
		r->value += dls_params_bw(&a->ts[i]);
	}
	r->error = 0;
	return 0;
}

/* The library's attach rule under the limit `dlsim FILE` would use, over
 * the domain dlsim attaches to (every CPU; each CPU when partitioned). */
static void test_admission(struct an *a, int *cpu_of)
{
	struct dls_analysis_result r;
	bool per_cpu = a->mode == WL_MODE_PARTITIONED && a->m > 1;
	struct dls_params *tmp = per_cpu ? malloc((a->n + 1) * sizeof(*tmp)) : NULL;
	int err = per_cpu ? (tmp ? admit_first_fit(a, cpu_of, tmp, &r) : DLS_ENOMEM)
			  : dls_analysis_cbs_admit(&a->cfg, a->cap, a->m, a->ts, a->n, &r);
	struct verdict *v = row(a, "admission", err);
	char limit[128];
	uint64_t cap = 0;

	free(tmp);
	if (err)
		return;
	for (int c = 0; c < a->m; c++)
		cap += a->cap[c];
	v->admission = true;
	if (a->cfg.bw_limit == DLS_BW_UNLIMITED)
		snprintf(limit, sizeof(limit), "admission off (%s)", a->limit_from);
	else if (per_cpu)
		snprintf(limit, sizeof(limit), "limit %.0f%% (%s) of each CPU, first fit in "
			 "file order (partitioned)", 100 * bw(a->cfg.bw_limit), a->limit_from);
	else
		snprintf(limit, sizeof(limit), "limit %.0f%% (%s) x %.4f CPUs%s",
			 100 * bw(a->cfg.bw_limit), a->limit_from,
			 (double)cap / DLS_CAPACITY_SCALE,
			 a->mode == WL_MODE_CLUSTERED ? " (summed over every CPU: clustered "
			 "dlsim admits each reservation within one cluster)" : "");
	v->schedulable = r.schedulable;
	v->value = r.value;
	if (r.schedulable)
		snprintf(v->reason, sizeof(v->reason), "bandwidth %.4f; %s (library's attach rule)",
			 bw(r.value), limit);
	else
		snprintf(v->reason, sizeof(v->reason), "attach refuses task %s: %s; %s",
			 a->names[r.task], dls_strerror(r.error), limit);
}

static void test_sum(struct an *a, const char *name, bool density, int m)
{
	struct dls_analysis_result r;
	int err;
	struct verdict *v;
	size_t len;

	if (identical_row(a, name))
		return;
	err = dls_analysis_utilization(a->ts, a->n, m, density, &r);
	v = row(a, name, err);
	if (err && !v->outside)
		return;
	v->schedulable = r.schedulable;
	v->sufficient = density;
	v->value = r.value;
	len = (size_t)snprintf(v->reason, sizeof(v->reason), "sum of C/%s = %.4f",
			       density ? "D" : "T", bw(r.value));
	if (density && m > 1)
		snprintf(v->reason + len, sizeof(v->reason) - len,
			 ": a one-CPU test (on %d CPUs its form is gfb)", m);
	else if (v->outside && r.task < a->n)
		snprintf(v->reason + len, sizeof(v->reason) - len,
			 " <= %d proves nothing with D < T (%s): Liu & Layland's test is "
			 "for D = T", m, a->names[r.task]);
	else if (v->outside)
		snprintf(v->reason + len, sizeof(v->reason) - len,
			 " <= %d is necessary only: global EDF on %d CPUs needs gfb, bak, bcl "
			 "or rta", m, m);
	else if (!r.schedulable && !density)
		snprintf(v->reason + len, sizeof(v->reason) - len,
			 " > %d: no scheduler keeps up", m);
	else
		snprintf(v->reason + len, sizeof(v->reason) - len, " %s %d",
			 r.schedulable ? "<=" : ">", m);
}

static void test_qpa(struct an *a)
{
	struct dls_analysis_result r;
	int err;
	struct verdict *v;

	if (identical_row(a, "qpa (1 CPU)"))
		return;
	err = dls_analysis_qpa(a->ts, a->n, &r);
	v = row(a, "qpa (1 CPU)", err);
	if (err)
		return;
	v->schedulable = r.schedulable;
	v->value = r.at;
	if (r.schedulable)
		snprintf(v->reason, sizeof(v->reason), "demand h(t) <= t at every deadline");
	else
		snprintf(v->reason, sizeof(v->reason),
			 "demand %" PRIu64 " ns > supply at t = %" PRIu64 " ns (deadline of %s)",
			 r.value, r.at, a->names[r.task]);
}

static void test_global(struct an *a, const char *name,
			int (*fn)(const struct dls_params *, size_t, int,
				  struct dls_analysis_result *))
{
	struct dls_analysis_result r;
	int err;
	struct verdict *v;

	if (identical_row(a, name))
		return;
	err = fn(a->ts, a->n, a->m, &r);
	v = row(a, name, err);
	if (err)
		return;
	v->schedulable = r.schedulable;
	v->sufficient = true;
	if (r.schedulable)
		snprintf(v->reason, sizeof(v->reason), "every task passes on %d CPU%s", a->m,
			 a->m > 1 ? "s" : "");
	else
		snprintf(v->reason, sizeof(v->reason), "cannot show %s on %d CPU%s",
			 a->names[r.task], a->m, a->m > 1 ? "s" : "");
}

static bool mixed_capacities(const struct an *a)
{
	for (int c = 1; c < a->m; c++)
		if (a->cap[c] != a->cap[0])
			return true;
	return false;
}

/* Funk, Goossens & Baruah's test on the file's capacities, with the bound
 * S - lambda u_max it compares against, for the reason. */
static void test_uniform(struct an *a)
{
	struct dls_analysis_result r;
	int err = dls_analysis_uniform(a->ts, a->n, a->cap, a->m, &r);
	struct verdict *v = row(a, "uniform", err);
	double S = 0;

	if (err)
		return;
	for (int c = 0; c < a->m; c++)
		S += (double)a->cap[c] / DLS_CAPACITY_SCALE;
	v->schedulable = r.schedulable;
	v->sufficient = true;
	v->value = r.value;
	snprintf(v->reason, sizeof(v->reason),
		 "sum u + lambda u_max = %.4f %s total speed %.4f (uniform EDF: earliest "
		 "deadlines on the fastest CPUs; not a guarantee for Linux's placement)",
		 bw(r.value), r.schedulable ? "<=" : ">", S);
}

static void test_rta(struct an *a, uint64_t *resp)
{
	struct dls_analysis_result r;
	int err;
	struct verdict *v;
	uint64_t worst = 0;
	size_t wi = 0;

	if (identical_row(a, "rta"))
		return;
	err = dls_analysis_rta(a->ts, a->n, a->m, resp, &r);
	v = row(a, "rta", err);
	if (err)
		return;
	v->schedulable = r.schedulable;
	v->sufficient = true;
	if (!r.schedulable) {
		snprintf(v->reason, sizeof(v->reason), "bound of %s exceeds its deadline",
			 a->names[r.task]);
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		if (resp[i] * 1000 / a->ts[i].deadline >= worst) {
			worst = resp[i] * 1000 / a->ts[i].deadline;
			wi = i;
		}
	v->value = resp[wi];
	snprintf(v->reason, sizeof(v->reason),
		 "response bounds within deadlines; tightest %s: %" PRIu64 " of %" PRIu64 " ns",
		 a->names[wi], resp[wi], a->ts[wi].deadline);
}

static void test_tardiness(struct an *a)
{
	struct dls_analysis_result r;
	int err;
	struct verdict *v;

	if (identical_row(a, "tardiness"))
		return;
	err = dls_analysis_tardiness(a->ts, a->n, a->m, &r);
	v = row(a, "tardiness", err);
	if (v->outside) {
		snprintf(v->reason, sizeof(v->reason),
			 "no bound (D < T for %s): Devi & Anderson's bound is proven for "
			 "implicit deadlines", a->names[r.task]);
		return;
	}
	if (err)
		return;
	v->bound_only = true;
	v->schedulable = r.schedulable;
	v->value = r.value;
	if (r.schedulable)
		snprintf(v->reason, sizeof(v->reason),
			 "global EDF lateness <= %" PRIu64 " ns (Devi & Anderson)", r.value);
	else
		snprintf(v->reason, sizeof(v->reason), "U > %d: no bound", a->m);
}

/* With servers, the heuristics would place the vCPUs too, which sit on
 * their host CPUs: a row that says so (true when the set has vCPUs). */
static bool pinned_row(struct an *a, const char *test)
{
	struct verdict *v;

	if (!a->nr_vcpus)
		return false;
	v = row(a, test, DLS_EMODEL);
	snprintf(v->reason, sizeof(v->reason), "places every task itself, but the vCPUs (%s "
		 "on CPU %d, ...) are pinned to their host CPUs: see \"placement\"",
		 a->names[0], a->pin[0]);
	return true;
}

static void test_partition(struct an *a, const char *name, enum dls_analysis_fit fit,
			   bool dens, void *scratch, int *cpu_of)
{
	struct dls_analysis_result r;
	int err;
	struct verdict *v;
	size_t len = 0;

	if (identical_row(a, name) || pinned_row(a, name))
		return;
	err = dls_analysis_partition(a->ts, a->n, a->m, fit, dens, cpu_of, scratch, &r);
	v = row(a, name, err);
	if (err)
		return;
	v->schedulable = r.schedulable;
	v->sufficient = true;
	if (!r.schedulable) {
		snprintf(v->reason, sizeof(v->reason), "%s fits on no CPU", a->names[r.task]);
		return;
	}
	for (int c = 0; c < a->m && len < sizeof(v->reason); c++) {
		len += (size_t)snprintf(v->reason + len, sizeof(v->reason) - len, "%sCPU%d:",
					c ? " " : "", c);
		for (size_t i = 0; i < a->n && len < sizeof(v->reason); i++)
			if (cpu_of[i] == c)
				len += (size_t)snprintf(v->reason + len, sizeof(v->reason) - len,
							" %s", a->names[i]);
	}
}

/* The tasks of CPU @c in @cpu_of into @tmp (their indices in @idx). */
static size_t tasks_on(const struct an *a, const int *cpu_of, int c, struct dls_params *tmp,
		       size_t *idx)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++)
		if (cpu_of[i] == c) {
			idx[k] = i;
			tmp[k++] = a->ts[i];
		}
	return k;
}

/* QPA on each CPU of the placement @cpu_of: 0 and @v filled, or an error. */
static int qpa_per_cpu(const struct an *a, const int *cpu_of, struct dls_params *tmp,
		       size_t *idx, struct verdict *v)
{
	size_t len = 0;

	for (int c = 0; c < a->m; c++) {
		struct dls_analysis_result r;
		size_t k = tasks_on(a, cpu_of, c, tmp, idx);
		int err = dls_analysis_qpa(tmp, k, &r);

		if (err)
			return err;
		if (!r.schedulable) {
			snprintf(v->reason, sizeof(v->reason), "CPU %d: demand %" PRIu64 " ns > "
				 "supply at t = %" PRIu64 " ns (deadline of %s)", c, r.value, r.at,
				 a->names[idx[r.task]]);
			return 0;
		}
		if (k && len < sizeof(v->reason))
			len += (size_t)snprintf(v->reason + len, sizeof(v->reason) - len,
						"%sCPU%d:", len ? " " : "", c);
		for (size_t j = 0; j < k && len < sizeof(v->reason); j++)
			len += (size_t)snprintf(v->reason + len, sizeof(v->reason) - len, " %s",
						a->names[idx[j]]);
	}
	v->schedulable = true;
	return 0;
}

/*
 * With servers, partitioned: the placement `dlsim FILE` makes (the vCPUs on
 * their host CPUs, then first fit in file order: the admission row's) and
 * the exact one-CPU test on each CPU. Other modes mix pinned vCPUs with
 * migrating tasks, which no test of the module models.
 */
static void test_placement(struct an *a, int *cpu_of)
{
	const char *name = "placement (qpa)";
	struct dls_analysis_result r;
	struct dls_params *tmp;
	size_t *idx;
	struct verdict *v;
	int err;

	if (!a->nr_vcpus || a->m == 1 || identical_row(a, name))
		return;
	if (a->mode != WL_MODE_PARTITIONED) {
		v = row(a, name, DLS_EMODEL);
		snprintf(v->reason, sizeof(v->reason), "simulation.mode is %s: the vCPUs are "
			 "pinned to their host CPUs while the host's tasks migrate, a mix no "
			 "test of the module models (the global rows treat the vCPUs as "
			 "migrating)", a->mode == WL_MODE_GLOBAL ? "global" : "clustered");
		return;
	}
	tmp = malloc((a->n + 1) * sizeof(*tmp));
	idx = malloc((a->n + 1) * sizeof(*idx));
	err = tmp && idx ? admit_first_fit(a, cpu_of, tmp, &r) : DLS_ENOMEM;
	if (!err && !r.schedulable) {
		v = row(a, name, DLS_EMODEL);
		snprintf(v->reason, sizeof(v->reason), "admission refuses %s: no placement to "
			 "test", a->names[r.task]);
	} else if (!err) {
		struct verdict check = { 0 };

		err = qpa_per_cpu(a, cpu_of, tmp, idx, &check);
		v = row(a, name, err);
		if (!err) {
			v->schedulable = check.schedulable;
			memcpy(v->reason, check.reason, sizeof(v->reason));
		}
	} else {
		row(a, name, err);
	}
	free(tmp);
	free(idx);
}

/* The next deadline after @t of the synchronous release of @ts, or
 * UINT64_MAX. */
static uint64_t deadline_after(const struct dls_params *ts, size_t n, uint64_t t)
{
	uint64_t best = UINT64_MAX;

	for (size_t i = 0; i < n; i++) {
		uint64_t T = ts[i].period ? ts[i].period : ts[i].deadline;
		uint64_t k = t >= ts[i].deadline ? (t - ts[i].deadline) / T + 1 : 0, d;

		if (!__builtin_mul_overflow(k, T, &d) &&
		    !__builtin_add_overflow(d, ts[i].deadline, &d) && d < best)
			best = d;
	}
	return best;
}

/* Deadlines the search for a failing one visits at most. */
#define WITNESS_MAX_DEADLINES (UINT64_C(1) << 22)

/*
 * A deadline t where the demand of @ts exceeds sbf(t) of the periodic
 * resource (@period, @budget): the proof that EDF inside it misses one
 * (Shin & Lee 2003, Theorem 1). Searched up to the bound beyond which
 * none can fail (in doubles: a search that stops early says nothing, it
 * proves nothing false). 0 when none was found.
 */
static uint64_t prm_witness(const struct dls_params *ts, size_t n, uint64_t period,
			    uint64_t budget)
{
	double u = 0, slack = 0, share = (double)budget / (double)period, limit = 0x1p62;
	uint64_t t = 0;

	for (size_t i = 0; i < n; i++) {
		double T = (double)(ts[i].period ? ts[i].period : ts[i].deadline);

		u += (double)ts[i].runtime / T;
		slack += (T - (double)ts[i].deadline) * (double)ts[i].runtime / T;
	}
	if (share > u)
		limit = (slack + 2 * (double)(period - budget) * share) / (share - u) + 1;
	for (uint64_t visited = 0; visited < WITNESS_MAX_DEADLINES; visited++) {
		t = deadline_after(ts, n, t);
		if (t == UINT64_MAX || (double)t > limit)
			return 0;
		if (dls_analysis_dbf(ts, n, t) > dls_analysis_prm_sbf(period, budget, t))
			return t;
	}
	return 0;
}

static double us_of(uint64_t ns)
{
	return (double)ns / (double)US;
}

/*
 * A one-vCPU server with deadline = period as Shin & Lee's periodic
 * resource (Pi, Theta) = (period, runtime): EDF inside it meets every
 * deadline iff dbf(t) <= sbf(t) at every deadline (RTSS 2003, Theorem 1),
 * given the host meets the server's own deadlines (the host rows).
 * dls_analysis_prm_budget() gives the least Theta that passes; a larger
 * one than the runtime is shown to fail by a deadline where dbf > sbf.
 */
static void prm_verdict(const struct guest *g, struct verdict *v)
{
	uint64_t P = g->srv->period_us * US, Q = g->srv->runtime_us * US, t;
	struct dls_analysis_result r;

	v->err = dls_analysis_prm_budget(g->ts, g->n, P, &r);
	if (v->err) {
		snprintf(v->reason, sizeof(v->reason), "undecided: %s", dls_strerror(v->err));
		return;
	}
	if (!r.schedulable) {
		snprintf(v->reason, sizeof(v->reason), "the guest's demand %" PRIu64 " ns > t = "
			 "%" PRIu64 " ns (deadline of %s) even on a whole CPU (qpa)", r.value, r.at,
			 g->names[r.task]);
		return;
	}
	v->value = r.value;
	v->schedulable = r.value <= Q;
	if (v->schedulable) {
		snprintf(v->reason, sizeof(v->reason), "theta_min %.3f us <= runtime %.3f us "
			 "per period %.3f us: dbf <= sbf at every deadline (Shin & Lee 2003), "
			 "while the host meets the server's deadlines", us_of(r.value), us_of(Q),
			 us_of(P));
		return;
	}
	t = prm_witness(g->ts, g->n, P, Q);
	v->sufficient = !t;
	if (t)
		snprintf(v->reason, sizeof(v->reason), "theta_min %.3f us > runtime %.3f us per "
			 "period %.3f us: at t = %.3f us the demand %.3f us > sbf %.3f us (Shin & "
			 "Lee 2003)", us_of(r.value), us_of(Q), us_of(P), us_of(t),
			 us_of(dls_analysis_dbf(g->ts, g->n, t)),
			 us_of(dls_analysis_prm_sbf(P, Q, t)));
	else
		snprintf(v->reason, sizeof(v->reason), "theta_min %.3f us > runtime %.3f us per "
			 "period %.3f us, but no deadline found where the demand exceeds sbf",
			 us_of(r.value), us_of(Q), us_of(P));
}

/* One verdict per server: the guest's tasks inside its supply. */
static void guest_row(struct guest *g, struct verdict *v)
{
	const struct wl_server *s = g->srv;
	int k = wl_cpuset_count(&s->cpus);

	memset(v, 0, sizeof(*v));
	snprintf(g->title, sizeof(g->title), "guest %s: periodic resource model", s->name);
	v->test = g->title;
	v->outside = k > 1 || s->deadline_us < s->period_us;
	if (k > 1)
		snprintf(v->reason, sizeof(v->reason), "%d vCPUs under global EDF: the analysis "
			 "module has no test for a multiprocessor periodic resource (Shin, "
			 "Easwaran & Lee's MPR, ECRTS 2008)", k);
	else if (v->outside)
		snprintf(v->reason, sizeof(v->reason), "deadline %llu us < period %llu us: the "
			 "module's periodic resource test (Shin & Lee 2003) models a server "
			 "whose deadline is its period", (unsigned long long)s->deadline_us,
			 (unsigned long long)s->period_us);
	else
		prm_verdict(g, v);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_tasks(FILE *f, const struct dls_params *ts, char (*names)[48], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_str(f, names[i]);
		fprintf(f, ", \"runtime_ns\": %" PRIu64 ", \"deadline_ns\": %" PRIu64
			", \"period_ns\": %" PRIu64 "}", ts[i].runtime, ts[i].deadline,
			ts[i].period);
	}
}

/* "servers": each with its reservation per vCPU, host CPUs and tasks. */
static void json_servers(const struct an *a, FILE *f)
{
	fprintf(f, ", \"servers\": [");
	for (size_t i = 0; i < a->nr_guests; i++) {
		const struct guest *g = &a->guests[i];
		int cpu, first = 1;

		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_str(f, g->srv->name);
		fprintf(f, ", \"runtime_ns\": %" PRIu64 ", \"deadline_ns\": %" PRIu64
			", \"period_ns\": %" PRIu64 ", \"cpus\": [", g->srv->runtime_us * US,
			g->srv->deadline_us * US, g->srv->period_us * US);
		wl_cpuset_for_each(cpu, &g->srv->cpus) {
			fprintf(f, "%s%d", first ? "" : ", ", cpu);
			first = 0;
		}
		fprintf(f, "], \"tasks\": [");
		json_tasks(f, g->ts, g->names, g->n);
		fprintf(f, "]}");
	}
	fprintf(f, "]");
}

static void json_verdict(FILE *f, const struct verdict *v, bool comma)
{
	fprintf(f, "%s{\"test\": ", comma ? ", " : "");
	json_str(f, v->test);
	fprintf(f, ", \"verdict\": \"%s\", \"value\": %" PRIu64 ", \"reason\": ",
		verdict_word(v), v->value);
	json_str(f, v->reason);
	fputc('}', f);
}

static void print_json(const struct an *a, const char *file, FILE *f)
{
	fprintf(f, "{\"file\": ");
	json_str(f, file);
	fprintf(f, ", \"cpus\": %d, \"tasks\": [", a->m);
	for (size_t i = 0; i < a->n; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_str(f, a->names[i]);
		fprintf(f, ", \"runtime_ns\": %" PRIu64 ", \"deadline_ns\": %" PRIu64
			", \"period_ns\": %" PRIu64 "}",
			a->ts[i].runtime, a->ts[i].deadline, a->ts[i].period);
	}
	fprintf(f, "]");
	if (a->nr_guests)
		json_servers(a, f);
	fprintf(f, ", \"tests\": [");
	for (int k = 0; k < a->nv; k++)
		json_verdict(f, &a->v[k], k > 0);
	for (size_t k = 0; k < a->nr_guests; k++)
		json_verdict(f, &a->gv[k], a->nv + k > 0);
	fprintf(f, "]}\n");
}

/* "server vm1: 3000/10000/10000 us per vCPU; vm1/cpu0 on CPU 0; guest: a b" */
static void print_server(const struct an *a, const struct guest *g, FILE *f)
{
	const struct wl_server *s = g->srv;

	fprintf(f, "server %s: %llu/%llu/%llu us (runtime/deadline/period) per vCPU;", s->name,
		(unsigned long long)s->runtime_us, (unsigned long long)s->deadline_us,
		(unsigned long long)s->period_us);
	for (size_t i = g->vcpu0; i < g->vcpu0 + (size_t)wl_cpuset_count(&s->cpus); i++)
		fprintf(f, " %s on CPU %d;", a->names[i], a->pin[i]);
	fprintf(f, " guest tasks:");
	for (size_t i = 0; i < g->n; i++)
		fprintf(f, " %s", g->names[i]);
	fprintf(f, "\n");
}

static void print_table(const struct an *a, const char *file, FILE *f)
{
	fprintf(f, "%s: %zu deadline task%s on %d CPU%s", file, a->n, a->n == 1 ? "" : "s",
		a->m, a->m > 1 ? "s" : "");
	if (a->nr_guests)
		fprintf(f, " (%zu vCPU%s of %zu server%s among them)", a->nr_vcpus - a->nr_fair,
			a->nr_vcpus - a->nr_fair > 1 ? "s" : "", a->nr_guests,
			a->nr_guests > 1 ? "s" : "");
	if (a->nr_fair)
		fprintf(f, " (platform.fair_server: %zu, fair/cpuN, one pinned to each CPU, "
			"among them)", a->nr_fair);
	fputc('\n', f);
	if (slow_cpu(a) >= 0)
		fprintf(f, "note: CPU capacities differ%s; admission and uniform use them, the "
			   "other tests assume identical full-speed CPUs and give no verdict\n",
			mixed_capacities(a) ? "" : " from full speed");
	for (size_t i = 0; i < a->nr_guests; i++)
		print_server(a, &a->guests[i], f);
	fprintf(f, "%-20s %-16s %s\n", "test", "verdict", "reason");
	for (int k = 0; k < a->nv; k++) {
		const struct verdict *v = &a->v[k];

		fprintf(f, "%-20s %-16s %s\n", v->test, verdict_word(v), v->reason);
	}
	for (size_t k = 0; k < a->nr_guests; k++)
		fprintf(f, "%s\n%-20s %-16s %s\n", a->gv[k].test, "", verdict_word(&a->gv[k]),
			a->gv[k].reason);
}

/* The fork events of @w that name task @name. */
static size_t fork_events(const struct workload *w, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nr_tasks; i++)
		for (size_t p = 0; p < w->tasks[i].nr_phases; p++)
			for (size_t e = 0; e < w->tasks[i].phases[p].nr_events; e++)
				n += w->tasks[i].phases[p].events[e].type == WL_FORK &&
				     !strcmp(w->tasks[i].phases[p].events[e].ref, name);
	return n;
}

/* How many threads of @t are analysed: its "instance" count (rt-app starts
 * those at 0) plus, for a fork target, one per fork event naming it, as if
 * each ran once; said on stderr. */
static size_t instances(const struct workload *w, const struct wl_task *t, const char *file)
{
	size_t forks = t->forked ? fork_events(w, t->name) : 0;

	if (forks)
		fprintf(stderr, "dlsim analyze: %s: \"%s\" is forked: analysed as %lld "
			"thread(s) from the start plus %zu forked (one per fork event naming "
			"it, as if each ran once; a fork in a loop makes more)\n", file, t->name,
			(long long)t->instance, forks);
	return (size_t)t->instance + forks;
}

/* The threads of deadline task @t, one sporadic task each, into @ts and
 * @names from index *@n on, named as dlsim names threads. */
static void add_threads(const struct workload *w, const struct wl_task *t,
			struct dls_params *ts, char (*names)[48], size_t *n)
{
	int64_t inst = t->instance;
	size_t forks = t->forked ? fork_events(w, t->name) : 0;

	for (int64_t k = 0; k < inst + (int64_t)forks; k++) {
		ts[*n] = (struct dls_params){
			.runtime = t->sched.dl_runtime_us * US,
			.deadline = t->sched.dl_deadline_us * US,
			.period = t->sched.dl_period_us * US,
		};
		if (k >= inst)
			snprintf(names[*n], sizeof(names[0]), "%s-fork%d", t->name, (int)(k - inst));
		else if (inst > 1)
			snprintf(names[*n], sizeof(names[0]), "%s-%d", t->name, (int)k);
		else
			snprintf(names[*n], sizeof(names[0]), "%s", t->name);
		(*n)++;
	}
}

/* One task per vCPU of @s, (runtime, deadline, period), on its host CPU. */
static void add_vcpus(struct an *a, const struct wl_server *s)
{
	int cpu, j = 0;

	wl_cpuset_for_each(cpu, &s->cpus) {
		a->ts[a->n] = (struct dls_params){
			.runtime = s->runtime_us * US,
			.deadline = s->deadline_us * US,
			.period = s->period_us * US,
		};
		a->pin[a->n] = cpu;
		snprintf(a->names[a->n], sizeof(a->names[0]), "%s/cpu%d", s->name, j++);
		a->n++;
	}
}

/* platform.fair_server: one task per CPU (runtime, period, period) on it,
 * named "fair/cpuN", admitted first as the simulation admits them. */
static size_t fair_servers(const struct workload *w)
{
	return w->fair_server.on ? (size_t)w->nr_cpus : 0;
}

static void add_fair_servers(const struct workload *w, struct an *a)
{
	for (size_t cpu = 0; cpu < fair_servers(w); cpu++) {
		a->ts[a->n] = (struct dls_params){
			.runtime = w->fair_server.runtime_us * US,
			.deadline = w->fair_server.period_us * US,
			.period = w->fair_server.period_us * US,
		};
		a->pin[a->n] = (int)cpu;
		snprintf(a->names[a->n], sizeof(a->names[0]), "fair/cpu%zu", cpu);
		a->n++;
	}
}

static bool host_task(const struct wl_task *t)
{
	return t->sched.policy == WL_DEADLINE && t->server < 0;
}

/* The host's set, in ns: the fair servers, the servers' vCPUs, then every
 * thread of a deadline task that runs in no server. */
static int collect(const struct workload *w, struct an *a, const char *file)
{
	size_t n = fair_servers(w);

	a->nr_fair = n;

	for (size_t i = 0; i < w->nr_servers; i++)
		n += (size_t)wl_cpuset_count(&w->servers[i].cpus);
	a->nr_vcpus = n;
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (host_task(&w->tasks[i]))
			n += instances(w, &w->tasks[i], file);
	a->ts = calloc(n ? n : 1, sizeof(*a->ts));
	a->names = calloc(n ? n : 1, sizeof(*a->names));
	a->pin = malloc((n ? n : 1) * sizeof(*a->pin));
	if (!a->ts || !a->names || !a->pin)
		return -1;
	for (size_t i = 0; i < n; i++)
		a->pin[i] = -1;
	add_fair_servers(w, a);
	for (size_t i = 0; i < w->nr_servers; i++)
		add_vcpus(a, &w->servers[i]);
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (host_task(&w->tasks[i]))
			add_threads(w, &w->tasks[i], a->ts, a->names, &a->n);
	a->m = w->nr_cpus;
	a->mode = w->mode;
	for (int c = 0; c < a->m; c++)
		a->cap[c] = w->cpus[c].capacity;
	return 0;
}

/* Each server's tasks, one sporadic task per instance (no forks: the
 * reader refuses a fork target inside a server). */
static int collect_guests(const struct workload *w, struct an *a)
{
	a->guests = calloc(w->nr_servers + 1, sizeof(*a->guests));
	a->gv = calloc(w->nr_servers + 1, sizeof(*a->gv));
	if (!a->guests || !a->gv)
		return -1;
	a->nr_guests = w->nr_servers;
	for (size_t i = 0, vcpu = fair_servers(w); i < w->nr_servers; i++) {
		const struct wl_server *s = &w->servers[i];
		struct guest *g = &a->guests[i];
		size_t n = 0;

		g->srv = s;
		g->vcpu0 = vcpu;
		vcpu += (size_t)wl_cpuset_count(&s->cpus);
		for (size_t k = 0; k < s->nr_tasks; k++)
			n += (size_t)w->tasks[s->tasks[k]].instance;
		g->ts = calloc(n + 1, sizeof(*g->ts));
		g->names = calloc(n + 1, sizeof(*g->names));
		if (!g->ts || !g->names)
			return -1;
		for (size_t k = 0; k < s->nr_tasks; k++)
			add_threads(w, &w->tasks[s->tasks[k]], g->ts, g->names, &g->n);
	}
	return 0;
}

static void free_guests(struct an *a)
{
	for (size_t i = 0; a->guests && i < a->nr_guests; i++) {
		free(a->guests[i].ts);
		free(a->guests[i].names);
	}
	free(a->guests);
	free(a->gv);
}

static void run_all(struct an *a, void *scratch, int *cpu_of, uint64_t *resp)
{
	test_admission(a, cpu_of);
	test_sum(a, "utilisation", false, a->m);
	test_sum(a, "density", true, a->m);
	test_qpa(a);
	test_global(a, "gfb", dls_analysis_gfb);
	test_global(a, "bak", dls_analysis_bak);
	test_global(a, "bcl", dls_analysis_bcl);
	if (slow_cpu(a) >= 0)
		test_uniform(a);
	test_rta(a, resp);
	test_tardiness(a);
	test_partition(a, "ffd (utilisation)", DLS_FIT_FIRST, false, scratch, cpu_of);
	test_partition(a, "bfd (utilisation)", DLS_FIT_BEST, false, scratch, cpu_of);
	test_partition(a, "wfd (utilisation)", DLS_FIT_WORST, false, scratch, cpu_of);
	test_partition(a, "ffd (density)", DLS_FIT_FIRST, true, scratch, cpu_of);
	test_partition(a, "bfd (density)", DLS_FIT_BEST, true, scratch, cpu_of);
	test_partition(a, "wfd (density)", DLS_FIT_WORST, true, scratch, cpu_of);
	test_placement(a, cpu_of);
	for (size_t i = 0; i < a->nr_guests; i++)
		guest_row(&a->guests[i], &a->gv[i]);
}

static int usage(FILE *f, int code)
{
	fprintf(f,
		"usage: dlsim analyze FILE [options]\n"
		"The library's schedulability tests on FILE's deadline tasks, one verdict\n"
		"per test with its reason, on the platform `dlsim FILE` would simulate.\n"
		"With a \"servers\" section, the host's set has one task per vCPU\n"
		"(vm/cpu0, ...) and each server's guest gets its own verdict.\n"
		"  --json           the verdicts as JSON\n"
		"  --cpus N         CPUs for a file whose platform section gives no count\n"
		"                   (rt-app files assume the host's), as dlsim FILE --cpus\n"
		"  --platform FILE  the platform section of FILE replaces the workload's\n"
		"  --admission off|PERCENT  the admission row's limit per CPU, over the\n"
		"                   file's simulation.admission (default 95%%)\n"
		"  --strict         treat warnings about the workload as errors\n"
		"Exit status: 0 every test ran (whatever the verdicts); 1 the deadline\n"
		"tasks are not a constrained-deadline set; 64 bad command line; 65 errors\n"
		"in a file; 66 a file cannot be read.\n");
	return code;
}

struct analyze_cli {
	const char *file, *platform;
	bool json, strict;
	int admission;          /* as workload::admission; -1 not given */
	struct wl_load_options load;
};

/* An option's value; NULL with a message when it is missing. */
static const char *value_of(int argc, char **argv, int *i)
{
	if (*i + 1 < argc)
		return argv[++*i];
	fprintf(stderr, "dlsim analyze: %s needs a value (dlsim analyze --help lists the "
		"options)\n", argv[*i]);
	return NULL;
}

/* The command line into @c: 0, -1 for --help, or the exit status. */
static int parse_args(struct analyze_cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;
		long n;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return -1;
		if (!strcmp(a, "--json") || !strcmp(a, "--strict")) {
			*(a[2] == 'j' ? &c->json : &c->strict) = true;
			continue;
		}
		if (a[0] != '-') {
			if (c->file) {
				fprintf(stderr, "dlsim analyze: one workload FILE at a time (got %s "
					"and %s)\n", c->file, a);
				return DLSIM_EXIT_USAGE;
			}
			c->file = a;
			continue;
		}
		if (strcmp(a, "--cpus") && strcmp(a, "--platform") && strcmp(a, "--admission")) {
			fprintf(stderr, "dlsim analyze: unknown option %s\n", a);
			return usage(stderr, DLSIM_EXIT_USAGE);
		}
		if (!(v = value_of(argc, argv, &i)))
			return DLSIM_EXIT_USAGE;
		n = strtol(v, &end, 10);
		if (!strcmp(a, "--platform")) {
			c->platform = v;
		} else if (!strcmp(a, "--cpus")) {
			if (end == v || *end || n < 1 || n > WL_MAX_CPUS) {
				fprintf(stderr, "dlsim analyze: --cpus %s: expected 1..%d\n", v,
					WL_MAX_CPUS);
				return DLSIM_EXIT_USAGE;
			}
			c->load.cpus = (int)n;
		} else if (!strcmp(v, "off")) {
			c->admission = 0;
		} else if (end == v || *end || n < 1 || n > 100) {
			fprintf(stderr, "dlsim analyze: --admission %s: expected off or a "
				"percentage 1..100\n", v);
			return DLSIM_EXIT_USAGE;
		} else {
			c->admission = (int)n;
		}
	}
	if (!c->file) {
		fprintf(stderr, "dlsim analyze: no FILE given\n");
		return usage(stderr, DLSIM_EXIT_USAGE);
	}
	return 0;
}

/* The file with --cpus and --platform applied, as dlsim FILE loads it. */
static int load(struct analyze_cli *c, struct workload *w, struct json_doc *platform_doc)
{
	int rc;

	if (c->platform) {
		rc = workload_read_platform(platform_doc, "dlsim analyze", c->platform,
					    &c->load.platform);
		if (rc)
			return rc;
		c->load.platform_fname = c->platform;
	}
	rc = workload_load_cli_opts(w, "dlsim analyze", c->file, c->strict, &c->load);
	if (c->platform && rc)
		json_free(platform_doc);
	return rc;
}

/* The admission limit as the simulation takes it (engine.c). */
static void admission_limit(struct an *a, const struct analyze_cli *c,
			    const struct workload *w)
{
	int pct = c->admission >= 0 ? c->admission : w->admission;

	dls_domain_config_default(&a->cfg);
	a->limit_from = c->admission >= 0 ? "--admission" : pct >= 0 ?
		"simulation.admission" : "the default";
	if (pct >= 0)
		a->cfg.bw_limit = pct ? DLS_BW_UNIT * (uint64_t)pct / 100 : DLS_BW_UNLIMITED;
}

int analyze_main(int argc, char **argv)
{
	struct analyze_cli cli = { .admission = -1 };
	const char *file;
	struct json_doc platform_doc;
	struct workload w;
	struct an a = { 0 };
	void *scratch = NULL;
	int *cpu_of = NULL, rc = DLSIM_EXIT_FAILURE, err;
	uint64_t *resp = NULL;
	bool oom = false;

	err = parse_args(&cli, argc, argv);
	if (err < 0) {
		usage(stdout, DLSIM_EXIT_OK);
		err = fflush(stdout) || ferror(stdout) ? DLSIM_EXIT_IOERR : DLSIM_EXIT_OK;
		if (err)
			fprintf(stderr, "dlsim analyze: cannot write standard output: %s\n",
				strerror(errno));
		return err;
	}
	if (err)
		return err;
	file = cli.file;
	err = load(&cli, &w, &platform_doc);
	if (err)
		return err;
	admission_limit(&a, &cli, &w);
	oom = collect(&w, &a, file) || collect_guests(&w, &a);
	if (oom)
		goto out;
	err = dls_analysis_check(a.ts, a.n);
	if (err) {
		fprintf(stderr, "dlsim analyze: %s: not a constrained-deadline task set: %s\n",
			file, dls_strerror(err));
		goto out;
	}
	scratch = malloc(dls_analysis_partition_size(a.n, a.m) + 1);
	cpu_of = calloc(a.n + 1, sizeof(*cpu_of));
	resp = calloc(a.n + 1, sizeof(*resp));
	oom = !scratch || !cpu_of || !resp;
	if (oom)
		goto out;
	run_all(&a, scratch, cpu_of, resp);
	if (cli.json)
		print_json(&a, file, stdout);
	else
		print_table(&a, file, stdout);
	rc = DLSIM_EXIT_OK;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dlsim analyze: cannot write standard output: %s\n",
			strerror(errno));
		rc = DLSIM_EXIT_IOERR;
	}
out:
	if (oom)
		fprintf(stderr, "dlsim analyze: out of memory\n");
	free(scratch);
	free(cpu_of);
	free(resp);
	free(a.ts);
	free(a.names);
	free(a.pin);
	free_guests(&a);
	workload_free(&w);
	if (cli.platform)
		json_free(&platform_doc);
	return rc;
}
