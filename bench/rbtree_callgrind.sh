#!/bin/sh
# Instructions per operation of the EDF runqueue benchmark, from callgrind
# (stable where hardware counters are missing). Each implementation runs
# twice with different operation counts from the same seed; the difference
# of the two instruction totals, divided by the difference of the counts,
# leaves out start-up and the fill phase.
#
# usage: bench/rbtree_callgrind.sh [build-dir] [patterns] [sizes]
#   build-dir  holds bench/bench_rbtree (default build/release)
#   patterns   default "a b"
#   sizes      default "64 1024"
set -eu

build=${1:-build/release}
patterns=${2:-a b}
sizes=${3:-64 1024}
bin=$build/bench/bench_rbtree
ops1=${OPS1:-20000}
ops2=${OPS2:-120000}
impls=${IMPLS:-ours libbsd tsearch heap}

if [ ! -x "$bin" ]; then
	echo "rbtree_callgrind: $bin not built" >&2
	exit 1
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "rbtree_callgrind: valgrind not installed (apt-get install valgrind)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Total instructions executed by one run.
instr() {
	if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		"$bin" --ops "$1" --impl "$2" --pattern "$3" --n "$4" \
		>"$tmp/stdout" 2>"$tmp/stderr"; then
		if grep -q 'unknown --impl' "$tmp/stderr"; then
			echo "-" # peer not compiled in (e.g. no libbsd)
			return
		fi
		cat "$tmp/stderr" >&2
		exit 1
	fi
	sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' \
		"$tmp/cg.out" | head -n 1
}

printf 'callgrind instructions per op (erase + insert), ops %s - %s\n\n' \
	"$ops1" "$ops2"
printf '%8s %3s' n pat
for i in $impls; do printf ' %9s' "$i"; done
for i in $impls; do [ "$i" = ours ] || printf ' %8s' "/$i"; done
printf '\n'

for n in $sizes; do
	for p in $patterns; do
		line=$(printf '%8s %3s' "$n" "$p")
		ratios=""
		ours=""
		for i in $impls; do
			a=$(instr "$ops1" "$i" "$p" "$n")
			b=$(instr "$ops2" "$i" "$p" "$n")
			if [ "$a" = "-" ] || [ "$b" = "-" ]; then
				line="$line$(printf ' %9s' n/a)"
				[ "$i" = ours ] || ratios="$ratios$(printf ' %8s' n/a)"
				continue
			fi
			per=$(awk -v a="$a" -v b="$b" -v o1="$ops1" -v o2="$ops2" \
				'BEGIN { printf "%.1f", (b - a) / (o2 - o1) }')
			line="$line$(printf ' %9s' "$per")"
			if [ "$i" = ours ]; then
				ours=$per
			else
				r=$(awk -v o="$ours" -v p="$per" \
					'BEGIN { printf "%.2fx", o / p }')
				ratios="$ratios$(printf ' %8s' "$r")"
			fi
		done
		printf '%s%s\n' "$line" "$ratios"
	done
done
printf '\n/peer: ours divided by the peer (< 1 = fewer instructions).\n'
