/*
 * ptx_lint.c -- `warpmem lint`: every memory instruction of a kernel judged
 * from its PTX alone.  This file sets the analysis up and holds the API;
 * pass 1 is ptx_lint_step.c (within a block) and ptx_lint_flow.c (blocks
 * and loops), pass 2 ptx_lint_eval.c; their shared state ptx_lint_core.h.
 *
 * Pass 1 (abstract interpretation): the decoded function is split into
 * basic blocks and run forward over the affine.h domain: each register
 * slot holds a symbolic value, each predicate slot the comparison that set
 * it, each block the conjunction of branch conditions that lead to it (its
 * path).  Loops (a branch to an earlier block) are solved by sweeps: on
 * the first sweep a value the loop changes enters the header as a
 * placeholder phi; on later sweeps the step s = back-edge value - header
 * value is read off, and if s does not depend on the loop the register is
 * an induction variable, e + s * iter(loop), with iter a symbol; otherwise
 * it is top.  Sweeps repeat until no header changes.  Every memory
 * instruction records its address form, guard and path.
 *
 * Pass 2 (evaluation): for one block shape the forms are evaluated for the
 * 32 lanes of every warp of one block (ctaid 0, iteration 0, loaded
 * uniform values 0, pointers at wm_ptx_run's 256-byte aligned addresses),
 * lanes are masked by the guard and the path conditions that are known,
 * and wm_count gives the figure.  Then each uniform symbol the form uses
 * (ctaid, a scalar parameter nobody fixed, a loop's iteration, a loaded
 * uniform value) is moved over a few values: when the lane pattern only
 * shifts, the count joins the worst case over misalignments; when the
 * pattern changes, the symbol is named in `depends`.
 *
 * Invariants: the analysis never executes the kernel and reads the module
 * only; values are mathematical integers (no wrap-around, affine.h); an
 * unknown condition is taken as true for every lane and says so (the
 * verdict's `assumed`).
 */
#include "ptx_lint_core.h"

#include <stdio.h>

/* ---- set-up and the API -------------------------------------------------- */

static void lint_free(lint *L)
{
    for (size_t b = 0; b < L->nblocks; b++) {
        if (L->in)
            wmi_lint_state_free(&L->in[b]);
        if (L->back_prev)
            wmi_lint_state_free(&L->back_prev[b]);
        if (L->back_cur)
            wmi_lint_state_free(&L->back_cur[b]);
        if (L->hprev)
            free(L->hprev[b]);
        if (L->written)
            free(L->written[b]);
    }
    free(L->in);
    free(L->back_prev);
    free(L->back_cur);
    free(L->hprev);
    free(L->written);
    wmi_lint_state_free(&L->work);
    free(L->blocks);
    free(L->block_at);
    free(L->iscst);
    free(L->cval);
    free(L->recs);
    free(L->rec_at);
    free(L->conds);
    wmi_actx_free(&L->ax);
}

/* Memory instructions of the function, each with its counted accesses. */
/* At SASS level: record r at the width and start of its SASS access (a
   lead's, or a split's first part: per request the parts alike); 0 for a
   record merged into another's access. */
static int sass_width(const lint *L, memrec *r)
{
    const wm_sass_map *mp = L->sass ? wmi_sass_plan_at(L->sass, r->pc) : NULL;
    if (!mp)
        return 1;
    if (mp->kind == WM_SASS_MERGED)
        return 0;
    if (mp->kind == WM_SASS_LEAD || mp->kind == WM_SASS_SPLIT)
        r->size = mp->width;
    if (mp->kind == WM_SASS_LEAD)
        r->sass_off = -(int64_t)mp->shift;
    if (mp->kind == WM_SASS_SPLIT && mp->slots)
        r->sass_off = (int64_t)__builtin_ctz(mp->slots) * mp->width;
    return 1;
}

/* The records of instruction in: 1 for a counted access, 2 for cp.async
   (its global and shared sides), else 0. */
static unsigned records_of(const wmi_insn *in)
{
    uint64_t ld;
    if (in->op == OP_CP_ASYNC)
        return 2;
    if (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE)
        return wmi_ptx_wmma_requests(in, &ld) ? 1 : 0;
    return ((in->op == OP_LD || in->op == OP_ST || in->op == OP_RED) &&
            in->space != SP_PARAM && in->space != SP_CONST) ||
           in->op == OP_ATOM || in->op == OP_LDMATRIX;
}

static int find_records(lint *L)
{
    const wmi_func *f = L->f;
    size_t n = 0;
    for (uint32_t pc = f->first; pc < f->first + f->count; pc++)
        n += records_of(&L->m->code[pc]);
    L->recs = calloc(n ? n : 1, sizeof *L->recs);
    L->rec_at = calloc(f->count + 1, sizeof *L->rec_at);
    if (!L->recs || !L->rec_at)
        return 0;
    for (uint32_t pc = f->first; pc < f->first + f->count; pc++) {
        const wmi_insn *in = &L->m->code[pc];
        if (!records_of(in))
            continue;
        L->rec_at[pc - f->first] = (uint32_t)L->nrecs + 1;
        memrec *r = &L->recs[L->nrecs++];
        r->pc = pc;
        r->lanes = 32;
        r->isp = (wmi_space)in->space;
        r->guard = NOCOND;
        wmi_type t = (wmi_type)in->type;
        if (in->op == OP_LD || in->op == OP_ST) {
            r->op = in->op == OP_LD ? WM_OP_LD : WM_OP_ST;
            r->size = wmi_lint_type_bytes(t) *
                      wmi_vcount(L->m, in->op == OP_ST ? in->b : in->d);
            if (!sass_width(L, r)) { /* merged into its lead's access */
                L->rec_at[pc - f->first] = 0;
                L->nrecs--;
                continue;
            }
        } else if (in->op == OP_ATOM || in->op == OP_RED) {
            r->op = WM_OP_ATOM;
            r->size = wmi_lint_type_bytes(t) * wmi_vcount(L->m, in->b);
        } else if (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) {
            uint64_t ld;
            r->op = in->op == OP_WMMA_LOAD ? WM_OP_LD : WM_OP_ST;
            r->size = wmi_ptx_wmma_piece(in);
            r->nreq = wmi_ptx_wmma_requests(in, &ld);
        } else if (in->op == OP_LDMATRIX) {
            r->op = WM_OP_LDSM;
            r->size = 16;
            r->isp = SP_SHARED;
            r->lanes = 8u * in->vec;
        } else {
            r->op = WM_OP_LDGSTS;
            r->size = in->mod;
            r->isp = SP_GLOBAL;
            memrec *s = &L->recs[L->nrecs++];
            *s = *r;
            s->isp = SP_SHARED;
            s->cpasync_shared = 1;
        }
    }
    return 1;
}

/* Bytes of the per-block states lint_init allocates: every block's entry
   state, and for a loop header two back-edge states, the header's last
   values and its written set.  Blocks x register slots: a long kernel
   with many branches and constants is quadratic. */
static uint64_t state_bytes(const lint *L)
{
    uint64_t n = L->f->nslots ? L->f->nslots : 1;
    uint64_t state = n * (sizeof(wmi_aff) + sizeof(int32_t));
    uint64_t loop = 2 * state + n * (sizeof(wmi_aff) + 1);
    uint64_t total = 0;
    for (size_t b = 0; b < L->nblocks; b++)
        total += state + (L->blocks[b].loop >= 0 ? loop : 0);
    return total;
}

static int lint_init(lint *L, const wm_ptx_module *m, const wmi_func *f,
                     const wm_sass_plan *sass)
{
    memset(L, 0, sizeof *L);
    L->m = m;
    L->f = f;
    L->sass = sass;
    wmi_actx_init(&L->ax);
    for (int i = 0; i < 64; i++) {
        L->loopcond[i] = NOCOND;
        L->loopiter[i] = WMI_NOREG;
    }
    uint32_t n = f->nslots;
    L->iscst = calloc(n + 1, 1);
    L->cval = calloc(n + 1, sizeof *L->cval);
    if (!L->iscst || !L->cval || !wmi_lint_build_blocks(L) ||
        !find_records(L) || !wmi_lint_state_alloc(&L->work, n))
        return 0;
    for (uint32_t k = 0; k < f->nconsts; k++)
        if (f->cslots[k] < n) {
            L->iscst[f->cslots[k]] = 1;
            L->cval[f->cslots[k]] = (int64_t)f->cvals[k];
        }
    size_t nb = L->nblocks;
    if (state_bytes(L) > WM_LIMIT_LINT_BYTES) {
        L->too_big = 1;
        return 0;
    }
    L->in = calloc(nb, sizeof *L->in);
    L->back_prev = calloc(nb, sizeof *L->back_prev);
    L->back_cur = calloc(nb, sizeof *L->back_cur);
    L->hprev = calloc(nb, sizeof *L->hprev);
    L->written = calloc(nb, sizeof *L->written);
    if (!L->in || !L->back_prev || !L->back_cur || !L->hprev || !L->written)
        return 0;
    for (size_t b = 0; b < nb; b++) {
        if (!wmi_lint_state_alloc(&L->in[b], n))
            return 0;
        if (L->blocks[b].loop < 0)
            continue;
        if (!wmi_lint_state_alloc(&L->back_prev[b], n) ||
            !wmi_lint_state_alloc(&L->back_cur[b], n))
            return 0;
        L->hprev[b] = calloc(n ? n : 1, sizeof *L->hprev[b]);
        L->written[b] = calloc(n ? n : 1, 1);
        if (!L->hprev[b] || !L->written[b] ||
            !wmi_lint_loop_writes(L, &L->blocks[b], L->written[b]))
            return 0;
    }
    return 1;
}

/* Parameter i named by o (its PTX name, the text after "_param_", or its
   index). */
static int param_given(const wmi_func *f, uint32_t i, const wm_lint_opts *o,
                       int64_t *val)
{
    for (size_t k = 0; o && k < o->nparams; k++) {
        const char *nm = o->params[k].name;
        const char *pn = f->params[i].name;
        const char *tail = strstr(pn, "_param_");
        char idx[16];
        snprintf(idx, sizeof idx, "%u", i);
        if (strcmp(nm, pn) == 0 || strcmp(nm, idx) == 0 ||
            (tail && strcmp(nm, tail + 7) == 0)) {
            *val = o->params[k].value;
            return 1;
        }
    }
    return 0;
}

const char *wm_lint_kind_name(wm_lint_kind k)
{
    static const char *const names[] = {
#define X(e, name) name,
        WM_LINT_KIND_LIST(X)
#undef X
    };
    return (unsigned)k < WM_LINT_NKINDS ? names[k] : "?";
}

static wm_status push(wm_lint *R, const wm_lint_insn *v)
{
    if (R->nv == R->capv) {
        size_t n = R->capv ? R->capv * 2 : 16;
        wm_lint_insn *p = realloc(R->v, n * sizeof *p);
        if (!p)
            return WM_ERR_NOMEM;
        R->v = p;
        R->capv = n;
    }
    R->v[R->nv++] = *v;
    return WM_OK;
}

wm_status wm_lint_kernel(const wm_ptx_module *m, size_t k, const wm_arch *arch,
                         const wm_lint_opts *o, wm_lint **out)
{
    if (!m || !out || k >= wm_ptx_nkernels(m))
        return WM_ERR_ARG;
    *out = NULL;
    if (!arch)
        arch = wm_arch_default();
    /* kernel k: the k-th entry */
    const wmi_func *f = wmi_ptx_kernel(m, k);
    if (!f)
        return WM_ERR_ARG;
    if (f->err) /* its body did not parse: no code to analyse */
        return WM_ERR_PARSE;
    unsigned block[3] = {0, 0, 0}, grid[3] = {1024, 1024, 64};
    /* the user's block, else .reqntid, else one by rank (and the table) */
    const unsigned *want = o && (o->block[0] || o->block[1] || o->block[2])
                               ? o->block
                           : f->reqntid[0] ? f->reqntid
                                           : NULL;
    int chosen = want != NULL;
    for (int d = 0; want && d < 3; d++)
        block[d] = want[d] ? want[d] : 1;
    if (!chosen) {
        int z = (f->sregs_used & ((uint64_t)1 << SR_TID_Z)) != 0;
        int y = (f->sregs_used & ((uint64_t)1 << SR_TID_Y)) != 0;
        block[0] = y || z ? 32 : 256;
        block[1] = z ? 4 : y ? 8 : 1;
        block[2] = z ? 2 : 1;
    }
    if (block[0] * block[1] * block[2] > 1024 || block[2] > 64)
        return WM_ERR_ARG;
    for (int d = 0; o && d < 3; d++)
        if (o->grid[d])
            grid[d] = o->grid[d];

    wm_lint *R = calloc(1, sizeof *R);
    if (!R)
        return WM_ERR_NOMEM;
    R->m = m;
    R->kernel = k;
    R->arch = *arch;
    memcpy(R->block, block, sizeof block);
    R->agg = wm_agg_new(arch);
    lint L;
    wm_status st = WM_ERR_NOMEM;
    int64_t *param = calloc(f->nparams + 1, sizeof *param);
    uint8_t *given = calloc(f->nparams + 1, 1);
    evalbuf eb;
    memset(&eb, 0, sizeof eb);
    int ok = lint_init(&L, m, f, o ? o->sass : NULL);
    if (L.too_big)
        st = WM_ERR_LIMIT;
    if (!R->agg || !param || !given || !ok)
        goto done;
    for (int i = 0; i < MAXSWEEPS; i++) {
        L.changed = 0;
        wmi_lint_sweep(&L, i);
        if (L.oom || L.ax.oom)
            goto done;
        if (i > 0 && !L.changed)
            break;
    }
    /* pass 2 */
    for (uint32_t i = 0, nbuf = 0; i < f->nparams; i++) {
        if (param_given(f, i, o, &param[i]))
            given[i] = 1;
        else if (f->params[i].size >= 8)
            param[i] = (int64_t)((uint64_t)++nbuf << WMI_WIN_SHIFT);
        else
            param[i] = WM_LINT_DEFAULT_SCALAR;
    }
    eb.ec.L = &L;
    memcpy(eb.ec.block, block, sizeof block);
    memcpy(eb.ec.grid, grid, sizeof grid);
    eb.ec.param = param;
    eb.ec.over[0] = eb.ec.over[1] = eb.ec.over[2] = WMI_NOREG;
    eb.env.leaf = wmi_lint_leaf;
    eb.env.ud = &eb.ec;
    eb.env.val = calloc(L.ax.nvars + 1, sizeof *eb.env.val);
    eb.env.stamp = calloc(L.ax.nvars + 1, sizeof *eb.env.stamp);
    eb.mk.seen = calloc(L.ax.nvars + 1, 1);
    eb.mk.ids = malloc((L.ax.nvars + 1) * sizeof *eb.mk.ids);
    if (!eb.env.val || !eb.env.stamp || !eb.mk.seen || !eb.mk.ids)
        goto done;
    for (size_t i = 0; i < L.nrecs; i++) {
        wm_lint_insn v;
        st = wmi_lint_judge(&L, &L.recs[i], &eb, given, arch, &v, R->agg, 1);
        if (st == WM_OK)
            st = push(R, &v);
        if (st != WM_OK)
            goto done;
        wm_ptx_where w;
        if (wm_ptx_where_insn(m, v.insn, &w))
            st = wm_agg_label(R->agg, (uint32_t)v.insn, w.text, w.file,
                              w.line);
        if (st != WM_OK)
            goto done;
    }
    if (!chosen) {
        st = wmi_lint_by_shape(R, &L, &eb, given, arch, f);
        if (st != WM_OK)
            goto done;
    }
    st = WM_OK;
done:
    free(eb.env.val);
    free(eb.env.stamp);
    free(eb.mk.seen);
    free(eb.mk.ids);
    free(param);
    free(given);
    lint_free(&L);
    if (st != WM_OK) {
        wm_lint_free(R);
        return st;
    }
    *out = R;
    return WM_OK;
}

void wm_lint_free(wm_lint *l)
{
    if (!l)
        return;
    wm_agg_free(l->agg);
    free(l->v);
    free(l->by);
    free(l);
}

void wm_lint_block(const wm_lint *l, unsigned block[3])
{
    memcpy(block, l->block, sizeof l->block);
}

size_t wm_lint_count(const wm_lint *l)
{
    return l ? l->nv : 0;
}

const wm_lint_insn *wm_lint_at(const wm_lint *l, size_t i)
{
    return l && i < l->nv ? &l->v[i] : NULL;
}

const wm_agg *wm_lint_agg(const wm_lint *l)
{
    return l ? l->agg : NULL;
}

wm_severity wm_lint_worst(const wm_lint *l)
{
    wm_severity s = WM_SEV_NONE;
    for (size_t i = 0; l && i < l->nv; i++)
        if (l->v[i].severity > s)
            s = l->v[i].severity;
    return s;
}
