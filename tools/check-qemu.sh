#!/bin/sh
# libdlsched as the scheduler of a bare-metal kernel on a Cortex-M3
# (ports/cortex-m) under qemu-system-arm -M mps2-an385, with -icount for a
# deterministic clock (shift=0: one instruction per ns of the board's
# clock).
#
# For each build, -Os with DLSCHED_MINSIZE (function sections,
# --gc-sections) and -O2, it builds the port with CMake and the
# arm-none-eabi toolchain file, boots it, and checks:
#  - the port's own verdict (exit status 0): ctrl, sensor and logger meet
#    every deadline, the hog is throttled and kept to its budget;
#  - its jobs against dlsim's prediction for the same workload
#    (ports/cortex-m/workload.json, --jobs): the same jobs, the same
#    releases, and ends no earlier than dlsim's and at most TOL_NS later
#    (tools/qemu-compare.awk; TOL_NS below says why 20 us);
#  - CBS isolation: dlsim's jobs of the three other threads are the same,
#    to the ns, when the hog keeps to its budget (run 2 ms instead of
#    6.3 ms): what the hog does cannot reach them;
#  - a one-CPU image links no SMP code (tools/check-no-smp.sh).
# Then it prints the library's footprint per module and the cost of its
# calls measured on the target.
#
#   tools/check-qemu.sh [BUILD_DIR]
set -eu
build=${1:-build}
top=$(pwd)
out="$build/qemu"
mkdir -p "$out"

# The kernel's time lags dlsim's (which takes none) by what its events
# cost: an event (a timer interrupt, a thread's call, a switch) costs at
# most about 1.3 us here (irq_max + switch_max below, checked under 2 us
# each), and the busiest window of this workload, the logger's 12 ms
# response, holds about ten of them. Every instant of the workload lies
# on a 100 us grid (all its times are multiples of 0.1 ms), so a lag
# under 20 us cannot reorder two events the way a lag of a grid step
# could; the comparison refuses a job that ends at a release instant.
TOL_NS=20000
EVENT_MAX_NS=2000

echo "== dlsim: the host build's simulator"
cmake -S . -B "$build/check" -DCMAKE_BUILD_TYPE=Debug \
	-DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON >"$out/host-configure.log"
cmake --build "$build/check" -j2 --target dlsim >"$out/host-build.log"
dlsim="$build/check/tools/dlsim/dlsim"
"$dlsim" ports/cortex-m/workload.json --check --strict --jobs "$out/dlsim-jobs.csv"
sed '/"hog"/,$ s/"run": 6300,/"run": 2000,/' ports/cortex-m/workload.json >"$out/hog-in-budget.json"
grep -q '"run": 2000,' "$out/hog-in-budget.json"
"$dlsim" "$out/hog-in-budget.json" --check --strict --quiet --jobs "$out/dlsim-jobs-hog-in-budget.csv"
grep -v '^"hog"' "$out/dlsim-jobs.csv" >"$out/others.csv"
grep -v '^"hog"' "$out/dlsim-jobs-hog-in-budget.csv" >"$out/others-hog-in-budget.csv"
if ! cmp -s "$out/others.csv" "$out/others-hog-in-budget.csv"; then
	echo "check-qemu: the hog's overrun changes the other threads' jobs in dlsim:" >&2
	diff "$out/others-hog-in-budget.csv" "$out/others.csv" | head -n 10 >&2
	exit 1
fi
echo "check-qemu: isolation: the other threads' $(($(wc -l <"$out/others.csv") - 1)) jobs are the same whether the hog overruns or not"

failed=0
for cfg in Os O2; do
	dir="$build/cortex-m-$cfg"
	case $cfg in
	Os) flags="-DCMAKE_BUILD_TYPE=MinSizeRel -DDLSCHED_MINSIZE=ON" ;;
	O2) flags="-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O2 -DDLSCHED_MINSIZE=OFF" ;;
	esac
	echo "== Cortex-M3, -$cfg: build, boot under qemu-system-arm"
	# shellcheck disable=SC2086
	cmake -S ports/cortex-m -B "$dir" \
		-DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchains/arm-none-eabi.cmake" $flags \
		>"$out/$cfg-configure.log"
	cmake --build "$dir" -j2 >"$out/$cfg-build.log" || {
		cat "$out/$cfg-build.log" >&2
		exit 1
	}
	elf="$dir/cortex_m_kernel.elf"
	arm-none-eabi-size "$elf"
	sh tools/check-no-smp.sh arm-none-eabi-nm "$elf"
	st=0
	timeout 120 qemu-system-arm -M mps2-an385 -icount shift=0,align=off,sleep=off \
		-display none -monitor none -serial stdio \
		-semihosting-config enable=on,target=native -kernel "$elf" \
		>"$out/$cfg.out" 2>"$out/$cfg.err" || st=$?
	grep -E '^(thread|kernel|bench|result)' "$out/$cfg.out" || true
	if [ "$st" -ne 0 ]; then
		echo "check-qemu: -$cfg: the port exited with status $st" >&2
		cat "$out/$cfg.err" >&2
		failed=1
		continue
	fi
	awk -F, -v max="$EVENT_MAX_NS" '$1 == "kernel" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["irq_max_ns"] > max || v["switch_max_ns"] > max) {
			print "check-qemu: an event took longer than " max " ns" > "/dev/stderr"; exit 1 }
		found = 1 }
		END { exit !found }' "$out/$cfg.out" || failed=1
	awk -F, -v tol="$TOL_NS" -f tools/qemu-compare.awk "$out/dlsim-jobs.csv" "$out/$cfg.out" ||
		failed=1
	echo "library footprint, -$cfg (module .text+.rodata .data .bss, bytes):"
	awk -f tools/size-modules.awk "$dir/cortex_m_kernel.map" | sed 's/^/  /'
done
if [ "$failed" -ne 0 ]; then
	echo "check-qemu: FAILED (outputs in $out)" >&2
	exit 1
fi
echo "check-qemu: the port schedules as dlsim predicts, -Os and -O2"
