/*
 * out.c -- the JSON and CSV writer behind every document (out_int.h).
 *
 * JSON is written as it is described: a container remembers whether it
 * has a member yet (for the comma) and whether it is an array (objects
 * in the arrays of the top object -- sites, lines, lanes -- start on a new
 * line, so documents stay diffable and grep-able, one record a line).  CSV rows are built in memory, with their keys, and written
 * when the row ends: the first row of a table writes the header first.
 */
#include "out_int.h"

#include <inttypes.h>
#include <math.h>

void wmi_out_init(wmi_out *o, FILE *f, int csv)
{
    memset(o, 0, sizeof *o);
    o->f = f;
    o->csv = csv;
    o->row_depth = -1;
    o->first[0] = 1;
}

wm_status wmi_out_finish(wmi_out *o)
{
    if (o->err == WM_OK && (ferror(o->f) || fflush(o->f) != 0))
        o->err = WM_ERR_IO;
    free(o->row);
    free(o->head);
    free(o->cur);
    o->row = o->head = o->cur = NULL;
    return o->err;
}

/* ---- growable buffers for CSV rows ---------------------------------- */

static void buf_put(wmi_out *o, char **b, size_t *len, size_t *cap,
                    const char *s, size_t n)
{
    if (o->err)
        return;
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 256;
        while (*len + n + 1 > c)
            c *= 2;
        char *p = realloc(*b, c);
        if (!p) {
            o->err = WM_ERR_NOMEM;
            return;
        }
        *b = p;
        *cap = c;
    }
    memcpy(*b + *len, s, n);
    *len += n;
    (*b)[*len] = '\0';
}

/* s as one CSV field: quoted when it holds a comma, quote or line break
 * (RFC 4180), quotes doubled. */
static void csv_field(wmi_out *o, const char *s, int quote)
{
    if (!quote)
        quote = strpbrk(s, ",\"\r\n") != NULL;
    if (!quote) {
        buf_put(o, &o->row, &o->rowlen, &o->rowcap, s, strlen(s));
        return;
    }
    buf_put(o, &o->row, &o->rowlen, &o->rowcap, "\"", 1);
    for (const char *p = s; *p; p++) {
        buf_put(o, &o->row, &o->rowlen, &o->rowcap, p, 1);
        if (*p == '"')
            buf_put(o, &o->row, &o->rowlen, &o->rowcap, "\"", 1);
    }
    buf_put(o, &o->row, &o->rowlen, &o->rowcap, "\"", 1);
}

/* A CSV value of the open row; quote: always quote (text columns). */
static void csv_value(wmi_out *o, const char *key, const char *text, int quote)
{
    if (o->row_depth < 0)
        return; /* outside a row: JSON-only part of the document */
    const char *k = key ? key : "";
    if (o->ncol++) {
        buf_put(o, &o->cur, &o->curlen, &o->curcap, ",", 1);
        buf_put(o, &o->row, &o->rowlen, &o->rowcap, ",", 1);
    }
    buf_put(o, &o->cur, &o->curlen, &o->curcap, k, strlen(k));
    csv_field(o, text, quote);
}

/* ---- JSON ------------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    wm_json_string(f, s);
}

/* Separator and key before a JSON value or container at the current
 * depth. */
static void json_prefix(wmi_out *o, const char *key, int container)
{
    int d = o->depth;
    int nl = o->lines && d == 2 && o->is_arr[d] && container;
    if (d > 0 && !o->first[d])
        fputs(nl ? "," : ", ", o->f);
    if (nl)
        fputs("\n  ", o->f); /* one line per site, line, lane */
    o->first[d] = 0;
    if (d > 0 && !o->is_arr[d]) {
        json_string(o->f, key ? key : "");
        fputs(": ", o->f);
    }
}

static void open_container(wmi_out *o, const char *key, int arr)
{
    if (o->csv)
        return;
    json_prefix(o, key, 1);
    fputc(arr ? '[' : '{', o->f);
    if (o->depth + 1 >= WMI_OUT_DEPTH) {
        o->err = WM_ERR_ARG;
        return;
    }
    o->depth++;
    o->first[o->depth] = 1;
    o->is_arr[o->depth] = (unsigned char)arr;
}

void wmi_out_obj(wmi_out *o, const char *key)
{
    open_container(o, key, 0);
}

void wmi_out_arr(wmi_out *o, const char *key)
{
    open_container(o, key, 1);
}

void wmi_out_end(wmi_out *o)
{
    if (o->csv)
        return;
    if (NEVER(o->depth == 0)) {
        o->err = WM_ERR_ARG;
        return;
    }
    fputc(o->is_arr[o->depth] ? ']' : '}', o->f);
    o->depth--;
}

/* ---- rows --------------------------------------------------------------- */

void wmi_out_row(wmi_out *o, const char *key)
{
    if (!o->csv) {
        wmi_out_obj(o, key);
        return;
    }
    o->row_depth = 1;
    o->rowlen = o->curlen = 0;
    o->ncol = 0;
    if (o->row)
        o->row[0] = '\0';
}

void wmi_out_row_end(wmi_out *o)
{
    if (!o->csv) {
        wmi_out_end(o);
        return;
    }
    if (o->row_depth < 0 || o->err)
        return;
    o->row_depth = -1;
    if (!o->have_head) {
        buf_put(o, &o->head, &o->headlen, &o->headcap, o->cur ? o->cur : "",
                o->curlen);
        if (o->err)
            return;
        if (!o->quiet_head)
            fprintf(o->f, "%s\n", o->head ? o->head : "");
        o->have_head = 1;
    } else if (o->curlen != o->headlen ||
               memcmp(o->cur ? o->cur : "", o->head ? o->head : "",
                      o->curlen) != 0) {
        o->err = WM_ERR_ARG; /* a row off its table's header */
        return;
    }
    fprintf(o->f, "%s\n", o->row ? o->row : "");
}

void wmi_out_table(wmi_out *o)
{
    if (!o->csv)
        return;
    if (o->have_head)
        fputc('\n', o->f);
    o->have_head = 0;
    o->headlen = 0;
}

/* ---- values ------------------------------------------------------------- */

void wmi_out_str(wmi_out *o, const char *key, const char *s)
{
    if (o->csv) {
        csv_value(o, key, s ? s : "", 0);
        return;
    }
    json_prefix(o, key, 0);
    if (s)
        json_string(o->f, s);
    else
        fputs("null", o->f);
}

static void scalar(wmi_out *o, const char *key, const char *text)
{
    if (o->csv) {
        csv_value(o, key, strcmp(text, "null") == 0 ? "" : text, 0);
        return;
    }
    json_prefix(o, key, 0);
    fputs(text, o->f);
}

void wmi_out_uint(wmi_out *o, const char *key, uint64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    scalar(o, key, b);
}

void wmi_out_int(wmi_out *o, const char *key, int64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    scalar(o, key, b);
}

void wmi_out_num(wmi_out *o, const char *key, double v)
{
    char b[40];
    if (!isfinite(v))
        snprintf(b, sizeof b, "null");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(b, sizeof b, "%.0f", v);
    else
        snprintf(b, sizeof b, "%.6g", v);
    scalar(o, key, b);
}

void wmi_out_bool(wmi_out *o, const char *key, int v)
{
    scalar(o, key, v ? "true" : "false");
}

void wmi_out_null(wmi_out *o, const char *key)
{
    scalar(o, key, "null");
}

void wmi_out_hex(wmi_out *o, const char *key, uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%" PRIx64, v);
    wmi_out_str(o, key, b);
}

void wmi_out_uints(wmi_out *o, const char *key, const unsigned *v, size_t n)
{
    if (o->csv)
        return;
    json_prefix(o, key, 0);
    fputc('[', o->f);
    for (size_t i = 0; i < n; i++)
        fprintf(o->f, "%s%u", i ? ", " : "", v[i]);
    fputc(']', o->f);
}
