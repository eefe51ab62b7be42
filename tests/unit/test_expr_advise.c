/*
 * test_expr_advise.c -- the advisor on every program of examples/expr/,
 * through the library as `warpmem expr --explain` uses it: wm_expr_run
 * into a wm_agg, then wm_advise_site on each statement's worst warp
 * (wm_expr_worst) sized against the run's totals.
 *
 * Every value below is worked out by hand from docs/model.md (sectors:
 * distinct 32-byte sectors, ideal ceil(bytes/32); shared: distinct words
 * per bank per phase, ideal ceil(bytes/128)) and docs/advisor.md (the
 * fixes and the severity rule), at N = 256 (TOKENS = 256 for the key
 * cache) so that it stays fast under the sanitizers.  With W warp accesses
 * per statement (W = N*N/32 = 2048 for one f32 per thread, 512 for f32x4
 * and for the key cache: 64 blocks x 4 warps x 2 iterations):
 *
 *   coalesced f32 row      4 sectors (ideal 4).  vectorize 16: four
 *                          executions (4 requests, 4 x 4 = 16 sectors)
 *                          become one of 512 B (1 request, 16 sectors)
 *   f32 column (1 KiB      32 sectors (ideal 4), strided 1024 B; remap:
 *   between lanes)         lane i at 4i, 4 sectors; excess 28 W = 57344
 *                          of 32 W + 4 W = 73728 sectors: 78 %, high
 *   shared row of [32][32] 1 wavefront (ideal): no fix.  16-byte vectors
 *                          would take 4 x 1 wavefront in 4 requests to
 *                          512 B in 8-lane phases of 128 B, 4 wavefronts
 *                          in 1 request: no fewer wavefronts
 *   column of [32][32]     lane i at 128 i: all in one bank, 32 wavefronts
 *                          (ideal 1).  pad 4 B: lane i at 132 i, bank i,
 *                          1 wavefront.  swizzle g = 1 (span 32 units):
 *                          column 0 ^ i = i, lane i at 132 i, 1 wavefront.
 *                          Remap is not offered (no better than 1).
 *                          Excess 31 W = 63488 of W + 32 W = 67584: 94 %
 *   column of [32][33]     stride 132 B, bank i: 1 wavefront; pitch 132 B
 *                          is 33 words (odd: no swizzle span), no pad can
 *                          beat 1, remap neither: no fix
 *   swizzled column        worst (first) warp is row 0: lane i at 128 i +
 *                          4 i, the same as [32][33]: no fix; its row
 *                          store at r = 0 is a plain row: no fix
 *   f32x4 row              16 sectors (ideal 16), already 16 B: no fix
 *   f32 row + 4 B          5 sectors (ideal 4), misaligned by 4; align
 *                          (param 32): 4 sectors; not 8/16-aligned, so no
 *                          vectorize.  Excess W = 2048 of 5 W + 4 W =
 *                          18432: 11 %, medium
 *   key cache, paged       lanes 16 * 16 B = 256 B apart (head changes
 *                          every 16 lanes: +4096 - 15 * 256 = 256 too):
 *                          32 sectors (ideal 16); remap: 16.  Excess
 *                          16 W = 8192 of 32 W + 16 W = 24576: 33 %,
 *                          medium
 *   key cache, flat        16 sectors, ideal: no fix
 */
#include "wm_int.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct want_fix {
    wm_fix_kind kind;
    unsigned param, copies;
    uint32_t req_before, cost_before, req_after, cost_after;
} want_fix;

typedef struct want_adv {
    wm_pattern_kind pattern;
    int64_t stride;
    unsigned misalign;
    uint32_t cost, ideal; /* sectors or wavefronts of the worst warp */
    uint64_t excess, total;
    wm_severity severity;
    const char *headline;
    size_t nfixes;
    want_fix fix[2];
} want_adv;

/* Shorthands for the recurring verdicts. */
#define VEC_GLOBAL(total)                                                     \
    {WM_PAT_CONTIGUOUS, 4, 0, 4, 4, 0, total, WM_SEV_NONE,                   \
     "coalesced: 4 sectors per request (ideal)", 1,                          \
     {{WM_FIX_VECTORIZE, 16, 4, 4, 16, 1, 16}}}
#define VEC_SHARED(total)                                                     \
    {WM_PAT_CONTIGUOUS, 4, 0, 1, 1, 0, total, WM_SEV_NONE,                   \
     "conflict-free: 1 wavefront per request (ideal)", 0, {{0}}}
#define COLUMN_GLOBAL                                                         \
    {WM_PAT_STRIDED, 1024, 0, 32, 4, 57344, 73728, WM_SEV_HIGH,              \
     "strided access: 32 sectors per request (ideal 4)", 1,                  \
     {{WM_FIX_REMAP, 0, 1, 1, 32, 1, 4}}}
#define COLUMN_PADDED                                                         \
    {WM_PAT_STRIDED, 132, 0, 1, 1, 0, 4096, WM_SEV_NONE,                     \
     "conflict-free: 1 wavefront per request (ideal)", 0, {{0}}}

static char *read_example(const char *name, size_t *n)
{
    char path[512];
    static char buf[16384];
    snprintf(path, sizeof path, "%s/examples/expr/%s", WM_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    *n = fread(buf, 1, sizeof buf - 1, f);
    buf[*n] = '\0';
    fclose(f);
    return buf;
}

static void check_fix(const char *name, size_t i, const wm_fix *got,
                      const want_fix *w)
{
    wm_space sp = got->access.space;
    uint32_t cb = sp == WM_SPACE_SHARED ? got->before.wavefronts
                                        : got->before.sectors;
    uint32_t ca = sp == WM_SPACE_SHARED ? got->after.wavefronts
                                        : got->after.sectors;
    wm_counts re;
    if (got->kind != w->kind || got->param != w->param ||
        got->copies != w->copies || got->before.requests != w->req_before ||
        cb != w->cost_before || got->after.requests != w->req_after ||
        ca != w->cost_after)
        fprintf(stderr, "%s [%zu]: fix %s param %u copies %u: %u/%u -> "
                        "%u/%u\n",
                name, i + 1, wm_fix_name(got->kind), got->param,
                got->copies, got->before.requests, cb, got->after.requests,
                ca);
    CHECK_EQ(got->kind, w->kind);
    CHECK_EQ(got->param, w->param);
    CHECK_EQ(got->copies, w->copies);
    CHECK_EQ(got->before.requests, w->req_before);
    CHECK_EQ(cb, w->cost_before);
    CHECK_EQ(got->after.requests, w->req_after);
    CHECK_EQ(ca, w->cost_after);
    /* Same bytes before and after, and the what-if is the model's. */
    CHECK_EQ(got->before.bytes, got->after.bytes);
    CHECK_EQ(wm_count(wm_arch_default(), &got->access, &re), WM_OK);
    CHECK_EQ(re.requests, got->after.requests);
    CHECK_EQ(re.sectors, got->after.sectors);
    CHECK_EQ(re.wavefronts, got->after.wavefronts);
}

/*
 * Run example `name` with cname = cval and check the advice of each of its
 * nsites statements; rank0 is the statement (0-based) wm_advise_rank puts
 * first.  The program and aggregator are returned through *pe / *pg when
 * non-NULL (the caller frees them), else freed here.
 */
static void check_example(const char *name, const char *cname, int64_t cval,
                          size_t nsites, const want_adv *w, size_t rank0,
                          wm_expr **pe, wm_agg **pg)
{
    size_t n;
    const char *src = read_example(name, &n);
    CHECK(src != NULL);
    if (!src)
        return;
    wm_expr *e = wm_expr_new();
    wm_diag d;
    wm_expr_fault f;
    CHECK_EQ(wm_expr_define(e, cname, cval), WM_OK);
    CHECK_EQ(wm_expr_parse(e, src, n, name, &d), WM_OK);
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK_EQ(wm_expr_run(e, g, 0, &f), WM_OK);
    CHECK_EQ(wm_agg_nsites(g), nsites);
    wm_totals all;
    wm_agg_totals(g, &all);
    for (size_t i = 0; i < nsites && i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_advice v, direct;
        wm_counts c;
        wm_agg_site(g, i, &s);
        const wm_access *worst = wm_expr_worst(e, s.site, NULL, &c);
        CHECK(worst != NULL);
        if (!worst)
            continue;
        /* The aggregator's worst warp (drawn by the HTML report) is the
         * one the expr module recorded (same first-maximum rule). */
        CHECK(s.worst != NULL &&
              memcmp(s.worst->addr, worst->addr, sizeof worst->addr) == 0 &&
              s.worst->mask == worst->mask);
        s.worst = worst;
        CHECK_EQ(wm_advise_site(wm_arch_default(), &s, &all, &v), WM_OK);
        const want_adv *x = &w[i];
        uint32_t cost = s.space == WM_SPACE_SHARED ? v.counts.wavefronts
                                                   : v.counts.sectors;
        uint32_t ideal = s.space == WM_SPACE_SHARED
                             ? v.counts.ideal_wavefronts
                             : v.counts.ideal_sectors;
        if (strcmp(v.headline, x->headline) != 0 || v.nfixes != x->nfixes)
            fprintf(stderr, "%s [%zu]: \"%s\", %zu fixes\n", name, i + 1,
                    v.headline, v.nfixes);
        CHECK_EQ(v.pattern.kind, x->pattern);
        CHECK_EQ(v.pattern.stride, x->stride);
        CHECK_EQ(v.pattern.misalign, x->misalign);
        CHECK_EQ(cost, x->cost);
        CHECK_EQ(ideal, x->ideal);
        CHECK_EQ(v.excess, x->excess);
        CHECK_EQ(v.total, x->total);
        CHECK(fabs(v.share - (double)x->excess / (double)x->total) < 1e-12);
        CHECK_EQ(v.severity, x->severity);
        CHECK(strcmp(v.headline, x->headline) == 0);
        CHECK_EQ(v.nfixes, x->nfixes);
        for (size_t k = 0; k < v.nfixes && k < x->nfixes; k++)
            check_fix(name, i, &v.fixes[k], &x->fix[k]);
        /* The per-warp advice is the same as on the bare access. */
        CHECK_EQ(wm_advise(wm_arch_default(), worst, &direct), WM_OK);
        CHECK_EQ(direct.nfixes, v.nfixes);
        CHECK(strcmp(direct.headline, v.headline) == 0);
    }
    size_t order[8];
    if (nsites <= 8) {
        CHECK_EQ(wm_advise_rank(g, order), nsites);
        CHECK_EQ(order[0], rank0);
    }
    if (pe && pg) {
        *pe = e;
        *pg = g;
    } else {
        wm_agg_free(g);
        wm_expr_free(e);
    }
}

/* The transformed addresses of the tiled transpose's column-read fixes:
 * worst warp is row 0, lane i at 128 i; pad and swizzle both give 132 i,
 * a diagonal through the 32 banks. */
static void check_tiled_addresses(void)
{
    wm_expr *e = NULL;
    wm_agg *g = NULL;
    const want_adv tiled[4] = {
        VEC_GLOBAL(16384),
        VEC_SHARED(67584),
        {WM_PAT_STRIDED, 128, 0, 32, 1, 63488, 67584, WM_SEV_HIGH,
         "32-way bank conflict: 32 wavefronts per request (ideal 1)", 2,
         {{WM_FIX_PAD, 4, 1, 1, 32, 1, 1},
          {WM_FIX_SWIZZLE, 1, 1, 1, 32, 1, 1}}},
        VEC_GLOBAL(16384),
    };
    check_example("transpose_tiled.expr", "N", 256, 4, tiled, 2, &e, &g);
    if (!e)
        return;
    wm_site s;
    wm_advice v;
    wm_totals all;
    wm_agg_totals(g, &all);
    wm_agg_site(g, 2, &s);
    s.worst = wm_expr_worst(e, 2, NULL, NULL);
    CHECK_EQ(wm_advise_site(wm_arch_default(), &s, &all, &v), WM_OK);
    for (unsigned l = 0; l < 32; l++) {
        CHECK_EQ(s.worst->addr[l], 128u * l);
        CHECK_EQ(v.fixes[0].access.addr[l], 132u * l);
        CHECK_EQ(v.fixes[1].access.addr[l], 132u * l);
    }
    wm_agg_free(g);
    wm_expr_free(e);
}

/* Remap of the column read: lane i reads row i (1 KiB apart), after the
 * fix element i of the lowest row. */
static void check_transposed_addresses(void)
{
    wm_expr *e = NULL;
    wm_agg *g = NULL;
    const want_adv tc[2] = {COLUMN_GLOBAL, VEC_GLOBAL(73728)};
    check_example("transposed_copy.expr", "N", 256, 2, tc, 0, &e, &g);
    if (!e)
        return;
    wm_site s;
    wm_advice v;
    wm_agg_site(g, 0, &s);
    s.worst = wm_expr_worst(e, 0, NULL, NULL);
    CHECK_EQ(wm_advise_site(wm_arch_default(), &s, NULL, &v), WM_OK);
    /* Without totals the site is its own total: 57344 of 65536. */
    CHECK_EQ(v.total, 65536);
    CHECK_EQ(v.severity, WM_SEV_HIGH);
    for (unsigned l = 0; l < 32; l++) {
        CHECK_EQ(s.worst->addr[l], 1024u * l);
        CHECK_EQ(v.fixes[0].access.addr[l], 4u * l);
    }
    wm_agg_free(g);
    wm_expr_free(e);
}

int main(void)
{
    const want_adv contiguous[2] = {VEC_GLOBAL(16384), VEC_GLOBAL(16384)};
    check_example("contiguous_copy.expr", "N", 256, 2, contiguous, 0, NULL,
                  NULL);

    check_transposed_addresses();

    const want_adv naive[2] = {VEC_GLOBAL(73728), COLUMN_GLOBAL};
    check_example("transpose_naive.expr", "N", 256, 2, naive, 1, NULL, NULL);

    check_tiled_addresses();

    const want_adv padded[4] = {VEC_GLOBAL(16384), VEC_SHARED(4096),
                                COLUMN_PADDED, VEC_GLOBAL(16384)};
    check_example("transpose_padded.expr", "N", 256, 4, padded, 0, NULL,
                  NULL);
    check_example("transpose_swizzled.expr", "N", 256, 4, padded, 0, NULL,
                  NULL);

    const want_adv vec16[2] = {
        {WM_PAT_CONTIGUOUS, 16, 0, 16, 16, 0, 16384, WM_SEV_NONE,
         "coalesced: 16 sectors per request (ideal)", 0, {{0}}},
        {WM_PAT_CONTIGUOUS, 16, 0, 16, 16, 0, 16384, WM_SEV_NONE,
         "coalesced: 16 sectors per request (ideal)", 0, {{0}}},
    };
    check_example("vector_copy16.expr", "N", 256, 2, vec16, 0, NULL, NULL);

    const want_adv misaligned[2] = {
        {WM_PAT_CONTIGUOUS, 4, 4, 5, 4, 2048, 18432, WM_SEV_MEDIUM,
         "misaligned access: 5 sectors per request (ideal 4)", 1,
         {{WM_FIX_ALIGN, 32, 1, 1, 5, 1, 4}}},
        VEC_GLOBAL(18432),
    };
    check_example("misaligned_copy.expr", "N", 256, 2, misaligned, 0, NULL,
                  NULL);

    const want_adv kv[2] = {
        {WM_PAT_STRIDED, 256, 0, 32, 16, 8192, 24576, WM_SEV_MEDIUM,
         "strided access: 32 sectors per request (ideal 16)", 1,
         {{WM_FIX_REMAP, 0, 1, 1, 32, 1, 16}}},
        {WM_PAT_CONTIGUOUS, 16, 0, 16, 16, 0, 24576, WM_SEV_NONE,
         "coalesced: 16 sectors per request (ideal)", 0, {{0}}},
    };
    check_example("kv_cache.expr", "TOKENS", 256, 2, kv, 0, NULL, NULL);

    return check_done("test_expr_advise");
}
