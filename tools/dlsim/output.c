/*
 * dlsim's output interface (output.h): picks the writers the options ask
 * for, hands them each record as the run produces it, and has them finish
 * once the run is over.
 */
#include "output.h"

#include <errno.h>
#include <string.h>

/* The writers the options ask for, in the order they run; a NULL path is
 * the summary's stream. */
void sim_outputs_plan(struct sim *s)
{
	const struct sim_options *opt = s->opt;
	const struct sim_writer *w[MAX_OUTPUTS];
	const char *path[MAX_OUTPUTS];
	size_t n = 0;

	if (!opt->quiet) {
		w[n] = &sim_summary_writer;
		path[n++] = NULL;
	}
	if (opt->json_path) {
		w[n] = &sim_json_writer;
		path[n++] = opt->json_path;
	}
	if (opt->trace_path) {
		w[n] = &sim_trace_writer;
		path[n++] = opt->trace_path;
	}
	if (opt->svg_path) {
		w[n] = &sim_svg_writer;
		path[n++] = opt->svg_path;
	}
	if (opt->jobs_path) {
		w[n] = &sim_jobs_writer;
		path[n++] = opt->jobs_path;
	}
	if (opt->on_slice || opt->on_job) {
		w[n] = &sim_observer_writer;
		path[n++] = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		s->sinks[i].w = w[i];
		s->sinks[i].path = path[i];
		s->timeline |= w[i]->timeline;
		s->samples |= w[i]->samples;
		s->job_log |= w[i]->jobs;
		s->budget_log |= w[i]->budget;
		s->job_ends |= w[i]->job_ends && opt->on_job;
	}
	s->slices = s->timeline || opt->on_slice;
	s->nr_sinks = n;
}

int sim_close_output(FILE *f, const char *prog, const char *path)
{
	int err = 0;

	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(err));
	return -1;
}

int sim_outputs_start(struct sim *s)
{
	for (size_t i = 0; i < s->nr_sinks; i++) {
		struct sim_sink *k = &s->sinks[i];

		for (unsigned int p = 0; p < k->w->nr_parts; p++) {
			k->part[p] = out_file_scratch();
			if (!k->part[p]) {
				fprintf(stderr, "dlsim: cannot write %s: no scratch file "
					"($TMPDIR, else /tmp): %s\n", k->path, strerror(errno));
				sim_outputs_discard(s);
				return -1;
			}
		}
	}
	return 0;
}

int sim_outputs_open(struct sim *s)
{
	for (size_t i = 0; i < s->nr_sinks; i++) {
		struct sim_sink *k = &s->sinks[i];

		if (k->path && out_file_open(&k->o, "dlsim", k->path)) {
			sim_outputs_discard(s);
			return -1;
		}
	}
	return 0;
}

void sim_emit_slice(struct sim *s, const struct slice *sl)
{
	for (size_t i = 0; i < s->nr_sinks; i++)
		if (s->sinks[i].w->on_slice)
			s->sinks[i].w->on_slice(&s->sinks[i], s, sl);
}

void sim_emit_mark(struct sim *s, const struct mark *m)
{
	for (size_t i = 0; i < s->nr_sinks; i++)
		if (s->sinks[i].w->on_mark)
			s->sinks[i].w->on_mark(&s->sinks[i], s, m);
}

void sim_emit_budget(struct sim *s, const struct budget_sample *b)
{
	for (size_t i = 0; i < s->nr_sinks; i++)
		if (s->sinks[i].w->on_budget)
			s->sinks[i].w->on_budget(&s->sinks[i], s, b);
}

void sim_emit_job_end(struct sim *s, const struct job_rec *j)
{
	for (size_t i = 0; i < s->nr_sinks; i++)
		if (s->sinks[i].w->on_job_end)
			s->sinks[i].w->on_job_end(&s->sinks[i], s, j);
}

void sim_emit_jobs(struct sim *s)
{
	for (size_t j = 0; j < s->nr_jobs; j++)
		for (size_t i = 0; i < s->nr_sinks; i++)
			if (s->sinks[i].w->on_job)
				s->sinks[i].w->on_job(&s->sinks[i], s, &s->jobs[j]);
	s->nr_jobs = 0;
}

int sim_outputs_write(struct sim *s, FILE *out, uint64_t horizon)
{
	int rc = 0;

	sim_emit_jobs(s); /* the last instant's */
	for (size_t i = 0; i < s->nr_sinks; i++) {
		struct sim_sink *k = &s->sinks[i];
		int err;

		if (!k->path) {
			k->w->finish(k, s, out, horizon);
			continue;
		}
		if (!k->o.f) {
			rc = -1; /* not opened: sim_outputs_open() said why */
			continue;
		}
		err = k->w->finish(k, s, k->o.f, horizon);
		if (err) {
			fprintf(stderr, "dlsim: cannot write %s: %s\n", k->path, strerror(err));
			out_file_discard(&k->o);
			rc = -1;
		} else if (out_file_commit(&k->o, "dlsim")) {
			rc = -1;
		}
	}
	return rc;
}

void sim_outputs_discard(struct sim *s)
{
	for (size_t i = 0; i < s->nr_sinks; i++) {
		struct sim_sink *k = &s->sinks[i];

		out_file_discard(&k->o);
		for (unsigned int p = 0; p < SINK_PARTS; p++) {
			if (k->part[p])
				fclose(k->part[p]);
			k->part[p] = NULL;
		}
	}
}
