#!/usr/bin/env bash
# The reliability loop: runs the suite's queue, fence, lifetime, hang and DispatchX scenarios
# LOOPS times in a build tree while a second, CPU-heavy process keeps every core busy, and
# counts the loops in which every test passed. A false hang (DEVICE_HUNG where work was only
# slow) or a race that a loaded machine exposes fails a loop.
#
#   scripts/stress-loop.sh [BUILD_DIR] [LOOPS]      (defaults: build, 50)
#   make stress                                     (the gcc build; STRESS_BUILD=build-asan for ASan)
#
# The tests run with the same environment as `make test` (validation layer on; ASAN_OPTIONS
# and the leak suppressions for an ASan tree). Output: one line per loop, then
# "N passed, M failed" (loops), and the logs of failed loops under BUILD_DIR/stress/.
set -euo pipefail

build=${1:-build}
loops=${2:-50}
pattern=${STRESS_TESTS:-'^(queue|fence|fence_values|lifetime|hang|scheduler|stress|query|query/.*|cross_queue|cross_queue/.*|console_sync|console_sync/.*|command_list|command_list/split_lists|dispatchx|dispatchx/split_lists|ordered_append|ordered_append/split_lists)$'}
here=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -d "$build" ]; then
    echo "stress-loop: no build tree '$build' (run make build, or make test-asan for build-asan)" >&2
    exit 2
fi
mkdir -p "$build/stress"

# The second process: one busy loop per core, niced like an ordinary competing job.
burners=()
for _ in $(seq "$(nproc)"); do
    ( while :; do :; done ) &
    burners+=($!)
done
trap 'kill "${burners[@]}" 2>/dev/null || true' EXIT

export D3D12XS_DEBUG=${D3D12XS_DEBUG:-1} D3D12XS_LOG=${D3D12XS_LOG:-warn}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

clean=0 failed=0
for loop in $(seq "$loops"); do
    log="$build/stress/loop-$loop.log"
    start=$(date +%s)
    if (cd "$build" && ctest -R "$pattern" -j 2 --output-on-failure) >"$log" 2>&1; then
        clean=$((clean + 1))
        summary=$(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1)
        echo "loop $loop: clean ($summary, $(( $(date +%s) - start )) s)"
        rm -f "$log"
    else
        failed=$((failed + 1))
        echo "loop $loop: FAILED: $(grep -E '\(Failed\)|\(Timeout\)|Exception|SEGFAULT' "$log" | tr -s ' ' | tr '\n' ';') (log: $log)"
    fi
done
echo "$clean passed, $failed failed"
[ "$failed" -eq 0 ]
