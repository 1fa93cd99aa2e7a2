/*
 * The kernel (kernel.h): timers, the platform ops, threads and the
 * context switch.
 *
 * Locking: one CPU, so the runqueue lock is interrupt masking. Every call
 * into the library is made where nothing else that touches the kernel
 * can run: in the timer interrupt (priority 0; only SysTick shares that
 * level, and it only counts wraps), in the switch (PendSV, at the lowest
 * priority, which sets PRIMASK for its C part) and in the threads' calls
 * (PRIMASK). No handler that touches the kernel nests in another, so an
 * event's instant (k.stamp) is never overwritten while it is in use.
 *
 * Timers: armed k_timers sit in a red-black tree ordered by expiry (equal
 * expiries in the order they were armed: the tree puts a node right of
 * its equals), and the hardware timer is programmed for the leftmost.
 * The interrupt fires every timer whose expiry is not after the event's
 * instant; a timer never fires early, because the hardware counts at
 * least the ceiling of the delay in whole ticks from a clock read taken
 * before it was programmed.
 */
#include "kernel.h"

#include "board.h"

#define K_MAX_THREADS 8
#define K_IDLE_WORDS 512

struct kernel {
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_rb_root_cached timers;
	struct k_timer budget;  /* the running entity's budget (HRTICK) */
	struct k_timer stop;    /* the end of the run */
	struct k_thread *curr;  /* NULL: the idle loop */
	struct k_thread idle;   /* the idle loop's saved stack pointer */
	struct k_thread *threads[K_MAX_THREADS];
	int nr_threads;
	bool in_event;          /* k.stamp is the library's now() */
	bool in_timer_irq;      /* the interrupt programs the timer at its end */
	bool stopping;
	uint64_t stamp;         /* the instant the current event began */
	uint64_t epoch;         /* k_start()'s instant */
	int (*report)(void);
	struct k_stats st;
};

static struct kernel k;
static uint32_t idle_stack[K_IDLE_WORDS] __attribute__((aligned(8)));

/* A call that cannot fail in a correct port: stop the run and say where. */
static void k_check(int err, const char *what)
{
	if (err) {
		board_puts("kernel: ");
		board_puts(what);
		board_puts(": ");
		board_puts(dls_errname(err));
		board_puts("\n");
		board_exit(70);
	}
}

static void event_begin(void)
{
	k.stamp = board_clock_ns();
	k.in_event = true;
}

/* @t stops accruing CPU time at this event's instant: it is switched out,
 * blocks, or is throttled. The library charges an entity only while it is
 * queued (as Linux's update_curr_dl() charges only a task on the deadline
 * runqueue), so the kernel time between a throttle and the switch that
 * follows is nobody's, on both sides. */
static void accrue_stop(struct k_thread *t)
{
	if (t->accruing) {
		t->exec_ns += k.stamp - t->run_start;
		t->accruing = false;
	}
}

/* ---- timers ------------------------------------------------------------ */

static bool timer_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	return dls_time_before(dls_container_of(a, struct k_timer, node)->expires,
			       dls_container_of(b, struct k_timer, node)->expires);
}

/* Program the hardware for the earliest timer (or stop it). */
static void timer_program(void)
{
	struct dls_rb_node *first = dls_rb_first_cached(&k.timers);
	uint64_t now, d;

	if (!first) {
		board_timer_stop();
		return;
	}
	now = board_clock_ns();
	d = dls_container_of(first, struct k_timer, node)->expires - now;
	if ((int64_t)d <= 0) {
		board_timer_stop();
		board_timer_pend();
		return;
	}
	d = (d + BOARD_NS_PER_TICK - 1) / BOARD_NS_PER_TICK;
	/* a delay beyond the 32-bit counter comes back early and is
	 * programmed again for what is left */
	board_timer_program(d > UINT32_MAX ? UINT32_MAX : (uint32_t)d);
}

static void timer_cancel(struct k_timer *t)
{
	bool first;

	if (!dls_rb_node_on_tree(&t->node))
		return;
	first = dls_rb_first_cached(&k.timers) == &t->node;
	dls_rb_erase_cached(&t->node, &k.timers);
	dls_rb_node_init(&t->node);
	if (first && !k.in_timer_irq)
		timer_program();
}

static void timer_arm(struct k_timer *t, uint64_t abs)
{
	timer_cancel(t);
	t->expires = abs;
	if (dls_rb_add_cached(&t->node, &k.timers, timer_less) && !k.in_timer_irq)
		timer_program();
}

static void timer_init(struct k_timer *t, void (*fire)(struct k_timer *))
{
	dls_rb_node_init(&t->node);
	t->fire = fire;
}

/* Timer 0's interrupt: fire what is due at this instant. */
void k__timer_irq(void);
void k__timer_irq(void)
{
	struct dls_rb_node *n;
	uint64_t end;

	board_timer_ack();
	event_begin();
	k.in_timer_irq = true;
	while ((n = dls_rb_first_cached(&k.timers)) &&
	       !dls_time_after(dls_container_of(n, struct k_timer, node)->expires, k.stamp)) {
		struct k_timer *t = dls_container_of(n, struct k_timer, node);

		dls_rb_erase_cached(n, &k.timers);
		dls_rb_node_init(n);
		t->fire(t);
	}
	k.in_timer_irq = false;
	timer_program();
	if (!k.curr && k.rq.nr_running)
		board_pend_switch(); /* the idle loop picks */
	k.in_event = false;
	end = board_clock_ns();
	k.st.irqs++;
	k.st.irq_ns += end - k.stamp;
	if (end - k.stamp > k.st.irq_max)
		k.st.irq_max = end - k.stamp;
}

/* ---- the platform ops ---------------------------------------------------- */

static uint64_t op_now(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	return k.in_event ? k.stamp : board_clock_ns();
}

static struct k_timer *lib_timer(struct dls_timer *t)
{
	struct k_thread *th = dls_container_of(dls_timer_entity(t), struct k_thread, se);

	return t->zero_lag ? &th->zero_lag : &th->repl;
}

static void op_timer_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	(void)ctx;
	timer_arm(lib_timer(t), abs_ns);
}

static void op_timer_cancel(void *ctx, struct dls_timer *t)
{
	(void)ctx;
	timer_cancel(lib_timer(t));
}

static void op_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	board_pend_switch();
}

static const struct dls_ops k_ops = {
	.now = op_now,
	.timer_arm = op_timer_arm,
	.timer_cancel = op_timer_cancel,
	.resched = op_resched,
};

static void fire_repl(struct k_timer *t)
{
	dls_timer_expired(&dls_container_of(t, struct k_thread, repl)->se.timer);
}

static void fire_zero_lag(struct k_timer *t)
{
	dls_timer_expired(&dls_container_of(t, struct k_thread, zero_lag)->se.inactive_timer);
}

static void fire_wake(struct k_timer *t)
{
	k_check(dls_wakeup(&k.rq, &dls_container_of(t, struct k_thread, wake)->se),
		"dls_wakeup");
}

/* The running entity's budget is spent: charge it (the library throttles
 * it and asks for a switch), and switch in any case, which arms the timer
 * again for an entity the charge left running. */
static void fire_budget(struct k_timer *t)
{
	(void)t;
	dls_tick(&k.rq);
	if (k.curr && k.curr->se.throttled)
		accrue_stop(k.curr);
	board_pend_switch();
}

static void fire_stop(struct k_timer *t)
{
	(void)t;
	k.stopping = true;
	board_pend_switch();
}

/* ---- the context switch ---------------------------------------------------
 * PendSV saves r4-r11 on the running thread's stack (the hardware saved
 * r0-r3, r12, lr, pc and xPSR there on entry), asks k__switch() for the
 * stack pointer of the thread to run, and restores the same from it.
 */
uint32_t *k__switch(uint32_t *sp);
uint32_t *k__switch(uint32_t *sp)
{
	uint32_t m = board_irq_save();
	struct k_thread *next = NULL;
	struct dls_entity *se = NULL;
	uint64_t t0, t1, end;

	(k.curr ? k.curr : &k.idle)->sp = sp;
	event_begin();
	if (k.curr)
		accrue_stop(k.curr);
	t0 = board_clock_ns();
	if (!k.stopping)
		se = dls_schedule(&k.rq);
	t1 = board_clock_ns();
	if (se) {
		next = dls_container_of(se, struct k_thread, se);
		next->run_start = k.stamp;
		next->accruing = true;
		timer_arm(&k.budget, k.stamp + dls_budget_ns(&k.rq, se));
	} else {
		timer_cancel(&k.budget);
	}
	k.curr = next;
	k.in_event = false;
	end = board_clock_ns();
	k.st.switches++;
	k.st.sched_ns += t1 - t0;
	if (t1 - t0 > k.st.sched_max)
		k.st.sched_max = t1 - t0;
	k.st.switch_ns += end - k.stamp;
	if (end - k.stamp > k.st.switch_max)
		k.st.switch_max = end - k.stamp;
	board_irq_restore(m);
	return (next ? next : &k.idle)->sp;
}

__attribute__((naked)) void k__pendsv(void);
void k__pendsv(void)
{
	__asm__ volatile(
		"mrs r0, psp\n\t"
		"stmdb r0!, {r4-r11}\n\t"
		"push {r3, lr}\n\t" /* r3 keeps the main stack 8-byte aligned */
		"bl k__switch\n\t"
		"pop {r3, lr}\n\t"
		"ldmia r0!, {r4-r11}\n\t"
		"msr psp, r0\n\t"
		"bx lr\n\t");
}

/* ---- threads ----------------------------------------------------------- */

static void thread_returned(void)
{
	board_puts("kernel: a thread returned\n");
	board_exit(71);
}

int k_init(void)
{
	board_init();
	dls_rb_root_cached_init(&k.timers);
	timer_init(&k.budget, fire_budget);
	timer_init(&k.stop, fire_stop);
	return dls_domain_init(&k.dom, &k_ops, &k, NULL, &k.rq, 1);
}

int k_thread_create(struct k_thread *t, const char *name, const struct dls_params *p,
		    uint64_t first_release, uint32_t *stack, size_t words,
		    void (*fn)(void *), void *arg)
{
	/* the exception frame at an 8-byte aligned top, r4-r11 under it */
	uint32_t *top = (uint32_t *)((uintptr_t)(stack + words) & ~(uintptr_t)7);
	uint32_t *frame = top - 16;
	int err;

	if (k.nr_threads == K_MAX_THREADS)
		return DLS_ENOMEM;
	dls_entity_init(&t->se);
	err = dls_entity_attach(&k.rq, &t->se, p);
	if (err)
		return err;
	for (int i = 0; i < 16; i++)
		frame[i] = 0;
	frame[8] = (uint32_t)(uintptr_t)arg;                  /* r0 */
	frame[13] = (uint32_t)(uintptr_t)thread_returned;     /* lr */
	frame[14] = (uint32_t)(uintptr_t)fn & ~1u;            /* pc */
	frame[15] = 0x01000000u;                              /* xPSR: Thumb */
	t->sp = frame;
	t->name = name;
	t->exec_ns = 0;
	timer_init(&t->repl, fire_repl);
	timer_init(&t->zero_lag, fire_zero_lag);
	timer_init(&t->wake, fire_wake);
	t->wake.expires = first_release;
	k.threads[k.nr_threads++] = t;
	return 0;
}

/*
 * The idle loop spins instead of waiting in WFI: under -icount with
 * sleep=off, QEMU 7.2 ends a WFI up to a millisecond after the timer's
 * instant (measured: a wake-up due at 3 ms came at 3.998 ms), which would
 * move every release that finds the CPU idle; spinning, time advances
 * with the instructions and the timer fires on its tick.
 */
static void idle_loop(void)
{
	board_irq_restore(0); /* on the process stack now: let the timer in */
	for (;;) {
		uint32_t m = board_irq_save();

		if (k.stopping && !k.curr)
			board_exit(k.report());
		board_irq_restore(m);
	}
}

/* Continue in thread mode on the process stack @top, running @fn. */
__attribute__((naked, noreturn)) static void run_on_psp(uint32_t *top, void (*fn)(void))
{
	(void)top;
	(void)fn;
	__asm__ volatile(
		"msr psp, r0\n\t"
		"movs r2, #2\n\t" /* CONTROL.SPSEL: the process stack */
		"msr control, r2\n\t"
		"isb\n\t"
		"bx r1\n\t");
}

void k_start(uint64_t span, int (*report)(void))
{
	board_irq_save();
	k.report = report;
	event_begin();
	k.epoch = k.stamp;
	for (int i = 0; i < k.nr_threads; i++)
		timer_arm(&k.threads[i]->wake, k.epoch + k.threads[i]->wake.expires);
	timer_arm(&k.stop, k.epoch + span);
	k.in_event = false;
	run_on_psp(idle_stack + K_IDLE_WORDS, idle_loop);
}

uint64_t k_epoch(void)
{
	return k.epoch;
}

uint64_t k_now(void)
{
	return board_clock_ns();
}

uint64_t k_exec(void)
{
	uint32_t m = board_irq_save();
	uint64_t e = k.curr->exec_ns;

	if (k.curr->accruing)
		e += board_clock_ns() - k.curr->run_start;

	board_irq_restore(m);
	return e;
}

void k_run(uint64_t ns)
{
	uint64_t until = k_exec() + ns;

	while (k_exec() < until)
		;
}

void k_sleep_until(uint64_t abs)
{
	uint32_t m = board_irq_save();

	event_begin();
	k_check(dls_dequeue(&k.rq, &k.curr->se, DLS_DEQUEUE_DONE), "dls_dequeue");
	accrue_stop(k.curr);
	timer_arm(&k.curr->wake, abs);
	board_pend_switch();
	k.in_event = false;
	board_irq_restore(m);
	__asm__ volatile("isb"); /* the switch happens here */
}

struct k_thread *k_self(void)
{
	return k.curr;
}

const struct k_stats *k_stats(void)
{
	return &k.st;
}

struct dls_rq *k_rq(void)
{
	return &k.rq;
}
