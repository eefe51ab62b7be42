/*
 * html_checks.c -- the Checks section at the top of the HTML report (run
 * --check's hazards and schedule difference, wm_html_opts.findings): each
 * finding with both source lines linked to their rows of the source page,
 * where html_source.c marks them.
 */
#include "html_int.h"

#include <string.h>

/* The page's index of file, or -1. */
static long file_index(const wmi_hpage *p, const char *file)
{
    for (size_t i = 0; file && *file && i < p->nfiles; i++)
        if (strcmp(p->files[i], file) == 0)
            return (long)i;
    return -1;
}

int wmi_html_finding_line(const wmi_hpage *p, const char *file, uint32_t line)
{
    for (size_t i = 0; line && i < p->o.nfindings; i++)
        for (int k = 0; k < 2; k++) {
            const wm_html_finding *x = &p->o.findings[i];
            if (x->line[k] == line && x->file[k] &&
                strcmp(x->file[k], file) == 0)
                return 1;
        }
    return 0;
}

/* "read at <a href=#s0-18>reduce.cu:18</a>: the source text" */
static void access_item(FILE *f, const wmi_hpage *p, const wm_html_finding *x,
                        int k, const char *role)
{
    const char *file = x->file[k];
    const char *b = strrchr(file, '/');
    long fi = file_index(p, file);
    fprintf(f, "<li>%s %s at ", role, x->what[k] ? x->what[k] : "access");
    if (fi >= 0)
        fprintf(f, "<a href=\"#s%ld-%u\">", fi, x->line[k]);
    wmi_html_escape(f, b ? b + 1 : file);
    fprintf(f, ":%u", x->line[k]);
    if (fi >= 0)
        fputs("</a>", f);
    const char *t = p->o.source ? p->o.source(p->o.source_ctx, file, x->line[k])
                                : NULL;
    while (t && (*t == ' ' || *t == '\t'))
        t++;
    if (t && *t) {
        fputs(": <code>", f);
        wmi_html_escape(f, t);
        fputs("</code>", f);
    }
    fputs("</li>\n", f);
}

void wmi_html_checks(FILE *f, const wmi_hpage *p)
{
    if (!p->o.nfindings)
        return;
    fprintf(f, "<!-- checks -->\n<section class=\"checks\" id=\"checks\">"
               "<h2>Checks: %zu finding%s</h2>\n<ol>\n",
            p->o.nfindings, p->o.nfindings == 1 ? "" : "s");
    for (size_t i = 0; i < p->o.nfindings; i++) {
        const wm_html_finding *x = &p->o.findings[i];
        fputs("<li><strong>", f);
        wmi_html_escape(f, x->kind ? x->kind : "finding");
        fputs("</strong> ", f);
        wmi_html_escape(f, x->text ? x->text : "");
        int two = x->line[0] && x->file[0] && *x->file[0];
        int one = x->line[1] && x->file[1] && *x->file[1];
        if (two || one) {
            fputs("\n<ul>\n", f);
            if (two)
                access_item(f, p, x, 0, "earlier");
            if (one)
                access_item(f, p, x, 1, two ? "later" : "the");
            fputs("</ul>", f);
        }
        fputs("</li>\n", f);
    }
    fputs("</ol></section>\n<!-- /checks -->\n", f);
}
