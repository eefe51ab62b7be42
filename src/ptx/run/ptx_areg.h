/*
 * ptx_areg.h -- registers known uniform or lane-affine.  Most of a
 * kernel's index arithmetic computes one value for the whole warp (a
 * parameter, %ctaid, a loop bound) or one that steps by a constant from
 * lane to lane (%tid.x, an element index, its address).  For such a
 * register the warp keeps two numbers (wmi_areg in ptx_int.h: lane l holds
 * b + l s, or its low 32 bits, or bit l of b for a predicate) and the
 * operations on it cost O(1) instead of 32 lanes (ptx_exec_areg.h); the 32
 * lanes are written only when plain code reads the register.
 *
 * Invariants, per warp with w->ak set (all of them hold between any two
 * instructions):
 *   - a slot whose kind is set holds, lane by lane, the exact 64 bits the
 *     plain interpreter would have written there (every tag comes from an
 *     operation on a full warp whose result is that function of the lane);
 *   - a stale slot (WMI_AR_STALE) has a kind; r[slot] is not up to date
 *     and nothing but ptx_exec_areg.h reads it before wmi_areg_fill;
 *   - plain code never reads a stale slot: a slot that an instruction not
 *     run on kinds may read (wmi_cta.apr, from the code) gets its lanes
 *     written with its kind, and ptx_exec_areg.h fills the few others
 *     (a lane-affine address, an operation it declines) before plain code
 *     takes them; it clears the kind of every slot plain code writes;
 * Off under WMI_RUN_SLOW (the twin tests' reference), --check (which reads
 * stored registers) and in a partial warp; a kernel with calls runs
 * WMI_RUN_SLOW.
 */
#ifndef WM_PTX_AREG_H
#define WM_PTX_AREG_H

#include "ptx_int.h"

/* How an instruction meets the tracked registers (wmi_cta.acls). */
enum {
    WMI_AC_OTHER = 0, /* fill every stale slot, forget its operands */
    WMI_AC_NONE,      /* reads and writes no register but its guard */
    WMI_AC_ALU,       /* lane-local arithmetic on scalar operands */
    WMI_AC_AFF,       /* the same, of a form ar_aop runs on the kinds
                         (wmi_aop: integer, predicate logic, moves) */
    WMI_AC_PLAIN,     /* the same, whose sources never all hold kinds
                         (ptx_areg_flow.c): plain code at once */
    WMI_AC_LDST,      /* ld/st of global or shared memory */
    WMI_AC_PARAM      /* ld.param of a scalar */
};

/* How an operation reads a register (ptx_exec_areg.h's ar_get): its low
   32 bits (any kind), its 64 bits, or its low 32 bits sign- or
   zero-extended. */
enum { RD_LO32, RD_U64, RD_S32, RD_Z32 };

/* The operation of a WMI_AC_AFF instruction on kinds, decoded once
   (ptx_areg_decode.c): what ptx_exec_areg.h's ar_aop computes. */
enum {
    ARO_MOV,       /* d = a (any kind) */
    ARO_ADD,       /* d = a + b, read in mode ma, result kind rk */
    ARO_SUB,       /* d = a - b */
    ARO_MUL,       /* d = a * b (+ c, read in mode mc): one factor uniform */
    ARO_SHL,       /* d = a << b, b uniform; bits: the width */
    ARO_CVT,       /* d = a read in mode ma */
    ARO_CVTA_TO,   /* d = a - base */
    ARO_CVTA_FROM, /* d = a + base */
    ARO_SETP,      /* d = compare cmp of a and b (width bits, sg), d2 = ~d */
    ARO_PAND,      /* predicates as masks */
    ARO_POR,
    ARO_PXOR,
    ARO_PNOT,
    ARO_SELP       /* d = c ? a : b, c uniform */
};

/* What ptx_exec_areg.h's ar_run does with an instruction. */
enum {
    ARA_STOP = 0, /* leaves it to the dispatch loop */
    ARA_OP,       /* ar_aop (WMI_AC_AFF) */
    ARA_PARAM,    /* ld.param: d = base (WMI_AC_PARAM) */
    ARA_LDST,     /* ld/st with a lane-affine address (WMI_AC_LDST) */
    ARA_BRA,      /* a branch the whole warp takes or not */
    ARA_NOP,      /* a fence, a prefetch, bar.warp.sync, an async marker */
    ARA_EXIT,     /* exit, or ret of the kernel: the whole warp ends */
    ARA_F32       /* f32 add, sub, mul, fma/mad on plain lanes (op: ARF_*) */
};

/* The f32 operations ar_run runs on plain lanes, as exec_add, exec_sub,
   exec_mul and exec_fma do (FOP, wmi_fma_f32), so that a run of loads and
   float arithmetic stays in ar_run. */
enum { ARF_ADD, ARF_SUB, ARF_MUL, ARF_FMA };

/* One instruction as ar_run sees it: its action, guard and operands
   (decoded once: ar_run reads no wmi_insn but a memory one's). */
typedef struct wmi_aop {
    uint8_t act, op, ma, mc, rk; /* ARA_*, ARO_*, read modes, result kind */
    uint8_t bits, sg, cmp, gneg; /* width, signed, compare; guard @! */
    uint8_t dpr, d2pr;           /* wmi_cta.apr of d and d2 */
    uint32_t guard, target;      /* guard slot (WMI_NOREG: none); branch */
    uint32_t d, d2, a, b, c;
    uint64_t base; /* cvta's window; ld.param's value */
} wmi_aop;

/* The aop of an instruction whose class is WMI_AC_AFF; 0 when its form
   is none that ar_aop runs (its class becomes WMI_AC_ALU). */
int wmi_areg_decode(const wmi_insn *in, wmi_aop *o);

/* Per worker: the kinds and lists of every full warp, and the class of
   each instruction.  After the warps' registers and special registers
   are set; WM_OK, or WM_ERR_NOMEM (freed by wmi_areg_free either way). */
wm_status wmi_areg_alloc(wmi_cta *c);
void wmi_areg_free(wmi_cta *c);

/* A CTA's start: every kind forgotten but the special registers'. */
void wmi_areg_begin(wmi_cta *c);

/* Instructions of class WMI_AC_AFF or WMI_AC_ALU whose sources can never
   all hold kinds become WMI_AC_PLAIN (ptx_areg_flow.c); WM_OK or
   WM_ERR_NOMEM. */
wm_status wmi_areg_flow(wmi_cta *c);

/* Lane l's 64 bits of a register of kind k and value v. */
static inline uint64_t wmi_areg_lane(uint8_t k, const wmi_areg *v,
                                     unsigned l)
{
    switch (k & WMI_AR_KIND) {
    case WMI_AR_A32: return (uint32_t)(v->b + l * v->s);
    case WMI_AR_PRED: return v->b >> l & 1;
    default: return v->b + l * v->s;
    }
}

/* The 32 lanes of a register of kind k and value v into D: inductions
   and a mask test per lane, so the loops vectorise (SSE has no 64-bit
   multiply and no per-lane shift). */
static inline void wmi_areg_write(uint64_t *restrict D, uint8_t k,
                                  const wmi_areg *v)
{
    static const uint32_t bit[32] = {
#define B4(k) 1u << (k), 1u << ((k) + 1), 1u << ((k) + 2), 1u << ((k) + 3)
        B4(0), B4(4), B4(8), B4(12), B4(16), B4(20), B4(24), B4(28)
#undef B4
    };
    uint64_t e = v->b, s = v->s;
    uint32_t e32 = (uint32_t)v->b, s32 = (uint32_t)v->s, b32 = (uint32_t)v->b;
    switch (k & WMI_AR_KIND) {
    case WMI_AR_A32:
        for (unsigned l = 0; l < 32; l++, e32 += s32)
            D[l] = e32;
        break;
    case WMI_AR_PRED:
        for (unsigned l = 0; l < 32; l++)
            D[l] = (b32 & bit[l]) != 0;
        break;
    default:
        for (unsigned l = 0; l < 32; l++, e += s)
            D[l] = e;
        break;
    }
}

/* Write slot s's lanes if it is stale. */
static inline void wmi_areg_fill(wmi_warp *w, uint32_t s)
{
    uint8_t k = w->ak[s];
    if (k & WMI_AR_STALE) {
        wmi_areg_write(w->r[s], k, &w->av[s]);
        w->ak[s] = (uint8_t)(k & ~WMI_AR_STALE);
    }
}

/* Slot s holds kind k with value (b, s): stale (its lanes not written)
   or not (r[slot] already holds them). */
static inline void wmi_areg_set(wmi_warp *w, uint32_t s, uint8_t k,
                                uint64_t b, uint64_t st, int stale)
{
    w->ak[s] = (uint8_t)(k | (stale ? WMI_AR_STALE : 0));
    w->av[s].b = b;
    w->av[s].s = st;
}

/* Plain code writes slot s next: its lanes filled (the write may leave
   some lanes as they are), its kind forgotten. */
static inline void wmi_areg_drop(wmi_warp *w, uint32_t s)
{
    wmi_areg_fill(w, s);
    w->ak[s] = 0;
}

#endif /* WM_PTX_AREG_H */
