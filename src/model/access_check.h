/*
 * access_check.h -- wmi_access_check: validate one warp access (space, op,
 * size, lanes, alignment) and learn its lane pattern in the same pass.
 * Beneath every model that counts an access (model.c, banks.c, cache.c,
 * draw.c, reference.c); inline, as wm_count's first step is on the model's
 * hot path.
 *
 * Validation and the search for an affine lane pattern share one pass: for
 * a run of consecutive active lanes (the common case: full warps, tails of
 * partial warps) the loop ORs the addresses (alignment) and ORs the
 * differences of neighbouring strides (affinity).  Both reductions are
 * branch-free, so the compiler vectorises them.
 */
#ifndef WM_ACCESS_CHECK_H
#define WM_ACCESS_CHECK_H

#include "wm_int.h"

#include <string.h>

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

static inline wm_status wmi_access_check(const wm_arch *arch,
                                         const wm_access *a, wmi_scan *sc)
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

#endif
