// Sub-byte and single-bit tensor-core products through nvcuda::wmma's
// experimental precisions (sm_75+ PTX, here sm_80 / sm_90), straight from
// global memory as quantized and binary networks use them:
// - wmma_int4<P>: D = A * B + C with 4-bit A (M x K, row-major, two
//   elements a byte, the low nibble first) and B (stored column-major:
//   column n's K elements together), s32 C and D row-major, for P = s4
//   and u4, K in steps of 32;
// - wmma_bin: for 1-bit rows of A (M x K) and columns of B (N x K), the
//   Hamming distances (bmma_sync with XOR and POPC) into Dx and the
//   overlaps (AND and POPC) into Da, K in steps of 128, Dx stored
//   column-major.
#include <mma.h>
using namespace nvcuda;
using namespace nvcuda::wmma::experimental;

template <typename P>
__global__ void wmma_int4(int *D, const int *C, const unsigned char *A,
                          const unsigned char *B, int M, int N, int K)
{
    int row0 = blockIdx.y * 8, col0 = blockIdx.x * 8;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
    wmma::load_matrix_sync(acc, &C[row0 * N + col0], N, wmma::mem_row_major);
    for (int k0 = 0; k0 < K; k0 += 32) {
        wmma::fragment<wmma::matrix_a, 8, 8, 32, P, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, P, wmma::col_major> b;
        wmma::load_matrix_sync(a, A + (row0 * K + k0) / 2, K);
        wmma::load_matrix_sync(b, B + (col0 * K + k0) / 2, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(&D[row0 * N + col0], acc, N, wmma::mem_row_major);
}

template __global__ void wmma_int4<precision::s4>(int *, const int *,
                                                  const unsigned char *,
                                                  const unsigned char *, int,
                                                  int, int);
template __global__ void wmma_int4<precision::u4>(int *, const int *,
                                                  const unsigned char *,
                                                  const unsigned char *, int,
                                                  int, int);

__global__ void wmma_bin(int *Dx, int *Da, const unsigned *A,
                         const unsigned *B, int M, int N, int K)
{
    int row0 = blockIdx.y * 8, col0 = blockIdx.x * 8;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> ham, both;
    wmma::fill_fragment(ham, 0);
    wmma::fill_fragment(both, 0);
    for (int k0 = 0; k0 < K; k0 += 128) {
        wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> b;
        wmma::load_matrix_sync(a, A + (row0 * K + k0) / 32, K);
        wmma::load_matrix_sync(b, B + (col0 * K + k0) / 32, K);
        wmma::bmma_sync(ham, a, b, ham, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
        wmma::bmma_sync(both, a, b, both, bmmaBitOpAND, bmmaAccumulateOpPOPC);
    }
    wmma::store_matrix_sync(&Dx[col0 * M + row0], ham, M, wmma::mem_col_major);
    wmma::store_matrix_sync(&Da[row0 * N + col0], both, N, wmma::mem_row_major);
}
