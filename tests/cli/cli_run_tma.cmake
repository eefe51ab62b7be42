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

# im2col: conv3x3_im2col on one 4 x 4 image of 32 channels (iota), weights
# all 1.  Each of the 9 taps x 2 channel blocks loads the 16 pixels whose
# input (oh - 1 + r, ow - 1 + s) is inside: 3, 4, 3 rows by r and columns
# by s, 10 x 10 = 100 per block, 200 rows of 16 floats at 64-byte-aligned
# addresses, 2 sectors each (hand count).  out[pixel 0] sums channels
# 0..31 of pixels 0, 1, 4, 5: 1024 x 10 + 4 x 496 = 12224 (0x463f0000) for
# every output channel.
wm_cli_test(NAME run_tma_im2col_conv
  ARGS run ${C}/tma_im2col_sm_90a.ptx --kernel conv3x3_im2col --grid 1
       --block 256
       --arg "tmap:f32[32x4x4x1]:im2col=lower(-1,-1),upper(-1,-1),ch=16,px=32:iota"
       --arg f32[2304]:rand=1,1,1 --arg f32[128]:out=${B}/im2col_out.bin
       --arg i32=1 --arg i32=4 --arg i32=4 --arg i32=0 --draw 0 --color never
  STDOUT "tma_im2col.cu:81 +global tma +200 +2.00 +2.00 +0 ")
wm_file_hex(run_tma_im2col_conv_out run_tma_im2col_conv ${B}/im2col_out.bin
  00003f4600003f46 -DOFFSET=0 -DLIMIT=8)

wm_cli_test(NAME run_tma_im2col_bad_channels EXIT 2
  ARGS run ${C}/tma_im2col_sm_90a.ptx --kernel conv3x3_im2col --grid 1
       --block 256
       --arg "tmap:f32[32x4x4x1]:im2col=lower(-1,-1),upper(-1,-1),ch=300,px=32"
       --arg f32[2304] --arg f32[128] --arg i32=1 --arg i32=4 --arg i32=4
       --arg i32=0
  STDERR "im2col channels per pixel 300 \\(1..256\\)")
wm_cli_test(NAME run_tma_im2col_bad_corner EXIT 2
  ARGS run ${C}/tma_im2col_sm_90a.ptx --kernel conv3x3_im2col --grid 1
       --block 256
       --arg "tmap:f32[32x4x4x1]:im2col=lower(-200,-1),upper(-1,-1),ch=16,px=32"
       --arg f32[2304] --arg f32[128] --arg i32=1 --arg i32=4 --arg i32=4
       --arg i32=0
  STDERR "im2col lower corner 0 is -200 \\(-128..127 at rank 4\\)")
wm_cli_test(NAME run_tma_im2col_bad_rank EXIT 2
  ARGS run ${C}/tma_im2col_sm_90a.ptx --kernel conv3x3_im2col --grid 1
       --block 256
       --arg "tmap:f32[32x4x4x1]:im2col=lower(-1),upper(-1,-1),ch=16,px=32"
       --arg f32[2304] --arg f32[128] --arg i32=1 --arg i32=4 --arg i32=4
       --arg i32=0
  STDERR "rank - 2 corners each \\(W first\\)")

# the convolution under --check race, 64-byte swizzled, M tiles across rows
# and images: the loads' shared writes are ordered by the mbarrier and the
# __syncthreads before each reuse of the tile
wm_cli_test(NAME run_tma_im2col_check
  ARGS run ${C}/tma_im2col_sm_90a.ptx --kernel conv3x3_im2col --grid 3
       --block 256
       --arg "tmap:f32[32x6x6x2]:im2col=lower(-1,-1),upper(-1,-1),ch=16,px=32:swizzle=64B:iota"
       --arg f32[2304]:iota --arg f32[576] --arg i32=2 --arg i32=6
       --arg i32=6 --arg i32=1 --check race --draw 0
  STDOUT "check: 0 race hazards")
wm_cli_test(NAME run_tma_im2col_bad_syntax EXIT 2
  ARGS run ${C}/tma_im2col_sm_90a.ptx --kernel conv3x3_im2col --grid 1
       --block 256
       --arg "tmap:f32[32x4x4x1]:im2col=lower(-1,-1),upper(-1,-1),ch=16,px=32,"
       --arg f32[2304] --arg f32[128] --arg i32=1 --arg i32=4 --arg i32=4
       --arg i32=0
  STDERR "bad 'im2col=lower")
