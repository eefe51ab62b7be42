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

/* Lane l's membermask: register reg, or m where the form has none. */
static inline uint32_t member_mask(uint64_t (*R)[32], uint32_t reg,
                                   uint32_t m, unsigned l)
{
    return reg == WMI_NOREG ? m : (uint32_t)R[reg][l];
}

/*
 * The lanes of `left` (executing lanes m) whose membermask is that of the
 * lowest of them, into *members, checked (check_members).  Converged lanes
 * may name different groups in one instruction -- cooperative groups'
 * tiled_partition<16> gives each half of the warp a mask of its own --
 * and each lane's result is its group's.
 */
static wm_status member_group(wmi_cta *c, wmi_warp *w, uint32_t reg,
                              uint32_t pc, uint32_t m, uint32_t left,
                              const char *op, uint32_t *members,
                              uint32_t *group)
{
    uint64_t (*R)[32] = w->r;
    uint32_t mk = member_mask(R, reg, m, first_lane(left)), g = 0;
    for (uint32_t t = left; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        if (member_mask(R, reg, m, l) == mk)
            g |= 1u << l;
    }
    *members = mk;
    *group = g;
    return check_members(c, w, pc, m, mk, op);
}

static wm_status do_shfl(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                         uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    uint64_t src[32];
    /* (the membermask only names who takes part: each group checked) */
    for (uint32_t left = m, mk, g; left; left &= ~g) {
        wm_status st = member_group(c, w, in->e, pc, m, left, "shfl.sync",
                                    &mk, &g);
        if (st != WM_OK)
            return st;
    }
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

/* vote.sync's result over the lanes dom (its predicate in a). */
static uint64_t vote_of(uint64_t (*R)[32], const wmi_insn *in, uint32_t dom)
{
    uint32_t ballot = 0;
    for (uint32_t t = dom; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        if (R[in->a][l] & 1)
            ballot |= 1u << l;
    }
    switch (in->mod) {
    case VOTE_ALL: return ballot == dom;
    case VOTE_ANY: return ballot != 0;
    case VOTE_UNI: return ballot == 0 || ballot == dom;
    case VOTE_BALLOT: return ballot;
    default: return 0;
    }
}

static wm_status do_vote(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                         uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r, res[32];
    for (uint32_t left = m, mk, g; left; left &= ~g) {
        wm_status st = member_group(c, w, in->b, pc, m, left, "vote.sync",
                                    &mk, &g);
        if (st != WM_OK)
            return st;
        /* (a mask naming no lane that runs it: the group itself) */
        uint64_t r = vote_of(R, in, mk & m ? mk & m : g);
        for (uint32_t t = g; t; t &= t - 1)
            res[__builtin_ctz(t)] = r;
    }
    WMI_LOOP(R[in->d][l] = res[l]);
    return WM_OK;
}

/* match.sync over the lanes dom, into res[] (and all[], .all's flag) for
   the lanes of g. */
static void match_of(uint64_t (*R)[32], const wmi_insn *in, uint32_t dom,
                     uint32_t g, uint64_t *res, uint64_t *all)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    uint64_t v0 = trunc_bits(R[in->a][first_lane(dom)], bits);
    int same = 1;
    for (uint32_t t = dom; t; t &= t - 1)
        same &= trunc_bits(R[in->a][__builtin_ctz(t)], bits) == v0;
    for (uint32_t t = g; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        uint64_t v = trunc_bits(R[in->a][l], bits);
        uint32_t eqm = 0;
        for (uint32_t u = dom; u; u &= u - 1)
            if (trunc_bits(R[in->a][__builtin_ctz(u)], bits) == v)
                eqm |= 1u << __builtin_ctz(u);
        res[l] = (in->flags & F_ALL) ? (same ? dom : 0) : eqm;
        all[l] = (uint64_t)same;
    }
}

/* redux.sync's 32-bit result over the lanes dom. */
static uint64_t redux_of(uint64_t (*R)[32], const wmi_insn *in, uint32_t dom)
{
    int sg = wmi_type_signed((wmi_type)in->type);
    uint64_t acc = (uint32_t)R[in->a][first_lane(dom)];
    for (uint32_t t = dom & (dom - 1); t; t &= t - 1) {
        uint64_t v = (uint32_t)R[in->a][__builtin_ctz(t)];
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
    return acc;
}

static wm_status do_match_redux(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                                uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r, res[32], all[32];
    const char *op = in->op == OP_MATCH ? "match.sync" : "redux.sync";
    for (uint32_t left = m, mk, g; left; left &= ~g) {
        wm_status st = member_group(c, w, in->b, pc, m, left, op, &mk, &g);
        if (st != WM_OK)
            return st;
        uint32_t dom = mk & m ? mk & m : g; /* (as in do_vote) */
        if (in->op == OP_MATCH) {
            match_of(R, in, dom, g, res, all);
        } else {
            uint64_t r = redux_of(R, in, dom);
            for (uint32_t t = g; t; t &= t - 1)
                res[__builtin_ctz(t)] = r;
        }
    }
    WMI_LOOP(R[in->d][l] = res[l]);
    if (in->op == OP_MATCH && in->d2 != WMI_NOREG)
        WMI_LOOP(R[in->d2][l] = all[l]);
    return WM_OK;
}

#endif
