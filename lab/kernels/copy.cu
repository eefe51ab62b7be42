/*
 * copy.cu -- contiguous copies at every lane width (E0, E4).
 *
 * Plain extern "C" kernels with pointer and integer parameters, so that the
 * same source runs under warpmem-lab on a GPU and under `warpmem run` on the
 * committed PTX (copy.ptx).  Launch: 1-D blocks of any multiple of 32
 * threads (the lab uses 256).  The _ilp4 kernels need n to be a multiple of
 * 4 * blockDim.x: each thread issues its four loads before its four stores,
 * so four independent loads are in flight per thread (the Little's-law
 * remedy of docs/design/lab-method.md).
 */

/* One access per thread, 1 B per lane. */
extern "C" __global__ void lab_copy_w1(const unsigned char *__restrict__ in,
                                       unsigned char *__restrict__ out,
                                       long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* One access per thread, 2 B per lane. */
extern "C" __global__ void lab_copy_w2(const unsigned short *__restrict__ in,
                                       unsigned short *__restrict__ out,
                                       long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* One access per thread, 4 B per lane. */
extern "C" __global__ void lab_copy_w4(const unsigned int *__restrict__ in,
                                       unsigned int *__restrict__ out,
                                       long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* One access per thread, 8 B per lane. */
extern "C" __global__ void
lab_copy_w8(const unsigned long long *__restrict__ in,
            unsigned long long *__restrict__ out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* One access per thread, 16 B per lane (n counts uint4 elements). */
extern "C" __global__ void lab_copy_w16(const uint4 *__restrict__ in,
                                        uint4 *__restrict__ out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* Four loads in flight per thread, 1 B per lane. */
extern "C" __global__ void
lab_copy_w1_ilp4(const unsigned char *__restrict__ in,
                 unsigned char *__restrict__ out, long long n)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    unsigned char v0 = in[b];
    unsigned char v1 = in[b + d];
    unsigned char v2 = in[b + 2 * d];
    unsigned char v3 = in[b + 3 * d];
    out[b] = v0;
    out[b + d] = v1;
    out[b + 2 * d] = v2;
    out[b + 3 * d] = v3;
}

/* Four loads in flight per thread, 2 B per lane. */
extern "C" __global__ void
lab_copy_w2_ilp4(const unsigned short *__restrict__ in,
                 unsigned short *__restrict__ out, long long n)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    unsigned short v0 = in[b];
    unsigned short v1 = in[b + d];
    unsigned short v2 = in[b + 2 * d];
    unsigned short v3 = in[b + 3 * d];
    out[b] = v0;
    out[b + d] = v1;
    out[b + 2 * d] = v2;
    out[b + 3 * d] = v3;
}

/* Four loads in flight per thread, 4 B per lane. */
extern "C" __global__ void lab_copy_w4_ilp4(const unsigned int *__restrict__ in,
                                            unsigned int *__restrict__ out,
                                            long long n)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    unsigned int v0 = in[b];
    unsigned int v1 = in[b + d];
    unsigned int v2 = in[b + 2 * d];
    unsigned int v3 = in[b + 3 * d];
    out[b] = v0;
    out[b + d] = v1;
    out[b + 2 * d] = v2;
    out[b + 3 * d] = v3;
}

/* Four loads in flight per thread, 8 B per lane. */
extern "C" __global__ void
lab_copy_w8_ilp4(const unsigned long long *__restrict__ in,
                 unsigned long long *__restrict__ out, long long n)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    unsigned long long v0 = in[b];
    unsigned long long v1 = in[b + d];
    unsigned long long v2 = in[b + 2 * d];
    unsigned long long v3 = in[b + 3 * d];
    out[b] = v0;
    out[b + d] = v1;
    out[b + 2 * d] = v2;
    out[b + 3 * d] = v3;
}

/* Four loads in flight per thread, 16 B per lane: the lab's own copy (E0). */
extern "C" __global__ void lab_copy_w16_ilp4(const uint4 *__restrict__ in,
                                             uint4 *__restrict__ out,
                                             long long n)
{
    long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    long long d = blockDim.x;
    if (b + 3 * d >= n)
        return;
    uint4 v0 = in[b];
    uint4 v1 = in[b + d];
    uint4 v2 = in[b + 2 * d];
    uint4 v3 = in[b + 3 * d];
    out[b] = v0;
    out[b + d] = v1;
    out[b + 2 * d] = v2;
    out[b + 3 * d] = v3;
}
