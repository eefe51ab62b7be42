// A 64-thread tile of cooperative groups (tiled_partition<64>): wider
// than a warp, so tile.sync() is a barrier the two warps build in the
// reserved shared memory with atomics and a spin on an acquire load.
// Each thread gets the sum of its tile's 64 inputs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile64_sum(const int *in, int *out)
{
    __shared__ int buf[256];
    cg::thread_block_tile<64> t = cg::tiled_partition<64>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = in[i];
    t.sync();
    int base = threadIdx.x - t.thread_rank(), s = 0;
    for (int k = 0; k < 64; k++)
        s += buf[base + k];
    t.sync();
    buf[threadIdx.x] = s;
    t.sync();
    out[i] = buf[base + (t.thread_rank() + 1) % 64];
}
