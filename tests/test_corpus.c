/*
 * test_corpus.c -- the regression corpus (the .cu files of tests/corpus/,
 * compiled by scripts/gen-ptx.sh at -O3 -lineinfo and at -G, for sm_80
 * and sm_90):
 * every kernel runs in every build, its functional result is checked
 * against a CPU reference, and at least one per-line number against a
 * hand count.  Each case is a few lines on top of the helpers below.
 */
#include "check.h"
#include "ptx_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wm_arch arch;

/* Parse tests/corpus/ptx/NAME_BUILD.ptx; NULL (and a failed check) when it
   cannot be read or parsed. */
static wm_ptx_module *corpus(const char *name, const char *build)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/corpus/ptx/%s_%s.ptx",
             WM_SOURCE_DIR, name, build);
    size_t n = 0;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    if (!src)
        return NULL;
    wm_ptx_module *m = pi_parse(src, path);
    free(src);
    CHECK(m != NULL);
    return m;
}

/* Run kernel `name` of corpus file NAME_BUILD; statistics in *agg
   (caller frees) when agg is not NULL. */
static wm_status crun(const char *file, const char *build, const char *name,
                      const pi_launch *l, wm_agg **agg)
{
    wm_ptx_module *m = corpus(file, build);
    if (!m)
        return WM_ERR_PARSE;
    wm_agg *g = wm_agg_new(&arch);
    wm_status st = pi_run_agg(m, name, l, g, NULL);
    if (st != WM_OK)
        fprintf(stderr, "  (%s_%s.ptx)\n", file, build);
    if (agg)
        *agg = g;
    else
        wm_agg_free(g);
    wm_ptx_free(m);
    return st;
}

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
   mbarrier; wgmma faults as unsupported at its line. */
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
    wm_ptx_module *m = corpus("hopper", b);
    wm_ptx_fault ft;
    if (m) {
        CHECK_EQ(pi_run(m, "tma_wgmma", &l, &ft), WM_ERR_UNSUPPORTED);
        CHECK(strstr(ft.msg, "unsupported instruction 'cp.async.bulk."
                             "tensor.2d") != NULL);
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
    wm_ptx_module *m = corpus("noinline", b);
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

typedef struct corpus_case {
    const char *name;
    void (*run)(const char *build);
    const char *const *builds; /* NULL-terminated */
} corpus_case;

/* -O3 -lineinfo and -G builds; the -G ones need calls (not yet run). */
static const char *const o3[] = {"sm_80", "sm_90", "G_sm_80", "G_sm_90", NULL};
static const char *const h90a[] = {"sm_90a", "G_sm_90a", NULL};

static const corpus_case cases[] = {
    {"cg_reduce", cg_reduce, o3},
    {"reserved_smem", reserved_smem, o3},
    {"hopper", hopper, h90a},
    {"noinline", noinline, o3},
};

int main(void)
{
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (const char *const *b = cases[i].builds; *b; b++) {
            int before = check_failures;
            cases[i].run(*b);
            if (check_failures != before)
                fprintf(stderr, "  ^ corpus case %s, build %s\n",
                        cases[i].name, *b);
        }
    return check_done("test_corpus");
}
