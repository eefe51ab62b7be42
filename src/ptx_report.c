/*
 * ptx_report.c -- the per-source-line report of an interpreted kernel:
 * sites (PTX memory instructions) grouped by their source file:line, the
 * source text when the file can be found, the lines that waste sectors or
 * conflict on banks ranked worst first, a lane map of the worst warp of the
 * top sites, and the kernel totals under Nsight Compute metric names.
 * Text, JSON or CSV.  Only formatting lives here: the numbers come from the
 * aggregator.
 */
#define _POSIX_C_SOURCE 200809L
#include "ptx_report_int.h"

#include <stdio.h>

/* Sites of one source line. */
typedef struct line_group {
    const char *file;
    uint32_t line;
    size_t first, count; /* range in the sorted site array */
    wm_stats sum;
    uint64_t waste; /* excessive sectors + conflicts: the ranking key */
    double share;   /* with explain: the largest excessive share of the
                       line's sites, ranked first (ncu's rule size) */
    wm_severity sev;
    int rank;       /* 1 = worst; 0 = not wasteful */
} line_group;

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

static void json_stats(FILE *f, const wm_stats *s)
{
    fprintf(f,
            "{\"executions\": %llu, \"active_lanes\": %llu, \"requests\": %llu, "
            "\"bytes\": %llu, \"sectors\": %llu, \"ideal_sectors\": %llu, "
            "\"excessive_sectors\": %llu, \"wavefronts\": %llu, "
            "\"ideal_wavefronts\": %llu, \"conflicts\": %llu}",
            (unsigned long long)s->inst, (unsigned long long)s->active_lanes,
            (unsigned long long)s->requests, (unsigned long long)s->bytes,
            (unsigned long long)s->sectors, (unsigned long long)s->ideal_sectors,
            (unsigned long long)s->excessive_sectors,
            (unsigned long long)s->wavefronts,
            (unsigned long long)s->ideal_wavefronts,
            (unsigned long long)s->conflicts);
}

/* The totals of the whole grid estimated from a sample: every count
   times k (ratios of counts stay as they were, up to rounding). */
static void scale_totals(const wm_totals *t, double k, wm_totals *out)
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

/* The factor from the CTAs run to the grid; 0 when every CTA ran. */
static double estimate_scale(const wm_ptx_result *res)
{
    if (!res || !res->sampled || !res->ctas_run)
        return 0.0;
    return (double)res->ctas_total / (double)res->ctas_run;
}

/* The per-request figure of a space and op: its unit and the Nsight
   Compute metric (or quotient of metrics) it stands for. */
static const char *per_request_unit(wm_space sp)
{
    return sp == WM_SPACE_SHARED ? "wavefronts/request" : "sectors/request";
}

static void per_request_ncu(char *buf, size_t n, wm_space sp, wm_op op)
{
    const char *s = wm_space_name(sp), *o = wm_op_name(op);
    if (sp == WM_SPACE_SHARED)
        snprintf(buf, n, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"
                         " / smsp__sass_inst_executed_op_shared_%s.sum", o, o);
    else if (op == WM_OP_LD || op == WM_OP_ST)
        snprintf(buf, n, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_"
                         "%s_op_%s.ratio", s, o);
    else
        snprintf(buf, n, "l1tex__t_sectors_pipe_lsu_mem_%s_op_%s.sum / "
                         "l1tex__t_requests_pipe_lsu_mem_%s_op_%s.sum",
                 s, o, s, o);
}

/* The fault as a JSON object. */
static void json_fault(FILE *f, const wm_ptx_module *m,
                       const wm_ptx_report_opts *o)
{
    const wm_ptx_fault *ft = o->fault;
    wm_ptx_where w;
    int have = wm_ptx_where_insn(m, ft->insn, &w);
    char msg[400];
    snprintf(msg, sizeof msg, "%s%s", ft->msg, o->fault_hint ? o->fault_hint : "");
    /* the kind of fault by the message's start (one table, so a program
       can switch on it); else the message's first word */
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
    char kind[40];
    size_t kl = strcspn(ft->msg, " :");
    snprintf(kind, sizeof kind, "%.*s", (int)(kl < 39 ? kl : 39), ft->msg);
    for (size_t i = 0; i < WM_ARRAY_LEN(kinds); i++)
        if (strncmp(ft->msg, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
            snprintf(kind, sizeof kind, "%s", kinds[i].kind);
    if (strstr(ft->msg, "membermask"))
        snprintf(kind, sizeof kind, "membermask");
    fprintf(f, "{\"status\": \"%s\", \"kind\": ",
            ft->status == WM_ERR_LIMIT         ? "error"
            : ft->status == WM_ERR_UNSUPPORTED ? "unsupported"
                                               : "fault");
    wm_json_string(f, kind);
    fputs(", \"message\": ", f);
    wm_json_string(f, msg);
    fprintf(f, ", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], "
               "\"warp\": %u, \"lane\": %u, \"ptx_line\": %u, \"ptx\": ",
            ft->cta[0], ft->cta[1], ft->cta[2], ft->thread[0], ft->thread[1],
            ft->thread[2], ft->warp, ft->lane, ft->ptx_line);
    if (have)
        wm_json_string(f, w.text);
    else
        fputs("null", f);
    fputs(", \"source\": ", f);
    if (ft->line) {
        char where[512];
        snprintf(where, sizeof where, "%s:%u", ft->file, ft->line);
        wm_json_string(f, where);
    } else {
        fputs("null", f);
    }
    if (ft->has_addr) {
        fprintf(f, ", \"space\": \"%s\", \"address\": %llu",
                wm_space_name((wm_space)ft->space),
                (unsigned long long)ft->addr);
        if (ft->buf >= 0)
            fprintf(f, ", \"buffer\": {\"argument\": %ld, \"offset\": %llu, "
                       "\"bytes\": %llu}",
                    ft->buf,
                    (unsigned long long)(ft->addr & ((1ull << 40) - 1)),
                    (unsigned long long)ft->bound);
        else
            fprintf(f, ", \"bound\": %llu", (unsigned long long)ft->bound);
    }
    fputc('}', f);
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
    const line_group *a = *(const line_group *const *)x;
    const line_group *b = *(const line_group *const *)y;
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

wm_status wm_ptx_report(FILE *f, const wm_ptx_module *m, const wm_agg *g,
                        const wm_ptx_report_opts *o)
{
    wm_status st = WM_OK;
    size_t n = wm_agg_nsites(g);
    wm_site *sites = calloc(n ? n : 1, sizeof *sites);
    line_group *groups = calloc(n ? n : 1, sizeof *groups);
    line_group **ranked = calloc(n ? n : 1, sizeof *ranked);
    wmi_sources files = {NULL, 0};
    size_t ngroups = 0, nranked = 0;
    wm_totals tot;
    const wm_ptx_result *res = o->res;
    if (!sites || !groups || !ranked) {
        st = WM_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        wm_agg_site(g, i, &sites[i]);
    if (o->format == WM_FMT_TEXT)
        by_call_site(m, sites, n);
    qsort(sites, n, sizeof *sites, site_cmp);
    for (size_t i = 0; i < n; i++) {
        line_group *lg = ngroups ? &groups[ngroups - 1] : NULL;
        if (!lg || strcmp(lg->file, sites[i].file) != 0 ||
            lg->line != sites[i].line) {
            lg = &groups[ngroups++];
            lg->file = sites[i].file;
            lg->line = sites[i].line;
            lg->first = i;
        }
        lg->count++;
        wmi_stats_add(&lg->sum, &sites[i].stats);
    }
    wm_agg_totals(g, &tot);
    for (size_t i = 0; i < ngroups; i++) {
        line_group *lg = &groups[i];
        lg->waste = lg->sum.excessive_sectors + lg->sum.conflicts;
        if (!lg->waste)
            continue;
        ranked[nranked++] = lg;
        if (!o->explain)
            continue;
        wmi_line_advice la[WM_NSPACES * WM_NOPS];
        size_t k = wmi_line_advise(wm_agg_arch(g), &sites[lg->first],
                                   lg->count, &tot, la, WM_NSPACES * WM_NOPS);
        for (size_t j = 0; j < k; j++) {
            if (la[j].adv.share > lg->share)
                lg->share = la[j].adv.share;
            if (la[j].adv.severity > lg->sev)
                lg->sev = la[j].adv.severity;
        }
    }
    qsort(ranked, nranked, sizeof *ranked, cmp_rank);
    for (size_t i = 0; i < nranked; i++)
        ranked[i]->rank = (int)i + 1;
    if ((o->format == WM_FMT_TEXT || o->format == WM_FMT_JSON) &&
        !wmi_sources_load(&files, m, o->ptx_path)) {
        st = WM_ERR_NOMEM;
        goto done;
    }

    if (o->format == WM_FMT_CSV) {
        fprintf(f, "file,line,ptx_line,ptx,space,op,size,executions,"
                   "active_lanes,requests,sectors,ideal_sectors,"
                   "excessive_sectors,wavefronts,ideal_wavefronts,conflicts\n");
        for (size_t i = 0; i < n; i++) {
            const wm_site *s = &sites[i];
            wm_ptx_where w;
            memset(&w, 0, sizeof w);
            w.text = "";
            wm_ptx_where_insn(m, s->site, &w);
            wmi_csv_string(f, s->file);
            fprintf(f, ",%u,%u,", s->line, w.ptx_line);
            wmi_csv_string(f, w.text);
            fprintf(f, ",%s,%s,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
                    wm_space_name(s->space), wm_op_name(s->op), s->size,
                    (unsigned long long)s->stats.inst,
                    (unsigned long long)s->stats.active_lanes,
                    (unsigned long long)s->stats.requests,
                    (unsigned long long)s->stats.sectors,
                    (unsigned long long)s->stats.ideal_sectors,
                    (unsigned long long)s->stats.excessive_sectors,
                    (unsigned long long)s->stats.wavefronts,
                    (unsigned long long)s->stats.ideal_wavefronts,
                    (unsigned long long)s->stats.conflicts);
        }
        double k = estimate_scale(res);
        for (int e = 0; e < 2; e++) {
            /* a sample: the totals as counted and estimated for the grid */
            wm_totals est;
            if (k == 0.0)
                break;
            if (e)
                scale_totals(&tot, k, &est);
            else
                est = tot;
            for (int sp = 0; sp < WM_NSPACES; sp++)
                for (int op = 0; op < WM_NOPS; op++) {
                    const wm_stats *t = &est.s[sp][op];
                    if (!t->inst_all)
                        continue;
                    fprintf(f, "\"%s\",0,0,\"\",%s,%s,0,%llu,%llu,%llu,%llu,"
                               "%llu,%llu,%llu,%llu,%llu\n",
                            e ? "(total, estimated)" : "(total, counted)",
                            wm_space_name((wm_space)sp), wm_op_name((wm_op)op),
                            (unsigned long long)t->inst,
                            (unsigned long long)t->active_lanes,
                            (unsigned long long)t->requests,
                            (unsigned long long)t->sectors,
                            (unsigned long long)t->ideal_sectors,
                            (unsigned long long)t->excessive_sectors,
                            (unsigned long long)t->wavefronts,
                            (unsigned long long)t->ideal_wavefronts,
                            (unsigned long long)t->conflicts);
                }
        }
        goto done;
    }

    if (o->format == WM_FMT_JSON) {
        fputs("{\"kernel\": ", f);
        wm_json_string(f, o->kernel ? o->kernel : "");
        fputs(", \"level\": \"ptx\"", f);
        if (o->arch) {
            fputs(", \"arch\": ", f);
            wm_json_string(f, o->arch);
        }
        if (res)
            fprintf(f, ", \"ctas_run\": %llu, \"ctas_total\": %llu, "
                       "\"sampled\": %s, \"warp_instructions\": %llu, "
                       "\"thread_instructions\": %llu",
                    (unsigned long long)res->ctas_run,
                    (unsigned long long)res->ctas_total,
                    res->sampled ? "true" : "false",
                    (unsigned long long)res->warp_insts,
                    (unsigned long long)res->thread_insts);
        fputs(", \"lines\": [", f);
        for (size_t i = 0; i < ngroups; i++) {
            const line_group *lg = &groups[i];
            const char *src = wmi_sources_line(&files, lg->file, lg->line);
            fputs(i ? ",\n  {" : "\n  {", f);
            fputs("\"file\": ", f);
            wm_json_string(f, lg->file);
            fprintf(f, ", \"line\": %u, \"source\": ", lg->line);
            if (src)
                wm_json_string(f, src);
            else
                fputs("null", f);
            fprintf(f, ", \"rank\": %d, \"stats\": ", lg->rank);
            json_stats(f, &lg->sum);
            /* one entry per (space, op) of the line, as the text rows */
            fputs(", \"accesses\": [", f);
            int na = 0;
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
                    fprintf(f, "%s{\"space\": \"%s\", \"op\": \"%s\", "
                               "\"per_request_metric\": \"%s\", \"per_request\": "
                               "%.4f, \"stats\": ",
                            na++ ? ", " : "", wm_space_name((wm_space)sp),
                            wm_op_name((wm_op)op),
                            per_request_unit((wm_space)sp),
                            sp == WM_SPACE_SHARED
                                ? per(sum.wavefronts, sum.requests)
                                : per(sum.sectors, sum.requests));
                    json_stats(f, &sum);
                    fputc('}', f);
                }
            fputs("], \"instructions\": [", f);
            for (size_t k = 0; k < lg->count; k++) {
                const wm_site *s = &sites[lg->first + k];
                wm_ptx_where w;
                wm_ptx_where_insn(m, s->site, &w);
                fprintf(f, "%s{\"site\": %u, \"ptx_line\": %u, \"ptx\": ",
                        k ? ", " : "", s->site, w.ptx_line);
                wm_json_string(f, w.text);
                fprintf(f, ", \"space\": \"%s\", \"op\": \"%s\", \"size\": %u",
                        wm_space_name(s->space), wm_op_name(s->op), s->size);
                char ncu[200];
                per_request_ncu(ncu, sizeof ncu, s->space, s->op);
                fprintf(f, ", \"per_request_metric\": \"%s\", "
                           "\"per_request_ncu\": \"%s\"",
                        per_request_unit(s->space), ncu);
                if (w.near_line)
                    fprintf(f, ", \"hoisted_after_line\": %u", w.near_line);
                if (w.call_line) {
                    fputs(", \"call_file\": ", f);
                    wm_json_string(f, w.call_file);
                    fprintf(f, ", \"call_line\": %u", w.call_line);
                }
                if (*w.inl_file) {
                    fputs(", \"inlined_from\": ", f);
                    wm_json_string(f, w.inl_file);
                    fprintf(f, ", \"inlined_line\": %u", w.inl_line);
                }
                fputs(", \"stats\": ", f);
                json_stats(f, &s->stats);
                fprintf(f, ", \"per_request\": {\"min\": %u, \"median\": %u, "
                           "\"max\": %u, \"mean\": %.4f}",
                        s->per_request.min, s->per_request.median,
                        s->per_request.max, s->per_request.mean);
                wm_advice adv;
                if (o->explain &&
                    wm_advise_site(wm_agg_arch(g), s, &tot, &adv) == WM_OK) {
                    fputs(", \"advice\": ", f);
                    wm_advise_json(f, &adv);
                }
                fputc('}', f);
            }
            fputs("]}", f);
        }
        fputs("],\n \"metrics\": ", f);
        wm_json_metrics(f, &tot);
        double k = estimate_scale(res);
        if (k != 0.0) {
            /* sampled: the counts above cover the CTAs run; these are
               extrapolated to the grid */
            wm_totals est;
            scale_totals(&tot, k, &est);
            fprintf(f, ",\n \"estimate_scale\": %.6g, \"metrics_estimated\": ",
                    k);
            wm_json_metrics(f, &est);
        }
        if (o->fault) {
            fputs(",\n \"fault\": ", f);
            json_fault(f, m, o);
        }
        if (o->nwritten) {
            fputs(",\n \"outputs_written\": [", f);
            for (size_t i = 0; i < o->nwritten; i++) {
                fputs(i ? ", " : "", f);
                wm_json_string(f, o->written[i]);
            }
            fputc(']', f);
        }
        fputs("}\n", f);
        goto done;
    }

    /* text */
    fprintf(f, "kernel %s", o->kernel ? o->kernel : "?");
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
    if (o->arch)
        fprintf(f, "\nprofile %s", o->arch);
    if (o->fault)
        fputs("\nstopped by a fault (on stderr): the numbers cover the work "
              "before it", f);
    fputs("\nPTX-level numbers: ptxas may merge, split or predicate memory "
          "instructions,\nso requests can differ from Nsight Compute's "
          "SASS-level counts.\n\n",
          f);
    fprintf(f, "%-4s %-24s %-10s %9s %8s %8s %9s %9s  %s\n", "", "line",
            "access", "requests", "per-req", "ideal", "excess", "conflicts",
            "per-req metric");
    for (size_t i = 0; i < ngroups; i++) {
        const line_group *lg = &groups[i];
        char mark[8] = "";
        if (lg->rank)
            snprintf(mark, sizeof mark, "#%d", lg->rank);
        char where[64];
        if (lg->line)
            snprintf(where, sizeof where, "%s:%u", base_name(lg->file), lg->line);
        else
            snprintf(where, sizeof where, "%s",
                     *lg->file ? "no line (hoisted)" : "(no line info)");
        /* one row per (space, op) of the line, each with its own
           per-request metric */
        const char *src = wmi_sources_line(&files, lg->file, lg->line);
        int row = 0;
        for (int sp = 0; sp < WM_NSPACES; sp++)
            for (int op = 0; op < WM_NOPS; op++) {
                wm_stats sum;
                memset(&sum, 0, sizeof sum);
                int any = 0;
                for (size_t k = 0; k < lg->count; k++) {
                    const wm_site *s = &sites[lg->first + k];
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
                fprintf(f, "%-4s %-24s %-10s ", row ? "" : mark,
                        row ? "" : where, acc);
                text_numbers(f, &sum, sp == WM_SPACE_SHARED);
                if (src && !row)
                    fprintf(f, "  %-18s %s", per_request_unit((wm_space)sp),
                            src);
                else
                    fprintf(f, "  %s", per_request_unit((wm_space)sp));
                fputc('\n', f);
                row++;
            }
        for (size_t k = 0; k < lg->count; k++) {
            const wm_site *s = &sites[lg->first + k];
            wm_ptx_where w;
            wm_ptx_where_insn(m, s->site, &w);
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
            if (w.call_line && (w.call_line != w.line ||
                                strcmp(w.call_file, w.file) != 0))
                fprintf(f, "  [in %s:%u]", base_name(w.file), w.line);
            fputc('\n', f);
        }
    }
    fputs("\n  per-req: sectors per request (global/local) or wavefronts per "
          "request (shared);\n  ideal: the same for perfectly packed lanes; "
          "excess: sectors beyond ideal.\n",
          f);
    if (nranked) {
        fputs(o->explain ? "\nlines that waste bandwidth, worst excessive "
                           "share first:\n"
                         : "\nlines that waste bandwidth, worst first:\n",
              f);
        for (size_t i = 0; i < nranked; i++) {
            const line_group *lg = ranked[i];
            fprintf(f, "  #%d %s:%u  %llu excessive sectors, %llu bank "
                       "conflicts",
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
        for (size_t i = 0; i < nranked; i++) {
            const line_group *lg = ranked[i];
            if (drawn >= o->draw_top && !o->explain)
                break;
            const wm_site *worst = NULL;
            uint64_t wv = 0;
            for (size_t k = 0; k < lg->count; k++) {
                const wm_site *s = &sites[lg->first + k];
                uint64_t v = s->stats.excessive_sectors + s->stats.conflicts;
                if (s->worst && (!worst || v > wv)) {
                    worst = s;
                    wv = v;
                }
            }
            if (!worst)
                continue;
            wm_ptx_where w;
            wm_ptx_where_insn(m, worst->site, &w);
            if (drawn < o->draw_top) {
                fprintf(f, "\nworst warp of #%d (%s:%u, ptx:%u %s):\n",
                        lg->rank, base_name(lg->file), lg->line, w.ptx_line,
                        w.text);
                wm_draw_access(f, wm_agg_arch(g), worst->worst, o->color,
                               o->width < 60 ? 60 : o->width);
                drawn++;
            } else {
                fprintf(f, "\n#%d %s:%u:\n", lg->rank, base_name(lg->file),
                        lg->line);
            }
            if (o->explain)
                explain_line(f, m, g, &sites[lg->first], lg->count, &tot, o, 1);
        }
    } else if (n) {
        fputs("\nno line wastes sectors or conflicts on banks.\n", f);
    }
    if (o->explain) {
        /* Lines that waste nothing may still take more instructions than
           needed (narrow accesses); list what the advisor proposes. */
        int header = 0;
        for (size_t i = 0; i < ngroups; i++) {
            const line_group *lg = &groups[i];
            if (lg->rank)
                continue;
            wmi_line_advice la[WM_NSPACES * WM_NOPS];
            size_t k = wmi_line_advise(wm_agg_arch(g), &sites[lg->first],
                                       lg->count, &tot, la,
                                       WM_NSPACES * WM_NOPS);
            size_t nfix = 0;
            for (size_t j = 0; j < k; j++)
                nfix += la[j].adv.nfixes;
            if (!nfix)
                continue;
            if (!header)
                fputs("\nlines without excess that the advisor would still "
                      "change:\n",
                      f);
            header = 1;
            fprintf(f, "\n%s:%u:\n", base_name(lg->file), lg->line);
            explain_line(f, m, g, &sites[lg->first], lg->count, &tot, o, 0);
        }
    }
    double k = estimate_scale(res);
    wm_totals est;
    if (k != 0.0) {
        scale_totals(&tot, k, &est);
        fprintf(f, "\nkernel totals (Nsight Compute names, PTX level): counted "
                   "over %llu CTAs, and estimated for all %llu (x %.2f):\n",
                (unsigned long long)res->ctas_run,
                (unsigned long long)res->ctas_total, k);
        fprintf(f, "  %-72s %14s %14s\n", "", "counted", "estimated");
    } else {
        fputs("\nkernel totals (Nsight Compute names, PTX level):\n", f);
    }
    for (size_t i = 0; i < wm_metric_count(); i++) {
        if (!wm_metric_relevant(&tot, i))
            continue;
        double v = wm_metric_value(&tot, i);
        int cnt = wm_metric_is_count(i);
        fprintf(f, cnt ? "  %-72s %14.0f" : "  %-72s %14.2f", wm_metric_name(i),
                v);
        if (k != 0.0)
            fprintf(f, cnt ? " %14.0f" : " %14.2f", wm_metric_value(&est, i));
        fputc('\n', f);
    }
done:
    wmi_sources_free(&files);
    free(sites);
    free(groups);
    free(ranked);
    return st;
}
