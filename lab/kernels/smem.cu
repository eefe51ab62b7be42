/*
 * smem.cu -- shared-memory bank-conflict probes (E6).
 *
 * Lane l of every warp reads the 32-bit word (l % a) * b + (l / a) * c of
 * a shared array, shifted by the same amount for all lanes on each of
 * iters iterations (a uniform shift keeps the bank pattern).  With
 * a = 32, b = 1, c = 0 the lanes read consecutive words (conflict-free);
 * a = n, b = 32, c = 1 gives an n-way conflict (kzwrime/gpu_shm_microbench's
 * ((tid % n) * 32) + tid / n); b = c = 0 is a broadcast; a = 4, b = 0,
 * c = 1 a multicast (4 lanes per word).  The 64- and 128-bit probes need
 * the word index to be a multiple of 2 and 4.  Launch: 1-D blocks of 256.
 * Every thread writes its sum to out[global thread id]; the words hold
 * k & 15, so the sums are exact in fp32 and the host checks all of them.
 */

#define WORDS 2048

/* Fill the shared array; every probe starts with it. */
__device__ static void fill(float *sh)
{
    for (int k = threadIdx.x; k < WORDS; k += blockDim.x)
        sh[k] = (float)(k & 15);
    __syncthreads();
}

/* 32-bit loads (LDS.32). */
extern "C" __global__ void lab_smem_probe32(float *out, int a, int b, int c,
                                            int iters)
{
    __shared__ float sh[WORDS];
    fill(sh);
    int lane = threadIdx.x & 31;
    int w = (lane % a) * b + (lane / a) * c;
    float acc = 0.0f;
#pragma unroll 4
    for (int j = 0; j < iters; j++)
        acc += sh[w + (j & 63)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* 64-bit loads (LDS.64); the shift is j & 63 float2 elements. */
extern "C" __global__ void lab_smem_probe64(float *out, int a, int b, int c,
                                            int iters)
{
    __shared__ float2 sh2[WORDS / 2];
    fill((float *)sh2);
    int lane = threadIdx.x & 31;
    int w = (lane % a) * b + (lane / a) * c;
    float acc = 0.0f;
#pragma unroll 4
    for (int j = 0; j < iters; j++) {
        float2 v = sh2[w / 2 + (j & 63)];
        acc += v.x + v.y;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* 128-bit loads (LDS.128); the shift is j & 63 float4 elements. */
extern "C" __global__ void lab_smem_probe128(float *out, int a, int b, int c,
                                             int iters)
{
    __shared__ float4 sh4[WORDS / 4];
    fill((float *)sh4);
    int lane = threadIdx.x & 31;
    int w = (lane % a) * b + (lane / a) * c;
    float acc = 0.0f;
#pragma unroll 4
    for (int j = 0; j < iters; j++) {
        float4 v = sh4[w / 4 + (j & 63)];
        acc += (v.x + v.y) + (v.z + v.w);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
