/*
 * ptx_check_gwords.c -- the global words a unit (a CTA, or a cluster's
 * CTAs) touched, for `warpmem run --check race` (ptx_check_int.h states
 * the model), and their fold into the launch-wide shadow of
 * ptx_check_grid.c when the unit ends.
 *
 * A word's entry (its last write and two reads in the unit) lives in ge[],
 * in the order the unit first touched the words; a chunk of 32 words (128
 * aligned bytes) maps its words to their entries, so a warp's contiguous
 * access is one or two chunk lookups, and the fold goes chunk by chunk:
 * each chunk's words are compared with the earlier units' records of
 * the same chunk, then their records replace those.
 *
 * The order of the reports: the fold's hazards come in the slot order of
 * the per-word hash table the unit's words were kept in before (gslot:
 * groups of 16 consecutive words scattered over a table of gsim slots,
 * doubled whenever half full, filled in first-touch order), which decides
 * which occurrence of a hazard is reported first.  Most units report
 * nothing: a first pass tells whether any word would (fold_reports);
 * only then is that table rebuilt from the first-touch order and walked
 * (fold_in_order).  The records then replace the old ones chunk by chunk,
 * which gives the same shadow in any order (each word's update reads only
 * its own records).
 */
#include "ptx_check_state.h"

#include <stdlib.h>
#include <string.h>

#define GC_START 64u    /* chunks */
#define GE_START 1024u  /* words */
#define GSIM_START 1024u

int wmi_gwords_new(wmi_check *k)
{
    k->gccap = GC_START;
    k->gc = calloc(k->gccap, sizeof *k->gc);
    k->gcl = calloc(k->gccap / 2, sizeof *k->gcl);
    k->gecap = GE_START;
    k->ge = malloc(k->gecap * sizeof *k->ge);
    k->gsim = GSIM_START;
    return k->gc && k->gcl && k->ge;
}

void wmi_gwords_free(wmi_check *k)
{
    free(k->gc);
    free(k->gcl);
    free(k->ge);
}

void wmi_gwords_begin(wmi_check *k)
{
    k->gcn = k->gen = 0;
    k->glast = NULL;
}

static inline uint32_t cslot(uint64_t key, uint32_t cap)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* Double the chunk table, keeping the unit's chunks; 0 when out of memory.
   (Chunks of older units count as empty: none is removed within a unit,
   so a probe never passes the slot its key was put in.) */
static int chunks_grow(wmi_check *k)
{
    uint32_t cap = k->gccap * 2;
    gchunk *nt = calloc(cap, sizeof *nt);
    uint32_t *list = malloc(cap / 2 * sizeof *list);
    if (!nt || !list) {
        free(nt);
        free(list);
        return 0;
    }
    for (uint32_t n = 0; n < k->gcn; n++) {
        const gchunk *c = &k->gc[k->gcl[n]];
        uint32_t s = cslot(c->key, cap);
        while (nt[s].cta == k->cta)
            s = (s + 1) & (cap - 1);
        nt[s] = *c;
        list[n] = s;
    }
    free(k->gc);
    free(k->gcl);
    k->gc = nt;
    k->gcl = list;
    k->gccap = cap;
    k->glast = NULL;
    return 1;
}

gchunk *wmi_gwords_chunk(wmi_check *k, uint64_t key)
{
    uint32_t s = cslot(key, k->gccap);
    for (;; s = (s + 1) & (k->gccap - 1)) {
        gchunk *c = &k->gc[s];
        if (c->cta != k->cta)
            break;
        if (c->key == key)
            return c;
    }
    if (2 * (k->gcn + 1) > k->gccap) {
        if (!chunks_grow(k)) {
            k->oom = 1;
            return NULL;
        }
        s = cslot(key, k->gccap); /* the key is not in the new table */
        while (k->gc[s].cta == k->cta)
            s = (s + 1) & (k->gccap - 1);
    }
    gchunk *c = &k->gc[s];
    c->key = key;
    c->cta = k->cta;
    c->live = 0;
    k->gcl[k->gcn++] = s;
    return c;
}

wmi_word *wmi_gwords_add(wmi_check *k, gchunk *c, uint64_t wa)
{
    if (k->gen == k->gecap) {
        gent *n = realloc(k->ge, (size_t)k->gecap * 2 * sizeof *n);
        if (!n) {
            k->oom = 1;
            return NULL;
        }
        k->ge = n;
        k->gecap *= 2;
    }
    gent *e = &k->ge[k->gen];
    e->key = wa + 1;
    memset(&e->w, 0, sizeof e->w);
    e->w.cta = k->cta;
    c->idx[wa & 31] = k->gen++;
    c->live |= 1u << (wa & 31);
    return &e->w;
}

/* ---- the fold ------------------------------------------------------------ */

static wmi_xrec to_xrec(const wmi_check *k, const rec *r)
{
    wmi_xrec x = {r->pc, k->cta, r->warp, r->rel, r->lane, r->bits, 0};
    return x;
}

/* Is an earlier unit's access p a race with this unit's r?  They share
   bytes, are not both strong (atomics, volatile flags), and no release
   and acquire order them. */
static int crosses(const wmi_check *k, const wmi_xrec *p, const rec *r)
{
    if (!p->cta || !(p->bits & r->bits & REC_BYTES))
        return 0;
    if ((p->bits & (REC_ATOMIC | REC_STRONG)) &&
        (r->bits & (REC_ATOMIC | REC_STRONG)))
        return 0;
    return !wmi_grid_ordered(k->grid, p->cta, p->rel, r->acq);
}

/* Report p against r (of a write or not, on the word at buffer offset
   off) when they race. */
static void cross(wmi_check *k, const wmi_xrec *p, const rec *r, int write,
                  wm_hazard_kind kind, long buf, uint64_t off)
{
    if (!crosses(k, p, r))
        return;
    rec prior = {p->pc, 0, p->warp, p->lane, p->bits, p->rel, 0};
    unsigned first[3];
    wmi_grid_ctaid(k->grid, p->cta, first);
    unsigned lo = 0;
    while (lo < 4 && !(r->bits >> lo & 1))
        lo++;
    cur x = {.pc = r->pc, .warp = r->warp, .clock = r->clock,
             .kind = write ? WMI_ACC_WRITE : WMI_ACC_READ, .size = 4 - lo,
             .lane = r->lane, .space = WM_SPACE_GLOBAL, .buf = buf,
             .addr = off + lo};
    if (r->bits & REC_ATOMIC)
        x.kind = WMI_ACC_ATOMIC;
    wmi_check_hazard(k, kind, &prior, kind != WM_HAZ_WAR, &x, first);
}

/* The launch-wide chunk of chunk c (allocated when make), its buffer, the
   chunk's byte offset in it and the words that lie in it; NULL when it is
   not tracked (or, make 0, holds nothing). */
static wmi_xchunk *xchunk_of(wmi_check *k, const gchunk *c, int make,
                             long *buf, uint64_t *off, uint32_t *valid)
{
    uint64_t a = (c->key - 1) * 128;
    uint32_t bi;
    *buf = wmi_check_gbuf(k, a, &bi);
    *off = a & WMI_WIN_MASK;
    return *buf < 0 ? NULL : wmi_grid_chunk(k->grid, bi, *off, make, valid);
}

/* Would the fold report anything (a race of any word of the unit with an
   earlier unit's access)?  The checks of fold_word, without reports. */
static int fold_reports(wmi_check *k)
{
    for (uint32_t n = 0; n < k->gcn; n++) {
        const gchunk *c = &k->gc[k->gcl[n]];
        long buf;
        uint64_t off;
        uint32_t valid;
        const wmi_xchunk *x = xchunk_of(k, c, 0, &buf, &off, &valid);
        if (!x)
            continue;
        int xw = wmi_xchunk_writes(x), xr = wmi_xchunk_reads(x);
        if (!xw && !xr)
            continue;
        for (uint32_t m = c->live & valid; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            const wmi_word *e = &k->ge[c->idx[i]].w;
            wmi_xrec pw = wmi_xchunk_get(x, 0, i);
            if (e->w.bits) {
                wmi_xrec pr = wmi_xchunk_get(x, 1, i);
                if (crosses(k, &pw, &e->w) || crosses(k, &pr, &e->w))
                    return 1;
            }
            for (int j = 0; j < 2; j++)
                if (e->r[j].bits && crosses(k, &pw, &e->r[j]))
                    return 1;
        }
    }
    return 0;
}

/* Word n of ge[] against the earlier units' records of it: its last write
   against their last write and read, its reads against their write. */
static void fold_word(wmi_check *k, uint32_t n)
{
    const gent *g = &k->ge[n];
    const wmi_word *e = &g->w;
    uint64_t a = (g->key - 1) * 4;
    uint32_t bi, valid;
    long buf = wmi_check_gbuf(k, a, &bi);
    uint64_t off = a & WMI_WIN_MASK;
    unsigned i = (unsigned)(off / 4 % 32);
    const wmi_xchunk *x =
        buf < 0 ? NULL : wmi_grid_chunk(k->grid, bi, off & ~127ull, 0, &valid);
    if (!x || !(valid >> i & 1))
        return;
    wmi_xrec pw = wmi_xchunk_get(x, 0, i), pr = wmi_xchunk_get(x, 1, i);
    if (e->w.bits) {
        cross(k, &pw, &e->w, 1, WM_HAZ_WAW, buf, off);
        cross(k, &pr, &e->w, 1, WM_HAZ_WAR, buf, off);
    }
    for (int j = 0; j < 2; j++)
        if (e->r[j].bits)
            cross(k, &pw, &e->r[j], 0, WM_HAZ_RAW, buf, off);
}

/* The slot of word key in the per-word table of cap slots: groups of 16
   consecutive words keep their order, groups are scattered. */
static inline uint32_t gslot(uint64_t key, uint32_t cap)
{
    uint64_t g = ((key >> 4) * 0x9e3779b97f4a7c15ull) >> 32;
    return (uint32_t)((g << 4) | (key & 15)) & (cap - 1);
}

/* Put entry n (its key) into table t of cap slots (1 + entry, 0 empty). */
static void sim_put(const wmi_check *k, uint32_t *t, uint32_t cap,
                    uint32_t n)
{
    uint32_t s = gslot(k->ge[n].key, cap);
    while (t[s])
        s = (s + 1) & (cap - 1);
    t[s] = n + 1;
}

/* The fold's reports, word by word in the slot order of the per-word
   table (see the file's header), which started the unit with cap slots. */
static void fold_in_order(wmi_check *k, uint32_t cap)
{
    uint32_t *t = calloc(cap, sizeof *t);
    for (uint32_t n = 0; t && n < k->gen; n++) {
        if (2 * (n + 1) > cap) { /* doubled, refilled in slot order */
            uint32_t *nt = calloc((size_t)cap * 2, sizeof *nt);
            for (uint32_t s = 0; nt && s < cap; s++)
                if (t[s])
                    sim_put(k, nt, cap * 2, t[s] - 1);
            free(t);
            t = nt;
            cap *= 2;
            if (!t)
                break;
        }
        sim_put(k, t, cap, n);
    }
    if (!t) {
        k->oom = 1;
        return;
    }
    for (uint32_t s = 0; s < cap; s++)
        if (t[s])
            fold_word(k, t[s] - 1);
    free(t);
}

/* The unit's records replace the earlier ones, chunk by chunk: the last
   write, and the first read slot (what the per-word fold kept). */
static void fold_chunks(wmi_check *k)
{
    for (uint32_t n = 0; n < k->gcn; n++) {
        const gchunk *c = &k->gc[k->gcl[n]];
        long buf;
        uint64_t off;
        uint32_t valid, wm = 0, rm = 0;
        wmi_xchunk *x = xchunk_of(k, c, 1, &buf, &off, &valid);
        if (!x)
            continue;
        wmi_xrec w[32], r[32];
        for (uint32_t m = c->live & valid; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            const wmi_word *e = &k->ge[c->idx[i]].w;
            if (e->w.bits) {
                w[i] = to_xrec(k, &e->w);
                wm |= 1u << i;
            }
            if (e->r[0].bits) {
                r[i] = to_xrec(k, &e->r[0]);
                rm |= 1u << i;
            }
        }
        if (!wmi_xchunk_put(x, wm, w, rm, r))
            k->oom = 1;
    }
}

void wmi_gwords_fold(wmi_check *k)
{
    if (!k->grid || !k->gc)
        return;
    uint32_t cap = k->gsim; /* the per-word table's size at the start */
    while (2 * (uint64_t)k->gen > k->gsim)
        k->gsim *= 2;
    if (k->slow || fold_reports(k))
        fold_in_order(k, cap);
    fold_chunks(k);
}
