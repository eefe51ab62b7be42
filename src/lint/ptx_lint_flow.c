/*
 * ptx_lint_flow.c -- pass 1 of `warpmem lint` (ptx_lint.c) across blocks:
 * basic blocks and loops, entering a loop header (placeholder phis on the
 * first sweep, induction variables on later ones), joining a block's
 * exits into its successors, and one sweep over the function.
 */
#include "ptx_lint_core.h"

/* ---- control flow -------------------------------------------------------- */

static int ends_block(const wmi_insn *in)
{
    return in->op == OP_BRA || in->op == OP_RET || in->op == OP_EXIT ||
           in->op == OP_TRAP;
}

int wmi_lint_build_blocks(lint *L)
{
    const wmi_func *f = L->f;
    uint32_t first = f->first, n = f->count;
    uint8_t *lead = calloc(n + 1, 1);
    if (!lead)
        return 0;
    lead[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const wmi_insn *in = &L->m->code[first + i];
        if (ends_block(in))
            lead[i + 1] = 1;
        if (in->op == OP_BRA && in->target >= first && in->target < first + n)
            lead[in->target - first] = 1;
    }
    size_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += lead[i];
    L->blocks = calloc(nb ? nb : 1, sizeof *L->blocks);
    L->block_at = calloc(n + 1, sizeof *L->block_at);
    if (!L->blocks || !L->block_at) {
        free(lead);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        if (lead[i]) {
            bblock *b = &L->blocks[L->nblocks];
            b->start = first + i;
            b->loop = -1;
            if (L->nblocks)
                L->blocks[L->nblocks - 1].end = first + i;
            L->block_at[i] = (uint32_t)++L->nblocks;
        }
    assert(L->nblocks == nb);
    if (L->nblocks)
        L->blocks[L->nblocks - 1].end = first + n;
    free(lead);
    /* loops: a branch to a block at or before the branching one */
    for (size_t bi = 0; bi < L->nblocks; bi++) {
        bblock *b = &L->blocks[bi];
        const wmi_insn *last = &L->m->code[b->end - 1];
        if (last->op != OP_BRA || last->target < first ||
            last->target >= first + n)
            continue;
        uint32_t h = L->block_at[last->target - first];
        if (!h || last->target > b->start)
            continue;
        bblock *hb = &L->blocks[h - 1];
        if (hb->loop < 0 && L->nloops < 64)
            hb->loop = L->nloops++;
        if (b->end > hb->loop_end)
            hb->loop_end = b->end;
    }
    for (size_t hi = 0; hi < L->nblocks; hi++) {
        const bblock *h = &L->blocks[hi];
        if (h->loop < 0)
            continue;
        for (size_t bi = hi; bi < L->nblocks; bi++)
            if (L->blocks[bi].start < h->loop_end)
                L->blocks[bi].inloops |= (uint64_t)1 << h->loop;
    }
    return 1;
}

/* Slots the loop headed by block h writes (anywhere in its range). */
int wmi_lint_loop_writes(lint *L, const bblock *h, uint8_t *w)
{
    for (uint32_t pc = h->start; pc < h->loop_end; pc++) {
        const wmi_insn *in = &L->m->code[pc];
        uint32_t ds[2] = {in->d, in->d2};
        if (in->op == OP_ST || in->op == OP_RED || in->op == OP_CP_ASYNC)
            continue;
        for (int k = 0; k < 2; k++) {
            uint32_t d = ds[k];
            if (d == WMI_NOREG)
                continue;
            if (d & WMI_VEC) {
                const uint32_t *pool = L->m->pool + (d & ~WMI_VEC);
                for (uint32_t j = 0; j < pool[0]; j++)
                    if (wmi_lint_plain_slot(L, pool[1 + j]))
                        w[pool[1 + j]] = 1;
            } else if (wmi_lint_plain_slot(L, d)) {
                w[d] = 1;
            }
        }
    }
    return 1;
}

/* The header's state for this sweep from its forward entry state. */
static void enter_loop(lint *L, size_t bi, bstate *s, int sweep)
{
    const bblock *h = &L->blocks[bi];
    uint32_t n = L->f->nslots;
    const uint8_t *w = L->written[bi];
    assert(h->loop >= 0 && h->loop < 64 && w && L->hprev[bi]);
    wmi_aff *hp = L->hprev[bi];
    const bstate *back = &L->back_prev[bi];
    uint64_t bit = (uint64_t)1 << h->loop;
    wmi_aff iter =
        wmi_aff_sym(&L->ax, WMI_AV_ITER, (uint32_t)h->loop, 0, 1, bit);
    L->loopiter[h->loop] = wmi_aff_single(&iter);
    for (uint32_t r = 0; r < n; r++) {
        if (!w[r])
            continue;
        wmi_aff e = s->r[r], nv;
        s->p[r] = NOCOND;
        if (sweep == 0 || !back->reached) {
            nv = wmi_aff_sym(&L->ax, WMI_AV_PHI, (uint32_t)h->loop, r,
                             wmi_aff_uniform(&L->ax, &e), bit);
        } else {
            const wmi_aff *bv = &back->r[r];
            wmi_aff st = wmi_aff_sub(bv, &hp[r]);
            uint32_t av = wmi_aff_single(bv);
            const wmi_avar *at = av != WMI_NOREG ? &L->ax.vars[av] : NULL;
            if (wmi_lint_undefined(bv)) {
                nv = e; /* not written on the way back */
            } else if (bv->top) {
                nv = *bv;
            } else if (wmi_aff_eq(bv, &hp[r]) || wmi_aff_eq(bv, &e)) {
                nv = e;
            } else if (!(wmi_aff_loops(&L->ax, bv) & bit) &&
                       wmi_lint_undefined(&e)) {
                nv = *bv; /* defined in the loop, not carried around it */
            } else if (!st.top && !e.top &&
                       !(wmi_aff_loops(&L->ax, &st) & bit)) {
                wmi_aff k = wmi_aff_mul(&L->ax, &st, &iter);
                nv = wmi_aff_add(&e, &k); /* e + s * iter */
            } else if (at && at->kind == WMI_AV_ATOM && !e.top &&
                       (at->op == WMI_AOP_SHR || at->op == WMI_AOP_SHL) &&
                       wmi_aff_eq(&L->ax.forms[at->x], &hp[r]) &&
                       L->ax.forms[at->y].nterms == 0 &&
                       !L->ax.forms[at->y].top) {
                /* s >>= c (or <<= c) each time: e >> (c * iter) */
                wmi_aff c = wmi_aff_scale(&iter, L->ax.forms[at->y].c0);
                nv = wmi_aff_op(&L->ax, (wmi_aop)at->op, at->bits, at->sgn, &e,
                                &c, h->start);
            } else {
                nv = wmi_aff_top(WMI_TOP_LOOP, h->start);
            }
        }
        if (!wmi_aff_eq(&nv, &hp[r]))
            L->changed = 1;
        hp[r] = nv;
        s->r[r] = nv;
    }
}

/* Propagate the state at the end of block bi along its edges. */
static void leave_block(lint *L, size_t bi, bstate *s)
{
    const bblock *b = &L->blocks[bi];
    const wmi_func *f = L->f;
    uint32_t n = f->nslots;
    const wmi_insn *last = &L->m->code[b->end - 1];
    uint32_t succ[2];
    int32_t cnd[2] = {NOCOND, NOCOND};
    int guarded[2] = {0, 0};
    unsigned ns = 0;
    int32_t g = NOCOND;
    if (last->guard != WMI_NOREG) {
        g = wmi_lint_rdp(L, s, last->guard);
        if (g != NOCOND && last->guard_neg)
            g ^= 1;
    }
    int fall = b->end < f->first + f->count;
    if (last->op == OP_BRA) {
        succ[ns] = last->target;
        guarded[ns] = last->guard != WMI_NOREG;
        cnd[ns++] = g;
        if (last->guard == WMI_NOREG)
            fall = 0;
    } else if (last->op == OP_RET || last->op == OP_EXIT ||
               last->op == OP_TRAP) {
        if (last->guard == WMI_NOREG)
            fall = 0;
    }
    if (fall) {
        succ[ns] = b->end;
        guarded[ns] = last->guard != WMI_NOREG;
        cnd[ns++] = g == NOCOND ? NOCOND : g ^ 1;
    }
    assert(ns <= 2);
    for (unsigned k = 0; k < ns; k++) {
        if (succ[k] < f->first || succ[k] >= f->first + f->count)
            continue;
        uint32_t ti = L->block_at[succ[k] - f->first];
        if (!ti)
            continue;
        ti--;
        const bblock *t = &L->blocks[ti];
        int back = t->start <= b->start;
        bstate *dst = back ? &L->back_cur[ti] : &L->in[ti];
        if (back && !dst->r)
            continue; /* a header beyond the 64 tracked loops */
        if (back) {
            int lp = t->loop;
            int32_t c = guarded[k] ? cnd[k] : NOCOND;
            L->loopcond[lp] = L->loopback[lp]++ ? NOCOND : c;
        }
        /* the edge's own condition, then conditions of loops left behind */
        int32_t save[MAXPATH];
        unsigned nsave = s->npath;
        int sass = s->assumed;
        memcpy(save, s->path, sizeof save);
        if (guarded[k])
            wmi_lint_path_add(s, cnd[k]);
        unsigned np = 0;
        for (unsigned i = 0; i < s->npath; i++)
            if (!(wmi_lint_cond_loops(L, s->path[i]) & ~t->inloops))
                s->path[np++] = s->path[i];
        s->npath = np;
        wmi_lint_state_join(&L->ax, dst, s, n, t->start);
        memcpy(s->path, save, sizeof save);
        s->npath = nsave;
        s->assumed = sass;
    }
}

void wmi_lint_sweep(lint *L, int k)
{
    uint32_t n = L->f->nslots;
    if (L->nblocks == 0) /* an empty body: nothing to enter */
        return;
    memset(L->loopback, 0, sizeof L->loopback);
    for (size_t bi = 0; bi < L->nblocks; bi++) {
        L->in[bi].reached = 0;
        if (L->back_cur[bi].r)
            L->back_cur[bi].reached = 0;
    }
    bstate *e = &L->in[0];
    for (uint32_t r = 0; r < n; r++) {
        e->r[r] = wmi_aff_top(WMI_TOP_NONE, WMI_NOREG);
        e->p[r] = NOCOND;
    }
    e->npath = 0;
    e->assumed = 0;
    e->reached = 1;
    for (size_t bi = 0; bi < L->nblocks; bi++) {
        if (!L->in[bi].reached)
            continue;
        bstate *s = &L->work;
        wmi_lint_state_copy(s, &L->in[bi], n);
        if (L->blocks[bi].loop >= 0 && L->hprev[bi])
            enter_loop(L, bi, s, k);
        L->cur_loops = L->blocks[bi].inloops;
        for (uint32_t pc = L->blocks[bi].start; pc < L->blocks[bi].end; pc++)
            wmi_lint_step(L, s, pc);
        leave_block(L, bi, s);
    }
    for (size_t bi = 0; bi < L->nblocks; bi++)
        if (L->back_cur[bi].r) {
            bstate t = L->back_prev[bi];
            L->back_prev[bi] = L->back_cur[bi];
            L->back_cur[bi] = t;
        }
}
