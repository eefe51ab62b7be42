/*
 * html_site.c -- one site's section of the HTML report: source line,
 * numbers, the worst warp's drawing, the advice, and the drawing after the
 * best fix (wm_html_site, wm_html_access, wm_html_advice).
 */
#include "html_int.h"
#include "advise_int.h"

#include <string.h>

void wm_html_access(wm_html *h, const wm_arch *arch, const wm_access *a)
{
    if (!h || !arch || !a)
        return;
    fputs("<figure>\n", h->f);
    if (a->space == WM_SPACE_SHARED)
        wmi_svg_banks(h->f, arch, a);
    else
        wmi_svg_sectors(h->f, arch, a);
    fputs("</figure>\n", h->f);
    h->nsvg++;
}

static void badge(FILE *f, wm_severity s)
{
    fprintf(f, "<span class=\"badge sev-%s\">%s</span>",
            wm_severity_name(s), wm_severity_name(s));
}

void wm_html_advice(wm_html *h, const wm_advice *v)
{
    if (!h || !v)
        return;
    FILE *f = h->f;
    const char *unit = wmi_advise_unit(v->space);
    fputs("<div class=\"advice\">\n<p class=\"headline\">", f);
    badge(f, v->severity);
    wmi_html_escape(f, v->headline);
    fputs("</p>\n", f);
    if (v->excess)
        fprintf(f,
                "<p>%llu excessive %.*s (%.0f%% of the total %llu %s)</p>\n",
                (unsigned long long)v->excess,
                (int)strlen(unit) - (v->excess == 1), unit,
                v->share * 100.0, (unsigned long long)v->total, unit);
    fputs("<p><b>Why.</b> ", f);
    wmi_html_escape(f, v->diagnosis);
    fputs("</p>\n", f);
    if (v->nfixes) {
        fputs("<table class=\"fixes\"><tr><th>fix</th>"
              "<th>what-if (counted by the model)</th></tr>\n",
              f);
        for (size_t i = 0; i < v->nfixes; i++) {
            char what[192];
            wmi_advise_outcome(&v->fixes[i], "\xe2\x86\x92", what,
                               sizeof what);
            fputs("<tr><td>", f);
            wmi_html_escape(f, v->fixes[i].text);
            fputs("</td><td class=\"what\">", f);
            wmi_html_escape(f, what);
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    } else if (v->excess) {
        fputs("<p class=\"muted\">No fix the advisor tries lowers the "
              "count for this pattern.</p>\n",
              f);
    }
    fputs("</div>\n", f);
}

/* One row of the numbers table. */
static void num_row(FILE *f, const char *name, unsigned long long v)
{
    fprintf(f, "<tr><th>%s</th><td>%llu</td></tr>\n", name, v);
}

void wm_html_site(wm_html *h, const wm_arch *arch, const wm_site *s,
                  const wm_totals *t, const char *source)
{
    if (!h || !arch || !s)
        return;
    FILE *f = h->f;
    wm_advice v;
    int have = s->worst && wm_advise_site(arch, s, t, &v) == WM_OK;

    fprintf(f, "<section class=\"site\" id=\"site-%u-%s-%s\">\n<h2>",
            s->site, wm_space_name(s->space), wm_op_name(s->op));
    if (have)
        badge(f, v.severity);
    if (s->file && *s->file) {
        wmi_html_escape(f, s->file);
        if (s->line)
            fprintf(f, ":%u", s->line);
    } else {
        fprintf(f, "site %u", s->site);
    }
    fprintf(f, " <span class=\"muted\">%s %s, %u-byte lanes</span></h2>\n",
            wm_space_name(s->space), wm_op_name(s->op), s->size);
    if (source && *source) {
        fputs("<pre class=\"src\">", f);
        if (s->line)
            fprintf(f, "<span class=\"ln\">%u</span>", s->line);
        wmi_html_escape(f, source);
        fputs("</pre>\n", f);
    }
    if (s->label && *s->label && (!source || strcmp(source, s->label))) {
        fputs("<pre>", f);
        wmi_html_escape(f, s->label);
        fputs("</pre>\n", f);
    }

    const wm_stats *st = &s->stats;
    int shared = s->space == WM_SPACE_SHARED;
    fputs("<table class=\"nums\">\n", f);
    num_row(f, "executions", st->inst);
    num_row(f, "requests", st->requests);
    num_row(f, "bytes requested", st->bytes);
    if (shared) {
        num_row(f, "wavefronts", st->wavefronts);
        num_row(f, "ideal wavefronts", st->ideal_wavefronts);
        num_row(f, "excessive wavefronts (conflicts)", st->conflicts);
    } else {
        num_row(f, "sectors", st->sectors);
        num_row(f, "ideal sectors", st->ideal_sectors);
        num_row(f, "excessive sectors", st->excessive_sectors);
        num_row(f, "lines (tags)", st->tags);
    }
    fprintf(f, "<tr><th>%s per request: min / median / max (mean)</th>"
               "<td>%u / %u / %u (%.2f)</td></tr>\n</table>\n",
            shared ? "wavefronts" : "sectors", s->per_request.min,
            s->per_request.median, s->per_request.max, s->per_request.mean);

    if (s->worst) {
        fputs("<h3>Worst warp</h3>\n", f);
        wm_html_access(h, arch, s->worst);
    }
    if (have) {
        wm_html_advice(h, &v);
        if (v.nfixes) {
            fputs("<h3>After the first fix (what-if)</h3>\n<p "
                  "class=\"muted\">",
                  f);
            wmi_html_escape(f, v.fixes[0].text);
            fputs("</p>\n", f);
            wm_html_access(h, arch, &v.fixes[0].access);
        }
    }
    fputs("</section>\n", f);
}
