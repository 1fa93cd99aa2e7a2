/*
 * Admission control: the one rule, for a runqueue of its own and for a
 * globally scheduled domain alike. A leaf: plain numbers in, a verdict out;
 * the callers hold whatever lock makes their numbers current.
 *
 * The rule (the single-processor EDF utilisation bound, Liu & Layland 1973,
 * applied to CBS servers as in Abeni & Buttazzo 1998; on m CPUs the
 * domain-wide sum the Linux root domain keeps, which bounds tardiness under
 * global EDF): the bandwidths admitted, sum of Q_i/P_i, may not exceed the
 * limit per full-speed CPU times the capacity serving them (one CPU's, or
 * the online CPUs' sum), in DLS_CAPACITY_SCALE units:
 *
 *     total <= limit * capacity / DLS_CAPACITY_SCALE,
 *
 * tested exactly as total * DLS_CAPACITY_SCALE <= limit * capacity in 128
 * bits, so no rounding admits or refuses a set at the boundary.
 */
#include <dlsched/math128.h>

#include "cbs/admission_impl.h"

bool dls__bw_fits(uint64_t limit, uint64_t total, uint64_t capacity)
{
	if (limit == DLS_BW_UNLIMITED)
		return true;
	return dls_u128_mul_cmp(total, DLS_CAPACITY_SCALE, limit, capacity) <= 0;
}

/* An entity's bandwidth changes from @old_bw to @new_bw within @total. A
 * change that gives bandwidth back is never refused (also not while a
 * forced offline left the domain above its limit). */
bool dls__bw_change_fits(uint64_t limit, uint64_t total, uint64_t capacity,
			 uint64_t old_bw, uint64_t new_bw)
{
	return new_bw <= old_bw ||
	       dls__bw_fits(limit, total - old_bw + new_bw, capacity);
}
