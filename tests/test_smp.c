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

static void env_init(struct env *e, int ncpu, const uint32_t *caps)
{
	size_t sz = dls_smp_size(ncpu);

	memset(e, 0, sizeof(*e));
	fake_init(&e->fp, 1000 * MS);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&e->dom, &fake_ops_notrace, &e->fp, NULL,
					      e->rq, ncpu), 0);
	for (int i = 0; caps && i < ncpu; i++)
		dls_rq_set_capacity(&e->rq[i], caps[i]);
	e->smp_mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	CU_ASSERT_EQUAL_FATAL(dls_smp_init(&e->dom, e->smp_mem, sz), 0);
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
	dls_wakeup(&e.rq[0], &a);
	dls_wakeup(&e.rq[0], &b);
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
	dls_wakeup(&e.rq[1], &c);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[1]), &c);
	dls_wakeup(&e.rq[0], &a);
	dls_wakeup(&e.rq[0], &b);
	/* b (20) cannot go anywhere: CPU 1 runs 15, CPU 0 runs 10. */
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[0]), &a);
	CU_ASSERT_PTR_EQUAL(b.rq, &e.rq[0]);
	CU_ASSERT_TRUE(e.rq[0].overloaded);
	CHECK(&e);
	/* c blocks: CPU 1 pulls b. */
	dls_dequeue(&e.rq[1], &c, DLS_DEQUEUE_SLEEP);
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
	dls_wakeup(&e.rq[0], &a);
	dls_wakeup(&e.rq[0], &b);
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

static int stranded_count;
static void on_stranded(void *arg, struct dls_entity *se)
{
	(void)arg;
	(void)se;
	stranded_count++;
}

static void test_offline_online(void)
{
	struct env e;
	struct dls_entity a, b, c, pinned;
	unsigned char mmem[64];
	struct dls_cpumask *only2 = (struct dls_cpumask *)(void *)mmem;

	env_init(&e, 3, NULL);
	attach(&e, 2, &a, 1 * MS, 10 * MS);
	attach(&e, 2, &b, 1 * MS, 20 * MS);
	attach(&e, 2, &c, 1 * MS, 30 * MS);
	attach(&e, 2, &pinned, 1 * MS, 40 * MS);
	dls_cpumask_init(only2, sizeof(mmem), 3);
	dls_cpumask_set(only2, 2);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&pinned, only2), 0);
	dls_wakeup(&e.rq[2], &a);
	dls_wakeup(&e.rq[2], &c); /* c stays asleep-to-be */
	dls_dequeue(&e.rq[2], &c, DLS_DEQUEUE_SLEEP);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e.rq[2]), &a);
	stranded_count = 0;
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 2, false, on_stranded, NULL), 0);
	CHECK(&e);
	/* Everything but the pinned one left CPU 2, running or not. */
	CU_ASSERT_PTR_NOT_EQUAL(a.rq, &e.rq[2]);
	CU_ASSERT_PTR_NOT_EQUAL(b.rq, &e.rq[2]);
	CU_ASSERT_PTR_NOT_EQUAL(c.rq, &e.rq[2]);
	CU_ASSERT_PTR_EQUAL(pinned.rq, &e.rq[2]);
	CU_ASSERT_EQUAL(stranded_count, 1);
	CU_ASSERT_PTR_NULL(e.rq[2].curr);
	CU_ASSERT_TRUE(a.queued);
	/* The others keep scheduling. */
	CU_ASSERT_PTR_EQUAL(dls_schedule(a.rq), &a);
	DLS_ASSERT_EQ_U64(e.rq[0].nr_attached + e.rq[1].nr_attached, 3);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e.dom, 2, false, NULL, NULL), DLS_ESTATE);
	DLS_ASSERT_EQ_S64(dls_cpu_online(&e.dom, 2), 0);
	CHECK(&e);
	dls_wakeup(&e.rq[2], &pinned);
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
	dls_wakeup(&e.rq[0], &small);
	dls_schedule(&e.rq[0]);
	e.fp.now += 1 * MS;
	dls_tick(&e.rq[0]);
	DLS_ASSERT_EQ_S64(small.runtime, 500000);
	env_free(&e);
}

static const struct dls_test_case cases[] = {
	{ "push to an idle CPU", test_push_to_idle },
	{ "pull when a CPU goes idle", test_pull_when_idle },
	{ "affinity", test_affinity },
	{ "offline and online", test_offline_online },
	{ "domain admission and forced offline", test_domain_admission },
	{ "capacity-aware placement", test_capacity_placement },
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
