#!/bin/bash
# device-check.sh RESULTS_DIR -- everything the lab measures, in one go, on a
# machine with an NVIDIA GPU (docs/lab.md):
#   1. records the card, driver and clocks (read-only nvidia-smi queries);
#   2. builds warpmem and warpmem-lab (CMake, Release) and runs ctest;
#   3. runs the whole lab (text + JSON);
#   4. runs the lesson's experiment in PyTorch when `import torch` works;
#   5. runs the lab's kernels once each under `ncu --clock-control none`
#      when ncu exists, and puts the counters next to the lab's model and
#      `warpmem run` on the same PTX with the same launch;
#   6. checks the H200 targets and writes summary.txt / summary.json.
# Every step has a time limit (timeout) and a failing step is recorded and
# skipped over.  Nothing here changes a GPU setting: no clock locking (ncu is
# told --clock-control none), no power limits, no persistence or MIG modes.
#
# Environment: WM_BUILD_DIR (default RESULTS_DIR/build), WM_LAB_REPEAT
# (samples per row, default 10), WM_LAB_ARGS (extra warpmem-lab arguments).
set -u

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    echo "usage: lab/device-check.sh RESULTS_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mkdir -p "$1" || exit 1
out=$(cd "$1" && pwd)
build=${WM_BUILD_DIR:-$out/build}
repeat=${WM_LAB_REPEAT:-10}
lab=$build/lab/warpmem-lab
steps_json=""
: >"$out/steps.txt"

# step NAME LIMIT_SECONDS COMMAND: run COMMAND (bash -c) with a time limit,
# output in NAME.log; record status and duration; never stop the script.
step() {
    local name=$1 limit=$2 cmd=$3 t0 t1 rc
    t0=$(date +%s)
    echo "== $name (limit ${limit}s): $cmd" | tee -a "$out/steps.txt"
    timeout -k 10 "$limit" bash -o pipefail -c "$cmd" >"$out/$name.log" 2>&1
    rc=$?
    t1=$(date +%s)
    local what=ok
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && what=timeout
    [ $rc -ne 0 ] && [ "$what" = ok ] && what=failed
    echo "   $what (exit $rc, $((t1 - t0)) s)" | tee -a "$out/steps.txt"
    steps_json="$steps_json${steps_json:+,}
  {\"step\": \"$name\", \"status\": \"$what\", \"exit\": $rc, \"seconds\": $((t1 - t0))}"
    return 0
}

skip() {
    echo "== $1: skipped ($2)" | tee -a "$out/steps.txt"
    steps_json="$steps_json${steps_json:+,}
  {\"step\": \"$1\", \"status\": \"skipped\", \"why\": \"$2\"}"
}

date -u +%Y-%m-%dT%H:%M:%SZ >"$out/date.txt"

# 1. the machine (queries only)
if command -v nvidia-smi >/dev/null 2>&1; then
    step env-gpu 60 "nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu,ecc.mode.current --format=csv; nvidia-smi -q"
else
    skip env-gpu "nvidia-smi not found"
fi
step env-tools 60 "uname -a; command -v nvcc && nvcc --version; command -v ncu && ncu --version; cmake --version; python3 --version"

# 2. build (warpmem too: device_report.py runs `warpmem run`)
step configure 240 "cmake -S '$root' -B '$build' -DCMAKE_BUILD_TYPE=Release"
step build 600 "cmake --build '$build' -j \$(nproc)"
step ctest 300 "ctest --test-dir '$build' -j \$(nproc) --output-on-failure"

# 3. the lab (all rows)
if [ -x "$lab" ]; then
    step lab 600 "'$lab' --repeat $repeat --json '$out/lab.json' ${WM_LAB_ARGS:-} | tee '$out/lab.txt'"
else
    skip lab "warpmem-lab was not built"
fi

# 4. PyTorch, same sizes as E1 and E5
if python3 -c 'import torch' >/dev/null 2>&1; then
    tn=""
    if [ -s "$out/lab.json" ]; then
        tn=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['env']['matrix_n'])" "$out/lab.json" 2>/dev/null)
    fi
    step torch 300 "python3 '$here/torch_lesson.py' --n 8192 ${tn:+--transpose-n $tn} --repeat $repeat --json '$out/torch.json' | tee '$out/torch.txt'"
else
    skip torch "python3 cannot import torch"
fi

# 5. counters: every lab kernel once, small buffers (counts, not speed)
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,dram__bytes_read.sum,dram__bytes_write.sum
if [ -x "$lab" ] && command -v ncu >/dev/null 2>&1; then
    step ncu 600 "ncu --clock-control none --metrics $metrics -k regex:^lab_ --csv --page raw --log-file '$out/ncu.csv' '$lab' --once --size 8M --json '$out/once.json'"
elif [ -x "$lab" ]; then
    skip ncu "ncu not found"
    step once 300 "'$lab' --once --size 8M --json '$out/once.json'"
fi
if [ -s "$out/once.json" ]; then
    step compare 900 "python3 '$here/device_report.py' compare --once '$out/once.json' --ncu '$out/ncu.csv' --warpmem '$build/warpmem' --root '$root' --out '$out'"
else
    skip compare "no --once run"
fi

# 6. targets and summary
if [ -s "$out/lab.json" ]; then
    step targets 60 "python3 '$here/device_report.py' targets --lab '$out/lab.json' --torch '$out/torch.json' --out '$out'"
else
    skip targets "no lab.json"
fi

card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
{
    echo "lab/device-check.sh $(cat "$out/date.txt")"
    echo "card: ${card:-unknown}; driver: ${driver:-unknown}"
    echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo
    cat "$out/steps.txt"
    for f in targets.txt lab.txt torch.txt compare.txt; do
        [ -s "$out/$f" ] && { echo; echo "---- $f"; cat "$out/$f"; }
    done
} >"$out/summary.txt"
cat >"$out/summary.json" <<EOF
{"tool": "lab/device-check.sh", "date": "$(cat "$out/date.txt")",
 "card": "${card:-unknown}", "driver": "${driver:-unknown}",
 "commit": "$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)",
 "files": ["lab.txt", "lab.json", "torch.txt", "torch.json", "ncu.csv",
           "once.json", "compare.txt", "compare.json", "targets.txt",
           "targets.json", "steps.txt"],
 "steps": [$steps_json
 ]}
EOF
echo "device-check.sh: results in $out (summary.txt)"
