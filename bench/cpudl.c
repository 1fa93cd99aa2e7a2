/*
 * cpudl versus the linear scan (latest_cpu_find of the 2012 SCHED_DEADLINE
 * patches), and the cost of CPU-mask operations on one word versus many.
 *
 * Table 1, per CPU count n: every CPU busy with a deadline, the entity
 * allowed everywhere (the linear scan's worst case, the heap's common one).
 * One op = update one random CPU's deadline (heap: dls__cpudl_set; linear:
 * an array store) then find the CPU for a random entity deadline (heap:
 * dls__cpudl_find; linear: a scan of n CPUs). "linear" is the scan written
 * inline over a deadline array, the cheapest form of the reference;
 * "linear-ref" is dls__cpudl_find_linear() with its per-CPU callback.
 * Both see the same random sequence. Each figure is the median of 5 runs.
 *
 * Table 2: mask operations at 64 CPUs (one word: the single-word path) and
 * at 4096 (64 words). With gcc 12 -O2 on x86_64 the one-word paths are a
 * few instructions; dls_cpumask_test(m, cpu):
 *     mov %esi,%eax; mov %esi,%ecx; shr $6,%eax;
 *     mov 8(%rdi,%rax,8),%rax; shr %cl,%rax; and $1,%eax
 * dls_cpumask_first_and(a, b), the one-word branch then the answer:
 *     cmpl $1,4(%rdi); jne <dls_cpumask_next_and>;
 *     mov 8(%rdi),%rax; and 8(%rsi),%rax; tzcnt %rax,%rdx;
 *     test %rax,%rax; mov $-1,%eax; cmovne %edx,%eax
 * (objdump -d bench_cpudl | grep -A12 '<bench_first_and_1>:' to see it.)
 *
 * Usage: bench_cpudl [runs]   (default 5)
 *        bench_cpudl --ops N --impl heap|linear|linear-ref [--n CPUS]
 *          exactly N finds (no set) after the fill, for instruction
 *          counts (bench/smp_callgrind.sh takes the difference of two).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "bench_util.h"
#include "edf/cpudl_impl.h"

static struct dls_cpumask *mask_new(int nr)
{
	size_t sz = dls_cpumask_size(nr);
	struct dls_cpumask *m = malloc(sz);

	if (!m || dls_cpumask_init(m, sz, nr) != 0)
		abort();
	return m;
}

/* Pre-drawn operations, shared by both implementations. */
struct ops {
	int n, count;
	int *cpu;
	uint64_t *dl;     /* the CPU's new earliest deadline */
	uint64_t *edl;    /* the entity's deadline for the find */
};

static void ops_make(struct ops *o, int n, int count, uint64_t seed)
{
	o->n = n;
	o->count = count;
	o->cpu = malloc(sizeof(int) * (size_t)count);
	o->dl = malloc(sizeof(uint64_t) * (size_t)count);
	o->edl = malloc(sizeof(uint64_t) * (size_t)count);
	for (int i = 0; i < count; i++) {
		o->cpu[i] = (int)(xorshift(&seed) % (uint64_t)n);
		o->dl[i] = 1000000 + xorshift(&seed) % 1000000;
		o->edl[i] = 1000000 + xorshift(&seed) % 1000000;
	}
}

static void ops_free(struct ops *o)
{
	free(o->cpu);
	free(o->dl);
	free(o->edl);
}

static volatile long sink;

/* Heap: set + find per op, or find only. Out of line: callgrind counts it. */
__attribute__((noinline)) static double run_heap(const struct ops *o, bool with_set)
{
	size_t sz = dls__cpudl_size(o->n);
	void *st = malloc(sz);
	struct dls_cpudl cp;
	struct dls_cpumask *all = mask_new(o->n);
	long acc = 0;
	double t0, t1;

	dls__cpudl_init(&cp, st, sz, o->n, NULL, NULL);
	dls_cpumask_fill(all);
	for (int c = 0; c < o->n; c++)
		dls__cpudl_set(&cp, c, 1000000 + (uint64_t)c * 997 % 1000000);
	t0 = now_ns();
	for (int i = 0; i < o->count; i++) {
		if (with_set)
			dls__cpudl_set(&cp, o->cpu[i], o->dl[i]);
		acc += dls__cpudl_find(&cp, all, o->edl[i], NULL, NULL);
	}
	t1 = now_ns();
	sink = acc;
	free(st);
	free(all);
	return (t1 - t0) / o->count;
}

/* The patches' scan, inline over plain arrays (no callback). */
static int linear_inline(const uint64_t *dl, const unsigned char *busy,
			 const struct dls_cpumask *allowed, int n, uint64_t edl)
{
	int found = -1;
	uint64_t max_dl = 0;

	for (int c = 0; c < n; c++) {
		if (!dls_cpumask_test(allowed, c))
			continue;
		if (!busy[c])
			return c;
		if (dls_time_before(edl, dl[c]) &&
		    (found < 0 || dls_time_after(dl[c], max_dl))) {
			max_dl = dl[c];
			found = c;
		}
	}
	return found;
}

struct arr {
	uint64_t *dl;
	unsigned char *busy;
};

static bool arr_earliest(void *ctx, int cpu, uint64_t *edl)
{
	const struct arr *a = ctx;

	if (!a->busy[cpu])
		return false;
	*edl = a->dl[cpu];
	return true;
}

__attribute__((noinline)) static double run_linear(const struct ops *o, bool with_set,
						   bool via_ref)
{
	struct arr a;
	struct dls_cpumask *all = mask_new(o->n);
	long acc = 0;
	double t0, t1;

	a.dl = malloc(sizeof(uint64_t) * (size_t)o->n);
	a.busy = malloc((size_t)o->n);
	dls_cpumask_fill(all);
	for (int c = 0; c < o->n; c++) {
		a.dl[c] = 1000000 + (uint64_t)c * 997 % 1000000;
		a.busy[c] = 1;
	}
	t0 = now_ns();
	for (int i = 0; i < o->count; i++) {
		if (with_set)
			a.dl[o->cpu[i]] = o->dl[i];
		if (via_ref)
			acc += dls__cpudl_find_linear(all, all, o->edl[i],
						     arr_earliest, &a, NULL, NULL);
		else
			acc += linear_inline(a.dl, a.busy, all, o->n, o->edl[i]);
	}
	t1 = now_ns();
	sink = acc;
	free(a.dl);
	free(a.busy);
	free(all);
	return (t1 - t0) / o->count;
}

/* ---- mask operations ----------------------------------------------------- */

/* Out of line so the disassembly can be inspected. */
__attribute__((noinline)) int bench_first_and_1(const struct dls_cpumask *a,
						const struct dls_cpumask *b);
__attribute__((noinline)) int bench_first_and_1(const struct dls_cpumask *a,
						const struct dls_cpumask *b)
{
	return dls_cpumask_first_and(a, b);
}

__attribute__((noinline)) bool bench_test(const struct dls_cpumask *m, int cpu);
__attribute__((noinline)) bool bench_test(const struct dls_cpumask *m, int cpu)
{
	return dls_cpumask_test(m, cpu);
}

static void mask_table(int runs)
{
	static const int sizes[] = { 64, 4096 };

	printf("\n%6s %12s %12s %12s %12s %12s\n", "cpus", "test+set", "first_and",
	       "and", "weight", "for_each/cpu");
	for (size_t s = 0; s < 2; s++) {
		int n = sizes[s], iters = 2000000 / (n / 64 + 1);
		struct dls_cpumask *a = mask_new(n), *b = mask_new(n), *d = mask_new(n);
		double r[5][5], med[5];
		uint64_t seed = 42;
		long acc = 0;

		/* Sparse masks: a few bits, the intersection in the last word. */
		for (int k = 0; k < 4; k++)
			dls_cpumask_set(a, (int)(xorshift(&seed) % (uint64_t)n));
		dls_cpumask_set(a, n - 1);
		dls_cpumask_set(b, n - 1);
		for (int run = 0; run < runs && run < 5; run++) {
			double t0 = now_ns();
			int cpu;

			for (int i = 0; i < iters; i++) {
				int c = (i * 7) & (n - 1);

				acc += bench_test(a, c);
				dls_cpumask_set(d, c);
			}
			r[0][run] = (now_ns() - t0) / iters;
			t0 = now_ns();
			for (int i = 0; i < iters; i++)
				acc += bench_first_and_1(a, b);
			r[1][run] = (now_ns() - t0) / iters;
			t0 = now_ns();
			for (int i = 0; i < iters; i++)
				acc += dls_cpumask_and(d, a, b);
			r[2][run] = (now_ns() - t0) / iters;
			t0 = now_ns();
			for (int i = 0; i < iters; i++)
				acc += dls_cpumask_weight(a);
			r[3][run] = (now_ns() - t0) / iters;
			t0 = now_ns();
			for (int i = 0; i < iters; i++)
				dls_cpumask_for_each(cpu, a)
					acc += cpu;
			r[4][run] = (now_ns() - t0) / iters / dls_cpumask_weight(a);
		}
		for (int k = 0; k < 5; k++)
			med[k] = median(r[k], runs < 5 ? runs : 5);
		sink = acc;
		printf("%6d %12.2f %12.2f %12.2f %12.2f %12.2f\n", n, med[0], med[1],
		       med[2], med[3], med[4]);
		free(a);
		free(b);
		free(d);
	}
	printf("(ns/op; 64 CPUs is one word, 4096 is 64 words)\n");
}

/* Fixed-count mode: one implementation, find only, N ops. */
static int fixed(int argc, char **argv)
{
	long ops = -1;
	int n = 64, impl = -1;
	struct ops o;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--ops"))
			ops = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--n"))
			n = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--impl"))
			impl = !strcmp(argv[i + 1], "heap")	  ? 0
			       : !strcmp(argv[i + 1], "linear")	  ? 1
			       : !strcmp(argv[i + 1], "linear-ref") ? 2
								    : -1;
	}
	if (ops < 1 || ops > 100000000 || impl < 0 || n < 1 || n > 4096) {
		fprintf(stderr, "usage: bench_cpudl --ops N --impl heap|linear|linear-ref "
				"[--n CPUS]\n");
		return 2;
	}
	ops_make(&o, n, (int)ops, 0x9e3779b97f4a7c15ULL + (uint64_t)n);
	if (impl == 0)
		run_heap(&o, false);
	else
		run_linear(&o, false, impl == 2);
	ops_free(&o);
	return 0;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 4, 8, 64, 256, 512, 1024, 4096 };
	int runs;

	if (argc > 1 && argv[1][0] == '-')
		return fixed(argc, argv);
	runs = argc > 1 ? atoi(argv[1]) : 5;

	if (runs < 1 || runs > 5)
		runs = 5;
	printf("cpudl vs linear scan: all CPUs busy, entity allowed everywhere;\n"
	       "ns/op, median of %d runs\n\n", runs);
	printf("%6s | %10s %10s %10s %8s | %10s %10s %8s\n", "cpus",
	       "heap s+f", "linear s+f", "lin-ref", "ratio", "heap find",
	       "lin find", "ratio");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		int n = sizes[s];
		int count = (int)(4000000 / (n + 32));
		struct ops o;
		double hs[5], ls[5], lr[5], hf[5], lf[5];

		if (count < 2000)
			count = 2000;
		ops_make(&o, n, count, 0x9e3779b97f4a7c15ULL + (uint64_t)n);
		for (int r = 0; r < runs; r++) {
			hs[r] = run_heap(&o, true);
			ls[r] = run_linear(&o, true, false);
			lr[r] = run_linear(&o, true, true);
			hf[r] = run_heap(&o, false);
			lf[r] = run_linear(&o, false, false);
		}
		double mhs = median(hs, runs), mls = median(ls, runs),
		       mlr = median(lr, runs), mhf = median(hf, runs),
		       mlf = median(lf, runs);
		printf("%6d | %10.1f %10.1f %10.1f %7.1fx | %10.1f %10.1f %7.1fx\n",
		       n, mhs, mls, mlr, mls / mhs, mhf, mlf, mlf / mhf);
		ops_free(&o);
	}
	printf("(ratio = linear / heap, same run; s+f = set + find)\n");
	mask_table(runs);
	return 0;
}
