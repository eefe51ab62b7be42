/*
 * fuzz_cache.c -- libFuzzer harness for the hierarchy model's inputs (the
 * cost model): bytes -> a GPU (a built-in one's figures with clock,
 * bandwidths, latencies and TLBs replaced or zeroed), a configuration
 * (wm_cache_config_init_regs for a CTA of the input's threads, shared
 * bytes and registers, then SMs, capacities, associativities and order
 * from the input) and a stream of CTAs, warp accesses and shared
 * wavefronts through wm_cache_cta / wm_cache_add; then wm_cache_finish,
 * the totals and sites, the time estimate, its intervals and reason, every
 * metric and the report in each format (JSON checked, fuzz_json.h).  The
 * API's contract is checked on the way: a finished model takes nothing
 * more, bad warps and load kinds are refused, hits never exceed lookups.
 */
#include "fuzz_json.h"
#include "fuzz_reader.h"
#include "warpmem.h"
#include "cache_int.h" /* wmi_cache_add_shared: a warp's shared records */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_REQUIRE(c)                                                       \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "fuzz_cache: %s:%d: %s\n", __FILE__, __LINE__,    \
                    #c);                                                      \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* The GPU: a built-in one's figures, each group replaced or zeroed ("no
   figure": the estimate leaves its term out) as the input says. */
static void gpu_of(reader *r, wm_gpu *g)
{
    unsigned b = (unsigned)take(r, 1), t = (unsigned)take(r, 1),
             p = (unsigned)take(r, 1);
    *g = *wm_gpu_at(b % wm_gpu_count());
    g->name = "fuzz";
    if (b & 8)
        g->dram_meas = 0;
    if (b & 16)
        g->l2_bw = 0;
    if (b & 32)
        g->lat_l1 = g->lat_l2 = g->lat_dram = 0;
    if (b & 64)
        g->dram_peak = 0; /* the measured figure stands in */
    if (b & 128)
        g->clock_hz = 1e6 * (double)(1 + take(r, 2));
    if (t & 1) { /* no TLB */
        g->tlb1_entries = g->tlb2_entries = 0;
        return;
    }
    g->tlb1_entries = 1 + (t >> 1 & 15);
    g->tlb2_entries = 1 + (t >> 5) * 9;
    g->tlb1_page = (uint64_t)128 << (p & 15);
    g->tlb2_page = g->tlb1_page << (p >> 4 & 7);
    g->lat_tlb1 = p & 128 ? 0 : 25;
    g->lat_tlb2 = p & 128 ? 0 : 400;
}

/* The configuration: the occupancy of a CTA from the input, then SMs,
   capacities (128 B to 256 KiB of L1, to 4 MiB of L2), associativities
   and order; now and then an invalid one, which wm_cache_new refuses. */
static wm_cache *cache_of(reader *r, const wm_gpu *g)
{
    static const unsigned ways[] = {0, 1, 2, 3, 4, 5, 16, 128};
    uint64_t threads = 1 + take(r, 2) % 1024, smem = take(r, 3) % (240u << 10);
    unsigned regs = (unsigned)take(r, 1);
    wm_cache_config c;
    if (wm_cache_config_init_regs(&c, g, threads, smem, regs) != WM_OK) {
        memset(&c, 0, sizeof c);
        c.gpu = g;
        c.ctas_per_sm = 1;
        c.line_bytes = 128;
        c.sector_bytes = 32;
    }
    unsigned s = (unsigned)take(r, 1), v = (unsigned)take(r, 1),
             w = (unsigned)take(r, 1);
    c.nsms = 1 + s % 8;
    if (s & 8)
        c.ctas_per_sm = 1 + (s >> 4) % 4;
    c.order = s & 64 ? WM_CACHE_ORDER_BARRIER : WM_CACHE_ORDER_INSN;
    c.l1_bytes = (uint64_t)128 << (v % 12);
    c.l1_ways = ways[v >> 4 & 7];
    c.l2_bytes = (uint64_t)128 << (w % 16);
    c.l2_ways = ways[w >> 4 & 7];
    if ((s & 128) && (w & 128)) /* not 128 B lines of 32 B sectors */
        c.line_bytes = 64;
    wm_cache *cache = wm_cache_new(&c);
    FUZZ_REQUIRE(cache || c.line_bytes != 128);
    return cache;
}

/* One warp access: like fuzz_draw's, 64 lanes, mostly global. */
static void access_of(reader *r, wm_access *a)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16, 4, 12, 4};
    static const wm_space spaces[] = {WM_SPACE_GLOBAL, WM_SPACE_GLOBAL,
                                      WM_SPACE_GLOBAL, WM_SPACE_SHARED};
    static const wm_op ops[] = {WM_OP_LD, WM_OP_ST, WM_OP_ATOM, WM_OP_LD,
                                WM_OP_LDGSTS, WM_OP_ATOM, WM_OP_TMA, WM_OP_ST};
    unsigned h = (unsigned)take(r, 2);
    memset(a, 0, sizeof *a);
    a->site = (unsigned)take(r, 1) % 6;
    a->space = spaces[h & 3];
    a->op = ops[(h >> 2) & 7];
    a->size = sizes[(h >> 5) & 7];
    a->mask = take(r, 8);
    uint64_t base = take(r, 3) << ((h >> 8) & 31);
    int64_t scale = (int64_t)1 << ((h >> 13) & 7);
    int step = (int8_t)take(r, 1);
    for (unsigned l = 0; l < 64; l++)
        a->addr[l] = base + (uint64_t)((int64_t)step * l * scale);
}

/* The stream: CTAs, accesses of warps 0..65 (64 and 65 are refused) in
   intervals 0..7 with load kinds 0..5 (5 is refused), shared
   wavefronts of the launch and of a warp in an interval (the records the
   replay gives turns); every access also goes to the aggregator. */
static void feed(reader *r, wm_cache *c, wm_agg *g)
{
    for (unsigned k = 0; k < 2048 && r->n; k++) {
        unsigned op = (unsigned)take(r, 1);
        if (op % 8 == 0) {
            wm_status st = wm_cache_cta(c); /* replays a full wave */
            FUZZ_REQUIRE(st == WM_OK || st == WM_ERR_NOMEM);
        } else if (op % 8 == 7 && op & 8) { /* a warp's, in the trace */
            unsigned warp = (unsigned)take(r, 1) % 66;
            unsigned iv = (unsigned)take(r, 1) % 8;
            wm_status st = wmi_cache_add_shared(c, warp, iv, take(r, 1));
            FUZZ_REQUIRE(st != WM_OK || warp < 64);
        } else if (op % 8 == 7) {
            wm_cache_add_shared_wavefronts(c, take(r, 2));
        } else {
            wm_access a;
            unsigned warp = (unsigned)take(r, 1) % 66;
            unsigned iv = (unsigned)take(r, 1) % 8;
            unsigned ld = (unsigned)take(r, 1) % 6;
            access_of(r, &a);
            wm_status st = wm_cache_add(c, warp, iv, &a, (wm_cache_ld)ld);
            FUZZ_REQUIRE(st != WM_OK || (warp < 64 && ld < 5));
            if (st == WM_OK && a.mask)
                wm_agg_add(g, &a, NULL);
        }
    }
}

/* The counters' own rules: hits are lookups that hit; an L2 TLB miss
   follows an L1 TLB miss. */
static void check_stats(const wm_cache_stats *s)
{
    FUZZ_REQUIRE(s->l1_ld_hits <= s->l1_ld_sectors);
    FUZZ_REQUIRE(s->l2_rd_hits <= s->l2_rd_sectors);
    FUZZ_REQUIRE(s->l2_wr_hits <= s->l2_wr_sectors);
    FUZZ_REQUIRE(s->tlb2_misses <= s->tlb1_misses);
}

/* Everything a finished model answers. */
static void query(const wm_cache *c, const wm_agg *g, FILE *devnull)
{
    wm_cache_stats t, s;
    wm_cache_totals(c, &t);
    check_stats(&t);
    uint32_t site;
    size_t ns = wm_cache_nsites(c);
    for (size_t i = 0; i < ns; i++) {
        FUZZ_REQUIRE(wm_cache_site(c, i, &site, &s));
        check_stats(&s);
    }
    FUZZ_REQUIRE(!wm_cache_site(c, ns, &site, &s));
    wm_cache_time tm;
    wm_cache_predict(c, &tm);
    size_t niv = wm_cache_nintervals(c);
    double lat, l1;
    for (size_t i = 0; i <= niv && i < 64; i++)
        FUZZ_REQUIRE(wm_cache_interval(c, i, &lat, &l1) == (i < niv));
    char buf[300];
    for (size_t n = 1; n < sizeof buf; n = n * 4 + 1) {
        wm_cache_reason(c, buf, n);
        FUZZ_REQUIRE(strlen(buf) < n);
    }
    for (size_t i = 0; i <= wm_cache_metric_count(); i++)
        (void)wm_cache_metric_value(c, i);
    static const wm_format fmts[] = {WM_FMT_TEXT, WM_FMT_CSV, WM_FMT_NCU_CSV,
                                     WM_FMT_NCU_RAW};
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        wm_cache_report(devnull, c, g, fmts[i]);
    json_doc d;
    if (json_open(&d)) {
        wm_cache_report(d.f, c, g, WM_FMT_JSON);
        json_close(&d, "wm_cache_report");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    if (!devnull)
        return 0;
    reader r = {data, size};
    wm_gpu gpu;
    gpu_of(&r, &gpu);
    wm_cache *c = cache_of(&r, &gpu);
    wm_arch arch;
    wm_agg *g = NULL;
    if (c && wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK)
        g = wm_agg_new(&arch);
    if (g) {
        feed(&r, c, g);
        wm_status st = wm_cache_finish(c);
        if (st == WM_OK) {
            wm_access a;
            memset(&a, 0, sizeof a);
            a.space = WM_SPACE_GLOBAL;
            a.op = WM_OP_LD;
            a.size = 4;
            FUZZ_REQUIRE(wm_cache_finish(c) == WM_ERR_ARG);
            FUZZ_REQUIRE(wm_cache_cta(c) == WM_ERR_ARG);
            FUZZ_REQUIRE(wm_cache_add(c, 0, 0, &a, WM_CACHE_LD_CA) ==
                         WM_ERR_ARG);
            query(c, g, devnull);
        }
    }
    wm_agg_free(g);
    wm_cache_free(c);
    return 0;
}
