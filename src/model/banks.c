/*
 * banks.c -- shared memory: wavefronts and bank conflicts of one warp access
 * (docs/design/memory-model.md §2).
 *
 * The warp is cut into phases of consecutive lanes, each phase moving at
 * most banks * bank_bytes (128 B) per wavefront: 32 lanes for accesses up to
 * 4 B, 16 lanes (half-warps) for 8 B, 8 lanes (quarter-warps) for 16 B.  In
 * a phase each bank serves its distinct words one per wavefront; lanes that
 * touch the same word share it (broadcast, [DOC S1]).  So
 *   wavefronts = sum over non-empty phases of max over banks of
 *                |distinct words of that bank|,
 *   ideal      = ceil(bytes / (banks * bank_bytes)) (twice the divisor
 *                when uniform pairs pack two lanes per slot, below),
 *   conflicts  = max(0, wavefronts - ideal).
 * On CC 7.x, 64/128-bit loads whose active lanes pair up on equal addresses
 * (lane n with n^1, or with n^2) are packed two lanes per slot, doubling the
 * phase (forum S18); the profile's uniform_pair flag enables it.
 */
#include "access_check.h"
#include "wm_int.h"

unsigned wm_shared_phase_lanes(const wm_arch *arch, unsigned size)
{
    unsigned bytes = size > arch->bank_bytes ? size : arch->bank_bytes;
    unsigned p = arch->banks * arch->bank_bytes / bytes;
    return p < arch->warp_size ? p : arch->warp_size;
}

/* CC 7.x uniform-pair packing test (docs/design/memory-model.md §2). */
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
 * A lane of size >= bank_bytes covers wpl = size / bank_bytes consecutive
 * words starting at a multiple of wpl (natural alignment), i.e. one whole
 * aligned group of wpl banks.  Two lanes either cover the same words
 * (shared, broadcast) or disjoint words, so counting distinct "units" of
 * max(size, bank_bytes) bytes per group of wpl banks gives exactly the
 * per-bank distinct-word counts.  The model works in those units: shift =
 * log2(unit), groups = banks / wpl.
 */
typedef struct unit_geom {
    unsigned shift;  /* log2 of the unit in bytes */
    unsigned groups; /* bank groups (power of two) */
} unit_geom;

static unit_geom geometry(const wm_arch *arch, unsigned size)
{
    unsigned unit = size > arch->bank_bytes ? size : arch->bank_bytes;
    unit_geom g = {wmi_log2(unit), arch->banks * arch->bank_bytes / unit};
    return g;
}

/*
 * Busiest group of one phase (lanes of mask m): the maximum over groups of
 * the distinct units it serves.  Units are chained per group (head/next,
 * indices + 1), so a duplicate is looked for only in its own group.  0 for
 * an empty phase.
 */
static unsigned phase_cost(const wm_access *a, uint64_t m, unit_geom g)
{
    uint64_t units[WM_MAX_LANES];
    uint8_t head[WM_MAX_BANKS], next[WM_MAX_LANES], count[WM_MAX_BANKS];
    unsigned nu = 0, best = 0;
    memset(head, 0, g.groups);
    memset(count, 0, g.groups);
    for (uint64_t t = m; t; t &= t - 1) {
        uint64_t u = a->addr[__builtin_ctzll(t)] >> g.shift;
        unsigned b = (unsigned)(u & (g.groups - 1)), i = head[b];
        while (i && units[i - 1] != u)
            i = next[i - 1];
        if (i)
            continue; /* same unit: broadcast */
        units[nu] = u;
        next[nu] = head[b];
        head[b] = (uint8_t)++nu;
        if (++count[b] > best)
            best = count[b];
    }
    return best;
}

/*
 * Closed form for a full warp with a constant stride of du units: in each
 * phase of P lanes the groups (u0 + k du) mod G repeat with period
 * G / gcd(du, G), so the busiest group serves ceil(P gcd / G) units.
 */
static int affine_cost(const wm_arch *arch, const wmi_scan *sc,
                       unsigned plane, unit_geom g, wm_counts *c)
{
    unsigned W = arch->warp_size;
    if (!sc->affine || sc->n != W)
        return 0;
    uint64_t mag = (int64_t)sc->d < 0 ? 0 - sc->d : sc->d;
    if (mag & (((uint64_t)1 << g.shift) - 1))
        return 0; /* lanes share or split units: use the general path */
    uint64_t du = mag >> g.shift;
    unsigned per;
    if (du == 0) {
        per = 1; /* broadcast */
    } else {
        unsigned r = (unsigned)(du & (g.groups - 1));
        unsigned distinct = g.groups / gcd_u(r ? r : g.groups, g.groups);
        per = (plane + distinct - 1) / distinct;
    }
    c->wavefronts = per * (W / plane);
    c->nway = per;
    return 1;
}

void wmi_banks_count(const wm_arch *arch, const wm_access *a,
                     const wmi_scan *sc, wm_counts *c)
{
    unit_geom g = geometry(arch, a->size);
    unsigned plane = phase_lanes(arch, a);
    assert(a->mask != 0);
    if (!affine_cost(arch, sc, plane, g, c)) {
        unsigned wf = 0, nway = 0;
        for (unsigned lo = 0; lo < arch->warp_size; lo += plane) {
            uint64_t m = a->mask & (wmi_lanes_mask(plane) << lo);
            unsigned cost = m ? phase_cost(a, m, g) : 0;
            wf += cost;
            nway = cost > nway ? cost : nway;
        }
        c->wavefronts = wf;
        c->nway = nway;
    }
    /* A wavefront moves a phase: banks * bank_bytes, twice that in lane
       bytes when uniform pairs share their slots (plane doubled). */
    uint64_t per_wf = (uint64_t)arch->banks * arch->bank_bytes * plane /
                      wm_shared_phase_lanes(arch, a->size);
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
