#!/usr/bin/env bash
# Copies a release build (default build-rel) into the slim tree device-run.sh expects,
# build-h200/new, stripped so it fits the device tool's 64 MiB carry. The bench_* glob takes the vkd3d
# peers too (bench_pipeline_vkd3d, bench_binding_vkd3d, bench_draw_vkd3d), which bench_pipeline, bench_binding and bench_draw run from
# their own folder.
set -eu
# --layer: also pack this machine's Khronos validation layer (library and manifest) into
# build-h200/layer.tar.xz, for device-run.sh's DEVICE_VALIDATION=1 (about 4.5 MB packed).
if [ "${1:-}" = --layer ]; then
    shift
    rm -rf /tmp/device-layer-pack && mkdir -p /tmp/device-layer-pack/layer build-h200
    cp /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json \
        /tmp/device-layer-pack/layer/
    tar cJf build-h200/layer.tar.xz -C /tmp/device-layer-pack layer
fi
src=${1:-build-rel}
dst=build-h200/new
rm -rf "$dst" && mkdir -p "$dst/tests" "$dst/bench" "$dst/examples"
cp -a "$src"/libd3d12xs.so* "$src/d3d12xs-hlslc" "$src/d3d12xs-dxbc" "$dst/"
find "$src/tests" -maxdepth 1 -type f -executable \( -name 'test_*' -o -name shader_runner \) -exec cp {} "$dst/tests/" \;
find "$src/bench" -maxdepth 1 -type f -executable -name 'bench_*' -exec cp {} "$dst/bench/" \;
find "$src/examples" -maxdepth 1 -type f -executable -exec cp {} "$dst/examples/" \;
strip "$dst/d3d12xs-hlslc" "$dst/d3d12xs-dxbc" "$dst"/libd3d12xs.so.*.* "$dst"/tests/* "$dst"/bench/* "$dst"/examples/*
du -sh "$dst" .gl
