#include "workload_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

const char *wl_event_name(enum wl_event_type t)
{
	static const char *const n[] = { "run", "runtime", "sleep", "timer", "lock",
					 "unlock", "wait", "signal", "broad", "sync",
					 "suspend", "resume", "barrier", "yield", "fork",
					 "mem", "iorun", "sem_post", "sem_wait" };
	return n[t];
}

/* Event order matters: "runtime" before "run" (rt-app checks the longer
 * name inside its "run" branch). */
static const struct {
	const char *prefix;
	enum wl_event_type type;
} event_prefixes[] = {
	{ "lock", WL_LOCK }, { "unlock", WL_UNLOCK }, { "wait", WL_WAIT },
	{ "signal", WL_SIGNAL }, { "broad", WL_BROAD }, { "sync", WL_SYNC },
	{ "sleep", WL_SLEEP }, { "runtime", WL_RUNTIME }, { "run", WL_RUN },
	{ "timer", WL_TIMER }, { "suspend", WL_SUSPEND }, { "resume", WL_RESUME },
	{ "mem", WL_MEM }, { "iorun", WL_IORUN }, { "yield", WL_YIELD },
	{ "barrier", WL_BARRIER }, { "fork", WL_FORK },
	{ "sem_post", WL_SEM_POST }, { "sem_wait", WL_SEM_WAIT },
};

static int event_type_of(const char *key)
{
	for (size_t i = 0; i < sizeof(event_prefixes) / sizeof(event_prefixes[0]); i++)
		if (prefix(key, event_prefixes[i].prefix))
			return (int)event_prefixes[i].type;
	return -1;
}

static const char *get_string_member(struct ctx *c, const struct json_value *obj,
				     const char *key, const char *dflt)
{
	for (size_t i = 0; i < obj->len; i++)
		if (!strcmp(obj->members[i].key, key)) {
			if (dlsim_want_type(c, &obj->members[i], JSON_STRING))
				return obj->members[i].value->string;
			return dflt;
		}
	return dflt;
}

/*
 * "run": {"min": A, "max": B} (uniform, us) or "run": [A, B, ...] (one of
 * them, each as likely), drawn per job from the simulation seed.
 */
static bool parse_run_distribution(struct ctx *c, const struct json_member *m,
				   struct wl_event *ev)
{
	const struct json_value *v = m->value;
	int64_t *choices;
	bool ok = true;

	if (v->type == JSON_OBJECT) {
		bool have_min = false, have_max = false;

		for (size_t i = 0; i < v->len; i++) {
			const struct json_member *f = &v->members[i];

			if (!strcmp(f->key, "min"))
				have_min = ok &= dlsim_get_int(c, f, 0, INT64_MAX / 1000, &ev->us);
			else if (!strcmp(f->key, "max"))
				have_max = ok &= dlsim_get_int(c, f, 0, INT64_MAX / 1000, &ev->us_max);
			else
				dlsim_diag(c, true, f->line, f->col,
				     "unknown key \"%s\" in %s (expected min, max)", f->key, m->key);
		}
		if (ok && (!have_min || !have_max || ev->us_max < ev->us)) {
			VDIAG(c, true, v, "%s needs \"min\" <= \"max\" (us)", m->key);
			return false;
		}
		return ok;
	}
	if (!v->len) {
		VDIAG(c, true, v, "%s: an empty list of execution times", m->key);
		return false;
	}
	choices = wl_alloc(c, v->len * sizeof(*choices));
	if (!choices)
		return false;
	for (size_t i = 0; i < v->len; i++) {
		struct json_member e = { .key = m->key, .line = v->items[i]->line,
					 .col = v->items[i]->col, .value = v->items[i] };

		ok &= dlsim_get_int(c, &e, 0, INT64_MAX / 1000, &choices[i]);
	}
	ev->choices = choices;
	ev->nr_choices = v->len;
	ev->us = choices[0];
	return ok;
}

/* timer: {"ref": NAME, "period": us, "mode": "relative"|"absolute"} */
static bool parse_timer(struct ctx *c, const struct json_member *m, struct wl_event *ev)
{
	const struct json_value *v = m->value;
	const char *mode;
	bool have_period = false;

	if (!dlsim_want_type(c, m, JSON_OBJECT))
		return false;
	ev->ref = get_string_member(c, v, "ref", "unknown");
	mode = get_string_member(c, v, "mode", "relative");
	ev->absolute = prefix(mode, "absolute");
	for (size_t i = 0; i < v->len; i++) {
		const struct json_member *t = &v->members[i];

		if (!strcmp(t->key, "period")) {
			if (!dlsim_get_int(c, t, 1, INT64_MAX / 1000, &ev->us))
				return false;
			have_period = true;
		} else if (strcmp(t->key, "ref") && strcmp(t->key, "mode")) {
			dlsim_diag(c, false, t->line, t->col,
			     "unknown key \"%s\" in timer event (rt-app ignores it)", t->key);
		}
	}
	if (!have_period) {
		VDIAG(c, true, v, "timer \"%s\" needs a \"period\" in microseconds", m->key);
		return false;
	}
	if (strcmp(mode, "relative") && strcmp(mode, "absolute"))
		VDIAG(c, false, v, "timer mode \"%s\" is neither \"relative\" nor "
		      "\"absolute\"; rt-app treats it as relative", mode);
	return true;
}

static bool parse_event(struct ctx *c, const struct json_member *m, int type,
			struct wl_event *ev)
{
	const struct json_value *v = m->value;

	memset(ev, 0, sizeof(*ev));
	ev->type = (enum wl_event_type)type;
	ev->key = m->key;
	ev->line = v->line;
	ev->col = v->col;
	/* rt-app's tutorial: the string of "suspend" may be left empty, and
	 * workgen fills in the thread's own name; "yield" takes none. */
	if ((m->bare && (ev->type == WL_SUSPEND || ev->type == WL_YIELD)) ||
	    (ev->type == WL_SUSPEND && v->type == JSON_STRING && !v->string[0])) {
		if (ev->type == WL_SUSPEND) {
			ev->ref = c->task;
			dlsim_diag(c, false, m->line, m->col, "\"%s\" has %s: read as "
			     "\"%s\": \"%s\", as rt-app's workgen fills it in", m->key,
			     m->bare ? "no value" : "an empty name", m->key, c->task);
		} else {
			dlsim_diag(c, false, m->line, m->col, "\"%s\" has no value: read as "
			     "\"%s\": \"\", as rt-app's workgen leaves it", m->key, m->key);
		}
		return !c->strict;
	}
	switch (ev->type) {
	case WL_RUN:
		if (v->type == JSON_OBJECT || v->type == JSON_ARRAY)
			return parse_run_distribution(c, m, ev);
		/* fall through */
	case WL_RUNTIME:
	case WL_SLEEP:
		return dlsim_get_int(c, m, 0, INT64_MAX / 1000, &ev->us);
	case WL_MEM:
		if (prefix(m->key, "memrun")) {
			dlsim_diag(c, true, m->line, m->col, "\"%s\" (rt-app's memrun: reads, writes or "
			     "chases pointers through a buffer) is not modelled: its time is the "
			     "memory hierarchy's (caches, prefetch), which dlsim does not model; "
			     "use \"run\" with the time it takes on your machine", m->key);
			return false;
		}
		/* fall through */
	case WL_IORUN:
		/* bytes, an int in rt-app (its event's count) */
		return dlsim_get_int(c, m, 0, INT32_MAX, &ev->bytes);
	case WL_LOCK:
	case WL_UNLOCK:
	case WL_SIGNAL:
	case WL_BROAD:
	case WL_BARRIER:
	case WL_SUSPEND:
	case WL_RESUME:
	case WL_FORK:
	case WL_SEM_POST:
	case WL_SEM_WAIT:
		if (!dlsim_want_type(c, m, JSON_STRING))
			return false;
		ev->ref = v->string;
		return true;
	case WL_WAIT:
	case WL_SYNC:
		if (!dlsim_want_type(c, m, JSON_OBJECT))
			return false;
		ev->ref = get_string_member(c, v, "ref", "unknown");
		ev->mutex = get_string_member(c, v, "mutex", "unknown");
		for (size_t i = 0; i < v->len; i++)
			if (strcmp(v->members[i].key, "ref") && strcmp(v->members[i].key, "mutex"))
				dlsim_diag(c, false, v->members[i].line, v->members[i].col,
				     "unknown key \"%s\" in %s event (rt-app ignores it)",
				     v->members[i].key, m->key);
		return true;
	case WL_TIMER:
		return parse_timer(c, m, ev);
	case WL_YIELD:
		return true;
	}
	return false;
}

/*
 * Keys of rt-app's first grammar (2014: "exec", "period", "deadline",
 * "lock_order" and a per-task "resources" table), which today's rt-app
 * refuses too ("lock_order" reads as a lock event there). "period" and
 * "deadline" stay readable as the legacy dl-* keys.
 */
static bool old_grammar_key(struct ctx *c, const struct json_member *m)
{
	if (strcmp(m->key, "exec") && strcmp(m->key, "lock_order"))
		return false;
	dlsim_diag(c, true, m->line, m->col,
	     "\"%s\" belongs to rt-app's first grammar (exec, period, lock_order), which "
	     "neither today's rt-app nor dlsim reads: describe the task with events "
	     "(rt-app's doc/tutorial.txt)", m->key);
	return true;
}

/* Keys of a task or phase object that configure scheduling or placement. */
static bool sched_key(struct ctx *c, const struct json_member *m, struct wl_sched *s,
		      struct wl_cpuset *cpus, bool *handled)
{
	int64_t v;

	*handled = true;
	if (!strcmp(m->key, "policy")) {
		s->set = true;
		return dlsim_parse_policy(c, m, &s->policy);
	}
	if (!strcmp(m->key, "priority")) {
		if (!dlsim_get_int(c, m, -20, 99, &v))
			return false;
		/* A FIFO/RR priority or a fair task's nice value: check_sched()
		 * decides once the policy is known. */
		s->prio = (int)v;
		s->prio_given = true;
		s->nice = (int)v;
		s->nice_given = true;
		return true;
	}
	if (!strcmp(m->key, "nice")) {
		dlsim_diag(c, false, m->line, m->col,
		     "\"nice\" is not an rt-app key (rt-app ignores it and so does dlsim): "
		     "a SCHED_OTHER or SCHED_BATCH task's nice value (-20..19) is its "
		     "\"priority\"");
		return true;
	}
	if (!strcmp(m->key, "dl-runtime") || !strcmp(m->key, "dl-period") ||
	    !strcmp(m->key, "dl-deadline")) {
		/* 0 stands for "not given" in dl-period and dl-deadline (rt-app
		 * defaults them); a runtime of 0 is simply too small. */
		if (m->key[3] == 'r')
			s->dl_runtime_given = true;
		if (!dlsim_get_int(c, m, m->key[3] == 'r' ? 1 : 0, (INT64_C(1) << 53), &v))
			return false;
		if (m->key[3] == 'r')
			s->dl_runtime_us = (uint64_t)v;
		else if (m->key[3] == 'p')
			s->dl_period_us = (uint64_t)v;
		else
			s->dl_deadline_us = (uint64_t)v;
		return true;
	}
	if (!strcmp(m->key, "dl-soft")) {
		if (!dlsim_want_type(c, m, JSON_BOOL))
			return false;
		s->dl_soft = m->value->boolean ? 1 : -1;
		return true;
	}
	if (!strcmp(m->key, "dl-reclaim")) {
		if (!dlsim_want_type(c, m, JSON_BOOL))
			return false;
		s->dl_reclaim = m->value->boolean;
		return true;
	}
	if (!strcmp(m->key, "cpus"))
		return dlsim_parse_cpus(c, m, cpus);
	if (!strncmp(m->key, "external_workload", 17)) {
		dlsim_diag(c, true, m->line, m->col,
		     "\"%s\" calls a function of a shared library (rt-app's external "
		     "workload), which dlsim cannot simulate", m->key);
		return false;
	}
	if (!strcmp(m->key, "taskgroup")) {
		dlsim_diag(c, true, m->line, m->col, "\"taskgroup\" (a cgroup: its fair tasks share "
		     "one weight) is not modelled: dlsim has no group scheduling");
		return false;
	}
	if (!strcmp(m->key, "util_min") || !strcmp(m->key, "util_max")) {
		dlsim_diag(c, true, m->line, m->col, "\"%s\" (uclamp: it steers the CPU's frequency "
		     "and the placement on asymmetric CPUs) is not modelled: dlsim's CPUs run "
		     "at fixed capacities", m->key);
		return false;
	}
	/* NUMA memory binding: where memory lives, no scheduling decision
	 * (mem and iorun take platform.mem_bw / io_bw wherever it is). */
	if (!strcmp(m->key, "nodes_membind"))
		return dlsim_want_type(c, m, JSON_ARRAY);
	*handled = false;
	return true;
}

bool wl_phase_sets(const struct wl_phase *ph)
{
	return ph->sched.set || ph->sched.prio_given || ph->sched.dl_runtime_given ||
	       ph->sched.dl_period_us || ph->sched.dl_deadline_us;
}

static bool parse_phase(struct ctx *c, const struct json_value *obj, struct wl_phase *ph,
			bool task_level)
{
	const char *name = ph->name;
	size_t n = 0;
	bool ok = true;

	/* The slot may hold a phase that failed to parse: start afresh. */
	memset(ph, 0, sizeof(*ph));
	ph->name = name;
	ph->loop = 1;
	ph->line = obj->line;
	ph->col = obj->col;
	for (size_t i = 0; i < obj->len; i++)
		n += event_type_of(obj->members[i].key) >= 0;
	ph->events = wl_alloc(c, n * sizeof(*ph->events));
	if (!ph->events)
		return false;
	for (size_t i = 0; i < obj->len; i++) {
		const struct json_member *m = &obj->members[i];
		int type = event_type_of(m->key);
		bool handled;

		if (!strcmp(m->key, "exec") || !strcmp(m->key, "lock_order")) {
			if (!task_level)
				ok &= !old_grammar_key(c, m);
			continue; /* at task level: reported by the caller */
		}
		if (type >= 0) {
			if (parse_event(c, m, type, &ph->events[ph->nr_events]))
				ph->nr_events++;
			else
				ok = false;
			continue;
		}
		if (task_level)
			continue; /* task keys are handled by the caller */
		if (!strcmp(m->key, "loop")) {
			ok &= dlsim_get_int(c, m, -1, INT64_MAX, &ph->loop);
			continue;
		}
		ok &= sched_key(c, m, &ph->sched, &ph->cpus, &handled);
		if (!handled) {
			if (!strcmp(m->key, "instance") || !strcmp(m->key, "delay") ||
			    !strcmp(m->key, "phases"))
				dlsim_diag(c, true, m->line, m->col,
				     "\"%s\" belongs in a task, not in a phase", m->key);
			else
				dlsim_diag(c, false, m->line, m->col,
				     "unknown key \"%s\" in phase (rt-app ignores it)", m->key);
		}
	}
	if (ph->nr_events == 0 && ok) {
		dlsim_diag(c, true, obj->line, obj->col,
		     "no events: a phase needs at least one of run, runtime, sleep, timer, "
		     "lock, unlock, wait, signal, broad, sync, suspend, resume, barrier, "
		     "yield, fork, mem, iorun, sem_post, sem_wait");
		ok = false;
	}
	return ok;
}

static bool check_sched(struct ctx *c, const struct json_value *at, const char *name,
			struct wl_sched *s)
{
	if (s->policy == WL_OTHER || s->policy == WL_BATCH) {
		/* rt-app passes "priority" to sched_setattr() as sched_nice
		 * and stops on a value outside -20..19. */
		if (s->nice_given && (s->nice < -20 || s->nice > 19)) {
			VDIAG(c, true, at, "task \"%s\": \"priority\" %d of a %s task is its nice "
			      "value, -20..19 (rt-app gives it to sched_setattr() as sched_nice)",
			      name, s->nice, wl_policy_name(s->policy));
			return false;
		}
	} else if (s->nice_given) {
		/* rt-app sets no nice value for SCHED_IDLE: Linux weighs every
		 * SCHED_IDLE thread 3, whatever its nice value. */
		if (s->policy == WL_IDLE && s->nice)
			VDIAG(c, false, at, "task \"%s\": \"priority\" %d has no effect on a "
			      "SCHED_IDLE task (rt-app sets no nice value for it; its weight is 3)",
			      name, s->nice);
		s->nice_given = false;
		s->nice = 0;
	}
	if (s->policy != WL_DEADLINE) {
		/* Linux (6.12 on) reads sched_runtime of a fair task as its
		 * slice; dlsim's fair class uses the base slice for all. */
		if (s->dl_runtime_given && (s->policy == WL_OTHER || s->policy == WL_BATCH))
			VDIAG(c, false, at, "task \"%s\": \"dl-runtime\" on a %s task (a custom "
			      "slice) is not modelled: dlsim's fair class gives every task the base "
			      "slice (0.75 ms x (1 + log2 of the CPU count, at most 8))",
			      name, wl_policy_name(s->policy));
		return true;
	}
	if (s->dl_period_us == 0)
		s->dl_period_us = s->dl_runtime_us;
	if (s->dl_deadline_us == 0)
		s->dl_deadline_us = s->dl_period_us;
	if (s->dl_runtime_us == 0) {
		if (s->dl_runtime_given)
			return false; /* given, and refused where it stands */
		VDIAG(c, true, at, "SCHED_DEADLINE task \"%s\" needs \"dl-runtime\" (us)", name);
		return false;
	}
	if (s->dl_runtime_us > s->dl_deadline_us) {
		VDIAG(c, true, at, "task \"%s\": dl-runtime %llu us exceeds dl-deadline %llu us",
		      name, (unsigned long long)s->dl_runtime_us,
		      (unsigned long long)s->dl_deadline_us);
		return false;
	}
	if (s->dl_deadline_us > s->dl_period_us) {
		VDIAG(c, true, at, "task \"%s\": dl-deadline %llu us exceeds dl-period %llu us",
		      name, (unsigned long long)s->dl_deadline_us,
		      (unsigned long long)s->dl_period_us);
		return false;
	}
	if (s->dl_soft > 0 && s->dl_reclaim) {
		VDIAG(c, true, at, "task \"%s\": \"dl-soft\" and \"dl-reclaim\" exclude each "
		      "other (a soft reservation already runs into idle time)", name);
		return false;
	}
	return true;
}

/* A task's "phases" object: each member one phase, in file order. */
static bool parse_task_phases(struct ctx *c, struct wl_task *t, const struct json_value *pv)
{
	bool ok = true;

	t->phases = wl_alloc(c, pv->len * sizeof(*t->phases));
	if (!t->phases)
		return false;
	for (size_t i = 0; i < pv->len; i++) {
		struct wl_phase *ph = &t->phases[t->nr_phases];

		if (!dlsim_want_type(c, &pv->members[i], JSON_OBJECT)) {
			ok = false;
			continue;
		}
		ph->name = pv->members[i].key;
		if (parse_phase(c, pv->members[i].value, ph, false)) {
			/* rt-app's default priority of a phase that names FIFO/RR */
			if (ph->sched.set && !ph->sched.prio_given &&
			    (ph->sched.policy == WL_FIFO || ph->sched.policy == WL_RR))
				ph->sched.prio = 10;
			if (ph->sched.set)
				ok &= check_sched(c, pv->members[i].value, t->name, &ph->sched);
			t->nr_phases++;
		} else {
			ok = false;
		}
	}
	if (pv->len == 0) {
		VDIAG(c, true, pv, "task \"%s\" has an empty \"phases\" object", t->name);
		ok = false;
	}
	return ok;
}

static bool parse_task(struct ctx *c, const struct json_member *tm, struct wl_task *t)
{
	const struct json_value *obj = tm->value;
	const struct json_member *phases = NULL;
	bool ok = true, has_loop = false;
	int64_t legacy[3] = { 0, 0, 0 };

	/* The slot may hold a task that failed to parse: start afresh. */
	memset(t, 0, sizeof(*t));
	t->name = tm->key;
	c->task = tm->key;
	t->line = tm->line;
	t->col = tm->col;
	t->instance = 1;
	t->server = -1;
	t->sched.policy = c->w->default_policy;
	t->sched.prio = c->w->default_policy == WL_FIFO || c->w->default_policy == WL_RR ? 10 : 0;
	if (!dlsim_want_type(c, tm, JSON_OBJECT))
		return false;
	for (size_t i = 0; i < obj->len; i++) {
		const struct json_member *m = &obj->members[i];
		bool handled;

		if (!strcmp(m->key, "phases")) {
			if (dlsim_want_type(c, m, JSON_OBJECT))
				phases = m;
			else
				ok = false;
		} else if (!strcmp(m->key, "instance")) {
			ok &= dlsim_get_int(c, m, 0, 1024, &t->instance);
		} else if (!strcmp(m->key, "loop")) {
			ok &= dlsim_get_int(c, m, -1, INT64_MAX, &t->loop);
			has_loop = true;
		} else if (!strcmp(m->key, "delay")) {
			ok &= dlsim_get_int(c, m, 0, INT64_MAX / 1000, &t->delay_us);
		} else if (!strcmp(m->key, "job-deadline")) {
			ok &= dlsim_get_int(c, m, 1, INT64_C(1) << 53, &t->job_deadline_us);
		} else if (!strcmp(m->key, "period") || !strcmp(m->key, "deadline")) {
			ok &= dlsim_get_int(c, m, 0, INT64_C(1) << 53, &legacy[m->key[0] == 'p' ? 1 : 2]);
		} else if (old_grammar_key(c, m)) {
			ok = false;
		} else if (event_type_of(m->key) >= 0) {
			if (!strcmp(m->key, "runtime") && m->value->type == JSON_NUMBER &&
			    m->value->is_integer)
				legacy[0] = m->value->integer;
			continue; /* events: parse_phase */
		} else {
			ok &= sched_key(c, m, &t->sched, &t->cpus, &handled);
			if (!handled) {
				if (!strcmp(m->key, "global") || !strcmp(m->key, "tasks") ||
				    !strcmp(m->key, "platform") || !strcmp(m->key, "simulation") ||
				    !strcmp(m->key, "servers"))
					dlsim_diag(c, true, m->line, m->col,
					     "\"%s\" is a top-level section, not a task key", m->key);
				else
					dlsim_diag(c, false, m->line, m->col,
					     "unknown key \"%s\" in task \"%s\" (rt-app ignores it)",
					     m->key, t->name);
			}
		}
	}
	/* rt-app's legacy grammar: runtime/period/deadline on the task. */
	if (t->sched.policy == WL_DEADLINE && !t->sched.dl_runtime_us && legacy[0] > 0) {
		t->sched.dl_runtime_us = (uint64_t)legacy[0];
		if (!t->sched.dl_period_us)
			t->sched.dl_period_us = legacy[1] ? (uint64_t)legacy[1] : (uint64_t)legacy[0];
		if (!t->sched.dl_deadline_us)
			t->sched.dl_deadline_us = legacy[2] ? (uint64_t)legacy[2] : t->sched.dl_period_us;
	}
	/* rt-app's default priority (10) when a FIFO/RR task gives none:
	 * Linux refuses priority 0 for those policies. */
	if ((t->sched.policy == WL_FIFO || t->sched.policy == WL_RR) && t->sched.prio == 0)
		t->sched.prio = 10;
	ok &= check_sched(c, obj, t->name, &t->sched);

	if (phases) {
		t->loop = has_loop ? t->loop : -1;
		ok &= parse_task_phases(c, t, phases->value);
	} else {
		/* No phases: the task object is its one phase. Its "loop" is
		 * the phase's loop count and the task runs the phase once
		 * (forever when there is no "loop"), as rt-app does. */
		t->phases = wl_alloc(c, sizeof(*t->phases));
		if (!t->phases)
			return false;
		t->phases[0].name = t->name;
		if (!parse_phase(c, obj, &t->phases[0], true))
			return false;
		t->phases[0].loop = has_loop ? t->loop : 1;
		t->nr_phases = 1;
		t->loop = has_loop ? 1 : -1;
	}
	return ok;
}

static size_t task_index(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (!strcmp(w->tasks[i].name, name))
			return i;
	return w->nr_tasks;
}

/* Whether a thread of task @from forks, directly or through the tasks it
 * forks, a thread of task @to: a walk of the fork graph, each task once.
 * 1 yes, 0 no, -1 out of memory. */
static int forks_into(const struct workload *w, const char *from, const char *to)
{
	size_t n = w->nr_tasks, top = 0, goal = task_index(w, to);
	size_t *stack = calloc(n + 1, sizeof(*stack));
	bool *seen = calloc(n + 1, sizeof(*seen));
	bool found = false;

	if (!stack || !seen) {
		free(stack);
		free(seen);
		return -1;
	}
	stack[top++] = task_index(w, from);
	seen[stack[0]] = true;
	while (top && !found) {
		size_t k = stack[--top];
		const struct wl_task *t = &w->tasks[k];

		found = k == goal;
		if (found || k >= n)
			continue;
		for (size_t p = 0; p < t->nr_phases; p++)
			for (size_t e = 0; e < t->phases[p].nr_events; e++) {
				size_t j;

				if (t->phases[p].events[e].type != WL_FORK)
					continue;
				j = task_index(w, t->phases[p].events[e].ref);
				if (j < n && !seen[j]) {
					seen[j] = true; /* each task pushed once */
					stack[top++] = j;
				}
			}
	}
	free(stack);
	free(seen);
	return found;
}

/*
 * A fork that leads back to the forking task: every new thread forks again,
 * without end (rt-app defines no bound but its 1024 forks per thread and
 * fork event, and runs out of threads first), so it is refused.
 */
static void check_fork_cycle(struct ctx *c, const struct wl_task *t, const struct wl_event *ev)
{
	int into;

	if (!strcmp(ev->ref, t->name))
		dlsim_diag(c, true, ev->line, ev->col,
		     "task \"%s\" forks itself: each new thread would fork another, without "
		     "end", t->name);
	else if ((into = forks_into(c->w, ev->ref, t->name)) < 0)
		dlsim_diag(c, true, ev->line, ev->col, "out of memory checking the forks of \"%s\"",
		     ev->ref);
	else if (into)
		dlsim_diag(c, true, ev->line, ev->col,
		     "fork of \"%s\", which forks \"%s\" again (directly or through other "
		     "forks): each new thread would fork another, without end", ev->ref, t->name);
}

/* Cross-references: fork targets exist; every unlock has a lock somewhere;
 * CPU numbers exist on the platform. */
static void check_refs(struct ctx *c)
{
	struct workload *w = c->w;
	struct wl_cpuset all = wl_cpuset_first_n(w->nr_cpus);

	for (size_t i = 0; i < w->nr_tasks; i++) {
		struct wl_task *t = &w->tasks[i];

		if (!wl_cpuset_subset(&t->cpus, &all))
			dlsim_diag(c, true, t->line, t->col,
			     "task \"%s\" uses a CPU the platform does not have (it has %d)",
			     t->name, w->nr_cpus);
		for (size_t p = 0; p < t->nr_phases; p++) {
			if (!wl_cpuset_subset(&t->phases[p].cpus, &all))
				dlsim_diag(c, true, t->line, t->col,
				     "a phase of task \"%s\" uses a CPU the platform does not have",
				     t->name);
			for (size_t e = 0; e < t->phases[p].nr_events; e++) {
				const struct wl_event *ev = &t->phases[p].events[e];
				bool found = false;

				if (ev->type == WL_FORK) {
					for (size_t k = 0; k < w->nr_tasks; k++)
						if (!strcmp(w->tasks[k].name, ev->ref)) {
							found = true;
							w->tasks[k].forked = true;
						}
					if (!found)
						dlsim_diag(c, true, ev->line, ev->col,
						     "fork of \"%s\": no task has that name", ev->ref);
					else
						check_fork_cycle(c, t, ev);
				}
				if (ev->type == WL_UNLOCK) {
					for (size_t k = 0; k < w->nr_tasks && !found; k++)
						for (size_t q = 0; q < w->tasks[k].nr_phases && !found; q++)
							for (size_t j = 0; j < w->tasks[k].phases[q].nr_events; j++) {
								const struct wl_event *o = &w->tasks[k].phases[q].events[j];

								if ((o->type == WL_LOCK) && !strcmp(o->ref, ev->ref))
									found = true;
							}
					if (!found)
						dlsim_diag(c, true, ev->line, ev->col,
						     "unlock of \"%s\", which no task ever locks", ev->ref);
				}
			}
		}
	}
}

/* Every timer event of the file, with its task, for timer_modes(). */
struct timer_use {
	const struct wl_task *task;
	struct wl_event *ev;
};

/* Two timer events name one timer: the same shared ref, or the same
 * "unique..." ref in one task (rt-app: the thread's own resources). */
static bool same_timer(const struct timer_use *a, const struct timer_use *b)
{
	if (strcmp(a->ev->ref, b->ev->ref))
		return false;
	return strncmp(a->ev->ref, "unique", 6) || a->task == b->task;
}

/*
 * rt-app keeps one mode per timer: any use saying "absolute" makes the
 * timer absolute for every use (rt-app_parse_config.c clears the
 * resource's relative flag and never sets it back). The model does the
 * same and says so where a use is turned absolute.
 */
static void timer_modes(struct ctx *c)
{
	struct workload *w = c->w;
	struct timer_use *u;
	size_t n = 0;

	for (size_t i = 0; i < w->nr_tasks; i++)
		for (size_t p = 0; p < w->tasks[i].nr_phases; p++)
			for (size_t e = 0; e < w->tasks[i].phases[p].nr_events; e++)
				n += w->tasks[i].phases[p].events[e].type == WL_TIMER;
	u = n ? malloc(n * sizeof(*u)) : NULL;
	if (!u)
		return;
	n = 0;
	for (size_t i = 0; i < w->nr_tasks; i++)
		for (size_t p = 0; p < w->tasks[i].nr_phases; p++)
			for (size_t e = 0; e < w->tasks[i].phases[p].nr_events; e++)
				if (w->tasks[i].phases[p].events[e].type == WL_TIMER)
					u[n++] = (struct timer_use){ &w->tasks[i],
								     &w->tasks[i].phases[p].events[e] };
	for (size_t i = 0; i < n; i++) {
		if (u[i].ev->absolute)
			continue;
		for (size_t k = 0; k < n; k++)
			if (u[k].ev->absolute && !u[k].ev->relative_use && same_timer(&u[i], &u[k])) {
				dlsim_diag(c, false, u[i].ev->line, u[i].ev->col, "timer \"%s\" is "
				     "absolute: its use at %d:%d says \"absolute\", and rt-app "
				     "keeps one mode per timer", u[i].ev->ref, u[k].ev->line,
				     u[k].ev->col);
				u[i].ev->relative_use = true;
				break;
			}
	}
	for (size_t i = 0; i < n; i++)
		if (u[i].ev->relative_use)
			u[i].ev->absolute = true;
	free(u);
}

/* The first event of @type in the file, or NULL. */
static const struct wl_event *first_event(const struct workload *w, enum wl_event_type type)
{
	for (size_t i = 0; i < w->nr_tasks; i++)
		for (size_t p = 0; p < w->tasks[i].nr_phases; p++)
			for (size_t e = 0; e < w->tasks[i].phases[p].nr_events; e++)
				if (w->tasks[i].phases[p].events[e].type == type)
					return &w->tasks[i].phases[p].events[e];
	return NULL;
}

/* mem and iorun are bytes: a file that uses them without the platform's
 * rate is told the default it gets. */
static void rate_defaults(struct ctx *c)
{
	const struct wl_event *mem = first_event(c->w, WL_MEM);
	const struct wl_event *io = first_event(c->w, WL_IORUN);

	if (mem && !c->w->mem_bw_given)
		dlsim_diag(c, false, mem->line, mem->col, "\"%s\" writes bytes: no platform.mem_bw "
		     "given, so %llu bytes/s (a memset on one core, out of cache) at capacity "
		     "1024", mem->key, (unsigned long long)WL_MEM_BW_DEFAULT);
	if (io && !c->w->io_bw_given)
		dlsim_diag(c, false, io->line, io->col, "\"%s\" writes bytes: no platform.io_bw "
		     "given, so %llu bytes/s (a write to /dev/null, rt-app's io_device: the "
		     "system call's CPU time) at capacity 1024", io->key,
		     (unsigned long long)WL_IO_BW_DEFAULT);
}

/* --platform replaces the file's platform section (@platform, or the root
 * when there is none); --cpus gives the CPU count of a file whose section
 * gives none (rt-app files assume the host's CPUs). */
static void apply_options(struct ctx *c, const struct json_value *platform,
			  const struct wl_load_options *o)
{
	struct workload *w = c->w;

	if (!o)
		return;
	if (o->platform) {
		struct ctx pc = *c;

		platform = o->platform;
		pc.fname = o->platform_fname;
		w->platform_given = true;
		dlsim_parse_platform(&pc, o->platform);
	}
	/* A section that names no CPU count (only tick_hz) takes --cpus. */
	if (o->cpus && w->nr_cpus) {
		struct ctx pc = *c;

		pc.fname = o->platform ? o->platform_fname : c->fname;
		dlsim_diag(&pc, true, platform->line, platform->col, "--cpus %d: this platform "
		     "section gives %d CPU%s; drop --cpus or change the count here", o->cpus,
		     w->nr_cpus, w->nr_cpus > 1 ? "s" : "");
	} else if (o->cpus) {
		w->nr_cpus = o->cpus;
	}
}

/* With global.pi_enabled, a mutex of a task inside a server would carry a
 * deadline across domains (priority inheritance between a guest and the
 * host or another guest): not modelled, refused at the lock. */
static void guest_locks(struct ctx *c)
{
	const struct workload *w = c->w;

	if (!w->pi_enabled)
		return;
	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		for (size_t p = 0; t->server >= 0 && p < t->nr_phases; p++)
			for (size_t e = 0; e < t->phases[p].nr_events; e++) {
				const struct wl_event *ev = &t->phases[p].events[e];

				if (ev->type != WL_LOCK)
					continue;
				dlsim_diag(c, true, ev->line, ev->col, "task \"%s\" inside server "
					   "\"%s\" takes mutex \"%s\" with global.pi_enabled: "
					   "inheritance across a guest's domain is not modelled",
					   t->name, w->servers[t->server].name, ev->ref);
				return;
			}
	}
}

int workload_load(struct workload *w, const char *fname, const char *text,
		  size_t len, bool strict)
{
	return workload_load_opts(w, fname, text, len, strict, NULL);
}

/* The JSON parser's error as the one diagnostic, "file:l:c: error: msg". */
static void json_error_diag(struct workload *w)
{
	const char *e = w->doc.error;
	const char *sep = strstr(e, ": ");
	size_t head = sep ? (size_t)(sep - e) + 2 : 0;
	char **nd = malloc(sizeof(*nd));

	w->errors = 1;
	if (!nd)
		return;
	w->diags = nd;
	w->diags[0] = malloc(strlen(e) + 8);
	if (!w->diags[0])
		return;
	memcpy(w->diags[0], e, head);
	strcpy(w->diags[0] + head, "error: ");
	strcat(w->diags[0], e + head);
	w->nr_diags = 1;
}

/* A second "tasks", "platform" or "servers" section: refused, since taking the last
 * (as rt-app's JSON reader does) or the first would drop one silently. */
static bool second_section(struct ctx *c, const struct json_member *m,
			   const struct json_member *first)
{
	if (!first)
		return false;
	dlsim_diag(c, true, m->line, m->col, "a second \"%s\" section (the first is at %d:%d): "
	     "one of them would be dropped%s; merge them into one", m->key, first->line,
	     first->col, strcmp(m->key, "tasks") ? "" : " (rt-app's JSON reader keeps the last)");
	return true;
}

int workload_load_opts(struct workload *w, const char *fname, const char *text, size_t len,
		       bool strict, const struct wl_load_options *o)
{
	struct ctx c = { .w = w, .fname = fname, .strict = strict };
	const struct json_value *root;
	const struct json_member *tasks = NULL, *platform = NULL, *servers = NULL;
	char *name;

	memset(w, 0, sizeof(*w));
	/* The caller's string may not outlive the model (sweep --dir). */
	name = wl_alloc(&c, strlen(fname) + 1);
	if (name)
		w->fname = memcpy(name, fname, strlen(fname) + 1);
	w->duration_s = -1;
	w->default_policy = WL_OTHER;
	w->nr_cpus = 0;
	for (int i = 0; i < WL_MAX_CPUS; i++)
		w->cpus[i].capacity = 1024;
	w->seed = 1;
	w->admission = -1;
	w->mem_bw = WL_MEM_BW_DEFAULT;
	w->io_bw = WL_IO_BW_DEFAULT;
	if (json_parse(&w->doc, fname, text, len)) {
		json_error_diag(w);
		return -1;
	}
	root = w->doc.root;
	if (root->type != JSON_OBJECT) {
		dlsim_diag(&c, true, root->line, root->col, "the workload must be a JSON object, not %s",
		     json_type_name(root->type));
		return -1;
	}
	/* Sections first (global sets the default policy tasks inherit). */
	for (size_t i = 0; i < root->len; i++) {
		const struct json_member *m = &root->members[i];

		if (!strcmp(m->key, "global")) {
			if (dlsim_want_type(&c, m, JSON_OBJECT))
				dlsim_parse_global(&c, m->value);
		} else if (!strcmp(m->key, "platform")) {
			w->platform_given = true;
			if (second_section(&c, m, platform))
				continue;
			platform = m;
			if (dlsim_want_type(&c, m, JSON_OBJECT) && !(o && o->platform))
				dlsim_parse_platform(&c, m->value);
		} else if (!strcmp(m->key, "simulation")) {
			if (dlsim_want_type(&c, m, JSON_OBJECT))
				dlsim_parse_simulation(&c, m->value);
		} else if (!strcmp(m->key, "tasks")) {
			if (!second_section(&c, m, tasks) && dlsim_want_type(&c, m, JSON_OBJECT))
				tasks = m;
		} else if (!strcmp(m->key, "servers")) {
			/* read once the tasks and the CPU count are known */
			if (!second_section(&c, m, servers) && dlsim_want_type(&c, m, JSON_OBJECT))
				servers = m;
		} else if (!strcmp(m->key, "resources")) {
			/* rt-app's table of named resources, each with a "type":
			 * it finds a resource by name and type, and makes it on
			 * first use alike, so the table changes nothing. */
			dlsim_want_type(&c, m, JSON_OBJECT);
		} else {
			dlsim_diag(&c, true, m->line, m->col,
			     "unknown top-level key \"%s\" (expected global, tasks, platform, "
			     "simulation, servers)", m->key);
		}
	}
	apply_options(&c, platform ? platform->value : root, o);
	if (!w->nr_cpus)
		w->nr_cpus = 1;
	if (!tasks) {
		dlsim_diag(&c, true, root->line, root->col, "missing \"tasks\" object");
		return -1;
	}
	w->tasks = wl_alloc(&c, tasks->value->len * sizeof(*w->tasks));
	if (!w->tasks)
		return -1;
	for (size_t i = 0; i < tasks->value->len; i++)
		if (parse_task(&c, &tasks->value->members[i], &w->tasks[w->nr_tasks]))
			w->nr_tasks++;
	if (w->nr_tasks == 0 && w->errors == 0)
		dlsim_diag(&c, true, tasks->value->line, tasks->value->col, "no tasks");
	check_refs(&c);
	if (servers)
		dlsim_parse_servers(&c, servers);
	timer_modes(&c);
	rate_defaults(&c);
	if (w->nr_servers && w->nr_hotplug)
		dlsim_diag(&c, true, root->line, root->col, "servers with simulation.hotplug: "
			   "a vCPU's host CPU going offline is not modelled; drop one of them");
	guest_locks(&c);
	if (w->fair_server.on && w->nr_hotplug)
		dlsim_diag(&c, true, root->line, root->col, "platform.fair_server with "
			   "simulation.hotplug: a CPU's fair server going offline is not modelled; "
			   "drop one of them");
	for (size_t i = 0; i < w->nr_hotplug; i++)
		if (w->hotplug[i].cpu >= w->nr_cpus)
			dlsim_diag(&c, true, root->line, root->col,
			     "hotplug of CPU %d, which the platform does not have", w->hotplug[i].cpu);
	return w->errors ? -1 : 0;
}

void workload_free(struct workload *w)
{
	for (size_t i = 0; i < w->nr_diags; i++)
		free(w->diags[i]);
	free(w->diags);
	for (size_t i = 0; i < w->nr_allocs; i++)
		free(w->allocs[i]);
	free(w->allocs);
	json_free(&w->doc);
	memset(w, 0, sizeof(*w));
}
