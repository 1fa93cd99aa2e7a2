/*
 * math128 backends against the compiler's unsigned __int128, in one run:
 * ns/op (median of 7) for mul, mul_shr, div_rem and mul_div, and the ratio
 * to the __int128 expression written directly.
 *
 *   bench_math128                          the table
 *   bench_math128 --ops N --only B:OP      N operations of one backend/op
 *                                          (for bench/math128_callgrind.sh)
 * B is portable, int128, x86, api or native; OP is mul (dls_u128_mul_u64_u64),
 * mulshr (dls_u128_mul_u64_u64_shr by 20), div (dls_u128_div_u64_rem) or
 * muldiv (dls_u128_mul_u64_u64_div_u64). native is the same arithmetic
 * written with unsigned __int128 directly (division goes to libgcc); api
 * is the configured backend through the library's exported functions, as
 * a program linking libdlsched calls them (the library's own sources
 * inline the backend instead).
 * Operands cycle through 1024 precomputed values; most products exceed
 * 2^64 and most a * b / c quotients fit 64 bits. Every result feeds an
 * empty asm statement, so no operation can be dropped or hoisted.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlsched/math128.h>

#include "bench_util.h"
#include "math128/math128_impl.h"

#define NVALS 1024

static uint64_t va[NVALS], vb[NVALS], vc[NVALS];

/* Keep results alive without a memory store per op. */
#define SINK(x) __asm__ volatile("" : : "r"(x))

#define LOOP(ops, body)                                                        \
	do {                                                                   \
		for (uint64_t i_ = 0; i_ < (ops); i_++) {                      \
			uint64_t a = va[i_ & (NVALS - 1)];                     \
			uint64_t b = vb[i_ & (NVALS - 1)];                     \
			uint64_t c = vc[i_ & (NVALS - 1)];                     \
			(void)b;                                               \
			(void)c;                                               \
			body;                                                  \
		}                                                              \
	} while (0)

#define DEFINE_BACKEND(name, MUL, MULSHR, DIV, MULDIV)                         \
	static void run_##name(const char *op, uint64_t ops)                   \
	{                                                                      \
		if (!strcmp(op, "mul"))                                        \
			LOOP(ops, { dls_u128 p = MUL(a, b); SINK(p.lo); SINK(p.hi); }); \
		else if (!strcmp(op, "mulshr"))                                \
			LOOP(ops, { SINK(MULSHR(a, b, 20)); });                 \
		else if (!strcmp(op, "div"))                                   \
			LOOP(ops, { uint64_t r; dls_u128 q = DIV(((dls_u128){ a, b }), c, &r); SINK(q.lo); SINK(q.hi); SINK(r); }); \
		else if (!strcmp(op, "muldiv"))                                \
			LOOP(ops, { uint64_t q = MULDIV(a, b, c); SINK(q); });  \
	}

DEFINE_BACKEND(portable, dls_u128_mul_u64_u64_portable,
	       dls_u128_mul_u64_u64_shr_portable, dls_u128_div_u64_rem_portable,
	       dls_u128_mul_u64_u64_div_u64_portable)
#if defined(DLS_U128_HAVE_INT128)
DEFINE_BACKEND(int128, dls_u128_mul_u64_u64_int128,
	       dls_u128_mul_u64_u64_shr_int128, dls_u128_div_u64_rem_int128,
	       dls_u128_mul_u64_u64_div_u64_int128)

/* The peer: plain __int128 expressions, no wrapper. */
__extension__ typedef unsigned __int128 u128n;
static void run_native(const char *op, uint64_t ops)
{
	if (!strcmp(op, "mul"))
		LOOP(ops, { u128n p = (u128n)a * b; SINK((uint64_t)p); SINK((uint64_t)(p >> 64)); });
	else if (!strcmp(op, "mulshr"))
		LOOP(ops, { u128n p = (u128n)a * b; SINK((uint64_t)(p >> 20)); });
	else if (!strcmp(op, "div"))
		LOOP(ops, { u128n x = ((u128n)b << 64) | a; SINK((uint64_t)(x / c)); SINK((uint64_t)(x / c >> 64)); SINK((uint64_t)(x % c)); });
	else if (!strcmp(op, "muldiv"))
		LOOP(ops, { SINK((uint64_t)((u128n)a * b / c)); });
}
#endif
#if defined(DLS_U128_HAVE_X86)
DEFINE_BACKEND(x86, dls_u128_mul_u64_u64_x86, dls_u128_mul_u64_u64_shr_x86,
	       dls_u128_div_u64_rem_x86,
	       dls_u128_mul_u64_u64_div_u64_x86)
#endif

/* The exported functions: a parenthesised name is the function, not the
 * inline macro of math128_impl.h. */
DEFINE_BACKEND(api, (dls_u128_mul_u64_u64), (dls_u128_mul_u64_u64_shr),
	       (dls_u128_div_u64_rem), (dls_u128_mul_u64_u64_div_u64))

struct backend {
	const char *name;
	void (*run)(const char *op, uint64_t ops);
};

static const struct backend backends[] = {
	{ "portable", run_portable },
#if defined(DLS_U128_HAVE_INT128)
	{ "int128", run_int128 },
#endif
#if defined(DLS_U128_HAVE_X86)
	{ "x86", run_x86 },
#endif
	{ "api", run_api },
#if defined(DLS_U128_HAVE_INT128)
	{ "native", run_native },
#endif
};
#define NB (sizeof(backends) / sizeof(backends[0]))

static double measure(const struct backend *b, const char *op, uint64_t ops)
{
	double v[7];

	for (int r = 0; r < 7; r++) {
		double t0 = now_ns();

		b->run(op, ops);
		v[r] = (now_ns() - t0) / (double)ops;
	}
	qsort(v, 7, sizeof(v[0]), cmp_double);
	return v[3];
}

int main(int argc, char **argv)
{
	static const char *ops[] = { "mul", "mulshr", "div", "muldiv" };
	uint64_t s = 0x243f6a8885a308d3ULL, nops = 0;
	const char *only = NULL;

	for (int i = 0; i < NVALS; i++) {
		s ^= s << 13; s ^= s >> 7; s ^= s << 17;
		va[i] = s;
		s ^= s << 13; s ^= s >> 7; s ^= s << 17;
		vb[i] = s >> (s & 31);
		s ^= s << 13; s ^= s >> 7; s ^= s << 17;
		vc[i] = (s | 1) >> (s & 15);
		if (vc[i] <= (vb[i] >> 1)) /* keep a*b/c mostly in range */
			vc[i] = vb[i] | 1;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--ops"))
			nops = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--only"))
			only = argv[i + 1];
	}
	if (only) {
		char name[32];
		const char *colon = strchr(only, ':');

		if (!colon || (size_t)(colon - only) >= sizeof(name))
			return 2;
		memcpy(name, only, (size_t)(colon - only));
		name[colon - only] = 0;
		for (size_t k = 0; k < NB; k++)
			if (!strcmp(backends[k].name, name)) {
				backends[k].run(colon + 1, nops);
				return 0;
			}
		return 2;
	}

	printf("math128 ns/op (median of 7), configured backend %d\n",
	       DLS_MATH128_BACKEND);
	printf("%-8s", "op");
	for (size_t k = 0; k < NB; k++)
		printf(" %10s", backends[k].name);
	printf("   ratios to native __int128\n");
	for (size_t o = 0; o < 4; o++) {
		double t[NB];

		printf("%-8s", ops[o]);
		for (size_t k = 0; k < NB; k++) {
			t[k] = measure(&backends[k], ops[o], 2000000);
			printf(" %10.2f", t[k]);
		}
		printf("  ");
		for (size_t k = 0; k + 1 < NB; k++)
			printf(" %s %.2fx", backends[k].name, t[k] / t[NB - 1]);
		printf("\n");
	}
	return 0;
}
