# CLI tests of `warpmem lint` (no run): verdicts per instruction, formats,
# the block-shape table, --param, --fail-on (exit 1) and usage errors (2).
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)

wm_cli_test(NAME lint_help ARGS lint --help STDOUT "usage: warpmem lint")
wm_cli_test(NAME lint_transpose
  ARGS lint ${K}/transpose.ptx --color never
  STDOUT "kernel transpose_naive: lint for block 32x8x1, 2 memory instructions"
         "global st.32 +32 +4 +32  exact +4\\*param3 +ptx:55"
         "address = param0 \\+ 32\\*ctaid.y \\+ 4\\*tid.y \\+ 128\\*param3\\*ctaid.x \\+ 4\\*param3\\*tid.x"
         "#1 +transpose.cu:47 .*tile\\[threadIdx.x\\]\\[threadIdx.y \\+ j\\]"
         "shared ld.32 +32 +1 +32  exact +128 +ptx:125"
         "kernel transpose_swizzled"
         "every figure is the same for the 18 block shapes tried")
wm_cli_test(NAME lint_swizzle_conflict_free
  ARGS lint ${K}/transpose.ptx --kernel transpose_swizzled --format csv
  STDOUT "^kernel,file,line,ptx_line,space,op,size,verdict,severity"
         ",shared,ld,4,exact,none,1,1,1,1,1,non-affine,")
wm_cli_test(NAME lint_data_dependent
  ARGS lint ${K}/histogram.ptx --color never
  STDOUT "shared atom.32 +- +- +-  data-dependent"
         "data-dependent: the address depends on a value loaded from memory \\(PTX line 60: ld.global.u8"
         "no memory instruction flagged")
wm_cli_test(NAME lint_param
  ARGS lint ${K}/strided_copy.ptx --param 3=1 --format json
  STDOUT "^.\\{\"schema\": \"warpmem/1\", \"command\": \"lint\", \"arch\": \"sm_80\", \"kernel\": \"strided_copy_f32\", \"profile\": \"sm_80 \\(from .target sm_80\\)\", \"block\": \\[256, 1, 1\\], \"worst\": \"none\""
         "\"op\": \"ld\", \"size\": 4, \"verdict\": \"exact\", \"severity\": \"none\", \"address\": \"param1 \\+ 4\\*param3\\*tid.x \\+ 4\\*param3\\*ctaid.x\\*ntid.x\", \"stride\": \"4\\*param3\", .*\"per_request\": 4, ")
wm_cli_test(NAME lint_block
  ARGS lint ${K}/sgemm.ptx --block 16,16 --format json
  STDOUT "\"block\": \\[16, 16, 1\\]")
wm_cli_test(NAME lint_fail_on_high EXIT 1
  ARGS lint ${K}/strided_copy.ptx --fail-on high --color never
  STDOUT "#1 +strided_copy.cu:18")
wm_cli_test(NAME lint_fail_on_clean
  ARGS lint ${K}/copy.ptx --fail-on low --color never
  STDOUT "no memory instruction flagged")
wm_cli_test(NAME lint_explain
  ARGS lint ${K}/transpose.ptx --kernel transpose_tiled --explain --color never
  STDOUT "fix: ")
wm_cli_test(NAME lint_bad_fail_on EXIT 2 ARGS lint ${K}/copy.ptx --fail-on some
  STDERR "--fail-on: 'some' is not high, medium or low")
wm_cli_test(NAME lint_bad_param EXIT 2 ARGS lint ${K}/copy.ptx --param n
  STDERR "--param: 'n' is not NAME=VALUE")
wm_cli_test(NAME lint_no_file EXIT 2 ARGS lint STDERR "lint: no kernel file")
wm_cli_test(NAME lint_unknown_kernel EXIT 2
  ARGS lint ${K}/transpose.ptx --kernel nope STDERR "no kernel 'nope'")
wm_cli_test(NAME lint_html_needs_kernel EXIT 2
  ARGS lint ${K}/transpose.ptx --html out.html
  STDERR "--html: .* has 4 kernels: name one with --kernel")
# a line of several flagged instructions says its excess is their sum
# (transpose.cu:47: four shared loads of 32 wavefronts, ideal 1)
wm_cli_test(NAME lint_excess_summed
  ARGS lint examples/kernels/sm_80/transpose.ptx --kernel transpose_tiled
       --color never
  STDOUT "\n  #1 transpose.cu:47  high, 124.00 excess summed over 4 instructions \\(31.00 per request on average\\)\n")
wm_cli_test(NAME lint_excess_one
  ARGS lint examples/kernels/sm_80/strided_copy.ptx --color never
  STDOUT "\n  #1 strided_copy.cu:18  high, 28.00 excess per request\n")
