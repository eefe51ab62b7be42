// Regression corpus: CUDA's per-halfword SIMD intrinsics, which nvcc
// compiles on sm_90 to add/sub/min/max .u16x2 and .s16x2 (and on sm_80 to
// the byte and shift arithmetic it used before).  `simd16` applies each to
// packed pairs of 16-bit pixels, as image kernels do with two channels a
// word.
extern "C" __global__ void simd16(unsigned *out, const unsigned *a,
                                  const unsigned *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    out[4 * i] = __vadd2(x, y);
    out[4 * i + 1] = __vsub2(x, y);
    out[4 * i + 2] = __vmaxu2(x, y);
    out[4 * i + 3] = __vmins2(x, y);
}
