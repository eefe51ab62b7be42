/*
 * test_corpus_triton.c -- the Triton kernels of the regression corpus
 * (the .py files of tests/corpus/triton, compiled for sm_90 by gen.py:
 * matmuls with wgmma, attention, fp8, clusters of two, split-K with
 * vector atomics, fp8 quantisation with L2 policies): each runs with
 * Triton's calling convention (two scratch pointers after the kernel's
 * own arguments) and its result is checked against a CPU reference,
 * with hand counts of the lines that decide its traffic.
 */
#include "check.h"
#include "ptx_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wm_arch arch;

/* A committed Triton PTX file of tests/corpus/triton, parsed. */
static wm_ptx_module *triton_corpus(const char *file)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/corpus/triton/%s", file);
    return pi_source_ptx(rel);
}

/* How many elements of the n x n product c differ from a b, summed in
   float in k order (row-major a, b, c). */
static int mm_mismatches(const float *a, const float *b, const float *c,
                         int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float r = 0.0f;
            for (int k = 0; k < n; k++)
                r += a[i * n + k] * b[k * n + j];
            bad += c[i * n + j] != r;
        }
    return bad;
}

/* C = A B of the 128 x 128 x 128 Triton matmul `name` in m (grid 2 x 2 x
   splits of 128 threads, smem bytes of dynamic shared memory; C starts at
   0, which the split-K kernel adds into), inputs multiples of 1/4 from
   seed, checked bit for bit against the CPU; the aggregate of the run (to
   free), NULL when it did not run. */
static wm_agg *run_triton_mm(const wm_ptx_module *m, const char *name,
                             unsigned splits, size_t smem, unsigned seed)
{
    enum { S = 128 };
    static uint16_t a[S * S], bm[S * S];
    static float af[S * S], bf[S * S], c[S * S];
    uint8_t s0[16], s1[16];
    srand(seed);
    for (int i = 0; i < S * S; i++) {
        af[i] = (float)(rand() % 17 - 8) / 4.0f;
        bf[i] = (float)(rand() % 17 - 8) / 4.0f;
        a[i] = pi_half_of(af[i]);
        bm[i] = pi_half_of(bf[i]);
    }
    memset(c, 0, sizeof c);
    pi_launch l = pi_dims(2, 128);
    l.grid[1] = 2;
    l.grid[2] = splits;
    l.dyn_smem = smem;
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, bm, sizeof bm);
    pi_buf(&l, c, sizeof c);
    pi_u32(&l, S);
    pi_u32(&l, S);
    pi_u32(&l, S);
    pi_buf(&l, s0, sizeof s0);
    pi_buf(&l, s1, sizeof s1);
    wm_agg *g = wm_agg_new(&arch);
    wm_status st = pi_run_agg(m, name, &l, g, NULL);
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(mm_mismatches(af, bf, c, S), 0);
    if (st != WM_OK) {
        wm_agg_free(g);
        return NULL;
    }
    return g;
}

/* run_triton_mm of matmul.py's kernel (64 KiB of shared memory). */
static wm_agg *run_triton_matmul(const wm_ptx_module *m, unsigned seed)
{
    return run_triton_mm(m, "matmul", 1, 65536, seed);
}

/*
 * Triton 3.x's sm_90a matmul (tests/corpus/triton): C = A B, 128 x 128 x
 * 128 fp16 in 64 x 64 tiles, K in steps of 32, two wgmma m64n64k16 a step
 * (A K-major with the 64 B swizzle, B N-major with the 128 B swizzle).
 * Inputs are multiples of 1/4 in [-2, 2]: every sum is exact in fp32, so
 * C equals the CPU reference bit for bit.  The wgmma line reads per
 * instruction A (4 warps x 16 rows x 32 B = 4 requests of 4 core
 * matrices, 16 wavefronts) and B (64 rows x 32 B once: 4 requests, 16
 * wavefronts): 8 instructions per CTA, 4 CTAs -> 256 requests, 1024
 * wavefronts, none above ideal.
 */
/*
 * matmul_splitk.py: C += A B, 128 x 128 x 128 fp16 in 64 x 64 tiles, K split
 * in two (grid 2 x 2 x 2): each program adds its fp32 partial tile to C
 * with tl.atomic_add, 8 atom.global.add.v4.f32 a warp.  Inputs multiples
 * of 1/4 in [-2, 2]: each partial sum and their sum are exact, so C equals
 * the CPU reference bit for bit whichever slice adds first.  Every element
 * of C is added twice: 8 programs x 4 warps x 8 vector atomics of 16 bytes
 * a lane, 128 KiB.
 */
static void triton_matmul_splitk(void)
{
    wm_ptx_module *m = triton_corpus("matmul_splitk_sm_90.ptx");
    wm_agg *g = m ? run_triton_mm(m, "matmul_splitk", 2, 24576, 5) : NULL;
    if (g) {
        wm_stats s = pi_line(g, "matmul_splitk.py", 31, WM_SPACE_GLOBAL,
                             WM_OP_ATOM);
        CHECK_EQ(s.inst, 8 * 4 * 8);
        CHECK_EQ(s.bytes, 2 * 128 * 128 * 4);
    }
    wm_agg_free(g);
    wm_ptx_free(m);
}

/* An e4m3 code's value (finite codes: the sign, 4 exponent bits of bias 7,
   3 mantissa bits). */
static float e4m3_value(unsigned c)
{
    unsigned ex = (c >> 3) & 15, man = c & 7;
    float v = ex ? ldexpf(1.0f + (float)man / 8.0f, (int)ex - 7)
                 : ldexpf((float)man / 8.0f, -6);
    return (c & 0x80) ? -v : v;
}

/*
 * quant_fp8.py: q = e4m3(x * 4), y = q / 4, n = 1000 of 4 programs of 256.
 * x * 4 runs through every finite e4m3 value of both signs (exact, so q is
 * that code and y is x), then values past 448 (saturated to 448) and ties
 * between neighbours (to the even code).  The loads and stores carry
 * createpolicy's L2 policies, which change no count.
 */
static void triton_quant_fp8(void)
{
    enum { N = 1000 };
    wm_ptx_module *m = triton_corpus("quant_fp8_sm_90.ptx");
    if (!m)
        return;
    static float x[N], y[N];
    static uint8_t q[N], want[N];
    uint8_t s0[16], s1[16];
    for (int i = 0; i < N; i++) {
        unsigned c = (unsigned)i % 252; /* 126 finite codes, then negatives */
        c = c < 126 ? c : 0x80 | (c - 126);
        float v = e4m3_value(c);
        want[i] = (uint8_t)c;
        if (i >= 756 && i < 800) { /* saturated */
            v = 448.0f + (float)(i - 755) * 64.0f;
            want[i] = 0x7e;
        } else if (i >= 800 && i < 900 && (c & 0x7f) < 0x7d) {
            /* halfway to the next code: ties to the even one */
            v = (e4m3_value(c) + e4m3_value(c + 1)) / 2.0f;
            want[i] = (uint8_t)((c & 1) ? c + 1 : c);
        }
        x[i] = v / 4.0f;
    }
    memset(q, 0xaa, sizeof q);
    pi_launch l = pi_dims(4, 128);
    pi_buf(&l, x, sizeof x);
    pi_buf(&l, q, sizeof q);
    pi_buf(&l, y, sizeof y);
    pi_u32(&l, N);
    pi_f32(&l, 4.0f);
    pi_buf(&l, s0, sizeof s0);
    pi_buf(&l, s1, sizeof s1);
    CHECK_EQ(pi_run(m, "quant_fp8", &l, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += q[i] != want[i] || y[i] != e4m3_value(want[i]) / 4.0f;
    CHECK_EQ(bad, 0);
    wm_ptx_free(m);
}

static void triton_matmul(void)
{
    wm_ptx_module *m = triton_corpus("matmul_sm_90.ptx");
    wm_agg *g = m ? run_triton_matmul(m, 7) : NULL;
    if (g) {
        wm_stats s = pi_line(g, "matmul.py", 25, WM_SPACE_SHARED, WM_OP_WGMMA);
        CHECK_EQ(s.requests, 256);
        CHECK_EQ(s.wavefronts, 1024);
        CHECK_EQ(s.ideal_wavefronts, 1024);
        CHECK_EQ(s.inst, 4 * 4 * 8); /* 4 CTAs x 4 warps x 8 wgmma */
    }
    wm_agg_free(g);
    wm_ptx_free(m);
}

/*
 * attention.py: O = softmax(Q K^T / 8) V over L = 128 keys, D = 64, two
 * programs of 64 query rows, two steps of 64 keys each (online softmax).
 * Q and K are multiples of 1/8 in [-1, 1], V of 1/4 in [-2, 2], all exact
 * in fp16.  P is rounded to fp16 before the second dot and exp2 is
 * ex2.approx, so the result is checked against a double reference within
 * 2e-3 (fp16's half ulp at 1 is 4.9e-4; |O| <= 2).  Each dot is D / 16 = 4
 * (QK^T, K = D) or BN / 16 = 4 (PV, K = BN) wgmma m64n64k16 a step, 2
 * CTAs x 2 steps x 4 = 16 a warpgroup.  QK^T reads A (Q) through a
 * descriptor, one request a warp, and B (K^T, 64 rows x 32 B) once a
 * warpgroup, 4 requests: 64 warp instructions, 16 x 8 = 128 requests.
 * PV takes A (P) from registers: only B (V) is read, counted with the
 * first warp: 16 instructions, 16 x 4 = 64 requests.
 */
static void triton_attention(void)
{
    enum { L = 128, D = 64 };
    wm_ptx_module *m = triton_corpus("attention_sm_90.ptx");
    if (!m)
        return;
    static uint16_t q[L * D], k[L * D], v[L * D];
    static float qf[L * D], kf[L * D], vf[L * D], o[L * D];
    uint8_t s0[16], s1[16];
    srand(11);
    for (int i = 0; i < L * D; i++) {
        qf[i] = (float)(rand() % 17 - 8) / 8.0f;
        kf[i] = (float)(rand() % 17 - 8) / 8.0f;
        vf[i] = (float)(rand() % 17 - 8) / 4.0f;
        q[i] = pi_half_of(qf[i]);
        k[i] = pi_half_of(kf[i]);
        v[i] = pi_half_of(vf[i]);
    }
    const double scale = 1.0 / 8.0; /* 1 / sqrt(D) */
    float qk_scale = (float)(scale / log(2.0)); /* log2 units for exp2 */
    pi_launch l = pi_dims(L / 64, 128);
    l.dyn_smem = 65536;
    pi_buf(&l, q, sizeof q);
    pi_buf(&l, k, sizeof k);
    pi_buf(&l, v, sizeof v);
    pi_buf(&l, o, sizeof o);
    pi_u32(&l, L);
    l.args[l.nargs++] = pi_arg_val(&qk_scale, sizeof qk_scale);
    pi_buf(&l, s0, sizeof s0);
    pi_buf(&l, s1, sizeof s1);
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(pi_run_agg(m, "attention", &l, g, NULL), WM_OK);
    int bad = 0;
    double worst = 0.0;
    for (int i = 0; i < L; i++) {
        double s[L], mx = -HUGE_VAL, sum = 0.0;
        for (int j = 0; j < L; j++) {
            double d = 0.0;
            for (int c = 0; c < D; c++)
                d += (double)qf[i * D + c] * (double)kf[j * D + c];
            s[j] = d * scale;
            mx = fmax(mx, s[j]);
        }
        for (int j = 0; j < L; j++)
            sum += s[j] = exp(s[j] - mx);
        for (int c = 0; c < D; c++) {
            double r = 0.0;
            for (int j = 0; j < L; j++)
                r += s[j] / sum * (double)vf[j * D + c];
            double e = fabs((double)o[i * D + c] - r);
            worst = fmax(worst, e);
            bad += !(e <= 2e-3);
        }
    }
    if (bad)
        fprintf(stderr, "attention: %d off, worst %g\n", bad, worst);
    CHECK_EQ(bad, 0);
    CHECK(worst > 0.0); /* P in fp16: not exact, so O was computed */
    wm_stats qk = pi_line(g, "attention.py", 25, WM_SPACE_SHARED, WM_OP_WGMMA);
    CHECK_EQ(qk.inst, 64);
    CHECK_EQ(qk.requests, 128);
    wm_stats pv = pi_line(g, "attention.py", 32, WM_SPACE_SHARED, WM_OP_WGMMA);
    CHECK_EQ(pv.inst, 16);
    CHECK_EQ(pv.requests, 64);
    wm_agg_free(g);
    wm_ptx_free(m);
}

/* The e4m3 byte of x, a multiple of 1/8 with 1/8 <= |x| <= 2 or 0 (bias
   7, three mantissa bits: every such value is exact). */
static uint8_t e4m3_of(float x)
{
    uint8_t s = x < 0 ? 0x80 : 0;
    if (x == 0.0f)
        return s;
    int e;
    float fr = frexpf(fabsf(x), &e); /* |x| = 2 fr 2^(e-1), 2 fr in [1, 2) */
    return (uint8_t)(s | (unsigned)(e + 6) << 3 |
                     (unsigned)((fr * 2 - 1) * 8));
}

/*
 * matmul_fp8.py: C = A B, 128 x 128 x 128 with A and B^T in e4m3, 64 x
 * 64 tiles, K in steps of 64: two wgmma m64n64k32 .e4m3.e4m3 a step.
 * Inputs are multiples of 1/8 in [-2, 2]: products are multiples of 1/64
 * and |sums| <= 512, exact in fp32, so C equals the reference bit for
 * bit.  4 CTAs x 4 warps x 2 steps x 2 = 64 wgmma; A (16 rows x 32 B)
 * is one request a warp, B (64 rows x 32 B) 4 a warpgroup.
 */
static void triton_matmul_fp8(void)
{
    enum { S = 128 };
    wm_ptx_module *m = triton_corpus("matmul_fp8_sm_90.ptx");
    if (!m)
        return;
    static uint8_t a[S * S], bt[S * S];
    static float af[S * S], bf[S * S], c[S * S];
    uint8_t s0[16], s1[16];
    srand(13);
    for (int i = 0; i < S * S; i++) {
        af[i] = (float)(rand() % 33 - 16) / 8.0f;
        bf[i] = (float)(rand() % 33 - 16) / 8.0f;
        a[i] = e4m3_of(af[i]);
    }
    for (int kk = 0; kk < S; kk++)
        for (int j = 0; j < S; j++)
            bt[j * S + kk] = e4m3_of(bf[kk * S + j]);
    pi_launch l = pi_dims(2, 128);
    l.grid[1] = 2;
    l.dyn_smem = 65536;
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, bt, sizeof bt);
    pi_buf(&l, c, sizeof c);
    pi_u32(&l, S);
    pi_u32(&l, S);
    pi_u32(&l, S);
    pi_buf(&l, s0, sizeof s0);
    pi_buf(&l, s1, sizeof s1);
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(pi_run_agg(m, "matmul_fp8", &l, g, NULL), WM_OK);
    CHECK_EQ(mm_mismatches(af, bf, c, S), 0);
    wm_stats s = pi_line(g, "matmul_fp8.py", 20, WM_SPACE_SHARED, WM_OP_WGMMA);
    CHECK_EQ(s.inst, 64);
    CHECK_EQ(s.requests, 128); /* A 1 a warp + B 4 a warpgroup, x 16 */
    wm_agg_free(g);
    wm_ptx_free(m);
}

/*
 * matmul.py with num_ctas=2 (matmul_ctas2_sm_90.ptx, .reqnctapercluster
 * 2): each 128 x 64 tile of C is split over a cluster of two CTAs, 64 rows
 * each.  C = A B, 128 x 128 x 128 as in triton_matmul: a grid of 2 x 2
 * CTAs (one program's x doubled, as Triton's launcher does), clusters
 * from the kernel's own directive; exact.  Each CTA does 4 K steps of
 * two m64n64k16: 4 CTAs x 4 warps x 8 = 128 wgmma.
 */
static void triton_matmul_ctas2(void)
{
    wm_ptx_module *m = triton_corpus("matmul_ctas2_sm_90.ptx");
    wm_agg *g = m ? run_triton_matmul(m, 17) : NULL;
    if (g)
        CHECK_EQ(pi_line(g, "matmul.py", 25, WM_SPACE_SHARED, WM_OP_WGMMA).inst,
                 128);
    wm_agg_free(g);
    wm_ptx_free(m);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    triton_matmul();
    triton_attention();
    triton_matmul_fp8();
    triton_matmul_ctas2();
    triton_matmul_splitk();
    triton_quant_fp8();
    return check_done("test_corpus_triton");
}
