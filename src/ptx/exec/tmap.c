/*
 * tmap.c -- TMA tensor maps: the 128 bytes of a CUtensorMap in warpmem's
 * own layout (the driver's is opaque: CUtensorMap is 16 undocumented
 * 64-bit words), encoded from cuTensorMapEncodeTiled's (or
 * cuTensorMapEncodeIm2col's) arguments, decoded
 * and checked when cp.async.bulk.tensor uses one, and edited field by
 * field by tensormap.replace (docs/design/ptx-tma.md).
 *
 * Layout (little-endian): u32 magic "WMTM" at 0; u8 dtype 4, rank 5,
 * interleave 6, swizzle 7, oob_fill 8, l2_promotion 9, im2col 10; u64
 * global address 16; u64 dims[5] 24; u64 strides[4] 64; u16 box[5] 96; u8
 * elem_strides[5] 106; an im2col map's u16 channels 112, u16 pixels 114,
 * s16 lower[3] 116, s16 upper[3] 122.  The rest is zero.  tensormap.replace edits these bytes through
 * wmi_tmap_replace (decode, set one field, pack), so the layout has this
 * one owner.
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

/* The box of a tiled map: 1..256 per dimension, the inner row a multiple
   of 16 bytes and at most the swizzle span. */
static int check_box(const wm_ptx_tmap *t, unsigned es, char *err, size_t n)
{
    for (unsigned i = 0; i < t->rank; i++)
        if (t->box[i] < 1 || t->box[i] > 256)
            return why(err, n, "box dimension %u is %u (1..256)", i,
                       t->box[i]);
    if ((uint64_t)t->box[0] * es % 16)
        return why(err, n, "the box's inner dimension is %llu bytes (a "
                   "multiple of 16)", (unsigned long long)t->box[0] * es);
    if (t->swizzle && (uint64_t)t->box[0] * es > (16u << t->swizzle))
        return why(err, n, "the box's inner dimension of %llu bytes is "
                   "wider than the %u-byte swizzle",
                   (unsigned long long)t->box[0] * es, 16u << t->swizzle);
    return 1;
}

/* An im2col map (cuTensorMapEncodeIm2col's limits in cuda.h): rank 3..5,
   corners in the rank's range and a non-empty bounding box, 1..256
   channels within the swizzle span, 1..1024 pixels; and, as for a tiled
   box's inner dimension, the channels a multiple of 16 bytes.
   elementStrides[0] is ignored without interleave (cuda.h: "TMA doesn't
   support the stride for dimension zero"), so it is not checked beyond
   1..8. */
static int check_im2col(const wm_ptx_tmap *t, unsigned es, char *err,
                        size_t n)
{
    static const int lim[6] = {0, 0, 0, 32768, 128, 16};
    if (t->im2col > 1)
        return why(err, n, "im2col %u (0 tiled, 1 im2col)", t->im2col);
    if (t->rank < 3)
        return why(err, n, "an im2col map of rank %u (3..5: C, the spatial "
                   "dimensions, N)", t->rank);
    int l = lim[t->rank];
    for (unsigned i = 0; i + 2 < t->rank; i++) {
        if (t->lower[i] < -l || t->lower[i] >= l)
            return why(err, n, "im2col lower corner %u is %d (%d..%d at "
                       "rank %u)", i, t->lower[i], -l, l - 1, t->rank);
        if (t->upper[i] < -l || t->upper[i] >= l)
            return why(err, n, "im2col upper corner %u is %d (%d..%d at "
                       "rank %u)", i, t->upper[i], -l, l - 1, t->rank);
        long long px = (long long)t->dims[i + 1] + t->upper[i] - t->lower[i];
        if (px < 1)
            return why(err, n, "the im2col bounding box is empty in "
                       "dimension %u (%llu + upper %d - lower %d pixels)",
                       i + 1, (unsigned long long)t->dims[i + 1],
                       t->upper[i], t->lower[i]);
    }
    if (t->channels < 1 || t->channels > 256)
        return why(err, n, "im2col channels per pixel %u (1..256)",
                   t->channels);
    if (t->pixels < 1 || t->pixels > 1024)
        return why(err, n, "im2col pixels per column %u (1..1024)",
                   t->pixels);
    uint64_t row = (uint64_t)t->channels * es;
    if (row % 16)
        return why(err, n, "im2col channels per pixel of %llu bytes (a "
                   "multiple of 16)", (unsigned long long)row);
    if (t->swizzle && row > (16u << t->swizzle))
        return why(err, n, "im2col channels per pixel of %llu bytes are "
                   "wider than the %u-byte swizzle",
                   (unsigned long long)row, 16u << t->swizzle);
    return 1;
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
        if (t->elem_strides[i] < 1 || t->elem_strides[i] > 8)
            return why(err, n, "element stride %u is %u (1..8)", i,
                       t->elem_strides[i]);
        if (i && (t->strides[i - 1] % 16 || t->strides[i - 1] == 0 ||
                  t->strides[i - 1] >= ((uint64_t)1 << 40)))
            return why(err, n, "stride %u is %llu bytes (a multiple of 16 "
                       "below 2^40)", i - 1,
                       (unsigned long long)t->strides[i - 1]);
    }
    return t->im2col ? check_im2col(t, es, err, n) : check_box(t, es, err, n);
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
    put(p, 10, t->im2col, 1);
    put(p, 16, t->global_address, 8);
    for (unsigned i = 0; i < 5; i++) {
        put(p, 24 + 8 * i, t->dims[i], 8);
        put(p, 96 + 2 * i, t->box[i], 2);
        put(p, 106 + i, t->elem_strides[i], 1);
        if (i < 4)
            put(p, 64 + 8 * i, t->strides[i], 8);
    }
    if (!t->im2col)
        return;
    put(p, 112, t->channels, 2);
    put(p, 114, t->pixels, 2);
    for (unsigned i = 0; i < 3; i++) {
        put(p, 116 + 2 * i, (uint16_t)t->lower[i], 2);
        put(p, 122 + 2 * i, (uint16_t)t->upper[i], 2);
    }
}

/* The fields of the 128 bytes p into t, unchecked; 0 without the magic. */
static int decode(const uint8_t *p, wm_ptx_tmap *t)
{
    memset(t, 0, sizeof *t);
    if (get(p, 0, 4) != TMAP_MAGIC)
        return 0;
    t->dtype = (unsigned)get(p, 4, 1);
    t->rank = (unsigned)get(p, 5, 1);
    t->interleave = (unsigned)get(p, 6, 1);
    t->swizzle = (unsigned)get(p, 7, 1);
    t->oob_fill = (unsigned)get(p, 8, 1);
    t->l2_promotion = (unsigned)get(p, 9, 1);
    t->im2col = (unsigned)get(p, 10, 1);
    t->global_address = get(p, 16, 8);
    for (unsigned i = 0; i < 5; i++) {
        t->dims[i] = get(p, 24 + 8 * i, 8);
        t->box[i] = (unsigned)get(p, 96 + 2 * i, 2);
        t->elem_strides[i] = (unsigned)get(p, 106 + i, 1);
        if (i < 4)
            t->strides[i] = get(p, 64 + 8 * i, 8);
    }
    t->channels = (unsigned)get(p, 112, 2);
    t->pixels = (unsigned)get(p, 114, 2);
    for (unsigned i = 0; i < 3; i++) {
        t->lower[i] = (int16_t)get(p, 116 + 2 * i, 2);
        t->upper[i] = (int16_t)get(p, 122 + 2 * i, 2);
    }
    return 1;
}

int wmi_tmap_unpack(const uint8_t *p, wm_ptx_tmap *t, char *err, size_t n)
{
    if (!decode(p, t))
        return why(err, n, "its 128 bytes are no tensor map warpmem "
                   "encoded (--arg tmap:..., wm_ptx_tmap_encode, "
                   "tensormap.replace; a driver's CUtensorMap bytes are "
                   "opaque)");
    return wmi_tmap_check(t, err, n);
}

/* PTX's tensormap.replace elemtype codes (0..12) as CUtensorMapDataType:
   PTX puts f32.ftz at 8, f64 at 9 and bf16 at 10 (PTX ISA, "Tensormap
   new_val validity"), the driver f64 at 8, bf16 at 9 and f32 ftz at 10. */
static const uint8_t ptx_elemtype[] = {0, 1, 2, 3, 4, 5, 6, 7,
                                       10, 8, 9, 11, 12};

/* Set field f (ordinal ord) of t to the new_val v; 1, or 0 + err. */
static int set_field(wm_ptx_tmap *t, unsigned f, unsigned ord, uint64_t v,
                     char *err, size_t n)
{
    static const unsigned nord[] = {
        [WMI_TMAP_BOX] = 5, [WMI_TMAP_GDIM] = 5, [WMI_TMAP_GSTRIDE] = 4,
        [WMI_TMAP_ESTRIDE] = 5};
    if (f < WM_ARRAY_LEN(nord) && nord[f] && ord >= nord[f])
        return why(err, n, "ordinal %u (0..%u)", ord, nord[f] - 1);
    switch (f) {
    case WMI_TMAP_ADDR: t->global_address = v; return 1;
    case WMI_TMAP_RANK: /* new_val is the rank minus one */
        if (v > 4)
            return why(err, n, "rank new_val %llu (rank - 1: 0..4)",
                       (unsigned long long)v);
        t->rank = (unsigned)v + 1;
        return 1;
    case WMI_TMAP_BOX:
        if (v < 1 || v > 256)
            return why(err, n, "box dimension %llu (1..256)",
                       (unsigned long long)v);
        t->box[ord] = (unsigned)v;
        return 1;
    case WMI_TMAP_GDIM:
        if (v < 1)
            return why(err, n, "global dimension 0 (1..2^32)");
        t->dims[ord] = v;
        return 1;
    case WMI_TMAP_GSTRIDE:
        if (v % 16 || v >= ((uint64_t)1 << 40))
            return why(err, n, "global stride %llu bytes (a multiple of 16 "
                       "below 2^40)", (unsigned long long)v);
        t->strides[ord] = v;
        return 1;
    case WMI_TMAP_ESTRIDE:
        if (v < 1 || v > 8)
            return why(err, n, "element stride %llu (1..8)",
                       (unsigned long long)v);
        t->elem_strides[ord] = (unsigned)v;
        return 1;
    case WMI_TMAP_ELEMTYPE:
        if (v >= sizeof ptx_elemtype)
            return why(err, n, "elemtype %llu is not modelled (0..12: u8 .. "
                       "tf32.ftz; the packed 4- and 6-bit types are not)",
                       (unsigned long long)v);
        t->dtype = ptx_elemtype[v];
        return 1;
    case WMI_TMAP_INTERLEAVE:
        if (v > 2)
            return why(err, n, "interleave_layout %llu (0 none, 1 16B, 2 "
                       "32B)", (unsigned long long)v);
        t->interleave = (unsigned)v;
        return 1;
    case WMI_TMAP_SWIZZLE:
        if (v > 3)
            return why(err, n, "swizzle_mode %llu is not modelled (0 none, "
                       "1 32B, 2 64B, 3 128B)", (unsigned long long)v);
        t->swizzle = (unsigned)v;
        return 1;
    case WMI_TMAP_FILL:
        if (v > 1)
            return why(err, n, "fill_mode %llu (0 zeros, 1 NaN)",
                       (unsigned long long)v);
        t->oob_fill = (unsigned)v;
        return 1;
    default:
        return why(err, n, "field %u is not a tensor map field", f);
    }
}

int wmi_tmap_replace(uint8_t *p, unsigned field, unsigned ord, uint64_t v,
                     char *err, size_t n)
{
    wm_ptx_tmap t;
    if (!decode(p, &t)) {
        /* no map yet: all zeros is the empty map Triton and CUTLASS start
           from (PTX ISA: a tensor map can be built field by field) */
        for (unsigned k = 0; k < WMI_TMAP_BYTES; k++)
            if (p[k])
                return why(err, n, "its 128 bytes are neither zeros nor a "
                           "tensor map warpmem encoded (a driver's "
                           "CUtensorMap bytes are opaque)");
    }
    if (!set_field(&t, field, ord, v, err, n))
        return 0;
    wmi_tmap_pack(&t, p);
    return 1;
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
