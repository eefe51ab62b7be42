/*
 * stride.cu -- strided and misaligned 4-byte accesses (E2, E3).
 *
 * 1-D blocks (the lab uses 256 threads); n is the number of elements each
 * kernel touches and a multiple of 4 * blockDim.x.  Thread t of block b
 * handles elements i = b*4*blockDim + k*blockDim + t, k = 0..3, issuing its
 * four loads before anything else (four loads in flight per thread, so the
 * stride, not latency, limits the bandwidth).
 */

/* Read-only: sum in[i * stride] over the n elements, one partial sum per
 * block: the warps' sums meet in shared memory and thread 0 writes the
 * block's total to partial[blockIdx.x].  No two blocks write the same
 * address, so nothing serialises: one atomic per warp into a single counter
 * (2 M of them at 1 GiB, all on one L2 slice) would have made the stride-1
 * baseline atomic-bound.  The host adds the partial sums afterwards and
 * checks every one of them against its own copy of the input.  Needs
 * blockDim.x a multiple of 32 and at most 1024. */
extern "C" __global__ void lab_read_stride(const unsigned int *__restrict__ in,
                                           unsigned long long *partial,
                                           long long n, int stride)
{
    __shared__ unsigned long long warp_sum[32];
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    unsigned long long acc = 0;
    if (b + 3 * d < n) {
        unsigned int v0 = in[b * stride];
        unsigned int v1 = in[(b + d) * stride];
        unsigned int v2 = in[(b + 2 * d) * stride];
        unsigned int v3 = in[(b + 3 * d) * stride];
        acc = (unsigned long long)v0 + v1 + v2 + v3;
    }
    for (int m = 16; m > 0; m /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, m);
    if ((threadIdx.x & 31) == 0)
        warp_sum[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long total = 0;
        for (unsigned w = 0; w < blockDim.x / 32; w++)
            total += warp_sum[w];
        partial[blockIdx.x] = total;
    }
}

/* Copy: out[i * stride] = in[i * stride]; the elements between stay as they
 * were (the check finds them still poisoned). */
extern "C" __global__ void lab_copy_stride(const unsigned int *__restrict__ in,
                                           unsigned int *__restrict__ out,
                                           long long n, int stride)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    unsigned int v0 = in[b * stride];
    unsigned int v1 = in[(b + d) * stride];
    unsigned int v2 = in[(b + 2 * d) * stride];
    unsigned int v3 = in[(b + 3 * d) * stride];
    out[b * stride] = v0;
    out[(b + d) * stride] = v1;
    out[(b + 2 * d) * stride] = v2;
    out[(b + 3 * d) * stride] = v3;
}

/* Misaligned copy (the Best Practices Guide's offsetCopy): elements
 * offset .. offset + n - 1 of in go to the same places of out. */
extern "C" __global__ void lab_copy_offset(const unsigned int *__restrict__ in,
                                           unsigned int *__restrict__ out,
                                           long long n, int offset)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    b += offset;
    unsigned int v0 = in[b];
    unsigned int v1 = in[b + d];
    unsigned int v2 = in[b + 2 * d];
    unsigned int v3 = in[b + 3 * d];
    out[b] = v0;
    out[b + d] = v1;
    out[b + 2 * d] = v2;
    out[b + 3 * d] = v3;
}
