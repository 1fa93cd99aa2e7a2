/*
 * The bandwidth object's methods (src/edf/bw_impl.h): admission, capacity
 * changes and a domain's GRUB Uextra, the same for a runqueue's object and
 * a global domain's. The rule is src/cbs/admission.c's; the lock is the
 * object's own (none on a runqueue: its lock covers it).
 */
#include "cbs/grub_impl.h"
#include "edf/bw_impl.h"

bool dls__bw_change(struct dls_bw *b, uint64_t limit, uint64_t old_bw,
		    uint64_t new_bw, bool check)
{
	bool ok;

	dls__bw_lock(b);
	ok = !check || dls__bw_admits(b, limit, old_bw, new_bw);
	if (ok)
		b->total = b->total - old_bw + new_bw;
	dls__bw_unlock(b);
	return ok;
}

bool dls__bw_capacity_change(struct dls_bw *b, uint64_t limit, uint64_t old_cap,
			     uint64_t new_cap, bool force)
{
	uint64_t cap = b->capacity - old_cap + new_cap;

	if (new_cap < old_cap && !force && !dls__bw_fits(limit, b->total, cap))
		return false;
	b->capacity = cap;
	return true;
}

DLS_RACY uint64_t dls__bw_extra(const struct dls_bw *b, uint64_t max_bw)
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
	return dls__grub_extra(max_bw, total * DLS_CAPACITY_SCALE / cap);
}
