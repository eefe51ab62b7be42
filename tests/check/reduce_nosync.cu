/*
 * reduce_nosync.cu -- a planted bug for `warpmem run --check race`: a
 * block sum whose tree starts reading sdata[tid + s] without a barrier
 * after the store, so warps 0-3 may read slots warps 4-7 have not written
 * yet.  Launch: block 256; out[blockIdx.x] receives the sum of
 * in[blockIdx.x * 256 .. +255] only when the writers happen to run first.
 */
#define NT 256

extern "C" __global__ void reduce_nosync(float *out, const float *in)
{
    __shared__ float sdata[NT];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * NT + tid];
    /* the bug: no __syncthreads() here */
    for (unsigned s = NT / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
