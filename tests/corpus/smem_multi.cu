// Regression corpus: several static shared arrays and dynamic shared
// memory after them, with zero-initialised accumulators and a loop
// counter: the shapes that met the constant/symbol aliasing bug.
extern "C" __global__ void smem_multi(const int *in, int *out, int n)
{
    __shared__ int a[72];
    __shared__ int b[32];
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    a[t % 72] = 0;
    b[t % 32] = 0;
    dyn[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += dyn[(t + k) % blockDim.x];
    if (t == 0) {
        out[blockIdx.x * 4 + 0] = acc;
        out[blockIdx.x * 4 + 1] = a[5] + b[7];
        out[blockIdx.x * 4 + 2] = (int)((char *)dyn - (char *)a);
        out[blockIdx.x * 4 + 3] = n;
    }
}
