/*
 * expr_report_text.c -- the text report of an expression run (`warpmem
 * expr`): the launch and how the first warp's threads map to lanes, then
 * per statement its counts, metrics and worst warp drawn lane by lane,
 * with --explain the advisor's verdict under each and their ranking at the
 * end, then the hierarchy model's section when one ran.
 */
#include "out_int.h"

#include <inttypes.h>
#include <string.h>

/* "high" etc. in the colours wm_advise_print uses. */
static void print_badge(FILE *f, wm_severity sev, int color)
{
    const char *c = sev == WM_SEV_HIGH   ? "\033[31m"
                    : sev == WM_SEV_NONE ? "\033[32m"
                                         : "\033[33m";
    fprintf(f, "[%s%s%s]%*s", color ? c : "", wm_severity_name(sev),
            color ? "\033[0m" : "", 6 - (int)strlen(wm_severity_name(sev)),
            "");
}

/* The statements worst first, one line each, after the per-statement text. */
static void print_ranking(FILE *f, const wm_expr *e, const wm_agg *g,
                          const wmi_expr_advice *x, int color)
{
    fprintf(f, "\nadvice, worst first (excessive share of the run's sectors "
               "or wavefronts):\n");
    for (size_t k = 0; k < wm_agg_nsites(g); k++) {
        size_t i = x->order[k];
        wm_site s;
        wm_expr_stmt si;
        wm_agg_site(g, i, &s);
        wm_expr_stmt_info(e, s.site, &si);
        if (!x->ok[i])
            continue;
        const wm_advice *v = &x->adv[i];
        fprintf(f, "  [%u] line %-4u ", s.site + 1, si.line);
        print_badge(f, v->severity, color);
        fprintf(f, " %3.0f%%  %s", 100.0 * v->share, v->headline);
        if (v->nfixes)
            fprintf(f, "; fix: %s", wm_fix_name(v->fixes[0].kind));
        fputc('\n', f);
    }
}

/* Lanes of warp 0 grouped into runs of consecutive tid.x at fixed y, z. */
static void print_first_warp(FILE *f, const unsigned block[3], unsigned nl)
{
    unsigned l = 0, tid[3], t2[3];
    fprintf(f, "first warp of each block (lane -> thread):\n");
    while (l < nl && wm_expr_lane_tid(block, nl, 0, l, tid)) {
        unsigned end = l;
        while (end + 1 < nl && wm_expr_lane_tid(block, nl, 0, end + 1, t2) &&
               t2[1] == tid[1] && t2[2] == tid[2] &&
               t2[0] == tid[0] + (end + 1 - l))
            end++;
        fprintf(f, "  lanes %2u..%-2u  tid.x %u..%u  tid.y %u  tid.z %u\n", l,
                end, tid[0], tid[0] + (end - l), tid[1], tid[2]);
        l = end + 1;
    }
    if (l < nl)
        fprintf(f, "  lanes %2u..%-2u  inactive (block has %u threads)\n", l,
                nl - 1, block[0] * block[1] * block[2]);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (threads % nl && threads > nl)
        fprintf(f, "  the last warp of each block has %u active lanes\n",
                (unsigned)(threads % nl));
}

static void print_where(FILE *f, const wm_expr_stmt *si,
                        const wm_expr_where *w)
{
    fprintf(f, "block (%u,%u,%u) warp %u", w->block[0], w->block[1],
            w->block[2], w->warp);
    for (unsigned k = 0; k < si->nloops; k++)
        fprintf(f, ", %s = %lld", si->loop_name[k], (long long)w->iter[k]);
}

static void print_metric_lines(FILE *f, const wm_totals *t,
                               const char *indent)
{
    for (size_t i = 0; i < wm_metric_count(); i++) {
        if (!wm_metric_relevant(t, i))
            continue;
        double v = wm_metric_value(t, i);
        if (wm_metric_is_count(i))
            fprintf(f, "%s%-70s %.0f\n", indent, wm_metric_name(i), v);
        else
            fprintf(f, "%s%-70s %.2f\n", indent, wm_metric_name(i), v);
    }
}

static const char *per_request_name(wm_space sp)
{
    return sp == WM_SPACE_SHARED ? "wavefronts" : "sectors";
}

/* One statement: counts, metrics, the worst warp drawn, the advice. */
static void print_site(FILE *f, const wm_expr *e, const wm_agg *g, size_t i,
                       const wm_expr_report_opts *ro,
                       const wmi_expr_advice *x)
{
    wm_site s;
    wm_expr_stmt si;
    wm_totals t;
    wm_expr_where w;
    wm_counts c;
    wm_agg_site(g, i, &s);
    wm_expr_stmt_info(e, s.site, &si);
    memset(&t, 0, sizeof t);
    wm_totals_add_site(&t, &s);
    fprintf(f,
            "\n[%u] %s\n    (%s:%u) %s %s, %u B per lane: %" PRIu64
            " warp accesses, %" PRIu64 " with active lanes\n",
            s.site + 1, si.text, ro->file ? ro->file : "", si.line,
            wm_space_name(s.space), wm_op_name(s.op), si.size,
            s.stats.inst_all, s.stats.inst);
    fprintf(f, "    %s per request: min %u  median %u  max %u  (mean %.2f)\n",
            per_request_name(s.space), s.per_request.min,
            s.per_request.median, s.per_request.max, s.per_request.mean);
    print_metric_lines(f, &t, "    ");
    const wm_access *a = wm_expr_worst(e, s.site, &w, &c);
    if (a) {
        fprintf(f, "    worst warp: ");
        print_where(f, &si, &w);
        fprintf(f, " -> %u %s\n",
                s.space == WM_SPACE_SHARED ? c.wavefronts : c.sectors,
                per_request_name(s.space));
        wm_draw_access(f, wm_agg_arch(g), a, ro->color, ro->width);
    }
    if (x && x->ok[i]) {
        fputc('\n', f);
        wm_advise_print(f, &x->adv[i], ro->color, ro->width);
    }
}

wm_status wmi_expr_text(FILE *f, const wm_expr *e, const wm_agg *g,
                        const wm_expr_report_opts *ro,
                        const wmi_expr_advice *x)
{
    const wm_arch *arch = wm_agg_arch(g);
    unsigned grid[3], block[3];
    wm_expr_launch(e, grid, block);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    uint64_t wpb = (threads + arch->warp_size - 1) / arch->warp_size;
    uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
    fprintf(f,
            "%s: grid (%u,%u,%u) x block (%u,%u,%u): %" PRIu64
            " blocks x %" PRIu64 " warps of %u = %" PRIu64 " warps\n",
            arch->name, grid[0], grid[1], grid[2], block[0], block[1],
            block[2], blocks, wpb, arch->warp_size, blocks * wpb);
    print_first_warp(f, block, arch->warp_size);
    for (size_t i = 0; i < wm_agg_nsites(g); i++)
        print_site(f, e, g, i, ro, x);
    if (wm_agg_nsites(g) > 1) {
        wm_totals all;
        wm_agg_totals(g, &all);
        fprintf(f, "\nall statements:\n");
        print_metric_lines(f, &all, "    ");
        if (x)
            print_ranking(f, e, g, x, ro->color);
    }
    if (ro->cache)
        wm_cache_report(f, ro->cache, g, WM_FMT_TEXT);
    return ferror(f) ? WM_ERR_IO : WM_OK;
}
