/*
 * cache_tlb.c -- the TLBs of the hierarchy model (docs/hierarchy.md, "TLB
 * reach"): one L1 TLB per SM in front of a shared L2 TLB, both fully
 * associative and LRU, each entry mapping one page of the GPU's entry
 * size.  An access looks up the page of each run of its lines that share
 * one; an L1 TLB miss looks up the L2 TLB.  The misses of a load lengthen
 * its latency (cache_time.c) by the GPU's miss latencies.
 */
#include "cache_int.h"

/* log2 of a power of two. */
static unsigned log2u(uint64_t x)
{
    return (unsigned)__builtin_ctzll(x);
}

int wmi_ctlb_init(wmi_ctlb *t, const wm_gpu *g, unsigned nsms)
{
    memset(t, 0, sizeof *t);
    if (!g->tlb1_entries || !g->tlb2_entries || !g->tlb1_page ||
        !g->tlb2_page)
        return 1; /* no TLB figures: nothing modelled */
    t->n1 = g->tlb1_entries;
    t->n2 = g->tlb2_entries;
    t->sh1 = log2u(g->tlb1_page);
    t->sh2 = log2u(g->tlb2_page);
    t->lat1 = g->lat_tlb1;
    t->lat2 = g->lat_tlb2;
    t->l1 = calloc((size_t)nsms * t->n1, sizeof *t->l1);
    t->l2 = calloc(t->n2, sizeof *t->l2);
    return t->l1 && t->l2;
}

void wmi_ctlb_free(wmi_ctlb *t)
{
    free(t->l1);
    free(t->l2);
    memset(t, 0, sizeof *t);
}

/* Look page p up in the n entries of e (page + 1, most recent first, 0
 * empty) and make it the most recent; 1 on a hit. */
static int touch(uint64_t *e, unsigned n, uint64_t p)
{
    if (e[0] == p + 1) /* the most recent page: a hit that moves nothing */
        return 1;
    unsigned i = 0;
    while (i < n && e[i] && e[i] != p + 1)
        i++;
    int hit = i < n && e[i] == p + 1;
    if (i == n)
        i--; /* full and absent: the LRU entry goes */
    if (i) /* (a call even for no bytes) */
        memmove(e + 1, e, i * sizeof *e);
    e[0] = p + 1;
    return hit;
}

/* The page of the line that starts at byte, on SM l1 (an entry of the
 * access's run); the largest miss cost so far in *add. */
static void translate(wmi_ctlb *t, uint64_t *l1, uint64_t byte,
                      wm_cache_stats *st, double *add)
{
    if (touch(l1, t->n1, byte >> t->sh1))
        return;
    st->tlb1_misses++;
    double c = t->lat1;
    if (!touch(t->l2, t->n2, byte >> t->sh2)) {
        st->tlb2_misses++;
        c += t->lat2;
    }
    if (c > *add)
        *add = c;
}

/* The line starting at byte, the next of an access's lines: translated
 * unless it shares the page of the line before (*last). */
static void next_line(wmi_ctlb *t, uint64_t *l1, uint64_t byte,
                      uint64_t *last, wm_cache_stats *st, double *add)
{
    uint64_t p = byte >> t->sh1;
    if (p == *last)
        return;
    *last = p;
    translate(t, l1, byte, st, add);
}

double wmi_ctlb_access(wmi_ctlb *t, unsigned sm, const uint64_t *line,
                       unsigned nl, wm_cache_stats *st)
{
    if (!t->n1)
        return 0;
    uint64_t *l1 = t->l1 + (size_t)sm * t->n1;
    double add = 0;
    uint64_t last = UINT64_MAX;
    /* line words hold the line index above bit 16; lines are 128 B */
    for (unsigned i = 0; i < nl; i++)
        next_line(t, l1, (line[i] >> 16) << WMI_LINE_SHIFT, &last, st, &add);
    return add;
}

double wmi_ctlb_column(wmi_ctlb *t, unsigned sm, uint64_t x0, int64_t d,
                       wm_cache_stats *st)
{
    if (!t->n1)
        return 0;
    uint64_t *l1 = t->l1 + (size_t)sm * t->n1;
    double add = 0;
    /* Below 2^55 (where a line word keeps the whole line index) and with
     * |d| < 2^57, the lanes' addresses rise or fall with l without
     * wrapping: when the first and the last lane share a page, every lane
     * is in it. */
    const uint64_t top = (uint64_t)1 << 55;
    uint64_t a31 = x0 + 31 * (uint64_t)d;
    if (x0 < top && a31 < top && x0 >> t->sh1 == a31 >> t->sh1) {
        translate(t, l1, x0 >> 7 << 7, st, &add);
        return add;
    }
    uint64_t last = UINT64_MAX, a = x0;
    /* each line's byte as its line word keeps it (48 bits of index) */
    for (unsigned l = 0; l < 32; l++, a += (uint64_t)d)
        next_line(t, l1, (a >> 7) << 16 >> 9, &last, st, &add);
    return add;
}
