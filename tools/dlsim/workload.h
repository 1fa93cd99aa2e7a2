/*
 * The workload model: rt-app's grammar (global, tasks, phases, events) plus
 * dlsim's own "platform", "simulation" and "servers" sections.
 */
#ifndef DLSIM_WORKLOAD_H
#define DLSIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpuset.h"
#include "json.h"

/* Workload files larger than this are refused before they are read. */
#define WL_MAX_FILE_SIZE (64u << 20)

enum wl_event_type {
	WL_RUN, WL_RUNTIME, WL_SLEEP, WL_TIMER, WL_LOCK, WL_UNLOCK, WL_WAIT,
	WL_SIGNAL, WL_BROAD, WL_SYNC, WL_SUSPEND, WL_RESUME, WL_BARRIER,
	WL_YIELD, WL_FORK, WL_MEM, WL_IORUN, WL_SEM_POST, WL_SEM_WAIT
};

/* The platform's default rates of rt-app's "mem" (a memset, one core, out
 * of cache) and "iorun" (a write to /dev/null, rt-app's default device:
 * the cost is the system call), bytes/s at capacity 1024; a file that uses
 * the event without platform.mem_bw / io_bw is told the default. */
#define WL_MEM_BW_DEFAULT UINT64_C(10000000000)
#define WL_IO_BW_DEFAULT UINT64_C(100000000000)

enum wl_policy { WL_OTHER, WL_BATCH, WL_IDLE, WL_FIFO, WL_RR, WL_DEADLINE };

struct wl_event {
	enum wl_event_type type;
	const char *key;      /* as written, e.g. "run0" */
	int64_t us;           /* duration or timer period, microseconds */
	int64_t bytes;        /* mem, iorun: bytes written (rt-app's count) */
	const char *ref;      /* resource name (lock, timer, condition, ...) */
	const char *mutex;    /* wait/sync: the mutex */
	bool absolute;        /* timer mode: the timer's (any use absolute) */
	bool relative_use;    /* timer: written relative, made absolute by another use */
	/* run: an execution-time distribution, drawn per job from the
	 * simulation seed: uniform in [us, us_max] when us_max > 0, else one
	 * of choices[] when nr_choices > 0, else exactly us */
	int64_t us_max;
	const int64_t *choices;
	size_t nr_choices;
	int line, col;
};

struct wl_sched {
	bool set;             /* a policy was given here */
	enum wl_policy policy;
	int prio;
	bool prio_given;      /* "priority" was written */
	/* A SCHED_OTHER/SCHED_BATCH task's nice value (-20..19): rt-app reads
	 * it from "priority" and hands it to sched_setattr() as sched_nice.
	 * nice_given: "priority" was written here for a fair policy (at phase
	 * level without a policy: for whatever class the thread is in then,
	 * range unchecked). */
	int nice;
	bool nice_given;
	uint64_t dl_runtime_us, dl_period_us, dl_deadline_us;
	int dl_soft;          /* "dl-soft": 1 true, -1 false, 0 not given */
	bool dl_reclaim;      /* "dl-reclaim" (rt-app's GRUB branch): DLS_FLAG_RECLAIM */
	bool dl_runtime_given; /* "dl-runtime" was written, valid or not */
};

struct wl_phase {
	const char *name;
	int64_t loop;
	struct wl_event *events;
	size_t nr_events;
	struct wl_cpuset cpus; /* empty = not set */
	/* the phase's scheduling keys; rt-app applies them when the phase
	 * starts if any of policy, priority, dl-* is given (wl_phase_sets) */
	struct wl_sched sched;
	int line, col;        /* the phase object */
};

struct wl_task {
	const char *name;
	int line, col;
	int64_t instance;
	int64_t loop;         /* -1 = forever */
	int64_t delay_us;
	/* "job-deadline": a job's own relative deadline (0: its timer's
	 * period), separate from its reservation's dl-deadline */
	int64_t job_deadline_us;
	struct wl_sched sched;
	struct wl_cpuset cpus; /* empty = not set */
	struct wl_phase *phases;
	size_t nr_phases;
	/* the target of a fork event: started at 0 by its "instance" count
	 * (0: only when forked), as rt-app does, and once more per fork */
	bool forked;
	/* the index in workload::servers of the server the task runs in, -1
	 * for a task of the host */
	int server;
};

struct wl_cpu {
	uint32_t capacity;    /* 1..1024 */
	const char *cluster;
	double power_busy_mw, power_idle_mw;
};

/* platform.fair_server: a deferred deadline server on every CPU for the
 * classes below SCHED_DEADLINE (Linux's fair server, dl_server, 6.12+). */
enum wl_serve { WL_SERVE_FAIR, WL_SERVE_RT };

struct wl_fair_server {
	bool on;              /* the key was given */
	uint64_t runtime_us, period_us; /* default Linux's: 50 ms every 1 s */
	bool defer;           /* "defer" (default true: 6.12+; false: 6.8's) */
	enum wl_serve serve;  /* "serve": "fair" (Linux) or "rt" (FIFO/RR) */
	int line, col;
};

/*
 * One entry of the "servers" section: a hierarchical server, one deadline
 * reservation (runtime, deadline, period) per host CPU of @cpus (a vCPU),
 * whose budget runs the guest's tasks. One CPU: a hierarchical CBS server
 * (Lipari & Baruah, RTAS 2001); k CPUs: a k-vCPU guest under global EDF.
 */
struct wl_server {
	const char *name;
	uint64_t runtime_us, period_us, deadline_us;
	struct wl_cpuset cpus;
	size_t *tasks;        /* indices in workload::tasks */
	size_t nr_tasks;
	int line, col;        /* the server's key */
};

enum wl_mode { WL_MODE_GLOBAL, WL_MODE_PARTITIONED, WL_MODE_CLUSTERED };

struct wl_hotplug {
	int cpu;
	int64_t at_us;
	bool online;
};

struct workload {
	/* global */
	int64_t duration_s;   /* -1 = until simulation.horizon */
	enum wl_policy default_policy;
	bool pi_enabled;
	/* tasks */
	struct wl_task *tasks;
	size_t nr_tasks;
	/* platform */
	int nr_cpus;
	/* platform.tick_hz: budgets enforced at scheduler ticks, as Linux
	 * without HRTICK (0: exact budget timers) */
	int64_t tick_hz;
	/* platform.tick_phase_us: ticks fall at phase + k * period (ns;
	 * 0 when not given); tick_phase_random: "random", drawn from the
	 * simulation seed */
	uint64_t tick_phase_ns;
	bool tick_phase_random;
	/* platform.mem_bw / io_bw: bytes/s of "mem" and "iorun" at capacity
	 * 1024 (WL_MEM_BW_DEFAULT, WL_IO_BW_DEFAULT when not given) */
	uint64_t mem_bw, io_bw;
	bool mem_bw_given, io_bw_given;
	struct wl_cpu cpus[WL_MAX_CPUS];
	struct wl_fair_server fair_server;
	/* simulation */
	int64_t horizon_us;   /* 0 = from global.duration */
	uint64_t seed;
	enum wl_mode mode;
	bool mode_given;      /* the simulation section names the mode */
	bool platform_given;  /* a platform section (the file's or --platform's) */
	/* simulation.admission: the admission limit in percent of each CPU
	 * (1..100), 0 for "off", -1 when not given (the library's 95%) */
	int admission;
	/* simulation.wakeup / overrun / replenish: the library's CBS rules,
	 * the enum's value + 1 (enum dls_wakeup_rule etc.); 0 when not given
	 * (today's Linux) */
	int wakeup_rule, overrun_rule, replenish_rule;
	bool soft_reservations; /* "reservations": "soft" (default "hard") */
	/* "affinity": "library": deadline threads may be pinned to some CPUs
	 * under global EDF (the library's per-entity affinity), which Linux
	 * refuses; default "linux" */
	bool affinity_library;
	struct wl_hotplug *hotplug;
	size_t nr_hotplug;
	/* servers (workload_servers.c), in file order */
	struct wl_server *servers;
	size_t nr_servers;
	/* diagnostics, "file:line:col: error|warning: ..." */
	char **diags;
	size_t nr_diags;
	unsigned int errors, warnings;
	/* workload_load_file(): why the file could not be read (an errno
	 * value, EISDIR or EFBIG included), 0 when it was read */
	int load_errno;
	const char *fname;    /* a copy of the name given to workload_load */
	/* storage */
	struct json_doc doc;
	void **allocs;
	size_t nr_allocs;
};

/* Load a workload; returns 0, or -1 when there are errors (see diags).
 * With strict, warnings count as errors. */
int workload_load(struct workload *w, const char *fname, const char *text,
		  size_t len, bool strict);
/* As workload_load on a file's contents; -2 when the file cannot be read
 * (w->load_errno says why, workload_load_error() in words). */
int workload_load_file(struct workload *w, const char *fname, bool strict);
const char *workload_load_error(const struct workload *w);
void workload_free(struct workload *w);
void workload_print_diags(const struct workload *w, FILE *out);
/* The command line's load: workload_load_file, then the reason a file
 * cannot be read or the diagnostics on stderr. Returns 0, 65 (errors in the
 * workload; w is freed) or 66 (unreadable). */
int workload_load_cli(struct workload *w, const char *prog, const char *fname, bool strict);

/* What the command line changes in a workload as it is read. */
struct wl_load_options {
	/* --cpus: the CPU count of a file with no platform section (0: 1) */
	int cpus;
	/* --platform: a platform section (from another file, named
	 * platform_fname) that replaces the file's */
	const struct json_value *platform;
	const char *platform_fname;
};

/* --platform FILE: parse FILE into @doc (kept until the workload is
 * freed: the model points into it) and find its "platform" object.
 * Returns 0, or 66/65 (unreadable, not JSON or no platform) with the
 * reason on stderr. */
int workload_read_platform(struct json_doc *doc, const char *prog, const char *fname,
			   const struct json_value **platform);

/* workload_load with command-line changes (@o may be NULL). */
int workload_load_opts(struct workload *w, const char *fname, const char *text, size_t len,
		       bool strict, const struct wl_load_options *o);

/* workload_load_file with command-line changes (@o may be NULL). */
int workload_load_file_opts(struct workload *w, const char *fname, bool strict,
			    const struct wl_load_options *o);

/* workload_load_cli with command-line changes (@o may be NULL). */
int workload_load_cli_opts(struct workload *w, const char *prog, const char *fname,
			   bool strict, const struct wl_load_options *o);
void workload_dump(const struct workload *w, FILE *out);
/* rt-app applies a phase's scheduling keys when the phase starts only if
 * one of policy, priority, dl-runtime, dl-period, dl-deadline is given. */
bool wl_phase_sets(const struct wl_phase *ph);
const char *wl_policy_name(enum wl_policy p);
const char *wl_event_name(enum wl_event_type t);

#endif
