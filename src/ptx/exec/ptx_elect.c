/*
 * ptx_elect.c -- elect.sync d|p, membermask: the leader is the lowest
 * lane of the membermask among the executing lanes (PTX ISA: "elects one
 * predicated active leader thread from among a set of threads specified
 * by membermask"; the lowest is what the hardware picks).  Every lane gets
 * the leader's lane id in d and p = (it is the leader).  As for shfl.sync
 * and vote.sync, the membermask may name only lanes converged here.
 */
#include "ptx_int.h"

wm_status wmi_ptx_elect(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                        uint32_t pc, uint32_t m) {
    uint64_t(*R)[32] = w->r;
    unsigned first = (unsigned)__builtin_ctz(m);
    uint32_t members = (uint32_t)R[in->a][first];
    uint32_t exist = w->nthreads >= 32 ? 0xffffffffu : (1u << w->nthreads) - 1;
    uint32_t missing = members & exist & ~m;
    if (missing)
        return wmi_ptx_fault(c, w, first, pc, WM_ERR_FAULT,
                             "elect.sync: membermask 0x%08x names lanes not "
                             "converged at this instruction (executing lanes "
                             "0x%08x, missing 0x%08x)",
                             members, m, missing);
    uint32_t cand = members & m;
    uint32_t leader = cand ? (uint32_t)__builtin_ctz(cand) : 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        if (in->d != SLOT_ZERO)
            R[in->d][l] = leader;
        if (in->d2 != WMI_NOREG)
            R[in->d2][l] = cand && l == leader;
    }
    return WM_OK;
}
