/*
 * dlsim --jobs: one CSV row per completed job. A job ends at its thread's
 * timer event; its own deadline is the one misses are counted against,
 * the server's is its reservation's deadline when it completed.
 */
#include "output.h"

#include <inttypes.h>

/* One row per job as it completes, into section 0. */
static void csv_job(struct sim_sink *k, const struct sim *s, const struct job_rec *j)
{
	char e[ESC_SIZE], cpus[OUT_CPU_LIST_SIZE];
	FILE *f = k->part[0];

	/* names are rt-app keys: quote them as CSV does */
	fprintf(f, "\"%s\",%" PRIu64 ",%" PRIu64 ",", out_csv_name(e, sizeof(e),
		s->threads[j->thread]->name), j->index, j->release);
	if (j->ran)
		fprintf(f, "%" PRIu64, j->start);
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", j->end, j->deadline);
	if (j->has_server)
		fprintf(f, "%" PRIu64, j->server_deadline);
	fprintf(f, ",%" PRIu64 ",%" PRId64 ",%s,%u,%u,%u\n", j->end - j->release,
		out_lateness(j), out_cpu_list(cpus, sizeof(cpus), &j->cpus, ";"),
		j->preemptions, j->migrations, j->throttles);
}

static int write_jobs(struct sim_sink *k, struct sim *s, FILE *f, uint64_t horizon)
{
	(void)s;
	(void)horizon;
	fprintf(f, "thread,job,release_ns,start_ns,end_ns,deadline_ns,server_deadline_ns,"
		"response_ns,lateness_ns,cpus,preemptions,migrations,throttles\n");
	return out_part_copy(k, 0, f);
}

const struct sim_writer sim_jobs_writer = {
	.jobs = true,
	.nr_parts = 1,
	.on_job = csv_job,
	.finish = write_jobs,
};
