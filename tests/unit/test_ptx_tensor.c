/*
 * test_ptx_tensor.c -- mma.sync and ldmatrix in the PTX interpreter,
 * against C references written from the PTX ISA's fragment tables
 * (PTX ISA 9.7.14.5.8 "Matrix fragments for mma.m16n8k16 with floating
 * point type", .5.7 for m16n8k8 (f16/bf16, tf32), and 9.7.14.5.15
 * ldmatrix), on tests/ptx/tensor.ptx (inline-PTX kernels from tensor.cu).
 * Notation of the ISA: groupID g = lane >> 2, threadID_in_group t =
 * lane % 4.  The inputs are small integers and halves, so every product
 * and sum is exact in f32 and the results must match bit for bit.  Every
 * launch also runs with the fast paths off and must agree (ptx_twin.h).
 */
#include "check.h"
#include "ptx_twin.h"
#include "warpmem.h"

#include <stdlib.h>
#include <string.h>

static wm_ptx_module *mod;
static wm_arch arch;

static wm_ptx_module *load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ptx/%s", WM_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char src[1 << 17];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, n, path, &m, &d) != WM_OK)
        wm_diag_print(stderr, &d, path, src, n);
    return m;
}

/* Run kernel name on one warp with the given buffers; agg in *g. */
static wm_status run(const char *name, void *const *bufs, const size_t *bytes,
                     size_t nbufs, wm_agg **g)
{
    long k = wm_ptx_find_kernel(mod, name);
    CHECK(k >= 0);
    if (k < 0)
        return WM_ERR_ARG;
    wm_ptx_arg args[4];
    memset(args, 0, sizeof args);
    for (size_t i = 0; i < nbufs; i++) {
        args[i].buf = bufs[i];
        args[i].bytes = bytes[i];
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 32;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = nbufs;
    l.threads = 1;
    l.max_steps = 100000;
    *g = wm_agg_new(&arch);
    wm_ptx_fault ft;
    wm_status st = twin_run(mod, (size_t)k, &l, *g, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s (PTX line %u)\n", name, ft.msg, ft.ptx_line);
    return st;
}

/* ---- number formats (exact for the small values used) --------------------- */

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* binary16 of v = m / 2 with |m| < 2048: exact. */
static uint16_t half_of(float v)
{
    if (v == 0.0f)
        return 0;
    uint32_t u = fbits(v);
    uint32_t sign = (u >> 16) & 0x8000u;
    int e = (int)((u >> 23) & 0xff) - 127;
    uint32_t man = u & 0x7fffffu;
    return (uint16_t)(sign | (uint32_t)(e + 15) << 10 | man >> 13);
}

/* bfloat16: the top half of the f32 (exact for these values). */
static uint16_t bf16_of(float v)
{
    return (uint16_t)(fbits(v) >> 16);
}

/* ---- mma -------------------------------------------------------------------- */

enum { F16, BF16, TF32 };

/* Value of the test matrices: small integers and halves, some negative. */
static float aval(int r, int c) { return (float)(((r * 7 + c * 3) % 9) - 4) * 0.5f; }
static float bval(int r, int c) { return (float)(((r * 5 + c * 11) % 7) - 3); }
static float cval(int r, int c) { return (float)((r * 8 + c) % 13 - 6); }

/* Position of fragment element i of lane l (ISA tables). */
static void a_pos(int fmt, int K, unsigned l, int i, int *r, int *c)
{
    int g = (int)(l >> 2), t = (int)(l & 3);
    if (fmt == TF32) { /* m16n8k8 .tf32: a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4) */
        *r = g + ((i == 1 || i == 3) ? 8 : 0);
        *c = t + (i >= 2 ? 4 : 0);
    } else if (K == 16) { /* a0,a1,a4,a5 row g; col 2t + (i & 1) (+8 for i >= 4) */
        *r = g + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0);
        *c = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
    } else { /* m16n8k8 f16: a0,a1 row g, a2,a3 row g+8; col 2t + (i & 1) */
        *r = g + (i >= 2 ? 8 : 0);
        *c = 2 * t + (i & 1);
    }
}

static void b_pos(int fmt, int K, unsigned l, int i, int *r, int *c)
{
    int g = (int)(l >> 2), t = (int)(l & 3);
    *c = g;
    if (fmt == TF32) /* b0 row t, b1 row t + 4 */
        *r = t + 4 * i;
    else if (K == 16) /* b0,b1 row 2t + (i & 1); b2,b3 the same + 8 */
        *r = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
    else
        *r = 2 * t + i;
}

/* c0,c1 row g, c2,c3 row g + 8; col 2t + (i & 1). */
static void c_pos(unsigned l, int i, int *r, int *c)
{
    *r = (int)(l >> 2) + (i >= 2 ? 8 : 0);
    *c = 2 * (int)(l & 3) + (i & 1);
}

static void test_mma(const char *name, int fmt, int K)
{
    uint32_t a[4 * 32], b[2 * 32];
    float c[4 * 32], d[4 * 32];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    int per_reg = fmt == TF32 ? 1 : 2; /* elements per 32-bit register */
    int na = (fmt == TF32 ? 4 : (K == 16 ? 8 : 4));
    int nb = (fmt == TF32 ? 2 : (K == 16 ? 4 : 2));
    for (unsigned l = 0; l < 32; l++) {
        for (int i = 0; i < na; i++) {
            int r, col;
            a_pos(fmt, K, l, i, &r, &col);
            float v = aval(r, col);
            uint32_t bits = fmt == TF32 ? fbits(v)
                            : fmt == BF16 ? bf16_of(v) : half_of(v);
            a[(unsigned)(i / per_reg) * 32 + l] |= bits << (16 * (i % per_reg));
        }
        for (int i = 0; i < nb; i++) {
            int r, col;
            b_pos(fmt, K, l, i, &r, &col);
            float v = bval(r, col);
            uint32_t bits = fmt == TF32 ? fbits(v)
                            : fmt == BF16 ? bf16_of(v) : half_of(v);
            b[(unsigned)(i / per_reg) * 32 + l] |= bits << (16 * (i % per_reg));
        }
        for (int i = 0; i < 4; i++) {
            int r, col;
            c_pos(l, i, &r, &col);
            c[(unsigned)i * 32 + l] = cval(r, col);
        }
    }
    memset(d, 0xff, sizeof d);
    void *bufs[4] = {a, b, c, d};
    size_t bytes[4] = {sizeof a, sizeof b, sizeof c, sizeof d};
    wm_agg *g = NULL;
    CHECK_EQ(run(name, bufs, bytes, 4, &g), WM_OK);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            int r, col;
            c_pos(l, i, &r, &col);
            float want = cval(r, col);
            for (int k = 0; k < K; k++)
                want += aval(r, k) * bval(k, col);
            if (d[(unsigned)i * 32 + l] != want) {
                if (bad++ < 4)
                    fprintf(stderr, "%s: lane %u d%d (row %d col %d) = %g, "
                                    "want %g\n",
                            name, l, i, r, col, (double)d[(unsigned)i * 32 + l],
                            (double)want);
            }
        }
    CHECK_EQ(bad, 0);
    wm_agg_free(g);
}

/* ---- ldmatrix ----------------------------------------------------------------- */

/* Lane l addresses row perm(l) of the shared array (see tensor.cu). */
static unsigned perm(unsigned l)
{
    return (l & ~7u) | ((3 * l) & 7u);
}

static void test_ldmatrix(const char *name, unsigned n, int trans,
                          unsigned pitch, unsigned want_wavefronts)
{
    uint16_t src[32 * 16];
    uint32_t out[4 * 32];
    for (unsigned i = 0; i < 32 * 16; i++)
        src[i] = (uint16_t)(i * 7 + 3);
    memset(out, 0, sizeof out);
    void *bufs[2] = {src, out};
    size_t bytes[2] = {sizeof src, n * 32 * 4};
    wm_agg *g = NULL;
    CHECK_EQ(run(name, bufs, bytes, 2, &g), WM_OK);
    int bad = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned l = 0; l < 32; l++) {
            /* matrix i, element (r, c) = row perm(8 i + r) of the array,
               half c; thread l holds row l / 4, cols 2 (l % 4) and + 1,
               or with .trans the transposed matrix's */
            unsigned r = l / 4, c = 2 * (l % 4);
            uint16_t lo, hi;
#define M(rr, cc) src[perm(8 * i + (rr)) * (pitch / 2) + (cc)]
            if (trans) {
                lo = M(c, r);
                hi = M(c + 1, r);
            } else {
                lo = M(r, c);
                hi = M(r, c + 1);
            }
#undef M
            uint32_t want = (uint32_t)lo | (uint32_t)hi << 16;
            if (out[i * 32 + l] != want && bad++ < 4)
                fprintf(stderr, "%s: matrix %u lane %u = %08x, want %08x\n",
                        name, i, l, out[i * 32 + l], want);
        }
    CHECK_EQ(bad, 0);
    /* the memory statistics: one LDSM site; 8 lanes x 16 B per matrix,
       each matrix one phase: 128 B = 1 wavefront when its rows fill the
       32 banks, 2 when rows 4 apart share banks (pitch 32) */
    size_t found = 0;
    for (size_t s = 0; s < wm_agg_nsites(g); s++) {
        wm_site st;
        wm_agg_site(g, s, &st);
        if (st.op != WM_OP_LDSM)
            continue;
        found++;
        CHECK_EQ(st.space, WM_SPACE_SHARED);
        CHECK_EQ(st.stats.requests, 1);
        CHECK_EQ(st.stats.active_lanes, 8 * n);
        CHECK_EQ(st.stats.bytes, 128 * n);
        CHECK_EQ(st.stats.wavefronts, want_wavefronts);
        CHECK_EQ(st.stats.ideal_wavefronts, n);
        CHECK_EQ(st.stats.conflicts, want_wavefronts - n);
    }
    CHECK_EQ(found, 1);
    wm_agg_free(g);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    mod = load("tensor.ptx");
    CHECK(mod != NULL);
    if (!mod)
        return check_done("test_ptx_tensor");
    test_mma("mma_f16_k16", F16, 16);
    test_mma("mma_bf16_k16", BF16, 16);
    test_mma("mma_f16_k8", F16, 8);
    test_mma("mma_tf32_k8", TF32, 8);
    test_ldmatrix("ldsm_x1", 1, 0, 16, 1);
    test_ldmatrix("ldsm_x1_trans", 1, 1, 16, 1);
    test_ldmatrix("ldsm_x2", 2, 0, 16, 2);
    test_ldmatrix("ldsm_x2_trans", 2, 1, 16, 2);
    test_ldmatrix("ldsm_x4", 4, 0, 16, 4);
    test_ldmatrix("ldsm_x4_trans", 4, 1, 16, 4);
    test_ldmatrix("ldsm_x4_pitch32", 4, 0, 32, 8);
    wm_ptx_free(mod);
    return check_done("test_ptx_tensor");
}
