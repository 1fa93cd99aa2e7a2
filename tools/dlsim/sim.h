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
};

struct sim_result {
	uint64_t events;       /* scheduling events processed */
	uint64_t jobs, misses;
	int exit_code;         /* 0 ok, 2 admission refused, 3 invariant broken */
};

int sim_run(const struct workload *w, const struct sim_options *opt, FILE *out,
	    struct sim_result *res);

#endif
