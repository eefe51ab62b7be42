// Regression corpus: Ampere's asynchronous copies completed on a barrier,
// as libcu++ and CUTLASS write them.
// - `barrier_copy`: cuda::memcpy_async of a CTA's tile into shared memory
//   on a cuda::barrier (cp.async, then cp.async.mbarrier.arrive and the
//   thread's own mbarrier.arrive), then each thread adds two mirrored
//   elements of the tile.
// - `pipe_sum`: cuda::pipeline with two stages, double-buffered chunks
//   summed per thread.
// - `noinc_copy`: the .noinc arrive CUTLASS's cpasync_barrier_arrive_noinc
//   emits, on a barrier expecting two arrivals per thread.
// - `spaces`: __isGlobal, __isShared, __isLocal and __isConstant
//   (isspacep) of pointers into each space, as -G builds of
//   cuda::memcpy_async test their destination.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

extern "C" __global__ void barrier_copy(float *out, const float *in)
{
    __shared__ float tile[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 256,
                       sizeof(float) * 256, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] =
        tile[threadIdx.x] + tile[255 - threadIdx.x];
}

extern "C" __global__ void pipe_sum(float *out, const float *in, int chunks)
{
    __shared__ float buf[2][128];
    auto block = cg::this_thread_block();
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
    auto pipe = cuda::make_pipeline(block, &st);
    float acc = 0;
    for (int c = 0; c <= chunks; c++) {
        if (c < chunks) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[c % 2],
                               in + (blockIdx.x * chunks + c) * 128,
                               sizeof(float) * 128, pipe);
            pipe.producer_commit();
        }
        if (c > 0) {
            pipe.consumer_wait();
            acc += buf[(c - 1) % 2][threadIdx.x];
            pipe.consumer_release();
        }
    }
    out[blockIdx.x * 128 + threadIdx.x] = acc;
}

extern "C" __global__ void noinc_copy(float *out, const float *in)
{
    __shared__ float tile[128];
    __shared__ unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned t = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;"
                     :: "r"(b), "r"(2 * blockDim.x));
    __syncthreads();
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
                 :: "r"(t), "l"(in + blockIdx.x * 128 + threadIdx.x));
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];"
                 :: "r"(b));
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
                 : "=l"(state) : "r"(b));
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.test_wait.shared.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(b), "l"(state));
    out[blockIdx.x * 128 + threadIdx.x] = 2.0f * tile[127 - threadIdx.x];
}

__constant__ float table[4] = {1, 2, 3, 4};

extern "C" __global__ void spaces(unsigned *out, const float *in, int k)
{
    __shared__ float s[32];
    float local[4];
    local[k & 3] = in[threadIdx.x];
    s[threadIdx.x] = local[k & 3];
    const void *p[4] = {in + threadIdx.x, &s[threadIdx.x], &local[k & 3],
                        &table[k & 3]};
    unsigned bits = 0;
    for (int i = 0; i < 4; i++)
        bits |= (__isGlobal(p[i]) | __isShared(p[i]) << 1 |
                 __isLocal(p[i]) << 2 | __isConstant(p[i]) << 3) << 4 * i;
    out[threadIdx.x] = bits;
}
