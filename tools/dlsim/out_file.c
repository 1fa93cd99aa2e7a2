/*
 * Output files that are complete or absent (out_file.h). The temporary file
 * is created beside the target, in the same directory and so on the same
 * file system, because rename() replaces a file atomically only there. It
 * is created with mode 0666 less the umask, as fopen() would create the
 * file, or with the mode of the file it replaces.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* realpath() */
#endif

#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh file ".NAME.PID-K" beside @target: its descriptor, or -1. */
static int create_beside(struct out_file *o)
{
	const char *slash = strrchr(o->target, '/');
	size_t dir = slash ? (size_t)(slash - o->target) + 1 : 0;
	size_t size = strlen(o->target) + 48;

	o->tmp = malloc(size);
	if (!o->tmp)
		return -1;
	for (unsigned int k = 0; k < 1000; k++) {
		int fd;

		snprintf(o->tmp, size, "%.*s.%s.%ld-%u", (int)dir, o->target, o->target + dir,
			 (long)getpid(), k);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int out_file_open(struct out_file *o, const char *prog, const char *path)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	int fd = -1, err;

	memset(o, 0, sizeof(*o));
	o->path = path;
	errno = 0;
	if (!*path) {
		err = ENOENT; /* as fopen("") */
		goto fail;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device or a FIFO: there is nothing to replace */
		o->f = fopen(path, "w");
		if (o->f)
			return 0;
		err = errno;
		goto fail;
	}
	/* A symbolic link stays one: the file it names is replaced. */
	o->target = exists ? realpath(path, NULL) : strdup(path);
	if (!o->target) {
		err = errno;
		goto fail;
	}
	fd = create_beside(o);
	if (fd < 0 || (exists && fchmod(fd, st.st_mode & 07777)) ||
	    !(o->f = fdopen(fd, "w"))) {
		err = errno ? errno : EIO;
		if (fd >= 0) {
			close(fd);
			remove(o->tmp);
		}
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "%s: cannot open %s: %s\n", prog, path, strerror(err));
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
	return -1;
}

int out_file_commit(struct out_file *o, const char *prog)
{
	int err = 0;

	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		err = errno ? errno : EIO;
	if (fclose(o->f) && !err)
		err = errno ? errno : EIO;
	o->f = NULL;
	if (!err && o->tmp && rename(o->tmp, o->target))
		err = errno;
	if (err) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, o->path, strerror(err));
		if (o->tmp)
			remove(o->tmp);
	}
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return err ? -1 : 0;
}

void out_file_discard(struct out_file *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		remove(o->tmp);
	free(o->tmp);
	free(o->target);
	o->f = NULL;
	o->tmp = o->target = NULL;
}

FILE *out_file_scratch(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	if (!dir || !*dir)
		return tmpfile();
	if ((size_t)snprintf(path, sizeof(path), "%s/dlsim-XXXXXX", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path); /* gone once closed, whatever happens */
	f = fdopen(fd, "w+");
	if (!f) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return f;
}
