#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build and test d3d12xs.
#
# Only packages that are missing are installed. As root this runs
# `apt-get update` once and then `apt-get install` for the missing ones;
# as any other user it prints what is missing and fails.
#
# Lavapipe comes from Debian's bookworm-backports (Mesa 25): Debian 12's own
# Mesa 22.3 has no VK_EXT_descriptor_buffer, VK_EXT_mutable_descriptor_type or
# VK_EXT_device_generated_commands. Microsoft's D3D12 IDL and headers come from
# there too (directx-headers-dev 1.614, the Agility SDK the headers are generated
# from; Debian 12 has 1.606). The backports source is added where it is missing,
# and a machine with an older mesa-vulkan-drivers or directx-headers-dev counts
# as missing it.
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
    python3                  # tools/gen_d3d12_headers.py --check (a test); the build itself needs no Python
    libshaderc-dev           # shaderc_combined.a
    glslang-dev              # static glslang + CMake configs (linked with shaderc)
    glslang-tools            # glslangValidator: compiles the runtime's own GLSL shaders (src/sync/shaders) at build time
    spirv-tools              # also the static SPIRV-Tools libs shaderc needs
    vulkan-validationlayers  # used by the tests (D3D12XS_DEBUG=1)
    vulkan-tools             # vulkaninfo
    libclang-rt-14-dev       # ASan/UBSan/libFuzzer runtimes for clang 14
    libvkd3d-dev             # Wine's vkd3d 1.2: libvkd3d-shader translates DXBC shaders; vkd3d-utils is the benchmarks' peer
    libpng-dev               # examples/postprocess writes its image as a PNG
    chromium                 # the trace viewer's browser test (tests/viewer), headless
    fonts-dejavu-core        # its text in the screenshot
    nodejs                   # runs that test (puppeteer-core, from the npm registry)
    npm                      # (a node and npm on the PATH from elsewhere count too)
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
    # Node.js from another source (NodeSource, nvm) brings its own npm: Debian's would conflict.
    if [[ "$pkg" == nodejs || "$pkg" == npm ]] && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
        continue
    fi
    status=$(dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing+=("$pkg") ;;
    esac
done

# lavapipe, the CPU Vulkan driver the tests run on: Mesa 25 or newer, from bookworm-backports.
mesa_major=25
mesa_version=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
mesa_status=$(dpkg-query -W -f='${Status}' mesa-vulkan-drivers 2>/dev/null || true)
need_mesa=1
if [[ "$mesa_status" == *"install ok installed"* && "${mesa_version%%.*}" =~ ^[0-9]+$ ]] && (( ${mesa_version%%.*} >= mesa_major )); then
    need_mesa=0
fi

# Microsoft's D3D12 IDL and headers: input of tools/gen_d3d12_headers.py (its IDL_VERSION),
# reference of the conformance and d3dx12 tests. 1.614 or newer, from bookworm-backports.
dxh_minimum=1.614
dxh_version=$(dpkg-query -W -f='${Version}' directx-headers-dev 2>/dev/null || true)
dxh_status=$(dpkg-query -W -f='${Status}' directx-headers-dev 2>/dev/null || true)
need_dxh=1
if [[ "$dxh_status" == *"install ok installed"* ]] && dpkg --compare-versions "$dxh_version" ge "$dxh_minimum"; then
    need_dxh=0
fi

if [[ ${#missing[@]} -eq 0 && $need_mesa -eq 0 && $need_dxh -eq 0 ]]; then
    echo "install-deps: all $((${#packages[@]} + 2)) packages present (mesa-vulkan-drivers $mesa_version, directx-headers-dev $dxh_version)"
    exit 0
fi

[[ ${#missing[@]} -gt 0 ]] && echo "install-deps: missing packages: ${missing[*]}"
[[ $need_mesa -eq 1 ]] && echo "install-deps: mesa-vulkan-drivers ${mesa_version:-(none)} is older than $mesa_major: installing it from bookworm-backports"
[[ $need_dxh -eq 1 ]] && echo "install-deps: directx-headers-dev ${dxh_version:-(none)} is older than $dxh_minimum: installing it from bookworm-backports"

backports_listed() {
    grep -rqsE '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/
}

if [[ "$(id -u)" -ne 0 ]]; then
    echo "install-deps: not root; install them with:" >&2
    backports_listed || echo "    (add bookworm-backports to the apt sources first, see https://backports.debian.org/Instructions/)" >&2
    [[ ${#missing[@]} -gt 0 ]] && echo "    sudo apt-get update && sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    [[ $need_mesa -eq 1 ]] && echo "    sudo apt-get install --no-install-recommends -t bookworm-backports mesa-vulkan-drivers" >&2
    [[ $need_dxh -eq 1 ]] && echo "    sudo apt-get install --no-install-recommends -t bookworm-backports directx-headers-dev" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [[ $need_mesa -eq 1 || $need_dxh -eq 1 ]] && ! backports_listed; then
    cat > /etc/apt/sources.list.d/bookworm-backports.sources <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    echo "install-deps: added /etc/apt/sources.list.d/bookworm-backports.sources"
fi
apt-get update
[[ ${#missing[@]} -gt 0 ]] && apt-get install -y --no-install-recommends "${missing[@]}"
[[ $need_mesa -eq 1 ]] && apt-get install -y --no-install-recommends -t bookworm-backports mesa-vulkan-drivers
[[ $need_dxh -eq 1 ]] && apt-get install -y --no-install-recommends -t bookworm-backports directx-headers-dev
mesa_version=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)
if ! (( ${mesa_version%%.*} >= mesa_major )); then
    echo "install-deps: mesa-vulkan-drivers is $mesa_version after installing, not $mesa_major or newer" >&2
    exit 1
fi
dxh_version=$(dpkg-query -W -f='${Version}' directx-headers-dev)
if ! dpkg --compare-versions "$dxh_version" ge "$dxh_minimum"; then
    echo "install-deps: directx-headers-dev is $dxh_version after installing, not $dxh_minimum or newer" >&2
    exit 1
fi
echo "install-deps: done (mesa-vulkan-drivers $mesa_version, directx-headers-dev $dxh_version)"
