/*
 * The observers of sim_options (tests): every run slice and every job as
 * it ends, handed on as the run makes them; nothing is written.
 */
#include "output.h"

static void observe_slice(struct sim_sink *k, const struct sim *s, const struct slice *sl)
{
	(void)k;
	if (s->opt->on_slice)
		s->opt->on_slice(s->opt->cb_arg, sl->cpu, s->threads[sl->thread]->name,
				 sl->start, sl->end);
}

static void observe_job_end(struct sim_sink *k, const struct sim *s, const struct job_rec *j)
{
	(void)k;
	s->opt->on_job(s->opt->cb_arg, s->threads[j->thread]->name, j->release, j->end,
		       dls_time_after(j->end, j->deadline));
}

static int observe_finish(struct sim_sink *k, struct sim *s, FILE *f, uint64_t horizon)
{
	(void)k;
	(void)s;
	(void)f;
	(void)horizon;
	return 0;
}

const struct sim_writer sim_observer_writer = {
	.job_ends = true,
	.on_slice = observe_slice,
	.on_job_end = observe_job_end,
	.finish = observe_finish,
};
