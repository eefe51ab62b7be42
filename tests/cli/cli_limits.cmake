# CLI tests of bad-input reproducers: bad input gives a clear message and
# exit code, never a crash, a hang or memory exhaustion.  Exact stderr is
# pinned by golden files (tests/golden/limits_*.txt); inputs are in
# tests/limits/.  Paths are relative: the tests run in the source tree.
set(L tests/limits)

# operand arity from the ptx_ops.def table; literals integers cannot hold;
# TMA and mbarrier operands out of place (the interpreter read registers
# of other operands, or none); special registers as destinations
foreach(t arity_mad arity_bar arity_or vec_add lit_range lit_range_vec wide64
    cut_opcode tma_no_dst tma_no_mask tma_store_swapped mbar_wait_one
    dest_envreg)
  wm_cli_test(NAME limits_${t} EXIT 4
    ARGS run ${L}/${t}.ptx --grid 1 --block 32
    STDERR_GOLDEN limits_${t}.txt)
endforeach()

# sizes: no wrap-around, no 32-bit truncation, no huge allocation; nested
# blocks stop at WM_LIMIT_PTX_NESTING instead of the stack's end
foreach(t global_wrap global_10g shared_4g local_4g regs nesting)
  wm_cli_test(NAME limits_${t} EXIT 4
    ARGS run ${L}/${t}.ptx --grid 1 --block 32
    STDERR_GOLDEN limits_${t}.txt)
endforeach()
wm_cli_test(NAME limits_nesting_lint EXIT 4
  ARGS lint ${L}/nesting.ptx STDERR_GOLDEN limits_nesting.txt)
# a module with a kernel whose body did not parse: lint says where and
# lints the others (the broken kernel's empty code crashed it)
wm_cli_test(NAME limits_lint_broken_kernel EXIT 4
  ARGS lint ${L}/broken_kernel.ptx
  STDOUT "kernel copy: lint for block 256x1x1, 2 memory instructions"
  STDERR_GOLDEN limits_lint_broken_kernel.txt)
wm_cli_test(NAME limits_lint_empty_body
  ARGS lint ${L}/empty_body.ptx
  STDOUT "kernel k: lint for block 256x1x1, 0 memory instructions"
         "no memory instruction flagged")
wm_cli_test(NAME limits_nesting_ok
  ARGS run ${L}/nesting_ok.ptx --grid 1 --block 32
  STDOUT "kernel k: 1 of 1 CTAs, 1 warp instructions")
# a 1 GiB .global at the limit runs (allocated once, zero pages untouched)
wm_cli_test(NAME limits_global_1g
  ARGS run ${L}/global_1g.ptx --grid 1 --block 32
  STDOUT "kernel k: 1 of 1 CTAs")

# input files: directories, devices and FIFOs are refused with the reason;
# a stream is read up to WM_LIMIT_INPUT_BYTES
wm_cli_test(NAME limits_run_dir EXIT 4
  ARGS run tests --grid 1 --block 32 STDERR_GOLDEN limits_run_dir.txt)
wm_cli_test(NAME limits_run_dev_zero EXIT 4
  ARGS run /dev/zero --grid 1 --block 32
  STDERR_GOLDEN limits_run_dev_zero.txt)
wm_cli_test(NAME limits_lint_dev_zero EXIT 4
  ARGS lint /dev/zero STDERR_GOLDEN limits_run_dev_zero.txt)
wm_cli_test(NAME limits_expr_dir EXIT 4
  ARGS expr -f tests STDERR_GOLDEN limits_expr_dir.txt)
wm_cli_test(NAME limits_expr_dev_zero EXIT 4
  ARGS expr -f /dev/zero STDERR_GOLDEN limits_expr_dev_zero.txt)
wm_cli_test(NAME limits_expr_missing EXIT 4
  ARGS expr -f tests/limits/none.expr STDERR_GOLDEN limits_expr_missing.txt)
wm_cli_test(NAME limits_arg_dir EXIT 4
  ARGS run ${L}/one_buf.ptx --grid 1 --block 32 --arg u8[4]:file=tests
  STDERR_GOLDEN limits_arg_dir.txt)
wm_cli_test(NAME limits_file_dev_zero
  ARGS run ${L}/file_dev_zero.ptx --grid 1 --block 32
  STDOUT "kernel k: 1 of 1 CTAs")
add_test(NAME cli_limits_fifo
  COMMAND sh -c "rm -f fifo && mkfifo fifo && \"$1\" run fifo --grid 1 --block 32; echo \"rc=$?\"; rm -f fifo"
          sh $<TARGET_FILE:warpmem>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli_limits_fifo PROPERTIES TIMEOUT 20
  PASS_REGULAR_EXPRESSION "warpmem: error: cannot read 'fifo': not a regular file \\(FIFOs and devices are not read\\)\nrc=4")
add_test(NAME cli_limits_stdin_big
  COMMAND sh -c "head -c 300000000 /dev/zero | \"$1\" expr -f -; echo \"rc=$?\""
          sh $<TARGET_FILE:warpmem>)
set_tests_properties(cli_limits_stdin_big PROPERTIES TIMEOUT 60
  PASS_REGULAR_EXPRESSION "warpmem: error: cannot read '-': larger than the input limit of 256 MiB \\(a fixed limit\\)\nrc=4")

# parse errors echo binary bytes escaped, long lines as a window
foreach(t binary long_line)
  wm_cli_test(NAME limits_${t} EXIT 4
    ARGS run ${L}/${t}.ptx --grid 1 --block 32
    STDERR_GOLDEN limits_${t}.txt)
endforeach()

# expression depth: 20 000 nested parentheses, 20 000 prefix minuses and a
# 50 000-term sum stop at WM_LIMIT_EXPR_DEPTH instead of the stack's end
string(REPEAT "(" 20000 opens)
string(REPEAT ")" 20000 closes)
string(REPEAT "-" 20000 minuses)
string(REPEAT "+1" 50000 terms)
wm_cli_test(NAME limits_expr_parens EXIT 4
  ARGS expr "block 32" "load global f32 a[] at [${opens}tid.x${closes}]"
  STDERR_GOLDEN limits_expr_parens.txt)
wm_cli_test(NAME limits_expr_minus EXIT 4
  ARGS expr "block 32" "load global f32 a[] at [${minuses}tid.x]"
  STDERR_GOLDEN limits_expr_minus.txt)
wm_cli_test(NAME limits_expr_sum EXIT 4
  ARGS expr "block 32" "load global f32 a[] at [tid.x${terms}]"
  STDERR_GOLDEN limits_expr_sum.txt)

# the whole-launch budget: a lower bound before the run, an estimate after
# the first CTA, each naming --ctas sample:N and --max-total-steps
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)
wm_cli_test(NAME limits_grid_huge EXIT 1
  ARGS run examples/kernels/sm_80/copy.ptx --grid 100000000,10000 --block 256
       --arg f32[16] --arg f32[16] --arg i32=16
  STDERR_GOLDEN limits_grid_huge.txt)
wm_cli_test(NAME limits_total_estimate EXIT 1
  ARGS run examples/kernels/sm_80/copy.ptx --grid 1000 --block 256
       --arg f32[256000] --arg f32[256000] --arg i32=256000 -j 1
       --max-total-steps 20000
  STDERR_GOLDEN limits_total_estimate.txt)
wm_cli_test(NAME limits_total_sampled
  ARGS run ${K}/copy.ptx --grid 1000 --block 256 --arg f32[256000]
       --arg f32[256000] --arg i32=256000 --max-total-steps 20000
       --ctas sample:10 --draw 0
  STDOUT "10 of 1000 CTAs \\(sampled")
wm_cli_test(NAME limits_total_raised
  ARGS run ${K}/copy.ptx --grid 1000 --block 256 --arg f32[256000]
       --arg f32[256000] --arg i32=256000 --max-total-steps 0 --draw 0
  STDOUT "1000 of 1000 CTAs, 136000 warp instructions")

# write errors are errors: exit 4 with "cannot write <what>: <reason>"
# (/dev/full fails every write with ENOSPC)
if(EXISTS /dev/full)
  set(wm_copy "run examples/kernels/sm_80/copy.ptx --grid 2 --block 256 --arg f32[512]")
  foreach(pair
      "stdout_demo|demo >/dev/full|cannot write standard output: No space left on device"
      "stdout_run|${wm_copy} --arg f32[512] --arg i32=512 >/dev/full|cannot write standard output: No space left on device"
      "out_arg|${wm_copy} --arg f32[512]:out=/dev/full --arg i32=512 >/dev/null|cannot write '/dev/full' \\(:out=\\): No space left on device"
      "html_run|${wm_copy} --arg f32[512] --arg i32=512 --html /dev/full >/dev/null|cannot write '/dev/full' \\(--html\\): No space left on device"
      "html_expr|expr -f examples/expr/contiguous_copy.expr --html /dev/full >/dev/null|cannot write '/dev/full' \\(--html\\): No space left on device"
      "html_dir|expr -f examples/expr/contiguous_copy.expr --html tests/limits/none/x.html >/dev/null|cannot write 'tests/limits/none/x.html' \\(--html\\): No such file or directory"
      "html_lint|lint examples/kernels/sm_80/histogram.ptx --html /dev/full >/dev/null|cannot write '/dev/full' \\(--html\\): No space left on device"
      "html_lint_dir|lint examples/kernels/sm_80/histogram.ptx --html tests/limits/none/x.html >/dev/null|cannot write 'tests/limits/none/x.html' \\(--html\\): No such file or directory")
    string(REPLACE "|" ";" parts "${pair}")
    list(GET parts 0 name)
    list(GET parts 1 cmdline)
    list(GET parts 2 want)
    string(REPLACE ";" " " cmdline "${cmdline}")
    add_test(NAME cli_limits_write_${name}
      COMMAND sh -c "\"$0\" ${cmdline}; echo \"rc=$?\"" $<TARGET_FILE:warpmem>
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(cli_limits_write_${name} PROPERTIES
      PASS_REGULAR_EXPRESSION "^warpmem: error: ${want}\nrc=4\n$")
  endforeach()
endif()

# --help lists every limit and what raises it
wm_cli_test(NAME limits_help ARGS --help
  STDOUT "limits \\(docs/limits.md\\):"
         "268435456 +bytes of one input file"
         "100000000000 warp instructions of a whole launch"
         "raise: run --max-total-steps N, or fewer CTAs: --ctas sample:N")

# lint of a 100 000-instruction dependent chain (mul, selp): the symbolic
# values stop at WMI_AVAR_MAX_HEIGHT instead of recursing off the stack
foreach(op "mul.lo.s32 %r1, %r1, %r2" "selp.b32 %r1, %r1, %r2, %p1")
  string(REGEX MATCH "^[a-z]+" name "${op}")
  add_test(NAME cli_limits_lint_chain_${name}
    COMMAND sh -c "awk -v op=\"$1\" 'BEGIN { print \".version 8.0\\n.target sm_80\\n.address_size 64\\n.visible .entry k(.param .u64 p)\\n{\\n.reg .b32 %r<5>;\\n.reg .b64 %rd<4>;\\n.reg .pred %p<2>;\\nld.param.u64 %rd1, [p];\\nmov.u32 %r1, %tid.x;\\nmov.u32 %r2, %ctaid.x;\\nsetp.lt.u32 %p1, %r1, 7;\"; for (i = 0; i < 100000; i++) print op \";\"; print \"cvt.u64.u32 %rd2, %r1;\\nadd.s64 %rd3, %rd1, %rd2;\\nld.global.u8 %r4, [%rd3];\\nret;\\n}\" }' > chain_$2.ptx && \"$0\" lint chain_$2.ptx; echo \"rc=$?\""
            $<TARGET_FILE:warpmem> "${op}" ${name}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(cli_limits_lint_chain_${name} PROPERTIES TIMEOUT 60
    PASS_REGULAR_EXPRESSION "ld.global.u8 %r4, \\[%rd3\\].*rc=0\n$")
endforeach()

# lint of 6 000 loops, each with its own constant: blocks x register slots
# would be 5 GiB of analysis state; refused at WM_LIMIT_LINT_BYTES
add_test(NAME cli_limits_lint_state
  COMMAND sh -c "awk 'BEGIN { print \".version 8.0\\n.target sm_80\\n.address_size 64\\n.visible .entry k(.param .u64 p)\\n{\\n.reg .b32 %r<4>;\\n.reg .pred %p<2>;\\nmov.u32 %r2, 0;\"; for (i = 0; i < 6000; i++) print \"L\" i \":\\nadd.s32 %r2, %r2, 1;\\nsetp.lt.u32 %p1, %r2, \" i + 3 \";\\n@%p1 bra L\" i \";\"; print \"ret;\\n}\" }' > loops.ptx && \"$0\" lint loops.ptx; echo \"rc=$?\""
          $<TARGET_FILE:warpmem>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli_limits_lint_state PROPERTIES TIMEOUT 60
  PASS_REGULAR_EXPRESSION "^warpmem: error: kernel k: too large to lint: its analysis state would pass 1024 MiB \\(WM_LIMIT_LINT_BYTES, a fixed limit; run it instead\\)\nrc=1\n$")

# the sector map of a 64-lane warp touching 244 lines: its slots once had
# a negative width, and the label spacing doubled for ever
add_test(NAME cli_limits_html_many_lines
  COMMAND sh -c "\"$0\" global --local --size 16 --arch generic,warp=64 --addrs 0,1024,2048,3072,4096,5120,6144,7168,0,9216,10240,11264,12288,13312,14336,15360,0,17408,18432,19456,20480,21504,22528,23552,0,25600,26624,27648,28672,29696,30720,31744,32768,33792,34816,35840,36864,37888,38912,39936,40960,41984,43008,44032,45056,46080,47104,48128,49152,50176,51200,52224,53248,54272,55296,56320,57344,58368,59392,60416,61440,62464,63488,64512 --html many_lines.html >/dev/null; echo \"rc=$? negative=$(grep -c 'width=.-' many_lines.html)\""
          $<TARGET_FILE:warpmem>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli_limits_html_many_lines PROPERTIES TIMEOUT 30
  PASS_REGULAR_EXPRESSION "^rc=0 negative=0\n$")
