// shapes_copy.cu -- copies in the launch shapes the memory-time validation
// of docs/hierarchy.md uses: V floats per thread moved as one aligned
// vector (V = 1, 2, 4, 8, 16; 256 threads, one vector per thread), a
// grid-stride float4 copy with U independent vectors per iteration
// (U = 4, 1024 threads), and one double per thread (1024 threads).
#include <cstddef>

template <int V>
struct alignas(V * 4 > 16 ? 16 : V * 4) vec {
    float v[V];
};

template <int V>
__device__ void copy_vec(const float *in, float *out, size_t n)
{
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * V;
    if (i + V <= n)
        *reinterpret_cast<vec<V> *>(out + i) =
            *reinterpret_cast<const vec<V> *>(in + i);
}

extern "C" __global__ void cs_vec1(const float *in, float *out, size_t n)
{
    copy_vec<1>(in, out, n);
}
extern "C" __global__ void cs_vec2(const float *in, float *out, size_t n)
{
    copy_vec<2>(in, out, n);
}
extern "C" __global__ void cs_vec4(const float *in, float *out, size_t n)
{
    copy_vec<4>(in, out, n);
}
extern "C" __global__ void cs_vec8(const float *in, float *out, size_t n)
{
    copy_vec<8>(in, out, n);
}
extern "C" __global__ void cs_vec16(const float *in, float *out, size_t n)
{
    copy_vec<16>(in, out, n);
}

// n4 float4 elements, a multiple of 4 x the grid's threads.
extern "C" __global__ void cs_stride_u4(const float4 *in, float4 *out,
                                        size_t n4)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t all = (size_t)gridDim.x * blockDim.x;
    for (size_t i = t; i + 3 * all < n4; i += 4 * all) {
        float4 a = in[i], b = in[i + all], c = in[i + 2 * all],
               d = in[i + 3 * all];
        out[i] = a;
        out[i + all] = b;
        out[i + 2 * all] = c;
        out[i + 3 * all] = d;
    }
}

extern "C" __global__ void cs_double(const double *in, double *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
