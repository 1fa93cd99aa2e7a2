/*
 * A deterministic platform for tests: a clock set by hand, timers fired by
 * hand, reschedule requests counted and trace events recorded.
 */
#ifndef FAKE_PLATFORM_H
#define FAKE_PLATFORM_H

#include <dlsched/sched.h>

#define FAKE_MAX_TIMERS 4096
#define FAKE_MAX_EVENTS 256
#define FAKE_MAX_CPUS 64

struct fake_platform {
	uint64_t now;
	struct dls_timer *timers[FAKE_MAX_TIMERS];
	unsigned int nr_timers;
	unsigned int arms, cancels;
	unsigned int resched;          /* resched requests, all CPUs */
	bool need_resched[FAKE_MAX_CPUS]; /* per CPU, cleared by the test */
	struct dls_trace_event events[FAKE_MAX_EVENTS]; /* the first ones */
	unsigned int nr_events;        /* total, may exceed FAKE_MAX_EVENTS */
	uint64_t trace_hash;           /* hash of every event, in order */
	bool record;                   /* record events (trace op installed) */
};

extern const struct dls_ops fake_ops;        /* with trace */
extern const struct dls_ops fake_ops_notrace;

void fake_init(struct fake_platform *fp, uint64_t start);
/* Earliest armed timer's expiry; false when none is armed. */
bool fake_next_timer(const struct fake_platform *fp, uint64_t *when);
/* Fire, earliest first, every timer due at fp->now; returns how many. */
unsigned int fake_fire_due(struct fake_platform *fp);
/* Whether a timer is armed on the platform. */
bool fake_timer_armed(const struct fake_platform *fp, const struct dls_timer *t);
/* Count recorded events of a type (among the first FAKE_MAX_EVENTS). */
unsigned int fake_count(const struct fake_platform *fp, enum dls_trace_type type);
/* Whether @cpu was asked to reschedule since the last call; clears the flag. */
bool fake_take_resched(struct fake_platform *fp, int cpu);

#endif
