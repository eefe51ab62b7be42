/*
 * ptx_fault.c -- the bottom of the interpreter: a fault's record (the
 * thread, the instruction, its source line and call site, and for memory
 * faults the address and the buffer it missed) and the address
 * resolution every memory instruction shares: wmi_ptx_block for
 * whole-block copies (TMA, wmma, tensormap, bulk copies) and
 * wmi_ptx_dsmem for another CTA's shared memory in a cluster.  The
 * per-lane resolve itself is static in ptx_resolve.h.
 *
 * Every opcode family (ptx_async.c, ptx_mma.c, ...) and the executor and
 * scheduler above them report their faults here; this file calls nothing
 * of theirs.
 */
#include "ptx_resolve.h"

#include <stdarg.h>
#include <stdio.h>

wm_status wmi_ptx_fault(wmi_cta *c, const wmi_warp *w, unsigned lane,
                        uint32_t pc, wm_status st, const char *fmt, ...)
{
    wm_ptx_fault *f = c->fault;
    c->status = st;
    if (!f)
        return st;
    memset(f, 0, sizeof *f);
    f->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    memcpy(f->cta, c->ctaid, sizeof f->cta);
    unsigned t = w ? w->index * 32 + lane : 0;
    f->thread[0] = t % c->block[0];
    f->thread[1] = t / c->block[0] % c->block[1];
    f->thread[2] = t / (c->block[0] * c->block[1]);
    f->warp = w ? w->index : 0;
    f->lane = lane;
    f->insn = pc;
    f->file = "";
    if (pc < c->m->ncode) {
        const char *inl;
        uint32_t il;
        f->ptx_line = c->m->code[pc].line;
        wmi_ptx_attr(c->m, pc, &f->file, &f->line, &inl, &il);
    }
    f->call_file = "";
    if (w && lane < 32 && w->depth[lane] > 0 && w->fr[1]) {
        /* inside a call: the kernel's call site (frame 1's return) */
        uint32_t cpc = w->fr[1]->ret_pc[lane] - 1;
        if (cpc < c->m->ncode) {
            const char *inl;
            uint32_t il;
            f->call_ptx_line = c->m->code[cpc].line;
            wmi_ptx_attr(c->m, cpc, &f->call_file, &f->call_line, &inl, &il);
        }
    }
    return st;
}

/* Record where a memory fault fell (after wmi_ptx_fault filled the rest). */
void wmi_ptx_fault_addr(wmi_cta *c, uint64_t addr, wm_space sp, long buf,
                        uint64_t bound)
{
    if (!c->fault)
        return;
    c->fault->has_addr = 1;
    c->fault->addr = addr;
    c->fault->space = (int)sp;
    c->fault->buf = buf;
    c->fault->bound = bound;
}

/*
 * Fault for a global address outside every argument buffer, named against
 * the nearest buffer: "offset N in the buffer of argument k" just past its
 * end, "N bytes before the buffer of argument k" just below its start
 * (buffer k lives at (k + 1) << 40, so an address a little below it falls
 * in the window of the buffer under it, far past that one's end).
 */
void wmi_ptx_global_fault(wmi_cta *c, const wmi_warp *w, unsigned l,
                          uint32_t pc, uint64_t addr, unsigned size,
                          const char *what)
{
    uint64_t best = UINT64_MAX, k = 0;
    int before = 0;
    for (uint32_t j = 0; j + 1 < c->ngbufs; j++) {
        const wmi_gbuf *b = &c->gbufs[j];
        uint64_t base = (uint64_t)(j + 1) << WMI_WIN_SHIFT;
        if (!b->p)
            continue;
        uint64_t d = addr < base ? base - addr : addr - (base + b->bytes);
        if (addr >= base && addr < base + b->bytes)
            d = 0; /* starts inside, ends past the end */
        if (d < best) {
            best = d;
            k = j;
            before = addr < base;
        }
    }
    if (best == UINT64_MAX)
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "invalid global %s of %u bytes at 0x%llx: not in any "
                      "buffer",
                      what, size, (unsigned long long)addr);
    else if (before)
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "out-of-bounds global %s of %u bytes at 0x%llx: %llu "
                      "bytes before the buffer of %s %llu (%llu bytes)",
                      what, size, (unsigned long long)addr,
                      (unsigned long long)best,
                      k < c->f->nparams ? "argument" : "extra",
                      (unsigned long long)(k < c->f->nparams
                                               ? k : k - c->f->nparams),
                      (unsigned long long)c->gbufs[k].bytes);
    else
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "out-of-bounds global %s of %u bytes at 0x%llx: offset "
                      "%llu in the buffer of %s %llu (%llu bytes)",
                      what, size, (unsigned long long)addr,
                      (unsigned long long)(addr -
                                           ((uint64_t)(k + 1) << WMI_WIN_SHIFT)),
                      k < c->f->nparams ? "argument" : "extra",
                      (unsigned long long)(k < c->f->nparams
                                               ? k : k - c->f->nparams),
                      (unsigned long long)c->gbufs[k].bytes);
    if (best == UINT64_MAX)
        wmi_ptx_fault_addr(c, addr, WM_SPACE_GLOBAL, -1, 0);
    else
        wmi_ptx_fault_addr(c, addr, WM_SPACE_GLOBAL, (long)k,
                           c->gbufs[k].bytes);
}

/* Are shared addresses a0 and a1 in one CTA's shared memory?  Those below
   the block's size are its own, the others name a CTA of its cluster by
   their bits from WMI_DSMEM_SHIFT up (wmi_ptx_dsmem): a block that runs
   from the one into the other is contiguous in the model's addresses but
   not in memory. */
static int shared_one_cta(const wmi_cta *c, uint64_t a0, uint64_t a1)
{
    if (a0 < c->smem_bytes)
        return a1 < c->smem_bytes;
    return a0 >> WMI_DSMEM_SHIFT == a1 >> WMI_DSMEM_SHIFT;
}

uint8_t *wmi_ptx_block(wmi_cta *c, const wmi_warp *w, unsigned l,
                       uint32_t pc, wmi_space sp, uint64_t addr,
                       uint64_t size, const char *what, wmi_space *rs)
{
    uint64_t a0, a1;
    wmi_space r1;
    if (size == 0 || size > WMI_WIN_MASK)
        return resolve(c, (wmi_warp *)(uintptr_t)w, l, pc, sp, addr, 1, what,
                       rs, &a0);
    /* both ends in bounds, in one buffer (windows are 2^40 apart) */
    uint8_t *p = resolve(c, (wmi_warp *)(uintptr_t)w, l, pc, sp, addr, 1,
                         what, rs, &a0);
    if (!p || !resolve(c, (wmi_warp *)(uintptr_t)w, l, pc, sp,
                       addr + size - 1, 1, what, &r1, &a1))
        return NULL;
    if (r1 != *rs || a1 - a0 != size - 1 ||
        (r1 == SP_SHARED && !shared_one_cta(c, a0, a1))) {
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "%s of %llu bytes at 0x%llx crosses a buffer", what,
                      (unsigned long long)size, (unsigned long long)addr);
        return NULL;
    }
    return p;
}

uint8_t *wmi_ptx_dsmem(wmi_cta *c, const wmi_warp *w, unsigned l,
                       uint32_t pc, uint64_t addr, unsigned size,
                       const char *what)
{
    uint64_t rank = (addr >> WMI_DSMEM_SHIFT) - 1, off = addr & WMI_DSMEM_OFF;
    const wmi_cluster *cl = wmi_cta_cluster(c);
    if (!cl || rank >= cl->n || (addr >> 32)) {
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "out-of-bounds shared %s of %u bytes at shared "
                      "address 0x%llx (not in the block's %llu bytes nor "
                      "in another CTA of its cluster)",
                      what, size, (unsigned long long)addr,
                      (unsigned long long)c->smem_bytes);
        return NULL;
    }
    wmi_cta *t = cl->cta[rank];
    if (t->exited >= t->nthreads) {
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "distributed shared %s of %u bytes at offset %llu of "
                      "cluster CTA rank %llu, which has exited (its shared "
                      "memory is gone: a cluster barrier before exit keeps "
                      "it)",
                      what, size, (unsigned long long)off,
                      (unsigned long long)rank);
        return NULL;
    }
    if (off + size > t->smem_bytes) {
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "out-of-bounds distributed shared %s of %u bytes at "
                      "offset %llu of cluster CTA rank %llu (%llu bytes)",
                      what, size, (unsigned long long)off,
                      (unsigned long long)rank,
                      (unsigned long long)t->smem_bytes);
        return NULL;
    }
    return t->smem + off;
}
