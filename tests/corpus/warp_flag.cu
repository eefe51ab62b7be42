// Regression corpus: warps of one block hand data over through flags that
// the waiting warp polls, as warp-specialised kernels did before mbarriers.
// The waiting warp is warp 0, which runs first in the in-order schedule: the
// producers only get to run when its poll ends its turn (a .volatile or
// .relaxed load that reads what it read before yields the warp).
#include <cuda/atomic>

/* Block 128, 32 outputs a block: warps 1..3 each fill their row of a shared
   tile with in * 2 + 1, fence (PF), and set their volatile flag; warp 0
   polls the three flags in turn, fences (CF), then each lane sums its
   column of the tile.  Without either fence the volatile flag alone
   orders nothing: the tile's writes and warp 0's reads of it race, and
   without the producers' fence the flag's write releases nothing either,
   so it races with the poll too. */
template <bool PF, bool CF>
__device__ void hand_over(const float *in, float *out)
{
    __shared__ float tile[3][32];
    __shared__ volatile int ready[3];
    unsigned warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    if (threadIdx.x < 3)
        ready[threadIdx.x] = 0;
    __syncthreads();
    if (warp > 0) {
        unsigned row = warp - 1;
        tile[row][lane] = in[blockIdx.x * 96 + row * 32 + lane] * 2.0f + 1.0f;
        if (PF)
            __threadfence_block();
        __syncwarp();
        if (lane == 0)
            ready[row] = 1;
        return;
    }
    while (ready[0] == 0 || ready[1] == 0 || ready[2] == 0)
        ;
    if (CF)
        __threadfence_block();
    out[blockIdx.x * 32 + lane] = tile[0][lane] + tile[1][lane] + tile[2][lane];
}

extern "C" __global__ void flag_shared(const float *in, float *out)
{
    hand_over<true, true>(in, out);
}

extern "C" __global__ void flag_shared_no_release(const float *in, float *out)
{
    hand_over<false, true>(in, out);
}

extern "C" __global__ void flag_shared_no_acquire(const float *in, float *out)
{
    hand_over<true, false>(in, out);
}

/* Block 64: warp 1 writes 32 ints of data and raises a global flag with a
   block-scope release; lane 0 of warp 0 polls it with relaxed loads and a
   block-scope acquire fence after the loop, then warp 0 copies the data
   (each block its own flag and 32 words). */
extern "C" __global__ void flag_relaxed(int *flag, int *data, int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_block> f(flag[blockIdx.x]);
    unsigned lane = threadIdx.x % warpSize;
    int *mine = data + blockIdx.x * 32;
    if (threadIdx.x >= 32) {
        mine[lane] = (int)(blockIdx.x * 100 + lane);
        __syncwarp();
        if (lane == 0)
            f.store(1, cuda::memory_order_release);
        return;
    }
    if (lane == 0) {
        while (f.load(cuda::memory_order_relaxed) == 0)
            ;
        cuda::atomic_thread_fence(cuda::memory_order_acquire,
                                  cuda::thread_scope_block);
    }
    __syncwarp();
    out[blockIdx.x * 32 + lane] = mine[lane];
}

/* Block 64: warp 1 writes 32 ints of data, fences and raises its block's
   flag with atomicExch; lane 0 of warp 0 polls the flag with an atomic
   whose result the loop reads (atomicAdd(flag, 0), or with CAS atomicCAS
   taking the flag from 1 to 2, as a lock would), fences, then warp 0
   copies the data. */
template <bool CAS>
__device__ void atomic_hand_over(int *flag, int *data, int *out)
{
    unsigned lane = threadIdx.x % warpSize;
    int *mine = data + blockIdx.x * 32;
    if (threadIdx.x >= 32) {
        mine[lane] = (int)(blockIdx.x * 100 + lane);
        __threadfence();
        __syncwarp();
        if (lane == 0)
            atomicExch(&flag[blockIdx.x], 1);
        return;
    }
    if (lane == 0) {
        if (CAS)
            while (atomicCAS(&flag[blockIdx.x], 1, 2) != 1)
                ;
        else
            while (atomicAdd(&flag[blockIdx.x], 0) == 0)
                ;
        __threadfence();
    }
    __syncwarp();
    out[blockIdx.x * 32 + lane] = mine[lane];
}

extern "C" __global__ void flag_atomic_add(int *flag, int *data, int *out)
{
    atomic_hand_over<false>(flag, data, out);
}

extern "C" __global__ void flag_atomic_cas(int *flag, int *data, int *out)
{
    atomic_hand_over<true>(flag, data, out);
}
