/*
 * transpose.cu -- the lesson's copy and the transposes (E1, E5).
 *
 * Square n x n row-major fp32 matrices, n a multiple of 32.  Grid
 * (n/32, n/32); block (32, 8) -- each thread moves 4 elements, rows
 * threadIdx.y + 0, 8, 16, 24 of its 32 x 32 tile (the CUDA sample's
 * TILE_DIM 32 / BLOCK_ROWS 8 shape) -- except lab_transpose_vec4, whose
 * block is (8, 8).  out[r][c] = in[c][r] for every transpose.
 */

#define TILE 32
#define ROWS 8

/* Contiguous 2-D copy: the bandwidth every transpose is judged against. */
extern "C" __global__ void lab_copy_2d(const float *__restrict__ in,
                                       float *__restrict__ out, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(long long)(y + j) * n + x] = in[(long long)(y + j) * n + x];
}

/* Naive, coalesced read: lanes read along a row and write down a column,
 * n * 4 bytes apart (32 sectors per store request). */
extern "C" __global__ void lab_transpose_naive_row(const float *__restrict__ in,
                                                   float *__restrict__ out,
                                                   int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(long long)x * n + (y + j)] = in[(long long)(y + j) * n + x];
}

/* Naive, coalesced write: lanes read down a column of in, i.e. the copy of
 * the lesson's transposed view x.t() into a contiguous output. */
extern "C" __global__ void lab_transpose_naive_col(const float *__restrict__ in,
                                                   float *__restrict__ out,
                                                   int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(long long)(y + j) * n + x] = in[(long long)x * n + (y + j)];
}

/* Shared tile without padding: the column read tile[threadIdx.x][..] puts
 * all 32 lanes in one bank (32-way conflict, 32 wavefronts per request). */
extern "C" __global__ void lab_transpose_tile(const float *__restrict__ in,
                                              float *__restrict__ out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(long long)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(long long)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* Padded tile [32][33]: a column's words are 33 apart, so the 32 lanes of
 * the column read fall in 32 different banks (1 wavefront). */
extern "C" __global__ void lab_transpose_pad(const float *__restrict__ in,
                                             float *__restrict__ out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(long long)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(long long)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* XOR-swizzled tile: element (r, c) is stored at tile[r][c ^ r] (CuTe's
 * Swizzle<5,0,5>), so rows and columns both spread over 32 banks with no
 * extra shared memory. */
extern "C" __global__ void lab_transpose_swz(const float *__restrict__ in,
                                             float *__restrict__ out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int r = threadIdx.y + j;
        tile[r][threadIdx.x ^ r] = in[(long long)(y + j) * n + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int c = threadIdx.y + j;
        out[(long long)(y + j) * n + x] = tile[threadIdx.x][c ^ threadIdx.x];
    }
}

/*
 * Vectorised and coarsened: block (8, 8), each thread loads four float4
 * (rows ty, ty+8, ty+16, ty+24 of the tile, columns 4tx..4tx+3) before it
 * stores, then writes four float4 of the transposed tile.  With the same
 * swizzle tile[r][c ^ r] a warp (tx 0..7, four consecutive ty) hits 32
 * distinct banks both when it scatters a float4 into a row and when it
 * gathers four column elements: bank = (4tx ^ r) | (q ^ (r & 3)), q = 0..3.
 */
extern "C" __global__ void lab_transpose_vec4(const float *__restrict__ in,
                                              float *__restrict__ out, int n)
{
    __shared__ float tile[TILE][TILE];
    const float4 *in4 = (const float4 *)in;
    float4 *out4 = (float4 *)out;
    int n4 = n / 4;
    int c = 4 * threadIdx.x;
    float4 v[4];
    for (int k = 0; k < 4; k++) {
        int r = threadIdx.y + 8 * k;
        v[k] = in4[(long long)(blockIdx.y * TILE + r) * n4 + blockIdx.x * 8 +
                   threadIdx.x];
    }
    for (int k = 0; k < 4; k++) {
        int r = threadIdx.y + 8 * k;
        tile[r][(c + 0) ^ r] = v[k].x;
        tile[r][(c + 1) ^ r] = v[k].y;
        tile[r][(c + 2) ^ r] = v[k].z;
        tile[r][(c + 3) ^ r] = v[k].w;
    }
    __syncthreads();
    for (int k = 0; k < 4; k++) {
        int r = threadIdx.y + 8 * k;
        float4 o;
        o.x = tile[c + 0][r ^ (c + 0)];
        o.y = tile[c + 1][r ^ (c + 1)];
        o.z = tile[c + 2][r ^ (c + 2)];
        o.w = tile[c + 3][r ^ (c + 3)];
        out4[(long long)(blockIdx.x * TILE + r) * n4 + blockIdx.y * 8 +
             threadIdx.x] = o;
    }
}
