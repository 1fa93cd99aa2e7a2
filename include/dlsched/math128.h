/**
 * @file math128.h
 * @brief Unsigned 128-bit arithmetic for bandwidth and time computations.
 *
 * Three implementations sit behind one API and are chosen at configure time
 * (`-DDLSCHED_MATH128=auto|portable|int128|x86_64asm`; see
 * DLS_MATH128_BACKEND):
 *  - portable C on 32-bit limbs, needing nothing from the compiler and
 *    always compiled (it is the reference the others are tested against);
 *  - the compiler's `unsigned __int128`;
 *  - x86_64 inline assembly (`mulq`, `divq`).
 *
 * The `dls_u128_*` functions below are the configured backend, compiled
 * into the library; the backends themselves are not API and are not
 * installed (the library inlines them into its own arithmetic). Only the
 * struct helpers dls_u128_from_u64(), dls_u128_eq() and dls_u128_lt() are
 * inline here, because they need no backend.
 *
 * Division by zero is a programming error: builds compiled with
 * `DLSCHED_ENABLE_ASSERT` abort with a message, other builds trap (x86_64
 * `divq` raises SIGFPE) or return an unspecified value. Quotients are
 * truncated toward zero. dls_u128_mul_u64_u64_div_u64() saturates to
 * UINT64_MAX when the quotient needs more than 64 bits;
 * dls_u128_mul_u64_u64_div_u64_checked() reports it instead.
 */
#ifndef DLSCHED_MATH128_H
#define DLSCHED_MATH128_H

#include <dlsched/common.h>

/**
 * @defgroup math128 128-bit arithmetic
 * @brief u128 type; add, sub, multiply, shift, compare, divide.
 *
 * @code
 * // CBS wake-up test: may the entity keep its deadline, i.e. is
 * // runtime / (deadline - now) <= Q / P ?  Cross-multiply in 128 bits.
 * bool keep = dls_u128_mul_cmp(runtime, P, deadline - now, Q) <= 0;
 *
 * // Bandwidth Q / P in 20-bit fixed point; exact (truncated) whenever the
 * // quotient fits 64 bits, which Q <= P guarantees.
 * uint64_t bw;
 * if (dls_u128_mul_u64_u64_div_u64_checked(Q, UINT64_C(1) << 20, P, &bw))
 *         return DLS_EINVAL; // P == 0, or Q / P >= 2^44
 *
 * // Runtime scaled by CPU capacity (1024 = full speed).
 * uint64_t scaled = dls_u128_mul_u64_u32_shr(delta, capacity, 10);
 * @endcode
 * @{
 */

/** @brief An unsigned 128-bit integer, as two 64-bit halves. */
typedef struct dls_u128 {
	uint64_t lo; /**< bits 0..63 */
	uint64_t hi; /**< bits 64..127 */
} dls_u128;

/**
 * @brief Widen a 64-bit value.
 * @param[in] x the value.
 * @return x as a u128.
 */
DLS_INLINE dls_u128 dls_u128_from_u64(uint64_t x)
{
	dls_u128 r;

	r.lo = x;
	r.hi = 0;
	return r;
}

/**
 * @brief a + b modulo 2^128.
 * @param[in] a first addend.
 * @param[in] b second addend.
 * @return the sum.
 */
DLS_API dls_u128 dls_u128_add(dls_u128 a, dls_u128 b);

/**
 * @brief a - b modulo 2^128.
 * @param[in] a minuend.
 * @param[in] b subtrahend.
 * @return the difference.
 */
DLS_API dls_u128 dls_u128_sub(dls_u128 a, dls_u128 b);

/**
 * @brief Full product of two 64-bit values.
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @return a * b, exact.
 */
DLS_API dls_u128 dls_u128_mul_u64_u64(uint64_t a, uint64_t b);

/**
 * @brief a << s for s in 0..127; s >= 128 gives 0.
 * @param[in] a the value.
 * @param[in] s shift count.
 * @return the shifted value.
 */
DLS_API dls_u128 dls_u128_shl(dls_u128 a, unsigned int s);

/**
 * @brief a >> s for s in 0..127; s >= 128 gives 0.
 * @param[in] a the value.
 * @param[in] s shift count.
 * @return the shifted value.
 */
DLS_API dls_u128 dls_u128_shr(dls_u128 a, unsigned int s);

/**
 * @brief Three-way comparison.
 * @param[in] a a value.
 * @param[in] b another value.
 * @return -1, 0 or 1 as a is less than, equal to or greater than b.
 */
DLS_API int dls_u128_cmp(dls_u128 a, dls_u128 b);

/**
 * @brief a == b.
 * @param[in] a a value.
 * @param[in] b another value.
 * @return true when equal.
 */
DLS_INLINE bool dls_u128_eq(dls_u128 a, dls_u128 b)
{
	return a.lo == b.lo && a.hi == b.hi;
}

/**
 * @brief a < b.
 * @param[in] a a value.
 * @param[in] b another value.
 * @return true when a is less than b.
 */
DLS_INLINE bool dls_u128_lt(dls_u128 a, dls_u128 b)
{
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/**
 * @brief Compare two products exactly: the sign of a * b - c * d.
 *
 * This is the cross-multiplication that tests a / b against c / d without
 * dividing, as in the CBS wake-up rule.
 * @param[in] a a factor of the left product.
 * @param[in] b a factor of the left product.
 * @param[in] c a factor of the right product.
 * @param[in] d a factor of the right product.
 * @return -1, 0 or 1 as a * b is less than, equal to or greater than c * d.
 */
DLS_API int dls_u128_mul_cmp(uint64_t a, uint64_t b, uint64_t c, uint64_t d);

/**
 * @brief Bits [s, s + 64) of a * b: the product scaled down by 2^s.
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] s shift count, 0..127; 128 or more gives 0.
 * @return the low 64 bits of (a * b) >> s (the bits above s + 63 are
 * dropped, so the result is exact when a * b < 2^(s + 64)).
 */
DLS_API uint64_t dls_u128_mul_u64_u64_shr(uint64_t a, uint64_t b,
					  unsigned int s);

/**
 * @brief (a * mul) >> s for a 32-bit multiplier: scaling by a ratio such as
 * capacity / 1024.
 * @param[in] a the value.
 * @param[in] mul the multiplier.
 * @param[in] s shift count, 0..127 (the product has at most 96 bits, so
 * 96 and more give 0, as does 128 or more).
 * @return the low 64 bits of (a * mul) >> s; exact for s >= 32.
 */
DLS_API uint64_t dls_u128_mul_u64_u32_shr(uint64_t a, uint32_t mul,
					  unsigned int s);

/**
 * @brief 128 by 64 division with a full 128-bit quotient (never overflows).
 * @param[in] a dividend.
 * @param[in] d divisor, not 0.
 * @param[out] rem remainder (may be NULL).
 * @return the quotient a / d, truncated toward zero.
 */
DLS_API dls_u128 dls_u128_div_u64_rem(dls_u128 a, uint64_t d, uint64_t *rem);

/**
 * @brief a * b / c without intermediate overflow, truncated toward zero.
 *
 * When the exact quotient needs more than 64 bits the result saturates to
 * UINT64_MAX; use dls_u128_mul_u64_u64_div_u64_checked() to tell.
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] c divisor, not 0.
 * @return floor(a * b / c), or UINT64_MAX on overflow.
 */
DLS_API uint64_t dls_u128_mul_u64_u64_div_u64(uint64_t a, uint64_t b,
					      uint64_t c);

/**
 * @brief Checked a * b / c.
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] c divisor.
 * @param[out] q floor(a * b / c) on success.
 * @retval 0 success.
 * @retval DLS_EINVAL @p c is 0.
 * @retval DLS_ERANGE the quotient needs more than 64 bits.
 */
DLS_API int dls_u128_mul_u64_u64_div_u64_checked(uint64_t a, uint64_t b,
						 uint64_t c, uint64_t *q);

/** @} */

#endif /* DLSCHED_MATH128_H */
