/*
 * expr_report.c -- the report of an expression run (`warpmem expr`) in
 * every format: the advisor's verdicts once for all of them, the text in
 * expr_report_text.c; here the JSON, CSV and ncu-shaped documents: the
 * common head (docs/output.md) with the launch and how the first warp's
 * threads map to lanes, totals, one site per statement with its worst
 * warp and, with explain, the advisor's verdict, then the hierarchy
 * model's section when one ran.
 */
#include "out_int.h"

/* x for every site of g.  0 on OOM. */
static int advise_all(const wm_expr *e, const wm_agg *g, wmi_expr_advice *x)
{
    size_t n = wm_agg_nsites(g);
    wm_totals all;
    x->adv = calloc(n ? n : 1, sizeof *x->adv);
    x->ok = calloc(n ? n : 1, 1);
    x->order = calloc(n ? n : 1, sizeof *x->order);
    if (!x->adv || !x->ok || !x->order)
        return 0;
    wm_agg_totals(g, &all);
    wm_advise_rank(g, x->order);
    for (size_t i = 0; i < n; i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        const wm_access *worst = wm_expr_worst(e, s.site, NULL, NULL);
        if (worst)
            s.worst = worst;
        x->ok[i] = wm_advise_site(wm_agg_arch(g), &s, &all, &x->adv[i]) ==
                   WM_OK;
    }
    return 1;
}

static void emit_worst(wmi_out *o, const wm_expr *e, const wm_site *s,
                       const wm_expr_stmt *si, unsigned warp_size)
{
    wm_expr_where w;
    wm_counts c;
    const wm_access *a = wm_expr_worst(e, s->site, &w, &c);
    if (!a)
        return;
    wmi_out_obj(o, "worst");
    wmi_out_uints(o, "block", w.block, 3);
    wmi_out_uint(o, "warp", w.warp);
    wmi_out_obj(o, "iter");
    for (unsigned k = 0; k < si->nloops; k++)
        wmi_out_int(o, si->loop_name[k], w.iter[k]);
    wmi_out_end(o);
    wmi_out_hex(o, "mask", a->mask);
    wmi_out_arr(o, "addrs");
    for (unsigned l = 0; l < warp_size; l++)
        if (a->mask >> l & 1)
            wmi_out_uint(o, NULL, a->addr[l]);
    wmi_out_end(o);
    wmi_doc_counts(o, "counts", a, &c);
    wmi_out_end(o);
}

static void emit(wmi_out *o, const wm_expr *e, const wm_agg *g,
                 const wm_expr_report_opts *ro, const wmi_expr_advice *x)
{
    const wm_arch *arch = wm_agg_arch(g);
    unsigned grid[3], block[3], tid[3];
    wm_totals all;
    wm_expr_launch(e, grid, block);
    wm_agg_totals(g, &all);
    wmi_doc_begin(o, "expr", arch->name, NULL);
    wmi_doc_launch(o, grid, block, arch->warp_size);
    wmi_out_arr(o, "first_warp");
    for (unsigned l = 0; l < arch->warp_size; l++)
        if (wm_expr_lane_tid(block, arch->warp_size, 0, l, tid))
            wmi_out_uints(o, NULL, tid, 3);
    wmi_out_end(o);
    wmi_out_end(o);
    wmi_doc_totals(o, "totals", "total", &all);
    wmi_out_arr(o, "sites");
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_expr_stmt si;
        wm_agg_site(g, i, &s);
        wm_expr_stmt_info(e, s.site, &si);
        s.label = si.text;
        s.file = ro->file ? ro->file : "";
        s.line = si.line;
        s.size = si.size;
        wmi_out_obj(o, NULL);
        wmi_doc_site(o, &s);
        wmi_out_uint(o, "statement", s.site + 1);
        wmi_out_uint(o, "accesses", s.stats.inst_all);
        wmi_out_uint(o, "active_accesses", s.stats.inst);
        emit_worst(o, e, &s, &si, arch->warp_size);
        if (x && x->ok[i])
            wmi_advise_emit(o, "advice", &x->adv[i]);
        else if (x)
            wmi_out_null(o, "advice");
        wmi_out_end(o);
    }
    wmi_out_end(o);
    if (x) {
        /* statement numbers, worst first */
        wmi_out_arr(o, "advice_order");
        for (size_t k = 0; k < wm_agg_nsites(g); k++) {
            wm_site s;
            wm_agg_site(g, x->order[k], &s);
            wmi_out_uint(o, NULL, s.site + 1);
        }
        wmi_out_end(o);
    }
    if (ro->cache)
        wmi_cache_emit(o, ro->cache, g);
    wmi_doc_end(o);
}

wm_status wm_expr_report(FILE *f, const wm_expr *e, const wm_agg *g,
                         const wm_expr_report_opts *ro)
{
    if (!f || !e || !g || !ro)
        return WM_ERR_ARG;
    if (wmi_fmt_ncu(ro->format)) {
        wm_totals all;
        wmi_ncu_launch l = {"expr", wm_agg_arch(g), {1, 1, 1}, {1, 1, 1}, 0};
        wm_expr_launch(e, l.grid, l.block);
        wm_agg_totals(g, &all);
        return wmi_ncu_write(f, &l, &all, ro->cache,
                             ro->format == WM_FMT_NCU_RAW);
    }
    wmi_expr_advice x = {0};
    const wmi_expr_advice *xp = ro->explain ? &x : NULL;
    wm_status st = WM_OK;
    if (ro->explain && !advise_all(e, g, &x))
        st = WM_ERR_NOMEM;
    if (st == WM_OK && ro->format == WM_FMT_TEXT) {
        st = wmi_expr_text(f, e, g, ro, xp);
    } else if (st == WM_OK) {
        wmi_out o;
        wmi_out_init(&o, f, ro->format == WM_FMT_CSV);
        emit(&o, e, g, ro, xp);
        st = wmi_out_finish(&o);
    }
    free(x.adv);
    free(x.ok);
    free(x.order);
    return st;
}
