/*
 * Parameter checks: each broken rule has its own error, and a refused
 * attach or change leaves the entity and the runqueue untouched.
 */
#include <string.h>

#include <dlsched/sched.h>

#include "dls_test.h"
#include "fake_platform.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)

struct bad_case {
	const char *what;
	struct dls_params p;
	int err;
};

static const struct bad_case bad[] = {
	{ "deadline 0", { 2 * MS, 0, 10 * MS, 0 }, DLS_EDEADLINE_ZERO },
	{ "runtime > deadline", { 6 * MS, 5 * MS, 10 * MS, 0 }, DLS_ERUNTIME_GT_DEADLINE },
	{ "deadline > period", { 1 * MS, 11 * MS, 10 * MS, 0 }, DLS_EDEADLINE_GT_PERIOD },
	{ "runtime 1023 ns", { 1023, 10 * MS, 0, 0 }, DLS_ERUNTIME_MIN },
	{ "runtime 0", { 0, 10 * MS, 0, 0 }, DLS_ERUNTIME_MIN },
	{ "runtime bit 63", { UINT64_C(1) << 63, 10 * MS, 0, 0 }, DLS_ETOPBIT },
	{ "deadline bit 63", { 1 * MS, UINT64_C(1) << 63, 0, 0 }, DLS_ETOPBIT },
	{ "period bit 63", { 1 * MS, 10 * MS, UINT64_MAX, 0 }, DLS_ETOPBIT },
	{ "period below 100 us", { 20 * US, 99 * US, 0, 0 }, DLS_EPERIOD_RANGE },
	{ "period above 2^22 us", { 1 * MS, 10 * MS, ((UINT64_C(1) << 22) * US) + 1, 0 },
	  DLS_EPERIOD_RANGE },
	{ "unknown flag", { 1 * MS, 10 * MS, 0, 0x80 }, DLS_EFLAGS },
};

static const struct dls_params good[] = {
	{ 1024, 100 * US, 0, 0 },                              /* minimums */
	{ 10 * MS, 10 * MS, 0, 0 },                            /* Q = D */
	{ 1 * MS, 5 * MS, 10 * MS, 0 },                        /* D < P */
	{ 1 * MS, 10 * MS, (UINT64_C(1) << 22) * US, DLS_FLAG_OVERRUN }, /* max P */
	{ 1 * MS, 10 * MS, 0, DLS_FLAG_SOFT | DLS_FLAG_OVERRUN },   /* soft */
};

static void test_each_rule(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int got = dls_params_check(NULL, &bad[i].p);

		if (got != bad[i].err)
			fprintf(stderr, "case '%s': got %s, want %s\n", bad[i].what,
				dls_errname(got), dls_errname(bad[i].err));
		CU_ASSERT_EQUAL(got, bad[i].err);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CU_ASSERT_EQUAL(dls_params_check(NULL, &good[i]), 0);
	CU_ASSERT_EQUAL(dls_params_check(NULL, NULL), DLS_EINVAL);
}

static void test_domain_range(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_domain_config cfg;
	struct dls_params p = { 100 * US, 1 * MS, 0, 0 };

	fake_init(&fp, 0);
	dls_domain_config_default(&cfg);
	cfg.period_min = 2 * MS;
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, &rq, 1), 0);
	CU_ASSERT_EQUAL(dls_params_check(&dom, &p), DLS_EPERIOD_RANGE);
	p.deadline = 2 * MS;
	CU_ASSERT_EQUAL(dls_params_check(&dom, &p), 0);
	cfg.period_min = 3 * MS;
	cfg.period_max = 2 * MS;
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, &rq, 1), DLS_EINVAL);
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, NULL, &rq, 0), DLS_EINVAL);
	dls_domain_config_default(&cfg);
	DLS_ASSERT_EQ_S64(cfg.overrun_rule, DLS_OVERRUN_LINUX);
	DLS_ASSERT_EQ_S64(cfg.replenish_rule, DLS_REPLENISH_NEXT_PERIOD);
	DLS_ASSERT_EQ_S64(cfg.wakeup_rule, DLS_WAKEUP_REVISED);
	cfg.overrun_rule = (enum dls_overrun_rule)2;
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, &rq, 1), DLS_EINVAL);
	dls_domain_config_default(&cfg);
	cfg.replenish_rule = (enum dls_replenish_rule)2;
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, &rq, 1), DLS_EINVAL);
	struct dls_ops no_timer = fake_ops;
	no_timer.timer_arm = NULL;
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &no_timer, &fp, NULL, &rq, 1), DLS_EINVAL);
}

/* A refused attach or change leaves every byte of the entity as it was. */
static void test_refusal_leaves_untouched(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity se, snap;
	struct dls_params ok = { 1 * MS, 10 * MS, 0, 0 };

	fake_init(&fp, 12345);
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, NULL, &rq, 1), 0);
	dls_entity_init(&se);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(&snap, &se, sizeof(se));
		CU_ASSERT_EQUAL(dls_entity_attach(&rq, &se, &bad[i].p), bad[i].err);
		CU_ASSERT_EQUAL(memcmp(&snap, &se, sizeof(se)), 0);
		CU_ASSERT_EQUAL(rq.bw.total, 0);
		CU_ASSERT_EQUAL(rq.nr_attached, 0);
	}
	CU_ASSERT_EQUAL(dls_entity_attach(&rq, &se, &ok), 0);
	CU_ASSERT_EQUAL(dls_entity_attach(&rq, &se, &ok), DLS_EATTACHED);
	DLS_ASSERT_EQ_S64(dls_wakeup(&rq, &se), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&rq), &se);
	fp.now += 100 * US;
	dls_update_curr(&rq);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t bw = rq.bw.total;

		memcpy(&snap, &se, sizeof(se));
		CU_ASSERT_EQUAL(dls_entity_set_params(&rq, &se, &bad[i].p), bad[i].err);
		CU_ASSERT_EQUAL(memcmp(&snap, &se, sizeof(se)), 0);
		CU_ASSERT_EQUAL(rq.bw.total, bw);
	}
	DLS_ASSERT_VALID(dls_rq_check(&rq));
}

/*
 * A borrowed reservation (a task boosted into the deadline class) checks its
 * parameters but is not admitted: it joins a full runqueue, counts no
 * bandwidth, runs with the borrowed budget, and a later parameter change
 * is admitted like an attach.
 */
static void test_attach_borrowed(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity full, boosted, snap;
	struct dls_params p90 = { 9 * MS, 10 * MS, 0, 0 }, p50 = { 5 * MS, 10 * MS, 0, 0 };
	struct dls_params p5 = { 5 * MS / 10, 10 * MS, 0, 0 };

	fake_init(&fp, 12345);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&dom, &fake_ops, &fp, NULL, &rq, 1), 0);
	dls_entity_init(&full);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&rq, &full, &p90), 0);
	dls_entity_init(&boosted);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&rq, &boosted, &p50), DLS_EBANDWIDTH);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(&snap, &boosted, sizeof(boosted));
		DLS_ASSERT_EQ_S64(dls_entity_attach_borrowed(&rq, &boosted, &bad[i].p), bad[i].err);
		CU_ASSERT_EQUAL(memcmp(&snap, &boosted, sizeof(boosted)), 0);
	}
	DLS_ASSERT_EQ_S64(dls_entity_attach_borrowed(&rq, &boosted, &p50), 0);
	DLS_ASSERT_EQ_S64(dls_entity_attach_borrowed(&rq, &boosted, &p50), DLS_EATTACHED);
	DLS_ASSERT_EQ_U64(boosted.bw, 0);
	DLS_ASSERT_EQ_U64(rq.bw.total, full.bw);
	DLS_ASSERT_EQ_U64(rq.nr_attached, 2);
	DLS_ASSERT_VALID(dls_rq_check(&rq));
	/* It runs on the borrowed budget: 5 ms, then it is throttled. */
	DLS_ASSERT_EQ_S64(dls_wakeup(&rq, &boosted), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&rq), &boosted);
	fp.now += 5 * MS;
	dls_tick(&rq);
	CU_ASSERT_TRUE(boosted.throttled);
	/* Becoming a reservation of its own is admitted: 0.5 does not fit
	 * beside 0.9, 0.05 does. */
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&rq, &boosted, &p50), DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(rq.bw.total, full.bw);
	DLS_ASSERT_EQ_S64(dls_entity_set_params(&rq, &boosted, &p5), 0);
	DLS_ASSERT_EQ_U64(rq.bw.total, full.bw + dls_params_bw(&p5));
	DLS_ASSERT_EQ_S64(dls_task_dead(&rq, &boosted), 0);
	DLS_ASSERT_EQ_U64(rq.bw.total, full.bw);
	DLS_ASSERT_VALID(dls_rq_check(&rq));
}

static void test_bw_fixed_point(void)
{
	struct dls_params p = { 1 * MS, 4 * MS, 0, 0 };

	DLS_ASSERT_EQ_U64(dls_params_bw(&p), DLS_BW_UNIT / 4);
	p.period = 8 * MS;
	DLS_ASSERT_EQ_U64(dls_params_bw(&p), DLS_BW_UNIT / 8);
	/* 1/3 rounds down: 349525.33 -> 349525 */
	p.runtime = 1 * MS;
	p.deadline = 3 * MS;
	p.period = 0;
	DLS_ASSERT_EQ_U64(dls_params_bw(&p), 349525);
	/* Large values do not overflow: Q = P = 2^22 us gives exactly 1.0. */
	p.runtime = p.deadline = (UINT64_C(1) << 22) * US;
	DLS_ASSERT_EQ_U64(dls_params_bw(&p), DLS_BW_UNIT);
}

static const struct dls_test_case cases[] = {
	{ "one error per rule", test_each_rule },
	{ "domain period range", test_domain_range },
	{ "refusal leaves entity untouched", test_refusal_leaves_untouched },
	{ "bandwidth fixed point", test_bw_fixed_point },
	{ "borrowed reservation: checked, not admitted", test_attach_borrowed },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "params", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
