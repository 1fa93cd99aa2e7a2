/*
 * Multiprocessor EDF theory as tests, on the real library driven by a
 * deterministic event simulation (fake platform, one thread).
 *
 * Each task i is periodic with implicit deadline: a job of C_i ns every T_i
 * ns, due T_i after its release. Its entity has the reservation
 * (Q = C_i, D = P = T_i); a release wakes it (wake-up placement with
 * dls_select_cpu()), it runs C_i ns, and the job's end is reported with
 * DLS_DEQUEUE_DONE. The simulation advances from event to event (a
 * release, a job end, a timer), lets the CPUs the library asked
 * reschedule, and keeps its own account of each job's remaining work, from
 * which it judges misses without asking the library.
 *
 *  - Dhall's effect (Dhall & Liu, "On a real-time scheduling problem",
 *    Operations Research 26(1), 1978): on M CPUs, M light tasks (C = 2e,
 *    T = 1) and one heavy task (C = 1, T = 1 + e). Global EDF runs the M
 *    light jobs first, on every CPU, and the heavy job, started 2e late,
 *    misses, though the total utilisation is barely above 1 of M. Pinning
 *    the heavy task to a CPU of its own (partitioning) meets every deadline.
 *  - The GFB bound (Goossens, Funk & Baruah, "Priority-driven scheduling of
 *    periodic task systems on multiprocessors", Real-Time Systems 25(2-3),
 *    2003): global EDF meets every deadline of an implicit-deadline
 *    periodic task set on M identical CPUs whenever
 *    U <= M - (M - 1) * Umax. Random sets up to that bound, released
 *    synchronously or with offsets, never miss.
 *
 * After every event the running set is checked to be exactly the M earliest
 * queued deadlines, and no pending job's entity may be throttled (Q = C:
 * the reservations are the tasks), so what is simulated is global EDF.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/smp.h>

#include "dls_test.h"
#include "fake_platform.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define MAXM 8
#define MAXN 24

struct task {
	struct dls_entity se;
	uint64_t c, t;       /* WCET and period (= relative deadline), ns */
	uint64_t release;    /* next release, relative to the origin */
	uint64_t due;        /* absolute deadline of the pending job, relative */
	uint64_t remaining;  /* work left in the pending job, ns */
	bool pending;        /* a job is released and not done */
	int last_cpu;
	uint64_t jobs;
};

struct sim {
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq[MAXM];
	void *smp_mem;
	int m, n;
	uint64_t origin, rel; /* the clock is origin + rel */
	struct task tk[MAXN];
	/* results */
	int missed;           /* first task to miss, or -1 */
	uint64_t miss_at;     /* when, relative */
	uint64_t events;
};

static void sim_init(struct sim *s, int m, uint64_t origin)
{
	struct dls_domain_config cfg;
	size_t sz = dls_smp_size(m);

	memset(s, 0, sizeof(*s));
	s->m = m;
	s->origin = origin;
	s->missed = -1;
	fake_init(&s->fp, origin);
	/* Admit up to the CPUs' full capacity: the theorems are the limit. */
	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNIT;
	CU_ASSERT_EQUAL_FATAL(dls_domain_init(&s->dom, &fake_ops_notrace, &s->fp, &cfg,
					      s->rq, m), 0);
	s->smp_mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->smp_mem);
	CU_ASSERT_EQUAL_FATAL(dls_smp_init(&s->dom, s->smp_mem, sz), 0);
}

static void sim_add(struct sim *s, uint64_t c, uint64_t t, uint64_t offset,
		    const struct dls_cpumask *pin)
{
	struct task *k = &s->tk[s->n];
	struct dls_params p = { .runtime = c, .deadline = t };
	int cpu = s->n % s->m;

	CU_ASSERT_FATAL(s->n < MAXN);
	dls_entity_init(&k->se);
	DLS_ASSERT_EQ_S64(dls_entity_attach(&s->rq[cpu], &k->se, &p), 0);
	if (pin)
		DLS_ASSERT_EQ_S64(dls_entity_set_affinity(&k->se, pin), 0);
	k->c = c;
	k->t = t;
	k->release = offset;
	k->pending = false;
	k->last_cpu = k->se.rq->cpu;
	k->jobs = 0;
	s->n++;
}

static struct task *task_of(const struct dls_entity *se)
{
	return dls_container_of(se, struct task, se);
}

static void settle(struct sim *s)
{
	for (int iter = 0;; iter++) {
		bool any = false;

		CU_ASSERT_FATAL(iter < 64 * MAXM);
		for (int c = 0; c < s->m; c++) {
			if (fake_take_resched(&s->fp, c)) {
				dls_schedule(&s->rq[c]);
				any = true;
			}
		}
		if (!any)
			return;
	}
}

/* Exactly the M earliest queued deadlines run; pending jobs are queued. */
static void check_global_edf(struct sim *s)
{
	uint64_t q[MAXN], r[MAXM], base = s->fp.now - (UINT64_C(1) << 62);
	int nq = 0, nr = 0;

	for (int i = 0; i < s->n; i++) {
		const struct task *k = &s->tk[i];

		CU_ASSERT_FATAL(k->se.queued == k->pending);
		if (k->se.queued)
			q[nq++] = k->se.deadline - base;
	}
	for (int c = 0; c < s->m; c++)
		if (s->rq[c].curr)
			r[nr++] = s->rq[c].curr->deadline - base;
	DLS_ASSERT_EQ_S64(nr, nq < s->m ? nq : s->m);
	/* Every running deadline is no later than every waiting one. */
	for (int i = 0; i < s->n; i++) {
		const struct dls_entity *se = &s->tk[i].se;

		if (!se->queued || se->rq->curr == se)
			continue;
		for (int j = 0; j < nr; j++)
			CU_ASSERT_FATAL(r[j] <= se->deadline - base);
	}
	(void)q;
}

/* Run until @horizon (relative) or the first miss. */
static void sim_run(struct sim *s, uint64_t horizon, bool check_edf)
{
	while (s->rel <= horizon) {
		uint64_t next = UINT64_MAX, when;

		/* Jobs that ended now. */
		for (int c = 0; c < s->m; c++) {
			struct dls_entity *se = s->rq[c].curr;
			struct task *k;

			if (!se)
				continue;
			k = task_of(se);
			if (k->pending && k->remaining == 0) {
				DLS_ASSERT_EQ_S64(dls_dequeue(&s->rq[c], se, DLS_DEQUEUE_DONE),
						  0);
				k->pending = false;
			}
		}
		fake_fire_due(&s->fp);
		/* A job still unfinished at its deadline missed it. */
		for (int i = 0; i < s->n; i++) {
			struct task *k = &s->tk[i];

			if (k->pending && k->due <= s->rel && k->remaining) {
				s->missed = i;
				s->miss_at = s->rel;
				return;
			}
		}
		/* Releases. */
		for (int i = 0; i < s->n; i++) {
			struct task *k = &s->tk[i];
			int cpu;

			if (k->release != s->rel)
				continue;
			CU_ASSERT_FATAL(!k->pending);
			k->pending = true;
			k->remaining = k->c;
			k->due = s->rel + k->t;
			k->release += k->t;
			k->jobs++;
			cpu = dls_select_cpu(&s->dom, &k->se, k->last_cpu);
			CU_ASSERT_FATAL(cpu >= 0);
			DLS_ASSERT_EQ_S64(dls_entity_move(&k->se, &s->rq[cpu]), 0);
			DLS_ASSERT_EQ_S64(dls_wakeup(k->se.rq, &k->se), 0);
		}
		settle(s);
		s->events++;
		if (check_edf)
			check_global_edf(s);
		/* The next event: a release, a job end, a deadline, a timer. */
		for (int i = 0; i < s->n; i++) {
			const struct task *k = &s->tk[i];

			if (k->release < next)
				next = k->release;
			if (k->pending && k->due < next)
				next = k->due;
		}
		for (int c = 0; c < s->m; c++) {
			struct dls_entity *se = s->rq[c].curr;

			if (se) {
				struct task *k = task_of(se);

				k->last_cpu = c;
				if (s->rel + k->remaining < next)
					next = s->rel + k->remaining;
			}
		}
		if (fake_next_timer(&s->fp, &when) && when - s->origin < next)
			next = when - s->origin;
		CU_ASSERT_FATAL(next > s->rel && next != UINT64_MAX);
		/* Run the current entities until then, and charge them. */
		for (int c = 0; c < s->m; c++)
			if (s->rq[c].curr)
				task_of(s->rq[c].curr)->remaining -= next - s->rel;
		s->rel = next;
		s->fp.now = s->origin + s->rel;
		for (int c = 0; c < s->m; c++)
			dls_tick(&s->rq[c]);
	}
}

static void sim_free(struct sim *s)
{
	free(s->smp_mem);
}

/* ---- Dhall's effect ----------------------------------------------------- */

static void test_dhall(void)
{
	static const int ms[] = { 2, 3, 4, 8 };
	const uint64_t e = 100 * US, unit = 10 * MS;
	struct sim *s = malloc(sizeof(*s));
	uint64_t pin_mem[MAXM + 1][8];

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); k++) {
		int m = ms[k];

		/* Global: the heavy job (due at 1 + e) starts at 2e and misses. */
		sim_init(s, m, 1000 * MS);
		for (int i = 0; i < m; i++)
			sim_add(s, 2 * e, unit, 0, NULL);
		sim_add(s, unit, unit + e, 0, NULL);
		sim_run(s, 20 * unit, true);
		DLS_ASSERT_EQ_S64(s->missed, m);
		DLS_ASSERT_EQ_U64(s->miss_at, unit + e);
		DLS_ASSERT_EQ_U64(s->tk[m].remaining, e);
		printf("  M=%d: U=%.3f, global EDF: heavy task misses at %.1f ms\n", m,
		       (double)m * 2 * e / unit + (double)unit / (unit + e),
		       (double)s->miss_at / MS);
		sim_free(s);

		/* Partitioned: the heavy task alone on CPU 0, the light ones on
		 * the others: every deadline met. */
		sim_init(s, m, 1000 * MS);
		for (int c = 0; c < m; c++) {
			struct dls_cpumask *mk = (struct dls_cpumask *)(void *)pin_mem[c];

			CU_ASSERT_EQUAL_FATAL(dls_cpumask_init(mk, sizeof(pin_mem[c]), m), 0);
			dls_cpumask_set(mk, c);
		}
		for (int i = 0; i < m; i++)
			sim_add(s, 2 * e, unit, 0,
				(struct dls_cpumask *)(void *)pin_mem[1 + i % (m - 1)]);
		sim_add(s, unit, unit + e, 0, (struct dls_cpumask *)(void *)pin_mem[0]);
		sim_run(s, 20 * unit, false);
		DLS_ASSERT_EQ_S64(s->missed, -1);
		CU_ASSERT_TRUE(s->tk[m].jobs >= 19);
		sim_free(s);
	}
	free(s);
}

/* ---- the GFB bound ------------------------------------------------------- */

static void test_gfb(void)
{
	static const uint64_t periods[] = { 5 * MS, 10 * MS, 20 * MS, 40 * MS };
	uint64_t seed = dls_test_seed("GFB random task sets", 0x6fb2003ULL);
	uint64_t sets = dls_test_scaled(3000), ran = 0, events = 0, jobs = 0;
	double worst = 1.0, sum_ratio = 0;
	struct dls_test_rng r;
	struct sim *s = malloc(sizeof(*s));

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_FATAL(sets > 0);
	dls_test_rng_seed(&r, seed);
	for (uint64_t set = 0; set < sets; set++) {
		int m = 2 + (int)dls_test_rng_below(&r, MAXM - 1);
		int n = m + 1 + (int)dls_test_rng_below(&r, (uint64_t)m + 2);
		double u[MAXN], sum = 0, umax = 0, f, bound;
		bool offsets = dls_test_rng_below(&r, 2);
		uint64_t c[MAXN], t[MAXN];
		/* Half the sets run across the u64 wrap of the clock. */
		uint64_t origin = dls_test_rng_below(&r, 2) ? UINT64_MAX - 30 * MS : 1000 * MS;

		for (int i = 0; i < n; i++) {
			u[i] = 0.01 + (double)dls_test_rng_below(&r, 1000) / 1000.0;
			sum += u[i];
			umax = u[i] > umax ? u[i] : umax;
		}
		/* Scale to 90-100% of the largest f with f*sum <= M - (M-1)*f*umax. */
		f = m / (sum + (m - 1) * umax);
		f *= 0.9 + (double)dls_test_rng_below(&r, 101) / 1000.0;
		sum = umax = 0;
		for (int i = 0; i < n; i++) {
			t[i] = periods[dls_test_rng_below(&r, 4)];
			c[i] = (uint64_t)(f * u[i] * (double)t[i]);
			if (c[i] < 2 * DLS_RUNTIME_MIN)
				c[i] = 2 * DLS_RUNTIME_MIN;
			u[i] = (double)c[i] / (double)t[i];
			sum += u[i];
			umax = u[i] > umax ? u[i] : umax;
		}
		bound = m - (m - 1) * umax;
		if (sum > bound) /* the runtime floor lifted a tiny set over: skip */
			continue;
		ran++;
		sum_ratio += sum / bound;
		if (sum / bound < worst)
			worst = sum / bound;
		sim_init(s, m, origin);
		for (int i = 0; i < n; i++)
			sim_add(s, c[i], t[i], offsets ? dls_test_rng_below(&r, t[i]) : 0, NULL);
		sim_run(s, 80 * MS, true);
		if (s->missed >= 0)
			fprintf(stderr, "set %llu: M=%d n=%d U=%.4f bound %.4f: task %d "
				"(C=%llu T=%llu) missed at %llu\n", (unsigned long long)set,
				m, n, sum, bound, s->missed,
				(unsigned long long)s->tk[s->missed].c,
				(unsigned long long)s->tk[s->missed].t,
				(unsigned long long)s->miss_at);
		DLS_ASSERT_EQ_S64(s->missed, -1);
		events += s->events;
		for (int i = 0; i < n; i++)
			jobs += s->tk[i].jobs;
		sim_free(s);
	}
	printf("  %llu task sets on 2-%d CPUs within U <= M - (M-1)*Umax (at %.0f%% "
	       "of the bound on average, %.0f%% at least): %llu jobs, %llu events, "
	       "no miss\n", (unsigned long long)ran, MAXM, 100 * sum_ratio / (double)ran,
	       100 * worst, (unsigned long long)jobs, (unsigned long long)events);
	free(s);
}

static const struct dls_test_case cases[] = {
	{ "Dhall's effect under global EDF, gone when partitioned", test_dhall },
	{ "GFB bound: no miss within U <= M - (M-1) Umax", test_gfb },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "smp theory", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
