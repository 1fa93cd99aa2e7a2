/*
 * The red-black tree validator: every property the tree operations
 * (rbtree.c) keep, checked from the definition, for the tests to call
 * after every operation.
 */
#include "rbtree_impl.h"

/*
 * The validator walks the tree in order, iteratively, using the parent
 * links. It checks a node's child links before descending, so even a
 * corrupted tree (cycles, a node linked twice) is walked in finite time:
 * every node is entered only through a child slot of the node its parent
 * word names, and no node fills both slots.
 */
enum rb_walk { RB_WALK_DOWN, RB_WALK_LEFT_DONE, RB_WALK_RIGHT_DONE };

const char *dls_rb_check(const struct dls_rb_root *root, dls_rb_less_fn less)
{
	const struct dls_rb_node *cur, *parent, *last = NULL;
	enum rb_walk state = RB_WALK_DOWN;
	long black_depth = 0, black_height = -1;

	if (!root)
		return "root pointer is NULL";
	cur = root->node;
	if (!cur)
		return NULL;
	if (rb_parent(cur) != NULL)
		return "parent link inconsistent (root has a parent)";
	if (rb_is_red(cur))
		return "root is red";

	while (cur) {
		const struct dls_rb_node *l = cur->left, *r = cur->right;

		if (state == RB_WALK_DOWN) {
			parent = rb_parent(cur);
			if (rb_is_red(cur) && parent && rb_is_red(parent))
				return "red node has a red child";
			if (l && l == r)
				return "parent link inconsistent (node "
				       "linked as both children)";
			if ((l && rb_parent(l) != cur) ||
			    (r && rb_parent(r) != cur))
				return "parent link inconsistent (child's "
				       "parent word names another node)";
			black_depth += rb_is_black(cur);
			if (!l || !r) {
				/* A NULL leaf below: compare black heights. */
				if (black_height < 0)
					black_height = black_depth;
				else if (black_height != black_depth)
					return "black height differs between "
					       "paths";
			}
			if (l) {
				cur = l;
				continue;
			}
			state = RB_WALK_LEFT_DONE;
		}
		if (state == RB_WALK_LEFT_DONE) {
			/* In-order visit: no node may sort before the last. */
			if (less && last && less(cur, last))
				return "keys out of order";
			last = cur;
			if (r) {
				cur = r;
				state = RB_WALK_DOWN;
				continue;
			}
		}
		/* Both subtrees done: go up. */
		black_depth -= rb_is_black(cur);
		parent = rb_parent(cur);
		state = parent && parent->left == cur ? RB_WALK_LEFT_DONE
						      : RB_WALK_RIGHT_DONE;
		cur = parent;
	}
	return NULL;
}

const char *dls_rb_check_cached(const struct dls_rb_root_cached *root,
				dls_rb_less_fn less)
{
	const char *msg;

	if (!root)
		return "root pointer is NULL";
	msg = dls_rb_check(&root->rb_root, less);
	if (msg)
		return msg;
	if (root->leftmost != dls_rb_first(&root->rb_root))
		return "cached leftmost is not the first node";
	return NULL;
}

const char *dls_rb__check_ends(const struct dls_rb_root_cached *root,
			       const struct dls_rb_node *last,
			       dls_rb_less_fn less)
{
	const char *msg = dls_rb_check_cached(root, less);

	if (msg)
		return msg;
	if (last != dls_rb_last(&root->rb_root))
		return "cached rightmost is not the last node";
	return NULL;
}
