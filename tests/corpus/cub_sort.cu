// Regression corpus: CUB's block radix sort, the shape of a sort or a
// top-k stage inside a larger kernel (cub::BlockRadixSort with a
// blocked arrangement, keys loaded striped).  Its digit extraction
// compiles to bmsk.clamp.b32 (CUB's radix_rank_sort_operations).
// `bits` applies bmsk (cuda::ptx::bmsk_clamp / bmsk_wrap) and szext
// (inline asm: no intrinsic names it) to pairs of operands, edges
// included: a bit field's mask and its sign- or zero-extension.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>
#include <cuda/ptx>

// sort 128 x 4 keys per CTA, ascending
extern "C" __global__ void block_sort(unsigned *out, const unsigned *in)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[4];
    cub::LoadDirectStriped<128>(threadIdx.x, in + blockIdx.x * 512, k);
    Sort(tmp).Sort(k);
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * 512, k);
}

__device__ unsigned szext_s(unsigned a, unsigned b, bool clamp)
{
    unsigned d;
    if (clamp)
        asm("szext.clamp.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    else
        asm("szext.wrap.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

__device__ unsigned szext_u(unsigned a, unsigned b, bool clamp)
{
    unsigned d;
    if (clamp)
        asm("szext.clamp.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    else
        asm("szext.wrap.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

// out[6 i ..]: bmsk clamp, bmsk wrap, szext.s32 clamp and wrap, szext.u32
// clamp and wrap of (a[i], b[i])
extern "C" __global__ void bits(unsigned *out, const unsigned *a,
                                const unsigned *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    out[6 * i] = cuda::ptx::bmsk_clamp(x, y);
    out[6 * i + 1] = cuda::ptx::bmsk_wrap(x, y);
    out[6 * i + 2] = szext_s(x, y, true);
    out[6 * i + 3] = szext_s(x, y, false);
    out[6 * i + 4] = szext_u(x, y, true);
    out[6 * i + 5] = szext_u(x, y, false);
}
