/*
 * POSIX PI mutex with real threads: an exact boost/deboost handshake, a
 * refused self-deadlock, and several threads taking contended, nested
 * mutexes in a fixed order, with plain (non-atomic) counters that only the
 * mutexes protect. Meant to run clean under ThreadSanitizer.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <dlsched/pi_posix.h>

#include "dls_test.h"

struct boost_rec {
	unsigned long calls; /* written under the domain lock */
};

static void on_boost(void *ctx, struct dls_pi_task *t)
{
	(void)t;
	((struct boost_rec *)ctx)->calls++;
}

static const struct dls_pi_ops ops = { .boost_changed = on_boost };

static struct dls_pi_key eff_locked(struct dls_pi_posix *d, struct dls_pi_posix_thread *th)
{
	struct dls_pi_key k;

	pthread_mutex_lock(&d->lock);
	k = th->task.eff;
	pthread_mutex_unlock(&d->lock);
	return k;
}

struct handshake {
	struct dls_pi_posix *d;
	struct dls_pi_posix_thread *th;
	struct dls_pi_posix_mutex *m;
	int rc;
};

static void *lock_unlock_main(void *arg)
{
	struct handshake *h = arg;

	h->rc = dls_pi_posix_lock(h->d, h->th, h->m);
	if (h->rc == 0)
		h->rc = dls_pi_posix_unlock(h->d, h->th, h->m);
	return NULL;
}

/* The owner runs with a blocked deadline thread's deadline until it
 * unlocks; then it is deboosted and the waiter owns the mutex. */
static void test_boost_handshake(void)
{
	struct dls_pi_posix d;
	struct dls_pi_posix_thread lo, hi;
	struct dls_pi_posix_mutex m;
	struct boost_rec rec = { 0 };
	struct handshake h;
	pthread_t tid;
	struct dls_pi_key k;

	DLS_TEST_SKIP_WITHOUT_THREADS();
	CU_ASSERT_FATAL(dls_pi_posix_init(&d, &ops, &rec) == 0);
	dls_pi_posix_mutex_init(&d, &m);
	CU_ASSERT_FATAL(dls_pi_posix_thread_init(&d, &lo, 50, false, 0) == 0);
	CU_ASSERT_FATAL(dls_pi_posix_thread_init(&d, &hi, 60, true, UINT64_MAX - 5) == 0);

	DLS_ASSERT_EQ_S64(dls_pi_posix_lock(&d, &lo, &m), 0);
	DLS_ASSERT_EQ_S64(dls_pi_posix_lock(&d, &lo, &m), DLS_EDEADLK);
	DLS_ASSERT_EQ_S64(dls_pi_posix_trylock(&d, &hi, &m), DLS_EBUSY);
	DLS_ASSERT_EQ_S64(dls_pi_posix_unlock(&d, &hi, &m), DLS_EINVAL);
	h = (struct handshake){ &d, &hi, &m, -99 };
	CU_ASSERT_FATAL(pthread_create(&tid, NULL, lock_unlock_main, &h) == 0);
	do {
		sched_yield();
		k = eff_locked(&d, &lo);
	} while (!k.has_dl);
	DLS_ASSERT_EQ_U64(k.dl, UINT64_MAX - 5);
	DLS_ASSERT_EQ_S64(k.prio, 60);
	DLS_ASSERT_EQ_U64(rec.calls, 1);
	DLS_ASSERT_EQ_S64(dls_pi_posix_unlock(&d, &lo, &m), 0);
	pthread_join(tid, NULL);
	DLS_ASSERT_EQ_S64(h.rc, 0);
	k = eff_locked(&d, &lo);
	CU_ASSERT_FALSE(k.has_dl);
	DLS_ASSERT_EQ_S64(k.prio, 50);
	DLS_ASSERT_EQ_U64(rec.calls, 2);
	CU_ASSERT_PTR_NULL(m.m.owner);
	dls_pi_posix_thread_destroy(&lo);
	dls_pi_posix_thread_destroy(&hi);
	dls_pi_posix_destroy(&d);
}

enum { NTHREADS = 6, NLOCKS = 3 };

struct shared {
	struct dls_pi_posix d;
	struct dls_pi_posix_mutex m[NLOCKS];
	struct dls_pi_posix_thread th[NTHREADS];
	unsigned long counter[NLOCKS]; /* protected by m[i] only */
	unsigned long iters;
};

struct worker {
	struct shared *s;
	int id;
	unsigned long taken[NLOCKS];
	int errors;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *s = w->s;
	struct dls_pi_posix_thread *me = &s->th[w->id];
	struct dls_test_rng r;

	dls_test_rng_seed(&r, 0x5150ULL + (uint64_t)w->id);
	for (unsigned long it = 0; it < s->iters; it++) {
		unsigned int set = (unsigned int)dls_test_rng_below(&r, 7) + 1;

		/* nested, always in index order: no cycle possible */
		for (int i = 0; i < NLOCKS; i++) {
			if (!(set & (1u << i)))
				continue;
			if (dls_pi_posix_lock(&s->d, me, &s->m[i]) != 0)
				w->errors++;
			s->counter[i]++;
			w->taken[i]++;
		}
		for (int i = NLOCKS - 1; i >= 0; i--)
			if ((set & (1u << i)) && dls_pi_posix_unlock(&s->d, me, &s->m[i]) != 0)
				w->errors++;
	}
	return NULL;
}

/* Contended nested locks: the counters add up, every mutex ends free and
 * every thread unboosted, the validator holds throughout. */
static void test_threads_nested(void)
{
	static struct shared s;
	struct worker w[NTHREADS];
	pthread_t tid[NTHREADS];
	struct dls_pi_posix_thread *ths[NTHREADS];
	struct dls_pi_posix_mutex *ms[NLOCKS];
	struct boost_rec rec = { 0 };
	unsigned long expect[NLOCKS] = { 0 };
	int checks = 0;

	DLS_TEST_SKIP_WITHOUT_THREADS();
	s.iters = dls_test_scaled(20000);
	CU_ASSERT_FATAL(dls_pi_posix_init(&s.d, &ops, &rec) == 0);
	for (int i = 0; i < NLOCKS; i++) {
		dls_pi_posix_mutex_init(&s.d, &s.m[i]);
		s.counter[i] = 0;
		ms[i] = &s.m[i];
	}
	for (int i = 0; i < NTHREADS; i++) {
		/* half deadline threads, half priority-only */
		CU_ASSERT_FATAL(dls_pi_posix_thread_init(&s.d, &s.th[i], 10 + i, i % 2 == 0,
							  1000u * (uint64_t)(NTHREADS - i)) == 0);
		ths[i] = &s.th[i];
		w[i] = (struct worker){ .s = &s, .id = i };
	}
	for (int i = 0; i < NTHREADS; i++)
		CU_ASSERT_FATAL(pthread_create(&tid[i], NULL, worker_main, &w[i]) == 0);
	for (int i = 0; i < 200; i++, checks++) {
		DLS_ASSERT_VALID(dls_pi_posix_check(&s.d, ths, NTHREADS, ms, NLOCKS));
		sched_yield();
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < NTHREADS; i++) {
		DLS_ASSERT_EQ_S64(w[i].errors, 0);
		for (int k = 0; k < NLOCKS; k++)
			expect[k] += w[i].taken[k];
	}
	for (int k = 0; k < NLOCKS; k++) {
		DLS_ASSERT_EQ_U64(s.counter[k], expect[k]);
		CU_ASSERT_PTR_NULL(s.m[k].m.owner);
	}
	for (int i = 0; i < NTHREADS; i++) {
		CU_ASSERT_FALSE(s.th[i].task.boosted);
		CU_ASSERT_PTR_NULL(s.th[i].task.blocked_on);
		dls_pi_posix_thread_destroy(&s.th[i]);
	}
	DLS_ASSERT_VALID(dls_pi_posix_check(&s.d, ths, NTHREADS, ms, NLOCKS));
	printf("  %lu iterations x %d threads, %lu boost changes, %d checks\n",
	       s.iters, NTHREADS, rec.calls, checks);
	dls_pi_posix_destroy(&s.d);
}

static const struct dls_test_case cases[] = {
	{ "boost handshake with a blocked deadline thread", test_boost_handshake },
	{ "contended nested locks, several threads", test_threads_nested },
	{ NULL, NULL }
};

static const struct dls_test_suite suites[] = {
	{ "pi_posix", cases },
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
