/*
 * Schedulability tests per second: QPA on one CPU, BCL and RTA on 8 CPUs,
 * for 10, 50 and 100 tasks. The peer in the same run is the processor-
 * demand test without QPA's skipping: h(t) <= t at every deadline up to the
 * same bound (written here; schedcat, the usual reference, is Python and
 * C++ and not linked). Task sets: utilisations from UUniFast (Bini &
 * Buttazzo 2005), periods log-uniform in 10-100 ms (1 us steps), implicit
 * deadlines, or constrained with D uniform in [C + (T - C) / 2, T].
 * Prints the median over runs of ns per test and the share accepted.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <dlsched/analysis.h>

#include "bench_util.h"

#define SETS 200
#define RUNS 11
#define MAXN 100

static double unit(uint64_t *s)
{
	return (double)(xorshift(s) >> 11) / 9007199254740992.0;
}

static void make_set(uint64_t *seed, struct dls_params *ts, int n, double total,
		     bool constrained)
{
	double left = total;

	for (int i = 0; i < n; i++) {
		/* UUniFast: the remaining sum shrinks by a power of a uniform */
		double next = i + 1 < n ? left * pow(unit(seed), 1.0 / (n - i - 1)) : 0;
		double u = left - next, T = floor(exp(log(10e3) + unit(seed) * log(10.0)));
		uint64_t C = (uint64_t)(u * T * 1000), P = (uint64_t)T * 1000;

		left = next;
		if (C < 1000)
			C = 1000;
		if (C > P)
			C = P;
		ts[i] = (struct dls_params){ .runtime = C, .deadline = P, .period = P };
		if (constrained)
			ts[i].deadline = C + (P - C) / 2 + (uint64_t)(unit(seed) * (double)(P - C) / 2);
	}
}

/* The peer: every deadline up to the first violation or to a bound. */
static bool demand_every_deadline(const struct dls_params *ts, int n, uint64_t bound)
{
	uint64_t t = UINT64_MAX;

	for (int i = 0; i < n; i++)
		if (ts[i].deadline < t)
			t = ts[i].deadline;
	while (t <= bound) {
		uint64_t next = UINT64_MAX;

		if (dls_analysis_dbf(ts, (size_t)n, t) > t)
			return false;
		for (int i = 0; i < n; i++) {
			uint64_t d = ts[i].deadline, T = ts[i].period, x;

			x = t < d ? d : d + ((t - d) / T + 1) * T;
			if (x < next)
				next = x;
		}
		t = next;
	}
	return true;
}

/* La of Zhang & Burns in floating point: the peer's bound (bench only). */
static uint64_t la_bound(const struct dls_params *ts, int n)
{
	double u = 0, a = 0, dmax = 0;

	for (int i = 0; i < n; i++) {
		double ui = (double)ts[i].runtime / (double)ts[i].period;

		u += ui;
		a += (double)(ts[i].period - ts[i].deadline) * ui;
		if ((double)ts[i].deadline > dmax)
			dmax = (double)ts[i].deadline;
	}
	if (u >= 1)
		return 0;
	return (uint64_t)fmax(dmax, a / (1 - u) + 1);
}

enum which { QPA, PEER, BCL, RTA };

static double time_test(enum which w, struct dls_params (*sets)[MAXN], int n, int m,
			int *accepted)
{
	double runs[RUNS];
	uint64_t resp[MAXN];

	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		int acc = 0;

		for (int s = 0; s < SETS; s++) {
			struct dls_analysis_result res = { 0 };

			if (w == QPA)
				dls_analysis_qpa(sets[s], (size_t)n, &res);
			else if (w == PEER)
				res.schedulable = demand_every_deadline(sets[s], n,
									la_bound(sets[s], n));
			else if (w == BCL)
				dls_analysis_bcl(sets[s], (size_t)n, m, &res);
			else
				dls_analysis_rta(sets[s], (size_t)n, m, resp, &res);
			acc += res.schedulable;
		}
		runs[r] = (now_ns() - t0) / SETS;
		*accepted = acc;
	}
	return median(runs, RUNS);
}

int main(void)
{
	static struct dls_params sets[SETS][MAXN];
	static const int sizes[] = { 10, 50, 100 };
	uint64_t seed = 0x9e3779b97f4a7c15u;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("%-5s %-28s %12s %12s %9s %8s\n", "n", "test", "ns/test", "tests/s",
	       "accepted", "vs peer");
	for (int k = 0; k < 3; k++) {
		int n = sizes[k], acc, acc_peer;
		double qpa, peer, t;

		for (int c = 0; c < 2; c++) {
			for (int s = 0; s < SETS; s++)
				make_set(&seed, sets[s], n, 0.9, c);
			qpa = time_test(QPA, sets, n, 1, &acc);
			peer = time_test(PEER, sets, n, 1, &acc_peer);
			printf("%-5d %-28s %12.0f %12.0f %8d%% %7.1fx\n", n,
			       c ? "QPA, 1 CPU, U=0.9, D<=T" : "QPA, 1 CPU, U=0.9, D=T", qpa,
			       1e9 / qpa, acc * 100 / SETS, peer / qpa);
			printf("%-5d %-28s %12.0f %12.0f %8d%%\n", n,
			       c ? "  peer: every deadline, D<=T" : "  peer: every deadline, D=T",
			       peer, 1e9 / peer, acc_peer * 100 / SETS);
		}
		for (int s = 0; s < SETS; s++)
			make_set(&seed, sets[s], n, 4.0, false);
		t = time_test(BCL, sets, n, 8, &acc);
		printf("%-5d %-28s %12.0f %12.0f %8d%%\n", n, "BCL, 8 CPUs, U=4, D=T", t,
		       1e9 / t, acc * 100 / SETS);
		t = time_test(RTA, sets, n, 8, &acc);
		printf("%-5d %-28s %12.0f %12.0f %8d%%\n", n, "RTA, 8 CPUs, U=4, D=T", t,
		       1e9 / t, acc * 100 / SETS);
	}
	return 0;
}
