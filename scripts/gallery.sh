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

# The examples beside the scratch folder, so reports show relative paths.
ln -s "$root/examples" "$tmp/examples"
K=examples/kernels/sm_80
T="--grid 8,4 --block 32,8 --arg f32[32768] --arg f32[32768]:rand=6 --arg i32=256 --arg i32=128 -j 1"

# name | window height | warpmem arguments
cases="run_transpose_tiled|1500|run $K/transpose.ptx --kernel transpose_tiled $T
run_transpose_tiled_source|3300|run $K/transpose.ptx --kernel transpose_tiled $T
run_transpose_naive|1500|run $K/transpose.ptx --kernel transpose_naive --grid 8,16 --block 32,8 --arg f32[32768] --arg f32[32768]:rand=6 --arg i32=256 --arg i32=128 -j 1
run_misaligned_copy|1500|run $K/misaligned_copy.ptx --grid 16 --block 256 --arg f32[4096] --arg f32[4097]:rand=4 --arg i32=4096 --arg i32=1
expr_transpose_tiled|1800|expr -D N=64 -f examples/expr/transpose_tiled.expr
shared_stride32|2300|shared --stride 32
global_stride32|2000|global --stride 32
global_misaligned|1900|global --base 1
global_vector|1900|global"

echo "$cases" | while IFS='|' read -r name height args; do
    # Run inside the scratch folder so the report shows a relative path.
    (cd "$tmp" && "$warpmem" $args --color never --html "$name.html" \
        >/dev/null)
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1280,"$height" --screenshot="$out/$name.png" \
        "file://$tmp/$name.html" >/dev/null 2>&1
    echo "gallery: docs/gallery/$name.png  (warpmem $args --html ...)"
done
