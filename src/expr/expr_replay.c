/*
 * expr_replay.c -- accesses of statements that do not depend on the block.
 *
 * A statement whose `if`, indices and loop bounds never read ctaid forms,
 * for a given warp of the block and loop iteration, the same access in
 * every block: the first block records them, the others replay them in
 * the same order instead of evaluating again.  Faults cannot differ
 * either, so a statement the first block ran without one runs without one
 * everywhere.  A statement that forms too many accesses per warp to keep
 * is evaluated as before.
 */
#include "expr_int.h"

enum { XREPLAY_MAX_PER_WARP = 4096 };

typedef struct xrec {
    size_t n, cap;
    uint64_t *v; /* per access: mask, then nlanes addresses */
    int over;    /* more than XREPLAY_MAX_PER_WARP: not replayed */
} xrec;

struct xreplay {
    size_t nstmts;
    unsigned nwarps, nlanes;
    unsigned char *on; /* per statement: independent of the block */
    xrec *rec;         /* [stmt * nwarps + warp] */
};

/* 1 if node n's subtree reads ctaid. */
static int reads_ctaid(const wm_expr *e, int32_t n)
{
    if (n < 0)
        return 0;
    const xnode *x = &e->nodes[n];
    if (x->kind == XN_VAR)
        return x->var >= XV_CTAID_X && x->var <= XV_CTAID_Z;
    return reads_ctaid(e, x->a) || reads_ctaid(e, x->b) || reads_ctaid(e, x->c);
}

static int stmt_fixed(const wm_expr *e, const xstmt *s)
{
    if (reads_ctaid(e, s->pred))
        return 0;
    for (unsigned d = 0; d < s->ndims; d++)
        if (reads_ctaid(e, s->index[d]))
            return 0;
    for (unsigned k = 0; k < s->nloops; k++)
        if (reads_ctaid(e, s->loops[k].lo) || reads_ctaid(e, s->loops[k].hi) ||
            reads_ctaid(e, s->loops[k].step))
            return 0;
    return 1;
}

wm_status wmi_expr_replay_new(const wm_expr *e, unsigned nwarps,
                              unsigned nlanes, xreplay **out)
{
    *out = NULL;
    size_t fixed = 0;
    for (size_t i = 0; i < e->nstmts; i++)
        fixed += (size_t)stmt_fixed(e, &e->stmts[i]);
    if (!fixed || (uint64_t)e->grid[0] * e->grid[1] * e->grid[2] < 2)
        return WM_OK; /* nothing to replay */
    xreplay *r = calloc(1, sizeof *r);
    if (!r)
        return WM_ERR_NOMEM;
    r->nstmts = e->nstmts;
    r->nwarps = nwarps;
    r->nlanes = nlanes;
    r->on = calloc(e->nstmts, 1);
    r->rec = calloc(e->nstmts * nwarps, sizeof *r->rec);
    if (!r->on || !r->rec) {
        wmi_expr_replay_free(r);
        return WM_ERR_NOMEM;
    }
    for (size_t i = 0; i < e->nstmts; i++)
        r->on[i] = (unsigned char)stmt_fixed(e, &e->stmts[i]);
    *out = r;
    return WM_OK;
}

void wmi_expr_replay_free(xreplay *r)
{
    if (!r)
        return;
    if (r->rec)
        for (size_t i = 0; i < r->nstmts * r->nwarps; i++)
            free(r->rec[i].v);
    free(r->rec);
    free(r->on);
    free(r);
}

int wmi_expr_replay_on(const xreplay *r, size_t stmt, unsigned warp)
{
    return r && r->on[stmt] && !r->rec[stmt * r->nwarps + warp].over;
}

wm_status wmi_expr_replay_record(xreplay *r, size_t stmt, unsigned warp,
                                 const wm_access *a)
{
    xrec *q = &r->rec[stmt * r->nwarps + warp];
    size_t w = 1 + (size_t)r->nlanes;
    if (q->over)
        return WM_OK;
    if (q->n == XREPLAY_MAX_PER_WARP) {
        q->over = 1; /* evaluated in every block instead */
        free(q->v);
        q->v = NULL;
        return WM_OK;
    }
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 8;
        uint64_t *v = realloc(q->v, cap * w * sizeof *v);
        if (!v)
            return WM_ERR_NOMEM;
        q->v = v;
        q->cap = cap;
    }
    uint64_t *p = q->v + q->n++ * w;
    p[0] = a->mask;
    memcpy(p + 1, a->addr, r->nlanes * sizeof *p);
    return WM_OK;
}

void wmi_expr_replay_get(const xreplay *r, size_t stmt, unsigned warp, size_t i,
                         wm_access *a)
{
    const xrec *q = &r->rec[stmt * r->nwarps + warp];
    size_t w = 1 + (size_t)r->nlanes;
    assert(i < q->n);
    const uint64_t *p = q->v + i * w;
    a->mask = p[0];
    memcpy(a->addr, p + 1, r->nlanes * sizeof *p);
}
