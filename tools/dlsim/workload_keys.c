/*
 * The workload reader's helpers for one key: diagnostics with their
 * position, allocations that live as long as the workload, and the value
 * types several sections share (integers in a range, policies, CPU lists).
 * workload.c (tasks, phases, events) and workload_sections.c (the global,
 * platform and simulation sections) both use them; they call neither.
 */
#include "workload_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void dlsim_diag(struct ctx *c, bool error, int line, int col, const char *fmt, ...)
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

void *wl_alloc(struct ctx *c, size_t n)
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

/* A bare key ("suspend", with no value) where a value is needed. */
bool dlsim_bare_key(struct ctx *c, const struct json_member *m)
{
	if (!m->bare)
		return false;
	dlsim_diag(c, true, m->line, m->col, "\"%s\" has no value (expected \"%s\": value)",
	     m->key, m->key);
	return true;
}

bool dlsim_want_type(struct ctx *c, const struct json_member *m, enum json_type t)
{
	if (m->value->type == t)
		return true;
	if (dlsim_bare_key(c, m))
		return false;
	VDIAG(c, true, m->value, "\"%s\" must be %s %s, not %s", m->key,
	      t == JSON_OBJECT || t == JSON_ARRAY ? "an" : "a", json_type_name(t),
	      json_type_name(m->value->type));
	return false;
}

bool dlsim_get_int(struct ctx *c, const struct json_member *m, int64_t min,
		    int64_t max, int64_t *out)
{
	const struct json_value *v = m->value;
	int64_t i;

	if (dlsim_bare_key(c, m))
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
		char text[32];

		json_number_text(text, sizeof(text), v->number);
		VDIAG(c, true, v, "\"%s\" must be an integer, not a fraction (%s)", m->key, text);
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

const char *wl_policy_name(enum wl_policy p)
{
	static const char *const n[] = { "SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE",
					 "SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE" };
	return n[p];
}

bool dlsim_parse_policy(struct ctx *c, const struct json_member *m, enum wl_policy *out)
{
	if (!dlsim_want_type(c, m, JSON_STRING))
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

bool dlsim_parse_cpus(struct ctx *c, const struct json_member *m, struct wl_cpuset *mask)
{
	const struct json_value *v = m->value;

	if (!dlsim_want_type(c, m, JSON_ARRAY))
		return false;
	*mask = (struct wl_cpuset){ { 0 } };
	for (size_t i = 0; i < v->len; i++) {
		const struct json_value *e = v->items[i];

		if (e->type != JSON_NUMBER || !e->is_integer || e->integer < 0 ||
		    e->integer >= WL_MAX_CPUS) {
			VDIAG(c, true, e, "a CPU in \"cpus\" must be an integer in [0, %d)",
			      WL_MAX_CPUS);
			return false;
		}
		wl_cpuset_set(mask, (int)e->integer);
	}
	if (wl_cpuset_empty(mask)) {
		VDIAG(c, true, v, "\"cpus\" is empty");
		return false;
	}
	return true;
}
