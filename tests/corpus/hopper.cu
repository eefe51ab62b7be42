// gen-ptx: sm_90a
// Regression corpus: Hopper (sm_90a) constructs in one module.  `scale`
// is plain code and must run although its neighbours use TMA, mbarrier,
// wgmma, setmaxnreg and cluster registers.  `bulk_copy` fills shared
// memory with cp.async.bulk completing on an mbarrier (what Hopper kernels
// use instead of cp.async), then writes it out doubled.  `tma_wgmma` is
// parsed but not executed (wgmma and tensor maps are not modelled).
#include <cuda.h>
#include <cstdint>

extern "C" __global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

extern "C" __global__ void bulk_copy(const float *in, float *out)
{
    __shared__ alignas(128) float buf[256];
    __shared__ alignas(8) uint64_t bar;
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned sbuf = (unsigned)__cvta_generic_to_shared(buf);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("fence.proxy.async.shared::cta;");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     ::"r"(sbar), "r"(1024));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::"
                     "complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(sbuf), "l"(in + blockIdx.x * 256), "r"(1024),
                     "r"(sbar)
                     : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(sbar) : "memory");
    out[blockIdx.x * 256 + threadIdx.x] = 2.0f * buf[threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(128)
tma_wgmma(const __grid_constant__ CUtensorMap tmap, float *out)
{
    __shared__ alignas(128) uint16_t a[64 * 16];
    __shared__ alignas(8) uint64_t bar;
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned sa = (unsigned)__cvta_generic_to_shared(a);
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                     "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(sa), "l"(&tmap), "r"(0), "r"(0), "r"(sbar)
                     : "memory");
    }
    __syncthreads();
    float d[4] = {0, 0, 0, 0};
    uint64_t desc = (uint64_t)(sa >> 4);
    asm volatile("wgmma.fence.sync.aligned;");
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(desc), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3] + (float)rank;
}
