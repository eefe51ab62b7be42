#!/usr/bin/env bash
# Run every libFuzzer harness of fuzz/ for SECONDS each (default 5) on its
# committed corpus (fuzz/corpus/NAME, read only) plus a work corpus in
# BUILD/fuzz-corpus/NAME that keeps what the runs find.  Crashes are written
# to BUILD/fuzz-crashes/; the script exits nonzero if any harness fails.
# FUZZ_RUNS=N also stops each harness after N executions (campaigns);
# FUZZ_TIMEOUT=S (default 10) is the wall-clock time after which one input
# counts as a hang: raise it for campaigns under nice on a loaded machine.
#   fuzz/run.sh [BUILD [SECONDS [NAME...]]]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
secs=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(ptx lint expr arch cli argspec ncucsv npy draw \
                                  cache json wgmma tma cluster)
# allocator_may_return_null: a huge --arg buffer is an "cannot allocate"
# error for the CLI, not a crash of the harness
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-crashes"
status=0
for n in "${names[@]}"; do
    bin="$build/fuzz/fuzz_$n"
    [ -x "$bin" ] || { echo "fuzz: $bin not built (make fuzz)" >&2; exit 2; }
    work="$build/fuzz-corpus/$n"
    # fuzz_lint reads PTX: the seeds and dictionary of fuzz_ptx;
    # fuzz_cluster's inputs end in PTX: its own seeds, fuzz_ptx's words;
    # the binary harnesses (cache, json, wgmma, tma) have no dictionary
    seeds=$n dict=fuzz/$n.dict
    case $n in
        lint) seeds=ptx dict=fuzz/ptx.dict ;;
        cluster) dict=fuzz/ptx.dict ;;
    esac
    mkdir -p "$work"
    echo "== fuzz_$n: ${secs}s =="
    extra=()
    [ ! -f "$dict" ] || extra+=(-dict="$dict")
    [ -z "${FUZZ_RUNS:-}" ] || extra+=(-runs="$FUZZ_RUNS")
    case $n in cli|argspec|npy) extra+=(-close_fd_mask=3) ;; esac
    if ! "$bin" "$work" "fuzz/corpus/$seeds" \
            -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
            -malloc_limit_mb=2097152 -max_len=65536 -print_final_stats=1 "${extra[@]}" \
            -artifact_prefix="$build/fuzz-crashes/${n}-" 2>"$build/fuzz-$n.log"; then
        echo "fuzz_$n: FAILED (log: $build/fuzz-$n.log)" >&2
        tail -40 "$build/fuzz-$n.log" >&2
        status=1
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|cov: " \
        "$build/fuzz-$n.log" | tail -3 || true
done
exit $status
