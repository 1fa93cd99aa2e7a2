/*
 * The Constant Bandwidth Server rules (Abeni & Buttazzo, "Integrating
 * Multimedia Applications in Hard Real-Time Systems", RTSS 1998), in the
 * form SCHED_DEADLINE gives them: hard reservations, with a period that may
 * differ from the relative deadline.
 *
 * An entity with budget Q, relative deadline D and period P holds a live
 * pair (runtime, deadline). Invariants kept by these rules:
 *  - a queued entity that is not boosted has runtime > 0;
 *  - a throttled entity is off the EDF tree and its timer is armed at its
 *    deadline (or it was replenished at once);
 *  - the bandwidth an entity can consume over any interval is bounded by
 *    Q/P, so entities are isolated from each other's overruns.
 */
#include "edf/sched_impl.h"

/*
 * The largest step these rules take in one go, 2^62 ns (about 146 years):
 * half the 2^63 ns window in which dls_time_before() orders two instants.
 * A deadline postponed by at most this much still compares right against
 * now, and an s64 runtime (at most Q < 2^63) charged or replenished by at
 * most this much cannot overflow. A single charge is clamped to it (a clock
 * jump cannot wrap the runtime); a replenishment that would need more has
 * lagged beyond recovery and starts afresh.
 */
#define CBS_STEP_MAX (UINT64_C(1) << 62)

/* New instance: deadline = now + D, runtime = Q. */
void dls__cbs_new_instance(struct dls_rq *rq, struct dls_entity *se,
			   uint64_t now)
{
	se->deadline = now + se->params.deadline;
	se->runtime = (int64_t)se->params.runtime;
	se->is_new = false;
	se->yielded = false;
	se->missed = false;
	se->stats.instances++;
	dls__trace(rq, DLS_TRACE_NEW, se, now);
}

/*
 * Wake-up rule: the pair (runtime, deadline) may be kept only if serving
 * the remaining runtime before the deadline needs no more than the reserved
 * bandwidth,
 *
 *     runtime / (deadline - now) <= Q / P,
 *
 * tested exactly as runtime * P <= (deadline - now) * Q in 128 bits.
 * Otherwise a new instance starts. With the revised rule (Linux's
 * dl_revised_wakeup) an entity with D < P whose deadline is still ahead
 * keeps it, with its runtime trimmed to the density Q/D times the laxity.
 */
void dls__cbs_wakeup(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t laxity;

	if (se->is_new || !dls_time_before(now, se->deadline) ||
	    se->runtime <= 0) {
		if (!se->is_new)
			se->stats.wakeups_renewed++;
		dls__cbs_new_instance(rq, se, now);
		return;
	}
	laxity = se->deadline - now;
	if (dls_u128_mul_cmp((uint64_t)se->runtime, se->period, laxity,
			 se->params.runtime) <= 0) {
		se->stats.wakeups_kept++;
		return;
	}
	if (rq->dom->cfg.wakeup_rule == DLS_WAKEUP_REVISED &&
	    se->params.deadline < se->period && !se->boosted) {
		se->runtime = (int64_t)dls_u128_mul_u64_u64_div_u64(
			se->params.runtime, laxity, se->params.deadline);
		se->stats.wakeups_kept++;
		if (se->runtime > 0)
			return;
	} else {
		se->stats.wakeups_renewed++;
	}
	dls__cbs_new_instance(rq, se, now);
}

/*
 * Replenishment: postpone the deadline by P and add Q until the runtime is
 * positive. If the deadline is still behind now the entity lagged (it was
 * not scheduled for a whole period): start afresh at now + D with a full
 * budget, and count it.
 */
void dls__cbs_replenish(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t q = se->params.runtime;

	if (se->is_new) {
		dls__cbs_new_instance(rq, se, now);
		return;
	}
	if (se->runtime <= 0) {
		/* k = the number of periods that make the runtime positive. */
		uint64_t debt = se->runtime < 0
					? (uint64_t)(-(se->runtime + 1)) + 1
					: 0;
		uint64_t k = debt / q + 1;

		if (k > CBS_STEP_MAX / se->period) {
			se->deadline = now - 1; /* force the lag reset below */
		} else {
			se->deadline += k * se->period;
			se->runtime += (int64_t)(k * q);
		}
	}
	se->yielded = false;
	se->stats.replenishments++;
	if (dls_time_before(se->deadline, now)) {
		se->stats.lagged++;
		dls__trace(rq, DLS_TRACE_LAGGED, se, now);
		se->deadline = now + se->params.deadline;
		se->runtime = (int64_t)q;
	}
	dls__trace(rq, DLS_TRACE_REPLENISH, se, now);
}

/*
 * Throttle: the budget is spent. Leave the EDF tree and sleep until the
 * deadline, when the replenishment timer fires; if that instant has already
 * passed, replenish at once.
 */
void dls__cbs_throttle(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	const struct dls_domain *dom = rq->dom;

	if (se->queued)
		dls__rq_erase(rq, se, now);
	se->stats.throttles++;
	dls__trace(rq, DLS_TRACE_THROTTLE, se, now);
	if (dls_time_before(now, se->deadline)) {
		se->throttled = true;
		se->timer.expires = se->deadline;
		se->timer.armed = true;
		dom->ops->timer_arm(dom->ctx, &se->timer, se->deadline);
	} else {
		dls__cbs_replenish(rq, se, now);
		if (se->runnable)
			dls__rq_insert(rq, se, now);
	}
	if (se == rq->curr)
		dls__resched(rq);
}

/*
 * Decaying average of the time deadline entities consumed on this CPU (the
 * avg_update of the 2012 SCHED_DEADLINE patches): halved every avg_period, so it reads as roughly two
 * periods' worth of recent deadline load.
 */
void dls__cbs_avg_update(struct dls_rq *rq, uint64_t delta, uint64_t now)
{
	uint64_t period = rq->dom->cfg.avg_period;
	uint64_t age = now - rq->avg_stamp;

	if ((int64_t)age >= 0 && age >= period) {
		uint64_t halvings = age / period;

		if (halvings >= 64) {
			rq->avg = 0;
			rq->avg_stamp = now;
		} else {
			rq->avg >>= halvings;
			rq->avg_stamp += halvings * period;
		}
	}
	rq->avg += delta;
}

/* A deadline miss, counted once per instance with its lateness. */
void dls__cbs_note_miss(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t lateness = now - se->deadline;

	if (se->missed)
		return;
	se->missed = true;
	se->stats.misses++;
	if (lateness > se->stats.max_lateness)
		se->stats.max_lateness = lateness;
	dls__trace(rq, DLS_TRACE_MISS, se, now);
}

/*
 * Accounting (update_curr): charge the running entity the time since its
 * last charge, scaled by the CPU's capacity. When the runtime is spent or
 * the deadline passed while running, the overrun is carried into the next
 * instance (a deadline overrun counts as runtime owed) and the entity is
 * throttled — unless it is boosted by inheritance, in which case it is
 * replenished at once and keeps running.
 */
void dls__cbs_account(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t delta = now - se->exec_start;
	uint64_t scaled;
	bool dmiss, rorun;

	if ((int64_t)delta <= 0)
		return;
	se->exec_start = now;
	if (!se->queued)
		return; /* throttled but not yet switched out: not charged */

	scaled = rq->capacity == DLS_CAPACITY_SCALE
			 ? delta
			 : dls_u128_mul_u64_u32_shr(delta, rq->capacity,
						    DLS_CAPACITY_SHIFT);
	if (scaled > CBS_STEP_MAX)
		scaled = CBS_STEP_MAX;
	se->stats.runtime_consumed += scaled;
	se->runtime -= (int64_t)scaled;
	dls__cbs_avg_update(rq, scaled, now);

	dmiss = dls_time_before(se->deadline, now);
	rorun = se->runtime <= 0;
	if (!dmiss && !rorun)
		return;
	if (dmiss) {
		dls__cbs_note_miss(rq, se, now);
		if (!rorun)
			se->runtime = 0;
		se->runtime -= (int64_t)(now - se->deadline);
	}
	if (!se->yielded) {
		se->stats.overruns++;
		dls__trace(rq, DLS_TRACE_OVERRUN, se, now);
		if ((se->params.flags & DLS_FLAG_OVERRUN) && se->overrun_cb)
			se->overrun_cb(se->overrun_arg, se);
	}
	if (se->boosted) {
		dls__rq_requeue(rq, se, now, dls__cbs_replenish);
		return;
	}
	dls__cbs_throttle(rq, se, now);
}
