/*
 * html_chart.c -- line and bar charts as inline SVG for the lab's
 * results: bandwidth against stride, offset or vector width with the
 * model's prediction overlaid, and the transpose bar chart.
 *
 * Scales: linear from 0 (or the caller's range) with 1-2-5 ticks, and an
 * optional power-of-two x axis.  NaN values are gaps.  Measured series
 * are solid with markers; model series (wm_series.model) are dashed.
 */
#include "html_int.h"

#include <math.h>

#define VIEW_W 960.0
#define VIEW_H 400.0
#define PX0 78.0
#define PX1 760.0
#define PY0 48.0
#define PY1 340.0
#define FONT "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""

static const char *const palette[8] = {"#1f77b4", "#d62728", "#2ca02c",
                                       "#ff7f0e", "#9467bd", "#8c564b",
                                       "#e377c2", "#17becf"};

/* A value range and its ticks. */
typedef struct axis {
    double lo, hi, step;
    int log2;
} axis;

/* Round a step up to 1, 2 or 5 times a power of ten. */
static double nice_step(double raw)
{
    if (!(raw > 0))
        return 1;
    double p = pow(10.0, floor(log10(raw)));
    double r = raw / p;
    return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * p;
}

/* Linear axis over [lo, hi] with about 5 ticks; hi rounded up. */
static void axis_linear(axis *ax, double lo, double hi)
{
    if (!(hi > lo))
        hi = lo + 1;
    ax->log2 = 0;
    ax->step = nice_step((hi - lo) / 5);
    ax->lo = floor(lo / ax->step) * ax->step;
    ax->hi = ceil(hi / ax->step - 1e-9) * ax->step;
}

/* Power-of-two axis over [lo, hi] (both > 0), whole powers as ticks. */
static void axis_log2(axis *ax, double lo, double hi)
{
    ax->log2 = 1;
    ax->lo = floor(log2(lo));
    ax->hi = ceil(log2(hi));
    if (!(ax->hi > ax->lo))
        ax->hi = ax->lo + 1;
    ax->step = ceil((ax->hi - ax->lo) / 12);
}

static double map(const axis *ax, double v, double p0, double p1)
{
    double t = ax->log2 ? log2(v) : v;
    return p0 + (t - ax->lo) / (ax->hi - ax->lo) * (p1 - p0);
}

static void num(FILE *f, double v)
{
    wmi_svg_num(f, v);
}

/* Tick label: %g of the value (2^k on a log2 axis). */
static void tick_label(char *buf, size_t n, const axis *ax, double t)
{
    double v = ax->log2 ? exp2(t) : t;
    if (fabs(v) < 1e-12)
        v = 0;
    snprintf(buf, n, "%g", v);
}

static void text_at(FILE *f, double x, double y, const char *extra,
                    const char *s)
{
    fputs("<text x=\"", f);
    num(f, x);
    fputs("\" y=\"", f);
    num(f, y);
    fprintf(f, "\" %s>", extra);
    wmi_html_escape(f, s ? s : "");
    fputs("</text>\n", f);
}

static void open_chart(FILE *f, const wm_chart *c)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
               "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
               "role=\"img\" aria-label=\"",
            (int)VIEW_W, (int)VIEW_H, (int)VIEW_W, (int)VIEW_H);
    wmi_html_escape(f, c->title ? c->title : "chart");
    fputs("\" " FONT " font-size=\"12\">\n", f);
    text_at(f, PX0, 24, "font-size=\"15\" font-weight=\"bold\"", c->title);
    text_at(f, (PX0 + PX1) / 2, VIEW_H - 14, "text-anchor=\"middle\"",
            c->xlabel);
    fputs("<text transform=\"translate(18 ", f);
    num(f, (PY0 + PY1) / 2);
    fputs(") rotate(-90)\" text-anchor=\"middle\">", f);
    wmi_html_escape(f, c->ylabel ? c->ylabel : "");
    fputs("</text>\n", f);
}

/* Horizontal grid and y tick labels. */
static void y_grid(FILE *f, const axis *ay)
{
    char buf[32];
    for (double t = ay->lo; t <= ay->hi + ay->step * 1e-6; t += ay->step) {
        double y = map(ay, t, PY1, PY0);
        fputs("<path d=\"M", f);
        num(f, PX0);
        fputc(' ', f);
        num(f, y);
        fputc('H', f);
        num(f, PX1);
        fputs("\" stroke=\"#e5e7eb\"/>\n", f);
        tick_label(buf, sizeof buf, ay, t);
        text_at(f, PX0 - 6, y + 4, "text-anchor=\"end\" font-size=\"11\"",
                buf);
    }
}

static void frame(FILE *f)
{
    fputs("<path d=\"M", f);
    num(f, PX0);
    fputc(' ', f);
    num(f, PY0);
    fputc('V', f);
    num(f, PY1);
    fputc('H', f);
    num(f, PX1);
    fputs("\" fill=\"none\" stroke=\"#374151\"/>\n", f);
}

/* Legend entry i on the right: a line sample (dashed for models). */
static void legend(FILE *f, size_t i, const char *color, int model,
                   int marker, const char *name)
{
    double y = PY0 + 8 + 22.0 * (double)i, x = PX1 + 16;
    fputs("<path d=\"M", f);
    num(f, x);
    fputc(' ', f);
    num(f, y);
    fputs("h26\"", f);
    fprintf(f, " stroke=\"%s\" stroke-width=\"%s\"%s/>\n", color,
            marker ? "2" : "2.5",
            model ? " stroke-dasharray=\"6 4\"" : "");
    if (marker) {
        fputs("<circle cx=\"", f);
        num(f, x + 13);
        fputs("\" cy=\"", f);
        num(f, y);
        fprintf(f, "\" r=\"3.2\" fill=\"%s\"/>\n", color);
    }
    text_at(f, x + 32, y + 4, "font-size=\"12\"", name);
}

/* Legend text: the series name, marked "(model)" unless it says so. */
static void model_name(char *buf, size_t n, const wm_series *s)
{
    const char *name = s->name ? s->name : "";
    snprintf(buf, n, "%s%s", name,
             s->model && !strstr(name, "model") ? " (model)" : "");
}

void wmi_svg_line_chart(FILE *f, const wm_chart *c, const wm_series *s,
                        size_t nseries)
{
    double xlo = HUGE_VAL, xhi = -HUGE_VAL, ylo = HUGE_VAL, yhi = -HUGE_VAL;
    for (size_t k = 0; k < nseries; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            double x = s[k].x ? s[k].x[i] : (double)i, y = s[k].y[i];
            if (isnan(y) || isnan(x) || (c->xlog2 && !(x > 0)))
                continue;
            xlo = fmin(xlo, x), xhi = fmax(xhi, x);
            ylo = fmin(ylo, y), yhi = fmax(yhi, y);
        }
    if (!(xhi >= xlo))
        xlo = c->xlog2 ? 1 : 0, xhi = xlo + 1, ylo = 0, yhi = 1;
    axis ax, ay;
    if (c->xlog2)
        axis_log2(&ax, xlo, xhi);
    else
        axis_linear(&ax, xlo, xhi);
    if (c->ymax > c->ymin)
        axis_linear(&ay, c->ymin, c->ymax);
    else
        axis_linear(&ay, ylo < 0 ? ylo : 0, yhi > 0 ? yhi * 1.05 : 1);

    open_chart(f, c);
    y_grid(f, &ay);
    char buf[32];
    for (double t = ax.lo; t <= ax.hi + ax.step * 1e-6; t += ax.step) {
        double x = map(&ax, ax.log2 ? exp2(t) : t, PX0, PX1);
        fputs("<path d=\"M", f);
        num(f, x);
        fputc(' ', f);
        num(f, PY1);
        fputs("v5\" stroke=\"#374151\"/>\n", f);
        tick_label(buf, sizeof buf, &ax, t);
        text_at(f, x, PY1 + 18, "text-anchor=\"middle\" font-size=\"11\"",
                buf);
    }
    frame(f);

    fprintf(f, "<g fill=\"none\" stroke-linejoin=\"round\">\n");
    for (size_t k = 0; k < nseries; k++) {
        const char *col = palette[k % 8];
        int pen = 0;
        fputs("<path d=\"", f);
        for (size_t i = 0; i < s[k].n; i++) {
            double x = s[k].x ? s[k].x[i] : (double)i, y = s[k].y[i];
            if (isnan(y) || isnan(x) || (c->xlog2 && !(x > 0))) {
                pen = 0;
                continue;
            }
            fputc(pen ? 'L' : 'M', f);
            num(f, map(&ax, x, PX0, PX1));
            fputc(' ', f);
            num(f, map(&ay, y, PY1, PY0));
            pen = 1;
        }
        fprintf(f, "\" stroke=\"%s\" stroke-width=\"%s\"%s/>\n", col,
                s[k].model ? "2.5" : "2",
                s[k].model ? " stroke-dasharray=\"6 4\"" : "");
    }
    fputs("</g>\n", f);
    for (size_t k = 0; k < nseries; k++) {
        if (s[k].model)
            continue;
        for (size_t i = 0; i < s[k].n; i++) {
            double x = s[k].x ? s[k].x[i] : (double)i, y = s[k].y[i];
            if (isnan(y) || isnan(x) || (c->xlog2 && !(x > 0)))
                continue;
            fputs("<circle cx=\"", f);
            num(f, map(&ax, x, PX0, PX1));
            fputs("\" cy=\"", f);
            num(f, map(&ay, y, PY1, PY0));
            fprintf(f, "\" r=\"3.2\" fill=\"%s\"/>\n", palette[k % 8]);
        }
    }
    for (size_t k = 0; k < nseries; k++) {
        char name[160];
        model_name(name, sizeof name, &s[k]);
        legend(f, k, palette[k % 8], s[k].model, !s[k].model, name);
    }
    fputs("</svg>\n", f);
}

void wmi_svg_bar_chart(FILE *f, const wm_chart *c, const char *const *labels,
                       size_t ncat, const wm_series *s, size_t nseries)
{
    size_t nbar = 0;
    double yhi = 0, ylo = 0;
    for (size_t k = 0; k < nseries; k++) {
        nbar += !s[k].model;
        for (size_t i = 0; i < s[k].n && i < ncat; i++)
            if (!isnan(s[k].y[i])) {
                yhi = fmax(yhi, s[k].y[i]);
                ylo = fmin(ylo, s[k].y[i]);
            }
    }
    axis ay;
    if (c->ymax > c->ymin)
        axis_linear(&ay, c->ymin, c->ymax);
    else
        axis_linear(&ay, ylo, yhi > 0 ? yhi * 1.08 : 1);
    open_chart(f, c);
    y_grid(f, &ay);
    frame(f);

    double gw = (PX1 - PX0) / (double)(ncat ? ncat : 1);
    double bw = gw * 0.72 / (double)(nbar ? nbar : 1);
    double zero = map(&ay, ay.lo > 0 ? ay.lo : 0, PY1, PY0);
    char buf[48];
    for (size_t i = 0; i < ncat; i++) {
        double gx = PX0 + gw * (double)i, x = gx + gw * 0.14;
        size_t kb = 0;
        for (size_t k = 0; k < nseries; k++) {
            if (s[k].model || i >= s[k].n || isnan(s[k].y[i])) {
                kb += !s[k].model;
                continue;
            }
            double y = map(&ay, s[k].y[i], PY1, PY0);
            double top = y < zero ? y : zero, h = fabs(zero - y);
            fputs("<rect x=\"", f);
            num(f, x + bw * (double)kb);
            fputs("\" y=\"", f);
            num(f, top);
            fputs("\" width=\"", f);
            num(f, bw - 2);
            fputs("\" height=\"", f);
            num(f, h);
            fprintf(f, "\" fill=\"%s\"/>\n", palette[k % 8]);
            if (bw >= 22) {
                double v = s[k].y[i];
                snprintf(buf, sizeof buf, fabs(v) >= 100 ? "%.0f" : "%.3g",
                         v);
                text_at(f, x + bw * (double)kb + bw / 2 - 1, top - 4,
                        "text-anchor=\"middle\" font-size=\"10\"", buf);
            }
            kb++;
        }
        /* Model predictions: a dashed tick across the group. */
        for (size_t k = 0; k < nseries; k++) {
            if (!s[k].model || i >= s[k].n || isnan(s[k].y[i]))
                continue;
            double y = map(&ay, s[k].y[i], PY1, PY0);
            fputs("<path d=\"M", f);
            num(f, gx + gw * 0.06);
            fputc(' ', f);
            num(f, y);
            fputc('H', f);
            num(f, gx + gw * 0.94);
            fprintf(f, "\" stroke=\"%s\" stroke-width=\"2.5\" "
                       "stroke-dasharray=\"6 4\"/>\n",
                    palette[k % 8]);
        }
        const char *lab = labels && labels[i] ? labels[i] : "";
        if (gw >= 72) {
            text_at(f, gx + gw / 2, PY1 + 18,
                    "text-anchor=\"middle\" font-size=\"11\"", lab);
        } else {
            fputs("<text transform=\"translate(", f);
            num(f, gx + gw / 2);
            fputc(' ', f);
            num(f, PY1 + 14);
            fputs(") rotate(-35)\" text-anchor=\"end\" font-size=\"10\">",
                  f);
            wmi_html_escape(f, lab);
            fputs("</text>\n", f);
        }
    }
    for (size_t k = 0; k < nseries; k++) {
        char name[160];
        model_name(name, sizeof name, &s[k]);
        if (s[k].model)
            legend(f, k, palette[k % 8], 1, 0, name);
        else {
            double y = PY0 + 8 + 22.0 * (double)k;
            fputs("<rect x=\"", f);
            num(f, PX1 + 16);
            fputs("\" y=\"", f);
            num(f, y - 6);
            fprintf(f, "\" width=\"26\" height=\"12\" fill=\"%s\"/>\n",
                    palette[k % 8]);
            text_at(f, PX1 + 48, y + 4, "font-size=\"12\"", name);
        }
    }
    fputs("</svg>\n", f);
}
