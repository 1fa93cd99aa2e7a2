#!/bin/sh
# Instructions per operation of the global EDF benchmarks, from callgrind
# (stable where wall-clock time on a small, shared machine is not). Only
# the measured loop is counted (--toggle-collect), and each figure is the
# difference of two runs of different length divided by the difference of
# their operation counts, so set-up and fill cancel.
#
# usage: bench/smp_callgrind.sh [build-dir] [cpudl sizes]
#   build-dir   holds bench/bench_cpudl and bench/bench_smp (default build/release)
#   cpudl sizes default "4 64 256 1024"
set -eu

build=${1:-build/release}
sizes=${2:-4 64 256 1024}
ops1=${OPS1:-20000}
ops2=${OPS2:-100000}
cpudl=$build/bench/bench_cpudl
smp=$build/bench/bench_smp

for b in "$cpudl" "$smp"; do
	if [ ! -x "$b" ]; then
		echo "smp_callgrind: $b not built" >&2
		exit 1
	fi
done
if ! command -v valgrind >/dev/null 2>&1; then
	echo "smp_callgrind: valgrind not installed (apt-get install valgrind)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Instructions inside function $1 for the command that follows.
instr() {
	fn=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		--toggle-collect="$fn" "$@" >"$tmp/stdout" 2>"$tmp/stderr" || {
		cat "$tmp/stderr" >&2
		exit 1
	}
	sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' \
		"$tmp/cg.out" | head -n 1
}

# Per-op instructions: per FUNCTION ARGS-BEFORE-OPS -- ARGS-AFTER-OPS
per_op() {
	fn=$1
	bin=$2
	shift 2
	a=$(instr "$fn" "$bin" --ops "$ops1" "$@")
	b=$(instr "$fn" "$bin" --ops "$ops2" "$@")
	awk -v a="$a" -v b="$b" -v o1="$ops1" -v o2="$ops2" \
		'BEGIN { printf "%.1f", (b - a) / (o2 - o1) }'
}

printf 'callgrind instructions per op, ops %s - %s\n\n' "$ops1" "$ops2"
printf 'cpudl find, every CPU busy, entity allowed everywhere\n'
printf '%6s %10s %10s %10s %8s\n' cpus heap linear lin-ref linear/heap
for n in $sizes; do
	h=$(per_op "run_heap*" "$cpudl" --impl heap --n "$n")
	l=$(per_op "run_linear*" "$cpudl" --impl linear --n "$n")
	r=$(per_op "run_linear*" "$cpudl" --impl linear-ref --n "$n")
	ratio=$(awk -v h="$h" -v l="$l" 'BEGIN { printf "%.1fx", l / h }')
	printf '%6s %10s %10s %10s %8s\n' "$n" "$h" "$l" "$r" "$ratio"
done

printf '\nglobal EDF at 64 CPUs, every CPU busy (see bench/smp.c)\n'
s=$(per_op "run_ops*" "$smp" --op select --cpus 64)
l=$(per_op "run_ops*" "$smp" --op linear --cpus 64)
p=$(per_op "run_ops*" "$smp" --op push --cpus 64)
m=$(per_op "run_ops*" "$smp" --op move --cpus 64)
printf '%-34s %10s\n' "dls_select_cpu" "$s"
printf '%-34s %10s\n' "linear placement scan (peer)" "$l"
printf '%-34s %10s\n' "move back + dls_push" "$p"
printf '%-34s %10s\n' "two bare moves (peer)" "$m"
awk -v p="$p" -v m="$m" 'BEGIN {
	printf "%-34s %10.1f\n", "one push, its move included", p - m / 2
	printf "%-34s %10.1f\n", "push decision over a bare move", p - m
}'
