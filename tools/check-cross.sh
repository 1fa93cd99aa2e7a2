#!/bin/sh
# Cross-architecture test runs: build the suite for i686 (32-bit, which
# exercises the portable math128 path for real), aarch64 and armhf, and run
# it under qemu-user; then compile the freestanding core for arm-none-eabi.
#   tools/check-cross.sh [build-root] [arch...]
set -eu
build=${1:-build}
shift || true
arches=${*:-i686 aarch64 armhf}
top=$(pwd)

debarch() {
	case $1 in
	i686) echo i386 ;;
	aarch64) echo arm64 ;;
	armhf) echo armhf ;;
	esac
}

# qemu-i386 hangs in fork() and pthread_create() of dynamically linked i686
# glibc programs; statically linked ones run, threads included, so the i686
# suite links statically (and leaves out the shared-library test).
extra() {
	case $1 in
	i686) echo "-DCMAKE_EXE_LINKER_FLAGS=-static -DDLSCHED_BUILD_SHARED=OFF" ;;
	esac
}

for a in $arches; do
	sysroot="$top/$build/sysroot-$(debarch "$a")"
	tools/cross-sysroot.sh "$(debarch "$a")" "$sysroot"
	dir="$build/cross-$a"
	echo "== $a: configure, build, test under qemu"
	DLSCHED_CROSS_SYSROOT="$sysroot" cmake -S . -B "$dir" \
		-DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchains/$a.cmake" \
		-DDLSCHED_CROSS_SYSROOT="$sysroot" \
		-DCMAKE_BUILD_TYPE=Debug -DDLSCHED_ENABLE_ASSERT=ON \
		-DDLSCHED_WERROR=ON -DDLSCHED_BUILD_BENCH=OFF $(extra "$a")
	DLSCHED_CROSS_SYSROOT="$sysroot" cmake --build "$dir" -j2
	(cd "$dir" && DLS_TEST_SCALE=${DLS_TEST_SCALE:-10} \
		ctest --output-on-failure -j2)
done

tools/check-freestanding.sh "$build"
