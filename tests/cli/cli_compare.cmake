# warpmem compare / run --compare against hand-made Nsight Compute exports
# (tests/ncu/README.md): an exact export passes (exit 0), a planted
# mismatch is flagged (exit 1), bad exports are file:line:col errors.
set(N tests/ncu)
set(WM_CMP_COPY run examples/kernels/sm_80/copy.ptx --grid 2 --block 256
    --arg f32[512] --arg f32[512] --arg i32=512 --draw 0)

# the run's own prediction against the details page: the launch with the
# same block and grid is picked, thousands separators and CRLF read
wm_cli_test(NAME compare_run_exact
  ARGS ${WM_CMP_COPY} --compare ${N}/copy_details.csv
  STDOUT "measured: ncu ID 0, copy_f32\\(float \\*, const float \\*, int\\), block \\(256, 1, 1\\), grid \\(2, 1, 1\\)\n"
         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum +sector +64 +64 +1.000\n"
         "0 of 7 compared metrics over the 5% tolerance\n$")
wm_cli_test(NAME compare_run_mismatch EXIT 1
  ARGS ${WM_CMP_COPY} --compare ${N}/copy_details_mismatch.csv
  STDOUT "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum +sector +64 +96 +0.667  MISMATCH\n"
         "1 of 7 compared metrics over the 5% tolerance\n$")
# a wide tolerance lets the same mismatch pass
wm_cli_test(NAME compare_run_tolerance
  ARGS ${WM_CMP_COPY} --compare ${N}/copy_details_mismatch.csv --tolerance 50%
  STDOUT "0 of 7 compared metrics over the 50% tolerance\n$")
# raw page: the units row is read; --launch picks the second launch
wm_cli_test(NAME compare_run_raw
  ARGS ${WM_CMP_COPY} --compare ${N}/copy_raw.csv
  STDOUT "0 of 4 compared metrics")
# per source line from a source page
wm_cli_test(NAME compare_run_source_lines
  ARGS run examples/kernels/sm_80/transpose.ptx --kernel transpose_naive
       --grid 4,4 --block 32,8 --arg f32[16384] --arg f32[16384]:iota
       --arg i32=128 --arg i32=128 --draw 0 --compare ${N}/transpose_source.csv
  STDOUT "line 32 derived__memory_l2_theoretical_sectors_global_excessive +sector +3584 +3584 +1.000\n"
         "0 of 3 compared metrics")

# compare FILE... PREDICTION with the prediction written by warpmem
foreach(pair "csv|copy_details.csv|0" "csv|copy_details_mismatch.csv|1"
             "ncu-csv|copy_details.csv|0" "ncu-raw|copy_raw.csv|0")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 fmt)
  list(GET parts 1 export)
  list(GET parts 2 want)
  string(REPLACE ";" " " cmdline "${WM_CMP_COPY}")
  add_test(NAME cli_compare_files_${fmt}_${want}
    COMMAND sh -c "\"$0\" ${cmdline} --format ${fmt} >\"$1\" && \"$0\" compare ${N}/${export} \"$1\"; echo \"rc=$?\""
            $<TARGET_FILE:warpmem> ${CMAKE_CURRENT_BINARY_DIR}/pred_${fmt}_${want}.csv
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(cli_compare_files_${fmt}_${want} PROPERTIES
    PASS_REGULAR_EXPRESSION "compared metrics? over the 5% tolerance\nrc=${want}\n$")
endforeach()
wm_cli_test(NAME compare_raw_launch EXIT 1
  ARGS compare ${N}/copy_raw.csv ${N}/copy_raw.csv --launch 1 --format json
  STDOUT "\"measured_id\": \"1\""
         "\"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"unit\": \"sector\", \"predicted\": 64, \"measured\": 80, \"ratio\": 0.8, \"flagged\": true"
         "\"flagged\": 1}\n$")

# one file: what it holds
wm_cli_test(NAME compare_list_details
  ARGS compare ${N}/copy_details.csv
  STDOUT "^details page, 2 launches\n"
         "launch 1: ID 0, copy_f32\\(float \\*, const float \\*, int\\)"
         "dram__bytes_read.sum +Kbyte +2.05\n"
         "sm__warps_active.avg.pct_of_peak_sustained_active +% +n/a\n")

# bad exports: file:line:col, the line, a caret; exit 4
foreach(pair
    "bad_quote|3:14: error: text after the closing quote of a field"
    "bad_unterminated|3:31: error: unterminated quoted field"
    "bad_fields|3:1: error: 4 fields, the header has 5"
    "bad_value|2:31: error: 'twelve' is not a number"
    "error|2:1: error: the profiler reported an error: ==ERROR== ERR_NVGPUCTRPERM")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 want)
  wm_cli_test(NAME compare_${name} EXIT 4
    ARGS compare ${N}/${name}.csv
    STDERR "^tests/ncu/${name}.csv:${want}")
endforeach()
wm_cli_test(NAME compare_not_csv EXIT 4
  ARGS compare README.md
  STDERR "README.md:1:1: error: no CSV header")
wm_cli_test(NAME compare_nothing EXIT 4
  ARGS compare ${N}/transpose_source.csv ${N}/copy_raw.csv
  STDERR "compare: nothing compared: no measured launch matched \\(see above\\), or no metric is in both")
wm_cli_test(NAME compare_usage EXIT 2 ARGS compare
  STDERR "compare: no files")
wm_cli_test(NAME compare_bad_tolerance EXIT 2
  ARGS compare ${N}/copy_raw.csv --tolerance lots
  STDERR "--tolerance: 'lots' is not a percentage")

# the hierarchy model (--cache) against Memory Workload Analysis metrics:
# 16384 floats copied on a cold H200 read and write 64 KiB of DRAM each
# (every sector misses once); ncu's Kbyte is converted to the prediction's
# byte, so 65.54 Kbyte is 65540 bytes, within 5 %; the planted 131.07 is 2x
set(WM_CMP_HIER run examples/kernels/sm_80/copy.ptx --grid 64 --block 256
    --arg f32[16384] --arg f32[16384] --arg i32=16384 --cache --arch H200
    --draw 0)
wm_cli_test(NAME compare_run_hierarchy
  ARGS ${WM_CMP_HIER} --compare ${N}/copy_hier_details.csv
  STDOUT "lts__t_sector_hit_rate.pct +% +0 +0 +1.000\n"
         "dram__bytes_read.sum +byte +65536 +65540 +1.000\n"
         "0 of 5 compared metrics over the 5% tolerance\n$")
wm_cli_test(NAME compare_run_hierarchy_mismatch EXIT 1
  ARGS ${WM_CMP_HIER} --compare ${N}/copy_hier_details_mismatch.csv
  STDOUT "dram__bytes_read.sum +byte +65536 +131070 +0.500  MISMATCH\n"
         "1 of 5 compared metrics over the 5% tolerance\n$")

# a metric name wider than its column (74 characters) gets a line of its
# own: the numbers stay under the headings (unit at column 70 on every row)
string(REPEAT " " 69 wm_pad69)
string(REPEAT " " 61 wm_pad61)
wm_cli_test(NAME compare_long_name
  ARGS compare ${N}/long_names.csv ${N}/long_names.csv
  STDOUT "\n  metric${wm_pad61}unit +predicted"
         "\n  sm__sass_l1tex_m_xbar2l1tex_read_bytes_mem_global_op_ldgsts_cache_bypass.sum\n${wm_pad69}byte +4096 +4096 +1.000\n"
         "\n  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum +sector ")
