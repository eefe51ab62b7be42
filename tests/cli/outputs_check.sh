#!/bin/bash
# outputs_check.sh BIN SRC CASE -- `warpmem run` loses no file: outputs
# that name an input or another output are refused, every output is put
# in place only when the whole run and every other output succeeded, and
# a faulting or stopped run leaves existing files as they were (writing
# only :partial= files).  Exit 0 pass, 1 fail, 77 skipped (with a reason).
set -u
BIN=$1 SRC=$2 CASE=$3
K=$SRC/examples/kernels/sm_80/copy.ptx
N=$SRC/tests/ncu/copy_details.csv
T=$(mktemp -d "${TMPDIR:-/tmp}/wm_outputs.XXXXXX")
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T" || exit 1
cp "$K" k.ptx
cp "$N" ncu.csv
printf 'old contents\n' > old.bin
fail() { echo "FAIL ($CASE): $*"; echo "--- stderr ---"; cat err 2>/dev/null; exit 1; }
# run ARGS...: the copy kernel on 32 threads (dst, src, n), stdout to out
run() { "$BIN" run k.ptx --grid 1 --block 32 --draw 0 "$@" >out 2>err; rc=$?; }
# a refusal: exit neither 0 nor 2 (a usage error), the message on stderr
refused() {
  [ "$rc" -eq 4 ] || fail "exit $rc, expected 4 (an input error)"
  grep -q "$1" err || fail "stderr lacks: $1"
}
unchanged() { cmp -s "$1" "$2" || fail "$1 was changed"; }
no_temp() { ! ls -a | grep -q '\.wm-' || fail "a temporary file was left"; }

case $CASE in
html_is_kernel)
  mkdir sub; run --arg f32[32] --arg f32[32]:iota --arg u32=32 --html ./sub/../k.ptx
  refused "output './sub/../k.ptx' (--html) is the input 'k.ptx'"
  unchanged k.ptx "$K" ;;
out_is_kernel)
  ln -s k.ptx link.ptx
  run --arg f32[32]:out=link.ptx --arg f32[32]:iota --arg u32=32
  refused "output 'link.ptx' (:out=) is the input 'k.ptx'"
  unchanged k.ptx "$K" ;;
out_is_file_input)
  cp old.bin in.bin
  run --arg f32[32]:out=o.bin --arg u8[128]:file=in.bin:out=$T/in.bin --arg u32=32
  refused "(:out=) is the input 'in.bin'"
  unchanged in.bin old.bin; [ ! -e o.bin ] || fail "o.bin written" ;;
out_is_compare)
  run --arg f32[32]:out=ncu.csv --arg f32[32]:iota --arg u32=32 --compare ncu.csv
  refused "output 'ncu.csv' (:out=) is the input 'ncu.csv'"
  unchanged ncu.csv "$N" ;;
out_twice)
  run --arg f32[32]:out=o.bin --arg f32[32]:iota:out=./o.bin --arg u32=32
  refused "output './o.bin' (:out=) is also output 'o.bin' (:out=)"
  [ ! -e o.bin ] || fail "o.bin written" ;;
out_is_html)
  cp old.bin r.html
  run --arg f32[32]:out=r.html --arg f32[32]:iota --arg u32=32 --html r.html
  refused "output 'r.html' (:out=) is also output 'r.html' (--html)"
  unchanged r.html old.bin ;;
clean)
  umask 022
  run --arg f32[32]:out=o.bin --arg f32[32]:iota:in-out:out=s.npy --arg u32=32 --html r.html
  [ "$rc" -eq 0 ] || fail "exit $rc"
  [ "$(stat -c %a o.bin)" = 644 ] || fail "o.bin has mode $(stat -c %a o.bin)"
  [ "$(od -An -tf4 -j 124 -N 4 o.bin | tr -d ' ')" = 31 ] || fail "o.bin[31] is not 31"
  [ -s r.html ] && [ -s s.npy ] && [ -s s.in.npy ] || fail "an output is missing"
  no_temp ;;
fault)
  cp old.bin o.bin
  # 64 threads copy 64 elements into a 40-element buffer: CTA 1 faults
  "$BIN" run k.ptx --grid 2 --block 32 --draw 0 --arg f32[40]:out=o.bin:partial=p.bin \
    --arg f32[64]:iota --arg u32=64 --html r.html >out 2>err; rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (a fault)"
  unchanged o.bin old.bin
  [ ! -e r.html ] || fail "r.html written after a fault"
  grep -q "'o.bin' (:out=) not written: the run did not finish" err || fail "no note on o.bin"
  grep -q "wrote p.bin (:partial=) as the kernel left it at the fault" err || fail "no note on p.bin"
  [ "$(stat -c %s p.bin)" = 160 ] || fail "p.bin is not 160 bytes"
  [ "$(od -An -tf4 -j 124 -N 4 p.bin | tr -d ' ')" = 31 ] || fail "p.bin[31] is not 31"
  no_temp ;;
budget)
  cp old.bin o.bin
  run --arg f32[32]:out=o.bin --arg f32[32]:iota --arg u32=32 --max-steps 3
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (a step-budget stop)"
  unchanged o.bin old.bin
  grep -q "not written: the run did not finish" err || fail "no note" ;;
stdout_full)
  cp old.bin o.bin
  "$BIN" run k.ptx --grid 1 --block 32 --arg f32[32]:out=o.bin --arg f32[32]:iota \
    --arg u32=32 --html r.html >/dev/full 2>err; rc=$?
  [ "$rc" -eq 4 ] || fail "exit $rc, expected 4 (an output error)"
  grep -q "cannot write standard output" err || fail "no stdout error"
  [ ! -e r.html ] || fail "r.html written although stdout failed"
  unchanged o.bin old.bin; no_temp ;;
html_fails)
  cp old.bin o.bin
  run --arg f32[32]:out=o.bin --arg f32[32]:iota --arg u32=32 --html nodir/r.html
  [ "$rc" -eq 4 ] || fail "exit $rc, expected 4 (an output error)"
  grep -q "cannot write 'nodir/r.html' (--html)" err || fail "no --html error"
  unchanged o.bin old.bin; no_temp ;;
readonly_dir)
  # a directory the user cannot write: as nobody when root (setpriv)
  mkdir ro; cp old.bin ro/old.bin; chmod 0444 ro/old.bin; chmod 0555 ro
  chmod 0755 "$T"; chmod 0644 k.ptx
  as=()
  if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null || { echo "skipped: root and no setpriv"; exit 77; }
    as=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
    "${as[@]}" true 2>/dev/null || { echo "skipped: setpriv cannot drop to nobody"; exit 77; }
    "${as[@]}" test -x "$BIN" || { echo "skipped: nobody cannot run $BIN"; exit 77; }
  fi
  "${as[@]}" "$BIN" run k.ptx --grid 1 --block 32 --draw 0 --arg f32[32]:out=ro/new.bin \
    --arg f32[32]:iota --arg u32=32 --html /dev/null >/dev/null 2>err; rc=$?
  [ "$rc" -eq 4 ] || fail "exit $rc, expected 4 (an output error)"
  grep -q "cannot write 'ro/new.bin' (:out=): Permission denied" err || fail "no error"
  [ ! -e ro/new.bin ] || fail "ro/new.bin created"
  "${as[@]}" "$BIN" run k.ptx --grid 1 --block 32 --draw 0 --arg f32[32]:out=ro/old.bin \
    --arg f32[32]:iota --arg u32=32 >/dev/null 2>err; rc=$?
  [ "$rc" -eq 4 ] || fail "exit $rc, expected 4 (an output error)"
  grep -q "cannot write 'ro/old.bin' (:out=): Permission denied" err || fail "no error"
  unchanged ro/old.bin old.bin; ! ls -a ro | grep -q '\.wm-' || fail "temporary in ro" ;;
*) echo "unknown case $CASE"; exit 1 ;;
esac
exit 0
