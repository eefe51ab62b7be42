#!/bin/sh
# Regenerate docs/gallery/*.png: the HTML report of the lesson's cases,
# rendered by headless Chromium at 1280 px.
# Usage: scripts/gallery.sh [BUILD_DIR]   (default: build; must hold a
# built warpmem).  Needs chromium (Debian: apt-get install chromium).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
warpmem=$build/warpmem
out=$root/docs/gallery
[ -x "$warpmem" ] || { echo "gallery: no $warpmem (build first)" >&2; exit 1; }
browser=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "gallery: chromium not found" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# name | window height | warpmem arguments
cases="shared_stride32|2150|shared --stride 32
global_stride32|1850|global --stride 32
global_misaligned|1750|global --base 1
global_vector|1750|global"

echo "$cases" | while IFS='|' read -r name height args; do
    # Run inside the scratch folder so the report shows a relative path.
    (cd "$tmp" && "$warpmem" $args --color never --html "$name.html" \
        >/dev/null)
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1280,"$height" --screenshot="$out/$name.png" \
        "file://$tmp/$name.html" >/dev/null 2>&1
    echo "gallery: docs/gallery/$name.png  (warpmem $args --html ...)"
done
