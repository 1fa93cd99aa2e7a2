/*
 * Tests for the intrusive red-black tree: golden shapes worked out by hand
 * from the insert/erase cases, ordering of equal keys, replace, iteration,
 * the validator on hand-corrupted trees, and long randomized runs against a
 * sorted-array reference with the validator called after every operation.
 */
#include <stdlib.h>
#include <string.h>

#include <dlsched/rbtree.h>

#include "dls_test.h"

#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT &&                 \
	(defined(__unix__) || defined(__APPLE__))
#define HAVE_DEATH_TESTS 1
#endif

struct item {
	uint64_t key;
	uint64_t seq; /* insertion stamp, to check the order of equal keys */
	struct dls_rb_node node;
	bool on;
};

static struct item *item_of(const struct dls_rb_node *n)
{
	return dls_container_of(n, struct item, node);
}

/* EDF-style order: wrap-safe time comparison of the key alone. */
static bool item_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_time_before(item_of(a)->key, item_of(b)->key);
}

static uint64_t rb_count(const struct dls_rb_root *root)
{
	uint64_t n = 0;

	for (struct dls_rb_node *p = dls_rb_first(root); p; p = dls_rb_next(p))
		n++;
	return n;
}

/* ------------------------------------------------------------------------ */
/* Shape strings: "key colour(left,right)", "-" for an empty child.          */

static bool node_is_black(const struct dls_rb_node *n)
{
	return n->parent_color & 1;
}

static void shape_rec(const struct dls_rb_node *n, char *buf, size_t len)
{
	size_t used = strlen(buf);

	if (!n) {
		snprintf(buf + used, len - used, "-");
		return;
	}
	snprintf(buf + used, len - used, "%llu%c",
		 (unsigned long long)item_of(n)->key,
		 node_is_black(n) ? 'B' : 'R');
	if (!n->left && !n->right)
		return;
	strncat(buf, "(", len - strlen(buf) - 1);
	shape_rec(n->left, buf, len);
	strncat(buf, ",", len - strlen(buf) - 1);
	shape_rec(n->right, buf, len);
	strncat(buf, ")", len - strlen(buf) - 1);
}

static const char *shape(const struct dls_rb_root *root, char *buf, size_t len)
{
	buf[0] = '\0';
	if (root->node)
		shape_rec(root->node, buf, len);
	return buf;
}

/* ------------------------------------------------------------------------ */
/* Golden shapes.                                                            */

struct golden_step {
	int key;           /* > 0: insert key; < 0: erase -key */
	const char *shape; /* expected tree after the step */
};

/*
 * Each expected shape below was derived on paper from the cases drawn in
 * src/rbtree.c (insert: uncle red -> recolour and go up; uncle black ->
 * one or two rotations; erase: the three unlink cases, then the four
 * rebalance cases). Upper-case B/R is the node colour.
 */
static const struct golden_step seq_ascending[] = {
	{ 1, "1B" },
	{ 2, "1B(-,2R)" },
	{ 3, "2B(1R,3R)" },             /* rotate left at 1 */
	{ 4, "2B(1B,3B(-,4R))" },       /* uncle 1 red: recolour */
	{ 5, "2B(1B,4B(3R,5R))" },      /* rotate left at 3 */
	{ 6, "2B(1B,4R(3B,5B(-,6R)))" }, /* recolour, stops at black 2 */
	{ 7, "2B(1B,4R(3B,6B(5R,7R)))" },
	{ 8, "4B(2R(1B,3B),6R(5B,7B(-,8R)))" }, /* recolour, then rotate at 2 */
	{ 0, NULL },
};

static const struct golden_step seq_descending[] = {
	{ 7, "7B" },
	{ 6, "7B(6R,-)" },
	{ 5, "6B(5R,7R)" },
	{ 4, "6B(5B(4R,-),7B)" },
	{ 3, "6B(4B(3R,5R),7B)" },
	{ 2, "6B(4R(3B(2R,-),5B),7B)" },
	{ 1, "6B(4R(2B(1R,3R),5B),7B)" },
	{ 0, NULL },
};

static const struct golden_step seq_erase_mixed[] = {
	{ 1, "1B" },
	{ 2, "1B(-,2R)" },
	{ 3, "2B(1R,3R)" },
	{ 4, "2B(1B,3B(-,4R))" },
	{ 5, "2B(1B,4B(3R,5R))" },
	{ 6, "2B(1B,4R(3B,5B(-,6R)))" },
	{ 7, "2B(1B,4R(3B,6B(5R,7R)))" },
	/* black leaf, red sibling: rotate at 2, then recolour sibling 3 */
	{ -1, "4B(2B(-,3R),6B(5R,7R))" },
	/* two children, successor 5 deep in the right subtree (red) */
	{ -4, "5B(2B(-,3R),6B(-,7R))" },
	/* successor is the right child 6; its red child 7 turns black */
	{ -5, "6B(2B(-,3R),7B)" },
	/* one right child: 3 takes 2's place and colour */
	{ -2, "6B(3B,7B)" },
	/* successor 7 black with no child: rebalance, recolour 3 red */
	{ -6, "7B(3R,-)" },
	{ -7, "3B" },
	{ -3, "" },
	{ 0, NULL },
};

static const struct golden_step seq_erase_leftmost[] = {
	{ 1, "1B" },
	{ 2, "1B(-,2R)" },
	{ 3, "2B(1R,3R)" },
	{ 4, "2B(1B,3B(-,4R))" },
	{ 5, "2B(1B,4B(3R,5R))" },
	{ 6, "2B(1B,4R(3B,5B(-,6R)))" },
	{ 7, "2B(1B,4R(3B,6B(5R,7R)))" },
	{ -1, "4B(2B(-,3R),6B(5R,7R))" },
	{ -2, "4B(3B,6B(5R,7R))" },
	/* black leaf, black sibling with a red far child: rotate at 4 */
	{ -3, "6B(4B(-,5R),7B)" },
	{ -4, "6B(5B,7B)" },
	/* black sibling without red children: recolour and go up */
	{ -5, "6B(-,7R)" },
	{ -6, "7B" },
	{ -7, "" },
	{ 0, NULL },
};

static const struct golden_step seq_zigzag[] = {
	{ 3, "3B" },
	{ 1, "3B(1R,-)" },
	{ 2, "2B(1R,3R)" }, /* rotate left at 1, then right at 3 */
	{ -2, "3B(1R,-)" },
	{ 2, "2B(1R,3R)" },
	{ 0, NULL },
};

static const struct golden_step seq_zigzag_mirror[] = {
	{ 1, "1B" },
	{ 3, "1B(-,3R)" },
	{ 2, "2B(1R,3R)" }, /* rotate right at 3, then left at 1 */
	{ 0, NULL },
};

static const struct golden_step seq_erase_near_red[] = {
	{ 2, "2B" },
	{ 1, "2B(1R,-)" },
	{ 4, "2B(1R,4R)" },
	{ 3, "2B(1B,4B(3R,-))" },
	/* sibling 4 black with a red near child 3: rotate at 4, then at 2 */
	{ -1, "3B(2B,4B)" },
	{ 0, NULL },
};

static const struct golden_step seq_erase_near_red_mirror[] = {
	{ 3, "3B" },
	{ 4, "3B(-,4R)" },
	{ 1, "3B(1R,4R)" },
	{ 2, "3B(1B(-,2R),4B)" },
	{ -4, "2B(1B,3B)" },
	{ 0, NULL },
};

static uint64_t ref_min_key(const struct item *items, int n)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < n; i++)
		if (items[i].on && items[i].key < best)
			best = items[i].key;
	return best;
}

static void run_golden(const char *name, const struct golden_step *steps,
		       bool cached)
{
	struct item items[16];
	struct dls_rb_root_cached croot = DLS_RB_ROOT_CACHED_INIT;
	struct dls_rb_root proot = DLS_RB_ROOT_INIT;
	struct dls_rb_root *tree = cached ? &croot.rb_root : &proot;
	char buf[256];

	memset(items, 0, sizeof(items));
	for (int i = 0; i < 16; i++) {
		items[i].key = (uint64_t)i;
		dls_rb_node_init(&items[i].node);
	}
	for (const struct golden_step *s = steps; s->shape; s++) {
		struct item *it = &items[s->key > 0 ? s->key : -s->key];

		if (s->key > 0) {
			bool lm_expect = ref_min_key(items, 16) > it->key;

			if (cached)
				DLS_ASSERT_EQ_U64(dls_rb_add_cached(&it->node,
								    &croot,
								    item_less),
						  lm_expect);
			else
				dls_rb_add(&it->node, &proot, item_less);
			it->on = true;
		} else {
			it->on = false;
			if (cached) {
				struct dls_rb_node *lm =
					dls_rb_erase_cached(&it->node, &croot);
				uint64_t want = ref_min_key(items, 16);

				if (want == UINT64_MAX) {
					CU_ASSERT_PTR_NULL(lm);
				} else {
					CU_ASSERT_PTR_EQUAL(lm,
							    &items[want].node);
				}
			} else {
				dls_rb_erase(&it->node, &proot);
			}
			CU_ASSERT_FALSE(dls_rb_node_on_tree(&it->node));
		}
		shape(tree, buf, sizeof(buf));
		if (strcmp(buf, s->shape) != 0)
			fprintf(stderr, "%s (%s): after %+d: got \"%s\", want "
					"\"%s\"\n",
				name, cached ? "cached" : "plain", s->key, buf,
				s->shape);
		CU_ASSERT_STRING_EQUAL(buf, s->shape);
		if (cached) {
			DLS_ASSERT_VALID(dls_rb_check_cached(&croot, item_less));
		} else {
			DLS_ASSERT_VALID(dls_rb_check(&proot, item_less));
		}
	}
}

static void test_golden_shapes(void)
{
	static const struct {
		const char *name;
		const struct golden_step *steps;
	} seqs[] = {
		{ "ascending", seq_ascending },
		{ "descending", seq_descending },
		{ "erase mixed", seq_erase_mixed },
		{ "erase leftmost", seq_erase_leftmost },
		{ "zigzag", seq_zigzag },
		{ "zigzag mirror", seq_zigzag_mirror },
		{ "erase near red", seq_erase_near_red },
		{ "erase near red mirror", seq_erase_near_red_mirror },
	};

	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		run_golden(seqs[i].name, seqs[i].steps, false);
		run_golden(seqs[i].name, seqs[i].steps, true);
	}
}

/* ------------------------------------------------------------------------ */

static void test_empty_tree(void)
{
	struct dls_rb_root root;
	struct dls_rb_root_cached croot;
	struct item it = { .key = 1 };

	dls_rb_root_init(&root);
	dls_rb_root_cached_init(&croot);
	CU_ASSERT_TRUE(dls_rb_empty(&root));
	CU_ASSERT_PTR_NULL(dls_rb_first(&root));
	CU_ASSERT_PTR_NULL(dls_rb_last(&root));
	CU_ASSERT_PTR_NULL(dls_rb_first_postorder(&root));
	CU_ASSERT_PTR_NULL(dls_rb_first_cached(&croot));
	DLS_ASSERT_VALID(dls_rb_check(&root, item_less));
	DLS_ASSERT_VALID(dls_rb_check_cached(&croot, item_less));

	/* An off-tree node has no neighbours. */
	dls_rb_node_init(&it.node);
	CU_ASSERT_FALSE(dls_rb_node_on_tree(&it.node));
	CU_ASSERT_PTR_NULL(dls_rb_next(&it.node));
	CU_ASSERT_PTR_NULL(dls_rb_prev(&it.node));

	/* A single node, plain and out-of-line insert. */
	dls_rb_insert(&it.node, &root, item_less);
	CU_ASSERT_TRUE(dls_rb_node_on_tree(&it.node));
	CU_ASSERT_FALSE(dls_rb_empty(&root));
	CU_ASSERT_PTR_EQUAL(dls_rb_first(&root), &it.node);
	CU_ASSERT_PTR_EQUAL(dls_rb_last(&root), &it.node);
	CU_ASSERT_PTR_NULL(dls_rb_next(&it.node));
	CU_ASSERT_PTR_NULL(dls_rb_prev(&it.node));
	DLS_ASSERT_VALID(dls_rb_check(&root, item_less));
	dls_rb_erase(&it.node, &root);
	CU_ASSERT_TRUE(dls_rb_empty(&root));
	CU_ASSERT_FALSE(dls_rb_node_on_tree(&it.node));

	CU_ASSERT_TRUE(dls_rb_insert_cached(&it.node, &croot, item_less));
	CU_ASSERT_PTR_EQUAL(dls_rb_first_cached(&croot), &it.node);
	CU_ASSERT_PTR_NULL(dls_rb_erase_cached(&it.node, &croot));
	CU_ASSERT_PTR_NULL(dls_rb_first_cached(&croot));
}

/* Equal keys come out in insertion order, whatever else happens around. */
static void test_equal_keys_fifo(void)
{
	enum { N = 600 };
	static struct item items[N];
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	struct dls_test_rng rng;
	uint64_t stamp = 0, count = 0;

	dls_test_rng_seed(&rng, dls_test_seed("rbtree equal keys", 0x5eed0001));
	for (int i = 0; i < N; i++) {
		/* Few distinct keys, straddling the u64 wrap. */
		items[i].key = UINT64_MAX - 2 + dls_test_rng_below(&rng, 5);
		dls_rb_node_init(&items[i].node);
	}
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < N; i++) {
			if (items[i].on || dls_test_rng_below(&rng, 3) == 0)
				continue;
			items[i].seq = ++stamp;
			if (i & 1)
				dls_rb_add_cached(&items[i].node, &root,
						  item_less);
			else
				dls_rb_insert_cached(&items[i].node, &root,
						     item_less);
			items[i].on = true;
			count++;
		}
		for (int i = 0; i < N; i++) {
			if (!items[i].on || dls_test_rng_below(&rng, 4) != 0)
				continue;
			dls_rb_erase_cached(&items[i].node, &root);
			items[i].on = false;
			count--;
		}
		DLS_ASSERT_VALID(dls_rb_check_cached(&root, item_less));
	}
	DLS_ASSERT_EQ_U64(rb_count(&root.rb_root), count);

	const struct item *prev = NULL;
	for (struct dls_rb_node *n = dls_rb_first_cached(&root); n;
	     n = dls_rb_next(n)) {
		const struct item *it = item_of(n);

		CU_ASSERT_TRUE(it->on);
		if (prev) {
			CU_ASSERT_FALSE(dls_time_before(it->key, prev->key));
			if (it->key == prev->key) {
				CU_ASSERT_TRUE(it->seq > prev->seq);
			}
		}
		prev = it;
	}
}

static void test_first_last_next_prev(void)
{
	enum { N = 100 };
	static struct item items[N];
	struct dls_rb_root root = DLS_RB_ROOT_INIT;
	struct dls_rb_node *n;
	int i;

	/* Insert keys 0, 10, ..., 990 in a scrambled order (37 is coprime). */
	for (i = 0; i < N; i++) {
		int k = (i * 37) % N;

		items[k].key = (uint64_t)k * 10;
		dls_rb_node_init(&items[k].node);
		dls_rb_add(&items[k].node, &root, item_less);
	}
	DLS_ASSERT_VALID(dls_rb_check(&root, item_less));
	CU_ASSERT_PTR_EQUAL(dls_rb_first(&root), &items[0].node);
	CU_ASSERT_PTR_EQUAL(dls_rb_last(&root), &items[N - 1].node);
	for (i = 0, n = dls_rb_first(&root); n; n = dls_rb_next(n), i++)
		DLS_ASSERT_EQ_U64(item_of(n)->key, (uint64_t)i * 10);
	DLS_ASSERT_EQ_U64(i, N);
	for (i = N - 1, n = dls_rb_last(&root); n; n = dls_rb_prev(n), i--)
		DLS_ASSERT_EQ_U64(item_of(n)->key, (uint64_t)i * 10);
	DLS_ASSERT_EQ_S64(i, -1);
	for (i = 1; i < N - 1; i++) {
		CU_ASSERT_PTR_EQUAL(dls_rb_next(&items[i].node),
				    &items[i + 1].node);
		CU_ASSERT_PTR_EQUAL(dls_rb_prev(&items[i].node),
				    &items[i - 1].node);
	}
	CU_ASSERT_PTR_NULL(dls_rb_prev(&items[0].node));
	CU_ASSERT_PTR_NULL(dls_rb_next(&items[N - 1].node));
}

static void test_replace(void)
{
	enum { N = 31 };
	static struct item items[N], spare[4];
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	char before[512], after[512];
	struct dls_rb_node *rootnode;

	for (int i = 0; i < N; i++) {
		items[i].key = (uint64_t)i;
		dls_rb_node_init(&items[i].node);
		dls_rb_add_cached(&items[i].node, &root, item_less);
	}
	shape(&root.rb_root, before, sizeof(before));

	/* An inner node, the leftmost (cached), the root and the last. */
	rootnode = root.rb_root.node;
	struct item *victims[4] = { &items[13], &items[0], item_of(rootnode),
				    &items[N - 1] };
	for (int v = 0; v < 4; v++) {
		struct item *old = victims[v], *nw = &spare[v];

		nw->key = old->key;
		dls_rb_node_init(&nw->node);
		dls_rb_replace_cached(&old->node, &nw->node, &root);
		CU_ASSERT_FALSE(dls_rb_node_on_tree(&old->node));
		CU_ASSERT_TRUE(dls_rb_node_on_tree(&nw->node));
		DLS_ASSERT_VALID(dls_rb_check_cached(&root, item_less));
		/* Same shape and colours: the keys print the same. */
		shape(&root.rb_root, after, sizeof(after));
		CU_ASSERT_STRING_EQUAL(after, before);
	}
	CU_ASSERT_PTR_EQUAL(dls_rb_first_cached(&root), &spare[1].node);
	CU_ASSERT_PTR_EQUAL(root.rb_root.node, &spare[2].node);
	CU_ASSERT_PTR_EQUAL(dls_rb_last(&root.rb_root), &spare[3].node);
	CU_ASSERT_PTR_EQUAL(dls_rb_next(&items[12].node), &spare[0].node);
	CU_ASSERT_PTR_EQUAL(dls_rb_prev(&items[14].node), &spare[0].node);
	CU_ASSERT_PTR_EQUAL(dls_rb_next(&spare[0].node), &items[14].node);

	/* The plain variant on a plain tree. */
	struct dls_rb_root plain = DLS_RB_ROOT_INIT;
	struct item a = { .key = 1 }, b = { .key = 2 }, b2 = { .key = 2 };

	dls_rb_node_init(&a.node);
	dls_rb_node_init(&b.node);
	dls_rb_node_init(&b2.node);
	dls_rb_add(&a.node, &plain, item_less);
	dls_rb_add(&b.node, &plain, item_less);
	dls_rb_replace(&b.node, &b2.node, &plain);
	CU_ASSERT_PTR_EQUAL(dls_rb_next(&a.node), &b2.node);
	CU_ASSERT_FALSE(dls_rb_node_on_tree(&b.node));
	DLS_ASSERT_VALID(dls_rb_check(&plain, item_less));
}

/* ------------------------------------------------------------------------ */

struct pitem {
	struct dls_rb_node node;
	uint64_t key;
	int visited;
};

static bool pitem_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_container_of(a, struct pitem, node)->key <
	       dls_container_of(b, struct pitem, node)->key;
}

static bool visited_or_null(const struct dls_rb_node *n)
{
	return !n || dls_container_of(n, struct pitem, node)->visited;
}

static void test_postorder(void)
{
	enum { N = 1000 };
	struct dls_rb_root root = DLS_RB_ROOT_INIT;
	struct dls_test_rng rng;
	struct dls_rb_node *n, *next;
	uint64_t count;

	dls_test_rng_seed(&rng, dls_test_seed("rbtree postorder", 0x5eed0002));

	for (int size = 0; size <= N; size = size ? size * 10 : 1) {
		/* Pass 1: every node once, children before their parent. */
		for (int i = 0; i < size; i++) {
			struct pitem *p = malloc(sizeof(*p));

			CU_ASSERT_PTR_NOT_NULL_FATAL(p);
			p->key = dls_test_rng_below(&rng, 1000);
			p->visited = 0;
			dls_rb_node_init(&p->node);
			dls_rb_add(&p->node, &root, pitem_less);
		}
		DLS_ASSERT_VALID(dls_rb_check(&root, pitem_less));
		count = 0;
		for (n = dls_rb_first_postorder(&root); n;
		     n = dls_rb_next_postorder(n)) {
			struct pitem *p = dls_container_of(n, struct pitem,
							   node);

			CU_ASSERT_EQUAL(p->visited, 0);
			CU_ASSERT_TRUE(visited_or_null(n->left));
			CU_ASSERT_TRUE(visited_or_null(n->right));
			p->visited = 1;
			count++;
		}
		DLS_ASSERT_EQ_U64(count, size);
		/* The walk ends at the root. */
		for (n = dls_rb_first(&root); n; n = dls_rb_next(n)) {
			CU_ASSERT_EQUAL(dls_container_of(n, struct pitem, node)
						->visited,
					1);
		}

		/* Pass 2: free each node as it is visited (ASan watches). */
		count = 0;
		for (n = dls_rb_first_postorder(&root); n; n = next) {
			next = dls_rb_next_postorder(n);
			free(dls_container_of(n, struct pitem, node));
			count++;
		}
		DLS_ASSERT_EQ_U64(count, size);
		dls_rb_root_init(&root);
	}
	CU_ASSERT_PTR_NULL(dls_rb_next_postorder(NULL));
}

/* ------------------------------------------------------------------------ */
/* The validator on hand-built trees.                                        */

static void mk(struct item *it, uint64_t key, struct item *parent, bool black,
	       struct item *left, struct item *right)
{
	it->key = key;
	it->node.parent_color =
		(uintptr_t)(parent ? &parent->node : NULL) | (black ? 1u : 0u);
	it->node.left = left ? &left->node : NULL;
	it->node.right = right ? &right->node : NULL;
}

/* The valid tree 2B(1R,3R) in @p b, @p a, @p c. */
static void mk_valid3(struct item *a, struct item *b, struct item *c)
{
	mk(b, 2, NULL, true, a, c);
	mk(a, 1, b, false, NULL, NULL);
	mk(c, 3, b, false, NULL, NULL);
}

/* dls_rb_check_ends() on @p e says @p want (NULL: valid). */
static void expect_ends(const struct dls_rb_root_ends *e, const char *want)
{
	const char *got = dls_rb_check_ends(e, item_less);

	if (!want)
		DLS_ASSERT_VALID(got);
	else
		CU_ASSERT_STRING_EQUAL(got ? got : "(valid)", want);
}

static void expect_check(const struct dls_rb_root *root, const char *want)
{
	const char *got = dls_rb_check(root, item_less);

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	if (strncmp(got, want, strlen(want)) != 0)
		fprintf(stderr, "validator said \"%s\", want \"%s\"\n", got,
			want);
	CU_ASSERT_EQUAL(strncmp(got, want, strlen(want)), 0);
}

static void test_validator_negative(void)
{
	struct item a, b, c, d;
	struct dls_rb_root root = { &b.node };
	struct dls_rb_root_cached croot;

	/* Valid baseline: 2B(1R,3R). */
	mk_valid3(&a, &b, &c);
	DLS_ASSERT_VALID(dls_rb_check(&root, item_less));
	DLS_ASSERT_VALID(dls_rb_check(&root, NULL));

	/* Root red: 2R(1B,3B). */
	mk(&b, 2, NULL, false, &a, &c);
	mk(&a, 1, &b, true, NULL, NULL);
	mk(&c, 3, &b, true, NULL, NULL);
	expect_check(&root, "root is red");

	/* Red-red, black heights equal: 2B(1R(0R,-),3R). */
	mk(&b, 2, NULL, true, &a, &c);
	mk(&a, 1, &b, false, &d, NULL);
	mk(&c, 3, &b, false, NULL, NULL);
	mk(&d, 0, &a, false, NULL, NULL);
	expect_check(&root, "red node has a red child");

	/* Black-height mismatch: 2B(1B,-). */
	mk(&b, 2, NULL, true, &a, NULL);
	mk(&a, 1, &b, true, NULL, NULL);
	expect_check(&root, "black height differs between paths");

	/* Deeper mismatch: 2B(1B,3B(-,4B)). */
	mk(&b, 2, NULL, true, &a, &c);
	mk(&a, 1, &b, true, NULL, NULL);
	mk(&c, 3, &b, true, NULL, &d);
	mk(&d, 4, &c, true, NULL, NULL);
	expect_check(&root, "black height differs between paths");

	/* Broken parent link: 3's parent word names 1. */
	mk(&b, 2, NULL, true, &a, &c);
	mk(&a, 1, &b, false, NULL, NULL);
	mk(&c, 3, &a, false, NULL, NULL);
	expect_check(&root, "parent link inconsistent");

	/* A node marked off-tree but still linked. */
	mk(&c, 3, &b, false, NULL, NULL);
	dls_rb_node_init(&c.node);
	expect_check(&root, "parent link inconsistent");

	/* The same node linked as both children. */
	mk(&b, 2, NULL, true, &a, &a);
	mk(&a, 1, &b, false, NULL, NULL);
	expect_check(&root, "parent link inconsistent");

	/* A cycle back to the root is reported, not followed. */
	mk(&b, 2, NULL, true, &a, &c);
	mk(&a, 1, &b, false, NULL, NULL);
	mk(&c, 3, &b, false, NULL, &b);
	expect_check(&root, "parent link inconsistent");

	/* Root with a parent. */
	mk(&b, 2, &d, true, &a, &c);
	mk(&a, 1, &b, false, NULL, NULL);
	mk(&c, 3, &b, false, NULL, NULL);
	expect_check(&root, "parent link inconsistent");

	/* Wrong order: 2B(3R,1R); fine when no order is given. */
	mk(&b, 2, NULL, true, &c, &a);
	mk(&c, 3, &b, false, NULL, NULL);
	mk(&a, 1, &b, false, NULL, NULL);
	expect_check(&root, "keys out of order");
	DLS_ASSERT_VALID(dls_rb_check(&root, NULL));

	/* Equal keys are in order either way round. */
	mk(&b, 2, NULL, true, &a, &c);
	mk(&a, 2, &b, false, NULL, NULL);
	mk(&c, 2, &b, false, NULL, NULL);
	DLS_ASSERT_VALID(dls_rb_check(&root, item_less));

	/* Stale leftmost on an otherwise valid tree 2B(1R,3R). */
	mk_valid3(&a, &b, &c);
	croot.rb_root.node = &b.node;
	croot.leftmost = &b.node;
	CU_ASSERT_STRING_EQUAL(dls_rb_check_cached(&croot, item_less),
			       "cached leftmost is not the first node");
	croot.leftmost = NULL;
	CU_ASSERT_STRING_EQUAL(dls_rb_check_cached(&croot, item_less),
			       "cached leftmost is not the first node");
	croot.leftmost = &a.node;
	DLS_ASSERT_VALID(dls_rb_check_cached(&croot, item_less));
	/* A stale leftmost on an empty tree. */
	croot.rb_root.node = NULL;
	CU_ASSERT_STRING_EQUAL(dls_rb_check_cached(&croot, item_less),
			       "cached leftmost is not the first node");
	/* Tree errors come first. */
	croot.rb_root.node = &b.node;
	mk(&b, 2, NULL, false, &a, &c);
	CU_ASSERT_STRING_EQUAL(dls_rb_check_cached(&croot, item_less),
			       "root is red");

	/* A stale rightmost on the valid tree 2B(1R,3R). */
	{
		struct dls_rb_root_ends e = { { { &b.node }, &a.node }, &b.node };
		static const char stale[] = "cached rightmost is not the last node";

		mk_valid3(&a, &b, &c);
		expect_ends(&e, stale);
		e.rightmost = NULL;
		expect_ends(&e, stale);
		e.rightmost = &c.node;
		expect_ends(&e, NULL);
		/* The cached tree's checks come first. */
		e.cached.leftmost = &b.node;
		expect_ends(&e, "cached leftmost is not the first node");
		/* A stale rightmost on an empty tree. */
		e.cached.rb_root.node = NULL;
		e.cached.leftmost = NULL;
		expect_ends(&e, stale);
	}

	CU_ASSERT_PTR_NOT_NULL(dls_rb_check(NULL, NULL));
	CU_ASSERT_PTR_NOT_NULL(dls_rb_check_cached(NULL, NULL));
	CU_ASSERT_PTR_NOT_NULL(dls_rb_check_ends(NULL, NULL));
}

/* ------------------------------------------------------------------------ */
/* Randomized run against a sorted array, validating after every operation.  */

struct model {
	struct item **v; /* on-tree items in tree order */
	size_t n;
};

/* Position after the last element not greater than @p it (after equals). */
static size_t model_upper_bound(const struct model *m, const struct item *it)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dls_time_before(it->key, m->v[mid]->key))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void model_insert(struct model *m, struct item *it)
{
	size_t pos = model_upper_bound(m, it);

	memmove(&m->v[pos + 1], &m->v[pos], (m->n - pos) * sizeof(m->v[0]));
	m->v[pos] = it;
	m->n++;
}

static void model_erase_at(struct model *m, size_t pos)
{
	memmove(&m->v[pos], &m->v[pos + 1], (m->n - pos - 1) * sizeof(m->v[0]));
	m->n--;
}

/* Tree and model agree node for node, and the validator is happy. */
static bool tree_matches(const struct dls_rb_root_cached *root,
			 const struct model *m)
{
	const struct dls_rb_node *n = dls_rb_first(&root->rb_root);

	if (dls_rb_check_cached(root, item_less))
		return false;
	for (size_t i = 0; i < m->n; i++, n = dls_rb_next(n))
		if (n != &m->v[i]->node)
			return false;
	return n == NULL &&
	       root->leftmost == (m->n ? &m->v[0]->node : NULL);
}

static void random_run(uint64_t seed, uint64_t ops, size_t cap,
		       uint64_t key_range)
{
	struct item *pool = calloc(cap * 2, sizeof(*pool));
	struct item **free_items = calloc(cap * 2, sizeof(*free_items));
	struct model m = { calloc(cap, sizeof(struct item *)), 0 };
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	struct dls_test_rng rng;
	size_t nfree = 0;
	uint64_t stamp = 0, base = UINT64_MAX - key_range / 2;
	uint64_t counts[5] = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(pool);
	CU_ASSERT_PTR_NOT_NULL_FATAL(free_items);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m.v);
	dls_test_rng_seed(&rng, seed);
	for (size_t i = 0; i < cap * 2; i++) {
		dls_rb_node_init(&pool[i].node);
		free_items[nfree++] = &pool[i];
	}

	for (uint64_t op = 0; op < ops; op++) {
		uint64_t r = dls_test_rng_below(&rng, 100);
		/* Insert more often when small, erase more when large. */
		uint64_t p_insert = 100 - (uint64_t)(m.n * 90 / cap);
		int kind;

		if (m.n == 0 || (r < p_insert && m.n < cap))
			kind = 0;
		else
			kind = 1 + (int)dls_test_rng_below(&rng, 3);
		counts[kind]++;

		switch (kind) {
		case 0: { /* insert (inline or out of line) */
			struct item *it = free_items[--nfree];
			bool lm, want;
			size_t pos;

			it->key = base + dls_test_rng_below(&rng, key_range);
			it->seq = ++stamp;
			pos = model_upper_bound(&m, it);
			want = pos == 0;
			if (dls_test_rng_next(&rng) & 1)
				lm = dls_rb_add_cached(&it->node, &root,
						       item_less);
			else
				lm = dls_rb_insert_cached(&it->node, &root,
							  item_less);
			CU_ASSERT_EQUAL_FATAL(lm, want);
			model_insert(&m, it);
			break;
		}
		case 1: { /* erase a random node */
			size_t pos = dls_test_rng_below(&rng, m.n);
			struct item *it = m.v[pos];
			struct dls_rb_node *lm;

			lm = dls_rb_erase_cached(&it->node, &root);
			model_erase_at(&m, pos);
			CU_ASSERT_PTR_EQUAL_FATAL(lm,
						  m.n ? &m.v[0]->node : NULL);
			CU_ASSERT_FALSE_FATAL(dls_rb_node_on_tree(&it->node));
			free_items[nfree++] = it;
			break;
		}
		case 2: { /* pop the leftmost, EDF-style */
			struct item *it = item_of(dls_rb_first_cached(&root));
			struct dls_rb_node *lm;

			CU_ASSERT_PTR_EQUAL_FATAL(it, m.v[0]);
			lm = dls_rb_erase_cached(&it->node, &root);
			model_erase_at(&m, 0);
			CU_ASSERT_PTR_EQUAL_FATAL(lm,
						  m.n ? &m.v[0]->node : NULL);
			free_items[nfree++] = it;
			break;
		}
		case 3: { /* replace a random node by a twin */
			size_t pos = dls_test_rng_below(&rng, m.n);
			struct item *old = m.v[pos], *nw = free_items[--nfree];

			nw->key = old->key;
			nw->seq = old->seq;
			dls_rb_replace_cached(&old->node, &nw->node, &root);
			m.v[pos] = nw;
			CU_ASSERT_FALSE_FATAL(dls_rb_node_on_tree(&old->node));
			free_items[nfree++] = old;
			break;
		}
		}
		if (!tree_matches(&root, &m)) {
			fprintf(stderr, "op %llu (kind %d): tree and model "
					"differ: %s\n",
				(unsigned long long)op, kind,
				dls_rb_check_cached(&root, item_less)
					? dls_rb_check_cached(&root, item_less)
					: "node sequence");
			CU_FAIL_FATAL("tree does not match the model");
		}
	}
	printf("\n  %llu ops (%llu insert, %llu erase, %llu pop, %llu "
	       "replace), cap %zu\n",
	       (unsigned long long)ops, (unsigned long long)counts[0],
	       (unsigned long long)counts[1], (unsigned long long)counts[2],
	       (unsigned long long)counts[3], cap);
	free(pool);
	free(free_items);
	free(m.v);
}

static void test_random_small(void)
{
	/* 10^6 operations at scale 100, on trees of up to 128 nodes. */
	uint64_t ops = dls_test_scaled(1000000);

	random_run(dls_test_seed("rbtree random small", 0x5eed0003), ops, 128,
		   256);
}

static void test_random_tiny_keys(void)
{
	/* Mostly equal keys: stresses the insert-after-equals rule. */
	random_run(dls_test_seed("rbtree random ties", 0x5eed0004),
		   dls_test_scaled(200000), 48, 4);
}

/* ------------------------------------------------------------------------ */
/* The two-ended tree against the cached one and the model, in lockstep.     */

/* Same shape: the same pool slots in the same places, the same colours. */
static bool same_shape(const struct dls_rb_node *a, const struct item *pa,
		       const struct dls_rb_node *b, const struct item *pb)
{
	if (!a || !b)
		return a == b;
	if (item_of(a) - pa != item_of(b) - pb ||
	    node_is_black(a) != node_is_black(b))
		return false;
	return same_shape(a->left, pa, b->left, pb) &&
	       same_shape(a->right, pa, b->right, pb);
}

/*
 * Keys drift upwards by @p drift per insert plus a uniform draw below
 * @p key_range: with a drift most inserts sort after every node (the EDF
 * case the rightmost cache is for), with none they rarely do. Keys start
 * just below the u64 wrap and cross it. After every operation the
 * two-ended tree passes its validator, its ends are the model's, and it
 * has the shape of a plain cached tree fed the same operations.
 */
static void ends_run(uint64_t seed, uint64_t ops, size_t cap,
		     uint64_t key_range, uint64_t drift)
{
	struct item *pa = calloc(cap, sizeof(*pa));
	struct item *pb = calloc(cap, sizeof(*pb));
	struct model m = { calloc(cap, sizeof(struct item *)), 0 };
	struct dls_rb_root_cached plain = DLS_RB_ROOT_CACHED_INIT;
	struct dls_rb_root_ends ends = DLS_RB_ROOT_ENDS_INIT;
	struct dls_test_rng rng;
	uint64_t stamp = 0, now = UINT64_MAX - key_range - cap * drift;
	uint64_t at_end = 0, inserts = 0, end_erases = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pa);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pb);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m.v);
	dls_test_rng_seed(&rng, seed);
	for (size_t i = 0; i < cap; i++) {
		dls_rb_node_init(&pa[i].node);
		dls_rb_node_init(&pb[i].node);
	}
	for (uint64_t op = 0; op < ops; op++) {
		size_t i = dls_test_rng_below(&rng, cap);
		struct dls_rb_node *la, *lb;
		uint64_t kind = dls_test_rng_below(&rng, 8);

		if (kind == 0 && m.n) {
			/* pop the leftmost */
			i = (size_t)(m.v[0] - pb);
			la = dls_rb_erase_cached(&pa[i].node, &plain);
			lb = dls_rb_erase_ends(&pb[i].node, &ends);
			model_erase_at(&m, 0);
			pa[i].on = pb[i].on = false;
		} else if (kind == 1 && m.n) {
			/* replace the largest by a twin in a free slot */
			size_t j = (size_t)(m.v[m.n - 1] - pb), k;

			for (k = 0; k < cap && pb[k].on; k++)
				;
			if (k == cap)
				continue;
			pa[k].key = pb[k].key = pb[j].key;
			pa[k].seq = pb[k].seq = pb[j].seq;
			dls_rb_replace_cached(&pa[j].node, &pa[k].node, &plain);
			dls_rb_replace_ends(&pb[j].node, &pb[k].node, &ends);
			m.v[m.n - 1] = &pb[k];
			pa[j].on = pb[j].on = false;
			pa[k].on = pb[k].on = true;
			la = dls_rb_first_cached(&plain);
			lb = dls_rb_first_cached(&ends.cached);
		} else if (pb[i].on) {
			size_t pos = 0;

			while (m.v[pos] != &pb[i])
				pos++;
			end_erases += pos == m.n - 1;
			la = dls_rb_erase_cached(&pa[i].node, &plain);
			lb = dls_rb_erase_ends(&pb[i].node, &ends);
			model_erase_at(&m, pos);
			pa[i].on = pb[i].on = false;
		} else {
			bool first_a, first_b;
			size_t pos;

			now += drift;
			pa[i].key = pb[i].key = now + dls_test_rng_below(&rng,
								      key_range);
			pa[i].seq = pb[i].seq = ++stamp;
			pos = model_upper_bound(&m, &pb[i]);
			at_end += m.n && pos == m.n;
			inserts++;
			first_a = dls_rb_add_cached(&pa[i].node, &plain,
						    item_less);
			first_b = dls_rb_add_ends(&pb[i].node, &ends, item_less);
			CU_ASSERT_EQUAL_FATAL(first_b, pos == 0);
			CU_ASSERT_EQUAL_FATAL(first_a, first_b);
			model_insert(&m, &pb[i]);
			pa[i].on = pb[i].on = true;
			la = dls_rb_first_cached(&plain);
			lb = dls_rb_first_cached(&ends.cached);
		}
		DLS_ASSERT_VALID(dls_rb_check_ends(&ends, item_less));
		CU_ASSERT_PTR_EQUAL_FATAL(lb, m.n ? &m.v[0]->node : NULL);
		CU_ASSERT_PTR_EQUAL_FATAL(ends.rightmost,
					  m.n ? &m.v[m.n - 1]->node : NULL);
		CU_ASSERT_EQUAL_FATAL(la ? item_of(la) - pa : -1,
				      lb ? item_of(lb) - pb : -1);
		CU_ASSERT_TRUE_FATAL(same_shape(plain.rb_root.node, pa,
						ends.cached.rb_root.node, pb));
	}
	/* The cases the cache is for came up, and the others too. */
	CU_ASSERT_TRUE(at_end > 0 && at_end < inserts);
	CU_ASSERT_TRUE(end_erases > 0);
	printf("\n  %llu ops, %llu inserts (%llu after every node), %llu "
	       "erases of the largest, cap %zu, drift %llu\n",
	       (unsigned long long)ops, (unsigned long long)inserts,
	       (unsigned long long)at_end, (unsigned long long)end_erases, cap,
	       (unsigned long long)drift);
	free(pa);
	free(pb);
	free(m.v);
}

static void test_ends_random(void)
{
	uint64_t ops = dls_test_scaled(300000);
	uint64_t seed = dls_test_seed("rbtree ends", 0x5eed0006);

	ends_run(seed, ops, 96, 1u << 16, 1u << 14); /* mostly at the end */
	ends_run(seed + 1, ops, 96, 1u << 20, 0);    /* random keys */
	ends_run(seed + 2, ops / 2, 24, 3, 1);       /* ties at the end */
	ends_run(seed + 3, ops / 4, 4, 2, 0);        /* tiny trees, ties */
}

/*
 * A bigger tree, validated every few thousand operations against a
 * membership reference (which items are on the tree); the order is the
 * validator's part.
 */
static void test_random_big(void)
{
	enum { CAP = 40000 };
	struct item *pool = calloc(CAP, sizeof(*pool));
	struct dls_rb_root_cached root = DLS_RB_ROOT_CACHED_INIT;
	struct dls_test_rng rng;
	uint64_t ops = dls_test_scaled(400000), count = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pool);
	dls_test_rng_seed(&rng, dls_test_seed("rbtree random big", 0x5eed0005));
	for (size_t i = 0; i < CAP; i++)
		dls_rb_node_init(&pool[i].node);

	for (uint64_t op = 0; op < ops; op++) {
		struct item *it = &pool[dls_test_rng_below(&rng, CAP)];

		if (dls_test_rng_below(&rng, 8) == 0 && count) {
			/* Pop the leftmost; it must not sort after any. */
			struct dls_rb_node *lm = dls_rb_first_cached(&root);
			struct dls_rb_node *next = dls_rb_next(lm);

			CU_ASSERT_PTR_EQUAL_FATAL(
				dls_rb_erase_cached(lm, &root), next);
			item_of(lm)->on = false;
			count--;
		} else if (it->on) {
			dls_rb_erase_cached(&it->node, &root);
			it->on = false;
			count--;
		} else {
			it->key = dls_test_rng_next(&rng) >> 2;
			dls_rb_add_cached(&it->node, &root, item_less);
			it->on = true;
			count++;
		}
		if (op % 4096 == 0 || op == ops - 1) {
			uint64_t seen = 0;

			DLS_ASSERT_VALID(dls_rb_check_cached(&root, item_less));
			for (struct dls_rb_node *n = dls_rb_first_cached(&root);
			     n; n = dls_rb_next(n)) {
				CU_ASSERT_TRUE_FATAL(item_of(n)->on);
				seen++;
			}
			DLS_ASSERT_EQ_U64(seen, count);
		}
	}
	printf("\n  %llu ops, final size %llu\n", (unsigned long long)ops,
	       (unsigned long long)count);
	free(pool);
}

/* ------------------------------------------------------------------------ */
/* Misuse is caught by assertions in checked builds (fork + waitpid).        */

#ifdef HAVE_DEATH_TESTS
enum misuse {
	DOUBLE_ERASE,
	DOUBLE_ERASE_CACHED,
	INSERT_ON_TREE,
	ADD_ON_TREE_INLINE,
	ADD_UNINITIALISED,
	ERASE_NEVER_INSERTED,
	ERASE_FROM_OTHER_TREE,
};

static void do_misuse(enum misuse what)
{
	struct item a = { .key = 1 }, b = { .key = 2 };
	struct dls_rb_root root = DLS_RB_ROOT_INIT, other = DLS_RB_ROOT_INIT;
	struct dls_rb_root_cached croot = DLS_RB_ROOT_CACHED_INIT;

	dls_rb_node_init(&a.node);
	dls_rb_node_init(&b.node);
	switch (what) {
	case DOUBLE_ERASE:
		dls_rb_add(&a.node, &root, item_less);
		dls_rb_add(&b.node, &root, item_less);
		dls_rb_erase(&a.node, &root);
		dls_rb_erase(&a.node, &root);
		break;
	case DOUBLE_ERASE_CACHED:
		dls_rb_add_cached(&a.node, &croot, item_less);
		dls_rb_erase_cached(&a.node, &croot);
		dls_rb_erase_cached(&a.node, &croot);
		break;
	case INSERT_ON_TREE:
		dls_rb_insert(&a.node, &root, item_less);
		dls_rb_insert(&a.node, &root, item_less);
		break;
	case ADD_ON_TREE_INLINE:
		dls_rb_add_cached(&a.node, &croot, item_less);
		dls_rb_add_cached(&a.node, &croot, item_less);
		break;
	case ADD_UNINITIALISED:
		memset(&b.node, 0, sizeof(b.node));
		dls_rb_add(&b.node, &root, item_less);
		break;
	case ERASE_NEVER_INSERTED:
		dls_rb_add(&a.node, &root, item_less);
		dls_rb_erase(&b.node, &root);
		break;
	case ERASE_FROM_OTHER_TREE:
		dls_rb_add(&a.node, &root, item_less);
		dls_rb_add(&b.node, &other, item_less);
		dls_rb_erase(&b.node, &root);
		break;
	}
}

static void misuse_child(void *arg)
{
	do_misuse(*(const enum misuse *)arg);
}

/* Returns false when forked children cannot run here (the caller skips). */
static bool expect_abort(enum misuse what)
{
	enum dls_test_child e = dls_test_run_child(misuse_child, &what, 5000);

	if (e == DLS_CHILD_HUNG) {
		printf("[skip] forked children do not run here\n");
		return false;
	}
	if (e != DLS_CHILD_ABORTED)
		fprintf(stderr, "misuse %d: child ended %d, want SIGABRT\n",
			(int)what, (int)e);
	CU_ASSERT_EQUAL(e, DLS_CHILD_ABORTED);
	return true;
}

static void test_misuse_asserts(void)
{
	static const enum misuse cases[] = {
		DOUBLE_ERASE,	      DOUBLE_ERASE_CACHED,  INSERT_ON_TREE,
		ADD_ON_TREE_INLINE,   ADD_UNINITIALISED,    ERASE_NEVER_INSERTED,
		ERASE_FROM_OTHER_TREE,
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!expect_abort(cases[i]))
			return;
}
#endif

static const struct dls_test_case rbtree_cases[] = {
	{ "golden shapes", test_golden_shapes },
	{ "empty and single", test_empty_tree },
	{ "equal keys keep insertion order", test_equal_keys_fifo },
	{ "first/last/next/prev", test_first_last_next_prev },
	{ "replace", test_replace },
	{ "post-order walk", test_postorder },
	{ "validator names the broken property", test_validator_negative },
	{ "random vs sorted array (small trees)", test_random_small },
	{ "random vs sorted array (many ties)", test_random_tiny_keys },
	{ "random, big tree", test_random_big },
	{ "two-ended tree vs cached tree and model", test_ends_random },
#ifdef HAVE_DEATH_TESTS
	{ "misuse asserts", test_misuse_asserts },
#endif
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "rbtree", rbtree_cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
