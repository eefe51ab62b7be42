/*
 * ptx_areg.c -- the uniform and lane-affine registers' state (ptx_areg.h):
 * each full warp's kinds and slot list, the class of each instruction
 * (how ptx_exec_areg.h treats it), and the kinds a CTA starts with: the
 * special registers that step by a constant from lane to lane (%tid.x of
 * a block whose width is a multiple of 32, %laneid) or hold one value for
 * the warp (%tid.y there).  Constants and CTA-wide special registers need
 * no kind: wmi_cta.uni marks them.
 */
#include "ptx_areg.h"

#include <stdlib.h>
#include <string.h>

/* Lane-local arithmetic: each lane's result a function of that lane's
   operands alone, computed by ptx_exec_alu.h's helpers. */
static const uint8_t alu_ops[] = {
    OP_MOV,  OP_ADD,  OP_SUB,   OP_MUL,   OP_MAD,   OP_FMA,  OP_MUL24,
    OP_MAD24, OP_DIV, OP_REM,   OP_ABS,   OP_NEG,   OP_MIN,  OP_MAX,
    OP_AND,  OP_OR,   OP_XOR,   OP_NOT,   OP_CNOT,  OP_SHL,  OP_SHR,
    OP_SHF,  OP_POPC, OP_CLZ,   OP_BFIND, OP_BREV,  OP_BFE,  OP_BFI,
    OP_PRMT, OP_LOP3, OP_DP4A,  OP_SETP,  OP_SET,   OP_SELP, OP_SLCT,
    OP_CVT,  OP_CVTA, OP_RCP,   OP_SQRT,  OP_RSQRT, OP_SIN,  OP_COS,
    OP_LG2,  OP_EX2,  OP_TANH,  OP_COPYSIGN};

/* Control that reads no register but the guard. */
static const uint8_t none_ops[] = {OP_BRA, OP_EXIT, OP_RET, OP_NOP,
                                   OP_CP_COMMIT, OP_CP_WAIT, OP_WGMMA_SYNC};

static int in_list(const uint8_t *ops, size_t n, unsigned op)
{
    for (size_t i = 0; i < n; i++)
        if (ops[i] == op)
            return 1;
    return 0;
}

static int any_vec(const wmi_insn *in)
{
    const uint32_t f[] = {in->d, in->d2, in->a, in->b, in->c, in->e};
    for (size_t i = 0; i < WM_ARRAY_LEN(f); i++)
        if (f[i] != WMI_NOREG && (f[i] & WMI_VEC))
            return 1;
    return 0;
}

/* The class of instruction in, its aop decoded into *o when it is
   WMI_AC_AFF. */
static uint8_t classify(const wmi_insn *in, wmi_aop *o)
{
    if (in_list(none_ops, sizeof none_ops, in->op))
        return WMI_AC_NONE;
    if (in_list(alu_ops, sizeof alu_ops, in->op) && !any_vec(in))
        return wmi_areg_decode(in, o) ? WMI_AC_AFF : WMI_AC_ALU;
    /* (acquire loads and polls go to the switch, which yields a
       spin-wait's poll) */
    if ((in->op == OP_ST ||
         (in->op == OP_LD && in->mod2 != LD_ACQUIRE && in->mod2 != LD_POLL)) &&
        !(in->a & WMI_VEC)) {
        if (in->space == SP_GLOBAL || in->space == SP_SHARED)
            return WMI_AC_LDST;
        if (in->space == SP_PARAM && in->op == OP_LD && !(in->d & WMI_VEC))
            return WMI_AC_PARAM;
    }
    return WMI_AC_OTHER;
}

void wmi_areg_free(wmi_cta *c)
{
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
        wmi_warp *w = &c->warps[i];
        free(w->ak);
        free(w->av);
        w->ak = NULL;
        w->av = NULL;
    }
    free(c->acls);
    free(c->apv);
    free(c->apr);
    free(c->aop);
    c->acls = NULL;
    c->apv = NULL;
    c->apr = NULL;
    c->aop = NULL;
}

/* The special registers of warp w whose lanes are affine keep their kind
   for the worker's life: no instruction writes a special register (PTX
   ISA 10), their lanes are written once (ptx_cta.c's fill_sregs), and
   they are not listed, so a CTA's start does not forget them. */
static void init_kinds(const wmi_cta *c, wmi_warp *w)
{
    static const uint8_t sr[] = {SR_TID_X, SR_TID_Y, SR_TID_Z, SR_LANEID};
    for (size_t k = 0; k < WM_ARRAY_LEN(sr); k++) {
        uint32_t s = SLOT_SREG0 + sr[k];
        if (s >= c->f->nslots)
            continue;
        const uint64_t *R = w->r[s];
        uint64_t d = R[1] - R[0], diff = 0;
        for (unsigned l = 1; l < 32; l++)
            diff |= (R[l] - R[l - 1]) ^ d;
        if (diff)
            continue;
        w->ak[s] = WMI_AR_A64;
        w->av[s].b = R[0];
        w->av[s].s = d;
    }
}

/* The slots of field f (a scalar or a vector's elements) into apr. */
static void mark(const wmi_cta *c, uint32_t f)
{
    const wm_ptx_module *mod = c->m;
    if (f == WMI_NOREG)
        return;
    for (unsigned i = 0, n = wmi_vcount(mod, f); i < n; i++) {
        uint32_t s = wmi_vslot(mod, f, i);
        if (ALWAYS(s < c->f->nslots))
            c->apr[s] = 1;
    }
}

/* The slots plain code reads (or writes only some lanes of) under
   instruction in of class k: every operand of an instruction not run on
   the kinds, a store's value and a load's destination.  The sources of
   WMI_AC_AFF, addresses and guards are read through their kinds, or
   filled where plain code takes them (ptx_exec_areg.h). */
static void mark_plain(wmi_cta *c, const wmi_insn *in, uint8_t k)
{
    const uint32_t f[6] = {in->d, in->d2, in->a, in->b, in->c, in->e};
    if (k == WMI_AC_ALU || k == WMI_AC_PLAIN || k == WMI_AC_OTHER)
        for (unsigned i = 0; i < 6; i++)
            mark(c, f[i]);
    else if (k == WMI_AC_LDST)
        mark(c, in->op == OP_ST ? in->b : in->d);
}

/* An f32 add, sub, mul, fma or mad (scalar operands: its class says so):
   ar_run computes it on the lanes (ARA_F32). */
static void f32_action(const wmi_insn *in, wmi_aop *o)
{
    o->b = in->b;
    o->c = in->c == WMI_NOREG ? SLOT_ZERO : in->c;
    switch (in->op) {
    case OP_ADD: o->op = ARF_ADD; break;
    case OP_SUB: o->op = ARF_SUB; break;
    case OP_MUL: o->op = ARF_MUL; break;
    case OP_FMA:
    case OP_MAD: o->op = ARF_FMA; break;
    default: return;
    }
    if (in->b == WMI_NOREG && o->op != ARF_FMA)
        o->b = SLOT_ZERO; /* FOP reads a missing b as zero */
    if (o->b != WMI_NOREG)
        o->act = ARA_F32;
}

/* What ar_run does with instruction in of class k (its aop decoded when
   k is WMI_AC_AFF); v: an ld.param's value. */
static void run_action(const wmi_insn *in, uint8_t k, uint64_t v,
                       wmi_aop *o)
{
    o->guard = in->guard;
    o->gneg = in->guard_neg;
    o->target = in->target;
    o->d = in->d;
    o->a = in->a;
    o->act = ARA_STOP;
    if (k == WMI_AC_AFF)
        o->act = ARA_OP;
    else if (k == WMI_AC_PARAM)
        o->act = ARA_PARAM, o->base = v;
    else if (k == WMI_AC_LDST)
        o->act = ARA_LDST;
    else if (k == WMI_AC_NONE && in->op == OP_BRA)
        o->act = ARA_BRA;
    else if (k == WMI_AC_NONE && (in->op == OP_EXIT || in->op == OP_RET))
        o->act = ARA_EXIT; /* no calls: ret ends the kernel's threads */
    else if (k == WMI_AC_NONE)
        o->act = ARA_NOP;
    else if ((k == WMI_AC_ALU || k == WMI_AC_PLAIN) && in->type == PT_F32)
        f32_action(in, o);
}

/* The instructions' classes, and the value of each ld.param from a
   uniform address (the parameters do not change during a launch: st.param
   is not run); an ld.param that wmi_ptx_param_value declines (it faults
   in the checked path) is left to plain code. */
static wm_status classify_all(wmi_cta *c)
{
    const wmi_func *f = c->f;
    c->acls = malloc(f->count ? f->count : 1);
    c->apv = calloc(f->count ? f->count : 1, sizeof *c->apv);
    c->aop = calloc(f->count ? f->count : 1, sizeof *c->aop);
    if (!c->acls || !c->apv || !c->aop)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < f->count; i++) {
        const wmi_insn *in = &c->m->code[f->first + i];
        c->acls[i] = classify(in, &c->aop[i]);
        if (c->acls[i] == WMI_AC_PARAM &&
            !wmi_ptx_param_value(c, &c->warps[0], in, &c->apv[i]))
            c->acls[i] = WMI_AC_OTHER;
    }
    wm_status st = wmi_areg_flow(c);
    for (uint32_t i = 0; st == WM_OK && i < f->count; i++)
        mark_plain(c, &c->m->code[f->first + i], c->acls[i]);
    for (uint32_t i = 0; st == WM_OK && i < f->count; i++) {
        wmi_aop *o = &c->aop[i];
        const wmi_insn *in = &c->m->code[f->first + i];
        run_action(in, c->acls[i], c->apv[i], o);
        /* --check: a fence or bar.warp.sync orders accesses, so the
           dispatch loop runs it and calls its hook */
        if ((c->flags & WMI_RUN_CHECK) && o->act == ARA_NOP &&
            in->op == OP_NOP)
            o->act = ARA_STOP;
        o->dpr = o->d < f->nslots && c->apr[o->d];
        o->d2pr = o->d2 < f->nslots && c->apr[o->d2];
    }
    return st;
}

wm_status wmi_areg_alloc(wmi_cta *c)
{
    const wmi_func *f = c->f;
    if (c->flags & WMI_RUN_SLOW)
        return WM_OK;
    c->apr = calloc(f->nslots ? f->nslots : 1, 1);
    if (!c->apr)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        wmi_warp *w = &c->warps[i];
        if (c->nthreads - i * 32 < 32) /* a partial warp */
            continue;
        w->nak = f->nslots;
        w->apr = c->apr;
        w->ak = calloc(f->nslots ? f->nslots : 1, 1);
        w->av = calloc(f->nslots ? f->nslots : 1, sizeof *w->av);
        if (!w->ak || !w->av)
            return WM_ERR_NOMEM;
        init_kinds(c, w);
    }
    return classify_all(c);
}

void wmi_areg_begin(wmi_cta *c)
{
    /* After the worker's first CTA: where the kinds ran under a quarter
       of its instructions (a kernel whose time is in float loops, as
       SGEMM's, whose blocks are not whole warps wide), tracking them
       costs more than it saves, and the later CTAs run without.  The
       registers do not carry from one CTA to the next, so they need no
       filling. */
    if (c->acls && c->warp_insts && c->ar_taken * 4 < c->warp_insts) {
        wmi_areg_free(c);
        return;
    }
    const uint32_t first = SLOT_SREG0 + SR_COUNT; /* the special registers
                                                     keep their kinds */
    if (!c->acls || c->f->nslots <= first)
        return;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        wmi_warp *w = &c->warps[i];
        if (w->ak)
            memset(w->ak + first, 0, c->f->nslots - first);
    }
}
