#!/bin/sh
# Install what libdlsched needs on a Debian/Ubuntu machine, then prove it.
#   tools/install-deps.sh          build + test dependencies
#   tools/install-deps.sh --cross  also the cross compilers, their C
#                                  libraries and qemu-user
#   tools/install-deps.sh --fuzz   also clang's libFuzzer runtime
#   tools/install-deps.sh --qemu   also the bare-metal ARM toolchain, newlib
#                                  and qemu-system-arm (ports/cortex-m)
#   tools/install-deps.sh --mpi    also Open MPI (dlsim-mpi, make check-mpi)
#   tools/install-deps.sh --verify prove the base set only, install nothing
# As root it runs apt-get; otherwise it prints the one command to run.
#
# Every package is named: apt-get runs with --no-install-recommends, so
# nothing that a package only recommends (the cross compilers recommend
# their C libraries, gcc-arm-none-eabi recommends newlib) arrives by luck.
# After installing, every toolchain compiles and links a one-line program
# (and the cross ones run it under qemu); a failure names the package that
# should have provided the missing piece.
set -eu

mode=${1:-}
case "$mode" in
"" | --cross | --fuzz | --qemu | --mpi | --verify) ;;
*) echo "install-deps: unknown option '$mode' (--cross, --fuzz, --qemu, --mpi or --verify)" >&2; exit 64 ;;
esac

# The test build, the clang build, sanitizers (gcc's runtimes come with
# libgcc-*-dev, a dependency of gcc), Doxygen, callgrind, the libbsd tree
# the benchmarks compare against, pkg-config for the install check, GNU
# time for make check-memory's peak resident set.
PKGS="cmake make gcc libc6-dev clang libcunit1-dev libatomic-ops-dev doxygen libbsd-dev pkg-config valgrind time"
CROSS="gcc-i686-linux-gnu libc6-dev-i386-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross gcc-arm-none-eabi binutils-arm-none-eabi qemu-user"
FUZZ="libclang-rt-dev"
# The Cortex-M3 port (make check-qemu): the compiler, its binutils, newlib
# (memcpy, memset; rdimon for the proof below) and the system emulator of
# the mps2-an385 board.
QEMU="gcc-arm-none-eabi binutils-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm"
# Open MPI: mpicc and mpirun (openmpi-bin), the headers and libraries
# (libopenmpi-dev); the build finds them with find_package(MPI).
MPI="openmpi-bin libopenmpi-dev"
case "$mode" in
--cross) PKGS="$PKGS $CROSS" ;;
--fuzz) PKGS="$PKGS $FUZZ" ;;
--qemu) PKGS="$PKGS $QEMU" ;;
--mpi) PKGS="$PKGS $MPI" ;;
esac

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -n "$missing" ] && [ "$mode" != --verify ]; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "install-deps: installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		"$(dirname "$0")/apt-update.sh" install-deps
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing
	else
		echo "install-deps: missing packages:$missing"
		echo "run: sudo apt-get install -y --no-install-recommends$missing"
		exit 1
	fi
fi

# --- proof: every toolchain builds a one-liner ------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dls-deps.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0

fail() { # what, package(s) that provide it, log
	echo "install-deps: $1 failed; package(s) that should provide it: $2" >&2
	[ -f "$3" ] && sed 's/^/    /' "$3" | head -n 15 >&2
	failed=1
}

# link CC PACKAGES [FLAGS...]: compile and link a hosted one-liner.
link() {
	cc=$1 pk=$2
	shift 2
	printf '#include <stdio.h>\nint main(void) { return puts("ok") < 0; }\n' >"$tmp/t.c"
	"$cc" "$@" "$tmp/t.c" -o "$tmp/t" >"$tmp/log" 2>&1 ||
		fail "compile and link with '$cc $*'" "$pk" "$tmp/log"
}

# runs EMULATOR-ARGS...: the last linked program prints "ok" when run.
runs() {
	out=$("$@" "$tmp/t" 2>"$tmp/log") && [ "$out" = ok ] ||
		fail "running a linked program with '$*'" "$pk" "$tmp/log"
}

link gcc "gcc libc6-dev"
runs env
link gcc "gcc (libasan, libubsan via libgcc-*-dev)" -fsanitize=address,undefined
link gcc "gcc (libtsan via libgcc-*-dev)" -fsanitize=thread
link clang "clang libc6-dev"
printf '#include <CUnit/Basic.h>\n#include <atomic_ops.h>\n#include <bsd/sys/tree.h>\nint main(void) { AO_t x = 0; AO_fetch_and_add1(&x); return CU_initialize_registry() != CUE_SUCCESS; }\n' >"$tmp/l.c"
gcc "$tmp/l.c" -o "$tmp/l" -lcunit >"$tmp/log" 2>&1 ||
	fail "linking CUnit, libatomic_ops and libbsd headers" "libcunit1-dev libatomic-ops-dev libbsd-dev" "$tmp/log"
for tool in cmake make doxygen pkg-config valgrind; do
	command -v "$tool" >/dev/null 2>&1 || fail "finding '$tool'" "$tool" /dev/null
done
# (the shell's own "time" keyword has no -f: the program is named by path)
/usr/bin/time -f %M -o "$tmp/rss" true >"$tmp/log" 2>&1 && [ "$(cat "$tmp/rss")" -gt 0 ] ||
	fail "measuring a peak resident set with '/usr/bin/time -f %M'" time "$tmp/log"

if [ "$mode" = --cross ]; then
	link i686-linux-gnu-gcc "gcc-i686-linux-gnu libc6-dev-i386-cross" -static
	runs qemu-i386
	link aarch64-linux-gnu-gcc "gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
	runs qemu-aarch64 -L /usr/aarch64-linux-gnu
	link arm-linux-gnueabihf-gcc "gcc-arm-linux-gnueabihf libc6-dev-armhf-cross"
	runs qemu-arm -L /usr/arm-linux-gnueabihf
	# Bare metal: no C library, an entry point of our own, libgcc linked
	# (the core's 64-bit division comes from it).
	printf 'unsigned long long d(unsigned long long a, unsigned long long b) { return a / b; }\nvoid _start(void) { for (;;) (void)d(7, 3); }\n' >"$tmp/m.c"
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -ffreestanding -nostdlib \
		"$tmp/m.c" -o "$tmp/m.elf" -lgcc >"$tmp/log" 2>&1 ||
		fail "bare-metal link with arm-none-eabi-gcc" "gcc-arm-none-eabi binutils-arm-none-eabi" "$tmp/log"
fi

if [ "$mode" = --fuzz ]; then
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$tmp/f.c"
	clang -fsanitize=fuzzer,address,undefined "$tmp/f.c" -o "$tmp/f" >"$tmp/log" 2>&1 ||
		fail "linking a libFuzzer target with clang" "libclang-rt-dev (clang's runtime)" "$tmp/log"
fi

if [ "$mode" = --qemu ]; then
	# A Cortex-M3 program on newlib with semihosting (rdimon): a vector
	# table of two words at 0 (initial stack, reset = newlib's _start),
	# booted on QEMU's mps2-an385; it prints through semihosting and its
	# exit status, 3, must come back as QEMU's own.
	printf '#include <stdio.h>\nextern void _start(void);\n__attribute__((section(".vectors"), used)) static void (*const v[2])(void) = { (void (*)(void))0x20400000, _start };\nint main(void) { return puts("ok") < 0 ? 1 : 3; }\n' >"$tmp/q.c"
	arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb --specs=rdimon.specs \
		-Wl,--section-start=.vectors=0 "$tmp/q.c" -o "$tmp/q.elf" >"$tmp/log" 2>&1 ||
		fail "linking a Cortex-M3 program with newlib's rdimon" \
			"gcc-arm-none-eabi binutils-arm-none-eabi libnewlib-arm-none-eabi" "$tmp/log"
	if [ -f "$tmp/q.elf" ]; then
		st=0
		out=$(timeout 30 qemu-system-arm -M mps2-an385 -display none -monitor none \
			-serial none -semihosting-config enable=on,target=native \
			-kernel "$tmp/q.elf" 2>"$tmp/log") || st=$?
		[ "$st" = 3 ] && [ "$out" = ok ] ||
			fail "booting it on qemu-system-arm -M mps2-an385 (status $st, output '$out')" \
				"qemu-system-arm" "$tmp/log"
	fi
fi

if [ "$mode" = --mpi ]; then
	# Two ranks, each answering with its rank: mpicc compiles and links,
	# mpirun starts both (as root it needs --allow-run-as-root; on a
	# machine with one core, --oversubscribe).
	printf '#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) { int r, n; MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &n); printf("rank %%d of %%d\\n", r, n); return MPI_Finalize(); }\n' >"$tmp/mpi.c"
	if mpicc "$tmp/mpi.c" -o "$tmp/mpi" >"$tmp/log" 2>&1; then
		out=$(mpirun --allow-run-as-root --oversubscribe -n 2 "$tmp/mpi" 2>"$tmp/log" | sort | tr '\n' ' ')
		[ "$out" = "rank 0 of 2 rank 1 of 2 " ] ||
			fail "running two MPI ranks with mpirun (got: '$out')" "openmpi-bin" "$tmp/log"
	else
		fail "compiling and linking an MPI program with mpicc" "libopenmpi-dev openmpi-bin" "$tmp/log"
	fi
fi

if [ "$failed" -ne 0 ]; then
	if [ "$mode" = --verify ] && [ -n "$missing" ]; then
		echo "install-deps: not installed:$missing" >&2
	fi
	exit 1
fi
exit 0
