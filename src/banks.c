/*
 * banks.c -- shared memory: wavefronts and bank conflicts of one warp access
 * (memory-model.md section 2.2).
 *
 * The warp is cut into phases of consecutive lanes, each phase moving at
 * most banks * bank_bytes (128 B) per wavefront: 32 lanes for accesses up to
 * 4 B, 16 lanes (half-warps) for 8 B, 8 lanes (quarter-warps) for 16 B.  In
 * a phase each bank serves its distinct words one per wavefront; lanes that
 * touch the same word share it (broadcast, [DOC S1]).  So
 *   wavefronts = sum over non-empty phases of max over banks of
 *                |distinct words of that bank|,
 *   ideal      = ceil(bytes / (banks * bank_bytes)),
 *   conflicts  = max(0, wavefronts - ideal).
 * On CC 7.x, 64/128-bit loads whose active lanes pair up on equal addresses
 * (lane n with n^1, or with n^2) are packed two lanes per slot, doubling the
 * phase (forum S18); the profile's uniform_pair flag enables it.
 */
#include "wm_int.h"

unsigned wm_shared_phase_lanes(const wm_arch *arch, unsigned size)
{
    unsigned bytes = size > arch->bank_bytes ? size : arch->bank_bytes;
    unsigned p = arch->banks * arch->bank_bytes / bytes;
    return p < arch->warp_size ? p : arch->warp_size;
}

/* CC 7.x uniform-pair packing test (memory-model.md 2.3.1). */
static int uniform_pairs(const wm_arch *arch, const wm_access *a)
{
    if (!arch->uniform_pair || a->size < 8 ||
        (a->op != WM_OP_LD && a->op != WM_OP_LDSM))
        return 0;
    for (unsigned x = 1; x <= 2; x <<= 1) {
        int ok = 1;
        for (uint64_t t = a->mask; t && ok; t &= t - 1) {
            unsigned n = (unsigned)__builtin_ctzll(t);
            unsigned p = n ^ x;
            if (((a->mask >> p) & 1u) && a->addr[p] != a->addr[n])
                ok = 0;
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* Lanes per phase for this access, with the uniform-pair rule applied. */
static unsigned phase_lanes(const wm_arch *arch, const wm_access *a)
{
    unsigned p = wm_shared_phase_lanes(arch, a->size);
    if (p < arch->warp_size && uniform_pairs(arch, a))
        p *= 2;
    return p;
}

static unsigned gcd_u(uint64_t x, uint64_t y)
{
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (unsigned)x;
}

/*
 * Busiest bank of one phase (lanes of mask m, wpl consecutive words each):
 * the maximum over banks of the distinct words it serves.  Words are
 * chained per bank (head/next, indices + 1), so a duplicate is looked for
 * only among the words of its own bank.  0 for an empty phase.
 */
static unsigned phase_cost(const wm_arch *arch, const wm_access *a,
                           uint64_t m, unsigned wpl, unsigned bshift)
{
    uint64_t words[256];
    uint8_t head[WM_MAX_BANKS], next[256], count[WM_MAX_BANKS];
    unsigned B = arch->banks, nw = 0, best = 0;
    memset(head, 0, B);
    memset(count, 0, B);
    for (uint64_t t = m; t; t &= t - 1) {
        uint64_t w0 = a->addr[__builtin_ctzll(t)] >> bshift;
        for (unsigned k = 0; k < wpl; k++) {
            uint64_t w = w0 + k;
            unsigned b = (unsigned)(w & (B - 1)), i = head[b];
            while (i && words[i - 1] != w)
                i = next[i - 1];
            if (i)
                continue; /* same word: broadcast */
            words[nw] = w;
            next[nw] = head[b];
            head[b] = (uint8_t)++nw;
            if (++count[b] > best)
                best = count[b];
        }
    }
    return best;
}

/*
 * Closed form for a full warp of one-word lanes with a constant word stride
 * dw: in each phase of P lanes the banks (w0 + k dw) mod B repeat with
 * period B / gcd(dw, B), so the busiest bank serves ceil(P gcd / B) words.
 */
static int affine_cost(const wm_arch *arch, const wm_access *a,
                       const wmi_scan *sc, unsigned plane, unsigned bshift,
                       wm_counts *c)
{
    unsigned W = arch->warp_size;
    if (!sc->affine || sc->n != W || a->size > arch->bank_bytes)
        return 0;
    uint64_t mag = (int64_t)sc->d < 0 ? 0 - sc->d : sc->d;
    if (mag & ((1u << bshift) - 1))
        return 0; /* lanes share or split words: use the general path */
    uint64_t dw = mag >> bshift;
    unsigned per;
    if (dw == 0) {
        per = 1; /* broadcast */
    } else {
        unsigned g = gcd_u(dw % arch->banks ? dw % arch->banks : arch->banks,
                           arch->banks);
        unsigned distinct_banks = arch->banks / g;
        per = (plane + distinct_banks - 1) / distinct_banks;
    }
    c->wavefronts = per * (W / plane);
    c->nway = per;
    return 1;
}

void wmi_banks_count(const wm_arch *arch, const wm_access *a,
                     const wmi_scan *sc, wm_counts *c)
{
    unsigned bshift = wmi_log2(arch->bank_bytes);
    unsigned wpl = a->size > arch->bank_bytes ? a->size / arch->bank_bytes : 1;
    unsigned plane = phase_lanes(arch, a);
    assert(a->mask != 0);
    if (!affine_cost(arch, a, sc, plane, bshift, c)) {
        unsigned wf = 0, nway = 0;
        for (unsigned lo = 0; lo < arch->warp_size; lo += plane) {
            uint64_t m = a->mask & (wmi_lanes_mask(plane) << lo);
            unsigned cost = m ? phase_cost(arch, a, m, wpl, bshift) : 0;
            wf += cost;
            nway = cost > nway ? cost : nway;
        }
        c->wavefronts = wf;
        c->nway = nway;
    }
    uint64_t per_wf = (uint64_t)arch->banks * arch->bank_bytes;
    c->ideal_wavefronts = (uint32_t)((c->bytes + per_wf - 1) / per_wf);
    c->conflicts = c->wavefronts > c->ideal_wavefronts
                       ? c->wavefronts - c->ideal_wavefronts
                       : 0;
}

wm_status wm_shared_banks(const wm_arch *arch, const wm_access *a,
                          int lane_bank[WM_MAX_LANES],
                          int lane_phase[WM_MAX_LANES],
                          unsigned bank_words[WM_MAX_BANKS])
{
    wm_status st = wmi_access_check(arch, a, NULL);
    if (st != WM_OK)
        return st;
    unsigned bshift = wmi_log2(arch->bank_bytes);
    unsigned wpl = a->size > arch->bank_bytes ? a->size / arch->bank_bytes : 1;
    unsigned plane = phase_lanes(arch, a);
    if (bank_words)
        memset(bank_words, 0, sizeof(unsigned) * WM_MAX_BANKS);
    for (unsigned i = 0; i < WM_MAX_LANES; i++) {
        int on = i < arch->warp_size && ((a->mask >> i) & 1u);
        if (lane_bank)
            lane_bank[i] = on ? (int)((a->addr[i] >> bshift) &
                                      (arch->banks - 1))
                              : -1;
        if (lane_phase)
            lane_phase[i] = i < arch->warp_size ? (int)(i / plane) : -1;
    }
    if (!bank_words)
        return WM_OK;
    for (unsigned lo = 0; lo < arch->warp_size; lo += plane) {
        uint64_t words[256];
        unsigned nw = 0;
        for (unsigned i = lo; i < lo + plane; i++) {
            if (!((a->mask >> i) & 1u))
                continue;
            for (unsigned k = 0; k < wpl; k++) {
                uint64_t w = (a->addr[i] >> bshift) + k;
                int seen = 0;
                for (unsigned j = 0; j < nw && !seen; j++)
                    seen = words[j] == w;
                if (!seen) {
                    words[nw++] = w;
                    bank_words[w & (arch->banks - 1)]++;
                }
            }
        }
    }
    return WM_OK;
}
