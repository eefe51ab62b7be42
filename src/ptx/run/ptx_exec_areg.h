/*
 * ptx_exec_areg.h -- the warp interpreter's side of the uniform and
 * lane-affine registers (ptx_areg.h): before each instruction of a full
 * warp that tracks them, ar_step runs it on the two numbers of its
 * operands where the result is again uniform or lane-affine (moves,
 * integer add, sub, mul/mad by a uniform factor, shl by a uniform count,
 * integer cvt and cvta, setp to a predicate mask, predicate logic, selp on
 * a uniform predicate, ld.param), runs any lane-local instruction whose
 * sources are all uniform on lane 0 alone, hands a memory instruction
 * with a lane-affine address to the fast path as (x0, d), and otherwise
 * fills what plain code will read.
 *
 * Exactness: each operation below computes the register bits the plain
 * helper in ptx_exec_alu.h writes, for every lane: integer add, sub, mul
 * .lo and shl are ring operations modulo 2^64 (or 2^32 for a 32-bit
 * result), so (b + l s) op (b' + l s') has the same low bits as
 * (b op b') + l (s op s') wherever the product is linear (one factor
 * uniform).  Widening a 32-bit lane-affine value (mul.wide, cvt.s64.s32,
 * cvt.u64.u32, a 32-bit register read as 64 bits) is affine only when no
 * lane crosses the sign (or the 2^32) boundary; ar_ext checks the two end
 * lanes, which bound the monotone rest.  A setp compares the 32 lanes as
 * the plain helper does, into a mask.
 *
 * Part of ptx_exec.c's translation unit, as ptx_exec_alu.h is.
 */
#ifndef WM_PTX_EXEC_AREG_H
#define WM_PTX_EXEC_AREG_H

#include "ptx_areg.h"
#include "ptx_exec_alu.h"

#if defined(__GNUC__)
#define WMI_NOINLINE __attribute__((noinline))
#else
#define WMI_NOINLINE
#endif

/* What ar_step did with an instruction. */
enum {
    AR_RUN,  /* plain code runs it */
    AR_DONE, /* it ran on the kinds alone */
    AR_UNI   /* plain code runs it on lane 0, then ar_uni_done */
};

/* The low 32 bits of x + l y, extended (sg: as signed), as b + l d for
   every lane; 0 when a lane crosses the boundary. */
static inline int ar_ext(uint64_t x, uint64_t y, int sg, uint64_t *b,
                         uint64_t *d)
{
    int64_t d32 = (int32_t)(uint32_t)y;
    int64_t v0 = sg ? (int64_t)(int32_t)(uint32_t)x : (int64_t)(uint32_t)x;
    int64_t v31 = v0 + 31 * d32;
    if (sg ? (v31 < INT32_MIN || v31 > INT32_MAX)
           : (v31 < 0 || v31 > (int64_t)UINT32_MAX))
        return 0;
    *b = (uint64_t)v0;
    *d = (uint64_t)d32;
    return 1;
}

/* Slot s read in mode md as b + l d (RD_LO32: modulo 2^32); 0 when it is
   not known so. */
static inline int ar_get(const wmi_warp *w, uint64_t (*R)[32],
                         const uint8_t *uni, uint32_t s, int md, uint64_t *b,
                         uint64_t *d)
{
    uint8_t k = w->ak[s] & WMI_AR_KIND;
    uint64_t x, y;
    if (k == 0) {
        if (!uni[s])
            return 0;
        x = R[s][0];
        y = 0;
        k = WMI_AR_A64;
    } else if (k != WMI_AR_PRED) {
        x = w->av[s].b;
        y = w->av[s].s;
    } else {
        return 0;
    }
    if (md == RD_LO32 || (md == RD_U64 && k == WMI_AR_A64)) {
        *b = x;
        *d = y;
        return 1;
    }
    return ar_ext(x, y, md == RD_S32, b, d);
}

/* Slot s's 64 bits when every lane holds the same, into *v; else 0. */
static inline int ar_uni(const wmi_warp *w, uint64_t (*R)[32],
                         const uint8_t *uni, uint32_t s, uint64_t *v)
{
    uint8_t k = w->ak[s] & WMI_AR_KIND;
    const wmi_areg *a = &w->av[s];
    if (!k) {
        *v = R[s][0];
        return uni[s];
    }
    if (k == WMI_AR_PRED ? a->b != 0 && a->b != WMI_FULL : a->s != 0)
        return 0;
    *v = wmi_areg_lane(k, a, 0);
    return 1;
}

/* Slot s, a predicate, as a lane mask; 0 when not known. */
static inline int ar_mask(const wmi_warp *w, uint64_t (*R)[32],
                          const uint8_t *uni, uint32_t s, uint32_t *mask)
{
    uint64_t v;
    if ((w->ak[s] & WMI_AR_KIND) == WMI_AR_PRED) {
        *mask = (uint32_t)w->av[s].b;
        return 1;
    }
    if (!ar_uni(w, R, uni, s, &v))
        return 0;
    *mask = (v & 1) ? WMI_FULL : 0;
    return 1;
}

/* Slot s now holds kind k, value (b, d): its lanes written if plain code
   may read them (apr), else stale. */
static inline void ar_put_pr(wmi_warp *w, uint32_t s, int pr, uint8_t k,
                             uint64_t b, uint64_t d)
{
    if (k != WMI_AR_A64) { /* A32 and PRED keep 32 bits */
        b = (uint32_t)b;
        d = (uint32_t)d;
    }
    if (pr) {
        wmi_areg v = {b, d};
        wmi_areg_write(w->r[s], k, &v);
    }
    wmi_areg_set(w, s, k, b, d, !pr);
}

/* ar_put_pr with pr = apr[s], as the slot's readers say. */
static inline void ar_put(wmi_warp *w, uint32_t s, uint8_t k, uint64_t b,
                          uint64_t d)
{
    ar_put_pr(w, s, w->apr[s], k, b, d);
}

/* mov (and selp on a uniform predicate): d takes src's kind. */
static inline int ar_copy(wmi_warp *w, uint64_t (*R)[32], const uint8_t *uni,
                          uint32_t d, uint32_t src)
{
    uint8_t k = w->ak[src] & WMI_AR_KIND;
    if (k) {
        wmi_areg v = w->av[src];
        ar_put(w, d, k, v.b, v.s);
        return 1;
    }
    if (!uni[src])
        return 0;
    ar_put(w, d, WMI_AR_A64, R[src][0], 0);
    return 1;
}

/* The W-bit lanes of b + l s read as integers (sg: signed) in closed
   form, x0 + l dx exactly; 0 when a lane wraps (or, unsigned 64-bit
   lanes, reaches 2^63). */
static inline int ar_seq(uint64_t b, uint64_t s, unsigned W, int sg,
                         int64_t *x0, int64_t *dx)
{
    int64_t v, d, v31;
    if (W == 32) {
        v = sg ? (int64_t)(int32_t)(uint32_t)b : (int64_t)(uint32_t)b;
        d = (int32_t)(uint32_t)s;
        v31 = v + 31 * d;
        if (sg ? v31 < INT32_MIN || v31 > INT32_MAX
               : v31 < 0 || v31 > (int64_t)UINT32_MAX)
            return 0;
    } else {
        v = (int64_t)b;
        d = (int64_t)s;
        if ((!sg && v < 0) || __builtin_mul_overflow(d, 31, &v31) ||
            __builtin_add_overflow(v31, v, &v31) || (!sg && v31 < 0))
            return 0;
    }
    *x0 = v;
    *dx = d;
    return 1;
}

/* The lanes l of 0..31 where e0 + l e < 0 (|e0|, |e| < 2^62). */
static inline uint32_t ar_below(int64_t e0, int64_t e)
{
    int64_t n;
    if (e == 0)
        return e0 < 0 ? WMI_FULL : 0;
    if (e > 0) { /* l < ceil(-e0 / e) */
        n = e0 >= 0 ? 0 : (-e0 + e - 1) / e;
        return n >= 32 ? WMI_FULL : (uint32_t)(((uint64_t)1 << n) - 1);
    }
    n = e0 < 0 ? 0 : e0 / -e + 1; /* l >= floor(e0 / -e) + 1 */
    return n >= 32 ? 0 : (uint32_t)(WMI_FULL << n);
}

/* setp's mask in closed form: both operands' lanes exact sequences in
   the compare's domain, so their difference is e0 + l e and each compare
   a threshold on l.  0 when a lane wraps or the numbers are too large. */
static inline int ar_cmp_closed(wmi_cmp op, unsigned W, int sg, uint64_t ab,
                                uint64_t as, uint64_t bb, uint64_t bs,
                                uint32_t *mask)
{
    int un = op == CMP_LO || op == CMP_LS || op == CMP_HI || op == CMP_HS;
    int64_t x0, dx, y0, dy, f0, f, lim = (int64_t)1 << 62;
    if (op == CMP_NUM || op == CMP_NAN ||
        !ar_seq(ab, as, W, sg && !un, &x0, &dx) ||
        !ar_seq(bb, bs, W, sg && !un, &y0, &dy) ||
        __builtin_sub_overflow(x0, y0, &f0) ||
        __builtin_sub_overflow(dx, dy, &f) || f0 <= -lim || f0 >= lim ||
        f <= -lim || f >= lim)
        return 0;
    /* the one lane (if any) where the difference is zero */
    uint32_t z = f == 0 ? (f0 == 0 ? WMI_FULL : 0)
                 : (-f0 % f == 0 && -f0 / f >= 0 && -f0 / f < 32)
                     ? (uint32_t)1 << (-f0 / f) : 0;
    switch (op) {
    case CMP_EQ: case CMP_EQU: *mask = z; break;
    case CMP_NE: case CMP_NEU: *mask = ~z; break;
    case CMP_LT: case CMP_LTU: case CMP_LO: *mask = ar_below(f0, f); break;
    case CMP_LE: case CMP_LEU: case CMP_LS: *mask = ar_below(f0 - 1, f); break;
    case CMP_GT: case CMP_GTU: case CMP_HI: *mask = ar_below(-f0, -f); break;
    case CMP_GE: case CMP_GEU: case CMP_HS: *mask = ar_below(-f0 - 1, -f); break;
    case CMP_NUM: case CMP_NAN: return 0;
    }
    return 1;
}

/* setp on 32- or 64-bit integers without a bool op: the lanes compared
   as compare_lanes compares them (in closed form where it can), kept as
   a mask (d2 its complement). */
static WMI_NOINLINE int ar_setp(wmi_warp *w, uint64_t (*R)[32],
                                const uint8_t *uni, const wmi_aop *o)
{
    uint64_t ab, as, bb, bs, A[32], B[32], res[32];
    wmi_cmp op = (wmi_cmp)o->cmp;
    uint32_t mask = 0;
    if (!ar_get(w, R, uni, o->a, o->ma, &ab, &as) ||
        !ar_get(w, R, uni, o->b, o->ma, &bb, &bs))
        return 0;
    if (!ar_cmp_closed(op, o->bits, o->sg, ab, as, bb, bs, &mask)) {
        for (unsigned l = 0; l < 32; l++, ab += as, bb += bs) {
            A[l] = ab;
            B[l] = bb;
        }
        if (!cmp_lanes(op, A, B, WMI_FULL, o->bits, o->sg, res))
            return 0;
        mask = pred_mask(res);
    }
    ar_put_pr(w, o->d, o->dpr, WMI_AR_PRED, mask, 0);
    if (o->d2 != WMI_NOREG)
        ar_put_pr(w, o->d2, o->d2pr, WMI_AR_PRED, ~mask, 0);
    return 1;
}

/* and, or, xor, not of predicates known as masks (IBIN on 1-bit lanes). */
static inline int ar_plogic(wmi_warp *w, uint64_t (*R)[32],
                            const uint8_t *uni, const wmi_aop *o)
{
    uint32_t ma, mb = 0;
    if (!ar_mask(w, R, uni, o->a, &ma) ||
        (o->op != ARO_PNOT && !ar_mask(w, R, uni, o->b, &mb)))
        return 0;
    uint32_t r = o->op == ARO_PAND  ? ma & mb
                 : o->op == ARO_POR ? ma | mb
                 : o->op == ARO_PXOR ? ma ^ mb : ~ma;
    ar_put_pr(w, o->d, o->dpr, WMI_AR_PRED, r, 0);
    return 1;
}

/* a op b for add, sub, mul (+ c): one factor of a product uniform. */
static inline int ar_arith(wmi_warp *w, uint64_t (*R)[32],
                           const uint8_t *uni, const wmi_aop *o)
{
    uint64_t ab, as, bb, bs, cb = 0, cs = 0;
    if (!ar_get(w, R, uni, o->a, o->ma, &ab, &as) ||
        !ar_get(w, R, uni, o->b, o->ma, &bb, &bs))
        return 0;
    if (o->op == ARO_ADD) {
        ar_put_pr(w, o->d, o->dpr, o->rk, ab + bb, as + bs);
    } else if (o->op == ARO_SUB) {
        ar_put_pr(w, o->d, o->dpr, o->rk, ab - bb, as - bs);
    } else {
        if ((as && bs) ||
            (o->c != WMI_NOREG && !ar_get(w, R, uni, o->c, o->mc, &cb, &cs)))
            return 0;
        ar_put_pr(w, o->d, o->dpr, o->rk, ab * bb + cb, as * bb + bs * ab + cs);
    }
    return 1;
}

/* shl by a uniform count (exec_shl), cvt and cvta: one source. */
static inline int ar_unary(wmi_warp *w, uint64_t (*R)[32],
                           const uint8_t *uni, const wmi_aop *o)
{
    uint64_t b, s, n = 0;
    if (o->op == ARO_SHL && !ar_uni(w, R, uni, o->b, &n))
        return 0;
    if (!ar_get(w, R, uni, o->a, o->ma, &b, &s))
        return 0;
    switch (o->op) {
    case ARO_SHL:
        if ((uint32_t)n >= o->bits)
            ar_put_pr(w, o->d, o->dpr, WMI_AR_A64, 0, 0);
        else
            ar_put_pr(w, o->d, o->dpr, o->rk, b << (uint32_t)n, s << (uint32_t)n);
        break;
    case ARO_CVTA_TO: ar_put_pr(w, o->d, o->dpr, o->rk, b - o->base, s); break;
    case ARO_CVTA_FROM: ar_put_pr(w, o->d, o->dpr, o->rk, b + o->base, s); break;
    default: ar_put_pr(w, o->d, o->dpr, o->rk, b, s); break; /* ARO_CVT */
    }
    return 1;
}

/* The decoded operation o (a full warp) on the kinds of its operands: 1
   when done. */
static HOT int ar_aop(wmi_warp *w, uint64_t (*R)[32], const uint8_t *uni,
                      const wmi_aop *o)
{
    uint64_t p;
    switch (o->op) {
    case ARO_MOV: return ar_copy(w, R, uni, o->d, o->a);
    case ARO_ADD:
    case ARO_SUB:
    case ARO_MUL: return ar_arith(w, R, uni, o);
    case ARO_SETP: return ar_setp(w, R, uni, o);
    case ARO_PAND:
    case ARO_POR:
    case ARO_PXOR:
    case ARO_PNOT: return ar_plogic(w, R, uni, o);
    case ARO_SELP:
        return ar_uni(w, R, uni, o->c, &p) &&
               ar_copy(w, R, uni, o->d, (p & 1) ? o->a : o->b);
    default: return ar_unary(w, R, uni, o);
    }
}

/* Are all of in's sources uniform?  Then their lane 0 is written (the
   plain helper runs on lane 0 alone) and 1 returned. */
static inline int ar_uni_srcs(wmi_warp *w, uint64_t (*R)[32],
                              const uint8_t *uni, const wmi_insn *in)
{
    const uint32_t src[4] = {in->a, in->b, in->c, in->e};
    uint64_t v[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 4; k++)
        if (src[k] != WMI_NOREG && !ar_uni(w, R, uni, src[k], &v[k]))
            return 0;
    for (unsigned k = 0; k < 4; k++)
        if (src[k] != WMI_NOREG && (w->ak[src[k]] & WMI_AR_STALE))
            R[src[k]][0] = v[k];
    return 1;
}

/* After plain code ran in on lane 0: its destinations are uniform. */
static inline void ar_uni_done(wmi_warp *w, uint64_t (*R)[32],
                               const wmi_insn *in)
{
    ar_put(w, in->d, WMI_AR_A64, R[in->d][0], 0);
    if (in->d2 != WMI_NOREG)
        ar_put(w, in->d2, WMI_AR_A64, R[in->d2][0], 0);
}

/* Plain code writes in's scalar destinations: their kinds forgotten (a
   stale one filled first: the write may leave some lanes). */
static inline void ar_drop(wmi_warp *w, const wmi_insn *in)
{
    if (in->d != WMI_NOREG)
        wmi_areg_drop(w, in->d);
    if (in->d2 != WMI_NOREG)
        wmi_areg_drop(w, in->d2);
}

/* Plain code runs in (of class WMI_AC_AFF or WMI_AC_PARAM: its operands
   are scalars, read through their kinds so far): the stale ones filled,
   the destinations' kinds forgotten. */
static inline void ar_plain(wmi_warp *w, const wmi_insn *in)
{
    const uint32_t f[6] = {in->d, in->d2, in->a, in->b, in->c, in->e};
    for (unsigned k = 0; k < 6; k++)
        if (f[k] != WMI_NOREG)
            wmi_areg_fill(w, f[k]);
    ar_drop(w, in);
}

/* Plain code runs an instruction ar_step does not know: its operands are
   never stale (apr), the kinds of its destinations (d, d2, vectors too)
   are forgotten.  An instruction reads and writes no register but its
   operands (the fields of wmi_insn; a call, which moves registers
   between frames, runs WMI_RUN_SLOW). */
static WMI_NOINLINE void ar_other(wmi_warp *w, const wm_ptx_module *mod,
                                  const wmi_insn *in)
{
    const uint32_t f[2] = {in->d, in->d2};
    for (unsigned k = 0; k < 2; k++) {
        if (f[k] == WMI_NOREG)
            continue;
        for (unsigned i = 0, n = wmi_vcount(mod, f[k]); i < n; i++) {
            uint32_t s = wmi_vslot(mod, f[k], i);
            if (ALWAYS(s < w->nak)) {
                assert(!(w->ak[s] & WMI_AR_STALE));
                w->ak[s] = 0;
            }
        }
    }
}

/* ld/st of global or shared memory.  A full warp whose address register
   is lane-affine goes to the fast path as (x0, d); a load from one
   address leaves its registers uniform.  Else the address and the
   registers filled for the plain path. */
static WMI_NOINLINE int ar_ldst(wmi_cta *c, wmi_warp *w, uint64_t (*R)[32],
                   const wmi_insn *in, uint32_t pc, uint32_t m,
                   wm_status *st)
{
    const wm_ptx_module *mod = c->m;
    int store = in->op == OP_ST;
    uint32_t vals = store ? in->b : in->d;
    unsigned n = wmi_vcount(mod, vals);
    for (unsigned k = 0; !store && k < n; k++) /* a store's: never stale */
        wmi_areg_drop(w, wmi_vslot(mod, vals, k));
    uint64_t b, s, x0, d;
    int shared = in->space == SP_SHARED;
    if (m == WMI_FULL && (w->ak[in->a] & WMI_AR_KIND) &&
        ar_get(w, R, c->uni, in->a, shared ? RD_LO32 : RD_U64, &b, &s)) {
        x0 = b + (uint64_t)in->imm;
        x0 = shared ? (uint32_t)x0 : x0;
        d = shared ? (uint64_t)(int64_t)(int32_t)(uint32_t)s : s;
        if (wmi_ptx_fast_ldst_affine(c, w, in, pc, store, x0, (int64_t)d,
                                     st)) {
            for (unsigned k = 0; !store && !d && k < n; k++) {
                uint32_t v = wmi_vslot(mod, vals, k);
                wmi_areg_set(w, v, WMI_AR_A64, R[v][0], 0, 0);
            }
            return AR_DONE;
        }
    }
    wmi_areg_fill(w, in->a);
    return AR_RUN;
}

/*
 * Before instruction in runs for the lanes of m: AR_DONE when it ran on
 * the kinds alone (*st: a memory instruction's status), AR_UNI when its
 * sources are uniform (the caller runs it on lane 0 and calls
 * ar_uni_done), AR_RUN when plain code runs it, everything it reads
 * filled and the kinds it writes forgotten.  tried: ar_run already found
 * that ar_aop cannot run it.
 */
static HOT int ar_step(wmi_cta *c, wmi_warp *w, uint64_t (*R)[32],
                       const wmi_insn *in, uint32_t pc, uint32_t m,
                       int tried, wm_status *st)
{
    uint32_t at = pc - c->f->first, v;
    switch (c->acls[at]) {
    case WMI_AC_NONE: return AR_RUN;
    case WMI_AC_AFF:
        if (m == WMI_FULL) {
            if (!tried && ar_aop(w, R, c->uni, &c->aop[at]))
                return AR_DONE;
            if (ar_uni_srcs(w, R, c->uni, in))
                return AR_UNI;
        }
        ar_plain(w, in);
        return AR_RUN;
    case WMI_AC_ALU: /* its operands are never stale (apr) */
        if (m == WMI_FULL && ar_uni_srcs(w, R, c->uni, in))
            return AR_UNI;
        ar_drop(w, in);
        return AR_RUN;
    case WMI_AC_LDST:
        v = in->op == OP_ST ? in->b : in->d;
        if (!(w->ak[in->a] & WMI_AR_KIND) && !(v & WMI_VEC) &&
            !(w->ak[v] & WMI_AR_KIND))
            return AR_RUN; /* nothing tracked: the plain path as it is */
        return ar_ldst(c, w, R, in, pc, m, st);
    case WMI_AC_PARAM:
        if (m == WMI_FULL) {
            ar_put(w, in->d, WMI_AR_A64, c->apv[at], 0);
            return AR_DONE;
        }
        ar_plain(w, in);
        return AR_RUN;
    default: /* WMI_AC_OTHER, WMI_AC_PLAIN */
        if (in->d != WMI_NOREG || in->d2 != WMI_NOREG)
            ar_other(w, c->m, in);
        return AR_RUN;
    }
}

/* guard_lanes with the guard's kind: a mask kept, or its lanes filled. */
static inline uint32_t ar_guard(wmi_warp *w, uint64_t (*R)[32],
                                const wmi_insn *in, uint32_t act)
{
    uint32_t g = in->guard, p;
    if (g == WMI_NOREG)
        return act;
    if ((w->ak[g] & WMI_AR_KIND) == WMI_AR_PRED) {
        p = (uint32_t)w->av[g].b;
    } else {
        wmi_areg_fill(w, g);
        p = pred_mask(R[g]);
    }
    return act & (in->guard_neg ? ~p : p);
}

/* An f32 add, sub, mul or fma of a full warp on plain lanes, as
   ptx_exec_alu.h computes it (FOP, wmi_fma_f32); its operands are never
   stale (their class is plain: apr), its destination's kind dropped. */
static void ar_f32(wmi_warp *w, uint64_t (*R)[32], const wmi_aop *o)
{
    const uint64_t *A = R[o->a], *B = R[o->b];
    uint64_t *D = R[o->d];
    w->ak[o->d] = 0;
    switch (o->op) {
    case ARF_ADD:
        for (unsigned l = 0; l < 32; l++)
            D[l] = UF(F(A[l]) + F(B[l]));
        break;
    case ARF_SUB:
        for (unsigned l = 0; l < 32; l++)
            D[l] = UF(F(A[l]) - F(B[l]));
        break;
    case ARF_MUL:
        for (unsigned l = 0; l < 32; l++)
            D[l] = UF(F(A[l]) * F(B[l]));
        break;
    default: wmi_fma_f32(D, A, B, R[o->c], WMI_FULL); break;
    }
}

/* The lanes a guard slot g (negated: neg) lets run, as ar_guard. */
static inline uint32_t ar_guard_slot(wmi_warp *w, uint64_t (*R)[32],
                                     uint32_t g, int neg)
{
    uint32_t p;
    if ((w->ak[g] & WMI_AR_KIND) == WMI_AR_PRED) {
        p = (uint32_t)w->av[g].b;
    } else {
        wmi_areg_fill(w, g);
        p = pred_mask(R[g]);
    }
    return neg ? ~p : p;
}

/* Might ar_run take the instruction at pc (its action; a memory
   instruction only with a lane-affine address)? */
static inline int ar_runs(const wmi_cta *c, const wmi_warp *w, uint32_t pc)
{
    const wmi_aop *o = &c->aop[pc - c->f->first];
    return o->act == ARA_LDST ? (w->ak[o->a] & WMI_AR_KIND) != 0
                              : o->act != ARA_STOP;
}

/*
 * A converged full warp (all 32 lanes at *ppc, none waiting elsewhere)
 * runs the instructions it can on the kinds alone -- ALU operations on
 * uniform and lane-affine registers, ld.param, ld/st with a lane-affine
 * address, uniform branches -- in a loop of its own over their decoded
 * forms (wmi_aop), without the dispatch loop's per-instruction work.  It
 * stops before the first other instruction (or a partial guard, the step
 * budget, the end) and leaves its pc in *ppc, or after an exit of the
 * whole warp (w->live then 0); each instruction it ran counts as the
 * loop counts it.  Returns a memory instruction's failed
 * status (that instruction counted), else WM_OK.
 */
static WMI_NOINLINE wm_status ar_run(wmi_cta *c, wmi_warp *w,
                                     uint64_t (*R)[32], uint32_t *ppc,
                                     uint32_t end)
{
    const wmi_aop *ops = c->aop;
    const uint8_t *uni = c->uni;
    uint32_t first = c->f->first, i = *ppc - first, iend = end - first;
    /* the steps left in the budget (the loop counts at most room) */
    uint64_t room = c->step_limit - c->steps, n = 0, nplain = 0;
    wm_status st = WM_OK;
    for (; i < iend && n < room; n++) {
        const wmi_aop *o = &ops[i];
        uint32_t m = WMI_FULL;
        if (o->guard != WMI_NOREG) {
            m = ar_guard_slot(w, R, o->guard, o->gneg);
            if (m && m != WMI_FULL)
                break; /* some lanes only: the dispatch loop */
        }
        if (o->act == ARA_OP) {
            if (m && !ar_aop(w, R, uni, o))
                break;
            i++;
        } else if (o->act == ARA_PARAM) {
            if (!m)
                break; /* predicated off: the dispatch loop records it */
            ar_put_pr(w, o->d, o->dpr, WMI_AR_A64, o->base, 0);
            i++;
        } else if (o->act == ARA_BRA) {
            i = m ? o->target - first : i + 1; /* the warp goes one way */
        } else if (o->act == ARA_NOP || (o->act == ARA_EXIT && !m)) {
            i++;
        } else if (o->act == ARA_F32) {
            if (m)
                ar_f32(w, R, o);
            i++;
            nplain++;
        } else if (o->act == ARA_EXIT) {
            /* every lane exits: what exit_lanes and the reselect that
               finds no lane ready leave */
            w->live = 0;
            w->act = 0;
            c->exited += 32;
            n++;
            break;
        } else if (o->act == ARA_LDST && m &&
                   (w->ak[o->a] & WMI_AR_KIND) &&
                   ar_ldst(c, w, R, &c->m->code[first + i], first + i, m,
                           &st) == AR_DONE) {
            i++;
            if (st != WM_OK) {
                n++;
                break;
            }
        } else {
            break;
        }
    }
    c->steps += n;
    c->thread_insts += 32 * n;
    c->ar_taken += n - nplain; /* the instructions run on kinds */
    *ppc = first + i;
    return st;
}

#endif /* WM_PTX_EXEC_AREG_H */
