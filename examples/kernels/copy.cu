/*
 * copy.cu -- contiguous copy, the coalesced baseline.
 *
 * Lane i of a warp reads and writes element i of a 32-element run of 4-byte
 * floats.  With a 256-byte aligned buffer and full warps each access is one
 * aligned 128-byte line: 32 lanes x 4 B = 128 B = 4 sectors.
 *
 * Expected per request (global, 4-byte lanes, 32 active):
 *   ld in[i]   4 sectors, ideal 4, 1 line
 *   st out[i]  4 sectors, ideal 4, 1 line
 */
extern "C" __global__ void copy_f32(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
