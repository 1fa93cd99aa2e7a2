/*
 * dlsim --jobs: one CSV row per completed job. A job ends at its thread's
 * timer event; its own deadline is the one misses are counted against,
 * the server's is its reservation's deadline when it completed.
 */
#include "output.h"

#include <inttypes.h>

static void write_jobs(struct sim *s, FILE *f, uint64_t horizon)
{
	char e[ESC_SIZE], cpus[256];

	(void)horizon;
	fprintf(f, "thread,job,release_ns,start_ns,end_ns,deadline_ns,server_deadline_ns,"
		"response_ns,lateness_ns,cpus,preemptions,migrations,throttles\n");
	for (size_t i = 0; i < s->nr_jobs; i++) {
		const struct job_rec *j = &s->jobs[i];

		/* names are rt-app keys: quote them as CSV does */
		fprintf(f, "\"%s\",%" PRIu64 ",%" PRIu64 ",", out_csv_name(e, sizeof(e),
			s->threads[j->thread]->name), j->index, j->release);
		if (j->ran)
			fprintf(f, "%" PRIu64, j->start);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", j->end, j->deadline);
		if (j->has_server)
			fprintf(f, "%" PRIu64, j->server_deadline);
		fprintf(f, ",%" PRIu64 ",%" PRId64 ",%s,%u,%u,%u\n", j->end - j->release,
			out_lateness(j), out_cpu_list(cpus, sizeof(cpus), j->cpus, ";"),
			j->preemptions, j->migrations, j->throttles);
	}
}

const struct sim_writer sim_jobs_writer = {
	.jobs = true,
	.write = write_jobs,
};
