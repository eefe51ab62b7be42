// Regression corpus: carry arithmetic.  `wide` adds, subtracts and
// multiplies unsigned __int128 values (nvcc: add.cc / addc, sub.cc / subc
// on .u64 pairs, mul.hi and mad.lo); `mul64x64` multiplies two 64-bit
// numbers as 32-bit limbs with the inline-asm carry chain multi-precision
// code is written in (mad.lo.cc, madc.hi.cc, addc), as big-number and
// elliptic-curve kernels do.
extern "C" __global__ void wide(unsigned long long *out,
                                const unsigned long long *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned __int128 x = (unsigned __int128)in[4 * i] << 64 | in[4 * i + 1];
    unsigned __int128 y = (unsigned __int128)in[4 * i + 2] << 64 | in[4 * i + 3];
    unsigned __int128 r[3] = {x + y, x - y, x * y};
    for (int k = 0; k < 3; k++) {
        out[6 * i + 2 * k] = (unsigned long long)(r[k] >> 64);
        out[6 * i + 2 * k + 1] = (unsigned long long)r[k];
    }
}

// p[0..3] = a[0..1] * b[0..1], 32-bit limbs, least significant first
__device__ void mul2x2(unsigned *p, const unsigned *a, const unsigned *b)
{
    unsigned p0, p1, p2, p3;
    asm("mul.lo.u32 %0, %4, %6;\n\t"
        "mul.hi.u32 %1, %4, %6;\n\t"
        "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.u32 %2, %5, %6, 0;\n\t"
        "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, 0, 0;\n\t"
        "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
        "madc.hi.u32 %3, %5, %7, %3;"
        : "=&r"(p0), "=&r"(p1), "=&r"(p2), "=&r"(p3)
        : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
    p[0] = p0;
    p[1] = p1;
    p[2] = p2;
    p[3] = p3;
}

extern "C" __global__ void mul64x64(unsigned *out, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mul2x2(out + 4 * i, in + 4 * i, in + 4 * i + 2);
}
