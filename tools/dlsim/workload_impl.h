/*
 * The workload reader's private header: the reading context, the helpers
 * of workload_keys.c, and the sections of workload_sections.c (global,
 * platform, simulation) and workload_servers.c (servers) that workload.c
 * (tasks, phases, events) reads.
 */
#ifndef DLSIM_WORKLOAD_IMPL_H
#define DLSIM_WORKLOAD_IMPL_H

#include "workload.h"

struct ctx {
	struct workload *w;
	const char *fname;
	bool strict;
	const char *task;     /* the task being read, for workgen's bare entries */
};

/* workload_keys.c */
void dlsim_diag(struct ctx *c, bool error, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
#define VDIAG(c, err, v, ...) dlsim_diag((c), (err), (v)->line, (v)->col, __VA_ARGS__)
void *wl_alloc(struct ctx *c, size_t n);
bool dlsim_bare_key(struct ctx *c, const struct json_member *m);
bool dlsim_want_type(struct ctx *c, const struct json_member *m, enum json_type t);
bool dlsim_get_int(struct ctx *c, const struct json_member *m, int64_t min, int64_t max,
	     int64_t *out);
bool dlsim_parse_policy(struct ctx *c, const struct json_member *m, enum wl_policy *out);
bool dlsim_parse_cpus(struct ctx *c, const struct json_member *m, struct wl_cpuset *mask);

/* workload_sections.c */
void dlsim_parse_global(struct ctx *c, const struct json_value *g);
void dlsim_parse_platform(struct ctx *c, const struct json_value *p);
void dlsim_parse_simulation(struct ctx *c, const struct json_value *s);

/* workload_servers.c: after the tasks and the platform's CPU count are
 * known. */
void dlsim_parse_servers(struct ctx *c, const struct json_member *m);

#endif
