# `warpmem run --explain / --html`: the advisor on interpreted example
# kernels (same launches as tests/unit/kernel_cases.c; the numbers are derived
# in tests/unit/test_run_advise.c), the HTML report of a run (well-formed XHTML,
# source line when the .cu is readable, the PTX text always) and the
# usage errors.  Regexes avoid "[": CMake does not split a list inside
# brackets.
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)
set(P ${PROJECT_SOURCE_DIR}/tests/ptx)
set(WM_ARTIFACTS ${PROJECT_BINARY_DIR}/artifacts)
file(MAKE_DIRECTORY ${WM_ARTIFACTS})
set(TRANSPOSE_ARGS --grid 8,4 --block 32,8 --arg f32[32768]
    --arg f32[32768]:rand=6 --arg i32=256 --arg i32=128 -j 1)

wm_cli_test(NAME run_explain_naive
  ARGS run ${K}/transpose.ptx --kernel transpose_naive --grid 8,16
       --block 32,8 --arg f32[32768] --arg f32[32768]:rand=6 --arg i32=256
       --arg i32=128 -j 1 --explain --color never
  STDOUT "lines that waste bandwidth, worst excessive share first"
         "#1 transpose.cu:32  28672 excessive sectors, 0 bank conflicts  .high, 78% of the kernel's sectors."
         "global st.32, 1 instruction, worst warp at ptx:[0-9]+ st.global.f32"
         "advice .high.: strided access: 32 sectors per request \\(ideal 4\\)"
         "28672 excessive sectors \\(78% of the total 36864 sectors\\)"
         "fix: map threadIdx.x to the contiguous axis"
         "32 -> 4 sectors per request")
wm_cli_test(NAME run_explain_tiled
  ARGS run ${K}/transpose.ptx --kernel transpose_tiled ${TRANSPOSE_ARGS}
       --explain --color never --html ${WM_ARTIFACTS}/cli_run_tiled.html
  STDOUT "#1 transpose.cu:47  0 excessive sectors, 31744 bank conflicts  .high, 94% of the kernel's wavefronts."
         "shared ld.32, 4 instructions, worst warp at ptx:[0-9]+ ld.shared.f32"
         "advice .high.: 32-way bank conflict: 32 wavefronts per request \\(ideal 1\\)"
         "31744 excessive wavefronts \\(94% of the total 33792 wavefronts\\)"
         "fix: pad each 128-byte row by 4 bytes"
         "fix: XOR-swizzle the column with the row"
         "32 -> 1 wavefronts per request"
         "lines without excess that the advisor would still change"
         "4 -> 1 requests for the same 512 bytes \\(16 -> 16 sectors\\)")
wm_cli_test(NAME run_explain_padded
  ARGS run ${K}/transpose.ptx --kernel transpose_padded ${TRANSPOSE_ARGS}
       --explain --color never
  STDOUT "no line wastes sectors or conflicts on banks")
wm_cli_test(NAME run_explain_misaligned
  ARGS run ${K}/misaligned_copy.ptx --grid 16 --block 256 --arg f32[4096]
       --arg f32[4097]:rand=4 --arg i32=4096 --arg i32=1 --explain
       --color never
  STDOUT "#1 misaligned_copy.cu:19  128 excessive sectors, 0 bank conflicts  .medium, 11% of the kernel's sectors."
         "advice .medium.: misaligned access: 5 sectors per request \\(ideal 4\\)"
         "fix: align the warp's first address to a 32-byte sector"
         "5 -> 4 sectors per request")
wm_cli_test(NAME run_explain_json
  ARGS run ${K}/copy.ptx --grid 16 --block 256 --arg f32[4096]
       --arg f32[4096]:rand=1 --arg i32=4096 --explain --format json
  STDOUT "\"op\": \"ld\", \"size\": 4, .*\"advice\": {\"pattern\": {\"kind\": \"contiguous\""
         "\"severity\": \"none\""
         "\"fixes\": .{\"kind\": \"vectorize\", \"param\": 16, \"copies\": 4, \"unit\": \"sectors\""
         "\"before\": {\"requests\": 4, \"bytes\": 512, \"sectors\": 16, \"ideal_sectors\": 16}, \"after\": {\"requests\": 1, \"bytes\": 512, \"sectors\": 16")
wm_cli_test(NAME run_explain_color
  ARGS run ${K}/transpose.ptx --kernel transpose_tiled ${TRANSPOSE_ARGS}
       --explain --color=always --draw 0
  STDOUT "advice.\\[0m \\[.\\[31mhigh.\\[0m\\]: 32-way")
wm_cli_test(NAME run_explain_csv EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --explain --format csv
  STDERR "^warpmem: error: --explain works with --format text or json, not csv\n$")
wm_cli_test(NAME run_html_empty EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --html=
  STDERR "^warpmem: error: --html: empty file name\n$")
wm_cli_test(NAME run_html_unwritable EXIT 4
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --html /nonexistent-dir/r.html
  STDERR "^warpmem: error: cannot write '/nonexistent-dir/r.html' \\(--html\\): No such file or directory")
# the source file of faults.ptx does not exist: the report shows PTX text
wm_cli_test(NAME run_html_ptx_only
  ARGS run ${P}/faults.ptx --kernel oob --grid 2 --block 32 --arg f32[4096]
       --arg u32=9 --html ${WM_ARTIFACTS}/cli_run_ptx_only.html
  STDOUT "faults.cu:12")
set_tests_properties(cli_run_explain_tiled cli_run_html_ptx_only
  PROPERTIES FIXTURES_SETUP wm_run_html_files)

add_test(NAME run_html_content
  COMMAND ${CMAKE_COMMAND} -DFILE=${WM_ARTIFACTS}/cli_run_tiled.html
    "-DRE=<title>warpmem run: kernel transpose_tiled</title>@SEP@<span class=\"ln\">47</span>out.\\(y \\+ j\\) \\* height \\+ x. = tile.threadIdx.x..threadIdx.y \\+ j.@SEP@<pre>ld.shared.f32 %f5, .%r23.</pre>@SEP@<svg"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_grep.cmake)
add_test(NAME run_html_ptx_content
  COMMAND ${CMAKE_COMMAND} -DFILE=${WM_ARTIFACTS}/cli_run_ptx_only.html
    "-DRE=<pre>ld.global.f32 %f1, .%rd3.</pre>@SEP@/nonexistent/faults.cu:12"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_grep.cmake)
set_tests_properties(run_html_content run_html_ptx_content
  PROPERTIES FIXTURES_REQUIRED wm_run_html_files)

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME run_html_wellformed
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/html_check.py
      ${WM_ARTIFACTS}/cli_run_tiled.html ${WM_ARTIFACTS}/cli_run_ptx_only.html)
  set_tests_properties(run_html_wellformed PROPERTIES
    FIXTURES_REQUIRED wm_run_html_files)
endif()

# JSON: the line of the tiled transpose's four column-read instructions is
# sized as one (31744 of 33792 shared wavefronts excessive = 0.939394, high),
# as the text report ranks it; each instruction alone is a quarter of that
wm_cli_test(NAME run_explain_tiled_json_line
  ARGS run ${K}/transpose.ptx --kernel transpose_tiled ${TRANSPOSE_ARGS}
       --explain --format json
  STDOUT "\"line\": 47, \"source\": \"[^\"]*\", \"rank\": 1, \"severity\": \"high\", \"excessive_share\": 0.939394")
