/*
 * ptx_fill.c -- argument buffer types and the deterministic fill rules
 * shared by `warpmem run --arg` and the tests (zeros, iota, rand=SEED,
 * rand=SEED,LO,HI).  Every element is a function of its index alone, so a
 * buffer can be filled piece by piece (lazily) with the same result.
 * The generator is splitmix64 (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), chosen because it is
 * tiny, has no state beyond one word and gives the same stream everywhere.
 */
#include "ptx_int.h"

#include <errno.h>
#include <stdio.h>

static const struct {
    const char *name;
    size_t size;
} types[WM_PTX_NTYPES] = {
#define X(e, name, size) {name, size},
    WM_PTX_TYPE_LIST(X)
#undef X
};

const char *wm_ptx_type_name(wm_ptx_type t)
{
    return (unsigned)t < WM_PTX_NTYPES ? types[t].name : "?";
}

size_t wm_ptx_type_size(wm_ptx_type t)
{
    return (unsigned)t < WM_PTX_NTYPES ? types[t].size : 0;
}

wm_status wm_ptx_type_parse(const char *name, wm_ptx_type *out)
{
    for (int t = 0; t < WM_PTX_NTYPES; t++)
        if (strcmp(name, types[t].name) == 0) {
            *out = (wm_ptx_type)t;
            return WM_OK;
        }
    return WM_ERR_ARG;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Store value v (integer iv or float fv by type) as element i. */
static void put(void *buf, wm_ptx_type t, size_t i, uint64_t iv, double fv)
{
    uint8_t *p = (uint8_t *)buf + i * types[t].size;
    switch (t) {
    case WM_PTX_I8: case WM_PTX_U8: *p = (uint8_t)iv; break;
    case WM_PTX_I16: case WM_PTX_U16: {
        uint16_t v = (uint16_t)iv;
        memcpy(p, &v, 2);
        break;
    }
    case WM_PTX_I32: case WM_PTX_U32: {
        uint32_t v = (uint32_t)iv;
        memcpy(p, &v, 4);
        break;
    }
    case WM_PTX_I64: case WM_PTX_U64: memcpy(p, &iv, 8); break;
    case WM_PTX_F16: {
        uint16_t v = wmi_float_to_half((float)fv, RND_RN);
        memcpy(p, &v, 2);
        break;
    }
    case WM_PTX_BF16: {
        uint16_t v = wmi_float_to_bf16((float)fv, RND_RN);
        memcpy(p, &v, 2);
        break;
    }
    case WM_PTX_F32: {
        float v = (float)fv;
        memcpy(p, &v, 4);
        break;
    }
    case WM_PTX_F64: memcpy(p, &fv, 8); break;
    case WM_PTX_NTYPES: break;
    }
}

static int is_float(wm_ptx_type t)
{
    return t == WM_PTX_F16 || t == WM_PTX_BF16 || t == WM_PTX_F32 ||
           t == WM_PTX_F64;
}

static int is_signed(wm_ptx_type t)
{
    return t == WM_PTX_I8 || t == WM_PTX_I16 || t == WM_PTX_I32 ||
           t == WM_PTX_I64;
}

/* A parsed rand rule: seed, and for a range its bounds (integers as
   int64 for signed types, uint64 otherwise; floats as doubles). */
typedef struct rand_rule {
    uint64_t seed;
    int ranged;
    uint64_t ulo, span; /* integers: lo bits and hi - lo + 1 (0: 2^64) */
    double flo, fhi;
} rand_rule;

/* One number of a rand rule; 1 if s[0..) up to end is one. */
static int parse_bound(const char *s, const char **end, wm_ptx_type t,
                       uint64_t *u, double *d)
{
    char *e;
    errno = 0;
    if (is_float(t)) {
        *d = strtod(s, &e);
    } else if (is_signed(t)) {
        long long v = strtoll(s, &e, 0);
        unsigned bits = (unsigned)types[t].size * 8;
        if (bits < 64 && (v < -(1ll << (bits - 1)) || v >= (1ll << (bits - 1))))
            return 0;
        *u = (uint64_t)v;
        *d = (double)v;
    } else {
        if (*s == '-')
            return 0;
        unsigned long long v = strtoull(s, &e, 0);
        unsigned bits = (unsigned)types[t].size * 8;
        if (bits < 64 && v >> bits)
            return 0;
        *u = v;
        *d = (double)v;
    }
    if (e == s || errno)
        return 0;
    *end = e;
    return 1;
}

/* "rand=SEED" or "rand=SEED,LO,HI" (after "rand="). */
static int parse_rand(const char *s, wm_ptx_type t, rand_rule *r)
{
    char *end;
    memset(r, 0, sizeof *r);
    if (!*s || *s == '-')
        return 0;
    errno = 0;
    r->seed = strtoull(s, &end, 0);
    if (end == s || errno)
        return 0;
    if (!*end)
        return 1;
    if (*end != ',')
        return 0;
    const char *p = end + 1, *q;
    uint64_t ulo, uhi;
    if (!parse_bound(p, &q, t, &ulo, &r->flo) || *q != ',' ||
        !parse_bound(q + 1, &p, t, &uhi, &r->fhi) || *p)
        return 0;
    r->ranged = 1;
    if (is_float(t))
        return r->flo <= r->fhi;
    if (is_signed(t) ? (int64_t)ulo > (int64_t)uhi : ulo > uhi)
        return 0;
    r->ulo = ulo;
    r->span = uhi - ulo + 1;
    return 1;
}

wm_status wm_ptx_fill_at(void *buf, wm_ptx_type t, size_t first,
                         size_t count, const char *init)
{
    if ((unsigned)t >= WM_PTX_NTYPES || (!buf && count) || !init)
        return WM_ERR_ARG;
    if (strcmp(init, "zeros") == 0) {
        if (count)
            memset(buf, 0, count * types[t].size);
        return WM_OK;
    }
    if (strcmp(init, "iota") == 0) {
        for (size_t i = 0; i < count; i++)
            put(buf, t, i, (uint64_t)(first + i), (double)(first + i));
        return WM_OK;
    }
    rand_rule r;
    if (strncmp(init, "rand=", 5) == 0 && parse_rand(init + 5, t, &r)) {
        /* splitmix64's state after i steps is seed + i * gamma, so element
           first + i needs no earlier outputs */
        uint64_t state = r.seed + (uint64_t)first * 0x9e3779b97f4a7c15ull;
        unsigned bits = (unsigned)types[t].size * 8;
        for (size_t i = 0; i < count; i++) {
            uint64_t x = splitmix64(&state);
            double u = (double)(x >> 11) * 0x1.0p-53;
            if (!r.ranged)
                put(buf, t, i, bits < 64 ? x >> (64 - bits) : x, u);
            else
                put(buf, t, i, r.ulo + (r.span ? x % r.span : x),
                    r.flo + (r.fhi - r.flo) * u);
        }
        return WM_OK;
    }
    return WM_ERR_ARG;
}

wm_status wm_ptx_fill(void *buf, wm_ptx_type t, size_t count,
                      const char *init)
{
    return wm_ptx_fill_at(buf, t, 0, count, init);
}
