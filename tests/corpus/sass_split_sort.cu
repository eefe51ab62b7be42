// Shapes in which ptxas splits, predicates or keeps the PTX's hoist of
// memory instructions, and a sorting network over a shared tile:
//   point_weight   float4 records of which two fields are used: ptxas
//                  reads only those (split into LDG at +0 and +12)
//   pair_re        a shared tile of complex pairs (float4), real parts
//                  only: LDS at +0 and +8
//   rec_bytes      16-byte records through a char pointer at a byte
//                  offset: 16 byte loads in PTX and SASS alike
//   pair_odd       a float pair at an odd float offset: two scalar loads
//   bias_rows      a lane-dependent guarded load in a loop: predicated LDG
//   scale_rows     a loop-invariant load: hoisted out of the loop
//   bitonic_tile   bitonic sort of 256 floats in shared memory, unrolled
// tests/test_sass.c checks the SASS map of each line against the
// disassembly's hand counts.
#include <string.h>

// out[i] = x * w of point i (a point is {x, y, z, weight}).
extern "C" __global__ void point_weight(const float4 *pts, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = pts[i];
        out[i] = p.x * p.w;
    }
}

// out[i] = re(c0) + re(c1) of the pair a[127 - i] staged in shared memory.
extern "C" __global__ void pair_re(const float4 *a, float *out)
{
    __shared__ float4 tile[128];
    int t = threadIdx.x;
    tile[t] = a[blockIdx.x * 128 + t];
    __syncthreads();
    float4 c = tile[127 - t];
    out[blockIdx.x * 128 + t] = c.x + c.z;
}

// out[i] = record i of buf + off (16 bytes, any alignment).
extern "C" __global__ void rec_bytes(const char *buf, float4 *out, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v;
    memcpy(&v, buf + off + 16 * i, sizeof v);
    out[i] = v;
}

// out[i] = a[2i + 1] + a[2i + 2].
extern "C" __global__ void pair_odd(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float *p = a + 2 * i + 1;
        out[i] = p[0] + p[1];
    }
}

// Rows of blockDim.x values; the first 16 columns get a bias.
extern "C" __global__ void bias_rows(const float *__restrict__ a,
                                     const float *__restrict__ bias,
                                     float *__restrict__ out, int n)
{
    int t = threadIdx.x;
    for (int r = 0; r < n; r++) {
        float v = a[r * blockDim.x + t];
        if (t < 16)
            v += bias[t];
        out[r * blockDim.x + t] = v;
    }
}

// Rows of blockDim.x values, block b's scaled by scale[b].
extern "C" __global__ void scale_rows(const float *__restrict__ a,
                                      const float *__restrict__ scale,
                                      float *__restrict__ out, int n)
{
    int t = threadIdx.x;
    for (int r = 0; r < n; r++)
        out[r * blockDim.x + t] = a[r * blockDim.x + t] * scale[blockIdx.x];
}

// Sorts each 256-float slice of data ascending, 128 threads per block:
// thread t compare-exchanges one pair per step.
#define SORT_N 256
extern "C" __global__ void bitonic_tile(float *data)
{
    __shared__ float s[SORT_N];
    int t = threadIdx.x;
    float *g = data + blockIdx.x * SORT_N;
    s[t] = g[t];
    s[t + SORT_N / 2] = g[t + SORT_N / 2];
    __syncthreads();
#pragma unroll
    for (int k = 2; k <= SORT_N; k <<= 1) {
#pragma unroll
        for (int j = k >> 1; j > 0; j >>= 1) {
            int i = 2 * t - (t & (j - 1)); // the pair (i, i + j)
            float x = s[i], y = s[i + j];
            bool up = (i & k) == 0;
            if ((x > y) == up) {
                s[i] = y;
                s[i + j] = x;
            }
            __syncthreads();
        }
    }
    g[t] = s[t];
    g[t + SORT_N / 2] = s[t + SORT_N / 2];
}
