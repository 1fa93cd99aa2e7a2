/*
 * One scheduling step on one CPU: advance the clock, charge the current
 * entity (update_curr; throttle when its budget is spent), fire due
 * replenishment timers (replenish + enqueue), and schedule (put_prev +
 * pick). Reported as ns per step for 16, 256 and 4096 entities; the
 * platform's timers sit on the library's own rbtree.
 *
 *   bench_sched_step                 table (median of 7 runs)
 *   bench_sched_step --steps N --n K fixed count, for callgrind
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/sched.h>

#include "bench_util.h"

struct plat {
	uint64_t now;
	struct dls_rb_root_cached timers;
};

static uint64_t p_now(void *ctx, int cpu)
{
	(void)cpu;
	return ((struct plat *)ctx)->now;
}

/* Each entity's timer node lives in a side array indexed like the entity. */
static struct dls_entity *ents;
static struct dls_rb_node *tnodes;

static struct dls_timer *tnode_timer(const struct dls_rb_node *n)
{
	return &ents[n - tnodes].timer;
}

static bool tless(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_time_before(tnode_timer(a)->expires, tnode_timer(b)->expires);
}

static struct dls_rb_node *timer_node(struct dls_timer *t)
{
	return &tnodes[dls_container_of(t, struct dls_entity, timer) - ents];
}

static void p_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	struct plat *p = ctx;
	struct dls_rb_node *n = timer_node(t);

	(void)abs_ns;
	if (dls_rb_node_on_tree(n))
		dls_rb_erase_cached(n, &p->timers);
	dls_rb_add_cached(n, &p->timers, tless);
}

static void p_cancel(void *ctx, struct dls_timer *t)
{
	struct plat *p = ctx;
	struct dls_rb_node *n = timer_node(t);

	if (dls_rb_node_on_tree(n))
		dls_rb_erase_cached(n, &p->timers);
}

static void p_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
}

static const struct dls_ops ops = {
	.now = p_now, .timer_arm = p_arm, .timer_cancel = p_cancel,
	.resched = p_resched,
};

static void fire_due(struct plat *p)
{
	struct dls_rb_node *n;

	while ((n = dls_rb_first_cached(&p->timers)) &&
	       !dls_time_after(tnode_timer(n)->expires, p->now)) {
		dls_rb_erase_cached(n, &p->timers);
		dls_timer_expired(tnode_timer(n));
	}
}

/* Set up n entities and run `steps` steps; returns ns/step. */
static double run(size_t n, uint64_t steps)
{
	struct plat p = { .now = 1000000000ULL };
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_domain_config cfg;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	double t0, t1;

	ents = calloc(n, sizeof(*ents));
	tnodes = calloc(n, sizeof(*tnodes));
	dls_rb_root_cached_init(&p.timers);
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	dls_domain_init(&dom, &ops, &p, &cfg, &rq, 1);
	for (size_t i = 0; i < n; i++) {
		/* Periods 1..64 ms, budgets 2% of the period: always busy. */
		uint64_t period = (1 + xorshift(&seed) % 64) * 1000000ULL;
		struct dls_params prm = { .runtime = period / 50, .deadline = period };

		dls_rb_node_init(&tnodes[i]);
		dls_entity_init(&ents[i]);
		if (dls_entity_attach(&rq, &ents[i], &prm) ||
		    dls_wakeup(&rq, &ents[i]))
			abort();
	}
	dls_schedule(&rq);

	t0 = now_ns();
	for (uint64_t s = 0; s < steps; s++) {
		p.now += 50000; /* 50 us per step */
		dls_update_curr(&rq);
		fire_due(&p);
		dls_schedule(&rq);
	}
	t1 = now_ns();
	free(ents);
	free(tnodes);
	return (t1 - t0) / (double)steps;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 16, 256, 4096 };
	uint64_t steps = 0;
	size_t only_n = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--steps"))
			steps = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--n"))
			only_n = strtoull(argv[i + 1], NULL, 0);
	}
	if (steps && only_n) {
		printf("n=%zu steps=%llu ns/step=%.1f\n", only_n,
		       (unsigned long long)steps, run(only_n, steps));
		return 0;
	}
	printf("%-8s %12s\n", "entities", "ns/step");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		double v[7];

		for (int r = 0; r < 7; r++)
			v[r] = run(sizes[k], 200000);
		qsort(v, 7, sizeof(v[0]), cmp_double);
		printf("%-8zu %12.1f\n", sizes[k], v[3]);
	}
	return 0;
}
