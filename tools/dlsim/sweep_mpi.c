/*
 * dlsim-mpi: `mpirun -n K dlsim-mpi sweep [options]` shares one sweep among
 * K processes, on one machine or many. The sweep (sweep.c) gives rank r the
 * sets i with i % K == r, each seeded from (seed, step, index) as in one
 * process, and hands its outcomes to gather() below; rank 0 receives every
 * rank's, sums the rows in set order and writes the table, the CSV and the
 * SVG: the same bytes as `dlsim sweep` with any --jobs.
 *
 * Failure: a rank that dies takes the job with it (mpirun ends every rank
 * and names the one that died); rank 0 writes nothing until every rank's
 * outcomes have come, so no partial table is ever written. A rank that
 * fails on its own before sending (out of memory) ends the job with
 * MPI_Abort() and says so. SIGINT or SIGTERM (mpirun sends SIGTERM to every
 * rank when it is interrupted) stops the sweep with no table: exit 128 +
 * signal from rank 0.
 *
 * Only the main thread of each rank calls MPI (MPI_THREAD_FUNNELED); the
 * worker threads of --jobs only simulate. Outcomes travel as bytes: the
 * ranks are copies of one executable on machines of one ABI.
 */
#define _GNU_SOURCE /* sched_getaffinity(), CPU_COUNT() */
#include <limits.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "sweep.h"

enum { TAG_STATUS = 1, TAG_SETS = 2 };

struct mpi_ctx {
	int rank, size;
	MPI_Datatype outcome;   /* one struct sweep_outcome, as bytes */
	bool started;           /* every rank agreed to run */
	bool complete;          /* this rank's part of gather() is done */
};

static int agree(void *arg, int rc)
{
	struct mpi_ctx *m = arg;
	int all = rc;

	MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	m->started = all == 0;
	return all;
}

/* The share of rank r: sets r, r + size, ... below n. */
static size_t share(size_t n, int r, int size)
{
	return n > (size_t)r ? (n - (size_t)r + (size_t)size - 1) / (size_t)size : 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait for @reqs without blocking signals out: 0 when both completed, or
 * the signal the sweep caught (the requests are then cancelled). */
static int wait_or_signal(MPI_Request reqs[2])
{
	for (;;) {
		int done = 0, sig;

		MPI_Testall(2, reqs, &done, MPI_STATUSES_IGNORE);
		if (done)
			return 0;
		sig = sweep_caught_signal();
		if (sig) {
			for (int i = 0; i < 2; i++)
				if (reqs[i] != MPI_REQUEST_NULL) {
					MPI_Cancel(&reqs[i]);
					MPI_Request_free(&reqs[i]);
				}
			return sig;
		}
		sleep_ms(1);
	}
}

/* Rank 0: every other rank's status and outcomes into all[], rank by rank. */
static int gather_root(struct mpi_ctx *m, struct sweep_outcome *all, size_t n,
		       struct sweep_share_status *st)
{
	struct sweep_outcome *buf = malloc((share(n, 0, m->size) + 1) * sizeof(*buf));
	struct sweep_share_status *rs = malloc(sizeof(*rs));
	int rc = 0;

	if (!buf || !rs) {
		fprintf(stderr, "dlsim-mpi: rank 0: out of memory for the other ranks' sets\n");
		free(buf);
		free(rs);
		return -1;
	}
	if (share(n, 0, m->size) > INT_MAX) {
		fprintf(stderr, "dlsim-mpi: %zu sets per rank, more than one message carries "
			"(%d); use more ranks\n", share(n, 0, m->size), INT_MAX);
		free(buf);
		free(rs);
		return -1;
	}
	for (int r = 1; r < m->size; r++) {
		size_t nr = share(n, r, m->size);
		MPI_Request reqs[2];
		int sig;

		MPI_Irecv(rs, (int)sizeof(*rs), MPI_BYTE, r, TAG_STATUS, MPI_COMM_WORLD, &reqs[0]);
		MPI_Irecv(buf, (int)nr, m->outcome, r, TAG_SETS, MPI_COMM_WORLD, &reqs[1]);
		sig = wait_or_signal(reqs);
		if (sig) {
			char who[64];

			if (r + 1 == m->size)
				snprintf(who, sizeof(who), "rank %d", r);
			else
				snprintf(who, sizeof(who), "ranks %d to %d", r, m->size - 1);
			fprintf(stderr, "dlsim-mpi: %s while waiting for the sets of %s (when a "
				"rank dies, mpirun ends the others and names it above)\n",
				sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", who);
			st->signal = sig;
			rc = -1;
			break;
		}
		for (size_t k = 0; k < nr; k++)
			all[(size_t)r + k * (size_t)m->size] = buf[k];
		if (!st->save_errno && rs->save_errno) {
			st->rank = rs->rank;
			st->save_errno = rs->save_errno;
			memcpy(st->save_path, rs->save_path, sizeof(st->save_path));
		}
		if (!st->signal)
			st->signal = rs->signal;
	}
	free(buf);
	free(rs);
	return rc;
}

static int gather(void *arg, const struct sweep_outcome *own, size_t nr_own,
		  struct sweep_outcome *all, size_t n, struct sweep_share_status *st)
{
	struct mpi_ctx *m = arg;
	int rc = 0;

	if (m->rank != 0) {
		MPI_Send(st, (int)sizeof(*st), MPI_BYTE, 0, TAG_STATUS, MPI_COMM_WORLD);
		MPI_Send(own, (int)nr_own, m->outcome, 0, TAG_SETS, MPI_COMM_WORLD);
		m->complete = true;
		return 0;
	}
	if (!all) {
		/* rank 0 could not keep them: the job ends (main()) */
		return -1;
	}
	for (size_t k = 0; k < nr_own; k++)
		all[k * (size_t)m->size] = own[k];
	rc = gather_root(m, all, n, st);
	m->complete = rc == 0;
	return rc;
}

/* --jobs when not given: the CPUs this rank may run on (mpirun binds a
 * rank to a core, or to none when oversubscribed). */
static int affinity_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > 1024 ? 1024 : n;
}

static int usage(FILE *f, int code)
{
	fprintf(f,
		"usage: mpirun -n K dlsim-mpi sweep [options]\n"
		"Runs `dlsim sweep` shared by the K ranks: rank r simulates the sets\n"
		"i with i %% K == r (each seeded from the seed, its step and its index, as\n"
		"in one process), rank 0 gathers them and prints the table and writes\n"
		"--csv and --svg, the same bytes as one process with any --jobs. The\n"
		"options are dlsim sweep's (dlsim sweep --help), but --dir; --jobs is\n"
		"per rank (default: the CPUs the rank is bound to); --save writes each\n"
		"rank's sets on its own machine.\n"
		"A rank that dies ends the run with no table (mpirun names the rank);\n"
		"so do SIGINT and SIGTERM: exit status 128 + signal.\n");
	return code;
}

int main(int argc, char **argv)
{
	struct mpi_ctx m = { 0 };
	struct sweep_dist d = { .gather = gather, .agree = agree, .ctx = &m };
	int provided = 0, rc;

	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "dlsim-mpi: MPI_Init_thread failed\n");
		return DLSIM_EXIT_FAILURE;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	if (argc < 2 || strcmp(argv[1], "sweep")) {
		bool help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));

		if (m.rank == 0 && !help)
			fprintf(stderr, "dlsim-mpi: %s%s%s; it runs sweeps only (dlsim FILE runs "
				"one workload)\n", argc < 2 ? "no command" : "unknown command \"",
				argc < 2 ? "" : argv[1], argc < 2 ? "" : "\"");
		rc = m.rank == 0 ? usage(help ? stdout : stderr, help ? 0 : DLSIM_EXIT_USAGE) :
			help ? 0 : DLSIM_EXIT_USAGE;
		MPI_Finalize();
		return rc;
	}
	if (provided < MPI_THREAD_FUNNELED) {
		if (m.rank == 0)
			fprintf(stderr, "dlsim-mpi: this MPI gives no thread support (level %d); "
				"running with --jobs 1\n", provided);
		d.default_jobs = 1;
	} else {
		d.default_jobs = affinity_cpus();
	}
	/* rank 0 prints the table; the others' standard output is not used */
	if (m.rank != 0 && !freopen("/dev/null", "w", stdout))
		fclose(stdout);
	MPI_Type_contiguous((int)sizeof(struct sweep_outcome), MPI_BYTE, &m.outcome);
	MPI_Type_commit(&m.outcome);
	d.rank = m.rank;
	d.size = m.size;
	rc = sweep_main_dist(argc - 1, argv + 1, &d);
	if (m.started && !m.complete) {
		/* The others wait for this rank, or this rank for them: end the
		 * job rather than hang (mpirun prints the rank and the status). */
		fprintf(stderr, "dlsim-mpi: rank %d stopped before the sets were gathered "
			"(exit status %d): ending every rank\n", m.rank, rc ? rc : 1);
		fflush(stdout);
		MPI_Abort(MPI_COMM_WORLD, rc ? rc : 1);
	}
	MPI_Type_free(&m.outcome);
	MPI_Finalize();
	return rc;
}
