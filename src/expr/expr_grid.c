/*
 * expr_grid.c -- walk a launch, form warps exactly as CUDA does, and turn
 * each (statement, warp, loop iteration) into one wm_access.
 *
 * Warp formation (CUDA Programming Guide, "SIMT Architecture"): threads
 * of a block are numbered x + y*Dx + z*Dx*Dy and split into consecutive
 * runs of warp_size; the last warp of a block is partial when the block
 * size is not a multiple of warp_size, its missing lanes are inactive.
 *
 * Order of the walk, which decides the "first offending thread" of a
 * fault: blocks with x fastest, then warps of the block, then statements
 * in program order, then loop iterations (outer loop slowest), then lanes.
 * Within one thread: the `if`, then every index expression in order, then
 * the bounds of every index, then the address.  Both evaluators follow it.
 */
#include "expr_int.h"

#include <stdio.h>

/* A loop bound that is the same for every warp, evaluated once. */
typedef struct xbound {
    int known;
    int64_t value;
} xbound;

/* What one warp of a block contributes to a statement, every time. */
typedef struct xwarp {
    int64_t (*tcopy)[WM_MAX_LANES];         /* hoisted vectors, code order */
    int64_t (*tdim)[WM_MAX_LANES];          /* lane part of each SPLIT index */
    int64_t tmin[WMX_MAX_DIMS], tmax[WMX_MAX_DIMS]; /* over live lanes */
    uint64_t lane_bytes[WM_MAX_LANES]; /* sum of tdim * stride * size */
} xwarp;

/* State of one walk. */
typedef struct walker {
    const wm_expr *e;
    const wm_arch *arch;
    xlaunch L;
    int reference;
    uint64_t budget;
    wmi_expr_sink sink;
    void *ctx;
    wm_expr_fault *fault;
    /* per warp of a block: tid of each lane, live lanes */
    unsigned (*tid)[WM_MAX_LANES][3];
    uint64_t *live;
    /* fast path: code and registers per statement, and per statement and
     * warp of a block the hoisted (tid-only) values */
    xcode *code;
    xregs *regs;
    xwarp *cache; /* [stmt * warps_per_block + warp] */
    /* current position */
    unsigned block[3];
    unsigned warp;
    const xstmt *st;
    uint32_t sidx;
    int64_t iter[WMX_MAX_LOOPS];
    wm_access acc;
    xbound *kbound; /* per node: the value of a loop bound without
                       variables, once (NULL on the reference path) */
    xreplay *rep;   /* block-independent statements (NULL: none) */
    int replaying;  /* past the first block */
    size_t ord;     /* accesses of this (statement, warp) visit so far */
    /* closed form (expr_closed.c): NULL unless wmi_expr_walk_closed */
    wmi_expr_repeat repeat;
    xcf *cf;
    int64_t (*lcoef)[WMX_MAX_DIMS]; /* per statement: each index's step per
                                       iteration of the innermost loop */
    unsigned char *laff; /* per statement: lcoef holds (affine loop) */
    uint64_t *rowp; /* per statement: period along x of a row counted by
                       its first blocks (0: every block; NULL: none) */
    uint64_t rowmax; /* blocks x >= rowmax have nothing left (0: none) */
    uint64_t mult;   /* accesses each one stands for (row closed form) */
} walker;

int wm_expr_lane_tid(const unsigned block[3], unsigned warp_size,
                     unsigned warp, unsigned lane, unsigned tid[3])
{
    uint64_t t = (uint64_t)warp * warp_size + lane;
    uint64_t bx = block[0], by = block[1];
    if (lane >= warp_size || t >= bx * by * block[2])
        return 0;
    tid[0] = (unsigned)(t % bx);
    tid[1] = (unsigned)(t / bx % by);
    tid[2] = (unsigned)(t / (bx * by));
    return 1;
}

/* Report a fault of lane `lane` at span [off, off+len) with message msg. */
static wm_status set_fault(walker *w, unsigned lane, size_t off, size_t len,
                           const char *msg)
{
    wm_expr_fault *f = w->fault;
    if (!f)
        return WM_ERR_FAULT;
    memset(f, 0, sizeof *f);
    f->stmt = w->sidx;
    memcpy(f->where.block, w->block, sizeof w->block);
    f->where.warp = w->warp;
    memcpy(f->where.iter, w->iter, sizeof w->iter);
    memcpy(f->thread, w->tid[w->warp][lane], sizeof f->thread);
    f->lane = lane;
    char at[160];
    int n = snprintf(at, sizeof at, " in block (%u,%u,%u) thread (%u,%u,%u)",
                     w->block[0], w->block[1], w->block[2], f->thread[0],
                     f->thread[1], f->thread[2]);
    for (unsigned k = 0; k < w->st->nloops && n > 0 && (size_t)n < sizeof at;
         k++)
        n += snprintf(at + n, sizeof at - (size_t)n, ", %s = %lld",
                      w->st->loops[k].name, (long long)w->iter[k]);
    wm_diag_set(&f->diag, WM_ERR_FAULT, off, len, "%s%s", msg, at);
    return WM_ERR_FAULT;
}

/* The variables a thread sees. */
static void thread_env(const walker *w, unsigned lane, xenv *env)
{
    const unsigned *t = w->tid[w->warp][lane];
    memset(env, 0, sizeof *env);
    for (int k = 0; k < 3; k++) {
        env->v[XV_TID_X + k] = t[k];
        env->v[XV_NTID_X + k] = w->L.block[k];
        env->v[XV_CTAID_X + k] = w->block[k];
        env->v[XV_NCTAID_X + k] = w->L.grid[k];
    }
    env->v[XV_LANEID] = lane;
    env->v[XV_WARPID] = w->warp;
    for (unsigned k = 0; k < WMX_MAX_LOOPS; k++)
        env->v[XV_LOOP0 + k] = w->iter[k];
}

/* Fault text for index d of a lane; 1 if idx is fine. */
static int bounds_msg(const xstmt *s, unsigned d, int64_t idx, char *msg,
                      size_t n)
{
    if (d == 0 && s->open_first)
        return 1; /* checked through the address */
    if (idx >= 0 && idx < s->dims[d])
        return 1;
    snprintf(msg, n,
             "index %lld is out of bounds for dimension %u of '%s' "
             "(size %lld)",
             (long long)idx, d + 1, s->name, (long long)s->dims[d]);
    return 0;
}

/*
 * Byte address of element idx[] (bounds already checked).  Only an open
 * first dimension can leave [0, 2^63): then returns 0.
 */
static int element_addr(const xstmt *s, const int64_t *idx, uint64_t *out)
{
    uint64_t rest = 0;
    for (unsigned d = 1; d < s->ndims; d++)
        rest += (uint64_t)idx[d] * s->stride[d];
    int64_t first, sum, bytes, addr;
    if (__builtin_mul_overflow(idx[0], (int64_t)s->stride[0], &first) ||
        __builtin_add_overflow(first, (int64_t)rest, &sum) ||
        __builtin_mul_overflow(sum, (int64_t)s->esize, &bytes) ||
        __builtin_add_overflow(bytes, s->offset, &addr) || addr < 0)
        return 0;
    *out = (uint64_t)addr;
    return 1;
}

static const char addr_fmt[] =
    "address of '%s' is outside 0..2^63-1 (first index %lld)";

/* ---- reference path: one thread at a time ------------------------------- */

static wm_status form_reference(walker *w)
{
    const xstmt *s = w->st;
    const wm_expr *e = w->e;
    uint64_t live = w->live[w->warp], mask = 0;
    assert(live != 0); /* every warp of a block has lane 0 */
    for (unsigned l = 0; l < w->L.nlanes; l++) {
        if (!(live >> l & 1))
            continue;
        xenv env;
        xfault f;
        int64_t v, idx[WMX_MAX_DIMS];
        thread_env(w, l, &env);
        if (s->pred >= 0) {
            if (!wmi_expr_ref_eval(e, s->pred, &env, &v, &f))
                return set_fault(w, l, f.off, f.len, f.msg);
            if (v == 0)
                continue;
        }
        for (unsigned d = 0; d < s->ndims; d++)
            if (!wmi_expr_ref_eval(e, s->index[d], &env, &idx[d], &f))
                return set_fault(w, l, f.off, f.len, f.msg);
        for (unsigned d = 0; d < s->ndims; d++) {
            char msg[160];
            if (!bounds_msg(s, d, idx[d], msg, sizeof msg))
                return set_fault(w, l, s->index_off[d], s->index_len[d],
                                 msg);
        }
        if (!element_addr(s, idx, &w->acc.addr[l])) {
            char msg[160];
            snprintf(msg, sizeof msg, addr_fmt, s->name, (long long)idx[0]);
            return set_fault(w, l, s->index_off[0], s->index_len[0], msg);
        }
        mask |= (uint64_t)1 << l;
    }
    w->acc.mask = mask;
    return WM_OK;
}

/* ---- fast path: compiled code, all lanes at once ---------------------- */

/* Index d of lane l as the compiled code knows it. */
static int64_t index_value(const xcode *c, const xregs *r, const xwarp *wc,
                           unsigned d, unsigned l)
{
    switch (c->dim[d]) {
    case XD_SCALAR: return r->s[c->sreg[d]];
    case XD_SPLIT:
        return wmx_wrap((uint64_t)r->s[c->sreg[d]] + (uint64_t)wc->tdim[d][l]);
    case XD_VEC: return r->v[XR_IDX(c->vreg[d])][l];
    }
    return 0;
}

/* Lanes of mask whose index d is outside [0, lim).  One loop per kind of
 * index, branch-free over the lanes (index_value's values, lane by lane). */
static uint64_t out_of_bounds(const xcode *c, const xregs *r, const xwarp *wc,
                              unsigned d, uint64_t mask, uint64_t live,
                              uint64_t lim, unsigned nl)
{
    if (c->dim[d] == XD_SCALAR)
        return (uint64_t)r->s[c->sreg[d]] >= lim ? mask : 0;
    uint64_t fail = 0;
    if (c->dim[d] == XD_SPLIT) {
        int64_t lo, hi, sv = r->s[c->sreg[d]];
        /* All live lanes: the cached lane range decides at once. */
        if (mask == live && !__builtin_add_overflow(sv, wc->tmin[d], &lo) &&
            !__builtin_add_overflow(sv, wc->tmax[d], &hi) && lo >= 0 &&
            (uint64_t)hi < lim)
            return 0;
        const int64_t *T = wc->tdim[d];
        for (unsigned l = 0; l < nl; l++)
            fail |= (uint64_t)((uint64_t)wmx_wrap((uint64_t)sv +
                                                  (uint64_t)T[l]) >= lim)
                    << l;
        return fail & mask;
    }
    const int64_t *A = r->v[XR_IDX(c->vreg[d])];
    for (unsigned l = 0; l < nl; l++)
        fail |= (uint64_t)((uint64_t)A[l] >= lim) << l;
    return fail & mask;
}

static wm_status form_fast(walker *w)
{
    const xstmt *s = w->st;
    assert(w->sidx < w->e->nstmts && w->warp < w->L.warps_per_block);
    const xcode *c = &w->code[w->sidx];
    const xwarp *wc = &w->cache[w->sidx * w->L.warps_per_block + w->warp];
    xregs *r = &w->regs[w->sidx];
    unsigned nl = w->L.nlanes;
    uint64_t live = w->live[w->warp];
    for (unsigned k = 0; k < s->nloops; k++)
        r->s[XS_LOOP0 + k] = w->iter[k];
    r->m[0] = live;
    wmi_expr_run_insns(c->insn, c->ninsn, nl, r);
    uint64_t mask = r->m[c->pred_mask] & ~r->faulted;
    assert((mask & ~live) == 0); /* only live lanes ever access */
    uint64_t bad = r->faulted; /* lanes with any fault */
    int bad_dim[WM_MAX_LANES];
    /* Bounds, dimension by dimension; a lane keeps its first failure. */
    for (unsigned d = 0; d < s->ndims && mask; d++) {
        if (d == 0 && s->open_first)
            continue;
        uint64_t fail = out_of_bounds(c, r, wc, d, mask, live,
                                      (uint64_t)s->dims[d], nl);
        for (uint64_t f = fail; f; f &= f - 1)
            bad_dim[__builtin_ctzll(f)] = (int)d;
        bad |= fail;
        mask &= ~fail;
    }
    uint64_t *addr = w->acc.addr;
    if (!s->open_first && mask) {
        /* In bounds, so the address fits: sum the parts with wrapping
         * arithmetic, exact because the true value is below 2^63. */
        uint64_t base = (uint64_t)s->offset;
        for (unsigned d = 0; d < s->ndims; d++)
            if (c->dim[d] != XD_VEC)
                base += (uint64_t)r->s[c->sreg[d]] * s->stride[d] * s->esize;
        for (unsigned l = 0; l < nl; l++)
            addr[l] = base + wc->lane_bytes[l];
        for (unsigned d = 0; d < s->ndims; d++) {
            if (c->dim[d] != XD_VEC)
                continue;
            const int64_t *A = r->v[XR_IDX(c->vreg[d])];
            uint64_t bs = s->stride[d] * s->esize;
            for (unsigned l = 0; l < nl; l++)
                addr[l] += (uint64_t)A[l] * bs;
        }
    } else if (mask) {
        for (unsigned l = 0; l < nl; l++) {
            if (!(mask >> l & 1))
                continue;
            int64_t idx[WMX_MAX_DIMS];
            for (unsigned d = 0; d < s->ndims; d++)
                idx[d] = index_value(c, r, wc, d, l);
            if (!element_addr(s, idx, &addr[l])) {
                bad_dim[l] = -2;
                bad |= (uint64_t)1 << l;
            }
        }
        mask &= ~bad;
    }
    if (bad) {
        unsigned l = (unsigned)__builtin_ctzll(bad);
        char msg[160];
        assert(live >> l & 1);
        if (r->faulted >> l & 1) {
            xfault f;
            wmi_expr_fault_text(w->e, r->fnode[l], r->fval[l], &f);
            return set_fault(w, l, f.off, f.len, f.msg);
        }
        if (bad_dim[l] == -2) {
            snprintf(msg, sizeof msg, addr_fmt, s->name,
                     (long long)index_value(c, r, wc, 0, l));
            return set_fault(w, l, s->index_off[0], s->index_len[0], msg);
        }
        unsigned d = (unsigned)bad_dim[l];
        bounds_msg(s, d, index_value(c, r, wc, d, l), msg, sizeof msg);
        return set_fault(w, l, s->index_off[d], s->index_len[d], msg);
    }
    w->acc.mask = mask;
    return WM_OK;
}

/* Evaluate a loop bound (uniform) with the first live lane's view. */
static int loop_value(walker *w, int32_t n, int64_t *out, wm_status *st)
{
    if (w->kbound && w->kbound[n].known) {
        *out = w->kbound[n].value; /* a bound without variables */
        return 1;
    }
    xenv env;
    xfault f;
    unsigned lane = (unsigned)__builtin_ctzll(w->live[w->warp]);
    thread_env(w, lane, &env);
    if (wmi_expr_ref_eval(w->e, n, &env, out, &f))
        return 1;
    *st = set_fault(w, lane, f.off, f.len, f.msg);
    return 0;
}

/* ---- closed form: one residue per warp access (expr_closed.c) -------- */

/* 1 if index d of scalar part v is in bounds for every live lane. */
static int span_ok(const walker *w, unsigned d, int64_t v)
{
    const xstmt *s = w->st;
    const xwarp *wc = &w->cache[w->sidx * w->L.warps_per_block + w->warp];
    int64_t lo = v, hi = v;
    if (w->code[w->sidx].dim[d] == XD_SPLIT &&
        (__builtin_add_overflow(v, wc->tmin[d], &lo) ||
         __builtin_add_overflow(v, wc->tmax[d], &hi)))
        return 0;
    return lo >= 0 && hi < s->dims[d];
}

/*
 * The scalar part sv[] of each index and the byte base of the current
 * access of a closed statement; 0 when a lane faults, an index leaves its
 * bounds or the `if` turns lanes off (the ordinary path forms that access
 * and says why).
 */
static int closed_base(walker *w, int64_t *sv, uint64_t *base)
{
    const xstmt *s = w->st;
    const xcode *c = &w->code[w->sidx];
    xregs *r = &w->regs[w->sidx];
    uint64_t live = w->live[w->warp];
    for (unsigned k = 0; k < s->nloops; k++)
        r->s[XS_LOOP0 + k] = w->iter[k];
    r->m[0] = live;
    wmi_expr_run_insns(c->insn, c->ninsn, w->L.nlanes, r);
    if (r->faulted || r->m[c->pred_mask] != live)
        return 0;
    uint64_t b = (uint64_t)s->offset;
    for (unsigned d = 0; d < s->ndims; d++) {
        assert(c->dim[d] != XD_VEC);
        sv[d] = r->s[c->sreg[d]];
        if (!span_ok(w, d, sv[d]))
            return 0;
        b += (uint64_t)sv[d] * s->stride[d] * s->esize;
    }
    *base = b;
    return 1;
}

/* Give the formed access (status st of forming it) to the sink. */
static wm_status deliver(walker *w, wm_status st)
{
    if (st != WM_OK)
        return st;
    wm_expr_where where;
    memcpy(where.block, w->block, sizeof where.block);
    where.warp = w->warp;
    memcpy(where.iter, w->iter, sizeof where.iter);
    return w->sink(w->ctx, &w->acc, &where);
}

/* One access of a closed statement: a repeat of a residue seen before is
 * only counted; the first of a residue goes the ordinary way. */
static wm_status emit_closed(walker *w)
{
    int64_t sv[WMX_MAX_DIMS];
    uint64_t b;
    wm_status st = WM_OK;
    if (closed_base(w, sv, &b) &&
        wmi_expr_cf_note(w->cf, w->sidx, w->warp, b, w->mult, &st))
        return st;
    /* a row in closed form cannot fault (row_setup) */
    assert(st != WM_OK || w->mult == 1 || closed_base(w, sv, &b));
    return st != WM_OK ? st : deliver(w, form_fast(w));
}

/*
 * The innermost loop of a closed statement whose indices move by a
 * constant per iteration: n iterations from lo by step.  Returns 0 (and
 * does nothing) when it cannot be shown that every iteration stays in
 * bounds, or when the budget would run out inside the loop; the caller
 * then runs the iterations one by one.
 */
static int closed_loop(walker *w, unsigned level, int64_t lo, int64_t step,
                       uint64_t n, wm_status *st)
{
    const xstmt *s = w->st;
    const int64_t *coef = w->lcoef[w->sidx];
    int64_t sv[WMX_MAX_DIMS];
    uint64_t b0, d = 0;
    if (n < 2 || w->budget < n)
        return 0;
    w->iter[level] = lo;
    if (!closed_base(w, sv, &b0))
        return 0;
    /* both ends in bounds: every iteration between them is (affine) */
    int64_t span, move, last;
    if (n - 1 > (uint64_t)INT64_MAX ||
        __builtin_mul_overflow((int64_t)(n - 1), step, &span))
        return 0;
    for (unsigned k = 0; k < s->ndims; k++) {
        if (__builtin_mul_overflow(span, coef[k], &move) ||
            __builtin_add_overflow(sv[k], move, &last) ||
            !span_ok(w, k, last))
            return 0;
        d += (uint64_t)coef[k] * (uint64_t)step * s->stride[k] * s->esize;
    }
    uint64_t q = wmi_expr_cf_quantum(w->cf, w->sidx);
    uint64_t p = wmi_expr_cf_period(d, q), m = n < p ? n : p;
    w->budget -= n;
    /* One period in order: each residue's first access, or one repeat. */
    for (uint64_t i = 0; i < m; i++) {
        if (wmi_expr_cf_note(w->cf, w->sidx, w->warp, b0 + i * d, w->mult,
                             st)) {
            if (*st != WM_OK)
                return 1;
            continue;
        }
        w->iter[level] = lo + (int64_t)i * step;
        if ((*st = deliver(w, form_fast(w))) != WM_OK)
            return 1;
    }
    for (uint64_t i = 0; i < m; i++)
        if ((n - 1 - i) / p)
            wmi_expr_cf_add(w->cf, w->sidx, w->warp, b0 + i * d,
                            (n - 1 - i) / p * w->mult);
    w->iter[level] = 0;
    return 1;
}

static wm_status emit_access(walker *w)
{
    if (w->budget == 0)
        return WM_ERR_LIMIT;
    w->budget--;
    wm_status st = WM_OK;
    if (wmi_expr_cf_quantum(w->cf, w->sidx))
        return emit_closed(w);
    if (w->mult > 1) {
        /* a row in closed form: the blocks p, 2p, ... along it repeat
           this access's counts */
        if ((st = deliver(w, form_fast(w))) != WM_OK)
            return st;
        return w->repeat(w->ctx, &w->acc, w->mult - 1);
    }
    if (wmi_expr_replay_on(w->rep, w->sidx, w->warp)) {
        if (w->replaying)
            wmi_expr_replay_get(w->rep, w->sidx, w->warp, w->ord, &w->acc);
        else if ((st = form_fast(w)) == WM_OK)
            st = wmi_expr_replay_record(w->rep, w->sidx, w->warp, &w->acc);
        w->ord++;
    } else {
        st = w->reference ? form_reference(w) : form_fast(w);
    }
    return deliver(w, st);
}

/* Run loop `level` and the ones inside it, then form the access. */
static wm_status iterate(walker *w, unsigned level)
{
    const xstmt *s = w->st;
    assert(level <= s->nloops);
    if (level == s->nloops)
        return emit_access(w);
    const xloop *L = &s->loops[level];
    int64_t lo, hi, step = 1;
    wm_status st = WM_OK;
    if (!loop_value(w, L->lo, &lo, &st) || !loop_value(w, L->hi, &hi, &st))
        return st;
    if (L->step >= 0) {
        if (!loop_value(w, L->step, &step, &st))
            return st;
        if (step <= 0) {
            char msg[96];
            size_t a, b;
            wmi_expr_span(w->e, L->step, &a, &b);
            snprintf(msg, sizeof msg, "loop step %lld is not positive",
                     (long long)step);
            return set_fault(w, (unsigned)__builtin_ctzll(w->live[w->warp]),
                             a, b - a, msg);
        }
    }
    if (level + 1 == s->nloops && w->laff && w->laff[w->sidx] && lo < hi &&
        closed_loop(w, level, lo, step,
                    ((uint64_t)hi - (uint64_t)lo - 1) / (uint64_t)step + 1,
                    &st))
        return st;
    for (int64_t j = lo; j < hi;
         j = (uint64_t)hi - (uint64_t)j > (uint64_t)step ? j + step : hi) {
        w->iter[level] = j;
        if ((st = iterate(w, level + 1)) != WM_OK)
            return st;
    }
    w->iter[level] = 0;
    return WM_OK;
}

static void walker_free(walker *w)
{
    if (w->cache)
        for (size_t i = 0; i < w->e->nstmts * w->L.warps_per_block; i++) {
            free(w->cache[i].tcopy);
            free(w->cache[i].tdim);
        }
    free(w->cache);
    free(w->tid);
    free(w->live);
    /* either array may be missing when setup ran out of memory */
    for (size_t i = 0; i < w->e->nstmts; i++) {
        if (w->code)
            wmi_expr_code_free(&w->code[i]);
        if (w->regs)
            wmi_expr_regs_free(&w->regs[i]);
    }
    free(w->code);
    free(w->regs);
    free(w->kbound);
    wmi_expr_replay_free(w->rep);
    wmi_expr_cf_free(w->cf);
    free(w->lcoef);
    free(w->laff);
    free(w->rowp);
}

/* 1 if node n's subtree reads no variable. */
static int var_free(const wm_expr *e, int32_t n)
{
    if (n < 0)
        return 1;
    const xnode *x = &e->nodes[n];
    if (x->kind == XN_VAR)
        return 0;
    return var_free(e, x->a) && var_free(e, x->b) && var_free(e, x->c);
}

/* Evaluate every loop bound without variables once; one that faults stays
 * unknown, so each warp reports the fault where it meets it. */
static wm_status const_bounds(walker *w)
{
    const wm_expr *e = w->e;
    w->kbound = calloc(e->nnodes ? e->nnodes : 1, sizeof *w->kbound);
    if (!w->kbound)
        return WM_ERR_NOMEM;
    xenv env;
    memset(&env, 0, sizeof env);
    for (size_t i = 0; i < e->nstmts; i++)
        for (unsigned k = 0; k < e->stmts[i].nloops; k++) {
            const xloop *L = &e->stmts[i].loops[k];
            int32_t n3[3] = {L->lo, L->hi, L->step};
            for (int j = 0; j < 3; j++) {
                xfault f;
                int64_t v;
                if (n3[j] >= 0 && var_free(e, n3[j]) &&
                    wmi_expr_ref_eval(e, n3[j], &env, &v, &f)) {
                    w->kbound[n3[j]].known = 1;
                    w->kbound[n3[j]].value = v;
                }
            }
        }
    return WM_OK;
}

/*
 * Run statement i's hoisted code for warp wp of a block and keep what
 * every visit of that warp reuses: the vectors the access code reads, the
 * lane part of each SPLIT index with its range over the live lanes, and
 * the lane part of the byte address.
 */
static wm_status build_cache(walker *w, size_t i, unsigned wp)
{
    const xcode *c = &w->code[i];
    const xstmt *s = &w->e->stmts[i];
    xregs *r = &w->regs[i];
    xwarp *wc = &w->cache[i * w->L.warps_per_block + wp];
    unsigned nl = w->L.nlanes;
    uint64_t live = w->live[wp];
    wc->tcopy = calloc(c->ntcopy ? c->ntcopy : 1, sizeof *wc->tcopy);
    wc->tdim = calloc(s->ndims, sizeof *wc->tdim);
    if (!wc->tcopy || !wc->tdim)
        return WM_ERR_NOMEM;
    for (unsigned l = 0; l < nl; l++) {
        r->v[0][l] = w->tid[wp][l][0];
        r->v[1][l] = w->tid[wp][l][1];
        r->v[2][l] = w->tid[wp][l][2];
        r->v[3][l] = l;
    }
    r->m[0] = live;
    wmi_expr_run_insns(c->hoist, c->nhoist, nl, r);
    assert(r->faulted == 0); /* hoisted code cannot fault */
    for (unsigned k = 0; k < c->ntcopy; k++)
        memcpy(wc->tcopy[k], r->v[XR_IDX(c->tcopy[k])], sizeof wc->tcopy[k]);
    for (unsigned d = 0; d < s->ndims; d++) {
        wc->tmin[d] = INT64_MAX;
        wc->tmax[d] = INT64_MIN;
        if (c->dim[d] != XD_SPLIT)
            continue;
        const int64_t *T = r->v[XR_IDX(c->treg[d])];
        uint64_t bs = s->stride[d] * s->esize;
        memcpy(wc->tdim[d], T, sizeof wc->tdim[d]);
        for (unsigned l = 0; l < nl; l++) {
            wc->lane_bytes[l] += (uint64_t)T[l] * bs;
            if (live >> l & 1) {
                wc->tmin[d] = T[l] < wc->tmin[d] ? T[l] : wc->tmin[d];
                wc->tmax[d] = T[l] > wc->tmax[d] ? T[l] : wc->tmax[d];
            }
        }
    }
    return WM_OK;
}

/*
 * Statement i is counted in closed form when every index is SCALAR or
 * SPLIT (the warp's addresses are a base plus its cached lane part) and
 * its space has a translation quantum; its innermost loop too when every
 * index and the `if` move by a constant per iteration.
 */
static void closed_setup(walker *w, size_t i)
{
    const xstmt *s = &w->e->stmts[i];
    const xcode *c = &w->code[i];
    uint64_t q = wmi_expr_quantum(w->arch, s->space, s->esize);
    if (s->open_first || q == 0 || q > 4096)
        return;
    for (unsigned d = 0; d < s->ndims; d++)
        if (c->dim[d] == XD_VEC)
            return;
    wmi_expr_cf_enable(w->cf, i, q);
    if (!s->nloops)
        return;
    unsigned v = XV_LOOP0 + s->nloops - 1;
    int64_t pc;
    if (s->pred >= 0 && (!wmi_expr_affine_in(w->e, s->pred, v, &w->L, &pc) ||
                         pc != 0))
        return; /* the `if` must not depend on the loop */
    for (unsigned d = 0; d < s->ndims; d++)
        if (!wmi_expr_affine_in(w->e, s->index[d], v, &w->L, &w->lcoef[i][d]))
            return;
    w->laff[i] = 1;
}

/* Accesses statement i forms per block when its loop bounds are
 * constants (lo[], hi[] filled); 0 when they are not. */
static int stmt_trips(const walker *w, size_t i, int64_t *lo, int64_t *hi,
                      uint64_t *n)
{
    const xstmt *s = &w->e->stmts[i];
    *n = w->L.warps_per_block;
    for (unsigned k = 0; k < s->nloops; k++) {
        const xloop *L = &s->loops[k];
        int64_t step = 1;
        if (!w->kbound[L->lo].known || !w->kbound[L->hi].known ||
            (L->step >= 0 && !w->kbound[L->step].known))
            return 0;
        lo[k] = w->kbound[L->lo].value;
        hi[k] = w->kbound[L->hi].value;
        if (L->step >= 0 && (step = w->kbound[L->step].value) <= 0)
            return 0;
        uint64_t trips = lo[k] < hi[k] ? ((uint64_t)hi[k] - (uint64_t)lo[k] -
                                          1) / (uint64_t)step + 1
                                       : 0;
        if (trips && *n > UINT64_MAX / trips)
            return 0;
        *n *= trips;
        if (trips) /* the last value the variable takes, plus one */
            hi[k] = lo[k] + (int64_t)((trips - 1) * (uint64_t)step) + 1;
    }
    return 1;
}

/*
 * Rows of blocks in closed form.  When no thread of the launch can fault
 * and the budget covers the whole launch, the walk cannot stop part way,
 * so accesses may be counted ahead of their block: a closed statement
 * without `if` whose indices move by a constant per block along x has
 * residues that repeat with a period P along the row, and its first P
 * blocks count for the whole row (each access standing for the blocks
 * P, 2P, ... after it).  The first access of every residue is still
 * formed in its own block, in walk order.
 */
static wm_status row_setup(walker *w)
{
    const wm_expr *e = w->e;
    uint64_t total = 0, n;
    int64_t lo[WMX_MAX_LOOPS], hi[WMX_MAX_LOOPS];
    for (size_t i = 0; i < e->nstmts; i++) {
        if (!stmt_trips(w, i, lo, hi, &n) ||
            !wmi_expr_stmt_safe(e, &e->stmts[i], &w->L, lo, hi) ||
            n > UINT64_MAX - total)
            return WM_OK;
        total += n;
    }
    uint64_t blocks = (uint64_t)w->L.grid[0] * w->L.grid[1] * w->L.grid[2];
    if (total && total > w->budget / blocks)
        return WM_OK;
    w->rowp = calloc(e->nstmts ? e->nstmts : 1, sizeof *w->rowp);
    if (!w->rowp)
        return WM_ERR_NOMEM;
    int all = 1;
    for (size_t i = 0; i < e->nstmts; i++) {
        const xstmt *s = &e->stmts[i];
        if (!stmt_trips(w, i, lo, hi, &n))
            return WM_OK; /* NEVER: shown above */
        /* a closed statement's residue table needs the same lanes live */
        uint64_t p = wmi_expr_cf_quantum(w->cf, i) && s->pred >= 0
                         ? 0
                         : wmi_expr_row_period(
                               e, s, &w->L, lo, hi,
                               wmi_expr_quantum(w->arch, s->space, s->esize));
        w->rowp[i] = p;
        w->rowmax = p > w->rowmax ? p : w->rowmax;
        all &= p != 0;
    }
    if (!all)
        w->rowmax = 0;
    return WM_OK;
}

static wm_status walker_init(walker *w)
{
    const wm_expr *e = w->e;
    xlaunch *L = &w->L;
    unsigned nl = L->nlanes;
    size_t nw = L->warps_per_block;
    w->tid = calloc(nw, sizeof *w->tid);
    w->live = calloc(nw, sizeof *w->live);
    if (!w->tid || !w->live)
        return WM_ERR_NOMEM;
    for (unsigned wp = 0; wp < nw; wp++)
        for (unsigned l = 0; l < nl; l++)
            if (wm_expr_lane_tid(L->block, nl, wp, l, w->tid[wp][l]))
                w->live[wp] |= (uint64_t)1 << l;
    if (w->reference)
        return WM_OK;
    if (const_bounds(w) != WM_OK ||
        wmi_expr_replay_new(e, (unsigned)nw, nl, &w->rep) != WM_OK)
        return WM_ERR_NOMEM;
    w->code = calloc(e->nstmts ? e->nstmts : 1, sizeof *w->code);
    w->regs = calloc(e->nstmts ? e->nstmts : 1, sizeof *w->regs);
    if (!w->code || !w->regs)
        return WM_ERR_NOMEM;
    w->cache = calloc(e->nstmts ? e->nstmts * nw : 1, sizeof *w->cache);
    if (!w->cache)
        return WM_ERR_NOMEM;
    for (size_t i = 0; i < e->nstmts; i++) {
        wm_status st = wmi_expr_compile(e, &e->stmts[i], L, &w->code[i]);
        if (st == WM_OK)
            st = wmi_expr_regs_alloc(&w->code[i], &w->regs[i]);
        for (unsigned wp = 0; st == WM_OK && wp < nw; wp++)
            st = build_cache(w, i, wp);
        if (st != WM_OK)
            return st;
    }
    if (!w->repeat)
        return WM_OK;
    w->lcoef = calloc(e->nstmts ? e->nstmts : 1, sizeof *w->lcoef);
    w->laff = calloc(e->nstmts ? e->nstmts : 1, 1);
    if (!w->lcoef || !w->laff ||
        wmi_expr_cf_new(e->nstmts, (unsigned)nw, &w->cf) != WM_OK)
        return WM_ERR_NOMEM;
    for (size_t i = 0; i < e->nstmts; i++)
        closed_setup(w, i);
    return row_setup(w);
}

/* The repeats of one residue, as accesses like its first. */
static wm_status flush_one(void *ud, size_t stmt, unsigned warp,
                           uint64_t first, uint64_t nrep)
{
    walker *w = ud;
    const xstmt *s = &w->e->stmts[stmt];
    const xwarp *wc = &w->cache[stmt * w->L.warps_per_block + warp];
    w->acc.site = (uint32_t)stmt;
    w->acc.space = s->space;
    w->acc.op = s->op;
    w->acc.size = s->esize;
    w->acc.mask = w->live[warp];
    for (unsigned l = 0; l < w->L.nlanes; l++)
        w->acc.addr[l] = first + wc->lane_bytes[l];
    return w->repeat(w->ctx, &w->acc, nrep);
}

/* Load the per-warp inputs of every statement's registers. */
static void load_warp(walker *w)
{
    const unsigned (*tid)[3] = (const unsigned (*)[3])w->tid[w->warp];
    for (size_t i = 0; i < w->e->nstmts; i++) {
        xregs *r = &w->regs[i];
        const xcode *c = &w->code[i];
        const xwarp *wc = &w->cache[i * w->L.warps_per_block + w->warp];
        r->s[XS_CTAID_X] = w->block[0];
        r->s[XS_CTAID_Y] = w->block[1];
        r->s[XS_CTAID_Z] = w->block[2];
        r->s[XS_WARPID] = w->warp;
        r->s[XS_TID_Y] = tid[0][1];
        r->s[XS_TID_Z] = tid[0][2];
        for (unsigned k = 0; k < c->ntcopy; k++)
            memcpy(r->v[XR_IDX(c->tcopy[k])], wc->tcopy[k],
                   sizeof wc->tcopy[k]);
    }
}

static wm_status walk(const wm_expr *e, const wm_arch *arch, int reference,
                      uint64_t max_accesses, wmi_expr_sink sink,
                      wmi_expr_repeat repeat, void *ctx, wm_expr_fault *fault)
{
    walker w;
    memset(&w, 0, sizeof w);
    if (!e->have_block || wm_arch_check(arch) != WM_OK)
        return WM_ERR_ARG;
    w.e = e;
    w.arch = arch;
    w.reference = reference;
    w.repeat = reference ? NULL : repeat;
    w.sink = sink;
    w.ctx = ctx;
    w.fault = fault;
    w.budget = max_accesses;
    memcpy(w.L.grid, e->grid, sizeof w.L.grid);
    memcpy(w.L.block, e->block, sizeof w.L.block);
    w.L.nlanes = arch->warp_size;
    w.L.threads_per_block = (uint64_t)e->block[0] * e->block[1] * e->block[2];
    w.L.warps_per_block = (unsigned)((w.L.threads_per_block + arch->warp_size -
                                      1) / arch->warp_size);
    /* Visiting a warp costs something even when its loops are empty. */
    uint64_t visits = (uint64_t)e->grid[0] * e->grid[1];
    if (visits > max_accesses / e->grid[2] ||
        visits * e->grid[2] > max_accesses / w.L.warps_per_block ||
        (e->nstmts && visits * e->grid[2] * w.L.warps_per_block >
                          max_accesses / e->nstmts))
        return WM_ERR_LIMIT;
    wm_status st = walker_init(&w);
    w.acc.space = WM_SPACE_GLOBAL;
    for (unsigned z = 0; st == WM_OK && z < e->grid[2]; z++)
        for (unsigned y = 0; st == WM_OK && y < e->grid[1]; y++)
            for (unsigned x = 0; st == WM_OK && x < e->grid[0]; x++) {
                w.block[0] = x, w.block[1] = y, w.block[2] = z;
                w.replaying = x || y || z;
                if (w.rowmax && x >= w.rowmax)
                    continue; /* counted by the row's first blocks */
                for (w.warp = 0; st == WM_OK && w.warp < w.L.warps_per_block;
                     w.warp++) {
                    if (!reference)
                        load_warp(&w);
                    for (size_t i = 0; st == WM_OK && i < e->nstmts; i++) {
                        w.mult = 1;
                        if (w.rowp && w.rowp[i]) {
                            if (x >= w.rowp[i])
                                continue;
                            w.mult = 1 + (e->grid[0] - 1 - x) / w.rowp[i];
                        }
                        w.st = &e->stmts[i];
                        w.sidx = (uint32_t)i;
                        w.acc.site = (uint32_t)i;
                        w.acc.space = w.st->space;
                        w.acc.op = w.st->op;
                        w.acc.size = w.st->esize;
                        w.ord = 0;
                        st = iterate(&w, 0);
                    }
                }
            }
    /* the repeats all came before a fault or the budget's end */
    if (w.cf && st != WM_ERR_NOMEM) {
        wm_status sf = wmi_expr_cf_each(w.cf, flush_one, &w);
        st = st == WM_OK ? sf : st;
    }
    walker_free(&w);
    return st;
}

wm_status wmi_expr_walk(const wm_expr *e, const wm_arch *arch,
                        int reference, uint64_t max_accesses,
                        wmi_expr_sink sink, void *ctx, wm_expr_fault *fault)
{
    return walk(e, arch, reference, max_accesses, sink, NULL, ctx, fault);
}

wm_status wmi_expr_walk_closed(const wm_expr *e, const wm_arch *arch,
                               uint64_t max_accesses, wmi_expr_sink sink,
                               wmi_expr_repeat rep, void *ctx,
                               wm_expr_fault *fault)
{
    return walk(e, arch, 0, max_accesses, sink, rep, ctx, fault);
}
