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
 * Busiest bank of one phase: lanes [lo, lo+n) of mask m, words_per_lane
 * consecutive words each.  Returns 0 for an empty phase.
 */
static unsigned phase_cost(const wm_arch *arch, const wm_access *a,
                           uint64_t m, unsigned wpl, unsigned bshift)
{
    unsigned B = arch->banks;
    uint64_t busy = 0, dup = 0;
    if (!m)
        return 0;
    /* Fast test: if no bank is touched twice the phase costs 1. */
    for (uint64_t t = m; t; t &= t - 1) {
        uint64_t w0 = a->addr[__builtin_ctzll(t)] >> bshift;
        for (unsigned k = 0; k < wpl; k++) {
            uint64_t bit = (uint64_t)1 << ((w0 + k) & (B - 1));
            dup |= busy & bit;
            busy |= bit;
        }
    }
    if (!dup)
        return 1;
    /* Slow path: distinct words per bank.  At most 64 lanes x 4 words. */
    uint64_t words[256];
    unsigned nw = 0;
    for (uint64_t t = m; t; t &= t - 1) {
        uint64_t w0 = a->addr[__builtin_ctzll(t)] >> bshift;
        for (unsigned k = 0; k < wpl; k++)
            words[nw++] = w0 + k;
    }
    unsigned count[WM_MAX_BANKS] = {0}, best = 0;
    for (unsigned i = 0; i < nw; i++) {
        uint64_t w = words[i];
        unsigned b = (unsigned)(w & (B - 1));
        if (!((dup >> b) & 1u)) {
            if (!count[b])
                count[b] = 1;
            best = best ? best : 1;
            continue;
        }
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = (words[j] == w);
        if (!seen && ++count[b] > best)
            best = count[b];
    }
    return best;
}

/* Closed form for a full phase of one-word lanes with a constant word
 * stride dw: banks (w0 + k dw) mod B repeat with period B / gcd(dw, B). */
static int affine_cost(const wm_arch *arch, const wm_access *a,
                       unsigned plane, unsigned bshift, wm_counts *c)
{
    unsigned W = arch->warp_size;
    if (a->mask != wmi_lanes_mask(W) || a->size > arch->bank_bytes)
        return 0;
    uint64_t d = a->addr[1] - a->addr[0];
    unsigned same = 1;
    for (unsigned i = 1; i < W; i++)
        same &= (a->addr[i] - a->addr[i - 1] == d);
    if (!same)
        return 0;
    uint64_t mag = (int64_t)d < 0 ? 0 - d : d;
    if (mag & ((1u << bshift) - 1))
        return 0; /* lanes share or split words: use the general path */
    uint64_t dw = mag >> bshift;
    unsigned nphase = W / plane, per;
    if (dw == 0) {
        per = 1; /* broadcast */
    } else {
        unsigned g = gcd_u(dw % arch->banks ? dw % arch->banks : arch->banks,
                           arch->banks);
        unsigned distinct_banks = arch->banks / g;
        per = (plane + distinct_banks - 1) / distinct_banks;
    }
    c->wavefronts = per * nphase;
    c->nway = per;
    return 1;
}

void wmi_banks_count(const wm_arch *arch, const wm_access *a, wm_counts *c)
{
    unsigned bshift = wmi_log2(arch->bank_bytes);
    unsigned wpl = a->size > arch->bank_bytes ? a->size / arch->bank_bytes : 1;
    unsigned plane = phase_lanes(arch, a);
    assert(a->mask != 0);
    if (!affine_cost(arch, a, plane, bshift, c)) {
        unsigned wf = 0, nway = 0;
        for (unsigned lo = 0; lo < arch->warp_size; lo += plane) {
            uint64_t m = a->mask & (wmi_lanes_mask(plane) << lo);
            unsigned cost = phase_cost(arch, a, m, wpl, bshift);
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
    wm_status st = wmi_access_check(arch, a);
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
