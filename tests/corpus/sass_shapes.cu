// Shapes in which ptxas changes the memory instructions of the PTX: an
// unrolled dot product over the rows of a shared tile (rows of 36 floats,
// merged into LDS.128), a row reduction over a shared tile read as pairs,
// and a guarded store (predicated in SASS).  tests/test_sass.c checks the
// SASS map of each line against the disassembly's hand counts.

#define ROW 36 // 32 values and 4 floats of padding per row

// out[r] = dot(tile row r, w): one row per thread, 64 rows per block.
extern "C" __global__ void row_dot36(const float *a, const float *w,
                                     float *out)
{
    __shared__ float tile[64][ROW];
    __shared__ float ws[32];
    int t = threadIdx.x;
    int base = blockIdx.x * 64 * 32;
    for (int i = 0; i < 32; i++)
        tile[t][i] = a[base + t * 32 + i];
    if (t < 32)
        ws[t] = w[t];
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 32; k++)
        acc += tile[t][k] * ws[k];
    out[blockIdx.x * 64 + t] = acc;
}

// out[r] = sum of row r of a 32 x 64 tile (8 rows per warp, 4 lanes
// per row, each lane summing 16 values read two at a time).
extern "C" __global__ void row_sum(const float *a, float *out, int n)
{
    __shared__ float tile[32][66];
    int t = threadIdx.x;
    for (int i = t; i < 32 * 64; i += blockDim.x)
        tile[i / 64][i % 64] = a[blockIdx.x * 32 * 64 + i];
    __syncthreads();
    int row = t / 4, part = t % 4;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; j += 2)
        s += tile[row][part * 16 + j] + tile[row][part * 16 + j + 1];
    s += __shfl_down_sync(0xffffffffu, s, 2);
    s += __shfl_down_sync(0xffffffffu, s, 1);
    if (part == 0 && blockIdx.x * 32 + row < n)
        out[blockIdx.x * 32 + row] = s;
}
