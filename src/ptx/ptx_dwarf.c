/*
 * ptx_dwarf.c -- the declared dimensions of a shared array from the DWARF
 * of a -G build's PTX (docs/check.md "Hazards").
 *
 * PTX declares every array as bytes (`.shared .align 4 .b8 tile[4224]`),
 * but nvcc -G also emits `.section .debug_abbrev { ... }` and
 * `.section .debug_info { ... }` as .b8/.b16/.b32/.b64 directives: the
 * DWARF of the program, where the variable (by its PTX, i.e. linkage,
 * name) has an array type whose subranges are its dimensions.  This file
 * turns those two sections back into bytes (a directive naming a label,
 * such as `.b32 .debug_abbrev` or `.b64 $L__func_begin0`, is zeros of its
 * width: no reference used here needs its value), reads the abbreviations
 * and walks the entries, DWARF 2 to 4 with inline or no strings.  Any
 * form or layout it does not know ends the walk: no dimensions, and the
 * caller keeps a flat index.  Every read is bounds-checked.
 */
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
} bytes;

static int put(bytes *b, uint64_t v, unsigned w)
{
    if (b->n + w > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + w)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q)
            return 0;
        b->p = q;
        b->cap = cap;
    }
    for (unsigned k = 0; k < w; k++)
        b->p[b->n++] = (uint8_t)(v >> (8 * k));
    return 1;
}

/* The bytes of section `name` (".debug_info") of src[0..n), or 0. */
static int section(const char *src, size_t n, const char *name, bytes *out)
{
    const char *end = src + n, *p = src;
    size_t ln = strlen(name);
    memset(out, 0, sizeof *out);
    for (;;) {
        const char *s = strstr(p, ".section"); /* src is NUL-terminated */
        if (!s || s >= end)
            return 0;
        p = s + 8;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if ((size_t)(end - p) > ln && memcmp(p, name, ln) == 0 &&
            (p[ln] == ' ' || p[ln] == '\t' || p[ln] == '\n' ||
             p[ln] == '\r' || p[ln] == '{'))
            break;
    }
    p = memchr(p, '{', (size_t)(end - p));
    if (!p)
        return 0;
    for (p++; p < end && *p != '}';) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
                           *p == '\r'))
            p++;
        if (p >= end || *p == '}')
            break;
        unsigned w = 0;
        if (end - p > 4 && p[0] == '.' && p[1] == 'b') {
            w = p[2] == '8' ? 1 : p[2] == '1' && p[3] == '6' ? 2
              : p[2] == '3' && p[3] == '2' ? 4 : p[2] == '6' && p[3] == '4'
                                                   ? 8 : 0;
        }
        if (!w) {
            free(out->p);
            return 0;
        }
        p += w == 1 ? 3 : 4;
        /* a comma-separated list of numbers or labels to the line's end */
        for (;;) {
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            uint64_t v = 0;
            if (p < end && *p >= '0' && *p <= '9') {
                char *e;
                v = strtoull(p, &e, 0);
                p = e;
            } else {
                while (p < end && *p != ',' && *p != '\n' && *p != '}')
                    p++; /* a label: its value is not needed */
            }
            if (!put(out, v, w)) {
                free(out->p);
                return 0;
            }
            while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
                p++;
            if (p < end && *p == ',') {
                p++;
                continue;
            }
            break;
        }
    }
    return out->n > 0;
}

typedef struct rd {
    const uint8_t *p, *end;
    int bad;
} rd;

static uint64_t fixed(rd *r, unsigned w)
{
    uint64_t v = 0;
    if ((size_t)(r->end - r->p) < w) {
        r->bad = 1;
        r->p = r->end;
        return 0;
    }
    for (unsigned k = 0; k < w; k++)
        v |= (uint64_t)r->p[k] << (8 * k);
    r->p += w;
    return v;
}

static uint64_t leb(rd *r, int sign)
{
    uint64_t v = 0;
    unsigned sh = 0;
    uint8_t b = 0x80;
    while ((b & 0x80) && !r->bad) {
        if (r->p >= r->end || sh > 63) {
            r->bad = 1;
            return 0;
        }
        b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
    }
    if (sign && sh < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << sh;
    return v;
}

static const char *cstr(rd *r)
{
    const uint8_t *z = memchr(r->p, 0, (size_t)(r->end - r->p));
    const char *s = (const char *)r->p;
    if (!z) {
        r->bad = 1;
        r->p = r->end;
        return NULL;
    }
    r->p = z + 1;
    return s;
}

static void skip(rd *r, uint64_t len)
{
    if (len > (uint64_t)(r->end - r->p)) {
        r->bad = 1;
        r->p = r->end;
        return;
    }
    r->p += len;
}

enum { MAX_DIE = 1 << 20 };

typedef struct dies {
    struct die *d;
    size_t n, cap;
} dies;

typedef struct die {
    uint32_t off;      /* from the unit's start */
    uint16_t tag;
    uint16_t depth;
    const char *name, *linkage;
    uint64_t type;     /* unit offset of DW_AT_type, 0 if none */
    uint64_t count, ubound, bsize;
    uint8_t has_count, has_ub;
} die;

/* An attribute's value: the number (or string) of form f. */
static int value(rd *r, uint64_t f, unsigned asz, unsigned ver, uint64_t *v,
                 const char **s)
{
    *v = 0;
    *s = NULL;
    switch (f) {
    case 0x01: *v = fixed(r, asz); break;                  /* addr */
    case 0x0b: case 0x11: case 0x0c: *v = fixed(r, 1); break;
    case 0x05: case 0x12: *v = fixed(r, 2); break;
    case 0x06: case 0x13: case 0x0e: case 0x17: *v = fixed(r, 4); break;
    case 0x10: *v = fixed(r, ver <= 2 ? asz : 4); break;    /* ref_addr */
    case 0x07: case 0x14: case 0x20: *v = fixed(r, 8); break;
    case 0x0d: *v = leb(r, 1); break;
    case 0x0f: case 0x15: *v = leb(r, 0); break;
    case 0x08: *s = cstr(r); break;
    case 0x19: break;                                      /* flag_present */
    case 0x0a: skip(r, fixed(r, 1)); break;                /* block1 */
    case 0x03: skip(r, fixed(r, 2)); break;
    case 0x04: skip(r, fixed(r, 4)); break;
    case 0x09: case 0x18: skip(r, leb(r, 0)); break;       /* block, exprloc */
    default: return 0; /* strx, indirect, ...: not read */
    }
    return !r->bad;
}

/* The entries of the first unit of info (abbreviations in abbrev) into
   d[0..*nd); 0 on anything not understood. */
static int walk(const bytes *info, const bytes *abbrev, dies *ds)
{
    rd r = {info->p, info->p + info->n, 0};
    uint64_t len = fixed(&r, 4);
    unsigned ver = (unsigned)fixed(&r, 2);
    uint64_t aoff = fixed(&r, 4);
    unsigned asz = (unsigned)fixed(&r, 1);
    if (r.bad || len == 0xffffffffu || ver < 2 || ver > 4 ||
        len > info->n - 4 || aoff >= abbrev->n || (asz != 4 && asz != 8))
        return 0;
    r.end = info->p + 4 + len;
    unsigned depth = 0;
    ds->n = 0;
    while (r.p < r.end && !r.bad) {
        uint32_t off = (uint32_t)(r.p - info->p);
        uint64_t code = leb(&r, 0);
        if (code == 0) {
            if (depth)
                depth--;
            continue;
        }
        /* find the abbreviation (a linear scan: a few dozen of them) */
        rd a = {abbrev->p + aoff, abbrev->p + abbrev->n, 0};
        uint64_t tag = 0;
        int children = 0, found = 0;
        while (!a.bad) {
            uint64_t c = leb(&a, 0);
            if (c == 0)
                break;
            tag = leb(&a, 0);
            children = (int)fixed(&a, 1);
            if (c == code) {
                found = 1;
                break;
            }
            for (uint64_t at = 1, fm = 1; (at || fm) && !a.bad;) {
                at = leb(&a, 0);
                fm = leb(&a, 0);
            }
        }
        if (!found || ds->n >= MAX_DIE)
            return 0;
        if (ds->n == ds->cap) {
            size_t cap = ds->cap ? ds->cap * 2 : 256;
            die *q = realloc(ds->d, cap * sizeof *q);
            if (!q)
                return 0;
            ds->d = q;
            ds->cap = cap;
        }
        die *e = &ds->d[ds->n++];
        memset(e, 0, sizeof *e);
        e->off = off;
        e->tag = (uint16_t)tag;
        e->depth = (uint16_t)depth;
        for (;;) {
            uint64_t at = leb(&a, 0), fm = leb(&a, 0), v;
            const char *s;
            if (a.bad)
                return 0;
            if (!at && !fm)
                break;
            if (!value(&r, fm, asz, ver, &v, &s))
                return 0;
            if (at == 0x03) e->name = s;
            else if (at == 0x2007 || at == 0x6e) e->linkage = s;
            else if (at == 0x49) e->type = v;
            else if (at == 0x37) { e->count = v; e->has_count = 1; }
            else if (at == 0x2f) { e->ubound = v; e->has_ub = 1; }
            else if (at == 0x0b) e->bsize = v;
        }
        if (children)
            depth++;
    }
    return !r.bad;
}

static const die *at_off(const die *d, size_t nd, uint64_t off)
{
    for (size_t i = 0; i < nd; i++)
        if (d[i].off == off)
            return &d[i];
    return NULL;
}

/* Through typedefs and qualifiers (DW_TAG_typedef, const, volatile). */
static const die *strip(const die *d, size_t nd, const die *t)
{
    for (int k = 0; t && k < 16 &&
                    (t->tag == 0x16 || t->tag == 0x26 || t->tag == 0x35);
         k++)
        t = t->type ? at_off(d, nd, t->type) : NULL;
    return t;
}

static int dims_of(const die *d, size_t nd, const die *v, wmi_dims *out)
{
    const die *t = v->type ? strip(d, nd, at_off(d, nd, v->type)) : NULL;
    if (!t || t->tag != 0x01)
        return 0;
    const die *el = t->type ? strip(d, nd, at_off(d, nd, t->type)) : NULL;
    if (!el || !el->bsize || el->bsize > 1024)
        return 0;
    out->ndims = 0;
    out->elem = (unsigned)el->bsize;
    for (const die *c = t + 1; c < d + nd && c->depth > t->depth; c++) {
        if (c->depth != t->depth + 1 || c->tag != 0x21)
            continue;
        uint64_t k = c->has_count ? c->count : c->has_ub ? c->ubound + 1 : 0;
        if (!k || out->ndims >= WMI_MAX_DIMS || k > UINT32_MAX)
            return 0;
        out->dim[out->ndims++] = (uint32_t)k;
    }
    return out->ndims > 0;
}

int wmi_dwarf_dims(const char *src, size_t n, const char *var, wmi_dims *out)
{
    bytes info, abbrev;
    int ok = 0;
    memset(out, 0, sizeof *out);
    if (!section(src, n, ".debug_info", &info))
        return 0;
    if (!section(src, n, ".debug_abbrev", &abbrev)) {
        free(info.p);
        return 0;
    }
    dies ds = {NULL, 0, 0};
    /* the strings point into info.p, which lives until the end here */
    if (walk(&info, &abbrev, &ds)) {
        const die *d = ds.d;
        for (size_t i = 0; i < ds.n && !ok; i++)
            if (d[i].tag == 0x34 &&
                ((d[i].linkage && strcmp(d[i].linkage, var) == 0) ||
                 (!d[i].linkage && d[i].name && strcmp(d[i].name, var) == 0)))
                ok = dims_of(d, ds.n, &d[i], out);
    }
    free(ds.d);
    free(info.p);
    free(abbrev.p);
    return ok;
}
