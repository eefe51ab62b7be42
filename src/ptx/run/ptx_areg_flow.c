/*
 * ptx_areg_flow.c -- which registers of a kernel can ever hold a kind
 * (ptx_areg.h): a flow-insensitive pass over the code, per slot the kinds
 * some definition may give it (uniform, lane-affine), iterated to a fixed
 * point.  An instruction whose sources can never all carry kinds is
 * never tried on them (WMI_AC_PLAIN): plain code runs it at once, where
 * trying would cost a failed lookup per operand every time (the KV-cache
 * kernel's loop divides a lane-affine index by a uniform one, and every
 * instruction after the division works on its plain quotient).
 *
 * Only speed depends on the result: a class that still tries runs the
 * checks that decide at run time, and WMI_AC_PLAIN is the plain path
 * every instruction takes when they fail.
 */
#include "ptx_areg.h"

#include <stdlib.h>

/* What a slot may hold: a uniform kind, a lane-affine one. */
enum { MAY_U = 1, MAY_A = 2 };

/* The sources of an arithmetic instruction (a missing b reads
   SLOT_ZERO in the helpers that take two), AND-combined: the kinds all
   of them may hold at once. */
static uint8_t all_srcs(const wmi_insn *in, const uint8_t *may)
{
    const uint32_t src[4] = {in->a, in->b, in->c, in->e};
    uint8_t all = MAY_U | MAY_A;
    for (unsigned k = 0; k < 4; k++)
        if (src[k] != WMI_NOREG)
            all &= may[src[k]] | (may[src[k]] & MAY_U ? MAY_A : 0);
    return all;
}

/* The kinds instruction in (of class k) may give its destination. */
static uint8_t defines(const wmi_insn *in, uint8_t k, const uint8_t *may)
{
    switch (k) {
    case WMI_AC_AFF: return all_srcs(in, may);
    case WMI_AC_ALU: return all_srcs(in, may) & MAY_U ? MAY_U : 0;
    case WMI_AC_PARAM: return MAY_U;
    case WMI_AC_LDST: /* a load from one address */
        return in->op == OP_LD && may[in->a] ? MAY_U : 0;
    default: return 0;
    }
}

/* Slots with kinds from the start: constants and CTA-wide special
   registers (uniform), and the kinds %tid and %laneid have in this
   launch's warps (ptx_areg.c's init_kinds gave them). */
static void seed(const wmi_cta *c, uint8_t *may)
{
    for (uint32_t s = 0; s < c->f->nslots; s++)
        may[s] = c->uni[s] ? MAY_U : 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const wmi_warp *w = &c->warps[i];
        for (uint32_t s = SLOT_SREG0; w->ak && s < SLOT_SREG0 + SR_COUNT &&
                                      s < c->f->nslots; s++)
            if (w->ak[s])
                may[s] |= w->av[s].s ? MAY_A : MAY_U;
    }
}

/* One pass over the code: 1 if some slot gained a kind. */
static int pass(const wmi_cta *c, uint8_t *may)
{
    const wmi_func *f = c->f;
    int changed = 0;
    for (uint32_t i = 0; i < f->count; i++) {
        const wmi_insn *in = &c->m->code[f->first + i];
        uint8_t def = defines(in, c->acls[i], may);
        const uint32_t dst[2] = {in->d, in->d2};
        for (unsigned k = 0; def && k < 2; k++) {
            if (dst[k] == WMI_NOREG || (dst[k] & WMI_VEC))
                continue;
            if ((may[dst[k]] | def) != may[dst[k]]) {
                may[dst[k]] |= def;
                changed = 1;
            }
        }
    }
    return changed;
}

wm_status wmi_areg_flow(wmi_cta *c)
{
    const wmi_func *f = c->f;
    uint8_t *may = malloc(f->nslots ? f->nslots : 1);
    if (!may)
        return WM_ERR_NOMEM;
    seed(c, may);
    /* each pass adds a kind to some slot, or ends: at most 2 per slot */
    for (uint32_t n = 0; n <= 2 * f->nslots && pass(c, may); n++)
        ;
    for (uint32_t i = 0; i < f->count; i++) {
        const wmi_insn *in = &c->m->code[f->first + i];
        uint8_t *k = &c->acls[i]; /* AFF and ALU: scalar operands */
        if (*k == WMI_AC_AFF && !all_srcs(in, may))
            *k = WMI_AC_PLAIN;
        else if (*k == WMI_AC_ALU && !(all_srcs(in, may) & MAY_U))
            *k = WMI_AC_PLAIN;
    }
    free(may);
    return WM_OK;
}
