/*
 * gemm_war.cu -- a planted bug for `warpmem run --check race`: a tiled
 * SGEMM (C = A * B, n x n, row-major) whose k loop has no barrier after
 * the tile is used, so a warp that starts the next iteration overwrites
 * Bs rows the other warps are still reading (write-after-read).
 * Launch: block (16, 16), grid (n / 16, n / 16), n a multiple of 16.
 */
#define T 16

extern "C" __global__ void gemm_war(float *C, const float *A, const float *B,
                                    int n)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[ty][tx] = A[row * n + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            acc += As[ty][k] * Bs[k][tx];
        /* the bug: no __syncthreads() before the tiles are reloaded */
    }
    C[row * n + col] = acc;
}
