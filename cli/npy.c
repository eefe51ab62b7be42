/*
 * npy.c -- reading and writing .npy headers (see npy.h).  The header dict
 * is parsed by a small recursive-descent reader over a bounded,
 * NUL-free copy: every step checks the end, so no input reads past it.
 */
#include "npy.h"

#include <stdio.h>
#include <string.h>

typedef struct reader {
    const char *p, *end;
} reader;

static void skip_ws(reader *r)
{
    while (r->p < r->end &&
           (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

/* Take c (after whitespace); 1 if it was there. */
static int take(reader *r, char c)
{
    skip_ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return 1;
    }
    return 0;
}

/* A quoted string without escapes into out[cap]; NULL or a message. */
static const char *read_string(reader *r, char *out, size_t cap)
{
    skip_ws(r);
    if (r->p >= r->end || (*r->p != '\'' && *r->p != '"'))
        return "header: expected a quoted string";
    char q = *r->p++;
    size_t n = 0;
    while (r->p < r->end && *r->p != q) {
        if (*r->p == '\\')
            return "header: escapes in strings are not read";
        if (n + 1 >= cap)
            return "header: string too long";
        out[n++] = *r->p++;
    }
    if (r->p >= r->end)
        return "header: unterminated string";
    r->p++;
    out[n] = 0;
    return NULL;
}

static const char *read_bool(reader *r, int *out)
{
    skip_ws(r);
    size_t left = (size_t)(r->end - r->p);
    if (left >= 4 && memcmp(r->p, "True", 4) == 0) {
        *out = 1;
        r->p += 4;
    } else if (left >= 5 && memcmp(r->p, "False", 5) == 0) {
        *out = 0;
        r->p += 5;
    } else {
        return "header: 'fortran_order' is not True or False";
    }
    return NULL;
}

/* One dimension: decimal digits, no sign, at most 2^63-1. */
static const char *read_dim(reader *r, uint64_t *out)
{
    skip_ws(r);
    if (r->p >= r->end || *r->p < '0' || *r->p > '9')
        return "header: 'shape' holds something other than integers";
    uint64_t v = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        unsigned d = (unsigned)(*r->p++ - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return "header: a dimension of 'shape' is too large";
        v = v * 10 + d;
    }
    *out = v;
    return NULL;
}

/* A tuple: () | (N,) | (N, M) | (N, M,) ...; "(N)" is not a tuple. */
static const char *read_shape(reader *r, npy_header *h)
{
    if (!take(r, '('))
        return "header: 'shape' is not a tuple";
    h->ndims = 0;
    h->count = 1;
    int comma = 0; /* a comma after the last dimension */
    while (!take(r, ')')) {
        if (h->ndims == NPY_MAX_DIMS)
            return "header: 'shape' has more than 32 dimensions";
        uint64_t d;
        const char *e = read_dim(r, &d);
        if (e)
            return e;
        if (d && h->count > UINT64_MAX / d)
            return "header: 'shape' has more elements than 2^64";
        h->count *= d;
        h->dims[h->ndims++] = d;
        comma = take(r, ',');
        if (!comma) {
            if (!take(r, ')'))
                return "header: expected ',' or ')' in 'shape'";
            break;
        }
    }
    if (h->ndims == 1 && !comma)
        return "header: 'shape' is not a tuple (a 1-tuple is '(N,)')";
    return NULL;
}

enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

static const char *read_entry(reader *r, npy_header *h, unsigned *seen)
{
    char key[32];
    const char *e = read_string(r, key, sizeof key);
    if (e)
        return e;
    if (!take(r, ':'))
        return "header: expected ':' after a key";
    unsigned k = strcmp(key, "descr") == 0           ? KEY_DESCR
                 : strcmp(key, "fortran_order") == 0 ? KEY_FORTRAN
                 : strcmp(key, "shape") == 0         ? KEY_SHAPE
                                                     : 0;
    if (!k)
        return "header: a key other than 'descr', 'fortran_order', 'shape'";
    if (*seen & k)
        return "header: a key given twice";
    *seen |= k;
    if (k == KEY_DESCR) {
        skip_ws(r);
        if (r->p < r->end && (*r->p == '[' || *r->p == '{'))
            return "header: a structured dtype (only plain arrays are read)";
        return read_string(r, h->descr, sizeof h->descr);
    }
    if (k == KEY_FORTRAN)
        return read_bool(r, &h->fortran_order);
    return read_shape(r, h);
}

static const char *read_dict(reader *r, npy_header *h)
{
    unsigned seen = 0;
    if (!take(r, '{'))
        return "header: not a dict";
    while (!take(r, '}')) {
        const char *e = read_entry(r, h, &seen);
        if (e)
            return e;
        if (!take(r, ',')) {
            if (!take(r, '}'))
                return "header: expected ',' or '}'";
            break;
        }
    }
    skip_ws(r);
    if (r->p != r->end)
        return "header: text after the dict";
    if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE))
        return "header: 'descr', 'fortran_order' or 'shape' is missing";
    return NULL;
}

const char *npy_parse(const void *data, size_t n, npy_header *h)
{
    const unsigned char *u = data;
    memset(h, 0, sizeof *h);
    if (n < 8 || memcmp(u, "\x93NUMPY", 6) != 0)
        return "not a .npy file (no \\x93NUMPY magic)";
    if (u[6] < 1 || u[6] > 3 || u[7] != 0)
        return "a .npy version other than 1.0, 2.0 or 3.0";
    h->major = u[6];
    size_t hs = h->major == 1 ? 10 : 12;
    if (n < hs)
        return "truncated header";
    size_t hl = (size_t)u[8] | (size_t)u[9] << 8;
    if (h->major > 1)
        hl |= (size_t)u[10] << 16 | (size_t)u[11] << 24;
    if (hl > NPY_MAX_HEADER)
        return "header longer than 65536 bytes";
    if (hl > n - hs)
        return "truncated header";
    if (memchr(u + hs, 0, hl))
        return "header: a NUL byte";
    reader r = {(const char *)u + hs, (const char *)u + hs + hl};
    const char *e = read_dict(&r, h);
    if (e)
        return e;
    h->data_off = hs + hl;
    return NULL;
}

const char *npy_descr(wm_ptx_type t)
{
    static const char *const d[WM_PTX_NTYPES] = {
        "|i1", "|u1", "<i2", "<u2", "<i4", "<u4",
        "<i8", "<u8", "<f2", NULL,  "<f4", "<f8"};
    return (unsigned)t < WM_PTX_NTYPES ? d[t] : NULL;
}

size_t npy_format(char *buf, size_t cap, const char *descr,
                  const uint64_t *dims, unsigned nd)
{
    char shape[NPY_MAX_DIMS * 24 + 4];
    size_t o = 0;
    for (unsigned k = 0; k < nd && k < NPY_MAX_DIMS; k++)
        o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%llu",
                              k ? ", " : "", (unsigned long long)dims[k]);
    if (nd == 1)
        shape[o++] = ','; /* (N,) is a 1-tuple, (N) is not */
    shape[o] = 0;
    if (cap < 10)
        return 0;
    int n = snprintf(buf + 10, cap - 10,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                     descr, shape);
    if (n < 0)
        return 0;
    size_t used = 10 + (size_t)n + 1; /* + the newline */
    size_t total = used + (64 - used % 64) % 64;
    if (total > cap || total - 10 > 0xffff)
        return 0;
    memset(buf + 10 + n, ' ', total - used);
    buf[total - 1] = '\n';
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)((total - 10) & 0xff);
    buf[9] = (char)((total - 10) >> 8);
    return total;
}
