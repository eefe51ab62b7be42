# The hierarchy model through the CLI (docs/hierarchy.md).
set(WM_COPY_ARGS examples/kernels/sm_80/copy.ptx --grid 8 --block 256
    --arg f32[2048] --arg f32[2048]:iota --arg i32=2048)
wm_cli_test(NAME run_cache_copy
  ARGS run ${WM_COPY_ARGS} --cache --arch H200 --color never
  STDOUT "memory hierarchy \\(H200 model: 132 SMs x 8 CTAs, L1 256 KiB/SM"
         "dram__bytes_read.sum +8192\n"
         "dram__bytes_write.sum +8192\n"
         "l1tex__t_sector_hit_rate.pct +0.00\n"
         "predicted memory time [0-9.]+ us, latency-bound \\(latency [0-9.]+ \\+ L1"
         "latency-bound: 1.0 KiB in flight per SM \\(1 CTAs x 8 warps\\), DRAM bandwidth x latency needs 10.2 KiB"
         "TLB: L1 16 x 2048 KiB per SM, L2 256 x 32768 KiB \\(reach 32 MiB / 8192 MiB\\); misses L1 16, L2 2;"
         "terms: latency, L1/shared pipe, DRAM, L2 \\(no TLB miss latency for this GPU: the TLB term is left out")
# the TLB misses above: 8 CTAs on 8 SMs, each touching both buffers, each
# buffer in a 2 MiB page of its own (and a 32 MiB one of its own)
# a GPU without an L2 bandwidth figure says that the term is left out
wm_cli_test(NAME run_cache_terms
  ARGS run ${WM_COPY_ARGS} --cache --arch L4 --color never
  STDOUT "terms: latency, L1/shared pipe, DRAM \\(no L2 bandwidth figure")
wm_cli_test(NAME run_cache_json_bound
  ARGS run ${WM_COPY_ARGS} --cache --arch H100 --format json
  STDOUT "\"bound\": \"latency\", \"reason\": \"latency-bound: "
         "\"terms_missing\": \\[\"TLB miss latency\"\\]"
         "\"intervals\": \\[{\"interval\": 0, ")
wm_cli_test(NAME run_cache_ncu_bound
  ARGS run ${WM_COPY_ARGS} --cache --arch H100 --format ncu-csv
  STDOUT "\"warpmem__bound.code\",\"\",\"3\""
         "\"warpmem__tlb_l1_misses.sum\",\"\",\"16\"")
wm_cli_test(NAME run_cache_json
  ARGS run ${WM_COPY_ARGS} --cache --arch A100 --format json
  STDOUT "\"hierarchy\": {\"gpu\": \"A100\", \"sms\": 108"
         "\"dram__bytes_read.sum\": {\"value\": 8192, \"unit\": \"byte\"}"
         "}}\n$")
wm_cli_test(NAME run_cache_csv
  ARGS run ${WM_COPY_ARGS} --cache --sms 2 --format csv
  STDOUT "\nrun,sm_80,copy_f32,hierarchy,,,,,,,,lts__t_sectors_srcunit_tex_op_read.sum,sector,256\n")
wm_cli_test(NAME expr_cache_order
  ARGS expr -f examples/expr/stride8_loop.expr --cache-order barrier
  STDOUT "warps interleaved per barrier interval"
         "l1tex__t_sector_hit_rate.pct +0.00\n"
         "lts__t_sector_op_read_hit_rate.pct +87.50\n")
wm_cli_test(NAME expr_cache_json
  ARGS expr -D N=256 -f examples/expr/torch_transposed_copy.expr --cache
       --format json
  STDOUT "\"hierarchy\": {\"gpu\": \"H200\""
         "\"dram__bytes_read.sum\": {\"value\": 262144, \"unit\": \"byte\"},")
wm_cli_test(NAME err_cache_arch EXIT 2
  ARGS run ${WM_COPY_ARGS} --cache --arch sm_86
  STDERR "^warpmem: warning: --arch sm_86 overrides the module's .target sm_80\n"
         "warpmem: error: --cache: no GPU figures for profile 'sm_86' \\(use --arch H200, H100, A100, L4 or RTX4090\\)\n$")
wm_usage_error(cache_order "--cache-order: 'warp' is not insn or barrier"
  expr -f examples/expr/stride8_loop.expr --cache-order warp)
wm_cli_test(NAME run_cache_regs
  ARGS run ${WM_COPY_ARGS} --regs 128 --arch H200 --color never
  STDOUT "memory hierarchy \\(H200 model: 132 SMs x 2 CTAs")
wm_usage_error(cache_sms "--sms: '0' is out of range \\[1, 100000\\]"
  run ${WM_COPY_ARGS} --sms 0)
# a kernel without global accesses: CTAs with empty traces (feeding them
# was pointer arithmetic on NULL, which UBSan stops on)
wm_cli_test(NAME run_cache_no_global
  ARGS run tests/limits/nesting_ok.ptx --grid 3 --block 64 --cache
  STDOUT "dram__bytes_read.sum +0\n"
         "predicted memory time 0.000 us")
