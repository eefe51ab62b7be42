#!/bin/sh
# gen-ptx.sh -- regenerate the committed PTX of the lab's kernels, so that
# `warpmem run` and the tests can analyse them on machines without nvcc:
#   nvcc -ptx -lineinfo -arch=sm_90 lab/kernels/X.cu -o lab/kernels/X.ptx
# Usage: lab/gen-ptx.sh [--check] [NVCC]   (default: nvcc on PATH)
#   --check  regenerate into a temporary folder and fail if any committed
#            .ptx differs (ctest runs this when nvcc is found).  nvcc's
#            `//` header lines (build ID, exact version) are masked, so
#            another build of the same release passes; an nvcc of another
#            release (X.Y) generates other code: the check is skipped with
#            exit status 77 and says so.
# The .file lines are rewritten so that no machine path is committed: the
# kernel source relative to the repository root, toolkit headers as
# cuda/include/NAME.
set -eu
check=0
if [ "${1:-}" = "--check" ]; then
    check=1
    shift
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
nvcc=${1:-nvcc}
if ! command -v "$nvcc" >/dev/null 2>&1; then
    echo "gen-ptx.sh: $nvcc not found" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
status=0
if [ $check -eq 1 ]; then
    # "Cuda compilation tools, release 13.0, V13.0.88" -> 13.0
    have=$("$nvcc" --version | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
    want=$(sed -n 's#^// Cuda compilation tools, release \([0-9][0-9.]*\),.*#\1#p' \
        lab/kernels/copy.ptx)
    if [ -z "$have" ] || [ "$have" != "$want" ]; then
        echo "gen-ptx.sh: the committed PTX is from nvcc ${want:-?}," \
             "this is nvcc ${have:-?}: not compared (skipped)" >&2
        exit 77
    fi
fi
for cu in lab/kernels/*.cu; do
    ptx=${cu%.cu}.ptx
    name=$(basename "$ptx")
    "$nvcc" -ptx -lineinfo -arch=sm_90 -Werror=all-warnings "$cu" \
        -o "$tmp/$name.raw"
    sed -e "/^[[:space:]]*\.file/s#\"$root/#\"#" \
        -e '/^[[:space:]]*\.file/s#"/[^"]*/include/\([^"/]*\)"#"cuda/include/\1"#' \
        "$tmp/$name.raw" >"$tmp/$name"
    if [ $check -eq 1 ]; then
        # nvcc names file-local symbols _INTERNAL_<hash of the source
        # path>_... (spelled again as .b8 bytes in the debug strings): mask
        # both, they change with the checkout's location.  The // header
        # (build ID, V13.0.x) changes with the toolkit build.
        mask='s/_INTERNAL_[0-9a-f]{8}_/_INTERNAL_x_/g; /^\.b8 /d; /^\/\//d'
        sed -E "$mask" "$tmp/$name" >"$tmp/$name.a"
        sed -E "$mask" "$ptx" >"$tmp/$name.b"
        if ! cmp -s "$tmp/$name.a" "$tmp/$name.b"; then
            echo "gen-ptx.sh: $ptx is out of date (run lab/gen-ptx.sh)" >&2
            status=1
        fi
    else
        cp "$tmp/$name" "$ptx"
        echo "wrote $ptx"
    fi
done
exit $status
