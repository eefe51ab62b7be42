# CLI tests of the foundation commands: demo, global, shared, arch, and
# every usage error (exact text, exit 2).

# The lesson's "Expected output" block, byte for byte, opens the demo.
wm_cli_test(NAME demo_lesson ARGS demo PREFIX lesson_expected.txt)
wm_cli_test(NAME demo_golden ARGS demo GOLDEN demo.txt)
wm_cli_test(NAME version ARGS --version STDOUT "^warpmem [0-9]+\\.[0-9]+\\.[0-9]+\n$")
wm_cli_test(NAME help ARGS --help STDOUT "usage: warpmem" "global" "shared")
wm_cli_test(NAME no_args EXIT 2 STDERR "usage: warpmem")
wm_cli_test(NAME unknown_cmd ARGS frobnicate EXIT 2
  STDERR "^warpmem: error: unknown command 'frobnicate'")
wm_cli_test(NAME arch_list ARGS arch GOLDEN arch.txt)
foreach(cmd global shared demo arch)
  wm_cli_test(NAME ${cmd}_help ARGS ${cmd} --help STDOUT "usage: warpmem ${cmd}")
endforeach()

# One access, text: pictures and numbers are pinned.
wm_cli_test(NAME global_stride32 ARGS global --stride 32 --color never
  GOLDEN global_stride32.txt)
wm_cli_test(NAME global_misaligned ARGS global --base 1 --color never
  STDOUT "sectors +5   \\(ideal 4, excessive 1\\)" "lines \\(tags\\) +2")
wm_cli_test(NAME global_vec16 ARGS global --size 16 --color never
  STDOUT "sectors +16   \\(ideal 16, excessive 0\\)" "lines \\(tags\\) +4")
wm_cli_test(NAME global_negative_stride ARGS global --stride -1 --base 31
  --color never STDOUT "sectors +4   \\(ideal 4")
wm_cli_test(NAME global_local ARGS global --local --stride 0 --size 16
  --color never STDOUT "sm_90 local" "sectors +16")
wm_cli_test(NAME global_addrs ARGS global --addrs 0,4,8,256 --color never
  STDOUT "4 of 32 lanes active" "sectors +2 " "lines \\(tags\\) +2")
wm_cli_test(NAME shared_stride32 ARGS shared --stride 32 --color never
  GOLDEN shared_stride32.txt)
wm_cli_test(NAME shared_broadcast ARGS shared --stride 0 --color never
  STDOUT "wavefronts +1 " "bank conflicts +0")
wm_cli_test(NAME shared_lds128 ARGS shared --size 16 --color never
  STDOUT "wavefronts +4   \\(ideal 4" "conflicts +0")
wm_cli_test(NAME shared_sm75_uniform ARGS shared --size 16 --stride 0
  --arch sm_75 --color never STDOUT "wavefronts +2 ")
# uniform pairs: ideal at the packed width (was 4: excess -2), bandwidth
# of 2 lanes per slot (was 200 %), phases named instead of "1-way" next
# to the n-way metric's 2.00 (wavefronts per instruction)
wm_cli_test(NAME shared_sm75_uniform_numbers ARGS shared --size 16 --stride 0
  --arch sm_75 --color never --explain
  STDOUT "wavefronts +2   \\(ideal 2. 2 phases of 16 lanes, at most 1 word per bank in each\\)\n"
         "bank conflicts +0 +\\(conflict-free\\)"
         "512 in 2 wavefronts of 16 lanes \\(2 per bank slot: uniform pairs\\) -> 100.0% of shared bandwidth"
         "one wavefront\n? +per phase of lanes"
         "wavefronts_shared_ideal +2\n"
         "wavefronts_shared_excessive +0\n")
wm_cli_test(NAME shared_amd ARGS shared --arch amd-wave64 --color never
  STDOUT "64 of 64 lanes" "wavefronts +2   \\(ideal 2")
wm_cli_test(NAME shared_mask ARGS shared --stride 32 --mask 0xf --color never
  STDOUT "4 of 32 lanes" "wavefronts +4 ")
wm_cli_test(NAME shared_lanes ARGS shared --stride 2 --lanes 16 --color never
  STDOUT "16 of 32 lanes" "wavefronts +1 ")
wm_cli_test(NAME global_color ARGS global --color always STDOUT "\\[32m0-7")

# Machine formats.
wm_cli_test(NAME global_json ARGS global --stride 2 --format json
  GOLDEN global_stride2.json)
wm_cli_test(NAME shared_json ARGS shared --stride 32 --format json
  STDOUT "^{\"schema\": \"warpmem/1\", \"command\": \"shared\""
         "\"totals\": {[^\n]*\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\": {\"value\": 31, \"unit\": \"\"}")
wm_cli_test(NAME shared_csv ARGS shared --stride 2 --format csv
  GOLDEN shared_stride2.csv)

# Usage errors: one line naming the flag and the value, exit 2 (and a
# "did you mean" line under a misspelled option).
function(wm_usage_error name expect)
  wm_cli_test(NAME err_${name} ARGS ${ARGN} EXIT 2
    STDERR "^warpmem: error: ${expect}\n$")
endfunction()
wm_usage_error(stride_nan "--stride: 'abc' is not a number" global --stride abc)
wm_usage_error(stride_overflow "--stride: '99999999999999999999' is out of range"
  global --stride 99999999999999999999)
wm_usage_error(stride_range "--stride: '2000000000000' is out of range \\[-1099511627776, 1099511627776\\]"
  global --stride 2000000000000)
wm_usage_error(base_negative "--base: '-4' must not be negative" global --base -4)
wm_usage_error(base_nan "--base: '1x' is not a number" shared --base 1x)
wm_usage_error(lane_negative "--stride: lane 1 would access element -1, before address 0 \\(raise --base\\)"
  global --stride -1)
wm_usage_error(addr_overflow "--stride: lane 1 address overflows 64 bits"
  global --base 2305843009213693951)
wm_usage_error(size_bad "--size: '3' must be 1, 2, 4, 8 or 16" global --size 3)
wm_usage_error(size_nan "--size: 'four' is not a number" shared --size four)
wm_usage_error(mask_empty "--mask: '0' leaves no lane active" global --mask 0)
wm_usage_error(mask_wide "--mask: '0x1ffffffff' names lanes beyond the 32-lane warp"
  global --mask 0x1ffffffff)
wm_usage_error(lanes_range "--lanes: '33' is out of range \\[1, 32\\]" shared --lanes 33)
wm_usage_error(arch_unknown "--arch: unknown architecture 'sm_99' \\(sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, H200, H100, A100, L4, RTX4090, amd-wave64, generic\\[,key=value...\\]\\)"
  global --arch sm_99)
wm_usage_error(arch_generic "--arch: 'bogus=1': unknown key \\(warp, sector, line, banks, bankbytes\\)"
  global --arch generic,bogus=1)
wm_usage_error(addrs_many "--addrs: 33 addresses but the warp has 32 lanes"
  global --addrs 0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124,128)
wm_usage_error(addrs_misaligned "--addrs: lane 1 address 0x6 is not aligned to its 4-byte access \\(--size 4\\)"
  global --addrs 0,6)
wm_usage_error(addrs_negative "--addrs: '-8' must not be negative" shared --addrs 0,-8)
wm_usage_error(addrs_empty_item "--addrs: empty or overlong item at position 1" shared --addrs 0,,8)
wm_usage_error(addrs_and_stride "--addrs cannot be combined with --stride/--base"
  global --addrs 0 --stride 2)
wm_usage_error(op_bad "--op: 'rmw' is not ld or st" global --op rmw)
wm_usage_error(format_bad "--format: 'xml' is not one of text, json, csv, ncu-csv, ncu-raw"
  global --format xml)
wm_usage_error(color_bad "--color: 'sometimes' is not one of auto, always, never"
  shared --color sometimes)
wm_usage_error(missing_value "--stride: missing value" global --stride)
wm_usage_error(unknown_opt "global: unknown option '--strid' \\(see 'warpmem global --help'\\)\nwarpmem: did you mean '--stride'\\?"
  global --strid 2)
wm_usage_error(shared_local "shared: unknown option '--local' \\(see 'warpmem shared --help'\\)"
  shared --local)
wm_usage_error(demo_arg "demo: unexpected argument 'x'" demo x)
