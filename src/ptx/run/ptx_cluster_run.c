/*
 * ptx_cluster_run.c -- the cluster scheduler: the CTAs of a thread-block
 * cluster run together on one worker.  Above the executor, beside
 * ptx_run.c's one-CTA-at-a-time runs; each CTA's rounds are ptx_cta.c's,
 * the cluster barrier's state is ptx_cluster.c's.
 *
 * Model (docs/design/ptx-cluster.md):
 *   - A worker holds one wmi_cta per rank of the cluster.  A cluster runs
 *     in rounds: each CTA that has live threads runs one round of its
 *     warps (wmi_ptx_cta_round), so a warp waiting at barrier.cluster.wait
 *     yields and the other CTAs' warps get to arrive.
 *   - A round in which every instruction executed was such a failed wait
 *     and no bar barrier was released cannot make progress: a deadlock.
 *   - A cooperative launch (wm_ptx_launch.cooperative) runs its whole grid
 *     this way, each CTA its own cluster of one, so that grid.sync()'s
 *     spin on the grid workspace (an ld.acquire, after which the warp
 *     yields) lets the other CTAs arrive.  Rounds in which no CTA exits or
 *     releases a barrier and each runs only a few instructions before it
 *     yields are polls; COOP_IDLE of them in a row are a deadlock.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

/* A pass of a cooperative grid polls when no CTA exits or releases a
   barrier and none runs more than COOP_POLL warp instructions; so many
   passes in a row are a deadlock. */
#define COOP_POLL 64u
#define COOP_IDLE 1000u

wmi_cluster *wmi_cluster_new(wmi_cta *const *cta, uint32_t n, int coop)
{
    wmi_cluster *cl = calloc(1, sizeof *cl);
    if (!cl || n == 0 || n > (coop ? WM_PTX_MAX_COOP_CTAS : WMI_MAX_CLUSTER)) {
        free(cl);
        return NULL;
    }
    cl->n = n;
    cl->coop = coop;
    cl->cta = calloc(n, sizeof *cl->cta);
    cl->armed = calloc(n, sizeof *cl->armed);
    cl->want = calloc(n, sizeof *cl->want);
    cl->done = calloc(n, sizeof *cl->done);
    if (!cl->cta || !cl->armed || !cl->want || !cl->done) {
        wmi_cluster_free(cl);
        return NULL;
    }
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
    for (uint32_t r = 0; cl->armed && cl->want && r < cl->n; r++) {
        free(cl->armed[r]);
        free(cl->want[r]);
    }
    free(cl->cta);
    free(cl->armed);
    free(cl->want);
    free(cl->done);
    free(cl);
}

static wm_status rounds(wmi_cluster *cl);

wm_status wmi_cluster_run(wmi_cluster *cl, uint64_t q)
{
    wmi_cta *c0 = cl->cta[0];
    /* the CTAs of cluster q, or a cooperative launch's whole grid */
    const unsigned *cd = cl->coop ? c0->grid : c0->cdim;
    uint64_t ncx = c0->grid[0] / cd[0], ncy = c0->grid[1] / cd[1];
    unsigned base[3] = {(unsigned)(q % ncx * cd[0]),
                        (unsigned)(q / ncx % ncy * cd[1]),
                        (unsigned)(q / (ncx * ncy) * cd[2])};
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
        cl->done[r] = 0;
    }
    wm_status st = rounds(cl);
    /* each CTA's warp instructions: the steps that passed the budget */
    for (uint32_t r = 0; r < cl->n; r++) {
        wmi_cta *c = cl->cta[r];
        c->warp_insts += c->steps < c->step_limit ? c->steps : c->step_limit;
    }
    return st;
}

/* The fault of a cooperative grid whose CTAs only poll: the first CTA
   that has not exited, where its first waiting or polling lane is. */
static wm_status coop_stuck(wmi_cluster *cl)
{
    for (uint32_t r = 0; r < cl->n; r++) {
        wmi_cta *c = cl->cta[r];
        if (cl->done[r])
            continue;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const wmi_warp *w = &c->warps[i];
            if (!w->live)
                continue;
            unsigned l = (unsigned)__builtin_ctz(w->live);
            return wmi_ptx_fault(
                c, w, l, w->pc[l] ? w->pc[l] - 1 : c->f->first, WM_ERR_FAULT,
                "cooperative launch deadlock: in %u rounds no CTA exited or "
                "passed a barrier, each only polled (a grid.sync() that not "
                "every CTA reaches?)",
                COOP_IDLE);
        }
    }
    return WM_ERR_FAULT; /* (unreachable: a CTA that is not done has a
                            live thread) */
}

/* Rounds of the cluster's CTAs until all exited or one faults. */
static wm_status rounds(wmi_cluster *cl)
{
    int *done = cl->done;
    uint32_t idle = 0; /* cooperative: passes in a row that only polled */
    for (;;) {
        uint64_t steps = 0, after = 0;
        int all = 1, released = 0, busy = 0;
        cl->fails = 0;
        for (uint32_t r = 0; r < cl->n; r++)
            steps += cl->cta[r]->steps;
        for (uint32_t r = 0; r < cl->n; r++) {
            if (done[r])
                continue;
            int more;
            uint64_t s0 = cl->cta[r]->steps;
            wm_status st = wmi_ptx_cta_round(cl->cta[r], &more);
            if (st != WM_OK)
                return st;
            done[r] = more == WMI_ROUND_DONE;
            released |= more == WMI_ROUND_RELEASED;
            busy |= more != WMI_ROUND_YIELDED ||
                    cl->cta[r]->steps - s0 > COOP_POLL;
            all &= done[r];
        }
        if (all)
            return WM_OK;
        if (cl->coop) {
            idle = busy ? 0 : idle + 1;
            if (idle >= COOP_IDLE)
                return coop_stuck(cl);
            continue; /* (no cluster barrier) */
        }
        for (uint32_t r = 0; r < cl->n; r++)
            after += cl->cta[r]->steps;
        if (!released && after - steps <= cl->fails) {
            wmi_cluster_settle(cl); /* exits may have completed the phase */
            if (cl->fails && cl->arrived)
                return wmi_cluster_deadlock(cl);
        }
    }
}
