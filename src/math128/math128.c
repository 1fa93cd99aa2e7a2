/*
 * math128: the exported dls_u128_* functions, each the configured backend
 * of math128_impl.h (the library's own sources inline the same backends
 * through the macros there; a parenthesised name below is the function,
 * the bare name in its body the macro), and the division-by-zero report of
 * checked builds.
 */
#include <dlsched/math128.h>

#ifdef DLS_U128_NO_INLINE_API
#error "math128.c defines the API from its inline backends"
#endif

#include "internal.h"
#include "math128/math128_impl.h"

void dls_u128__div_by_zero(void)
{
	dls__assert_fail("divisor != 0", __FILE__, __LINE__, "dls_u128 division");
}

dls_u128 (dls_u128_add)(dls_u128 a, dls_u128 b)
{
	return dls_u128_add(a, b);
}

dls_u128 (dls_u128_sub)(dls_u128 a, dls_u128 b)
{
	return dls_u128_sub(a, b);
}

dls_u128 (dls_u128_mul_u64_u64)(uint64_t a, uint64_t b)
{
	return dls_u128_mul_u64_u64(a, b);
}

dls_u128 (dls_u128_shl)(dls_u128 a, unsigned int s)
{
	return dls_u128_shl(a, s);
}

dls_u128 (dls_u128_shr)(dls_u128 a, unsigned int s)
{
	return dls_u128_shr(a, s);
}

int (dls_u128_cmp)(dls_u128 a, dls_u128 b)
{
	return dls_u128_cmp(a, b);
}

int (dls_u128_mul_cmp)(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	return dls_u128_mul_cmp(a, b, c, d);
}

uint64_t (dls_u128_mul_u64_u64_shr)(uint64_t a, uint64_t b, unsigned int s)
{
	return dls_u128_mul_u64_u64_shr(a, b, s);
}

uint64_t (dls_u128_mul_u64_u32_shr)(uint64_t a, uint32_t mul, unsigned int s)
{
	return dls_u128_mul_u64_u32_shr(a, mul, s);
}

dls_u128 (dls_u128_div_u64_rem)(dls_u128 a, uint64_t d, uint64_t *rem)
{
	return dls_u128_div_u64_rem(a, d, rem);
}

uint64_t (dls_u128_mul_u64_u64_div_u64)(uint64_t a, uint64_t b, uint64_t c)
{
	return dls_u128_mul_u64_u64_div_u64(a, b, c);
}

int (dls_u128_mul_u64_u64_div_u64_checked)(uint64_t a, uint64_t b, uint64_t c,
					   uint64_t *q)
{
	return dls_u128_mul_u64_u64_div_u64_checked(a, b, c, q);
}
