/*
 * ptx_lint_step.c -- pass 1 of `warpmem lint` (ptx_lint.c) within a basic
 * block: the abstract states (a symbolic value per register slot, a
 * condition per predicate, the path's conditions), hash-consed
 * conditions, reading and writing slots, and the transfer function, one
 * instruction at a time; memory instructions record their address form.
 */
#include "ptx_lint_core.h"

/* ---- states ------------------------------------------------------------- */

int wmi_lint_state_alloc(bstate *s, uint32_t nslots)
{
    memset(s, 0, sizeof *s);
    s->r = malloc(sizeof *s->r * (nslots ? nslots : 1));
    s->p = malloc(sizeof *s->p * (nslots ? nslots : 1));
    return s->r && s->p;
}

void wmi_lint_state_free(bstate *s)
{
    if (s) {
        free(s->r);
        free(s->p);
    }
}

void wmi_lint_state_copy(bstate *d, const bstate *s, uint32_t nslots)
{
    memcpy(d->r, s->r, sizeof *d->r * nslots);
    memcpy(d->p, s->p, sizeof *d->p * nslots);
    memcpy(d->path, s->path, sizeof d->path);
    d->npath = s->npath;
    d->assumed = s->assumed;
    d->reached = s->reached;
}

/* An undefined register (never written on the way): joins as identity. */
int wmi_lint_undefined(const wmi_aff *a)
{
    return a->top && a->why == WMI_TOP_NONE;
}

/*
 * a JOIN b where paths meet at instruction `at`.  Two different
 * warp-uniform values (a division done on a 32-bit or a 64-bit path, as
 * nvcc emits for `slot / block_size`) become one uniform unknown of that
 * merge point and slot: the warp still sees one value.
 */
static wmi_aff join_val(wmi_actx *x, const wmi_aff *a, const wmi_aff *b,
                        uint32_t at, uint32_t slot)
{
    if (wmi_lint_undefined(a))
        return *b;
    if (wmi_lint_undefined(b) || wmi_aff_eq(a, b))
        return *a;
    if (a->top)
        return *a;
    if (b->top)
        return *b;
    if (wmi_aff_uniform(x, a) && wmi_aff_uniform(x, b))
        return wmi_aff_sym(x, WMI_AV_JOIN, at, slot, 1,
                           wmi_aff_loops(x, a) | wmi_aff_loops(x, b));
    return wmi_aff_top(WMI_TOP_MERGE, at);
}

/* d = d JOIN s (d reached), path intersection. */
void wmi_lint_state_join(wmi_actx *x, bstate *d, const bstate *s,
                         uint32_t nslots, uint32_t at)
{
    assert(d != s && d->r && s->r);
    if (!d->reached) {
        wmi_lint_state_copy(d, s, nslots);
        d->reached = 1;
        return;
    }
    for (uint32_t i = 0; i < nslots; i++) {
        d->r[i] = join_val(x, &d->r[i], &s->r[i], at, i);
        if (d->p[i] != s->p[i])
            d->p[i] = NOCOND;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < d->npath; i++) {
        int keep = 0;
        for (unsigned j = 0; j < s->npath; j++)
            keep |= d->path[i] == s->path[j];
        if (keep)
            d->path[n++] = d->path[i];
    }
    d->npath = n;
    d->assumed |= s->assumed;
}

/* ---- conditions ---------------------------------------------------------- */

static int32_t cond_ref(lint *L, unsigned cmp, unsigned bits, int sgn,
                        const wmi_aff *l, const wmi_aff *r)
{
    if (l->top || r->top)
        return NOCOND;
    for (size_t i = 0; i < L->nconds; i++) {
        const cond *c = &L->conds[i];
        if (c->cmp == cmp && c->bits == bits && c->sgn == sgn &&
            wmi_aff_eq(&c->l, l) && wmi_aff_eq(&c->r, r))
            return (int32_t)(2 * i);
    }
    if (L->nconds >= 0x3fffffff) {
        L->oom = 1;
        return NOCOND;
    }
    if (L->nconds == L->capconds) {
        size_t n = L->capconds ? L->capconds * 2 : 32;
        cond *c = realloc(L->conds, n * sizeof *c);
        if (!c) {
            L->oom = 1;
            return NOCOND;
        }
        L->conds = c;
        L->capconds = n;
    }
    cond *c = &L->conds[L->nconds];
    c->cmp = (uint8_t)cmp;
    c->bits = (uint8_t)bits;
    c->sgn = (uint8_t)(sgn != 0);
    c->l = *l;
    c->r = *r;
    return (int32_t)(2 * L->nconds++);
}

uint64_t wmi_lint_cond_loops(const lint *L, int32_t ref)
{
    assert(ref >= 0 && (size_t)(ref >> 1) < L->nconds);
    const cond *c = &L->conds[ref >> 1];
    return wmi_aff_loops(&L->ax, &c->l) | wmi_aff_loops(&L->ax, &c->r);
}

void wmi_lint_path_add(bstate *s, int32_t ref)
{
    assert(s->npath <= MAXPATH);
    if (ref == NOCOND) {
        s->assumed = 1;
        return;
    }
    for (unsigned i = 0; i < s->npath; i++)
        if (s->path[i] == ref)
            return;
    if (s->npath < MAXPATH)
        s->path[s->npath++] = ref;
}

/* ---- reading and writing slots ------------------------------------------- */

int wmi_lint_plain_slot(const lint *L, uint32_t s)
{
    return s != WMI_NOREG && !(s & WMI_VEC) && s >= SLOT_SREG0 + SR_COUNT &&
           s < L->f->nslots && !L->iscst[s];
}

static wmi_aff sreg(lint *L, unsigned k)
{
    switch (k) {
    case SR_TID_X:
    case SR_TID_Y:
    case SR_TID_Z:
    case SR_LANEID: return wmi_aff_sym(&L->ax, WMI_AV_SREG, k, 0, 0, 0);
    case SR_NTID_X:
    case SR_NTID_Y:
    case SR_NTID_Z:
    case SR_CTAID_X:
    case SR_CTAID_Y:
    case SR_CTAID_Z:
    case SR_NCTAID_X:
    case SR_NCTAID_Y:
    case SR_NCTAID_Z: return wmi_aff_sym(&L->ax, WMI_AV_SREG, k, 0, 1, 0);
    default: return wmi_aff_top(WMI_TOP_SREG, WMI_NOREG);
    }
}

/* The value of a source slot; constants are sign-extended from `bits`
   (an immediate -1 of an add.s32 is 0xffffffff in its slot). */
static wmi_aff rdw(lint *L, const bstate *s, uint32_t slot, unsigned bits)
{
    if (slot == WMI_NOREG || (slot & WMI_VEC) || slot >= L->f->nslots)
        return wmi_aff_top(WMI_TOP_OP, WMI_NOREG);
    if (slot == SLOT_ZERO)
        return wmi_aff_const(0);
    if (slot == SLOT_SINK)
        return wmi_aff_top(WMI_TOP_OP, WMI_NOREG);
    if (slot < SLOT_SREG0 + SR_COUNT)
        return sreg(L, slot - SLOT_SREG0);
    if (L->iscst[slot]) {
        uint64_t v = (uint64_t)L->cval[slot];
        if (bits > 0 && bits < 64 && (v >> (bits - 1) & 1) && (v >> bits) == 0)
            v |= ~(uint64_t)0 << bits;
        return wmi_aff_const((int64_t)v);
    }
    return s->r[slot];
}

int32_t wmi_lint_rdp(const lint *L, const bstate *s, uint32_t slot)
{
    if (!wmi_lint_plain_slot(L, slot))
        return NOCOND;
    return s->p[slot];
}

/* Write v (and predicate reference p) to slot d under insn in's guard. */
static void wr(lint *L, bstate *s, const wmi_insn *in, uint32_t d, wmi_aff v,
               int32_t p, uint32_t pc)
{
    assert(p == NOCOND || (size_t)(p >> 1) < L->nconds);
    if (d == WMI_NOREG)
        return;
    if (d & WMI_VEC) {
        const uint32_t *pool = L->m->pool + (d & ~WMI_VEC);
        for (uint32_t k = 0; k < pool[0]; k++)
            if (wmi_lint_plain_slot(L, pool[1 + k])) {
                s->r[pool[1 + k]] = wmi_aff_top(WMI_TOP_LOAD, pc);
                s->p[pool[1 + k]] = NOCOND;
            }
        return;
    }
    if (!wmi_lint_plain_slot(L, d))
        return;
    if (in->guard != WMI_NOREG) {
        int32_t g = wmi_lint_rdp(L, s, in->guard);
        const wmi_aff *old = &s->r[d];
        if (p != s->p[d])
            p = NOCOND;
        if (wmi_aff_eq(&v, old) || wmi_lint_undefined(old)) {
            /* same value either way, or nothing to keep */
        } else if (g != NOCOND && !v.top && !old->top) {
            const cond *c = &L->conds[g >> 1];
            int neg = (g & 1) ^ (in->guard_neg != 0);
            v = wmi_aff_select(&L->ax, c->cmp, c->bits, c->sgn, &c->l, &c->r,
                               neg ? old : &v, neg ? &v : old, pc);
        } else {
            v = wmi_aff_top(WMI_TOP_MERGE, pc);
        }
    }
    s->r[d] = v;
    s->p[d] = p;
}

/* ---- the transfer function ----------------------------------------------- */

unsigned wmi_lint_type_bytes(wmi_type t)
{
    unsigned b = wmi_type_bits(t);
    return b < 8 ? 1 : b / 8;
}

static int int_type(wmi_type t)
{
    return t != PT_PRED && t != PT_NONE && !wmi_type_float(t) &&
           t != PT_F16X2 && t != PT_BF16X2 && t < PT_E4M3X2;
}

/* The parameter whose bytes start at offset off (WMI_NOREG if none). */
static uint32_t param_at(const wmi_func *f, int64_t off)
{
    for (uint32_t i = 0; i < f->nparams; i++)
        if ((int64_t)f->params[i].offset == off)
            return i;
    return WMI_NOREG;
}

static void record(lint *L, bstate *s, const wmi_insn *in, uint32_t pc,
                   wmi_aff addr, int which)
{
    assert(pc >= L->f->first && pc < L->f->first + L->f->count);
    uint32_t ri = L->rec_at[pc - L->f->first];
    if (!ri)
        return;
    assert(ri - 1 + (unsigned)which < L->nrecs);
    memrec *r = &L->recs[ri - 1 + (unsigned)which];
    assert(r->pc == pc);
    r->reached = 1;
    r->addr = addr;
    r->guard = in->guard == WMI_NOREG ? NOCOND : wmi_lint_rdp(L, s, in->guard);
    r->guard_unknown = in->guard != WMI_NOREG && r->guard == NOCOND;
    if (r->guard != NOCOND && in->guard_neg)
        r->guard ^= 1;
    memcpy(r->path, s->path, sizeof r->path);
    r->npath = s->npath;
    r->assumed = s->assumed || r->guard_unknown;
    r->loops = L->cur_loops;
}

static wmi_aff addr_of(lint *L, const bstate *s, uint32_t slot, int64_t imm)
{
    wmi_aff a = rdw(L, s, slot, 64), k = wmi_aff_const(imm);
    return wmi_aff_add(&a, &k);
}

/* A wmma load or store: the fragment's address, and its stride (register
   sreg, or the layout's default).  A stride lint cannot follow makes the
   addresses unknown. */
static void record_wmma(lint *L, bstate *s, const wmi_insn *in, uint32_t pc,
                        uint32_t sreg)
{
    uint32_t ri = L->rec_at[pc - L->f->first];
    if (!ri)
        return;
    memrec *r = &L->recs[ri - 1];
    uint64_t ld0 = 0;
    wmi_ptx_wmma_requests(in, &ld0);
    wmi_aff a = addr_of(L, s, in->a, in->imm);
    r->ld = sreg == WMI_NOREG ? wmi_aff_const((int64_t)ld0)
                              : rdw(L, s, sreg, 32);
    record(L, s, in, pc, r->ld.top ? r->ld : a, 0);
}

static wmi_aop aop_of(wmi_op op)
{
    return op == OP_AND   ? WMI_AOP_AND
           : op == OP_OR  ? WMI_AOP_OR
           : op == OP_XOR ? WMI_AOP_XOR
           : op == OP_SHL ? WMI_AOP_SHL
           : op == OP_SHR ? WMI_AOP_SHR
           : op == OP_DIV ? WMI_AOP_DIV
           : op == OP_REM ? WMI_AOP_REM
           : op == OP_MIN ? WMI_AOP_MIN
                          : WMI_AOP_MAX;
}

/* Predicate ops (and/or/xor/not/mov on .pred): references where known. */
static void pred_op(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    int32_t a = wmi_lint_rdp(L, s, in->a), p = NOCOND;
    if (in->op == OP_NOT && a != NOCOND)
        p = a ^ 1;
    else if (in->op == OP_MOV)
        p = a;
    wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_OP, pc), p, pc);
}

/* and/or/xor/shl/shr/div/rem/min/max: an atom unless it simplifies. */
static void bit_op(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    wmi_aff a = rdw(L, s, in->a, bits), b = rdw(L, s, in->b, bits);
    wmi_aff v = int_type(t) ? wmi_aff_op(&L->ax, aop_of((wmi_op)in->op), bits,
                                         wmi_type_signed(t), &a, &b, pc)
                            : wmi_aff_top(WMI_TOP_FLOAT, pc);
    wr(L, s, in, in->d, v, NOCOND, pc);
}

/* ---- the transfer function, family by family ----------------------------- */

/* A family's default: d, and d2 where it is a second ("p|q") destination,
   become unknown for reason why (d2: why2). */
static void top_dests(lint *L, bstate *s, const wmi_insn *in, uint32_t pc,
                      wmi_top_why why, wmi_top_why why2)
{
    wr(L, s, in, in->d, wmi_aff_top(why, pc), NOCOND, pc);
    if (in->d2 != WMI_NOREG && (in->flags & F_DEST2))
        wr(L, s, in, in->d2, wmi_aff_top(why2, pc), NOCOND, pc);
}

/* An operation lint does not model (the ARITH and TENSOR default): an
   integer result is an unknown operation, any other a float. */
static void step_unmodelled(lint *L, bstate *s, const wmi_insn *in,
                            uint32_t pc)
{
    int it = int_type((wmi_type)in->type);
    top_dests(L, s, in, pc, it ? WMI_TOP_OP : WMI_TOP_FLOAT, WMI_TOP_OP);
}

static void step_mov(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    if (t == PT_PRED) {
        pred_op(L, s, in, pc);
        return;
    }
    if ((in->d & WMI_VEC) || (in->a & WMI_VEC)) {
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_OP, pc), NOCOND, pc);
        return;
    }
    wr(L, s, in, in->d, rdw(L, s, in->a, wmi_type_bits(t)), NOCOND, pc);
}

/* add, sub */
static void step_add(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int it = int_type(t);
    wmi_aff a = rdw(L, s, in->a, bits), b = rdw(L, s, in->b, bits), v;
    v = !it || (in->flags & (F_SAT | F_CC))
            ? wmi_aff_top(it ? WMI_TOP_OP : WMI_TOP_FLOAT, pc)
        : in->op == OP_ADD ? wmi_aff_add(&a, &b)
                           : wmi_aff_sub(&a, &b);
    wr(L, s, in, in->d, v, NOCOND, pc);
}

/* mul, mad, mul24, mad24 */
static void step_mul(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int it = int_type(t);
    wmi_aff a = rdw(L, s, in->a, bits), b = rdw(L, s, in->b, bits), c, v;
    if (!it || (in->flags & (F_HI | F_CC))) {
        v = wmi_aff_top(it ? WMI_TOP_OP : WMI_TOP_FLOAT, pc);
    } else {
        v = wmi_aff_mul(&L->ax, &a, &b);
        if (in->op == OP_MAD || in->op == OP_MAD24) {
            c = rdw(L, s, in->c, bits);
            v = wmi_aff_add(&v, &c);
        }
    }
    wr(L, s, in, in->d, v, NOCOND, pc);
}

/* neg, not */
static void step_neg(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    int it = int_type(t);
    if (t == PT_PRED) {
        pred_op(L, s, in, pc);
        return;
    }
    wmi_aff a = rdw(L, s, in->a, wmi_type_bits(t)), c, v;
    v = it ? wmi_aff_scale(&a, -1) : wmi_aff_top(WMI_TOP_FLOAT, pc);
    if (in->op == OP_NOT && it) { /* ~a = -a - 1 */
        c = wmi_aff_const(-1);
        v = wmi_aff_add(&v, &c);
    }
    wr(L, s, in, in->d, v, NOCOND, pc);
}

/* integer <-> integer: the same mathematical value (no wrap) */
static void step_cvt(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    wmi_aff v =
        int_type(t) && int_type((wmi_type)in->type2) && !(in->flags & F_SAT)
            ? rdw(L, s, in->a, wmi_type_bits((wmi_type)in->type2))
            : wmi_aff_top(WMI_TOP_FLOAT, pc);
    wr(L, s, in, in->d, v, NOCOND, pc);
}

static void step_cvta(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    int64_t base = in->space == SP_SHARED  ? (int64_t)WMI_SHARED_WIN
                   : in->space == SP_LOCAL ? (int64_t)WMI_LOCAL_WIN
                                           : 0;
    wmi_aff a = rdw(L, s, in->a, wmi_type_bits((wmi_type)in->type));
    wmi_aff b = wmi_aff_const((in->flags & F_TO) ? -base : base);
    wr(L, s, in, in->d, wmi_aff_add(&a, &b), NOCOND, pc);
}

static void step_setp(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    wmi_aff a = rdw(L, s, in->a, bits), b = rdw(L, s, in->b, bits);
    int32_t p = NOCOND;
    if (int_type(t) && in->mod2 == BOOL_NONE)
        p = cond_ref(L, in->mod, bits, wmi_type_signed(t), &a, &b);
    wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_OP, pc), p, pc);
    if (in->d2 != WMI_NOREG)
        wr(L, s, in, in->d2, wmi_aff_top(WMI_TOP_OP, pc),
           p == NOCOND ? NOCOND : p ^ 1, pc);
}

static void step_selp(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int it = int_type(t);
    wmi_aff a = rdw(L, s, in->a, bits), b = rdw(L, s, in->b, bits), v;
    int32_t g = wmi_lint_rdp(L, s, in->c);
    if (wmi_aff_eq(&a, &b)) {
        v = a;
    } else if (g != NOCOND && it) {
        const cond *cc = &L->conds[g >> 1];
        v = wmi_aff_select(&L->ax, cc->cmp, cc->bits, cc->sgn, &cc->l, &cc->r,
                           (g & 1) ? &b : &a, (g & 1) ? &a : &b, pc);
    } else {
        v = wmi_aff_top(it ? WMI_TOP_MERGE : WMI_TOP_FLOAT, pc);
    }
    wr(L, s, in, in->d, v, NOCOND, pc);
}

/* ld.param of a kernel parameter: that parameter's (uniform) value. */
static void step_ld_param(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    wmi_aff a = addr_of(L, s, in->a, in->imm), v;
    uint32_t pi = a.top || a.nterms ? WMI_NOREG : param_at(L->f, a.c0);
    v = pi == WMI_NOREG || (in->d & WMI_VEC)
            ? wmi_aff_top(WMI_TOP_LOAD, pc)
            : wmi_aff_sym(&L->ax, WMI_AV_PARAM, pi, 0, 1, 0);
    if (!int_type((wmi_type)in->type))
        v = wmi_aff_top(WMI_TOP_FLOAT, pc);
    wr(L, s, in, in->d, v, NOCOND, pc);
}

static void step_ld(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    if (in->space == SP_PARAM) {
        step_ld_param(L, s, in, pc);
        return;
    }
    wmi_aff a = addr_of(L, s, in->a, in->imm), v;
    if (in->space != SP_CONST)
        record(L, s, in, pc, a, 0);
    /* a warp-uniform address loads one value: a uniform unknown */
    v = !(in->d & WMI_VEC) && int_type((wmi_type)in->type) &&
                wmi_aff_uniform(&L->ax, &a)
            ? wmi_aff_sym(&L->ax, WMI_AV_LOAD, pc, 0, 1,
                          wmi_aff_loops(&L->ax, &a))
            : wmi_aff_top(WMI_TOP_LOAD, pc);
    wr(L, s, in, in->d, v, NOCOND, pc);
}

/* The operations whose values lint follows; the rest of the family are
   operations it does not model.  Not a switch over wmi_op: a new ARITH
   row takes the default. */
static void step_arith(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    switch (in->op) {
    case OP_MOV: step_mov(L, s, in, pc); return;
    case OP_ADD:
    case OP_SUB: step_add(L, s, in, pc); return;
    case OP_MUL:
    case OP_MAD:
    case OP_MUL24:
    case OP_MAD24: step_mul(L, s, in, pc); return;
    case OP_NEG:
    case OP_NOT: step_neg(L, s, in, pc); return;
    case OP_AND:
    case OP_OR:
    case OP_XOR:
        if ((wmi_type)in->type == PT_PRED)
            pred_op(L, s, in, pc);
        else
            bit_op(L, s, in, pc);
        return;
    case OP_SHL:
    case OP_SHR:
    case OP_DIV:
    case OP_REM:
    case OP_MIN:
    case OP_MAX: bit_op(L, s, in, pc); return;
    case OP_CVT: step_cvt(L, s, in, pc); return;
    case OP_CVTA: step_cvta(L, s, in, pc); return;
    case OP_SETP: step_setp(L, s, in, pc); return;
    case OP_SELP: step_selp(L, s, in, pc); return;
    default: step_unmodelled(L, s, in, pc); return; /* mapa: not followed */
    }
}

/* The accesses lint judges record their address form; the rest (bulk
   copies, texture and surface traffic) are not judged, and a register
   they write is a load. */
static void step_memory(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    switch (in->op) {
    case OP_LD: step_ld(L, s, in, pc); return;
    case OP_ST:
    case OP_RED:
        if (in->space != SP_PARAM && in->space != SP_CONST)
            record(L, s, in, pc, addr_of(L, s, in->a, in->imm), 0);
        return;
    case OP_ATOM:
        record(L, s, in, pc, addr_of(L, s, in->a, in->imm), 0);
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_WARP, pc), NOCOND, pc);
        return;
    case OP_CP_ASYNC:
        record(L, s, in, pc, addr_of(L, s, in->b, in->imm2), 0);
        record(L, s, in, pc, addr_of(L, s, in->a, in->imm), 1);
        return;
    default:
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_LOAD, pc), NOCOND, pc);
        return;
    }
}

/* Matrix fragments are not followed; ldmatrix and wmma's loads and stores
   record their addresses. */
static void step_tensor(lint *L, bstate *s, const wmi_insn *in, uint32_t pc)
{
    switch (in->op) {
    case OP_LDMATRIX:
        /* lanes 0 .. 8n-1 give the row addresses (ptx_mma.c) */
        record(L, s, in, pc, addr_of(L, s, in->a, in->imm), 0);
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_LOAD, pc), NOCOND, pc);
        return;
    case OP_WMMA_LOAD: /* its lane addresses are the fragment layout's */
        record_wmma(L, s, in, pc, in->b);
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_LOAD, pc), NOCOND, pc);
        return;
    case OP_WMMA_STORE: record_wmma(L, s, in, pc, in->c); return;
    case OP_TMA: return; /* d2 and d hold sources (ptx_insn.c), not results */
    default: step_unmodelled(L, s, in, pc); return;
    }
}

/* A value that depends on which lanes run is known only at run time. */
static void step_collective(lint *L, bstate *s, const wmi_insn *in,
                            uint32_t pc)
{
    if (in->op == OP_MBAR) { /* arrive's state, a wait's predicate */
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_WARP, pc), NOCOND, pc);
        return;
    }
    top_dests(L, s, in, pc, WMI_TOP_WARP, WMI_TOP_WARP);
}

/* Abstract effect of the instruction at pc on s: lint's transfer
   function.  The family decides; a family's helper has cases only for
   the opcodes whose effect is their own (ptx_ops.def says what a row
   gets by default). */
void wmi_lint_step(lint *L, bstate *s, uint32_t pc)
{
    assert(pc < L->m->ncode);
    const wmi_insn *in = &L->m->code[pc];
    switch (wmi_op_family(in->op)) {
    case WMI_FAM_ARITH: step_arith(L, s, in, pc); return;
    case WMI_FAM_MEMORY: step_memory(L, s, in, pc); return;
    case WMI_FAM_TENSOR: step_tensor(L, s, in, pc); return;
    case WMI_FAM_COLLECTIVE: step_collective(L, s, in, pc); return;
    case WMI_FAM_CONTROL: return; /* no register; blocks: ptx_lint_flow.c */
    case WMI_FAM_COUNT: break;
    }
    assert(!"an opcode without a family");
}
