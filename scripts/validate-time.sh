#!/bin/sh
# validate-time.sh -- the memory-time validation of docs/hierarchy.md: each
# row runs a kernel of the same access shape and launch as a published
# measurement through `warpmem run --cache` and prints
#   row  GPU  published GB/s  predicted GB/s  predicted/published  bound
# Run from the repository root after building (WARPMEM=path overrides
# ./build/warpmem).  About a minute on two cores.
set -eu
W=${WARPMEM:-./build/warpmem}
K9=examples/kernels/sm_90
K8=examples/kernels/sm_80

row() {
    name=$1 gpu=$2 pub=$3
    shift 3
    out=$(nice "$W" run "$@" --arch "$gpu" --cache --color never 2>/dev/null |
        grep -E "warpmem__effective_bandwidth|predicted memory time")
    gbs=$(echo "$out" | awk '/effective_bandwidth/ {print $2}')
    bound=$(echo "$out" | sed -n 's/.*us, \([A-Za-z0-9]*\)-bound.*/\1/p')
    awk -v n="$name" -v g="$gpu" -v p="$pub" -v q="$gbs" -v b="$bound" \
        'BEGIN { printf "%-14s %-8s %8.1f %8.1f %6.2f  %s\n", n, g, p, q, q / p, b }'
}

# yencal/gpu-matrix-transpose (H100 80GB HBM3, 32768^2 fp32); here 8192^2,
# whole waves of about 4000 CTAs
N=8192 NN=$((8192 * 8192))
T="--arg f32[$NN]:iota --arg f32[$NN] --arg i32=$N --grid 256,256 --ctas sample:4000"
row A1.naive H100 475.5 $K9/shapes_transpose.ptx --kernel ts_naive --block 32,32 $T
row A2.tiled H100 996.1 $K9/shapes_transpose.ptx --kernel ts_tile --block 32,32 $T
row A3.padded H100 1693.4 $K9/shapes_transpose.ptx --kernel ts_pad --block 32,32 $T
row A4.coarsen2 H100 2385.1 $K9/shapes_transpose.ptx --kernel ts_pad_r2 --block 32,16 $T
row A5.coarsen4 H100 2772.4 $K9/shapes_transpose.ptx --kernel ts_pad_r4 --block 32,8 $T
row A6.coarsen8 H100 2775.3 $K9/shapes_transpose.ptx --kernel ts_pad_r8 --block 32,4 $T

# "CUDA Performance Study -- NVIDIA H100 SXM5": 256 MB float4 copy,
# 1024 threads, S blocks; the 32x8 tile transpose without padding
C4="--arg f32[67108864]:iota --arg f32[67108864] --arg u64=16777216 --block 1024"
row B1.copy1 H100 66.67 $K9/shapes_copy.ptx --kernel cs_stride_u4 --grid 1 $C4
row B2.copy32 H100 1183 $K9/shapes_copy.ptx --kernel cs_stride_u4 --grid 32 $C4
row B3.copy64 H100 1722 $K9/shapes_copy.ptx --kernel cs_stride_u4 --grid 64 $C4
row B4.copy132 H100 1992 $K9/shapes_copy.ptx --kernel cs_stride_u4 --grid 132 $C4
row B5.copy528 H100 2034 $K9/shapes_copy.ptx --kernel cs_stride_u4 --grid 528 $C4
row B6.basic H100 1224 lab/kernels/transpose.ptx --kernel lab_transpose_tile \
    --block 32,8 $T

# BabelStream Copy (Azure/AI-benchmarking-guide, ND_H100_v5 / ND_H200_v5):
# 2^25 doubles, 1024 threads, one element each
B="--grid 32768 --block 1024 --arg f64[33554432]:iota --arg f64[33554432] --arg u64=33554432 --ctas sample:4000"
row C1.babel H100 2900 $K9/shapes_copy.ptx --kernel cs_double $B
row C2.babel H200 4010 $K9/shapes_copy.ptx --kernel cs_double $B

# xytpai/nvbench global_memory_bandwidth (RTX 4090, A100-40GB): V floats
# per thread as one vector, 256 threads; 1 GB there, 256 MB here
for g in RTX4090:920.2:904.3:921.9:914.6:921.1 A100:1336.6:1379.7:1378.8:1315.7:1117.3; do
    gpu=${g%%:*} pubs=${g#*:} i=0
    for v in 1 2 4 8 16; do
        i=$((i + 1))
        pub=$(echo "$pubs" | cut -d: -f$i)
        row D.$gpu.v$v $gpu "$pub" $K8/shapes_copy.ptx --kernel cs_vec$v \
            --grid $((67108864 / 256 / v)) --block 256 \
            --arg f32[67108864]:iota --arg f32[67108864] --arg u64=67108864 \
            --ctas sample:4000
    done
done
