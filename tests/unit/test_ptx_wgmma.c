/*
 * test_ptx_wgmma.c -- wgmma.mma_async in the PTX interpreter, against C
 * references written from the PTX ISA (9.7.15.5 "Matrix fragments for
 * wgmma.mma_async": the accumulator D of warp r of the warpgroup holds
 * row 16r + lane/4 + 8 ((i/2) % 2), column 2 (lane % 4) + i % 2 + 8 (i/4)
 * in its register i; 9.7.15.5.1.2 "Shared Memory Matrix Layout" and the
 * "Matrix Descriptor Format").  Each case generates one kernel: 128
 * threads copy a shared-memory image from global memory, load the
 * accumulators (and A's registers), run one wgmma and store D.  Inputs
 * are small multiples of powers of two, so the f32 sums are exact and
 * the results must match bit for bit; fp8 and tf32 inputs are decoded by
 * the test from the formats' definitions.  Every launch also runs with
 * the fast paths off and must agree (ptx_twin.h).
 */
#include "check.h"
#include "ptx_inline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wm_arch arch;

/* ---- element formats (written from their definitions) ------------------ */

enum { T_F16, T_BF16, T_TF32, T_E4M3, T_E5M2, T_S8, T_U8 };
static const char *const tname[] = {"f16", "bf16", "tf32", "e4m3",
                                    "e5m2", "s8", "u8"};
static const unsigned tbytes[] = {2, 2, 4, 1, 1, 1, 1};

/* Encode x (a value every format here holds exactly) in type t. */
static uint32_t enc(unsigned t, float x)
{
    uint32_t f;
    memcpy(&f, &x, 4);
    unsigned s = f >> 31, e = f >> 23 & 0xff, m = f & 0x7fffff;
    switch (t) {
    case T_F16:
        return x == 0 ? s << 15 : s << 15 | (e - 112) << 10 | m >> 13;
    case T_BF16: return f >> 16;
    case T_TF32: return f | 0x1fff; /* the low 13 bits must be ignored */
    case T_E4M3:
        return x == 0 ? s << 7 : s << 7 | (e - 120) << 3 | m >> 20;
    case T_E5M2:
        return x == 0 ? s << 7 : s << 7 | (e - 112) << 2 | m >> 21;
    default: return (uint32_t)(int32_t)x & 0xff;
    }
}

/* A random input value of type t: small, exact in every format. */
static float rnd_val(unsigned t)
{
    if (t == T_U8)
        return (float)(rand() % 8);
    if (t == T_S8)
        return (float)(rand() % 15 - 7);
    float v = (float)(rand() % 7 + 1) / 4.0f;
    return rand() % 3 == 0 ? 0.0f : (rand() % 2 ? -v : v);
}

/* ---- a layout (the ISA's canonical layouts, 9.7.15.5.1.2) -------------- */

typedef struct lay {
    int mn_major;
    unsigned width; /* swizzle: 128, 64, 32 or 0 */
    unsigned lbo, sbo, start;
} lay;

/* Byte address of element (mn, k) of e-byte elements. */
static unsigned place(const lay *L, unsigned mn, unsigned k, unsigned e)
{
    unsigned off, w = L->width;
    if (!L->mn_major) {
        unsigned kb = k * e;
        off = w ? (mn / 8) * L->sbo + (mn % 8) * w + kb
                : (mn / 8) * L->sbo + (kb / 16) * L->lbo + (mn % 8) * 16 +
                      kb % 16;
    } else {
        unsigned b = mn * e;
        off = w ? (b / w) * L->lbo + (k / 8) * L->sbo + (k % 8) * w + b % w
                : (b / 16) * L->sbo + (k / 8) * L->lbo + (k % 8) * 16 + b % 16;
    }
    unsigned a = L->start + off;
    if (w) /* the 16 B chunk index XOR the 128 B line index, mod w / 16 */
        a ^= ((a >> 7) & (w / 16 - 1)) << 4;
    return a;
}

static uint64_t desc_of(const lay *L)
{
    static const unsigned mode[129] = {[0] = 0, [128] = 1, [64] = 2, [32] = 3};
    return (uint64_t)(L->start >> 4) | (uint64_t)(L->lbo >> 4) << 16 |
           (uint64_t)(L->sbo >> 4) << 32 | (uint64_t)mode[L->width] << 62;
}

/* ---- one case --------------------------------------------------------- */

typedef struct wcase {
    unsigned n, at, bt; /* N, input types */
    int dt16;           /* f16 accumulators (else f32 / s32) */
    int areg;           /* A from registers */
    lay la, lb;
    int scale_d, neg_a, neg_b;
} wcase;

enum { SMEM = 40960 };

static unsigned kof(const wcase *w)
{
    return 32 / tbytes[w->at];
}

static unsigned nregs(const wcase *w)
{
    return w->dt16 ? w->n / 4 : w->n / 2;
}

static const char *dname(const wcase *w)
{
    return w->at >= T_S8 ? "s32" : w->dt16 ? "f16" : "f32";
}

/* The kernel of case w (static text, overwritten by the next call). */
static const char *kernel_text(const wcase *w)
{
    static char s[16384];
    size_t n = 0;
    unsigned nr = nregs(w);
#define P(...) n += (size_t)snprintf(s + n, sizeof s - n, __VA_ARGS__)
    P(".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k(.param .u64 img, .param .u64 out, .param .u64 areg,"
      " .param .u64 da, .param .u64 db)\n{\n"
      ".reg .b32 %%r<8>;\n.reg .b32 %%d<%u>;\n.reg .b32 %%a<4>;\n"
      ".reg .b64 %%rd<12>;\n.reg .pred %%p<2>;\n"
      ".shared .align 1024 .b8 sm[%u];\n", nr, SMEM);
    P("ld.param.u64 %%rd1, [img];\nld.param.u64 %%rd2, [out];\n"
      "ld.param.u64 %%rd3, [areg];\nld.param.u64 %%rd4, [da];\n"
      "ld.param.u64 %%rd5, [db];\nmov.u32 %%r0, %%tid.x;\n"
      "shl.b32 %%r1, %%r0, 2;\nmov.u32 %%r5, sm;\n"
      "COPY:\nsetp.ge.u32 %%p0, %%r1, %u;\n@%%p0 bra DONE;\n"
      "cvt.u64.u32 %%rd6, %%r1;\nadd.u64 %%rd7, %%rd1, %%rd6;\n"
      "ld.global.u32 %%r2, [%%rd7];\nadd.u32 %%r3, %%r5, %%r1;\n"
      "st.shared.u32 [%%r3], %%r2;\nadd.u32 %%r1, %%r1, 512;\nbra COPY;\n"
      "DONE:\nbar.sync 0;\n", SMEM);
    /* descriptors: start addresses relative to sm */
    P("shr.u32 %%r4, %%r5, 4;\ncvt.u64.u32 %%rd8, %%r4;\n"
      "add.u64 %%rd4, %%rd4, %%rd8;\nadd.u64 %%rd5, %%rd5, %%rd8;\n");
    P("mul.wide.u32 %%rd9, %%r0, %u;\nadd.u64 %%rd10, %%rd2, %%rd9;\n"
      "mul.wide.u32 %%rd9, %%r0, 16;\nadd.u64 %%rd11, %%rd3, %%rd9;\n",
      4 * nr);
    for (unsigned i = 0; i < nr; i++)
        P("ld.global.b32 %%d%u, [%%rd10+%u];\n", i, 4 * i);
    for (unsigned i = 0; i < 4; i++)
        P("ld.global.b32 %%a%u, [%%rd11+%u];\n", i, 4 * i);
    P("mov.pred %%p1, %d;\nfence.proxy.async.shared::cta;\n"
      "wgmma.fence.sync.aligned;\n", w->scale_d ? -1 : 0);
    P("wgmma.mma_async.sync.aligned.m64n%uk%u.%s.%s.%s {", w->n, kof(w),
      dname(w), tname[w->at], tname[w->bt]);
    for (unsigned i = 0; i < nr; i++)
        P("%s%%d%u", i ? "," : "", i);
    P("}, %s, %%rd5, %%p1", w->areg ? "{%a0,%a1,%a2,%a3}" : "%rd4");
    if (w->at < T_S8)
        P(", %d, %d", w->neg_a ? -1 : 1, w->neg_b ? -1 : 1);
    if (tbytes[w->at] == 2 && !w->areg)
        P(", %d", w->la.mn_major);
    if (tbytes[w->at] == 2)
        P(", %d", w->lb.mn_major);
    P(";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n");
    for (unsigned i = 0; i < nr; i++)
        P("st.global.b32 [%%rd10+%u], %%d%u;\n", 4 * i, i);
    P("ret;\n}\n");
#undef P
    return s;
}

/* D row and column of accumulator value i of thread t (the ISA figure). */
static unsigned drow(unsigned t, unsigned i)
{
    return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2);
}

static unsigned dcol(unsigned t, unsigned i)
{
    return 2 * (t % 4) + i % 2 + 8 * (i / 4);
}

/* A's register fragment: element (row, k) of A in register j of thread t,
   for e-byte types (the ISA's wgmma "register fragment" figures). */
static void areg_at(unsigned t, unsigned j, unsigned e, unsigned x,
                    unsigned *row, unsigned *k)
{
    unsigned g = (t % 32) / 4, q = t % 4, per = 4 / e;
    *row = 16 * (t / 32) + g + 8 * (j % 2);
    *k = e == 4 ? q + 4 * (j / 2) : per * q + 4 * per * (j / 2) + x;
}

static float half_val(uint16_t h)
{
    unsigned e = h >> 10 & 31, m = h & 1023;
    float v = e ? ldexpf((float)(1024 + m), (int)e - 25)
                : ldexpf((float)m, -24);
    return (h & 0x8000) ? -v : v;
}

/* Launch case w's kernel on nthreads threads over the shared image img,
   accumulators dreg and A registers areg; the fault in *ft. */
static wm_status launch(const wcase *w, unsigned nthreads, uint8_t *img,
                        uint32_t *dreg, uint32_t *areg, wm_agg *g,
                        wm_ptx_fault *ft)
{
    wm_ptx_module *m = pi_parse(kernel_text(w), "wgmma.ptx");
    CHECK(m != NULL);
    if (!m)
        return WM_ERR_PARSE;
    pi_launch l = pi_dims(1, nthreads);
    pi_buf(&l, img, SMEM);
    pi_buf(&l, dreg, 128 * 128 * 4);
    pi_buf(&l, areg, 128 * 4 * 4);
    l.args[3].scalar = desc_of(&w->la);
    l.args[3].size = 8;
    l.args[4].scalar = desc_of(&w->lb);
    l.args[4].size = 8;
    l.nargs = 5;
    wm_status st = pi_run_agg(m, "k", &l, g, ft);
    wm_ptx_free(m);
    return st;
}

/* Run case w; D compared with the reference; the wgmma line's shared
   statistics in *out. */
static void run_case(const wcase *w, wm_stats *out)
{
    static uint8_t img[SMEM];
    static float A[64][32], B[256][32], C[64][256];
    static uint32_t dreg[128 * 128], areg[128 * 4];
    unsigned K = kof(w), N = w->n, nr = nregs(w);
    memset(img, 0, sizeof img);
    for (unsigned m = 0; m < 64; m++)
        for (unsigned k = 0; k < K; k++) {
            A[m][k] = rnd_val(w->at);
            uint32_t v = enc(w->at, A[m][k]);
            memcpy(img + place(&w->la, m, k, tbytes[w->at]), &v,
                   tbytes[w->at]);
        }
    for (unsigned j = 0; j < N; j++)
        for (unsigned k = 0; k < K; k++) {
            B[j][k] = rnd_val(w->bt);
            uint32_t v = enc(w->bt, B[j][k]);
            memcpy(img + place(&w->lb, j, k, tbytes[w->bt]), &v,
                   tbytes[w->bt]);
        }
    for (unsigned t = 0; t < 128; t++)
        for (unsigned j = 0; j < 4; j++) {
            uint32_t r = 0;
            unsigned e = tbytes[w->at];
            for (unsigned x = 0; x < 4 / e; x++) {
                unsigned row, k;
                areg_at(t, j, e, x, &row, &k);
                r |= enc(w->at, A[row][k]) << (8 * e * x);
            }
            areg[t * 4 + j] = r;
        }
    for (unsigned t = 0; t < 128; t++)
        for (unsigned i = 0; i < N / 2; i++) {
            unsigned r = drow(t, i), c = dcol(t, i);
            float v = (float)(rand() % 9 - 4);
            C[r][c] = v;
            uint32_t bits;
            if (w->at >= T_S8)
                bits = (uint32_t)(int32_t)v;
            else if (w->dt16)
                bits = enc(T_F16, v);
            else
                memcpy(&bits, &v, 4);
            if (w->dt16) {
                uint32_t *d = &dreg[t * nr + i / 2];
                *d = (i % 2) ? (*d & 0xffff) | bits << 16 : bits;
            } else {
                dreg[t * nr + i] = bits;
            }
        }
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(launch(w, 128, img, dreg, areg, g, NULL), WM_OK);
    int bad = 0;
    for (unsigned t = 0; t < 128; t++)
        for (unsigned i = 0; i < N / 2; i++) {
            unsigned r = drow(t, i), c = dcol(t, i);
            float want = w->scale_d ? C[r][c] : 0.0f;
            for (unsigned k = 0; k < K; k++)
                want += (w->neg_a ? -A[r][k] : A[r][k]) *
                        (w->neg_b ? -B[c][k] : B[c][k]);
            uint32_t d = w->dt16 ? dreg[t * nr + i / 2] >> (16 * (i % 2))
                                 : dreg[t * nr + i];
            float got;
            if (w->at >= T_S8)
                got = (float)(int32_t)d;
            else if (w->dt16)
                got = half_val((uint16_t)d);
            else
                memcpy(&got, &d, 4);
            if (got != want && bad++ < 3)
                fprintf(stderr, "m64n%u %s.%s: D[%u][%u] = %g, want %g\n", N,
                        tname[w->at], tname[w->bt], r, c, (double)got,
                        (double)want);
        }
    CHECK_EQ(bad, 0);
    /* the wgmma instruction is the kernel's only op-wgmma site */
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        if (s.op == WM_OP_WGMMA)
            *out = s.stats;
    }
    wm_agg_free(g);
}

/* K-major layouts of a 64-row A and an N-row B with swizzle width w
   (0: none, core matrices interleaved: 8 rows of 16 B, LBO between the
   two K chunks, SBO between row groups). */
static lay kmajor(unsigned w, unsigned rows, unsigned start)
{
    lay L = {0, w, 0, 0, start};
    if (w) {
        L.sbo = 8 * w; /* 8 rows of w bytes */
    } else {
        L.lbo = 128 * (rows / 8); /* all first chunks, then the second */
        L.sbo = 128;
    }
    return L;
}

/* MN-major layouts of 16-bit elements (K = 16: two 8-row groups). */
static lay mnmajor(unsigned w, unsigned rows, unsigned start)
{
    lay L = {1, w, 0, 0, start};
    unsigned bytes = rows * 2;
    if (w) {
        L.lbo = 8 * w * 2; /* the next w bytes of M/N: after both K groups */
        L.sbo = 8 * w;     /* the next 8 rows of K */
    } else {
        L.sbo = 128;         /* the next 16 B of M/N */
        L.lbo = 128 * (bytes / 16); /* the next 8 rows of K */
    }
    return L;
}

static void every_type(void)
{
    static const struct { unsigned at, bt; int dt16; } f[] = {
        {T_F16, T_F16, 0}, {T_F16, T_F16, 1}, {T_BF16, T_BF16, 0},
        {T_TF32, T_TF32, 0}, {T_E4M3, T_E4M3, 0}, {T_E4M3, T_E5M2, 1},
        {T_E5M2, T_E4M3, 0}, {T_S8, T_U8, 0}, {T_U8, T_S8, 0},
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(f); i++)
        for (int areg = 0; areg < 2; areg++) {
            wcase w;
            memset(&w, 0, sizeof w);
            w.n = 64;
            w.at = f[i].at;
            w.bt = f[i].bt;
            w.dt16 = f[i].dt16;
            w.areg = areg;
            w.la = kmajor(128, 64, 0);
            w.lb = kmajor(128, 64, 8192);
            w.scale_d = 1;
            wm_stats s;
            run_case(&w, &s);
            /* B: 64 rows x 32 B = 16 core matrices = 4 requests (first
               warp); A: 4 warps x 4 core matrices = 1 request each */
            CHECK_EQ(s.requests, areg ? 4 : 8);
            CHECK_EQ(s.wavefronts, areg ? 16 : 32);
            CHECK_EQ(s.ideal_wavefronts, s.wavefronts);
            CHECK_EQ(s.inst, areg ? 1 : 4);
        }
}

static void every_layout(void)
{
    static const unsigned widths[] = {0, 32, 64, 128};
    for (size_t i = 0; i < 4; i++)
        for (int mn = 0; mn < 2; mn++) {
            wcase w;
            memset(&w, 0, sizeof w);
            w.n = 128;
            w.at = w.bt = T_F16;
            w.la = mn ? mnmajor(widths[i], 64, 0) : kmajor(widths[i], 64, 0);
            w.lb = mn ? mnmajor(widths[i], 128, 16384)
                      : kmajor(widths[i], 128, 16384);
            w.scale_d = mn;
            w.neg_a = mn;
            wm_stats s;
            run_case(&w, &s);
            /* A: 4 requests; B: 128 x 32 B = 8 requests, conflict-free */
            CHECK_EQ(s.requests, 12);
            CHECK_EQ(s.wavefronts, 48);
            CHECK_EQ(s.ideal_wavefronts, 48);
        }
}

static void every_n(void)
{
    for (unsigned n = 8; n <= 256; n += 8) {
        wcase w;
        memset(&w, 0, sizeof w);
        w.n = n;
        w.at = w.bt = n % 16 ? T_BF16 : T_E5M2;
        w.la = kmajor(64, 64, 0);
        w.lb = kmajor(64, n, 4096);
        w.scale_d = n % 3 != 0;
        w.neg_b = n % 5 == 0;
        wm_stats s;
        run_case(&w, &s);
        /* A: 4 requests; B: n rows x 32 B = n / 4 core matrices */
        CHECK_EQ(s.requests, 4 + (n / 4 + 3) / 4);
        CHECK_EQ(s.wavefronts, 16 + n / 4);
    }
}

/*
 * One element by hand, 128 B swizzle, K-major A at shared offset 0: A[3][8]
 * (f16) is byte 16 of row 3; row 3 starts at 3 x 128 = 384, whose 128 B
 * line index is 3, so 16 B chunk 1 goes to chunk 1 ^ 3 = 2: byte 384 + 32
 * = 416.  With 1.0 there, B all ones and scale-d 0, D is 1 in row 3 and 0
 * elsewhere.  Then one element of an MN-major B (below).
 */
static void by_hand(void)
{
    static uint8_t img[SMEM];
    static uint32_t dreg[128 * 128], areg[128 * 4];
    wcase w;
    memset(&w, 0, sizeof w);
    w.n = 8;
    w.at = w.bt = T_F16;
    w.la = kmajor(128, 64, 0);
    w.lb = kmajor(128, 8, 8192);
    memset(img, 0, sizeof img);
    memset(dreg, 0x55, sizeof dreg);
    for (unsigned i = 8192; i < 9216; i += 2)
        img[i + 1] = 0x3c; /* 1.0 */
    img[417] = 0x3c;
    CHECK_EQ(launch(&w, 128, img, dreg, areg, NULL, NULL), WM_OK);
    int bad = 0;
    for (unsigned t = 0; t < 128; t++)
        for (unsigned i = 0; i < 4; i++) {
            float want = drow(t, i) == 3 ? 1.0f : 0.0f, got;
            memcpy(&got, &dreg[t * 4 + i], 4);
            bad += got != want;
        }
    CHECK_EQ(bad, 0);

    /* B N-major, 32 B swizzle at offset 8192, N = 32: LBO (next 32 B of N)
       = 512, SBO (next 8 rows of K) = 256.  B[n = 20][k = 9]: n bytes 40
       -> atom 1 (+512), byte 8 in it; k = 9 -> K group 1 (+256), row 1
       (+32): 8192 + 512 + 256 + 32 + 8 = 9000, whose line index 9000 >> 7
       = 70 is even: bit 4 stays, byte 9000.  A all ones: D[.][20] = 1. */
    w.n = 32;
    w.la = kmajor(0, 64, 0);
    w.lb = (lay){1, 32, 512, 256, 8192};
    memset(img, 0, sizeof img);
    for (unsigned i = 0; i < 4096; i += 2)
        img[i + 1] = 0x3c;
    img[9001] = 0x3c;
    CHECK_EQ(launch(&w, 128, img, dreg, areg, NULL, NULL), WM_OK);
    bad = 0;
    for (unsigned t = 0; t < 128; t++)
        for (unsigned i = 0; i < 16; i++) {
            float want = dcol(t, i) == 20 ? 1.0f : 0.0f, got;
            memcpy(&got, &dreg[t * 16 + i], 4);
            bad += got != want;
        }
    CHECK_EQ(bad, 0);
}

/* The hand counts of docs/design/wgmma.md: m64n64k16 f16, A and B
   K-major from descriptors; 128 B swizzle and none: per instruction 8
   requests (A 4 x 1, B 4), 32 wavefronts, none above ideal. */
static void hand_counts(void)
{
    for (int sw = 0; sw < 2; sw++) {
        wcase w;
        memset(&w, 0, sizeof w);
        w.n = 64;
        w.at = w.bt = T_F16;
        w.la = kmajor(sw ? 128 : 0, 64, 0);
        w.lb = kmajor(sw ? 128 : 0, 64, 8192);
        wm_stats s;
        run_case(&w, &s);
        CHECK_EQ(s.inst, 4);
        CHECK_EQ(s.requests, 8);
        CHECK_EQ(s.wavefronts, 32);
        CHECK_EQ(s.ideal_wavefronts, 32);
    }
}

/* What is not modelled or not allowed faults, naming the instruction. */
static void faults(void)
{
    static uint8_t img[SMEM];
    static uint32_t dreg[128 * 128], areg[128 * 4];
    wcase w;
    memset(&w, 0, sizeof w);
    w.n = 16;
    w.at = w.bt = T_BF16;
    w.la = kmajor(64, 64, 0);
    w.lb = kmajor(64, 16, 4096);
    wm_ptx_fault ft;
    /* 64 threads: half a warpgroup */
    CHECK_EQ(launch(&w, 64, img, dreg, areg, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "wgmma.mma_async needs a whole warpgroup: warp 0 "
                         "is in warps 0-3, the block has 64 threads") != NULL);
    /* a start address that is not on its swizzle pattern's boundary:
       the base offset is not modelled */
    w.la.start = 0;
    uint64_t bad_desc = desc_of(&w.lb) | (uint64_t)3 << 49;
    wm_ptx_module *m = pi_parse(kernel_text(&w), "wgmma.ptx");
    CHECK(m != NULL);
    pi_launch l = pi_dims(1, 128);
    pi_buf(&l, img, SMEM);
    pi_buf(&l, dreg, sizeof dreg);
    pi_buf(&l, areg, sizeof areg);
    l.args[3].scalar = desc_of(&w.la);
    l.args[3].size = 8;
    l.args[4].scalar = bad_desc;
    l.args[4].size = 8;
    l.nargs = 5;
    CHECK_EQ(pi_run(m, "k", &l, &ft), WM_ERR_UNSUPPORTED);
    CHECK(strstr(ft.msg, "wgmma descriptor of B has matrix base offset 3")
          != NULL);
    /* out of the block's shared memory */
    l.args[4].scalar = desc_of(&w.lb) + (SMEM >> 4);
    CHECK_EQ(pi_run(m, "k", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "out-of-bounds wgmma read of B") != NULL);
    wm_ptx_free(m);

    /* forms that are not modelled fault when run, at their line */
    static const char *const forms[] = {
        "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16",
        "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc",
    };
    for (size_t i = 0; i < 2; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 PI_HEAD ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n"
                 ".reg .b64 %%rd<2>;\n.reg .pred %%p<2>;\n"
                 "%s {%%r0,%%r1,%%r2,%%r3}, %%rd0, %%rd1, %%p0, 1, 1;\n"
                 "ret;\n}\n", forms[i]);
        m = pi_parse(src, "forms.ptx");
        CHECK(m != NULL);
        l = pi_dims(1, 128);
        CHECK_EQ(pi_run(m, "k", &l, &ft), WM_ERR_UNSUPPORTED);
        CHECK(strstr(ft.msg, "unsupported instruction 'wgmma.mma_async") != NULL);
        CHECK_EQ(ft.ptx_line, 9);
        wm_ptx_free(m);
    }

    /* immediates out of range are parse errors at the operand */
    static const char *const bad[] = {
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r0,%r1,%r2,%r3},"
        " %rd0, %rd1, %p0, 2, 1, 0, 0;",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r0,%r1,%r2,%r3},"
        " %rd0, %rd1, %p0, 1, 1, 0, 3;",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r0,%r1,%r2,%r3},"
        " %rd0, %rd1, %p0, 1, 1;",
    };
    static const char *const why[] = {
        "expected a scale immediate, 1 or -1",
        "expected a transpose immediate, 0 or 1",
        "needs 8 operands, got 6",
    };
    for (size_t i = 0; i < 3; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 PI_HEAD ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n"
                 ".reg .b64 %%rd<2>;\n.reg .pred %%p<2>;\n%s\nret;\n}\n",
                 bad[i]);
        wm_ptx_module *pm = NULL;
        wm_diag d;
        CHECK_EQ(wm_ptx_parse(src, strlen(src), "bad.ptx", &pm, &d),
                 WM_ERR_PARSE);
        CHECK(strstr(d.msg, why[i]) != NULL);
        CHECK_EQ(d.line, 9);
        wm_ptx_free(pm);
    }
}

/* setmaxnreg is counted in the result, and a bad count faults. */
static void maxnreg(void)
{
    static const char *const src =
        PI_HEAD ".visible .entry k()\n{\n"
        "setmaxnreg.dec.sync.aligned.u32 40;\n"
        "setmaxnreg.inc.sync.aligned.u32 232;\n"
        "setmaxnreg.inc.sync.aligned.u32 160;\n"
        "ret;\n}\n"
        ".visible .entry bad()\n{\n"
        "setmaxnreg.inc.sync.aligned.u32 100;\nret;\n}\n";
    wm_ptx_module *m = pi_parse(src, "nreg.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 3;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = 256;
    l.block[1] = l.block[2] = 1;
    l.threads = 2;
    l.max_steps = 1000;
    wm_ptx_result res;
    wm_ptx_fault ft;
    CHECK_EQ(twin_run(m, 0, &l, NULL, &res, &ft), WM_OK);
    CHECK_EQ(res.setmaxnreg, 3 * 8 * 3); /* CTAs x warps x instructions */
    CHECK_EQ(res.maxnreg_inc, 232);
    CHECK_EQ(res.maxnreg_dec, 40);
    CHECK_EQ(twin_run(m, 1, &l, NULL, &res, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "setmaxnreg register count 100 is not a multiple "
                         "of 8 in 24 .. 256") != NULL);
    CHECK_EQ(ft.ptx_line, 13);
    wm_ptx_free(m);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK);
    srand(26);
    every_type();
    every_layout();
    every_n();
    by_hand();
    hand_counts();
    faults();
    maxnreg();
    return check_done("test_ptx_wgmma");
}
