#!/bin/sh
# gen-ptx.sh -- regenerate the committed PTX of the lab's kernels, so that
# `warpmem run` and the tests can analyse them on machines without nvcc:
#   nvcc -ptx -lineinfo -arch=sm_90 lab/kernels/X.cu -o lab/kernels/X.ptx
# Usage: lab/gen-ptx.sh [NVCC]   (default: nvcc on PATH)
# The .file lines are rewritten so that no machine path is committed: the
# kernel source relative to the repository root, toolkit headers as
# cuda/include/NAME.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
nvcc=${1:-nvcc}
if ! command -v "$nvcc" >/dev/null 2>&1; then
    echo "gen-ptx.sh: $nvcc not found" >&2
    exit 1
fi
cd "$root"
for cu in lab/kernels/*.cu; do
    ptx=${cu%.cu}.ptx
    "$nvcc" -ptx -lineinfo -arch=sm_90 -Werror=all-warnings "$cu" -o "$ptx.tmp"
    sed -e "/^[[:space:]]*\.file/s#\"$root/#\"#" \
        -e '/^[[:space:]]*\.file/s#"/[^"]*/include/\([^"/]*\)"#"cuda/include/\1"#' \
        "$ptx.tmp" >"$ptx"
    rm -f "$ptx.tmp"
    echo "wrote $ptx"
done
