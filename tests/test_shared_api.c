/*
 * Links the shared library, as an application would, and checks that the
 * exported entry points are reachable and that internal ones stay hidden.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>

#include <dlsched/dlsched.h>

struct item {
	int key;
	struct dls_rb_node node;
};

static bool item_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_container_of(a, struct item, node)->key <
	       dls_container_of(b, struct item, node)->key;
}

static void test_exports(void)
{
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	struct item it[3] = { { 2, { 0 } }, { 0, { 0 } }, { 1, { 0 } } };

	CU_ASSERT_STRING_EQUAL(dls_errname(DLS_ENOMEM), "DLS_ENOMEM");
	for (int i = 0; i < 3; i++) {
		dls_rb_node_init(&it[i].node);
		dls_rb_insert_cached(&it[i].node, &root, item_less);
	}
	CU_ASSERT_PTR_NULL(dls_rb_check_cached(&root, item_less));
	CU_ASSERT_PTR_EQUAL(dls_rb_first_cached(&root), &it[1].node);
	dls_rb_erase_cached(&it[1].node, &root);
	CU_ASSERT_PTR_EQUAL(dls_rb_first_cached(&root), &it[2].node);
	CU_ASSERT_FALSE(dls_rb_node_on_tree(&it[1].node));
}

int main(void)
{
	CU_pSuite s;
	unsigned int fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("shared library", NULL, NULL);
	if (!s || !CU_add_test(s, "exported API", test_exports))
		return 2;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
