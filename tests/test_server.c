/*
 * Server entities (server.h), driven by a small two-level event loop on the
 * fake platform: a host runqueue whose entities are plain tasks or servers,
 * each server backing a one-task inner queue or a guest domain (a second
 * libdlsched domain with its own platform, on the host's clock).
 *  - a server holding one task schedules exactly as a plain reservation
 *    with the same parameters (the hierarchical CBS with one task per
 *    server is the CBS: Lipari & Baruah, RTAS 2001, section 3): the same
 *    task runs at every event and the server's (deadline, runtime) and
 *    counters equal the task's, over random sets with overload, overruns
 *    and equal deadlines;
 *  - isolation: a guest whose tasks run 3x their budgets takes no time
 *    from another guest or from host reservations (Abeni & Buttazzo 1998,
 *    applied at the host level);
 *  - a guest whose tasks pass the periodic resource model test for its
 *    server (Shin & Lee, RTSS 2003, Theorem 1) misses no deadline;
 *  - three levels (a guest inside a guest) need no code of their own: a
 *    task behind two servers runs exactly what the tighter one allows
 *    (hand-derived, both orders of the budgets);
 *  - the deferred server (the fair server of Linux 6.12, commit a110a81c
 *    "sched/deadline: Deferrable dl server") gives the lower class its
 *    budget per period under starvation and runs not at all without it.
 * Every validator (host runqueue, guest runqueues, servers) runs after
 * every operation, and the clock starts near the u64 wrap for half of the
 * sets.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/analysis.h>
#include <dlsched/server.h>
#include <dlsched/smp.h>

#include "dls_test.h"
#include "fake_platform.h"

#define US UINT64_C(1000)
#define MS (1000 * US)
#define MAXT 12
#define MAXG 2

struct task {
	struct dls_entity se;
	uint64_t period, exec, budget;
	uint64_t next_release, rem, job_deadline;
	unsigned int backlog;
	uint64_t backlog_dl[4];
	bool active;
	uint64_t jobs, misses;
	struct dls_rq *rq;   /* where se is attached; NULL inside a solo server */
	int guest;           /* -1 on the host, else its guest */
};

struct guest {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_server srv;
};

struct sys {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct task t[MAXT];
	int n;
	struct guest g[MAXG];
	int ng;
	bool solo;               /* task 0 runs inside solo_srv */
	struct dls_server solo_srv;
	uint64_t start;
	int running;             /* task running, -1 */
	const char *err;
};

/* ---- a one-task inner queue ---- */

static bool solo_has_work(void *arg)
{
	return ((struct task *)arg)->active;
}

static void *solo_pick(void *arg, int cpu)
{
	struct task *t = arg;

	(void)cpu;
	return t->active ? &t->se : NULL;
}

static void solo_stop(void *arg, int cpu)
{
	(void)arg;
	(void)cpu;
}

static const struct dls_server_ops solo_ops = {
	.has_work = solo_has_work, .pick = solo_pick, .stop = solo_stop,
};

static void sys_init(struct sys *s, uint64_t start, bool admission)
{
	struct dls_domain_config cfg;

	memset(s, 0, sizeof(*s));
	fake_init(&s->fp, start);
	dls_domain_config_default(&cfg);
	if (!admission)
		cfg.bw_limit = DLS_BW_UNLIMITED;
	dls_domain_init(&s->dom, &fake_ops_notrace, &s->fp, &cfg, &s->rq, 1);
	s->start = start;
	s->running = -1;
}

static struct guest *sys_add_guest(struct sys *s, uint64_t q, uint64_t p)
{
	struct guest *g = &s->g[s->ng];
	struct dls_params sp = { .runtime = q, .deadline = p };

	fake_init(&g->fp, s->start);
	dls_domain_init(&g->dom, &fake_ops_notrace, &g->fp, NULL, &g->rq, 1);
	DLS_ASSERT_EQ_S64(dls_server_init(&g->srv, &dls_server_guest_ops, &g->rq, 0), 0);
	if (dls_server_attach(&s->rq, &g->srv, &sp))
		return NULL;
	DLS_ASSERT_EQ_S64(dls_server_guest_admit(&g->dom, &g->srv, 1), 0);
	s->ng++;
	return g;
}

/* A task with budget q, period p (= D) and execution time e per job, on the
 * host (guest -1) or in a guest. */
static int sys_add(struct sys *s, int guest, uint64_t q, uint64_t p, uint64_t e)
{
	struct task *t = &s->t[s->n];
	struct dls_params par = { .runtime = q, .deadline = p };
	int err = 0;

	memset(t, 0, sizeof(*t));
	dls_entity_init(&t->se);
	t->guest = guest;
	if (s->solo && s->n == 0) {
		DLS_ASSERT_EQ_S64(dls_server_init(&s->solo_srv, &solo_ops, t, 0), 0);
		err = dls_server_attach(&s->rq, &s->solo_srv, &par);
	} else {
		t->rq = guest < 0 ? &s->rq : &s->g[guest].rq;
		err = dls_entity_attach(t->rq, &t->se, &par);
	}
	if (err)
		return err;
	t->period = p;
	t->budget = q;
	t->exec = e;
	t->next_release = s->start;
	s->n++;
	return 0;
}

static void check(struct sys *s)
{
	const char *e;

	if (s->err)
		return;
	e = dls_rq_check(&s->rq);
	for (int i = 0; !e && i < s->ng; i++) {
		e = dls_rq_check(&s->g[i].rq);
		if (!e)
			e = dls_server_check(&s->g[i].srv);
	}
	if (!e && s->solo)
		e = dls_server_check(&s->solo_srv);
	s->err = e;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return dls_time_before(a, b) ? a : b;
}

static void wake(struct sys *s, struct task *t)
{
	if (!t->rq) {
		DLS_ASSERT_EQ_S64(dls_server_start(&s->rq, &s->solo_srv), 0);
		return;
	}
	DLS_ASSERT_EQ_S64(dls_wakeup(t->rq, &t->se), 0);
}

static void job_done(struct sys *s, struct task *t)
{
	t->jobs++;
	if (dls_time_after(s->fp.now, t->job_deadline))
		t->misses++;
	if (t->backlog) {
		t->job_deadline = t->backlog_dl[0];
		memmove(t->backlog_dl, t->backlog_dl + 1,
			(t->backlog - 1) * sizeof(uint64_t));
		t->backlog--;
		t->rem = t->exec;
		return;
	}
	t->active = false;
	if (!t->rq)
		DLS_ASSERT_EQ_S64(dls_server_stop(&s->rq, &s->solo_srv), 0);
	else
		DLS_ASSERT_EQ_S64(dls_dequeue(t->rq, &t->se, DLS_DEQUEUE_DONE), 0);
}

static int task_of(struct sys *s, const void *what)
{
	for (int i = 0; what && i < s->n; i++)
		if (what == &s->t[i].se)
			return i;
	return -1;
}

/* One event; false once the horizon is reached. */
static bool sys_step(struct sys *s, uint64_t end)
{
	struct task *ct = s->running >= 0 ? &s->t[s->running] : NULL;
	struct dls_entity *hc = s->rq.curr;
	uint64_t next = end, tm;
	void *what;

	if (!dls_time_before(s->fp.now, end) || s->err)
		return false;
	for (int i = 0; i < s->n; i++)
		next = earliest(next, s->t[i].next_release);
	if (fake_next_timer(&s->fp, &tm))
		next = earliest(next, tm);
	for (int i = 0; i < s->ng; i++)
		if (fake_next_timer(&s->g[i].fp, &tm))
			next = earliest(next, tm);
	if (ct) {
		next = earliest(next, s->fp.now + ct->rem);
		if (ct->rq && ct->se.queued && ct->se.runtime > 0)
			next = earliest(next, s->fp.now + (uint64_t)ct->se.runtime);
		if (hc && hc->queued && hc->runtime > 0)
			next = earliest(next, s->fp.now + (uint64_t)hc->runtime);
	}
	if (dls_time_before(next, s->fp.now))
		next = s->fp.now;
	if (ct)
		ct->rem -= next - s->fp.now;
	s->fp.now = next;
	for (int i = 0; i < s->ng; i++)
		s->g[i].fp.now = next;

	dls_update_curr(&s->rq);
	for (int i = 0; i < s->ng; i++)
		if (s->g[i].srv.cpu >= 0)
			dls_update_curr(&s->g[i].rq);
	check(s);
	if (ct && ct->active && ct->rem == 0) {
		job_done(s, ct);
		check(s);
	}
	fake_fire_due(&s->fp);
	for (int i = 0; i < s->ng; i++)
		fake_fire_due(&s->g[i].fp);
	check(s);
	for (int i = 0; i < s->n; i++) {
		struct task *t = &s->t[i];

		while (!dls_time_after(t->next_release, s->fp.now)) {
			uint64_t dl = t->next_release + t->period;

			if (!t->active) {
				t->active = true;
				t->rem = t->exec;
				t->job_deadline = dl;
				wake(s, t);
			} else if (t->backlog < 4) {
				t->backlog_dl[t->backlog++] = dl;
			} else {
				t->misses++; /* dropped: counts as a miss */
			}
			t->next_release += t->period;
			check(s);
		}
	}
	/* The platform's kick: a guest with work wakes its idle server. */
	for (int i = 0; i < s->ng; i++)
		if (s->g[i].rq.nr_running && s->g[i].srv.state == DLS_SERVER_IDLE)
			DLS_ASSERT_EQ_S64(dls_server_start(&s->rq, &s->g[i].srv), 0);
	check(s);
	dls_server_schedule(&s->rq, &what);
	s->running = task_of(s, what);
	check(s);
	return true;
}

static const uint64_t periods[] = { 1 * MS, 2 * MS, 4 * MS, 5 * MS, 10 * MS, 20 * MS };

/* n tasks of total budget utilisation about u_milli/1000 on the host or in
 * guest @guest; task @hog executes 3x its budget. */
static void random_set(struct sys *s, struct dls_test_rng *r, int guest, int n,
		       uint64_t u_milli, int hog)
{
	uint64_t w[MAXT], wsum = 0;

	for (int i = 0; i < n; i++) {
		w[i] = 1 + dls_test_rng_below(r, 1000);
		wsum += w[i];
	}
	for (int i = 0; i < n; i++) {
		uint64_t p = periods[dls_test_rng_below(r, 6)];
		uint64_t q = p / 1000 * u_milli * w[i] / wsum;

		if (q < 2 * DLS_RUNTIME_MIN)
			q = 2 * DLS_RUNTIME_MIN;
		if (q > p)
			q = p;
		CU_ASSERT_EQUAL_FATAL(sys_add(s, guest, q, p, i == hog ? 3 * q : q), 0);
	}
}

static uint64_t seed_of(const char *what)
{
	return dls_test_seed(what, 0x5e4e5ULL);
}

/* ---- one task in a server = a plain reservation ---- */

static void compare(struct sys *a, struct sys *b, uint64_t k, uint64_t step)
{
	const struct dls_entity *x = &a->t[0].se, *y = &b->solo_srv.se;

	if (a->fp.now == b->fp.now && a->running == b->running &&
	    x->deadline == y->deadline && x->runtime == y->runtime &&
	    x->throttled == y->throttled && x->queued == y->queued &&
	    x->stats.throttles == y->stats.throttles &&
	    x->stats.replenishments == y->stats.replenishments &&
	    x->stats.instances == y->stats.instances &&
	    x->stats.wakeups_kept == y->stats.wakeups_kept &&
	    x->stats.exec_time == y->stats.exec_time)
		return;
	fprintf(stderr,
		"set %llu step %llu: now %llu/%llu running %d/%d deadline %llu/%llu runtime %lld/%lld\n",
		(unsigned long long)k, (unsigned long long)step,
		(unsigned long long)a->fp.now, (unsigned long long)b->fp.now,
		a->running, b->running, (unsigned long long)x->deadline,
		(unsigned long long)y->deadline, (long long)x->runtime,
		(long long)y->runtime);
	CU_FAIL_FATAL("a one-task server differs from the plain reservation");
}

static void test_one_task_server_is_a_reservation(void)
{
	struct dls_test_rng r;
	uint64_t sets = dls_test_scaled(1500), steps = 0, throttles = 0, ties = 0;
	struct sys *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

	dls_test_rng_seed(&r, seed_of("one task per server"));
	for (uint64_t k = 0; k < sets; k++) {
		uint64_t start = (k & 1) ? (uint64_t)0 - 20 * MS : k * 1000;
		int n = 1 + (int)dls_test_rng_below(&r, 8);
		/* 0.5 .. 1.3: overload in a third of the sets */
		uint64_t u = 500 + dls_test_rng_below(&r, 801);
		int hog = dls_test_rng_below(&r, 2) ? 0 : -1;
		struct dls_test_rng r2 = r;
		uint64_t end = start + 60 * MS, step = 0;

		sys_init(a, start, false);
		random_set(a, &r, -1, n, u, hog);
		sys_init(b, start, false);
		b->solo = true;
		random_set(b, &r2, -1, n, u, hog);
		for (;;) {
			bool ga = sys_step(a, end), gb = sys_step(b, end);

			if (a->err || b->err)
				fprintf(stderr, "set %llu: %s %s\n", (unsigned long long)k,
					a->err ? a->err : "", b->err ? b->err : "");
			CU_ASSERT_PTR_NULL_FATAL(a->err);
			CU_ASSERT_PTR_NULL_FATAL(b->err);
			CU_ASSERT_EQUAL_FATAL(ga, gb);
			if (!ga)
				break;
			compare(a, b, k, step++);
		}
		steps += step;
		throttles += a->t[0].se.stats.throttles;
		for (int i = 1; i < a->n; i++)
			ties += a->t[i].period == a->t[0].period;
		for (int i = 0; i < a->n; i++)
			DLS_ASSERT_EQ_U64(a->t[i].misses, b->t[i].misses);
	}
	printf("  %llu sets, %llu events compared, task 0 throttled %llu times, %llu tasks tied with it\n",
	       (unsigned long long)sets, (unsigned long long)steps,
	       (unsigned long long)throttles, (unsigned long long)ties);
	CU_ASSERT_TRUE(throttles > sets / 4);
	CU_ASSERT_TRUE(ties > sets / 4);
	free(a);
	free(b);
}

/* ---- guests: isolation and the periodic resource model ---- */

static void test_guests_isolated_and_prm(void)
{
	struct dls_test_rng r;
	uint64_t sets = dls_test_scaled(400), done = 0, hog_throttles = 0;
	uint64_t victim_misses = 0, host_misses = 0, inner_jobs = 0, hog_misses = 0;
	struct sys *s = malloc(sizeof(*s));

	dls_test_rng_seed(&r, seed_of("guests"));
	for (uint64_t k = 0; k < sets; k++) {
		uint64_t start = (k & 1) ? (uint64_t)0 - 20 * MS : 0;
		struct dls_params in[MAXT];
		struct dls_analysis_result res;
		int n2 = 1 + (int)dls_test_rng_below(&r, 3), first2;
		uint64_t u2 = 100 + dls_test_rng_below(&r, 300), pi = 1 * MS;
		struct guest *g1, *g2;

		sys_init(s, start, true);
		/* Guest 1: a server of 20 % whose tasks overrun 3x. */
		g1 = sys_add_guest(s, 2 * MS, 10 * MS);
		CU_ASSERT_PTR_NOT_NULL_FATAL(g1);
		random_set(s, &r, 0, 2, 190, 0);
		s->t[1].exec = 3 * s->t[1].budget; /* both overrun */
		/* Guest 2: tasks, then the PRM budget for them at period pi. */
		first2 = s->n;
		for (int i = 0; i < n2; i++) {
			uint64_t p = periods[2 + dls_test_rng_below(&r, 4)];

			in[i] = (struct dls_params){ .runtime = p / 1000 * u2 / (uint64_t)n2,
						     .deadline = p };
		}
		DLS_ASSERT_EQ_S64(dls_analysis_prm_budget(in, (size_t)n2, pi, &res), 0);
		if (!res.schedulable || res.value < 2 * DLS_RUNTIME_MIN ||
		    res.value * 10 > pi * 7)
			continue;
		g2 = sys_add_guest(s, res.value, pi);
		CU_ASSERT_PTR_NOT_NULL_FATAL(g2);
		for (int i = 0; i < n2; i++)
			if (sys_add(s, 1, in[i].runtime, in[i].deadline, in[i].runtime))
				goto next; /* rounding: the guest's limit refused it */
		/* Host tasks with what admission leaves. */
		random_set(s, &r, -1, 2, 950 - 200 - res.value * 1000 / pi - 50, -1);
		while (sys_step(s, start + 80 * MS))
			;
		if (s->err)
			fprintf(stderr, "set %llu: %s\n", (unsigned long long)k, s->err);
		CU_ASSERT_PTR_NULL_FATAL(s->err);
		done++;
		hog_throttles += g1->srv.se.stats.throttles;
		hog_misses += s->t[0].misses + s->t[1].misses;
		for (int i = first2; i < first2 + n2; i++) {
			victim_misses += s->t[i].misses;
			inner_jobs += s->t[i].jobs;
		}
		for (int i = first2 + n2; i < s->n; i++)
			host_misses += s->t[i].misses;
next:;
	}
	printf("  %llu two-guest sets: guest 1 throttled %llu times (%llu misses inside), "
	       "guest 2 ran %llu jobs with %llu misses, host tasks %llu misses\n",
	       (unsigned long long)done, (unsigned long long)hog_throttles,
	       (unsigned long long)hog_misses, (unsigned long long)inner_jobs,
	       (unsigned long long)victim_misses, (unsigned long long)host_misses);
	CU_ASSERT_TRUE(done > sets / 3);
	CU_ASSERT_TRUE(hog_throttles >= done);
	CU_ASSERT_TRUE(hog_misses > 0);
	CU_ASSERT_EQUAL(victim_misses, 0);
	CU_ASSERT_EQUAL(host_misses, 0);
	free(s);
}

/* A guest admits what its server's bandwidth holds, no more. */
static void test_guest_admission(void)
{
	struct sys *s = malloc(sizeof(*s));
	struct guest *g;
	struct dls_entity e;
	struct dls_params p = { .runtime = 2 * MS, .deadline = 10 * MS };

	sys_init(s, 0, true);
	g = sys_add_guest(s, 3 * MS, 10 * MS); /* 30 % */
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	DLS_ASSERT_EQ_S64(sys_add(s, 0, 2 * MS, 10 * MS, 1 * MS), 0);
	dls_entity_init(&e);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&g->rq, &e, &p), DLS_EBANDWIDTH);
	p.runtime = 1 * MS - 1024; /* 20 % + 9.99 % < 30 % */
	DLS_ASSERT_EQ_S64(dls_entity_attach(&g->rq, &e, &p), 0);
	/* The guest has entities now: the limit is not set again. */
	DLS_ASSERT_EQ_S64(dls_server_guest_admit(&g->dom, &g->srv, 1), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_server_guest_admit(&g->dom, &g->srv, 2), DLS_EINVAL);
	free(s);
}

/* ---- the deferred server ---- */

struct dfr {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_entity hog;      /* a deadline task that never completes */
	struct dls_server srv;
	bool armed;
	uint64_t at;
	uint64_t lower_in, lower_bg; /* lower-class time inside / outside the server */
};

static bool dfr_has_work(void *arg) { (void)arg; return true; }
static void *dfr_pick(void *arg, int cpu) { (void)cpu; return arg; }
static void dfr_stop(void *arg, int cpu) { (void)arg; (void)cpu; }

static void dfr_arm(void *arg, uint64_t at)
{
	struct dfr *d = dls_container_of(arg, struct dfr, srv);

	d->armed = true;
	d->at = at;
}

static void dfr_cancel(void *arg)
{
	dls_container_of(arg, struct dfr, srv)->armed = false;
}

static const struct dls_server_ops dfr_ops = {
	.has_work = dfr_has_work, .pick = dfr_pick, .stop = dfr_stop,
	.timer_arm = dfr_arm, .timer_cancel = dfr_cancel,
};

/* A hog of runtime q every p (0: none) beside a deferred server of
 * 5 ms / 100 ms whose lower class always has work; for h ns. */
static void dfr_run(struct dfr *d, uint64_t start, uint64_t q, uint64_t p, uint64_t h)
{
	struct dls_params sp = { .runtime = 5 * MS, .deadline = 100 * MS };
	uint64_t end = start + h;
	void *what = NULL;
	struct dls_domain_config cfg;

	memset(d, 0, sizeof(*d));
	fake_init(&d->fp, start);
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNIT; /* the hog and the server may fill the CPU */
	dls_domain_init(&d->dom, &fake_ops_notrace, &d->fp, &cfg, &d->rq, 1);
	DLS_ASSERT_EQ_S64(dls_server_init(&d->srv, &dfr_ops, &d->srv, DLS_SERVER_DEFER), 0);
	DLS_ASSERT_EQ_S64(dls_server_attach(&d->rq, &d->srv, &sp), 0);
	if (q) {
		struct dls_params hp = { .runtime = q, .deadline = p };

		dls_entity_init(&d->hog);
		DLS_ASSERT_EQ_S64(dls_entity_attach(&d->rq, &d->hog, &hp), 0);
		DLS_ASSERT_EQ_S64(dls_wakeup(&d->rq, &d->hog), 0);
	}
	DLS_ASSERT_EQ_S64(dls_server_start(&d->rq, &d->srv), 0);
	DLS_ASSERT_VALID(dls_server_check(&d->srv));
	dls_server_schedule(&d->rq, &what);
	while (dls_time_before(d->fp.now, end)) {
		struct dls_entity *c = d->rq.curr;
		uint64_t next = end, tm, dt;

		if (fake_next_timer(&d->fp, &tm))
			next = earliest(next, tm);
		if (d->armed)
			next = earliest(next, d->at);
		if (c && c->queued && c->runtime > 0)
			next = earliest(next, d->fp.now + (uint64_t)c->runtime);
		dt = next - d->fp.now;
		d->fp.now = next;
		if (what == &d->srv)
			d->lower_in += dt;
		else if (!what) {
			d->lower_bg += dt;
			dls_server_background(&d->rq, &d->srv, dt);
		}
		dls_update_curr(&d->rq);
		fake_fire_due(&d->fp);
		if (d->armed && !dls_time_before(d->fp.now, d->at)) {
			d->armed = false;
			dls_server_timer_expired(&d->rq, &d->srv);
		}
		dls_server_schedule(&d->rq, &what);
		DLS_ASSERT_VALID(dls_rq_check(&d->rq));
		DLS_ASSERT_VALID(dls_server_check(&d->srv));
	}
}

static void test_deferred_server(void)
{
	struct dfr *d = malloc(sizeof(*d));
	uint64_t h = 2000 * MS, periods_in = h / (100 * MS);

	for (int wrap = 0; wrap < 2; wrap++) {
		uint64_t start = wrap ? (uint64_t)0 - 350 * MS : 0;

		/* Light deadline load (20 ms every 50 ms): the lower class runs
		 * on its own in every gap, so the server's budget is spent in
		 * the background long before zero laxity and it never
		 * competes. */
		dfr_run(d, start, 20 * MS, 50 * MS, h);
		DLS_ASSERT_EQ_U64(d->srv.stats.defer_runs, 0);
		DLS_ASSERT_EQ_U64(d->lower_in, 0);
		DLS_ASSERT_EQ_U64(d->hog.stats.exec_time, 2 * periods_in * 20 * MS);
		DLS_ASSERT_EQ_U64(d->lower_bg, h - 2 * periods_in * 20 * MS);
		CU_ASSERT_TRUE(d->srv.stats.defers >= periods_in);

		/* A hog of 90 % leaves 10 ms idle per period: the lower class
		 * takes them in the background, which spends the server's
		 * budget; no starvation, so the server never competes. */
		dfr_run(d, start, 90 * MS, 100 * MS, h);
		DLS_ASSERT_EQ_U64(d->srv.stats.defer_runs, 0);
		DLS_ASSERT_EQ_U64(d->lower_bg, h / 10);

		/* A hog of 95 % with the server's 5 % fills the CPU: the lower
		 * class starves but for the server, which reaches zero laxity
		 * and gives it 5 ms per 100 ms, and never more; the hog keeps
		 * its reservation. */
		dfr_run(d, start, 95 * MS, 100 * MS, h);
		CU_ASSERT_TRUE(d->srv.stats.defer_runs >= 1);
		CU_ASSERT_TRUE(d->lower_in + d->lower_bg >= (periods_in - 1) * 5 * MS);
		CU_ASSERT_TRUE(d->srv.se.stats.exec_time <= (periods_in + 1) * 5 * MS);
		DLS_ASSERT_EQ_U64(d->hog.stats.exec_time, periods_in * 95 * MS);
		DLS_ASSERT_EQ_U64(d->hog.stats.misses, 0);
		printf("  hog 95%%: lower class %llu ms inside the server, %llu ms beside, "
		       "%llu zero-laxity runs\n",
		       (unsigned long long)(d->lower_in / MS),
		       (unsigned long long)(d->lower_bg / MS),
		       (unsigned long long)d->srv.stats.defer_runs);
	}
	free(d);
}


/* ---- a guest of two vCPUs under global EDF ---- */

#define GW_CPUS 2

struct gw {
	struct fake_platform hfp, gfp;
	struct dls_domain host, guest;
	struct dls_rq hrq[GW_CPUS], grq[GW_CPUS];
	struct dls_server srv[GW_CPUS];
	void *smp_mem;
	struct task t[MAXT];
	int n;
	uint64_t start, settles, both_running, migrations;
};

static struct task *gw_running(struct gw *w, int c)
{
	return w->srv[c].curr ? dls_container_of(w->srv[c].curr, struct task, se) : NULL;
}

/* The platform: each vCPU's server on its own host CPU; a resched asked
 * at either level is that CPU's, and a guest vCPU with work wakes its
 * idle server. */
static void gw_settle(struct gw *w)
{
	for (int iter = 0;; iter++) {
		bool any = false;

		CU_ASSERT_FATAL(iter < 256);
		for (int c = 0; c < GW_CPUS; c++) {
			bool h = fake_take_resched(&w->hfp, c), g = fake_take_resched(&w->gfp, c);
			void *what;

			if (!h && !g)
				continue;
			any = true;
			if (w->srv[c].state == DLS_SERVER_IDLE && w->grq[c].nr_running)
				DLS_ASSERT_EQ_S64(dls_server_start(&w->hrq[c], &w->srv[c]), 0);
			dls_server_schedule(&w->hrq[c], &what);
		}
		if (!any)
			break;
	}
	w->settles++;
}

/* Global EDF inside the guest: what its vCPUs run is the min(M, n)
 * earliest deadlines queued in the guest (as test_smp_global.c checks of
 * a flat domain), the vCPUs being backed by servers of a full CPU each. */
static void gw_check(struct gw *w)
{
	uint64_t queued[MAXT], running[GW_CPUS];
	int nq = 0, nr = 0, k;

	DLS_ASSERT_VALID(dls_domain_check(&w->guest));
	for (int c = 0; c < GW_CPUS; c++) {
		DLS_ASSERT_VALID(dls_rq_check(&w->hrq[c]));
		DLS_ASSERT_VALID(dls_server_check(&w->srv[c]));
		if (w->srv[c].curr)
			running[nr++] = ((struct dls_entity *)w->srv[c].curr)->deadline;
	}
	for (int i = 0; i < w->n; i++)
		if (w->t[i].se.queued)
			queued[nq++] = w->t[i].se.deadline;
	k = nq < GW_CPUS ? nq : GW_CPUS;
	CU_ASSERT_EQUAL_FATAL(nr, k);
	for (int a = 0; a < nq; a++)
		for (int b = a + 1; b < nq; b++)
			if (dls_time_before(queued[b], queued[a])) {
				uint64_t x = queued[a];

				queued[a] = queued[b];
				queued[b] = x;
			}
	if (nr == 2 && dls_time_before(running[1], running[0])) {
		uint64_t x = running[0];

		running[0] = running[1];
		running[1] = x;
	}
	for (int j = 0; j < k; j++)
		DLS_ASSERT_EQ_U64(running[j], queued[j]);
	w->both_running += nr == 2;
}

static void gw_init(struct gw *w, struct dls_test_rng *r, uint64_t start)
{
	struct dls_domain_config cfg;
	struct dls_params sp = { .runtime = 10 * MS, .deadline = 10 * MS };
	size_t sz = dls_smp_size(GW_CPUS);
	int n = 3 + (int)dls_test_rng_below(r, 6);

	memset(w, 0, sizeof(*w));
	w->start = start;
	fake_init(&w->hfp, start);
	fake_init(&w->gfp, start);
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED; /* servers of a whole CPU each */
	dls_domain_init(&w->host, &fake_ops_notrace, &w->hfp, &cfg, w->hrq, GW_CPUS);
	dls_domain_init(&w->guest, &fake_ops_notrace, &w->gfp, NULL, w->grq, GW_CPUS);
	w->smp_mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w->smp_mem);
	DLS_ASSERT_EQ_S64(dls_smp_init(&w->guest, w->smp_mem, sz), 0);
	for (int c = 0; c < GW_CPUS; c++) {
		DLS_ASSERT_EQ_S64(dls_server_init(&w->srv[c], &dls_server_guest_ops, &w->grq[c], 0), 0);
		DLS_ASSERT_EQ_S64(dls_server_attach(&w->hrq[c], &w->srv[c], &sp), 0);
	}
	DLS_ASSERT_EQ_S64(dls_server_guest_admit(&w->guest, w->srv, GW_CPUS), 0);
	for (int i = 0; i < n; i++) {
		struct task *t = &w->t[i];
		uint64_t p = periods[dls_test_rng_below(r, 6)];
		uint64_t q = p * (100 + dls_test_rng_below(r, 300)) / 1000;
		struct dls_params par = { .runtime = q, .deadline = p };

		memset(t, 0, sizeof(*t));
		dls_entity_init(&t->se);
		t->period = p;
		t->budget = q;
		/* Some jobs need more than their budget: throttles inside. */
		t->exec = dls_test_rng_below(r, 4) ? q : 2 * q;
		t->next_release = start + dls_test_rng_below(r, 3) * MS;
		if (dls_entity_attach(&w->grq[i % GW_CPUS], &t->se, &par))
			break; /* the guest's admission: the servers are full */
		w->n++;
	}
}

static bool gw_step(struct gw *w, uint64_t end)
{
	uint64_t next = end, tm;

	if (!dls_time_before(w->hfp.now, end))
		return false;
	for (int i = 0; i < w->n; i++)
		next = earliest(next, w->t[i].next_release);
	if (fake_next_timer(&w->hfp, &tm))
		next = earliest(next, tm);
	if (fake_next_timer(&w->gfp, &tm))
		next = earliest(next, tm);
	for (int c = 0; c < GW_CPUS; c++) {
		struct task *t = gw_running(w, c);
		struct dls_entity *h = w->hrq[c].curr;

		if (!t)
			continue;
		next = earliest(next, w->hfp.now + t->rem);
		if (t->se.queued && t->se.runtime > 0)
			next = earliest(next, w->hfp.now + (uint64_t)t->se.runtime);
		if (h && h->queued && h->runtime > 0)
			next = earliest(next, w->hfp.now + (uint64_t)h->runtime);
	}
	if (dls_time_before(next, w->hfp.now))
		next = w->hfp.now;
	for (int c = 0; c < GW_CPUS; c++)
		if (gw_running(w, c))
			gw_running(w, c)->rem -= next - w->hfp.now;
	w->hfp.now = w->gfp.now = next;
	for (int c = 0; c < GW_CPUS; c++) {
		dls_update_curr(&w->hrq[c]);
		dls_update_curr(&w->grq[c]);
	}
	for (int c = 0; c < GW_CPUS; c++) {
		struct task *t = gw_running(w, c);

		if (!t || !t->active || t->rem)
			continue;
		t->jobs++;
		if (dls_time_after(next, t->job_deadline))
			t->misses++;
		t->active = false;
		DLS_ASSERT_EQ_S64(dls_dequeue(t->se.rq, &t->se, DLS_DEQUEUE_DONE), 0);
	}
	fake_fire_due(&w->hfp);
	fake_fire_due(&w->gfp);
	for (int i = 0; i < w->n; i++) {
		struct task *t = &w->t[i];

		while (!dls_time_after(t->next_release, next)) {
			if (!t->active) {
				t->active = true;
				t->rem = t->exec;
				t->job_deadline = t->next_release + t->period;
				DLS_ASSERT_EQ_S64(dls_wakeup(t->se.rq, &t->se), 0);
			}
			t->next_release += t->period; /* a release while busy is dropped */
		}
	}
	gw_settle(w);
	gw_check(w);
	return true;
}

static void test_global_guest(void)
{
	struct dls_test_rng r;
	uint64_t rounds = dls_test_scaled(200), settles = 0, both = 0, migr = 0;
	struct gw *w = malloc(sizeof(*w));

	dls_test_rng_seed(&r, seed_of("global guest"));
	for (uint64_t k = 0; k < rounds; k++) {
		uint64_t start = (k & 1) ? (uint64_t)0 - 20 * MS : 5 * MS;

		gw_init(w, &r, start);
		gw_settle(w);
		while (gw_step(w, start + 60 * MS))
			;
		settles += w->settles;
		for (int c = 0; c < GW_CPUS; c++)
			CU_ASSERT_TRUE(w->srv[c].stats.picks > 0);
		for (int i = 0; i < w->n; i++)
			migr += w->t[i].se.stats.migrations;
		both += w->both_running;
		free(w->smp_mem);
	}
	printf("  %llu rounds, %llu settled states checked, %llu with both vCPUs running, "
	       "%llu migrations inside the guest\n",
	       (unsigned long long)rounds, (unsigned long long)settles,
	       (unsigned long long)both, (unsigned long long)migr);
	CU_ASSERT_TRUE(both > rounds);
	CU_ASSERT_TRUE(migr > rounds);
	free(w);
}

/* ---- misuse ---- */

static void test_server_refusals(void)
{
	struct dls_server srv;
	struct dls_server_ops ops = solo_ops;
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_params p = { .runtime = 1 * MS, .deadline = 10 * MS,
				.flags = DLS_FLAG_RECLAIM };

	fake_init(&fp, 0);
	dls_domain_init(&dom, &fake_ops_notrace, &fp, NULL, &rq, 1);
	DLS_ASSERT_EQ_S64(dls_server_init(&srv, &ops, NULL, DLS_SERVER_DEFER), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_server_init(&srv, &ops, NULL, 0x80), DLS_EINVAL);
	ops.pick = NULL;
	DLS_ASSERT_EQ_S64(dls_server_init(&srv, &ops, NULL, 0), DLS_EINVAL);
	DLS_ASSERT_EQ_S64(dls_server_init(&srv, &dfr_ops, NULL, DLS_SERVER_DEFER), 0);
	DLS_ASSERT_EQ_S64(dls_server_attach(&rq, &srv, &p), DLS_EFLAGS);
	CU_ASSERT_EQUAL(rq.nr_attached, 0);
	DLS_ASSERT_EQ_S64(dls_server_start(&rq, &srv), DLS_EDETACHED);
	p.flags = 0;
	DLS_ASSERT_EQ_S64(dls_server_attach(&rq, &srv, &p), 0);
	CU_ASSERT_PTR_EQUAL(dls_server_of(&srv.se), &srv);
	{
		struct dls_entity plain;

		dls_entity_init(&plain);
		CU_ASSERT_PTR_NULL(dls_server_of(&plain));
	}
	DLS_ASSERT_VALID(dls_server_check(&srv));
}

/*
 * Three levels: host runqueue -> server A over guest domain G1 -> server B
 * (an entity of G1) over guest domain G2 -> task T, always runnable with a
 * reservation of the whole CPU (no admission inside the guests, so that
 * the servers alone bound it). Hand-derived, every period of 10 ms:
 *  (a) A = 5/10, B = 2.5/10: T runs [10k, 10k + 2.5]; B's budget is spent
 *      there (throttled to its deadline), so G1 is empty and A blocks with
 *      2.5 ms left, never throttled.
 *  (b) A = 2.5/10, B = 5/10: T runs [10k, 10k + 2.5] again; now A's budget
 *      is spent (A throttled to its deadline) while B still holds budget.
 * The nesting needs no code of its own: A's inner pick is
 * dls_server_schedule() on G1, which asks B, whose pick schedules G2.
 */
struct three {
	struct fake_platform fp[3];
	struct dls_domain dom[3];
	struct dls_rq rq[3];
	struct dls_server a, b;
	struct dls_entity t;
};

static void three_init(struct three *x, uint64_t start, uint64_t qa, uint64_t qb)
{
	struct dls_domain_config cfg;
	struct dls_params pa = { .runtime = qa, .deadline = 10 * MS };
	struct dls_params pb = { .runtime = qb, .deadline = 10 * MS };
	struct dls_params pt = { .runtime = 10 * MS, .deadline = 10 * MS };

	memset(x, 0, sizeof(*x));
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	for (int i = 0; i < 3; i++) {
		fake_init(&x->fp[i], start);
		dls_domain_init(&x->dom[i], &fake_ops_notrace, &x->fp[i], &cfg, &x->rq[i], 1);
	}
	DLS_ASSERT_EQ_S64(dls_server_init(&x->a, &dls_server_guest_ops, &x->rq[1], 0), 0);
	DLS_ASSERT_EQ_S64(dls_server_init(&x->b, &dls_server_guest_ops, &x->rq[2], 0), 0);
	DLS_ASSERT_EQ_S64(dls_server_attach(&x->rq[0], &x->a, &pa), 0);
	DLS_ASSERT_EQ_S64(dls_server_attach(&x->rq[1], &x->b, &pb), 0);
	dls_entity_init(&x->t);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&x->rq[2], &x->t, &pt), 0);
	DLS_ASSERT_EQ_S64(dls_wakeup(&x->rq[2], &x->t), 0);
}

static void three_check(struct three *x)
{
	for (int i = 0; i < 3; i++)
		DLS_ASSERT_VALID(dls_rq_check(&x->rq[i]));
	DLS_ASSERT_VALID(dls_server_check(&x->a));
	DLS_ASSERT_VALID(dls_server_check(&x->b));
}

/* Runs to @end; returns the time T ran in [from, end), and checks that it
 * ran only in the first @on ns of each 10 ms period (from the start). */
/* The platform's kicks (work inside wakes an idle server), then a pick. */
static void *three_pick(struct three *x)
{
	void *what;

	if (x->rq[2].nr_running && x->b.state == DLS_SERVER_IDLE)
		DLS_ASSERT_EQ_S64(dls_server_start(&x->rq[1], &x->b), 0);
	if (x->rq[1].nr_running && x->a.state == DLS_SERVER_IDLE)
		DLS_ASSERT_EQ_S64(dls_server_start(&x->rq[0], &x->a), 0);
	three_check(x);
	dls_server_schedule(&x->rq[0], &what);
	CU_ASSERT_TRUE(what == NULL || what == &x->t);
	three_check(x);
	return what;
}

static uint64_t three_run(struct three *x, uint64_t start, uint64_t end, uint64_t on)
{
	uint64_t ran = 0;
	void *what = three_pick(x);

	for (int steps = 0; dls_time_before(x->fp[0].now, end) && steps < 100000; steps++) {
		uint64_t now = x->fp[0].now, next = end, tm;
		const struct dls_entity *cur[3] = { x->rq[0].curr, x->rq[1].curr, x->rq[2].curr };

		for (int i = 0; i < 3; i++) {
			if (fake_next_timer(&x->fp[i], &tm))
				next = earliest(next, tm);
			/* each level's running entity: its budget's end */
			if (what && cur[i] && cur[i]->queued && cur[i]->runtime > 0)
				next = earliest(next, now + (uint64_t)cur[i]->runtime);
		}
		if (what) {
			ran += next - now;
			CU_ASSERT_TRUE((now - start) % (10 * MS) + (next - now) <= on);
		}
		for (int i = 0; i < 3; i++)
			x->fp[i].now = next;
		for (int i = 2; i >= 0; i--) /* the innermost charged first */
			if (x->rq[i].curr)
				dls_update_curr(&x->rq[i]);
		three_check(x);
		for (int i = 0; i < 3; i++)
			fake_fire_due(&x->fp[i]);
		what = three_pick(x);
	}
	return ran;
}

static void test_three_levels(void)
{
	static const uint64_t starts[] = { 0, UINT64_MAX - 35 * MS };
	struct three x;

	for (size_t k = 0; k < 2; k++) {
		uint64_t s0 = starts[k];

		three_init(&x, s0, 5 * MS, 5 * MS / 2);        /* (a) */
		DLS_ASSERT_EQ_U64(three_run(&x, s0, s0 + 100 * MS, 5 * MS / 2), 25 * MS);
		CU_ASSERT_EQUAL(x.a.se.stats.throttles, 0);
		CU_ASSERT_EQUAL(x.b.se.stats.throttles, 10);
		three_init(&x, s0, 5 * MS / 2, 5 * MS);        /* (b) */
		DLS_ASSERT_EQ_U64(three_run(&x, s0, s0 + 100 * MS, 5 * MS / 2), 25 * MS);
		CU_ASSERT_EQUAL(x.a.se.stats.throttles, 10);
	}
}

static const struct dls_test_case cases[] = {
	{ "three levels: host, a guest, a guest inside it (hand-derived)", test_three_levels },
	{ "one task in a server = a plain reservation", test_one_task_server_is_a_reservation },
	{ "guests: isolation and the PRM test", test_guests_isolated_and_prm },
	{ "guest admission against its server", test_guest_admission },
	{ "a two-vCPU guest runs global EDF", test_global_guest },
	{ "deferred server: share under starvation, nothing without", test_deferred_server },
	{ "refusals", test_server_refusals },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "servers", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
