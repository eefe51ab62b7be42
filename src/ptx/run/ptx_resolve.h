/*
 * ptx_resolve.h -- a lane's address to host memory: the address windows
 * (generic -> its space), alignment and the bounds of each space, shared
 * by the per-lane load/store path of ptx_exec_mem.c and wmi_ptx_block of
 * ptx_fault.c.  resolve runs once per lane of every checked memory
 * instruction, so each includer gets its own static copy for the compiler
 * to inline where it pays, as it did when resolve was ptx_exec.c's own:
 * plain static, not inline, which leaves the dispatch loop and the
 * memory helpers the code they had (marked inline, resolve was inlined at
 * every call and the loop grew).  The faults it records are formatted out
 * of line in ptx_fault.c.
 */
#ifndef WM_PTX_RESOLVE_H
#define WM_PTX_RESOLVE_H

#include "ptx_int.h"

/* Record where a memory fault fell (after wmi_ptx_fault filled the rest). */
void wmi_ptx_fault_addr(wmi_cta *c, uint64_t addr, wm_space sp, long buf,
                        uint64_t bound);

/* Fault for a global address outside every argument buffer, named against
   the nearest buffer. */
void wmi_ptx_global_fault(wmi_cta *c, const wmi_warp *w, unsigned l,
                          uint32_t pc, uint64_t addr, unsigned size,
                          const char *what);

static inline const char *space_word(wmi_space s)
{
    switch (s) {
    case SP_GENERIC: return "generic";
    case SP_GLOBAL: return "global";
    case SP_SHARED: return "shared";
    case SP_LOCAL: return "local";
    case SP_PARAM: return "param";
    case SP_CONST: return "const";
    case SP_FRAME: return "param";
    }
    return "?";
}

/*
 * Resolve lane l's address in space sp to host memory, checking bounds and
 * alignment.  *rs receives the resolved space (generic -> its window),
 * *aaddr the address the model sees.  NULL after recording a fault.
 */
static uint8_t *resolve(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                        wmi_space sp, uint64_t addr, unsigned size,
                        const char *what, wmi_space *rs, uint64_t *aaddr)
{
    uint64_t win = addr >> WMI_WIN_SHIFT;
    if (sp == SP_GENERIC) {
        if (win == (WMI_SHARED_WIN >> WMI_WIN_SHIFT)) {
            sp = SP_SHARED;
            addr -= WMI_SHARED_WIN;
        } else if (win == (WMI_LOCAL_WIN >> WMI_WIN_SHIFT)) {
            sp = SP_LOCAL;
            addr -= WMI_LOCAL_WIN;
        } else if (win == (WMI_PARAM_WIN >> WMI_WIN_SHIFT)) {
            sp = SP_PARAM;
            addr -= WMI_PARAM_WIN;
        } else {
            sp = SP_GLOBAL;
        }
    }
    if (sp == SP_CONST)
        sp = SP_GLOBAL; /* module .const data lives in the global window */
    *rs = sp;
    *aaddr = addr;
    if (size > 1 && (addr & (size - 1))) {
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "misaligned %s %s of %u bytes at %s address 0x%llx",
                      space_word(sp), what, size, space_word(sp),
                      (unsigned long long)addr);
        return NULL;
    }
    switch (sp) {
    case SP_GLOBAL: {
        uint64_t i = addr >> WMI_WIN_SHIFT, off = addr & WMI_WIN_MASK;
        const wmi_gbuf *b = NULL;
        if (i >= 1 && i <= c->ngbufs - 1)
            b = &c->gbufs[i - 1];
        else if (i == WMI_MAX_GLOBAL_BUFS)
            b = &c->gbufs[c->ngbufs - 1];
        if (!b || !b->p || (off + size > b->bytes &&
                            i != WMI_MAX_GLOBAL_BUFS)) {
            wmi_ptx_global_fault(c, w, l, pc, addr, size, what);
            return NULL;
        }
        if (off + size > b->bytes) {
            assert(i == WMI_MAX_GLOBAL_BUFS);
            wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                          "out-of-bounds global %s of %u bytes at module "
                          "data offset %llu (%llu bytes)",
                          what, size, (unsigned long long)off,
                          (unsigned long long)b->bytes);
            wmi_ptx_fault_addr(c, addr, WM_SPACE_GLOBAL, -1, b->bytes);
            return NULL;
        }
        return b->p + off;
    }
    case SP_SHARED:
        if (addr + size > c->smem_bytes) {
            if (c->clu && addr >> WMI_DSMEM_SHIFT) /* ptx_fault.c */
                return wmi_ptx_dsmem(c, w, l, pc, addr, size, what);
            wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                          "out-of-bounds shared %s of %u bytes at shared "
                          "offset %llu (the block has %llu bytes)",
                          what, size, (unsigned long long)addr,
                          (unsigned long long)c->smem_bytes);
            wmi_ptx_fault_addr(c, addr, WM_SPACE_SHARED, -1, c->smem_bytes);
            return NULL;
        }
        return c->smem + addr;
    case SP_LOCAL:
        if (addr + size > c->ltop) {
            wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                          "out-of-bounds local %s of %u bytes at local offset "
                          "%llu (the thread has %llu bytes)",
                          what, size, (unsigned long long)addr,
                          (unsigned long long)c->ltop);
            wmi_ptx_fault_addr(c, addr, WM_SPACE_LOCAL, -1, c->ltop);
            return NULL;
        }
        return c->lmem + (uint64_t)(w->index * 32 + l) * c->lstride + addr;
    case SP_PARAM:
        if (addr + size > c->f->param_bytes) {
            wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                          "out-of-bounds param %s of %u bytes at offset %llu",
                          what, size, (unsigned long long)addr);
            return NULL;
        }
        return (uint8_t *)(uintptr_t)(c->params + addr);
    case SP_GENERIC:
    case SP_CONST:
    case SP_FRAME: /* wmi_ptx_frame_ldst; never resolved here */
        break;
    }
    return NULL;
}

#endif
