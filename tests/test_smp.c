/*
 * Global EDF: push, pull, placement, affinity, offline/online, domain
 * admission and capacity awareness, with exact outcomes. The random driver
 * checking the global EDF invariant after every event is
 * tests/test_smp_global.c.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/smp.h>

#include "dls_test.h"
#include "fake_platform.h"

#define MS UINT64_C(1000000)
#define NCPU 4

struct env {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[NCPU];
	void *smp_mem;
};

static void env_init_cfg(struct env *e, int ncpu, const uint32_t *caps,
			 const struct dls_domain_config *cfg)
{
	size_t sz = dls_smp_size(ncpu);

	memset(e, 0, sizeof(*e));
	fake_init(&e->fp, 1000 * MS);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&e->dom, &fake_ops_notrace, &e->fp, cfg,
					      e->rq, ncpu), 0);
	for (int i = 0; caps && i < ncpu; i++)
		dls_rq_set_capacity(&e->rq[i], caps[i]);
	e->smp_mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	CU_ASSERT_EQUAL_FATAL(dls_smp_init(&e->dom, e->smp_mem, sz), 0);
}

static void env_init(struct env *e, int ncpu, const uint32_t *caps)
{
	env_init_cfg(e, ncpu, caps, NULL);
}

static void env_free(struct env *e)
{
	free(e->smp_mem);
}

static void attach(struct env *e, int cpu, struct dls_entity *se, uint64_t q, uint64_t d)
{
	struct dls_params p = { .runtime = q, .deadline = d };

	dls_entity_init(se);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e->rq[cpu], se, &p), 0);
}

#define CHECK(e) DLS_ASSERT_VALID(dls_domain_check(&(e)->dom))

static void test_push_to_idle(void)
{
	struct env e;
	struct dls_entity a, b;

	env_init(&e, 2, NULL);
	attach(&e, 0, &a, 1 * MS, 10 * MS);
	attach(&e, 0, &b, 1 * MS, 20 * MS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	CHECK(&e);
	/* CPU 0 picks a, then pushes b to the idle CPU 1. */
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &a);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[1]);
	DLS_ASSERT_EQ_U64(b.stats.migrations, 1);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[1]), &b);
	CHECK(&e);
	DLS_ASSERT_VALID(dls_domain_check_global_edf(&e.dom));
	env_free(&e);
}

static void test_pull_when_idle(void)
{
	struct env e;
	struct dls_entity a, b, c;

	env_init(&e, 2, NULL);
	attach(&e, 0, &a, 1 * MS, 10 * MS);
	attach(&e, 0, &b, 1 * MS, 20 * MS);
	attach(&e, 1, &c, 1 * MS, 15 * MS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[1], &c), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[1]), &c);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	/* b (20) cannot go anywhere: CPU 1 runs 15, CPU 0 runs 10. */
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &a);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	CU_ASSERT_TRUE(e.rq[0].overloaded);
	CHECK(&e);
	/* c blocks: CPU 1 pulls b. */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq[1], &c, DLS_DEQUEUE_SLEEP), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[1]), &b);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[1]);
	CU_ASSERT_FALSE(e.rq[0].overloaded);
	CHECK(&e);
	DLS_ASSERT_VALID(dls_domain_check_global_edf(&e.dom));
	env_free(&e);
}

static void test_affinity(void)
{
	struct env e;
	struct dls_entity a, b;
	unsigned char m0mem[64], m1mem[64];
	struct dls_cpumask *only0 = (struct dls_cpumask *)(void *)m0mem;
	struct dls_cpumask *only1 = (struct dls_cpumask *)(void *)m1mem;
	struct dls_cpumask *none = only1;

	env_init(&e, 2, NULL);
	dls_cpumask_init(only0, sizeof(m0mem), 2);
	dls_cpumask_set(only0, 0);
	attach(&e, 0, &a, 1 * MS, 10 * MS);
	attach(&e, 0, &b, 1 * MS, 20 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, only0), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	dls_schedule(&e.rq[0]);
	/* Pinned: not pushable, so CPU 1 stays idle. */
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	CU_ASSERT_PTR_NULL(dls_rb_first_cached(&e.rq[0].pushable));
	CU_ASSERT_EQUAL(e.rq[1].nr_running, 0);
	CHECK(&e);
	/* Re-pin to CPU 1: it moves there. */
	dls_cpumask_init(only1, sizeof(m1mem), 2);
	dls_cpumask_set(only1, 1);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, only1), 0);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[1]);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[1]), &b);
	CHECK(&e);
	/* An empty mask is refused and changes nothing. */
	dls_cpumask_init(none, sizeof(m1mem), 2);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&a, none), DLS_ENOCPU);
	CU_ASSERT_EQUAL(a.nr_cpus_allowed, 2);
	env_free(&e);
}

/* What dls_cpu_offline() reported, in order. */
struct stranded {
	int count;
	struct dls_entity *se[8];
};

static void on_stranded(void *arg, struct dls_entity *se)
{
	struct stranded *st = arg;

	if (st->count < 8)
		st->se[st->count] = se;
	st->count++;
}

static void test_offline_online(void)
{
	struct env e;
	struct dls_entity a, b, c, pinned;
	unsigned char mmem[64];
	struct dls_cpumask *only2 = (struct dls_cpumask *)(void *)mmem;
	struct stranded st = { 0 };

	env_init(&e, 3, NULL);
	attach(&e, 2, &a, 1 * MS, 10 * MS);
	attach(&e, 2, &b, 1 * MS, 20 * MS);
	attach(&e, 2, &c, 1 * MS, 30 * MS);
	attach(&e, 2, &pinned, 1 * MS, 40 * MS);
	dls_cpumask_init(only2, sizeof(mmem), 3);
	dls_cpumask_set(only2, 2);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&pinned, only2), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[2], &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[2], &c), 0); /* c stays asleep-to-be */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq[2], &c, DLS_DEQUEUE_SLEEP), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[2]), &a);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 2, false, on_stranded, &st), 0);
	CHECK(&e);
	/* Everything but the pinned one left CPU 2, running or not. */
	CU_ASSERT_PTR_NOT_EQUAL(a.rq, &e.rq[2]);
	CU_ASSERT_PTR_NOT_EQUAL(b.rq, &e.rq[2]);
	CU_ASSERT_PTR_NOT_EQUAL(c.rq, &e.rq[2]);
	CU_ASSERT_PTR_EQUAL(pinned.rq, &e.rq[2]);
	CU_ASSERT_EQUAL(st.count, 1);
	CU_ASSERT_PTR_EQUAL(st.se[0], &pinned);
	CU_ASSERT_PTR_NULL(e.rq[2].curr);
	CU_ASSERT_TRUE(a.queued);
	/* The others keep scheduling. */
	CU_ASSERT_PTR_EQUAL(dls_schedule(a.rq), &a);
	DLS_ASSERT_EQ_U64(e.rq[0].nr_attached + e.rq[1].nr_attached, 3);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 2, false, NULL, NULL), DLS_ESTATE);
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 2), 0);
	CHECK(&e);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[2], &pinned), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[2]), &pinned);
	CHECK(&e);
	env_free(&e);
}

static void test_domain_admission(void)
{
	struct env e;
	struct dls_entity x[4];

	env_init(&e, 2, NULL);
	/* 0.9 * 2 = 1.8 <= 1.9: all four on CPU 0's runqueue are admitted. */
	for (int i = 0; i < 4; i++)
		attach(&e, 0, &x[i], 45 * MS / 10, 10 * MS);
	/* Taking CPU 1 away would leave 0.95 for 1.8: refused unless forced. */
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, false, NULL, NULL), DLS_ECAPACITY);
	CU_ASSERT_TRUE(e.rq[1].online);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, true, NULL, NULL), 0);
	CHECK(&e);
	/* The domain's bandwidth object holds the sums; dls_domain_check()
	 * derives them again from the runqueues and names a difference. */
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, 4 * (45 * DLS_BW_UNIT / 100));
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, DLS_CAPACITY_SCALE);
	e.dom.smp->bw.total++;
	CU_ASSERT_STRING_EQUAL(dls_domain_check(&e.dom),
			       "domain bandwidth differs from the runqueues' sum");
	e.dom.smp->bw.total--;
	e.dom.smp->bw.capacity++;
	CU_ASSERT_STRING_EQUAL(dls_domain_check(&e.dom),
			       "online capacity differs from the online CPUs' sum");
	e.dom.smp->bw.capacity--;
	/* GRUB's count of reclaiming entities is the domain's object's in a
	 * global domain; a runqueue's own keeps none. */
	e.dom.smp->bw.nr_reclaiming++;
	CU_ASSERT_STRING_EQUAL(dls_domain_check(&e.dom),
			       "nr_reclaiming differs from the attached reclaiming entities");
	e.dom.smp->bw.nr_reclaiming--;
	e.rq[0].bw.nr_reclaiming++;
	CU_ASSERT_STRING_EQUAL(dls_domain_check(&e.dom),
			       "bw.nr_reclaiming differs from the attached reclaiming entities");
	e.rq[0].bw.nr_reclaiming--;
	e.dom.smp->bw.running = 1;
	CU_ASSERT_STRING_EQUAL(dls_domain_check(&e.dom),
			       "a global domain's bandwidth object is not shared, or keeps a running sum");
	e.dom.smp->bw.running = 0;
	e.dom.smp->bw.bw_ratio++;
	CU_ASSERT_STRING_EQUAL(dls_domain_check(&e.dom),
			       "bandwidth object: bw_ratio differs from 1/max_bw");
	e.dom.smp->bw.bw_ratio--;
	CHECK(&e);
	/* An offline CPU's capacity changes outside the domain's sum, and its
	 * runqueue's object follows it. */
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[1], 512), 0);
	DLS_ASSERT_EQ_U64(e.rq[1].bw.capacity, 512);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, DLS_CAPACITY_SCALE);
	CHECK(&e);
	env_free(&e);
}

/* Fake heap and bandwidth locks that record the documented rules: each
 * balanced, never nested, never both held. */
struct lockrec;

struct lockslot {
	struct lockrec *rec;
	bool held;
	unsigned int calls;
};

struct lockrec {
	struct lockslot bw, heap;
	bool broken;
};

static void rec_lock(void *ctx)
{
	struct lockslot *l = ctx;

	l->rec->broken |= l->rec->bw.held || l->rec->heap.held;
	l->held = true;
	l->calls++;
}

static void rec_unlock(void *ctx)
{
	struct lockslot *l = ctx;

	l->rec->broken |= !l->held;
	l->held = false;
}

/* Bandwidth of q ms every 10 ms. */
static uint64_t bw10(uint64_t q)
{
	return dls_params_bw(&(struct dls_params){ .runtime = q * MS, .deadline = 10 * MS });
}

static void set_params(struct env *e, struct dls_entity *se, uint64_t q, uint64_t d, int want)
{
	struct dls_params p = { .runtime = q, .deadline = d };

	DLS_ASSERT_EQ_S64(dls_entity_set_params(se->rq, se, &p), want);
	CHECK(e);
}

/*
 * The domain keeps its admitted sum and online capacity under the
 * bandwidth lock: every admission path takes it once, giving bandwidth back
 * or adding capacity is never refused (also overcommitted after a forced
 * offline), and the sum returns to zero.
 */
static void test_admission_bookkeeping(void)
{
	static const struct dls_lock_ops ops = { rec_lock, rec_unlock };
	static const struct dls_lock_ops half = { rec_lock, NULL };
	struct lockrec rec = { .bw.rec = &rec, .heap.rec = &rec };
	struct env e;
	struct dls_entity x[4], extra;
	struct dls_domain pd;
	struct dls_rq prq[1];
	unsigned int calls;

	env_init(&e, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&pd, &fake_ops_notrace, &e.fp, NULL, prq, 1), 0);
	DLS_ASSERT_EQ_S64(dls_smp_set_bw_lock(&pd, &ops, &rec.bw), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_smp_set_bw_lock(&e.dom, &half, &rec.bw), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_smp_set_bw_lock(NULL, &ops, &rec.bw), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_smp_set_bw_lock(&e.dom, &ops, &rec.bw), 0);
	DLS_ASSERT_EQ_S64(dls_smp_set_heap_lock(&e.dom, &ops, &rec.heap), 0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, 2 * DLS_CAPACITY_SCALE);

	/* 4 x 0.4 = 1.6 of 1.9, spread over both runqueues. */
	for (int i = 0; i < 4; i++) {
		calls = rec.bw.calls;
		attach(&e, i % 2, &x[i], 4 * MS, 10 * MS);
		DLS_ASSERT_EQ_U64(rec.bw.calls, calls + 1);
		CHECK(&e);
	}
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, 4 * bw10(4));
	dls_entity_init(&extra);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq[1], &extra,
					    &(struct dls_params){ .runtime = 4 * MS,
								  .deadline = 10 * MS }),
			  DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, 4 * bw10(4));
	set_params(&e, &x[0], 6 * MS, 10 * MS, 0);  /* 1.8 */
	set_params(&e, &x[1], 6 * MS, 10 * MS, DLS_EBANDWIDTH); /* 2.0 */
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, bw10(6) + 3 * bw10(4));
	/* Lowering CPU 0 to 768 leaves 0.95 x 1.75 = 1.66 < 1.8: refused. */
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[0], 768), DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(e.rq[0].capacity, DLS_CAPACITY_SCALE);
	set_params(&e, &x[0], 2 * MS, 10 * MS, 0);  /* 1.4 */
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[0], 768), 0); /* 1.4 <= 1.66 */
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, 768 + DLS_CAPACITY_SCALE);
	CHECK(&e);

	/* Forced offline of CPU 1: 1.4 admitted on 0.95 x 0.75 = 0.71. */
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, false, NULL, NULL), DLS_ECAPACITY);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, true, NULL, NULL), 0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, 768);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 0, true, NULL, NULL), DLS_ESTATE);
	CHECK(&e);
	/* Overcommitted: nothing more comes in, but giving back works ... */
	set_params(&e, &x[1], 5 * MS, 10 * MS, DLS_EBANDWIDTH);
	set_params(&e, &x[1], 3 * MS, 10 * MS, 0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, bw10(2) + bw10(3) + 2 * bw10(4));
	/* A borrowed reservation joins without being admitted or counted. */
	dls_entity_init(&extra);
	DLS_ASSERT_EQ_S64(dls_entity_attach_borrowed(&e.rq[0], &extra,
						     &(struct dls_params){ .runtime = 4 * MS,
									   .deadline = 10 * MS }),
			  0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, bw10(2) + bw10(3) + 2 * bw10(4));
	CHECK(&e);
	DLS_ASSERT_EQ_S64(dls_task_dead(&e.rq[0], &extra), 0);
	CHECK(&e);
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[0], 512), DLS_EBANDWIDTH);
	/* ... and so does adding capacity, online or not. */
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[0], DLS_CAPACITY_SCALE), 0);
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[1], 512), 0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, DLS_CAPACITY_SCALE);
	CHECK(&e);
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 1), 0);
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.capacity, DLS_CAPACITY_SCALE + 512);
	CHECK(&e);
	for (int i = 0; i < 4; i++) {
		calls = rec.bw.calls;
		DLS_ASSERT_EQ_S64(dls_task_dead(x[i].rq, &x[i]), 0);
		DLS_ASSERT_EQ_U64(rec.bw.calls, calls + 1);
		CHECK(&e);
	}
	DLS_ASSERT_EQ_U64(e.dom.smp->bw.total, 0);
	CU_ASSERT_TRUE(rec.heap.calls > 0);
	CU_ASSERT_FALSE(rec.broken || rec.bw.held || rec.heap.held);
	env_free(&e);
}

static void test_capacity_placement(void)
{
	static const uint32_t caps[2] = { 512, 1024 };
	struct env e;
	struct dls_entity big, small;

	env_init(&e, 2, caps);
	/* 6 ms in 10 ms needs 12 ms on a half-speed CPU: fits only CPU 1;
	 * 1 ms fits both, and the lowest fitting free CPU wins. */
	attach(&e, 0, &big, 6 * MS, 10 * MS);
	attach(&e, 0, &small, 1 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 0), 1);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &small, 0), 0);
	/* Charged scaled on the small CPU: 2 ms of wall time cost 1 ms. */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &small), 0);
	dls_schedule(&e.rq[0]);
	e.fp.now += 1 * MS;
	dls_tick(&e.rq[0]);
	DLS_ASSERT_EQ_S64(small.runtime, 500000);
	env_free(&e);

	/* Capacities changed after dls_smp_init() turn placement by fit on,
	 * and off again when every CPU is back at full speed. */
	env_init(&e, 2, NULL);
	attach(&e, 0, &big, 6 * MS, 10 * MS);
	CU_ASSERT_FALSE(e.dom.smp->asymmetric);
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[0], 512), 0);
	CU_ASSERT_TRUE(e.dom.smp->asymmetric);
	CHECK(&e);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 0), 1);
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&e.rq[0], DLS_CAPACITY_SCALE), 0);
	CU_ASSERT_FALSE(e.dom.smp->asymmetric);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 0), 0);
	CHECK(&e);
	env_free(&e);
}

/* ---- exact outcomes of push, pull, placement, affinity, hotplug ---------- */

/* A mask of @ncpu CPUs holding the CPUs of @bits, in caller storage. */
static struct dls_cpumask *mask_bits(uint64_t *mem, size_t bytes, int ncpu, unsigned int bits)
{
	struct dls_cpumask *m = (struct dls_cpumask *)(void *)mem;

	CU_ASSERT_EQUAL_FATAL(dls_cpumask_init(m, bytes, ncpu), 0);
	for (int c = 0; c < ncpu; c++)
		if (bits >> c & 1u)
			dls_cpumask_set(m, c);
	return m;
}

/* Let the CPUs the library asked reschedule, until none is asked. */
static void settle(struct env *e)
{
	for (int iter = 0; iter < 100; iter++) {
		bool any = false;

		for (int c = 0; c < e->dom.nr_cpus; c++) {
			if (!fake_take_resched(&e->fp, c))
				continue;
			any = true;
			if (e->rq[c].online)
				dls_schedule(&e->rq[c]);
		}
		if (!any) {
			CHECK(e);
			return;
		}
	}
	CU_FAIL_FATAL("rescheduling does not settle");
}

/* Attach to @cpu, wake there and let everything settle. */
static void run(struct env *e, int cpu, struct dls_entity *se, uint64_t q, uint64_t d)
{
	attach(e, cpu, se, q, d);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[cpu], se), 0);
	settle(e);
}

#define EDF(e) DLS_ASSERT_VALID(dls_domain_check_global_edf(&(e)->dom))

static void test_push_to_latest(void)
{
	struct env e;
	struct dls_entity a, b, c1, c2, late;

	env_init(&e, 3, NULL);
	run(&e, 1, &c1, 1 * MS, 30 * MS);
	run(&e, 2, &c2, 1 * MS, 20 * MS);
	run(&e, 0, &a, 1 * MS, 10 * MS);
	attach(&e, 0, &b, 1 * MS, 15 * MS);
	attach(&e, 0, &late, 1 * MS, 40 * MS);
	/* b (15 ms) would wait behind a: the wake-up pushes it to the CPU
	 * running the latest deadline, CPU 1 (30 ms), not CPU 2 (20 ms). */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[1]);
	DLS_ASSERT_EQ_U64(b.stats.migrations, 1);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &b);
	CU_ASSERT_TRUE(e.rq[1].overloaded); /* c1 waits there */
	/* Nothing runs later than 40 ms: late stays, and pushing moves nothing. */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &late), 0);
	CU_ASSERT_PTR_EQUAL(late.rq, &e.rq[0]);
	CU_ASSERT_FALSE(dls_push(&e.rq[0]));
	CU_ASSERT_FALSE(dls_push(&e.rq[1]));
	CU_ASSERT_TRUE(e.rq[0].overloaded);
	DLS_ASSERT_EQ_U64(e.dom.smp->overload_count, 2);
	CHECK(&e);
	EDF(&e);
	env_free(&e);
}

static void test_push_fills_free_cpus(void)
{
	struct env e;
	struct dls_entity x[4];

	env_init(&e, 4, NULL);
	for (int i = 0; i < 4; i++) {
		attach(&e, 0, &x[i], 1 * MS, (10 + 2 * (uint64_t)i) * MS);
		DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &x[i]), 0);
	}
	/* Nothing ran yet: all four queue on CPU 0. Its schedule picks the
	 * earliest and pushes the others, earliest first, one per free CPU,
	 * lowest id first. */
	DLS_ASSERT_EQ_U64(e.rq[0].nr_running, 4);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &x[0]);
	for (int i = 1; i < 4; i++) {
		CU_ASSERT_PTR_EQUAL(x[i].rq, &e.rq[i]);
		DLS_ASSERT_EQ_U64(x[i].stats.migrations, 1);
	}
	CU_ASSERT_FALSE(e.rq[0].overloaded);
	DLS_ASSERT_EQ_U64(e.dom.smp->overload_count, 0);
	settle(&e);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_PTR_EQUAL(e.rq[i].curr, &x[i]);
	EDF(&e);
	env_free(&e);
}

static void test_push_own_cpu_first(void)
{
	struct env e;
	struct dls_entity a, b, x;

	env_init(&e, 2, NULL);
	run(&e, 1, &x, 1 * MS, 5 * MS);
	run(&e, 0, &a, 1 * MS, 20 * MS);
	attach(&e, 0, &b, 1 * MS, 10 * MS);
	/* b beats a, which runs on b's CPU: a reschedule there, no push. */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	CU_ASSERT_TRUE(fake_take_resched(&e.fp, 0));
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	/* Before CPU 0 reschedules, a push would move b away: it asks CPU 0
	 * to reschedule again instead. */
	CU_ASSERT_FALSE(dls_push(&e.rq[0]));
	CU_ASSERT_TRUE(fake_take_resched(&e.fp, 0));
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	DLS_ASSERT_EQ_U64(b.stats.migrations, 0);
	dls_schedule(&e.rq[0]);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &b);
	CU_ASSERT_PTR_EQUAL(a.rq, &e.rq[0]); /* x (5 ms) runs the other CPU */
	EDF(&e);
	env_free(&e);
}

static void test_pull_exact(void)
{
	struct env e;
	struct dls_entity a, b, c, d, x;

	env_init(&e, 3, NULL);
	run(&e, 2, &x, 1 * MS, 12 * MS);
	run(&e, 0, &a, 1 * MS, 10 * MS);
	run(&e, 1, &c, 1 * MS, 11 * MS);
	/* Every CPU runs an earlier deadline than b (25) and d (18): they wait. */
	run(&e, 0, &b, 1 * MS, 25 * MS);
	run(&e, 1, &d, 1 * MS, 18 * MS);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	CU_ASSERT_PTR_EQUAL(d.rq, &e.rq[1]);
	CU_ASSERT_TRUE(e.rq[0].overloaded && e.rq[1].overloaded);
	/* x blocks: CPU 2 pulls from each overloaded CPU what beats what it has
	 * so far: b (25) from CPU 0 into the empty queue, then d (18) from
	 * CPU 1, which beats b. It runs d; b waits there (no CPU runs later). */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq[2], &x, DLS_DEQUEUE_SLEEP), 0);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[2].curr, &d);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[2]);
	CU_ASSERT_FALSE(e.rq[0].overloaded || e.rq[1].overloaded);
	CU_ASSERT_TRUE(e.rq[2].overloaded);
	DLS_ASSERT_EQ_U64(e.rq[2].nr_running, 2);
	/* Nothing beats CPU 2's d among the others' waiting entities. */
	CU_ASSERT_FALSE(dls_pull(&e.rq[2]));
	EDF(&e);
	env_free(&e);
}

static void test_pull_respects_affinity(void)
{
	struct env e;
	struct dls_entity a, p, q, x, y;
	uint64_t m02[8];

	env_init(&e, 3, NULL);
	run(&e, 2, &y, 1 * MS, 5 * MS);
	run(&e, 0, &a, 1 * MS, 10 * MS);
	run(&e, 1, &x, 1 * MS, 12 * MS);
	attach(&e, 0, &p, 1 * MS, 15 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&p, mask_bits(m02, sizeof(m02), 3, 0x5)), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &p), 0);
	run(&e, 0, &q, 1 * MS, 20 * MS);
	CU_ASSERT_PTR_EQUAL(p.rq, &e.rq[0]);
	CU_ASSERT_PTR_EQUAL(q.rq, &e.rq[0]);
	/* x blocks: CPU 1 pulls the earliest waiting entity it may run, q,
	 * and leaves p (earlier, but not allowed on CPU 1). */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq[1], &x, DLS_DEQUEUE_SLEEP), 0);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &q);
	CU_ASSERT_PTR_EQUAL(p.rq, &e.rq[0]);
	EDF(&e);
	env_free(&e);
}

/* Give @se a deadline @d after now by running it briefly, then block it. */
static void sleep_with_deadline(struct env *e, int cpu, struct dls_entity *se, uint64_t d)
{
	run(e, cpu, se, 1 * MS, d);
	DLS_ASSERT_EQ_S64(dls_dequeue(se->rq, se, DLS_DEQUEUE_SLEEP), 0);
	settle(e);
}

static void test_select_cpu(void)
{
	struct env e;
	struct dls_entity s, a, b, c, d;
	uint64_t m1[8], m3[8];
	struct stranded st = { 0 };

	env_init(&e, 4, NULL);
	sleep_with_deadline(&e, 0, &s, 20 * MS);
	/* All idle: the last CPU, whichever it is. */
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 3), 3);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 0), 0);
	/* Its last CPU runs an earlier deadline: the lowest idle CPU. */
	run(&e, 0, &a, 1 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 0), 1);
	/* All busy: the CPU running the latest deadline later than its own. */
	run(&e, 1, &b, 1 * MS, 30 * MS);
	run(&e, 2, &c, 1 * MS, 40 * MS);
	run(&e, 3, &d, 1 * MS, 35 * MS);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 0), 2);
	/* It would preempt what its last CPU runs: it stays there... */
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 1), 1);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 3), 3);
	/* ...unless that entity is pinned: then the latest CPU elsewhere. */
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, mask_bits(m1, sizeof(m1), 4, 0x2)), 0);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 1), 2);
	/* Its last CPU is the heap's best (the latest, running a pinned
	 * entity): found by the heap, kept. */
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&c, mask_bits(m3, sizeof(m3), 4, 0x4)), 0);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 2), 2);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&c, NULL), 0);
	/* An invalid or offline last CPU: the heap's choice. */
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, -1), 2);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 3, true, NULL, NULL), 0);
	settle(&e);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 3), 2);
	/* Allowed only on the offline CPU: stranded, and nowhere to wake. */
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 3), 0);
	settle(&e);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&s, mask_bits(m3, sizeof(m3), 4, 0x8)), 0);
	CU_ASSERT_PTR_EQUAL(s.rq, &e.rq[3]);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 3, true, on_stranded, &st), 0);
	DLS_ASSERT_EQ_S64(st.count, 1);
	CU_ASSERT_PTR_EQUAL(st.se[0], &s);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &s, 3), DLS_ENOCPU);
	settle(&e);
	EDF(&e);
	env_free(&e);
}

static void test_capacity_fallback(void)
{
	static const uint32_t caps[3] = { 512, 768, 768 };
	struct env e;
	struct dls_entity big, x1, x2;

	env_init(&e, 3, caps);
	/* 9 ms in 10 ms needs a capacity above 921: it fits no CPU. Among the
	 * free ones the biggest wins, its last CPU winning ties. */
	attach(&e, 0, &big, 9 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 2), 2);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 1), 1);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 0), 1);
	/* The big CPUs busy with earlier deadlines: running slowly beats
	 * waiting, so the small free CPU. */
	run(&e, 1, &x1, 1 * MS, 5 * MS);
	run(&e, 2, &x2, 1 * MS, 5 * MS);
	DLS_ASSERT_EQ_S64(dls_select_cpu(&e.dom, &big, 1), 0);
	env_free(&e);
}

static void test_check_preempt_equal(void)
{
	struct env e;
	struct dls_entity a, b, c, m;
	uint64_t m0[8];

	/* b, pinned to CPU 0, wakes with the deadline of a, which runs there
	 * and could run on CPU 1 (running the later c): a moves, b runs. */
	env_init(&e, 2, NULL);
	run(&e, 1, &c, 1 * MS, 20 * MS);
	run(&e, 0, &a, 1 * MS, 10 * MS);
	attach(&e, 0, &b, 1 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, mask_bits(m0, sizeof(m0), 2, 0x1)), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	DLS_ASSERT_EQ_U64(b.deadline, a.deadline);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &b);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &a);
	CU_ASSERT_PTR_EQUAL(c.rq, &e.rq[1]);
	DLS_ASSERT_EQ_U64(a.stats.migrations, 1);
	EDF(&e);
	env_free(&e);

	/* Same, but the waking entity may move itself: it goes, a stays. */
	env_init(&e, 2, NULL);
	run(&e, 1, &c, 1 * MS, 20 * MS);
	run(&e, 0, &a, 1 * MS, 10 * MS);
	run(&e, 0, &m, 1 * MS, 10 * MS);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &a);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &m);
	DLS_ASSERT_EQ_U64(a.stats.migrations, 0);
	EDF(&e);
	env_free(&e);

	/* Both pinned to CPU 0: nothing can move; FIFO among equals. */
	env_init(&e, 2, NULL);
	mask_bits(m0, sizeof(m0), 2, 0x1);
	run(&e, 1, &c, 1 * MS, 20 * MS);
	attach(&e, 0, &a, 1 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&a, (struct dls_cpumask *)(void *)m0), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &a), 0);
	settle(&e);
	attach(&e, 0, &b, 1 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, (struct dls_cpumask *)(void *)m0), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &b), 0);
	CU_ASSERT_FALSE(fake_take_resched(&e.fp, 0));
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &a);
	env_free(&e);
}

static void test_affinity_accounting(void)
{
	struct env e;
	struct dls_entity a, b, x;
	uint64_t m0[8], m1[8];
	struct dls_cpumask *only0 = mask_bits(m0, sizeof(m0), 2, 0x1);
	struct dls_cpumask *only1 = mask_bits(m1, sizeof(m1), 2, 0x2);

	env_init(&e, 2, NULL);
	run(&e, 1, &x, 1 * MS, 5 * MS);
	run(&e, 0, &a, 4 * MS, 10 * MS);
	run(&e, 0, &b, 4 * MS, 20 * MS);
	/* a runs, b waits: both may migrate, b is pushable, CPU 0 overloaded. */
	DLS_ASSERT_EQ_U64(e.rq[0].nr_migratory, 2);
	CU_ASSERT_PTR_EQUAL(dls_rb_first_cached(&e.rq[0].pushable), &b.pushable_node);
	CU_ASSERT_TRUE(e.rq[0].overloaded && dls_cpumask_test(e.dom.smp->overload, 0));
	/* Pinning b: not migratory, not pushable; a still is, so still overloaded. */
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, only0), 0);
	DLS_ASSERT_EQ_U64(e.rq[0].nr_migratory, 1);
	CU_ASSERT_PTR_NULL(dls_rb_first_cached(&e.rq[0].pushable));
	CU_ASSERT_TRUE(e.rq[0].overloaded);
	/* Pinning the running a too: no longer overloaded, mask and count follow. */
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&a, only0), 0);
	DLS_ASSERT_EQ_U64(e.rq[0].nr_migratory, 0);
	CU_ASSERT_FALSE(e.rq[0].overloaded || dls_cpumask_test(e.dom.smp->overload, 0));
	DLS_ASSERT_EQ_U64(e.dom.smp->overload_count, 0);
	CHECK(&e);
	/* x blocks: CPU 1 idles, there being nothing it may take. */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e.rq[1], &x, DLS_DEQUEUE_SLEEP), 0);
	settle(&e);
	CU_ASSERT_PTR_NULL(e.rq[1].curr);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	/* b may use both CPUs again: pushed to the idle one at once. */
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&b, NULL), 0);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[1]);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &b);
	/* a, running, is moved to CPU 1 only: charged its 1 ms first, and
	 * CPU 0 asked to reschedule; there it preempts b, which goes to the
	 * now idle CPU 0. */
	e.fp.now += 1 * MS;
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&a, only1), 0);
	CU_ASSERT_PTR_EQUAL(a.rq, &e.rq[1]);
	DLS_ASSERT_EQ_S64(a.runtime, 3 * MS);
	CU_ASSERT_PTR_NULL(e.rq[0].curr);
	CU_ASSERT_TRUE(fake_take_resched(&e.fp, 0));
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &a);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &b);
	EDF(&e);
	env_free(&e);
}

static void test_offline_refused_unchanged(void)
{
	struct env e;
	struct dls_entity x[6];
	struct dls_entity xs[6];
	struct dls_rq rqs[3];
	size_t sz = dls_smp_size(3);
	void *smp_copy = malloc(sz);

	CU_ASSERT_PTR_NOT_NULL_FATAL(smp_copy);
	env_init(&e, 3, NULL);
	/* 6 x 0.45 = 2.7 of 2.85: any two CPUs (1.9) are too few. */
	for (int i = 0; i < 6; i++)
		run(&e, i % 3, &x[i], 45 * MS / 10, 10 * MS);
	memcpy(rqs, e.rq, sizeof(rqs));
	memcpy(xs, x, sizeof(xs));
	memcpy(smp_copy, e.smp_mem, sz);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, false, NULL, NULL), DLS_ECAPACITY);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 3, false, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, -1, true, NULL, NULL), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 1), DLS_ESTATE);
	/* Refused: every byte as it was. */
	CU_ASSERT_EQUAL(memcmp(rqs, e.rq, sizeof(rqs)), 0);
	CU_ASSERT_EQUAL(memcmp(xs, x, sizeof(xs)), 0);
	CU_ASSERT_EQUAL(memcmp(smp_copy, e.smp_mem, sz), 0);
	/* Forced, it goes; the last online CPU never does. */
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, true, NULL, NULL), 0);
	settle(&e);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 2, true, NULL, NULL), 0);
	settle(&e);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 0, true, NULL, NULL), DLS_ESTATE);
	DLS_ASSERT_EQ_U64(e.rq[0].nr_attached, 6);
	CU_ASSERT_PTR_NOT_NULL(e.rq[0].curr);
	EDF(&e);
	free(smp_copy);
	env_free(&e);
}

static void test_stranded_return(void)
{
	struct env e;
	struct dls_entity p, q;
	uint64_t m12[8], m2[8];
	struct stranded st = { 0 };

	env_init(&e, 3, NULL);
	attach(&e, 1, &p, 1 * MS, 10 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&p, mask_bits(m12, sizeof(m12), 3, 0x6)), 0);
	attach(&e, 1, &q, 1 * MS, 20 * MS);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&q, mask_bits(m2, sizeof(m2), 3, 0x4)), 0);
	CU_ASSERT_PTR_EQUAL(q.rq, &e.rq[2]);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[1], &p), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[2], &q), 0);
	settle(&e);
	/* CPU 1 goes: p moves to CPU 2, its other CPU, and preempts q. */
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 1, false, on_stranded, &st), 0);
	DLS_ASSERT_EQ_S64(st.count, 0);
	CU_ASSERT_PTR_EQUAL(p.rq, &e.rq[2]);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[2].curr, &p);
	/* CPU 2 goes too: both stranded there, reported in list order, queued
	 * but running nowhere; CPU 0 stays idle. */
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 2, false, on_stranded, &st), 0);
	DLS_ASSERT_EQ_S64(st.count, 2);
	CU_ASSERT_TRUE((st.se[0] == &p && st.se[1] == &q) || (st.se[0] == &q && st.se[1] == &p));
	CU_ASSERT_TRUE(p.queued && q.queued && p.rq == &e.rq[2] && q.rq == &e.rq[2]);
	settle(&e);
	CU_ASSERT_PTR_NULL(e.rq[2].curr);
	CU_ASSERT_PTR_NULL(e.rq[0].curr);
	/* CPU 1 returns: p, stranded on CPU 2 but allowed on 1, moves to it. */
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 1), 0);
	CU_ASSERT_PTR_EQUAL(p.rq, &e.rq[1]);
	CU_ASSERT_PTR_EQUAL(q.rq, &e.rq[2]);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &p);
	/* q's affinity widens: it leaves the offline CPU for an online one. */
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&q, NULL), 0);
	CU_ASSERT_PTR_EQUAL(q.rq, &e.rq[0]);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &q);
	/* CPU 2 returns with nothing stranded on it. */
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 2), 0);
	settle(&e);
	DLS_ASSERT_EQ_U64(e.rq[2].nr_attached, 0);
	EDF(&e);
	env_free(&e);
}

static void test_replenish_pushes(void)
{
	struct env e;
	struct dls_entity t, a;
	struct dls_params p = { .runtime = 1 * MS, .deadline = 5 * MS, .period = 100 * MS };
	struct dls_domain_config cfg;

	/* The 2012 replenishment instant (the deadline) keeps the case short. */
	dls_domain_config_default(&cfg);
	cfg.replenish_rule = DLS_REPLENISH_AT_DEADLINE;
	env_init_cfg(&e, 2, NULL, &cfg);
	/* t runs on CPU 0 and spends its budget: throttled until 5 ms. */
	dls_entity_init(&t);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&e.rq[0], &t, &p), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e.rq[0], &t), 0);
	settle(&e);
	e.fp.now += 1 * MS;
	dls_tick(&e.rq[0]);
	settle(&e);
	CU_ASSERT_TRUE(t.throttled && t.runnable);
	/* a takes CPU 0 (deadline 51 ms); CPU 1 idles. */
	run(&e, 0, &a, 10 * MS, 50 * MS);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &a);
	/* At 5 ms t is replenished (deadline 105 ms) on CPU 0, does not
	 * preempt a, and is pushed to the idle CPU at once. */
	e.fp.now = t.timer.expires;
	dls_tick(&e.rq[0]);
	DLS_ASSERT_EQ_U64(fake_fire_due(&e.fp), 1);
	CU_ASSERT_PTR_EQUAL(t.rq, &e.rq[1]);
	CU_ASSERT_TRUE(fake_take_resched(&e.fp, 1));
	dls_schedule(&e.rq[1]);
	settle(&e);
	CU_ASSERT_PTR_EQUAL(e.rq[1].curr, &t);
	CU_ASSERT_PTR_EQUAL(e.rq[0].curr, &a);
	EDF(&e);
	env_free(&e);
}

#define CHECK2(a, b)                                                           \
	do {                                                                   \
		CHECK(a);                                                      \
		CHECK(b);                                                      \
	} while (0)

static void test_domains(void)
{
	struct env a, b;
	struct dls_entity xa[4], xb[2], extra;
	struct dls_params p = { .runtime = 45 * MS / 10, .deadline = 10 * MS };
	uint64_t m1[8], m3[8];
	uint64_t bw = dls_params_bw(&p), a0, b1;
	struct dls_domain pd;
	struct dls_rq prq[1];

	/* Two exclusive partitions, each a global domain of 2 CPUs admitting
	 * against its own capacity: 0.95 x 2 = 1.9 each. */
	env_init(&a, 2, NULL);
	env_init(&b, 2, NULL);
	for (int i = 0; i < 4; i++)
		attach(&a, i % 2, &xa[i], p.runtime, p.deadline);
	dls_entity_init(&extra);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&a.rq[0], &extra, &p), DLS_EBANDWIDTH);
	attach(&b, 0, &xb[0], p.runtime, p.deadline);
	attach(&b, 1, &xb[1], p.runtime, p.deadline);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&b.rq[0], &extra, &p), 0);
	DLS_ASSERT_EQ_S64(dls_task_dead(&b.rq[0], &extra), 0);
	/* dls_entity_move() stays inside a domain. */
	DLS_ASSERT_EQ_S64(dls_entity_move(&xb[0], &a.rq[1]), DLS_ESTATE);
	/* Moving between domains checks the destination: a holds 1.8. */
	a0 = a.rq[0].bw.total;
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xb[0], &a.rq[0], NULL), DLS_EBANDWIDTH);
	CU_ASSERT_PTR_EQUAL(xb[0].rq, &b.rq[0]);
	DLS_ASSERT_EQ_U64(a.rq[0].bw.total, a0);
	/* Misuse: same domain, running, a mask of another size, dst not in it. */
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[2], &a.rq[1], NULL), DLS_ESTATE);
	DLS_ASSERT_EQ_S64(dls_wakeup(&a.rq[0], &xa[0]), 0);
	settle(&a);
	CU_ASSERT_PTR_EQUAL(a.rq[0].curr, &xa[0]);
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[0], &b.rq[0], NULL), DLS_ERUNNING);
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[2], &b.rq[1],
						 mask_bits(m3, sizeof(m3), 3, 0x2)), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[2], &b.rq[0],
						 mask_bits(m1, sizeof(m1), 2, 0x2)), DLS_ENOCPU);
	/* A sleeping entity goes to b's CPU 1, pinned there, with its bandwidth. */
	b1 = b.rq[1].bw.total;
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[2], &b.rq[1], (struct dls_cpumask *)(void *)m1), 0);
	CU_ASSERT_PTR_EQUAL(xa[2].rq, &b.rq[1]);
	DLS_ASSERT_EQ_S64(xa[2].nr_cpus_allowed, 1);
	DLS_ASSERT_EQ_U64(a.rq[0].bw.total, a0 - bw);
	DLS_ASSERT_EQ_U64(b.rq[1].bw.total, b1 + bw);
	CHECK2(&a, &b);
	DLS_ASSERT_EQ_S64(dls_wakeup(&b.rq[1], &xa[2]), 0);
	settle(&b);
	CU_ASSERT_PTR_EQUAL(b.rq[1].curr, &xa[2]);
	/* A throttled entity takes its replenishment timer along. */
	DLS_ASSERT_EQ_S64(dls_wakeup(&b.rq[0], &xb[0]), 0);
	settle(&b);
	b.fp.now += p.runtime;
	dls_tick(&b.rq[0]);
	settle(&b);
	CU_ASSERT_TRUE(xb[0].throttled && fake_timer_armed(&b.fp, &xb[0].timer));
	a.fp.now = b.fp.now;
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xb[0], &a.rq[1], NULL), 0);
	CU_ASSERT_FALSE(fake_timer_armed(&b.fp, &xb[0].timer));
	CU_ASSERT_TRUE(fake_timer_armed(&a.fp, &xb[0].timer));
	a.fp.now = xb[0].timer.expires;
	DLS_ASSERT_EQ_U64(fake_fire_due(&a.fp), 1);
	CU_ASSERT_TRUE(xb[0].queued && !xb[0].throttled);
	CU_ASSERT_PTR_EQUAL(xb[0].rq, &a.rq[1]);
	settle(&a);
	CU_ASSERT_PTR_EQUAL(a.rq[1].curr, &xb[0]);
	CHECK2(&a, &b);
	DLS_ASSERT_VALID(dls_domain_check_global_edf(&a.dom));
	DLS_ASSERT_VALID(dls_domain_check_global_edf(&b.dom));
	/* A partitioned (not global) destination admits per runqueue:
	 * 0.95 holds two of 0.45, not three. */
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&pd, &fake_ops_notrace, &b.fp, NULL, prq, 1), 0);
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[1], &prq[0], NULL), 0);
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xa[3], &prq[0], NULL), 0);
	DLS_ASSERT_EQ_S64(dls_entity_move_domain(&xb[1], &prq[0], NULL), DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(prq[0].nr_attached, 2);
	DLS_ASSERT_VALID(dls_domain_check(&pd));
	CHECK2(&a, &b);
	env_free(&a);
	env_free(&b);
}

/* A lock op that records each call and, at the first lock of CPU 1, moves
 * the entity to CPU 0 as a concurrent migration would between the load of
 * se->rq and the lock. */
struct lock_race {
	struct fake_platform fp; /* first: the fake ops take it as ctx */
	struct dls_entity *se;
	struct dls_rq *to;
	char calls[16];
	unsigned int n;
	bool moved;
};

static void lr_record(struct lock_race *lr, char what, int cpu)
{
	if (lr->n + 2 < sizeof(lr->calls)) {
		lr->calls[lr->n++] = what;
		lr->calls[lr->n++] = (char)('0' + cpu);
	}
}

static void lr_lock(void *ctx, int cpu)
{
	struct lock_race *lr = ctx;

	lr_record(lr, 'L', cpu);
	if (cpu == 1 && !lr->moved) {
		lr->moved = true;
		DLS_ASSERT_EQ_S64(dls_entity_move(lr->se, lr->to), 0);
	}
}

static void lr_unlock(void *ctx, int cpu)
{
	lr_record(ctx, 'U', cpu);
}

static void test_entity_lock_follows(void)
{
	struct dls_ops ops = fake_ops_notrace;
	struct lock_race lr;
	struct dls_domain dom;
	struct dls_rq rq[2];
	struct dls_entity se;
	struct dls_params p = { .runtime = 1 * MS, .deadline = 10 * MS };
	size_t sz = dls_smp_size(2);
	void *mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);

	memset(&lr, 0, sizeof(lr));
	fake_init(&lr.fp, 1000 * MS);
	ops.lock = lr_lock;
	ops.unlock = lr_unlock;
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&dom, &ops, &lr, NULL, rq, 2), 0);
	CU_ASSERT_EQUAL_FATAL(dls_smp_init(&dom, mem, sz), 0);
	dls_entity_init(&se);
	/* Not attached: nothing to lock. */
	CU_ASSERT_PTR_NULL(dls_entity_lock(&se));
	CU_ASSERT_EQUAL(lr.n, 0);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&rq[1], &se, &p), 0);
	lr.se = &se;
	lr.to = &rq[0];
	/* Locked CPU 1, found the entity gone, let go and followed it. */
	CU_ASSERT_PTR_EQUAL(dls_entity_lock(&se), &rq[0]);
	dls_entity_unlock(&rq[0]);
	CU_ASSERT_STRING_EQUAL(lr.calls, "L1U1L0U0");
	/* Stable: one lock. */
	lr.n = 0;
	memset(lr.calls, 0, sizeof(lr.calls));
	CU_ASSERT_PTR_EQUAL(dls_entity_lock(&se), &rq[0]);
	dls_entity_unlock(&rq[0]);
	CU_ASSERT_STRING_EQUAL(lr.calls, "L0U0");
	DLS_ASSERT_VALID(dls_domain_check(&dom));
	free(mem);
}

static const struct dls_test_case cases[] = {
	{ "push to an idle CPU", test_push_to_idle },
	{ "pull when a CPU goes idle", test_pull_when_idle },
	{ "affinity", test_affinity },
	{ "offline and online", test_offline_online },
	{ "domain admission and forced offline", test_domain_admission },
	{ "admission bookkeeping under the bandwidth lock", test_admission_bookkeeping },
	{ "capacity-aware placement", test_capacity_placement },
	{ "push to the CPU running the latest deadline", test_push_to_latest },
	{ "push fills the free CPUs, earliest first", test_push_fills_free_cpus },
	{ "push defers to preempting its own CPU", test_push_own_cpu_first },
	{ "pull from every overloaded CPU", test_pull_exact },
	{ "pull respects affinity", test_pull_respects_affinity },
	{ "wake-up placement", test_select_cpu },
	{ "capacity: best non-fitting CPU, last CPU on ties", test_capacity_fallback },
	{ "check_preempt_equal", test_check_preempt_equal },
	{ "affinity: migratory accounting and moves", test_affinity_accounting },
	{ "refused offline changes nothing", test_offline_refused_unchanged },
	{ "stranded entities come back", test_stranded_return },
	{ "a replenishment that overloads a CPU pushes", test_replenish_pushes },
	{ "domains: own bandwidth, moves between them", test_domains },
	{ "dls_entity_lock follows a moving entity", test_entity_lock_follows },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "smp", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
