/*
 * ptx_report_doc.c -- the JSON, CSV and ncu-shaped document of a run
 * (`warpmem run`, wm_ptx_report with a format other than text).
 *
 * The common shape of docs/output.md (schema, command "run", arch, kernel,
 * launch, totals by metric name with unit, sites: one per memory
 * instruction), then what only a run has: the profile note, the totals
 * estimated for the whole grid when CTAs were sampled, the source lines
 * (grouped sites, ranked by waste), the hierarchy model, the fault the
 * run stopped at and the files written.  Only formatting lives here.
 */
#define _POSIX_C_SOURCE 200809L
#include "ptx_report_int.h"
#include "out_int.h"
#include "ptx_check_int.h"

#include <stdio.h>

double wmi_ptx_estimate_scale(const wm_ptx_result *res)
{
    if (!res || !res->sampled || !res->ctas_run)
        return 0.0;
    return (double)res->ctas_total / (double)res->ctas_run;
}

void wmi_ptx_scale_totals(const wm_totals *t, double k, wm_totals *out)
{
    *out = *t;
    for (int i = 0; i < WM_NSPACES; i++)
        for (int j = 0; j < WM_NOPS; j++) {
            wm_stats *s = &out->s[i][j];
            uint64_t *f[] = {&s->inst, &s->inst_all, &s->active_lanes,
                             &s->requests, &s->bytes, &s->sectors, &s->tags,
                             &s->ideal_sectors, &s->excessive_sectors,
                             &s->t_wavefronts, &s->wavefronts,
                             &s->ideal_wavefronts, &s->conflicts};
            for (size_t n = 0; n < WM_ARRAY_LEN(f); n++)
                *f[n] = (uint64_t)((double)*f[n] * k + 0.5);
        }
}

const char *wmi_per_request_unit(wm_space sp)
{
    return sp == WM_SPACE_SHARED ? "wavefronts/request" : "sectors/request";
}

/* The Nsight Compute metric (or quotient of metrics) a per-request figure
 * stands for. */
static void per_request_ncu(char *buf, size_t n, wm_space sp, wm_op op)
{
    const char *s = wm_space_name(sp), *o = wm_op_name(op);
    if (op == WM_OP_TMA) /* docs/design/ptx-tma.md */
        snprintf(buf, n, "none: TMA copies are not LSU requests (their "
                         "sectors reach lts__t_sectors)");
    else if (sp == WM_SPACE_SHARED)
        snprintf(buf, n, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"
                         " / smsp__sass_inst_executed_op_shared_%s.sum", o, o);
    else if (sp == WM_SPACE_TEXTURE) /* tex and tld4: the TEX pipe */
        snprintf(buf, n, "l1tex__t_sectors_pipe_tex_mem_texture.sum / "
                         "l1tex__t_requests_pipe_tex_mem_texture.sum");
    else if (sp == WM_SPACE_SURFACE)
        snprintf(buf, n, "l1tex__t_sectors_pipe_tex_mem_surface_op_%s.sum / "
                         "l1tex__t_requests_pipe_tex_mem_surface_op_%s.sum",
                 o, o);
    else if (op == WM_OP_LD || op == WM_OP_ST)
        snprintf(buf, n, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_"
                         "%s_op_%s.ratio", s, o);
    else
        snprintf(buf, n, "l1tex__t_sectors_pipe_lsu_mem_%s_op_%s.sum / "
                         "l1tex__t_requests_pipe_lsu_mem_%s_op_%s.sum",
                 s, o, s, o);
}

static double per(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* The kind of fault by the message's start (one table, so a program can
 * switch on it); else the message's first word. */
static void fault_kind(const char *msg, char *kind, size_t cap)
{
    static const struct {
        const char *prefix, *kind;
    } kinds[] = {
        {"out-of-bounds", "out-of-bounds"},
        {"misaligned", "misaligned"},
        {"invalid global", "invalid-address"},
        {"barrier divergence", "barrier-divergence"},
        {"barrier deadlock", "barrier-deadlock"},
        {"step budget", "step-budget"},
        {"trap", "trap"},
        {"unsupported", "unsupported"},
    };
    size_t kl = strcspn(msg, " :");
    snprintf(kind, cap, "%.*s", (int)(kl < cap - 1 ? kl : cap - 1), msg);
    for (size_t i = 0; i < WM_ARRAY_LEN(kinds); i++)
        if (strncmp(msg, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
            snprintf(kind, cap, "%s", kinds[i].kind);
    if (strstr(msg, "membermask"))
        snprintf(kind, cap, "membermask");
}

static void emit_fault(wmi_out *out, const wm_ptx_module *m,
                       const wm_ptx_report_opts *o)
{
    const wm_ptx_fault *ft = o->fault;
    wm_ptx_where w;
    int have = wm_ptx_where_insn(m, ft->insn, &w);
    char msg[400], kind[40];
    snprintf(msg, sizeof msg, "%s%s", ft->msg,
             o->fault_hint ? o->fault_hint : "");
    fault_kind(ft->msg, kind, sizeof kind);
    wmi_out_obj(out, "fault");
    wmi_out_str(out, "status", ft->status == WM_ERR_LIMIT ? "error"
                               : ft->status == WM_ERR_UNSUPPORTED
                                   ? "unsupported"
                                   : "fault");
    wmi_out_str(out, "kind", kind);
    wmi_out_str(out, "message", msg);
    wmi_out_uints(out, "block", ft->cta, 3);
    wmi_out_uints(out, "thread", ft->thread, 3);
    wmi_out_uint(out, "warp", ft->warp);
    wmi_out_uint(out, "lane", ft->lane);
    wmi_out_uint(out, "ptx_line", ft->ptx_line);
    wmi_out_str(out, "ptx", have ? w.text : NULL);
    if (ft->line) {
        char where[512];
        snprintf(where, sizeof where, "%s:%u", ft->file, ft->line);
        wmi_out_str(out, "source", where);
    } else {
        wmi_out_null(out, "source");
    }
    if (ft->has_addr) {
        wmi_out_str(out, "space", wm_space_name((wm_space)ft->space));
        wmi_out_uint(out, "address", ft->addr);
        if (ft->buf >= 0) {
            wmi_out_obj(out, "buffer");
            wmi_out_int(out, "argument", ft->buf);
            wmi_out_uint(out, "offset", ft->addr & ((1ull << 40) - 1));
            wmi_out_uint(out, "bytes", ft->bound);
            wmi_out_end(out);
        } else {
            wmi_out_uint(out, "bound", ft->bound);
        }
    }
    wmi_out_end(out);
}

static void emit_launch(wmi_out *out, const wm_agg *g,
                        const wm_ptx_report_opts *o)
{
    const wm_ptx_result *res = o->res;
    int have = o->grid[0] && o->block[0];
    wmi_doc_launch(out, have ? o->grid : NULL, have ? o->block : NULL,
                   wm_agg_arch(g)->warp_size);
    if (res) {
        wmi_out_uint(out, "ctas_run", res->ctas_run);
        wmi_out_uint(out, "ctas_total", res->ctas_total);
        wmi_out_bool(out, "sampled", res->sampled);
        wmi_out_uint(out, "warp_instructions", res->warp_insts);
        wmi_out_uint(out, "thread_instructions", res->thread_insts);
        if (res->setmaxnreg) {
            wmi_out_uint(out, "setmaxnreg", res->setmaxnreg);
            wmi_out_uint(out, "maxnreg_inc", res->maxnreg_inc);
            wmi_out_uint(out, "maxnreg_dec", res->maxnreg_dec);
        }
    }
    wmi_out_end(out);
}

/* At SASS level: what the SASS does with the site ("sass") and the
   PTX-level numbers of the PTX instructions it stands for ("ptx_level"). */
static void emit_sass(wmi_out *out, const wm_agg *g, const wm_site *s)
{
    static const char *const kinds[] = {"same", "lead", "merged", "split",
                                        "unmapped"};
    wm_stats ptx;
    size_t ninsns;
    wm_sass_map mp;
    if (!wmi_sass_site_forms(g, s, &ptx, &ninsns, &mp))
        return;
    wmi_out_obj(out, "sass");
    wmi_out_str(out, "map", kinds[mp.kind]);
    wmi_out_str(out, "opcode", mp.opcode);
    wmi_out_uint(out, "width", mp.width ? mp.width : s->size);
    if (mp.kind == WM_SASS_LEAD)
        wmi_out_uint(out, "merged", mp.merged);
    if (mp.kind == WM_SASS_SPLIT)
        wmi_out_uint(out, "parts", mp.parts);
    if (mp.kind == WM_SASS_SPLIT && mp.slots)
        wmi_out_uint(out, "slots", mp.slots);
    if (mp.kind == WM_SASS_LEAD && mp.shift)
        wmi_out_uint(out, "shift", mp.shift);
    if (mp.kind == WM_SASS_UNMAPPED)
        wmi_out_str(out, "why", mp.why);
    wmi_out_end(out);
    wmi_out_obj(out, "ptx_level");
    wmi_out_uint(out, "instructions", ninsns);
    wmi_doc_stats(out, "stats", &ptx);
    wmi_out_end(out);
}

/* One memory instruction: the common site members, where it is in the
 * PTX and the source, its line's rank and, with explain, the advisor. */
static void emit_site(wmi_out *out, const wm_ptx_module *m, const wm_agg *g,
                      const wm_ptx_report_opts *o, const wm_site *s, int rank,
                      const wm_totals *tot)
{
    wm_ptx_where w;
    memset(&w, 0, sizeof w);
    w.text = "";
    wm_ptx_where_insn(m, s->site, &w);
    wm_site c = *s;
    c.label = w.text;
    wmi_out_obj(out, NULL);
    wmi_doc_site(out, &c);
    wmi_out_uint(out, "ptx_line", w.ptx_line);
    wmi_out_str(out, "ptx", w.text);
    wmi_out_int(out, "rank", rank);
    char ncu[200];
    per_request_ncu(ncu, sizeof ncu, s->space, s->op);
    wmi_out_str(out, "per_request_metric", wmi_per_request_unit(s->space));
    wmi_out_str(out, "per_request_ncu", ncu);
    if (w.near_line)
        wmi_out_uint(out, "hoisted_after_line", w.near_line);
    if (w.call_line) {
        wmi_out_str(out, "call_file", w.call_file);
        wmi_out_uint(out, "call_line", w.call_line);
    }
    if (w.inl_file && *w.inl_file) {
        wmi_out_str(out, "inlined_from", w.inl_file);
        wmi_out_uint(out, "inlined_line", w.inl_line);
    }
    emit_sass(out, g, s);
    wm_advice adv;
    if (o->explain && wm_advise_site(wm_agg_arch(g), s, tot, &adv) == WM_OK)
        wmi_advise_emit(out, "advice", &adv);
    wmi_out_end(out);
}

/* One source line: its summed stats, per (space, op) and its sites. */
static void emit_line(wmi_out *out, const wm_site *sites,
                      const wmi_line_group *lg, const wmi_sources *files,
                      int explain)
{
    wmi_out_obj(out, NULL);
    wmi_out_str(out, "file", lg->file);
    wmi_out_uint(out, "line", lg->line);
    wmi_out_str(out, "source", wmi_sources_line(files, lg->file, lg->line));
    wmi_out_int(out, "rank", lg->rank);
    if (explain && lg->waste) {
        /* the line's instructions of one kind sized together, as the
           text report and the HTML page rank them (docs/advisor.md) */
        wmi_out_str(out, "severity", wm_severity_name(lg->sev));
        wmi_out_num(out, "excessive_share", lg->share);
    }
    wmi_doc_stats(out, "stats", &lg->sum);
    wmi_out_arr(out, "accesses");
    for (int sp = 0; sp < WM_NSPACES; sp++)
        for (int op = 0; op < WM_NOPS; op++) {
            wm_stats sum;
            int any = 0;
            memset(&sum, 0, sizeof sum);
            for (size_t k = 0; k < lg->count; k++) {
                const wm_site *s = &sites[lg->first + k];
                if ((int)s->space == sp && (int)s->op == op) {
                    wmi_stats_add(&sum, &s->stats);
                    any = 1;
                }
            }
            if (!any)
                continue;
            wmi_out_obj(out, NULL);
            wmi_out_str(out, "space", wm_space_name((wm_space)sp));
            wmi_out_str(out, "op", wm_op_name((wm_op)op));
            wmi_out_str(out, "per_request_metric",
                        wmi_per_request_unit((wm_space)sp));
            wmi_out_num(out, "per_request",
                        sp == WM_SPACE_SHARED
                            ? per(sum.wavefronts, sum.requests)
                            : per(sum.sectors, sum.requests));
            wmi_doc_stats(out, "stats", &sum);
            wmi_out_end(out);
        }
    wmi_out_end(out);
    wmi_out_arr(out, "sites");
    for (size_t k = 0; k < lg->count; k++)
        wmi_out_uint(out, NULL, sites[lg->first + k].site);
    wmi_out_end(out);
    wmi_out_end(out);
}

static void emit(wmi_out *out, const wm_ptx_module *m, const wm_agg *g,
                 const wm_ptx_report_opts *o, const wm_site *sites, size_t n,
                 const wmi_line_group *groups, size_t ngroups,
                 const wmi_sources *files)
{
    wm_totals tot;
    wm_agg_totals(g, &tot);
    wmi_doc_begin(out, "run", wm_agg_arch(g)->name,
                  o->kernel ? o->kernel : "");
    wmi_out_str(out, "profile", o->arch);
    wmi_out_str(out, "level", wmi_agg_view_plan(g) ? "sass" : "ptx");
    emit_launch(out, g, o);
    wmi_doc_totals(out, "totals", "total", &tot);
    double k = wmi_ptx_estimate_scale(o->res);
    if (k != 0.0) {
        /* sampled: the counts above cover the CTAs run; these are
           extrapolated to the grid */
        wm_totals est;
        wmi_ptx_scale_totals(&tot, k, &est);
        wmi_out_num(out, "estimate_scale", k);
        wmi_doc_totals(out, "totals_estimated", "total_estimated", &est);
    }
    wmi_out_arr(out, "sites");
    for (size_t i = 0; i < ngroups; i++)
        for (size_t j = 0; j < groups[i].count; j++)
            emit_site(out, m, g, o, &sites[groups[i].first + j],
                      groups[i].rank, &tot);
    wmi_out_end(out);
    (void)n;
    wmi_out_arr(out, "lines");
    for (size_t i = 0; i < ngroups; i++)
        emit_line(out, sites, &groups[i], files, o->explain);
    wmi_out_end(out);
    if (o->cache)
        wmi_cache_emit(out, o->cache, g);
    if (o->fault)
        emit_fault(out, m, o);
    wmi_check_emit(out, m, o->check); /* --check */
    if (o->nwritten) {
        wmi_out_arr(out, "outputs_written");
        for (size_t i = 0; i < o->nwritten; i++)
            wmi_out_str(out, NULL, o->written[i]);
        wmi_out_end(out);
    }
    wmi_doc_end(out);
}

wm_status wmi_ptx_report_doc(FILE *f, const wm_ptx_module *m, const wm_agg *g,
                        const wm_ptx_report_opts *o, const wm_site *sites,
                        size_t n, const wmi_line_group *groups,
                        size_t ngroups, const wmi_sources *files)
{
    if (wmi_fmt_ncu(o->format)) {
        wm_totals tot;
        wmi_ncu_launch l = {o->kernel ? o->kernel : "", wm_agg_arch(g),
                            {o->grid[0], o->grid[1], o->grid[2]},
                            {o->block[0], o->block[1], o->block[2]}, 0};
        wm_agg_totals(g, &tot);
        double k = wmi_ptx_estimate_scale(o->res);
        if (k != 0.0) {
            /* ncu measures the whole grid: compare the estimate */
            wm_totals est;
            wmi_ptx_scale_totals(&tot, k, &est);
            tot = est;
        }
        return wmi_ncu_write(f, &l, &tot, o->cache,
                             o->format == WM_FMT_NCU_RAW);
    }
    wmi_out out;
    wmi_out_init(&out, f, o->format == WM_FMT_CSV);
    emit(&out, m, g, o, sites, n, groups, ngroups, files);
    return wmi_out_finish(&out);
}
