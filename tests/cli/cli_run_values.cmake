# CLI tests of `warpmem run` by-value struct parameters, raw parameter
# bytes and module variables set / read back by name.
set(C ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)

wm_cli_test(NAME run_struct_arg
  ARGS run ${C}/for_each_sm_80.ptx --grid 8 --block 128
       --arg "{f32[1000]:iota, f32[1000], i32=3}" --arg i32=1000 --format csv
  STDOUT "for_each.cu,8,\"ld.global.f32 [^\n]*,global,ld,4,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,125\n"
         ",global,st,4,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,125\n")
wm_cli_test(NAME run_struct_arg_size EXIT 2
  ARGS run ${C}/for_each_sm_80.ptx --grid 1 --block 32
       --arg "{f32[4], i32=3}" --arg i32=4
  STDERR "--arg 0: \\{f32\\[4\\], i32=3\\} has 16 bytes; parameter 'param_0' \\(scale_into\\) is .b8\\[24\\], 24 bytes")
wm_cli_test(NAME run_struct_field_bad EXIT 2
  ARGS run ${C}/for_each_sm_80.ptx --grid 1 --block 32
       --arg "{f32[4], x}" --arg i32=4
  STDERR "field 'x' is neither TYPE\\[N\\]... nor TYPE=VALUE")
wm_cli_test(NAME run_bytes_hex EXIT 1
  ARGS run ${C}/for_each_sm_80.ptx --grid 1 --block 32
       --arg bytes:hex=000000000000000000000000000000000300000000000000
       --arg i32=4
  STDERR "invalid global load of 4 bytes at 0x0: not in any buffer")
wm_cli_test(NAME run_global_unknown EXIT 2
  ARGS run ${C}/const_conv_sm_90.ptx --grid 2 --block 128 --arg f32[256]
       --arg f32[256] --arg i32=256 --global nope=u32[1]
  STDERR "no __device__ or __constant__ variable 'nope' in the module")
wm_cli_test(NAME run_global_set
  ARGS run ${C}/const_conv_sm_90.ptx --grid 2 --block 128 --arg f32[256]:iota
       --arg f32[256] --arg i32=256 --global taps=f32[5]:iota --format csv
  STDOUT "const_conv.cu,24,\"st.global.f32 [^\n]*,global,st,4,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,32\n")

# inlined helpers: text groups by the kernel's call site, the helper line
# beside each instruction; JSON names the call site
wm_cli_test(NAME run_inlined_call_site
  ARGS run ${C}/for_each_sm_80.ptx --grid 8 --block 128
       --arg "{f32[1000]:iota, f32[1000], i32=3}" --arg i32=1000 --color never
  STDOUT "for_each.cu:16 +global ld +32 .* f\\(i\\);"
         "ptx:49 ld.global.f32 %f2, \\[%rd6\\]  \\[in for_each.cu:8\\]")
wm_cli_test(NAME run_inlined_call_site_json
  ARGS run ${C}/for_each_sm_80.ptx --grid 8 --block 128
       --arg "{f32[1000]:iota, f32[1000], i32=3}" --arg i32=1000 --format json
  STDOUT "\"ptx_line\": 49, [^\n]*\"call_file\": \"\\.\\./for_each\\.cu\", \"call_line\": 16")
# a struct field's buffer with a bad init is refused and freed (the
# sanitizer build's leak check runs this too)
wm_cli_test(NAME run_struct_field_bad_init EXIT 2
  ARGS run ${C}/for_each_sm_80.ptx --grid 1 --block 32
       --arg "{f32[4]:bogus, f32[4], i32=3}" --arg i32=4
  STDERR "^warpmem: error: --arg '{f32\\[4\\]:bogus, f32\\[4\\], i32=3}': field 'f32\\[4\\]:bogus': unknown init 'bogus' \\(zeros, iota, rand=SEED, file=PATH\\)\n$")
# --global's :file= is read as --arg's: a .npy header is parsed (it was
# taken as data: "size differs"), a bad one is an input error (exit 4)
wm_cli_test(NAME run_global_npy_bad EXIT 4
  ARGS run ${C}/const_conv_sm_90.ptx --grid 2 --block 128 --arg f32[256]:iota
       --arg f32[256] --arg i32=256
       --global taps=f32[5]:file=tests/limits/npy_version9.npy
  STDERR "^warpmem: error: buffer 'f32\\[5\\]:file=tests/limits/npy_version9.npy': 'tests/limits/npy_version9.npy': a .npy version other than 1.0, 2.0 or 3.0\n$")

# --check all runs the kernel again with the warps in the other order; a
# --global variable's :out= file holds the reported run's values, and the
# second run starts from the same inputs (tests/ptx/sched_state.ptx:
# state = {warp that ran last, count + 1}, out[0] = the count found, 0 in
# both runs; state[0] differs between the orders, and exit 1 for that and
# for the race on it)
set(P ${PROJECT_SOURCE_DIR}/tests/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})
foreach(s in-order reverse)
  wm_cli_test(NAME run_global_out_check_${s} EXIT 1
    ARGS run ${P}/sched_state.ptx --kernel glob --grid 1 --block 96
         --arg u32[1]:out=${B}/sched_glob_out_${s}.bin
         --global state=u32[2]:out=${B}/sched_glob_state_${s}.bin
         --check all --schedule ${s} --draw 0
    STDOUT "check: outputs differ between schedules ${s} and [a-z-]+: variable state, element 0 \\(byte 0\\)"
           "check: 1 race hazard, 0 uninitialized reads, schedules ${s} and [a-z-]+ differ\n")
  wm_file_hex(run_global_out_check_${s}_out run_global_out_check_${s}
    ${B}/sched_glob_out_${s}.bin 00000000)
endforeach()
wm_file_hex(run_global_out_check_in-order_state run_global_out_check_in-order
  ${B}/sched_glob_state_in-order.bin 0200000001000000)
wm_file_hex(run_global_out_check_reverse_state run_global_out_check_reverse
  ${B}/sched_glob_state_reverse.bin 0000000001000000)

# a module variable's buffer names its limit: 1 <= N, at most 2^32 bytes
foreach(c "0" "1073741825")
  wm_cli_test(NAME run_global_count_${c} EXIT 2
    ARGS run ${P}/sched_state.ptx --kernel glob --grid 1 --block 32
         --arg u32[1] --global state=u32[${c}]
    STDERR "^warpmem: error: --global 'state=u32\\[${c}\\]': expected TYPE\\[N\\] with 1 <= N and at most 2\\^32 bytes\n$")
endforeach()
# a fill rule too long for any rule is refused, not ignored (the buffer
# used to stay zeros)
string(REPEAT "1" 140 ones)
wm_cli_test(NAME run_global_fill_too_long EXIT 2
  ARGS run ${P}/sched_state.ptx --kernel glob --grid 1 --block 32
       --arg u32[1] --global state=u32[2]:rand=${ones}
  STDERR "^warpmem: error: --global 'state=u32\\[2\\]:rand=1+': unknown fill 'rand=1+'\n$")
