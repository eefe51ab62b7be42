/*
 * ptx_lint.c -- `warpmem lint`: every memory instruction of a kernel judged
 * from its PTX alone.
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
#include "wm_int.h"

#include "affine.h"
#include "ptx_int.h"
#include "ptx_lint_int.h"

#include <stdio.h>

#define MAXPATH   8
#define MAXSWEEPS 10
#define NOCOND    (-1)

/* A comparison l CMP r (hash-consed; a reference is 2 * index + negated). */
typedef struct cond {
    uint8_t cmp, bits, sgn;
    wmi_aff l, r;
} cond;

/* The abstract state at a program point. */
typedef struct bstate {
    wmi_aff *r; /* nslots values */
    int32_t *p; /* nslots condition references (predicates), NOCOND */
    int32_t path[MAXPATH];
    unsigned npath;
    int assumed; /* a branch on an unknown condition led here */
    int reached;
} bstate;

typedef struct block {
    uint32_t start, end; /* instruction indices [start, end) */
    int loop;            /* loop id when this block is a loop header, or -1 */
    uint32_t loop_end;   /* header: end of the last block branching back */
    uint64_t inloops;    /* loops whose range holds this block */
} bblock;

/* One counted access of a memory instruction. */
typedef struct memrec {
    uint32_t pc;
    wmi_space isp; /* the instruction's space (generic resolved later) */
    wm_op op;
    unsigned size;
    int cpasync_shared; /* cp.async: the shared (destination) side */
    unsigned lanes;     /* lanes that take part: 32; ldmatrix: 8 per matrix */
    unsigned nreq;      /* wmma load/store: its warp requests (else 0) */
    wmi_aff ld;         /* wmma: the stride in elements */
    const char *unsupported; /* reason, or NULL */
    wmi_aff addr;
    int32_t guard; /* condition reference, NOCOND */
    int guard_unknown;
    int32_t path[MAXPATH];
    unsigned npath;
    int assumed;
    int reached;
    uint64_t loops; /* loops around the instruction */
    int64_t sass_off; /* SASS level: the SASS access's start less the PTX
                         address (a lead's shift, a split's first part) */
} memrec;

typedef struct lint {
    const wm_ptx_module *m;
    const wmi_func *f;
    wmi_actx ax;
    cond *conds;
    size_t nconds, capconds;
    bblock *blocks;
    size_t nblocks;
    uint32_t *block_at; /* instruction offset -> block index + 1 (leaders) */
    uint8_t *iscst;     /* slot is a constant slot */
    int64_t *cval;      /* its value */
    bstate *in;         /* per block */
    bstate *back_prev, *back_cur; /* per block (headers only allocated) */
    wmi_aff **hprev;   /* per header: its state on the previous sweep */
    uint8_t **written; /* per header: slots the loop writes */
    int nloops;
    /* per loop: the condition of its back edge (NOCOND: none or unknown)
       and its iteration variable */
    int32_t loopcond[64];
    uint32_t loopiter[64];
    uint8_t loopback[64]; /* back edges seen this sweep */
    memrec *recs;
    size_t nrecs;
    const wm_sass_plan *sass; /* SASS level: widths of the compiled code */
    uint32_t *rec_at; /* instruction offset -> record index + 1 */
    bstate work;
    uint64_t cur_loops; /* inloops of the block being swept */
    int changed;
    int oom;
    int too_big; /* the states would pass WM_LIMIT_LINT_BYTES */
} lint;

/* ---- states ------------------------------------------------------------- */

static int state_alloc(bstate *s, uint32_t nslots)
{
    memset(s, 0, sizeof *s);
    s->r = malloc(sizeof *s->r * (nslots ? nslots : 1));
    s->p = malloc(sizeof *s->p * (nslots ? nslots : 1));
    return s->r && s->p;
}

static void state_free(bstate *s)
{
    if (s) {
        free(s->r);
        free(s->p);
    }
}

static void state_copy(bstate *d, const bstate *s, uint32_t nslots)
{
    memcpy(d->r, s->r, sizeof *d->r * nslots);
    memcpy(d->p, s->p, sizeof *d->p * nslots);
    memcpy(d->path, s->path, sizeof d->path);
    d->npath = s->npath;
    d->assumed = s->assumed;
    d->reached = s->reached;
}

/* An undefined register (never written on the way): joins as identity. */
static int undefined(const wmi_aff *a)
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
    if (undefined(a))
        return *b;
    if (undefined(b) || wmi_aff_eq(a, b))
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
static void state_join(wmi_actx *x, bstate *d, const bstate *s, uint32_t nslots,
                       uint32_t at)
{
    assert(d != s && d->r && s->r);
    if (!d->reached) {
        state_copy(d, s, nslots);
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

static uint64_t cond_loops(const lint *L, int32_t ref)
{
    assert(ref >= 0 && (size_t)(ref >> 1) < L->nconds);
    const cond *c = &L->conds[ref >> 1];
    return wmi_aff_loops(&L->ax, &c->l) | wmi_aff_loops(&L->ax, &c->r);
}

static void path_add(bstate *s, int32_t ref)
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

static int plain_slot(const lint *L, uint32_t s)
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

static int32_t rdp(const lint *L, const bstate *s, uint32_t slot)
{
    if (!plain_slot(L, slot))
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
            if (plain_slot(L, pool[1 + k])) {
                s->r[pool[1 + k]] = wmi_aff_top(WMI_TOP_LOAD, pc);
                s->p[pool[1 + k]] = NOCOND;
            }
        return;
    }
    if (!plain_slot(L, d))
        return;
    if (in->guard != WMI_NOREG) {
        int32_t g = rdp(L, s, in->guard);
        const wmi_aff *old = &s->r[d];
        if (p != s->p[d])
            p = NOCOND;
        if (wmi_aff_eq(&v, old) || undefined(old)) {
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

static unsigned type_bytes(wmi_type t)
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
    r->guard = in->guard == WMI_NOREG ? NOCOND : rdp(L, s, in->guard);
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
    int32_t a = rdp(L, s, in->a), p = NOCOND;
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

/* Abstract effect of the instruction at pc on s: lint's transfer
   function, one case per opcode as in the interpreter's dispatch (hence
   its length; a family column in the opcode table is to shorten it). */
static void step(lint *L, bstate *s, uint32_t pc)
{
    assert(pc < L->m->ncode);
    const wmi_insn *in = &L->m->code[pc];
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int sg = wmi_type_signed(t), it = int_type(t);
    wmi_aff a, b, c, v;
    switch ((wmi_op)in->op) {
    case OP_MOV:
        if (t == PT_PRED) {
            pred_op(L, s, in, pc);
            return;
        }
        if ((in->d & WMI_VEC) || (in->a & WMI_VEC)) {
            wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_OP, pc), NOCOND, pc);
            return;
        }
        wr(L, s, in, in->d, rdw(L, s, in->a, bits), NOCOND, pc);
        return;
    case OP_ADD:
    case OP_SUB:
        a = rdw(L, s, in->a, bits);
        b = rdw(L, s, in->b, bits);
        v = !it || (in->flags & (F_SAT | F_CC))
                ? wmi_aff_top(it ? WMI_TOP_OP : WMI_TOP_FLOAT, pc)
            : in->op == OP_ADD ? wmi_aff_add(&a, &b)
                               : wmi_aff_sub(&a, &b);
        wr(L, s, in, in->d, v, NOCOND, pc);
        return;
    case OP_MUL:
    case OP_MAD:
    case OP_MUL24:
    case OP_MAD24:
        a = rdw(L, s, in->a, bits);
        b = rdw(L, s, in->b, bits);
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
        return;
    case OP_NEG:
    case OP_NOT:
        if (t == PT_PRED) {
            pred_op(L, s, in, pc);
            return;
        }
        a = rdw(L, s, in->a, bits);
        v = it ? wmi_aff_scale(&a, -1) : wmi_aff_top(WMI_TOP_FLOAT, pc);
        if (in->op == OP_NOT && it) { /* ~a = -a - 1 */
            c = wmi_aff_const(-1);
            v = wmi_aff_add(&v, &c);
        }
        wr(L, s, in, in->d, v, NOCOND, pc);
        return;
    case OP_AND:
    case OP_OR:
    case OP_XOR:
        if (t == PT_PRED)
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
    case OP_CVT:
        /* integer <-> integer: the same mathematical value (no wrap) */
        v = it && int_type((wmi_type)in->type2) && !(in->flags & F_SAT)
                ? rdw(L, s, in->a, wmi_type_bits((wmi_type)in->type2))
                : wmi_aff_top(WMI_TOP_FLOAT, pc);
        wr(L, s, in, in->d, v, NOCOND, pc);
        return;
    case OP_CVTA: {
        int64_t base = in->space == SP_SHARED  ? (int64_t)WMI_SHARED_WIN
                       : in->space == SP_LOCAL ? (int64_t)WMI_LOCAL_WIN
                                               : 0;
        a = rdw(L, s, in->a, bits);
        b = wmi_aff_const((in->flags & F_TO) ? -base : base);
        wr(L, s, in, in->d, wmi_aff_add(&a, &b), NOCOND, pc);
        return;
    }
    case OP_SETP: {
        a = rdw(L, s, in->a, bits);
        b = rdw(L, s, in->b, bits);
        int32_t p = NOCOND;
        if (it && in->mod2 == BOOL_NONE)
            p = cond_ref(L, in->mod, bits, sg, &a, &b);
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_OP, pc), p, pc);
        if (in->d2 != WMI_NOREG)
            wr(L, s, in, in->d2, wmi_aff_top(WMI_TOP_OP, pc),
               p == NOCOND ? NOCOND : p ^ 1, pc);
        return;
    }
    case OP_SELP: {
        a = rdw(L, s, in->a, bits);
        b = rdw(L, s, in->b, bits);
        int32_t g = rdp(L, s, in->c);
        if (wmi_aff_eq(&a, &b)) {
            v = a;
        } else if (g != NOCOND && it) {
            const cond *cc = &L->conds[g >> 1];
            v = wmi_aff_select(&L->ax, cc->cmp, cc->bits, cc->sgn, &cc->l,
                               &cc->r, (g & 1) ? &b : &a, (g & 1) ? &a : &b,
                               pc);
        } else {
            v = wmi_aff_top(it ? WMI_TOP_MERGE : WMI_TOP_FLOAT, pc);
        }
        wr(L, s, in, in->d, v, NOCOND, pc);
        return;
    }
    case OP_LD:
        if (in->space == SP_PARAM) {
            a = addr_of(L, s, in->a, in->imm);
            uint32_t pi = a.top || a.nterms ? WMI_NOREG : param_at(L->f, a.c0);
            v = pi == WMI_NOREG || (in->d & WMI_VEC)
                    ? wmi_aff_top(WMI_TOP_LOAD, pc)
                    : wmi_aff_sym(&L->ax, WMI_AV_PARAM, pi, 0, 1, 0);
            if (!int_type(t))
                v = wmi_aff_top(WMI_TOP_FLOAT, pc);
            wr(L, s, in, in->d, v, NOCOND, pc);
            return;
        }
        a = addr_of(L, s, in->a, in->imm);
        if (in->space != SP_CONST)
            record(L, s, in, pc, a, 0);
        /* a warp-uniform address loads one value: a uniform unknown */
        v = !(in->d & WMI_VEC) && int_type(t) && wmi_aff_uniform(&L->ax, &a)
                ? wmi_aff_sym(&L->ax, WMI_AV_LOAD, pc, 0, 1,
                              wmi_aff_loops(&L->ax, &a))
                : wmi_aff_top(WMI_TOP_LOAD, pc);
        wr(L, s, in, in->d, v, NOCOND, pc);
        return;
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
    case OP_LDMATRIX:
        /* lanes 0 .. 8n-1 give the row addresses (ptx_mma.c) */
        record(L, s, in, pc, addr_of(L, s, in->a, in->imm), 0);
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_LOAD, pc), NOCOND, pc);
        return;
    case OP_WMMA_LOAD: /* its lane addresses are the fragment layout's */
        record_wmma(L, s, in, pc, in->b);
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_LOAD, pc), NOCOND, pc);
        return;
    case OP_WMMA_STORE:
        record_wmma(L, s, in, pc, in->c);
        return;
    case OP_STMATRIX: /* shared stores by row address: not judged */
    case OP_NOP:
    case OP_CP_COMMIT:
    case OP_CP_WAIT:
    case OP_WGMMA_SYNC:
    case OP_SETMAXNREG:
    case OP_BRA:
    case OP_RET:
    case OP_EXIT:
    case OP_TRAP:
    case OP_CP_BULK: /* a bulk copy writes no register */
    case OP_TMA:
    case OP_TENSORMAP: /* a tensor map's bytes, not the kernel's data */
    case OP_SUST:    /* texture and surface traffic is not linted */
    case OP_BARC:
    case OP_BAR: return;
    case OP_TEX:
    case OP_TLD4:
    case OP_SULD:
    case OP_TXQ:
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_LOAD, pc), NOCOND, pc);
        return;
    case OP_MBAR: /* arrive's state, a wait's predicate: known at run time */
        if (in->d != WMI_NOREG)
            wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_WARP, pc), NOCOND, pc);
        return;
    case OP_SHFL:
    case OP_VOTE:
    case OP_MATCH:
    case OP_REDUX:
    case OP_ELECT:
    case OP_ACTIVEMASK:
        wr(L, s, in, in->d, wmi_aff_top(WMI_TOP_WARP, pc), NOCOND, pc);
        if (in->d2 != WMI_NOREG)
            wr(L, s, in, in->d2, wmi_aff_top(WMI_TOP_WARP, pc), NOCOND, pc);
        return;
    case OP_UNKNOWN:
    case OP_MAPA: /* another CTA's address: not followed */
    case OP_FMA:
    case OP_ABS:
    case OP_CNOT:
    case OP_SHF:
    case OP_POPC:
    case OP_CLZ:
    case OP_BFIND:
    case OP_BREV:
    case OP_BFE:
    case OP_BFI:
    case OP_PRMT:
    case OP_LOP3:
    case OP_DP4A:
    case OP_SET:
    case OP_SLCT:
    case OP_RCP:
    case OP_SQRT:
    case OP_RSQRT:
    case OP_SIN:
    case OP_COS:
    case OP_LG2:
    case OP_EX2:
    case OP_TANH:
    case OP_COPYSIGN:
    case OP_TESTP:
    case OP_MMA:
    case OP_WMMA_MMA:
    case OP_WGMMA:
    case OP_CALL:
    case OP_COUNT: break;
    }
    wr(L, s, in, in->d, wmi_aff_top(it ? WMI_TOP_OP : WMI_TOP_FLOAT, pc),
       NOCOND, pc);
    if (in->d2 != WMI_NOREG && (in->flags & F_DEST2))
        wr(L, s, in, in->d2, wmi_aff_top(WMI_TOP_OP, pc), NOCOND, pc);
}

/* ---- control flow -------------------------------------------------------- */

static int ends_block(const wmi_insn *in)
{
    return in->op == OP_BRA || in->op == OP_RET || in->op == OP_EXIT ||
           in->op == OP_TRAP;
}

static int build_blocks(lint *L)
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
static int loop_writes(lint *L, const bblock *h, uint8_t *w)
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
                    if (plain_slot(L, pool[1 + j]))
                        w[pool[1 + j]] = 1;
            } else if (plain_slot(L, d)) {
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
            if (undefined(bv)) {
                nv = e; /* not written on the way back */
            } else if (bv->top) {
                nv = *bv;
            } else if (wmi_aff_eq(bv, &hp[r]) || wmi_aff_eq(bv, &e)) {
                nv = e;
            } else if (!(wmi_aff_loops(&L->ax, bv) & bit) && undefined(&e)) {
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
        g = rdp(L, s, last->guard);
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
            path_add(s, cnd[k]);
        unsigned np = 0;
        for (unsigned i = 0; i < s->npath; i++)
            if (!(cond_loops(L, s->path[i]) & ~t->inloops))
                s->path[np++] = s->path[i];
        s->npath = np;
        state_join(&L->ax, dst, s, n, t->start);
        memcpy(s->path, save, sizeof save);
        s->npath = nsave;
        s->assumed = sass;
    }
}

static void sweep(lint *L, int k)
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
        state_copy(s, &L->in[bi], n);
        if (L->blocks[bi].loop >= 0 && L->hprev[bi])
            enter_loop(L, bi, s, k);
        L->cur_loops = L->blocks[bi].inloops;
        for (uint32_t pc = L->blocks[bi].start; pc < L->blocks[bi].end; pc++)
            step(L, s, pc);
        leave_block(L, bi, s);
    }
    for (size_t bi = 0; bi < L->nblocks; bi++)
        if (L->back_cur[bi].r) {
            bstate t = L->back_prev[bi];
            L->back_prev[bi] = L->back_cur[bi];
            L->back_cur[bi] = t;
        }
}

/* ---- pass 2: evaluation -------------------------------------------------- */

typedef struct evalctx {
    lint *L;
    unsigned block[3], grid[3];
    unsigned tid[3], lane;
    int64_t ctaid[3];
    int64_t *param;   /* per parameter */
    uint32_t over[3]; /* variables whose values are overridden, or NOREG;
                         [2] is the loop check's own */
    int64_t over_val[3];
} evalctx;

static int64_t leaf(void *ud, const wmi_avar *v)
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

/* Symbols reached from some forms: seen[v] for each, and the list of
   them, so that clearing and visiting them costs what was marked, not
   every symbol of the kernel. */
typedef struct marks {
    uint8_t *seen; /* one per symbol */
    uint32_t *ids; /* the marked ones, in marking order */
    size_t n;
} marks;

typedef struct evalbuf {
    wmi_aenv env;
    evalctx ec;
    marks mk;
} evalbuf;

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
static wm_status judge(lint *L, const memrec *r, evalbuf *eb,
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
    if (r->unsupported) {
        v->kind = WM_LINT_UNSUPPORTED;
        snprintf(v->reason, sizeof v->reason, "%s", r->unsupported);
        return WM_OK;
    }
    if (!r->reached) {
        v->kind = WM_LINT_INACTIVE;
        snprintf(v->reason, sizeof v->reason, "unreachable");
        return WM_OK;
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
        return WM_OK;
    }
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
static wm_status by_shape(wm_lint *R, lint *L, evalbuf *eb,
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
            wm_status st = judge(L, &L->recs[i], eb, given, arch, &v, NULL, 0);
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

/* ---- set-up and the API -------------------------------------------------- */

static void lint_free(lint *L)
{
    for (size_t b = 0; b < L->nblocks; b++) {
        if (L->in)
            state_free(&L->in[b]);
        if (L->back_prev)
            state_free(&L->back_prev[b]);
        if (L->back_cur)
            state_free(&L->back_cur[b]);
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
    state_free(&L->work);
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
            r->size = type_bytes(t) *
                      wmi_vcount(L->m, in->op == OP_ST ? in->b : in->d);
            if (!sass_width(L, r)) { /* merged into its lead's access */
                L->rec_at[pc - f->first] = 0;
                L->nrecs--;
                continue;
            }
        } else if (in->op == OP_ATOM || in->op == OP_RED) {
            r->op = WM_OP_ATOM;
            r->size = type_bytes(t);
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
    if (!L->iscst || !L->cval || !build_blocks(L) || !find_records(L) ||
        !state_alloc(&L->work, n))
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
        if (!state_alloc(&L->in[b], n))
            return 0;
        if (L->blocks[b].loop < 0)
            continue;
        if (!state_alloc(&L->back_prev[b], n) ||
            !state_alloc(&L->back_cur[b], n))
            return 0;
        L->hprev[b] = calloc(n ? n : 1, sizeof *L->hprev[b]);
        L->written[b] = calloc(n ? n : 1, 1);
        if (!L->hprev[b] || !L->written[b] ||
            !loop_writes(L, &L->blocks[b], L->written[b]))
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
        sweep(&L, i);
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
    eb.env.leaf = leaf;
    eb.env.ud = &eb.ec;
    eb.env.val = calloc(L.ax.nvars + 1, sizeof *eb.env.val);
    eb.env.stamp = calloc(L.ax.nvars + 1, sizeof *eb.env.stamp);
    eb.mk.seen = calloc(L.ax.nvars + 1, 1);
    eb.mk.ids = malloc((L.ax.nvars + 1) * sizeof *eb.mk.ids);
    if (!eb.env.val || !eb.env.stamp || !eb.mk.seen || !eb.mk.ids)
        goto done;
    for (size_t i = 0; i < L.nrecs; i++) {
        wm_lint_insn v;
        st = judge(&L, &L.recs[i], &eb, given, arch, &v, R->agg, 1);
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
        st = by_shape(R, &L, &eb, given, arch, f);
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
