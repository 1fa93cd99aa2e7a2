/*
 * A job-level reference global EDF simulator written from the definition,
 * and the comparison of a simulator's per-job completions with it: random
 * periodic sets (implicit or constrained deadlines, 1-4 CPUs, global or
 * partitioned first fit, some with U = M exactly), soft and hard
 * reservations. Shared by the in-process dlsim suite and the one that runs
 * the dlsim executable, so both compare against the same reference.
 */
#ifndef DLS_REF_EDF_H
#define DLS_REF_EDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What one simulation of a drawn set gave: its exit status, the completed
 * jobs and the run slices, each naming its task by index (thread t<i>). */
struct dls_ref_out {
	int exit_code;
	struct {
		int task;
		uint64_t end;
	} jobs[1024];
	size_t nr_jobs;
	struct {
		int task;
		uint64_t start, end;
	} slices[8192];
	size_t nr_slices;
	bool truncated; /* more jobs or slices than the arrays hold */
};

/*
 * Simulate @text (a dlsim workload, admission limit 100%) and fill @out.
 * Called twice per set, soft then hard reservations.
 */
typedef void (*dls_ref_runner)(void *arg, const char *text, struct dls_ref_out *out);

/* What dls_ref_compare_sets() compared. */
struct dls_ref_stats {
	unsigned int sets, sets_smp, sets_part, sets_full, sets_late, not_placed;
	unsigned int jobs_soft, jobs_hard, ties;
	uint64_t tardy_soft, tardy_hard; /* ns */
};

/*
 * Draw @runs random sets from @seed and, for each set and reservation kind,
 * check with CUnit assertions that the runner's completions are the
 * reference's: every job with soft reservations; with hard ones every job
 * up to the first instant a job is late by more than its period. Also
 * checks global EDF's tardiness bound on implicit-deadline sets. Prints
 * the figures and returns them.
 */
struct dls_ref_stats dls_ref_compare_sets(uint64_t seed, uint64_t runs, uint64_t horizon_ns,
					  dls_ref_runner run, void *arg);

#endif /* DLS_REF_EDF_H */
