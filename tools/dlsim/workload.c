#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ctx {
	struct workload *w;
	const char *fname;
	bool strict;
	const char *task;     /* the task being read, for workgen's bare entries */
};

static void diag(struct ctx *c, bool error, int line, int col, const char *fmt, ...)
{
	struct workload *w = c->w;
	char buf[512], **nd;
	va_list ap;
	int n;

	if (!error && c->strict)
		error = true;
	n = snprintf(buf, sizeof(buf), "%s:%d:%d: %s: ", c->fname, line, col,
		     error ? "error" : "warning");
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(buf))
		vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (error)
		w->errors++;
	else
		w->warnings++;
	nd = realloc(w->diags, (w->nr_diags + 1) * sizeof(*nd));
	if (!nd)
		return;
	w->diags = nd;
	w->diags[w->nr_diags] = strdup(buf);
	if (w->diags[w->nr_diags])
		w->nr_diags++;
}

static void *wl_alloc(struct ctx *c, size_t n)
{
	struct workload *w = c->w;
	void *p = calloc(1, n ? n : 1), **na;

	if (!p)
		return NULL;
	na = realloc(w->allocs, (w->nr_allocs + 1) * sizeof(*na));
	if (!na) {
		free(p);
		return NULL;
	}
	w->allocs = na;
	w->allocs[w->nr_allocs++] = p;
	return p;
}

#define VDIAG(c, err, v, ...) diag((c), (err), (v)->line, (v)->col, __VA_ARGS__)

/* A bare key ("suspend", with no value) where a value is needed. */
static bool bare_key(struct ctx *c, const struct json_member *m)
{
	if (!m->bare)
		return false;
	diag(c, true, m->line, m->col, "\"%s\" has no value (expected \"%s\": value)",
	     m->key, m->key);
	return true;
}

static bool want_type(struct ctx *c, const struct json_member *m, enum json_type t)
{
	if (m->value->type == t)
		return true;
	if (bare_key(c, m))
		return false;
	VDIAG(c, true, m->value, "\"%s\" must be %s %s, not %s", m->key,
	      t == JSON_OBJECT || t == JSON_ARRAY ? "an" : "a", json_type_name(t),
	      json_type_name(m->value->type));
	return false;
}

static bool get_int(struct ctx *c, const struct json_member *m, int64_t min,
		    int64_t max, int64_t *out)
{
	const struct json_value *v = m->value;
	int64_t i;

	if (bare_key(c, m))
		return false;
	if (v->type != JSON_NUMBER) {
		VDIAG(c, true, v, "\"%s\" must be an integer, not %s", m->key,
		      json_type_name(v->type));
		return false;
	}
	/* rt-app's reader takes 1e3 or 1000.0 for 1000 (json-c converts a
	 * double); a fraction would be cut, so it is refused. */
	if (v->int_overflow || (!v->is_integer && (v->number >= 0x1p63 || v->number < -0x1p63))) {
		VDIAG(c, true, v, "\"%s\" is out of range (does not fit in 64 bits; "
		      "expected [%lld, %lld])", m->key, (long long)min, (long long)max);
		return false;
	}
	/* |number| < 2^63 here, so the conversion is defined. */
	if (!v->is_integer && v->number != (double)(int64_t)v->number) {
		VDIAG(c, true, v, "\"%s\" must be an integer, not a fraction (%.17g)",
		      m->key, v->number);
		return false;
	}
	i = v->is_integer ? v->integer : (int64_t)v->number;
	if (i < min) {
		VDIAG(c, true, v, "\"%s\" = %lld is too small (minimum %lld)", m->key,
		      (long long)i, (long long)min);
		return false;
	}
	if (i > max) {
		VDIAG(c, true, v, "\"%s\" = %lld is too large (maximum %lld)", m->key,
		      (long long)i, (long long)max);
		return false;
	}
	*out = i;
	return true;
}

static bool prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

const char *wl_policy_name(enum wl_policy p)
{
	static const char *const n[] = { "SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE",
					 "SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE" };
	return n[p];
}

const char *wl_event_name(enum wl_event_type t)
{
	static const char *const n[] = { "run", "runtime", "sleep", "timer", "lock",
					 "unlock", "wait", "signal", "broad", "sync",
					 "suspend", "resume", "barrier", "yield", "fork",
					 "mem", "iorun" };
	return n[t];
}

static bool parse_policy(struct ctx *c, const struct json_member *m, enum wl_policy *out)
{
	if (!want_type(c, m, JSON_STRING))
		return false;
	for (int p = WL_OTHER; p <= WL_DEADLINE; p++)
		if (!strcmp(m->value->string, wl_policy_name((enum wl_policy)p))) {
			*out = (enum wl_policy)p;
			return true;
		}
	VDIAG(c, true, m->value, "unknown policy \"%s\" (expected SCHED_OTHER, SCHED_BATCH, "
	      "SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE)", m->value->string);
	return false;
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
};

static int event_type_of(const char *key)
{
	for (size_t i = 0; i < sizeof(event_prefixes) / sizeof(event_prefixes[0]); i++)
		if (prefix(key, event_prefixes[i].prefix))
			return (int)event_prefixes[i].type;
	return -1;
}

static bool parse_cpus(struct ctx *c, const struct json_member *m, uint64_t *mask)
{
	const struct json_value *v = m->value;

	if (!want_type(c, m, JSON_ARRAY))
		return false;
	*mask = 0;
	for (size_t i = 0; i < v->len; i++) {
		const struct json_value *e = v->items[i];

		if (e->type != JSON_NUMBER || !e->is_integer || e->integer < 0 ||
		    e->integer >= WL_MAX_CPUS) {
			VDIAG(c, true, e, "a CPU in \"cpus\" must be an integer in [0, %d)",
			      WL_MAX_CPUS);
			return false;
		}
		*mask |= UINT64_C(1) << e->integer;
	}
	if (!*mask) {
		VDIAG(c, true, v, "\"cpus\" is empty");
		return false;
	}
	return true;
}

static const char *get_string_member(struct ctx *c, const struct json_value *obj,
				     const char *key, const char *dflt)
{
	for (size_t i = 0; i < obj->len; i++)
		if (!strcmp(obj->members[i].key, key)) {
			if (want_type(c, &obj->members[i], JSON_STRING))
				return obj->members[i].value->string;
			return dflt;
		}
	return dflt;
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
			diag(c, false, m->line, m->col, "\"%s\" has %s: read as "
			     "\"%s\": \"%s\", as rt-app's workgen fills it in", m->key,
			     m->bare ? "no value" : "an empty name", m->key, c->task);
		} else {
			diag(c, false, m->line, m->col, "\"%s\" has no value: read as "
			     "\"%s\": \"\", as rt-app's workgen leaves it", m->key, m->key);
		}
		return !c->strict;
	}
	switch (ev->type) {
	case WL_RUN:
	case WL_RUNTIME:
	case WL_SLEEP:
	case WL_MEM:
	case WL_IORUN:
		return get_int(c, m, 0, INT64_MAX / 1000, &ev->us);
	case WL_LOCK:
	case WL_UNLOCK:
	case WL_SIGNAL:
	case WL_BROAD:
	case WL_BARRIER:
	case WL_SUSPEND:
	case WL_RESUME:
	case WL_FORK:
		if (!want_type(c, m, JSON_STRING))
			return false;
		ev->ref = v->string;
		return true;
	case WL_WAIT:
	case WL_SYNC:
		if (!want_type(c, m, JSON_OBJECT))
			return false;
		ev->ref = get_string_member(c, v, "ref", "unknown");
		ev->mutex = get_string_member(c, v, "mutex", "unknown");
		for (size_t i = 0; i < v->len; i++)
			if (strcmp(v->members[i].key, "ref") && strcmp(v->members[i].key, "mutex"))
				diag(c, false, v->members[i].line, v->members[i].col,
				     "unknown key \"%s\" in %s event (rt-app ignores it)",
				     v->members[i].key, m->key);
		return true;
	case WL_TIMER: {
		const char *mode;
		bool have_period = false;

		if (!want_type(c, m, JSON_OBJECT))
			return false;
		ev->ref = get_string_member(c, v, "ref", "unknown");
		mode = get_string_member(c, v, "mode", "relative");
		ev->absolute = prefix(mode, "absolute");
		for (size_t i = 0; i < v->len; i++) {
			const struct json_member *t = &v->members[i];

			if (!strcmp(t->key, "period")) {
				if (!get_int(c, t, 1, INT64_MAX / 1000, &ev->us))
					return false;
				have_period = true;
			} else if (strcmp(t->key, "ref") && strcmp(t->key, "mode")) {
				diag(c, false, t->line, t->col,
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
	case WL_YIELD:
		return true;
	}
	return false;
}

/* Keys of a task or phase object that configure scheduling or placement. */
static bool sched_key(struct ctx *c, const struct json_member *m, struct wl_sched *s,
		      uint64_t *cpus, bool *handled)
{
	int64_t v;

	*handled = true;
	if (!strcmp(m->key, "policy")) {
		s->set = true;
		return parse_policy(c, m, &s->policy);
	}
	if (!strcmp(m->key, "priority")) {
		if (!get_int(c, m, -20, 99, &v))
			return false;
		s->prio = (int)v;
		return true;
	}
	if (!strcmp(m->key, "dl-runtime") || !strcmp(m->key, "dl-period") ||
	    !strcmp(m->key, "dl-deadline")) {
		/* 0 stands for "not given" in dl-period and dl-deadline (rt-app
		 * defaults them); a runtime of 0 is simply too small. */
		if (m->key[3] == 'r')
			s->dl_runtime_given = true;
		if (!get_int(c, m, m->key[3] == 'r' ? 1 : 0, (INT64_C(1) << 53), &v))
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
		if (!want_type(c, m, JSON_BOOL))
			return false;
		s->dl_soft = m->value->boolean ? 1 : -1;
		return true;
	}
	if (!strcmp(m->key, "cpus"))
		return parse_cpus(c, m, cpus);
	if (!strcmp(m->key, "taskgroup") || !strcmp(m->key, "nodes_membind") ||
	    !strcmp(m->key, "util_min") || !strcmp(m->key, "util_max")) {
		diag(c, false, m->line, m->col, "\"%s\" has no effect in dlsim", m->key);
		return true;
	}
	*handled = false;
	return true;
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
	for (size_t i = 0; i < obj->len; i++)
		n += event_type_of(obj->members[i].key) >= 0;
	ph->events = wl_alloc(c, n * sizeof(*ph->events));
	if (!ph->events)
		return false;
	for (size_t i = 0; i < obj->len; i++) {
		const struct json_member *m = &obj->members[i];
		int type = event_type_of(m->key);
		bool handled;

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
			ok &= get_int(c, m, -1, INT64_MAX, &ph->loop);
			continue;
		}
		ok &= sched_key(c, m, &ph->sched, &ph->cpus, &handled);
		if (!handled) {
			if (!strcmp(m->key, "instance") || !strcmp(m->key, "delay") ||
			    !strcmp(m->key, "phases"))
				diag(c, true, m->line, m->col,
				     "\"%s\" belongs in a task, not in a phase", m->key);
			else
				diag(c, false, m->line, m->col,
				     "unknown key \"%s\" in phase (rt-app ignores it)", m->key);
		}
	}
	if (ph->nr_events == 0 && ok) {
		diag(c, true, obj->line, obj->col,
		     "no events: a phase needs at least one of run, runtime, sleep, timer, "
		     "lock, unlock, wait, signal, broad, sync, suspend, resume, barrier, "
		     "yield, fork, mem, iorun");
		ok = false;
	}
	return ok;
}

static bool check_sched(struct ctx *c, const struct json_value *at, const char *name,
			struct wl_sched *s)
{
	if (s->policy != WL_DEADLINE)
		return true;
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
	return true;
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
	t->sched.policy = c->w->default_policy;
	t->sched.prio = c->w->default_policy == WL_FIFO || c->w->default_policy == WL_RR ? 10 : 0;
	if (!want_type(c, tm, JSON_OBJECT))
		return false;
	for (size_t i = 0; i < obj->len; i++) {
		const struct json_member *m = &obj->members[i];
		bool handled;

		if (!strcmp(m->key, "phases")) {
			if (want_type(c, m, JSON_OBJECT))
				phases = m;
			else
				ok = false;
		} else if (!strcmp(m->key, "instance")) {
			ok &= get_int(c, m, 0, 1024, &t->instance);
		} else if (!strcmp(m->key, "loop")) {
			ok &= get_int(c, m, -1, INT64_MAX, &t->loop);
			has_loop = true;
		} else if (!strcmp(m->key, "delay")) {
			ok &= get_int(c, m, 0, INT64_MAX / 1000, &t->delay_us);
		} else if (!strcmp(m->key, "period") || !strcmp(m->key, "deadline")) {
			ok &= get_int(c, m, 0, INT64_C(1) << 53, &legacy[m->key[0] == 'p' ? 1 : 2]);
		} else if (event_type_of(m->key) >= 0) {
			if (!strcmp(m->key, "runtime") && m->value->type == JSON_NUMBER &&
			    m->value->is_integer)
				legacy[0] = m->value->integer;
			continue; /* events: parse_phase */
		} else {
			ok &= sched_key(c, m, &t->sched, &t->cpus, &handled);
			if (!handled) {
				if (!strcmp(m->key, "global") || !strcmp(m->key, "tasks") ||
				    !strcmp(m->key, "platform") || !strcmp(m->key, "simulation"))
					diag(c, true, m->line, m->col,
					     "\"%s\" is a top-level section, not a task key", m->key);
				else
					diag(c, false, m->line, m->col,
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
		const struct json_value *pv = phases->value;

		t->loop = has_loop ? t->loop : -1;
		t->phases = wl_alloc(c, pv->len * sizeof(*t->phases));
		if (!t->phases)
			return false;
		for (size_t i = 0; i < pv->len; i++) {
			struct wl_phase *ph = &t->phases[t->nr_phases];

			if (!want_type(c, &pv->members[i], JSON_OBJECT)) {
				ok = false;
				continue;
			}
			ph->name = pv->members[i].key;
			if (parse_phase(c, pv->members[i].value, ph, false)) {
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

static void parse_global(struct ctx *c, const struct json_value *g)
{
	static const char *const ignored[] = {
		"calibration", "logdir", "log_basename", "lock_pages", "ftrace",
		"gnuplot", "io_device", "mem_buffer_size", "cumulative_slack", "log_size",
	};

	for (size_t i = 0; i < g->len; i++) {
		const struct json_member *m = &g->members[i];
		bool known = false;

		if (!strcmp(m->key, "duration")) {
			get_int(c, m, -1, INT64_MAX / 1000000000, &c->w->duration_s);
			continue;
		}
		if (!strcmp(m->key, "default_policy")) {
			parse_policy(c, m, &c->w->default_policy);
			continue;
		}
		if (!strcmp(m->key, "pi_enabled")) {
			if (want_type(c, m, JSON_BOOL))
				c->w->pi_enabled = m->value->boolean;
			continue;
		}
		for (size_t k = 0; k < sizeof(ignored) / sizeof(ignored[0]); k++)
			known |= !strcmp(m->key, ignored[k]);
		if (!known)
			diag(c, false, m->line, m->col,
			     "unknown key \"%s\" in global (rt-app ignores it)", m->key);
	}
}

static double get_number(struct ctx *c, const struct json_member *m, double min, double max)
{
	if (bare_key(c, m))
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

static void parse_platform(struct ctx *c, const struct json_value *p)
{
	struct workload *w = c->w;
	int64_t v;

	for (size_t i = 0; i < p->len; i++) {
		const struct json_member *m = &p->members[i];

		if (!strcmp(m->key, "cpus")) {
			if (get_int(c, m, 1, WL_MAX_CPUS, &v))
				w->nr_cpus = (int)v;
		} else if (!strcmp(m->key, "capacity")) {
			const struct json_value *a = m->value;

			if (!want_type(c, m, JSON_ARRAY))
				continue;
			for (size_t k = 0; k < a->len && k < WL_MAX_CPUS; k++) {
				struct json_member e = { .key = m->key, .line = a->items[k]->line,
							 .col = a->items[k]->col, .value = a->items[k] };

				if (get_int(c, &e, 1, 1024, &v))
					w->cpus[k].capacity = (uint32_t)v;
			}
			if (w->nr_cpus < (int)a->len && a->len <= WL_MAX_CPUS)
				w->nr_cpus = (int)a->len;
		} else if (!strcmp(m->key, "clusters")) {
			const struct json_value *cl = m->value;

			if (!want_type(c, m, JSON_OBJECT))
				continue;
			/* "clusters": { "big": { "cpus": [2,3], "power_busy_mw": 750,
			 *                        "power_idle_mw": 20, "capacity": 1024 } } */
			for (size_t k = 0; k < cl->len; k++) {
				const struct json_member *cm = &cl->members[k];
				uint64_t mask = 0;
				double busy = 0, idle = 0;
				int64_t cap = 0;

				if (!want_type(c, cm, JSON_OBJECT))
					continue;
				for (size_t j = 0; j < cm->value->len; j++) {
					const struct json_member *f = &cm->value->members[j];

					if (!strcmp(f->key, "cpus"))
						parse_cpus(c, f, &mask);
					else if (!strcmp(f->key, "power_busy_mw"))
						busy = get_number(c, f, 0, 1e6);
					else if (!strcmp(f->key, "power_idle_mw"))
						idle = get_number(c, f, 0, 1e6);
					else if (!strcmp(f->key, "capacity"))
						get_int(c, f, 1, 1024, &cap);
					else
						diag(c, true, f->line, f->col,
						     "unknown key \"%s\" in cluster (expected cpus, "
						     "capacity, power_busy_mw, power_idle_mw)", f->key);
				}
				if (!mask)
					VDIAG(c, true, cm->value, "cluster \"%s\" needs \"cpus\"", cm->key);
				for (int cpu = 0; cpu < WL_MAX_CPUS; cpu++)
					if (mask & (UINT64_C(1) << cpu)) {
						w->cpus[cpu].cluster = cm->key;
						w->cpus[cpu].power_busy_mw = busy;
						w->cpus[cpu].power_idle_mw = idle;
						if (cap)
							w->cpus[cpu].capacity = (uint32_t)cap;
						if (cpu + 1 > w->nr_cpus)
							w->nr_cpus = cpu + 1;
					}
			}
		} else {
			diag(c, true, m->line, m->col,
			     "unknown key \"%s\" in platform (expected cpus, capacity, clusters)",
			     m->key);
		}
	}
}

static void parse_simulation(struct ctx *c, const struct json_value *s)
{
	struct workload *w = c->w;
	int64_t v;

	for (size_t i = 0; i < s->len; i++) {
		const struct json_member *m = &s->members[i];

		if (!strcmp(m->key, "horizon_us")) {
			get_int(c, m, 1, INT64_MAX / 1000, &w->horizon_us);
		} else if (!strcmp(m->key, "seed")) {
			if (get_int(c, m, 0, INT64_MAX, &v))
				w->seed = (uint64_t)v;
		} else if (!strcmp(m->key, "mode")) {
			if (!want_type(c, m, JSON_STRING))
				continue;
			if (!strcmp(m->value->string, "global"))
				w->mode = WL_MODE_GLOBAL;
			else if (!strcmp(m->value->string, "partitioned"))
				w->mode = WL_MODE_PARTITIONED;
			else if (!strcmp(m->value->string, "clustered"))
				w->mode = WL_MODE_CLUSTERED;
			else
				VDIAG(c, true, m->value, "unknown mode \"%s\" (expected global, "
				      "partitioned or clustered)", m->value->string);
		} else if (!strcmp(m->key, "reservations")) {
			if (!want_type(c, m, JSON_STRING))
				continue;
			if (!strcmp(m->value->string, "soft") || !strcmp(m->value->string, "hard"))
				w->soft_reservations = m->value->string[0] == 's';
			else
				VDIAG(c, true, m->value, "unknown reservations \"%s\" (expected "
				      "hard or soft)", m->value->string);
		} else if (!strcmp(m->key, "hotplug")) {
			const struct json_value *a = m->value;

			if (!want_type(c, m, JSON_ARRAY))
				continue;
			/* A repeated "hotplug" key (or section) adds its events to
			 * the ones before, in file order. */
			struct wl_hotplug *old = w->hotplug;

			w->hotplug = wl_alloc(c, (w->nr_hotplug + a->len) * sizeof(*w->hotplug));
			if (!w->hotplug) {
				w->hotplug = old;
				continue;
			}
			if (w->nr_hotplug)
				memcpy(w->hotplug, old, w->nr_hotplug * sizeof(*w->hotplug));
			for (size_t k = 0; k < a->len; k++) {
				const struct json_value *e = a->items[k];
				struct wl_hotplug *h = &w->hotplug[w->nr_hotplug];

				memset(h, 0, sizeof(*h));

				if (e->type != JSON_OBJECT) {
					VDIAG(c, true, e, "a hotplug entry must be an object "
					      "{\"cpu\": N, \"at_us\": T, \"online\": bool}");
					continue;
				}
				h->cpu = -1;
				for (size_t j = 0; j < e->len; j++) {
					const struct json_member *f = &e->members[j];

					if (!strcmp(f->key, "cpu") && get_int(c, f, 0, WL_MAX_CPUS - 1, &v))
						h->cpu = (int)v;
					else if (!strcmp(f->key, "at_us"))
						get_int(c, f, 0, INT64_MAX / 1000, &h->at_us);
					else if (!strcmp(f->key, "online") && want_type(c, f, JSON_BOOL))
						h->online = f->value->boolean;
					else if (strcmp(f->key, "cpu") && strcmp(f->key, "at_us") &&
						 strcmp(f->key, "online"))
						diag(c, true, f->line, f->col,
						     "unknown key \"%s\" in hotplug entry", f->key);
				}
				if (h->cpu >= 0)
					w->nr_hotplug++;
			}
		} else {
			diag(c, true, m->line, m->col,
			     "unknown key \"%s\" in simulation (expected horizon_us, seed, mode, "
			     "reservations, hotplug)", m->key);
		}
	}
}

/* Cross-references: fork targets exist; every unlock has a lock somewhere;
 * CPU numbers exist on the platform. */
static void check_refs(struct ctx *c)
{
	struct workload *w = c->w;
	uint64_t all = w->nr_cpus >= 64 ? UINT64_MAX : (UINT64_C(1) << w->nr_cpus) - 1;

	for (size_t i = 0; i < w->nr_tasks; i++) {
		struct wl_task *t = &w->tasks[i];

		if (t->cpus & ~all)
			diag(c, true, t->line, t->col,
			     "task \"%s\" uses a CPU the platform does not have (it has %d)",
			     t->name, w->nr_cpus);
		for (size_t p = 0; p < t->nr_phases; p++) {
			if (t->phases[p].cpus & ~all)
				diag(c, true, t->line, t->col,
				     "a phase of task \"%s\" uses a CPU the platform does not have",
				     t->name);
			for (size_t e = 0; e < t->phases[p].nr_events; e++) {
				const struct wl_event *ev = &t->phases[p].events[e];
				bool found = false;

				if (ev->type == WL_FORK) {
					for (size_t k = 0; k < w->nr_tasks; k++)
						if (!strcmp(w->tasks[k].name, ev->ref)) {
							found = true;
							w->tasks[k].forked_only = true;
						}
					if (!found)
						diag(c, true, ev->line, ev->col,
						     "fork of \"%s\": no task has that name", ev->ref);
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
						diag(c, true, ev->line, ev->col,
						     "unlock of \"%s\", which no task ever locks", ev->ref);
				}
			}
		}
	}
}

int workload_load(struct workload *w, const char *fname, const char *text,
		  size_t len, bool strict)
{
	struct ctx c = { .w = w, .fname = fname, .strict = strict };
	const struct json_value *root;
	const struct json_member *tasks = NULL;
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
	if (json_parse(&w->doc, fname, text, len)) {
		const char *e = w->doc.error;
		char **nd = malloc(sizeof(*nd));

		if (nd) {
			w->diags = nd;
			w->diags[0] = malloc(strlen(e) + 8);
			if (w->diags[0]) {
				/* "file:l:c: msg" -> "file:l:c: error: msg" */
				const char *sep = strstr(e, ": ");
				size_t head = sep ? (size_t)(sep - e) + 2 : 0;

				memcpy(w->diags[0], e, head);
				strcpy(w->diags[0] + head, "error: ");
				strcat(w->diags[0], e + head);
				w->nr_diags = 1;
			}
		}
		w->errors = 1;
		return -1;
	}
	root = w->doc.root;
	if (root->type != JSON_OBJECT) {
		diag(&c, true, root->line, root->col, "the workload must be a JSON object, not %s",
		     json_type_name(root->type));
		return -1;
	}
	/* Sections first (global sets the default policy tasks inherit). */
	for (size_t i = 0; i < root->len; i++) {
		const struct json_member *m = &root->members[i];

		if (!strcmp(m->key, "global")) {
			if (want_type(&c, m, JSON_OBJECT))
				parse_global(&c, m->value);
		} else if (!strcmp(m->key, "platform")) {
			if (want_type(&c, m, JSON_OBJECT))
				parse_platform(&c, m->value);
		} else if (!strcmp(m->key, "simulation")) {
			if (want_type(&c, m, JSON_OBJECT))
				parse_simulation(&c, m->value);
		} else if (!strcmp(m->key, "tasks")) {
			if (want_type(&c, m, JSON_OBJECT))
				tasks = m;
		} else if (!strcmp(m->key, "resources")) {
			diag(&c, false, m->line, m->col,
			     "\"resources\" is not needed: resources are created on first use");
		} else {
			diag(&c, true, m->line, m->col,
			     "unknown top-level key \"%s\" (expected global, tasks, platform, "
			     "simulation)", m->key);
		}
	}
	if (!w->nr_cpus)
		w->nr_cpus = 1;
	if (!tasks) {
		diag(&c, true, root->line, root->col, "missing \"tasks\" object");
		return -1;
	}
	w->tasks = wl_alloc(&c, tasks->value->len * sizeof(*w->tasks));
	if (!w->tasks)
		return -1;
	for (size_t i = 0; i < tasks->value->len; i++)
		if (parse_task(&c, &tasks->value->members[i], &w->tasks[w->nr_tasks]))
			w->nr_tasks++;
	if (w->nr_tasks == 0 && w->errors == 0)
		diag(&c, true, tasks->value->line, tasks->value->col, "no tasks");
	check_refs(&c);
	for (size_t i = 0; i < w->nr_hotplug; i++)
		if (w->hotplug[i].cpu >= w->nr_cpus)
			diag(&c, true, root->line, root->col,
			     "hotplug of CPU %d, which the platform does not have", w->hotplug[i].cpu);
	return w->errors ? -1 : 0;
}

/* Reads at most WL_MAX_FILE_SIZE bytes: a regular file is measured before
 * it is read, anything else (a pipe, /dev/zero) is cut off at the bound. */
static char *read_bounded(int fd, size_t *lenp, int *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (fstat(fd, &st)) {
		*err = errno;
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		*err = EISDIR;
		return NULL;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)WL_MAX_FILE_SIZE) {
		*err = EFBIG;
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			/* One byte past the bound tells a file over it. */
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb;

			if (ncap > (size_t)WL_MAX_FILE_SIZE + 1)
				ncap = (size_t)WL_MAX_FILE_SIZE + 1;
			nb = realloc(buf, ncap);
			if (!nb) {
				*err = ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err = errno;
			break;
		}
		if (n == 0) {
			*lenp = len;
			return buf;
		}
		len += (size_t)n;
		if (len > WL_MAX_FILE_SIZE) {
			*err = EFBIG;
			break;
		}
	}
	free(buf);
	return NULL;
}

int workload_load_file(struct workload *w, const char *fname, bool strict)
{
	int fd = open(fname, O_RDONLY), err = 0;
	char *buf;
	size_t len = 0;
	int ret;

	if (fd < 0) {
		err = errno;
		buf = NULL;
	} else {
		buf = read_bounded(fd, &len, &err);
		close(fd);
	}
	if (!buf) {
		memset(w, 0, sizeof(*w));
		w->load_errno = err ? err : EIO;
		return -2;
	}
	ret = workload_load(w, fname, buf, len, strict);
	free(buf); /* the model keeps no pointer into the raw text */
	return ret;
}

const char *workload_load_error(const struct workload *w)
{
	if (w->load_errno == EFBIG)
		return "larger than 64 MiB, the limit for workload files";
	if (w->load_errno == EISDIR)
		return "is a directory";
	return strerror(w->load_errno);
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

int workload_load_cli(struct workload *w, const char *prog, const char *fname, bool strict)
{
	int rc = workload_load_file(w, fname, strict);

	if (rc == -2) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, fname, workload_load_error(w));
		return 66;
	}
	workload_print_diags(w, stderr);
	if (rc) {
		fprintf(stderr, "%s: %u error(s) in %s\n", prog, w->errors, fname);
		workload_free(w);
		return 65;
	}
	return 0;
}

void workload_print_diags(const struct workload *w, FILE *out)
{
	for (size_t i = 0; i < w->nr_diags; i++)
		fprintf(out, "%s\n", w->diags[i]);
}

void workload_dump(const struct workload *w, FILE *out)
{
	fprintf(out, "platform: %d cpus, capacity", w->nr_cpus);
	for (int i = 0; i < w->nr_cpus; i++)
		fprintf(out, " %u", w->cpus[i].capacity);
	fprintf(out, "\n");
	for (int i = 0; i < w->nr_cpus; i++)
		if (w->cpus[i].cluster)
			fprintf(out, "cpu %d: cluster %s, power busy %g mW idle %g mW\n", i,
				w->cpus[i].cluster, w->cpus[i].power_busy_mw,
				w->cpus[i].power_idle_mw);
	fprintf(out, "duration: %lld s, default policy %s\n", (long long)w->duration_s,
		wl_policy_name(w->default_policy));
	fprintf(out, "simulation: horizon %lld us, seed %llu, mode %s\n",
		(long long)w->horizon_us, (unsigned long long)w->seed,
		w->mode == WL_MODE_GLOBAL ? "global" :
		w->mode == WL_MODE_PARTITIONED ? "partitioned" : "clustered");
	for (size_t i = 0; i < w->nr_hotplug; i++)
		fprintf(out, "hotplug: cpu %d %s at %lld us\n", w->hotplug[i].cpu,
			w->hotplug[i].online ? "online" : "offline",
			(long long)w->hotplug[i].at_us);
	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		fprintf(out, "task %s: instance %lld loop %lld delay %lld us policy %s prio %d",
			t->name, (long long)t->instance, (long long)t->loop,
			(long long)t->delay_us, wl_policy_name(t->sched.policy), t->sched.prio);
		if (t->sched.policy == WL_DEADLINE)
			fprintf(out, " dl %llu/%llu/%llu us%s",
				(unsigned long long)t->sched.dl_runtime_us,
				(unsigned long long)t->sched.dl_deadline_us,
				(unsigned long long)t->sched.dl_period_us,
				t->sched.dl_soft > 0 ||
				(t->sched.dl_soft == 0 && w->soft_reservations) ? " soft" : "");
		if (t->cpus)
			fprintf(out, " cpus 0x%llx", (unsigned long long)t->cpus);
		fprintf(out, "\n");
		for (size_t p = 0; p < t->nr_phases; p++) {
			const struct wl_phase *ph = &t->phases[p];

			fprintf(out, "  phase %s loop %lld", ph->name, (long long)ph->loop);
			if (ph->cpus)
				fprintf(out, " cpus 0x%llx", (unsigned long long)ph->cpus);
			if (ph->sched.set) {
				fprintf(out, " policy %s prio %d", wl_policy_name(ph->sched.policy),
					ph->sched.prio);
				if (ph->sched.policy == WL_DEADLINE)
					fprintf(out, " dl %llu/%llu/%llu us",
						(unsigned long long)ph->sched.dl_runtime_us,
						(unsigned long long)ph->sched.dl_deadline_us,
						(unsigned long long)ph->sched.dl_period_us);
			}
			fprintf(out, ":");
			for (size_t e = 0; e < ph->nr_events; e++) {
				const struct wl_event *ev = &ph->events[e];

				fprintf(out, " %s", wl_event_name(ev->type));
				if (ev->ref)
					fprintf(out, "(%s%s%s)", ev->ref, ev->mutex ? "," : "",
						ev->mutex ? ev->mutex : "");
				if (ev->type == WL_TIMER || ev->us)
					fprintf(out, "=%lld", (long long)ev->us);
				if (ev->type == WL_TIMER && ev->absolute)
					fprintf(out, "(absolute)");
			}
			fprintf(out, "\n");
		}
	}
}
