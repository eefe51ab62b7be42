// Regression corpus: a block reduction helper with its own __shared__
// scratch, called from kernels (the shape of CUB's BlockReduce and of
// hand-written reductions).  At -G the helpers stay calls and their
// scratch arrays are .shared variables that only the callees name: the
// CTA's layout must hold them beside the kernel's own tile.
__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// The sum of v over the block, in thread 0 (blockDim.x a multiple of 32).
__device__ float block_sum(float v)
{
    __shared__ float buf[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        buf[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? buf[lane] : 0.0f;
    return warp == 0 ? warp_sum(v) : v;
}

// The same without the barrier: warp 0 reads the partials while the
// other warps may not have stored theirs yet (a race).
__device__ float block_sum_nosync(float v)
{
    __shared__ float part[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        part[warp] = v;
    v = threadIdx.x < blockDim.x / 32 ? part[lane] : 0.0f;
    return warp == 0 ? warp_sum(v) : v;
}

extern "C" __global__ void block_sum_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = block_sum(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

// The kernel's own tile (at most 256 threads) and two calls of the
// helper: the sum of the tile read backwards and the sum of its squares.
extern "C" __global__ void block_sum_tile(const float *in, float *out, int n)
{
    __shared__ float tile[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    float s = block_sum(tile[blockDim.x - 1 - t]);
    __syncthreads(); // the second call reuses buf
    float q = block_sum(tile[t] * tile[t]);
    if (t == 0) {
        out[2 * blockIdx.x] = s;
        out[2 * blockIdx.x + 1] = q;
    }
}

extern "C" __global__ void block_sum_racy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = block_sum_nosync(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}
