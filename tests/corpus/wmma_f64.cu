// A double-precision GEMM tile loop through nvcuda::wmma's m8n8k4 f64
// fragments (sm_80+), the way an FP64 tensor-core kernel stages its
// operands: a 32x32 block tile of C = A * B (A M x K, B K x N, C M x N,
// all row-major double), four warps each owning a 16x16 piece as 2 x 2
// accumulators of 8x8; each K step stages a 32x8 slice of A and an 8x32
// slice of B in shared memory (rows padded by PAD doubles) and runs two
// k4 steps of load_matrix_sync / mma_sync on them; store_matrix_sync
// writes C.
#include <mma.h>
using namespace nvcuda;

#ifndef PAD
#define PAD 4
#endif

__global__ void wmma_dgemm(double *C, const double *A, const double *B,
                           int M, int N, int K)
{
    __shared__ __align__(32) double As[32][8 + PAD];
    __shared__ __align__(32) double Bs[8][32 + PAD];
    int warp = threadIdx.x / 32;
    int wr = warp / 2, wc = warp % 2;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0);
    for (int k0 = 0; k0 < K; k0 += 8) {
        for (int i = threadIdx.x; i < 32 * 8; i += blockDim.x) {
            int r = i / 8, c = i % 8;
            As[r][c] = A[(row0 + r) * K + k0 + c];
            int br = i / 32, bc = i % 32;
            Bs[br][bc] = B[(k0 + br) * N + col0 + bc];
        }
        __syncthreads();
        for (int kk = 0; kk < 8; kk += 4) {
            wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b[2];
            for (int i = 0; i < 2; i++)
                wmma::load_matrix_sync(a[i], &As[wr * 16 + i * 8][kk], 8 + PAD);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(b[j], &Bs[kk][wc * 16 + j * 8], 32 + PAD);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(
                &C[(row0 + wr * 16 + i * 8) * N + col0 + wc * 16 + j * 8],
                acc[i][j], N, wmma::mem_row_major);
}
