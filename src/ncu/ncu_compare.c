/*
 * ncu_compare.c -- warpmem's prediction against Nsight Compute's
 * measurement (wm_ncu_compare, `warpmem compare`).
 *
 * Every launch of the prediction is matched to a launch of the
 * measurement by kernel name (without parameter list, template arguments
 * or a leading "void ") and then by launch: the n-th launch of that
 * kernel when asked, else the first whose block and grid sizes are the
 * prediction's (never one of another shape: when none has it, the
 * kernel's line says so and names --launch).  Each metric both have is printed with
 * the ratio predicted / measured, after converting ncu's prefixed units
 * (Kbyte, Msector, usecond) to base units; a ratio off 1 by more than the
 * tolerance is flagged.  Source-page exports add per source line
 * counters, matched to the prediction's per-line sums by line number and
 * by name: ncu's column "L2 Theoretical Sectors Global Excessive" is the
 * metric whose name ends in l2_theoretical_sectors_global_excessive.
 */
#include "out_int.h"

#include <ctype.h>
#include <math.h>

/* ncu's kernel name reduced to the function's name. */
static void base_name(const char *k, char *out, size_t cap)
{
    if (strncmp(k, "void ", 5) == 0)
        k += 5;
    size_t n = strcspn(k, "(<");
    while (n && k[n - 1] == ' ')
        n--;
    snprintf(out, cap, "%.*s", (int)(n < cap - 1 ? n : cap - 1), k);
}

/* The threads (blocks) a "(32, 8, 1)", "32,8,1" or "256" stands for; 0
 * for anything else. */
static double dims(const char *s)
{
    double p = 1;
    int any = 0;
    while (*s) {
        if (*s >= '0' && *s <= '9') {
            char *end;
            p *= strtod(s, &end);
            s = end;
            any = 1;
        } else if (*s == ' ' || *s == '(' || *s == ')' || *s == ',') {
            s++;
        } else {
            return 0;
        }
    }
    return any ? p : 0;
}

/* Same launch shape: as many threads per block and blocks (ncu's
 * "(256, 1, 1)" against warpmem's launch__block_size 256). */
static int same_dims(const char *a, const char *b)
{
    return dims(a) != 0 && dims(a) == dims(b);
}

/* The factor from unit u to its base unit (K, M, G, T prefixes; time in
 * nseconds, ncu's base); 1 for anything else. */
static double unit_scale(const char *u)
{
    static const struct {
        const char *unit;
        double k;
    } time[] = {{"nsecond", 1}, {"usecond", 1e3}, {"msecond", 1e6},
                {"second", 1e9}};
    for (size_t i = 0; i < WM_ARRAY_LEN(time); i++)
        if (strcmp(u, time[i].unit) == 0)
            return time[i].k;
    static const char *const bases[] = {"byte", "sector", "request", "inst",
                                        "cycle", "warp", "thread", "hz"};
    double k = u[0] == 'K' ? 1e3
               : u[0] == 'M' ? 1e6
               : u[0] == 'G' ? 1e9
               : u[0] == 'T' ? 1e12
                             : 0;
    if (k == 0)
        return 1;
    for (size_t i = 0; i < WM_ARRAY_LEN(bases); i++)
        if (strncmp(u + 1, bases[i], strlen(bases[i])) == 0)
            return k;
    return 1;
}

/* A source-page column name in metric form: "L1 Wavefronts Shared" ->
 * "l1_wavefronts_shared". */
static void column_metric(const char *col, char *out, size_t cap)
{
    size_t k = 0;
    for (; *col && k + 1 < cap; col++)
        out[k++] = *col == ' ' ? '_' : (char)tolower((unsigned char)*col);
    out[k] = '\0';
}

typedef struct cmp_state {
    wmi_out *out; /* JSON, or NULL for text */
    FILE *f;
    double tol;
    size_t flagged, compared;
} cmp_state;

/* One predicted / measured pair: printed, counted, flagged. */
static void pair(cmp_state *s, uint32_t line, const char *name,
                 const char *unit, double pred, double meas)
{
    double ratio = meas != 0 ? pred / meas : (pred == 0 ? 1.0 : (double)INFINITY);
    int flag = meas == 0 ? pred != 0 : fabs(ratio - 1.0) > s->tol;
    s->compared++;
    s->flagged += flag != 0;
    if (s->out) {
        wmi_out_obj(s->out, NULL);
        if (line)
            wmi_out_uint(s->out, "line", line);
        wmi_out_str(s->out, "metric", name);
        wmi_out_str(s->out, "unit", unit);
        wmi_out_num(s->out, "predicted", pred);
        wmi_out_num(s->out, "measured", meas);
        wmi_out_num(s->out, "ratio", ratio);
        wmi_out_bool(s->out, "flagged", flag);
        wmi_out_end(s->out);
        return;
    }
    char label[512];
    if (line)
        snprintf(label, sizeof label, "line %u %s", line, name);
    else
        snprintf(label, sizeof label, "%s", name);
    /* a label wider than its column gets a line of its own, so that the
       numbers stay under their headings */
    if (strlen(label) > 66) {
        fprintf(s->f, "  %s\n", label);
        label[0] = '\0';
    }
    fprintf(s->f, "  %-66s %-15s %14.6g %14.6g %8.3f%s\n", label, unit, pred,
            meas, ratio, flag ? "  MISMATCH" : "");
}

/* How a predicted launch was looked for in one export (the message when
   none matched). */
typedef struct match_why {
    long nkernel;  /* launches of the kernel seen */
    int noshape;   /* one of them had no block or grid size */
} match_why;

/* The measured launch for predicted launch p, or (size_t)-1: the nth of
   the kernel when asked, else the first of the prediction's shape (a
   launch of another shape is never taken in its place; with no shape in
   the prediction, the first of the kernel). */
static size_t match_launch(const wm_ncu *meas, const wm_ncu_launch *p,
                           long nth, match_why *why)
{
    char want[256], got[256];
    long seen = 0;
    base_name(p->kernel, want, sizeof want);
    for (size_t i = 0; i < wm_ncu_nlaunches(meas); i++) {
        wm_ncu_launch l;
        wm_ncu_launch_info(meas, i, &l);
        base_name(l.kernel, got, sizeof got);
        if (strcmp(want, got) != 0 && *want)
            continue;
        why->nkernel++;
        if (nth >= 0) {
            if (seen++ == nth)
                return i;
            continue;
        }
        if (!*p->block)
            return i;
        if (!*l.block || !*l.grid)
            why->noshape = 1;
        if (same_dims(p->block, l.block) && same_dims(p->grid, l.grid))
            return i;
    }
    return (size_t)-1;
}

/* One measured counter, for finding it by line and name: sorted by
   (line, key, k), so the first row of a (line, key) is the earliest. */
typedef struct mrow {
    uint32_t line;
    const char *key;
    size_t k; /* the counter's index in its launch */
} mrow;

static int mrow_cmp(const void *x, const void *y)
{
    const mrow *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->k > b->k) - (a->k < b->k);
}

/* The earliest counter on line with that key, or SIZE_MAX. */
static size_t mrow_find(const mrow *v, size_t n, uint32_t line, const char *key)
{
    mrow want = {line, key, 0};
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mrow_cmp(&v[mid], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].line == line && strcmp(v[lo].key, key) == 0
               ? v[lo].k : SIZE_MAX;
}

/* The totals of predicted launch pl against measured launch ml. */
static wm_status compare_totals(cmp_state *s, const wm_ncu *pred, size_t pl,
                                const wm_ncu *meas, size_t ml)
{
    wm_ncu_launch p, m;
    wm_ncu_launch_info(pred, pl, &p);
    wm_ncu_launch_info(meas, ml, &m);
    mrow *v = malloc((m.nmetrics ? m.nmetrics : 1) * sizeof *v);
    if (!v)
        return WM_ERR_NOMEM;
    size_t n = 0;
    for (size_t k = 0; k < m.nmetrics; k++) {
        wm_ncu_value mv;
        wm_ncu_metric(meas, ml, k, &mv);
        if (!mv.line && mv.has_value)
            v[n++] = (mrow){0, mv.name, k};
    }
    qsort(v, n, sizeof *v, mrow_cmp);
    for (size_t j = 0; j < p.nmetrics; j++) {
        wm_ncu_value pv, mv;
        wm_ncu_metric(pred, pl, j, &pv);
        if (pv.line || !pv.has_value)
            continue;
        size_t k = mrow_find(v, n, 0, pv.name);
        if (k == SIZE_MAX)
            continue;
        wm_ncu_metric(meas, ml, k, &mv);
        /* the measured value in the prediction's unit (ncu may print
           Kbyte where warpmem prints byte) */
        pair(s, 0, pv.name, pv.unit, pv.value,
             mv.value * unit_scale(mv.unit) / unit_scale(pv.unit));
    }
    free(v);
    return WM_OK;
}

/* The per-line counters of predicted launch pl against a source page: a
   column matches a metric named as it is or ending in "_" + its name. */
static wm_status compare_lines(cmp_state *s, const wm_ncu *pred, size_t pl,
                               const wm_ncu *src)
{
    wm_ncu_launch p, m;
    wm_ncu_launch_info(pred, pl, &p);
    if (!wm_ncu_launch_info(src, 0, &m))
        return WM_OK;
    size_t bytes = 1;
    for (size_t k = 0; k < m.nmetrics; k++) {
        wm_ncu_value mv;
        wm_ncu_metric(src, 0, k, &mv);
        bytes += strlen(mv.name) + 1;
    }
    mrow *v = malloc((m.nmetrics ? m.nmetrics : 1) * sizeof *v);
    char *norms = malloc(bytes), *at = norms;
    if (!v || !norms) {
        free(v);
        free(norms);
        return WM_ERR_NOMEM;
    }
    for (size_t k = 0; k < m.nmetrics; k++) {
        wm_ncu_value mv;
        wm_ncu_metric(src, 0, k, &mv);
        size_t len = strlen(mv.name) + 1;
        column_metric(mv.name, at, len);
        v[k] = (mrow){mv.line, at, k};
        at += len;
    }
    qsort(v, m.nmetrics, sizeof *v, mrow_cmp);
    for (size_t j = 0; j < p.nmetrics; j++) {
        wm_ncu_value pv, mv;
        wm_ncu_metric(pred, pl, j, &pv);
        if (!pv.line)
            continue;
        size_t best = mrow_find(v, m.nmetrics, pv.line, pv.name);
        for (const char *u = strchr(pv.name, '_'); u; u = strchr(u + 1, '_')) {
            size_t k = mrow_find(v, m.nmetrics, pv.line, u + 1);
            best = k < best ? k : best;
        }
        if (best == SIZE_MAX)
            continue;
        wm_ncu_metric(src, 0, best, &mv);
        pair(s, pv.line, pv.name, pv.unit, pv.value, mv.value);
    }
    free(v);
    free(norms);
    return WM_OK;
}

/* Why no measured launch was taken for p (text), after "kernel K". */
static void no_match(FILE *f, const wm_ncu_launch *p, const match_why *w,
                     long nth)
{
    if (!w->nkernel)
        fputs(": no launch of it in a details or raw export\n", f);
    else if (nth >= 0)
        fprintf(f, ": no launch %ld of it: the exports have %ld launch%s of "
                   "it (--launch 0..%ld)\n",
                nth, w->nkernel, w->nkernel == 1 ? "" : "es", w->nkernel - 1);
    else if (w->noshape)
        fputs(": the export gives no launch shape (no \"Block Size\" or "
              "\"Grid Size\"): pick the launch with --launch N\n", f);
    else
        fprintf(f, ": none of its %ld measured launch%s has block %s, grid "
                   "%s (pick one with --launch N)\n",
                w->nkernel, w->nkernel == 1 ? "" : "es", p->block, p->grid);
}

static void launch_head(cmp_state *s, const wm_ncu_launch *p,
                        const wm_ncu_launch *m, int found,
                        const match_why *why, long nth)
{
    if (s->out) {
        wmi_out_str(s->out, "kernel", p->kernel);
        wmi_out_str(s->out, "predicted_block", p->block);
        wmi_out_str(s->out, "predicted_grid", p->grid);
        if (found) {
            wmi_out_str(s->out, "measured_id", m->id);
            wmi_out_str(s->out, "measured_kernel", m->kernel);
            wmi_out_str(s->out, "measured_block", m->block);
            wmi_out_str(s->out, "measured_grid", m->grid);
        } else {
            wmi_out_null(s->out, "measured_id");
        }
        return;
    }
    fprintf(s->f, "kernel %s", *p->kernel ? p->kernel : "(unnamed)");
    if (*p->block)
        fprintf(s->f, ", block %s, grid %s", p->block, p->grid);
    if (!found) {
        no_match(s->f, p, why, nth);
        return;
    }
    fprintf(s->f, "\n  measured: ncu ID %s, %s, block %s, grid %s%s\n", m->id,
            m->kernel, m->block, m->grid,
            *p->block && (!same_dims(p->block, m->block) ||
                          !same_dims(p->grid, m->grid))
                ? "  (a different launch shape)"
                : "");
    fprintf(s->f, "  %-66s %-15s %14s %14s %8s\n", "metric", "unit",
            "predicted", "measured", "ratio");
}

/* Out of memory midway: the document is abandoned. */
static wm_status nomem(cmp_state *s)
{
    if (s->out)
        wmi_out_finish(s->out);
    return WM_ERR_NOMEM;
}

wm_status wm_ncu_compare(FILE *f, const wm_ncu *const *meas, size_t nmeas,
                         const wm_ncu *pred, const wm_compare_opts *o,
                         size_t *nflagged, size_t *ncompared)
{
    if (!f || !pred || !o || (nmeas && !meas))
        return WM_ERR_ARG;
    wmi_out out;
    cmp_state s = {NULL, f, o->tolerance, 0, 0};
    if (o->format == WM_FMT_JSON) {
        wmi_out_init(&out, f, 0);
        s.out = &out;
        wmi_doc_begin(&out, "compare", NULL, o->kernel);
        wmi_out_num(&out, "tolerance", o->tolerance);
        wmi_out_arr(&out, "kernels");
    }
    for (size_t pl = 0; pl < wm_ncu_nlaunches(pred); pl++) {
        wm_ncu_launch p, m;
        char want[256];
        wm_ncu_launch_info(pred, pl, &p);
        base_name(p.kernel, want, sizeof want);
        if (o->kernel && strcmp(o->kernel, want) != 0)
            continue;
        const wm_ncu *mx = NULL;
        size_t ml = (size_t)-1;
        match_why why = {0, 0};
        for (size_t i = 0; i < nmeas && ml == (size_t)-1; i++)
            if (wm_ncu_page_of(meas[i]) != WM_NCU_SOURCE &&
                (ml = match_launch(meas[i], &p, o->launch, &why)) !=
                    (size_t)-1)
                mx = meas[i];
        if (mx)
            wm_ncu_launch_info(mx, ml, &m);
        if (s.out)
            wmi_out_obj(s.out, NULL);
        launch_head(&s, &p, &m, mx != NULL, &why, o->launch);
        if (s.out)
            wmi_out_arr(s.out, "metrics");
        if (mx && compare_totals(&s, pred, pl, mx, ml) != WM_OK)
            return nomem(&s);
        if (s.out) {
            wmi_out_end(s.out);
            wmi_out_arr(s.out, "lines");
        }
        for (size_t i = 0; i < nmeas; i++)
            if (wm_ncu_page_of(meas[i]) == WM_NCU_SOURCE &&
                compare_lines(&s, pred, pl, meas[i]) != WM_OK)
                return nomem(&s);
        if (s.out) {
            wmi_out_end(s.out);
            wmi_out_end(s.out);
        }
    }
    wm_status st = WM_OK;
    if (s.out) {
        wmi_out_end(&out);
        wmi_out_uint(&out, "compared", s.compared);
        wmi_out_uint(&out, "flagged", s.flagged);
        wmi_doc_end(&out);
        st = wmi_out_finish(&out);
    } else {
        fprintf(f, "%zu of %zu compared metric%s over the %.3g%% tolerance\n",
                s.flagged, s.compared, s.compared == 1 ? "" : "s",
                100.0 * o->tolerance);
        if (ferror(f))
            st = WM_ERR_IO;
    }
    if (nflagged)
        *nflagged = s.flagged;
    if (ncompared)
        *ncompared = s.compared;
    return st;
}

static const char *page_name(wm_ncu_page p)
{
    switch (p) {
    case WM_NCU_DETAILS: return "details";
    case WM_NCU_RAW: return "raw";
    case WM_NCU_SOURCE: return "source";
    case WM_NCU_WARPMEM: return "warpmem";
    }
    return "?";
}

wm_status wm_ncu_dump(FILE *f, const wm_ncu *x, wm_format fmt)
{
    if (!f || !x)
        return WM_ERR_ARG;
    if (fmt != WM_FMT_JSON) {
        fprintf(f, "%s page, %zu launch%s\n", page_name(wm_ncu_page_of(x)),
                wm_ncu_nlaunches(x), wm_ncu_nlaunches(x) == 1 ? "" : "es");
        for (size_t i = 0; i < wm_ncu_nlaunches(x); i++) {
            wm_ncu_launch l;
            wm_ncu_launch_info(x, i, &l);
            fprintf(f, "launch %zu: ID %s, %s, block %s, grid %s, CC %s\n", i,
                    l.id, l.kernel, l.block, l.grid, l.cc);
            for (size_t j = 0; j < l.nmetrics; j++) {
                wm_ncu_value v;
                wm_ncu_metric(x, i, j, &v);
                if (v.line)
                    fprintf(f, "  line %u ", v.line);
                else
                    fputs("  ", f);
                if (v.has_value)
                    fprintf(f, "%-66s %-15s %14.6g\n", v.name, v.unit,
                            v.value);
                else
                    fprintf(f, "%-66s %-15s %14s\n", v.name, v.unit, "n/a");
            }
        }
        return ferror(f) ? WM_ERR_IO : WM_OK;
    }
    wmi_out o;
    wmi_out_init(&o, f, 0);
    wmi_doc_begin(&o, "compare", NULL, NULL);
    wmi_out_str(&o, "page", page_name(wm_ncu_page_of(x)));
    wmi_out_arr(&o, "launches");
    for (size_t i = 0; i < wm_ncu_nlaunches(x); i++) {
        wm_ncu_launch l;
        wm_ncu_launch_info(x, i, &l);
        wmi_out_obj(&o, NULL);
        wmi_out_str(&o, "id", l.id);
        wmi_out_str(&o, "kernel", l.kernel);
        wmi_out_str(&o, "block", l.block);
        wmi_out_str(&o, "grid", l.grid);
        wmi_out_str(&o, "cc", l.cc);
        wmi_out_arr(&o, "metrics");
        for (size_t j = 0; j < l.nmetrics; j++) {
            wm_ncu_value v;
            wm_ncu_metric(x, i, j, &v);
            wmi_out_obj(&o, NULL);
            wmi_out_str(&o, "name", v.name);
            wmi_out_str(&o, "unit", v.unit);
            if (v.has_value)
                wmi_out_num(&o, "value", v.value);
            else
                wmi_out_null(&o, "value");
            if (v.line)
                wmi_out_uint(&o, "line", v.line);
            wmi_out_end(&o);
        }
        wmi_out_end(&o);
        wmi_out_end(&o);
    }
    wmi_out_end(&o);
    wmi_doc_end(&o);
    return wmi_out_finish(&o);
}
