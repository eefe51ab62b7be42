/*
 * ptx_report_html.c -- the HTML report of an interpreted kernel: the
 * module's sources, instruction places and --check findings handed to
 * wm_html_report.
 */
#include "ptx_report_int.h"
#include "ptx_check_int.h"

#include <stdio.h>
#include <stdlib.h>

/* What the HTML report's callbacks read: the module and its sources. */
typedef struct html_ctx {
    const wm_ptx_module *m;
    wmi_sources src;
} html_ctx;

/* A source line as written (the source page keeps the indentation). */
static const char *html_source(void *ctx, const char *file, uint32_t line)
{
    const html_ctx *c = ctx;
    const wmi_srcfile *sf = wmi_sources_file(&c->src, file);
    return sf && line && line <= sf->nlines ? sf->lines[line - 1] : NULL;
}

static uint32_t html_nlines(void *ctx, const char *file)
{
    const html_ctx *c = ctx;
    const wmi_srcfile *sf = wmi_sources_file(&c->src, file);
    if (!sf || !sf->nlines)
        return 0;
    /* the empty piece after a final newline is no line */
    size_t n = sf->nlines;
    return (uint32_t)(sf->lines[n - 1][0] ? n : n - 1);
}

static int html_where(void *ctx, uint32_t site, wm_html_where *out)
{
    const html_ctx *c = ctx;
    wm_ptx_where w;
    if (!wm_ptx_where_insn(c->m, site, &w))
        return 0;
    out->ptx_line = w.ptx_line;
    out->ptx = w.text;
    out->call_file = w.call_line ? w.call_file : NULL;
    out->call_line = w.call_line;
    return 1;
}

wm_status wm_ptx_report_html(FILE *f, const wm_ptx_module *m,
                             const wm_agg *g, const wm_ptx_report_opts *o)
{
    if (!f || !m || !g || !o)
        return WM_ERR_ARG;
    html_ctx c = {.m = m};
    if (!wmi_sources_load(&c.src, m, o->ptx_path))
        return WM_ERR_NOMEM;
    char title[200], launch[300] = "";
    snprintf(title, sizeof title, "warpmem run: kernel %s%s",
             o->kernel ? o->kernel : "?",
             o->res && o->res->sampled ? " (sampled CTAs)" : "");
    char shape[80] = "";
    if (o->grid[0] && o->block[0])
        snprintf(shape, sizeof shape, "grid (%u, %u, %u), block (%u, %u, %u): ",
                 o->grid[0], o->grid[1], o->grid[2], o->block[0],
                 o->block[1], o->block[2]);
    if (o->res)
        snprintf(launch, sizeof launch,
                 "%s%llu of %llu CTAs%s, %llu warp instructions, %llu thread "
                 "instructions",
                 shape, (unsigned long long)o->res->ctas_run,
                 (unsigned long long)o->res->ctas_total,
                 o->res->sampled ? " (sampled)" : "",
                 (unsigned long long)o->res->warp_insts,
                 (unsigned long long)o->res->thread_insts);
    wm_html_opts ho;
    memset(&ho, 0, sizeof ho);
    ho.title = title;
    ho.command = o->command;
    ho.kernel = o->kernel;
    ho.launch = o->res ? launch : NULL;
    ho.arch = o->arch;
    ho.source = html_source;
    ho.nlines = html_nlines;
    ho.where = html_where;
    ho.source_ctx = &c;
    wm_html_finding *fx = NULL;
    char *ftext = NULL;
    ho.nfindings = wmi_check_findings(m, o->check, &fx, &ftext);
    ho.findings = fx;
    wm_status st = wm_html_report(f, g, &ho);
    free(fx);
    free(ftext);
    wmi_sources_free(&c.src);
    return st;
}
