/*
 * test_expr_examples.c -- every program in examples/expr/ run through
 * wm_expr_run, its totals checked against values worked out by hand.
 *
 * The examples are written for 8192 x 8192; the test shrinks them with a
 * -D style override (N = 256, TOKENS = 256) so that it stays fast under
 * the sanitizers.  With W = N*N/32 warp accesses per statement (one
 * element per thread, or 32 x 32 tiles of 8 warps x 4 iterations):
 *   coalesced f32 row   4 sectors, 1 line   per request (ideal 4)
 *   f32 column          32 sectors, 32 lines (lanes a row = 1 KiB apart)
 *   shared tile row     1 wavefront; column of [32][32]: 32 (all lanes in
 *                       bank c); of [32][33] or XOR-swizzled: 1
 *   f32x4 row           16 sectors, 4 lines, W/4 requests
 *   f32 row + 4 B       5 sectors, 2 lines
 *   key cache (paged)   32 sectors, 32 lines (lanes 16*16 B apart);
 *   key cache (flat)    16 sectors, 4 lines; 2 requests per token
 * At N = 8192 the tiled transpose's column read gives 67,108,864
 * wavefronts, the SASS count ncu reports for transposeCoalesced and
 * 2,097,152 for the padded kernel (docs/design/memory-model.md §0).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "wm_int.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

typedef struct want {
    uint64_t inst, sectors, tags, ideal_sectors;
    uint64_t wavefronts, ideal_wavefronts, conflicts;
    uint32_t min, median, max;
} want;

static char *read_example(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/expr/%s", WM_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    static char buf[16384];
    *n = fread(buf, 1, sizeof buf - 1, f);
    buf[*n] = '\0';
    fclose(f);
    return buf;
}

/* Run example `name` with constant `cname` = cval; check its sites. */
static void check_example(const char *name, const char *cname, int64_t cval,
                          size_t nsites, const want *w)
{
    size_t n;
    const char *src = read_example(name, &n);
    CHECK(src != NULL);
    if (!src)
        return;
    wm_expr *e = wm_expr_new();
    wm_diag d;
    CHECK(wm_expr_define(e, cname, cval) == WM_OK);
    wm_status st = wm_expr_parse(e, src, n, name, &d);
    if (st != WM_OK)
        fprintf(stderr, "%s:%d:%d: %s\n", name, d.line, d.col, d.msg);
    CHECK_EQ(st, WM_OK);
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_expr_fault f;
    st = wm_expr_run(e, g, 0, &f);
    if (st == WM_ERR_FAULT)
        fprintf(stderr, "%s: fault %s\n", name, f.diag.msg);
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(wm_agg_nsites(g), nsites);
    for (size_t i = 0; i < nsites && i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        CHECK_EQ(s.stats.inst, w[i].inst);
        CHECK_EQ(s.stats.inst_all, w[i].inst);
        CHECK_EQ(s.stats.requests, w[i].inst);
        CHECK_EQ(s.stats.sectors, w[i].sectors);
        CHECK_EQ(s.stats.tags, w[i].tags);
        CHECK_EQ(s.stats.ideal_sectors, w[i].ideal_sectors);
        CHECK_EQ(s.stats.wavefronts, w[i].wavefronts);
        CHECK_EQ(s.stats.ideal_wavefronts, w[i].ideal_wavefronts);
        CHECK_EQ(s.stats.conflicts, w[i].conflicts);
        CHECK_EQ(s.per_request.min, w[i].min);
        CHECK_EQ(s.per_request.median, w[i].median);
        CHECK_EQ(s.per_request.max, w[i].max);
        /* The label is the statement as written, with its line. */
        wm_expr_stmt si;
        CHECK(wm_expr_stmt_info(e, i, &si));
        CHECK(strcmp(s.label, si.text) == 0);
        CHECK_EQ(s.line, si.line);
        /* The worst warp kept by the run matches the distribution. */
        wm_counts c;
        const wm_access *a = wm_expr_worst(e, i, NULL, &c);
        CHECK(a != NULL);
        if (a)
            CHECK_EQ(a->space == WM_SPACE_SHARED ? c.wavefronts : c.sectors,
                     w[i].max);
    }
    wm_agg_free(g);
    wm_expr_free(e);
}

/* Global access: k sectors and t lines per request, ideal q, W requests. */
static want glob(uint64_t W, uint32_t k, uint32_t t, uint32_t q)
{
    want w = {W, W * k, W * t, W * q, 0, 0, 0, k, k, k};
    return w;
}

/* Shared access: k wavefronts per request (ideal 1). */
static want shar(uint64_t W, uint32_t k)
{
    want w = {W, 0, 0, 0, W * k, W, W * (k - 1), k, k, k};
    return w;
}

/* The text report comes from the library like the other formats: the
   transposed copy at N = 64 (block 32 x 8, so 64*64/32 = 128 warp accesses
   per statement, the column read 32 sectors each), with the advisor's
   ranking. */
static void check_text_report(void)
{
    size_t n;
    const char *src = read_example("transposed_copy.expr", &n);
    CHECK(src != NULL);
    if (!src)
        return;
    wm_expr *e = wm_expr_new();
    wm_diag d;
    wm_expr_fault fault;
    CHECK_EQ(wm_expr_define(e, "N", 64), WM_OK);
    CHECK_EQ(wm_expr_parse(e, src, n, "t.expr", &d), WM_OK);
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK_EQ(wm_expr_run(e, g, 0, &fault), WM_OK);
    wm_expr_report_opts ro = {WM_FMT_TEXT, "t.expr", 1, NULL, 0, 80};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_EQ(wm_expr_report(f, e, g, &ro), WM_OK);
    fclose(f);
    CHECK(strncmp(buf, "sm_90: grid (", 13) == 0);
    CHECK(strstr(buf, "\n[1] ") != NULL);
    CHECK(strstr(buf, "128 warp accesses, 128 with active lanes") != NULL);
    CHECK(strstr(buf, "sectors per request: min 32  median 32  max 32") !=
          NULL);
    CHECK(strstr(buf, "\nall statements:\n") != NULL);
    CHECK(strstr(buf, "\nadvice, worst first") != NULL);
    free(buf);
    CHECK_EQ(wm_expr_report(NULL, e, g, &ro), WM_ERR_ARG);
    wm_agg_free(g);
    wm_expr_free(e);
}

int main(void)
{
    check_text_report();
    const uint64_t N = 256, W = N * N / 32;
    want copy[2] = {glob(W, 4, 1, 4), glob(W, 4, 1, 4)};
    check_example("contiguous_copy.expr", "N", (int64_t)N, 2, copy);

    want tcopy[2] = {glob(W, 32, 32, 4), glob(W, 4, 1, 4)};
    check_example("transposed_copy.expr", "N", (int64_t)N, 2, tcopy);

    want naive[2] = {glob(W, 4, 1, 4), glob(W, 32, 32, 4)};
    check_example("transpose_naive.expr", "N", (int64_t)N, 2, naive);

    want tiled[4] = {glob(W, 4, 1, 4), shar(W, 1), shar(W, 32),
                     glob(W, 4, 1, 4)};
    check_example("transpose_tiled.expr", "N", (int64_t)N, 4, tiled);

    want padded[4] = {glob(W, 4, 1, 4), shar(W, 1), shar(W, 1),
                      glob(W, 4, 1, 4)};
    check_example("transpose_padded.expr", "N", (int64_t)N, 4, padded);
    check_example("transpose_swizzled.expr", "N", (int64_t)N, 4, padded);

    want vec[2] = {glob(W / 4, 16, 4, 16), glob(W / 4, 16, 4, 16)};
    check_example("vector_copy16.expr", "N", (int64_t)N, 2, vec);

    want mis[2] = {glob(W, 5, 2, 4), glob(W, 4, 1, 4)};
    check_example("misaligned_copy.expr", "N", (int64_t)N, 2, mis);

    const uint64_t tokens = 256, R = tokens * 2;
    want kv[2] = {glob(R, 32, 32, 16), glob(R, 16, 4, 16)};
    check_example("kv_cache.expr", "TOKENS", (int64_t)tokens, 2, kv);
    return check_done("test_expr_examples");
}
