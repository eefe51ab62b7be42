/*
 * expr_compile.c -- turn one statement into bytecode for one launch.
 *
 * What is known per launch is folded away: constants, ntid.*, nctaid.*,
 * and tid.y / tid.z when the block shape makes them equal across a warp
 * (block.y == 1 makes tid.y 0; block.x a multiple of the warp size makes
 * tid.y the same for all lanes of a warp).  Every other value falls in
 * one of five classes:
 *   CONST   known now;
 *   SCALAR  the same for all lanes of a warp (ctaid, warpid, loop
 *           variables, uniform tid.y/z): one operation per warp access;
 *   TID     depends only on tid / laneid: the same for a given warp of
 *           every block and every iteration, so it is computed once per
 *           warp of a block ("hoisted") and cached by the grid walk;
 *   SPLIT   SCALAR + TID, kept apart: + - and * by a constant distribute
 *           over the two parts (exact in wrapping 64-bit arithmetic), so
 *           `ctaid.x*32 + tid.x` costs one scalar multiply per access and
 *           its lane part, bounds and address offsets come from the cache;
 *   VEC     anything else that differs between lanes: computed per access,
 *           32 lanes per instruction.
 * Only operations that cannot fault are hoisted or folded (x / 0 stays
 * in the access code), and the sides of ?: && || keep their lane masks,
 * so the code faults for the same lanes, in the same order, as the
 * reference evaluator.
 *
 * Register layout: scalars [0, XS_NINPUT) are the walk's inputs, then a
 * constant pool of up to XS_KMAX entries, then temporaries; vectors 0..3
 * are tid.x, tid.y, tid.z, laneid, then temporaries (hoisted or not).
 * Every instruction writes a fresh register.
 */
#include "expr_int.h"

typedef enum { OC_CONST, OC_SCALAR, OC_TID, OC_SPLIT, OC_VEC } oclass;

/* An operand while compiling. */
typedef struct operand {
    oclass cls;
    int64_t value; /* OC_CONST */
    uint16_t reg;  /* scalar (SCALAR, SPLIT's scalar part) or vector reg */
    uint16_t treg; /* OC_SPLIT: the hoisted lane part */
} operand;

typedef struct compiler {
    const wm_expr *e;
    const xlaunch *L;
    xcode *c;
    int tid_y_uniform, tid_z_uniform;
    bool nomem;
} compiler;

static bool push(compiler *cp, xinsn **arr, size_t *n, size_t *cap,
                 xinsn in)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 32;
        xinsn *ni = realloc(*arr, ncap * sizeof *ni);
        if (!ni) {
            cp->nomem = true;
            return false;
        }
        *arr = ni;
        *cap = ncap;
    }
    (*arr)[(*n)++] = in;
    return true;
}

static void emit(compiler *cp, xinsn in)
{
    push(cp, &cp->c->insn, &cp->c->ninsn, &cp->c->cap, in);
}

static void emit_hoist(compiler *cp, xinsn in)
{
    push(cp, &cp->c->hoist, &cp->c->nhoist, &cp->c->caphoist, in);
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

/* The access code reads hoisted vector t: the walk must copy it in. */
static void need_tid(compiler *cp, uint16_t t)
{
    xcode *c = cp->c;
    for (unsigned i = 0; i < c->ntcopy; i++)
        if (c->tcopy[i] == t)
            return;
    uint16_t *nt = realloc(c->tcopy, (c->ntcopy + 1) * sizeof *nt);
    if (!nt) {
        cp->nomem = true;
        return;
    }
    c->tcopy = nt;
    c->tcopy[c->ntcopy++] = t;
}

static operand make_const(int64_t v)
{
    operand o = {OC_CONST, v, 0, 0};
    return o;
}

static operand make(oclass cls, uint16_t r)
{
    operand o = {cls, 0, r, 0};
    return o;
}

/* A register the access code can read for o (emits S + T for SPLIT). */
static uint16_t materialize(compiler *cp, operand o)
{
    switch (o.cls) {
    case OC_CONST: return konst_reg(cp, o.value);
    case OC_SCALAR:
    case OC_VEC: return o.reg;
    case OC_TID: need_tid(cp, o.reg); return o.reg;
    case OC_SPLIT: {
        need_tid(cp, o.treg);
        xinsn in = {XI_BIN, XO_ADD, new_vector(cp), o.reg, o.treg, 0, 0, -1};
        emit(cp, in);
        return in.dst;
    }
    }
    assert(0 && "bad operand class");
    return 0;
}

/* The operand for variable v under this launch. */
static operand compile_var(compiler *cp, unsigned v)
{
    const xlaunch *L = cp->L;
    switch (v) {
    case XV_TID_X:
        return L->block[0] == 1 ? make_const(0) : make(OC_TID, XR_VEC | 0);
    case XV_TID_Y:
        if (L->block[1] == 1)
            return make_const(0);
        return cp->tid_y_uniform ? make(OC_SCALAR, XS_TID_Y)
                                 : make(OC_TID, XR_VEC | 1);
    case XV_TID_Z:
        if (L->block[2] == 1)
            return make_const(0);
        return cp->tid_z_uniform ? make(OC_SCALAR, XS_TID_Z)
                                 : make(OC_TID, XR_VEC | 2);
    case XV_LANEID: return make(OC_TID, XR_VEC | 3);
    case XV_NTID_X: return make_const(L->block[0]);
    case XV_NTID_Y: return make_const(L->block[1]);
    case XV_NTID_Z: return make_const(L->block[2]);
    case XV_NCTAID_X: return make_const(L->grid[0]);
    case XV_NCTAID_Y: return make_const(L->grid[1]);
    case XV_NCTAID_Z: return make_const(L->grid[2]);
    case XV_CTAID_X: return make(OC_SCALAR, XS_CTAID_X);
    case XV_CTAID_Y: return make(OC_SCALAR, XS_CTAID_Y);
    case XV_CTAID_Z: return make(OC_SCALAR, XS_CTAID_Z);
    case XV_WARPID:
        /* A block with a single warp has warpid 0 everywhere. */
        if (L->warps_per_block == 1)
            return make_const(0);
        return make(OC_SCALAR, XS_WARPID);
    default:
        assert(v >= XV_LOOP0 && v < XV_COUNT);
        return make(OC_SCALAR, (uint16_t)(XS_LOOP0 + (v - XV_LOOP0)));
    }
}

static operand compile_node(compiler *cp, int32_t n, uint16_t mask);

/* A general instruction in the access code. */
static operand emit_general(compiler *cp, xop op, operand a, operand b,
                            uint16_t mask, int32_t node)
{
    xinsn in = {XI_BIN, op, 0, materialize(cp, a), materialize(cp, b), 0,
                mask, node};
    bool vec = XR_ISVEC(in.a) || XR_ISVEC(in.b);
    in.dst = vec ? new_vector(cp) : new_scalar(cp);
    emit(cp, in);
    return make(vec ? OC_VEC : OC_SCALAR, in.dst);
}

/* A hoisted instruction on TID/CONST operands (cannot fault). */
static operand emit_tid(compiler *cp, xop op, operand a, operand b)
{
    uint16_t ra = a.cls == OC_CONST ? konst_reg(cp, a.value) : a.reg;
    uint16_t rb = b.cls == OC_CONST ? konst_reg(cp, b.value) : b.reg;
    xinsn in = {XI_BIN, op, new_vector(cp), ra, rb, 0, 0, -1};
    emit_hoist(cp, in);
    return make(OC_TID, in.dst);
}

/* Scalar part of an affine operand (CONST 0 when it has none). */
static operand scalar_part(operand o)
{
    if (o.cls == OC_SPLIT)
        return make(OC_SCALAR, o.reg);
    if (o.cls == OC_TID)
        return make_const(0);
    return o;
}

/* Lane part (CONST 0 when none). */
static operand tid_part(operand o)
{
    if (o.cls == OC_SPLIT)
        return make(OC_TID, o.treg);
    if (o.cls == OC_TID)
        return o;
    return make_const(0);
}

static bool is_affine(operand o)
{
    return o.cls != OC_VEC;
}

/* a op b for op in + - *; both parts of one class (CONST/SCALAR or TID). */
static operand part_op(compiler *cp, xop op, operand a, operand b)
{
    if (a.cls == OC_CONST && b.cls == OC_CONST)
        return make_const(wmx_binop(op, a.value, b.value));
    /* x + 0, 0 + x, x - 0, x * 1 */
    if (op != XO_MUL && b.cls == OC_CONST && b.value == 0)
        return a;
    if (op == XO_ADD && a.cls == OC_CONST && a.value == 0)
        return b;
    if (op == XO_MUL && b.cls == OC_CONST && b.value == 1)
        return a;
    if (op == XO_MUL && a.cls == OC_CONST && a.value == 1)
        return b;
    if (a.cls == OC_TID || b.cls == OC_TID)
        return emit_tid(cp, op, a, b);
    return emit_general(cp, op, a, b, 0, -1);
}

/* Join a scalar part and a lane part into one operand. */
static operand join(operand s, operand t)
{
    if (t.cls == OC_CONST && t.value == 0)
        return s;
    if (s.cls == OC_CONST && s.value == 0)
        return t;
    assert(t.cls == OC_TID);
    /* A constant scalar part still needs a register. */
    operand o = {OC_SPLIT, 0, s.reg, t.reg};
    return o;
}

static operand emit_bin(compiler *cp, xop op, operand a, operand b,
                        uint16_t mask, int32_t node)
{
    if (a.cls == OC_CONST && b.cls == OC_CONST && !wmx_faults(op, b.value))
        return make_const(wmx_binop(op, a.value, b.value));
    bool a_tid = a.cls == OC_TID || a.cls == OC_CONST;
    bool b_tid = b.cls == OC_TID || b.cls == OC_CONST;
    /* Distribute + - over the parts, and * by a constant. */
    if (is_affine(a) && is_affine(b) &&
        (op == XO_ADD || op == XO_SUB ||
         (op == XO_MUL && (a.cls == OC_CONST || b.cls == OC_CONST)))) {
        operand s, t;
        if (op == XO_MUL) {
            operand k = a.cls == OC_CONST ? a : b, x = a.cls == OC_CONST ? b : a;
            s = part_op(cp, op, scalar_part(x), k);
            t = part_op(cp, op, tid_part(x), k);
        } else {
            s = part_op(cp, op, scalar_part(a), scalar_part(b));
            t = part_op(cp, op, tid_part(a), tid_part(b));
        }
        if (s.cls == OC_CONST && t.cls == OC_TID && s.value != 0)
            s = make(OC_SCALAR, konst_reg(cp, s.value));
        return join(s, t);
    }
    /* Lane-only work that cannot fault: once per warp of a block. */
    if (a_tid && b_tid && (b.cls != OC_CONST || !wmx_faults(op, b.value)) &&
        (b.cls == OC_CONST ||
         !(op == XO_DIV || op == XO_MOD || op == XO_SHL || op == XO_SHR)))
        return emit_tid(cp, op, a, b);
    return emit_general(cp, op, a, b, mask, node);
}

/* dst = (lane in mask m) ? a : b */
static operand emit_sel(compiler *cp, uint16_t m, operand a, operand b,
                        bool cond_vec, int32_t node)
{
    xinsn in = {XI_SEL, XO_COUNT, 0, materialize(cp, a), materialize(cp, b),
                m, 0, node};
    bool vec = XR_ISVEC(in.a) || XR_ISVEC(in.b) || cond_vec;
    in.dst = vec ? new_vector(cp) : new_scalar(cp);
    emit(cp, in);
    return make(vec ? OC_VEC : OC_SCALAR, in.dst);
}

/* mask[new] = mask[m] & (lanes where r != 0 (nz) or == 0) */
static uint16_t emit_mask(compiler *cp, uint16_t m, uint16_t r, int nz)
{
    xinsn in = {nz ? XI_MASK_NZ : XI_MASK_Z, XO_COUNT, new_mask(cp), r, 0, 0,
                m, -1};
    emit(cp, in);
    return in.dst;
}

static operand emit_bool(compiler *cp, operand r, uint16_t mask)
{
    if (r.cls == OC_CONST)
        return make_const(r.value != 0);
    uint16_t a = materialize(cp, r);
    xinsn in = {XI_BOOL, XO_COUNT, 0, a, 0, 0, mask, -1};
    bool vec = XR_ISVEC(a);
    in.dst = vec ? new_vector(cp) : new_scalar(cp);
    emit(cp, in);
    return make(vec ? OC_VEC : OC_SCALAR, in.dst);
}

/* ?: and short-circuit && || : the chosen side runs under a narrower mask. */
static operand compile_branchy(compiler *cp, const xnode *x, int32_t n,
                               uint16_t mask)
{
    operand c = compile_node(cp, x->a, mask);
    if (x->kind == XN_COND) {
        if (c.cls == OC_CONST)
            return compile_node(cp, c.value != 0 ? x->b : x->c, mask);
        uint16_t cr = materialize(cp, c);
        uint16_t mt = emit_mask(cp, mask, cr, 1);
        uint16_t mf = emit_mask(cp, mask, cr, 0);
        operand a = compile_node(cp, x->b, mt);
        operand b = compile_node(cp, x->c, mf);
        return emit_sel(cp, mt, a, b, XR_ISVEC(cr), n);
    }
    int is_and = x->op == XO_LAND;
    if (c.cls == OC_CONST) {
        if ((c.value != 0) != is_and) /* 0 && ..., 1 || ... */
            return make_const(!is_and);
        return emit_bool(cp, compile_node(cp, x->b, mask), mask);
    }
    uint16_t cr = materialize(cp, c);
    uint16_t mr = emit_mask(cp, mask, cr, is_and);
    operand r = emit_bool(cp, compile_node(cp, x->b, mr), mr);
    return emit_sel(cp, mr, r, make_const(!is_and), XR_ISVEC(cr), n);
}

static operand compile_node(compiler *cp, int32_t n, uint16_t mask)
{
    const xnode *x = &cp->e->nodes[n];
    switch (x->kind) {
    case XN_NUM: return make_const(x->value);
    case XN_VAR: return compile_var(cp, x->var);
    case XN_UNARY: {
        operand a = compile_node(cp, x->a, mask);
        if (a.cls == OC_CONST)
            return make_const(wmx_unop(x->op, a.value));
        if (x->op == XO_NEG && is_affine(a)) /* -(s + t) = 0 - s - t */
            return emit_bin(cp, XO_SUB, make_const(0), a, mask, n);
        if (a.cls == OC_TID) {
            xinsn in = {XI_UN, x->op, new_vector(cp), a.reg, 0, 0, 0, n};
            emit_hoist(cp, in);
            return make(OC_TID, in.dst);
        }
        uint16_t ra = materialize(cp, a);
        xinsn in = {XI_UN, x->op, 0, ra, 0, 0, mask, n};
        bool vec = XR_ISVEC(ra);
        in.dst = vec ? new_vector(cp) : new_scalar(cp);
        emit(cp, in);
        return make(vec ? OC_VEC : OC_SCALAR, in.dst);
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
        mask = emit_mask(&cp, 0, materialize(&cp, p), 1);
    }
    c->pred_mask = mask;
    for (unsigned d = 0; d < s->ndims; d++) {
        operand o = compile_node(&cp, s->index[d], mask);
        switch (o.cls) {
        case OC_CONST:
        case OC_SCALAR:
            c->dim[d] = XD_SCALAR;
            c->sreg[d] = materialize(&cp, o);
            break;
        case OC_TID:
            c->dim[d] = XD_SPLIT;
            c->sreg[d] = konst_reg(&cp, 0);
            c->treg[d] = o.reg;
            break;
        case OC_SPLIT:
            c->dim[d] = XD_SPLIT;
            c->sreg[d] = o.reg;
            c->treg[d] = o.treg;
            break;
        case OC_VEC:
            c->dim[d] = XD_VEC;
            c->vreg[d] = o.reg;
            break;
        }
    }
    if (cp.nomem) {
        wmi_expr_code_free(c);
        return WM_ERR_NOMEM;
    }
    return WM_OK;
}

void wmi_expr_code_free(xcode *c)
{
    free(c->insn);
    free(c->hoist);
    free(c->konst);
    free(c->tcopy);
    memset(c, 0, sizeof *c);
}
