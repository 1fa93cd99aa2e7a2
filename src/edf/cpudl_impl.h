/*
 * The test oracle of the cpudl heap: the linear placement scan the heap
 * replaces. Not API (hidden, never installed); the tests and benchmarks
 * reach it through src/.
 */
#ifndef DLSCHED_CPUDL_IMPL_H
#define DLSCHED_CPUDL_IMPL_H

#include "edf/cpudl.h"

#include "internal.h"

/*
 * Reference (slow) path: the linear scan of latest_cpu_find() in the 2012
 * SCHED_DEADLINE v5 patches (SMP data structures and logic), for
 * cross-checking dls__cpudl_find().
 *
 * Scans every CPU of @span & @allowed (same CPU count). Candidates are the
 * free CPUs and the busy ones whose earliest deadline is later than @dl.
 * Returns a free candidate if there is one (chosen as dls__cpudl_find()
 * chooses among free CPUs, @fit included), else the busy candidate with the
 * latest earliest deadline (ties: lowest id), else -1. O(nr_cpus).
 *
 * @earliest(ctx, cpu, &edl) returns false when @cpu is free, else true with
 * its earliest deadline in edl. @fit is a capacity filter, or NULL. If
 * @later_mask is not NULL it receives every candidate (free and later busy
 * CPUs), as latest_cpu_find() fills it. Reads the per-CPU state through @earliest
 * only; locking is the caller's.
 */
DLS_HIDDEN int dls__cpudl_find_linear(const struct dls_cpumask *span,
				     const struct dls_cpumask *allowed, uint64_t dl,
				     bool (*earliest)(void *ctx, int cpu, uint64_t *edl),
				     void *ctx, const struct dls_cpudl_fit *fit,
				     struct dls_cpumask *later_mask);

#endif /* DLSCHED_CPUDL_IMPL_H */
