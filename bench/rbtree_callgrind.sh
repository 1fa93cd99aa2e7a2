#!/bin/sh
# Per-operation counts of the red-black tree benchmark from callgrind (stable
# where hardware counters are missing): instructions, conditional and
# indirect branch mispredictions of callgrind's branch simulator
# (--branch-sim=yes: a model predictor, not this CPU's) and L1 data misses
# of its cache simulator (--cache-sim=yes: reads + writes). Only the timed
# function of each implementation and pattern is counted
# (--toggle-collect: IMPL_run for a and b, IMPL_build, IMPL_erase, IMPL_pop
# for the others), so drawing keys, emptying and refilling the trees stay
# out; the counts are divided by the operations run.
#
# usage: bench/rbtree_callgrind.sh [build-dir] [patterns] [sizes]
#   build-dir  holds bench/bench_rbtree (default build/release)
#   patterns   default "a b build erase pop"
#   sizes      default "64 1024"
# environment: OPS (default 200000), IMPLS (default "ours kern libbsd
# tsearch heap"; ours-l is the tree with only its leftmost node cached).
set -eu

build=${1:-build/release}
patterns=${2:-a b build erase pop}
sizes=${3:-64 1024}
bin=$build/bench/bench_rbtree
ops=${OPS:-200000}
impls=${IMPLS:-ours ours-l kern libbsd tsearch heap}

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

# The timed function of implementation $1 on pattern $2.
timed_fn() {
	fn=$1
	case $fn in tsearch) fn=ts ;; ours) fn=our ;; ours-l) fn=ourl ;; libbsd) fn=bsd ;; esac
	case $2 in
	a | b) echo "${fn}_run" ;;
	erase) [ "$fn" = heap ] && echo heap_erase_all || echo "${fn}_erase" ;;
	build*) echo "${fn}_build" ;; # build-asc, -desc, -rep: the same function
	*) echo "${fn}_$2" ;;
	esac
}

# "Ir Bcm+Bim D1mr+D1mw ops" of one run, or "-" when the peer is missing.
counts() {
	if ! valgrind --tool=callgrind --branch-sim=yes --cache-sim=yes \
		--toggle-collect="$(timed_fn "$1" "$2")" \
		--callgrind-out-file="$tmp/cg.out" \
		"$bin" --ops "$ops" --impl "$1" --pattern "$2" --n "$3" \
		>"$tmp/stdout" 2>"$tmp/stderr"; then
		if grep -q 'unknown --impl' "$tmp/stderr"; then
			echo "-" # peer not compiled in (e.g. no libbsd)
			return
		fi
		cat "$tmp/stderr" >&2
		exit 1
	fi
	ran=$(sed -n 's/.* ops \([0-9]*\) .*/\1/p' "$tmp/stdout")
	awk -v ran="$ran" '
		/^events:/ { for (i = 2; i <= NF; i++) ev[$i] = i - 1 }
		/^(summary|totals):/ {
			split($0, f, " ")
			for (k in ev) v[k] = f[ev[k] + 1]
			if (v["Ir"] + 0 == 0) {
				# the toggle matched no function: say so
				print "no instructions counted" > "/dev/stderr"
				exit 1
			}
			printf "%.1f %.2f %.2f\n", v["Ir"] / ran,
				(v["Bcm"] + v["Bim"]) / ran,
				(v["D1mr"] + v["D1mw"]) / ran
			exit
		}' "$tmp/cg.out"
}

printf 'callgrind per op: Ir instructions / mispredicted branches (cond.+ind.) / D1 misses (rd+wr)\n'
printf 'ops %s per run (whole rounds of n in build, erase, pop)\n\n' "$ops"
printf '%-10s %8s' pattern n
for i in $impls; do printf ' %22s' "$i"; done
printf ' %9s\n' "Ir/kern"

for p in $patterns; do
	for n in $sizes; do
		line=$(printf '%-10s %8s' "$p" "$n")
		ours=""
		kern=""
		for i in $impls; do
			c=$(counts "$i" "$p" "$n")
			if [ "$c" = "-" ]; then
				line="$line$(printf ' %22s' n/a)"
				continue
			fi
			set -- $c
			line="$line$(printf ' %8s/%6s/%6s' "$1" "$2" "$3")"
			[ "$i" = ours ] && ours=$1
			[ "$i" = kern ] && kern=$1
		done
		r=n/a
		if [ -n "$ours" ] && [ -n "$kern" ]; then
			r=$(awk -v o="$ours" -v k="$kern" \
				'BEGIN { printf "%.2fx", o / k }')
		fi
		printf '%s %9s\n' "$line" "$r"
	done
done
