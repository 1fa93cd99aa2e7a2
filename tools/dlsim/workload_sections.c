/*
 * The workload's sections beside rt-app's tasks: global (rt-app's),
 * platform and simulation (dlsim's); `dlsim --help` lists their keys.
 */
#include "workload_impl.h"

#include <stdio.h>
#include <string.h>

/* One hotplug entry {"cpu": N, "at_us": T, "online": bool} into @h; false
 * when it names no CPU. */
static bool parse_hotplug_entry(struct ctx *c, const struct json_value *e,
				struct wl_hotplug *h)
{
	int64_t v;

	memset(h, 0, sizeof(*h));
	if (e->type != JSON_OBJECT) {
		VDIAG(c, true, e, "a hotplug entry must be an object "
		      "{\"cpu\": N, \"at_us\": T, \"online\": bool}");
		return false;
	}
	h->cpu = -1;
	for (size_t j = 0; j < e->len; j++) {
		const struct json_member *f = &e->members[j];

		if (!strcmp(f->key, "cpu") && dlsim_get_int(c, f, 0, WL_MAX_CPUS - 1, &v))
			h->cpu = (int)v;
		else if (!strcmp(f->key, "at_us"))
			dlsim_get_int(c, f, 0, INT64_MAX / 1000, &h->at_us);
		else if (!strcmp(f->key, "online") && dlsim_want_type(c, f, JSON_BOOL))
			h->online = f->value->boolean;
		else if (strcmp(f->key, "cpu") && strcmp(f->key, "at_us") &&
			 strcmp(f->key, "online"))
			dlsim_diag(c, true, f->line, f->col, "unknown key \"%s\" in hotplug entry",
			     f->key);
	}
	return h->cpu >= 0;
}

/* simulation.hotplug: a repeated key (or section) adds its events to the
 * ones before, in file order. */
static void parse_hotplug(struct ctx *c, const struct json_member *m)
{
	struct workload *w = c->w;
	const struct json_value *a = m->value;
	struct wl_hotplug *old = w->hotplug;

	if (!dlsim_want_type(c, m, JSON_ARRAY))
		return;
	w->hotplug = wl_alloc(c, (w->nr_hotplug + a->len) * sizeof(*w->hotplug));
	if (!w->hotplug) {
		w->hotplug = old;
		return;
	}
	if (w->nr_hotplug)
		memcpy(w->hotplug, old, w->nr_hotplug * sizeof(*w->hotplug));
	for (size_t k = 0; k < a->len; k++)
		w->nr_hotplug += parse_hotplug_entry(c, a->items[k], &w->hotplug[w->nr_hotplug]);
}


void dlsim_parse_global(struct ctx *c, const struct json_value *g)
{
	static const char *const ignored[] = {
		"calibration", "logdir", "log_basename", "lock_pages", "ftrace",
		"gnuplot", "io_device", "mem_buffer_size", "cumulative_slack", "log_size",
	};

	for (size_t i = 0; i < g->len; i++) {
		const struct json_member *m = &g->members[i];
		bool known = false;

		if (!strcmp(m->key, "duration")) {
			dlsim_get_int(c, m, -1, INT64_MAX / 1000000000, &c->w->duration_s);
			continue;
		}
		if (!strcmp(m->key, "default_policy")) {
			dlsim_parse_policy(c, m, &c->w->default_policy);
			continue;
		}
		if (!strcmp(m->key, "pi_enabled")) {
			if (dlsim_want_type(c, m, JSON_BOOL))
				c->w->pi_enabled = m->value->boolean;
			continue;
		}
		for (size_t k = 0; k < sizeof(ignored) / sizeof(ignored[0]); k++)
			known |= !strcmp(m->key, ignored[k]);
		if (!known)
			dlsim_diag(c, false, m->line, m->col,
			     "unknown key \"%s\" in global (rt-app ignores it)", m->key);
	}
}

static double get_number(struct ctx *c, const struct json_member *m, double min, double max)
{
	if (dlsim_bare_key(c, m))
		return min;
	if (m->value->type != JSON_NUMBER) {
		VDIAG(c, true, m->value, "\"%s\" must be a number, not %s", m->key,
		      json_type_name(m->value->type));
		return min;
	}
	if (m->value->number < min || m->value->number > max) {
		VDIAG(c, true, m->value, "\"%s\" = %g is out of range [%g, %g]", m->key,
		      m->value->number, min, max);
		return min;
	}
	return m->value->number;
}

/*
 * A "capacity" list that disagrees with the CPU count: longer than "cpus"
 * is an error; shorter leaves CPUs at 1024 (unless a cluster gives theirs),
 * said in a warning.
 */
static void check_capacity(struct ctx *c, const struct json_member *cap, int64_t cpus,
			   const struct wl_cpuset *given)
{
	int n = c->w->nr_cpus, first = -1, last = -1;
	char which[32];

	if (cpus && (int64_t)cap->value->len > cpus) {
		VDIAG(c, true, cap->value, "\"capacity\" lists %zu CPUs but \"cpus\" is %lld",
		      cap->value->len, (long long)cpus);
		return;
	}
	for (int cpu = 0; cpu < n; cpu++)
		if (!wl_cpuset_test(given, cpu)) {
			first = first < 0 ? cpu : first;
			last = cpu;
		}
	if (first < 0)
		return;
	if (first == last)
		snprintf(which, sizeof(which), "CPU %d runs", first);
	else
		snprintf(which, sizeof(which), "CPUs %d-%d run", first, last);
	VDIAG(c, false, cap->value, "\"capacity\" lists %zu of the %d CPUs: %s at 1024 "
	      "(full speed)", cap->value->len, n, which);
}

/*
 * platform.tick_phase_us: where the ticks fall, phase + k * period (a
 * number of us in [0, period)), or "random": drawn once per run from the
 * simulation seed. Needs tick_hz; any other value is refused.
 */
static void parse_tick_phase(struct ctx *c, const struct json_member *m)
{
	struct workload *w = c->w;
	const struct json_value *v = m->value;
	double period_us = w->tick_hz > 0 ? 1e6 / (double)w->tick_hz : 0;

	if (w->tick_hz <= 0) {
		VDIAG(c, true, v, "\"tick_phase_us\" needs \"tick_hz\" (without it budgets "
		      "are enforced exactly and there are no ticks)");
		return;
	}
	if (v->type == JSON_STRING && !strcmp(v->string, "random")) {
		w->tick_phase_random = true;
		return;
	}
	if (v->type != JSON_NUMBER || !(v->number >= 0) || !(v->number < period_us) ||
	    v->number != (double)(int64_t)v->number) {
		VDIAG(c, true, v, "\"tick_phase_us\" must be a whole number of us in [0, %.0f) "
		      "(the tick period at tick_hz %lld) or \"random\"", period_us,
		      (long long)w->tick_hz);
		return;
	}
	w->tick_phase_ns = (uint64_t)v->number * 1000;
}

/*
 * platform.fair_server: { "runtime_us", "period_us", "defer", "serve" },
 * one deadline server per CPU for the lower classes. The defaults are
 * Linux's fair server (50 ms every 1 s, deferred: kernel/sched/deadline.c,
 * 6.12+); the summary prints what was used.
 */
static void parse_fair_server(struct ctx *c, const struct json_member *m)
{
	struct wl_fair_server *fs = &c->w->fair_server;
	int64_t v;

	if (!dlsim_want_type(c, m, JSON_OBJECT))
		return;
	*fs = (struct wl_fair_server){ .on = true, .runtime_us = 50000, .period_us = 1000000,
				       .defer = true, .line = m->line, .col = m->col };
	for (size_t i = 0; i < m->value->len; i++) {
		const struct json_member *f = &m->value->members[i];

		if (!strcmp(f->key, "runtime_us")) {
			if (dlsim_get_int(c, f, 1, INT64_MAX / 1000, &v))
				fs->runtime_us = (uint64_t)v;
		} else if (!strcmp(f->key, "period_us")) {
			if (dlsim_get_int(c, f, 1, INT64_MAX / 1000, &v))
				fs->period_us = (uint64_t)v;
		} else if (!strcmp(f->key, "defer")) {
			if (dlsim_want_type(c, f, JSON_BOOL))
				fs->defer = f->value->boolean;
		} else if (!strcmp(f->key, "serve")) {
			const char *sv = f->value->type == JSON_STRING ? f->value->string : "";

			if (!strcmp(sv, "fair"))
				fs->serve = WL_SERVE_FAIR;
			else if (!strcmp(sv, "rt"))
				fs->serve = WL_SERVE_RT;
			else
				VDIAG(c, true, f->value, "\"serve\" must be \"fair\" (SCHED_OTHER, "
				      "BATCH, IDLE, as Linux) or \"rt\" (the SCHED_FIFO/RR threads "
				      "as a group)");
		} else {
			dlsim_diag(c, true, f->line, f->col, "unknown key \"%s\" in fair_server "
				   "(expected runtime_us, period_us, defer, serve)", f->key);
		}
	}
	if (fs->runtime_us > fs->period_us)
		dlsim_diag(c, true, m->line, m->col, "fair_server: runtime_us %llu exceeds "
			   "period_us %llu", (unsigned long long)fs->runtime_us,
			   (unsigned long long)fs->period_us);
}

void dlsim_parse_platform(struct ctx *c, const struct json_value *p)
{
	struct workload *w = c->w;
	const struct json_member *cap_m = NULL, *phase_m = NULL;
	struct wl_cpuset cap_given = { { 0 } };
	int64_t v, cpus = 0;

	for (size_t i = 0; i < p->len; i++) {
		const struct json_member *m = &p->members[i];

		if (!strcmp(m->key, "cpus")) {
			if (dlsim_get_int(c, m, 1, WL_MAX_CPUS, &v))
				w->nr_cpus = (int)(cpus = v);
		} else if (!strcmp(m->key, "capacity")) {
			const struct json_value *a = m->value;

			if (!dlsim_want_type(c, m, JSON_ARRAY))
				continue;
			if (a->len > WL_MAX_CPUS) {
				VDIAG(c, true, a, "\"capacity\" lists %zu CPUs (maximum %d)", a->len,
				      WL_MAX_CPUS);
				continue;
			}
			cap_m = m;
			for (size_t k = 0; k < a->len; k++) {
				struct json_member e = { .key = m->key, .line = a->items[k]->line,
							 .col = a->items[k]->col, .value = a->items[k] };

				wl_cpuset_set(&cap_given, (int)k);
				if (dlsim_get_int(c, &e, 1, 1024, &v))
					w->cpus[k].capacity = (uint32_t)v;
			}
			if (w->nr_cpus < (int)a->len)
				w->nr_cpus = (int)a->len;
		} else if (!strcmp(m->key, "clusters")) {
			const struct json_value *cl = m->value;

			if (!dlsim_want_type(c, m, JSON_OBJECT))
				continue;
			/* "clusters": { "big": { "cpus": [2,3], "power_busy_mw": 750,
			 *                        "power_idle_mw": 20, "capacity": 1024 } } */
			for (size_t k = 0; k < cl->len; k++) {
				const struct json_member *cm = &cl->members[k];
				struct wl_cpuset mask = { { 0 } };
				double busy = 0, idle = 0;
				int64_t cap = 0;

				if (!dlsim_want_type(c, cm, JSON_OBJECT))
					continue;
				for (size_t j = 0; j < cm->value->len; j++) {
					const struct json_member *f = &cm->value->members[j];

					if (!strcmp(f->key, "cpus"))
						dlsim_parse_cpus(c, f, &mask);
					else if (!strcmp(f->key, "power_busy_mw"))
						busy = get_number(c, f, 0, 1e6);
					else if (!strcmp(f->key, "power_idle_mw"))
						idle = get_number(c, f, 0, 1e6);
					else if (!strcmp(f->key, "capacity"))
						dlsim_get_int(c, f, 1, 1024, &cap);
					else
						dlsim_diag(c, true, f->line, f->col,
						     "unknown key \"%s\" in cluster (expected cpus, "
						     "capacity, power_busy_mw, power_idle_mw)", f->key);
				}
				if (wl_cpuset_empty(&mask))
					VDIAG(c, true, cm->value, "cluster \"%s\" needs \"cpus\"", cm->key);
				for (int cpu = 0; cpu < WL_MAX_CPUS; cpu++)
					if (wl_cpuset_test(&mask, cpu)) {
						w->cpus[cpu].cluster = cm->key;
						w->cpus[cpu].power_busy_mw = busy;
						w->cpus[cpu].power_idle_mw = idle;
						if (cap) {
							w->cpus[cpu].capacity = (uint32_t)cap;
							wl_cpuset_set(&cap_given, cpu);
						}
						if (cpu + 1 > w->nr_cpus)
							w->nr_cpus = cpu + 1;
					}
			}
		} else if (!strcmp(m->key, "tick_hz")) {
			dlsim_get_int(c, m, 0, 1000000, &w->tick_hz);
		} else if (!strcmp(m->key, "tick_phase_us")) {
			phase_m = m;
		} else if (!strcmp(m->key, "fair_server")) {
			parse_fair_server(c, m);
		} else if (!strcmp(m->key, "mem_bw") || !strcmp(m->key, "io_bw")) {
			bool mem = m->key[0] == 'm';

			if (!dlsim_get_int(c, m, 1, INT64_MAX, &v))
				continue;
			*(mem ? &w->mem_bw : &w->io_bw) = (uint64_t)v;
			*(mem ? &w->mem_bw_given : &w->io_bw_given) = true;
		} else {
			dlsim_diag(c, true, m->line, m->col,
			     "unknown key \"%s\" in platform (expected cpus, capacity, clusters, "
			     "tick_hz, tick_phase_us, mem_bw, io_bw, fair_server)", m->key);
		}
	}
	if (cap_m)
		check_capacity(c, cap_m, cpus, &cap_given);
	if (phase_m)
		parse_tick_phase(c, phase_m);
}

/*
 * A CBS rule of the library by name, @today (Linux's) or @other, stored as
 * its enum value + 1. The wake-up rule's enum has the 2012 rule at 0.
 */
static void rule_key(struct ctx *c, const struct json_member *m, const char *today,
		     const char *other, int *rule)
{
	bool wakeup = !strcmp(m->key, "wakeup");

	if (!dlsim_want_type(c, m, JSON_STRING))
		return;
	if (!strcmp(m->value->string, today))
		*rule = wakeup ? 2 : 1;
	else if (!strcmp(m->value->string, other))
		*rule = wakeup ? 1 : 2;
	else
		VDIAG(c, true, m->value, "unknown %s rule \"%s\" (expected %s or %s)", m->key,
		      m->value->string, today, other);
}

void dlsim_parse_simulation(struct ctx *c, const struct json_value *s)
{
	struct workload *w = c->w;
	int64_t v;

	for (size_t i = 0; i < s->len; i++) {
		const struct json_member *m = &s->members[i];

		if (!strcmp(m->key, "horizon_us")) {
			dlsim_get_int(c, m, 1, INT64_MAX / 1000, &w->horizon_us);
		} else if (!strcmp(m->key, "seed")) {
			if (dlsim_get_int(c, m, 0, INT64_MAX, &v))
				w->seed = (uint64_t)v;
		} else if (!strcmp(m->key, "mode")) {
			if (!dlsim_want_type(c, m, JSON_STRING))
				continue;
			w->mode_given = true;
			if (!strcmp(m->value->string, "global"))
				w->mode = WL_MODE_GLOBAL;
			else if (!strcmp(m->value->string, "partitioned"))
				w->mode = WL_MODE_PARTITIONED;
			else if (!strcmp(m->value->string, "clustered"))
				w->mode = WL_MODE_CLUSTERED;
			else
				VDIAG(c, true, m->value, "unknown mode \"%s\" (expected global, "
				      "partitioned or clustered)", m->value->string);
		} else if (!strcmp(m->key, "wakeup")) {
			rule_key(c, m, "revised", "cbs", &w->wakeup_rule);
		} else if (!strcmp(m->key, "overrun")) {
			rule_key(c, m, "linux", "2012", &w->overrun_rule);
		} else if (!strcmp(m->key, "replenish")) {
			rule_key(c, m, "next-period", "deadline", &w->replenish_rule);
		} else if (!strcmp(m->key, "admission")) {
			if (m->value->type == JSON_STRING && !strcmp(m->value->string, "off"))
				w->admission = 0;
			else if (m->value->type == JSON_STRING)
				VDIAG(c, true, m->value, "unknown admission \"%s\" (expected a "
				      "percentage 1..100 or \"off\")", m->value->string);
			else if (dlsim_get_int(c, m, 1, 100, &v))
				w->admission = (int)v;
		} else if (!strcmp(m->key, "reservations")) {
			if (!dlsim_want_type(c, m, JSON_STRING))
				continue;
			if (!strcmp(m->value->string, "soft") || !strcmp(m->value->string, "hard"))
				w->soft_reservations = m->value->string[0] == 's';
			else
				VDIAG(c, true, m->value, "unknown reservations \"%s\" (expected "
				      "hard or soft)", m->value->string);
		} else if (!strcmp(m->key, "affinity")) {
			if (!dlsim_want_type(c, m, JSON_STRING))
				continue;
			if (!strcmp(m->value->string, "linux") || !strcmp(m->value->string, "library"))
				w->affinity_library = !strcmp(m->value->string, "library");
			else
				VDIAG(c, true, m->value, "unknown affinity \"%s\" (expected linux "
				      "or library)", m->value->string);
		} else if (!strcmp(m->key, "hotplug")) {
			parse_hotplug(c, m);
		} else {
			dlsim_diag(c, true, m->line, m->col,
			     "unknown key \"%s\" in simulation (expected horizon_us, seed, mode, "
			     "admission, reservations, affinity, wakeup, overrun, replenish, hotplug)",
			     m->key);
		}
	}
}
