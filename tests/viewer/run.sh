#!/bin/sh
# Runs the real-browser test of tools/trace-viewer.html, installing what it needs first:
# Chromium, Node.js and npm (Debian packages, as root), and puppeteer-core (npm ci).
#   tests/viewer/run.sh [TRACE.json] [--screenshot PATH]
# Exit 0 passed, 1 failed, 77 skipped (something missing and not root to install it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

need=""
command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 || need="$need chromium"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "trace viewer test skipped: install$need (apt-get install -y$need)" >&2
        exit 77
    fi
    echo "installing$need" >&2
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086  # $need is a list of package names
    apt-get install -y $need >/dev/null || { apt-get update >/dev/null && apt-get install -y $need >/dev/null; }
fi
if [ -z "${CHROMIUM:-}" ]; then
    CHROMIUM=$(command -v chromium)
fi
export CHROMIUM

if [ ! -d "$here/node_modules/puppeteer-core" ]; then
    # Chromium comes from Debian; puppeteer-core downloads no browser of its own.
    (cd "$here" && npm ci --no-audit --no-fund)
fi
exec node "$here/test_viewer.mjs" "$@"
