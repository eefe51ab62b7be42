/*
 * fuzz_json.h -- JSON documents a harness writes, checked: json_open gives
 * a memory stream, json_close closes it and aborts (a finding) when the
 * text is not valid JSON (json_check.h), printing what and where.  Include
 * it first: it asks for POSIX 2008 (open_memstream).
 */
#ifndef WM_FUZZ_JSON_H
#define WM_FUZZ_JSON_H

#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "json_check.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct json_doc {
    FILE *f;
    char *buf;
    size_t len;
} json_doc;

/* A stream to write one document into; NULL when none could be opened. */
static FILE *json_open(json_doc *d)
{
    d->buf = NULL;
    d->len = 0;
    d->f = open_memstream(&d->buf, &d->len);
    return d->f;
}

/* Check what was written (what: the writer, for the message). */
static void json_close(json_doc *d, const char *what)
{
    if (!d->f)
        return;
    fclose(d->f);
    size_t at = 0;
    const char *err = d->buf ? json_check(d->buf, d->len, &at) : NULL;
    if (err) {
        size_t from = at > 60 ? at - 60 : 0;
        fprintf(stderr, "%s wrote invalid JSON: %s at byte %zu of %zu:\n%.*s\n",
                what, err, at, d->len, (int)(d->len - from < 120 ? d->len - from
                                                                : 120),
                d->buf + from);
        abort();
    }
    free(d->buf);
    d->f = NULL;
}

#endif /* WM_FUZZ_JSON_H */
