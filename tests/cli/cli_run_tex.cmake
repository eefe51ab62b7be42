# CLI tests of `warpmem run` with texture and surface objects
# (--arg tex2d:... / surf2d:..., run_tex.c): values written back, the
# texture traffic rows, and the refusals of a wrong spec or parameter.
set(C ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})

# out[i] = tex1Dfetch(t, 2 i) of iota texels: 0 2 4 ... 14
wm_cli_test(NAME run_tex_fetch
  ARGS run ${C}/tex_sm_80.ptx --kernel fetch_strided --grid 1 --block 8
       --arg tex1d:f32[64]:iota --arg f32[8]:out=${B}/tex_fetch.bin
       --arg i32=8 --format csv
  STDOUT "tex.cu,12,\"tex.1d.v4.f32.s32 [^\n]*\",texture,ld,4,l1tex__t_requests_pipe_tex_mem_texture.sum,request,1\n[^\n]*,texture,ld,4,l1tex__t_sectors_pipe_tex_mem_texture.sum,sector,2\n")
wm_file_hex(run_tex_fetch_out run_tex_fetch ${B}/tex_fetch.bin
  0000000000000040000080400000c04000000041000020410000404100006041)

# linear filter at integer coordinates: 135 sectors in 16 requests, 16
# ideal each (4 texels of 4 bytes per lane); hand count in test_ptx_tex.c
wm_cli_test(NAME run_tex_linear
  ARGS run ${C}/tex_sm_90.ptx --kernel resample --grid 2 --block 32,8
       --arg tex2d:f32[64x8]:iota:clamp:linear --arg f32[512] --arg i32=64
       --arg i32=8 --arg f32=1 --arg f32=1 --format csv
  STDOUT "tex.cu,22,\"tex.2d.v4.f32.f32 [^\n]*\",texture,ld,4,l1tex__t_requests_pipe_tex_mem_texture.sum,request,16\n[^\n]*,texture,ld,4,l1tex__t_sectors_pipe_tex_mem_texture.sum,sector,135\n")
wm_cli_test(NAME run_tex_text
  ARGS run ${C}/tex_sm_80.ptx --kernel resample --grid 2 --block 32,8
       --arg tex2d:f32[64x8]:iota:linear --arg f32[512] --arg i32=64
       --arg i32=8 --arg f32=1 --arg f32=1 --color never --draw 0
  STDOUT "texture ld +16 +8.44 +16.00"
         "l1tex__t_sectors_pipe_tex_mem_texture.sum +135")

# surfaces: dst(x) = 0.5 (src(x) + src(x + 1 clamped)) = 0.5 1.5 2
wm_cli_test(NAME run_surf_stencil
  ARGS run ${C}/tex_G_sm_80.ptx --kernel surf_stencil --grid 1 --block 32
       --arg surf2d:f32[3x1]:iota --arg surf2d:f32[3x1]:out=${B}/surf.bin
       --arg i32=3 --arg i32=1 --arg f32=0.5 --draw 0
  STDOUT "surface st +1 ")
wm_file_hex(run_surf_stencil_out run_surf_stencil ${B}/surf.bin
  0000003f0000c03f00000040)
wm_cli_test(NAME run_surf_trap EXIT 1
  ARGS run ${C}/tex_sm_80.ptx --kernel surf_stencil --grid 1 --block 32
       --arg surf2d:f32[3x1] --arg surf2d:f32[3x1]
       --arg i32=4 --arg i32=1 --arg f32=0.5
  STDERR "fault: out-of-bounds surface load of 4 bytes at \\(x 12 bytes, y 0, z 0\\): the surface is 12 bytes x 1 x 1")

# --list names the handles; the refusals come before any work
wm_cli_test(NAME run_tex_list ARGS run ${C}/tex_sm_80.ptx --list
  STDOUT "0  param_0    .u64          8  texture   unsigned long long"
         "1  param_1    .u64          8  surface   unsigned long long")
wm_cli_test(NAME run_tex_buffer_refused EXIT 2
  ARGS run ${C}/tex_sm_80.ptx --kernel fetch_strided --grid 1 --block 8
       --arg f32[64] --arg f32[8] --arg i32=8
  STDERR "which the kernel uses as a texture object: pass tex1d/tex2d/tex3d:FORMAT")
wm_cli_test(NAME run_tex_kind_refused EXIT 2
  ARGS run ${C}/tex_sm_80.ptx --kernel fetch_strided --grid 1 --block 8
       --arg surf1d:f32[64] --arg f32[8] --arg i32=8
  STDERR "which the kernel uses as a texture object: pass tex1d/tex2d/tex3d")
wm_cli_test(NAME run_tex_bad_option EXIT 2
  ARGS run ${C}/tex_sm_80.ptx --kernel fetch_strided --grid 1 --block 8
       --arg tex1d:f32[64]:bilinear --arg f32[8] --arg i32=8
  STDERR "--arg 'tex1d:f32\\[64\\]:bilinear': unknown option 'bilinear'")
wm_cli_test(NAME run_tex_bad_extent EXIT 2
  ARGS run ${C}/tex_sm_80.ptx --kernel resample --grid 1 --block 8
       --arg tex2d:f32[64] --arg f32[8] --arg i32=8 --arg i32=1
       --arg f32=1 --arg f32=1
  STDERR "expected \\[WxH\\] extents in texels")
wm_cli_test(NAME run_tex_int_linear EXIT 2
  ARGS run ${C}/tex_sm_80.ptx --kernel luminance --grid 1 --block 8
       --arg tex2d:u8x4[8x1]:linear --arg f32[8] --arg i32=8 --arg i32=1
  STDERR "linear filtering of integer texels needs norm-read")

# found by fuzz_argspec: a texture spec refused before its buffer part
# left run's argument slot uninitialised, and run freed it
wm_cli_test(NAME run_tex_refused_slot EXIT 2
  ARGS run ${C}/tex_sm_80.ptx --kernel fetch_strided --grid 1 --block 8
       --arg tex2d:u8[9]:rand=2i:i1
  STDERR "^warpmem: error: --arg 'tex2d:u8\\[9\\]:rand=2i:i1': expected \\[WxH\\] extents in texels, 1 \\.\\. 2\\^20 each \\(width first, as CUDA gives them\\)\n")

# --check all's second run (the warps in the other order) works on a copy
# of the surface: its :out= file holds the reported run's texels
# (tests/ptx/sched_state.ptx's surf: {warp that ran last, 1 + 1} from
# iota), and out[0] = the count found, 1 in both runs; texel 0 (the warp
# that ran last: 2, or 0 reversed) is what the comparison names
wm_cli_test(NAME run_surf_check_all EXIT 1
  ARGS run ${PROJECT_SOURCE_DIR}/tests/ptx/sched_state.ptx --kernel surf
       --grid 1 --block 96 --arg surf1d:u32[2]:iota:out=${B}/surf_check.bin
       --arg u32[1]:out=${B}/surf_check_out.bin --check all --draw 0
  STDOUT "check: outputs differ between schedules in-order and reverse: surface 0, element 0 \\(byte 0\\): 0x00000002 vs 0x00000000\n"
         "check: 0 race hazards, 0 uninitialized reads, schedules in-order and reverse differ\n")
wm_file_hex(run_surf_check_all_texels run_surf_check_all ${B}/surf_check.bin
  0200000002000000)
wm_file_hex(run_surf_check_all_out run_surf_check_all ${B}/surf_check_out.bin
  01000000)
