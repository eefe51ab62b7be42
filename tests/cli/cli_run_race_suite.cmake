# The race table of docs/check.md: every kernel of tests/check/race_suite.cu
# under --check race, -O3 and -G, sm_80 and sm_90; racy kernels exit 1 with
# the hazard named, clean ones exit 0 (the grid_sync_* ones launched
# cooperatively: the whole grid is one unit of the checker).  The reverse
# schedule of warp_flag_relaxed (and _block_relaxed) spins on its relaxed
# load, which does not yield, until the step budget: a small one keeps the
# test short.  cta_shift_racy on 4 blocks: the race found when block 1's
# words are folded (as block 2 begins) names block 1.
set(RS ${PROJECT_SOURCE_DIR}/tests/check/ptx)
foreach(c
    "warp_waw_racy|--grid 1 --block 32|i32[16]|1|write-conflict hazard"
    "warp_waw_same|--grid 1 --block 32|i32[16]|0|0 race hazards"
    "flag_benign|--grid 1 --block 32|i32[1]@i32[32]:iota|0|0 race hazards"
    "warp_waw_shared|--grid 1 --block 64|i32[1]|1|hazard on shared"
    "cta_waw_racy|--grid 2 --block 32|i32[32]|1|write-after-write hazard on global[^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "cta_disjoint|--grid 2 --block 32|i32[64]|0|0 race hazards"
    "cta_shift_racy|--grid 4 --block 32|f32[128]@i32=128|1|write-after-read hazard on global buffer 0 \\[47\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\): 96 times"
    "flag_fence|--grid 2 --block 32|i32[1]@i32[32]@i32[32]|0|0 race hazards"
    "flag_nofence|--grid 2 --block 32|i32[1]@i32[32]@i32[32]|1|read-after-write hazard on global"
    "flag_writer_fence|--grid 2 --block 32|i32[1]@i32[32]@i32[32]|1|read-after-write hazard on global"
    "last_block_fence|--grid 4 --block 64|f32[256]:iota@f32[4]@u32[1]@f32[1]|0|0 race hazards"
    "last_block_nofence|--grid 4 --block 64|f32[256]:iota@f32[4]@u32[1]@f32[1]|1|read-after-write hazard on global"
    "hist_atomic|--grid 4 --block 64|u32[256]:iota@u32[16]|0|0 race hazards"
    "hist_block_atomic|--grid 4 --block 64|u32[256]:iota@u32[16]|1|write-after-write hazard on global buffer 1 \\[[0-9]+\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "hist_block_atomic_own|--grid 4 --block 64|u32[256]:iota@u32[64]|0|0 race hazards"
    "hist_block_shared|--grid 4 --block 64|u32[256]:iota@u32[16]|0|0 race hazards"
    "warp_flag_acqrel|--grid 1 --block 64|i32[1]@i32[32]@i32[32]|0|0 race hazards"
    "warp_flag_relaxed|--grid 1 --block 64 --max-steps 20000|i32[1]@i32[32]@i32[32]|1|read-after-write hazard on global buffer 1 \\[0\\][^\n]*block \\(0,0,0\\): 32 times"
    "warp_flag_block|--grid 1 --block 64|i32[1]@i32[32]@i32[32]|0|0 race hazards"
    "warp_flag_block_relaxed|--grid 1 --block 64 --max-steps 20000|i32[1]@i32[32]@i32[32]|1|read-after-write hazard on global buffer 1 \\[0\\][^\n]*block \\(0,0,0\\): 32 times"
    "warp_flag_block_fence|--grid 1 --block 64|i32[1]@i32[32]@i32[32]|0|0 race hazards"
    "block_flag_between_blocks|--grid 2 --block 32|i32[1]@i32[32]@i32[32]|1|read-after-write hazard on global buffer 1 \\[31\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\): 32 times"
    "warp_flag_block_rmw|--grid 1 --block 64|i32[1]@i32[32]@i32[32]|0|0 race hazards"
    "warp_flag_block_rmw_nofence|--grid 1 --block 64|i32[1]@i32[32]@i32[32]|1|read-after-write hazard on global buffer 1 \\[0\\][^\n]*block \\(0,0,0\\): 32 times"
    "block_rmw_flag_between_blocks|--grid 2 --block 32|i32[1]@i32[32]@i32[32]|1|write-after-write hazard on global buffer 0 \\[0\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "steal_device|--grid 2 --block 32|i32[256]:iota@i32=256@i32[2]|0|0 race hazards"
    "steal_block|--grid 2 --block 32|i32[256]:iota@i32=256@i32[2]|1|write-after-write hazard on global buffer 2 \\[1\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "lock_device|--grid 4 --block 32|i32[1]@i32[1]|0|0 race hazards"
    "lock_block_between_blocks|--grid 4 --block 32|i32[1]@i32[1]|1|write-after-write hazard on global buffer 0 \\[0\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "device_var_plain|--grid 4 --block 32|i32[4]|1|write-after-write hazard on global blocks_seen \\(byte [0-9]+\\)[^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "device_var_atomic|--grid 4 --block 32|i32[4]|0|0 race hazards"
    "reset_first|--grid 4 --block 64|u32[4]|1|hazard on global ticket_count \\(byte [0-9]+\\)[^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)"
    "reset_last|--grid 4 --block 64|u32[4]|0|0 race hazards"
    "reset_last_other|--grid 4 --block 64|u32[4]|0|0 race hazards"
    "grid_sync_sum|--grid 4 --block 64 --cooperative|f32[256]:iota@f32[4]@f32[1]|0|0 race hazards"
    "grid_sync_late|--grid 4 --block 64 --cooperative|f32[256]:iota@f32[4]@f32[1]|1|write-after-read hazard on global buffer 1 \\[1\\][^\n]*between blocks \\(0,0,0\\) and \\(1,0,0\\)")
  string(REPLACE "|" ";" f "${c}")
  list(GET f 0 k)
  list(GET f 1 launch)
  list(GET f 2 specs)
  list(GET f 3 rc)
  list(GET f 4 re)
  separate_arguments(launch)
  string(REPLACE "@" ";" specs "${specs}")
  set(args "")
  foreach(s ${specs})
    list(APPEND args --arg ${s})
  endforeach()
  foreach(v sm_80 G_sm_80 sm_90 G_sm_90)
    wm_cli_test(NAME race_suite_${k}_${v} EXIT ${rc}
      ARGS run ${RS}/race_suite_${v}.ptx --kernel ${k} ${launch} ${args}
           --check race --draw 0
      STDOUT "${re}")
  endforeach()
endforeach()
