/*
 * dlsim sweep: the schedulability ratio of generated (or given) task sets
 * as the utilisation grows, each set simulated on the real library.
 *
 * Task sets (one periodic SCHED_DEADLINE thread per task, budget = WCET,
 * released synchronously at 0, timers in absolute mode so releases stay on
 * the period grid):
 *   - utilisations: UUniFast (Bini & Buttazzo, "Measuring the performance
 *     of schedulability tests", Real-Time Systems 30(1-2), 2005) with the
 *     discard rule for multiprocessors (Davis & Burns, RTSS 2009: redraw
 *     while any u_i > 1), or Randfixedsum (R. Stafford, 2006, applied to
 *     task sets by Emberson, Stafford & Davis, "Techniques for the
 *     synthesis of multiprocessor tasksets", WATERS 2010), which samples
 *     uniformly the part of the plane sum(u) = U inside the unit cube;
 *   - periods log-uniform in [Tmin, Tmax] with granularity Tg (Emberson et
 *     al., section 4): T = floor(exp(r) / Tg) * Tg, r ~ U[ln Tmin,
 *     ln(Tmax + Tg));
 *   - C = floor(u T) in whole microseconds, so the simulated utilisation
 *     does not exceed the generated one, except where u T < 2 us: the
 *     budget is then raised to 2 us (the library's minimum is 1024 ns and
 *     workloads count in microseconds) and the sweep says how many sets
 *     that lifted above their step; D = T, or for constrained deadlines
 *     D = C + floor(x (T - C)), x ~ U[0, 1).
 * A set is schedulable when the simulation reports no deadline miss within
 * the horizon; admission runs at 100% (not the default 95%) so a set is
 * refused only where no scheduler could help (global: U > M) or where
 * first-fit packing fails (partitioned). A job is judged when it completes,
 * and one still unfinished at the horizon with its deadline already past
 * counts as a miss too (sim_result::overdue).
 *
 * Determinism: set (step, index) draws from its own generator seeded with
 * (seed, step, index), results land in a per-set array, and the rows are
 * summed afterwards in order, so any number of worker threads prints the
 * same bytes.
 */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dlsched/sched.h>

#include "sim.h"

#define SWEEP_MAX_TASKS 4096 /* the simulator's thread limit */

/* ---- random numbers ------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void sweep_rng_seed(struct sweep_rng *r, uint64_t seed, uint64_t step, uint64_t index)
{
	uint64_t x = seed;

	x = splitmix64(&x) ^ step;
	x = splitmix64(&x) ^ index;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t sweep_rng_next(struct sweep_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double sweep_rng_unit(struct sweep_rng *r)
{
	return (double)(sweep_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- utilisation generators -------------------------------------------- */

int sweep_uunifast_discard(struct sweep_rng *r, int n, double total, double *u,
			   unsigned long max_tries)
{
	if (n < 1 || !(total > 0) || total > n)
		return -1;
	for (unsigned long k = 0; k < max_tries; k++) {
		double sum = total;
		bool ok = true;

		/* Bini & Buttazzo: the sum of the remaining n - i values is
		 * distributed as sum * X^(1/(n-i)), X ~ U(0, 1]. */
		for (int i = 1; i < n; i++) {
			double next = sum * pow(1.0 - sweep_rng_unit(r), 1.0 / (n - i));

			u[i - 1] = sum - next;
			sum = next;
		}
		u[n - 1] = sum;
		for (int i = 0; i < n && ok; i++)
			ok = u[i] > 0 && u[i] <= 1;
		if (ok)
			return 0;
	}
	return -2;
}

/*
 * Randfixedsum on the unit cube, after Stafford's construction: the region
 * {x in [0,1]^n : sum x = s} is cut by the hyperplanes x_i = integer into
 * simplices. A table t (n-1 rows) holds, for each dimension i and each
 * integer offset j, the probability of stepping to offset j - 1 rather than
 * staying, in proportion to the volumes of the pieces on each side; a walk
 * down the table picks a simplex with probability proportional to its
 * volume, a point is drawn uniformly inside it from simplex coordinates
 * (sx = U^(1/i)), and the coordinates are finally shuffled.
 *
 * Row w_i of volumes is a recurrence on w_{i-1}; only ratios within a row
 * matter, so each row is rescaled to a maximum of 1 (Stafford scales by
 * realmax instead, which over- or underflows past a few hundred tasks).
 *
 * Indices: row q of t (0-based) serves the walk's dimension i = q + 1 and
 * has columns 0..q+1; the walk starts at column k = floor(s) and moves left
 * by one whenever it steps.
 */
int sweep_randfixedsum(struct sweep_rng *r, int n, double total, double *u)
{
	double *t, *w0, *w1, *s1, *s2;
	double s = total;
	int k;

	if (n < 1 || !(total > 0) || total > n)
		return -1;
	k = (int)floor(s);
	if (k > n - 1)
		k = n - 1;
	if (s < k)
		s = k;
	if (s > k + 1)
		s = k + 1;
	t = malloc(sizeof(*t) * ((size_t)(n > 1 ? n - 1 : 1) * (size_t)n + 4 * ((size_t)n + 1)));
	if (!t)
		return -3;
	w0 = t + (size_t)(n > 1 ? n - 1 : 1) * (size_t)n;
	w1 = w0 + n + 1;
	s1 = w1 + n + 1;
	s2 = s1 + n + 1;
	for (int i = 0; i < n; i++) {
		s1[i] = s - (k - i);   /* distances to the planes sum = k - i */
		s2[i] = (k + n - i) - s;
	}
	memset(w0, 0, sizeof(*w0) * ((size_t)n + 1));
	w0[1] = 1;
	for (int i = 2; i <= n; i++) {
		double *row = t + (size_t)(i - 2) * (size_t)n, max = 0;

		w1[0] = 0;
		for (int c = 0; c < i; c++) {
			double a = w0[c + 1] * s1[c] / i;
			double b = w0[c] * s2[n - i + c] / i;
			double sum = a + b + DBL_TRUE_MIN;

			w1[c + 1] = a + b;
			if (w1[c + 1] > max)
				max = w1[c + 1];
			/* Of the two expressions of the same probability, the
			 * one with less cancellation. */
			row[c] = s2[n - i + c] > s1[c] ? b / sum : 1 - a / sum;
		}
		for (int c = i + 1; c <= n; c++)
			w1[c] = 0;
		for (int c = 0; c <= i && max > 0; c++)
			w1[c] /= max;
		{
			double *tmp = w0;

			w0 = w1;
			w1 = tmp;
		}
	}
	for (;;) {
		double sm = 0, pr = 1, rest = s;
		int j = k;
		bool ok = true;

		for (int i = n - 1; i >= 1; i--) {
			int e = sweep_rng_unit(r) <= t[(size_t)(i - 1) * (size_t)n + (size_t)j];
			double sx = pow(sweep_rng_unit(r), 1.0 / i);

			sm += (1 - sx) * pr * rest / (i + 1);
			pr *= sx;
			u[n - i - 1] = sm + pr * e;
			rest -= e;
			j -= e;
		}
		u[n - 1] = sm + pr * rest;
		/* Fisher-Yates: the walk fills coordinates in a fixed order. */
		for (int i = n - 1; i > 0; i--) {
			int m = (int)(sweep_rng_next(r) % (uint64_t)(i + 1));
			double tmp = u[i];

			u[i] = u[m];
			u[m] = tmp;
		}
		/* Rounding can leave a value a hair outside (0, 1]: draw again. */
		for (int i = 0; i < n && ok; i++)
			ok = u[i] > 0 && u[i] <= 1;
		if (ok)
			break;
	}
	free(t);
	return 0;
}

/* ---- task sets ----------------------------------------------------------- */

int sweep_taskset(const struct sweep_config *c, int step, int index, struct sweep_task *tasks)
{
	struct sweep_rng r;
	double *u = malloc(sizeof(*u) * (size_t)c->nr_tasks);
	double lo = log((double)c->period_min_us);
	double hi = log((double)(c->period_max_us + c->period_gran_us));
	int rc;

	if (!u)
		return -3;
	sweep_rng_seed(&r, c->seed, (uint64_t)step, (uint64_t)index);
	if (c->gen == SWEEP_UUNIFAST)
		rc = sweep_uunifast_discard(&r, c->nr_tasks, c->utils[step], u, c->max_tries);
	else
		rc = sweep_randfixedsum(&r, c->nr_tasks, c->utils[step], u);
	for (int i = 0; i < c->nr_tasks && !rc; i++) {
		struct sweep_task *tk = &tasks[i];
		uint64_t T = (uint64_t)(exp(lo + (hi - lo) * sweep_rng_unit(&r)) /
					(double)c->period_gran_us) * c->period_gran_us;
		uint64_t C;

		if (T < c->period_min_us)
			T = c->period_min_us;
		if (T > c->period_max_us)
			T = c->period_max_us;
		C = (uint64_t)(u[i] * (double)T);
		tk->lifted = C < 2;
		if (C < 2)
			C = 2;
		tk->u = u[i];
		tk->period_us = T;
		tk->runtime_us = C;
		tk->deadline_us = T;
		if (c->deadlines == SWEEP_CONSTRAINED)
			tk->deadline_us = C + (uint64_t)(sweep_rng_unit(&r) * (double)(T - C));
	}
	free(u);
	return rc;
}

static struct dls_params task_params(const struct sweep_task *tk)
{
	return (struct dls_params){ .runtime = tk->runtime_us * 1000,
				    .deadline = tk->deadline_us * 1000,
				    .period = tk->period_us * 1000 };
}

/*
 * The admission test the simulator will run (limit 100%), done here first
 * so that a refused set costs nothing and prints nothing: the domain-wide
 * sum under global scheduling, first fit in task order otherwise.
 */
static bool admitted(const struct sweep_config *c, const struct sweep_task *tasks)
{
	uint64_t bw[WL_MAX_CPUS] = { 0 };
	bool global = c->mode != WL_MODE_PARTITIONED && c->nr_cpus > 1;
	uint64_t total = 0;

	for (int i = 0; i < c->nr_tasks; i++) {
		struct dls_params p = task_params(&tasks[i]);
		uint64_t b = dls_params_bw(&p);
		int cpu;

		if (global) {
			total += b;
			continue;
		}
		for (cpu = 0; cpu < c->nr_cpus; cpu++)
			if (bw[cpu] + b <= DLS_BW_UNIT)
				break;
		if (cpu == c->nr_cpus)
			return false;
		bw[cpu] += b;
	}
	return !global || total <= (uint64_t)c->nr_cpus * DLS_BW_UNIT;
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
	struct sim_options opt = { .quiet = true, .check = c->check,
				   .bw_limit = no_admission ? DLS_BW_UNLIMITED : DLS_BW_UNIT };
	struct sim_result res;
	struct workload *w = calloc(1, sizeof(*w));
	int rc = -1;

	if (!wt || !ph || !ev || !names || !w)
		goto out;
	if (!no_admission && !admitted(c, tasks)) {
		rc = 0;
		goto out;
	}
	w->duration_s = -1;
	w->default_policy = WL_OTHER;
	w->nr_cpus = c->nr_cpus;
	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		w->cpus[cpu].capacity = 1024;
	w->horizon_us = (int64_t)c->horizon_us;
	w->seed = c->seed;
	w->mode = c->mode;
	w->tasks = wt;
	w->nr_tasks = (size_t)n;
	for (int i = 0; i < n; i++) {
		const struct sweep_task *tk = &tasks[i];

		snprintf(names[i], sizeof(names[i]), "t%d", i);
		ev[2 * i] = (struct wl_event){ .type = WL_RUN, .key = "run",
					       .us = (int64_t)tk->runtime_us };
		ev[2 * i + 1] = (struct wl_event){ .type = WL_TIMER, .key = "timer",
						   .us = (int64_t)tk->period_us,
						   .ref = "unique", .absolute = true };
		ph[i] = (struct wl_phase){ .name = names[i], .loop = 1,
					   .events = &ev[2 * i], .nr_events = 2 };
		wt[i] = (struct wl_task){
			.name = names[i], .instance = 1, .loop = -1,
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
	free(w);
	free(names);
	free(ev);
	free(ph);
	free(wt);
	return rc;
}

int sweep_write_taskset(const struct sweep_config *c, const struct sweep_task *tasks,
			double util, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "// dlsim sweep: %d tasks, total utilisation %.17g (%s), seed %llu.\n"
		"// `dlsim sweep` admits up to 100%% per CPU; `dlsim FILE` applies the\n"
		"// library's default limit (95%%).\n{\n",
		c->nr_tasks, util, c->gen == SWEEP_UUNIFAST ? "UUniFast-discard" : "Randfixedsum",
		(unsigned long long)c->seed);
	fprintf(f, "\t\"platform\": { \"cpus\": %d },\n", c->nr_cpus);
	fprintf(f, "\t\"simulation\": { \"horizon_us\": %llu, \"mode\": \"%s\" },\n",
		(unsigned long long)c->horizon_us,
		c->mode == WL_MODE_PARTITIONED ? "partitioned" : "global");
	fprintf(f, "\t\"tasks\": {\n");
	for (int i = 0; i < c->nr_tasks; i++) {
		const struct sweep_task *t = &tasks[i];

		fprintf(f, "\t\t\"t%d\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %llu, "
			"\"dl-deadline\": %llu, \"dl-period\": %llu,\n\t\t\t\"run\": %llu, "
			"\"timer\": { \"ref\": \"unique\", \"period\": %llu, \"mode\": \"absolute\" } "
			"}%s\n", i, (unsigned long long)t->runtime_us,
			(unsigned long long)t->deadline_us, (unsigned long long)t->period_us,
			(unsigned long long)t->runtime_us, (unsigned long long)t->period_us,
			i + 1 < c->nr_tasks ? "," : "");
	}
	fprintf(f, "\t}\n}\n");
	return fclose(f) ? -1 : 0;
}

/* ---- parallel runner ------------------------------------------------------ */

/* The work: item i of n; returns 1, 0 or -1 and adds its events. */
typedef int (*sweep_item_fn)(void *ctx, size_t i, uint64_t *events);

struct runner {
	sweep_item_fn fn;
	void *ctx;
	size_t n, next, done;
	signed char *result;
	uint64_t *events;
	bool progress, drawn;
	double start, last_draw;
	pthread_mutex_t lock;
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void draw_progress(struct runner *r, bool force)
{
	const int width = 40;
	double now = mono_now();
	int fill;

	/* Like a single run's: only once the sweep has taken a second. */
	if (!r->progress || (!force && (now - r->start < 1 || now - r->last_draw < 0.1)))
		return;
	r->last_draw = now;
	r->drawn = true;
	fill = (int)((double)width * (double)r->done / (double)(r->n ? r->n : 1));
	fprintf(stderr, "\rsweep [%.*s%*s] %3d%% %zu/%zu sets", fill,
		"########################################", width - fill, "",
		(int)(100.0 * (double)r->done / (double)(r->n ? r->n : 1)), r->done, r->n);
	fflush(stderr);
}

static void *worker(void *arg)
{
	struct runner *r = arg;

	for (;;) {
		size_t i;
		uint64_t ev = 0;
		int res;

		pthread_mutex_lock(&r->lock);
		i = r->next < r->n ? r->next++ : r->n;
		pthread_mutex_unlock(&r->lock);
		if (i == r->n)
			return NULL;
		res = r->fn(r->ctx, i, &ev);
		pthread_mutex_lock(&r->lock);
		r->result[i] = (signed char)res;
		r->events[i] = ev;
		r->done++;
		draw_progress(r, false);
		pthread_mutex_unlock(&r->lock);
	}
}

/* Run fn on items 0..n-1 on `jobs` threads (the caller is one of them). */
static int run_items(size_t n, int jobs, bool progress, sweep_item_fn fn, void *ctx,
		     signed char *result, uint64_t *events)
{
	struct runner r = { .fn = fn, .ctx = ctx, .n = n, .result = result,
			    .events = events, .progress = progress };
	pthread_t *th = NULL;
	int started = 0;

	if (pthread_mutex_init(&r.lock, NULL))
		return -1;
	r.start = mono_now();
	if (jobs > 1 && (size_t)jobs > n)
		jobs = n ? (int)n : 1;
	if (jobs > 1)
		th = calloc((size_t)jobs - 1, sizeof(*th));
	for (int i = 0; th && i < jobs - 1; i++) {
		if (pthread_create(&th[i], NULL, worker, &r))
			break; /* fewer workers; the result is the same */
		started++;
	}
	worker(&r);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	pthread_mutex_destroy(&r.lock);
	if (r.drawn) {
		draw_progress(&r, true);
		fprintf(stderr, "\n");
	}
	return 0;
}

/* ---- generated sweeps ------------------------------------------------------ */

struct gen_ctx {
	const struct sweep_config *c;
	unsigned char *lifted; /* per set: some budget was raised to 2 us */
	unsigned char *accepts;  /* per set: a bit per accepting test */
	unsigned char *disagree; /* per set: analysis and simulation disagree */
};

static int gen_item(void *arg, size_t i, uint64_t *events)
{
	struct gen_ctx *ctx = arg;
	const struct sweep_config *c = ctx->c;
	struct sweep_task *tasks = malloc(sizeof(*tasks) * (size_t)c->nr_tasks);
	int step = (int)(i / (size_t)c->sets), index = (int)(i % (size_t)c->sets);
	int rc;

	if (!tasks)
		return -3;
	rc = sweep_taskset(c, step, index, tasks);
	for (int k = 0; rc == 0 && k < c->nr_tasks; k++)
		ctx->lifted[i] |= tasks[k].lifted;
	if (rc == 0 && c->save_dir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/set-%04d-%06d.json", c->save_dir, step, index);
		if (sweep_write_taskset(c, tasks, c->utils[step], path)) {
			free(tasks);
			return -4;
		}
	}
	if (rc == 0)
		rc = sweep_simulate(c, tasks, events);
	else
		rc = rc == -2 ? -2 : -1;
	if (rc >= 0 && (c->tests || c->check_analysis)) {
		int a = sweep_analyze_set(c, step, index, tasks, rc, &ctx->accepts[i], events);

		if (a < 0)
			rc = -1;
		ctx->disagree[i] = a > 0;
	}
	free(tasks);
	return rc;
}

int sweep_run(const struct sweep_config *c, struct sweep_point *points, FILE *err)
{
	size_t n = (size_t)c->nr_utils * (size_t)c->sets;
	signed char *result = calloc(n ? n : 1, 1);
	uint64_t *events = calloc(n ? n : 1, sizeof(*events));
	struct gen_ctx ctx = { c, calloc(n ? n : 1, 1), calloc(n ? n : 1, 1),
			       calloc(n ? n : 1, 1) };
	int rc = 0;

	if (!result || !events || !ctx.lifted || !ctx.accepts || !ctx.disagree) {
		fprintf(err, "dlsim sweep: out of memory\n");
		rc = -1;
		goto out;
	}
	run_items(n, c->jobs, c->progress, gen_item, &ctx, result, events);
	for (int s = 0; s < c->nr_utils; s++) {
		struct sweep_point *p = &points[s];

		*p = (struct sweep_point){ .util = c->utils[s] };
		for (int k = 0; k < c->sets; k++) {
			size_t i = (size_t)s * (size_t)c->sets + (size_t)k;

			p->sets++;
			p->events += events[i];
			p->lifted += ctx.lifted[i];
			p->disagree += ctx.disagree[i];
			for (int t = 0; t < SWEEP_NR_TESTS; t++)
				p->accepted[t] += (ctx.accepts[i] >> t) & 1;
			if (result[i] == 1)
				p->schedulable++;
			if (result[i] < 0 && !rc) {
				if (result[i] == -4)
					fprintf(err, "dlsim sweep: cannot write task sets into %s\n",
						c->save_dir);
				else if (result[i] == -2)
					fprintf(err, "dlsim sweep: UUniFast-discard drew %lu sets at "
						"U = %g with %d tasks and none had every u_i <= 1; "
						"use --gen randfixedsum\n", c->max_tries, c->utils[s],
						c->nr_tasks);
				else
					fprintf(err, "dlsim sweep: set %d at U = %g could not be "
						"simulated (out of memory or a broken invariant)\n",
						k, c->utils[s]);
				rc = -1;
			}
		}
	}
out:
	free(ctx.disagree);
	free(ctx.accepts);
	free(ctx.lifted);
	free(result);
	free(events);
	return rc;
}

/* ---- workload directories ------------------------------------------------- */

struct dir_ctx {
	struct workload *w;
	bool check;
};

static int dir_item(void *arg, size_t i, uint64_t *events)
{
	struct dir_ctx *d = arg;
	struct sim_options opt = { .quiet = true, .check = d->check };
	struct sim_result res;

	if (sim_run(&d->w[i], &opt, stdout, &res))
		return -1;
	*events += res.events;
	if (res.exit_code == 3)
		return -1;
	return res.exit_code == 0 && res.misses == 0 && res.overdue == 0;
}

/* Reserved bandwidth of a workload: sum of runtime/period of its deadline
 * tasks, every instance counted. */
static double workload_util(const struct workload *w)
{
	double u = 0;

	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_sched *s = &w->tasks[i].sched;
		uint64_t period = s->dl_period_us ? s->dl_period_us : s->dl_deadline_us;

		if (s->policy == WL_DEADLINE && period)
			u += (double)w->tasks[i].instance * (double)s->dl_runtime_us / (double)period;
	}
	return u;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Read every *.json in dir (sorted by name); files that do not load are
 * reported and make the whole run fail before anything is simulated. */
static int load_dir(const char *dir, bool strict, struct workload **out, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct workload *w;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "dlsim sweep: cannot open directory %s: %s\n", dir, strerror(errno));
		return 66;
	}
	while ((de = readdir(d))) {
		char *path;

		if (!ends_with(de->d_name, ".json"))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));

			if (!nn)
				break;
			names = nn;
		}
		path = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!path)
			break;
		sprintf(path, "%s/%s", dir, de->d_name);
		names[n++] = path;
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "dlsim sweep: no *.json workload files in %s\n", dir);
		free(names);
		return 66;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	w = calloc(n, sizeof(*w));
	for (size_t i = 0; w && i < n; i++) {
		int lr = workload_load_file(&w[i], names[i], strict);

		if (lr == -2) {
			fprintf(stderr, "dlsim sweep: cannot read %s: %s\n", names[i],
				workload_load_error(&w[i]));
			rc = 66;
			continue;
		}
		workload_print_diags(&w[i], stderr);
		if (lr) {
			fprintf(stderr, "dlsim sweep: %u error(s) in %s\n", w[i].errors, names[i]);
			rc = rc ? rc : 65;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!w) {
		fprintf(stderr, "dlsim sweep: out of memory\n");
		return 1;
	}
	*out = w;
	*nr = n;
	return rc;
}

/* ---- output ---------------------------------------------------------------- */

static double accepted_ratio(const struct sweep_point *p, int t)
{
	return p->sets ? (double)p->accepted[t] / p->sets : 0.0;
}

static void print_table(FILE *f, const struct sweep_point *p, int n, unsigned int tests)
{
	fprintf(f, "%11s %6s %11s %6s", "utilisation", "sets", "schedulable", "ratio");
	for (int t = 0; t < SWEEP_NR_TESTS; t++)
		if (tests & (1u << t))
			fprintf(f, " %6s", sweep_test_names[t]);
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%11.3f %6u %11u %6.3f", p[i].util, p[i].sets, p[i].schedulable,
			p[i].sets ? (double)p[i].schedulable / p[i].sets : 0.0);
		for (int t = 0; t < SWEEP_NR_TESTS; t++)
			if (tests & (1u << t))
				fprintf(f, " %6.3f", accepted_ratio(&p[i], t));
		fprintf(f, "\n");
	}
}

static int write_csv(const char *path, const struct sweep_point *p, int n,
		     unsigned int tests)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "dlsim sweep: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "utilisation,sets,schedulable,ratio");
	for (int t = 0; t < SWEEP_NR_TESTS; t++)
		if (tests & (1u << t))
			fprintf(f, ",%s", sweep_test_names[t]);
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%.6g,%u,%u,%.6g", p[i].util, p[i].sets, p[i].schedulable,
			p[i].sets ? (double)p[i].schedulable / p[i].sets : 0.0);
		for (int t = 0; t < SWEEP_NR_TESTS; t++)
			if (tests & (1u << t))
				fprintf(f, ",%.6g", accepted_ratio(&p[i], t));
		fprintf(f, "\n");
	}
	return sim_close_output(f, "dlsim sweep", path);
}

/* Ratio against utilisation: axes with ticks, a polyline and its points. */
static int write_svg(const char *path, const char *title, const struct sweep_point *p, int n,
		     unsigned int tests)
{
	static const char *const colour[SWEEP_NR_TESTS] = {
		"#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#b07aa1", "#9c755f",
	};
	int legend = 0;
	const double left = 60, top = 40, w = 560, h = 300;
	double xmax = 0, step;
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "dlsim sweep: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (p[i].util > xmax)
			xmax = p[i].util;
	if (xmax <= 0)
		xmax = 1;
	/* A tick step of 1, 2 or 5 times a power of ten, 4 to 10 ticks. */
	step = pow(10, floor(log10(xmax)));
	if (xmax / step < 4)
		step /= xmax / step < 2 ? 5 : 2;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", left + w + 30, top + h + 60);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"20\">", left);
	for (const char *c = title; *c; c++) {
		if (*c == '<')
			fputs("&lt;", f);
		else if (*c == '&')
			fputs("&amp;", f);
		else
			fputc(*c, f);
	}
	fprintf(f, "</text>\n");
	for (int k = 0; k <= 4; k++) {
		double y = top + h - h * k / 4.0;

		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
			left, left + w, y, y, left - 6, y + 4, k / 4.0);
	}
	for (int k = 0; k * step <= xmax * (1 + 1e-9); k++) {
		double x = left + w * (k * step) / xmax;

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
			x, x, top, top + h, x, top + h + 16, k * step);
	}
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		"stroke=\"black\"/>\n", left, top, w, h);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">total utilisation</text>\n",
		left + w / 2, top + h + 40);
	fprintf(f, "<text x=\"16\" y=\"%.0f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.0f)\">schedulable ratio</text>\n",
		top + h / 2, top + h / 2);
	/* One dashed curve per analysis test: the share of sets it accepts. */
	for (int t = 0; t < SWEEP_NR_TESTS; t++) {
		if (!(tests & (1u << t)))
			continue;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
			"stroke-dasharray=\"5,3\" points=\"", colour[t]);
		for (int i = 0; i < n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", left + w * p[i].util / xmax,
				top + h - h * accepted_ratio(&p[i], t));
		fprintf(f, "\"/>\n<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%s</text>\n",
			left + w - 60, top + 16 + 14 * ++legend, colour[t], sweep_test_names[t]);
	}
	if (legend)
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#4e79a7\">simulated</text>\n",
			left + w - 60, top + 16);
	fprintf(f, "<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" points=\"");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", left + w * p[i].util / xmax,
			top + h - h * (p[i].sets ? (double)p[i].schedulable / p[i].sets : 0));
	fprintf(f, "\"/>\n");
	for (int i = 0; i < n; i++) {
		double ratio = p[i].sets ? (double)p[i].schedulable / p[i].sets : 0;

		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#4e79a7\">"
			"<title>U = %g: %u/%u</title></circle>\n", left + w * p[i].util / xmax,
			top + h - h * ratio, p[i].util, p[i].schedulable, p[i].sets);
	}
	fprintf(f, "</svg>\n");
	return sim_close_output(f, "dlsim sweep", path);
}

/* ---- command line ---------------------------------------------------------- */

static int usage(FILE *f, int code)
{
	fprintf(f,
		"usage: dlsim sweep [options]\n"
		"Simulate many task sets on the real library and print, per total\n"
		"utilisation, the share of sets with no deadline miss within the horizon.\n"
		"\n"
		"Generated task sets (one periodic SCHED_DEADLINE task each, budget = WCET):\n"
		"  --cpus M             CPUs (1..%d, default 1)\n"
		"  --tasks N            tasks per set (1..%d, default 10)\n"
		"  --util A:B:S | LIST  total utilisation from A to B by S, or a comma\n"
		"                       list (default M/20 to M by M/20); each <= N\n"
		"  --sets K             task sets per utilisation (default 100)\n"
		"  --gen G              randfixedsum (default) or uunifast (UUniFast-discard)\n"
		"  --deadlines D        implicit (default) or constrained (C <= D <= T)\n"
		"  --periods A:B[:G]    periods log-uniform in [A, B] ms, multiples of\n"
		"                       G ms (default 10:100:1; 0.1 <= A <= B <= 4194)\n"
		"  --horizon MS         simulated time per set (default 10 x the longest period)\n"
		"  --mode M             global (default) or partitioned (first fit)\n"
		"  --seed S             seed (default 1); set i of step j depends only on\n"
		"                       (S, j, i)\n"
		"  --save DIR           also write each set as DIR/set-STEP-INDEX.json\n"
		"                       (an existing directory), to replay with dlsim\n"
		"Workload files instead:\n"
		"  --dir DIR            simulate every DIR/*.json as `dlsim FILE` would and\n"
		"                       group them by reserved utilisation\n"
		"  --bin W              utilisation bin width for --dir (default 0.05)\n"
		"  --strict             warnings about a file are errors\n"
		"Running and output:\n"
		"  --jobs J             worker threads (default: online CPUs); the result\n"
		"                       does not depend on J\n"
		"  --check              run every validator after every event (slow)\n"
		"  --csv FILE           the table as CSV\n"
		"  --svg FILE           a plot of the ratio against utilisation\n"
		"  --no-progress        no progress bar (it is off anyway when stderr is\n"
		"                       not a terminal)\n"
		"Analysis beside simulation (generated sets):\n"
		"  --tests LIST         also run these tests and report the share of sets\n"
		"                       each accepts: qpa (one CPU), gfb, bak, bcl, rta\n"
		"                       (global EDF), ff (first-fit decreasing, QPA per CPU)\n"
		"  --check-analysis     cross-check: a set a sufficient test accepts must not\n"
		"                       miss (global tests in global mode; ff CPU by CPU), a\n"
		"                       set QPA rejects must miss on one CPU at the deadline\n"
		"                       QPA names; a disagreement is written as\n"
		"                       disagree-STEP-INDEX.json (in --save DIR, or here)\n"
		"                       and the sweep exits with status 2\n"
		"Exit status: 0 done; 1 a set failed to run or out of memory; 2 a\n"
		"disagreement under --check-analysis; 64 bad\n"
		"command line; 65 errors in a file of --dir; 66 --dir or one of its files\n"
		"cannot be read; 73 --csv, --svg or stdout could not be written.\n",
		WL_MAX_CPUS, SWEEP_MAX_TASKS);
	return code;
}

static int bad(const char *opt, const char *expected, const char *got)
{
	fprintf(stderr, "dlsim sweep: %s: expected %s, got \"%s\"\n", opt, expected, got);
	fprintf(stderr, "Try 'dlsim sweep --help'.\n");
	return 64;
}

static bool parse_long(const char *s, long lo, long hi, long *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (*s == '-' || *s == '+')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return false;
	*v = x;
	return true;
}

/* A finite double; *end is where it stopped. */
static bool parse_double_at(const char *s, double *v, const char **end)
{
	char *e;

	errno = 0;
	*v = strtod(s, &e);
	*end = e;
	return e != s && !errno && isfinite(*v);
}

static bool parse_double(const char *s, double *v)
{
	const char *end;

	return parse_double_at(s, v, &end) && !*end;
}

/* "A:B:S" (range) or "a,b,c" (list). */
static int parse_utils(const char *s, double **out, int *nr)
{
	double v[3];
	const char *p = s, *end;
	int k = 0;

	if (strchr(s, ':')) {
		while (k < 3 && parse_double_at(p, &v[k], &end)) {
			k++;
			if (*end != ':')
				break;
			p = end + 1;
		}
		if (k != 3 || *end || v[0] <= 0 || v[1] < v[0] || v[2] <= 0)
			return -1;
		*nr = (int)floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
		if (*nr > 100000)
			return -1;
		*out = malloc(sizeof(**out) * (size_t)*nr);
		if (!*out)
			return -1;
		/* Computed from the index, not accumulated: no drift. */
		for (int i = 0; i < *nr; i++)
			(*out)[i] = v[0] + v[2] * i;
		return 0;
	}
	*nr = 1;
	for (const char *c = s; *c; c++)
		*nr += *c == ',';
	*out = malloc(sizeof(**out) * (size_t)*nr);
	if (!*out)
		return -1;
	for (int i = 0; i < *nr; i++) {
		if (!parse_double_at(p, &(*out)[i], &end) || (*out)[i] <= 0 ||
		    (*end != ',' && *end))
			return -1;
		p = end + 1;
	}
	return 0;
}

static bool takes_value(const char *a)
{
	static const char *const opts[] = {
		"--cpus", "--tasks", "--util", "--sets", "--gen", "--deadlines", "--periods",
		"--horizon", "--mode", "--seed", "--dir", "--bin", "--jobs", "--csv", "--svg",
		"--save", "--tests",
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return true;
	return false;
}

static int default_jobs(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n > 0)
		return n > 256 ? 256 : (int)n;
#endif
	return 1;
}

static int finish(const struct sweep_point *pts, int n, const char *csv, const char *svg,
		  const char *title, unsigned int tests)
{
	int rc = 0;

	print_table(stdout, pts, n, tests);
	if (csv && write_csv(csv, pts, n, tests))
		rc = 73;
	if (svg && write_svg(svg, title, pts, n, tests))
		rc = 73;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dlsim sweep: cannot write standard output: %s\n",
			strerror(errno));
		rc = 73;
	}
	return rc;
}

static int run_dir(const struct sweep_config *c, const char *dir, double bin, bool strict,
		   const char *csv, const char *svg)
{
	struct workload *w = NULL;
	size_t n = 0;
	int rc = load_dir(dir, strict, &w, &n);
	signed char *result = NULL;
	uint64_t *events = NULL;
	double *key = NULL;
	struct sweep_point *pts = NULL;
	int np = 0;
	char title[256];

	if (rc)
		goto out;
	result = calloc(n, 1);
	events = calloc(n, sizeof(*events));
	key = malloc(n * sizeof(*key));
	pts = calloc(n, sizeof(*pts));
	if (!result || !events || !key || !pts) {
		fprintf(stderr, "dlsim sweep: out of memory\n");
		rc = 1;
		goto out;
	}
	{
		struct dir_ctx ctx = { w, c->check };

		run_items(n, c->jobs, c->progress, dir_item, &ctx, result, events);
	}
	for (size_t i = 0; i < n; i++)
		key[i] = round(workload_util(&w[i]) / bin) * bin;
	/* Rows: the distinct bins, ascending; files add up in name order. */
	{
		double *sorted = malloc(n * sizeof(*sorted));

		if (!sorted) {
			rc = 1;
			goto out;
		}
		memcpy(sorted, key, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), cmp_double);
		for (size_t i = 0; i < n; i++)
			if (!np || sorted[i] != pts[np - 1].util)
				pts[np++].util = sorted[i];
		free(sorted);
	}
	for (size_t i = 0; i < n; i++) {
		int p = 0;

		while (pts[p].util != key[i])
			p++;
		pts[p].sets++;
		pts[p].events += events[i];
		if (result[i] == 1)
			pts[p].schedulable++;
		if (result[i] < 0) {
			fprintf(stderr, "dlsim sweep: workload %zu could not be simulated\n", i);
			rc = 1;
		}
	}
	printf("dlsim sweep: %zu workload files from %s, bins of %g\n", n, dir, bin);
	snprintf(title, sizeof(title), "dlsim sweep: %zu workloads from %s", n, dir);
	if (!rc)
		rc = finish(pts, np, csv, svg, title, 0);
out:
	for (size_t i = 0; w && i < n; i++)
		workload_free(&w[i]);
	free(w);
	free(result);
	free(events);
	free(key);
	free(pts);
	return rc;
}

int sweep_main(int argc, char **argv)
{
	struct sweep_config c = {
		.gen = SWEEP_RANDFIXEDSUM, .deadlines = SWEEP_IMPLICIT,
		.nr_cpus = 1, .nr_tasks = 10, .sets = 100, .seed = 1,
		.period_min_us = 10000, .period_max_us = 100000, .period_gran_us = 1000,
		.mode = WL_MODE_GLOBAL, .jobs = default_jobs(),
		.progress = isatty(STDERR_FILENO), .max_tries = 100000,
	};
	const char *csv = NULL, *svg = NULL, *dir = NULL, *util_arg = NULL;
	double bin = 0.05;
	bool strict = false;
	struct sweep_point *pts;
	char title[256];
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long l;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return usage(stdout, 0);
		if (!strcmp(a, "--check")) {
			c.check = true;
			continue;
		}
		if (!strcmp(a, "--no-progress")) {
			c.progress = false;
			continue;
		}
		if (!strcmp(a, "--strict")) {
			strict = true;
			continue;
		}
		if (!strcmp(a, "--check-analysis")) {
			c.check_analysis = true;
			continue;
		}
		if (!takes_value(a)) {
			if (a[0] == '-')
				fprintf(stderr, "dlsim sweep: unknown option %s\n", a);
			else
				fprintf(stderr, "dlsim sweep: unexpected argument \"%s\"\n", a);
			return usage(stderr, 64);
		}
		if (!v) {
			fprintf(stderr, "dlsim sweep: %s needs a value\n", a);
			return usage(stderr, 64);
		}
		i++;
		if (!strcmp(a, "--cpus")) {
			if (!parse_long(v, 1, WL_MAX_CPUS, &l))
				return bad(a, "a CPU count from 1 to 64", v);
			c.nr_cpus = (int)l;
		} else if (!strcmp(a, "--tasks")) {
			if (!parse_long(v, 1, SWEEP_MAX_TASKS, &l))
				return bad(a, "a task count from 1 to 4096", v);
			c.nr_tasks = (int)l;
		} else if (!strcmp(a, "--util")) {
			util_arg = v;
		} else if (!strcmp(a, "--sets")) {
			if (!parse_long(v, 1, 10000000, &l))
				return bad(a, "a number of sets from 1 to 10000000", v);
			c.sets = (int)l;
		} else if (!strcmp(a, "--gen")) {
			if (!strcmp(v, "randfixedsum"))
				c.gen = SWEEP_RANDFIXEDSUM;
			else if (!strcmp(v, "uunifast") || !strcmp(v, "uunifast-discard"))
				c.gen = SWEEP_UUNIFAST;
			else
				return bad(a, "randfixedsum or uunifast", v);
		} else if (!strcmp(a, "--deadlines")) {
			if (!strcmp(v, "implicit"))
				c.deadlines = SWEEP_IMPLICIT;
			else if (!strcmp(v, "constrained"))
				c.deadlines = SWEEP_CONSTRAINED;
			else
				return bad(a, "implicit or constrained", v);
		} else if (!strcmp(a, "--periods")) {
			double p[3] = { 0, 0, 1 };
			const char *q = v, *end = v;
			int k = 0;

			while (k < 3 && parse_double_at(q, &p[k], &end)) {
				k++;
				if (*end != ':')
					break;
				q = end + 1;
			}
			if (k < 2 || *end || p[0] < 0.1 || p[1] < p[0] || p[1] > 4194 ||
			    p[2] <= 0 || p[2] * 1000 < 1 || p[2] > p[1])
				return bad(a, "MIN:MAX[:GRAN] in ms with 0.1 <= MIN <= MAX <= 4194 "
					   "and 0.001 <= GRAN <= MAX", v);
			c.period_min_us = (uint64_t)llround(p[0] * 1000);
			c.period_max_us = (uint64_t)llround(p[1] * 1000);
			c.period_gran_us = (uint64_t)llround(p[2] * 1000);
		} else if (!strcmp(a, "--horizon")) {
			double ms;

			if (!parse_double(v, &ms) || ms <= 0 || ms > 1e9)
				return bad(a, "a positive time in ms", v);
			c.horizon_us = (uint64_t)llround(ms * 1000);
			if (!c.horizon_us)
				return bad(a, "at least 0.001 ms", v);
		} else if (!strcmp(a, "--mode")) {
			if (!strcmp(v, "global"))
				c.mode = WL_MODE_GLOBAL;
			else if (!strcmp(v, "partitioned"))
				c.mode = WL_MODE_PARTITIONED;
			else
				return bad(a, "global or partitioned", v);
		} else if (!strcmp(a, "--seed")) {
			if (!parse_u64(v, &c.seed))
				return bad(a, "an unsigned 64-bit integer", v);
		} else if (!strcmp(a, "--dir")) {
			dir = v;
		} else if (!strcmp(a, "--bin")) {
			if (!parse_double(v, &bin) || bin <= 0)
				return bad(a, "a positive utilisation width", v);
		} else if (!strcmp(a, "--jobs")) {
			if (!parse_long(v, 1, 1024, &l))
				return bad(a, "a number of threads from 1 to 1024", v);
			c.jobs = (int)l;
		} else if (!strcmp(a, "--csv")) {
			csv = v;
		} else if (!strcmp(a, "--save")) {
			c.save_dir = v;
		} else if (!strcmp(a, "--tests")) {
			if (sweep_parse_tests(v, &c.tests))
				return bad(a, "a comma list of qpa, gfb, bak, bcl, rta, ff", v);
		} else {
			svg = v;
		}
	}
	if (dir && (c.tests || c.check_analysis)) {
		fprintf(stderr, "dlsim sweep: --tests and --check-analysis need generated sets, "
			"not --dir\n");
		return 64;
	}
	if (dir)
		return run_dir(&c, dir, bin, strict, csv, svg);

	if (util_arg) {
		if (parse_utils(util_arg, &c.utils, &c.nr_utils))
			return bad("--util", "A:B:S with 0 < A <= B and S > 0, or a comma list "
				   "of positive utilisations", util_arg);
	} else {
		c.nr_utils = 20;
		c.utils = malloc(sizeof(*c.utils) * 20);
		if (!c.utils)
			return 1;
		for (int i = 0; i < 20; i++)
			c.utils[i] = c.nr_cpus * (i + 1) / 20.0;
	}
	for (int i = 0; i < c.nr_utils; i++)
		if (c.utils[i] > c.nr_tasks) {
			fprintf(stderr, "dlsim sweep: --util: utilisation %g needs more than "
				"--tasks %d tasks (each task's utilisation is at most 1)\n",
				c.utils[i], c.nr_tasks);
			free(c.utils);
			return 64;
		}
	if (!c.horizon_us)
		c.horizon_us = 10 * c.period_max_us;
	printf("dlsim sweep: %d CPU%s (%s), %d tasks, %s, %s deadlines, periods %g-%g ms "
	       "(step %g), horizon %g ms, %d sets per utilisation, seed %llu\n",
	       c.nr_cpus, c.nr_cpus > 1 ? "s" : "",
	       c.mode == WL_MODE_PARTITIONED ? "partitioned, first fit" : "global EDF",
	       c.nr_tasks, c.gen == SWEEP_UUNIFAST ? "UUniFast-discard" : "Randfixedsum",
	       c.deadlines == SWEEP_IMPLICIT ? "implicit" : "constrained",
	       (double)c.period_min_us / 1000, (double)c.period_max_us / 1000,
	       (double)c.period_gran_us / 1000, (double)c.horizon_us / 1000, c.sets,
	       (unsigned long long)c.seed);
	pts = calloc((size_t)c.nr_utils, sizeof(*pts));
	if (!pts) {
		free(c.utils);
		return 1;
	}
	rc = sweep_run(&c, pts, stderr) ? 1 : 0;
	{
		unsigned int lifted = 0;

		for (int i = 0; i < c.nr_utils; i++)
			lifted += pts[i].lifted;
		if (lifted)
			fprintf(stderr, "dlsim sweep: warning: in %u set%s a task's u T was under "
				"2 us and its budget was raised to 2 us, above the step's "
				"utilisation; longer periods avoid it\n", lifted,
				lifted > 1 ? "s" : "");
	}
	snprintf(title, sizeof(title), "%d CPU%s, %d tasks, %s, %s deadlines, %d sets per point",
		 c.nr_cpus, c.nr_cpus > 1 ? "s" : "", c.nr_tasks,
		 c.gen == SWEEP_UUNIFAST ? "UUniFast-discard" : "Randfixedsum",
		 c.deadlines == SWEEP_IMPLICIT ? "implicit" : "constrained", c.sets);
	if (!rc)
		rc = finish(pts, c.nr_utils, csv, svg, title, c.tests);
	{
		unsigned int disagree = 0;

		for (int i = 0; i < c.nr_utils; i++)
			disagree += pts[i].disagree;
		if (c.check_analysis)
			fprintf(disagree ? stderr : stdout,
				"dlsim sweep: analysis and simulation disagree on %u set%s\n",
				disagree, disagree == 1 ? "" : "s");
		if (disagree && !rc)
			rc = 2;
	}
	free(pts);
	free(c.utils);
	return rc;
}
