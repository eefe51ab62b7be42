/*
 * test_expr_closed_hand.c -- the closed form (expr_closed.c) on cases
 * worked out by hand: every examples/expr program at the size it is
 * written for, and small launches whose warps span two rows of the block,
 * span planes of a 3-D block, end part way through a block, or are cut by
 * a bounds guard.
 *
 * Each case is checked two ways.  wm_expr_run's per-statement totals must
 * equal the hand values (the derivation is beside each).  And the same
 * program through wmi_expr_walk_closed, the walk wm_expr_run uses, must
 * form only a small share of its accesses one by one and hand the rest
 * over as repeats, with the two adding up to every access of the launch:
 * a change that quietly sends a statement back to per-access evaluation
 * fails here, though it would change no number.  (test_expr_closed holds
 * the closed form to the per-thread reference on random programs.)
 */
#include "expr_int.h"
#include "check.h"

#include <stdio.h>

/* Per statement: requests (warps with a lane on), sectors and lines
 * (global) or wavefronts (shared), the same for every request. */
typedef struct want {
    uint64_t inst, sectors, tags, wavefronts;
    uint32_t per; /* sectors or wavefronts per request, every request */
} want;

/* k sectors and t lines per request, n requests. */
static want glob(uint64_t n, uint32_t k, uint32_t t)
{
    want w = {n, n * k, n * t, 0, k};
    return w;
}

/* k wavefronts per request, n requests. */
static want shar(uint64_t n, uint32_t k)
{
    want w = {n, 0, 0, n * k, k};
    return w;
}

/* Accesses formed one by one and accesses handed over as repeats. */
typedef struct reach {
    uint64_t formed, repeats;
} reach;

static wm_status formed_sink(void *ctx, const wm_access *a,
                             const wm_expr_where *w)
{
    (void)a;
    (void)w;
    ((reach *)ctx)->formed++;
    return WM_OK;
}

static wm_status repeat_sink(void *ctx, const wm_access *a, uint64_t n)
{
    (void)a;
    ((reach *)ctx)->repeats += n;
    return WM_OK;
}

static wm_expr *parse(const char *src, size_t n, const char *name)
{
    wm_expr *e = wm_expr_new();
    wm_diag d;
    wm_status st = wm_expr_parse(e, src, n, name, &d);
    if (st != WM_OK)
        fprintf(stderr, "%s:%d:%d: %s\n", name, d.line, d.col, d.msg);
    CHECK_EQ(st, WM_OK);
    return e;
}

/*
 * Run src: its statements' totals against w[0..nsites), and through the
 * closed walk at most max_formed accesses formed, the formed and repeated
 * ones adding up to `accesses`.
 */
static void check_prog(const char *name, const char *src, size_t len,
                       size_t nsites, const want *w, uint64_t accesses,
                       uint64_t max_formed)
{
    wm_expr *e = parse(src, len, name);
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK_EQ(wm_expr_run(e, g, 0, NULL), WM_OK);
    CHECK_EQ(wm_agg_nsites(g), nsites);
    for (size_t i = 0; i < nsites && i < wm_agg_nsites(g); i++) {
        wm_site s;
        CHECK(wm_agg_site(g, i, &s));
        CHECK_EQ(s.stats.inst, w[i].inst);
        CHECK_EQ(s.stats.requests, w[i].inst);
        CHECK_EQ(s.stats.sectors, w[i].sectors);
        CHECK_EQ(s.stats.tags, w[i].tags);
        CHECK_EQ(s.stats.wavefronts, w[i].wavefronts);
        CHECK_EQ(s.per_request.min, w[i].per);
        CHECK_EQ(s.per_request.max, w[i].per);
    }
    reach r = {0, 0};
    CHECK_EQ(wmi_expr_walk_closed(e, wm_arch_default(), WM_EXPR_DEFAULT_LIMIT,
                                  formed_sink, repeat_sink, &r, NULL),
             WM_OK);
    CHECK_EQ(r.formed + r.repeats, accesses);
    CHECK(r.formed <= max_formed);
    if (r.formed > max_formed)
        fprintf(stderr, "%s: %llu of %llu accesses formed (at most %llu)\n",
                name, (unsigned long long)r.formed,
                (unsigned long long)accesses,
                (unsigned long long)max_formed);
    wm_agg_free(g);
    wm_expr_free(e);
}

/* An example of examples/expr at its own size: formed <= 1/256 of all. */
static void check_example(const char *file, size_t nsites, const want *w)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/expr/%s", WM_SOURCE_DIR, file);
    size_t n;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    if (!src)
        return;
    uint64_t all = 0;
    for (size_t i = 0; i < nsites; i++)
        all += w[i].inst;
    check_prog(file, src, n, nsites, w, all, all / 256);
    free(src);
}

/*
 * The examples at 8192 x 8192 (W = 8192*8192/32 warps, one access per
 * statement each), as docs/expr.md's table gives them: an f32 row is 4
 * sectors in 1 line, an f32 column 32 in 32, a row 4 B past a sector 5 in
 * 2, an f32x4 row 16 in 4; a shared row 1 wavefront, a column of
 * [32][32] 32, of [32][33] or swizzled 1.
 */
static void examples(void)
{
    const uint64_t W = 8192 * 8192 / 32;
    want copy[2] = {glob(W, 4, 1), glob(W, 4, 1)};
    check_example("contiguous_copy.expr", 2, copy);
    check_example("torch_contiguous_copy.expr", 2, copy);
    want tcopy[2] = {glob(W, 32, 32), glob(W, 4, 1)};
    check_example("transposed_copy.expr", 2, tcopy);
    check_example("torch_transposed_copy.expr", 2, tcopy);
    want naive[2] = {glob(W, 4, 1), glob(W, 32, 32)};
    check_example("transpose_naive.expr", 2, naive);
    want tiled[4] = {glob(W, 4, 1), shar(W, 1), shar(W, 32), glob(W, 4, 1)};
    check_example("transpose_tiled.expr", 4, tiled);
    want padded[4] = {glob(W, 4, 1), shar(W, 1), shar(W, 1), glob(W, 4, 1)};
    check_example("transpose_padded.expr", 4, padded);
    check_example("transpose_swizzled.expr", 4, padded);
    want vec[2] = {glob(W / 4, 16, 4), glob(W / 4, 16, 4)};
    check_example("vector_copy16.expr", 2, vec);
    want mis[2] = {glob(W, 5, 2), glob(W, 4, 1)};
    check_example("misaligned_copy.expr", 2, mis);
    /* 4096 tokens, 2 warps of 16-byte stores per token: the paged cache's
       lanes 256 B apart (32 sectors, 32 lines), the flat one 16 sectors */
    want kv[2] = {glob(8192, 32, 32), glob(8192, 16, 4)};
    check_example("kv_cache.expr", 2, kv);
    /* 8 blocks x 8 warps x 512 iterations; lanes 8 floats apart: 32
       sectors over 1 KiB, 8 lines */
    want s8[1] = {glob(32768, 32, 8)};
    check_example("stride8_loop.expr", 1, s8);
    /* 512^3, 16 x 16 blocks: a warp holds two rows of the block.  A's
       lanes read two elements 2 KiB apart (2 sectors, 2 lines), B's two
       copies of one 64-byte row (2 sectors, 1 line), C's two rows of 64 B
       (4 sectors, 2 lines); 32 x 32 blocks x 8 warps x 512 iterations */
    const uint64_t M = 32 * 32 * 8 * 512, C = 32 * 32 * 8;
    want sn[3] = {glob(M, 2, 2), glob(M, 2, 1), glob(C, 4, 2)};
    check_example("sgemm_naive.expr", 3, sn);
    /* tiled: 32 iterations of two 64-byte rows each; the tile's store and
       its 16 reads along k, rows 64 B apart in other banks: 1 wavefront */
    want st[5] = {glob(C * 32, 4, 2), glob(C * 32, 4, 2), shar(C, 1),
                  shar(C * 16, 1), glob(C, 4, 2)};
    check_example("sgemm_tiled.expr", 5, st);
}

static void check_text(const char *name, const char *src, size_t nsites,
                       const want *w, uint64_t accesses, uint64_t max_formed)
{
    check_prog(name, src, strlen(src), nsites, w, accesses, max_formed);
}

/*
 * Warps across rows and a block x that is no multiple of 32.  Block
 * 48 x 2 = 3 warps: warp 0 is row 0, x 0..31; warp 1 row 0, x 32..47 and
 * row 1, x 0..15; warp 2 row 1, x 16..47.  a[y][c] is byte (4096 y + c) * 4
 * with c = 48 b + x, so block b starts row 0 at byte 192 b: a multiple of
 * 32, and of 128 for even b only.
 *   warp 0: 128 B from 192 b: 4 sectors; 1 line (b even) or 2 (b odd)
 *   warp 1: 64 B from 192 b + 128 and 64 B from 16384 + 192 b: 4 sectors,
 *           2 lines
 *   warp 2: 128 B from 16384 + 192 b + 64: 4 sectors; 2 lines (b even) or
 *           1 (b odd)
 * 64 blocks: 192 requests, 768 sectors, (1+2 + 2+2 + 2+1) * 32 = 320
 * lines.  Block b + 2 is block b moved by 384 B = 3 lines, so the first
 * two blocks' six accesses are all that must be formed.
 */
static void rows_in_warp(void)
{
    want w[1] = {{192, 768, 320, 0, 4}};
    check_text("rows_in_warp",
               "block 48, 2\ngrid 64\n"
               "load global f32 a[2][4096] at [tid.y][ctaid.x*48 + tid.x]\n",
               1, w, 192, 6);
}

/*
 * A 3-D block (8 x 4 x 2: a warp is one z plane, y 0..3 and x 0..7) and a
 * loop.  t[64][32] of f32: word (4 z + y) * 32 + 4 x + j, in bank
 * (4 x + j) % 32, so each warp hits 8 banks with 4 different words each:
 * 4 wavefronts, for every j and block.  10 blocks x 2 warps x 4
 * iterations: 80 requests, 320 wavefronts.  No index reads the block and
 * each iteration moves the warp by one bank: one access per warp formed.
 */
static void planes_and_loop(void)
{
    want w[1] = {{80, 0, 0, 320, 4}};
    check_text("planes_and_loop",
               "block 8, 4, 2\ngrid 10\n"
               "load shared f32 t[64][32] at [tid.z*4 + tid.y][tid.x*4 + j] "
               "for j in 0..4\n",
               1, w, 80, 2);
}

/* Sectors (32 B) or lines (128 B) of f32 elements [lo, hi), hi > lo. */
static uint64_t units(uint64_t lo, uint64_t hi, uint64_t per)
{
    return (hi * 4 + per - 1) / per - lo * 4 / per;
}

/*
 * A bounds guard and a partial warp: blocks of 100 threads (warps of 32,
 * 32, 32 and 4 lanes), element i = 100 b + x loaded when i < 9950.  Each
 * warp with a lane on reads the elements [lo, hi) it holds, so its sectors
 * and lines are those of that range; the warps past the guard count in
 * inst_all only.  The last block's guard cuts warp 1 after 18 lanes; its
 * warps 2 and 3 have none.
 */
static void guard(void)
{
    const char *src = "block 100\ngrid 100\nload global f32 a[10000] at "
                      "[ctaid.x*100 + tid.x] if ctaid.x*100 + tid.x < 9950\n";
    uint64_t all = 0, inst = 0, sectors = 0, lines = 0, smin = 32, smax = 0;
    for (uint64_t b = 0; b < 100; b++)
        for (uint64_t wp = 0; wp < 4; wp++) {
            uint64_t lo = 100 * b + 32 * wp;
            uint64_t hi = wp == 3 ? lo + 4 : lo + 32;
            hi = hi < 9950 ? hi : 9950;
            all++;
            if (lo >= hi)
                continue;
            uint64_t s = units(lo, hi, 32);
            inst++;
            sectors += s;
            lines += units(lo, hi, 128);
            smin = s < smin ? s : smin;
            smax = s > smax ? s : smax;
        }
    /* the full warps start 400 b + 128 wp bytes in: 4 sectors when that is
       a multiple of 32 (b even), 5 when it is 16 past one (b odd); the
       4-lane warps' 16 bytes lie in one sector either way */
    CHECK_EQ(all, 400);
    CHECK_EQ(inst, 398);
    CHECK_EQ(smin, 1);
    CHECK_EQ(smax, 5);
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_expr *e = parse(src, strlen(src), "guard");
    CHECK_EQ(wm_expr_run(e, g, 0, NULL), WM_OK);
    wm_site s;
    CHECK(wm_agg_site(g, 0, &s));
    CHECK_EQ(s.stats.inst_all, all);
    CHECK_EQ(s.stats.inst, inst);
    CHECK_EQ(s.stats.sectors, sectors);
    CHECK_EQ(s.stats.tags, lines);
    CHECK_EQ(s.per_request.min, smin);
    CHECK_EQ(s.per_request.max, smax);
    /* Block b starts 400 b bytes in: residues mod 128 repeat every 8
       blocks, so each warp is formed in blocks 0..7 only, but for the
       last block's warps 1..3, which the guard cuts and which go the
       ordinary way. */
    reach r = {0, 0};
    CHECK_EQ(wmi_expr_walk_closed(e, wm_arch_default(), WM_EXPR_DEFAULT_LIMIT,
                                  formed_sink, repeat_sink, &r, NULL),
             WM_OK);
    CHECK_EQ(r.formed + r.repeats, all);
    CHECK(r.formed <= 8 * 4 + 3);
    wm_agg_free(g);
    wm_expr_free(e);
}

int main(void)
{
    examples();
    rows_in_warp();
    planes_and_loop();
    guard();
    return check_done("test_expr_closed_hand");
}
