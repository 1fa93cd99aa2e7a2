/*
 * Library misuse that must not corrupt: each case calls an entry point on
 * an entity in a state the call is not defined for, and checks the
 * distinct error code, that the validators still pass, and that nothing
 * changed — the whole environment (domain, runqueues, entities, the global
 * scheduling state and the fake platform's counters) is compared byte for
 * byte with a snapshot taken before the call.
 *
 * The same suite is built twice: against the checked library (test_misuse)
 * and against a release-configured copy of it without DLS_ASSERT
 * (test_misuse_release), since the guards must hold in production builds.
 * The checked build also shows that a NULL object pointer, a precondition
 * (common.h), stops the program there.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/pi.h>
#include <dlsched/smp.h>

#include "dls_test.h"
#include "fake_platform.h"

#define MS UINT64_C(1000000)
#define NCPU 2
#define NSE 4

struct env {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[NCPU];
	struct dls_entity se[NSE];
	_Alignas(64) unsigned char smp_mem[8192];
	uint64_t mask_mem[8]; /* a mask of another CPU count */
};

static struct env *env_new(bool global)
{
	struct env *e = calloc(1, sizeof(*e));

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	fake_init(&e->fp, 1000 * MS);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&e->dom, &fake_ops_notrace, &e->fp,
					      NULL, e->rq, NCPU), 0);
	if (global) {
		CU_ASSERT_FATAL(dls_smp_size(NCPU) <= sizeof(e->smp_mem));
		CU_ASSERT_EQUAL_FATAL(dls_smp_init(&e->dom, e->smp_mem,
						   dls_smp_size(NCPU)), 0);
	}
	for (int i = 0; i < NSE; i++)
		dls_entity_init(&e->se[i]);
	return e;
}

static void attach(struct env *e, int cpu, int i)
{
	struct dls_params p = { .runtime = 1 * MS, .deadline = 10 * MS };

	DLS_ASSERT_EQ_S64(dls_entity_attach(&e->rq[cpu], &e->se[i], &p), 0);
}

static void check(const struct env *e)
{
	if (e->dom.smp) {
		DLS_ASSERT_VALID(dls_domain_check(&e->dom));
		return;
	}
	for (int c = 0; c < NCPU; c++)
		DLS_ASSERT_VALID(dls_rq_check(&e->rq[c]));
}

/* Snapshot, the refused call, its code, then the validators and the bytes. */
#define REFUSED(e, call, code)                                                 \
	do {                                                                   \
		struct env *snap_ = malloc(sizeof(*(e)));                      \
		CU_ASSERT_PTR_NOT_NULL_FATAL(snap_);                           \
		memcpy(snap_, (e), sizeof(*(e)));                              \
		DLS_ASSERT_EQ_S64((call), (code));                             \
		check(e);                                                      \
		CU_ASSERT_EQUAL(memcmp(snap_, (e), sizeof(*(e))), 0);          \
		free(snap_);                                                   \
	} while (0)

static void test_wakeup_twice(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	REFUSED(e, dls_wakeup(&e->rq[0], &e->se[0]), DLS_ERUNNABLE);
	DLS_ASSERT_EQ_U64(e->rq[0].nr_running, 1);
	/* Also while it runs, and while it is throttled (runnable, off the tree). */
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e->rq[0]), &e->se[0]);
	REFUSED(e, dls_wakeup(&e->rq[0], &e->se[0]), DLS_ERUNNABLE);
	e->fp.now += 1 * MS;
	dls_tick(&e->rq[0]);
	CU_ASSERT_TRUE(e->se[0].throttled);
	REFUSED(e, dls_wakeup(&e->rq[0], &e->se[0]), DLS_ERUNNABLE);
	free(e);
}

static void test_wrong_runqueue(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	attach(e, 1, 1);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	/* nr_running of rq 1 wrapped to 2^32 - 1 here once. */
	REFUSED(e, dls_dequeue(&e->rq[1], &e->se[0], DLS_DEQUEUE_SLEEP), DLS_EOTHERRQ);
	REFUSED(e, dls_dequeue(&e->rq[1], &e->se[0], 0), DLS_EOTHERRQ);
	REFUSED(e, dls_wakeup(&e->rq[0], &e->se[1]), DLS_EOTHERRQ);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[1], DLS_ENQUEUE_WAKEUP), DLS_EOTHERRQ);
	REFUSED(e, dls_set_curr(&e->rq[1], &e->se[0]), DLS_EOTHERRQ);
	REFUSED(e, dls_task_dead(&e->rq[1], &e->se[0]), DLS_EOTHERRQ);
	REFUSED(e, dls_entity_set_boost(&e->rq[1], &e->se[0], true, 1), DLS_EOTHERRQ);
	struct dls_params p = { .runtime = 2 * MS, .deadline = 10 * MS };
	REFUSED(e, dls_entity_set_params(&e->rq[1], &e->se[0], &p), DLS_EOTHERRQ);
	DLS_ASSERT_EQ_U64(e->rq[1].nr_running, 0);
	free(e);
}

static void test_detached(void)
{
	struct env *e = env_new(false);
	struct dls_params p = { .runtime = 2 * MS, .deadline = 10 * MS };

	REFUSED(e, dls_wakeup(&e->rq[0], &e->se[0]), DLS_EDETACHED);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[0], 0), DLS_EDETACHED);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], 0), DLS_EDETACHED);
	REFUSED(e, dls_set_curr(&e->rq[0], &e->se[0]), DLS_EDETACHED);
	REFUSED(e, dls_task_dead(&e->rq[0], &e->se[0]), DLS_EDETACHED);
	REFUSED(e, dls_entity_set_boost(&e->rq[0], &e->se[0], true, 1), DLS_EDETACHED);
	REFUSED(e, dls_entity_set_params(&e->rq[0], &e->se[0], &p), DLS_EDETACHED);
	REFUSED(e, dls_entity_set_affinity(&e->se[0], NULL), DLS_EDETACHED);
	/* Dead twice. */
	attach(e, 0, 1);
	DLS_ASSERT_EQ_S64(dls_task_dead(&e->rq[0], &e->se[1]), 0);
	REFUSED(e, dls_task_dead(&e->rq[0], &e->se[1]), DLS_EDETACHED);
	free(e);
}

static void test_enqueue_queued(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[0], 0), DLS_EQUEUED);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[0], DLS_ENQUEUE_REPLENISH), DLS_EQUEUED);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[0], DLS_ENQUEUE_WAKEUP), DLS_EQUEUED);
	free(e);
}

static void test_attach_twice(void)
{
	struct env *e = env_new(false);
	struct dls_params p = { .runtime = 1 * MS, .deadline = 10 * MS };

	attach(e, 0, 0);
	REFUSED(e, dls_entity_attach(&e->rq[0], &e->se[0], &p), DLS_EATTACHED);
	REFUSED(e, dls_entity_attach(&e->rq[1], &e->se[0], &p), DLS_EATTACHED);
	REFUSED(e, dls_entity_attach_borrowed(&e->rq[1], &e->se[0], &p), DLS_EATTACHED);
	free(e);
}

/* A job done by an entity that already blocked counted a job (and could
 * count a miss) once. */
static void test_done_not_runnable(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], DLS_DEQUEUE_DONE), DLS_ENOTRUNNABLE);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	dls_schedule(&e->rq[0]);
	e->fp.now += 20 * MS; /* past its deadline */
	DLS_ASSERT_EQ_S64(dls_dequeue(&e->rq[0], &e->se[0], DLS_DEQUEUE_SLEEP), 0);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], DLS_DEQUEUE_DONE), DLS_ENOTRUNNABLE);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], DLS_DEQUEUE_SLEEP), DLS_ENOTRUNNABLE);
	DLS_ASSERT_EQ_U64(e->se[0].stats.jobs_done, 0);
	free(e);
}

static void test_current(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	attach(e, 0, 1);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	REFUSED(e, dls_put_prev(&e->rq[0], &e->se[0]), DLS_ENOTCURR);
	REFUSED(e, dls_set_curr(&e->rq[0], &e->se[1]), DLS_ENOTQUEUED);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e->rq[0]), &e->se[0]);
	e->fp.now += 10; /* a refused call must not charge */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[1]), 0);
	REFUSED(e, dls_put_prev(&e->rq[0], &e->se[1]), DLS_ENOTCURR);
	REFUSED(e, dls_set_curr(&e->rq[0], &e->se[1]), DLS_EHASCURR);
	/* pick_next with an entity still current: that one, unchanged. */
	REFUSED(e, dls_pick_next(&e->rq[0]) == &e->se[0] ? 0 : -1, 0);
	free(e);
}

/* Unknown flag bits were ignored: a caller's typo (or a flag of a newer
 * version) ran as something else. */
static void test_unknown_flags(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[0], 0x4u), DLS_EFLAGS);
	REFUSED(e, dls_enqueue(&e->rq[0], &e->se[0], DLS_ENQUEUE_WAKEUP | 0x80000000u),
		DLS_EFLAGS);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], 0x4u), DLS_EFLAGS);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], DLS_DEQUEUE_SLEEP | 0x100u),
		DLS_EFLAGS);
	CU_ASSERT_TRUE(e->se[0].queued);
	free(e);
}

/* dls_dequeue() with no flag on an entity off the tree returned 0 having
 * done nothing: now a code, and nothing changes (not even a charge). */
static void test_dequeue_not_queued(void)
{
	struct env *e = env_new(false);

	attach(e, 0, 0);
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], 0), DLS_ENOTQUEUED); /* blocked */
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e->rq[0]), &e->se[0]);
	e->fp.now += 1 * MS;
	dls_tick(&e->rq[0]);
	CU_ASSERT_TRUE(e->se[0].throttled); /* runnable, current, not queued */
	e->fp.now += 10;
	REFUSED(e, dls_dequeue(&e->rq[0], &e->se[0], 0), DLS_ENOTQUEUED);
	free(e);
}

/* dls_smp_init() on misaligned storage wrote the struct through it (a
 * misaligned store: UBSan, a fault on strict-alignment MCUs) before the
 * mask initialisation refused it. */
static void test_smp_storage_misaligned(void)
{
	struct env *e = env_new(false);

	memset(e->smp_mem, 0xa5, sizeof(e->smp_mem));
	REFUSED(e, dls_smp_init(&e->dom, e->smp_mem + 1, dls_smp_size(NCPU)), DLS_EINVAL);
	REFUSED(e, dls_smp_init(&e->dom, e->smp_mem + 2, dls_smp_size(NCPU)), DLS_EINVAL);
	CU_ASSERT_PTR_NULL(e->dom.smp);
	DLS_ASSERT_EQ_S64(dls_smp_init(&e->dom, e->smp_mem, dls_smp_size(NCPU)), 0);
	free(e);
}

static void count_stranded(void *arg, struct dls_entity *se)
{
	(void)se;
	++*(int *)arg;
}

/*
 * An entity pinned to CPU 1 is throttled there; CPU 1 goes offline and
 * strands it (smp.h, dls_cpu_offline()). Its replenishment timer then
 * queued it on the offline runqueue and asked CPU 1 to reschedule, and
 * dls_schedule() there returned it and charged it. Now the offline CPU is
 * not asked, picks nothing and charges nothing; the entity runs when the
 * CPU comes back.
 */
static void test_offline_cpu_schedules_nothing(void)
{
	struct env *e = env_new(true);
	struct dls_cpumask *m = (struct dls_cpumask *)(void *)e->mask_mem;
	struct dls_entity *se = &e->se[0];
	int stranded = 0;
	int64_t runtime;

	CU_ASSERT_EQUAL_FATAL(dls_cpumask_init(m, sizeof(e->mask_mem), NCPU), 0);
	dls_cpumask_set(m, 1);
	attach(e, 1, 0);
	DLS_ASSERT_EQ_S64(dls_entity_set_affinity(se, m), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[1], se), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e->rq[1]), se);
	e->fp.now += 1 * MS;
	dls_tick(&e->rq[1]);
	CU_ASSERT_TRUE_FATAL(se->throttled);
	DLS_ASSERT_EQ_S64(dls_cpu_offline(&e->dom, 1, true, count_stranded, &stranded), 0);
	DLS_ASSERT_EQ_S64(stranded, 1);
	CU_ASSERT_TRUE(fake_take_resched(&e->fp, 1)); /* stop running it */
	CU_ASSERT_PTR_NULL(e->rq[1].curr);
	CU_ASSERT_PTR_NULL(dls_schedule(&e->rq[1]));

	e->fp.now += 9 * MS; /* its next period: replenished, queued there */
	DLS_ASSERT_EQ_U64(fake_fire_due(&e->fp), 1);
	CU_ASSERT_FALSE(se->throttled);
	CU_ASSERT_TRUE(se->queued);
	CU_ASSERT_PTR_EQUAL(se->rq, &e->rq[1]);
	CU_ASSERT_FALSE(fake_take_resched(&e->fp, 1));
	runtime = se->runtime;
	REFUSED(e, dls_set_curr(&e->rq[1], se), DLS_EOFFLINE);
	CU_ASSERT_STRING_EQUAL(dls_errname(DLS_EOFFLINE), "DLS_EOFFLINE");
	CU_ASSERT_STRING_EQUAL(dls_strerror(DLS_EOFFLINE), "the runqueue's CPU is offline");
	REFUSED(e, dls_pick_next(&e->rq[1]) == NULL ? 0 : -1, 0);
	CU_ASSERT_PTR_NULL(dls_schedule(&e->rq[1]));
	e->fp.now += 1 * MS;
	CU_ASSERT_PTR_NULL(dls_schedule(&e->rq[1]));
	dls_tick(&e->rq[1]);
	DLS_ASSERT_EQ_S64(se->runtime, runtime); /* not charged */
	CU_ASSERT_PTR_NULL(e->rq[1].curr);
	check(e);

	DLS_ASSERT_EQ_S64(dls_cpu_online(&e->dom, 1), 0);
	CU_ASSERT_TRUE(fake_take_resched(&e->fp, 1));
	CU_ASSERT_PTR_EQUAL(dls_schedule(&e->rq[1]), se);
	check(e);
	free(e);
}

/* 270% of one CPU was once admitted; 100% and "unlimited" stay valid. */
static void test_bw_limit_over_one_cpu(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[1];
	struct dls_domain_config cfg;

	fake_init(&fp, 0);
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNIT * 27 / 10;
	DLS_ASSERT_EQ_S64(dls_domain_init(&dom, &fake_ops_notrace, &fp, &cfg, rq, 1),
			  DLS_EINVAL);
	cfg.bw_limit = DLS_BW_UNIT + 1;
	DLS_ASSERT_EQ_S64(dls_domain_init(&dom, &fake_ops_notrace, &fp, &cfg, rq, 1),
			  DLS_EINVAL);
	cfg.bw_limit = DLS_BW_UNIT;
	DLS_ASSERT_EQ_S64(dls_domain_init(&dom, &fake_ops_notrace, &fp, &cfg, rq, 1), 0);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	DLS_ASSERT_EQ_S64(dls_domain_init(&dom, &fake_ops_notrace, &fp, &cfg, rq, 1), 0);
}

static void test_affinity_mask_size(void)
{
	struct env *e = env_new(true);
	struct dls_cpumask *m = (struct dls_cpumask *)(void *)e->mask_mem;

	attach(e, 0, 0);
	CU_ASSERT_EQUAL_FATAL(dls_cpumask_init(m, sizeof(e->mask_mem), NCPU + 2), 0);
	dls_cpumask_fill(m);
	REFUSED(e, dls_entity_set_affinity(&e->se[0], m), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_wakeup(&e->rq[0], &e->se[0]), 0);
	REFUSED(e, dls_entity_set_affinity(&e->se[0], m), DLS_EINVAL);
	CU_ASSERT_PTR_NULL(e->se[0].allowed);
	free(e);
}

static void test_move(void)
{
	struct env *g = env_new(true), *p = env_new(false);

	attach(g, 0, 0);
	REFUSED(g, dls_entity_move(&g->se[1], &g->rq[1]), DLS_EDETACHED);
	DLS_ASSERT_EQ_S64(dls_wakeup(&g->rq[0], &g->se[0]), 0);
	CU_ASSERT_PTR_EQUAL(dls_schedule(&g->rq[0]), &g->se[0]);
	REFUSED(g, dls_entity_move(&g->se[0], &g->rq[1]), DLS_ERUNNING);
	/* A partitioned domain never moves an entity. */
	attach(p, 0, 0);
	REFUSED(p, dls_entity_move(&p->se[0], &p->rq[1]), DLS_ESTATE);
	free(g);
	free(p);
}

/* PI: a blocked task asking for another lock, a task releasing a mutex it
 * does not own. a owns m1, b waits on m1 (boosting a); c is free. */
struct pi_env {
	struct dls_pi_ctx pi;
	struct dls_pi_task a, b, c;
	struct dls_pi_mutex m1, m2;
	struct dls_pi_waiter wb, wb2, wc;
};

static void pi_check(struct pi_env *p)
{
	struct dls_pi_task *const tasks[] = { &p->a, &p->b, &p->c };
	struct dls_pi_mutex *const locks[] = { &p->m1, &p->m2 };

	DLS_ASSERT_VALID(dls_pi_check(tasks, 3, locks, 2));
}

#define PI_REFUSED(p, call, want)                                              \
	do {                                                                   \
		struct pi_env *snap_ = malloc(sizeof(*(p)));                   \
		CU_ASSERT_PTR_NOT_NULL_FATAL(snap_);                           \
		memcpy(snap_, (p), sizeof(*(p)));                              \
		CU_ASSERT((call) == (want));                                   \
		pi_check(p);                                                   \
		CU_ASSERT_EQUAL(memcmp(snap_, (p), sizeof(*(p))), 0);          \
		free(snap_);                                                   \
	} while (0)

static void test_pi(void)
{
	struct pi_env *p = calloc(1, sizeof(*p));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	dls_pi_ctx_init(&p->pi, NULL, NULL);
	dls_pi_task_init(&p->a, 50, true, 300);
	dls_pi_task_init(&p->b, 50, true, 100);
	dls_pi_task_init(&p->c, 50, true, 200);
	dls_pi_mutex_init(&p->m1);
	dls_pi_mutex_init(&p->m2);
	DLS_ASSERT_EQ_S64(dls_pi_lock(&p->pi, &p->a, &p->m1, NULL), 0);
	DLS_ASSERT_EQ_S64(dls_pi_lock(&p->pi, &p->b, &p->m1, &p->wb), DLS_PI_BLOCKED);
	pi_check(p);
	/* b is blocked: it cannot ask for (or try) a second lock. */
	PI_REFUSED(p, dls_pi_lock(&p->pi, &p->b, &p->m2, &p->wb2), DLS_EBLOCKED);
	PI_REFUSED(p, dls_pi_trylock(&p->b, &p->m2), false);
	/* Only the owner releases m1; m2 is nobody's. */
	PI_REFUSED(p, dls_pi_unlock(&p->pi, &p->c, &p->m1), NULL);
	PI_REFUSED(p, dls_pi_unlock(&p->pi, &p->b, &p->m1), NULL);
	PI_REFUSED(p, dls_pi_unlock(&p->pi, &p->c, &p->m2), NULL);
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&p->pi, &p->a, &p->m1), &p->b);
	pi_check(p);
	free(p);
}

#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
/* NULL is a precondition (common.h): checked builds stop on it. */
static void wakeup_null_rq(void *arg)
{
	struct env *e = arg;

	dls_wakeup(NULL, &e->se[0]);
}

static void attach_null_entity(void *arg)
{
	struct env *e = arg;
	struct dls_params p = { .runtime = 1 * MS, .deadline = 10 * MS };

	dls_entity_attach(&e->rq[0], NULL, &p);
}

static void test_null_asserted(void)
{
	struct env *e = env_new(false);
	enum dls_test_child r;

	attach(e, 0, 0);
	r = dls_test_run_child(wakeup_null_rq, e, 5000);
	if (r != DLS_CHILD_HUNG)
		CU_ASSERT_EQUAL(r, DLS_CHILD_ABORTED);
	r = dls_test_run_child(attach_null_entity, e, 5000);
	if (r != DLS_CHILD_HUNG)
		CU_ASSERT_EQUAL(r, DLS_CHILD_ABORTED);
	free(e);
}
#endif

static const struct dls_test_case cases[] = {
#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
	{ "NULL is asserted in checked builds", test_null_asserted },
#endif
	{ "dls_wakeup twice", test_wakeup_twice },
	{ "calls on the wrong runqueue", test_wrong_runqueue },
	{ "calls on an unattached entity", test_detached },
	{ "dls_enqueue on a queued entity", test_enqueue_queued },
	{ "attach an attached entity", test_attach_twice },
	{ "job done by an entity that is not runnable", test_done_not_runnable },
	{ "put_prev / set_curr / pick_next against the current", test_current },
	{ "bandwidth limit above one CPU", test_bw_limit_over_one_cpu },
	{ "affinity mask of another CPU count", test_affinity_mask_size },
	{ "dls_entity_move: detached, running, partitioned", test_move },
	{ "PI: a blocked task locks, a non-owner unlocks", test_pi },
	{ "unknown enqueue / dequeue flags", test_unknown_flags },
	{ "dls_dequeue with no flag on an entity off the tree", test_dequeue_not_queued },
	{ "dls_smp_init on misaligned storage", test_smp_storage_misaligned },
	{ "an offline CPU picks and charges nothing", test_offline_cpu_schedules_nothing },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "misuse", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
