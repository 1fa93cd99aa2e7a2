/*
 * The bandwidth object's methods (src/edf/bw_impl.h): admission, capacity
 * changes, a global domain's GRUB Uextra and the object's own check, the
 * same for a runqueue's object and a global domain's. The rule is
 * src/cbs/admission.c's; the lock is the object's own (none on a
 * runqueue: its lock covers it).
 */
#include "edf/bw_impl.h"

bool dls__bw_change(struct dls_bw *b, uint64_t old_bw, uint64_t new_bw,
		    bool check)
{
	bool ok;

	dls__bw_lock(b);
	ok = !check || dls__bw_admits(b, old_bw, new_bw);
	if (ok)
		b->total = b->total - old_bw + new_bw;
	dls__bw_unlock(b);
	return ok;
}

bool dls__bw_capacity_change(struct dls_bw *b, uint64_t old_cap,
			     uint64_t new_cap, bool force)
{
	uint64_t cap = b->capacity - old_cap + new_cap;

	if (new_cap < old_cap && !force && !dls__bw_fits(b->limit, b->total, cap))
		return false;
	b->capacity = cap;
	return true;
}

DLS_RACY uint64_t dls__bw_extra_shared(const struct dls_bw *b)
{
	uint64_t total = *(const volatile uint64_t *)&b->total;
	uint64_t cap = *(const volatile uint64_t *)&b->capacity;

	/* floor(total * SCALE / cap) in 64 bits: exact while the product
	 * fits; past that, with cap below 2^41 (nr_cpus is an int), the
	 * bandwidth used per CPU exceeds 2^23 > DLS_BW_UNIT >= Umax, so
	 * nothing is left, as the 128-bit quotient says too. A 64-bit
	 * division is one the library already links (no 128-bit one in a
	 * one-CPU program). */
	if (cap == 0 || total > UINT64_MAX / DLS_CAPACITY_SCALE)
		return 0;
	return dls__grub_extra(b->max_bw, total * DLS_CAPACITY_SCALE / cap);
}

const char *dls__bw_check(const struct dls_bw *b)
{
	if (b->max_bw != dls__grub_max_bw(b->limit))
		return "bandwidth object: max_bw differs from its limit's Umax";
	if (b->bw_ratio != dls__grub_bw_ratio(b->max_bw))
		return "bandwidth object: bw_ratio differs from 1/max_bw";
	if (b->running > b->total)
		return "bandwidth object: running exceeds total";
	return NULL;
}
