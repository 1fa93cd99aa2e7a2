/*
 * A thread leaves and joins its CPU's runqueue, in the deadline class (the
 * library) or a lower one (lower.c): blocking, waking, and joining the
 * deadline class with an inherited reservation (a boost). The rt-app
 * interpreter (thread.c, lock.c) and the CPUs (cpu.c) call it; it calls
 * only lower.c and platform.c.
 */
#include "sim_impl.h"

void dlsim_thread_block(struct sim *s, struct thread *t, bool job_done)
{
	if (!t->runnable)
		return;
	dlsim_thread_touch(s, t);
	t->runnable = false;
	if (t->is_dl) {
		dlsim_lib_ok(s, dls_dequeue(rq_of(s, t), &t->se,
				      job_done ? DLS_DEQUEUE_DONE : DLS_DEQUEUE_SLEEP),
		       "dls_dequeue", t);
		if (t->guest)
			dlsim_guest_blocked(s, t->guest, t->se.rq->cpu);
	} else
		dlsim_lower_remove(s, t);
	if (s->cpus[tcpu(t)].curr == t)
		dlsim_resched(s, tcpu(t));
}

void dlsim_thread_wake(struct sim *s, struct thread *t)
{
	if (t->runnable || t->exited)
		return;
	dlsim_thread_touch(s, t);
	t->runnable = true;
	if (t->is_dl) {
		if (t->guest && t->guest->dom.smp && !t->se.throttled) {
			/* global EDF inside its guest: across the vCPUs */
			struct guest *g = t->guest;
			int v = dls_select_cpu(&g->dom, &t->se, t->se.rq->cpu);

			if (v >= 0)
				dls_entity_move(&t->se, &g->rqs[v]);
		} else if (!t->guest && s->dom.smp && !t->se.throttled) {
			int cpu = dls_select_cpu(&s->dom, &t->se, tcpu(t));

			if (cpu >= 0)
				dls_entity_move(&t->se, &s->rqs[cpu]);
		}
		dlsim_lib_ok(s, dls_wakeup(rq_of(s, t), &t->se), "dls_wakeup", t);
		if (t->guest)
			dlsim_guest_kick(s, t->guest);
	} else {
		dlsim_lower_wake(s, t);
	}
}

/*
 * A priority thread inherits a deadline: it joins the deadline class on
 * its CPU with its donor's reservation (the donor is a deadline thread or
 * one boosted like this), ordered by the inherited deadline. Returns
 * false when that cannot be done; it then stays at the top of its class.
 */
bool dlsim_dl_boost_start(struct sim *s, struct thread *t)
{
	struct thread *d = t->pi.donor ? pi_thread(t->pi.donor) : NULL;
	struct cpu *c = &s->cpus[t->cpu];
	struct dls_params p;
	int r;

	/* A stranded thread (its CPU offline) stays where it is. */
	if (!d || !d->se.rq || t->cpu < 0 || c->offline)
		return false;
	dlsim_thread_touch(s, t); /* its class changes */
	p = d->se.params;
	r = dls_entity_attach_borrowed(&s->rqs[t->cpu], &t->se, &p);
	if (r)
		return false;
	if (t->mask && s->dom.smp && dls_entity_set_affinity(&t->se, t->mask)) {
		dls_task_dead(t->se.rq, &t->se);
		return false;
	}
	if (t->runnable && c->curr != t)
		dlsim_lower_remove(s, t);
	t->is_dl = true;
	if (t->runnable)
		dlsim_lib_ok(s, dls_wakeup(t->se.rq, &t->se), "dls_wakeup", t);
	dlsim_lib_ok(s, dls_entity_set_boost(t->se.rq, &t->se, true, t->pi.eff.dl),
	       "dls_entity_set_boost", t);
	dlsim_resched(s, tcpu(t));
	dlsim_resched(s, (int)(c - s->cpus));
	return true;
}
