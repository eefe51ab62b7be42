# --check's findings where users look: in the text report under the
# header, before the table and the metrics; in the HTML report a Checks
# section before the summary, each hazard with both source lines linked to
# their rows, which the source page marks.
set(CF ${PROJECT_SOURCE_DIR}/tests/check/ptx)
set(CF_HTML ${CMAKE_CURRENT_BINARY_DIR}/checks_first.html)
set(CF_CLEAN_HTML ${CMAKE_CURRENT_BINARY_DIR}/checks_clean.html)
wm_cli_test(NAME checks_first_text EXIT 1
  ARGS run ${CF}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
       --arg f32[256]:iota --check race --draw 0
  STDOUT "^kernel reduce_nosync: [^\n]*\nprofile [^\n]*\n\ncheck: write-after-read hazard on shared sdata\\[128\\]"
         "\ncheck: 1 race hazard, 0 uninitialized reads, schedules in-order and reverse differ\n\nPTX-level numbers: ")
wm_cli_test(NAME checks_first_fault EXIT 1
  ARGS run ${CF}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
       --arg f32[256]:iota --check init --max-steps 10 --draw 0
  STDOUT "^kernel reduce_nosync: [^\n]*\nprofile [^\n]*\nstopped by a fault[^\n]*\n\ncheck: 0 race hazards, 0 uninitialized reads\n\nPTX-level")
wm_cli_test(NAME checks_first_html EXIT 1
  ARGS run ${CF}/reduce_nosync_sm_80.ptx --grid 1 --block 256 --arg f32[1]
       --arg f32[256]:iota --check race --draw 0 --html ${CF_HTML}
  STDOUT "^kernel ")
wm_cli_test(NAME checks_clean_html
  ARGS run examples/kernels/sm_80/copy.ptx --grid 2 --block 256
       --arg f32[512] --arg f32[512] --arg i32=512 --check race --draw 0
       --html ${CF_CLEAN_HTML}
  STDOUT "check: 0 race hazards")
set_tests_properties(cli_checks_first_html cli_checks_clean_html PROPERTIES
  FIXTURES_SETUP wm_checks_html)
add_test(NAME checks_html_content
  COMMAND ${CMAKE_COMMAND} -DFILE=${CF_HTML}
    "-DRE=<h1>[^<]*</h1>.*<!-- checks -->.*<!-- /checks -->.*<!-- summary -->@SEP@<h2>Checks: 2 findings</h2>@SEP@<strong>write-after-read</strong> on shared sdata.128. .offset 512., 4 bytes, block .0,0,0.: 128 times@SEP@<li>earlier read at <a href=\"#s0-18\">reduce_nosync.cu:18</a>: <code>sdata.tid. .= sdata.tid . s.;</code></li>@SEP@<li>later write at <a href=\"#s0-14\">reduce_nosync.cu:14</a>@SEP@<tr class=\"src hazard\" id=\"s0-14\">@SEP@<tr class=\"src hazard\" id=\"s0-18\">@SEP@<strong>schedule-difference</strong> outputs differ"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_grep.cmake)
# no finding, no section and no marked row
add_test(NAME checks_html_clean
  COMMAND sh -c "test -s \"$0\" && ! grep -q 'class=\"checks\"\\|hazard\"' \"$0\""
          ${CF_CLEAN_HTML})
set_tests_properties(checks_html_content checks_html_clean PROPERTIES
  FIXTURES_REQUIRED wm_checks_html)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME checks_html_wellformed
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      ${CF_HTML})
  set_tests_properties(checks_html_wellformed PROPERTIES
    FIXTURES_REQUIRED wm_checks_html)
endif()
