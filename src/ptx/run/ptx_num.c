/*
 * ptx_num.c -- f16 and bf16 conversions by bit manipulation (IEEE 754
 * binary16; bfloat16 = the top half of binary32), with the rounding modes
 * cvt takes.  Portable C: no _Float16 needed.
 */
#include "ptx_int.h"

#include <math.h>

float wmi_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)
        return wmi_f32(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        /* subnormal: man * 2^-24 */
        float v = (float)man * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return wmi_f32(sign | ((exp + 112) << 23) | (man << 13));
}

/* Round a non-negative magnitude x (already scaled to integer units) to an
   integer by mode; ties to even for RN. */
static uint32_t round_int(double x, int neg, wmi_rnd r)
{
    double f = floor(x);
    double frac = x - f;
    uint32_t v = (uint32_t)f;
    switch (r) {
    case RND_RZ: case RND_RZI: return v;
    case RND_RM: case RND_RMI: return neg && frac > 0 ? v + 1 : v;
    case RND_RP: case RND_RPI: return !neg && frac > 0 ? v + 1 : v;
    case RND_RNA: return frac >= 0.5 ? v + 1 : v;
    case RND_NONE: case RND_RN: case RND_RNI: break;
    }
    if (frac > 0.5 || (frac == 0.5 && (v & 1)))
        v++;
    return v;
}

uint16_t wmi_float_to_half(float f, wmi_rnd r)
{
    uint32_t u = wmi_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    int neg = sign != 0;
    double a = fabs((double)f);
    if (isnan(f))
        return (uint16_t)(sign | 0x7e00);
    if (isinf(f))
        return (uint16_t)(sign | 0x7c00);
    if (a < 6.103515625e-05) { /* subnormal range: units of 2^-24 */
        uint32_t m = round_int(a * 16777216.0, neg, r);
        return (uint16_t)(sign | m); /* m == 0x400 becomes the min normal */
    }
    int e;
    double fr = frexp(a, &e); /* a = fr * 2^e, fr in [0.5, 1) */
    /* mantissa with 11 significant bits */
    uint32_t m = round_int(fr * 2048.0, neg, r);
    if (m == 2048) {
        m = 1024;
        e++;
    }
    int exp = e - 1 + 15;
    if (exp >= 31) {
        /* overflow: RZ and the direction away from infinity keep max */
        if (r == RND_RZ || (r == RND_RM && !neg) || (r == RND_RP && neg))
            return (uint16_t)(sign | 0x7bff);
        return (uint16_t)(sign | 0x7c00);
    }
    return (uint16_t)(sign | (uint32_t)exp << 10 | (m & 0x3ff));
}

float wmi_bf16_to_float(uint16_t h)
{
    return wmi_f32((uint32_t)h << 16);
}

uint16_t wmi_float_to_bf16(float f, wmi_rnd r)
{
    uint32_t u = wmi_f32_bits(f);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x40);
    uint32_t low = u & 0xffff, hi = u >> 16;
    int neg = (u >> 31) != 0;
    switch (r) {
    case RND_RZ: case RND_RZI: return (uint16_t)hi;
    case RND_RM: case RND_RMI: return (uint16_t)(neg && low ? hi + 1 : hi);
    case RND_RP: case RND_RPI: return (uint16_t)(!neg && low ? hi + 1 : hi);
    case RND_RNA: return (uint16_t)(low >= 0x8000 ? hi + 1 : hi);
    case RND_NONE: case RND_RN: case RND_RNI: break;
    }
    if (low > 0x8000 || (low == 0x8000 && (hi & 1)))
        hi++;
    return (uint16_t)hi;
}

/* fp8: e4m3 (bias 7, 3 mantissa bits, no infinities, S.1111.111 is NaN)
   and e5m2 (bias 15, 2 mantissa bits, binary16's top byte). */
float wmi_fp8_to_float(uint8_t v, int e5m2)
{
    unsigned mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    unsigned ex = (v & 0x7fu) >> mb, man = v & ((1u << mb) - 1);
    float s = (v & 0x80) ? -1.0f : 1.0f;
    if (e5m2 && ex == 31)
        return man ? NAN : s * INFINITY;
    if (!e5m2 && ex == 15 && man == 7)
        return NAN;
    if (ex == 0)
        return s * ldexpf((float)man, 1 - (int)bias - (int)mb);
    return s * ldexpf((float)((1u << mb) | man), (int)ex - (int)bias - (int)mb);
}

uint8_t wmi_float_to_fp8(float f, int e5m2, int relu)
{
    unsigned mb = e5m2 ? 2 : 3;
    int emin = e5m2 ? -14 : -6; /* the smallest normal exponent */
    uint8_t maxnorm = e5m2 ? 0x7b : 0x7e;
    uint8_t sign = (wmi_f32_bits(f) >> 31) ? 0x80 : 0;
    if (isnan(f)) /* the canonical NaN */
        return 0x7f;
    if (relu && sign)
        return 0;
    double a = fabs((double)f);
    if (isinf(f))
        return (uint8_t)(sign | maxnorm); /* .satfinite */
    /* a in units of the least significant bit of its binade (of the
       subnormals' below the smallest normal), rounded to even */
    int e;
    (void)frexp(a, &e); /* a = fr * 2^e, fr in [0.5, 1) */
    int q = (e - 1 < emin ? emin : e - 1) - (int)mb;
    uint32_t m = round_int(ldexp(a, -q), 0, RND_RN);
    if (m == 0)
        return sign; /* underflow to a signed zero */
    if (m >> (mb + 1)) { /* rounded up into the next binade */
        m >>= 1;
        q++;
    }
    unsigned ex = m >> mb ? (unsigned)(q + (int)mb - emin + 1) : 0;
    unsigned man = m & ((1u << mb) - 1), code = ex << mb | man;
    if (ex > 31u || code > maxnorm) /* past the largest finite value */
        return (uint8_t)(sign | maxnorm); /* .satfinite */
    return (uint8_t)(sign | code);
}
