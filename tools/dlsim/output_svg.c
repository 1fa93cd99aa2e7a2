/*
 * dlsim --svg: a Gantt chart, one row per CPU, with marks, a time axis and
 * a legend.
 *
 * Colours: each thread gets its own hue, spaced evenly over 40-280 degrees,
 * so that none is near the red of a deadline miss (0 degrees) or the
 * purple of a boost (300); neighbours alternate in lightness. Text is sized with a bound on its width (no
 * glyph of the sans-serif fonts is wider than FONT_EM_MAX of its size), so
 * the CPU labels fit their column whatever font the viewer picks.
 *
 * The chart's size, scale and colours depend on the whole run (the threads
 * forked, the time simulated): run slices and marks are kept as records in
 * two sections as the run produces them and drawn at the end.
 */
#include "output.h"

#include <errno.h>
#include <string.h>

#define FONT 11           /* px, the labels and legend */
#define FONT_SMALL 9      /* px, the capacity under a CPU's label */
#define FONT_EM_MAX 1.0   /* the widest glyph, in ems (DejaVu Sans 'W': 0.99) */
#define MISS_COLOR "#ff0000"
#define ROW 40            /* px per CPU */
#define WIDTH 1000        /* px for the horizon */
#define TOP 40            /* px above the first row */
#define AXIS 34           /* px for the time axis under the rows */

/* A bound on the width in px of @text at @font px. */
static double text_width(const char *text, int font)
{
	return (double)strlen(text) * font * FONT_EM_MAX;
}

static double absd(double v)
{
	return v < 0 ? -v : v;
}

/* 0..1 as 0..255. */
static unsigned int byte_of(double v)
{
	return (unsigned int)(v * 255 + 0.5);
}

/* Thread @i of @n as "#rrggbb": HSL with the hue away from the miss red
 * (no libm: the fuzz target links the writers alone). */
static const char *task_color(char buf[8], int i, int n)
{
	double h = 40 + 240.0 * (n > 1 ? i % n : 0) / (n > 1 ? n : 1);
	double l = i % 2 ? 0.62 : 0.45, sat = 0.62;
	double c = (1 - absd(2 * l - 1)) * sat, hp = h / 60;
	double x = c * (1 - absd(hp - 2 * (int)(hp / 2) - 1)), m = l - c / 2;
	double r = 0, g = 0, b = 0;

	if (hp < 1) {
		r = c; g = x;
	} else if (hp < 2) {
		r = x; g = c;
	} else if (hp < 3) {
		g = c; b = x;
	} else if (hp < 4) {
		g = x; b = c;
	} else if (hp < 5) {
		r = x; b = c;
	} else {
		r = c; b = x;
	}
	snprintf(buf, 8, "#%02x%02x%02x", byte_of(r + m), byte_of(g + m), byte_of(b + m));
	return buf;
}

/* Ticks every 1, 2 or 5 times a power of ten ns, about eight of them. */
static uint64_t tick_step(uint64_t horizon)
{
	uint64_t raw = horizon / 8, p = 1;

	while (p <= raw / 10)
		p *= 10;
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* The unit for ticks every @step ns (at least half a unit): its size in ns
 * and its name. */
static uint64_t axis_unit(uint64_t step, const char **name)
{
	static const struct {
		uint64_t ns;
		const char *name;
	} units[] = { { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "\xc2\xb5s" }, { 1, "ns" } };
	size_t k = 0;

	while (k + 1 < sizeof(units) / sizeof(units[0]) && 2 * step < units[k].ns)
		k++;
	*name = units[k].name;
	return units[k].ns;
}

static void write_axis(FILE *f, int left, int y, uint64_t horizon, double scale)
{
	const char *unit;
	uint64_t step = tick_step(horizon), div = axis_unit(step, &unit);

	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#666\"/>\n",
		left, left + WIDTH, y, y);
	for (uint64_t t = 0; step && t <= horizon; t += step) {
		double x = left + (double)t * scale;

		fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" stroke=\"#666\"/>"
			"<text class=\"tick\" x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%g %s</text>\n",
			x, x, y, y + 5, x, y + 17, (double)t / (double)div, unit);
		if (horizon - t < step)
			break;
	}
}

enum { PART_SLICES, PART_MARKS };

/* The marks the chart draws: a line across the row or a tick. */
static const char *const mark_kinds[] = { "miss", "throttle", "boost", "release", "deadline" };

struct svg_mark {
	int cpu;
	unsigned int kind; /* in mark_kinds */
	uint64_t t;
};

static void svg_slice(struct sim_sink *k, const struct sim *s, const struct slice *sl)
{
	(void)s;
	fwrite(sl, sizeof(*sl), 1, k->part[PART_SLICES]);
}

static void svg_mark(struct sim_sink *k, const struct sim *s, const struct mark *m)
{
	(void)s;
	if (m->cpu < 0)
		return;
	for (unsigned int i = 0; i < sizeof(mark_kinds) / sizeof(mark_kinds[0]); i++)
		if (!strcmp(m->what, mark_kinds[i])) {
			struct svg_mark r = { m->cpu, i, m->t };

			fwrite(&r, sizeof(r), 1, k->part[PART_MARKS]);
			return;
		}
}

/* The band colour of server @id (struct slice::server; 0: the fair server). */
static const char *server_color(int id)
{
	static const char *const pal[] = { "#1b1b6b", "#6b1b1b", "#1b5b1b", "#6b5b1b",
					   "#5b1b6b", "#1b5b6b" };

	return id ? pal[(id - 1) % 6] : "#333";
}

static int write_slices(struct sim_sink *k, struct sim *s, FILE *f, int left, double scale)
{
	char e[ESC_SIZE], e2[ESC_SIZE], col[8];
	struct slice sl;
	int err, rc;

	if ((err = out_part_rewind(k, PART_SLICES)))
		return err;
	while ((rc = out_part_read(k, PART_SLICES, &sl, sizeof(sl))) > 0) {
		double x = left + (double)sl.start * scale;
		double wd = (double)(sl.end - sl.start) * scale;

		fprintf(f, "<rect class=\"run\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"24\" "
			"fill=\"%s\"><title>%s</title></rect>\n", x, TOP + sl.cpu * ROW + 6,
			wd < 0.2 ? 0.2 : wd, task_color(col, sl.thread, s->nr_threads),
			out_esc(e, sizeof(e), s->threads[sl.thread]->name, true));
		/* inside a server: a band along its foot, dark for the CPU's
		 * fair server, the server's colour for one of "servers" */
		if (sl.server >= 0)
			fprintf(f, "<rect class=\"server\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
				"height=\"5\" fill=\"%s\"><title>%s inside %s%s</title></rect>\n", x,
				TOP + sl.cpu * ROW + 25, wd < 0.2 ? 0.2 : wd, server_color(sl.server),
				out_esc(e, sizeof(e), s->threads[sl.thread]->name, true),
				sl.server ? "server " : "the fair server",
				sl.server ? out_esc(e2, sizeof(e2), s->w->servers[sl.server - 1].name,
						    true) : "");
	}
	return rc < 0 ? EIO : 0;
}

static int write_marks(struct sim_sink *k, FILE *f, int left, double scale, uint64_t horizon)
{
	struct svg_mark m;
	int err, rc;

	if ((err = out_part_rewind(k, PART_MARKS)))
		return err;
	while ((rc = out_part_read(k, PART_MARKS, &m, sizeof(m))) > 0) {
		const char *what = mark_kinds[m.kind];
		const char *c = m.kind == 0 ? MISS_COLOR : m.kind == 1 ? "black" : "purple";
		double x = left + (double)m.t * scale;

		if (m.t > horizon)
			continue;
		if (m.kind >= 3) {
			/* a short tick above the row (release) or below it (deadline) */
			bool rel = what[0] == 'r';
			int y = TOP + m.cpu * ROW + (rel ? 0 : 30);

			fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" "
				"stroke=\"%s\"/>\n", x, x, y, y + 6, rel ? "green" : "blue");
			continue;
		}
		fprintf(f, "<line class=\"%s\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"%d\"/>\n", what, x, x,
			TOP + m.cpu * ROW + 2, TOP + m.cpu * ROW + 34, c, what[0] == 'm' ? 2 : 1);
	}
	return rc < 0 ? EIO : 0;
}

static int write_svg(struct sim_sink *k, struct sim *s, FILE *f, uint64_t horizon)
{
	int legend_rows = (s->nr_threads + s->nr_guests + 3) / 4, left = 0, err;
	int height = TOP + s->nr_cpus * ROW + AXIS + legend_rows * 18 + 8;
	double scale;
	char e[ESC_SIZE], col[8];

	/* The label column: as wide as the widest label can be, and a margin. */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		char label[48];
		double w;

		snprintf(label, sizeof(label), "CPU %d", cpu);
		w = text_width(label, FONT);
		snprintf(label, sizeof(label), "capacity %u", s->cpus[cpu].capacity);
		if (text_width(label, FONT_SMALL) > w)
			w = text_width(label, FONT_SMALL);
		if (4 + (int)w + 1 + 8 > left)
			left = 4 + (int)w + 1 + 8;
	}
	scale = horizon ? (double)WIDTH / (double)horizon : 0;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"%d\">\n", left + WIDTH + 30, height, FONT);
	fprintf(f, "<text x=\"%d\" y=\"16\">dlsim: %.3f s on %d CPUs (red: miss, "
		"black: throttle, purple: boost, green tick: release, blue tick: deadline, "
		"hatched: offline%s%s)</text>\n", 4, (double)horizon / 1e9, s->nr_cpus,
		s->fsrv ? ", dark foot: inside the fair server" : "",
		s->nr_guests ? ", coloured foot: inside a server" : "");
	fprintf(f, "<defs><pattern id=\"offline\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#eee\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" "
		"stroke-width=\"2\"/></pattern></defs>\n");
	for (size_t i = 0; i < s->nr_spans; i++) {
		const struct span *sp = &s->spans[i];

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"32\" "
			"fill=\"url(#offline)\"><title>CPU %d offline</title></rect>\n",
			left + (double)sp->start * scale, TOP + sp->cpu * ROW + 2,
			(double)(sp->end - sp->start) * scale, sp->cpu);
	}
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		fprintf(f, "<text class=\"cpu\" x=\"4\" y=\"%d\">CPU %d</text>"
			"<text class=\"cpu\" x=\"4\" y=\"%d\" font-size=\"%d\" fill=\"#555\">"
			"capacity %u</text>\n"
			"<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n",
			TOP + cpu * ROW + 16, cpu, TOP + cpu * ROW + 28, FONT_SMALL,
			s->cpus[cpu].capacity, left, left + WIDTH, TOP + cpu * ROW + 30,
			TOP + cpu * ROW + 30);
	if ((err = write_slices(k, s, f, left, scale)) ||
	    (err = write_marks(k, f, left, scale, horizon)))
		return err;
	write_axis(f, left, TOP + s->nr_cpus * ROW, horizon, scale);
	for (int i = 0; i < s->nr_threads; i++) {
		int lx = left + (i % 4) * 250;
		int ly = TOP + s->nr_cpus * ROW + AXIS + 12 + (i / 4) * 18;

		fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 10,
			task_color(col, i, s->nr_threads), lx + 16, ly,
			out_esc(e, sizeof(e), s->threads[i]->name, true));
	}
	for (int i = 0; i < s->nr_guests; i++) {
		int lx = left + ((s->nr_threads + i) % 4) * 250;
		int ly = TOP + s->nr_cpus * ROW + AXIS + 12 + ((s->nr_threads + i) / 4) * 18;

		fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"12\" height=\"5\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"%d\">server %s</text>\n", lx, ly - 5,
			server_color(i + 1), lx + 16, ly,
			out_esc(e, sizeof(e), s->w->servers[i].name, true));
	}
	fprintf(f, "</svg>\n");
	return 0;
}

const struct sim_writer sim_svg_writer = {
	.timeline = true,
	.nr_parts = 2,
	.on_slice = svg_slice,
	.on_mark = svg_mark,
	.finish = write_svg,
};
