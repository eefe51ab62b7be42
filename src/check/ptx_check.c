/*
 * ptx_check.c -- race and initialisation tracking of `warpmem run --check`
 * (the model is stated in ptx_check_int.h; docs/check.md is the user's
 * view).
 *
 * Shadow memory: one wmi_word per 4-byte word of shared memory, and, with
 * races checked, one per global word the CTA touched (ptx_check_gwords.c:
 * small enough to stay in cache, where a flat shadow of every buffer would
 * not).  A word holds its last write and up
 * to two reads of different threads since, each with the bytes it
 * touched, and, for shared memory, the bytes written in this CTA.  A word
 * belongs to the CTA (with clusters: the cluster, whose CTAs' shared
 * words lie one after another) whose sequence number it carries; an older
 * one reads as empty, so no per-CTA clearing is needed (a global word's
 * chunk carries the number).  Global bytes of an
 * argument declared uninitialised have one "written" bit each for the
 * whole launch.
 *
 * Invariants:
 *   - every record of a current word has a non-zero byte mask;
 *   - vc[W][W] >= 1 for every warp; vc[W][A] <= vc[A][A];
 *   - two lanes of one instruction never form a hazard with each other:
 *     a record with the access's pc, warp and clock is skipped (so are
 *     two executions of one instruction by one warp with no barrier or
 *     bar.warp.sync between them).
 *
 * The hot loop goes lane by lane in lane order; the shared loads and
 * stores (shared_reads, shared_writes) leave out only the work that
 * provably changes nothing (a lane that cannot report, a record that
 * would be dropped), so hazards, their order and counts, and the shadow
 * are those of the plain loop (mem_words_k).  Under WMI_RUN_SLOW (the
 * tests' differential runs) every access takes the plain loop and the
 * fold reports in its order without the first pass (ptx_check_gwords.c).
 */
#include "ptx_check_state.h"

#include <stdlib.h>
#include <string.h>

/* ---- setup --------------------------------------------------------------- */

/* "sm_70" and newer: independent thread scheduling (lanes unordered). */
static int target_its(const char *t)
{
    if (strncmp(t, "sm_", 3) != 0)
        return 1; /* no .target: assume a current GPU */
    return atoi(t + 3) >= 70;
}

wmi_check *wmi_check_new(const wm_ptx_module *m, const unsigned block[3],
                         const unsigned cdim[3], uint64_t smem_bytes,
                         const wmi_gbuf *gbufs, uint32_t ngbufs,
                         const wm_ptx_check *chk, int coop)
{
    wmi_check *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->m = m;
    k->checks = chk->checks & (WM_CHECK_RACE | WM_CHECK_INIT);
    k->intra = target_its(m->target);
    k->nwarps = (block[0] * block[1] * block[2] + 31) / 32;
    memcpy(k->block, block, sizeof k->block);
    memcpy(k->cdim, cdim, sizeof k->cdim);
    k->ncl = cdim[0] * cdim[1] * cdim[2];
    k->coop = coop;
    k->nw = k->ncl * k->nwarps;
    k->sched = chk->schedule;
    k->rng = chk->seed ^ 0x5851f42d4c957f2dull;
    k->gbufs = gbufs;
    k->ngbufs = ngbufs;
    k->csh = (smem_bytes + 3) / 4;
    k->nsh = k->csh * k->ncl;
    k->vc = calloc((size_t)k->nw * k->nw, sizeof *k->vc);
    k->bar = calloc((size_t)16 * k->ncl * k->nw, sizeof *k->bar);
    k->mbar = calloc((size_t)MAX_MBARS * k->nw, sizeof *k->mbar);
    k->cbar = calloc((size_t)2 * k->nw, sizeof *k->cbar);
    k->cfence = calloc(k->nw, sizeof *k->cfence);
    k->order = calloc(k->nwarps, sizeof *k->order);
    k->ctaid = calloc(k->ncl, sizeof *k->ctaid);
    int ok = k->vc && k->bar && k->mbar && k->cbar && k->cfence &&
             k->order && k->ctaid;
    if (k->checks) {
        /* (one cache line a word: a tile's column touches 32 lines, not
           56) */
        size_t shb = (k->nsh ? k->nsh : 1) * sizeof *k->sh;
        k->sh = aligned_alloc(64, shb);
        if (k->sh)
            memset(k->sh, 0, shb);
        k->sh_seen = calloc(k->nsh ? k->nsh : 1, sizeof *k->sh_seen);
        k->shc = calloc(k->nsh / 32 + 1, sizeof *k->shc);
        k->shlanes = calloc(m->ncode + 1, 1);
        k->gwritten = calloc(ngbufs, sizeof *k->gwritten);
        k->hz = calloc(MAX_HAZARDS, sizeof *k->hz);
        k->hidx = calloc(2 * MAX_HAZARDS, sizeof *k->hidx);
        ok = ok && k->sh && k->sh_seen && k->shc && k->shlanes &&
             wmi_gwords_new(k) &&
             k->gwritten && k->hz && k->hidx;
        if (k->checks & WM_CHECK_RACE)
            ok = ok && wmi_flags_new(k) &&
                 (k->grid = wmi_grid_new(gbufs, ngbufs));
    }
    for (size_t i = 0; ok && (k->checks & WM_CHECK_INIT) && i < chk->nuninit &&
                       i < ngbufs; i++)
        if (chk->uninit[i] && gbufs[i].p &&
            !(k->gwritten[i] = calloc(gbufs[i].bytes / 8 + 1, 1)))
            ok = 0;
    if (!ok) {
        wmi_check_free(k);
        return NULL;
    }
    for (uint32_t i = 0; i < k->nwarps; i++)
        k->order[i] = k->sched == WM_SCHED_REVERSE ? k->nwarps - 1 - i : i;
    return k;
}

int wmi_check_tracks(const wmi_check *k)
{
    return k->checks != 0;
}

uint32_t *wmi_check_order(wmi_check *k)
{
    return k->sched == WM_SCHED_IN_ORDER ? NULL : k->order;
}

void wmi_check_free(wmi_check *k)
{
    if (!k)
        return;
    for (uint32_t i = 0; k->gwritten && i < k->ngbufs; i++)
        free(k->gwritten[i]);
    wmi_gwords_free(k);
    free(k->gwritten);
    free(k->sh);
    free(k->sh_seen);
    free(k->shc);
    free(k->shlanes);
    free(k->vc);
    free(k->bar);
    free(k->mbar);
    free(k->cbar);
    free(k->cfence);
    free(k->order);
    free(k->ctaid);
    wmi_flags_free(k);
    free(k->hz);
    free(k->hidx);
    wmi_grid_free(k->grid);
    free(k);
}

void wm_ptx_check_clear(wm_ptx_check *c)
{
    if (!c)
        return;
    free(c->hazards);
    c->hazards = NULL;
    c->nhazards = 0;
    c->dropped = 0;
    c->differs = 0;
    c->diff_arg = -1;
    c->diff_byte = c->diff_elem = 0;
    memset(c->diff_bytes, 0, sizeof c->diff_bytes);
    c->diff_in = WM_DIFF_ARG;
    c->diff_elem_bytes = 0;
    c->diff_name = NULL;
    c->proved = 0;
}

wm_status wmi_check_finish(wmi_check *k, wm_ptx_check *out)
{
    wm_ptx_check_clear(out);
    if (k->cta)
        wmi_gwords_fold(k); /* the last unit against the others */
    out->dropped = k->dropped;
    if (k->oom || (k->grid && wmi_grid_oom(k->grid)))
        return WM_ERR_NOMEM;
    if (!k->nhz)
        return WM_OK;
    out->hazards = malloc(k->nhz * sizeof *out->hazards);
    if (!out->hazards)
        return WM_ERR_NOMEM;
    memcpy(out->hazards, k->hz, k->nhz * sizeof *out->hazards);
    out->nhazards = k->nhz;
    return WM_OK;
}

/* ---- clocks and schedules ----------------------------------------------- */

/* Does the unit hold several CTAs (a cluster, a cooperative grid)?  Then
   CTA-scope fences and strong accesses are left out (as plain ones):
   they would order its CTAs' warps, which they do not. */
static int cta_scope_unordered(const wmi_check *k)
{
    return k->ncl > 1 || k->coop;
}

void wmi_check_cta_begin(wmi_cta *c)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw;
    assert(c->unit < k->ncl);
    if (c->unit != 0) { /* a cluster's unit starts with its rank 0 */
        memcpy(k->ctaid[c->unit], c->ctaid, sizeof k->ctaid[0]);
        return;
    }
    if (k->cta) /* the unit that ended, against the others (its hazards
                   name its own blockIdx: before this CTA's replaces it) */
        wmi_gwords_fold(k);
    memcpy(k->ctaid[0], c->ctaid, sizeof k->ctaid[0]);
    k->cta++;
    k->slow = (c->flags & WMI_RUN_SLOW) != 0;
    if (k->checks)
        wmi_gwords_begin(k);
    if (k->grid) {
        wmi_grid_cta_begin(k->grid, k->cta, k->ctaid[0]);
        wmi_flags_begin(k);
    }
    memset(k->vc, 0, (size_t)n * n * sizeof *k->vc);
    memset(k->bar, 0, (size_t)16 * k->ncl * n * sizeof *k->bar);
    memset(k->mbar, 0, (size_t)MAX_MBARS * n * sizeof *k->mbar);
    memset(k->mbar_at, 0, sizeof k->mbar_at);
    memset(k->cbar, 0, (size_t)2 * n * sizeof *k->cbar);
    memset(k->cfence, 0, n * sizeof *k->cfence);
    for (uint32_t i = 0; i < n; i++)
        k->vc[(size_t)i * n + i] = 1;
}

/* Warp w of c as a warp of the clocks. */
static inline uint32_t gwarp(const wmi_check *k, const wmi_cta *c,
                             const wmi_warp *w)
{
    return c->unit * k->nwarps + w->index;
}

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void wmi_check_round(wmi_cta *c)
{
    wmi_check *k = c->chk;
    if (k->sched != WM_SCHED_RANDOM)
        return;
    for (uint32_t i = 0; i < k->nwarps; i++)
        k->order[i] = i;
    for (uint32_t i = k->nwarps; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)(next_rand(&k->rng) % i), t = k->order[i - 1];
        k->order[i - 1] = k->order[j];
        k->order[j] = t;
    }
}

void wmi_check_arrive(wmi_cta *c, const wmi_warp *w, uint32_t id)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw, g = gwarp(k, c, w), *v = &k->vc[(size_t)g * n];
    /* a CTA's own barriers: bar.sync orders only its threads */
    uint32_t *b = &k->bar[((size_t)c->unit * 16 + (id & 15)) * n];
    wmi_clock_join(b, v, n);
    v[g]++; /* later accesses are not covered by this arrival */
}

void wmi_check_release(wmi_cta *c, uint32_t id)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw, *b = &k->bar[((size_t)c->unit * 16 + (id & 15)) * n];
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (!c->warps[i].wait_at[id & 15])
            continue;
        uint32_t g = gwarp(k, c, &c->warps[i]), *v = &k->vc[(size_t)g * n];
        wmi_clock_join(v, b, n);
        v[g]++;
    }
    memset(b, 0, n * sizeof *b);
}

void wmi_check_fence(wmi_cta *c, const wmi_warp *w, unsigned sync)
{
    wmi_check *k = c->chk;
    uint32_t g = gwarp(k, c, w);
    if ((sync & WMI_SYNC_CTA) && cta_scope_unordered(k))
        return;
    /* what came before is released by a later relaxed barrier.cluster
       arrive or strong write of a flag (the PTX memory model's
       fence-then-write release pattern); the relaxed loads of flags
       before it are acquired */
    k->cfence[g] = k->vc[(size_t)g * k->nw + g] + 1;
    k->vc[(size_t)g * k->nw + g]++;
    if (k->grid)
        wmi_flags_fence(k, g);
    if ((sync & WMI_SYNC_GPU) && k->grid) /* a CTA-wide release: see
                                             docs/check.md */
        wmi_grid_fence(k->grid);
}

void wmi_check_syncwarp(wmi_cta *c, const wmi_warp *w)
{
    wmi_check *k = c->chk;
    uint32_t g = gwarp(k, c, w);
    k->vc[(size_t)g * k->nw + g]++;
}

void wmi_check_cluster_arrive(wmi_cta *c, const wmi_warp *w, uint64_t phase,
                              int relaxed)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw, g = gwarp(k, c, w), *v = &k->vc[(size_t)g * n];
    uint32_t *b = &k->cbar[(size_t)(phase & 1) * n];
    if (!relaxed) {
        wmi_clock_join(b, v, n); /* .release, the default */
    } else if (k->cfence[g]) {
        /* relaxed after a fence: a release of what preceded the fence */
        uint32_t own = v[g];
        v[g] = k->cfence[g] - 1;
        wmi_clock_join(b, v, n);
        v[g] = own;
    }
    v[g]++;
}

void wmi_check_cluster_wait(wmi_cta *c, const wmi_warp *w, uint64_t phase)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw, g = gwarp(k, c, w);
    wmi_clock_join(&k->vc[(size_t)g * n], &k->cbar[(size_t)(phase & 1) * n],
                   n);
}

/* The clocks of the mbarrier at shared address addr (a new slot on first
   use), or NULL when MAX_MBARS are in use.  In a cluster an address
   carries the rank of the CTA that holds the mbarrier. */
static uint32_t *mbar_clock(wmi_check *k, const wmi_cta *c, uint64_t addr)
{
    if (k->ncl > 1 && !(addr >> WMI_DSMEM_SHIFT))
        addr |= (uint64_t)(c->unit + 1) << WMI_DSMEM_SHIFT;
    for (uint32_t i = 0; i < MAX_MBARS; i++) {
        if (k->mbar_at[i] == addr + 1)
            return &k->mbar[(size_t)i * k->nw];
        if (!k->mbar_at[i]) {
            k->mbar_at[i] = addr + 1;
            return &k->mbar[(size_t)i * k->nw];
        }
    }
    return NULL;
}

void wmi_check_mbar_release(wmi_cta *c, const wmi_warp *w, uint64_t addr)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw, g = gwarp(k, c, w), *b = mbar_clock(k, c, addr);
    uint32_t *v = &k->vc[(size_t)g * n];
    if (!b)
        return;
    wmi_clock_join(b, v, n);
    v[g]++;
}

void wmi_check_mbar_acquire(wmi_cta *c, const wmi_warp *w, uint64_t addr)
{
    wmi_check *k = c->chk;
    uint32_t n = k->nw, g = gwarp(k, c, w), *b = mbar_clock(k, c, addr);
    if (b)
        wmi_clock_join(&k->vc[(size_t)g * n], b, n);
}

/* ---- hazards ------------------------------------------------------------- */

static void hazard(wmi_check *k, wm_hazard_kind kind, const rec *prior,
                   int prior_write, const cur *x)
{
    wmi_check_hazard(k, kind, prior, prior_write, x, NULL);
}

/* Is the recorded access r ordered before x (or by the same thread)? */
static inline int ordered(const wmi_check *k, const rec *r, const cur *x)
{
    if (r->warp == x->warp)
        return r->clock < x->clock || r->lane == x->lane || !k->intra;
    return r->clock <= x->vc[r->warp];
}

/* Did lanes a and b of x's store write the same value?  (Different
   addresses that overlap, or an instruction that is no plain store: no.) */
static int same_store(const cur *x, unsigned a, unsigned b)
{
    const wm_ptx_module *m = x->c->m;
    const wmi_insn *in = &m->code[x->pc];
    if (in->op != OP_ST || x->lane_addr[a] != x->lane_addr[b])
        return 0;
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    uint64_t keep = bits >= 64 ? ~0ull : (1ull << (bits < 8 ? 8 : bits)) - 1;
    unsigned n = (in->b & WMI_VEC) ? m->pool[in->b & ~WMI_VEC] : 1;
    for (unsigned i = 0; i < n; i++) {
        uint32_t s = (in->b & WMI_VEC) ? m->pool[(in->b & ~WMI_VEC) + 1 + i]
                                       : in->b;
        if ((x->w->r[s][a] ^ x->w->r[s][b]) & keep)
            return 0;
    }
    return 1;
}

/* r and x (of kind), both atomics or strong: do they leave each other
   alone?  In global memory always (atomics, flags; between CTAs the fold
   decides).  In shared memory two atomics, and the accesses of a flag
   protocol (REC_FLAG: reads, and writes that release) by different
   warps: a warp's own volatile accesses (a warp-synchronous reduction)
   and a volatile write no fence releases still race. */
static int strong_apart(const rec *r, const cur *x, wmi_acc_kind kind)
{
    unsigned xb = kind == WMI_ACC_ATOMIC ? REC_ATOMIC : x->strong;
    if (x->space != WM_SPACE_SHARED || (r->bits & xb & REC_ATOMIC))
        return 1;
    return r->warp != x->warp && (r->bits & (REC_ATOMIC | REC_FLAG)) &&
           (xb & (REC_ATOMIC | REC_FLAG));
}

/* Do r and x (of kind x->kind, passed as a constant by the hot loop)
   conflict on the bytes in mask (x touches mask)? */
HOT int conflict(const wmi_check *k, const rec *r, unsigned mask,
                 const cur *x, wmi_acc_kind kind)
{
    if (!(r->bits & mask & REC_BYTES) || ordered(k, r, x))
        return 0; /* the common case first: ordered (by a barrier) */
    if ((r->bits & (REC_ATOMIC | REC_STRONG)) &&
        (kind == WMI_ACC_ATOMIC || x->strong) && strong_apart(r, x, kind))
        return 0; /* strong accesses (atomics, flags) do not race */
    /* another lane of the same instruction (instance) */
    return !(r->pc == x->pc && r->warp == x->warp && r->clock == x->clock);
}

/* Lanes of one store instance writing different values to r's bytes? */
HOT int write_conflict(const rec *r, unsigned mask, const cur *x,
                       wmi_acc_kind kind)
{
    return kind == WMI_ACC_WRITE && (r->bits & mask & REC_BYTES) &&
           r->pc == x->pc && r->warp == x->warp && r->clock == x->clock &&
           r->lane != x->lane && x->c && !(r->bits & REC_ATOMIC) &&
           !same_store(x, r->lane, x->lane);
}

/* Check x's bytes mask of word e against the shadow (races). */
HOT void check_word(wmi_check *k, wmi_word *e, unsigned mask,
                       const cur *x, wmi_acc_kind kind)
{
    if (conflict(k, &e->w, mask, x, kind))
        hazard(k, kind == WMI_ACC_READ ? WM_HAZ_RAW : WM_HAZ_WAW, &e->w, 1,
               x);
    else if (write_conflict(&e->w, mask, x, kind))
        hazard(k, WM_HAZ_WARP_WAW, &e->w, 1, x);
    if (kind == WMI_ACC_READ)
        return;
    for (int i = 0; i < 2; i++)
        if (conflict(k, &e->r[i], mask, x, kind)) {
            hazard(k, WM_HAZ_WAR, &e->r[i], 0, x);
            break;
        }
}

/* A word keeps only its last write.  When a strong write (an atomic) r
   replaces a write w that another CTA's strong access could still race
   with (w plain, or strong at CTA scope), r takes over w's weakness
   towards other CTAs (REC_CTA, read only by the fold) and w's stamps (the
   unit's releases and acquires before it): another CTA's access is then
   ordered with the record only when it is ordered with w, so the record
   reports w's races, which a release and a device-scope write after w
   would otherwise hide, and no pair that is ordered: what orders w
   against another CTA's access orders r too. */
static __attribute__((noinline)) void keep_weakness(rec *r, const rec *w)
{
    unsigned b = w->bits; /* plain, or strong at CTA scope (the caller) */
    if (!(b & r->bits & REC_BYTES))
        return;
    r->bits |= REC_CTA;
    r->rel = w->rel;
    r->acq = w->acq;
    if ((b & REC_ATOMIC) && w->warp == r->warp && w->lane == r->lane)
        r->pc = w->pc; /* name the race's access: the same thread's
                          atomics, alike in its CTA */
}

/* A plain global access r (of x) ordered after the word's last write w,
   a device-scope atomic of the unit (or a plain access after one), comes
   after that atomic in the PTX memory model's base causality order, so
   after the earlier CTAs' last write, which the atomic observed:
   REC_SEEN. */
static __attribute__((noinline)) void mark_seen(const wmi_check *k,
                                                const cur *x, rec *r,
                                                const rec *w)
{
    if (((w->bits & (REC_ATOMIC | REC_CTA)) == REC_ATOMIC ||
         (w->bits & REC_SEEN)) &&
        ordered(k, w, x))
        r->bits |= REC_SEEN;
}

/* Record x in word e (a global word when global: the shared loops pass
   0, which leaves out the tests only the fold reads); 0 when a read is
   dropped (both slots hold reads of other threads that are not ordered
   before it). */
HOT int record_word(wmi_check *k, wmi_word *e, unsigned mask, const cur *x,
                    wmi_acc_kind kind, int global)
{
    rec r = {x->pc, x->clock, (uint16_t)x->warp, (uint8_t)x->lane,
             (uint8_t)(mask | (kind == WMI_ACC_ATOMIC ? REC_ATOMIC : 0) |
                       x->strong),
             x->rel, x->acq};
    if (global && (e->w.bits & (REC_ATOMIC | REC_SEEN)) &&
        !(r.bits & (REC_ATOMIC | REC_STRONG)))
        mark_seen(k, x, &r, &e->w);
    if (kind != WMI_ACC_READ) {
        if (global && (r.bits & (REC_ATOMIC | REC_STRONG)) &&
            (!(e->w.bits & (REC_ATOMIC | REC_STRONG)) ||
             (e->w.bits & REC_CTA)))
            keep_weakness(&r, &e->w);
        e->w = r;
        return 1;
    }
    /* keep reads of two different threads: the same thread's replaces its
       own, an ordered one gives way, else the second slot is taken */
    for (int i = 0; i < 2; i++)
        if (e->r[i].bits && e->r[i].warp == r.warp && e->r[i].lane == r.lane) {
            e->r[i] = r;
            return 1;
        }
    for (int i = 0; i < 2; i++)
        if (!e->r[i].bits || ordered(k, &e->r[i], x)) {
            e->r[i] = r;
            return 1;
        }
    return 0;
}

/* Bytes of word wd touched by [a, a + size). */
static inline unsigned word_mask(uint64_t wd, uint64_t a, unsigned size)
{
    uint64_t lo = wd * 4 > a ? wd * 4 : a;
    uint64_t hi = wd * 4 + 4 < a + size ? wd * 4 + 4 : a + size;
    return ((1u << (hi - lo)) - 1) << (lo - wd * 4);
}

/* Global initcheck of lane x's bytes (read: report, write: mark). */
static void global_init(wmi_check *k, uint32_t b, const cur *x, int check)
{
    uint8_t *bits = k->gwritten[b];
    if (!bits)
        return;
    for (uint64_t o = x->addr; o < x->addr + x->size; o++) {
        if (check && !(bits[o >> 3] >> (o & 7) & 1)) {
            hazard(k, WM_HAZ_UNINIT, NULL, 0, x);
            return;
        }
        if (!check && x->kind != WMI_ACC_READ)
            bits[o >> 3] |= (uint8_t)(1u << (o & 7));
    }
}

/* Pass 0 checks lane x, pass 1 records it. */
static void lane_access(wmi_check *k, const cur *x0, uint64_t a, int global,
                        int pass)
{
    cur x = *x0;
    uint64_t off = a;
    uint32_t b = UINT32_MAX;
    if (global) {
        off = a & WMI_WIN_MASK;
        x.space = WM_SPACE_GLOBAL;
        x.buf = wmi_check_gbuf(k, a, &b);
    }
    x.addr = off;
    for (uint64_t wd = off / 4; wd <= (off + x.size - 1) / 4; wd++) {
        wmi_word *e;
        if (global) {
            /* (only the race checks read a global word's records) */
            e = k->checks & WM_CHECK_RACE ? wmi_gword(k, (a - off) / 4 + wd)
                                          : &k->gnone;
            if (!e)
                return;
        } else {
            if (wd >= k->nsh)
                break;
            e = wmi_shword(k, wd);
        }
        unsigned mask = word_mask(wd, off, x.size);
        if (pass == 0 && (k->checks & WM_CHECK_RACE))
            check_word(k, e, mask, &x, x.kind);
        if (pass == 0 && (k->checks & WM_CHECK_INIT) && !global &&
            x.kind != WMI_ACC_WRITE && (mask & ~e->init)) {
            hazard(k, WM_HAZ_UNINIT, NULL, 0, &x);
        }
        if (pass == 1 && (k->checks & WM_CHECK_RACE))
            record_word(k, e, mask, &x, x.kind, global);
        if (pass == 1 && x.kind != WMI_ACC_READ)
            e->init |= mask;
    }
    if (global && b != UINT32_MAX && (k->checks & WM_CHECK_INIT))
        global_init(k, b, &x, pass == 0 && x.kind != WMI_ACC_WRITE);
}

/*
 * The common case, a scalar access of at most 4 bytes (one word per lane),
 * in one pass: each lane's word is checked, then recorded.  A later lane
 * of the instruction that meets an earlier lane's record of the same
 * instruction instance skips it (conflict(): same pc, warp and clock).
 * Inlined for each kind (a constant here: the helpers' tests of it fold)
 * and for shared-only instructions, which set the space once.
 */
HOT void mem_words_k(wmi_check *k, cur *x, const uint64_t *addr,
                     uint32_t ms, uint32_t mg, wmi_acc_kind kind)
{
    uint32_t act = ms | mg;
    int race = (k->checks & WM_CHECK_RACE) != 0;
    int init = (k->checks & WM_CHECK_INIT) != 0;
    unsigned low = (1u << x->size) - 1;
    x->space = WM_SPACE_SHARED;
    x->buf = -1;
    for (unsigned l = 0; l < 32; l++) {
        if (!(act >> l & 1))
            continue;
        uint64_t a = addr[l], off = a;
        uint32_t bi = UINT32_MAX;
        int global = mg >> l & 1;
        wmi_word *e;
        if (global) {
            off = a & WMI_WIN_MASK;
            x->space = WM_SPACE_GLOBAL;
            x->buf = wmi_check_gbuf(k, a, &bi);
            e = race ? wmi_gword(k, a / 4) : &k->gnone;
        } else {
            if (mg) {
                x->space = WM_SPACE_SHARED;
                x->buf = -1;
            }
            e = off / 4 < k->nsh ? wmi_shword(k, off / 4) : NULL;
        }
        if (!e)
            continue;
        /* word_mask(off / 4, off, x->size), the access in one word */
        unsigned mk = low << (off & 3) & 15u;
        x->lane = l;
        x->addr = off;
        if (race)
            check_word(k, e, mk, x, kind);
        if (init && kind != WMI_ACC_WRITE) {
            if (!global && (mk & ~e->init))
                hazard(k, WM_HAZ_UNINIT, NULL, 0, x);
            else if (global && bi != UINT32_MAX)
                global_init(k, bi, x, 1);
        }
        if (race)
            record_word(k, e, mk, x, kind, global);
        if (kind == WMI_ACC_READ)
            continue;
        e->init |= mk;
        if (global && bi != UINT32_MAX && init)
            global_init(k, bi, x, 0);
    }
}

/* Read slot r against every lane of a warp: another warp's read (or
   none) is the same for all lanes, free (empty or ordered before the
   access: record_word may take it) or not (never taken); a read of the
   accessing warp depends on the lane (its own thread's, or ordered by the
   clock). */
static inline int slot_other(const rec *r, uint32_t warp)
{
    return !r->bits || r->warp != warp;
}

static inline int slot_free(const rec *r, const uint32_t *vc)
{
    return !r->bits || r->clock <= vc[r->warp];
}

/*
 * Shared reads of at most 4 bytes when lanes are unordered (sm_70+) and
 * races are checked: mem_words_k's loop, lane by lane in the same order,
 * doing only the work that can change something.  A read changes only
 * its word's two read slots, so within one instruction:
 *   - the word's last write and initialised bytes stay what its first
 *     lane saw: when that write cannot conflict with any lane
 *     (write_clean) and all 4 bytes are initialised (or init is not
 *     checked), no lane of the instruction reports on that word (CLEAN);
 *   - a read slot filled by a lane of this instruction is never taken by
 *     a later one (same warp and clock, another lane: not ordered, not the
 *     same thread);
 *   - when neither slot holds a read of this warp as the first lane comes
 *     (slot_other), no slot is any lane's own, so record_word gives the
 *     free slots (slot_free) to the first lanes in slot order and drops
 *     the others: the state keeps the next slot to give (DIRECT).
 * Once no slot can change (both filled by this instruction, or DIRECT
 * with none left: FULL) a CLEAN word's lanes are skipped.  Every other
 * lane is checked and recorded as mem_words_k does, so the hazards (their
 * order and counts) and the shadow are the same.  The 16 lanes of a
 * broadcast (SGEMM's As[ty][k]) cost one comparison each after the first,
 * and the reads of a word whose slots hold another warp's unordered reads
 * (the later warps reading Bs[k][tx]) one lookup.
 * sh_seen[word] = stamp << 4 | SEEN_DIRECT | SEEN_CLEAN | n, where n is
 * the slots filled by this instruction (0-2), or with SEEN_DIRECT the next
 * slot to give (2: none).
 */
#define SEEN_CLEAN 4u
#define SEEN_DIRECT 8u
#define SEEN_FULL (SEEN_CLEAN | 2u)

static void shared_reads(wmi_check *k, cur *x, const uint64_t *addr,
                         uint32_t ms)
{
    int init = (k->checks & WM_CHECK_INIT) != 0;
    unsigned low = (1u << x->size) - 1;
    assert(k->intra && (k->checks & WM_CHECK_RACE) && x->size <= 4);
    if (++k->stamp >= 1u << 28) { /* numbers run out: forget old states */
        memset(k->sh_seen, 0, k->nsh * sizeof *k->sh_seen);
        k->stamp = 1;
    }
    /* the instruction's fields as locals, which the stores into the
       shadow cannot alias */
    uint32_t base = k->stamp << 4, *seen = k->sh_seen;
    uint32_t pc = x->pc, warp = x->warp, clock = x->clock;
    const uint32_t *vc = x->vc;
    wmi_word *sh = k->sh;
    uint64_t nsh = k->nsh;
    rec r = {pc, clock, (uint16_t)warp, 0, 0, x->rel, x->acq};
    uint8_t strong = x->strong;
    x->space = WM_SPACE_SHARED;
    x->buf = -1;
    uint64_t last = UINT64_MAX; /* the word of the lane before, if FULL */
    for (uint32_t act = ms; act; act &= act - 1) {
        unsigned l = (unsigned)__builtin_ctz(act);
        uint64_t off = addr[l], wd = off / 4;
        if (wd == last || wd >= nsh)
            continue; /* (wd == last: a broadcast's next lane) */
        uint32_t st = seen[wd];
        if ((st & ~SEEN_DIRECT) == (base | SEEN_FULL)) {
            last = wd;
            continue;
        }
        wmi_word *e = &sh[wd];
        unsigned mk = low << (off & 3) & 15u;
        r.lane = (uint8_t)l;
        r.bits = (uint8_t)(mk | strong);
        if ((st & ~15u) != base) { /* the instruction's first lane here */
            e = wmi_shword(k, wd);
            st = base;
            if (write_clean(&e->w, pc, warp, clock, vc, 1) &&
                (!init || e->init == 15)) {
                st |= SEEN_CLEAN;
                if (slot_other(&e->r[0], warp) &&
                    slot_other(&e->r[1], warp)) {
                    int f0 = slot_free(&e->r[0], vc);
                    int f1 = slot_free(&e->r[1], vc);
                    if (f0 || f1)
                        e->r[f0 ? 0 : 1] = r;
                    seen[wd] = st | SEEN_DIRECT | (f0 && f1 ? 1 : 2);
                    continue;
                }
            }
        } else if (st & SEEN_DIRECT) { /* a later lane: slot 1 is free */
            assert((st & 3u) == 1);
            e->r[1] = r;
            seen[wd] = st + 1;
            continue;
        }
        x->lane = l;
        x->addr = off;
        if (!(st & SEEN_CLEAN)) {
            check_word(k, e, mk, x, WMI_ACC_READ);
            if (init && (mk & ~e->init))
                hazard(k, WM_HAZ_UNINIT, NULL, 0, x);
        }
        if (record_word(k, e, mk, x, WMI_ACC_READ, 0))
            st++; /* a slot this instruction had not filled (see above) */
        assert((st & 3u) <= 2);
        seen[wd] = st;
    }
}

/* Do the lanes of x touch words all apart: an affine warp whose
   addresses step by at least 4 bytes (a tile's column, a padded one's)? */
static int words_apart(const cur *x)
{
    return x->step != WMI_STEP_NONE && (x->step >= 4 || x->step <= -4);
}

/*
 * shared_reads without its per-word states, for accesses whose lanes all
 * touch different words (words_apart): each lane is then its word's first
 * in the instruction, and this is what shared_reads does for a first
 * lane.  (A lane on a word an earlier lane took goes the way of
 * mem_words_k, so any access would come out right, only slower on a
 * broadcast's lanes.)
 */
static void shared_reads_apart(wmi_check *k, cur *x, const uint64_t *addr,
                               uint32_t ms)
{
    int init = (k->checks & WM_CHECK_INIT) != 0;
    unsigned low = (1u << x->size) - 1;
    uint32_t pc = x->pc, warp = x->warp, clock = x->clock;
    const uint32_t *vc = x->vc;
    uint64_t nsh = k->nsh;
    rec r = {pc, clock, (uint16_t)warp, 0, 0, x->rel, x->acq};
    uint64_t lo = rec_lo(&r), hi = rec_hi(&r, 0, x->strong);
    x->space = WM_SPACE_SHARED;
    x->buf = -1;
    for (uint32_t act = ms; act; act &= act - 1) {
        unsigned l = (unsigned)__builtin_ctz(act);
        uint64_t off = addr[l], wd = off / 4;
        if (wd >= nsh)
            continue;
        wmi_word *e = wmi_shword(k, wd);
        unsigned mk = low << (off & 3) & 15u;
        int clean = write_clean(&e->w, pc, warp, clock, vc, 1) &&
                    (!init || e->init == 15);
        if (clean && slot_other(&e->r[0], warp) &&
            slot_other(&e->r[1], warp)) {
            int f0 = slot_free(&e->r[0], vc);
            if (f0 || slot_free(&e->r[1], vc))
                rec_put(&e->r[f0 ? 0 : 1], lo,
                        hi | (uint64_t)l << 16 | (uint64_t)mk << 24);
            continue;
        }
        x->lane = l;
        x->addr = off;
        if (!clean) {
            check_word(k, e, mk, x, WMI_ACC_READ);
            if (init && (mk & ~e->init))
                hazard(k, WM_HAZ_UNINIT, NULL, 0, x);
        }
        record_word(k, e, mk, x, WMI_ACC_READ, 0);
    }
}

/*
 * Shared stores of at most 4 bytes with races checked: mem_words_k's
 * loop, lane by lane in the same order.  A lane whose word's last write
 * and both reads are ordered before the whole warp (rec_before) cannot
 * report anything, so only its record is made (the write slot and the
 * initialised bytes, as record_word and mem_words_k make them); every
 * other lane (a second lane of the store on the word, a hazard) is
 * checked and recorded as mem_words_k does.
 */
static void shared_writes(wmi_check *k, cur *x, const uint64_t *addr,
                          uint32_t ms)
{
    unsigned low = (1u << x->size) - 1;
    uint32_t pc = x->pc, warp = x->warp, clock = x->clock;
    const uint32_t *vc = x->vc;
    int intra = k->intra;
    rec r = {pc, clock, (uint16_t)warp, 0, 0, x->rel, x->acq};
    uint64_t lo = rec_lo(&r), hi = rec_hi(&r, 0, x->strong);
    assert((k->checks & WM_CHECK_RACE) && x->size <= 4);
    x->space = WM_SPACE_SHARED;
    x->buf = -1;
    for (uint32_t act = ms; act; act &= act - 1) {
        unsigned l = (unsigned)__builtin_ctz(act);
        uint64_t off = addr[l], wd = off / 4;
        if (wd >= k->nsh)
            continue;
        wmi_word *e = &k->sh[wd];
        unsigned mk = low << (off & 3) & 15u;
        /* (the lane's record: hi with its lane and bytes) */
        uint64_t hl = hi | (uint64_t)l << 16 | (uint64_t)mk << 24;
        if (e->cta != k->cta) { /* (wmi_shword, with its first branch
                                   finished here) */
            if (e->cta != (k->cta | SH_NAMED)) {
                /* the unit's first access to the word: an empty entry,
                   whose records are ordered before every lane */
                wmi_shword_claim(k, e, wd);
                rec_put(&e->w, lo, hl);
                e->init = mk;
                continue;
            }
            wmi_shrun_open(k, wd);
        }
        if (rec_before(&e->w, pc, warp, clock, vc, intra) &&
            rec_before(&e->r[0], pc, warp, clock, vc, intra) &&
            rec_before(&e->r[1], pc, warp, clock, vc, intra)) {
            rec_put(&e->w, lo, hl);
        } else {
            x->lane = l;
            x->addr = off;
            check_word(k, e, mk, x, WMI_ACC_WRITE);
            record_word(k, e, mk, x, WMI_ACC_WRITE, 0);
        }
        e->init |= mk;
    }
}

/* mem_words_k for x's kind. */
static void plain_words(wmi_check *k, cur *x, const uint64_t *addr,
                        uint32_t ms, uint32_t mg)
{
    switch (x->kind) {
    case WMI_ACC_READ:
        mem_words_k(k, x, addr, ms, mg, WMI_ACC_READ);
        return;
    case WMI_ACC_WRITE:
        mem_words_k(k, x, addr, ms, mg, WMI_ACC_WRITE);
        return;
    case WMI_ACC_ATOMIC:
        mem_words_k(k, x, addr, ms, mg, WMI_ACC_ATOMIC);
        return;
    }
}

/* Bit l: lanes l and l + 1 are both in m and lane l + 1's 4 bytes come
   right after lane l's. */
static uint32_t lane_steps(const cur *x, const uint64_t *addr, uint32_t m)
{
    if (x->step != WMI_STEP_NONE) /* (an affine warp: no lane read) */
        return x->step == 4 ? m & (m >> 1) : 0;
    uint32_t s = 0;
    /* (unrolled: as a loop it costs a third more) */
#pragma GCC unroll 31
    for (unsigned l = 0; l < 31; l++)
        s |= (uint32_t)(addr[l + 1] - addr[l] == 4) << l;
    return s & m & (m >> 1);
}

/* The lanes of the run that starts at lane l (steps: lane_steps), up to
   the end of the chunk of 32 words that lane l's word is in. */
static inline uint32_t run_at(uint32_t steps, unsigned l, const uint64_t *addr)
{
    unsigned n = (unsigned)__builtin_ctz(~(steps >> l)) + 1;
    unsigned room = 32 - (unsigned)(addr[l] / 4 % 32);
    n = n < room ? n : room;
    return (n >= 32 ? ~0u : (1u << n) - 1) << l;
}

/*
 * Global accesses of 4 bytes with races checked: mem_words_k's loop, lane
 * by lane in lane order, but a run of consecutive lanes on consecutive
 * aligned words of one chunk that the unit has not touched yet is
 * recorded at once (wmi_gwords_run): such words hold no record, so no
 * lane of the run can report anything, and each gets the record
 * mem_words_k would give it.  The lanes before a run are done first, so
 * the words are first touched in lane order, as they were.  A lane whose
 * word is its own run (a column store's) goes to wmi_gwords_run alone, and
 * a warp whose lanes make no step at all to wmi_gwords_lanes, all at once.
 */
static void global_runs(wmi_check *k, cur *x, const uint64_t *addr,
                        uint32_t mg)
{
    uint32_t steps = lane_steps(x, addr, mg), rest = 0;
    if (!steps) /* (every lane its own run) */
        mg &= ~wmi_gwords_lanes(k, x, x->kind, addr, mg);
    while (mg) {
        unsigned l = (unsigned)__builtin_ctz(mg);
        uint32_t lanes = steps >> l & 1 ? run_at(steps, l, addr) : 1u << l;
        mg &= ~lanes;
        if (addr[l] % 4 == 0) {
            if (rest)
                plain_words(k, x, addr, 0, rest);
            rest = 0;
            if (wmi_gwords_run(k, x, x->kind, addr[l] >> 2, l,
                               (unsigned)__builtin_popcount(lanes)))
                continue;
        }
        rest |= lanes;
    }
    if (rest)
        plain_words(k, x, addr, 0, rest);
}

/* The per-lane loop of shared accesses with races checked: with its
   shortcuts for stores and, lanes unordered, loads. */
static void shared_lanes(wmi_check *k, cur *x, const uint64_t *addr,
                         uint32_t ms)
{
    if (x->kind == WMI_ACC_WRITE)
        shared_writes(k, x, addr, ms);
    else if (x->kind == WMI_ACC_READ && k->intra && words_apart(x))
        shared_reads_apart(k, x, addr, ms);
    else if (x->kind == WMI_ACC_READ && k->intra)
        shared_reads(k, x, addr, ms);
    else
        plain_words(k, x, addr, ms, 0);
}

/* Lanes of run `lanes` (from lane l, on words from addr[l] / 4) to
   wmi_shrun, but for those on words the per-lane loop keeps, which go to
   *rest (done first, as every lane before a run); an instruction that
   finds every word of a run kept goes to the per-lane loop from then on
   (shlanes: which path records a lane changes nothing but the time). */
static void shared_run(wmi_check *k, cur *x, const uint64_t *addr,
                       uint32_t lanes, unsigned l, uint32_t *rest)
{
    uint64_t w0 = addr[l] >> 2;
    uint32_t kept = wmi_shrun_opened(k, w0, (unsigned)__builtin_popcount(
                                                lanes)) << l;
    if (kept == lanes) { /* (the per-lane loop keeps these words: it
                            serves the instruction from now on) */
        k->shlanes[x->pc] = 1;
        *rest |= lanes;
        return;
    }
    while (lanes) {
        unsigned s = (unsigned)__builtin_ctz(lanes);
        uint32_t free = lanes & ~kept;
        uint32_t part = kept >> s & 1 ? 1u << s
                                      : run_at(free & (free >> 1), s, addr);
        unsigned n = (unsigned)__builtin_popcount(part);
        lanes &= ~part;
        if (n >= 2) {
            if (*rest)
                shared_lanes(k, x, addr, *rest);
            *rest = 0;
            if (wmi_shrun(k, x, w0 + (s - l), s, n))
                continue;
        }
        *rest |= part;
    }
}

/*
 * Shared loads and stores of 4 bytes with races checked: shared_lanes,
 * but a run of at least 2 consecutive lanes on consecutive aligned words
 * of one chunk, none of which the per-lane loop keeps, is recorded at
 * once when no lane of it can report (ptx_check_shrun.c), each word as
 * the per-lane loop would record it (a broadcast's or a column's lanes,
 * one word each, stay with the per-lane loop, whose shortcuts serve them
 * better, and so do the instructions whose runs were opened, and those
 * whose first two lanes make no step).  The lanes before a run are done
 * first, in lane order as before.
 */
static void shared_runs(wmi_check *k, cur *x, const uint64_t *addr,
                        uint32_t ms)
{
    uint32_t second = ms & (ms - 1), steps = 0, rest = 0;
    /* (a run is looked for when the first two lanes make a step) */
    if (!k->shlanes[x->pc] && second &&
        addr[__builtin_ctz(second)] - addr[__builtin_ctz(ms)] == 4)
        steps = lane_steps(x, addr, ms);
    if (!steps) { /* no run: every lane one by one */
        shared_lanes(k, x, addr, ms);
        return;
    }
    while (ms) {
        unsigned l = (unsigned)__builtin_ctz(ms);
        uint32_t lanes = run_at(steps, l, addr);
        ms &= ~lanes;
        if (!(lanes & (lanes - 1)) || addr[l] % 4 ||
            (addr[l] >> 2) + (unsigned)__builtin_popcount(lanes) > k->nsh)
            rest |= lanes;
        else
            shared_run(k, x, addr, lanes, l, &rest);
    }
    if (rest)
        shared_lanes(k, x, addr, rest);
}

static void mem_words(wmi_check *k, cur *x, const uint64_t *addr, uint32_t ms,
                      uint32_t mg)
{
    int race = (k->checks & WM_CHECK_RACE) != 0;
    if (race && !k->slow) {
        if (!mg && x->size == 4 && x->kind != WMI_ACC_ATOMIC) {
            x->space = WM_SPACE_SHARED;
            x->buf = -1;
            shared_runs(k, x, addr, ms);
            return;
        }
        if (!mg && (x->kind == WMI_ACC_WRITE ||
                    (x->kind == WMI_ACC_READ && k->intra))) {
            shared_lanes(k, x, addr, ms);
            return;
        }
        if (!ms && x->size == 4) {
            global_runs(k, x, addr, mg);
            return;
        }
    }
    plain_words(k, x, addr, ms, mg);
}

/* Stores wider than a word: lanes of the instruction at the same address
   with different values (a small table of the addresses seen). */
static void lane_collisions(wmi_check *k, cur *x, const uint64_t *addr,
                            uint32_t ms, uint32_t mg)
{
    uint32_t act = ms | mg;
    uint8_t slot[64];
    memset(slot, 0xff, sizeof slot);
    for (unsigned l = 0; l < 32; l++) {
        if (!(act >> l & 1))
            continue;
        uint32_t s = (uint32_t)((addr[l] * 0x9e3779b97f4a7c15ull) >> 58);
        while (slot[s] != 0xff && addr[slot[s]] != addr[l])
            s = (s + 1) & 63;
        if (slot[s] == 0xff) {
            slot[s] = (uint8_t)l;
            continue;
        }
        if (same_store(x, slot[s], l))
            continue;
        rec r = {x->pc, x->clock, (uint16_t)x->warp, slot[s], REC_BYTES, 0, 0};
        cur y = *x;
        y.lane = l;
        y.space = (int)WM_SPACE_SHARED;
        y.addr = addr[l];
        y.buf = -1;
        uint32_t bi;
        if (mg >> l & 1) {
            y.space = WM_SPACE_GLOBAL;
            y.buf = wmi_check_gbuf(k, addr[l], &bi);
            y.addr = addr[l] & WMI_WIN_MASK;
        }
        hazard(k, WM_HAZ_WARP_WAW, &r, 1, &y);
    }
}

/* The shared addresses of the lanes in ms (a CTA's own offsets, or with
   the rank bits of another CTA of the cluster) as offsets in the
   cluster's shadow, into out; the other lanes' addresses copied. */
static const uint64_t *cluster_addrs(const wmi_check *k, const wmi_cta *c,
                                     const uint64_t *addr, uint32_t ms,
                                     uint64_t *out)
{
    memcpy(out, addr, 32 * sizeof *out);
    for (; ms; ms &= ms - 1) {
        unsigned l = (unsigned)__builtin_ctz(ms);
        uint64_t r = addr[l] >> WMI_DSMEM_SHIFT;
        r = r ? r - 1 : c->unit;
        out[l] = r * k->csh * 4 + (addr[l] & WMI_DSMEM_OFF);
    }
    return out;
}

/* wmi_check_mem, the lanes' step known (wmi_check_fast) or not */
static void check_mem(wmi_cta *c, const wmi_warp *w, uint32_t pc,
                      wmi_acc_kind kind, unsigned size, const uint64_t *addr,
                      uint32_t ms, uint32_t mg, int64_t step)
{
    wmi_check *k = c->chk;
    assert(k && size > 0);
    uint32_t g = gwarp(k, c, w);
    uint64_t caddr[32];
    if (k->ncl > 1 && ms) {
        addr = cluster_addrs(k, c, addr, ms, caddr);
        step = WMI_STEP_NONE;
    }
    /* field by field: an initialiser zeroes the whole struct first, with
       `rep stos` (slow to start) once it grew past 80 bytes */
    cur x;
    x.pc = pc;
    x.warp = g;
    x.clock = k->vc[(size_t)g * k->nw + g];
    x.kind = kind;
    x.size = size;
    x.rel = x.acq = 0;
    x.strong = 0;
    x.vc = &k->vc[(size_t)g * k->nw];
    x.c = c;
    x.w = w;
    x.lane_addr = addr;
    x.step = step;
    x.lane = 0;
    x.space = WM_SPACE_SHARED;
    x.buf = -1;
    x.addr = 0;
    unsigned sync = k->grid ? c->m->code[pc].sync : 0;
    if ((sync & WMI_SYNC_CTA) && cta_scope_unordered(k))
        sync = 0;
    int cta = (sync & WMI_SYNC_CTA) != 0; /* orders no other CTA */
    /* a strong write releases after the warp's fence, as in
       wmi_flag_access */
    int rel = (sync & WMI_SYNC_REL) || k->cfence[g];
    if (sync & WMI_SYNC_STRONG) {
        if ((sync & WMI_SYNC_REL) && kind != WMI_ACC_READ && !cta && mg)
            wmi_grid_release(k->grid); /* before the flag's write */
        x.strong = (uint8_t)(REC_STRONG | (cta ? REC_CTA : 0));
        if (ms && (kind == WMI_ACC_READ || rel))
            x.strong |= REC_FLAG;
    }
    if (k->grid) {
        x.rel = wmi_grid_rel(k->grid);
        x.acq = wmi_grid_acq(k->grid);
    }
    if (size <= 4) {
        mem_words(k, &x, addr, ms, mg);
    } else {
        if (kind == WMI_ACC_WRITE && (k->checks & WM_CHECK_RACE))
            lane_collisions(k, &x, addr, ms, mg);
        for (int pass = 0; pass < 2; pass++)
            for (unsigned l = 0; l < 32; l++) {
                if (!((ms | mg) >> l & 1))
                    continue;
                x.lane = l;
                lane_access(k, &x, addr[l], (mg >> l & 1) != 0, pass);
            }
    }
    if (!(sync & WMI_SYNC_STRONG))
        return;
    /* only a release makes a flag's clock: without one, and none made
       yet, the flags have nothing to do (a histogram's atomics) */
    int flags = k->nfl || (kind != WMI_ACC_READ && rel);
    for (unsigned l = 0; l < 32; l++) {
        if ((mg >> l & 1) && !cta)
            wmi_grid_strong(k->grid, addr[l] / 4, sync, kind != WMI_ACC_WRITE,
                            kind != WMI_ACC_READ);
        if (flags && ((ms | mg) >> l & 1))
            /* (a shared word's flag has its own key) */
            wmi_flag_access(k, g,
                            (ms >> l & 1 ? WMI_FLAG_SHARED : 0) | addr[l] / 4,
                            sync, kind != WMI_ACC_WRITE, kind != WMI_ACC_READ);
    }
}

void wmi_check_mem(wmi_cta *c, const wmi_warp *w, uint32_t pc,
                   wmi_acc_kind kind, unsigned size, const uint64_t *addr,
                   uint32_t ms, uint32_t mg)
{
    check_mem(c, w, pc, kind, size, addr, ms, mg, WMI_STEP_NONE);
}

void wmi_check_fast(wmi_cta *c, const wmi_warp *w, const wmi_insn *in,
                    uint32_t pc, uint32_t m, int store, int64_t step)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    uint32_t vals = store ? in->b : in->d;
    unsigned n = (vals & WMI_VEC) ? c->m->pool[vals & ~WMI_VEC] : 1;
    if (in->space != SP_SHARED && in->space != SP_GLOBAL)
        return; /* ld.param */
    check_mem(c, w, pc, store ? WMI_ACC_WRITE : WMI_ACC_READ,
              (bits < 8 ? 1 : bits / 8) * n, c->acc.addr,
              in->space == SP_SHARED ? m : 0, in->space == SP_GLOBAL ? m : 0,
              m == ~0u ? step : WMI_STEP_NONE);
}

void wmi_check_block(wmi_cta *c, const wmi_warp *w, uint32_t pc, unsigned l,
                     wmi_space sp, uint64_t addr, uint64_t size, int write)
{
    uint64_t a[32] = {0};
    if ((sp != SP_SHARED && sp != SP_GLOBAL) || !size || size > UINT32_MAX ||
        l >= 32)
        return;
    a[l] = addr;
    wmi_check_mem(c, w, pc, write ? WMI_ACC_WRITE : WMI_ACC_READ,
                  (unsigned)size, a, sp == SP_SHARED ? 1u << l : 0,
                  sp == SP_GLOBAL ? 1u << l : 0);
}
