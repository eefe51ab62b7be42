// Regression corpus: a 64-bin histogram privatised in shared memory with
// shared atomics, merged with global atomics.
extern "C" __global__ void hist_shared(const unsigned char *in, unsigned *bins,
                                       int n)
{
    __shared__ unsigned h[64];
    for (int b = threadIdx.x; b < 64; b += blockDim.x)
        h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] % 64], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 64; b += blockDim.x)
        atomicAdd(&bins[b], h[b]);
}
