#!/bin/bash
# device-check.sh [--dry-run] [--build-dir DIR] [--commit SHA] RESULTS_DIR
#
# Everything the lab measures, in one go, on a machine with an NVIDIA GPU
# (docs/lab.md):
#   1. records the card, driver, clocks and tools (read-only queries);
#   2. configures (-DWM_WERROR=OFF -DWM_LAB_REQUIRED=ON) and builds warpmem
#      and warpmem-lab, and runs the lab's tests (ctest -L lab);
#   3. runs the whole lab (lab.json is rewritten after every row), with the
#      SM and memory clocks recorded before and after;
#   4. runs the lesson's experiment in PyTorch when `import torch` works;
#   5. lists the device's ncu metrics (--query-metrics) and checks ours are
#      there, then runs every lab kernel once under
#      `ncu --print-units base --clock-control none` and puts the counters
#      next to the lab's model and `warpmem run` on the same PTX;
#   6. checks the H200 targets.
# --dry-run runs every step that needs no GPU (configure, build, tests, the
# predictions, the reports on the committed synthetic results in
# lab/tests/data) and then checks what a real run must leave: at most 8
# files in RESULTS_DIR and a complete summary.  CI runs it (.ci/run).
#
# RESULTS_DIR gets exactly three files: summary.txt and summary.json (each
# step's status, time and, when it failed, why; the targets), and
# results.tgz (every log and result).  They are written after every step
# and from an EXIT trap, so a step that fails or times out, or the script
# being killed, still leaves them.  The build tree and the working files
# live outside RESULTS_DIR.  Every step has a time limit (timeout); the
# limits add up to well under 8 minutes and the expected total is printed
# first.  A failing step is recorded and the script moves on; the exit
# status is 1 when a step failed.  Nothing here changes a GPU setting: no
# clock locking (ncu is told --clock-control none), no power limits, no
# persistence or MIG modes.
#
# Options and environment:
#   --build-dir DIR  build (or reuse) the project in DIR; an existing build
#                    is reconfigured without changing its options, so
#                    nothing is rebuilt that is up to date (default: a fresh
#                    folder next to the working files; WM_BUILD_DIR)
#   --commit SHA     the source commit, for checkouts without .git
#                    (default: WM_COMMIT, else git rev-parse HEAD)
#   WM_LAB_REPEAT    samples per row (default 10)
#   WM_LAB_ARGS      extra warpmem-lab arguments
set -u

usage() {
    echo "usage: lab/device-check.sh [--dry-run] [--build-dir DIR]" \
         "[--commit SHA] RESULTS_DIR" >&2
    exit 2
}
dry=0
build=${WM_BUILD_DIR:-}
commit=${WM_COMMIT:-}
res=""
while [ $# -gt 0 ]; do
    case $1 in
    --dry-run) dry=1 ;;
    --build-dir) [ $# -ge 2 ] || usage; build=$2; shift ;;
    --build-dir=*) build=${1#*=} ;;
    --commit) [ $# -ge 2 ] || usage; commit=$2; shift ;;
    --commit=*) commit=${1#*=} ;;
    -h|--help) usage ;;
    -*) echo "device-check.sh: unknown option: $1" >&2; usage ;;
    *) [ -z "$res" ] || usage; res=$1 ;;
    esac
    shift
done
[ -n "$res" ] || usage

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mkdir -p "$res" || exit 1
out=$(cd "$res" && pwd)
# RESULTS_DIR holds our three files only: refuse anything else in it.
for f in "$out"/* "$out"/.[!.]*; do
    [ -e "$f" ] || continue
    case ${f##*/} in
    summary.txt|summary.json|results.tgz) rm -f "$f" ;;
    *) echo "device-check.sh: $out is not empty (${f##*/}):" \
            "give an empty or new folder" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/wm-device-check.XXXXXX") || exit 1
stage=$work/results
mkdir -p "$stage"
build=${build:-$work/build}
mkdir -p "$build" || exit 1
build=$(cd "$build" && pwd)
case $build/ in
"$out"/*) echo "device-check.sh: the build folder must be outside" \
               "$out" >&2; exit 2 ;;
esac
if [ -z "$commit" ]; then
    commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
fi
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
fi
repeat=${WM_LAB_REPEAT:-10}
lab=$build/lab/warpmem-lab
data=$here/tests/data
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,dram__bytes_read.sum,dram__bytes_write.sum
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
t_start=$(date +%s)

# The steps: name, time limit (s), expected time on a GPU machine (s).
# The limits add up to 400 s (6 min 40 s), the expected times to ~5 min.
# ncu gets the most room after the lab: it prints its table only when the
# profiled program ends, so a timeout there loses every counter.
plan="env-gpu:10:5 env-tools:10:3 configure:30:20 build:75:50 ctest:25:15
lab:100:90 torch:30:25 ncu-metrics:10:5 ncu:80:60 compare:20:10 targets:10:2"
# A dry run is on a CI machine (2 cores, often loaded), not the 16-core GPU
# machine the limits are for: its limits are 4 times those (the budget
# still counts the plan's own).
scale=1
[ $dry -eq 1 ] && scale=4
limit_of() { local p; for p in $plan; do
    [ "${p%%:*}" = "$1" ] && { p=${p#*:}; echo $((${p%%:*} * scale)); return; }
    done
    echo $((60 * scale)); }
sum_limits=0 sum_expected=0
for p in $plan; do
    q=${p#*:}
    sum_limits=$((sum_limits + ${q%%:*}))
    sum_expected=$((sum_expected + ${q#*:}))
done

steps_txt=$stage/steps.txt
: >"$steps_txt"
steps_json=""
n_failed=0
failed_logs=""
cur_pid=""
cur_name=""
finished=0

json_str() { # a JSON string of $1 (first line, quotes and backslashes escaped)
    printf '"%s"' "$(printf '%s' "$1" | head -1 | tr -d '\000-\037' |
        sed 's/\\/\\\\/g; s/"/\\"/g')"
}

record() { # NAME STATUS EXIT SECONDS LIMIT WHY
    steps_json="$steps_json${steps_json:+,}
  {\"step\": \"$1\", \"status\": \"$2\", \"exit\": $3, \"seconds\": $4, \"limit\": $5, \"why\": $(json_str "$6")}"
    if [ "$2" = failed ] || [ "$2" = timeout ]; then
        n_failed=$((n_failed + 1))
        failed_logs="$failed_logs $1"
    fi
    write_results
}

# step NAME COMMAND: run COMMAND (bash -c, in the staging folder) under its
# time limit, output in NAME.log; record status, duration and, when it
# failed, the log's last line; never stop the script.
step() {
    local name=$1 cmd=$2 limit t0 t1 rc what why=""
    limit=$(limit_of "$name")
    t0=$(date +%s)
    echo "== $name (limit ${limit}s): $cmd" | tee -a "$steps_txt"
    ( cd "$stage" && exec timeout -k 5 "$limit" bash -o pipefail -c "$cmd" \
        >"$stage/$name.log" 2>&1 ) &
    cur_pid=$! cur_name=$name
    wait "$cur_pid"
    rc=$?
    cur_pid="" cur_name=""
    t1=$(date +%s)
    what=ok
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        what=timeout why="over the ${limit} s limit"
    elif [ $rc -ne 0 ]; then
        what=failed
        why=$(grep -v '^[[:space:]]*$' "$stage/$name.log" | tail -1)
    fi
    echo "   $what (exit $rc, $((t1 - t0)) s)${why:+: $why}" |
        tee -a "$steps_txt"
    record "$name" "$what" "$rc" "$((t1 - t0))" "$limit" "$why"
}

skip() {
    echo "== $1: skipped ($2)" | tee -a "$steps_txt"
    record "$1" skipped 0 0 0 "$2"
}

fail_now() { # NAME WHY: a step that cannot run because of a missing tool
    echo "== $1: FAILED ($2)" | tee -a "$steps_txt"
    record "$1" failed 1 0 0 "$2"
}

# summary.txt, summary.json and results.tgz in RESULTS_DIR, from what the
# staging folder holds now (after every step, and from the EXIT trap).
write_results() {
    local card driver f now
    card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null |
        head -1)
    driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader \
        2>/dev/null | head -1)
    now=$(date +%s)
    {
        echo "lab/device-check.sh $date$([ $dry -eq 1 ] && echo ' (dry run)')"
        echo "card: ${card:-unknown}; driver: ${driver:-unknown}"
        echo "commit: $commit"
        echo "elapsed: $((now - t_start)) s; failed steps: $n_failed;" \
             "step limits add up to $sum_limits s"
        echo
        cat "$steps_txt"
        for f in targets.txt clocks.txt compare.txt lab.txt torch.txt; do
            [ -s "$stage/$f" ] && { echo; echo "---- $f"; cat "$stage/$f"; }
        done
        for f in $failed_logs; do
            [ -s "$stage/$f.log" ] || continue
            echo; echo "---- $f.log (last 20 lines)"; tail -20 "$stage/$f.log"
        done
    } >"$out/summary.txt.part" 2>/dev/null
    mv -f "$out/summary.txt.part" "$out/summary.txt"
    {
        echo "{\"tool\": \"lab/device-check.sh\", \"date\": \"$date\","
        echo " \"dry_run\": $([ $dry -eq 1 ] && echo true || echo false),"
        echo " \"card\": $(json_str "${card:-unknown}"),"
        echo " \"driver\": $(json_str "${driver:-unknown}"),"
        echo " \"commit\": $(json_str "$commit"),"
        echo " \"elapsed_s\": $((now - t_start)), \"limits_s\": $sum_limits,"
        echo " \"expected_s\": $sum_expected, \"failed_steps\": $n_failed,"
        echo " \"complete\": $([ $finished -eq 1 ] && echo true || echo false),"
        echo " \"archive\": \"results.tgz\","
        echo " \"steps\": [$steps_json"
        echo " ]}"
    } >"$out/summary.json.part"
    mv -f "$out/summary.json.part" "$out/summary.json"
    tar -czf "$out/results.tgz.part" -C "$work" results 2>/dev/null &&
        mv -f "$out/results.tgz.part" "$out/results.tgz"
    rm -f "$out/results.tgz.part"
}

finish() {
    [ $finished -eq 1 ] && return
    finished=1
    write_results
    # the working files are in results.tgz now; a build given with
    # --build-dir stays
    [ -n "${WM_KEEP_WORK:-}" ] || rm -rf "$work"
}

on_signal() {
    [ $finished -eq 1 ] && exit 143
    echo "device-check.sh: stopped by SIG$1" | tee -a "$steps_txt" >&2
    [ -n "$cur_pid" ] && kill -TERM "$cur_pid" 2>/dev/null
    record "${cur_name:-signal}" timeout 143 0 0 "stopped by SIG$1"
    exit 143
}
trap finish EXIT
trap 'on_signal TERM' TERM
trap 'on_signal INT' INT
trap 'on_signal HUP' HUP

if [ $dry -eq 1 ]; then
    echo "device-check.sh --dry-run: the steps that need no GPU; results in" \
         "$out, build in $build"
else
    echo "device-check.sh: $(echo $plan | wc -w) steps, expected about" \
         "$(( (sum_expected + 30) / 60 )) min; the step limits add up to" \
         "$sum_limits s ($((sum_limits / 60)) min $((sum_limits % 60)) s)"
    echo "device-check.sh: results in $out, build in $build"
fi

# 1. the machine (queries only)
if [ $dry -eq 1 ]; then
    skip env-gpu "dry run"
elif command -v nvidia-smi >/dev/null 2>&1; then
    step env-gpu "nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu,ecc.mode.current --format=csv; nvidia-smi -q"
else
    fail_now env-gpu "nvidia-smi not found"
fi
step env-tools "uname -a; echo commit $commit; command -v nvcc && nvcc --version; command -v ncu && ncu --version; cmake --version; python3 --version"

# 2. build (warpmem too: device_report.py runs `warpmem run`)
if ! command -v nvcc >/dev/null 2>&1; then
    fail_now configure "nvcc not found (PATH, /usr/local/cuda/bin): warpmem-lab cannot be built"
elif [ -f "$build/CMakeCache.txt" ]; then
    # reuse: no option changes, so nothing up to date is rebuilt
    step configure "cmake -S '$root' -B '$build' || exit 1; grep -q '^CMAKE_CUDA_COMPILER:[A-Z]*=/' '$build/CMakeCache.txt' || { echo 'the reused build has no CUDA compiler: warpmem-lab is not built there'; exit 1; }"
else
    step configure "cmake -S '$root' -B '$build' -DCMAKE_BUILD_TYPE=Release -DWM_WERROR=OFF -DWM_LAB_REQUIRED=ON 2>&1 | tee configure.out || exit 1; if grep -q 'cuBLAS not found' configure.out; then echo 'cuBLAS not found: E5.sgeam cannot run'; exit 1; fi"
fi
step build "cmake --build '$build' -j \$(nproc) --target warpmem warpmem-lab test_lab_predict lab_synth"
step ctest "ctest --test-dir '$build' -L lab -j \$(nproc) --output-on-failure"

if [ $dry -eq 1 ]; then
    # the predictions, and the binary's no-device answer
    step lab "'$lab' --list | tee lab.txt && '$lab' --list --format json >predictions.json && { CUDA_VISIBLE_DEVICES= '$lab' --only E1 --repeat 1; test \$? -eq 3; }"
    skip torch "dry run"
    skip ncu-metrics "dry run"
    skip ncu "dry run: lab/tests/data/ncu.csv stands in"
    step compare "cp '$data/once.json' '$data/ncu.csv' . && python3 '$here/device_report.py' ncu-check ncu.csv --warpmem '$build/warpmem' && python3 '$here/device_report.py' compare --once once.json --ncu ncu.csv --warpmem '$build/warpmem' --root '$root' --out ."
    step targets "cp '$data/lab.json' . && python3 '$here/device_report.py' targets --lab lab.json --compare compare.json --out ."
    finish
    # What a real run must leave behind.
    problems=""
    n=$(find "$out" -mindepth 1 | wc -l)
    [ "$n" -le 8 ] || problems="$problems; $n files in $out (at most 8)"
    for f in summary.txt summary.json results.tgz; do
        [ -s "$out/$f" ] || problems="$problems; no $f"
    done
    python3 - "$out/summary.json" <<'EOF' || problems="$problems; summary.json"
import json, sys
d = json.load(open(sys.argv[1]))
names = [s["step"] for s in d["steps"]]
want = ["env-gpu", "env-tools", "configure", "build", "ctest", "lab",
        "torch", "ncu-metrics", "ncu", "compare", "targets"]
assert names == want, f"steps {names}"
assert d["complete"] and d["dry_run"] and d["commit"], "header"
assert d["limits_s"] < 480, f"limits add up to {d['limits_s']} s"
bad = [s["step"] for s in d["steps"] if s["status"] not in ("ok", "skipped")]
assert not bad, f"failed steps {bad}"
EOF
    for f in results/steps.txt results/compare.txt results/targets.txt \
             results/lab.txt results/ctest.log; do
        tar -tzf "$out/results.tgz" | grep -qx "$f" ||
            problems="$problems; $f not in results.tgz"
    done
    grep -q '^---- targets.txt' "$out/summary.txt" ||
        problems="$problems; summary.txt has no targets"
    if [ -n "$problems" ]; then
        echo "device-check.sh --dry-run: FAILED${problems}" >&2
        exit 1
    fi
    echo "device-check.sh --dry-run: ok ($(($(date +%s) - t_start)) s," \
         "$n files in $out)"
    exit 0
fi

# 3. the lab (all rows), clocks before and after
clk="nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv"
if [ -x "$lab" ]; then
    step lab "{ echo before; $clk; } >clocks.txt 2>&1; '$lab' --repeat $repeat --commit '$commit' --json lab.json ${WM_LAB_ARGS:-} | tee lab.txt; rc=\$?; { echo after; $clk; } >>clocks.txt 2>&1; exit \$rc"
else
    fail_now lab "warpmem-lab was not built (see configure.log, build.log)"
fi

# 4. PyTorch, same sizes as E1 and E5
if python3 -c 'import torch' >/dev/null 2>&1; then
    tn=""
    if [ -s "$stage/lab.json" ]; then
        tn=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['env']['matrix_n'])" "$stage/lab.json" 2>/dev/null)
    fi
    step torch "python3 '$here/torch_lesson.py' --n 8192 ${tn:+--transpose-n $tn} --repeat $repeat --json torch.json | tee torch.txt"
else
    skip torch "python3 cannot import torch"
fi

# 5. counters: every lab kernel once, small buffers (counts, not speed)
if command -v ncu >/dev/null 2>&1; then
    step ncu-metrics "ncu --query-metrics >ncu-metrics.txt; python3 '$here/device_report.py' metrics-check --list ncu-metrics.txt --metrics $metrics"
    if [ -x "$lab" ]; then
        step ncu "ncu --print-units base --clock-control none --metrics $metrics -k regex:^lab_ --csv --page raw --log-file ncu.csv '$lab' --once --size 8M --commit '$commit' --json once.json; python3 '$here/device_report.py' ncu-check ncu.csv --warpmem '$build/warpmem'"
    else
        fail_now ncu "warpmem-lab was not built"
    fi
else
    skip ncu-metrics "ncu not found"
    if [ -x "$lab" ]; then
        step ncu "echo 'ncu not found: every kernel checked once, no counters'; '$lab' --once --size 8M --commit '$commit' --json once.json"
    else
        skip ncu "ncu not found"
    fi
fi
if [ -s "$stage/once.json" ]; then
    step compare "python3 '$here/device_report.py' compare --once once.json --ncu ncu.csv --warpmem '$build/warpmem' --root '$root' --out ."
else
    skip compare "no --once run"
fi

# 6. targets
if [ -s "$stage/lab.json" ]; then
    step targets "python3 '$here/device_report.py' targets --lab lab.json --torch torch.json --compare compare.json --out ."
else
    skip targets "no lab.json"
fi
finish
echo "device-check.sh: $n_failed failed steps; results in $out" \
     "(summary.txt, summary.json, results.tgz)"
[ $n_failed -eq 0 ]
