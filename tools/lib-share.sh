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
# Input sections follow "Linker script and memory map"; a long section
# name puts its address, size and file on the next line.
awk '
function hex(s,   i, v) {
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v
}
/^Linker script and memory map/ { on = 1; next }
!on { next }
/^ \.(text|rodata|data|bss|eh_frame)/ {
	eh = $1 ~ /^\.eh_frame/
	if (NF >= 4) { f = $4; sz = $3 } else { getline; f = $3; sz = $2 }
	if (f !~ /libdlsched\.a\(/) next
	if (eh) unwind += hex(sz); else total += hex(sz)
}
END { printf "%d %d", total, unwind }' "$out/map"
echo " $(basename "$src" .c)"
