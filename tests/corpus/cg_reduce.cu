// Regression corpus: a cooperative-groups block reduction whose loop
// bounds use warpSize (PTX's WARP_SZ).  Each warp reduces with
// shfl_down over a 32-thread tile; lane 0 of each warp adds its partial
// to out[0]; thread 0 stores the warp count computed from warpSize.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_reduce(const float *in, float *out, int n)
{
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0)
        atomicAdd(&out[0], v);
    if (i == 0)
        out[1] = (float)((blockDim.x + warpSize - 1) / warpSize);
}
