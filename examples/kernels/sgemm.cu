/*
 * sgemm.cu -- C = A * B for row-major float matrices (A: M x K, B: K x N,
 * C: M x N) with 16 x 16 shared-memory tiles.  Launch: block (16, 16),
 * grid (N / 16, M / 16); M, N, K multiples of 16.
 *
 * A warp is two tile rows (threadIdx.y = 2w, 2w + 1) of 16 lanes each.
 *   ld A[row][t*16 + tx]   two 64-byte half-rows, each 64-byte aligned:
 *                          4 sectors (ideal 4)
 *   ld B[t*16 + ty][col]   same shape: 4 sectors
 *   st As/Bs[ty][tx]       32 consecutive words: 1 wavefront
 *   ld As[ty][k]           two words, 16 apart (banks b and b + 16), each
 *                          broadcast to 16 lanes: 1 wavefront
 *   ld Bs[k][tx]           16 consecutive words, read by both halves:
 *                          1 wavefront
 *   st C[row][col]         4 sectors
 * (nvcc may fuse the As reads of consecutive k into one 16-byte load;
 * tests/unit/kernel_cases.c states the numbers for the PTX actually emitted.)
 */
#define T 16

extern "C" __global__ void sgemm_tiled(float *C, const float *A,
                                       const float *B, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += T) {
        As[ty][tx] = A[row * K + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
