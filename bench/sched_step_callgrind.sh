#!/bin/sh
# Instructions per scheduling step (bench/sched_step.c: advance the clock,
# dls_update_curr, fire due replenishment timers, dls_schedule), from
# callgrind. Each size runs twice with different step counts; the
# difference of the two instruction totals, divided by the difference of
# the counts, leaves out set-up (attach, first wake-up) and start-up.
#
# usage: bench/sched_step_callgrind.sh [build-dir] [sizes]
#   build-dir  holds bench/bench_sched_step (default build/release)
#   sizes      entity counts, default "16 256 4096"
set -eu

build=${1:-build/release}
sizes=${2:-16 256 4096}
bin=$build/bench/bench_sched_step
steps1=${STEPS1:-20000}
steps2=${STEPS2:-120000}

if [ ! -x "$bin" ]; then
	echo "sched_step_callgrind: $bin not built" >&2
	exit 1
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "sched_step_callgrind: valgrind not installed (apt-get install valgrind)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Instructions inside main() (run() is inlined there: set-up and the
# loop) for N entities and S steps; R = 1 makes every entity reclaiming.
instr() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		--toggle-collect='main' "$bin" --steps "$2" --n "$1" --reclaim "${3:-0}" \
		--server "${4:-0}" \
		>"$tmp/stdout" 2>"$tmp/stderr" || {
		cat "$tmp/stderr" >&2
		exit 1
	}
	sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' \
		"$tmp/cg.out" | head -n 1
}

printf 'callgrind instructions per scheduling step, steps %s - %s\n' \
	"$steps1" "$steps2"
printf '%-8s %12s %12s %8s\n' entities instr/step reclaim ratio
for n in $sizes; do
	a=$(instr "$n" "$steps1")
	b=$(instr "$n" "$steps2")
	c=$(instr "$n" "$steps1" 1)
	d=$(instr "$n" "$steps2" 1)
	awk -v n="$n" -v a="$a" -v b="$b" -v c="$c" -v d="$d" \
		-v s1="$steps1" -v s2="$steps2" \
		'BEGIN { p = (b - a) / (s2 - s1); r = (d - c) / (s2 - s1);
			 printf "%-8s %12.1f %12.1f %8.3f\n", n, p, r, r / p }'
done

# One step through a server over 16 guest entities against a flat step
# over 17 (the same entity count).
a=$(instr 17 "$steps1")
b=$(instr 17 "$steps2")
c=$(instr 16 "$steps1" 0 1)
d=$(instr 16 "$steps2" 0 1)
awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v s1="$steps1" -v s2="$steps2" \
	'BEGIN { p = (b - a) / (s2 - s1); r = (d - c) / (s2 - s1);
		 printf "\n%-22s %10s %10s %8s\n", "", "flat 17", "server+16", "ratio";
		 printf "%-22s %10.1f %10.1f %8.3f\n", "instr/step", p, r, r / p }'
