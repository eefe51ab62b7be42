/*
 * stencil_halo.cu -- a planted bug for `warpmem run --check init`: a 1-D
 * three-point stencil stages its block and a one-cell halo in shared
 * memory but fills only the left halo cell, so the block's last thread
 * reads t[NT + 1], which no thread wrote.  Launch: block 128, grid n / 128.
 */
#define NT 128

extern "C" __global__ void stencil_halo(float *out, const float *in, int n)
{
    __shared__ float t[NT + 2];
    int g = blockIdx.x * NT + threadIdx.x;
    int l = threadIdx.x + 1;
    t[l] = in[g];
    if (threadIdx.x == 0)
        t[0] = g > 0 ? in[g - 1] : 0.0f;
    /* the bug: t[NT + 1] = in[g + NT] (clamped) is missing */
    __syncthreads();
    out[g] = 0.25f * t[l - 1] + 0.5f * t[l] + 0.25f * t[l + 1];
}
