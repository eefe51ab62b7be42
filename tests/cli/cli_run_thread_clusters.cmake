# CLI tests of `warpmem run --cluster` (ptx_cluster.c): a cluster-wide
# reduction through DSMEM atomics (shape from .reqnctapercluster), the
# neighbour exchange with the shape from the command line on two workers,
# and the refusals of a bad shape.
set(C ${PROJECT_SOURCE_DIR}/tests/corpus/ptx)
set(B ${CMAKE_CURRENT_BINARY_DIR})

# in = 0..1023 (iota), n = 1000: cluster 0 sums 0..511 = 130816 (0x1ff00),
# cluster 1 sums 512..999 = 368684 (0x5a02c)
wm_cli_test(NAME run_cluster_sum
  ARGS run ${C}/cluster_dsmem_sm_90.ptx --kernel cluster_sum --grid 8
       --block 128 --arg i32[1024]:iota --arg i32[2]:out=${B}/csum.bin
       --arg i32=1000 --format csv
  STDOUT "cluster_dsmem.cu,23,\"atom.add.u32 [^\n]*\",shared,atom,4,smsp__sass_inst_executed_op_shared_atom.sum,inst,32\n")
wm_file_hex(run_cluster_sum_out run_cluster_sum ${B}/csum.bin
  00ff01002ca00500)

# the second rank of CTA 0's cluster of 2: out[0] = 0 + 2 * 256 + 4 * 511
wm_cli_test(NAME run_cluster_halo
  ARGS run ${C}/cluster_dsmem_sm_90.ptx --kernel halo_exchange --grid 4
       --block 256 --cluster 2 -j 2 --arg f32[1024]:iota
       --arg f32[1024]:out=${B}/halo.bin --ctas sample:1,5 --draw 0
  STDOUT "2 of 4 CTAs \\(sampled")

wm_cli_test(NAME run_cluster_not_multiple EXIT 2
  ARGS run ${C}/cluster_dsmem_sm_90.ptx --kernel halo_exchange --grid 6
       --block 256 --cluster 4 --arg f32[1536] --arg f32[1536]
  STDERR "grid 6x1x1 is not a multiple of the cluster 4x1x1")
wm_cli_test(NAME run_cluster_too_big EXIT 2
  ARGS run ${C}/cluster_dsmem_sm_90.ptx --kernel halo_exchange --grid 9
       --block 256 --cluster 9 --arg f32[2304] --arg f32[2304]
  STDERR "at most 8 \\(the portable size\\), 16 with the non-portable")
wm_cli_test(NAME run_cluster_nonportable
  ARGS run ${C}/cluster_dsmem_sm_90.ptx --kernel halo_exchange --grid 9
       --block 256 --cluster 9 --cluster-nonportable --arg f32[2304]
       --arg f32[2304] --draw 0
  STDOUT "9 CTAs")
