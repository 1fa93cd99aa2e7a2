/*
 * Global EDF placement and migration: the cost of one wake-up placement and
 * of one push (bench/cpudl.c measures the cpudl heap against the linear
 * scan on its own).
 *
 * Setup, for n CPUs: CPUs 1..n-1 each run an entity with a deadline drawn
 * in [20, 1000] ms; CPU 0 runs x (5 ms) and has w (10 ms) queued behind it,
 * which the wake-up already pushed to the CPU running the latest deadline.
 * Every CPU is busy, so the heap's root answers (no free-CPU scan).
 *
 *  select  dls_select_cpu() for a sleeping entity whose last CPU (0) runs
 *          an earlier deadline: it looks elsewhere. Its deadline is drawn
 *          in [6, 19] ms before each call (a store, the same for the peer).
 *  linear  the peer: the placement scan of the 2012 SCHED_DEADLINE patches,
 *          dls__cpudl_find_linear() over the runqueues' earliest deadlines.
 *  push    dls_entity_move() of w back to CPU 0, then dls_push() on CPU 0
 *          (which moves it to the latest CPU again): one op = move + push.
 *  move    the peer: dls_entity_move() there and back, the bare migration
 *          (dequeue, detach, attach, enqueue, heap updates), twice.
 *          push - move/2 is one push with its migration; push - move the
 *          push decision over a bare migration.
 *
 * Each figure is the median of 5 runs (ns/op; the ratio is to the peer of
 * the same run). No locks (single thread), no tracing.
 *
 * Usage: bench_smp [runs]
 *        bench_smp --ops N --op select|linear|push|move [--cpus C]
 *          runs exactly N ops after the setup, for instruction counts
 *          (bench/smp_callgrind.sh takes the difference of two counts).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/smp.h>

#include "bench_util.h"
#include "edf/cpudl_impl.h"

#define MS UINT64_C(1000000)
#define NDL 4096

struct bench {
	uint64_t now;
	int n;
	struct dls_domain dom;
	struct dls_rq *rq;
	void *smp_mem;
	struct dls_entity *busy; /* one per CPU: busy[0] is x */
	struct dls_entity w, s;
	struct dls_cpumask *all;
	uint64_t dl[NDL];        /* deadlines drawn for s */
};

static uint64_t b_now(void *ctx, int cpu)
{
	(void)cpu;
	return ((struct bench *)ctx)->now;
}

static void b_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	(void)ctx;
	(void)t;
	(void)abs_ns;
}

static void b_cancel(void *ctx, struct dls_timer *t)
{
	(void)ctx;
	(void)t;
}

static void b_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
}

static const struct dls_ops bench_ops = {
	.now = b_now, .timer_arm = b_arm, .timer_cancel = b_cancel, .resched = b_resched,
};

static void must(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "bench_smp: %s: %s\n", what, dls_strerror(err));
		exit(1);
	}
}

static void start(struct dls_rq *rq, struct dls_entity *se, uint64_t q, uint64_t d)
{
	struct dls_params p = { .runtime = q, .deadline = d };

	dls_entity_init(se);
	must(dls_entity_attach(rq, se, &p), "attach");
	must(dls_wakeup(rq, se), "wakeup");
}

static void setup(struct bench *b, int n)
{
	struct dls_domain_config cfg;
	size_t sz = dls_smp_size(n), msz = dls_cpumask_size(n);
	uint64_t seed = 0x5eed0000ULL + (uint64_t)n;

	memset(b, 0, sizeof(*b));
	b->now = 1000 * MS;
	b->n = n;
	b->rq = calloc((size_t)n, sizeof(*b->rq));
	b->busy = calloc((size_t)n, sizeof(*b->busy));
	b->smp_mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	b->all = malloc(msz);
	if (!b->rq || !b->busy || !b->smp_mem || !b->all)
		abort();
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	must(dls_domain_init(&b->dom, &bench_ops, b, &cfg, b->rq, n), "domain");
	must(dls_smp_init(&b->dom, b->smp_mem, sz), "smp");
	must(dls_cpumask_init(b->all, msz, n), "mask");
	dls_cpumask_fill(b->all);
	for (int c = 1; c < n; c++) {
		start(&b->rq[c], &b->busy[c], 1 * MS, (20 + xorshift(&seed) % 981) * MS);
		dls_schedule(&b->rq[c]);
	}
	start(&b->rq[0], &b->busy[0], 1 * MS, 5 * MS);
	dls_schedule(&b->rq[0]);
	start(&b->rq[0], &b->w, 1 * MS, 10 * MS); /* pushed to the latest CPU */
	if (n > 1 && b->w.rq == &b->rq[0]) {
		fprintf(stderr, "bench_smp: setup: w was not pushed\n");
		exit(1);
	}
	dls_entity_init(&b->s);
	{
		struct dls_params p = { .runtime = 1 * MS, .deadline = 15 * MS };

		must(dls_entity_attach(&b->rq[0], &b->s, &p), "attach");
	}
	for (int i = 0; i < NDL; i++)
		b->dl[i] = b->now + (6 + xorshift(&seed) % 14) * MS;
}

static void teardown(struct bench *b)
{
	const char *err = dls_domain_check(&b->dom);

	if (err) {
		fprintf(stderr, "bench_smp: domain invalid after the run: %s\n", err);
		exit(1);
	}
	free(b->rq);
	free(b->busy);
	free(b->smp_mem);
	free(b->all);
}

static bool rq_earliest(void *ctx, int cpu, uint64_t *edl)
{
	const struct dls_rq *rq = &((const struct dls_rq *)ctx)[cpu];

	if (!rq->nr_running)
		return false;
	*edl = rq->earliest.curr;
	return true;
}

static volatile long sink;

enum op { OP_SELECT, OP_LINEAR, OP_PUSH, OP_MOVE };

/* Out of line: callgrind counts it alone (--toggle-collect=run_ops). */
__attribute__((noinline)) static void run_ops(struct bench *b, enum op op, long count)
{
	struct dls_rq *later = b->w.rq;
	long acc = 0;

	for (long i = 0; i < count; i++) {
		switch (op) {
		case OP_SELECT:
			b->s.deadline = b->dl[i & (NDL - 1)];
			acc += dls_select_cpu(&b->dom, &b->s, 0);
			break;
		case OP_LINEAR:
			b->s.deadline = b->dl[i & (NDL - 1)];
			acc += dls__cpudl_find_linear(b->dom.smp->online, b->all, b->s.deadline,
						     rq_earliest, b->rq, NULL, NULL);
			break;
		case OP_PUSH:
			dls_entity_move(&b->w, &b->rq[0]);
			acc += dls_push(&b->rq[0]);
			break;
		case OP_MOVE:
			dls_entity_move(&b->w, &b->rq[0]);
			dls_entity_move(&b->w, later);
			acc++;
			break;
		}
	}
	sink = acc;
	if ((op == OP_PUSH || op == OP_MOVE) && b->w.rq != later) {
		fprintf(stderr, "bench_smp: push did not go back to the latest CPU\n");
		exit(1);
	}
}

static double timed(int n, enum op op, long count)
{
	struct bench b;
	double t0, t1;

	setup(&b, n);
	run_ops(&b, op, count / 16); /* warm the caches */
	t0 = now_ns();
	run_ops(&b, op, count);
	t1 = now_ns();
	teardown(&b);
	return (t1 - t0) / (double)count;
}

static int fixed(int argc, char **argv)
{
	static const char *names[] = { "select", "linear", "push", "move" };
	long ops = -1;
	int cpus = 64, op = -1;
	struct bench b;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--ops"))
			ops = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--cpus"))
			cpus = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--op"))
			for (int k = 0; k < 4; k++)
				if (!strcmp(argv[i + 1], names[k]))
					op = k;
	}
	if (ops < 0 || op < 0 || cpus < 2 || cpus > 4096) {
		fprintf(stderr, "usage: bench_smp --ops N --op select|linear|push|move "
				"[--cpus C]\n");
		return 2;
	}
	setup(&b, cpus);
	run_ops(&b, (enum op)op, ops);
	teardown(&b);
	return 0;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 4, 64, 256 };
	int runs = 5;

	if (argc > 1 && argv[1][0] == '-')
		return fixed(argc, argv);
	if (argc > 1)
		runs = atoi(argv[1]);
	if (runs < 1 || runs > 9)
		runs = 5;
	printf("global EDF: wake-up placement and push, every CPU busy;\n"
	       "ns/op, median of %d runs\n\n", runs);
	printf("%6s | %9s %9s %7s | %9s %9s %7s %9s\n", "cpus", "select", "linear",
	       "ratio", "push", "move", "ratio", "1 push");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int n = sizes[k];
		long count = 400000;
		double v[4][9], med[4];

		for (int r = 0; r < runs; r++)
			for (int op = 0; op < 4; op++)
				v[op][r] = timed(n, (enum op)op, count);
		for (int op = 0; op < 4; op++)
			med[op] = median(v[op], runs);
		printf("%6d | %9.1f %9.1f %6.1fx | %9.1f %9.1f %6.2fx %9.1f\n", n, med[0],
		       med[1], med[1] / med[0], med[2], med[3], med[2] / med[3],
		       med[2] - med[3] / 2);
	}
	printf("(select ratio = linear / select; push = move back + dls_push, "
	       "move = two bare moves,\n ratio = push / move; 1 push = push - move/2, "
	       "one dls_push with its migration)\n");
	return 0;
}
