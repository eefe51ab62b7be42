#!/usr/bin/env bash
# bench/run.sh BUILD_DIR [REPEATS]: run every benchmark of the build, each
# printing its ratios against the baseline it runs in the same process
# (docs/performance.md says what each measures).  Prints the machine and
# its load first, since figures are only comparable on the same ones.
set -euo pipefail
build=${1:-build}
reps=${2:-3}
for b in bench_model bench_expr bench_advise bench_ptx bench_check; do
    if [ ! -x "$build/$b" ]; then
        echo "bench/run.sh: $build/$b is missing (run make first)" >&2
        exit 1
    fi
done
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
echo "== bench_model $reps =="; "$build/bench_model" "$reps"
echo; echo "== bench_expr $reps =="; "$build/bench_expr" "$reps"
echo; echo "== bench_advise =="; "$build/bench_advise"
echo; echo "== bench_ptx $reps =="; "$build/bench_ptx" "$reps"
echo; echo "== bench_check $reps =="; "$build/bench_check" "$reps"
