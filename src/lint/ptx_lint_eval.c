/*
 * ptx_lint_eval.c -- pass 2 of `warpmem lint` (ptx_lint.c): the recorded
 * forms evaluated for the lanes of every warp of one block, counted with
 * wm_count, the uniform symbols moved over sample values (misalignments,
 * edge warps, dependences), and the same verdicts over block shapes.
 */
#include "ptx_lint_core.h"

#include <stdio.h>

/* ---- pass 2: evaluation -------------------------------------------------- */

int64_t wmi_lint_leaf(void *ud, const wmi_avar *v)
{
    const evalctx *e = ud;
    for (int k = 2; k >= 0; k--)
        if (e->over[k] != WMI_NOREG && v == &e->L->ax.vars[e->over[k]])
            return e->over_val[k];
    switch ((wmi_avar_kind)v->kind) {
    case WMI_AV_SREG:
        switch (v->id) {
        case SR_TID_X: return e->tid[0];
        case SR_TID_Y: return e->tid[1];
        case SR_TID_Z: return e->tid[2];
        case SR_NTID_X: return e->block[0];
        case SR_NTID_Y: return e->block[1];
        case SR_NTID_Z: return e->block[2];
        case SR_CTAID_X: return e->ctaid[0];
        case SR_CTAID_Y: return e->ctaid[1];
        case SR_CTAID_Z: return e->ctaid[2];
        case SR_NCTAID_X: return e->grid[0];
        case SR_NCTAID_Y: return e->grid[1];
        case SR_NCTAID_Z: return e->grid[2];
        case SR_LANEID: return e->lane;
        default: return 0;
        }
    case WMI_AV_PARAM: return e->param[v->id];
    case WMI_AV_ITER:
    case WMI_AV_LOAD:
    case WMI_AV_JOIN:
    case WMI_AV_PHI:
    case WMI_AV_PROD:
    case WMI_AV_ATOM: break;
    }
    return 0;
}

/*
 * In iteration k >= 1 of a loop whose back edge is conditional, the lane
 * took that edge in iteration k - 1: its condition held there (a
 * do-while's `i + stride < n` decides whether the last round runs).
 * Checks every loop around r with an overridden iteration.
 */
static int loops_ran(evalbuf *eb, const memrec *r)
{
    lint *L = eb->ec.L;
    evalctx *e = &eb->ec;
    int on = 1;
    for (int lp = 0; lp < L->nloops && on; lp++) {
        if (!(r->loops >> lp & 1) || L->loopcond[lp] == NOCOND ||
            L->loopiter[lp] == WMI_NOREG)
            continue;
        int64_t k = 0;
        for (int j = 0; j < 2; j++)
            if (e->over[j] == L->loopiter[lp])
                k = e->over_val[j];
        if (k < 1)
            continue;
        int32_t ref = L->loopcond[lp];
        const cond *c = &L->conds[ref >> 1];
        e->over[2] = L->loopiter[lp];
        e->over_val[2] = k - 1;
        eb->env.epoch++;
        int h = wmi_aff_cmp_holds(c->cmp, c->bits, c->sgn,
                                  wmi_aff_eval(&L->ax, &c->l, &eb->env),
                                  wmi_aff_eval(&L->ax, &c->r, &eb->env));
        on = h ^ (ref & 1);
        e->over[2] = WMI_NOREG;
        eb->env.epoch++;
    }
    return on;
}

/* Lane addresses and mask of record r's request q (wmma: its fragment's
   q-th request; else 0) for warp w under the context. */
static int warp_access(evalbuf *eb, const memrec *r, unsigned w, unsigned q,
                       wm_access *a)
{
    lint *L = eb->ec.L;
    const unsigned *B = eb->ec.block;
    unsigned nthreads = B[0] * B[1] * B[2];
    assert(w < 32 && r->lanes <= 32 && !r->addr.top);
    memset(a, 0, sizeof *a);
    a->site = r->pc;
    a->op = r->op;
    a->size = r->size;
    wm_space sp = r->isp == SP_SHARED  ? WM_SPACE_SHARED
                  : r->isp == SP_LOCAL ? WM_SPACE_LOCAL
                                       : WM_SPACE_GLOBAL;
    int resolved = 0;
    for (unsigned l = 0; l < r->lanes && l < 32; l++) {
        unsigned lin = w * 32 + l;
        if (lin >= nthreads)
            break;
        eb->ec.tid[0] = lin % B[0];
        eb->ec.tid[1] = lin / B[0] % B[1];
        eb->ec.tid[2] = lin / (B[0] * B[1]);
        eb->ec.lane = l;
        eb->env.epoch++;
        int on = 1;
        for (unsigned k = 0; k < r->npath && on; k++) {
            const cond *c = &L->conds[r->path[k] >> 1];
            int h = wmi_aff_cmp_holds(c->cmp, c->bits, c->sgn,
                                      wmi_aff_eval(&L->ax, &c->l, &eb->env),
                                      wmi_aff_eval(&L->ax, &c->r, &eb->env));
            on = h ^ (r->path[k] & 1);
        }
        if (on && r->guard != NOCOND) {
            const cond *c = &L->conds[r->guard >> 1];
            int h = wmi_aff_cmp_holds(c->cmp, c->bits, c->sgn,
                                      wmi_aff_eval(&L->ax, &c->l, &eb->env),
                                      wmi_aff_eval(&L->ax, &c->r, &eb->env));
            on = h ^ (r->guard & 1);
        }
        if (on && r->loops)
            on = loops_ran(eb, r);
        if (!on)
            continue;
        uint64_t ad = (uint64_t)wmi_aff_eval(&L->ax, &r->addr, &eb->env) +
                      (uint64_t)r->sass_off;
        if (r->nreq)
            ad += wmi_ptx_wmma_offset(
                &L->m->code[r->pc], q, l,
                (uint32_t)wmi_aff_eval(&L->ax, &r->ld, &eb->env));
        if (r->isp == SP_GENERIC) {
            uint64_t win = ad >> WMI_WIN_SHIFT;
            wm_space s2 = WM_SPACE_GLOBAL;
            if (win == (WMI_SHARED_WIN >> WMI_WIN_SHIFT)) {
                s2 = WM_SPACE_SHARED;
                ad -= WMI_SHARED_WIN;
            } else if (win == (WMI_LOCAL_WIN >> WMI_WIN_SHIFT)) {
                s2 = WM_SPACE_LOCAL;
                ad -= WMI_LOCAL_WIN;
            }
            if (resolved && s2 != sp)
                continue; /* mixed spaces: keep the first lane's */
            sp = s2;
            resolved = 1;
        }
        if (sp != WM_SPACE_GLOBAL)
            ad = (uint32_t)ad;
        a->addr[l] = ad;
        a->mask |= (uint64_t)1 << l;
    }
    a->space = sp;
    return a->mask != 0;
}

/* Same lane mask and the same addresses up to one shift. */
static int same_pattern(const wm_access *a, const wm_access *b)
{
    if (a->mask != b->mask || a->space != b->space || !a->mask)
        return 0;
    unsigned l0 = (unsigned)__builtin_ctzll(a->mask);
    for (unsigned l = l0; l < 32; l++)
        if ((a->mask >> l & 1) &&
            a->addr[l] - a->addr[l0] != b->addr[l] - b->addr[l0])
            return 0;
    return 1;
}

/* The lanes of a (a subset of b's) sit at b's addresses up to one shift. */
static int same_shift(const wm_access *a, const wm_access *b)
{
    unsigned l0 = (unsigned)__builtin_ctzll(a->mask);
    for (unsigned l = l0; l < 32; l++)
        if ((a->mask >> l & 1) &&
            a->addr[l] - a->addr[l0] != b->addr[l] - b->addr[l0])
            return 0;
    return 1;
}

/* Mark the base symbols variable v depends on. */
static void mark_leaves(const wmi_actx *x, uint32_t v, marks *mk);

static void mark_form(const wmi_actx *x, const wmi_aff *a, marks *mk)
{
    for (unsigned i = 0; i < a->nterms && !a->top; i++)
        mark_leaves(x, a->t[i].v, mk);
}

static void mark_leaves(const wmi_actx *x, uint32_t v, marks *mk)
{
    if (mk->seen[v])
        return;
    mk->seen[v] = 1;
    mk->ids[mk->n++] = v;
    const wmi_avar *u = &x->vars[v];
    if (u->kind == WMI_AV_PROD) {
        mark_leaves(x, u->x, mk);
        mark_leaves(x, u->y, mk);
    } else if (u->kind == WMI_AV_ATOM) {
        unsigned nf = u->op == WMI_AOP_SEL ? 4 : 2;
        for (unsigned k = 0; k < nf; k++)
            mark_form(x, &x->forms[u->x + k], mk);
    }
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void marks_clear(marks *mk)
{
    for (size_t i = 0; i < mk->n; i++)
        mk->seen[mk->ids[i]] = 0;
    mk->n = 0;
}

static void name_var(void *ud, const wmi_avar *v, char *out, size_t cap);

static void append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    if (n + strlen(s) + 3 < cap)
        snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", s);
}

/* The symbolic bytes from lane to lane along tid.x: the coefficient of
   tid.x, "non-affine" when tid.x also sits inside an atom. */
static void stride_text(lint *L, marks *mk, const wmi_aff *a, char *buf,
                        size_t cap)
{
    wmi_aff s = wmi_aff_const(0);
    for (unsigned i = 0; i < a->nterms && !s.top; i++) {
        const wmi_avar *v = &L->ax.vars[a->t[i].v];
        if (v->uniform)
            continue;
        const wmi_avar *vx = &L->ax.vars[v->x], *vy = &L->ax.vars[v->y];
        int isx = v->kind == WMI_AV_SREG && v->id == SR_TID_X;
        int px = v->kind == WMI_AV_PROD && vx->kind == WMI_AV_SREG &&
                 vx->id == SR_TID_X && vy->uniform;
        int py = v->kind == WMI_AV_PROD && vy->kind == WMI_AV_SREG &&
                 vy->id == SR_TID_X && vx->uniform;
        wmi_aff t = wmi_aff_const(0);
        if (isx) {
            t = wmi_aff_const(a->t[i].c);
        } else if (px || py) {
            t.nterms = 1;
            t.t[0].c = a->t[i].c;
            t.t[0].v = px ? v->y : v->x;
        } else {
            mark_leaves(&L->ax, a->t[i].v, mk);
            int hit = 0;
            for (size_t k = 0; k < mk->n && !hit; k++) {
                const wmi_avar *u = &L->ax.vars[mk->ids[k]];
                hit = u->kind == WMI_AV_SREG &&
                      (u->id == SR_TID_X || u->id == SR_LANEID);
            }
            marks_clear(mk);
            if (hit) {
                snprintf(buf, cap, "non-affine");
                return;
            }
            continue;
        }
        s = wmi_aff_add(&s, &t);
    }
    wmi_aff_print(&L->ax, &s, name_var, L, buf, cap);
}

static void name_var(void *ud, const wmi_avar *v, char *out, size_t cap)
{
    const lint *L = ud;
    static const char *const sr[] = {
#define X(e, name) name,
        WMI_SREG_LIST(X)
#undef X
    };
    switch ((wmi_avar_kind)v->kind) {
    case WMI_AV_SREG:
        snprintf(out, cap, "%s", v->id < SR_COUNT ? sr[v->id] + 1 : "?");
        return;
    case WMI_AV_PARAM: snprintf(out, cap, "param%u", v->id); return;
    case WMI_AV_ITER: {
        uint32_t line = 0;
        for (size_t b = 0; b < L->nblocks; b++)
            if (L->blocks[b].loop == (int)v->id)
                line = L->m->code[L->blocks[b].start].line;
        snprintf(out, cap, "iter@%u", line);
        return;
    }
    case WMI_AV_LOAD:
        snprintf(out, cap, "ld@%u", L->m->code[v->id].line);
        return;
    case WMI_AV_JOIN:
        snprintf(out, cap, "u@%u", L->m->code[v->id].line);
        return;
    case WMI_AV_PHI:
    case WMI_AV_PROD:
    case WMI_AV_ATOM: break;
    }
    snprintf(out, cap, "phi");
}

/* Values a uniform symbol is moved over. */
static size_t samples(const wmi_avar *v, const unsigned grid[3], int64_t *out)
{
    static const int64_t iter[] = {1, 2, 3, 5};
    static const int64_t cta[] = {1, 2, 3, 5, 7, 8, 31, 33};
    static const int64_t any[] = {1, 2, 3, 4, 7, 8, 31, 33, 1000, 1025};
    const int64_t *src = any;
    size_t n = WM_ARRAY_LEN(any);
    if (v->kind == WMI_AV_ITER) {
        src = iter;
        n = WM_ARRAY_LEN(iter);
    } else if (v->kind == WMI_AV_SREG) {
        src = cta;
        n = WM_ARRAY_LEN(cta);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (v->kind == WMI_AV_SREG && v->id >= SR_CTAID_X &&
            v->id <= SR_CTAID_Z && src[i] >= grid[v->id - SR_CTAID_X])
            continue;
        out[k++] = src[i];
    }
    return k;
}

/* What moving the uniform symbols showed. */
typedef struct shot {
    int moved; /* the lane pattern changed */
    int pad;
    uint32_t worst;            /* worst figure of a mere shift */
    uint32_t edge_lo, edge_hi; /* figures of warps with fewer lanes */
} shot;

/*
 * One assignment of the overridden symbols: every active warp is formed
 * again and compared with its base access.  A shift of the same lanes counts
 * toward the worst case; fewer lanes at the same shift are an edge warp (when
 * `edges`: a parameter nobody fixed moves the boundary anywhere, so it is not
 * counted); anything else moved.
 */
static void try_shot(evalbuf *eb, const memrec *r, const wm_arch *arch,
                     const wm_access *base, const int *act, unsigned nw,
                     int edges, shot *sh)
{
    unsigned first = 0, last = 0;
    while (first < nw && !act[first])
        first++;
    for (unsigned w = first; w < nw; w++)
        if (act[w])
            last = w;
    for (unsigned w = first; w <= last; w++) {
        if (!act[w])
            continue;
        wm_access a;
        wm_counts c;
        if (!warp_access(eb, r, w, 0, &a))
            continue; /* past a boundary (i < n): no request */
        int shift;
        if (a.mask != base[w].mask) {
            wm_access x = a;
            x.mask &= base[w].mask;
            if (!x.mask || !same_shift(&x, &base[w]) ||
                (a.mask & ~base[w].mask)) {
                sh->moved = 1;
                continue;
            }
            if (!edges)
                continue; /* an unknown n moved the guard's boundary */
            shift = 0;    /* fewer lanes, same places: an edge warp */
        } else if (!same_pattern(&a, &base[w])) {
            sh->moved = 1;
            continue;
        } else {
            shift = 1;
        }
        if (wm_count(arch, &a, &c) != WM_OK)
            continue;
        uint32_t fg = wmi_lint_figure(a.space, &c);
        if (shift) {
            sh->worst = fg > sh->worst ? fg : sh->worst;
        } else {
            sh->edge_lo = fg < sh->edge_lo ? fg : sh->edge_lo;
            sh->edge_hi = fg > sh->edge_hi ? fg : sh->edge_hi;
        }
    }
}

/*
 * Move each uniform symbol record r's address or conditions use over its
 * sample values (block and iteration also in pairs), against the base
 * accesses of the block's warps: shifts give v->worst, edge warps widen
 * v->min .. v->max, new patterns name the symbol in v->depends.
 */
static wm_status move_symbols(lint *L, const memrec *r, evalbuf *eb,
                              const uint8_t *given, const wm_arch *arch,
                              const wm_access *base, const int *act,
                              unsigned nw, wm_lint_insn *v)
{
    /* move each uniform symbol: a shift joins the worst case, a new
       pattern names the symbol */
    marks *mk = &eb->mk;
    mark_form(&L->ax, &r->addr, mk);
    for (unsigned k = 0; k < r->npath; k++) {
        mark_form(&L->ax, &L->conds[r->path[k] >> 1].l, mk);
        mark_form(&L->ax, &L->conds[r->path[k] >> 1].r, mk);
    }
    if (r->guard != NOCOND) {
        mark_form(&L->ax, &L->conds[r->guard >> 1].l, mk);
        mark_form(&L->ax, &L->conds[r->guard >> 1].r, mk);
    }
    /* the lowest ids first, as a scan of all symbols would find them */
    qsort(mk->ids, mk->n, sizeof *mk->ids, cmp_u32);
    /* the symbols to move, and their sample values */
    uint32_t sym[16];
    int64_t val[16][16];
    size_t nval[16], nsym = 0;
    for (size_t i = 0; i < mk->n && nsym < 16; i++) {
        uint32_t id = mk->ids[i];
        const wmi_avar *u = &L->ax.vars[id];
        int vary = u->kind == WMI_AV_ITER || u->kind == WMI_AV_LOAD ||
                   u->kind == WMI_AV_JOIN ||
                   (u->kind == WMI_AV_SREG && u->id >= SR_CTAID_X &&
                    u->id <= SR_CTAID_Z) ||
                   (u->kind == WMI_AV_PARAM && !given[u->id] &&
                    L->f->params[u->id].size < 8);
        if (!vary)
            continue;
        sym[nsym] = id;
        nval[nsym] = samples(u, eb->ec.grid, val[nsym]);
        nsym++;
    }
    marks_clear(mk);
    shot sh = {0, 0, v->worst, UINT32_MAX, 0};
    for (size_t k = 0; k < nsym; k++) {
        sh.moved = 0;
        for (size_t i = 0; i < nval[k]; i++) {
            eb->ec.over[0] = sym[k];
            eb->ec.over_val[0] = val[k][i];
            try_shot(eb, r, arch, base, act, nw,
                     L->ax.vars[sym[k]].kind != WMI_AV_PARAM, &sh);
        }
        if (sh.moved) {
            char nm[64];
            const wmi_avar *u = &L->ax.vars[sym[k]];
            name_var(L, u, nm, sizeof nm);
            append(v->depends, sizeof v->depends, nm);
            if (u->kind != WMI_AV_PARAM && v->kind == WM_LINT_EXACT) {
                v->kind = WM_LINT_VARIES;
                snprintf(v->reason, sizeof v->reason,
                         "the lane pattern changes with %s", nm);
            }
        }
    }
    /* a block and a loop iteration together reach the edge of a
       grid-stride loop (i < n in the last round) */
    for (size_t k = 0; k < nsym; k++)
        for (size_t j = 0; j < nsym; j++) {
            const wmi_avar *uk = &L->ax.vars[sym[k]];
            if (uk->kind != WMI_AV_SREG ||
                L->ax.vars[sym[j]].kind != WMI_AV_ITER)
                continue;
            for (size_t i = 0; i < nval[k]; i++)
                for (size_t i2 = 0; i2 < nval[j]; i2++) {
                    eb->ec.over[0] = sym[k];
                    eb->ec.over_val[0] = val[k][i];
                    eb->ec.over[1] = sym[j];
                    eb->ec.over_val[1] = val[j][i2];
                    try_shot(eb, r, arch, base, act, nw, 1, &sh);
                }
        }
    eb->ec.over[0] = eb->ec.over[1] = WMI_NOREG;
    v->worst = sh.worst;
    if (sh.edge_lo != UINT32_MAX) {
        uint32_t lo = sh.edge_lo < v->min ? sh.edge_lo : v->min;
        uint32_t hi = sh.edge_hi > v->max ? sh.edge_hi : v->max;
        if ((lo != v->min || hi != v->max) && v->kind == WM_LINT_EXACT) {
            v->kind = WM_LINT_VARIES;
            snprintf(v->reason, sizeof v->reason,
                     "warps a guard cuts at the edge of the data (i < n) "
                     "have fewer lanes: %u to %u",
                     lo, hi);
        }
        v->min = lo;
        v->max = hi;
        v->worst = hi > v->worst ? hi : v->worst;
    }
    return WM_OK;
}

/* The verdict on record r for the block in eb; each active warp's access
   is added to agg (may be NULL).  moves: also move the uniform symbols
   (misalignments, edges, dependences); without, only the block's warps
   as they stand are counted (the block-shape table). */
/* The verdicts that need no warp's access: an unsupported form, an
   unreached instruction, an address lint cannot follow (1: v is done). */
static int judged_unrun(const lint *L, const memrec *r, wm_lint_insn *v)
{
    if (r->unsupported) {
        v->kind = WM_LINT_UNSUPPORTED;
        snprintf(v->reason, sizeof v->reason, "%s", r->unsupported);
        return 1;
    }
    if (!r->reached) {
        v->kind = WM_LINT_INACTIVE;
        snprintf(v->reason, sizeof v->reason, "unreachable");
        return 1;
    }
    if (r->addr.top) {
        v->kind = WM_LINT_DATA;
        const wmi_insn *at =
            r->addr.at < L->m->ncode ? &L->m->code[r->addr.at] : NULL;
        if (at)
            snprintf(v->reason, sizeof v->reason,
                     "the address depends on %s (PTX line %u: %s)",
                     wmi_aff_why_text((wmi_top_why)r->addr.why), at->line,
                     L->m->texts + at->text);
        else
            snprintf(v->reason, sizeof v->reason, "the address depends on %s",
                     wmi_aff_why_text((wmi_top_why)r->addr.why));
        return 1;
    }
    return 0;
}

wm_status wmi_lint_judge(lint *L, const memrec *r, evalbuf *eb,
                         const uint8_t *given, const wm_arch *arch,
                         wm_lint_insn *v, wm_agg *agg, int moves)
{
    memset(v, 0, sizeof *v);
    v->insn = r->pc;
    v->op = r->op;
    v->size = r->size;
    v->space = r->isp == SP_SHARED  ? WM_SPACE_SHARED
               : r->isp == SP_LOCAL ? WM_SPACE_LOCAL
                                    : WM_SPACE_GLOBAL;
    v->assumed = r->assumed;
    if (judged_unrun(L, r, v))
        return WM_OK;
    /* a generic address into the shared window prints as its offset */
    wmi_aff shown = r->addr;
    int shwin = ((uint64_t)shown.c0 >> WMI_WIN_SHIFT) ==
                (WMI_SHARED_WIN >> WMI_WIN_SHIFT);
    if (shwin)
        shown.c0 = (int64_t)((uint64_t)shown.c0 - WMI_SHARED_WIN);
    static const char win[] = "shared window + ";
    size_t off = shwin ? sizeof win - 1 : 0;
    memcpy(v->form, win, off);
    wmi_aff_print(&L->ax, &shown, name_var, L, v->form + off,
                  sizeof v->form - off);
    stride_text(L, &eb->mk, &r->addr, v->stride, sizeof v->stride);
    unsigned nth = eb->ec.block[0] * eb->ec.block[1] * eb->ec.block[2];
    unsigned nw = (nth + 31) / 32;
    wm_access base[32];
    int act[32];
    double sum = 0, isum = 0;
    int first = -1;
    unsigned nq = r->nreq ? r->nreq : 1, nreqs = 0;
    for (unsigned w = 0; w < nw && w < 32; w++) {
        act[w] = warp_access(eb, r, w, 0, &base[w]);
        if (!act[w])
            continue;
        v->warps++;
        for (unsigned q = 0; q < nq; q++) {
            wm_access qa;
            if (q && !warp_access(eb, r, w, q, &qa))
                continue;
            const wm_access *a = q ? &qa : &base[w];
            wm_counts c;
            wm_status st = wm_count(arch, a, &c);
            if (st == WM_ERR_ALIGN || st == WM_ERR_SIZE) {
                v->kind = WM_LINT_UNSUPPORTED;
                snprintf(v->reason, sizeof v->reason,
                         "%s for the assumed parameter values",
                         st == WM_ERR_ALIGN ? "misaligned lane addresses"
                                            : "an access size the model lacks");
                return WM_OK;
            }
            if (st != WM_OK)
                return st;
            uint32_t fg = wmi_lint_figure(a->space, &c);
            if (first < 0) {
                first = (int)w;
                v->space = a->space; /* generic: the resolved window */
                v->min = v->max = fg;
                v->access = *a;
                v->counts = c;
            }
            v->min = fg < v->min ? fg : v->min;
            v->max = fg > v->max ? fg : v->max;
            sum += fg;
            isum += wmi_lint_ideal(a->space, &c);
            nreqs++;
            st = agg ? wm_agg_add(agg, a, NULL) : WM_OK;
            if (st != WM_OK)
                return st;
        }
    }
    if (first < 0) {
        v->kind = WM_LINT_INACTIVE;
        snprintf(v->reason, sizeof v->reason,
                 "no lane of the block passes the guard");
        return WM_OK;
    }
    assert(nreqs > 0 && v->min <= v->max);
    v->per_request = sum / nreqs;
    v->ideal = isum / nreqs;
    v->worst = v->max;
    v->kind = v->min == v->max ? WM_LINT_EXACT : WM_LINT_VARIES;
    if (v->kind == WM_LINT_VARIES)
        snprintf(v->reason, sizeof v->reason,
                 "the warps of the block differ: %u to %u", v->min, v->max);
    if (moves) {
        wm_status st = move_symbols(L, r, eb, given, arch, base, act, nw, v);
        if (st != WM_OK)
            return st;
    }
    double ex = v->per_request - v->ideal;
    double share = v->per_request > 0 ? ex / v->per_request : 0;
    v->severity = ex <= 1e-9     ? WM_SEV_NONE
                  : share >= 0.5 ? WM_SEV_HIGH
                  : share >= 0.1 ? WM_SEV_MEDIUM
                                 : WM_SEV_LOW;
    return WM_OK;
}

/* ---- the table over block shapes ----------------------------------------- */

/*
 * With no block given: every verdict again for block shapes whose x is a
 * multiple of 32 (x = 32 ... 1024 for a kernel that reads only tid.x;
 * x = 32 ... 256 by y = 1 ... 32 up to 1024 threads when it reads tid.y).
 */
wm_status wmi_lint_by_shape(wm_lint *R, lint *L, evalbuf *eb,
                            const uint8_t *given, const wm_arch *arch,
                            const wmi_func *f)
{
    int two = (f->sregs_used &
               ((uint64_t)1 << SR_TID_Y | (uint64_t)1 << SR_TID_Z)) != 0;
    unsigned saved[3];
    memcpy(saved, eb->ec.block, sizeof saved);
    R->nshapes = 0;
    for (unsigned x = 32; x <= (two ? 256u : 1024u); x *= 2)
        for (unsigned y = 1; y <= (two ? 32u : 1u) && x * y <= 1024; y *= 2) {
            assert(R->nshapes < WM_ARRAY_LEN(R->shapes));
            R->shapes[R->nshapes][0] = x;
            R->shapes[R->nshapes][1] = y;
            R->shapes[R->nshapes][2] = 1;
            R->nshapes++;
        }
    R->by = calloc(R->nshapes * (R->nv + 1), sizeof *R->by);
    if (!R->by)
        return WM_ERR_NOMEM;
    for (size_t k = 0; k < R->nshapes; k++) {
        memcpy(eb->ec.block, R->shapes[k], sizeof R->shapes[k]);
        for (size_t i = 0; i < L->nrecs; i++) {
            wm_lint_insn v;
            wm_status st =
                wmi_lint_judge(L, &L->recs[i], eb, given, arch, &v, NULL, 0);
            if (st != WM_OK)
                return st;
            assert(i < R->nv && R->v[i].insn == v.insn);
            wmi_lint_cell *c = &R->by[i * R->nshapes + k];
            c->kind = (uint8_t)v.kind;
            c->min = v.min;
            c->max = v.max;
            c->per_request = v.per_request;
        }
    }
    memcpy(eb->ec.block, saved, sizeof saved);
    return WM_OK;
}

size_t wm_lint_nshapes(const wm_lint *l)
{
    return l ? l->nshapes : 0;
}

void wm_lint_shape(const wm_lint *l, size_t s, unsigned block[3])
{
    memset(block, 0, 3 * sizeof *block);
    if (l && s < l->nshapes)
        memcpy(block, l->shapes[s], sizeof l->shapes[s]);
}

int wm_lint_by_shape(const wm_lint *l, size_t i, size_t s, double *per_req,
                     uint32_t *min, uint32_t *max)
{
    if (!l || i >= l->nv || s >= l->nshapes)
        return 0;
    const wmi_lint_cell *c = &l->by[i * l->nshapes + s];
    if (c->kind != WM_LINT_EXACT && c->kind != WM_LINT_VARIES)
        return 0;
    if (per_req)
        *per_req = c->per_request;
    if (min)
        *min = c->min;
    if (max)
        *max = c->max;
    return 1;
}
