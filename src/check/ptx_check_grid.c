/*
 * ptx_check_grid.c -- races between the CTAs of a launch for `warpmem run
 * --check race` (ptx_check_int.h states the model; docs/check.md is the
 * user's view).
 *
 * The interpreter runs the CTAs of a checked launch one after another, so
 * nothing orders two CTAs' accesses to global memory but what the kernel
 * does to order them: a release (a GPU- or system-scope fence, or a
 * .release store or atomic) followed by a strong write of a flag word, and
 * an acquire (a strong read of that word: an atomic or an .acquire load at
 * once, a .volatile or .relaxed load at the reader's next GPU-scope fence).
 * Each CTA counts its releases (rel) and its completed acquires (acq);
 * every global access is stamped with both.  A flag word keeps the
 * (CTA, release count) pairs published into it: a strong store replaces
 * them, an atomic adds its own (a release sequence), and a publisher's own
 * acquisitions travel with it.  Access (A, rel a) is ordered before an
 * access of the current CTA stamped acq b iff the current CTA completed an
 * acquire, numbered q <= b, of a release of A numbered k > a.
 *
 * The shadow across CTAs holds, for every 4-byte word of each argument
 * buffer of at most WMI_GRID_MAX_BUF bytes, the last write and the last
 * read that reached the end of their CTA, in chunks of 32 words
 * (ptx_check_xchunk.c) allocated 256 at a time when first written (zeroed
 * by the allocation, so each page of the shadow faults once, written; a
 * page first read would fault twice, mapped and then copied).  ptx_check.c
 * folds each CTA's words into it when the CTA ends (wmi_check_cta_begin of
 * the next one, or the finish).
 */
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

#define SYNC_WORDS 4096u   /* flag words with published releases */
#define BLOCK_CHUNKS 256u  /* chunks allocated together (12 KiB) */
#define MAX_PUB 65536u     /* (CTA, release) pairs of one flag word */

typedef struct pub {
    uint32_t cta;
    uint16_t k;
} pub;

typedef struct syncw {
    uint64_t key; /* word address + 1; 0 empty */
    pub *e;
    uint32_t n, cap;
} syncw;

struct wmi_grid {
    const wmi_gbuf *gbufs;
    uint32_t nbufs;
    wmi_xchunk ***xc;    /* per argument buffer: its blocks of chunks (a
                            NULL block: nothing recorded there yet) */
    uint8_t *untracked;  /* per buffer: too large, or out of memory */
    syncw *sw;           /* SYNC_WORDS slots */
    /* the current CTA */
    uint32_t seq;
    uint16_t rel, acq;
    /* its acquisitions, by source CTA: the first (k1 at q1) and the one of
       the highest release (kb at qb); touched lists the CTAs to reset */
    uint16_t *k1, *q1, *kb, *qb;
    uint32_t *touched, ntouched, ncap;
    pub *pending;        /* read by a .volatile/.relaxed load, not yet
                            acquired (no fence since) */
    uint32_t npending, pcap;
    unsigned (*ctaid)[3]; /* blockIdx of each CTA number */
    uint32_t idcap;
    wmi_xpool pool;       /* the chunks' word records */
    int oom;
};

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    uint32_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q)
        return 0;
    memset((char *)q + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *p = q;
    *cap = nc;
    return 1;
}

/* Blocks of chunks of buffer buf. */
static uint64_t nblocks(const wmi_grid *g, uint32_t buf)
{
    uint64_t chunks = (g->gbufs[buf].bytes + 127) / 128;
    return (chunks + BLOCK_CHUNKS - 1) / BLOCK_CHUNKS;
}

static void free_chunks(wmi_grid *g, uint32_t buf)
{
    wmi_xchunk **b = g->xc[buf];
    if (!b)
        return;
    for (uint64_t i = 0, n = nblocks(g, buf); i < n; i++)
        free(b[i]);
    free(b);
}

wmi_grid *wmi_grid_new(const wmi_gbuf *gbufs, uint32_t nbufs)
{
    wmi_grid *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->gbufs = gbufs;
    g->nbufs = nbufs;
    g->xc = calloc(nbufs ? nbufs : 1, sizeof *g->xc);
    g->untracked = calloc(nbufs ? nbufs : 1, 1);
    g->sw = calloc(SYNC_WORDS, sizeof *g->sw);
    if (!g->xc || !g->untracked || !g->sw) {
        wmi_grid_free(g);
        return NULL;
    }
    return g;
}

void wmi_grid_free(wmi_grid *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; g->xc && i < g->nbufs; i++)
        free_chunks(g, i);
    for (uint32_t i = 0; g->sw && i < SYNC_WORDS; i++)
        free(g->sw[i].e);
    free(g->xc);
    free(g->untracked);
    free(g->sw);
    free(g->k1);
    free(g->q1);
    free(g->kb);
    free(g->qb);
    free(g->touched);
    free(g->pending);
    free(g->ctaid);
    wmi_xpool_free(&g->pool);
    free(g);
}

wmi_xpool *wmi_grid_pool(wmi_grid *g)
{
    return &g->pool;
}

int wmi_grid_oom(const wmi_grid *g)
{
    return g->oom;
}

void wmi_grid_cta_begin(wmi_grid *g, uint32_t seq, const unsigned ctaid[3])
{
    for (uint32_t i = 0; i < g->ntouched; i++) {
        uint32_t a = g->touched[i];
        g->k1[a] = g->q1[a] = g->kb[a] = g->qb[a] = 0;
    }
    g->ntouched = g->npending = 0;
    g->rel = g->acq = 0;
    g->seq = seq;
    uint32_t acap = g->ncap;
    if (!grow((void **)&g->ctaid, &g->idcap, seq + 1, sizeof *g->ctaid)) {
        g->oom = 1;
        return;
    }
    memcpy(g->ctaid[seq], ctaid, sizeof g->ctaid[seq]);
    /* the acquisition arrays, indexed by CTA number */
    uint32_t c1 = acap, c2 = acap, c3 = acap, c4 = acap, c5 = acap;
    int ok = grow((void **)&g->k1, &c1, seq + 1, sizeof *g->k1) &&
             grow((void **)&g->q1, &c2, seq + 1, sizeof *g->q1) &&
             grow((void **)&g->kb, &c3, seq + 1, sizeof *g->kb) &&
             grow((void **)&g->qb, &c4, seq + 1, sizeof *g->qb) &&
             grow((void **)&g->touched, &c5, seq + 1, sizeof *g->touched);
    if (!ok) {
        g->oom = 1;
        return;
    }
    g->ncap = c1;
}

void wmi_grid_ctaid(const wmi_grid *g, uint32_t seq, unsigned out[3])
{
    if (seq < g->idcap)
        memcpy(out, g->ctaid[seq], 3 * sizeof *out);
    else
        out[0] = out[1] = out[2] = 0;
}

uint16_t wmi_grid_rel(const wmi_grid *g)
{
    return g->rel;
}

uint16_t wmi_grid_acq(const wmi_grid *g)
{
    return g->acq;
}

void wmi_grid_release(wmi_grid *g)
{
    if (g->rel < UINT16_MAX)
        g->rel++;
}

/* The current CTA acquires release k of CTA a as its acquire number q. */
static void acquire_one(wmi_grid *g, uint32_t a, uint16_t k, uint16_t q)
{
    if (a == g->seq || a >= g->ncap || !k)
        return;
    if (!g->k1[a]) {
        g->k1[a] = g->kb[a] = k;
        g->q1[a] = g->qb[a] = q;
        g->touched[g->ntouched++] = a;
    } else if (k > g->kb[a]) {
        g->kb[a] = k;
        g->qb[a] = q;
    }
}

/* Complete the pending acquires (a fence of the current CTA). */
static void acquire_pending(wmi_grid *g)
{
    if (!g->npending)
        return;
    if (g->acq < UINT16_MAX)
        g->acq++;
    for (uint32_t i = 0; i < g->npending; i++)
        acquire_one(g, g->pending[i].cta, g->pending[i].k, g->acq);
    g->npending = 0;
}

void wmi_grid_fence(wmi_grid *g)
{
    acquire_pending(g);
    wmi_grid_release(g);
}

int wmi_grid_ordered(const wmi_grid *g, uint32_t a, uint16_t rel,
                     uint16_t acq)
{
    if (a == g->seq)
        return 1;
    if (a >= g->ncap || !g->k1[a])
        return 0;
    return (g->k1[a] > rel && g->q1[a] <= acq) ||
           (g->kb[a] > rel && g->qb[a] <= acq);
}

/* The flag word at word address wa (created when make), or NULL. */
static syncw *sync_word(wmi_grid *g, uint64_t wa, int make)
{
    uint64_t key = wa + 1;
    uint32_t s = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) &
                 (SYNC_WORDS - 1);
    for (uint32_t n = 0; n < SYNC_WORDS; n++, s = (s + 1) & (SYNC_WORDS - 1)) {
        if (g->sw[s].key == key)
            return &g->sw[s];
        if (!g->sw[s].key) {
            if (!make)
                return NULL;
            g->sw[s].key = key;
            return &g->sw[s];
        }
    }
    return NULL; /* full: this word orders nothing (said in docs/check.md) */
}

/* Add (a, k) to w: a's entry raised to k, else appended. */
static void publish(wmi_grid *g, syncw *w, uint32_t a, uint16_t k)
{
    for (uint32_t i = w->n; i-- > 0;)
        if (w->e[i].cta == a) {
            if (k > w->e[i].k)
                w->e[i].k = k;
            return;
        }
    if (w->n >= MAX_PUB)
        return;
    if (!grow((void **)&w->e, &w->cap, w->n + 1, sizeof *w->e)) {
        g->oom = 1;
        return;
    }
    w->e[w->n].cta = a;
    w->e[w->n].k = k;
    w->n++;
}

void wmi_grid_strong(wmi_grid *g, uint64_t wa, unsigned sync, int reads,
                     int writes)
{
    if (reads) {
        syncw *w = sync_word(g, wa, 0);
        if (w && w->n) {
            int now = (sync & (WMI_SYNC_ACQ | WMI_SYNC_RMW)) != 0;
            if (now && g->acq < UINT16_MAX)
                g->acq++;
            for (uint32_t i = 0; i < w->n; i++) {
                if (now) {
                    acquire_one(g, w->e[i].cta, w->e[i].k, g->acq);
                } else if (grow((void **)&g->pending, &g->pcap,
                                g->npending + 1, sizeof *g->pending)) {
                    g->pending[g->npending++] = w->e[i];
                } else {
                    g->oom = 1;
                }
            }
        }
    }
    if (!writes)
        return;
    syncw *w = sync_word(g, wa, g->rel != 0);
    if (!w)
        return;
    if (!(sync & WMI_SYNC_RMW))
        w->n = 0; /* a store ends the release sequence */
    if (!g->rel)
        return;
    publish(g, w, g->seq, g->rel);
    for (uint32_t i = 0; i < g->ntouched; i++) /* what this CTA acquired */
        publish(g, w, g->touched[i], g->kb[g->touched[i]]);
}

wmi_xchunk *wmi_grid_chunk(wmi_grid *g, uint32_t buf, uint64_t off, int make,
                           uint32_t *valid)
{
    if (buf >= g->nbufs || g->untracked[buf] || off >= g->gbufs[buf].bytes)
        return NULL;
    if (!g->xc[buf]) {
        if (!make)
            return NULL;
        if (g->gbufs[buf].bytes > WMI_GRID_MAX_BUF ||
            !(g->xc[buf] = calloc(nblocks(g, buf), sizeof *g->xc[buf]))) {
            g->untracked[buf] = 1;
            return NULL;
        }
    }
    uint64_t c = off / 128;
    wmi_xchunk **b = &g->xc[buf][c / BLOCK_CHUNKS];
    if (!*b) {
        if (!make)
            return NULL;
        if (!(*b = calloc(BLOCK_CHUNKS, sizeof **b))) {
            g->oom = 1;
            return NULL;
        }
    }
    uint64_t words = (g->gbufs[buf].bytes - off + 3) / 4; /* starting in it */
    *valid = words >= 32 ? ~0u : (1u << words) - 1;
    return &(*b)[c % BLOCK_CHUNKS];
}

/* ---- decoding --------------------------------------------------------- */

uint8_t wmi_sync_decode(const char *s, size_t n, unsigned op)
{
    int cta = wmi_has_word(s, n, "cta");
    if (op == OP_NOP) {
        if (n >= 6 && memcmp(s, "membar", 6) == 0)
            return wmi_has_word(s, n, "gl") || wmi_has_word(s, n, "sys")
                       ? WMI_SYNC_FENCE | WMI_SYNC_GPU
                   : cta ? WMI_SYNC_FENCE | WMI_SYNC_CTA
                         : 0;
        if (n < 5 || memcmp(s, "fence", 5) != 0 ||
            wmi_has_word(s, n, "proxy") ||
            wmi_has_word(s, n, "mbarrier_init"))
            return 0;
        if (cta)
            return WMI_SYNC_FENCE | WMI_SYNC_CTA;
        if (wmi_has_word(s, n, "gpu") || wmi_has_word(s, n, "sys"))
            return WMI_SYNC_FENCE | WMI_SYNC_GPU;
        return wmi_has_word(s, n, "cluster") ? WMI_SYNC_FENCE : 0;
    }
    if (op != OP_LD && op != OP_ST && op != OP_ATOM && op != OP_RED)
        return 0;
    uint8_t f = 0;
    if (op == OP_ATOM || op == OP_RED)
        f = WMI_SYNC_RMW | WMI_SYNC_STRONG | (cta ? WMI_SYNC_CTA : 0);
    else if (wmi_has_word(s, n, "volatile") || wmi_has_word(s, n, "relaxed") ||
             wmi_has_word(s, n, "acquire") || wmi_has_word(s, n, "release"))
        f = WMI_SYNC_STRONG | (cta ? WMI_SYNC_CTA : 0);
    if (!(f & WMI_SYNC_STRONG))
        return f;
    if (wmi_has_word(s, n, "acquire") || wmi_has_word(s, n, "acq_rel"))
        f |= WMI_SYNC_ACQ;
    if (wmi_has_word(s, n, "release") || wmi_has_word(s, n, "acq_rel"))
        f |= WMI_SYNC_REL;
    return f;
}
