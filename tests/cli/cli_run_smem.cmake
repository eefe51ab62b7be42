# Shared arrays of called functions (tests/corpus/block_sum.cu; at -G the
# helper's buf[32] lives in the callee): the kernels run at -O3 and -G,
# clean under --check race, and the helper without its barrier races.
set(BS ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
foreach(v sm_80 G_sm_80 sm_90 G_sm_90)
  set(a --grid 2 --block 256 --arg f32[512]:iota --arg f32[4] --arg i32=512
        --draw 0)
  wm_cli_test(NAME run_smem_callee_${v}
    ARGS run ${BS}/block_sum_${v}.ptx --kernel block_sum_kernel ${a}
    STDOUT "2 of 2 CTAs")
  wm_cli_test(NAME run_smem_tile_check_${v}
    ARGS run ${BS}/block_sum_${v}.ptx --kernel block_sum_tile ${a}
         --check race
    STDOUT "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse agree")
  wm_cli_test(NAME run_smem_racy_check_${v} EXIT 1
    ARGS run ${BS}/block_sum_${v}.ptx --kernel block_sum_racy ${a}
         --check race
    STDOUT "write-after-read hazard on shared part\\[1\\] \\(offset 132\\)"
           "block_sum.cu:35 \\(read\\) and [^ ]*block_sum.cu:34 \\(write\\)")
endforeach()
