/*
 * report.c -- warpmem-lab's writers: a text table, JSON and CSV, for the
 * prediction list (--list, no GPU needed) and for measured runs.
 *
 * Units: GB/s = 10^9 bytes per second, bytes = read + written per launch
 * (CUDA C++ Best Practices Guide 8.2.2); times are per launch.  "model"
 * shows per request the model's count over its ideal: sectors for global
 * (g.ld, g.st), wavefronts for shared (s.ld, s.st).
 */
#include "lab.h"

#include <string.h>

static const char *status_name(lab_status s)
{
    switch (s) {
    case LAB_ST_NOT_RUN: return "not-run";
    case LAB_ST_OK: return "ok";
    case LAB_ST_CHECKED: return "checked";
    case LAB_ST_FAILED: return "CHECK-FAILED";
    case LAB_ST_ERROR: return "ERROR";
    }
    return "?";
}

/* A timed row whose clocks differ from the first warm-up's. */
static int row_clock_moved(const lab_env *e, const lab_meas *m)
{
    return m->status == LAB_ST_OK &&
           (lab_clock_moved(e->sm_mhz[1], m->sm_mhz) ||
            lab_clock_moved(e->mem_mhz[1], m->mem_mhz));
}

static double per(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

/* "g.ld 16/4 g.st 16/4" for the categories the row's warps touched. */
static void model_text(char *buf, size_t n, const lab_pred *p)
{
    size_t used = 0;
    buf[0] = '\0';
    if (!p->has) {
        snprintf(buf, n, "-");
        return;
    }
#define PART(name, req, got, ideal)                                          \
    if ((req) && used < n)                                                   \
        used += (size_t)snprintf(buf + used, n - used, "%s%s %.4g/%.4g",     \
                                 used ? " " : "", name, per(got, req),       \
                                 per(ideal, req));
    PART("g.ld", p->g_ld_req, p->g_ld_sectors, p->g_ld_ideal)
    PART("g.st", p->g_st_req, p->g_st_sectors, p->g_st_ideal)
    PART("s.ld", p->s_ld_req, p->s_ld_wavefronts, p->s_ld_ideal)
    PART("s.st", p->s_st_req, p->s_st_wavefronts, p->s_st_ideal)
#undef PART
}

/* The prediction as printed: "eff 0.250" or "4.00x". */
static void pred_text(char *buf, size_t n, const lab_table *t, size_t i)
{
    const lab_row *r = &t->rows[i];
    if (!r->pred.has)
        snprintf(buf, n, "-");
    else if (r->type == LAB_ROW_SMEM)
        snprintf(buf, n, "%.2fx", lab_row_predicted_rel(t, i));
    else
        snprintf(buf, n, "eff %.3f", lab_row_predicted_rel(t, i));
}

static const char *kernel_name(const lab_row *r)
{
    const char *s = lab_kind_symbol(r->kind);
    if (*s)
        return s;
    return r->kind == LAB_K_SGEAM ? "cublasSgeam" : "cudaMemcpyAsync";
}

/* The hierarchy column: "2222 GB/s L2-bound, L2 hit 86%" or "-". */
static void hier_text(char *buf, size_t n, const lab_hier *h)
{
    if (!h->has)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.0f GB/s %s-bound, L1 %.0f%% L2 %.0f%%", h->gbs,
                 h->bound, 100 * h->l1_hit, 100 * h->l2_hit);
}

static int any_hier(const lab_table *t)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].hier.has)
            return 1;
    return 0;
}

static void write_list_text(FILE *f, const lab_table *t)
{
    char model[96], pred[32], hier[96];
    int with_hier = any_hier(t);
    fprintf(f, "warpmem-lab experiments and the model's predictions "
               "(profile %s)\n",
            wm_arch_default()->name);
    fprintf(f, "model: per request, count/ideal (g = global sectors, "
               "s = shared wavefronts)\n");
    fprintf(f, "predicted: sector efficiency vs the baseline row, or shared "
               "time vs the conflict-free probe\n\n");
    if (with_hier)
        fprintf(f, "hierarchy: the whole grid (8192 x 8192; E2/E3: "
                   "256 MiB) through the L1/L2/DRAM\nmodel of %s "
                   "(docs/hierarchy.md): effective bandwidth, what bounds it, "
                   "sector hit rates\n\n",
                   wm_gpu_for_arch(wm_arch_default())->name);
    if (with_hier)
        fprintf(f, "%-16s %-24s %-40s %-10s %s\n", "row", "kernel", "model",
                "predicted", "hierarchy");
    else
        fprintf(f, "%-16s %-24s %-40s %s\n", "row", "kernel", "model",
                "predicted");
    for (size_t i = 0; i < t->nrows; i++) {
        const lab_row *r = &t->rows[i];
        model_text(model, sizeof model, &r->pred);
        pred_text(pred, sizeof pred, t, i);
        hier_text(hier, sizeof hier, &r->hier);
        if (with_hier)
            fprintf(f, "%-16s %-24s %-40s %-10s %s\n", r->id, kernel_name(r),
                    model, pred, hier);
        else
            fprintf(f, "%-16s %-24s %-40s %s\n", r->id, kernel_name(r),
                    model, pred);
    }
}

static void write_env_text(FILE *f, const lab_env *e)
{
    fprintf(f, "warpmem-lab on %s (sm_%d%d, %d SMs, L2 %.1f MB, %.1f GB), "
               "driver %d.%d, runtime %d.%d, %s\n",
            e->device, e->cc_major, e->cc_minor, e->sms,
            (double)e->l2_bytes / 1e6, (double)e->mem_bytes / 1e9,
            e->driver / 1000, e->driver % 1000 / 10, e->runtime / 1000,
            e->runtime % 1000 / 10, e->date);
    fprintf(f, "sweep buffers %lld B each; E1 %d x %d fp32; E5 %d x %d fp32; "
               "%s\n",
            e->buf_bytes, e->lesson_n, e->lesson_n, e->matrix_n, e->matrix_n,
            e->once ? "checked only, not timed (--once)"
                    : "GB/s = (read + written) / median time");
    if (!e->once)
        fprintf(f, "median of %u samples [min .. max] after a %.0f ms "
                   "warm-up per row; C_ref = %.1f GB/s (best E0 row)\n",
                e->repeat, LAB_WARMUP_MS, e->c_ref_gbs);
    if (e->commit[0])
        fprintf(f, "commit %s\n", e->commit);
    if (!e->cublas)
        fprintf(f, "built without cuBLAS: E5.sgeam cannot run\n");
}

/* The clock line under the header; t NULL for --once (nothing timed). */
static void write_clocks_text(FILE *f, const lab_table *t, const lab_env *e)
{
    if (!e->have_clocks) {
        fprintf(f, "clocks: unknown (NVML not available)\n\n");
        return;
    }
    fprintf(f, "clocks (MHz, NVML): SM %u at open, %u after the first "
               "warm-up, %u at the end; memory %u, %u, %u",
            e->sm_mhz[0], e->sm_mhz[1], e->sm_mhz[2], e->mem_mhz[0],
            e->mem_mhz[1], e->mem_mhz[2]);
    if (t && lab_env_clocks_moved(t, e))
        fprintf(f, "\nCLOCKS MOVED by more than %.0f %% during the run: rows "
                   "marked [clk] ran at other clocks than the first row\n\n",
                LAB_CLOCK_TOL_PCT);
    else
        fprintf(f, " (%s)\n\n", t ? "steady" : "nothing timed");
}

static void write_run_text(FILE *f, const lab_table *t, const lab_env *e)
{
    char model[96], pred[32], meas[64], rel[16], cref[16], ratio[16];
    write_env_text(f, e);
    write_clocks_text(f, e->once ? NULL : t, e);
    fprintf(f, "%-16s %-28s %-30s %7s %8s %-10s %8s  %s\n", "row", "what",
            "measured", "xC_ref", "vs base", "predicted", "meas/pred",
            "status");
    for (size_t i = 0; i < t->nrows; i++) {
        const lab_row *r = &t->rows[i];
        const lab_meas *m = &r->meas;
        double mr = lab_row_measured_rel(t, e, i);
        double pr = lab_row_predicted_rel(t, i);
        double xc = lab_row_x_cref(t, e, i);
        if (!r->selected)
            continue;
        model_text(model, sizeof model, &r->pred);
        pred_text(pred, sizeof pred, t, i);
        if (m->status != LAB_ST_OK)
            snprintf(meas, sizeof meas, "-");
        else if (r->type == LAB_ROW_SMEM)
            snprintf(meas, sizeof meas, "%.4g ms [%.4g .. %.4g]", m->ms_med,
                     m->ms_min, m->ms_max);
        else
            snprintf(meas, sizeof meas, "%.1f GB/s [%.1f .. %.1f]",
                     m->gbs_med, m->gbs_min, m->gbs_max);
        snprintf(cref, sizeof cref, xc > 0 ? "%.3f" : "-", xc);
        if (r->type == LAB_ROW_SMEM)
            snprintf(rel, sizeof rel, mr > 0 ? "%.2fx" : "-", mr);
        else
            snprintf(rel, sizeof rel, mr > 0 ? "%.3f" : "-", mr);
        snprintf(ratio, sizeof ratio, mr > 0 && pr > 0 ? "%.3f" : "-",
                 pr > 0 ? mr / pr : 0.0);
        fprintf(f, "%-16s %-28.28s %-30s %7s %8s %-10s %8s  %s%s%s%s\n",
                r->id, r->title, meas, cref, rel, pred, ratio,
                status_name(m->status),
                row_clock_moved(e, m)
                    ? " [clk]"
                    : "",
                m->note[0] ? ": " : "", m->note);
    }
    fprintf(f, "\nvs base: bandwidth over the baseline row's (C_ref when "
               "none), or time over the conflict-free probe.\n"
               "predicted: the model's sector efficiency (or n-way) over the "
               "baseline's; meas/pred > 1 means\n"
               "over-fetched sectors were reused through L1/L2.\n");
}

/* ---- JSON (through the library's document writer, wm_writer) ------------ */

/* A count category of the model: requests, count (sectors or wavefronts)
 * and the ideal. */
static void json_cat(wm_writer *o, const char *name, const char *what,
                     uint64_t req, uint64_t got, uint64_t ideal)
{
    wm_writer_obj(o, name);
    wm_writer_uint(o, "requests", req);
    wm_writer_uint(o, what, got);
    wm_writer_uint(o, "ideal", ideal);
    wm_writer_end(o);
}

static void json_model(wm_writer *o, const lab_pred *p)
{
    if (!p->has) {
        wm_writer_null(o, "model");
        return;
    }
    wm_writer_obj(o, "model");
    json_cat(o, "global_ld", "sectors", p->g_ld_req, p->g_ld_sectors,
             p->g_ld_ideal);
    json_cat(o, "global_st", "sectors", p->g_st_req, p->g_st_sectors,
             p->g_st_ideal);
    json_cat(o, "shared_ld", "wavefronts", p->s_ld_req, p->s_ld_wavefronts,
             p->s_ld_ideal);
    json_cat(o, "shared_st", "wavefronts", p->s_st_req, p->s_st_wavefronts,
             p->s_st_ideal);
    wm_writer_num(o, "efficiency", p->efficiency);
    wm_writer_uint(o, "nway", p->s_nway);
    wm_writer_num(o, "probe_wavefronts_per_request", p->nway_pred);
    wm_writer_end(o);
}

static void json_hier(wm_writer *o, const lab_hier *h)
{
    wm_writer_obj(o, "hierarchy");
    wm_writer_str(o, "gpu", h->gpu);
    wm_writer_uint(o, "n", h->n);
    wm_writer_uint(o, "bytes", h->bytes);
    wm_writer_num(o, "l1_hit", h->l1_hit);
    wm_writer_num(o, "l2_hit", h->l2_hit);
    wm_writer_uint(o, "dram_bytes", h->dram_bytes);
    wm_writer_num(o, "time_us", h->time_us);
    wm_writer_num(o, "gbs", h->gbs);
    wm_writer_str(o, "bound", h->bound);
    wm_writer_end(o);
}

/* {"median", "min", "max"} under key. */
static void json_spread(wm_writer *o, const char *key, double med, double min,
                        double max)
{
    wm_writer_obj(o, key);
    wm_writer_num(o, "median", med);
    wm_writer_num(o, "min", min);
    wm_writer_num(o, "max", max);
    wm_writer_end(o);
}

static void json_measured(wm_writer *o, const lab_table *t, const lab_env *e,
                          size_t i)
{
    const lab_meas *m = &t->rows[i].meas;
    double mr = lab_row_measured_rel(t, e, i);
    double pr = lab_row_predicted_rel(t, i);
    wm_writer_obj(o, "measured");
    wm_writer_str(o, "status", status_name(m->status));
    wm_writer_str(o, "note", m->note);
    wm_writer_num(o, "bytes", m->bytes);
    wm_writer_uint(o, "samples", m->samples);
    wm_writer_uint(o, "launches_per_sample", m->launches);
    wm_writer_uint(o, "kernel_launches", m->kernel_launches);
    wm_writer_num(o, "warmup_ms", m->warmup_ms);
    wm_writer_obj(o, "clocks_mhz");
    wm_writer_uint(o, "sm", m->sm_mhz);
    wm_writer_uint(o, "mem", m->mem_mhz);
    wm_writer_end(o);
    wm_writer_bool(o, "clocks_moved", row_clock_moved(e, m));
    json_spread(o, "ms", m->ms_med, m->ms_min, m->ms_max);
    json_spread(o, "gbs", m->gbs_med, m->gbs_min, m->gbs_max);
    wm_writer_num(o, "x_cref", lab_row_x_cref(t, e, i));
    wm_writer_num(o, "measured_rel", mr);
    wm_writer_num(o, "measured_over_predicted",
                mr > 0 && pr > 0 ? mr / pr : 0.0);
    wm_writer_obj(o, "launch");
    wm_writer_uints(o, "grid", m->grid, 3);
    wm_writer_uints(o, "block", m->block, 3);
    wm_writer_str(o, "args", m->args);
    wm_writer_end(o);
    wm_writer_end(o);
}

static void json_row(wm_writer *o, const lab_table *t, const lab_env *e,
                     size_t i, int list)
{
    const lab_row *r = &t->rows[i];
    wm_writer_obj(o, NULL);
    wm_writer_str(o, "id", r->id);
    wm_writer_str(o, "experiment", r->experiment);
    wm_writer_str(o, "title", r->title);
    wm_writer_str(o, "type", r->type == LAB_ROW_SMEM ? "smem" : "bandwidth");
    wm_writer_str(o, "kernel", kernel_name(r));
    wm_writer_str(o, "ptx", *lab_kind_ptx(r->kind) ? lab_kind_ptx(r->kind)
                                                  : NULL);
    if (r->baseline >= 0)
        wm_writer_str(o, "baseline", t->rows[r->baseline].id);
    else
        wm_writer_str(o, "baseline", r->type == LAB_ROW_BW ? "C_ref" : NULL);
    wm_writer_obj(o, "params");
    wm_writer_uint(o, "width", r->p.width);
    wm_writer_uint(o, "stride", r->p.stride);
    wm_writer_uint(o, "offset", r->p.offset);
    wm_writer_int(o, "a", r->p.a);
    wm_writer_int(o, "b", r->p.b);
    wm_writer_int(o, "c", r->p.c);
    wm_writer_end(o);
    json_model(o, &r->pred);
    if (r->pred.has)
        wm_writer_num(o, "predicted_rel", lab_row_predicted_rel(t, i));
    else
        wm_writer_null(o, "predicted_rel");
    if (r->hier.has)
        json_hier(o, &r->hier);
    if (!list)
        json_measured(o, t, e, i);
    wm_writer_end(o);
}

static void json_env(wm_writer *o, const lab_table *t, const lab_env *e)
{
    static const char *const at[3] = {"open", "first warm-up", "end"};
    char cc[24];
    snprintf(cc, sizeof cc, "%d.%d", e->cc_major, e->cc_minor);
    wm_writer_obj(o, "env");
    wm_writer_str(o, "device", e->device);
    wm_writer_str(o, "cc", cc);
    wm_writer_int(o, "sms", e->sms);
    wm_writer_int(o, "l2_bytes", e->l2_bytes);
    wm_writer_int(o, "mem_bytes", e->mem_bytes);
    wm_writer_int(o, "driver", e->driver);
    wm_writer_int(o, "runtime", e->runtime);
    wm_writer_str(o, "date", e->date);
    wm_writer_int(o, "buf_bytes", e->buf_bytes);
    wm_writer_int(o, "lesson_n", e->lesson_n);
    wm_writer_int(o, "matrix_n", e->matrix_n);
    wm_writer_uint(o, "repeat", e->repeat);
    wm_writer_bool(o, "once", e->once);
    wm_writer_num(o, "c_ref_gbs", e->c_ref_gbs);
    wm_writer_num(o, "warmup_ms", LAB_WARMUP_MS);
    wm_writer_bool(o, "cublas", e->cublas);
    wm_writer_str(o, "commit", e->commit[0] ? e->commit : NULL);
    wm_writer_obj(o, "clocks_mhz");
    wm_writer_bool(o, "known", e->have_clocks);
    wm_writer_uints(o, "sm", e->sm_mhz, 3);
    wm_writer_uints(o, "mem", e->mem_mhz, 3);
    wm_writer_arr(o, "at");
    for (size_t k = 0; k < 3; k++)
        wm_writer_str(o, NULL, at[k]);
    wm_writer_end(o);
    wm_writer_bool(o, "moved", !e->once && lab_env_clocks_moved(t, e));
    wm_writer_end(o);
    wm_writer_str(o, "units",
                "GB/s = 1e9 B/s, bytes = read + written, median of samples");
    wm_writer_end(o);
}

/* The document: the common head (docs/output.md; no one kernel: null),
 * then the lab's own members. */
static void write_json(wm_writer *o, const lab_table *t, const lab_env *e,
                       int list)
{
    wm_writer_doc_begin(o, "lab", wm_arch_default()->name, NULL);
    wm_writer_str(o, "tool", "warpmem-lab");
    wm_writer_str(o, "version", WM_VERSION);
    wm_writer_str(o, "profile", wm_arch_default()->name);
    if (list)
        wm_writer_bool(o, "list", 1);
    else
        json_env(o, t, e);
    wm_writer_arr(o, "rows");
    for (size_t i = 0; i < t->nrows; i++)
        if (list || t->rows[i].selected)
            json_row(o, t, e, i, list);
    wm_writer_end(o);
    wm_writer_doc_end(o);
}

/* ---- CSV ----------------------------------------------------------------- */

/* One row a table row: its prediction per request, measured columns unless
 * list. */
static void csv_row(wm_writer *o, const lab_table *t, const lab_env *e,
                    size_t i, int list)
{
    const lab_row *r = &t->rows[i];
    const lab_pred *p = &r->pred;
    wm_writer_row(o, NULL);
    wm_writer_str(o, "id", r->id);
    wm_writer_str(o, "experiment", r->experiment);
    wm_writer_str(o, "kernel", kernel_name(r));
    wm_writer_str(o, "type", r->type == LAB_ROW_SMEM ? "smem" : "bandwidth");
    wm_writer_num(o, "g_ld_sectors_per_req", per(p->g_ld_sectors, p->g_ld_req));
    wm_writer_num(o, "g_st_sectors_per_req", per(p->g_st_sectors, p->g_st_req));
    wm_writer_num(o, "s_ld_wavefronts_per_req",
                per(p->s_ld_wavefronts, p->s_ld_req));
    wm_writer_num(o, "s_st_wavefronts_per_req",
                per(p->s_st_wavefronts, p->s_st_req));
    wm_writer_num(o, "efficiency", p->has ? p->efficiency : 0.0);
    wm_writer_num(o, "predicted_rel", lab_row_predicted_rel(t, i));
    if (!list) {
        const lab_meas *m = &r->meas;
        double mr = lab_row_measured_rel(t, e, i);
        double pr = lab_row_predicted_rel(t, i);
        wm_writer_str(o, "status", status_name(m->status));
        wm_writer_num(o, "bytes", m->bytes);
        wm_writer_num(o, "ms_med", m->ms_med);
        wm_writer_num(o, "ms_min", m->ms_min);
        wm_writer_num(o, "ms_max", m->ms_max);
        wm_writer_num(o, "gbs_med", m->gbs_med);
        wm_writer_num(o, "gbs_min", m->gbs_min);
        wm_writer_num(o, "gbs_max", m->gbs_max);
        wm_writer_num(o, "x_cref", lab_row_x_cref(t, e, i));
        wm_writer_num(o, "measured_rel", mr);
        wm_writer_num(o, "measured_over_predicted",
                    mr > 0 && pr > 0 ? mr / pr : 0.0);
    }
    wm_writer_row_end(o);
}

static void write_csv(wm_writer *o, const lab_table *t, const lab_env *e,
                      int list)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (list || t->rows[i].selected)
            csv_row(o, t, e, i, list);
}

/* Contract in lab.h. */
wm_status lab_write(FILE *f, const lab_table *t, const lab_env *e,
                    wm_format fmt, int list)
{
    if (fmt == WM_FMT_TEXT) {
        if (list)
            write_list_text(f, t);
        else
            write_run_text(f, t, e);
        return ferror(f) ? WM_ERR_IO : WM_OK;
    }
    /* json, else csv (the lab has no ncu form: its own table) */
    wm_writer *o = wm_writer_new(f, fmt == WM_FMT_JSON ? WM_FMT_JSON
                                                        : WM_FMT_CSV);
    if (!o)
        return WM_ERR_NOMEM;
    if (fmt == WM_FMT_JSON)
        write_json(o, t, e, list);
    else
        write_csv(o, t, e, list);
    return wm_writer_free(o);
}
