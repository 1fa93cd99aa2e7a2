/*
 * dlsim's virtual platform, the bottom of the simulator: the event queue
 * (virtual time), the records handed to the outputs as they are made
 * (inline in sim_impl.h: most runs record none), the charge of a CPU the
 * per-CPU loop touches, the one place a run's errors are noted, and the
 * check of the library's answers. Every other file of the simulator calls
 * down to it; it calls only the library and the outputs.
 */
#include "sim_impl.h"

#include <stdarg.h>
#include <string.h>

/* ---- event queue ---------------------------------------------------- */

static bool qev_less(const struct dls_rb_node *a, const struct dls_rb_node *b)
{
	const struct qev *x = dls_container_of(a, struct qev, node);
	const struct qev *y = dls_container_of(b, struct qev, node);

	/* without a branch: the queue's descent picks a child without one */
	return dls_time_before(x->t, y->t) | ((x->t == y->t) & (x->seq < y->seq));
}

void dlsim_q_add(struct sim *s, struct qev *e, uint64_t t)
{
	q_remove(s, e);
	e->t = t;
	e->seq = s->seq++;
	dls_rb_add_cached(&e->node, &s->queue, qev_less);
	e->queued = true;
}

/* The queue's order (--check). */
const char *dlsim_q_check(struct sim *s)
{
	return dls_rb_check_cached(&s->queue, qev_less);
}

/* ---- the per-CPU loop's charges ---------------------------------------- */

/* @cpu's thread is charged up to now, and @cpu noted for this step
 * (dlsim_cpu_touch(): out of line, so that its callers stay small). */
uint64_t dlsim_cpu_catch_up(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];

	cpu_charge(s, cpu, c->charged_to, s->now - c->charged_to);
	c->charged_to = s->now;
	s->touched[WL_CPUSET_WORD(cpu)] |= WL_CPUSET_BIT(cpu);
	return s->now;
}

/* ---- errors ------------------------------------------------------------ */

/* How grave an error is: a graver one replaces a lesser. */
static int error_rank(int code)
{
	switch (code) {
	case DLSIM_EXIT_FAILURE:
		return 4;
	case DLSIM_EXIT_DEADLOCK:
		return 3;
	case DLSIM_EXIT_REFUSED:
		return 2;
	case DLSIM_EXIT_INVARIANT:
		return 1;
	default:
		return 0;
	}
}

void sim_error(struct sim *s, int code, const char *fmt, ...)
{
	va_list ap;

	if (error_rank(code) <= error_rank(s->err.code))
		return;
	s->err.code = code;
	va_start(ap, fmt);
	vsnprintf(s->err.msg, sizeof(s->err.msg), fmt, ap);
	va_end(ap);
}

/* The simulator calls the library only where the call applies to the
 * entity's state: a refusal is a simulator bug, reported as one. */
void dlsim_lib_ok(struct sim *s, int rc, const char *call, const struct thread *t)
{
	if (rc)
		sim_fatal(s, "internal error: %s refused for \"%s\": %s", call,
			  t ? t->name : "the fair server", dls_strerror(rc));
}

/* A server's throttle or replenishment traced by the library: counted in
 * @throttles or @replenishes, and marked on CPU @cpu's row as @what[0]
 * (throttle) or @what[1] (replenishment), with the budget after it. */
void dlsim_server_mark(struct sim *s, int cpu, const struct dls_trace_event *ev,
		       const char *const what[2], uint64_t *throttles, uint64_t *replenishes)
{
	bool throttle = ev->type == DLS_TRACE_THROTTLE;

	if (!throttle && ev->type != DLS_TRACE_REPLENISH)
		return;
	++*(throttle ? throttles : replenishes);
	if (s->timeline)
		sim_emit_mark(s, &(struct mark){
			.cpu = cpu, .thread = -1, .t = s->now, .what = what[!throttle],
			.has_budget = true, .runtime = ev->runtime, .deadline = ev->deadline });
}

/* Pin server entity @se to @cpu in a global domain, through a mask kept in
 * *@slot (freed with the simulation). 0, or -1 without memory. */
int dlsim_pin_entity(struct sim *s, struct dls_entity *se, int cpu, struct dls_cpumask **slot)
{
	size_t sz = dls_cpumask_size(s->nr_cpus);
	struct dls_cpumask *m = malloc(sz);

	if (!m)
		return -1;
	*slot = m;
	dls_cpumask_init(m, sz, s->nr_cpus);
	dls_cpumask_set(m, cpu);
	return dls_entity_set_affinity(se, m) ? -1 : 0;
}

/* ---- the platform's description ---------------------------------------- */

/* Whether CPUs @a and @b are in one cluster (or both in none). */
bool dlsim_same_cluster(const struct workload *w, int a, int b)
{
	const char *x = w->cpus[a].cluster, *y = w->cpus[b].cluster;

	return x && y ? !strcmp(x, y) : x == y;
}
