/*
 * The simulator: a virtual platform (virtual clock, timers and wake-ups in
 * one event queue on the library's rbtree) that drives the real libdlsched.
 */
#ifndef DLSIM_SIM_H
#define DLSIM_SIM_H

#include <stdio.h>

#include "workload.h"

struct sim_options {
	bool check;            /* run every validator after every event */
	const char *json_path; /* statistics as JSON */
	const char *trace_path;/* Chrome/Perfetto trace events */
	const char *svg_path;  /* Gantt chart */
	bool quiet;            /* no summary table */
	uint64_t bw_limit;     /* admission limit per CPU, DLS_BW_SHIFT fixed
				  point; 0 = the library's default (95%) */
	bool progress;         /* progress bar on stderr when it is a terminal
				  and the run takes more than a second */
	uint64_t max_events;   /* stop after this many scheduling events
				  (0 = no bound); sim_result::truncated says so */
	bool rules_2012;       /* the 2012 CBS rules (dls_domain_config), to
				  compare with today's default */
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
	bool truncated;        /* stopped at sim_options::max_events */
	uint64_t jobs, misses;
	/* deadline jobs still unfinished at the end with their deadline
	 * already past: misses the per-job count could not see yet */
	uint64_t overdue;
	uint64_t boosts;       /* times a thread started running boosted */
	uint64_t lock_wait_ns; /* total time threads waited for mutexes */
	unsigned int stranded; /* threads a CPU going offline could not place */
	/* 0 ok, 2 the library refused a reservation (admission or its
	 * parameters), 3 invariant broken, 4 deadlock or a mutex used against
	 * its rules, 74 an output file could not be written (the message is
	 * on stderr) */
	int exit_code;
};

int sim_run(const struct workload *w, const struct sim_options *opt, FILE *out,
	    struct sim_result *res);

/* Closes an output file: 0, or -1 when a write or the close failed (a full
 * disk shows only here), with "prog: cannot write path: reason" on stderr. */
int sim_close_output(FILE *f, const char *prog, const char *path);

#endif
