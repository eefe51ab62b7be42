/*
 * test_lab_predict.c -- the lab's predictions, selection and statistics,
 * against values computed by hand.
 *
 * Hand counts (sm_90: 32 B sectors, 32 banks of 4 B):
 *   - stride s, 4 B lanes: a warp spans 32*s words; a sector holds 8 words,
 *     so it touches min(s, 8) * 4 sectors (4, 8, 16, 32, 32, 32 for
 *     s = 1, 2, 4, 8, 16, 32), ideal 4; efficiency 4 / sectors.  s = 3: the
 *     lanes' words 3l, l < 32, reach words 0..93 and every 8-word sector in
 *     it (steps of 3 < 8), so 12 sectors;
 *   - offset k, 4 B lanes: 128 contiguous bytes starting 4k bytes in; 4
 *     sectors when 4k is a multiple of 32 (k = 0, 8, 16, 24, 32), else 5;
 *   - width w, contiguous: 32*w bytes = w sectors, all useful;
 *   - naive transpose: the column side puts each lane in its own line
 *     (n * 4 bytes apart): 32 sectors, ideal 4; efficiency (4+4)/(32+4);
 *   - tile [32][32]: the column read hits bank c for every lane: 32
 *     wavefronts; [32][33] and the swizzles: 1;
 *   - probes: (l % n) * 32 + l / n puts n distinct words in each of 32/n
 *     banks: n wavefronts; 64-bit lanes go by half-warps (2 wavefronts when
 *     consecutive, 4 when every other 8-byte slot: lanes l and l+8 share
 *     banks), 128-bit by quarter-warps (4 and 8).
 */
#include "lab.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static lab_table t;

static const lab_row *row(const char *id)
{
    int i = lab_table_find(&t, id);
    if (i < 0) {
        fprintf(stderr, "no row %s\n", id);
        return &t.rows[0];
    }
    return &t.rows[i];
}

static double per(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : -1.0;
}

/* CHECK two doubles equal to 1e-9 relative. */
#define CHECK_NEAR(a, b)                                                      \
    do {                                                                      \
        double x_ = (a), y_ = (b);                                            \
        double d_ = x_ > y_ ? x_ - y_ : y_ - x_;                              \
        check_count++;                                                        \
        if (d_ > 1e-9 * (y_ < 0 ? -y_ : y_) + 1e-12) {                        \
            check_failures++;                                                 \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s == %s (%g vs %g)\n",\
                    __FILE__, __LINE__, #a, #b, x_, y_);                      \
        }                                                                     \
    } while (0)

static void test_strides(void)
{
    static const unsigned s[] = {1, 2, 3, 4, 8, 16, 32};
    static const double sectors[] = {4, 8, 12, 16, 32, 32, 32};
    char id[32];
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        const lab_row *r;
        snprintf(id, sizeof id, "E2.read.s%u", s[i]);
        r = row(id);
        CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), sectors[i]);
        CHECK_NEAR(per(r->pred.g_ld_ideal, r->pred.g_ld_req), 4.0);
        CHECK_EQ(r->pred.g_st_req, 0);
        CHECK_NEAR(r->pred.efficiency, 4.0 / sectors[i]);
        /* 8 warps x 4 loads in the first block */
        CHECK_EQ(r->pred.g_ld_req, 32);
        snprintf(id, sizeof id, "E2.copy.s%u", s[i]);
        r = row(id);
        CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), sectors[i]);
        CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), sectors[i]);
        CHECK_NEAR(r->pred.efficiency, 4.0 / sectors[i]);
        CHECK_NEAR(lab_row_predicted_rel(&t, (size_t)lab_table_find(&t, id)),
                   4.0 / sectors[i]);
    }
}

static void test_offsets(void)
{
    static const unsigned k[] = {0, 1, 2, 7, 8, 12, 16, 24, 31, 32};
    static const double sectors[] = {4, 5, 5, 5, 4, 5, 4, 4, 5, 4};
    char id[32];
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const lab_row *r;
        snprintf(id, sizeof id, "E3.off%u", k[i]);
        r = row(id);
        CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), sectors[i]);
        CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), sectors[i]);
        CHECK_NEAR(r->pred.efficiency, 4.0 / sectors[i]);
    }
}

static void test_widths(void)
{
    static const unsigned w[] = {1, 2, 4, 8, 16};
    char id[32];
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        for (int ilp = 0; ilp < 2; ilp++) {
            const lab_row *r;
            snprintf(id, sizeof id, "E4.w%u.%s", w[i], ilp ? "ilp4" : "one");
            r = row(id);
            CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), w[i]);
            CHECK_NEAR(per(r->pred.g_st_ideal, r->pred.g_st_req), w[i]);
            CHECK_NEAR(r->pred.efficiency, 1.0);
            CHECK_EQ(r->pred.g_ld_req, ilp ? 32 : 8);
        }
    }
    /* E0's own copy is the 16 B, 4-in-flight kernel. */
    CHECK_NEAR(per(row("E0.copy")->pred.g_ld_sectors,
                   row("E0.copy")->pred.g_ld_req),
               16.0);
    CHECK_EQ(row("E0.memcpy")->pred.has, 0);
    CHECK_EQ(row("E5.sgeam")->pred.has, 0);
}

static void test_transposes(void)
{
    const lab_row *r;
    r = row("E1.contiguous");
    CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), 4.0);
    CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), 4.0);
    r = row("E1.transposed");
    CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), 32.0);
    CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), 4.0);
    CHECK_NEAR(r->pred.efficiency, 8.0 / 36.0);
    r = row("E5.naive_row");
    CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), 4.0);
    CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), 32.0);
    CHECK_NEAR(r->pred.efficiency, 8.0 / 36.0);

    r = row("E5.tile");
    CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), 4.0);
    CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), 4.0);
    CHECK_NEAR(per(r->pred.s_st_wavefronts, r->pred.s_st_req), 1.0);
    CHECK_NEAR(per(r->pred.s_ld_wavefronts, r->pred.s_ld_req), 32.0);
    CHECK_EQ(r->pred.s_nway, 32);
    CHECK_EQ(r->pred.s_ld_req, 32); /* 8 warps x 4 */
    CHECK_NEAR(r->pred.efficiency, 1.0);
    static const char *const free_ids[] = {"E5.pad", "E5.swz", "E5.vec4"};
    for (size_t i = 0; i < 3; i++) {
        r = row(free_ids[i]);
        CHECK_NEAR(per(r->pred.s_ld_wavefronts, r->pred.s_ld_req), 1.0);
        CHECK_NEAR(per(r->pred.s_st_wavefronts, r->pred.s_st_req), 1.0);
        CHECK_EQ(r->pred.s_nway, 1);
        CHECK_NEAR(r->pred.efficiency, 1.0);
    }
    r = row("E5.vec4");
    CHECK_NEAR(per(r->pred.g_ld_sectors, r->pred.g_ld_req), 16.0);
    CHECK_NEAR(per(r->pred.g_st_sectors, r->pred.g_st_req), 16.0);
    CHECK_EQ(r->pred.s_ld_req, 32); /* 2 warps x 4 rows x 4 elements */
}

static void test_probes(void)
{
    static const struct {
        const char *id;
        double nway;
    } want[] = {
        {"E6.b32.free", 1},     {"E6.b32.2way", 2},     {"E6.b32.4way", 4},
        {"E6.b32.8way", 8},     {"E6.b32.16way", 16},   {"E6.b32.32way", 32},
        {"E6.b32.bcast", 1},    {"E6.b32.mcast", 1},    {"E6.b64.free", 2},
        {"E6.b64.stride2", 4},  {"E6.b128.free", 4},    {"E6.b128.stride2", 8},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const lab_row *r = row(want[i].id);
        int idx = lab_table_find(&t, want[i].id);
        CHECK_NEAR(r->pred.nway_pred, want[i].nway);
        CHECK(r->type == LAB_ROW_SMEM);
        CHECK_NEAR(lab_row_predicted_rel(&t, (size_t)idx), want[i].nway);
        CHECK_EQ(r->pred.g_ld_req + r->pred.g_st_req, 0);
    }
}

static void test_select(void)
{
    char bad[32];
    size_t n = lab_table_select(&t, "E5.pad", bad, sizeof bad);
    CHECK_EQ(n, 1);
    CHECK(row("E5.pad")->selected);
    CHECK(row("E0.memcpy")->selected && row("E0.copy")->selected);
    CHECK(!row("E5.tile")->selected);
    CHECK(!row("E2.read.s1")->selected);

    n = lab_table_select(&t, "E2.read.s4,E6.b32.8", bad, sizeof bad);
    CHECK_EQ(n, 2);
    CHECK(row("E2.read.s1")->selected); /* the baseline comes along */
    CHECK(row("E6.b32.free")->selected);
    CHECK(!row("E2.read.s2")->selected);

    n = lab_table_select(&t, "E2,E9", bad, sizeof bad);
    CHECK_EQ(n, 0);
    CHECK(strcmp(bad, "E9") == 0);

    n = lab_table_select(&t, NULL, bad, sizeof bad);
    CHECK_EQ(n, t.nrows);
}

static void set_meas(const char *id, double gbs, double ms)
{
    lab_row *r = &t.rows[lab_table_find(&t, id)];
    r->meas.status = LAB_ST_OK;
    r->meas.gbs_med = gbs;
    r->meas.ms_med = ms;
}

static void test_ratios(void)
{
    lab_env e;
    memset(&e, 0, sizeof e);
    e.c_ref_gbs = 4000.0;
    set_meas("E2.read.s1", 3000.0, 1.0);
    set_meas("E2.read.s2", 1650.0, 1.0);
    set_meas("E5.pad", 3600.0, 1.0);
    set_meas("E6.b32.free", 0.0, 2.0);
    set_meas("E6.b32.4way", 0.0, 8.4);

    size_t s2 = (size_t)lab_table_find(&t, "E2.read.s2");
    CHECK_NEAR(lab_row_x_cref(&t, &e, s2), 1650.0 / 4000.0);
    CHECK_NEAR(lab_row_measured_rel(&t, &e, s2), 0.55);
    CHECK_NEAR(lab_row_predicted_rel(&t, s2), 0.5);

    size_t pad = (size_t)lab_table_find(&t, "E5.pad");
    CHECK_NEAR(lab_row_measured_rel(&t, &e, pad), 0.9);
    CHECK_NEAR(lab_row_predicted_rel(&t, pad), 1.0);

    size_t w4 = (size_t)lab_table_find(&t, "E6.b32.4way");
    CHECK_NEAR(lab_row_measured_rel(&t, &e, w4), 4.2);
    CHECK_NEAR(lab_row_x_cref(&t, &e, w4), 0.0);

    /* an untimed row has no ratio */
    CHECK_NEAR(lab_row_measured_rel(&t, &e,
                                    (size_t)lab_table_find(&t, "E5.tile")),
               0.0);
}

static void test_stats(void)
{
    double a[] = {3.0, 1.0, 2.0};
    double b[] = {4.0, 1.0, 3.0, 2.0};
    double c[] = {7.5};
    double med, min, max;
    lab_stats(a, 3, &med, &min, &max);
    CHECK_NEAR(med, 2.0);
    CHECK_NEAR(min, 1.0);
    CHECK_NEAR(max, 3.0);
    lab_stats(b, 4, &med, &min, &max);
    CHECK_NEAR(med, 2.5);
    CHECK_NEAR(max, 4.0);
    lab_stats(c, 1, &med, &min, &max);
    CHECK_NEAR(med, 7.5);
    CHECK_NEAR(min, 7.5);
}

static void test_kinds(void)
{
    CHECK(strcmp(lab_kind_symbol(LAB_K_T_PAD), "lab_transpose_pad") == 0);
    CHECK(strcmp(lab_kind_ptx(LAB_K_SMEM64), "lab/kernels/smem.ptx") == 0);
    CHECK(strcmp(lab_kind_symbol(LAB_K_MEMCPY), "") == 0);
    CHECK(strcmp(lab_kind_symbol(LAB_NKINDS), "") == 0);
    /* every kernel row's PTX is committed and names its entry */
    for (int k = 0; k < LAB_NKINDS; k++) {
        const char *sym = lab_kind_symbol((lab_kind)k);
        char path[512], line[512];
        FILE *f;
        int found = 0;
        if (!*sym)
            continue;
        snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR,
                 lab_kind_ptx((lab_kind)k));
        f = fopen(path, "r");
        CHECK(f != NULL);
        if (f == NULL)
            continue;
        while (!found && fgets(line, sizeof line, f)) {
            const char *at = strstr(line, sym);
            found = strstr(line, ".entry") && at && at[strlen(sym)] == '(';
        }
        fclose(f);
        if (!found)
            fprintf(stderr, "%s: no .entry %s\n", path, sym);
        CHECK(found);
    }
}

static void test_clocks(void)
{
    static lab_env e;
    size_t i = (size_t)lab_table_find(&t, "E5.pad");
    CHECK(!lab_clock_moved(1980, 1980));
    CHECK(!lab_clock_moved(1980, 1950)); /* 1.5 %: within the tolerance */
    CHECK(lab_clock_moved(1980, 1900));  /* 4 % */
    CHECK(lab_clock_moved(1980, 2100));
    CHECK(!lab_clock_moved(0, 1980));    /* unknown never moves */
    CHECK(!lab_clock_moved(1980, 0));
    memset(&e, 0, sizeof e);
    e.sm_mhz[1] = e.sm_mhz[2] = 1980;
    e.mem_mhz[1] = e.mem_mhz[2] = 3201;
    for (size_t k = 0; k < t.nrows; k++)
        memset(&t.rows[k].meas, 0, sizeof t.rows[k].meas);
    t.rows[i].selected = 1;
    t.rows[i].meas.status = LAB_ST_OK;
    t.rows[i].meas.sm_mhz = 1980;
    t.rows[i].meas.mem_mhz = 3201;
    CHECK(!lab_env_clocks_moved(&t, &e));
    t.rows[i].meas.mem_mhz = 2619;
    CHECK(lab_env_clocks_moved(&t, &e));
    t.rows[i].meas.mem_mhz = 3201;
    e.sm_mhz[2] = 1755;
    CHECK(lab_env_clocks_moved(&t, &e));
    t.rows[i].meas.status = LAB_ST_NOT_RUN;
}

/* The hierarchy model over whole grids (lab/hier.c): the 2-D kinds move
 * the footprint through DRAM once at n = 256; the strided read at stride 2
 * reads twice its useful bytes; kinds without a model say so. */
static void test_hier(void)
{
    static const lab_kind two_d[] = {LAB_K_COPY_2D, LAB_K_T_NAIVE_ROW,
                                     LAB_K_T_NAIVE_COL, LAB_K_T_TILE,
                                     LAB_K_T_PAD, LAB_K_T_SWZ};
    lab_params p;
    lab_hier h;
    memset(&p, 0, sizeof p);
    for (size_t i = 0; i < sizeof two_d / sizeof two_d[0]; i++) {
        CHECK_EQ(lab_predict_hier(two_d[i], &p, 256, &h), WM_OK);
        CHECK(h.has);
        CHECK_EQ(h.dram_bytes, 2ull * 256 * 256 * 4);
        CHECK(h.time_us > 0 && h.gbs > 0);
    }
    CHECK_EQ(lab_predict_hier(LAB_K_T_NAIVE_COL, &p, 256, &h), WM_OK);
    CHECK(h.l1_hit > 0.87 && h.l1_hit < 0.88);
    CHECK_EQ(lab_predict_hier(LAB_K_COPY_2D, &p, 100, &h), WM_ERR_ARG);
    p.stride = 2;
    CHECK_EQ(lab_predict_hier(LAB_K_READ_STRIDE, &p, 0, &h), WM_OK);
    CHECK(h.has && h.bytes == 256ull << 20);
    /* every sector of the 256 MiB range is read once; 8 B atomics aside */
    CHECK_EQ(h.dram_bytes, (256ull << 20) + 64); /* + the counter, in and out */
    CHECK_EQ(lab_predict_hier(LAB_K_T_VEC4, &p, 256, &h), WM_OK);
    CHECK(!h.has);
    CHECK(lab_hier_supported(LAB_K_COPY_STRIDE));
    CHECK(!lab_hier_supported(LAB_K_SMEM32));
}

/* The generator (lab/hier.c) against the interpreter on the kernel's PTX:
 * the same hit rates, DRAM bytes and time at n = 256. */
static void hier_vs_ptx(lab_kind kind, wm_ptx_module *m)
{
    enum { N = 256 };
    lab_params p;
    lab_hier h;
    memset(&p, 0, sizeof p);
    CHECK_EQ(lab_predict_hier(kind, &p, N, &h), WM_OK);
    long k = wm_ptx_find_kernel(m, lab_kind_symbol(kind));
    CHECK(k >= 0);
    if (k < 0)
        return;
    float *in = calloc(N * N, sizeof *in), *out = calloc(N * N, sizeof *out);
    wm_ptx_arg args[3] = {{in, N * N * 4, 0, 0, NULL}, {out, N * N * 4, 0, 0, NULL},
                          {NULL, 0, N, 4, NULL}};
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = N / 32, l.grid[2] = 1;
    l.block[0] = 32, l.block[1] = 8, l.block[2] = 1;
    l.args = args;
    l.nargs = 3;
    wm_cache_config cfg;
    CHECK_EQ(wm_cache_config_init(&cfg, wm_gpu_find("H200"), 256,
                                  wm_ptx_kernel_smem(m, (size_t)k, 0)),
             WM_OK);
    l.cache = wm_cache_new(&cfg);
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK_EQ(wm_ptx_run(m, (size_t)k, &l, g, NULL, NULL), WM_OK);
    wm_cache_stats t0;
    wm_cache_time tm;
    wm_cache_totals(l.cache, &t0);
    wm_cache_predict(l.cache, &tm);
    CHECK_EQ((t0.dram_rd_sectors + t0.dram_wr_sectors) * 32, h.dram_bytes);
    CHECK_NEAR(per(t0.l1_ld_hits, t0.l1_ld_sectors) < 0
                   ? 0.0
                   : per(t0.l1_ld_hits, t0.l1_ld_sectors),
               h.l1_hit);
    /* The time is not compared: the generator has no instruction stream,
     * so its loads form one group per warp and interval and its shared
     * wavefronts have no SM, where the interpreter knows both. */
    CHECK(tm.time_s > 0 && h.time_us > 0);
    wm_agg_free(g);
    wm_cache_free(l.cache);
    free(in);
    free(out);
}

static void test_hier_vs_ptx(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/lab/kernels/transpose.ptx",
             WM_SOURCE_DIR);
    size_t n;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    if (!src)
        return;
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(src, n, path, &m, &d), WM_OK);
    free(src);
    if (!m)
        return;
    hier_vs_ptx(LAB_K_COPY_2D, m);
    hier_vs_ptx(LAB_K_T_NAIVE_ROW, m);
    hier_vs_ptx(LAB_K_T_NAIVE_COL, m);
    hier_vs_ptx(LAB_K_T_TILE, m);
    hier_vs_ptx(LAB_K_T_SWZ, m);
    wm_ptx_free(m);
}

int main(void)
{
    CHECK_EQ(lab_table_build(&t), WM_OK);
    CHECK(t.nrows > 60 && t.nrows <= LAB_MAX_ROWS);
    test_strides();
    test_offsets();
    test_widths();
    test_transposes();
    test_probes();
    test_select();
    test_ratios();
    test_stats();
    test_kinds();
    test_clocks();
    test_hier();
    test_hier_vs_ptx();
    return check_done("test_lab_predict");
}
