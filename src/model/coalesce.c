/*
 * coalesce.c -- global and local memory: how many 32 B sectors and 128 B
 * lines (tags) one warp access touches (docs/design/memory-model.md §1).
 *
 * sectors = |{ byte >> log2(sector) }| over every byte of every active lane,
 * tags    = |{ byte >> log2(line) }|, ideal = ceil(active * size / sector).
 * Two ways to the same sets:
 *   1. affine (found by model.c's scan): the active lanes form one run whose
 *      addresses step by a constant d.  The sector ids are then monotone;
 *      with |d| < sector they have no gaps (count = span + 1), with
 *      |d| >= sector every lane has its own sector (count = lanes).  Lines
 *      likewise.
 *   2. any other access: sectors.c counts the distinct sectors and lines of
 *      a list of keys (a byte-map window for clustered ones, a hash
 *      signature for scattered ones).  A run of lanes with one sector each
 *      is passed as its addresses, in place; otherwise the sector id of
 *      every piece is gathered first.
 * Local memory is interleaved per 32-bit word across the warp's lanes
 * (Profiling Guide, S1): thread word w of lane i lives at physical word
 * w * warp_size + i.  Its pieces always take path 2.
 */
#include "wm_int.h"

#define MAX_PIECES (WM_MAX_LANES * 4)

/* Path 1 for a lane run with constant stride d. */
static void count_affine(const wm_arch *arch, const wm_access *a,
                         const wmi_scan *sc, wm_counts *c)
{
    unsigned ss = wmi_log2(arch->sector_bytes), ls = wmi_log2(arch->line_bytes);
    uint64_t d = sc->d, first = a->addr[sc->lo];
    uint64_t last = a->addr[sc->lo + sc->n - 1];
    int neg = (int64_t)d < 0;
    uint64_t mag = neg ? 0 - d : d;
    if (neg) {
        uint64_t t = first;
        first = last;
        last = t;
    }
    c->sectors = wmi_run_keys(first, last, mag, sc->n, ss);
    c->tags = wmi_run_keys(first, last, mag, sc->n, ls);
}

/* Sector ids of every piece of the access (lanes wider than a sector, or
 * local words at their interleaved addresses).  Returns the count. */
static unsigned gather_pieces(const wm_arch *arch, const wm_access *a,
                              uint64_t *sec)
{
    unsigned ss = wmi_log2(arch->sector_bytes), n = 0;
    if (a->space == WM_SPACE_LOCAL) {
        unsigned words = a->size >= 4 ? a->size / 4 : 1;
        uint64_t W = arch->warp_size;
        for (uint64_t t = a->mask; t; t &= t - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(t);
            uint64_t w0 = a->addr[lane] >> 2;
            for (unsigned k = 0; k < words; k++)
                sec[n++] = (((w0 + k) * W + lane) * 4) >> ss;
        }
        return n;
    }
    unsigned span = a->size > arch->sector_bytes ? a->size >> ss : 1;
    for (uint64_t t = a->mask; t; t &= t - 1) {
        uint64_t s0 = a->addr[__builtin_ctzll(t)] >> ss;
        for (unsigned k = 0; k < span; k++)
            sec[n++] = s0 + k;
    }
    return n;
}

void wmi_coalesce_count(const wm_arch *arch, const wm_access *a,
                        const wmi_scan *sc, wm_counts *c)
{
    unsigned ss = wmi_log2(arch->sector_bytes);
    unsigned shift = wmi_log2(arch->line_bytes) - ss;
    assert(a->mask != 0);
    if (a->space != WM_SPACE_LOCAL && sc->affine &&
        a->size <= arch->sector_bytes) {
        count_affine(arch, a, sc, c);
    } else if (a->space != WM_SPACE_LOCAL && sc->run &&
               a->size <= arch->sector_bytes) {
        /* one piece per lane: count the addresses where they lie */
        wmi_sectors_count(a->addr + sc->lo, sc->n, ss, shift, c);
    } else {
        uint64_t sec[MAX_PIECES];
        wmi_sectors_count(sec, gather_pieces(arch, a, sec), 0, shift, c);
    }
    c->ideal_sectors = (uint32_t)((c->bytes + arch->sector_bytes - 1) >> ss);
    /* Tag stage: 4 tags per cycle on GV100+ (forum S16/S17): an estimate. */
    c->t_wavefronts = (c->tags + 3) / 4;
}
