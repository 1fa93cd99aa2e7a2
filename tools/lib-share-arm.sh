#!/bin/sh
# The library's share of a bare-metal one-CPU program on Cortex-M4: compile
# the core (as tools/check-freestanding.sh does, without assertions) with
# the given optimisation flags, link tools/size/one_cpu_bare.c against it
# with --gc-sections and no C library, and add up, from the linker map, the
# .text, .rodata, .data and .bss that came from the library.
#
# usage: tools/lib-share-arm.sh [BUILD_DIR] -- CFLAGS...
#   tools/lib-share-arm.sh build -- -O2
#   tools/lib-share-arm.sh build -- -Os -ffunction-sections -fdata-sections
# prints: <bytes>
set -eu
build=build
if [ "${1:-}" != "--" ]; then
	build=$1
	shift
fi
[ "${1:-}" = "--" ] && shift
cc=arm-none-eabi-gcc
out="$build/freestanding-size"
rm -rf "$out"
sh "$(dirname "$0")/freestanding-config.sh" "$out/include"
flags="-mcpu=cortex-m4 -mthumb -std=c11 -ffreestanding -nostdlib -Wall -Wextra -Werror $*"
for s in src/*.c src/math128/*.c src/edf/*.c src/cbs/*.c src/pi/*.c; do
	$cc $flags -DDLSCHED_FREESTANDING -Iinclude -I"$out/include" -Isrc \
	    -c "$s" -o "$out/$(echo "$s" | tr / _).o"
done
arm-none-eabi-ar rcs "$out/libdlsched.a" "$out"/*.o
$cc $flags -Iinclude -I"$out/include" tools/size/one_cpu_bare.c "$out/libdlsched.a" \
    -lgcc -Wl,--gc-sections -Wl,-e,_start -Wl,-Map="$out/map" -o "$out/one_cpu_bare"
awk -f "$(dirname "$0")/lib-share.awk" "$out/map" | cut -d" " -f1
