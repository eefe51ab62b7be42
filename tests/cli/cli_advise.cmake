# The advisor and the HTML report through the CLI, and the checks of the
# HTML files: well-formed XHTML (python3 xml.etree) and a render by
# headless Chromium (skipped, exit 77, where chromium is not installed).
# HTML files and screenshots land in <build>/artifacts/ (kept by CI).

set(WM_ARTIFACTS ${PROJECT_BINARY_DIR}/artifacts)
file(MAKE_DIRECTORY ${WM_ARTIFACTS})

# Regexes avoid "[": CMake does not split a list inside brackets.
# --explain: the lesson's cases, diagnosis and what-if numbers.
wm_cli_test(NAME explain_shared_stride32
  ARGS shared --stride 32 --explain --color never
  GOLDEN explain_shared_stride32.txt)
wm_cli_test(NAME explain_global_stride32
  ARGS global --stride 32 --explain --color never
  STDOUT "advice \\[high\\]: strided access: 32 sectors per request \\(ideal 4\\)"
         "28 excessive sectors \\(88% of the total 32 sectors\\)"
         "fix: map threadIdx.x to the contiguous axis"
         "32 -> 4 sectors per request")
wm_cli_test(NAME explain_misaligned
  ARGS global --base 1 --explain --color never
  STDOUT "misaligned access: 5 sectors per request"
         "fix: align the warp's first address to a 32-byte sector"
         "5 -> 4 sectors per request")
wm_cli_test(NAME explain_vector
  ARGS global --explain --color never
  STDOUT "advice \\[none\\]: coalesced: 4 sectors per request \\(ideal\\)"
         "fix: use 16-byte vectors"
         "4 -> 1 requests for the same 512 bytes \\(16 -> 16 sectors\\)")
wm_cli_test(NAME explain_broadcast
  ARGS shared --stride 0 --explain --color never
  STDOUT "conflict-free: 1 wavefront per request" "All 32 active lanes use"
         "broadcast\\)")
wm_cli_test(NAME explain_color
  ARGS shared --stride 32 --explain --color always
  STDOUT "advice.\\[0m \\[.\\[31mhigh.\\[0m\\]: 32-way")
wm_cli_test(NAME explain_json
  ARGS shared --stride 32 --explain --format json
  STDOUT "\"advice\": {\"pattern\": {\"kind\": \"strided\""
         "\"fixes\": .{\"kind\": \"pad\", \"param\": 4"
         "\"kind\": \"swizzle\", \"param\": 1")
wm_cli_test(NAME explain_csv_rejected
  ARGS shared --explain --format csv EXIT 2
  STDERR "^warpmem: error: --explain works with --format text or json, not csv\n$")
wm_cli_test(NAME html_no_file ARGS shared --html EXIT 2
  STDERR "^warpmem: error: ")
wm_cli_test(NAME html_unwritable
  ARGS shared --html /nonexistent-dir/report.html EXIT 4
  STDERR "^warpmem: error: cannot write '/nonexistent-dir/report.html' \\(--html\\): No such file or directory\n$")

# Reports written by the CLI for the checks below.
wm_cli_test(NAME html_shared ARGS shared --stride 32 --color never
  --html ${WM_ARTIFACTS}/cli_shared_stride32.html
  STDOUT "wavefronts +32")
wm_cli_test(NAME html_global ARGS global --stride 32 --color never
  --html ${WM_ARTIFACTS}/cli_global_stride32.html
  STDOUT "sectors +32")
set_tests_properties(cli_html_shared cli_html_global
  PROPERTIES FIXTURES_SETUP wm_html_files)
set_tests_properties(test_html PROPERTIES FIXTURES_SETUP wm_html_files
  ENVIRONMENT "WM_ARTIFACT_DIR=${WM_ARTIFACTS}")

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME html_wellformed
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      ${WM_ARTIFACTS}/report.html ${WM_ARTIFACTS}/charts.html
      ${WM_ARTIFACTS}/cli_shared_stride32.html
      ${WM_ARTIFACTS}/cli_global_stride32.html)
  set_tests_properties(html_wellformed PROPERTIES
    FIXTURES_REQUIRED wm_html_files)
endif()

add_test(NAME html_render
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_render.sh ${WM_ARTIFACTS}
    report.html cli_shared_stride32.html charts.html)
set_tests_properties(html_render PROPERTIES FIXTURES_REQUIRED wm_html_files
  SKIP_RETURN_CODE 77 TIMEOUT 120)
