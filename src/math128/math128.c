/*
 * Out-of-line part of math128: the division-by-zero report used by checked
 * builds. Everything else is inline in <dlsched/math128.h>.
 */
#include <dlsched/math128.h>

#include "internal.h"

void dls_u128__div_by_zero(void)
{
	dls__assert_fail("divisor != 0", __FILE__, __LINE__, "dls_u128 division");
}
