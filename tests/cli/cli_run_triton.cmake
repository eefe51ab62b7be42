# CLI tests of `warpmem run` on the committed Triton sm_90 PTX
# (tests/corpus/triton/gen.py; values against CPU references in
# tests/unit/test_corpus.c).
set(T ${PROJECT_SOURCE_DIR}/tests/corpus/triton)
set(B ${CMAKE_CURRENT_BINARY_DIR})

# num_ctas=2: the kernel asks for clusters of 2 (.reqnctapercluster), the
# launch takes them from it; each CTA of a cluster computes the 64 rows of
# the 128-row tile its %cluster_ctarank picks.  A (128 x 16) and B (16 x
# 128) are 0, 1, 2, ...: C[0][0] = 128 (0^2 + ... + 15^2) = 158720, C[0][1]
# = 158840, and rank 1's first row, C[64][j] = sum (1024 + k)(128 k + j):
# 15887360, 15903864 (all below 2^24, exact).  One K step of two
# m64n64k16 in each of 4 CTAs, 8 requests each: 64.
wm_cli_test(NAME run_triton_ctas2
  ARGS run ${T}/matmul_ctas2_sm_90.ptx --grid 2,2 --block 128 --smem 65536
       --arg f16[2048]:iota --arg f16[2048]:iota
       --arg f32[16384]:out=${B}/triton_ctas2.bin
       --arg u32=128 --arg u32=128 --arg u32=16 --color never
  STDOUT "matmul.py:25 +shared wgmma +64 +4.00 +4.00 +0 ")
wm_file_hex(run_triton_ctas2_row0 run_triton_ctas2 ${B}/triton_ctas2.bin
  00001b48001e1b48 -DOFFSET=0 -DLIMIT=8)
wm_file_hex(run_triton_ctas2_row64 run_triton_ctas2 ${B}/triton_ctas2.bin
  006c724b78ac724b -DOFFSET=32768 -DLIMIT=8)
# a grid that does not split into clusters of 2 is refused
wm_cli_test(NAME run_triton_ctas2_grid EXIT 2
  ARGS run ${T}/matmul_ctas2_sm_90.ptx --grid 1,2 --block 128 --smem 65536
       --arg f16[2048] --arg f16[2048] --arg f32[16384]
       --arg u32=128 --arg u32=128 --arg u32=16
  STDERR "grid 1x2x1 is not a multiple of the cluster 2x1x1")

# attention forward, L = 128, D = 64, two programs: QK^T reads Q per warp
# and K^T once a warpgroup (8 requests a wgmma), PV takes P from
# registers and reads V only (4): 2 CTAs x 2 steps x 4 wgmma = 16 a line
wm_cli_test(NAME run_triton_attention
  ARGS run ${T}/attention_sm_90.ptx --grid 2 --block 128 --smem 65536
       --arg f16[8192]:rand=1 --arg f16[8192]:rand=2 --arg f16[8192]:rand=3
       --arg f32[8192] --arg u32=128 --arg f32=0.18 --color never
  STDOUT "attention.py:25 +shared wgmma +128 +4.00 +4.00 +0 "
         "attention.py:32 +shared wgmma +64 +4.00 +4.00 +0 ")

# e4m3 matmul, 128 x 128 x 128 in 64 x 64 tiles, K steps of 64: two
# m64n64k32 .e4m3 a step, 8 requests each, 4 CTAs: 128
wm_cli_test(NAME run_triton_fp8
  ARGS run ${T}/matmul_fp8_sm_90.ptx --grid 2,2 --block 128 --smem 65536
       --arg u8[16384]:rand=1 --arg u8[16384]:rand=2 --arg f32[16384]
       --arg u32=128 --arg u32=128 --arg u32=128 --color never
  STDOUT "matmul_fp8.py:20 +shared wgmma +128 +4.00 +4.00 +0 "
         "ptx:[0-9]+ wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 ")
