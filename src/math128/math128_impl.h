/*
 * math128_impl.h — the backends behind <dlsched/math128.h>. Not API, never
 * installed: the public header declares the dls_u128_* functions and the
 * library defines them (math128.c); this file is how.
 *
 * Three backends, each operation under its backend's name so that tests and
 * benchmarks can compare them in one program (tests/test_math128.c checks
 * every fast path against the portable one); they reach this file through
 * src/ as the library's own sources do:
 *  - portable C on 32-bit limbs, needing nothing from the compiler and
 *    always compiled (the reference);
 *  - the compiler's `unsigned __int128` (where __SIZEOF_INT128__ is set);
 *  - x86_64 inline assembly, `mulq` and `divq` (x86_64 GNU C).
 * At the end, DLS_U128__ARITH / DLS_U128__MUL pick the configured backend
 * (DLS_MATH128_BACKEND), and each dls_u128_* name becomes a macro for its
 * inline backend, so the scheduler's own arithmetic costs no call: the
 * exported functions are for the library's users.
 */
#ifndef DLSCHED_MATH128_IMPL_H
#define DLSCHED_MATH128_IMPL_H

#include <dlsched/math128.h>

#include "internal.h"

#if defined(__SIZEOF_INT128__)
#define DLS_U128_HAVE_INT128 1
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#define DLS_U128_HAVE_X86 1
#endif

DLS_HIDDEN void dls_u128__div_by_zero(void);
#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
#define DLS_U128__CHECK_DIV(d)                                                 \
	do {                                                                   \
		if (DLS_UNLIKELY((d) == 0))                                    \
			dls_u128__div_by_zero();                               \
	} while (0)
#else
#define DLS_U128__CHECK_DIV(d) ((void)0)
#endif

DLS_INLINE dls_u128 dls_u128__make(uint64_t hi, uint64_t lo)
{
	dls_u128 r;

	r.lo = lo;
	r.hi = hi;
	return r;
}

/* Leading zeros of a non-zero value, without compiler builtins. */
DLS_INLINE unsigned int dls_u128__clz64_portable(uint64_t x)
{
	unsigned int n = 0;

	if (!(x >> 32)) { n += 32; x <<= 32; }
	if (!(x >> 48)) { n += 16; x <<= 16; }
	if (!(x >> 56)) { n += 8; x <<= 8; }
	if (!(x >> 60)) { n += 4; x <<= 4; }
	if (!(x >> 62)) { n += 2; x <<= 2; }
	if (!(x >> 63)) { n += 1; }
	return n;
}

/*
 * (u1:u0) / v for u1 < v, so the quotient fits 64 bits: schoolbook division
 * by 32-bit digits after normalising v (Knuth, TAOCP vol. 2, 4.3.1,
 * algorithm D, specialised to a 2-digit divisor).
 */
DLS_INLINE uint64_t dls_u128__divlu_portable(uint64_t u1, uint64_t u0,
					     uint64_t v, uint64_t *rem)
{
	const uint64_t b = UINT64_C(1) << 32;
	unsigned int s = dls_u128__clz64_portable(v);
	uint64_t vn1, vn0, un32, un10, un1, un0, q1, q0, rhat, un21;

	v <<= s;
	vn1 = v >> 32;
	vn0 = v & 0xffffffffu;
	un32 = s ? (u1 << s) | (u0 >> (64 - s)) : u1;
	un10 = u0 << s;
	un1 = un10 >> 32;
	un0 = un10 & 0xffffffffu;

	q1 = un32 / vn1;
	rhat = un32 - q1 * vn1;
	while (q1 >= b || q1 * vn0 > ((rhat << 32) | un1)) {
		q1--;
		rhat += vn1;
		if (rhat >= b)
			break;
	}
	un21 = (un32 << 32) + un1 - q1 * v;

	q0 = un21 / vn1;
	rhat = un21 - q0 * vn1;
	while (q0 >= b || q0 * vn0 > ((rhat << 32) | un0)) {
		q0--;
		rhat += vn1;
		if (rhat >= b)
			break;
	}
	*rem = ((un21 << 32) + un0 - q0 * v) >> s;
	return (q1 << 32) | q0;
}

/* ------------------------------------------------------------------ */
/* Portable backend: 32-bit limbs.                                      */
/* ------------------------------------------------------------------ */

/**
 * @brief a + b, modulo 2^128 (portable backend).
 * @param[in] a first addend.
 * @param[in] b second addend.
 * @return the sum.
 */
DLS_INLINE dls_u128 dls_u128_add_portable(dls_u128 a, dls_u128 b)
{
	uint64_t lo = a.lo + b.lo;

	return dls_u128__make(a.hi + b.hi + (lo < a.lo), lo);
}

/**
 * @brief a - b, modulo 2^128 (portable backend).
 * @param[in] a minuend.
 * @param[in] b subtrahend.
 * @return the difference.
 */
DLS_INLINE dls_u128 dls_u128_sub_portable(dls_u128 a, dls_u128 b)
{
	return dls_u128__make(a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo);
}

/**
 * @brief Full product of two 64-bit values (portable backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @return a * b, exact.
 */
DLS_INLINE dls_u128 dls_u128_mul_u64_u64_portable(uint64_t a, uint64_t b)
{
	/*
	 * Four 32x32->64 partial products. No sum below can overflow 64
	 * bits: (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1.
	 */
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0;
	uint64_t t = a1 * b0 + (p00 >> 32);
	uint64_t w = a0 * b1 + (t & 0xffffffffu);

	/* The low half is the wrapping product; where a 64-bit multiply is
	 * not one instruction, assemble it from the partial products. */
#if UINTPTR_MAX > 0xffffffffu
	uint64_t lo = a * b;
#else
	uint64_t lo = (w << 32) | (p00 & 0xffffffffu);
#endif

	return dls_u128__make(a1 * b1 + (t >> 32) + (w >> 32), lo);
}

/**
 * @brief a << s for s in 0..127; s >= 128 gives 0 (portable backend).
 * @param[in] a the value.
 * @param[in] s shift count.
 * @return the shifted value.
 */
DLS_INLINE dls_u128 dls_u128_shl_portable(dls_u128 a, unsigned int s)
{
	if (s >= 128)
		return dls_u128__make(0, 0);
	if (s >= 64)
		return dls_u128__make(a.lo << (s - 64), 0);
	if (s == 0)
		return a;
	return dls_u128__make((a.hi << s) | (a.lo >> (64 - s)), a.lo << s);
}

/**
 * @brief a >> s for s in 0..127; s >= 128 gives 0 (portable backend).
 * @param[in] a the value.
 * @param[in] s shift count.
 * @return the shifted value.
 */
DLS_INLINE dls_u128 dls_u128_shr_portable(dls_u128 a, unsigned int s)
{
	if (s >= 128)
		return dls_u128__make(0, 0);
	if (s >= 64)
		return dls_u128__make(0, a.hi >> (s - 64));
	if (s == 0)
		return a;
	return dls_u128__make(a.hi >> s, (a.lo >> s) | (a.hi << (64 - s)));
}

/**
 * @brief Three-way comparison (portable backend).
 * @param[in] a a value.
 * @param[in] b another value.
 * @return -1, 0 or 1 as a is less than, equal to or greater than b.
 */
DLS_INLINE int dls_u128_cmp_portable(dls_u128 a, dls_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/**
 * @brief Bits [s, s + 64) of a * b, for s in 0..127; s >= 128 gives 0
 * (portable backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] s shift count.
 * @return the low 64 bits of (a * b) >> s.
 */
DLS_INLINE uint64_t dls_u128_mul_u64_u64_shr_portable(uint64_t a, uint64_t b,
						      unsigned int s)
{
	return dls_u128_shr_portable(dls_u128_mul_u64_u64_portable(a, b), s).lo;
}

/**
 * @brief 128 by 64 division with a full 128-bit quotient (portable backend).
 * @param[in] a dividend.
 * @param[in] d divisor, not 0.
 * @param[out] rem remainder (may be NULL).
 * @return the quotient a / d, truncated.
 */
DLS_INLINE dls_u128 dls_u128_div_u64_rem_portable(dls_u128 a, uint64_t d,
						  uint64_t *rem)
{
	uint64_t qhi, r, qlo;

	DLS_U128__CHECK_DIV(d);
	qhi = a.hi / d;
	qlo = dls_u128__divlu_portable(a.hi % d, a.lo, d, &r);
	if (rem)
		*rem = r;
	return dls_u128__make(qhi, qlo);
}

/**
 * @brief a * b / c truncated, saturating to UINT64_MAX when the quotient
 * needs more than 64 bits (portable backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] c divisor, not 0.
 * @return the quotient, or UINT64_MAX on overflow.
 */
DLS_INLINE uint64_t dls_u128_mul_u64_u64_div_u64_portable(uint64_t a,
							  uint64_t b,
							  uint64_t c)
{
	dls_u128 p = dls_u128_mul_u64_u64_portable(a, b);
	uint64_t r;

	DLS_U128__CHECK_DIV(c);
	if (p.hi == 0) /* common for times and bandwidths: one plain divide */
		return p.lo / c;
	if (p.hi >= c)
		return UINT64_MAX;
	return dls_u128__divlu_portable(p.hi, p.lo, c, &r);
}

/* ------------------------------------------------------------------ */
/* Compiler __int128 backend.                                           */
/* ------------------------------------------------------------------ */
#if defined(DLS_U128_HAVE_INT128)
__extension__ typedef unsigned __int128 dls_u128__native;

DLS_INLINE dls_u128__native dls_u128__to(dls_u128 a)
{
	return ((dls_u128__native)a.hi << 64) | a.lo;
}

DLS_INLINE dls_u128 dls_u128__from(dls_u128__native x)
{
	return dls_u128__make((uint64_t)(x >> 64), (uint64_t)x);
}

/**
 * @brief a + b (__int128 backend).
 * @param[in] a first addend.
 * @param[in] b second addend.
 * @return the sum modulo 2^128.
 */
DLS_INLINE dls_u128 dls_u128_add_int128(dls_u128 a, dls_u128 b)
{
	return dls_u128__from(dls_u128__to(a) + dls_u128__to(b));
}

/**
 * @brief a - b (__int128 backend).
 * @param[in] a minuend.
 * @param[in] b subtrahend.
 * @return the difference modulo 2^128.
 */
DLS_INLINE dls_u128 dls_u128_sub_int128(dls_u128 a, dls_u128 b)
{
	return dls_u128__from(dls_u128__to(a) - dls_u128__to(b));
}

/**
 * @brief Full 64x64 product (__int128 backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @return a * b.
 */
DLS_INLINE dls_u128 dls_u128_mul_u64_u64_int128(uint64_t a, uint64_t b)
{
	return dls_u128__from((dls_u128__native)a * b);
}

/**
 * @brief a << s, s >= 128 gives 0 (__int128 backend).
 * @param[in] a the value.
 * @param[in] s shift count.
 * @return the shifted value.
 */
DLS_INLINE dls_u128 dls_u128_shl_int128(dls_u128 a, unsigned int s)
{
	return s >= 128 ? dls_u128__make(0, 0)
			: dls_u128__from(dls_u128__to(a) << s);
}

/**
 * @brief a >> s, s >= 128 gives 0 (__int128 backend).
 * @param[in] a the value.
 * @param[in] s shift count.
 * @return the shifted value.
 */
DLS_INLINE dls_u128 dls_u128_shr_int128(dls_u128 a, unsigned int s)
{
	return s >= 128 ? dls_u128__make(0, 0)
			: dls_u128__from(dls_u128__to(a) >> s);
}

/**
 * @brief Three-way comparison (__int128 backend).
 * @param[in] a a value.
 * @param[in] b another value.
 * @return -1, 0 or 1.
 */
DLS_INLINE int dls_u128_cmp_int128(dls_u128 a, dls_u128 b)
{
	dls_u128__native x = dls_u128__to(a), y = dls_u128__to(b);

	return (x > y) - (x < y);
}

/**
 * @brief Bits [s, s + 64) of a * b, s >= 128 gives 0 (__int128 backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] s shift count.
 * @return the low 64 bits of (a * b) >> s.
 */
DLS_INLINE uint64_t dls_u128_mul_u64_u64_shr_int128(uint64_t a, uint64_t b,
						    unsigned int s)
{
	return s >= 128 ? 0 : (uint64_t)(((dls_u128__native)a * b) >> s);
}

/**
 * @brief 128 by 64 division (__int128 backend; calls libgcc).
 * @param[in] a dividend.
 * @param[in] d divisor, not 0.
 * @param[out] rem remainder (may be NULL).
 * @return the quotient.
 */
DLS_INLINE dls_u128 dls_u128_div_u64_rem_int128(dls_u128 a, uint64_t d,
						uint64_t *rem)
{
	dls_u128__native x = dls_u128__to(a);

	DLS_U128__CHECK_DIV(d);
	if (rem)
		*rem = (uint64_t)(x % d);
	return dls_u128__from(x / d);
}

/**
 * @brief a * b / c, saturating (__int128 backend; calls libgcc).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] c divisor, not 0.
 * @return the quotient, or UINT64_MAX on overflow.
 */
DLS_INLINE uint64_t dls_u128_mul_u64_u64_div_u64_int128(uint64_t a, uint64_t b,
							uint64_t c)
{
	dls_u128__native q;

	DLS_U128__CHECK_DIV(c);
	q = (dls_u128__native)a * b / c;
	return (q >> 64) ? UINT64_MAX : (uint64_t)q;
}
#endif /* DLS_U128_HAVE_INT128 */

/* ------------------------------------------------------------------ */
/* x86_64 inline assembly backend: mulq and divq.                        */
/* ------------------------------------------------------------------ */
#if defined(DLS_U128_HAVE_X86)
/* GCC folds a load into mulq/divq through "rm"; clang reads "rm" as "m"
 * and spills a register to the stack first, so it gets "r". */
#if defined(__clang__)
#define DLS_U128__RM(x) "r"(x)
#else
#define DLS_U128__RM(x) "rm"(x)
#endif

/**
 * @brief Full 64x64 product with `mulq` (x86_64 backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @return a * b.
 */
DLS_INLINE dls_u128 dls_u128_mul_u64_u64_x86(uint64_t a, uint64_t b)
{
	uint64_t lo, hi;

	__asm__("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), DLS_U128__RM(b) : "cc");
	return dls_u128__make(hi, lo);
}

/**
 * @brief Bits [s, s + 64) of a * b with `mulq` + `shrd`, s >= 128 gives 0
 * (x86_64 backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] s shift count.
 * @return the low 64 bits of (a * b) >> s.
 */
DLS_INLINE uint64_t dls_u128_mul_u64_u64_shr_x86(uint64_t a, uint64_t b,
						 unsigned int s)
{
	dls_u128 p = dls_u128_mul_u64_u64_x86(a, b);

	if (s < 64) {
		/* shrd by 0 leaves the low half as it is */
		__asm__("shrdq %b2, %1, %0"
			: "+r"(p.lo)
			: "r"(p.hi), "cJ"(s)
			: "cc");
		return p.lo;
	}
	return s < 128 ? p.hi >> (s - 64) : 0;
}

/* (hi:lo) / d with hi < d, so divq cannot fault. */
DLS_INLINE uint64_t dls_u128__divq(uint64_t hi, uint64_t lo, uint64_t d,
				   uint64_t *rem)
{
	uint64_t q, r;

	__asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), DLS_U128__RM(d) : "cc");
	*rem = r;
	return q;
}

/**
 * @brief 128 by 64 division with two `divq` (x86_64 backend).
 * @param[in] a dividend.
 * @param[in] d divisor, not 0.
 * @param[out] rem remainder (may be NULL).
 * @return the quotient.
 */
DLS_INLINE dls_u128 dls_u128_div_u64_rem_x86(dls_u128 a, uint64_t d,
					     uint64_t *rem)
{
	uint64_t r, qhi = 0, qlo, hi = a.hi;

	DLS_U128__CHECK_DIV(d);
	if (hi >= d) {
		qhi = hi / d;
		hi %= d;
	}
	qlo = dls_u128__divq(hi, a.lo, d, &r);
	if (rem)
		*rem = r;
	return dls_u128__make(qhi, qlo);
}

/**
 * @brief a * b / c with `mulq` + `divq`, saturating (x86_64 backend).
 * @param[in] a a factor.
 * @param[in] b a factor.
 * @param[in] c divisor, not 0.
 * @return the quotient, or UINT64_MAX on overflow.
 */
DLS_INLINE uint64_t dls_u128_mul_u64_u64_div_u64_x86(uint64_t a, uint64_t b,
						     uint64_t c)
{
	dls_u128 p = dls_u128_mul_u64_u64_x86(a, b);
	uint64_t r;

	DLS_U128__CHECK_DIV(c);
	if (p.hi >= c)
		return UINT64_MAX;
	return dls_u128__divq(p.hi, p.lo, c, &r);
}
#endif /* DLS_U128_HAVE_X86 */

/* ------------------------------------------------------------------ */
/* The configured backend.                                              */
/* ------------------------------------------------------------------ */
#if DLS_MATH128_BACKEND == DLS_MATH128_X86_64 && defined(DLS_U128_HAVE_X86)
#define DLS_U128__ARITH(op) op##_int128
#define DLS_U128__MUL(op) op##_x86
#elif DLS_MATH128_BACKEND >= DLS_MATH128_INT128 && defined(DLS_U128_HAVE_INT128)
#define DLS_U128__ARITH(op) op##_int128
#define DLS_U128__MUL(op) op##_int128
#else
#define DLS_U128__ARITH(op) op##_portable
#define DLS_U128__MUL(op) op##_portable
#endif
#if DLS_MATH128_BACKEND == DLS_MATH128_X86_64 && !defined(DLS_U128_HAVE_INT128)
#undef DLS_U128__ARITH
#define DLS_U128__ARITH(op) op##_portable
#endif

/*
 * Every call of the API from a file that includes this one (the library's
 * sources, through internal.h) inlines the configured backend:
 * function-like macros over the exported names, as a C library may shadow
 * its functions. math128.c defines the exported functions from the same
 * macros. A test or benchmark that means to call the exported functions
 * defines DLS_U128_NO_INLINE_API before its first include.
 */
DLS_INLINE int dls_u128__mul_u64_u64_div_u64_checked(uint64_t a, uint64_t b,
						    uint64_t c, uint64_t *q)
{
	if (c == 0)
		return DLS_EINVAL;
	if (DLS_U128__MUL(dls_u128_mul_u64_u64)(a, b).hi >= c)
		return DLS_ERANGE;
	*q = DLS_U128__MUL(dls_u128_mul_u64_u64_div_u64)(a, b, c);
	return 0;
}

#if !defined(DLS_U128_NO_INLINE_API)
#define dls_u128_add(a, b) DLS_U128__ARITH(dls_u128_add)(a, b)
#define dls_u128_sub(a, b) DLS_U128__ARITH(dls_u128_sub)(a, b)
#define dls_u128_mul_u64_u64(a, b) DLS_U128__MUL(dls_u128_mul_u64_u64)(a, b)
#define dls_u128_shl(a, s) DLS_U128__ARITH(dls_u128_shl)(a, s)
#define dls_u128_shr(a, s) DLS_U128__ARITH(dls_u128_shr)(a, s)
#define dls_u128_cmp(a, b) DLS_U128__ARITH(dls_u128_cmp)(a, b)
#define dls_u128_mul_cmp(a, b, c, d)                                           \
	DLS_U128__ARITH(dls_u128_cmp)(DLS_U128__MUL(dls_u128_mul_u64_u64)(a, b), \
				      DLS_U128__MUL(dls_u128_mul_u64_u64)(c, d))
#define dls_u128_mul_u64_u64_shr(a, b, s)                                      \
	DLS_U128__MUL(dls_u128_mul_u64_u64_shr)(a, b, s)
#define dls_u128_mul_u64_u32_shr(a, mul, s)                                    \
	DLS_U128__MUL(dls_u128_mul_u64_u64_shr)(a, (uint32_t)(mul), s)
#define dls_u128_div_u64_rem(a, d, rem) DLS_U128__MUL(dls_u128_div_u64_rem)(a, d, rem)
#define dls_u128_mul_u64_u64_div_u64(a, b, c)                                  \
	DLS_U128__MUL(dls_u128_mul_u64_u64_div_u64)(a, b, c)
#define dls_u128_mul_u64_u64_div_u64_checked(a, b, c, q)                       \
	dls_u128__mul_u64_u64_div_u64_checked(a, b, c, q)
#endif

#endif /* DLSCHED_MATH128_IMPL_H */
