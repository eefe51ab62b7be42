/*
 * html_kernel.c -- a picture of the whole kernel for the HTML report: the
 * excessive sectors and wavefronts of each line as horizontal bars, worst
 * line first (one panel per unit, each scaled to its own largest value),
 * and the histogram of the worst line's per-request values over all its
 * requests (every warp's every execution), so a reader sees whether one
 * warp or all of them pay.  Inline SVG with a viewBox.
 */
#include "html_int.h"

#define FONT "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""
#define MAX_BARS 12
#define MAX_BINS 64

static void text(FILE *f, double x, double y, const char *anchor,
                 const char *extra, const char *s)
{
    fputs("<text x=\"", f);
    wmi_svg_num(f, x);
    fputs("\" y=\"", f);
    wmi_svg_num(f, y);
    fprintf(f, "\" text-anchor=\"%s\" %s>", anchor, extra ? extra : "");
    wmi_html_escape(f, s);
    fputs("</text>\n", f);
}

static void rect(FILE *f, double x, double y, double w, double h,
                 const char *fill)
{
    fputs("<rect x=\"", f);
    wmi_svg_num(f, x);
    fputs("\" y=\"", f);
    wmi_svg_num(f, y);
    fputs("\" width=\"", f);
    wmi_svg_num(f, w);
    fputs("\" height=\"", f);
    wmi_svg_num(f, h);
    fprintf(f, "\" fill=\"%s\"/>\n", fill);
}

/* One panel of the excess chart: bars of v[0..n) from x0, w wide. */
static void panel(FILE *f, double x0, double w, double y0, double rowh,
                  const uint64_t *v, size_t n, const char *title,
                  const char *fill)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < n; i++)
        mx = v[i] > mx ? v[i] : mx;
    text(f, x0, y0 - 10, "start", "font-size=\"13\" font-weight=\"bold\"",
         title);
    for (size_t i = 0; i < n; i++) {
        double y = y0 + (double)i * rowh;
        double bw = mx ? (double)v[i] / (double)mx * (w - 90) : 0;
        rect(f, x0, y + 4, w - 90, rowh - 8, "#f1f3f6");
        if (bw > 0)
            rect(f, x0, y + 4, bw < 1 ? 1 : bw, rowh - 8, fill);
        char num[32];
        snprintf(num, sizeof num, "%llu", (unsigned long long)v[i]);
        text(f, x0 + (bw > 0 ? bw : 0) + 6, y + rowh / 2 + 4, "start",
             "font-size=\"12\"", num);
    }
}

static void excess_chart(FILE *f, const wmi_hpage *p)
{
    size_t n = p->nranked < MAX_BARS ? p->nranked : MAX_BARS;
    uint64_t sec[MAX_BARS], wf[MAX_BARS];
    double rowh = 26, y0 = 34, h = y0 + (double)n * rowh + 12;
    fputs("<figure class=\"chart\" id=\"excess-chart\">\n<figcaption>Excess "
          "per line, worst first: sectors beyond the ideal (global, local) "
          "and wavefronts beyond the ideal (shared bank conflicts)"
          "</figcaption>\n",
          f);
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 960 ", f);
    wmi_svg_num(f, h);
    fprintf(f, "\" role=\"img\" %s>\n", FONT);
    for (size_t i = 0; i < n; i++) {
        const wmi_hline *l = p->ranked[i];
        char where[300];
        wmi_hline_where(where, sizeof where, l, p);
        sec[i] = l->sec.excessive_sectors;
        wf[i] = l->shr.conflicts;
        text(f, 196, y0 + (double)i * rowh + rowh / 2 + 4, "end",
             "font-size=\"12\"", where);
    }
    panel(f, 210, 370, y0, rowh, sec, n, "excessive sectors", "#1f77b4");
    panel(f, 590, 370, y0, rowh, wf, n, "excessive wavefronts", "#d62728");
    fputs("</svg>\n</figure>\n", f);
}

/* The (space, op) of line l with the most excess: its sites' histogram. */
static int worst_kind(const wmi_hpage *p, const wmi_hline *l, wm_space *sp,
                      wm_op *op)
{
    uint64_t best = 0;
    int found = 0;
    for (size_t i = l->first; i < l->first + l->count; i++) {
        const wm_site *s = &p->sites[i];
        uint64_t sum = 0;
        for (size_t j = l->first; j < l->first + l->count; j++)
            if (p->sites[j].space == s->space && p->sites[j].op == s->op)
                sum += p->sites[j].space == WM_SPACE_SHARED
                           ? p->sites[j].stats.conflicts
                           : p->sites[j].stats.excessive_sectors;
        if (!found || sum > best) {
            best = sum;
            *sp = s->space;
            *op = s->op;
            found = 1;
        }
    }
    return found;
}

static void histogram(FILE *f, const wmi_hpage *p, const wmi_hline *l)
{
    wm_space sp = WM_SPACE_GLOBAL;
    wm_op op = WM_OP_LD;
    if (!worst_kind(p, l, &sp, &op))
        return;
    uint64_t bins[WM_HIST_MAX + 1];
    memset(bins, 0, sizeof bins);
    uint64_t req = 0, ideal = 0;
    for (size_t i = l->first; i < l->first + l->count; i++) {
        const wm_site *s = &p->sites[i];
        if (s->space != sp || s->op != op)
            continue;
        const uint32_t *h = wmi_agg_site_hist(p->g, p->aidx[i]);
        if (!h)
            return;
        for (unsigned b = 0; b <= WM_HIST_MAX; b++)
            bins[b] += h[b];
        req += s->stats.requests;
        ideal += sp == WM_SPACE_SHARED ? s->stats.ideal_wavefronts
                                       : s->stats.ideal_sectors;
    }
    unsigned lo = WM_HIST_MAX, hi = 0;
    uint64_t mx = 0, total = 0;
    for (unsigned b = 0; b <= WM_HIST_MAX; b++)
        if (bins[b]) {
            lo = b < lo ? b : lo;
            hi = b;
            mx = bins[b] > mx ? bins[b] : mx;
            total += bins[b];
        }
    if (!total)
        return;
    lo = lo > 0 ? lo - 1 : 0; /* a bar of air on the left */
    unsigned width = 1;
    while ((hi - lo) / width + 1 > MAX_BINS)
        width *= 2;
    unsigned nb = (hi - lo) / width + 1;
    const char *unit = sp == WM_SPACE_SHARED ? "wavefronts" : "sectors";
    char where[300], cap[600];
    wmi_hline_where(where, sizeof where, l, p);
    snprintf(cap, sizeof cap,
             "%s per request over the %llu requests of %s (%s %s), every "
             "warp's every execution; ideal %.2f per request",
             unit, (unsigned long long)total, where, wm_space_name(sp),
             wm_op_name(op), req ? (double)ideal / (double)req : 0.0);
    fputs("<figure class=\"chart\" id=\"histogram\">\n<figcaption>", f);
    wmi_html_escape(f, cap);
    fputs("</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
          "viewBox=\"0 0 960 240\" role=\"img\" " FONT ">\n",
          f);
    double x0 = 70, x1 = 930, y0 = 26, y1 = 190;
    double bw = (x1 - x0) / nb;
    if (bw > 60) { /* a few wide bars: keep them narrow and centred */
        x0 += ((x1 - x0) - 60.0 * nb) / 2;
        bw = 60;
    }
    for (unsigned k = 0; k < nb; k++) {
        uint64_t c = 0;
        for (unsigned b = lo + k * width; b < lo + (k + 1) * width &&
                                          b <= WM_HIST_MAX;
             b++)
            c += bins[b];
        double hgt = (double)c / (double)mx * (y1 - y0);
        double x = x0 + k * bw;
        if (c)
            rect(f, x + 1, y1 - hgt, bw - 2 > 1 ? bw - 2 : 1, hgt, "#d62728");
        char lab[32];
        snprintf(lab, sizeof lab, "%u", lo + k * width);
        if (nb <= 34 || k % 4 == 0)
            text(f, x + bw / 2, y1 + 16, "middle", "font-size=\"11\"", lab);
        if (c) {
            snprintf(lab, sizeof lab, "%llu", (unsigned long long)c);
            text(f, x + bw / 2, y1 - hgt - 4, "middle", "font-size=\"11\"",
                 lab);
        }
    }
    fputs("<line x1=\"70\" y1=\"190\" x2=\"930\" y2=\"190\" "
          "stroke=\"#5b6472\"/>\n",
          f);
    char xl[64];
    snprintf(xl, sizeof xl, "%s per request", unit);
    text(f, 500, 230, "middle", "font-size=\"12\"", xl);
    text(f, 20, 110, "middle", "font-size=\"12\" transform=\"rotate(-90 20 "
                               "110)\"",
         "requests");
    fputs("</svg>\n</figure>\n", f);
}

void wmi_html_kernel_charts(wm_html *h, const wmi_hpage *p)
{
    /* one line of one request (a single access) needs no picture of
       the whole */
    if (!p->nranked)
        return;
    const wmi_hline *w = p->ranked[0];
    if (p->nlines > 1) {
        excess_chart(h->f, p);
        h->nsvg++;
    }
    if (w->sec.requests + w->shr.requests > 1) {
        histogram(h->f, p, w);
        h->nsvg++;
    }
}
