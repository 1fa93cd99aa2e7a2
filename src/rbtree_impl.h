/*
 * Red-black tree internals shared by the tree operations (rbtree.c) and
 * the validator (rbtree_check.c): the parent word packs the parent pointer
 * and the colour in its low bit. Never installed.
 */
#ifndef DLSCHED_RBTREE_IMPL_H
#define DLSCHED_RBTREE_IMPL_H

#include <dlsched/rbtree.h>

#include "internal.h"

#if defined(__GNUC__)
#  define RB_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#  define RB_ALWAYS_INLINE static inline
#endif

#define RB_RED ((uintptr_t)0)
#define RB_BLACK ((uintptr_t)1)

RB_ALWAYS_INLINE struct dls_rb_node *rb_pc_parent(uintptr_t pc)
{
	return (struct dls_rb_node *)(pc & ~RB_BLACK);
}

RB_ALWAYS_INLINE struct dls_rb_node *rb_parent(const struct dls_rb_node *n)
{
	return rb_pc_parent(n->parent_color);
}

RB_ALWAYS_INLINE bool rb_is_black(const struct dls_rb_node *n)
{
	return n->parent_color & RB_BLACK;
}

RB_ALWAYS_INLINE bool rb_is_red(const struct dls_rb_node *n)
{
	return !(n->parent_color & RB_BLACK);
}

#endif /* DLSCHED_RBTREE_IMPL_H */
