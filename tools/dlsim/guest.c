/*
 * The "servers" section: hierarchical servers (Lipari & Baruah, "A
 * hierarchical extension to the constant bandwidth server framework",
 * RTAS 2001), one-vCPU or k-vCPU guests as a hypervisor runs them.
 *
 * Each server is a guest domain of the library: one runqueue per vCPU,
 * global EDF across them when there are several (the library's SMP layer
 * inside the guest), its own admission limited to the mean bandwidth of its
 * servers (dls_server_guest_admit()). Each vCPU is a server entity on its
 * host CPU's runqueue (dls_server_guest_ops: its inner scheduler is the
 * vCPU's runqueue), pinned there. A host CPU runs a guest thread while that
 * vCPU's server is the host's pick; the host charges the server's budget,
 * the guest charges the thread's own reservation, each through its domain's
 * clock (the simulation's). A throttled server runs nothing of its guest.
 *
 * Lock order as the library documents it: the host's runqueue, then the
 * guest's; the guest's resched op only asks the host CPU to pick again.
 */
#include "sim_impl.h"

#include <string.h>

struct vcpu *dlsim_vcpu_of(const struct dls_entity *se)
{
	struct dls_server *srv = dls_server_of(se);
	struct dls_rq *grq;
	struct guest *g;

	if (!srv || srv->ops != &dls_server_guest_ops)
		return NULL;
	grq = srv->arg;
	g = dls_container_of(grq->dom, struct guest, dom);
	return &g->vc[grq->cpu];
}

static int add_vcpu(struct sim *s, struct cpu *c, struct vcpu *v)
{
	struct vcpu **n = realloc(c->vcpus, (c->nr_vcpus + 1) * sizeof(*n));

	if (!n)
		return -1;
	c->vcpus = n;
	c->vcpus[c->nr_vcpus++] = v;
	(void)s;
	return 0;
}

/* The guest's domain: the host's CBS rules, its vCPUs' runqueues. */
static int guest_domain(struct sim *s, struct guest *g, const struct dls_ops *ops)
{
	g->rqs = calloc((size_t)g->nr, sizeof(*g->rqs));
	g->srv = calloc((size_t)g->nr, sizeof(*g->srv));
	g->vc = calloc((size_t)g->nr, sizeof(*g->vc));
	g->masks = calloc((size_t)g->nr, sizeof(*g->masks));
	if (!g->rqs || !g->srv || !g->vc || !g->masks)
		return -1;
	dls_domain_init(&g->dom, ops, g, &s->dom.cfg, g->rqs, g->nr);
	if (g->nr > 1) {
		size_t sz = dls_smp_size(g->nr);

		g->smp_mem = calloc(1, sz);
		if (!g->smp_mem || dls_smp_init(&g->dom, g->smp_mem, sz))
			return -1;
	}
	return 0;
}

/* Guest @g's vCPU servers on their host CPUs; 1 when admission refuses one. */
static int attach_vcpus(struct sim *s, struct guest *g)
{
	const struct wl_server *w = g->w;
	struct dls_params p = { .runtime = w->runtime_us * US, .deadline = w->deadline_us * US,
				.period = w->period_us * US };
	int v = 0, rc;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!wl_cpuset_test(&w->cpus, cpu))
			continue;
		g->vc[v] = (struct vcpu){ .g = g, .idx = v, .host = cpu };
		dls_rb_node_init(&g->vc[v].timer.node);
		g->vc[v].timer.kind = EV_VCPU_TIMER;
		if (dls_server_init(&g->srv[v], &dls_server_guest_ops, &g->rqs[v], 0))
			return -1;
		/* the vCPU runs at its host CPU's speed: charged as the host's */
		dls_rq_set_capacity(&g->rqs[v], s->cpus[cpu].capacity);
		rc = dls_server_attach(&s->rqs[cpu], &g->srv[v], &p);
		if (rc) {
			fprintf(stderr, "dlsim: %s:%d:%d: server \"%s\": CPU %d refused its vCPU "
				"(%llu us every %llu us): %s\n", s->w->fname ? s->w->fname : "workload",
				w->line, w->col, w->name, cpu, (unsigned long long)w->runtime_us,
				(unsigned long long)w->period_us, dls_strerror(rc));
			return 1;
		}
		if ((s->dom.smp && dlsim_pin_entity(s, &g->srv[v].se, cpu, &g->masks[v])) ||
		    add_vcpu(s, &s->cpus[cpu], &g->vc[v]))
			return -1;
		v++;
	}
	return dls_server_guest_admit(&g->dom, g->srv, g->nr) ? -1 : 0;
}

/* Every server of the section, before any thread (their bandwidth comes
 * first on the host). Returns 0, -1 without memory, 1 when refused. */
int dlsim_guests_setup(struct sim *s, const struct dls_ops *ops)
{
	const struct workload *w = s->w;

	if (!w->nr_servers)
		return 0;
	s->guests = calloc(w->nr_servers, sizeof(*s->guests));
	if (!s->guests)
		return -1;
	for (size_t i = 0; i < w->nr_servers; i++) {
		struct guest *g = &s->guests[i];
		int rc;

		g->s = s;
		g->w = &w->servers[i];
		g->id = (int)i;
		g->nr = wl_cpuset_count(&g->w->cpus);
		s->nr_guests++;
		if (guest_domain(s, g, ops))
			return -1;
		rc = attach_vcpus(s, g);
		if (rc)
			return rc;
	}
	return 0;
}

void dlsim_guests_free(struct sim *s)
{
	for (int i = 0; i < s->nr_guests; i++) {
		struct guest *g = &s->guests[i];

		for (int v = 0; g->masks && v < g->nr; v++)
			free(g->masks[v]);
		free(g->masks);
		free(g->rqs);
		free(g->srv);
		free(g->vc);
		free(g->smp_mem);
	}
	free(s->guests);
	for (int cpu = 0; s->cpus && cpu < s->nr_cpus; cpu++)
		free(s->cpus[cpu].vcpus);
}

/* A guest thread starts on its guest's vCPUs, first fit by reserved
 * bandwidth as on the host; returns the host CPU of the vCPU, or -1 with
 * *err the library's refusal. */
int dlsim_guest_place(struct sim *s, struct thread *t, struct dls_params *p, int *err)
{
	struct guest *g = t->guest;

	(void)s;
	*err = DLS_EBANDWIDTH;
	for (int v = 0; v < g->nr; v++) {
		int r = dls_entity_attach(&g->rqs[v], &t->se, p);

		if (r == 0)
			return g->vc[v].host;
		if (r != DLS_EBANDWIDTH) {
			*err = r;
			return -1;
		}
	}
	return -1;
}

/* vCPU @v of guest @g: its server starts if it is idle and has work. */
static void start_if_work(struct sim *s, struct guest *g, int v)
{
	struct dls_server *srv = &g->srv[v];

	if (srv->state == DLS_SERVER_IDLE && srv->ops->has_work(srv->arg))
		dlsim_lib_ok(s, dls_server_start(&s->rqs[g->vc[v].host], srv), "dls_server_start",
			     NULL);
}

/* Work may have appeared in guest @g (a wake-up, a replenishment): its
 * idle vCPU servers with work start now, as a host entity would join its
 * runqueue now, not at the next pick. */
void dlsim_guest_kick(struct sim *s, struct guest *g)
{
	for (int v = 0; v < g->nr; v++)
		start_if_work(s, g, v);
}

/* A thread of guest @g left vCPU @v's runqueue (it blocked): a vCPU with
 * nothing queued any more stops its server now (the CBS blocked rule at
 * this instant), as a host entity leaves its runqueue now. */
void dlsim_guest_blocked(struct sim *s, struct guest *g, int v)
{
	struct dls_server *srv = &g->srv[v];

	if (srv->state != DLS_SERVER_IDLE && !g->rqs[v].nr_running)
		dlsim_lib_ok(s, dls_server_stop(&s->rqs[g->vc[v].host], srv), "dls_server_stop",
			     NULL);
}

void dlsim_guests_update(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];

	for (unsigned int k = 0; k < c->nr_vcpus; k++)
		start_if_work(s, c->vcpus[k]->g, c->vcpus[k]->idx);
}

/* The library traced a vCPU server's throttle or replenishment. */
void dlsim_vcpu_trace(struct sim *s, struct vcpu *v, const struct dls_trace_event *ev)
{
	static const char *const what[2] = { "server throttle", "server replenish" };

	dlsim_server_mark(s, v->host, ev, what, &v->throttles, &v->replenishes);
}

const char *dlsim_guests_check(struct sim *s)
{
	for (int i = 0; i < s->nr_guests; i++) {
		struct guest *g = &s->guests[i];
		const char *err = dls_domain_check(&g->dom);

		for (int v = 0; !err && v < g->nr; v++)
			err = dls_server_check(&g->srv[v]);
		if (err)
			return err;
	}
	for (int cpu = 0; s->guests && cpu < s->nr_cpus; cpu++) {
		const struct cpu *c = &s->cpus[cpu];
		const struct vcpu *v = c->vcpu;

		if (!v)
			continue;
		if (!c->curr || c->curr->guest != v->g)
			return "server: the CPU runs inside a vCPU a thread of another guest";
		if (v->g->srv[v->idx].curr != &c->curr->se)
			return "server: the CPU and its vCPU disagree on what runs inside";
	}
	return NULL;
}
