/*
 * dlsim --trace: Chrome trace events (chrome://tracing, ui.perfetto.dev),
 * one track per CPU with the run slices, offline spans and instant marks.
 */
#include "output.h"

/*
 * Each reservation's remaining budget and absolute deadline as counter
 * tracks ("budget NAME", "deadline NAME"), sampled when it starts or stops
 * running and at every throttle and replenishment.
 */
static void write_counters(struct sim *s, FILE *f)
{
	char e[ESC_SIZE];

	for (size_t i = 0; i < s->nr_budget; i++) {
		const struct budget_sample *b = &s->budget[i];
		const char *name = out_esc(e, sizeof(e), s->threads[b->thread]->name, false);

		fprintf(f, "{\"ph\": \"C\", \"name\": \"budget %s\", \"pid\": 1, \"ts\": %.3f, "
			"\"args\": {\"runtime_us\": %.3f}},\n", name, (double)b->t / 1e3,
			(double)b->runtime / 1e3);
		fprintf(f, "{\"ph\": \"C\", \"name\": \"deadline %s\", \"pid\": 1, \"ts\": %.3f, "
			"\"args\": {\"deadline_ms\": %.6f}},\n", name, (double)b->t / 1e3,
			(double)b->deadline / 1e6);
	}
}

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
			"\"tid\": %d, \"ts\": %.3f", m->what, m->thread >= 0 ? " " : "",
			m->thread >= 0 ? out_esc(e, sizeof(e), s->threads[m->thread]->name, false) : "",
			m->cpu < 0 ? 0 : m->cpu, (double)m->t / 1e3);
		if (m->has_budget)
			fprintf(f, ", \"args\": {\"runtime_us\": %.3f, \"deadline_us\": %.3f}",
				(double)m->runtime / 1e3, (double)m->deadline / 1e3);
		fprintf(f, "},\n");
	}
	write_counters(s, f);
	if (s->nr_budget)
		fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, "
			"\"args\": {\"name\": \"reservations\"}},\n");
	fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, "
		"\"args\": {\"name\": \"dlsim\"}}\n]}\n");
}

const struct sim_writer sim_trace_writer = {
	.timeline = true,
	.budget = true,
	.write = write_trace,
};
