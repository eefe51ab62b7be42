# CLI tests of `warpmem run` (the PTX interpreter): per-line report, formats,
# argument specs, kernel selection, faults (exit 1) and usage errors (exit 2).
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)
set(P ${PROJECT_SOURCE_DIR}/tests/ptx)

wm_cli_test(NAME run_help ARGS run --help STDOUT "usage: warpmem run")
wm_cli_test(NAME run_transpose_naive
  ARGS run ${K}/transpose.ptx --kernel transpose_naive --grid 4,4 --block 32,8
       --arg f32[16384] --arg f32[16384]:iota --arg i32=128 --arg i32=128
       -j 1 --color never
  STDOUT "kernel transpose_naive: 16 of 16 CTAs"
         "PTX-level numbers"
         "global st.32 +128 +32.00 +4.00 +3584"
         "global ld.32 +128 +4.00 +4.00 +0"
         "#1 +transpose.cu:32 .*out\\[x \\* height \\+ y\\] = in\\[y \\* width \\+ x\\];"
         "worst warp of #1"
         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum +4096")
wm_cli_test(NAME run_transpose_padded_json
  ARGS run ${K}/transpose.ptx --kernel transpose_padded --grid 4,4 --block 32,8
       --arg f32[16384] --arg f32[16384]:rand=3 --arg i32=128 --arg i32=128
       --format json
  STDOUT "^\\{\"schema\": \"warpmem/1\", \"command\": \"run\", \"arch\": \"sm_80\", \"kernel\": \"transpose_padded\", \"profile\": [^,]*, \"level\": \"ptx\", \"launch\": {\"grid\": \\[4, 4, 1\\], \"block\": \\[32, 8, 1\\], \"warp_size\": 32, "
         "\"space\": \"shared\", \"op\": \"ld\", \"size\": 4, \"stats\": \\{\"executions\": 128, \"active_lanes\": 4096, \"requests\": 128, \"bytes\": 16384, \"sectors\": 0, \"ideal_sectors\": 0, \"excessive_sectors\": 0, \"wavefronts\": 128, \"ideal_wavefronts\": 128, \"conflicts\": 0\\}, \"per_request\": {\"unit\": \"wavefront/request\", \"min\": 1, \"median\": 1, \"max\": 1, \"mean\": 1}, \"metrics\": \\{[^\n]*\"per_request_metric\": \"wavefronts/request\", \"per_request_ncu\": \"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum / smsp__sass_inst_executed_op_shared_ld.sum\"")
wm_cli_test(NAME run_csv
  ARGS run ${K}/copy.ptx --grid 2 --block 256 --arg f32[512] --arg f32[512]
       --arg i32=512 --format csv
  STDOUT "^command,arch,kernel,scope,site,file,line,label,space,op,size,metric,unit,value\n"
         "\nrun,sm_80,copy_f32,site,12,../copy.cu,16,\"ld.global.f32 %f1, \\[%rd5\\]\",global,ld,4,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,64\n")
wm_cli_test(NAME run_sampled
  ARGS run ${K}/copy.ptx --grid 64 --block 256 --arg f32[16384]
       --arg f32[16384] --arg i32=16384 --ctas sample:5,7 --draw 0
  STDOUT "5 of 64 CTAs \\(sampled")
wm_cli_test(NAME run_first
  ARGS run ${K}/copy.ptx --grid 64 --block 256 --arg f32[16384]
       --arg f32[16384] --arg i32=16384 --ctas first:3 --draw 0
  STDOUT "3 of 64 CTAs \\(sampled")
wm_cli_test(NAME run_list ARGS run ${K}/transpose.ptx --list
  STDOUT "kernel transpose_naive\\(float\\*, float const\\*, int, int\\)\n  ptx name _Z15transpose_naivePfPKfii; CUDA C\\+\\+; .target sm_80\n")

# faults: exit 1 with block, thread, PTX line and source line
wm_cli_test(NAME run_fault_oob EXIT 1
  ARGS run ${P}/faults.ptx --kernel oob --grid 2 --block 32 --arg f32[40]
       --arg u32=9
  STDERR "faults.ptx:22: fault: out-of-bounds global load of 4 bytes at 0x100000000a0: offset 160 in the buffer of argument 0 \\(160 bytes\\)"
         "block \\(0,0,0\\), thread \\(31,0,0\\) \\(warp 0, lane 31\\)"
         "ptx: ld.global.f32 %f1, \\[%rd3\\]"
         "source: /nonexistent/faults.cu:12")
wm_cli_test(NAME run_fault_barrier EXIT 1
  ARGS run ${P}/faults.ptx --kernel bar_diverge --grid 1 --block 64
  STDERR "fault: barrier divergence: threads of the block wait at barrier 0 from different instructions")
wm_cli_test(NAME run_fault_shfl EXIT 1
  ARGS run ${P}/faults.ptx --kernel shfl_diverge --grid 1 --block 32
       --arg u32[32]
  STDERR "fault: shfl.sync: membermask 0xffffffff names lanes not converged")
wm_cli_test(NAME run_fault_steps EXIT 1
  ARGS run ${P}/faults.ptx --kernel spin --grid 1 --block 32 --max-steps 1000
  STDERR "error: step budget of 1000 warp instructions exhausted")
wm_cli_test(NAME run_unsupported EXIT 1
  ARGS run ${P}/faults.ptx --kernel unknown_op --grid 1 --block 32
       --arg u32=1
  STDERR "unsupported: unsupported instruction 'frobnicate.sync.b32 %r2, %r1'")

# parse errors: file:line:col, the line and a caret
wm_cli_test(NAME run_parse_error EXIT 4
  ARGS run ${P}/bad.ptx --grid 1 --block 32
  STDERR "bad.ptx:8:15: error: undeclared register '%r7'"
         "\tadd.s32 %r1, %r7, 1;"
         "\t             \\^\\^\\^")

# usage errors: exit 2
wm_cli_test(NAME run_no_file EXIT 2 ARGS run
  STDERR "^warpmem: error: run: no kernel file")
wm_cli_test(NAME run_need_kernel EXIT 2
  ARGS run ${K}/transpose.ptx --grid 1 --block 32
  STDERR "has 4 kernels: name one with --kernel")
wm_cli_test(NAME run_bad_arg EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f33[4]
  STDERR "--arg 'f33\\[4\\]': unknown type 'f33'")
wm_cli_test(NAME run_bad_init EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]:ones
  STDERR "unknown init 'ones'")
wm_cli_test(NAME run_arg_count EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
  STDERR "kernel copy_f32 takes 3 parameters, 1 --arg given")
wm_cli_test(NAME run_scalar_for_pointer EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg i32=1 --arg f32[4]
       --arg i32=4
  STDERR "^warpmem: error: --arg 0: i32=1 given for pointer parameter 'param_0': pass a buffer, TYPE\\[N\\]\n$")
wm_cli_test(NAME run_bad_grid EXIT 2
  ARGS run ${K}/copy.ptx --grid 0 --block 32
  STDERR "--grid: '0': dimension out of range")
wm_cli_test(NAME run_big_block EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 64,32 --arg f32[4] --arg f32[4]
       --arg i32=4
  STDERR "block has 2048 threads")
wm_cli_test(NAME run_bad_ctas EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --ctas some
  STDERR "--ctas: 'some' is not all, first:N or sample:K")

# one kernel's parse error leaves the module's other kernels runnable
wm_cli_test(NAME run_one_broken_list ARGS run ${P}/one_broken.ptx --list
  STDOUT "kernel first\n  ptx name first; CUDA C\\+\\+; .target sm_80\n    #"
         "kernel broken\n  ptx name broken; CUDA C\\+\\+; .target sm_80\n  cannot run: line 29:15: undeclared register '%r7'\n"
         "kernel last\n")
wm_cli_test(NAME run_one_broken_good
  ARGS run ${P}/one_broken.ptx --kernel last --grid 1 --block 32
       --arg u32[32] --format csv
  STDOUT ",global,st,4,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,4\n")
wm_cli_test(NAME run_one_broken_bad EXIT 4
  ARGS run ${P}/one_broken.ptx --kernel broken --grid 1 --block 32
       --arg u32[32]
  STDERR "one_broken.ptx:29:15: error: undeclared register '%r7'"
         "add.s32 %r1, %r7, 1;"
         "kernel broken cannot run")
# a call into a function whose body did not parse names both lines (the
# call's and the callee's error) and exits 4; before, "syntax error" alone
wm_cli_test(NAME run_broken_callee EXIT 4
  ARGS run ${P}/broken_callee.ptx --grid 1 --block 32
  STDERR "broken_callee.ptx:25: call to helper, whose body did not parse: 14:2: add.q32 needs a type")
# a pointer parameter that reaches cp.async's source without cvta (inline
# asm of template libraries) is a pointer: buffers are accepted for it
wm_cli_test(NAME run_cp_async_param_pointer
  ARGS run tests/corpus/ptx/cp_async_all_sm_80.ptx --grid 2 --block 64
       --arg f32[512] --arg f32[512]:iota --arg f32[512]:iota
  STDOUT "kernel stage_pair: 2 of 2 CTAs, 140 warp instructions")
# sm_90's vector atomics (atomicAdd(float4 *, float4), Triton's tile adds):
# 16 bytes a lane, one element after the other; atomics never race with
# atomics, and the sum does not depend on the order of whole numbers
wm_cli_test(NAME run_atom_vec_check_cache
  ARGS run tests/corpus/ptx/atom_vec_sm_90.ptx --kernel splitk_reduce
       --grid 2 --block 64 --arg f32[32] --arg f32[512]:iota --arg i32=8
       --arg i32=16 --check all --cache
  STDOUT "global atom.128 +4 +4.00 +16.00"
         "0 race hazards, 0 uninitialized reads, schedules in-order and reverse agree"
         "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum +16")
