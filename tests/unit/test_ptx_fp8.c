/*
 * test_ptx_fp8.c -- fp8 conversions (ptx_num.c) and cvt with fp8 pairs:
 * hand-computed codes of both formats; float to fp8 held to a brute-force
 * reference (the nearest of all 256 codes, ties to the even code, past the
 * largest finite value that value) on random floats of every binade; and
 * cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2 from two f32 or an f16x2 and
 * cvt.rn{.relu}.f16x2 back, run by the interpreter.
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_int.h"

#include <math.h>
#include <string.h>

static void codes(void)
{
    /* e4m3: 1.0 = 0.0111.000, 448 = the largest, 2^-6 the smallest normal,
       2^-9 the smallest subnormal, S.1111.111 NaN */
    CHECK(wmi_fp8_to_float(0x38, 0) == 1.0f);
    CHECK(wmi_fp8_to_float(0x7e, 0) == 448.0f);
    CHECK(wmi_fp8_to_float(0x08, 0) == ldexpf(1.0f, -6));
    CHECK(wmi_fp8_to_float(0x01, 0) == ldexpf(1.0f, -9));
    CHECK(wmi_fp8_to_float(0xb8, 0) == -1.0f);
    CHECK(isnan(wmi_fp8_to_float(0x7f, 0)));
    /* e5m2: binary16's top byte */
    CHECK(wmi_fp8_to_float(0x3c, 1) == 1.0f);
    CHECK(wmi_fp8_to_float(0x7b, 1) == 57344.0f);
    CHECK(wmi_fp8_to_float(0x01, 1) == ldexpf(1.0f, -16));
    CHECK(isinf(wmi_fp8_to_float(0x7c, 1)));
    CHECK(isnan(wmi_fp8_to_float(0x7e, 1)));
    /* and back: ties to even, saturation, NaN, relu, signed zero */
    CHECK_EQ(wmi_float_to_fp8(1.0f, 0, 0), 0x38);
    CHECK_EQ(wmi_float_to_fp8(1.0625f, 0, 0), 0x38); /* tie: 1.0 is even */
    CHECK_EQ(wmi_float_to_fp8(1.1875f, 0, 0), 0x3a); /* tie: 1.25 even */
    CHECK_EQ(wmi_float_to_fp8(460.0f, 0, 0), 0x7e);
    CHECK_EQ(wmi_float_to_fp8(1e30f, 0, 0), 0x7e);
    CHECK_EQ(wmi_float_to_fp8(-INFINITY, 0, 0), 0xfe);
    CHECK_EQ(wmi_float_to_fp8(NAN, 0, 0), 0x7f);
    CHECK_EQ(wmi_float_to_fp8(-3.0f, 0, 1), 0x00);
    CHECK_EQ(wmi_float_to_fp8(-0.0f, 0, 0), 0x80);
    CHECK_EQ(wmi_float_to_fp8(ldexpf(1.0f, -10), 0, 0), 0x00); /* tie to 0 */
    CHECK_EQ(wmi_float_to_fp8(ldexpf(1.5f, -10), 0, 0), 0x01);
    CHECK_EQ(wmi_float_to_fp8(ldexpf(15.5f, -10), 0, 0), 0x08); /* -> normal */
    CHECK_EQ(wmi_float_to_fp8(60000.0f, 1, 0), 0x7b);
    CHECK_EQ(wmi_float_to_fp8(INFINITY, 1, 0), 0x7b);
    CHECK_EQ(wmi_float_to_fp8(1.125f, 1, 0), 0x3c); /* tie: 1.0 even */
}

/* The nearest finite code of x's sign by exhaustive search (ties to the
   even code; the largest finite beyond it), NaN the canonical 0x7f. */
static uint8_t ref_fp8(float x, int e5m2)
{
    if (isnan(x))
        return 0x7f;
    uint8_t sign = signbit(x) ? 0x80 : 0, best = sign;
    double ax = fabs((double)x), bd = (double)INFINITY;
    for (unsigned c = 0; c < 0x80; c++) {
        float v = wmi_fp8_to_float((uint8_t)c, e5m2);
        if (isnan(v) || isinf(v))
            continue;
        double d = fabs((double)v - ax);
        if (d < bd || (d == bd && !(c & 1))) {
            bd = d;
            best = (uint8_t)(sign | c);
        }
    }
    return best;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void brute(void)
{
    uint64_t s = 7;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = rng(&s);
        /* exponents 2^-20 .. 2^20: every binade of both formats, their
           subnormals, underflow and overflow */
        float x = ldexpf((float)(r & 0xffffff) / 16777216.0f + 0.5f,
                         (int)((r >> 24) % 41) - 20);
        if (r >> 63)
            x = -x;
        if (i % 1000 == 0) /* the midpoints between codes exactly */
            x = (wmi_fp8_to_float((uint8_t)(r >> 32 & 0x7e), i & 1) +
                 wmi_fp8_to_float((uint8_t)((r >> 32 & 0x7e) + 1), i & 1)) /
                2.0f;
        for (int e5 = 0; e5 < 2; e5++)
            bad += wmi_float_to_fp8(x, e5, 0) != ref_fp8(x, e5);
    }
    CHECK_EQ(bad, 0);
}

/* cvt: lane l converts (a, b) = (in[l], in[l + 32]) to e4m3x2 and e5m2x2
   (plain and .relu), the f16x2 of them to e4m3x2, and the e4m3x2 back to
   f16x2. */
static const char *const src =
    ".version 8.1\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b16 %rs<8>; .reg .b32 %r<8>; .reg .f32 %f<4>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3; ld.global.f32 %f1, [%rd4];\n"
    "  ld.global.f32 %f2, [%rd4+128];\n"
    "  cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;\n"
    "  cvt.rn.satfinite.e5m2x2.f32 %rs2, %f1, %f2;\n"
    "  cvt.rn.satfinite.relu.e4m3x2.f32 %rs3, %f1, %f2;\n"
    "  cvt.rn.f16x2.f32 %r2, %f1, %f2;\n"
    "  cvt.rn.satfinite.e4m3x2.f16x2 %rs4, %r2;\n"
    "  cvt.rn.f16x2.e4m3x2 %r3, %rs1;\n"
    "  cvt.rn.relu.f16x2.e5m2x2 %r4, %rs2;\n"
    "  mul.wide.u32 %rd5, %r1, 16; add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.b16 [%rd6], {%rs1, %rs2, %rs3, %rs4};\n"
    "  st.global.v2.b32 [%rd6+8], {%r3, %r4};\n"
    "  ret;\n}\n";

static void cvt(void)
{
    wm_ptx_module *m = pi_parse(src, "fp8.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    float in[64];
    uint64_t s = 3;
    for (int i = 0; i < 64; i++) {
        uint64_t r = rng(&s);
        in[i] = ldexpf((float)(r & 0xffff) / 65536.0f + 0.5f,
                       (int)((r >> 16) % 24) - 10) * ((r >> 63) ? -1.0f : 1.0f);
    }
    in[3] = 1000.0f; /* saturates in e4m3 */
    in[40] = NAN;
    uint16_t out[32][8];
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "k", &l, &ft), WM_OK);
    int bad = 0;
    for (int t = 0; t < 32; t++) {
        float a = in[t], b = in[t + 32];
        uint16_t e4 = (uint16_t)(ref_fp8(a, 0) << 8 | ref_fp8(b, 0));
        uint16_t e5 = (uint16_t)(ref_fp8(a, 1) << 8 | ref_fp8(b, 1));
        uint16_t r4 = (uint16_t)((a < 0 ? 0 : ref_fp8(a, 0)) << 8 |
                                 (b < 0 ? 0 : ref_fp8(b, 0)));
        float ha = wmi_half_to_float(wmi_float_to_half(a, RND_RN));
        float hb = wmi_half_to_float(wmi_float_to_half(b, RND_RN));
        uint16_t h4 = (uint16_t)(ref_fp8(ha, 0) << 8 | ref_fp8(hb, 0));
        float fa = wmi_fp8_to_float((uint8_t)(e4 >> 8), 0);
        float fb = wmi_fp8_to_float((uint8_t)e4, 0);
        uint16_t back_lo = wmi_float_to_half(fb, RND_RN);
        uint16_t back_hi = wmi_float_to_half(fa, RND_RN);
        float ga = wmi_fp8_to_float((uint8_t)(e5 >> 8), 1);
        float gb = wmi_fp8_to_float((uint8_t)e5, 1);
        uint16_t relu_lo = wmi_float_to_half(gb < 0 ? 0.0f : gb, RND_RN);
        uint16_t relu_hi = wmi_float_to_half(ga < 0 ? 0.0f : ga, RND_RN);
        bad += out[t][0] != e4;
        bad += out[t][1] != e5;
        bad += out[t][2] != r4;
        bad += out[t][3] != h4;
        bad += out[t][4] != back_lo || out[t][5] != back_hi;
        bad += out[t][6] != relu_lo || out[t][7] != relu_hi;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(out[3][0] >> 8, 0x7e);   /* 1000 saturated */
    CHECK_EQ(out[8][0] & 0xff, 0x7f); /* in[40] NaN */
    wm_ptx_free(m);
}

int main(void)
{
    codes();
    brute();
    cvt();
    return check_done("test_ptx_fp8");
}
