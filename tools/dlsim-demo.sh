#!/bin/sh
# The main job of `make demo`: simulate the bundled mobile workload (with
# and without deadline reservations for its compute threads) on the real
# library, and leave a Gantt chart and a trace beside the build.
set -eu
build=${1:-build/release}
out="$build/demo"
mkdir -p "$out"
for w in mobile mobile_dl; do
	echo "== dlsim examples/dlsim/$w.json"
	"$build/tools/dlsim/dlsim" "examples/dlsim/$w.json" \
		--svg "$out/$w.svg" --trace "$out/$w.trace.json" --json "$out/$w.stats.json"
	echo
done
echo "Gantt charts:  $out/mobile.svg  $out/mobile_dl.svg"
echo "Traces:        $out/mobile.trace.json  $out/mobile_dl.trace.json (open in ui.perfetto.dev)"
echo "Statistics:    $out/mobile.stats.json  $out/mobile_dl.stats.json"
echo "Benchmarks:    make bench"
