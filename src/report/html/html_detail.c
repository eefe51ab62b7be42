/*
 * html_detail.c -- the HTML report's section per source line, reached
 * from the line's row on the source page: the source text, and per space
 * and op the line uses (the line's instructions merged, the worst problem
 * first) the numbers, the lane picture of the worst warp, the advice with
 * its what-ifs and the picture after the first fix (wm_html_site).
 */
#include "html_int.h"
#include "ptx_report_int.h"

static int cmp_excess(const void *x, const void *y)
{
    const wmi_line_advice *a = x, *b = y;
    if (a->adv.share != b->adv.share)
        return a->adv.share > b->adv.share ? -1 : 1;
    return (a->adv.excess < b->adv.excess) - (a->adv.excess > b->adv.excess);
}

static void detail(wm_html *h, FILE *f, const wmi_hpage *p,
                   const wmi_hline *l)
{
    char id[64], sid[64], where[300];
    wmi_hline_id(id, sizeof id, l, p, 'd');
    wmi_hline_id(sid, sizeof sid, l, p, 's');
    wmi_hline_where(where, sizeof where, l, p);
    fprintf(f, "<section class=\"line\" id=\"%s\">\n<h2><a href=\"#%s\">",
            id, sid);
    wmi_html_escape(f, where);
    fputs("</a>", f);
    if (l->rank)
        fprintf(f, " <span class=\"muted\">#%d worst</span>", l->rank);
    fputs("</h2>\n", f);
    const char *t = wmi_hpage_text(p, l->file, l->line, NULL);
    if (t) {
        while (*t == ' ' || *t == '\t')
            t++;
        fputs("<pre class=\"src\">", f);
        if (l->line)
            fprintf(f, "<span class=\"ln\">%u</span>", l->line);
        wmi_html_escape(f, t);
        fputs("</pre>\n", f);
    }
    wmi_line_advice la[WM_NSPACES * WM_NOPS];
    size_t k = wmi_line_advise(p->arch, &p->sites[l->first], l->count, &p->t,
                               la, WM_NSPACES * WM_NOPS);
    qsort(la, k, sizeof *la, cmp_excess); /* the worst problem first */
    for (size_t j = 0; j < k; j++) {
        if (la[j].members > 1)
            fprintf(f, "<p class=\"muted\">%s %s: %zu instructions of this "
                       "line merged; the pictures show the worst warp of "
                       "any of them.</p>\n",
                    wm_space_name(la[j].merged.space),
                    wm_op_name(la[j].merged.op), la[j].members);
        wm_html_site(h, p->arch, &la[j].merged, &p->t, NULL);
    }
    fputs("</section>\n", f);
}

size_t wmi_html_details(wm_html *h, const wmi_hpage *p, size_t max)
{
    FILE *f = h->f;
    size_t shown = 0, total = p->nlines;
    fputs("<h2 id=\"details\">Lines in detail</h2>\n", f);
    /* in dpos order: the ranked lines first, then the rest in source
       order */
    for (size_t i = 0; i < p->nranked && (!max || shown < max); i++, shown++)
        detail(h, f, p, p->ranked[i]);
    for (size_t i = 0; i < p->nlines && (!max || shown < max); i++)
        if (!p->lines[i].rank) {
            detail(h, f, p, &p->lines[i]);
            shown++;
        }
    if (shown < total)
        fprintf(f, "<p class=\"muted\">%zu more line%s not shown.</p>\n",
                total - shown, total - shown == 1 ? "" : "s");
    return shown;
}
