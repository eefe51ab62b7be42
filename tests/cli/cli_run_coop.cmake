# Cooperative launches (tests/corpus/grid_sync.cu): with --cooperative
# every CTA runs at once and grid.sync() works (the total is the sum of
# 0..1023); without it grid.sync() traps and the message says why; a block
# that returns before the barrier is a deadlock, reported; the checks
# follow the whole grid (clean here; past 1024 warps refused); the model,
# sampling and grids past 4224 CTAs are refused.
set(GS ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})
foreach(v sm_80 G_sm_80 sm_90 G_sm_90)
  set(a --grid 4 --block 256 --arg f32[1024]:iota --arg f32[4]
        --arg f32[1]:out=${B}/coop_total_${v}.bin --arg i32=1024 --draw 0)
  wm_cli_test(NAME run_coop_sum_${v}
    ARGS run ${GS}/grid_sync_${v}.ptx --kernel grid_sum ${a} --cooperative
    STDOUT "4 of 4 CTAs")
  wm_file_hex(run_coop_sum_${v}_total run_coop_sum_${v}
    ${B}/coop_total_${v}.bin 00c0ff48)
  wm_cli_test(NAME run_coop_plain_${v} EXIT 1
    ARGS run ${GS}/grid_sync_${v}.ptx --kernel grid_sum ${a}
    STDERR "trap instruction executed \\(the module reads %envreg1/%envreg2, the grid workspace that only a cooperative launch sets.*--cooperative\\)")
  wm_cli_test(NAME run_coop_early_${v} EXIT 1
    ARGS run ${GS}/grid_sync_${v}.ptx --kernel grid_sum_early --grid 4
         --block 256 --arg f32[1024]:iota --arg f32[4] --arg f32[1]
         --arg i32=512 --draw 0 --cooperative
    STDERR "cooperative launch deadlock: in 1000 rounds no CTA exited or passed a barrier")
endforeach()
set(a --kernel grid_sum --block 256 --arg f32[1024]:iota --arg f32[4]
      --arg f32[1] --arg i32=1024 --draw 0 --cooperative)
wm_cli_test(NAME run_coop_check
  ARGS run ${GS}/grid_sync_sm_90.ptx ${a} --grid 4 --check all
  STDOUT "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse agree")
wm_cli_test(NAME run_coop_check_jacobi
  ARGS run ${GS}/grid_sync_G_sm_80.ptx --kernel jacobi_grid --grid 4
       --block 64 --arg f32[1000]:iota --arg f32[1000] --arg i32=1000
       --arg i32=6 --draw 0 --cooperative --check race,init
  STDOUT "check: 0 race hazards, 0 uninitialized reads")
wm_cli_test(NAME run_coop_check_warps EXIT 2
  ARGS run ${GS}/grid_sync_sm_90.ptx ${a} --grid 33 --block 1024 --check race
  STDERR "a checked cooperative launch of 1056 warps and 33792 bytes of shared memory in all: the checks follow its whole grid at once, at most 1024 warps and 16777216 bytes")
wm_cli_test(NAME run_coop_cache EXIT 2
  ARGS run ${GS}/grid_sync_sm_90.ptx ${a} --grid 4 --cache
  STDERR "the hierarchy model does not run on a cooperative launch")
wm_cli_test(NAME run_coop_sample EXIT 2
  ARGS run ${GS}/grid_sync_sm_90.ptx ${a} --grid 4 --ctas first:2
  STDERR "a cooperative launch runs every CTA")
wm_cli_test(NAME run_coop_too_many_ctas EXIT 2
  ARGS run ${GS}/grid_sync_sm_90.ptx --kernel grid_sum --block 32
       --arg f32[1024]:iota --arg f32[4] --arg f32[1] --arg i32=1024
       --cooperative --grid 4225
  STDERR "a cooperative launch of 4225 CTAs, 135200 threads: at most 4224 CTAs and 270336 threads run at once")
wm_cli_test(NAME run_coop_too_many_threads EXIT 2
  ARGS run ${GS}/grid_sync_sm_90.ptx ${a} --grid 1057
  STDERR "a cooperative launch of 1057 CTAs, 270592 threads: at most")
# CTAs of one warp: the polling warp yields to the other CTAs (it did only
# when its own CTA had another warp, and a grid of one-warp CTAs spun until
# the step budget ran out)
wm_cli_test(NAME run_coop_one_warp
  ARGS run ${GS}/grid_sync_sm_80.ptx --kernel grid_sum --grid 8 --block 32
       --arg f32[1024]:iota --arg f32[8]
       --arg f32[1]:out=${B}/coop_total_one_warp.bin --arg i32=1024 --draw 0
       --cooperative --check race
  STDOUT "8 of 8 CTAs.*check: 0 race hazards")
wm_file_hex(run_coop_one_warp_total run_coop_one_warp
  ${B}/coop_total_one_warp.bin 00c0ff48)
