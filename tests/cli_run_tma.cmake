# CLI tests of `warpmem run --arg tmap:...` (run_tmap.c, ptx_tma.c): TMA
# tile loads and stores through tensor maps described on the command line,
# the 128-byte swizzle, the rows counted as global "tma" traffic, and the
# refusal of a map cuTensorMapEncodeTiled would refuse.
set(C ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})

# 2 x 2 boxes of 32 x 16 floats: out = 2 in + 1, so out[100] = 201,
# out[101] = 203; each box row is 128 bytes, 4 sectors
wm_cli_test(NAME run_tma_tile_copy
  ARGS run ${C}/tma_tile_sm_90a.ptx --kernel tma_tile_copy --grid 2,2
       --block 128 --arg tmap:f32[64x32]:box=32x16:iota
       --arg tmap:f32[64x32]:box=32x16:out=${B}/tma_out.bin --draw 0
       --color never
  STDOUT "tma_tile.cu:45 +global tma +64 +4.00 +4.00 +0 ")
wm_file_hex(run_tma_tile_copy_out run_tma_tile_copy ${B}/tma_out.bin
  0000494300004b43 -DOFFSET=400 -DLIMIT=8)

# the kernel undoes the 128-byte swizzle: out = in (37, 38 at 37, 38)
wm_cli_test(NAME run_tma_swizzle128
  ARGS run ${C}/tma_tile_sm_90a.ptx --kernel tma_swizzle128 --grid 4
       --block 64 --arg tmap:f32[32x32]:box=32x8:swizzle=128B:iota
       --arg f32[1024]:out=${B}/tma_swz.bin --draw 0
  STDOUT "kernel tma_swizzle128: 4 of 4 CTAs")
wm_file_hex(run_tma_swizzle128_out run_tma_swizzle128 ${B}/tma_swz.bin
  0000144200001842 -DOFFSET=148 -DLIMIT=8)

wm_cli_test(NAME run_tma_bad_stride EXIT 2
  ARGS run ${C}/tma_tile_sm_90a.ptx --kernel tma_swizzle128 --grid 1
       --block 64 --arg tmap:f32[50x8]:box=32x8 --arg f32[256]
  STDERR "the packed stride of dimension 1 is 200 bytes, not a multiple of 16: give strides=")
wm_cli_test(NAME run_tma_bad_swizzle EXIT 2
  ARGS run ${C}/tma_tile_sm_90a.ptx --kernel tma_swizzle128 --grid 1
       --block 64 --arg tmap:f32[64x8]:box=64x8:swizzle=128B --arg f32[256]
  STDERR "inner dimension of 256 bytes is wider than the 128-byte swizzle")
