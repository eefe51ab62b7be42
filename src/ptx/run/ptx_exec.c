/*
 * ptx_exec.c -- the warp interpreter: runs one warp's lanes in lockstep
 * until they exit or wait at a barrier, and turns every memory instruction
 * into a wm_access for the aggregator.
 *
 * Divergence (docs/design/interpreter.md §3): every lane has its own pc and
 * each step executes the instruction at the lowest pc of the ready lanes,
 * for exactly the lanes sitting there (w->act at w->cur).  nvcc and LLVM
 * place join blocks after both arms and loop exits after loops, so the
 * lowest-pc rule reconverges where an immediate-post-dominator stack would.
 * The common case -- all ready lanes at one pc -- costs nothing extra:
 * `omin` caches the lowest pc of the other ready lanes and only a step that
 * reaches it (or a branch) rescans the lanes.
 *
 * Registers: R[slot][lane], 64 raw bits each (see ptx_int.h).  Integer
 * arithmetic runs on unsigned types and wraps as PTX does; 32-lane loops
 * over a full mask are plain loops the compiler vectorises.
 *
 * Layout: this file holds the scheduling (the lowest-pc pick), the loop's
 * prologue and epilogue, control flow and the loop, wmi_ptx_warp_run at
 * the end: one switch whose cases each call one helper, plus the steps
 * that move the pc (branches, calls, barriers).  The helpers sit beside
 * it: the arithmetic and per-opcode ones (exec_*) in ptx_exec_alu.h and
 * the warp-wide ones (do_shfl, do_vote, do_match_redux) in
 * ptx_exec_warp.h, both part of this translation unit so that the loop's
 * code stays what it was; the memory instructions in ptx_exec_mem.c,
 * called through ptx_exec_int.h, which also holds the register-bit casts
 * they all share.  Faults and address resolution sit
 * beneath these files and the opcode families the loop dispatches to:
 * ptx_fault.c, with resolve (per lane) from ptx_resolve.h.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "ptx_exec_int.h"
#include "ptx_exec_warp.h"
#include "ptx_exec_alu.h"
#include "ptx_exec_areg.h"

#include <math.h>
#include <stdio.h>

/* ---- scheduling --------------------------------------------------------- */

/*
 * The lowest pc among lanes: w->cur and w->act (the lanes there), and in
 * *omin the next lowest pc (UINT32_MAX if none).
 */
static inline void lowest_pc(wmi_warp *w, uint32_t lanes, uint32_t *omin)
{
    if (lanes == WMI_FULL) { /* a converged warp (its start): one pass */
        uint32_t diff = 0;
        for (unsigned l = 1; l < 32; l++)
            diff |= w->pc[l] ^ w->pc[0];
        if (!diff) {
            w->cur = w->pc[0];
            w->act = lanes;
            *omin = UINT32_MAX;
            return;
        }
    }
    uint32_t best = UINT32_MAX, second = UINT32_MAX, act = 0;
    for (uint32_t t = lanes; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        uint32_t p = w->pc[l];
        if (p < best) {
            second = best;
            best = p;
            act = 1u << l;
        } else if (p == best) {
            act |= 1u << l;
        } else if (p < second) {
            second = p;
        }
    }
    w->cur = best;
    w->act = act;
    *omin = second;
}

/* reselect with calls: the deepest lanes first (a call completes for its
   lanes before their caller goes on), then the lowest pc among them;
   *omin only counts lanes of that depth, the only ones that can merge. */
static int reselect_depth(wmi_cta *c, wmi_warp *w, uint32_t ready,
                          uint32_t *omin)
{
    uint32_t d = 0, deepest = 0;
    for (uint32_t t = ready; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        if (w->depth[l] > d) {
            d = w->depth[l];
            deepest = 0;
        }
        if (w->depth[l] == d)
            deepest |= 1u << l;
    }
    lowest_pc(w, deepest, omin);
    w->gdepth = d;
    wmi_ptx_group(c, w);
    return 1;
}

/*
 * Pick the next group: the lowest pc over ready lanes.  Lanes in w->act
 * must already have their pc stored.  Returns 0 when no lane is ready.
 */
static int reselect(wmi_cta *c, wmi_warp *w, uint32_t *omin)
{
    uint32_t ready = w->live & ~w->wait;
    if (!ready) {
        w->act = 0;
        return 0;
    }
    if (c->has_calls)
        return reselect_depth(c, w, ready, omin);
    lowest_pc(w, ready, omin);
    return 1;
}

/* Lane l's bit, for the per-lane stores below: a blend per lane with its
   bit from this table is a vector loop, where a test and a store per lane
   (shifting by l) is not (it made a divergent stencil spend a tenth of
   its time in store_pcs). */
static const uint32_t lane_bit[32] = {
#define B4(k) 1u << (k), 1u << ((k) + 1), 1u << ((k) + 2), 1u << ((k) + 3)
    B4(0), B4(4), B4(8), B4(12), B4(16), B4(20), B4(24), B4(28)
#undef B4
};

/* w->pc[l] = pc for the lanes l of lanes. */
static void store_pcs(wmi_warp *w, uint32_t lanes, uint32_t pc)
{
    for (unsigned l = 0; l < 32; l++)
        w->pc[l] = (lanes & lane_bit[l]) ? pc : w->pc[l];
}

/* ---- the loop's prologue and epilogue ---------------------------------- */

/* The lanes of act that run the instruction: all of them, or those whose
   guard predicate (@p, @!p) holds. */
static inline uint32_t guard_lanes(uint64_t (*R)[32], const wmi_insn *in,
                                   uint32_t act)
{
    if (in->guard == WMI_NOREG)
        return act;
    return act & (in->guard_neg ? ~pred_mask(R[in->guard])
                                : pred_mask(R[in->guard]));
}

/* Memory instructions run even with no lane active: a fully predicated-off
   one is still an executed instruction the model counts.  Every other
   instruction is skipped then. */
static inline int runs_without_lanes(wmi_op op)
{
    return op == OP_LD || op == OP_ST || op == OP_ATOM || op == OP_RED;
}

static wm_status fault_past_end(wmi_cta *c, const wmi_warp *w, uint32_t act,
                                uint32_t pc)
{
    return wmi_ptx_fault(c, w, first_lane(act), pc ? pc - 1 : 0, WM_ERR_FAULT,
                         "execution ran past the end of the kernel");
}

static wm_status fault_steps(wmi_cta *c, const wmi_warp *w, uint32_t act,
                             uint32_t pc)
{
    return wmi_ptx_fault(c, w, first_lane(act), pc, WM_ERR_LIMIT,
                         "step budget of %llu warp instructions "
                         "exhausted (an endless loop? raise "
                         "--max-steps)",
                         (unsigned long long)c->max_steps);
}

/* An instruction the model does not run, named by its text and, when the
   PTX carries line info, the source line it came from. */
static wm_status fault_unsupported(wmi_cta *c, const wmi_warp *w,
                                   const wmi_insn *in, uint32_t pc,
                                   uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    const char *txt = mod->texts + in->text, *file, *inl;
    uint32_t line, il;
    wmi_ptx_attr(mod, pc, &file, &line, &inl, &il);
    if (line) /* "... at kernel.cu:42": the source line nvcc means */
        return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_UNSUPPORTED,
                             "unsupported instruction '%.120s' at %s:%u",
                             txt, file, line);
    return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_UNSUPPORTED,
                         "unsupported instruction '%s'", txt);
}

/* What a trap's message adds: why, where a launch that is not
   cooperative runs a module that reads the grid workspace of a
   cooperative launch (a null pointer then, which grid.sync() traps on). */
static const char *trap_why(const wmi_cta *c)
{
    const uint64_t ws = (uint64_t)1 << SR_ENVREG1 | (uint64_t)1 << SR_ENVREG2;
    if (c->workspace)
        return "";
    for (size_t i = 0; i < c->m->nfuncs; i++)
        if (c->m->funcs[i].sregs_used & ws)
            return " (the module reads %envreg1/%envreg2, the grid "
                   "workspace that only a cooperative launch sets, as "
                   "cooperative groups' grid.sync() does: launch it as a "
                   "cooperative one, --cooperative)";
    return "";
}

/* A warp that waits on another (a spin-wait's poll, an mbarrier wait):
   its lanes resume after this instruction once the other warps ran. */
static void yield_warp(wmi_cta *c, wmi_warp *w, uint32_t act, uint32_t pc)
{
    store_pcs(w, act, pc + 1);
    c->yielded = 1;
}

/* A poll (a .volatile or .relaxed load, an atomic) by the lanes m of
   warp w: 1 when
   the warp's last poll at the same instruction was on the same lanes and
   saw the same addresses and values (a hash of them): a spin-wait that
   made no progress, where only another warp can change what it reads.
   The last polls of up to WMI_SPIN_POLLS instructions are kept, so a loop
   that polls several flags in turn is seen too. */
static int spin_poll(const wm_ptx_module *mod, wmi_warp *w,
                     uint64_t (*R)[32], const wmi_insn *in, uint32_t pc,
                     uint32_t m)
{
    const uint64_t *v = R[wmi_vslot(mod, in->d, 0)];
    const uint64_t *a =
        in->a != WMI_NOREG && !(in->a & WMI_VEC) ? R[in->a] : NULL;
    uint64_t key = 0xcbf29ce484222325ull; /* (FNV-1a's offset and prime) */
    for (uint32_t left = m; left; left &= left - 1) {
        unsigned l = (unsigned)__builtin_ctz(left);
        key = (key ^ v[l]) * 0x100000001b3ull;
        if (a)
            key = (key ^ a[l]) * 0x100000001b3ull;
    }
    wmi_poll *p = NULL;
    for (unsigned i = 0; i < WMI_SPIN_POLLS && !p; i++)
        if (w->spin[i].lanes && w->spin[i].pc == pc)
            p = &w->spin[i];
    if (!p)
        p = &w->spin[w->spin_next++ % WMI_SPIN_POLLS];
    else if (p->lanes == m && p->key == key)
        return 1;
    p->pc = pc;
    p->lanes = m;
    p->key = key;
    return 0;
}

/* Does the access in by lanes m of warp w end the warp's turn?  A
   spin-wait's poll does (every acquire load, and a volatile or relaxed
   load or an atomic that read what it read before: LD_POLL), so that the
   warp it waits for runs, in another CTA of a cluster or cooperative
   grid too. */
static int poll_yields(const wmi_cta *c, wmi_warp *w, uint64_t (*R)[32],
                       const wmi_insn *in, uint32_t pc, uint32_t m)
{
    if (c->nwarps < 2 && !c->clu)
        return 0;
    return (in->op == OP_LD && in->mod2 == LD_ACQUIRE) ||
           (in->mod2 == LD_POLL && spin_poll(c->m, w, R, in, pc, m));
}

/* ---- control flow -------------------------------------------------------- */

/* A kernel's exit (or ret) for the lanes of m: returns the lanes left. */
static uint32_t exit_lanes(wmi_cta *c, wmi_warp *w, uint32_t m, uint32_t act)
{
    w->live &= ~m;
    c->exited += wmi_popcount64(m);
    return act & ~m;
}

/* bar.red: the predicate (its last source) of the lanes of m into barrier
   b's reduction; the lanes' destination gets the result on release. */
static void bar_reduce(wmi_warp *w, uint64_t (*R)[32], const wmi_insn *in,
                       uint32_t m, wmi_barrier *b, uint32_t id)
{
    const uint64_t *P = R[in->c != WMI_NOREG ? in->c : in->b];
    uint32_t t = 0;
    for (unsigned l = 0; l < 32; l++)
        t |= (m >> l & 1) && (P[l] & 1) ? lane_bit[l] : 0;
    b->red = in->mod;
    b->red_popc += (uint32_t)wmi_popcount64(t);
    b->red_and &= t == m;
    b->red_or |= t != 0;
    w->red_dst[id] = in->d;
}

/*
 * bar.sync / bar.arrive / bar.red for the lanes of m.  A lane that waits
 * (not .arrive) is marked waiting at barrier id and all of act resume
 * after the instruction; *wait says whether the lanes of m wait.
 */
static wm_status exec_bar(wmi_cta *c, wmi_warp *w, uint64_t (*R)[32],
                          const wmi_insn *in, uint32_t pc, uint32_t m,
                          uint32_t act, int *wait)
{
    unsigned l0 = first_lane(m);
    uint32_t id = (uint32_t)R[in->a][l0];
    /* the count: bar's second source, bar.red's second of three */
    uint32_t cs = in->mod ? (in->c != WMI_NOREG ? in->b : WMI_NOREG) : in->b;
    uint32_t cnt = cs != WMI_NOREG ? (uint32_t)R[cs][l0] : 0;
    *wait = 0;
    if (id >= 16)
        return wmi_ptx_fault(c, w, l0, pc, WM_ERR_FAULT,
                             "barrier id %u out of range 0..15", id);
    wmi_barrier *b = &c->bars[id];
    if (b->arrived == 0) {
        b->pc = pc;
        b->pc2 = WMI_NOREG;
        b->expected = cnt;
        b->red = 0;
        b->red_popc = 0;
        b->red_and = 1;
        b->red_or = 0;
    } else if (b->pc != pc) {
        b->pc2 = pc;
    }
    if (cnt && cnt % 32)
        return wmi_ptx_fault(c, w, l0, pc, WM_ERR_FAULT,
                             "barrier thread count %u is not a "
                             "multiple of the warp size", cnt);
    /* arrivals count whole warps for counted barriers (PTX ISA
       bar: "in units of warps") and threads otherwise */
    b->arrived += cnt ? 32 : wmi_popcount64(m);
    if (in->mod)
        bar_reduce(w, R, in, m, b, id);
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_arrive(c, w, id);
    if (in->flags & F_ARRIVE)
        return WM_OK;
    w->wait |= m;
    w->wait_at[id] |= m;
    for (unsigned l = 0; l < 32; l++)
        w->bar_of[l] = (m & lane_bit[l]) ? (uint8_t)id : w->bar_of[l];
    store_pcs(w, act, pc + 1);
    *wait = 1;
    return WM_OK;
}

/* ---- the interpreter loop --------------------------------------------------- */

/* A helper that returns 0 met a form the model does not run. */
#define SUPPORTED(call)                                                      \
    do {                                                                      \
        if (!(call))                                                          \
            goto unsupported;                                                 \
    } while (0)

/* A helper's failure ends the run with its status. */
#define TRY(call)                                                            \
    do {                                                                      \
        st = (call);                                                          \
        if (st != WM_OK)                                                      \
            return st;                                                        \
    } while (0)

/* Pick the lanes to run next (reselect) and load their pc, mask, registers
   and code end (END: a call or return moves it); none ready ends the run. */
#define RESCHEDULE(END)                                                      \
    do {                                                                      \
        if (!reselect(c, w, &omin))                                           \
            return WM_OK;                                                     \
        pc = w->cur;                                                          \
        act = w->act;                                                         \
        R = w->r;                                                             \
        end = (END);                                                          \
    } while (0)


/* The dispatch switch: one case per opcode, each a few lines calling its
   helper.  It stays one function, long as it is: pc, act, R and the code
   end live in registers across every case and the loop's jump, which a
   split into per-group functions would pass through memory on each
   instruction (the interpreter's hottest loop).  areg: the warp tracks
   uniform and lane-affine registers (ptx_exec_areg.h); a constant where
   wmi_ptx_warp_run expands the loop, once with the tracking and once
   without, so that a run without it runs the loop it ran before. */
static inline __attribute__((always_inline)) wm_status
warp_loop(wmi_cta *c, wmi_warp *w, const int areg)
{
    const wm_ptx_module *mod = c->m;
    const wmi_insn *code = mod->code;
    uint64_t (*R)[32] = w->r;
    uint32_t omin = UINT32_MAX;
    wm_status st = WM_OK;
    if (!reselect(c, w, &omin))
        return WM_OK;
    uint32_t pc = w->cur, act = w->act;
    uint32_t end = c->has_calls ? w->gend : c->f->first + c->f->count;
    R = w->r;
    /* fast: specialised loops allowed; uni: slots uniform across lanes
       (all 0 under WMI_RUN_SLOW, which turns the uniform paths off) */
    const int fast = !(c->flags & WMI_RUN_SLOW);
    const uint8_t *uni = c->uni;
    /* ustep: a step ar_step ran on lane 0 alone (AR_UNI) makes its
       destinations uniform after the switch */
    int wait, yield, ustep;
    /* the step at which ar_run last stopped (its instruction is the
       loop's: ar_aop declined it) */
    uint64_t ar_stop = UINT64_MAX;

    for (;;) {
        if (areg && act == WMI_FULL && c->steps != ar_stop && pc < end &&
            ar_runs(c, w, pc)) {
            /* a converged warp: ar_run takes what it can */
            uint32_t pc0 = pc;
            st = ar_run(c, w, R, &pc, end);
            if (st != WM_OK || !w->live)
                return st; /* a fault, or the warp exited */
            ar_stop = c->steps;
            if (pc != pc0)
                continue;
        }
        if (pc >= end)
            return fault_past_end(c, w, act, pc);
        const wmi_insn *in = &code[pc];
        assert(wmi_ptx_shape_ok(in));
        uint32_t m = areg ? ar_guard(w, R, in, act) : guard_lanes(R, in, act);
        if (++c->steps > c->step_limit)
            return fault_steps(c, w, act, pc);
        /* warp_insts: run_cta adds the CTA's steps */
        c->thread_insts += wmi_popcount64(act);
        wmi_type t = (wmi_type)in->type;
        unsigned bits = wmi_type_bits(t);
        ustep = 0;
        if (!m && !runs_without_lanes((wmi_op)in->op))
            goto next;
        if (areg) {
            switch (ar_step(c, w, R, in, pc, m, c->steps == ar_stop + 1,
                            &st)) {
            case AR_DONE:
                c->ar_taken++;
                if (st != WM_OK)
                    return st;
                goto next;
            case AR_UNI:
                c->ar_taken++;
                m = 1; /* lane 0 stands for the warp */
                ustep = 1;
                break;
            default: break;
            }
        }
        switch ((wmi_op)in->op) {
        case OP_NOP:
            if (in->mod2 == WMI_NOP_WARPSYNC && (c->flags & WMI_RUN_CHECK))
                wmi_check_syncwarp(c, w);
            if ((in->sync & WMI_SYNC_FENCE) && (c->flags & WMI_RUN_CHECK))
                wmi_check_fence(c, w, in->sync);
            break;
        case OP_CP_COMMIT:
        case OP_CP_WAIT:
            break;
        case OP_MOV: exec_mov(mod, R, in, m); break;
        case OP_ADD: SUPPORTED(exec_add(R, in, m)); break;
        case OP_SUB: SUPPORTED(exec_sub(R, in, m)); break;
        case OP_MUL:
        case OP_MAD: SUPPORTED(exec_mul(R, in, m, fast)); break;
        case OP_FMA: SUPPORTED(exec_fma(R, in, m)); break;
        case OP_MUL24:
        case OP_MAD24: exec_mul24(R, in, m); break;
        case OP_DIV: SUPPORTED(exec_div(R, in, m)); break;
        case OP_REM: exec_rem(R, in, m); break;
        case OP_ABS: SUPPORTED(exec_abs(R, in, m)); break;
        case OP_NEG: SUPPORTED(exec_neg(R, in, m)); break;
        case OP_MIN:
        case OP_MAX: SUPPORTED(exec_minmax(R, in, m)); break;
        case OP_AND: IBIN(a & b); break;
        case OP_OR: IBIN(a | b); break;
        case OP_XOR: IBIN(a ^ b); break;
        case OP_NOT:
            if (t == PT_PRED)
                IBIN(a ^ 1);
            else
                IBIN(~a);
            break;
        case OP_CNOT: IBIN(a == 0); break;
        case OP_SHL: exec_shl(R, in, m, uni); break;
        case OP_SHR: exec_shr(R, in, m, uni); break;
        case OP_SHF: exec_shf(R, in, m); break;
        case OP_POPC: IBIN((uint64_t)__builtin_popcountll(a)); break;
        case OP_CLZ:
            IBIN(a == 0 ? bits
                        : (uint64_t)(__builtin_clzll(a) - (int)(64 - bits)));
            break;
        case OP_BFIND: exec_bfind(R, in, m); break;
        case OP_BREV: exec_brev(R, in, m); break;
        case OP_BFE: exec_bfe(R, in, m); break;
        case OP_BFI: exec_bfi(R, in, m); break;
        case OP_PRMT: exec_prmt(R, in, m); break;
        case OP_LOP3: exec_lop3(R, in, m); break;
        case OP_DP4A: exec_dp4a(R, in, m); break;
        case OP_DP2A: exec_dp2a(R, in, m); break;
        case OP_SAD: exec_sad(R, in, m); break;
        case OP_BMSK: exec_bmsk(R, in, m); break;
        case OP_FNS: exec_fns(R, in, m); break;
        case OP_CARRY: exec_carry(w, R, in, m); break;
        case OP_VABSDIFF: exec_vabsdiff(R, in, m); break;
        case OP_SZEXT: exec_szext(R, in, m); break;
        case OP_ISSPACEP: exec_isspacep(c->m, R, in, m); break;
        case OP_SETP:
        case OP_SET: SUPPORTED(exec_setp(R, in, m, fast)); break;
        case OP_SELP: exec_selp(R, in, m); break;
        case OP_SLCT: exec_slct(R, in, m); break;
        case OP_CVT: SUPPORTED(exec_cvt(R, in, m)); break;
        case OP_CVTA: exec_cvta(R, in, m, fast); break;
        case OP_RCP: FOP(1.0 / (double)a); break;
        case OP_SQRT: FOP(sqrt((double)a)); break;
        case OP_RSQRT: FOP(1.0 / sqrt((double)a)); break;
        case OP_SIN: FOP(sin((double)a)); break;
        case OP_COS: FOP(cos((double)a)); break;
        case OP_LG2: FOP(log2((double)a)); break;
        case OP_EX2: FOP(exp2((double)a)); break;
        case OP_TANH: FOP(tanh((double)a)); break;
        case OP_COPYSIGN: FOP(copysign((double)b, (double)a)); break;
        case OP_TESTP: goto unsupported;
        case OP_LD:
        case OP_ST:
            if (in->space == SP_FRAME) {
                st = wmi_ptx_frame_ldst(c, w, in, pc, m, in->op == OP_ST);
                if (st != WM_OK)
                    return st;
                break;
            }
            if (in->space == SP_PARAM || in->space == SP_CONST) {
                /* parameter and constant reads: not memory traffic the
                   model counts; no access emitted */
                if (in->op == OP_ST)
                    goto unsupported;
            }
            st = wmi_ptx_ldst(c, w, in, pc, m, in->op == OP_ST);
            if (st != WM_OK)
                return st;
            if (in->op == OP_LD && poll_yields(c, w, R, in, pc, m)) {
                yield_warp(c, w, act, pc);
                return WM_OK;
            }
            break;
        case OP_ATOM:
        case OP_RED:
            TRY(wmi_ptx_atom(c, w, in, pc, m, in->op == OP_ATOM));
            if (poll_yields(c, w, R, in, pc, m)) {
                yield_warp(c, w, act, pc);
                return WM_OK;
            }
            break;
        case OP_CP_ASYNC: TRY(wmi_ptx_cp_async(c, w, in, pc, m)); break;
        case OP_LDMATRIX: TRY(wmi_ptx_ldmatrix(c, w, in, pc, m)); break;
        case OP_MMA: TRY(wmi_ptx_mma(c, w, in, pc, m)); break;
        case OP_STMATRIX: TRY(wmi_ptx_stmatrix(c, w, in, pc, m)); break;
        case OP_WMMA_LOAD:
        case OP_WMMA_STORE: TRY(wmi_ptx_wmma_ldst(c, w, in, pc, m)); break;
        case OP_WMMA_MMA: TRY(wmi_ptx_wmma_mma(c, w, in, pc, m)); break;
        case OP_WGMMA: TRY(wmi_ptx_wgmma(c, w, in, pc, m)); break;
        case OP_WGMMA_SYNC: break; /* wgmma completes at issue */
        case OP_SETMAXNREG: TRY(wmi_ptx_setmaxnreg(c, w, in, pc, m)); break;
        case OP_SHFL: TRY(do_shfl(c, w, in, pc, m)); break;
        case OP_VOTE: TRY(do_vote(c, w, in, pc, m)); break;
        case OP_MATCH:
        case OP_REDUX: TRY(do_match_redux(c, w, in, pc, m)); break;
        case OP_ELECT:
            TRY(wmi_ptx_elect(c, w, in, pc, m)); /* ptx_elect.c */
            break;
        case OP_ACTIVEMASK:
            WMI_LOOP(R[in->d][l] = act);
            break;
        case OP_CREATEPOLICY: /* opaque: no access uses its bits */
            WMI_LOOP(R[in->d][l] = (uint64_t)0x5043 << 48 | in->mod);
            break;
        case OP_BRA:
            if (m == act) { /* uniform */
                pc = in->target;
                if (pc < omin)
                    continue;
                store_pcs(w, act, pc);
            } else { /* divergent: taken lanes go to target, the rest on */
                store_pcs(w, m, in->target);
                store_pcs(w, act & ~m, pc + 1);
            }
            RESCHEDULE(c->has_calls ? w->gend : end);
            continue;
        case OP_CALL:
            TRY(wmi_ptx_call(c, w, in, pc, m, act));
            RESCHEDULE(w->gend);
            continue;
        case OP_RET:
            if (w->gdepth > 0) { /* back to the callers */
                wmi_ptx_return(c, w, pc, m, act);
                RESCHEDULE(w->gend);
                continue;
            }
            goto exit_lanes; /* a kernel's ret ends its threads */
        case OP_EXIT:
        exit_lanes:
            act = exit_lanes(c, w, m, act);
            if (act)
                break;
            store_pcs(w, act, pc + 1);
            RESCHEDULE(c->has_calls ? w->gend : end);
            continue;
        case OP_BAR:
            TRY(exec_bar(c, w, R, in, pc, m, act, &wait));
            if (!wait)
                break;
            act &= ~m;
            if (act) {
                pc++;
                continue;
            }
            w->cur = pc + 1; /* where a blocked warp resumes */
            RESCHEDULE(c->has_calls ? w->gend : end);
            continue;
        case OP_MBAR:
            yield = 0;
            TRY(wmi_ptx_mbarrier(c, w, in, pc, m, &yield));
            if (yield) { /* a wait not complete: the producer may be */
                yield_warp(c, w, act, pc); /* another warp; let it run */
                return WM_OK;
            }
            break;
        case OP_CP_BULK: TRY(wmi_ptx_cp_bulk(c, w, in, pc, m)); break;
        case OP_BARC: /* ptx_cluster.c */
            TRY(wmi_ptx_barrier_cluster(c, w, in, pc, m, &yield));
            if (yield) { /* its lanes wait at pc, the others go on */
                store_pcs(w, act & ~m, pc + 1);
                c->yielded = 1;
                return WM_OK;
            }
            break;
        case OP_MAPA: TRY(wmi_ptx_mapa(c, w, in, pc, m)); break;
        case OP_TMA: TRY(wmi_ptx_tma(c, w, in, pc, m)); break; /* ptx_tma.c */
        case OP_TENSORMAP: /* ptx_tensormap.c */
            TRY(wmi_ptx_tensormap(c, w, in, pc, m));
            break;
        case OP_TEX: case OP_TLD4: case OP_SULD: case OP_SUST: case OP_TXQ:
            TRY(wmi_ptx_tex(c, w, in, pc, m)); /* ptx_tex.c */
            break;
        case OP_TRAP:
            return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_FAULT,
                                 "trap instruction executed%s",
                                 trap_why(c));
        case OP_UNKNOWN:
        case OP_COUNT:
            goto unsupported;
        }
    next:
        if (ustep)
            ar_uni_done(w, R, in);
        pc++;
        if (pc >= omin) {
            /* reached lanes waiting further on: merge or pick anew */
            store_pcs(w, act, pc);
            RESCHEDULE(c->has_calls ? w->gend : end);
        }
        continue;
    unsupported:
        return fault_unsupported(c, w, in, pc, m);
    }
}

wm_status wmi_ptx_warp_run(wmi_cta *c, wmi_warp *w)
{
    if (w->ak && c->acls)
        return warp_loop(c, w, 1);
    return warp_loop(c, w, 0);
}
