/*
 * ptx_report.c -- the per-source-line report of an interpreted kernel:
 * sites (PTX memory instructions) grouped by their source file:line, the
 * source text when the file can be found, the lines that waste sectors or
 * conflict on banks ranked worst first, a lane map of the worst warp of the
 * top sites, and the kernel totals under Nsight Compute metric names.
 * The sites are sorted and grouped here; text is written here, JSON, CSV
 * and the ncu CSVs by ptx_report_doc.c.  Only formatting lives here: the
 * numbers come from the aggregator.
 */
#define _POSIX_C_SOURCE 200809L
#include "ptx_report_int.h"
#include "ptx_check_int.h"

#include <stdio.h>


static int site_cmp(const void *x, const void *y)
{
    const wm_site *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->site != b->site)
        return a->site < b->site ? -1 : 1;
    return (int)a->space - (int)b->space;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static double per(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* The text columns of one site or line. */
static void text_numbers(FILE *f, const wm_stats *s, int shared)
{
    char conf[24] = "";
    if (s->conflicts)
        snprintf(conf, sizeof conf, "%llu", (unsigned long long)s->conflicts);
    if (shared)
        fprintf(f, "%9llu %8.2f %8.2f %9s %9llu",
                (unsigned long long)s->requests, per(s->wavefronts, s->requests),
                per(s->ideal_wavefronts, s->requests), "",
                (unsigned long long)s->conflicts);
    else
        fprintf(f, "%9llu %8.2f %8.2f %9llu %9s",
                (unsigned long long)s->requests, per(s->sectors, s->requests),
                per(s->ideal_sectors, s->requests),
                (unsigned long long)s->excessive_sectors, conf);
}

/*
 * Text: inlined code is listed under its outermost call site, the
 * kernel's line (as Nsight Compute's source view does with inlined
 * functions); each instruction keeps its helper line beside it.
 */
static void by_call_site(const wm_ptx_module *m, wm_site *sites, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        wm_ptx_where w;
        if (wm_ptx_where_insn(m, sites[i].site, &w) && w.call_line) {
            sites[i].file = w.call_file;
            sites[i].line = w.call_line;
        }
    }
}

static int cmp_rank(const void *x, const void *y)
{
    const wmi_line_group *a = *(const wmi_line_group *const *)x;
    const wmi_line_group *b = *(const wmi_line_group *const *)y;
    if (a->share != b->share)
        return a->share > b->share ? -1 : 1;
    if (a->waste != b->waste)
        return a->waste > b->waste ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/*
 * The advisor's verdict under one source line: per space and op used on
 * the line, the merged sites' worst warp explained and sized against the
 * kernel totals.  flagged: print only what wastes sectors or wavefronts;
 * else only what has a fix.
 */
static void explain_line(FILE *f, const wm_ptx_module *m, const wm_agg *g,
                         const wm_site *sites, size_t n, const wm_totals *tot,
                         const wm_ptx_report_opts *o, int flagged)
{
    wmi_line_advice la[WM_NSPACES * WM_NOPS];
    size_t k = wmi_line_advise(wm_agg_arch(g), sites, n, tot, la,
                               WM_NSPACES * WM_NOPS);
    for (size_t j = 0; j < k; j++) {
        const wm_advice *adv = &la[j].adv;
        if (flagged ? adv->excess == 0 : adv->nfixes == 0)
            continue;
        wm_ptx_where w;
        wm_ptx_where_insn(m, la[j].merged.site, &w);
        fprintf(f, "  %s %s.%u, %zu instruction%s, worst warp at ptx:%u %s\n",
                wm_space_name(la[j].merged.space), wm_op_name(la[j].merged.op),
                adv->size * 8, la[j].members, la[j].members == 1 ? "" : "s",
                w.ptx_line, w.text);
        wm_advise_print(f, adv, o->color, o->width < 60 ? 60 : o->width);
    }
}

/* One report: the sites sorted by line, their line groups, the wasteful
   groups ranked, the sources found and the kernel totals. */
typedef struct report {
    FILE *f;
    const wm_ptx_module *m;
    const wm_agg *g;
    const wm_ptx_report_opts *o;
    wm_site *sites;
    size_t n;
    wmi_line_group *groups;
    size_t ngroups;
    wmi_line_group **ranked;
    size_t nranked;
    wmi_sources files;
    wm_totals tot;
} report;

/* Sorts the sites by file:line and groups the runs of one line. */
static void group_lines(report *r)
{
    if (r->o->format == WM_FMT_TEXT)
        by_call_site(r->m, r->sites, r->n);
    qsort(r->sites, r->n, sizeof *r->sites, site_cmp);
    for (size_t i = 0; i < r->n; i++) {
        const wm_site *s = &r->sites[i];
        wmi_line_group *lg = r->ngroups ? &r->groups[r->ngroups - 1] : NULL;
        if (!lg || strcmp(lg->file, s->file) != 0 || lg->line != s->line) {
            lg = &r->groups[r->ngroups++];
            lg->file = s->file;
            lg->line = s->line;
            lg->first = i;
        }
        lg->count++;
        wmi_stats_add(&lg->sum, &s->stats);
    }
}

/* Ranks the lines that waste sectors or wavefronts: by the advisor's
   share of the kernel with explain, then by the waste. */
static void rank_lines(report *r)
{
    for (size_t i = 0; i < r->ngroups; i++) {
        wmi_line_group *lg = &r->groups[i];
        lg->waste = lg->sum.excessive_sectors + lg->sum.conflicts;
        if (!lg->waste)
            continue;
        r->ranked[r->nranked++] = lg;
        if (!r->o->explain)
            continue;
        wmi_line_advice la[WM_NSPACES * WM_NOPS];
        size_t k = wmi_line_advise(wm_agg_arch(r->g), &r->sites[lg->first],
                                   lg->count, &r->tot, la,
                                   WM_NSPACES * WM_NOPS);
        for (size_t j = 0; j < k; j++) {
            if (la[j].adv.share > lg->share)
                lg->share = la[j].adv.share;
            if (la[j].adv.severity > lg->sev)
                lg->sev = la[j].adv.severity;
        }
    }
    qsort(r->ranked, r->nranked, sizeof *r->ranked, cmp_rank);
    for (size_t i = 0; i < r->nranked; i++)
        r->ranked[i]->rank = (int)i + 1;
}

static void text_header(const report *r)
{
    FILE *f = r->f;
    const wm_ptx_result *res = r->o->res;
    fprintf(f, "kernel %s", r->o->kernel ? r->o->kernel : "?");
    if (res)
        fprintf(f, ": %llu of %llu CTAs%s, %llu warp instructions, %llu "
                   "thread instructions",
                (unsigned long long)res->ctas_run,
                (unsigned long long)res->ctas_total,
                res->sampled ? " (sampled: per-request figures are exact for "
                               "these CTAs; totals are counted and estimated)"
                             : "",
                (unsigned long long)res->warp_insts,
                (unsigned long long)res->thread_insts);
    if (res && res->setmaxnreg) {
        fprintf(f, "\nsetmaxnreg: %llu warp instructions",
                (unsigned long long)res->setmaxnreg);
        if (res->maxnreg_dec)
            fprintf(f, ", .dec down to %u registers", res->maxnreg_dec);
        if (res->maxnreg_inc)
            fprintf(f, ", .inc up to %u registers", res->maxnreg_inc);
    }
    if (r->o->arch)
        fprintf(f, "\nprofile %s", r->o->arch);
    if (r->o->fault)
        fputs("\nstopped by a fault (on stderr): the numbers cover the work "
              "before it", f);
    /* --check's findings come first: they are what the run is for */
    if (r->o->check && r->o->check->checks) {
        fputs("\n\n", f);
        wm_ptx_check_print(f, r->m, r->o->check);
    }
    wmi_sass_note(f, r->g);
    fprintf(f, "%-4s %-24s %-10s %9s %8s %8s %9s %9s  %s\n", "", "line",
            "access", "requests", "per-req", "ideal", "excess", "conflicts",
            "per-req metric");
}

/* A line's rows, one per (space, op) used on it, each with its own
   per-request metric; the first carries the rank, the place and the
   source text. */
static void text_line_rows(const report *r, const wmi_line_group *lg)
{
    FILE *f = r->f;
    char mark[8] = "";
    if (lg->rank)
        snprintf(mark, sizeof mark, "#%d", lg->rank);
    char where[64];
    if (lg->line)
        snprintf(where, sizeof where, "%s:%u", base_name(lg->file), lg->line);
    else
        snprintf(where, sizeof where, "%s",
                 *lg->file ? "no line (hoisted)" : "(no line info)");
    const char *src = wmi_sources_line(&r->files, lg->file, lg->line);
    int row = 0;
    for (int sp = 0; sp < WM_NSPACES; sp++)
        for (int op = 0; op < WM_NOPS; op++) {
            wm_stats sum;
            memset(&sum, 0, sizeof sum);
            int any = 0;
            for (size_t k = 0; k < lg->count; k++) {
                const wm_site *s = &r->sites[lg->first + k];
                if ((int)s->space == sp && (int)s->op == op) {
                    wmi_stats_add(&sum, &s->stats);
                    any = 1;
                }
            }
            if (!any)
                continue;
            char acc[24];
            snprintf(acc, sizeof acc, "%s %s", wm_space_name((wm_space)sp),
                     wm_op_name((wm_op)op));
            fprintf(f, "%-4s %-24s %-10s ", row ? "" : mark, row ? "" : where,
                    acc);
            text_numbers(f, &sum, sp == WM_SPACE_SHARED);
            if (src && !row)
                fprintf(f, "  %-18s %s", wmi_per_request_unit((wm_space)sp),
                        src);
            else
                fprintf(f, "  %s", wmi_per_request_unit((wm_space)sp));
            fputc('\n', f);
            row++;
        }
}

/* A line's instructions, each with its PTX line and where it came from. */
static void text_line_sites(const report *r, const wmi_line_group *lg)
{
    FILE *f = r->f;
    for (size_t k = 0; k < lg->count; k++) {
        const wm_site *s = &r->sites[lg->first + k];
        wm_ptx_where w;
        wm_ptx_where_insn(r->m, s->site, &w);
        char kind[24];
        snprintf(kind, sizeof kind, "%s %s.%u", wm_space_name(s->space),
                 wm_op_name(s->op), s->size * 8);
        fprintf(f, "       %-33s ", kind);
        text_numbers(f, &s->stats, s->space == WM_SPACE_SHARED);
        fprintf(f, "   ptx:%u %s", w.ptx_line, w.text);
        if (*w.inl_file)
            fprintf(f, "  [%s:%u]", w.inl_file, w.inl_line);
        if (w.near_line)
            fprintf(f, "  [after %s:%u]", base_name(w.file), w.near_line);
        if (w.call_line &&
            (w.call_line != w.line || strcmp(w.call_file, w.file) != 0))
            fprintf(f, "  [in %s:%u]", base_name(w.file), w.line);
        fputc('\n', f);
    }
}

/* The site of a line with the largest waste that kept a worst warp. */
static const wm_site *worst_site(const report *r, const wmi_line_group *lg)
{
    const wm_site *worst = NULL;
    uint64_t wv = 0;
    for (size_t k = 0; k < lg->count; k++) {
        const wm_site *s = &r->sites[lg->first + k];
        uint64_t v = s->stats.excessive_sectors + s->stats.conflicts;
        if (s->worst && (!worst || v > wv)) {
            worst = s;
            wv = v;
        }
    }
    return worst;
}

/* The ranked lines, then the worst warp of the top o->draw_top drawn
   and, with explain, the advisor's verdict on each. */
static void text_ranked(const report *r)
{
    FILE *f = r->f;
    const wm_ptx_report_opts *o = r->o;
    fputs(o->explain ? "\nlines that waste bandwidth, worst excessive "
                       "share first:\n"
                     : "\nlines that waste bandwidth, worst first:\n",
          f);
    for (size_t i = 0; i < r->nranked; i++) {
        const wmi_line_group *lg = r->ranked[i];
        fprintf(f, "  #%d %s:%u  %llu excessive sectors, %llu bank conflicts",
                lg->rank, base_name(lg->file), lg->line,
                (unsigned long long)lg->sum.excessive_sectors,
                (unsigned long long)lg->sum.conflicts);
        if (o->explain)
            fprintf(f, "  [%s, %.0f%% of the kernel's %s]",
                    wm_severity_name(lg->sev), lg->share * 100.0,
                    lg->sum.excessive_sectors ? "sectors" : "wavefronts");
        fputc('\n', f);
    }
    unsigned drawn = 0;
    for (size_t i = 0; i < r->nranked; i++) {
        const wmi_line_group *lg = r->ranked[i];
        if (drawn >= o->draw_top && !o->explain)
            break;
        const wm_site *worst = worst_site(r, lg);
        if (!worst)
            continue;
        wm_ptx_where w;
        wm_ptx_where_insn(r->m, worst->site, &w);
        if (drawn < o->draw_top) {
            fprintf(f, "\nworst warp of #%d (%s:%u, ptx:%u %s):\n", lg->rank,
                    base_name(lg->file), lg->line, w.ptx_line, w.text);
            wm_draw_access(f, wm_agg_arch(r->g), worst->worst, o->color,
                           o->width < 60 ? 60 : o->width);
            drawn++;
        } else {
            fprintf(f, "\n#%d %s:%u:\n", lg->rank, base_name(lg->file),
                    lg->line);
        }
        if (o->explain)
            explain_line(f, r->m, r->g, &r->sites[lg->first], lg->count,
                         &r->tot, o, 1);
    }
}

/* With explain: lines that waste nothing may still take more
   instructions than needed (narrow accesses); what the advisor proposes. */
static void text_unranked_fixes(const report *r)
{
    int header = 0;
    for (size_t i = 0; i < r->ngroups; i++) {
        const wmi_line_group *lg = &r->groups[i];
        if (lg->rank)
            continue;
        wmi_line_advice la[WM_NSPACES * WM_NOPS];
        size_t k = wmi_line_advise(wm_agg_arch(r->g), &r->sites[lg->first],
                                   lg->count, &r->tot, la,
                                   WM_NSPACES * WM_NOPS);
        size_t nfix = 0;
        for (size_t j = 0; j < k; j++)
            nfix += la[j].adv.nfixes;
        if (!nfix)
            continue;
        if (!header)
            fputs("\nlines without excess that the advisor would still "
                  "change:\n",
                  r->f);
        header = 1;
        fprintf(r->f, "\n%s:%u:\n", base_name(lg->file), lg->line);
        explain_line(r->f, r->m, r->g, &r->sites[lg->first], lg->count,
                     &r->tot, r->o, 0);
    }
}

/* The kernel totals under Nsight Compute's names, counted and, for a
   sample, estimated for the whole grid. */
static void text_totals(const report *r)
{
    FILE *f = r->f;
    const wm_ptx_result *res = r->o->res;
    double k = wmi_ptx_estimate_scale(res);
    const char *level = wmi_agg_view_plan(r->g) ? "SASS" : "PTX";
    wm_totals est;
    if (k != 0.0) {
        wmi_ptx_scale_totals(&r->tot, k, &est);
        fprintf(f, "\nkernel totals (Nsight Compute names, %s level): counted "
                   "over %llu CTAs, and estimated for all %llu (x %.2f):\n",
                level, (unsigned long long)res->ctas_run,
                (unsigned long long)res->ctas_total, k);
        fprintf(f, "  %-72s %14s %14s\n", "", "counted", "estimated");
    } else {
        fprintf(f, "\nkernel totals (Nsight Compute names, %s level):\n",
                level);
    }
    for (size_t i = 0; i < wm_metric_count(); i++) {
        if (!wm_metric_relevant(&r->tot, i))
            continue;
        double v = wm_metric_value(&r->tot, i);
        int cnt = wm_metric_is_count(i);
        fprintf(f, cnt ? "  %-72s %14.0f" : "  %-72s %14.2f", wm_metric_name(i),
                v);
        if (k != 0.0)
            fprintf(f, cnt ? " %14.0f" : " %14.2f", wm_metric_value(&est, i));
        fputc('\n', f);
    }
}

static void text_report(const report *r)
{
    text_header(r);
    for (size_t i = 0; i < r->ngroups; i++) {
        text_line_rows(r, &r->groups[i]);
        text_line_sites(r, &r->groups[i]);
    }
    fputs("\n  per-req: sectors per request (global, local, texture, "
          "surface) or\n  wavefronts per request (shared); ideal: the same "
          "for perfectly packed\n  lanes; excess: sectors beyond ideal.\n",
          r->f);
    if (r->nranked)
        text_ranked(r);
    else if (r->n)
        fputs("\nno line wastes sectors or conflicts on banks.\n", r->f);
    if (r->o->explain)
        text_unranked_fixes(r);
    text_totals(r);
}

wm_status wm_ptx_report(FILE *f, const wm_ptx_module *m, const wm_agg *g,
                        const wm_ptx_report_opts *o)
{
    report r = {.f = f, .m = m, .g = g, .o = o};
    wm_status st = WM_OK;
    r.n = wm_agg_nsites(g);
    size_t cap = r.n ? r.n : 1;
    r.sites = calloc(cap, sizeof *r.sites);
    r.groups = calloc(cap, sizeof *r.groups);
    r.ranked = calloc(cap, sizeof *r.ranked);
    if (!r.sites || !r.groups || !r.ranked) {
        st = WM_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < r.n; i++)
        wm_agg_site(g, i, &r.sites[i]);
    group_lines(&r);
    wm_agg_totals(g, &r.tot);
    rank_lines(&r);
    if ((o->format == WM_FMT_TEXT || o->format == WM_FMT_JSON) &&
        !wmi_sources_load(&r.files, m, o->ptx_path)) {
        st = WM_ERR_NOMEM;
        goto done;
    }
    if (o->format != WM_FMT_TEXT)
        st = wmi_ptx_report_doc(f, m, g, o, r.sites, r.n, r.groups,
                                r.ngroups, &r.files);
    else
        text_report(&r);
done:
    wmi_sources_free(&r.files);
    free(r.sites);
    free(r.groups);
    free(r.ranked);
    return st;
}
