# Every command's --format json document validates against the warpmem/1
# schema (docs/schema/warpmem-1.json), the SARIF logs of lint and run
# against SARIF 2.1.0 (tests/schema/sarif-2.1.0-subset.json, and the
# published schema when WM_SARIF_SCHEMA names a copy), and lint's JUnit
# XML is well formed with counts that agree (tests/cli/schema_check.py).  The
# Python is WM_PYVENV's (make passes PYVENV), else python3; without the
# jsonschema package the JSON and SARIF checks are skipped (exit 77).
set(WM_PYVENV "" CACHE PATH "virtualenv whose python runs the schema tests")
set(wm_schema_py "${WM_PYVENV}/bin/python")
set(wm_w1 ${PROJECT_SOURCE_DIR}/docs/schema/warpmem-1.json)
set(wm_sarif ${CMAKE_CURRENT_SOURCE_DIR}/schema/sarif-2.1.0-subset.json)
set(SK examples/kernels/sm_80)
set(SCK tests/check/ptx)

function(wm_schema_test name mode schema)
  add_test(NAME schema_${name}
    COMMAND sh -c "p=\"$0\"; [ -x \"$p\" ] || p=python3; exec \"$p\" \"$@\""
            "${wm_schema_py}" ${CMAKE_CURRENT_SOURCE_DIR}/cli/schema_check.py
            ${mode} ${schema} $<TARGET_FILE:warpmem> ${ARGN}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(schema_${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# warpmem/1: one document of each command (and of each shape run has)
wm_schema_test(json_global json ${wm_w1} -- global --stride 2 --format json)
wm_schema_test(json_shared json ${wm_w1} -- shared --stride 32 --explain
  --format json)
wm_schema_test(json_expr json ${wm_w1} --
  expr -f examples/expr/contiguous_copy.expr --format json)
wm_schema_test(json_run json ${wm_w1} -- run ${SK}/copy.ptx --grid 2
  --block 256 --arg f32[512] --arg f32[512] --arg i32=512 --cache
  --format json)
wm_schema_test(json_run_check json ${wm_w1} --exit 1 -- run
  ${SCK}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
  --arg f32[256]:iota --check race --format json)
wm_schema_test(json_run_fault json ${wm_w1} --exit 1 -- run
  tests/ptx/faults.ptx --kernel oob --grid 2 --block 32 --arg f32[40]
  --arg u32=9 --format json)
wm_schema_test(json_run_list json ${wm_w1} -- run ${SK}/transpose.ptx --list
  --format json)
wm_schema_test(json_lint json ${wm_w1} -- lint ${SK}/transpose.ptx
  --format json)
wm_schema_test(json_lint_one json ${wm_w1} -- lint ${SK}/strided_copy.ptx
  --format json)
wm_schema_test(json_compare_dump json ${wm_w1} -- compare
  tests/ncu/copy_details.csv --format json)
wm_schema_test(json_compare json ${wm_w1} --exit 1 -- compare
  tests/ncu/copy_raw.csv tests/ncu/copy_raw.csv --launch 1 --format json)

# SARIF: lint's flagged instruction at its .cu line (the PTX line
# related), a clean lint with no result, run --check's hazard at the later
# access with the earlier one related plus the schedule difference, a
# fault at its instruction
wm_schema_test(sarif_lint sarif ${wm_sarif} --results 1
  --at WM1001@examples/kernels/strided_copy.cu:18
  --related examples/kernels/sm_80/strided_copy.ptx:48
  -- lint ${SK}/strided_copy.ptx --format sarif)
wm_schema_test(sarif_lint_clean sarif ${wm_sarif} --results 0
  -- lint ${SK}/copy.ptx --format sarif)
wm_schema_test(sarif_lint_fail_on sarif ${wm_sarif} --exit 1 --results 1
  -- lint ${SK}/strided_copy.ptx --format sarif --fail-on high)
wm_schema_test(sarif_run_check sarif ${wm_sarif} --exit 1 --results 2
  --at WM2002@tests/check/reduce_nosync.cu:14
  --related tests/check/reduce_nosync.cu:18
  -- run ${SCK}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
  --arg f32[256]:iota --check race --format sarif)
wm_schema_test(sarif_run_uninit sarif ${wm_sarif} --exit 1
  --at WM2004@examples/kernels/copy.cu:16
  -- run ${SK}/copy.ptx --grid 2 --block 256 --arg f32[512]:uninit
  --arg f32[512]:uninit --arg i32=512 --check init --format sarif)
wm_schema_test(sarif_run_fault sarif ${wm_sarif} --exit 1 --results 1
  --at WM2006@tests/ptx/faults.ptx:22
  -- run tests/ptx/faults.ptx --kernel oob --grid 2 --block 32 --arg f32[40]
  --arg u32=9 --format sarif)
wm_schema_test(sarif_run_clean sarif ${wm_sarif} --results 0
  -- run ${SK}/copy.ptx --grid 2 --block 256 --arg f32[512] --arg f32[512]
  --arg i32=512 --check race --format sarif)

# JUnit: a testcase per memory instruction, failures at --fail-on
wm_schema_test(junit_lint junit - --exit 1 --results 2 --failures 1
  -- lint ${SK}/strided_copy.ptx --format junit --fail-on high)
wm_schema_test(junit_lint_clean junit - --results 2 --failures 0
  -- lint ${SK}/copy.ptx --format junit --fail-on low)
wm_schema_test(junit_lint_all junit - --exit 0
  -- lint ${SK}/transpose.ptx --format junit)

wm_cli_test(NAME format_junit_run ARGS run ${SK}/copy.ptx --grid 1 --block 32
  --arg f32[32] --arg f32[32] --arg i32=32 --format junit EXIT 2
  STDERR "^warpmem: error: --format: 'junit' is not one of")
wm_cli_test(NAME format_sarif_compare ARGS run ${SK}/copy.ptx --grid 1
  --block 32 --arg f32[32] --arg f32[32] --arg i32=32 --format sarif
  --compare tests/ncu/copy_details.csv EXIT 2
  STDERR "^warpmem: error: run: --format sarif and --compare")
