# A shared hazard's element in the array's declared dimensions where a -G
# build's DWARF declares them (src/ptx/ptx_dwarf.c): gemm_war.cu's
# `float As[16][16]` at byte 896 is As[14][0]; the -O3 PTX declares bytes
# only, so its index stays flat (As[224]).
set(CK ${PROJECT_SOURCE_DIR}/tests/check/ptx)
set(GEMM_WAR_ARGS --grid 2,2 --block 16,16 --arg f32[1024] --arg f32[1024]:iota
    --arg f32[1024]:iota --arg i32=32 --check race --draw 0 --schedule reverse)
wm_cli_test(NAME check_dims_G EXIT 1
  ARGS run ${CK}/gemm_war_G_sm_80.ptx ${GEMM_WAR_ARGS}
  STDOUT "check: write-after-read hazard on shared As\\[14\\]\\[0\\] \\(offset 896\\), 4 bytes"
         "hazard on shared Bs\\[14\\]\\[0\\] \\(offset 1920\\)")
wm_cli_test(NAME check_dims_O3_flat EXIT 1
  ARGS run ${CK}/gemm_war_sm_80.ptx ${GEMM_WAR_ARGS}
  STDOUT "check: write-after-read hazard on shared As\\[224\\] \\(offset 896\\), 4 bytes")
