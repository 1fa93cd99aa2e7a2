/**
 * @file rbtree.h
 * @brief Intrusive red-black tree with an optional cached leftmost node
 *        (and rightmost: struct dls_rb_root_ends).
 *
 * The caller embeds a struct dls_rb_node in its own object and gets back to
 * the object with dls_container_of(). The tree never allocates. Ordering is
 * given by a `less()` callback at insert time; equal keys keep insertion
 * order (a new node goes to the right of its equals).
 *
 * @code
 * struct job { uint64_t deadline; struct dls_rb_node node; };
 *
 * static bool job_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
 * {
 *     return dls_time_before(dls_container_of(a, struct job, node)->deadline,
 *                            dls_container_of(b, struct job, node)->deadline);
 * }
 *
 * struct dls_rb_root_cached q = DLS_RB_ROOT_CACHED_INIT;
 * dls_rb_node_init(&j->node);
 * dls_rb_add_cached(&j->node, &q, job_less);
 * struct job *earliest =
 *     dls_container_of(dls_rb_first_cached(&q), struct job, node);
 * @endcode
 *
 * Misuse: inserting a node that is already on a tree (or was never passed
 * to dls_rb_node_init()), erasing a node that is on no tree, and NULL
 * arguments are caught by assertions when the library is built with
 * DLSCHED_ENABLE_ASSERT; the inline inserts check too when the including
 * file defines DLSCHED_ENABLE_ASSERT to 1. Release builds do not check:
 * such a call corrupts the tree (lost nodes, cycles) and a later operation
 * may crash or loop. dls_rb_check() tells what broke.
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_RBTREE_H
#define DLSCHED_RBTREE_H

#include <dlsched/common.h>

/**
 * @defgroup rbtree Red-black tree
 * @brief Intrusive red-black tree; the EDF, pushable and PI trees sit on it.
 * @{
 */

/**
 * @brief A tree node, embedded in the caller's object.
 *
 * All fields are private. The colour lives in bit 0 of the parent word.
 * A node that is on no tree has its parent word pointing at itself (see
 * dls_rb_node_init()). `left` directly follows `right`: the inline insert
 * picks a child slot by address arithmetic instead of a branch.
 */
struct dls_rb_node {
	uintptr_t parent_color;     /**< private: parent pointer | colour bit */
	struct dls_rb_node *right;  /**< private: right child */
	struct dls_rb_node *left;   /**< private: left child */
};

/** @brief A tree root. */
struct dls_rb_root {
	struct dls_rb_node *node; /**< read-only: the root node, NULL if empty */
};

/** @brief A tree root that also caches its leftmost (smallest) node. */
struct dls_rb_root_cached {
	struct dls_rb_root rb_root;   /**< read-only: the plain tree */
	struct dls_rb_node *leftmost; /**< read-only: smallest node or NULL */
};

/** @brief Static initializer for an empty struct dls_rb_root. */
#define DLS_RB_ROOT_INIT { NULL }
/** @brief Static initializer for an empty struct dls_rb_root_cached. */
#define DLS_RB_ROOT_CACHED_INIT { { NULL }, NULL }

/**
 * @brief Strict-weak-order callback: true when @p a sorts before @p b.
 * @param[in] a a node.
 * @param[in] b another node.
 * @return true when @p a's key is less than @p b's.
 */
typedef bool (*dls_rb_less_fn)(const struct dls_rb_node *a,
			       const struct dls_rb_node *b);

/**
 * @brief Mark a node as being on no tree. Call before the first insert.
 * @param[out] node the node.
 */
DLS_INLINE void dls_rb_node_init(struct dls_rb_node *node)
{
	node->parent_color = (uintptr_t)node;
	node->left = node->right = NULL;
}

/**
 * @brief Whether a node is currently on a tree.
 * @param[in] node a node that was passed to dls_rb_node_init() once.
 * @return false for a node marked off-tree.
 */
DLS_INLINE bool dls_rb_node_on_tree(const struct dls_rb_node *node)
{
	return node->parent_color != (uintptr_t)node;
}

/**
 * @brief Initialise an empty tree.
 * @param[out] root the tree.
 */
DLS_INLINE void dls_rb_root_init(struct dls_rb_root *root)
{
	root->node = NULL;
}

/**
 * @brief Initialise an empty cached tree.
 * @param[out] root the tree.
 */
DLS_INLINE void dls_rb_root_cached_init(struct dls_rb_root_cached *root)
{
	root->rb_root.node = NULL;
	root->leftmost = NULL;
}

/**
 * @brief Whether a tree is empty.
 * @param[in] root the tree.
 * @return true when no node is on it.
 */
DLS_INLINE bool dls_rb_empty(const struct dls_rb_root *root)
{
	return root->node == NULL;
}

/**
 * @brief The leftmost (smallest) node of a cached tree, in O(1).
 * @param[in] root the tree.
 * @return the node, or NULL when the tree is empty.
 */
DLS_INLINE struct dls_rb_node *
dls_rb_first_cached(const struct dls_rb_root_cached *root)
{
	return root->leftmost;
}

/** @cond INTERNAL */
/* Internal: the left (@p left true) or right child slot of @p parent. */
DLS_INLINE struct dls_rb_node **dls_rb__slot(struct dls_rb_node *parent,
					     bool left)
{
	return (struct dls_rb_node **)(void *)((char *)parent +
		offsetof(struct dls_rb_node, right) +
		(size_t)left * sizeof(struct dls_rb_node *));
}

/*
 * Internal: @p parent's left child when @p left, else its right child.
 * The descent's comparisons are coin flips, so this must not be a branch:
 * on x86-64 both children are loaded while the comparison is pending and a
 * cmov picks one (compilers turn a plain ?: back into a jump here); other
 * targets, and includers that define DLSCHED_RB_NO_ASM, index the slot by
 * address.
 */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(DLSCHED_RB_NO_ASM)
DLS_INLINE struct dls_rb_node *dls_rb__pick(bool left,
					    const struct dls_rb_node *parent)
{
	struct dls_rb_node *child;

	__asm__("mov %2, %0\n\t"
		"testb %b1, %b1\n\t"
		"cmovne %3, %0"
		: "=&r"(child)
		: "q"(left), "m"(parent->right), "m"(parent->left)
		: "cc");
	return child;
}
#else
DLS_INLINE struct dls_rb_node *dls_rb__pick(bool left,
					    const struct dls_rb_node *parent)
{
	return *dls_rb__slot((struct dls_rb_node *)parent, left);
}
#endif

/*
 * Internal: descend from @p parent (not NULL) to the empty slot where
 * @p node belongs, after its equals. Both children are loaded before the
 * comparison resolves and one is picked without a branch, so a level costs
 * one dependent load and no mispredicted jump. Returns the slot's parent;
 * *ltp is the last comparison (true when the slot is a left one).
 */
DLS_INLINE struct dls_rb_node *dls_rb__descend(const struct dls_rb_node *node,
					       struct dls_rb_node *parent,
					       dls_rb_less_fn less, bool *ltp)
{
	bool lt;

	for (;;) {
		struct dls_rb_node *next;

		lt = less(node, parent);
		next = dls_rb__pick(lt, parent);
		if (!next)
			break;
		parent = next;
	}
	*ltp = lt;
	return parent;
}

/*
 * Internal: the empty slot where @p node belongs in @p root, after its
 * equals. Sets *parentp (NULL for an empty tree) and *ltp (true when the
 * slot is a left one).
 */
DLS_INLINE struct dls_rb_node **
dls_rb__find_slot(const struct dls_rb_node *node, struct dls_rb_root *root,
		  dls_rb_less_fn less, struct dls_rb_node **parentp, bool *ltp)
{
	struct dls_rb_node *parent = root->node;

	if (!parent) {
		*parentp = NULL;
		*ltp = true;
		return &root->node;
	}
	parent = dls_rb__descend(node, parent, less, ltp);
	*parentp = parent;
	return dls_rb__slot(parent, *ltp);
}
/** @endcond */

/** @cond INTERNAL */
/*
 * Internal: aborts unless @p node is marked off-tree. Used by the inline
 * inserts when the including file defines DLSCHED_ENABLE_ASSERT; always
 * checks, whatever the library's own build mode. Not part of the API.
 */
DLS_API void dls_rb__assert_off_tree(const struct dls_rb_node *node);
/** @endcond */

/**
 * @brief Link a new node under @p parent at @p link (low-level insert, step 1).
 *
 * For callers that write their own descent; follow with dls_rb_insert_color()
 * or dls_rb_insert_color_cached().
 * @param[out] node the new node, off any tree (asserted in checked builds).
 * @param[in] parent its parent, or NULL for the root.
 * @param[out] link the parent's child slot (or the root slot) to fill.
 */
DLS_INLINE void dls_rb_link_node(struct dls_rb_node *node,
				 struct dls_rb_node *parent,
				 struct dls_rb_node **link)
{
#if defined(DLSCHED_ENABLE_ASSERT) && DLSCHED_ENABLE_ASSERT
	dls_rb__assert_off_tree(node);
#endif
	node->parent_color = (uintptr_t)parent; /* red */
	node->left = node->right = NULL;
	*link = node;
}

/**
 * @brief Rebalance after dls_rb_link_node() (low-level insert, step 2).
 * @param[in,out] node the node just linked.
 * @param[in,out] root its tree.
 */
DLS_API void dls_rb_insert_color(struct dls_rb_node *node,
				 struct dls_rb_root *root);

/**
 * @brief Rebalance after dls_rb_link_node() on a cached tree.
 * @param[in,out] node the node just linked.
 * @param[in,out] root its tree.
 * @param[in] leftmost true when @p node was linked as the new leftmost.
 */
DLS_API void dls_rb_insert_color_cached(struct dls_rb_node *node,
					struct dls_rb_root_cached *root,
					bool leftmost);

/**
 * @brief Insert a node, ordered by @p less, after its equals.
 *
 * Inline so that a constant @p less is inlined into the descent.
 * @param[in,out] node the node, off any tree (checked when the includer
 *                defines DLSCHED_ENABLE_ASSERT).
 * @param[in,out] root the tree.
 * @param[in] less the order.
 */
DLS_INLINE void dls_rb_add(struct dls_rb_node *node, struct dls_rb_root *root,
			   dls_rb_less_fn less)
{
	struct dls_rb_node *parent, **link;
	bool lt;

	link = dls_rb__find_slot(node, root, less, &parent, &lt);
	dls_rb_link_node(node, parent, link);
	/* Under a black parent the new red leaf breaks no rule. */
	if (!parent || !(parent->parent_color & 1))
		dls_rb_insert_color(node, root);
}

/**
 * @brief Insert a node into a cached tree, ordered by @p less, after equals.
 *
 * A node that sorts before the leftmost one is linked under it at once
 * (one comparison); any other descends from the root without branching on
 * the comparisons. Inline so that a constant @p less is inlined.
 * @param[in,out] node the node, off any tree (checked when the includer
 *                defines DLSCHED_ENABLE_ASSERT).
 * @param[in,out] root the tree.
 * @param[in] less the order.
 * @return true when @p node became the leftmost node.
 */
DLS_INLINE bool dls_rb_add_cached(struct dls_rb_node *node,
				  struct dls_rb_root_cached *root,
				  dls_rb_less_fn less)
{
	struct dls_rb_node *first = root->leftmost, *parent;
	bool lt;

	if (!first) {
		/* The empty tree: the node becomes the black root. */
		dls_rb_link_node(node, NULL, &root->rb_root.node);
		node->parent_color = 1;
		root->leftmost = node;
		return true;
	}
	if (less(node, first)) {
		/*
		 * A new smallest node: the descent would take the all-left
		 * path to the old leftmost node's free left slot, so go
		 * there at once.
		 */
		dls_rb_link_node(node, first, &first->left);
		root->leftmost = node;
		if (!(first->parent_color & 1))
			dls_rb_insert_color(node, &root->rb_root);
		return true;
	}
	/* Not below the leftmost node, so the slot is not the leftmost. */
	parent = dls_rb__descend(node, root->rb_root.node, less, &lt);
	dls_rb_link_node(node, parent, dls_rb__slot(parent, lt));
	/* Under a black parent the new red leaf breaks no rule. */
	if (!(parent->parent_color & 1))
		dls_rb_insert_color(node, &root->rb_root);
	return false;
}

/**
 * @brief A cached tree that caches its largest node too.
 *
 * Where most inserts sort at or after every node (EDF: a new deadline is
 * mostly the latest), such an insert is linked under the largest node at
 * once, one comparison, as one before the smallest is. The tree takes the
 * shape a plain cached tree fed the same operations takes. Change it only
 * through the *_ends calls; read it as a struct dls_rb_root_cached.
 */
struct dls_rb_root_ends {
	struct dls_rb_root_cached cached; /**< read-only: tree and leftmost */
	struct dls_rb_node *rightmost;    /**< read-only: largest node or NULL */
};

/** Static initialiser for an empty struct dls_rb_root_ends. */
#define DLS_RB_ROOT_ENDS_INIT { DLS_RB_ROOT_CACHED_INIT, NULL }

/**
 * @brief Make @p root an empty two-ended tree.
 * @param[out] root the tree.
 */
DLS_INLINE void dls_rb_root_ends_init(struct dls_rb_root_ends *root)
{
	dls_rb_root_cached_init(&root->cached);
	root->rightmost = NULL;
}

/** @cond INTERNAL */
/*
 * Internal: dls_rb_add_ends() on a cached tree whose largest node is kept
 * in *@p last (the runqueue keeps it in a word of its own).
 */
DLS_INLINE bool dls_rb__add_ends(struct dls_rb_node *node,
				 struct dls_rb_root_cached *root,
				 struct dls_rb_node **last, dls_rb_less_fn less)
{
	struct dls_rb_node *max = *last;

	if (max && !less(node, max)) {
		/*
		 * At or after the largest node: every comparison of the
		 * descent says "not less", so it would take the all-right
		 * path to that node's free right slot. Go there at once.
		 */
		dls_rb_link_node(node, max, &max->right);
		*last = node;
		if (!(max->parent_color & 1))
			dls_rb_insert_color(node, &root->rb_root);
		return false;
	}
	if (!dls_rb_add_cached(node, root, less))
		return false;
	if (!max)
		*last = node; /* the tree was empty */
	return true;
}
/** @endcond */

/**
 * @brief Insert into a two-ended tree, ordered by @p less, after equals.
 *
 * An insert at or after the largest node costs one comparison and no
 * descent; otherwise as dls_rb_add_cached() plus that one comparison.
 * @param[in,out] node the node, off any tree (checked when the includer
 *                defines DLSCHED_ENABLE_ASSERT).
 * @param[in,out] root the tree.
 * @param[in] less the order.
 * @return true when @p node became the leftmost node.
 */
DLS_INLINE bool dls_rb_add_ends(struct dls_rb_node *node,
				struct dls_rb_root_ends *root,
				dls_rb_less_fn less)
{
	return dls_rb__add_ends(node, &root->cached, &root->rightmost, less);
}

/** @cond INTERNAL */
/* Internal: dls_rb_erase_ends() on a cached tree and its *@p last. */
DLS_API struct dls_rb_node *dls_rb__erase_ends(struct dls_rb_node *node,
					       struct dls_rb_root_cached *root,
					       struct dls_rb_node **last);
/** @endcond */

/**
 * @brief Remove a node from a two-ended tree, keeping both ends exact.
 * @param[in,out] node a node on @p root (asserted in checked builds).
 * @param[in,out] root the tree.
 * @return the new leftmost node (NULL if the tree became empty).
 * @note As dls_rb_erase(); neither end costs a walk.
 */
DLS_INLINE struct dls_rb_node *dls_rb_erase_ends(struct dls_rb_node *node,
						 struct dls_rb_root_ends *root)
{
	return dls_rb__erase_ends(node, &root->cached, &root->rightmost);
}

/**
 * @brief Out-of-line insert, for callers that hold @p less as a pointer.
 * @param[in,out] node the node, off any tree (asserted in checked builds).
 * @param[in,out] root the tree.
 * @param[in] less the order.
 */
DLS_API void dls_rb_insert(struct dls_rb_node *node, struct dls_rb_root *root,
			   dls_rb_less_fn less);

/**
 * @brief Out-of-line cached insert.
 * @param[in,out] node the node, off any tree (asserted in checked builds).
 * @param[in,out] root the tree.
 * @param[in] less the order.
 * @return true when @p node became the leftmost node.
 */
DLS_API bool dls_rb_insert_cached(struct dls_rb_node *node,
				  struct dls_rb_root_cached *root,
				  dls_rb_less_fn less);

/**
 * @brief Remove a node from a tree and mark it off-tree.
 * @param[in,out] node a node on @p root (asserted in checked builds).
 * @param[in,out] root the tree.
 * @note Release builds do not check that @p node is on @p root; erasing a
 * node that is not corrupts the tree.
 */
DLS_API void dls_rb_erase(struct dls_rb_node *node, struct dls_rb_root *root);

/**
 * @brief Remove a node from a cached tree, keeping leftmost exact.
 * @param[in,out] node a node on @p root (asserted in checked builds).
 * @param[in,out] root the tree.
 * @return the new leftmost node (NULL if the tree became empty).
 * @note As dls_rb_erase(); erasing the leftmost node costs no extra walk.
 */
DLS_API struct dls_rb_node *dls_rb_erase_cached(struct dls_rb_node *node,
						struct dls_rb_root_cached *root);

/**
 * @brief Put @p new_node in @p victim's place, without rebalancing.
 *
 * The caller guarantees @p new_node has the same key position. @p victim is
 * marked off-tree.
 * @param[in,out] victim a node on @p root.
 * @param[in,out] new_node a node off any tree.
 * @param[in,out] root the tree.
 */
DLS_API void dls_rb_replace(struct dls_rb_node *victim,
			    struct dls_rb_node *new_node,
			    struct dls_rb_root *root);

/**
 * @brief dls_rb_replace() for a cached tree (updates leftmost if needed).
 * @param[in,out] victim a node on @p root.
 * @param[in,out] new_node a node off any tree.
 * @param[in,out] root the tree.
 */
DLS_API void dls_rb_replace_cached(struct dls_rb_node *victim,
				   struct dls_rb_node *new_node,
				   struct dls_rb_root_cached *root);

/**
 * @brief dls_rb_replace() for a two-ended tree (updates both ends).
 * @param[in,out] victim a node on @p root.
 * @param[in,out] new_node a node off any tree.
 * @param[in,out] root the tree.
 */
DLS_API void dls_rb_replace_ends(struct dls_rb_node *victim,
				 struct dls_rb_node *new_node,
				 struct dls_rb_root_ends *root);

/**
 * @brief Smallest node, by walking left (O(log n)).
 * @param[in] root the tree.
 * @return the node, or NULL when the tree is empty.
 */
DLS_API struct dls_rb_node *dls_rb_first(const struct dls_rb_root *root);

/**
 * @brief Largest node.
 * @param[in] root the tree.
 * @return the node, or NULL when the tree is empty.
 */
DLS_API struct dls_rb_node *dls_rb_last(const struct dls_rb_root *root);

/**
 * @brief In-order successor.
 * @param[in] node a node on a tree.
 * @return the next node, or NULL after the last.
 */
DLS_API struct dls_rb_node *dls_rb_next(const struct dls_rb_node *node);

/**
 * @brief In-order predecessor.
 * @param[in] node a node on a tree.
 * @return the previous node, or NULL before the first.
 */
DLS_API struct dls_rb_node *dls_rb_prev(const struct dls_rb_node *node);

/**
 * @brief First node of a post-order walk (children before parents).
 *
 * A post-order walk visits a node after both its subtrees, so the visitor
 * may free each node as it goes; the tree is unusable afterwards.
 * @param[in] root the tree.
 * @return the first node, or NULL when the tree is empty.
 */
DLS_API struct dls_rb_node *dls_rb_first_postorder(const struct dls_rb_root *root);

/**
 * @brief Next node of a post-order walk.
 * @param[in] node the current node (it may be freed after this call).
 * @return the next node, or NULL at the end.
 */
DLS_API struct dls_rb_node *dls_rb_next_postorder(const struct dls_rb_node *node);

/**
 * @brief Validate a tree: red-black rules, parent links, key order.
 * @param[in] root the tree.
 * @param[in] less the order the tree was built with, or NULL to skip the
 *            order check.
 * @return NULL when valid, else a static string naming the first violated
 *         property: "root is red", "red node has a red child", "black height
 *         differs between paths", "parent link inconsistent (...)", "keys
 *         out of order" or "root pointer is NULL".
 * @note Walks the whole tree iteratively in O(n) without recursion; a
 *       corrupted tree (cycles, a node linked twice) is reported, not
 *       followed forever.
 */
DLS_API const char *dls_rb_check(const struct dls_rb_root *root,
				 dls_rb_less_fn less);

/**
 * @brief dls_rb_check() plus the cached leftmost pointer.
 * @param[in] root the tree.
 * @param[in] less the order, or NULL to skip the order check.
 * @return NULL when valid, else the first violated property; after the
 *         tree's own checks, "cached leftmost is not the first node".
 */
DLS_API const char *dls_rb_check_cached(const struct dls_rb_root_cached *root,
					dls_rb_less_fn less);

/** @cond INTERNAL */
/* Internal: dls_rb_check_ends() on a cached tree and its largest node. */
DLS_API const char *dls_rb__check_ends(const struct dls_rb_root_cached *root,
				       const struct dls_rb_node *last,
				       dls_rb_less_fn less);
/** @endcond */

/**
 * @brief dls_rb_check_cached() plus the cached rightmost pointer.
 * @param[in] root the tree.
 * @param[in] less the order, or NULL to skip the order check.
 * @return NULL when valid, else the first violated property; after the
 *         cached tree's checks, "cached rightmost is not the last node".
 */
DLS_INLINE const char *dls_rb_check_ends(const struct dls_rb_root_ends *root,
					 dls_rb_less_fn less)
{
	if (!root)
		return "root pointer is NULL";
	return dls_rb__check_ends(&root->cached, root->rightmost, less);
}

/** @} */

#endif /* DLSCHED_RBTREE_H */
