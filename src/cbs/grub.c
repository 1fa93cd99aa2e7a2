/*
 * GRUB bandwidth reclaiming (Lipari & Baruah, "Greedy reclamation of
 * unused bandwidth in constant-bandwidth servers", ECRTS 2000), in the form
 * SCHED_DEADLINE gives it (Abeni, Lelli, Scordino, Palopoli, "Greedy CPU
 * reclaiming for SCHED_DEADLINE", RTLWS 2014; M-GRUB: Abeni, Lipari, Parri,
 * Sun, "Multicore CPU reclaiming: parallel or sequential?", SAC 2016;
 * Documentation/scheduler/sched-deadline.rst §2.2).
 *
 * Every entity is in one of three states (enum dls_bw_state):
 *  - active contending: runnable (queued, running or throttled);
 *  - active non-contending: blocked, but its 0-lag time
 *        t0 = deadline - runtime * P / Q
 *    is still ahead (it could wake and keep its deadline), so its
 *    bandwidth is still owed to it; the 0-lag timer fires at t0;
 *  - inactive: not woken since attach, or blocked past its 0-lag time.
 *
 * This file holds GRUB's rules, a leaf like the CBS rules (src/cbs/
 * grub_impl.h): Umax and 1/Umax from the limit, the 0-lag time, whether a
 * blocking entity becomes inactive at once, and the charging rate from
 * the bandwidth sums. The sums live in the bandwidth objects
 * (src/edf/bw_impl.h); the runqueue (src/edf/rq.c, and src/edf/entity.c
 * for attach, detach and new parameters) keeps them and the 0-lag timers
 * and applies the rules.
 *
 * Invariants (dls_rq_check(), dls_domain_check()):
 *  - rq->bw.running (Linux's running_bw) = sum of bw over the rq's
 *    attached entities that are not inactive, and <= rq->bw.total
 *    (this_bw);
 *  - an entity is contending iff it is runnable, and its 0-lag timer is
 *    armed iff it is non-contending;
 *  - nr_reclaiming of the object that admits a runqueue's entities
 *    (the runqueue's own, or its global domain's) counts those attached
 *    with DLS_FLAG_RECLAIM.
 *
 * A reclaiming entity running for dt is charged (Linux's grub_reclaim)
 *
 *     dq = -max{u, Umax - Uinact - Uextra} / Umax * dt
 *
 * with u its bandwidth, Umax the domain's bw_limit (1.0 when unlimited),
 * Uinact = this_bw - running_bw and Uextra the bandwidth admission leaves
 * free on the CPU, Umax - (admitted bandwidth per CPU). 1/Umax is kept
 * with DLS_RATIO_SHIFT fractional bits and the product truncated as the
 * kernel does. As in the kernel (GRUB-PA), the reclaiming charge is not
 * scaled by the CPU's capacity. Uextra is derived from the admission sums
 * whenever it is needed (Linux keeps it incrementally, rounding each
 * task's share), so it stays exact across hotplug.
 *
 * With the domain's CBS rules: the charge replaces only the rate; a
 * reclaiming entity is throttled, replenished and woken by the rules
 * dls_domain_config selects, and under DLS_OVERRUN_2012 the time it runs
 * past its deadline is charged at full rate, as for any entity. A soft
 * reservation (DLS_FLAG_SOFT) runs into all idle time already and never
 * throttles, so dls_params_check() refuses it with DLS_FLAG_RECLAIM.
 *
 * Linux arms the 0-lag timer of every deadline task; here it is armed
 * only while the bandwidth object that admits the entity has a reclaiming
 * entity (its nr_reclaiming: the global domain's, or on a CPU scheduled on
 * its own that CPU's), as nobody else reads running_bw: a domain without
 * DLS_FLAG_RECLAIM schedules exactly as before, and so does a CPU of a
 * partitioned domain with no reclaiming entity. An entity that blocked
 * before the first reclaiming entity attached there counts as inactive at
 * once.
 */
#include "cbs/grub_impl.h"

uint64_t dls__grub_max_bw(uint64_t bw_limit)
{
	return bw_limit == DLS_BW_UNLIMITED || bw_limit > DLS_BW_UNIT ? DLS_BW_UNIT
								      : bw_limit;
}

uint64_t dls__grub_bw_ratio(uint64_t max_bw)
{
	return max_bw == 0 ? 0
		: ((DLS_BW_UNIT << DLS_BW_SHIFT) / max_bw) >>
		  (DLS_BW_SHIFT - DLS_RATIO_SHIFT);
}

/* 0-lag time: when the entity's remaining runtime, served at its
 * bandwidth Q/P, would end: deadline - runtime * P / Q (truncated). */
uint64_t dls__grub_zero_lag_time(const struct dls_entity *se)
{
	uint64_t q = se->params.runtime, p = se->period;

	if (se->runtime >= 0)
		return se->deadline -
		       dls_u128_mul_u64_u64_div_u64((uint64_t)se->runtime, p, q);
	return se->deadline +
	       dls_u128_mul_u64_u64_div_u64((uint64_t)-(se->runtime + 1) + 1, p, q);
}

/*
 * An entity blocks (Linux's task_non_contending): it stays active
 * non-contending until its 0-lag time *@t0 if that is still ahead and
 * somebody in the domain reclaims (@reclaiming); otherwise it becomes
 * inactive at once (returns true).
 */
bool dls__grub_inactive_now(const struct dls_entity *se, uint64_t now,
			    bool reclaiming, uint64_t *t0)
{
	*t0 = dls__grub_zero_lag_time(se);
	return !dls_time_before(now, *t0) || !reclaiming;
}
