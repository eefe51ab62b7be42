# The HTML report's page: the summary block pinned for three example
# kernels (golden files), the source page checked against the kernel's
# source (one table row per line, every anchor resolving, XHTML), and the
# page rendered in headless Chromium (size, no console message).  Launches
# as in cli_run_advise.cmake; the numbers are derived in
# tests/test_run_advise.c.
set(WM_ARTIFACTS ${PROJECT_BINARY_DIR}/artifacts)
file(MAKE_DIRECTORY ${WM_ARTIFACTS})
set(HK examples/kernels/sm_80)
set(HTILED run ${HK}/transpose.ptx --kernel transpose_tiled --grid 8,4
    --block 32,8 --arg f32[32768] --arg f32[32768]:rand=6 --arg i32=256
    --arg i32=128 -j 1)
set(HNAIVE run ${HK}/transpose.ptx --kernel transpose_naive --grid 8,16
    --block 32,8 --arg f32[32768] --arg f32[32768]:rand=6 --arg i32=256
    --arg i32=128 -j 1)
set(HMISAL run ${HK}/misaligned_copy.ptx --grid 16 --block 256
    --arg f32[4096] --arg f32[4097]:rand=4 --arg i32=4096 --arg i32=1)
set(HEXPR expr -D N=64 -f examples/expr/transpose_tiled.expr)

# name | arguments (a CMake list)
foreach(c tiled naive misaligned expr_tiled)
  if(c STREQUAL "tiled")
    set(a ${HTILED})
  elseif(c STREQUAL "naive")
    set(a ${HNAIVE})
  elseif(c STREQUAL "misaligned")
    set(a ${HMISAL})
  else()
    set(a ${HEXPR})
  endif()
  string(REPLACE ";" "@SEP@" aj "${a}")
  add_test(NAME html_summary_${c}
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:warpmem> "-DARGS=${aj}"
      -DOUT=${WM_ARTIFACTS}/page_${c}.html
      -DGOLDEN=${CMAKE_CURRENT_SOURCE_DIR}/golden/html_summary_${c}.html
      -DWORK_DIR=${PROJECT_SOURCE_DIR}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_summary.cmake)
  set_tests_properties(html_summary_${c} PROPERTIES
    FIXTURES_SETUP wm_html_page_${c})
endforeach()

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME html_page_transpose
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      --source-lines ${PROJECT_SOURCE_DIR}/examples/kernels/transpose.cu
      ${WM_ARTIFACTS}/page_tiled.html ${WM_ARTIFACTS}/page_naive.html)
  set_tests_properties(html_page_transpose PROPERTIES
    FIXTURES_REQUIRED "wm_html_page_tiled;wm_html_page_naive")
  add_test(NAME html_page_misaligned
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      --source-lines ${PROJECT_SOURCE_DIR}/examples/kernels/misaligned_copy.cu
      ${WM_ARTIFACTS}/page_misaligned.html)
  set_tests_properties(html_page_misaligned PROPERTIES
    FIXTURES_REQUIRED wm_html_page_misaligned)
  # expr: statements as lines, each with a row
  add_test(NAME html_page_expr
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      ${WM_ARTIFACTS}/page_expr_tiled.html)
  set_tests_properties(html_page_expr PROPERTIES
    FIXTURES_REQUIRED wm_html_page_expr_tiled)
endif()

# Rows and anchors in the page itself: the hot line's row links to its
# detail, which links back; four statement rows for the expr program.
add_test(NAME html_page_anchors
  COMMAND ${CMAKE_COMMAND} -DFILE=${WM_ARTIFACTS}/page_tiled.html
    "-DRE=<tr class=\"src hot\" id=\"s0-47\"><td class=\"ln\"><a href=\"#d0-47\">47</a>@SEP@<section class=\"line\" id=\"d0-47\">.<h2><a href=\"#s0-47\">transpose.cu:47</a>@SEP@<td>31744</td><td class=\"t-high\">94%</td>@SEP@id=\"excess-chart\"@SEP@wavefronts per request over the 1024 requests of transpose.cu:47"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_grep.cmake)
set_tests_properties(html_page_anchors PROPERTIES
  FIXTURES_REQUIRED wm_html_page_tiled)

add_test(NAME html_page_render
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_render.sh ${WM_ARTIFACTS}
    page_tiled.html page_misaligned.html page_expr_tiled.html)
set_tests_properties(html_page_render PROPERTIES
  FIXTURES_REQUIRED "wm_html_page_tiled;wm_html_page_misaligned;wm_html_page_expr_tiled"
  SKIP_RETURN_CODE 77 TIMEOUT 240)

# Inlined code: the functor's line (for_each.cu:8) is charged to its call
# site, line 16, with a helper row under it; every line of for_each.cu is a
# row.
set(HC ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
wm_cli_test(NAME html_page_inlined
  ARGS run ${HC}/for_each_sm_80.ptx --grid 8 --block 128
       --arg "{f32[1000]:iota, f32[1000], i32=3}" --arg i32=1000
       --html ${WM_ARTIFACTS}/page_inlined.html
  STDOUT "for_each.cu:16")
set_tests_properties(cli_html_page_inlined PROPERTIES
  FIXTURES_SETUP wm_html_page_inlined)
add_test(NAME html_page_inlined_rows
  COMMAND ${CMAKE_COMMAND} -DFILE=${WM_ARTIFACTS}/page_inlined.html
    "-DRE=<tr class=\"src\" id=\"s0-8\"><td class=\"ln\">8</td><td class=\"code\">    __device__ void operator...int i. const { y.i. = x.i. . .float.k. }</td><td></td>@SEP@id=\"s0-16\"><td class=\"ln\"><a href=\"#d0-16\">16</a></td><td class=\"code\">        f.i..</td><td>64</td><td>3.91 <span class=\"muted\">/ 3.91</span></td>@SEP@</tr>.<tr class=\"inl\"><td class=\"ln\">&#8627;</td><td class=\"code\"><span class=\"muted\">inlined for_each.cu:8</span>"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_grep.cmake)
set_tests_properties(html_page_inlined_rows PROPERTIES
  FIXTURES_REQUIRED wm_html_page_inlined)
if(Python3_Interpreter_FOUND)
  add_test(NAME html_page_inlined_check
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      --source-lines ${PROJECT_SOURCE_DIR}/tests/corpus/for_each.cu
      ${WM_ARTIFACTS}/page_inlined.html)
  set_tests_properties(html_page_inlined_check PROPERTIES
    FIXTURES_REQUIRED wm_html_page_inlined)
endif()
