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
 */
#include "cbs/grub_impl.h"

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
 * Start of the next period of the current instance: the instant a
 * throttled entity is replenished (Linux's dl_next_period). The 2012
 * rule replenishes at the deadline instead.
 */
static uint64_t replenish_at(const struct dls_rq *rq, const struct dls_entity *se)
{
	if (rq->dom->cfg.replenish_rule == DLS_REPLENISH_AT_DEADLINE)
		return se->deadline;
	return se->deadline - se->params.deadline + se->period;
}

/* Sleep until the replenishment instant @at (the timer queues it again). */
static void throttle_until(struct dls_rq *rq, struct dls_entity *se, uint64_t at)
{
	const struct dls_domain *dom = rq->dom;

	se->throttled = true;
	se->timer.expires = at;
	se->timer.armed = true;
	dom->ops->timer_arm(dom->ctx, &se->timer, at);
}

/*
 * Late wake-up of a constrained entity (Linux's dl_check_constrained_dl):
 * woken after its deadline but before its next period, it has already had
 * its share of this period; it stays throttled, with no runtime left,
 * until that period starts. Returns true when it was throttled.
 */
static bool cbs_wakeup_late_constrained(struct dls_rq *rq, struct dls_entity *se,
					uint64_t now)
{
	uint64_t at;

	if (rq->dom->cfg.replenish_rule != DLS_REPLENISH_NEXT_PERIOD ||
	    se->params.deadline >= se->period || se->boosted || se->is_new)
		return false;
	at = replenish_at(rq, se);
	if (!dls_time_before(se->deadline, now) || !dls_time_before(now, at))
		return false;
	if (se->runtime > 0)
		se->runtime = 0;
	se->stats.throttles++;
	dls__trace(rq, DLS_TRACE_THROTTLE, se, now);
	throttle_until(rq, se, at);
	return true;
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
 * laxity. A constrained entity that wakes between its deadline and its
 * next period stays throttled (see cbs_wakeup_late_constrained()); the
 * caller queues the entity only if it is not throttled on return.
 */
void dls__cbs_wakeup(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	bool revised = rq->dom->cfg.wakeup_rule == DLS_WAKEUP_REVISED;
	uint64_t laxity;

	if (cbs_wakeup_late_constrained(rq, se, now))
		return;
	if (se->is_new || !dls_time_before(now, se->deadline) ||
	    se->runtime <= 0) {
		if (!se->is_new)
			se->stats.wakeups_renewed++;
		dls__cbs_new_instance(rq, se, now);
		return;
	}
	laxity = se->deadline - now;
	if (dls_u128_mul_cmp((uint64_t)se->runtime,
			     revised ? se->params.deadline : se->period, laxity,
			     se->params.runtime) <= 0) {
		se->stats.wakeups_kept++;
		return;
	}
	if (revised && se->params.deadline < se->period && !se->boosted) {
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
 * Postponement: move the deadline by P and add Q until the runtime is
 * positive (k periods when an overrun ran the runtime below -Q).
 */
static void cbs_postpone(struct dls_entity *se, uint64_t now)
{
	uint64_t q = se->params.runtime;
	/* k = the number of periods that make the runtime positive. */
	uint64_t debt = se->runtime < 0 ? (uint64_t)(-(se->runtime + 1)) + 1 : 0;
	uint64_t k = debt / q + 1;

	if (k > CBS_STEP_MAX / se->period) {
		se->deadline = now - 1; /* force the lag reset */
	} else {
		se->deadline += k * se->period;
		se->runtime += (int64_t)(k * q);
	}
}

/*
 * Replenishment: postpone the deadline by P and add Q until the runtime is
 * positive. If the deadline is still behind now the entity lagged (it was
 * not scheduled for a whole period): start afresh at now + D with a full
 * budget, and count it.
 */
void dls__cbs_replenish(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	if (se->is_new) {
		dls__cbs_new_instance(rq, se, now);
		return;
	}
	if (se->runtime <= 0)
		cbs_postpone(se, now);
	se->yielded = false;
	se->stats.replenishments++;
	if (dls_time_before(se->deadline, now)) {
		se->stats.lagged++;
		dls__trace(rq, DLS_TRACE_LAGGED, se, now);
		se->deadline = now + se->params.deadline;
		se->runtime = (int64_t)se->params.runtime;
	}
	dls__trace(rq, DLS_TRACE_REPLENISH, se, now);
}

/*
 * Soft reservation (the original CBS, Abeni & Buttazzo 1998, rule on
 * budget exhaustion): postpone the deadline by P with a full budget and
 * keep running, without throttling and without the lag reset, so that a
 * late job keeps the deadline sequence of its periodic task.
 */
static void soft_postpone_step(struct dls_rq *rq, struct dls_entity *se,
			       uint64_t now)
{
	cbs_postpone(se, now);
	se->yielded = false;
	se->stats.replenishments++;
	dls__trace(rq, DLS_TRACE_REPLENISH, se, now);
}

static void cbs_soft_postpone(struct dls_rq *rq, struct dls_entity *se,
			      uint64_t now)
{
	dls__rq_requeue(rq, se, now, soft_postpone_step);
	if (se == rq->curr)
		dls__resched(rq);
}

/*
 * Throttle: the budget is spent. Leave the EDF tree and sleep until the
 * replenishment instant (the next period), when the timer fires; if that
 * instant has already passed, replenish at once.
 */
void dls__cbs_throttle(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t at = replenish_at(rq, se);

	if (se->queued)
		dls__rq_erase(rq, se, now);
	se->stats.throttles++;
	dls__trace(rq, DLS_TRACE_THROTTLE, se, now);
	if (dls_time_before(now, at)) {
		throttle_until(rq, se, at);
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

static uint64_t scale_capacity(const struct dls_rq *rq, uint64_t delta)
{
	uint64_t scaled = rq->capacity == DLS_CAPACITY_SCALE
				  ? delta
				  : dls_u128_mul_u64_u32_shr(delta, rq->capacity,
							     DLS_CAPACITY_SHIFT);

	return scaled > CBS_STEP_MAX ? CBS_STEP_MAX : scaled;
}

/* The least dt with floor(dt * rate / 2^shift) >= want (rate > 0). */
static uint64_t least_time_for(uint64_t want, uint64_t rate, unsigned int shift)
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

uint64_t dls_budget_ns(const struct dls_rq *rq, const struct dls_entity *se)
{
	uint64_t rate;

	DLS_ASSERT(rq && se);
	if (se->runtime <= 0)
		return 0;
	if (se->params.flags & DLS_FLAG_RECLAIM) {
		rate = dls__grub_rate(rq, se);
		return rate ? least_time_for((uint64_t)se->runtime, rate, DLS_BW_SHIFT)
			    : UINT64_MAX;
	}
	if (rq->capacity == DLS_CAPACITY_SCALE)
		return (uint64_t)se->runtime;
	return least_time_for((uint64_t)se->runtime, rq->capacity, DLS_CAPACITY_SHIFT);
}

/*
 * The 2012 overrun rule (DLS_OVERRUN_2012), evaluated at the deadline
 * rather than at the call that notices it: the runtime left at the
 * deadline is forfeited, and the time run after the deadline (from
 * max(deadline, @start) to @now) is charged once, so the result does not
 * depend on when the platform called in.
 */
static void cbs_forfeit_at_deadline(const struct dls_rq *rq, struct dls_entity *se,
				    uint64_t start, uint64_t now)
{
	uint64_t from = dls_time_before(start, se->deadline) ? se->deadline : start;
	uint64_t after = scale_capacity(rq, now - from);

	if (se->runtime + (int64_t)after > 0)
		se->runtime = -(int64_t)after;
}

/*
 * Accounting (update_curr): charge the running entity the time since its
 * last charge, scaled by the CPU's capacity. The budget is exhausted when
 * runtime <= 0 (today's Linux, dl_runtime_exceeded; a passed deadline is
 * only recorded as a miss). The overrun is carried into the next instance
 * and the entity is throttled — unless it is boosted by inheritance, in
 * which case it is replenished at once and keeps running, or it is a soft
 * reservation, which is postponed and keeps running.
 */
void dls__cbs_account(struct dls_rq *rq, struct dls_entity *se, uint64_t now)
{
	uint64_t start = se->exec_start;
	uint64_t delta = now - start;
	uint64_t scaled, charge;
	bool dmiss;

	if ((int64_t)delta <= 0)
		return;
	se->exec_start = now;
	if (!se->queued)
		return; /* throttled but not yet switched out: not charged */

	scaled = scale_capacity(rq, delta);
	se->stats.exec_time += scaled;
	if (DLS_UNLIKELY(se->params.flags & DLS_FLAG_RECLAIM))
		charge = dls__grub_reclaim(rq, se, delta > CBS_STEP_MAX ? CBS_STEP_MAX : delta);
	else
		charge = scaled;
	se->runtime -= (int64_t)charge;
	se->stats.runtime_charged += charge;
	dls__cbs_avg_update(rq, scaled, now);

	dmiss = dls_time_before(se->deadline, now);
	if (dmiss) {
		dls__cbs_note_miss(rq, se, now);
		if (rq->dom->cfg.overrun_rule == DLS_OVERRUN_2012)
			cbs_forfeit_at_deadline(rq, se, start, now);
	}
	if (se->runtime > 0)
		return;
	/* An overrun is a job that needed more than its budget (or ran past
	 * its deadline); one that used exactly its budget is throttled
	 * (runtime <= 0, as Linux) but did not overrun. */
	if (!se->yielded && (se->runtime < 0 || dmiss)) {
		se->stats.overruns++;
		dls__trace(rq, DLS_TRACE_OVERRUN, se, now);
		if ((se->params.flags & DLS_FLAG_OVERRUN) && se->overrun_cb)
			se->overrun_cb(se->overrun_arg, se);
	}
	if (se->boosted) {
		dls__rq_requeue(rq, se, now, dls__cbs_replenish);
		return;
	}
	if ((se->params.flags & DLS_FLAG_SOFT) && !se->yielded) {
		cbs_soft_postpone(rq, se, now);
		return;
	}
	dls__cbs_throttle(rq, se, now);
}
