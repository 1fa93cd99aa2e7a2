/*
 * One scheduling step on one CPU: advance the clock, charge the current
 * entity (update_curr; throttle when its budget is spent), fire due
 * replenishment timers (replenish + enqueue), and schedule (put_prev +
 * pick). Reported as ns per step for 16, 256 and 4096 entities, plain and
 * with every entity reclaiming (DLS_FLAG_RECLAIM, GRUB accounting); the
 * platform's timers sit on the library's own rbtree.
 *
 *   bench_sched_step                 table (median of 7 runs)
 *   bench_sched_step --steps N --n K [--reclaim 1] [--server 1]
 *                                    fixed count, for callgrind
 * The table ends with one step through a server (server.h) over 16 guest
 * entities against a flat step over 17.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/sched.h>
#include <dlsched/server.h>

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

/* Each timer's node lives in a slot its platform_data names. */
struct tslot {
	struct dls_rb_node node;
	struct dls_timer *t;
};

static struct tslot *slot_of(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct tslot, node);
}

static bool tless(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_time_before(slot_of(a)->t->expires, slot_of(b)->t->expires);
}

static void slot_bind(struct tslot *s, struct dls_timer *t)
{
	dls_rb_node_init(&s->node);
	s->t = t;
	t->platform_data = (uintptr_t)s;
}

static void p_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	struct plat *p = ctx;
	struct dls_rb_node *n = &((struct tslot *)t->platform_data)->node;

	(void)abs_ns;
	if (dls_rb_node_on_tree(n))
		dls_rb_erase_cached(n, &p->timers);
	dls_rb_add_cached(n, &p->timers, tless);
}

static void p_cancel(void *ctx, struct dls_timer *t)
{
	struct plat *p = ctx;
	struct dls_rb_node *n = &((struct tslot *)t->platform_data)->node;

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
	       !dls_time_after(slot_of(n)->t->expires, p->now)) {
		dls_rb_erase_cached(n, &p->timers);
		dls_timer_expired(slot_of(n)->t);
	}
}

/*
 * Set up n entities and run `steps` steps; returns ns/step. With @server
 * the n entities are a guest's (a second domain, one vCPU) inside one
 * server of a full CPU's bandwidth on the host runqueue, and each step
 * charges both levels and schedules through the server.
 */
static double run(size_t n, uint64_t steps, uint32_t flags, bool server)
{
	struct plat p = { .now = 1000000000ULL };
	struct dls_domain dom, guest;
	struct dls_rq rq, grq;
	struct dls_domain_config cfg;
	struct dls_server srv;
	struct dls_entity *ents = calloc(n, sizeof(*ents));
	struct tslot *slots = calloc(n + 1, sizeof(*slots));
	struct dls_rq *erq = server ? &grq : &rq;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	double t0, t1;
	void *what;

	dls_rb_root_cached_init(&p.timers);
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	dls_domain_init(&dom, &ops, &p, &cfg, &rq, 1);
	if (server) {
		struct dls_params sp = { .runtime = 1000000, .deadline = 1000000 };

		dls_domain_init(&guest, &ops, &p, &cfg, &grq, 1);
		if (dls_server_init(&srv, &dls_server_guest_ops, &grq, 0))
			abort();
		slot_bind(&slots[n], &srv.se.timer);
		if (dls_server_attach(&rq, &srv, &sp))
			abort();
	}
	for (size_t i = 0; i < n; i++) {
		/* Periods 1..64 ms, budgets 2% of the period: always busy. */
		uint64_t period = (1 + xorshift(&seed) % 64) * 1000000ULL;
		struct dls_params prm = { .runtime = period / 50, .deadline = period,
					  .flags = flags };

		dls_entity_init(&ents[i]);
		slot_bind(&slots[i], &ents[i].timer);
		if (dls_entity_attach(erq, &ents[i], &prm) ||
		    dls_wakeup(erq, &ents[i]))
			abort();
	}
	if (server && dls_server_start(&rq, &srv))
		abort();
	dls_server_schedule(&rq, &what);

	t0 = now_ns();
	if (server) {
		for (uint64_t s = 0; s < steps; s++) {
			p.now += 50000; /* 50 us per step */
			dls_update_curr(&rq);
			dls_update_curr(&grq);
			fire_due(&p);
			/* The platform's kick: guest work wakes an idle server. */
			if (srv.state == DLS_SERVER_IDLE && grq.nr_running)
				dls_server_start(&rq, &srv);
			dls_server_schedule(&rq, &what);
		}
	} else {
		for (uint64_t s = 0; s < steps; s++) {
			p.now += 50000;
			dls_update_curr(&rq);
			fire_due(&p);
			dls_schedule(&rq);
		}
	}
	t1 = now_ns();
	free(ents);
	free(slots);
	return (t1 - t0) / (double)steps;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 16, 256, 4096 };
	uint64_t steps = 0;
	size_t only_n = 0;
	uint32_t flags = 0;
	bool server = false;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--steps"))
			steps = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--n"))
			only_n = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--reclaim"))
			flags = strtoull(argv[i + 1], NULL, 0) ? DLS_FLAG_RECLAIM : 0;
		else if (!strcmp(argv[i], "--server"))
			server = strtoull(argv[i + 1], NULL, 0) != 0;
	}
	if (steps && only_n) {
		printf("n=%zu steps=%llu server=%d ns/step=%.1f\n", only_n,
		       (unsigned long long)steps, server, run(only_n, steps, flags, server));
		return 0;
	}
	printf("%-8s %12s %12s %8s\n", "entities", "ns/step", "reclaim", "ratio");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		double v[7], w[7];

		for (int r = 0; r < 7; r++) {
			v[r] = run(sizes[k], 200000, 0, false);
			w[r] = run(sizes[k], 200000, DLS_FLAG_RECLAIM, false);
		}
		qsort(v, 7, sizeof(v[0]), cmp_double);
		qsort(w, 7, sizeof(w[0]), cmp_double);
		printf("%-8zu %12.1f %12.1f %8.3f\n", sizes[k], v[3], w[3], w[3] / v[3]);
	}
	{
		/* A server over 16 guest entities against 17 flat ones. */
		double v[7], w[7];

		for (int r = 0; r < 7; r++) {
			v[r] = run(17, 200000, 0, false);
			w[r] = run(16, 200000, 0, true);
		}
		qsort(v, 7, sizeof(v[0]), cmp_double);
		qsort(w, 7, sizeof(w[0]), cmp_double);
		printf("\n%-22s %10s %10s %8s\n", "", "flat 17", "server+16", "ratio");
		printf("%-22s %10.1f %10.1f %8.3f\n", "ns/step", v[3], w[3], w[3] / v[3]);
	}
	return 0;
}
