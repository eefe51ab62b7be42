// gen-ptx: sm_90a
// Regression corpus: TMA tensor maps built and edited in device code.
// `tmr_build` makes a 2-D f32 map from zeros in shared memory, field by
// field with tensormap.replace (as Triton's device-side tensor
// descriptors do), publishes it to a per-CTA global slot with
// tensormap.cp_fenceproxy and loads a 32 x 8 box through it; boxes past
// the tensor's edge come back zero-filled.  `tmr_retarget` copies a
// host-encoded map (a __grid_constant__ CUtensorMap) into a global slot,
// points it at another tensor with fewer rows and the 128-byte swizzle by
// tensormap.replace on global memory (as a grouped GEMM retargets one map
// per problem), and reads the swizzled box back.
#include <cuda.h>
#include <cstdint>

__device__ static inline void wait_phase(unsigned bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}

// One box through the map at generic address map into tile (shared).
__device__ static inline void load_box(unsigned tile, const void *map, int x,
                                       int y, unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(bar), "r"(bytes));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                 "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(tile), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

// Box (bx, by) of 32 x 8 floats of the w x h tensor in, into rows of the
// grid-sized out (gridDim.x * 32 floats per row).
extern "C" __global__ void tmr_build(const float *in, float *out, int w, int h,
                                     CUtensorMap *slots)
{
    __shared__ alignas(128) uint32_t smap[32];
    __shared__ alignas(128) float tile[8][32];
    __shared__ alignas(8) uint64_t bar;
    unsigned sm = (unsigned)__cvta_generic_to_shared(smap);
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    CUtensorMap *slot = slots + blockIdx.y * gridDim.x + blockIdx.x;
    if (threadIdx.x < 32) {
        smap[threadIdx.x] = 0;
        __syncwarp();
        if (threadIdx.x == 0) {
            uint64_t s = sm;
            asm volatile("tensormap.replace.tile.global_address.shared::cta"
                         ".b1024.b64 [%0], %1;" ::"l"(s), "l"(in) : "memory");
            asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32"
                         " [%0], 1;" ::"l"(s) : "memory");
            asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024"
                         ".b32 [%0], 0, %1;" ::"l"(s), "r"(32) : "memory");
            asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024"
                         ".b32 [%0], 1, %1;" ::"l"(s), "r"(8) : "memory");
            asm volatile("tensormap.replace.tile.global_dim.shared::cta"
                         ".b1024.b32 [%0], 0, %1;" ::"l"(s), "r"(w) : "memory");
            asm volatile("tensormap.replace.tile.global_dim.shared::cta"
                         ".b1024.b32 [%0], 1, %1;" ::"l"(s), "r"(h) : "memory");
            asm volatile("tensormap.replace.tile.global_stride.shared::cta"
                         ".b1024.b64 [%0], 0, %1;"
                         ::"l"(s), "l"((uint64_t)w * 4) : "memory");
            asm volatile("tensormap.replace.tile.element_stride.shared::cta"
                         ".b1024.b32 [%0], 0, %1;" ::"l"(s), "r"(1) : "memory");
            asm volatile("tensormap.replace.tile.element_stride.shared::cta"
                         ".b1024.b32 [%0], 1, %1;" ::"l"(s), "r"(1) : "memory");
            asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024"
                         ".b32 [%0], 7;" ::"l"(s) : "memory");
            asm volatile("tensormap.replace.tile.interleave_layout.shared::cta"
                         ".b1024.b32 [%0], 0;" ::"l"(s) : "memory");
            asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta"
                         ".b1024.b32 [%0], 0;" ::"l"(s) : "memory");
            asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024"
                         ".b32 [%0], 0;" ::"l"(s) : "memory");
        }
        __syncwarp();
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
                     "generic.release.gpu.sync.aligned [%0], [%1], 128;"
                     ::"l"(slot), "l"((uint64_t)sm) : "memory");
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                     ::"l"(slot) : "memory");
        if (threadIdx.x == 0)
            load_box((unsigned)__cvta_generic_to_shared(tile), slot,
                     blockIdx.x * 32, blockIdx.y * 8, sbar, sizeof tile);
    }
    __syncthreads();
    wait_phase(sbar, 0);
    int pitch = gridDim.x * 32;
    for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x)
        out[(blockIdx.y * 8 + i / 32) * pitch + blockIdx.x * 32 + i % 32] =
            tile[i / 32][i % 32];
}

// The host's map retargeted to in2 (h2 rows of 32 floats, 128-byte
// swizzle); CTA b reads rows 8b..8b+7 and undoes the swizzle's XOR.
extern "C" __global__ void tmr_retarget(const __grid_constant__ CUtensorMap tmpl,
                                        const float *in2, int h2, float *out,
                                        CUtensorMap *slots)
{
    __shared__ alignas(1024) float tile[8][32];
    __shared__ alignas(8) uint64_t bar;
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    CUtensorMap *slot = slots + blockIdx.x;
    if (threadIdx.x == 0) {
        *slot = tmpl;
        asm volatile("tensormap.replace.tile.global_address.global.b1024.b64"
                     " [%0], %1;" ::"l"(slot), "l"(in2) : "memory");
        asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32"
                     " [%0], 1, %1;" ::"l"(slot), "r"(h2) : "memory");
        asm volatile("tensormap.replace.tile.swizzle_mode.global.b1024.b32"
                     " [%0], 3;" ::"l"(slot) : "memory");
        asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                     ::"l"(slot) : "memory");
        load_box((unsigned)__cvta_generic_to_shared(tile), slot, 0,
                 blockIdx.x * 8, sbar, sizeof tile);
    }
    __syncthreads();
    wait_phase(sbar, 0);
    for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x) {
        int r = i / 32, c = i % 32;
        out[blockIdx.x * 256 + i] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    }
}
