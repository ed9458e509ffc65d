#!/usr/bin/env bash
# Makes a copy of tools/trace-viewer.html that carries a trace file and opens it at once:
#   tools/trace-to-html.sh TRACE.json OUT.html
# The page is self-contained (no network), so OUT.html can be opened anywhere, mailed, archived.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 TRACE.json OUT.html" >&2; exit 2; }
viewer="$(dirname "$0")/trace-viewer.html"
marker='<script type="application/json" id="embedded-trace"></script>'
grep -qF "$marker" "$viewer" || { echo "$0: $viewer has no embedded-trace element" >&2; exit 1; }
name=$(basename "$1")
{
    sed -n "/$(printf '%s' "$marker" | sed 's/[][\/.*^$]/\\&/g')/q;p" "$viewer"
    printf '<script type="application/json" id="embedded-trace" data-name="%s">' "$name"
    # "</" cannot appear inside a script element: JSON allows "<\/" for it.
    sed 's#</#<\\/#g' "$1"
    printf '</script>\n'
    sed -n "/$(printf '%s' "$marker" | sed 's/[][\/.*^$]/\\&/g')/,\$p" "$viewer" | tail -n +2
} > "$2"
