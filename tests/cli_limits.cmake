# CLI tests of issue 17's reproducers: bad input gives a clear message and
# exit code, never a crash, a hang or memory exhaustion.  Exact stderr is
# pinned by golden files (tests/golden/limits_*.txt); inputs are in
# tests/limits/.  Paths are relative: the tests run in the source tree.
set(L tests/limits)

# operand arity from the ptx_ops.def table
foreach(t arity_mad arity_bar arity_or vec_add)
  wm_cli_test(NAME limits_${t} EXIT 1
    ARGS run ${L}/${t}.ptx --grid 1 --block 32
    STDERR_GOLDEN limits_${t}.txt)
endforeach()

# sizes: no wrap-around, no 32-bit truncation, no huge allocation
foreach(t global_wrap global_10g shared_4g local_4g regs)
  wm_cli_test(NAME limits_${t} EXIT 1
    ARGS run ${L}/${t}.ptx --grid 1 --block 32
    STDERR_GOLDEN limits_${t}.txt)
endforeach()
# a 1 GiB .global at the limit runs (allocated once, zero pages untouched)
wm_cli_test(NAME limits_global_1g
  ARGS run ${L}/global_1g.ptx --grid 1 --block 32
  STDOUT "kernel k: 1 of 1 CTAs")
