/*
 * diag.c -- first-error-wins diagnostics: byte offset -> line:col, and the
 * "file:line:col: error: msg" + source line + caret report.
 */
#include "wm_int.h"

#include <stdarg.h>
#include <stdio.h>

wm_status wm_diag_set(wm_diag *d, wm_status st, size_t offset, size_t len,
                      const char *fmt, ...)
{
    va_list ap;
    if (d->status != WM_OK)
        return d->status; /* the first error wins */
    d->status = st;
    d->offset = offset;
    d->len = len ? len : 1;
    d->line = 0;
    d->col = 0;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return st;
}

void wm_diag_locate(wm_diag *d, const char *src, size_t n)
{
    int line = 1, col = 1;
    size_t end = d->offset < n ? d->offset : n;
    for (size_t i = 0; i < end; i++) {
        if (src[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    d->line = line;
    d->col = col;
}

void wm_diag_print(FILE *f, const wm_diag *d, const char *file,
                   const char *src, size_t n)
{
    wm_diag loc = *d;
    if (src)
        wm_diag_locate(&loc, src, n);
    else if (loc.line == 0)
        loc.line = loc.col = 1;
    fprintf(f, "%s:%d:%d: error: %s\n", file ? file : "<input>", loc.line,
            loc.col, loc.msg);
    if (!src)
        return;
    /* Find the start and end of the offending line. */
    size_t at = loc.offset < n ? loc.offset : n;
    size_t start = at, stop = at;
    while (start > 0 && src[start - 1] != '\n')
        start--;
    while (stop < n && src[stop] != '\n')
        stop++;
    fprintf(f, "  %.*s\n  ", (int)(stop - start), src + start);
    for (size_t i = start; i < at; i++)
        fputc(src[i] == '\t' ? '\t' : ' ', f);
    size_t span = loc.len ? loc.len : 1;
    if (at + span > stop && stop > at)
        span = stop - at;
    for (size_t i = 0; i < span; i++)
        fputc('^', f);
    fputc('\n', f);
}
