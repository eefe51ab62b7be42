# CLI tests of `warpmem run` faults and lines that tell the truth: faults
# named against the nearest buffer, sources with lone-CR / CRLF endings,
# hoisted code (.loc F 0 C) shown with its nearest preceding line.
set(P ${PROJECT_SOURCE_DIR}/tests/ptx)

wm_cli_test(NAME run_near_before EXIT 1
  ARGS run ${P}/near.ptx --kernel before --grid 1 --block 1 --arg u32[4]
       --arg u32[4] --arg u32[4] --arg u32[4] --arg u32[4]
  STDERR "near.ptx:15: fault: out-of-bounds global load of 4 bytes at 0x4fffffff800: 2048 bytes before the buffer of argument 4 \\(16 bytes\\)")
wm_cli_test(NAME run_near_after EXIT 1
  ARGS run ${P}/near.ptx --kernel after --grid 1 --block 1 --arg u32[16]
       --arg u32[4]
  STDERR "offset 64 in the buffer of argument 0 \\(64 bytes\\)")
wm_cli_test(NAME run_lines_text
  ARGS run ${P}/lines.ptx --grid 1 --block 32 --arg u32[96] --color never
  STDOUT "cr_lines.cu:3 +global st +1 +4.00 +4.00 +0 +sectors/request +int third_line_of_cr_file;"
         "crlf_lines.cu:4 +global st +1 +4.00 +4.00 +0 +sectors/request +int fourth_line_of_crlf_file;"
         "no line \\(hoisted\\) +global st +1 +4.00"
         "ptx:19 st.global.u32 \\[%rd4\\+128\\], %r1  \\[after cr_lines.cu:3\\]")
wm_cli_test(NAME run_lines_json
  ARGS run ${P}/lines.ptx --grid 1 --block 32 --arg u32[96] --format json
  STDOUT "\"ptx_line\": 19, [^\n]*\"hoisted_after_line\": 3")

# a fault inside a called function names the callee's line and the
# kernel's call site
set(C ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
wm_cli_test(NAME run_call_depth EXIT 1
  ARGS run ${C}/noinline_G_sm_80.ptx --grid 2 --block 32 --arg f32[64]
       --arg f32[64] --arg u32[64] --arg i32[64] --arg u32=40
  STDERR "fault: call depth limit of 32 exceeded calling tri \\(unbounded recursion\\?\\)"
         "source: \\.\\./noinline\\.cu:13"
         "called from: .*noinline_G_sm_80\\.ptx:226 \\(source \\.\\./noinline\\.cu:31\\)")
wm_cli_test(NAME run_calls_G
  ARGS run ${C}/noinline_G_sm_80.ptx --grid 2 --block 32 --arg f32[64]
       --arg f32[64] --arg u32[64] --arg i32[64] --arg u32=3 --color never
  STDOUT "noinline.cu:23 +global st +2 +4.00 +4.00 +0 +sectors/request +\\*p = v;")
