/*
 * coalesce.c -- global and local memory: how many 32 B sectors and 128 B
 * lines (tags) one warp access touches (memory-model.md section 1.2).
 *
 * sectors = |{ byte >> log2(sector) }| over every byte of every active lane,
 * tags    = |{ byte >> log2(line) }|, ideal = ceil(active * size / sector).
 * Three ways to the same sets, fastest first:
 *   1. affine: the active lanes form one contiguous run of lanes whose
 *      addresses step by a constant d.  Then the sector ids form a monotone
 *      sequence; with |d| < sector it has no gaps (count = span + 1), with
 *      |d| >= sector every lane has its own sector (count = lanes).
 *   2. clustered: all touched lines lie in a window of 64 lines; a 64-bit
 *      presence mask per window and a sector mask per line count both.
 *   3. scattered: an open-addressing set of lines on the stack, each line
 *      carrying its sector mask; the table is "cleared" by an occupancy
 *      bitmask, so nothing is memset per call.
 * Local memory is interleaved per 32-bit word across the warp's lanes
 * (Profiling Guide, S1): thread word w of lane i lives at physical word
 * w * warp_size + i; it always takes path 3 on those physical pieces.
 */
#include "wm_int.h"

/* A "piece": a sector id and its line id (sector >> shift). */
typedef struct lineset {
    uint64_t occ[4];         /* occupancy of slots */
    uint64_t line[256];      /* line id per slot */
    uint64_t sectors[256];   /* sector mask per slot (bit = sector in line) */
    unsigned nlines;
} lineset;

static inline unsigned hash_slot(uint64_t key, unsigned bits)
{
    /* Fibonacci hashing: top bits of key * 2^64/phi. */
    return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* Insert sector id sec (line = sec >> shift) into the set of 2^bits slots. */
static inline void lineset_add(lineset *s, unsigned bits, uint64_t sec,
                               unsigned shift)
{
    uint64_t line = sec >> shift;
    uint64_t bit = (uint64_t)1 << (sec & ((1u << shift) - 1));
    unsigned slot_mask = (1u << bits) - 1;
    unsigned h = hash_slot(line, bits);
    for (;;) {
        uint64_t w = s->occ[h >> 6], b = (uint64_t)1 << (h & 63);
        if (!(w & b)) {
            s->occ[h >> 6] = w | b;
            s->line[h] = line;
            s->sectors[h] = bit;
            s->nlines++;
            return;
        }
        if (s->line[h] == line) {
            s->sectors[h] |= bit;
            return;
        }
        h = (h + 1) & slot_mask;
    }
}

static void lineset_result(const lineset *s, unsigned bits, wm_counts *c)
{
    unsigned nsec = 0;
    for (unsigned w = 0; w < ((1u << bits) + 63) / 64; w++) {
        uint64_t occ = s->occ[w];
        while (occ) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(occ);
            nsec += wmi_popcount64(s->sectors[i]);
            occ &= occ - 1;
        }
    }
    c->sectors = nsec;
    c->tags = s->nlines;
}

/* Path 1.  Returns 1 and fills c when the access is affine over a lane run. */
static int count_affine(const wm_arch *arch, const wm_access *a, wm_counts *c)
{
    uint64_t m = a->mask;
    unsigned lo = (unsigned)__builtin_ctzll(m);
    unsigned n = wmi_popcount64(m);
    if ((m >> lo) != wmi_lanes_mask(n) || a->size > arch->sector_bytes)
        return 0; /* not one run of lanes, or lanes span several sectors */
    const uint64_t *ad = a->addr + lo;
    if (n == 1) {
        c->sectors = c->tags = 1;
        return 1;
    }
    uint64_t d = ad[1] - ad[0]; /* modular: negative strides wrap */
    unsigned same = 1;
    for (unsigned i = 1; i < n; i++)
        same &= (ad[i] - ad[i - 1] == d);
    if (!same)
        return 0;
    int neg = (int64_t)d < 0;
    uint64_t mag = neg ? 0 - d : d;
    uint64_t first = ad[0], last = ad[n - 1];
    unsigned ss = wmi_log2(arch->sector_bytes), ls = wmi_log2(arch->line_bytes);
    if (mag == 0) {
        c->sectors = c->tags = 1;
        return 1;
    }
    if (mag >= arch->sector_bytes)
        c->sectors = n;
    else
        c->sectors = (unsigned)(neg ? (first >> ss) - (last >> ss)
                                    : (last >> ss) - (first >> ss)) + 1;
    if (mag >= arch->line_bytes)
        c->tags = n;
    else
        c->tags = (unsigned)(neg ? (first >> ls) - (last >> ls)
                                 : (last >> ls) - (first >> ls)) + 1;
    return 1;
}

/* Paths 2 and 3 over global addresses. */
static void count_sets(const wm_arch *arch, const wm_access *a, wm_counts *c)
{
    unsigned ss = wmi_log2(arch->sector_bytes);
    unsigned shift = wmi_log2(arch->line_bytes) - ss;
    uint64_t m = a->mask;
    uint64_t lmin = UINT64_MAX, lmax = 0;
    unsigned span = a->size > arch->sector_bytes ? a->size >> ss : 1;

    for (uint64_t t = m; t; t &= t - 1) {
        uint64_t line = a->addr[__builtin_ctzll(t)] >> (ss + shift);
        lmin = line < lmin ? line : lmin;
        lmax = line > lmax ? line : lmax;
    }
    if (lmax - lmin < 64) {
        /* Path 2: a window of 64 lines starting at lmin. */
        uint64_t present = 0, secmask[64];
        for (uint64_t t = m; t; t &= t - 1) {
            uint64_t sec0 = a->addr[__builtin_ctzll(t)] >> ss;
            for (unsigned k = 0; k < span; k++) {
                uint64_t sec = sec0 + k;
                unsigned w = (unsigned)((sec >> shift) - lmin);
                uint64_t bit = (uint64_t)1 << (sec & ((1u << shift) - 1));
                uint64_t pb = (uint64_t)1 << w;
                secmask[w] = (present & pb) ? secmask[w] | bit : bit;
                present |= pb;
            }
        }
        unsigned nsec = 0;
        for (uint64_t t = present; t; t &= t - 1)
            nsec += wmi_popcount64(secmask[__builtin_ctzll(t)]);
        c->sectors = nsec;
        c->tags = wmi_popcount64(present);
        return;
    }
    /* Path 3: at most 64 lanes x 16 pieces would overflow 256 slots only
     * for span > 2, which needs sector_bytes < 8; keep load <= 1/2. */
    unsigned npieces = wmi_popcount64(m) * span;
    unsigned bits = npieces <= 32 ? 6 : npieces <= 64 ? 7 : 8;
    lineset s;
    s.occ[0] = s.occ[1] = s.occ[2] = s.occ[3] = 0;
    s.nlines = 0;
    if (npieces > 128) {
        /* Only reachable with tiny generic sectors; count exactly anyway. */
        wm_counts r;
        (void)wmi_reference_count(arch, a, &r);
        c->sectors = r.sectors;
        c->tags = r.tags;
        return;
    }
    for (uint64_t t = m; t; t &= t - 1) {
        uint64_t sec0 = a->addr[__builtin_ctzll(t)] >> ss;
        for (unsigned k = 0; k < span; k++)
            lineset_add(&s, bits, sec0 + k, shift);
    }
    lineset_result(&s, bits, c);
}

/* Local memory: split each lane's access into 32-bit pieces at their
 * interleaved physical addresses, then count like global. */
static void count_local(const wm_arch *arch, const wm_access *a, wm_counts *c)
{
    unsigned ss = wmi_log2(arch->sector_bytes);
    unsigned shift = wmi_log2(arch->line_bytes) - ss;
    unsigned W = arch->warp_size;
    lineset s;
    s.occ[0] = s.occ[1] = s.occ[2] = s.occ[3] = 0;
    s.nlines = 0;
    /* At most 64 lanes x 4 words = 256 pieces: use all 256 slots only when
     * needed; sectors per piece: a 4-byte piece never straddles a sector. */
    unsigned words = a->size >= 4 ? a->size / 4 : 1;
    unsigned npieces = wmi_popcount64(a->mask) * words;
    if (npieces > 128) {
        wm_counts r;
        (void)wmi_reference_count(arch, a, &r);
        c->sectors = r.sectors;
        c->tags = r.tags;
        return;
    }
    unsigned bits = npieces <= 32 ? 6 : npieces <= 64 ? 7 : 8;
    for (uint64_t t = a->mask; t; t &= t - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(t);
        uint64_t w0 = a->addr[lane] >> 2;
        for (unsigned k = 0; k < words; k++) {
            uint64_t phys = ((w0 + k) * W + lane) * 4;
            lineset_add(&s, bits, phys >> ss, shift);
        }
    }
    lineset_result(&s, bits, c);
}

void wmi_coalesce_count(const wm_arch *arch, const wm_access *a,
                        wm_counts *c)
{
    assert(a->mask != 0);
    if (a->space == WM_SPACE_LOCAL)
        count_local(arch, a, c);
    else if (!count_affine(arch, a, c))
        count_sets(arch, a, c);
    c->ideal_sectors =
        (uint32_t)((c->bytes + arch->sector_bytes - 1) / arch->sector_bytes);
    /* Tag stage: 4 tags per cycle on GV100+ (forum S16/S17): an estimate. */
    c->t_wavefronts = (c->tags + 3) / 4;
}
