/*
 * stencil.cu -- 5-point stencil on a row-major width x height float grid,
 * out = c0 * centre + c1 * (left + right + up + down), edges clamped.
 * Each 32 x 8 block stages its tile plus a one-cell halo in shared memory
 * (tile[10][34]).  Launch: block (32, 8), grid (width / 32, height / 8);
 * width a multiple of 32, height a multiple of 8.
 *
 * A warp is one tile row (threadIdx.y fixed).
 *   ld in (centre row)     32 contiguous floats: 4 sectors, ideal 4
 *   st tile (centre)       words ly * 34 + 1 .. 32: 1 wavefront
 *   ld/st left/right halo  1 lane: 1 sector (ideal 1), 1 wavefront
 *   ld/st top/bottom halo  one warp, 32 contiguous floats: 4 sectors,
 *                          1 wavefront
 *   ld tile (5 reads)      32 consecutive words each: 1 wavefront
 *   st out                 4 sectors
 */
#define BX 32
#define BY 8

extern "C" __global__ void stencil5_f32(float *out, const float *in,
                                        int width, int height, float c0,
                                        float c1)
{
    __shared__ float tile[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * BX + tx;
    int gy = blockIdx.y * BY + ty;
    int lx = tx + 1, ly = ty + 1;
    tile[ly][lx] = in[gy * width + gx];
    if (tx == 0) {
        int x = gx > 0 ? gx - 1 : 0;
        tile[ly][0] = in[gy * width + x];
    }
    if (tx == BX - 1) {
        int x = gx < width - 1 ? gx + 1 : width - 1;
        tile[ly][BX + 1] = in[gy * width + x];
    }
    if (ty == 0) {
        int y = gy > 0 ? gy - 1 : 0;
        tile[0][lx] = in[y * width + gx];
    }
    if (ty == BY - 1) {
        int y = gy < height - 1 ? gy + 1 : height - 1;
        tile[BY + 1][lx] = in[y * width + gx];
    }
    __syncthreads();
    float centre = tile[ly][lx];
    float sides = tile[ly][lx - 1] + tile[ly][lx + 1] +
                  tile[ly - 1][lx] + tile[ly + 1][lx];
    out[gy * width + gx] = c0 * centre + c1 * sides;
}
