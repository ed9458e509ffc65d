#!/usr/bin/env bash
# CTest's trace_viewer test: the console handshake demo writes its trace (through the library
# as built, sanitizers and validation included), tools/trace-to-html.sh makes the page that
# carries it, and the browser test (run.sh) opens both in headless Chromium.
#   tests/viewer/ctest.sh CONSOLE_SYNC OUT_DIR
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 CONSOLE_SYNC OUT_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$2
mkdir -p "$out"
# validation-clean too: the library logs a validation message as an error line
D3D12XS_TRACE="$out/console_sync.trace.json" "$1" 2> "$out/console_sync.log" || { cat "$out/console_sync.log" >&2; exit 1; }
if grep -q "d3d12xs:err" "$out/console_sync.log"; then
    echo "console_sync logged errors:" >&2
    cat "$out/console_sync.log" >&2
    exit 1
fi
bash "$here/../../tools/trace-to-html.sh" "$out/console_sync.trace.json" "$out/console_sync.trace.html"
exec bash "$here/run.sh" "$out/console_sync.trace.json" --screenshot "$out/trace-viewer.png" --embedded "$out/console_sync.trace.html"
