/*
 * ptx_exec_int.h -- what the warp interpreter's files share, private to
 * them: ptx_exec.c (scheduling, control flow, the loop), ptx_exec_mem.c
 * (ld/st/atom/cp.async and the accesses they emit), and the two headers
 * compiled into ptx_exec.c's loop: ptx_exec_warp.h (shfl, vote, match,
 * redux) and ptx_exec_alu.h (arithmetic and the per-opcode helpers).  The
 * register-bit casts and the bit helpers are static inline, a copy in
 * each file; the entry points the loop calls in ptx_exec_mem.c are
 * declared below.
 * Nothing outside src/ptx/run/ptx_exec* includes this file.
 */
#ifndef WM_PTX_EXEC_INT_H
#define WM_PTX_EXEC_INT_H

#include "ptx_int.h"

#include <string.h>

/* Forced inline (sext, trunc_bits): the loop is expanded twice
   (ptx_exec.c's warp_loop), past the size at which gcc stops inlining
   helpers it is not told to, and these run per lane. */
#if defined(__GNUC__)
#define WMI_LANE_INLINE static inline __attribute__((always_inline))
#else
#define WMI_LANE_INLINE static inline
#endif

/* Register bits as the ALU cases read them: F/UF f32 (wmi_f32), DD/UD
   f64, H/UH f16, BF/UBF bf16. */
static inline float F(uint64_t x)
{
    return wmi_f32(x);
}

static inline uint64_t UF(float f)
{
    return wmi_f32_bits(f);
}

static inline double DD(uint64_t x)
{
    double f;
    memcpy(&f, &x, 8);
    return f;
}

static inline uint64_t UD(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

static inline float H(uint64_t x)
{
    return wmi_half_to_float((uint16_t)x);
}

static inline uint64_t UH(float f)
{
    return wmi_float_to_half(f, RND_RN);
}

static inline float BF(uint64_t x)
{
    return wmi_bf16_to_float((uint16_t)x);
}

static inline uint64_t UBF(float f)
{
    return wmi_float_to_bf16(f, RND_RN);
}

WMI_LANE_INLINE uint64_t sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return v;
    uint64_t s = (uint64_t)1 << (bits - 1);
    v &= (s << 1) - 1;
    return (v ^ s) - s;
}

WMI_LANE_INLINE uint64_t trunc_bits(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

static inline unsigned first_lane(uint32_t m)
{
    return m ? (unsigned)__builtin_ctz(m) : 0;
}

/* ---- ptx_exec_mem.c: the memory instructions ------------------------------ */

/* ld/st (not .frame, ptx_call.c's) for the lanes of m: values moved, the
   accesses emitted; a lane out of bounds faults. */
wm_status wmi_ptx_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m, int store);

/* atom (has_dest) and red: lanes apply in lane order. */
wm_status wmi_ptx_atom(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m, int has_dest);

/* cp.async: global to shared at issue (zero-filled past src-size). */
wm_status wmi_ptx_cp_async(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m);

#endif
