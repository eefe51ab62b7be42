/*
 * vec_copy.cu -- contiguous copy with 16-byte float4 accesses.
 *
 * Each lane moves one float4 (16 B), so a full warp moves 512 B = 16
 * sectors = 4 lines in ONE request (Volta and newer never split a 128-bit
 * warp access into several requests).  Sectors per request are 4x those
 * of the 4-byte copy, but so is the ideal: the access is fully efficient
 * and needs a quarter of the instructions.
 *
 * Expected per request (global, 16-byte lanes, 32 active):
 *   ld in[i]   16 sectors, ideal 16, 4 lines
 *   st out[i]  16 sectors, ideal 16, 4 lines
 */
extern "C" __global__ void copy_f32x4(float4 *out, const float4 *in, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        out[i] = in[i];
}
