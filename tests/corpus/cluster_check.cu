// gen-ptx: sm_90a
// Regression corpus: `--check` and `--cache` on clusters of more than one
// CTA.  The pass_right family hands each CTA's tile to the next rank's
// shared memory through cluster.map_shared_rank and reads back what the
// previous rank handed over: with cluster.sync() between (clean), with
// only __syncthreads() (a race: it orders the CTA's own threads), with a
// relaxed cluster arrive (a race: it orders no memory) and with a
// cluster-scope fence before the relaxed arrive (clean).  halo_uninit
// reads a neighbour's halo that nobody wrote; cluster_hist adds into rank
// 0's bins with DSMEM atomics; same_coeffs has every CTA read the same
// global words; tma_multicast loads one box into both CTAs of a cluster of
// two with .multicast::cluster.
#include <cooperative_groups.h>
#include <cuda.h>
#include <stdint.h>
namespace cg = cooperative_groups;

extern "C" __global__ void pass_right(const float *in, float *out)
{
    __shared__ float inbox[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nr = cluster.num_blocks();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *next = cluster.map_shared_rank(inbox, (rank + 1) % nr);
    next[threadIdx.x] = in[i];
    cluster.sync();
    out[i] = inbox[threadIdx.x];
    cluster.sync(); // the neighbours' reads are done before this CTA exits
}

extern "C" __global__ void pass_right_racy(const float *in, float *out)
{
    __shared__ float inbox[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nr = cluster.num_blocks();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *next = cluster.map_shared_rank(inbox, (rank + 1) % nr);
    next[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = inbox[threadIdx.x];
    cluster.sync();
}

extern "C" __global__ void pass_right_relaxed(const float *in, float *out)
{
    __shared__ float inbox[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nr = cluster.num_blocks();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *next = cluster.map_shared_rank(inbox, (rank + 1) % nr);
    next[threadIdx.x] = in[i];
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n"
                 "barrier.cluster.wait.aligned;" ::: "memory");
    out[i] = inbox[threadIdx.x];
    cluster.sync();
}

extern "C" __global__ void pass_right_fenced(const float *in, float *out)
{
    __shared__ float inbox[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nr = cluster.num_blocks();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *next = cluster.map_shared_rank(inbox, (rank + 1) % nr);
    next[threadIdx.x] = in[i];
    asm volatile("fence.acq_rel.cluster;\n"
                 "barrier.cluster.arrive.relaxed.aligned;\n"
                 "barrier.cluster.wait.aligned;" ::: "memory");
    out[i] = inbox[threadIdx.x];
    cluster.sync();
}

// Each CTA fills the first 120 entries of its tile; every thread then
// reads the left neighbour's tile at its own index, 8 of them past what
// was written.
extern "C" __global__ void halo_uninit(const float *in, float *out)
{
    __shared__ float tile[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nr = cluster.num_blocks();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 120)
        tile[threadIdx.x] = in[i];
    cluster.sync();
    float *left = cluster.map_shared_rank(tile, (rank + nr - 1) % nr);
    out[i] = tile[threadIdx.x % 120] + left[threadIdx.x];
    cluster.sync();
}

// A histogram of in[] % 16 per cluster, in rank 0's shared bins.
extern "C" __global__ void cluster_hist(const unsigned *in, unsigned *out,
                                        int n)
{
    __shared__ unsigned bins[16];
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x < 16)
        bins[threadIdx.x] = 0;
    cluster.sync();
    unsigned *b0 = cluster.map_shared_rank(bins, 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&b0[in[i] % 16], 1u);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x < 16)
        out[blockIdx.x / cluster.num_blocks() * 16 + threadIdx.x] =
            bins[threadIdx.x];
}

// Every CTA of the cluster reads the same 128 filter coefficients and
// scales them by its rank.
extern "C" __global__ void same_coeffs(const float *coef, float *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    float c = coef[threadIdx.x];
    cluster.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        c * (float)cluster.block_rank();
}

// Rank 0 of each cluster of two loads the 16 x 32 float box at row
// 16 x cluster id of the map once, multicast into both CTAs' shared
// memory; each CTA waits on its own mbarrier and writes the box out.
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
tma_multicast(const __grid_constant__ CUtensorMap tmap, float *out)
{
    __shared__ alignas(128) float box[16 * 32];
    __shared__ alignas(8) uint64_t bar;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned sbox = (unsigned)__cvta_generic_to_shared(box);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     ::"r"(sbar), "r"(16 * 32 * 4));
    }
    cluster.sync(); // both mbarriers are armed before the copy lands
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        uint16_t mask = 0x3;
        int row = (int)(blockIdx.x / 2) * 16;
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                     "mbarrier::complete_tx::bytes.multicast::cluster "
                     "[%0], [%1, {%2, %3}], [%4], %5;"
                     ::"r"(sbox), "l"(&tmap), "r"(0), "r"(row), "r"(sbar),
                     "h"(mask)
                     : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(sbar) : "memory");
    for (int k = threadIdx.x; k < 16 * 32; k += 128)
        out[blockIdx.x * 512 + k] = box[k];
}
