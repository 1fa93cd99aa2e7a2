/*
 * Threaded global EDF on the POSIX platform: one worker thread per CPU
 * doing wake-ups, ticks, blocks, job completions, schedules, pushes, pulls,
 * placement queries and affinity changes with the real runqueue locks and
 * the real timer service (throttles arm real replenishment timers), while
 * a controller takes CPUs offline and back with dls_posix_cpu_down/up.
 * Afterwards: every validator passes and every entity is attached to
 * exactly one runqueue with its bandwidth (nothing lost, nothing doubled).
 * The admission case adds entities that each worker attaches, re-parameterises
 * and kills on its own CPU near the domain's limit, and whose CPU changes
 * capacity, while the controller tries unforced offlines; it checks that
 * the admitted bandwidth never exceeds the limit (the domain's bandwidth
 * lock).
 *
 * Short in `make check` (about a second, scaled down by DLS_TEST_SCALE);
 * DLS_STRESS_SECONDS=N runs each case for N seconds (make check-stress).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/posix.h>

#include "dls_test.h"

#define US 1000ull
#define MS 1000000ull

enum { NCPU = 4, NENT = 16, NMASKS = 5, NCHURN = 6, NALL = NENT + NCPU * NCHURN };

struct sys;

struct task {
	struct dls_entity se;
	struct dls_posix_timer ptimer;
	int id;
	bool live; /* churn entities: attached, as its owner thread sees it */
};

struct cpu {
	struct sys *sys;
	struct dls_posix_worker w;
	struct dls_test_rng rng;
	int id;
	unsigned long ops, moves_seen;
};

struct sys {
	struct dls_posix plat;
	struct dls_posix_lock locks[NCPU];
	struct dls_ops ops;
	struct dls_domain dom;
	struct dls_rq rqs[NCPU];
	void *smp_mem;
	struct cpu cpus[NCPU];
	struct task tasks[NENT];
	struct task churn[NCPU][NCHURN]; /* churn[c]: attached and killed by CPU c */
	bool churn_on;
	pthread_mutex_t adm_lock;
	uint64_t adm_sum;       /* admitted churn bandwidth: raised after, lowered before */
	uint64_t adm_max;       /* the most adm_sum + base bandwidth ever reached */
	uint64_t base_bw;       /* the tasks' bandwidth */
	unsigned long adm_ok, adm_refused, adm_over, cap_changes;
	unsigned char mask_mem[NMASKS][64];
	struct dls_cpumask *masks[NMASKS];
	unsigned long stranded; /* controller thread only */
	bool workers_gone;      /* set single-threaded, after the workers stopped */
};

static void sys_resched(void *ctx, int cpu)
{
	struct sys *s = ((struct dls_posix *)ctx)->user;

	if (!s->workers_gone)
		dls_posix_worker_kick(&s->cpus[cpu].w);
}

static uint64_t stress_ns(uint64_t dflt_ms)
{
	const char *env = getenv("DLS_STRESS_SECONDS");
	uint64_t ms;

	if (env)
		return strtoull(env, NULL, 0) * 1000 * MS;
	ms = dls_test_scaled(dflt_ms);
	return (ms < 200 ? 200 : ms) * MS;
}

/* How long a stress case runs: stress_ns(@dflt_ms) from now on. */
struct timebox {
	struct dls_posix_clock clock;
	uint64_t end;
};

static void timebox_start(struct timebox *tb, uint64_t dflt_ms)
{
	CU_ASSERT_FATAL(dls_posix_clock_init(&tb->clock, DLS_POSIX_CLOCK_MONOTONIC) == 0);
	tb->end = dls_posix_clock_now(&tb->clock) + stress_ns(dflt_ms);
}

static bool timebox_open(struct timebox *tb)
{
	return dls_time_before(dls_posix_clock_now(&tb->clock), tb->end);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	nanosleep(&ts, NULL);
}

/*
 * The test's own count of admitted churn bandwidth: raised after the
 * library admitted, lowered before it releases, so it never exceeds what
 * the library holds; with every CPU at full capacity that may not pass
 * limit × NCPU.
 */
static void adm_change(struct sys *s, uint64_t add, uint64_t sub, bool refused)
{
	uint64_t limit = s->dom.cfg.bw_limit * NCPU;

	pthread_mutex_lock(&s->adm_lock);
	s->adm_sum = s->adm_sum + add - sub;
	if (s->adm_sum + s->base_bw > s->adm_max)
		s->adm_max = s->adm_sum + s->base_bw;
	s->adm_over += s->adm_sum + s->base_bw > limit;
	s->adm_ok += add > 0;
	s->adm_refused += refused;
	pthread_mutex_unlock(&s->adm_lock);
}

/* Attach, re-parameterise or kill one of CPU c's churn entities. */
static void churn_step(struct cpu *c)
{
	struct sys *s = c->sys;
	struct task *t = &s->churn[c->id][dls_test_rng_below(&c->rng, NCHURN)];
	/* 0.1 .. 0.4 of a CPU */
	struct dls_params p = {
		.runtime = (1 + dls_test_rng_below(&c->rng, 4)) * 500 * US,
		.deadline = 5 * MS,
	};
	uint64_t bw = dls_params_bw(&p), old;
	struct dls_rq *trq;
	int rc;

	if (dls_test_rng_below(&c->rng, 8) == 0) {
		/* Our CPU changes speed: lowering it is admitted like an attach. */
		static const uint32_t caps[] = { 512, 768, DLS_CAPACITY_SCALE };
		uint32_t cap = caps[dls_test_rng_below(&c->rng, 3)], before;

		s->ops.lock(&s->plat, c->id);
		before = s->rqs[c->id].capacity;
		rc = dls_rq_set_capacity(&s->rqs[c->id], cap);
		CU_ASSERT(rc == 0 || (rc == DLS_EBANDWIDTH && cap < before));
		s->ops.unlock(&s->plat, c->id);
		pthread_mutex_lock(&s->adm_lock);
		s->cap_changes += rc == 0 && cap != before;
		pthread_mutex_unlock(&s->adm_lock);
		return;
	}
	if (!t->live) {
		dls_entity_init(&t->se);
		dls_posix_timer_bind(&t->ptimer, &t->se.timer);
		s->ops.lock(&s->plat, c->id);
		rc = dls_entity_attach(&s->rqs[c->id], &t->se, &p);
		if (rc == 0 && dls_test_rng_below(&c->rng, 2))
			dls_wakeup(&s->rqs[c->id], &t->se);
		s->ops.unlock(&s->plat, c->id);
		CU_ASSERT(rc == 0 || rc == DLS_EBANDWIDTH);
		t->live = rc == 0;
		adm_change(s, rc == 0 ? bw : 0, 0, rc != 0);
		return;
	}
	if (dls_test_rng_below(&c->rng, 2)) { /* the task exits */
		adm_change(s, 0, t->se.bw, false); /* only we change it */
		DLS_ASSERT_EQ_S64(dls_posix_task_dead(&s->dom, &t->se, &t->ptimer), 0);
		t->live = false;
		return;
	}
	trq = dls_posix_entity_lock(&t->se);
	CU_ASSERT_FATAL(trq != NULL);
	old = t->se.bw;
	if (bw <= old) { /* giving back is never refused */
		adm_change(s, 0, old - bw, false);
		DLS_ASSERT_EQ_S64(dls_entity_set_params(trq, &t->se, &p), 0);
	} else {
		rc = dls_entity_set_params(trq, &t->se, &p);
		CU_ASSERT(rc == 0 || rc == DLS_EBANDWIDTH);
		adm_change(s, rc == 0 ? bw - old : 0, 0, rc != 0);
	}
	s->ops.unlock(&s->plat, trq->cpu);
}

/* One random step of CPU c's thread. */
static void step(struct cpu *c)
{
	struct sys *s = c->sys;
	struct dls_rq *rq = &s->rqs[c->id];
	struct task *t = &s->tasks[dls_test_rng_below(&c->rng, NENT)];
	struct dls_rq *trq;
	unsigned int op = (unsigned int)dls_test_rng_below(&c->rng, s->churn_on ? 12 : 10);

	switch (op) {
	case 10: /* admission churn on our own CPU */
	case 11:
		churn_step(c);
		break;
	case 0: /* wake a task wherever it is */
	case 1:
		trq = dls_posix_entity_lock(&t->se);
		if (trq) {
			int cpu = dls_select_cpu(&s->dom, &t->se, trq->cpu);

			CU_ASSERT(cpu == DLS_ENOCPU || (cpu >= 0 && cpu < NCPU));
			if (!t->se.runnable)
				dls_wakeup(trq, &t->se);
			s->ops.unlock(&s->plat, trq->cpu);
		}
		break;
	case 2: /* affinity change */
		trq = dls_posix_entity_lock(&t->se);
		if (trq) {
			int rc = dls_entity_set_affinity(
				&t->se, s->masks[dls_test_rng_below(&c->rng, NMASKS)]);

			CU_ASSERT(rc == 0 || rc == DLS_ENOCPU);
			s->ops.unlock(&s->plat, trq->cpu);
		}
		break;
	default: /* work on our own runqueue */
		s->ops.lock(&s->plat, c->id);
		if (op == 3 && rq->curr)
			dls_dequeue(rq, rq->curr, DLS_DEQUEUE_SLEEP);
		else if (op == 4 && rq->curr)
			dls_dequeue(rq, rq->curr, DLS_DEQUEUE_DONE);
		else if (op == 5)
			dls_push(rq);
		else if (op == 6)
			c->moves_seen += dls_pull(rq);
		else if (op == 7)
			dls_tick(rq);
		else
			dls_schedule(rq);
		s->ops.unlock(&s->plat, c->id);
		break;
	}
	c->ops++;
}

static int cpu_main(struct dls_posix_worker *w, void *arg)
{
	struct cpu *c = arg;

	while (!dls_posix_worker_should_stop(w) && !dls_posix_worker_should_park(w)) {
		step(c);
		if ((c->ops & 63) == 0)
			dls_posix_worker_sleep(w, 20 * US); /* let time pass */
	}
	return 0;
}

static void on_stranded(void *arg, struct dls_entity *se)
{
	(void)se;
	((struct sys *)arg)->stranded++;
}

/* A global domain of @n CPUs on platform @plat; returns its smp storage. */
static void *posix_global_domain(struct dls_posix *plat, const struct dls_posix_config *cfg,
				 struct dls_posix_lock *locks, struct dls_ops *ops,
				 void (*resched)(void *ctx, int cpu), struct dls_domain *dom,
				 struct dls_rq *rqs, int n)
{
	size_t sz = dls_smp_size(n);
	void *mem;

	CU_ASSERT_FATAL(dls_posix_init(plat, cfg, locks, n) == 0);
	dls_posix_fill_ops(ops, resched, NULL);
	CU_ASSERT_FATAL(dls_domain_init(dom, ops, plat, NULL, rqs, n) == 0);
	mem = aligned_alloc(16, (sz + 15) & ~(size_t)15);
	CU_ASSERT_FATAL(mem != NULL);
	CU_ASSERT_FATAL(dls_posix_smp_init(plat, dom, mem, sz) == 0);
	return mem;
}

static void sys_init(struct sys *s, enum dls_posix_lock_kind kind, uint64_t seed, bool churn)
{
	struct dls_posix_config cfg = { DLS_POSIX_CLOCK_MONOTONIC, kind };
	static const int mask_cpus[NMASKS][NCPU + 1] = {
		{ 0, 1, 2, 3, -1 }, { 0, 1, -1 }, { 2, 3, -1 }, { 1, -1 }, { 0, 2, 3, -1 },
	};

	memset(s, 0, sizeof(*s));
	CU_ASSERT_FATAL(pthread_mutex_init(&s->adm_lock, NULL) == 0);
	s->churn_on = churn; /* before any worker starts */
	s->smp_mem = posix_global_domain(&s->plat, &cfg, s->locks, &s->ops, sys_resched,
					 &s->dom, s->rqs, NCPU);
	s->plat.user = s; /* before anything reschedules */
	for (int m = 0; m < NMASKS; m++) {
		s->masks[m] = (struct dls_cpumask *)(void *)s->mask_mem[m];
		CU_ASSERT_FATAL(dls_cpumask_init(s->masks[m], sizeof(s->mask_mem[m]), NCPU) == 0);
		for (int k = 0; mask_cpus[m][k] >= 0; k++)
			dls_cpumask_set(s->masks[m], mask_cpus[m][k]);
	}
	for (int i = 0; i < NENT; i++) {
		struct task *t = &s->tasks[i];
		/* 16 x (0.2 .. 0.9 ms every 5 .. 10 ms): 1.28 CPUs of 4 */
		struct dls_params p = {
			.runtime = 200 * US + (uint64_t)(i % 8) * 100 * US,
			.deadline = 5 * MS + (uint64_t)(i % 6) * MS,
		};

		t->id = i;
		dls_entity_init(&t->se);
		dls_posix_timer_bind(&t->ptimer, &t->se.timer);
		CU_ASSERT_FATAL(dls_entity_attach(&s->rqs[i % NCPU], &t->se, &p) == 0);
		s->base_bw += t->se.bw;
	}
	for (int c = 0; c < NCPU; c++)
		for (int k = 0; k < NCHURN; k++)
			s->churn[c][k].id = NENT + c * NCHURN + k;
	for (int c = 0; c < NCPU; c++) {
		s->cpus[c].sys = s;
		s->cpus[c].id = c;
		dls_test_rng_seed(&s->cpus[c].rng, seed + (uint64_t)c);
		CU_ASSERT_FATAL(dls_posix_worker_create(&s->cpus[c].w, cpu_main, &s->cpus[c], c,
							DLS_POSIX_WORKER_NOBIND) == 0);
	}
	CU_ASSERT_FATAL(dls_posix_start(&s->plat) == 0);
	for (int c = 0; c < NCPU; c++)
		dls_posix_worker_wake(&s->cpus[c].w);
}

/* Stop everything, then check the domain single-threaded. */
static void sys_finish(struct sys *s)
{
	int seen[NALL] = { 0 };
	uint64_t bw = 0, want_bw = 0, migrations = 0, throttles = 0, repl = 0;
	unsigned long ops = 0;

	/* Park every worker and stop the timers before any worker is
	 * destroyed: a resched may kick any CPU's worker until then. */
	for (int c = 0; c < NCPU; c++)
		DLS_ASSERT_EQ_S64(dls_posix_worker_park(&s->cpus[c].w), 0);
	dls_posix_stop(&s->plat);
	for (int c = 0; c < NCPU; c++) {
		int result = -1;

		DLS_ASSERT_EQ_S64(dls_posix_worker_stop(&s->cpus[c].w, &result), 0);
		DLS_ASSERT_EQ_S64(result, 0);
		ops += s->cpus[c].ops;
	}
	s->workers_gone = true;
	DLS_ASSERT_VALID(dls_domain_check(&s->dom));
	for (int c = 0; c < NCPU; c++) {
		for (struct dls_entity *se = s->rqs[c].attached; se; se = se->attached_next) {
			struct task *t = dls_container_of(se, struct task, se);

			CU_ASSERT_PTR_EQUAL(se->rq, &s->rqs[c]);
			seen[t->id]++;
			bw += se->bw;
		}
	}
	for (int c = 0; c < NCPU; c++) {
		for (int k = 0; k < NCHURN; k++) {
			struct task *t = &s->churn[c][k];

			DLS_ASSERT_EQ_S64(seen[t->id], t->live);
			want_bw += t->live ? t->se.bw : 0;
		}
	}
	DLS_ASSERT_EQ_U64(s->dom.smp->bw.total, bw);
	for (int i = 0; i < NENT; i++) {
		DLS_ASSERT_EQ_S64(seen[i], 1);
		want_bw += s->tasks[i].se.bw;
		migrations += s->tasks[i].se.stats.migrations;
		throttles += s->tasks[i].se.stats.throttles;
		repl += s->tasks[i].se.stats.replenishments;
		/* a throttled entity waits for an armed replenishment timer */
		if (s->tasks[i].se.throttled)
			CU_ASSERT(dls_posix_timer_armed(&s->plat.timers, &s->tasks[i].ptimer));
	}
	DLS_ASSERT_EQ_U64(bw, want_bw);
	printf("[stress] %lu steps, %llu migrations, %llu throttles, %llu replenishments, "
	       "%llu timer expiries, %lu stranded reports\n",
	       ops, (unsigned long long)migrations, (unsigned long long)throttles,
	       (unsigned long long)repl, (unsigned long long)s->plat.timers.fired, s->stranded);
	for (int i = 0; i < NENT; i++)
		dls_task_dead(s->tasks[i].se.rq, &s->tasks[i].se);
	for (int c = 0; c < NCPU; c++)
		for (int k = 0; k < NCHURN; k++)
			if (s->churn[c][k].live)
				dls_task_dead(s->churn[c][k].se.rq, &s->churn[c][k].se);
	DLS_ASSERT_EQ_U64(s->dom.smp->bw.total, 0);
	dls_posix_destroy(&s->plat);
	pthread_mutex_destroy(&s->adm_lock);
	free(s->smp_mem);
}

/* CPUs go down and come back while the others keep scheduling. */
static void run_stress(enum dls_posix_lock_kind kind, uint64_t dflt_ms, bool hotplug,
		       uint64_t seed)
{
	struct sys *s = malloc(sizeof(*s));
	struct dls_test_rng rng;
	struct timebox tb;
	uint64_t cycles = 0;

	CU_ASSERT_FATAL(s != NULL);
	sys_init(s, kind, seed, false);
	dls_test_rng_seed(&rng, seed ^ 0x5eed);
	timebox_start(&tb, dflt_ms);
	while (timebox_open(&tb)) {
		int cpu = (int)dls_test_rng_below(&rng, NCPU);
		int rc;

		if (!hotplug) {
			sleep_ns(10 * MS);
			continue;
		}
		rc = dls_posix_cpu_down(&s->dom, cpu, &s->cpus[cpu].w, true, on_stranded, s);
		DLS_ASSERT_EQ_S64(rc, 0);
		CU_ASSERT_FALSE(s->rqs[cpu].online); /* read by the controller: written by it */
		if (dls_test_rng_below(&rng, 2)) {
			/* a second CPU down at once, then both back */
			int other = (cpu + 1 + (int)dls_test_rng_below(&rng, NCPU - 1)) % NCPU;

			rc = dls_posix_cpu_down(&s->dom, other, &s->cpus[other].w, true,
						on_stranded, s);
			DLS_ASSERT_EQ_S64(rc, 0);
			sleep_ns(dls_test_rng_below(&rng, 3) * MS);
			DLS_ASSERT_EQ_S64(dls_posix_cpu_up(&s->dom, other, &s->cpus[other].w), 0);
		}
		sleep_ns(dls_test_rng_below(&rng, 3) * MS);
		DLS_ASSERT_EQ_S64(dls_posix_cpu_up(&s->dom, cpu, &s->cpus[cpu].w), 0);
		DLS_ASSERT_EQ_S64(dls_posix_cpu_up(&s->dom, cpu, &s->cpus[cpu].w), DLS_ESTATE);
		cycles++;
		sleep_ns(dls_test_rng_below(&rng, 2) * MS);
	}
	if (hotplug)
		printf("[stress] %llu hotplug cycles\n", (unsigned long long)cycles);
	sys_finish(s);
	free(s);
}

/* The domain's admitted sum fits its online capacity (runqueues locked). */
static bool within_limit(const struct dls_domain *dom)
{
	return dom->smp->bw.total * DLS_CAPACITY_SCALE <=
	       dom->cfg.bw_limit * dom->smp->bw.capacity;
}

/*
 * With every runqueue locked nothing admits or migrates: the domain is
 * whole, its admitted sum fits the online capacity (no offline here is
 * forced) and holds at least what the workers count.
 */
static void check_locked_snapshot(struct sys *s)
{
	const char *err;
	uint64_t bw, counted;
	bool fits;

	for (int c = 0; c < NCPU; c++)
		s->ops.lock(&s->plat, c);
	err = dls_domain_check(&s->dom);
	bw = s->dom.smp->bw.total;
	fits = within_limit(&s->dom);
	pthread_mutex_lock(&s->adm_lock);
	counted = s->adm_sum + s->base_bw;
	pthread_mutex_unlock(&s->adm_lock);
	for (int c = NCPU - 1; c >= 0; c--)
		s->ops.unlock(&s->plat, c);
	DLS_ASSERT_VALID(err);
	CU_ASSERT(fits);
	CU_ASSERT(counted <= bw);
}

/* Workers attach and kill near the limit; the controller offlines unforced. */
static void run_admission(uint64_t dflt_ms, uint64_t seed)
{
	struct sys *s = malloc(sizeof(*s));
	struct dls_test_rng rng;
	struct timebox tb;
	unsigned long down = 0, refused = 0;

	CU_ASSERT_FATAL(s != NULL);
	sys_init(s, DLS_POSIX_LOCK_MUTEX, seed, true);
	dls_test_rng_seed(&rng, seed ^ 0xad);
	timebox_start(&tb, dflt_ms);
	while (timebox_open(&tb)) {
		int cpu = (int)dls_test_rng_below(&rng, NCPU);
		int rc = dls_posix_cpu_down(&s->dom, cpu, &s->cpus[cpu].w, false, on_stranded, s);

		CU_ASSERT(rc == 0 || rc == DLS_ECAPACITY);
		check_locked_snapshot(s);
		sleep_ns(dls_test_rng_below(&rng, 2) * MS);
		if (rc == 0) {
			down++;
			DLS_ASSERT_EQ_S64(dls_posix_cpu_up(&s->dom, cpu, &s->cpus[cpu].w), 0);
		} else {
			refused++;
		}
		check_locked_snapshot(s);
	}
	pthread_mutex_lock(&s->adm_lock);
	printf("[admission] %lu admitted, %lu refused, peak %.3f of %.3f CPUs, "
	       "%lu offlines done, %lu refused, %lu capacity changes\n", s->adm_ok,
	       s->adm_refused, (double)s->adm_max / DLS_BW_UNIT,
	       (double)s->dom.cfg.bw_limit * NCPU / DLS_BW_UNIT, down, refused,
	       s->cap_changes);
	DLS_ASSERT_EQ_U64(s->adm_over, 0);
	CU_ASSERT(s->adm_ok > 0 && s->adm_refused > 0); /* it ran near the limit */
	pthread_mutex_unlock(&s->adm_lock);
	sys_finish(s);
	free(s);
}

static void test_smp_stress_mutex(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();
	run_stress(DLS_POSIX_LOCK_MUTEX, 600,
		   false, dls_test_seed("posix smp stress (mutex)", 0x5a1));
}

static void test_smp_stress_hotplug(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();
	run_stress(DLS_POSIX_LOCK_MUTEX, 800,
		   true, dls_test_seed("posix smp stress + hotplug", 0x5a2));
}

static void test_smp_stress_spin_hotplug(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();
	run_stress(DLS_POSIX_LOCK_SPIN, 300,
		   true, dls_test_seed("posix smp stress + hotplug (spin)", 0x5a3));
}

static void test_admission_concurrent(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();
	run_admission(600, dls_test_seed("posix smp concurrent admission", 0x5a4));
}

/* Offline refusals: the last CPU, twice, and capacity without force. */
static void test_hotplug_refusals(void)
{
	struct sys *s = malloc(sizeof(*s));

	DLS_TEST_SKIP_WITHOUT_THREADS();
	CU_ASSERT_FATAL(s != NULL);
	sys_init(s, DLS_POSIX_LOCK_MUTEX, 1, false);
	DLS_ASSERT_EQ_S64(dls_posix_cpu_down(&s->dom, 0, &s->cpus[0].w, false, NULL, NULL), 0);
	DLS_ASSERT_EQ_S64(dls_posix_cpu_down(&s->dom, 0, NULL, false, NULL, NULL), DLS_ESTATE);
	DLS_ASSERT_EQ_S64(dls_posix_cpu_down(&s->dom, 1, &s->cpus[1].w, false, NULL, NULL), 0);
	/* 1.28 CPUs of admitted bandwidth do not fit one CPU at 95% */
	DLS_ASSERT_EQ_S64(dls_posix_cpu_down(&s->dom, 2, &s->cpus[2].w, false, NULL, NULL),
			  DLS_ECAPACITY);
	/* the refused CPU's worker runs again */
	pthread_mutex_lock(&s->cpus[2].w.lock);
	CU_ASSERT_FALSE(s->cpus[2].w.parked);
	pthread_mutex_unlock(&s->cpus[2].w.lock);
	DLS_ASSERT_EQ_S64(dls_posix_cpu_down(&s->dom, 2, &s->cpus[2].w, true, on_stranded, s), 0);
	DLS_ASSERT_EQ_S64(dls_posix_cpu_down(&s->dom, 3, &s->cpus[3].w, true, on_stranded, s),
			  DLS_ESTATE); /* the last one */
	sleep_ns(20 * MS);
	for (int c = 0; c < 3; c++)
		DLS_ASSERT_EQ_S64(dls_posix_cpu_up(&s->dom, c, &s->cpus[c].w), 0);
	sleep_ns(20 * MS);
	sys_finish(s);
	free(s);
}

/*
 * Two global domains of two CPUs, on two platforms sharing one timer
 * service or each with its own (a timer then stays on the service it was
 * first armed on): a thread per CPU wakes tasks and schedules its CPU (ticks,
 * blocks, job ends, schedules) while a mover thread takes tasks from one
 * domain to the other with dls_entity_move_domain() (always locking domain
 * A's runqueue before domain B's), throttled ones with their timers, and
 * admission refuses what does not fit. The mover checks both domains with
 * every runqueue locked now and then; at the end every task is attached
 * exactly once and each domain holds no more than its limit.
 */
enum { XCPU = 2, XENT = 10 };

struct xdom {
	struct dls_posix plat;
	struct dls_posix_lock locks[XCPU];
	struct dls_ops ops;
	struct dls_domain dom;
	struct dls_rq rqs[XCPU];
	void *smp_mem;
};

struct xsys {
	struct xdom d[2];
	struct task tasks[XENT];
	pthread_mutex_t m;
	bool stop;
	unsigned long moved, refused, busy, checks;
};

struct xcpu {
	struct xsys *x;
	int dom, cpu;
	struct dls_test_rng rng;
};

static void x_resched(void *ctx, int cpu)
{
	(void)ctx; /* the CPU threads poll */
	(void)cpu;
}

static bool x_stopped(struct xsys *x)
{
	bool stop;

	pthread_mutex_lock(&x->m);
	stop = x->stop;
	pthread_mutex_unlock(&x->m);
	return stop;
}

static int x_dom_of(const struct xsys *x, const struct dls_rq *rq)
{
	return rq->dom == &x->d[0].dom ? 0 : 1;
}

static void *x_cpu_main(void *arg)
{
	struct xcpu *c = arg;
	struct xsys *x = c->x;
	struct xdom *d = &x->d[c->dom];
	struct dls_rq *rq = &d->rqs[c->cpu];

	for (unsigned long n = 0; !x_stopped(x); n++) {
		unsigned int op = (unsigned int)dls_test_rng_below(&c->rng, 8);

		if (op < 2) { /* wake a task wherever it is now */
			struct task *t = &x->tasks[dls_test_rng_below(&c->rng, XENT)];
			struct dls_rq *trq = dls_posix_entity_lock(&t->se);

			CU_ASSERT_FATAL(trq != NULL);
			if (!t->se.runnable)
				dls_wakeup(trq, &t->se);
			trq->dom->ops->unlock(trq->dom->ctx, trq->cpu);
		} else {
			d->ops.lock(&d->plat, c->cpu);
			if (op == 2 && rq->curr)
				dls_dequeue(rq, rq->curr, DLS_DEQUEUE_SLEEP);
			else if (op == 3 && rq->curr)
				dls_dequeue(rq, rq->curr, DLS_DEQUEUE_DONE);
			else if (op == 4)
				dls_tick(rq);
			else
				dls_schedule(rq);
			d->ops.unlock(&d->plat, c->cpu);
		}
		if ((n & 31) == 0)
			sleep_ns(50 * US); /* let time pass: budgets run out */
	}
	return NULL;
}

/* Lock every runqueue (A's, then B's) and check both domains. */
static void x_check_locked(struct xsys *x)
{
	const char *err[2];
	bool fits[2];

	for (int k = 0; k < 2; k++)
		for (int c = 0; c < XCPU; c++)
			x->d[k].ops.lock(&x->d[k].plat, c);
	for (int k = 0; k < 2; k++) {
		err[k] = dls_domain_check(&x->d[k].dom);
		fits[k] = within_limit(&x->d[k].dom);
	}
	for (int k = 1; k >= 0; k--)
		for (int c = XCPU - 1; c >= 0; c--)
			x->d[k].ops.unlock(&x->d[k].plat, c);
	for (int k = 0; k < 2; k++) {
		DLS_ASSERT_VALID(err[k]);
		CU_ASSERT(fits[k]);
	}
}

/* Move @t to CPU @cpu of the other domain, A's runqueue locked first. */
static void x_move(struct xsys *x, struct task *t, int cpu)
{
	struct dls_rq *src, *dst;
	int from, rc;

	src = dls_posix_entity_lock(&t->se);
	CU_ASSERT_FATAL(src != NULL);
	from = x_dom_of(x, src);
	if (from == 0) { /* A -> B: A's lock is held, take B's */
		dst = &x->d[1].rqs[cpu];
		dst->dom->ops->lock(dst->dom->ctx, dst->cpu);
	} else { /* B -> A: let go, take A's, then follow the task in B */
		src->dom->ops->unlock(src->dom->ctx, src->cpu);
		dst = &x->d[0].rqs[cpu];
		dst->dom->ops->lock(dst->dom->ctx, dst->cpu);
		src = dls_posix_entity_lock(&t->se);
		CU_ASSERT_FATAL(src != NULL && x_dom_of(x, src) == 1); /* only we move it across */
	}
	rc = dls_entity_move_domain(&t->se, dst, NULL);
	CU_ASSERT(rc == 0 || rc == DLS_ERUNNING || rc == DLS_EBANDWIDTH);
	x->moved += rc == 0;
	x->refused += rc == DLS_EBANDWIDTH;
	x->busy += rc == DLS_ERUNNING;
	if (from == 0) {
		dst->dom->ops->unlock(dst->dom->ctx, dst->cpu);
		src->dom->ops->unlock(src->dom->ctx, src->cpu);
	} else {
		src->dom->ops->unlock(src->dom->ctx, src->cpu);
		dst->dom->ops->unlock(dst->dom->ctx, dst->cpu);
	}
}

static void run_two_domains(bool share, uint64_t seed)
{
	struct xsys *x = calloc(1, sizeof(*x));
	struct xcpu cpus[2 * XCPU];
	pthread_t th[2 * XCPU];
	struct dls_test_rng rng;
	struct timebox tb;
	uint64_t bw[2] = { 0, 0 }, want = 0;
	int seen[XENT] = { 0 };

	CU_ASSERT_FATAL(x != NULL);
	pthread_mutex_init(&x->m, NULL);
	for (int k = 0; k < 2; k++) {
		struct xdom *d = &x->d[k];

		d->smp_mem = posix_global_domain(&d->plat, NULL, d->locks, &d->ops, x_resched,
						 &d->dom, d->rqs, XCPU);
	}
	DLS_ASSERT_EQ_S64(dls_posix_share_timers(&x->d[1].plat, &x->d[1].plat), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_posix_share_timers(NULL, &x->d[0].plat), DLS_EINVAL);
	if (share) {
		DLS_ASSERT_EQ_S64(dls_posix_share_timers(&x->d[1].plat, &x->d[0].plat), 0);
		DLS_ASSERT_EQ_S64(dls_posix_share_timers(&x->d[0].plat, &x->d[1].plat),
				  DLS_EINVAL);
	}
	for (int i = 0; i < XENT; i++) {
		struct task *t = &x->tasks[i];
		/* 0.3 of a CPU each: 1.5 per domain at first, 1.9 fits */
		struct dls_params p = { .runtime = 300 * US, .deadline = 1 * MS };
		struct xdom *d = &x->d[i % 2];

		t->id = i;
		dls_entity_init(&t->se);
		dls_posix_timer_bind(&t->ptimer, &t->se.timer);
		CU_ASSERT_FATAL(dls_entity_attach(&d->rqs[(i / 2) % XCPU], &t->se, &p) == 0);
	}
	DLS_ASSERT_EQ_S64(dls_posix_start(&x->d[0].plat), 0);
	DLS_ASSERT_EQ_S64(dls_posix_start(&x->d[1].plat), 0); /* nothing when shared */
	CU_ASSERT_EQUAL(x->d[1].plat.timers.started, !share);
	if (!share) /* started: too late to share */
		DLS_ASSERT_EQ_S64(dls_posix_share_timers(&x->d[1].plat, &x->d[0].plat),
				  DLS_ESTATE);
	for (int c = 0; c < 2 * XCPU; c++) {
		cpus[c] = (struct xcpu){ .x = x, .dom = c / XCPU, .cpu = c % XCPU };
		dls_test_rng_seed(&cpus[c].rng, seed + (uint64_t)c);
		CU_ASSERT_FATAL(pthread_create(&th[c], NULL, x_cpu_main, &cpus[c]) == 0);
	}
	dls_test_rng_seed(&rng, seed ^ 0x40e);
	timebox_start(&tb, 400);
	for (unsigned long n = 0; timebox_open(&tb); n++) {
		x_move(x, &x->tasks[dls_test_rng_below(&rng, XENT)],
		       (int)dls_test_rng_below(&rng, XCPU));
		if ((n & 63) == 0) {
			x_check_locked(x);
			x->checks++;
		}
		if ((n & 7) == 0)
			sleep_ns(100 * US);
	}
	pthread_mutex_lock(&x->m);
	x->stop = true;
	pthread_mutex_unlock(&x->m);
	for (int c = 0; c < 2 * XCPU; c++)
		CU_ASSERT_FATAL(pthread_join(th[c], NULL) == 0);
	dls_posix_stop(&x->d[1].plat);
	dls_posix_stop(&x->d[0].plat);
	x_check_locked(x);
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < XCPU; c++)
			for (struct dls_entity *se = x->d[k].rqs[c].attached; se; se = se->attached_next) {
				seen[dls_container_of(se, struct task, se)->id]++;
				bw[k] += se->bw;
			}
	for (int i = 0; i < XENT; i++) {
		DLS_ASSERT_EQ_S64(seen[i], 1);
		want += x->tasks[i].se.bw;
	}
	DLS_ASSERT_EQ_U64(bw[0] + bw[1], want);
	DLS_ASSERT_EQ_U64(x->d[0].dom.smp->bw.total, bw[0]);
	DLS_ASSERT_EQ_U64(x->d[1].dom.smp->bw.total, bw[1]);
	printf("[domains, %s] %lu moved, %lu refused by admission, %lu running, "
	       "%lu checks, %llu + %llu expiries] ", share ? "shared service" : "two services",
	       x->moved, x->refused, x->busy, x->checks,
	       (unsigned long long)x->d[0].plat.timers.fired,
	       (unsigned long long)x->d[1].plat.timers.fired);
	CU_ASSERT(x->moved > 0 && x->refused > 0);
	for (int i = 0; i < XENT; i++)
		dls_task_dead(x->tasks[i].se.rq, &x->tasks[i].se);
	for (int k = 0; k < 2; k++) {
		dls_posix_destroy(&x->d[k].plat);
		free(x->d[k].smp_mem);
	}
	pthread_mutex_destroy(&x->m);
	free(x);
}

static void test_move_between_domains(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();
	run_two_domains(true, dls_test_seed("posix smp moves between domains", 0x5a5));
}

static void test_move_between_platforms(void)
{
	DLS_TEST_SKIP_WITHOUT_THREADS();
	run_two_domains(false, dls_test_seed("posix smp moves between platforms", 0x5a6));
}

static const struct dls_test_case cases[] = {
	{ "threaded global EDF, real locks and timers", test_smp_stress_mutex },
	{ "threaded global EDF with hotplug cycles", test_smp_stress_hotplug },
	{ "threaded global EDF with hotplug, spinlocks", test_smp_stress_spin_hotplug },
	{ "hotplug refusals and rollback", test_hotplug_refusals },
	{ "concurrent admission never passes the limit", test_admission_concurrent },
	{ "moves between two domains sharing a timer service", test_move_between_domains },
	{ "moves between two platforms, timers stay put", test_move_between_platforms },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct dls_test_suite suites[] = {
		{ "posix smp", cases },
		{ NULL, NULL },
	};

	return dls_test_main(argc, argv, suites);
}
