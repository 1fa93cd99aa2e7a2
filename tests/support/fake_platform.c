#include "fake_platform.h"

#include <string.h>

static uint64_t fake_now(void *ctx, int cpu)
{
	(void)cpu;
	return ((struct fake_platform *)ctx)->now;
}

static int find_timer(const struct fake_platform *fp, const struct dls_timer *t)
{
	for (unsigned int i = 0; i < fp->nr_timers; i++)
		if (fp->timers[i] == t)
			return (int)i;
	return -1;
}

static void remove_at(struct fake_platform *fp, int i)
{
	fp->timers[i] = fp->timers[--fp->nr_timers];
}

static void fake_arm(void *ctx, struct dls_timer *t, uint64_t abs_ns)
{
	struct fake_platform *fp = ctx;

	(void)abs_ns;
	fp->arms++;
	if (find_timer(fp, t) < 0 && fp->nr_timers < FAKE_MAX_TIMERS)
		fp->timers[fp->nr_timers++] = t;
}

static void fake_cancel(void *ctx, struct dls_timer *t)
{
	struct fake_platform *fp = ctx;
	int i = find_timer(fp, t);

	fp->cancels++;
	if (i >= 0)
		remove_at(fp, i);
}

static void fake_resched(void *ctx, int cpu)
{
	struct fake_platform *fp = ctx;

	fp->resched++;
	if (cpu >= 0 && cpu < FAKE_MAX_CPUS)
		fp->need_resched[cpu] = true;
}

static void fake_trace(void *ctx, const struct dls_trace_event *ev)
{
	struct fake_platform *fp = ctx;
	uint64_t h = fp->trace_hash;

	if (fp->nr_events < FAKE_MAX_EVENTS)
		fp->events[fp->nr_events] = *ev;
	fp->nr_events++;
	/* FNV-1a over the event's content (not its pointer). */
	uint64_t words[5] = { (uint64_t)ev->type, (uint64_t)ev->cpu, ev->now,
			      ev->deadline, (uint64_t)ev->runtime };
	for (int i = 0; i < 5; i++) {
		h ^= words[i];
		h *= 0x100000001b3ULL;
	}
	fp->trace_hash = h;
}

const struct dls_ops fake_ops = {
	.now = fake_now,
	.timer_arm = fake_arm,
	.timer_cancel = fake_cancel,
	.resched = fake_resched,
	.trace = fake_trace,
};

const struct dls_ops fake_ops_notrace = {
	.now = fake_now,
	.timer_arm = fake_arm,
	.timer_cancel = fake_cancel,
	.resched = fake_resched,
};

void fake_init(struct fake_platform *fp, uint64_t start)
{
	memset(fp, 0, sizeof(*fp));
	fp->now = start;
	fp->trace_hash = 0xcbf29ce484222325ULL;
}

bool fake_next_timer(const struct fake_platform *fp, uint64_t *when)
{
	bool any = false;

	for (unsigned int i = 0; i < fp->nr_timers; i++) {
		uint64_t e = fp->timers[i]->expires;

		if (!any || dls_time_before(e, *when))
			*when = e;
		any = true;
	}
	return any;
}

unsigned int fake_fire_due(struct fake_platform *fp)
{
	unsigned int fired = 0;

	for (;;) {
		int best = -1;

		for (unsigned int i = 0; i < fp->nr_timers; i++) {
			uint64_t e = fp->timers[i]->expires;

			if (dls_time_after(e, fp->now))
				continue;
			if (best < 0 || dls_time_before(e, fp->timers[best]->expires))
				best = (int)i;
		}
		if (best < 0)
			return fired;
		struct dls_timer *t = fp->timers[best];

		remove_at(fp, best);
		dls_timer_expired(t);
		fired++;
	}
}

bool fake_timer_armed(const struct fake_platform *fp, const struct dls_timer *t)
{
	return find_timer(fp, t) >= 0;
}

unsigned int fake_count(const struct fake_platform *fp, enum dls_trace_type type)
{
	unsigned int n = 0, lim = fp->nr_events < FAKE_MAX_EVENTS ?
					  fp->nr_events : FAKE_MAX_EVENTS;

	for (unsigned int i = 0; i < lim; i++)
		n += fp->events[i].type == type;
	return n;
}

bool fake_take_resched(struct fake_platform *fp, int cpu)
{
	bool was = fp->need_resched[cpu];

	fp->need_resched[cpu] = false;
	return was;
}
