/* Tests for the common header: error table and wrap-safe time comparison. */
#include <string.h>

#include <dlsched/common.h>

#include "dls_test.h"

static void test_strerror_table(void)
{
	CU_ASSERT_STRING_EQUAL(dls_strerror(0), "success");
	CU_ASSERT_STRING_EQUAL(dls_errname(DLS_EINVAL), "DLS_EINVAL");
	CU_ASSERT_STRING_EQUAL(dls_errname(DLS_EBANDWIDTH), "DLS_EBANDWIDTH");
	CU_ASSERT_STRING_EQUAL(dls_strerror(12345), "unknown error");
	CU_ASSERT_STRING_EQUAL(dls_errname(-9999), "DLS_E?");
	/* Every code in the table is negative, distinct and has a message. */
#define CHECK_ONE(name, val, msg)                                              \
	CU_ASSERT(DLS_##name < 0);                                             \
	CU_ASSERT_STRING_EQUAL(dls_strerror(DLS_##name), msg);                 \
	CU_ASSERT_STRING_EQUAL(dls_errname(DLS_##name), "DLS_" #name);
	DLS_ERRNO_MAP(CHECK_ONE)
#undef CHECK_ONE
}

static void test_time_wrap(void)
{
	CU_ASSERT_TRUE(dls_time_before(1, 2));
	CU_ASSERT_FALSE(dls_time_before(2, 2));
	CU_ASSERT_FALSE(dls_time_before(3, 2));
	/* Near the wrap: UINT64_MAX - 5 is before 10 (10 lies past the wrap). */
	CU_ASSERT_TRUE(dls_time_before(UINT64_MAX - 5, 10));
	CU_ASSERT_TRUE(dls_time_after(10, UINT64_MAX - 5));
	CU_ASSERT_FALSE(dls_time_after(UINT64_MAX - 5, 10));
	/* Exactly 2^63 apart is the ambiguous edge: "before" is false one way. */
	CU_ASSERT_TRUE(dls_time_before(0, (1ULL << 63) - 1));
	CU_ASSERT_FALSE(dls_time_before((1ULL << 63) - 1, 0));
}

struct outer {
	int a;
	double member;
};

static void test_container_of(void)
{
	struct outer o;

	CU_ASSERT_PTR_EQUAL(dls_container_of(&o.member, struct outer, member), &o);
}

static const struct dls_test_case common_cases[] = {
	{ "strerror table", test_strerror_table },
	{ "time wrap", test_time_wrap },
	{ "container_of", test_container_of },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "common", common_cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
