# CLI tests of `warpmem run` as a new user meets it: the signature listing
# and argument checks, the profile from .target, validation before work,
# faults in JSON, per-space line rows, estimated totals of sampled runs,
# fills and files, and .cu input.
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)
set(K90 ${PROJECT_SOURCE_DIR}/examples/kernels/sm_90)
set(P ${PROJECT_SOURCE_DIR}/tests/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})

# 1. the signature: every parameter, what the compilers add
wm_cli_test(NAME run_list_cuda ARGS run ${P}/sig.ptx --list
  GOLDEN run_list_cuda.txt)
wm_cli_test(NAME run_list_triton ARGS run ${P}/triton_add.ptx --list
  GOLDEN run_list_triton.txt)
wm_cli_test(NAME run_list_numba ARGS run ${P}/numba_axpy.ptx --list
  GOLDEN run_list_numba.txt)
wm_cli_test(NAME run_kernel_ambiguous EXIT 2
  ARGS run ${P}/sig.ptx --kernel copy_kernel --grid 1 --block 32
  STDERR "^warpmem: error: [^\n]*sig.ptx: 'copy_kernel' matches 2 kernels; name one of them:\n  copy_kernel<float>\n  copy_kernel<int>\n$")
wm_cli_test(NAME run_kernel_template
  ARGS run ${P}/sig.ptx --kernel copy_kernel<int> --grid 1 --block 32
       --arg i32[32] --arg i32[32]:iota --arg i32=32 --draw 0
  STDOUT "^kernel copy_kernel<int>: 1 of 1 CTAs")
wm_cli_test(NAME run_kernel_prefix
  ARGS run ${P}/sig.ptx --kernel ops::sc --grid 1 --block 32
       --arg f32[32] --arg f32=2 --arg u32=32 --arg i64=1 --draw 0
  STDOUT "^kernel ops::scale: 1 of 1 CTAs")
wm_cli_test(NAME run_kernel_none EXIT 2
  ARGS run ${P}/sig.ptx --kernel nothing --grid 1 --block 32
  STDERR "sig.ptx: no kernel 'nothing' \\(see --list\\)\n$")
wm_cli_test(NAME run_scalar_wrong_type EXIT 2
  ARGS run ${P}/sig.ptx --kernel copy_kernel<float> --grid 1 --block 32
       --arg f32[32] --arg f32[32] --arg f32=256
  STDERR "^warpmem: error: --arg 2: f32=256 given for .u32 parameter 'param_2' \\(int\\)\n$")
wm_cli_test(NAME run_scalar_wrong_size EXIT 2
  ARGS run ${P}/sig.ptx --kernel ops::scale --grid 1 --block 32
       --arg f32[32] --arg f32=2 --arg u32=32 --arg i32=1
  STDERR "^warpmem: error: --arg 3: i32=1 given for .u64 parameter 'param_3' \\(long long\\)\n$")
wm_cli_test(NAME run_buffer_for_value EXIT 2
  ARGS run ${P}/sig.ptx --kernel ops::scale --grid 1 --block 32
       --arg f32[32] --arg f32=2 --arg u32=32 --arg u64[4]
  STDERR "^warpmem: error: --arg 3: u64\\[4\\] given for .u64 parameter 'param_3' \\(long long\\), which the kernel uses as a value, not as an address\n$")
wm_cli_test(NAME run_buffer_for_u32 EXIT 2
  ARGS run ${P}/sig.ptx --kernel ops::scale --grid 1 --block 32
       --arg f32[32] --arg f32=2 --arg u32[4] --arg u64=1
  STDERR "^warpmem: error: --arg 2: u32\\[4\\] given for .u32 parameter 'param_2' \\(unsigned int\\), which the kernel cannot take as a pointer\n$")
# Triton: the scratch pointers may be left out; numba: one buffer per array
wm_cli_test(NAME run_triton
  ARGS run ${P}/triton_add.ptx --grid 4 --block 128 --arg f32[1000]:iota
       --arg f32[1000]:iota --arg f32[1000] --arg i32=1000 --draw 0
  STDOUT "^kernel add_kernel: 4 of 4 CTAs, 512 warp instructions"
         "\n     gen-py-ptx.py:39         global st         32     3.91     3.91         0            sectors/request\n")
wm_cli_test(NAME run_numba
  ARGS run ${P}/numba_axpy.ptx --grid 4 --block 256 --arg f32[1000]
       --arg f32[1000]:iota --arg f32=2 --arg f32[10x3]:iota --draw 0
  STDOUT "^kernel __main__::axpy: 4 of 4 CTAs")
wm_cli_test(NAME run_numba_array_shape EXIT 2
  ARGS run ${P}/numba_axpy.ptx --grid 4 --block 256 --arg f32[1000]
       --arg f32[1000] --arg f32=2 --arg f32[30]
  STDERR "^warpmem: error: --arg 3: f32\\[30\\] given for numba array arg3.data \\(Array<float, 2, C, mutable, aligned>, 2-D: pass f32\\[N0xN1...\\]\\)\n$")
wm_cli_test(NAME run_numba_count EXIT 2
  ARGS run ${P}/numba_axpy.ptx --grid 4 --block 256 --arg f32[1000]
  STDERR "^warpmem: error: kernel __main__::axpy takes 4 arguments \\(24 PTX parameters\\), 1 --arg given \\(see --list\\)\n$")

# 3. the profile from .target; --arch overrides with a warning
wm_cli_test(NAME run_arch_from_target
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --draw 0
  STDOUT "\nprofile sm_80 \\(from .target sm_80\\)\n")
wm_cli_test(NAME run_arch_from_target_90
  ARGS run ${K90}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --format json
  STDOUT "^\\{\"schema\": \"warpmem/1\", \"command\": \"run\", \"arch\": \"sm_90\", \"kernel\": \"copy_f32\", \"profile\": \"sm_90 \\(from .target sm_90\\)\", \"level\": \"ptx\"")
wm_cli_test(NAME run_arch_override
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --draw 0 --arch sm_90
  STDOUT "\nprofile sm_90 \\(--arch\\)\n"
  STDERR "^warpmem: warning: --arch sm_90 overrides the module's .target sm_80\n$")

# 8. refusals come before any buffer is made (400 GB would not fit)
wm_cli_test(NAME run_refuse_before_alloc_csv EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[100000000000]
       --arg f32[4] --arg i32=4 --explain --format csv
  STDERR "^warpmem: error: --explain works with --format text or json, not csv\n$")
wm_cli_test(NAME run_refuse_before_alloc_type EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[100000000000]
       --arg f32[4] --arg f32=4
  STDERR "^warpmem: error: --arg 2: f32=4 given for .u32 parameter 'param_2'\n$")
wm_cli_test(NAME run_refuse_before_alloc_count EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[100000000000]
  STDERR "^warpmem: error: kernel copy_f32 takes 3 parameters, 1 --arg given\n$")
wm_cli_test(NAME run_refuse_before_alloc_block EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 64,32 --arg f32[100000000000]
       --arg f32[4] --arg i32=4
  STDERR "^warpmem: error: block has 2048 threads \\(CUDA's limit is 1024 threads per block\\)\n$")
wm_cli_test(NAME run_refuse_before_alloc_smem EXIT 2
  ARGS run ${P}/sig.ptx --kernel smem_sum --grid 1 --block 32
       --arg f32[100000000000] --arg f32[4] --smem 300000
  STDERR "^warpmem: error: shared memory of 300000 bytes exceeds 233472\n$")
wm_cli_test(NAME run_refuse_before_alloc_file EXIT 4
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[100000000000]
       --arg i32[4]:file=${P}/iota4_f32.npy --arg i32=4
  STDERR "^warpmem: error: --arg 'i32\\[4\\]:file=[^']*': '[^']*iota4_f32.npy' holds '<f4', the spec says i32 \\(<i4\\)\n$")
wm_cli_test(NAME run_refuse_nvcc_flag_ptx EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --nvcc-flag -DX=1
  STDERR "^warpmem: error: run: nvcc flags \\(--nvcc-flag, --\\) need a .cu input, not '[^']*copy.ptx'\n$")

# 6. faults in JSON: the object on stdout, exit 1, statistics kept
wm_cli_test(NAME run_fault_json EXIT 1
  ARGS run ${P}/faults.ptx --kernel oob --grid 2 --block 32 --arg f32[40]
       --arg u32=9 --format json
  STDOUT "^\\{\"schema\": \"warpmem/1\", \"command\": \"run\", \"arch\": \"sm_80\", \"kernel\": \"oob\", [^\n]*\"level\": \"ptx\""
         "\\], \"fault\": \\{\"status\": \"fault\", \"kind\": \"out-of-bounds\", \"message\": \"out-of-bounds global load of 4 bytes at 0x100000000a0: offset 160 in the buffer of argument 0 \\(160 bytes\\)\", \"block\": \\[0, 0, 0\\], \"thread\": \\[31, 0, 0\\], \"warp\": 0, \"lane\": 31, \"ptx_line\": 22, \"ptx\": \"ld.global.f32 %f1, \\[%rd3\\]\", \"source\": \"/nonexistent/faults.cu:12\", \"space\": \"global\", \"address\": 1099511627936, \"buffer\": \\{\"argument\": 0, \"offset\": 160, \"bytes\": 160\\}\\}\\}\n$")
wm_cli_test(NAME run_fault_json_steps EXIT 1
  ARGS run ${P}/faults.ptx --kernel spin --grid 1 --block 32 --max-steps 1000
       --format json
  STDOUT ", \"fault\": \\{\"status\": \"error\", \"kind\": \"step-budget\", \"message\": \"step budget of 1000 warp instructions exhausted")
wm_cli_test(NAME run_fault_json_membermask EXIT 1
  ARGS run ${P}/faults.ptx --kernel shfl_diverge --grid 1 --block 32
       --arg u32[32] --format json
  STDOUT ", \"fault\": \\{\"status\": \"fault\", \"kind\": \"membermask\", ")
# after a fault only :partial= files are written (:out= stays as it was)
wm_cli_test(NAME run_fault_out_written EXIT 1
  ARGS run ${P}/faults.ptx --kernel oob --grid 2 --block 32
       --arg f32[40]:iota:partial=${B}/fault_out.bin --arg u32=9 --format json
  STDOUT ", \"outputs_written\": \\[\"[^\"]*fault_out.bin\"\\]\\}\n$"
  STDERR "warpmem: note: wrote [^\n]*fault_out.bin \\(:partial=\\) as the kernel left it at the fault\n$")
wm_cli_test(NAME run_fault_smem_hint EXIT 1
  ARGS run ${P}/sig.ptx --kernel smem_sum --grid 1 --block 32
       --arg f32[32] --arg f32[1]
  STDERR "sig.ptx:127: fault: out-of-bounds shared store of 4 bytes at shared offset 0 \\(the block has 0 bytes\\); the kernel uses dynamic shared memory: pass --smem BYTES\n")
wm_cli_test(NAME run_smem_given
  ARGS run ${P}/sig.ptx --kernel smem_sum --grid 1 --block 32
       --arg f32[32] --arg f32[1] --smem 128 --draw 0
  STDOUT "^kernel smem_sum: 1 of 1 CTAs")

# 5. one row per (line, space, op), each with its per-request metric
wm_cli_test(NAME run_line_per_space
  ARGS run ${K}/transpose.ptx --kernel transpose_tiled --grid 4,4 --block 32,8
       --arg f32[16384] --arg f32[16384] --arg i32=128 --arg i32=128 --draw 0
  STDOUT "\n     transpose.cu:42          global ld        512     4.00     4.00         0            sectors/request    tile\\[threadIdx.y \\+ j\\]\\[threadIdx.x\\] = in\\[\\(y \\+ j\\) \\* width \\+ x\\];\n                              shared st        512     1.00     1.00                   0  wavefronts/request\n")

# 4. sampled runs: totals counted and estimated for the grid
wm_cli_test(NAME run_sampled_estimate
  ARGS run ${K}/copy.ptx --grid 64 --block 256 --arg f32[16384]
       --arg f32[16384] --arg i32=16384 --ctas sample:5,7 --draw 0
  STDOUT "\nkernel totals \\(Nsight Compute names, (PTX|SASS) level\\): counted over 5 CTAs, and estimated for all 64 \\(x 12.80\\):\n"
         "\n  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum  +160 +2048\n"
         "\n  l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio +4.00 +4.00\n")
wm_cli_test(NAME run_sampled_estimate_json
  ARGS run ${K}/copy.ptx --grid 64 --block 256 --arg f32[16384]
       --arg f32[16384] --arg i32=16384 --ctas first:4 --format json
  STDOUT ", \"estimate_scale\": 16, \"totals_estimated\": \\{\"smsp__sass_inst_executed_op_global_ld.sum\": {\"value\": 512, \"unit\": \"inst\"}, ")
wm_cli_test(NAME run_sampled_estimate_csv
  ARGS run ${K}/copy.ptx --grid 64 --block 256 --arg f32[16384]
       --arg f32[16384] --arg i32=16384 --ctas first:4 --format csv
  STDOUT "\nrun,sm_80,copy_f32,total,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,128\n"
         "\nrun,sm_80,copy_f32,total,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,128\n"
         "\nrun,sm_80,copy_f32,total_estimated,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,2048\n"
         "\nrun,sm_80,copy_f32,total_estimated,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,2048\n")

# 2. fills: full-range integer rand, ranges, files (raw and .npy), in-out
wm_cli_test(NAME run_fill_rand_u32
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
       --arg u32[4]:rand=0:out=${B}/rand_u32.bin --arg i32=0 --draw 0
  STDOUT "^kernel copy_f32")
wm_file_hex(run_fill_rand_u32_bytes run_fill_rand_u32 ${B}/rand_u32.bin
  39a820e26a9e786e185dc406a8b88bf8)
wm_cli_test(NAME run_fill_rand_range
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
       --arg i8[8]:rand=5,-3,3:out=${B}/rand_i8.bin --arg i32=0 --draw 0
  STDOUT "^kernel copy_f32")
wm_file_hex(run_fill_rand_range_bytes run_fill_rand_range ${B}/rand_i8.bin
  0002ffff00fdfefe)
wm_cli_test(NAME run_fill_bad_range EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg u8[8]:rand=1,0,256
  STDERR "^warpmem: error: --arg 'u8\\[8\\]:rand=1,0,256': bad init 'rand=1,0,256' \\(zeros, iota, rand=SEED, rand=SEED,LO,HI with LO <= HI in the type's range, file=PATH\\)\n$")
wm_cli_test(NAME run_file_npy_out_npy
  ARGS run ${K}/copy.ptx --grid 1 --block 32
       --arg f32[4]:out=${B}/copy_out.npy
       --arg f32[4]:file=${P}/iota4_f32.npy --arg i32=4 --draw 0
  STDOUT "^kernel copy_f32")
wm_file_hex(run_file_npy_out_npy_data run_file_npy_out_npy ${B}/copy_out.npy
  000000000000803f0000004000004040 -DOFFSET=128)
wm_file_hex(run_file_npy_out_npy_header run_file_npy_out_npy ${B}/copy_out.npy
  934e554d505901007600 -DOFFSET=0 -DLIMIT=10)
wm_cli_test(NAME run_file_npy_type EXIT 4
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
       --arg i32[4]:file=${P}/iota4_f32.npy --arg i32=4
  STDERR "^warpmem: error: --arg 'i32\\[4\\]:file=[^']*iota4_f32.npy': '[^']*iota4_f32.npy' holds '<f4', the spec says i32 \\(<i4\\)\n$")
wm_cli_test(NAME run_file_npy_shape EXIT 4
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
       --arg f64[3x2]:file=${P}/iota2x3_f64.npy --arg i32=4
  STDERR "' has shape 2x3, the spec 3x2\n$")
wm_cli_test(NAME run_file_raw_size EXIT 4
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
       --arg f32[5]:file=${P}/iota4_f32.raw --arg i32=4
  STDERR "^warpmem: error: --arg 'f32\\[5\\]:file=[^']*iota4_f32.raw': '[^']*iota4_f32.raw' has 16 bytes, the buffer 20\n$")
wm_cli_test(NAME run_file_raw
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]:out=${B}/copy_out.bin
       --arg f32[4]:file=${P}/iota4_f32.raw --arg i32=3 --draw 0
  STDOUT "^kernel copy_f32")
wm_file_hex(run_file_raw_data run_file_raw ${B}/copy_out.bin
  000000000000803f0000004000000000)
wm_cli_test(NAME run_file_missing EXIT 4
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[4]
       --arg f32[4]:file=${P}/none.npy --arg i32=4
  STDERR "^warpmem: error: --arg 'f32\\[4\\]:file=[^']*none.npy': cannot read '[^']*none.npy': No such file or directory\n$")
wm_cli_test(NAME run_in_out
  ARGS run ${P}/sig.ptx --kernel inplace_double --grid 1 --block 64
       --arg f64[64]:iota:in-out:out=${B}/inout.npy --arg i32=64 --draw 0
  STDERR "^warpmem: --arg 0 \\(in-out\\): 63 of 64 elements changed\n$")
wm_file_hex(run_in_out_input run_in_out ${B}/inout.in.npy
  0000000000000000000000000000f03f -DOFFSET=128 -DLIMIT=16)

# 7. .cu input: nvcc flags, and faults named by the .cu line (with nvcc)
if(WM_NVCC_FOR_RUN)
  get_filename_component(wm_run_nvcc_dir ${WM_NVCC_FOR_RUN} DIRECTORY)
  wm_cli_test(NAME run_cu_flags EXIT 1
    ARGS run ${P}/cu/oob.cu --grid 2 --block 32 --arg f32[40] --arg i32=40
         --nvcc-flag -I${P}/cu/inc -- -DFACTOR=2 -std=c++17
    STDERR "^[^\n]*oob.cu:8: fault: out-of-bounds global store of 4 bytes at 0x100000000a0: offset 160 in the buffer of argument 0 \\(160 bytes\\)\n"
           "\n  ptx: st.global.f32 \\[%rd4\\], %f2 \\(PTX line [0-9]+\\)\n  source: [^\n]*oob.cu:8\n$")
  wm_cli_test(NAME run_cu_missing_flag EXIT 4
    ARGS run ${P}/cu/oob.cu --grid 2 --block 32 --arg f32[40] --arg i32=40
    STDERR "oob.cu: nvcc failed")
  # nvcc exiting 127 itself (as when its cicc is missing) is a failed
  # nvcc, not a missing one; $CUDA_HOME/bin/nvcc is the one run
  wm_cli_test(NAME run_cu_nvcc_127 EXIT 4
    ARGS run ${P}/cu/oob.cu --grid 2 --block 32 --arg f32[40] --arg i32=40
    STDERR "^fake nvcc ran as [^\n]*/fake-cuda/bin/nvcc\nwarpmem: error: [^\n]*oob.cu: nvcc failed\n$")
  set_tests_properties(cli_run_cu_nvcc_127 PROPERTIES
    ENVIRONMENT "CUDA_HOME=${P}/cu/fake-cuda")
  # CUDA_HOME names the toolkit, another nvcc comes first on PATH (CI's
  # machine: a wrapper script in /usr/local/bin): the toolkit's nvcc, run
  # with argv[0] its own path, finds its cicc
  if(EXISTS /usr/local/cuda/bin/nvcc)
    wm_cli_test(NAME run_cu_shadowed EXIT 1
      ARGS run ${P}/cu/oob.cu --grid 2 --block 32 --arg f32[40] --arg i32=40
           --nvcc-flag -I${P}/cu/inc -- -DFACTOR=2
      STDERR "^[^\n]*oob.cu:8: fault: out-of-bounds global store")
    set_tests_properties(cli_run_cu_shadowed PROPERTIES LABELS nvcc
      ENVIRONMENT "CUDA_HOME=/usr/local/cuda;PATH=${P}/cu/shadow-bin:$ENV{PATH}")
  endif()
  foreach(t run_cu_flags run_cu_missing_flag)
    set_tests_properties(cli_${t} PROPERTIES LABELS nvcc
      ENVIRONMENT "PATH=${wm_run_nvcc_dir}:$ENV{PATH}")
  endforeach()
endif()

# lazy filling gives the bytes eager filling gives (a 4 MiB buffer, of
# which the kernel touches one page; :out= fills the rest on the way out)
foreach(mode lazy eager)
  wm_cli_test(NAME run_fill_${mode}
    ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32]
         --arg u32[1048576]:rand=3,10,1000000:out=${B}/fill_${mode}.bin
         --arg i32=32 --fill ${mode} --draw 0
    STDOUT "^kernel copy_f32: 1 of 1 CTAs")
  set_tests_properties(cli_run_fill_${mode} PROPERTIES FIXTURES_SETUP fill_${mode})
endforeach()
add_test(NAME run_fill_lazy_same COMMAND ${CMAKE_COMMAND} -E compare_files
  ${B}/fill_lazy.bin ${B}/fill_eager.bin)
set_tests_properties(run_fill_lazy_same PROPERTIES
  FIXTURES_REQUIRED "fill_lazy;fill_eager")
wm_cli_test(NAME run_fill_bad_mode EXIT 2
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --fill later
  STDERR "^warpmem: error: --fill: 'later' is not lazy or eager\n$")

# 5 in JSON: each line lists its (space, op) accesses with their metric
wm_cli_test(NAME run_line_per_space_json
  ARGS run ${K}/transpose.ptx --kernel transpose_tiled --grid 4,4 --block 32,8
       --arg f32[16384] --arg f32[16384] --arg i32=128 --arg i32=128
       --format json
  STDOUT "\"line\": 42, [^\n]*\"accesses\": \\[\\{\"space\": \"global\", \"op\": \"ld\", \"per_request_metric\": \"sectors/request\", \"per_request\": 4, \"stats\": \\{[^}]*\\}\\}, \\{\"space\": \"shared\", \"op\": \"st\", \"per_request_metric\": \"wavefronts/request\", \"per_request\": 1, ")
# 6 in text: the report of the work before the fault on stdout
wm_cli_test(NAME run_fault_text_report EXIT 1
  ARGS run ${P}/faults.ptx --kernel oob --grid 2 --block 32 --arg f32[40]
       --arg u32=9 --color never
  STDOUT "^kernel oob: [^\n]*\nprofile sm_80 \\(from .target sm_80\\)\nstopped by a fault \\(on stderr\\): the numbers cover the work before it\n"
  STDERR "faults.ptx:22: fault: out-of-bounds global load")

# 1 for programs: --list --format json
wm_cli_test(NAME run_list_json ARGS run ${P}/triton_add.ptx --list --format json
  GOLDEN run_list_triton.json)
# a pointer that reaches its store only through mad.wide (base + i * 4) is
# listed as a pointer and takes a buffer
wm_cli_test(NAME run_list_mad_wide ARGS run ${P}/mad_wide_ptr.ptx --list
  STDOUT "    0  out        .u64          8  pointer   \n")
wm_cli_test(NAME run_mad_wide_buffer
  ARGS run ${P}/mad_wide_ptr.ptx --grid 1 --block 32 --arg u32[32] --arg u32=32
       --format csv
  STDOUT ",global,st,4,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,4\n")

# lazily filled buffers of more pages than a process may have mappings
# (65 530 by default): each thread reads one float of its own page of a
# 261 MiB buffer (stride 1024), then of every other page of a 522 MiB one
# (stride 2048: the open pages cannot merge, so past the limit the whole
# buffer is opened at once).  Filling a page once made a mapping of its
# own, and past the limit the run spun in the fault handler for ever; the
# values read must equal eager filling's.
foreach(stride 1024 2048)
  math(EXPR elems "66816 * ${stride}")
  foreach(mode lazy eager)
    wm_cli_test(NAME run_fill_pages_${stride}_${mode}
      ARGS run ${K}/strided_copy.ptx --grid 261 --block 256
           --arg f32[66816]:out=${B}/fill_pages_${stride}_${mode}.bin
           --arg f32[${elems}]:rand=5 --arg i32=66816 --arg i32=${stride}
           --fill ${mode} --draw 0
      STDOUT "^kernel strided_copy_f32: 261 of 261 CTAs")
    set_tests_properties(cli_run_fill_pages_${stride}_${mode} PROPERTIES
      FIXTURES_SETUP fill_pages_${stride}_${mode} TIMEOUT 300
      RESOURCE_LOCK big_memory)
  endforeach()
  add_test(NAME run_fill_pages_${stride}_same COMMAND ${CMAKE_COMMAND} -E
    compare_files ${B}/fill_pages_${stride}_lazy.bin
    ${B}/fill_pages_${stride}_eager.bin)
  set_tests_properties(run_fill_pages_${stride}_same PROPERTIES
    FIXTURES_REQUIRED "fill_pages_${stride}_lazy;fill_pages_${stride}_eager")
endforeach()
