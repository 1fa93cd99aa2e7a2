/*
 * dlsim sweep: the task-set generators (exact totals, per-task bounds, the
 * distribution UUniFast is known to have, Randfixedsum against it), task
 * parameters, determinism across worker counts, and schedulability ratios
 * that are known in advance (EDF on one CPU schedules every implicit-
 * deadline set with U <= 1, Liu & Layland 1973; nothing schedules U > M).
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dlsched/analysis.h>

#include "dls_test.h"
#include "sim.h"
#include "sweep.h"

static void check_vector(const double *u, int n, double total)
{
	double sum = 0;

	for (int i = 0; i < n; i++) {
		if (!(u[i] > 0 && u[i] <= 1))
			fprintf(stderr, "u[%d] = %.17g out of (0, 1] (n %d, U %g)\n", i, u[i], n, total);
		CU_ASSERT_FATAL(u[i] > 0 && u[i] <= 1);
		sum += u[i];
	}
	if (fabs(sum - total) > 1e-9)
		fprintf(stderr, "sum %.17g != U %.17g (n %d)\n", sum, total, n);
	CU_ASSERT_FATAL(fabs(sum - total) <= 1e-9);
}

static void test_exact_totals(void)
{
	static const int ns[] = { 1, 2, 3, 5, 10, 50, 200, 1000 };
	static const double fractions[] = { 1e-6, 0.01, 0.3, 0.5, 0.77, 0.95, 0.999, 1.0 };
	uint64_t seed = dls_test_seed("sweep generators", 7);
	double *u = malloc(sizeof(*u) * 1000);

	CU_ASSERT_PTR_NOT_NULL_FATAL(u);
	for (size_t a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
		for (size_t b = 0; b < sizeof(fractions) / sizeof(fractions[0]); b++) {
			int n = ns[a];
			double total = fractions[b] * n;

			for (uint64_t k = 0; k < 5; k++) {
				struct sweep_rng r;

				sweep_rng_seed(&r, seed, a * 100 + b, k);
				DLS_ASSERT_EQ_S64(sweep_randfixedsum(&r, n, total, u), 0);
				check_vector(u, n, total);
				/* UUniFast-discard only where its acceptance is not
				 * astronomically small. */
				if (total <= 1 || (n <= 10 && fractions[b] <= 0.5) ||
				    (n <= 3 && fractions[b] <= 0.95)) {
					DLS_ASSERT_EQ_S64(sweep_uunifast_discard(&r, n, total, u, 1000000), 0);
					check_vector(u, n, total);
				}
			}
		}
	/* Impossible requests. */
	{
		struct sweep_rng r;

		sweep_rng_seed(&r, 1, 0, 0);
		DLS_ASSERT_EQ_S64(sweep_randfixedsum(&r, 3, 3.5, u), -1);
		DLS_ASSERT_EQ_S64(sweep_randfixedsum(&r, 3, 0, u), -1);
		DLS_ASSERT_EQ_S64(sweep_randfixedsum(&r, 0, 0.5, u), -1);
		DLS_ASSERT_EQ_S64(sweep_uunifast_discard(&r, 3, 3.5, u, 10), -1);
		DLS_ASSERT_EQ_S64(sweep_uunifast_discard(&r, 3, -1, u, 10), -1);
		/* 100 tasks at 99% each: discarding never succeeds. */
		DLS_ASSERT_EQ_S64(sweep_uunifast_discard(&r, 100, 99, u, 100), -2);
	}
	free(u);
}

/*
 * Uniform on the simplex {u >= 0, sum u = U}: every u_i has mean U/n and
 * u_i/U follows Beta(1, n-1), P(u_i <= xU) = 1 - (1 - x)^(n-1). For U <= 1
 * the unit cube does not cut the simplex, so Randfixedsum must give the
 * same distribution as UUniFast.
 */
static void check_uniform(int gen, int n, double total, int draws)
{
	static const double xs[] = { 0.1, 0.25, 0.5, 0.75 };
	double mean[8] = { 0 }, below[8][4] = { { 0 } }, u[8];
	struct sweep_rng r;

	sweep_rng_seed(&r, dls_test_seed("sweep uniformity", 11), (uint64_t)gen, (uint64_t)n);
	for (int d = 0; d < draws; d++) {
		int rc = gen ? sweep_randfixedsum(&r, n, total, u)
			     : sweep_uunifast_discard(&r, n, total, u, 100);

		CU_ASSERT_EQUAL_FATAL(rc, 0);
		for (int i = 0; i < n; i++) {
			mean[i] += u[i];
			for (int k = 0; k < 4; k++)
				below[i][k] += u[i] <= xs[k] * total;
		}
	}
	for (int i = 0; i < n; i++) {
		/* Var(u_i) = U^2 (n-1) / (n^2 (n+1)); allow 5 standard errors. */
		double sd = total * sqrt((double)(n - 1) / ((double)n * n * (n + 1)));
		double m = mean[i] / draws;

		if (fabs(m - total / n) > 5 * sd / sqrt(draws))
			fprintf(stderr, "%s: mean u[%d] = %g, want %g\n",
				gen ? "randfixedsum" : "uunifast", i, m, total / n);
		CU_ASSERT(fabs(m - total / n) <= 5 * sd / sqrt(draws));
		for (int k = 0; k < 4; k++) {
			double p = 1 - pow(1 - xs[k], n - 1);
			double f = below[i][k] / draws;
			double tol = 5 * sqrt(p * (1 - p) / draws);

			if (fabs(f - p) > tol)
				fprintf(stderr, "%s: P(u[%d] <= %g U) = %g, want %g\n",
					gen ? "randfixedsum" : "uunifast", i, xs[k], f, p);
			CU_ASSERT(fabs(f - p) <= tol);
		}
	}
}

static void test_uniformity(void)
{
	int draws = (int)dls_test_scaled(20000);

	check_uniform(0, 4, 0.8, draws);
	check_uniform(0, 8, 1.0, draws);
	check_uniform(1, 4, 0.8, draws);
	check_uniform(1, 8, 1.0, draws);
}

/*
 * Where the cube does cut (U > 1) both generators are uniform on the same
 * region. Three tasks at U = 1.5, projected on (u_1, u_2): the unit square
 * less the corners u_1 + u_2 < 0.5 and u_1 + u_2 > 1.5, area 3/4. The
 * strip u_1 <= 1/4 keeps 1/4 - 3/32 of it, so P(u_1 <= 1/4) = 5/24; the
 * hexagon is symmetric about u_1 = 1/2, so P(u_1 <= 1/2) = 1/2.
 */
static void test_generators_agree_above_one(void)
{
	static const double xs[2] = { 0.25, 0.5 }, want[2] = { 5.0 / 24, 0.5 };
	int draws = (int)dls_test_scaled(20000);
	double f[2][2] = { { 0 } }, u[3];
	struct sweep_rng r;

	sweep_rng_seed(&r, dls_test_seed("sweep agreement", 3), 0, 0);
	for (int d = 0; d < draws; d++) {
		CU_ASSERT_EQUAL_FATAL(sweep_uunifast_discard(&r, 3, 1.5, u, 1000), 0);
		for (int k = 0; k < 2; k++)
			f[0][k] += u[0] <= xs[k];
		CU_ASSERT_EQUAL_FATAL(sweep_randfixedsum(&r, 3, 1.5, u), 0);
		for (int k = 0; k < 2; k++)
			f[1][k] += u[0] <= xs[k];
	}
	for (int g = 0; g < 2; g++)
		for (int k = 0; k < 2; k++) {
			double tol = 5 * sqrt(want[k] * (1 - want[k]) / draws);

			if (fabs(f[g][k] / draws - want[k]) > tol)
				fprintf(stderr, "%s: P(u1 <= %g) = %g, want %g\n",
					g ? "randfixedsum" : "uunifast", xs[k], f[g][k] / draws,
					want[k]);
			CU_ASSERT(fabs(f[g][k] / draws - want[k]) <= tol);
		}
}

static struct sweep_config config(int cpus, int tasks, double *utils, int nr_utils, int sets)
{
	return (struct sweep_config){
		.gen = SWEEP_RANDFIXEDSUM, .deadlines = SWEEP_IMPLICIT,
		.nr_cpus = cpus, .nr_tasks = tasks, .utils = utils, .nr_utils = nr_utils,
		.sets = sets, .seed = 42, .period_min_us = 10000, .period_max_us = 100000,
		.period_gran_us = 1000, .horizon_us = 300000, .mode = WL_MODE_GLOBAL,
		.jobs = 1, .max_tries = 100000,
	};
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	return b ? gcd_u64(b, a % b) : a;
}

static bool same_set(const struct sweep_task *a, const struct sweep_task *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].u != b[i].u || a[i].runtime_us != b[i].runtime_us ||
		    a[i].deadline_us != b[i].deadline_us || a[i].period_us != b[i].period_us ||
		    a[i].lifted != b[i].lifted)
			return false;
	return true;
}

static void test_taskset_parameters(void)
{
	double utils[] = { 0.5, 2.5 };
	struct sweep_config c = config(4, 12, utils, 2, 1);
	struct sweep_task a[12], b[12];

	for (int dl = 0; dl < 2; dl++) {
		c.deadlines = dl ? SWEEP_CONSTRAINED : SWEEP_IMPLICIT;
		c.gen = dl ? SWEEP_UUNIFAST : SWEEP_RANDFIXEDSUM;
		for (int step = 0; step < 2; step++)
			for (int k = 0; k < 50; k++) {
				double sum = 0, csum = 0, lift = 0;

				DLS_ASSERT_EQ_S64(sweep_taskset(&c, step, k, a), 0);
				for (int i = 0; i < 12; i++) {
					CU_ASSERT(a[i].period_us >= c.period_min_us);
					CU_ASSERT(a[i].period_us <= c.period_max_us);
					CU_ASSERT_EQUAL(a[i].period_us % c.period_gran_us, 0);
					CU_ASSERT(a[i].runtime_us >= 2);
					CU_ASSERT(a[i].runtime_us <= a[i].deadline_us);
					CU_ASSERT(a[i].deadline_us <= a[i].period_us);
					if (!dl) {
						CU_ASSERT_EQUAL(a[i].deadline_us, a[i].period_us);
					}
					sum += a[i].u;
					csum += (double)a[i].runtime_us / (double)a[i].period_us;
				}
				CU_ASSERT(fabs(sum - utils[step]) <= 1e-9);
				/* C is rounded down to whole microseconds, or raised to
				 * 2 us where u T is smaller. */
				for (int i = 0; i < 12; i++) {
					CU_ASSERT_EQUAL(a[i].lifted, a[i].u * (double)a[i].period_us < 2);
					if (a[i].lifted)
						lift += 2.0 / (double)a[i].period_us;
				}
				CU_ASSERT(csum <= utils[step] + lift + 1e-12);
				CU_ASSERT(csum >= utils[step] - 12 * 1.0 / 10000);
				/* Same (seed, step, index): same set; the next index differs. */
				DLS_ASSERT_EQ_S64(sweep_taskset(&c, step, k, b), 0);
				CU_ASSERT(same_set(a, b, 12));
				DLS_ASSERT_EQ_S64(sweep_taskset(&c, step, k + 1, b), 0);
				CU_ASSERT(!same_set(a, b, 12));
			}
	}
}

/* Periods of 100 us and utilisations near 1%: u T under 2 us is raised to
 * the 2 us minimum budget, marked, and counted per step. */
static void test_lifted_budgets(void)
{
	double utils[] = { 0.1 };
	struct sweep_config c = config(1, 10, utils, 1, 4);
	struct sweep_task t[10];
	struct sweep_point p;
	unsigned int sets_lifted = 0;

	c.period_min_us = c.period_max_us = c.period_gran_us = 100;
	c.horizon_us = 1000;
	for (int k = 0; k < 4; k++) {
		bool any = false;

		DLS_ASSERT_EQ_S64(sweep_taskset(&c, 0, k, t), 0);
		for (int i = 0; i < 10; i++) {
			CU_ASSERT(t[i].runtime_us >= 2);
			CU_ASSERT_EQUAL(t[i].lifted, t[i].u * 100 < 2);
			any |= t[i].lifted;
		}
		sets_lifted += any;
	}
	CU_ASSERT(sets_lifted > 0);
	DLS_ASSERT_EQ_S64(sweep_run(&c, &p, stderr), 0);
	DLS_ASSERT_EQ_U64(p.lifted, sets_lifted);
}

static void test_determinism_across_jobs(void)
{
	double utils[] = { 0.8, 1.4, 1.8 };
	struct sweep_config c = config(2, 6, utils, 3, 12);
	struct sweep_point p1[3], p2[3], p3[3];

	c.deadlines = SWEEP_CONSTRAINED;
	DLS_ASSERT_EQ_S64(sweep_run(&c, p1, stderr), 0);
	c.jobs = 2;
	DLS_ASSERT_EQ_S64(sweep_run(&c, p2, stderr), 0);
	c.jobs = 5;
	DLS_ASSERT_EQ_S64(sweep_run(&c, p3, stderr), 0);
	for (int i = 0; i < 3; i++) {
		DLS_ASSERT_EQ_U64(p1[i].sets, 12);
		DLS_ASSERT_EQ_U64(p1[i].schedulable, p2[i].schedulable);
		DLS_ASSERT_EQ_U64(p1[i].schedulable, p3[i].schedulable);
		DLS_ASSERT_EQ_U64(p1[i].events, p2[i].events);
		DLS_ASSERT_EQ_U64(p1[i].events, p3[i].events);
		CU_ASSERT(p1[i].events > 0);
	}
}

/*
 * A sweep shared by processes (struct sweep_dist, the contract dlsim-mpi's
 * transport fills), with the transport faked in this process: ranks run one
 * after another, rank 0 last; each other rank's outcomes and status wait
 * here until rank 0 gathers them.
 */
#define FAKE_RANKS 4
struct fake_transport {
	int rank, size;            /* the rank running now, of size */
	struct sweep_outcome *share[FAKE_RANKS];
	size_t nr[FAKE_RANKS];
	struct sweep_share_status st[FAKE_RANKS];
	int lost;                  /* a rank whose outcomes never come (0: none) */
};

static int fake_gather(void *arg, const struct sweep_outcome *own, size_t nr_own,
		       struct sweep_outcome *all, size_t n, struct sweep_share_status *st)
{
	struct fake_transport *f = arg;
	int size = f->size;

	if (f->rank != 0) {
		CU_ASSERT_PTR_NULL(all);
		f->share[f->rank] = malloc((nr_own ? nr_own : 1) * sizeof(*own));
		CU_ASSERT_PTR_NOT_NULL_FATAL(f->share[f->rank]);
		memcpy(f->share[f->rank], own, nr_own * sizeof(*own));
		f->nr[f->rank] = nr_own;
		f->st[f->rank] = *st;
		return 0;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	for (size_t k = 0; k < nr_own; k++)
		all[k * (size_t)size] = own[k];
	for (int r = 1; r < size; r++) {
		if (r == f->lost)
			return -1;
		for (size_t k = 0; k < f->nr[r]; k++) {
			CU_ASSERT_FATAL((size_t)r + k * (size_t)size < n);
			all[(size_t)r + k * (size_t)size] = f->share[r][k];
		}
		if (!st->signal)
			st->signal = f->st[r].signal;
	}
	return 0;
}

static int fake_agree(void *ctx, int rc)
{
	(void)ctx;
	return rc;
}

/* Run c shared by @size fake ranks into p (rank 0's points); rank 0's return.
 * @signal_rank: that rank's share reports SIGINT; @lost: that rank's never come. */
static int run_shared(struct sweep_config c, int size, struct sweep_point *p, int nr_points,
		      int signal_rank, int lost, int *stop_signal)
{
	struct fake_transport f = { .size = size, .lost = lost };
	struct sweep_dist d = { .size = size, .gather = fake_gather, .agree = fake_agree,
				.ctx = &f };
	struct sweep_point untouched[8];
	int rc;

	CU_ASSERT_FATAL(nr_points <= 8 && size <= FAKE_RANKS);
	c.dist = &d;
	for (int r = size - 1; r >= 0; r--) {
		f.rank = d.rank = r;
		memset(p, 0xa5, sizeof(*p) * (size_t)nr_points);
		memcpy(untouched, p, sizeof(*p) * (size_t)nr_points);
		rc = sweep_run(&c, p, stderr);
		if (r == signal_rank)
			f.st[r].signal = SIGINT;
		if (r != 0) {
			/* another rank fills nothing and leaves the table to rank 0 */
			DLS_ASSERT_EQ_S64(rc, 0);
			CU_ASSERT(!memcmp(p, untouched, sizeof(*p) * (size_t)nr_points));
		}
	}
	for (int r = 1; r < size; r++)
		free(f.share[r]);
	*stop_signal = d.stop_signal;
	return rc;
}

/* Shared by 1 to 4 ranks (39 sets: shares of 10 and 9), every row is the
 * one process's, field by field; a rank stopped by a signal makes rank 0
 * stop with no table, and a rank whose sets never come fails it. */
static void test_shared_by_ranks(void)
{
	double utils[] = { 0.8, 1.4, 1.8 };
	struct sweep_config c = config(2, 6, utils, 3, 13);
	struct sweep_point one[3], p[3];
	int sig;

	c.tests = 1u << SWEEP_TEST_GFB | 1u << SWEEP_TEST_BAK;
	c.deadlines = SWEEP_CONSTRAINED;
	DLS_ASSERT_EQ_S64(sweep_run(&c, one, stderr), 0);
	for (int size = 1; size <= FAKE_RANKS; size++) {
		DLS_ASSERT_EQ_S64(run_shared(c, size, p, 3, -1, 0, &sig), 0);
		DLS_ASSERT_EQ_S64(sig, 0);
		for (int i = 0; i < 3; i++) {
			CU_ASSERT_EQUAL(p[i].util, one[i].util);
			DLS_ASSERT_EQ_U64(p[i].sets, 13);
			DLS_ASSERT_EQ_U64(p[i].schedulable, one[i].schedulable);
			DLS_ASSERT_EQ_U64(p[i].events, one[i].events);
			DLS_ASSERT_EQ_U64(p[i].lifted, one[i].lifted);
			DLS_ASSERT_EQ_U64(p[i].disagree, one[i].disagree);
			for (int t = 0; t < SWEEP_NR_TESTS; t++)
				DLS_ASSERT_EQ_U64(p[i].accepted[t], one[i].accepted[t]);
			CU_ASSERT_FALSE(p[i].partial);
		}
	}
	/* the sweep must have something to compare: not all equal */
	CU_ASSERT(one[0].schedulable != one[2].schedulable ||
		  one[0].accepted[SWEEP_TEST_BAK] != one[2].accepted[SWEEP_TEST_BAK]);
	DLS_ASSERT_EQ_S64(run_shared(c, 3, p, 3, 2, 0, &sig), SWEEP_ESTOPPED);
	DLS_ASSERT_EQ_S64(sig, SIGINT);
	DLS_ASSERT_EQ_S64(run_shared(c, 3, p, 3, -1, 2, &sig), -1);
	DLS_ASSERT_EQ_S64(sig, 0);
}

/* EDF is optimal on one CPU: every implicit-deadline set with U <= 1 meets
 * every deadline (Liu & Layland 1973), with either generator, including
 * U = 1 exactly (C is rounded down; only a budget raised to the 2 us
 * minimum can take a set at U = 1 above it). */
static void test_one_cpu_up_to_full(void)
{
	double utils[] = { 0.25, 0.5, 0.75, 0.9, 1.0 };
	struct sweep_config c = config(1, 8, utils, 5, (int)dls_test_scaled(10) + 1);
	struct sweep_point p[5];

	for (int g = 0; g < 2; g++) {
		c.gen = g ? SWEEP_UUNIFAST : SWEEP_RANDFIXEDSUM;
		c.jobs = 2;
		DLS_ASSERT_EQ_S64(sweep_run(&c, p, stderr), 0);
		for (int i = 0; i < 5; i++) {
			unsigned int excused = utils[i] < 1 ? 0 : p[i].lifted;

			if (p[i].schedulable + excused < p[i].sets)
				fprintf(stderr, "U = %g: %u of %u schedulable, %u lifted\n",
					p[i].util, p[i].schedulable, p[i].sets, p[i].lifted);
			CU_ASSERT(p[i].schedulable + excused >= p[i].sets);
		}
	}
}

/* Above M no scheduler meets every deadline; in partitioned mode first fit
 * fails too, and on one CPU just above 1 the simulation itself must miss. */
static void test_overload(void)
{
	double utils[] = { 3.0, 3.9 };
	struct sweep_config c = config(2, 8, utils, 2, 10);
	struct sweep_point p[2];

	DLS_ASSERT_EQ_S64(sweep_run(&c, p, stderr), 0);
	DLS_ASSERT_EQ_U64(p[0].schedulable, 0);
	DLS_ASSERT_EQ_U64(p[1].schedulable, 0);
	c.mode = WL_MODE_PARTITIONED;
	DLS_ASSERT_EQ_S64(sweep_run(&c, p, stderr), 0);
	DLS_ASSERT_EQ_U64(p[0].schedulable, 0);
	DLS_ASSERT_EQ_U64(p[1].schedulable, 0);
}

/* The simulation path, without the admission shortcut: two tasks of
 * 6/10 ms and 6/10 ms cannot both finish by 10 ms on one CPU. */
static void test_miss_is_seen(void)
{
	double utils[] = { 1.2 };
	struct sweep_config c = config(2, 2, utils, 1, 1);
	struct sweep_task t[3] = {
		{ 0.6, 6000, 10000, 10000, false },
		{ 0.6, 6000, 10000, 10000, false },
		{ 0.6, 6000, 10000, 10000, false },
	};
	uint64_t events = 0;

	/* Two CPUs, three tasks of 0.6: U = 1.8 <= 2, but at every release
	 * the third job waits 6 ms and ends at 12 ms, after its deadline
	 * (Dhall-style: no job can be split across CPUs). */
	c.nr_tasks = 3;
	DLS_ASSERT_EQ_S64(sweep_simulate(&c, t, &events), 0);
	CU_ASSERT(events > 0);
	/* Two such tasks fit, one on each CPU. */
	c.nr_tasks = 2;
	DLS_ASSERT_EQ_S64(sweep_simulate(&c, t, &events), 1);
	/* One CPU, 1.2: refused before simulating. */
	c.nr_cpus = 1;
	DLS_ASSERT_EQ_S64(sweep_simulate(&c, t, &events), 0);
}

/*
 * Analysis beside simulation. Three tasks of 6/10 ms on two CPUs (above):
 * no sufficient global test accepts them, QPA on one CPU names 10 ms
 * (h(10 ms) = 18 ms) and the one-CPU simulation misses first there, so
 * the cross-check agrees. Then a set GFB accepts, reported as missed:
 * a disagreement, written as a workload file dlsim reads back.
 */
static void test_analysis_cross_check(void)
{
	double utils[] = { 1.8 };
	struct sweep_config c = config(2, 3, utils, 1, 1);
	struct sweep_task t[3] = {
		{ 0.6, 6000, 10000, 10000, false },
		{ 0.6, 6000, 10000, 10000, false },
		{ 0.6, 6000, 10000, 10000, false },
	};
	char dir[] = "/tmp/dlsim-sweep-XXXXXX", path[128];
	unsigned char acc = 0;
	uint64_t events = 0;
	struct workload w;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	c.tests = (1u << SWEEP_NR_TESTS) - 1;
	c.check_analysis = true;
	c.save_dir = dir;
	DLS_ASSERT_EQ_S64(sweep_analyze_set(&c, 0, 0, t, 0, &acc, &events), 0);
	DLS_ASSERT_EQ_U64(acc, 0);
	CU_ASSERT(events > 0); /* the one-CPU simulation of QPA's verdict ran */
	/* a light set every test accepts, claimed missed by the simulation */
	t[0].runtime_us = t[1].runtime_us = 1000;
	c.nr_tasks = 2;
	acc = 0;
	DLS_ASSERT_EQ_S64(sweep_analyze_set(&c, 0, 7, t, 0, &acc, &events), 1);
	CU_ASSERT(acc & (1u << SWEEP_TEST_GFB));
	snprintf(path, sizeof(path), "%s/disagree-0000-000007.json", dir);
	DLS_ASSERT_EQ_S64(workload_load_file(&w, path, true), 0);
	DLS_ASSERT_EQ_U64(w.nr_tasks, 2);
	workload_free(&w);
	remove(path);
	rmdir(dir);
	/* the same set with the simulation agreeing: no disagreement */
	DLS_ASSERT_EQ_S64(sweep_analyze_set(&c, 0, 7, t, 1, &acc, &events), 0);
}

/*
 * Global EDF on uniform CPUs. Funk, Goossens & Baruah's test (RTSS 2001)
 * is a guarantee for uniform EDF, which keeps the earliest-deadline jobs
 * on the fastest CPUs at every instant. The library's global EDF places as
 * Linux does: a running job is never moved to a CPU that becomes free, and
 * pull takes only waiting jobs. Capacities 960 and 256, tasks (C, T) =
 * (9510, 20000), (862, 40000), (10110, 20000) us (found by the random runs
 * below): U = 1.0026, lambda u_max = (256/960) 0.5055, 1.137 <= S = 1.1875,
 * so the test accepts. Uniform EDF (by hand): t0 on the fast CPU ends at
 * 10.144 ms, t2 then moves there with 7.574 ms of work left and ends at
 * 18.22 ms. In dlsim t2 stays on the slow CPU and ends at 40.44 ms while
 * the fast one idles: a miss. So the test is not a guarantee for this
 * scheduler on mixed capacities; it is on identical CPUs of any capacity
 * (it is GFB there), which the random runs check against dlsim.
 */
static void test_uniform_vs_simulation(void)
{
	static const uint64_t periods_ms[] = { 10, 20, 25, 40, 50, 100, 200 };
	static const uint32_t gap_cap[] = { 960, 256 };
	uint64_t runs = dls_test_scaled(240), accepted = 0, mixed_missed = 0, events = 0;
	struct sweep_task gap[3] = { { 0, 9510, 20000, 20000, false },
				     { 0, 862, 40000, 40000, false },
				     { 0, 10110, 20000, 20000, false } };
	struct dls_params gts[3];
	struct sweep_config g = config(2, 3, NULL, 0, 1);
	struct dls_analysis_result r;
	struct dls_test_rng rng;

	for (int i = 0; i < 3; i++)
		gts[i] = (struct dls_params){ .runtime = gap[i].runtime_us * 1000,
					      .deadline = gap[i].deadline_us * 1000,
					      .period = gap[i].period_us * 1000 };
	CU_ASSERT_EQUAL_FATAL(dls_analysis_uniform(gts, 3, gap_cap, 2, &r), 0);
	CU_ASSERT_TRUE(r.schedulable);
	g.capacity = gap_cap;
	g.horizon_us = 60000;
	DLS_ASSERT_EQ_S64(sweep_simulate_unadmitted(&g, gap, &events, true), 0);

	dls_test_rng_seed(&rng, dls_test_seed("sweep uniform", 0x0f6b));
	for (uint64_t run = 0; run < runs; run++) {
		int m = 2 + (int)dls_test_rng_below(&rng, 3);
		int n = m + 1 + (int)dls_test_rng_below(&rng, 4);
		bool identical = run % 2 == 0;
		uint32_t cap[4];
		struct sweep_task t[8];
		struct dls_params ts[8];
		struct sweep_config c = config(m, n, NULL, 0, 1);
		uint64_t H = 1, tmax = 0, speed = 0;
		int rc;

		for (int k = 0; k < m; k++) {
			cap[k] = identical && k ? cap[0]
				 : (uint32_t)(256 + 64 * dls_test_rng_below(&rng, 13));
			speed += cap[k];
		}
		for (int i = 0; i < n; i++) {
			uint64_t T = periods_ms[dls_test_rng_below(&rng, 7)] * 1000;
			/* u up to 3/4 of the mean speed, C at least 2 us */
			uint64_t C = 2 + dls_test_rng_below(&rng, 3 * T * speed / (uint64_t)m / 4096);

			t[i] = (struct sweep_task){ .u = (double)C / (double)T, .runtime_us = C,
						    .deadline_us = T, .period_us = T };
			ts[i] = (struct dls_params){ .runtime = C * 1000, .deadline = T * 1000,
						     .period = T * 1000 };
			H = H / gcd_u64(H, T) * T;
			tmax = T > tmax ? T : tmax;
		}
		CU_ASSERT_EQUAL_FATAL(dls_analysis_uniform(ts, (size_t)n, cap, m, &r), 0);
		if (!r.schedulable)
			continue;
		c.capacity = cap;
		c.horizon_us = H + tmax;
		rc = sweep_simulate_unadmitted(&c, t, &events, true);
		CU_ASSERT_FATAL(rc == 0 || rc == 1);
		if (identical && rc != 1) {
			fprintf(stderr, "capacity %u x %d:", cap[0], m);
			for (int i = 0; i < n; i++)
				fprintf(stderr, " (%" PRIu64 ", %" PRIu64 ")", t[i].runtime_us,
					t[i].period_us);
			fprintf(stderr, " us\n");
			CU_FAIL_FATAL("uniform test accepts on identical CPUs, dlsim misses");
		}
		accepted += identical;
		mixed_missed += !identical && rc != 1;
	}
	printf("uniform vs dlsim: %" PRIu64 " sets accepted on identical CPUs, none missed; "
	       "%" PRIu64 " accepted on mixed capacities miss in dlsim\n", accepted, mixed_missed);
	CU_ASSERT(accepted > runs / 20);
}

/*
 * `dlsim FILE` on a set `sweep --save` wrote gives the sweep's verdict:
 * the file's simulation section carries the sweep's admission limit. On
 * one CPU EDF schedules every implicit-deadline set up to U = 1 (Liu &
 * Layland 1973), so sets at 0.97 and 1.0 count as schedulable and must
 * replay so (the library's default 95% limit would refuse them); the
 * constrained sets on 2 CPUs compare both ways, misses included.
 */
static void test_saved_sets_replay(void)
{
	double one[] = { 0.5, 0.97, 1.0 }, two[] = { 1.0, 1.6, 1.9 };
	const char *path = "test_dlsim_sweep_saved.json";
	unsigned int schedulable = 0;

	for (int cfg = 0; cfg < 2; cfg++) {
		struct sweep_config c = cfg ? config(2, 6, two, 3, 4) : config(1, 5, one, 3, 4);
		struct sweep_task t[8];

		if (cfg)
			c.deadlines = SWEEP_CONSTRAINED;
		for (int step = 0; step < c.nr_utils; step++)
			for (int k = 0; k < c.sets; k++) {
				uint64_t events = 0;
				struct sim_options opt = { .quiet = true };
				struct sim_result res;
				struct workload w;
				int want, got;

				DLS_ASSERT_EQ_S64(sweep_taskset(&c, step, k, t), 0);
				want = sweep_simulate(&c, t, &events);
				CU_ASSERT_FATAL(want == 0 || want == 1);
				schedulable += !cfg && want;
				DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, t, c.utils[step], path), 0);
				DLS_ASSERT_EQ_S64(workload_load_file(&w, path, true), 0);
				DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
				got = res.exit_code == 0 && res.misses == 0 && res.overdue == 0;
				if (got != want)
					fprintf(stderr, "set %d/%d/%d: sweep %d, replay %d (exit %d)\n",
						cfg, step, k, want, got, res.exit_code);
				DLS_ASSERT_EQ_S64(got, want);
				workload_free(&w);
			}
	}
	DLS_ASSERT_EQ_U64(schedulable, 12); /* every one-CPU set */
	remove(path);
}

/*
 * Partitioned packing, first fit in task order against first-fit
 * decreasing, on both sides. Utilisations 0.3, 0.3, 0.7, 0.7 on two CPUs
 * (the classic case where order matters, worked by hand): in task order
 * CPU 0 takes 0.3 + 0.3, CPU 1 takes 0.7, and the last 0.7 fits on
 * neither (0.6 + 0.7 > 1, 0.7 + 0.7 > 1); decreasing, each CPU takes
 * 0.7 + 0.3 = 1. The simulation (admission at 100%), the ff and ffd tests
 * and a saved set replayed by dlsim all agree with that.
 */
static void test_fit_order(void)
{
	double utils[] = { 2.0 };
	struct sweep_config c = config(2, 4, utils, 1, 1);
	struct sweep_task t[4] = {
		{ 0.3, 3000, 10000, 10000, false },
		{ 0.3, 3000, 10000, 10000, false },
		{ 0.7, 7000, 10000, 10000, false },
		{ 0.7, 7000, 10000, 10000, false },
	};
	const char *path = "test_dlsim_sweep_fit.json";
	int order[4];

	c.mode = WL_MODE_PARTITIONED;
	c.tests = (1u << SWEEP_TEST_FF) | (1u << SWEEP_TEST_FFD);
	c.check_analysis = true;
	for (int fit = SWEEP_FIT_FF; fit <= SWEEP_FIT_FFD; fit++) {
		uint64_t events = 0;
		unsigned char acc = 0;
		struct sim_options opt = { .quiet = true };
		struct sim_result res;
		struct workload w;
		int sim;

		c.fit = (enum sweep_fit)fit;
		sweep_pack_order(&c, t, 4, order);
		DLS_ASSERT_EQ_S64(order[0], fit == SWEEP_FIT_FFD ? 2 : 0);
		DLS_ASSERT_EQ_S64(order[1], fit == SWEEP_FIT_FFD ? 3 : 1);
		DLS_ASSERT_EQ_S64(order[2], fit == SWEEP_FIT_FFD ? 0 : 2);
		sim = sweep_simulate(&c, t, &events);
		DLS_ASSERT_EQ_S64(sim, fit == SWEEP_FIT_FFD);
		/* the tests decide the same way whatever the sweep's fit */
		DLS_ASSERT_EQ_S64(sweep_analyze_set(&c, 0, 0, t, sim, &acc, &events), 0);
		DLS_ASSERT_EQ_U64(acc, 1u << SWEEP_TEST_FFD);
		/* a saved set packs the same way when dlsim replays it */
		DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, t, 2.0, path), 0);
		DLS_ASSERT_EQ_S64(workload_load_file(&w, path, true), 0);
		DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
		DLS_ASSERT_EQ_S64(res.exit_code, fit == SWEEP_FIT_FFD ? 0 : DLSIM_EXIT_REFUSED);
		workload_free(&w);
	}
	remove(path);
}

/* A saved set is written whole or not at all (beside its name, then
 * renamed), and its utilisation reads as written: 0.05, not
 * 0.050000000000000003. */
static void test_saved_set_file(void)
{
	double utils[] = { 0.05 };
	struct sweep_config c = config(1, 2, utils, 1, 1);
	struct sweep_task t[2] = {
		{ 0.025, 250, 10000, 10000, false },
		{ 0.025, 250, 10000, 10000, false },
	};
	char dir[] = "/tmp/dlsim-save-XXXXXX", path[128], text[512];
	size_t len;
	FILE *f;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/missing/set.json", dir);
	errno = 0;
	DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, t, 0.05, path), -1);
	DLS_ASSERT_EQ_S64(errno, ENOENT);
	/* a directory in the way: the rename fails, nothing is left */
	snprintf(path, sizeof(path), "%s/set.json", dir);
	CU_ASSERT_FATAL(mkdir(path, 0700) == 0);
	DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, t, 0.05, path), -1);
	CU_ASSERT(errno == EISDIR || errno == EEXIST || errno == ENOTEMPTY);
	rmdir(path);
	DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, t, 0.05, path), 0);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	text[len] = '\0';
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "total utilisation 0.05 (Randfixedsum)"));
	remove(path);
	CU_ASSERT(rmdir(dir) == 0); /* empty: no temporary file left behind */
}

/*
 * A second SIGINT ends the process at once, after removing the temporary
 * files named for it: the outputs' and those of the sets the workers are
 * writing, one slot per worker up to SWEEP_MAX_JOBS (a write gives its
 * slot back). The signal ends the process, so that part runs in a child.
 */
static void test_second_signal_removes_temporaries(void)
{
	static int slots[SWEEP_MAX_JOBS];
	double utils[] = { 0.05 };
	struct sweep_config c = config(1, 2, utils, 1, 1);
	struct sweep_task t[2] = {
		{ 0.025, 250, 10000, 10000, false },
		{ 0.025, 250, 10000, 10000, false },
	};
	char dir[] = "/tmp/dlsim-sig-XXXXXX", path[128];
	int status = 0, fd;
	pid_t pid;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/set.json", dir);
	for (int i = 0; i < 3; i++)
		DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, t, 0.05, path), 0);
	remove(path);
	/* the writes gave their slots back: every one can be claimed */
	for (int i = 0; i < SWEEP_MAX_JOBS; i++) {
		slots[i] = sweep_temp_claim(path);
		CU_ASSERT_FATAL(slots[i] >= SWEEP_TEMP_SLOTS);
		CU_ASSERT_FATAL(i == 0 || slots[i] > slots[i - 1]);
	}
	DLS_ASSERT_EQ_S64(sweep_temp_claim(path), -1);
	for (int i = 0; i < SWEEP_MAX_JOBS; i++)
		sweep_temp_release(slots[i]);

	snprintf(path, sizeof(path), "%s/set.json.1.tmp", dir);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		sweep_catch_signals();
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd < 0 || sweep_temp_claim(path) < 0)
			_exit(2);
		raise(SIGINT); /* the first only stops the sweep */
		if (access(path, F_OK))
			_exit(3);
		raise(SIGINT); /* the second removes the file and ends it */
		_exit(4);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
	if (WIFEXITED(status))
		fprintf(stderr, "child exited %d\n", WEXITSTATUS(status));
	CU_ASSERT(access(path, F_OK) != 0 && errno == ENOENT);
	remove(path);
	CU_ASSERT(rmdir(dir) == 0);
}

/*
 * --guest by hand. The periodic resource (Pi, Theta) supplies nothing for
 * a blackout of 2 (Pi - Theta), then one unit per unit of time for Theta
 * (Shin & Lee, RTSS 2003, the worst case of Figure 2): sbf(t) = t -
 * 2 (Pi - Theta) for t in [2 (Pi - Theta), 2 Pi - Theta].
 *  - One task (C, D, T) = (4, 10, 10) ms in Pi = 10 ms: sbf(10) >= 4 iff
 *    10 - 2 (10 - Theta) >= 4 iff Theta >= 7 ms; theta_min = 7000 us.
 *  - One task (2, 2, 10) ms in Pi = 5 ms: sbf(t) < t for every t > 0
 *    unless Theta = Pi, and dbf(2) = 2, so theta_min = 5000 us (the whole
 *    period), accepted, and it meets its deadlines.
 *  - The same task in a fixed 1/5 ms server (bandwidth 0.2, the task's:
 *    admitted): prm rejects (theta_min 5 ms > 1 ms), and the simulation
 *    misses: the job runs 0-1 ms, the server is throttled until its
 *    replenishment at 5 ms, and the job ends at 6 ms, after its deadline
 *    at 2 ms. In a 0.5/5 ms server (0.1 < 0.2) the guest's admission
 *    refuses the task: SWEEP_REFUSED. The saved set replays each verdict.
 */
static void test_guest_by_hand(void)
{
	double utils[] = { 0.4 };
	struct sweep_config c = config(1, 1, utils, 1, 1);
	struct sweep_task wide = { 0.4, 4000, 10000, 10000, false };
	struct sweep_task tight = { 0.2, 2000, 2000, 10000, false };
	const char *path = "test_dlsim_sweep_guest.json";
	static const struct { uint64_t budget_us; int want; } fixed[] = {
		{ 0, 1 }, { 1000, 0 }, { 500, SWEEP_REFUSED },
	};
	uint64_t budget, events = 0;
	unsigned char acc;
	bool accepted;

	c.guest_period_us = 10000;
	DLS_ASSERT_EQ_S64(sweep_guest_budget(&c, &wide, &budget, &accepted), 0);
	DLS_ASSERT_EQ_U64(budget, 7000);
	CU_ASSERT(accepted);
	DLS_ASSERT_EQ_S64(sweep_simulate(&c, &wide, &events), 1);
	c.guest_period_us = 5000;
	c.tests = 1u << SWEEP_TEST_PRM;
	c.check_analysis = true;
	for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++) {
		struct sim_options opt = { .quiet = true };
		struct sim_result res;
		struct workload w;
		int sim;

		c.guest_budget_us = fixed[k].budget_us;
		DLS_ASSERT_EQ_S64(sweep_guest_budget(&c, &tight, &budget, &accepted), 0);
		DLS_ASSERT_EQ_U64(budget, fixed[k].budget_us ? fixed[k].budget_us : 5000);
		DLS_ASSERT_EQ_S64(accepted, !fixed[k].budget_us);
		sim = sweep_simulate(&c, &tight, &events);
		DLS_ASSERT_EQ_S64(sim, fixed[k].want);
		acc = 0;
		DLS_ASSERT_EQ_S64(sweep_analyze_set(&c, 0, 0, &tight, sim, &acc, &events), 0);
		DLS_ASSERT_EQ_U64(acc, accepted ? 1u << SWEEP_TEST_PRM : 0);
		DLS_ASSERT_EQ_S64(sweep_write_taskset(&c, &tight, 0.2, path), 0);
		DLS_ASSERT_EQ_S64(workload_load_file(&w, path, true), 0);
		DLS_ASSERT_EQ_U64(w.nr_servers, 1);
		DLS_ASSERT_EQ_U64(w.servers[0].runtime_us, budget);
		DLS_ASSERT_EQ_S64(sim_run(&w, &opt, stdout, &res), 0);
		if (sim == SWEEP_REFUSED)
			DLS_ASSERT_EQ_S64(res.exit_code, DLSIM_EXIT_REFUSED);
		else
			DLS_ASSERT_EQ_S64(res.exit_code == 0 && res.misses == 0, sim);
		workload_free(&w);
	}
	remove(path);
}

/*
 * --guest on random sets: every set the periodic resource model accepts
 * in a server of budget theta_min (or of a fixed budget theta_min fits)
 * meets every deadline inside it (Shin & Lee 2003, Theorem 1: the host
 * has nothing else, so it meets the server's deadlines), and the cross-
 * check finds nothing. theta_min / Pi is at least the set's utilisation
 * (a server supplying less on average falls behind). Implicit and
 * constrained deadlines, server periods below, among and above the tasks'
 * (10 to 100 ms).
 */
static void test_guest_prm_no_miss(void)
{
	double utils[] = { 0.2, 0.5, 0.8, 0.95 };
	static const uint64_t periods[] = { 2000, 10000, 25000 };
	int sets = (int)dls_test_scaled(8) + 1;
	struct sweep_config c = config(1, 5, utils, 4, sets);
	unsigned int accepted_sets = 0, fixed_accepted = 0, total = 0;

	c.tests = 1u << SWEEP_TEST_PRM;
	c.check_analysis = true;
	for (int dl = 0; dl < 2; dl++)
		for (size_t p = 0; p < sizeof(periods) / sizeof(periods[0]); p++)
			for (int step = 0; step < c.nr_utils; step++)
				for (int k = 0; k < sets; k++) {
					struct sweep_task t[5];
					uint64_t budget, events = 0;
					unsigned char acc = 0;
					bool accepted;
					double u = 0;
					int sim;

					c.deadlines = dl ? SWEEP_CONSTRAINED : SWEEP_IMPLICIT;
					c.guest_period_us = periods[p];
					c.guest_budget_us = 0;
					DLS_ASSERT_EQ_S64(sweep_taskset(&c, step, k, t), 0);
					DLS_ASSERT_EQ_S64(sweep_guest_budget(&c, t, &budget, &accepted),
							  0);
					for (int i = 0; i < 5; i++)
						u += (double)t[i].runtime_us / (double)t[i].period_us;
					sim = sweep_simulate(&c, t, &events);
					total++;
					if (accepted) {
						accepted_sets++;
						CU_ASSERT((double)budget >= u * (double)periods[p]);
						if (sim != 1)
							fprintf(stderr, "set %d/%d/%d, Pi %llu us: theta %llu "
								"us accepted, simulation %d\n", dl, step, k,
								(unsigned long long)periods[p],
								(unsigned long long)budget, sim);
						DLS_ASSERT_EQ_S64(sim, 1);
					}
					DLS_ASSERT_EQ_S64(sweep_analyze_set(&c, step, k, t, sim, &acc,
									    &events), 0);
					/* a fixed budget: 80% of the period */
					c.guest_budget_us = periods[p] * 4 / 5;
					DLS_ASSERT_EQ_S64(sweep_guest_budget(&c, t, &budget, &accepted),
							  0);
					sim = sweep_simulate(&c, t, &events);
					fixed_accepted += accepted;
					if (accepted)
						DLS_ASSERT_EQ_S64(sim, 1);
				}
	/* implicit deadlines with U <= 1 always fit a whole CPU (Liu & Layland
	 * 1973), so at least those sets are accepted and simulated */
	fprintf(stderr, "guest vs dlsim: %u of %u sets accepted with theta_min, %u in a fixed "
		"0.8 Pi server, none missed\n", accepted_sets, total, fixed_accepted);
	CU_ASSERT(accepted_sets >= total / 2);
	CU_ASSERT(fixed_accepted > 0);
}

/* The progress bars' time left. */
static void test_eta(void)
{
	char buf[32];

	dlsim_format_eta(buf, sizeof(buf), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0:00");
	dlsim_format_eta(buf, sizeof(buf), 59.6);
	CU_ASSERT_STRING_EQUAL(buf, "1:00");
	dlsim_format_eta(buf, sizeof(buf), 3725);
	CU_ASSERT_STRING_EQUAL(buf, "1:02:05");
	dlsim_format_eta(buf, sizeof(buf), 1e12);
	CU_ASSERT_STRING_EQUAL(buf, "unknown");
}

static const struct dls_test_case cases[] = {
	{ "generators: exact totals, u_i in (0, 1]", test_exact_totals },
	{ "generators: uniform on the simplex", test_uniformity },
	{ "generators: agree where the cube cuts", test_generators_agree_above_one },
	{ "task sets: parameters and seeding", test_taskset_parameters },
	{ "task sets: budgets raised to 2 us are counted", test_lifted_budgets },
	{ "sweep: same result with 1, 2, 5 jobs", test_determinism_across_jobs },
	{ "sweep: shared by 1 to 4 ranks, rank 0 sums the same rows", test_shared_by_ranks },
	{ "sweep: EDF on one CPU up to U = 1", test_one_cpu_up_to_full },
	{ "sweep: overload is never schedulable", test_overload },
	{ "sweep: a miss in the simulation counts", test_miss_is_seen },
	{ "sweep: saved sets replay to the same verdict", test_saved_sets_replay },
	{ "sweep: ff and ffd packing, simulated, tested and replayed", test_fit_order },
	{ "sweep: a saved set is whole or absent, its utilisation exact", test_saved_set_file },
	{ "sweep: a second signal removes the files being written", test_second_signal_removes_temporaries },
	{ "progress: time left", test_eta },
	{ "guest: theta_min, a starved server and a refused one, by hand", test_guest_by_hand },
	{ "guest: sets the periodic resource model accepts meet their deadlines",
	  test_guest_prm_no_miss },
	{ "sweep: analysis cross-check agrees, and reports a disagreement",
	  test_analysis_cross_check },
	{ "uniform CPUs: dlsim meets accepted sets on equal capacities, not always on mixed",
	  test_uniform_vs_simulation },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim sweep", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
