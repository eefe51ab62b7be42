#!/usr/bin/env bash
# gen-ptx.sh -- regenerate the committed PTX of examples/kernels/*.cu.
#
#   scripts/gen-ptx.sh [--check | --corpus]
#
# --corpus regenerates only the regression corpus (tests/corpus/ptx/).
# Writes examples/kernels/sm_80/NAME.ptx and sm_90/NAME.ptx with
#   nvcc -ptx -lineinfo -O3 -arch=sm_XX
# the parser-robustness variants under tests/ptx/nvcc/ (see VARIANTS
# below), the regression corpus tests/corpus/ptx/ (-O3 and -G) and the
# checker's planted-bug kernels tests/check/ptx/ (-O3 and -G).  With --check it writes into a temporary directory instead and
# exits 1 if any committed file differs (for a test that runs only when
# nvcc is on PATH).
#
# nvcc records absolute paths (.file directives, and with -G the DWARF
# name and comp_dir strings inside .debug_info).  So that the committed
# files name no machine path, each .cu is compiled from its own directory
# by relative name and the output is rewritten:
#   .file 1 "/abs/examples/kernels/NAME.cu" -> path relative to the .ptx
#   .file N "/abs/cuda/.../include/X"        -> "cuda/include/X"
#   -G: the comp_dir bytes become "./././..." of the same length (the same
#   directory, so DWARF offsets stay valid).
# Note: nvcc's -O0 only affects host code; unoptimised device PTX needs
# -Xcicc -O0, which the variants use.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
kdir="$here/examples/kernels"
check=0 only_corpus=0
[ "${1:-}" = "--check" ] && check=1
[ "${1:-}" = "--corpus" ] && only_corpus=1

command -v nvcc >/dev/null 2>&1 || { echo "gen-ptx.sh: nvcc not on PATH" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "gen-ptx.sh: python3 needed" >&2; exit 2; }

if [ $check = 1 ]; then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
else
    out="$here"
fi

# fix PTX RELDIR [SRCDIR]: rewrite paths in PTX (in place); RELDIR is the
# path from the .ptx file's directory to SRCDIR (default examples/kernels).
fix() {
    python3 - "$1" "$2" "${3:-$kdir}" <<'PY'
import re, sys
path, reldir, kdir = sys.argv[1], sys.argv[2], sys.argv[3]
t = open(path).read()
def file_line(m):
    p = m.group(2)
    if p.startswith(kdir + "/"):
        p = reldir + "/" + p[len(kdir) + 1:]
    elif "/include/" in p:
        p = "cuda/include/" + p.split("/include/")[-1]
    return '%s"%s"' % (m.group(1), p)
t = re.sub(r'(\.file\s+\d+\s+)"([^"]*)"', file_line, t)
# -G: replace the comp_dir string inside .b8 byte lists, same length.
needle = ",".join(str(b) for b in kdir.encode())
if needle in t:
    n = len(kdir)
    repl = ("./" * n)[:n] if n % 2 == 0 else "." + "/." * (n // 2)
    t = t.replace(needle, ",".join(str(b) for b in repl.encode()))
if kdir in t:
    sys.exit("gen-ptx.sh: %s still names %s" % (path, kdir))
open(path, "w").write(t)
PY
}

# compile NAME ARCH OUTFILE RELDIR FLAGS... (sources in $srcdir)
srcdir=$kdir
compile() {
    name=$1 arch=$2 dst=$3 rel=$4
    shift 4
    mkdir -p "$(dirname "$dst")"
    (cd "$srcdir" && nvcc -ptx -arch="$arch" "$@" "$name.cu" -o "$dst")
    fix "$dst" "$rel" "$srcdir"
}

for cu in "$kdir"/*.cu; do
    [ $only_corpus = 1 ] && break
    name=$(basename "$cu" .cu)
    for arch in sm_80 sm_90; do
        compile "$name" "$arch" "$out/examples/kernels/$arch/$name.ptx" .. \
            -lineinfo -O3
    done
done

# Parser-robustness variants: NAME ARCH TAG FLAGS.
v="$out/tests/ptx/nvcc"
vrel=../../../examples/kernels
[ $only_corpus = 1 ] || {
compile transpose sm_80 "$v/transpose_O0_sm_80.ptx" $vrel -lineinfo -Xcicc -O0
compile reduce    sm_90 "$v/reduce_O0_sm_90.ptx"    $vrel -lineinfo -Xcicc -O0
compile transpose sm_80 "$v/transpose_G_sm_80.ptx"  $vrel -G
compile reduce    sm_90 "$v/reduce_G_sm_90.ptx"     $vrel -G
compile copy      sm_75 "$v/copy_nolineinfo_sm_75.ptx"      $vrel -O3
compile histogram sm_89 "$v/histogram_nolineinfo_sm_89.ptx" $vrel -O3
compile sgemm     sm_86 "$v/sgemm_sm_86.ptx"        $vrel -lineinfo -O3
}

# The regression corpus (tests/corpus/*.cu): -O3 with line info and -G,
# for sm_80 and sm_90, into tests/corpus/ptx/NAME[_G]_sm_XX.ptx; a file
# with the line "// gen-ptx: sm_90a" (Hopper-only PTX) only for sm_90a,
# one with "// gen-ptx: sm_90" (clusters need sm_90) only for sm_90.
srcdir="$here/tests/corpus"
for cu in "$srcdir"/*.cu; do
    name=$(basename "$cu" .cu)
    archs="sm_80 sm_90"
    grep -q '^// gen-ptx: sm_90a$' "$cu" && archs=sm_90a
    grep -q '^// gen-ptx: sm_90$' "$cu" && archs=sm_90 # clusters
    for arch in $archs; do
        compile "$name" "$arch" "$out/tests/corpus/ptx/${name}_$arch.ptx" .. \
            -lineinfo -O3
        compile "$name" "$arch" "$out/tests/corpus/ptx/${name}_G_$arch.ptx" .. \
            -G
    done
done

# The checker's planted-bug kernels (tests/check/*.cu): -O3 with line
# info and -G, sm_80 and sm_90, into tests/check/ptx/NAME[_G]_sm_XX.ptx.
srcdir="$here/tests/check"
for cu in "$srcdir"/*.cu; do
    [ $only_corpus = 1 ] && break
    name=$(basename "$cu" .cu)
    for arch in sm_80 sm_90; do
        compile "$name" "$arch" "$out/tests/check/ptx/${name}_$arch.ptx" .. \
            -lineinfo -O3
        compile "$name" "$arch" "$out/tests/check/ptx/${name}_G_$arch.ptx" .. \
            -G
    done
done

# nvcc names file-local symbols _INTERNAL_<hash of the source path>_...
# (and anonymous namespaces _GLOBAL__N__<the same hash>_...), and -G
# spells them again as .b8 byte strings: all change with the checkout's
# location, so the comparison masks them.
normalize() {
    sed -E -e 's/_INTERNAL_[0-9a-f]{8}_/_INTERNAL_x_/g' \
        -e 's/_GLOBAL__N__[0-9a-f]{8}_/_GLOBAL__N__x_/g' -e '/^\.b8 /d' "$1"
}

if [ $check = 1 ]; then
    status=0
    # -G variants embed DWARF whose offsets depend on the length of the
    # checkout's path; they are parser fixtures and are not compared.
    for f in $(cd "$out" && find examples tests -name '*.ptx' ! -name '*_G_*' | sort); do
        if ! cmp -s <(normalize "$out/$f") <(normalize "$here/$f"); then
            echo "gen-ptx.sh: $f differs from a fresh nvcc run" >&2
            status=1
        fi
    done
    exit $status
fi
