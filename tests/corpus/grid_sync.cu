// Regression corpus: a one-kernel sum with a grid-wide barrier
// (cooperative groups' grid.sync(), which needs a cooperative launch:
// cudaLaunchCooperativeKernel).  Each block reduces its slice in shared
// memory and stores its partial; after the grid barrier block 0 adds the
// partials.  warpmem runs no cooperative launch: grid.sync() finds its
// workspace pointer (%envreg1/%envreg2) null and traps, which the fault
// message explains; the work before the barrier is done.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_sum(const float *in, float *partial,
                                    float *total, int n)
{
    __shared__ float s[256];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    float v = 0.f;
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        v += in[i];
    s[block.thread_rank()] = v;
    block.sync();
    for (int w = block.size() / 2; w > 0; w /= 2) {
        if (block.thread_rank() < w)
            s[block.thread_rank()] += s[block.thread_rank() + w];
        block.sync();
    }
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = s[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.f;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        *total = t;
    }
}
