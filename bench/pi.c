/*
 * PI waiter queue: one block + one unlock (hand-over) with 1, 16 and 256
 * other waiters already queued, against a sorted doubly-linked list of
 * waiters (the priority list the rb-tree replaced), in the same run.
 * Three columns: the whole PI mutex path, the bare rb-tree waiter queue
 * doing exactly the list's work, and the list.
 * Deadlines advance with time (k * 4 us + up to 1 ms), as under EDF, so a
 * newcomer usually sorts behind most waiters. Median of 7 runs, ns per
 * block+unlock pair.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <dlsched/pi.h>

#include "bench_util.h"

#define MAXW 257

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ---- ours: the real PI mutex --------------------------------------- */

static double run_tree(int nw, int ops)
{
	static struct dls_pi_task t[MAXW + 1];
	static struct dls_pi_waiter w[MAXW + 1];
	struct dls_pi_ctx pi;
	struct dls_pi_mutex m;
	uint64_t s = 42;
	double t0;

	dls_pi_ctx_init(&pi, NULL, NULL);
	dls_pi_mutex_init(&m);
	for (int i = 0; i <= nw + 1; i++)
		dls_pi_task_init(&t[i], 50, true, rnd(&s) % 1000000);
	dls_pi_lock(&pi, &t[0], &m, NULL);
	for (int i = 1; i <= nw; i++)
		dls_pi_lock(&pi, &t[i], &m, &w[i]);
	t0 = now_ns();
	for (int k = 0; k < ops; k++) {
		/* The owner hands over to the top waiter, and takes its place
		 * at the back with a fresh deadline: the queue stays nw long. */
		struct dls_pi_task *owner = m.owner, *next;
		int idx = (int)(owner - t);

		/* Deadlines advance with time, as they do under EDF. */
		dls_pi_set_own(&pi, owner, 50, true, (uint64_t)k * 4000 + rnd(&s) % 1000000);
		next = dls_pi_unlock(&pi, owner, &m);
		if (!next)
			break;
		dls_pi_lock(&pi, owner, &m, &w[idx]);
	}
	return (now_ns() - t0) / ops;
}

/* ---- the bare waiter queue: the same work as the list peer ---------- */

struct rnode {
	struct dls_rb_node node;
	uint64_t dl;
};

static bool rnode_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_time_before(dls_container_of(a, struct rnode, node)->dl,
			       dls_container_of(b, struct rnode, node)->dl);
}

static double run_rbq(int nw, int ops)
{
	static struct rnode nodes[MAXW + 1];
	struct dls_rb_root_cached q = DLS_RB_ROOT_CACHED_INIT;
	struct rnode *owner = &nodes[0];
	uint64_t s = 42;
	double t0;

	for (int i = 0; i <= nw; i++) {
		nodes[i].dl = rnd(&s) % 1000000;
		dls_rb_node_init(&nodes[i].node);
	}
	for (int i = 1; i <= nw; i++)
		dls_rb_add_cached(&nodes[i].node, &q, rnode_less);
	t0 = now_ns();
	for (int k = 0; k < ops; k++) {
		struct dls_rb_node *top = dls_rb_first_cached(&q);

		owner->dl = (uint64_t)k * 4000 + rnd(&s) % 1000000;
		dls_rb_erase_cached(top, &q);
		dls_rb_add_cached(&owner->node, &q, rnode_less);
		owner = dls_container_of(top, struct rnode, node);
	}
	__asm__ volatile("" : : "r"(owner));
	return (now_ns() - t0) / ops;
}

/* ---- peer: sorted doubly-linked list ------------------------------- */

struct lnode {
	struct lnode *prev, *next;
	uint64_t dl;
};

static void list_insert(struct lnode *head, struct lnode *n)
{
	struct lnode *p = head->next;

	while (p != head && p->dl <= n->dl)
		p = p->next;
	n->next = p;
	n->prev = p->prev;
	p->prev->next = n;
	p->prev = n;
}

static struct lnode *list_pop(struct lnode *head)
{
	struct lnode *n = head->next;

	if (n == head)
		return NULL;
	head->next = n->next;
	n->next->prev = head;
	return n;
}

static double run_list(int nw, int ops)
{
	static struct lnode nodes[MAXW + 1];
	struct lnode head = { &head, &head, 0 };
	struct lnode *owner = &nodes[0];
	uint64_t s = 42;
	double t0;

	for (int i = 0; i <= nw; i++)
		nodes[i].dl = rnd(&s) % 1000000;
	for (int i = 1; i <= nw; i++)
		list_insert(&head, &nodes[i]);
	t0 = now_ns();
	for (int k = 0; k < ops; k++) {
		struct lnode *next;

		owner->dl = (uint64_t)k * 4000 + rnd(&s) % 1000000;
		next = list_pop(&head);
		list_insert(&head, owner);
		owner = next;
	}
	__asm__ volatile("" : : "r"(owner));
	return (now_ns() - t0) / ops;
}

int main(void)
{
	static const int sizes[] = { 1, 16, 256 };

	/* pi mutex: dls_pi_set_own + dls_pi_unlock + dls_pi_lock (both trees,
	 * owner recompute, chain check); rb queue and list: the waiter queue
	 * alone (pop the top, insert the old owner), the work the list did. */
	printf("%-8s %14s %12s %12s %10s %10s\n", "waiters", "pi mutex ns",
	       "rb queue ns", "list ns", "rbq/list", "pi/list");
	for (int k = 0; k < 3; k++) {
		double a[7], b[7], c[7];

		for (int r = 0; r < 7; r++) {
			a[r] = run_tree(sizes[k], 200000);
			c[r] = run_rbq(sizes[k], 200000);
			b[r] = run_list(sizes[k], 200000);
		}
		qsort(a, 7, sizeof(a[0]), cmp_double);
		qsort(b, 7, sizeof(b[0]), cmp_double);
		qsort(c, 7, sizeof(c[0]), cmp_double);
		printf("%-8d %14.1f %12.1f %12.1f %9.2fx %9.2fx\n", sizes[k], a[3], c[3],
		       b[3], c[3] / b[3], a[3] / b[3]);
	}
	return 0;
}
