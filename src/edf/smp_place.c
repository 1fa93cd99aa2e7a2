/*
 * Wake-up placement (Linux's select_task_rq_dl and find_later_rq): the CPU
 * running the latest deadline, or an idle one, among those an entity may
 * use, from the cpudl heap in O(1) (a scan when its root is not allowed);
 * capacity-aware when CPUs differ in speed. Reads other runqueues without
 * their locks: hints, checked again under the lock by the callers.
 */
#include "edf/smp_impl.h"

/* Whether capacities differ, read without the bandwidth lock it is written
 * under (a hint, as dls__smp_capacity_peek()). */
DLS_RACY static bool asymmetric_peek(const struct dls_domain *dom)
{
	return *(const volatile bool *)&dom->smp->asymmetric;
}

struct fit_ctx {
	const struct dls_domain *dom;
	const struct dls_entity *se;
};

/* Linux's dl_task_fits_capacity: runtime scaled to the CPU within D. */
static bool fits_cpu(void *ctx, int cpu)
{
	const struct fit_ctx *f = ctx;
	uint32_t cap = dls__smp_capacity_peek(f->dom, cpu);

	return dls_u128_mul_cmp(f->se->params.runtime, DLS_CAPACITY_SCALE,
			    f->se->params.deadline, cap) <= 0;
}

static uint32_t cpu_capacity(void *ctx, int cpu)
{
	return dls__smp_capacity_peek(((const struct fit_ctx *)ctx)->dom, cpu);
}

/*
 * latest_cpu_find of the 2012 SCHED_DEADLINE patches, over @se's allowed
 * online CPUs: an idle one, else the one running the latest deadline later
 * than @se's, else -1.
 * O(CPUs in the mask); reads other rqs without their locks (the callers
 * check again under the lock).
 */
DLS_RACY static int later_cpu_scan(const struct dls_domain *dom,
				   const struct dls_entity *se)
{
	uint64_t key = dls__se_key(se), latest = 0;
	int best = -1, cpu;

	dls_cpumask_for_each(cpu, se->allowed) {
		const volatile struct dls_rq *r = &dom->rqs[cpu];
		uint64_t dl;

		if (!cpu_online(dom, cpu))
			continue;
		if (!r->nr_running)
			return cpu;
		dl = r->earliest.curr;
		if (dls_time_before(key, dl) && (best < 0 || dls_time_after(dl, latest))) {
			best = cpu;
			latest = dl;
		}
	}
	return best;
}

/*
 * find_later_rq: a CPU running a later deadline than @se (or nothing) among
 * those it may use; the heap's best, with @prefer winning capacity ties.
 */
int dls__smp_find_later_cpu(const struct dls_domain *dom, const struct dls_entity *se,
			    int prefer)
{
	struct dls_smp *smp = dom->smp;
	struct fit_ctx fc = { dom, se };
	struct dls_cpudl_fit fit = { fits_cpu, cpu_capacity, &fc, prefer };
	/* The heap holds online CPUs only, so no entity needs the online mask
	 * here (which hotplug changes under our feet): the span will do. */
	const struct dls_cpumask *allowed = se->allowed ? se->allowed : smp->span;

	int cpu = dls__cpudl_find(smp->cpudl, allowed, dls__se_key(se),
				  asymmetric_peek(dom) ? &fit : NULL, NULL);

	/* The heap answers for its root only; when the root is not allowed,
	 * another allowed CPU may still run a later deadline. */
	if (cpu < 0 && se->allowed)
		cpu = later_cpu_scan(dom, se);
	return cpu;
}

/*
 * Would @se wait behind what @rq runs (its current entity is pinned, or
 * not later than @se)? Reads another CPU's current entity without its lock.
 */
DLS_RACY static bool curr_blocks_peek(const struct dls_rq *rq, uint64_t key)
{
	const struct dls_entity *curr = ((const volatile struct dls_rq *)rq)->curr;
	const volatile struct dls_entity *c = curr;

	if (!c)
		return false;
	return c->nr_cpus_allowed < 2 ||
	       !dls_time_before(key, c->boosted ? c->pi_deadline : c->deadline);
}

/* rq_is_later() without @rq's lock. */
DLS_RACY static bool is_later_peek(const struct dls_rq *rq, uint64_t key)
{
	const volatile struct dls_rq *v = rq;

	return !v->nr_running || dls_time_before(key, v->earliest.curr);
}

int dls_select_cpu(const struct dls_domain *dom, const struct dls_entity *se,
		   int prev_cpu)
{
	int cpu;

	if (!dom->smp)
		return prev_cpu;
	if (prev_cpu < 0 || prev_cpu >= dom->nr_cpus || !cpu_online(dom, prev_cpu) ||
	    !allowed_on(se, prev_cpu)) {
		cpu = dls__smp_find_later_cpu(dom, se, -1);
		if (cpu >= 0)
			return cpu;
		/* Nothing later: any allowed online CPU. */
		for (cpu = 0; cpu < dom->nr_cpus; cpu++)
			if (cpu_online(dom, cpu) && allowed_on(se, cpu))
				return cpu;
		return DLS_ENOCPU;
	}
	/* Stay unless it would wait behind an earlier entity there, or it does
	 * not fit the CPU's capacity (Linux's select_task_rq_dl). */
	if (se->nr_cpus_allowed > 1 &&
	    (curr_blocks_peek(&dom->rqs[prev_cpu], dls__se_key(se)) ||
	     (asymmetric_peek(dom) && !fits_cpu(&(struct fit_ctx){ dom, se }, prev_cpu)))) {
		cpu = dls__smp_find_later_cpu(dom, se, prev_cpu);
		if (cpu >= 0 && is_later_peek(&dom->rqs[cpu], dls__se_key(se)))
			return cpu;
	}
	return prev_cpu;
}
