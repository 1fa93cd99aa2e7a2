/*
 * Where dlsim finds its bundled examples: relative to its own executable,
 * never a path fixed at build time, so an installed or moved tree works.
 */
#ifndef DLSIM_DATADIR_H
#define DLSIM_DATADIR_H

#include <stddef.h>

/* The path of the bundled mobile.json in buf, or NULL when none is found.
 * Looks in <exe dir>/../share/dlsched/examples/dlsim (installed) and
 * <exe dir>/share/dlsched/examples/dlsim (the build tree's copy); the
 * executable is /proc/self/exe, else argv0 when it names a path. */
const char *dlsim_default_example(const char *argv0, char *buf, size_t size);

#endif
