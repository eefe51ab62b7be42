# CLI tests of the .npy reader (cli/npy.c; header edge cases in
# tests/unit/test_npy.c): a header it refuses is one message naming the file
# and the reason, exit 4.  Inputs are in tests/limits/, stderr is pinned by
# tests/golden/npy_*.txt; paths are relative (the tests run in the source
# tree).
set(L tests/limits)
set(K examples/kernels/sm_80)
# a shape whose element count wraps around 2^64 (was accepted as 4
# elements), "(4)" for a 1-tuple (was accepted), version 9.0 (was read as
# 2.0 and called truncated)
foreach(t wrap not_tuple version9)
  wm_cli_test(NAME npy_${t} EXIT 4
    ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
         --arg f32[4]:file=${L}/npy_${t}.npy --arg i32=4
    STDERR_GOLDEN npy_${t}.txt)
endforeach()
