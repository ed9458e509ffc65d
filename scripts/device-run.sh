#!/usr/bin/env bash
# Runs the suite, the demo and the benchmark on the GPU machine (../shared/DEVICE.md) from a
# slim release tree built here: build-h200/new (library, helper, tests, bench, demo) and,
# optionally, build-h200/old (a previous library and bench, for before/after figures).
# Usage there: bash scripts/device-run.sh [tests|bench|all|sync|launch|final|pipeline|binding|draw|indirect|trace|texture|confirm] (confirm: a short
# run of the newest GPU-facing tests, see below; sync: the console synchronisation
# tests, demo and benchmarks only; launch: bench_launch and bench_copy from build-h200/i8, see
# docs/benchmarks.md; pipeline: bench_pipeline of new and old; binding: bench_binding of new and old; draw: bench_draw of new and old;
# indirect: bench_indirect of new (twice) and old where it has one; trace: issue 19's trace figures;
# texture: bench_texture and bench_sample of new, twice each, which bench and all run too); summary.txt, bench.txt,
# pipeline.txt, binding.txt, draw.txt, indirect.txt, launch.txt, copy.txt, texture.txt and logs.tar.gz go to $OUT (the device tool brings
# back at most 8 files; each mode writes fewer). tests also keeps progress.txt (the counts so far) and,
# with DEVICE_VALIDATION=1, runs under the validation layer (below); DEVICE_FROM=<name> starts it at
# that test, to finish a run a call's time limit cut off.
set -u
what=${1:-all}
out=${OUT:-/tmp/out}
logs=/tmp/device-logs
mkdir -p "$out" "$logs"
for f in .gl/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export D3D12XS_DEBUG=0 D3D12XS_LOG=warn
root=$PWD/build-h200
# DEVICE_VALIDATION=1: the suite with the Khronos validation layer on, from build-h200/layer.tar.xz
# (this machine's layer and manifest, packed by scripts/device-tree.sh --layer; the GPU machine
# has none of its own). A counted validation message fails a test as it does here.
if [ "${DEVICE_VALIDATION:-0}" = 1 ]; then
    mkdir -p /tmp/device-layer && tar xJf "$root/layer.tar.xz" -C /tmp/device-layer \
        || { echo "DEVICE_VALIDATION=1 but no build-h200/layer.tar.xz" >> "$out/summary.txt"; exit 1; }
    export VK_LAYER_PATH=/tmp/device-layer/layer LD_LIBRARY_PATH=/tmp/device-layer/layer${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export D3D12XS_DEBUG=1
    echo "validation layer on" >> "$out/summary.txt"
fi
# CPU figures of one recording thread are steadier on one core: unpinned, the H100 host's
# per-call figures wander by 10% between runs as the thread migrates (docs/benchmarks.md).
pin=""
command -v taskset > /dev/null && pin="taskset -c 2"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1

if [ "$what" = tests ] || [ "$what" = all ]; then
    pass=0; fail=0
    # DEVICE_FROM=<name>: start at that test (a test program's name, test_X.split or shader/X.shader_test),
    # for a run that a call's time limit cut off (progress.txt names the last one run)
    from=${DEVICE_FROM:-}
    skipping() { [ -n "$from" ] && { [ "$1" = "$from" ] && from="" ; [ -n "$from" ]; }; }
    run() { # name, then the command
        local name=$1; shift
        skipping "$name" && return
        if timeout 300 env "$@" > "$logs/log.$name" 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED $name" >> "$out/summary.txt"; fi
        # where the run stands, should the call's time limit end it before the last line below
        echo "$pass passed, $fail failed, last: $name" > "$out/progress.txt"
    }
    export LD_LIBRARY_PATH=$root/new${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for t in "$root"/new/tests/test_*; do run "$(basename "$t")" "$t"; done
    for t in compute copy query command_list cross_queue descriptors dispatchx ordered_append; do
        run "test_$t.split" D3D12XS_SPLIT_LISTS=1 "$root/new/tests/test_$t"
    done
    for f in tests/shaders/*.shader_test; do
        skipping "shader/$(basename "$f")" && continue
        timeout 300 "$root/new/tests/shader_runner" "$f" > "$logs/log.shader.$(basename "$f")" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then pass=$((pass + 1)); elif [ $rc -eq 77 ]; then :; else fail=$((fail + 1)); echo "FAILED shader $f" >> "$out/summary.txt"; fi
        # The same shaders with the console's memory-based root ABI (FORCE_MEMORY_BASED_ABI).
        D3D12XS_TEST_ROOT_SIGNATURE_FLAGS=0x01000000 D3D12XS_NO_VECTORIZE=1 timeout 300 "$root/new/tests/shader_runner" "$f" > "$logs/log.shader_abi.$(basename "$f")" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then pass=$((pass + 1)); elif [ $rc -eq 77 ]; then :; else fail=$((fail + 1)); echo "FAILED shader (memory ABI) $f" >> "$out/summary.txt"; fi
        echo "$pass passed, $fail failed, last: $f (both root ABIs)" > "$out/progress.txt"
    done
    run demo "$root/new/examples/demo"
    run console_sync "$root/new/examples/console_sync"
    grep -h "handshake\|post-process" "$logs/log.console_sync" >> "$out/summary.txt" 2>/dev/null
    echo "tests: $pass passed, $fail failed" >> "$out/summary.txt"
    grep -h "hops," "$logs"/log.test_stress >> "$out/summary.txt" 2>/dev/null
fi
if [ "$what" = bench ] || [ "$what" = all ] || [ "$what" = sync ] || [ "$what" = final ]; then
    # (d) of bench_sync: CUDA's stream value write/wait, built here where the toolkit is.
    nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
    if [ -n "$nvcc" ] && [ ! -x "$root/new/bench/cuda_ping_pong" ]; then
        "$nvcc" -O2 -o "$root/new/bench/cuda_ping_pong" bench/cuda/ping_pong.c -lcuda >> "$out/bench.txt" 2>&1
    fi
fi
if [ "$what" = sync ]; then
    export LD_LIBRARY_PATH=$root/new${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for t in console_sync scheduler cross_queue stress; do
        timeout 300 "$root/new/tests/test_$t" > "$logs/log.$t" 2>&1; echo "test_$t rc=$?" >> "$out/summary.txt"
        grep -h "handshake\|hops," "$logs/log.$t" >> "$out/summary.txt"
    done
    timeout 300 "$root/new/examples/console_sync" > "$logs/log.console_demo" 2>&1; echo "console demo rc=$?" >> "$out/summary.txt"
    grep -h "handshake\|post-process" "$logs/log.console_demo" >> "$out/summary.txt"
    timeout 300 "$root/new/bench/bench_sync" >> "$out/bench.txt" 2>&1
    timeout 300 "$root/new/bench/bench_compute" gpu_bop cpu_bop cpu_wait >> "$out/bench.txt" 2>&1
fi
if [ "$what" = final ]; then
    # One pass over what a session's closing note reports: the console tests, every benchmark.
    export LD_LIBRARY_PATH=$root/new${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for t in console_sync ordered_append dispatchx dispatchx_threads heap_indexing root_signature_flags scheduler cross_queue; do
        timeout 120 "$root/new/tests/test_$t" > "$logs/log.$t" 2>&1; echo "test_$t rc=$? $(tail -1 "$logs/log.$t")" >> "$out/summary.txt"
    done
    grep -h "handshake" "$logs/log.console_sync" >> "$out/summary.txt"
    timeout 120 "$root/new/examples/console_sync" > "$logs/log.console_demo" 2>&1; echo "console demo rc=$?" >> "$out/summary.txt"
    grep -h "handshake\|post-process" "$logs/log.console_demo" >> "$out/summary.txt"
    timeout 120 "$root/new/bench/bench_sync" > "$out/sync.txt" 2>&1
    echo "== D3D12XS_GPU_WAITS=spin" >> "$out/sync.txt"
    D3D12XS_GPU_WAITS=spin timeout 120 "$root/new/bench/bench_sync" >> "$out/sync.txt" 2>&1
    timeout 200 "$root/new/bench/bench_compute" > "$out/bench.txt" 2>&1
    timeout 120 "$root/new/bench/bench_launch" > "$out/launch.txt" 2>&1; echo "bench_launch rc=$?" >> "$out/summary.txt"
    timeout 120 "$root/new/bench/bench_copy" > "$out/copy.txt" 2>&1; echo "bench_copy rc=$?" >> "$out/summary.txt"
    timeout 60 "$root/new/bench/bench_root_abi" > "$out/root_abi.txt" 2>&1; echo "bench_root_abi rc=$?" >> "$out/summary.txt"
fi
if [ "$what" = trace ]; then
    # Issue 19's figures: the trace and hang tests, the handshake demo timed with no capture and
    # with one (new and, where build-h200/old exists, the library before tracing), a traced
    # demo's file for the viewer test, and bench_compute's CPU and GPU figures, new and old
    # (gpu_bop minus gpu is what a breadcrumb write after every command would cost).
    export LD_LIBRARY_PATH=$root/new${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for t in trace hang console_sync scheduler fence_values; do
        timeout 120 "$root/new/tests/test_$t" > "$logs/log.$t" 2>&1; echo "test_$t rc=$? $(tail -1 "$logs/log.$t")" >> "$out/summary.txt"
    done
    for rep in 1 2 3; do
        for side in new old; do
            [ -x "$root/$side/examples/console_sync" ] || continue
            echo "$side no capture: $(LD_LIBRARY_PATH=$root/$side timeout 120 "$root/$side/examples/console_sync" 2>&1 | grep handshake)" >> "$out/trace.txt"
        done
        echo "new capture: $(D3D12XS_TRACE=/tmp/cs.json timeout 120 "$root/new/examples/console_sync" 2>&1 | grep handshake) $(stat -c %s /tmp/cs.json) bytes" >> "$out/trace.txt"
    done
    D3D12XS_TRACE=$out/console_sync.h200.trace.json timeout 120 "$root/new/examples/console_sync" rounds=50 > "$logs/log.traced_demo" 2>&1
    echo "traced demo rc=$?" >> "$out/summary.txt"
    for side in new old new old; do
        [ -x "$root/$side/bench/bench_compute" ] || continue
        echo "== $side" >> "$out/bench.txt"
        LD_LIBRARY_PATH=$root/$side timeout 200 "$root/$side/bench/bench_compute" cpu gpu gpu_bop cpu_bop >> "$out/bench.txt" 2>&1
    done
    cat "$out/trace.txt"
fi
if [ "$what" = launch ]; then
    export LD_LIBRARY_PATH=$root/i8
    timeout 300 "$root/i8/bench/bench_launch" > "$out/launch.txt" 2>&1
    echo "bench_launch rc=$?" >> "$out/summary.txt"
    timeout 300 "$root/i8/bench/bench_copy" > "$out/copy.txt" 2>&1
    echo "bench_copy rc=$?" >> "$out/summary.txt"
    timeout 300 "$root/i8/bench/bench_copy" groups=1056 >> "$out/copy.txt" 2>&1
    echo "bench_copy groups=1056 rc=$?" >> "$out/summary.txt"
    cat "$out/launch.txt" "$out/copy.txt"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
    for side in new old new old; do
        [ -x "$root/$side/bench/bench_compute" ] || continue
        echo "== $side" >> "$out/bench.txt"
        LD_LIBRARY_PATH=$root/$side timeout 300 "$root/$side/bench/bench_compute" >> "$out/bench.txt" 2>&1
    done
    if [ -x "$root/new/bench/bench_sync" ]; then
        LD_LIBRARY_PATH=$root/new timeout 300 "$root/new/bench/bench_sync" >> "$out/bench.txt" 2>&1
    fi
fi
if [ "$what" = bench ] || [ "$what" = all ] || [ "$what" = texture ]; then
    # Texture copies (CopyTextureRegion) next to raw Vulkan, twice, each with its TSV.
    if [ -x "$root/new/bench/bench_texture" ]; then
        for rep in 1 2; do
            echo "== new, run $rep" >> "$out/texture.txt"
            LD_LIBRARY_PATH=$root/new D3D12XS_BENCH_OUT=/tmp/texture.$rep.tsv timeout 200 "$root/new/bench/bench_texture" >> "$out/texture.txt" 2>&1
            echo "bench_texture (run $rep) rc=$?" >> "$out/summary.txt"
            cat /tmp/texture.$rep.tsv >> "$out/texture.txt" 2>/dev/null
        done
    else
        echo "bench_texture: not in $root/new/bench (scripts/device-tree.sh copies it)" >> "$out/summary.txt"
    fi
    # A compute kernel sampling a texture (bilinear) into a UAV texture next to raw Vulkan, the same way.
    if [ -x "$root/new/bench/bench_sample" ]; then
        for rep in 1 2; do
            echo "== new, bench_sample run $rep" >> "$out/texture.txt"
            LD_LIBRARY_PATH=$root/new D3D12XS_BENCH_OUT=/tmp/sample.$rep.tsv timeout 200 "$root/new/bench/bench_sample" >> "$out/texture.txt" 2>&1
            echo "bench_sample (run $rep) rc=$?" >> "$out/summary.txt"
            cat /tmp/sample.$rep.tsv >> "$out/texture.txt" 2>/dev/null
        done
    else
        echo "bench_sample: not in $root/new/bench (scripts/device-tree.sh copies it)" >> "$out/summary.txt"
    fi
    cat "$out/texture.txt" 2>/dev/null
fi
if [ "$what" = bench ] || [ "$what" = all ] || [ "$what" = pipeline ]; then
    # Pipeline creation next to raw Vulkan and Wine's vkd3d (its libraries come from .gl/).
    for side in new old; do
        [ -x "$root/$side/bench/bench_pipeline" ] || continue
        echo "== $side" >> "$out/pipeline.txt"
        LD_LIBRARY_PATH=$root/$side timeout 200 "$root/$side/bench/bench_pipeline" >> "$out/pipeline.txt" 2>&1
    done
    cat "$out/pipeline.txt"
fi
if [ "$what" = binding ]; then
    # Binding costs next to raw Vulkan and Wine's vkd3d (bench_binding_vkd3d; its libraries come from .gl/).
    for side in new old; do
        [ -x "$root/$side/bench/bench_binding" ] || continue
        echo "== $side" >> "$out/binding.txt"
        LD_LIBRARY_PATH=$root/$side D3D12XS_BENCH_OUT=/tmp/binding.$side.tsv timeout 300 $pin "$root/$side/bench/bench_binding" >> "$out/binding.txt" 2>&1
        echo "bench_binding ($side) rc=$?" >> "$out/summary.txt"
        cat /tmp/binding.$side.tsv >> "$out/binding.txt" 2>/dev/null
    done
    cat "$out/binding.txt"
fi
if [ "$what" = draw ]; then
    # Draw costs (CPU recording, GPU time in GENERAL and attachment layouts, graphics pipeline
    # creation) next to raw Vulkan and Wine's vkd3d (bench_draw_vkd3d; its libraries come from .gl/).
    for side in new old; do
        [ -x "$root/$side/bench/bench_draw" ] || continue
        echo "== $side" >> "$out/draw.txt"
        LD_LIBRARY_PATH=$root/$side D3D12XS_BENCH_OUT=/tmp/draw.$side.tsv timeout 300 $pin "$root/$side/bench/bench_draw" >> "$out/draw.txt" 2>&1
        echo "bench_draw ($side) rc=$?" >> "$out/summary.txt"
        cat /tmp/draw.$side.tsv >> "$out/draw.txt" 2>/dev/null
    done
    cat "$out/draw.txt"
fi
if [ "$what" = indirect ]; then
    # ExecuteIndirect with per-command root constants (generated commands) next to raw Vulkan's
    # generated commands, multi-draw indirect and per-command indirect dispatches: GPU time of 10,000
    # draws and dispatches, CPU cost of recording one call (docs/benchmarks.md). Pinned like draw:
    # the CPU figures are one recording thread's.
    for side in new new old; do
        [ -x "$root/$side/bench/bench_indirect" ] || continue
        echo "== $side" >> "$out/indirect.txt"
        LD_LIBRARY_PATH=$root/$side D3D12XS_BENCH_OUT=/tmp/indirect.$side.tsv timeout 300 $pin "$root/$side/bench/bench_indirect" >> "$out/indirect.txt" 2>&1
        echo "bench_indirect ($side) rc=$?" >> "$out/summary.txt"
        cat /tmp/indirect.$side.tsv >> "$out/indirect.txt" 2>/dev/null
    done
    cat "$out/indirect.txt"
fi
if [ "$what" = confirm ]; then
    # A short run for a session with little device time: the tests of the newest GPU-facing work
    # (ExecuteIndirect on both paths, view instancing, queries, clears), the GPU culling example on
    # both paths, and bench_draw's CPU figures where the tree has it. Each test at most 60 s.
    export LD_LIBRARY_PATH=$root/new${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for t in indirect_state indirect indirect_root_views indirect_root_view_draws indirect_vertex_views indirect_pfp view_instancing view_locations \
            query clear_in_pass; do
        timeout 60 "$root/new/tests/test_$t" > "$logs/log.$t" 2>&1
        echo "test_$t rc=$? $(grep -h 'passed,' "$logs/log.$t" | tr '\n' ' ')" >> "$out/summary.txt"
        grep -h -i "device removed\|check failed" "$logs/log.$t" | head -3 >> "$out/summary.txt"
    done
    timeout 60 env D3D12XS_NO_GENERATED_COMMANDS=1 "$root/new/tests/test_view_locations" > "$logs/log.view_locations.own" 2>&1
    echo "test_view_locations (no generated commands) rc=$?" >> "$out/summary.txt"
    for mode in 0 1; do
        timeout 60 env D3D12XS_NO_GENERATED_COMMANDS=$mode "$root/new/examples/gpu_culling" /tmp/culling.png > "$logs/log.culling.$mode" 2>&1
        echo "gpu_culling (D3D12XS_NO_GENERATED_COMMANDS=$mode) rc=$? $(tail -1 "$logs/log.culling.$mode")" >> "$out/summary.txt"
    done
    if [ -x "$root/new/bench/bench_draw" ]; then
        timeout 150 $pin "$root/new/bench/bench_draw" cpu > "$out/draw.txt" 2>&1
        grep -E "^  [a-z_]+ +d3d12xs" "$out/draw.txt" >> "$out/summary.txt"
    fi
fi
tar -czf "$out/logs.tar.gz" -C "$logs" . 2>/dev/null
cat "$out/summary.txt" 2>/dev/null
grep -E "^==|CPU ns|GPU us|copy kernel|^\(|^device" "$out/bench.txt" 2>/dev/null
