// Regression corpus: real calls.  __noinline__ device functions stay
// calls even at -O3: a helper with two arguments and a return value, a
// recursive function, a call through a function pointer chosen per block,
// and a helper that stores to global memory itself (its line is the
// callee's, its call site the kernel's).
__device__ __noinline__ float axpb(float a, float x, float b)
{
    return a * x + b;
}

__device__ __noinline__ unsigned tri(unsigned n)
{
    return n == 0 ? 0 : n + tri(n - 1);
}

__device__ __noinline__ int twice(int v) { return 2 * v; }
__device__ __noinline__ int square(int v) { return v * v; }

typedef int (*op_fn)(int);

__device__ __noinline__ void put(int *p, int v)
{
    *p = v;
}

extern "C" __global__ void calls(const float *x, float *y, unsigned *t,
                                 int *z, unsigned depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = axpb(2.0f, x[i], 1.0f);
    t[i] = tri(threadIdx.x % 8 + depth);
    op_fn f = blockIdx.x == 0 ? twice : square;
    put(&z[i], f(i));
}
