/*
 * ptx_check_gwords.c -- the global words a unit (a CTA, or a cluster's
 * CTAs) touched, for `warpmem run --check race` (ptx_check_int.h states
 * the model), and their fold into the launch-wide shadow of
 * ptx_check_grid.c when the unit ends.
 *
 * A chunk of 32 words (128 aligned bytes) knows which of its words the
 * unit touched and where their entries (last write, two reads) are, so a
 * warp's contiguous access costs one or two chunk lookups.  A run of lanes
 * on words the unit had not touched gives them all one record but for the
 * lane (wmi_gwords_run): the chunk names them by that run and makes no
 * entry until an access touches one of them again (wmi_gwords_open), and
 * the fold takes them as a run too.  The fold goes chunk by chunk: each
 * chunk's words are compared with the earlier units' records of the
 * chunk, then their records replace those.
 *
 * The order of the reports: the fold's hazards come in the slot order of
 * the per-word hash table the unit's words were kept in before (gslot:
 * groups of 16 consecutive words scattered over a table of gsim slots,
 * doubled whenever half full, filled in first-touch order), which decides
 * which occurrence of a hazard is reported first.  Most units report
 * nothing: a first pass tells whether any word would (fold_reports); only
 * then is that table rebuilt from the first-touch order (gt[]) and walked
 * (fold_in_order).  The records then replace the old ones chunk by chunk,
 * which gives the same shadow in any order (each word's update reads only
 * its own records).
 */
#include "ptx_check_state.h"

#include <stdlib.h>
#include <string.h>

#define GC_START 64u    /* chunks */
#define GE_START 1024u  /* entries */
#define GT_START 256u   /* first touches */
#define GSIM_START 1024u

int wmi_gwords_new(wmi_check *k)
{
    k->gccap = GC_START;
    k->gc = calloc(k->gccap, sizeof *k->gc);
    k->gcl = calloc(k->gccap / 2, sizeof *k->gcl);
    k->gecap = GE_START;
    k->ge = malloc(k->gecap * sizeof *k->ge);
    k->gtcap = GT_START;
    k->gt = malloc(k->gtcap * sizeof *k->gt);
    k->gsim = GSIM_START;
    return k->gc && k->gcl && k->ge && k->gt;
}

void wmi_gwords_free(wmi_check *k)
{
    free(k->gc);
    free(k->gcl);
    free(k->ge);
    free(k->gt);
}

void wmi_gwords_begin(wmi_check *k)
{
    k->gcn = k->gen = k->gtn = k->gwords = 0;
    k->glast = NULL;
    memset(k->glane, 0, sizeof k->glane);
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
    memset(k->glane, 0, sizeof k->glane);
    return 1;
}

/* The slot of the unit's chunk of key, or of the empty one it would go
   in. */
static uint32_t chunk_slot(const wmi_check *k, uint64_t key)
{
    uint32_t s = cslot(key, k->gccap);
    while (k->gc[s].cta == k->cta && k->gc[s].key != key)
        s = (s + 1) & (k->gccap - 1);
    return s;
}

gchunk *wmi_gwords_chunk(wmi_check *k, uint64_t key)
{
    uint32_t s = chunk_slot(k, key);
    if (k->gc[s].cta == k->cta)
        return &k->gc[s];
    if (2 * (k->gcn + 1) > k->gccap) {
        if (!chunks_grow(k)) {
            k->oom = 1;
            return NULL;
        }
        s = chunk_slot(k, key); /* the key is not in the new table */
    }
    gchunk *c = &k->gc[s];
    c->key = key;
    c->cta = k->cta;
    c->live = c->ent = c->run[0] = c->run[1] = 0;
    k->gcl[k->gcn++] = s;
    return c;
}

/* Room for n more in an array p of *cap elements of size elem holding
   have; 0 when out of memory. */
static int room(wmi_check *k, void **p, uint32_t *cap, uint32_t have,
                uint32_t n, size_t elem)
{
    if (have + n <= *cap)
        return 1;
    uint32_t nc = *cap;
    while (nc < have + n)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q) {
        k->oom = 1;
        return 0;
    }
    *p = q;
    *cap = nc;
    return 1;
}

/* first_touch()'s list when it is full: twice the room; 0 when out of
   memory. */
static __attribute__((noinline)) int touches_grow(wmi_check *k)
{
    return room(k, (void **)&k->gt, &k->gtcap, k->gtn, 1, sizeof *k->gt);
}

/* Words wa .. wa + n - 1 are first touched now; 0 when out of memory. */
HOT int first_touch(wmi_check *k, uint64_t wa, uint32_t n)
{
    uint32_t t = k->gtn;
    gtouch *g = k->gt;
    k->gwords += n;
    if (t && g[t - 1].step == 1 && g[t - 1].wa + g[t - 1].n == wa) {
        g[t - 1].n += n;
        return 1;
    }
    if (t == k->gtcap) {
        if (!touches_grow(k))
            return 0;
        g = k->gt;
    }
    g[t].wa = wa;
    g[t].n = n;
    g[t].step = 1;
    k->gtn = t + 1;
    return 1;
}

/* A new entry for word i of chunk c, holding e (NULL: none of the unit's
   records yet); NULL when out of memory. */
static wmi_word *entry(wmi_check *k, gchunk *c, unsigned i, const wmi_word *e)
{
    if (!room(k, (void **)&k->ge, &k->gecap, k->gen, 1, sizeof *k->ge))
        return NULL;
    if (e) {
        k->ge[k->gen] = *e;
    } else {
        memset(&k->ge[k->gen], 0, sizeof *k->ge);
        k->ge[k->gen].cta = k->cta;
    }
    c->idx[i] = k->gen++;
    c->ent |= 1u << i;
    return &k->ge[c->idx[i]];
}

wmi_word *wmi_gwords_add(wmi_check *k, gchunk *c, uint64_t wa)
{
    unsigned i = (unsigned)(wa & 31);
    if (!first_touch(k, wa, 1))
        return NULL;
    c->live |= 1u << i;
    wmi_word *w = entry(k, c, i, NULL);
    if (!w)
        c->live &= ~(1u << i);
    return w;
}

/* Word i of chunk c, which run j names: the entry it would have. */
static wmi_word run_word(const wmi_check *k, const gchunk *c, int j,
                         unsigned i)
{
    wmi_word e;
    rec r = c->tpl[j];
    memset(&e, 0, sizeof e);
    e.cta = k->cta;
    if (c->wstep[j])
        r.warp = (uint16_t)(r.warp + i);
    else
        r.lane = (uint8_t)((int8_t)r.lane + (int)i);
    if (c->read[j]) {
        e.r[0] = r;
    } else {
        e.w = r;
        e.init = 0x0f;
    }
    return e;
}

wmi_word *wmi_gwords_open(wmi_check *k, gchunk *c, uint64_t wa)
{
    unsigned i = (unsigned)(wa & 31);
    int j = c->run[0] >> i & 1 ? 0 : 1;
    assert((c->run[j] >> i & 1) && !(c->ent >> i & 1));
    wmi_word e = run_word(k, c, j, i);
    c->run[j] &= ~(1u << i);
    return entry(k, c, i, &e);
}

/* The unit's record of word i of chunk c (live): its entry, or in *tmp
   the one its run stands for. */
static const wmi_word *word_at(const wmi_check *k, const gchunk *c,
                               unsigned i, wmi_word *tmp)
{
    if (c->ent >> i & 1)
        return &k->ge[c->idx[i]];
    *tmp = run_word(k, c, c->run[0] >> i & 1 ? 0 : 1, i);
    return tmp;
}

/* The run templates are compared and set field by field, with the lane
   (and warp) passed apart from the record: a record rewritten in a byte
   per lane and then read whole stalls the wide load until the byte store
   retires (about a sixth of a column store's checking time).
   Is u record t but for lane lane and warp t->warp + dwarp? */
static inline int rec_is(const rec *u, const rec *t, int lane, int dwarp)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* two 8-byte compares: (pc, clock), then (warp, lane, bits, rel,
       acq).  u, a chunk's template, was written long before; t is built
       from its fields, not read whole (it was just stored field by
       field: a wide load of it would wait for the stores) */
    uint64_t u0, u1;
    memcpy(&u0, u, 8);
    memcpy(&u1, (const char *)u + 8, 8);
    uint64_t t1 = (rec_hi(t, (unsigned)lane, t->bits) & ~0xffffull) |
                  (uint16_t)(t->warp + dwarp);
    return u0 == rec_lo(t) && u1 == t1;
#else
    return u->pc == t->pc && u->clock == t->clock &&
           u->warp == (uint16_t)(t->warp + dwarp) &&
           u->lane == (uint8_t)lane && u->bits == t->bits &&
           u->rel == t->rel && u->acq == t->acq;
#endif
}

/* *d = record t but for lane lane and warp t->warp + dwarp. */
static inline void rec_set(rec *d, const rec *t, int lane, int dwarp)
{
    *d = *t;
    d->lane = (uint8_t)lane;
    d->warp = (uint16_t)(t->warp + dwarp);
}

/* Can run j of chunk c name words m with record t, lane0 form lane0 (t's
   own lane is not read), too?  Then it does.  A run of one word (a lane
   of a column store) turns into a warp-step run when the word's record is
   its own but for a warp that grows with the word: the template then
   holds the lane itself and the warp of word 0 (a record on word i, lane0
   form lane0, has template lane lane0 + i, warp - i). */
static int run_takes(gchunk *c, int j, uint32_t m, const rec *t, int lane0)
{
    if (!c->wstep[j] && rec_is(&c->tpl[j], t, lane0, 0)) {
        c->run[j] |= m;
        return 1;
    }
    if (m & (m - 1))
        return 0; /* (several lanes: a run of the lane, or none) */
    int i = __builtin_ctz(m);
    if (!c->wstep[j] && !(c->run[j] & (c->run[j] - 1))) {
        /* the one word i2 so far, in warp form, is this one's */
        int i2 = __builtin_ctz(c->run[j]);
        if (!rec_is(&c->tpl[j], t, lane0 + i - i2, i2 - i))
            return 0;
        rec_set(&c->tpl[j], t, lane0 + i, -i);
        c->wstep[j] = 1;
    } else if (!c->wstep[j] || !rec_is(&c->tpl[j], t, lane0 + i, -i)) {
        return 0;
    }
    c->run[j] |= m;
    return 1;
}

/* Name words m of chunk c, whose only record is t with lane lane0 + word
   (t's own lane is not read), by a run; 0 when both runs name other
   records. */
HOT int name_run(gchunk *c, uint32_t m, const rec *t, int lane0, int read)
{
    for (int j = 0; j < 2; j++)
        if (c->run[j] && c->read[j] == read && run_takes(c, j, m, t, lane0))
            return 1;
    for (int j = 0; j < 2; j++)
        if (!c->run[j]) {
            c->run[j] = m;
            rec_set(&c->tpl[j], t, lane0, 0);
            c->read[j] = (uint8_t)read;
            c->wstep[j] = 0;
            return 1;
        }
    return 0;
}

/* record_word's record of a word the unit had not touched, made by access
   x of kind: a read's first slot, or the write, of all 4 bytes; its lane
   lane0 (that of word 0 of its chunk, an int8_t). */
static inline rec first_rec(const cur *x, wmi_acc_kind kind, int lane0)
{
    rec r = {x->pc, x->clock, (uint16_t)x->warp, (uint8_t)(int8_t)lane0,
             (uint8_t)(0x0fu | (kind == WMI_ACC_ATOMIC ? REC_ATOMIC : 0) |
                       x->strong),
             x->rel, x->acq};
    return r;
}

/* Words m of chunk c, which no run can name, an entry each holding r (a
   read's, or not) with lane lane0 + word (r's own lane is not read), as
   the per-lane loop makes them; 0 when out of memory.  (Filled in place:
   a copy of one built on the stack field by field stalls on the
   stores.) */
static int word_entries(wmi_check *k, gchunk *c, uint32_t m, const rec *r,
                        int lane0, int read)
{
    for (; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        wmi_word *e = entry(k, c, (unsigned)i, NULL);
        if (!e)
            return 0;
        rec_set(read ? &e->r[0] : &e->w, r, lane0 + i, 0);
        e->init = read ? 0 : 0x0f;
    }
    return 1;
}

int wmi_gwords_run(wmi_check *k, const cur *x, wmi_acc_kind kind,
                   uint64_t wa, unsigned l, unsigned n)
{
    uint64_t key = (wa >> 5) + 1;
    unsigned i0 = (unsigned)(wa & 31);
    uint32_t m = (n == 32 ? ~0u : (1u << n) - 1) << i0, bi;
    assert(i0 + n <= 32 && l + n <= 32);
    if ((k->checks & WM_CHECK_INIT) &&
        wmi_check_gbuf(k, wa * 4, &bi) >= 0 && k->gwritten[bi])
        return 0; /* (the per-lane loop checks and marks its bytes) */
    gchunk *c = k->glast;
    if (!c || c->key != key) {
        c = k->glane[l];
        if ((!c || c->key != key) && !(c = wmi_gwords_chunk(k, key)))
            return 0;
        k->glast = k->glane[l] = c;
    }
    if ((c->live & m) || !first_touch(k, wa, n))
        return 0;
    int lane0 = (int)l - (int)i0, read = kind == WMI_ACC_READ;
    rec r = first_rec(x, kind, lane0);
    c->live |= m;
    if (!name_run(c, m, &r, lane0, read))
        /* (out of memory: the run reports WM_ERR_NOMEM) */
        (void)word_entries(k, c, m, &r, lane0, read);
    return 1;
}

/* Name word i of chunk c (bit m), whose only record is t with lane0 form
   lane0 (t's own lane is not read), by a run: the warp-step run that it
   continues at once, else name_run, else an entry.  0 when out of
   memory. */
static inline int name_word(wmi_check *k, gchunk *c, int i, uint32_t m,
                            const rec *t, int lane0, int read)
{
    for (int j = 0; j < 2; j++)
        if (c->wstep[j] && c->read[j] == read &&
            rec_is(&c->tpl[j], t, lane0 + i, -i)) {
            c->run[j] |= m;
            return 1;
        }
    return name_run(c, m, t, lane0, read) ||
           word_entries(k, c, m, t, lane0, read);
}

/* Can the first touches of a full warp's lanes, x->step bytes apart, go
   into one entry of the list (room made for it now)?  Then the per-lane
   loop leaves them out and the entry is added after it. */
static int touches_strided(wmi_check *k, const cur *x, uint32_t lanes)
{
    int64_t st = x->step;
    if (lanes != ~0u || st == WMI_STEP_NONE || st % 4 ||
        st / 4 > INT32_MAX || st / 4 < -INT32_MAX)
        return 0;
    return k->gtn < k->gtcap || touches_grow(k);
}

uint32_t wmi_gwords_lanes(wmi_check *k, const cur *x, wmi_acc_kind kind,
                          const uint64_t *addr, uint32_t lanes)
{
    int read = kind == WMI_ACC_READ, init = (k->checks & WM_CHECK_INIT) != 0;
    int strided = touches_strided(k, x, lanes);
    rec r = first_rec(x, kind, 0);
    uint32_t done = 0, bi;
    uint64_t win = UINT64_MAX; /* the window of the last init check */
    for (; lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        uint64_t wa = addr[l] >> 2, key = (wa >> 5) + 1;
        if (addr[l] & 3)
            break;
        if (init && addr[l] >> WMI_WIN_SHIFT != win) {
            /* (a lane in a buffer with a written byte goes to the per-lane
               loop, which checks and marks its bytes) */
            if (wmi_check_gbuf(k, addr[l], &bi) >= 0 && k->gwritten[bi])
                break;
            win = addr[l] >> WMI_WIN_SHIFT;
        }
        gchunk *c = k->glane[l];
        if ((!c || c->key != key) && !(c = wmi_gwords_chunk(k, key)))
            break;
        k->glast = k->glane[l] = c;
        unsigned i = (unsigned)(wa & 31);
        uint32_t m = 1u << i;
        if ((c->live & m) || (!strided && !first_touch(k, wa, 1)))
            break;
        c->live |= m;
        done |= 1u << l;
        if (!name_word(k, c, (int)i, m, &r, (int)l - (int)i, read))
            break; /* (out of memory: the run reports WM_ERR_NOMEM) */
    }
    if (strided && done) { /* lanes 0 .. n - 1, in lane order */
        gtouch *g = &k->gt[k->gtn++];
        g->wa = addr[0] >> 2;
        g->n = (uint32_t)__builtin_popcount(done);
        g->step = (int32_t)(x->step / 4);
        k->gwords += g->n;
    }
    return done;
}

/* ---- the fold ------------------------------------------------------------ */

static wmi_xrec to_xrec(const wmi_check *k, const rec *r)
{
    wmi_xrec x = {r->pc, k->cta, r->warp, r->rel, r->lane, r->bits, 0};
    return x;
}

/* Is an earlier unit's access p (its last write when pw) a race with this
   unit's r?  They share bytes, are not both strong (atomics, volatile
   flags) beyond a CTA, r did not observe p (REC_SEEN: after its thread's
   device-scope atomic on the word, when p is strong beyond a CTA), and no
   release and acquire order them. */
static int crosses(const wmi_check *k, const wmi_xrec *p, const rec *r,
                   int pw)
{
    if (!p->cta || !(p->bits & r->bits & REC_BYTES))
        return 0;
    if (pw && (r->bits & REC_SEEN) && (p->bits & (REC_ATOMIC | REC_STRONG)) &&
        !(p->bits & REC_CTA))
        return 0;
    if ((p->bits & (REC_ATOMIC | REC_STRONG)) &&
        (r->bits & (REC_ATOMIC | REC_STRONG)) &&
        !((p->bits | r->bits) & REC_CTA))
        return 0;
    return !wmi_grid_ordered(k->grid, p->cta, p->rel, r->acq);
}

/* Report p against r (of a write or not, on the word at buffer offset
   off) when they race. */
static void cross(wmi_check *k, const wmi_xrec *p, const rec *r, int write,
                  wm_hazard_kind kind, long buf, uint64_t off)
{
    if (!crosses(k, p, r, kind != WM_HAZ_WAR))
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

/* The launch-wide chunk of chunk key (allocated when make), its buffer
   (-1: the module's data, the last window of the grid's, whose hazards
   name the variable), the chunk's byte offset in it and the words that
   lie in it; NULL when it is not tracked (or, make 0, holds nothing). */
static wmi_xchunk *xchunk_of(wmi_check *k, uint64_t key, int make, long *buf,
                             uint64_t *off, uint32_t *valid)
{
    uint64_t a = (key - 1) * 128;
    uint32_t bi;
    *buf = wmi_check_gbuf(k, a, &bi);
    *off = a & WMI_WIN_MASK;
    if (*buf < 0 && a >> WMI_WIN_SHIFT == WMI_MAX_GLOBAL_BUFS && k->ngbufs)
        bi = k->ngbufs - 1; /* a __device__ variable */
    else if (*buf < 0)
        return NULL;
    return wmi_grid_chunk(k->grid, bi, *off, make, valid);
}

/* Would the unit's record r on words m of launch-wide chunk x (the same
   record on each but for the warp or lane, which crosses() does not read)
   report against the earlier units' records: a write against their last
   write and read, a read against their last write?  A run of x at once
   (its records, too, differ only in warp or lane). */
static int run_reports(const wmi_check *k, const wmi_xchunk *x, uint32_t m,
                       const rec *r, int write)
{
    unsigned n = wmi_xchunk_nruns(x);
    if (!n) { /* one record per word */
        for (; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            wmi_xrec pw = wmi_xchunk_get(x, 0, i);
            wmi_xrec pr = wmi_xchunk_get(x, 1, i);
            if (crosses(k, &pw, r, 1) || (write && crosses(k, &pr, r, 0)))
                return 1;
        }
        return 0;
    }
    for (unsigned j = 0; j < n; j++) {
        const wmi_xrun *q = wmi_xchunk_run(x, j);
        if (!(q->mask & m) || (q->read && !write))
            continue;
        wmi_xrec p = wmi_xrun_rec(q, (unsigned)__builtin_ctz(q->mask & m));
        if (crosses(k, &p, r, !q->read))
            return 1;
    }
    return 0;
}

/* Would word e (word i of launch-wide chunk x) report against the earlier
   units' records (run_reports for each of its records)? */
static int word_reports(const wmi_check *k, const wmi_xchunk *x, unsigned i,
                        const wmi_word *e)
{
    if (e->w.bits && run_reports(k, x, 1u << i, &e->w, 1))
        return 1;
    for (int j = 0; j < 2; j++)
        if (e->r[j].bits && run_reports(k, x, 1u << i, &e->r[j], 0))
            return 1;
    return 0;
}

/* Would the fold report anything (a race of any word of the unit with an
   earlier unit's access)?  The checks of fold_word, without reports: a
   run of the unit's words at once. */
static int fold_reports(wmi_check *k)
{
    for (uint32_t n = 0; n < k->gcn; n++) {
        const gchunk *c = &k->gc[k->gcl[n]];
        long buf;
        uint64_t off;
        uint32_t valid;
        const wmi_xchunk *x = xchunk_of(k, c->key, 0, &buf, &off, &valid);
        if (!x || !(wmi_xchunk_writes(x) || wmi_xchunk_reads(x)))
            continue;
        for (uint32_t m = c->ent & valid; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            if (word_reports(k, x, i, &k->ge[c->idx[i]]))
                return 1;
        }
        for (int j = 0; j < 2; j++)
            if ((c->run[j] & valid) &&
                run_reports(k, x, c->run[j] & valid, &c->tpl[j],
                            !c->read[j]))
                return 1;
    }
    return 0;
}

/* Word wa of the unit against the earlier units' records of it, with the
   reports. */
static void fold_word(wmi_check *k, uint64_t wa)
{
    const gchunk *c = &k->gc[chunk_slot(k, (wa >> 5) + 1)];
    unsigned i = (unsigned)(wa & 31);
    long buf;
    uint64_t off;
    uint32_t valid;
    const wmi_xchunk *x = xchunk_of(k, c->key, 0, &buf, &off, &valid);
    assert(c->cta == k->cta && (c->live >> i & 1));
    if (!x || !(valid >> i & 1))
        return;
    wmi_word tmp;
    const wmi_word *e = word_at(k, c, i, &tmp);
    wmi_xrec pw = wmi_xchunk_get(x, 0, i), pr = wmi_xchunk_get(x, 1, i);
    off += 4 * i;
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

/* Put word n of keys[] into table t of cap slots (1 + n, 0 empty). */
static void sim_put(const uint64_t *keys, uint32_t *t, uint32_t cap,
                    uint32_t n)
{
    uint32_t s = gslot(keys[n], cap);
    while (t[s])
        s = (s + 1) & (cap - 1);
    t[s] = n + 1;
}

/* The keys (word address + 1) of the unit's words in first-touch order;
   NULL when out of memory. */
static uint64_t *first_touches(const wmi_check *k)
{
    uint64_t *keys = malloc(((size_t)k->gwords + 1) * sizeof *keys);
    uint32_t n = 0;
    for (uint32_t i = 0; keys && i < k->gtn; i++)
        for (uint32_t j = 0; j < k->gt[i].n; j++)
            keys[n++] = k->gt[i].wa + (uint64_t)((int64_t)j * k->gt[i].step) +
                        1;
    return keys;
}

/* The fold's reports, word by word in the slot order of the per-word
   table (see the file's header), which started the unit with cap slots. */
static void fold_in_order(wmi_check *k, uint32_t cap)
{
    uint64_t *keys = first_touches(k);
    uint32_t *t = keys ? calloc(cap, sizeof *t) : NULL;
    for (uint32_t n = 0; t && n < k->gwords; n++) {
        if (2 * (n + 1) > cap) { /* doubled, refilled in slot order */
            uint32_t *nt = calloc((size_t)cap * 2, sizeof *nt);
            for (uint32_t s = 0; nt && s < cap; s++)
                if (t[s])
                    sim_put(keys, nt, cap * 2, t[s] - 1);
            free(t);
            t = nt;
            cap *= 2;
        }
        if (t)
            sim_put(keys, t, cap, n);
    }
    if (!t) {
        free(keys);
        k->oom = 1;
        return;
    }
    for (uint32_t s = 0; s < cap; s++)
        if (t[s])
            fold_word(k, keys[t[s] - 1] - 1);
    free(t);
    free(keys);
}

/* The unit's records of chunk c replace the earlier ones in x: its words'
   last write and first read slot (what the per-word fold kept), a run at
   once for the words a run names.  0 when out of memory. */
static int fold_chunk(const wmi_check *k, const gchunk *c, wmi_xchunk *x,
                      uint32_t valid)
{
    uint32_t wm = 0, rm = 0;
    for (int j = 0; j < 2; j++) {
        uint32_t m = c->run[j] & valid;
        if (!m)
            continue;
        const rec *t = &c->tpl[j];
        wmi_xrun r = {m,       t->pc,           k->cta,     t->warp,
                      t->rel,  (int8_t)t->lane, t->bits,    c->read[j],
                      c->wstep[j]};
        if (!wmi_xchunk_put_run(x, wmi_grid_pool(k->grid), &r))
            return 0;
    }
    wmi_xrec w[32], rd[32];
    for (uint32_t m = c->ent & valid; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        const wmi_word *e = &k->ge[c->idx[i]];
        if (e->w.bits) {
            w[i] = to_xrec(k, &e->w);
            wm |= 1u << i;
        }
        if (e->r[0].bits) {
            rd[i] = to_xrec(k, &e->r[0]);
            rm |= 1u << i;
        }
    }
    return !(wm | rm) ||
           wmi_xchunk_put(x, wmi_grid_pool(k->grid), wm, w, rm, rd);
}

/* The unit's records replace the earlier ones, chunk by chunk. */
static void fold_chunks(wmi_check *k)
{
    for (uint32_t n = 0; n < k->gcn; n++) {
        const gchunk *c = &k->gc[k->gcl[n]];
        long buf;
        uint64_t off;
        uint32_t valid;
        wmi_xchunk *x = xchunk_of(k, c->key, 1, &buf, &off, &valid);
        if (x && !fold_chunk(k, c, x, valid))
            k->oom = 1;
    }
}

void wmi_gwords_fold(wmi_check *k)
{
    if (!k->grid || !k->gc)
        return;
    uint32_t cap = k->gsim; /* the per-word table's size at the start */
    while (2 * (uint64_t)k->gwords > k->gsim)
        k->gsim *= 2;
    if (k->slow || fold_reports(k))
        fold_in_order(k, cap);
    fold_chunks(k);
}
