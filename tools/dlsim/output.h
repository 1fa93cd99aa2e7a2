/*
 * dlsim's outputs. Each format is one writer behind the same small
 * interface; output.c picks the writers the options ask for, tells the
 * engine which records they need, and runs them on the finished run.
 */
#ifndef DLSIM_OUTPUT_H
#define DLSIM_OUTPUT_H

#include "sim_impl.h"

struct sim_writer {
	bool timeline;  /* reads the run slices, offline spans and marks */
	bool samples;   /* reads every response time (the p99) */
	/* Write the finished run of [0, horizon) to @f. */
	void (*write)(struct sim *s, FILE *f, uint64_t horizon);
};

extern const struct sim_writer sim_summary_writer; /* the table on stdout */
extern const struct sim_writer sim_json_writer;    /* --json */
extern const struct sim_writer sim_trace_writer;   /* --trace (Chrome/Perfetto) */
extern const struct sim_writer sim_svg_writer;     /* --svg (Gantt chart) */

/* Helpers the writers share. */
#define ESC_SIZE 1024 /* names are under 64 bytes, hotplug lists 160 */
const char *out_esc(char *buf, size_t size, const char *str, bool xml);
uint64_t out_p99(struct thread *t);
double out_energy_mj(const struct sim *s, int cpu, uint64_t horizon);

#endif
