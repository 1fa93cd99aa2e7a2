/*
 * Links only the core component (dlsched::core, dlsched-core.pc): the
 * rbtree, math128, CPU masks and the EDF scheduler on a platform of no-op
 * callbacks. Exits 0 when all behave.
 */
#include <stdio.h>

#include <dlsched/cpumask.h>
#include <dlsched/math128.h>
#include <dlsched/rbtree.h>
#include <dlsched/sched.h>

#define MS 1000000ULL

static uint64_t now_ns;

static uint64_t plat_now(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	return now_ns;
}

static void plat_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	(void)ctx;
	(void)t;
	(void)abs_ns;
}

static void plat_cancel(void *ctx, struct dls_timer *t)
{
	(void)ctx;
	(void)t;
}

static void plat_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
}

static const struct dls_ops plat = {
	.now = plat_now,
	.timer_arm = plat_arm,
	.timer_cancel = plat_cancel,
	.resched = plat_resched,
};

static int fail(const char *what)
{
	fprintf(stderr, "consumer core: %s\n", what);
	return 1;
}

int main(void)
{
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity a, b;
	struct dls_params pa = { .runtime = 2 * MS, .deadline = 20 * MS };
	struct dls_params pb = { .runtime = 1 * MS, .deadline = 10 * MS };
	uint64_t mask_storage[8]; /* aligned for the mask's words */
	struct dls_cpumask *mask = (struct dls_cpumask *)(void *)mask_storage;

	/* (2^63 * 6) / 2^62 = 12, through a 128-bit product */
	if (dls_u128_mul_u64_u64_div_u64(UINT64_C(1) << 63, 6, UINT64_C(1) << 62) != 12)
		return fail("math128 a * b / c");
	if (dls_u128_mul_cmp(3, 4, 2, 6) != 0 || dls_u128_mul_cmp(3, 5, 2, 6) != 1)
		return fail("math128 mul_cmp");
	if (dls_cpumask_size(4) > sizeof(mask_storage) ||
	    dls_cpumask_init(mask, sizeof(mask_storage), 4) != 0)
		return fail("cpumask init");
	dls_cpumask_set(mask, 2);
	if (dls_cpumask_weight(mask) != 1 || !dls_cpumask_test(mask, 2))
		return fail("cpumask set");

	/* EDF: of two entities woken at 0, the one due at 10 ms runs first. */
	if (dls_domain_init(&dom, &plat, NULL, NULL, &rq, 1) != 0)
		return fail("domain init");
	dls_entity_init(&a);
	dls_entity_init(&b);
	if (dls_entity_attach(&rq, &a, &pa) != 0 || dls_entity_attach(&rq, &b, &pb) != 0)
		return fail("attach");
	if (dls_wakeup(&rq, &a) != 0 || dls_wakeup(&rq, &b) != 0)
		return fail("wakeup");
	if (dls_schedule(&rq) != &b)
		return fail("EDF did not pick the earlier deadline");
	if (dls_rq_check(&rq) != NULL)
		return fail(dls_rq_check(&rq));
	printf("consumer core: libdlsched %d.%d.%d works\n", DLSCHED_VERSION_MAJOR,
	       DLSCHED_VERSION_MINOR, DLSCHED_VERSION_PATCH);
	return 0;
}
