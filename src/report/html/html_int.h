/*
 * html_int.h -- internal interface of the HTML writers: html_doc.c (page,
 * escaping, sites, totals, report), html_svg.c (lane -> sector map and
 * lane -> bank heatmap), html_chart.c (line and bar charts), and the
 * report of an aggregator: html_page.c (its rows: source lines with their
 * sites), html_summary.c (the findings first), html_source.c (the source
 * page), html_detail.c (a section per line), html_kernel.c (the excess
 * per line and the per-request histogram) and html_totals.c (totals with
 * units).
 *
 * Everything written is well-formed XML (XHTML-compatible): only the five
 * predefined entities, numeric character references, and UTF-8 text with
 * invalid bytes replaced, so an XML parser can check every report.
 */
#ifndef WM_HTML_INT_H
#define WM_HTML_INT_H

#include "wm_int.h"

#include <stdio.h>

struct wm_html {
    FILE *f;
    unsigned nsvg; /* drawings written, for unique ids */
};

/* Write s as XML text or attribute content: escapes & < > " ', drops
 * control characters XML forbids, replaces invalid UTF-8 with U+FFFD. */
void wmi_html_escape(FILE *f, const char *s);

/* Lane -> sector map of a global/local access as one <svg> element. */
void wmi_svg_sectors(FILE *f, const wm_arch *arch, const wm_access *a);

/* Lane -> bank heatmap of a shared access as one <svg> element. */
void wmi_svg_banks(FILE *f, const wm_arch *arch, const wm_access *a);

/* Charts as <svg> elements (contracts as wm_html_*_chart). */
void wmi_svg_line_chart(FILE *f, const wm_chart *c, const wm_series *s,
                        size_t nseries);
void wmi_svg_bar_chart(FILE *f, const wm_chart *c, const char *const *labels,
                       size_t ncat, const wm_series *s, size_t nseries);

/* A number for SVG coordinates: fixed, at most 1 decimal, C locale-free. */
void wmi_svg_num(FILE *f, double v);

/* ---- the report of an aggregator ---------------------------------------- */

/* An inlined helper line under its call-site row: sites [first, +count). */
typedef struct wmi_hsub {
    const char *file;
    uint32_t line;
    size_t first, count;
} wmi_hsub;

/*
 * One row of the source page: a source line (a statement for expr) with
 * the sites charged to it, inlined ones included.  A site without a line
 * is a row of its own (line 0, shown by its PTX text).
 */
typedef struct wmi_hline {
    const char *file;
    uint32_t line;
    unsigned ifile;        /* index into the page's files, for anchors */
    size_t first, count;   /* its sites: page sites[first, +count) */
    size_t sub, nsub;      /* its helper rows: page subs[sub, +nsub) */
    wm_stats sec, shr;     /* sums: global + local, shared */
    double share;          /* largest excessive share of its advice */
    wm_severity sev;       /* worst severity of its advice */
    unsigned nfixable;     /* advice entries with a fix (excess or not) */
    double heat;           /* its share of the kernel's excess, 0..1 */
    int rank;              /* 1 = worst line; 0 = no excess */
    size_t dpos;           /* place among the detail sections: the ranked
                              lines first, then the rest in source order */
} wmi_hline;

typedef struct wmi_hpage {
    const wm_agg *g;
    const wm_arch *arch;
    wm_html_opts o;
    wm_totals t;
    wm_site *sites;        /* sorted by row */
    size_t *aidx;          /* sites[i] is wm_agg_site(g, aidx[i]) */
    size_t nsites;
    wmi_hline *lines;      /* in source order */
    size_t nlines;
    wmi_hsub *subs;
    size_t nsubs;
    wmi_hline **ranked;    /* lines with excess, worst first */
    size_t nranked;
    const char **files;    /* distinct files of the rows, in order */
    size_t nfiles;
    size_t *row;           /* row (index into lines) of each site */
} wmi_hpage;

/* Build the rows of g's report; WM_ERR_NOMEM (then p is freed). */
wm_status wmi_hpage_build(wmi_hpage *p, const wm_agg *g,
                          const wm_html_opts *o);
void wmi_hpage_free(wmi_hpage *p);

/* The row of file:line, or NULL. */
const wmi_hline *wmi_hpage_find(const wmi_hpage *p, const char *file,
                                uint32_t line);

/* Source text of a row (the callback's, else the worst site's label). */
const char *wmi_hpage_text(const wmi_hpage *p, const char *file,
                           uint32_t line, const wm_site *fallback);

/* Anchor ids: "s<file>-<line>" for a row, "d<file>-<line>" for its
 * details (line 0 rows use the site id with a "p" prefix). */
void wmi_hline_id(char *buf, size_t n, const wmi_hline *l, const wmi_hpage *p,
                  char kind);

/* "transpose.cu:47" (base name), "line 8", or "site 3" for a line 0 row. */
void wmi_hline_where(char *buf, size_t n, const wmi_hline *l,
                     const wmi_hpage *p);

/* The Checks section (opts.findings), between <!-- checks --> and
   <!-- /checks -->; nothing without findings (html_checks.c). */
void wmi_html_checks(FILE *f, const wmi_hpage *p);
/* Does a finding involve file:line (marked on the source page)? */
int wmi_html_finding_line(const wmi_hpage *p, const char *file,
                          uint32_t line);

/* The summary block, between <!-- summary --> and <!-- /summary -->. */
void wmi_html_summary(FILE *f, const wmi_hpage *p);

/* The source page: one table row per source line (every line of a file
 * the nlines callback knows, else one per row), helper rows under their
 * call site, the PTX of the memory instructions beside it. */
void wmi_html_source(FILE *f, const wmi_hpage *p);

/* Per-line detail sections (the worst max lines; 0: all with sites). */
size_t wmi_html_details(wm_html *h, const wmi_hpage *p, size_t max);

/* Excess per line (worst first) and the worst line's histogram. */
void wmi_html_kernel_charts(wm_html *h, const wmi_hpage *p);

/* Kernel totals grouped as Nsight Compute's memory tables, each metric
 * with its unit and meaning. */
void wmi_html_totals(FILE *f, const wm_totals *t);

#endif /* WM_HTML_INT_H */
