/*
 * math128: every backend against exact expected values on edge cases, the
 * fast backends against the portable one on random inputs, and algebraic
 * identities that trust no backend (q * c + r == a * b, r < c). The
 * backends are named from src/math128/math128_impl.h; every plain
 * dls_u128_* call here is the exported function a user links.
 */
#define _POSIX_C_SOURCE 200809L
#define DLS_U128_NO_INLINE_API 1
#include <dlsched/math128.h>

#include "math128/math128_impl.h"

#include "dls_test.h"

#if defined(__unix__) && defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
#define HAVE_DIV0_TEST 1
#endif

#define U(hi, lo) ((dls_u128){ (lo), (hi) })
#define M64 UINT64_MAX

static void assert_u128(dls_u128 got, dls_u128 want, const char *what)
{
	if (got.hi != want.hi || got.lo != want.lo)
		fprintf(stderr, "%s: got %016llx:%016llx want %016llx:%016llx\n",
			what, (unsigned long long)got.hi, (unsigned long long)got.lo,
			(unsigned long long)want.hi, (unsigned long long)want.lo);
	CU_ASSERT_FATAL(got.hi == want.hi && got.lo == want.lo);
}

/* Run an exact case through every compiled backend. */
#if defined(DLS_U128_HAVE_INT128)
#define EACH_INT128(call, want, name) assert_u128(call##_int128, want, name " int128")
#else
#define EACH_INT128(call, want, name) ((void)0)
#endif

struct mul_case {
	uint64_t a, b;
	dls_u128 p; /* worked out by hand from (2^n +- k) expansions */
};

static const struct mul_case mul_cases[] = {
	{ 0, 0, U(0, 0) },
	{ 1, 1, U(0, 1) },
	{ M64, 1, U(0, M64) },
	{ M64, 0, U(0, 0) },
	/* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
	{ M64, M64, U(M64 - 1, 1) },
	/* 2^32 * 2^32 = 2^64 */
	{ UINT64_C(1) << 32, UINT64_C(1) << 32, U(1, 0) },
	/* (2^32 + 1)(2^32 - 1) = 2^64 - 1 */
	{ (UINT64_C(1) << 32) + 1, (UINT64_C(1) << 32) - 1, U(0, M64) },
	/* (2^32 + 1)^2 = 2^64 + 2^33 + 1 */
	{ (UINT64_C(1) << 32) + 1, (UINT64_C(1) << 32) + 1, U(1, (UINT64_C(1) << 33) + 1) },
	/* 2^63 * 2 = 2^64 ; 2^63 * 2^63 = 2^126 */
	{ UINT64_C(1) << 63, 2, U(1, 0) },
	{ UINT64_C(1) << 63, UINT64_C(1) << 63, U(UINT64_C(1) << 62, 0) },
	/* (2^64 - 1) * 2^32 = 2^96 - 2^32: carries across the halves */
	{ M64, UINT64_C(1) << 32, U(0xffffffffu, 0xffffffff00000000u) },
	/* 0xffffffff * 0xffffffff = 2^64 - 2^33 + 1 */
	{ 0xffffffffu, 0xffffffffu, U(0, 0xfffffffe00000001u) },
};

static void test_mul_edges(void)
{
	for (size_t i = 0; i < sizeof(mul_cases) / sizeof(mul_cases[0]); i++) {
		const struct mul_case *c = &mul_cases[i];

		assert_u128(dls_u128_mul_u64_u64_portable(c->a, c->b), c->p, "mul portable");
#if defined(DLS_U128_HAVE_INT128)
		assert_u128(dls_u128_mul_u64_u64_int128(c->a, c->b), c->p, "mul int128");
#endif
#if defined(DLS_U128_HAVE_X86)
		assert_u128(dls_u128_mul_u64_u64_x86(c->a, c->b), c->p, "mul x86");
#endif
		assert_u128(dls_u128_mul_u64_u64(c->a, c->b), c->p, "mul");
		assert_u128(dls_u128_mul_u64_u64(c->b, c->a), c->p, "mul commuted");
	}
}

static void test_add_sub_edges(void)
{
	/* carry out of the low half and wrap of the whole */
	assert_u128(dls_u128_add_portable(U(0, M64), U(0, 1)), U(1, 0), "add carry");
	assert_u128(dls_u128_add_portable(U(M64, M64), U(0, 1)), U(0, 0), "add wrap");
	assert_u128(dls_u128_sub_portable(U(1, 0), U(0, 1)), U(0, M64), "sub borrow");
	assert_u128(dls_u128_sub_portable(U(0, 0), U(0, 1)), U(M64, M64), "sub wrap");
#if defined(DLS_U128_HAVE_INT128)
	assert_u128(dls_u128_add_int128(U(0, M64), U(0, 1)), U(1, 0), "add carry i");
	assert_u128(dls_u128_sub_int128(U(1, 0), U(0, 1)), U(0, M64), "sub borrow i");
#endif
	assert_u128(dls_u128_add(U(0, M64), U(0, 1)), U(1, 0), "add");
	assert_u128(dls_u128_sub(U(0, 0), U(0, 1)), U(M64, M64), "sub");
}

static void test_shift_edges(void)
{
	const dls_u128 x = U(0x8000000000000001u, 0x8000000000000001u);
	static const struct {
		unsigned int s;
		dls_u128 shl, shr;
	} c[] = {
		{ 0, { 0x8000000000000001u, 0x8000000000000001u },
		     { 0x8000000000000001u, 0x8000000000000001u } },
		{ 1, { 0x0000000000000002u, 0x0000000000000003u },
		     { 0xc000000000000000u, 0x4000000000000000u } },
		{ 63, { 0x8000000000000000u, 0xc000000000000000u },
		      { 0x0000000000000003u, 0x0000000000000001u } },
		{ 64, { 0, 0x8000000000000001u }, { 0x8000000000000001u, 0 } },
		{ 65, { 0, 0x0000000000000002u }, { 0x4000000000000000u, 0 } },
		{ 127, { 0, 0x8000000000000000u }, { 0x0000000000000001u, 0 } },
		{ 128, { 0, 0 }, { 0, 0 } },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_u128(dls_u128_shl_portable(x, c[i].s), c[i].shl, "shl portable");
		assert_u128(dls_u128_shr_portable(x, c[i].s), c[i].shr, "shr portable");
#if defined(DLS_U128_HAVE_INT128)
		assert_u128(dls_u128_shl_int128(x, c[i].s), c[i].shl, "shl int128");
		assert_u128(dls_u128_shr_int128(x, c[i].s), c[i].shr, "shr int128");
#endif
		assert_u128(dls_u128_shl(x, c[i].s), c[i].shl, "shl");
		assert_u128(dls_u128_shr(x, c[i].s), c[i].shr, "shr");
	}
}

static void test_cmp_edges(void)
{
	CU_ASSERT_EQUAL(dls_u128_cmp(U(1, 0), U(0, M64)), 1);
	CU_ASSERT_EQUAL(dls_u128_cmp(U(0, M64), U(1, 0)), -1);
	CU_ASSERT_EQUAL(dls_u128_cmp(U(5, 7), U(5, 7)), 0);
	CU_ASSERT_EQUAL(dls_u128_cmp_portable(U(5, 6), U(5, 7)), -1);
	CU_ASSERT_TRUE(dls_u128_lt(U(0, M64), U(1, 0)));
	CU_ASSERT_FALSE(dls_u128_lt(U(1, 0), U(1, 0)));
	CU_ASSERT_TRUE(dls_u128_eq(U(1, 2), U(1, 2)));
}

typedef uint64_t (*mulshr_fn)(uint64_t, uint64_t, unsigned int);

static const mulshr_fn mulshrs[] = {
	dls_u128_mul_u64_u64_shr_portable,
#if defined(DLS_U128_HAVE_INT128)
	dls_u128_mul_u64_u64_shr_int128,
#endif
#if defined(DLS_U128_HAVE_X86)
	dls_u128_mul_u64_u64_shr_x86,
#endif
	dls_u128_mul_u64_u64_shr,
};
#define NMULSHR (sizeof(mulshrs) / sizeof(mulshrs[0]))

static void test_mul_shr_edges(void)
{
	static const struct {
		uint64_t a, b;
		unsigned int s;
		uint64_t want;
	} c[] = {
		/* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
		{ M64, M64, 0, 1 },
		{ M64, M64, 1, 0 },               /* 2^127 - 2^64, low half */
		{ M64, M64, 63, M64 - 3 },        /* 2^65 - 4, low half */
		{ M64, M64, 64, M64 - 1 },
		{ M64, M64, 65, M64 >> 1 },       /* 2^63 - 1 */
		{ M64, M64, 127, 1 },
		{ M64, M64, 128, 0 },
		{ M64, M64, 200, 0 },
		/* (2^32 + 1)^2 = 2^64 + 2^33 + 1 */
		{ (UINT64_C(1) << 32) + 1, (UINT64_C(1) << 32) + 1, 32,
		  (UINT64_C(1) << 32) + 2 },
		{ (UINT64_C(1) << 32) + 1, (UINT64_C(1) << 32) + 1, 33,
		  (UINT64_C(1) << 31) + 1 },
		/* 2^63 * 2^63 = 2^126 */
		{ UINT64_C(1) << 63, UINT64_C(1) << 63, 126, 1 },
		{ UINT64_C(1) << 63, UINT64_C(1) << 63, 62, 0 },
		{ 3000000, 768, 10, 2250000 },    /* 75% capacity */
		{ 0, M64, 5, 0 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (size_t k = 0; k < NMULSHR; k++)
			DLS_ASSERT_EQ_U64(mulshrs[k](c[i].a, c[i].b, c[i].s), c[i].want);

	/* (2^64 - 1)(2^32 - 1) = 2^96 - 2^64 - 2^32 + 1 */
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(M64, 0xffffffffu, 0),
			  0xffffffff00000001u);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(M64, 0xffffffffu, 32),
			  0xfffffffeffffffffu);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(M64, 0xffffffffu, 95), 1);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(M64, 0xffffffffu, 96), 0);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(M64, 1024, 10), M64);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(1000, 1, 0), 1000);
}

static void test_mul_cmp_edges(void)
{
	/* (2^32 + 1)(2^32 - 1) = 2^64 - 1 = (2^64 - 1) * 1 */
	CU_ASSERT_EQUAL(dls_u128_mul_cmp((UINT64_C(1) << 32) + 1,
					 (UINT64_C(1) << 32) - 1, M64, 1), 0);
	/* (2^64 - 1)(2^64 - 2) is (2^64 - 1)^2 less 2^64 - 1 */
	CU_ASSERT_EQUAL(dls_u128_mul_cmp(M64, M64 - 1, M64, M64), -1);
	/* 2^63 (2^64 - 1) = 2^127 - 2^63 < (2^64 - 1)^2 */
	CU_ASSERT_EQUAL(dls_u128_mul_cmp(M64, M64, UINT64_C(1) << 63, M64), 1);
	/* differ only in the low half: 274177 * 67280421310721 = 2^64 + 1 */
	CU_ASSERT_EQUAL(dls_u128_mul_cmp(274177, UINT64_C(67280421310721),
					 UINT64_C(1) << 32, UINT64_C(1) << 32), 1);
	CU_ASSERT_EQUAL(dls_u128_mul_cmp(UINT64_C(1) << 32, UINT64_C(1) << 32,
					 274177, UINT64_C(67280421310721)), -1);
	CU_ASSERT_EQUAL(dls_u128_mul_cmp(0, M64, M64, 0), 0);
	/* 1/3 vs 333333333/10^9: 1 * 10^9 > 333333333 * 3 */
	CU_ASSERT_EQUAL(dls_u128_mul_cmp(1, 1000000000, 333333333, 3), 1);
}

typedef dls_u128 (*div_fn)(dls_u128, uint64_t, uint64_t *);
typedef uint64_t (*muldiv_fn)(uint64_t, uint64_t, uint64_t);

static const div_fn divs[] = {
	dls_u128_div_u64_rem_portable,
#if defined(DLS_U128_HAVE_INT128)
	dls_u128_div_u64_rem_int128,
#endif
#if defined(DLS_U128_HAVE_X86)
	dls_u128_div_u64_rem_x86,
#endif
};

static const muldiv_fn muldivs[] = {
	dls_u128_mul_u64_u64_div_u64_portable,
#if defined(DLS_U128_HAVE_INT128)
	dls_u128_mul_u64_u64_div_u64_int128,
#endif
#if defined(DLS_U128_HAVE_X86)
	dls_u128_mul_u64_u64_div_u64_x86,
#endif
};

#define NDIV (sizeof(divs) / sizeof(divs[0]))
#define NMULDIV (sizeof(muldivs) / sizeof(muldivs[0]))

/* The portable division normalises by the divisor's leading zeros. */
static void test_clz(void)
{
	for (unsigned int i = 0; i < 64; i++) {
		uint64_t top = UINT64_C(1) << i;

		DLS_ASSERT_EQ_U64(dls_u128__clz64_portable(top), 63 - i);
		DLS_ASSERT_EQ_U64(dls_u128__clz64_portable(top | (top - 1)), 63 - i);
		DLS_ASSERT_EQ_U64(dls_u128__clz64_portable(top | 1), 63 - i);
	}
}

static void test_div_edges(void)
{
	static const struct {
		dls_u128 a;
		uint64_t d;
		dls_u128 q;
		uint64_t r;
	} c[] = {
		{ { 0, 0 }, 1, { 0, 0 }, 0 },
		{ { M64, M64 }, 1, { M64, M64 }, 0 },
		/* (2^128 - 1) / (2^64 - 1) = 2^64 + 1, remainder 0 */
		{ { M64, M64 }, M64, { 1, 1 }, 0 },
		/* 2^64 / (2^64 - 1) = 1 rem 1 */
		{ { 0, 1 }, M64, { 1, 0 }, 1 },
		/* 2^64 / 2^32 = 2^32 */
		{ { 0, 1 }, UINT64_C(1) << 32, { UINT64_C(1) << 32, 0 }, 0 },
		/* (2^64 + 5) / 3 = 6148914691236517207 rem 0 (2^64 + 5 = 3 * that) */
		{ { 5, 1 }, 3, { 0x5555555555555557u, 0 }, 0 },
		/* 2^127 / (2^63 + 1): quotient 2^64 - 2 remainder 2 */
		{ { 0, UINT64_C(1) << 63 }, (UINT64_C(1) << 63) + 1,
		  { M64 - 1, 0 }, 2 },
		/* 2^64 / (2^32 + 1) = 2^32 - 1 rem 1, as (2^32+1)(2^32-1) = 2^64-1 */
		{ { 0, 1 }, (UINT64_C(1) << 32) + 1, { 0xffffffffu, 0 }, 1 },
		/* 2^96 = (2^32 - 1)(2^64 + 2^32 + 1) + 1 */
		{ { 0, UINT64_C(1) << 32 }, 0xffffffffu,
		  { (UINT64_C(1) << 32) + 1, 1 }, 1 },
		/* (2^128 - 1) / 2^63 = 2^65 - 1 rem 2^63 - 1 */
		{ { M64, M64 }, UINT64_C(1) << 63, { M64, 1 }, M64 >> 1 },
		/* small / large: 7 / (2^64 - 1) = 0 rem 7 */
		{ { 7, 0 }, M64, { 0, 0 }, 7 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (size_t k = 0; k < NDIV; k++) {
			uint64_t r = 12345;

			assert_u128(divs[k](c[i].a, c[i].d, &r), c[i].q, "div");
			DLS_ASSERT_EQ_U64(r, c[i].r);
		}
}

static void test_muldiv_edges(void)
{
	static const struct {
		uint64_t a, b, c, q;
	} c[] = {
		{ 0, 0, 1, 0 },
		{ M64, M64, M64, M64 },            /* exact: (2^64-1)^2 / (2^64-1) */
		{ M64, 2, 2, M64 },
		{ M64, M64, 1, M64 },              /* quotient overflow: saturates */
		{ UINT64_C(1) << 63, 4, 2, M64 },  /* 2^64 exactly: overflow */
		{ UINT64_C(1) << 63, 4, 3, 0xaaaaaaaaaaaaaaaau }, /* floor(2^65 / 3) fits */
		{ UINT64_C(1) << 63, 4, 5, 0x6666666666666666u }, /* floor(2^65/5) */
		{ 10, 20, 3, 66 },                 /* truncates 66.67 */
		{ 3000000, UINT64_C(1) << 20, 10000000, 314572 }, /* 0.3 in 2^20 */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (size_t k = 0; k < NMULDIV; k++)
			DLS_ASSERT_EQ_U64(muldivs[k](c[i].a, c[i].b, c[i].c), c[i].q);
		DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u64_div_u64(c[i].a, c[i].b, c[i].c), c[i].q);
	}
	uint64_t q = 0;

	CU_ASSERT_EQUAL(dls_u128_mul_u64_u64_div_u64_checked(M64, M64, 1, &q), DLS_ERANGE);
	CU_ASSERT_EQUAL(dls_u128_mul_u64_u64_div_u64_checked(1, 1, 0, &q), DLS_EINVAL);
	CU_ASSERT_EQUAL(dls_u128_mul_u64_u64_div_u64_checked(10, 20, 3, &q), 0);
	DLS_ASSERT_EQ_U64(q, 66);
	/* (2^64 - 1)^2 / (2^64 - 1): the largest quotient that fits */
	CU_ASSERT_EQUAL(dls_u128_mul_u64_u64_div_u64_checked(M64, M64, M64, &q), 0);
	DLS_ASSERT_EQ_U64(q, M64);
	/* 2^64 / 1: the smallest that does not; q is left alone */
	q = 7;
	CU_ASSERT_EQUAL(dls_u128_mul_u64_u64_div_u64_checked(UINT64_C(1) << 32,
							     UINT64_C(1) << 32, 1, &q),
			DLS_ERANGE);
	DLS_ASSERT_EQ_U64(q, 7);
	/* mul_shr helpers */
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u32_shr(3 * 1000000, 512, 10), 1500000);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u64_shr(M64, M64, 64), M64 - 1);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u64_shr(M64, M64, 127), 1);
	DLS_ASSERT_EQ_U64(dls_u128_mul_u64_u64_shr(M64, M64, 0), 1);
}

#if defined(HAVE_DIV0_TEST)
static volatile uint64_t zero;

static void div0_portable(void *arg)
{
	(void)arg;
	(void)dls_u128_div_u64_rem_portable(U(1, 1), zero, NULL);
}

static void muldiv0_portable(void *arg)
{
	(void)arg;
	(void)dls_u128_mul_u64_u64_div_u64_portable(1, 1, zero);
}

static void div0_api(void *arg)
{
	(void)arg;
	(void)dls_u128_div_u64_rem(U(0, 0), zero, NULL);
}

static void muldiv0_api(void *arg)
{
	(void)arg;
	(void)dls_u128_mul_u64_u64_div_u64(0, 0, zero);
}

#if defined(DLS_U128_HAVE_INT128)
static void div0_int128(void *arg)
{
	(void)arg;
	(void)dls_u128_div_u64_rem_int128(U(1, 1), zero, NULL);
}

static void muldiv0_int128(void *arg)
{
	(void)arg;
	(void)dls_u128_mul_u64_u64_div_u64_int128(1, 1, zero);
}

#endif
#if defined(DLS_U128_HAVE_X86)
static void div0_x86(void *arg)
{
	(void)arg;
	(void)dls_u128_div_u64_rem_x86(U(1, 1), zero, NULL);
}

static void muldiv0_x86(void *arg)
{
	(void)arg;
	(void)dls_u128_mul_u64_u64_div_u64_x86(1, 1, zero);
}

#endif

static void test_div_by_zero(void)
{
	static void (*const fns[])(void *) = {
		div0_portable, muldiv0_portable, div0_api, muldiv0_api,
#if defined(DLS_U128_HAVE_INT128)
		div0_int128, muldiv0_int128,
#endif
#if defined(DLS_U128_HAVE_X86)
		div0_x86, muldiv0_x86,
#endif
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		enum dls_test_child e = dls_test_run_child(fns[i], NULL, 5000);

		if (e == DLS_CHILD_HUNG) {
			printf("[skip] forked children do not run here\n");
			return;
		}
		if (e != DLS_CHILD_ABORTED)
			fprintf(stderr, "division by zero case %zu did not assert\n", i);
		CU_ASSERT_EQUAL(e, DLS_CHILD_ABORTED);
	}
}
#endif

/* Random operands with a bias toward edge-like values. */
static uint64_t rnd(struct dls_test_rng *r)
{
	uint64_t x = dls_test_rng_next(r);

	switch (x & 7) {
	case 0:
		return x >> (dls_test_rng_next(r) & 63);
	case 1:
		return M64 - (dls_test_rng_next(r) & 0xff);
	case 2:
		return (UINT64_C(1) << (x >> 58)) + (dls_test_rng_next(r) & 3) - 1;
	default:
		return dls_test_rng_next(r);
	}
}

static void test_random_cross(void)
{
	struct dls_test_rng r;
	uint64_t n = dls_test_scaled(1000000);

	dls_test_rng_seed(&r, dls_test_seed("math128 random", 0x128128128ULL));
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = rnd(&r), b = rnd(&r), c = rnd(&r) | 1;
		unsigned int s = (unsigned int)(dls_test_rng_next(&r) % 130);
		dls_u128 p = dls_u128_mul_u64_u64_portable(a, b);
		dls_u128 x = U(rnd(&r), rnd(&r)), y = U(rnd(&r), rnd(&r));

		/* Identity check, independent of any backend's division:
		 * q * c + r == p with r < c. */
		for (size_t k = 0; k < NDIV; k++) {
			uint64_t rem;
			dls_u128 q = divs[k](p, c, &rem);
			dls_u128 back = dls_u128_add_portable(
				dls_u128_add_portable(
					dls_u128_mul_u64_u64_portable(q.lo, c),
					dls_u128_shl_portable(dls_u128_from_u64(
						q.hi * c), 64)),
				dls_u128_from_u64(rem));

			CU_ASSERT_FATAL(rem < c);
			CU_ASSERT_FATAL(dls_u128_eq(back, p));
			CU_ASSERT_FATAL(dls_u128_mul_u64_u64_portable(q.hi, c).hi == 0);
		}
		uint64_t md = muldivs[0](a, b, c);
		for (size_t k = 1; k < NMULDIV; k++)
			CU_ASSERT_FATAL(muldivs[k](a, b, c) == md);
#if defined(DLS_U128_HAVE_INT128)
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_mul_u64_u64_int128(a, b), p));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_add_int128(x, y), dls_u128_add_portable(x, y)));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_sub_int128(x, y), dls_u128_sub_portable(x, y)));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_shl_int128(x, s), dls_u128_shl_portable(x, s)));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_shr_int128(x, s), dls_u128_shr_portable(x, s)));
		CU_ASSERT_FATAL(dls_u128_cmp_int128(x, y) == dls_u128_cmp_portable(x, y));
#endif
#if defined(DLS_U128_HAVE_X86)
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_mul_u64_u64_x86(a, b), p));
#endif
		/* Every shifted product against the portable one, and the
		 * portable one against its definition. */
		uint64_t ms = dls_u128_shr_portable(p, s).lo;

		for (size_t k = 0; k < NMULSHR; k++)
			CU_ASSERT_FATAL(mulshrs[k](a, b, s) == ms);
		CU_ASSERT_FATAL(dls_u128_mul_u64_u32_shr(a, (uint32_t)b, s) ==
				dls_u128_mul_u64_u64_shr_portable(a, (uint32_t)b, s));
		/* The configured backend behind the dls_u128_* names. */
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_mul_u64_u64(a, b), p));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_add(x, y), dls_u128_add_portable(x, y)));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_sub(x, y), dls_u128_sub_portable(x, y)));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_shl(x, s), dls_u128_shl_portable(x, s)));
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_shr(x, s), dls_u128_shr_portable(x, s)));
		CU_ASSERT_FATAL(dls_u128_mul_u64_u64_div_u64(a, b, c) == md);
		{
			uint64_t r1, r2;
			dls_u128 q1 = dls_u128_div_u64_rem(x, c, &r1);
			dls_u128 q2 = dls_u128_div_u64_rem_portable(x, c, &r2);

			CU_ASSERT_FATAL(dls_u128_eq(q1, q2) && r1 == r2);
		}
		/* Comparison: antisymmetric, agrees with lt/eq, and with the
		 * order of the halves read as digits. */
		int cxy = dls_u128_cmp(x, y);

		CU_ASSERT_FATAL(cxy == -dls_u128_cmp(y, x));
		CU_ASSERT_FATAL(dls_u128_lt(x, y) == (cxy < 0));
		CU_ASSERT_FATAL(dls_u128_eq(x, y) == (cxy == 0));
		CU_ASSERT_FATAL(cxy == (x.hi != y.hi ? (x.hi < y.hi ? -1 : 1)
					: (x.lo < y.lo ? -1 : x.lo > y.lo)));
		CU_ASSERT_FATAL(dls_u128_cmp(x, x) == 0);
		uint64_t d = rnd(&r);

		CU_ASSERT_FATAL(dls_u128_mul_cmp(a, b, c, d) ==
				dls_u128_cmp_portable(p, dls_u128_mul_u64_u64_portable(c, d)));
		CU_ASSERT_FATAL(dls_u128_mul_cmp(a, b, b, a) == 0);
		/* The low half of a product is C's wrapping product. */
		CU_ASSERT_FATAL(p.lo == a * b);
		/* Checked and saturating a * b / c agree. */
		{
			uint64_t q = 0;
			int rc = dls_u128_mul_u64_u64_div_u64_checked(a, b, c, &q);

			CU_ASSERT_FATAL(rc == 0 || rc == DLS_ERANGE);
			CU_ASSERT_FATAL(rc != 0 || (q == md && p.hi < c));
			CU_ASSERT_FATAL(rc == 0 || (md == M64 && p.hi >= c));
		}
		/* Backend-free identities: (x + y) - y == x; shl then shr. */
		CU_ASSERT_FATAL(dls_u128_eq(dls_u128_sub_portable(
			dls_u128_add_portable(x, y), y), x));
		if (s < 64)
			CU_ASSERT_FATAL(dls_u128_shr_portable(dls_u128_shl_portable(
				U(0, a), s), s).lo == a);
		/* mul_div against the saturating definition via the divide. */
		if (p.hi < c) {
			uint64_t rem;

			CU_ASSERT_FATAL(dls_u128_div_u64_rem_portable(p, c, &rem).lo == md);
		} else {
			CU_ASSERT_FATAL(md == M64);
		}
	}
	printf("  %llu random inputs per operation\n", (unsigned long long)n);
}

static const struct dls_test_case cases[] = {
	{ "mul edges", test_mul_edges },
	{ "add/sub edges", test_add_sub_edges },
	{ "shift edges", test_shift_edges },
	{ "compare", test_cmp_edges },
	{ "mul_shr edges", test_mul_shr_edges },
	{ "mul_cmp edges", test_mul_cmp_edges },
	{ "leading zeros (portable division)", test_clz },
	{ "div edges", test_div_edges },
	{ "mul_div edges and overflow", test_muldiv_edges },
#if defined(HAVE_DIV0_TEST)
	{ "division by zero asserts", test_div_by_zero },
#endif
	{ "random: backends agree", test_random_cross },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "math128", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	printf("math128 backend %d (0 portable, 1 int128, 2 x86_64 asm)\n",
	       DLS_MATH128_BACKEND);
	return dls_test_main(argc, argv, suites);
}
