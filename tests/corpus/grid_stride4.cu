// Regression corpus: a grid-stride loop with float4 vector accesses and a
// scalar tail, the shape of bandwidth kernels.
extern "C" __global__ void grid_stride4(const float *a, float *b, int n)
{
    int stride = gridDim.x * blockDim.x;
    int n4 = n / 4;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = reinterpret_cast<const float4 *>(a)[i];
        v.x *= 3.0f;
        v.y *= 3.0f;
        v.z *= 3.0f;
        v.w *= 3.0f;
        reinterpret_cast<float4 *>(b)[i] = v;
    }
    for (int i = n4 * 4 + blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        b[i] = 3.0f * a[i];
}
