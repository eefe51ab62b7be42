# `warpmem run --check` and `--cache` on clusters of more than one CTA
# (tests/corpus/cluster_check.cu; the verdicts in detail are in
# tests/unit/test_ptx_cluster_check.c): a DSMEM hand-over without the cluster
# barrier is a race between the CTAs, named with their cluster ranks, and
# exits 1; with cluster.sync() it is clean; the JSON report gives the
# ranks; --cache runs a cluster kernel.
set(CC ${PROJECT_SOURCE_DIR}/tests/corpus/ptx/cluster_check_sm_90a.ptx)
wm_cli_test(NAME check_cluster_racy EXIT 1
  ARGS run ${CC} --kernel pass_right_racy --grid 8 --block 128 --cluster 4
       --arg f32[1024]:iota --arg f32[1024] --check race --draw 0
  STDOUT "check: read-after-write hazard on shared inbox\\[0\\] \\(offset 0\\) of cluster rank 0, 4 bytes, between blocks \\(3,0,0\\) and \\(0,0,0\\): 1024 times\n"
         "    write  block \\(3,0,0\\) cluster rank 3 warp 0 lane 0, thread \\(0,0,0\\), PTX line 163, [^\n]*cluster_check.cu:38: st.f32"
         "    read   block \\(0,0,0\\) cluster rank 0 warp 0 lane 0, thread \\(0,0,0\\), PTX line 169, [^\n]*cluster_check.cu:40: ld.shared.f32")
wm_cli_test(NAME check_cluster_relaxed EXIT 1
  ARGS run ${CC} --kernel pass_right_relaxed --grid 4 --block 128 --cluster 4
       --arg f32[512]:iota --arg f32[512] --check race --draw 0
  STDOUT "check: read-after-write between [^\n]*cluster_check.cu:51 \\(write\\) and [^\n]*cluster_check.cu:54 \\(read\\): 1 instruction pair, 512 times")
wm_cli_test(NAME check_cluster_clean
  ARGS run ${CC} --kernel pass_right_fenced --grid 4 --block 128 --cluster 4
       --arg f32[512]:iota --arg f32[512] --check race,init --draw 0
  STDOUT "check: 0 race hazards, 0 uninitialized reads")
wm_cli_test(NAME check_cluster_json EXIT 1
  ARGS run ${CC} --kernel halo_uninit --grid 4 --block 128 --cluster 4
       --arg f32[512]:iota --arg f32[512] --check init --format json
  STDOUT "\"kind\": \"uninitialized-read\", \"space\": \"shared\", \"address\": 480, [^\n]*\"count\": 32, \"cluster_rank\": 2, \"first\": null, \"second\": {[^}]*\"block\": \\[3, 0, 0\\], \"cluster_rank\": 3}")
wm_cli_test(NAME cache_cluster
  ARGS run ${CC} --kernel tma_multicast --grid 4 --block 128
       --arg tmap:f32[32x32]:box=32x16:iota --arg f32[2048] --cache
       --arch H200 --draw 0
  STDOUT "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum +128\n")
# Triton's matmul with num_ctas=2 (clusters of two from .reqnctapercluster,
# a cluster barrier at the start): clean
wm_cli_test(NAME check_cluster_triton
  ARGS run ${PROJECT_SOURCE_DIR}/tests/corpus/triton/matmul_ctas2_sm_90.ptx
       --grid 2,2 --block 128 --smem 65536 --arg f16[2048]:iota
       --arg f16[2048]:iota --arg f32[16384] --arg u32=128 --arg u32=128
       --arg u32=16 --check race,init --draw 0
  STDOUT "check: 0 race hazards, 0 uninitialized reads")
