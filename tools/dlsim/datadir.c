#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXAMPLE "share/dlsched/examples/dlsim/mobile.json"

/* The directory of the running executable into dir, or -1. */
static int exe_dir(const char *argv0, char *dir, size_t size)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n > 0) {
		path[n] = 0;
	} else if (argv0 && strchr(argv0, '/') && realpath(argv0, path)) {
		/* no /proc: argv[0] as the shell found it */
	} else {
		return -1;
	}
	slash = strrchr(path, '/');
	if (!slash)
		return -1;
	*slash = 0;
	if ((size_t)snprintf(dir, size, "%s", path) >= size)
		return -1;
	return 0;
}

const char *dlsim_default_example(const char *argv0, char *buf, size_t size)
{
	static const char *const rel[] = { "/../" EXAMPLE, "/" EXAMPLE };
	char dir[PATH_MAX];

	if (exe_dir(argv0, dir, sizeof(dir)))
		return NULL;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		int n = snprintf(buf, size, "%s%s", dir, rel[i]);

		if (n > 0 && (size_t)n < size && access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}
