#!/bin/sh
# make check-mpi: dlsim-mpi against dlsim on this machine.
#   tools/check-mpi.sh BUILD_ROOT
# 1. One sweep (constrained deadlines, analysis tests, budgets lifted to the
#    2 us minimum so a warning is printed) with `dlsim sweep --jobs 1` and
#    `--jobs 2`, and with `mpirun -n K dlsim-mpi sweep` for K = 1, 3 and 4:
#    standard output, standard error, the CSV and the SVG must be the same
#    bytes in every run.
# 2. A rank killed (SIGKILL) and a rank aborting (SIGABRT) in the middle of
#    a 4-rank sweep, and mpirun interrupted (SIGINT): the run must fail
#    (non-zero status), name the rank that died, and leave no table: no
#    CSV, no SVG, no table on standard output, no temporary file.
# 3. Plain dlsim started by mpirun refuses to run (each rank would run the
#    whole sweep).
# Ranks run with --oversubscribe (4 ranks on 2 cores) and, as root,
# --allow-run-as-root.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}/check
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
work=${build}/check-mpi
dlsim=$build/tools/dlsim/dlsim
mpi=$build/tools/dlsim/dlsim-mpi
failed=0

if [ ! -x "$mpi" ]; then
	echo "check-mpi: $mpi was not built (CMake did not find MPI: see its output)" >&2
	exit 1
fi
run_as_root=""
[ "$(id -u)" -eq 0 ] && run_as_root=--allow-run-as-root
mpirun_n() { # K ARGS...
	k=$1
	shift
	mpirun $run_as_root --oversubscribe -n "$k" "$@"
}

fail() {
	echo "check-mpi: FAIL: $*" >&2
	failed=1
}

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# --- 1. the same bytes ------------------------------------------------------
# 5 steps x 37 sets = 185 sets: shares of 62/62/61 on 3 ranks, 47/46/46/46 on 4.
sweep="sweep --cpus 2 --tasks 8 --util 0.4:2:0.4 --sets 37 --deadlines constrained
	--periods 1:100:0.5 --horizon 300 --tests gfb,bak,bcl --seed 7 --no-progress"
# shellcheck disable=SC2086
"$dlsim" $sweep --jobs 1 --csv j1.csv --svg j1.svg >j1.out 2>j1.err || fail "dlsim sweep --jobs 1 exited $?"
grep -q "budget was raised to 2 us" j1.err || fail "the reference run printed no warning to compare"
# shellcheck disable=SC2086
"$dlsim" $sweep --jobs 2 --csv j2.csv --svg j2.svg >j2.out 2>j2.err || fail "dlsim sweep --jobs 2 exited $?"
for k in 1 3 4; do
	# shellcheck disable=SC2086
	mpirun_n "$k" "$mpi" $sweep --jobs 1 --csv m$k.csv --svg m$k.svg >m$k.out 2>m$k.err ||
		fail "mpirun -n $k dlsim-mpi sweep exited $?"
done
for run in j2 m1 m3 m4; do
	for ext in out err csv svg; do
		cmp -s j1.$ext $run.$ext || fail "$run.$ext differs from j1.$ext (dlsim sweep --jobs 1)"
	done
done
[ -s j1.csv ] && [ "$(wc -l <j1.csv)" -eq 6 ] || fail "j1.csv is not a header and 5 rows"
echo "check-mpi: dlsim sweep --jobs 1, --jobs 2 and dlsim-mpi on 1, 3 and 4 ranks: same table, CSV, SVG and messages"

# --- 2. a rank that dies ----------------------------------------------------
# About 30 s of simulation for one process (the run is killed after a
# second): long enough to kill a rank in
# the middle on a machine with more cores than ranks.
long="sweep --cpus 4 --tasks 16 --util 0.4:4:0.4 --sets 8000 --horizon 1000 --jobs 1 --no-progress"

# pid_of_rank MPIRUN_PID RANK: the dlsim-mpi process of that rank (Open MPI
# puts OMPI_COMM_WORLD_RANK in each rank's environment).
pid_of_rank() {
	for p in $(pgrep -P "$1" 2>/dev/null); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# kill_case NAME SIGNAL TARGET: start the long sweep on 4 ranks, wait until
# every rank runs, then send SIGNAL to rank TARGET (or to mpirun itself).
kill_case() {
	name=$1 sig=$2 target=$3
	# shellcheck disable=SC2086
	mpirun $run_as_root --oversubscribe -n 4 "$mpi" $long --csv "$name.csv" --svg "$name.svg" \
		>"$name.out" 2>"$name.err" &
	mp=$!
	tries=0
	until [ "$(pgrep -P "$mp" 2>/dev/null | wc -l)" -ge 4 ] || [ "$tries" -ge 100 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	sleep 1
	if [ "$target" = mpirun ]; then
		kill -"$sig" "$mp"
	else
		victim=$(pid_of_rank "$mp" "$target") || victim=""
		if [ -n "$victim" ]; then
			kill -"$sig" "$victim"
		else
			fail "$name: rank $target was not found running"
		fi
	fi
	rc=0
	wait "$mp" || rc=$?
	[ "$rc" -ne 0 ] || fail "$name: mpirun exited 0 after SIG$sig to $target"
	if [ "$target" != mpirun ]; then
		grep -q "rank $target" "$name.err" || fail "$name: no message names rank $target"
	fi
	for f in "$name.csv" "$name.svg"; do
		[ ! -e "$f" ] || fail "$name: $f was written"
	done
	if ls ./*.tmp >/dev/null 2>&1; then
		fail "$name: a temporary file was left: $(ls ./*.tmp)"
	fi
	if grep -q "^utilisation" "$name.out"; then
		fail "$name: a table was printed"
	fi
	echo "check-mpi: $name: SIG$sig to $target: exit $rc, no table; $(grep -m1 -o "process rank $target[^.]*" "$name.err" || grep -m1 "^dlsim" "$name.err")"
}
kill_case killed KILL 2
kill_case aborted ABRT 1
kill_case interrupted INT mpirun
grep -q "interrupted by SIG" interrupted.err || fail "interrupted: rank 0 did not say it was interrupted"

# --- 3. plain dlsim under mpirun ----------------------------------------------
rc=0
mpirun_n 2 "$dlsim" sweep --sets 2 --util 0.5 --no-progress >plain.out 2>plain.err || rc=$?
[ "$rc" -eq 64 ] || fail "plain dlsim under mpirun exited $rc, not 64"
grep -q "this dlsim does not use MPI" plain.err || fail "plain dlsim under mpirun did not say why"

if [ "$failed" -ne 0 ]; then
	echo "check-mpi: failed; the runs are in $work" >&2
	exit 1
fi
echo "check-mpi: passed"
cd "$src"
