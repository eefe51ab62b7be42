/*
 * namemap.c -- a map from names (borrowed bytes, not copied) to uint32
 * values: open addressing with linear probing, grown at half load.  The
 * PTX parser looks functions up by name through it, so a module of many
 * functions and calls resolves in linear time.
 */
#include "wm_int.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

static wmi_name *slot(const wmi_namemap *nm, const char *s, size_t n)
{
    size_t mask = nm->cap - 1, i = (size_t)hash(s, n) & mask;
    while (nm->e[i].s && !(nm->e[i].n == n && memcmp(nm->e[i].s, s, n) == 0))
        i = (i + 1) & mask;
    return &nm->e[i];
}

static int grow(wmi_namemap *nm)
{
    wmi_namemap big = {calloc(nm->cap ? nm->cap * 2 : 16, sizeof *big.e),
                       nm->cap ? nm->cap * 2 : 16, 0};
    if (!big.e)
        return 0;
    for (size_t i = 0; i < nm->cap; i++)
        if (nm->e[i].s)
            *slot(&big, nm->e[i].s, nm->e[i].n) = nm->e[i];
    big.len = nm->len;
    free(nm->e);
    *nm = big;
    return 1;
}

/* Overwriting a name already there never allocates, so cannot fail. */
int wmi_namemap_put(wmi_namemap *nm, const char *s, size_t n, uint32_t v)
{
    wmi_name *e = nm->cap ? slot(nm, s, n) : NULL;
    if (!e || !e->s) {
        if (2 * (nm->len + 1) > nm->cap && !grow(nm))
            return 0;
        e = slot(nm, s, n);
        nm->len++;
    }
    e->s = s;
    e->n = n;
    e->v = v;
    return 1;
}

uint32_t wmi_namemap_get(const wmi_namemap *nm, const char *s, size_t n)
{
    if (!nm->cap)
        return UINT32_MAX;
    const wmi_name *e = slot(nm, s, n);
    return e->s ? e->v : UINT32_MAX;
}

void wmi_namemap_free(wmi_namemap *nm)
{
    free(nm->e);
    memset(nm, 0, sizeof *nm);
}
