// gen-ptx: sm_90a
// Regression corpus: TMA through __grid_constant__ CUtensorMap parameters.
// `tma_tile_copy` loads a 2-D box per CTA into shared memory
// (cp.async.bulk.tensor with mbarrier complete_tx), scales it, and stores
// it back through a second map (bulk_group commit/wait).  `tma_swizzle128`
// loads a box whose rows are 128 bytes under the 128-byte swizzle and
// reads it back with the swizzle's XOR, as a consumer of swizzled tiles
// does.  `tma_reduce_add` adds a shared tile into global memory
// (cp.reduce.async.bulk.tensor).
#include <cuda.h>
#include <cstdint>

__device__ static inline void tma_load_2d(unsigned dst, const CUtensorMap *m,
                                          int x, int y, unsigned bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                 "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"(m), "r"(x), "r"(y), "r"(bar) : "memory");
}

__device__ static inline void wait_phase(unsigned bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}

// Box of 32 x 16 floats at (32 bx, 16 by); out = 2 in + 1.
extern "C" __global__ void tma_tile_copy(const __grid_constant__ CUtensorMap in_map,
                                         const __grid_constant__ CUtensorMap out_map)
{
    __shared__ alignas(128) float tile[16][32];
    __shared__ alignas(8) uint64_t bar;
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned stile = (unsigned)__cvta_generic_to_shared(tile);
    int x = blockIdx.x * 32, y = blockIdx.y * 16;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     ::"r"(sbar), "r"((unsigned)sizeof tile));
        tma_load_2d(stile, &in_map, x, y, sbar);
    }
    __syncthreads();
    wait_phase(sbar, 0);
    for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x)
        tile[i / 32][i % 32] = 2.0f * tile[i / 32][i % 32] + 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile."
                     "bulk_group [%0, {%1, %2}], [%3];"
                     ::"l"(&out_map), "r"(x), "r"(y), "r"(stile) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

// A box of 32 floats (128 bytes) x 8 rows under CU_TENSOR_MAP_SWIZZLE_128B:
// element (r, c) sits in 16-byte chunk (c / 4) ^ (r % 8) of row r.
extern "C" __global__ void tma_swizzle128(const __grid_constant__ CUtensorMap map,
                                          float *out)
{
    __shared__ alignas(1024) float tile[8][32];
    __shared__ alignas(8) uint64_t bar;
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     ::"r"(sbar), "r"((unsigned)sizeof tile));
        tma_load_2d((unsigned)__cvta_generic_to_shared(tile), &map, 0,
                    blockIdx.x * 8, sbar);
    }
    __syncthreads();
    wait_phase(sbar, 0);
    for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x) {
        int r = i / 32, c = i % 32;
        int chunk = (c / 4) ^ (r % 8);
        out[blockIdx.x * 256 + i] = tile[r][chunk * 4 + c % 4];
    }
}

// out[box] += tile, the tile of 16 x 8 ints = blockIdx.x + its index.
extern "C" __global__ void tma_reduce_add(const __grid_constant__ CUtensorMap map)
{
    __shared__ alignas(128) int tile[8][16];
    for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x)
        tile[i / 16][i % 16] = blockIdx.x + i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add."
                     "tile.bulk_group [%0, {%1, %2}], [%3];"
                     ::"l"(&map), "r"(16 * (int)(blockIdx.x % 2)), "r"(0),
                     "r"((unsigned)__cvta_generic_to_shared(tile))
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}
