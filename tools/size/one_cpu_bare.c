/*
 * A bare-metal one-CPU program for tools/lib-share-arm.sh: the calls a
 * tick-driven port makes (examples/tick_rtos.c without its stdio), linked
 * with no C library. It is measured, never run.
 */
#include <stddef.h>

#include <dlsched/sched.h>

/* The four functions GCC expects of any freestanding environment. */
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void _start(void);

void *memcpy(void *d, const void *s, size_t n)
{
	char *o = d;
	const char *i = s;

	while (n--)
		*o++ = *i++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	char *o = d;
	const char *i = s;

	if (o < i)
		return memcpy(d, s, n);
	while (n--)
		o[n] = i[n];
	return d;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *o = d;

	while (n--)
		*o++ = (unsigned char)c;
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

static volatile uint64_t ticks_ns;
static struct dls_timer *armed;

static uint64_t bare_now(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
	return ticks_ns;
}

static void bare_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	(void)ctx;
	(void)abs_ns;
	armed = t;
}

static void bare_cancel(void *ctx, struct dls_timer *t)
{
	(void)ctx;
	if (armed == t)
		armed = NULL;
}

static void bare_resched(void *ctx, int cpu)
{
	(void)ctx;
	(void)cpu;
}

static const struct dls_ops ops = {
	.now = bare_now,
	.timer_arm = bare_arm,
	.timer_cancel = bare_cancel,
	.resched = bare_resched,
};

static struct dls_domain dom;
static struct dls_rq rq;
static struct dls_entity se;

void _start(void)
{
	struct dls_params p = { .runtime = 2000000, .deadline = 10000000 };

	dls_domain_init(&dom, &ops, NULL, NULL, &rq, 1);
	dls_entity_init(&se);
	dls_entity_attach(&rq, &se, &p);
	for (;;) {
		ticks_ns += 1000000;
		if (armed)
			dls_timer_expired(armed);
		dls_tick(&rq);
		if (!se.runnable)
			dls_wakeup(&rq, &se);
		if (dls_schedule(&rq) == &se && (ticks_ns & 0x100000))
			dls_dequeue(&rq, &se, DLS_DEQUEUE_DONE);
	}
}
