// Small kernels exercising the PTX interpreter (compiled by gen.sh).
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

extern "C" __global__ void copy(float *__restrict__ out,
                                const float *__restrict__ in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

extern "C" __global__ void strided(float *out, const float *in, int n,
                                   int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(long)i * stride];
}

extern "C" __global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int PAD>
__device__ void transpose_tile(float *out, const float *in, int n)
{
    __shared__ float tile[32][32 + PAD];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_pad(float *out, const float *in, int n)
{
    transpose_tile<1>(out, in, n);
}

extern "C" __global__ void transpose_nopad(float *out, const float *in, int n)
{
    transpose_tile<0>(out, in, n);
}

extern "C" __global__ void copy4(float4 *out, const float4 *in, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        out[i] = in[i];
}

extern "C" __global__ void reduce(float *sum, const float *in, int n)
{
    __shared__ float part[32];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        v += in[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x >> 5) ? part[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffff, v, o);
        if (lane == 0)
            atomicAdd(sum, v);
    }
}

#define TS 16
extern "C" __global__ void sgemm(int n, float alpha, const float *A,
                                 const float *B, float beta, float *C)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = alpha * acc + beta * C[row * n + col];
}

extern "C" __global__ void kv_write(__half *cache, const __half *k,
                                    const long *slots, int heads, int dim)
{
    int tok = blockIdx.x;
    long slot = slots[tok];
    int chunks = heads * dim / 8;
    for (int c = threadIdx.x; c < chunks; c += blockDim.x) {
        const uint4 *src = (const uint4 *)(k + (long)tok * heads * dim) + c;
        uint4 *dst = (uint4 *)(cache + slot * heads * dim) + c;
        *dst = *src;
    }
}

extern "C" __global__ void histogram(unsigned *hist, const unsigned char *in,
                                     int n)
{
    __shared__ unsigned h[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        h[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        atomicAdd(&h[in[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&hist[i], h[i]);
}

extern "C" __global__ void stencil(float *out, const float *in, int w, int h)
{
    __shared__ float t[18][18];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    auto at = [&](int xx, int yy) {
        xx = min(max(xx, 0), w - 1);
        yy = min(max(yy, 0), h - 1);
        return in[yy * w + xx];
    };
    t[ty][tx] = at(x, y);
    if (threadIdx.x == 0) t[ty][0] = at(x - 1, y);
    if (threadIdx.x == 15) t[ty][17] = at(x + 1, y);
    if (threadIdx.y == 0) t[0][tx] = at(x, y - 1);
    if (threadIdx.y == 15) t[17][tx] = at(x, y + 1);
    __syncthreads();
    if (x < w && y < h)
        out[y * w + x] = 0.2f * (t[ty][tx] + t[ty][tx - 1] + t[ty][tx + 1] +
                                 t[ty - 1][tx] + t[ty + 1][tx]);
}

extern "C" __global__ void localarr(int *out, const int *idx)
{
    int a[16];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 16; i++)
        a[i] = t * i;
    out[t] = a[idx[t] & 15];
}

extern "C" __global__ void dynsmem(float *out, const float *in, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

// Generic pointer: p points to shared or global memory by lane parity.
extern "C" __global__ void generic(float *out, const float *in)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t] * 2.0f;
    __syncthreads();
    const float *p = (t & 1) ? s : in;
    out[t] = p[t ^ 1];
}

extern "C" __global__ void halfmath(__half *out, const float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half h = __float2half(a[i]);
        __half2 p = __halves2half2(h, h);
        p = __hmul2(p, p);
        out[i] = __hadd(__low2half(p), __high2half(p));
    }
}

extern "C" __global__ void vote_ballot(unsigned *out, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned b = __ballot_sync(0xffffffff, in[t] > 0);
    int any = __any_sync(0xffffffff, in[t] > 5);
    int all = __all_sync(0xffffffff, in[t] >= 0);
    out[t] = b + (unsigned)any * 7 + (unsigned)all * 11 + __popc(b) +
             __clz(in[t]) + (unsigned)__ffs(in[t]) + __brev(t);
}

extern "C" __global__ void intmath(long long *out, const int *a, const int *b)
{
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    long long r = (long long)(x / (y | 1)) + (x % (y | 1)) +
                  ((unsigned)x >> (y & 31)) + (x >> (y & 7)) +
                  (long long)x * y + __mulhi(x, y) + __umulhi(x, y) +
                  min(x, y) + max(x, y) + abs(x) + (x ^ y) + (~x & y) +
                  __byte_perm(x, y, 0x5140) + __funnelshift_l(x, y, t);
    out[t] = r;
}

extern "C" __global__ void cpasync_copy(float *out, const float *in)
{
    __shared__ __align__(16) float s[256 * 4];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t * 4], &in[blockIdx.x * 1024 + t * 4], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 1024 + t] = s[t * 4 % 1024] + s[(t * 4 + 1) % 1024];
}

