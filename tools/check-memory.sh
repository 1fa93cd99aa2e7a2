#!/bin/sh
# make check-memory: dlsim's memory at scale.
#   tools/check-memory.sh BUILD_ROOT [TASKS CPUS HORIZON_MS LIMIT_KB]
# A generated workload of 10,000 periodic tasks on 256 CPUs (98% deadline
# reservations, 1% FIFO, 1% fair; one task in 50 pinned to two CPUs 64
# apart, across the bitmap's words) runs in the release build with every
# output on (the summary, --json, --jobs, --trace, --svg): its peak
# resident set, as GNU time's %M reports it (the kernel's maxrss), must
# stay within 64 MiB. The outputs are streamed (the architecture of
# tools/dlsim/sim_impl.h), so memory grows with tasks and CPUs, not with
# simulated time; the horizon is 200 ms (every task's period is at most
# 100 ms, so every task completes jobs) to keep the run to about ten
# seconds: the lower classes' balancing walks every CPU for every waiting
# FIFO thread (tools/dlsim/lower.c), which a longer or more FIFO-heavy
# run pays for in time, not memory.
# First a control: awk holding a string of 128 MiB must measure 128..512
# MiB, proving the figure is in KiB and that the check can fail.
set -eu

build=${1:-build}/release
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
tasks=${2:-10000}
cpus=${3:-256}
horizon_ms=${4:-200}
limit_kb=${5:-65536}
dlsim=$build/tools/dlsim/dlsim
work=$build/check-memory
time=/usr/bin/time

[ -x "$dlsim" ] || { echo "check-memory: $dlsim was not built" >&2; exit 1; }
[ -x "$time" ] || { echo "check-memory: $time is missing (package time, tools/install-deps.sh)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"

# The control.
"$time" -f %M -o "$work/control.kb" awk 'BEGIN { s = "x"; while (length(s) < 100000000) s = s s; exit length(s) != 134217728 }'
kb=$(tail -n 1 "$work/control.kb")
if [ "$kb" -lt 131072 ] || [ "$kb" -gt 524288 ]; then
	echo "check-memory: FAIL: a string of 128 MiB measured $kb KiB: $time -f %M does not give KiB of peak RSS" >&2
	exit 1
fi

# The workload: task i has period 10 + (37 i mod 91) ms.
awk -v tasks="$tasks" -v cpus="$cpus" -v horizon_ms="$horizon_ms" 'BEGIN {
	printf "{\n\"platform\": {\"cpus\": %d},\n", cpus
	printf "\"simulation\": {\"horizon_us\": %d, \"affinity\": \"library\"},\n", horizon_ms * 1000
	printf "\"tasks\": {\n"
	for (i = 0; i < tasks; i++) {
		p = 10 + (i * 37) % 91
		k = i % 100
		printf "%s\"t%d\": {", i ? ",\n" : "", i
		if (k < 98) {      # SCHED_DEADLINE, 2% of a CPU
			printf "\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %d, \"dl-period\": %d, ", p * 20, p * 1000
			w = p * 20 - 50
		} else if (k == 98) {
			printf "\"policy\": \"SCHED_FIFO\", \"priority\": %d, ", 1 + i % 90
			w = p * 10
		} else {
			printf "\"policy\": \"SCHED_OTHER\", "
			w = p * 10
		}
		if (i % 50 == 7)
			printf "\"cpus\": [%d, %d], ", (i * 13) % cpus, (i * 13 + 64) % cpus
		printf "\"run\": %d, \"timer\": {\"ref\": \"unique\", \"period\": %d}}", w, p * 1000
	}
	printf "\n}}\n"
}' > "$work/workload.json"

cd "$work"
status=0
"$time" -f %M -o rss.kb "$dlsim" workload.json --json run.json --jobs jobs.csv \
	--trace trace.json --svg gantt.svg > summary.txt 2> stderr.txt || status=$?
kb=$(tail -n 1 rss.kb)
if [ "$status" -ne 0 ]; then
	echo "check-memory: FAIL: dlsim exited with $status" >&2
	cat stderr.txt >&2
	exit 1
fi
jobs=$(($(wc -l < jobs.csv) - 1))
head -n 1 summary.txt
echo "check-memory: $tasks tasks, $cpus CPUs, $horizon_ms ms, every output on: $jobs jobs," \
	"outputs $(du -k run.json jobs.csv trace.json gantt.svg | awk '{ s += $1 } END { print s }') KiB," \
	"peak RSS $kb KiB (limit $limit_kb)"
if [ "$jobs" -lt "$tasks" ]; then
	echo "check-memory: FAIL: $jobs jobs for $tasks tasks: every task should complete one" >&2
	exit 1
fi
if [ "$kb" -gt "$limit_kb" ]; then
	echo "check-memory: FAIL: peak RSS $kb KiB is over $limit_kb KiB" >&2
	exit 1
fi
rm -f run.json jobs.csv trace.json gantt.svg
