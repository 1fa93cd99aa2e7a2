/*
 * The CBS rules (src/cbs/cbs.c) as decisions: each takes an entity's state,
 * now and the domain's configuration, and returns what to do with the
 * entity's (deadline, runtime) pair; it changes nothing. The runqueue
 * (src/edf/rq.c) applies the decision: the tree, the timers, the counts
 * and the trace are its. src/cbs/ calls nothing above it, so these rules
 * are tested alone (tests/test_cbs_rules.c). Never installed.
 */
#ifndef DLSCHED_CBS_IMPL_H
#define DLSCHED_CBS_IMPL_H

#include <dlsched/math128.h>
#include <dlsched/types.h>

#include "internal.h"

/*
 * The largest step these rules take in one go, 2^62 ns (about 146 years):
 * half the 2^63 ns window in which dls_time_before() orders two instants.
 * A deadline postponed by at most this much still compares right against
 * now, and an s64 runtime (at most Q < 2^63) charged or replenished by at
 * most this much cannot overflow. A single charge is clamped to it (a clock
 * jump cannot wrap the runtime); a replenishment that would need more has
 * lagged beyond recovery and starts afresh.
 */
#define DLS_CBS_STEP_MAX (UINT64_C(1) << 62)

/* What a rule decided for the entity's pair. */
enum dls__cbs_action {
	DLS_CBS_KEEP,      /* keep (deadline, runtime) as they are */
	DLS_CBS_TRIM,      /* keep the deadline, runtime becomes .runtime */
	DLS_CBS_RENEW,     /* new instance: (now + D, Q) in .deadline, .runtime */
	DLS_CBS_REPLENISH, /* replenished to (.deadline, .runtime) */
	DLS_CBS_LAGGED,    /* the replenishment left the pair at (.lag_deadline,
			    * .lag_runtime), the deadline behind now: start
			    * afresh at (.deadline, .runtime) = (now + D, Q) */
	DLS_CBS_THROTTLE,  /* sleep until .at with .runtime (no budget left) */
};

struct dls__cbs_decision {
	enum dls__cbs_action action;
	/* A wake-up counted as one that kept its deadline (dls_stats::
	 * wakeups_kept), also when the trimmed runtime was none and a new
	 * instance starts. */
	bool kept;
	uint64_t deadline;
	int64_t runtime;
	uint64_t at;           /* THROTTLE only */
	uint64_t lag_deadline; /* LAGGED only */
	int64_t lag_runtime;   /* LAGGED only */
};

/* What to do when the budget is spent (runtime <= 0 after a charge). */
enum dls__cbs_exhausted {
	DLS_CBS_EXHAUSTED_REPLENISH, /* boosted: replenish at once, keep running */
	DLS_CBS_EXHAUSTED_POSTPONE,  /* soft reservation: postpone, keep running */
	DLS_CBS_EXHAUSTED_THROTTLE,  /* the hard reservation's rule */
};

/* The wake-up rule (CBS rule (a) and Linux's revised wake-up). */
DLS_HIDDEN struct dls__cbs_decision
dls__cbs_wakeup_rule(const struct dls_entity *se, uint64_t now,
		     const struct dls_domain_config *cfg);

/* The replenishment rule: RENEW, REPLENISH or LAGGED. */
DLS_HIDDEN struct dls__cbs_decision
dls__cbs_replenish_rule(const struct dls_entity *se, uint64_t now);

/* A soft reservation's postponement (original CBS rule (b)): REPLENISH. */
DLS_HIDDEN struct dls__cbs_decision
dls__cbs_postpone_rule(const struct dls_entity *se, uint64_t now);


/*
 * Start of the next period of the current instance: the instant a
 * throttled entity is replenished (Linux's dl_next_period). The 2012
 * rule replenishes at the deadline instead.
 */
static inline uint64_t dls__cbs_replenish_at(const struct dls_domain_config *cfg,
					     const struct dls_entity *se)
{
	if (cfg->replenish_rule == DLS_REPLENISH_AT_DEADLINE)
		return se->deadline;
	return se->deadline - se->params.deadline + se->period;
}

/*
 * The throttle rule: the budget is spent. THROTTLE until the replenishment
 * instant (the next period); if that instant has already passed, the
 * replenishment rule's decision (replenished at once). Inline: it runs on
 * every throttle of the accounting path.
 */
static inline struct dls__cbs_decision
dls__cbs_throttle_rule(const struct dls_entity *se, uint64_t now,
		       const struct dls_domain_config *cfg)
{
	struct dls__cbs_decision d;

	d.at = dls__cbs_replenish_at(cfg, se);
	if (!dls_time_before(now, d.at))
		return dls__cbs_replenish_rule(se, now);
	d.action = DLS_CBS_THROTTLE;
	d.kept = false;
	d.deadline = se->deadline;
	d.runtime = se->runtime;
	return d;
}

/* The 2012 overrun rule: the runtime after the charge of the time run
 * past the deadline (from max(deadline, @start) to @now, at @capacity). */
DLS_HIDDEN int64_t dls__cbs_forfeit_rule(const struct dls_entity *se,
					 uint64_t start, uint64_t now,
					 uint32_t capacity);

/* The least dt with floor(dt * rate / 2^shift) >= want (rate > 0): how
 * long an entity charged at @rate may run on @want ns of runtime. */
DLS_HIDDEN uint64_t dls__cbs_time_for(uint64_t want, uint64_t rate,
				      unsigned int shift);

/* The effective period of @p: P, or D when P is 0. */
static inline uint64_t dls__params_period(const struct dls_params *p)
{
	return p->period ? p->period : p->deadline;
}

/* @delta ns of a CPU of @capacity in full-speed ns, at most the step. */
static inline uint64_t dls__cbs_scale(uint32_t capacity, uint64_t delta)
{
	uint64_t scaled = capacity == DLS_CAPACITY_SCALE
				  ? delta
				  : dls_u128_mul_u64_u32_shr(delta, capacity,
							     DLS_CAPACITY_SHIFT);

	return scaled > DLS_CBS_STEP_MAX ? DLS_CBS_STEP_MAX : scaled;
}

/* A charge that leaves runtime <= 0 is an overrun unless the entity
 * yielded, or used exactly its budget before its deadline. */
static inline bool dls__cbs_overran(const struct dls_entity *se, bool dmiss)
{
	return !se->yielded && (se->runtime < 0 || dmiss);
}

/* The budget is spent (runtime <= 0): what the entity's kind makes of it. */
static inline enum dls__cbs_exhausted
dls__cbs_exhausted_rule(const struct dls_entity *se)
{
	if (se->boosted)
		return DLS_CBS_EXHAUSTED_REPLENISH;
	if ((se->params.flags & DLS_FLAG_SOFT) && !se->yielded)
		return DLS_CBS_EXHAUSTED_POSTPONE;
	return DLS_CBS_EXHAUSTED_THROTTLE;
}

#endif /* DLSCHED_CBS_IMPL_H */
