/*
 * ptx_cluster.c -- thread-block clusters: the CTAs of a cluster run
 * together on one worker, barrier.cluster between them, mapa and the
 * distributed shared memory (DSMEM) accesses it makes possible.
 *
 * Model (docs/design/ptx-cluster.md):
 *   - A worker holds one wmi_cta per rank of the cluster.  A cluster runs
 *     in rounds: each CTA that has live threads runs one round of its
 *     warps (wmi_ptx_cta_round), so a warp waiting at barrier.cluster.wait
 *     yields and the other CTAs' warps get to arrive.
 *   - barrier.cluster: one phase counter per cluster.  An arrive records,
 *     per thread, the phase the thread waits for (the current one + 1);
 *     the phase completes when every non-exited thread of the cluster
 *     arrived (PTX ISA, barrier.cluster).  A wait passes once its phase
 *     completed, else its lanes stay at the wait and the warp yields.
 *   - A round in which every instruction executed was such a failed wait
 *     and no bar barrier was released cannot make progress: a deadlock.
 *   - mapa gives another CTA's address the rank bits of ptx_int.h's
 *     WMI_DSMEM_SHIFT; shared and generic accesses with those bits reach
 *     that CTA's shared memory through wmi_ptx_dsmem (ptx_fault.c, the
 *     slow memory path: the fast path sees them out of range).  Accessing
 *     a CTA that has exited faults, as the hardware does not keep its
 *     memory.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

wmi_cluster *wmi_cluster_new(wmi_cta *const *cta, uint32_t n)
{
    wmi_cluster *cl = calloc(1, sizeof *cl);
    if (!cl || n == 0 || n > WMI_MAX_CLUSTER) {
        free(cl);
        return NULL;
    }
    cl->n = n;
    for (uint32_t r = 0; r < n; r++) {
        cl->cta[r] = cta[r];
        cl->armed[r] = calloc(cta[r]->nwarps * 32u, 1);
        cl->want[r] = calloc(cta[r]->nwarps * 32u, sizeof *cl->want[r]);
        if (!cl->armed[r] || !cl->want[r]) {
            wmi_cluster_free(cl);
            return NULL;
        }
    }
    return cl;
}

void wmi_cluster_free(wmi_cluster *cl)
{
    if (!cl)
        return;
    for (uint32_t r = 0; r < WMI_MAX_CLUSTER; r++) {
        free(cl->armed[r]);
        free(cl->want[r]);
    }
    free(cl);
}

/* Threads of the cluster that have not exited. */
static uint64_t live_threads(const wmi_cluster *cl)
{
    uint64_t n = 0;
    for (uint32_t r = 0; r < cl->n; r++)
        n += cl->cta[r]->nthreads - cl->cta[r]->exited;
    return n;
}

/* Complete the phase when every live thread arrived. */
static void settle(wmi_cluster *cl)
{
    if (cl->arrived && cl->arrived >= live_threads(cl)) {
        cl->phase++;
        cl->arrived = 0;
    }
}

/* A fault that names the cluster barrier's state. */
static wm_status deadlock(wmi_cluster *cl)
{
    for (uint32_t r = 0; r < cl->n; r++) {
        wmi_cta *c = cl->cta[r];
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const wmi_warp *w = &c->warps[i];
            for (unsigned l = 0; l < 32; l++)
                if ((w->live >> l & 1) && cl->armed[r][i * 32 + l])
                    return wmi_ptx_fault(
                        c, w, l, w->pc[l], WM_ERR_FAULT,
                        "cluster barrier deadlock: barrier.cluster.wait "
                        "needs all %llu live threads of the cluster but only "
                        "%u arrived",
                        (unsigned long long)live_threads(cl), cl->arrived);
        }
    }
    wmi_cta *c = cl->cta[0];
    return wmi_ptx_fault(c, NULL, 0, c->f->first, WM_ERR_FAULT,
                         "cluster barrier deadlock");
}

static wm_status rounds(wmi_cluster *cl, int *done);

wm_status wmi_cluster_run(wmi_cluster *cl, uint64_t q)
{
    wmi_cta *c0 = cl->cta[0];
    const unsigned *cd = c0->cdim;
    uint64_t ncx = c0->grid[0] / cd[0], ncy = c0->grid[1] / cd[1];
    unsigned base[3] = {(unsigned)(q % ncx * cd[0]),
                        (unsigned)(q / ncx % ncy * cd[1]),
                        (unsigned)(q / (ncx * ncy) * cd[2])};
    int done[WMI_MAX_CLUSTER];
    cl->phase = 0;
    cl->arrived = 0;
    for (uint32_t r = 0; r < cl->n; r++) {
        wmi_cta *c = cl->cta[r];
        /* %cluster_ctarank: x fastest within the cluster */
        c->ctaid[0] = base[0] + r % cd[0];
        c->ctaid[1] = base[1] + r / cd[0] % cd[1];
        c->ctaid[2] = base[2] + r / (cd[0] * cd[1]);
        c->status = WM_OK;
        c->yielded = 0;
        wmi_ptx_cta_begin(c);
        if (c->chk) /* in rank order: rank 0 starts the cluster's clocks */
            wmi_check_cta_begin(c);
        memset(cl->armed[r], 0, c->nwarps * 32u);
        done[r] = 0;
    }
    wm_status st = rounds(cl, done);
    /* each CTA's warp instructions: the steps that passed the budget */
    for (uint32_t r = 0; r < cl->n; r++) {
        wmi_cta *c = cl->cta[r];
        c->warp_insts += c->steps < c->step_limit ? c->steps : c->step_limit;
    }
    return st;
}

/* Rounds of the cluster's CTAs until all exited or one faults. */
static wm_status rounds(wmi_cluster *cl, int *done)
{
    for (;;) {
        uint64_t steps = 0, after = 0;
        int all = 1, released = 0;
        cl->fails = 0;
        for (uint32_t r = 0; r < cl->n; r++)
            steps += cl->cta[r]->steps;
        for (uint32_t r = 0; r < cl->n; r++) {
            if (done[r])
                continue;
            int more;
            wm_status st = wmi_ptx_cta_round(cl->cta[r], &more);
            if (st != WM_OK)
                return st;
            done[r] = more == WMI_ROUND_DONE;
            released |= more == WMI_ROUND_RELEASED;
            all &= done[r];
        }
        if (all)
            return WM_OK;
        for (uint32_t r = 0; r < cl->n; r++)
            after += cl->cta[r]->steps;
        if (!released && after - steps <= cl->fails) {
            settle(cl); /* exits may have completed the phase */
            if (cl->fails && cl->arrived)
                return deadlock(cl);
        }
    }
}

wm_status wmi_ptx_barrier_cluster(wmi_cta *c, wmi_warp *w,
                                  const wmi_insn *in, uint32_t pc,
                                  uint32_t m, int *yield)
{
    wmi_cluster *cl = c->clu;
    uint8_t *armed = cl->armed[c->rank] + w->index * 32;
    uint64_t *want = cl->want[c->rank] + w->index * 32;
    uint32_t blocked = 0;
    *yield = 0;
    if (in->mod == 0) { /* arrive */
        for (unsigned l = 0; l < 32; l++) {
            if (!(m >> l & 1))
                continue;
            if (armed[l])
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                     "barrier.cluster.arrive again before "
                                     "barrier.cluster.wait");
            armed[l] = 1;
            want[l] = cl->phase + 1;
            cl->arrived++;
        }
        if (c->flags & WMI_RUN_CHECK) /* before the phase can complete */
            wmi_check_cluster_arrive(c, w, cl->phase + 1, in->mod2);
        settle(cl);
        return WM_OK;
    }
    settle(cl);
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        if (!armed[l])
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "barrier.cluster.wait without a "
                                 "barrier.cluster.arrive before it");
        if (cl->phase >= want[l])
            armed[l] = 0;
        else
            blocked |= 1u << l;
    }
    if (blocked) {
        cl->fails++;
        *yield = 1;
    }
    uint64_t acquired = 0; /* (phases count from 1) */
    for (unsigned l = 0; (c->flags & WMI_RUN_CHECK) && l < 32; l++)
        if ((m & ~blocked) >> l & 1 && want[l] != acquired)
            wmi_check_cluster_wait(c, w, acquired = want[l]);
    /* the lanes that passed go on, the blocked ones wait here */
    for (unsigned l = 0; l < 32; l++)
        if (m >> l & 1)
            w->pc[l] = blocked >> l & 1 ? pc : pc + 1;
    return WM_OK;
}

wm_status wmi_ptx_mapa(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    uint32_t n = c->clu ? c->clu->n : 1;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t a = R[in->a][l];
        uint64_t rank = (uint32_t)R[in->b][l], base = 0;
        if (rank >= n)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "mapa to rank %llu: the cluster has %u "
                                 "CTAs",
                                 (unsigned long long)rank, n);
        if (in->space != SP_SHARED) { /* generic: a shared window address */
            if ((a >> WMI_WIN_SHIFT) != (WMI_SHARED_WIN >> WMI_WIN_SHIFT))
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                     "mapa of generic address 0x%llx, which "
                                     "is not in shared memory",
                                     (unsigned long long)a);
            base = WMI_SHARED_WIN;
        }
        uint64_t off = (a - base) & WMI_DSMEM_OFF;
        uint64_t d = rank == c->rank
                         ? off
                         : (rank + 1) << WMI_DSMEM_SHIFT | off;
        R[in->d][l] = base + d;
    }
    return WM_OK;
}
