/* Uses the installed headers and library; exits 0 when both behave. */
#include <stdio.h>
#include <string.h>

#include <dlsched/dlsched.h>

struct item {
	unsigned key;
	struct dls_rb_node node;
};

static bool item_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_container_of(a, struct item, node)->key <
	       dls_container_of(b, struct item, node)->key;
}

int main(void)
{
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	struct item items[5] = { { 3, { 0 } }, { 1, { 0 } }, { 4, { 0 } },
				 { 0, { 0 } }, { 2, { 0 } } };
	unsigned expect = 0;

	if (strcmp(dls_errname(DLS_EINVAL), "DLS_EINVAL") != 0) {
		fprintf(stderr, "consumer: bad error table\n");
		return 1;
	}
	for (int i = 0; i < 5; i++) {
		dls_rb_node_init(&items[i].node);
		dls_rb_insert_cached(&items[i].node, &root, item_less);
	}
	if (dls_rb_check_cached(&root, item_less) != NULL)
		return 1;
	for (struct dls_rb_node *n = dls_rb_first_cached(&root); n;
	     n = dls_rb_next(n))
		if (dls_container_of(n, struct item, node)->key != expect++)
			return 1;
	/* The scheduler API: a 1 ms / 10 ms reservation is 10% bandwidth. */
	{
		struct dls_params p = { .runtime = 1000000, .deadline = 10000000,
					.period = 10000000 };

		/* rounded down, as documented */
		if (dls_params_bw(&p) != (1ULL << DLS_BW_SHIFT) / 10) {
			fprintf(stderr, "consumer: bandwidth %llu\n",
				(unsigned long long)dls_params_bw(&p));
			return 1;
		}
	}
	printf("consumer: libdlsched %d.%d.%d works\n", DLSCHED_VERSION_MAJOR,
	       DLSCHED_VERSION_MINOR, DLSCHED_VERSION_PATCH);
	return expect == 5 ? 0 : 1;
}
