# The exit statuses help.def states (`warpmem --help`, EXIT STATUS in
# warpmem.1, docs/cli.md), one case of each per command that can give it:
# 0 ok, 1 a finding, 2 usage, 4 an input that cannot be read or parsed or
# an output that cannot be written; --error-exitcode N replaces 1 (and
# only 1).  (3, no device, is warpmem-lab's: no warpmem command needs a
# GPU.)
set(XK examples/kernels/sm_80)
set(XCK tests/check/ptx)
wm_cli_test(NAME exit_help_0 ARGS --help STDOUT "exit status:\n  0  success"
  "\n  1  a finding: " "\n  2  usage: " "\n  3  no device"
  "\n  4  input or output: ")

# 0: a clean report
foreach(cmd demo arch)
  wm_cli_test(NAME exit_${cmd}_0 ARGS ${cmd} STDOUT ".")
endforeach()
wm_cli_test(NAME exit_global_0 ARGS global --stride 1 STDOUT "sectors")
wm_cli_test(NAME exit_shared_0 ARGS shared --stride 1 STDOUT "wavefront")
wm_cli_test(NAME exit_expr_0 ARGS expr --block 32 "load global f32 a[32] at [tid.x]"
  STDOUT "sectors")
wm_cli_test(NAME exit_run_0 ARGS run ${XK}/copy.ptx --grid 2 --block 256
  --arg f32[512] --arg f32[512] --arg i32=512 --draw 0 STDOUT "kernel ")
wm_cli_test(NAME exit_lint_0 ARGS lint ${XK}/copy.ptx --fail-on high
  STDOUT "kernel ")
wm_cli_test(NAME exit_compare_0 ARGS compare tests/ncu/copy_details.csv
  STDOUT ".")

# 1: a finding -- a fault, a hazard, lint above --fail-on, a metric over
# the tolerance, a budget stop
wm_cli_test(NAME exit_expr_1 ARGS expr -f tests/expr/out_of_bounds.expr EXIT 1
  STDERR "out_of_bounds.expr")
wm_cli_test(NAME exit_run_1 ARGS run ${XCK}/reduce_nosync_sm_80.ptx --grid 1
  --block 256 --arg f32[1] --arg f32[256]:iota --check race --draw 0 EXIT 1
  STDOUT "check: write-after-read hazard")
wm_cli_test(NAME exit_lint_1 ARGS lint ${XK}/strided_copy.ptx --fail-on high
  --color never EXIT 1 STDOUT "#1 +strided_copy.cu:18")
wm_cli_test(NAME exit_compare_1 ARGS compare tests/ncu/copy_raw.csv
  tests/ncu/copy_raw.csv --launch 1 EXIT 1 STDOUT "MISMATCH")

# 2: usage
foreach(cmd demo arch)
  wm_cli_test(NAME exit_${cmd}_2 ARGS ${cmd} extra EXIT 2
    STDERR "^warpmem: error: ${cmd}: unexpected argument 'extra'\n$")
endforeach()
wm_cli_test(NAME exit_global_2 ARGS global --size 3 EXIT 2
  STDERR "^warpmem: error: --size: '3' must be 1, 2, 4, 8 or 16\n$")
wm_cli_test(NAME exit_shared_2 ARGS shared --format xml EXIT 2
  STDERR "^warpmem: error: --format: 'xml' is not one of")
wm_cli_test(NAME exit_expr_2 ARGS expr --grid 0 "load global f32 a[4] at [tid.x]"
  EXIT 2 STDERR "^warpmem: error: --grid: '0' is out of range")
foreach(cmd run lint)
  wm_cli_test(NAME exit_${cmd}_2 ARGS ${cmd} tests/ptx/basic.ptx --frob EXIT 2
    STDERR "^warpmem: error: ${cmd}: unknown option '--frob'")
endforeach()
wm_cli_test(NAME exit_compare_2 ARGS compare EXIT 2 STDERR "^warpmem: error: ")

# 4: an input that cannot be read or parsed, an output that cannot be
# written
foreach(cmd run lint)
  wm_cli_test(NAME exit_${cmd}_4_unreadable ARGS ${cmd} tests/ptx/no-such.ptx
    --grid 1 --block 32 EXIT 4
    STDERR "^warpmem: error: cannot read 'tests/ptx/no-such.ptx'")
  wm_cli_test(NAME exit_${cmd}_4_parse ARGS ${cmd} tests/ptx/bad.ptx
    --grid 1 --block 32 EXIT 4
    STDERR "^tests/ptx/bad.ptx:8:15: error: undeclared register")
endforeach()
wm_cli_test(NAME exit_expr_4 ARGS expr -f tests/expr/no-such.expr EXIT 4
  STDERR "^warpmem: error: cannot read 'tests/expr/no-such.expr'")
wm_cli_test(NAME exit_compare_4 ARGS compare tests/ncu/bad_value.csv EXIT 4
  STDERR "^tests/ncu/bad_value.csv:2:31: error: ")
foreach(cmd global shared)
  wm_cli_test(NAME exit_${cmd}_4 ARGS ${cmd} --html tests/limits/none/x.html
    EXIT 4 STDERR "cannot write 'tests/limits/none/x.html' \\(--html\\)")
endforeach()
if(EXISTS /dev/full)
  foreach(cmd demo arch)
    add_test(NAME cli_exit_${cmd}_4
      COMMAND sh -c "\"$0\" ${cmd} >/dev/full; echo \"rc=$?\""
              $<TARGET_FILE:warpmem>)
    set_tests_properties(cli_exit_${cmd}_4 PROPERTIES PASS_REGULAR_EXPRESSION
      "^warpmem: error: cannot write standard output: No space left on device\nrc=4\n$")
  endforeach()
endif()

# --error-exitcode N replaces 1, wherever it is on the line; 0, 2 and 4
# stay; a bad N is a usage error
wm_cli_test(NAME exit_run_error_exitcode ARGS run --error-exitcode 7
  ${XCK}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
  --arg f32[256]:iota --check race --draw 0 EXIT 7
  STDOUT "check: write-after-read hazard")
wm_cli_test(NAME exit_lint_error_exitcode ARGS lint ${XK}/strided_copy.ptx
  --fail-on high --error-exitcode=42 EXIT 42 STDOUT "strided_copy.cu:18")
wm_cli_test(NAME exit_expr_error_exitcode ARGS expr
  -f tests/expr/out_of_bounds.expr --error-exitcode 9 EXIT 9)
wm_cli_test(NAME exit_compare_error_exitcode ARGS compare --error-exitcode 3
  tests/ncu/copy_raw.csv tests/ncu/copy_raw.csv --launch 1 EXIT 3)
wm_cli_test(NAME exit_lint_error_exitcode_clean ARGS lint ${XK}/copy.ptx
  --fail-on high --error-exitcode 9 STDOUT "kernel ")
wm_cli_test(NAME exit_lint_error_exitcode_input ARGS lint tests/ptx/bad.ptx
  --error-exitcode 9 EXIT 4 STDERR "undeclared register")
wm_cli_test(NAME exit_run_error_exitcode_usage ARGS run tests/ptx/basic.ptx
  --error-exitcode 9 --frob EXIT 2 STDERR "unknown option '--frob'")
wm_cli_test(NAME exit_error_exitcode_range ARGS lint ${XK}/copy.ptx
  --error-exitcode 256 EXIT 2 STDERR "^warpmem: error: --error-exitcode: ")
wm_cli_test(NAME exit_error_exitcode_missing ARGS lint ${XK}/copy.ptx
  --error-exitcode EXIT 2
  STDERR "^warpmem: error: --error-exitcode: missing value\n$")
