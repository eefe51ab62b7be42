/*
 * strided_copy.cu -- gather with a constant stride: the coalescing tax.
 *
 * Lane i reads in[i * stride] and writes out[i] contiguously.  Consecutive
 * lanes' loads are 4 * stride bytes apart, so a warp touches
 * min(32, ceil(32 * 4 * stride / 32)) sectors when stride <= 8 and one
 * sector per lane beyond: stride 2 -> 8 sectors, stride >= 8 -> 32.
 *
 * Expected per request (global, 4-byte lanes, 32 active, ideal 4):
 *   ld in[i * stride]   stride 1: 4, stride 2: 8, stride 4: 16, >= 8: 32
 *   st out[i]           4 sectors
 */
extern "C" __global__ void strided_copy_f32(float *out, const float *in,
                                            int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(long long)i * stride];
}
