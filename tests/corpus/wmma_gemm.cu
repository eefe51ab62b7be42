// A tensor-core GEMM tile loop through nvcuda::wmma (mma.h), the way
// pre-Hopper CUDA code writes it: a 32x32 block tile of C = A * B
// (A M x K row-major half, B K x N row-major half, C f32 row-major),
// four warps each owning one 16x16 piece; each K step stages a 32x16
// slice of A and a 16x32 slice of B in shared memory (rows padded by
// PAD halves so the fragment loads spread over the banks) and runs
// load_matrix_sync / mma_sync on them; store_matrix_sync writes C.
// A second kernel: an int8 product with the m8n32k16 shape straight
// from global memory, B column-major, s32 accumulators starting from C
// (row-major), the result D stored column-major (leading dimension M).
#include <mma.h>
using namespace nvcuda;

#ifndef PAD
#define PAD 8
#endif

__global__ void wmma_gemm(float *C, const half *A, const half *B, int M,
                          int N, int K)
{
    __shared__ __align__(32) half As[32][16 + PAD];
    __shared__ __align__(32) half Bs[16][32 + PAD];
    int warp = threadIdx.x / 32;
    int wr = warp / 2, wc = warp % 2;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
            int r = i / 16, c = i % 16;
            As[r][c] = A[(row0 + r) * K + k0 + c];
            int br = i / 32, bc = i % 32;
            Bs[br][bc] = B[(k0 + br) * N + col0 + bc];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
        wmma::load_matrix_sync(a, &As[wr * 16][0], 16 + PAD);
        wmma::load_matrix_sync(b, &Bs[0][wc * 16], 32 + PAD);
        wmma::mma_sync(acc, a, b, acc);
        __syncthreads();
    }
    wmma::store_matrix_sync(&C[(row0 + wr * 16) * N + col0 + wc * 16], acc,
                            N, wmma::mem_row_major);
}

__global__ void wmma_i8(int *D, const int *C, const signed char *A,
                        const signed char *B, int M, int N, int K)
{
    int row0 = blockIdx.y * 8, col0 = blockIdx.x * 32;
    wmma::fragment<wmma::accumulator, 8, 32, 16, int> acc;
    wmma::load_matrix_sync(acc, &C[row0 * N + col0], N, wmma::mem_row_major);
    for (int k0 = 0; k0 < K; k0 += 16) {
        wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::col_major> b;
        wmma::load_matrix_sync(a, &A[row0 * K + k0], K);
        wmma::load_matrix_sync(b, &B[col0 * K + k0], K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(&D[col0 * M + row0], acc, M, wmma::mem_col_major);
}
