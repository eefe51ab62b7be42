/*
 * ptx_tma.c -- the tensor memory accelerator: cp.async.bulk.tensor tile
 * loads (global to shared, .multicast::cluster), stores (shared to
 * global) and cp.reduce.async.bulk.tensor, 1-D to 5-D, and im2col loads
 * (3-D to 5-D, the pixel walk in ptx_tma_im2col.c), through a tensor map
 * (tmap.c).
 *
 * Model (docs/design/ptx-tma.md):
 *   - The copy happens at issue, like cp.async.bulk; a load then completes
 *     the box's bytes (out-of-bounds elements included) on its mbarrier,
 *     a store or reduction has nothing left for its bulk_group to wait on.
 *   - Box element (j0..j4) is tensor element coords + j * elementStrides;
 *     one outside the tensor reads as the map's fill (zeros or NaN) and is
 *     not written by a store.  In shared memory the box is dense, dim 0
 *     fastest, and under a swizzle the 16-byte chunk bits [4, 4 + B) of
 *     each shared address are XORed with bits [7, 7 + B) (B = 1, 2, 3 for
 *     32, 64, 128 bytes: CUtensorMapSwizzle's "16-byte chunks within a
 *     32/64/128-byte span").
 *   - The global side is counted per source line in sectors as op "tma"
 *     (WM_OP_TMA): each box row is one or more records of up to 32 pieces
 *     (16 bytes where the row allows).  The shared side is TMA traffic,
 *     not LSU requests: not counted.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "ptx_tma_int.h"

#include <string.h>

void wmi_ptx_tma_decode(const char *s, size_t n, wmi_insn *in)
{
    static const char *const ranks[] = {"1d", "2d", "3d", "4d", "5d"};
    static const char *const aops[] = {"add", "min", "max", "inc", "dec",
                                       "and", "or", "xor"};
    in->type2 = 0;
    for (unsigned r = 0; r < 5; r++)
        if (wmi_has_word(s, n, ranks[r]))
            in->type2 = (uint8_t)(r + 1);
    in->rnd = wmi_has_word(s, n, "multicast::cluster") ? TMA_F_MULTICAST : 0;
    if (wmi_has_word(s, n, "im2col"))
        in->rnd |= TMA_F_IM2COL;
    in->mod2 = AOP_NONE;
    if (memcmp(s, "cp.reduce", 9) == 0) {
        in->mod = TMA_REDUCE;
        for (unsigned k = 0; k < WM_ARRAY_LEN(aops); k++)
            if (wmi_has_word(s, n, aops[k]))
                in->mod2 = (uint8_t)k;
    } else {
        /* the word after .Nd is the destination space (within the
           opcode: one without a rank is refused below) */
        const char *d = s, *e = s + n;
        while (e - d >= 4 && !(d[0] == '.' && d[2] == 'd' && d[3] == '.'))
            d++;
        in->mod = e - d >= 10 && memcmp(d + 4, "global", 6) == 0 ? TMA_STORE
                                                                 : TMA_LOAD;
    }
    /* im2col loads of 3-D to 5-D are; im2col stores, im2col_no_offs,
       im2col::w, gather4/scatter4 and unknown ranks are not modelled */
    if (!in->type2 ||
        ((in->rnd & TMA_F_IM2COL) && (in->mod != TMA_LOAD || in->type2 < 3)) ||
        wmi_has_word(s, n, "im2col_no_offs") ||
        wmi_has_word(s, n, "im2col::w") ||
        wmi_has_word(s, n, "im2col::w::128") ||
        wmi_has_word(s, n, "tile::gather4") ||
        wmi_has_word(s, n, "tile::scatter4") ||
        (in->mod == TMA_REDUCE && in->mod2 == AOP_NONE))
        in->op = OP_UNKNOWN;
}

wmi_type wmi_ptx_tma_src_type(const wmi_insn *in, unsigned k)
{
    if (in->mod == TMA_LOAD && (in->rnd & TMA_F_IM2COL)) {
        /* [dst], [map, {coords}], [mbar], {offsets}{, ctaMask}{, policy} */
        static const wmi_type t[] = {PT_U32, PT_U64, PT_S32, PT_U32,
                                     PT_S16, PT_U16, PT_U64};
        if (k == 5 && !(in->rnd & TMA_F_MULTICAST))
            return PT_U64;
        return k < 7 ? t[k] : PT_U32;
    }
    if (in->mod == TMA_LOAD) {
        static const wmi_type t[] = {PT_U32, PT_U64, PT_S32,
                                     PT_U32, PT_U32, PT_U64};
        return k < 6 ? t[k] : PT_U32;
    }
    static const wmi_type t[] = {PT_U64, PT_S32, PT_U32, PT_U64};
    return k < 4 ? t[k] : PT_U32;
}

/* One copy's geometry: the map, the box's element counts, its bytes. */
typedef struct box {
    wm_ptx_tmap t;
    unsigned es;       /* element bytes */
    unsigned n[5];     /* elements per box dimension */
    int64_t at[5];     /* the coordinates */
    uint64_t elems, bytes;
    unsigned swz_bits; /* 0 none, 1 32 B, 2 64 B, 3 128 B */
    int im2col;        /* n[0] channels of n[1] pixels, walked by walk */
    wmi_im2col walk;
} box;

/* The traversal stride of dimension i: the map's, but none in dimension
   0 (cuda.h, cuTensorMapEncodeTiled: without interleave "the first element
   of this array is ignored since TMA doesn't support the stride for
   dimension zero"). */
static unsigned elem_stride(const wm_ptx_tmap *t, unsigned i)
{
    return i == 0 ? 1 : t->elem_strides[i];
}

/* An im2col copy's offsets (vector slot ov) into the walk: rank - 2 of
   them, 16-bit signed. */
static wm_status im2col_box(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                            uint32_t ov, box *bx)
{
    const wm_ptx_module *mod = c->m;
    unsigned want = bx->t.rank - 2;
    unsigned no = ov == WMI_NOREG ? 0
                  : (ov & WMI_VEC) ? mod->pool[ov & ~WMI_VEC] : 1;
    if (no != want)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "a %uD im2col copy takes %u im2col offsets, "
                             "got %u", bx->t.rank, want, no);
    int64_t off[3] = {0, 0, 0};
    for (unsigned i = 0; i < want; i++) {
        uint32_t slot = (ov & WMI_VEC) ? mod->pool[(ov & ~WMI_VEC) + 1 + i]
                                       : ov;
        off[i] = (int16_t)w->r[slot][l];
    }
    if (bx->t.elem_strides[bx->t.rank - 1] != 1)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_UNSUPPORTED,
                             "an im2col map with element stride %u in N "
                             "(dimension %u) is not modelled",
                             bx->t.elem_strides[bx->t.rank - 1],
                             bx->t.rank - 1);
    bx->n[0] = bx->t.channels;
    bx->n[1] = bx->t.pixels;
    for (unsigned i = 2; i < 5; i++)
        bx->n[i] = 1;
    bx->elems = (uint64_t)bx->n[0] * bx->n[1];
    wmi_im2col_start(&bx->walk, &bx->t, bx->at, off);
    return WM_OK;
}

/* Read and check the map at generic address maddr and the coordinates. */
static wm_status load_box(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                          const wmi_insn *in, uint64_t maddr, uint32_t cv,
                          box *bx)
{
    const wm_ptx_module *mod = c->m;
    wmi_space rs;
    char why[200];
    const uint8_t *p = wmi_ptx_block(c, w, l, pc, SP_GENERIC, maddr,
                                     WMI_TMAP_BYTES, "tensor map read", &rs);
    if (!p)
        return c->status;
    if (!wmi_tmap_unpack(p, &bx->t, why, sizeof why))
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "tensor map at 0x%llx: %s",
                             (unsigned long long)maddr, why);
    unsigned nc = (cv & WMI_VEC) ? mod->pool[cv & ~WMI_VEC] : 1;
    if (bx->t.rank != in->type2 || nc != in->type2)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "a %uD tensor copy with %u coordinates on a "
                             "tensor map of rank %u",
                             in->type2, nc, bx->t.rank);
    bx->im2col = (in->rnd & TMA_F_IM2COL) != 0;
    if (bx->im2col != (bx->t.im2col != 0))
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "a%s copy on %s tensor map at 0x%llx",
                             bx->im2col ? "n im2col" : " tile",
                             bx->im2col ? "a tiled" : "an im2col",
                             (unsigned long long)maddr);
    bx->es = wmi_tmap_esize(bx->t.dtype);
    bx->elems = 1;
    for (unsigned i = 0; i < 5; i++) {
        bx->n[i] = 1;
        bx->at[i] = 0;
        if (i >= bx->t.rank)
            continue;
        uint32_t slot = (cv & WMI_VEC) ? mod->pool[(cv & ~WMI_VEC) + 1 + i]
                                       : cv;
        bx->at[i] = (int32_t)w->r[slot][l];
        bx->n[i] = (bx->t.box[i] + elem_stride(&bx->t, i) - 1) /
                   elem_stride(&bx->t, i);
        bx->elems *= bx->n[i];
    }
    if (bx->im2col) {
        wm_status st = im2col_box(c, w, l, pc, in->d2, bx);
        if (st != WM_OK)
            return st;
    }
    bx->bytes = bx->elems * bx->es;
    bx->swz_bits = bx->t.swizzle;
    if (bx->swz_bits && (uint64_t)bx->n[0] * bx->es != (16u << bx->swz_bits))
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_UNSUPPORTED,
                             "a box row of %llu bytes under the %u-byte "
                             "swizzle is not modelled (rows of exactly the "
                             "swizzle's span are)",
                             (unsigned long long)bx->n[0] * bx->es,
                             16u << bx->swz_bits);
    return WM_OK;
}

/* Tile row r of the box (dims 1..4): its global start into *ga; are its
   coordinates inside the tensor? */
static int tile_row(const box *bx, uint64_t r, uint64_t *ga)
{
    const wm_ptx_tmap *t = &bx->t;
    uint64_t q = r, a = t->global_address;
    int inb = 1;
    for (unsigned i = 1; i < 5; i++) {
        int64_t gi = bx->at[i] + (int64_t)(q % bx->n[i]) *
                                     (int64_t)t->elem_strides[i];
        q /= bx->n[i];
        if (i < t->rank) {
            inb &= gi >= 0 && (uint64_t)gi < t->dims[i];
            a += (uint64_t)gi * t->strides[i - 1];
        }
    }
    *ga = a;
    return inb;
}

/* The shared offset of box element lin bytes in, under the swizzle. */
static uint64_t swizzled(const box *bx, uint64_t dst, uint64_t lin)
{
    uint64_t a = dst + lin;
    if (bx->swz_bits)
        a ^= ((a >> 7) & ((1u << bx->swz_bits) - 1)) << 4;
    return a - dst;
}

/* Count the global pieces of one box row: cnt contiguous elements of es
   bytes from ga, in the widest pieces the row allows. */
static wm_status count_row(wmi_cta *c, uint32_t pc, uint64_t ga,
                           uint64_t cnt, unsigned es)
{
    if (!c->agg || !cnt)
        return WM_OK;
    unsigned g;
    uint64_t bytes = cnt * es;
    for (g = 16; g > es && ((ga | bytes) & (g - 1)); g /= 2)
        ;
    uint64_t npieces = bytes / g;
    wm_access a;
    memset(&a, 0, sizeof a);
    a.site = pc;
    a.space = WM_SPACE_GLOBAL;
    a.op = WM_OP_TMA;
    a.size = g;
    for (uint64_t k = 0; k < npieces; k += 32) {
        unsigned lanes = npieces - k < 32 ? (unsigned)(npieces - k) : 32;
        a.mask = lanes == 32 ? 0xffffffffu : ((uint64_t)1 << lanes) - 1;
        for (unsigned q = 0; q < 32; q++)
            a.addr[q] = q < lanes ? ga + (k + q) * g : 0;
        wm_status st = wm_agg_add(c->agg, &a, NULL);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}

/* The fill of an out-of-bounds element (zeros, or NaN for floats). */
static void fill(const box *bx, uint8_t *d)
{
    memset(d, 0, bx->es);
    unsigned dt = bx->t.dtype;
    int flt = dt == 6 || dt == 7 || dt == 8 || dt == 9 || dt >= 10;
    if (bx->t.oob_fill && flt) {
        memset(d, 0xff, bx->es);
        d[bx->es - 1] = 0x7f; /* a quiet NaN, sign clear */
    }
}

/* Apply reduction op to the element at g (global) from s (shared). */
static int reduce_one(const box *bx, unsigned op, uint8_t *g,
                      const uint8_t *s)
{
    unsigned dt = bx->t.dtype;
    if (dt == 7 || dt == 10) { /* f32 */
        float a, b;
        memcpy(&a, g, 4);
        memcpy(&b, s, 4);
        if (op == AOP_ADD) a += b;
        else if (op == AOP_MIN) a = b < a ? b : a;
        else if (op == AOP_MAX) a = b > a ? b : a;
        else return 0;
        memcpy(g, &a, 4);
        return 1;
    }
    if (dt != 2 && dt != 3 && dt != 4 && dt != 5)
        return 0;
    uint64_t a = 0, b = 0;
    memcpy(&a, g, bx->es);
    memcpy(&b, s, bx->es);
    int sg = dt == 3 || dt == 5;
    int64_t sa = bx->es == 4 ? (int32_t)a : (int64_t)a;
    int64_t sb = bx->es == 4 ? (int32_t)b : (int64_t)b;
    switch (op) {
    case AOP_ADD: a += b; break;
    case AOP_MIN: a = sg ? (uint64_t)(sb < sa ? sb : sa) : (b < a ? b : a); break;
    case AOP_MAX: a = sg ? (uint64_t)(sb > sa ? sb : sa) : (b > a ? b : a); break;
    case AOP_INC: a = a >= b ? 0 : a + 1; break;
    case AOP_DEC: a = (a == 0 || a > b) ? b : a - 1; break;
    case AOP_AND: a &= b; break;
    case AOP_OR: a |= b; break;
    case AOP_XOR: a ^= b; break;
    default: return 0;
    }
    memcpy(g, &a, bx->es);
    return 1;
}

/* Copy the box between global memory and the shared bytes sh (at shared
   address dst): kind TMA_LOAD, _STORE or _REDUCE; rows counted when
   count is set. */
static wm_status copy_box(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                          const wmi_insn *in, const box *bx, uint64_t dst,
                          uint8_t *sh, int count)
{
    const wm_ptx_tmap *t = &bx->t;
    unsigned es = bx->es;
    uint64_t rows = bx->elems / bx->n[0];
    wmi_im2col walk = bx->walk; /* each destination walks from the start */
    for (uint64_t r = 0; r < rows; r++) {
        /* the row's global start; are its coordinates in dims 1.. inside? */
        uint64_t ga;
        int inb = bx->im2col ? wmi_im2col_row(&walk, t, &ga)
                             : tile_row(bx, r, &ga);
        if (bx->im2col)
            wmi_im2col_next(&walk);
        /* the row's in-bounds elements j0 in [lo, hi) */
        int64_t lo = 0, hi = 0;
        if (inb) {
            lo = bx->at[0] < 0 ? -bx->at[0] : 0;
            int64_t last = ((int64_t)t->dims[0] - 1 - bx->at[0]);
            hi = last < 0 ? 0 : last + 1;
            if (hi > bx->n[0])
                hi = bx->n[0];
            if (lo > hi)
                lo = hi;
        }
        uint8_t *gp = NULL;
        uint64_t g0 = ga + (uint64_t)(bx->at[0] + lo) * es;
        if (hi > lo) {
            wmi_space rs;
            uint64_t span = (uint64_t)(hi - lo) * es;
            gp = wmi_ptx_block(c, w, l, pc, SP_GLOBAL, g0, span,
                               "tensor copy", &rs);
            if (!gp)
                return c->status;
        }
        for (int64_t j = 0; j < bx->n[0]; j++) {
            uint8_t *s = sh + swizzled(bx, dst, (r * bx->n[0] + (uint64_t)j) * es);
            int in_b = j >= lo && j < hi;
            uint8_t *g = in_b ? gp + (uint64_t)(j - lo) * es : NULL;
            if (in->mod == TMA_LOAD) {
                if (in_b)
                    memcpy(s, g, es);
                else
                    fill(bx, s);
            } else if (in_b && in->mod == TMA_STORE) {
                memcpy(g, s, es);
            } else if (in_b && !reduce_one(bx, in->mod2, g, s)) {
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_UNSUPPORTED,
                                     "tensor reduction %u on data type %u "
                                     "is not modelled",
                                     in->mod2, t->dtype);
            }
        }
        if (count && hi > lo) {
            wm_status st = count_row(c, pc, g0, (uint64_t)(hi - lo), es);
            if (st != WM_OK)
                return st;
        }
    }
    return WM_OK;
}

/* A load into the CTA at shared address dst (with the rank bits of
   another CTA for a multicast), completing the bytes on its mbarrier. */
static wm_status load_into(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                           const wmi_insn *in, const box *bx, uint64_t dst,
                           uint64_t mbar, int count)
{
    wmi_space rs;
    uint8_t *sh = wmi_ptx_block(c, w, l, pc, SP_SHARED, dst, bx->bytes,
                                "tensor copy store", &rs);
    if (!sh)
        return c->status;
    wm_status st = copy_box(c, w, l, pc, in, bx, dst & WMI_DSMEM_OFF, sh,
                            count);
    if (st != WM_OK)
        return st;
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_block(c, w, pc, l, SP_SHARED, dst, bx->bytes, 1);
    return wmi_ptx_mbar_complete(c, w, l, pc, mbar, bx->bytes);
}

/* The shared address of offset off in the CTA of rank r. */
static uint64_t rank_addr(const wmi_cta *c, uint32_t r, uint64_t off)
{
    off &= WMI_DSMEM_OFF;
    return r == c->rank ? off : (uint64_t)(r + 1) << WMI_DSMEM_SHIFT | off;
}

static wm_status tma_lane(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                          const wmi_insn *in)
{
    uint64_t (*R)[32] = w->r;
    int load = in->mod == TMA_LOAD;
    uint64_t maddr = R[load ? in->b : in->a][l];
    box bx;
    wm_status st = load_box(c, w, l, pc, in, maddr, load ? in->c : in->b, &bx);
    if (st != WM_OK)
        return st;
    uint64_t sa = (uint32_t)(load ? R[in->a][l] + (uint64_t)in->imm
                                  : R[in->c][l]);
    if (sa % 128)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "tensor copy shared address 0x%llx is not "
                             "128-byte aligned",
                             (unsigned long long)sa);
    if (!load) {
        wmi_space rs;
        uint8_t *sh = wmi_ptx_block(c, w, l, pc, SP_SHARED, sa, bx.bytes,
                                    "tensor copy load", &rs);
        if (!sh)
            return c->status;
        if (c->flags & WMI_RUN_CHECK)
            wmi_check_block(c, w, pc, l, SP_SHARED, sa, bx.bytes, 0);
        return copy_box(c, w, l, pc, in, &bx, sa, sh, 1);
    }
    uint64_t mbar = (uint32_t)R[in->e][l];
    if (!(in->rnd & TMA_F_MULTICAST))
        return load_into(c, w, l, pc, in, &bx, sa, mbar, 1);
    /* .multicast::cluster: the box lands at the same offsets of every CTA
       of ctaMask, each completing on its own mbarrier; counted once */
    uint32_t mslot = (in->rnd & TMA_F_IM2COL) ? in->d : in->d2;
    const wmi_cluster *cl = wmi_cta_cluster(c);
    uint32_t mask = (uint16_t)R[mslot][l], n = cl ? cl->n : 1;
    if (mask >> n)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "multicast ctaMask 0x%x names CTAs outside the "
                             "cluster of %u",
                             mask, n);
    int first = 1;
    for (uint32_t r = 0; r < n; r++) {
        if (!(mask >> r & 1))
            continue;
        st = load_into(c, w, l, pc, in, &bx, rank_addr(c, r, sa),
                       rank_addr(c, r, mbar), first);
        if (st != WM_OK)
            return st;
        first = 0;
    }
    return WM_OK;
}

wm_status wmi_ptx_tma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m)
{
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        wm_status st = tma_lane(c, w, l, pc, in);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}
