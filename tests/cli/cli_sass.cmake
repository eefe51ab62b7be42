# CLI tests of the SASS level: `warpmem sass`, run and lint --level sass.
# They need ptxas (CUDA toolkit) and nvdisasm (toolkit or NVIDIA's pip
# wheel nvidia-cuda-nvdisasm, found under $VIRTUAL_ENV); without them one
# test reports the skip and why.  The errors need no tool.
set(SK ${PROJECT_SOURCE_DIR}/tests/corpus/ptx/sass_shapes_sm_80.ptx)
set(SG ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80/sgemm.ptx)

find_program(WM_PTXAS ptxas PATHS $ENV{CUDA_HOME}/bin /usr/local/cuda/bin)
set(wm_wheel_dirs "")
foreach(prefix $ENV{VIRTUAL_ENV} ${PROJECT_SOURCE_DIR}/build/ci-venv)
  file(GLOB d "${prefix}/lib/python3*/site-packages/nvidia/cu1*/bin"
              "${prefix}/lib/python3*/site-packages/nvidia/cuda_nvdisasm/bin")
  list(APPEND wm_wheel_dirs ${d})
endforeach()
find_program(WM_NVDISASM nvdisasm
  PATHS $ENV{CUDA_HOME}/bin /usr/local/cuda/bin ${wm_wheel_dirs})

wm_cli_test(NAME sass_level_bad
  ARGS run ${SK} --kernel row_sum --grid 1 --block 128 --level wide
  EXIT 2 STDERR "--level: 'wide' is not auto, sass or ptx")
# A file that is not PTX: the parse error, exit 4, and nothing left
# allocated (under ASan a leak of the file's text fails the exit status)
wm_cli_test(NAME sass_not_ptx
  ARGS sass ${PROJECT_SOURCE_DIR}/examples/expr/kv_cache.expr
  EXIT 4 STDERR "kv_cache.expr:1:1: error: expected a directive at module scope")

# An explicit tool that is not there: --level sass fails and says why;
# auto falls back to PTX-level numbers with the caveat.
set(wm_no_tool WARPMEM_NVDISASM=/nonexistent/nvdisasm WARPMEM_LEVEL=auto)
wm_cli_test(NAME sass_no_tool
  ARGS sass ${SK}
  EXIT 4 STDERR "--level sass: WARPMEM_NVDISASM=/nonexistent/nvdisasm is not an executable file")
set_tests_properties(cli_sass_no_tool PROPERTIES ENVIRONMENT "${wm_no_tool}")
wm_cli_test(NAME sass_auto_falls_back
  ARGS run ${SK} --kernel row_sum --grid 1 --block 128
       --arg f32[2048]:rand=1 --arg f32[32] --arg i32=32
  STDOUT "PTX-level numbers: ptxas may merge")
set_tests_properties(cli_sass_auto_falls_back PROPERTIES
  ENVIRONMENT "${wm_no_tool}")

if(NOT WM_PTXAS OR NOT WM_NVDISASM)
  add_test(NAME cli_sass_tools_missing
    COMMAND ${CMAKE_COMMAND} -E echo
      "SASS tests skip: ptxas (${WM_PTXAS}) or nvdisasm (${WM_NVDISASM}) not found; pip install nvidia-cuda-nvdisasm into the active virtualenv and reconfigure")
  set_tests_properties(cli_sass_tools_missing PROPERTIES
    SKIP_REGULAR_EXPRESSION "SASS tests skip")
  return()
endif()

set(wm_tools "WARPMEM_PTXAS=${WM_PTXAS};WARPMEM_NVDISASM=${WM_NVDISASM};WARPMEM_SASS_CACHE=${CMAKE_BINARY_DIR}/sass-cache")
set(RD ${SK} --kernel row_dot36 --grid 1 --block 64
       --arg f32[2048]:rand=1 --arg f32[32]:rand=2 --arg f32[64])

# sgemm.cu:36, by hand from the disassembly: As[ty][k] is LDS.128 at
# R17 + 0, 16, 32, 48 (twice: ptxas unrolls the tile loop), Bs[k][tx]
# LDS at R0.X4 + 0x400 + 64k.
wm_cli_test(NAME sass_list_sgemm ARGS sass ${SG}
  STDOUT "sgemm.cu:36  \\(sgemm_tiled\\)"
         "LDS.128 \\[R17\\+0x10\\]  shared ld, 16 B"
         "LDS \\[R0.X4\\+0x440\\]  shared ld, 4 B")
wm_cli_test(NAME sass_list_json ARGS sass ${SG} --json
  STDOUT "\"line\": 36, \"offset\": [0-9]+, \"opcode\": \"LDS.128\", \"space\": \"shared\", \"op\": \"ld\", \"width\": 16, \"base\": \"R17\", \"imm\": 16")
wm_cli_test(NAME sass_map_row_dot36
  ARGS sass ${SK} --map --kernel row_dot36
  STDOUT "^SASS map \\(ptxas -arch sm_80, profile sm_80 \\(from .target sm_80\\)\\): 4 lines with memory accesses, 2 with merges \\(72 PTX accesses merged away\\), 0 with splits, 0 unmapped"
         "sass_shapes.cu:25  lead     16 B x4  LDS.128 +ld.shared.f32 %f35, \\[%r3\\]"
         "sass_shapes.cu:25  merged   16 B  LDS.128 +ld.shared.f32 %f38, \\[%r3\\+4\\]")
# Line 25 at SASS level: 16 LDS.128 per warp, 4 wavefronts each, no
# conflict (the PTX level's 4-way conflicts of the 36-float rows are gone,
# and with them the line's rank).
wm_cli_test(NAME sass_run_row_dot36 ARGS run ${RD} --level sass
  STDOUT "SASS-level numbers \\(ptxas, nvdisasm\\): of 4 source lines"
         "     sass_shapes.cu:25        shared ld         32     4.00     4.00                   0  wavefronts/request"
         "shared ld.128 +2 +4.00 +4.00 +0 +ptx:135 ld.shared.f32 %f35, \\[%r3\\]")
wm_cli_test(NAME sass_run_row_dot36_ptx ARGS run ${RD} --level ptx
  STDOUT "#2   sass_shapes.cu:25        shared ld        128     2.50     1.00                 192")
wm_cli_test(NAME sass_run_json ARGS run ${RD} --level sass --format json
  STDOUT "\"level\": \"sass\""
         "\"sass\": {\"map\": \"lead\", \"opcode\": \"LDS.128\", \"width\": 16, \"merged\": 4}, \"ptx_level\": {\"instructions\": 4, \"stats\": {[^}]*\"requests\": 8")
wm_cli_test(NAME sass_lint_sgemm
  ARGS lint ${SG} --block 16,16 --arch sm_80 --level sass --color never
  STDOUT "SASS-level widths \\(ptxas -arch sm_80, nvdisasm\\): 1 lines merge PTX accesses \\(12 merged into wider ones\\)"
         "shared ld.128 +4 +4 +4  exact +0 +ptx:101")
# tests/corpus/sass_split_sort.cu (hand counts in tests/unit/test_sass.c):
# point_weight:22 reads p.x and p.w of a float4 as LDG.E at +0 and +12;
# bitonic_tile's j = 1 steps are LDS.64 on line 97 and, for the stores of
# lines 100 and 101, an STS.64 that ptxas names by line 101.
set(SS ${PROJECT_SOURCE_DIR}/tests/corpus/ptx/sass_split_sort_sm_80.ptx)
wm_cli_test(NAME sass_map_split
  ARGS sass ${SS} --map --kernel point_weight
  STDOUT "2 lines with memory accesses, 0 with merges \\(0 PTX accesses merged away\\), 1 with splits, 0 unmapped"
         "sass_split_sort.cu:22  split     4 B /2 \\+0 \\+12  LDG.E +ld.global.v4.f32")
wm_cli_test(NAME sass_map_bitonic
  ARGS sass ${SS} --map --kernel bitonic_tile
  STDOUT "7 lines with memory accesses, 2 with merges \\(16 PTX accesses merged away\\), 0 with splits, 0 unmapped"
         "sass_split_sort.cu:97  lead      8 B x2  LDS.64 +ld.shared.f32 %f2, \\[%r4\\]"
         "sass_split_sort.cu:100  merged    8 B  STS.64 +st.shared.f32 \\[%r4\\], %f1"
         "sass_split_sort.cu:101  lead      8 B x2 -4  STS.64 +st.shared.f32 \\[%r4\\+4\\], %f2")
# 2 warps: the v4 load's 2 requests of 16 sectors are, as LDG.E at +0
# and +12, 4 requests of 16 sectors.
set(PW ${SS} --kernel point_weight --grid 1 --block 64
       --arg f32[256]:rand=1 --arg f32[64] --arg i32=64 --level sass)
wm_cli_test(NAME sass_run_split ARGS run ${PW}
  STDOUT "1 split them, 0 are not mapped"
         "sass_split_sort.cu:22    global ld          4    16.00     4.00        48"
         "kernel totals \\(Nsight Compute names, SASS level\\):")
wm_cli_test(NAME sass_run_split_json ARGS run ${PW} --format json
  STDOUT "\"sass\": {\"map\": \"split\", \"opcode\": \"LDG.E\", \"width\": 4, \"parts\": 2, \"slots\": 9}, \"ptx_level\": {\"instructions\": 1, \"stats\": {[^}]*\"requests\": 2, \"bytes\": 1024, \"sectors\": 32")
# lint at SASS width and start: pair_re's split is LDS of lanes 16 bytes
# apart (4-way); line 101's STS.64 starts 4 bytes below its lead's
# s[i + 1], at s + 8t: 2 wavefronts, aligned.
wm_cli_test(NAME sass_lint_split
  ARGS lint ${SS} --kernel pair_re --block 128 --arch sm_80 --level sass --color never
  STDOUT "SASS-level widths \\(ptxas -arch sm_80, nvdisasm\\): 0 lines merge PTX accesses \\(0 merged into wider ones\\), 1 split, 0 not mapped"
         "shared ld.32 +4 +1 +4  exact +-16 +ptx:99 ld.shared.v4.f32")
wm_cli_test(NAME sass_lint_bitonic
  ARGS lint ${SS} --kernel bitonic_tile --block 128 --arch sm_80 --level sass --color never
  STDOUT "shared st.64 +2 +2 +2  exact +8 +ptx:568 st.shared.f32 \\[%r4\\+4\\], %f2")
# nvcuda::wmma inlined from mma.hpp: listed at the kernel's line that
# calls load_matrix_sync (nvdisasm -gi's chain), mma.hpp's line beside it.
set(WG ${PROJECT_SOURCE_DIR}/tests/corpus/ptx/wmma_gemm_sm_80.ptx)
wm_cli_test(NAME sass_list_inlined ARGS sass ${WG}
  STDOUT "wmma_gemm.cu:38  \\(_Z9wmma_gemmPfPK6__halfS2_iii\\)\n  /\\*[0-9a-f]+\\*/ LDSM.16.M88.4 \\[R[0-9]+\\+0x0\\]  shared ldsm, 16 B  \\[mma.hpp:91\\]"
         "wmma_gemm.cu:39  \\(_Z9wmma_gemmPfPK6__halfS2_iii\\)\n  /\\*[0-9a-f]+\\*/ LDSM.16.MT88.4")
wm_cli_test(NAME sass_list_inlined_json ARGS sass ${WG} --json
  STDOUT "\"file\": \"cuda/include/crt/mma.hpp\", \"line\": 91, .*\"opcode\": \"LDSM.16.M88.4\", .*\"call_file\": \"../wmma_gemm.cu\", \"call_line\": 38")
foreach(t sass_list_inlined sass_list_inlined_json sass_list_sgemm sass_list_json sass_map_row_dot36 sass_run_row_dot36
          sass_run_row_dot36_ptx sass_run_json sass_lint_sgemm sass_map_split
          sass_map_bitonic sass_run_split sass_run_split_json sass_lint_split
          sass_lint_bitonic)
  set_tests_properties(cli_${t} PROPERTIES ENVIRONMENT "${wm_tools}")
endforeach()
