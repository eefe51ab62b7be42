/*
 * test_cache_time.c -- the terms of the memory time (src/cache/cache_time.c,
 * src/cache/cache_dep.c, wm_cache_predict) on hand-computed streams: the
 * latency of load groups and its overlap over resident CTAs, the barrier
 * intervals in series, the L1 pipe's tag, data and shared cycles, the
 * partial-sector writes of the L2 term, the load groups of PTX code, and
 * the reason the report gives.
 */
#define _POSIX_C_SOURCE 200809L
#include "cache_int.h"
#include "check.h"

#include <math.h>
#include <stdio.h>

#define NEAR(a, b) CHECK(fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-15)

/* H100 figures with nsms SMs of ctas CTAs each and big caches. */
static wm_cache *model(unsigned nsms, unsigned ctas)
{
    wm_cache_config c;
    CHECK_EQ(wm_cache_config_init(&c, wm_gpu_find("H100"), 256, 0), WM_OK);
    c.nsms = nsms;
    c.ctas_per_sm = ctas;
    return wm_cache_new(&c);
}

static wm_access warp_at(wm_op op, uint64_t base, uint64_t stride,
                         unsigned size)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = WM_SPACE_GLOBAL;
    a.op = op;
    a.size = size;
    a.mask = 0xffffffffull;
    for (unsigned l = 0; l < 32; l++)
        a.addr[l] = base + l * stride;
    return a;
}

static void add(wm_cache *c, unsigned warp, unsigned iv, wm_access a)
{
    CHECK_EQ(wm_cache_add(c, warp, iv, &a, WM_CACHE_LD_CA), WM_OK);
}

static wm_cache_time done(wm_cache *c)
{
    CHECK_EQ(wm_cache_finish(c), WM_OK);
    wm_cache_time t;
    wm_cache_predict(c, &t);
    return t;
}

/* One warp, two cold loads in one interval: one group, one DRAM
 * latency; the same line again after a barrier is an L1 hit and adds the
 * L1 latency in series. */
static void test_groups_intervals(void)
{
    const wm_gpu *g = wm_gpu_find("H100");
    wm_cache *c = model(1, 1);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(WM_OP_LD, 0, 4, 4));
    add(c, 0, 0, warp_at(WM_OP_LD, 4096, 4, 4));
    add(c, 0, 1, warp_at(WM_OP_LD, 0, 4, 4));
    wm_cache_time t = done(c);
    NEAR(t.lat_s, (g->lat_dram + g->lat_l1) / g->clock_hz);
    CHECK_EQ(wm_cache_nintervals(c), 2);
    double l0, l1;
    CHECK(wm_cache_interval(c, 0, &l0, NULL));
    CHECK(wm_cache_interval(c, 1, &l1, NULL));
    NEAR(l0, g->lat_dram / g->clock_hz);
    NEAR(l1, g->lat_l1 / g->clock_hz);
    CHECK(!wm_cache_interval(c, 2, &l0, NULL));
    /* groups of 8 and 4 sectors: 192 B on average, 1 warp, 1 CTA */
    NEAR(t.inflight_sm, 192.0);
    NEAR(t.inflight_need, g->dram_peak / 1 / g->clock_hz * g->lat_dram);
    CHECK(strcmp(t.bound, "latency") == 0);
    NEAR(t.time_s, t.lat_s + t.l1_s + (t.dram_s > t.l2_s ? t.dram_s : t.l2_s));
    NEAR(t.whatif_s, t.time_s - t.lat_s);
    char why[512];
    wm_cache_reason(c, why, sizeof why);
    const char *want = "latency-bound: 0.2 KiB in flight per SM (1 CTAs x 1 "
                       "warps), DRAM bandwidth x latency needs 942.6 KiB";
    CHECK(strncmp(why, want, strlen(want)) == 0);
    wm_cache_free(c);
}

/* The longest warp chain decides the interval: warp 0 two dependent
 * groups would need the PTX path, so here warp 1 has two intervals' worth
 * in one interval's record: interval max = max over warps. */
static void test_max_over_warps(void)
{
    const wm_gpu *g = wm_gpu_find("H100");
    wm_cache *c = model(1, 1);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(WM_OP_LD, 0, 4, 4));
    add(c, 1, 0, warp_at(WM_OP_LD, 8192, 4, 4));
    wm_cache_time t = done(c);
    /* both warps' single groups overlap: one DRAM latency */
    NEAR(t.lat_s, g->lat_dram / g->clock_hz);
    wm_cache_free(c);
}

/* Resident CTAs overlap their chains: two CTAs on one SM cost one DRAM
 * latency when both fit (2 per SM), two when they run one after the
 * other. */
static void test_overlap(void)
{
    const wm_gpu *g = wm_gpu_find("H100");
    for (unsigned r = 1; r <= 2; r++) {
        wm_cache *c = model(1, r);
        for (unsigned k = 0; k < 2; k++) {
            CHECK_EQ(wm_cache_cta(c), WM_OK);
            add(c, 0, 0, warp_at(WM_OP_LD, 65536u * k, 4, 4));
        }
        wm_cache_time t = done(c);
        NEAR(t.lat_s, (r == 1 ? 2.0 : 1.0) * g->lat_dram / g->clock_hz);
        wm_cache_free(c);
    }
}

/* One CTA of 32 warps on one SM (r CTAs resident), each warp reading n
 * cold float4 rows of its own in one group: 512 B of L1 misses per row.
 * The H100's miss slots hold 512 sectors, 16 KiB. */
static wm_cache_time slots_run(const wm_gpu *g, unsigned r, unsigned n,
                               wm_cache **out)
{
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, g, 1024, 0), WM_OK);
    cfg.nsms = 1;
    cfg.ctas_per_sm = r;
    wm_cache *c = wm_cache_new(&cfg);
    for (unsigned k = 0; k < r; k++) {
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        for (unsigned w = 0; w < 32; w++)
            for (unsigned i = 0; i < n; i++)
                add(c, w, 0,
                    warp_at(WM_OP_LD,
                            ((uint64_t)k << 24) + (w * 64 + i) * 512u, 16,
                            16));
    }
    wm_cache_time t = done(c);
    *out = c;
    return t;
}

/* The miss slots: 32 warps x one 512 B row fill them exactly (one DRAM
 * latency); two rows each ask for twice the slots (two latencies), as do
 * two resident CTAs of one row (each CTA's chain is stretched twice and
 * halved by the overlap, twice over); a GPU without the figure never
 * stretches; L1 hits take no slot. */
static void test_slots(void)
{
    const wm_gpu *g = wm_gpu_find("H100");
    double dram = g->lat_dram / g->clock_hz;
    CHECK_EQ(g->mshr_sectors, 512u);
    wm_cache *c;
    wm_cache_time t = slots_run(g, 1, 1, &c);
    NEAR(t.lat_s, dram);
    NEAR(t.inflight_ask, 16384.0);
    NEAR(t.inflight_cap, 16384.0);
    wm_cache_free(c);

    t = slots_run(g, 1, 2, &c);
    NEAR(t.lat_s, 2 * dram);
    NEAR(t.inflight_ask, 32768.0);
    CHECK(strcmp(t.bound, "latency") == 0);
    char why[512];
    wm_cache_reason(c, why, sizeof why);
    const char *want = "latency-bound: the loads ask for 32.0 KiB of L1 "
                       "misses in flight per SM (1 CTAs x 32 warps), its "
                       "miss slots hold 16.0 KiB, so each round waits 2.00 "
                       "latencies";
    CHECK(strncmp(why, want, strlen(want)) == 0);
    NEAR(wm_cache_metric_value(c, 23), 32768.0);
    NEAR(wm_cache_metric_value(c, 24), 16384.0);
    CHECK(strcmp(wm_cache_metric_name(23),
                 "warpmem__inflight_asked_per_sm.avg") == 0);
    wm_cache_free(c);

    t = slots_run(g, 2, 1, &c);
    NEAR(t.lat_s, 2 * dram);
    NEAR(t.inflight_ask, 32768.0);
    wm_cache_free(c);

    wm_gpu open = *g;
    open.mshr_sectors = 0;
    t = slots_run(&open, 1, 2, &c);
    NEAR(t.lat_s, dram);
    NEAR(t.inflight_cap, 0.0);
    wm_cache_free(c);

    /* 32 warps re-reading warp 0's two rows: 1 KiB of misses in all */
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, g, 1024, 0), WM_OK);
    cfg.nsms = 1;
    cfg.ctas_per_sm = 1;
    c = wm_cache_new(&cfg);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    for (unsigned w = 0; w < 32; w++)
        for (unsigned i = 0; i < 2; i++)
            add(c, w, 0, warp_at(WM_OP_LD, i * 512u, 16, 16));
    t = done(c);
    NEAR(t.inflight_ask, 1024.0);
    NEAR(t.lat_s, dram);
    wm_cache_free(c);
}

/* The pipe: a coalesced 4-byte load is 1 cycle (1 tag, 1 data
 * wavefront), a coalesced 16-byte load 4 (1 tag, 16 sectors = 4 data
 * wavefronts), 32 lines 8 (tag stage), 32 shared wavefronts 32. */
static void test_pipe(void)
{
    const wm_gpu *g = wm_gpu_find("H100");
    wm_cache *c = model(1, 1);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(WM_OP_LD, 0, 4, 4));
    add(c, 0, 0, warp_at(WM_OP_LD, 1 << 20, 16, 16));
    add(c, 0, 0, warp_at(WM_OP_LD, 2 << 20, 128, 4));
    CHECK_EQ(wmi_cache_add_shared(c, 0, 0, 32), WM_OK);
    wm_cache_time t = done(c);
    NEAR(t.l1_s, (1.0 + 4.0 + 8.0 + 32.0) / g->clock_hz);
    wm_cache_stats s;
    wm_cache_totals(c, &s);
    CHECK_EQ(s.l1_wavefronts, 1 + 1 + 8);
    CHECK_EQ(s.l1_data_wavefronts, 1 + 4 + 8);
    wm_cache_free(c);
}

/* Partial-sector writes: a coalesced store fills its 4 sectors; 32 lanes
 * 128 B apart write 4 of each sector's 32 bytes; 8 lanes of 4 bytes that
 * cover one sector fill it.  The L2 term counts a partial sector twice. */
static void test_partial(void)
{
    const wm_gpu *g = wm_gpu_find("H100");
    wm_cache *c = model(1, 1);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(WM_OP_ST, 0, 4, 4));
    add(c, 0, 0, warp_at(WM_OP_ST, 1 << 20, 128, 4));
    wm_access a = warp_at(WM_OP_ST, 2 << 20, 4, 4);
    a.mask = 0xff;
    add(c, 0, 0, a);
    wm_cache_time t = done(c);
    wm_cache_stats s;
    wm_cache_totals(c, &s);
    CHECK_EQ(s.l2_wr_sectors, 4 + 32 + 1);
    CHECK_EQ(s.l2_wr_partial, 32);
    NEAR(t.l2_s, (double)(37 + 32) * 32 / g->l2_bw);
    /* stores only: no load group, no latency */
    NEAR(t.lat_s, 0.0);
    wm_cache_free(c);
}

/* Every built-in GPU has every figure but the TLB miss latency; a GPU
 * without an L2 bandwidth figure (a copy of L4 with it removed) says so and
 * leaves the term out. */
static void test_terms(void)
{
    for (size_t i = 0; i < wm_gpu_count(); i++) {
        const wm_gpu *g = wm_gpu_at(i);
        CHECK(g->lat_l1 > 0 && g->lat_l2 > g->lat_l1 &&
              g->lat_dram > g->lat_l2 && g->lat_source);
        CHECK(g->dram_peak > 0 && g->nsms > 0 && g->clock_hz > 0);
        CHECK(g->l2_bw > g->dram_peak);
        CHECK_EQ(g->mshr_sectors, 8 * g->max_warps_sm);
        CHECK(g->mshr_source != NULL);
    }
    wm_gpu bare = *wm_gpu_find("L4");
    for (int drop = 0; drop < 2; drop++) {
        bare.l2_bw = drop ? 0 : wm_gpu_find("L4")->l2_bw;
        wm_cache_config cfg;
        CHECK_EQ(wm_cache_config_init(&cfg, &bare, 256, 0), WM_OK);
        wm_cache *c = wm_cache_new(&cfg);
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        add(c, 0, 0, warp_at(WM_OP_LD, 0, 4, 4));
        wm_cache_time t = done(c);
        /* the TLB miss latency, and the L2 figure when dropped */
        CHECK_EQ(t.nterms_missing, 1u + (unsigned)drop);
        /* 4 sectors read from L2, 128 B over L2's bandwidth */
        NEAR(t.l2_s, drop ? 0.0 : 128.0 / bare.l2_bw);
        wm_cache_free(c);
    }
}

/* Load groups of PTX: two independent loads (their values used by the
 * stores after them) are one group; a load whose address was loaded is a
 * second group; after bar.sync a third. */
static const char dep_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "cvta.to.global.u64 %rd2, %rd1;\n"
    "ld.global.u32 %r1, [%rd2];\n"
    "st.global.u32 [%rd2+256], %r1;\n"
    "ld.global.u32 %r2, [%rd2+4];\n"
    "st.global.u32 [%rd2+260], %r2;\n"
    "mul.wide.u32 %rd3, %r1, 4;\n"
    "add.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r3, [%rd4];\n"
    "bar.sync 0;\n"
    "ld.global.u32 %r4, [%rd2+8];\n"
    "st.global.u32 [%rd2+264], %r4;\n"
    "ret;\n}\n";

static void test_dep(void)
{
    wm_ptx_module *m;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(dep_ptx, sizeof dep_ptx - 1, "dep.ptx", &m, &d),
             WM_OK);
    size_t n = wm_ptx_ninsns(m);
    uint8_t *kind = calloc(n + 1, 1);
    CHECK(wmi_cache_lead(m, kind));
    unsigned leads = 0, loads = 0;
    for (size_t i = 0; i < n; i++) {
        wm_ptx_where w;
        if (!wm_ptx_where_insn(m, i, &w) || strncmp(w.text, "ld.global", 9))
            continue;
        unsigned want = loads == 0 || loads == 2 || loads == 3;
        CHECK_EQ((kind[i] & WMI_CACHE_LEAD) != 0, want);
        leads += (kind[i] & WMI_CACHE_LEAD) != 0;
        loads++;
    }
    CHECK_EQ(loads, 4);
    CHECK_EQ(leads, 3);
    /* run it: one warp, three groups: DRAM, DRAM (a new line), then the
     * first line again from L1 */
    uint32_t buf[128];
    memset(buf, 0, sizeof buf);
    buf[0] = 64; /* the chased index: byte 256, another sector */
    wm_ptx_arg args[1] = {{buf, sizeof buf, 0, 0, NULL}};
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 32, l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 1;
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, wm_gpu_find("H100"), 32, 0), WM_OK);
    l.cache = wm_cache_new(&cfg);
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK_EQ(wm_ptx_run(m, 0, &l, g, NULL, NULL), WM_OK);
    wm_cache_time t;
    wm_cache_predict(l.cache, &t);
    const wm_gpu *h = cfg.gpu;
    /* group 1: [0],[4] from DRAM; group 2: [256] (stored to, not read:
     * an L2 write does not fill L1) from L2; group 3: [8] from L1 */
    NEAR(t.lat_s, (h->lat_dram + h->lat_l2 + h->lat_l1) / h->clock_hz);
    wm_agg_free(g);
    wm_cache_free(l.cache);
    free(kind);
    wm_ptx_free(m);
}

/* The validation's transposes (examples/kernels/shapes_transpose.cu)
 * against a CPU transpose, -O3 PTX for sm_80 and sm_90, n = 64. */
static void test_shapes(void)
{
    static const struct {
        const char *name;
        unsigned by;
    } k[] = {{"ts_naive", 32}, {"ts_tile", 32},  {"ts_pad", 32},
             {"ts_pad_r2", 16}, {"ts_pad_r4", 8}, {"ts_pad_r8", 4}};
    enum { N = 64 };
    for (unsigned arch = 80; arch <= 90; arch += 10) {
        char path[1024];
        snprintf(path, sizeof path,
                 "%s/examples/kernels/sm_%u/shapes_transpose.ptx",
                 WM_SOURCE_DIR, arch);
        size_t n;
        char *src = wm_read_file(path, &n);
        CHECK(src != NULL);
        if (!src)
            return;
        wm_ptx_module *m = NULL;
        wm_diag d;
        CHECK_EQ(wm_ptx_parse(src, n, path, &m, &d), WM_OK);
        free(src);
        for (size_t i = 0; m && i < WM_ARRAY_LEN(k); i++) {
            float in[N * N], out[N * N];
            for (unsigned e = 0; e < N * N; e++)
                in[e] = (float)e, out[e] = -1;
            wm_ptx_arg args[3] = {{in, sizeof in, 0, 0, NULL},
                                  {out, sizeof out, 0, 0, NULL},
                                  {NULL, 0, N, 4, NULL}};
            wm_ptx_launch l;
            memset(&l, 0, sizeof l);
            l.grid[0] = l.grid[1] = N / 32, l.grid[2] = 1;
            l.block[0] = 32, l.block[1] = k[i].by, l.block[2] = 1;
            l.args = args;
            l.nargs = 3;
            int ki = -1;
            for (size_t q = 0; q < wm_ptx_nkernels(m); q++)
                if (strcmp(wm_ptx_kernel_name(m, q), k[i].name) == 0)
                    ki = (int)q;
            CHECK(ki >= 0);
            if (ki < 0)
                continue;
            wm_agg *g = wm_agg_new(wm_arch_default());
            CHECK_EQ(wm_ptx_run(m, (size_t)ki, &l, g, NULL, NULL), WM_OK);
            unsigned bad = 0;
            for (unsigned y = 0; y < N; y++)
                for (unsigned x = 0; x < N; x++)
                    bad += out[x * N + y] != in[y * N + x];
            CHECK_EQ(bad, 0);
            wm_agg_free(g);
        }
        wm_ptx_free(m);
    }
}

/* TLB misses of one warp on H100's TLBs (16 entries of 2 MiB per SM, a
 * shared L2 TLB of 256 entries of 32 MiB), counted by hand.  Stride 2 MiB:
 * 32 pages, 32 L1 TLB misses; their L2 lookups find 2 pages of 32 MiB
 * (lanes 0-15 and 16-31), 2 misses.  Again: the L1 TLB holds the last 16
 * pages and each lookup drops the one needed 16 later, 32 misses, the L2
 * TLB has both.  Stride 4 KiB: 128 KiB in one page, one miss at each
 * level, none the second time. */
static void test_tlb_counts(void)
{
    static const struct {
        uint64_t stride, l1, l2;
    } cases[] = {{2u << 20, 64, 2}, {4096, 1, 1}};
    for (size_t i = 0; i < 2; i++) {
        wm_cache *c = model(1, 1);
        CHECK_EQ(wm_cache_cta(c), WM_OK);
        add(c, 0, 0, warp_at(WM_OP_LD, 0, cases[i].stride, 4));
        add(c, 0, 1, warp_at(WM_OP_LD, 0, cases[i].stride, 4));
        done(c);
        wm_cache_stats s;
        wm_cache_totals(c, &s);
        CHECK_EQ(s.tlb1_misses, cases[i].l1);
        CHECK_EQ(s.tlb2_misses, cases[i].l2);
        /* H100 has no miss latency: the term is left out, as it says */
        wm_cache_time t;
        wm_cache_predict(c, &t);
        CHECK_EQ(t.nterms_missing, 1);
        wm_cache_free(c);
    }
}

/* With miss latencies (a test GPU: H100 with 100 and 400 cycles) a cold
 * load that misses both TLBs costs DRAM + 100 + 400 cycles; its second
 * read after a barrier hits L1 and both TLBs and costs the L1 latency. */
static void test_tlb_latency(void)
{
    wm_gpu g = *wm_gpu_find("H100");
    g.lat_tlb1 = 100;
    g.lat_tlb2 = 400;
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, &g, 256, 0), WM_OK);
    cfg.nsms = 1;
    cfg.ctas_per_sm = 1;
    wm_cache *c = wm_cache_new(&cfg);
    CHECK_EQ(wm_cache_cta(c), WM_OK);
    add(c, 0, 0, warp_at(WM_OP_LD, 0, 4096, 4));
    add(c, 0, 1, warp_at(WM_OP_LD, 0, 4096, 4));
    wm_cache_time t = done(c);
    NEAR(t.lat_s, (g.lat_dram + 500 + g.lat_l1) / g.clock_hz);
    CHECK_EQ(t.nterms_missing, 0);
    CHECK_EQ(wmi_cache_tlb_groups(c), 1);
    CHECK(strcmp(t.bound, "latency") == 0);
    char why[512];
    wm_cache_reason(c, why, sizeof why);
    CHECK(strstr(why, "TLB misses lengthen") != NULL);
    wm_cache_free(c);
}

/* wmi_ctlb_column translates a column as wmi_ctlb_access translates its
 * 32 line words: the same misses and cost, access by access, over random
 * columns on 4 SMs (strides of a line to 8 MiB either way, pages shared
 * and not, addresses up to 2^60, where a line word keeps 48 bits of the
 * line index). */
static void test_tlb_column(void)
{
    wm_gpu g = *wm_gpu_find("H100");
    g.lat_tlb1 = 100;
    g.lat_tlb2 = 400;
    g.tlb1_entries = 8;
    g.tlb2_entries = 32;
    wmi_ctlb a, b;
    CHECK(wmi_ctlb_init(&a, &g, 4));
    CHECK(wmi_ctlb_init(&b, &g, 4));
    wm_cache_stats sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        int64_t d = (int64_t)(128u << (r % 17)) * (r >> 20 & 1 ? -1 : 1);
        d += (int64_t)(r >> 24 & 3) * 128;
        uint64_t x0 = (r >> 8) & ((r >> 40 & 7) == 0 ? ~0ull >> 4
                                                      : (1ull << 30) - 1);
        x0 &= ~(uint64_t)3;
        unsigned sm = (unsigned)(r >> 60 & 3);
        uint64_t line[32], e = x0;
        for (unsigned l = 0; l < 32; l++, e += (uint64_t)d)
            line[l] = (e >> 7) << 16 | 1;
        double ca = wmi_ctlb_column(&a, sm, x0, d, &sa);
        double cb = wmi_ctlb_access(&b, sm, line, 32, &sb);
        CHECK(ca == cb);
    }
    CHECK_EQ(sa.tlb1_misses, sb.tlb1_misses);
    CHECK_EQ(sa.tlb2_misses, sb.tlb2_misses);
    CHECK(sa.tlb1_misses > 1000 && sa.tlb2_misses > 100);
    CHECK(sa.tlb1_misses < 20000 * 32);
    wmi_ctlb_free(&a);
    wmi_ctlb_free(&b);
}

/* A warp's consecutive shared accesses in one interval become one record
 * that keeps all their turns: the same random streams (4 warps of 8 CTAs
 * on 2 SMs, global rows and columns, runs of shared accesses, barriers),
 * recorded with the merging and with every shared access a record of its
 * own, give the same counts, intervals and time, access by access in
 * instruction order. */
static void test_shared_runs(void)
{
    uint64_t r = 0x2545f4914f6cdd1dull;
    for (int run = 0; run < 40; run++) {
        wmi_ctrace t[2];
        memset(t, 0, sizeof t);
        size_t merged = 0, shared = 0;
        for (unsigned k = 0; k < 8; k++) {
            for (int v = 0; v < 2; v++)
                CHECK_EQ(wmi_ctrace_cta(&t[v]), WM_OK);
            for (unsigned iv = 0; iv < 3; iv++)
                for (unsigned wp = 0; wp < 4; wp++)
                    for (int i = 0; i < 12; i++) {
                        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                        for (int v = 0; v < 2; v++) {
                            t[v].warp = wp;
                            t[v].interval = iv;
                            if (v == 1)
                                t[v].last = 0; /* no merging */
                            if (r % 3) {
                                CHECK_EQ(wmi_ctrace_shared(&t[v], 1 + r % 5),
                                         WM_OK);
                            } else {
                                wm_access a = warp_at(
                                    r & 8 ? WM_OP_ST : WM_OP_LD,
                                    (r >> 8) % 4096 * 128,
                                    r & 16 ? 4 : 4096, 4);
                                CHECK_EQ(wmi_ctrace_add(&t[v], &a, NULL,
                                                        WM_CACHE_LD_CA),
                                         WM_OK);
                            }
                        }
                        shared += r % 3 != 0;
                    }
        }
        for (size_t p = 0; p < t[0].n; p += wmi_rec_len(t[0].w + p))
            merged += (t[0].w[p] >> 56 & 7) == WMI_CK_SHARED;
        CHECK(merged < shared);
        wm_cache *c[2];
        for (int v = 0; v < 2; v++) {
            c[v] = model(2, 4);
            CHECK_EQ(wmi_cache_feed(c[v], &t[v]), WM_OK);
        }
        wm_cache_time a = done(c[0]), b = done(c[1]);
        wm_cache_stats sa, sb;
        wm_cache_totals(c[0], &sa);
        wm_cache_totals(c[1], &sb);
        CHECK(memcmp(&sa, &sb, sizeof sa) == 0);
        CHECK(a.time_s == b.time_s && a.lat_s == b.lat_s &&
              a.l1_s == b.l1_s && a.inflight_ask == b.inflight_ask);
        CHECK_EQ(wm_cache_nintervals(c[0]), wm_cache_nintervals(c[1]));
        for (size_t i = 0; i < wm_cache_nintervals(c[0]); i++) {
            double la = 0, pa = 0, lb = 1, pb = 1;
            CHECK(wm_cache_interval(c[0], i, &la, &pa) &&
                  wm_cache_interval(c[1], i, &lb, &pb));
            CHECK(la == lb && pa == pb);
        }
        for (int v = 0; v < 2; v++) {
            wm_cache_free(c[v]);
            wmi_ctrace_free(&t[v]);
        }
    }
}

int main(void)
{
    test_shared_runs();
    test_tlb_column();
    test_tlb_counts();
    test_tlb_latency();
    test_shapes();
    test_groups_intervals();
    test_max_over_warps();
    test_overlap();
    test_slots();
    test_pipe();
    test_partial();
    test_terms();
    test_dep();
    return check_done("test_cache_time");
}
