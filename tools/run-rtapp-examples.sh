#!/bin/sh
# Run dlsim on every *.json under a directory (a checkout of rt-app, its
# doc/ and doc/examples/ files unchanged, or our own feature files in
# tests/rtapp_features) and print one row per file: the file, dlsim's exit
# status and a verdict.
#
#   tools/run-rtapp-examples.sh [--dlsim PATH] [--cpus N] DIR
#
# rt-app's files assume the host machine, so each file without a platform
# section runs with --cpus N (default 4); every file runs with --check.
# Verdicts:
#   ran          exit 0 (warnings counted and summed up); a file with a
#                sibling NAME.jobs runs with --strict and has its schedule
#                checked: each job's thread, index, release, end (us) and
#                whether it met its deadline, as the .jobs file lists them
#                (derived by hand, see the .json)
#   refused      what rt-app itself does with the file on this platform:
#                no "tasks" (a fragment), rt-app's first grammar, a CPU the
#                platform lacks (rt-app: "Invalid cpu"), admission control
#                (sched_setattr() fails)
#   not modelled exit 65 naming a key that docs/dlsim-researchers.md lists as
#                refused (memrun, taskgroup, util_min/util_max, ...)
#   FAIL         anything else, or a schedule that differs: a bug in dlsim
# Exits 1 if any file FAILs, 64 on a bad command line.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dlsim="$top/build/check/tools/dlsim/dlsim"
cpus=4
usage="usage: $0 [--dlsim PATH] [--cpus N] DIR"
while [ $# -gt 1 ]; do
	case $1 in
	--dlsim) dlsim=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	*) echo "$usage" >&2; exit 64 ;;
	esac
done
[ $# -eq 1 ] && [ -d "$1" ] || { echo "$usage" >&2; exit 64; }
dir=${1%/}
[ -x "$dlsim" ] || { echo "$0: no dlsim at $dlsim (make check builds it, or --dlsim PATH)" >&2; exit 64; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
err=$tmp/err
files=$(find "$dir" -name '*.json' -type f | LC_ALL=C sort)
[ -n "$files" ] || { echo "$0: no *.json under $dir" >&2; exit 64; }

# The schedule of a --jobs CSV as the .jobs files write it: thread, job,
# release and end in us, met or miss (lateness > 0).
jobs_table() {
	awk -F, 'NR > 1 { gsub(/"/, "", $1);
		printf "%s %s %d %d %s\n", $1, $2, $3 / 1000, $5 / 1000, ($9 > 0 ? "miss" : "met") }' "$1"
}

# Why dlsim refused a file, from its diagnostics ($err), as rt-app would or
# as a documented limit of the model; empty for anything else.
refusal() {
	if grep -q 'error: missing "tasks" object' "$err"; then
		echo "refused: no tasks (a fragment; rt-app refuses it too)"
	elif grep -q "rt-app's first grammar" "$err"; then
		echo "refused: rt-app's first grammar (exec/lock_order; today's rt-app refuses it too)"
	elif grep -q 'uses a CPU the platform does not have' "$err"; then
		echo "refused: pins to a CPU this $1-CPU platform lacks (rt-app: \"Invalid cpu\")"
	elif grep -q 'admission control refused' "$err"; then
		echo "refused: admission, $(grep -m 1 -o 'refused "[^"]*" ([0-9/]* us)' "$err" |
			sed 's/^refused //') (sched_setattr() fails: EBUSY)"
	elif grep -q 'is not modelled' "$err"; then
		echo "not modelled: $(grep 'is not modelled' "$err" |
			sed -n 's/^[^"]*"\([^"]*\)".*/\1/p' | LC_ALL=C sort -u | tr '\n' ' ' |
			sed 's/ $//')"
	fi
}

total=0 ran=0 refused=0 unmodelled=0 failed=0
printf '%-50s %4s  %s\n' file exit verdict
echo "$files" | {
	while IFS= read -r f; do
		total=$((total + 1))
		set -- --check --quiet
		grep -q '"platform"' "$f" || set -- "$@" --cpus "$cpus"
		want=${f%.json}.jobs
		[ -f "$want" ] && set -- "$@" --strict --jobs "$tmp/jobs.csv"
		"$dlsim" "$f" "$@" >/dev/null 2>"$err"
		rc=$?
		warnings=$(grep -c ': warning: ' "$err")
		# what the warnings say, in short, each once
		[ "$warnings" -gt 0 ] && warnings="$warnings ($(sed -n 's/.*: warning: //p' "$err" |
			sed -e 's/: read as.*//' -e 's/, so .*//' -e 's/ (a custom slice).*/ (a custom slice)/' |
			cut -c 1-72 | LC_ALL=C sort -u | head -n 3 | paste -s -d ';' -))"
		why=$(refusal "$cpus")
		if [ "$rc" -eq 0 ] && [ -f "$want" ]; then
			if jobs_table "$tmp/jobs.csv" | diff -u "$want" - >"$tmp/diff"; then
				verdict="ran, schedule as ${want##*/}, warnings: $warnings"
				ran=$((ran + 1))
			else
				verdict="FAIL: the schedule differs from ${want##*/}:
$(cat "$tmp/diff")"
				failed=$((failed + 1))
			fi
		elif [ "$rc" -eq 0 ]; then
			verdict="ran, warnings: $warnings"
			ran=$((ran + 1))
		elif { [ "$rc" -eq 65 ] || [ "$rc" -eq 2 ]; } && [ -n "$why" ]; then
			verdict=$why
			case $why in
			refused*) refused=$((refused + 1)) ;;
			*) unmodelled=$((unmodelled + 1)) ;;
			esac
		else
			verdict="FAIL: $(grep -m 1 -e 'error' -e 'refused' -e 'broken' "$err" | cut -c 1-160)"
			failed=$((failed + 1))
		fi
		printf '%-50s %4s  %s\n' "${f#"$dir"/}" "$rc" "$verdict"
	done
	echo "$total files: $ran ran, $refused refused as rt-app would, $unmodelled not modelled," \
		"$failed failed (dlsim --cpus $cpus)"
	[ "$failed" -eq 0 ]
}
