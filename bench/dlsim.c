/*
 * dlsim throughput: simulated scheduling events per second on one core
 * (wake-ups, replenishment timers and context switches, as dlsim counts
 * them in its summary) for 10, 100 and 1000 periodic deadline tasks on 1, 8,
 * 64 and 256 CPUs; the simulator's memory per task, per CPU and per
 * completed job; and
 * the wall time of a 10,000-set `dlsim sweep` with 1 and with 2 worker
 * threads. Task sets come from the sweep's own generator (Randfixedsum,
 * periods log-uniform in 10..100 ms), loaded to 75% of min(CPUs, tasks).
 * Every figure is the median of several runs; the one-core rates are per
 * second of the thread's CPU time, the sweep's are wall time.
 *
 *   bench_dlsim                       the table
 *   bench_dlsim --runs N              N runs per figure (default 5)
 *   bench_dlsim --one TASKS CPUS MS   one simulation of MS ms, no table
 *                                     (for valgrind --tool=callgrind)
 *   bench_dlsim --lower TASKS CPUS MS [scan]
 *                                     one run of the lower-class workload
 *                                     (scan: the reference balancing)
 * The last table times the balancing of FIFO/RR and fair threads between
 * CPUs on bench/dlsim_lower_workload.sh's workload, indexed against the
 * reference that scans every CPU for every waiting thread, in one run.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "sweep.h"
#include "workload.h"

/*
 * Heap accounting for the memory figures: with glibc the program may
 * replace malloc (glibc manual, "Replacing malloc"); these forward to the
 * real allocator and, while `counting` is set (one thread only), track the
 * live and peak bytes.
 */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>

#include "bench_util.h"
#define HAVE_HEAP_COUNT 1
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static struct {
	int counting;
	long long live, peak;
} heap;

static void heap_add(void *p, long long sign)
{
	if (!heap.counting || !p)
		return;
	heap.live += sign * (long long)malloc_usable_size(p);
	if (heap.live > heap.peak)
		heap.peak = heap.live;
}

void *malloc(size_t n)
{
	void *p = __libc_malloc(n);

	heap_add(p, 1);
	return p;
}

void *calloc(size_t n, size_t m)
{
	void *p = __libc_calloc(n, m);

	heap_add(p, 1);
	return p;
}

void *realloc(void *p, size_t n)
{
	void *q;

	heap_add(p, -1);
	q = __libc_realloc(p, n);
	heap_add(q ? q : p, 1);
	return q;
}

void free(void *p)
{
	heap_add(p, -1);
	__libc_free(p);
}
#endif

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this thread: on a shared machine the one-core figures should
 * not count the time other processes held the core. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of the whole process (all sweep workers). */
static double proc_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct sweep_config bench_config(int tasks, int cpus, double *util, uint64_t horizon_us)
{
	*util = 0.75 * (cpus < tasks ? cpus : tasks);
	return (struct sweep_config){
		.gen = SWEEP_RANDFIXEDSUM, .deadlines = SWEEP_IMPLICIT,
		.nr_cpus = cpus, .nr_tasks = tasks, .utils = util, .nr_utils = 1, .sets = 1,
		.seed = 1, .period_min_us = 10000, .period_max_us = 100000,
		.period_gran_us = 1000, .horizon_us = horizon_us, .mode = WL_MODE_GLOBAL,
		.jobs = 1, .max_tries = 100000,
	};
}

/* One simulation of the set; returns its CPU time and events. */
static double simulate(int tasks, int cpus, uint64_t horizon_us, uint64_t *events)
{
	double util, t0;
	struct sweep_config c = bench_config(tasks, cpus, &util, horizon_us);
	struct sweep_task *ts = calloc((size_t)tasks, sizeof(*ts));

	if (!ts || sweep_taskset(&c, 0, 0, ts)) {
		fprintf(stderr, "bench_dlsim: cannot generate %d tasks\n", tasks);
		exit(1);
	}
	*events = 0;
	t0 = cpu_s();
	if (sweep_simulate(&c, ts, events) < 0) {
		fprintf(stderr, "bench_dlsim: simulation failed\n");
		exit(1);
	}
	t0 = cpu_s() - t0;
	free(ts);
	return t0;
}

static void events_table(int runs)
{
	static const int task_counts[] = { 10, 100, 1000 }, cpu_counts[] = { 1, 8, 64, 256 };

	printf("simulated scheduling events per second of CPU time, one thread "
	       "(median of %d runs)\n", runs);
	printf("%6s %5s %10s %12s %10s %12s\n", "tasks", "cpus", "sim time", "events",
	       "cpu ms", "events/s");
	for (size_t a = 0; a < 3; a++)
		for (size_t b = 0; b < 4; b++) {
			int n = task_counts[a], m = cpu_counts[b];
			/* about 2 million events; half a million on 256 CPUs,
			 * where every step still walks every CPU (a few seconds
			 * a run at 1000 tasks) */
			uint64_t ev, horizon = 1000000, want = m >= 256 ? 500000 : 2000000;
			double t[32], rate;

			/* Size the horizon for that many events. */
			simulate(n, m, horizon, &ev);
			if (ev && ev < want)
				horizon = horizon * want / ev;
			for (int r = 0; r < runs; r++)
				t[r] = simulate(n, m, horizon, &ev);
			rate = (double)ev / median(t, runs);
			printf("%6d %5d %8.1f s %12llu %10.1f %12.0f\n", n, m, (double)horizon / 1e6,
			       (unsigned long long)ev, (double)ev / rate * 1e3, rate);
		}
}

#ifdef HAVE_HEAP_COUNT
/* Peak heap bytes of one simulation (the task set itself not included);
 * *jobs is the number of job releases in the horizon, sum of H / T_i. */
static long long peak_bytes(int tasks, int cpus, uint64_t horizon_us, uint64_t *jobs)
{
	double util;
	struct sweep_config c = bench_config(tasks, cpus, &util, horizon_us);
	struct sweep_task *ts = calloc((size_t)tasks, sizeof(*ts));
	uint64_t ev = 0;

	if (!ts || sweep_taskset(&c, 0, 0, ts))
		exit(1);
	*jobs = 0;
	for (int i = 0; i < tasks; i++)
		*jobs += horizon_us / ts[i].period_us;
	heap.live = heap.peak = 0;
	heap.counting = 1;
	sweep_simulate(&c, ts, &ev);
	heap.counting = 0;
	free(ts);
	return heap.peak;
}
#endif

static void memory_table(void)
{
#ifdef HAVE_HEAP_COUNT
	uint64_t j10, j1000, j1, j2;
	/* Per task: the growth from 10 to 1000 tasks over 5 ms, shorter than
	 * every period (no job has completed). */
	long long p10 = peak_bytes(10, 8, 5000, &j10), p1000 = peak_bytes(1000, 8, 5000, &j1000);
	/* Per job: the same 100 tasks over 1 s and 10 s. */
	long long q1 = peak_bytes(100, 8, 1000000, &j1), q2 = peak_bytes(100, 8, 10000000, &j2);
	/* Per CPU: 100 tasks on 8 and on 256 CPUs over 5 ms (no job ends). */
	long long c8 = peak_bytes(100, 8, 5000, &j10), c256 = peak_bytes(100, 256, 5000, &j10);
	/* Per task on 256 CPUs, as on 8. */
	long long r10 = peak_bytes(10, 256, 5000, &j10), r1000 = peak_bytes(1000, 256, 5000, &j10);

	printf("\nsimulator memory (peak heap bytes during one quiet simulation, as a sweep "
	       "runs it;\na run that prints its summary or JSON also keeps 8 bytes per job "
	       "for the p99)\n");
	printf("%-44s %10.0f\n", "per task (10 -> 1000 tasks on 8 CPUs)",
	       (double)(p1000 - p10) / 990);
	printf("%-44s %10.0f\n", "per task (10 -> 1000 tasks on 256 CPUs)",
	       (double)(r1000 - r10) / 990);
	printf("%-44s %10.0f\n", "per CPU (100 tasks, 8 -> 256 CPUs)",
	       (double)(c256 - c8) / 248);
	printf("%-44s %10.1f\n", "per completed job (100 tasks, 1 s -> 10 s)",
	       (double)(q2 - q1) / (double)(j2 - j1));
	printf("%-44s %10lld\n", "1000 tasks, 8 CPUs, before any job ends", p1000);
	printf("%-44s %10lld\n", "100 tasks, 8 CPUs, 10 s simulated", q2);
	printf("%-44s %10lld\n", "1000 tasks, 256 CPUs, before any job ends", r1000);
#else
	printf("\nsimulator memory: needs glibc (malloc replacement), not measured\n");
#endif
}

static void sweep_table(int runs)
{
	double utils[20], t[2][32], cpu[2][32];
	struct sweep_config c = {
		.gen = SWEEP_RANDFIXEDSUM, .deadlines = SWEEP_IMPLICIT, .nr_cpus = 4,
		.nr_tasks = 20, .utils = utils, .nr_utils = 20, .sets = 500, .seed = 1,
		.period_min_us = 10000, .period_max_us = 100000, .period_gran_us = 1000,
		.horizon_us = 1000000, .mode = WL_MODE_GLOBAL, .max_tries = 100000,
	};
	struct sweep_point p[2][20];
	bool same = true;

	for (int i = 0; i < 20; i++)
		utils[i] = 0.2 * (i + 1);
	if (runs > 3)
		runs = 3;
	for (int r = 0; r < runs; r++)
		for (int j = 0; j < 2; j++) {
			double t0 = now_s(), c0 = proc_cpu_s();

			c.jobs = j + 1;
			if (sweep_run(&c, p[j], stderr))
				exit(1);
			t[j][r] = now_s() - t0;
			cpu[j][r] = proc_cpu_s() - c0;
		}
	for (int i = 0; i < 20; i++)
		same &= p[0][i].schedulable == p[1][i].schedulable && p[0][i].events == p[1][i].events;
	{
		double t1 = median(t[0], runs), t2 = median(t[1], runs);
		uint64_t ev = 0;

		for (int i = 0; i < 20; i++)
			ev += p[0][i].events;
		printf("\nsweep of 10,000 task sets (4 CPUs, 20 tasks, U = 0.2..4.0, 1 s each; "
		       "%llu events; median of %d)\n", (unsigned long long)ev, runs);
		printf("%6s %10s %8s %10s\n", "jobs", "wall s", "speed-up", "cpu s");
		printf("%6d %10.2f %8.2f %10.2f\n", 1, t1, 1.0, median(cpu[0], runs));
		printf("%6d %10.2f %8.2f %10.2f\n", 2, t2, t1 / t2, median(cpu[1], runs));
		printf("results with 1 and 2 jobs %s\n", same ? "identical" : "DIFFER");
		{
			unsigned int lifted = 0;

			for (int i = 0; i < 20; i++)
				lifted += p[0][i].lifted;
			printf("(%u sets had a budget raised to the 2 us minimum)\n", lifted);
		}
	}
}

/* ---- lower classes --------------------------------------------------------- */

struct text {
	char *p;
	size_t n, cap;
};

static void text_put(struct text *t, const char *s)
{
	size_t l = strlen(s);

	if (t->n + l + 1 > t->cap) {
		t->cap = (t->n + l + 1) * 2;
		t->p = realloc(t->p, t->cap);
		if (!t->p) {
			fprintf(stderr, "bench_dlsim: out of memory\n");
			exit(1);
		}
	}
	memcpy(t->p + t->n, s, l + 1);
	t->n += l;
}

/*
 * bench/dlsim_lower_workload.sh's workload without a seed: task i has
 * period 10 + (37 i mod 91) ms; by i mod 100 it is SCHED_FIFO (below 10,
 * priority 1 + i mod 90, 1 % of a CPU), SCHED_OTHER (below 20, 1 %) or
 * SCHED_DEADLINE (2 % of a CPU); every 50th may use two CPUs only.
 */
static void lower_workload(struct workload *w, int tasks, int cpus, uint64_t horizon_ms)
{
	struct text t = { 0 };
	char line[400];

	snprintf(line, sizeof(line), "{\"platform\": {\"cpus\": %d}, \"simulation\": "
		 "{\"horizon_us\": %llu, \"affinity\": \"library\"}, \"tasks\": {", cpus,
		 (unsigned long long)horizon_ms * 1000);
	text_put(&t, line);
	for (int i = 0; i < tasks; i++) {
		int p = 10 + (i * 37) % 91, k = i % 100, n;
		char cpuset[64] = "";

		if (i % 50 == 7)
			snprintf(cpuset, sizeof(cpuset), "\"cpus\": [%d, %d], ", (i * 13) % cpus,
				 (i * 13 + 64) % cpus);
		n = snprintf(line, sizeof(line), "%s\"t%d\": {", i ? ", " : "", i);
		if (k < 10)
			n += snprintf(line + n, sizeof(line) - (size_t)n, "\"policy\": \"SCHED_FIFO\", "
				      "\"priority\": %d, \"run\": %d, ", 1 + i % 90, p * 10);
		else if (k < 20)
			n += snprintf(line + n, sizeof(line) - (size_t)n, "\"policy\": "
				      "\"SCHED_OTHER\", \"run\": %d, ", p * 10);
		else
			n += snprintf(line + n, sizeof(line) - (size_t)n, "\"policy\": "
				      "\"SCHED_DEADLINE\", \"dl-runtime\": %d, \"dl-period\": %d, "
				      "\"run\": %d, ", p * 20, p * 1000, p * 20 - 50);
		snprintf(line + n, sizeof(line) - (size_t)n, "%s\"timer\": {\"ref\": \"unique\", "
			 "\"period\": %d}}", cpuset, p * 1000);
		text_put(&t, line);
	}
	text_put(&t, "}}\n");
	if (workload_load(w, "lower.json", t.p, t.n, false)) {
		workload_print_diags(w, stderr);
		exit(1);
	}
	free(t.p);
}

/* One run of @w with the indexed or the reference balancing: CPU time;
 * *res what it found. */
static double simulate_lower(const struct workload *w, bool reference, struct sim_result *res)
{
	struct sim_options opt = { .quiet = true, .balance_scan = reference };
	FILE *out = fopen("/dev/null", "w");
	double t0;

	if (!out)
		exit(1);
	memset(res, 0, sizeof(*res));
	t0 = cpu_s();
	if (sim_run(w, &opt, out, res) || res->exit_code) {
		fprintf(stderr, "bench_dlsim: the lower-class workload failed\n");
		exit(1);
	}
	t0 = cpu_s() - t0;
	fclose(out);
	return t0;
}

static void lower_table(int runs)
{
	static const int sizes[][2] = { { 500, 16 }, { 1000, 64 }, { 2000, 128 }, { 4000, 256 } };

	bool same = true;

	if (runs > 3)
		runs = 3;
	printf("\nFIFO/RR and fair threads moving between CPUs (10 %% FIFO, 10 %% fair, 80 %% "
	       "deadline; 50 ms;\nCPU s, median of %d): indexed balancing against the scan of "
	       "every CPU for every waiting\nthread (sim_options::balance_scan)\n", runs);
	printf("%6s %5s %12s %12s %8s\n", "tasks", "cpus", "indexed s", "scan s", "ratio");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct workload w;
		struct sim_result res[2];
		double t[2][3];

		lower_workload(&w, sizes[i][0], sizes[i][1], 50);
		for (int r = 0; r < runs; r++)
			for (int j = 0; j < 2; j++)
				t[j][r] = simulate_lower(&w, j, &res[j]);
		workload_free(&w);
		same &= !memcmp(&res[0], &res[1], sizeof(res[0]));
		printf("%6d %5d %12.3f %12.3f %8.1f\n", sizes[i][0], sizes[i][1], median(t[0], runs),
		       median(t[1], runs), median(t[1], runs) / median(t[0], runs));
	}
	printf("results of the two %s\n", same ? "identical" : "DIFFER");
}

int main(int argc, char **argv)
{
	int runs = 5;

	if (argc == 5 && !strcmp(argv[1], "--one")) {
		uint64_t ev;
		double t = simulate(atoi(argv[2]), atoi(argv[3]),
				    (uint64_t)atoll(argv[4]) * 1000, &ev);

		printf("%llu events in %.3f s: %.0f events/s\n", (unsigned long long)ev, t,
		       (double)ev / t);
		return 0;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "--lower")) {
		struct sim_result res;
		struct workload w;
		double t;

		lower_workload(&w, atoi(argv[2]), atoi(argv[3]), (uint64_t)atoll(argv[4]));
		t = simulate_lower(&w, argc == 6 && !strcmp(argv[5], "scan"), &res);
		workload_free(&w);
		printf("%.3f s\n", t);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--runs"))
		runs = atoi(argv[2]);
	if (runs < 1 || runs > 32) {
		fprintf(stderr, "usage: bench_dlsim [--runs 1..32 | --one TASKS CPUS MS | "
			"--lower TASKS CPUS MS [scan]]\n");
		return 64;
	}
	events_table(runs);
	memory_table();
	sweep_table(runs);
	lower_table(runs);
	return 0;
}
