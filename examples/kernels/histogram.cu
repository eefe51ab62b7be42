/*
 * histogram.cu -- 256-bin byte histogram: each block counts its part of the
 * input in shared memory with atomicAdd, then adds its bins to the global
 * histogram.  Launch: block 256 (HIST_BINS), any grid; grid-stride loop.
 *
 * Expected per request:
 *   st hist[tid] = 0          shared 1 wavefront (32 consecutive words)
 *   ld data[i]                global 1-byte lanes, 32 contiguous bytes:
 *                             1 sector, ideal 1
 *   atom hist[data[i]]        shared, data dependent: 1 wavefront when the
 *                             32 bytes are distinct consecutive values
 *                             (input i mod 256), up to 32 when many lanes
 *                             hit different words of one bank
 *   ld hist[tid]              shared 1 wavefront
 *   atom bins[tid]            global 32 consecutive u32: 4 sectors, ideal 4
 * nvcc emits red.shared / red.global for an atomicAdd whose result is
 * unused; both are atomics for the statistics.
 */
#define HIST_BINS 256

extern "C" __global__ void histogram_u8(unsigned int *bins,
                                        const unsigned char *data, int n)
{
    __shared__ unsigned int hist[HIST_BINS];
    unsigned tid = threadIdx.x;
    hist[tid] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + tid; i < n;
         i += gridDim.x * blockDim.x)
        atomicAdd(&hist[data[i]], 1u);
    __syncthreads();
    unsigned count = hist[tid];
    if (count != 0)
        atomicAdd(&bins[tid], count);
}
