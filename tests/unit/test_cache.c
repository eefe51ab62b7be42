/*
 * test_cache.c -- the hierarchy model (src/cache/cache.c): hand-computed cases,
 * a brute-force reference (LRU lists, slow and obviously right)
 * checked against the fast model on random streams, the occupancy
 * and carve-out of the GPU profiles, and the model fed by the PTX
 * interpreter and by index expressions.
 */
#define _POSIX_C_SOURCE 200809L
#include "cache_int.h"
#include "check.h"

#include <stdio.h>

/* ---- helpers ------------------------------------------------------------ */

/* A small configuration: nsms SMs, ctas CTAs each, L1/L2 of l1/l2 lines,
 * ways as given (0: fully associative). */
static wm_cache *small(unsigned nsms, unsigned ctas, unsigned l1, unsigned l1w,
                       unsigned l2, unsigned l2w, wm_cache_order order)
{
    wm_cache_config c;
    memset(&c, 0, sizeof c);
    c.gpu = wm_gpu_find("H200");
    c.nsms = nsms;
    c.ctas_per_sm = ctas;
    c.l1_bytes = (uint64_t)l1 * 128;
    c.l1_ways = l1w;
    c.l2_bytes = (uint64_t)l2 * 128;
    c.l2_ways = l2w;
    c.line_bytes = 128;
    c.sector_bytes = 32;
    c.order = order;
    return wm_cache_new(&c);
}

/* A full warp of 4-byte lanes: lane l at base + l * stride. */
static wm_access warp_at(uint32_t site, wm_op op, uint64_t base,
                         uint64_t stride)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.site = site;
    a.space = WM_SPACE_GLOBAL;
    a.op = op;
    a.size = 4;
    a.mask = 0xffffffffull;
    for (unsigned l = 0; l < 32; l++)
        a.addr[l] = base + l * stride;
    return a;
}

static void add(wm_cache *c, unsigned warp, unsigned iv, wm_access a,
                wm_cache_ld ld)
{
    CHECK_EQ(wm_cache_add(c, warp, iv, &a, ld), WM_OK);
}

/* ---- hand-computed cases ------------------------------------------------ */

/* Streaming copy: every sector a miss everywhere, DRAM bytes = bytes. */
static void test_stream(void)
{
    wm_cache *c = small(4, 2, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
    CHECK(c != NULL);
    for (unsigned k = 0; k < 64; k++) {
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        add(c, 0, 0, warp_at(0, WM_OP_LD, 0x10000000 + k * 128, 4),
            WM_CACHE_LD_CA);
        add(c, 0, 0, warp_at(1, WM_OP_ST, 0x20000000 + k * 128, 4),
            WM_CACHE_LD_CA);
    }
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_ld_sectors, 256);
    CHECK_EQ(t.l1_ld_hits, 0);
    CHECK_EQ(t.l2_rd_requests, 64);
    CHECK_EQ(t.l2_rd_sectors, 256);
    CHECK_EQ(t.l2_rd_hits, 0);
    CHECK_EQ(t.dram_rd_sectors * 32, 64 * 128);
    CHECK_EQ(t.l2_wr_sectors, 256);
    CHECK_EQ(t.dram_wr_sectors * 32, 64 * 128);
    CHECK_EQ(t.bytes, 2 * 64 * 128);
    CHECK_EQ(t.l1_wavefronts, 128);
    CHECK(wm_cache_metric_value(c, 0) == 0.0);            /* L1 hit rate */
    CHECK(wm_cache_metric_value(c, 9) == 64.0 * 128);     /* dram read */
    /* per site: the load caused every L2 miss */
    CHECK_EQ(wm_cache_nsites(c), 2);
    uint32_t id;
    wm_cache_stats s;
    CHECK(wm_cache_site(c, 0, &id, &s));
    CHECK_EQ(id, 0);
    CHECK_EQ(s.l2_rd_sectors - s.l2_rd_hits, 256);
    CHECK(!wm_cache_site(c, 2, &id, &s));
    /* nothing more after finish */
    CHECK_EQ(wm_cache_cta(c), WM_ERR_ARG);
    CHECK_EQ(wm_cache_finish(c), WM_ERR_ARG);
    wm_cache_free(c);
}

/* A warp re-reading its own sectors: 100 % L1 hits after the first. */
static void test_reread(void)
{
    wm_cache *c = small(1, 1, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    for (unsigned r = 0; r < 4; r++)
        add(c, 0, 0, warp_at(r, WM_OP_LD, 0x1000, 8), WM_CACHE_LD_CA);
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_stats t, s;
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_ld_sectors, 4 * 8);
    CHECK_EQ(t.l1_ld_hits, 3 * 8);
    CHECK_EQ(t.l2_rd_sectors, 8);
    CHECK_EQ(t.dram_rd_sectors, 8);
    for (unsigned r = 1; r < 4; r++) {
        uint32_t id;
        CHECK(wm_cache_site(c, r, &id, &s));
        CHECK_EQ(s.l1_ld_hits, s.l1_ld_sectors);
    }
    wm_cache_free(c);
}

/* Two CTAs on different SMs reading one line: L1 misses twice, L2 hits
 * the second time. */
static void test_two_sms(void)
{
    wm_cache *c = small(2, 1, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
    for (unsigned k = 0; k < 2; k++) {
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        add(c, 0, 0, warp_at(0, WM_OP_LD, 0x4000, 4), WM_CACHE_LD_CA);
    }
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_ld_hits, 0);
    CHECK_EQ(t.l2_rd_sectors, 8);
    CHECK_EQ(t.l2_rd_hits, 4);
    CHECK_EQ(t.dram_rd_sectors, 4);
    wm_cache_free(c);
    /* the same two CTAs on one SM: the second hits in L1 */
    c = small(1, 2, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
    for (unsigned k = 0; k < 2; k++) {
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        add(c, 0, 0, warp_at(0, WM_OP_LD, 0x4000, 4), WM_CACHE_LD_CA);
    }
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_ld_hits, 4);
    CHECK_EQ(t.l2_rd_sectors, 4);
    wm_cache_free(c);
}

/* Working sets around the L1 capacity (16 lines, fully associative):
 * 16 lines twice -> the second pass hits; 17 lines twice -> LRU thrash,
 * every access misses L1 and hits L2. */
static void test_thrash(void)
{
    for (unsigned n = 16; n <= 17; n++) {
        wm_cache *c = small(1, 1, 16, 0, 1024, 0, WM_CACHE_ORDER_INSN);
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        for (unsigned pass = 0; pass < 2; pass++)
            for (unsigned i = 0; i < n; i++)
                add(c, 0, 0, warp_at(0, WM_OP_LD, (uint64_t)i * 128, 4),
                    WM_CACHE_LD_CA);
        CHECK_EQ(wm_cache_finish(c), WM_OK);
        wm_cache_stats t;
        wm_cache_totals(c, &t);
        CHECK_EQ(t.l1_ld_hits, n == 16 ? 16 * 4 : 0);
        CHECK_EQ(t.l2_rd_hits, n == 16 ? 0 : 17 * 4);
        CHECK_EQ(t.dram_rd_sectors, n * 4);
        wm_cache_free(c);
    }
}

/* A working set of 2 x L2 (set-associative, hashed): one pass reads
 * DRAM = bytes touched; a second pass finds almost nothing in L2. */
static void test_twice_l2(void)
{
    wm_cache *c = small(4, 4, 64, 16, 4096, 16, WM_CACHE_ORDER_INSN);
    unsigned lines = 2 * 4096;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < lines; i++) {
            CHECK_EQ(wm_cache_cta(c), WM_OK);
            add(c, 0, 0, warp_at(pass, WM_OP_LD, (uint64_t)i * 128, 4),
                WM_CACHE_LD_CA);
        }
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    uint32_t id;
    wm_cache_stats first, second;
    CHECK(wm_cache_site(c, 0, &id, &first));
    CHECK(wm_cache_site(c, 1, &id, &second));
    CHECK_EQ(first.dram_rd_sectors * 32, (uint64_t)lines * 128);
    /* LRU over a cyclic stream twice the capacity keeps little: allow the
     * hash's uneven sets a few percent */
    CHECK(second.dram_rd_sectors * 100 >= (uint64_t)lines * 4 * 90);
    wm_cache_free(c);
}

/* Stride 8 floats: each warp touches 32 sectors for 128 B; 8 consecutive
 * warps of a CTA complete every sector, so DRAM reads the footprint once,
 * not 8 times. */
static void test_stride8(void)
{
    wm_cache *c = small(2, 2, 2048, 16, 65536, 16, WM_CACHE_ORDER_INSN);
    unsigned nctas = 16;
    for (unsigned k = 0; k < nctas; k++) {
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        for (unsigned w = 0; w < 8; w++)
            add(c, w, 0,
                warp_at(0, WM_OP_LD, (uint64_t)k * 1024 + w * 4, 32),
                WM_CACHE_LD_CA);
    }
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_ld_sectors, nctas * 8 * 32);
    CHECK_EQ(t.dram_rd_sectors * 32, nctas * 1024);
    CHECK_EQ(t.l1_ld_hits, nctas * 7 * 32);
    wm_cache_free(c);
}

/* Cache operators: .cg skips L1, L1::no_allocate does not fill it, .cv
 * refetches from DRAM, .cs inserts at the LRU end. */
static void test_policies(void)
{
    static const struct {
        wm_cache_ld ld;
        uint64_t l1_hits, l2_hits, dram;
    } want[] = {
        {WM_CACHE_LD_CA, 4, 0, 4},
        {WM_CACHE_LD_EVICT_FIRST, 4, 0, 4},
        {WM_CACHE_LD_NO_ALLOCATE, 0, 4, 4},
        {WM_CACHE_LD_CG, 0, 4, 4},
        {WM_CACHE_LD_CV, 0, 0, 8},
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(want); i++) {
        wm_cache *c = small(1, 1, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        add(c, 0, 0, warp_at(0, WM_OP_LD, 0x800, 4), want[i].ld);
        add(c, 0, 0, warp_at(0, WM_OP_LD, 0x800, 4), want[i].ld);
        CHECK_EQ(wm_cache_finish(c), WM_OK);
        wm_cache_stats t;
        wm_cache_totals(c, &t);
        CHECK_EQ(t.l1_ld_hits, want[i].l1_hits);
        CHECK_EQ(t.l2_rd_hits, want[i].l2_hits);
        CHECK_EQ(t.dram_rd_sectors, want[i].dram);
        wm_cache_free(c);
    }
    /* evict-first: with an L1 of 2 lines, A (.cs), B, C evicts A first */
    wm_cache *c = small(1, 1, 2, 0, 256, 0, WM_CACHE_ORDER_INSN);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(0, WM_OP_LD, 0x000, 4), WM_CACHE_LD_EVICT_FIRST);
    add(c, 0, 0, warp_at(0, WM_OP_LD, 0x080, 4), WM_CACHE_LD_CA);
    add(c, 0, 0, warp_at(0, WM_OP_LD, 0x100, 4), WM_CACHE_LD_CA);
    add(c, 0, 0, warp_at(1, WM_OP_LD, 0x080, 4), WM_CACHE_LD_CA);
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_ld_hits, 4); /* B survived */
    wm_cache_free(c);
    /* the text of PTX loads */
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.f32 %f1, [%rd1]"), WM_CACHE_LD_CA);
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.nc.f32 %f1, [%rd1]"),
             WM_CACHE_LD_CA);
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.cg.f32 %f1, [%rd1]"),
             WM_CACHE_LD_CG);
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.cs.v4.f32 {%f1}, [%rd1]"),
             WM_CACHE_LD_EVICT_FIRST);
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.lu.u32 %r1, [%rd1]"),
             WM_CACHE_LD_EVICT_FIRST);
    CHECK_EQ(wmi_cache_ld_of_text("ld.volatile.global.u32 %r1, [%rd1]"),
             WM_CACHE_LD_CV);
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.cv.u32 %r1, [%rd1]"),
             WM_CACHE_LD_CV);
    CHECK_EQ(wmi_cache_ld_of_text(
                 "ld.global.L1::no_allocate.f32 %f1, [%rd1]"),
             WM_CACHE_LD_NO_ALLOCATE);
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.L1::evict_first.f32 %f1, [%rd1]"),
             WM_CACHE_LD_EVICT_FIRST);
    /* ".cs" inside an operand is not a modifier */
    CHECK_EQ(wmi_cache_ld_of_text("ld.global.f32 %f1, [x.cs]"),
             WM_CACHE_LD_CA);
    CHECK_EQ(wmi_cache_ld_of_text("st.global.cs.f32 [%rd1], %f1"),
             WM_CACHE_LD_CA);
}

/* Stores write through to L2 (no L1 allocate), stay dirty there and reach
 * DRAM at the end; a load from another SM finds them in L2; atomics fetch
 * their sectors. */
static void test_stores(void)
{
    wm_cache *c = small(2, 1, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(0, WM_OP_ST, 0x2000, 4), WM_CACHE_LD_CA);
    add(c, 0, 0, warp_at(1, WM_OP_LD, 0x2000, 4), WM_CACHE_LD_CA);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(2, WM_OP_LD, 0x2000, 4), WM_CACHE_LD_CA);
    wm_access at = warp_at(3, WM_OP_ATOM, 0x3000, 0);
    add(c, 0, 0, at, WM_CACHE_LD_CA);
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    CHECK_EQ(t.l1_st_sectors, 4 + 1);
    CHECK_EQ(t.l1_ld_hits, 0);         /* the store did not fill L1 */
    CHECK_EQ(t.l2_rd_hits, 8);         /* both loads found the store */
    CHECK_EQ(t.dram_rd_sectors, 1);    /* the atomic's sector */
    CHECK_EQ(t.dram_wr_sectors, 4 + 1);
    wm_cache_free(c);
    /* shared and local accesses do not enter the model */
    c = small(1, 1, 64, 0, 256, 0, WM_CACHE_ORDER_INSN);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    wm_access sh = warp_at(0, WM_OP_LD, 0, 4);
    sh.space = WM_SPACE_SHARED;
    add(c, 0, 0, sh, WM_CACHE_LD_CA);
    wm_access bad = warp_at(0, WM_OP_LD, 2, 4);
    CHECK_EQ(wm_cache_add(c, 0, 0, &bad, WM_CACHE_LD_CA), WM_ERR_ALIGN);
    CHECK_EQ(wm_cache_add(c, 64, 0, &sh, WM_CACHE_LD_CA), WM_ERR_ARG);
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    CHECK_EQ(wm_cache_nsites(c), 0);
    wm_cache_free(c);
}

/* Interleaving: warp 0 reads A twice, warp 1 reads B then C, L1 of one
 * line.  Per barrier interval: A miss, A hit, B, C -> 1 hit.  Per
 * instruction: A, B, A, C -> 0 hits.  A barrier between the two loads
 * makes both orders agree. */
static void test_order(void)
{
    for (int o = 0; o < 2; o++)
        for (int bar = 0; bar < 2; bar++) {
            wm_cache *c = small(1, 1, 1, 0, 256, 0,
                                o ? WM_CACHE_ORDER_BARRIER
                                  : WM_CACHE_ORDER_INSN);
            CHECK_EQ(wm_cache_cta(c), WM_OK);
            add(c, 0, 0, warp_at(0, WM_OP_LD, 0x000, 4), WM_CACHE_LD_CA);
            add(c, 0, (unsigned)bar, warp_at(1, WM_OP_LD, 0x000, 4),
                WM_CACHE_LD_CA);
            add(c, 1, 0, warp_at(2, WM_OP_LD, 0x080, 4), WM_CACHE_LD_CA);
            add(c, 1, (unsigned)bar, warp_at(3, WM_OP_LD, 0x100, 4),
                WM_CACHE_LD_CA);
            CHECK_EQ(wm_cache_finish(c), WM_OK);
            wm_cache_stats t;
            wm_cache_totals(c, &t);
            /* with the barrier: A, B | A, C in both orders */
            CHECK_EQ(t.l1_ld_hits, (o && !bar) ? 4 : 0);
            wm_cache_free(c);
        }
}

/* ---- brute-force reference ---------------------------------------------- */

/* A fully associative LRU cache as a recency list, index 0 most recent. */
typedef struct rline {
    uint64_t tag;
    unsigned valid, dirty;
} rline;

typedef struct rcache {
    rline e[64];
    unsigned n, cap;
} rcache;

static int rfind(const rcache *r, uint64_t tag)
{
    for (unsigned i = 0; i < r->n; i++)
        if (r->e[i].tag == tag)
            return (int)i;
    return -1;
}

/* Move entry i to the front; returns its new index 0. */
static int rtouch(rcache *r, int i)
{
    rline x = r->e[i];
    memmove(&r->e[1], &r->e[0], (size_t)i * sizeof x);
    r->e[0] = x;
    return 0;
}

/* Insert tag (at the front, or at the back for evict-first), dropping the
 * last entry when full; returns the index and counts written-back dirty
 * sectors into *wb. */
static int rinsert(rcache *r, uint64_t tag, int back, uint64_t *wb)
{
    if (r->n == r->cap) {
        *wb += (uint64_t)__builtin_popcount(r->e[r->n - 1].dirty);
        r->n--;
    }
    rline x = {tag, 0, 0};
    if (back) {
        r->e[r->n++] = x;
        return (int)r->n - 1;
    }
    memmove(&r->e[1], &r->e[0], r->n * sizeof x);
    r->e[0] = x;
    r->n++;
    return 0;
}

/* Each SM's L1 and the L2: nsets LRU lists each (1: fully associative);
 * line li is in set li % nsets, which is the model's set when it has 8
 * sets. */
typedef struct rmodel {
    rcache l1[2][8], l2[8];
    unsigned nsets;
    wm_cache_stats s;
} rmodel;

static rcache *r_l2_set(rmodel *m, uint64_t li)
{
    return &m->l2[li % (m->nsets ? m->nsets : 1)];
}

static rcache *r_l1_set(rmodel *m, unsigned sm, uint64_t li)
{
    return &m->l1[sm][li % (m->nsets ? m->nsets : 1)];
}

static void r_l2_read(rmodel *m, uint64_t li, unsigned mask, int cv, int ef)
{
    rcache *l2 = r_l2_set(m, li);
    int i = rfind(l2, li);
    unsigned hit = 0;
    if (i < 0)
        i = rinsert(l2, li, ef, &m->s.dram_wr_sectors);
    else {
        if (!cv)
            hit = l2->e[i].valid & mask;
        if (!ef)
            i = rtouch(l2, i);
    }
    m->s.l2_rd_sectors += (uint64_t)__builtin_popcount(mask);
    m->s.l2_rd_hits += (uint64_t)__builtin_popcount(hit);
    m->s.dram_rd_sectors += (uint64_t)__builtin_popcount(mask & ~hit);
    l2->e[i].valid |= mask;
}

static void r_access(rmodel *m, unsigned sm, unsigned kind, uint64_t li,
                     unsigned mask)
{
    unsigned n = (unsigned)__builtin_popcount(mask);
    if (kind == WMI_CK_ST || kind == WMI_CK_ATOM) {
        m->s.l1_st_sectors += n;
        m->s.l2_wr_sectors += n;
        rcache *l2 = r_l2_set(m, li);
        int i = rfind(l2, li);
        if (i < 0)
            i = rinsert(l2, li, 0, &m->s.dram_wr_sectors);
        else {
            m->s.l2_wr_hits += n;
            i = rtouch(l2, i);
        }
        if (kind == WMI_CK_ATOM)
            m->s.dram_rd_sectors +=
                (uint64_t)__builtin_popcount(mask & ~l2->e[i].valid);
        l2->e[i].valid |= mask;
        l2->e[i].dirty |= mask;
        return;
    }
    int ef = kind == WM_CACHE_LD_EVICT_FIRST;
    int uses_l1 = kind != WM_CACHE_LD_CG && kind != WM_CACHE_LD_CV;
    rcache *l1 = r_l1_set(m, sm, li);
    m->s.l1_ld_sectors += n;
    unsigned miss = mask;
    int i = uses_l1 ? rfind(l1, li) : -1;
    if (i >= 0) {
        unsigned hit = l1->e[i].valid & mask;
        m->s.l1_ld_hits += (uint64_t)__builtin_popcount(hit);
        miss = mask & ~hit;
        if (!ef)
            i = rtouch(l1, i);
    }
    if (!miss)
        return;
    m->s.l2_rd_requests++;
    r_l2_read(m, li, miss, kind == WM_CACHE_LD_CV, ef);
    if (!uses_l1 || kind == WM_CACHE_LD_NO_ALLOCATE)
        return;
    uint64_t none = 0;
    if (i < 0)
        i = rinsert(l1, li, ef, &none); /* L1 lines are never dirty */
    l1->e[i].valid |= miss;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Random streams through the fast model and the reference: L1 and L2
 * fully associative, the CTAs of one access each alternating between 2
 * SMs; or (sets) L1 and L2 of 8 sets of 1 to 8 ways on one SM.  Half the
 * accesses but atomics are repeated at once, other bytes of the same
 * sectors, half of those as another kind (the warps of a CTA writing one
 * column of lines in turn: the model's shortcut for a repeated store,
 * which no other kind may take). */
static void reference_run(uint64_t seed, int sets)
{
    uint64_t s = seed;
    unsigned l1cap = 1 + (unsigned)(rng(&s) % 8);
    unsigned ways = 1 + (unsigned)(rng(&s) % 8);
    unsigned l1ways = 1 + (unsigned)(rng(&s) % 8);
    unsigned l2cap = sets ? 8 * ways : l1cap + (unsigned)(rng(&s) % 24);
    unsigned pool = 4 + (unsigned)(rng(&s) % 60);
    unsigned nsms = sets ? 1 : 2;
    /* waves of 64 CTAs, an access each: the model replays them in the
     * reference's order, CTA k on SM k % nsms */
    wm_cache *c = sets ? small(1, 64, 8 * l1ways, l1ways, l2cap, ways,
                               WM_CACHE_ORDER_INSN)
                       : small(2, 32, l1cap, 0, l2cap, 0, WM_CACHE_ORDER_INSN);
    rmodel r;
    memset(&r, 0, sizeof r);
    r.nsets = sets ? 8 : 1;
    for (unsigned i = 0; i < r.nsets; i++) {
        r.l1[0][i].cap = r.l1[1][i].cap = sets ? l1ways : l1cap;
        r.l2[i].cap = sets ? ways : l2cap;
    }
    uint64_t lines[8];
    unsigned masks[8], nl = 0, kind = 0;
    for (unsigned k = 0; k < 3000; k++) {
        /* the same lines and sectors as before, other bytes */
        int again = k > 0 && kind != WMI_CK_ATOM && rng(&s) % 2;
        if (again && rng(&s) % 2) /* or of another kind */
            kind = (unsigned)(rng(&s) % 7);
        if (!again) {
            kind = (unsigned)(rng(&s) % 7);
            /* up to 8 distinct lines, 1..4 sectors each */
            nl = 1 + (unsigned)(rng(&s) % 8);
            for (unsigned i = 0; i < nl; i++) {
                uint64_t li;
                int dup;
                do {
                    li = rng(&s) % pool;
                    dup = 0;
                    for (unsigned j = 0; j < i; j++)
                        dup |= lines[j] == li;
                } while (dup && nl <= pool);
                if (dup) {
                    nl = i;
                    break;
                }
                lines[i] = li;
                masks[i] = 1 + (unsigned)(rng(&s) % 15);
            }
        }
        wm_access a;
        memset(&a, 0, sizeof a);
        a.site = kind;
        a.space = WM_SPACE_GLOBAL;
        a.op = kind == WMI_CK_ST     ? WM_OP_ST
               : kind == WMI_CK_ATOM ? WM_OP_ATOM
                                     : WM_OP_LD;
        a.size = 4;
        unsigned lane = 0; /* lane order = first-touch order */
        for (unsigned i = 0; i < nl; i++)
            for (unsigned q = 0; q < 4; q++)
                if (masks[i] >> q & 1) {
                    a.addr[lane] = lines[i] * 128 + q * 32 + 4 * (rng(&s) % 8);
                    a.mask |= (uint64_t)1 << lane++;
                }
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        CHECK_EQ(wm_cache_add(c, 0, 0, &a,
                              kind <= WM_CACHE_LD_CV ? (wm_cache_ld)kind
                                                     : WM_CACHE_LD_CA),
                 WM_OK);
        r.s.l1_wavefronts += (nl + 3) / 4;
        /* one 4-byte lane per sector: every stored sector is partial */
        unsigned nsect = 0;
        for (unsigned i = 0; i < nl; i++)
            nsect += (unsigned)__builtin_popcount(masks[i]);
        r.s.l1_data_wavefronts += (nsect + 3) / 4;
        if (kind == WMI_CK_ST)
            r.s.l2_wr_partial += nsect;
        if (kind != WMI_CK_ATOM)
            r.s.bytes += 4u * lane;
        for (unsigned i = 0; i < nl; i++)
            r_access(&r, k % nsms, kind, lines[i], masks[i]);
    }
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    for (unsigned q = 0; q < r.nsets; q++)
        for (unsigned i = 0; i < r.l2[q].n; i++)
            r.s.dram_wr_sectors +=
                (uint64_t)__builtin_popcount(r.l2[q].e[i].dirty);
    /* the pool (under 64 lines, 8 KiB) lies in one 2 MiB page: each
     * SM's L1 TLB misses it once, the shared L2 TLB once */
    r.s.tlb1_misses = nsms;
    r.s.tlb2_misses = 1;
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    int same = memcmp(&t, &r.s, sizeof t) == 0;
    CHECK(same);
    if (!same)
        fprintf(stderr, "seed %llu%s: l1 hits %llu/%llu, l2 rd hits "
                        "%llu/%llu, l2 wr hits %llu/%llu, dram rd "
                        "%llu/%llu, wr %llu/%llu\n",
                (unsigned long long)seed, sets ? " (8 sets)" : "",
                (unsigned long long)t.l1_ld_hits,
                (unsigned long long)r.s.l1_ld_hits,
                (unsigned long long)t.l2_rd_hits,
                (unsigned long long)r.s.l2_rd_hits,
                (unsigned long long)t.l2_wr_hits,
                (unsigned long long)r.s.l2_wr_hits,
                (unsigned long long)t.dram_rd_sectors,
                (unsigned long long)r.s.dram_rd_sectors,
                (unsigned long long)t.dram_wr_sectors,
                (unsigned long long)r.s.dram_wr_sectors);
    wm_cache_free(c);
}

static void test_reference(void)
{
    for (uint64_t seed = 1; seed <= 40; seed++)
        reference_run(seed, 0);
    for (uint64_t seed = 1; seed <= 40; seed++)
        reference_run(seed, 1);
}

/* ---- GPU profiles and occupancy ----------------------------------------- */

static void test_gpus(void)
{
    CHECK_EQ(wm_gpu_count(), 5);
    const wm_gpu *h200 = wm_gpu_find("h200");
    CHECK(h200 != NULL && h200->nsms == 132 && h200->l2_bytes == 60ull << 20);
    CHECK(wm_gpu_find("rtx-4090") == wm_gpu_at(4));
    CHECK(wm_gpu_find("V100") == NULL);
    wm_arch a;
    CHECK_EQ(wm_arch_parse("H200", &a, NULL, 0), WM_OK);
    CHECK_EQ(a.sm, 90);
    CHECK(wm_gpu_for_arch(&a) == h200);
    CHECK_EQ(wm_arch_parse("a100", &a, NULL, 0), WM_OK);
    CHECK(wm_gpu_for_arch(&a) == wm_gpu_find("A100"));
    CHECK(wm_gpu_for_arch(wm_arch_default()) == h200);
    CHECK_EQ(wm_arch_parse("sm_86", &a, NULL, 0), WM_OK);
    CHECK(wm_gpu_for_arch(&a) == NULL);

    wm_cache_config c;
    /* 256 threads, no shared memory: 8 CTAs (64 warps), L1 = 256 KiB */
    CHECK_EQ(wm_cache_config_init(&c, h200, 256, 0), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 8);
    CHECK_EQ(c.l1_bytes, 256 * 1024);
    CHECK_EQ(c.smem_carveout, 0);
    /* 64 threads: the 32-CTA limit */
    CHECK_EQ(wm_cache_config_init(&c, h200, 64, 0), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 32);
    /* 32x33 floats of shared + 1 KiB reserved: 5248 B per CTA, 8 CTAs =
     * 41984 B -> the 64 KiB carve-out, 192 KiB of L1 */
    CHECK_EQ(wm_cache_config_init(&c, h200, 256, 32 * 33 * 4), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 8);
    CHECK_EQ(c.smem_carveout, 64 * 1024);
    CHECK_EQ(c.l1_bytes, 192 * 1024);
    /* 100 KiB of shared: 2 CTAs fit 228 KiB; 228 KiB - 1 KiB: 1 CTA */
    CHECK_EQ(wm_cache_config_init(&c, h200, 128, 100 * 1024), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 2);
    CHECK_EQ(c.smem_carveout, 228 * 1024);
    CHECK_EQ(c.l1_bytes, 28 * 1024);
    CHECK_EQ(wm_cache_config_init(&c, h200, 128, 228 * 1024), WM_ERR_ARG);
    CHECK_EQ(wm_cache_config_init(&c, h200, 0, 0), WM_ERR_ARG);
    CHECK_EQ(wm_cache_config_init(&c, NULL, 32, 0), WM_ERR_ARG);
    /* registers: 256 threads at 64 / 128 / 255 per thread = 16K / 32K /
     * 8 x 8160 registers per CTA of 64K: 4, 2, 1 CTAs */
    CHECK_EQ(wm_cache_config_init_regs(&c, h200, 256, 0, 64), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 4);
    CHECK_EQ(wm_cache_config_init_regs(&c, h200, 256, 0, 128), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 2);
    CHECK_EQ(wm_cache_config_init_regs(&c, h200, 256, 0, 255), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 1);
    CHECK_EQ(wm_cache_config_init_regs(&c, h200, 1024, 0, 255), WM_ERR_ARG);
    CHECK_EQ(wm_cache_config_init_regs(&c, h200, 32, 0, 256), WM_ERR_ARG);
    /* 32 registers do not limit 8 CTAs of 256 threads (64K exactly) */
    CHECK_EQ(wm_cache_config_init_regs(&c, h200, 256, 0, 32), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 8);
    /* A100: 192 KiB array, 32 CTAs of 64 threads */
    CHECK_EQ(wm_cache_config_init(&c, wm_gpu_find("A100"), 1024, 0), WM_OK);
    CHECK_EQ(c.ctas_per_sm, 2);
    CHECK_EQ(c.l1_bytes, 192 * 1024);
    CHECK(wm_cache_new(NULL) == NULL);
    c.nsms = 0;
    CHECK(wm_cache_new(&c) == NULL);
    wm_cache_free(NULL);
}

/* ---- fed by the interpreter and by expressions -------------------------- */

static wm_ptx_module *load(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    size_t n;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    if (!src)
        return NULL;
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(src, n, path, &m, &d), WM_OK);
    free(src);
    return m;
}

/* copy_f32 over n floats: DRAM reads and writes n * 4 bytes; the same
 * with 1 and 3 threads. */
static void test_ptx(void)
{
    wm_ptx_module *m = load("examples/kernels/sm_80/copy.ptx");
    if (!m)
        return;
    enum { N = 64 * 256 };
    wm_cache_stats got[2];
    for (int j = 0; j < 2; j++) {
        float *in = calloc(N, sizeof *in), *out = calloc(N, sizeof *out);
        wm_ptx_arg args[3] = {{out, N * 4, 0, 0, NULL}, {in, N * 4, 0, 0, NULL},
                              {NULL, 0, N, 4, NULL}};
        wm_ptx_launch l;
        memset(&l, 0, sizeof l);
        l.grid[0] = 64, l.grid[1] = l.grid[2] = 1;
        l.block[0] = 256, l.block[1] = l.block[2] = 1;
        l.args = args;
        l.nargs = 3;
        l.threads = j ? 3 : 1;
        wm_cache_config cfg;
        CHECK_EQ(wm_cache_config_init(&cfg, wm_gpu_find("H200"), 256,
                                      wm_ptx_kernel_smem(m, 0, 0)),
                 WM_OK);
        l.cache = wm_cache_new(&cfg);
        wm_agg *g = wm_agg_new(wm_arch_default());
        CHECK_EQ(wm_ptx_run(m, 0, &l, g, NULL, NULL), WM_OK);
        wm_cache_totals(l.cache, &got[j]);
        CHECK_EQ(got[j].dram_rd_sectors * 32, N * 4);
        CHECK_EQ(got[j].dram_wr_sectors * 32, N * 4);
        CHECK_EQ(got[j].l1_ld_hits, 0);
        CHECK_EQ(wm_cache_nsites(l.cache), 2);
        /* the report labels the sites from the aggregator */
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        wm_cache_report(f, l.cache, g, WM_FMT_JSON);
        fclose(f);
        CHECK(strstr(buf, "\"dram__bytes_read.sum\": {\"value\": 65536, "
                          "\"unit\": \"byte\"}") != NULL);
        CHECK(strstr(buf, "ld.global.f32") != NULL);
        free(buf);
        wm_agg_free(g);
        wm_cache_free(l.cache);
        free(in);
        free(out);
    }
    CHECK(memcmp(&got[0], &got[1], sizeof got[0]) == 0);

    /* --ctas sample:20 on 2 SMs x 8 CTAs: two whole waves of 16 CTAs */
    float *in = calloc(N, sizeof *in), *out = calloc(N, sizeof *out);
    wm_ptx_arg args[3] = {{out, N * 4, 0, 0, NULL}, {in, N * 4, 0, 0, NULL},
                          {NULL, 0, N, 4, NULL}};
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 64, l.grid[1] = l.grid[2] = 1;
    l.block[0] = 256, l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 3;
    l.ctas = WM_PTX_CTAS_SAMPLE;
    l.ctas_n = 20;
    l.seed = 3;
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, wm_gpu_find("H200"), 256, 0), WM_OK);
    cfg.nsms = 2;
    l.cache = wm_cache_new(&cfg);
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_ptx_result res;
    CHECK_EQ(wm_ptx_run(m, 0, &l, g, &res, NULL), WM_OK);
    CHECK_EQ(res.ctas_run, 32);
    CHECK(res.sampled);
    wm_cache_stats t;
    wm_cache_totals(l.cache, &t);
    CHECK_EQ(t.dram_rd_sectors * 32, 32 * 256 * 4);
    wm_agg_free(g);
    wm_cache_free(l.cache);
    free(in);
    free(out);
    wm_ptx_free(m);
}

/* The lesson's out.copy_(x.t()) in PyTorch's element order, at N = 1024:
 * the transposed read touches 8x the sectors per request, yet DRAM reads
 * the footprint once (L2 hits 7 of 8) and the predicted bandwidth ratio
 * stays well under 8. */
static double torch_copy_time(int transposed, wm_cache_stats *t)
{
    char src[512];
    snprintf(src, sizeof src,
             "const N = 1024\nblock 128\ngrid N*N/512\n"
             "load global f32 x[N][N] at %s for k in 0..4\n"
             "store global f32 out[N*N] at [ctaid.x*512 + k*128 + tid.x] "
             "for k in 0..4\n",
             transposed ? "[(ctaid.x*512 + k*128 + tid.x) % N]"
                          "[(ctaid.x*512 + k*128 + tid.x) / N]"
                        : "[(ctaid.x*512 + k*128 + tid.x) / N]"
                          "[(ctaid.x*512 + k*128 + tid.x) % N]");
    wm_expr *e = wm_expr_new();
    wm_diag d;
    CHECK_EQ(wm_expr_parse(e, src, strlen(src), "t.expr", &d), WM_OK);
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, wm_gpu_find("H200"), 128, 0), WM_OK);
    wm_cache *c = wm_cache_new(&cfg);
    wm_expr_fault f;
    CHECK_EQ(wm_expr_run_cache(e, g, c, 0, &f), WM_OK);
    wm_cache_totals(c, t);
    wm_cache_time tm;
    wm_cache_predict(c, &tm);
    wm_cache_free(c);
    wm_agg_free(g);
    wm_expr_free(e);
    return tm.time_s;
}

static void test_lesson(void)
{
    wm_cache_stats a, b;
    double ta = torch_copy_time(0, &a), tb = torch_copy_time(1, &b);
    uint64_t bytes = 1024ull * 1024 * 4;
    CHECK_EQ(a.dram_rd_sectors * 32, bytes);
    CHECK_EQ(b.dram_rd_sectors * 32, bytes);
    CHECK_EQ(a.dram_wr_sectors * 32, bytes);
    CHECK_EQ(b.l1_ld_sectors, 8 * a.l1_ld_sectors);
    CHECK_EQ(b.l2_rd_hits * 8, b.l2_rd_sectors * 7);
    CHECK(tb / ta > 1.2 && tb / ta < 8.0);
}

int main(void)
{
    test_stream();
    test_reread();
    test_two_sms();
    test_thrash();
    test_twice_l2();
    test_stride8();
    test_policies();
    test_stores();
    test_order();
    test_reference();
    test_gpus();
    test_ptx();
    test_lesson();
    return check_done("test_cache");
}
