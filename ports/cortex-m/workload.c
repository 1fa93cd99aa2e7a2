/*
 * The workload the port runs under qemu-system-arm (and dlsim, in
 * workload.json): three periodic threads under CBS reservations that
 * need less than their budget, and one ("hog") that needs 6.3 ms of CPU
 * time per 10 ms period on a budget of 2 ms: it is throttled three or
 * four times a job and falls ever further behind, while the others keep
 * every deadline. 6.3 ms is no multiple of the budget, so in this run no
 * job of the hog ends at the instant its budget runs out (a tie a few ns
 * of kernel time would decide). Each job runs `work` ns of CPU time; a thread
 * whose next release is still ahead sleeps until it, one that is late
 * starts its next job at once (rt-app's timer, which dlsim models).
 *
 * The releases are offset so that no two reservations ever share an
 * absolute deadline: the periods are multiples of 10 ms and the offsets
 * differ pairwise by something other than a multiple of 10 ms, so the
 * order of equal deadlines, which a few ns of kernel time could change,
 * never decides anything.
 *
 * Output on UART0, after the run (printing during it would take CPU time
 * from the threads): one line per completed job, per thread, kernel
 * statistics and the cost of the library's calls measured on the target.
 * Exit status (semihosting): 0 when the three threads met every deadline
 * and the hog was throttled, 1 otherwise.
 *
 * A late thread starts its next job at once with its release kept on the
 * period's grid (rt-app's timer in "absolute" mode, as workload.json
 * says), so the releases the port prints are the instants dlsim uses.
 */
#include <dlsched/dlsched.h> /* the umbrella, freestanding */

#include "board.h"
#include "kernel.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SPAN (400 * MS)
#define NR_TASKS 4
#define STACK_WORDS 256
#define MAX_JOBS 512

struct task {
	const char *name;
	uint64_t runtime, period; /* the reservation, D = P */
	uint64_t work, delay;     /* CPU time per job, first release */
	struct k_thread th;
};

static struct task tasks[NR_TASKS] = {
	{ .name = "ctrl", .runtime = 2500 * US, .period = 10 * MS, .work = 2 * MS, .delay = 0 },
	{ .name = "sensor", .runtime = 5 * MS, .period = 20 * MS, .work = 4 * MS, .delay = 3 * MS },
	{ .name = "logger", .runtime = 8 * MS, .period = 40 * MS, .work = 6 * MS, .delay = 7 * MS },
	{ .name = "hog", .runtime = 2 * MS, .period = 10 * MS, .work = 6300 * US, .delay = 5 * MS },
};
#define HOG 3
/* at most one budget-timer latency: an interrupt and a switch, < 2 us */
#define HOG_OVERRUN_MAX (2 * US)

static uint32_t stacks[NR_TASKS][STACK_WORDS] __attribute__((aligned(8)));

struct job {
	uint8_t task;
	uint32_t index;
	uint64_t release, end;
};

static struct job jobs[MAX_JOBS];
static unsigned int nr_jobs, jobs_lost;

/* the cost of library calls on the target, measured before the run */
static uint64_t bench_schedule_ns, bench_mul_cmp_ns, bench_div_ns, bench_loop_ns, bench_mul64_ns;
static uint64_t bench_mul_cmp_big_ns, bench_div_big_ns;
#define BENCH_N 1000u

static void log_job(const struct task *t, uint32_t index, uint64_t release, uint64_t end)
{
	uint32_t m = board_irq_save();

	if (nr_jobs < MAX_JOBS)
		jobs[nr_jobs++] = (struct job){ (uint8_t)(t - tasks), index, release, end };
	else
		jobs_lost++;
	board_irq_restore(m);
}

static void periodic(void *arg)
{
	struct task *t = arg;
	uint64_t release = k_epoch() + t->delay;

	for (uint32_t j = 0;; j++) {
		k_run(t->work);
		log_job(t, j, release, k_now());
		release += t->period;
		if (dls_time_after(release, k_now()))
			k_sleep_until(release);
	}
}

/* ---- measurements on the target -----------------------------------------
 * Under QEMU with -icount shift=0 one instruction takes 1 ns of the
 * board's clock, so a time in ns is an instruction count (to the clock's
 * 40 ns, over BENCH_N calls).
 */
static uint64_t b_now(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	return board_clock_ns();
}

static void b_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	(void)ctx;
	(void)t;
	(void)abs_ns;
}

static void b_cancel(void *ctx, struct dls_timer *t)
{
	(void)ctx;
	(void)t;
}

static void b_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
}

static const struct dls_ops b_ops = {
	.now = b_now, .timer_arm = b_arm, .timer_cancel = b_cancel, .resched = b_resched,
};

/* operands as the CBS wake-up rule sees them (runtime and deadline
 * distances of ms: products below 2^64), and large ones whose products
 * need the 128-bit path */
static volatile uint64_t b_in[4] = { 2500000u, 10000000u, 1900000u, 8000000u };
static volatile uint64_t b_big[4] = { UINT64_C(0x0123456789ABCDEF), 987654321u,
				      UINT64_C(0x00FEDCBA98765432), 1234567u };
static volatile int b_sink;

/* dls_schedule() on a runqueue of four queued reservations whose budgets
 * last the whole measurement: each call charges the current one, puts it
 * back and picks the earliest again. */
static int bench(void)
{
	static struct dls_domain dom;
	static struct dls_rq rq;
	static struct dls_entity se[4];
	struct dls_domain_config cfg;
	uint64_t t0;
	int err;

	dls_domain_config_default(&cfg);
	cfg.bw_limit = DLS_BW_UNLIMITED;
	err = dls_domain_init(&dom, &b_ops, NULL, &cfg, &rq, 1);
	for (int i = 0; i < 4 && !err; i++) {
		struct dls_params p = { .runtime = 1000 * MS, .deadline = (uint64_t)(2000 + i) * MS };

		dls_entity_init(&se[i]);
		err = dls_entity_attach(&rq, &se[i], &p);
		if (!err)
			err = dls_wakeup(&rq, &se[i]);
	}
	if (err)
		return err;
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		__asm__ volatile("" ::: "memory");
	bench_loop_ns = board_clock_ns() - t0;
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		(void)dls_schedule(&rq);
	bench_schedule_ns = board_clock_ns() - t0;
	/* the same loads and a 64-bit product compare (which overflows): what
	 * the loop costs around the 128-bit calls */
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		b_sink = b_in[0] * b_in[1] < b_in[2] * b_in[3];
	bench_mul64_ns = board_clock_ns() - t0;
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		b_sink = dls_u128_mul_cmp(b_in[0], b_in[1], b_in[2], b_in[3]);
	bench_mul_cmp_ns = board_clock_ns() - t0;
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		b_sink = (int)dls_u128_mul_u64_u64_div_u64(b_in[0], b_in[1], b_in[2]);
	bench_div_ns = board_clock_ns() - t0;
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		b_sink = dls_u128_mul_cmp(b_big[0], b_big[1], b_big[2], b_big[3]);
	bench_mul_cmp_big_ns = board_clock_ns() - t0;
	t0 = board_clock_ns();
	for (unsigned int i = 0; i < BENCH_N; i++)
		b_sink = (int)dls_u128_mul_u64_u64_div_u64(b_big[0], b_big[1], b_big[2]);
	bench_div_big_ns = board_clock_ns() - t0;
	return 0;
}

/* ---- the report ----------------------------------------------------------- */

static void put_kv(const char *k, uint64_t v)
{
	board_puts(",");
	board_puts(k);
	board_puts("=");
	board_put_u64(v);
}

static int report(void)
{
	uint64_t e = k_epoch();
	const struct k_stats *st = k_stats();
	int bad = 0;

	for (unsigned int i = 0; i < nr_jobs; i++) {
		const struct job *j = &jobs[i];

		board_puts("job,");
		board_puts(tasks[j->task].name);
		board_puts(",");
		board_put_u64(j->index);
		board_puts(",");
		board_put_u64(j->release - e);
		board_puts(",");
		board_put_u64(j->end - e);
		board_puts("\n");
		/* a job of the three must end by its release + D */
		if (j->task != HOG && dls_time_after(j->end, j->release + tasks[j->task].period))
			bad = 1;
	}
	for (int i = 0; i < NR_TASKS; i++) {
		const struct dls_stats *s = &tasks[i].th.se.stats;

		board_puts("thread,");
		board_puts(tasks[i].name);
		put_kv("jobs_done", s->jobs_done);
		put_kv("misses", s->misses);
		put_kv("throttles", s->throttles);
		put_kv("exec_ns", s->exec_time);
		board_puts("\n");
		if (i != HOG && s->misses)
			bad = 1;
	}
	/* The hog is throttled, and runs no more than its budget in each
	 * period it was released in, plus the one overrun the budget timer's
	 * latency leaves (carried into its next instance, never more). */
	if (!tasks[HOG].th.se.stats.throttles ||
	    tasks[HOG].th.se.stats.exec_time >
		    tasks[HOG].runtime * ((SPAN - tasks[HOG].delay + tasks[HOG].period - 1) /
					  tasks[HOG].period) + HOG_OVERRUN_MAX)
		bad = 1;
	board_puts("kernel");
	put_kv("span_ns", SPAN);
	put_kv("jobs_lost", jobs_lost);
	put_kv("switches", st->switches);
	put_kv("sched_ns", st->sched_ns);
	put_kv("sched_max_ns", st->sched_max);
	put_kv("switch_ns", st->switch_ns);
	put_kv("switch_max_ns", st->switch_max);
	put_kv("irqs", st->irqs);
	put_kv("irq_ns", st->irq_ns);
	put_kv("irq_max_ns", st->irq_max);
	board_puts("\nbench");
	put_kv("calls", BENCH_N);
	put_kv("loop_ns", bench_loop_ns);
	put_kv("schedule_ns", bench_schedule_ns);
	put_kv("mul64_cmp_ns", bench_mul64_ns);
	put_kv("u128_mul_cmp_ns", bench_mul_cmp_ns);
	put_kv("u128_mul_div_ns", bench_div_ns);
	put_kv("u128_mul_cmp_big_ns", bench_mul_cmp_big_ns);
	put_kv("u128_mul_div_big_ns", bench_div_big_ns);
	put_kv("sizeof_entity", sizeof(struct dls_entity));
	put_kv("sizeof_rq", sizeof(struct dls_rq));
	put_kv("sizeof_domain", sizeof(struct dls_domain));
	put_kv("sizeof_k_thread", sizeof(struct k_thread));
	put_kv("math128_backend", DLS_MATH128_BACKEND);
	board_puts("\n");
	board_puts(bad ? "result: FAIL\n" : "result: ok\n");
	return bad;
}

int main(void)
{
	int err = k_init();

	if (!err)
		err = bench();
	for (int i = 0; i < NR_TASKS && !err; i++) {
		struct dls_params p = { .runtime = tasks[i].runtime, .deadline = tasks[i].period };

		err = k_thread_create(&tasks[i].th, tasks[i].name, &p, tasks[i].delay,
				      stacks[i], STACK_WORDS, periodic, &tasks[i]);
	}
	if (err) {
		board_puts("set-up failed: ");
		board_puts(dls_strerror(err));
		board_puts("\n");
		return 2;
	}
	k_start(SPAN, report);
}
