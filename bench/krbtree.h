/*
 * A kernel-style red-black tree, the benchmark's reference peer.
 *
 * Written for bench_rbtree from the algorithm of Linux's lib/rbtree.c and
 * include/linux/rbtree.h (not a copy of that code): the parent pointer and
 * the colour share one word (bit 0, black = 1), a node is three words
 * (parent word, right, left), the insert rebalance is __rb_insert's loop
 * (red uncle: recolour and go up; black uncle: one or two rotations), the
 * erase is __rb_erase_augmented's unlink followed by ____rb_erase_color's
 * sibling cases, and a cached tree keeps its leftmost node the kernel's
 * way: rb_add_cached() tracks "still leftmost" along the descent, and
 * rb_erase_cached() walks to rb_next() when the leftmost node goes.
 *
 * Placement follows the kernel too: the descent (rb_add_cached) is inline
 * in the caller, so the comparison is inlined; rb_insert_color, rb_erase
 * and rb_next are out-of-line functions (here noinline), as they are
 * exported functions of lib/rbtree.c.
 *
 * Benchmark code only: no checks, no validator; bench_rbtree checks every
 * run against the library's tree.
 */
#ifndef BENCH_KRBTREE_H
#define BENCH_KRBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#  define KRB_INLINE static inline __attribute__((always_inline, unused))
#  define KRB_OUTLINE static __attribute__((noinline, unused))
#else
#  define KRB_INLINE static inline
#  define KRB_OUTLINE static
#endif

#define KRB_RED ((uintptr_t)0)
#define KRB_BLACK ((uintptr_t)1)

struct krb_node {
	uintptr_t pc; /* parent pointer | colour */
	struct krb_node *right;
	struct krb_node *left;
};

struct krb_root {
	struct krb_node *node;
};

struct krb_root_cached {
	struct krb_root root;
	struct krb_node *leftmost;
};

KRB_INLINE struct krb_node *krb_parent(const struct krb_node *n)
{
	return (struct krb_node *)(n->pc & ~KRB_BLACK);
}

KRB_INLINE bool krb_is_black(const struct krb_node *n)
{
	return n->pc & KRB_BLACK;
}

KRB_INLINE void krb_set_pc(struct krb_node *n, struct krb_node *p,
			   uintptr_t colour)
{
	n->pc = (uintptr_t)p | colour;
}

KRB_INLINE void krb_set_parent(struct krb_node *n, struct krb_node *p)
{
	n->pc = (n->pc & KRB_BLACK) | (uintptr_t)p;
}

/* Point @p parent's link that held @p old (or the root) at @p repl. */
KRB_INLINE void krb_replace_child(struct krb_node *old, struct krb_node *repl,
				  struct krb_node *parent,
				  struct krb_root *root)
{
	if (!parent)
		root->node = repl;
	else if (parent->left == old)
		parent->left = repl;
	else
		parent->right = repl;
}

/*
 * End of a rotation: @p top moves into @p old's place (taking its parent
 * word, hence its colour), @p old goes below @p top painted @p colour.
 */
KRB_INLINE void krb_rotate_tail(struct krb_node *old, struct krb_node *top,
				struct krb_root *root, uintptr_t colour)
{
	struct krb_node *up = krb_parent(old);

	top->pc = old->pc;
	krb_set_pc(old, top, colour);
	krb_replace_child(old, top, up, root);
}

/* __rb_insert: @p n is a red leaf just linked. */
KRB_OUTLINE void krb_insert_color(struct krb_node *n, struct krb_root *root)
{
	struct krb_node *p = (struct krb_node *)n->pc; /* red: bare pointer */

	for (;;) {
		struct krb_node *g, *u, *t;

		if (!p) {
			krb_set_pc(n, NULL, KRB_BLACK);
			return;
		}
		if (krb_is_black(p))
			return;
		g = (struct krb_node *)p->pc; /* p red: bare pointer */
		u = g->right;
		if (p != u) { /* p is g's left child */
			if (u && !krb_is_black(u)) {
				/* red uncle: recolour, continue at g */
				krb_set_pc(u, g, KRB_BLACK);
				krb_set_pc(p, g, KRB_BLACK);
				n = g;
				p = krb_parent(n);
				krb_set_pc(n, p, KRB_RED);
				continue;
			}
			t = p->right;
			if (n == t) { /* inner grandchild: rotate left at p */
				t = n->left;
				p->right = t;
				n->left = p;
				if (t)
					krb_set_pc(t, p, KRB_BLACK);
				krb_set_pc(p, n, KRB_RED);
				p = n;
				t = n->right;
			}
			/* outer grandchild: rotate right at g */
			g->left = t;
			p->right = g;
			if (t)
				krb_set_pc(t, g, KRB_BLACK);
			krb_rotate_tail(g, p, root, KRB_RED);
			return;
		}
		u = g->left; /* p is g's right child */
		if (u && !krb_is_black(u)) {
			krb_set_pc(u, g, KRB_BLACK);
			krb_set_pc(p, g, KRB_BLACK);
			n = g;
			p = krb_parent(n);
			krb_set_pc(n, p, KRB_RED);
			continue;
		}
		t = p->left;
		if (n == t) {
			t = n->right;
			p->left = t;
			n->right = p;
			if (t)
				krb_set_pc(t, p, KRB_BLACK);
			krb_set_pc(p, n, KRB_RED);
			p = n;
			t = n->left;
		}
		g->right = t;
		p->left = g;
		if (t)
			krb_set_pc(t, g, KRB_BLACK);
		krb_rotate_tail(g, p, root, KRB_RED);
		return;
	}
}

/* ____rb_erase_color: paths through @p p's child @p n lack one black. */
KRB_INLINE void krb_erase_color(struct krb_node *p, struct krb_root *root)
{
	struct krb_node *n = NULL, *s, *a, *b;

	for (;;) {
		s = p->right;
		if (n != s) { /* n is p's left child */
			if (!krb_is_black(s)) {
				/* red sibling: rotate left at p */
				a = s->left;
				p->right = a;
				s->left = p;
				krb_set_pc(a, p, KRB_BLACK);
				krb_rotate_tail(p, s, root, KRB_RED);
				s = a;
			}
			a = s->right;
			if (!a || krb_is_black(a)) {
				b = s->left;
				if (!b || krb_is_black(b)) {
					/* black nephews: paint s red */
					krb_set_pc(s, p, KRB_RED);
					if (!krb_is_black(p)) {
						p->pc |= KRB_BLACK;
					} else {
						n = p;
						p = krb_parent(n);
						if (p)
							continue;
					}
					return;
				}
				/* red near nephew: rotate right at s */
				a = b->right;
				s->left = a;
				b->right = s;
				p->right = b;
				if (a)
					krb_set_pc(a, s, KRB_BLACK);
				a = s;
				s = b;
			}
			/* red far nephew: rotate left at p */
			b = s->left;
			p->right = b;
			s->left = p;
			krb_set_pc(a, s, KRB_BLACK);
			if (b)
				krb_set_parent(b, p);
			krb_rotate_tail(p, s, root, KRB_BLACK);
			return;
		}
		s = p->left; /* n is p's right child */
		if (!krb_is_black(s)) {
			a = s->right;
			p->left = a;
			s->right = p;
			krb_set_pc(a, p, KRB_BLACK);
			krb_rotate_tail(p, s, root, KRB_RED);
			s = a;
		}
		a = s->left;
		if (!a || krb_is_black(a)) {
			b = s->right;
			if (!b || krb_is_black(b)) {
				krb_set_pc(s, p, KRB_RED);
				if (!krb_is_black(p)) {
					p->pc |= KRB_BLACK;
				} else {
					n = p;
					p = krb_parent(n);
					if (p)
						continue;
				}
				return;
			}
			a = b->left;
			s->right = a;
			b->left = s;
			p->left = b;
			if (a)
				krb_set_pc(a, s, KRB_BLACK);
			a = s;
			s = b;
		}
		b = s->right;
		p->left = b;
		s->right = p;
		krb_set_pc(a, s, KRB_BLACK);
		if (b)
			krb_set_parent(b, p);
		krb_rotate_tail(p, s, root, KRB_BLACK);
		return;
	}
}

/* rb_erase: __rb_erase_augmented's unlink, then the colour repair. */
KRB_OUTLINE void krb_erase(struct krb_node *n, struct krb_root *root)
{
	struct krb_node *r = n->right, *l = n->left, *p, *fix;
	uintptr_t pc = n->pc;

	if (!l) {
		/* at most a right child, which is then a red leaf */
		p = (struct krb_node *)(pc & ~KRB_BLACK);
		krb_replace_child(n, r, p, root);
		if (r) {
			r->pc = pc;
			fix = NULL;
		} else {
			fix = (pc & KRB_BLACK) ? p : NULL;
		}
	} else if (!r) {
		/* only a left child, a red leaf */
		l->pc = pc;
		krb_replace_child(n, l, (struct krb_node *)(pc & ~KRB_BLACK),
				  root);
		fix = NULL;
	} else {
		/* two children: the successor s takes n's place */
		struct krb_node *s = r, *c;

		if (!r->left) {
			p = s;
			c = s->right;
		} else {
			do {
				p = s;
				s = s->left;
			} while (s->left);
			c = s->right;
			p->left = c;
			s->right = r;
			krb_set_parent(r, s);
		}
		s->left = l;
		krb_set_parent(l, s);
		krb_replace_child(n, s, (struct krb_node *)(pc & ~KRB_BLACK),
				  root);
		if (c) {
			krb_set_pc(c, p, KRB_BLACK);
			fix = NULL;
		} else {
			fix = krb_is_black(s) ? p : NULL;
		}
		s->pc = pc;
	}
	if (fix)
		krb_erase_color(fix, root);
}

/* rb_next. */
KRB_OUTLINE struct krb_node *krb_next(const struct krb_node *n)
{
	struct krb_node *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct krb_node *)n;
	}
	while ((p = krb_parent(n)) && n == p->right)
		n = p;
	return p;
}

/* rb_link_node. */
KRB_INLINE void krb_link(struct krb_node *n, struct krb_node *p,
			 struct krb_node **link)
{
	n->pc = (uintptr_t)p;
	n->left = n->right = NULL;
	*link = n;
}

/*
 * rb_add_cached: descend with @p less, remember whether every step went
 * left, link, rebalance. Always inline, so a constant @p less is inlined.
 * Returns true when @p n became the leftmost node.
 */
KRB_INLINE bool krb_add_cached(struct krb_node *n, struct krb_root_cached *t,
			       bool (*less)(const struct krb_node *,
					    const struct krb_node *))
{
	struct krb_node **link = &t->root.node, *p = NULL;
	bool leftmost = true;

	while (*link) {
		p = *link;
		if (less(n, p)) {
			link = &p->left;
		} else {
			link = &p->right;
			leftmost = false;
		}
	}
	krb_link(n, p, link);
	if (leftmost)
		t->leftmost = n;
	krb_insert_color(n, &t->root);
	return leftmost;
}

/* rb_erase_cached. */
KRB_INLINE void krb_erase_cached(struct krb_node *n, struct krb_root_cached *t)
{
	if (t->leftmost == n)
		t->leftmost = krb_next(n);
	krb_erase(n, &t->root);
}

#endif /* BENCH_KRBTREE_H */
