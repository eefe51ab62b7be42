/*
 * run_tmap.c -- `warpmem run --arg tmap:...`: a TMA tensor map for a
 * `__grid_constant__ const CUtensorMap` parameter, described by
 * cuTensorMapEncodeTiled's arguments in their order:
 *
 *   tmap:DTYPE[D0xD1...]:box=B0xB1...[:strides=S1xS2...][:estrides=E0x...]
 *        [:interleave=none][:swizzle=none|32B|64B|128B][:l2=none|64B|128B|256B]
 *        [:fill=zeros|nan][:zeros|:iota|:rand=SEED[,LO,HI]|:file=PATH][:out=PATH]
 *
 * or, for cuTensorMapEncodeIm2col's map (rank 3..5, no box=),
 *   tmap:DTYPE[CxWx..xN]:im2col=lower(L..),upper(U..),ch=CH,px=PX[:...]
 * with rank - 2 corners each, W first (pixelBoxLowerCorner/UpperCorner),
 * CH channels per pixel and PX pixels per column.
 *
 * D0 is dimension 0, the contiguous one (globalDim[0]; the reverse of a
 * numpy shape), S1.. the byte strides of dimensions 1.. (globalStrides;
 * default packed), E the element strides (default 1).  The tensor's data
 * is an extra device buffer of S(rank-1) x D(rank-1) bytes whose address
 * the map holds; the map itself is the 128 parameter bytes
 * (wm_ptx_tmap_encode).  docs/design/ptx-tma.md.
 */
#include "cli.h"
#include "run_value.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CUtensorMapDataType names, by value, and the --arg buffer type of
   their elements. */
static const struct {
    const char *name, *elem;
} dtypes[] = {
    {"u8", "u8"},   {"u16", "u16"},     {"u32", "u32"},  {"i32", "i32"},
    {"u64", "u64"}, {"i64", "i64"},     {"f16", "f16"},  {"f32", "f32"},
    {"f64", "f64"}, {"bf16", "bf16"},   {"f32ftz", "f32"}, {"tf32", "f32"},
    {"tf32ftz", "f32"},
};

/* "AxBxC" into v[0..], at most max numbers in [lo, hi]; the count, or 0. */
static unsigned numbers(const char *s, size_t n, uint64_t *v, unsigned max,
                        uint64_t lo, uint64_t hi)
{
    unsigned k = 0;
    const char *e = s + n;
    while (s < e && k < max) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (end == s || end > e || errno || x < lo || x > hi)
            return 0;
        v[k++] = x;
        s = end;
        if (s < e && *s != 'x')
            return 0;
        s += s < e;
    }
    return s == e ? k : 0;
}

/* A size word (none | 32B | 64B | 128B | 256B) as its code among words. */
static int word_code(const char *s, size_t n, const char *const *words,
                     unsigned nw, unsigned *out)
{
    for (unsigned k = 0; k < nw; k++)
        if (strlen(words[k]) == n && memcmp(s, words[k], n) == 0) {
            *out = k;
            return 1;
        }
    return 0;
}

/* "-1,2)" : up to max signed numbers before ')' into v; their count, 0
   on a syntax error; *end after the ')'. */
static unsigned ints(const char *s, const char *e, int *v, unsigned max,
                     const char **end)
{
    unsigned k = 0;
    while (s < e && k < max) {
        char *q;
        errno = 0;
        long x = strtol(s, &q, 10);
        if (q == s || q >= e || errno || x < -65536 || x > 65536)
            return 0;
        v[k++] = (int)x;
        s = q;
        if (*s == ')') {
            *end = s + 1;
            return k;
        }
        if (*s++ != ',')
            return 0;
    }
    return 0;
}

/* im2col=lower(..),upper(..),ch=N,px=N into t (the counts of corners into
   nc[0], nc[1]); 1, or 0 on a syntax error. */
static int im2col_opt(const char *s, size_t n, wm_ptx_tmap *t, unsigned *nc)
{
    const char *e = s + n;
    t->im2col = 1;
    while (s < e) {
        if (e - s > 6 && (memcmp(s, "lower(", 6) == 0 ||
                          memcmp(s, "upper(", 6) == 0)) {
            int up = s[0] == 'u';
            if (!(nc[up] = ints(s + 6, e, up ? t->upper : t->lower, 3, &s)))
                return 0;
        } else if (e - s > 3 && (memcmp(s, "ch=", 3) == 0 ||
                                 memcmp(s, "px=", 3) == 0)) {
            char *q;
            errno = 0;
            unsigned long x = strtoul(s + 3, &q, 10);
            if (q == s + 3 || q > e || errno || x > 65535)
                return 0;
            *(s[0] == 'c' ? &t->channels : &t->pixels) = (unsigned)x;
            s = q;
        } else {
            return 0;
        }
        if (s < e && (*s++ != ',' || s == e)) /* "a,b", not "a," */
            return 0;
    }
    return 1;
}

/* One :key=value of the map; 1, 0 not a map option, -1 after an error. */
static int map_opt(const char *spec, const char *s, size_t l,
                   wm_ptx_tmap *t, unsigned *nbox, unsigned *nstr,
                   unsigned *nes, unsigned *ncorner)
{
    static const char *const swz[] = {"none", "32B", "64B", "128B"};
    static const char *const l2[] = {"none", "64B", "128B", "256B"};
    static const char *const fills[] = {"zeros", "nan"};
    static const char *const il[] = {"none"};
    uint64_t v[5];
    const char *eq = memchr(s, '=', l);
    if (!eq)
        return 0;
    size_t kl = (size_t)(eq - s), vl = l - kl - 1;
    const char *val = eq + 1;
#define KEY(k) (kl == strlen(k) && memcmp(s, k, kl) == 0)
    if (KEY("box")) {
        if (!(*nbox = numbers(val, vl, v, 5, 1, 256)))
            goto bad;
        for (unsigned i = 0; i < *nbox; i++)
            t->box[i] = (unsigned)v[i];
    } else if (KEY("strides")) {
        if (!(*nstr = numbers(val, vl, t->strides, 4, 16,
                              ((uint64_t)1 << 40) - 16)))
            goto bad;
    } else if (KEY("estrides")) {
        if (!(*nes = numbers(val, vl, v, 5, 1, 8)))
            goto bad;
        for (unsigned i = 0; i < *nes; i++)
            t->elem_strides[i] = (unsigned)v[i];
    } else if (KEY("swizzle")) {
        if (!word_code(val, vl, swz, 4, &t->swizzle))
            goto bad;
    } else if (KEY("l2")) {
        if (!word_code(val, vl, l2, 4, &t->l2_promotion))
            goto bad;
    } else if (KEY("fill")) {
        if (!word_code(val, vl, fills, 2, &t->oob_fill))
            goto bad;
    } else if (KEY("interleave")) {
        if (!word_code(val, vl, il, 1, &t->interleave))
            goto bad;
    } else if (KEY("im2col")) {
        if (!im2col_opt(val, vl, t, ncorner))
            goto bad;
    } else {
        return 0;
    }
#undef KEY
    return 1;
bad:
    cli_usage_error("--arg '%s': bad '%.*s' (box=B0xB1.. 1..256, "
                    "strides=S1x.. bytes, estrides=E0x.. 1..8, "
                    "swizzle=none|32B|64B|128B, l2=none|64B|128B|256B, "
                    "fill=zeros|nan, interleave=none, "
                    "im2col=lower(L,..),upper(U,..),ch=N,px=N)",
                    spec, (int)l, s);
    return -1;
}

int rv_tmap_arg(const char *spec, wm_ptx_arg *a, run_values *rv)
{
    wm_ptx_tmap t;
    memset(&t, 0, sizeof t);
    const char *s = spec + 5, *br = strchr(s, '['), *cl;
    unsigned k = 0;
    for (; br && k < sizeof dtypes / sizeof dtypes[0]; k++)
        if (strlen(dtypes[k].name) == (size_t)(br - s) &&
            memcmp(s, dtypes[k].name, (size_t)(br - s)) == 0)
            break;
    if (!br || k == sizeof dtypes / sizeof dtypes[0] ||
        !(cl = strchr(br, ']')))
        return cli_usage_error("--arg '%s': expected tmap:DTYPE[D0xD1...] "
                               "with DTYPE u8 u16 u32 i32 u64 i64 f16 f32 f64 "
                               "bf16 f32ftz tf32 tf32ftz", spec), 0;
    t.dtype = k;
    t.rank = numbers(br + 1, (size_t)(cl - br - 1), t.dims, 5, 1,
                     (uint64_t)1 << 32);
    if (!t.rank)
        return cli_usage_error("--arg '%s': expected 1 to 5 dimensions "
                               "D0xD1... (1..2^32 elements)", spec), 0;
    for (unsigned i = 0; i < 5; i++)
        t.elem_strides[i] = 1;
    /* the map's options here, the data's (init, file, out) for rv_buffer */
    char data[600];
    wm_ptx_type et = WM_PTX_U8;
    if (wm_ptx_type_parse(dtypes[k].elem, &et) != WM_OK)
        return 0; /* the table names known types */
    unsigned es = (unsigned)wm_ptx_type_size(et);
    size_t dl = 0;
    unsigned nbox = 0, nstr = 0, nes = 0, ncorner[2] = {0, 0};
    for (const char *q = cl + 1; *q == ':';) {
        q++;
        size_t l = strcspn(q, ":");
        int r = map_opt(spec, q, l, &t, &nbox, &nstr, &nes, ncorner);
        if (r < 0)
            return 0;
        if (r == 0) {
            if (dl + l + 2 >= sizeof data)
                return cli_usage_error("--arg '%s': too long", spec), 0;
            data[dl++] = ':';
            memcpy(data + dl, q, l);
            dl += l;
        }
        q += l;
    }
    if (t.im2col && (nbox || t.rank < 3 || ncorner[0] != t.rank - 2 ||
                     ncorner[1] != t.rank - 2))
        return cli_usage_error("--arg '%s': an im2col map has rank 3 to 5 "
                               "(C, the spatial dimensions, N), no box=, "
                               "and im2col=lower(..),upper(..) with rank - 2 "
                               "corners each (W first)", spec), 0;
    if ((!t.im2col && nbox != t.rank) || (nstr && nstr != t.rank - 1) ||
        (nes && nes != t.rank))
        return cli_usage_error("--arg '%s': a rank-%u map needs box= with %u "
                               "sizes (strides= %u, estrides= %u)",
                               spec, t.rank, t.rank, t.rank - 1, t.rank), 0;
    uint64_t row = t.dims[0] * es;
    for (unsigned i = 1; i < t.rank && !nstr; i++) {
        t.strides[i - 1] = i == 1 ? row : t.strides[i - 2] * t.dims[i - 1];
        if (t.strides[i - 1] % 16)
            return cli_usage_error("--arg '%s': the packed stride of "
                                   "dimension %u is %llu bytes, not a "
                                   "multiple of 16: give strides=", spec, i,
                                   (unsigned long long)t.strides[i - 1]), 0;
    }
    uint64_t bytes = t.rank == 1 ? row
                                 : t.strides[t.rank - 2] * t.dims[t.rank - 1];
    char err[200];
    uint8_t *v = malloc(128);
    if (!v || rv->nvals >= RV_MAX || rv->nextra >= RV_MAX ||
        rv->nfix >= RV_MAX) {
        free(v);
        return cli_error("--arg '%s': out of memory or too many by-value "
                         "arguments", spec), 0;
    }
    if (wm_ptx_tmap_encode(&t, v, err, sizeof err) != WM_OK) {
        free(v);
        return cli_usage_error("--arg '%s': %s", spec, err), 0;
    }
    rv->vals[rv->nvals++] = v;
    char buf[700];
    snprintf(buf, sizeof buf, "%s[%llu]%.*s", dtypes[k].elem,
             (unsigned long long)(bytes / es), (int)dl, data);
    wm_ptx_arg *x = &rv->extra[rv->nextra];
    size_t xb;
    char ctx[1024];
    snprintf(ctx, sizeof ctx, "--arg '%s': data '%s'", spec, buf);
    if (!rv_buffer(ctx, buf, strlen(buf), &x->buf, &xb,
                   &rv->extra_out[rv->nextra], rv))
        return 0;
    x->bytes = xb;
    rv->fix[rv->nfix].val = v;
    rv->fix[rv->nfix].off = 16; /* the map's global address (tmap.c) */
    rv->fix[rv->nfix].extra = rv->nextra++;
    rv->nfix++;
    a->value = v;
    a->size = 128;
    return 1;
}
