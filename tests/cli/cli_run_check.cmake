# CLI tests of `warpmem run --check` and `--schedule` (docs/check.md): each
# planted bug of tests/check/ is reported with its kind and both source
# lines (exit 1), an example kernel is clean (exit 0), JSON carries the
# hazards, and bad values are usage errors (exit 2).
set(CK ${PROJECT_SOURCE_DIR}/tests/check/ptx)
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)

wm_cli_test(NAME run_check_reduce_nosync EXIT 1
  ARGS run ${CK}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
       --arg f32[256]:iota --check race --draw 0
  STDOUT "check: write-after-read hazard on shared sdata\\[128\\] \\(offset 512\\), 4 bytes, block \\(0,0,0\\): 128 times\n    read   warp 0 lane 0, thread \\(0,0,0\\), PTX line 52, [^\n]*reduce_nosync.cu:18: ld.shared.f32[^\n]*\n    write  warp 4 lane 0, thread \\(128,0,0\\), PTX line 46, [^\n]*reduce_nosync.cu:14: st.shared.f32"
         "check: outputs differ between schedules in-order and reverse: argument 0, element 0 \\(byte 2\\): 8128 vs 32640 \\(f32; bytes 0x45fe0000 vs 0x46ff0000\\)\n"
         "check: 1 race hazard, 0 uninitialized reads, schedules in-order and reverse differ")
wm_cli_test(NAME run_check_reduce_nosync_reverse EXIT 1
  ARGS run ${CK}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
       --arg f32[256]:iota --check race --schedule reverse --draw 0
  STDOUT "check: read-after-write hazard on shared sdata\\[224\\]"
         "    write  warp 7 lane 0, [^\n]*reduce_nosync.cu:14"
         "    read   warp 3 lane 0, [^\n]*reduce_nosync.cu:18"
         "schedules reverse and in-order differ")
wm_cli_test(NAME run_check_gemm_war EXIT 1
  ARGS run ${CK}/gemm_war_sm_80.ptx --grid 2,2 --block 16,16 --arg f32[1024]
       --arg f32[1024]:iota --arg f32[1024]:iota --arg i32=32 --check race
       --draw 0
  STDOUT "check: write-after-read between [^\n]*gemm_war.cu:23 \\(read\\) and [^\n]*gemm_war.cu:19 \\(write\\): 16 instruction pairs"
         "check: write-after-read between [^\n]*gemm_war.cu:23 \\(read\\) and [^\n]*gemm_war.cu:20 \\(write\\): 16 instruction pairs"
         "check: read-after-write between [^\n]*gemm_war.cu:20 \\(write\\) and [^\n]*gemm_war.cu:23 \\(read\\)")
wm_cli_test(NAME run_check_warp_reduce EXIT 1
  ARGS run ${CK}/warp_reduce_sm_80.ptx --grid 1 --block 64 --arg f32[1]
       --arg f32[64]:iota --check all --draw 0
  STDOUT "check: read-after-write hazard on shared s\\[16\\] \\(offset 64\\)[^\n]*\n    write  warp 0 lane 16, [^\n]*warp_reduce.cu:18: st.volatile.shared.f32[^\n]*\n    read   warp 0 lane 0, [^\n]*warp_reduce.cu:19: ld.volatile.shared.f32"
         "check: read-after-write between [^\n]*warp_reduce.cu:18 \\(write\\) and [^\n]*warp_reduce.cu:19 \\(read\\): 1 instruction pair, 16 times"
         "schedules in-order and reverse agree")
wm_cli_test(NAME run_check_stencil_halo EXIT 1
  ARGS run ${CK}/stencil_halo_sm_80.ptx --grid 2 --block 128 --arg f32[256]
       --arg f32[256]:iota --arg i32=256 --check init --draw 0
  STDOUT "check: uninitialized-read hazard on shared t\\[129\\] \\(offset 516\\), 4 bytes, block \\(0,0,0\\): 2 times\n    read   warp 3 lane 31, thread \\(127,0,0\\), PTX line [0-9]+, [^\n]*stencil_halo.cu:19: "
         "check: 0 race hazards, 1 uninitialized read\n")
wm_cli_test(NAME run_check_json EXIT 1
  ARGS run ${CK}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
       --arg f32[256]:iota --check race --format json
  STDOUT "\"hazards\": .\n  .\"kind\": \"write-after-read\", \"space\": \"shared\", \"address\": 512, \"size\": 4, \"variable\": \"sdata\", \"index\": 128, \"buffer\": -1"
         "\"count\": 128, \"first\": \\{\"access\": \"read\", \"warp\": 0, \"lane\": 0, \"thread\": \\[0, 0, 0\\], \"ptx_line\": 52, "
         "\"file\": \"../reduce_nosync.cu\", \"line\": 14, \"block\": \\[0, 0, 0\\]\\}"
         "\"schedules\": \\{\"reported\": \"in-order\", \"other\": \"reverse\", \"differs\": true, \"argument\": 0, \"element\": 0, \"byte\": 2, \"values\": \\[\"0x45fe0000\", \"0x46ff0000\"\\], \"type\": \"f32\", \"typed_values\": \\[8128, 32640\\], \"proved\": false\\}")
# A clean run proves the other order's outputs equal (no race, nothing
# the tracker does not follow) and leaves the second run out; `schedules`
# runs it anyway.
wm_cli_test(NAME run_check_clean
  ARGS run ${K}/reduce.ptx --grid 4 --block 256 --arg f32[4]
       --arg f32[1024]:iota --arg i32=1024 --check all --draw 0
  STDOUT "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse agree \\(proved: no race and every access tracked; the second run was left out\\)\n\nPTX-level numbers: ")
wm_cli_test(NAME run_check_clean_compared
  ARGS run ${K}/reduce.ptx --grid 4 --block 256 --arg f32[4]
       --arg f32[1024]:iota --arg i32=1024 --check all,schedules --draw 0
  STDOUT "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse agree\n\nPTX-level numbers: ")
wm_cli_test(NAME run_check_clean_json
  ARGS run ${K}/reduce.ptx --grid 4 --block 256 --arg f32[4]
       --arg f32[1024]:iota --arg i32=1024 --check race --format json
  STDOUT "\"schedules\": {\"reported\": \"in-order\", \"other\": \"reverse\", \"differs\": false, \"proved\": true}")
# The histogram's atomic adds, whose results nothing reads, end the same in
# any order: proved.  The last-block sum's fence and atomicInc (a ticket)
# keep the second run.
wm_cli_test(NAME run_check_atomic_adds_proved
  ARGS run ${K}/histogram.ptx --grid 4 --block 256 --arg u32[256]
       --arg u8[4096]:iota --arg i32=4096 --check race --format json
  STDOUT "\"schedules\": {\"reported\": \"in-order\", \"other\": \"reverse\", \"differs\": false, \"proved\": true}")
wm_cli_test(NAME run_check_ticket_compared
  ARGS run ${CK}/race_suite_sm_80.ptx --kernel last_block_fence --grid 4
       --block 64 --arg f32[256]:iota --arg f32[4] --arg u32[1] --arg f32[1]
       --check race --format json
  STDOUT "\"schedules\": {\"reported\": \"in-order\", \"other\": \"reverse\", \"differs\": false, \"proved\": false}")
wm_cli_test(NAME run_check_global_uninit EXIT 1
  ARGS run ${K}/copy.ptx --grid 2 --block 256 --arg f32[512]:uninit
       --arg f32[512]:uninit --arg i32=512 --check init --draw 0
  STDOUT "check: uninitialized-read hazard on global buffer 1 \\[0\\] \\(byte 0\\), 4 bytes, block \\(0,0,0\\): 512 times\n    read   warp 0 lane 0, [^\n]*copy.cu:16: ld.global"
         "check: 0 race hazards, 1 uninitialized read\n")
wm_cli_test(NAME run_check_bad EXIT 2
  ARGS run ${K}/copy.ptx --grid 2 --block 256 --arg f32[512] --arg f32[512]
       --arg i32=512 --check races
  STDERR "--check: 'races' is not race, init, sync, schedules or all")
wm_cli_test(NAME run_schedule_bad EXIT 2
  ARGS run ${K}/copy.ptx --grid 2 --block 256 --arg f32[512] --arg f32[512]
       --arg i32=512 --schedule random:x
  STDERR "--schedule random:SEED")
