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

/* Length of the valid UTF-8 sequence at s[0..n) of 2..4 bytes, or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xf0 && s[0] <= 0xf4   ? 4
               : s[0] >= 0xe0                 ? 3
               : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
                                              : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return k;
}

/*
 * Write s[0..n) so that a terminal shows it as text: tabs and valid UTF-8
 * as they are, other control bytes, DEL and stray high bytes as \xNN.  If
 * mark is nonzero, write instead what lines up under each character: mark
 * per column (a tab stays a tab under ' ').  Used for the source line and
 * the caret line of a report, which must agree column for column.
 */
static void put_text(FILE *f, const char *s, size_t n, char mark)
{
    int caret = mark != 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t k = c >= 0x80 ? utf8_len(u + i, n - i) : 1;
        if (c == '\t' || (c >= 0x20 && c < 0x7f)) {
            fputc(!caret ? c : c == '\t' && mark == ' ' ? '\t' : mark, f);
        } else if (k > 1) {
            if (caret)
                fputc(mark, f);
            else
                fwrite(s + i, 1, k, f);
            i += k;
            continue;
        } else if (caret) {
            for (int j = 0; j < 4; j++)
                fputc(mark, f);
        } else {
            fprintf(f, "\\x%02x", c);
        }
        i++;
    }
}

/* Context shown each side of the error on a long line. */
#define DIAG_CONTEXT 72

void wm_diag_print(FILE *f, const wm_diag *d, const char *file,
                   const char *src, size_t n)
{
    wm_diag loc = *d;
    if (src)
        wm_diag_locate(&loc, src, n);
    else if (loc.line == 0)
        loc.line = loc.col = 1;
    fprintf(f, "%s:%d:%d: error: ", file ? file : "<input>", loc.line,
            loc.col);
    put_text(f, loc.msg, strlen(loc.msg), 0);
    fputc('\n', f);
    if (!src)
        return;
    /* Find the start and end of the offending line. */
    size_t at = loc.offset < n ? loc.offset : n;
    size_t start = at, stop = at;
    while (start > 0 && src[start - 1] != '\n')
        start--;
    while (stop < n && src[stop] != '\n')
        stop++;
    size_t span = loc.len ? loc.len : 1;
    if (at + span > stop && stop > at)
        span = stop - at;
    /* a long line (minified or binary input) shows a window around the
       error, marked with "..." */
    const char *more = "...";
    size_t wstart = start, wstop = stop;
    if (at - start > DIAG_CONTEXT)
        wstart = at - DIAG_CONTEXT;
    if (span > DIAG_CONTEXT)
        span = DIAG_CONTEXT;
    if (stop - at > span + DIAG_CONTEXT)
        wstop = at + span + DIAG_CONTEXT;
    fputs("  ", f);
    if (wstart > start)
        fputs(more, f);
    put_text(f, src + wstart, wstop - wstart, 0);
    if (wstop < stop)
        fputs(more, f);
    fputs("\n  ", f);
    if (wstart > start)
        fputs("   ", f);
    put_text(f, src + wstart, at - wstart, ' ');
    if (at < stop)
        put_text(f, src + at, span, '^');
    else
        fputc('^', f);
    fputc('\n', f);
}
