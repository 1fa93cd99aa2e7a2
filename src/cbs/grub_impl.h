/*
 * GRUB's rules (src/cbs/grub.c), a leaf: plain numbers and an entity's
 * state in, a value out; the charging rate inline for the accounting path.
 * Never installed.
 */
#ifndef DLSCHED_GRUB_IMPL_H
#define DLSCHED_GRUB_IMPL_H

#include <dlsched/math128.h>
#include <dlsched/types.h>

#include "internal.h"

/* Fractional bits of 1/Umax (Linux's RATIO_SHIFT). */
#define DLS_RATIO_SHIFT 8

/* Umax: the domain's bw_limit, at most DLS_BW_UNIT (1.0 when unlimited). */
DLS_HIDDEN uint64_t dls__grub_max_bw(uint64_t bw_limit);

/* 1/Umax with DLS_RATIO_SHIFT fractional bits (Linux's bw_ratio). */
DLS_HIDDEN uint64_t dls__grub_bw_ratio(uint64_t max_bw);

/* The 0-lag time deadline - runtime * P / Q. */
DLS_HIDDEN uint64_t dls__grub_zero_lag_time(const struct dls_entity *se);

/* Whether a blocking entity becomes inactive at once; else it stays
 * non-contending until *@t0. */
DLS_HIDDEN bool dls__grub_inactive_now(const struct dls_entity *se,
				       uint64_t now, bool reclaiming,
				       uint64_t *t0);

/* Uextra: Umax minus the admitted bandwidth per CPU @used, at least 0. */
static inline uint64_t dls__grub_extra(uint64_t max_bw, uint64_t used)
{
	return used >= max_bw ? 0 : max_bw - used;
}

/*
 * The rate at which a reclaiming entity of bandwidth @bw is charged
 * (Linux's grub_reclaim): max{u, Umax - Uinact - Uextra} / Umax, with
 * @idle = Uinact + Uextra, compared as Uinact + Uextra + u > Umax so that
 * nothing goes below zero; 1/Umax (@bw_ratio) in DLS_RATIO_SHIFT fixed
 * point, the product truncated. DLS_BW_SHIFT fixed point.
 */
static inline uint64_t dls__grub_rate(uint64_t max_bw, uint64_t bw_ratio,
				      uint64_t idle, uint64_t bw)
{
	uint64_t u_act = idle + bw > max_bw ? bw : max_bw - idle;

	return (u_act * bw_ratio) >> DLS_RATIO_SHIFT;
}

#endif /* DLSCHED_GRUB_IMPL_H */
