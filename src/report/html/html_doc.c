/*
 * html_doc.c -- the HTML report: page frame and style sheet, and the
 * one-call report over a wm_agg (its parts in html_page.c, html_summary.c,
 * html_kernel.c, html_source.c, html_detail.c and html_totals.c; a site's
 * section in html_site.c, escaping in html_util.c).
 *
 * The page needs no script and no network: CSS and SVG are inline; a
 * line's detail is reached by a plain anchor and lit by CSS :target.  It is
 * laid out for a 1280-pixel window (content 1180 px wide) and prints with
 * its colours (print-color-adjust).  Output is well-formed XML.
 */
#include "html_int.h"
#include "advise_int.h"

#include <errno.h>

#include <math.h>

static const char style[] =
    ":root{--ink:#1d2330;--muted:#5b6472;--line:#dde1e7;--paper:#fff}\n"
    "body{margin:0;background:#f4f5f7;color:var(--ink);"
    "font:14px/1.5 \"DejaVu Sans\",Verdana,system-ui,sans-serif}\n"
    "main{max-width:1180px;margin:0 auto;padding:24px 32px 48px}\n"
    "h1{font-size:24px;margin:0 0 6px}\n"
    "h2{font-size:18px;margin:28px 0 10px}\n"
    "h3{font-size:15px;margin:16px 0 6px}\n"
    "p{margin:6px 0}\n"
    "code,pre,.cmd,.metric{font-family:\"DejaVu Sans Mono\",Menlo,"
    "Consolas,monospace;font-size:13px}\n"
    ".cmd{background:#e9ecf1;padding:6px 10px;border-radius:4px;"
    "display:inline-block}\n"
    "pre{background:#eef0f4;padding:8px 12px;border-radius:6px;"
    "overflow-x:auto;margin:8px 0}\n"
    "pre.src{background:#111827;color:#e5e7eb}\n"
    "pre.src .ln{color:#9ca3af;padding-right:14px}\n"
    "section.site,section.block{background:var(--paper);"
    "border:1px solid var(--line);border-radius:8px;padding:14px 20px;"
    "margin:16px 0}\n"
    "section.site h2{margin:0 0 8px;font-size:17px}\n"
    "table{border-collapse:collapse;margin:8px 0}\n"
    "th,td{padding:3px 12px 3px 0;border-bottom:1px solid #eceef2;"
    "text-align:right;vertical-align:top}\n"
    "th{text-align:left;color:var(--muted);font-weight:600}\n"
    "td.l,th.l{text-align:left}\n"
    "table.fixes td{text-align:left}\n"
    "table.fixes td.what,table.fixes th{white-space:nowrap}\n"
    "table.fixes td.what{font-weight:600}\n"
    ".badge{display:inline-block;padding:1px 9px;border-radius:10px;"
    "font-size:12px;font-weight:700;margin-right:8px;"
    "vertical-align:2px}\n"
    ".sev-high{background:#c62828;color:#fff}"
    ".sev-medium{background:#ef8f00;color:#fff}"
    ".sev-low{background:#fbc02d;color:#222}"
    ".sev-none{background:#2e7d32;color:#fff}\n"
    ".advice{border-left:4px solid #9aa3af;padding:4px 0 4px 14px;"
    "margin:10px 0}\n"
    ".advice .headline{font-weight:700}\n"
    ".muted{color:var(--muted)}\n"
    "figure{margin:10px 0}\n"
    "figure.chart{background:var(--paper);border:1px solid var(--line);"
    "border-radius:8px;padding:12px;margin:16px 0}\n"
    "figcaption{color:var(--muted);font-size:13px;margin-bottom:4px}\n"
    "svg{max-width:100%;height:auto;display:block}\n"
    "footer{color:var(--muted);font-size:12px;margin-top:32px}\n"
    "@media print{body{background:#fff}main{max-width:none;padding:0}"
    "section.site,section.block,figure{break-inside:avoid}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* The report's parts: summary, source page, line details. */
static const char style_report[] =
    "section.summary{background:var(--paper);border:2px solid #c9ced6;"
    "border-radius:8px;padding:12px 20px;margin:12px 0}\n"
    "section.summary h2{margin:0 0 6px}\n"
    "table.hdr th{padding-right:16px}\n"
    "ol.findings{margin:6px 0;padding-left:24px}\n"
    "li.finding{margin:8px 0}li.finding>a{font-weight:700}\n"
    "li.finding ul{list-style:none;padding-left:4px;margin:4px 0}\n"
    ".bad{color:#8a1c1c}.num{white-space:nowrap}.ok{color:#2e7d32}\n"
    ".srcwrap{display:flex;gap:16px;align-items:flex-start}\n"
    ".srcmain{flex:1;min-width:0;overflow-x:auto}\n"
    "table.srcpage{width:100%;font-size:13px;table-layout:fixed}\n"
    "table.srcpage td,table.srcpage th{padding:1px 8px 1px 0;"
    "border-bottom:1px solid #f0f1f4;white-space:nowrap;overflow:hidden}\n"
    "table.srcpage th{white-space:normal;font-size:12px}\n"
    "table.srcpage td.code{text-align:left;white-space:pre;"
    "font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;"
    "text-overflow:ellipsis}\n"
    "col.c-ln{width:40px}col.c-req{width:64px}col.c-per{width:112px}"
    "col.c-conf{width:72px}col.c-share{width:52px}col.c-heat{width:100px}"
    "\n"
    "table.srcpage td.ln{color:var(--muted);text-align:right}\n"
    "tr.src.hazard td.code{background:#fde2e2;box-shadow:inset 3px 0 #c62828}"
    ".checks{border:1px solid #c62828;border-radius:4px;padding:0 12px;"
    "margin:12px 0}.checks h2{color:#c62828}\n"
    "tr.hot td.code{background:#fff4e5}tr.inl td{background:#f7f8fa}\n"
    "tr:target td{background:#fff3b0}\n"
    "td.heat{text-align:left}\n"
    "td.heat .bar{display:inline-block;height:10px;border-radius:2px}\n"
    ".b-high{background:#c62828}.b-medium{background:#ef8f00}"
    ".b-low{background:#fbc02d}.b-none{background:#9aa3af}\n"
    ".t-high{color:#c62828;font-weight:700}.t-medium{color:#b36b00;"
    "font-weight:700}.t-low{color:#8d6e00}\n"
    "section#source{position:relative}\n"
    "details.ptx{width:420px;flex:none;font-size:12px;order:2}\n"
    "details.ptx:not([open]){position:absolute;right:20px;top:18px;"
    "width:auto}\n"
    "details.ptx summary{cursor:pointer;color:var(--muted)}\n"
    "details.ptx td.code{text-align:left;font-family:\"DejaVu Sans Mono\","
    "Menlo,Consolas,monospace;white-space:nowrap}\n"
    "section.line{background:var(--paper);border:1px solid var(--line);"
    "border-radius:8px;padding:10px 20px;margin:16px 0}\n"
    "section.line:target{border-color:#ef8f00;box-shadow:0 0 0 3px #ffe0b2}"
    "\n"
    "section.line section.site{border:none;padding:0;margin:8px 0}\n"
    "table.totals td.muted{font-size:12px}\n";

wm_html *wm_html_begin(FILE *f, const char *title)
{
    if (!f)
        return NULL;
    wm_html *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->f = f;
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
          "lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\"/>\n<title>",
          f);
    wmi_html_escape(f, title ? title : "warpmem report");
    fprintf(f, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n"
               "<main>\n",
            style, style_report);
    return h;
}

wm_status wm_html_end(wm_html *h)
{
    if (!h)
        return WM_OK;
    fputs("<footer>Made by warpmem " WM_VERSION
          ": a model of how warp memory instructions become memory "
          "traffic; counts follow Nsight Compute's definitions.</footer>\n"
          "</main>\n</body>\n</html>\n",
          h->f);
    int bad = fflush(h->f) != 0 || ferror(h->f);
    free(h);
    return bad ? WM_ERR_IO : WM_OK;
}

void wm_html_heading(wm_html *h, int level, const char *text)
{
    if (!h)
        return;
    level = level < 1 ? 1 : level > 3 ? 3 : level;
    fprintf(h->f, "<h%d>", level);
    wmi_html_escape(h->f, text);
    fprintf(h->f, "</h%d>\n", level);
}

void wm_html_text(wm_html *h, const char *text)
{
    if (!h)
        return;
    fputs("<p>", h->f);
    wmi_html_escape(h->f, text);
    fputs("</p>\n", h->f);
}

void wm_html_pre(wm_html *h, const char *text)
{
    if (!h)
        return;
    fputs("<pre>", h->f);
    wmi_html_escape(h->f, text);
    fputs("</pre>\n", h->f);
}

void wm_html_totals(wm_html *h, const wm_totals *t)
{
    if (!h || !t)
        return;
    wmi_html_totals(h->f, t);
}

void wm_html_line_chart(wm_html *h, const wm_chart *c, const wm_series *s,
                        size_t nseries)
{
    if (!h || !c || (nseries && !s))
        return;
    fputs("<figure class=\"chart\">\n", h->f);
    wmi_svg_line_chart(h->f, c, s, nseries);
    fputs("</figure>\n", h->f);
    h->nsvg++;
}

void wm_html_bar_chart(wm_html *h, const wm_chart *c,
                       const char *const *labels, size_t ncat,
                       const wm_series *s, size_t nseries)
{
    if (!h || !c || (nseries && !s))
        return;
    fputs("<figure class=\"chart\">\n", h->f);
    wmi_svg_bar_chart(h->f, c, labels, ncat, s, nseries);
    fputs("</figure>\n", h->f);
    h->nsvg++;
}

wm_status wm_html_report(FILE *f, const wm_agg *g, const wm_html_opts *opts)
{
    if (!f || !g)
        return WM_ERR_ARG;
    wmi_hpage p;
    if (wmi_hpage_build(&p, g, opts) != WM_OK)
        return WM_ERR_NOMEM;
    const char *title = p.o.title ? p.o.title : "warpmem report";
    wm_html *h = wm_html_begin(f, title);
    if (!h) {
        wmi_hpage_free(&p);
        return WM_ERR_NOMEM;
    }
    wm_html_heading(h, 1, title);
    if (p.o.command) {
        fputs("<p><span class=\"cmd\">", f);
        wmi_html_escape(f, p.o.command);
        fputs("</span></p>\n", f);
    }
    wmi_html_checks(f, &p);
    wmi_html_summary(f, &p);
    wmi_html_kernel_charts(h, &p);
    wmi_html_source(f, &p);
    wmi_html_details(h, &p, p.o.max_sites);
    wmi_html_totals(f, &p.t);
    wmi_hpage_free(&p);
    return wm_html_end(h);
}

wm_status wm_html_report_file(const char *path, const wm_agg *g,
                              const wm_html_opts *opts)
{
    if (!path || !g)
        return WM_ERR_ARG;
    FILE *f = fopen(path, "w");
    if (!f)
        return WM_ERR_IO;
    wm_status st = wm_html_report(f, g, opts);
    int e = errno; /* of the failed write, if one failed */
    if (fclose(f) != 0) {
        e = errno;
        if (st == WM_OK)
            st = WM_ERR_IO;
    }
    errno = e;
    return st;
}
