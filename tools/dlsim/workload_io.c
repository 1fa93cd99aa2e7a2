/*
 * Reading workload files: the size bound, the command line's loading and
 * its messages, --platform's file, and the normalized dump (--dump).
 */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads at most WL_MAX_FILE_SIZE bytes: a regular file is measured before
 * it is read, anything else (a pipe, /dev/zero) is cut off at the bound. */
static char *read_bounded(int fd, size_t *lenp, int *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (fstat(fd, &st)) {
		*err = errno;
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		*err = EISDIR;
		return NULL;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)WL_MAX_FILE_SIZE) {
		*err = EFBIG;
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			/* One byte past the bound tells a file over it. */
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb;

			if (ncap > (size_t)WL_MAX_FILE_SIZE + 1)
				ncap = (size_t)WL_MAX_FILE_SIZE + 1;
			nb = realloc(buf, ncap);
			if (!nb) {
				*err = ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err = errno;
			break;
		}
		if (n == 0) {
			*lenp = len;
			return buf;
		}
		len += (size_t)n;
		if (len > WL_MAX_FILE_SIZE) {
			*err = EFBIG;
			break;
		}
	}
	free(buf);
	return NULL;
}

static int load_file(struct workload *w, const char *fname, bool strict,
		     const struct wl_load_options *o);

int workload_load_file(struct workload *w, const char *fname, bool strict)
{
	return load_file(w, fname, strict, NULL);
}

int workload_load_file_opts(struct workload *w, const char *fname, bool strict,
			    const struct wl_load_options *o)
{
	return load_file(w, fname, strict, o);
}

static int load_file(struct workload *w, const char *fname, bool strict,
		     const struct wl_load_options *o)
{
	int fd = open(fname, O_RDONLY), err = 0;
	char *buf;
	size_t len = 0;
	int ret;

	if (fd < 0) {
		err = errno;
		buf = NULL;
	} else {
		buf = read_bounded(fd, &len, &err);
		close(fd);
	}
	if (!buf) {
		memset(w, 0, sizeof(*w));
		w->load_errno = err ? err : EIO;
		return -2;
	}
	ret = workload_load_opts(w, fname, buf, len, strict, o);
	free(buf); /* the model keeps no pointer into the raw text */
	return ret;
}

const char *workload_load_error(const struct workload *w)
{
	if (w->load_errno == EFBIG)
		return "larger than 64 MiB, the limit for workload files";
	if (w->load_errno == EISDIR)
		return "is a directory";
	return strerror(w->load_errno);
}

int workload_load_cli(struct workload *w, const char *prog, const char *fname, bool strict)
{
	return workload_load_cli_opts(w, prog, fname, strict, NULL);
}

int workload_load_cli_opts(struct workload *w, const char *prog, const char *fname,
			   bool strict, const struct wl_load_options *o)
{
	int rc = load_file(w, fname, strict, o);

	if (rc == -2) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, fname, workload_load_error(w));
		return 66;
	}
	workload_print_diags(w, stderr);
	if (rc) {
		fprintf(stderr, "%s: %u error(s) in %s\n", prog, w->errors, fname);
		workload_free(w);
		return 65;
	}
	return 0;
}

void workload_print_diags(const struct workload *w, FILE *out)
{
	for (size_t i = 0; i < w->nr_diags; i++)
		fprintf(out, "%s\n", w->diags[i]);
}

/* A set of CPUs as one hexadecimal number, CPU 0 its lowest bit (nothing
 * when it is empty). */
static void dump_cpus(FILE *out, const struct wl_cpuset *cpus)
{
	int top = WL_CPUSET_WORDS - 1;

	if (wl_cpuset_empty(cpus))
		return;
	while (top > 0 && !cpus->w[top])
		top--;
	fprintf(out, " cpus 0x%llx", (unsigned long long)cpus->w[top]);
	while (top-- > 0)
		fprintf(out, "%016llx", (unsigned long long)cpus->w[top]);
}

/* A server: its reservation per vCPU, host CPUs, the tasks it runs. */
static void dump_server(FILE *out, const struct workload *w, const struct wl_server *s)
{
	fprintf(out, "server %s: %llu/%llu/%llu us per vCPU,", s->name,
		(unsigned long long)s->runtime_us, (unsigned long long)s->deadline_us,
		(unsigned long long)s->period_us);
	dump_cpus(out, &s->cpus);
	fprintf(out, ", tasks");
	for (size_t k = 0; k < s->nr_tasks; k++)
		fprintf(out, " %s", w->tasks[s->tasks[k]].name);
	fprintf(out, "\n");
}

void workload_dump(const struct workload *w, FILE *out)
{
	fprintf(out, "platform: %d cpus, capacity", w->nr_cpus);
	for (int i = 0; i < w->nr_cpus; i++)
		fprintf(out, " %u", w->cpus[i].capacity);
	fprintf(out, "\n");
	for (int i = 0; i < w->nr_cpus; i++)
		if (w->cpus[i].cluster)
			fprintf(out, "cpu %d: cluster %s, power busy %g mW idle %g mW\n", i,
				w->cpus[i].cluster, w->cpus[i].power_busy_mw,
				w->cpus[i].power_idle_mw);
	fprintf(out, "duration: %lld s, default policy %s\n", (long long)w->duration_s,
		wl_policy_name(w->default_policy));
	fprintf(out, "simulation: horizon %lld us, seed %llu, mode %s\n",
		(long long)w->horizon_us, (unsigned long long)w->seed,
		w->mode == WL_MODE_GLOBAL ? "global" :
		w->mode == WL_MODE_PARTITIONED ? "partitioned" : "clustered");
	if (w->affinity_library)
		fprintf(out, "simulation: affinity library (deadline tasks may be pinned)\n");
	for (size_t i = 0; i < w->nr_hotplug; i++)
		fprintf(out, "hotplug: cpu %d %s at %lld us\n", w->hotplug[i].cpu,
			w->hotplug[i].online ? "online" : "offline",
			(long long)w->hotplug[i].at_us);
	for (size_t i = 0; i < w->nr_servers; i++)
		dump_server(out, w, &w->servers[i]);
	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		fprintf(out, "task %s: instance %lld loop %lld delay %lld us policy %s prio %d",
			t->name, (long long)t->instance, (long long)t->loop,
			(long long)t->delay_us, wl_policy_name(t->sched.policy), t->sched.prio);
		if (t->sched.policy == WL_DEADLINE)
			fprintf(out, " dl %llu/%llu/%llu us%s",
				(unsigned long long)t->sched.dl_runtime_us,
				(unsigned long long)t->sched.dl_deadline_us,
				(unsigned long long)t->sched.dl_period_us,
				t->sched.dl_reclaim ? " reclaim" :
				t->sched.dl_soft > 0 ||
				(t->sched.dl_soft == 0 && w->soft_reservations) ? " soft" : "");
		if (t->job_deadline_us)
			fprintf(out, " job-deadline %lld us", (long long)t->job_deadline_us);
		dump_cpus(out, &t->cpus);
		fprintf(out, "\n");
		for (size_t p = 0; p < t->nr_phases; p++) {
			const struct wl_phase *ph = &t->phases[p];

			fprintf(out, "  phase %s loop %lld", ph->name, (long long)ph->loop);
			dump_cpus(out, &ph->cpus);
			if (ph->sched.set) {
				fprintf(out, " policy %s prio %d", wl_policy_name(ph->sched.policy),
					ph->sched.prio);
				if (ph->sched.policy == WL_DEADLINE)
					fprintf(out, " dl %llu/%llu/%llu us",
						(unsigned long long)ph->sched.dl_runtime_us,
						(unsigned long long)ph->sched.dl_deadline_us,
						(unsigned long long)ph->sched.dl_period_us);
			} else if (wl_phase_sets(ph)) {
				/* no policy: the thread's, when the phase starts */
				fprintf(out, " policy (the thread's)");
				if (ph->sched.prio_given)
					fprintf(out, " prio %d", ph->sched.prio);
				if (ph->sched.dl_runtime_us || ph->sched.dl_deadline_us ||
				    ph->sched.dl_period_us)
					fprintf(out, " dl %llu/%llu/%llu us (0: defaulted)",
						(unsigned long long)ph->sched.dl_runtime_us,
						(unsigned long long)ph->sched.dl_deadline_us,
						(unsigned long long)ph->sched.dl_period_us);
			}
			fprintf(out, ":");
			for (size_t e = 0; e < ph->nr_events; e++) {
				const struct wl_event *ev = &ph->events[e];

				fprintf(out, " %s", wl_event_name(ev->type));
				if (ev->ref)
					fprintf(out, "(%s%s%s)", ev->ref, ev->mutex ? "," : "",
						ev->mutex ? ev->mutex : "");
				if (ev->us_max)
					fprintf(out, "=%lld..%lld", (long long)ev->us,
						(long long)ev->us_max);
				else if (ev->nr_choices)
					for (size_t k = 0; k < ev->nr_choices; k++)
						fprintf(out, "%s%lld", k ? "|" : "=",
							(long long)ev->choices[k]);
				else if (ev->type == WL_MEM || ev->type == WL_IORUN)
					fprintf(out, "=%lldB", (long long)ev->bytes);
				else if (ev->type == WL_TIMER || ev->us)
					fprintf(out, "=%lld", (long long)ev->us);
				if (ev->type == WL_TIMER && ev->absolute)
					fprintf(out, "(absolute)");
			}
			fprintf(out, "\n");
		}
	}
}

int workload_read_platform(struct json_doc *doc, const char *prog, const char *fname,
			   const struct json_value **platform)
{
	int fd = open(fname, O_RDONLY), err = 0;
	size_t len = 0;
	char *buf = NULL;
	int rc;

	memset(doc, 0, sizeof(*doc));
	if (fd >= 0) {
		buf = read_bounded(fd, &len, &err);
		close(fd);
	} else {
		err = errno;
	}
	if (!buf) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, fname, strerror(err ? err : EIO));
		return 66;
	}
	rc = json_parse(doc, fname, buf, len);
	free(buf);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, doc->error);
		json_free(doc);
		return 65;
	}
	*platform = NULL;
	for (size_t i = 0; doc->root->type == JSON_OBJECT && i < doc->root->len; i++)
		if (!strcmp(doc->root->members[i].key, "platform") &&
		    doc->root->members[i].value->type == JSON_OBJECT)
			*platform = doc->root->members[i].value;
	if (!*platform) {
		fprintf(stderr, "%s: %s has no \"platform\" object\n", prog, fname);
		json_free(doc);
		return 65;
	}
	return 0;
}
