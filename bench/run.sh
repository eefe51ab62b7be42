#!/usr/bin/env bash
# bench/run.sh BUILD_DIR [REPEATS]: run every benchmark of the build, each
# printing its ratios against the baseline it runs in the same process
# (docs/performance.md says what each measures), then the CPU time of
# `warpmem expr` on every example program.  Prints the machine and its
# load first, since figures are only comparable on the same ones.
set -euo pipefail
build=${1:-build}
reps=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
for b in bench_model bench_expr bench_advise bench_ptx bench_check bench_kernels warpmem; do
    if [ ! -x "$build/$b" ]; then
        echo "bench/run.sh: $build/$b is missing (run make first)" >&2
        exit 1
    fi
done
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
echo "== bench_kernels $reps =="; "$build/bench_kernels" "$reps"
echo; echo "== bench_model 0.5 =="; "$build/bench_model" 0.5
echo; echo "== bench_expr $reps =="; "$build/bench_expr" "$reps"
# the numpy model of the transposed copy: the baseline of `warpmem expr`
py=${PYTHON:-python3}
echo; echo "== warpmem expr vs a numpy model (bench/expr_vs_numpy.py) =="
if "$py" -c 'import numpy' 2>/dev/null; then
    "$py" "$here/bench/expr_vs_numpy.py" "$build/warpmem" "$reps"
else
    echo "skipped: $py has no numpy (set PYTHON=...)"
fi
echo; echo "== bench_advise =="; "$build/bench_advise"
echo; echo "== bench_ptx $reps =="; "$build/bench_ptx" "$reps"
echo; echo "== bench_check $reps =="; "$build/bench_check" "$reps"
# warpmem expr on each example: user + system CPU seconds, median of reps
echo; echo "== warpmem expr, examples/expr (target < 0.1 s CPU each) =="
echo "| program | CPU s (median of $reps) | target |"
echo "|---|---|---|"
for f in "$here"/examples/expr/*.expr; do
    ts=()
    for ((r = 0; r < reps; r++)); do
        t=$( { /usr/bin/env time -f '%U %S' "$build/warpmem" expr -f "$f" \
                 --format csv > /dev/null; } 2>&1 | tail -1 )
        ts+=("$(echo "$t" | awk '{ printf "%.2f", $1 + $2 }')")
    done
    med=$(printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p")
    ok=$(awk -v t="$med" 'BEGIN { print (t < 0.1) ? "met" : "not met" }')
    echo "| $(basename "$f") | $med | $ok |"
done
