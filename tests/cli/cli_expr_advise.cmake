# `warpmem expr --explain` and `--html` on the programs of examples/expr/:
# the advisor's diagnosis and what-if numbers per statement (worked out by
# hand in tests/unit/test_expr_advise.c; here at N = 64 or 1024, W = N*N/32 warp
# accesses per statement), the worst-first ranking, JSON, colours, usage
# errors, and the HTML report checked as well-formed XHTML.
# Regexes avoid unbalanced "[": CMake does not split a list inside brackets.

set(WM_ARTIFACTS ${PROJECT_BINARY_DIR}/artifacts)
file(MAKE_DIRECTORY ${WM_ARTIFACTS})

# The whole text of the tiled transpose with advice (N = 64, W = 128).
wm_cli_test(NAME expr_explain_tiled
  ARGS expr -D N=64 --explain --color never
       -f examples/expr/transpose_tiled.expr
  GOLDEN expr_explain_tiled.txt)

# Column read of the transposed copy: 32 -> 4 sectors by remap; excess
# 28 W = 917504 of 32 W + 4 W = 1179648 sectors (N = 1024, W = 32768).
wm_cli_test(NAME expr_explain_transposed
  ARGS expr -D N=1024 --explain --color never
       -f examples/expr/transposed_copy.expr
  STDOUT "advice \\[high\\]: strided access: 32 sectors per request \\(ideal 4\\)"
         "917504 excessive sectors \\(78% of the total 1179648 sectors\\)"
         "fix: map threadIdx.x to the contiguous axis"
         "32 -> 4 sectors per request"
         "\\[1\\] line 5 +\\[high\\] +78%  strided access"
         "\\[2\\] line 6 +\\[none\\] +0%  coalesced: 4 sectors per request \\(ideal\\); fix: vectorize")
# Naive transpose: the column store is the worst statement.
wm_cli_test(NAME expr_explain_naive
  ARGS expr -D N=64 --explain --color never
       -f examples/expr/transpose_naive.expr
  STDOUT "worst first[^\n]*\n  \\[2\\] line 7 +\\[high\\] +78%  strided access: 32 sectors per request \\(ideal 4\\); fix: remap\n  \\[1\\] line 6 "
         "32 -> 4 sectors per request")
# Misaligned copy: 5 -> 4 by align; excess W = 128 of 5 W + 4 W = 1152.
wm_cli_test(NAME expr_explain_misaligned
  ARGS expr -D N=64 --explain --color never
       -f examples/expr/misaligned_copy.expr
  STDOUT "advice \\[medium\\]: misaligned access: 5 sectors per request \\(ideal 4\\)"
         "128 excessive sectors \\(11% of the total 1152 sectors\\)"
         "fix: align the warp's first address to a 32-byte sector"
         "5 -> 4 sectors per request")
# Contiguous copy: only a vectorize fix, 4 -> 1 requests, same sectors.
wm_cli_test(NAME expr_explain_contiguous
  ARGS expr -D N=64 --explain --color never
       -f examples/expr/contiguous_copy.expr
  STDOUT "advice \\[none\\]: coalesced: 4 sectors per request \\(ideal\\)"
         "fix: use 16-byte vectors \\(e.g. float4\\)"
         "4 -> 1 requests for the same 512 bytes \\(16 -> 16 sectors\\)")
# Key cache: paged layout 32 -> 16 sectors by remap (TOKENS = 64, W = 128:
# excess 16 W = 2048 of 32 W + 16 W = 6144).
wm_cli_test(NAME expr_explain_kv
  ARGS expr -D TOKENS=64 --explain --color never
       -f examples/expr/kv_cache.expr
  STDOUT "advice \\[medium\\]: strided access: 32 sectors per request \\(ideal 16\\)"
         "2048 excessive sectors \\(33% of the total 6144 sectors\\)"
         "32 -> 16 sectors per request")

# JSON: "advice" per statement and the worst-first order.  Padded and
# swizzled column reads: conflict-free, no fix; the tile row store at
# row 0 neither: 16-byte vectors would take 4 -> 1 requests but 4 -> 4
# wavefronts (they were offered).
foreach(ex padded swizzled)
  wm_cli_test(NAME expr_explain_${ex}_json
    ARGS expr -D N=64 --explain --format json
         -f examples/expr/transpose_${ex}.expr
    STDOUT "\"statement\": 3, [^\n]*\"advice\": {\"pattern\": {\"kind\": \"strided\", [^\n]*\"stride\": 132, [^\n]*\"severity\": \"none\", \"headline\": \"conflict-free: 1 wavefront per request \\(ideal\\)\"[^\n]*\"fixes\": \\[\\]}}"
           "\"statement\": 2, [^\n]*\"headline\": \"conflict-free: 1 wavefront per request \\(ideal\\)\"[^\n]*\"fixes\": \\[\\]}}"
           "\"advice_order\": \\[1, 2, 3, 4\\]}\n$")
endforeach()
wm_cli_test(NAME expr_explain_tiled_json
  ARGS expr -D N=64 --explain --format json
       -f examples/expr/transpose_tiled.expr
  STDOUT "\"statement\": 3, [^\n]*\"severity\": \"high\"[^\n]*\"fixes\": .{\"kind\": \"pad\", \"param\": 4, [^\n]*\"after\": {\"requests\": 1, \"bytes\": 128, \"wavefronts\": 1, [^\n]*{\"kind\": \"swizzle\", \"param\": 1, [^\n]*\"after\": {\"requests\": 1, \"bytes\": 128, \"wavefronts\": 1, "
         "\"advice_order\": \\[3, 1, 2, 4\\]}\n$")
# Vectorised copy: already 16 B per lane and ideal, nothing to propose.
wm_cli_test(NAME expr_explain_vector16_json
  ARGS expr -D N=64 --explain --format json
       -f examples/expr/vector_copy16.expr
  STDOUT "\"statement\": 1, [^\n]*\"headline\": \"coalesced: 16 sectors per request \\(ideal\\)\"[^\n]*\"fixes\": \\[\\]}}"
         "\"statement\": 2, [^\n]*\"headline\": \"coalesced: 16 sectors per request \\(ideal\\)\"[^\n]*\"fixes\": \\[\\]}}")
# Without --explain the JSON has no advice.
wm_cli_test(NAME expr_json_no_advice
  ARGS expr -D N=64 --format json -f examples/expr/transpose_tiled.expr
  STDOUT "\"statement\": 4, [^\n]*\"counts\": {[^\n]*}}}\\]}\n$")

# Colours follow --color, in the advice and in the ranking.
wm_cli_test(NAME expr_explain_color
  ARGS expr -D N=64 --explain --color always
       -f examples/expr/transpose_tiled.expr
  STDOUT "advice..0m ...31mhigh..0m.: 32-way"
         "line 8 +...31mhigh..0m. +94%  32-way")

# Usage errors (exit 2) and an unwritable report (exit 1).
wm_cli_test(NAME expr_explain_csv_rejected
  ARGS expr --explain --format csv --block 32 "load global f32 a[32] at [tid.x]"
  EXIT 2
  STDERR "^warpmem: error: --explain works with --format text or json, not csv\n$")
wm_cli_test(NAME expr_html_no_file ARGS expr --html EXIT 2
  STDERR "^warpmem: error: --html: missing value")
wm_cli_test(NAME expr_html_empty ARGS expr --html= --block 32
  "load global f32 a[32] at [tid.x]" EXIT 2
  STDERR "^warpmem: error: --html: empty file name\n$")
wm_cli_test(NAME expr_html_unwritable
  ARGS expr --block 32 --html /nonexistent-dir/r.html
       "load global f32 a[32] at [tid.x]"
  EXIT 4
  STDERR "^warpmem: error: cannot write '/nonexistent-dir/r.html' \\(--html\\): No such file or directory\n$")

# Reports for the checks below: tiled transpose (shared heatmaps) and the
# misaligned copy (sector maps); stdout is the usual text.
wm_cli_test(NAME expr_html_tiled
  ARGS expr -D N=64 --color never -f examples/expr/transpose_tiled.expr
       --html ${WM_ARTIFACTS}/cli_expr_tiled.html
  STDOUT "wavefronts per request: min 32  median 32  max 32")
wm_cli_test(NAME expr_html_misaligned
  ARGS expr -D N=64 --color never --explain
       -f examples/expr/misaligned_copy.expr
       --html ${WM_ARTIFACTS}/cli_expr_misaligned.html
  STDOUT "5 -> 4 sectors per request")
set_tests_properties(cli_expr_html_tiled cli_expr_html_misaligned
  PROPERTIES FIXTURES_SETUP wm_expr_html_files)

# Content: sites worst first (line 8, the 32-way column read, then 6, 7,
# 9), the statement as the source line, the what-ifs, the command.
add_test(NAME expr_html_content
  COMMAND ${CMAKE_COMMAND} -DFILE=${WM_ARTIFACTS}/cli_expr_tiled.html
    "-DREGEX=<h1>warpmem expr examples/expr/transpose_tiled.expr</h1>@SEP@class=\"cmd\">warpmem expr -D N=64 @SEP@class=\"ln\">8</span>load  shared f32 tile.TILE..TILE. at .tid.x..tid.y . j.[^<]*</pre>.*class=\"ln\">6</span>.*class=\"ln\">7</span>.*class=\"ln\">9</span>@SEP@sev-high\">high</span>examples/expr/transpose_tiled.expr:8 @SEP@pad each 128-byte row by 4 bytes [^<]*</td><td class=\"what\">32 → 1 wavefronts per request@SEP@in row r, element c goes to column c . .r % 32.</td><td class=\"what\">32 → 1 wavefronts per request"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/file_match.cmake)
set_tests_properties(expr_html_content PROPERTIES
  FIXTURES_REQUIRED wm_expr_html_files)

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME expr_html_wellformed
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      ${WM_ARTIFACTS}/cli_expr_tiled.html
      ${WM_ARTIFACTS}/cli_expr_misaligned.html)
  set_tests_properties(expr_html_wellformed PROPERTIES
    FIXTURES_REQUIRED wm_expr_html_files)
endif()

add_test(NAME expr_html_render
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_render.sh ${WM_ARTIFACTS}
    cli_expr_tiled.html)
set_tests_properties(expr_html_render PROPERTIES
  FIXTURES_REQUIRED wm_expr_html_files SKIP_RETURN_CODE 77 TIMEOUT 120)
