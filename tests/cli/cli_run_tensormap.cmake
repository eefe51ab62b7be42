# CLI tests of tensor maps built in device code (ptx_tensormap.c): the
# corpus kernels of tests/corpus/tma_replace.cu through `warpmem run`, a
# host map from --arg tmap: retargeted by tensormap.replace, and the fault
# of an edit the PTX ISA refuses.
set(C ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})

# the map of a 32 x 64 tensor pointed at in2 (iota, 16 rows) under the
# 128-byte swizzle: out = in2 (37, 38 at 37, 38) only if every edit landed
wm_cli_test(NAME run_tensormap_retarget
  ARGS run ${C}/tma_replace_sm_90a.ptx --kernel tmr_retarget --grid 2
       --block 128 --arg tmap:f32[32x64]:box=32x8:zeros --arg f32[512]:iota
       --arg i32=16 --arg f32[512]:out=${B}/tmr_out.bin --arg u8[256]
       --draw 0 --color never --check race
  STDOUT "check: 0 race hazards")
wm_file_hex(run_tensormap_retarget_out run_tensormap_retarget
  ${B}/tmr_out.bin 0000144200001842 -DOFFSET=148 -DLIMIT=8)

# a row pitch of 200 bytes: global_stride must be a multiple of 16
wm_cli_test(NAME run_tensormap_bad_stride EXIT 1
  ARGS run ${C}/tma_replace_sm_90a.ptx --kernel tmr_build --grid 2,3
       --block 128 --arg f32[1000] --arg f32[1536] --arg i32=50 --arg i32=20
       --arg u8[768] --draw 0 --color never
  STDERR "tensormap.replace.tile.global_stride of the map at 0x0: global stride 200 bytes \\(a multiple of 16 below 2\\^40\\)")
