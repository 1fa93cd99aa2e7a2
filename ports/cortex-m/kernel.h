/*
 * A small preemptive kernel for one Cortex-M3 with libdlsched as its
 * scheduler. Threads are deadline entities under CBS reservations; the
 * library decides which one runs and when a budget is spent, the kernel
 * supplies the platform: a 64-bit clock (board.h), one-shot timers kept
 * in a red-black tree and multiplexed on one hardware timer, the
 * runqueue lock (interrupts masked: one CPU) and the context switch
 * (PendSV, requested by the library's resched op).
 *
 * Time is the board's clock in ns. While the kernel handles one event (an
 * interrupt, a thread's call, a context switch) the library's now() is the
 * instant the event began, read once, as Linux reads its runqueue clock
 * once per event (update_rq_clock()); so the wake-ups one timer interrupt
 * delivers share one instant, as they would in dlsim's virtual time.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include <dlsched/sched.h>

/** A one-shot timer of the kernel: a node of its timer tree. */
struct k_timer {
	struct dls_rb_node node;        /* on the tree while armed */
	uint64_t expires;               /* absolute, ns */
	void (*fire)(struct k_timer *); /* called with interrupts masked */
};

/** A thread: its saved stack pointer first (the switch code reads it). */
struct k_thread {
	uint32_t *sp;            /* saved PSP while not running */
	struct dls_entity se;    /* its reservation */
	struct k_timer repl;     /* the library's replenishment timer */
	struct k_timer zero_lag; /* the library's 0-lag timer (GRUB) */
	struct k_timer wake;     /* the end of a k_sleep_until() */
	uint64_t exec_ns;        /* CPU time until it last stopped running */
	uint64_t run_start;      /* when it last started running */
	bool accruing;           /* exec_ns grows from run_start on */
	const char *name;
};

/** Kernel statistics, read after the run. */
struct k_stats {
	uint64_t switches;     /* scheduling decisions (PendSV runs) */
	uint64_t sched_ns;     /* time in their dls_schedule() calls */
	uint64_t sched_max;    /* the longest of those */
	uint64_t switch_ns;    /* time in the switches' C part (the decision,
				  the budget timer, the accounting) */
	uint64_t switch_max;   /* the longest */
	uint64_t irqs;         /* timer interrupts */
	uint64_t irq_ns;       /* time in them */
	uint64_t irq_max;      /* the longest */
};

/** Set up the board and a one-CPU domain with the default configuration.
 *  @return 0 or a DLS_E* code of dls_domain_init(). */
int k_init(void);
/**
 * Create a thread under reservation @p p (admission control applies), to
 * be woken first @p first_release ns after k_start(), running fn(arg) on
 * @p stack (@p words 32-bit words).
 * @return 0 or the DLS_E* code of dls_entity_attach().
 */
int k_thread_create(struct k_thread *t, const char *name, const struct dls_params *p,
		    uint64_t first_release, uint32_t *stack, size_t words,
		    void (*fn)(void *), void *arg);
/** Start scheduling; after @p span ns stop, call @p report on the main
 *  stack with interrupts masked and exit with its return value. */
void k_start(uint64_t span, int (*report)(void)) __attribute__((noreturn));
/** The instant k_start() started (releases count from it), ns. */
uint64_t k_epoch(void);
/** The clock, ns. */
uint64_t k_now(void);
/** The calling thread's CPU time, ns, as the library charges it: from the
 *  decision that picked it to the one that stopped it, or to the event
 *  that throttled it. */
uint64_t k_exec(void);
/** Run (busy) until the calling thread has had @p ns more CPU time. */
void k_run(uint64_t ns);
/** The calling thread's job is done: sleep until @p abs (ns) and wake
 *  there (the CBS wake-up rule applies). */
void k_sleep_until(uint64_t abs);
/** The running thread, NULL in the idle loop. */
struct k_thread *k_self(void);
/** The kernel's statistics. */
const struct k_stats *k_stats(void);
/** The runqueue (for reading statistics after the run). */
struct dls_rq *k_rq(void);

#endif /* KERNEL_H */
