/*
 * dlsim sweep: schedulability ratio against utilisation.
 *
 * Task sets are generated (UUniFast-discard or Randfixedsum utilisations,
 * log-uniform periods, implicit or constrained deadlines) or read from a
 * directory of workload files, each is simulated on the real library, and
 * the share of sets with no deadline miss within the horizon is reported per
 * utilisation. Every set is seeded from (seed, step, index) alone, so the
 * result does not depend on how many worker threads ran it.
 */
#ifndef DLSIM_SWEEP_H
#define DLSIM_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "prng.h"
#include "workload.h"

/* The shared PRNG (tools/prng), one per task set; no global state. */
struct sweep_rng {
	struct dls_prng p;
};

/* Seed from (seed, step, index) through splitmix64. */
void sweep_rng_seed(struct sweep_rng *r, uint64_t seed, uint64_t step, uint64_t index);
uint64_t sweep_rng_next(struct sweep_rng *r);
/* Uniform in [0, 1), 53 random bits. */
double sweep_rng_unit(struct sweep_rng *r);

/*
 * n utilisations, each in (0, 1], summing to total (0 < total <= n).
 * UUniFast (Bini & Buttazzo 2005) redraws the whole vector while any value
 * exceeds 1 (the discard rule of Davis & Burns 2009) and gives up after
 * max_tries draws. Randfixedsum (Stafford 2006, used for task sets by
 * Emberson, Stafford & Davis 2010) samples the same region directly.
 * Both return 0, -1 for impossible arguments, -2 when UUniFast-discard ran
 * out of tries, -3 when memory ran out.
 */
int sweep_uunifast_discard(struct sweep_rng *r, int n, double total, double *u,
			   unsigned long max_tries);
int sweep_randfixedsum(struct sweep_rng *r, int n, double total, double *u);

enum sweep_gen { SWEEP_RANDFIXEDSUM, SWEEP_UUNIFAST };
/* Analysis tests a sweep can run beside the simulation (sweep_analysis.c). */
enum sweep_test { SWEEP_TEST_QPA, SWEEP_TEST_GFB, SWEEP_TEST_BAK, SWEEP_TEST_BCL,
		  SWEEP_TEST_RTA, SWEEP_TEST_FF, SWEEP_TEST_FFD, SWEEP_TEST_PRM,
		  SWEEP_NR_TESTS };
enum sweep_deadlines { SWEEP_IMPLICIT, SWEEP_CONSTRAINED };
/* Partitioned packing: first fit in task order, or first fit in decreasing
 * utilisation order (ties by index), as dls_analysis_partition() sorts. */
enum sweep_fit { SWEEP_FIT_FF, SWEEP_FIT_FFD };

/* One set's outcome, as a process of a distributed sweep sends it to
 * rank 0 (struct sweep_dist). */
struct sweep_outcome {
	uint64_t events;        /* scheduling events simulated */
	signed char result;     /* sweep_item_fn's return; SWEEP_NOT_RUN */
	unsigned char lifted;   /* a budget was raised to 2 us */
	unsigned char accepts;  /* a bit per accepting test (SWEEP_NR_TESTS <= 8) */
	unsigned char disagree; /* analysis and simulation disagree */
};

/* How one process's share went, sent with its outcomes. */
struct sweep_share_status {
	int rank;               /* the process it is about */
	int save_errno;         /* the --save that failed there (0: none) ... */
	char save_path[4096];   /* ... and its path */
	int signal;             /* the signal that stopped it, 0 for none */
};

/*
 * A sweep shared by @size processes (dlsim-mpi): this one, @rank, runs the
 * sets i with i % size == rank (so every process gets its part of every
 * utilisation), each seeded from (seed, step, index) as always, and
 * rank 0 sums them in set order: the table is the bytes of a run in one
 * process. No MPI here; the front end supplies the transport.
 */
struct sweep_dist {
	int rank, size;
	/*
	 * Called once on every process when its share has run: own[k] is set
	 * rank + k * size, k < nr_own, and *st how the share went. At rank 0
	 * it fills all[0..n-1] with every process's outcomes (all is NULL
	 * elsewhere) and *st with the first failed save by rank and the first
	 * signal. Returns 0, or -1 when some process's outcomes never came
	 * (said on stderr, naming the ranks): the sweep then writes nothing.
	 */
	int (*gather)(void *ctx, const struct sweep_outcome *own, size_t nr_own,
		      struct sweep_outcome *all, size_t n, struct sweep_share_status *st);
	/* Called once on every process before anything runs with its own exit
	 * status so far (0 to go on); returns the largest over the processes,
	 * so that they all stop, or all run, together. */
	int (*agree)(void *ctx, int rc);
	void *ctx;
	int default_jobs;       /* --jobs when not given (0: online CPUs) */
	/* set by the sweep: */
	bool running;           /* agreed to run; gather() not yet returned */
	int stop_signal;        /* at rank 0: a process stopped on this signal */
};

struct sweep_config {
	enum sweep_gen gen;
	enum sweep_deadlines deadlines;
	int nr_cpus, nr_tasks;
	double *utils;          /* total utilisation of each step */
	int nr_utils;
	int sets;               /* task sets per step */
	uint64_t seed;
	/* periods: log-uniform in [min, max], multiples of gran (Emberson et al.) */
	uint64_t period_min_us, period_max_us, period_gran_us;
	uint64_t horizon_us;
	enum wl_mode mode;      /* global or partitioned (first fit) */
	enum sweep_fit fit;     /* partitioned: the order tasks are packed in */
	int jobs;               /* worker threads */
	bool progress;          /* progress bar on stderr */
	bool check;             /* run the validators after every event */
	unsigned long max_tries;/* UUniFast-discard redraws per set */
	const char *save_dir;   /* write each set there as a workload file */
	unsigned int tests;     /* analysis tests to run: bits 1 << SWEEP_TEST_* */
	bool check_analysis;    /* cross-check the tests with simulation */
	const uint32_t *capacity; /* nr_cpus capacities (1024 = full speed) the
				     simulation and the saved files use; NULL
				     for all full speed */
	struct sweep_dist *dist;  /* the processes sharing it; NULL: this one */
	/* --guest: each set runs inside one server (a one-vCPU guest) on CPU 0
	 * with this period = deadline and the budget sweep_guest_budget()
	 * gives; 0: on the host, as plain reservations */
	uint64_t guest_period_us;
	uint64_t guest_budget_us; /* --guest MS:BUDGET: a fixed budget instead (0: none) */
	/* the set being run's sweep_guest_budget(), computed once by the sweep
	 * in its own copy of the configuration (the test's search is the costly
	 * part of a guest's set); NULL: computed at each call */
	const struct sweep_guest *guest_set;
};

/* sweep_guest_budget()'s answer for one set. */
struct sweep_guest {
	int err;
	uint64_t budget_us;
	bool accepted;
};

/* One periodic task: C, D, T in microseconds; u as generated (before C is
 * rounded down to whole microseconds, or raised to the 2 us minimum). */
struct sweep_task {
	double u;
	uint64_t runtime_us, deadline_us, period_us;
	bool lifted;            /* u T was under 2 us: C raised to 2 us */
};

/* Generate set (step, index) of c into tasks[c->nr_tasks]; 0 or as above. */
int sweep_taskset(const struct sweep_config *c, int step, int index,
		  struct sweep_task *tasks);

/* The order tasks[0..n-1] are placed in under c->fit: order[k] is the
 * index of the k-th task (decreasing C/T, ties by index, for ffd). */
void sweep_pack_order(const struct sweep_config *c, const struct sweep_task *tasks, int n,
		      int *order);

/*
 * Write a task set as a workload file dlsim reads (rt-app grammar plus the
 * platform and simulation sections), in the order it is packed (so that a
 * partitioned replay packs it the same way). The file appears complete or
 * not at all: it is written beside @path and renamed. Returns 0 or -1
 * (errno set).
 */
int sweep_write_taskset(const struct sweep_config *c, const struct sweep_task *tasks,
			double util, const char *path);

/*
 * --guest: the server's budget for a set, in whole microseconds, and
 * whether the periodic resource model (Shin & Lee, RTSS 2003) accepts the
 * set in it. With c->guest_budget_us, that budget, accepted when theta_min
 * (dls_analysis_prm_budget() for period c->guest_period_us) is at most it.
 * Otherwise theta_min rounded up (more supply keeps the verdict); when no
 * budget up to the period passes (the set misses under EDF on a whole CPU)
 * or the test is undecided, the whole period, not accepted. Returns 0,
 * DLS_ERANGE when undecided (a test interval past 64 bits; *budget_us is
 * set), or another DLS_E* code. With c->guest_set, its answer.
 */
int sweep_guest_budget(const struct sweep_config *c, const struct sweep_task *tasks,
		       uint64_t *budget_us, bool *accepted);

/*
 * Simulate one task set: 1 schedulable, 0 not (a deadline miss, or the
 * admission test at 100% refused it), -1 the simulator failed. Adds the
 * scheduling events simulated to *events. With --guest, SWEEP_REFUSED
 * when admission refuses the server on the host or a task inside the
 * guest (nothing is simulated then).
 */
#define SWEEP_REFUSED 2
int sweep_simulate(const struct sweep_config *c, const struct sweep_task *tasks,
		   uint64_t *events);

/* sweep_simulate(); with no_admission the set runs whatever its bandwidth
 * (no admission test, and 1 still means no miss within the horizon). */
int sweep_simulate_unadmitted(const struct sweep_config *c, const struct sweep_task *tasks,
			      uint64_t *events, bool no_admission);

/* Test names as --tests spells them, indexed by enum sweep_test. */
extern const char *const sweep_test_names[SWEEP_NR_TESTS];

/* Parse a --tests list ("qpa,gfb,..."); 0, or -1 for an unknown name. */
int sweep_parse_tests(const char *s, unsigned int *mask);

/*
 * Run c->tests on set (step, index), whose simulation returned sim_rc
 * (as sweep_simulate()); a bit per accepting test goes to *accepts. With
 * c->check_analysis, cross-check (sweep_analysis.c says how) and write a
 * disagreeing set as disagree-STEP-INDEX.json (into c->save_dir, or the
 * current directory). Returns 0, 1 for a disagreement, -1 on failure.
 */
int sweep_analyze_set(const struct sweep_config *c, int step, int index,
		      const struct sweep_task *tasks, int sim_rc, unsigned char *accepts,
		      uint64_t *events);

/* One row of the result. */
struct sweep_point {
	double util;
	unsigned int sets, schedulable;
	uint64_t events;        /* scheduling events simulated for this step */
	unsigned int lifted;    /* sets with a budget raised to 2 us, whose
				   utilisation is therefore above util */
	unsigned int accepted[SWEEP_NR_TESTS]; /* sets each test accepts */
	unsigned int disagree;  /* sets where analysis and simulation disagree */
	unsigned int refused;   /* --guest: sets admission refused (SWEEP_REFUSED) */
	bool partial;           /* the sweep stopped before every set of the row ran */
};

/*
 * Run the sweep of c: points[c->nr_utils] is filled. Returns 0, or a
 * negative value with a message on err: SWEEP_ESAVE when a set could not be
 * saved (the sweep stopped there), -1 otherwise. After SIGINT or SIGTERM
 * (sweep_catch_signals()) the sets that ran fill the points, the others
 * leave their rows partial, and 0 is returned.
 * With c->dist, this process runs its share and hands it to gather(); at a
 * rank other than 0 nothing is filled and 0 (or -1) is returned; at rank 0
 * a signal caught by any process returns SWEEP_ESTOPPED (a shared sweep
 * writes no partial table: its processes may already be gone) with the
 * signal in c->dist->stop_signal, and outcomes that never came return -1.
 */
#define SWEEP_ESAVE (-4)
#define SWEEP_ESTOPPED (-5)
int sweep_run(const struct sweep_config *c, struct sweep_point *points, FILE *err);

/* `dlsim sweep ARGS`: argv[0] is "sweep". Returns the exit status. */
int sweep_main(int argc, char **argv);

/* sweep_main() as one of the processes of @dist (NULL: sweep_main()).
 * Only rank 0 prints the table and writes the files. */
int sweep_main_dist(int argc, char **argv, struct sweep_dist *dist);

#define SWEEP_MAX_TASKS 4096 /* the simulator's thread limit */

/*
 * SIGINT and SIGTERM stop a sweep between sets (sweep_signal.c): sets already running
 * finish, no new one starts, and the caller writes what ran. A second
 * signal ends the process as usual, after removing the temporary files
 * named to sweep_remove_on_signal(). sweep_caught_signal() is the signal
 * caught, 0 for none.
 */
void sweep_catch_signals(void);
int sweep_caught_signal(void);

/* Slot @slot (below SWEEP_TEMP_SLOTS) names @path as a temporary file to
 * remove at a second signal, or nothing (NULL). Named before the file is
 * created and cleared once it is renamed or removed; @path must stay
 * valid and unchanged while named. */
#define SWEEP_TEMP_SLOTS 2
void sweep_remove_on_signal(int slot, const char *path);

/* A free slot past SWEEP_TEMP_SLOTS names @path (as above) for a worker
 * thread's file, a saved set; returns the slot for sweep_temp_release(),
 * or -1 when all are taken, which with at most SWEEP_MAX_JOBS workers
 * writing one file each at a time does not happen. */
#define SWEEP_MAX_JOBS 1024
int sweep_temp_claim(const char *path);
void sweep_temp_release(int slot);

/* An item's result when it did not run (the sweep stopped first). */
#define SWEEP_NOT_RUN (-100)

/* The work: item i of n; returns 1, 0 or -1 and adds its events;
 * SWEEP_ESAVE stops the sweep (no further item starts). */
typedef int (*sweep_item_fn)(void *ctx, size_t i, uint64_t *events);

/* Run items 0..n-1 of @fn on @jobs worker threads; result[i] is item i's
 * return (SWEEP_NOT_RUN when the sweep stopped first), *events the sum of
 * their events. Returns 0, -1 when a thread could not start. */
int sweep_run_items(size_t n, int jobs, bool progress, sweep_item_fn fn, void *ctx,
		    signed char *result, uint64_t *events);

#endif
