/*
 * race_suite.cu -- racy and clean kernels for `warpmem run --check race`
 * in the shapes public race suites test (a GPUVerify-style benign flag
 * write, warp-level write-write races, races between blocks on global
 * memory, a flag protocol with and without __threadfence(), and the
 * last-block reduction of the CUDA Programming Guide's __threadfence()
 * example), a flag between two warps of one block through libcu++'s
 * atomic_ref at device and block scope and through block-scope atomics
 * (and both kinds of block-scope flag between blocks), histograms with
 * block-scope atomics (racy between blocks on one set of bins, clean on
 * rows of their own or in shared memory), work stealing and a spin lock
 * with device- and block-scope atomics, __device__ counters (one reset
 * by the last block), and cooperative kernels whose
 * grid.sync() orders the blocks or comes too late.  docs/check.md
 * tabulates the expected verdicts; the
 * tests run each kernel with the launch its comment gives.
 */
#include <cooperative_groups.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;

/* RACY (block 32): lanes 2i and 2i+1 of one store write different values
   to out[i]: a warp-level write conflict. */
extern "C" __global__ void warp_waw_racy(int *out)
{
    out[threadIdx.x / 2] = threadIdx.x;
}

/* CLEAN (block 32): the same addresses, every lane the same value. */
extern "C" __global__ void warp_waw_same(int *out)
{
    out[threadIdx.x / 2] = 7;
}

/* CLEAN (block 32): any lane that sees a positive input sets the flag,
   all to the same value (a benign write). */
extern "C" __global__ void flag_benign(int *flag, const int *in)
{
    if (in[threadIdx.x] > 0)
        *flag = 1;
}

/* RACY (block 64, shared): lanes of one store write their own index to
   one shared word, then thread 0 copies it out. */
extern "C" __global__ void warp_waw_shared(int *out)
{
    volatile __shared__ int s;
    s = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = s;
}

/* RACY (grid 2, block 32): both blocks write out[0..31]. */
extern "C" __global__ void cta_waw_racy(int *out)
{
    out[threadIdx.x] = blockIdx.x;
}

/* CLEAN (grid 2, block 32): each block writes its own part. */
extern "C" __global__ void cta_disjoint(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

/* RACY (grid 2 or 4, block 32, n 32 x grid): an in-place shift that
   reads the next block's part while that block writes it. */
extern "C" __global__ void cta_shift_racy(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[(i + blockDim.x) % n];
    a[i] = v + 1.0f;
}

/* Block 0 produces data and raises the flag; block 1 waits for the flag
   and copies the data (grid 2, block 32).  fence_w / fence_r: whether the
   writer fences before the flag and the reader after it. */
__device__ void flag_protocol(volatile int *flag, int *data, int *out,
                              bool fence_w, bool fence_r)
{
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) {
            if (fence_w)
                __threadfence();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0)
                ;
            if (fence_r)
                __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

/* CLEAN: __threadfence() on both sides. */
extern "C" __global__ void flag_fence(volatile int *flag, int *data, int *out)
{
    flag_protocol(flag, data, out, true, true);
}

/* RACY: no fence. */
extern "C" __global__ void flag_nofence(volatile int *flag, int *data,
                                        int *out)
{
    flag_protocol(flag, data, out, false, false);
}

/* RACY: the writer fences, the reader does not. */
extern "C" __global__ void flag_writer_fence(volatile int *flag, int *data,
                                             int *out)
{
    flag_protocol(flag, data, out, true, false);
}

/* The sum of this block's 64 elements of in[] (block 64), through s. */
__device__ float block_sum64(const float *in, float *s)
{
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    for (unsigned h = 32; h > 0; h >>= 1) {
        if (t < h)
            s[t] += s[t + h];
        __syncthreads();
    }
    return s[0];
}

/* The last block sums the blocks' partial sums (grid 4, block 64): each
   block's thread 0 stores its partial, fences, and takes a ticket with
   atomicInc; the block that draws the last ticket reads all partials. */
__device__ void last_block(const float *in, float *partial,
                           unsigned *count, float *out, bool fence, float *s,
                           bool &last)
{
    unsigned t = threadIdx.x;
    float b = block_sum64(in, s);
    if (t == 0) {
        partial[blockIdx.x] = b;
        if (fence)
            __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        float sum = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            sum += partial[b];
        *out = sum;
    }
}

/* CLEAN: the Programming Guide's protocol. */
extern "C" __global__ void last_block_fence(const float *in, float *partial,
                                            unsigned *count, float *out)
{
    __shared__ float s[64];
    __shared__ bool last;
    last_block(in, partial, count, out, true, s, last);
}

/* RACY: the partials are not released before the ticket. */
extern "C" __global__ void last_block_nofence(const float *in,
                                              float *partial,
                                              unsigned *count, float *out)
{
    __shared__ float s[64];
    __shared__ bool last;
    last_block(in, partial, count, out, false, s, last);
}

/* CLEAN (grid 4, block 64): a histogram with global atomics from every
   block. */
extern "C" __global__ void hist_atomic(const unsigned *in, unsigned *bins)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&bins[in[i] % 16], 1u);
}

/* A histogram of in[] into 16 bins with block-scope atomics
   (atomicAdd_block: atom.global.cta.add).  own: each block counts into
   its own row of bins (bins[16 * blockIdx.x ...]), as a privatised
   histogram does before a merge; else every block into the same 16. */
__device__ void hist_block_scope(const unsigned *in, unsigned *bins,
                                 bool own)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = own ? blockIdx.x * 16 : 0;
    atomicAdd_block(&bins[row + in[i] % 16], 1u);
}

/* RACY (grid 8, block 64): a block-scope atomic is an atomic only to the
   threads of its own block; two blocks' atomicAdd_block on one bin race
   (the PTX memory model: their scopes do not include each other). */
extern "C" __global__ void hist_block_atomic(const unsigned *in,
                                             unsigned *bins)
{
    hist_block_scope(in, bins, false);
}

/* CLEAN (grid 8, block 64, 128 bins): each block's own row. */
extern "C" __global__ void hist_block_atomic_own(const unsigned *in,
                                                 unsigned *bins)
{
    hist_block_scope(in, bins, true);
}

/* CLEAN (grid 8, block 64): the shared-memory histogram: block-scope
   atomics into the block's shared bins, __syncthreads(), then one
   device-scope atomicAdd per bin into the global total. */
extern "C" __global__ void hist_block_shared(const unsigned *in,
                                             unsigned *bins)
{
    __shared__ unsigned s[16];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16)
        s[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd_block(&s[in[i] % 16], 1u);
    __syncthreads();
    if (threadIdx.x < 16)
        atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
}

/* Warp 0 of the block fills data[0..31] and raises the flag; lane 0 of
   warp 1 waits for it, then warp 1 copies the data (grid 1, block 64).
   order: the flag's store and load (release/acquire, or relaxed); S: the
   atomic's scope (the device, or the block: either orders two warps of
   one block). */
template <cuda::thread_scope S>
__device__ void warp_flag(int *flag, int *data, int *out,
                          cuda::memory_order st, cuda::memory_order ld)
{
    cuda::atomic_ref<int, S> f(*flag);
    unsigned lane = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        data[lane] = lane + 1;
        __syncwarp();
        if (lane == 0)
            f.store(1, st);
    } else if (threadIdx.x < 64) {
        if (lane == 0)
            while (f.load(ld) == 0)
                ;
        __syncwarp();
        out[lane] = data[lane];
    }
}

/* CLEAN: a release store, an acquire load. */
extern "C" __global__ void warp_flag_acqrel(int *flag, int *data, int *out)
{
    warp_flag<cuda::thread_scope_device>(flag, data, out,
                                         cuda::memory_order_release,
                                         cuda::memory_order_acquire);
}

/* RACY: relaxed on both sides, nothing orders the data. */
extern "C" __global__ void warp_flag_relaxed(int *flag, int *data, int *out)
{
    warp_flag<cuda::thread_scope_device>(flag, data, out,
                                         cuda::memory_order_relaxed,
                                         cuda::memory_order_relaxed);
}

/* CLEAN: block-scope release and acquire (st.release.cta,
   ld.acquire.cta) between two warps of the block. */
extern "C" __global__ void warp_flag_block(int *flag, int *data, int *out)
{
    warp_flag<cuda::thread_scope_block>(flag, data, out,
                                        cuda::memory_order_release,
                                        cuda::memory_order_acquire);
}

/* RACY: block-scope and relaxed on both sides. */
extern "C" __global__ void warp_flag_block_relaxed(int *flag, int *data,
                                                   int *out)
{
    warp_flag<cuda::thread_scope_block>(flag, data, out,
                                        cuda::memory_order_relaxed,
                                        cuda::memory_order_relaxed);
}

/* CLEAN (grid 1, block 64): warp 0 fills data, __threadfence_block(),
   then a relaxed block-scope store of the flag (a release by its fence);
   warp 1 polls with acquire loads. */
extern "C" __global__ void warp_flag_block_fence(int *flag, int *data,
                                                 int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
    unsigned lane = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        data[lane] = lane + 1;
        __threadfence_block();
        __syncwarp();
        if (lane == 0)
            f.store(1, cuda::memory_order_relaxed);
    } else if (threadIdx.x < 64) {
        if (lane == 0)
            while (f.load(cuda::memory_order_acquire) == 0)
                ;
        __syncwarp();
        out[lane] = data[lane];
    }
}

/* RACY (grid 2, block 32): block 0 fills data and raises the flag with a
   block-scope release, block 1 waits with a block-scope acquire and
   copies the data: a block's scope does not reach the other block (the
   flag's accesses race too). */
extern "C" __global__ void block_flag_between_blocks(int *flag, int *data,
                                                     int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
    unsigned lane = threadIdx.x % 32;
    if (blockIdx.x == 0) {
        data[lane] = lane + 1;
        __syncwarp();
        if (lane == 0)
            f.store(1, cuda::memory_order_release);
    } else {
        if (lane == 0)
            while (f.load(cuda::memory_order_acquire) == 0)
                ;
        __syncwarp();
        out[lane] = data[lane];
    }
}

/* The same hand-over with block-scope atomics, as a spin lock's code
   writes it: the producer (warp 0, or with blocks block 0) fills data,
   __threadfence_block() when fence, and sets the flag with
   atomicExch_block; the consumer's lane 0 polls it with
   atomicAdd_block(flag, 0), then its warp fences and copies the data.
   (grid 1, block 64; blocks: grid 2, block 32.) */
__device__ void rmw_flag(int *flag, int *data, int *out, bool fence,
                         bool blocks)
{
    unsigned lane = threadIdx.x % 32;
    bool producer = blocks ? blockIdx.x == 0 : threadIdx.x < 32;
    bool consumer = blocks ? blockIdx.x == 1 : threadIdx.x >= 32;
    if (producer) {
        data[lane] = lane + 1;
        if (fence)
            __threadfence_block();
        __syncwarp();
        if (lane == 0)
            atomicExch_block(flag, 1);
    } else if (consumer && threadIdx.x < 64) {
        if (lane == 0)
            while (atomicAdd_block(flag, 0) == 0)
                ;
        __syncwarp();
        __threadfence_block();
        out[lane] = data[lane];
    }
}

/* CLEAN: between two warps of one block, the producer fenced. */
extern "C" __global__ void warp_flag_block_rmw(int *flag, int *data, int *out)
{
    rmw_flag(flag, data, out, true, false);
}

/* RACY: the producer does not fence, so its atomic releases nothing. */
extern "C" __global__ void warp_flag_block_rmw_nofence(int *flag, int *data,
                                                       int *out)
{
    rmw_flag(flag, data, out, false, false);
}

/* RACY: the fenced protocol between two blocks, whose block scope does
   not reach each other (the two atomics race too). */
extern "C" __global__ void block_rmw_flag_between_blocks(int *flag,
                                                         int *data, int *out)
{
    rmw_flag(flag, data, out, true, true);
}

/* Work stealing (a graph kernel's shape): block b's queue holds items
   b * q .. b * q + q - 1 of done[] (q = n / gridDim.x), head[b] counting
   those taken.  Each block takes chunks of 32 of its own queue with
   atomicAdd, then of the next block's while a device-scope
   atomicAdd(&head[b], 0) finds some left, taking them with
   atomicAdd_block when block_steal.  (grid 2, block 32, n 256.) */
__device__ void steal(int *done, int n, int *head, bool block_steal)
{
    __shared__ int base;
    int q = n / gridDim.x;
    for (int k = 0; k < 2; k++) {
        int b = (blockIdx.x + k) % gridDim.x;
        for (;;) {
            if (threadIdx.x == 0) {
                if (k == 0)
                    base = atomicAdd(&head[b], 32);
                else if (atomicAdd(&head[b], 0) >= q)
                    base = q;
                else
                    base = block_steal ? atomicAdd_block(&head[b], 32)
                                       : atomicAdd(&head[b], 32);
            }
            __syncthreads();
            int i = base + (int)threadIdx.x;
            bool more = base < q;
            if (more && i < q)
                done[b * q + i] += 1;
            __syncthreads();
            if (!more)
                break;
        }
    }
}

/* CLEAN: every take a device-scope atomic. */
extern "C" __global__ void steal_device(int *done, int n, int *head)
{
    steal(done, n, head, false);
}

/* RACY: block 0 steals block 1's items with block-scope atomics, then
   polls with a device-scope one; block 1's atomicAdd on its own head
   races with the steals (the poll after them does not order them). */
extern "C" __global__ void steal_block(int *done, int n, int *head)
{
    steal(done, n, head, true);
}

/* A spin lock on one global word around a shared total: thread 0 of each
   block takes it with atomicCAS (or atomicCAS_block when block_lock),
   fences, adds its block's number, fences and releases it with a
   device-scope atomicExch.  (grid 4, block 32.) */
__device__ void locked_add(int *lock, int *sum, bool block_lock)
{
    if (threadIdx.x != 0)
        return;
    for (;;) {
        int was = block_lock ? atomicCAS_block(lock, 0, 1)
                             : atomicCAS(lock, 0, 1);
        if (was == 0) {
            __threadfence();
            *sum += blockIdx.x + 1;
            __threadfence();
            atomicExch(lock, 0);
            return;
        }
    }
}

/* CLEAN: a device-scope take acquires the last holder's release. */
extern "C" __global__ void lock_device(int *lock, int *sum)
{
    locked_add(lock, sum, false);
}

/* RACY: a block-scope take is no atomic to the other blocks' takes and
   acquires nothing from them: the lock word and the total race. */
extern "C" __global__ void lock_block_between_blocks(int *lock, int *sum)
{
    locked_add(lock, sum, true);
}

/* A __device__ counter of the blocks that ran, kept by thread 0 of each
   block with a plain += (RACY between blocks) or with atomicAdd (CLEAN);
   out[block] gets the block's number.  (grid 4, block 32.) */
__device__ int blocks_seen;

extern "C" __global__ void device_var_plain(int *out)
{
    if (threadIdx.x == 0) {
        blocks_seen += 1;
        out[blockIdx.x] = blockIdx.x;
    }
}

extern "C" __global__ void device_var_atomic(int *out)
{
    if (threadIdx.x == 0) {
        atomicAdd(&blocks_seen, 1);
        out[blockIdx.x] = blockIdx.x;
    }
}

/* A __device__ ticket counter as the Programming Guide's last-block sum
   keeps it: thread 0 of each block takes a ticket with atomicInc; the
   block that takes the last one resets the counter with a plain store
   for the next launch, by thread 0 itself (reset_last) or by thread 1
   after __syncthreads() (reset_last_other): both come after the ticket
   that saw every other block's (CLEAN).  Block 0 resetting it at the
   start, while other blocks take tickets, is a race (reset_first).
   tickets[block] gets the block's ticket.  (grid 4, block 64.) */
__device__ unsigned ticket_count;

__device__ void take_ticket(unsigned *tickets, int reset)
{
    __shared__ bool last;
    if (reset == 0 && blockIdx.x == 0 && threadIdx.x == 0)
        ticket_count = 0;
    if (threadIdx.x == 0) {
        unsigned t = atomicInc(&ticket_count, gridDim.x);
        tickets[blockIdx.x] = t;
        last = t == gridDim.x - 1;
    }
    __syncthreads();
    if (last && reset > 0 && threadIdx.x == (unsigned)reset - 1)
        ticket_count = 0;
}

extern "C" __global__ void reset_first(unsigned *tickets)
{
    take_ticket(tickets, 0);
}

extern "C" __global__ void reset_last(unsigned *tickets)
{
    take_ticket(tickets, 1);
}

extern "C" __global__ void reset_last_other(unsigned *tickets)
{
    take_ticket(tickets, 2);
}

/* Each block stores its partial; thread 0 of the grid adds the partials
   into *out, after grid.sync() when late is false, else before it. */
__device__ void grid_partials(const float *in, float *partial, float *out,
                              bool late)
{
    __shared__ float s[64];
    cg::grid_group grid = cg::this_grid();
    float b = block_sum64(in, s);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = b;
    if (!late)
        grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float sum = 0.0f;
        for (unsigned k = 0; k < gridDim.x; k++)
            sum += partial[k];
        *out = sum;
    }
    if (late)
        grid.sync();
}

/* CLEAN (cooperative, grid 4, block 64): each block's partial,
   grid.sync(), the total. */
extern "C" __global__ void grid_sync_sum(const float *in, float *partial,
                                         float *out)
{
    grid_partials(in, partial, out, false);
}

/* RACY (cooperative, grid 4, block 64): the total is read before the
   grid barrier that was meant to order it after the partials. */
extern "C" __global__ void grid_sync_late(const float *in, float *partial,
                                          float *out)
{
    grid_partials(in, partial, out, true);
}
