#!/bin/sh
# Render warpmem HTML reports with headless Chromium and check the PNGs.
# Usage: html_render.sh DIR FILE.html...   (files relative to DIR)
# Each FILE.html becomes DIR/FILE.png, 1280 px wide; the PNG must have the
# window's size and hold a real picture (more than 20 kB), and the page
# must log nothing to the browser console (no script error, no resource
# that failed to load; the log is DIR/FILE.console).  Exits 77 (a ctest
# skip) when no chromium is installed.
set -u
dir=$1
shift
browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        browser=$b
        break
    fi
done
if [ -z "$browser" ]; then
    echo "html_render: no chromium found; skipping (apt-get install chromium)"
    exit 77
fi
width=1280
height=2400
status=0
for f in "$@"; do
    png="$dir/${f%.html}.png"
    log="$dir/${f%.html}.console"
    rm -f "$png"
    # --no-sandbox: CI containers run as root, where the sandbox refuses.
    # --enable-logging=stderr writes console messages as "INFO:CONSOLE".
    timeout $((90 * ${WM_TEST_TIMEOUT_FACTOR:-4})) "$browser" --headless --no-sandbox --disable-gpu \
        --hide-scrollbars --window-size=$width,$height \
        --enable-logging=stderr --v=0 \
        --screenshot="$png" "file://$dir/$f" >/dev/null 2>"$log"
    if grep -q ':CONSOLE' "$log"; then
        echo "html_render: $f: the page logged to the console:"
        grep ':CONSOLE' "$log" | sed 's/^/    /'
        status=1
        continue
    fi
    if [ ! -s "$png" ]; then
        echo "html_render: $f: no screenshot"
        status=1
        continue
    fi
    # PNG header: 8-byte signature, IHDR length+type, then width, height.
    dims=$(od -An -tu1 -j16 -N8 "$png" | tr -s ' ' | sed 's/^ //')
    set -- $dims
    w=$(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 ))
    h=$(( ($5 << 24) + ($6 << 16) + ($7 << 8) + $8 ))
    bytes=$(wc -c < "$png")
    if [ "$w" -ne $width ] || [ "$h" -ne $height ] || [ "$bytes" -lt 20000 ]; then
        echo "html_render: $f: ${w}x${h}, $bytes bytes (want ${width}x${height}, > 20000)"
        status=1
    else
        echo "html_render: $f -> $png (${w}x${h}, $bytes bytes)"
    fi
done
exit $status
