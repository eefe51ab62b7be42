/*
 * test_ptx_cluster_check.c -- `--check` and `--cache` on clusters of more
 * than one CTA: the corpus kernels of tests/corpus/cluster_check.cu (-O3
 * and -G, sm_90a).  Distributed shared memory handed to the next rank with
 * cluster.sync() between, with only __syncthreads(), with a relaxed
 * cluster arrive and with a cluster fence before it (exact verdicts: kind,
 * lines, CTAs and ranks, counts), a third CTA reading what one wrote
 * into another's memory, an uninitialised read of a neighbour's
 * halo, DSMEM atomics, the outputs against CPU references, and the cache
 * model's sector counts with a CTA per SM and a multicast TMA load read
 * once.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

static wm_ptx_module *corpus(const char *build)
{
    return pi_corpus("cluster_check", build);
}

/* A launch of grid x 128 threads in clusters of cx (0: the kernel's). */
static wm_ptx_launch launch(unsigned grid, unsigned cx, wm_ptx_arg *args,
                            size_t nargs)
{
    return pi_launch_of(grid, 1, 128, cx, args, nargs, NULL, 0);
}

/* Run kernel name under checks (fast and slow paths compared); the
   hazards in *chk (cleared by the caller). */
static wm_status checked(const wm_ptx_module *m, const char *name,
                         wm_ptx_launch *l, unsigned checks, wm_ptx_check *chk)
{
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    if (k < 0)
        return WM_ERR_ARG;
    memset(chk, 0, sizeof *chk);
    chk->checks = checks;
    l->check = chk;
    wm_ptx_fault f;
    wm_status st = twin_run(m, (size_t)k, l, NULL, NULL, &f);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s (PTX line %u)\n", name, f.msg, f.ptx_line);
    l->check = NULL;
    return st;
}

/* The CUDA source line of instruction insn. */
static unsigned line_of(const wm_ptx_module *m, size_t insn)
{
    wm_ptx_where w;
    CHECK(wm_ptx_where_insn(m, insn, &w));
    return w.line;
}

static void cta_is(const unsigned *cta, unsigned x)
{
    CHECK_EQ(cta[0], x);
    CHECK_EQ(cta[1], 0);
    CHECK_EQ(cta[2], 0);
}

/* in[i] = i; out of CTA b = the tile of the rank before b's in its
   cluster of 4. */
static int pass_right_ok(const float *in, const float *out, unsigned nctas)
{
    int bad = 0;
    for (unsigned b = 0; b < nctas; b++) {
        unsigned src = b / 4 * 4 + (b % 4 + 3) % 4;
        for (unsigned t = 0; t < 128; t++)
            bad += out[b * 128 + t] != in[src * 128 + t];
    }
    return bad;
}

/*
 * pass_right and its twins on 8 CTAs in clusters of 4.  Each CTA writes
 * its tile into the next rank's inbox (the write line) and reads its own
 * (the read line).  The checked run is in order: every CTA of a cluster
 * runs one round of its warps in rank order.
 *   - __syncthreads(): the writes all land in the first rounds, the reads
 *     follow in the second; rank 0's read is the first hazard, of what
 *     rank 3 wrote into rank 0's inbox: 128 lanes x 8 CTAs.
 *   - relaxed arrive: the phase completes when rank 3's warp 3 arrives,
 *     which goes on to read its inbox, written by rank 2's warp 3.
 */
static void pass(const wm_ptx_module *m)
{
    static float in[1024], out[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = (float)i;
    wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
    static const char *const clean[] = {"pass_right", "pass_right_fenced"};
    wm_ptx_check chk;
    for (int i = 0; i < 2; i++) {
        wm_ptx_launch l = launch(8, 4, a, 2);
        memset(out, 0, sizeof out);
        CHECK_EQ(checked(m, clean[i], &l, WM_CHECK_RACE | WM_CHECK_INIT,
                         &chk),
                 WM_OK);
        CHECK_EQ(chk.nhazards, 0);
        CHECK_EQ(pass_right_ok(in, out, 8), 0);
        wm_ptx_check_clear(&chk);
    }
    static const struct {
        const char *name;
        unsigned wline, rline, wcta, rcta, warp;
    } racy[] = {{"pass_right_racy", 38, 40, 3, 0, 0},
                {"pass_right_relaxed", 51, 54, 2, 3, 3}};
    for (int i = 0; i < 2; i++) {
        wm_ptx_launch l = launch(8, 4, a, 2);
        CHECK_EQ(checked(m, racy[i].name, &l, WM_CHECK_RACE, &chk), WM_OK);
        CHECK_EQ(chk.nhazards, 1);
        if (chk.nhazards != 1)
            continue;
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_RAW);
        CHECK_EQ(h->space, WM_SPACE_SHARED);
        CHECK_EQ(h->cluster, 4);
        CHECK_EQ(h->rank, racy[i].rcta); /* the reader's own inbox */
        CHECK_EQ(h->addr, racy[i].warp * 128);
        CHECK_EQ(h->count, 1024);
        CHECK_EQ(line_of(m, h->first.insn), racy[i].wline);
        CHECK_EQ(line_of(m, h->second.insn), racy[i].rline);
        CHECK(h->first.write && !h->second.write);
        cta_is(h->first.cta, racy[i].wcta);
        cta_is(h->second.cta, racy[i].rcta);
        cta_is(h->cta, racy[i].rcta);
        CHECK_EQ(h->first.rank, racy[i].wcta);
        CHECK_EQ(h->second.rank, racy[i].rcta);
        CHECK_EQ(h->first.warp, racy[i].warp);
        CHECK_EQ(h->second.warp, racy[i].warp);
        CHECK_EQ(h->first.lane, 0);
        CHECK_EQ(h->second.thread[0], racy[i].warp * 32);
        wm_ptx_check_clear(&chk);
    }
}

/*
 * halo_uninit: threads 120..127 read the left neighbour's tile past the
 * 120 entries it wrote: 8 lanes x 8 CTAs.  The first is rank 3 (the
 * phase completes in its round and its warp 3 reads on) reading rank 2's
 * tile[120].  Races: none (cluster.sync() orders the tile).
 */
static void halo(const wm_ptx_module *m)
{
    static float in[1024], out[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = (float)i;
    wm_ptx_arg a[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
    wm_ptx_launch l = launch(8, 4, a, 2);
    wm_ptx_check chk;
    CHECK_EQ(checked(m, "halo_uninit", &l, WM_CHECK_RACE | WM_CHECK_INIT, &chk),
             WM_OK);
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_UNINIT);
        CHECK_EQ(h->rank, 2);
        CHECK_EQ(h->addr, 480);
        CHECK_EQ(h->count, 64);
        CHECK_EQ(line_of(m, h->second.insn), 86);
        cta_is(h->second.cta, 3);
        CHECK_EQ(h->second.rank, 3);
        CHECK_EQ(h->second.thread[0], 120);
    }
    wm_ptx_check_clear(&chk);
    /* the interior: own tile + the neighbour's at the same index */
    int bad = 0;
    for (unsigned b = 0; b < 8; b++) {
        unsigned left = b / 4 * 4 + (b % 4 + 3) % 4;
        for (unsigned t = 0; t < 120; t++)
            bad += out[b * 128 + t] != in[b * 128 + t] + in[left * 128 + t];
    }
    CHECK_EQ(bad, 0);
}

/* cluster_hist: DSMEM atomics of every CTA into rank 0's bins are not
   races with each other; 1000 of 1024 elements, in[i] = 3 i. */
static void hist(const wm_ptx_module *m)
{
    static unsigned in[1024], out[32];
    for (unsigned i = 0; i < 1024; i++)
        in[i] = 3 * i;
    int32_t n = 1000;
    wm_ptx_arg a[3] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out),
                       pi_arg_val(&n, 4)};
    wm_ptx_launch l = launch(8, 4, a, 3);
    wm_ptx_check chk;
    CHECK_EQ(checked(m, "cluster_hist", &l, WM_CHECK_RACE | WM_CHECK_INIT,
                     &chk),
             WM_OK);
    CHECK_EQ(chk.nhazards, 0);
    wm_ptx_check_clear(&chk);
    unsigned want[32] = {0};
    for (unsigned i = 0; i < 1000; i++)
        want[i / 512 * 16 + in[i] % 16]++;
    CHECK_EQ(memcmp(out, want, sizeof want), 0);
}

/* A model of H200 for the launch; the totals after the run in *s. */
static wm_status cached(const wm_ptx_module *m, const char *name,
                        wm_ptx_launch *l, wm_cache_stats *s)
{
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    if (k < 0)
        return WM_ERR_ARG;
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, wm_gpu_find("H200"), 128,
                                  wm_ptx_kernel_smem(m, (size_t)k, 0)),
             WM_OK);
    l->cache = wm_cache_new(&cfg);
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_ptx_fault f;
    wm_ptx_result res;
    memset(&res, 0, sizeof res);
    wm_status st = wm_ptx_run(m, (size_t)k, l, g, &res, &f);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s (PTX line %u)\n", name, f.msg, f.ptx_line);
    /* every CTA ran: not a sample, though the unit of work is a cluster */
    CHECK_EQ(res.ctas_run, l->grid[0]);
    CHECK(!res.sampled);
    memset(s, 0, sizeof *s);
    wm_cache_totals(l->cache, s);
    wm_cache_free(l->cache);
    l->cache = NULL;
    wm_agg_free(g);
    return st;
}

/*
 * --cache on clusters.  same_coeffs: the 4 CTAs of a cluster read the
 * same 128 floats (4 lines, 16 sectors); each CTA is on its own SM, so
 * every load misses its L1 (64 sectors), the first CTA's 16 miss L2 and
 * go to DRAM, the other 48 hit L2.  pass_right: the DSMEM stores are no
 * global traffic: 64 load and 64 store sectors for 4 CTAs of 128 floats.
 */
static void cache(const wm_ptx_module *m)
{
    static float coef[128], out[512], in[512];
    for (int i = 0; i < 128; i++)
        coef[i] = (float)i;
    wm_ptx_arg a[2] = {pi_arg_buf(coef, sizeof coef),
                       pi_arg_buf(out, sizeof out)};
    wm_ptx_launch l = launch(4, 4, a, 2);
    wm_cache_stats s;
    CHECK_EQ(cached(m, "same_coeffs", &l, &s), WM_OK);
    CHECK_EQ(s.l1_ld_sectors, 64);
    CHECK_EQ(s.l1_ld_hits, 0);
    CHECK_EQ(s.l2_rd_sectors, 64);
    CHECK_EQ(s.l2_rd_hits, 48);
    CHECK_EQ(s.dram_rd_sectors, 16);
    CHECK_EQ(s.l1_st_sectors, 64);
    CHECK_EQ(out[3 * 128 + 5], 15.0f); /* rank 3 x coef[5] */
    for (int i = 0; i < 512; i++)
        in[i] = (float)i;
    wm_ptx_arg b[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
    l = launch(4, 4, b, 2);
    CHECK_EQ(cached(m, "pass_right", &l, &s), WM_OK);
    CHECK_EQ(s.l1_ld_sectors, 64);
    CHECK_EQ(s.l1_st_sectors, 64);
    CHECK_EQ(s.l2_wr_sectors, 64);
    CHECK_EQ(s.dram_rd_sectors, 64);
    CHECK_EQ(pass_right_ok(in, out, 4), 0);
}

/*
 * tma_multicast on 4 CTAs (two clusters of two, from __cluster_dims__):
 * each cluster's rank 0 loads a 16 x 32 float box, 16 rows of 128 bytes
 * (64 sectors), once for both CTAs: 128 load sectors, all from DRAM (not
 * 256, as one copy per destination would count); the 4 CTAs store 512
 * floats each, 256 sectors.  Both CTAs of a cluster get the same box.
 */
static void multicast(const wm_ptx_module *m)
{
    static float g[32 * 32], out[4 * 512];
    for (int i = 0; i < 32 * 32; i++)
        g[i] = (float)i * 0.25f;
    wm_ptx_tmap t;
    memset(&t, 0, sizeof t);
    t.dtype = 7; /* f32 */
    t.rank = 2;
    t.global_address = wm_ptx_extra_address(2, 0);
    t.dims[0] = t.dims[1] = 32;
    t.strides[0] = 128;
    t.box[0] = 32;
    t.box[1] = 16;
    t.elem_strides[0] = t.elem_strides[1] = 1;
    uint8_t mp[128];
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
    wm_ptx_arg x[1] = {pi_arg_buf(g, sizeof g)};
    wm_ptx_arg a[2] = {pi_arg_val(mp, 128), pi_arg_buf(out, sizeof out)};
    wm_ptx_launch l = launch(4, 0, a, 2);
    l.extra = x;
    l.nextra = 1;
    wm_cache_stats s;
    CHECK_EQ(cached(m, "tma_multicast", &l, &s), WM_OK);
    CHECK_EQ(s.l1_ld_sectors, 128);
    CHECK_EQ(s.dram_rd_sectors, 128);
    CHECK_EQ(s.l1_st_sectors, 256);
    int bad = 0;
    for (int b = 0; b < 4; b++)
        for (int k = 0; k < 512; k++)
            bad += out[b * 512 + k] != g[b / 2 * 512 + k];
    CHECK_EQ(bad, 0);
    /* and under --check: the mbarrier waits order each CTA's reads after
       the copy into it, the cluster barrier the mbarrier arming before */
    wm_ptx_check chk;
    CHECK_EQ(checked(m, "tma_multicast", &l, WM_CHECK_RACE | WM_CHECK_INIT,
                     &chk),
             WM_OK);
    CHECK_EQ(chk.nhazards, 0);
    wm_ptx_check_clear(&chk);
}

/* Rank 0 writes rank 1's shared words, rank 2 reads them: a third CTA's
   memory, ordered by the cluster barrier between (ARRIVE: "" or
   ".relaxed"). */
#define THIRD_SRC(ARRIVE)                                                     \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                        \
    ".visible .entry third(.param .u64 out)\n{\n"                             \
    "\t.shared .align 4 .b8 s[128];\n"                                       \
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<4>;\n"         \
    "\tmov.u32 %r1, %cluster_ctarank;\n"                                     \
    "\tmov.u32 %r2, %tid.x;\n"                                               \
    "\tmov.u32 %r3, s;\n"                                                    \
    "\tshl.b32 %r4, %r2, 2;\n"                                               \
    "\tadd.u32 %r3, %r3, %r4;\n"                                             \
    "\tmov.u32 %r5, 1;\n"                                                    \
    "\tmapa.shared::cluster.u32 %r6, %r3, %r5;\n"                            \
    "\tsetp.eq.u32 %p1, %r1, 0;\n"                                           \
    "\t@%p1 st.shared::cluster.u32 [%r6], %r2;\n"                            \
    "\tbarrier.cluster.arrive" ARRIVE ".aligned;\n"                          \
    "\tbarrier.cluster.wait.aligned;\n"                                      \
    "\tsetp.eq.u32 %p2, %r1, 2;\n"                                           \
    "\t@%p2 ld.shared::cluster.u32 %r7, [%r6];\n"                            \
    "\tld.param.u64 %rd1, [out];\n"                                          \
    "\tmul.wide.u32 %rd2, %r2, 4;\n"                                         \
    "\tadd.u64 %rd3, %rd1, %rd2;\n"                                          \
    "\t@%p2 st.global.u32 [%rd3], %r7;\n"                                    \
    "\tbarrier.cluster.arrive.aligned;\n"                                    \
    "\tbarrier.cluster.wait.aligned;\n"                                      \
    "\tret;\n}\n"

static void third(void)
{
    static const char *const src[2] = {THIRD_SRC(""), THIRD_SRC(".relaxed")};
    for (int i = 0; i < 2; i++) {
        wm_ptx_module *m = pi_parse(src[i], "third.ptx");
        CHECK(m != NULL);
        if (!m)
            continue;
        uint32_t out[32];
        memset(out, 0, sizeof out);
        wm_ptx_arg a[1] = {pi_arg_buf(out, sizeof out)};
        wm_ptx_launch l = launch(4, 4, a, 1);
        l.block[0] = 32;
        wm_ptx_check chk;
        CHECK_EQ(checked(m, "third", &l, WM_CHECK_RACE | WM_CHECK_INIT, &chk),
                 WM_OK);
        CHECK_EQ(out[31], 31);
        CHECK_EQ(chk.nhazards, (size_t)i);
        if (chk.nhazards == 1) {
            const wm_ptx_hazard *h = &chk.hazards[0];
            wm_ptx_where w1, w2;
            CHECK(wm_ptx_where_insn(m, h->first.insn, &w1));
            CHECK(wm_ptx_where_insn(m, h->second.insn, &w2));
            CHECK_EQ(h->kind, WM_HAZ_RAW);
            CHECK_EQ(w1.ptx_line, 18); /* the st.shared::cluster */
            CHECK_EQ(w2.ptx_line, 22); /* the ld.shared::cluster */
            CHECK_EQ(h->rank, 1);      /* in rank 1's memory */
            cta_is(h->first.cta, 0);
            cta_is(h->second.cta, 2);
            CHECK_EQ(h->count, 32);
        }
        wm_ptx_check_clear(&chk);
        wm_ptx_free(m);
    }
}

int main(void)
{
    static const char *const builds[] = {"sm_90a", "G_sm_90a"};
    for (size_t b = 0; b < 2; b++) {
        wm_ptx_module *m = corpus(builds[b]);
        if (!m)
            continue;
        pass(m);
        halo(m);
        hist(m);
        cache(m);
        multicast(m);
        wm_ptx_free(m);
    }
    third();
    return check_done("test_ptx_cluster_check");
}
