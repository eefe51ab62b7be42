/*
 * model.c -- wm_count: validate one warp access and dispatch it to the
 * global/local (coalesce.c) or shared (banks.c) model.  Pure: no allocation,
 * no I/O, no global state.
 */
#include "wm_int.h"

wm_status wmi_access_check(const wm_arch *arch, const wm_access *a)
{
    if (!arch || !a)
        return WM_ERR_ARG;
    if ((unsigned)a->space >= WM_NSPACES || (unsigned)a->op >= WM_NOPS)
        return WM_ERR_ARG;
    if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8 &&
        a->size != 16)
        return WM_ERR_SIZE;
    uint64_t mask = a->mask & wmi_lanes_mask(arch->warp_size);
    if (mask != a->mask)
        return WM_ERR_ARG; /* lanes beyond the warp */
    /* Natural alignment: OR the active addresses, test the low bits.  The
     * branch-free select keeps the loop vectorisable. */
    uint64_t bits = 0;
    for (unsigned i = 0; i < arch->warp_size; i++)
        bits |= ((mask >> i) & 1u) ? a->addr[i] : 0;
    if (bits & (uint64_t)(a->size - 1))
        return WM_ERR_ALIGN;
    return WM_OK;
}

wm_status wm_count(const wm_arch *arch, const wm_access *a, wm_counts *out)
{
    wm_status st;
    memset(out, 0, sizeof *out);
    st = wmi_access_check(arch, a);
    if (st != WM_OK)
        return st;
    if (a->mask == 0)
        return WM_OK; /* fully predicated off: no request (open question 1) */
    out->active = wmi_popcount64(a->mask);
    out->requests = 1; /* one request per instruction on sm_70+ [S1] */
    out->bytes = (uint64_t)out->active * a->size;
    if (a->space == WM_SPACE_SHARED)
        wmi_banks_count(arch, a, out);
    else
        wmi_coalesce_count(arch, a, out);
    return WM_OK;
}
