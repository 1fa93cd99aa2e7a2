/*
 * The global EDF invariant, driven. A deterministic single-threaded
 * multi-CPU driver on the fake platform: each round draws a CPU count
 * (2..16), capacities (all equal, or asymmetric), a clock origin (ordinary,
 * or just before the u64 wrap so that clock and deadlines wrap during the
 * round) and a task set, then applies random scheduling events: wake-ups
 * placed by dls_select_cpu(), blocks, job completions, time advancing with
 * ticks and timers firing, yields, parameter changes, attach and detach,
 * affinity changes, capacity changes, CPUs going offline (with and without
 * force) and online.
 *
 * After every event the CPUs the library asked to reschedule do so, and
 * only those (so the library must ask the right ones), until none is
 * asked. Then, against the driver's own model of the entities:
 *  - every validator passes: dls_domain_check() (dls_rq_check() of every
 *    runqueue, pushable trees, migratory counts, overload mask and count,
 *    the heap's keys) and dls__cpudl_check();
 *  - every entity is in exactly one place: attached to one runqueue iff
 *    attached in the model, on that runqueue's tree iff runnable and not
 *    throttled, current on at most one CPU (an online one it may use, and
 *    the leftmost of its tree); a throttled one has its timer armed;
 *  - the running set. In global rounds (every entity may use every CPU) it
 *    is exactly the min(M, n) earliest deadlines of the n queued entities,
 *    M the online CPUs, compared as multisets so that equal deadlines may
 *    run either way. In affinity rounds it is the condition Linux's
 *    push/pull aims at ("weak APA" global EDF, Gujarati, Cerqueira and
 *    Brandenburg, ECRTS 2013): no queued entity waits while an online CPU
 *    it may use is idle or runs a later deadline. (The stronger "APA"
 *    schedule, which would also move a running entity to make room for a
 *    pinned one, is not what the kernel or this library implements.)
 *    Both rounds also check dls_domain_check_global_edf(), and that a full
 *    dls_balance() finds nothing left to move.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/smp.h>

#include "dls_test.h"
#include "edf/cpudl.h"
#include "fake_platform.h"

#define MS UINT64_C(1000000)
#define MAXCPU 16
#define MAXSE 48
#define MASKMEM 64

struct ent {
	struct dls_entity se;
	unsigned char maskmem[2][MASKMEM]; /* alternate: the old one stays valid */
	int mask_cur;
	bool masked;   /* model: affinity restricted */
	bool attached; /* model */
	bool runnable; /* model */
};

struct world {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[MAXCPU];
	void *smp_mem;
	int ncpu, nse;
	bool apa; /* affinity round */
	const char *last; /* the last event, for failure reports */
	struct dls_test_rng r;
	struct ent e[MAXSE];
	struct dls_entity *stranded[MAXSE];
	int nstranded;
	/* counters over the whole run */
	uint64_t events, schedules, checks;
	uint64_t offline_refused, offline_forced, stranded_total, wraps;
};

static int idx(const struct world *w, const struct dls_entity *se)
{
	return (int)(dls_container_of(se, struct ent, se) - w->e);
}

static bool before(uint64_t a, uint64_t b)
{
	return dls_time_before(a, b);
}

static bool allowed(const struct ent *x, int cpu)
{
	return !x->masked || dls_cpumask_test(x->se.allowed, cpu);
}

static bool cpu_up(const struct world *w, int cpu)
{
	return w->rq[cpu].online;
}

static bool any_allowed_online(const struct world *w, const struct ent *x)
{
	for (int c = 0; c < w->ncpu; c++)
		if (cpu_up(w, c) && allowed(x, c))
			return true;
	return false;
}

static int online_count(const struct world *w)
{
	int n = 0;

	for (int c = 0; c < w->ncpu; c++)
		n += cpu_up(w, c);
	return n;
}

/* Admission as the issue states it, computed here: sum of bandwidths <=
 * limit * capacity/1024 summed over the online CPUs (optionally one less). */
static bool admits(const struct world *w, uint64_t old_bw, uint64_t new_bw, int without)
{
	uint64_t total = 0, cap = 0;

	for (int i = 0; i < w->nse; i++)
		if (w->e[i].attached)
			total += w->e[i].se.bw;
	for (int c = 0; c < w->ncpu; c++)
		if (c != without && cpu_up(w, c))
			cap += w->rq[c].capacity;
	/* Σ bw ≤ limit × Σ capacity / 1024, exact (both sides fit 64 bits). */
	return (total - old_bw + new_bw) * DLS_CAPACITY_SCALE <= w->dom.cfg.bw_limit * cap;
}

static void on_stranded(void *arg, struct dls_entity *se)
{
	struct world *w = arg;

	CU_ASSERT_FATAL(w->nstranded < MAXSE);
	w->stranded[w->nstranded++] = se;
}

static struct dls_params random_params(struct world *w)
{
	struct dls_test_rng *r = &w->r;
	uint64_t d = (2 + dls_test_rng_below(r, 60)) * MS / 2;
	uint64_t q = DLS_RUNTIME_MIN + dls_test_rng_below(r, d / 4);
	uint64_t p = dls_test_rng_below(r, 3) ? 0 : d + dls_test_rng_below(r, 20 * MS);

	return (struct dls_params){ .runtime = q, .deadline = d, .period = p };
}

static void world_init(struct world *w, uint64_t round_seed)
{
	static const uint32_t caps[] = { 256, 384, 512, 768, 1024 };
	struct dls_test_rng *r = &w->r;
	uint64_t start;
	size_t sz;

	dls_test_rng_seed(r, round_seed);
	w->ncpu = 2 + (int)dls_test_rng_below(r, MAXCPU - 1);
	w->apa = dls_test_rng_below(r, 2);
	/* Half the rounds start within 0.5 s of the wrap: it happens in-round. */
	start = dls_test_rng_below(r, 2) ? UINT64_MAX - dls_test_rng_below(r, 500 * MS)
					 : 1000 * MS + dls_test_rng_below(r, 1000 * MS);
	fake_init(&w->fp, start);
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&w->dom, &fake_ops_notrace, &w->fp, NULL,
					      w->rq, w->ncpu), 0);
	if (dls_test_rng_below(r, 3) == 0)
		for (int c = 0; c < w->ncpu; c++)
			DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&w->rq[c],
				caps[dls_test_rng_below(r, 5)]), 0);
	sz = dls_smp_size(w->ncpu);
	w->smp_mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w->smp_mem);
	DLS_ASSERT_EQ_S64(dls_smp_init(&w->dom, w->smp_mem, sz), 0);
	CU_ASSERT_FATAL(dls_cpumask_size(w->ncpu) <= MASKMEM);
	w->nse = w->ncpu + (int)dls_test_rng_below(r, 2 * w->ncpu + 1);
	if (w->nse > MAXSE)
		w->nse = MAXSE;
	for (int i = 0; i < w->nse; i++) {
		struct ent *x = &w->e[i];

		x->masked = x->attached = x->runnable = false;
		x->mask_cur = 0;
		dls_entity_init(&x->se);
	}
}

/* ---- the checks ----------------------------------------------------------- */

/* Sort deadlines in wrap-safe order (all lie within 2^62 ns of now). */
static void sort_keys(uint64_t *k, int n, uint64_t now)
{
	uint64_t base = now - (UINT64_C(1) << 62);

	for (int i = 1; i < n; i++) {
		uint64_t v = k[i];
		int j = i;

		for (; j > 0 && k[j - 1] - base > v - base; j--)
			k[j] = k[j - 1];
		k[j] = v;
	}
}

static void dump(const struct world *w, const char *why);

static void check_places(struct world *w)
{
	int att[MAXSE], q[MAXSE], run[MAXSE];

	for (int i = 0; i < w->nse; i++)
		att[i] = q[i] = run[i] = -1;
	for (int c = 0; c < w->ncpu; c++) {
		const struct dls_rq *rq = &w->rq[c];

		for (const struct dls_entity *se = rq->attached; se; se = se->attached_next) {
			int i = idx(w, se);

			CU_ASSERT_FATAL(i >= 0 && i < w->nse && att[i] < 0);
			att[i] = c;
		}
		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
			int i = idx(w, dls_container_of(n, struct dls_entity, node));

			CU_ASSERT_FATAL(i >= 0 && i < w->nse && q[i] < 0);
			q[i] = c;
		}
		if (rq->curr) {
			int i = idx(w, rq->curr);

			CU_ASSERT_FATAL(run[i] < 0);
			run[i] = c;
			/* Runs on an online CPU it may use, as the local EDF choice. */
			CU_ASSERT_FATAL(rq->curr->queued);
			CU_ASSERT_FATAL(rq->online);
			CU_ASSERT_FATAL(allowed(&w->e[i], c));
			/* Equal deadlines may run in either order. */
			if (rq->curr->deadline != rq->earliest.curr)
				dump(w, "the current entity is not the earliest here");
			DLS_ASSERT_EQ_U64(rq->curr->deadline, rq->earliest.curr);
		}
	}
	for (int i = 0; i < w->nse; i++) {
		const struct ent *x = &w->e[i];

		if (!x->attached) {
			CU_ASSERT_FATAL(att[i] < 0 && q[i] < 0 && run[i] < 0);
			CU_ASSERT_PTR_NULL_FATAL(x->se.rq);
			continue;
		}
		CU_ASSERT_FATAL(att[i] >= 0);
		CU_ASSERT_PTR_EQUAL_FATAL(x->se.rq, &w->rq[att[i]]);
		CU_ASSERT_EQUAL_FATAL(x->se.runnable, x->runnable);
		if (x->runnable && !x->se.throttled) {
			CU_ASSERT_EQUAL_FATAL(q[i], att[i]);
		} else {
			CU_ASSERT_EQUAL_FATAL(q[i], -1);
		}
		if (x->se.throttled)
			CU_ASSERT_FATAL(x->se.timer.armed && fake_timer_armed(&w->fp, &x->se.timer));
		if (run[i] >= 0)
			CU_ASSERT_EQUAL_FATAL(run[i], att[i]);
	}
}

/* Global rounds: the running set is the min(M, n) earliest queued deadlines. */
static void check_m_earliest(struct world *w)
{
	uint64_t queued[MAXSE], running[MAXCPU];
	int nq = 0, nr = 0, m = online_count(w), k;

	for (int i = 0; i < w->nse; i++)
		if (w->e[i].attached && w->e[i].se.queued)
			queued[nq++] = w->e[i].se.deadline;
	for (int c = 0; c < w->ncpu; c++)
		if (w->rq[c].curr)
			running[nr++] = w->rq[c].curr->deadline;
	k = nq < m ? nq : m;
	if (nr != k)
		dump(w, "the running set has the wrong size");
	CU_ASSERT_EQUAL_FATAL(nr, k);
	sort_keys(queued, nq, w->fp.now);
	sort_keys(running, nr, w->fp.now);
	for (int j = 0; j < k; j++) {
		if (running[j] != queued[j])
			dump(w, "the running set is not the M earliest");
		DLS_ASSERT_EQ_U64(running[j], queued[j]);
	}
}

/* Affinity rounds: nobody waits while a CPU it may use is idle or runs later. */
static const char *weak_apa(const struct world *w)
{
	for (int i = 0; i < w->nse; i++) {
		const struct ent *x = &w->e[i];

		if (!x->attached || !x->se.queued || x->se.rq->curr == &x->se)
			continue;
		for (int c = 0; c < w->ncpu; c++) {
			const struct dls_entity *curr = w->rq[c].curr;

			if (!cpu_up(w, c) || !allowed(x, c))
				continue;
			if (!curr)
				return "a queued entity waits while a CPU it may use is idle";
			if (before(x->se.deadline, curr->deadline))
				return "a queued entity waits while a CPU it may use runs later";
		}
	}
	return NULL;
}

/* The state, for a failure report. */
static void dump(const struct world *w, const char *why)
{
	fprintf(stderr, "%s after %s at %#llx, %d CPUs, %s round\n", why, w->last,
		(unsigned long long)w->fp.now, w->ncpu, w->apa ? "affinity" : "global");
	for (int c = 0; c < w->ncpu; c++) {
		const struct dls_rq *rq = &w->rq[c];

		fprintf(stderr, "  cpu %2d %s cap %4u curr %2d ovl %d:", c,
			rq->online ? "on " : "off", rq->capacity,
			rq->curr ? idx(w, rq->curr) : -1, rq->overloaded);
		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
			const struct dls_entity *se = dls_container_of(n, struct dls_entity, node);

			fprintf(stderr, " e%d(dl+%lld,", idx(w, se),
				(long long)(se->deadline - w->fp.now));
			for (int k = 0; k < w->ncpu; k++)
				if (allowed(&w->e[idx(w, se)], k))
					fprintf(stderr, "%x", k);
			fprintf(stderr, ")");
		}
		fprintf(stderr, "\n");
	}
}

/* Let the CPUs that were asked reschedule, until none is asked. */
static void settle(struct world *w)
{
	for (int iter = 0;; iter++) {
		bool any = false;

		CU_ASSERT_FATAL(iter < 64 * MAXCPU);
		for (int c = 0; c < w->ncpu; c++) {
			if (!fake_take_resched(&w->fp, c))
				continue;
			any = true;
			if (cpu_up(w, c)) {
				dls_schedule(&w->rq[c]);
				w->schedules++;
			}
		}
		if (!any)
			return;
	}
}

static void check_all(struct world *w)
{
	settle(w);
	DLS_ASSERT_VALID(dls_domain_check(&w->dom));
	DLS_ASSERT_VALID(dls__cpudl_check(w->dom.smp->cpudl));
	check_places(w);
	if (w->apa) {
		if (weak_apa(w))
			dump(w, weak_apa(w));
		DLS_ASSERT_VALID(weak_apa(w));
	} else {
		check_m_earliest(w);
	}
	DLS_ASSERT_VALID(dls_domain_check_global_edf(&w->dom));
	/* Nothing left to push or pull: a full balance moves nothing. */
	DLS_ASSERT_EQ_U64(dls_balance(&w->dom), 0);
	w->checks++;
}

/* ---- the events ------------------------------------------------------------ */

static struct ent *pick(struct world *w, bool want_attached, int runnable)
{
	int start = (int)dls_test_rng_below(&w->r, (uint64_t)w->nse);

	for (int k = 0; k < w->nse; k++) {
		struct ent *x = &w->e[(start + k) % w->nse];

		if (x->attached != want_attached)
			continue;
		if (runnable >= 0 && x->runnable != (runnable != 0))
			continue;
		return x;
	}
	return NULL;
}

static void ev_wake(struct world *w)
{
	struct ent *x = pick(w, true, 0);
	int target;

	if (!x)
		return;
	target = dls_select_cpu(&w->dom, &x->se, x->se.rq->cpu);
	if (!any_allowed_online(w, x)) {
		DLS_ASSERT_EQ_S64(target, DLS_ENOCPU);
	} else {
		CU_ASSERT_FATAL(target >= 0 && target < w->ncpu);
		CU_ASSERT_FATAL(cpu_up(w, target) && allowed(x, target));
		DLS_ASSERT_EQ_S64(dls_entity_move(&x->se, &w->rq[target]), 0);
		CU_ASSERT_PTR_EQUAL_FATAL(x->se.rq, &w->rq[target]);
	}
	DLS_ASSERT_EQ_S64(dls_wakeup(x->se.rq, &x->se), 0);
	x->runnable = true;
}

static void ev_block(struct world *w)
{
	struct ent *x = pick(w, true, 1);

	if (!x)
		return;
	dls_dequeue(x->se.rq, &x->se,
		    dls_test_rng_below(&w->r, 2) ? DLS_DEQUEUE_DONE : DLS_DEQUEUE_SLEEP);
	x->runnable = false;
}

static void ev_time(struct world *w)
{
	uint64_t next, before_now = w->fp.now;

	/* Either to the next timer exactly, or by a random step. */
	if (dls_test_rng_below(&w->r, 3) == 0 && fake_next_timer(&w->fp, &next) &&
	    dls_time_after(next, w->fp.now))
		w->fp.now = next;
	else
		w->fp.now += dls_test_rng_below(&w->r, 3 * MS);
	if (w->fp.now < before_now)
		w->wraps++;
	for (int c = 0; c < w->ncpu; c++)
		dls_tick(&w->rq[c]);
	fake_fire_due(&w->fp);
}

static void ev_yield(struct world *w)
{
	int c = (int)dls_test_rng_below(&w->r, (uint64_t)w->ncpu);

	if (w->rq[c].curr)
		dls_yield(&w->rq[c]);
}

static void ev_params(struct world *w)
{
	struct ent *x = pick(w, true, -1);
	struct dls_params p = random_params(w);
	bool fits;

	if (!x)
		return;
	/* Giving bandwidth back is allowed even in an overcommitted domain. */
	fits = dls_params_bw(&p) <= x->se.bw || admits(w, x->se.bw, dls_params_bw(&p), -1);
	DLS_ASSERT_EQ_S64(dls_entity_set_params(x->se.rq, &x->se, &p),
			  fits ? 0 : DLS_EBANDWIDTH);
}

static void ev_attach_detach(struct world *w)
{
	struct ent *x;

	if (dls_test_rng_below(&w->r, 3)) {
		struct dls_params p = random_params(w);
		int c = (int)dls_test_rng_below(&w->r, (uint64_t)w->ncpu);
		bool fits;
		int err;

		x = pick(w, false, -1);
		if (!x || !cpu_up(w, c))
			return;
		fits = admits(w, 0, dls_params_bw(&p), -1);
		dls_entity_init(&x->se);
		x->masked = false;
		err = dls_entity_attach(&w->rq[c], &x->se, &p);
		DLS_ASSERT_EQ_S64(err, fits ? 0 : DLS_EBANDWIDTH);
		x->attached = err == 0;
		x->runnable = false;
	} else {
		x = pick(w, true, -1);
		if (!x)
			return;
		DLS_ASSERT_EQ_S64(dls_task_dead(x->se.rq, &x->se), 0);
		x->attached = x->runnable = false;
	}
}

static void ev_affinity(struct world *w)
{
	struct ent *x = pick(w, true, -1);
	struct dls_cpumask *m;
	bool none = true;
	int err, weight = 0;

	if (!x)
		return;
	if (!w->apa || dls_test_rng_below(&w->r, 4) == 0) {
		DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&x->se, NULL), 0);
		x->masked = false;
		DLS_ASSERT_EQ_S64(x->se.nr_cpus_allowed, w->ncpu);
		return;
	}
	m = (struct dls_cpumask *)(void *)x->maskmem[!x->mask_cur];
	DLS_ASSERT_EQ_S64(dls_cpumask_init(m, MASKMEM, w->ncpu), 0);
	for (int c = 0; c < w->ncpu; c++) {
		/* Narrow masks most of the time: pinned and pairs matter most. */
		if (dls_test_rng_below(&w->r, (uint64_t)w->ncpu) < 2) {
			dls_cpumask_set(m, c);
			weight++;
			none = none && !cpu_up(w, c);
		}
	}
	err = dls_entity_set_affinity(&x->se, m);
	if (none) {
		DLS_ASSERT_EQ_S64(err, DLS_ENOCPU);
		return;
	}
	DLS_ASSERT_EQ_S64(err, 0);
	x->mask_cur = !x->mask_cur;
	x->masked = true;
	DLS_ASSERT_EQ_S64(x->se.nr_cpus_allowed, weight);
	/* It sits on an online CPU it may use. */
	CU_ASSERT_FATAL(x->se.rq->online && allowed(x, x->se.rq->cpu));
}

static void ev_offline(struct world *w)
{
	int c = (int)dls_test_rng_below(&w->r, (uint64_t)w->ncpu);
	bool force = dls_test_rng_below(&w->r, 2);
	int err, want;

	if (!cpu_up(w, c)) {
		DLS_ASSERT_EQ_S64(dls_cpu_offline(&w->dom, c, force, NULL, NULL), DLS_ESTATE);
		return;
	}
	if (online_count(w) < 2)
		want = DLS_ESTATE;
	else if (!force && !admits(w, 0, 0, c))
		want = DLS_ECAPACITY;
	else
		want = 0;
	w->nstranded = 0;
	err = dls_cpu_offline(&w->dom, c, force, on_stranded, w);
	DLS_ASSERT_EQ_S64(err, want);
	if (err == DLS_ECAPACITY)
		w->offline_refused++;
	if (err) {
		CU_ASSERT_FATAL(cpu_up(w, c));
		return;
	}
	w->offline_forced += force;
	w->stranded_total += (uint64_t)w->nstranded;
	/* Exactly the entities with nowhere to go stayed, and were reported. */
	for (int i = 0; i < w->nse; i++) {
		struct ent *x = &w->e[i];
		bool reported = false;

		for (int s = 0; s < w->nstranded; s++)
			reported = reported || w->stranded[s] == &x->se;
		if (!x->attached) {
			CU_ASSERT_FATAL(!reported);
			continue;
		}
		if (reported) {
			CU_ASSERT_FATAL(x->se.rq == &w->rq[c] && !any_allowed_online(w, x));
		} else if (x->se.rq == &w->rq[c]) {
			CU_ASSERT_FATAL(!any_allowed_online(w, x)); /* stranded before */
		}
	}
	CU_ASSERT_PTR_NULL_FATAL(w->rq[c].curr);
}

static void ev_capacity(struct world *w)
{
	static const uint32_t caps[] = { 256, 512, 768, 1024 };
	int c = (int)dls_test_rng_below(&w->r, (uint64_t)w->ncpu);
	uint32_t old = w->rq[c].capacity, cap = caps[dls_test_rng_below(&w->r, 4)];
	bool fits;

	/* As admits() would see it with the new capacity; raising capacity,
	 * or lowering an offline CPU's, is allowed even in an overcommitted
	 * domain. */
	w->rq[c].capacity = cap;
	fits = cap >= old || !cpu_up(w, c) || admits(w, 0, 0, -1);
	w->rq[c].capacity = old;
	DLS_ASSERT_EQ_S64(dls_rq_set_capacity(&w->rq[c], cap), fits ? 0 : DLS_EBANDWIDTH);
	DLS_ASSERT_EQ_U64(w->rq[c].capacity, fits ? cap : old);
}

static void ev_online(struct world *w)
{
	int c = (int)dls_test_rng_below(&w->r, (uint64_t)w->ncpu);
	int want = cpu_up(w, c) ? DLS_ESTATE : 0;

	DLS_ASSERT_EQ_S64(dls_cpu_online(&w->dom, c), want);
}

static void event(struct world *w)
{
	uint64_t k = dls_test_rng_below(&w->r, 100);

	static const struct {
		unsigned int below;
		void (*fn)(struct world *);
		const char *name;
	} evs[] = {
		{ 26, ev_wake, "wake-up" },	{ 42, ev_block, "block" },
		{ 68, ev_time, "time" },	{ 70, ev_capacity, "capacity" },
		{ 75, ev_yield, "yield" },
		{ 78, ev_params, "params" },	{ 84, ev_attach_detach, "attach/detach" },
		{ 92, ev_affinity, "affinity" }, { 96, ev_offline, "offline" },
		{ 100, ev_online, "online" },
	};
	size_t i = 0;

	while (k >= evs[i].below)
		i++;
	w->last = evs[i].name;
	evs[i].fn(w);
	w->events++;
}

static void test_global_edf_driver(void)
{
	uint64_t seed = dls_test_seed("global EDF driver", 0x6c0b41edf5eedULL);
	uint64_t target = dls_test_scaled(120000), per_round = 600, rounds = 0;
	uint64_t apa_rounds = 0, asym_rounds = 0;
	struct dls_test_rng top;
	struct world *w = calloc(1, sizeof(*w));

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	dls_test_rng_seed(&top, seed);
	while (w->events < target) {
		world_init(w, dls_test_rng_next(&top));
		rounds++;
		apa_rounds += w->apa;
		asym_rounds += w->dom.smp->asymmetric;
		/* Start with a few entities attached and awake. */
		w->last = "set-up";
		for (int i = 0; i < w->nse / 2; i++)
			ev_attach_detach(w);
		check_all(w);
		for (uint64_t k = 0; k < per_round; k++) {
			event(w);
			check_all(w);
		}
		free(w->smp_mem);
	}
	printf("  %llu scheduling events in %llu rounds (%llu with affinities, %llu "
	       "asymmetric), %llu dls_schedule calls, %llu checks;\n"
	       "  %llu offline refused, %llu forced, %llu entities stranded, %llu clock "
	       "wraps\n",
	       (unsigned long long)w->events, (unsigned long long)rounds,
	       (unsigned long long)apa_rounds, (unsigned long long)asym_rounds,
	       (unsigned long long)w->schedules, (unsigned long long)w->checks,
	       (unsigned long long)w->offline_refused, (unsigned long long)w->offline_forced,
	       (unsigned long long)w->stranded_total, (unsigned long long)w->wraps);
	free(w);
}

static const struct dls_test_case cases[] = {
	{ "random task sets on 2-16 CPUs: global EDF after every event",
	  test_global_edf_driver },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "smp global EDF invariant", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
