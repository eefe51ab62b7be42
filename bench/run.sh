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
for b in bench_model bench_expr bench_advise bench_ptx bench_check bench_cache bench_kernels warpmem; do
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
echo; echo "== bench_expr $reps (every example: closed form, per access, evaluation floor) =="
"$build/bench_expr" "$reps"
# the numpy model of the transposed copy: the baseline of `warpmem expr`
# (numpy from $PYTHON, else the venv `make python-test` makes, else python3)
py=python3
[ -x "$build/pyvenv/bin/python" ] && py=$build/pyvenv/bin/python
py=${PYTHON:-$py}
echo; echo "== warpmem expr vs a numpy model (bench/expr_vs_numpy.py) =="
if "$py" -c 'import numpy' 2>/dev/null; then
    "$py" "$here/bench/expr_vs_numpy.py" "$build/warpmem" "$reps"
else
    echo "skipped: $py has no numpy (set PYTHON=...)"
fi
echo; echo "== bench_advise =="; "$build/bench_advise"
echo; echo "== bench_ptx $reps =="; "$build/bench_ptx" "$reps"
echo; echo "== bench_check $reps =="; "$build/bench_check" "$reps"
echo; echo "== bench_cache $reps =="; "$build/bench_cache" "$reps"
# warpmem expr on each example as a user runs it, the whole process,
# alternated with the start-up floor (bench/expr_examples.py)
echo; echo "== warpmem expr, examples/expr, whole process (bench/expr_examples.py) =="
python3 "$here/bench/expr_examples.py" "$build/warpmem" "$reps"
