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

typedef uint64_t v2u64 __attribute__((vector_size(16)));

static inline v2u64 load2(const uint64_t *p)
{
    v2u64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Over a lane run: OR of all addresses, and OR of (address XOR the affine
 * prediction ad[0] + i*d), zero iff the run steps by d (mod 2^64).  A full
 * warp goes two lanes per vector with the prediction as a vector induction
 * (written out: Clang does not vectorise the loop), unrolled only 4 times
 * (unrolled fully, GCC computes all predictions first and spills them). */
static inline __attribute__((always_inline)) void
scan_run(const uint64_t *ad, unsigned n, uint64_t *bits, uint64_t *bad,
         uint64_t d)
{
    uint64_t o = 0, x = 0;
    if (n == 32) {
        v2u64 vo = {0, 0}, vx = {0, 0}, e = {ad[0], ad[0] + d};
        v2u64 step = {2 * d, 2 * d};
#pragma GCC unroll 4
        for (unsigned i = 0; i < 32; i += 2, e += step) {
            v2u64 cur = load2(ad + i);
            vo |= cur;
            vx |= cur ^ e;
        }
        o = vo[0] | vo[1];
        x = vx[0] | vx[1];
    } else {
        for (unsigned i = 0; i < n; i++) {
            o |= ad[i];
            x |= ad[i] ^ (ad[0] + i * d);
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
