// gen-ptx: sm_90
// Regression corpus: thread-block clusters and distributed shared memory
// through cooperative_groups::this_cluster().  `cluster_sum` (compiled for
// clusters of 4) adds every element into rank 0's shared total with DSMEM
// atomics; `halo_exchange` (cluster shape from the launch) reads both
// neighbours' tiles through map_shared_rank; `cluster_ids` writes the
// cluster registers; `ring_asm` uses the explicit .shared::cluster forms.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1)
cluster_sum(const int *in, int *out, int n)
{
    __shared__ int total;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0)
        total = 0;
    cluster.sync();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int *dst = cluster.map_shared_rank(&total, 0);
    atomicAdd(dst, v);
    cluster.sync();
    if (rank == 0 && threadIdx.x == 0)
        out[blockIdx.x / cluster.num_blocks()] = total;
}

extern "C" __global__ void halo_exchange(const float *in, float *out)
{
    __shared__ float tile[256];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nr = cluster.num_blocks();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i];
    cluster.sync();
    float *right = cluster.map_shared_rank(tile, (rank + 1) % nr);
    float *left = cluster.map_shared_rank(tile, (rank + nr - 1) % nr);
    float r = right[threadIdx.x];
    float l = left[blockDim.x - 1 - threadIdx.x];
    cluster.sync();
    out[i] = tile[threadIdx.x] + 2.0f * r + 4.0f * l;
}

extern "C" __global__ void cluster_ids(unsigned *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    dim3 ci = cluster.block_index(), cd = cluster.dim_blocks();
    unsigned cid, ncid, expl;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(ncid));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster;"
        " selp.u32 %0, 1, 0, p; }" : "=r"(expl));
    unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned *o = out + 8 * b;
    if (threadIdx.x == 0) {
        o[0] = cluster.block_rank();
        o[1] = cluster.num_blocks();
        o[2] = ci.x;
        o[3] = ci.y;
        o[4] = cd.x * 100 + cd.y;
        o[5] = cid;
        o[6] = ncid;
        o[7] = expl;
    }
}

// Each CTA stores its values into the next rank's inbox with
// st.shared::cluster, counts arrivals there with red.shared::cluster, and
// after the cluster barrier reads its own inbox back.
extern "C" __global__ void ring_asm(const unsigned *in, unsigned *out)
{
    __shared__ unsigned inbox[128];
    __shared__ unsigned count;
    unsigned rank, nr;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nr));
    if (threadIdx.x == 0)
        count = 0;
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n"
                 "barrier.cluster.wait.aligned;" ::: "memory");
    unsigned me = (unsigned)__cvta_generic_to_shared(&inbox[threadIdx.x]);
    unsigned cnt = (unsigned)__cvta_generic_to_shared(&count);
    unsigned next = (rank + 1) % nr, dst, dcnt;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(dst) : "r"(me), "r"(next));
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(dcnt) : "r"(cnt), "r"(next));
    unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(dst), "r"(v * 10 + rank)
                 : "memory");
    asm volatile("red.shared::cluster.add.u32 [%0], 1;" ::"r"(dcnt) : "memory");
    asm volatile("fence.acq_rel.cluster;\n"
                 "barrier.cluster.arrive.aligned;\n"
                 "barrier.cluster.wait.aligned;" ::: "memory");
    unsigned got;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(got) : "r"(me));
    out[blockIdx.x * blockDim.x + threadIdx.x] = got + 1000000 * count;
    asm volatile("barrier.cluster.arrive.aligned;\n"
                 "barrier.cluster.wait.aligned;" ::: "memory");
}
