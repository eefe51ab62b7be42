/*
 * tmap.c -- TMA tensor maps: the 128 bytes of a CUtensorMap in warpmem's
 * own layout (the driver's is opaque: CUtensorMap is 16 undocumented
 * 64-bit words), encoded from cuTensorMapEncodeTiled's arguments, decoded
 * and checked when cp.async.bulk.tensor uses one, and edited field by
 * field by tensormap.replace (docs/design/ptx-tma.md).
 *
 * Layout (little-endian): u32 magic "WMTM" at 0; u8 dtype 4, rank 5,
 * interleave 6, swizzle 7, oob_fill 8, l2_promotion 9; u64 global address
 * 16; u64 dims[5] 24; u64 strides[4] 64; u16 box[5] 96; u8 elem_strides[5]
 * 106.  The rest is zero.
 */
#include "ptx_tma_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TMAP_MAGIC 0x4d544d57u /* "WMTM" */

unsigned wmi_tmap_esize(unsigned dtype)
{
    static const uint8_t sz[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    return dtype < sizeof sz ? sz[dtype] : 0;
}

uint64_t wm_ptx_buffer_address(size_t i)
{
    return (uint64_t)(i + 1) << 40; /* WMI_WIN_SHIFT: buffer i's window */
}

static int why(char *err, size_t n, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int why(char *err, size_t n, const char *fmt, ...)
{
    if (err && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int wmi_tmap_check(const wm_ptx_tmap *t, char *err, size_t n)
{
    unsigned es = wmi_tmap_esize(t->dtype);
    if (!es)
        return why(err, n, "data type %u is not a CUtensorMapDataType "
                   "(0..12)", t->dtype);
    if (t->rank < 1 || t->rank > 5)
        return why(err, n, "rank %u (1..5)", t->rank);
    if (t->interleave)
        return why(err, n, "interleaved layouts (interleave %u) are not "
                   "modelled", t->interleave);
    if (t->swizzle > 3)
        return why(err, n, "swizzle %u (0 none, 1 32B, 2 64B, 3 128B)",
                   t->swizzle);
    if (t->oob_fill > 1)
        return why(err, n, "OOB fill %u (0 zeros, 1 NaN)", t->oob_fill);
    if (t->global_address % 16)
        return why(err, n, "global address 0x%llx is not 16-byte aligned",
                   (unsigned long long)t->global_address);
    for (unsigned i = 0; i < t->rank; i++) {
        if (t->dims[i] < 1 || t->dims[i] > ((uint64_t)1 << 32))
            return why(err, n, "dimension %u has %llu elements (1..2^32)", i,
                       (unsigned long long)t->dims[i]);
        if (t->box[i] < 1 || t->box[i] > 256)
            return why(err, n, "box dimension %u is %u (1..256)", i,
                       t->box[i]);
        if (t->elem_strides[i] < 1 || t->elem_strides[i] > 8)
            return why(err, n, "element stride %u is %u (1..8)", i,
                       t->elem_strides[i]);
        if (i && (t->strides[i - 1] % 16 || t->strides[i - 1] == 0 ||
                  t->strides[i - 1] >= ((uint64_t)1 << 40)))
            return why(err, n, "stride %u is %llu bytes (a multiple of 16 "
                       "below 2^40)", i - 1,
                       (unsigned long long)t->strides[i - 1]);
    }
    if ((uint64_t)t->box[0] * es % 16)
        return why(err, n, "the box's inner dimension is %llu bytes (a "
                   "multiple of 16)", (unsigned long long)t->box[0] * es);
    if (t->swizzle && (uint64_t)t->box[0] * es > (16u << t->swizzle))
        return why(err, n, "the box's inner dimension of %llu bytes is "
                   "wider than the %u-byte swizzle",
                   (unsigned long long)t->box[0] * es, 16u << t->swizzle);
    return 1;
}

static void put(uint8_t *p, size_t off, uint64_t v, unsigned bytes)
{
    for (unsigned k = 0; k < bytes; k++)
        p[off + k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get(const uint8_t *p, size_t off, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k++)
        v |= (uint64_t)p[off + k] << (8 * k);
    return v;
}

void wmi_tmap_pack(const wm_ptx_tmap *t, uint8_t *p)
{
    memset(p, 0, WMI_TMAP_BYTES);
    put(p, 0, TMAP_MAGIC, 4);
    put(p, 4, t->dtype, 1);
    put(p, 5, t->rank, 1);
    put(p, 6, t->interleave, 1);
    put(p, 7, t->swizzle, 1);
    put(p, 8, t->oob_fill, 1);
    put(p, 9, t->l2_promotion, 1);
    put(p, 16, t->global_address, 8);
    for (unsigned i = 0; i < 5; i++) {
        put(p, 24 + 8 * i, t->dims[i], 8);
        put(p, 96 + 2 * i, t->box[i], 2);
        put(p, 106 + i, t->elem_strides[i], 1);
        if (i < 4)
            put(p, 64 + 8 * i, t->strides[i], 8);
    }
}

int wmi_tmap_unpack(const uint8_t *p, wm_ptx_tmap *t, char *err, size_t n)
{
    memset(t, 0, sizeof *t);
    if (get(p, 0, 4) != TMAP_MAGIC)
        return why(err, n, "its 128 bytes are no tensor map warpmem "
                   "encoded (--arg tmap:..., wm_ptx_tmap_encode; a driver's "
                   "CUtensorMap bytes are opaque)");
    t->dtype = (unsigned)get(p, 4, 1);
    t->rank = (unsigned)get(p, 5, 1);
    t->interleave = (unsigned)get(p, 6, 1);
    t->swizzle = (unsigned)get(p, 7, 1);
    t->oob_fill = (unsigned)get(p, 8, 1);
    t->l2_promotion = (unsigned)get(p, 9, 1);
    t->global_address = get(p, 16, 8);
    for (unsigned i = 0; i < 5; i++) {
        t->dims[i] = get(p, 24 + 8 * i, 8);
        t->box[i] = (unsigned)get(p, 96 + 2 * i, 2);
        t->elem_strides[i] = (unsigned)get(p, 106 + i, 1);
        if (i < 4)
            t->strides[i] = get(p, 64 + 8 * i, 8);
    }
    return wmi_tmap_check(t, err, n);
}

wm_status wm_ptx_tmap_encode(const wm_ptx_tmap *t, void *out128, char *err,
                             size_t errlen)
{
    if (!t || !out128)
        return WM_ERR_ARG;
    if (!wmi_tmap_check(t, err, errlen))
        return WM_ERR_ARG;
    wmi_tmap_pack(t, out128);
    return WM_OK;
}
