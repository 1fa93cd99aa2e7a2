/**
 * @file sched.h
 * @brief EDF + CBS scheduling: domains, runqueues, entities and the
 * class-style entry points.
 *
 * @code
 * static const struct dls_ops ops = {
 *     .now = my_now, .timer_arm = my_arm, .timer_cancel = my_cancel,
 *     .resched = my_resched,
 * };
 * struct dls_domain dom;
 * struct dls_rq rq[1];
 * dls_domain_init(&dom, &ops, my_ctx, NULL, rq, 1);
 *
 * struct dls_params p = { .runtime = 2000000, .deadline = 10000000 };
 * dls_entity_init(&task->se);
 * if (dls_entity_attach(&rq[0], &task->se, &p) == 0) {
 *     dls_wakeup(&rq[0], &task->se);
 *     struct dls_entity *next = dls_schedule(&rq[0]);
 * }
 * @endcode
 *
 * Lock contract: every function taking a runqueue expects the caller to
 * hold that runqueue's lock (or to be the only thread using it).
 *
 * Misuse: pointers are preconditions (the kernel's rule). Passing NULL
 * where an object is expected is a bug in the caller, caught by an
 * assertion in checked builds (DLSCHED_ENABLE_ASSERT) and not tested in
 * release builds; a parameter documented "may be NULL" is the only
 * exception. The state of an entity, by contrast, is checked in every
 * build: each call that changes an entity refuses one in the wrong state
 * (not attached, attached elsewhere, already queued or runnable, not
 * current, ...) with a distinct DLS_E* code and changes nothing.
 */
#ifndef DLSCHED_SCHED_H
#define DLSCHED_SCHED_H

#include <dlsched/types.h>

/**
 * @defgroup sched EDF + CBS scheduler
 * @brief Per-CPU EDF runqueues with Constant Bandwidth Server reservations.
 * @{
 */

/** @brief dls_enqueue(): the entity woke up (apply the CBS wake-up rule). */
#define DLS_ENQUEUE_WAKEUP 0x1u
/** @brief dls_enqueue(): replenish the budget before queueing. */
#define DLS_ENQUEUE_REPLENISH 0x2u

/** @brief dls_dequeue(): the entity blocks (stops being runnable). */
#define DLS_DEQUEUE_SLEEP 0x1u
/** @brief dls_dequeue(): the entity's current job is complete (implies SLEEP). */
#define DLS_DEQUEUE_DONE 0x2u

/**
 * @brief Fill @p cfg with the defaults (100 us .. 2^22 us periods, 95%
 * bandwidth limit, 500 ms average half-life, and today's Linux rules:
 * DLS_OVERRUN_LINUX, DLS_REPLENISH_NEXT_PERIOD, DLS_WAKEUP_REVISED; set
 * DLS_OVERRUN_2012, DLS_REPLENISH_AT_DEADLINE and DLS_WAKEUP_CBS to
 * reproduce the 2012 SCHED_DEADLINE patches).
 * @param[out] cfg the configuration.
 */
DLS_API void dls_domain_config_default(struct dls_domain_config *cfg);

/**
 * @brief Initialise a domain and its runqueues (all at full capacity).
 * @param[out] dom the domain.
 * @param[in] ops platform operations; @c now, @c timer_arm, @c timer_cancel
 *            and @c resched are required. Must outlive the domain.
 * @param[in] ctx first argument of every op.
 * @param[in] cfg configuration, or NULL for the defaults.
 * @param[out] rqs caller-owned array of @p nr_cpus runqueues.
 * @param[in] nr_cpus number of CPUs, at least 1.
 * @retval 0 success.
 * @retval DLS_EINVAL a missing required op, nr_cpus < 1, or a configuration
 *         with period_min > period_max, period_min == 0, avg_period == 0, a
 *         rule outside its enum, or a bw_limit above DLS_BW_UNIT (100% of a
 *         CPU) other than DLS_BW_UNLIMITED.
 */
DLS_API int dls_domain_init(struct dls_domain *dom, const struct dls_ops *ops,
			    void *ctx, const struct dls_domain_config *cfg,
			    struct dls_rq *rqs, int nr_cpus);

/**
 * @brief Set a runqueue's CPU capacity (1024 = full speed).
 *
 * Runtime is charged scaled by capacity/1024 and the admission limit of the
 * runqueue is scaled likewise. In a global domain (smp.h) capacity-aware
 * placement follows: it is on while any CPU runs below 1024. Raising a
 * capacity (or lowering an offline CPU's) is never refused.
 * @param[in,out] rq the runqueue (lock held). In a global domain the
 *            change is admitted under the domain's bandwidth lock, atomic
 *            with concurrent attaches and hotplug; other CPUs' placement
 *            sees the new capacity from its next decision on.
 * @param[in] capacity 1 .. 1024.
 * @retval 0 success.
 * @retval DLS_EINVAL capacity out of range.
 * @retval DLS_EBANDWIDTH the admitted bandwidth would no longer fit.
 */
DLS_API int dls_rq_set_capacity(struct dls_rq *rq, uint32_t capacity);

/**
 * @brief Check parameters against every rule, in a fixed order.
 * @param[in] dom the domain whose period range applies, or NULL for the
 *            default range.
 * @param[in] p the parameters.
 * @retval 0 valid.
 * @retval DLS_EINVAL @p p is NULL.
 * @retval DLS_ETOPBIT a time value has bit 63 set.
 * @retval DLS_EFLAGS unknown flag bits, or DLS_FLAG_RECLAIM with
 *         DLS_FLAG_SOFT.
 * @retval DLS_EDEADLINE_ZERO deadline is 0.
 * @retval DLS_ERUNTIME_MIN runtime below DLS_RUNTIME_MIN.
 * @retval DLS_ERUNTIME_GT_DEADLINE runtime > deadline.
 * @retval DLS_EDEADLINE_GT_PERIOD deadline > period (period != 0).
 * @retval DLS_EPERIOD_RANGE effective period outside [period_min, period_max].
 */
DLS_API int dls_params_check(const struct dls_domain *dom,
			     const struct dls_params *p);

/**
 * @brief Bandwidth Q/P of valid parameters in DLS_BW_SHIFT fixed point,
 * rounded down.
 * @param[in] p valid parameters.
 * @return the bandwidth.
 */
DLS_API uint64_t dls_params_bw(const struct dls_params *p);

/**
 * @brief Prepare an entity (off any runqueue, statistics zeroed).
 *
 * The constructor: it takes memory in any state (fresh, on the stack,
 * reused), so it cannot tell a live entity from garbage and checks
 * nothing. Never call it on an entity that is still attached: retire that
 * one with dls_task_dead() first, which may be followed at once by this
 * call. Every other entry point refuses an entity in the wrong state.
 * @param[out] se the entity.
 */
DLS_API void dls_entity_init(struct dls_entity *se);

/**
 * @brief Attach an entity to a runqueue with its parameters, subject to
 * admission control. The entity is not runnable until dls_wakeup().
 * @param[in,out] rq the runqueue (lock held).
 * @param[in,out] se an initialised, detached entity.
 * @param[in] p its parameters.
 * @retval 0 success.
 * @retval DLS_EATTACHED @p se is already attached.
 * @retval DLS_EBANDWIDTH admission control refused it; nothing changed.
 * @retval other the error of dls_params_check(); nothing changed.
 */
DLS_API int dls_entity_attach(struct dls_rq *rq, struct dls_entity *se,
			      const struct dls_params *p);

/**
 * @brief Attach an entity that runs on a reservation it borrows, outside
 * admission control: its bandwidth is not counted (a later
 * dls_entity_set_params() admits it like an attach).
 *
 * For a task of a lower class that inherits a deadline through a lock (the
 * PI layer): it joins the deadline class with its donor's parameters while
 * boosted, as the kernel runs a boosted task with its donor's parameters
 * without adding it to the root domain's bandwidth, and leaves with
 * dls_task_dead() once deboosted.
 * @param[in,out] rq the runqueue (lock held).
 * @param[in,out] se an initialised, detached entity.
 * @param[in] p the borrowed parameters (the donor's).
 * @retval 0 success.
 * @retval DLS_EATTACHED @p se is already attached.
 * @retval other the error of dls_params_check(); nothing changed.
 */
DLS_API int dls_entity_attach_borrowed(struct dls_rq *rq, struct dls_entity *se,
				       const struct dls_params *p);

/**
 * @brief Change an attached entity's parameters, even while it is queued
 * or running.
 *
 * The current instance keeps its absolute deadline; its remaining runtime
 * is cut to the new budget if larger. The next instance (replenishment or
 * renewal) uses the new values. A queued entity is requeued.
 * @param[in,out] rq its runqueue (lock held).
 * @param[in,out] se the entity.
 * @param[in] p the new parameters.
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue.
 * @retval DLS_EBANDWIDTH admission control refused the change; nothing changed.
 *         Never for a change that lowers the bandwidth, even while the
 *         domain holds more than its limit (after a forced offline).
 * @retval other the error of dls_params_check(); nothing changed.
 */
DLS_API int dls_entity_set_params(struct dls_rq *rq, struct dls_entity *se,
				  const struct dls_params *p);

/**
 * @brief Read the configured parameters and the live CBS state.
 * @param[in] se the entity.
 * @param[out] p configured parameters (may be NULL).
 * @param[out] runtime remaining runtime of this instance, ns (may be NULL).
 * @param[out] deadline absolute deadline of this instance, ns (may be NULL).
 */
DLS_API void dls_entity_get(const struct dls_entity *se, struct dls_params *p,
			    int64_t *runtime, uint64_t *deadline);

/**
 * @brief Detach an entity (the task died): dequeue it, cancel its timer and
 * release its bandwidth. Safe in any state.
 *
 * The timer is cancelled through @c timer_cancel, which does not wait: on a
 * threaded platform an expiry already in progress may still touch the
 * entity afterwards. Wait for it (on the POSIX platform,
 * dls_posix_task_dead() does both) before freeing or re-initialising @p se.
 * @param[in,out] rq its runqueue (lock held).
 * @param[in,out] se the entity.
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached (already dead); nothing changed.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue; nothing changed.
 */
DLS_API int dls_task_dead(struct dls_rq *rq, struct dls_entity *se);

/**
 * @brief Put an attached entity on the runqueue.
 *
 * With DLS_ENQUEUE_WAKEUP the entity becomes runnable and the CBS wake-up
 * rule decides whether it keeps its deadline; with DLS_ENQUEUE_REPLENISH
 * its budget is replenished first. With no flag it is put back as it was
 * (after dls_dequeue() with no flag, around a change): no CBS rule applies,
 * except that an entity that never started an instance starts one. A
 * throttled entity is only marked runnable; its replenishment timer will
 * queue it.
 * @param[in,out] rq its runqueue (lock held).
 * @param[in,out] se the entity, not queued.
 * @param[in] flags DLS_ENQUEUE_*.
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue.
 * @retval DLS_EQUEUED @p se is already queued.
 * @retval DLS_EFLAGS a bit of @p flags other than DLS_ENQUEUE_*.
 * On any error nothing changed.
 */
DLS_API int dls_enqueue(struct dls_rq *rq, struct dls_entity *se,
			unsigned int flags);

/**
 * @brief Take an entity off the runqueue.
 *
 * A running entity is charged first. With DLS_DEQUEUE_DONE its job is
 * complete (counted in @c stats.jobs_done): a miss is counted if that
 * happens after its deadline. With no flag it stays runnable, its deadline
 * and runtime kept for a later dls_enqueue() with no flag.
 * @param[in,out] rq its runqueue (lock held).
 * @param[in,out] se the entity.
 * @param[in] flags DLS_DEQUEUE_*.
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue.
 * @retval DLS_ENOTRUNNABLE DLS_DEQUEUE_SLEEP or DLS_DEQUEUE_DONE on an
 *         entity that is not runnable (it already blocked).
 * @retval DLS_ENOTQUEUED no flag, and @p se is not queued (throttled, or
 *         blocked): there is nothing to take off; a throttled current
 *         entity is charged by dls_update_curr() or dls_put_prev().
 * @retval DLS_EFLAGS a bit of @p flags other than DLS_DEQUEUE_*.
 * On any error nothing changed.
 */
DLS_API int dls_dequeue(struct dls_rq *rq, struct dls_entity *se,
			unsigned int flags);

/**
 * @brief Wake an entity: enqueue with DLS_ENQUEUE_WAKEUP, then
 * dls_check_preempt().
 * @param[in,out] rq its runqueue (lock held).
 * @param[in,out] se the entity, not runnable.
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue.
 * @retval DLS_ERUNNABLE @p se is already runnable (woken twice).
 * On any error nothing changed.
 */
DLS_API int dls_wakeup(struct dls_rq *rq, struct dls_entity *se);

/**
 * @brief Whether @p se should preempt the current entity; if so, request
 * a reschedule through the resched op.
 * @param[in,out] rq the runqueue (lock held).
 * @param[in] se a queued entity.
 * @return true when a reschedule was requested.
 */
DLS_API bool dls_check_preempt(struct dls_rq *rq, const struct dls_entity *se);

/**
 * @brief The earliest-deadline queued entity, made current.
 * @param[in,out] rq the runqueue (lock held); no entity is current.
 * @return the entity to run, or NULL when none is queued or the CPU is
 *         offline (rq->online false). If an entity is still current
 *         (dls_put_prev() was not called) it is returned and nothing
 *         changes.
 */
DLS_API struct dls_entity *dls_pick_next(struct dls_rq *rq);

/**
 * @brief The current entity stops running: charge it and clear current.
 * @param[in,out] rq the runqueue (lock held).
 * @param[in,out] se the current entity.
 * @retval 0 success.
 * @retval DLS_ENOTCURR @p se is not @p rq's current entity; nothing changed.
 */
DLS_API int dls_put_prev(struct dls_rq *rq, struct dls_entity *se);

/**
 * @brief Make a queued entity current (starts its charge interval).
 * @param[in,out] rq the runqueue (lock held).
 * @param[in,out] se a queued entity.
 * @retval 0 success (also when @p se is already current).
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue.
 * @retval DLS_ENOTQUEUED @p se is not queued.
 * @retval DLS_EHASCURR another entity is current (dls_put_prev() it first).
 * @retval DLS_EOFFLINE @p rq's CPU is offline (dls_cpu_offline()): nothing
 *         runs there.
 * On any error nothing changed.
 */
DLS_API int dls_set_curr(struct dls_rq *rq, struct dls_entity *se);

/**
 * @brief Charge the current entity for the time since its last charge;
 * throttle it when its budget is spent or its deadline passed.
 * @param[in,out] rq the runqueue (lock held).
 */
DLS_API void dls_update_curr(struct dls_rq *rq);

/**
 * @brief How long @p se may run on @p rq from now before its budget is
 * spent, at the rate it would be charged now: the delay for a one-shot
 * budget timer (Linux's HRTICK). runtime scaled by the CPU's capacity, or,
 * for a DLS_FLAG_RECLAIM entity, by GRUB's rate (which changes when
 * another entity wakes, blocks or passes its 0-lag time: arm again then).
 * Exact: charging that long spends the budget, one ns less does not.
 * @param[in] rq the runqueue @p se runs on (lock held).
 * @param[in] se the entity, usually rq->curr.
 * @return ns of wall-clock time; 0 when the budget is already spent.
 */
DLS_API uint64_t dls_budget_ns(const struct dls_rq *rq, const struct dls_entity *se);

/**
 * @brief Periodic tick: dls_update_curr(), then request a reschedule if the
 * current entity was throttled or is no longer the earliest.
 * @param[in,out] rq the runqueue (lock held).
 */
DLS_API void dls_tick(struct dls_rq *rq);

/**
 * @brief The current entity gives up the rest of this instance until its
 * next period.
 * @param[in,out] rq the runqueue (lock held).
 */
DLS_API void dls_yield(struct dls_rq *rq);

/**
 * @brief The platform calls this when a timer armed through timer_arm fires.
 *
 * Each entity has two timers: dls_entity::timer (replenishment) and
 * dls_entity::inactive_timer (0-lag, for bandwidth reclaiming; armed only
 * while the domain has a DLS_FLAG_RECLAIM entity); this dispatches on
 * dls_timer::zero_lag. Stale expiries (timer no longer armed, or earlier
 * than its expiry time) are ignored, so a cancel racing with an expiry is
 * harmless.
 * @param[in,out] t the timer.
 * @note The caller holds the lock of the runqueue dls_timer_rq() names.
 */
DLS_API void dls_timer_expired(struct dls_timer *t);

/**
 * @brief The entity a timer belongs to (its replenishment timer or its
 * 0-lag timer, dls_entity::inactive_timer).
 * @param[in] t a timer passed to timer_arm.
 * @return the entity.
 */
DLS_API struct dls_entity *dls_timer_entity(const struct dls_timer *t);

/**
 * @brief Bandwidth admission leaves free on @p rq, which reclaiming
 * entities may use besides the inactive bandwidth (GRUB's U_extra, Linux's
 * extra_bw): the domain's bw_limit minus the admitted bandwidth per CPU
 * (per full-speed CPU of online capacity in a global domain), at least 0.
 * @param[in] rq the runqueue (lock held).
 * @return the extra bandwidth, DLS_BW_SHIFT fixed point.
 */
DLS_API uint64_t dls_rq_extra_bw(const struct dls_rq *rq);

/**
 * @brief The runqueue whose lock dls_timer_expired() needs for @p t.
 * @param[in] t a timer passed to timer_arm.
 * @return the runqueue of the timer's entity.
 */
DLS_API struct dls_rq *dls_timer_rq(const struct dls_timer *t);

/**
 * @brief Charge and put back the current entity, pick the earliest one and
 * make it current; in a global domain (dls_smp_init()) also pull earlier
 * work from overloaded CPUs first and push surplus work after.
 * @param[in,out] rq the runqueue (its lock held).
 * @return the entity to run, or NULL to idle. NULL also on an offline CPU
 *         (rq->online false: nothing is picked or charged there; the
 *         library asks an offline CPU to reschedule only once, when
 *         dls_cpu_offline() takes its current entity away, and entities
 *         stranded there wait for dls_cpu_online()).
 * @note In a global domain the pull and the push take other CPUs' runqueue
 *       locks through the lock op, in CPU-id order, dropping and retaking
 *       @p rq's lock on the way (see smp.h): call it holding @p rq's lock
 *       and no other runqueue lock. A caller holding every runqueue lock
 *       (a teardown, say) deadlocks here; use the granular dls_put_prev()
 *       and dls_pick_next() instead, which touch @p rq only.
 */
DLS_API struct dls_entity *dls_schedule(struct dls_rq *rq);

/**
 * @brief Set or clear deadline inheritance on an entity (for the PI layer).
 *
 * While boosted the entity is ordered by @p inherited_deadline and is not
 * throttled: an exhausted budget is replenished at once.
 * @param[in,out] rq its runqueue (lock held).
 * @param[in,out] se the entity.
 * @param[in] boosted true to boost, false to restore its own deadline.
 * @param[in] inherited_deadline the donor's absolute deadline (ignored when
 *            @p boosted is false).
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_EOTHERRQ @p se is attached to another runqueue.
 * On any error nothing changed.
 */
DLS_API int dls_entity_set_boost(struct dls_rq *rq, struct dls_entity *se,
				 bool boosted, uint64_t inherited_deadline);

/**
 * @brief Lock the runqueue an entity is attached to, following it if it
 * migrates meanwhile, also into another domain (Linux's task_rq_lock):
 * lock what dls_entity::rq names, through its domain's lock op, and try
 * again if the entity left before the lock was taken.
 * @param[in] se an entity.
 * @return the entity's runqueue, locked (nothing is locked when its
 *         domain has no lock op); NULL, nothing locked, when it is not
 *         attached.
 * @note With no runqueue lock held; any thread.
 */
DLS_API struct dls_rq *dls_entity_lock(struct dls_entity *se);

/**
 * @brief Unlock the runqueue dls_entity_lock() returned.
 * @param[in,out] rq that runqueue, or NULL (nothing to do).
 */
DLS_API void dls_entity_unlock(struct dls_rq *rq);

/**
 * @brief Validate a runqueue: tree shape and order, counts, the earliest
 * cache, entity flags and the current entity.
 * @param[in] rq the runqueue (lock held).
 * @return NULL when valid, else the first violated property.
 */
DLS_API const char *dls_rq_check(const struct dls_rq *rq);

/** @} */

#endif /* DLSCHED_SCHED_H */
