// Regression corpus: a 1-D convolution whose taps live in __constant__
// memory (set with cudaMemcpyToSymbol on a GPU, --global here) and a
// __device__ counter of clipped outputs read back after the run.
#define R 2
extern "C" {
__constant__ float taps[2 * R + 1];
__device__ unsigned clipped;
}

extern "C" __global__ void const_conv(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = -R; k <= R; k++) {
        int j = min(max(i + k, 0), n - 1);
        s += taps[k + R] * in[j];
    }
    if (s > 100.0f) {
        s = 100.0f;
        atomicAdd(&clipped, 1u);
    }
    out[i] = s;
}
