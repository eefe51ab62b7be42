/*
 * test_agg.c -- the aggregator: per-site sums, min/median/max per request,
 * the worst warp, labels, merging in any split equals one aggregator, and
 * the metric table's values under Nsight Compute names.
 */
#include "wm_int.h"
#include "check.h"

static wm_access strided(uint32_t site, wm_space sp, wm_op op, unsigned size,
                         uint64_t stride, uint64_t mask)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.site = site;
    a.space = sp;
    a.op = op;
    a.size = size;
    a.mask = mask;
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = 4096 + i * stride;
    return a;
}

static double metric(const wm_totals *t, const char *name)
{
    for (size_t i = 0; i < wm_metric_count(); i++)
        if (strcmp(wm_metric_name(i), name) == 0)
            return wm_metric_value(t, i);
    fprintf(stderr, "no metric %s\n", name);
    CHECK(0);
    return -1;
}

static void sums_and_distribution(void)
{
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK(g != NULL);
    /* Site 7: global loads with stride 4 (4 sectors), 8 (8), 128 (32). */
    static const uint64_t strides[] = {4, 8, 128, 4, 4};
    for (unsigned i = 0; i < 5; i++) {
        wm_access a = strided(7, WM_SPACE_GLOBAL, WM_OP_LD, 4, strides[i],
                              0xffffffffu);
        CHECK_EQ(wm_agg_add(g, &a, NULL), WM_OK);
    }
    /* A fully predicated-off execution counts in inst_all only. */
    wm_access off = strided(7, WM_SPACE_GLOBAL, WM_OP_LD, 4, 4, 0);
    CHECK_EQ(wm_agg_add(g, &off, NULL), WM_OK);
    /* Site 3: shared stores, column of a 32x32 tile (32 wavefronts). */
    wm_access s = strided(3, WM_SPACE_SHARED, WM_OP_ST, 4, 128, 0xffffffffu);
    CHECK_EQ(wm_agg_add(g, &s, NULL), WM_OK);
    CHECK_EQ(wm_agg_label(g, 7, "ld.global.f32 %f1, [%rd4];", "k.cu", 12),
             WM_OK);
    CHECK_EQ(wm_agg_label(g, 3, "st.shared.f32", "k.cu", 9), WM_OK);
    /* An invalid access is refused and adds nothing. */
    wm_access bad = strided(9, WM_SPACE_GLOBAL, WM_OP_LD, 4, 4, 1);
    bad.addr[0] = 3;
    CHECK_EQ(wm_agg_add(g, &bad, NULL), WM_ERR_ALIGN);

    CHECK_EQ(wm_agg_nsites(g), 2);
    wm_site st;
    CHECK(wm_agg_site(g, 0, &st));
    CHECK_EQ(st.site, 3); /* ascending site order */
    CHECK_EQ(st.stats.wavefronts, 32);
    CHECK_EQ(st.stats.conflicts, 31);
    CHECK_EQ(st.line, 9);
    CHECK(wm_agg_site(g, 1, &st));
    CHECK_EQ(st.site, 7);
    CHECK(strcmp(st.file, "k.cu") == 0);
    CHECK_EQ(st.line, 12);
    CHECK_EQ(st.stats.inst, 5);
    CHECK_EQ(st.stats.inst_all, 6);
    CHECK_EQ(st.stats.sectors, 4 + 8 + 32 + 4 + 4);
    CHECK_EQ(st.stats.ideal_sectors, 20);
    CHECK_EQ(st.stats.excessive_sectors, 4 + 28);
    CHECK_EQ(st.stats.active_lanes, 160);
    CHECK_EQ(st.per_request.min, 4);
    CHECK_EQ(st.per_request.median, 4);
    CHECK_EQ(st.per_request.max, 32);
    CHECK(st.per_request.mean > 10.39 && st.per_request.mean < 10.41);
    CHECK(st.worst != NULL);
    CHECK_EQ(st.worst->addr[1] - st.worst->addr[0], 128);
    CHECK(!wm_agg_site(g, 2, &st));

    wm_totals t;
    wm_agg_totals(g, &t);
    CHECK_EQ(metric(&t, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 52);
    CHECK_EQ(metric(&t, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 5);
    CHECK_EQ(metric(&t, "smsp__sass_inst_executed_op_global_ld.sum"), 5);
    CHECK(metric(&t, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_"
                     "global_op_ld.ratio") == 52.0 / 5.0);
    /* 5 x 128 B requested over 52 sectors of 32 B */
    double pct = metric(&t, "smsp__sass_average_data_bytes_per_sector_mem_"
                            "global_op_ld.pct");
    CHECK(pct > 38.461 && pct < 38.462); /* 100 * 640 / (52 * 32) */
    CHECK_EQ(metric(&t, "memory_l2_theoretical_sectors_global_ideal"), 20);
    CHECK_EQ(metric(&t, "derived__memory_l2_theoretical_sectors_global_"
                        "excessive"),
             32);
    CHECK_EQ(metric(&t, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
             32);
    CHECK_EQ(metric(&t, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
                        "st.sum"),
             31);
    CHECK_EQ(metric(&t, "derived__memory_l1_conflicts_shared_nway"), 32);
    CHECK_EQ(metric(&t, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
             0);
    /* Relevance: shared loads never ran. */
    for (size_t i = 0; i < wm_metric_count(); i++)
        if (strcmp(wm_metric_name(i),
                   "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 0)
            CHECK(!wm_metric_relevant(&t, i));
    wm_agg_free(g);
}

/* Splitting the same accesses over several aggregators and merging gives
 * exactly what one aggregator gives. */
static void merge_equals_single(void)
{
    wm_agg *one = wm_agg_new(wm_arch_default());
    wm_agg *part[3];
    for (unsigned p = 0; p < 3; p++)
        part[p] = wm_agg_new(wm_arch_default());
    uint64_t x = 12345;
    for (unsigned i = 0; i < 3000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t site = (uint32_t)(x >> 60);
        wm_space sp = (x >> 40) & 1 ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
        wm_access a = strided(site, sp, WM_OP_LD, 4, 4 * ((x >> 33) % 40),
                              x >> 20 & 0xffffffffu);
        wm_agg_add(one, &a, NULL);
        wm_agg_add(part[i % 3], &a, NULL);
    }
    for (uint32_t site = 0; site < 16; site++)
        wm_agg_label(part[site % 3], site, "lbl", "f.cu", site + 1);
    CHECK_EQ(wm_agg_merge(part[0], part[1]), WM_OK);
    CHECK_EQ(wm_agg_merge(part[0], part[2]), WM_OK);
    CHECK_EQ(wm_agg_nsites(part[0]), wm_agg_nsites(one));
    for (size_t i = 0; i < wm_agg_nsites(one); i++) {
        wm_site a, b;
        CHECK(wm_agg_site(one, i, &a));
        CHECK(wm_agg_site(part[0], i, &b));
        CHECK_EQ(a.site, b.site);
        CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
        CHECK_EQ(a.per_request.median, b.per_request.median);
        CHECK_EQ(a.per_request.max, b.per_request.max);
        CHECK(a.worst && b.worst);
        CHECK_EQ(b.line, b.site + 1);
    }
    wm_arch other;
    wm_arch_parse("sm_75", &other, NULL, 0);
    wm_agg *o = wm_agg_new(&other);
    CHECK_EQ(wm_agg_merge(o, one), WM_ERR_ARG);
    wm_agg_free(o);
    wm_agg_free(one);
    for (unsigned p = 0; p < 3; p++)
        wm_agg_free(part[p]);
    wm_agg_free(NULL);
}

/* Sites created in random order (sites, spaces, ops) are listed in key
   order: site, then space, then op; each site's count is its own. */
static void key_order(void)
{
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK(g != NULL);
    if (!g)
        return;
    enum { NS = 300 };
    static uint8_t made[NS][2][2];
    uint64_t r = 12345;
    size_t n = 0;
    for (unsigned step = 0; step < 3000; step++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t site = (uint32_t)(r >> 33) % NS;
        unsigned sp = (unsigned)(r >> 20) & 1, op = (unsigned)(r >> 21) & 1;
        wm_access a = strided(site, sp ? WM_SPACE_SHARED : WM_SPACE_GLOBAL,
                              op ? WM_OP_ST : WM_OP_LD, 4, 4, 0xffffffffu);
        CHECK_EQ(wm_agg_add(g, &a, NULL), WM_OK);
        n += !made[site][sp][op];
        made[site][sp][op]++;
    }
    CHECK_EQ(wm_agg_nsites(g), n);
    size_t i = 0;
    for (uint32_t site = 0; site < NS; site++)
        for (unsigned sp = 0; sp < 2; sp++)
            for (unsigned op = 0; op < 2; op++) {
                wm_space want_sp = sp ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
                wm_op want_op = op ? WM_OP_ST : WM_OP_LD;
                if (!made[site][sp][op])
                    continue;
                wm_site st;
                CHECK(wm_agg_site(g, i++, &st));
                CHECK_EQ(st.site, site);
                CHECK_EQ(st.space, want_sp);
                CHECK_EQ(st.op, want_op);
                CHECK_EQ(st.stats.inst, made[site][sp][op]);
            }
    wm_agg_free(g);
}

/* wmi_agg_add_repeats(n) after one access equals n + 1 adds of it (the
   PTX interpreter's batched memo hits), on random sites and patterns,
   empty masks included (they count in inst_all only). */
static void repeats_equal_adds(void)
{
    wm_agg *one = wm_agg_new(wm_arch_default());
    wm_agg *rep = wm_agg_new(wm_arch_default());
    uint64_t x = 777;
    uint32_t hint = 12345; /* any value is safe */
    for (unsigned i = 0; i < 2000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t site = (uint32_t)(x >> 59);
        wm_space sp = (x >> 40) & 1 ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
        wm_op op = (x >> 41) & 1 ? WM_OP_ST : WM_OP_LD;
        uint64_t mask = (x >> 42) % 7 == 0 ? 0 : (x >> 20 & 0xffffffffu);
        wm_access a = strided(site, sp, op, 4, 4 * ((x >> 33) % 40), mask);
        unsigned n = (unsigned)(x >> 12) % 5; /* 0..4 repeats */
        wm_counts c;
        for (unsigned k = 0; k <= n; k++)
            CHECK_EQ(wm_agg_add(one, &a, k ? NULL : &c), WM_OK);
        CHECK_EQ(wmi_agg_add_counted(rep, &a, &c, &hint), WM_OK);
        if (n)
            CHECK_EQ(wmi_agg_add_repeats(rep, site, sp, op, 4, &c, n, &hint),
                     WM_OK);
    }
    CHECK_EQ(wm_agg_nsites(rep), wm_agg_nsites(one));
    for (size_t i = 0; i < wm_agg_nsites(one); i++) {
        wm_site a, b;
        CHECK(wm_agg_site(one, i, &a));
        CHECK(wm_agg_site(rep, i, &b));
        CHECK_EQ(a.site, b.site);
        CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
        CHECK(memcmp(wmi_agg_site_hist(one, i), wmi_agg_site_hist(rep, i),
                     (WM_HIST_MAX + 1) * sizeof(uint32_t)) == 0);
        CHECK((a.worst == NULL) == (b.worst == NULL));
        if (a.worst && b.worst)
            CHECK(memcmp(a.worst, b.worst, sizeof *a.worst) == 0);
    }
    wm_agg_free(one);
    wm_agg_free(rep);
}

/* Sites whose records and histograms were reserved (wmi_agg_reserve: for
   fewer sites than come, and for more) count what an aggregator without
   the reserve counts, merged into another too; a reserve once sites exist
   changes nothing. */
static void reserved_equals_plain(void)
{
    static const size_t reserve[] = {1, 5, 32, 64, 200};
    for (size_t r = 0; r < WM_ARRAY_LEN(reserve); r++) {
        wm_agg *plain = wm_agg_new(wm_arch_default());
        wm_agg *res = wm_agg_new(wm_arch_default());
        wm_agg *merged = wm_agg_new(wm_arch_default());
        CHECK(plain && res && merged);
        CHECK_EQ(wmi_agg_reserve(res, reserve[r]), WM_OK);
        uint64_t x = 4242 + r;
        for (unsigned i = 0; i < 3000; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t site = (uint32_t)(x >> 59); /* 32 sites */
            wm_space sp = (x >> 40) & 1 ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
            wm_op op = (x >> 41) & 1 ? WM_OP_ST : WM_OP_LD;
            wm_access a = strided(site, sp, op, 4, 4 * ((x >> 33) % 40),
                                  x >> 20 & 0xffffffffu);
            CHECK_EQ(wm_agg_add(plain, &a, NULL), WM_OK);
            CHECK_EQ(wm_agg_add(res, &a, NULL), WM_OK);
            if (i == 100) /* sites exist: nothing to reserve */
                CHECK_EQ(wmi_agg_reserve(res, 200), WM_OK);
        }
        CHECK_EQ(wm_agg_merge(merged, res), WM_OK);
        CHECK(wm_agg_nsites(plain) > 64);
        CHECK_EQ(wm_agg_nsites(res), wm_agg_nsites(plain));
        CHECK_EQ(wm_agg_nsites(merged), wm_agg_nsites(plain));
        for (size_t i = 0; i < wm_agg_nsites(plain); i++) {
            wm_site a, b, c;
            CHECK(wm_agg_site(plain, i, &a));
            CHECK(wm_agg_site(res, i, &b));
            CHECK(wm_agg_site(merged, i, &c));
            CHECK(a.site == b.site && a.site == c.site);
            CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
            CHECK(memcmp(&a.stats, &c.stats, sizeof a.stats) == 0);
            const size_t hb = (WM_HIST_MAX + 1) * sizeof(uint32_t);
            CHECK(memcmp(wmi_agg_site_hist(plain, i),
                         wmi_agg_site_hist(res, i), hb) == 0);
            CHECK(memcmp(wmi_agg_site_hist(plain, i),
                         wmi_agg_site_hist(merged, i), hb) == 0);
        }
        wm_agg_free(plain);
        wm_agg_free(res);
        wm_agg_free(merged);
    }
}

int main(void)
{
    sums_and_distribution();
    merge_equals_single();
    key_order();
    repeats_equal_adds();
    reserved_equals_plain();
    return check_done("test_agg");
}
