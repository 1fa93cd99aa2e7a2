#!/bin/sh
# Compile the scheduler core (everything outside src/platform/) for a
# Cortex-M target with -ffreestanding and no libc, and link it into a static
# archive: proof that the core needs only stdint/stddef/stdbool.
set -eu
build=${1:-build}
out="$build/freestanding"
cc=arm-none-eabi-gcc
rm -rf "$out"
sh tools/freestanding-config.sh "$out/include"

srcs=$(ls src/*.c src/math128/*.c src/edf/*.c src/cbs/*.c src/pi/*.c 2>/dev/null || true)
objs=""
for s in $srcs; do
	o="$out/$(echo "$s" | tr / _).o"
	$cc -mcpu=cortex-m4 -mthumb -std=c11 -ffreestanding -nostdlib -nostdinc \
	    -isystem "$($cc -print-file-name=include)" \
	    -Wall -Wextra -Werror -O2 -DDLSCHED_FREESTANDING \
	    -DDLSCHED_ENABLE_ASSERT=1 \
	    -Iinclude -I"$out/include" -Isrc -c "$s" -o "$o"
	objs="$objs $o"
done
# The umbrella header, and each public header alone, in a freestanding
# translation unit (the POSIX headers stay out: DLSCHED_HAVE_POSIX is 0).
for h in dlsched.h $(cd include/dlsched && ls *.h | grep -v -e '^posix' -e '^pi_posix' -e '^dlsched.h$'); do
	printf '#include <dlsched/%s>\nint dls_umbrella_probe(void);\nint dls_umbrella_probe(void) { return DLSCHED_VERSION_MAJOR; }\n' "$h" >"$out/h.c"
	$cc -mcpu=cortex-m4 -mthumb -std=c11 -ffreestanding -nostdlib -nostdinc \
	    -isystem "$($cc -print-file-name=include)" \
	    -Wall -Wextra -Werror -Wundef -Wmissing-prototypes -DDLSCHED_FREESTANDING \
	    -Iinclude -I"$out/include" -c "$out/h.c" -o "$out/h.o" || {
		echo "check-freestanding: <dlsched/$h> does not compile freestanding" >&2
		exit 1
	}
done
grep -q '^#define DLSCHED_HAVE_POSIX 0$' "$out/include/dlsched/config.h"
arm-none-eabi-ar rcs "$out/libdlsched-core.a" $objs
# Nothing but compiler-runtime helpers (libgcc) and the four functions GCC
# requires of any freestanding environment (memcpy, memmove, memset,
# memcmp) may remain undefined.
undef=$(arm-none-eabi-nm -u "$out/libdlsched-core.a" | awk 'NF==2 {print $2}' |
	sort -u | grep -v -E '^__aeabi_|^__(u)?(div|mod|mul|ashl|lshr|clz|ctz|popcount)|^mem(cpy|move|set|cmp)$' || true)
ours=$(arm-none-eabi-nm --defined-only "$out/libdlsched-core.a" | awk 'NF==3 {print $3}' | sort -u)
missing=""
for u in $undef; do
	echo "$ours" | grep -qx "$u" || missing="$missing $u"
done
if [ -n "$missing" ]; then
	echo "check-freestanding: core needs symbols outside itself:$missing" >&2
	exit 1
fi
echo "check-freestanding: $(echo "$srcs" | wc -w) core sources and the public headers, <dlsched/dlsched.h> included, compile for arm-none-eabi without libc"
