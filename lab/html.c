/*
 * html.c -- warpmem-lab --html FILE: the results as one self-contained page
 * with charts (measured next to the model), built with the library's HTML
 * writer (wm_html_*).  The build defines WM_LAB_HTML when warpmem.h declares
 * that writer; without it lab_write_html() reports WM_ERR_UNSUPPORTED.
 *
 * Charts: E2 and E3 as lines (bandwidth relative to the sweep's first row,
 * with the model's sector efficiency dashed), E4 and E5 as bars (x C_ref,
 * model efficiency as ticks), E6 as bars (time relative to the conflict-free
 * probe, model n-way as ticks).  Unmeasured points are NaN (not drawn), so
 * --list --html shows the predictions alone.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef WM_LAB_HTML

#define MAXP LAB_MAX_ROWS

/* Rows of one chart: those whose id starts with prefix. */
typedef struct pts {
    size_t n;
    double x[MAXP], meas[MAXP], model[MAXP];
    const char *label[MAXP];
} pts;

static void collect(pts *p, const lab_table *t, const lab_env *e,
                    const char *prefix, int xcref)
{
    size_t len = strlen(prefix);
    p->n = 0;
    for (size_t i = 0; i < t->nrows && p->n < MAXP; i++) {
        const lab_row *r = &t->rows[i];
        double m = xcref ? lab_row_x_cref(t, e, i)
                         : lab_row_measured_rel(t, e, i);
        double pr = lab_row_predicted_rel(t, i);
        if (strncmp(r->id, prefix, len) != 0)
            continue;
        p->x[p->n] = r->p.stride ? r->p.stride : r->p.offset;
        p->meas[p->n] = m > 0 ? m : (double)NAN;
        p->model[p->n] = r->pred.has ? pr : (double)NAN;
        p->label[p->n] = r->id + len;
        p->n++;
    }
}

static void line(wm_html *h, const lab_table *t, const lab_env *e,
                 const char *title, const char *xlabel, const char *pa,
                 const char *na, const char *pb, const char *nb)
{
    static pts a, b;
    wm_series s[4];
    size_t ns = 0;
    wm_chart c = {title, xlabel, "bandwidth / first row", 0, 0.0, 1.2};
    collect(&a, t, e, pa, 0);
    s[ns++] = (wm_series){na, a.n, a.x, a.meas, 0};
    if (pb) {
        collect(&b, t, e, pb, 0);
        s[ns++] = (wm_series){nb, b.n, b.x, b.meas, 0};
    }
    s[ns++] = (wm_series){"model: sector efficiency", a.n, a.x, a.model, 1};
    wm_html_line_chart(h, &c, s, ns);
}

static void bars(wm_html *h, const lab_table *t, const lab_env *e,
                 const char *title, const char *ylabel, const char *prefix,
                 int xcref, const char *model_name)
{
    static pts a;
    wm_series s[2];
    wm_chart c = {title, "", ylabel, 0, 0.0, 0.0};
    collect(&a, t, e, prefix, xcref);
    s[0] = (wm_series){"measured", a.n, NULL, a.meas, 0};
    s[1] = (wm_series){model_name, a.n, NULL, a.model, 1};
    wm_html_bar_chart(h, &c, a.label, a.n, s, 2);
}

/* Contract in lab.h. */
wm_status lab_write_html(FILE *f, const lab_table *t, const lab_env *e,
                         int list)
{
    wm_html *h = wm_html_begin(f, "warpmem-lab: measured vs the model");
    char *text = NULL;
    size_t len = 0;
    FILE *mem;
    if (h == NULL)
        return WM_ERR_NOMEM;
    wm_html_heading(h, 1, "warpmem-lab: measured vs the model");
    if (list)
        wm_html_text(h, "Predictions only: nothing was measured "
                        "(warpmem-lab --list).");
    wm_html_text(h, "GB/s = (bytes read + written) / median time, 1e9 B/s. "
                    "Model: sector efficiency (ideal / touched sectors) or "
                    "shared wavefronts per request, from wm_count on the "
                    "kernels' lane addresses; dashed lines and ticks.");
    mem = open_memstream(&text, &len);
    if (mem) {
        lab_write(mem, t, e, WM_FMT_TEXT, list);
        fclose(mem);
        if (text)
            wm_html_pre(h, text);
        free(text);
    }
    line(h, t, e, "E2: stride sweep (4 B elements)", "stride (elements)",
         "E2.read.s", "read-only", "E2.copy.s", "copy");
    line(h, t, e, "E3: offset sweep (4 B elements)", "offset (elements)",
         "E3.off", "copy", NULL, NULL);
    bars(h, t, e, "E4: lane width, one access / 4 loads in flight",
         "bandwidth / C_ref", "E4.w", 1, "model: sector efficiency");
    bars(h, t, e, "E5: transposes", "bandwidth / C_ref", "E5.", 1,
         "model: sector efficiency");
    bars(h, t, e, "E6: shared-memory probes", "time / conflict-free",
         "E6.", 0, "model: wavefronts per request");
    return wm_html_end(h);
}

#else

/* Contract in lab.h. */
wm_status lab_write_html(FILE *f, const lab_table *t, const lab_env *e,
                         int list)
{
    (void)f;
    (void)t;
    (void)e;
    (void)list;
    return WM_ERR_UNSUPPORTED;
}

#endif
