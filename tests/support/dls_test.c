#include "dls_test.h"

#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

void dls_test_rng_seed(struct dls_test_rng *r, uint64_t seed)
{
	dls_prng_seed(&r->p, seed);
}

uint64_t dls_test_rng_next(struct dls_test_rng *r)
{
	return dls_prng_next(&r->p);
}

uint64_t dls_test_rng_below(struct dls_test_rng *r, uint64_t n)
{
	return dls_prng_below(&r->p, n);
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

static bool add_suite(const char *name, int (*init)(void),
		      const struct dls_test_case *cases)
{
	CU_pSuite suite = CU_add_suite(name, init, NULL);

	if (!suite)
		return false;
	for (const struct dls_test_case *c = cases; c->name; c++)
		if (!CU_add_test(suite, c->name, c->fn))
			return false;
	return true;
}

static int run_registered(void)
{
	unsigned int failures;

	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	if (CU_get_error() != CUE_SUCCESS)
		failures++;
	CU_cleanup_registry();
	return failures ? 1 : 0;
}

int dls_test_main(int argc, char **argv, const struct dls_test_suite *suites)
{
	(void)argc;
	(void)argv;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (const struct dls_test_suite *s = suites; s->name; s++)
		if (!add_suite(s->name, NULL, s->cases))
			return 2;
	return run_registered();
}

int dls_test_main_inits(int n, const char *const *names, int (*const *inits)(void),
			const struct dls_test_case *cases)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (int i = 0; i < n; i++)
		if (!add_suite(names[i], inits[i], cases))
			return 2;
	return run_registered();
}
