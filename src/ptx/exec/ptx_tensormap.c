/*
 * ptx_tensormap.c -- tensor maps built in device code: tensormap.replace
 * edits one field of a 128-byte map in global or shared memory,
 * tensormap.cp_fenceproxy copies a map from shared to global memory (as
 * Triton's device-side tensor descriptors and CUTLASS's grouped GEMMs do
 * before a cp.async.bulk.tensor reads it).
 *
 * Model (docs/design/ptx-tma.md, "Maps built in device code"):
 *   - The map's bytes are warpmem's layout (tmap.c owns it): replace
 *     decodes them, sets the field and packs them back, so a later copy
 *     through that address sees the edit.  All-zero bytes are a map being
 *     built; the result is checked when a copy uses it, not at each edit.
 *   - There is one proxy: the tensormap proxy fences
 *     (fence.proxy.tensormap::generic) are no-ops, and cp_fenceproxy is a
 *     128-byte copy done at issue.
 *   - Neither adds memory traffic to the report (a map is 128 bytes per
 *     CTA, not the kernel's data); under --check the bytes are block
 *     accesses of the lane, as cp.async.bulk's are.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "ptx_tma_int.h"

#include <string.h>

/* The PTX spellings of the fields, by WMI_TMAP_* value. */
static const char *const fields[] = {
    "global_address", "rank", "box_dim", "global_dim", "global_stride",
    "element_stride", "elemtype", "interleave_layout", "swizzle_mode",
    "fill_mode"};

void wmi_ptx_tensormap_decode(const char *s, size_t n, wmi_insn *in)
{
    if (wmi_has_word(s, n, "cp_fenceproxy")) {
        /* .global.shared::cta: [dst] global, [src] shared */
        in->mod = WMI_TMAP_CP;
        in->space = SP_GLOBAL;
        if (!wmi_has_word(s, n, "global") || !wmi_has_word(s, n, "shared::cta"))
            in->op = OP_UNKNOWN;
        return;
    }
    in->op = OP_UNKNOWN; /* until a modelled field is found */
    if (!wmi_has_word(s, n, "replace") || !wmi_has_word(s, n, "tile"))
        return; /* swizzle_atomicity, im2col and the rest: not modelled */
    for (unsigned f = 0; f < WM_ARRAY_LEN(fields); f++)
        if (wmi_has_word(s, n, fields[f])) {
            in->op = OP_TENSORMAP;
            in->mod = (uint8_t)f;
        }
    in->space = wmi_has_word(s, n, "shared::cta") ? SP_SHARED : SP_GLOBAL;
}

/* Does field f take an ordinal (box_dim, global_dim, global_stride,
   element_stride: [addr], ord, new_val)? */
static int has_ord(unsigned f)
{
    return f == WMI_TMAP_BOX || f == WMI_TMAP_GDIM ||
           f == WMI_TMAP_GSTRIDE || f == WMI_TMAP_ESTRIDE;
}

wmi_type wmi_ptx_tensormap_src_type(const wmi_insn *in, unsigned k)
{
    if (in->mod == WMI_TMAP_CP) /* [dst], [src], size */
        return k < 2 ? PT_U64 : PT_U32;
    if (k == 0)
        return PT_U64;
    return k == 1 && has_ord(in->mod) ? PT_U32 : (wmi_type)in->type;
}

/* tensormap.replace for lane l. */
static wm_status replace(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                         const wmi_insn *in)
{
    int ord = has_ord(in->mod);
    if ((ord ? in->c : in->b) == WMI_NOREG || (!ord && in->c != WMI_NOREG))
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "tensormap.replace.tile.%s takes [addr], %s"
                             "new_val", fields[in->mod], ord ? "ord, " : "");
    uint64_t addr = w->r[in->a][l] + (uint64_t)in->imm;
    uint64_t v = w->r[ord ? in->c : in->b][l];
    if (wmi_type_bits((wmi_type)in->type) == 32)
        v = (uint32_t)v;
    wmi_space rs;
    uint8_t *p = wmi_ptx_block(c, w, l, pc, (wmi_space)in->space, addr,
                               WMI_TMAP_BYTES, "tensor map edit", &rs);
    if (!p)
        return c->status;
    if (addr % 64)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "tensormap.replace: the map at 0x%llx is not "
                             "64-byte aligned",
                             (unsigned long long)addr);
    char why[200];
    if (!wmi_tmap_replace(p, in->mod, ord ? (uint32_t)w->r[in->b][l] : 0, v,
                          why, sizeof why))
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "tensormap.replace.tile.%s of the map at "
                             "0x%llx: %s",
                             fields[in->mod], (unsigned long long)addr, why);
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_block(c, w, pc, l, rs, addr, WMI_TMAP_BYTES, 1);
    return WM_OK;
}

/* tensormap.cp_fenceproxy for lane l: global [a] = shared [b], 128 bytes;
   lanes of the warp naming the same copy as the previous lane (the
   instruction is .sync.aligned: Triton's warp gives one) copy it once. */
static wm_status cp_map(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                        const wmi_insn *in, uint64_t *last)
{
    uint64_t dst = w->r[in->a][l] + (uint64_t)in->imm;
    uint64_t src = w->r[in->b][l] + (uint64_t)in->imm2;
    uint64_t size = (uint32_t)w->r[in->c][l];
    if (size != WMI_TMAP_BYTES)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "tensormap.cp_fenceproxy of %llu bytes (a "
                             "tensor map is 128)",
                             (unsigned long long)size);
    if (last[0] == dst && last[1] == src)
        return WM_OK;
    last[0] = dst;
    last[1] = src;
    wmi_space rd, rs;
    const uint8_t *s = wmi_ptx_block(c, w, l, pc, SP_SHARED, src, size,
                                     "tensor map copy source", &rs);
    if (!s)
        return c->status;
    uint8_t *d = wmi_ptx_block(c, w, l, pc, SP_GLOBAL, dst, size,
                               "tensor map copy", &rd);
    if (!d)
        return c->status;
    memmove(d, s, size);
    if (c->flags & WMI_RUN_CHECK) {
        wmi_check_block(c, w, pc, l, rs, src, size, 0);
        wmi_check_block(c, w, pc, l, rd, dst, size, 1);
    }
    return WM_OK;
}

wm_status wmi_ptx_tensormap(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                            uint32_t pc, uint32_t m)
{
    assert(in->mod <= WMI_TMAP_CP);
    uint64_t last[2] = {UINT64_MAX, UINT64_MAX};
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        wm_status st = in->mod == WMI_TMAP_CP ? cp_map(c, w, l, pc, in, last)
                                              : replace(c, w, l, pc, in);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}
