/*
 * coalesce.c -- global and local memory: how many 32 B sectors and 128 B
 * lines (tags) one warp access touches (docs/design/memory-model.md §1).
 *
 * sectors = |{ byte >> log2(sector) }| over every byte of every active lane,
 * tags    = |{ byte >> log2(line) }|, ideal = ceil(active * size / sector).
 * Three ways to the same sets, fastest first:
 *   1. affine (found by model.c's scan): the active lanes form one run whose
 *      addresses step by a constant d.  The sector ids are then monotone;
 *      with |d| < sector they have no gaps (count = span + 1), with
 *      |d| >= sector every lane has its own sector (count = lanes).  Lines
 *      likewise.
 *   2. clustered: all touched sectors lie in a window of 512 sectors
 *      around the first one, starting on a line boundary: a 512-bit map
 *      counts sectors, and the same bits folded per line count lines.
 *   3. scattered: first a 2048-bit hash signature of the lines, which for
 *      most scattered warps proves all lines (hence all sectors) distinct;
 *      otherwise an open-addressing set of lines on the stack, each slot
 *      carrying its sector mask; occupancy lives in a bitmask, so the table
 *      needs no clearing.
 * Local memory is interleaved per 32-bit word across the warp's lanes
 * (Profiling Guide, S1): thread word w of lane i lives at physical word
 * w * warp_size + i.  Its pieces always take path 2 or 3.
 */
#include "wm_int.h"

#define MAX_PIECES (WM_MAX_LANES * 4)

static inline unsigned hash_slot(uint64_t key, unsigned bits)
{
    /* Fibonacci hashing: top bits of key * 2^64/phi. */
    return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/*
 * Count distinct sectors and lines of n sector ids (shift = log2 of
 * sectors per line).
 */
static inline __attribute__((always_inline)) void
count_pieces(const uint64_t *sec, unsigned n, unsigned shift, wm_counts *c)
{
    uint64_t low = ((uint64_t)1 << shift) - 1;
    /* Window of 512 sectors around the first piece, starting on a line
     * boundary; modular arithmetic keeps it exact near address 0.  The
     * range test is a branch-free OR over the pieces (vectorised). */
    uint64_t base = (sec[0] - 192) & ~low, out = 0;
    for (unsigned i = 0; i < n; i++)
        out |= (sec[i] - base) >> 9;
    if (!out) {
        /* Path 2: a bitmap of 512 sectors.  Lines never straddle a word
         * (sectors per line divide 64), so OR-folding each line's sector
         * bits onto its first bit and counting those bits counts lines.
         * Four interleaved maps break the read-modify-write chain through
         * memory when neighbouring lanes hit the same word. */
        uint64_t bm4[4][8];
        memset(bm4, 0, sizeof bm4);
#pragma GCC unroll 4
        for (unsigned i = 0; i < n; i++) {
            uint64_t r = sec[i] - base;
            bm4[i & 3][r >> 6] |= (uint64_t)1 << (r & 63);
        }
        /* bit 0 of every line in a word: 0x1111... for 4 sectors/line */
        uint64_t first =
            low == 63 ? 1 : UINT64_MAX / (((uint64_t)1 << (low + 1)) - 1);
        unsigned nsec = 0, nlines = 0;
        for (unsigned w = 0; w < 8; w++) {
            uint64_t x = bm4[0][w] | bm4[1][w] | bm4[2][w] | bm4[3][w];
            nsec += wmi_popcount64(x);
            for (unsigned f = 1; f <= low; f <<= 1)
                x |= x >> f;
            nlines += wmi_popcount64(x & first);
        }
        c->sectors = nsec;
        c->tags = nlines;
        return;
    }
    /* Scattered lanes usually touch pairwise different lines.  A 2048-bit
     * signature proves it for most warps (78 % of 32 random lines hash
     * apart) without branches: then every piece is its own sector and
     * line. */
    if (n <= 64) {
        uint64_t sig[32], col = 0;
        memset(sig, 0, sizeof sig);
        for (unsigned i = 0; i < n; i++) {
            unsigned h = hash_slot(sec[i] >> shift, 11);
            uint64_t b = (uint64_t)1 << (h & 63);
            col |= sig[h >> 6] & b;
            sig[h >> 6] |= b;
        }
        if (!col) {
            c->sectors = c->tags = n;
            return;
        }
    }
    /* Path 3: hash set of lines, load factor <= 1/2. */
    unsigned bits = n <= 32 ? 6 : n <= 64 ? 7 : n <= 128 ? 8 : 9;
    unsigned slot_mask = (1u << bits) - 1;
    uint64_t occ[8] = {0}, line[512], mask[512];
    unsigned nlines = 0, nsec = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t l = sec[i] >> shift, bit = (uint64_t)1 << (sec[i] & low);
        unsigned h = hash_slot(l, bits);
        for (;;) {
            uint64_t ob = (uint64_t)1 << (h & 63);
            if (!(occ[h >> 6] & ob)) {
                occ[h >> 6] |= ob;
                line[h] = l;
                mask[h] = bit;
                nlines++;
                nsec++;
                break;
            }
            if (line[h] == l) {
                nsec += !(mask[h] & bit);
                mask[h] |= bit;
                break;
            }
            h = (h + 1) & slot_mask;
        }
    }
    c->sectors = nsec;
    c->tags = nlines;
}

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
    if (mag == 0) {
        c->sectors = c->tags = 1;
        return;
    }
    c->sectors = mag >= arch->sector_bytes
                     ? sc->n
                     : (unsigned)((last >> ss) - (first >> ss)) + 1;
    c->tags = mag >= arch->line_bytes
                  ? sc->n
                  : (unsigned)((last >> ls) - (first >> ls)) + 1;
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
    uint64_t sec[MAX_PIECES];
    assert(a->mask != 0);
    if (a->space != WM_SPACE_LOCAL && sc->affine &&
        a->size <= arch->sector_bytes) {
        count_affine(arch, a, sc, c);
    } else if (a->space != WM_SPACE_LOCAL && sc->run && sc->n == 32 &&
               a->size <= arch->sector_bytes) {
        /* A full run: a fixed-length, vectorisable shift. */
        const uint64_t *ad = a->addr + sc->lo;
        for (unsigned i = 0; i < 32; i++)
            sec[i] = ad[i] >> ss;
        /* NVIDIA's 4 sectors per line: constants let the compiler unroll */
        if (shift == 2)
            count_pieces(sec, 32, 2, c);
        else
            count_pieces(sec, 32, shift, c);
    } else {
        count_pieces(sec, gather_pieces(arch, a, sec), shift, c);
    }
    c->ideal_sectors = (uint32_t)((c->bytes + arch->sector_bytes - 1) >> ss);
    /* Tag stage: 4 tags per cycle on GV100+ (forum S16/S17): an estimate. */
    c->t_wavefronts = (c->tags + 3) / 4;
}
