/*
 * html_summary.c -- the first screen of the HTML report: what ran (kernel,
 * launch, profile) and the worst lines, each with what is wrong, how bad
 * (severity and the excessive share that sizes it, docs/advisor.md) and
 * the best fix with its what-if numbers.  The block sits between
 * <!-- summary --> markers so tests can pin it.
 */
#include "html_int.h"
#include "advise_int.h"
#include "ptx_report_int.h"

#define TOP_FINDINGS 3

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static void header_row(FILE *f, const char *name, const char *value)
{
    fprintf(f, "<tr><th>%s</th><td class=\"l\">", name);
    wmi_html_escape(f, value);
    fputs("</td></tr>\n", f);
}

static void header(FILE *f, const wmi_hpage *p)
{
    const wm_arch *a = p->arch;
    char prof[320];
    snprintf(prof, sizeof prof,
             "%s: %u lanes, %u-byte sectors, %u-byte lines, %u banks of %u "
             "bytes",
             p->o.arch ? p->o.arch : a->name, a->warp_size, a->sector_bytes,
             a->line_bytes, a->banks, a->bank_bytes);
    fputs("<table class=\"hdr\">\n", f);
    if (p->o.kernel)
        header_row(f, "kernel", p->o.kernel);
    if (p->o.launch)
        header_row(f, "launch", p->o.launch);
    header_row(f, "profile", prof);
    fputs("</table>\n", f);
}

/* "transpose.cu:47" or "ptx:125 ld.shared.f32 ..." for a line 0 row. */
void wmi_hline_where(char *buf, size_t n, const wmi_hline *l,
                     const wmi_hpage *p)
{
    if (l->line && *l->file)
        snprintf(buf, n, "%s:%u", base_name(l->file), l->line);
    else if (l->line)
        snprintf(buf, n, "line %u", l->line);
    else
        snprintf(buf, n, "site %u", p->sites[l->first].site);
}

/* One problem of a finding: what, how bad, the fix. */
static void problem(FILE *f, const wmi_line_advice *la)
{
    const wm_advice *v = &la->adv;
    const char *unit = wmi_advise_unit(v->space);
    fprintf(f, "<li><span class=\"badge sev-%s\">%s</span><b>%s %s:</b> ",
            wm_severity_name(v->severity), wm_severity_name(v->severity),
            wm_space_name(v->space), wm_op_name(v->op));
    wmi_html_escape(f, v->headline);
    fprintf(f, ". <span class=\"bad\">%llu excessive %s: %.0f%% of the "
               "kernel's %llu %s %s</span>",
            (unsigned long long)v->excess, unit, v->share * 100.0,
            (unsigned long long)v->total, wm_space_name(v->space), unit);
    if (v->nfixes) {
        char what[192];
        wmi_advise_outcome(&v->fixes[0], "\xe2\x86\x92", what, sizeof what);
        fputs("<br/><b>Fix:</b> ", f);
        wmi_html_escape(f, v->fixes[0].text);
        fputs(": <b class=\"num\">", f);
        wmi_html_escape(f, what);
        fputs("</b>", f);
    } else {
        fputs("<br/><span class=\"muted\">No fix the advisor tries lowers "
              "the count.</span>",
              f);
    }
    fputs("</li>\n", f);
}

/* Source text with its runs of blanks made one (statements align their
 * columns with spaces) and the ends trimmed. */
static void code_squeezed(FILE *f, const char *t)
{
    char buf[512];
    size_t n = 0;
    while (*t == ' ' || *t == '\t')
        t++;
    for (; *t && n + 1 < sizeof buf; t++) {
        int blank = *t == ' ' || *t == '\t';
        if (blank && n && buf[n - 1] == ' ')
            continue;
        buf[n++] = blank ? ' ' : *t;
    }
    while (n && buf[n - 1] == ' ')
        n--;
    buf[n] = '\0';
    wmi_html_escape(f, buf);
}

static void finding(FILE *f, const wmi_hpage *p, const wmi_hline *l)
{
    char where[300], id[64];
    wmi_hline_where(where, sizeof where, l, p);
    wmi_hline_id(id, sizeof id, l, p, 'd');
    int link = !p->o.max_sites || l->dpos < p->o.max_sites;
    fputs("<li class=\"finding\">", f);
    if (link)
        fprintf(f, "<a href=\"#%s\">", id);
    wmi_html_escape(f, where);
    fputs(link ? "</a>" : "", f);
    const char *t = wmi_hpage_text(p, l->file, l->line, &p->sites[l->first]);
    if (t) {
        fputs(" <code>", f);
        code_squeezed(f, t);
        fputs("</code>", f);
    }
    fputs("\n<ul>\n", f);
    wmi_line_advice la[WM_NSPACES * WM_NOPS];
    size_t k = wmi_line_advise(p->arch, &p->sites[l->first], l->count, &p->t,
                               la, WM_NSPACES * WM_NOPS);
    for (size_t j = 0; j < k; j++)
        if (la[j].adv.excess)
            problem(f, &la[j]);
    fputs("</ul></li>\n", f);
}

/* Lines at the ideal that a fix still improves (wider accesses). */
static void fixable(FILE *f, const wmi_hpage *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nlines; i++)
        n += !p->lines[i].rank && p->lines[i].nfixable;
    if (!n)
        return;
    fprintf(f, "<p class=\"muted\">%zu line%s at the ideal that the advisor "
               "would still change (fewer requests for the same bytes):",
            n, n == 1 ? "" : "s");
    size_t shown = 0;
    for (size_t i = 0; i < p->nlines && shown < 8; i++) {
        const wmi_hline *l = &p->lines[i];
        if (l->rank || !l->nfixable)
            continue;
        char where[300], id[64];
        wmi_hline_where(where, sizeof where, l, p);
        wmi_hline_id(id, sizeof id, l, p, 'd');
        int link = !p->o.max_sites || l->dpos < p->o.max_sites;
        fputs(shown++ ? ", " : " ", f);
        if (link)
            fprintf(f, "<a href=\"#%s\">", id);
        wmi_html_escape(f, where);
        fputs(link ? "</a>" : "", f);
    }
    fputs(shown < n ? ", ...</p>\n" : ".</p>\n", f);
}

void wmi_html_summary(FILE *f, const wmi_hpage *p)
{
    fputs("<!-- summary -->\n<section class=\"summary\" id=\"summary\">\n"
          "<h2>Summary</h2>\n",
          f);
    header(f, p);
    if (!p->nranked) {
        fputs("<p class=\"ok\">No line wastes sectors or wavefronts: every "
              "memory instruction is at its ideal.</p>\n",
              f);
    } else {
        size_t top = p->nranked < TOP_FINDINGS ? p->nranked : TOP_FINDINGS;
        fprintf(f, "<p>%zu line%s waste%s sectors or wavefronts; the worst "
                   "%s:</p>\n<ol class=\"findings\">\n",
                p->nranked, p->nranked == 1 ? "" : "s",
                p->nranked == 1 ? "s" : "", top == 1 ? "line" : "lines");
        for (size_t i = 0; i < top; i++)
            finding(f, p, p->ranked[i]);
        fputs("</ol>\n", f);
    }
    fixable(f, p);
    fputs("</section>\n<!-- /summary -->\n", f);
}
