/*
 * cpudl: a max-heap of CPUs keyed by their earliest deadline, plus
 * the mask of free CPUs, for O(1) "where can this entity preempt?".
 *
 * A CPU is in one of three states here: on the heap (it runs deadline work;
 * key = its earliest deadline), free (online, no deadline work) or neither
 * (offline). The heap's root is the CPU whose earliest deadline is latest:
 * the best victim for an entity with an earlier deadline. Equal deadlines
 * are ordered by CPU id (lower id nearer the root), so the answers do not
 * depend on the order of updates.
 *
 * @code
 * size_t sz = dls__cpudl_size(nr);
 * struct dls_cpudl cp;
 * dls__cpudl_init(&cp, malloc(sz), sz, nr, NULL, NULL); // all CPUs free
 * dls__cpudl_set(&cp, 0, 5000000);      // CPU 0 runs work due at 5 ms
 * dls__cpudl_set(&cp, 1, 9000000);      // CPU 1: 9 ms
 * ...
 * int cpu = dls__cpudl_find(&cp, allowed, 7000000, NULL, NULL);
 * // a free allowed CPU if any, else CPU 1 if allowed, else -1
 * dls__cpudl_clear(&cp, 1);             // CPU 1 has no deadline work left
 * @endcode
 *
 * Locking: dls__cpudl_init() takes an optional pair of lock callbacks; when
 * given, every function below except dls__cpudl_check() takes that lock
 * around its work (the kernel's cpudl has its own raw spinlock the same
 * way), so the per-CPU runqueue locks of different CPUs may update one heap
 * concurrently. When NULL, the caller serialises every call.
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 *
 * Not API: global EDF (src/edf/smp*.c) keeps one heap per domain, reached
 * through struct dls_smp; the functions are hidden in the shared library,
 * and the tests (tests/test_cpudl.c) and benchmarks (bench/cpudl.c) include
 * this header through src/ and link the static library.
 */
#ifndef DLSCHED_CPUDL_H
#define DLSCHED_CPUDL_H

#include <dlsched/common.h>
#include <dlsched/cpumask.h>

#include "internal.h"

/**
 * @brief Optional capacity filter for dls__cpudl_find() (asymmetric CPUs).
 *
 * Among the free CPUs, find prefers those the entity fits on; when none
 * fits it returns the free CPU of largest capacity.
 */
struct dls_cpudl_fit {
	/** Does the entity fit @p cpu (runtime scaled by capacity within its deadline)? */
	bool (*fits)(void *ctx, int cpu);
	/** Capacity of @p cpu (1024 = the biggest). */
	uint32_t (*capacity)(void *ctx, int cpu);
	void *ctx;   /**< first argument of both callbacks */
	int prefer;  /**< CPU that wins capacity ties (the entity's last CPU), or -1 */
};

/** @brief One heap slot. Private. */
struct dls_cpudl_item {
	uint64_t dl; /**< private: the CPU's earliest deadline */
	int32_t cpu; /**< private: the CPU */
	int32_t pad_; /**< private */
};

/** @brief The heap. Storage for the arrays comes from the caller. */
struct dls_cpudl {
	struct dls_cpudl_item *heap;        /**< private: heap[0] is the latest deadline */
	int32_t *pos;                       /**< private: CPU → heap index, -1 when off the heap */
	struct dls_cpumask *free_cpus;      /**< read-only (under the lock): free CPUs */
	int size;                           /**< read-only: CPUs on the heap */
	int nr_free;                        /**< read-only: CPUs in @c free_cpus */
	int nr_cpus;                        /**< read-only: CPU ids are 0 .. nr_cpus-1 */
	const struct dls_lock_ops *lock_ops; /**< private */
	void *lock_ctx;                     /**< private */
};

/**
 * @brief Bytes of storage dls__cpudl_init() needs for @p nr_cpus CPUs
 * (heap, index array and free mask).
 * @param[in] nr_cpus 1 .. DLS_CPUMASK_MAX_CPUS.
 * @return the size, or 0 when @p nr_cpus is out of range.
 */
DLS_HIDDEN size_t dls__cpudl_size(int nr_cpus);

/**
 * @brief Initialise an empty heap with every CPU free.
 * @param[out] cp the heap.
 * @param[in] storage dls__cpudl_size(@p nr_cpus) bytes, aligned for uint64_t;
 *            owned by the caller, must outlive @p cp.
 * @param[in] size bytes at @p storage.
 * @param[in] nr_cpus number of CPUs.
 * @param[in] lock_ops lock callbacks (both set), or NULL when the caller
 *            serialises; must outlive @p cp.
 * @param[in] lock_ctx first argument of the lock callbacks.
 * @retval 0 success.
 * @retval DLS_EINVAL NULL @p cp or @p storage, misaligned or short storage,
 *         @p nr_cpus out of range, or lock_ops with a NULL slot.
 * @note No locking: @p cp is not yet shared.
 */
DLS_HIDDEN int dls__cpudl_init(struct dls_cpudl *cp, void *storage, size_t size,
			    int nr_cpus, const struct dls_lock_ops *lock_ops,
			    void *lock_ctx);

/**
 * @brief Record @p cpu's earliest deadline: insert it, or move it to its
 * new place; @p cpu stops being free. O(log n).
 * @param[in,out] cp the heap.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @param[in] dl the earliest deadline of the deadline work on @p cpu.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 */
DLS_HIDDEN void dls__cpudl_set(struct dls_cpudl *cp, int cpu, uint64_t dl);

/**
 * @brief @p cpu has no deadline work left: take it off the heap and mark it
 * free. Nothing happens when it is not on the heap (free or offline).
 * O(log n).
 * @param[in,out] cp the heap.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 */
DLS_HIDDEN void dls__cpudl_clear(struct dls_cpudl *cp, int cpu);

/**
 * @brief @p cpu comes online: mark it free unless it is on the heap.
 * @param[in,out] cp the heap.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 */
DLS_HIDDEN void dls__cpudl_online(struct dls_cpudl *cp, int cpu);

/**
 * @brief @p cpu goes offline: take it off the heap and out of the free mask.
 * @param[in,out] cp the heap.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 */
DLS_HIDDEN void dls__cpudl_offline(struct dls_cpudl *cp, int cpu);

/**
 * @brief Best CPU for an entity with absolute deadline @p dl.
 *
 * 1. A free CPU in @p allowed: the lowest such CPU; with @p fit, the lowest
 *    one the entity fits, else the free allowed CPU of largest capacity
 *    (ties: fit->prefer, then the lowest id).
 * 2. Else the heap's root, if it is in @p allowed and its deadline is later
 *    than @p dl (fit is not consulted: running late beats not running).
 * 3. Else none. Another allowed CPU may hold a later deadline than @p dl
 *    while the root is not allowed: the heap answers for the root only, in
 *    O(1); the push/pull paths recover such cases.
 *
 * Cost: O(1) when no CPU is free; else one scan of free & allowed (a word
 * test when nr_cpus <= W), plus one fit call per free allowed CPU when
 * @p fit is given.
 * @param[in] cp the heap.
 * @param[in] allowed the entity's affinity, cp->nr_cpus CPUs.
 * @param[in] dl the entity's absolute deadline.
 * @param[in] fit capacity filter, or NULL.
 * @param[out] later_mask if not NULL: every candidate of the step that
 *             answered (the free allowed CPUs, narrowed by @p fit; or the
 *             root alone), empty when none. cp->nr_cpus CPUs.
 * @return the chosen CPU, or -1.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 *       @p fit's callbacks run inside that lock and must not call into @p cp.
 */
DLS_HIDDEN int dls__cpudl_find(struct dls_cpudl *cp,
			    const struct dls_cpumask *allowed, uint64_t dl,
			    const struct dls_cpudl_fit *fit,
			    struct dls_cpumask *later_mask);

/**
 * @brief The CPU whose earliest deadline is latest.
 * @param[in] cp the heap.
 * @param[out] dl if not NULL and the heap is not empty, that deadline.
 * @return the CPU, or -1 when the heap is empty.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 */
DLS_HIDDEN int dls__cpudl_maximum(struct dls_cpudl *cp, uint64_t *dl);

/**
 * @brief The deadline @p cpu is keyed by.
 * @param[in] cp the heap.
 * @param[in] cpu 0 .. nr_cpus-1.
 * @param[out] dl its deadline, when on the heap.
 * @return true when @p cpu is on the heap.
 * @note Takes the heap's lock if it has one; else the caller serialises.
 */
DLS_HIDDEN bool dls__cpudl_deadline(struct dls_cpudl *cp, int cpu, uint64_t *dl);

/**
 * @brief Validate the heap: sizes, heap order, CPU ↔ index links both ways,
 * the free mask disjoint from the heap.
 * @param[in] cp the heap.
 * @return NULL when valid, else a static string naming the first violated
 *         property.
 * @note Does not lock: call it with the heap quiescent or its lock held.
 */
DLS_HIDDEN const char *dls__cpudl_check(const struct dls_cpudl *cp);


#endif /* DLSCHED_CPUDL_H */
