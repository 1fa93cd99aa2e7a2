#!/bin/sh
# Instructions per operation of each math128 backend, counted by callgrind
# as the difference between two runs of different length (setup cancels).
#   bench/math128_callgrind.sh [path/to/bench_math128]
set -eu
bin=${1:-build/release/bench/bench_math128}
n1=100000
n2=300000
count() {
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --ops "$2" --only "$1" >/dev/null 2>&1
	callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}'
	rm -f "$out"
}
printf '%-8s' op
for b in portable int128 x86 api native; do printf ' %10s' "$b"; done
printf '   (instructions/op)\n'
for op in mul mulshr div muldiv; do
	printf '%-8s' "$op"
	for b in portable int128 x86 api native; do
		a=$(count "$b:$op" $n1 || echo 0)
		c=$(count "$b:$op" $n2 || echo 0)
		if [ -n "$a" ] && [ -n "$c" ] && [ "$c" -gt "$a" ]; then
			awk -v a="$a" -v c="$c" -v n=$((n2 - n1)) 'BEGIN { printf " %10.1f", (c - a) / n }'
		else
			printf ' %10s' n/a
		fi
	done
	printf '\n'
done
