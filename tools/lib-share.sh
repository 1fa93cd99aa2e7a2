#!/bin/sh
# The library's share of a program: link PROGRAM.c against the static
# library of a CMake build directory and add up, from the linker map, the
# code and data (.text, .rodata, .data, .bss input sections) that came from
# libdlsched.a, and apart its unwind tables (.eh_frame; an RTOS build
# usually drops them with -fno-asynchronous-unwind-tables). A build configured with -DDLSCHED_MINSIZE=ON is linked with
# -Wl,--gc-sections, as its exported target asks of every program.
#
# usage: tools/lib-share.sh BUILD_DIR PROGRAM.c   (CC picks the compiler)
# prints: <code+data bytes> <.eh_frame bytes> <program>
set -eu
build=$1
src=$2
cc=${CC:-cc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gc=""
if grep -q '^DLSCHED_MINSIZE:BOOL=ON' "$build/CMakeCache.txt"; then
	gc="-Wl,--gc-sections"
fi
$cc -std=c11 -O2 -DDLSCHED_STATIC_DEFINE -Iinclude -I"$build/include" "$src" \
    "$build/libdlsched.a" -lpthread $gc -Wl,-Map="$out/map" -o "$out/prog"
awk -f "$(dirname "$0")/lib-share.awk" "$out/map"
echo " $(basename "$src" .c)"
