/*
 * Validators of a domain: every runqueue's invariants, and in a global
 * domain the SMP invariants listed in smp.c; the global EDF property for
 * tests that know every CPU has just scheduled.
 */
#include "edf/smp_impl.h"

const char *dls_domain_check(const struct dls_domain *dom)
{
	const struct dls_smp *smp = dom->smp;
	unsigned long overloaded = 0;
	const char *err;

	for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
		const struct dls_rq *rq = &dom->rqs[cpu];
		unsigned int migratory = 0, pushable = 0;
		uint64_t dl;

		err = dls_rq_check(rq);
		if (err)
			return err;
		if (!smp)
			continue;
		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
			const struct dls_entity *se = dls__node_se(n);
			bool want = se->nr_cpus_allowed > 1 && se != rq->curr;

			migratory += se->nr_cpus_allowed > 1;
			if (want != dls_rb_node_on_tree(&se->pushable_node))
				return "pushable tree membership differs from the rule";
			pushable += want;
		}
		if (migratory != rq->nr_migratory)
			return "nr_migratory differs from the queued migratory entities";
		err = dls_rb_check_cached(&rq->pushable, pushable_less);
		if (err)
			return err;
		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->pushable); n; n = dls_rb_next(n))
			pushable--;
		if (pushable)
			return "pushable tree holds entities that are not pushable";
		if (rq->overloaded != (rq->nr_migratory > 0 && rq->nr_running > 1 && rq->online))
			return "overloaded flag differs from the rule";
		if (rq->overloaded != dls_cpumask_test(smp->overload, cpu))
			return "overload mask differs from the overloaded flags";
		overloaded += rq->overloaded;
		if (rq->online != dls_cpumask_test(smp->online, cpu))
			return "online mask differs from the runqueues";
		if (rq->online && rq->nr_running) {
			if (!dls__cpudl_deadline(smp->cpudl, cpu, &dl) ||
			    dl != rq->earliest.curr)
				return "cpudl heap key differs from the CPU's earliest deadline";
		} else if (dls__cpudl_deadline(smp->cpudl, cpu, &dl)) {
			return "cpudl heap holds a CPU with nothing queued or offline";
		}
	}
	if (smp) {
		uint64_t bw = 0, cap = 0;

		for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
			bw += dom->rqs[cpu].bw.total;
			cap += dom->rqs[cpu].online ? dom->rqs[cpu].capacity : 0;
		}
		if (bw != smp->bw.total)
			return "domain bandwidth differs from the runqueues' sum";
		if (cap != smp->bw.capacity)
			return "online capacity differs from the online CPUs' sum";
		if (dls__capacities_differ(dom) != smp->asymmetric)
			return "asymmetric flag differs from the CPU capacities";
		if (overloaded != smp->overload_count)
			return "overload count differs from the overload mask";
		err = dls__cpudl_check(smp->cpudl);
		if (err)
			return err;
	}
	return dls__rq_reclaiming_check(dom);
}

const char *dls_domain_check_global_edf(const struct dls_domain *dom)
{
	for (int src = 0; src < dom->nr_cpus; src++) {
		const struct dls_rq *rq = &dom->rqs[src];

		for (struct dls_rb_node *n = dls_rb_first_cached(&rq->root); n; n = dls_rb_next(n)) {
			const struct dls_entity *se = dls__node_se(n);

			if (se == rq->curr)
				continue;
			for (int cpu = 0; cpu < dom->nr_cpus; cpu++) {
				const struct dls_rq *c = &dom->rqs[cpu];

				if (!c->online || !allowed_on(se, cpu))
					continue;
				if (!c->curr)
					return "an entity waits while a CPU it may use is idle";
				if (dls_time_before(dls__se_key(se), dls__se_key(c->curr)))
					return "an entity waits while a CPU it may use runs a later deadline";
			}
		}
	}
	return NULL;
}
