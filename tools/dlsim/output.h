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
	bool jobs;      /* reads every job (struct job_rec) */
	bool budget;    /* reads the reservations' budget samples */
	/* Write the finished run of [0, horizon) to @f. */
	void (*write)(struct sim *s, FILE *f, uint64_t horizon);
};

extern const struct sim_writer sim_summary_writer; /* the table on stdout */
extern const struct sim_writer sim_json_writer;    /* --json */
extern const struct sim_writer sim_trace_writer;   /* --trace (Chrome/Perfetto) */
extern const struct sim_writer sim_svg_writer;     /* --svg (Gantt chart) */
extern const struct sim_writer sim_jobs_writer;    /* --jobs (CSV, one row per job) */

/* Helpers the writers share. */
#define ESC_SIZE 1024 /* names are under 64 bytes, hotplug lists 160 */
const char *out_esc(char *buf, size_t size, const char *str, bool xml);
uint64_t out_p99(struct thread *t);
double out_energy_mj(const struct sim *s, int cpu, uint64_t horizon);
/* @str for a quoted CSV field (quotes doubled). */
const char *out_csv_name(char *buf, size_t size, const char *str);
/* A job's lateness: end - deadline, negative when it ended early. */
int64_t out_lateness(const struct job_rec *j);
/* The CPUs in @bits as "0;2;3" (CSV) or "0, 2, 3" (JSON), into @buf. */
const char *out_cpu_list(char *buf, size_t size, uint64_t bits, const char *sep);

#endif
