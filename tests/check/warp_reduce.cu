/*
 * warp_reduce.cu -- a planted bug for `warpmem run --check race`: the last
 * warp of a block sum reduces through shared memory "warp-synchronously",
 * with volatile but without __syncwarp() between the steps.  Since sm_70
 * the lanes of a warp are not in lockstep, so a lane may read a slot
 * before the lane that adds into it has written.  Launch: block 64.
 */
#define NT 64

extern "C" __global__ void warp_reduce(float *out, const float *in)
{
    __shared__ float s[NT];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * NT + tid];
    __syncthreads();
    if (tid < 32) {
        volatile float *v = s;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
