/*
 * The admission rule, shared by the runqueue (params.c), the global domain
 * (smp.c) and the analysis module: the admitted bandwidth @total (DLS_BW_UNIT
 * = 1.0) may not exceed the limit times the capacity (DLS_CAPACITY_SCALE =
 * one full-speed CPU), compared exactly in 128 bits. Never installed.
 */
#ifndef DLSCHED_ADMISSION_IMPL_H
#define DLSCHED_ADMISSION_IMPL_H

#include <dlsched/math128.h>
#include <dlsched/types.h>

static inline bool dls__bw_fits(uint64_t limit, uint64_t total, uint64_t capacity)
{
	if (limit == DLS_BW_UNLIMITED)
		return true;
	return dls_u128_mul_cmp(total, DLS_CAPACITY_SCALE, limit, capacity) <= 0;
}

#endif /* DLSCHED_ADMISSION_IMPL_H */
