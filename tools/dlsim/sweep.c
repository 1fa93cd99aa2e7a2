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
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dlsched/sched.h>

#include "sim.h"


/* ---- random numbers ------------------------------------------------------ */

void sweep_rng_seed(struct sweep_rng *r, uint64_t seed, uint64_t step, uint64_t index)
{
	uint64_t x = seed;

	x = dls_prng_splitmix64(&x) ^ step;
	x = dls_prng_splitmix64(&x) ^ index;
	dls_prng_seed(&r->p, x);
}

uint64_t sweep_rng_next(struct sweep_rng *r)
{
	return dls_prng_next(&r->p);
}

double sweep_rng_unit(struct sweep_rng *r)
{
	return dls_prng_unit(&r->p);
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

/* ---- parallel runner ------------------------------------------------------ */


struct runner {
	sweep_item_fn fn;
	void *ctx;
	size_t n, next, done;
	signed char *result;
	uint64_t *events;
	bool progress, drawn, stop;
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
	char eta[32] = "";
	int fill;

	/* Like a single run's: only once the sweep has taken a second. */
	if (!r->progress || (!force && (now - r->start < 1 || now - r->last_draw < 0.1)))
		return;
	r->last_draw = now;
	r->drawn = true;
	fill = (int)((double)width * (double)r->done / (double)(r->n ? r->n : 1));
	/* the sets left at the mean rate so far */
	if (r->done && r->done < r->n)
		dlsim_format_eta(eta, sizeof(eta), (now - r->start) *
				 (double)(r->n - r->done) / (double)r->done);
	fprintf(stderr, "\rsweep [%.*s%*s] %3d%% %zu/%zu sets%s%-12s", fill,
		"########################################", width - fill, "",
		(int)(100.0 * (double)r->done / (double)(r->n ? r->n : 1)), r->done, r->n,
		*eta ? ", ETA " : "", eta);
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
		/* a signal or a failed save: no new item starts */
		r->stop |= sweep_caught_signal() != 0;
		i = r->next < r->n && !r->stop ? r->next++ : r->n;
		pthread_mutex_unlock(&r->lock);
		if (i == r->n)
			return NULL;
		res = r->fn(r->ctx, i, &ev);
		pthread_mutex_lock(&r->lock);
		r->result[i] = (signed char)res;
		r->events[i] = ev;
		r->stop |= res == SWEEP_ESAVE;
		r->done++;
		draw_progress(r, false);
		pthread_mutex_unlock(&r->lock);
	}
}

/* Run fn on items 0..n-1 on `jobs` threads (the caller is one of them). */
int sweep_run_items(size_t n, int jobs, bool progress, sweep_item_fn fn, void *ctx,
		    signed char *result, uint64_t *events)
{
	struct runner r = { .fn = fn, .ctx = ctx, .n = n, .result = result,
			    .events = events, .progress = progress };
	pthread_t *th = NULL;
	int started = 0;

	if (pthread_mutex_init(&r.lock, NULL))
		return -1;
	memset(result, SWEEP_NOT_RUN, n);
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

/* The sets this process runs: the k-th of its share is set
 * rank + k * size. */
struct gen_ctx {
	const struct sweep_config *c;
	size_t rank, size;
	unsigned char *lifted; /* per set of the share: some budget was raised to 2 us */
	unsigned char *accepts;  /* a bit per accepting test */
	unsigned char *disagree; /* analysis and simulation disagree */
	pthread_mutex_t lock;    /* the first save that failed: */
	int save_errno;
	char save_path[4096];
};

static int gen_item(void *arg, size_t k, uint64_t *events)
{
	struct gen_ctx *ctx = arg;
	struct sweep_config one = *ctx->c; /* this set's, with its guest budget */
	const struct sweep_config *c = &one;
	struct sweep_task *tasks = malloc(sizeof(*tasks) * (size_t)c->nr_tasks);
	size_t i = ctx->rank + k * ctx->size;
	int step = (int)(i / (size_t)c->sets), index = (int)(i % (size_t)c->sets);
	struct sweep_guest g;
	int rc;

	if (!tasks)
		return -3;
	rc = sweep_taskset(c, step, index, tasks);
	if (rc == 0 && c->guest_period_us) {
		g.err = sweep_guest_budget(c, tasks, &g.budget_us, &g.accepted);
		one.guest_set = &g;
	}
	for (int t = 0; rc == 0 && t < c->nr_tasks; t++)
		ctx->lifted[k] |= tasks[t].lifted;
	if (rc == 0 && c->save_dir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/set-%04d-%06d.json", c->save_dir, step, index);
		if (sweep_write_taskset(c, tasks, c->utils[step], path)) {
			pthread_mutex_lock(&ctx->lock);
			if (!ctx->save_errno) {
				ctx->save_errno = errno ? errno : EIO;
				snprintf(ctx->save_path, sizeof(ctx->save_path), "%s", path);
			}
			pthread_mutex_unlock(&ctx->lock);
			free(tasks);
			return SWEEP_ESAVE;
		}
	}
	if (rc == 0)
		rc = sweep_simulate(c, tasks, events);
	else
		rc = rc == -2 ? -2 : -1;
	if (rc >= 0 && (c->tests || c->check_analysis)) {
		int a = sweep_analyze_set(c, step, index, tasks, rc, &ctx->accepts[k], events);

		if (a < 0)
			rc = -1;
		ctx->disagree[k] = a > 0;
	}
	free(tasks);
	return rc;
}

/* Run this process's share of the n sets into own[] (nr_own of them);
 * *st says how it went. 0, or -1 out of memory. */
static int run_share(const struct sweep_config *c, size_t rank, size_t size, size_t nr_own,
		     struct sweep_outcome *own, struct sweep_share_status *st)
{
	size_t m = nr_own ? nr_own : 1;
	signed char *result = calloc(m, 1);
	uint64_t *events = calloc(m, sizeof(*events));
	struct gen_ctx ctx = { .c = c, .rank = rank, .size = size, .lifted = calloc(m, 1),
			       .accepts = calloc(m, 1), .disagree = calloc(m, 1) };
	int rc = -1;

	if (result && events && ctx.lifted && ctx.accepts && ctx.disagree &&
	    !pthread_mutex_init(&ctx.lock, NULL)) {
		/* the progress bar of a shared sweep is rank 0's share */
		sweep_run_items(nr_own, c->jobs, c->progress && rank == 0, gen_item, &ctx,
				result, events);
		for (size_t k = 0; k < nr_own; k++)
			own[k] = (struct sweep_outcome){ .events = events[k], .result = result[k],
							 .lifted = ctx.lifted[k],
							 .accepts = ctx.accepts[k],
							 .disagree = ctx.disagree[k] };
		st->rank = (int)rank;
		st->save_errno = ctx.save_errno;
		memcpy(st->save_path, ctx.save_path, sizeof(st->save_path));
		st->signal = sweep_caught_signal();
		pthread_mutex_destroy(&ctx.lock);
		rc = 0;
	}
	free(ctx.disagree);
	free(ctx.accepts);
	free(ctx.lifted);
	free(result);
	free(events);
	return rc;
}

/* The rows from every set's outcome, in set order. Returns @rc, or -1
 * for a set that failed (said on err unless @rc already is a failure). */
static int sum_rows(const struct sweep_config *c, const struct sweep_outcome *all,
		    struct sweep_point *points, int rc, FILE *err)
{

	for (int s = 0; s < c->nr_utils; s++) {
		struct sweep_point *p = &points[s];

		*p = (struct sweep_point){ .util = c->utils[s] };
		for (int k = 0; k < c->sets; k++) {
			const struct sweep_outcome *o = &all[(size_t)s * (size_t)c->sets + (size_t)k];

			if (o->result == SWEEP_NOT_RUN || o->result == SWEEP_ESAVE) {
				p->partial = true;
				continue;
			}
			p->sets++;
			p->events += o->events;
			p->lifted += o->lifted;
			p->disagree += o->disagree;
			for (int t = 0; t < SWEEP_NR_TESTS; t++)
				p->accepted[t] += (o->accepts >> t) & 1;
			if (o->result == 1)
				p->schedulable++;
			p->refused += o->result == SWEEP_REFUSED;
			if (o->result < 0 && rc >= 0) {
				if (o->result == -2)
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
	return rc;
}

int sweep_run(const struct sweep_config *c, struct sweep_point *points, FILE *err)
{
	struct sweep_dist *d = c->dist;
	size_t n = (size_t)c->nr_utils * (size_t)c->sets;
	size_t rank = d ? (size_t)d->rank : 0, size = d ? (size_t)d->size : 1;
	size_t nr_own = n > rank ? (n - rank + size - 1) / size : 0;
	struct sweep_outcome *own = calloc(nr_own ? nr_own : 1, sizeof(*own)), *all = own;
	struct sweep_share_status st = { 0 };
	int rc = 0;

	if (!own || run_share(c, rank, size, nr_own, own, &st)) {
		fprintf(err, "dlsim sweep: out of memory\n");
		free(own);
		return -1;
	}
	if (d) {
		all = rank == 0 ? calloc(n ? n : 1, sizeof(*all)) : NULL;
		if (rank == 0 && !all)
			fprintf(err, "dlsim sweep: out of memory for the %zu sets' outcomes\n", n);
		/* every process takes part, even the one that cannot keep them */
		rc = d->gather(d->ctx, own, nr_own, all, n, &st);
		d->running = false;
		free(own);
		if (rank == 0 && st.signal) {
			d->stop_signal = st.signal;
			free(all);
			return SWEEP_ESTOPPED;
		}
		if (rank != 0 || rc || !all) {
			free(all);
			return rank != 0 && !rc ? 0 : -1;
		}
	}
	if (st.save_errno && d)
		fprintf(err, "dlsim sweep: rank %d cannot write %s: %s (that rank stopped; the "
			"sets written before it are complete)\n", st.rank, st.save_path,
			strerror(st.save_errno));
	else if (st.save_errno)
		fprintf(err, "dlsim sweep: cannot write %s: %s (the sweep stopped; the sets "
			"written before it are complete)\n", st.save_path, strerror(st.save_errno));
	rc = sum_rows(c, all, points, st.save_errno ? SWEEP_ESAVE : 0, err);
	free(all);
	return rc;
}
