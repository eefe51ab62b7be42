/*
 * model.c -- wm_count: validate one warp access and dispatch it to the
 * global/local (coalesce.c) or shared (banks.c) model.  Pure: no allocation,
 * no I/O, no global state.
 *
 * Validation and the search for an affine lane pattern share one pass: for
 * a run of consecutive active lanes (the common case: full warps, tails of
 * partial warps) the loop ORs the addresses (alignment) and ORs the
 * differences of neighbouring strides (affinity).  Both reductions are
 * branch-free, so the compiler vectorises them.
 */
#include "wm_int.h"

/* Over a lane run: OR of all addresses, and OR of (step XOR d) over the
 * neighbouring lanes, zero iff the run steps by d (mod 2^64).  One pass of
 * independent loads and ORs, no loop-carried prediction, so it vectorises
 * without spilling. */
static void scan_run(const uint64_t *ad, unsigned n, uint64_t *bits,
                     uint64_t *bad, uint64_t d)
{
    uint64_t o = ad[0], x = 0;
    if (n == 32) { /* constant trip count: fully unrolled and vectorised */
        for (unsigned i = 1; i < 32; i++) {
            o |= ad[i];
            x |= (ad[i] - ad[i - 1]) ^ d;
        }
    } else {
        for (unsigned i = 1; i < n; i++) {
            o |= ad[i];
            x |= (ad[i] - ad[i - 1]) ^ d;
        }
    }
    *bits = o;
    *bad = x;
}

wm_status wmi_access_check(const wm_arch *arch, const wm_access *a,
                           wmi_scan *sc)
{
    wmi_scan local;
    if (!sc)
        sc = &local;
    memset(sc, 0, sizeof *sc);
    if (!arch || !a)
        return WM_ERR_ARG;
    if ((unsigned)a->space >= WM_NSPACES || (unsigned)a->op >= WM_NOPS)
        return WM_ERR_ARG;
    if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8 &&
        a->size != 16)
        return WM_ERR_SIZE;
    uint64_t m = a->mask;
    if (m & ~wmi_lanes_mask(arch->warp_size))
        return WM_ERR_ARG; /* lanes beyond the warp */
    if (!m)
        return WM_OK;
    uint64_t bits = 0;
    unsigned lo = (unsigned)__builtin_ctzll(m), n = wmi_popcount64(m);
    if ((m >> lo) == wmi_lanes_mask(n)) {
        const uint64_t *ad = a->addr + lo;
        uint64_t d = n > 1 ? ad[1] - ad[0] : 0, bad;
        scan_run(ad, n, &bits, &bad, d);
        sc->run = 1;
        sc->affine = bad == 0;
        sc->d = d;
    } else {
        for (uint64_t t = m; t; t &= t - 1)
            bits |= a->addr[__builtin_ctzll(t)];
    }
    sc->lo = lo;
    sc->n = n;
    if (bits & (uint64_t)(a->size - 1)) {
        memset(sc, 0, sizeof *sc);
        return WM_ERR_ALIGN;
    }
    return WM_OK;
}

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
