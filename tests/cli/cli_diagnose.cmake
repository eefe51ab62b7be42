# Diagnoses that name what is wrong: missing ncu CSV columns, launches of
# another shape never compared silently, --launch out of range with the
# count, whole arguments quoted, the register limit at every size, and
# CUDA's launch limits (docs/ptx.md "Launch limits", docs/output.md).
set(N tests/ncu)
set(DG_COPY run examples/kernels/sm_80/copy.ptx --block 256 --draw 0)

wm_cli_test(NAME diag_ncu_no_value EXIT 4
  ARGS compare ${N}/copy_details_novalue.csv
  STDERR "copy_details_novalue.csv:5:1: error: the details page has no \"Metric Value\" column")
wm_cli_test(NAME diag_ncu_no_block EXIT 4
  ARGS ${DG_COPY} --grid 2 --arg f32[512] --arg f32[512] --arg i32=512
       --compare ${N}/copy_details_noblock.csv
  STDOUT "kernel copy_f32, block 256, grid 2: the export gives no launch shape \\(no \"Block Size\" or \"Grid Size\"\\): pick the launch with --launch N\n"
  STDERR "compare: nothing compared: no measured launch matched")
wm_cli_test(NAME diag_ncu_other_shape EXIT 4
  ARGS ${DG_COPY} --grid 4 --arg f32[1024] --arg f32[1024] --arg i32=1024
       --compare ${N}/copy_details.csv
  STDOUT "kernel copy_f32, block 256, grid 4: none of its 2 measured launches has block 256, grid 4 \\(pick one with --launch N\\)\n0 of 0 compared"
  STDERR "compare: nothing compared")
wm_cli_test(NAME diag_ncu_launch_range EXIT 4
  ARGS compare ${N}/copy_raw.csv ${N}/copy_raw.csv --launch 99
  STDOUT ": no launch 99 of it: the exports have 2 launches of it \\(--launch 0..1\\)\n")

wm_cli_test(NAME diag_grid_whole EXIT 2
  ARGS ${DG_COPY} --grid 1,1,1,1 --arg f32[1] --arg f32[1] --arg i32=1
  STDERR "^warpmem: error: --grid: '1,1,1,1' is not X\\[,Y\\[,Z\\]\\]\n$")
wm_cli_test(NAME diag_grid_range_whole EXIT 2
  ARGS ${DG_COPY} --grid 2,2147483648 --arg f32[1] --arg f32[1] --arg i32=1
  STDERR "^warpmem: error: --grid: '2,2147483648': dimension out of range")
wm_cli_test(NAME diag_arg_whole EXIT 2
  ARGS ${DG_COPY} --grid 1 --arg f32[1] --arg f32[1] --arg i32=12x
  STDERR "^warpmem: error: --arg 'i32=12x': '12x' is not")
wm_cli_test(NAME diag_ctas_whole EXIT 2
  ARGS ${DG_COPY} --grid 1 --arg f32[1] --arg f32[1] --arg i32=1 --ctas sample:4,x
  STDERR "^warpmem: error: --ctas 'sample:4,x': 'x' is not")

foreach(k huge together)
  wm_cli_test(NAME diag_regs_${k} EXIT 4
    ARGS run tests/limits/regs_huge.ptx --kernel ${k} --grid 1 --block 32
    STDERR "may have at most 65536 register slots|needs more than 65536 register slots")
endforeach()
wm_cli_test(NAME diag_regs_huge_text EXIT 4
  ARGS run tests/limits/regs_huge.ptx --kernel huge --grid 1 --block 32
  STDERR "regs_huge.ptx:8:15: error: 10000000 registers in '%r': function 'huge' may have at most 65536 register slots")
wm_cli_test(NAME diag_regs_at_limit
  ARGS run tests/limits/regs_huge.ptx --kernel at_limit --grid 1 --block 32 --draw 0
  STDOUT "^kernel at_limit: 1 of 1 CTAs")

# CUDA's limits: each refused naming its limit (exit 2), the largest
# allowed value accepted (one CTA of the grid run)
foreach(c "grid|2147483647|1|0|"
          "grid|1,65535|1|0|" "grid|1,1,65535|1|0|"
          "grid|1,65536|1|2|grid y of 65536 exceeds CUDA's limit of 65535 \\(gridDim.y\\)"
          "grid|1,1,65536|1|2|grid z of 65536 exceeds CUDA's limit of 65535 \\(gridDim.z\\)"
          "block|1,1,64|1|0|"
          "block|1,1,65|1|2|block z of 65 exceeds CUDA's limit of 64 \\(blockDim.z\\)"
          "block|1,1025|1|2|block has 1025 threads \\(CUDA's limit is 1024 threads per block\\)"
          "block|1025|1|2|block has 1025 threads \\(CUDA's limit is 1024 threads per block\\)"
          "block|32,32|1|0|"
          "block|64,32|1|2|block has 2048 threads")
  string(REPLACE "|" ";" f "${c}")
  list(GET f 0 what)
  list(GET f 1 dims)
  list(GET f 3 rc)
  list(GET f 4 msg)
  string(REPLACE "," "_" tag "${dims}")
  if(what STREQUAL "grid")
    set(shape --grid ${dims} --block 32)
  else()
    set(shape --grid 1 --block ${dims})
  endif()
  wm_cli_test(NAME diag_limit_${what}_${tag} EXIT ${rc}
    ARGS run examples/kernels/sm_80/copy.ptx ${shape} --ctas first:1 --draw 0
         --arg f32[1] --arg f32[1] --arg i32=1
    STDERR "${msg}")
endforeach()
