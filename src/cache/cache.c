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

/* The L2 and L1 sets of a turn's first lines, found when they were
 * fetched ahead (s1 only for a load that looks up L1). */
enum { AHEAD_LINES = 4 };
typedef struct ahead_sets {
    way *s2[AHEAD_LINES], *s1[AHEAD_LINES];
} ahead_sets;

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

/* ---- one cache level ----------------------------------------------------- */

/* The sets and ways of a level of bytes (0 when it holds no line); its
 * ways, nsets x ways, are the caller's to place. */
static size_t level_shape(level *lv, uint64_t bytes, unsigned ways)
{
    uint64_t lines = bytes >> WMI_LINE_SHIFT;
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

/* One warp access (header at h) on SM sm, into *o; pre: the sets of its
 * first lines, fetched ahead. */
static wm_status do_access(wm_cache *c, unsigned sm, const uint64_t *h,
                           const ahead_sets *pre, acc_out *o)
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
    /* the sets of the first lines were found when they were fetched */
    way *const *s1 = pre->s1, *const *s2 = pre->s2;
    way *b1[2 * WM_MAX_LANES], *b2[2 * WM_MAX_LANES];
    if (nl > AHEAD_LINES) {
        memcpy(b1, pre->s1, sizeof pre->s1);
        memcpy(b2, pre->s2, sizeof pre->s2);
        for (unsigned i = AHEAD_LINES; i < nl; i++) {
            b2[i] = fetch_set(&c->l2, lw[i] >> 16);
            b1[i] = l2only ? NULL : fetch_set(lv1, lw[i] >> 16);
        }
        s1 = b1;
        s2 = b2;
    }
#ifndef NDEBUG
    for (unsigned i = 0; i < nl && i < AHEAD_LINES; i++)
        assert(s2[i] == set_of(&c->l2, lw[i] >> 16) &&
               (l2only || s1[i] == set_of(lv1, lw[i] >> 16)));
#endif
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

/* Access h of CTA k (on SM sm), its first sets in pre: the model, then
 * the time terms. */
static wm_status step(wm_cache *c, size_t k, unsigned sm, const uint64_t *h,
                      const ahead_sets *pre)
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
    wm_status st = do_access(c, sm, h, pre, &o);
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
 * their waits with.  The sets go to *out for the turn's lookups. */
static void fetch_ahead(const wm_cache *c, const turn *a, ahead_sets *out)
{
    const uint64_t *h = c->pending.w + a->p;
    unsigned nl = (unsigned)(h[0] >> 48) & 0xff;
    unsigned kind = (unsigned)(h[0] >> 56) & 0x7;
    if (kind == WMI_CK_SHARED)
        return;
    int l1 = kind == WM_CACHE_LD_CA || kind == WM_CACHE_LD_EVICT_FIRST ||
             kind == WM_CACHE_LD_NO_ALLOCATE;
    const level *lv1 = &c->l1[a->sm];
    for (unsigned i = 0; i < nl && i < AHEAD_LINES; i++) {
        uint64_t li = wmi_rec_line(h, i);
        out->s2[i] = fetch_set(&c->l2, li);
        out->s1[i] = l1 ? fetch_set(lv1, li) : NULL;
    }
}

/* Replay the n accesses of c->seq, each one's sets fetched AHEAD turns
 * before it. */
static wm_status play(wm_cache *c, size_t n)
{
    enum { AHEAD = 8, RING = 16 }; /* RING > AHEAD, a power of two */
    ahead_sets sets[RING];
    for (size_t i = 0; i < n && i < AHEAD; i++)
        fetch_ahead(c, &c->seq[i], &sets[i]);
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n)
            fetch_ahead(c, &c->seq[i + AHEAD], &sets[(i + AHEAD) % RING]);
        const turn *a = &c->seq[i];
        wm_status st =
            step(c, a->k, a->sm, c->pending.w + a->p, &sets[i % RING]);
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
