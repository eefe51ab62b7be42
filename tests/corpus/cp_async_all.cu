// Staging through shared memory with the SM80 async-copy wrappers that
// template libraries write in inline asm: 16-byte cp.async.cg copies, one
// commit per stage, and cp.async.wait_all (what a wait for zero pending
// groups becomes) before the tile is read back.  Each CTA loads two tiles
// of 64 float4 and writes out[i] = a[i] + b[63 - i] per float4 lane.
#include <cstdint>

__device__ __forceinline__ void copy16(void *smem, const void *gmem)
{
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s),
                 "l"(gmem));
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }

__device__ __forceinline__ void wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

__global__ void stage_pair(float4 *out, const float4 *a, const float4 *b)
{
    __shared__ float4 ta[64], tb[64];
    int base = blockIdx.x * 64, t = threadIdx.x;
    copy16(&ta[t], &a[base + t]);
    commit();
    copy16(&tb[t], &b[base + t]);
    commit();
    wait_all();
    __syncthreads();
    float4 x = ta[t], y = tb[63 - t];
    out[base + t] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}
