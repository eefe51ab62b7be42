/*
 * ptx_fill.c -- argument buffer types and the deterministic fill rules
 * shared by `warpmem run --arg` and the tests (zeros, iota, rand=SEED).
 * The generator is splitmix64 (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), chosen because it is
 * tiny, has no state beyond one word and gives the same stream everywhere.
 */
#include "ptx_int.h"

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

wm_status wm_ptx_fill(void *buf, wm_ptx_type t, size_t count,
                      const char *init)
{
    if ((unsigned)t >= WM_PTX_NTYPES || (!buf && count) || !init)
        return WM_ERR_ARG;
    if (strcmp(init, "zeros") == 0) {
        memset(buf, 0, count * types[t].size);
        return WM_OK;
    }
    if (strcmp(init, "iota") == 0) {
        for (size_t i = 0; i < count; i++)
            put(buf, t, i, (uint64_t)i, (double)i);
        return WM_OK;
    }
    if (strncmp(init, "rand=", 5) == 0) {
        char *end;
        const char *s = init + 5;
        if (!*s || *s == '-')
            return WM_ERR_ARG;
        uint64_t state = strtoull(s, &end, 0);
        if (*end)
            return WM_ERR_ARG;
        for (size_t i = 0; i < count; i++) {
            uint64_t x = splitmix64(&state);
            put(buf, t, i, x >> 56, (double)(x >> 11) * 0x1.0p-53);
        }
        return WM_OK;
    }
    return WM_ERR_ARG;
}
