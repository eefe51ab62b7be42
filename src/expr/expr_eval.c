/*
 * expr_eval.c -- run a statement's bytecode for one warp, all lanes at
 * once.
 *
 * Each instruction is one switch on the operator outside a loop over the
 * lanes, so the loops are plain array arithmetic the compiler vectorises.
 * Scalar-scalar instructions cost one operation for the whole warp.
 * Faulting operators (/ % << >>) check the instruction's lane mask: a lane
 * outside it (inactive, or on the untaken side of ?: && ||) computes a
 * harmless 0 instead of faulting.  Each lane keeps only its first fault,
 * which is the one the per-thread reference meets first.
 */
#include "expr_int.h"

wm_status wmi_expr_regs_alloc(const xcode *c, xregs *r)
{
    memset(r, 0, sizeof *r);
    r->s = calloc(c->nscalar, sizeof *r->s);
    r->v = calloc(c->nvector, sizeof *r->v);
    r->m = calloc(c->nmask, sizeof *r->m);
    if (!r->s || !r->v || !r->m) {
        wmi_expr_regs_free(r);
        return WM_ERR_NOMEM;
    }
    for (unsigned i = 0; i < c->nkonst; i++)
        r->s[XS_NINPUT + i] = c->konst[i];
    return WM_OK;
}

void wmi_expr_regs_free(xregs *r)
{
    free(r->s);
    free(r->v);
    free(r->m);
    memset(r, 0, sizeof *r);
}

static void fault(xregs *r, unsigned lane, int32_t node, int64_t v)
{
    assert(lane < WM_MAX_LANES && node >= 0);
    uint64_t bit = (uint64_t)1 << lane;
    if (r->faulted & bit)
        return;
    r->faulted |= bit;
    r->fnode[lane] = node;
    r->fval[lane] = v;
}

/*
 * One loop body per operand shape: SS (scalar result), SV, VS, VV.
 * EXPR uses x (left) and y (right).
 */
#define SHAPES(EXPR)                                                          \
    do {                                                                      \
        if (!va && !vb) {                                                     \
            int64_t x = r->s[ia], y = r->s[ib];                               \
            r->s[id] = (EXPR);                                                \
        } else if (!va) {                                                     \
            const int64_t x = r->s[ia], *B = r->v[ib];                        \
            int64_t *D = r->v[id];                                            \
            for (unsigned l = 0; l < nl; l++) {                               \
                int64_t y = B[l];                                             \
                D[l] = (EXPR);                                                \
            }                                                                 \
        } else if (!vb) {                                                     \
            const int64_t *A = r->v[ia], y = r->s[ib];                        \
            int64_t *D = r->v[id];                                            \
            for (unsigned l = 0; l < nl; l++) {                               \
                int64_t x = A[l];                                             \
                D[l] = (EXPR);                                                \
            }                                                                 \
        } else {                                                              \
            const int64_t *A = r->v[ia], *B = r->v[ib];                       \
            int64_t *D = r->v[id];                                            \
            for (unsigned l = 0; l < nl; l++) {                               \
                int64_t x = A[l], y = B[l];                                   \
                D[l] = (EXPR);                                                \
            }                                                                 \
        }                                                                     \
    } while (0)

#define U64(v) ((uint64_t)(v))

/*
 * A vector left operand and a scalar right one that cannot fault: the same
 * values as wmx_binop lane by lane, in loops without a division where the
 * divisor is a power of two (C's truncating / and %: q = (x + bias) >> k
 * with bias = 2^k - 1 for negative x, r = x - q * 2^k).  Returns 0 when the
 * shape is not that.
 */
static int run_by_scalar(const xinsn *in, unsigned nl, xregs *r)
{
    if (!XR_ISVEC(in->a) || XR_ISVEC(in->b) || wmx_faults(in->op, r->s[in->b]))
        return 0;
    const int64_t *A = r->v[XR_IDX(in->a)], y = r->s[in->b];
    int64_t *D = r->v[XR_IDX(in->dst)];
    int pow2 = y > 0 && (y & (y - 1)) == 0;
    unsigned k = pow2 ? (unsigned)__builtin_ctzll((uint64_t)y) : 0;
    if (in->op == XO_SHL) {
        for (unsigned l = 0; l < nl; l++)
            D[l] = wmx_wrap(U64(A[l]) << y);
    } else if (in->op == XO_SHR) {
        for (unsigned l = 0; l < nl; l++)
            D[l] = wmx_shr(A[l], y);
    } else if (pow2 && (in->op == XO_DIV || in->op == XO_MOD)) {
        for (unsigned l = 0; l < nl; l++) {
            int64_t x = A[l];
            int64_t q =
                wmx_shr(wmx_wrap(U64(x) + ((0 - U64(x < 0)) & U64(y - 1))), k);
            D[l] = in->op == XO_DIV ? q : x - wmx_wrap(U64(q) << k);
        }
    } else {
        return 0;
    }
    return 1;
}

/* / % << >> : check the right operand lane by lane. */
static void run_faulting(const xinsn *in, unsigned nl, xregs *r, uint64_t m)
{
    if (run_by_scalar(in, nl, r))
        return;
    bool vec = XR_ISVEC(in->dst);
    unsigned id = XR_IDX(in->dst);
    for (unsigned l = 0; l < (vec ? nl : 1u); l++) {
        int64_t x = wmi_expr_lane_value(r, in->a, l), y = wmi_expr_lane_value(r, in->b, l);
        int64_t res = 0;
        if (wmx_faults(in->op, y)) {
            /* A scalar divisor faults for every lane of the mask. */
            uint64_t lanes = vec ? (m >> l & 1) << l : m;
            for (unsigned k = 0; k < nl; k++)
                if (lanes >> k & 1)
                    fault(r, k, in->node, y);
        } else {
            res = wmx_binop(in->op, x, y);
        }
        if (vec)
            r->v[id][l] = res;
        else
            r->s[id] = res;
    }
}

static void run_bin(const xinsn *in, unsigned nl, xregs *r, uint64_t m)
{
    bool va = XR_ISVEC(in->a), vb = XR_ISVEC(in->b);
    unsigned ia = XR_IDX(in->a), ib = XR_IDX(in->b), id = XR_IDX(in->dst);
    assert(XR_ISVEC(in->dst) == (va || vb));
    switch (in->op) {
    case XO_MUL: SHAPES(wmx_wrap(U64(x) * U64(y))); break;
    case XO_ADD: SHAPES(wmx_wrap(U64(x) + U64(y))); break;
    case XO_SUB: SHAPES(wmx_wrap(U64(x) - U64(y))); break;
    case XO_LT: SHAPES(x < y); break;
    case XO_LE: SHAPES(x <= y); break;
    case XO_GT: SHAPES(x > y); break;
    case XO_GE: SHAPES(x >= y); break;
    case XO_EQ: SHAPES(x == y); break;
    case XO_NE: SHAPES(x != y); break;
    case XO_AND: SHAPES(x & y); break;
    case XO_XOR: SHAPES(x ^ y); break;
    case XO_OR: SHAPES(x | y); break;
    case XO_LAND: SHAPES(x != 0 && y != 0); break;
    case XO_LOR: SHAPES(x != 0 || y != 0); break;
    case XO_MIN: SHAPES(x < y ? x : y); break;
    case XO_MAX: SHAPES(x > y ? x : y); break;
    case XO_DIV:
    case XO_MOD:
    case XO_SHL:
    case XO_SHR: run_faulting(in, nl, r, m); break;
    case XO_NEG:
    case XO_NOT:
    case XO_LNOT:
    case XO_COUNT: assert(0 && "not binary"); break;
    }
}

static void run_un(const xinsn *in, unsigned nl, xregs *r)
{
    if (!XR_ISVEC(in->a)) {
        r->s[in->dst] = wmx_unop(in->op, r->s[in->a]);
        return;
    }
    const int64_t *A = r->v[XR_IDX(in->a)];
    int64_t *D = r->v[XR_IDX(in->dst)];
    if (in->op == XO_NEG)
        for (unsigned l = 0; l < nl; l++)
            D[l] = wmx_wrap(0 - U64(A[l]));
    else
        for (unsigned l = 0; l < nl; l++)
            D[l] = wmx_unop(in->op, A[l]);
}

/* Lanes l < nl where register reg is non-zero. */
static uint64_t nonzero_lanes(const xregs *r, uint16_t reg, unsigned nl)
{
    if (!XR_ISVEC(reg))
        return r->s[reg] != 0 ? wmi_lanes_mask(nl) : 0;
    const int64_t *A = r->v[XR_IDX(reg)];
    uint64_t bits = 0;
    for (unsigned l = 0; l < nl; l++)
        bits |= (uint64_t)(A[l] != 0) << l;
    return bits;
}

void wmi_expr_run_insns(const xinsn *code, size_t n, unsigned nl,
                        xregs *r)
{
    r->faulted = 0;
    for (size_t i = 0; i < n; i++) {
        const xinsn *in = &code[i];
        assert(in->kind < XI_COUNT);
        uint64_t m = r->m[in->mask];
        switch (in->kind) {
        case XI_MASK_NZ:
            r->m[in->dst] = m & nonzero_lanes(r, in->a, nl);
            break;
        case XI_MASK_Z:
            r->m[in->dst] = m & ~nonzero_lanes(r, in->a, nl);
            break;
        case XI_BIN:
            /* No lane of this branch is live: its value is never used. */
            if (m != 0)
                run_bin(in, nl, r, m);
            break;
        case XI_UN:
            if (m != 0)
                run_un(in, nl, r);
            break;
        case XI_BOOL:
            if (m == 0)
                break;
            if (!XR_ISVEC(in->a))
                r->s[in->dst] = r->s[in->a] != 0;
            else
                for (unsigned l = 0; l < nl; l++)
                    r->v[XR_IDX(in->dst)][l] = r->v[XR_IDX(in->a)][l] != 0;
            break;
        case XI_SEL: {
            uint64_t pick = r->m[in->c];
            if (!XR_ISVEC(in->dst)) {
                r->s[in->dst] = pick ? r->s[in->a] : r->s[in->b];
                break;
            }
            int64_t *D = r->v[XR_IDX(in->dst)];
            for (unsigned l = 0; l < nl; l++)
                D[l] = (pick >> l & 1) ? wmi_expr_lane_value(r, in->a, l)
                                       : wmi_expr_lane_value(r, in->b, l);
            break;
        }
        case XI_COUNT: assert(0 && "bad instruction"); break;
        }
    }
}
