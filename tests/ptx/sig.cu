// Kernels for the signature tests of `warpmem run --list`: templates,
// a namespace, scalars of several types and a dynamic shared-memory array.
#include <cstdint>

template <typename T>
__global__ void copy_kernel(T *out, const T *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
template __global__ void copy_kernel<float>(float *, const float *, int);
template __global__ void copy_kernel<int>(int *, const int *, int);

namespace ops {
__global__ void scale(float *x, float a, unsigned n, long long stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i * stride] *= a;
}
} // namespace ops

__global__ void smem_sum(const float *in, float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0;
        for (unsigned k = 0; k < blockDim.x; k++)
            s += buf[k];
        out[blockIdx.x] = s;
    }
}

__global__ void fill_u8(uint8_t *out, uint8_t v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = v;
}

__global__ void inplace_double(double *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0 * x[i];
}
