/*
 * ptx_call.c -- calls to .func functions: call frames, parameter and
 * return-value passing, and the frame-local parameter space.
 *
 * Invariants (docs/design/ptx-calls.md):
 *   - Each lane has a call depth (w->depth); a group of lanes executing
 *     together shares its pc and its depth, so one frame's register file
 *     (w->r) serves the whole group.  reselect runs the deepest lanes
 *     first, so a call completes for its lanes before the caller goes on.
 *   - A frame's registers are written lane by lane on entry (constants,
 *     special registers, zero), so lanes of one depth may sit in
 *     different functions without disturbing each other.
 *   - Frame bytes (SP_FRAME): a .func's parameters at their offsets, its
 *     return values from ret_base, then the call-sequence .param
 *     variables; 32 lanes x m->max_frame bytes per frame.
 *   - Local memory is one per-thread stack: the kernel's bytes, then one
 *     slot of m->max_local bytes per depth; constants holding local
 *     addresses (__local_depot) are rebased to their frame's slot.
 */
#include "ptx_int.h"

#include <assert.h>
#include <string.h>

static uint64_t up16(uint64_t x)
{
    return (x + 15) / 16 * 16;
}

uint64_t wmi_ptx_local_base(const wmi_cta *c, uint32_t d)
{
    if (d == 0)
        return 0;
    return up16(c->f->local_bytes) + (uint64_t)(d - 1) * up16(c->m->max_local);
}

const wmi_func *wmi_ptx_func_at(const wm_ptx_module *m, uint32_t pc)
{
    for (size_t i = 0; i < m->nfuncs; i++) {
        const wmi_func *f = &m->funcs[i];
        if (pc >= f->first && pc < f->first + f->count)
            return f;
    }
    return NULL;
}

void wmi_ptx_group(wmi_cta *c, wmi_warp *w)
{
    uint32_t d = w->gdepth;
    if (d == 0) {
        w->r = w->r0;
        w->gend = c->f->first + c->f->count;
        c->ltop = c->f->local_bytes;
        return;
    }
    const wmi_func *g = wmi_ptx_func_at(c->m, w->cur);
    assert(w->fr[d] && g);
    w->r = w->fr[d]->r;
    w->gend = g ? g->first + g->count : w->cur;
    c->ltop = wmi_ptx_local_base(c, d) + (g ? g->local_bytes : 0);
}

/* Frame d of w, allocated on first use (NULL: out of memory). */
static wmi_frame *frame(wmi_cta *c, wmi_warp *w, uint32_t d)
{
    if (w->fr[d])
        return w->fr[d];
    wmi_frame *F = calloc(1, sizeof *F);
    if (!F)
        return NULL;
    F->par = calloc(32, (size_t)c->m->max_frame + 16);
    F->r = d ? calloc(c->m->max_slots, sizeof *F->r) : w->r0;
    if (!F->par || !F->r) {
        free(F->par);
        if (d)
            free(F->r);
        free(F);
        return NULL;
    }
    w->fr[d] = F;
    return F;
}

void wmi_ptx_frames_free(wmi_warp *w)
{
    for (unsigned d = 0; d <= WMI_MAX_CALL_DEPTH; d++) {
        if (!w->fr[d])
            continue;
        free(w->fr[d]->par);
        if (d)
            free(w->fr[d]->r);
        free(w->fr[d]);
        w->fr[d] = NULL;
    }
}

static unsigned lane0(uint32_t m)
{
    return (unsigned)__builtin_ctz(m);
}

static uint32_t min32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* assert() failed: __assertfail(message, file, line, function, size)
   gets pointers to the module's $str constants; report them. */
static void assert_failed(wmi_cta *c, wmi_warp *w, const wmi_call *cl,
                          uint32_t pc, uint32_t m)
{
    unsigned l = lane0(m);
    size_t mf = (size_t)c->m->max_frame + 16;
    const char *txt[2] = {"?", "?"};
    uint32_t line = 0;
    wmi_frame *P = w->fr[w->gdepth];
    for (unsigned k = 0; P && k < 3 && k < cl->narg; k++) {
        uint64_t v = 0;
        memcpy(&v, P->par + l * mf + cl->arg_off[k], cl->arg_size[k] < 8
                                                         ? cl->arg_size[k]
                                                         : 8);
        if (k == 2) {
            line = (uint32_t)v;
            break;
        }
        /* a generic pointer into the module's data: a NUL-terminated
           string (gdata has a NUL past its end) */
        uint64_t off = v & WMI_WIN_MASK;
        const wmi_gbuf *g = &c->gbufs[c->ngbufs - 1];
        if (v >> WMI_WIN_SHIFT == WMI_MAX_GLOBAL_BUFS && off < g->bytes &&
            memchr(g->p + off, 0, g->bytes - off))
            txt[k] = (const char *)g->p + off;
    }
    wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                  "device assert failed: %.80s (%.80s:%u)", txt[0], txt[1],
                  line);
}

/* The callee of call instruction `in` for the lanes in m (indirect calls:
   the same function address in every lane), or WMI_NOREG after a fault. */
static uint32_t callee_of(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                          const wmi_call *cl, uint32_t pc, uint32_t m)
{
    if (in->a == WMI_NOREG) {
        if (cl->callee == WMI_NOREG && strcmp(cl->name, "__assertfail") == 0)
            assert_failed(c, w, cl, pc, m);
        else if (cl->callee == WMI_NOREG)
            wmi_ptx_fault(c, w, lane0(m), pc, WM_ERR_UNSUPPORTED,
                          "call to %s, which has no body in this module",
                          cl->name);
        return cl->callee;
    }
    uint64_t v = w->r[in->a][lane0(m)];
    for (unsigned l = 0; l < 32; l++)
        if ((m >> l & 1) && w->r[in->a][l] != v) {
            wmi_ptx_fault(c, w, l, pc, WM_ERR_UNSUPPORTED,
                          "indirect call with different targets in one warp "
                          "(0x%llx and 0x%llx)",
                          (unsigned long long)v,
                          (unsigned long long)w->r[in->a][l]);
            return WMI_NOREG;
        }
    uint32_t k = (uint32_t)v;
    if ((v & ~(uint64_t)0xffffffffu) != WMI_FUNC_TAG || k >= c->m->nfuncs ||
        c->m->funcs[k].is_entry) {
        wmi_ptx_fault(c, w, lane0(m), pc, WM_ERR_FAULT,
                      "indirect call through 0x%llx: not the address of a "
                      ".func of this module",
                      (unsigned long long)v);
        return WMI_NOREG;
    }
    return k;
}

wm_status wmi_ptx_call(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m, uint32_t act)
{
    const wm_ptx_module *mod = c->m;
    assert(in->op == OP_CALL && (uint64_t)in->imm < mod->ncalls);
    const wmi_call *cl = &mod->calls[in->imm];
    uint32_t d = w->gdepth;
    uint32_t k = callee_of(c, w, in, cl, pc, m);
    if (k == WMI_NOREG)
        return c->status;
    const wmi_func *g = &mod->funcs[k];
    if (g->err)
        return wmi_ptx_fault(c, w, lane0(m), pc, WM_ERR_PARSE,
                             "call to %s, whose body did not parse: %d:%d: "
                             "%.150s",
                             g->pretty, g->err->line, g->err->col,
                             g->err->msg);
    if (d + 1 > WMI_MAX_CALL_DEPTH)
        return wmi_ptx_fault(c, w, lane0(m), pc, WM_ERR_FAULT,
                             "call depth limit of %u exceeded calling %s "
                             "(unbounded recursion?)",
                             WMI_MAX_CALL_DEPTH, g->pretty);
    if (cl->narg != g->nparams || cl->nret > g->nrets)
        return wmi_ptx_fault(c, w, lane0(m), pc, WM_ERR_FAULT,
                             "call passes %u arguments and takes %u return "
                             "values; %s has %u parameters and %u return "
                             "values",
                             cl->narg, cl->nret, g->pretty, g->nparams,
                             g->nrets);
    wmi_frame *P = frame(c, w, d), *F = frame(c, w, d + 1);
    if (!P || !F)
        return c->status = WM_ERR_NOMEM;
    size_t mf = (size_t)mod->max_frame + 16;
    uint64_t lbase = wmi_ptx_local_base(c, d + 1);
    uint64_t dal = c->f->dyn_align ? c->f->dyn_align : 1; /* ptx_smem.c */
    uint64_t dbase = (c->f->smem_static + dal - 1) / dal * dal;
    for (unsigned l = 0; l < 32; l++) {
        if (!(act >> l & 1))
            continue;
        if (!(m >> l & 1)) {
            w->pc[l] = pc + 1;
            continue;
        }
        for (uint32_t s = 0; s < SLOT_SREG0 + SR_COUNT; s++)
            F->r[s][l] = w->r0[s][l];
        for (uint32_t q = 0; q < g->nconsts; q++)
            F->r[g->cslots[q]][l] = g->cvals[q];
        for (uint32_t q = 0; q < g->nlconst; q++)
            F->r[g->cslots[g->lconst[q]]][l] = g->cvals[g->lconst[q]] + lbase;
        for (uint32_t q = 0; q < g->ndconst; q++)
            F->r[g->cslots[g->dconst[q]]][l] = g->cvals[g->dconst[q]] + dbase;
        for (uint32_t a = 0; a < cl->narg; a++)
            memcpy(F->par + l * mf + g->params[a].offset,
                   P->par + l * mf + cl->arg_off[a],
                   min32(cl->arg_size[a], g->params[a].size));
        F->ret_pc[l] = pc + 1;
        F->call[l] = (uint32_t)in->imm;
        w->depth[l] = (uint8_t)(d + 1);
        w->pc[l] = g->first;
    }
    return WM_OK;
}

wm_status wmi_ptx_return(wmi_cta *c, wmi_warp *w, uint32_t pc, uint32_t m,
                         uint32_t act)
{
    const wm_ptx_module *mod = c->m;
    uint32_t d = w->gdepth;
    assert(d >= 1 && w->fr[d] && w->fr[d - 1]);
    const wmi_func *g = wmi_ptx_func_at(mod, pc);
    wmi_frame *F = w->fr[d], *P = w->fr[d - 1];
    size_t mf = (size_t)mod->max_frame + 16;
    for (unsigned l = 0; l < 32; l++) {
        if (!(act >> l & 1))
            continue;
        if (!(m >> l & 1)) {
            w->pc[l] = pc + 1;
            continue;
        }
        const wmi_call *cl = &mod->calls[F->call[l]];
        for (uint32_t k = 0; g && k < cl->nret; k++)
            memcpy(P->par + l * mf + cl->ret_off[k],
                   F->par + l * mf + g->ret_base + g->rets[k].offset,
                   min32(cl->ret_size[k], g->rets[k].size));
        w->depth[l] = (uint8_t)(d - 1);
        w->pc[l] = F->ret_pc[l];
    }
    return WM_OK;
}

static uint64_t sext_bits(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return v;
    uint64_t sb = (uint64_t)1 << (bits - 1);
    v &= (sb << 1) - 1;
    return (v ^ sb) - sb;
}

wm_status wmi_ptx_frame_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, uint32_t m, int store)
{
    const wm_ptx_module *mod = c->m;
    wmi_frame *F = frame(c, w, w->gdepth);
    if (!F)
        return c->status = WM_ERR_NOMEM;
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    unsigned esz = bits < 8 ? 1 : bits / 8;
    uint32_t vals = store ? in->b : in->d;
    unsigned n = (vals & WMI_VEC) ? mod->pool[vals & ~WMI_VEC] : 1;
    size_t mf = (size_t)mod->max_frame + 16;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t addr = w->r[in->a][l] + (uint64_t)in->imm;
        if (addr > mod->max_frame || addr + (uint64_t)esz * n > mod->max_frame)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "out-of-bounds param %s of %u bytes at "
                                 "frame offset %llu (the frame has %u)",
                                 store ? "store" : "load", esz * n,
                                 (unsigned long long)addr, mod->max_frame);
        uint8_t *p = F->par + l * mf + addr;
        for (unsigned k = 0; k < n; k++) {
            uint32_t s = (vals & WMI_VEC) ? mod->pool[(vals & ~WMI_VEC) + 1 + k]
                                          : vals;
            if (store) {
                uint64_t v = w->r[s][l];
                memcpy(p + k * esz, &v, esz);
            } else {
                uint64_t v = 0;
                memcpy(&v, p + k * esz, esz);
                if (wmi_type_signed((wmi_type)in->type))
                    v = sext_bits(v, bits); /* as ld does */
                if (s != SLOT_SINK)
                    w->r[s][l] = v;
            }
        }
    }
    return WM_OK;
}
