/*
 * ptx_check_prove.c -- when the schedule comparison's second run can be
 * left out (WM_CHECK_PROVE): the tracked run proves that no warp order
 * changes the launch's outputs.
 *
 * Between two barriers the interpreter runs each ready warp until it
 * waits, so a warp's accesses of one round come one after another, and
 * another schedule only permutes the warps of each round (the CTAs keep
 * their order).  Suppose the tracker saw no race: no two warps of a round
 * touched the same bytes with one of them writing.  Take the first read
 * of the other schedule's run that returns another value than in the
 * tracked run.  Every access before it was also in the tracked run, so
 * the write it now sees was there too, in the same round by another warp:
 * a race the tracker would have reported.  So every read returns the same
 * value, every thread takes the same path and makes the same accesses,
 * and every byte ends with the same value (two warps writing it in one
 * round would race as well).  Lanes of a warp run in the same order under
 * every schedule.
 *
 * The argument needs every access that can carry a value between warps
 * to go through the tracker, barriers that order whole CTAs, and nothing
 * that lets warps interleave inside a round or lets the order decide a
 * value.  What breaks that (blocks, below) keeps the second run:
 *   - atomics and reductions whose order can show: exchanges, compares,
 *     inc/dec, floating-point ones (rounding follows the order), and any
 *     whose returned value an instruction reads (a ticket); integer add,
 *     and, or, xor, min and max whose result nothing reads leave a word
 *     that is the same in any order, and a plain access to it in the
 *     same round races with them;
 *   - fences, acquire/release and GPU-scope accesses (flag protocols: a
 *     spinning load yields to the other warps), mbarriers, counted and
 *     arrive-only barriers, cluster barriers and DSMEM;
 *   - copies the tracker does not follow: cp.async, bulk and tensor-map
 *     copies, ldmatrix/stmatrix, wmma and wgmma fragments, textures and
 *     surfaces;
 *   - stores of fewer than 4 bytes to memory warps share: the tracker
 *     keeps one writer per word, so a third thread's read of the first
 *     of two sub-word writers is not seen.
 */
#include "ptx_check_int.h"

/* Total bytes stored by ld/st instruction in (all its vector elements). */
static unsigned store_bytes(const wm_ptx_module *m, const wmi_insn *in)
{
    return wmi_type_bits((wmi_type)in->type) / 8 * wmi_vcount(m, in->b);
}

/* A space that one thread owns (local memory, call frames, parameters). */
static int private_space(unsigned sp)
{
    return sp == SP_LOCAL || sp == SP_FRAME || sp == SP_PARAM;
}

static int ldst_blocks(const wm_ptx_module *m, const wmi_insn *in)
{
    if (in->sync & ~WMI_SYNC_STRONG)
        return 1; /* acquire, release, fence semantics */
    if ((in->sync & WMI_SYNC_STRONG) && in->space != SP_SHARED)
        return 1; /* .volatile/.relaxed global: a flag word */
    if (in->op == OP_LD)
        return in->mod2 == LD_ACQUIRE;
    return !private_space(in->space) && store_bytes(m, in) < 4;
}

/* Does operand word v name slot s (itself, or in its vector)? */
static int names_slot(const wm_ptx_module *m, uint32_t v, uint32_t s)
{
    if (v == WMI_NOREG)
        return 0;
    for (unsigned k = 0; k < wmi_vcount(m, v); k++)
        if (wmi_vslot(m, v, k) == s)
            return 1;
    return 0;
}

/* Does an instruction of the function holding instruction in read slot s
   (a source, an address or a guard)? */
static int slot_read(const wm_ptx_module *m, const wmi_insn *in, uint32_t s)
{
    size_t at = (size_t)(in - m->code);
    for (size_t k = 0; k < m->nfuncs; k++) {
        const wmi_func *g = &m->funcs[k];
        if (at < g->first || at >= (size_t)g->first + g->count)
            continue;
        for (uint32_t i = g->first; i < g->first + g->count; i++) {
            const wmi_insn *r = &m->code[i];
            if (r->guard == s || names_slot(m, r->a, s) ||
                names_slot(m, r->b, s) || names_slot(m, r->c, s) ||
                names_slot(m, r->e, s))
                return 1;
        }
        return 0;
    }
    return 1;
}

/* An atomic whose order cannot show: add, and, or, xor, min or max of
   integers (the word ends with the same value in any order) whose
   returned value nothing reads (red, or an atom's dead destination).  A
   plain access to the word in the same round is a race the tracker
   reports. */
static int order_free_atomic(const wm_ptx_module *m, const wmi_insn *in)
{
    switch (in->type) {
    case PT_B32: case PT_B64: case PT_U32: case PT_U64: case PT_S32:
    case PT_S64:
        break;
    default:
        return 0;
    }
    switch (in->mod) {
    case AOP_ADD: case AOP_AND: case AOP_OR: case AOP_XOR: case AOP_MIN:
    case AOP_MAX:
        break;
    default:
        return 0;
    }
    if (in->op == OP_RED || in->d == SLOT_SINK)
        return 1;
    return !(in->d & WMI_VEC) && !slot_read(m, in, in->d);
}

/* Does instruction in break the proof (the file's header)? */
static int blocks(const wm_ptx_module *m, const wmi_insn *in)
{
    switch (in->op) { /* every other opcode keeps to registers */
    case OP_LD:
    case OP_ST:
        return ldst_blocks(m, in);
    case OP_NOP: /* fence.*, membar.* */
        return (in->sync & WMI_SYNC_FENCE) != 0;
    case OP_BAR: /* the thread count: bar's b, bar.red's b before its c */
        return (in->flags & F_ARRIVE) ||
               (in->mod ? in->c != WMI_NOREG : in->b != WMI_NOREG);
    case OP_ATOM: case OP_RED:
        return (in->sync & ~(WMI_SYNC_STRONG | WMI_SYNC_RMW | WMI_SYNC_GPU |
                             WMI_SYNC_CTA)) ||
               !order_free_atomic(m, in);
    case OP_MBAR: case OP_BARC: case OP_MAPA:
    case OP_CP_ASYNC: case OP_CP_BULK: case OP_TMA: case OP_TENSORMAP:
    case OP_LDMATRIX: case OP_STMATRIX: case OP_WMMA_LOAD:
    case OP_WMMA_STORE: case OP_WGMMA: case OP_TEX: case OP_TLD4:
    case OP_SULD: case OP_SUST:
        return 1;
    default:
        return 0;
    }
}

/* Did the tracker report a race (or drop hazards it could not keep)? */
static int found_race(const wm_ptx_check *chk)
{
    if (chk->dropped)
        return 1;
    for (size_t i = 0; i < chk->nhazards; i++)
        if (chk->hazards[i].kind != WM_HAZ_UNINIT)
            return 1;
    return 0;
}

static int clustered(const wmi_func *f, const wm_ptx_launch *l)
{
    for (int i = 0; i < 3; i++)
        if (l->cluster[i] > 1 || f->reqcluster[i] > 1)
            return 1;
    return f->explicit_cluster;
}

int wmi_check_proves_order(const wm_ptx_module *m, size_t k,
                           const wm_ptx_launch *l)
{
    const wm_ptx_check *chk = l->check;
    const unsigned need = WM_CHECK_RACE | WM_CHECK_SCHEDULES | WM_CHECK_PROVE;
    const wmi_func *f = wmi_ptx_kernel(m, k);
    if (!f || (chk->checks & need) != need || found_race(chk))
        return 0;
    if (l->ntextures || clustered(f, l))
        return 0;
    return wmi_kernel_count(m, f, blocks, 1) == 0;
}
