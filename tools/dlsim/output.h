/*
 * dlsim's outputs. Each format is one writer behind the same small
 * interface: the engine hands every record (run slice, mark, job, budget
 * sample) to the chosen writers as the run produces it (sim_emit_*() in
 * output.c), and each writes it out at once to a section of its own, a
 * temporary file; at the end the writer writes what needs the whole run
 * (the per-thread and per-CPU statistics, the SVG's size and scale) and
 * appends its sections. Memory does not grow with simulated time, only the
 * p99 of response times keeps every response time (8 bytes per job).
 */
#ifndef DLSIM_OUTPUT_H
#define DLSIM_OUTPUT_H

#include "sim_impl.h"

struct sim_writer {
	bool timeline;  /* reads the run slices, offline spans and marks */
	bool samples;   /* reads every response time (the p99) */
	bool jobs;      /* reads every job (struct job_rec) */
	bool budget;    /* reads the reservations' budget samples */
	bool job_ends;  /* reads each job as it ends (on_job_end) */
	unsigned int nr_parts; /* sections (temporary files) it writes during the run */
	/* One record as the run produces it; NULL: not read. */
	void (*on_slice)(struct sim_sink *k, const struct sim *s, const struct slice *sl);
	void (*on_mark)(struct sim_sink *k, const struct sim *s, const struct mark *m);
	void (*on_job)(struct sim_sink *k, const struct sim *s, const struct job_rec *j);
	void (*on_budget)(struct sim_sink *k, const struct sim *s, const struct budget_sample *b);
	/* A job as it ends (on_job: once its instant is over, with a throttle
	 * at that instant counted in it). */
	void (*on_job_end)(struct sim_sink *k, const struct sim *s, const struct job_rec *j);
	/* Write the finished run of [0, horizon) to @f, the sections included;
	 * 0, or an errno value when a section could not be written or read. */
	int (*finish)(struct sim_sink *k, struct sim *s, FILE *f, uint64_t horizon);
};

extern const struct sim_writer sim_summary_writer; /* the table on stdout */
extern const struct sim_writer sim_json_writer;    /* --json */
extern const struct sim_writer sim_trace_writer;   /* --trace (Chrome/Perfetto) */
extern const struct sim_writer sim_svg_writer;     /* --svg (Gantt chart) */
extern const struct sim_writer sim_jobs_writer;    /* --jobs (CSV, one row per job) */
extern const struct sim_writer sim_observer_writer; /* sim_options::on_slice, on_job */

/* Helpers the writers share (output_util.c). */
#define ESC_SIZE 1024 /* names are under 64 bytes, hotplug lists 160 */
const char *out_esc(char *buf, size_t size, const char *str, bool xml);
uint64_t out_p99(struct thread *t);
double out_energy_mj(const struct sim *s, int cpu, uint64_t horizon);
/* @str for a quoted CSV field (quotes doubled). */
const char *out_csv_name(char *buf, size_t size, const char *str);
/* A job's lateness: end - deadline, negative when it ended early. */
int64_t out_lateness(const struct job_rec *j);
/* Room for any CPU list of out_cpu_list(): three digits and a separator
 * of up to two characters per CPU, and the terminating zero. */
#define OUT_CPU_LIST_SIZE (WL_MAX_CPUS * 5 + 1)
/* The CPUs in @cpus as "0;2;3" (CSV) or "0, 2, 3" (JSON), into @buf of
 * OUT_CPU_LIST_SIZE bytes (@sep: at most two characters). */
const char *out_cpu_list(char *buf, size_t size, const struct wl_cpuset *cpus,
			 const char *sep);
/* Append section @part of @k to @f: 0 or an errno value. */
int out_part_copy(struct sim_sink *k, unsigned int part, FILE *f);
/* Read the next record of @size bytes of section @part back (after
 * out_part_rewind()): 1, 0 at its end, -1 on a read error. */
int out_part_read(struct sim_sink *k, unsigned int part, void *rec, size_t size);
/* Start reading section @part from its beginning: 0 or an errno value. */
int out_part_rewind(struct sim_sink *k, unsigned int part);

#endif
