/*
 * dlsim --trace: Chrome trace events (chrome://tracing, ui.perfetto.dev),
 * one track per CPU with the run slices, offline spans and instant marks.
 * Slices, marks and budget samples are written as the run produces them,
 * each kind to its own section; the file puts them in that order.
 */
#include "output.h"

enum { PART_SLICES, PART_MARKS, PART_COUNTERS };

static void trace_slice(struct sim_sink *k, const struct sim *s, const struct slice *sl)
{
	char e[ESC_SIZE];

	fprintf(k->part[PART_SLICES], "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
		"\"ts\": %.3f, \"dur\": %.3f},\n",
		out_esc(e, sizeof(e), s->threads[sl->thread]->name, false), sl->cpu,
		(double)sl->start / 1e3, (double)(sl->end - sl->start) / 1e3);
}

static void trace_mark(struct sim_sink *k, const struct sim *s, const struct mark *m)
{
	FILE *f = k->part[PART_MARKS];
	char e[ESC_SIZE];

	fprintf(f, "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"%s%s%s\", \"pid\": 0, "
		"\"tid\": %d, \"ts\": %.3f", m->what, m->thread >= 0 ? " " : "",
		m->thread >= 0 ? out_esc(e, sizeof(e), s->threads[m->thread]->name, false) : "",
		m->cpu < 0 ? 0 : m->cpu, (double)m->t / 1e3);
	if (m->has_budget)
		fprintf(f, ", \"args\": {\"runtime_us\": %.3f, \"deadline_us\": %.3f}",
			(double)m->runtime / 1e3, (double)m->deadline / 1e3);
	fprintf(f, "},\n");
}

/*
 * Each reservation's remaining budget and absolute deadline as counter
 * tracks ("budget NAME", "deadline NAME"), sampled when it starts or stops
 * running and at every throttle and replenishment.
 */
static void trace_budget(struct sim_sink *k, const struct sim *s, const struct budget_sample *b)
{
	FILE *f = k->part[PART_COUNTERS];
	char e[ESC_SIZE];
	const char *name = out_esc(e, sizeof(e), s->threads[b->thread]->name, false);

	fprintf(f, "{\"ph\": \"C\", \"name\": \"budget %s\", \"pid\": 1, \"ts\": %.3f, "
		"\"args\": {\"runtime_us\": %.3f}},\n", name, (double)b->t / 1e3,
		(double)b->runtime / 1e3);
	fprintf(f, "{\"ph\": \"C\", \"name\": \"deadline %s\", \"pid\": 1, \"ts\": %.3f, "
		"\"args\": {\"deadline_ms\": %.6f}},\n", name, (double)b->t / 1e3,
		(double)b->deadline / 1e6);
	k->n[PART_COUNTERS]++;
}

static int write_trace(struct sim_sink *k, struct sim *s, FILE *f, uint64_t horizon)
{
	int err;

	(void)horizon;
	fprintf(f, "{\"traceEvents\": [\n");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": %d, "
			"\"args\": {\"name\": \"CPU %d\"}},\n", cpu, cpu);
	if ((err = out_part_copy(k, PART_SLICES, f)))
		return err;
	for (size_t i = 0; i < s->nr_spans; i++) {
		const struct span *sp = &s->spans[i];

		fprintf(f, "{\"ph\": \"X\", \"name\": \"offline\", \"cname\": \"grey\", "
			"\"pid\": 0, \"tid\": %d, \"ts\": %.3f, \"dur\": %.3f},\n", sp->cpu,
			(double)sp->start / 1e3, (double)(sp->end - sp->start) / 1e3);
	}
	if ((err = out_part_copy(k, PART_MARKS, f)) || (err = out_part_copy(k, PART_COUNTERS, f)))
		return err;
	if (k->n[PART_COUNTERS])
		fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, "
			"\"args\": {\"name\": \"reservations\"}},\n");
	fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, "
		"\"args\": {\"name\": \"dlsim\"}}\n]}\n");
	return 0;
}

const struct sim_writer sim_trace_writer = {
	.timeline = true,
	.budget = true,
	.nr_parts = 3,
	.on_slice = trace_slice,
	.on_mark = trace_mark,
	.on_budget = trace_budget,
	.finish = write_trace,
};
