/*
 * stride.cu -- strided and misaligned 4-byte accesses (E2, E3).
 *
 * 1-D blocks (the lab uses 256 threads); n is the number of elements each
 * kernel touches and a multiple of 4 * blockDim.x.  Thread t of block b
 * handles elements i = b*4*blockDim + k*blockDim + t, k = 0..3, issuing its
 * four loads before anything else (four loads in flight per thread, so the
 * stride, not latency, limits the bandwidth).
 */

/* Read-only: sum in[i * stride] over the n elements into *sum (one atomic
 * per warp, negligible traffic).  The sum is the check: the host computes
 * the same sum on its copy of the input. */
extern "C" __global__ void lab_read_stride(const unsigned int *__restrict__ in,
                                           unsigned long long *sum,
                                           long long n, int stride)
{
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
        atomicAdd(sum, acc);
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
