/*
 * cache.c -- the hierarchy below the coalescer: one L1 per SM, a shared L2
 * and DRAM, fed with the exact global access stream of a run.
 *
 * Model (docs/hierarchy.md gives the reasons and sources):
 *   - Sectored caches: 128 B lines of four 32 B sectors; a sector hits when
 *     its line's tag is present and the sector is valid, a tag miss and a
 *     tag hit with the sector missing are both misses (Nsight Compute
 *     Profiling Guide, "Memory" section).  Only missing sectors are
 *     fetched, never the whole line.
 *   - Set-associative, LRU: a set keeps its lines in recency order, the
 *     most recent first; evict-first loads
 *     (.cs, .lu, L1::evict_first) refill at the LRU end of L1 and of L2
 *     (PTX ISA: .cs is evict-first at both; L1::evict_first is taken the
 *     same way, a simplification).  Set index, at both levels: runs
 *     of 8 consecutive lines go to consecutive sets, and the run number is
 *     scrambled by a multiplicative hash.  The hardware's hash functions
 *     are not public; this is a simplification that, like them, spreads
 *     power-of-two strides over the sets (a plain modulo would put a
 *     column of an 8192-float matrix into one set).
 *   - Loads allocate in L1 (the default on sm_70+), .cg skips L1, .cv skips
 *     L1 and refetches from DRAM, L1::no_allocate looks up but does not
 *     fill.  Stores are write-through to L2 and do not allocate in L1 (a
 *     resident line stays valid); L2 is write-back and allocates on write
 *     without fetching (byte masks make partial writes safe).  Atomics go
 *     to L2 and fetch their sectors if missing.  Dirty sectors reach DRAM
 *     when evicted, and the rest when the run finishes.
 *   - Each SM's L1 TLB and the shared L2 TLB translate every access's
 *     pages first (cache_tlb.c); they count misses and add latency.
 *   - CTAs in launch order, in waves of nsms x ctas_per_sm; CTA i of a wave
 *     on SM i mod nsms (breadth first).  Within a wave the SMs take turns;
 *     each SM's warps issue one access per round (WM_CACHE_ORDER_INSN) or
 *     a whole barrier interval (WM_CACHE_ORDER_BARRIER).  A CTA's warps do
 *     not pass a barrier before all of them reach it.
 */
#include "access_check.h"
#include "cache_int.h"

#include <stdio.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

#define LINE_SHIFT 7
#define SECTOR_SHIFT 5
#define SPL 4 /* sectors per line */

/*
 * One way is one key: (line index + 1) << 8 | dirty sectors << 4 | valid
 * sectors (key 0 = empty).  A set's ways are its lines in recency order,
 * the most recently used first and the empty ways last, so the LRU line
 * is the last full way.  8 bytes a way: a 16-way set is two host cache
 * lines, and a hit on a recent line reads only the first.
 */
typedef uint64_t way;

#define KEY_TAG(k) ((k) >> 8)
#define KEY_VALID(k) ((unsigned)(k) & 0xfu)
#define KEY_DIRTY(k) ((unsigned)((k) >> 4) & 0xfu)

/* One cache level, the ways of a set contiguous. */
typedef struct level {
    way *w;
    uint32_t nsets, ways;
} level;

/* One access of the wave: its offset in the trace, its CTA and SM. */
typedef struct turn {
    size_t p, k;
    unsigned sm; /* k's SM */
} turn;

/* The store just replayed, when its lines all stayed in L2 (a repeat of
 * it hits them all and moves nothing): its record (in the wave's trace;
 * NULL when there is none) and its sector and part-written sector
 * counts. */
typedef struct store_rep {
    const uint64_t *h;
    unsigned sectors, partial;
} store_rep;

struct wm_cache {
    wm_cache_config cfg;
    level *l1; /* one per SM */
    level l2;
    wmi_big tags; /* the ways of both levels */
    wmi_ctrace pending; /* the wave being collected */
    size_t wave;        /* CTAs per wave */
    wm_cache_stats *site;
    size_t nsite;
    uint64_t flush_wr;  /* dirty sectors written back at finish */
    uint64_t shared_wavefronts; /* without an interval (the API's total) */
    uint64_t shared_recorded;   /* from the trace's shared records */
    wmi_ctime tm;               /* latency and pipe terms (cache_time.c) */
    wmi_ctlb tlb;               /* the TLBs (cache_tlb.c) */
    int finished;
    /* replay scratch */
    size_t *acc;  /* access offsets, grouped by (cta, warp) */
    size_t capacc;
    turn *seq;    /* a window of the wave's turns, in replay order */
    size_t capseq;
    store_rep rep; /* the access just replayed, when a store */
};

/* ---- trace ------------------------------------------------------------- */

void wmi_ctrace_free(wmi_ctrace *t)
{
    if (!t)
        return;
    free(t->w);
    free(t->cta);
    t->w = NULL;
    t->cta = NULL;
    t->n = t->cap = t->ncta = t->capcta = 0;
}

wm_status wmi_ctrace_cta(wmi_ctrace *t)
{
    if (!wmi_grow((void **)&t->cta, &t->capcta, t->ncta + 1, sizeof *t->cta,
                  256))
        return WM_ERR_NOMEM;
    t->cta[t->ncta++] = t->n;
    t->warp = t->interval = 0;
    t->last = 0;
    return WM_OK;
}

wm_status wmi_ctrace_split(wmi_ctrace *t, unsigned n)
{
    if (t->ncta == 0 || n < 2)
        return WM_OK;
    size_t lo = t->cta[t->ncta - 1], len = t->n - lo;
    uint64_t *tmp = malloc((len ? len : 1) * sizeof *tmp);
    if (!tmp || !wmi_grow((void **)&t->cta, &t->capcta, t->ncta + n - 1,
                          sizeof *t->cta, 256)) {
        free(tmp);
        return WM_ERR_NOMEM;
    }
    if (len)
        memcpy(tmp, t->w + lo, len * sizeof *tmp);
    size_t out = lo;
    for (unsigned r = 0; r < n; r++) {
        if (r)
            t->cta[t->ncta++] = out;
        for (size_t p = 0; p < len; p += wmi_rec_len(tmp + p)) {
            size_t k = wmi_rec_len(tmp + p);
            if (((tmp[p] >> 32 & 0xffff) >> 6) != r)
                continue;
            memcpy(t->w + out, tmp + p, k * sizeof *tmp);
            t->w[out] &= ~((uint64_t)0xffc0 << 32); /* the rank bits */
            out += k;
        }
    }
    assert(out == t->n);
    t->last = 0;
    free(tmp);
    return WM_OK;
}

/* A record of the current warp follows: count it in t->nw (the warp
 * within its CTA: below 64; a cluster's rank is above). */
static void note_warp(wmi_ctrace *t)
{
    if ((t->warp & 63) >= t->nw)
        t->nw = (t->warp & 63) + 1;
}

wm_status wmi_ctrace_shared(wmi_ctrace *t, uint64_t n)
{
    if (n == 0 || t->ncta == 0)
        return WM_OK;
    if (!wmi_grow((void **)&t->w, &t->cap, t->n + 2, sizeof *t->w, 256))
        return WM_ERR_NOMEM;
    t->shared_wavefronts += n;
    uint64_t h0 = (uint64_t)(t->warp & 0xffff) << 32 |
                  (uint64_t)WMI_CK_SHARED << 56;
    /* The warp's shared access just before, in the same interval: one
     * record for both, which the replay gives both turns (a tiled
     * matmul's inner loop is tens of them between two barriers). */
    uint64_t *h = t->last ? t->w + t->last - 1 : NULL;
    if (h && (h[0] & ~(uint64_t)UINT32_MAX) == h0 &&
        (uint32_t)h[1] == t->interval && (uint32_t)h[0] < UINT32_MAX &&
        (h[1] >> 32) + n <= UINT32_MAX) {
        h[0]++;
        h[1] += n << 32;
        return WM_OK;
    }
    note_warp(t);
    t->last = t->n + 1;
    t->w[t->n] = h0;
    t->w[t->n + 1] = (uint64_t)t->interval | n << 32;
    t->n += 2;
    return WM_OK;
}

/* Bytes lane accesses put in each sector of line slot i (stores only). */
static void sector_bytes(uint16_t (*fill)[SPL], unsigned i, uint64_t s,
                         uint64_t lo, uint64_t hi)
{
    uint64_t a = s << SECTOR_SHIFT, b = a + (1u << SECTOR_SHIFT) - 1;
    uint64_t n = (hi < b ? hi : b) - (lo > a ? lo : a) + 1;
    uint16_t *f = &fill[i][s & (SPL - 1)];
    *f = (uint16_t)(*f + n > 0xffff ? 0xffff : *f + n);
}

/* Each active lane of a writes less than a sector, within one sector,
 * and the lanes' sectors rise: no sector is written whole (a strided
 * store), so its bytes need no counting. */
static int lone_sectors(const wm_access *a)
{
    if (a->size >= (1u << SECTOR_SHIFT))
        return 0;
    uint64_t prev = 0;
    for (uint64_t m = a->mask; m; m &= m - 1) {
        uint64_t lo = a->addr[__builtin_ctzll(m)];
        uint64_t s = lo >> SECTOR_SHIFT;
        if ((lo + (a->size ? a->size - 1 : 0)) >> SECTOR_SHIFT != s ||
            (m != a->mask && s <= prev))
            return 0;
        prev = s;
    }
    return 1;
}

/* The slot of line li in a 128-slot hash of line words (-1: empty): its
 * own, or the empty one it would take. */
static unsigned line_slot(const int16_t *slot, uint64_t li,
                          const uint64_t *line)
{
    unsigned h = (unsigned)((li * 0x9E3779B97F4A7C15ull) >> 57);
    while (slot[h] >= 0 && (line[slot[h]] >> 16) != li)
        h = (h + 1) & 127;
    return h;
}

/* The distinct lines of one access in first-touch order, as line words.
 * While the lines only grow (a coalesced or strided warp) a new one cannot
 * be a repeat; from the first that does not, a 128-slot hash of the line
 * index finds repeats (at most 2 x 64 lines for 64 lanes).  With st, the
 * bytes written to each sector are counted in fill. */
typedef struct lineset {
    uint64_t *line;
    unsigned nl;
    int hashed, st;
    int16_t slot[128];
    uint16_t fill[2 * WM_MAX_LANES][SPL]; /* rows set as lines appear */
} lineset;

/* The index of line li's word, appended when new. */
static inline unsigned line_of(lineset *L, uint64_t li)
{
    uint64_t *line = L->line;
    unsigned nl = L->nl;
    /* coalesced lanes: the line of the previous lane */
    if (nl && (line[nl - 1] >> 16) == li)
        return nl - 1;
    if (!L->hashed && (nl == 0 || li > line[nl - 1] >> 16)) {
        assert(nl < 2 * WM_MAX_LANES);
        if (L->st)
            memset(L->fill[nl], 0, sizeof L->fill[nl]);
        line[nl] = li << 16;
        return L->nl++;
    }
    if (!L->hashed) {
        L->hashed = 1;
        memset(L->slot, -1, sizeof L->slot);
        for (unsigned i = 0; i < nl; i++)
            L->slot[line_slot(L->slot, line[i] >> 16, line)] = (int16_t)i;
    }
    unsigned h = line_slot(L->slot, li, line);
    if (L->slot[h] < 0) {
        assert(nl < 2 * WM_MAX_LANES);
        L->slot[h] = (int16_t)nl;
        if (L->st)
            memset(L->fill[nl], 0, sizeof L->fill[nl]);
        line[nl] = li << 16;
        L->nl++;
    }
    return (unsigned)L->slot[h];
}

/* Sector s of a lane's bytes lo..hi. */
static inline void add_sector(lineset *L, uint64_t s, uint64_t lo, uint64_t hi)
{
    unsigned i = line_of(L, s >> 2);
    L->line[i] |= (uint64_t)1 << (s & (SPL - 1));
    if (L->st)
        sector_bytes(L->fill, i, s, lo, hi);
}

/* No active lane of a crosses a sector boundary (elements of up to a
 * sector, aligned: the common case), tested over every lane at once. */
static int in_one_sector(const wm_access *a)
{
    uint64_t last = a->size ? a->size - 1 : 0, cross = 0;
    if (last >= (1u << SECTOR_SHIFT))
        return 0;
    unsigned n = 64 - (unsigned)__builtin_clzll(a->mask);
    for (unsigned l = 0; l < n; l++) {
        uint64_t lo = a->addr[l];
        uint64_t x = ((lo + last) ^ lo) >> SECTOR_SHIFT;
        cross |= (a->mask >> l & 1) ? x : 0;
    }
    return cross == 0;
}

/* The bits, within line li, of the sectors lo..hi - 1 (none: 0). */
static inline uint64_t sector_span(uint64_t lo, uint64_t hi, uint64_t li)
{
    uint64_t b = li << 2, e = b + SPL;
    lo = lo > b ? lo : b;
    hi = hi < e ? hi : e;
    return hi > lo ? ((uint64_t)1 << (hi - b)) - ((uint64_t)1 << (lo - b)) : 0;
}

/* row_lines for a0 and end on line boundaries: every sector of each
 * line, all of them written whole by a store. */
static inline unsigned whole_lines(uint64_t a0, uint64_t end, int st,
                                   uint64_t *line)
{
    unsigned nl = 0;
    for (uint64_t li = a0 >> LINE_SHIFT; li < end >> LINE_SHIFT; li++)
        line[nl++] = li << 16 | (st ? 0xff : 0xf);
    return nl;
}

/* The line words of the bytes a0..end - 1 read or written as one range:
 * its lines in order, each with the sectors the range overlaps (a0 / 32
 * to (end - 1) / 32) and, for a store (st), those it covers whole
 * (ceil(a0 / 32) to end / 32 - 1). */
static unsigned row_lines(uint64_t a0, uint64_t end, int st, uint64_t *line)
{
    unsigned nl = 0;
    if (((a0 | end) & ((1u << LINE_SHIFT) - 1)) == 0)
        return whole_lines(a0, end, st, line);
    uint64_t s0 = a0 >> SECTOR_SHIFT, s1 = ((end - 1) >> SECTOR_SHIFT) + 1;
    uint64_t w0 = (a0 + (1u << SECTOR_SHIFT) - 1) >> SECTOR_SHIFT,
             w1 = st ? end >> SECTOR_SHIFT : 0;
    for (uint64_t li = s0 >> 2; li <= (s1 - 1) >> 2; li++)
        line[nl++] = li << 16 | sector_span(s0, s1, li) |
                     sector_span(w0, w1, li) << 4;
    return nl;
}

/* The line words of an access whose active lanes are one run of lanes
 * reading or writing one contiguous range (lane l at a0 + l x size: a
 * coalesced row), from the range alone: its lines in order, each with the
 * sectors the range overlaps and, for a store, those it covers whole.  0
 * when the access is not such a run. */
static unsigned range_lines(const wm_access *a, uint64_t *line)
{
    uint64_t m = a->mask, size = a->size;
    unsigned l0 = (unsigned)__builtin_ctzll(m);
    if (size == 0 || ((m >> l0) & ((m >> l0) + 1)) != 0)
        return 0; /* not one run of lanes */
    unsigned n = (unsigned)__builtin_popcountll(m);
    const uint64_t *ad = a->addr + l0;
    uint64_t a0 = ad[0], want = a0, off = 0;
    for (unsigned i = 1; i < n; i++) { /* one pass, no branch */
        want += size;
        off |= ad[i] ^ want;
    }
    if (off)
        return 0;
    return row_lines(a0, a0 + n * size, a->op == WM_OP_ST, line);
}

/* Line words built lane by lane from sectors met in a monotone order (a
 * sector or a line once left is never met again): the current line's word
 * and, for a store, the bytes written so far in the current sector cs
 * (bits 4..7: the sectors written whole, lane bytes summed as
 * sector_bytes does). */
typedef struct sector_walk {
    uint64_t *line;
    unsigned nl;
    int st;
    uint64_t cs, word, fill;
} sector_walk;

static inline sector_walk walk_start(uint64_t *line, uint64_t s, int st)
{
    sector_walk w = {line, 0, st, s, (s >> 2) << 16, 0};
    return w;
}

/* A lane of size bytes within sector s. */
static inline void walk_lane(sector_walk *w, uint64_t s, uint64_t size)
{
    if (s != w->cs) {
        if (w->st && w->fill >= (1u << SECTOR_SHIFT))
            w->word |= (uint64_t)16 << (w->cs & (SPL - 1));
        if (s >> 2 != w->cs >> 2) {
            w->line[w->nl++] = w->word;
            w->word = (s >> 2) << 16;
        }
        w->cs = s;
        w->fill = 0;
    }
    w->word |= (uint64_t)1 << (s & (SPL - 1));
    w->fill += size;
}

/* The last line's word; returns the number of line words. */
static inline unsigned walk_end(sector_walk *w)
{
    if (w->st && w->fill >= (1u << SECTOR_SHIFT))
        w->word |= (uint64_t)16 << (w->cs & (SPL - 1));
    w->line[w->nl++] = w->word;
    return w->nl;
}

/* The line words of an access whose lanes each touch one sector and whose
 * sectors never fall (coalesced, strided, broadcast: most warps), in one
 * pass (sector_walk); 0 when a lane crosses a sector or a sector falls
 * (the general path then starts again). */
static unsigned rising_lines(const wm_access *a, uint64_t *line)
{
    const uint64_t size = a->size, last = size ? size - 1 : 0;
    const int st = a->op == WM_OP_ST;
    if (last >= (1u << SECTOR_SHIFT))
        return 0;
    sector_walk w = walk_start(
        line, a->addr[__builtin_ctzll(a->mask)] >> SECTOR_SHIFT, st);
    for (uint64_t m = a->mask; m; m &= m - 1) {
        uint64_t lo = a->addr[__builtin_ctzll(m)], s = lo >> SECTOR_SHIFT;
        if ((lo + last) >> SECTOR_SHIFT != s || s < w.cs)
            return 0;
        walk_lane(&w, s, size);
    }
    return walk_end(&w);
}

/* The two header words of an access of nl line words (already in place
 * after them) and requested bytes. */
static void put_header(wmi_ctrace *t, uint32_t site, unsigned kind,
                       unsigned lead, unsigned nl, uint64_t bytes)
{
    note_warp(t);
    t->last = t->n + 1;
    t->w[t->n] = (uint64_t)site | (uint64_t)(t->warp & 0xffff) << 32 |
                 (uint64_t)nl << 48 | (uint64_t)kind << 56 |
                 (uint64_t)lead << 60;
    t->w[t->n + 1] = (uint64_t)t->interval | bytes << 32;
    t->n += 2 + nl;
}

/* Whether a full warp of size-byte lanes at x0 + l d is a column
 * (WMI_REC_COL).  Below 2^57 bytes of stride no two of its lanes can meet
 * in a line, even where the addresses wrap. */
static int is_column(uint64_t size, uint64_t x0, int64_t d)
{
    const int64_t big = (int64_t)1 << 57;
    return size && size <= 16 && !(size & (size - 1)) &&
           !((x0 | (uint64_t)d) & (size - 1)) && (d >= 128 || d <= -128) &&
           d < big && d > -big;
}

/* Append a column's record (its header, x0, d). */
static void put_column(wmi_ctrace *t, uint32_t site, unsigned kind,
                       unsigned lead, uint64_t x0, int64_t d, uint64_t size)
{
    size_t n = t->n;
    put_header(t, site, kind, lead, 32, 32 * size);
    t->w[n] |= WMI_REC_COL;
    t->w[n + 2] = x0;
    t->w[n + 3] = (uint64_t)d;
    t->n = n + 4;
}

/* A column's line words: a line per lane, in lane order, each with its
 * lane's sector (never written whole: a lane has at most 16 bytes). */
static void column_lines(uint64_t x0, int64_t d, uint64_t *line)
{
    uint64_t a = x0;
    for (unsigned l = 0; l < 32; l++, a += (uint64_t)d)
        line[l] = (a >> LINE_SHIFT) << 16 |
                  (uint64_t)1 << ((a >> SECTOR_SHIFT) & (SPL - 1));
}

const uint64_t *wmi_rec_lines(const uint64_t *h, uint64_t *buf)
{
    if (!(h[0] & WMI_REC_COL))
        return h + 2;
    column_lines(h[2], (int64_t)h[3], buf);
    return buf;
}

/* Whether the lanes of a are a column (*x0, *d: its first address and
 * stride). */
static int column_of(const wm_access *a, uint64_t *x0, int64_t *d)
{
    if (a->mask != 0xffffffffull)
        return 0;
    uint64_t a0 = a->addr[0], step = a->addr[1] - a0, want = a0, off = 0;
    if (!is_column(a->size, a0, (int64_t)step))
        return 0;
    for (unsigned l = 1; l < 32; l++) { /* one pass, no branch */
        want += step;
        off |= a->addr[l] ^ want;
    }
    *x0 = a0;
    *d = (int64_t)step;
    return off == 0;
}

wm_status wmi_ctrace_add(wmi_ctrace *t, const wm_access *a,
                         const wm_counts *c, unsigned ld)
{
    if (a->space == WM_SPACE_SHARED)
        return c ? wmi_ctrace_shared(t, c->wavefronts) : WM_OK;
    if (a->space != WM_SPACE_GLOBAL || !a->mask || t->ncta == 0)
        return WM_OK;
    if (!wmi_grow((void **)&t->w, &t->cap, t->n + 2 + WM_MAX_LANES * 2,
                  sizeof *t->w, 256))
        return WM_ERR_NOMEM;
    unsigned lead = (ld & WMI_CACHE_LEAD) ? 1 : 0;
    ld &= WMI_CACHE_LEAD - 1;
    assert(ld <= WM_CACHE_LD_CV);
    unsigned kind = a->op == WM_OP_ST   ? WMI_CK_ST
                    : a->op == WM_OP_ATOM ? WMI_CK_ATOM
                                          : ld;
    uint64_t x0;
    int64_t d;
    if (column_of(a, &x0, &d)) {
        put_column(t, a->site, kind, lead, x0, d, a->size);
        return WM_OK;
    }
    lineset L;
    L.line = t->w + t->n + 2;
    L.hashed = 0;
    L.nl = range_lines(a, L.line);
    if (!L.nl)
        L.nl = rising_lines(a, L.line);
    /* stores: bytes per sector, for the partly written ones (none can be
     * whole when each lane has a sector of its own) */
    L.st = !L.nl && a->op == WM_OP_ST && !lone_sectors(a);
    uint64_t last = a->size ? a->size - 1 : 0;
    uint64_t bytes = (uint64_t)a->size * (uint64_t)__builtin_popcountll(a->mask);
    if (!L.nl && in_one_sector(a)) {
        for (uint64_t m = a->mask; m; m &= m - 1) {
            uint64_t lo = a->addr[__builtin_ctzll(m)];
            add_sector(&L, lo >> SECTOR_SHIFT, lo, lo + last);
        }
    } else if (!L.nl) {
        for (uint64_t m = a->mask; m; m &= m - 1) {
            uint64_t lo = a->addr[__builtin_ctzll(m)], hi = lo + last;
            for (uint64_t s = lo >> SECTOR_SHIFT; s <= hi >> SECTOR_SHIFT;
                 s++)
                add_sector(&L, s, lo, hi);
        }
    }
    unsigned nl = L.nl;
    uint64_t *line = L.line;
    assert(nl >= 1);
    /* stores: bits 4..7 of a line word mark its fully written sectors */
    for (unsigned i = 0; L.st && i < nl; i++)
        for (unsigned q = 0; q < SPL; q++)
            if (L.fill[i][q] >= (1u << SECTOR_SHIFT))
                line[i] |= (uint64_t)1 << (4 + q);
    put_header(t, a->site, kind, lead, nl, bytes);
    return WM_OK;
}

/* The line words of a full warp at x0 + l d whose lanes each stay within
 * one sector and which is no column, in closed form: a row from its range
 * (row_lines), a broadcast as one sector (32 lanes of at least a byte
 * write it whole); otherwise the lanes' sectors in lane
 * order as rising_lines takes them, computed, in either direction (the
 * lanes are monotone, so a line or sector once left is never met again). */
static unsigned affine_lines(const wmi_affine_access *x, uint64_t *line)
{
    const uint64_t size = x->size, x0 = x->x0, d = (uint64_t)x->d;
    const int st = x->op == WM_OP_ST;
    if (d == size && ((x0 | 32 * size) & ((1u << LINE_SHIFT) - 1)) == 0)
        return whole_lines(x0, x0 + 32 * size, st, line); /* (no call) */
    if (d == size)
        return row_lines(x0, x0 + 32 * size, st, line);
    uint64_t s = x0 >> SECTOR_SHIFT;
    if (d == 0) {
        line[0] = (s >> 2) << 16 | (uint64_t)(st ? 0x11 : 0x1) << (s & 3);
        return 1;
    }
    sector_walk w = walk_start(line, s, st);
    uint64_t a = x0;
    for (unsigned l = 0; l < 32; l++, a += d)
        walk_lane(&w, a >> SECTOR_SHIFT, size);
    return walk_end(&w);
}

wm_status wmi_ctrace_add_affine(wmi_ctrace *t, const wmi_affine_access *x,
                                const wm_counts *c, unsigned ld)
{
    uint64_t size = x->size;
    if (x->space == WM_SPACE_SHARED)
        return c ? wmi_ctrace_shared(t, c->wavefronts) : WM_OK;
    /* lanes within a sector each: size a power of two of at most 16 that
     * divides x0 and d (any other shape takes the lanes' path) */
    if (x->space != WM_SPACE_GLOBAL || x->op == WM_OP_ATOM || size == 0 ||
        size > 16 || (size & (size - 1)) ||
        ((x->x0 | (uint64_t)x->d) & (size - 1))) {
        wm_access a;
        a.site = x->site;
        a.space = x->space;
        a.op = x->op;
        a.size = x->size;
        a.mask = 0xffffffffu;
        uint64_t e = x->x0;
        for (unsigned l = 0; l < WM_MAX_LANES; l++, e += (uint64_t)x->d)
            a.addr[l] = l < 32 ? e : 0;
        return wmi_ctrace_add(t, &a, c, ld);
    }
    if (t->ncta == 0)
        return WM_OK;
    if (!wmi_grow((void **)&t->w, &t->cap, t->n + 2 + 32, sizeof *t->w, 256))
        return WM_ERR_NOMEM;
    unsigned lead = (ld & WMI_CACHE_LEAD) ? 1 : 0;
    ld &= WMI_CACHE_LEAD - 1;
    assert(ld <= WM_CACHE_LD_CV);
    unsigned kind = x->op == WM_OP_ST ? WMI_CK_ST : ld;
    if (is_column(size, x->x0, x->d)) {
        put_column(t, x->site, kind, lead, x->x0, x->d, size);
        return WM_OK;
    }
    unsigned nl = affine_lines(x, t->w + t->n + 2);
    assert(nl >= 1 && nl <= 32);
    put_header(t, x->site, kind, lead, nl, 32 * size);
    return WM_OK;
}

wm_status wmi_ctrace_tap(void *ud, const wm_access *a, const wm_counts *c)
{
    wmi_ctrace *t = ud;
    unsigned ld = WM_CACHE_LD_CA;
    if (t->ld_kind && a->site < t->nld_kind)
        ld = t->ld_kind[a->site];
    return wmi_ctrace_add(t, a, c, ld);
}

wm_status wmi_ctrace_tap_affine(void *ud, const wmi_affine_access *x,
                                const wm_counts *c)
{
    wmi_ctrace *t = ud;
    unsigned ld = WM_CACHE_LD_CA;
    if (t->ld_kind && x->site < t->nld_kind)
        ld = t->ld_kind[x->site];
    return wmi_ctrace_add_affine(t, x, c, ld);
}

/* The first '.'-separated word of text has modifier m. */
static int has_mod(const char *text, const char *m)
{
    size_t n = strlen(m);
    const char *end = text + strcspn(text, " \t");
    for (const char *p = strchr(text, '.'); p && p < end;
         p = strchr(p + 1, '.'))
        if ((size_t)(end - p - 1) >= n && strncmp(p + 1, m, n) == 0 &&
            (p[1 + n] == '.' || p + 1 + n == end))
            return 1;
    return 0;
}

wm_cache_ld wmi_cache_ld_of_text(const char *text)
{
    /* PTX ISA, "Cache Operators" and "ld": .cg caches in L2 only; .cs and
     * .lu (on global addresses the same as .cs) are evict-first; .cv
     * fetches again; ld.volatile is not cached either; .nc goes through
     * the L1/texture path and is cached. */
    if (!text || strncmp(text, "ld", 2) != 0)
        return WM_CACHE_LD_CA;
    if (has_mod(text, "cv") || has_mod(text, "volatile"))
        return WM_CACHE_LD_CV;
    if (has_mod(text, "cg"))
        return WM_CACHE_LD_CG;
    if (has_mod(text, "L1::no_allocate"))
        return WM_CACHE_LD_NO_ALLOCATE;
    if (has_mod(text, "cs") || has_mod(text, "lu") ||
        has_mod(text, "L1::evict_first"))
        return WM_CACHE_LD_EVICT_FIRST;
    return WM_CACHE_LD_CA;
}

/* ---- one cache level ----------------------------------------------------- */

/* The sets and ways of a level of bytes (0 when it holds no line); its
 * ways, nsets x ways, are the caller's to place. */
static size_t level_shape(level *lv, uint64_t bytes, unsigned ways)
{
    uint64_t lines = bytes >> LINE_SHIFT;
    if (lines == 0)
        return 0;
    if (ways == 0 || ways > lines)
        ways = (unsigned)(lines > UINT32_MAX ? UINT32_MAX : lines);
    lv->ways = ways;
    lv->nsets = (uint32_t)(lines / ways);
    return (size_t)lv->nsets * ways;
}

/* The ways of L2 and of every SM's L1 in one zeroed block, on huge pages
 * where the host gives them: the lookups land all over megabytes of tags,
 * and on 4 KiB pages each new page was a fault and many a TLB miss. */
static int levels_init(wm_cache *c)
{
    const wm_cache_config *cfg = &c->cfg;
    size_t n2 = level_shape(&c->l2, cfg->l2_bytes, cfg->l2_ways);
    size_t n1 = level_shape(&c->l1[0], cfg->l1_bytes, cfg->l1_ways);
    if (!n1 || !n2 || n1 > (SIZE_MAX / sizeof(way) - n2) / cfg->nsms)
        return 0;
    size_t n = n2 + n1 * cfg->nsms;
    if (!wmi_big_alloc(&c->tags, n * sizeof(way)))
        return 0;
    way *w = (way *)c->tags.p;
    memset(w, 0, n * sizeof *w);
    c->l2.w = w;
    for (unsigned i = 0; i < cfg->nsms; i++) {
        c->l1[i] = c->l1[0];
        c->l1[i].w = w + n2 + (size_t)i * n1;
    }
    return 1;
}

/* The set of line li: with a multiple of 8 sets, runs of 8 lines go to
 * 8 consecutive sets and the run picks the group by a multiplicative hash
 * reduced by multiply-shift (no division on this hot path); otherwise the
 * line itself is hashed. */
static way *set_of(const level *lv, uint64_t li)
{
    uint64_t set;
    if (lv->nsets % 8 == 0) {
        uint64_t h = ((li >> 3) * 0x9E3779B97F4A7C15ull) >> 32;
        set = (h * (lv->nsets / 8)) >> 32 << 3 | (li & 7);
    } else {
        uint64_t h = (li * 0x9E3779B97F4A7C15ull) >> 32;
        set = (h * lv->nsets) >> 32;
    }
    return lv->w + (size_t)set * lv->ways;
}

/* The place of line li in set s, or -1; *n: the set's full ways when it
 * is not there (the first empty way, or all of them), else li's place. */
static int find(const way *s, unsigned ways, uint64_t li, unsigned *n)
{
    unsigned i = 0;
#ifdef __SSE4_1__
    /* four ways a step, one branch a step: a streaming line misses in a
     * full set, and the scalar loop took two branches for each way */
    const __m128i key = _mm_set1_epi64x((long long)((li + 1) << 8));
    const __m128i tag = _mm_set1_epi64x(~(long long)0xff);
    const __m128i zero = _mm_setzero_si128();
    for (; i + 4 <= ways; i += 4) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 2));
        __m128i h = _mm_packs_epi32(
            _mm_cmpeq_epi64(_mm_and_si128(a, tag), key),
            _mm_cmpeq_epi64(_mm_and_si128(b, tag), key));
        __m128i e = _mm_packs_epi32(_mm_cmpeq_epi64(a, zero),
                                    _mm_cmpeq_epi64(b, zero));
        /* a bit per way: ways i..i+3 at bits 0..3 (hits), 4..7 (empty) */
        unsigned m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(h)) |
                     (unsigned)_mm_movemask_ps(_mm_castsi128_ps(e)) << 4;
        if (m) {
            unsigned j = (unsigned)__builtin_ctz(m);
            /* the empty ways come after every full one: a hit is first */
            *n = i + (j & 3);
            return j < 4 ? (int)(i + j) : -1;
        }
    }
#endif
    for (; i < ways && s[i]; i++)
        if (KEY_TAG(s[i]) == li + 1)
            break;
    *n = i;
    return i < ways && s[i] ? (int)i : -1;
}

/* Make way i of s the most recently used; returns its new place. */
static way *to_front(way *s, unsigned i)
{
    if (i == 0) /* already the most recent */
        return s;
    way k = s[i];
    memmove(s + 1, s, i * sizeof *s);
    s[0] = k;
    return s;
}

/* Put key k into set s of n full ways out of ways: the most recently used
 * or, last, at the LRU end (after every full way).  A full set first drops
 * its LRU line, returned in *old (0 when nothing was dropped). */
static way *insert(way *s, unsigned ways, unsigned n, way k, int last,
                   way *old)
{
    unsigned i = n < ways ? n : ways - 1;
    *old = n < ways ? 0 : s[i];
    s[i] = k;
    return last ? &s[i] : to_front(s, i);
}

/* Add sector bits to a way's valid (and dirty) sets. */
static void set_bits(way *w, unsigned valid, unsigned dirty)
{
    *w |= (uint64_t)(valid & 0xfu) | (uint64_t)(dirty & 0xfu) << 4;
}

static unsigned popc16(unsigned x)
{
    return (unsigned)__builtin_popcount(x);
}

/* ---- the hierarchy ------------------------------------------------------- */

/* Bring line li into L2 set s (n full ways), writing back the dirty
 * sectors of the line it drops; last: at the LRU end. */
static way *refill(wm_cache_stats *st, const level *lv, way *s, unsigned n,
                   uint64_t li, int last)
{
    way old;
    way *w = insert(s, lv->ways, n, (li + 1) << 8, last, &old);
    st->dram_wr_sectors += popc16(KEY_DIRTY(old));
    return w;
}

/* L2 read of sectors mask of line li; cv: refetch even if present.
 * Returns the sectors DRAM served. */
static unsigned l2_read(wm_cache *c, wm_cache_stats *st, way *s, uint64_t li,
                        unsigned mask, int cv, int evict_first)
{
    level *lv = &c->l2;
    way *w;
    unsigned n, hit = 0;
    int i = find(s, lv->ways, li, &n);
    /* evict-first: a refill goes to the LRU end, a hit stays in place */
    if (i < 0) {
        w = refill(st, lv, s, n, li, evict_first);
    } else {
        if (!cv)
            hit = KEY_VALID(s[i]) & mask;
        w = evict_first ? &s[i] : to_front(s, (unsigned)i);
    }
    st->l2_rd_sectors += popc16(mask);
    st->l2_rd_hits += popc16(hit);
    st->dram_rd_sectors += popc16(mask & ~hit);
    set_bits(w, mask, 0);
    return mask & ~hit;
}

/* L2 write (store) of sectors mask; atom: read-modify-write. */
static void l2_write(wm_cache *c, wm_cache_stats *st, way *s, uint64_t li,
                     unsigned mask, int atom)
{
    level *lv = &c->l2;
    way *w;
    unsigned n;
    int i = find(s, lv->ways, li, &n);
    st->l2_wr_sectors += popc16(mask);
    if (i < 0) {
        w = refill(st, lv, s, n, li, 0);
    } else {
        st->l2_wr_hits += popc16(mask);
        w = to_front(s, (unsigned)i);
    }
    if (atom)
        st->dram_rd_sectors += popc16(mask & ~KEY_VALID(*w));
    set_bits(w, mask, mask);
}

static wm_cache_stats *site_stats(wm_cache *c, uint32_t site)
{
    if (site >= c->nsite) {
        size_t n = c->nsite ? c->nsite : 64;
        while (n <= site)
            n *= 2;
        wm_cache_stats *p = realloc(c->site, n * sizeof *p);
        if (!p)
            return NULL;
        memset(p + c->nsite, 0, (n - c->nsite) * sizeof *p);
        c->site = p;
        c->nsite = n;
    }
    return &c->site[site];
}

/* The sets of a warp access's lines are scattered over tag arrays of
 * megabytes, so each lookup would wait for the host's memory: each line's
 * sets are found once, before the lookups, and fetched then (both host
 * lines of a 16-way set), so the lookups find them on their way.  A
 * load's L2 set is fetched too, as most lines that miss L1 go on to L2. */
static inline way *fetch_set(const level *lv, uint64_t li)
{
    way *s = set_of(lv, li);
    __builtin_prefetch(s);
    __builtin_prefetch((const char *)s + 64);
    return s;
}

/* What one warp access did, for the time terms. */
typedef struct acc_out {
    int served;      /* where its slowest sector came from: 0 L1, 1 L2,
                        2 DRAM */
    unsigned pipe;   /* its L1 cycles: the larger of the tag stage's
                        ceil(lines / 4) and the data stage's
                        ceil(sectors / 4), 128 B a cycle */
    unsigned sectors;  /* sectors it touched */
    unsigned missed;   /* of them, those requested from L2 (miss slots) */
    double tlb;      /* the cycles its TLB misses add */
} acc_out;

/* Whether no set of s[0..n) holds more than ways of them (then none of n
 * lines put into those sets pushed out another).  Past 2 x ways lines the
 * answer is taken to be no; below, only a majority set can hold more. */
static int sets_hold(way *const *s, unsigned n, unsigned ways)
{
    if (n <= ways)
        return 1;
    if (n > 2 * ways)
        return 0;
    way *cand = s[0];
    unsigned votes = 0, count = 0;
    for (unsigned i = 0; i < n; i++) { /* Boyer-Moore majority vote */
        if (votes == 0)
            cand = s[i];
        votes += s[i] == cand ? 1 : (unsigned)-1;
    }
    for (unsigned i = 0; i < n; i++)
        count += s[i] == cand;
    return count <= ways;
}

/* A store of the same line words as the store just replayed (a column of
 * lines that the warps of a CTA write in turn, a sector each): its lines
 * are the most recent of their sets, in the order the store left them,
 * with these sectors valid and dirty, so each sector hits and taking them
 * again in the same order leaves every set as it was; only the counts
 * move.  Two columns of one stride, a multiple of a sector, have the same
 * line words when they start in the same sector.  (A record of the same
 * line words in another form is taken as no repeat: the shortcut is
 * missed, not wrong.) */
static int store_repeats(const store_rep *r, const uint64_t *h)
{
    if (!r->h || ((r->h[0] ^ h[0]) & (WMI_REC_COL | (uint64_t)0xff << 48)))
        return 0;
    if (h[0] & WMI_REC_COL)
        return r->h[3] == h[3] &&
               (h[3] % 32 == 0 ? r->h[2] >> 5 == h[2] >> 5 : r->h[2] == h[2]);
    unsigned nl = (unsigned)(h[0] >> 48) & 0xff;
    for (unsigned i = 2; i < 2 + nl; i++) /* most differ in the first word */
        if (r->h[i] != h[i])
            return 0;
    return 1;
}

static void store_again(wm_cache_stats *st, const store_rep *r, acc_out *o)
{
    st->l1_st_sectors += r->sectors;
    st->l2_wr_partial += r->partial;
    st->l2_wr_sectors += r->sectors;
    st->l2_wr_hits += r->sectors;
    st->l1_data_wavefronts += (r->sectors + 3) / 4;
    unsigned nl = (unsigned)(r->h[0] >> 48) & 0xff;
    unsigned data = (r->sectors + 3) / 4, tag = (nl + 3) / 4;
    o->pipe = data > tag ? data : tag;
    o->sectors = r->sectors;
    o->missed = 0;
}

/* One warp access (header at h) on SM sm, into *o. */
static wm_status do_access(wm_cache *c, unsigned sm, const uint64_t *h,
                           acc_out *o)
{
    uint32_t site = (uint32_t)h[0];
    unsigned nl = (unsigned)(h[0] >> 48) & 0xff;
    unsigned kind = (unsigned)(h[0] >> 56) & 0x7;
    assert(sm < c->cfg.nsms);
    assert(kind <= WMI_CK_ATOM);
    assert(nl >= 1 && nl <= 2 * WM_MAX_LANES);
    wm_cache_stats *st = site_stats(c, site);
    if (!st)
        return WM_ERR_NOMEM;
    if (kind != WMI_CK_ATOM) /* effective bandwidth: loads and stores */
        st->bytes += h[1] >> 32;
    st->l1_wavefronts += (nl + 3) / 4;
    int col = (h[0] & WMI_REC_COL) != 0;
    o->tlb = col ? wmi_ctlb_column(&c->tlb, sm, h[2], (int64_t)h[3], st)
                 : wmi_ctlb_access(&c->tlb, sm, h + 2, nl, st);
    o->served = kind == WMI_CK_ATOM ? 1 : 0;
    if (kind == WMI_CK_ST && store_repeats(&c->rep, h)) {
        store_again(st, &c->rep, o);
        return WM_OK;
    }
    c->rep.h = NULL;
    uint64_t buf[32];
    const uint64_t *lw = wmi_rec_lines(h, buf);
    level *lv1 = &c->l1[sm];
    unsigned sectors = 0, missed = 0, partial = 0;
    int l2only = kind == WMI_CK_ST || kind == WMI_CK_ATOM ||
                 kind == WM_CACHE_LD_CG || kind == WM_CACHE_LD_CV;
    way *s1[2 * WM_MAX_LANES], *s2[2 * WM_MAX_LANES];
    for (unsigned i = 0; i < nl; i++) {
        s2[i] = fetch_set(&c->l2, lw[i] >> 16);
        if (!l2only)
            s1[i] = fetch_set(lv1, lw[i] >> 16);
    }
    for (unsigned i = 0; i < nl; i++) {
        uint64_t li = lw[i] >> 16;
        unsigned mask = (unsigned)(lw[i] & 0xf);
        sectors += popc16(mask);
        if (kind == WMI_CK_ST || kind == WMI_CK_ATOM) {
            st->l1_st_sectors += popc16(mask);
            if (kind == WMI_CK_ST)
                partial += popc16(mask & ~(unsigned)(lw[i] >> 4 & 0xf));
            l2_write(c, st, s2[i], li, mask, kind == WMI_CK_ATOM);
            if (kind == WMI_CK_ATOM)
                missed += popc16(mask);
            continue;
        }
        st->l1_ld_sectors += popc16(mask);
        unsigned miss = mask, n = 0;
        int l1 = kind != WM_CACHE_LD_CG && kind != WM_CACHE_LD_CV;
        int ef = kind == WM_CACHE_LD_EVICT_FIRST;
        way *s = NULL, *w = NULL;
        if (l1) {
            s = s1[i];
            int at = find(s, lv1->ways, li, &n);
            if (at >= 0) {
                unsigned hit = KEY_VALID(s[at]) & mask;
                st->l1_ld_hits += popc16(hit);
                miss = mask & ~hit;
                w = ef ? &s[at] : to_front(s, (unsigned)at);
            }
        }
        if (!miss)
            continue;
        st->l2_rd_requests++;
        missed += popc16(miss);
        unsigned dram =
            l2_read(c, st, s2[i], li, miss, kind == WM_CACHE_LD_CV, ef);
        int lvl = dram ? 2 : 1;
        if (lvl > o->served)
            o->served = lvl;
        if (!l1 || kind == WM_CACHE_LD_NO_ALLOCATE)
            continue;
        if (!w) {
            /* L1 is write-through: its lines are never dirty */
            way old;
            w = insert(s, lv1->ways, n, (li + 1) << 8, ef, &old);
        }
        set_bits(w, miss, 0);
    }
    st->l2_wr_partial += partial;
    unsigned data = (sectors + 3) / 4, tag = (nl + 3) / 4;
    st->l1_data_wavefronts += data;
    o->pipe = data > tag ? data : tag;
    o->sectors = sectors;
    o->missed = missed;
    /* a store that pushed none of its own lines out: the same store next
     * repeats it */
    if (kind == WMI_CK_ST && sets_hold(s2, nl, c->l2.ways))
        c->rep = (store_rep){h, sectors, partial};
    return WM_OK;
}

/* Access h of CTA k (on SM sm): the model, then the time terms. */
static wm_status step(wm_cache *c, size_t k, unsigned sm, const uint64_t *h)
{
    unsigned kind = (unsigned)(h[0] >> 56) & 0x7;
    unsigned wp = (unsigned)(h[0] >> 32) & 63;
    if (!wmi_ctime_interval(&c->tm, c->cfg.gpu, k, (unsigned)h[1]))
        return WM_ERR_NOMEM;
    if (kind == WMI_CK_SHARED) {
        c->shared_recorded += h[1] >> 32;
        wmi_ctime_pipe(&c->tm, k, (double)(h[1] >> 32));
        return WM_OK;
    }
    acc_out o;
    wm_status st = do_access(c, sm, h, &o);
    if (st != WM_OK)
        return st;
    wmi_ctime_pipe(&c->tm, k, o.pipe);
    if (kind != WMI_CK_ST) {
        wmi_ctime_load(&c->tm, c->cfg.gpu, k, wp, o.served, o.tlb,
                       (uint64_t)o.sectors * 32, (uint64_t)o.missed * 32,
                       kind == WMI_CK_ATOM || (h[0] >> 60 & 1));
    }
    return WM_OK;
}

/* Fetch the L2 (and, for a load that allocates, L1) sets of the first
 * four lines of turn a, some turns before it is played: an access of one
 * or two lines (a coalesced warp) has no lookups of its own to overlap
 * their waits with. */
static void fetch_ahead(const wm_cache *c, const turn *a)
{
    const uint64_t *h = c->pending.w + a->p;
    unsigned nl = (unsigned)(h[0] >> 48) & 0xff;
    unsigned kind = (unsigned)(h[0] >> 56) & 0x7;
    if (kind == WMI_CK_SHARED)
        return;
    int l1 = kind == WM_CACHE_LD_CA || kind == WM_CACHE_LD_EVICT_FIRST ||
             kind == WM_CACHE_LD_NO_ALLOCATE;
    const level *lv1 = &c->l1[a->sm];
    for (unsigned i = 0; i < nl && i < 4; i++) {
        uint64_t li = (h[0] & WMI_REC_COL)
                          ? (h[2] + i * h[3]) >> LINE_SHIFT << 16 >> 16
                          : h[2 + i] >> 16;
        fetch_set(&c->l2, li);
        if (l1)
            fetch_set(lv1, li);
    }
}

/* Replay the n accesses of c->seq, each one's sets fetched AHEAD turns
 * before it. */
static wm_status play(wm_cache *c, size_t n)
{
    enum { AHEAD = 8 };
    for (size_t i = 0; i < n && i < AHEAD; i++)
        fetch_ahead(c, &c->seq[i]);
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n)
            fetch_ahead(c, &c->seq[i + AHEAD]);
        const turn *a = &c->seq[i];
        wm_status st = step(c, a->k, a->sm, c->pending.w + a->p);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}

/* Replay the wave in rounds: every SM in turn, its CTAs in turn, their
 * warps in turn, each warp an access (or, in barrier order, the rest of
 * its interval); a CTA whose warps all wait at a barrier passes it.  The
 * order depends on the trace alone, so the turns are taken first, a
 * window of them at a time (c->seq), and then played. */
static wm_status rounds(wm_cache *c, size_t ncta, size_t nw,
                        const size_t *start, size_t *cur, unsigned *ival,
                        uint32_t *hold)
{
    enum { WINDOW = 4096 };
    const wmi_ctrace *t = &c->pending;
    size_t left = start[ncta * nw], n = 0;
    int whole = c->cfg.order == WM_CACHE_ORDER_BARRIER;
    while (left > 0) {
        for (size_t k = 0; k < ncta; k++) {
            int issued = 0;
            unsigned next = UINT32_MAX, sm = (unsigned)(k % c->cfg.nsms);
            for (size_t wp = 0; wp < nw; wp++) {
                size_t *q = &cur[k * nw + wp], e = start[k * nw + wp + 1];
                if (hold[k * nw + wp]) { /* a turn of a merged record */
                    hold[k * nw + wp]--;
                    issued = 1;
                    continue;
                }
                while (*q < e) {
                    size_t p = c->acc[*q];
                    unsigned iv = (unsigned)t->w[p + 1];
                    if (iv > ival[k]) {
                        if (iv < next)
                            next = iv;
                        break;
                    }
                    if (!wmi_grow((void **)&c->seq, &c->capseq, n + 1,
                                  sizeof *c->seq, WINDOW))
                        return WM_ERR_NOMEM;
                    c->seq[n++] = (turn){p, k, sm};
                    (*q)++;
                    left--;
                    issued = 1;
                    if (!whole) {
                        /* a shared record's other accesses: its warp's
                         * next turns */
                        if ((t->w[p] >> 56 & 0x7) == WMI_CK_SHARED)
                            hold[k * nw + wp] = (uint32_t)t->w[p];
                        break;
                    }
                }
            }
            if (!issued && next != UINT32_MAX)
                ival[k] = next;
            if (n >= WINDOW) {
                wm_status st = play(c, n);
                if (st != WM_OK)
                    return st;
                n = 0;
            }
        }
    }
    return play(c, n);
}

/* Index the wave's ncta CTAs' records by (CTA, warp), warps below nw:
 * start[i] the first and start[i + 1] the end of slot i's run in c->acc,
 * cur[i] its first again.  0 on OOM. */
static int index_wave(wm_cache *c, size_t ncta, size_t nw, size_t *start,
                      size_t *cur)
{
    enum { MAXW = 64 };
    const wmi_ctrace *t = &c->pending;
    for (size_t k = 0; k < ncta; k++) {
        size_t end = k + 1 < ncta ? t->cta[k + 1] : t->n;
        for (size_t p = t->cta[k]; p < end; p += wmi_rec_len(t->w + p))
            start[k * nw + ((t->w[p] >> 32) & (MAXW - 1)) + 1]++;
    }
    for (size_t i = 1; i <= ncta * nw; i++)
        start[i] += start[i - 1];
    size_t nacc = start[ncta * nw];
    if (!wmi_grow((void **)&c->acc, &c->capacc, nacc ? nacc : 1,
                  sizeof *c->acc, 256))
        return 0;
    memcpy(cur, start, ncta * nw * sizeof *cur);
    for (size_t k = 0; k < ncta; k++) {
        size_t end = k + 1 < ncta ? t->cta[k + 1] : t->n;
        for (size_t p = t->cta[k]; p < end; p += wmi_rec_len(t->w + p))
            c->acc[cur[k * nw + ((t->w[p] >> 32) & (MAXW - 1))]++] = p;
    }
    memcpy(cur, start, ncta * nw * sizeof *cur);
    return 1;
}

/* Replay the collected wave and empty it. */
static wm_status replay(wm_cache *c)
{
    wmi_ctrace *t = &c->pending;
    size_t ncta = t->ncta;
    assert(ncta <= c->wave);
    if (ncta == 0)
        return WM_OK;
    size_t nw = t->nw ? t->nw : 1; /* warps per CTA, at most */
    size_t *start = calloc(ncta * nw + 1, sizeof *start);
    size_t *cur = calloc(ncta * nw, sizeof *cur);
    unsigned *ival = calloc(ncta, sizeof *ival);
    uint32_t *hold = calloc(ncta * nw, sizeof *hold);
    wm_status st = WM_ERR_NOMEM;
    if (start && cur && ival && hold && index_wave(c, ncta, nw, start, cur) &&
        wmi_ctime_wave(&c->tm, ncta, (unsigned)nw)) {
        st = rounds(c, ncta, nw, start, cur, ival, hold);
        if (st == WM_OK && !wmi_ctime_wave_end(&c->tm, c->cfg.gpu))
            st = WM_ERR_NOMEM;
    }
    free(start);
    free(cur);
    free(ival);
    free(hold);
    c->rep.h = NULL; /* in the trace, which the next wave overwrites */
    t->n = t->ncta = 0;
    t->nw = 0;
    t->last = 0;
    return st;
}

/* ---- public API ----------------------------------------------------------- */

wm_cache *wm_cache_new(const wm_cache_config *cfg)
{
    if (!cfg || !cfg->gpu || cfg->nsms == 0 || cfg->ctas_per_sm == 0 ||
        cfg->line_bytes != 128 || cfg->sector_bytes != 32 ||
        cfg->l1_bytes < 128 || cfg->l2_bytes < 128)
        return NULL;
    wm_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->cfg = *cfg;
    c->wave = (size_t)cfg->nsms * cfg->ctas_per_sm;
    c->l1 = calloc(cfg->nsms, sizeof *c->l1);
    int ok = c->l1 && levels_init(c) && wmi_ctime_init(&c->tm, cfg->nsms) &&
             wmi_ctlb_init(&c->tlb, cfg->gpu, cfg->nsms);
    c->tm.cap = (double)cfg->gpu->mshr_sectors * cfg->sector_bytes;
    if (!ok) {
        wm_cache_free(c);
        return NULL;
    }
    return c;
}

void wm_cache_free(wm_cache *c)
{
    if (!c)
        return;
    free(c->l1);
    wmi_big_free(&c->tags);
    wmi_ctrace_free(&c->pending);
    free(c->site);
    free(c->acc);
    free(c->seq);
    wmi_ctime_free(&c->tm);
    wmi_ctlb_free(&c->tlb);
    free(c);
}

const wm_cache_config *wm_cache_config_of(const wm_cache *c)
{
    return c ? &c->cfg : NULL;
}

wm_status wm_cache_cta(wm_cache *c)
{
    if (!c || c->finished)
        return WM_ERR_ARG;
    if (c->pending.ncta == c->wave) {
        wm_status st = replay(c);
        if (st != WM_OK)
            return st;
    }
    return wmi_ctrace_cta(&c->pending);
}

wm_status wm_cache_add(wm_cache *c, unsigned warp, unsigned interval,
                       const wm_access *a, wm_cache_ld ld)
{
    if (!c || !a || c->finished || c->pending.ncta == 0 || warp >= 64 ||
        (unsigned)ld > WM_CACHE_LD_CV)
        return WM_ERR_ARG;
    static const wm_arch plain = {"cache", 0, 64, 32, 128, 32, 4, 0};
    if (a->mask) {
        wm_status st = wmi_access_check(&plain, a, NULL);
        if (st != WM_OK)
            return st;
    }
    c->pending.warp = warp;
    c->pending.interval = interval;
    return wmi_ctrace_add(&c->pending, a, NULL, ld);
}

wm_status wmi_cache_add_shared(wm_cache *c, unsigned warp, unsigned interval,
                               uint64_t n)
{
    if (!c || c->finished || c->pending.ncta == 0 || warp >= 64)
        return WM_ERR_ARG;
    c->pending.warp = warp;
    c->pending.interval = interval;
    return wmi_ctrace_shared(&c->pending, n);
}

wm_status wmi_cache_feed(wm_cache *c, const wmi_ctrace *t)
{
    /* shared wavefronts travel as records of t */
    for (size_t k = 0; k < t->ncta; k++) {
        wm_status st = wm_cache_cta(c);
        if (st != WM_OK)
            return st;
        size_t lo = t->cta[k], hi = k + 1 < t->ncta ? t->cta[k + 1] : t->n;
        wmi_ctrace *p = &c->pending;
        if (hi == lo)
            continue; /* a CTA without global accesses (t->w may be NULL) */
        if (!wmi_grow((void **)&p->w, &p->cap, p->n + (hi - lo), sizeof *p->w,
                      256))
            return WM_ERR_NOMEM;
        memcpy(p->w + p->n, t->w + lo, (hi - lo) * sizeof *p->w);
        p->n += hi - lo;
        p->last = 0;
        if (t->nw > p->nw)
            p->nw = t->nw;
    }
    return WM_OK;
}

wm_status wm_cache_finish(wm_cache *c)
{
    if (!c || c->finished)
        return WM_ERR_ARG;
    wm_status st = replay(c);
    if (st != WM_OK)
        return st;
    size_t n = (size_t)c->l2.nsets * c->l2.ways;
    for (size_t i = 0; i < n; i++) {
        c->flush_wr += popc16(KEY_DIRTY(c->l2.w[i]));
        c->l2.w[i] &= ~(uint64_t)0xf0;
    }
    c->finished = 1;
    return WM_OK;
}

void wm_cache_add_shared_wavefronts(wm_cache *c, uint64_t n)
{
    if (c)
        c->shared_wavefronts += n;
}

static void stats_add(wm_cache_stats *d, const wm_cache_stats *s)
{
    d->l1_ld_sectors += s->l1_ld_sectors;
    d->l1_ld_hits += s->l1_ld_hits;
    d->l1_st_sectors += s->l1_st_sectors;
    d->l1_wavefronts += s->l1_wavefronts;
    d->l2_rd_requests += s->l2_rd_requests;
    d->l2_rd_sectors += s->l2_rd_sectors;
    d->l2_rd_hits += s->l2_rd_hits;
    d->l2_wr_sectors += s->l2_wr_sectors;
    d->l2_wr_hits += s->l2_wr_hits;
    d->dram_rd_sectors += s->dram_rd_sectors;
    d->dram_wr_sectors += s->dram_wr_sectors;
    d->bytes += s->bytes;
    d->l2_wr_partial += s->l2_wr_partial;
    d->l1_data_wavefronts += s->l1_data_wavefronts;
    d->tlb1_misses += s->tlb1_misses;
    d->tlb2_misses += s->tlb2_misses;
}

void wm_cache_totals(const wm_cache *c, wm_cache_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!c)
        return;
    for (size_t i = 0; i < c->nsite; i++)
        stats_add(out, &c->site[i]);
    out->dram_wr_sectors += c->flush_wr;
}

static int site_used(const wm_cache_stats *s)
{
    return s->l1_ld_sectors || s->l1_st_sectors;
}

size_t wm_cache_nsites(const wm_cache *c)
{
    size_t n = 0;
    for (size_t i = 0; c && i < c->nsite; i++)
        n += (size_t)site_used(&c->site[i]);
    return n;
}

int wm_cache_site(const wm_cache *c, size_t i, uint32_t *site,
                  wm_cache_stats *out)
{
    for (size_t k = 0; c && k < c->nsite; k++) {
        if (!site_used(&c->site[k]) || i-- != 0)
            continue;
        if (site)
            *site = (uint32_t)k;
        if (out)
            *out = c->site[k];
        return 1;
    }
    return 0;
}

/* The SM whose latency and pipe cycles add up to the most. */
static unsigned busiest_sm(const wm_cache *c)
{
    unsigned b = 0;
    for (unsigned i = 1; i < c->tm.nsms; i++)
        if (c->tm.sm_lat[i] + c->tm.sm_pipe[i] >
            c->tm.sm_lat[b] + c->tm.sm_pipe[b])
            b = i;
    return b;
}

void wm_cache_predict(const wm_cache *c, wm_cache_time *o)
{
    memset(o, 0, sizeof *o);
    o->bound = "DRAM";
    if (!c)
        return;
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    const wm_gpu *g = c->cfg.gpu;
    double sb = (double)c->cfg.sector_bytes, f = g->clock_hz;
    double dram = (double)(t.dram_rd_sectors + t.dram_wr_sectors) * sb;
    /* a partly written sector costs the L2 a read-modify-write */
    double l2 = (double)(t.l2_rd_sectors + t.l2_wr_sectors + t.l2_wr_partial) *
                sb;
    /* The peak: what keeps a copy below it is the latency term (a
       measured copy already contains that latency) */
    double rate = g->dram_peak > 0 ? g->dram_peak : g->dram_meas;
    o->dram_s = rate > 0 ? dram / rate : 0;
    o->l2_s = g->l2_bw > 0 ? l2 / g->l2_bw : 0;
    o->nterms_missing = (unsigned)(g->l2_bw <= 0) +
                        (unsigned)(g->lat_dram <= 0) + !wmi_cache_has_tlb(g);
    unsigned b = busiest_sm(c);
    o->lat_s = c->tm.sm_lat[b] / f;
    /* wavefronts the API gave without an SM are spread evenly */
    o->l1_s = (c->tm.sm_pipe[b] +
               (double)c->shared_wavefronts / (double)c->cfg.nsms) / f;
    double mem = o->dram_s > o->l2_s ? o->dram_s : o->l2_s;
    o->time_s = o->lat_s + o->l1_s + mem;
    double big = o->dram_s;
    if (o->l2_s > big)
        big = o->l2_s, o->bound = "L2";
    if (o->l1_s > big)
        big = o->l1_s, o->bound = "L1";
    if (o->lat_s > big)
        big = o->lat_s, o->bound = "latency";
    /* the what-if: the time with the bound's term gone (for DRAM or L2,
       the other of the two takes its place) */
    double other = o->dram_s > o->l2_s ? o->l2_s : o->dram_s;
    o->whatif_s = o->time_s - big + (big == mem ? other : 0);
    if (c->tm.groups) {
        o->inflight_sm = (double)c->tm.group_bytes / (double)c->tm.groups *
                         c->tm.warps_cta * wmi_cache_resident(c);
    }
    if (c->tm.ask_rounds > 0)
        o->inflight_ask = c->tm.ask_sum / c->tm.ask_rounds;
    o->inflight_cap = c->tm.cap;
    o->inflight_need = g->dram_peak / c->cfg.nsms / f * g->lat_dram;
    if (o->time_s > 0) {
        o->eff_bw = (double)t.bytes / o->time_s;
        o->dram_bw = dram / o->time_s;
    }
}

int wmi_cache_has_tlb(const wm_gpu *g)
{
    return g->tlb1_entries && g->tlb2_entries && g->lat_tlb1 > 0;
}

uint64_t wmi_cache_tlb_groups(const wm_cache *c)
{
    return c->tm.tlb_groups;
}

unsigned wmi_cache_warps(const wm_cache *c)
{
    return c->tm.warps_cta;
}

unsigned wmi_cache_resident(const wm_cache *c)
{
    uint64_t per = (c->tm.ctas + c->cfg.nsms - 1) / c->cfg.nsms;
    return per < c->cfg.ctas_per_sm ? (unsigned)per : c->cfg.ctas_per_sm;
}

size_t wm_cache_nintervals(const wm_cache *c)
{
    return c ? c->tm.niv : 0;
}

int wm_cache_interval(const wm_cache *c, size_t i, double *lat_s,
                      double *l1_s)
{
    if (!c || i >= c->tm.niv)
        return 0;
    double d = (double)c->cfg.nsms * c->cfg.gpu->clock_hz;
    if (lat_s)
        *lat_s = c->tm.iv[i].lat / d;
    if (l1_s)
        *l1_s = c->tm.iv[i].pipe / d;
    return 1;
}

/* ---- metrics ---------------------------------------------------------- */

/* name, is a count, unit (Nsight Compute base units; the warpmem__
   bandwidths have none in ncu) */
#define CACHE_METRICS(X)                                                         \
    X("l1tex__t_sector_hit_rate.pct", 0, "%")                                    \
    X("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 1, "sector")  \
    X("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", 1, "sector") \
    X("lts__t_requests_srcunit_tex_op_read.sum", 1, "request")                   \
    X("lts__t_sectors_srcunit_tex_op_read.sum", 1, "sector")                     \
    X("lts__t_sectors_srcunit_tex_op_write.sum", 1, "sector")                    \
    X("lts__t_sector_op_read_hit_rate.pct", 0, "%")                              \
    X("lts__t_sector_op_write_hit_rate.pct", 0, "%")                             \
    X("lts__t_sector_hit_rate.pct", 0, "%")                                      \
    X("dram__bytes_read.sum", 1, "byte")                                         \
    X("dram__bytes_write.sum", 1, "byte")                                        \
    X("gpu__time_duration.sum", 0, "nsecond")                                    \
    X("warpmem__effective_bandwidth.gbps", 0, "Gbyte/second")                    \
    X("warpmem__dram_bandwidth.gbps", 0, "Gbyte/second")                    \
    X("warpmem__time_latency.ns", 0, "nsecond")                             \
    X("warpmem__time_l1.ns", 0, "nsecond")                                  \
    X("warpmem__time_dram.ns", 0, "nsecond")                                \
    X("warpmem__time_l2.ns", 0, "nsecond")                                  \
    X("warpmem__bound.code", 0, "")                                          \
    X("warpmem__inflight_per_sm.avg", 0, "byte")                             \
    X("warpmem__inflight_needed_per_sm.avg", 0, "byte")                      \
    X("warpmem__tlb_l1_misses.sum", 1, "")                                   \
    X("warpmem__tlb_l2_misses.sum", 1, "")                                   \
    X("warpmem__inflight_asked_per_sm.avg", 0, "byte")                       \
    X("warpmem__miss_slots_per_sm.avg", 0, "byte")

static const char *const metric_names[] = {
#define X(n, count, unit) n,
    CACHE_METRICS(X)
#undef X
};

static const char *const metric_units[] = {
#define X(n, count, unit) unit,
    CACHE_METRICS(X)
#undef X
};

size_t wm_cache_metric_count(void)
{
    return WM_ARRAY_LEN(metric_names);
}

const char *wm_cache_metric_name(size_t i)
{
    return i < WM_ARRAY_LEN(metric_names) ? metric_names[i] : NULL;
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

const char *wm_cache_metric_unit(size_t i)
{
    return i < WM_ARRAY_LEN(metric_units) ? metric_units[i] : "";
}

double wm_cache_metric_value(const wm_cache *c, size_t i)
{
    wm_cache_stats t;
    wm_cache_totals(c, &t);
    wm_cache_time tm;
    double sb = c ? (double)c->cfg.sector_bytes : 32.0;
    switch (i) {
    case 0: return pct(t.l1_ld_hits, t.l1_ld_sectors);
    case 1: return (double)t.l1_ld_hits;
    case 2: return (double)(t.l1_ld_sectors - t.l1_ld_hits);
    case 3: return (double)t.l2_rd_requests;
    case 4: return (double)t.l2_rd_sectors;
    case 5: return (double)t.l2_wr_sectors;
    case 6: return pct(t.l2_rd_hits, t.l2_rd_sectors);
    case 7: return pct(t.l2_wr_hits, t.l2_wr_sectors);
    case 8:
        return pct(t.l2_rd_hits + t.l2_wr_hits,
                   t.l2_rd_sectors + t.l2_wr_sectors);
    case 9: return (double)t.dram_rd_sectors * sb;
    case 10: return (double)t.dram_wr_sectors * sb;
    case 21: return (double)t.tlb1_misses;
    case 22: return (double)t.tlb2_misses;
    case 11: wm_cache_predict(c, &tm); return tm.time_s * 1e9; /* ns */
    case 12: wm_cache_predict(c, &tm); return tm.eff_bw / 1e9;
    case 13: wm_cache_predict(c, &tm); return tm.dram_bw / 1e9;
    default: break;
    }
    wm_cache_predict(c, &tm);
    switch (i) {
    case 14: return tm.lat_s * 1e9;
    case 15: return tm.l1_s * 1e9;
    case 16: return tm.dram_s * 1e9;
    case 17: return tm.l2_s * 1e9;
    case 18: /* 0 DRAM, 1 L2, 2 L1, 3 latency */
        return tm.bound[0] == 'D' ? 0 : tm.bound[0] == 'L' && tm.bound[1] == '2'
                                            ? 1
                                        : tm.bound[0] == 'L' ? 2 : 3;
    case 19: return tm.inflight_sm;
    case 20: return tm.inflight_need;
    case 23: return tm.inflight_ask;
    case 24: return tm.inflight_cap;
    default: return 0.0;
    }
}
