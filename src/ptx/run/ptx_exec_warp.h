/*
 * ptx_exec_warp.h -- the warp interpreter's warp-wide instructions, whose
 * lanes read each other's registers: shfl.sync (do_shfl), vote.sync
 * (do_vote), match.sync and redux.sync (do_match_redux).  Each first
 * checks its membermask against the lanes converged at the instruction
 * (docs/design/interpreter.md §3).
 *
 * Part of ptx_exec.c's translation unit, as ptx_exec_alu.h is: only
 * ptx_exec.c includes it.  As a file of its own (ptx_exec_warp.c, calls
 * through ptx_exec_int.h) the instruction counts barely moved (reduce
 * +0.3 %), but gcc laid out wmi_ptx_warp_run differently without shfl
 * and vote inlined in it, and the naive 8192^2 transpose of
 * bench_kernels ran 8 % slower; here the loop's code is the one it was.
 */
#ifndef WM_PTX_EXEC_WARP_H
#define WM_PTX_EXEC_WARP_H

#include "ptx_int.h"
#include "ptx_exec_int.h"

/* A membermask must name only lanes converged here (docs/design/interpreter.md §3). */
static wm_status check_members(wmi_cta *c, wmi_warp *w, uint32_t pc,
                               uint32_t act, uint32_t members, const char *op)
{
    uint32_t exist = w->nthreads >= 32 ? WMI_FULL : (1u << w->nthreads) - 1;
    uint32_t missing = members & exist & ~act;
    if (missing)
        return wmi_ptx_fault(
            c, w, first_lane(act), pc, WM_ERR_FAULT,
            "%s: membermask 0x%08x names lanes not converged at this "
            "instruction (executing lanes 0x%08x, missing 0x%08x)",
            op, members, act, missing);
    return WM_OK;
}

static wm_status do_shfl(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                         uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    uint64_t src[32];
    uint32_t members = in->e != WMI_NOREG ? (uint32_t)R[in->e][first_lane(m)]
                                          : m;
    wm_status st = check_members(c, w, pc, m, members, "shfl.sync");
    if (st != WM_OK)
        return st;
    memcpy(src, R[in->a], sizeof src);
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint32_t b = (uint32_t)R[in->b][l] & 31, cc = (uint32_t)R[in->c][l];
        uint32_t cval = cc & 31, seg = (cc >> 8) & 31;
        int32_t maxl = (int32_t)((l & seg) | (cval & ~seg));
        int32_t minl = (int32_t)(l & seg);
        int32_t j = 0;
        int pv = 0;
        switch (in->mod) {
        case SHFL_UP: j = (int32_t)l - (int32_t)b; pv = j >= maxl; break;
        case SHFL_DOWN: j = (int32_t)l + (int32_t)b; pv = j <= maxl; break;
        case SHFL_BFLY: j = (int32_t)(l ^ b); pv = j <= maxl; break;
        case SHFL_IDX:
            j = minl | (int32_t)(b & ~seg);
            pv = j <= maxl;
            break;
        default: break;
        }
        if (!pv)
            j = (int32_t)l;
        R[in->d][l] = (uint32_t)src[j & 31];
        if (in->d2 != WMI_NOREG)
            R[in->d2][l] = (uint64_t)pv;
    }
    return WM_OK;
}

static wm_status do_vote(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                         uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    uint32_t members = in->b != WMI_NOREG ? (uint32_t)R[in->b][first_lane(m)]
                                          : m;
    wm_status st = check_members(c, w, pc, m, members, "vote.sync");
    if (st != WM_OK)
        return st;
    uint32_t ballot = 0;
    for (unsigned l = 0; l < 32; l++)
        if ((m >> l & 1) && (R[in->a][l] & 1))
            ballot |= 1u << l;
    uint64_t r = 0;
    switch (in->mod) {
    case VOTE_ALL: r = ballot == m; break;
    case VOTE_ANY: r = ballot != 0; break;
    case VOTE_UNI: r = ballot == 0 || ballot == m; break;
    case VOTE_BALLOT: r = ballot; break;
    default: break;
    }
    WMI_LOOP(R[in->d][l] = r);
    return WM_OK;
}

static wm_status do_match_redux(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                                uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    uint32_t members = (uint32_t)R[in->b][first_lane(m)];
    wm_status st = check_members(c, w, pc, m,
                                 members, in->op == OP_MATCH ? "match.sync"
                                                             : "redux.sync");
    if (st != WM_OK)
        return st;
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    if (in->op == OP_MATCH) {
        int all = 1;
        uint64_t v0 = trunc_bits(R[in->a][first_lane(m)], bits);
        for (unsigned l = 0; l < 32; l++)
            if ((m >> l & 1) && trunc_bits(R[in->a][l], bits) != v0)
                all = 0;
        uint64_t res[32];
        for (unsigned l = 0; l < 32; l++) {
            uint32_t eqm = 0;
            if (!(m >> l & 1))
                continue;
            for (unsigned k = 0; k < 32; k++)
                if ((m >> k & 1) &&
                    trunc_bits(R[in->a][k], bits) == trunc_bits(R[in->a][l], bits))
                    eqm |= 1u << k;
            res[l] = (in->flags & F_ALL) ? (all ? m : 0) : eqm;
        }
        WMI_LOOP(R[in->d][l] = res[l]);
        if (in->d2 != WMI_NOREG)
            WMI_LOOP(R[in->d2][l] = (uint64_t)all);
        return WM_OK;
    }
    int sg = wmi_type_signed((wmi_type)in->type);
    uint64_t acc = 0;
    int first = 1;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t v = (uint32_t)R[in->a][l];
        if (first) {
            acc = v;
            first = 0;
            continue;
        }
        switch (in->mod) {
        case AOP_ADD: acc = (uint32_t)(acc + v); break;
        case AOP_MIN:
            acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
            break;
        case AOP_MAX:
            acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
            break;
        case AOP_AND: acc &= v; break;
        case AOP_OR: acc |= v; break;
        case AOP_XOR: acc ^= v; break;
        default: break;
        }
    }
    WMI_LOOP(R[in->d][l] = acc);
    return WM_OK;
}

#endif
