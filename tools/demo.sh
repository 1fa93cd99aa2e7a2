#!/bin/sh
# The main job of `make demo`: run dlsim on the bundled workload when the
# simulator is built, otherwise (or with "bench") the benchmark summary.
set -eu
build=${1:-build/release}
what=${2:-demo}

if [ "$what" = demo ] && [ -x "$build/tools/dlsim/dlsim" ]; then
	exec tools/dlsim-demo.sh "$build"
fi

ran=0
for b in "$build"/bench/bench_*; do
	[ -x "$b" ] || continue
	echo "== $(basename "$b")"
	"$b"
	ran=1
done
[ "$ran" = 1 ] || echo "demo: no benchmark programs were built"
