#!/bin/sh
# A workload JSON on stdout for dlsim whose FIFO/RR and fair threads
# migrate: the cost of dlsim's lower-class balancing (tools/dlsim/lower.c)
# with CPUs x threads.
#   bench/dlsim_lower_workload.sh TASKS CPUS HORIZON_MS [FIFO% FAIR% [SEED]]
# Without SEED, task i of every hundred is SCHED_DEADLINE (2 % of a CPU),
# SCHED_FIFO or fair by i mod 100 against the shares (10 % and 10 % by
# default), as tools/check-memory.sh's workload. With SEED, the mix is drawn
# at random (srand(SEED)) with RR, nice values, affinities, SCHED_BATCH and
# SCHED_IDLE, and two CPUs go offline and back (hotplug): a workload for
# checking that two builds of dlsim give the same outputs.
set -eu
tasks=${1:?TASKS}
cpus=${2:?CPUS}
horizon_ms=${3:?HORIZON_MS}
fifo=${4:-10}
fair=${5:-10}
seed=${6:-}
awk -v tasks="$tasks" -v cpus="$cpus" -v horizon_ms="$horizon_ms" -v fifo="$fifo" \
    -v fair="$fair" -v seed="$seed" '
function pick(n) { return int(rand() * n) }
function affinity(i,   a, b) {
	if (seed == "" ? i % 50 != 7 : pick(4))
		return ""
	a = seed == "" ? (i * 13) % cpus : pick(cpus)
	b = seed == "" ? (i * 13 + 64) % cpus : pick(cpus)
	return a == b ? sprintf("\"cpus\": [%d], ", a) : sprintf("\"cpus\": [%d, %d], ", a, b)
}
BEGIN {
	if (seed != "")
		srand(seed)
	printf "{\n\"platform\": {\"cpus\": %d},\n", cpus
	printf "\"simulation\": {\"horizon_us\": %d, \"affinity\": \"library\"", horizon_ms * 1000
	if (seed != "" && cpus > 2)
		printf ",\n\"hotplug\": [{\"cpu\": 1, \"at_us\": %d, \"online\": false}, " \
		       "{\"cpu\": %d, \"at_us\": %d, \"online\": false}, " \
		       "{\"cpu\": 1, \"at_us\": %d, \"online\": true}]", \
		       horizon_ms * 300, cpus - 1, horizon_ms * 450, horizon_ms * 700
	printf "},\n\"tasks\": {\n"
	for (i = 0; i < tasks; i++) {
		p = seed == "" ? 10 + (i * 37) % 91 : 5 + pick(40)
		k = seed == "" ? i % 100 : pick(100)
		printf "%s\"t%d\": {", i ? ",\n" : "", i
		if (k >= fifo + fair) {
			printf "\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %d, \"dl-period\": %d, ", p * 20, p * 1000
			w = p * 20 - 50
		} else if (k < fifo) {
			pol = seed != "" && pick(3) == 0 ? "SCHED_RR" : "SCHED_FIFO"
			printf "\"policy\": \"%s\", \"priority\": %d, ", pol, seed == "" ? 1 + i % 90 : 1 + pick(20)
			w = seed == "" ? p * 10 : p * (50 + pick(400))
		} else {
			q = seed == "" ? 0 : pick(6)
			pol = q == 4 ? "SCHED_BATCH" : q == 5 ? "SCHED_IDLE" : "SCHED_OTHER"
			printf "\"policy\": \"%s\", ", pol
			if (q == 1)
				printf "\"priority\": %d, ", pick(40) - 20
			w = seed == "" ? p * 10 : p * (50 + pick(600))
		}
		printf "%s\"run\": %d, \"timer\": {\"ref\": \"unique\", \"period\": %d}}", affinity(i), w, p * 1000
	}
	printf "\n}}\n"
}'
