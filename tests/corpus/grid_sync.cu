// Regression corpus: a one-kernel sum with a grid-wide barrier
// (cooperative groups' grid.sync(), which needs a cooperative launch:
// cudaLaunchCooperativeKernel, `warpmem run --cooperative`).  Each block
// reduces its slice in shared memory and stores its partial; after the
// grid barrier block 0 adds the partials.  Launched cooperatively every
// CTA runs at once and the sum is whole; launched plainly grid.sync()
// finds its workspace pointer (%envreg1/%envreg2) null and traps, which
// the fault message explains.  grid_sum_early is the same with a bug: a
// block whose slice is empty returns before the barrier, which then
// waits for it for ever (a deadlock, reported).  jacobi_grid is a
// persistent kernel: `iters` smoothing steps over the whole array, a grid
// barrier after each, which reuses the barrier word every time.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float block_sum(float v, float *s)
{
    cg::thread_block block = cg::this_thread_block();
    s[block.thread_rank()] = v;
    block.sync();
    for (int w = block.size() / 2; w > 0; w /= 2) {
        if (block.thread_rank() < w)
            s[block.thread_rank()] += s[block.thread_rank() + w];
        block.sync();
    }
    return s[0];
}

/* The grid-stride sum of in[] by this block's threads; thread 0 stores it
   as the block's partial. */
__device__ void slice_sum(const float *in, float *partial, int n, float *s)
{
    cg::grid_group grid = cg::this_grid();
    float v = 0.f;
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        v += in[i];
    float b = block_sum(v, s);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = b;
}

extern "C" __global__ void grid_sum(const float *in, float *partial,
                                    float *total, int n)
{
    __shared__ float s[256];
    cg::grid_group grid = cg::this_grid();
    slice_sum(in, partial, n, s);
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.f;
        for (unsigned k = 0; k < gridDim.x; k++)
            t += partial[k];
        *total = t;
    }
}

extern "C" __global__ void grid_sum_early(const float *in, float *partial,
                                          float *total, int n)
{
    __shared__ float s[256];
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x * blockDim.x >= (unsigned)n)
        return; /* the bug: this block never reaches grid.sync() */
    slice_sum(in, partial, n, s);
    grid.sync();
    if (grid.thread_rank() == 0)
        *total = partial[0];
}

extern "C" __global__ void jacobi_grid(float *a, float *b, int n, int iters)
{
    cg::grid_group grid = cg::this_grid();
    for (int t = 0; t < iters; t++) {
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            float l = i > 0 ? a[i - 1] : a[i];
            float r = i < n - 1 ? a[i + 1] : a[i];
            b[i] = 0.25f * l + 0.5f * a[i] + 0.25f * r;
        }
        grid.sync();
        float *x = a;
        a = b;
        b = x;
    }
}
