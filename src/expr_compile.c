/*
 * expr_compile.c -- turn one statement into scalar/vector bytecode for
 * one launch.
 *
 * What is known per launch is folded away: constants, ntid.*, nctaid.*,
 * and tid.y / tid.z when the block shape makes them equal across a warp
 * (block.y == 1 makes tid.y 0; block.x a multiple of the warp size makes
 * tid.y the same for all lanes of a warp).  What is the same for every
 * lane of a warp (ctaid, warpid, loop variables, uniform tid.y/z) lives in
 * scalar registers and costs one operation per warp; only what depends on
 * tid or laneid is a vector with one value per lane.  So the lesson's
 * transposed copy with 32x8 blocks needs one vector add per index.
 *
 * Folding never removes an operation that could fault (x / 0 stays), and
 * branches of ?: && || keep their lane masks, so the code faults for the
 * same lanes, in the same order, as the reference evaluator.
 *
 * Register layout: scalars [0, XS_NINPUT) are the inputs below, then a
 * constant pool of up to XS_KMAX entries, then temporaries; vectors 0..3 are tid.x, tid.y, tid.z,
 * laneid, then temporaries.  Every instruction writes a fresh register.
 */
#include "expr_int.h"

/* An operand while compiling: a known constant or a register. */
typedef struct operand {
    int is_const;
    int64_t value;
    uint16_t reg; /* XR_VEC | index for vectors */
} operand;

typedef struct compiler {
    const wm_expr *e;
    const xlaunch *L;
    xcode *c;
    int tid_y_uniform, tid_z_uniform;
    bool nomem;
} compiler;

static bool emit(compiler *cp, xinsn in)
{
    xcode *c = cp->c;
    if (c->ninsn == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        xinsn *ni = realloc(c->insn, cap * sizeof *ni);
        if (!ni) {
            cp->nomem = true;
            return false;
        }
        c->insn = ni;
        c->cap = cap;
    }
    c->insn[c->ninsn++] = in;
    return true;
}

static uint16_t new_scalar(compiler *cp)
{
    if (cp->c->nscalar >= 0x7fff) {
        cp->nomem = true;
        return 0;
    }
    return (uint16_t)cp->c->nscalar++;
}

static uint16_t new_vector(compiler *cp)
{
    if (cp->c->nvector >= 0x7fff) {
        cp->nomem = true;
        return XR_VEC;
    }
    return (uint16_t)(XR_VEC | cp->c->nvector++);
}

static uint16_t new_mask(compiler *cp)
{
    if (cp->c->nmask >= 0xffff) {
        cp->nomem = true;
        return 0;
    }
    return (uint16_t)cp->c->nmask++;
}

/* Put a constant into the pool; returns its scalar register. */
static uint16_t konst_reg(compiler *cp, int64_t v)
{
    xcode *c = cp->c;
    for (unsigned i = 0; i < c->nkonst; i++)
        if (c->konst[i] == v)
            return (uint16_t)(XS_NINPUT + i);
    if (c->nkonst == XS_KMAX) {
        cp->nomem = true; /* reported as out of memory: 256 constants */
        return 0;
    }
    int64_t *nk = realloc(c->konst, (c->nkonst + 1) * sizeof *nk);
    if (!nk) {
        cp->nomem = true;
        return 0;
    }
    c->konst = nk;
    c->konst[c->nkonst] = v;
    return (uint16_t)(XS_NINPUT + c->nkonst++);
}

static uint16_t as_reg(compiler *cp, operand o)
{
    return o.is_const ? konst_reg(cp, o.value) : o.reg;
}

static operand make_const(int64_t v)
{
    operand o = {1, v, 0};
    return o;
}

static operand make_reg(uint16_t r)
{
    operand o = {0, 0, r};
    return o;
}

/* The operand for variable v under this launch. */
static operand compile_var(compiler *cp, unsigned v)
{
    const xlaunch *L = cp->L;
    switch (v) {
    case XV_TID_X:
        /* One lane per warp never happens (warp size >= 32), but a block
         * 1 wide is still all tid.x == 0. */
        if (L->block[0] == 1)
            return make_const(0);
        return make_reg(XR_VEC | 0);
    case XV_TID_Y:
        if (L->block[1] == 1)
            return make_const(0);
        return cp->tid_y_uniform ? make_reg(XS_TID_Y) : make_reg(XR_VEC | 1);
    case XV_TID_Z:
        if (L->block[2] == 1)
            return make_const(0);
        return cp->tid_z_uniform ? make_reg(XS_TID_Z) : make_reg(XR_VEC | 2);
    case XV_LANEID: return make_reg(XR_VEC | 3);
    case XV_NTID_X: return make_const(L->block[0]);
    case XV_NTID_Y: return make_const(L->block[1]);
    case XV_NTID_Z: return make_const(L->block[2]);
    case XV_NCTAID_X: return make_const(L->grid[0]);
    case XV_NCTAID_Y: return make_const(L->grid[1]);
    case XV_NCTAID_Z: return make_const(L->grid[2]);
    case XV_CTAID_X: return make_reg(XS_CTAID_X);
    case XV_CTAID_Y: return make_reg(XS_CTAID_Y);
    case XV_CTAID_Z: return make_reg(XS_CTAID_Z);
    case XV_WARPID:
        /* A block with a single warp has warpid 0 everywhere. */
        if (L->warps_per_block == 1)
            return make_const(0);
        return make_reg(XS_WARPID);
    default:
        assert(v >= XV_LOOP0 && v < XV_COUNT);
        return make_reg((uint16_t)(XS_LOOP0 + (v - XV_LOOP0)));
    }
}

static operand compile_node(compiler *cp, int32_t n, uint16_t mask);

/* Result register of an instruction with operands a, b (vector if any is). */
static uint16_t result_reg(compiler *cp, uint16_t a, uint16_t b)
{
    return XR_ISVEC(a) || XR_ISVEC(b) ? new_vector(cp) : new_scalar(cp);
}

static operand emit_bin(compiler *cp, xop op, operand a, operand b,
                        uint16_t mask, int32_t node)
{
    if (a.is_const && b.is_const && !wmx_faults(op, b.value))
        return make_const(wmx_binop(op, a.value, b.value));
    xinsn in = {XI_BIN, op, 0, as_reg(cp, a), as_reg(cp, b), 0, mask, node};
    in.dst = result_reg(cp, in.a, in.b);
    emit(cp, in);
    return make_reg(in.dst);
}

/* dst = (lane in mask m) ? a : b */
static operand emit_sel(compiler *cp, uint16_t m, operand a, operand b,
                        uint16_t cond_reg, int32_t node)
{
    xinsn in = {XI_SEL, XO_COUNT, 0, as_reg(cp, a), as_reg(cp, b), m, 0,
                node};
    in.dst = XR_ISVEC(in.a) || XR_ISVEC(in.b) || XR_ISVEC(cond_reg)
                 ? new_vector(cp)
                 : new_scalar(cp);
    emit(cp, in);
    return make_reg(in.dst);
}

/* mask[new] = mask[m] & (lanes where r != 0 (nz) or == 0) */
static uint16_t emit_mask(compiler *cp, uint16_t m, operand r, int nz)
{
    xinsn in = {nz ? XI_MASK_NZ : XI_MASK_Z, XO_COUNT, new_mask(cp),
                as_reg(cp, r), 0, 0, m, -1};
    emit(cp, in);
    return in.dst;
}

static operand emit_bool(compiler *cp, operand r, uint16_t mask)
{
    if (r.is_const)
        return make_const(r.value != 0);
    xinsn in = {XI_BOOL, XO_COUNT, 0, r.reg, 0, 0, mask, -1};
    in.dst = XR_ISVEC(r.reg) ? new_vector(cp) : new_scalar(cp);
    emit(cp, in);
    return make_reg(in.dst);
}

/* ?: and short-circuit && || : the chosen side runs under a narrower mask. */
static operand compile_branchy(compiler *cp, const xnode *x, int32_t n,
                               uint16_t mask)
{
    operand c = compile_node(cp, x->a, mask);
    if (x->kind == XN_COND) {
        if (c.is_const)
            return compile_node(cp, c.value != 0 ? x->b : x->c, mask);
        uint16_t mt = emit_mask(cp, mask, c, 1);
        uint16_t mf = emit_mask(cp, mask, c, 0);
        operand a = compile_node(cp, x->b, mt);
        operand b = compile_node(cp, x->c, mf);
        return emit_sel(cp, mt, a, b, c.reg, n);
    }
    int is_and = x->op == XO_LAND;
    if (c.is_const) {
        if ((c.value != 0) != is_and) /* 0 && ..., 1 || ... */
            return make_const(!is_and);
        return emit_bool(cp, compile_node(cp, x->b, mask), mask);
    }
    uint16_t mr = emit_mask(cp, mask, c, is_and);
    operand r = emit_bool(cp, compile_node(cp, x->b, mr), mr);
    return emit_sel(cp, mr, r, make_const(!is_and), c.reg, n);
}

static operand compile_node(compiler *cp, int32_t n, uint16_t mask)
{
    const xnode *x = &cp->e->nodes[n];
    switch (x->kind) {
    case XN_NUM: return make_const(x->value);
    case XN_VAR: return compile_var(cp, x->var);
    case XN_UNARY: {
        operand a = compile_node(cp, x->a, mask);
        if (a.is_const)
            return make_const(wmx_unop(x->op, a.value));
        xinsn in = {XI_UN, x->op, 0, a.reg, 0, 0, mask, n};
        in.dst = XR_ISVEC(a.reg) ? new_vector(cp) : new_scalar(cp);
        emit(cp, in);
        return make_reg(in.dst);
    }
    case XN_COND: return compile_branchy(cp, x, n, mask);
    case XN_BINARY:
        if (x->op == XO_LAND || x->op == XO_LOR)
            return compile_branchy(cp, x, n, mask);
        {
            operand a = compile_node(cp, x->a, mask);
            operand b = compile_node(cp, x->b, mask);
            return emit_bin(cp, x->op, a, b, mask, n);
        }
    }
    assert(0 && "bad node kind");
    return make_const(0);
}

wm_status wmi_expr_compile(const wm_expr *e, const xstmt *s,
                           const xlaunch *L, xcode *c)
{
    compiler cp;
    memset(c, 0, sizeof *c);
    memset(&cp, 0, sizeof cp);
    cp.e = e;
    cp.L = L;
    cp.c = c;
    /* Lanes of a warp share tid.y when whole warps fit in one row of the
     * block, and tid.z when they fit in one x-y plane (linear thread id =
     * x + y*Dx + z*Dx*Dy, CUDA Programming Guide "Thread Hierarchy"). */
    cp.tid_y_uniform = L->block[0] % L->nlanes == 0;
    cp.tid_z_uniform = ((uint64_t)L->block[0] * L->block[1]) % L->nlanes == 0;
    c->nscalar = XS_TEMP0;
    c->nvector = 4;
    c->nmask = 1;
    uint16_t mask = 0;
    if (s->pred >= 0) {
        operand p = compile_node(&cp, s->pred, 0);
        c->has_pred = 1;
        c->pred_reg = as_reg(&cp, p);
        mask = emit_mask(&cp, 0, p, 1);
    }
    c->pred_mask = mask;
    for (unsigned d = 0; d < s->ndims; d++)
        c->index_reg[d] = as_reg(&cp, compile_node(&cp, s->index[d], mask));
    if (cp.nomem) {
        wmi_expr_code_free(c);
        return WM_ERR_NOMEM;
    }
    return WM_OK;
}

void wmi_expr_code_free(xcode *c)
{
    free(c->insn);
    free(c->konst);
    memset(c, 0, sizeof *c);
}
