/*
 * smem.cu -- shared-memory bank-conflict probes (E6).
 *
 * Lane l of every warp reads the 32-bit word (l % a) * b + (l / a) * c of
 * a shared array, shifted by the same amount for all lanes on each load (a
 * uniform shift keeps the bank pattern).  With a = 32, b = 1, c = 0 the
 * lanes read consecutive words (conflict-free); a = n, b = 32, c = 1 gives
 * an n-way conflict (kzwrime/gpu_shm_microbench's ((tid % n) * 32) +
 * tid / n); b = c = 0 is a broadcast; a = 4, b = 0, c = 1 a multicast (4
 * lanes per word).  The 64- and 128-bit probes need the word index to be a
 * multiple of 2 and 4.  Launch: 1-D blocks of 256; iters a multiple of
 * UNROLL.
 *
 * The probe must be limited by the shared-memory pipe, not by instruction
 * issue: a conflict-free LDS is one wavefront, and an SM retires one
 * wavefront per cycle while its four schedulers issue four instructions.
 * So each trip of the loop is UNROLL loads at constant offsets from one
 * base register (the shift is the load's immediate: no index arithmetic),
 * summed by IADD3 (three operands: two loaded words per add) into four
 * accumulators, fully unrolled.  That is about 1.5 instructions per 32-bit
 * load, 2 per 64-bit and 3 per 128-bit one, plus 3 per trip for the loop
 * (docs/lab.md shows the SASS).  The empty asm with a "memory" clobber at
 * the end of a trip stops the compiler from keeping the loaded words in
 * registers across trips; it emits no instruction.
 *
 * Lane i sums, over j = 0 .. iters-1, the words w + vec * (j % UNROLL) + q
 * (q < vec, w its first word); the words hold k & 15, and every thread
 * writes its sum to out[global thread id]: the host checks all of them.
 */

#define WORDS 2048
#define UNROLL 32

/* Fill the shared array; every probe starts with it. */
__device__ static void fill(unsigned *sh)
{
    for (int k = threadIdx.x; k < WORDS; k += blockDim.x)
        sh[k] = (unsigned)(k & 15);
    __syncthreads();
}

/* 32-bit loads (LDS.32). */
extern "C" __global__ void lab_smem_probe32(unsigned *out, int a, int b,
                                            int c, int iters)
{
    __shared__ unsigned sh[WORDS];
    fill(sh);
    int lane = threadIdx.x & 31;
    const unsigned *p = sh + (lane % a) * b + (lane / a) * c;
    unsigned acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
    for (int j = 0; j < iters; j += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k += 8) {
            acc0 += p[k] + p[k + 1];
            acc1 += p[k + 2] + p[k + 3];
            acc2 += p[k + 4] + p[k + 5];
            acc3 += p[k + 6] + p[k + 7];
        }
        __syncwarp();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = (acc0 + acc1) + (acc2 + acc3);
}

/* 64-bit loads (LDS.64); load k is uint2 element k past the lane's first. */
extern "C" __global__ void lab_smem_probe64(unsigned *out, int a, int b,
                                            int c, int iters)
{
    __shared__ uint2 sh2[WORDS / 2];
    fill((unsigned *)sh2);
    int lane = threadIdx.x & 31;
    const uint2 *p = sh2 + ((lane % a) * b + (lane / a) * c) / 2;
    unsigned acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
    for (int j = 0; j < iters; j += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k += 4) {
            uint2 v0 = p[k], v1 = p[k + 1], v2 = p[k + 2], v3 = p[k + 3];
            acc0 += v0.x + v0.y;
            acc1 += v1.x + v1.y;
            acc2 += v2.x + v2.y;
            acc3 += v3.x + v3.y;
        }
        __syncwarp();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = (acc0 + acc1) + (acc2 + acc3);
}

/* 128-bit loads (LDS.128); load k is uint4 element k past the lane's
 * first. */
extern "C" __global__ void lab_smem_probe128(unsigned *out, int a, int b,
                                             int c, int iters)
{
    __shared__ uint4 sh4[WORDS / 4];
    fill((unsigned *)sh4);
    int lane = threadIdx.x & 31;
    const uint4 *p = sh4 + ((lane % a) * b + (lane / a) * c) / 4;
    unsigned acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
    for (int j = 0; j < iters; j += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k += 2) {
            uint4 v0 = p[k], v1 = p[k + 1];
            acc0 += v0.x + v0.y;
            acc1 += v0.z + v0.w;
            acc2 += v1.x + v1.y;
            acc3 += v1.z + v1.w;
        }
        __syncwarp();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = (acc0 + acc1) + (acc2 + acc3);
}
