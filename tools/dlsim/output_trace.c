/*
 * dlsim --trace: Chrome trace events (chrome://tracing, ui.perfetto.dev),
 * one track per CPU with the run slices, offline spans and instant marks.
 */
#include "output.h"

static void write_trace(struct sim *s, FILE *f, uint64_t horizon)
{
	char e[ESC_SIZE];

	(void)horizon;
	fprintf(f, "{\"traceEvents\": [\n");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": %d, "
			"\"args\": {\"name\": \"CPU %d\"}},\n", cpu, cpu);
	for (size_t i = 0; i < s->nr_slices; i++) {
		const struct slice *sl = &s->slices[i];

		fprintf(f, "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
			"\"ts\": %.3f, \"dur\": %.3f},\n",
			out_esc(e, sizeof(e), s->threads[sl->thread]->name, false), sl->cpu,
			(double)sl->start / 1e3, (double)(sl->end - sl->start) / 1e3);
	}
	for (size_t i = 0; i < s->nr_spans; i++) {
		const struct span *sp = &s->spans[i];

		fprintf(f, "{\"ph\": \"X\", \"name\": \"offline\", \"cname\": \"grey\", "
			"\"pid\": 0, \"tid\": %d, \"ts\": %.3f, \"dur\": %.3f},\n", sp->cpu,
			(double)sp->start / 1e3, (double)(sp->end - sp->start) / 1e3);
	}
	for (size_t i = 0; i < s->nr_marks; i++) {
		const struct mark *m = &s->marks[i];

		fprintf(f, "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"%s%s%s\", \"pid\": 0, "
			"\"tid\": %d, \"ts\": %.3f},\n", m->what, m->thread >= 0 ? " " : "",
			m->thread >= 0 ? out_esc(e, sizeof(e), s->threads[m->thread]->name, false) : "",
			m->cpu < 0 ? 0 : m->cpu, (double)m->t / 1e3);
	}
	fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, "
		"\"args\": {\"name\": \"dlsim\"}}\n]}\n");
}

const struct sim_writer sim_trace_writer = {
	.timeline = true,
	.write = write_trace,
};
