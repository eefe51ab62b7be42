/*
 * cache_report.c -- the hierarchy section of a report: configuration,
 * metrics under Nsight Compute's names, the predicted time and what bounds
 * it and why (wm_cache_reason), and per site the misses it caused.  Text,
 * JSON or CSV; only formatting lives here, the numbers come from cache.c.
 */
#include "cache_int.h"
#include "out_int.h"

#include <math.h>
#include <string.h>

/* ---- why the bound wins, and what removes it (wm_cache_reason) ----- */

/* "8.0 KiB" or "1.2 MiB". */
static void fmt_bytes(char *b, size_t n, double v)
{
    if (v >= 1024.0 * 1024.0)
        snprintf(b, n, "%.1f MiB", v / (1024.0 * 1024.0));
    else
        snprintf(b, n, "%.1f KiB", v / 1024.0);
}

#define TLB_NOTE                                                             \
    "; TLB misses lengthen some of its load groups (pages spread wider "      \
    "than the TLB reach: a tile or row order that stays within fewer pages " \
    "removes them)"

/* The load groups ask for more L1 misses in flight than the miss slots
 * hold. */
static int slots_full(const wm_cache_time *t)
{
    return t->inflight_cap > 0 && t->inflight_ask > t->inflight_cap;
}

/* The latency-bound reason when the miss slots are full: more loads per
 * warp cannot help, more SMs can. */
static void latency_slots(const wm_cache *c, const wm_cache_time *t,
                          char *buf, size_t n)
{
    char ask[32], cap[32], need[32];
    fmt_bytes(ask, sizeof ask, t->inflight_ask);
    fmt_bytes(cap, sizeof cap, t->inflight_cap);
    fmt_bytes(need, sizeof need, t->inflight_need);
    snprintf(buf, n,
             "latency-bound: the loads ask for %s of L1 misses in flight per "
             "SM (%u CTAs x %u warps), its miss slots hold %s, so each round "
             "waits %.2f latencies; DRAM bandwidth x latency needs %s; more "
             "SMs (more CTAs in the grid) hide it, more loads per warp "
             "cannot (without it %.3f us)%s",
             ask, wmi_cache_resident(c), wmi_cache_warps(c), cap,
             t->inflight_ask / t->inflight_cap, need, t->whatif_s * 1e6,
             wmi_cache_tlb_groups(c) ? TLB_NOTE : "");
}

const char *wm_cache_reason(const wm_cache *c, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    if (!c)
        return buf;
    wm_cache_time t;
    wm_cache_predict(c, &t);

    char have[32], need[32];
    fmt_bytes(have, sizeof have, t.inflight_sm);
    fmt_bytes(need, sizeof need, t.inflight_need);
    double w = t.whatif_s * 1e6;
    if (strcmp(t.bound, "latency") == 0 && slots_full(&t))
        latency_slots(c, &t, buf, n);
    else if (strcmp(t.bound, "latency") == 0)
        snprintf(buf, n,
                 "latency-bound: %s in flight per SM (%u CTAs x %u warps), "
                 "DRAM bandwidth x latency needs %s; more independent loads "
                 "per warp (coarsening), more resident CTAs or fewer "
                 "barriers hide it (without it %.3f us)%s",
                 have, wmi_cache_resident(c), wmi_cache_warps(c), need, w,
                 wmi_cache_tlb_groups(c) ? TLB_NOTE : "");
    else if (strcmp(t.bound, "L1") == 0)
        snprintf(buf, n,
                 "L1-bound: the L1/shared pipe's wavefronts (tag, data and "
                 "shared) run in series with the loads; fewer wavefronts per "
                 "request (no bank conflicts, coalesced lines) remove it "
                 "(without it %.3f us)",
                 w);
    else if (strcmp(t.bound, "L2") == 0)
        snprintf(buf, n,
                 "L2-bound: sectors through L2 (partial-sector writes count "
                 "twice); fewer sectors per request (coalesced stores) remove "
                 "it (with DRAM in its place %.3f us)",
                 w);
    else
        snprintf(buf, n,
                 "DRAM-bound: bytes from and to DRAM over its bandwidth; only "
                 "fewer DRAM bytes help (with L2 in its place %.3f us)",
                 w);
    return buf;
}


/* The label, file and line of site id in g ("" / 0 when unknown). */
static void site_label(const wm_agg *g, uint32_t id, const char **label,
                       const char **file, uint32_t *line)
{
    *label = *file = "";
    *line = 0;
    size_t n = g ? wm_agg_nsites(g) : 0;
    for (size_t i = 0; i < n; i++) {
        wm_site s;
        if (wm_agg_site(g, i, &s) && s.site == id) {
            *label = s.label;
            *file = s.file;
            *line = s.line;
            return;
        }
    }
}

static int metric_is_count(size_t i)
{
    const char *n = wm_cache_metric_name(i);
    size_t l = strlen(n);
    return l > 4 && strcmp(n + l - 4, ".sum") == 0 &&
           strcmp(n, "gpu__time_duration.sum") != 0;
}

static const char *order_name(wm_cache_order o)
{
    return o == WM_CACHE_ORDER_BARRIER ? "barrier" : "insn";
}

void wmi_cache_emit(wmi_out *o, const wm_cache *c, const wm_agg *g)
{
    const wm_cache_config *k = wm_cache_config_of(c);
    wm_cache_time t;
    wm_cache_predict(c, &t);
    wmi_out_obj(o, "hierarchy");
    wmi_out_str(o, "gpu", k->gpu->name);
    wmi_out_uint(o, "sms", k->nsms);
    wmi_out_uint(o, "ctas_per_sm", k->ctas_per_sm);
    wmi_out_uint(o, "l1_bytes", k->l1_bytes);
    wmi_out_uint(o, "l1_ways", k->l1_ways);
    wmi_out_uint(o, "smem_carveout", k->smem_carveout);
    wmi_out_uint(o, "l2_bytes", k->l2_bytes);
    wmi_out_uint(o, "l2_ways", k->l2_ways);
    wmi_out_str(o, "order", order_name(k->order));
    wmi_out_obj(o, "totals");
    for (size_t i = 0; i < wm_cache_metric_count(); i++) {
        double v = wm_cache_metric_value(c, i);
        wmi_doc_csv_row(o, "hierarchy", NULL, wm_cache_metric_name(i),
                        wm_cache_metric_unit(i), v);
        wmi_out_obj(o, wm_cache_metric_name(i));
        wmi_out_num(o, "value", v);
        wmi_out_str(o, "unit", wm_cache_metric_unit(i));
        wmi_out_end(o);
    }
    wmi_out_end(o);
    char why[512];
    wm_cache_reason(c, why, sizeof why);
    wmi_out_obj(o, "time");
    wmi_out_num(o, "dram_s", t.dram_s);
    wmi_out_num(o, "l2_s", t.l2_s);
    wmi_out_num(o, "l1_s", t.l1_s);
    wmi_out_num(o, "lat_s", t.lat_s);
    wmi_out_num(o, "time_s", t.time_s);
    wmi_out_str(o, "bound", t.bound);
    wmi_out_str(o, "reason", why);
    wmi_out_num(o, "whatif_s", t.whatif_s);
    wmi_out_num(o, "inflight_sm_bytes", t.inflight_sm);
    wmi_out_num(o, "inflight_need_bytes", t.inflight_need);
    wmi_out_num(o, "inflight_asked_bytes", t.inflight_ask);
    wmi_out_obj(o, "miss_slots");
    wmi_out_uint(o, "sectors", k->gpu->mshr_sectors);
    wmi_out_num(o, "bytes", t.inflight_cap);
    wmi_out_str(o, "source",
                k->gpu->mshr_source ? k->gpu->mshr_source : "none");
    wmi_out_end(o);
    wmi_out_arr(o, "terms_missing");
    if (k->gpu->l2_bw <= 0)
        wmi_out_str(o, NULL, "L2 bandwidth");
    if (k->gpu->lat_dram <= 0)
        wmi_out_str(o, NULL, "latency");
    if (!wmi_cache_has_tlb(k->gpu))
        wmi_out_str(o, NULL, "TLB miss latency");
    wmi_out_end(o);
    wmi_out_uint(o, "tlb_groups", wmi_cache_tlb_groups(c));
    wmi_out_obj(o, "tlb");
    wmi_out_uint(o, "l1_entries", k->gpu->tlb1_entries);
    wmi_out_uint(o, "l1_entry_bytes", k->gpu->tlb1_page);
    wmi_out_uint(o, "l2_entries", k->gpu->tlb2_entries);
    wmi_out_uint(o, "l2_entry_bytes", k->gpu->tlb2_page);
    wmi_out_num(o, "l1_miss_cycles", k->gpu->lat_tlb1);
    wmi_out_num(o, "l2_miss_cycles", k->gpu->lat_tlb2);
    wmi_out_str(o, "source", k->gpu->tlb_source ? k->gpu->tlb_source : "none");
    wmi_out_end(o);
    wmi_out_arr(o, "intervals");
    for (size_t i = 0; i < wm_cache_nintervals(c); i++) {
        double il, ip;
        wm_cache_interval(c, i, &il, &ip);
        wmi_out_obj(o, NULL);
        wmi_out_uint(o, "interval", i);
        wmi_out_num(o, "lat_s", il);
        wmi_out_num(o, "l1_s", ip);
        wmi_out_str(o, "bound", il >= ip ? "latency" : "L1");
        wmi_out_end(o);
    }
    wmi_out_end(o);
    wmi_out_end(o);
    wmi_out_arr(o, "sites");
    for (size_t i = 0; i < wm_cache_nsites(c); i++) {
        uint32_t id;
        wm_cache_stats s;
        const char *label, *file;
        uint32_t line;
        wm_cache_site(c, i, &id, &s);
        site_label(g, id, &label, &file, &line);
        wmi_out_obj(o, NULL);
        wmi_out_uint(o, "site", id);
        wmi_out_str(o, "file", file);
        wmi_out_uint(o, "line", line);
        wmi_out_str(o, "label", label);
        wmi_out_uint(o, "l1_ld_sectors", s.l1_ld_sectors);
        wmi_out_uint(o, "l1_ld_miss_sectors", s.l1_ld_sectors - s.l1_ld_hits);
        wmi_out_uint(o, "l2_rd_sectors", s.l2_rd_sectors);
        wmi_out_uint(o, "l2_rd_miss_sectors", s.l2_rd_sectors - s.l2_rd_hits);
        wmi_out_uint(o, "l2_wr_sectors", s.l2_wr_sectors);
        wmi_out_uint(o, "dram_rd_bytes",
                     (uint64_t)s.dram_rd_sectors * k->sector_bytes);
        wmi_out_end(o);
    }
    wmi_out_end(o);
    wmi_out_end(o);
}

/* The TLB line: geometry, misses, miss cycles and their source. */
static void report_tlb(FILE *f, const wm_cache *c)
{
    const wm_gpu *g = wm_cache_config_of(c)->gpu;
    if (!g->tlb1_entries || !g->tlb2_entries)
        return;
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    fprintf(f,
            "  TLB: L1 %u x %llu KiB per SM, L2 %u x %llu KiB (reach %llu "
            "MiB / %llu MiB); misses L1 %llu, L2 %llu; miss cycles %.0f / "
            "%.0f (%s)\n",
            g->tlb1_entries, (unsigned long long)(g->tlb1_page >> 10),
            g->tlb2_entries, (unsigned long long)(g->tlb2_page >> 10),
            (unsigned long long)(g->tlb1_entries * g->tlb1_page >> 20),
            (unsigned long long)(g->tlb2_entries * g->tlb2_page >> 20),
            (unsigned long long)t.tlb1_misses,
            (unsigned long long)t.tlb2_misses, g->lat_tlb1, g->lat_tlb2,
            g->tlb_source ? g->tlb_source : "none");
}

/* The miss-slot line: the slots, their source, what the loads ask. */
static void report_slots(FILE *f, const wm_cache *c, const wm_cache_time *t)
{
    const wm_gpu *g = wm_cache_config_of(c)->gpu;
    if (!g->mshr_sectors)
        return;
    char ask[32], cap[32];
    fmt_bytes(ask, sizeof ask, t->inflight_ask);
    fmt_bytes(cap, sizeof cap, t->inflight_cap);
    fprintf(f,
            "  miss slots: %u sectors (%s) per SM (%s); the loads ask for %s "
            "of L1 misses in flight per SM",
            g->mshr_sectors, cap, g->mshr_source ? g->mshr_source : "none",
            ask);
    if (slots_full(t))
        fprintf(f, ": latency x %.2f\n", t->inflight_ask / t->inflight_cap);
    else
        fprintf(f, ", within them\n");
}

static void report_text(FILE *f, const wm_cache *c, const wm_agg *g)
{
    const wm_cache_config *k = wm_cache_config_of(c);
    wm_cache_time t;
    wm_cache_predict(c, &t);
    fprintf(f,
            "\nmemory hierarchy (%s model: %u SMs x %u CTAs, L1 %llu KiB/SM "
            "(shared carve-out %llu KiB), L2 %llu MiB, warps interleaved per "
            "%s)\n",
            k->gpu->name, k->nsms, k->ctas_per_sm,
            (unsigned long long)(k->l1_bytes / 1024),
            (unsigned long long)(k->smem_carveout / 1024),
            (unsigned long long)(k->l2_bytes >> 20),
            k->order == WM_CACHE_ORDER_BARRIER ? "barrier interval"
                                               : "instruction");
    for (size_t i = 0; i < wm_cache_metric_count(); i++) {
        double v = wm_cache_metric_value(c, i);
        if (metric_is_count(i))
            fprintf(f, "  %-60s %15.0f\n", wm_cache_metric_name(i), v);
        else
            fprintf(f, "  %-60s %15.2f\n", wm_cache_metric_name(i), v);
    }
    const wm_gpu *gp = k->gpu;
    fprintf(f,
            "  predicted memory time %.3f us, %s-bound (latency %.3f + L1 "
            "%.3f + max(DRAM %.3f, L2 %.3f) us)\n",
            t.time_s * 1e6, t.bound, t.lat_s * 1e6, t.l1_s * 1e6,
            t.dram_s * 1e6, t.l2_s * 1e6);
    char why[512];
    fprintf(f, "  %s\n", wm_cache_reason(c, why, sizeof why));
    size_t niv = wm_cache_nintervals(c);
    for (size_t i = 0; i < niv && i < 8; i++) {
        double il, ip;
        wm_cache_interval(c, i, &il, &ip);
        fprintf(f, "  barrier interval %zu: latency %.3f us, L1/shared %.3f "
                   "us (%s)\n",
                i, il * 1e6, ip * 1e6, il >= ip ? "latency" : "L1");
    }
    if (niv > 8)
        fprintf(f, "  (%zu more barrier intervals)\n", niv - 8);
    fprintf(f, "  latencies %.0f / %.0f / %.0f cycles (L1 / L2 / DRAM: %s)\n",
            k->gpu->lat_l1, k->gpu->lat_l2, k->gpu->lat_dram,
            k->gpu->lat_source ? k->gpu->lat_source : "none");
    report_slots(f, c, &t);
    fprintf(f,
            "  effective bandwidth %.1f GB/s (requested bytes / time); DRAM "
            "at %.1f GB/s of peak %.0f GB/s\n",
            t.eff_bw / 1e9, t.dram_bw / 1e9, gp->dram_peak / 1e9);
    report_tlb(f, c);
    int tlb = wmi_cache_has_tlb(gp);
    fprintf(f, "  terms: latency, L1/shared pipe, DRAM%s%s%s%s\n",
            gp->l2_bw > 0 ? ", L2" : "", tlb ? ", TLB" : "",
            gp->l2_bw > 0 ? ""
                          : " (no L2 bandwidth figure for this GPU: the L2 "
                            "term is left out)",
            tlb ? ""
                : " (no TLB miss latency for this GPU: the TLB term is left "
                  "out, its misses are counted)");
    size_t n = wm_cache_nsites(c);
    if (!n)
        return;
    /* Per source line (file:line from the aggregator's labels) the sum of
     * its instructions, then each instruction under it. */
    typedef struct row {
        uint32_t id;
        const char *label, *file;
        uint32_t line;
        wm_cache_stats s;
        int done;
    } row;
    row *r = calloc(n, sizeof *r);
    if (!r)
        return;
    for (size_t i = 0; i < n; i++) {
        wm_cache_site(c, i, &r[i].id, &r[i].s);
        site_label(g, r[i].id, &r[i].label, &r[i].file, &r[i].line);
    }
    fprintf(f, "  %-40s %12s %12s %12s %12s\n", "misses by source line",
            "L1 ld sect", "L1 miss", "L2 miss", "DRAM rd B");
    for (size_t i = 0; i < n; i++) {
        if (r[i].done)
            continue;
        wm_cache_stats sum;
        memset(&sum, 0, sizeof sum);
        for (size_t q = i; q < n; q++)
            if (!r[q].done && r[q].line == r[i].line &&
                strcmp(r[q].file, r[i].file) == 0 && (*r[i].file || q == i)) {
                r[q].done = 2; /* in this group */
                sum.l1_ld_sectors += r[q].s.l1_ld_sectors;
                sum.l1_ld_hits += r[q].s.l1_ld_hits;
                sum.l2_rd_sectors += r[q].s.l2_rd_sectors;
                sum.l2_rd_hits += r[q].s.l2_rd_hits;
                sum.dram_rd_sectors += r[q].s.dram_rd_sectors;
            }
        char where[64];
        if (*r[i].file)
            snprintf(where, sizeof where, "%s:%u", r[i].file, r[i].line);
        else
            snprintf(where, sizeof where, "site %u", r[i].id);
        fprintf(f, "  %-40.40s %12llu %12llu %12llu %12llu\n", where,
                (unsigned long long)sum.l1_ld_sectors,
                (unsigned long long)(sum.l1_ld_sectors - sum.l1_ld_hits),
                (unsigned long long)(sum.l2_rd_sectors - sum.l2_rd_hits),
                (unsigned long long)sum.dram_rd_sectors * k->sector_bytes);
        for (size_t q = i; q < n; q++) {
            if (r[q].done != 2)
                continue;
            r[q].done = 1;
            const wm_cache_stats *s = &r[q].s;
            fprintf(f, "    %-38s %12llu %12llu %12llu %12llu  %s\n", "",
                    (unsigned long long)s->l1_ld_sectors,
                    (unsigned long long)(s->l1_ld_sectors - s->l1_ld_hits),
                    (unsigned long long)(s->l2_rd_sectors - s->l2_rd_hits),
                    (unsigned long long)s->dram_rd_sectors * k->sector_bytes,
                    r[q].label);
        }
    }
    free(r);
}

void wm_cache_report(FILE *f, const wm_cache *c, const wm_agg *g,
                     wm_format fmt)
{
    if (!f || !c)
        return;
    wmi_out o;
    switch (fmt) {
    case WM_FMT_JSON:
    case WM_FMT_CSV:
        /* the section alone: a JSON object {"hierarchy": ...}, or the
           hierarchy rows of the long CSV table */
        wmi_out_init(&o, f, fmt == WM_FMT_CSV);
        wmi_out_obj(&o, NULL);
        wmi_cache_emit(&o, c, g);
        wmi_out_end(&o);
        if (fmt == WM_FMT_JSON)
            fputc('\n', f);
        wmi_out_finish(&o);
        break;
    case WM_FMT_NCU_CSV:
    case WM_FMT_NCU_RAW: break; /* part of the launch's ncu rows */
    case WM_FMT_TEXT: report_text(f, c, g); break;
    }
}
