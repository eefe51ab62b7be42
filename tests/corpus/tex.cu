// Texture and surface objects in the shapes image code uses them: a 1-D
// fetch from linear memory, a bilinear resample, an RGBA8 texture read as
// normalized floats, a 2x2 gather, and a surface stencil with a clamped
// halo read.
#include <cuda_runtime.h>

// every second element of a 1-D float texture
__global__ void fetch_strided(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, 2 * i);
}

// resample a w x h image at (x * sx, y * sy) with the texture's filter
__global__ void resample(cudaTextureObject_t t, float *out, int w, int h,
                         float sx, float sy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>(t, x * sx, y * sy);
}

// RGBA8 read as floats in [0, 1]: its luminance
__global__ void luminance(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float4 c = tex2D<float4>(t, x + 0.5f, y + 0.5f);
        out[y * w + x] = 0.25f * c.x + 0.5f * c.y + 0.25f * c.z + c.w;
    }
}

// the 2x2 footprint bilinear filtering at (x + 1, y + 1) reads, green
__global__ void gather_green(cudaTextureObject_t t, float4 *out, int w,
                             int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 1);
}

// dst(x, y) = k * (src(x, y) + src(x + 1, y)), the right neighbour
// clamped at the edge
__global__ void surf_stencil(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                             int w, int h, float k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float a = surf2Dread<float>(src, x * 4, y);
        float b = surf2Dread<float>(src, (x + 1) * 4, y, cudaBoundaryModeClamp);
        surf2Dwrite(k * (a + b), dst, x * 4, y);
    }
}
