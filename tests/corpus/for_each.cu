// Regression corpus: a templated for_each kernel taking its functor by
// value: the struct (two pointers and an int) is one .param .align 8
// .b8 p[24] parameter, as thrust-style and lambda kernels pass it.
struct scale_into {
    const float *x;
    float *y;
    int k;
    __device__ void operator()(int i) const { y[i] = x[i] * (float)k; }
};

template <typename F>
__global__ void for_each(F f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        f(i);
}

template __global__ void for_each<scale_into>(scale_into, int);
