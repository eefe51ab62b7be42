// gen-ptx: sm_90a
// Regression corpus: a Hopper GEMM in the shape CUTLASS-style inline-asm
// kernels take.  C (M x N, f32) = A (M x K) B^T with A and B (N x K) f16
// row-major, so both operands are K-major.  One warpgroup (128 threads)
// computes a 64 x 64 tile of C; per 64-wide K step it copies the A and B
// tiles from global memory with 16-byte loads into shared memory in the
// 128-byte swizzle layout (row r of 128 B at r * 128, 16-byte chunk j at
// chunk j ^ (r % 8)), makes them visible to the async proxy, and runs four
// wgmma.mma_async m64n64k16 whose descriptors step 32 bytes along K.
#include <cstdint>

constexpr int BM = 64, BN = 64, BK = 64;

// The 128 B swizzle: 16 B chunk j of row r of a 128 B-wide tile.
__device__ __forceinline__ int swz128(int r, int j)
{
    return r * 128 + ((j ^ (r & 7)) << 4);
}

// A K-major descriptor: start (16 B units), LBO unused (1), SBO 1024 B
// (8 rows of 128 B), swizzle mode 1 (128 B) in bits 63-62.
__device__ __forceinline__ uint64_t desc128(const void *smem)
{
    uint64_t a = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
    return ((a & 0x3ffff) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_64x64x16(float (&d)[32], uint64_t da,
                                               uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, "
        "%15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, "
        "%28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]),
          "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
          "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
          "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
          "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db));
}

// Copy a 64 x 64 f16 tile (row stride ld halves) into the swizzled tile.
__device__ __forceinline__ void load_tile(uint8_t *tile, const uint16_t *g,
                                          int ld)
{
    for (int c = threadIdx.x; c < 64 * 8; c += 128) {
        int r = c / 8, j = c % 8;
        uint4 v = *reinterpret_cast<const uint4 *>(g + r * ld + j * 8);
        *reinterpret_cast<uint4 *>(tile + swz128(r, j)) = v;
    }
}

extern "C" __global__ void __launch_bounds__(128)
wgmma_gemm(const uint16_t *A, const uint16_t *B, float *C, int M, int N,
           int K)
{
    __shared__ alignas(1024) uint8_t sa[BM * BK * 2], sb[BN * BK * 2];
    float d[32];
    for (int i = 0; i < 32; i++)
        d[i] = 0.0f;
    const uint16_t *ga = A + blockIdx.y * BM * K;
    const uint16_t *gb = B + blockIdx.x * BN * K;
    for (int k0 = 0; k0 < K; k0 += BK) {
        load_tile(sa, ga + k0, K);
        load_tile(sb, gb + k0, K);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        for (int k = 0; k < BK / 16; k++)
            wgmma_64x64x16(d, desc128(sa + 32 * k), desc128(sb + 32 * k));
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();
    }
    // D fragment: warp w rows 16w + lane/4 (+8), columns 2 (lane % 4) + 8 i
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    for (int i = 0; i < 32; i++) {
        int row = blockIdx.y * BM + 16 * w + l / 4 + 8 * ((i / 2) % 2);
        int col = blockIdx.x * BN + 2 * (l % 4) + i % 2 + 8 * (i / 4);
        if (row < M && col < N)
            C[row * N + col] = d[i];
    }
}
