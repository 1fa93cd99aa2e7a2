/*
 * cpudl: max-heap of CPUs by earliest deadline, plus the free-CPU mask
 * (the "push-heap" of the 2012 SCHED_DEADLINE patches; the shape of Linux's
 * kernel/sched/cpudeadline.c).
 *
 * Invariants (dls__cpudl_check):
 *  1) order: no item is above its parent, where x is above y when x's
 *     deadline is later (wrap-safe) or equal with a lower CPU id. So
 *     heap[0] is the CPU an earlier-deadline entity should preempt;
 *  2) links: pos[heap[i].cpu] == i for i < size, and every CPU with
 *     pos >= 0 is the one found there; exactly size CPUs have pos >= 0;
 *  3) a CPU on the heap is not free; nr_free counts the free mask (so a
 *     find on a fully busy system skips the mask scan).
 *
 * The total order on (deadline, CPU) makes heap[0] a function of the set of
 * (cpu, deadline) pairs alone, which is what lets the tests compare it
 * with the linear scan exactly. Deadlines of the CPUs on one heap are
 * assumed to lie within 2^63 ns of each other, as everywhere in the library.
 */
#include "edf/cpudl.h"

#include "cpudl_impl.h"
#include "internal.h"

/* Each part of the heap's storage (items, positions, free mask) starts
 * aligned for its u64 and word-sized fields. */
#define PART_ALIGN ((size_t)8)
#define ALIGN_PART(x) dls__align_up((x), PART_ALIGN)

static size_t heap_bytes(int nr)
{
	return (size_t)nr * sizeof(struct dls_cpudl_item);
}

static size_t pos_bytes(int nr)
{
	return ALIGN_PART((size_t)nr * sizeof(int32_t));
}

size_t dls__cpudl_size(int nr_cpus)
{
	size_t m = dls_cpumask_size(nr_cpus);

	if (m == 0)
		return 0;
	return heap_bytes(nr_cpus) + pos_bytes(nr_cpus) + ALIGN_PART(m);
}

static inline void cp_lock(struct dls_cpudl *cp)
{
	if (cp->lock_ops)
		cp->lock_ops->lock(cp->lock_ctx);
}

static inline void cp_unlock(struct dls_cpudl *cp)
{
	if (cp->lock_ops)
		cp->lock_ops->unlock(cp->lock_ctx);
}

int dls__cpudl_init(struct dls_cpudl *cp, void *storage, size_t size,
		    int nr_cpus, const struct dls_lock_ops *lock_ops,
		    void *lock_ctx)
{
	size_t need = dls__cpudl_size(nr_cpus);
	char *p = storage;
	int i;

	if (cp == NULL || storage == NULL || need == 0 || size < need ||
	    (uintptr_t)storage % 8u != 0)
		return DLS_EINVAL;
	if (lock_ops && (lock_ops->lock == NULL || lock_ops->unlock == NULL))
		return DLS_EINVAL;
	cp->heap = (struct dls_cpudl_item *)(void *)p;
	cp->pos = (int32_t *)(void *)(p + heap_bytes(nr_cpus));
	cp->free_cpus = (struct dls_cpumask *)(void *)(p + heap_bytes(nr_cpus) +
						       pos_bytes(nr_cpus));
	if (dls_cpumask_init(cp->free_cpus, ALIGN_PART(dls_cpumask_size(nr_cpus)),
			     nr_cpus) != 0)
		return DLS_EINVAL;
	dls_cpumask_fill(cp->free_cpus);
	for (i = 0; i < nr_cpus; i++)
		cp->pos[i] = -1;
	cp->size = 0;
	cp->nr_free = nr_cpus;
	cp->nr_cpus = nr_cpus;
	cp->lock_ops = lock_ops;
	cp->lock_ctx = lock_ctx;
	return 0;
}

/* x belongs above y: later deadline, or the same deadline and a lower id. */
static inline bool above(const struct dls_cpudl_item *x,
			 const struct dls_cpudl_item *y)
{
	if (x->dl != y->dl)
		return dls_time_after(x->dl, y->dl);
	return x->cpu < y->cpu;
}

static inline void put(struct dls_cpudl *cp, int i, struct dls_cpudl_item x)
{
	cp->heap[i] = x;
	cp->pos[x.cpu] = i;
}

/* Move the hole at i up until x fits there. */
static void sift_up(struct dls_cpudl *cp, int i, struct dls_cpudl_item x)
{
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!above(&x, &cp->heap[parent]))
			break;
		put(cp, i, cp->heap[parent]);
		i = parent;
	}
	put(cp, i, x);
}

/* Move the hole at i down until x fits there. */
static void sift_down(struct dls_cpudl *cp, int i, struct dls_cpudl_item x)
{
	for (;;) {
		int c = 2 * i + 1;

		if (c >= cp->size)
			break;
		if (c + 1 < cp->size && above(&cp->heap[c + 1], &cp->heap[c]))
			c++;
		if (!above(&cp->heap[c], &x))
			break;
		put(cp, i, cp->heap[c]);
		i = c;
	}
	put(cp, i, x);
}

/* Put x at slot i, whose previous item was old (or a fresh slot). */
static void place(struct dls_cpudl *cp, int i, struct dls_cpudl_item x,
		  const struct dls_cpudl_item *old)
{
	if (old == NULL || above(&x, old))
		sift_up(cp, i, x);
	else
		sift_down(cp, i, x);
}

static void heap_remove(struct dls_cpudl *cp, int cpu)
{
	int i = cp->pos[cpu];
	struct dls_cpudl_item gone, last;

	DLS_ASSERT(i >= 0 && i < cp->size);
	gone = cp->heap[i];
	cp->pos[cpu] = -1;
	last = cp->heap[--cp->size];
	if (i != cp->size)
		place(cp, i, last, &gone);
}

static void free_set(struct dls_cpudl *cp, int cpu)
{
	if (!dls_cpumask_test(cp->free_cpus, cpu)) {
		dls_cpumask_set(cp->free_cpus, cpu);
		cp->nr_free++;
	}
}

static void free_clear(struct dls_cpudl *cp, int cpu)
{
	if (dls_cpumask_test(cp->free_cpus, cpu)) {
		dls_cpumask_clear(cp->free_cpus, cpu);
		cp->nr_free--;
	}
}

void dls__cpudl_set(struct dls_cpudl *cp, int cpu, uint64_t dl)
{
	struct dls_cpudl_item x = { .dl = dl, .cpu = cpu, .pad_ = 0 };
	int i;

	DLS_ASSERT(cpu >= 0 && cpu < cp->nr_cpus);
	cp_lock(cp);
	i = cp->pos[cpu];
	if (i < 0) {
		free_clear(cp, cpu);
		place(cp, cp->size++, x, NULL);
	} else {
		struct dls_cpudl_item old = cp->heap[i];

		place(cp, i, x, &old);
	}
	cp_unlock(cp);
}

void dls__cpudl_clear(struct dls_cpudl *cp, int cpu)
{
	DLS_ASSERT(cpu >= 0 && cpu < cp->nr_cpus);
	cp_lock(cp);
	if (cp->pos[cpu] >= 0) {
		heap_remove(cp, cpu);
		free_set(cp, cpu);
	}
	cp_unlock(cp);
}

void dls__cpudl_online(struct dls_cpudl *cp, int cpu)
{
	DLS_ASSERT(cpu >= 0 && cpu < cp->nr_cpus);
	cp_lock(cp);
	if (cp->pos[cpu] < 0)
		free_set(cp, cpu);
	cp_unlock(cp);
}

void dls__cpudl_offline(struct dls_cpudl *cp, int cpu)
{
	DLS_ASSERT(cpu >= 0 && cpu < cp->nr_cpus);
	cp_lock(cp);
	if (cp->pos[cpu] >= 0)
		heap_remove(cp, cpu);
	free_clear(cp, cpu);
	cp_unlock(cp);
}

/*
 * Choice among the free allowed CPUs (shared by the heap and the linear
 * reference): the first the entity fits; if none fits, the largest
 * capacity, ties to fit->prefer then the lowest id. `is_free(cpu)` filters
 * the CPUs the iterator yields.
 */
struct free_pick {
	const struct dls_cpudl_fit *fit;
	struct dls_cpumask *later_mask; /* fitting CPUs collected here */
	int first_fit;
	int max_cpu;
	uint32_t max_cap;
};

static void pick_init(struct free_pick *fp, const struct dls_cpudl_fit *fit,
		      struct dls_cpumask *later_mask)
{
	fp->fit = fit;
	fp->later_mask = later_mask;
	fp->first_fit = -1;
	fp->max_cpu = -1;
	fp->max_cap = 0;
}

/* Offer one free allowed CPU; returns true when the search can stop. */
static bool pick_offer(struct free_pick *fp, int cpu)
{
	const struct dls_cpudl_fit *fit = fp->fit;
	uint32_t cap;

	if (fit->fits(fit->ctx, cpu)) {
		if (fp->first_fit < 0)
			fp->first_fit = cpu;
		if (fp->later_mask == NULL)
			return true;
		dls_cpumask_set(fp->later_mask, cpu);
		return false;
	}
	cap = fit->capacity(fit->ctx, cpu);
	if (fp->max_cpu < 0 || cap > fp->max_cap ||
	    (cap == fp->max_cap && cpu == fit->prefer)) {
		fp->max_cap = cap;
		fp->max_cpu = cpu;
	}
	return false;
}

static int pick_done(struct free_pick *fp)
{
	if (fp->first_fit >= 0)
		return fp->first_fit;
	if (fp->later_mask)
		dls_cpumask_set(fp->later_mask, fp->max_cpu);
	return fp->max_cpu;
}

int dls__cpudl_find(struct dls_cpudl *cp, const struct dls_cpumask *allowed,
		    uint64_t dl, const struct dls_cpudl_fit *fit,
		    struct dls_cpumask *later_mask)
{
	int cpu;

	DLS_ASSERT(allowed->nr_cpus == (uint32_t)cp->nr_cpus);
	DLS_ASSERT(later_mask == NULL ||
		   later_mask->nr_cpus == (uint32_t)cp->nr_cpus);
	cp_lock(cp);
	cpu = cp->nr_free ? dls_cpumask_first_and(cp->free_cpus, allowed) : -1;
	if (cpu >= 0) {
		if (fit == NULL) {
			if (later_mask)
				dls_cpumask_and(later_mask, cp->free_cpus, allowed);
		} else {
			struct free_pick fp;

			if (later_mask)
				dls_cpumask_zero(later_mask);
			pick_init(&fp, fit, later_mask);
			for (; cpu >= 0;
			     cpu = dls_cpumask_next_and(cp->free_cpus, allowed, cpu))
				if (pick_offer(&fp, cpu))
					break;
			cpu = pick_done(&fp);
		}
	} else {
		if (later_mask)
			dls_cpumask_zero(later_mask);
		if (cp->size > 0 && dls_cpumask_test(allowed, cp->heap[0].cpu) &&
		    dls_time_before(dl, cp->heap[0].dl)) {
			cpu = cp->heap[0].cpu;
			if (later_mask)
				dls_cpumask_set(later_mask, cpu);
		}
	}
	cp_unlock(cp);
	return cpu;
}

int dls__cpudl_maximum(struct dls_cpudl *cp, uint64_t *dl)
{
	int cpu = -1;

	cp_lock(cp);
	if (cp->size > 0) {
		cpu = cp->heap[0].cpu;
		if (dl)
			*dl = cp->heap[0].dl;
	}
	cp_unlock(cp);
	return cpu;
}

bool dls__cpudl_deadline(struct dls_cpudl *cp, int cpu, uint64_t *dl)
{
	bool on;

	DLS_ASSERT(cpu >= 0 && cpu < cp->nr_cpus);
	cp_lock(cp);
	on = cp->pos[cpu] >= 0;
	if (on)
		*dl = cp->heap[cp->pos[cpu]].dl;
	cp_unlock(cp);
	return on;
}

const char *dls__cpudl_check(const struct dls_cpudl *cp)
{
	const char *msg;
	int i, members = 0;

	if (cp == NULL || cp->heap == NULL || cp->pos == NULL ||
	    cp->free_cpus == NULL)
		return "cpudl: NULL heap, index or free mask";
	if (cp->size < 0 || cp->size > cp->nr_cpus)
		return "cpudl: size out of range";
	if ((msg = dls_cpumask_check(cp->free_cpus)) != NULL)
		return msg;
	if (cp->free_cpus->nr_cpus != (uint32_t)cp->nr_cpus)
		return "cpudl: free mask CPU count differs";
	for (i = 0; i < cp->size; i++) {
		int cpu = cp->heap[i].cpu;

		if (cpu < 0 || cpu >= cp->nr_cpus)
			return "cpudl: heap item CPU out of range";
		if (cp->pos[cpu] != i)
			return "cpudl: heap item not linked back from its CPU";
		if (i > 0 && above(&cp->heap[i], &cp->heap[(i - 1) / 2]))
			return "cpudl: heap order (child above parent)";
	}
	for (i = 0; i < cp->nr_cpus; i++) {
		int32_t p = cp->pos[i];

		if (p < -1 || p >= cp->size)
			return "cpudl: CPU index out of range";
		if (p < 0)
			continue;
		members++;
		if (cp->heap[p].cpu != i)
			return "cpudl: CPU index points at another CPU";
		if (dls_cpumask_test(cp->free_cpus, i))
			return "cpudl: CPU both on the heap and free";
	}
	if (members != cp->size)
		return "cpudl: CPUs on the heap differ from size";
	if (dls_cpumask_weight(cp->free_cpus) != cp->nr_free)
		return "cpudl: nr_free differs from the free mask";
	return NULL;
}

int dls__cpudl_find_linear(const struct dls_cpumask *span,
			  const struct dls_cpumask *allowed, uint64_t dl,
			  bool (*earliest)(void *ctx, int cpu, uint64_t *edl),
			  void *ctx, const struct dls_cpudl_fit *fit,
			  struct dls_cpumask *later_mask)
{
	struct free_pick fp;
	int cpu, first_free = -1, latest = -1;
	bool any_free = false;
	uint64_t latest_dl = 0;

	DLS_ASSERT(span->nr_cpus == allowed->nr_cpus);
	if (later_mask)
		dls_cpumask_zero(later_mask);
	pick_init(&fp, fit, NULL);
	dls_cpumask_for_each_and(cpu, span, allowed) {
		uint64_t edl;

		if (!earliest(ctx, cpu, &edl)) {
			if (later_mask)
				dls_cpumask_set(later_mask, cpu);
			if (!any_free)
				first_free = cpu;
			any_free = true;
			if (fit)
				(void)pick_offer(&fp, cpu);
		} else if (dls_time_before(dl, edl)) {
			if (later_mask)
				dls_cpumask_set(later_mask, cpu);
			if (latest < 0 || dls_time_after(edl, latest_dl)) {
				latest = cpu;
				latest_dl = edl;
			}
		}
	}
	if (any_free)
		return fit ? pick_done(&fp) : first_free;
	return latest;
}
