// shapes_transpose.cu -- transposes of an n x n fp32 matrix in the launch
// shapes the memory-time validation of docs/hierarchy.md uses: one element
// per thread in 32 x 32 blocks (direct, through a 32 x 32 tile, through a
// padded 32 x 33 tile) and padded tiles whose 32 x (32 / R) blocks move R
// rows per thread (R = 2, 4, 8).  n is a multiple of 32.
#define T 32

extern "C" __global__ void ts_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

extern "C" __global__ void ts_tile(const float *in, float *out, int n)
{
    __shared__ float s[T][T];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    s[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
    __syncthreads();
    int ox = blockIdx.y * T + threadIdx.x, oy = blockIdx.x * T + threadIdx.y;
    out[(size_t)oy * n + ox] = s[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void ts_pad(const float *in, float *out, int n)
{
    __shared__ float s[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    s[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
    __syncthreads();
    int ox = blockIdx.y * T + threadIdx.x, oy = blockIdx.x * T + threadIdx.y;
    out[(size_t)oy * n + ox] = s[threadIdx.x][threadIdx.y];
}

// R rows per thread: blockDim = (32, 32 / R).
template <int R>
__device__ void coarse(const float *in, float *out, int n)
{
    __shared__ float s[T][T + 1];
    const int step = T / R;
    int x = blockIdx.x * T + threadIdx.x;
#pragma unroll
    for (int j = 0; j < T; j += step)
        s[threadIdx.y + j][threadIdx.x] =
            in[(size_t)(blockIdx.y * T + threadIdx.y + j) * n + x];
    __syncthreads();
    int ox = blockIdx.y * T + threadIdx.x;
#pragma unroll
    for (int j = 0; j < T; j += step)
        out[(size_t)(blockIdx.x * T + threadIdx.y + j) * n + ox] =
            s[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void ts_pad_r2(const float *in, float *out, int n)
{
    coarse<2>(in, out, n);
}

extern "C" __global__ void ts_pad_r4(const float *in, float *out, int n)
{
    coarse<4>(in, out, n);
}

extern "C" __global__ void ts_pad_r8(const float *in, float *out, int n)
{
    coarse<8>(in, out, n);
}
