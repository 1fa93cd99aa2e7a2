/*
 * dlsim's private header: the simulator's state and the calls between its
 * files. Each file has one job; each calls only the files below it (no
 * circle between them; the layers of DESIGN.md, sinks at the bottom,
 * then the engine, then the rt-app interpreter, then the run):
 *
 *   engine.c   the top: the library's platform ops, the step loop (when
 *              each CPU next needs attention, charging what it runs: the
 *              hot path, kept in one translation unit), --check, sim_run()
 *   thread.c   the rt-app interpreter: threads, rt-app events (one
 *              function per event kind), placement and spawning
 *   lock.c     its wait lists and the PI mutexes (boosting, deadlock reports)
 *   cpu.c      what a CPU runs: picking, run slices, hotplug
 *   wake.c     a thread leaving and joining its runqueue: blocking,
 *              waking, joining the deadline class with a boost
 *   lower.c    the classes below SCHED_DEADLINE: FIFO/RR by priority, the
 *              fair class by weight (EEVDF), and how their threads move
 *              between CPUs (RT push/pull, fair idle balancing)
 *   platform.c the event queue (virtual time), records for the outputs,
 *              errors, the check of the library's answers
 *   output.c   the output interface: hands each record to the chosen
 *              writers as the run produces it; output_summary.c,
 *              output_json.c, output_jobs.c, output_trace.c and
 *              output_svg.c write the formats, output_util.c has what
 *              they share
 *   out_file.c output files that are complete or absent (opened before
 *              the run, renamed into place once written)
 *
 * The engine knows no output format: it asks output.c which records the
 * chosen outputs need (run slices and marks, jobs, budget samples, every
 * response time), hands each record over as it is made (sim_emit_*()) and
 * the finished run to sim_outputs_write(). No record is kept to the end of
 * the run, so memory does not grow with simulated time; only the response
 * times, for the p99, are kept (8 bytes per job).
 */
#ifndef DLSIM_SIM_IMPL_H
#define DLSIM_SIM_IMPL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <dlsched/pi.h>
#include <dlsched/rbtree.h>
#include <dlsched/sched.h>
#include <dlsched/server.h>
#include <dlsched/smp.h>

#include "out_file.h"
#include "prng.h"
#include "sim.h"

#define US 1000ULL
#define SLICE_RR (100 * 1000 * US)
#define CAPACITY_SCALE 1024 /* a full-speed CPU (dls_rq_set_capacity) */
#define MAX_OUTPUTS 6 /* summary, JSON, trace, SVG, jobs, observers (output.c) */

enum ev_kind { EV_TIMER, EV_WAKE, EV_HOTPLUG, EV_ZERO_LAG, EV_FS_TIMER, EV_FS_DEFER,
	       EV_VCPU_TIMER };

struct qev {
	struct dls_rb_node node;
	uint64_t t, seq;
	enum ev_kind kind;
	bool queued;
};

struct thread;
struct guest;

/* rt-app's bound on the forks of one thread per fork target */
#define FORKS_LIMIT 1024

struct fork_count {
	const char *ref;
	unsigned int n;
};

/* The policy a phase without "policy" took when it was first applied. */
struct same_policy {
	const struct wl_sched *sched;
	enum wl_policy policy;
};

/* What a wait list is: rt-app names each kind in its own space. */
enum wait_kind { WAIT_MUTEX, WAIT_COND, WAIT_BARRIER, WAIT_SUSPEND, WAIT_SEM };

struct wait_list {
	const char *name;
	enum wait_kind kind;
	struct dls_pi_mutex pm; /* kind 0: the waiters are in its tree */
	struct thread **waiters;
	size_t n, cap;
	int participants, arrived;
	uint64_t sem_count;     /* WAIT_SEM: posts not yet taken */
};

/* An rt-app timer: its next expiry, advanced by each use's period. A ref
 * starting with "unique" is the thread's own; any other is shared by every
 * thread (and instance) that names it (rt-app doc/tutorial.txt, "timer"). */
struct utimer {
	const char *ref;
	uint64_t next;
	bool started;         /* next is set: the timer has been used */
};

struct thread {
	int id;
	char name[64];
	const struct wl_task *task;
	struct guest *guest;  /* the server (guest) it runs in, NULL on the host */
	struct dls_entity se;
	bool dl_policy;       /* SCHED_DEADLINE by its own policy */
	bool is_dl;           /* in the deadline class now (own or inherited) */
	bool runnable, exited, started;
	int cpu;
	struct wl_cpuset allowed; /* CPUs it may use, empty = all */
	int last_cpu; /* where it last ran, -1 before it first runs */
	bool policy_changed; /* a phase gave it another policy than its task's */
	int move_to;  /* 1 + the CPU it moves to once switched out (lower.c), 0: none */
	int prio; /* FIFO/RR priority, 0 for the fair class */
	enum wl_policy policy; /* its own policy now (a phase may change it) */
	/* rt-app's current settings: the scheduling keys applied last (the
	 * task's or a phase's) and the CPUs asked for (empty: all) */
	const struct wl_sched *cur_sched;
	struct wl_cpuset want_cpus;
	uint64_t dl_deadline; /* its own relative deadline, ns (deadline policy) */
	/* forks per fork target (rt-app stops at FORKS_LIMIT of one) */
	struct fork_count *forks;
	size_t nr_forks;
	/* program counter */
	size_t phase, ev;
	int64_t phase_iter, task_iter;
	uint64_t work_left, wall_left;
	bool in_run, in_runtime;
	/* an rt-app "runtime" event: busy until wall-clock time wall_end,
	 * whether it runs, waits or is throttled meanwhile */
	bool in_wall;
	uint64_t wall_end;
	struct dls_prng rng;  /* run-time draws: (simulation seed, thread id) */
	uint64_t zero_time_at;           /* instant of the events counted below */
	unsigned int zero_time_events;   /* zero-time events run at that instant */
	/* queue events */
	struct qev wake, timer, zero_lag; /* zero_lag: the 0-lag timer (GRUB) */
	/* fair / rt class */
	uint64_t slice_left;
	bool sliced;         /* its CPU picks again when slice_left runs out */
	/* fair class (lower.c): EEVDF's virtual runtime and deadline, its lag
	 * while off the runqueue, its weight from its nice value */
	int nice;
	uint32_t weight;
	bool fair_queued;    /* in its CPU's fair set (waiting or running) */
	bool fair_placed;    /* placed once (the first placement is special) */
	uint64_t vruntime, vdeadline, vprotect;
	int64_t vlag;
	uint64_t exec_start; /* fair accounting: charged up to here */
	uint64_t fair_exec;  /* time run in the fair class */
	uint64_t vbase, exec_base; /* vruntime = vbase + (fair_exec - exec_base) * 1024 / weight */
	uint64_t queued_seq; /* when it last joined its CPU's queue (order) */
	/* waiting in its CPU's fair tree (lower.c): by (vdeadline, queued_seq),
	 * a treap on fair_heap, fair_minv the least vruntime of its subtree */
	bool fair_in_tree;
	struct thread *fair_left, *fair_right;
	uint64_t fair_heap, fair_minv;
	/* times it began running on a CPU other than the one it last ran on
	 * (the trace's migration marks; its jobs' migrations add up to it) */
	uint64_t migrations;
	/* jobs */
	uint64_t job_release;
	uint64_t t_first;     /* where its timers count from: delay after the run's start (rt-app's t_first) */
	struct utimer *timers; /* its "unique" timers */
	size_t nr_timers, cap_timers;
	/* the timer its last timer event named (utimer_get()): the event's
	 * ref, the timer's index in its timers (own) or the shared ones */
	const char *last_timer_ref;
	size_t last_timer;
	bool last_timer_own;
	/* stats */
	uint64_t jobs, misses, max_lateness, resp_sum, resp_max, preemptions;
	uint64_t *resp;
	size_t nr_resp, cap_resp;
	uint64_t run_ns;
	struct dls_cpumask *mask; /* affinity under global scheduling */
	/* locks */
	struct dls_pi_task pi;
	struct dls_pi_waiter pi_wait;
	struct wait_list *relock;  /* condition wait: the mutex to take back */
	unsigned int nr_held;
	bool lock_waiting, boost_on, stranded;
	uint64_t lock_wait_start, lock_wait_ns, lock_wait_max, lock_acquires;
	uint64_t boosts, boost_start, boosted_ns;
	uint64_t server_misses; /* jobs that ended after their reservation's deadline */
	/* the current job, for the per-job records: only time it was
	 * charged counts as running (cpu_charge) */
	bool job_ran;             /* it has run since its release */
	uint64_t job_start;       /* when it first ran */
	struct wl_cpuset job_cpus; /* CPUs it ran on */
	unsigned int job_preemptions, job_migrations;
	unsigned int job_throttles; /* its reservation's throttles so far */
	uint64_t last_job_end;    /* when its last job completed (jobs > 0) */
	size_t last_job_rec;      /* that job's record in sim::jobs while it is
				     there (job_log, last_job_end == jobs_at) */
};

/* One completed job (--jobs, the JSON "jobs" array). */
struct job_rec {
	int thread;
	uint64_t index;           /* 0 for a thread's first job */
	uint64_t release, start, end;
	bool ran;                 /* start is valid */
	uint64_t deadline;        /* the job's own absolute deadline */
	bool has_server;          /* a deadline thread: server_deadline is valid */
	uint64_t server_deadline; /* its reservation's deadline at completion */
	struct wl_cpuset cpus;    /* the CPUs it ran on */
	unsigned int preemptions, migrations, throttles;
};

/* A reservation's state at one instant (the trace's counter tracks). */
struct budget_sample {
	int thread;
	uint64_t t;
	int64_t runtime;
	uint64_t deadline;
};

/* lower.c's orders of CPUs: FIFO/RR priority 0..100 (100: boosted by a
 * deadline lock holder's waiter) or a deadline thread's (102 levels),
 * idle or not */
#define DLSIM_BAL_KEYS 204
#define DLSIM_RT_PRIOS 101 /* FIFO/RR priorities 1..100, and 0 */

struct cpu {
	struct thread *curr;
	bool need_resched;
	uint32_t capacity;
	int cluster;           /* its cluster's index in sim::clusters */
	uint64_t busy_ns, slice_start;
	struct thread **lower; /* waiting non-deadline threads, priority order */
	size_t nr_lower, cap_lower;
	unsigned int nr_assigned; /* non-deadline threads whose CPU this is */
	uint64_t fair_v;       /* the fair set's average vruntime, last known */
	/* its waiting fair threads (lower.c): their tree, their count, the sum
	 * of their weights and of (vruntime - fair_vref) * weight */
	struct thread *fair_root;
	unsigned int fair_n;
	int64_t fair_w, fair_a;
	uint64_t fair_vref;
	bool offline;
	uint64_t offline_since, offline_ns;
	/* where rt_push_one()'s search sim::bal_search goes on in its queue */
	uint64_t bal_search;
	size_t bal_next;
	/* the per-CPU loop (engine.c): its running thread is charged up to
	 * charged_to; its next decision point, next_t, is in sim::cpu_queue
	 * while next_queued; budget_at, with platform.tick_hz, the tick at
	 * which its deadline thread's exhausted budget is noticed */
	uint64_t charged_to, next_t, budget_at;
	bool next_queued, has_budget_at;
	struct dls_rb_node next_node;
	/* platform.fair_server: this CPU's server (NULL without one) and
	 * whether its thread runs inside it (then the server is the host
	 * entity charged, not the thread) */
	struct fair_srv *fs;
	bool in_server;
	/* the vCPU servers on this CPU, and the one its thread runs in now */
	struct vcpu **vcpus;
	unsigned int nr_vcpus;
	struct vcpu *vcpu;
};

/*
 * platform.fair_server: one deadline server per CPU whose inner scheduler
 * is that CPU's lower classes (the fair class, or the FIFO/RR threads),
 * deferred as Linux's fair server (fair_server.c).
 */
struct fair_srv {
	struct dls_server srv;
	struct sim *s;
	int cpu;
	struct qev timer;     /* its host entity's replenishment (EV_FS_TIMER) */
	struct qev defer;     /* its deferral timer (EV_FS_DEFER) */
	uint64_t bg_pending;  /* served time run outside it while deferred,
				 not yet handed to dls_server_background() */
	uint64_t run_ns;      /* time its threads ran inside it */
	uint64_t throttles, replenishes;
};

/*
 * The "servers" section (guest.c): each server is a guest domain of the
 * library with one runqueue per vCPU, and one server entity per vCPU on
 * its host CPU's runqueue whose inner scheduler is that vCPU's runqueue
 * (dls_server_guest_ops). The guest's threads are entities of the guest
 * domain; a host CPU runs one while the vCPU's server runs there.
 */
struct vcpu {
	struct guest *g;
	int idx;              /* in the guest */
	int host;             /* its host CPU */
	struct qev timer;     /* its host entity's replenishment (EV_VCPU_TIMER) */
	uint64_t run_ns;      /* time guest threads ran on it */
	uint64_t throttles, replenishes;
};

struct guest {
	struct sim *s;
	const struct wl_server *w;
	int id;               /* in workload::servers */
	int nr;               /* vCPUs */
	struct dls_domain dom;
	struct dls_rq *rqs;   /* one per vCPU */
	struct dls_server *srv; /* one per vCPU, on its host CPU */
	struct vcpu *vc;
	void *smp_mem;
	struct dls_cpumask **masks; /* the servers' affinity in a global host */
};

struct hotplug_ev {
	struct qev q;
	size_t idx;              /* in workload.hotplug */
};

/* What one hotplug event did, for the summary. */
struct hotplug_log {
	uint64_t t;
	int cpu;
	bool online;
	const char *refused;     /* why nothing happened, or NULL */
	unsigned int moved_dl, moved_other, stranded, back;
	char names[160];         /* the stranded threads, or those back */
};

struct span {
	int cpu;
	uint64_t start, end;
};

struct slice {
	int cpu, thread;
	uint64_t start, end;
	/* the server it ran inside: -1 none, 0 its CPU's fair server, 1 + i
	 * server i of the "servers" section */
	int server;
};

struct mark {
	int cpu, thread; /* thread -1: the CPU itself */
	uint64_t t;
	const char *what;
	bool has_budget; /* throttle, replenish: the entity's state after it */
	int64_t runtime;
	uint64_t deadline;
};

struct sim_writer;

/*
 * Why a run stops, one kind at a time; the graver replaces the lesser
 * (out of memory, then a fatal error, then a refusal, then a broken
 * invariant), and of two of one kind the first stays.
 */
struct sim_error {
	/* 0 none, or the exit code it ends with: DLSIM_EXIT_FAILURE (out of
	 * memory: sim_run() returns -1), _DEADLOCK (a deadlock, a misused
	 * mutex, an internal error), _REFUSED (the library refused a
	 * reservation, as rt-app stops when sched_setattr() fails; the
	 * refusal is said where it happens), _INVARIANT (--check) */
	int code;
	char msg[512];  /* what stderr says for _DEADLOCK and _INVARIANT */
};

/* One chosen output: its writer, its file and the sections the writer
 * fills during the run (temporary files, appended at the end). */
#define SINK_PARTS 3
struct sim_sink {
	const struct sim_writer *w;
	const char *path;          /* NULL: the summary's stream */
	struct out_file o;         /* open from sim_outputs_open() */
	FILE *part[SINK_PARTS];
	uint64_t n[SINK_PARTS];    /* records written to each section */
};

struct sim {
	const struct workload *w;
	const struct sim_options *opt;
	uint64_t now, seq, events;
	struct dls_rb_root_cached queue;
	struct dls_domain dom;
	struct dls_rq *rqs;
	struct cpu *cpus;
	int nr_cpus;
	struct thread **threads;
	int nr_threads;
	size_t cap_threads;
	/* rt-app resolves a phase's missing policy once, for every thread of
	 * the task (its threads share the parsed phases) */
	struct same_policy *same;
	size_t nr_same, cap_same;
	uint64_t lower_seq; /* orders the lower classes' queues */
	unsigned int nr_lower_waiting; /* threads in every CPU's lower queue */
	unsigned int nr_rt_waiting;    /* of which FIFO/RR (priority > 0) */
	bool lower_dirty;   /* a queue or a CPU's thread changed since dlsim_lower_balance() */
	/* in dlsim_lower_balance() (lower.c): the online CPU of the lowest
	 * level (ties: an idle one, then the lowest id; -1: none), that level
	 * (LEVEL_DL with none), every CPU of the platform as a set */
	int bal_lowest, bal_floor;
	struct wl_cpuset bal_all;
	/* each CPU's place in what lowest_cpu() prefers, its level then
	 * whether it idles, read at the start of dlsim_lower_balance() and
	 * for the CPUs of each move (1 + an index of bal_by_key; 0 offline),
	 * the online CPUs by it, and the keys in use (lower.c) */
	uint8_t bal_key[WL_MAX_CPUS];
	struct wl_cpuset bal_by_key[DLSIM_BAL_KEYS];
	struct wl_cpuset bal_keys;
	uint64_t bal_search; /* counts rt_push_one()'s searches */
	/* by FIFO/RR priority: the CPUs where a thread of it waits, and the
	 * priorities with any (lower.c) */
	struct wl_cpuset rt_by_prio[DLSIM_RT_PRIOS];
	struct wl_cpuset rt_prios;
	/* clustered mode's sums per cluster, filled at each placement
	 * (thread.c) */
	struct cluster_sum {
		struct wl_cpuset bits; /* its CPUs a thread may use */
		uint64_t bw, cap;      /* their admitted bandwidth, capacity */
		bool seen;
	} *clusters;
	int nr_clusters;
	/* --check's marks by thread id: which threads one check of the lower
	 * classes' queues has met (lower.c) */
	uint32_t *check_marks;
	size_t cap_check_marks;
	uint32_t check_gen;
	struct wait_list *lists;
	size_t nr_lists;
	struct utimer *timers; /* the shared timers (refs not "unique") */
	size_t nr_timers, cap_timers;
	/* the jobs completed at the instant jobs_at, not yet handed to the
	 * outputs: a throttle at that instant still counts for its job
	 * (dlsim_job_note_throttle()); sim_emit_jobs() hands them over */
	struct job_rec *jobs;
	size_t nr_jobs, cap_jobs;
	uint64_t jobs_at;
	struct sim_sink sinks[MAX_OUTPUTS]; /* the chosen outputs (output.c) */
	size_t nr_sinks;
	/* why the run stops, the one error channel (platform.c) */
	struct sim_error err;
	bool thread_cap;    /* a fork reached sim_options::max_threads: the run stops */
	bool timeline;      /* an output wants run slices and marks */
	bool slices;        /* an output wants run slices (timeline, or an observer) */
	bool job_ends;      /* an output wants each job as it ends (an observer) */
	bool samples;       /* an output wants every response time */
	bool job_log;       /* an output wants every job (struct job_rec) */
	bool budget_log;    /* an output wants the reservations' budgets */
	void *smp_mem;
	struct fair_srv *fsrv;  /* platform.fair_server: one per CPU, or NULL */
	struct guest *guests;   /* the "servers" section, workload order */
	int nr_guests;
	struct dls_cpumask **fs_masks; /* their affinity in a global domain */
	bool full_affinity; /* no deadline thread is restricted to some CPUs */
	uint64_t tick_ns;   /* budgets enforced at ticks of this period (0: exactly) */
	uint64_t tick_phase; /* ticks at tick_phase + k * tick_ns */
	uint64_t late_budgets; /* budgets the per-CPU loop found past their end (engine.c) */
	/* The step loop (engine.c). scan: the reference loop, which visits
	 * and charges every CPU at every step (sim_options::loop_scan).
	 * Otherwise each CPU's next decision point waits in cpu_queue, and
	 * a CPU is charged and looked at only when something touches it
	 * (dlsim_cpu_touch()): touched holds those of this step, one bit per
	 * CPU; eager those charged at every step all the same (rounding that
	 * depends on how a run is cut in charges, engine.c). */
	bool scan;
	struct dls_rb_root_cached cpu_queue;
	uint64_t *touched, *eager;
	uint64_t *idle;    /* CPUs that run no thread (the overload pull's candidates) */
	size_t nr_words;
	const char *admission_from; /* where the admission limit came from */
	/* locks */
	struct dls_pi_ctx pi;
	struct dls_pi_task **pi_tasks;
	struct dls_pi_mutex **pi_mutexes;
	size_t nr_pi_tasks, nr_pi_mutexes;
	bool has_mutexes;
	unsigned int mutexes_held;  /* owned right now, by anyone */
	/* hotplug */
	struct hotplug_ev *hp;
	struct hotplug_log *hp_log;
	size_t nr_hp_log;
	struct span *spans;
	size_t nr_spans, cap_spans;
	struct hotplug_log *hp_cur; /* the event being applied */
	/* progress bar */
	bool progress;
	struct timespec wall_start;
	double last_draw;
	bool drawn;
};

/* Room for one more element in @arr (@n used of @cap), @first of them the
 * first time; when memory runs out, @arr is left as it was and @on_fail
 * runs (sim_oom(), then leave). */
#define GROW_FROM(arr, n, cap, first, on_fail)                                 \
	do {                                                                   \
		if ((n) == (cap)) {                                            \
			size_t nc_ = (cap) ? (cap) * 2 : (first);              \
			void *na_ = realloc((arr), nc_ * sizeof(*(arr)));      \
			if (!na_) {                                            \
				on_fail;                                       \
			} else {                                               \
				(arr) = na_;                                   \
				(cap) = nc_;                                   \
			}                                                      \
		}                                                              \
	} while (0)
#define GROW(arr, n, cap, on_fail) GROW_FROM(arr, n, cap, 16, on_fail)

/* platform.fair_server serves @t's class (FIFO/RR, or fair). */
static inline bool dlsim_fs_serves(const struct sim *s, const struct thread *t)
{
	return !t->is_dl && (s->w->fair_server.serve == WL_SERVE_RT) == (t->prio > 0);
}

/* The entity on @cpu's runqueue that is charged for what the CPU runs: its
 * deadline thread's, or its fair server's while a thread runs inside. */
static inline struct dls_entity *dlsim_host_se(struct sim *s, int cpu)
{
	struct cpu *c = &s->cpus[cpu];

	if (!c->curr)
		return NULL;
	if (c->vcpu)
		return &c->vcpu->g->srv[c->vcpu->idx].se;
	if (c->curr->is_dl)
		return &c->curr->se;
	return c->in_server ? &c->fs->srv.se : NULL;
}

/* Rounds up: the time a CPU of capacity @cap needs for @work ns of work. */
static inline uint64_t ceil_scale(uint64_t work, uint32_t cap)
{
	/* Full-speed CPUs are the common case: skip the 64-bit division. */
	if (cap == CAPACITY_SCALE)
		return work;
	return (work * CAPACITY_SCALE + cap - 1) / cap;
}

/* @cpu runs its thread over [start, start + dt): charge it, and the thread's
 * job starts (or goes on) there: only time charged counts as the job running. */
static inline void cpu_charge(struct sim *s, int cpu, uint64_t start, uint64_t dt)
{
	struct cpu *c = &s->cpus[cpu];
	struct thread *t = c->curr;

	if (!t || !t->runnable || !dt || (t->is_dl && !t->se.queued))
		return;
	if (c->vcpu) {
		if (!c->vcpu->g->srv[c->vcpu->idx].se.queued)
			return; /* its vCPU's server is throttled */
		c->vcpu->run_ns += dt;
	}
	if (c->fs && !t->is_dl) {
		if (c->in_server) {
			if (!c->fs->srv.se.queued)
				return; /* its server is throttled */
			c->fs->run_ns += dt;
		} else if (c->fs->srv.state == DLS_SERVER_DEFERRED && dlsim_fs_serves(s, t)) {
			c->fs->bg_pending += dt; /* dlsim_fs_flush() */
		}
	}
	c->busy_ns += dt;
	t->run_ns += dt;
	if (!t->job_ran) {
		t->job_ran = true;
		t->job_start = start;
	}
	wl_cpuset_set(&t->job_cpus, cpu);
	if (t->in_run) {
		if (dt >= ceil_scale(t->work_left, c->capacity))
			t->work_left = 0;
		else
			t->work_left -= dt * c->capacity / CAPACITY_SCALE;
	}
	if (t->in_runtime)
		t->wall_left -= dt < t->wall_left ? dt : t->wall_left;
	if (!t->is_dl && t->slice_left)
		t->slice_left -= dt < t->slice_left ? dt : t->slice_left;
}

/* dlsim_cpu_touch() of a CPU last charged before now (platform.c). */
uint64_t dlsim_cpu_catch_up(struct sim *s, int cpu);

/*
 * Something happens on @cpu now, or its state is about to be read or
 * changed: charge its running thread up to now (the kernel's update_curr,
 * on dlsim's side; the library charges its entity itself) and note the
 * CPU for this step (its next decision point is found again, it may pick
 * again). Call it before changing anything a CPU's thread is charged by
 * (its class, runnable, in_run, the slice, the CPU's thread). The
 * reference loop charges every CPU at every step instead. Returns the
 * clock (the library's, op_now()).
 */
static inline uint64_t dlsim_cpu_touch(struct sim *s, int cpu)
{
	if (s->scan)
		return s->now;
	/* Most touches find the CPU charged at this instant already (the
	 * library reads the clock many times an event): a compare, and the
	 * charge out of line so that its callers stay small. */
	if (s->cpus[cpu].charged_to != s->now)
		return dlsim_cpu_catch_up(s, cpu);
	s->touched[WL_CPUSET_WORD(cpu)] |= WL_CPUSET_BIT(cpu);
	return s->now;
}

/* @cpu runs @t from now (NULL: nothing); its idle bit follows. */
static inline void dlsim_cpu_set_curr(struct sim *s, int cpu, struct thread *t)
{
	uint64_t bit = WL_CPUSET_BIT(cpu);

	s->cpus[cpu].curr = t;
	if (t)
		s->idle[WL_CPUSET_WORD(cpu)] &= ~bit;
	else
		s->idle[WL_CPUSET_WORD(cpu)] |= bit;
}

/* @cpu must pick again. */
static inline void dlsim_resched(struct sim *s, int cpu)
{
	s->cpus[cpu].need_resched = true;
	dlsim_cpu_touch(s, cpu);
}

/* @t is about to change: charge it first if it is running somewhere. */
static inline void dlsim_thread_touch(struct sim *s, const struct thread *t)
{
	if (t->last_cpu >= 0 && s->cpus[t->last_cpu].curr == t)
		dlsim_cpu_touch(s, t->last_cpu);
}

/* The thread of a PI task. */
static inline struct thread *pi_thread(struct dls_pi_task *p)
{
	return dls_container_of(p, struct thread, pi);
}

/* A deadline thread's CPU follows its entity, which push/pull may move;
 * a guest's thread is on the host CPU of its vCPU. */
static inline int tcpu(const struct thread *t)
{
	if (t->is_dl && t->se.rq)
		return t->guest ? t->guest->vc[t->se.rq->cpu].host : t->se.rq->cpu;
	return t->cpu;
}

/* The runqueue a deadline thread's entity is on: its CPU's, or its vCPU's. */
static inline struct dls_rq *rq_of(struct sim *s, const struct thread *t)
{
	return t->guest ? t->se.rq : &s->rqs[tcpu(t)];
}

/*
 * The calls between the simulator's files, by layer: each file calls only
 * the files listed before it (and output.c, the sinks, at the bottom).
 */

/* platform.c: the event queue, records, errors */
void dlsim_q_add(struct sim *s, struct qev *e, uint64_t t);
const char *dlsim_q_check(struct sim *s); /* the queue's order (--check) */
static inline void q_remove(struct sim *s, struct qev *e)
{
	if (e->queued) {
		dls_rb_erase_cached(&e->node, &s->queue);
		e->queued = false;
	}
}
/* (its records for the outputs, dlsim_add_mark() and the like, are at
 * the end of this file: inline, as most runs record none) */
/* Note error @code (DLSIM_EXIT_*) with a message, unless a graver one or
 * one of its kind is noted already (struct sim_error). */
void sim_error(struct sim *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Stop the run with a message (a deadlock, a misused mutex, an internal
 * error): sim_error(DLSIM_EXIT_DEADLOCK). */
#define sim_fatal(s, ...) sim_error((s), DLSIM_EXIT_DEADLOCK, __VA_ARGS__)
/* Memory ran out: the run stops at the end of this step and sim_run()
 * returns -1. Whatever failed to grow was left as it was. */
#define sim_oom(s) sim_error((s), DLSIM_EXIT_FAILURE, "out of memory")
/* The library refused a reservation (said on stderr already). */
#define sim_refused(s) sim_error((s), DLSIM_EXIT_REFUSED, "refused")
/* The run stops at the end of this step: a fatal error or no memory. */
static inline bool sim_stopping(const struct sim *s)
{
	return s->err.code == DLSIM_EXIT_DEADLOCK || s->err.code == DLSIM_EXIT_FAILURE;
}
void dlsim_lib_ok(struct sim *s, int rc, const char *call, const struct thread *t);
void dlsim_server_mark(struct sim *s, int cpu, const struct dls_trace_event *ev,
		       const char *const what[2], uint64_t *throttles, uint64_t *replenishes);
int dlsim_pin_entity(struct sim *s, struct dls_entity *se, int cpu, struct dls_cpumask **slot);
bool dlsim_same_cluster(const struct workload *w, int a, int b);

/* lower.c: the classes below SCHED_DEADLINE */
struct thread *dlsim_lower_pick_class(struct sim *s, int cpu, bool rt, bool fair);
void dlsim_lower_add(struct sim *s, struct thread *t, bool head);
void dlsim_lower_remove(struct sim *s, struct thread *t);
void dlsim_lower_wake(struct sim *s, struct thread *t);
void dlsim_lower_put_prev(struct sim *s, int cpu, struct thread *prev);
struct thread *dlsim_lower_pick(struct sim *s, int cpu);
void dlsim_lower_yield(struct sim *s, struct thread *t);
void dlsim_lower_move(struct sim *s, struct thread *t, int cpu);
bool dlsim_lower_balance(struct sim *s);
const char *dlsim_lower_check(struct sim *s);
uint32_t dlsim_fair_weight(enum wl_policy policy, int nice);
void dlsim_thread_reweight(struct sim *s, struct thread *t, uint32_t weight);
void dlsim_thread_set_nice(struct sim *s, struct thread *t, int nice);

/* guest.c: the "servers" section */
int dlsim_guests_setup(struct sim *s, const struct dls_ops *ops);
void dlsim_guests_free(struct sim *s);
/* Start the vCPU servers of @cpu whose guest runqueue has work. */
void dlsim_guests_update(struct sim *s, int cpu);
void dlsim_guest_kick(struct sim *s, struct guest *g);
void dlsim_guest_blocked(struct sim *s, struct guest *g, int v);
struct vcpu *dlsim_vcpu_of(const struct dls_entity *se);
void dlsim_vcpu_trace(struct sim *s, struct vcpu *v, const struct dls_trace_event *ev);
int dlsim_guest_place(struct sim *s, struct thread *t, struct dls_params *p, int *err);
const char *dlsim_guests_check(struct sim *s);

/* fair_server.c: platform.fair_server */
int dlsim_fs_setup(struct sim *s);
void dlsim_fs_free(struct sim *s);
/* Hand the served time run outside the server to it; start it when work
 * waits and it is idle (a pick pass calls it for every CPU it visits). */
void dlsim_fs_update(struct sim *s, int cpu);
void dlsim_fs_flush(struct sim *s, int cpu);
void dlsim_fs_event(struct sim *s, struct qev *e);
struct qev *dlsim_fs_timer_event(struct dls_entity *se);
void dlsim_fs_trace(struct sim *s, const struct dls_trace_event *ev);
const char *dlsim_fs_check(struct sim *s);

/* wake.c: leaving and joining a runqueue */
void dlsim_thread_block(struct sim *s, struct thread *t, bool job_done);
void dlsim_thread_wake(struct sim *s, struct thread *t);
bool dlsim_dl_boost_start(struct sim *s, struct thread *t);

/* cpu.c: what a CPU runs, hotplug */
void dlsim_cpu_reschedule(struct sim *s, int cpu);
/* The least crowded online CPU of @allowed (empty: all), or -1. */
int dlsim_cpu_least_crowded(const struct sim *s, const struct wl_cpuset *allowed);
void dlsim_close_slice(struct sim *s, int cpu);
void dlsim_add_offline_span(struct sim *s, int cpu, uint64_t end);
void dlsim_hotplug_apply(struct sim *s, const struct hotplug_ev *h);

/* lock.c: wait lists and PI mutexes (the rt-app interpreter's) */
int dlsim_lock_setup(struct sim *s);
const char *dlsim_lock_check(struct sim *s);
struct wait_list *dlsim_list_get(struct sim *s, const char *name, enum wait_kind kind);
void dlsim_list_push(struct sim *s, struct wait_list *l, struct thread *t);
struct thread *dlsim_list_pop(struct wait_list *l);
struct thread *dlsim_list_pop_futex(struct wait_list *l);
int dlsim_pi_prio(const struct thread *t);
void dlsim_pi_sync_own(struct sim *s, struct thread *t);
bool dlsim_mutex_lock(struct sim *s, struct wait_list *m, struct thread *t);
void dlsim_mutex_unlock(struct sim *s, struct wait_list *m, struct thread *t);
void dlsim_cond_wake(struct sim *s, struct thread *t);

/* thread.c: the rt-app interpreter (threads, phases, events) */
void dlsim_thread_advance_events(struct sim *s, struct thread *t);
void dlsim_thread_wake_event(struct sim *s, struct thread *t);
bool dlsim_job_overdue(const struct sim *s, const struct thread *t);
void dlsim_job_note_throttle(struct sim *s, struct thread *t);
void sim_spawn(struct sim *s, const struct wl_task *task, int instance);

/* Run @t's zero-time events up to its next run, sleep or block. Called for
 * every running thread at every step: most are inside a run and have none. */
static inline void thread_advance(struct sim *s, struct thread *t)
{
	if (!t->exited && t->runnable && !t->in_run && !t->in_runtime && !t->in_wall)
		dlsim_thread_advance_events(s, t);
}

/* engine.c, the top: the library's platform ops, the step loop, sim_run() */

/* output.c */
/* Pick the outputs the options ask for: which records the engine makes. */
void sim_outputs_plan(struct sim *s);
/* Start the chosen outputs (their sections) before the first record;
 * -1 (said on stderr, nothing left open) when one cannot be. */
int sim_outputs_start(struct sim *s);
/* Open every chosen output file before the run; -1 (said on stderr, none
 * left open) when one cannot be. */
int sim_outputs_open(struct sim *s);
/* Every chosen output is attempted; -1 when one could not be written. A
 * file that could not be written is left as it was. */
int sim_outputs_write(struct sim *s, FILE *out, uint64_t horizon);
/* Close the output files and sections left open, writing nothing. */
void sim_outputs_discard(struct sim *s);
/* Hand one record to the outputs that read it (s->timeline, s->job_log,
 * s->budget_log say whether any does). */
void sim_emit_slice(struct sim *s, const struct slice *sl);
void sim_emit_mark(struct sim *s, const struct mark *m);
void sim_emit_budget(struct sim *s, const struct budget_sample *b);
/* The jobs waiting in s->jobs (completed at s->jobs_at). */
void sim_emit_jobs(struct sim *s);
/* A job that ends now, before a throttle at this instant is counted in
 * it (sim_options::on_job). */
void sim_emit_job_end(struct sim *s, const struct job_rec *j);

/* The records for the outputs, on platform.c's level: inline, each is a
 * test when no output reads it. */
static inline void dlsim_add_mark_at(struct sim *s, int cpu, int thread, uint64_t t,
				     const char *what)
{
	if (s->timeline)
		sim_emit_mark(s, &(struct mark){ .cpu = cpu, .thread = thread, .t = t,
						 .what = what });
}

static inline void dlsim_add_mark(struct sim *s, int cpu, int thread, const char *what)
{
	dlsim_add_mark_at(s, cpu, thread, s->now, what);
}

/* A reservation's remaining budget and deadline now, for the trace. */
static inline void dlsim_add_budget_sample(struct sim *s, int thread, int64_t runtime,
					   uint64_t deadline)
{
	if (s->budget_log)
		sim_emit_budget(s, &(struct budget_sample){ thread, s->now, runtime, deadline });
}

#endif
