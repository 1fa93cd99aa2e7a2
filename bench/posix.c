/*
 * POSIX platform costs, each the median of 7 runs:
 *  1. park + unpark round trip of a worker (the caller waits until the
 *     worker sits parked, then lets it run again), against a plain
 *     condition-variable ping-pong between two threads in the same run
 *     (the least a two-thread handshake costs);
 *  2. timer arm + try_cancel with 0, 64 and 4096 other timers armed (far in
 *     the future, so the service thread sleeps), against arm + cancel of
 *     the bare rbtree (no lock, no thread) in the same run. With none armed
 *     every arm makes a new earliest timer and signals the service thread
 *     (a futex wake), which is the cost that row shows;
 *  3. one CPU of N taken offline and back, with 4 entities per CPU:
 *     parking its worker (dls_posix_cpu_down/up), against stopping the
 *     worker thread and creating a new one around dls_cpu_offline/online
 *     (the teardown the park facility avoids).
 * Real threads on a possibly loaded machine: read ratios, not absolutes.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/posix.h>

#include "bench_util.h"

#define RUNS 7

/* ---- 1. park + unpark ------------------------------------------------ */

static int idle_fn(struct dls_posix_worker *w, void *arg)
{
	(void)arg;
	while (!dls_posix_worker_should_stop(w) && !dls_posix_worker_should_park(w))
		dls_posix_worker_sleep(w, UINT64_MAX);
	return 0;
}

static double run_park(int ops)
{
	struct dls_posix_worker w;
	double t0, t;

	if (dls_posix_worker_create(&w, idle_fn, NULL, 0, DLS_POSIX_WORKER_NOBIND))
		return -1;
	dls_posix_worker_wake(&w);
	t0 = now_ns();
	for (int i = 0; i < ops; i++) {
		dls_posix_worker_park(&w);
		dls_posix_worker_unpark(&w);
	}
	t = (now_ns() - t0) / ops;
	dls_posix_worker_stop(&w, NULL);
	return t;
}

struct pingpong {
	pthread_mutex_t m;
	pthread_cond_t c;
	int turn, ops;
};

static void *pong_main(void *arg)
{
	struct pingpong *p = arg;

	pthread_mutex_lock(&p->m);
	for (int i = 0; i < p->ops; i++) {
		while (p->turn != 1)
			pthread_cond_wait(&p->c, &p->m);
		p->turn = 0;
		pthread_cond_broadcast(&p->c);
	}
	pthread_mutex_unlock(&p->m);
	return NULL;
}

static double run_pingpong(int ops)
{
	struct pingpong p = { .ops = ops };
	pthread_t th;
	double t0, t;

	pthread_mutex_init(&p.m, NULL);
	pthread_cond_init(&p.c, NULL);
	pthread_create(&th, NULL, pong_main, &p);
	t0 = now_ns();
	pthread_mutex_lock(&p.m);
	for (int i = 0; i < ops; i++) {
		p.turn = 1;
		pthread_cond_broadcast(&p.c);
		while (p.turn != 0)
			pthread_cond_wait(&p.c, &p.m);
	}
	pthread_mutex_unlock(&p.m);
	t = (now_ns() - t0) / ops;
	pthread_join(th, NULL);
	pthread_cond_destroy(&p.c);
	pthread_mutex_destroy(&p.m);
	return t;
}

/* ---- 2. timer arm + cancel ------------------------------------------------ */

static void never(void *arg, struct dls_posix_timer *t)
{
	(void)arg;
	(void)t;
}

static double run_timer(int others, int ops)
{
	struct dls_posix_clock clock;
	struct dls_posix_timers svc;
	struct dls_posix_timer *bg = calloc((size_t)others + 1, sizeof(*bg));
	struct dls_posix_timer t;
	uint64_t far;
	double t0, dt;

	if (!bg || dls_posix_clock_init(&clock, DLS_POSIX_CLOCK_MONOTONIC) ||
	    dls_posix_timers_init(&svc, &clock) || dls_posix_timers_start(&svc))
		return -1;
	far = dls_posix_clock_now(&clock) + UINT64_C(3600000000000);
	for (int i = 0; i < others; i++) {
		dls_posix_timer_init(&bg[i], never, NULL);
		dls_posix_timer_arm(&svc, &bg[i], far + (uint64_t)i * 1000);
	}
	dls_posix_timer_init(&t, never, NULL);
	t0 = now_ns();
	for (int i = 0; i < ops; i++) {
		/* in the middle of the armed ones, as a replenishment would be */
		dls_posix_timer_arm(&svc, &t, far + (uint64_t)(others / 2) * 1000 + 1);
		dls_posix_timer_try_cancel(&svc, &t);
	}
	dt = (now_ns() - t0) / ops;
	dls_posix_timers_stop(&svc);
	dls_posix_timers_destroy(&svc);
	free(bg);
	return dt;
}

struct bare {
	struct dls_rb_node node;
	uint64_t key;
};

static bool bare_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_container_of(a, struct bare, node)->key <
	       dls_container_of(b, struct bare, node)->key;
}

static double run_bare_tree(int others, int ops)
{
	struct bare *bg = calloc((size_t)others + 1, sizeof(*bg));
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	struct bare t;
	double t0, dt;

	if (!bg)
		return -1;
	for (int i = 0; i < others; i++) {
		bg[i].key = (uint64_t)i * 1000;
		dls_rb_node_init(&bg[i].node);
		dls_rb_add_cached(&bg[i].node, &root, bare_less);
	}
	dls_rb_node_init(&t.node);
	t.key = (uint64_t)(others / 2) * 1000 + 1;
	t0 = now_ns();
	for (int i = 0; i < ops; i++) {
		dls_rb_add_cached(&t.node, &root, bare_less);
		dls_rb_erase_cached(&t.node, &root);
		dls_rb_node_init(&t.node);
	}
	dt = (now_ns() - t0) / ops;
	free(bg);
	return dt;
}

/* ---- 3. hotplug: park vs teardown -------------------------------------------- */

#define MAXCPU 8
#define PER_CPU 4

struct hp {
	struct dls_posix plat;
	struct dls_posix_lock locks[MAXCPU];
	struct dls_ops ops;
	struct dls_domain dom;
	struct dls_rq rqs[MAXCPU];
	void *smp_mem;
	struct dls_posix_worker w[MAXCPU];
	struct dls_entity se[MAXCPU * PER_CPU];
	struct dls_posix_timer pt[MAXCPU * PER_CPU];
	int n;
};

static void hp_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu; /* the idle workers need no kick */
}

static int hp_init(struct hp *h, int n)
{
	size_t sz = dls_smp_size(n);

	memset(h, 0, sizeof(*h));
	h->n = n;
	if (dls_posix_init(&h->plat, NULL, h->locks, n))
		return -1;
	dls_posix_fill_ops(&h->ops, hp_resched, NULL);
	h->smp_mem = aligned_alloc(16, (sz + 15) & ~(size_t)15);
	if (!h->smp_mem || dls_domain_init(&h->dom, &h->ops, &h->plat, NULL, h->rqs, n) ||
	    dls_posix_smp_init(&h->plat, &h->dom, h->smp_mem, sz))
		return -1;
	for (int i = 0; i < n * PER_CPU; i++) {
		struct dls_params p = { .runtime = 100000, .deadline = 10000000 };

		dls_entity_init(&h->se[i]);
		dls_posix_timer_bind(&h->pt[i], &h->se[i].timer);
		if (dls_entity_attach(&h->rqs[i % n], &h->se[i], &p))
			return -1;
	}
	for (int c = 0; c < n; c++) {
		if (dls_posix_worker_create(&h->w[c], idle_fn, NULL, c, DLS_POSIX_WORKER_NOBIND))
			return -1;
		dls_posix_worker_wake(&h->w[c]);
	}
	return dls_posix_start(&h->plat);
}

static void hp_fini(struct hp *h)
{
	for (int c = 0; c < h->n; c++)
		dls_posix_worker_stop(&h->w[c], NULL);
	dls_posix_stop(&h->plat);
	for (int i = 0; i < h->n * PER_CPU; i++)
		dls_task_dead(h->se[i].rq, &h->se[i]);
	dls_posix_destroy(&h->plat);
	free(h->smp_mem);
}

static double run_hotplug(int n, int ops, bool teardown)
{
	struct hp *h = malloc(sizeof(*h));
	int cpu = n - 1;
	double t0, dt;

	if (!h || hp_init(h, n))
		return -1;
	t0 = now_ns();
	for (int i = 0; i < ops; i++) {
		if (teardown) {
			dls_posix_worker_stop(&h->w[cpu], NULL);
			dls_cpu_offline(&h->dom, cpu, true, NULL, NULL);
			dls_cpu_online(&h->dom, cpu);
			dls_posix_worker_create(&h->w[cpu], idle_fn, NULL, cpu,
						DLS_POSIX_WORKER_NOBIND);
			dls_posix_worker_wake(&h->w[cpu]);
		} else {
			dls_posix_cpu_down(&h->dom, cpu, &h->w[cpu], true, NULL, NULL);
			dls_posix_cpu_up(&h->dom, cpu, &h->w[cpu]);
		}
	}
	dt = (now_ns() - t0) / ops;
	hp_fini(h);
	free(h);
	return dt;
}

int main(void)
{
	static const int others[] = { 0, 64, 4096 };
	static const int cpus[] = { 2, 4, 8 };
	double a[RUNS], b[RUNS], ma, mb;

	printf("park + unpark round trip (ns/op, median of %d)\n", RUNS);
	printf("%12s %12s %8s\n", "park+unpark", "cond pp", "ratio");
	for (int r = 0; r < RUNS; r++) {
		a[r] = run_park(2000);
		b[r] = run_pingpong(2000);
	}
	ma = median(a, RUNS);
	mb = median(b, RUNS);
	printf("%12.0f %12.0f %7.2fx\n", ma, mb, ma / mb);

	printf("\ntimer arm + try_cancel (ns/op, median of %d)\n", RUNS);
	printf("%8s %12s %12s %8s\n", "armed", "service", "bare tree", "ratio");
	for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++) {
		for (int r = 0; r < RUNS; r++) {
			a[r] = run_timer(others[k], 100000);
			b[r] = run_bare_tree(others[k], 100000);
		}
		ma = median(a, RUNS);
		mb = median(b, RUNS);
		printf("%8d %12.1f %12.1f %7.2fx\n", others[k], ma, mb, ma / mb);
	}

	printf("\none CPU of N offline and back, %d entities per CPU (us/op, median of %d)\n",
	       PER_CPU, RUNS);
	printf("%6s %12s %12s %8s\n", "cpus", "park", "teardown", "ratio");
	for (size_t k = 0; k < sizeof(cpus) / sizeof(cpus[0]); k++) {
		for (int r = 0; r < RUNS; r++) {
			a[r] = run_hotplug(cpus[k], 300, false);
			b[r] = run_hotplug(cpus[k], 300, true);
		}
		ma = median(a, RUNS) / 1000;
		mb = median(b, RUNS) / 1000;
		printf("%6d %12.2f %12.2f %7.2fx\n", cpus[k], ma, mb, mb / ma);
	}
	printf("(ratio = teardown / park, same run)\n");
	return 0;
}
