/*
 * The simulator: a virtual platform (virtual clock, timers and wake-ups in
 * one event queue on the library's rbtree) that drives the real libdlsched.
 */
#ifndef DLSIM_SIM_H
#define DLSIM_SIM_H

#include <stdio.h>

#include "workload.h"

/*
 * dlsim's exit codes, one table: main.c returns them and prints them in
 * --help. Deadline misses alone do not change the code (they are results).
 */
#define DLSIM_EXIT_CODES(X)                                                       \
	X(OK, 0, "the run completed (misses are results, not errors)")          \
	X(FAILURE, 1, "the simulator could not run (out of memory)")            \
	X(REFUSED, 2, "admission control, the library or Linux's rules refused a reservation") \
	X(INVARIANT, 3, "--check found a broken invariant")                     \
	X(DEADLOCK, 4, "a deadlock, a mutex used against its rules, rt-app's fork limit") \
	X(USAGE, 64, "bad command line")                                        \
	X(DATAERR, 65, "errors in the workload file")                           \
	X(NOINPUT, 66, "the workload file cannot be read")                      \
	X(CANTCREAT, 73, "dlsim sweep: its table or a saved set cannot be written") \
	X(IOERR, 74, "an output could not be written (after a run that ended 0)")

enum dlsim_exit {
#define DLSIM_EXIT_ENUM(name, code, text) DLSIM_EXIT_##name = code,
	DLSIM_EXIT_CODES(DLSIM_EXIT_ENUM)
#undef DLSIM_EXIT_ENUM
};

/* The table above, one "  code  meaning" line each. */
void dlsim_print_exit_codes(FILE *f);

struct sim_options {
	bool check;            /* run every validator after every event */
	const char *json_path; /* statistics as JSON */
	const char *trace_path;/* Chrome/Perfetto trace events */
	const char *svg_path;  /* Gantt chart */
	const char *jobs_path; /* one CSV row per completed job */
	bool quiet;            /* no summary table */
	uint64_t bw_limit;     /* admission limit per CPU (--admission; over the
				  file's simulation.admission), DLS_BW_SHIFT fixed
				  point; 0 = the library's default (95%) */
	bool progress;         /* progress bar on stderr when it is a terminal
				  and the run takes more than a second */
	uint64_t max_events;   /* stop after this many scheduling events
				  (0 = no bound); sim_result::truncated says so */
	uint64_t max_steps;    /* stop after this many steps of the event loop
				  (0 = no bound); sim_result::truncated says so */
	int max_threads;       /* stop at a fork that would make more threads
				  (0 = no bound); sim_result::truncated says so */
	bool rules_2012;       /* the 2012 CBS rules (dls_domain_config), to
				  compare with today's default */
	/* The reference step loop, which visits and charges every CPU at
	 * every step (dlsim's hidden --loop=scan): the same outputs, at a
	 * cost per event that grows with the CPU count; tests compare the two. */
	bool loop_scan;
	/* The queued loop even on one CPU, where dlsim otherwise runs the
	 * reference loop (fewer instructions there: nothing to skip). */
	bool loop_queue;
	/* The reference balancing of the FIFO/RR and fair classes, which
	 * scans every CPU for every waiting thread (lower.c): the same
	 * outputs, at a cost per step of CPUs x threads; tests compare. */
	bool balance_scan;
	/* Optional observers (tests): every run slice [start, end) of a
	 * thread on a CPU, and every completed job with its release. */
	void (*on_slice)(void *arg, int cpu, const char *thread, uint64_t start,
			 uint64_t end);
	void (*on_job)(void *arg, const char *thread, uint64_t release,
		       uint64_t end, bool miss);
	void *cb_arg;
};

struct sim_result {
	uint64_t events;       /* scheduling events processed */
	bool truncated;        /* stopped at sim_options::max_events, max_steps or
				  max_threads */
	uint64_t jobs, misses;  /* misses: against each job's own deadline */
	uint64_t server_misses; /* jobs that ended after their reservation's deadline */
	/* deadline jobs still unfinished at the end with their deadline
	 * already past: misses the per-job count could not see yet */
	uint64_t overdue;
	uint64_t boosts;       /* times a thread started running boosted */
	uint64_t lock_wait_ns; /* total time threads waited for mutexes */
	unsigned int stranded; /* threads a CPU going offline could not place */
	/* platform.fair_server, summed over the CPUs: time its threads ran
	 * inside the servers, and the servers' throttles */
	uint64_t fair_server_ns, fair_server_throttles;
	/* DLSIM_EXIT_OK, _REFUSED (the library refused a reservation:
	 * admission or its parameters), _INVARIANT, _DEADLOCK or _IOERR (an
	 * output file could not be written); the message is on stderr */
	int exit_code;
};

/*
 * Simulate @w; the summary goes to @out, other outputs to their paths.
 * Returns 0 with res->exit_code set, or -1 when memory ran out.
 */
int sim_run(const struct workload *w, const struct sim_options *opt, FILE *out,
	    struct sim_result *res);

/* The time left of a run as the progress bars print it, "m:ss" or
 * "h:mm:ss" ("unknown" from 1e9 s on). */
void dlsim_format_eta(char *buf, size_t len, double seconds);

/* Closes an output file: 0, or -1 when a write or the close failed (a full
 * disk shows only here), with "prog: cannot write path: reason" on stderr. */
int sim_close_output(FILE *f, const char *prog, const char *path);

#endif
