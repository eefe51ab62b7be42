/*
 * ptx_cta.c -- one worker's CTA: its state (warps, registers, shared and
 * local memory, the fast paths' memos), its special registers, and its
 * warp scheduler with barriers.  Beneath both schedulers that run CTAs:
 * ptx_run.c (one CTA at a time) and ptx_cluster_run.c (the CTAs of a
 * cluster in rounds); above the executor (ptx_exec.c).
 *
 * CTA scheduling (docs/design/interpreter.md §4): the warps of a CTA run in
 * turn, each until all its lanes exited or wait at a barrier; then every
 * barrier whose count is reached is released.  Exited threads count as arrived.  If no
 * barrier can be released while threads wait, or threads released together
 * waited at different bar instructions, that is a barrier fault.
 */
#include "ptx_int.h"
#include "ptx_areg.h"
#include "ptx_check_int.h"
#include "cache_int.h"

void wmi_ptx_cta_free(wmi_cta *c)
{
    wmi_areg_free(c);
    if (c->warps)
        for (uint32_t i = 0; i < c->nwarps; i++) {
            free(c->warps[i].r0);
            wmi_ptx_frames_free(&c->warps[i]);
        }
    free(c->warps);
    free(c->smem);
    free(c->lmem);
    free(c->uni);
    free(c->unset);
    c->unset = NULL;
    c->nunset = 0;
    free(c->memo_of);
    free(c->memo);
    c->memo_of = NULL;
    c->memo = NULL;
    c->nmemo = 0;
    c->warps = NULL;
    c->smem = c->lmem = NULL;
    c->uni = NULL;
}

static void fill_sregs(wmi_cta *c);

wm_status wmi_ptx_cta_alloc(wmi_cta *c)
{
    const wmi_func *f = c->f;
    c->nwarps = (c->nthreads + 31) / 32;
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    c->smem = calloc(c->smem_bytes ? c->smem_bytes : 1, 1);
    /* one local stack per thread: the kernel's bytes, then a .func frame
       per call depth (ptx_call.c) */
    c->lstride = f->local_bytes;
    if (c->has_calls)
        c->lstride = wmi_ptx_local_base(c, WMI_MAX_CALL_DEPTH) +
                     (c->m->max_local + 15) / 16 * 16;
    c->ltop = f->local_bytes;
    c->lmem = calloc((size_t)c->nthreads * (c->lstride ? c->lstride : 1), 1);
    /* a callee's instructions index uni[] by their own slots (all zero
       then: a calling kernel runs WMI_RUN_SLOW) */
    c->uni = calloc(c->m->max_slots > f->nslots ? c->m->max_slots
                    : f->nslots ? f->nslots : 1, 1);
    if (!c->warps || !c->smem || !c->lmem || !c->uni)
        return WM_ERR_NOMEM;
    memset(&c->acc, 0, sizeof c->acc);
    if (!(c->flags & WMI_RUN_SLOW)) {
        /* Slots no instruction writes that hold one value for all lanes:
           the kernel cannot write constants or special registers (PTX ISA
           10: special registers are read-only). */
        static const uint8_t same[] = {
            SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NTID_X, SR_NTID_Y,
            SR_NTID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z, SR_NWARPID,
            SR_DYNSMEM, SR_TOTALSMEM};
        uint32_t nmemo = 0;
        c->memo_of = calloc(f->count ? f->count : 1, sizeof *c->memo_of);
        if (!c->memo_of)
            return WM_ERR_NOMEM;
        for (uint32_t i = 0; i < f->count; i++) {
            const wmi_insn *in = &c->m->code[f->first + i];
            if ((in->op == OP_LD || in->op == OP_ST) &&
                (in->space == SP_GLOBAL || in->space == SP_SHARED))
                c->memo_of[i] = ++nmemo;
        }
        c->memo = calloc(nmemo ? nmemo : 1, sizeof *c->memo);
        if (!c->memo)
            return WM_ERR_NOMEM;
        c->nmemo = nmemo;
        c->uni[SLOT_ZERO] = 1;
        for (uint32_t k = 0; k < f->nconsts; k++)
            c->uni[f->cslots[k]] = 1;
        for (size_t k = 0; k < WM_ARRAY_LEN(same); k++)
            if ((uint32_t)SLOT_SREG0 + same[k] < f->nslots)
                c->uni[SLOT_SREG0 + same[k]] = 1;
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        wmi_warp *w = &c->warps[i];
        w->r0 = w->r = calloc(f->nslots, sizeof *w->r);
        if (!w->r)
            return WM_ERR_NOMEM;
        for (uint32_t k = 0; k < f->nconsts; k++)
            for (unsigned l = 0; l < 32; l++)
                w->r[f->cslots[k]][l] = f->cvals[k];
    }
    fill_sregs(c);
    if (!c->has_calls) { /* a call's frames have registers of their own */
        wm_status st = wmi_ptx_unset_slots(c->m, f, &c->unset, &c->nunset);
        if (st != WM_OK)
            return st;
    }
    return wmi_areg_alloc(c);
}

/* The CTA-dependent special registers the kernel reads (all of them when
   it calls functions) into every warp: ctaid and the cluster ids. */
static void fill_cta_sregs(wmi_cta *c)
{
    uint64_t used = c->f->sregs_used;
    const unsigned *cd = c->cdim;
    const uint64_t cta[][2] = {
        {SR_CTAID_X, c->ctaid[0]},
        {SR_CTAID_Y, c->ctaid[1]},
        {SR_CTAID_Z, c->ctaid[2]},
        {SR_CLUSTERID_X, c->ctaid[0] / cd[0]},
        {SR_CLUSTERID_Y, c->ctaid[1] / cd[1]},
        {SR_CLUSTERID_Z, c->ctaid[2] / cd[2]},
        {SR_CLUSTER_CTAID_X, c->ctaid[0] % cd[0]},
        {SR_CLUSTER_CTAID_Y, c->ctaid[1] % cd[1]},
        {SR_CLUSTER_CTAID_Z, c->ctaid[2] % cd[2]},
        {SR_CLUSTER_CTARANK, c->rank}};
    for (size_t k = 0; k < WM_ARRAY_LEN(cta); k++) {
        if (!(used >> cta[k][0] & 1) && !c->has_calls)
            continue;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            uint64_t *D = c->warps[i].r[SLOT_SREG0 + cta[k][0]];
            for (unsigned l = 0; l < 32; l++)
                D[l] = cta[k][1];
        }
    }
}

/* Special registers: all of them once per worker (they do not change
   between CTAs, except those of fill_cta_sregs, which every CTA sets). */
static void fill_sregs(wmi_cta *c)
{
    uint32_t bx = c->block[0], bxy = c->block[0] * c->block[1];
    uint64_t used = c->f->sregs_used;
    /* the reserved area closes the shared window (ptx_run.c) */
    uint64_t rbegin = used & WMI_RSMEM_SREGS
                          ? c->smem_bytes - WMI_RESERVED_SMEM
                          : c->smem_bytes;
    fill_cta_sregs(c);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        uint64_t (*R)[32] = c->warps[i].r;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t t = i * 32 + l;
            R[SLOT_SREG0 + SR_TID_X][l] = t % bx;
            R[SLOT_SREG0 + SR_TID_Y][l] = t / bx % c->block[1];
            R[SLOT_SREG0 + SR_TID_Z][l] = t / bxy;
            R[SLOT_SREG0 + SR_LANEID][l] = l;
            R[SLOT_SREG0 + SR_LANEMASK_EQ][l] = 1u << l;
            R[SLOT_SREG0 + SR_LANEMASK_LT][l] = (1u << l) - 1;
            R[SLOT_SREG0 + SR_LANEMASK_LE][l] = (uint32_t)((2ull << l) - 1);
            R[SLOT_SREG0 + SR_LANEMASK_GT][l] = (uint32_t)(~0u << l) & ~(1u << l);
            R[SLOT_SREG0 + SR_LANEMASK_GE][l] = (uint32_t)(~0u << l);
        }
        const uint64_t same[][2] = {
            {SR_NTID_X, c->block[0]},   {SR_NTID_Y, c->block[1]},
            {SR_NTID_Z, c->block[2]},   {SR_NCTAID_X, c->grid[0]},
            {SR_NCTAID_Y, c->grid[1]},  {SR_NCTAID_Z, c->grid[2]},
            {SR_WARPID, i},             {SR_NWARPID, c->nwarps},
            {SR_SMID, 0},               {SR_NSMID, 1},
            {SR_GRIDID, 0},             {SR_CLOCK, 0},
            {SR_CLOCK_HI, 0},           {SR_CLOCK64, 0},
            {SR_GLOBALTIMER, 0},        {SR_DYNSMEM, c->dyn_smem},
            {SR_TOTALSMEM, c->smem_bytes},
            {SR_NCLUSTERID_X, c->grid[0] / c->cdim[0]},
            {SR_NCLUSTERID_Y, c->grid[1] / c->cdim[1]},
            {SR_NCLUSTERID_Z, c->grid[2] / c->cdim[2]},
            {SR_CLUSTER_NCTAID_X, c->cdim[0]}, {SR_CLUSTER_NCTAID_Y, c->cdim[1]},
            {SR_CLUSTER_NCTAID_Z, c->cdim[2]},
            {SR_CLUSTER_NCTARANK, c->cdim[0] * c->cdim[1] * c->cdim[2]},
            {SR_IS_EXPLICIT_CLUSTER, (uint64_t)c->cexplicit},
            {SR_AGGR_SMEM, c->smem_bytes},
            {SR_RSMEM_BEGIN, rbegin},   {SR_RSMEM_END, rbegin + WMI_RESERVED_SMEM},
            {SR_RSMEM_CAP, WMI_RESERVED_SMEM}, {SR_RSMEM_0, rbegin},
            {SR_RSMEM_1, rbegin + 16},
            {SR_ENVREG1, c->workspace >> 32},
            {SR_ENVREG2, c->workspace & 0xffffffffu}};
        for (size_t k = 0; k < WM_ARRAY_LEN(same); k++)
            for (unsigned l = 0; l < 32; l++)
                R[SLOT_SREG0 + same[k][0]][l] = same[k][1];
    }
}

void wmi_ptx_cta_begin(wmi_cta *c)
{
    const wmi_func *f = c->f;
    memset(c->bars, 0, sizeof c->bars);
    c->exited = 0;
    c->steps = 0;
    if (c->smem_bytes)
        memset(c->smem, 0, c->smem_bytes);
    fill_cta_sregs(c);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        wmi_warp *w = &c->warps[i];
        uint32_t left = c->nthreads - i * 32;
        w->index = i;
        w->nthreads = left < 32 ? left : 32;
        w->live = w->nthreads >= 32 ? 0xffffffffu : (1u << w->nthreads) - 1;
        w->wait = 0;
        memset(w->wait_at, 0, sizeof w->wait_at);
        for (unsigned b = 0; b < 16; b++)
            w->red_dst[b] = WMI_NOREG;
        w->act = 0;
        w->cf = 0;
        memset(w->spin, 0, sizeof w->spin); /* (a CTA's yields are its own,
                                               whatever ran before it) */
        w->spin_next = 0;
        w->cur = f->first;
        for (unsigned l = 0; l < 32; l++)
            w->pc[l] = f->first;
        memset(w->depth, 0, sizeof w->depth);
        w->gdepth = 0;
        w->r = w->r0;
        w->gend = f->first + f->count;
        for (uint32_t k = 0; k < c->nunset; k++)
            memset(w->r0[c->unset[k]], 0, sizeof w->r0[0]);
    }
    wmi_areg_begin(c);
}

/* bar.red at barrier id of bar: its waiting lanes of w get the count, or
   whether all or any of the arrived threads had the predicate. */
static void red_result(wmi_warp *w, const wmi_barrier *bar, uint32_t id)
{
    uint64_t v = bar->red == BAR_RED_POPC  ? bar->red_popc
                 : bar->red == BAR_RED_AND ? bar->red_and
                                           : bar->red_or;
    uint64_t *D = w->r[w->red_dst[id]];
    for (unsigned l = 0; l < 32; l++)
        if (w->wait_at[id] >> l & 1)
            D[l] = v;
    w->red_dst[id] = WMI_NOREG;
}

/* Release barriers whose count is reached; 1 if any was released. */
static int release(wmi_cta *c, wm_status *st)
{
    int any = 0;
    for (uint32_t b = 0; b < 16; b++) {
        wmi_barrier *bar = &c->bars[b];
        if (!bar->arrived)
            continue;
        uint32_t need = bar->expected ? bar->expected : c->nthreads - c->exited;
        if (bar->arrived < need)
            continue;
        if (bar->pc2 != WMI_NOREG) {
            /* find a thread at the second instruction for the report */
            for (uint32_t i = 0; i < c->nwarps; i++)
                for (unsigned l = 0; l < 32; l++)
                    if ((c->warps[i].wait >> l & 1) && c->warps[i].bar_of[l] == b &&
                        c->warps[i].pc[l] == bar->pc2 + 1) {
                        *st = wmi_ptx_fault(
                            c, &c->warps[i], l, bar->pc2, WM_ERR_FAULT,
                            "barrier divergence: threads of the block wait "
                            "at barrier %u from different instructions (PTX "
                            "lines %u and %u)",
                            b, c->m->code[bar->pc].line,
                            c->m->code[bar->pc2].line);
                        return 0;
                    }
            *st = wmi_ptx_fault(c, NULL, 0, bar->pc2, WM_ERR_FAULT,
                                "barrier divergence at barrier %u", b);
            return 0;
        }
        if (c->flags & WMI_RUN_CHECK)
            wmi_check_release(c, b);
        for (uint32_t i = 0; i < c->nwarps; i++) {
            wmi_warp *w = &c->warps[i];
            if (w->red_dst[b] != WMI_NOREG) /* bar.red's result */
                red_result(w, bar, b);
            w->wait &= ~w->wait_at[b];
            w->wait_at[b] = 0;
        }
        bar->arrived = 0;
        any = 1;
    }
    return any;
}

static wm_status run_cta_warps(wmi_cta *c);

/* Run the CTA in c->ctaid; counts its warp instructions (the steps that
   passed the budget check). */
wm_status wmi_ptx_cta_run(wmi_cta *c)
{
    wm_status st = run_cta_warps(c);
    c->warp_insts += c->steps < c->step_limit ? c->steps : c->step_limit;
    return st;
}

/* The fault of a CTA whose live threads all wait at bar barriers of
   which none completes. */
static wm_status cta_deadlock(wmi_cta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        wmi_warp *w = &c->warps[i];
        if (!w->wait)
            continue;
        unsigned l = (unsigned)__builtin_ctz(w->wait);
        const wmi_barrier *bar = &c->bars[w->bar_of[l]];
        uint32_t need = bar->expected ? bar->expected : c->nthreads - c->exited;
        return wmi_ptx_fault(
            c, w, l, w->pc[l] - 1, WM_ERR_FAULT,
            "barrier deadlock: barrier %u needs %u threads but only %u "
            "arrived; the other threads of the block wait at another "
            "barrier",
            (unsigned)w->bar_of[l], need, bar->arrived);
    }
    return wmi_ptx_fault(c, NULL, 0, c->f->first, WM_ERR_FAULT,
                         "barrier deadlock");
}

wm_status wmi_ptx_cta_round(wmi_cta *c, int *more)
{
    wm_status st = WM_OK;
    if (c->order)
        wmi_check_round(c);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        /* --schedule: the order ready warps run in this round */
        wmi_warp *w = &c->warps[c->order ? c->order[i] : i];
        if (!(w->live & ~w->wait))
            continue;
        if (c->trace) /* a cluster's ranks apart (wmi_ctrace_split) */
            c->trace->warp = w->index | c->rank << 6;
        st = wmi_ptx_warp_run(c, w);
        if (st != WM_OK)
            return st;
    }
    *more = WMI_ROUND_DONE;
    if (c->exited >= c->nthreads)
        return WM_OK;
    *more = WMI_ROUND_RELEASED;
    if (release(c, &st)) {
        if (c->trace)
            c->trace->interval++;
        return WM_OK;
    }
    if (st != WM_OK)
        return st;
    *more = WMI_ROUND_YIELDED;
    if (c->yielded) { /* a warp waits on an mbarrier: go round again */
        c->yielded = 0;
        return WM_OK;
    }
    /* every live thread waits and no barrier completes */
    return cta_deadlock(c);
}

static wm_status run_cta_warps(wmi_cta *c)
{
    c->status = WM_OK;
    c->yielded = 0;
    wmi_ptx_cta_begin(c);
    if (c->chk)
        wmi_check_cta_begin(c);
    for (;;) {
        int more;
        wm_status st = wmi_ptx_cta_round(c, &more);
        if (st != WM_OK || more == WMI_ROUND_DONE)
            return st;
    }
}
