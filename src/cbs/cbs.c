/*
 * The Constant Bandwidth Server rules (Abeni & Buttazzo, "Integrating
 * Multimedia Applications in Hard Real-Time Systems", RTSS 1998), in the
 * form SCHED_DEADLINE gives them today: hard reservations, with a period
 * that may differ from the relative deadline. The 2012 patches' rules stay
 * selectable per domain (struct dls_domain_config); DLS_FLAG_SOFT gives an
 * entity the original, work-conserving CBS.
 *
 * An entity with budget Q, relative deadline D and period P holds a live
 * pair (runtime, deadline). Invariants kept by these rules:
 *  - a queued entity that is not boosted has runtime > 0;
 *  - a throttled entity is off the EDF tree and its timer is armed at its
 *    replenishment instant (the next period, deadline - D + P, or with the
 *    2012 rule the deadline), or it was replenished at once;
 *  - the budget is exhausted exactly when runtime <= 0 (today's rule); a
 *    rule never depends on when the platform calls in, only on the time
 *    the entity ran and on its deadline;
 *  - the bandwidth a hard reservation can consume over any interval is
 *    bounded by Q/P, so entities are isolated from each other's overruns.
 *
 * A leaf: each rule reads an entity and returns a decision (src/cbs/
 * cbs_impl.h); the runqueue (src/edf/rq.c) applies it, and the EDF tree,
 * the timers, the statistics and the trace are the runqueue's.
 */
#include "cbs/cbs_impl.h"

/* A decision; .at and .lag_* are set only by the actions that carry them
 * (the accounting path pays for no stores it does not read). */
static struct dls__cbs_decision decide(enum dls__cbs_action action,
				       uint64_t deadline, int64_t runtime)
{
	struct dls__cbs_decision d;

	d.action = action;
	d.kept = false;
	d.deadline = deadline;
	d.runtime = runtime;
	return d;
}

/* New instance: deadline = now + D, runtime = Q. */
static struct dls__cbs_decision renew(const struct dls_entity *se, uint64_t now)
{
	return decide(DLS_CBS_RENEW, now + se->params.deadline,
		      (int64_t)se->params.runtime);
}

/*
 * Wake-up rule: the pair (runtime, deadline) may be kept only if serving
 * the remaining runtime before the deadline needs no more than the reserved
 * bandwidth. Today's Linux (DLS_WAKEUP_REVISED, dl_entity_overflow) tests
 * against the density Q/D,
 *
 *     runtime / (deadline - now) <= Q / D,
 *
 * the 2012 rule (DLS_WAKEUP_CBS) against Q/P; both exactly, as
 * runtime * D <= (deadline - now) * Q in 128 bits. Otherwise a new instance
 * starts, except that with the revised rule (Linux's
 * update_dl_revised_wakeup) an entity with D < P whose deadline is still
 * ahead keeps it, with its runtime trimmed to the density Q/D times the
 * laxity.
 *
 * Late wake-up of a constrained entity (Linux's dl_check_constrained_dl):
 * woken after its deadline but before its next period, it has already had
 * its share of this period; it stays throttled, with no runtime left,
 * until that period starts.
 */
struct dls__cbs_decision dls__cbs_wakeup_rule(const struct dls_entity *se,
					      uint64_t now,
					      const struct dls_domain_config *cfg)
{
	bool revised = cfg->wakeup_rule == DLS_WAKEUP_REVISED;
	struct dls__cbs_decision d;
	uint64_t laxity;

	if (cfg->replenish_rule == DLS_REPLENISH_NEXT_PERIOD &&
	    se->params.deadline < se->period && !se->boosted && !se->is_new) {
		uint64_t at = dls__cbs_replenish_at(cfg, se);

		if (dls_time_before(se->deadline, now) && dls_time_before(now, at)) {
			d = decide(DLS_CBS_THROTTLE, se->deadline,
				   se->runtime > 0 ? 0 : se->runtime);
			d.at = at;
			return d;
		}
	}
	if (se->is_new || !dls_time_before(now, se->deadline) ||
	    se->runtime <= 0)
		return renew(se, now);
	laxity = se->deadline - now;
	if (dls_u128_mul_cmp((uint64_t)se->runtime,
			     revised ? se->params.deadline : se->period, laxity,
			     se->params.runtime) <= 0) {
		d = decide(DLS_CBS_KEEP, se->deadline, se->runtime);
		d.kept = true;
		return d;
	}
	if (revised && se->params.deadline < se->period && !se->boosted) {
		int64_t r = (int64_t)dls_u128_mul_u64_u64_div_u64(
			se->params.runtime, laxity, se->params.deadline);

		d = r > 0 ? decide(DLS_CBS_TRIM, se->deadline, r) : renew(se, now);
		d.kept = true;
		return d;
	}
	return renew(se, now);
}

/*
 * Postponement: move the deadline by P and add Q until the runtime is
 * positive (k periods when an overrun ran the runtime below -Q); a
 * postponement beyond the step leaves the deadline behind now, which
 * forces the lag reset. On @d, which holds the pair.
 */
static void postpone(const struct dls_entity *se, uint64_t now,
		     struct dls__cbs_decision *d)
{
	uint64_t q = se->params.runtime;
	/* k = the number of periods that make the runtime positive. */
	uint64_t debt = se->runtime < 0 ? (uint64_t)(-(se->runtime + 1)) + 1 : 0;
	uint64_t k = debt / q + 1;

	if (k > DLS_CBS_STEP_MAX / se->period) {
		d->deadline = now - 1;
	} else {
		d->deadline += k * se->period;
		d->runtime += (int64_t)(k * q);
	}
}

/*
 * Replenishment: postpone the deadline by P and add Q until the runtime is
 * positive. If the deadline is still behind now the entity lagged (it was
 * not scheduled for a whole period): start afresh at now + D with a full
 * budget.
 */
struct dls__cbs_decision dls__cbs_replenish_rule(const struct dls_entity *se,
						 uint64_t now)
{
	struct dls__cbs_decision d = decide(DLS_CBS_REPLENISH, se->deadline,
					    se->runtime);

	if (se->is_new)
		return renew(se, now);
	if (se->runtime <= 0)
		postpone(se, now, &d);
	if (dls_time_before(d.deadline, now)) {
		d.lag_deadline = d.deadline;
		d.lag_runtime = d.runtime;
		d.action = DLS_CBS_LAGGED;
		d.deadline = now + se->params.deadline;
		d.runtime = (int64_t)se->params.runtime;
	}
	return d;
}

/*
 * Soft reservation (the original CBS, Abeni & Buttazzo 1998, rule on
 * budget exhaustion): postpone the deadline by P with a full budget and
 * keep running, without throttling and without the lag reset, so that a
 * late job keeps the deadline sequence of its periodic task.
 */
struct dls__cbs_decision dls__cbs_postpone_rule(const struct dls_entity *se,
						uint64_t now)
{
	struct dls__cbs_decision d = decide(DLS_CBS_REPLENISH, se->deadline,
					    se->runtime);

	postpone(se, now, &d);
	return d;
}

uint64_t dls__cbs_time_for(uint64_t want, uint64_t rate, unsigned int shift)
{
	uint64_t dt;

	/* That is ceil(want * 2^shift / rate); in 64 bits while it cannot
	 * overflow (budgets below 2^(63 - shift) ns, rates below 2^63). */
	if (want < UINT64_C(1) << (63 - shift) && rate < UINT64_C(1) << 63)
		return ((want << shift) + rate - 1) / rate;
	dt = dls_u128_mul_u64_u64_div_u64(want, UINT64_C(1) << shift, rate);

	if (dls_u128_mul_u64_u64_shr(dt, rate, shift) < want && dt != UINT64_MAX)
		dt++;
	return dt;
}

/*
 * The 2012 overrun rule (DLS_OVERRUN_2012), evaluated at the deadline
 * rather than at the call that notices it: the runtime left at the
 * deadline is forfeited, and the time run after the deadline (from
 * max(deadline, @start) to @now) is charged once, so the result does not
 * depend on when the platform called in.
 */
int64_t dls__cbs_forfeit_rule(const struct dls_entity *se, uint64_t start,
			      uint64_t now, uint32_t capacity)
{
	uint64_t from = dls_time_before(start, se->deadline) ? se->deadline : start;
	uint64_t after = dls__cbs_scale(capacity, now - from);

	if (se->runtime + (int64_t)after > 0)
		return -(int64_t)after;
	return se->runtime;
}
