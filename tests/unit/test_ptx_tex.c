/*
 * test_ptx_tex.c -- texture and surface objects (src/ptx/exec/ptx_tex.c): the
 * kernels of tests/corpus/tex.cu in every build against a CPU reference of
 * the filtering the CUDA programming guide documents (written here
 * independently of the interpreter), hand counts of texture sectors, the
 * surface boundary modes, handle faults, and hand-written PTX for the
 * forms nvcc emits less often (tex.3d, txq/suq, suld .v4.b8 .zero).
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_twin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wm_arch arch;

/* -G builds call the CUDA header's texture functions instead of inlining
   them: the instruction's own line is the header's */
static int debug_build;

/* The statistics of source line `line` of tex.cu in space sp / op; in a
   -G build, of every site of that space and op (one call site each). */
static wm_stats at_line(const wm_agg *g, unsigned line, wm_space sp, wm_op op) {
    if (!debug_build)
        return pi_line(g, "tex.cu", line, sp, op);
    wm_stats t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; g && i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        if (s.space != sp || s.op != op)
            continue;
        t.requests += s.stats.requests;
        t.sectors += s.stats.sectors;
        t.ideal_sectors += s.stats.ideal_sectors;
        t.bytes += s.stats.bytes;
    }
    return t;
}

static wm_ptx_module *load(const char *build)
{
    return pi_corpus("tex", build);
}

/* Run kernel name with the arguments of pl and the textures tx. */
static wm_status trun(const wm_ptx_module *m, const char *name,
                      const pi_launch *pl, const wm_ptx_texture *tx, size_t ntx,
                      wm_agg **agg, wm_ptx_fault *ft) {
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    if (k < 0)
        return WM_ERR_ARG;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, pl->grid, sizeof l.grid);
    memcpy(l.block, pl->block, sizeof l.block);
    l.args = pl->args;
    l.nargs = pl->nargs;
    l.textures = tx;
    l.ntextures = ntx;
    l.threads = 1;
    l.max_steps = 1000000;
    wm_agg *g = agg ? wm_agg_new(&arch) : NULL;
    wm_ptx_fault f;
    wm_status st = twin_run(m, (size_t)k, &l, g, NULL, ft ? ft : &f);
    if (st != WM_OK && !ft)
        fprintf(stderr, "%s: %s\n", name, f.msg);
    if (agg)
        *agg = g;
    return st;
}

static void pi_u64(pi_launch *l, uint64_t v) {
    l->args[l->nargs].scalar = v;
    l->args[l->nargs].size = 8;
    l->nargs++;
}

static wm_ptx_texture tex2(void *data, size_t bytes, unsigned w, unsigned h,
                           wm_ptx_type f, unsigned ch) {
    wm_ptx_texture t;
    memset(&t, 0, sizeof t);
    t.data = data;
    t.bytes = bytes;
    t.dims = h > 1 ? 2 : 1;
    t.width = w;
    t.height = h;
    t.depth = 1;
    t.format = f;
    t.channels = ch;
    t.address[0] = t.address[1] = t.address[2] = WM_PTX_ADDR_CLAMP;
    return t;
}

/* ---- the reference: CUDA programming guide, "Texture Fetching" ---------- */

/* index i of n texels under mode, -1 for a border texel */
static long ref_index(wm_ptx_addr_mode mode, int norm, long i, long n) {
    if (i >= 0 && i < n)
        return i;
    switch (mode) {
    case WM_PTX_ADDR_BORDER: return -1;
    case WM_PTX_ADDR_WRAP:
        if (norm)
            return ((i % n) + n) % n;
        break;
    case WM_PTX_ADDR_MIRROR:
        if (norm) { /* ... n-1 n-1 ... 1 0 | 0 1 ... n-1 | n-1 ... */
            long period = 2 * n, p = ((i % period) + period) % period;
            return p < n ? p : period - 1 - p;
        }
        break;
    case WM_PTX_ADDR_CLAMP: break;
    }
    return i < 0 ? 0 : n - 1;
}

/* the coordinate in texels: wrap takes frac(x), mirror reflects it, both
   on normalized coordinates, which are then scaled by n */
static double ref_coord(wm_ptx_addr_mode mode, int norm, float x, long n) {
    double u = (double)x;
    if (!norm)
        return u;
    double f = floor(u);
    if (mode == WM_PTX_ADDR_WRAP)
        u = u - f;
    else if (mode == WM_PTX_ADDR_MIRROR)
        u = ((long)f % 2 != 0) ? 1.0 - (u - f) : u - f;
    return u * (double)n;
}

static float ref_texel(const float *T, long w, long h, long i, long j,
                       const wm_ptx_texture *t) {
    long a = ref_index(t->address[0], t->normalized_coords, i, w);
    long b = ref_index(t->address[1], t->normalized_coords, j, h);
    return a < 0 || b < 0 ? 0.0f : T[b * w + a];
}

/* tex2D of a one-channel float texture at (x, y) */
static float ref_tex2d(const float *T, const wm_ptx_texture *t, float x,
                       float y) {
    long w = t->width, h = t->height;
    double u = ref_coord(t->address[0], t->normalized_coords, x, w);
    double v = ref_coord(t->address[1], t->normalized_coords, y, h);
    if (t->filter == WM_PTX_FILTER_POINT)
        return ref_texel(T, w, h, (long)floor(u), (long)floor(v), t);
    /* xB = x - 0.5, i = floor(xB), alpha = frac(xB) in 1/256 steps */
    double xb = u - 0.5, yb = v - 0.5;
    long i = (long)floor(xb), j = (long)floor(yb);
    double al = nearbyint((xb - floor(xb)) * 256.0) / 256.0;
    double be = nearbyint((yb - floor(yb)) * 256.0) / 256.0;
    double t00 = (double)ref_texel(T, w, h, i, j, t);
    double t10 = (double)ref_texel(T, w, h, i + 1, j, t);
    double t01 = (double)ref_texel(T, w, h, i, j + 1, t);
    double t11 = (double)ref_texel(T, w, h, i + 1, j + 1, t);
    return (float)((1 - al) * (1 - be) * t00 + al * (1 - be) * t10 +
                   (1 - al) * be * t01 + al * be * t11);
}

static int close_to(float a, float b) {
    return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(b));
}

/* ---- corpus kernels -------------------------------------------------------
 */

/* out[i] = tex1Dfetch(t, 2i): clamp and border past the end; 32 texels
   8 bytes apart per warp = 256 bytes = 8 sectors per request */
static void fetch_strided(wm_ptx_module *m) {
    enum { NT = 2000, N = 1024 };
    static float T[NT], out[N];
    for (int i = 0; i < NT; i++)
        T[i] = (float)(i * 3 % 101) - 50.0f;
    for (int mode = 0; mode < 2; mode++) {
        wm_ptx_texture t = tex2(T, sizeof T, NT, 1, WM_PTX_F32, 1);
        t.address[0] = mode ? WM_PTX_ADDR_BORDER : WM_PTX_ADDR_CLAMP;
        pi_launch l = pi_dims(N / 256, 256);
        pi_u64(&l, wm_ptx_texture_handle(0));
        pi_buf(&l, out, sizeof out);
        pi_u32(&l, N);
        wm_agg *g = NULL;
        CHECK_EQ(trun(m, "_Z13fetch_stridedyPfi", &l, &t, 1, &g, NULL), WM_OK);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            float want = 2 * i < NT ? T[2 * i] : mode ? 0.0f : T[NT - 1];
            bad += out[i] != want;
        }
        CHECK_EQ(bad, 0);
        wm_stats s = at_line(g, 12, WM_SPACE_TEXTURE, WM_OP_LD);
        CHECK_EQ(s.requests, 32);
        /* 31 warps of 8 sectors; the last (i 992..1023, texels 1984..2046)
           reads 8 texels 1984..1998 (2 sectors) and 24 border or clamped
           ones: border reads nothing more, clamp texel 1999 24 times */
        CHECK_EQ(s.sectors, 31 * 8 + 2);
        CHECK_EQ(s.bytes, (mode ? (uint64_t)(N - 24) * 4 : (uint64_t)N * 4));
        wm_stats gs = pi_line(g, "tex.cu", 12, WM_SPACE_GLOBAL, WM_OP_LD);
        CHECK_EQ(gs.requests, 0); /* texture traffic, not global */
        wm_agg_free(g);
    }
}

/* resample: every filter and address mode against the reference */
static void resample(wm_ptx_module *m) {
    enum { TW = 37, TH = 23, W = 64, H = 40 };
    static float T[TW * TH], out[W * H];
    uint64_t s = 12345;
    for (int i = 0; i < TW * TH; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        T[i] = (float)(s >> 40) / 16777216.0f * 4.0f - 2.0f;
    }
    static const wm_ptx_addr_mode modes[] = {
        WM_PTX_ADDR_CLAMP, WM_PTX_ADDR_BORDER, WM_PTX_ADDR_WRAP,
        WM_PTX_ADDR_MIRROR};
    for (int norm = 0; norm < 2; norm++)
        for (int f = 0; f < 2; f++)
            for (int md = 0; md < 4; md++) {
                wm_ptx_texture t = tex2(T, sizeof T, TW, TH, WM_PTX_F32, 1);
                t.filter = f ? WM_PTX_FILTER_LINEAR : WM_PTX_FILTER_POINT;
                t.normalized_coords = norm;
                t.address[0] = t.address[1] = modes[md];
                /* past both edges: unnormalized from -3.2 to 47.2 texels,
                   normalized from -0.4 to 2.75 */
                float sx = norm ? 0.05f : 0.8f, sy = norm ? 0.07f : 0.6f;
                pi_launch l = pi_dims(W / 32, 32);
                l.grid[1] = H / 8;
                l.block[1] = 8;
                pi_u64(&l, wm_ptx_texture_handle(0));
                pi_buf(&l, out, sizeof out);
                pi_u32(&l, W);
                pi_u32(&l, H);
                pi_f32(&l, sx);
                pi_f32(&l, sy);
                CHECK_EQ(trun(m, "_Z8resampleyPfiiff", &l, &t, 1, NULL, NULL),
                         WM_OK);
                int bad = 0;
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++) {
                        /* the kernel's coordinates, as the GPU rounds them */
                        float cx = (float)x * sx, cy = (float)y * sy;
                        bad +=
                            !close_to(out[y * W + x], ref_tex2d(T, &t, cx, cy));
                    }
                CHECK_EQ(bad, 0);
                if (bad)
                    fprintf(stderr, "  resample: norm %d filter %d mode %d\n",
                            norm, f, md);
            }
}

/* resample at integer texel coordinates with the linear filter: each
   lane reads texels x-1, x of rows y-1, y (clamped).  Hand count for a
   64 x 8 output with blocks of 32 x 8 (16 warps, one per row y):
   block 0 reads texels 0..31 (4 sectors) of one row for y = 0 and of two
   rows for y = 1..7: 4 + 7 * 8 = 60; block 1 reads texels 31..63 (5
   sectors, 31 in the sector of 24..31): 5 + 7 * 10 = 75; 135 in all.
   Requested bytes: 1 lane x 4 texels x 4 bytes each, ideal 16 sectors. */
static void resample_count(wm_ptx_module *m) {
    enum { W = 64, H = 8 };
    static float T[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        T[i] = (float)i;
    wm_ptx_texture t = tex2(T, sizeof T, W, H, WM_PTX_F32, 1);
    t.filter = WM_PTX_FILTER_LINEAR;
    pi_launch l = pi_dims(2, 32);
    l.block[1] = 8;
    pi_u64(&l, wm_ptx_texture_handle(0));
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, W);
    pi_u32(&l, H);
    pi_f32(&l, 1.0f);
    pi_f32(&l, 1.0f);
    wm_agg *g = NULL;
    CHECK_EQ(trun(m, "_Z8resampleyPfiiff", &l, &t, 1, &g, NULL), WM_OK);
    wm_stats s = at_line(g, 22, WM_SPACE_TEXTURE, WM_OP_LD);
    CHECK_EQ(s.requests, 16);
    CHECK_EQ(s.sectors, 135);
    CHECK_EQ(s.bytes, 16 * 32 * 4 * 4);
    CHECK_EQ(s.ideal_sectors, 16 * 16);
    /* at (x, y) the weights are 1/2: the mean of the four texels */
    CHECK(out[3 * W + 5] ==
          (T[2 * W + 4] + T[2 * W + 5] + T[3 * W + 4] + T[3 * W + 5]) / 4.0f);
    CHECK(out[0] == T[0]);
    wm_agg_free(g);
}

/* RGBA8 texels read as normalized floats */
static void luminance(wm_ptx_module *m) {
    enum { W = 40, H = 9 };
    static uint8_t T[W * H * 4];
    static float out[W * H];
    for (int i = 0; i < W * H * 4; i++)
        T[i] = (uint8_t)(i * 37 + 11);
    wm_ptx_texture t = tex2(T, sizeof T, W, H, WM_PTX_U8, 4);
    t.read_normalized = 1;
    pi_launch l = pi_dims(2, 32);
    l.grid[1] = 2;
    l.block[1] = 8;
    pi_u64(&l, wm_ptx_texture_handle(0));
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, W);
    pi_u32(&l, H);
    CHECK_EQ(trun(m, "_Z9luminanceyPfii", &l, &t, 1, NULL, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < W * H; i++) {
        const uint8_t *c = T + 4 * i;
        float want = 0.25f * (c[0] / 255.0f) + 0.5f * (c[1] / 255.0f) +
                     0.25f * (c[2] / 255.0f) + c[3] / 255.0f;
        bad += !close_to(out[i], want);
    }
    CHECK_EQ(bad, 0);
}

/* tex2Dgather, green channel: (i, j+1) (i+1, j+1) (i+1, j) (i, j) */
static void gather_green(wm_ptx_module *m) {
    enum { W = 20, H = 12 };
    static float T[W * H * 2], out[W * H * 4];
    for (int i = 0; i < W * H * 2; i++)
        T[i] = (float)(i % 2 ? i : -i);
    wm_ptx_texture t = tex2(T, sizeof T, W, H, WM_PTX_F32, 2);
    pi_launch l = pi_dims(1, 32);
    l.grid[1] = 2;
    l.block[1] = 8;
    pi_u64(&l, wm_ptx_texture_handle(0));
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, W);
    pi_u32(&l, H);
    CHECK_EQ(trun(m, "_Z12gather_greenyP6float4ii", &l, &t, 1, NULL, NULL),
             WM_OK);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int x1 = x + 1 < W ? x + 1 : W - 1, y1 = y + 1 < H ? y + 1 : H - 1;
            const float want[4] = {
                T[(y1 * W + x) * 2 + 1], T[(y1 * W + x1) * 2 + 1],
                T[(y * W + x1) * 2 + 1], T[(y * W + x) * 2 + 1]};
            for (int k = 0; k < 4; k++)
                bad += out[(y * W + x) * 4 + k] != want[k];
        }
    CHECK_EQ(bad, 0);
}

/* surfaces: dst = k (src(x) + src(x+1, clamped)); 33 x 5 floats, rows
   132 bytes apart.  Hand count of the store: block 0 writes bytes
   132y .. 132y+127 of rows 0..4: 4 + 5 + 5 + 5 + 5 sectors; block 1 one
   float per row: 5; 29 sectors in 10 requests. */
static void surf_stencil(wm_ptx_module *m) {
    enum { W = 33, H = 5 };
    static float src[W * H], dst[W * H];
    for (int i = 0; i < W * H; i++) {
        src[i] = (float)(i % 13) - 4.0f;
        dst[i] = -99.0f;
    }
    wm_ptx_texture t[2] = {tex2(src, sizeof src, W, H, WM_PTX_F32, 1),
                           tex2(dst, sizeof dst, W, H, WM_PTX_F32, 1)};
    t[0].surface = t[1].surface = 1;
    pi_launch l = pi_dims(2, 32);
    l.block[1] = 8;
    pi_u64(&l, wm_ptx_texture_handle(0));
    pi_u64(&l, wm_ptx_texture_handle(1));
    pi_u32(&l, W);
    pi_u32(&l, H);
    pi_f32(&l, 0.5f);
    wm_agg *g = NULL;
    CHECK_EQ(trun(m, "_Z12surf_stencilyyiif", &l, t, 2, &g, NULL), WM_OK);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int xr = x + 1 < W ? x + 1 : W - 1;
            bad += dst[y * W + x] != 0.5f * (src[y * W + x] + src[y * W + xr]);
        }
    CHECK_EQ(bad, 0);
    wm_stats s = at_line(g, 56, WM_SPACE_SURFACE, WM_OP_ST);
    CHECK_EQ(s.requests, 10);
    CHECK_EQ(s.sectors, 29);
    wm_agg_free(g);
    /* a plain read one column past the surface: .trap faults */
    l.args[2].scalar = W + 1;
    wm_ptx_fault ft;
    CHECK_EQ(trun(m, "_Z12surf_stencilyyiif", &l, t, 2, NULL, &ft),
             WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "out-of-bounds surface load of 4 bytes at (x 132 "
                         "bytes, y 0, z 0)") != NULL);
    CHECK_EQ(debug_build ? ft.call_line : ft.line, 54);
    /* a texture handle where a surface is expected, a buffer pointer */
    l.args[2].scalar = W;
    l.args[0].scalar = wm_ptx_texture_handle(2);
    wm_ptx_texture three[3] = {t[0], t[1], t[0]};
    three[2].surface = 0;
    CHECK_EQ(trun(m, "_Z12surf_stencilyyiif", &l, three, 3, NULL, &ft),
             WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "surface access through the handle of texture 2") !=
          NULL);
    l.args[0].scalar = 0x12345678;
    CHECK_EQ(trun(m, "_Z12surf_stencilyyiif", &l, t, 2, NULL, &ft),
             WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "0x12345678, which is no surface object handle") !=
          NULL);
}

/* ---- hand-written PTX: tex.3d, txq/suq, suld.v4.b8.zero ---------------- */

static const char *const hand_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 out)\n{\n"
    "  .reg .b32 %r<12>; .reg .f32 %f<8>; .reg .b64 %rd<6>;\n"
    "  .reg .b16 %rs<5>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [s];\n"
    "  ld.param.u64 %rd3, [out]; mov.u32 %r1, %tid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r1; add.f32 %f1, %f1, 0f3F000000;\n"
    "  mov.f32 %f2, 0f3FC00000; mov.f32 %f3, 0f40200000;\n"
    "  tex.3d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2, %f3, %f3}];\n"
    "  txq.width.b32 %r2, [%rd1]; txq.depth.b32 %r3, [%rd1];\n"
    "  suq.height.b32 %r4, [%rd2];\n"
    "  shl.b32 %r5, %r1, 2;\n"
    "  suld.b.1d.v4.b8.zero {%rs1, %rs2, %rs3, %rs4}, [%rd2, {%r5}];\n"
    "  cvt.u32.u16 %r6, %rs4;\n"
    "  mul.wide.u32 %rd4, %r1, 32; add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.v4.b32 [%rd5], {%r2, %r3, %r4, %r6};\n"
    "  st.global.f32 [%rd5+16], %f4;\n"
    "  ret;\n}\n";

static void hand(void) {
    wm_ptx_module *m = pi_parse(hand_ptx, "hand.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    enum { X = 4, Y = 3, Z = 5 };
    static float T[X * Y * Z];
    static uint8_t S[6 * 4];
    for (int i = 0; i < X * Y * Z; i++)
        T[i] = (float)i;
    for (int i = 0; i < 24; i++)
        S[i] = (uint8_t)(i + 1);
    wm_ptx_texture t[2];
    t[0] = tex2(T, sizeof T, X, Y, WM_PTX_F32, 1);
    t[0].dims = 3;
    t[0].depth = Z;
    t[1] = tex2(S, sizeof S, 6, 1, WM_PTX_U8, 4);
    t[1].surface = 1;
    uint32_t out[8 * 8];
    pi_launch l = pi_dims(1, 8);
    pi_u64(&l, wm_ptx_texture_handle(0));
    pi_u64(&l, wm_ptx_texture_handle(1));
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(trun(m, "k", &l, t, 2, NULL, NULL), WM_OK);
    for (unsigned i = 0; i < 8; i++) {
        CHECK_EQ(out[8 * i], X);
        CHECK_EQ(out[8 * i + 1], Z);
        CHECK_EQ(out[8 * i + 2], 1);
        /* byte 3 of texel i of the surface; .zero past its 6 texels */
        CHECK_EQ(out[8 * i + 3], (i < 6 ? 4 * i + 4 : 0));
        /* point sample at (i + 0.5, 1.5, 2.5), x clamped to 3 */
        float want = T[(2 * Y + 1) * X + (i < X ? i : X - 1)], got;
        memcpy(&got, &out[8 * i + 4], 4);
        CHECK(got == want);
    }
    wm_ptx_free(m);
}

/* wm_ptx_run refuses malformed textures before running */
static void launch_checks(wm_ptx_module *m) {
    float T[16] = {0}, out[32];
    pi_launch l = pi_dims(1, 32);
    pi_u64(&l, wm_ptx_texture_handle(0));
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, 32);
    wm_ptx_texture t = tex2(T, sizeof T, 32, 1, WM_PTX_F32, 1);
    wm_ptx_fault ft;
    CHECK_EQ(trun(m, "_Z13fetch_stridedyPfi", &l, &t, 1, NULL, &ft),
             WM_ERR_ARG);
    CHECK(strstr(ft.msg, "texture 0: 64 bytes of data for 32 texels") != NULL);
    t = tex2(T, sizeof T, 16, 1, WM_PTX_I32, 1);
    t.filter = WM_PTX_FILTER_LINEAR;
    CHECK_EQ(trun(m, "_Z13fetch_stridedyPfi", &l, &t, 1, NULL, &ft),
             WM_ERR_ARG);
    CHECK(strstr(ft.msg, "linear filtering of i32 texels") != NULL);
}

int main(void) {
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    static const char *const builds[] = {"sm_80", "sm_90", "G_sm_80",
                                         "G_sm_90"};
    for (size_t b = 0; b < 4; b++) {
        wm_ptx_module *m = load(builds[b]);
        if (!m)
            continue;
        int before = check_failures;
        debug_build = builds[b][0] == 'G';
        fetch_strided(m);
        resample(m);
        resample_count(m);
        luminance(m);
        gather_green(m);
        surf_stencil(m);
        launch_checks(m);
        if (check_failures != before)
            fprintf(stderr, "  ^ build %s\n", builds[b]);
        wm_ptx_free(m);
    }
    hand();
    return check_done("test_ptx_tex");
}
