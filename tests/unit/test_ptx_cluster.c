/*
 * test_ptx_cluster.c -- thread-block clusters (ptx_cluster.c): the corpus
 * kernels of tests/corpus/cluster_dsmem.cu (-O3 and -G, sm_90) against CPU
 * references with one and two workers and with sampled CTAs, the cluster
 * registers, the DSMEM counts of a line, the launch checks of the cluster
 * shape (and that --check runs clusters), and the faults of a cluster barrier deadlock and of a DSMEM
 * access to a CTA that has exited.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

static wm_arch arch;

static wm_ptx_module *corpus(const char *build)
{
    return pi_corpus("cluster_dsmem", build);
}

/* A launch of grid x block (1-D unless set after) with a cluster shape. */
static wm_ptx_launch launch(unsigned grid, unsigned block, unsigned cx,
                            wm_ptx_arg *args, size_t nargs)
{
    return pi_launch_of(grid, 1, block, cx, args, nargs, NULL, 0);
}

/* Run kernel name (fast and slow paths compared); the fault in *ft. */
static wm_status run(const wm_ptx_module *m, const char *name,
                     const wm_ptx_launch *l, wm_agg *agg, wm_ptx_result *res,
                     wm_ptx_fault *ft)
{
    return pi_run_launch(m, name, l, agg, res, ft);
}

/* cluster_sum: every element added into rank 0's total by DSMEM atomics;
   the cluster shape comes from .reqnctapercluster 4. */
static void cluster_sum(const wm_ptx_module *m, unsigned threads, int counts)
{
    enum { N = 1000 };
    static int in[1024];
    int out[2] = {-1, -1}, ref[2] = {0, 0};
    srand(7);
    for (int i = 0; i < N; i++) {
        in[i] = rand() % 2001 - 1000;
        ref[i / 512] += in[i];
    }
    wm_ptx_arg a[3] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out), pi_arg_u32(N)};
    wm_ptx_launch l = launch(8, 128, 0, a, 3);
    l.threads = threads;
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_result res;
    CHECK_EQ(run(m, "cluster_sum", &l, g, &res, NULL), WM_OK);
    CHECK_EQ(out[0], ref[0]);
    CHECK_EQ(out[1], ref[1]);
    CHECK_EQ(res.ctas_run, 8);
    /* atomicAdd(dst, v) (-O3; -G calls a function for it): 8 CTAs x 4
       warps, all lanes at one word of rank 0: one shared atomic request
       each */
    wm_stats s = pi_line(g, "cluster_dsmem.cu", 23, WM_SPACE_SHARED,
                         WM_OP_ATOM);
    CHECK_EQ(s.requests, counts ? 32 : 0);
    wm_agg_free(g);

    /* the launch may not ask for another shape */
    l.cluster[0] = 2;
    l.cluster[1] = l.cluster[2] = 1;
    wm_ptx_fault ft;
    CHECK_EQ(run(m, "cluster_sum", &l, NULL, NULL, &ft), WM_ERR_ARG);
    CHECK(strstr(ft.msg, "compiled for clusters of 4x1x1") != NULL);
}

/* out[i] = own + 2 * right neighbour's tile[t] + 4 * left's tile[255-t] */
static int halo_bad(const float *in, const float *out, unsigned grid,
                    unsigned cx)
{
    int bad = 0;
    for (unsigned b = 0; b < grid; b++) {
        unsigned r = b % cx, base = b - r;
        for (unsigned t = 0; t < 256; t++) {
            unsigned right = (base + (r + 1) % cx) * 256 + t;
            unsigned left = (base + (r + cx - 1) % cx) * 256 + 255 - t;
            float ref = in[b * 256 + t] + 2.0f * in[right] + 4.0f * in[left];
            bad += out[b * 256 + t] != ref;
        }
    }
    return bad;
}

static void halo(const wm_ptx_module *m, int counts)
{
    static float in[2048], out[2048];
    for (int i = 0; i < 2048; i++)
        in[i] = (float)(i * 7 % 101) - 50.0f;
    static const unsigned shapes[][2] = {{4, 1}, {4, 2}, {2, 2}, {1, 1}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        memset(out, 0, sizeof out);
        wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
        wm_ptx_launch l = launch(8, 256, shapes[k][0], a, 2);
        l.threads = shapes[k][1];
        wm_agg *g = wm_agg_new(&arch);
        CHECK_EQ(run(m, "halo_exchange", &l, g, NULL, NULL), WM_OK);
        CHECK_EQ(halo_bad(in, out, 8, shapes[k][0]), 0);
        if (counts && shapes[k][0] == 4) {
            /* right[t], left[255 - t]: 8 CTAs x 8 warps of 32 words in
               another CTA, one wavefront each */
            wm_stats s = pi_line(g, "cluster_dsmem.cu", 39, WM_SPACE_SHARED,
                                 WM_OP_LD);
            CHECK_EQ(s.requests, 64);
            CHECK_EQ(s.wavefronts, 64);
            s = pi_line(g, "cluster_dsmem.cu", 40, WM_SPACE_SHARED, WM_OP_LD);
            CHECK_EQ(s.requests, 64);
            CHECK_EQ(s.wavefronts, 64);
        }
        wm_agg_free(g);
    }
    /* a sampled CTA brings its cluster: CTA 5 is in the second of two */
    memset(out, 0, sizeof out);
    wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
    wm_ptx_launch l = launch(8, 256, 4, a, 2);
    l.ctas = WM_PTX_CTAS_FIRST;
    l.ctas_n = 5;
    wm_ptx_result res;
    CHECK_EQ(run(m, "halo_exchange", &l, NULL, &res, NULL), WM_OK);
    CHECK_EQ(res.ctas_run, 8);
    CHECK_EQ(halo_bad(in, out, 8, 4), 0);
    l.ctas = WM_PTX_CTAS_SAMPLE;
    l.ctas_n = 1;
    l.seed = 3;
    CHECK_EQ(run(m, "halo_exchange", &l, NULL, &res, NULL), WM_OK);
    CHECK_EQ(res.ctas_run, 4);
    CHECK(res.sampled);
}

/* The cluster registers of a 4x6 grid in clusters of 2x3. */
static void ids(const wm_ptx_module *m)
{
    static unsigned out[8 * 24];
    wm_ptx_arg a[1] = {pi_arg_buf(out, sizeof out)};
    wm_ptx_launch l = launch(4, 32, 0, a, 1);
    l.grid[1] = 6;
    l.cluster[0] = 2;
    l.cluster[1] = 3;
    l.cluster[2] = 1;
    CHECK_EQ(run(m, "cluster_ids", &l, NULL, NULL, NULL), WM_OK);
    int bad = 0;
    for (unsigned y = 0; y < 6; y++)
        for (unsigned x = 0; x < 4; x++) {
            const unsigned *o = out + 8 * (x + 4 * y);
            unsigned cx = x % 2, cy = y % 3;
            bad += o[0] != cx + 2 * cy; /* %cluster_ctarank */
            bad += o[1] != 6;           /* %cluster_nctarank */
            bad += o[2] != cx || o[3] != cy; /* %cluster_ctaid */
            bad += o[4] != 203;              /* %cluster_nctaid */
            bad += o[5] != x / 2;            /* %clusterid.x */
            bad += o[6] != 2;                /* %nclusterid.y */
            bad += o[7] != 1;                /* %is_explicit_cluster */
        }
    CHECK_EQ(bad, 0);
    /* no cluster: each CTA its own cluster of one, not explicit */
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 0;
    CHECK_EQ(run(m, "cluster_ids", &l, NULL, NULL, NULL), WM_OK);
    const unsigned *o = out + 8 * (3 + 4 * 5);
    CHECK_EQ(o[0], 0);
    CHECK_EQ(o[1], 1);
    CHECK_EQ(o[4], 101);
    CHECK_EQ(o[5], 3);
    CHECK_EQ(o[6], 6);
    CHECK_EQ(o[7], 0);
}

/* ring_asm: st/red/ld .shared::cluster through mapa.shared::cluster. */
static void ring(const wm_ptx_module *m)
{
    static unsigned in[16 * 128], out[16 * 128];
    for (unsigned i = 0; i < 16 * 128; i++)
        in[i] = i * 3 + 1;
    static const unsigned shapes[] = {3, 16};
    for (size_t k = 0; k < 2; k++) {
        unsigned cx = shapes[k], grid = cx == 3 ? 6 : 16;
        wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
        wm_ptx_launch l = launch(grid, 128, cx, a, 2);
        l.cluster_nonportable = cx > 8;
        l.threads = 2;
        CHECK_EQ(run(m, "ring_asm", &l, NULL, NULL, NULL), WM_OK);
        int bad = 0;
        for (unsigned b = 0; b < grid; b++) {
            unsigned r = b % cx, prev = b - r + (r + cx - 1) % cx;
            for (unsigned t = 0; t < 128; t++)
                bad += out[b * 128 + t] !=
                       in[prev * 128 + t] * 10 + (r + cx - 1) % cx +
                           1000000u * 128;
        }
        CHECK_EQ(bad, 0);
    }
}

/* The shape checks: divisibility, the portable and hardware limits, and
   the analyses that do not take clusters yet. */
static void shapes(const wm_ptx_module *m)
{
    static unsigned in[32 * 128], out[32 * 128];
    wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
    wm_ptx_fault ft;
    wm_ptx_launch l = launch(6, 128, 4, a, 2);
    CHECK_EQ(run(m, "ring_asm", &l, NULL, NULL, &ft), WM_ERR_ARG);
    CHECK(strstr(ft.msg, "grid 6x1x1 is not a multiple of the cluster "
                         "4x1x1") != NULL);
    l = launch(18, 128, 9, a, 2);
    CHECK_EQ(run(m, "ring_asm", &l, NULL, NULL, &ft), WM_ERR_ARG);
    CHECK(strstr(ft.msg, "at most 8 (the portable size)") != NULL);
    l = launch(32, 32, 32, a, 2);
    l.cluster_nonportable = 1;
    CHECK_EQ(run(m, "ring_asm", &l, NULL, NULL, &ft), WM_ERR_ARG);
    CHECK(strstr(ft.msg, "16 with the non-portable") != NULL);
    long k = wm_ptx_find_kernel(m, "ring_asm");
    l = launch(6, 128, 4, a, 2);
    CHECK_EQ(wm_ptx_launch_check(m, (size_t)k, &l, &ft), WM_ERR_ARG);
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE;
    l = launch(6, 128, 3, a, 2);
    l.check = &chk;
    /* checked (test_ptx_cluster_check.c has the rest): the first barrier
       is .relaxed, so thread 0's count = 0 and the previous rank's red
       into that count are unordered, once per CTA */
    CHECK_EQ(run(m, "ring_asm", &l, NULL, NULL, &ft), WM_OK);
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        wm_ptx_where w1, w2;
        CHECK(wm_ptx_where_insn(m, chk.hazards[0].first.insn, &w1));
        CHECK(wm_ptx_where_insn(m, chk.hazards[0].second.insn, &w2));
        CHECK_EQ(chk.hazards[0].kind, WM_HAZ_WAW);
        CHECK_EQ(w1.line, 79);
        CHECK_EQ(w2.line, 90);
        CHECK(chk.hazards[0].second.atomic);
        CHECK_EQ(chk.hazards[0].count, 6);
    }
    wm_ptx_check_clear(&chk);
}

/* Rank 1's warp 1 waits at a bar.sync that needs warp 0, which waits at
   the cluster barrier for warp 1: a deadlock, reported, not a hang. */
static const char *deadlock_src =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry dl()\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %cluster_ctarank;\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tsetp.eq.u32 %p1, %r1, 1;\n"
    "\tsetp.ge.u32 %p2, %r2, 32;\n"
    "\tand.pred %p1, %p1, %p2;\n"
    "\t@%p1 bar.sync 1, 64;\n"
    "\tbarrier.cluster.arrive;\n"
    "\tbarrier.cluster.wait;\n"
    "\tret;\n}\n";

/* Rank 1 leaves right after the barrier; rank 0 then reads its shared
   memory (no second barrier keeps rank 1 alive). */
static const char *gone_src =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry gone(.param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 s[128];\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<3>;\n"
    "\tmov.u32 %r1, %cluster_ctarank;\n"
    "\tbarrier.cluster.arrive.aligned;\n"
    "\tbarrier.cluster.wait.aligned;\n"
    "\tsetp.eq.u32 %p1, %r1, 1;\n"
    "\t@%p1 ret;\n"
    "\tmov.u32 %r2, s;\n"
    "\tmov.u32 %r3, 1;\n"
    "\tmapa.shared::cluster.u32 %r4, %r2, %r3;\n"
    "\tld.shared::cluster.u32 %r5, [%r4];\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tst.global.u32 [%rd1], %r5;\n"
    "\tret;\n}\n";

static void faults(void)
{
    wm_ptx_module *m = pi_parse(deadlock_src, "dl.ptx");
    wm_ptx_fault ft;
    wm_ptx_launch l = launch(2, 64, 2, NULL, 0);
    if (m) {
        CHECK_EQ(run(m, "dl", &l, NULL, NULL, &ft), WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "cluster barrier deadlock") != NULL);
        CHECK(strstr(ft.msg, "all 128 live threads of the cluster but only "
                             "96 arrived") != NULL);
    }
    wm_ptx_free(m);
    m = pi_parse(gone_src, "gone.ptx");
    uint32_t out = 0;
    wm_ptx_arg a[1] = {pi_arg_buf(&out, 4)};
    l = launch(2, 32, 2, a, 1);
    if (m) {
        CHECK_EQ(run(m, "gone", &l, NULL, NULL, &ft), WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "cluster CTA rank 1, which has exited") != NULL);
        CHECK_EQ(ft.ptx_line, 18);
        /* clusters of one: rank 1 does not exist */
        l = launch(2, 32, 1, a, 1);
        CHECK_EQ(run(m, "gone", &l, NULL, NULL, &ft), WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "mapa to rank 1: the cluster has 1 CTAs") != NULL);
    }
    wm_ptx_free(m);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK);
    static const char *const builds[] = {"sm_90", "G_sm_90"};
    for (size_t b = 0; b < 2; b++) {
        wm_ptx_module *m = corpus(builds[b]);
        if (!m)
            continue;
        cluster_sum(m, 1, b == 0);
        cluster_sum(m, 2, b == 0);
        halo(m, b == 0);
        ids(m);
        ring(m);
        shapes(m);
        wm_ptx_free(m);
    }
    faults();
    return check_done("test_ptx_cluster");
}
