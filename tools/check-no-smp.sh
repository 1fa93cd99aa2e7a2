#!/bin/sh
# A one-CPU program linked with the static library must contain no global
# scheduling code: the runqueue reaches SMP only through the hooks that
# dls_smp_init() installs, so a program that never calls it links none of
# push/pull, placement, hotplug, the cpudl heap or the CPU masks.
#
# usage: tools/check-no-smp.sh NM PROGRAM
set -eu
nm=$1
prog=$2
smp='dls_(smp|cpudl|cpumask|push|pull|balance|select_cpu|cpu_online|cpu_offline|entity_move)|dls__(smp|cpudl)|(^| )smp_|cpudl|cpumask|pushable|find_later'
found=$("$nm" "$prog" | grep -E " [tTdDrRbB] .*($smp)" || true)
if [ -n "$found" ]; then
	echo "check-no-smp: $prog links SMP code:" >&2
	echo "$found" >&2
	exit 1
fi
echo "check-no-smp: $prog links no SMP symbol"
