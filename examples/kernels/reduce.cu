/*
 * reduce.cu -- per-block sum: shared-memory tree down to 64 values, then
 * one warp finishes with __shfl_down_sync.  Launch: block 256 (REDUCE_BLOCK),
 * any grid; out[blockIdx.x] receives the block's partial sum of
 * in[blockIdx.x * 256 .. +255] (elements past n count as 0).
 *
 * Expected per request:
 *   ld in[i]                 global 4 sectors (ideal 4)
 *   st sdata[tid]            shared 1 wavefront: 32 consecutive words
 *   tree ld/st sdata[...]    shared 1 wavefront: only whole warps are active
 *                            (s >= 64), lanes read consecutive words
 *   final warp ld sdata[..]  shared 1 wavefront each
 *   st out[blockIdx.x]       global 1 sector, 1 lane (ideal 1)
 * The shuffles move registers, not memory: no request.
 */
#define REDUCE_BLOCK 256

extern "C" __global__ void reduce_sum_f32(float *out, const float *in, int n)
{
    __shared__ float sdata[REDUCE_BLOCK];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * REDUCE_BLOCK + tid;
    float v = 0.0f;
    if (i < n)
        v = in[i];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = REDUCE_BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        v = sdata[tid] + sdata[tid + 32];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0)
            out[blockIdx.x] = v;
    }
}
