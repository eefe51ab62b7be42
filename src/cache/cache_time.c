/*
 * cache_time.c -- the latency and pipe terms of the memory time, gathered
 * while the hierarchy model replays a wave (docs/hierarchy.md, "The
 * memory-time estimate").
 *
 * Within a barrier interval each warp of a CTA issues its loads in groups
 * (cache_dep.c); a group costs the latency of its slowest access (L1 hit,
 * L2 hit or DRAM) plus its largest TLB miss latency (cache_tlb.c), and a
 * warp's chain is the sum over its groups.  The
 * interval lasts, for the CTA alone, its longest chain; the CTA passes the
 * barrier, and the next interval starts.  The R CTAs resident on an SM
 * overlap their chains (Little's law: R times the bytes in flight), so
 * each adds chain / R to the SM's latency cycles, unless their groups ask
 * for more L1 misses in flight than the SM's miss slots hold: then a group
 * lasts its latency times the ratio (Little's law with the slots as the
 * bytes in flight).  The L1/shared pipe's
 * cycles add up per SM without overlap: a CTA's shared-memory phase after
 * a barrier runs in series with its loads.
 */
#include "cache_int.h"

#include <stdio.h>

int wmi_ctime_init(wmi_ctime *t, unsigned nsms)
{
    memset(t, 0, sizeof *t);
    t->nsms = nsms;
    t->sm_lat = calloc(nsms, sizeof *t->sm_lat);
    t->sm_pipe = calloc(nsms, sizeof *t->sm_pipe);
    t->res = calloc(nsms, sizeof *t->res);
    return t->sm_lat && t->sm_pipe && t->res;
}

void wmi_ctime_free(wmi_ctime *t)
{
    free(t->sm_lat);
    free(t->sm_pipe);
    free(t->res);
    free(t->iv);
    free(t->w);
    free(t->cta_lat);
    free(t->cta_pipe);
    free(t->cta_iv);
    memset(t, 0, sizeof *t);
}

int wmi_ctime_wave(wmi_ctime *t, size_t ncta, unsigned nw)
{
    free(t->w);
    free(t->cta_lat);
    free(t->cta_pipe);
    free(t->cta_iv);
    t->ncta = ncta;
    t->ctas += ncta;
    t->nw = nw;
    t->w = calloc(ncta * nw, sizeof *t->w);
    t->cta_lat = calloc(ncta, sizeof *t->cta_lat);
    t->cta_pipe = calloc(ncta, sizeof *t->cta_pipe);
    t->cta_iv = calloc(ncta, sizeof *t->cta_iv);
    if (!t->w || !t->cta_lat || !t->cta_pipe || !t->cta_iv)
        return 0;
    for (size_t i = 0; i < ncta * nw; i++)
        t->w[i].level = -1;
    memset(t->res, 0, t->nsms * sizeof *t->res);
    for (size_t k = 0; k < ncta; k++)
        t->res[k % t->nsms]++;
    return 1;
}

static double level_lat(const wm_gpu *g, int level)
{
    return level == 0 ? g->lat_l1 : level == 1 ? g->lat_l2 : g->lat_dram;
}

/* A group of a warp costs its slowest level's latency, lengthened by the
 * largest TLB miss among its loads (a miss delays the requests of its
 * access). */
static void close_group(wmi_ctime *t, const wm_gpu *g, wmi_cwarp *w)
{
    if (w->level < 0)
        return;
    w->chain += level_lat(g, w->level) + w->tlb;
    w->groups++;
    w->missed += w->miss;
    t->groups++;
    t->group_bytes += w->bytes;
    t->tlb_groups += w->tlb > 0;
    w->level = -1;
    w->tlb = 0;
    w->bytes = 0;
    w->miss = 0;
}

void wmi_ctime_load(wmi_ctime *t, const wm_gpu *g, size_t k, unsigned wp,
                    int level, double tlb, uint64_t bytes, uint64_t miss,
                    int lead)
{
    assert(k < t->ncta && wp < t->nw);
    wmi_cwarp *w = &t->w[k * t->nw + wp];
    if (wp + 1 > t->warps_cta)
        t->warps_cta = wp + 1;
    if (lead)
        close_group(t, g, w);
    if (level > w->level)
        w->level = level;
    if (tlb > w->tlb)
        w->tlb = tlb;
    w->bytes += bytes;
    w->miss += miss;
}

void wmi_ctime_pipe(wmi_ctime *t, size_t k, double cycles)
{
    assert(k < t->ncta);
    t->cta_pipe[k] += cycles;
}

/* How many times over an SM's miss slots the res CTAs on it fill them
 * when each has its interval's L1 misses (missed bytes) spread over its
 * longest chain's groups (rounds): at least 1.  Every warp of a CTA has
 * its current group in flight at once, so a round asks res x missed /
 * rounds bytes of the slots (Little's law with the slots as the bytes in
 * flight: a round lasts its latency times the ratio). */
static double slot_rounds(wmi_ctime *t, unsigned res, double missed,
                          unsigned rounds)
{
    if (rounds == 0)
        return 1;
    double ask = res * missed / rounds;
    t->ask_sum += ask * rounds;
    t->ask_rounds += rounds;
    if (t->cap <= 0 || ask <= t->cap)
        return 1;
    t->capped_ivs++;
    return ask / t->cap;
}

/* Close CTA k's open interval: its longest chain, stretched when the
 * resident CTAs ask for more L1 misses in flight than the SM's miss slots
 * hold, and its pipe cycles go to its SM and to the interval's totals. */
static int flush(wmi_ctime *t, const wm_gpu *g, size_t k)
{
    double lat = 0, missed = 0;
    unsigned rounds = 0;
    for (unsigned wp = 0; wp < t->nw; wp++) {
        wmi_cwarp *w = &t->w[k * t->nw + wp];
        close_group(t, g, w);
        if (w->chain > lat)
            lat = w->chain;
        if (w->groups > rounds)
            rounds = w->groups;
        missed += (double)w->missed;
        w->chain = 0;
        w->groups = 0;
        w->missed = 0;
    }
    unsigned sm = (unsigned)(k % t->nsms), iv = t->cta_iv[k];
    lat *= slot_rounds(t, t->res[sm], missed, rounds);
    double l = lat / t->res[sm], p = t->cta_pipe[k];
    t->cta_pipe[k] = 0;
    if (l == 0 && p == 0)
        return 1;
    t->sm_lat[sm] += l;
    t->sm_pipe[sm] += p;
    if (iv >= t->capiv) {
        size_t nc = t->capiv ? t->capiv : 8;
        while (nc <= iv)
            nc *= 2;
        wmi_ctime_iv *q = realloc(t->iv, nc * sizeof *q);
        if (!q)
            return 0;
        memset(q + t->capiv, 0, (nc - t->capiv) * sizeof *q);
        t->iv = q;
        t->capiv = nc;
    }
    if (iv >= t->niv)
        t->niv = iv + 1;
    t->iv[iv].lat += l;
    t->iv[iv].pipe += p;
    return 1;
}

int wmi_ctime_interval(wmi_ctime *t, const wm_gpu *g, size_t k, unsigned iv)
{
    assert(k < t->ncta);
    if (iv == t->cta_iv[k])
        return 1;
    int ok = flush(t, g, k);
    t->cta_iv[k] = iv;
    return ok;
}

int wmi_ctime_wave_end(wmi_ctime *t, const wm_gpu *g)
{
    int ok = 1;
    for (size_t k = 0; k < t->ncta; k++)
        ok &= flush(t, g, k);
    return ok;
}
