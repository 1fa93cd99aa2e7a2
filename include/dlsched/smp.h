/**
 * @file smp.h
 * @brief Global EDF across the CPUs of a domain: overload tracking, the
 * cpudl heap, push and pull migration, wake-up placement, affinity, CPUs
 * going offline and online, capacity-aware placement.
 *
 * A domain initialised with dls_domain_init() schedules each CPU on its
 * own. dls_smp_init() turns it into one global-EDF domain: the M earliest
 * deadlines among the ready entities run on its M CPUs, subject to each
 * entity's affinity. The class-style entry points of sched.h then push and
 * pull by themselves (dls_schedule() pulls before picking and pushes after;
 * wake-ups and replenishments push when they overload a CPU).
 *
 * @code
 * size_t sz = dls_smp_size(nr_cpus);
 * void *mem = aligned_alloc(16, sz);
 * dls_domain_init(&dom, &ops, ctx, NULL, rqs, nr_cpus);
 * dls_smp_init(&dom, mem, sz);
 * int cpu = dls_select_cpu(&dom, &task->se, task_last_cpu);
 * dls_entity_move(&task->se, &rqs[cpu]);   // both rq locks held
 * dls_wakeup(&rqs[cpu], &task->se);
 * @endcode
 *
 * Locking: functions on one runqueue expect its lock held. Functions that
 * cross runqueues (dls_push(), dls_pull(), dls_cpu_offline(),
 * dls_entity_set_affinity()) take the other runqueues' locks through the
 * lock/unlock ops, always in CPU-id order: when the other CPU's id is lower
 * they drop and retake their own lock (as Linux's double_lock_balance) and
 * recheck what they saw. Without lock ops (a single-threaded integrator
 * such as a simulator) no locking happens. Threads scheduling CPUs
 * concurrently also give the cpudl heap a lock (dls_smp_set_heap_lock())
 * and the domain's admission a lock (dls_smp_set_bw_lock()). Lock order:
 * runqueue locks first (in CPU-id order), then at most one of the heap
 * lock or the bandwidth lock; those two are never held together.
 *
 * Admission in a global domain is domain-wide, as the kernel's root
 * domain does it: Σ bandwidth ≤ limit × Σ capacity / 1024 over the
 * online CPUs. The domain keeps the admitted sum itself (@c bw.total),
 * changed only under the bandwidth lock by attach, parameter changes,
 * dls_task_dead() and moves between domains; a migration inside the
 * domain leaves it alone. Check and update happen in one critical
 * section, so CPUs attaching concurrently can never admit more than
 * the limit between them, and a CPU going offline or changing capacity
 * is checked against the same sum.
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_SMP_H
#define DLSCHED_SMP_H

#include <dlsched/cpumask.h>
#include <dlsched/sched.h>

/**
 * @defgroup smp Global EDF
 * @brief Push/pull migration, placement, affinity and CPU hotplug.
 * @{
 */

struct dls_cpudl;

/** @brief Global scheduling state of a domain (storage from dls_smp_size()). */
struct dls_smp {
	struct dls_cpumask *online;    /**< read-only: CPUs taking part */
	struct dls_cpumask *overload;  /**< read-only: CPUs with pushable work */
	struct dls_cpumask *span;      /**< read-only: every CPU of the domain */
	unsigned long overload_count;  /**< read-only: bits in @c overload (atomic) */
	/** private: the heap of CPUs by earliest deadline (in the storage) */
	struct dls_cpudl *cpudl;
	bool asymmetric;               /**< read-only: CPUs differ in capacity */
	/** read-only (under the bandwidth lock): the domain's admission
	 *  state: @c total, the bandwidth admitted on all its CPUs, and
	 *  @c capacity, the sum over the online CPUs */
	struct dls_bw bw;
};

/**
 * @brief Bytes of storage dls_smp_init() needs for @p nr_cpus CPUs.
 * @param[in] nr_cpus number of CPUs.
 * @return the size, in bytes.
 */
DLS_API size_t dls_smp_size(int nr_cpus);

/**
 * @brief Make a domain globally scheduled. Call once, after
 * dls_domain_init() and before attaching entities; every CPU starts online.
 * @param[in,out] dom the domain.
 * @param[out] storage at least dls_smp_size() bytes, aligned for pointers
 *             and 64-bit integers; it must outlive the domain.
 * @param[in] size its size.
 * @retval 0 success.
 * @retval DLS_EINVAL NULL pointer, misaligned @p storage (checked before
 *         anything is written to it) or too little storage.
 * @retval DLS_ESTATE entities are already attached, or already initialised.
 */
DLS_API int dls_smp_init(struct dls_domain *dom, void *storage, size_t size);

/**
 * @brief Give the domain's cpudl heap a lock, so that runqueues of
 * different CPUs, locked by different threads, may update it at once (as
 * the kernel's cpudl has its own lock). Needed whenever CPUs are scheduled
 * concurrently; a single-threaded integrator leaves it unset.
 * @param[in,out] dom a domain after dls_smp_init(), before scheduling starts.
 * @param[in] lock_ops the lock callbacks (both set), or NULL to remove.
 * @param[in] lock_ctx their argument.
 * @retval 0 success.
 * @retval DLS_EINVAL @p dom is NULL or not global, or a NULL callback.
 */
DLS_API int dls_smp_set_heap_lock(struct dls_domain *dom,
				  const struct dls_lock_ops *lock_ops,
				  void *lock_ctx);

/**
 * @brief Give the domain's admission control a lock, so that runqueues of
 * different CPUs, locked by different threads, may attach entities,
 * change parameters, go offline or change capacity at once without
 * admitting more than the limit between them (the kernel's dl_bw lock of
 * a root domain). Needed whenever CPUs are scheduled by concurrent
 * threads; dls_posix_smp_init() sets it. Taken innermost, inside
 * runqueue locks, and never together with the heap lock.
 * @param[in,out] dom a domain after dls_smp_init(), not yet shared.
 * @param[in] lock_ops the lock callbacks (both set), or NULL to remove.
 * @param[in] lock_ctx their argument.
 * @retval 0 success.
 * @retval DLS_EINVAL @p dom not global, or lock_ops with a NULL slot.
 */
DLS_API int dls_smp_set_bw_lock(struct dls_domain *dom,
				const struct dls_lock_ops *lock_ops,
				void *lock_ctx);

/**
 * @brief Wake-up placement: the CPU an entity should wake on.
 *
 * Its last CPU, unless the entity would not preempt what runs there and
 * some allowed CPU runs a later deadline (or nothing); then the latest such
 * CPU, preferring CPUs where the entity fits by capacity. Reads other
 * runqueues without their locks; the caller rechecks under lock.
 * @param[in] dom the domain.
 * @param[in] se the waking entity.
 * @param[in] prev_cpu the CPU it last ran on.
 * @return a CPU id, or DLS_ENOCPU when no online CPU is allowed.
 */
DLS_API int dls_select_cpu(const struct dls_domain *dom,
			   const struct dls_entity *se, int prev_cpu);

/**
 * @brief Move a sleeping or queued (not running) entity to another
 * runqueue of the same domain, with its bandwidth.
 * @param[in,out] se the entity.
 * @param[in,out] dst the destination runqueue.
 * @retval 0 success (also when already there).
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_ERUNNING @p se is running.
 * @retval DLS_ESTATE @p se belongs to another domain, or the domain is not
 *         global (no dls_smp_init()): a partitioned domain never moves
 *         entities.
 * @retval DLS_ENOCPU @p dst is offline or not allowed by its affinity.
 * @note The caller holds the locks of both runqueues.
 */
DLS_API int dls_entity_move(struct dls_entity *se, struct dls_rq *dst);

/**
 * @brief Restrict an entity to the CPUs of @p mask (NULL = every CPU).
 *
 * If its runqueue is no longer allowed, or is offline (the entity was
 * stranded there), the entity moves to an allowed online CPU (a running
 * entity is charged and its CPU asked to reschedule). A waiting entity that
 * stays is pushed if a CPU it may now use runs a later deadline.
 * @param[in,out] se an attached entity.
 * @param[in] mask the CPUs; the caller keeps it alive while it is in use.
 * @retval 0 success.
 * @retval DLS_EDETACHED @p se is not attached; nothing changed.
 * @retval DLS_EINVAL @p mask is sized for another CPU count than the
 *         domain's; nothing changed.
 * @retval DLS_ENOCPU no online CPU of the domain is in @p mask; nothing changed.
 * @note Takes the locks it needs; the caller holds the lock of se's rq.
 */
DLS_API int dls_entity_set_affinity(struct dls_entity *se,
				    const struct dls_cpumask *mask);

/**
 * @brief Move a sleeping, queued or throttled (not running) entity to a
 * runqueue of another domain (as moving a task between exclusive cpusets),
 * with its bandwidth, its current deadline and runtime, and a new affinity.
 *
 * Admission is checked again in the destination (the source only releases
 * bandwidth): the whole domain's for a global one, the runqueue's
 * otherwise. A throttled entity's timer is cancelled through the source's
 * ops and armed through the destination's at the same expiry, so both
 * domains must share one time base (on the POSIX platform the timer stays
 * with its first service; dls_posix_share_timers() gives both domains one). A queued entity that does not preempt
 * there leaves @p dst asked to reschedule when it is overloaded (its next
 * schedule pushes).
 * @param[in,out] se an attached entity, not running, not boosted.
 * @param[in,out] dst the destination runqueue, in another domain.
 * @param[in] mask its affinity in the destination domain (that domain's
 *            CPU count), NULL for every CPU; kept alive by the caller.
 * @retval 0 success.
 * @retval DLS_EINVAL @p mask sized for another CPU count.
 * @retval DLS_EDETACHED @p se is not attached.
 * @retval DLS_ERUNNING @p se is running.
 * @retval DLS_ESTATE @p se is boosted, or already belongs to @p dst's
 *         domain (use dls_entity_move()).
 * @retval DLS_ENOCPU @p dst is offline or not in @p mask.
 * @retval DLS_EBANDWIDTH the destination cannot admit its bandwidth.
 * On any error nothing changed.
 * @note The caller holds the locks of both runqueues.
 */
DLS_API int dls_entity_move_domain(struct dls_entity *se, struct dls_rq *dst,
				   const struct dls_cpumask *mask);

/**
 * @brief Push the earliest pushable entity of @p rq that has somewhere to
 * go to a CPU running a later deadline (or nothing).
 *
 * The heap names the latest CPU in O(1); for an entity whose affinity
 * excludes that CPU its allowed CPUs are scanned. When the earliest
 * pushable entity has nowhere to go, later ones with restricted affinity
 * are tried, up to the first allowed everywhere.
 * @param[in,out] rq the runqueue (lock held).
 * @return true when an entity moved.
 */
DLS_API bool dls_push(struct dls_rq *rq);

/**
 * @brief Pull onto @p rq the earliest entities overloaded CPUs could not
 * run, when they beat what @p rq has.
 * @param[in,out] rq the runqueue (lock held).
 * @return true when an entity moved here.
 */
DLS_API bool dls_pull(struct dls_rq *rq);

/** @brief Callback receiving entities an offline CPU could place nowhere. */
typedef void (*dls_stranded_fn)(void *arg, struct dls_entity *se);

/**
 * @brief Take a CPU out of the domain while the others keep scheduling.
 *
 * Its entities move to online CPUs their affinity allows (the least loaded
 * by bandwidth); an entity with nowhere to go stays attached to the offline
 * CPU, is reported through @p stranded, and moves on dls_cpu_online() or an
 * affinity change — nothing is lost.
 * @param[in,out] dom the domain.
 * @param[in] cpu the CPU.
 * @param[in] force take it offline even if the remaining capacity cannot
 *            hold the admitted bandwidth.
 * @param[in] stranded called for each entity that could not move (may be NULL).
 * @param[in] arg its argument.
 * @retval 0 success.
 * @retval DLS_EINVAL bad CPU id.
 * @retval DLS_ESTATE the CPU is already offline, or it is the last online one.
 * @retval DLS_ECAPACITY the admitted bandwidth would not fit the remaining
 *         CPUs (without @p force); nothing changed.
 * @note Takes every lock it needs itself; call it with none held.
 */
DLS_API int dls_cpu_offline(struct dls_domain *dom, int cpu, bool force,
			    dls_stranded_fn stranded, void *arg);

/**
 * @brief Bring a CPU back: it rejoins the heap and masks, its stranded
 * entities run on it again, entities stranded on other offline CPUs that
 * may use it move to it, and it is asked to reschedule (and pull).
 * @param[in,out] dom the domain.
 * @param[in] cpu the CPU.
 * @retval 0 success.
 * @retval DLS_EINVAL bad CPU id.
 * @retval DLS_ESTATE already online.
 * @note Takes the lock it needs itself; call it with none held.
 */
DLS_API int dls_cpu_online(struct dls_domain *dom, int cpu);

/**
 * @brief Push and pull on every online CPU until nothing moves (for
 * simulators and tests that drive every CPU from one thread).
 * @param[in,out] dom the domain.
 * @return the number of migrations performed.
 */
DLS_API unsigned int dls_balance(struct dls_domain *dom);

/**
 * @brief Validate the domain: every runqueue (dls_rq_check()), pushable
 * trees, migratory counts, overload mask and count, the cpudl heap against
 * each CPU's earliest deadline, the online mask.
 * @param[in] dom the domain (no concurrent updates).
 * @return NULL when valid, else the first violated property.
 */
DLS_API const char *dls_domain_check(const struct dls_domain *dom);

/**
 * @brief The global EDF invariant: no queued entity waits while a CPU it
 * may use is idle or runs a later deadline.
 * @param[in] dom the domain, after every CPU has picked (no concurrent updates).
 * @return NULL when it holds, else a description of the violation.
 */
DLS_API const char *dls_domain_check_global_edf(const struct dls_domain *dom);

/** @} */

#endif /* DLSCHED_SMP_H */
