/*
 * html_int.h -- internal interface of the HTML writers: html_doc.c (page,
 * escaping, sites, totals, report), html_svg.c (lane -> sector map and
 * lane -> bank heatmap) and html_chart.c (line and bar charts).
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

#endif /* WM_HTML_INT_H */
