// gen-ptx: sm_90
// Regression corpus: the vector and packed atomics of sm_90.  A split-K
// GEMM leaves one float4 tile of partial sums per K slice; `splitk_reduce`
// folds the slices into the output with atomicAdd(float4 *, float4), which
// nvcc emits as atom.global.add.v4.f32 (Triton's tl.atomic_add of a tile
// the same).  `splitk_old` keeps what each add found (the vector result),
// `acc_f2` adds float2 pairs, and `acc_bf2` / `acc_h2` accumulate packed
// bf16 and half pairs (atom.add.noftz.bf16x2 / .f16x2).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void splitk_reduce(float4 *c, const float4 *part,
                                         int tiles, int slices)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < tiles * slices)
        atomicAdd(&c[i % tiles], part[i]);
}

extern "C" __global__ void splitk_old(float4 *c, float4 *old,
                                      const float4 *part, int tiles, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        old[i] = atomicAdd(&c[i % tiles], part[i]);
}

extern "C" __global__ void acc_f2(float2 *c, const float2 *part, int bins,
                                  int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        atomicAdd(&c[i % bins], part[i]);
}

extern "C" __global__ void acc_bf2(__nv_bfloat162 *c,
                                   const __nv_bfloat162 *part, int bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&c[i % bins], part[i]);
}

extern "C" __global__ void acc_h2(__half2 *c, const __half2 *part, int bins,
                                  int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&c[i % bins], part[i]);
}
