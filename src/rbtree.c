/*
 * Intrusive red-black tree.
 *
 * A red-black tree is a binary search tree whose nodes carry one colour bit,
 * kept balanced by five properties:
 *
 *  1) every node is either red or black;
 *  2) the root is black;
 *  3) every leaf (the NULL links) is black;
 *  4) both children of a red node are black (no red node has a red parent);
 *  5) every path from a node down to a leaf below it holds the same number of
 *     black nodes (its "black height").
 *
 * 4) and 5) together bound the height by 2 * log2(n + 1): the shortest root
 * to leaf path is all black, the longest alternates red and black.
 *
 * Layout: the colour lives in bit 0 of parent_color (red = 0, black = 1), so
 * a node is three words and a freshly linked node, whose parent word is the
 * bare parent pointer, is red. A node on no tree has its parent word pointing
 * at itself.
 *
 * Notation in the drawings below: upper case is black, lower case is red,
 * (x) is a node of either colour. N is the node being fixed, P its parent,
 * G its grandparent, S its sibling, U its uncle; Sl / Sr are S's children.
 * Each drawing shows the left-hand case; the mirror case swaps left and
 * right.
 */
#include "rbtree_impl.h"

/* dls_rb__slot() relies on this layout. */
_Static_assert(offsetof(struct dls_rb_node, left) ==
		       offsetof(struct dls_rb_node, right) +
			       sizeof(struct dls_rb_node *),
	       "struct dls_rb_node: left must directly follow right");

/* The parent of a node known to be red: its parent word is the bare pointer. */
RB_ALWAYS_INLINE struct dls_rb_node *rb_red_parent(const struct dls_rb_node *n)
{
	return (struct dls_rb_node *)n->parent_color;
}

RB_ALWAYS_INLINE void rb_set_black(struct dls_rb_node *n)
{
	n->parent_color |= RB_BLACK;
}

RB_ALWAYS_INLINE void rb_set_parent(struct dls_rb_node *n,
				    struct dls_rb_node *p)
{
	n->parent_color = (n->parent_color & RB_BLACK) | (uintptr_t)p;
}

RB_ALWAYS_INLINE void rb_set_parent_color(struct dls_rb_node *n,
					  struct dls_rb_node *p,
					  uintptr_t color)
{
	n->parent_color = (uintptr_t)p | color;
}

RB_ALWAYS_INLINE void rb_change_child(struct dls_rb_node *old,
				      struct dls_rb_node *new_node,
				      struct dls_rb_node *parent,
				      struct dls_rb_root *root)
{
	if (parent) {
		if (parent->left == old)
			parent->left = new_node;
		else
			parent->right = new_node;
	} else {
		root->node = new_node;
	}
}

/*
 * The tail of a rotation: @p new_node takes @p old's place under old's
 * parent (and old's colour); @p old hangs below @p new_node with @p color.
 * The caller has already moved the inner subtree across.
 */
RB_ALWAYS_INLINE void rb_rotate_set_parents(struct dls_rb_node *old,
					    struct dls_rb_node *new_node,
					    struct dls_rb_root *root,
					    uintptr_t color)
{
	struct dls_rb_node *parent = rb_parent(old);

	new_node->parent_color = old->parent_color;
	rb_set_parent_color(old, new_node, color);
	rb_change_child(old, new_node, parent, root);
}

/*
 * Rebalance after linking a red leaf @p node. The only property that can be
 * broken is 4) (N and P both red), or 2) when N is the root.
 *
 * Loop invariant: N is red, and 4) holds everywhere except possibly between
 * N and P.
 */
RB_ALWAYS_INLINE void rb_insert_fixup(struct dls_rb_node *node,
				      struct dls_rb_root *root)
{
	struct dls_rb_node *parent = rb_red_parent(node), *gparent, *uncle, *tmp;

	for (;;) {
		if (DLS_UNLIKELY(!parent)) {
			/* N is the root: paint it black (property 2). */
			rb_set_parent_color(node, NULL, RB_BLACK);
			return;
		}
		if (rb_is_black(parent))
			return;

		/* P is red, so it is not the root and G exists (and is black). */
		gparent = rb_red_parent(parent);
		/* G's other child, whichever side P is on, without a branch. */
		uncle = (struct dls_rb_node *)((uintptr_t)gparent->left ^
					       (uintptr_t)gparent->right ^
					       (uintptr_t)parent);
		if (uncle && rb_is_red(uncle)) {
			/*
			 * Case 1: U is red. Flip colours; G may now violate
			 * 4) with its parent, so go up. The same on either
			 * side.
			 *
			 *       G            g
			 *      / \          / \
			 *     p   u  -->   P   U
			 *    /            /
			 *   n            n
			 */
			rb_set_parent_color(uncle, gparent, RB_BLACK);
			rb_set_parent_color(parent, gparent, RB_BLACK);
			node = gparent;
			parent = rb_parent(node);
			rb_set_parent_color(node, parent, RB_RED);
			continue;
		}

		if (parent == gparent->left) {
			tmp = parent->right;
			if (node == tmp) {
				/*
				 * Case 2: U is black and N is P's right
				 * child. Rotate left at P to reach case 3.
				 *
				 *      G             G
				 *     / \           / \
				 *    p   U  -->    n   U
				 *     \           /
				 *      n         p
				 */
				tmp = node->left;
				parent->right = tmp;
				node->left = parent;
				if (tmp)
					rb_set_parent_color(tmp, parent,
							    RB_BLACK);
				rb_set_parent_color(parent, node, RB_RED);
				parent = node;
				tmp = node->right;
			}

			/*
			 * Case 3: U is black and N is P's left child. Rotate
			 * right at G; P takes G's place and colour.
			 *
			 *        G           P
			 *       / \         / \
			 *      p   U  -->  n   g
			 *     /                 \
			 *    n                   U
			 */
			gparent->left = tmp; /* P's old right child */
			parent->right = gparent;
			if (tmp)
				rb_set_parent_color(tmp, gparent, RB_BLACK);
			rb_rotate_set_parents(gparent, parent, root, RB_RED);
		} else { /* P is G's right child: the mirror image */
			tmp = parent->left;
			if (node == tmp) {
				/* Case 2, mirrored: rotate right at P. */
				tmp = node->right;
				parent->left = tmp;
				node->right = parent;
				if (tmp)
					rb_set_parent_color(tmp, parent,
							    RB_BLACK);
				rb_set_parent_color(parent, node, RB_RED);
				parent = node;
				tmp = node->left;
			}

			/* Case 3, mirrored: rotate left at G. */
			gparent->right = tmp;
			parent->left = gparent;
			if (tmp)
				rb_set_parent_color(tmp, gparent, RB_BLACK);
			rb_rotate_set_parents(gparent, parent, root, RB_RED);
		}
		return;
	}
}

/*
 * Unlink @p node. Returns the parent under which one black node is now
 * missing on one side (property 5 broken), or NULL when the tree is already
 * valid.
 */
RB_ALWAYS_INLINE struct dls_rb_node *rb_erase_unlink(struct dls_rb_node *node,
						     struct dls_rb_root *root)
{
	struct dls_rb_node *child = node->right, *left = node->left, *tmp;
	struct dls_rb_node *parent, *rebalance;
	uintptr_t pc = node->parent_color;

	if (!left) {
		/*
		 * Case 1: no left child. If N has a right child, 5) makes it
		 * a red leaf and N black: the child takes N's place and
		 * colour. A childless N goes away; if it was black, its
		 * parent's side lost a black node.
		 *
		 *    (p)          (p)          (p)        (p)
		 *    /            /            /
		 *   N     -->    C            n    -->   nil
		 *    \
		 *     c
		 */
		parent = rb_pc_parent(pc);
		rb_change_child(node, child, parent, root);
		if (child) {
			child->parent_color = pc;
			rebalance = NULL;
		} else {
			rebalance = (pc & RB_BLACK) ? parent : NULL;
		}
	} else if (!child) {
		/* Still case 1: only a left child, a red leaf. */
		left->parent_color = pc;
		parent = rb_pc_parent(pc);
		rb_change_child(node, left, parent, root);
		rebalance = NULL;
	} else {
		struct dls_rb_node *successor = child, *child2;

		tmp = child->left;
		if (!tmp) {
			/*
			 * Case 2: N's successor S is its right child.
			 * S takes N's place and colour; what S lost is on
			 * its right side.
			 *
			 *    (n)          (s)
			 *    / \          / \
			 *  (x) (s)  --> (x) (c)
			 *        \
			 *        (c)
			 */
			parent = successor;
			child2 = successor->right;
		} else {
			/*
			 * Case 3: N's successor S is the leftmost node of
			 * N's right subtree. S's right child moves up into
			 * S's place, then S takes N's place and colour.
			 *
			 *    (n)          (s)
			 *    / \          / \
			 *  (x) (y)  --> (x) (y)
			 *      /            /
			 *    (p)          (p)
			 *    /            /
			 *  (s)          (c)
			 *    \
			 *    (c)
			 */
			do {
				parent = successor;
				successor = tmp;
				tmp = tmp->left;
			} while (tmp);
			child2 = successor->right;
			parent->left = child2;
			successor->right = child;
			rb_set_parent(child, successor);
		}

		successor->left = left;
		rb_set_parent(left, successor);

		rb_change_child(node, successor, rb_pc_parent(pc), root);

		if (child2) {
			/* S was black with a red child: paint it black. */
			rb_set_parent_color(child2, parent, RB_BLACK);
			rebalance = NULL;
		} else {
			rebalance = rb_is_black(successor) ? parent : NULL;
		}
		successor->parent_color = pc;
	}
	return rebalance;
}

/*
 * Restore property 5 after an erase: the paths through @p parent's child N
 * (possibly NULL) hold one black node fewer than the paths through S.
 *
 * Loop invariants:
 *  - N is black (or NULL, on the first iteration);
 *  - N is not the root (P is not NULL);
 *  - every path through P and N has a black count one below the others.
 */
RB_ALWAYS_INLINE void rb_erase_fixup(struct dls_rb_node *parent,
				     struct dls_rb_root *root)
{
	struct dls_rb_node *node = NULL, *sibling, *tmp1, *tmp2;

	for (;;) {
		sibling = parent->right;
		if (node != sibling) { /* N is P's left child */
			if (rb_is_red(sibling)) {
				/*
				 * Case 1: S is red. Rotate left at P so N's
				 * new sibling (old Sl) is black.
				 *
				 *     P               S
				 *    / \             / \
				 *   N   s    -->    p   Sr
				 *      / \         / \
				 *     Sl  Sr      N   Sl
				 */
				tmp1 = sibling->left;
				parent->right = tmp1;
				sibling->left = parent;
				rb_set_parent_color(tmp1, parent, RB_BLACK);
				rb_rotate_set_parents(parent, sibling, root,
						      RB_RED);
				sibling = tmp1;
			}
			tmp1 = sibling->right;
			if (!tmp1 || rb_is_black(tmp1)) {
				tmp2 = sibling->left;
				if (!tmp2 || rb_is_black(tmp2)) {
					/*
					 * Case 2: S and its children are
					 * black. Paint S red; then either a
					 * red P turns black and we are done,
					 * or P's whole subtree is one short
					 * and we go up.
					 *
					 *    (p)           (p)
					 *    / \           / \
					 *   N   S    -->  N   s
					 *      / \           / \
					 *     Sl  Sr        Sl  Sr
					 */
					rb_set_parent_color(sibling, parent,
							    RB_RED);
					if (rb_is_red(parent)) {
						rb_set_black(parent);
					} else {
						node = parent;
						parent = rb_parent(node);
						if (parent)
							continue;
					}
					return;
				}
				/*
				 * Case 3: S black, Sl red, Sr black. Rotate
				 * right at S to reach case 4.
				 *
				 *   (p)           (p)
				 *   / \           / \
				 *  N   S    -->  N   sl
				 *     / \             \
				 *    sl  Sr            S
				 *                       \
				 *                        Sr
				 */
				tmp1 = tmp2->right;
				sibling->left = tmp1;
				tmp2->right = sibling;
				parent->right = tmp2;
				if (tmp1)
					rb_set_parent_color(tmp1, sibling,
							    RB_BLACK);
				tmp1 = sibling;
				sibling = tmp2;
			}
			/*
			 * Case 4: S black, Sr red. Rotate left at P; S takes
			 * P's colour, P and Sr turn black: N's side gains the
			 * missing black node.
			 *
			 *      (p)             (s)
			 *      / \             / \
			 *     N   S     -->   P   Sr
			 *        / \         / \
			 *      (sl) sr      N  (sl)
			 */
			tmp2 = sibling->left;
			parent->right = tmp2;
			sibling->left = parent;
			rb_set_parent_color(tmp1, sibling, RB_BLACK);
			if (tmp2)
				rb_set_parent(tmp2, parent);
			rb_rotate_set_parents(parent, sibling, root, RB_BLACK);
			return;
		} else { /* N is P's right child: the mirror image */
			sibling = parent->left;
			if (rb_is_red(sibling)) {
				/* Case 1, mirrored: rotate right at P. */
				tmp1 = sibling->right;
				parent->left = tmp1;
				sibling->right = parent;
				rb_set_parent_color(tmp1, parent, RB_BLACK);
				rb_rotate_set_parents(parent, sibling, root,
						      RB_RED);
				sibling = tmp1;
			}
			tmp1 = sibling->left;
			if (!tmp1 || rb_is_black(tmp1)) {
				tmp2 = sibling->right;
				if (!tmp2 || rb_is_black(tmp2)) {
					/* Case 2, mirrored. */
					rb_set_parent_color(sibling, parent,
							    RB_RED);
					if (rb_is_red(parent)) {
						rb_set_black(parent);
					} else {
						node = parent;
						parent = rb_parent(node);
						if (parent)
							continue;
					}
					return;
				}
				/* Case 3, mirrored: rotate left at S. */
				tmp1 = tmp2->left;
				sibling->right = tmp1;
				tmp2->left = sibling;
				parent->left = tmp2;
				if (tmp1)
					rb_set_parent_color(tmp1, sibling,
							    RB_BLACK);
				tmp1 = sibling;
				sibling = tmp2;
			}
			/* Case 4, mirrored: rotate right at P. */
			tmp2 = sibling->right;
			parent->left = tmp2;
			sibling->right = parent;
			rb_set_parent_color(tmp1, sibling, RB_BLACK);
			if (tmp2)
				rb_set_parent(tmp2, parent);
			rb_rotate_set_parents(parent, sibling, root, RB_BLACK);
			return;
		}
	}
}

#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
/* Whether @p node hangs below @p root's root node (checked builds only). */
static bool rb_belongs_to(const struct dls_rb_node *node,
			  const struct dls_rb_root *root)
{
	const struct dls_rb_node *p;

	while ((p = rb_parent(node)) != NULL)
		node = p;
	return node == root->node;
}
#endif

RB_ALWAYS_INLINE void rb_erase(struct dls_rb_node *node,
			       struct dls_rb_root *root)
{
	struct dls_rb_node *rebalance;

	DLS_ASSERT(root != NULL && node != NULL);
	DLS_ASSERT(dls_rb_node_on_tree(node));
	DLS_ASSERT(rb_belongs_to(node, root));

	rebalance = rb_erase_unlink(node, root);
	if (rebalance)
		rb_erase_fixup(rebalance, root);
	node->parent_color = (uintptr_t)node; /* off-tree */
}

void dls_rb_insert_color(struct dls_rb_node *node, struct dls_rb_root *root)
{
	DLS_ASSERT(root != NULL && node != NULL);
	rb_insert_fixup(node, root);
}

void dls_rb_insert_color_cached(struct dls_rb_node *node,
				struct dls_rb_root_cached *root, bool leftmost)
{
	DLS_ASSERT(root != NULL && node != NULL);
	if (leftmost)
		root->leftmost = node;
	rb_insert_fixup(node, &root->rb_root);
}

void dls_rb__assert_off_tree(const struct dls_rb_node *node)
{
	/*
	 * Called only from the inline inserts of a caller built with
	 * DLSCHED_ENABLE_ASSERT, so it checks whatever this library's own
	 * build mode.
	 */
	if (node == NULL || dls_rb_node_on_tree(node))
		dls__assert_fail("node is off-tree (dls_rb_node_init() or "
				 "erased) before insert",
				 __FILE__, __LINE__, __func__);
}

void dls_rb_insert(struct dls_rb_node *node, struct dls_rb_root *root,
		   dls_rb_less_fn less)
{
	struct dls_rb_node **link, *parent = NULL;

	DLS_ASSERT(root != NULL && node != NULL && less != NULL);
	DLS_ASSERT(!dls_rb_node_on_tree(node));

	link = &root->node;
	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->left : &parent->right;
	}
	node->parent_color = (uintptr_t)parent;
	node->left = node->right = NULL;
	*link = node;
	rb_insert_fixup(node, root);
}

bool dls_rb_insert_cached(struct dls_rb_node *node,
			  struct dls_rb_root_cached *root, dls_rb_less_fn less)
{
	struct dls_rb_node **link, *parent = NULL;
	bool leftmost = true;

	DLS_ASSERT(root != NULL && node != NULL && less != NULL);
	DLS_ASSERT(!dls_rb_node_on_tree(node));

	/* A new smallest node goes under the old one (see dls_rb_add_cached). */
	parent = root->leftmost;
	if (parent && less(node, parent)) {
		link = &parent->left;
	} else {
		link = &root->rb_root.node;
		parent = NULL;
		leftmost = !*link;
	}
	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->left : &parent->right;
	}
	node->parent_color = (uintptr_t)parent;
	node->left = node->right = NULL;
	*link = node;
	if (leftmost)
		root->leftmost = node;
	rb_insert_fixup(node, &root->rb_root);
	return leftmost;
}

void dls_rb_erase(struct dls_rb_node *node, struct dls_rb_root *root)
{
	rb_erase(node, root);
}

/*
 * Erase the leftmost node of a cached tree: the EDF "pick and dequeue the
 * earliest" step. The leftmost node has no left child, and by property 5
 * its right child, if any, is a red leaf, which is then also its successor;
 * otherwise the successor is its parent. Either way the node is its
 * parent's left child, so no child slot needs comparing.
 */
RB_ALWAYS_INLINE struct dls_rb_node *
rb_erase_leftmost(struct dls_rb_node *node, struct dls_rb_root_cached *root)
{
	struct dls_rb_node *child = node->right, *next;
	uintptr_t pc = node->parent_color;
	struct dls_rb_node *parent = rb_pc_parent(pc);

	DLS_ASSERT(node->left == NULL);
	DLS_ASSERT(dls_rb_node_on_tree(node));
	if (child) {
		/* N black, child a red leaf: the child takes N's place. */
		DLS_ASSERT(child->left == NULL && rb_is_red(child));
		child->parent_color = pc;
		next = child;
		if (parent)
			parent->left = child;
		else
			root->rb_root.node = child;
	} else {
		next = parent;
		if (parent) {
			parent->left = NULL;
			if (pc & RB_BLACK)
				rb_erase_fixup(parent, &root->rb_root);
		} else {
			root->rb_root.node = NULL;
		}
	}
	node->parent_color = (uintptr_t)node; /* off-tree */
	root->leftmost = next;
	return next;
}

struct dls_rb_node *dls_rb_erase_cached(struct dls_rb_node *node,
					struct dls_rb_root_cached *root)
{
	DLS_ASSERT(root != NULL && node != NULL);
	if (node == root->leftmost)
		return rb_erase_leftmost(node, root);
	rb_erase(node, &root->rb_root);
	return root->leftmost;
}

/*
 * The largest node has no right child; by property 5 its left child, if
 * any, is a red leaf and its predecessor; otherwise the predecessor is its
 * parent (NULL for a lone root).
 */
struct dls_rb_node *dls_rb__erase_ends(struct dls_rb_node *node,
				       struct dls_rb_root_cached *root,
				       struct dls_rb_node **last)
{
	DLS_ASSERT(root != NULL && node != NULL && last != NULL);
	if (node == *last) {
		DLS_ASSERT(node->right == NULL);
		*last = node->left ? node->left : rb_parent(node);
	}
	if (node == root->leftmost)
		return rb_erase_leftmost(node, root);
	rb_erase(node, &root->rb_root);
	return root->leftmost;
}

void dls_rb_replace(struct dls_rb_node *victim, struct dls_rb_node *new_node,
		    struct dls_rb_root *root)
{
	struct dls_rb_node *parent;

	DLS_ASSERT(root != NULL && victim != NULL && new_node != NULL);
	DLS_ASSERT(dls_rb_node_on_tree(victim));
	DLS_ASSERT(!dls_rb_node_on_tree(new_node));

	parent = rb_parent(victim);
	*new_node = *victim;
	if (victim->left)
		rb_set_parent(victim->left, new_node);
	if (victim->right)
		rb_set_parent(victim->right, new_node);
	rb_change_child(victim, new_node, parent, root);
	victim->parent_color = (uintptr_t)victim; /* off-tree */
}

void dls_rb_replace_cached(struct dls_rb_node *victim,
			   struct dls_rb_node *new_node,
			   struct dls_rb_root_cached *root)
{
	DLS_ASSERT(root != NULL);
	if (root->leftmost == victim)
		root->leftmost = new_node;
	dls_rb_replace(victim, new_node, &root->rb_root);
}

void dls_rb_replace_ends(struct dls_rb_node *victim,
			 struct dls_rb_node *new_node,
			 struct dls_rb_root_ends *root)
{
	DLS_ASSERT(root != NULL);
	if (root->rightmost == victim)
		root->rightmost = new_node;
	dls_rb_replace_cached(victim, new_node, &root->cached);
}

struct dls_rb_node *dls_rb_first(const struct dls_rb_root *root)
{
	struct dls_rb_node *n;

	DLS_ASSERT(root != NULL);
	n = root->node;
	if (!n)
		return NULL;
	while (n->left)
		n = n->left;
	return n;
}

struct dls_rb_node *dls_rb_last(const struct dls_rb_root *root)
{
	struct dls_rb_node *n;

	DLS_ASSERT(root != NULL);
	n = root->node;
	if (!n)
		return NULL;
	while (n->right)
		n = n->right;
	return n;
}

struct dls_rb_node *dls_rb_next(const struct dls_rb_node *node)
{
	struct dls_rb_node *parent;

	if (!dls_rb_node_on_tree(node))
		return NULL;
	if (node->right) {
		/* Down once to the right, then all the way to the left. */
		node = node->right;
		while (node->left)
			node = node->left;
		return (struct dls_rb_node *)node;
	}
	/* Up until we arrive from a left child; that parent is next. */
	while ((parent = rb_parent(node)) != NULL && node == parent->right)
		node = parent;
	return parent;
}

struct dls_rb_node *dls_rb_prev(const struct dls_rb_node *node)
{
	struct dls_rb_node *parent;

	if (!dls_rb_node_on_tree(node))
		return NULL;
	if (node->left) {
		node = node->left;
		while (node->right)
			node = node->right;
		return (struct dls_rb_node *)node;
	}
	while ((parent = rb_parent(node)) != NULL && node == parent->left)
		node = parent;
	return parent;
}

/* The first node of a post-order walk of the subtree under @p node. */
static struct dls_rb_node *rb_left_deepest(const struct dls_rb_node *node)
{
	for (;;) {
		if (node->left)
			node = node->left;
		else if (node->right)
			node = node->right;
		else
			return (struct dls_rb_node *)node;
	}
}

struct dls_rb_node *dls_rb_first_postorder(const struct dls_rb_root *root)
{
	DLS_ASSERT(root != NULL);
	return root->node ? rb_left_deepest(root->node) : NULL;
}

struct dls_rb_node *dls_rb_next_postorder(const struct dls_rb_node *node)
{
	struct dls_rb_node *parent;

	if (!node)
		return NULL;
	/*
	 * Only @p node's parent word is read; the parent itself is visited
	 * after this node, so it is still intact.
	 */
	parent = rb_parent(node);
	if (parent && node == parent->left && parent->right)
		return rb_left_deepest(parent->right);
	return parent;
}
