#include "dls_test.h"

#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void dls_test_rng_seed(struct dls_test_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t dls_test_rng_next(struct dls_test_rng *r)
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

uint64_t dls_test_rng_below(struct dls_test_rng *r, uint64_t n)
{
	/* Lemire-free simple rejection: unbiased and portable. */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = dls_test_rng_next(r);
	while (x >= lim);
	return x % n;
}

uint64_t dls_test_seed(const char *what, uint64_t dflt)
{
	const char *env = getenv("DLS_TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : dflt;

	printf("[seed] %s: 0x%016llx (replay with DLS_TEST_SEED=0x%llx)\n",
	       what, (unsigned long long)seed, (unsigned long long)seed);
	return seed;
}

uint64_t dls_test_scaled(uint64_t n)
{
	const char *env = getenv("DLS_TEST_SCALE");
	uint64_t pct = env ? strtoull(env, NULL, 0) : 100;
	uint64_t v = n / 100 * pct + n % 100 * pct / 100;

	return v ? v : 1;
}

int dls_test_main(int argc, char **argv, const struct dls_test_suite *suites)
{
	unsigned int failures;

	(void)argc;
	(void)argv;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (const struct dls_test_suite *s = suites; s->name; s++) {
		CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);

		if (!suite)
			return 2;
		for (const struct dls_test_case *c = s->cases; c->name; c++)
			if (!CU_add_test(suite, c->name, c->fn))
				return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	if (CU_get_error() != CUE_SUCCESS)
		failures++;
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
