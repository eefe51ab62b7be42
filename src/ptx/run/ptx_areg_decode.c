/*
 * ptx_areg_decode.c -- the operations ptx_exec_areg.h runs on the kinds
 * of uniform and lane-affine registers, decoded once per instruction
 * (wmi_aop in ptx_areg.h): the forms whose result keeps a kind, with the
 * width at which each operand is read and the kind of the result, taken
 * from the instruction's type and modifiers as the plain helpers of
 * ptx_exec_alu.h take them.
 *
 *   mov                    every type: the register's 64 bits move
 *   add, sub               32- and 64-bit integers without .sat (IBIN:
 *                          the low bits of the sum, a missing b reads 0)
 *   mul, mad  .lo          32- and 64-bit integers (mul_int)
 *             .wide        32 x 32 -> 64, operands extended by the sign
 *   shl                    32 and 64 bits (exec_shl)
 *   cvt                    integer to integer of 32 and 64 bits, no .sat
 *                          (exec_cvt's integer case)
 *   cvta                   to a window and back (exec_cvta)
 *   setp                   32- and 64-bit integers, no bool operation
 *   and, or, xor, not      predicates
 *   selp                   every type
 * Everything else (floats, .hi, .sat, 8- and 16-bit forms, setp's bool
 * operations) is not decoded, and plain code (or a run on lane 0, for
 * uniform sources) computes it.
 */
#include "ptx_areg.h"

#include <string.h>

static int is_flt(wmi_type t)
{
    return wmi_type_float(t) || t == PT_F16X2 || t == PT_BF16X2;
}

static int w3264(unsigned bits)
{
    return bits == 32 || bits == 64;
}

/* Integer arithmetic: add, sub, mul, mad, shl. */
static int decode_int(const wmi_insn *in, wmi_aop *o, wmi_type t,
                      unsigned bits)
{
    int wide = (in->flags & F_WIDE) != 0, sg = wmi_type_signed(t);
    o->ma = bits == 32 ? RD_LO32 : RD_U64;
    o->rk = bits == 32 ? WMI_AR_A32 : WMI_AR_A64;
    switch (in->op) {
    case OP_ADD:
    case OP_SUB:
        if (!w3264(bits) || (in->flags & F_SAT))
            return 0;
        o->op = in->op == OP_ADD ? ARO_ADD : ARO_SUB;
        o->b = in->b == WMI_NOREG ? SLOT_ZERO : in->b;
        return 1;
    case OP_MUL:
    case OP_MAD:
        if ((in->flags & F_HI) || (wide ? bits != 32 : !w3264(bits)))
            return 0;
        o->op = ARO_MUL;
        o->ma = wide ? (sg ? RD_S32 : RD_Z32) : o->ma;
        o->mc = wide || bits == 64 ? RD_U64 : RD_LO32;
        o->rk = wide || bits == 64 ? WMI_AR_A64 : WMI_AR_A32;
        o->c = in->op == OP_MAD ? in->c : WMI_NOREG;
        return 1;
    default: /* OP_SHL */
        o->op = ARO_SHL;
        return w3264(bits);
    }
}

static int decode_cvt(const wmi_insn *in, wmi_aop *o)
{
    wmi_type t = (wmi_type)in->type, st = (wmi_type)in->type2;
    unsigned db = wmi_type_bits(t), sb = wmi_type_bits(st);
    if (t == PT_PRED || st == PT_PRED || is_flt(t) || is_flt(st) ||
        t >= PT_E4M3X2 || st >= PT_E4M3X2 || (in->flags & F_SAT) ||
        !w3264(db) || !w3264(sb))
        return 0;
    o->op = ARO_CVT;
    o->ma = db == 32   ? RD_LO32
            : sb == 64 ? RD_U64
            : wmi_type_signed(st) ? RD_S32 : RD_Z32;
    o->rk = db == 32 ? WMI_AR_A32 : WMI_AR_A64;
    return 1;
}

static int decode_cvta(const wmi_insn *in, wmi_aop *o, unsigned bits)
{
    o->base = in->space == SP_SHARED  ? WMI_SHARED_WIN
              : in->space == SP_LOCAL ? WMI_LOCAL_WIN
              : in->space == SP_PARAM ? WMI_PARAM_WIN : 0;
    if (in->flags & F_TO) {
        o->op = ARO_CVTA_TO;
        o->ma = bits == 32 ? RD_LO32 : RD_U64;
        o->rk = bits == 32 ? WMI_AR_A32 : WMI_AR_A64;
        return bits == 32 || bits == 64 || bits == 0;
    }
    /* .const lives in the global window, 64-bit like .global */
    o->op = ARO_CVTA_FROM;
    o->ma = in->space == SP_GLOBAL || in->space == SP_CONST ? RD_U64
                                                            : RD_Z32;
    o->rk = WMI_AR_A64;
    return 1;
}

int wmi_areg_decode(const wmi_insn *in, wmi_aop *o)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    memset(o, 0, sizeof *o);
    o->d = in->d;
    o->d2 = in->d2;
    o->a = in->a;
    o->b = in->b;
    o->c = in->c;
    o->bits = (uint8_t)bits;
    o->sg = (uint8_t)wmi_type_signed(t);
    o->cmp = in->mod;
    switch (in->op) {
    case OP_MOV: o->op = ARO_MOV; return 1;
    case OP_SELP: o->op = ARO_SELP; return 1;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_SHL:
        return !is_flt(t) && decode_int(in, o, t, bits);
    case OP_CVT: return decode_cvt(in, o);
    case OP_CVTA: return decode_cvta(in, o, bits);
    case OP_SETP:
        o->op = ARO_SETP;
        o->ma = bits == 32 ? RD_LO32 : RD_U64;
        return !is_flt(t) && w3264(bits) && in->mod2 == BOOL_NONE;
    case OP_AND: o->op = ARO_PAND; return t == PT_PRED;
    case OP_OR: o->op = ARO_POR; return t == PT_PRED;
    case OP_XOR: o->op = ARO_PXOR; return t == PT_PRED;
    case OP_NOT: o->op = ARO_PNOT; return t == PT_PRED;
    default: return 0;
    }
}
