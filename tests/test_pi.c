/*
 * Priority and deadline inheritance: exact chain scenarios, deadlock
 * detection with nothing changed, the depth bound, waiter removal mid-
 * chain, FIFO among equals, the "RT donor without a deadline" regression,
 * and random lock graphs validated after every operation against a
 * from-scratch recomputation.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/pi.h>

#include "dls_test.h"

struct rec {
	unsigned int calls;
	struct dls_pi_task *last;
};

static void on_boost(void *ctx, struct dls_pi_task *t)
{
	struct rec *r = ctx;

	r->calls++;
	r->last = t;
}

static const struct dls_pi_ops ops = { .boost_changed = on_boost };

#define CHECKT(tasks, n, locks, m) DLS_ASSERT_VALID(dls_pi_check((tasks), (n), (locks), (m)))

/* A waits on L1 held by B, B waits on L2 held by C: C runs with A's
 * deadline; unlocks deboost step by step. */
static void test_chain(void)
{
	struct dls_pi_ctx pi;
	struct rec r = { 0 };
	struct dls_pi_task a, b, c;
	struct dls_pi_mutex l1, l2;
	struct dls_pi_waiter wa, wb;
	struct dls_pi_task *ts[3] = { &a, &b, &c };
	struct dls_pi_mutex *ls[2] = { &l1, &l2 };

	dls_pi_ctx_init(&pi, &ops, &r);
	dls_pi_task_init(&a, 50, true, 100);
	dls_pi_task_init(&b, 50, true, 200);
	dls_pi_task_init(&c, 50, true, 300);
	dls_pi_mutex_init(&l1);
	dls_pi_mutex_init(&l2);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &c, &l2, NULL), 0);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &b, &l1, NULL), 0);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &b, &l2, &wb), DLS_PI_BLOCKED);
	CU_ASSERT_TRUE(c.boosted);
	DLS_ASSERT_EQ_U64(c.eff.dl, 200);
	CHECKT(ts, 3, ls, 2);
	r.calls = 0;
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &a, &l1, &wa), DLS_PI_BLOCKED);
	/* b and c both inherit a's deadline: exactly two notifications. */
	CU_ASSERT_EQUAL(r.calls, 2);
	DLS_ASSERT_EQ_U64(b.eff.dl, 100);
	DLS_ASSERT_EQ_U64(c.eff.dl, 100);
	CU_ASSERT_PTR_EQUAL(b.donor, &a);
	CU_ASSERT_PTR_EQUAL(c.donor, &b);
	CU_ASSERT_PTR_NULL(a.donor);
	CHECKT(ts, 3, ls, 2);
	/* c unlocks L2: b owns it, keeps a's deadline; c back to its own. */
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&pi, &c, &l2), &b);
	CU_ASSERT_FALSE(c.boosted);
	CU_ASSERT_PTR_NULL(c.donor);
	DLS_ASSERT_EQ_U64(c.eff.dl, 300);
	DLS_ASSERT_EQ_U64(b.eff.dl, 100);
	CHECKT(ts, 3, ls, 2);
	/* b unlocks L1: a owns it; b deboosts. */
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&pi, &b, &l1), &a);
	CU_ASSERT_FALSE(b.boosted);
	DLS_ASSERT_EQ_U64(b.eff.dl, 200);
	CHECKT(ts, 3, ls, 2);
	CU_ASSERT_PTR_NULL(dls_pi_unlock(&pi, &b, &l2));
	CU_ASSERT_PTR_NULL(dls_pi_unlock(&pi, &a, &l1));
	CU_ASSERT_PTR_NULL(l1.owner);
}

/* Mixed: a deadline waiter boosts a priority-only owner into deadline
 * order; a priority waiter boosts only the priority of a priority owner. */
static void test_mixed(void)
{
	struct dls_pi_ctx pi;
	struct dls_pi_task o, rt, dl;
	struct dls_pi_mutex m;
	struct dls_pi_waiter w1, w2;

	dls_pi_ctx_init(&pi, NULL, NULL);
	dls_pi_task_init(&o, 90, false, 0);
	dls_pi_task_init(&rt, 10, false, 0);
	dls_pi_task_init(&dl, 99, true, 500);
	dls_pi_mutex_init(&m);
	dls_pi_lock(&pi, &o, &m, NULL);
	dls_pi_lock(&pi, &rt, &m, &w1);
	CU_ASSERT_FALSE(o.eff.has_dl);
	CU_ASSERT_EQUAL(o.eff.prio, 10);
	dls_pi_lock(&pi, &dl, &m, &w2);
	CU_ASSERT_TRUE(o.eff.has_dl);
	DLS_ASSERT_EQ_U64(o.eff.dl, 500);
	/* the deadline waiter is the top, ahead of the RT one */
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&pi, &o, &m), &dl);
}

/* Linux shipped a bug where an RT donor (no deadline, so deadline 0)
 * boosted a deadline task to deadline 0. Here it cannot change it. */
static void test_rt_donor_keeps_deadline(void)
{
	struct dls_pi_ctx pi;
	struct rec r = { 0 };
	struct dls_pi_task owner, donor;
	struct dls_pi_mutex m;
	struct dls_pi_waiter w;

	dls_pi_ctx_init(&pi, &ops, &r);
	dls_pi_task_init(&owner, 120, true, 1000);
	dls_pi_task_init(&donor, 1, false, 0);
	dls_pi_mutex_init(&m);
	dls_pi_lock(&pi, &owner, &m, NULL);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &donor, &m, &w), DLS_PI_BLOCKED);
	CU_ASSERT_FALSE(owner.boosted);
	CU_ASSERT_TRUE(owner.eff.has_dl);
	DLS_ASSERT_EQ_U64(owner.eff.dl, 1000);
	CU_ASSERT_EQUAL(r.calls, 0);
}

static void snapshot(const struct dls_pi_task *const *t, size_t n, struct dls_pi_task *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = *t[i];
}

static bool same(const struct dls_pi_task *const *t, size_t n, const struct dls_pi_task *snap)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(t[i], &snap[i], sizeof(snap[i])))
			return false;
	return true;
}

static void test_deadlock(void)
{
	struct dls_pi_ctx pi;
	struct dls_pi_task a, b, c, snap[3];
	struct dls_pi_mutex m1, m2, m3, msnap[3];
	struct dls_pi_waiter wsnap;
	struct dls_pi_waiter wa, wb, wc;
	const struct dls_pi_task *ts[3] = { &a, &b, &c };

	dls_pi_ctx_init(&pi, NULL, NULL);
	dls_pi_task_init(&a, 1, true, 10);
	dls_pi_task_init(&b, 2, true, 20);
	dls_pi_task_init(&c, 3, true, 30);
	dls_pi_mutex_init(&m1);
	dls_pi_mutex_init(&m2);
	dls_pi_mutex_init(&m3);
	/* self-deadlock */
	dls_pi_lock(&pi, &a, &m1, NULL);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &a, &m1, &wa), DLS_EDEADLK);
	/* 2-cycle: a holds m1, b holds m2, a waits m2, b asks m1 */
	dls_pi_lock(&pi, &b, &m2, NULL);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &a, &m2, &wa), DLS_PI_BLOCKED);
	snapshot(ts, 3, snap);
	msnap[0] = m1, msnap[1] = m2, msnap[2] = m3, wsnap = wa;
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &b, &m1, &wb), DLS_EDEADLK);
	CU_ASSERT_TRUE(same(ts, 3, snap));
	CU_ASSERT_TRUE(!memcmp(&m1, &msnap[0], sizeof(m1)) && !memcmp(&m2, &msnap[1], sizeof(m2)) &&
		       !memcmp(&m3, &msnap[2], sizeof(m3)) && !memcmp(&wa, &wsnap, sizeof(wa)));
	DLS_ASSERT_EQ_U64(pi.seq, 1); /* the refused request took no FIFO ticket */
	/* 3-cycle: c holds m3, b waits m3, c asks m1 (held by a, who waits on
	 * m2 held by b) */
	dls_pi_lock(&pi, &c, &m3, NULL);
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &b, &m3, &wb), DLS_PI_BLOCKED);
	snapshot(ts, 3, snap);
	msnap[0] = m1, msnap[1] = m2, msnap[2] = m3, wsnap = wb;
	CU_ASSERT_EQUAL(dls_pi_lock(&pi, &c, &m1, &wc), DLS_EDEADLK);
	CU_ASSERT_TRUE(same(ts, 3, snap));
	CU_ASSERT_TRUE(!memcmp(&m1, &msnap[0], sizeof(m1)) && !memcmp(&m2, &msnap[1], sizeof(m2)) &&
		       !memcmp(&m3, &msnap[2], sizeof(m3)) && !memcmp(&wb, &wsnap, sizeof(wb)));
	{
		struct dls_pi_task *tt[3] = { &a, &b, &c };
		struct dls_pi_mutex *ll[3] = { &m1, &m2, &m3 };

		CHECKT(tt, 3, ll, 3);
	}
}

static void test_depth_limit(void)
{
	enum { N = 8 };
	struct dls_pi_ctx pi;
	struct dls_pi_task t[N + 1];
	struct dls_pi_mutex m[N];
	struct dls_pi_waiter w[N + 1];

	dls_pi_ctx_init(&pi, NULL, NULL);
	pi.max_depth = 4;
	for (int i = 0; i <= N; i++)
		dls_pi_task_init(&t[i], 50, false, 0);
	for (int i = 0; i < N; i++) {
		dls_pi_mutex_init(&m[i]);
		dls_pi_lock(&pi, &t[i], &m[i], NULL);
	}
	/* t[i] waits on m[i+1]: chains grow one owner at a time. */
	for (int i = N - 2; i >= 0; i--) {
		int depth = N - 2 - i; /* owners blocked behind m[i+1] */
		struct dls_pi_mutex before = m[i + 1];
		struct dls_pi_task tb = t[i], ob = t[i + 1];
		int rc = dls_pi_lock(&pi, &t[i], &m[i + 1], &w[i]);

		CU_ASSERT_EQUAL(rc, depth > 4 ? DLS_ELOOP : DLS_PI_BLOCKED);
		if (rc != DLS_PI_BLOCKED) {
			/* refused: nothing changed */
			CU_ASSERT_TRUE(!memcmp(&before, &m[i + 1], sizeof(before)) &&
				       !memcmp(&tb, &t[i], sizeof(tb)) &&
				       !memcmp(&ob, &t[i + 1], sizeof(ob)));
			CU_ASSERT_EQUAL(i, N - 2 - 5);
			break;
		}
	}
	{
		struct dls_pi_task *tt[N + 1];
		struct dls_pi_mutex *ll[N];

		for (int i = 0; i <= N; i++)
			tt[i] = &t[i];
		for (int i = 0; i < N; i++)
			ll[i] = &m[i];
		CHECKT(tt, N + 1, ll, N);
	}
}

static void test_remove_mid_chain_and_fifo(void)
{
	struct dls_pi_ctx pi;
	struct dls_pi_task a, b, c, d;
	struct dls_pi_mutex l1, l2;
	struct dls_pi_waiter wa, wb, wd;
	struct dls_pi_task *ts[4] = { &a, &b, &c, &d };
	struct dls_pi_mutex *ls[2] = { &l1, &l2 };

	dls_pi_ctx_init(&pi, NULL, NULL);
	dls_pi_task_init(&a, 50, true, 100);
	dls_pi_task_init(&b, 50, true, 200);
	dls_pi_task_init(&c, 50, true, 300);
	dls_pi_task_init(&d, 50, true, 100); /* same deadline as a */
	dls_pi_mutex_init(&l1);
	dls_pi_mutex_init(&l2);
	dls_pi_lock(&pi, &c, &l2, NULL);
	dls_pi_lock(&pi, &b, &l1, NULL);
	dls_pi_lock(&pi, &b, &l2, &wb);
	dls_pi_lock(&pi, &a, &l1, &wa);
	dls_pi_lock(&pi, &d, &l1, &wd);
	DLS_ASSERT_EQ_U64(c.eff.dl, 100);
	CHECKT(ts, 4, ls, 2);
	/* b gives up waiting (timeout): c deboosts to its own deadline. */
	dls_pi_remove_waiter(&pi, &b);
	CU_ASSERT_PTR_NULL(b.blocked_on);
	DLS_ASSERT_EQ_U64(c.eff.dl, 300);
	DLS_ASSERT_EQ_U64(b.eff.dl, 100);
	CHECKT(ts, 4, ls, 2);
	/* Equal deadlines: a queued first, so a gets l1 first (FIFO). */
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&pi, &b, &l1), &a);
	CU_ASSERT_PTR_EQUAL(dls_pi_unlock(&pi, &a, &l1), &d);
	CHECKT(ts, 4, ls, 2);
	/* Changing a waiter's own deadline propagates. */
}

static void test_set_own_propagates(void)
{
	struct dls_pi_ctx pi;
	struct rec r = { 0 };
	struct dls_pi_task a, b;
	struct dls_pi_mutex m;
	struct dls_pi_waiter w;
	struct dls_pi_task *ts[2] = { &a, &b };
	struct dls_pi_mutex *ls[1] = { &m };

	dls_pi_ctx_init(&pi, &ops, &r);
	dls_pi_task_init(&a, 50, true, 500);
	dls_pi_task_init(&b, 50, true, 400);
	dls_pi_mutex_init(&m);
	dls_pi_lock(&pi, &b, &m, NULL);
	dls_pi_lock(&pi, &a, &m, &w);
	CU_ASSERT_FALSE(b.boosted);
	r.calls = 0;
	dls_pi_set_own(&pi, &a, 50, true, 300);
	CU_ASSERT_EQUAL(r.calls, 2); /* a itself, then b */
	DLS_ASSERT_EQ_U64(b.eff.dl, 300);
	CHECKT(ts, 2, ls, 1);
}

/* Random lock graphs: every operation is followed by the full check. */
/* Reference order, written independently of the library's. */
static bool ref_before(const struct dls_pi_key *a, const struct dls_pi_key *b)
{
	if (a->has_dl != b->has_dl)
		return a->has_dl;
	if (a->has_dl && a->dl != b->dl)
		return (int64_t)(a->dl - b->dl) < 0;
	return a->prio < b->prio;
}

static bool ref_equal(const struct dls_pi_key *a, const struct dls_pi_key *b)
{
	return !ref_before(a, b) && !ref_before(b, a) && a->has_dl == b->has_dl;
}

enum { RNT = 12, RNM = 6 };

struct rand_rec {
	struct dls_pi_task *t;
	unsigned int calls[RNT];
};

static void on_boost_rand(void *ctx, struct dls_pi_task *t)
{
	struct rand_rec *r = ctx;

	r->calls[t - r->t]++;
}

/* Brute force: each task's own key flows to every owner down its chain of
 * waits (bounded: there are no cycles, so RNT steps reach the end). */
static void ref_effective(const struct dls_pi_task *t, struct dls_pi_key *best)
{
	for (int i = 0; i < RNT; i++)
		best[i] = t[i].own;
	for (int j = 0; j < RNT; j++) {
		const struct dls_pi_task *cur = &t[j];

		for (int step = 0; cur->blocked_on && step < RNT; step++) {
			cur = cur->blocked_on->lock->owner;
			if (ref_before(&t[j].own, &best[cur - t]))
				best[cur - t] = t[j].own;
		}
	}
}

/* Random lock graphs, deadlines around the u64 wrap: after every operation
 * the validator holds, every effective key equals the brute force, and
 * boost_changed ran exactly once for each task whose effective key or
 * boosted flag changed and for no other. */
static void test_random(void)
{
	const uint64_t base = UINT64_MAX - 500;
	struct dls_pi_ctx pi;
	struct dls_pi_task t[RNT];
	struct dls_pi_mutex m[RNM];
	struct dls_pi_waiter w[RNT];
	struct dls_pi_task *ts[RNT];
	struct dls_pi_mutex *ls[RNM];
	struct dls_pi_key before[RNT], ref[RNT];
	bool was_boosted[RNT];
	struct rand_rec rec = { .t = t };
	static const struct dls_pi_ops rops = { .boost_changed = on_boost_rand };
	struct dls_test_rng r;
	uint64_t ops_n = dls_test_scaled(100000), deadlocks = 0, blocks = 0, boosts = 0;

	dls_test_rng_seed(&r, dls_test_seed("pi random graphs", 0x91ULL));
	dls_pi_ctx_init(&pi, &rops, &rec);
	for (int i = 0; i < RNT; i++) {
		dls_pi_task_init(&t[i], (int)dls_test_rng_below(&r, 100),
				 dls_test_rng_below(&r, 2), base + dls_test_rng_below(&r, 1000));
		ts[i] = &t[i];
	}
	for (int i = 0; i < RNM; i++) {
		dls_pi_mutex_init(&m[i]);
		ls[i] = &m[i];
	}
	for (uint64_t op = 0; op < ops_n; op++) {
		int i = (int)dls_test_rng_below(&r, RNT), k = (int)dls_test_rng_below(&r, RNM);
		int rc;

		for (int j = 0; j < RNT; j++) {
			before[j] = t[j].eff;
			was_boosted[j] = t[j].boosted;
			rec.calls[j] = 0;
		}
		switch (dls_test_rng_below(&r, 4)) {
		case 0:
			if (t[i].blocked_on)
				break;
			rc = dls_pi_lock(&pi, &t[i], &m[k], &w[i]);
			deadlocks += rc == DLS_EDEADLK;
			blocks += rc == DLS_PI_BLOCKED;
			break;
		case 1:
			if (m[k].owner && !m[k].owner->blocked_on)
				dls_pi_unlock(&pi, m[k].owner, &m[k]);
			break;
		case 2:
			dls_pi_remove_waiter(&pi, &t[i]);
			break;
		default:
			dls_pi_set_own(&pi, &t[i], (int)dls_test_rng_below(&r, 100),
				       dls_test_rng_below(&r, 2),
				       base + dls_test_rng_below(&r, 1000));
			break;
		}
		DLS_ASSERT_VALID(dls_pi_check(ts, RNT, ls, RNM));
		ref_effective(t, ref);
		for (int j = 0; j < RNT; j++) {
			bool changed = !ref_equal(&before[j], &t[j].eff) ||
				       was_boosted[j] != t[j].boosted;

			if (!ref_equal(&ref[j], &t[j].eff) ||
			    rec.calls[j] != (changed ? 1u : 0u)) {
				printf("\n  op %llu task %d: eff (%d,%d,%llu) ref (%d,%d,%llu) calls %u changed %d\n",
				       (unsigned long long)op, j, t[j].eff.has_dl, t[j].eff.prio,
				       (unsigned long long)t[j].eff.dl, ref[j].has_dl, ref[j].prio,
				       (unsigned long long)ref[j].dl, rec.calls[j], changed);
				CU_FAIL_FATAL("effective key or boost_changed calls differ from the reference");
			}
			boosts += changed;
		}
	}
	printf("  %llu ops, %llu blocked, %llu deadlocks refused, %llu boost changes\n",
	       (unsigned long long)ops_n, (unsigned long long)blocks,
	       (unsigned long long)deadlocks, (unsigned long long)boosts);
	CU_ASSERT_TRUE(blocks > 0 && deadlocks > 0 && boosts > 0);
}

static const struct dls_test_case cases[] = {
	{ "chain A->L1->B->L2->C", test_chain },
	{ "mixed priority and deadline waiters", test_mixed },
	{ "RT donor keeps the deadline", test_rt_donor_keeps_deadline },
	{ "deadlock cycles, nothing changed", test_deadlock },
	{ "depth limit", test_depth_limit },
	{ "removal mid-chain, FIFO", test_remove_mid_chain_and_fifo },
	{ "own change propagates", test_set_own_propagates },
	{ "random lock graphs", test_random },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "pi", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
