/*
 * expr_closed.c -- count the accesses of an affine statement per warp in
 * closed form instead of one by one.
 *
 * When no index of a statement differs between lanes except through a
 * lane part that the grid walk caches (every index SCALAR or SPLIT, see
 * expr_compile.c), a warp's access is its scalar byte base B plus a lane
 * pattern and a lane mask that are fixed for that warp of every block.
 * wm_count does not change when all addresses move by a multiple of the
 * quantum Q (count_memo.c: the line for global, the bank unit for shared),
 * so the counts of such an access are a function of B mod Q alone.  The
 * table below keeps, per (statement, warp of a block) and residue, the
 * first base seen and how many more accesses had that residue: the first
 * goes through the ordinary path (counted, aggregated, considered for the
 * worst warp, in walk order), the others are added at the end as repeats
 * (wmi_agg_add_repeats), which leave the aggregate that adding each one
 * would: sums and histograms do not depend on order, and a repeat never
 * replaces a site's worst access, which only a strictly larger value does.
 *
 * Loops: an index whose value moves by a constant per iteration of the
 * innermost loop (affine in that loop variable, checked on the syntax
 * tree) gives bases B0 + i*D; their residues repeat with period
 * Q / gcd(D mod Q, Q), so the loop's accesses are counted from one period.
 */
#include "expr_int.h"

/* One residue of one (statement, warp). */
typedef struct xcf_ent {
    uint64_t first; /* the base of the first access with this residue */
    uint64_t nrep;  /* accesses after it, added at the end */
    int seen;
} xcf_ent;

struct xcf {
    size_t nstmts;
    unsigned nwarps;
    uint64_t *q;    /* per statement: its quantum, 0 when not closed */
    xcf_ent **tab;  /* [stmt * nwarps + warp]: q entries, on first use */
};

uint64_t wmi_expr_quantum(const wm_arch *arch, wm_space space, unsigned size)
{
    uint64_t per = space == WM_SPACE_SHARED
                       ? (size > arch->bank_bytes ? size : arch->bank_bytes)
                       : (arch->line_bytes > arch->sector_bytes
                              ? arch->line_bytes
                              : arch->sector_bytes);
    return per && (per & (per - 1)) == 0 ? per : 0;
}

wm_status wmi_expr_cf_new(size_t nstmts, unsigned nwarps, xcf **out)
{
    xcf *c = calloc(1, sizeof *c);
    if (!c)
        return WM_ERR_NOMEM;
    c->nstmts = nstmts;
    c->nwarps = nwarps;
    c->q = calloc(nstmts ? nstmts : 1, sizeof *c->q);
    c->tab = calloc(nstmts ? nstmts * nwarps : 1, sizeof *c->tab);
    if (!c->q || !c->tab) {
        wmi_expr_cf_free(c);
        return WM_ERR_NOMEM;
    }
    *out = c;
    return WM_OK;
}

void wmi_expr_cf_free(xcf *c)
{
    if (!c)
        return;
    if (c->tab)
        for (size_t i = 0; i < c->nstmts * c->nwarps; i++)
            free(c->tab[i]);
    free(c->tab);
    free(c->q);
    free(c);
}

void wmi_expr_cf_enable(xcf *c, size_t stmt, uint64_t q)
{
    assert(stmt < c->nstmts && (q & (q - 1)) == 0);
    c->q[stmt] = q;
}

uint64_t wmi_expr_cf_quantum(const xcf *c, size_t stmt)
{
    return c ? c->q[stmt] : 0;
}

/* The entry of base b, its table allocated on first use; NULL on OOM. */
static xcf_ent *entry(xcf *c, size_t stmt, unsigned warp, uint64_t b)
{
    assert(stmt < c->nstmts && warp < c->nwarps && c->q[stmt]);
    xcf_ent **t = &c->tab[stmt * c->nwarps + warp];
    if (!*t && !(*t = calloc(c->q[stmt], sizeof **t)))
        return NULL;
    return &(*t)[b & (c->q[stmt] - 1)];
}

int wmi_expr_cf_note(xcf *c, size_t stmt, unsigned warp, uint64_t b,
                     uint64_t n, wm_status *st)
{
    xcf_ent *e = entry(c, stmt, warp, b);
    if (!e) {
        *st = WM_ERR_NOMEM;
        return 1;
    }
    if (!e->seen) {
        e->seen = 1;
        e->first = b;
        e->nrep += n - 1;
        return 0;
    }
    e->nrep += n;
    return 1;
}

void wmi_expr_cf_add(xcf *c, size_t stmt, unsigned warp, uint64_t b,
                     uint64_t n)
{
    xcf_ent *e = entry(c, stmt, warp, b);
    assert(e && e->seen); /* noted before */
    e->nrep += n;
}

wm_status wmi_expr_cf_each(const xcf *c, wmi_expr_cf_fn fn, void *ud)
{
    for (size_t i = 0; i < c->nstmts; i++)
        for (unsigned w = 0; w < c->nwarps; w++) {
            const xcf_ent *t = c->tab[i * c->nwarps + w];
            for (uint64_t r = 0; t && r < c->q[i]; r++) {
                if (!t[r].nrep)
                    continue;
                wm_status st = fn(ud, i, w, t[r].first, t[r].nrep);
                if (st != WM_OK)
                    return st;
            }
        }
    return WM_OK;
}

/* 1 if node n's subtree reads variable v. */
static int reads_var(const wm_expr *e, int32_t n, unsigned v)
{
    if (n < 0)
        return 0;
    const xnode *x = &e->nodes[n];
    if (x->kind == XN_VAR)
        return x->var == v;
    return reads_var(e, x->a, v) || reads_var(e, x->b, v) ||
           reads_var(e, x->c, v);
}

/* Value of a subtree that reads only the launch's sizes; 0 if it reads
 * anything else or faults. */
static int launch_const(const wm_expr *e, int32_t n, const xlaunch *L,
                        int64_t *out)
{
    const xnode *x = &e->nodes[n];
    if (x->kind == XN_VAR) {
        switch (x->var) {
        case XV_NTID_X: *out = L->block[0]; return 1;
        case XV_NTID_Y: *out = L->block[1]; return 1;
        case XV_NTID_Z: *out = L->block[2]; return 1;
        case XV_NCTAID_X: *out = L->grid[0]; return 1;
        case XV_NCTAID_Y: *out = L->grid[1]; return 1;
        case XV_NCTAID_Z: *out = L->grid[2]; return 1;
        default: return 0;
        }
    }
    int64_t a = 0, b = 0;
    switch (x->kind) {
    case XN_NUM: *out = x->value; return 1;
    case XN_UNARY:
        if (!launch_const(e, x->a, L, &a))
            return 0;
        *out = wmx_unop(x->op, a);
        return 1;
    case XN_BINARY:
        if (x->op == XO_LAND || x->op == XO_LOR ||
            !launch_const(e, x->a, L, &a) || !launch_const(e, x->b, L, &b) ||
            wmx_faults(x->op, b))
            return 0;
        *out = wmx_binop(x->op, a, b);
        return 1;
    case XN_VAR:
    case XN_COND: return 0;
    }
    return 0;
}

int wmi_expr_affine_in(const wm_expr *e, int32_t n, unsigned v,
                       const xlaunch *L, int64_t *coef)
{
    if (!reads_var(e, n, v)) {
        *coef = 0; /* the same value (or fault) at every iteration */
        return 1;
    }
    const xnode *x = &e->nodes[n];
    int64_t a, b, k;
    switch (x->kind) {
    case XN_VAR: *coef = 1; return 1;
    case XN_UNARY:
        if (x->op != XO_NEG || !wmi_expr_affine_in(e, x->a, v, L, &a))
            return 0;
        *coef = wmx_wrap(0 - (uint64_t)a);
        return 1;
    case XN_BINARY:
        if (x->op == XO_ADD || x->op == XO_SUB) {
            if (!wmi_expr_affine_in(e, x->a, v, L, &a) ||
                !wmi_expr_affine_in(e, x->b, v, L, &b))
                return 0;
            *coef = wmx_binop(x->op, a, b);
            return 1;
        }
        if (x->op == XO_MUL) {
            /* one side the variable's, the other a launch constant */
            if (!reads_var(e, x->a, v) && launch_const(e, x->a, L, &k) &&
                wmi_expr_affine_in(e, x->b, v, L, &b)) {
                *coef = wmx_binop(XO_MUL, k, b);
                return 1;
            }
            if (!reads_var(e, x->b, v) && launch_const(e, x->b, L, &k) &&
                wmi_expr_affine_in(e, x->a, v, L, &a)) {
                *coef = wmx_binop(XO_MUL, a, k);
                return 1;
            }
            return 0;
        }
        /* x << k is x * 2^k modulo 2^64 for 0 <= k <= 63 */
        if (x->op != XO_SHL || reads_var(e, x->b, v) ||
            !launch_const(e, x->b, L, &k) || k < 0 || k > 63 ||
            !wmi_expr_affine_in(e, x->a, v, L, &a))
            return 0;
        *coef = wmx_wrap((uint64_t)a << k);
        return 1;
    case XN_NUM:
    case XN_COND: return 0;
    }
    return 0;
}

uint64_t wmi_expr_cf_period(uint64_t d, uint64_t q)
{
    assert(q && (q & (q - 1)) == 0);
    d &= q - 1;
    if (!d)
        return 1;
    /* gcd(d, q) for a power of two q is d's lowest set bit */
    return q / (d & (0 - d));
}

/* ---- a launch without faults: interval bounds on the syntax tree ------ */

typedef struct xiv {
    int64_t lo, hi;
} xiv;

static int iv_set(xiv *o, int64_t lo, int64_t hi)
{
    o->lo = lo;
    o->hi = hi;
    return 1;
}

/* [a] * [b]; 0 on overflow. */
static int iv_mul(xiv a, xiv b, xiv *o)
{
    int64_t p[4];
    if (__builtin_mul_overflow(a.lo, b.lo, &p[0]) ||
        __builtin_mul_overflow(a.lo, b.hi, &p[1]) ||
        __builtin_mul_overflow(a.hi, b.lo, &p[2]) ||
        __builtin_mul_overflow(a.hi, b.hi, &p[3]))
        return 0;
    o->lo = o->hi = p[0];
    for (int i = 1; i < 4; i++) {
        o->lo = p[i] < o->lo ? p[i] : o->lo;
        o->hi = p[i] > o->hi ? p[i] : o->hi;
    }
    return 1;
}

/* Smallest 2^k - 1 >= v (v >= 0). */
static int64_t ones_above(int64_t v)
{
    uint64_t m = (uint64_t)v;
    for (unsigned s = 1; s < 64; s <<= 1)
        m |= m >> s;
    return (int64_t)m;
}

/* Binary operator on intervals; 0 when it may fault or overflow. */
static int iv_bin(xop op, xiv a, xiv b, xiv *o)
{
    int64_t x, y;
    int nonneg = a.lo >= 0 && b.lo >= 0;
    switch (op) {
    case XO_ADD:
        return !__builtin_add_overflow(a.lo, b.lo, &x) &&
               !__builtin_add_overflow(a.hi, b.hi, &y) && iv_set(o, x, y);
    case XO_SUB:
        return !__builtin_sub_overflow(a.lo, b.hi, &x) &&
               !__builtin_sub_overflow(a.hi, b.lo, &y) && iv_set(o, x, y);
    case XO_MUL: return iv_mul(a, b, o);
    case XO_DIV: /* by a positive divisor: monotone in a */
        return b.lo > 0 && iv_set(o, a.lo >= 0 ? a.lo / b.hi : a.lo / b.lo,
                                  a.hi >= 0 ? a.hi / b.lo : a.hi / b.hi);
    case XO_MOD:
        if (b.lo <= 0)
            return 0;
        return iv_set(o, a.lo >= 0 ? 0 : 1 - b.hi,
                      a.hi <= 0 ? 0 : (a.hi < b.hi ? a.hi : b.hi - 1));
    case XO_SHL:
        return a.lo >= 0 && b.lo >= 0 && b.hi <= 62 &&
               iv_mul(a, (xiv){(int64_t)1 << b.lo, (int64_t)1 << b.hi}, o);
    case XO_SHR:
        return a.lo >= 0 && b.lo >= 0 && b.hi <= 63 &&
               iv_set(o, a.lo >> b.hi, a.hi >> b.lo);
    case XO_LT:
    case XO_LE:
    case XO_GT:
    case XO_GE:
    case XO_EQ:
    case XO_NE:
    case XO_LAND:
    case XO_LOR: return iv_set(o, 0, 1);
    case XO_AND:
        return nonneg && iv_set(o, 0, a.hi < b.hi ? a.hi : b.hi);
    case XO_XOR:
    case XO_OR:
        return nonneg && iv_set(o, 0, ones_above(a.hi > b.hi ? a.hi : b.hi));
    case XO_MIN:
        return iv_set(o, a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi);
    case XO_MAX:
        return iv_set(o, a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
    case XO_NEG:
    case XO_NOT:
    case XO_LNOT:
    case XO_COUNT: break;
    }
    return 0;
}

/* Bounds of node n over the variables' ranges; 0 when not shown. */
static int iv_of(const wm_expr *e, int32_t n, const xiv *var, xiv *o)
{
    const xnode *x = &e->nodes[n];
    xiv a, b, c;
    switch (x->kind) {
    case XN_NUM: return iv_set(o, x->value, x->value);
    case XN_VAR: *o = var[x->var]; return 1;
    case XN_UNARY:
        if (!iv_of(e, x->a, var, &a))
            return 0;
        if (x->op == XO_NEG)
            return a.lo > INT64_MIN && iv_set(o, -a.hi, -a.lo);
        if (x->op == XO_NOT)
            return iv_set(o, ~a.hi, ~a.lo);
        return iv_set(o, 0, 1);
    case XN_BINARY:
        return iv_of(e, x->a, var, &a) && iv_of(e, x->b, var, &b) &&
               iv_bin(x->op, a, b, o);
    case XN_COND:
        if (!iv_of(e, x->a, var, &a) || !iv_of(e, x->b, var, &b) ||
            !iv_of(e, x->c, var, &c))
            return 0;
        return iv_set(o, b.lo < c.lo ? b.lo : c.lo, b.hi > c.hi ? b.hi : c.hi);
    }
    return 0;
}

/* The variables' ranges over the launch; 0 when a loop is empty. */
static int var_ranges(const xstmt *s, const xlaunch *L,
                      const int64_t *loop_lo, const int64_t *loop_hi,
                      xiv *var)
{
    memset(var, 0, XV_COUNT * sizeof *var);
    for (int k = 0; k < 3; k++) {
        var[XV_TID_X + k] = (xiv){0, (int64_t)L->block[k] - 1};
        var[XV_NTID_X + k] = (xiv){L->block[k], L->block[k]};
        var[XV_CTAID_X + k] = (xiv){0, (int64_t)L->grid[k] - 1};
        var[XV_NCTAID_X + k] = (xiv){L->grid[k], L->grid[k]};
    }
    var[XV_LANEID] = (xiv){0, (int64_t)L->nlanes - 1};
    var[XV_WARPID] = (xiv){0, (int64_t)L->warps_per_block - 1};
    for (unsigned k = 0; k < s->nloops; k++) {
        if (loop_lo[k] >= loop_hi[k])
            return 0;
        var[XV_LOOP0 + k] = (xiv){loop_lo[k], loop_hi[k] - 1};
    }
    return 1;
}

int wmi_expr_stmt_safe(const wm_expr *e, const xstmt *s, const xlaunch *L,
                       const int64_t *loop_lo, const int64_t *loop_hi)
{
    xiv var[XV_COUNT], v;
    if (!var_ranges(s, L, loop_lo, loop_hi, var))
        return 1; /* an empty loop: no access at all */
    if (s->open_first || (s->pred >= 0 && !iv_of(e, s->pred, var, &v)))
        return 0;
    for (unsigned d = 0; d < s->ndims; d++)
        if (!iv_of(e, s->index[d], var, &v) || v.lo < 0 || v.hi >= s->dims[d])
            return 0;
    return 1;
}

/* ---- rows of blocks: translation by a shift of ctaid.x ----------------- */

/*
 * *dv = node n's change when ctaid.x grows by p (the same for every
 * thread and every value of the other variables), where both ctaid.x and
 * ctaid.x + p are in the grid; 0 when that is not shown.  Division and
 * remainder by a positive constant keep a constant change when the
 * dividend's change is a multiple of the divisor and the dividend is
 * never negative.
 */
static int shift_of(const wm_expr *e, int32_t n, int64_t p, const xlaunch *L,
                    const xiv *var, int64_t *dv)
{
    if (!reads_var(e, n, XV_CTAID_X)) {
        *dv = 0;
        return 1;
    }
    const xnode *x = &e->nodes[n];
    int64_t a, b, k;
    xiv r;
    if (x->kind == XN_VAR) {
        *dv = p;
        return 1;
    }
    if (x->kind == XN_UNARY)
        return x->op == XO_NEG && shift_of(e, x->a, p, L, var, &a) &&
               !__builtin_sub_overflow(0, a, dv);
    if (x->kind != XN_BINARY)
        return 0;
    if (x->op == XO_ADD || x->op == XO_SUB) {
        if (!shift_of(e, x->a, p, L, var, &a) ||
            !shift_of(e, x->b, p, L, var, &b))
            return 0;
        return x->op == XO_ADD ? !__builtin_add_overflow(a, b, dv)
                               : !__builtin_sub_overflow(a, b, dv);
    }
    if (x->op == XO_MUL && !reads_var(e, x->a, XV_CTAID_X) &&
        launch_const(e, x->a, L, &k))
        return shift_of(e, x->b, p, L, var, &b) &&
               !__builtin_mul_overflow(k, b, dv);
    /* the right operand a constant of the launch from here on */
    if (reads_var(e, x->b, XV_CTAID_X) || !launch_const(e, x->b, L, &k) ||
        !shift_of(e, x->a, p, L, var, &a))
        return 0;
    switch (x->op) {
    case XO_MUL: return !__builtin_mul_overflow(a, k, dv);
    case XO_SHL:
        return k >= 0 && k <= 62 &&
               !__builtin_mul_overflow(a, (int64_t)1 << k, dv);
    case XO_DIV:
    case XO_MOD:
    case XO_SHR:
        if (x->op == XO_SHR && (k < 0 || k > 62))
            return 0;
        if (x->op == XO_SHR)
            k = (int64_t)1 << k; /* a >> k is a / 2^k for a >= 0 */
        if (k <= 0 || a % k != 0 || !iv_of(e, x->a, var, &r) || r.lo < 0)
            return 0;
        *dv = x->op == XO_MOD ? 0 : a / k;
        return 1;
    case XO_AND:
        /* the masked bits do not change when the change is a multiple of
           the power of two above the mask */
        if (k < 0 || ones_above(k) == INT64_MAX || a % (ones_above(k) + 1))
            return 0;
        *dv = 0;
        return 1;
    case XO_ADD:
    case XO_SUB:
    case XO_LT:
    case XO_LE:
    case XO_GT:
    case XO_GE:
    case XO_EQ:
    case XO_NE:
    case XO_XOR:
    case XO_OR:
    case XO_LAND:
    case XO_LOR:
    case XO_MIN:
    case XO_MAX:
    case XO_NEG:
    case XO_NOT:
    case XO_LNOT:
    case XO_COUNT: break;
    }
    return 0;
}

uint64_t wmi_expr_row_period(const wm_expr *e, const xstmt *s,
                             const xlaunch *L, const int64_t *loop_lo,
                             const int64_t *loop_hi, uint64_t q)
{
    xiv var[XV_COUNT];
    if (!q || (s->pred >= 0 && reads_var(e, s->pred, XV_CTAID_X)) ||
        !var_ranges(s, L, loop_lo, loop_hi, var))
        return 0;
    for (uint64_t p = 1; p < L->grid[0] && p <= ((uint64_t)1 << 30); p *= 2) {
        uint64_t move = 0;
        int ok = 1;
        for (unsigned d = 0; ok && d < s->ndims; d++) {
            int64_t dv;
            ok = shift_of(e, s->index[d], (int64_t)p, L, var, &dv);
            move += (uint64_t)dv * s->stride[d] * s->esize;
        }
        if (ok && (move & (q - 1)) == 0)
            return p;
    }
    return 0;
}
