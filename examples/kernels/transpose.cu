/*
 * transpose.cu -- out = transpose(in) for a row-major height x width matrix
 * of floats, four ways.  Launch: block (32, 8), grid (width / 32,
 * height / 32) for the tiled kernels and (width / 32, height / 8) for the
 * naive one; width and height multiples of 32.
 *
 * transpose_naive (C++ linkage, so its entry name is mangled): lane x reads
 *   in[y][x] (contiguous) and writes out[x][y], one row of out per lane:
 *   lanes are 4 * height bytes apart, each in its own sector.
 *     ld in   4 sectors/request (ideal 4)
 *     st out  32 sectors/request (ideal 4): 28 excessive
 * transpose_tiled: stage a 32x32 tile in shared memory so both global
 *   accesses are row-wise.  The column read tile[threadIdx.x][...] hits
 *   words 32 apart, all in one bank.
 *     global ld/st 4 sectors; shared st 1 wavefront; shared ld 32
 *     wavefronts (ideal 1): a 32-way conflict
 * transpose_padded: tile[32][33]: column words are 33 apart, 33 mod 32 = 1,
 *   so 32 distinct banks.  shared st 1, shared ld 1 wavefront.
 * transpose_swizzled: tile[32][32] with column c of row r stored at
 *   c ^ r.  Row writes permute the 32 banks; column reads of logical
 *   column c hit banks c ^ r for r = 0..31, again all distinct.
 *   shared st 1, shared ld 1 wavefront, no padding.
 */
#define TILE 32
#define ROWS 8

__global__ void transpose_naive(float *out, const float *in, int width,
                                int height)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * ROWS + threadIdx.y;
    out[x * height + y] = in[y * width + x];
}

extern "C" __global__ void transpose_tiled(float *out, const float *in,
                                           int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(float *out, const float *in,
                                            int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_swizzled(float *out, const float *in,
                                              int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int r = threadIdx.y + j;
        tile[r][threadIdx.x ^ r] = in[(y + j) * width + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int c = threadIdx.y + j;
        out[(y + j) * height + x] = tile[threadIdx.x][c ^ threadIdx.x];
    }
}
