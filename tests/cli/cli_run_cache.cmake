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
# Ada's figures: L40's pointer chase and L2 plateau (the same architecture),
# and the miss slots of 48 warp slots; a term without a figure (the TLB
# miss latency) is named as left out
wm_cli_test(NAME run_cache_terms
  ARGS run ${WM_COPY_ARGS} --cache --arch L4 --color never
  STDOUT "latencies 34 / 274 / 624 cycles \\(L1 / L2 / DRAM: L40 pointer chase \\[RZ\\]"
         "miss slots: 384 sectors \\(12.0 KiB\\) per SM \\(8 sectors per warp slot, Accel-Sim l1_mshr \\[AS\\]\\); the loads ask for 1.0 KiB of L1 misses in flight per SM, within them\n"
         "terms: latency, L1/shared pipe, DRAM, L2 \\(no TLB miss latency for this GPU")
# a float4 copy on one CTA of 1024 threads asks for 64 KiB of misses per SM
# and 16 KiB fit the slots: four latencies per round, and more SMs help
wm_cli_test(NAME run_cache_slots
  ARGS run examples/kernels/sm_90/shapes_copy.ptx --kernel cs_stride_u4
       --grid 1 --block 1024 --arg f32[65536]:iota --arg f32[65536]
       --arg u64=16384 --arch H100 --cache --color never
  STDOUT "latency-bound: the loads ask for 64.0 KiB of L1 misses in flight per SM \\(1 CTAs x 32 warps\\), its miss slots hold 16.0 KiB, so each round waits 4.00 latencies;"
         "more SMs \\(more CTAs in the grid\\) hide it, more loads per warp cannot"
         "miss slots: 512 sectors \\(16.0 KiB\\) per SM .*: latency x 4.00\n")
wm_cli_test(NAME run_cache_slots_json
  ARGS run examples/kernels/sm_90/shapes_copy.ptx --kernel cs_stride_u4
       --grid 1 --block 1024 --arg f32[65536]:iota --arg f32[65536]
       --arg u64=16384 --arch H100 --cache --format json
  STDOUT "\"inflight_asked_bytes\": 65536, \"miss_slots\": {\"sectors\": 512, \"bytes\": 16384, \"source\": \"8 sectors per warp slot, Accel-Sim l1_mshr \\[AS\\]\"}"
         "\"warpmem__miss_slots_per_sm.avg\": {\"value\": 16384, \"unit\": \"byte\"}")
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
