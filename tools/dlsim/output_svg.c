/* dlsim --svg: a Gantt chart, one row per CPU, with marks and a legend. */
#include "output.h"

#include <string.h>

static void write_svg(struct sim *s, FILE *f, uint64_t horizon)
{
	static const char *const colors[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
					      "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
					      "#9c755f", "#bab0ac" };
	const int left = 70, row = 40, width = 1000;
	int legend_rows = (s->nr_threads + 3) / 4;
	int height = 40 + s->nr_cpus * row + 30 + legend_rows * 18;
	double scale = horizon ? (double)width / (double)horizon : 0;
	char e[ESC_SIZE];

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", left + width + 20, height);
	fprintf(f, "<text x=\"%d\" y=\"16\">dlsim: %.3f s on %d CPUs (red: miss, "
		"black: throttle, purple: boost, green tick: release, blue tick: deadline, "
		"hatched: offline)</text>\n", left,
		(double)horizon / 1e9, s->nr_cpus);
	fprintf(f, "<defs><pattern id=\"offline\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#eee\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" "
		"stroke-width=\"2\"/></pattern></defs>\n");
	for (size_t i = 0; i < s->nr_spans; i++) {
		const struct span *sp = &s->spans[i];

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"32\" "
			"fill=\"url(#offline)\"><title>CPU %d offline</title></rect>\n",
			left + (double)sp->start * scale, 40 + sp->cpu * row + 2,
			(double)(sp->end - sp->start) * scale, sp->cpu);
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "<text x=\"4\" y=\"%d\">CPU %d (%u)</text>\n"
			"<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n",
			40 + cpu * row + 20, cpu, s->cpus[cpu].capacity, left, left + width,
			40 + cpu * row + 30, 40 + cpu * row + 30);
	for (size_t i = 0; i < s->nr_slices; i++) {
		const struct slice *sl = &s->slices[i];
		double x = left + (double)sl->start * scale;
		double wd = (double)(sl->end - sl->start) * scale;

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"24\" fill=\"%s\">"
			"<title>%s</title></rect>\n", x, 40 + sl->cpu * row + 6, wd < 0.2 ? 0.2 : wd,
			colors[sl->thread % 10], out_esc(e, sizeof(e), s->threads[sl->thread]->name, true));
	}
	for (size_t i = 0; i < s->nr_marks; i++) {
		const struct mark *m = &s->marks[i];
		const char *col = !strcmp(m->what, "miss") ? "red"
				  : !strcmp(m->what, "throttle") ? "black"
				  : !strcmp(m->what, "boost") ? "purple" : NULL;
		double x = left + (double)m->t * scale;

		if (m->cpu < 0 || m->t > horizon)
			continue;
		if (!strcmp(m->what, "release") || !strcmp(m->what, "deadline")) {
			/* a short tick above the row (release) or below it (deadline) */
			bool rel = m->what[0] == 'r';
			int y = 40 + m->cpu * row + (rel ? 0 : 30);

			fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" "
				"stroke=\"%s\"/>\n", x, x, y, y + 6, rel ? "green" : "blue");
			continue;
		}
		if (!col)
			continue;
		fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n",
			x, x, 40 + m->cpu * row + 2, 40 + m->cpu * row + 34, col);
	}
	for (int i = 0; i < s->nr_threads; i++) {
		int lx = left + (i % 4) * 250, ly = 40 + s->nr_cpus * row + 20 + (i / 4) * 18;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 10, colors[i % 10],
			lx + 16, ly, out_esc(e, sizeof(e), s->threads[i]->name, true));
	}
	fprintf(f, "</svg>\n");
}

const struct sim_writer sim_svg_writer = {
	.timeline = true,
	.write = write_svg,
};
