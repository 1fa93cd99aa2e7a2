/*
 * The "servers" section: hierarchical servers, each a deadline reservation
 * (runtime, deadline, period) on every host CPU it names (one vCPU per
 * CPU), whose budget runs the tasks it lists:
 *
 *   "servers": { "vm1": { "runtime": 3000, "period": 10000, "deadline": 10000,
 *                         "cpus": [0, 1], "tasks": ["video", "audio"] } }
 *
 * One CPU is a hierarchical CBS server (Lipari & Baruah, RTAS 2001); k CPUs
 * a k-vCPU guest running global EDF over its vCPUs. Read after the tasks
 * and the platform's CPU count, since it names both.
 *
 * What the model holds once read (each refused by name otherwise):
 *   0 < runtime <= deadline <= period; cpus non-empty, distinct, on the
 *   platform; tasks non-empty, each an existing task in at most one server,
 *   SCHED_DEADLINE in the task and in every phase that names a policy (its
 *   dl-runtime/dl-period is its reservation inside the guest) and not the
 *   target of a fork nor pinned by "cpus" (neither modelled); the servers
 *   sharing a host CPU have a total bandwidth (runtime / period) of at
 *   most 1.
 */
#include "workload_impl.h"

#include <string.h>

#define MAX_TIME_US (INT64_C(1) << 53) /* as the tasks' dl-* keys */

/* The keys a server's object gave (NULL: not given) and which of them
 * were read without error. */
enum { K_RUNTIME, K_PERIOD, K_DEADLINE, K_CPUS, K_TASKS, NR_KEYS };

static const char *const key_names[NR_KEYS] = { "runtime", "period", "deadline", "cpus",
						 "tasks" };

struct server_keys {
	const struct json_member *given[NR_KEYS];
	bool read[NR_KEYS];
};

/* "cpus": host CPUs, each once, each on the platform. */
static bool parse_host_cpus(struct ctx *c, const struct json_member *m, struct wl_server *s)
{
	const struct json_value *a = m->value;
	bool ok = true;

	if (!dlsim_want_type(c, m, JSON_ARRAY))
		return false;
	if (!a->len) {
		VDIAG(c, true, a, "server \"%s\": \"cpus\" is empty (one host CPU per vCPU)",
		      s->name);
		return false;
	}
	for (size_t i = 0; i < a->len; i++) {
		const struct json_value *e = a->items[i];

		if (e->type != JSON_NUMBER || !e->is_integer || e->integer < 0) {
			VDIAG(c, true, e, "server \"%s\": a CPU in \"cpus\" must be an integer "
			      "in [0, %d)", s->name, c->w->nr_cpus);
			ok = false;
		} else if (e->integer >= c->w->nr_cpus) {
			VDIAG(c, true, e, "server \"%s\": CPU %lld is not on the platform (it has "
			      "%d CPU%s)", s->name, (long long)e->integer, c->w->nr_cpus,
			      c->w->nr_cpus > 1 ? "s" : "");
			ok = false;
		} else if (wl_cpuset_test(&s->cpus, (int)e->integer)) {
			VDIAG(c, true, e, "server \"%s\": CPU %lld is listed twice in \"cpus\" "
			      "(one vCPU per host CPU)", s->name, (long long)e->integer);
			ok = false;
		} else {
			wl_cpuset_set(&s->cpus, (int)e->integer);
		}
	}
	return ok;
}

static size_t find_task(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (!strcmp(w->tasks[i].name, name))
			return i;
	return w->nr_tasks;
}

/* Is @t a deadline task from start to end: its policy, and that of every
 * phase that names one? @at: the first phase that is not, or NULL. */
static bool deadline_throughout(const struct wl_task *t, const struct wl_phase **at)
{
	*at = NULL;
	if (t->sched.policy != WL_DEADLINE)
		return false;
	for (size_t p = 0; p < t->nr_phases; p++)
		if (t->phases[p].sched.set && t->phases[p].sched.policy != WL_DEADLINE) {
			*at = &t->phases[p];
			return false;
		}
	return true;
}

/* Does @t, or one of its phases, ask for CPUs? */
static bool has_affinity(const struct wl_task *t)
{
	bool any = !wl_cpuset_empty(&t->cpus);

	for (size_t p = 0; p < t->nr_phases; p++)
		any |= !wl_cpuset_empty(&t->phases[p].cpus);
	return any;
}

/* May task @t run inside server @s? Says why not at @e (its name in "tasks"). */
static bool guest_task_ok(struct ctx *c, const struct wl_server *s, const struct wl_task *t,
			  const struct json_value *e)
{
	const struct wl_phase *ph;

	if (t->server >= 0) {
		const struct wl_server *o = &c->w->servers[t->server];

		VDIAG(c, true, e, "server \"%s\": task \"%s\" is already in server \"%s\" "
		      "(%d:%d); a task runs in one server", s->name, t->name, o->name, o->line,
		      o->col);
		return false;
	}
	if (!deadline_throughout(t, &ph)) {
		if (ph)
			VDIAG(c, true, e, "server \"%s\": task \"%s\" turns %s in phase \"%s\" "
			      "(%d:%d): a task inside a server must be SCHED_DEADLINE throughout "
			      "(its dl-runtime/dl-period is its reservation inside the guest)",
			      s->name, t->name, wl_policy_name(ph->sched.policy), ph->name,
			      ph->line, ph->col);
		else
			VDIAG(c, true, e, "server \"%s\": task \"%s\" is %s: a task inside a "
			      "server must be SCHED_DEADLINE (its dl-runtime/dl-period is its "
			      "reservation inside the guest)", s->name, t->name,
			      wl_policy_name(t->sched.policy));
		return false;
	}
	if (has_affinity(t)) {
		VDIAG(c, true, e, "server \"%s\": task \"%s\" has \"cpus\": an affinity inside a "
		      "guest (host CPUs or vCPUs?) is not modelled; the server's \"cpus\" place "
		      "it", s->name, t->name);
		return false;
	}
	if (t->forked) {
		VDIAG(c, true, e, "server \"%s\": task \"%s\" is the target of a fork: forked "
		      "threads inside a server are not modelled", s->name, t->name);
		return false;
	}
	return true;
}

/* "tasks": names of the tasks section, each put in server @si. */
static bool parse_guest_tasks(struct ctx *c, const struct json_member *m, size_t si)
{
	struct workload *w = c->w;
	struct wl_server *s = &w->servers[si];
	const struct json_value *a = m->value;
	bool ok = true;

	if (!dlsim_want_type(c, m, JSON_ARRAY))
		return false;
	if (!a->len) {
		VDIAG(c, true, a, "server \"%s\": \"tasks\" is empty (a server runs at least "
		      "one task)", s->name);
		return false;
	}
	s->tasks = wl_alloc(c, a->len * sizeof(*s->tasks));
	if (!s->tasks)
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const struct json_value *e = a->items[i];
		size_t k;

		if (e->type != JSON_STRING) {
			VDIAG(c, true, e, "server \"%s\": an entry of \"tasks\" must be a task's "
			      "name (a string), not %s", s->name, json_type_name(e->type));
			ok = false;
			continue;
		}
		k = find_task(w, e->string);
		if (k == w->nr_tasks) {
			VDIAG(c, true, e, "server \"%s\": no task is named \"%s\" in \"tasks\"",
			      s->name, e->string);
			ok = false;
		} else if (w->tasks[k].server == (int)si) {
			VDIAG(c, true, e, "server \"%s\": task \"%s\" is listed twice", s->name,
			      e->string);
			ok = false;
		} else if (guest_task_ok(c, s, &w->tasks[k], e)) {
			w->tasks[k].server = (int)si;
			s->tasks[s->nr_tasks++] = k;
		} else {
			ok = false;
		}
	}
	return ok;
}

static bool time_key(struct ctx *c, const struct json_member *m, uint64_t *out)
{
	int64_t v;

	if (!dlsim_get_int(c, m, 1, MAX_TIME_US, &v))
		return false;
	*out = (uint64_t)v;
	return true;
}

static bool read_key(struct ctx *c, const struct json_member *m, int key, size_t si)
{
	struct wl_server *s = &c->w->servers[si];

	switch (key) {
	case K_RUNTIME:
		return time_key(c, m, &s->runtime_us);
	case K_PERIOD:
		return time_key(c, m, &s->period_us);
	case K_DEADLINE:
		return time_key(c, m, &s->deadline_us);
	case K_CPUS:
		return parse_host_cpus(c, m, s);
	default:
		return parse_guest_tasks(c, m, si);
	}
}

/* The keys of one server's object into server @si, each at most once. */
static bool parse_server_keys(struct ctx *c, const struct json_value *obj, size_t si,
			      struct server_keys *k)
{
	const char *name = c->w->servers[si].name;
	bool ok = true;

	for (size_t i = 0; i < obj->len; i++) {
		const struct json_member *m = &obj->members[i];
		int key = 0;

		while (key < NR_KEYS && strcmp(m->key, key_names[key]))
			key++;
		if (key == NR_KEYS) {
			dlsim_diag(c, true, m->line, m->col, "unknown key \"%s\" in server \"%s\" "
			     "(expected runtime, period, deadline, cpus, tasks)", m->key, name);
			ok = false;
		} else if (k->given[key]) {
			dlsim_diag(c, true, m->line, m->col, "server \"%s\": a second \"%s\" (the "
			     "first is at %d:%d)", name, m->key, k->given[key]->line,
			     k->given[key]->col);
			ok = false;
		} else {
			k->given[key] = m;
			ok &= k->read[key] = read_key(c, m, key, si);
		}
	}
	return ok;
}

/* Required keys, the default deadline (said), runtime <= deadline <= period. */
static bool check_server(struct ctx *c, const struct json_member *sm, struct wl_server *s,
			 const struct server_keys *k)
{
	bool ok = true;

	for (int key = 0; key < NR_KEYS; key++)
		if (key != K_DEADLINE && !k->given[key]) {
			dlsim_diag(c, true, sm->line, sm->col, "server \"%s\" needs \"%s\"",
			     s->name, key_names[key]);
			ok = false;
		}
	if (!ok || !k->read[K_RUNTIME] || !k->read[K_PERIOD])
		return false;
	if (!k->given[K_DEADLINE]) {
		s->deadline_us = s->period_us;
		dlsim_diag(c, false, sm->line, sm->col, "server \"%s\" gives no \"deadline\": "
		     "%llu us, its period", s->name, (unsigned long long)s->period_us);
	} else if (!k->read[K_DEADLINE]) {
		return false; /* refused where it stands */
	}
	if (s->runtime_us > s->deadline_us) {
		dlsim_diag(c, true, sm->line, sm->col, "server \"%s\": runtime %llu us exceeds "
		     "deadline %llu us", s->name, (unsigned long long)s->runtime_us,
		     (unsigned long long)s->deadline_us);
		return false;
	}
	if (s->deadline_us > s->period_us) {
		dlsim_diag(c, true, sm->line, sm->col, "server \"%s\": deadline %llu us exceeds "
		     "period %llu us", s->name, (unsigned long long)s->deadline_us,
		     (unsigned long long)s->period_us);
		return false;
	}
	return k->read[K_CPUS] && k->read[K_TASKS];
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * Is the sum of runtime / period over the servers of @cpu above 1? Exact
 * (a running fraction over the LCM of the periods) while it fits 64 bits,
 * which periods of at most 2^53 us leave for every usual set; past it, in
 * long double. @sum: the sum, for the message.
 */
static bool cpu_overloaded(const struct workload *w, int cpu, double *sum)
{
	uint64_t num = 0, den = 1;
	long double approx = 0;
	bool exact = true;

	for (size_t i = 0; i < w->nr_servers; i++) {
		const struct wl_server *s = &w->servers[i];
		uint64_t lcm, a, b;

		if (!s->period_us || !wl_cpuset_test(&s->cpus, cpu))
			continue;
		approx += (long double)s->runtime_us / (long double)s->period_us;
		if (!exact)
			continue;
		exact = !__builtin_mul_overflow(den / gcd(den, s->period_us), s->period_us, &lcm) &&
			!__builtin_mul_overflow(num, lcm / den, &a) &&
			!__builtin_mul_overflow(s->runtime_us, lcm / s->period_us, &b) &&
			!__builtin_add_overflow(a, b, &num);
		den = lcm;
	}
	*sum = (double)approx;
	return exact ? num > den : approx > 1;
}

/* Servers may share a host CPU while their bandwidth there sums to at most
 * 1; the first server that passes it is named. */
static void check_shared_cpus(struct ctx *c)
{
	struct workload *w = c->w;
	struct wl_cpuset seen = { { 0 } };

	for (size_t i = 0; i < w->nr_servers; i++) {
		const struct wl_server *s = &w->servers[i];
		int cpu;

		wl_cpuset_for_each(cpu, &s->cpus) {
			double sum;

			if (!wl_cpuset_test(&seen, cpu) || !cpu_overloaded(w, cpu, &sum)) {
				wl_cpuset_set(&seen, cpu);
				continue;
			}
			dlsim_diag(c, true, s->line, s->col, "server \"%s\": CPU %d is shared by "
			     "servers of total bandwidth %.4f (runtime / period), more than the "
			     "CPU", s->name, cpu, sum);
			return;
		}
	}
}

static const struct wl_server *find_server(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nr_servers; i++)
		if (!strcmp(w->servers[i].name, name))
			return &w->servers[i];
	return NULL;
}

void dlsim_parse_servers(struct ctx *c, const struct json_member *m)
{
	struct workload *w = c->w;
	const struct json_value *sv = m->value;
	bool ok = true;

	w->servers = wl_alloc(c, sv->len * sizeof(*w->servers));
	if (!w->servers)
		return;
	for (size_t i = 0; i < sv->len; i++) {
		const struct json_member *sm = &sv->members[i];
		struct wl_server *s = &w->servers[w->nr_servers];
		struct server_keys k = { { 0 }, { 0 } };
		const struct wl_server *twin = find_server(w, sm->key);

		if (twin) {
			dlsim_diag(c, true, sm->line, sm->col, "a second server \"%s\" (the first "
			     "is at %d:%d); give each server its own name", sm->key, twin->line,
			     twin->col);
			ok = false;
			continue;
		}
		*s = (struct wl_server){ .name = sm->key, .line = sm->line, .col = sm->col };
		w->nr_servers++; /* guest_task_ok() names it */
		if (!dlsim_want_type(c, sm, JSON_OBJECT)) {
			ok = false;
			continue;
		}
		ok &= parse_server_keys(c, sm->value, w->nr_servers - 1, &k);
		ok &= check_server(c, sm, s, &k);
	}
	if (ok)
		check_shared_cpus(c);
}
