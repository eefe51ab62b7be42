/*
 * test_corpus.c -- the regression corpus (the .cu files of tests/corpus/,
 * compiled by scripts/gen-ptx.sh at -O3 -lineinfo and at -G, for sm_80
 * and sm_90):
 * every kernel runs in every build, its functional result is checked
 * against a CPU reference, and at least one per-line number against a
 * hand count.  Each case is a few lines on top of the helpers below and
 * of corpus_case.h.  The kernels written on the toolkit's libraries (CUB,
 * cooperative groups, libcu++, __int128) are test_corpus_lib.c's, the
 * Triton kernels of tests/corpus/triton test_corpus_triton.c's.
 */
#include "check.h"
#include "corpus_case.h"
#include "ptx_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- cases ------------------------------------------------------------ */

static void cg_reduce(const char *b)
{
    enum { N = 1000 };
    static float in[N];
    float out[2] = {0, 0};
    double ref = 0;
    for (int i = 0; i < N; i++)
        ref += (double)(in[i] = (float)(i % 17) - 8.0f);
    pi_launch l = pi_dims(4, 256);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun("cg_reduce", b, "cg_reduce", &l, &g), WM_OK);
    CHECK(fabs((double)out[0] - ref) < 1e-3);
    CHECK(out[1] == 8.0f); /* (256 + warpSize - 1) / warpSize */
    /* in[i]: 1000 floats = 125 sectors over 32 requests (31 full warps of
       4 sectors, the last with 8 lanes in 1 sector) */
    wm_stats s = pi_line(g, "cg_reduce.cu", 13, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(s.requests, 32);
    CHECK_EQ(s.sectors, 125);
    wm_agg_free(g);
}

static void reserved_smem(const char *b)
{
    uint32_t out[6] = {9, 9, 9, 9, 9, 9};
    pi_launch l = pi_dims(2, 96);
    pi_buf(&l, out, sizeof out);
    wm_agg *g = NULL;
    CHECK_EQ(crun("reserved_smem", b, "reserved_smem", &l, &g), WM_OK);
    CHECK_EQ(out[0], 1);    /* begin is past the kernel's 160 bytes */
    CHECK_EQ(out[1], 1024); /* end - begin */
    CHECK_EQ(out[2], 1024); /* cap */
    CHECK_EQ(out[3], 1);    /* offset_1 inside the area */
    CHECK_EQ(out[4], 3);    /* three warps counted themselves */
    CHECK_EQ(out[5], 21);
    /* user[threadIdx.x] = ..., threads 0..39: per CTA warp 0 (32 lanes)
       and warp 1 (8 lanes), consecutive words: one wavefront each */
    wm_stats s = pi_line(g, "reserved_smem.cu", 15, WM_SPACE_SHARED,
                         WM_OP_ST);
    CHECK_EQ(s.requests, 4);
    CHECK_EQ(s.wavefronts, 4);
    wm_agg_free(g);
}

/* Hopper: plain code beside TMA/wgmma kernels; bulk copies on an
   mbarrier; a TMA load through a map of zero bytes faults at its line. */
static void hopper(const char *b)
{
    float x[100];
    for (int i = 0; i < 100; i++)
        x[i] = (float)i;
    pi_launch l = pi_dims(1, 128);
    pi_buf(&l, x, sizeof x);
    float a = 1.5f;
    uint32_t au;
    memcpy(&au, &a, 4);
    pi_u32(&l, au);
    pi_u32(&l, 100);
    CHECK_EQ(crun("hopper", b, "scale", &l, NULL), WM_OK);
    for (int i = 0; i < 100; i++)
        CHECK(x[i] == 1.5f * (float)i);

    static float in[512], out[512];
    for (int i = 0; i < 512; i++)
        in[i] = (float)(i * 3 % 7);
    l = pi_dims(2, 256);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    wm_agg *g = NULL;
    CHECK_EQ(crun("hopper", b, "bulk_copy", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 0; i < 512; i++)
        bad += out[i] != 2.0f * in[i];
    CHECK_EQ(bad, 0);
    /* out[...] = 2 * buf[threadIdx.x]: 16 warps, 1 wavefront and 4
       sectors each; the bulk copy itself is not LSU traffic */
    wm_stats s = pi_line(g, "hopper.cu", 44, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(s.requests, 16);
    CHECK_EQ(s.wavefronts, 16);
    s = pi_line(g, "hopper.cu", 44, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.sectors, 64);
    CHECK_EQ(wm_agg_nsites(g), 2);
    wm_agg_free(g);

    static uint8_t tmap[128];
    l = pi_dims(1, 128);
    l.args[0].value = tmap;
    l.args[0].size = sizeof tmap;
    l.nargs = 1;
    pi_buf(&l, out, sizeof out);
    wm_ptx_module *m = pi_corpus("hopper", b);
    wm_ptx_fault ft;
    if (m) {
        /* TMA runs (test_ptx_tma.c): zero bytes are no tensor map */
        CHECK_EQ(pi_run(m, "tma_wgmma", &l, &ft), WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "no tensor map warpmem encoded") != NULL);
        CHECK_EQ(ft.line, 61); /* where nvcc puts the asm statement */
        CHECK(strstr(ft.file, "hopper.cu") != NULL);
    }
    wm_ptx_free(m);
}

/* Calls: arguments and returns, recursion, a function pointer, a callee
   storing to global memory (its line), and the depth limit. */
static unsigned tri_ref(unsigned n)
{
    return n * (n + 1) / 2;
}

static void noinline(const char *b)
{
    enum { N = 64 };
    float x[N], y[N];
    uint32_t t[N];
    int32_t z[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i - 20.5f;
    pi_launch l = pi_dims(2, 32);
    pi_buf(&l, x, sizeof x);
    pi_buf(&l, y, sizeof y);
    pi_buf(&l, t, sizeof t);
    pi_buf(&l, z, sizeof z);
    pi_u32(&l, 3);
    wm_agg *g = NULL;
    CHECK_EQ(crun("noinline", b, "calls", &l, &g), WM_OK);
    for (int i = 0; i < N; i++) {
        CHECK(y[i] == 2.0f * x[i] + 1.0f);
        CHECK_EQ(t[i], tri_ref((unsigned)(i % 32 % 8 + 3)));
        CHECK_EQ(z[i], i < 32 ? 2 * i : i * i);
    }
    /* *p = v in put() (line 23): one request of 4 sectors per warp */
    wm_stats s = pi_line(g, "noinline.cu", 23, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 2);
    CHECK_EQ(s.sectors, 8);
    wm_agg_free(g);
    if (b[0] != 'G')
        return; /* -O3 turns tri's recursion into a loop */
    /* tri(7 + 40) recurses 47 deep: past the limit of 32 frames */
    l.args[4].scalar = 40;
    wm_ptx_module *m = pi_corpus("noinline", b);
    wm_ptx_fault ft;
    if (m) {
        CHECK_EQ(pi_run(m, "calls", &l, &ft), WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "call depth limit of 32 exceeded calling tri "
                             "(unbounded recursion?)") != NULL);
        CHECK_EQ(ft.line, 13); /* the recursive call, in tri */
        CHECK_EQ(ft.call_line, 31); /* ... reached from the kernel's */
        CHECK(strstr(ft.call_file, "noinline.cu") != NULL);
    }
    wm_ptx_free(m);
}

/* Run with extra buffers and globals (pi_launch has no room for them). */
static wm_status crun_full(const char *file, const char *build,
                           const char *name, const pi_launch *pl,
                           const wm_ptx_arg *extra, size_t nextra,
                           const wm_ptx_global *gl, size_t ngl, wm_agg **agg,
                           wm_ptx_fault *ft)
{
    wm_ptx_module *m = pi_corpus(file, build);
    if (!m)
        return WM_ERR_PARSE;
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, pl->grid, sizeof l.grid);
    memcpy(l.block, pl->block, sizeof l.block);
    l.dyn_smem = pl->dyn_smem;
    l.args = pl->args;
    l.nargs = pl->nargs;
    l.extra = extra;
    l.nextra = nextra;
    l.globals = gl;
    l.nglobals = ngl;
    l.threads = 1;
    l.max_steps = 10000000;
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_fault f;
    if (k >= 0)
        twin_checked(m, (size_t)k, &l);
    wm_status st = k < 0 ? WM_ERR_ARG
                         : twin_run(m, (size_t)k, &l, g, NULL, ft ? ft : &f);
    if (st != WM_OK && !ft)
        fprintf(stderr, "%s_%s.ptx %s: %s\n", file, build, name, f.msg);
    if (agg)
        *agg = g;
    else
        wm_agg_free(g);
    wm_ptx_free(m);
    return st;
}

/* for_each(scale_into{x, y, 3}, n): the functor by value, its two
   pointers at extra buffers. */
static void for_each(const char *b)
{
    enum { N = 1000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 50) - 7.0f;
        y[i] = -1.0f;
    }
    wm_ptx_arg extra[2];
    memset(extra, 0, sizeof extra);
    extra[0].buf = x;
    extra[0].bytes = sizeof x;
    extra[1].buf = y;
    extra[1].bytes = sizeof y;
    uint8_t fn[24];
    memset(fn, 0, sizeof fn);
    uint64_t ax = wm_ptx_extra_address(2, 0), ay = wm_ptx_extra_address(2, 1);
    int32_t k = 3;
    memcpy(fn, &ax, 8);
    memcpy(fn + 8, &ay, 8);
    memcpy(fn + 16, &k, 4);
    pi_launch l = pi_dims(8, 128);
    l.args[0].value = fn;
    l.args[0].size = sizeof fn;
    l.nargs = 1;
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun_full("for_each", b, "for_each", &l, extra, 2, NULL, 0, &g,
                       NULL),
             WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != 3.0f * x[i];
    CHECK_EQ(bad, 0);
    /* 1000 floats: 31 full warps of 4 sectors and one of 8 lanes (1) */
    wm_stats s = pi_line(g, "for_each.cu", 8, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(s.requests, 32);
    CHECK_EQ(s.sectors, 125);
    wm_agg_free(g);
}

/* taps set by name before the run, the clipped counter read back. */
static void const_conv(const char *b)
{
    enum { N = 256 };
    static float in[N], out[N];
    const float taps[5] = {0.125f, 0.25f, 0.25f, 0.25f, 0.125f};
    uint32_t zero = 0, clipped = 99;
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    wm_ptx_global gl[2] = {{"taps", taps, NULL, sizeof taps},
                           {"clipped", &zero, &clipped, 4}};
    pi_launch l = pi_dims(2, 128);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun_full("const_conv", b, "const_conv", &l, NULL, 0, gl, 2, &g,
                       NULL),
             WM_OK);
    unsigned nclip = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float sum = 0.0f;
        for (int k = -2; k <= 2; k++) {
            int j = i + k < 0 ? 0 : i + k > N - 1 ? N - 1 : i + k;
            sum += taps[k + 2] * in[j];
        }
        if (sum > 100.0f) {
            sum = 100.0f;
            nclip++;
        }
        bad += out[i] != sum;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(clipped, nclip);
    CHECK_EQ(nclip, 155); /* i = 101..255 */
    /* out[i] = s: 8 warps of 4 sectors; ld.const is not counted */
    wm_stats s = pi_line(g, "const_conv.cu", 24, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 8);
    CHECK_EQ(s.sectors, 32);
    /* line 18: in[j] is 8 warps x 5 taps of 4.7 sectors (the clamped
       edges).  At -O3 taps[] is ld.const (LDC), not L1TEX traffic; at -G
       it is cvta.const + a generic ld, which ptxas keeps as a generic
       LD.E: the LSU sends it through L1TEX as a global access (the
       constant window is global memory), 1 sector for the warp's one
       word, so 40 more requests and sectors. */
    int g_build = strncmp(b, "G_", 2) == 0;
    s = pi_line(g, "const_conv.cu", 18, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(s.requests, g_build ? 80 : 40);
    CHECK_EQ(s.sectors, g_build ? 228 : 188);
    wm_agg_free(g);
    CHECK_EQ(wm_ptx_global_size(NULL, "taps"), -1);
}

/* assert(): silent while it holds, reported when it fails. */
static void assert_check(const char *b)
{
    enum { N = 64 };
    int32_t idx[N];
    float out[N];
    for (int i = 0; i < N; i++)
        idx[i] = i * 7 % N;
    pi_launch l = pi_dims(1, N);
    pi_buf(&l, idx, sizeof idx);
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun("assert_check", b, "assert_check", &l, &g), WM_OK);
    for (int i = 0; i < N; i++)
        CHECK(out[i] == (float)(i * 7 % N) * 0.5f);
    wm_stats s = pi_line(g, "assert_check.cu", 9, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(s.requests, 2);
    CHECK_EQ(s.sectors, 8);
    wm_agg_free(g);
    idx[37] = -4;
    wm_ptx_module *m = pi_corpus("assert_check", b);
    wm_ptx_fault ft;
    if (m) {
        CHECK_EQ(pi_run(m, "assert_check", &l, &ft), WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "device assert failed: j >= 0 && j < n "
                             "(assert_check.cu:10)") != NULL);
        CHECK_EQ(ft.thread[0], 37);
    }
    wm_ptx_free(m);
}

/* Several shared arrays, dynamic memory after them, zero accumulators. */
static void smem_multi(const char *b)
{
    int32_t in[128], out[8];
    for (int i = 0; i < 128; i++)
        in[i] = i * 3 - 50;
    pi_launch l = pi_dims(2, 64);
    l.dyn_smem = 64 * 4;
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, 10);
    wm_agg *g = NULL;
    CHECK_EQ(crun("smem_multi", b, "smem_multi", &l, &g), WM_OK);
    for (int c = 0; c < 2; c++) {
        int acc = 0;
        for (int k = 0; k < 10; k++)
            acc += in[c * 64 + k];
        CHECK_EQ(out[c * 4 + 0], acc);
        CHECK_EQ(out[c * 4 + 1], 0);
        CHECK_EQ(out[c * 4 + 2], 416); /* a[72] + b[32] before dyn */
        CHECK_EQ(out[c * 4 + 3], 10);
    }
    /* dyn[t] = in[...]: 2 warps x 2 CTAs, conflict-free */
    wm_stats s = pi_line(g, "smem_multi.cu", 12, WM_SPACE_SHARED, WM_OP_ST);
    CHECK_EQ(s.requests, 4);
    CHECK_EQ(s.wavefronts, 4);
    wm_agg_free(g);
}

static void scan_block(const char *b)
{
    static int32_t in[512], out[512];
    for (int i = 0; i < 512; i++)
        in[i] = (i * 13) % 9 - 4;
    pi_launch l = pi_dims(2, 256);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    wm_agg *g = NULL;
    CHECK_EQ(crun("scan_block", b, "scan_block", &l, &g), WM_OK);
    int bad = 0;
    for (int c = 0; c < 2; c++) {
        int sum = 0;
        for (int t = 0; t < 256; t++)
            bad += out[c * 256 + t] != (sum += in[c * 256 + t]);
    }
    CHECK_EQ(bad, 0);
    /* buf[1 - p][t] = v: 8 steps x 8 warps x 2 CTAs, 1 wavefront each */
    wm_stats s = pi_line(g, "scan_block.cu", 13, WM_SPACE_SHARED, WM_OP_ST);
    CHECK_EQ(s.requests, 128);
    CHECK_EQ(s.wavefronts, 128);
    wm_agg_free(g);
}

static void hist_shared(const char *b)
{
    enum { N = 5000 };
    static uint8_t in[N];
    uint32_t bins[64], ref[64];
    memset(bins, 0, sizeof bins);
    memset(ref, 0, sizeof ref);
    for (int i = 0; i < N; i++) {
        in[i] = (uint8_t)(i * 31 % 251);
        ref[in[i] % 64]++;
    }
    pi_launch l = pi_dims(4, 128);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, bins, sizeof bins);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun("hist_shared", b, "hist_shared", &l, &g), WM_OK);
    CHECK(memcmp(bins, ref, sizeof ref) == 0);
    /* 16 warps x 9 full passes, then 13 warps of the last 392 elements
       (-G: atomicAdd is a call to __uAtomicAdd, which has no line) */
    wm_stats s = pi_line(g, "hist_shared.cu", 12, WM_SPACE_SHARED,
                         WM_OP_ATOM);
    if (b[0] == 'G')
        s = pi_line(g, "", 0, WM_SPACE_SHARED, WM_OP_ATOM);
    CHECK_EQ(s.requests, 157);
    wm_agg_free(g);
}

static void aos_soa(const char *b)
{
    enum { N = 1024 };
    static float p[N * 4], x[N], w[N];
    for (int i = 0; i < N * 4; i++)
        p[i] = (float)(i % 9);
    for (int i = 0; i < N; i++) {
        x[i] = p[i * 4];
        w[i] = p[i * 4 + 3];
    }
    float dt = 0.5f;
    uint32_t dtu;
    memcpy(&dtu, &dt, 4);
    pi_launch l = pi_dims(4, 256);
    pi_buf(&l, p, sizeof p);
    pi_u32(&l, dtu);
    wm_agg *g = NULL;
    CHECK_EQ(crun("aos_soa", b, "aos", &l, &g), WM_OK);
    /* p[i].x at a 16-byte stride: 16 sectors per request, 4 ideal */
    wm_stats s = pi_line(g, "aos_soa.cu", 10, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 32);
    CHECK_EQ(s.sectors, 512);
    CHECK_EQ(s.ideal_sectors, 128);
    wm_agg_free(g);
    l = pi_dims(4, 256);
    pi_buf(&l, x, sizeof x);
    pi_buf(&l, w, sizeof w);
    pi_u32(&l, dtu);
    CHECK_EQ(crun("aos_soa", b, "soa", &l, &g), WM_OK);
    s = pi_line(g, "aos_soa.cu", 16, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.sectors, 128);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += x[i] != p[i * 4] || p[i * 4] != (float)(i * 4 % 9) +
                                                   0.5f * (float)((i * 4 + 3) % 9);
    CHECK_EQ(bad, 0);
    wm_agg_free(g);
}

static void stencil2d(const char *b)
{
    enum { W = 34, H = 34 };
    static float a[W * H], o[W * H];
    for (int i = 0; i < W * H; i++) {
        a[i] = (float)(i % 17);
        o[i] = -1.0f;
    }
    pi_launch l = pi_dims(2, 32);
    l.grid[1] = 5;
    l.block[1] = 8;
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, o, sizeof o);
    pi_u32(&l, W);
    pi_u32(&l, H);
    wm_agg *g = NULL;
    CHECK_EQ(crun("stencil2d", b, "stencil2d", &l, &g), WM_OK);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = -1.0f;
            if (x >= 1 && y >= 1 && x < W - 1 && y < H - 1)
                want = 0.25f * (a[y * W + x - 1] + a[y * W + x + 1] +
                                a[(y - 1) * W + x] + a[(y + 1) * W + x]);
            bad += o[y * W + x] != want;
        }
    CHECK_EQ(bad, 0);
    /* rows 1..32: one warp with x = 1..31, one with x = 32 only */
    wm_stats s = pi_line(g, "stencil2d.cu", 9, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 64);
    CHECK_EQ(s.bytes, 32 * 32 * 4);
    wm_agg_free(g);
}

static void bitonic(const char *b)
{
    int32_t keys[256];
    for (int i = 0; i < 256; i++)
        keys[i] = (i * 97 + 13) % 1000 - 500;
    pi_launch l = pi_dims(1, 256);
    pi_buf(&l, keys, sizeof keys);
    wm_agg *g = NULL;
    CHECK_EQ(crun("bitonic", b, "bitonic", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 1; i < 256; i++)
        bad += keys[i - 1] > keys[i];
    CHECK_EQ(bad, 0);
    long sum = 0;
    for (int i = 0; i < 256; i++)
        sum += keys[i];
    long want = 0;
    for (int i = 0; i < 256; i++)
        want += (i * 97 + 13) % 1000 - 500;
    CHECK_EQ(sum, want);
    wm_stats s = pi_line(g, "bitonic.cu", 22, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 8);
    CHECK_EQ(s.sectors, 32);
    wm_agg_free(g);
}

static void warp_vote(const char *b)
{
    enum { N = 128 };
    int32_t in[N], out[N], count[N / 32];
    for (int i = 0; i < N; i++) {
        in[i] = i * 37 % 11 - 5;
        out[i] = 0;
    }
    pi_launch l = pi_dims(2, 64);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, count, sizeof count);
    wm_agg *g = NULL;
    CHECK_EQ(crun("warp_vote", b, "warp_vote", &l, &g), WM_OK);
    for (int w = 0; w < N / 32; w++) {
        int r = 0;
        for (int k = 0; k < 32; k++)
            if (in[w * 32 + k] > 0)
                CHECK_EQ(out[w * 32 + r++], in[w * 32 + k]);
        CHECK_EQ(count[w], r);
    }
    /* count[...] = popc: one lane per warp, one sector */
    wm_stats s = pi_line(g, "warp_vote.cu", 13, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 4);
    CHECK_EQ(s.sectors, 4);
    wm_agg_free(g);
}

static void grid_stride4(const char *b)
{
    enum { N = 1030 };
    static float a[N], o[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)i * 0.25f;
    pi_launch l = pi_dims(2, 64);
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, o, sizeof o);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun("grid_stride4", b, "grid_stride4", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += o[i] != 3.0f * a[i];
    CHECK_EQ(bad, 0);
    /* 257 float4: 2 full passes of 4 warps (16 sectors) + 1 lane (1) */
    wm_stats s = pi_line(g, "grid_stride4.cu", 13, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 9);
    CHECK_EQ(s.sectors, 129);
    wm_agg_free(g);
}

/* two inlined copies of an inline-asm loop, each with its own LOOP label:
   out[i] = i + 3 + (i % 5 + 1); the store is one request of 4 sectors per
   full warp (1000 floats: 31 warps of 4, the last 8 lanes in 1) */
static void asm_labels(const char *b)
{
    enum { N = 1000 };
    static unsigned out[N];
    memset(out, 0, sizeof out);
    pi_launch l = pi_dims(4, 256);
    pi_buf(&l, out, sizeof out);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun("asm_labels", b, "_Z10asm_labelsPji", &l, &g), WM_OK);
    int bad = 0;
    for (unsigned i = 0; i < N; i++)
        bad += out[i] != i + 3 + (i % 5 + 1);
    CHECK_EQ(bad, 0);
    wm_stats s = pi_line(g, "asm_labels.cu", 29, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 32);
    CHECK_EQ(s.sectors, 125);
    wm_agg_free(g);
}

/* tiled_partition<64>: tile.sync() spins on an acquire load until the
   tile's other warp arrives (the spinning warp yields to it).  out[i] =
   the sum of its 64-tile; the store: 16 warps of 4 sectors */
static void tile64(const char *b)
{
    enum { N = 512 };
    static int in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 7 % 31 - 15;
        out[i] = 0;
    }
    pi_launch l = pi_dims(2, 256);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    wm_agg *g = NULL;
    CHECK_EQ(crun("tile64", b, "_Z10tile64_sumPKiPi", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int s = 0;
        for (int k = i / 64 * 64; k < i / 64 * 64 + 64; k++)
            s += in[k];
        bad += out[i] != s;
    }
    CHECK_EQ(bad, 0);
    wm_stats s = pi_line(g, "tile64.cu", 21, WM_SPACE_GLOBAL, WM_OP_ST);
    CHECK_EQ(s.requests, 16);
    CHECK_EQ(s.sectors, 64);
    wm_agg_free(g);
}

/* invoke_one on coalesced groups: elect.sync on sm_90, a lowest-lane
   ballot on sm_80.  keys[i] = i: in warp w the lanes with i % 3 == 0
   form the group, and its leader is lane (3 - 32w % 3) % 3 = w % 3 */
static void elect(const char *b)
{
    enum { N = 1000, W = (N + 31) / 32 };
    static int keys[N];
    int bins[8] = {0}, leader[W], want[8] = {0};
    for (int i = 0; i < N; i++)
        keys[i] = i;
    for (int w = 0; w < W; w++) {
        leader[w] = -1;
        int size = 0, first = -1;
        for (int i = 32 * w; i < 32 * w + 32 && i < N; i++)
            if (keys[i] % 3 == 0) {
                size++;
                first = first < 0 ? i : first;
            }
        want[keys[first] & 7] += size;
    }
    pi_launch l = pi_dims(4, 256);
    pi_buf(&l, bins, sizeof bins);
    pi_buf(&l, leader, sizeof leader);
    pi_buf(&l, keys, sizeof keys);
    pi_u32(&l, N);
    wm_agg *g = NULL;
    CHECK_EQ(crun("elect", b, "elect_hist", &l, &g), WM_OK);
    CHECK_EQ(memcmp(bins, want, sizeof bins), 0);
    int bad = 0;
    for (int w = 0; w < W; w++)
        bad += leader[w] != w % 3;
    CHECK_EQ(bad, 0);
    /* one leader lane per warp: 32 atomics of one sector each */
    wm_stats s = pi_line(g, NULL, 0, WM_SPACE_GLOBAL, WM_OP_ATOM);
    CHECK_EQ(s.requests, W);
    CHECK_EQ(s.sectors, W);
    wm_agg_free(g);
}

/* A float's bf16 (the upper half of its bits: exact for the small
   integers used here), or its f16 (pi_half_of) when bf is 0. */
static uint16_t half_bits(float f, int bf)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return bf ? (uint16_t)(u >> 16) : pi_half_of(f);
}

/* sm_90's vector atomics: split-K slices of float4 tiles folded by
   atom.global.add.v4.f32 (and what each add found, in lane, warp and CTA
   order), float2 pairs by .v2.f32, bf16 and half pairs by the packed
   atom.add.noftz.bf16x2 / .f16x2. */
static void atom_vec(const char *b)
{
    enum { TILES = 8, SLICES = 16, N = TILES * SLICES };
    static float part[N][4], c[TILES][4], want[TILES][4], old[N][4],
        old_want[N][4];
    memset(c, 0, sizeof c);
    memset(want, 0, sizeof want);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 4; k++) {
            part[i][k] = (float)(i % 5 + k);
            old_want[i][k] = want[i % TILES][k];
            want[i % TILES][k] += part[i][k];
        }
    pi_launch l = pi_dims(2, 64);
    pi_buf(&l, c, sizeof c);
    pi_buf(&l, part, sizeof part);
    pi_u32(&l, TILES);
    pi_u32(&l, SLICES);
    wm_agg *g = NULL;
    CHECK_EQ(crun("atom_vec", b, "splitk_reduce", &l, &g), WM_OK);
    CHECK_EQ(memcmp(c, want, sizeof c), 0);
    /* 4 warps, lanes on 8 float4 slots: 128 bytes, 4 sectors a request */
    wm_stats s = pi_line(g, NULL, 0, WM_SPACE_GLOBAL, WM_OP_ATOM);
    CHECK_EQ(s.inst, 4);
    CHECK_EQ(s.requests, 4);
    CHECK_EQ(s.sectors, 16);
    CHECK_EQ(s.bytes, (uint64_t)N * 16);
    wm_agg_free(g);

    memset(c, 0, sizeof c);
    memset(old, 0xff, sizeof old);
    l = pi_dims(2, 64);
    pi_buf(&l, c, sizeof c);
    pi_buf(&l, old, sizeof old);
    pi_buf(&l, part, sizeof part);
    pi_u32(&l, TILES);
    pi_u32(&l, N);
    CHECK_EQ(crun("atom_vec", b, "splitk_old", &l, NULL), WM_OK);
    CHECK_EQ(memcmp(c, want, sizeof c), 0);
    CHECK_EQ(memcmp(old, old_want, sizeof old), 0);

    enum { BINS = 6, M = 500 };
    static float p2[M][2], c2[BINS][2], w2[BINS][2];
    memset(c2, 0, sizeof c2);
    memset(w2, 0, sizeof w2);
    for (int i = 0; i < M; i++) {
        p2[i][0] = (float)(i % 3);
        p2[i][1] = 0.5f;
        w2[i % BINS][0] += p2[i][0];
        w2[i % BINS][1] += p2[i][1];
    }
    l = pi_dims(2, 96); /* grid-stride */
    pi_buf(&l, c2, sizeof c2);
    pi_buf(&l, p2, sizeof p2);
    pi_u32(&l, BINS);
    pi_u32(&l, M);
    CHECK_EQ(crun("atom_vec", b, "acc_f2", &l, NULL), WM_OK);
    CHECK_EQ(memcmp(c2, w2, sizeof c2), 0);

    /* pairs of 1.0 and 2.0 (bf16) or 0.5 and 1.0 (half), 24 to a bin:
       every partial sum is exact in 16 bits */
    for (int bf = 0; bf < 2; bf++) {
        enum { HB = 4, HN = 96 };
        uint16_t ph[HN][2], ch[HB][2], wh[HB][2];
        float lo = bf ? 1.0f : 0.5f, hi = 2.0f * lo;
        for (int i = 0; i < HN; i++) {
            ph[i][0] = half_bits(lo, bf);
            ph[i][1] = half_bits(hi, bf);
        }
        for (int i = 0; i < HB; i++) {
            ch[i][0] = ch[i][1] = 0;
            wh[i][0] = half_bits(24 * lo, bf);
            wh[i][1] = half_bits(24 * hi, bf);
        }
        l = pi_dims(1, HN);
        pi_buf(&l, ch, sizeof ch);
        pi_buf(&l, ph, sizeof ph);
        pi_u32(&l, HB);
        pi_u32(&l, HN);
        CHECK_EQ(crun("atom_vec", b, bf ? "acc_bf2" : "acc_h2", &l, NULL),
                 WM_OK);
        CHECK_EQ(memcmp(ch, wh, sizeof ch), 0);
    }
}

/* __syncthreads_count / _and / _or (bar.red): a compaction's per-block
   count of kept elements (in[i] % 3 != 0, i < n) and whether the block
   keeps all or none of them; and a loop that halves every value until no
   thread of the block votes for another round. */
static void sync_count(const char *b)
{
    enum { N = 1000, B = 128, G = (N + B - 1) / B };
    static int in[G * B];
    int count[G], all[G], none[G], wc[G] = {0}, wall[G], wnone[G];
    for (int i = 0; i < G * B; i++)
        in[i] = i < 256 ? 3 * i : i < 384 ? 3 * i + 1 : i * 7;
    for (int g = 0; g < G; g++) {
        wall[g] = 1;
        for (int t = 0; t < B; t++) {
            int i = g * B + t, keep = i < N && in[i] % 3 != 0;
            wc[g] += keep;
            wall[g] &= keep;
        }
        wnone[g] = wc[g] == 0;
    }
    pi_launch l = pi_dims(G, B);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, count, sizeof count);
    pi_buf(&l, all, sizeof all);
    pi_buf(&l, none, sizeof none);
    pi_u32(&l, N);
    CHECK_EQ(crun("sync_count", b, "block_compact", &l, NULL), WM_OK);
    CHECK_EQ(memcmp(count, wc, sizeof wc), 0);
    CHECK_EQ(memcmp(all, wall, sizeof wall), 0);
    CHECK_EQ(memcmp(none, wnone, sizeof wnone), 0);
    CHECK(wnone[0] && wnone[1] && wall[2]); /* both answers occur */

    /* block g's largest value is 2^(g + 2) + g: g + 2 halvings leave it 1 */
    static int x[4 * 64];
    int rounds[4];
    for (int i = 0; i < 4 * 64; i++)
        x[i] = i % 64 == 5 ? (1 << (i / 64 + 2)) + i / 64 : i % 2;
    l = pi_dims(4, 64);
    pi_buf(&l, x, sizeof x);
    pi_buf(&l, rounds, sizeof rounds);
    CHECK_EQ(crun("sync_count", b, "until_converged", &l, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < 4 * 64; i++)
        bad += x[i] != (i % 64 == 5 ? 1 : i % 2);
    CHECK_EQ(bad, 0);
    for (int g = 0; g < 4; g++)
        CHECK_EQ(rounds[g], g + 2);
}

/* One halfword of __vadd2 (op 0), __vsub2 (1), __vmaxu2 (2), __vmins2
   (3). */
static uint32_t simd_half(int op, uint32_t a, uint32_t b)
{
    int32_t sa = (int16_t)a, sb = (int16_t)b;
    uint32_t r = op == 0   ? a + b
                 : op == 1 ? a - b
                 : op == 2 ? ((a & 0xffff) > (b & 0xffff) ? a : b)
                           : (uint32_t)(sa < sb ? sa : sb);
    return r & 0xffff;
}

/* CUDA's per-halfword SIMD intrinsics (sm_90: add/sub/min/max .u16x2 and
   .s16x2) on random words, against the CPU. */
static void simd16(const char *b)
{
    enum { N = 200 };
    static uint32_t a[N], c[N], out[4 * N];
    uint64_t s = 11;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (uint32_t)(s >> 32);
        c[i] = (uint32_t)s;
    }
    a[0] = 0x7fff8000; /* the edges of both halves */
    c[0] = 0x80007fff;
    pi_launch l = pi_dims(2, 128);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, c, sizeof c);
    pi_u32(&l, N);
    CHECK_EQ(crun("simd16", b, "simd16", &l, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int op = 0; op < 4; op++)
            bad += out[4 * i + op] !=
                   (simd_half(op, a[i], c[i]) |
                    simd_half(op, a[i] >> 16, c[i] >> 16) << 16);
    CHECK_EQ(bad, 0);
}

static const char *const s90[] = {"sm_90", "G_sm_90", NULL};
static const char *const h90a[] = {"sm_90a", "G_sm_90a", NULL};

/* Inline-asm cp.async.cg of 16 bytes, two commit groups and
   cp.async.wait_all (which decoded as a copy before), then the tiles read
   back after the barrier. */
static void cp_async_all(const char *b)
{
    enum { N = 128 }; /* float4 per array: two CTAs of 64 */
    static float a[4 * N], bb[4 * N], out[4 * N];
    for (int i = 0; i < 4 * N; i++) {
        a[i] = (float)i;
        bb[i] = (float)(1000 + 3 * i);
        out[i] = -1.0f;
    }
    pi_launch l = pi_dims(2, 64);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, bb, sizeof bb);
    wm_agg *g = NULL;
    CHECK_EQ(crun("cp_async_all", b, "stage_pair", &l, &g), WM_OK);
    int bad = 0;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 64; t++)
            for (int k = 0; k < 4; k++) {
                int i = 4 * (64 * c + t) + k, j = 4 * (64 * c + 63 - t) + k;
                bad += out[i] != a[i] + bb[j];
            }
    CHECK_EQ(bad, 0);
    /* both copies (line 12, inlined twice): per CTA 2 warps x 2 copies of
       32 lanes x 16 contiguous bytes, 16 sectors each */
    wm_stats s = pi_line(g, "cp_async_all.cu", 12, WM_SPACE_GLOBAL,
                         WM_OP_LDGSTS);
    CHECK_EQ(s.requests, 8);
    CHECK_EQ(s.sectors, 128);
    wm_agg_free(g);
}

/*
 * The inline-asm wgmma GEMM (wgmma_gemm.cu): C = A B^T, 128 x 128 x 128
 * f16 in 64 x 64 tiles of one warpgroup, K steps of 64, A and B tiles
 * stored into the 128 B swizzle layout by ordinary 16-byte stores, four
 * wgmma m64n64k16 a step.  Inputs are multiples of 1/4 in [-2, 2], so C
 * equals the CPU reference exactly.  Per line (4 CTAs, 2 K steps):
 *   the tile stores (line 54): 8 lanes write the 8 chunks of one row,
 *     permuted inside its 128 B: 1 wavefront per 8-lane phase; per CTA
 *     and step 2 tiles x 512 chunks / 32 = 32 requests -> 256 requests,
 *     1024 wavefronts, ideal.  -G stores each 16 B as four 4-byte
 *     generic stores: 1024 requests whose 32 lanes cover 4 rows, 128 B
 *     apart, of the same 8 banks: 4 wavefronts each (4096, ideal 1024);
 *   the wgmma (the asm statement's last line, 44): per instruction A 4 x
 *     1 request, B 4 requests (64 rows x 32 B), 4 wavefronts each; 4 x 2
 *     instructions per CTA -> 256 requests, 1024 wavefronts, 128 warp
 *     instructions.
 */
static void wgmma_gemm(const char *b)
{
    enum { S = 128 };
    static uint16_t a[S * S], bt[S * S];
    static float af[S * S], bf[S * S], c[S * S];
    srand(90);
    for (int i = 0; i < S * S; i++) {
        af[i] = (float)(rand() % 17 - 8) / 4.0f;
        bf[i] = (float)(rand() % 17 - 8) / 4.0f;
        a[i] = pi_half_of(af[i]);
        bt[i] = pi_half_of(bf[i]);
        c[i] = -1.0f;
    }
    pi_launch l = pi_dims(2, 128);
    l.grid[1] = 2;
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, bt, sizeof bt);
    pi_buf(&l, c, sizeof c);
    pi_u32(&l, S);
    pi_u32(&l, S);
    pi_u32(&l, S);
    wm_agg *g = NULL;
    CHECK_EQ(crun("wgmma_gemm", b, "wgmma_gemm", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            float r = 0.0f;
            for (int k = 0; k < S; k++)
                r += af[i * S + k] * bf[j * S + k];
            bad += c[i * S + j] != r;
        }
    CHECK_EQ(bad, 0);
    int G = b[0] == 'G';
    wm_stats s = pi_line(g, "wgmma_gemm.cu", 54, WM_SPACE_SHARED, WM_OP_ST);
    CHECK_EQ(s.requests, G ? 1024 : 256);
    CHECK_EQ(s.wavefronts, G ? 4096 : 1024);
    CHECK_EQ(s.ideal_wavefronts, 1024);
    s = pi_line(g, "wgmma_gemm.cu", 44, WM_SPACE_SHARED, WM_OP_WGMMA);
    CHECK_EQ(s.inst, 128);
    CHECK_EQ(s.requests, 256);
    CHECK_EQ(s.wavefronts, 1024);
    CHECK_EQ(s.ideal_wavefronts, 1024);
    wm_agg_free(g);
}

/* Half values k / 4 (|k| <= 8) as f16 bits: exact, and so is every f32
   sum of the products below. */
static uint16_t quarter_half(int k)
{
    if (k == 0)
        return 0;
    float v = (float)k / 4.0f;
    uint32_t u;
    memcpy(&u, &v, 4);
    return (uint16_t)(((u >> 16) & 0x8000u) |
                      (((u >> 23 & 0xffu) - 112u) << 10) |
                      ((u >> 13) & 0x3ffu));
}

/* nvcuda::wmma: a 64x64x48 half GEMM through padded shared tiles
   (load_matrix_sync from shared, mma_sync, store_matrix_sync to global),
   and an int8 m8n32k16 product from global memory with column-major B
   and a column-major store, both against a CPU matmul. */
static void wmma_gemm(const char *b)
{
    enum { M = 64, N = 64, K = 48 };
    static uint16_t A[M * K], B[K * N];
    static float C[M * N];
    static int ka[M * K], kb[K * N];
    for (int i = 0; i < M * K; i++)
        A[i] = quarter_half(ka[i] = (i * 7 + 3) % 17 - 8);
    for (int i = 0; i < K * N; i++)
        B[i] = quarter_half(kb[i] = (i * 5 + 1) % 13 - 6);
    pi_launch l = pi_dims(N / 32, 128);
    l.grid[1] = M / 32;
    pi_buf(&l, C, sizeof C);
    pi_buf(&l, A, sizeof A);
    pi_buf(&l, B, sizeof B);
    pi_u32(&l, M);
    pi_u32(&l, N);
    pi_u32(&l, K);
    wm_agg *g = NULL;
    CHECK_EQ(crun("wmma_gemm", b, "_Z9wmma_gemmPfPK6__halfS2_iii", &l, &g),
             WM_OK);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < K; k++)
                s += ka[i * K + k] * kb[k * N + j];
            bad += C[i * N + j] != (float)s / 16.0f;
        }
    CHECK_EQ(bad, 0);
    /* the A tile's fragment loads, rows 48 bytes apart: each of the four
       8x16-byte blocks starts its rows on banks 12 g mod 32 (g = 0..7),
       all distinct, so one wavefront per request; 4 CTAs x 4 warps x 3
       steps x 4 blocks = 192 requests.  B's rows are 80 bytes apart,
       banks 20 g mod 32: conflict-free too.  (-G: the loads sit in
       mma.hpp's helpers, so only the total is on lines of this file.) */
    wm_stats s = pi_line(g, "wmma_gemm.cu", 38, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(s.requests, b[0] == 'G' ? 0 : 192);
    CHECK_EQ(s.wavefronts, b[0] == 'G' ? 0 : 192);
    wm_stats all;
    memset(&all, 0, sizeof all);
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site x;
        wm_agg_site(g, i, &x);
        if (x.space == WM_SPACE_SHARED && x.op == WM_OP_LD) {
            all.requests += x.stats.requests;
            all.wavefronts += x.stats.wavefronts;
            all.ideal_wavefronts += x.stats.ideal_wavefronts;
        }
    }
    CHECK_EQ(all.requests, 384);
    CHECK_EQ(all.wavefronts, 384);
    CHECK_EQ(all.ideal_wavefronts, 384);
    wm_agg_free(g);

    enum { M8 = 16, N8 = 64, K8 = 32 };
    static signed char A8[M8 * K8], B8[N8 * K8];
    static int C8[M8 * N8], D8[N8 * M8];
    for (int i = 0; i < M8 * K8; i++)
        A8[i] = (signed char)((i * 37 + 11) % 255 - 127);
    for (int i = 0; i < N8 * K8; i++) /* column-major: B(k, n) at n K8 + k */
        B8[i] = (signed char)((i * 53 + 7) % 255 - 127);
    for (int i = 0; i < M8 * N8; i++)
        C8[i] = i * 1000 - 500000;
    memset(D8, 0, sizeof D8);
    pi_launch l8 = pi_dims(N8 / 32, 32);
    l8.grid[1] = M8 / 8;
    pi_buf(&l8, D8, sizeof D8);
    pi_buf(&l8, C8, sizeof C8);
    pi_buf(&l8, A8, sizeof A8);
    pi_buf(&l8, B8, sizeof B8);
    pi_u32(&l8, M8);
    pi_u32(&l8, N8);
    pi_u32(&l8, K8);
    CHECK_EQ(crun("wmma_gemm", b, "_Z7wmma_i8PiPKiPKaS3_iii", &l8, NULL),
             WM_OK);
    bad = 0;
    for (int i = 0; i < M8; i++)
        for (int j = 0; j < N8; j++) {
            int s8 = C8[i * N8 + j];
            for (int k = 0; k < K8; k++)
                s8 += A8[i * K8 + k] * B8[j * K8 + k];
            bad += D8[j * M8 + i] != s8;
        }
    CHECK_EQ(bad, 0);
}

/* nvcuda::wmma f64: a 64x64x32 double GEMM, m8n8k4 fragments from padded
   shared tiles, against a CPU matmul (quarter-integer inputs: every sum
   exact). */
static void wmma_f64(const char *b)
{
    enum { M = 64, N = 64, K = 32 };
    static double A[M * K], B[K * N], C[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = (double)((i * 7 + 3) % 17 - 8) / 4.0;
    for (int i = 0; i < K * N; i++)
        B[i] = (double)((i * 5 + 1) % 13 - 6) / 4.0;
    memset(C, 0, sizeof C);
    pi_launch l = pi_dims(N / 32, 128);
    l.grid[1] = M / 32;
    pi_buf(&l, C, sizeof C);
    pi_buf(&l, A, sizeof A);
    pi_buf(&l, B, sizeof B);
    pi_u32(&l, M);
    pi_u32(&l, N);
    pi_u32(&l, K);
    wm_agg *g = NULL;
    CHECK_EQ(crun("wmma_f64", b, "_Z10wmma_dgemmPdPKdS1_iii", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += A[i * K + k] * B[k * N + j];
            bad += C[i * N + j] != s;
        }
    CHECK_EQ(bad, 0);
    /* 4 CTAs x 4 warps x 4 K steps x 2 k4 steps x 2 fragments = 256
       requests each for A (line 40) and B (line 42), 8-byte accesses in
       two half-warp phases (lanes 0-15: g = 0..3).  An A fragment: lane
       (g, t) reads As row g, column t; rows 96 bytes apart start on banks
       24 g mod 32 = 0 24 16 8, distinct: 1 wavefront a phase, 2 in all,
       the ideal.  A B fragment: lane (g, t) B(t, g), rows 288 bytes
       apart, row t on banks 8 t .. 8 t + 7 in a phase: 2 again.  (With
       PAD 0: A rows 0 and 2 collide, 4; B's four rows all, 8.)  (-G: the
       loads sit in mma.hpp's helpers.) */
    int opt = b[0] != 'G';
    wm_stats sa = pi_line(g, "wmma_f64.cu", 40, WM_SPACE_SHARED, WM_OP_LD);
    wm_stats sb = pi_line(g, "wmma_f64.cu", 42, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(sa.requests, opt ? 256 : 0);
    CHECK_EQ(sa.wavefronts, opt ? 512 : 0);
    CHECK_EQ(sb.requests, opt ? 256 : 0);
    CHECK_EQ(sb.wavefronts, opt ? 512 : 0);
    wm_stats all = pi_line(g, NULL, 0, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(all.requests, 512);
    CHECK_EQ(all.wavefronts, 1024);
    CHECK_EQ(all.ideal_wavefronts, 1024);
    wm_agg_free(g);
}

/* 4-bit values v (two a byte, the low nibble first) into p at element k. */
static void put4(uint8_t *p, int k, int v)
{
    p[k / 2] = (uint8_t)((p[k / 2] & (k % 2 ? 0x0f : 0xf0)) |
                         (unsigned)(v & 15) << (4 * (k % 2)));
}

/* nvcuda::wmma s4 / u4 (m8n8k32) and b1 (m8n8k128, XOR and AND with
   POPC) products from global memory, against a CPU reference. */
static void wmma_bits(const char *b)
{
    enum { M = 16, N = 16, K = 64 };
    static const char *const kern[2] = {
        "_Z9wmma_int4IN6nvcuda4wmma12experimental9precision2s4EEvPiPKiPKhS9_iii",
        "_Z9wmma_int4IN6nvcuda4wmma12experimental9precision2u4EEvPiPKiPKhS9_iii",
    };
    for (int u = 0; u < 2; u++) {
        static uint8_t A[M * K / 2], B[N * K / 2];
        static int a[M * K], bb[N * K], C[M * N], D[M * N];
        for (int i = 0; i < M * K; i++) {
            int v = (i * 37 + 11) % 16;
            a[i] = u ? v : v - 8;
            put4(A, i, a[i]);
        }
        for (int i = 0; i < N * K; i++) { /* column-major: B(k, n) at n K + k */
            int v = (i * 53 + 7) % 16;
            bb[i] = u ? v : v - 8;
            put4(B, i, bb[i]);
        }
        for (int i = 0; i < M * N; i++)
            C[i] = i * 1000 - 100000;
        memset(D, 0, sizeof D);
        pi_launch l = pi_dims(N / 8, 32);
        l.grid[1] = M / 8;
        pi_buf(&l, D, sizeof D);
        pi_buf(&l, C, sizeof C);
        pi_buf(&l, A, sizeof A);
        pi_buf(&l, B, sizeof B);
        pi_u32(&l, M);
        pi_u32(&l, N);
        pi_u32(&l, K);
        wm_agg *g = NULL;
        CHECK_EQ(crun("wmma_bits", b, kern[u], &l, &g), WM_OK);
        int bad = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                int s = C[i * N + j];
                for (int k = 0; k < K; k++)
                    s += a[i * K + k] * bb[j * K + k];
                bad += D[i * N + j] != s;
            }
        CHECK_EQ(bad, 0);
        /* line 26, the A loads: 4 CTAs x 2 K steps, one request each;
           lane (g, t) the 4 bytes at 4 t of row g, rows 32 bytes apart:
           8 rows of 16 bytes, one sector each */
        wm_stats s = pi_line(g, "wmma_bits.cu", 26, WM_SPACE_GLOBAL, WM_OP_LD);
        CHECK_EQ(s.requests, b[0] == 'G' ? 0 : 8);
        CHECK_EQ(s.sectors, b[0] == 'G' ? 0 : 64);
        wm_agg_free(g);
    }

    enum { KB = 256 };
    static uint32_t A1[M * KB / 32], B1[N * KB / 32];
    static int Dx[N * M], Da[M * N];
    for (int i = 0; i < M * KB / 32; i++)
        A1[i] = (uint32_t)i * 2654435761u ^ 0x5bd1e995u;
    for (int i = 0; i < N * KB / 32; i++)
        B1[i] = (uint32_t)i * 40503u ^ 0x9e3779b9u;
    memset(Dx, 0, sizeof Dx);
    memset(Da, 0, sizeof Da);
    pi_launch l = pi_dims(N / 8, 32);
    l.grid[1] = M / 8;
    pi_buf(&l, Dx, sizeof Dx);
    pi_buf(&l, Da, sizeof Da);
    pi_buf(&l, A1, sizeof A1);
    pi_buf(&l, B1, sizeof B1);
    pi_u32(&l, M);
    pi_u32(&l, N);
    pi_u32(&l, KB);
    wm_agg *g = NULL;
    CHECK_EQ(crun("wmma_bits", b, "_Z8wmma_binPiS_PKjS1_iii", &l, &g), WM_OK);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int x = 0, y = 0;
            for (int w = 0; w < KB / 32; w++) {
                uint32_t p = A1[i * KB / 32 + w], q = B1[j * KB / 32 + w];
                x += __builtin_popcount(p ^ q);
                y += __builtin_popcount(p & q);
            }
            bad += Dx[j * M + i] != x; /* stored column-major */
            bad += Da[i * N + j] != y;
        }
    CHECK_EQ(bad, 0);
    /* line 53, the B loads: 8 requests, columns 32 bytes apart, 16 bytes
       of each: 8 sectors a request */
    wm_stats s = pi_line(g, "wmma_bits.cu", 53, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(s.requests, b[0] == 'G' ? 0 : 8);
    CHECK_EQ(s.sectors, b[0] == 'G' ? 0 : 64);
    wm_agg_free(g);
}

/* grid.sync() (cooperative groups).  A plain launch: the workspace
   pointer is null, the kernel's own check traps and the message says
   why; block 0's partial, stored before the barrier, is its slice's sum
   and nothing after the barrier ran.  A cooperative launch: every
   partial and the total are the CPU's sums.  A block that returns before
   the barrier (grid_sum_early) leaves the others polling: a deadlock. */
enum { GS_G = 4, GS_T = 256, GS_N = 3 * GS_G * GS_T + 100 };

static void gs_launch(pi_launch *l, float *in, float *partial, float *total,
                      int n)
{
    *l = pi_dims(GS_G, GS_T);
    pi_buf(l, in, GS_N * sizeof *in);
    pi_buf(l, partial, GS_G * sizeof *partial);
    pi_buf(l, total, sizeof *total);
    pi_u32(l, (uint32_t)n);
}

static void grid_sync(const char *b)
{
    float in[GS_N], partial[GS_G], want[GS_G] = {0}, total = -1.f;
    for (int i = 0; i < GS_N; i++)
        in[i] = (float)(i % 7); /* small integers: the sums are exact */
    for (int i = 0; i < GS_N; i++) /* thread i % (G T) of block i / T % G */
        want[i % (GS_G * GS_T) / GS_T] += in[i];
    for (int i = 0; i < GS_G; i++)
        partial[i] = -1.f;
    wm_ptx_module *m = pi_corpus("grid_sync", b);
    if (!m)
        return;
    pi_launch l;
    gs_launch(&l, in, partial, &total, GS_N);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "grid_sum", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "trap instruction executed (the module reads "
                         "%envreg1/%envreg2, the grid workspace that only a "
                         "cooperative launch sets") != NULL);
    CHECK_EQ(ft.cta[0], 0);
    CHECK(partial[0] == want[0]);
    for (int i = 1; i < GS_G; i++)
        CHECK(partial[i] == -1.f);
    CHECK(total == -1.f);

    l.cooperative = 1;
    CHECK_EQ(pi_run(m, "grid_sum", &l, &ft), WM_OK);
    float sum = 0.f;
    for (int i = 0; i < GS_G; i++) {
        CHECK(partial[i] == want[i]);
        sum += want[i];
    }
    CHECK(total == sum);

    /* blocks 2 and 3 have no slice (n = 2 blocks' threads) and return */
    gs_launch(&l, in, partial, &total, 2 * GS_T);
    l.cooperative = 1;
    CHECK_EQ(pi_run(m, "grid_sum_early", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "cooperative launch deadlock: in 1000 rounds no "
                         "CTA exited or passed a barrier") != NULL);
    CHECK(ft.cta[0] < 2);
    wm_ptx_free(m);
}

/* One launch of kernel name of warp_flag (build b) on grid x block
   threads under schedule s, races and the other schedule checked, into
   *chk; the status. */
static wm_status flag_run(const char *b, const char *name, unsigned grid,
                          unsigned block, wm_ptx_arg *args, size_t nargs,
                          wm_ptx_schedule s, wm_ptx_check *chk)
{
    wm_ptx_module *m = pi_corpus("warp_flag", b);
    if (!m)
        return WM_ERR_PARSE;
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    wm_ptx_launch l = pi_launch_of(grid, 1, block, 0, args, nargs, NULL, 0);
    memset(chk, 0, sizeof *chk);
    chk->checks = WM_CHECK_RACE | WM_CHECK_SCHEDULES;
    chk->schedule = s;
    l.check = chk;
    wm_ptx_fault ft;
    wm_status st = k < 0 ? WM_ERR_ARG
                         : twin_run(m, (size_t)k, &l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s\n", name, ft.msg);
    wm_ptx_free(m);
    return st;
}

/* The shared-memory races of chk (a run of warp_flag, build b) from a
   producer warp's access to warp 0's: into *tile those on the tile
   (plain accesses), into *flag those on the flags (.volatile ones). */
static void shared_flag_races(const char *b, const wm_ptx_check *chk,
                              int *tile, int *flag)
{
    wm_ptx_module *m = pi_corpus("warp_flag", b);
    *tile = *flag = 0;
    for (size_t i = 0; m && i < chk->nhazards; i++) {
        const wm_ptx_hazard *h = &chk->hazards[i];
        wm_ptx_where w1, w2;
        if (h->space != WM_SPACE_SHARED || h->first.warp == 0 ||
            h->second.warp != 0 || !h->first.write || h->second.write ||
            !wm_ptx_where_insn(m, h->first.insn, &w1) ||
            !wm_ptx_where_insn(m, h->second.insn, &w2))
            continue;
        int v1 = strstr(w1.text, ".volatile") != NULL;
        int v2 = strstr(w2.text, ".volatile") != NULL;
        *tile += !v1 && !v2;
        *flag += v1 && v2;
    }
    wm_ptx_free(m);
}

/* Warp 0 waits for flags the other warps of its block raise: the in-order
   schedule runs the waiting warp first, the reverse one last, and both
   must finish with the same outputs (a spin on a .volatile or .relaxed
   load yields when it reads what it read before).  The volatile shared
   flags with a fence on both sides hand the tile over cleanly; without
   warp 0's fence its reads of the tile race with the producers' writes,
   and without the producers' the flags race too.  A flag polled with an
   atomic whose result the loop reads (atomicAdd(flag, 0), a lock's
   atomicCAS) yields as well.  One warp alone waits for ever: the step
   budget ends it. */
static void warp_flag(const char *b)
{
    enum { G = 3 };
    static const wm_ptx_schedule sched[] = {WM_SCHED_IN_ORDER,
                                            WM_SCHED_REVERSE};
    float in[G * 96], out[G * 32];
    for (int i = 0; i < G * 96; i++)
        in[i] = (float)(i % 13);
    for (int si = 0; si < 2; si++) {
        wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in),
                           pi_arg_buf(out, sizeof out)};
        wm_ptx_check chk;
        static const char *const shared_kernels[] = {
            "flag_shared", "flag_shared_no_acquire", "flag_shared_no_release"};
        for (int kn = 0; kn < 3; kn++) {
            for (int i = 0; i < G * 32; i++)
                out[i] = -1.f;
            CHECK_EQ(flag_run(b, shared_kernels[kn], G, 128, a, 2,
                              sched[si], &chk),
                     WM_OK);
            CHECK_EQ(chk.differs, 0);
            int tile, flag;
            shared_flag_races(b, &chk, &tile, &flag);
            if (kn == 0) {
                CHECK_EQ(chk.nhazards, 0u); /* fence, flag, poll, fence */
            } else {
                CHECK(tile > 0);
                CHECK_EQ(flag > 0, kn == 2); /* no release: the flag too */
            }
            wm_ptx_check_clear(&chk);
            int bad = 0;
            for (int c = 0; c < G; c++)
                for (int l = 0; l < 32; l++) {
                    float want = 0.f;
                    for (int r = 0; r < 3; r++)
                        want += in[c * 96 + r * 32 + l] * 2.f + 1.f;
                    bad += out[c * 32 + l] != want;
                }
            CHECK_EQ(bad, 0);
        }

        /* a global flag: a block-scope release polled with relaxed loads
           and an acquire fence; polled with an atomic, atomicAdd(flag, 0)
           or atomicCAS 1 -> 2, between two fences (the last flag value) */
        static const char *const global_kernels[] = {
            "flag_relaxed", "flag_atomic_add", "flag_atomic_cas"};
        for (int kn = 0; kn < 3; kn++) {
            int32_t flag[G] = {0}, data[G * 32], got[G * 32];
            memset(data, 0xff, sizeof data);
            memset(got, 0xff, sizeof got);
            wm_ptx_arg r[3] = {pi_arg_buf(flag, sizeof flag),
                               pi_arg_buf(data, sizeof data),
                               pi_arg_buf(got, sizeof got)};
            CHECK_EQ(flag_run(b, global_kernels[kn], G, 64, r, 3, sched[si],
                              &chk),
                     WM_OK);
            CHECK_EQ(chk.differs, 0);
            CHECK_EQ(chk.nhazards, 0u);
            wm_ptx_check_clear(&chk);
            for (int i = 0; i < G * 32; i++)
                CHECK_EQ(got[i], i / 32 * 100 + i % 32);
            for (int i = 0; i < G; i++)
                CHECK_EQ(flag[i], kn == 2 ? 2 : 1);
        }
    }
    /* warp 0 alone: nobody raises the flags */
    wm_ptx_module *m = pi_corpus("warp_flag", b);
    if (!m)
        return;
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    l.max_steps = 20000;
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "flag_shared", &l, &ft), WM_ERR_LIMIT);
    CHECK(strstr(ft.msg, "step budget of 20000 warp instructions") != NULL);
    wm_ptx_free(m);
}

/* A persistent kernel: 6 smoothing steps over 3000 floats on 4 CTAs of 128
   threads, a grid barrier after each (the barrier word reused 6 times),
   against the CPU's steps.  Every value is exact (integers below 1024 and
   two more fraction bits a step), so rounding and fma contraction agree. */
static void jacobi_grid(const char *b)
{
    enum { N = 3000, IT = 6 };
    static float x[2][N], want[2][N];
    for (int i = 0; i < N; i++)
        x[0][i] = want[0][i] = (float)(i * 37 % 1000);
    for (int t = 0; t < IT; t++) {
        const float *a = want[t % 2];
        float *o = want[(t + 1) % 2];
        for (int i = 0; i < N; i++)
            o[i] = 0.25f * a[i > 0 ? i - 1 : i] + 0.5f * a[i] +
                   0.25f * a[i < N - 1 ? i + 1 : i];
    }
    wm_ptx_module *m = pi_corpus("grid_sync", b);
    if (!m)
        return;
    pi_launch l = pi_dims(4, 128);
    pi_buf(&l, x[0], sizeof x[0]);
    pi_buf(&l, x[1], sizeof x[1]);
    pi_u32(&l, N);
    pi_u32(&l, IT);
    l.cooperative = 1;
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "jacobi_grid", &l, &ft), WM_OK);
    CHECK(memcmp(x[IT % 2], want[IT % 2], sizeof x[0]) == 0);
    wm_ptx_free(m);
}

static const corpus_case cases[] = {
    {"cg_reduce", cg_reduce, o3},
    {"reserved_smem", reserved_smem, o3},
    {"hopper", hopper, h90a},
    {"noinline", noinline, o3},
    {"for_each", for_each, o3},
    {"const_conv", const_conv, o3},
    {"assert_check", assert_check, o3},
    {"smem_multi", smem_multi, o3},
    {"scan_block", scan_block, o3},
    {"hist_shared", hist_shared, o3},
    {"aos_soa", aos_soa, o3},
    {"stencil2d", stencil2d, o3},
    {"bitonic", bitonic, o3},
    {"warp_vote", warp_vote, o3},
    {"grid_stride4", grid_stride4, o3},
    {"elect", elect, o3},
    {"asm_labels", asm_labels, o3},
    {"tile64", tile64, o3},
    {"cp_async_all", cp_async_all, o3},
    {"wgmma_gemm", wgmma_gemm, h90a},
    {"wmma_gemm", wmma_gemm, o3},
    {"wmma_f64", wmma_f64, o3},
    {"wmma_bits", wmma_bits, o3},
    {"atom_vec", atom_vec, s90},
    {"sync_count", sync_count, o3},
    {"simd16", simd16, o3},
    {"grid_sync", grid_sync, o3},
    {"jacobi_grid", jacobi_grid, o3},
    {"warp_flag", warp_flag, o3},
};

int main(void)
{
    int rc = corpus_run(cases, sizeof cases / sizeof cases[0], "test_corpus");
    /* every launch also ran checked (twin_checked): the race-free ones of
       plain loads and stores were proved and agreed with the slow run's
       real comparison; none proved would leave the proof untested */
    fprintf(stderr, "test_corpus: %u checked launches proved\n", twin_proved);
    return rc ? rc : twin_proved == 0;
}
