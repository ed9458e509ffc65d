#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build and test d3d12xs.
#
# Only packages that are missing are installed. As root this runs
# `apt-get update` once and then `apt-get install` for the missing ones;
# as any other user it prints what is missing and fails.
#
# Environment:
#   D3D12XS_SKIP_DEPS=1   do nothing (for machines set up by other means)
set -euo pipefail

packages=(
    gcc
    g++
    clang
    make
    cmake
    pkg-config
    libvulkan-dev
    mesa-vulkan-drivers      # lavapipe, the CPU Vulkan driver the tests run on
    directx-headers-dev      # Microsoft's D3D12 IDL and headers: input of tools/gen_d3d12_headers.py, reference of the conformance and d3dx12 tests
    python3                  # tools/gen_d3d12_headers.py --check (a test); the build itself needs no Python
    libshaderc-dev           # shaderc_combined.a
    glslang-dev              # static glslang + CMake configs (linked with shaderc)
    glslang-tools            # glslangValidator: compiles the runtime's own GLSL shaders (src/sync/shaders) at build time
    spirv-tools              # also the static SPIRV-Tools libs shaderc needs
    vulkan-validationlayers  # used by the tests (D3D12XS_DEBUG=1)
    vulkan-tools             # vulkaninfo
    libclang-rt-14-dev       # ASan/UBSan/libFuzzer runtimes for clang 14
    libvkd3d-dev             # Wine's vkd3d 1.2 (D3D12CreateDevice in its vkd3d-utils): bench_pipeline's peer; the build does not need it
)

if [[ "${D3D12XS_SKIP_DEPS:-0}" == 1 ]]; then
    echo "install-deps: D3D12XS_SKIP_DEPS=1, not checking packages"
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: dpkg-query not found; this script only knows Debian 12." >&2
    echo "install-deps: make sure the equivalents of these are installed:" >&2
    echo "    ${packages[*]}" >&2
    exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing+=("$pkg") ;;
    esac
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

echo "install-deps: missing packages: ${missing[*]}"

if [[ "$(id -u)" -ne 0 ]]; then
    echo "install-deps: not root; install them with:" >&2
    echo "    sudo apt-get update && sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: done"
