# The schedule comparison of `--check race` over every output the kernel
# can leave (tests/check/sched_outputs.cu): a surface, which the tracker
# does not follow, and a module variable read back (a variable without
# :out= has no host copy to compare).  The first run's
# output file holds the in-order result (the last warp's last lane, 63);
# the reverse order leaves 31.  -O3 and -G, sm_80 and sm_90.
set(SO ${PROJECT_SOURCE_DIR}/tests/check/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})
foreach(v sm_80 G_sm_80 sm_90 G_sm_90)
  wm_cli_test(NAME check_outputs_surface_${v} EXIT 1
    ARGS run ${SO}/sched_outputs_${v}.ptx --kernel surf_last_writer
         --grid 1 --block 64 --arg surf2d:i32[1x1]:out=${B}/so_surf_${v}.bin
         --check race --draw 0
    STDOUT "check: outputs differ between schedules in-order and reverse: surface 0, element 0 \\(byte 0\\): 0x0000003f vs 0x0000001f"
           "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse differ")
  wm_cli_test(NAME check_outputs_surface_clean_${v}
    ARGS run ${SO}/sched_outputs_${v}.ptx --kernel surf_own_texel
         --grid 1 --block 64 --arg surf2d:i32[64x1] --check race --draw 0
    STDOUT "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse agree")
  wm_cli_test(NAME check_outputs_variable_${v} EXIT 1
    ARGS run ${SO}/sched_outputs_${v}.ptx --kernel var_last_writer
         --grid 1 --block 64
         --global last_thread=i32[1]:out=${B}/so_var_${v}.bin
         --check race --draw 0
    STDOUT "check: outputs differ between schedules in-order and reverse: variable last_thread, element 0 \\(byte 0\\): 0x3f vs 0x1f")
endforeach()
# the first run's results are what the files get
wm_file_hex(check_outputs_surface_file check_outputs_surface_sm_80
  ${B}/so_surf_sm_80.bin 3f000000)
wm_file_hex(check_outputs_variable_file check_outputs_variable_sm_80
  ${B}/so_var_sm_80.bin 3f000000)
# JSON and SARIF name the output too
wm_cli_test(NAME check_outputs_surface_json EXIT 1
  ARGS run ${SO}/sched_outputs_sm_90.ptx --kernel surf_last_writer
       --grid 1 --block 64 --arg surf2d:i32[64x1] --check race --draw 0
       --format json
  STDOUT "\"schedules\": {\"reported\": \"in-order\", \"other\": \"reverse\", \"differs\": true, \"surface\": 0, \"element\": 0, \"byte\": 0, \"values\": \\[\"0x0000003f\", \"0x0000001f\"\\], \"proved\": false}")
wm_cli_test(NAME check_outputs_variable_json EXIT 1
  ARGS run ${SO}/sched_outputs_sm_90.ptx --kernel var_last_writer
       --grid 1 --block 64
       --global last_thread=i32[1]:out=${B}/so_var_json.bin --check race
       --draw 0 --format json
  STDOUT "\"differs\": true, \"variable\": \"last_thread\", \"element\": 0")
wm_cli_test(NAME check_outputs_surface_sarif EXIT 1
  ARGS run ${SO}/sched_outputs_sm_80.ptx --kernel surf_last_writer
       --grid 1 --block 64 --arg surf2d:i32[64x1] --check race --draw 0
       --format sarif
  STDOUT "outputs differ between schedules in-order and reverse: surface 0, element 0 \\(byte 0\\)")
