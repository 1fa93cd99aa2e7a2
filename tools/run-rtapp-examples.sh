#!/bin/sh
# Run dlsim on every *.json under a checkout of rt-app (its doc/ and
# doc/examples/ files, unchanged) and print one row per file: the file,
# dlsim's exit status and a verdict.
#
#   tools/run-rtapp-examples.sh [--dlsim PATH] [--cpus N] RTAPP_DIR
#
# rt-app's files assume the host machine, so each runs with --cpus N
# (default 4) and --check. Verdicts:
#   ran            exit 0 (warnings, e.g. keys dlsim does not model, counted)
#   not modelled   refused with exit 65 for a reason docs/dlsim-researchers.md
#                  lists: a fragment with no "tasks" (rt-app refuses it too),
#                  rt-app's first grammar (exec/lock_order), an external
#                  workload (a function of a shared library)
#   FAIL           anything else: a bug in dlsim's rt-app support
# Exits 1 if any file FAILs, 64 on a bad command line.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dlsim="$top/build/check/tools/dlsim/dlsim"
cpus=4
usage="usage: $0 [--dlsim PATH] [--cpus N] RTAPP_DIR"
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

err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
files=$(find "$dir" -name '*.json' -type f | LC_ALL=C sort)
[ -n "$files" ] || { echo "$0: no *.json under $dir" >&2; exit 64; }
total=0 ran=0 skipped=0 failed=0
printf '%-58s %4s  %s\n' file exit verdict
echo "$files" | {
	while IFS= read -r f; do
		"$dlsim" "$f" --cpus "$cpus" --check --quiet >/dev/null 2>"$err"
		rc=$?
		total=$((total + 1))
		warnings=$(grep -c ': warning: ' "$err")
		reasons=""
		grep -q 'error: missing "tasks" object' "$err" &&
			reasons="$reasons, no tasks (a fragment)"
		grep -q "rt-app's first grammar" "$err" &&
			reasons="$reasons, rt-app's first grammar"
		grep -q "external workload" "$err" &&
			reasons="$reasons, external workload"
		if [ "$rc" -eq 0 ]; then
			verdict="ran, warnings: $warnings"
			ran=$((ran + 1))
		elif [ "$rc" -eq 65 ] && [ -n "$reasons" ]; then
			verdict="not modelled: ${reasons#, }"
			skipped=$((skipped + 1))
		else
			verdict="FAIL: $(grep -m 1 -e 'error' -e 'refused' "$err" | cut -c 1-160)"
			failed=$((failed + 1))
		fi
		printf '%-58s %4s  %s\n' "${f#"$dir"/}" "$rc" "$verdict"
	done
	echo "$total files: $ran ran, $skipped not modelled, $failed failed (dlsim --cpus $cpus)"
	[ "$failed" -eq 0 ]
}
