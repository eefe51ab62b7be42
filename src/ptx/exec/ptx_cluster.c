/*
 * ptx_cluster.c -- the cluster instructions: barrier.cluster between the
 * CTAs of a thread-block cluster, mapa and the distributed shared memory
 * (DSMEM) addresses it makes.  An opcode family beneath the executor;
 * the scheduler that runs a cluster's CTAs together is ptx_cluster_run.c.
 *
 * Model (docs/design/ptx-cluster.md):
 *   - barrier.cluster: one phase counter per cluster.  An arrive records,
 *     per thread, the phase the thread waits for (the current one + 1);
 *     the phase completes when every non-exited thread of the cluster
 *     arrived (PTX ISA, barrier.cluster).  A wait passes once its phase
 *     completed, else its lanes stay at the wait and the warp yields.
 *   - mapa gives another CTA's address the rank bits of ptx_int.h's
 *     WMI_DSMEM_SHIFT; shared and generic accesses with those bits reach
 *     that CTA's shared memory through wmi_ptx_dsmem (ptx_fault.c, the
 *     slow memory path: the fast path sees them out of range).  Accessing
 *     a CTA that has exited faults, as the hardware does not keep its
 *     memory.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

/* Threads of the cluster that have not exited. */
static uint64_t live_threads(const wmi_cluster *cl)
{
    uint64_t n = 0;
    for (uint32_t r = 0; r < cl->n; r++)
        n += cl->cta[r]->nthreads - cl->cta[r]->exited;
    return n;
}

/* Complete the phase when every live thread arrived. */
void wmi_cluster_settle(wmi_cluster *cl)
{
    if (cl->arrived && cl->arrived >= live_threads(cl)) {
        cl->phase++;
        cl->arrived = 0;
    }
}

/* A fault that names the cluster barrier's state. */
wm_status wmi_cluster_deadlock(wmi_cluster *cl)
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
        wmi_cluster_settle(cl);
        return WM_OK;
    }
    wmi_cluster_settle(cl);
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
    const wmi_cluster *cl = wmi_cta_cluster(c);
    uint32_t n = cl ? cl->n : 1;
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
