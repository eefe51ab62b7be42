/*
 * ptx_check_hazard.c -- the hazards `warpmem run --check` found, as the
 * tracker (ptx_check.c, ptx_check_gwords.c) reports them: one entry per
 * (kind, earlier instruction, later instruction, within or between units),
 * holding its first occurrence with both accesses' block, warp, lane and
 * thread, and the number of occurrences; an open-addressing index finds
 * the entry.  Past MAX_HAZARDS entries new pairs are only counted
 * (dropped).
 */
#include "ptx_check_state.h"

#include <string.h>

/* blockIdx of rank r of the cluster whose rank 0 is base. */
static void rank_ctaid(const wmi_check *k, const unsigned base[3], uint32_t r,
                       unsigned out[3])
{
    out[0] = base[0] + r % k->cdim[0];
    out[1] = base[1] + r / k->cdim[0] % k->cdim[1];
    out[2] = base[2] + r / (k->cdim[0] * k->cdim[1]);
}

/* Access a of warp (of the clocks) of the current unit, or of the earlier
   one whose rank 0 is blockIdx base. */
static void fill_access(const wmi_check *k, wm_ptx_hazard_access *a,
                        uint32_t pc, uint32_t warp, uint32_t lane, int write,
                        int atomic, const unsigned *base)
{
    uint32_t r = warp / k->nwarps, t;
    warp %= k->nwarps;
    t = warp * 32 + lane;
    if (base)
        rank_ctaid(k, base, r, a->cta);
    else
        memcpy(a->cta, k->ctaid[r], sizeof a->cta);
    a->rank = k->coop ? 0 : r; /* (a cooperative grid is no cluster) */
    a->insn = pc;
    a->warp = warp;
    a->lane = lane;
    a->thread[0] = t % k->block[0];
    a->thread[1] = t / k->block[0] % k->block[1];
    a->thread[2] = t / (k->block[0] * k->block[1]);
    a->write = write;
    a->atomic = atomic;
}

void wmi_check_hazard(wmi_check *k, wm_hazard_kind kind, const rec *prior,
                      int prior_write, const cur *x,
                      const unsigned *first_cta)
{
    uint32_t pc1 = prior ? prior->pc : UINT32_MAX;
    unsigned inter = first_cta != NULL ||
                     (prior && prior->warp / k->nwarps != x->warp / k->nwarps);
    uint64_t h = ((uint64_t)(kind * 2 + inter) * 0x9e3779b97f4a7c15ull) ^
                 ((uint64_t)pc1 * 0xbf58476d1ce4e5b9ull) ^
                 ((uint64_t)x->pc * 0x94d049bb133111ebull);
    uint32_t s = (uint32_t)(h >> 32) & (2 * MAX_HAZARDS - 1);
    while (k->hidx[s]) {
        wm_ptx_hazard *z = &k->hz[k->hidx[s] - 1];
        unsigned zi = memcmp(z->first.cta, z->second.cta, sizeof z->cta) != 0;
        if (z->kind == kind && z->second.insn == x->pc && zi == inter &&
            (prior ? z->first.insn == pc1 : z->first.insn == SIZE_MAX)) {
            z->count++;
            return;
        }
        s = (s + 1) & (2 * MAX_HAZARDS - 1);
    }
    if (k->nhz >= MAX_HAZARDS) {
        k->dropped++;
        return;
    }
    wm_ptx_hazard *z = &k->hz[k->nhz++];
    k->hidx[s] = (uint32_t)k->nhz;
    memset(z, 0, sizeof *z);
    z->kind = kind;
    z->space = x->space;
    z->addr = x->addr;
    z->buf = x->buf;
    z->size = x->size;
    z->cluster = k->coop ? 1 : k->ncl;
    if (x->space == WM_SPACE_SHARED && k->ncl > 1 && k->csh) {
        /* whose memory: a cooperative CTA reaches only its own */
        z->rank = k->coop ? 0 : (unsigned)(x->addr / (k->csh * 4));
        z->addr = x->addr % (k->csh * 4);
    }
    memcpy(z->cta, k->ctaid[x->warp / k->nwarps], sizeof z->cta);
    z->count = 1;
    if (prior)
        fill_access(k, &z->first, prior->pc, prior->warp, prior->lane,
                    prior_write, (prior->bits & REC_ATOMIC) != 0, first_cta);
    else
        z->first.insn = SIZE_MAX;
    fill_access(k, &z->second, x->pc, x->warp, x->lane,
                x->kind != WMI_ACC_READ, x->kind == WMI_ACC_ATOMIC, NULL);
    if (!prior)
        memcpy(z->first.cta, z->second.cta, sizeof z->first.cta);
}

