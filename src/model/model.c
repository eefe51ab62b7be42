/*
 * model.c -- wm_count: validate one warp access (access_check.h) and
 * dispatch it to the global/local (coalesce.c) or shared (banks.c) model.
 * Pure: no allocation, no I/O, no global state.
 */
#include "access_check.h"

wm_status wm_count(const wm_arch *arch, const wm_access *a, wm_counts *out)
{
    wmi_scan sc;
    memset(out, 0, sizeof *out);
    wm_status st = wmi_access_check(arch, a, &sc);
    if (st != WM_OK)
        return st;
    if (a->mask == 0)
        return WM_OK; /* fully predicated off: no request (open question 1) */
    out->active = sc.n;
    out->requests = 1; /* one request per instruction on sm_70+ [S1] */
    out->bytes = (uint64_t)sc.n * a->size;
    if (a->space == WM_SPACE_SHARED)
        wmi_banks_count(arch, a, &sc, out);
    else
        wmi_coalesce_count(arch, a, &sc, out);
    return WM_OK;
}
