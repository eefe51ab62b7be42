/*
 * count_affine.c -- wm_count in closed form for an access whose active
 * lanes are one run of consecutive lanes at addresses a0 + (l - lo) * d
 * (lo the first active lane): the counts from (a0, d, mask, size) alone,
 * without a pass over the lanes.  The PTX interpreter's fast memory path
 * (ptx_fastmem.c) counts such accesses this way; tests/unit/test_count_affine.c
 * holds every count to wm_count's over random affine patterns.
 *
 * Why the forms are exact (docs/design/memory-model.md §1, §2):
 *   - every lane lies inside one sector, line or bank unit (its size
 *     divides the unit and it is aligned to its size), and the lanes'
 *     unit ids are monotone in the lane, so the distinct ids of a run are
 *     wmi_run_keys': with |d| below the unit no id is skipped (last -
 *     first + 1), with |d| at least the unit no id repeats (n);
 *   - in a shared phase the distinct units are a range of K consecutive
 *     ids (|d| below the unit: the busiest of G bank groups holds
 *     ceil(K / G)), or ids stepping by du units (|d| a multiple of the
 *     unit: groups repeat with period p = G / gcd(du, G), so the busiest
 *     holds ceil(lanes / p)); a stride of more than a unit that is no
 *     multiple of it (1- and 2-byte lanes only) has no such form and is
 *     declined;
 *   - the CC 7.x uniform-pair rule holds when no two active partner lanes
 *     (l, l ^ x) differ, which for d != 0 means no partner pair is active
 *     at all: a mask test.
 */
#include "wm_int.h"

/* Lanes whose partner under l ^ x is above them: bit x clear. */
static uint64_t low_partners(unsigned x)
{
    return x == 1 ? 0x5555555555555555ull : 0x3333333333333333ull;
}

/* Does the uniform-pair rule of banks.c's uniform_pairs hold? */
static int pairs_hold(const wm_arch *arch, wm_op op, unsigned size,
                      uint64_t m, int64_t d)
{
    if (!arch->uniform_pair || size < 8 ||
        (op != WM_OP_LD && op != WM_OP_LDSM))
        return 0;
    if (d == 0)
        return 1; /* every pair at one address */
    for (unsigned x = 1; x <= 2; x <<= 1)
        if ((m & (m >> x) & low_partners(x)) == 0)
            return 1; /* no partner pair both active */
    return 0;
}

static uint64_t gcd_u64(uint64_t x, uint64_t y)
{
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* The busiest bank group of one phase: lanes k0..k0+np-1 of the run. */
static unsigned phase_cost(uint64_t a0, int64_t d, unsigned k0, unsigned np,
                           unsigned shift, unsigned groups)
{
    uint64_t mag = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
    uint64_t y0 = a0 + (uint64_t)d * k0, y1 = y0 + (uint64_t)d * (np - 1);
    if (mag >> shift == 0) {
        uint64_t lo = d < 0 ? y1 : y0, hi = d < 0 ? y0 : y1;
        uint64_t k = (hi >> shift) - (lo >> shift) + 1;
        return (unsigned)((k + groups - 1) / groups);
    }
    uint64_t r = (mag >> shift) & (groups - 1);
    uint64_t period = groups / gcd_u64(r ? r : groups, groups);
    return (unsigned)((np + period - 1) / period);
}

/* Shared: wavefronts, conflicts and the busiest bank (banks.c's rule). */
static int shared_counts(const wm_arch *arch, wm_op op, unsigned size,
                         uint64_t m, uint64_t a0, int64_t d, wm_counts *c)
{
    unsigned unit = size > arch->bank_bytes ? size : arch->bank_bytes;
    unsigned shift = wmi_log2(unit), groups = arch->banks * arch->bank_bytes / unit;
    uint64_t mag = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
    if (mag >= unit && (mag & (unit - 1)))
        return 0;
    unsigned base = wm_shared_phase_lanes(arch, size), plane = base;
    if (plane < arch->warp_size && pairs_hold(arch, op, size, m, d))
        plane *= 2;
    unsigned lo = (unsigned)__builtin_ctzll(m), wf = 0, nway = 0;
    for (unsigned p = 0; p < arch->warp_size; p += plane) {
        uint64_t pm = m & (wmi_lanes_mask(plane) << p);
        if (!pm)
            continue;
        unsigned cost = phase_cost(a0, d, (unsigned)__builtin_ctzll(pm) - lo,
                                   wmi_popcount64(pm), shift, groups);
        wf += cost;
        nway = cost > nway ? cost : nway;
    }
    uint64_t per_wf = (uint64_t)arch->banks * arch->bank_bytes * plane / base;
    c->wavefronts = wf;
    c->nway = nway;
    c->ideal_wavefronts = (uint32_t)((c->bytes + per_wf - 1) / per_wf);
    c->conflicts = wf > c->ideal_wavefronts ? wf - c->ideal_wavefronts : 0;
    return 1;
}

/* Global (and the other spaces coalesce.c counts, local aside). */
static int global_counts(const wm_arch *arch, unsigned size, unsigned n,
                         uint64_t a0, int64_t d, wm_counts *c)
{
    if (size > arch->sector_bytes)
        return 0;
    uint64_t mag = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
    uint64_t last = a0 + (uint64_t)d * (n - 1);
    uint64_t first = d < 0 ? last : a0;
    last = d < 0 ? a0 : last;
    unsigned ss = wmi_log2(arch->sector_bytes);
    c->sectors = wmi_run_keys(first, last, mag, n, ss);
    c->tags = wmi_run_keys(first, last, mag, n, wmi_log2(arch->line_bytes));
    c->ideal_sectors = (uint32_t)((c->bytes + arch->sector_bytes - 1) >> ss);
    c->t_wavefronts = (c->tags + 3) / 4;
    return 1;
}

int wmi_count_affine(const wm_arch *arch, wm_space sp, wm_op op,
                     unsigned size, uint64_t mask, uint64_t a0, int64_t d,
                     wm_counts *out)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)sp >= WM_NSPACES || sp == WM_SPACE_LOCAL ||
        (unsigned)op >= WM_NOPS || (size & (size - 1)) || size > 16 ||
        !size || !mask || (mask & ~wmi_lanes_mask(arch->warp_size)))
        return 0;
    unsigned lo = (unsigned)__builtin_ctzll(mask), n = wmi_popcount64(mask);
    if (mask >> lo != wmi_lanes_mask(n) || ((a0 | (uint64_t)d) & (size - 1)))
        return 0; /* not one run, or a lane misaligned */
    out->active = n;
    out->requests = 1;
    out->bytes = (uint64_t)n * size;
    int ok = sp == WM_SPACE_SHARED
                 ? shared_counts(arch, op, size, mask, a0, d, out)
                 : global_counts(arch, size, n, a0, d, out);
    if (!ok)
        memset(out, 0, sizeof *out);
    return ok;
}
