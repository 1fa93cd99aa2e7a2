/*
 * The EDF runqueue under random operations, checked after every operation
 * against a brute-force model (scan every entity) and the validator.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/sched.h>

#include "dls_test.h"
#include "fake_platform.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define N 24

struct model {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity se[N];
	bool attached[N];
};

static uint64_t key(const struct dls_entity *se)
{
	return se->boosted ? se->pi_deadline : se->deadline;
}

/* Brute force: the queued set, its two smallest keys, and the leftmost. */
static void check_model(struct model *m)
{
	unsigned int queued = 0;
	const struct dls_entity *best = NULL;
	uint64_t k1 = 0, k2 = 0;
	struct dls_rb_node *first;

	DLS_ASSERT_VALID(dls_rq_check(&m->rq));
	for (int i = 0; i < N; i++) {
		const struct dls_entity *se = &m->se[i];
		bool expect = m->attached[i] && se->runnable && !se->throttled;

		CU_ASSERT_EQUAL_FATAL(se->queued, expect);
		if (!expect)
			continue;
		queued++;
		if (queued == 1 || dls_time_before(key(se), k1)) {
			k2 = k1;
			k1 = key(se);
			best = se;
		} else if (queued == 2 || dls_time_before(key(se), k2)) {
			k2 = key(se);
		}
	}
	CU_ASSERT_EQUAL_FATAL(m->rq.nr_running, queued);
	first = dls_rb_first_cached(&m->rq.root);
	if (!queued) {
		CU_ASSERT_PTR_NULL_FATAL(first);
		return;
	}
	DLS_ASSERT_EQ_U64(key(dls_container_of(first, struct dls_entity, node)), k1);
	DLS_ASSERT_EQ_U64(m->rq.earliest.curr, k1);
	if (queued >= 2)
		DLS_ASSERT_EQ_U64(m->rq.earliest.next, k2);
	(void)best;
}

static void random_params(struct dls_test_rng *r, struct dls_params *p)
{
	p->deadline = (1 + dls_test_rng_below(r, 40)) * MS;
	p->period = dls_test_rng_below(r, 2) ? 0 : p->deadline + dls_test_rng_below(r, 10) * MS;
	p->runtime = DLS_RUNTIME_MIN + dls_test_rng_below(r, p->deadline / 20);
	p->flags = 0;
}

static void run_random(uint64_t start, uint64_t ops, uint64_t seed)
{
	struct dls_test_rng r;
	struct model *m = calloc(1, sizeof(*m));
	struct dls_domain_config cfg;

	dls_test_rng_seed(&r, seed);
	fake_init(&m->fp, start);
	dls_domain_config_default(&cfg);
	cfg.wakeup_rule = (seed & 1) ? DLS_WAKEUP_REVISED : DLS_WAKEUP_CBS;
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&m->dom, &fake_ops_notrace, &m->fp,
					      &cfg, &m->rq, 1), 0);
	for (int i = 0; i < N; i++)
		dls_entity_init(&m->se[i]);

	for (uint64_t op = 0; op < ops; op++) {
		int i = (int)dls_test_rng_below(&r, N);
		struct dls_entity *se = &m->se[i];
		struct dls_params p;

		switch (dls_test_rng_below(&r, 10)) {
		case 0: /* attach or detach */
			if (m->attached[i]) {
				DLS_ASSERT_EQ_S64(dls_task_dead(&m->rq, se), 0);
				m->attached[i] = false;
			} else {
				random_params(&r, &p);
				m->attached[i] = dls_entity_attach(&m->rq, se, &p) == 0;
			}
			break;
		case 1: /* wake */
			if (m->attached[i] && !se->runnable)
				DLS_ASSERT_EQ_S64(dls_wakeup(&m->rq, se), 0);
			break;
		case 2: /* block, job done or not */
			if (m->attached[i] && se->runnable)
				dls_dequeue(&m->rq, se, dls_test_rng_below(&r, 2)
						? DLS_DEQUEUE_DONE : DLS_DEQUEUE_SLEEP);
			break;
		case 3: /* time passes; the current entity is charged */
			m->fp.now += dls_test_rng_below(&r, 3 * MS);
			dls_tick(&m->rq);
			break;
		case 4:
			fake_fire_due(&m->fp);
			break;
		case 5:
			dls_schedule(&m->rq);
			break;
		case 6: /* change parameters */
			if (m->attached[i]) {
				random_params(&r, &p);
				(void)dls_entity_set_params(&m->rq, se, &p);
			}
			break;
		case 7: /* boost or unboost */
			if (m->attached[i])
				dls_entity_set_boost(&m->rq, se, !se->boosted,
						     m->fp.now + dls_test_rng_below(&r, 20 * MS));
			break;
		case 8:
			dls_yield(&m->rq);
			break;
		default: /* jump to the next timer */
			{
				uint64_t t;

				if (fake_next_timer(&m->fp, &t) &&
				    dls_time_before(m->fp.now, t))
					m->fp.now = t;
				fake_fire_due(&m->fp);
			}
			break;
		}
		check_model(m);
		/* No runnable, unthrottled, non-boosted queued entity may hold a
		 * non-positive runtime. */
		for (int j = 0; j < N; j++)
			if (m->se[j].queued && !m->se[j].boosted &&
			    &m->se[j] != m->rq.curr)
				CU_ASSERT_FATAL(m->se[j].runtime > 0);
	}
	free(m);
}

static void test_random_ops(void)
{
	uint64_t seed = dls_test_seed("rq random ops", 0xed5eedULL);

	run_random(5 * MS, dls_test_scaled(200000), seed);
}

static void test_random_ops_wrap(void)
{
	uint64_t seed = dls_test_seed("rq random ops near the wrap", 0xed5eed1ULL);

	run_random((uint64_t)0 - 200 * MS, dls_test_scaled(200000), seed);
}

/* The validator names what is wrong with a corrupted runqueue. */
static void test_validator_negative(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity a, b;
	struct dls_params p = { 1 * MS, 10 * MS, 0, 0 };

	fake_init(&fp, 0);
	dls_domain_init(&dom, &fake_ops, &fp, NULL, &rq, 1);
	dls_entity_init(&a);
	dls_entity_init(&b);
	dls_entity_attach(&rq, &a, &p);
	p.deadline = 20 * MS;
	dls_entity_attach(&rq, &b, &p);
	DLS_ASSERT_EQ_S64(dls_wakeup(&rq, &a), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&rq, &b), 0);
	DLS_ASSERT_VALID(dls_rq_check(&rq));

	rq.earliest.curr++;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "earliest.curr differs from the leftmost deadline");
	rq.earliest.curr--;
	rq.earliest.next++;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "earliest.next differs from the second deadline");
	rq.earliest.next--;
	rq.nr_running++;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "nr_running differs from the number of queued entities");
	rq.nr_running--;
	/* The tree's largest node, kept beside it (b: the later deadline). */
	CU_ASSERT_PTR_EQUAL(rq.root_last.node, &b.node);
	rq.root_last.node = &a.node;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "cached rightmost is not the last node");
	rq.root_last.node = &b.node;
	b.throttled = true;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "throttled entity is on the tree");
	b.throttled = false;
	/* The runqueue's bandwidth object: its sum, its capacity, no lock of
	 * its own (the runqueue lock covers it). */
	rq.bw.total++;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bw.total differs from the sum of attached bandwidths");
	rq.bw.total--;
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&rq, 512), 0);
	DLS_ASSERT_EQ_U64(rq.bw.capacity, 512);
	DLS_ASSERT_VALID(dls_rq_check(&rq));
	rq.bw.capacity = DLS_CAPACITY_SCALE;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bw.capacity differs from the CPU's capacity");
	rq.bw.capacity = 512;
	rq.bw.lock_ctx = &rq;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "a runqueue's bandwidth object has a lock of its own");
	rq.bw.lock_ctx = NULL;
	DLS_ASSERT_VALID(dls_rq_check(&rq));
	/* GRUB's sums live in the object too: the active sum (both entities
	 * woke, so it is their bandwidth), the reclaiming count, and Umax and
	 * 1/Umax derived from the limit. */
	DLS_ASSERT_EQ_U64(rq.bw.running, a.bw + b.bw);
	rq.bw.running--;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bw.running differs from the sum of active bandwidths");
	rq.bw.running = rq.bw.total + 1;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bandwidth object: running exceeds total");
	rq.bw.running = a.bw + b.bw;
	rq.bw.nr_reclaiming = 1;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bw.nr_reclaiming differs from the attached reclaiming entities");
	rq.bw.nr_reclaiming = 0;
	rq.bw.max_bw--;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bandwidth object: max_bw differs from its limit's Umax");
	rq.bw.max_bw++;
	rq.bw.bw_ratio++;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bandwidth object: bw_ratio differs from 1/max_bw");
	rq.bw.bw_ratio--;
	rq.bw.limit = DLS_BW_UNLIMITED;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "bandwidth object: max_bw differs from its limit's Umax");
	rq.bw.limit = rq.dom->cfg.bw_limit;
	rq.bw.shared = true;
	CU_ASSERT_STRING_EQUAL(dls_rq_check(&rq), "a runqueue's bandwidth object is marked shared");
	rq.bw.shared = false;
	DLS_ASSERT_VALID(dls_rq_check(&rq));
	/* Key order broken behind the tree's back. */
	b.deadline = a.deadline - 1;
	CU_ASSERT_PTR_NOT_NULL(dls_rq_check(&rq));
}

static const struct dls_test_case cases[] = {
	{ "random operations vs model", test_random_ops },
	{ "random operations near the wrap", test_random_ops_wrap },
	{ "validator names corruption", test_validator_negative },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "rq", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
