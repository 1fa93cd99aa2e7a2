#!/bin/sh
# Write the config.h of a build without CMake (the freestanding checks):
# include/dlsched/config.h.in with every @VARIABLE@ given its value for a
# bare-metal core: version 0.0.0, the portable math128 backend, no POSIX
# platform. A variable this script does not know fails it, by name, so a
# new one cannot reach a header unsubstituted.
#   tools/freestanding-config.sh OUT_DIR   writes OUT_DIR/dlsched/config.h
set -eu
out=$1/dlsched
mkdir -p "$out"
sed -e 's/@PROJECT_VERSION_MAJOR@/0/' -e 's/@PROJECT_VERSION_MINOR@/0/' \
    -e 's/@PROJECT_VERSION_PATCH@/0/' -e 's/@DLS_MATH128_BACKEND_NUM@/0/' \
    -e 's/@DLSCHED_HAVE_POSIX_NUM@/0/' \
    include/dlsched/config.h.in >"$out/config.h"
if grep -n '@[A-Za-z0-9_]*@' "$out/config.h" >&2; then
	echo "freestanding-config: include/dlsched/config.h.in has a variable this script does not set (above)" >&2
	exit 1
fi
