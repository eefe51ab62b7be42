/*
 * ptx_lint_report.c -- writers of a wm_lint result: per source line text
 * (like `run`'s report: the line's source, then each memory instruction
 * with its verdict, lines that waste bandwidth ranked worst first, the
 * advisor under them with --explain), one JSON object per kernel, or CSV
 * rows.
 *
 * Invariant: every writer walks the verdicts in the same order (source
 * line, then instruction), so text, JSON and CSV list the same things.
 */
#include "wm_int.h"

#include "ptx_lint_int.h"
#include "out_int.h"
#include "ptx_report_int.h"

#include <stdio.h>

/* The per-request figure as text: "4", "3.50" (a mean), "-" (none). */
static void figure(char *buf, size_t cap, const wm_lint_insn *v)
{
    if (v->kind != WM_LINT_EXACT && v->kind != WM_LINT_VARIES)
        snprintf(buf, cap, "-");
    else if (v->min == v->max)
        snprintf(buf, cap, "%u", v->min);
    else
        snprintf(buf, cap, "%.3g", v->per_request);
}

static int numbered(const wm_lint_insn *v)
{
    return v->kind == WM_LINT_EXACT || v->kind == WM_LINT_VARIES;
}

/* Order of verdicts: by source file/line, then instruction. */
typedef struct lrow {
    size_t i;
    const char *file;
    uint32_t line;
} lrow;

static int by_line(const void *pa, const void *pb)
{
    const lrow *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* A source line's group: [lo, hi) in the sorted rows, its worst severity
   and excess. */
typedef struct lgroup {
    size_t lo, hi;
    wm_severity sev;
    double excess;   /* summed over its instructions' requests */
    unsigned nexcess; /* instructions with an excess */
    unsigned rank;
} lgroup;

static int by_badness(const void *pa, const void *pb)
{
    const lgroup *const *a = pa, *const *b = pb;
    if ((*a)->sev != (*b)->sev)
        return (*a)->sev > (*b)->sev ? -1 : 1;
    if ((*a)->excess != (*b)->excess)
        return (*a)->excess > (*b)->excess ? -1 : 1;
    return (*a)->lo < (*b)->lo ? -1 : 1;
}

static const char *kernel_name(const wm_lint *l)
{
    return wm_ptx_kernel_pretty(l->m, l->kernel);
}

/* Rows sorted by line and their groups; caller frees both. */
static int group(const wm_lint *l, lrow **rows_out, lgroup **groups_out,
                 size_t *ngroups)
{
    lrow *rows = calloc(l->nv + 1, sizeof *rows);
    lgroup *g = calloc(l->nv + 1, sizeof *g);
    if (!rows || !g) {
        free(rows);
        free(g);
        return 0;
    }
    for (size_t i = 0; i < l->nv; i++) {
        wm_ptx_where w;
        rows[i].i = i;
        rows[i].file = "";
        if (wm_ptx_where_insn(l->m, l->v[i].insn, &w)) {
            rows[i].file = w.file;
            rows[i].line = w.line;
        }
    }
    qsort(rows, l->nv, sizeof *rows, by_line);
    size_t n = 0;
    for (size_t i = 0; i < l->nv; i++) {
        if (i == 0 || strcmp(rows[i].file, rows[i - 1].file) != 0 ||
            rows[i].line != rows[i - 1].line) {
            g[n].lo = i;
            n++;
        }
        lgroup *c = &g[n - 1];
        c->hi = i + 1;
        const wm_lint_insn *v = &l->v[rows[i].i];
        if (v->severity > c->sev)
            c->sev = v->severity;
        if (numbered(v) && v->per_request > v->ideal) {
            c->excess += v->per_request - v->ideal;
            c->nexcess++;
        }
    }
    lgroup **order = malloc((n + 1) * sizeof *order);
    if (!order) {
        free(rows);
        free(g);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = &g[i];
    qsort(order, n, sizeof *order, by_badness);
    for (size_t i = 0; i < n && order[i]->sev != WM_SEV_NONE; i++)
        order[i]->rank = (unsigned)i + 1;
    free(order);
    *rows_out = rows;
    *groups_out = g;
    *ngroups = n;
    return 1;
}

static void text_insn(FILE *f, const wm_lint *l, const wm_lint_insn *v,
                      const wm_lint_report_opts *o)
{
    wm_ptx_where w;
    char fig[32], ideal[32], worst[32];
    figure(fig, sizeof fig, v);
    if (numbered(v)) {
        snprintf(ideal, sizeof ideal, "%g", v->ideal);
        snprintf(worst, sizeof worst, "%u", v->worst);
    } else {
        snprintf(ideal, sizeof ideal, "-");
        snprintf(worst, sizeof worst, "-");
    }
    wm_ptx_where_insn(l->m, v->insn, &w);
    char what[32];
    snprintf(what, sizeof what, "%s %s.%u", wm_space_name(v->space),
             wm_op_name(v->op), v->size * 8);
    int flag = v->severity != WM_SEV_NONE && o->color;
    fprintf(f, "       %-16s %8s %6s %6s  %-14s %-12s ptx:%u %s\n", what, fig,
            ideal, worst, wm_lint_kind_name(v->kind),
            *v->stride ? v->stride : "-", w.ptx_line, w.text);
    if (*v->form)
        fprintf(f, "         %saddress = %s%s\n", flag ? "\033[2m" : "",
                v->form, flag ? "\033[0m" : "");
    if (*v->reason)
        fprintf(f, "         %s: %s\n",
                v->kind == WM_LINT_DATA ? "data-dependent" : "note", v->reason);
    if (*v->depends)
        fprintf(f, "         the lane pattern depends on: %s\n", v->depends);
    if (v->assumed)
        fprintf(f, "         assumed: a guard on unknown data holds for "
                   "every lane\n");
    if (numbered(v) && v->worst > v->max)
        fprintf(f, "         worst over misalignments: %u per request\n",
                v->worst);
    if (o->explain && v->severity != WM_SEV_NONE && numbered(v)) {
        wm_advice adv;
        if (wm_advise(&l->arch, &v->access, &adv) == WM_OK)
            wm_advise_print(f, &adv, o->color, o->width >= 40 ? o->width : 100);
    }
}

/* A cell of the block-shape table: "4", "3.50", "-". */
static void cell(char *buf, size_t cap, const wm_lint *l, size_t i, size_t s)
{
    double pr;
    uint32_t lo, hi;
    if (!wm_lint_by_shape(l, i, s, &pr, &lo, &hi))
        snprintf(buf, cap, "-");
    else if (lo == hi)
        snprintf(buf, cap, "%u", lo);
    else
        snprintf(buf, cap, "%.2f", pr);
}

/* Without --block: the instructions whose figure changes with the block
   shape, one column per shape of the table. */
static void shape_table(FILE *f, const wm_lint *l, const lrow *rows)
{
    size_t ns = wm_lint_nshapes(l), ndiff = 0;
    if (!ns)
        return;
    for (size_t r = 0; r < l->nv; r++) {
        size_t i = rows[r].i;
        char first[32], c[32];
        cell(first, sizeof first, l, i, 0);
        int same = 1;
        for (size_t s = 1; s < ns && same; s++) {
            cell(c, sizeof c, l, i, s);
            same = strcmp(c, first) == 0;
        }
        if (same)
            continue;
        if (!ndiff++) {
            fprintf(f,
                    "\nby block shape (no --block; x a multiple of 32), "
                    "per request:\n  %-30s",
                    "");
            for (size_t s = 0; s < ns; s++) {
                unsigned b[3];
                char nm[24];
                wm_lint_shape(l, s, b);
                snprintf(nm, sizeof nm, b[1] > 1 ? "%ux%u" : "%u", b[0], b[1]);
                fprintf(f, " %7s", nm);
            }
            fputc('\n', f);
        }
        wm_ptx_where w;
        const wm_lint_insn *v = &l->v[i];
        wm_ptx_where_insn(l->m, v->insn, &w);
        char what[48];
        snprintf(what, sizeof what, "ptx:%u %s %s.%u", w.ptx_line,
                 wm_space_name(v->space), wm_op_name(v->op), v->size * 8);
        fprintf(f, "  %-30s", what);
        for (size_t s = 0; s < ns; s++) {
            cell(c, sizeof c, l, i, s);
            fprintf(f, " %7s", c);
        }
        fputc('\n', f);
    }
    if (!ndiff) {
        unsigned a[3], b[3];
        wm_lint_shape(l, 0, a);
        wm_lint_shape(l, ns - 1, b);
        fprintf(f,
                "\nevery figure is the same for the %zu block shapes "
                "tried (%ux%u to %ux%u).\n",
                ns, a[0], a[1], b[0], b[1]);
    }
}

/* The profile line of the header and JSON: where it came from when the
   caller says, else its name. */
static const char *profile_of(const wm_lint *l, const wm_lint_report_opts *o)
{
    return o->profile ? o->profile : l->arch.name;
}

static void text_report(FILE *f, const wm_lint *l, const wm_lint_report_opts *o,
                        const lrow *rows, const lgroup *g, size_t ng,
                        const wmi_sources *src)
{
    fprintf(f,
            "kernel %s: lint for block %ux%ux%u, %zu memory instruction%s "
            "(nothing run)\n",
            kernel_name(l), l->block[0], l->block[1], l->block[2], l->nv,
            l->nv == 1 ? "" : "s");
    fprintf(f,
            "pointers 256-byte aligned; scalar parameters %d unless "
            "--param; ctaid 0, first iteration\n",
            WM_LINT_DEFAULT_SCALAR);
    fprintf(f, "profile %s\n\n", profile_of(l, o));
    fprintf(f, "     %-22s %8s %6s %6s  %-14s %-12s\n", "line", "per-req",
            "ideal", "worst", "verdict", "stride(B)");
    for (size_t k = 0; k < ng; k++) {
        const lrow *r = &rows[g[k].lo];
        char loc[300], rank[16] = "";
        const char *base = strrchr(r->file, '/');
        if (r->line)
            snprintf(loc, sizeof loc, "%s:%u", base ? base + 1 : r->file,
                     r->line);
        else
            snprintf(loc, sizeof loc, "(no line)");
        if (g[k].rank)
            snprintf(rank, sizeof rank, "#%u", g[k].rank);
        const char *text =
            r->line && src ? wmi_sources_line(src, r->file, r->line) : NULL;
        fprintf(f, "%-4s %-22s %s\n", rank, loc, text ? text : "");
        for (size_t i = g[k].lo; i < g[k].hi; i++)
            text_insn(f, l, &l->v[rows[i].i], o);
    }
    shape_table(f, l, rows);
    fprintf(f, "\n  per-req: sectors (global/local) or wavefronts (shared) "
               "per request for the\n  block's warps; worst: over the "
               "misalignments ctaid, scalars and loops allow.\n");
    int any = 0;
    for (unsigned rk = 1; rk <= ng; rk++)
        for (size_t k = 0; k < ng; k++) {
            if (g[k].rank != rk)
                continue;
            const lrow *r = &rows[g[k].lo];
            const char *base = strrchr(r->file, '/');
            if (!any)
                fprintf(f, "\nlines that waste bandwidth, worst first:\n");
            any = 1;
            fprintf(f, "  #%u %s:%u  %s, ", rk, base ? base + 1 : r->file,
                    r->line, wm_severity_name(g[k].sev));
            /* a line of several flagged instructions: their sum, said */
            if (g[k].nexcess > 1)
                fprintf(f, "%.2f excess summed over %u instructions (%.2f "
                           "per request on average)\n",
                        g[k].excess, g[k].nexcess,
                        g[k].excess / g[k].nexcess);
            else
                fprintf(f, "%.2f excess per request\n", g[k].excess);
        }
    if (!any)
        fprintf(f, "\nno memory instruction flagged.\n");
}

/* One instruction: a JSON object, or a CSV row of the same table for
 * every kernel (wmi_out). */
static void emit_insn(wmi_out *o, const wm_lint *l, const wm_lint_insn *v,
                      const char *file, uint32_t line, int explain)
{
    wm_ptx_where w;
    wm_ptx_where_insn(l->m, v->insn, &w);
    int num = numbered(v);
    wmi_out_row(o, NULL);
    if (o->csv)
        wmi_out_str(o, "kernel", wm_ptx_kernel_name(l->m, l->kernel));
    else
        wmi_out_uint(o, "insn", v->insn);
    if (!o->csv)
        wmi_out_uint(o, "ptx_line", w.ptx_line);
    wmi_out_str(o, "file", file);
    wmi_out_uint(o, "line", line);
    if (o->csv)
        wmi_out_uint(o, "ptx_line", w.ptx_line);
    else
        wmi_out_str(o, "text", w.text);
    wmi_out_str(o, "space", wm_space_name(v->space));
    wmi_out_str(o, "op", wm_op_name(v->op));
    wmi_out_uint(o, "size", v->size);
    wmi_out_str(o, "verdict", wm_lint_kind_name(v->kind));
    wmi_out_str(o, "severity", wm_severity_name(v->severity));
    if (o->csv) {
        /* the table's columns: empty where the lint gives no number */
        if (num) {
            wmi_out_num(o, "per_request", v->per_request);
            wmi_out_uint(o, "min", v->min);
            wmi_out_uint(o, "max", v->max);
            wmi_out_uint(o, "worst", v->worst);
            wmi_out_num(o, "ideal", v->ideal);
        } else {
            static const char *const cols[] = {"per_request", "min", "max",
                                               "worst", "ideal"};
            for (size_t i = 0; i < WM_ARRAY_LEN(cols); i++)
                wmi_out_null(o, cols[i]);
        }
        wmi_out_str(o, "stride", v->stride);
        wmi_out_str(o, "address", v->form);
        wmi_out_str(o, "reason", v->reason);
        wmi_out_row_end(o);
        return;
    }
    wmi_out_str(o, "address", v->form);
    wmi_out_str(o, "stride", v->stride);
    wmi_out_str(o, "reason", v->reason);
    wmi_out_str(o, "depends", v->depends);
    wmi_out_bool(o, "assumed", v->assumed);
    if (num) {
        wmi_out_uint(o, "warps", v->warps);
        wmi_out_num(o, "per_request", v->per_request);
        wmi_out_uint(o, "min", v->min);
        wmi_out_uint(o, "max", v->max);
        wmi_out_uint(o, "worst", v->worst);
        wmi_out_num(o, "ideal", v->ideal);
    }
    size_t vi = (size_t)(v - l->v);
    if (wm_lint_nshapes(l)) {
        wmi_out_arr(o, "by_block");
        for (size_t s = 0; s < wm_lint_nshapes(l); s++) {
            unsigned b[3];
            double pr;
            wm_lint_shape(l, s, b);
            wmi_out_obj(o, NULL);
            wmi_out_uints(o, "block", b, 3);
            if (wm_lint_by_shape(l, vi, s, &pr, NULL, NULL))
                wmi_out_num(o, "per_request", pr);
            else
                wmi_out_null(o, "per_request");
            wmi_out_end(o);
        }
        wmi_out_end(o);
    }
    if (explain && num && v->severity != WM_SEV_NONE) {
        wm_advice adv;
        if (wm_advise(&l->arch, &v->access, &adv) == WM_OK)
            wmi_advise_emit(o, "advice", &adv);
    }
    wmi_out_row_end(o);
}

wm_status wm_lint_report(FILE *f, const wm_lint *l,
                         const wm_lint_report_opts *o, int header)
{
    wm_lint_report_opts dflt;
    if (!o) {
        memset(&dflt, 0, sizeof dflt);
        o = &dflt;
    }
    lrow *rows;
    lgroup *g;
    size_t ng;
    if (!group(l, &rows, &g, &ng))
        return WM_ERR_NOMEM;
    wmi_sources src;
    int have_src = o->format == WM_FMT_TEXT;
    if (have_src && !wmi_sources_load(&src, l->m, o->ptx_path)) {
        free(rows);
        free(g);
        return WM_ERR_NOMEM;
    }
    if (o->format == WM_FMT_TEXT) {
        text_report(f, l, o, rows, g, ng, have_src ? &src : NULL);
    } else {
        /* JSON: one document per kernel; CSV: rows of one table, the
           header with the first kernel only */
        wmi_out out;
        wmi_out_init(&out, f, o->format != WM_FMT_JSON);
        out.quiet_head = !header;
        wmi_doc_begin(&out, "lint", l->arch.name,
                      wm_ptx_kernel_name(l->m, l->kernel));
        wmi_out_str(&out, "profile", profile_of(l, o));
        wmi_out_uints(&out, "block", l->block, 3);
        wmi_out_str(&out, "worst", wm_severity_name(wm_lint_worst(l)));
        wmi_out_arr(&out, "instructions");
        for (size_t i = 0; i < l->nv; i++)
            emit_insn(&out, l, &l->v[rows[i].i], rows[i].file, rows[i].line,
                      o->explain);
        wmi_out_end(&out);
        wmi_out_end(&out);
        if (!out.csv)
            fputc('\n', f);
        wmi_out_finish(&out);
    }
    if (have_src)
        wmi_sources_free(&src);
    free(rows);
    free(g);
    return WM_OK;
}
