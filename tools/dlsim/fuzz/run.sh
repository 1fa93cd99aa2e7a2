#!/bin/sh
# Build the dlsim workload-reader fuzz target with clang and run it for a
# bounded time: tools/dlsim/fuzz/run.sh [SECONDS] (default 60).
# Builds in build/fuzz; new corpus entries go to build/fuzz/corpus so the
# checked-in seed corpus stays as it is. Exits non-zero on a finding.
set -eu
secs=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build="$root/build/fuzz"

CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DDLSCHED_FUZZ=ON -DDLSCHED_BUILD_TESTS=OFF -DDLSCHED_BUILD_BENCH=OFF \
    -DDLSCHED_BUILD_SHARED=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz_workload
mkdir -p "$build/corpus" "$build/artifacts"
cd "$build"
exec ./tools/dlsim/fuzz_workload -max_total_time="$secs" -max_len=8192 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/" -dict="$here/json.dict" \
    "$build/corpus" "$here/corpus" "$root/examples/dlsim"
