#include "prng.h"

uint64_t dls_prng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void dls_prng_seed(struct dls_prng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = dls_prng_splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t dls_prng_next(struct dls_prng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t dls_prng_below(struct dls_prng *r, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = dls_prng_next(r);
	while (x >= lim);
	return x % n;
}

double dls_prng_unit(struct dls_prng *r)
{
	return (double)(dls_prng_next(r) >> 11) * 0x1.0p-53;
}
