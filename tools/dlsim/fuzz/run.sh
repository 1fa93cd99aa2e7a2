#!/bin/sh
# Build a dlsim libFuzzer target with clang and run it for a bounded time:
#   tools/dlsim/fuzz/run.sh [SECONDS] [TARGET]
# SECONDS defaults to 60; TARGET is fuzz_workload (the reader, the default)
# or fuzz_sim (the simulator, with every validator, on what the reader
# accepts; the library is built with AddressSanitizer and UBSan for it).
# Builds in build/fuzz; new corpus entries go to build/fuzz/corpus (or
# corpus_sim) so the checked-in seed corpus stays as it is. Exits non-zero
# on a finding.
set -eu
secs=${1:-60}
target=${2:-fuzz_workload}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build="$root/build/fuzz"
case "$target" in
fuzz_workload) corpus="$build/corpus"; sanitize="" ;;
fuzz_sim) corpus="$build/corpus_sim"; sanitize="address,undefined" ;;
*) echo "run.sh: unknown target $target (fuzz_workload or fuzz_sim)" >&2; exit 64 ;;
esac

CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DDLSCHED_FUZZ=ON -DDLSCHED_BUILD_TESTS=OFF -DDLSCHED_BUILD_BENCH=OFF \
    -DDLSCHED_BUILD_SHARED=OFF -DDLSCHED_SANITIZE="$sanitize" >/dev/null
cmake --build "$build" -j2 --target "$target"
mkdir -p "$corpus" "$build/artifacts"
cd "$build"
exec ./tools/dlsim/"$target" -max_total_time="$secs" -max_len=8192 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/" -dict="$here/json.dict" \
    "$corpus" "$here/corpus" "$root/examples/dlsim"
