/*
 * ncu_csv.c -- read an Nsight Compute CSV export (or warpmem's own CSV)
 * into launches and metrics (wm_ncu_*, docs/output.md).
 *
 * Pages understood, told apart by the header:
 *   details  "ID",...,"Metric Name","Metric Unit","Metric Value": one row
 *            per (launch, metric); rows of one ID form one launch;
 *   raw      "ID",...,"Kernel Name",... then one column per metric, a row
 *            of units under the header (its ID field is empty), then one
 *            row per launch;
 *   source   "# Line" (or "Line") and metric columns: per source line
 *            counters of one kernel (launch 0, metrics carry their line);
 *   warpmem  command,arch,kernel,scope,... (`--format csv`): totals and,
 *            from the site rows, per line sums of the count metrics.
 *
 * The CSV grammar is RFC 4180: fields separated by commas, optionally in
 * double quotes, a quote inside a quoted field doubled; quoted fields may
 * hold commas and line breaks; records end in LF or CRLF.  Lines before
 * the header that are not CSV (program output, "==PROF==" and
 * "==WARNING==" lines) are skipped anywhere; "==ERROR==" is an error.
 *
 * The text is copied once and fields are unescaped in place, so every
 * string lives in x->buf and offsets of errors are offsets in the text.
 */
#include "wm_int.h"

#include <math.h>
#include <stdio.h>

typedef struct ncu_launch {
    const char *id, *kernel, *block, *grid, *cc;
    size_t first, n; /* range in m[] once sorted; counts while parsing */
} ncu_launch;

typedef struct ncu_metric {
    size_t launch;
    const char *name, *unit, *file;
    uint32_t line;
    double value;
    int has_value;
} ncu_metric;

struct wm_ncu {
    char *buf;
    wm_ncu_page page;
    ncu_launch *l;
    size_t nl, capl;
    ncu_metric *m;
    size_t nm, capm;
};

/* ---- records ------------------------------------------------------------ */

#define MAX_FIELDS 4096

typedef struct csv_rec {
    char *f[MAX_FIELDS];
    size_t off[MAX_FIELDS]; /* offset of each field in the text */
    size_t n;
    size_t start; /* offset of the record */
} csv_rec;

/* Parse one record starting at *pos in buf[0..len) (a writable copy),
 * unescaping fields in place.  0 at the end of the text, 1 with a record,
 * -1 after setting d. */
static int next_record(char *buf, size_t len, size_t *pos, csv_rec *r,
                       wm_diag *d)
{
    size_t i = *pos;
    if (i >= len)
        return 0;
    r->n = 0;
    r->start = i;
    for (;;) {
        if (r->n == MAX_FIELDS) {
            wm_diag_set(d, WM_ERR_PARSE, i, 1, "more than %d fields",
                        MAX_FIELDS);
            return -1;
        }
        size_t w = i; /* write position for the unescaped field */
        r->off[r->n] = i;
        r->f[r->n] = buf + w;
        if (i < len && buf[i] == '"') {
            size_t open = i++;
            for (;;) {
                if (i >= len) {
                    wm_diag_set(d, WM_ERR_PARSE, open, 1,
                                "unterminated quoted field");
                    return -1;
                }
                if (buf[i] == '"') {
                    if (i + 1 < len && buf[i + 1] == '"') {
                        buf[w++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                buf[w++] = buf[i++];
            }
            if (i < len && buf[i] != ',' && buf[i] != '\n' &&
                !(buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n') &&
                buf[i] != '\r') {
                wm_diag_set(d, WM_ERR_PARSE, i, 1,
                            "text after the closing quote of a field "
                            "(a quote inside a field must be doubled)");
                return -1;
            }
        } else {
            while (i < len && buf[i] != ',' && buf[i] != '\n' &&
                   buf[i] != '\r') {
                if (buf[i] == '"') {
                    wm_diag_set(d, WM_ERR_PARSE, i, 1,
                                "a quote inside an unquoted field");
                    return -1;
                }
                buf[w++] = buf[i++];
            }
        }
        char sep = i < len ? buf[i] : '\n';
        buf[w] = '\0';
        r->n++;
        if (sep == ',') {
            i++;
            continue;
        }
        if (sep == '\r')
            i++;
        if (i < len && buf[i] == '\n')
            i++;
        *pos = i;
        return 1;
    }
}

/* ---- building ----------------------------------------------------------- */

static int add_launch(wm_ncu *x, const ncu_launch *l)
{
    if (x->nl == x->capl) {
        size_t c = x->capl ? 2 * x->capl : 8;
        ncu_launch *p = realloc(x->l, c * sizeof *p);
        if (!p)
            return 0;
        x->l = p;
        x->capl = c;
    }
    x->l[x->nl++] = *l;
    return 1;
}

static int add_metric(wm_ncu *x, const ncu_metric *m)
{
    if (x->nm == x->capm) {
        size_t c = x->capm ? 2 * x->capm : 64;
        ncu_metric *p = realloc(x->m, c * sizeof *p);
        if (!p)
            return 0;
        x->m = p;
        x->capm = c;
    }
    x->m[x->nm++] = *m;
    return 1;
}

/*
 * A value as ncu prints it: "1,234.50" (thousands separators), "12",
 * "n/a" or "" (no value).  1 with *v, 0 when there is no value, -1 when
 * the text is not a number.
 */
static int parse_value(const char *s, double *v)
{
    char tmp[64];
    size_t k = 0;
    while (*s == ' ')
        s++;
    if (!*s || strcmp(s, "n/a") == 0 || strcmp(s, "-") == 0)
        return 0;
    for (; *s && k + 1 < sizeof tmp; s++)
        if (*s != ',')
            tmp[k++] = *s;
    if (*s)
        return -1;
    while (k && tmp[k - 1] == ' ')
        k--;
    tmp[k] = '\0';
    char *end;
    *v = strtod(tmp, &end);
    if (end == tmp || *end || !isfinite(*v))
        return -1;
    return 1;
}

static int col(const csv_rec *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->f[i], name) == 0)
            return (int)i;
    return -1;
}

static const char *field(const csv_rec *r, int c)
{
    return c >= 0 && (size_t)c < r->n ? r->f[c] : "";
}

/* The launch columns of ncu's details and raw pages. */
static int is_launch_col(const char *name)
{
    static const char *const cols[] = {
        "ID",        "Process ID", "Process Name", "Host Name",
        "Kernel Name", "Context",  "Stream",       "Block Size",
        "Grid Size", "Device",     "CC",           "Section Name",
        "Rule Name", "Rule Type",  "Rule Description",
        "Estimated Speedup Type", "Estimated Speedup"};
    for (size_t i = 0; i < WM_ARRAY_LEN(cols); i++)
        if (strcmp(name, cols[i]) == 0)
            return 1;
    return 0;
}

typedef struct page_cols {
    int id, kernel, block, grid, cc, name, unit, value; /* ncu pages */
    int line, file, scope, metric;                      /* source, warpmem */
} page_cols;

static void launch_of(const csv_rec *r, const page_cols *c, ncu_launch *l)
{
    memset(l, 0, sizeof *l);
    l->id = field(r, c->id);
    l->kernel = field(r, c->kernel);
    l->block = field(r, c->block);
    l->grid = field(r, c->grid);
    l->cc = field(r, c->cc);
}

/* The launch with this ID (details page; warpmem: by kernel), added when
 * new.  (size_t)-1 on OOM. */
static size_t launch_index(wm_ncu *x, const ncu_launch *l)
{
    for (size_t i = x->nl; i-- > 0;)
        if (strcmp(x->l[i].id, l->id) == 0 &&
            strcmp(x->l[i].kernel, l->kernel) == 0)
            return i;
    return add_launch(x, l) ? x->nl - 1 : (size_t)-1;
}

static wm_status bad_value(wm_diag *d, const csv_rec *r, int c)
{
    return wm_diag_set(d, WM_ERR_PARSE, r->off[c], strlen(r->f[c]) + 1,
                       "'%s' is not a number", r->f[c]);
}

/* One data record of the page. */
static wm_status take_record(wm_ncu *x, const csv_rec *h, const page_cols *c,
                             const csv_rec *units, const csv_rec *r,
                             wm_diag *d)
{
    ncu_launch l;
    ncu_metric m;
    memset(&m, 0, sizeof m);
    if (r->n != h->n)
        return wm_diag_set(d, WM_ERR_PARSE, r->start, 1,
                           "%zu fields, the header has %zu", r->n, h->n);
    switch (x->page) {
    case WM_NCU_DETAILS:
        launch_of(r, c, &l);
        if ((m.launch = launch_index(x, &l)) == (size_t)-1)
            return WM_ERR_NOMEM;
        m.name = field(r, c->name);
        m.unit = field(r, c->unit);
        if ((m.has_value = parse_value(field(r, c->value), &m.value)) < 0)
            return bad_value(d, r, c->value);
        if (!*m.name)
            return WM_OK; /* a row ncu left blank */
        return add_metric(x, &m) ? WM_OK : WM_ERR_NOMEM;
    case WM_NCU_RAW:
        launch_of(r, c, &l);
        if (!add_launch(x, &l))
            return WM_ERR_NOMEM;
        m.launch = x->nl - 1;
        for (size_t i = 0; i < h->n; i++) {
            if (is_launch_col(h->f[i]))
                continue;
            m.name = h->f[i];
            m.unit = units && i < units->n ? units->f[i] : "";
            if ((m.has_value = parse_value(r->f[i], &m.value)) < 0)
                return bad_value(d, r, (int)i);
            if (!add_metric(x, &m))
                return WM_ERR_NOMEM;
        }
        return WM_OK;
    case WM_NCU_SOURCE: {
        double line;
        if (parse_value(r->f[c->line], &line) != 1 || line < 0 ||
            line > UINT32_MAX || line != floor(line))
            return bad_value(d, r, c->line);
        if (x->nl == 0) {
            memset(&l, 0, sizeof l);
            l.id = l.kernel = l.block = l.grid = l.cc = "";
            if (!add_launch(x, &l))
                return WM_ERR_NOMEM;
        }
        m.line = (uint32_t)line;
        for (size_t i = 0; i < h->n; i++) {
            double v;
            if ((int)i == c->line || parse_value(r->f[i], &v) != 1)
                continue; /* the line, the source text, empty cells */
            m.name = h->f[i];
            m.unit = "";
            m.value = v;
            m.has_value = 1;
            if (!add_metric(x, &m))
                return WM_ERR_NOMEM;
        }
        return WM_OK;
    }
    case WM_NCU_WARPMEM: {
        memset(&l, 0, sizeof l);
        l.id = "0";
        l.kernel = field(r, c->kernel);
        l.block = l.grid = l.cc = "";
        if ((m.launch = launch_index(x, &l)) == (size_t)-1)
            return WM_ERR_NOMEM;
        const char *scope = field(r, c->scope);
        if (strcmp(scope, "site") != 0 && strcmp(scope, "total") != 0 &&
            strcmp(scope, "hierarchy") != 0 && strcmp(scope, "launch") != 0)
            return WM_OK; /* estimates: the counted totals are compared */
        m.name = field(r, c->metric);
        if (strcmp(m.name, "launch__block_size") == 0)
            x->l[m.launch].block = field(r, c->value);
        if (strcmp(m.name, "launch__grid_size") == 0)
            x->l[m.launch].grid = field(r, c->value);
        m.unit = field(r, c->unit);
        if ((m.has_value = parse_value(field(r, c->value), &m.value)) < 0)
            return bad_value(d, r, c->value);
        if (strcmp(scope, "site") == 0) {
            double line;
            size_t n = strlen(m.name);
            /* per line: sums of counts only (ratios do not add) */
            if (strncmp(m.name, "per_request", 11) == 0 ||
                (n > 6 && (strcmp(m.name + n - 6, ".ratio") == 0)) ||
                (n > 4 && strcmp(m.name + n - 4, ".pct") == 0) ||
                strstr(m.name, "nway"))
                return WM_OK;
            /* not a line number (none, 0, or past 32 bits): no per-line
               value */
            if (parse_value(field(r, c->line), &line) != 1 || !(line >= 1) ||
                line > (double)UINT32_MAX)
                return WM_OK;
            m.line = (uint32_t)line;
            m.file = field(r, c->file);
            for (size_t i = x->nm; i-- > 0;) {
                ncu_metric *p = &x->m[i];
                if (p->launch == m.launch && p->line == m.line &&
                    strcmp(p->name, m.name) == 0 &&
                    strcmp(p->file, m.file) == 0) {
                    p->value += m.value;
                    return WM_OK;
                }
            }
        }
        if (!m.file)
            m.file = "";
        return add_metric(x, &m) ? WM_OK : WM_ERR_NOMEM;
    }
    }
    return WM_ERR_PARSE;
}

/* Which page a header is; fills c. */
static int classify(const csv_rec *h, page_cols *c, wm_ncu_page *page)
{
    c->id = col(h, "ID");
    c->kernel = col(h, "Kernel Name");
    c->block = col(h, "Block Size");
    c->grid = col(h, "Grid Size");
    c->cc = col(h, "CC");
    c->name = col(h, "Metric Name");
    c->unit = col(h, "Metric Unit");
    c->value = col(h, "Metric Value");
    c->line = col(h, "# Line") >= 0 ? col(h, "# Line") : col(h, "Line");
    c->scope = col(h, "scope");
    c->metric = col(h, "metric");
    c->file = col(h, "file");
    if (c->name >= 0 || c->value >= 0)
        *page = WM_NCU_DETAILS; /* its columns are checked by missing_col */
    else if (c->id >= 0 && c->kernel >= 0)
        *page = WM_NCU_RAW;
    else if (c->line >= 0)
        *page = WM_NCU_SOURCE;
    else if (c->scope >= 0 && c->metric >= 0 && col(h, "value") >= 0 &&
             col(h, "command") == 0) {
        c->kernel = col(h, "kernel");
        c->unit = col(h, "unit");
        c->value = col(h, "value");
        c->line = col(h, "line");
        *page = WM_NCU_WARPMEM;
    } else {
        return 0;
    }
    return 1;
}

/* The first column of its page that the header lacks ("ID" ...), or
   NULL when it has them all.  A details page is one with "Metric Name"
   or "Metric Value"; its rows need these four ("Metric Unit" may be
   missing: the values are then taken as given, without a prefix). */
static const char *missing_col(const csv_rec *h, wm_ncu_page page)
{
    static const char *const details[] = {"ID", "Kernel Name", "Metric Name",
                                          "Metric Value"};
    if (page != WM_NCU_DETAILS)
        return NULL;
    for (size_t i = 0; i < WM_ARRAY_LEN(details); i++)
        if (col(h, details[i]) < 0)
            return details[i];
    return NULL;
}

/* The line at off starts with s. */
static int starts(const char *t, size_t n, size_t off, const char *s)
{
    size_t k = strlen(s);
    return off + k <= n && memcmp(t + off, s, k) == 0;
}

static size_t line_end(const char *t, size_t n, size_t off)
{
    while (off < n && t[off] != '\n')
        off++;
    return off < n ? off + 1 : n;
}

/* The header, the units row and the current record (large: on the heap). */
typedef struct recs {
    csv_rec h, units, r;
} recs;

static wm_status parse(wm_ncu *x, const char *text, size_t n, recs *rs,
                       wm_diag *d)
{
    csv_rec *h = &rs->h, *units = &rs->units, *r = &rs->r;
    page_cols c;
    size_t pos = 0;
    int have_head = 0, have_units = 0;
    memcpy(x->buf, text, n);
    x->buf[n] = '\0';
    while (pos < n) {
        /* tool lines and blank lines, before and between records */
        if (starts(text, n, pos, "==ERROR==")) {
            size_t e = line_end(text, n, pos);
            while (e > pos && (text[e - 1] == '\n' || text[e - 1] == '\r'))
                e--;
            return wm_diag_set(d, WM_ERR_PARSE, pos, e - pos,
                               "the profiler reported an error: %.*s",
                               (int)(e - pos > 200 ? 200 : e - pos),
                               text + pos);
        }
        if (starts(text, n, pos, "==") || text[pos] == '\n' ||
            starts(text, n, pos, "\r\n") ||
            (!have_head && text[pos] != '"' &&
             !starts(text, n, pos, "command,") &&
             !starts(text, n, pos, "# Line"))) {
            pos = line_end(text, n, pos);
            continue;
        }
        csv_rec *rec = !have_head ? h : r;
        int k = next_record(x->buf, n, &pos, rec, d);
        if (k < 0)
            return d->status;
        if (k == 0)
            break;
        if (!have_head) {
            if (!classify(h, &c, &x->page))
                return wm_diag_set(d, WM_ERR_PARSE, h->start, 1,
                                   "not the header of an Nsight Compute CSV "
                                   "export (details, raw or source page) "
                                   "or of warpmem's CSV");
            const char *miss = missing_col(h, x->page);
            if (miss)
                return wm_diag_set(d, WM_ERR_PARSE, h->start, 1,
                                   "the details page has no \"%s\" column "
                                   "(its header needs \"ID\", \"Kernel "
                                   "Name\", \"Metric Name\" and \"Metric "
                                   "Value\")",
                                   miss);
            have_head = 1;
            continue;
        }
        if (x->page == WM_NCU_RAW && !have_units && x->nl == 0 &&
            r->n == h->n && c.id >= 0 && *r->f[c.id] == '\0') {
            *units = *r; /* the row of units under the raw header */
            have_units = 1;
            continue;
        }
        wm_status st = take_record(x, h, &c, have_units ? units : NULL, r,
                                   d);
        if (st == WM_ERR_NOMEM)
            return st;
        if (st != WM_OK)
            return d->status;
    }
    if (!have_head)
        return wm_diag_set(d, WM_ERR_PARSE, 0, 0,
                           "no CSV header (an ncu export starts with "
                           "\"ID\",...; was ncu run with --csv?)");
    return WM_OK;
}

wm_status wm_ncu_parse(const char *text, size_t n, wm_ncu **out, wm_diag *d)
{
    wm_diag local;
    if (!d)
        d = &local;
    memset(d, 0, sizeof *d);
    if (!out || (!text && n))
        return WM_ERR_ARG;
    *out = NULL;
    wm_ncu *x = calloc(1, sizeof *x);
    recs *rs = malloc(sizeof *rs);
    if (!x || !rs || !(x->buf = malloc(n + 1))) {
        free(x);
        free(rs);
        return WM_ERR_NOMEM;
    }
    wm_status st = parse(x, text ? text : "", n, rs, d);
    free(rs);
    if (st != WM_OK) {
        wm_ncu_free(x);
        if (st == WM_ERR_NOMEM)
            wm_diag_set(d, st, 0, 0, "out of memory");
        wm_diag_locate(d, text, n);
        return d->status ? d->status : st;
    }
    /* group each launch's metrics (details rows may interleave), keeping
       their order within a launch: an insertion sort, linear when the
       rows come grouped as ncu writes them */
    for (size_t i = 1; i < x->nm; i++) {
        ncu_metric m = x->m[i];
        size_t j = i;
        while (j > 0 && x->m[j - 1].launch > m.launch) {
            x->m[j] = x->m[j - 1];
            j--;
        }
        x->m[j] = m;
    }
    for (size_t i = 0; i < x->nm; i++) {
        ncu_launch *l = &x->l[x->m[i].launch];
        if (l->n++ == 0)
            l->first = i;
    }
    *out = x;
    return WM_OK;
}

void wm_ncu_free(wm_ncu *x)
{
    if (!x)
        return;
    free(x->buf);
    free(x->l);
    free(x->m);
    free(x);
}

wm_ncu_page wm_ncu_page_of(const wm_ncu *x)
{
    return x->page;
}

size_t wm_ncu_nlaunches(const wm_ncu *x)
{
    return x ? x->nl : 0;
}

int wm_ncu_launch_info(const wm_ncu *x, size_t i, wm_ncu_launch *out)
{
    if (!x || i >= x->nl || !out)
        return 0;
    const ncu_launch *l = &x->l[i];
    out->id = l->id;
    out->kernel = l->kernel;
    out->block = l->block;
    out->grid = l->grid;
    out->cc = l->cc;
    out->nmetrics = l->n;
    return 1;
}

int wm_ncu_metric(const wm_ncu *x, size_t launch, size_t j,
                  wm_ncu_value *out)
{
    if (!x || launch >= x->nl || j >= x->l[launch].n || !out)
        return 0;
    const ncu_metric *m = &x->m[x->l[launch].first + j];
    out->name = m->name;
    out->unit = m->unit;
    out->file = m->file ? m->file : "";
    out->line = m->line;
    out->value = m->value;
    out->has_value = m->has_value;
    return 1;
}
