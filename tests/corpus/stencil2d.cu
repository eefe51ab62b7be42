// Regression corpus: a 5-point 2-D stencil, one thread per interior
// point, row-major.
extern "C" __global__ void stencil2d(const float *a, float *b, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
        return;
    b[y * w + x] = 0.25f * (a[y * w + x - 1] + a[y * w + x + 1] +
                            a[(y - 1) * w + x] + a[(y + 1) * w + x]);
}
