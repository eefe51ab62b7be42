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

/* ---- JSON ---------------------------------------------------------------- */

static void json_num(FILE *f, double v)
{
    if (v != v || v > 1e300 || v < -1e300)
        fprintf(f, "null");
    else
        fprintf(f, "%.6g", v);
}

static void json_cat(FILE *f, const char *name, const char *what,
                     uint64_t req, uint64_t got, uint64_t ideal)
{
    fprintf(f, "\"%s\": {\"requests\": %llu, \"%s\": %llu, \"ideal\": %llu}",
            name, (unsigned long long)req, what, (unsigned long long)got,
            (unsigned long long)ideal);
}

static void json_row(FILE *f, const lab_table *t, const lab_env *e, size_t i,
                     int list)
{
    const lab_row *r = &t->rows[i];
    const lab_pred *p = &r->pred;
    const lab_meas *m = &r->meas;
    fprintf(f, "    {\"id\": ");
    wm_json_string(f, r->id);
    fprintf(f, ", \"experiment\": ");
    wm_json_string(f, r->experiment);
    fprintf(f, ", \"title\": ");
    wm_json_string(f, r->title);
    fprintf(f, ", \"type\": \"%s\", \"kernel\": ",
            r->type == LAB_ROW_SMEM ? "smem" : "bandwidth");
    wm_json_string(f, kernel_name(r));
    fprintf(f, ", \"ptx\": ");
    if (*lab_kind_ptx(r->kind))
        wm_json_string(f, lab_kind_ptx(r->kind));
    else
        fprintf(f, "null");
    fprintf(f, ", \"baseline\": ");
    if (r->baseline >= 0)
        wm_json_string(f, t->rows[r->baseline].id);
    else
        fprintf(f, r->type == LAB_ROW_BW ? "\"C_ref\"" : "null");
    fprintf(f, ",\n     \"params\": {\"width\": %u, \"stride\": %u, "
               "\"offset\": %u, \"a\": %d, \"b\": %d, \"c\": %d},\n",
            r->p.width, r->p.stride, r->p.offset, r->p.a, r->p.b, r->p.c);
    fprintf(f, "     \"model\": ");
    if (!p->has) {
        fprintf(f, "null");
    } else {
        fprintf(f, "{");
        json_cat(f, "global_ld", "sectors", p->g_ld_req, p->g_ld_sectors,
                 p->g_ld_ideal);
        fprintf(f, ", ");
        json_cat(f, "global_st", "sectors", p->g_st_req, p->g_st_sectors,
                 p->g_st_ideal);
        fprintf(f, ",\n               ");
        json_cat(f, "shared_ld", "wavefronts", p->s_ld_req,
                 p->s_ld_wavefronts, p->s_ld_ideal);
        fprintf(f, ", ");
        json_cat(f, "shared_st", "wavefronts", p->s_st_req,
                 p->s_st_wavefronts, p->s_st_ideal);
        fprintf(f, ",\n               \"efficiency\": ");
        json_num(f, p->efficiency);
        fprintf(f, ", \"nway\": %u, \"probe_wavefronts_per_request\": ",
                p->s_nway);
        json_num(f, p->nway_pred);
        fprintf(f, "}");
    }
    fprintf(f, ",\n     \"predicted_rel\": ");
    if (p->has)
        json_num(f, lab_row_predicted_rel(t, i));
    else
        fprintf(f, "null");
    if (r->hier.has) {
        const lab_hier *h = &r->hier;
        fprintf(f, ",\n     \"hierarchy\": {\"gpu\": ");
        wm_json_string(f, h->gpu);
        fprintf(f, ", \"n\": %u, \"bytes\": %llu, \"l1_hit\": ", h->n,
                (unsigned long long)h->bytes);
        json_num(f, h->l1_hit);
        fprintf(f, ", \"l2_hit\": ");
        json_num(f, h->l2_hit);
        fprintf(f, ", \"dram_bytes\": %llu, \"time_us\": ",
                (unsigned long long)h->dram_bytes);
        json_num(f, h->time_us);
        fprintf(f, ", \"gbs\": ");
        json_num(f, h->gbs);
        fprintf(f, ", \"bound\": \"%s\"}", h->bound);
    }
    if (!list) {
        double mr = lab_row_measured_rel(t, e, i);
        double pr = lab_row_predicted_rel(t, i);
        fprintf(f, ",\n     \"measured\": {\"status\": \"%s\", \"note\": ",
                status_name(m->status));
        wm_json_string(f, m->note);
        fprintf(f, ", \"bytes\": ");
        json_num(f, m->bytes);
        fprintf(f, ", \"samples\": %u, \"launches_per_sample\": %u, "
                   "\"kernel_launches\": %u, \"warmup_ms\": ",
                m->samples, m->launches, m->kernel_launches);
        json_num(f, m->warmup_ms);
        fprintf(f, ",\n       \"clocks_mhz\": {\"sm\": %u, \"mem\": %u}, "
                   "\"clocks_moved\": %s,\n       \"ms\": {\"median\": ",
                m->sm_mhz, m->mem_mhz,
                row_clock_moved(e, m)
                    ? "true"
                    : "false");
        json_num(f, m->ms_med);
        fprintf(f, ", \"min\": ");
        json_num(f, m->ms_min);
        fprintf(f, ", \"max\": ");
        json_num(f, m->ms_max);
        fprintf(f, "}, \"gbs\": {\"median\": ");
        json_num(f, m->gbs_med);
        fprintf(f, ", \"min\": ");
        json_num(f, m->gbs_min);
        fprintf(f, ", \"max\": ");
        json_num(f, m->gbs_max);
        fprintf(f, "},\n       \"x_cref\": ");
        json_num(f, lab_row_x_cref(t, e, i));
        fprintf(f, ", \"measured_rel\": ");
        json_num(f, mr);
        fprintf(f, ", \"measured_over_predicted\": ");
        json_num(f, mr > 0 && pr > 0 ? mr / pr : 0.0);
        fprintf(f, ",\n       \"launch\": {\"grid\": [%u, %u, %u], "
                   "\"block\": [%u, %u, %u], \"args\": ",
                m->grid[0], m->grid[1], m->grid[2], m->block[0], m->block[1],
                m->block[2]);
        wm_json_string(f, m->args);
        fprintf(f, "}}");
    }
    fprintf(f, "}");
}

static void write_json(FILE *f, const lab_table *t, const lab_env *e,
                       int list)
{
    int first = 1;
    fprintf(f, "{\n  \"tool\": \"warpmem-lab\", \"version\": \"%s\", "
               "\"profile\": \"%s\",\n",
            WM_VERSION, wm_arch_default()->name);
    if (list) {
        fprintf(f, "  \"list\": true,\n");
    } else {
        fprintf(f, "  \"env\": {\"device\": ");
        wm_json_string(f, e->device);
        fprintf(f, ", \"cc\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %lld, "
                   "\"mem_bytes\": %lld,\n          \"driver\": %d, "
                   "\"runtime\": %d, \"date\": ",
                e->cc_major, e->cc_minor, e->sms, e->l2_bytes, e->mem_bytes,
                e->driver, e->runtime);
        wm_json_string(f, e->date);
        fprintf(f, ", \"buf_bytes\": %lld, \"lesson_n\": %d, "
                   "\"matrix_n\": %d,\n          \"repeat\": %u, "
                   "\"once\": %s, \"c_ref_gbs\": ",
                e->buf_bytes, e->lesson_n, e->matrix_n, e->repeat,
                e->once ? "true" : "false");
        json_num(f, e->c_ref_gbs);
        fprintf(f, ", \"warmup_ms\": ");
        json_num(f, LAB_WARMUP_MS);
        fprintf(f, ", \"cublas\": %s, \"commit\": ",
                e->cublas ? "true" : "false");
        if (e->commit[0])
            wm_json_string(f, e->commit);
        else
            fprintf(f, "null");
        fprintf(f, ",\n          \"clocks_mhz\": {\"known\": %s, "
                   "\"sm\": [%u, %u, %u], \"mem\": [%u, %u, %u], "
                   "\"at\": [\"open\", \"first warm-up\", \"end\"], "
                   "\"moved\": %s}",
                e->have_clocks ? "true" : "false", e->sm_mhz[0], e->sm_mhz[1],
                e->sm_mhz[2], e->mem_mhz[0], e->mem_mhz[1], e->mem_mhz[2],
                !e->once && lab_env_clocks_moved(t, e) ? "true" : "false");
        fprintf(f, ",\n          \"units\": \"GB/s = 1e9 B/s, bytes = read + "
                   "written, median of samples\"},\n");
    }
    fprintf(f, "  \"rows\": [\n");
    for (size_t i = 0; i < t->nrows; i++) {
        if (!list && !t->rows[i].selected)
            continue;
        fprintf(f, "%s", first ? "" : ",\n");
        json_row(f, t, e, i, list);
        first = 0;
    }
    fprintf(f, "\n  ]\n}\n");
}

/* ---- CSV ----------------------------------------------------------------- */

static void write_csv(FILE *f, const lab_table *t, const lab_env *e, int list)
{
    fprintf(f, "id,experiment,kernel,type,g_ld_sectors_per_req,"
               "g_st_sectors_per_req,s_ld_wavefronts_per_req,"
               "s_st_wavefronts_per_req,efficiency,predicted_rel");
    if (!list)
        fprintf(f, ",status,bytes,ms_med,ms_min,ms_max,gbs_med,gbs_min,"
                   "gbs_max,x_cref,measured_rel,measured_over_predicted");
    fprintf(f, "\n");
    for (size_t i = 0; i < t->nrows; i++) {
        const lab_row *r = &t->rows[i];
        const lab_pred *p = &r->pred;
        if (!list && !r->selected)
            continue;
        fprintf(f, "%s,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", r->id,
                r->experiment, kernel_name(r),
                r->type == LAB_ROW_SMEM ? "smem" : "bandwidth",
                per(p->g_ld_sectors, p->g_ld_req),
                per(p->g_st_sectors, p->g_st_req),
                per(p->s_ld_wavefronts, p->s_ld_req),
                per(p->s_st_wavefronts, p->s_st_req),
                p->has ? p->efficiency : 0.0, lab_row_predicted_rel(t, i));
        if (!list) {
            const lab_meas *m = &r->meas;
            double mr = lab_row_measured_rel(t, e, i);
            double pr = lab_row_predicted_rel(t, i);
            fprintf(f, ",%s,%.0f,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g",
                    status_name(m->status), m->bytes, m->ms_med, m->ms_min,
                    m->ms_max, m->gbs_med, m->gbs_min, m->gbs_max,
                    lab_row_x_cref(t, e, i), mr,
                    mr > 0 && pr > 0 ? mr / pr : 0.0);
        }
        fprintf(f, "\n");
    }
}

/* Contract in lab.h. */
void lab_write(FILE *f, const lab_table *t, const lab_env *e, wm_format fmt,
               int list)
{
    switch (fmt) {
    case WM_FMT_TEXT:
        if (list)
            write_list_text(f, t);
        else
            write_run_text(f, t, e);
        break;
    case WM_FMT_JSON: write_json(f, t, e, list); break;
    case WM_FMT_CSV:
    case WM_FMT_NCU_CSV: /* the lab has no ncu form: its own table */
    case WM_FMT_NCU_RAW: write_csv(f, t, e, list); break;
    }
}
