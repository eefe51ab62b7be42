/*
 * ptx_explain.c -- the advisor applied to an interpreted kernel: advice
 * per source line (its sites merged per space and op, analysed on their
 * worst warp and sized against the kernel totals, as ncu sizes its
 * "excessive sectors" rule), the text block printed under a flagged line,
 * and the HTML report of a run.  The advisor itself lives in advise*.c.
 */
#include "ptx_report_int.h"

#include <stdio.h>

size_t wmi_merge_sites(const wm_site *sites, size_t n, wm_space space,
                       wm_op op, wm_site *out)
{
    size_t members = 0;
    for (size_t i = 0; i < n; i++) {
        const wm_site *s = &sites[i];
        if (s->space != space || s->op != op)
            continue;
        if (members == 0) {
            *out = *s;
        } else {
            wmi_stats_add(&out->stats, &s->stats);
            if (s->worst && (!out->worst ||
                             s->per_request.max > out->per_request.max)) {
                out->worst = s->worst;
                out->per_request = s->per_request;
                out->size = s->size;
                out->site = s->site;
                out->label = s->label;
            }
        }
        members++;
    }
    return members;
}

size_t wmi_line_advise(const wm_arch *arch, const wm_site *sites, size_t n,
                       const wm_totals *t, wmi_line_advice *out, size_t cap)
{
    size_t k = 0;
    for (int sp = 0; sp < WM_NSPACES; sp++)
        for (int op = 0; op < WM_NOPS && k < cap; op++) {
            wmi_line_advice *la = &out[k];
            la->members =
                wmi_merge_sites(sites, n, (wm_space)sp, (wm_op)op, &la->merged);
            if (la->members == 0 || !la->merged.worst)
                continue;
            if (wm_advise_site(arch, &la->merged, t, &la->adv) == WM_OK)
                k++;
        }
    return k;
}

/* ---- HTML ---------------------------------------------------------------- */

static const char *html_source(void *ctx, const char *file, uint32_t line)
{
    return wmi_sources_line(ctx, file, line);
}

wm_status wm_ptx_report_html(FILE *f, const wm_ptx_module *m,
                             const wm_agg *g, const wm_ptx_report_opts *o)
{
    if (!f || !m || !g || !o)
        return WM_ERR_ARG;
    wmi_sources src = {NULL, 0};
    if (!wmi_sources_load(&src, m, o->ptx_path))
        return WM_ERR_NOMEM;
    char title[200];
    snprintf(title, sizeof title, "warpmem run: kernel %s%s",
             o->kernel ? o->kernel : "?",
             o->res && o->res->sampled ? " (sampled CTAs)" : "");
    wm_html_opts ho;
    memset(&ho, 0, sizeof ho);
    ho.title = title;
    ho.command = o->command;
    ho.source = html_source;
    ho.source_ctx = &src;
    wm_status st = wm_html_report(f, g, &ho);
    wmi_sources_free(&src);
    return st;
}
