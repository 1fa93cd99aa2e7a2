/*
 * Helpers dlsim's output writers share: escaping, the p99, energy, and the
 * sections a writer fills during the run.
 */
#include "output.h"

#include <errno.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t out_p99(struct thread *t)
{
	if (!t->nr_resp)
		return 0;
	qsort(t->resp, t->nr_resp, sizeof(*t->resp), cmp_u64);
	return t->resp[(t->nr_resp * 99 + 99) / 100 - 1];
}

double out_energy_mj(const struct sim *s, int cpu, uint64_t horizon)
{
	const struct wl_cpu *wc = &s->w->cpus[cpu];
	uint64_t busy = s->cpus[cpu].busy_ns;
	uint64_t idle = horizon - busy - s->cpus[cpu].offline_ns; /* offline: no power */

	return (wc->power_busy_mw * (double)busy + wc->power_idle_mw * (double)idle) / 1e9;
}

/*
 * Thread names come from the workload's keys: escape them for JSON (quote,
 * backslash, control characters) or XML (markup characters). @buf holds at
 * least 6 bytes per input byte plus one.
 */
const char *out_esc(char *buf, size_t size, const char *str, bool xml)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)str; *p && n + 7 < size; p++) {
		if (xml && (*p == '<' || *p == '>' || *p == '&' || *p == '"'))
			n += (size_t)snprintf(buf + n, size - n, "&#%u;", *p);
		else if (!xml && (*p == '"' || *p == '\\'))
			n += (size_t)snprintf(buf + n, size - n, "\\%c", *p);
		else if (*p < 0x20)
			n += xml ? (size_t)snprintf(buf + n, size - n, "?") /* not in XML 1.0 */
				 : (size_t)snprintf(buf + n, size - n, "\\u%04x", *p);
		else
			buf[n++] = (char)*p;
	}
	buf[n] = 0;
	return buf;
}

const char *out_csv_name(char *buf, size_t size, const char *str)
{
	size_t n = 0;

	for (; *str && n + 3 < size; str++) {
		if (*str == '"')
			buf[n++] = '"';
		buf[n++] = *str;
	}
	buf[n] = 0;
	return buf;
}

int64_t out_lateness(const struct job_rec *j)
{
	return (int64_t)(j->end - j->deadline);
}

const char *out_cpu_list(char *buf, size_t size, const struct wl_cpuset *cpus,
			 const char *sep)
{
	size_t n = 0;
	int cpu;

	buf[0] = 0;
	wl_cpuset_for_each(cpu, cpus) {
		int len = snprintf(buf + n, size - n, "%s%d", n ? sep : "", cpu);

		if (len < 0 || (size_t)len >= size - n) {
			buf[n] = 0; /* a buffer smaller than OUT_CPU_LIST_SIZE */
			break;
		}
		n += (size_t)len;
	}
	return buf;
}

int out_part_copy(struct sim_sink *k, unsigned int part, FILE *f)
{
	FILE *p = k->part[part];
	char buf[65536];
	size_t n;
	int err;

	if ((err = out_part_rewind(k, part)))
		return err;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			return errno ? errno : EIO;
	return ferror(p) ? EIO : 0;
}

int out_part_rewind(struct sim_sink *k, unsigned int part)
{
	FILE *p = k->part[part];

	/* a write that failed during the run (a full disk) shows here */
	if (fflush(p) || ferror(p))
		return errno ? errno : EIO;
	if (fseek(p, 0, SEEK_SET))
		return errno ? errno : EIO;
	return 0;
}

int out_part_read(struct sim_sink *k, unsigned int part, void *rec, size_t size)
{
	FILE *p = k->part[part];

	if (fread(rec, size, 1, p) == 1)
		return 1;
	return ferror(p) ? -1 : 0;
}
