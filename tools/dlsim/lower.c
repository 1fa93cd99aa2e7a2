/*
 * dlsim's classes below SCHED_DEADLINE, per CPU, and how their threads
 * move between CPUs.
 *
 * Each CPU's c->lower holds its waiting (runnable, not running) threads of
 * these classes: SCHED_FIFO/RR first, by priority, FIFO within one; then
 * the fair class. A CPU runs the deadline thread the library picks, else
 * its first FIFO/RR thread, else the fair thread EEVDF picks. FIFO runs
 * until it blocks or yields; RR has a 100 ms slice (RR_TIMESLICE), then
 * goes to the tail of its priority.
 *
 * The fair class (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE) is Linux's EEVDF
 * (6.6 on: Documentation/scheduler/sched-eevdf.rst, kernel/sched/fair.c):
 *  - weight: sched_prio_to_weight[nice + 20] (kernel/sched/core.c); a
 *    SCHED_IDLE thread weighs 3 (WEIGHT_IDLEPRIO); BATCH weighs as OTHER;
 *  - a running thread's vruntime advances by delta * 1024 / weight
 *    (calc_delta_fair());
 *  - V is the weight-averaged vruntime of the CPU's fair set (its waiting
 *    fair threads and the running one); a thread is eligible when its
 *    vruntime is at most V (entity_eligible());
 *  - the CPU picks the eligible thread with the earliest virtual deadline,
 *    vruntime + slice * 1024 / weight, renewed when the vruntime reaches
 *    it (update_deadline()); the slice is the base slice, 0.75 ms x (1 +
 *    log2(min(CPUs, 8))) (sysctl_sched_base_slice, scaled by the default
 *    SCHED_TUNABLESCALING_LOG);
 *  - RUN_TO_PARITY: the running thread keeps the CPU, while eligible, until
 *    its deadline is renewed; a waking SCHED_OTHER thread preempts only a
 *    thread no longer protected so; SCHED_BATCH and SCHED_IDLE wakers never
 *    preempt; any other fair waker preempts a SCHED_IDLE thread
 *    (check_preempt_wakeup_fair());
 *  - lag: a thread leaving the fair set keeps vlag = V - vruntime, clamped
 *    to max(2 slices, a tick) * 1024 / weight (update_entity_lag()), and
 *    comes back at V - vlag * (W + w) / W (place_entity(), PLACE_LAG); a
 *    new thread starts at V with half a slice to its deadline
 *    (PLACE_DEADLINE_INITIAL); yield pushes its deadline one slice on.
 * Not modelled: DELAY_DEQUEUE (6.12; here a thread with negative lag
 * leaves at once and keeps that lag), custom slices (a warning says so),
 * the tick (a deadline is renewed exactly when reached, as with HRTICK),
 * a CPU running only SCHED_IDLE threads counting as idle for placement.
 *
 * Between CPUs, in every mode ("partitioned" and "clustered" are about
 * deadline reservations; Linux balances the other classes within each
 * thread's affinity whatever its deadline tasks do):
 *  - FIFO/RR, as kernel/sched/rt.c's push and pull over cpupri: a CPU's
 *    level is its highest runnable FIFO/RR priority, 0 when it has none
 *    (idle, or fair threads only), and above every FIFO/RR priority while
 *    a deadline thread is runnable there (dlsim's choice: cpupri tracks
 *    RT priorities, and a thread pushed there would only wait). The
 *    highest-priority waiting FIFO/RR thread that may use a CPU of a lower
 *    level moves to the lowest such CPU (ties: an idle CPU, then the lowest
 *    id), and so on until none can: push when a CPU's FIFO/RR set grows,
 *    pull when one lowers its level. A waking FIFO/RR thread first leaves
 *    its CPU only when a deadline or FIFO/RR thread of at least its
 *    priority runs there, or a FIFO/RR thread pinned to it
 *    (select_task_rq_rt()); otherwise it preempts what runs. This keeps
 *    the invariant --check verifies: no waiting FIFO/RR thread may use a
 *    CPU running something of a lower level. Linux pulls
 *    only from CPUs with two or more FIFO/RR threads (rto_mask), so there a
 *    thread preempted by a deadline thread may wait while another CPU
 *    idles; dlsim moves it.
 *  - fair: a woken fair thread whose CPU is not idle goes to an idle CPU it
 *    may use, in its CPU's cluster first (select_idle_sibling(), the
 *    cluster standing for the LLC), lowest id first; an idle CPU pulls a
 *    waiting fair thread it may run from the CPU with the most runnable
 *    threads (ties: the lowest id), the one that joined its queue first
 *    (newidle and nohz idle balancing, done at once where Linux may take up
 *    to a tick for a CPU already idle). Busy CPUs are not balanced against
 *    each other (no periodic load balancing).
 * Ties are broken by CPU id and queue order, so a run is reproducible.
 */
#include "sim_impl.h"

#include <string.h>

#define NICE_0_LOAD 1024
#define WEIGHT_IDLEPRIO 3
#define BASE_SLICE (750 * US)
#define TICK_DEFAULT (4000 * US) /* HZ=250, Kconfig's default */
#define LEVEL_DL 1000            /* above every FIFO/RR priority */

/*
 * Linux's sched_prio_to_weight[] (kernel/sched/core.c): nice -20..19 to a
 * load weight, nice 0 = 1024, each step about 1.25x (10% of CPU time
 * between two threads one nice level apart).
 */
static const uint32_t prio_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548,  7620,  6100,  4904,  3906,
	/*  -5 */ 3121,  2501,  1991,  1586,  1277,
	/*   0 */ 1024,  820,   655,   526,   423,
	/*   5 */ 335,   272,   215,   172,   137,
	/*  10 */ 110,   87,    70,    56,    45,
	/*  15 */ 36,    29,    23,    18,    15,
};

uint32_t dlsim_fair_weight(enum wl_policy policy, int nice)
{
	if (policy == WL_IDLE)
		return WEIGHT_IDLEPRIO;
	/* The reader refuses other values; a caller's slip stays in range. */
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return prio_to_weight[nice + 20];
}

/* Its policy now: a phase may have changed the task's (thread.c). */
static enum wl_policy policy_of(const struct thread *t)
{
	return t->policy;
}

/* 0.75 ms x (1 + ilog2(min(CPUs, 8))). */
static uint64_t base_slice(const struct sim *s)
{
	int n = s->nr_cpus < 8 ? s->nr_cpus : 8;
	uint64_t f = 1;

	while (n >>= 1)
		f++;
	return BASE_SLICE * f;
}

/* delta * 1024 / w without overflow (calc_delta_fair()). */
static uint64_t to_virtual(uint64_t delta, uint32_t w)
{
	if (w == NICE_0_LOAD)
		return delta;
	return delta / w * NICE_0_LOAD + delta % w * NICE_0_LOAD / w;
}

/* The real time in which a vruntime of weight w advances by v, rounded up. */
static uint64_t to_real(uint64_t v, uint32_t w)
{
	if (w == NICE_0_LOAD)
		return v;
	return v / NICE_0_LOAD * w + (v % NICE_0_LOAD * w + NICE_0_LOAD - 1) / NICE_0_LOAD;
}

static uint64_t vslice(const struct sim *s, const struct thread *t)
{
	return to_virtual(base_slice(s), t->weight);
}

/* Sets the vruntime: later charges count from here. */
static void set_vruntime(struct thread *t, uint64_t v)
{
	t->vruntime = v;
	t->vbase = v;
	t->exec_base = t->fair_exec;
}

/* ---- the fair set of a CPU ------------------------------------------- */

/*
 * A CPU's fair set is its running fair thread and its waiting ones. The
 * waiting ones are kept as Linux keeps its cfs_rq (avg_vruntime_add(),
 * avg_vruntime_sub(), __pick_eevdf()), so that V, eligibility and the pick
 * cost O(1) and O(log n):
 *  - c->fair_w and c->fair_a sum their weights and (vruntime - fair_vref) *
 *    weight, updated as one joins or leaves; the running thread's term is
 *    added when needed. floor(sum(v * w) / sum(w)) and the test v * W <=
 *    sum(v * w) do not depend on the reference, so any reference gives the
 *    same integers as a sum recomputed from scratch, as long as nothing
 *    overflows: fair_total() moves the reference to V each time it is
 *    computed (fair_a -= fair_w * (V - fair_vref), exact), so every term is
 *    a vruntime's distance from a recent V times its weight, the same
 *    magnitude as with the first thread of the set as the reference;
 *  - c->fair_root is a treap of them ordered by (vdeadline, queued_seq),
 *    each node keeping the least vruntime of its subtree (fair_minv): the
 *    first node in that order whose vruntime is eligible is found along
 *    one path. The treap's heap key is a hash of queued_seq, so its shape,
 *    and a run, are reproducible.
 * lower_check() compares both with a recomputation from scratch.
 */

/* The weighted sum of the fair set's vruntimes, relative to vref. */
struct fair_sum {
	uint64_t vref;
	int64_t a, w;
	unsigned int n;
};

/* The running thread of @cpu when it counts in its fair set. */
static struct thread *fair_curr(const struct sim *s, int cpu)
{
	struct thread *t = s->cpus[cpu].curr;

	return t && t->fair_queued && t->cpu == cpu ? t : NULL;
}

/* @cpu's fair set's sums; with waiting threads, the reference moves to V. */
static void fair_total(struct sim *s, int cpu, struct fair_sum *f)
{
	struct cpu *c = &s->cpus[cpu];
	const struct thread *curr = fair_curr(s, cpu);
	int64_t q;

	f->n = c->fair_n + (curr != NULL);
	if (!c->fair_n) {
		f->vref = curr ? curr->vruntime : 0;
		f->a = 0;
		f->w = curr ? curr->weight : 0;
		return;
	}
	f->vref = c->fair_vref;
	f->a = c->fair_a;
	f->w = c->fair_w;
	if (curr) {
		f->a += (int64_t)(curr->vruntime - f->vref) * (int64_t)curr->weight;
		f->w += curr->weight;
	}
	q = f->a / f->w;
	if (f->a % f->w < 0)
		q--;
	/* The same sums relative to vref + q: a - w * q, with 0 <= a < w. */
	c->fair_a -= c->fair_w * q;
	c->fair_vref += (uint64_t)q;
	f->a -= f->w * q;
	f->vref += (uint64_t)q;
}

/* V (avg_vruntime()), rounded down; the last known V of an empty set. */
static uint64_t fair_avg(struct sim *s, int cpu, const struct fair_sum *f)
{
	int64_t q;

	if (!f->n)
		return s->cpus[cpu].fair_v;
	q = f->a / f->w;
	if (f->a % f->w < 0)
		q--;
	s->cpus[cpu].fair_v = f->vref + (uint64_t)q;
	return s->cpus[cpu].fair_v;
}

static bool eligible(const struct fair_sum *f, const struct thread *t)
{
	return (int64_t)(t->vruntime - f->vref) * f->w <= f->a;
}

static bool v_eligible(const struct fair_sum *f, uint64_t v)
{
	return (int64_t)(v - f->vref) * f->w <= f->a;
}

/* The pick's order: the earlier virtual deadline, then the earlier join. */
static bool fair_before(const struct thread *a, const struct thread *b)
{
	int64_t d = (int64_t)(a->vdeadline - b->vdeadline);

	return d < 0 || (d == 0 && a->queued_seq < b->queued_seq);
}

/* splitmix64's finaliser: the treap's heap key. */
static uint64_t fair_hash(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static uint64_t vmin(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0 ? a : b;
}

static void fair_fix(struct thread *t)
{
	t->fair_minv = t->vruntime;
	if (t->fair_left)
		t->fair_minv = vmin(t->fair_minv, t->fair_left->fair_minv);
	if (t->fair_right)
		t->fair_minv = vmin(t->fair_minv, t->fair_right->fair_minv);
}

/* Joins two treaps, every node of @a before every node of @b. */
static struct thread *fair_merge(struct thread *a, struct thread *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->fair_heap >= b->fair_heap) {
		a->fair_right = fair_merge(a->fair_right, b);
		fair_fix(a);
		return a;
	}
	b->fair_left = fair_merge(a, b->fair_left);
	fair_fix(b);
	return b;
}

/* Splits a treap into its nodes before @t (@l) and after it (@r). */
static void fair_split(struct thread *root, const struct thread *t, struct thread **l,
		       struct thread **r)
{
	if (!root) {
		*l = *r = NULL;
		return;
	}
	if (fair_before(root, t)) {
		fair_split(root->fair_right, t, &root->fair_right, r);
		*l = root;
	} else {
		fair_split(root->fair_left, t, l, &root->fair_left);
		*r = root;
	}
	fair_fix(root);
}

static struct thread *fair_tree_insert(struct thread *root, struct thread *t)
{
	if (!root || t->fair_heap > root->fair_heap) {
		fair_split(root, t, &t->fair_left, &t->fair_right);
		fair_fix(t);
		return t;
	}
	if (fair_before(t, root))
		root->fair_left = fair_tree_insert(root->fair_left, t);
	else
		root->fair_right = fair_tree_insert(root->fair_right, t);
	fair_fix(root);
	return root;
}

static struct thread *fair_tree_erase(struct thread *root, struct thread *t)
{
	if (root == t)
		return fair_merge(t->fair_left, t->fair_right);
	if (fair_before(t, root))
		root->fair_left = fair_tree_erase(root->fair_left, t);
	else
		root->fair_right = fair_tree_erase(root->fair_right, t);
	fair_fix(root);
	return root;
}

/* @t, a fair thread, starts or stops waiting in @c's fair set. */
static void fair_wait(struct cpu *c, struct thread *t)
{
	if (!c->fair_n) {
		c->fair_vref = t->vruntime;
		c->fair_a = 0;
		c->fair_w = 0;
	}
	c->fair_a += (int64_t)(t->vruntime - c->fair_vref) * (int64_t)t->weight;
	c->fair_w += t->weight;
	c->fair_n++;
	t->fair_left = t->fair_right = NULL;
	t->fair_heap = fair_hash(t->queued_seq);
	c->fair_root = fair_tree_insert(c->fair_root, t);
	t->fair_in_tree = true;
}

static void fair_unwait(struct cpu *c, struct thread *t)
{
	c->fair_root = fair_tree_erase(c->fair_root, t);
	c->fair_a -= (int64_t)(t->vruntime - c->fair_vref) * (int64_t)t->weight;
	c->fair_w -= t->weight;
	c->fair_n--;
	t->fair_in_tree = false;
}

/* The first waiting thread in the pick's order that is eligible, or NULL
 * (__pick_eevdf()). */
static struct thread *fair_first_eligible(const struct cpu *c, const struct fair_sum *f)
{
	struct thread *t = c->fair_root;

	while (t) {
		if (t->fair_left && v_eligible(f, t->fair_left->fair_minv))
			t = t->fair_left;
		else if (eligible(f, t))
			return t;
		else if (t->fair_right && v_eligible(f, t->fair_right->fair_minv))
			t = t->fair_right;
		else
			return NULL;
	}
	return NULL;
}

/* Charge the running fair thread of @cpu up to now (update_curr()). */
static void fair_update_curr(struct sim *s, int cpu)
{
	struct thread *t = s->cpus[cpu].curr;

	bool waits;

	if (!t || !t->fair_queued || t->is_dl || t->cpu != cpu)
		return;
	/* Back in its queue, before its CPU picks again: its keys change. */
	waits = t->fair_in_tree;
	if (waits)
		fair_unwait(&s->cpus[cpu], t);
	t->fair_exec += s->now - t->exec_start;
	t->exec_start = s->now;
	t->vruntime = t->vbase + to_virtual(t->fair_exec - t->exec_base, t->weight);
	if (!dls_time_before(t->vruntime, t->vdeadline))
		t->vdeadline = t->vruntime + vslice(s, t); /* update_deadline() */
	if (waits)
		fair_wait(&s->cpus[cpu], t);
}

/* @t joins @cpu's fair set where its lag says (place_entity()). */
static void fair_enqueue(struct sim *s, int cpu, struct thread *t)
{
	struct fair_sum f;
	uint64_t v, vs = vslice(s, t);
	int64_t lag = t->vlag;

	fair_update_curr(s, cpu);
	fair_total(s, cpu, &f);
	v = fair_avg(s, cpu, &f);
	if (f.w)
		lag = lag * (f.w + (int64_t)t->weight) / f.w;
	set_vruntime(t, v - (uint64_t)lag);
	if (!t->fair_placed)
		vs /= 2;
	t->vdeadline = t->vruntime + vs;
	t->vprotect = t->vdeadline - 1; /* not protected until picked */
	t->fair_placed = true;
	t->fair_queued = true;
}

/* @t leaves @cpu's fair set keeping its lag (update_entity_lag()). */
static void fair_dequeue(struct sim *s, int cpu, struct thread *t)
{
	struct fair_sum f;
	uint64_t tick = s->tick_ns ? s->tick_ns : TICK_DEFAULT;
	uint64_t span = 2 * base_slice(s) > tick ? 2 * base_slice(s) : tick;
	int64_t limit = (int64_t)to_virtual(span, t->weight), lag;

	if (s->cpus[cpu].curr == t)
		fair_update_curr(s, cpu);
	fair_total(s, cpu, &f);
	lag = (int64_t)(fair_avg(s, cpu, &f) - t->vruntime);
	t->vlag = lag < -limit ? -limit : lag > limit ? limit : lag;
	t->fair_queued = false;
}

/* The running fair thread @t's slice: up to its deadline while others
 * wait on its CPU, none while it is alone. */
static void fair_arm(struct sim *s, int cpu, struct thread *t)
{
	const struct cpu *c = &s->cpus[cpu];

	if (!c->nr_lower || c->lower[c->nr_lower - 1]->prio > 0) {
		t->sliced = false;
		t->slice_left = 0;
		return;
	}
	t->sliced = true;
	t->slice_left = dls_time_before(t->vruntime, t->vdeadline)
				? to_real(t->vdeadline - t->vruntime, t->weight) : 1;
}

/* A fair thread @t joined @cpu, whose running thread is fair. */
static void fair_check_preempt(struct sim *s, int cpu, struct thread *t)
{
	struct cpu *c = &s->cpus[cpu];
	struct thread *curr = c->curr;

	dlsim_cpu_touch(s, cpu); /* its slice changes */
	fair_update_curr(s, cpu);
	if (policy_of(curr) == WL_IDLE && policy_of(t) != WL_IDLE) {
		curr->vprotect = curr->vdeadline - 1;
		dlsim_resched(s, (int)(c - s->cpus));
		return;
	}
	if (policy_of(t) == WL_OTHER)
		dlsim_resched(s, (int)(c - s->cpus)); /* the pick decides: RUN_TO_PARITY */
	else
		fair_arm(s, cpu, curr);
}

/* ---- the queue of a CPU ---------------------------------------------- */

static void queue_insert(struct sim *s, struct thread *t, bool head)
{
	struct cpu *c = &s->cpus[t->cpu];
	size_t pos = c->nr_lower;

	dlsim_cpu_touch(s, t->cpu); /* it may pick again */
	GROW(c->lower, c->nr_lower, c->cap_lower, { sim_oom(s); return; });
	/* Keep the array sorted by priority (higher first), FIFO within one:
	 * after the last thread of a higher priority (of at least @t's
	 * without @head), found from the back, where fair threads go. */
	while (pos > 0 && (c->lower[pos - 1]->prio < t->prio ||
			   (head && c->lower[pos - 1]->prio == t->prio)))
		pos--;
	memmove(c->lower + pos + 1, c->lower + pos, (c->nr_lower - pos) * sizeof(*c->lower));
	c->lower[pos] = t;
	c->nr_lower++;
	s->lower_dirty = true;
	s->nr_lower_waiting++;
	s->nr_rt_waiting += t->prio > 0;
	if (t->prio > 0) {
		wl_cpuset_set(&s->rt_by_prio[t->prio], t->cpu);
		wl_cpuset_set(&s->rt_prios, t->prio);
	}
	t->queued_seq = s->lower_seq++;
	if (t->prio == 0 && t->fair_queued)
		fair_wait(c, t);
}

/* A thread of FIFO/RR priority @prio left @c's queue at index @i: @c
 * leaves that priority's CPUs unless a neighbour (the queue is in
 * priority order) has it too. */
static void rt_index_delete(struct sim *s, const struct cpu *c, int prio, size_t i)
{
	if ((i > 0 && c->lower[i - 1]->prio == prio) ||
	    (i < c->nr_lower && c->lower[i]->prio == prio))
		return;
	wl_cpuset_clear(&s->rt_by_prio[prio], (int)(c - s->cpus));
	if (wl_cpuset_empty(&s->rt_by_prio[prio]))
		wl_cpuset_clear(&s->rt_prios, prio);
}

static void queue_delete(struct sim *s, struct cpu *c, struct thread *t)
{
	dlsim_cpu_touch(s, (int)(c - s->cpus));
	if (t->fair_in_tree)
		fair_unwait(c, t);
	/* FIFO/RR threads are at the front, fair ones at the back. */
	for (size_t k = 0; k < c->nr_lower; k++) {
		size_t i = t->prio > 0 ? k : c->nr_lower - 1 - k;

		if (c->lower[i] == t) {
			memmove(c->lower + i, c->lower + i + 1,
				(c->nr_lower - i - 1) * sizeof(*c->lower));
			c->nr_lower--;
			s->lower_dirty = true;
			s->nr_lower_waiting--;
			s->nr_rt_waiting -= t->prio > 0;
			if (t->prio > 0)
				rt_index_delete(s, c, t->prio, i);
			return;
		}
	}
}

/* @t's class may have changed (a boost): its fair set membership follows. */
static void fair_follow_class(struct sim *s, struct thread *t)
{
	if (t->prio == 0 && !t->is_dl && !t->fair_queued)
		fair_enqueue(s, t->cpu, t);
	else if ((t->prio > 0 || t->is_dl) && t->fair_queued)
		fair_dequeue(s, t->cpu, t);
}

/* ---- entry points ------------------------------------------------------ */

/* @t, runnable and not running, joins the queue of its CPU. */
void dlsim_lower_add(struct sim *s, struct thread *t, bool head)
{
	struct cpu *c = &s->cpus[t->cpu];

	fair_follow_class(s, t);
	queue_insert(s, t, head);
	if (!c->curr || !c->curr->runnable)
		dlsim_resched(s, (int)(c - s->cpus));
	else if (c->curr->is_dl)
		return;
	else if (c->curr->prio < t->prio)
		dlsim_resched(s, (int)(c - s->cpus));
	else if (t->prio == 0 && c->curr->prio == 0 && c->curr->fair_queued)
		fair_check_preempt(s, t->cpu, t);
}

/* @t leaves its CPU's queue (and fair set): it blocks, moves or changes class. */
void dlsim_lower_remove(struct sim *s, struct thread *t)
{
	queue_delete(s, &s->cpus[t->cpu], t);
	if (t->fair_queued)
		fair_dequeue(s, t->cpu, t);
}

/* @t moves to @cpu's queue (it is not running). */
void dlsim_lower_move(struct sim *s, struct thread *t, int cpu)
{
	bool queued = t->runnable && !t->exited;

	if (queued)
		dlsim_lower_remove(s, t);
	s->cpus[t->cpu].nr_assigned--;
	t->cpu = cpu;
	s->cpus[cpu].nr_assigned++;
	if (queued)
		dlsim_lower_add(s, t, false);
}

/* An online CPU with nothing runnable. */
static bool cpu_idle(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];

	return !c->offline && (!c->curr || !c->curr->runnable) && !c->nr_lower &&
	       !s->rqs[cpu].nr_running;
}

static bool may_use(const struct thread *t, int cpu)
{
	return wl_cpuset_allows(&t->allowed, cpu);
}

/* The FIFO/RR level of @cpu (see the top of the file). */
static int cpu_level(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];
	int lvl = 0;

	if (s->rqs[cpu].nr_running || (c->curr && c->curr->runnable && c->curr->is_dl))
		return LEVEL_DL;
	if (c->curr && c->curr->runnable)
		lvl = c->curr->prio;
	if (c->nr_lower && c->lower[0]->prio > lvl)
		lvl = c->lower[0]->prio;
	return lvl;
}

/* The lowest-level online CPU @t may use with a level below @t's priority
 * (find_lowest_rq()); ties: an idle CPU, then the lowest id. -1: none. */
static int lowest_cpu(const struct sim *s, const struct thread *t)
{
	int best = -1, best_lvl = 0;
	bool best_idle = false;

	for (int k = 0; k < s->nr_cpus; k++) {
		int lvl;
		bool idle;

		if (s->cpus[k].offline || !may_use(t, k) || k == t->cpu)
			continue;
		lvl = cpu_level(s, k);
		if (lvl >= t->prio)
			continue;
		idle = cpu_idle(s, k);
		if (best < 0 || lvl < best_lvl || (lvl == best_lvl && idle && !best_idle)) {
			best = k;
			best_lvl = lvl;
			best_idle = idle;
		}
	}
	return best;
}

/* An idle CPU @t may use: in @t's cluster first, then any; -1: none. */
static int idle_cpu_for(const struct sim *s, const struct thread *t)
{
	int other = -1;

	for (int k = 0; k < s->nr_cpus; k++) {
		if (!may_use(t, k) || !cpu_idle(s, k))
			continue;
		if (dlsim_same_cluster(s->w, k, t->cpu))
			return k;
		if (other < 0)
			other = k;
	}
	return other;
}

/* Where a waking thread goes (select_task_rq_rt(), select_idle_sibling()). */
static int wake_cpu(const struct sim *s, const struct thread *t)
{
	const struct cpu *c = &s->cpus[t->cpu];
	int k;

	if (s->nr_cpus < 2 || t->stranded || c->offline)
		return t->cpu;
	if (t->prio > 0) {
		const struct thread *curr = c->curr && c->curr->runnable ? c->curr : NULL;
		/* a FIFO/RR thread that may use this CPU only */
		bool pinned = curr && !curr->is_dl && curr->prio > 0 &&
			      wl_cpuset_count(&curr->allowed) == 1;

		if (!curr || (!curr->is_dl && curr->prio < t->prio && !pinned))
			return t->cpu;
		k = lowest_cpu(s, t);
		/* Preempting a pinned thread of a lower priority is better
		 * than moving to a CPU of the same level (find_lowest_rq()
		 * prefers the task's CPU). */
		if (k >= 0 && pinned && cpu_level(s, k) >= cpu_level(s, t->cpu))
			return t->cpu;
		return k >= 0 ? k : t->cpu;
	}
	if (cpu_idle(s, t->cpu))
		return t->cpu;
	k = idle_cpu_for(s, t);
	return k >= 0 ? k : t->cpu;
}

/* @t wakes: it joins the queue of the CPU it is placed on. */
void dlsim_lower_wake(struct sim *s, struct thread *t)
{
	int cpu;

	/* Blocked and woken in one instant, before its CPU switched it out:
	 * it never left that CPU (Linux's ttwu_runnable()), and goes back
	 * into the queue when the CPU puts it back (put_prev_here()). */
	if (s->cpus[t->cpu].curr == t)
		return;
	cpu = wake_cpu(s, t);
	if (cpu != t->cpu) {
		s->cpus[t->cpu].nr_assigned--;
		t->cpu = cpu;
		s->cpus[cpu].nr_assigned++;
	}
	dlsim_lower_add(s, t, false);
}

/* @cpu stops running @prev (put_prev_task()): back into its queue while
 * it is runnable in these classes. */
static void put_prev_here(struct sim *s, int cpu, struct thread *prev)
{
	bool expired;

	if (!prev || prev->cpu != cpu)
		return;
	if (prev->fair_queued)
		fair_update_curr(s, cpu);
	if (prev->is_dl || !prev->runnable || prev->exited) {
		if (prev->fair_queued)
			fair_dequeue(s, cpu, prev);
		return;
	}
	/* FIFO/RR: back at the head of its priority, at the tail when its
	 * RR slice ran out. */
	expired = prev->sliced && prev->slice_left == 0;
	fair_follow_class(s, prev);
	queue_insert(s, prev, prev->prio > 0 && !expired);
}

void dlsim_lower_put_prev(struct sim *s, int cpu, struct thread *prev)
{
	put_prev_here(s, cpu, prev);
	/* A phase gave it CPUs without this one while it ran (thread.c):
	 * off the CPU now, it moves, as Linux migrates a task whose affinity
	 * changed once it is switched out. */
	if (prev && prev->cpu == cpu && prev->move_to) {
		int to = prev->move_to - 1;

		prev->move_to = 0;
		dlsim_lower_move(s, prev, to);
	}
}

/* The thread @cpu runs when no deadline thread runs, or NULL. */
struct thread *dlsim_lower_pick(struct sim *s, int cpu)
{
	return dlsim_lower_pick_class(s, cpu, true, true);
}

/* As dlsim_lower_pick() among the FIFO/RR threads (@rt) and the fair ones
 * (@fair) only: what a fair server runs inside it (fair_server.c). */
struct thread *dlsim_lower_pick_class(struct sim *s, int cpu, bool rt, bool fair)
{
	struct cpu *c = &s->cpus[cpu];
	struct thread *prev = c->curr, *best = NULL;
	struct fair_sum f;

	if (!c->nr_lower)
		return NULL;
	best = c->lower[0];
	if (best->prio > 0 && !rt)
		best = NULL;
	if (best && best->prio > 0) {
		queue_delete(s, c, best);
		/* Only SCHED_RR has a slice (task_tick_rt()); a fair thread
		 * boosted to a FIFO/RR priority runs like FIFO. */
		best->sliced = policy_of(best) == WL_RR;
		if (!best->sliced)
			best->slice_left = 0; /* no slice: runs until it blocks */
		else if (!best->slice_left)
			best->slice_left = SLICE_RR;
		return best;
	}
	if (!fair)
		return NULL;
	fair_total(s, cpu, &f);
	if (prev && prev->fair_queued && prev->cpu == cpu && prev->vprotect == prev->vdeadline &&
	    eligible(&f, prev)) {
		best = prev; /* RUN_TO_PARITY */
	} else {
		best = fair_first_eligible(c, &f);
	}
	if (!best)
		return NULL; /* not reached: the least vruntime is eligible */
	queue_delete(s, c, best);
	best->exec_start = s->now;
	best->vprotect = best->vdeadline;
	fair_arm(s, cpu, best);
	return best;
}

/* sched_yield() of the running thread @t (its caller makes its CPU pick
 * again): FIFO/RR to the tail of its priority, a fair thread's deadline one
 * slice on (yield_task_fair()). */
void dlsim_lower_yield(struct sim *s, struct thread *t)
{
	t->slice_left = 0;
	t->sliced = true;
	if (t->fair_queued) {
		bool waits;

		fair_update_curr(s, t->cpu);
		waits = t->fair_in_tree; /* not expected: it runs */
		if (waits)
			fair_unwait(&s->cpus[t->cpu], t);
		t->vdeadline += vslice(s, t);
		if (waits)
			fair_wait(&s->cpus[t->cpu], t);
	}
}

/* @t's fair weight becomes @weight; its lag, in real time, stays
 * (reweight_entity()). */
void dlsim_thread_reweight(struct sim *s, struct thread *t, uint32_t weight)
{
	bool waits = false;

	if (t->fair_queued) {
		struct fair_sum f;
		uint64_t v;
		int64_t lag, dl;

		if (s->cpus[t->cpu].curr == t)
			fair_update_curr(s, t->cpu);
		fair_total(s, t->cpu, &f);
		v = fair_avg(s, t->cpu, &f);
		waits = t->fair_in_tree;
		if (waits)
			fair_unwait(&s->cpus[t->cpu], t);
		lag = (int64_t)(v - t->vruntime) * (int64_t)t->weight / (int64_t)weight;
		dl = (int64_t)(t->vdeadline - t->vruntime) * (int64_t)t->weight / (int64_t)weight;
		set_vruntime(t, v - (uint64_t)lag);
		t->vdeadline = t->vruntime + (uint64_t)dl;
		t->vprotect = t->vdeadline - 1;
		if (s->cpus[t->cpu].curr == t)
			dlsim_resched(s, t->cpu);
	} else {
		t->vlag = t->vlag * (int64_t)t->weight / (int64_t)weight;
	}
	t->weight = weight;
	if (waits)
		fair_wait(&s->cpus[t->cpu], t);
}

void dlsim_thread_set_nice(struct sim *s, struct thread *t, int nice)
{
	t->nice = nice;
	dlsim_thread_reweight(s, t, dlsim_fair_weight(policy_of(t), nice));
}

/* ---- balancing ------------------------------------------------------- */

/*
 * dlsim_lower_balance() reads each CPU's level and idleness once, at its
 * start, into its key (s->bal_key), and again only for the two CPUs of
 * each move it makes: a move changes nothing else that they depend on (a
 * touch only charges, a resched only marks), so the keys follow
 * cpu_level() and cpu_idle() throughout. The CPU that lowest_cpu() finds
 * is then the same for every thread that may use all CPUs (s->bal_lowest),
 * and a thread restricted to some CPUs looks at their keys only: a step
 * costs O(CPUs) plus the waiting threads it looks at, not O(CPUs) for each
 * of them.
 */

/* 1 + a CPU's place in lowest_cpu()'s order, less its id: its level (a
 * FIFO/RR priority up to 100, lock.c's eff_prio(), or LEVEL_DL as 101),
 * then busy after idle; 0 offline. */
static int bal_key_of(const struct sim *s, int cpu)
{
	int lvl;

	if (s->cpus[cpu].offline)
		return 0;
	lvl = cpu_level(s, cpu);
	return 1 + (lvl <= 100 ? lvl : 101) * 2 + !cpu_idle(s, cpu);
}

/* The level of a CPU of key @key (1 or more), as compared with a FIFO/RR
 * priority: LEVEL_DL's 101 is above them all as LEVEL_DL is. */
static int bal_key_level(int key)
{
	return (key - 1) / 2;
}

static void bal_read_cpu(struct sim *s, int cpu)
{
	int key = bal_key_of(s, cpu), old = s->bal_key[cpu];

	if (key == old)
		return;
	if (old) {
		wl_cpuset_clear(&s->bal_by_key[old - 1], cpu);
		if (wl_cpuset_empty(&s->bal_by_key[old - 1]))
			wl_cpuset_clear(&s->bal_keys, old - 1);
	}
	if (key) {
		wl_cpuset_set(&s->bal_by_key[key - 1], cpu);
		wl_cpuset_set(&s->bal_keys, key - 1);
	}
	s->bal_key[cpu] = (uint8_t)key;
}

/* Is online CPU @k a better place to push to than @best (-1: none), in
 * lowest_cpu()'s order: the lowest level, then an idle CPU, then the
 * lowest id? */
static bool bal_better(const struct sim *s, int k, int best)
{
	return best < 0 || s->bal_key[k] < s->bal_key[best] ||
	       (s->bal_key[k] == s->bal_key[best] && k < best);
}

/* The first CPU of the first key in use. */
static void bal_find_lowest(struct sim *s)
{
	int key = wl_cpuset_first(&s->bal_keys);

	s->bal_lowest = key < 0 ? -1 : wl_cpuset_first(&s->bal_by_key[key]);
	s->bal_floor = key < 0 ? LEVEL_DL : bal_key_level(key + 1);
}

/* Each CPU read again (their keys start as none: the sim is zeroed). */
static void bal_refresh(struct sim *s)
{
	for (int k = 0; k < s->nr_cpus; k++)
		bal_read_cpu(s, k);
	s->bal_all = wl_cpuset_first_n(s->nr_cpus);
	bal_find_lowest(s);
}

/* A waiting thread moved from CPU @from to CPU @to. */
static void bal_moved(struct sim *s, int from, int to)
{
	bal_read_cpu(s, from);
	bal_read_cpu(s, to);
	bal_find_lowest(s);
}

static bool may_use_all(const struct sim *s, const struct thread *t)
{
	return wl_cpuset_empty(&t->allowed) || wl_cpuset_subset(&s->bal_all, &t->allowed);
}

/* lowest_cpu() of the waiting thread @t. Its own CPU, whose level is at
 * least its priority, is never chosen: s->bal_lowest may be it only when
 * no CPU has a level below @t's priority. Ordering every CPU and then
 * refusing a level not below @t's priority chooses as lowest_cpu() does,
 * the level being the first key. */
static int bal_lowest_cpu(const struct sim *s, const struct thread *t)
{
	int best = -1, k;

	if (may_use_all(s, t)) {
		best = s->bal_lowest;
	} else {
		wl_cpuset_for_each(k, &t->allowed) {
			if (k >= s->nr_cpus)
				break;
			if (s->bal_key[k] && k != t->cpu && bal_better(s, k, best))
				best = k;
		}
	}
	return best >= 0 && bal_key_level(s->bal_key[best]) < t->prio ? best : -1;
}

/* The highest priority in @set below @p, or -1. */
static int prio_below(const struct wl_cpuset *set, int p)
{
	for (int i = (p - 1) / 64; p > 0 && i >= 0; i--) {
		uint64_t w = set->w[i];

		if (i == (p - 1) / 64 && (p - 1) % 64 < 63)
			w &= (UINT64_C(2) << ((p - 1) % 64)) - 1;
		if (w)
			return i * 64 + 63 - __builtin_clzll(w);
	}
	return -1;
}

/* The index of @c's first waiting thread of priority @prio or below (the
 * queue is in priority order), found by bisection. */
static size_t queue_first_at(const struct cpu *c, int prio)
{
	size_t lo = 0, hi = c->nr_lower;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->lower[mid]->prio > prio)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first waiting thread of priority @prio, by CPU id then queue order,
 * that may move to a CPU of a lower level; *to is that CPU. Called for
 * priorities from the highest down within one search (s->bal_search), it
 * goes on in each CPU's queue where the last call left it. */
static struct thread *rt_movable_at(struct sim *s, int prio, int *to)
{
	int cpu;

	wl_cpuset_for_each(cpu, &s->rt_by_prio[prio]) {
		struct cpu *c = &s->cpus[cpu];
		size_t i;

		if (c->offline)
			continue;
		if (c->bal_search != s->bal_search) {
			c->bal_search = s->bal_search;
			c->bal_next = 0;
		}
		for (i = c->bal_next; i < c->nr_lower && c->lower[i]->prio > prio; i++)
			;
		for (; i < c->nr_lower && c->lower[i]->prio == prio; i++) {
			struct thread *t = c->lower[i];

			if (!t->stranded && (*to = bal_lowest_cpu(s, t)) >= 0)
				return t;
		}
		c->bal_next = i;
	}
	return NULL;
}

/* The highest-priority waiting FIFO/RR thread that has a CPU of a lower
 * level to go to moves there (ties: the lowest CPU id, then queue order;
 * none at or below the lowest level of all can). Returns whether one
 * moved. */
static bool rt_push_one(struct sim *s)
{
	struct thread *best = NULL;
	int to = -1, from;

	s->bal_search++;
	for (int p = prio_below(&s->rt_prios, DLSIM_RT_PRIOS); p > s->bal_floor && !best;
	     p = prio_below(&s->rt_prios, p))
		best = rt_movable_at(s, p, &to);
	if (!best)
		return false;
	from = best->cpu;
	dlsim_lower_move(s, best, to);
	bal_moved(s, from, to);
	return true;
}

/* @c's waiting fair thread that @dst may run and that joined the queue
 * first, or NULL. Fair threads join at the tail (queue_insert() never
 * puts one at the head), so queue order is joining order
 * (dlsim_lower_check() verifies it): the first one found is that one. */
static struct thread *fair_first_for(const struct cpu *c, int dst)
{
	for (size_t i = queue_first_at(c, 0); i < c->nr_lower; i++) {
		struct thread *t = c->lower[i];

		if (!t->stranded && may_use(t, dst))
			return t;
	}
	return NULL;
}

/* A CPU that runs nothing has not picked since a thread joined it (pulled
 * there in this pass): it will run it, and nothing is pulled from it. */
static bool fair_pulls_from(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];

	return !c->offline && c->curr && c->curr->runnable;
}

/* An idle CPU pulls a waiting fair thread it may run from the busiest CPU
 * (ties: the lowest id). Returns whether one moved. */
static bool fair_pull_one(struct sim *s, int dst)
{
	struct thread *pick = NULL;
	unsigned int busiest = 0;
	int from;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];
		struct thread *cand;
		unsigned int load;

		if (cpu == dst || !fair_pulls_from(s, cpu))
			continue;
		load = (unsigned int)c->nr_lower + 1 + s->rqs[cpu].nr_running;
		if (load <= busiest || !(cand = fair_first_for(c, dst)))
			continue;
		busiest = load;
		pick = cand;
	}
	if (!pick)
		return false;
	from = pick->cpu;
	dlsim_lower_move(s, pick, dst);
	/* the FIFO/RR pushes are over: s->bal_lowest is not needed */
	bal_read_cpu(s, from);
	bal_read_cpu(s, dst);
	return true;
}

/* The CPUs that some waiting fair thread fair_pull_one() may take may use:
 * any other CPU pulls nothing. Pulls only shrink the set (a thread moves
 * to an idle CPU, which nothing is pulled from), so it stays a superset. */
static struct wl_cpuset fair_pull_targets(const struct sim *s)
{
	struct wl_cpuset u = { { 0 } };

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];

		if (!fair_pulls_from(s, cpu))
			continue;
		for (size_t i = c->nr_lower; i-- > 0 && c->lower[i]->prio == 0;) {
			const struct thread *t = c->lower[i];

			if (t->stranded)
				continue;
			if (may_use_all(s, t))
				return s->bal_all;
			u = wl_cpuset_or(&u, &t->allowed);
		}
	}
	return u;
}

/* Each idle CPU, by id, pulls one waiting fair thread. The idle CPUs are
 * those of the first key (level 0, idle); one that pulls leaves them, and
 * none joins them (a CPU pulled from runs a thread). */
static bool fair_pull_all(struct sim *s)
{
	const struct wl_cpuset *idle = &s->bal_by_key[0];
	struct wl_cpuset targets;
	bool moved = false, known = false;
	int cpu;

	wl_cpuset_for_each(cpu, idle) {
		if (s->nr_lower_waiting <= s->nr_rt_waiting)
			break;
		if (!known) {
			targets = fair_pull_targets(s);
			known = true;
		}
		if (wl_cpuset_test(&targets, cpu) && fair_pull_one(s, cpu))
			moved = true;
	}
	return moved;
}

/* ---- the reference balancing (sim_options::balance_scan) -------------- */

/* rt_push_one() by scanning every CPU, and lowest_cpu() for each waiting
 * thread: the definition the indexed search must match. */
static bool rt_push_one_scan(struct sim *s)
{
	struct thread *best = NULL;
	int to = -1, floor = LEVEL_DL;

	/* No thread at or below the lowest level of all can move. */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		int lvl = s->cpus[cpu].offline ? LEVEL_DL : cpu_level(s, cpu);

		if (lvl < floor)
			floor = lvl;
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];

		if (c->offline)
			continue;
		for (size_t i = 0; i < c->nr_lower && c->lower[i]->prio > floor; i++) {
			struct thread *t = c->lower[i];
			int k;

			if (best && t->prio <= best->prio)
				break; /* the rest of this CPU is no better */
			if (t->stranded)
				continue;
			k = lowest_cpu(s, t);
			if (k >= 0) {
				best = t;
				to = k;
				break;
			}
		}
	}
	if (!best)
		return false;
	dlsim_lower_move(s, best, to);
	return true;
}

/* fair_pull_one() by scanning every waiting fair thread of every CPU. */
static bool fair_pull_one_scan(struct sim *s, int dst)
{
	struct thread *pick = NULL;
	unsigned int busiest = 0;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];
		struct thread *cand = NULL;
		unsigned int load;

		/* A CPU that runs nothing has not picked since a thread
		 * joined it (pulled there in this pass): it will run it. */
		if (cpu == dst || c->offline || !c->curr || !c->curr->runnable)
			continue;
		for (size_t i = c->nr_lower; i-- > 0 && c->lower[i]->prio == 0;) {
			struct thread *t = c->lower[i];

			if (!t->stranded && may_use(t, dst) &&
			    (!cand || t->queued_seq < cand->queued_seq))
				cand = t;
		}
		if (!cand)
			continue;
		load = (unsigned int)c->nr_lower + (c->curr && c->curr->runnable) +
		       s->rqs[cpu].nr_running;
		if (load > busiest) {
			busiest = load;
			pick = cand;
		}
	}
	if (!pick)
		return false;
	dlsim_lower_move(s, pick, dst);
	return true;
}

static bool balance_scan(struct sim *s)
{
	bool moved = false;

	for (int n = 0; n < s->nr_threads && s->nr_rt_waiting && rt_push_one_scan(s); n++)
		moved = true;
	for (int cpu = 0; cpu < s->nr_cpus && s->nr_lower_waiting > s->nr_rt_waiting; cpu++)
		if (cpu_idle(s, cpu) && fair_pull_one_scan(s, cpu))
			moved = true;
	return moved;
}

/*
 * Move waiting threads of the lower classes to CPUs that can run them
 * now (see the top of the file). Returns whether any moved.
 */
bool dlsim_lower_balance(struct sim *s)
{
	bool moved = false;

	/* Nothing it looks at changed since it last found nothing to do:
	 * the queues, and what each CPU runs (dlsim_cpu_reschedule(), hotplug). */
	if (!s->nr_lower_waiting || s->nr_cpus < 2 || !s->lower_dirty)
		return false;
	s->lower_dirty = false;
	if (s->opt->balance_scan)
		return balance_scan(s);
	bal_refresh(s);
	for (int n = 0; n < s->nr_threads && s->nr_rt_waiting && rt_push_one(s); n++)
		moved = true;
	if (s->nr_lower_waiting > s->nr_rt_waiting && fair_pull_all(s))
		moved = true;
	return moved;
}

/* ---- --check ------------------------------------------------------------ */

/* Checks the subtree @t of @c's fair tree, whose nodes all follow @lo (if
 * any) and precede @hi (if any) in the pick's order; counts its nodes
 * into @n. Returns why it is wrong, or NULL. */
static const char *fair_tree_check(const struct sim *s, const struct cpu *c,
				   const struct thread *t,
				   const struct thread *lo, const struct thread *hi,
				   unsigned int *n)
{
	const char *why;
	uint64_t minv = t->vruntime;

	if (!t->fair_in_tree || !t->fair_queued || t->prio != 0 || t->cpu != c - s->cpus)
		return "a fair tree node is not a waiting fair thread";
	if ((lo && !fair_before(lo, t)) || (hi && !fair_before(t, hi)))
		return "the fair tree is out of (virtual deadline, queue) order";
	if (t->fair_heap != fair_hash(t->queued_seq))
		return "a fair tree node's heap key is stale";
	if (++*n > c->fair_n)
		return "the fair tree has more nodes than the CPU has waiting fair threads";
	if (t->fair_left) {
		if (t->fair_left->fair_heap > t->fair_heap)
			return "the fair tree's heap order is broken";
		if ((why = fair_tree_check(s, c, t->fair_left, lo, t, n)))
			return why;
		minv = vmin(minv, t->fair_left->fair_minv);
	}
	if (t->fair_right) {
		if (t->fair_right->fair_heap > t->fair_heap)
			return "the fair tree's heap order is broken";
		if ((why = fair_tree_check(s, c, t->fair_right, t, hi, n)))
			return why;
		minv = vmin(minv, t->fair_right->fair_minv);
	}
	if (minv != t->fair_minv)
		return "a fair tree node's least vruntime of its subtree is stale";
	return NULL;
}

/* @cpu's incremental fair sums and tree against a recomputation from its
 * queue. */
static const char *fair_check(const struct sim *s, int cpu)
{
	const struct cpu *c = &s->cpus[cpu];
	unsigned int n = 0, in_tree = 0;
	int64_t a = 0, w = 0;
	const char *why;

	for (size_t i = c->nr_lower; i-- > 0 && c->lower[i]->prio == 0;) {
		const struct thread *t = c->lower[i];

		if (!t->fair_queued)
			continue;
		if (!t->fair_in_tree)
			return "a waiting fair thread is not in its CPU's fair tree";
		a += (int64_t)(t->vruntime - c->fair_vref) * (int64_t)t->weight;
		w += t->weight;
		n++;
	}
	if (n != c->fair_n || (n && (w != c->fair_w || a != c->fair_a)))
		return "a CPU's incremental fair sums differ from their recomputation";
	if (c->fair_root && (why = fair_tree_check(s, c, c->fair_root, NULL, NULL, &in_tree)))
		return why;
	if (in_tree != n)
		return "a CPU's fair tree does not hold its waiting fair threads";
	return NULL;
}

/* s->rt_by_prio and s->rt_prios against the queues, recomputed in one
 * walk over the waiting threads (--check runs it at every step). */
static bool rt_index_ok(const struct sim *s)
{
	struct wl_cpuset at[DLSIM_RT_PRIOS];

	memset(at, 0, sizeof(at));
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		for (size_t i = 0; i < s->cpus[cpu].nr_lower; i++) {
			int p = s->cpus[cpu].lower[i]->prio;

			if (p > 0 && p < DLSIM_RT_PRIOS)
				wl_cpuset_set(&at[p], cpu);
		}
	for (int p = 0; p < DLSIM_RT_PRIOS; p++)
		if (!wl_cpuset_equal(&at[p], &s->rt_by_prio[p]) ||
		    wl_cpuset_empty(&at[p]) == wl_cpuset_test(&s->rt_prios, p))
			return false;
	return true;
}

/*
 * A new mark for one check's walk over the queues: a thread whose mark is
 * the current one was met already in this walk. Linear in the queued
 * threads, where comparing every pair took a fuzzed workload of 255
 * forked threads 18.6 s under the fuzz build. False when out of memory.
 */
static bool check_marks_next(struct sim *s)
{
	size_t need = (size_t)s->nr_threads;

	if (need > s->cap_check_marks) {
		size_t cap = need * 2;
		uint32_t *m = calloc(cap, sizeof(*m));

		if (!m)
			return false;
		free(s->check_marks);
		s->check_marks = m;
		s->cap_check_marks = cap;
		s->check_gen = 0;
	}
	if (++s->check_gen == 0) { /* wrapped: forget every mark */
		memset(s->check_marks, 0, s->cap_check_marks * sizeof(uint32_t));
		s->check_gen = 1;
	}
	return true;
}

/* Whether @t was met already in this check's walk; marks it met. */
static bool met_before(struct sim *s, const struct thread *t)
{
	uint32_t *m = &s->check_marks[t->id];

	if (*m == s->check_gen)
		return true;
	*m = s->check_gen;
	return false;
}

/*
 * The invariants the balancing keeps, from their definitions: no waiting
 * FIFO/RR thread may use an online CPU that runs something of a lower
 * level (global fixed priority within affinity), no waiting fair thread
 * may use an idle CPU, and each CPU's fair set is its queued fair threads
 * and its running one.
 */
const char *dlsim_lower_check(struct sim *s)
{
	unsigned int waiting = 0, rt = 0;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		waiting += (unsigned int)s->cpus[cpu].nr_lower;
		for (size_t i = 0; i < s->cpus[cpu].nr_lower; i++)
			rt += s->cpus[cpu].lower[i]->prio > 0;
	}
	if (waiting != s->nr_lower_waiting || rt != s->nr_rt_waiting)
		return "the counts of waiting lower-class threads are off (a priority "
		       "changed while queued?)";
	if (!rt_index_ok(s))
		return "the CPUs where FIFO/RR threads of a priority wait are misindexed";
	if (!check_marks_next(s)) {
		sim_oom(s); /* the run stops at the end of this step */
		return NULL;
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];
		const char *why = fair_check(s, cpu);

		if (why)
			return why;
		for (size_t i = 0; i < c->nr_lower; i++) {
			const struct thread *t = c->lower[i];

			if (t->cpu != cpu || !t->runnable || t->is_dl)
				return "a queued lower-class thread is not runnable on its CPU";
			if (t == c->curr)
				return "a lower-class thread is queued on the CPU that runs it";
			if (met_before(s, t))
				return "a lower-class thread is queued twice";
			if ((t->prio == 0) != t->fair_queued)
				return "a queued thread's fair set membership does not match its class";
			if (i && (c->lower[i - 1]->prio < t->prio ||
				  (t->prio == 0 && c->lower[i - 1]->prio == 0 &&
				   c->lower[i - 1]->queued_seq > t->queued_seq)))
				return "a CPU's queue is out of priority order, or its fair threads "
				       "out of joining order";
			if (c->offline || t->stranded)
				continue;
			for (int k = 0; k < s->nr_cpus; k++) {
				const struct cpu *o = &s->cpus[k];
				int running;

				if (k == cpu || o->offline || !may_use(t, k))
					continue;
				if (!o->curr && !o->nr_lower && !s->rqs[k].nr_running)
					return "a fair or FIFO/RR thread waits while a CPU it may use idles";
				running = !o->curr ? 0 : o->curr->is_dl ? LEVEL_DL : o->curr->prio;
				if (t->prio > 0 && running < t->prio)
					return "a FIFO/RR thread waits while a CPU it may use runs "
					       "something of a lower priority";
			}
		}
	}
	return NULL;
}
