/*
 * cache_trace.c -- the hierarchy model's recorder: each warp access of a
 * run becomes a record of the trace (cache_int.h gives its words), its
 * lines made in one pass for the common shapes (rows, strided and rising
 * lanes, broadcasts; columns as their first address and stride), a warp's
 * consecutive shared accesses one record; and a cluster's CTAs split
 * apart.  cache.c replays the trace.
 */
#include "cache_int.h"

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
static void sector_bytes(uint16_t (*fill)[WMI_SPL], unsigned i, uint64_t s,
                         uint64_t lo, uint64_t hi)
{
    uint64_t a = s << WMI_SECTOR_SHIFT, b = a + (1u << WMI_SECTOR_SHIFT) - 1;
    uint64_t n = (hi < b ? hi : b) - (lo > a ? lo : a) + 1;
    uint16_t *f = &fill[i][s & (WMI_SPL - 1)];
    *f = (uint16_t)(*f + n > 0xffff ? 0xffff : *f + n);
}

/* Each active lane of a writes less than a sector, within one sector,
 * and the lanes' sectors rise: no sector is written whole (a strided
 * store), so its bytes need no counting. */
static int lone_sectors(const wm_access *a)
{
    if (a->size >= (1u << WMI_SECTOR_SHIFT))
        return 0;
    uint64_t prev = 0;
    for (uint64_t m = a->mask; m; m &= m - 1) {
        uint64_t lo = a->addr[__builtin_ctzll(m)];
        uint64_t s = lo >> WMI_SECTOR_SHIFT;
        if ((lo + (a->size ? a->size - 1 : 0)) >> WMI_SECTOR_SHIFT != s ||
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
    uint16_t fill[2 * WM_MAX_LANES][WMI_SPL]; /* rows set as lines appear */
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
    L->line[i] |= (uint64_t)1 << (s & (WMI_SPL - 1));
    if (L->st)
        sector_bytes(L->fill, i, s, lo, hi);
}

/* No active lane of a crosses a sector boundary (elements of up to a
 * sector, aligned: the common case), tested over every lane at once. */
static int in_one_sector(const wm_access *a)
{
    uint64_t last = a->size ? a->size - 1 : 0, cross = 0;
    if (last >= (1u << WMI_SECTOR_SHIFT))
        return 0;
    unsigned n = 64 - (unsigned)__builtin_clzll(a->mask);
    for (unsigned l = 0; l < n; l++) {
        uint64_t lo = a->addr[l];
        uint64_t x = ((lo + last) ^ lo) >> WMI_SECTOR_SHIFT;
        cross |= (a->mask >> l & 1) ? x : 0;
    }
    return cross == 0;
}

/* The bits, within line li, of the sectors lo..hi - 1 (none: 0). */
static inline uint64_t sector_span(uint64_t lo, uint64_t hi, uint64_t li)
{
    uint64_t b = li << 2, e = b + WMI_SPL;
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
    for (uint64_t li = a0 >> WMI_LINE_SHIFT; li < end >> WMI_LINE_SHIFT; li++)
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
    if (((a0 | end) & ((1u << WMI_LINE_SHIFT) - 1)) == 0)
        return whole_lines(a0, end, st, line);
    uint64_t s0 = a0 >> WMI_SECTOR_SHIFT, s1 = ((end - 1) >> WMI_SECTOR_SHIFT) + 1;
    uint64_t w0 = (a0 + (1u << WMI_SECTOR_SHIFT) - 1) >> WMI_SECTOR_SHIFT,
             w1 = st ? end >> WMI_SECTOR_SHIFT : 0;
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
        if (w->st && w->fill >= (1u << WMI_SECTOR_SHIFT))
            w->word |= (uint64_t)16 << (w->cs & (WMI_SPL - 1));
        if (s >> 2 != w->cs >> 2) {
            w->line[w->nl++] = w->word;
            w->word = (s >> 2) << 16;
        }
        w->cs = s;
        w->fill = 0;
    }
    w->word |= (uint64_t)1 << (s & (WMI_SPL - 1));
    w->fill += size;
}

/* The last line's word; returns the number of line words. */
static inline unsigned walk_end(sector_walk *w)
{
    if (w->st && w->fill >= (1u << WMI_SECTOR_SHIFT))
        w->word |= (uint64_t)16 << (w->cs & (WMI_SPL - 1));
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
    if (last >= (1u << WMI_SECTOR_SHIFT))
        return 0;
    sector_walk w = walk_start(
        line, a->addr[__builtin_ctzll(a->mask)] >> WMI_SECTOR_SHIFT, st);
    for (uint64_t m = a->mask; m; m &= m - 1) {
        uint64_t lo = a->addr[__builtin_ctzll(m)], s = lo >> WMI_SECTOR_SHIFT;
        if ((lo + last) >> WMI_SECTOR_SHIFT != s || s < w.cs)
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
        line[l] = (a >> WMI_LINE_SHIFT) << 16 |
                  (uint64_t)1 << ((a >> WMI_SECTOR_SHIFT) & (WMI_SPL - 1));
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
            add_sector(&L, lo >> WMI_SECTOR_SHIFT, lo, lo + last);
        }
    } else if (!L.nl) {
        for (uint64_t m = a->mask; m; m &= m - 1) {
            uint64_t lo = a->addr[__builtin_ctzll(m)], hi = lo + last;
            for (uint64_t s = lo >> WMI_SECTOR_SHIFT; s <= hi >> WMI_SECTOR_SHIFT;
                 s++)
                add_sector(&L, s, lo, hi);
        }
    }
    unsigned nl = L.nl;
    uint64_t *line = L.line;
    assert(nl >= 1);
    /* stores: bits 4..7 of a line word mark its fully written sectors */
    for (unsigned i = 0; L.st && i < nl; i++)
        for (unsigned q = 0; q < WMI_SPL; q++)
            if (L.fill[i][q] >= (1u << WMI_SECTOR_SHIFT))
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
    if (d == size && ((x0 | 32 * size) & ((1u << WMI_LINE_SHIFT) - 1)) == 0)
        return whole_lines(x0, x0 + 32 * size, st, line); /* (no call) */
    if (d == size)
        return row_lines(x0, x0 + 32 * size, st, line);
    uint64_t s = x0 >> WMI_SECTOR_SHIFT;
    if (d == 0) {
        line[0] = (s >> 2) << 16 | (uint64_t)(st ? 0x11 : 0x1) << (s & 3);
        return 1;
    }
    sector_walk w = walk_start(line, s, st);
    uint64_t a = x0;
    for (unsigned l = 0; l < 32; l++, a += d)
        walk_lane(&w, a >> WMI_SECTOR_SHIFT, size);
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
