/*
 * Properties of EDF + CBS on one CPU over random periodic task sets, driven
 * by a small event loop on the fake platform:
 *  - implicit deadlines, budgets equal to execution times and U <= 1: no
 *    job misses its deadline (Liu & Layland 1973, EDF optimality);
 *  - one task executing 3x its budget never makes another task miss
 *    (temporal isolation, Abeni & Buttazzo 1998);
 *  - U > 1 (admission disabled): misses occur.
 * The runqueue validator runs after every scheduling operation, and the
 * clock starts near the u64 wrap for half of the sets.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/sched.h>

#include "dls_test.h"
#include "fake_platform.h"

#define US UINT64_C(1000)
#define MAXT 8

struct task {
	struct dls_entity se;
	uint64_t period, exec;     /* job period and execution time */
	uint64_t next_release;
	uint64_t rem;              /* remaining execution of the current job */
	uint64_t job_deadline;     /* absolute deadline of the current job */
	unsigned int backlog;      /* releases waiting behind the current job */
	uint64_t backlog_dl[4];
	bool active;
	uint64_t jobs, misses;
};

struct sim {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct task t[MAXT];
	int n;
	uint64_t start;
	bool validate;
	const char *err;
};

static void sim_init(struct sim *s, uint64_t start, bool admission)
{
	struct dls_domain_config cfg;

	memset(s, 0, sizeof(*s));
	fake_init(&s->fp, start);
	dls_domain_config_default(&cfg);
	if (!admission)
		cfg.bw_limit = DLS_BW_UNLIMITED;
	dls_domain_init(&s->dom, &fake_ops, &s->fp, &cfg, &s->rq, 1);
	s->start = start;
	s->validate = true;
}

static int sim_add(struct sim *s, uint64_t budget, uint64_t period,
		   uint64_t exec)
{
	struct task *t = &s->t[s->n];
	struct dls_params p = { .runtime = budget, .deadline = period };
	int err;

	dls_entity_init(&t->se);
	err = dls_entity_attach(&s->rq, &t->se, &p);
	if (err)
		return err;
	t->period = period;
	t->exec = exec;
	t->next_release = s->start;
	s->n++;
	return 0;
}

static void check(struct sim *s)
{
	const char *e;

	if (!s->validate || s->err)
		return;
	e = dls_rq_check(&s->rq);
	if (e)
		s->err = e;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return dls_time_before(a, b) ? a : b;
}

static void job_done(struct sim *s, struct task *t)
{
	uint64_t now = s->fp.now;

	t->jobs++;
	if (dls_time_after(now, t->job_deadline))
		t->misses++;
	if (t->backlog) {
		t->job_deadline = t->backlog_dl[0];
		memmove(t->backlog_dl, t->backlog_dl + 1,
			(t->backlog - 1) * sizeof(uint64_t));
		t->backlog--;
		t->rem = t->exec;
		return; /* the server keeps serving the next job */
	}
	t->active = false;
	DLS_ASSERT_EQ_S64(dls_dequeue(&s->rq, &t->se, DLS_DEQUEUE_DONE), 0);
}

/* One event of the loop; false once the horizon is reached. */
static bool sim_step(struct sim *s, uint64_t end)
{
	struct dls_entity *cur = s->rq.curr;
	struct task *ct = cur ? dls_container_of(cur, struct task, se) : NULL;
	uint64_t next = end, tm;

	if (!dls_time_before(s->fp.now, end) || s->err)
		return false;
	for (int i = 0; i < s->n; i++)
		next = earliest(next, s->t[i].next_release);
	if (fake_next_timer(&s->fp, &tm))
		next = earliest(next, tm);
	if (ct && cur->queued) {
		next = earliest(next, s->fp.now + ct->rem);
		if (cur->runtime > 0)
			next = earliest(next, s->fp.now + (uint64_t)cur->runtime);
	}
	if (dls_time_before(next, s->fp.now))
		next = s->fp.now;
	if (ct && cur->queued)
		ct->rem -= next - s->fp.now;
	s->fp.now = next;

	dls_update_curr(&s->rq);
	check(s);
	if (ct && ct->active && ct->rem == 0) {
		job_done(s, ct);
		check(s);
	}
	fake_fire_due(&s->fp);
	check(s);
	for (int i = 0; i < s->n; i++) {
		struct task *t = &s->t[i];

		while (!dls_time_after(t->next_release, s->fp.now)) {
			uint64_t dl = t->next_release + t->period;

			if (!t->active) {
				t->active = true;
				t->rem = t->exec;
				t->job_deadline = dl;
				DLS_ASSERT_EQ_S64(dls_wakeup(&s->rq, &t->se), 0);
			} else if (t->backlog < 4) {
				t->backlog_dl[t->backlog++] = dl;
			} else {
				t->misses++; /* dropped: counts as a miss */
			}
			t->next_release += t->period;
			check(s);
		}
	}
	dls_schedule(&s->rq);
	check(s);
	return true;
}

static void sim_run(struct sim *s, uint64_t horizon)
{
	uint64_t end = s->start + horizon;
	unsigned long guard = 0;

	while (sim_step(s, end))
		if (++guard > 5000000) {
			s->err = "event loop made no progress";
			return;
		}
}

static const uint64_t periods[] = { 1000 * US, 2000 * US, 4000 * US,
				    5000 * US, 10000 * US, 20000 * US };

/*
 * A random task set of n tasks with total utilisation close to u_milli/1000
 * (never above it): random weights split u, execution times are rounded
 * down to whole ns and kept >= DLS_RUNTIME_MIN.
 */
static uint64_t random_set(struct sim *s, struct dls_test_rng *r, int n,
			   uint64_t u_milli, uint64_t exec_factor_task)
{
	uint64_t w[MAXT], wsum = 0, u_ppm = 0;

	for (int i = 0; i < n; i++) {
		w[i] = 1 + dls_test_rng_below(r, 1000);
		wsum += w[i];
	}
	for (int i = 0; i < n; i++) {
		uint64_t p = periods[dls_test_rng_below(r, 6)];
		/* q = p * u * w_i / wsum, in integer ns */
		uint64_t q = p / 1000 * u_milli * w[i] / wsum;
		uint64_t exec;

		if (q < 2 * DLS_RUNTIME_MIN)
			q = 2 * DLS_RUNTIME_MIN;
		if (q > p)
			q = p;
		exec = (uint64_t)i == exec_factor_task ? 3 * q : q;
		CU_ASSERT_EQUAL_FATAL(sim_add(s, q, p, exec), 0);
		u_ppm += q * 1000000 / p;
	}
	return u_ppm; /* utilisation of the budgets, in millionths */
}

static uint64_t seed_of(const char *what)
{
	return dls_test_seed(what, 0x5eedcb5ULL);
}

static void test_no_miss_u_le_1(void)
{
	struct dls_test_rng r;
	uint64_t sets = dls_test_scaled(10000), misses = 0, jobs = 0;
	struct sim *s = malloc(sizeof(*s));

	dls_test_rng_seed(&r, seed_of("U <= 1, no misses"));
	for (uint64_t k = 0; k < sets; k++) {
		uint64_t start = (k & 1) ? (uint64_t)0 - 50 * 1000 * US : k * 1000;
		int n = 1 + (int)dls_test_rng_below(&r, MAXT);
		uint64_t u = 500 + dls_test_rng_below(&r, 501); /* 0.5 .. 1.0 */

		sim_init(s, start, false);
		random_set(s, &r, n, u, UINT64_MAX);
		sim_run(s, 100 * 1000 * US);
		if (s->err)
			fprintf(stderr, "set %llu: %s\n", (unsigned long long)k, s->err);
		CU_ASSERT_PTR_NULL_FATAL(s->err);
		for (int i = 0; i < s->n; i++) {
			misses += s->t[i].misses + s->t[i].se.stats.misses;
			jobs += s->t[i].jobs;
		}
		if (misses) {
			fprintf(stderr, "set %llu (U=%llu/1000, n=%d) missed\n",
				(unsigned long long)k, (unsigned long long)u, n);
			break;
		}
	}
	printf("  %llu sets, %llu jobs, %llu misses\n", (unsigned long long)sets,
	       (unsigned long long)jobs, (unsigned long long)misses);
	CU_ASSERT_EQUAL(misses, 0);
	CU_ASSERT_TRUE(jobs > sets);
	free(s);
}

static void test_isolation(void)
{
	struct dls_test_rng r;
	uint64_t sets = dls_test_scaled(3000), victim_misses = 0, hog_throttles = 0;
	struct sim *s = malloc(sizeof(*s));

	dls_test_rng_seed(&r, seed_of("isolation"));
	for (uint64_t k = 0; k < sets; k++) {
		int n = 2 + (int)dls_test_rng_below(&r, MAXT - 1);
		uint64_t u = 500 + dls_test_rng_below(&r, 451); /* 0.5 .. 0.95 */

		sim_init(s, (k & 1) ? (uint64_t)0 - 30 * 1000 * US : 0, true);
		random_set(s, &r, n, u, 0); /* task 0 runs 3x its budget */
		sim_run(s, 100 * 1000 * US);
		CU_ASSERT_PTR_NULL_FATAL(s->err);
		hog_throttles += s->t[0].se.stats.throttles;
		for (int i = 1; i < s->n; i++)
			victim_misses += s->t[i].misses;
	}
	printf("  %llu sets, hog throttled %llu times, victims missed %llu\n",
	       (unsigned long long)sets, (unsigned long long)hog_throttles,
	       (unsigned long long)victim_misses);
	CU_ASSERT_EQUAL(victim_misses, 0);
	CU_ASSERT_TRUE(hog_throttles >= sets);
	free(s);
}

static void test_overload_misses(void)
{
	struct dls_test_rng r;
	uint64_t sets = dls_test_scaled(1000), sets_missing = 0, overloaded = 0;
	struct sim *s = malloc(sizeof(*s));

	dls_test_rng_seed(&r, seed_of("U > 1, misses"));
	for (uint64_t k = 0; k < sets; k++) {
		int n = 2 + (int)dls_test_rng_below(&r, MAXT - 1);
		uint64_t u = 1100 + dls_test_rng_below(&r, 400); /* 1.1 .. 1.5 */
		uint64_t m = 0;

		sim_init(s, 0, false);
		if (random_set(s, &r, n, u, UINT64_MAX) <= 1000000)
			continue; /* clamping Q <= P brought U back to 1 */
		overloaded++;
		sim_run(s, 100 * 1000 * US);
		CU_ASSERT_PTR_NULL_FATAL(s->err);
		for (int i = 0; i < s->n; i++)
			m += s->t[i].misses;
		sets_missing += m > 0;
	}
	printf("  %llu of %llu overloaded sets missed deadlines\n",
	       (unsigned long long)sets_missing, (unsigned long long)overloaded);
	CU_ASSERT_TRUE(overloaded > sets / 2);
	CU_ASSERT_EQUAL(sets_missing, overloaded);
	free(s);
}

/* Two runqueues on two platforms, stepped alternately, produce exactly the
 * traces each produces alone: no state is shared between domains. */
static void test_reentrancy(void)
{
	struct dls_test_rng r1, r2;
	struct sim *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint64_t alone_a, alone_b, horizon = 50 * 1000 * US;

	for (int round = 0; round < 20; round++) {
		dls_test_rng_seed(&r1, 1000 + (uint64_t)round);
		sim_init(a, 0, true);
		random_set(a, &r1, 5, 900, 1);
		sim_run(a, horizon);
		alone_a = a->fp.trace_hash;

		dls_test_rng_seed(&r2, 2000 + (uint64_t)round);
		sim_init(b, 777, true);
		random_set(b, &r2, 6, 800, UINT64_MAX);
		sim_run(b, horizon);
		alone_b = b->fp.trace_hash;

		dls_test_rng_seed(&r1, 1000 + (uint64_t)round);
		dls_test_rng_seed(&r2, 2000 + (uint64_t)round);
		sim_init(a, 0, true);
		random_set(a, &r1, 5, 900, 1);
		sim_init(b, 777, true);
		random_set(b, &r2, 6, 800, UINT64_MAX);
		bool more_a = true, more_b = true;
		while (more_a || more_b) {
			if (more_a)
				more_a = sim_step(a, horizon);
			if (more_b)
				more_b = sim_step(b, 777 + horizon);
		}
		CU_ASSERT_PTR_NULL(a->err);
		CU_ASSERT_PTR_NULL(b->err);
		DLS_ASSERT_EQ_U64(a->fp.trace_hash, alone_a);
		DLS_ASSERT_EQ_U64(b->fp.trace_hash, alone_b);
		CU_ASSERT_TRUE(a->fp.nr_events > 100);
	}
	free(a);
	free(b);
}

static const struct dls_test_case cases[] = {
	{ "U <= 1: no misses", test_no_miss_u_le_1 },
	{ "isolation from a 3x overrunning task", test_isolation },
	{ "U > 1: misses occur", test_overload_misses },
	{ "two domains interleaved", test_reentrancy },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "cbs properties", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
