/*
 * misaligned_copy.cu -- a contiguous copy whose read is shifted by offset
 * elements (the Best Practices Guide's offsetCopy).
 *
 * The 32 lanes still read 128 contiguous bytes, but starting 4 * offset
 * bytes past a 32-byte boundary, so the run straddles one more sector than
 * needed: 5 sectors instead of 4 for any offset not a multiple of 8, and
 * two 128-byte lines instead of one.
 *
 * Expected per request (global, 4-byte lanes, 32 active, ideal 4):
 *   ld in[i + offset]   offset 0: 4 sectors; offset 1..7 (mod 8): 5 sectors
 *   st out[i]           4 sectors
 */
extern "C" __global__ void misaligned_copy_f32(float *out, const float *in,
                                               int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + offset];
}
