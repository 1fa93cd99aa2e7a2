/*
 * The one pseudo-random generator of the tools and the tests: xoshiro256**
 * (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
 * 2021) seeded through splitmix64. Deterministic, caller-owned state, no
 * global state; `dlsim sweep` and the CUnit suites both link it
 * (the dls_prng static library), so a seed means the same draws in both.
 * Not part of the installed API.
 */
#ifndef DLS_PRNG_H
#define DLS_PRNG_H

#include <stdint.h>

struct dls_prng {
	uint64_t s[4];
};

/* One splitmix64 step: advances *x and returns the next output. */
uint64_t dls_prng_splitmix64(uint64_t *x);
/* The four state words are four splitmix64 outputs from @seed. */
void dls_prng_seed(struct dls_prng *r, uint64_t seed);
uint64_t dls_prng_next(struct dls_prng *r);
/* Uniform in [0, n) for n > 0, by rejection (unbiased). */
uint64_t dls_prng_below(struct dls_prng *r, uint64_t n);
/* Uniform in [0, 1), 53 random bits. */
double dls_prng_unit(struct dls_prng *r);

#endif
