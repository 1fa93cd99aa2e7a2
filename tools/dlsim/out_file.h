/*
 * An output file that is either complete or absent: opened before the work
 * that fills it (so a bad path fails at once), written to a temporary file
 * beside its path and renamed over it once complete. A failed write (a
 * full disk) removes the temporary file and leaves any earlier file at the
 * path untouched. A path that is not a regular file (a device such as
 * /dev/null or /dev/stdout, a FIFO) is written in place.
 */
#ifndef DLSIM_OUT_FILE_H
#define DLSIM_OUT_FILE_H

#include <stdio.h>

struct out_file {
	const char *path; /* as the user gave it, for messages */
	char *target;     /* what the rename replaces (a symlink's target) */
	char *tmp;        /* the temporary file; NULL when written in place */
	FILE *f;          /* NULL when closed */
};

/* Open @path for writing; 0, or -1 with "prog: cannot open path: reason"
 * on stderr and nothing left behind. */
int out_file_open(struct out_file *o, const char *prog, const char *path);

/* Close @o and put it in place; 0, or -1 with "prog: cannot write path:
 * reason" on stderr, the temporary file removed. */
int out_file_commit(struct out_file *o, const char *prog);

/* Close @o, if open, and remove its temporary file: nothing is written. */
void out_file_discard(struct out_file *o);

/* A scratch file for what an output writes before its end (read and
 * written, removed when closed): in $TMPDIR, else where tmpfile() puts
 * it. NULL with errno set when none can be created. */
FILE *out_file_scratch(void);

#endif
