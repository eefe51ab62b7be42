/*
 * ptx_stmatrix.c -- stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16
 * (sm_90): the inverse of ldmatrix.  Register i of every lane holds two
 * b16 elements of 8x8 matrix i, lane l at row l / 4, columns 2 (l % 4)
 * and + 1 (with .trans: that row and column swapped); lanes 8i .. 8i + 7
 * give the shared addresses of matrix i's rows (16 bytes each, 16-byte
 * aligned).  One warp store request of 16 bytes a lane from lanes
 * 0 .. 8n - 1 (ncu counts it under STSM; here it is op st).
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

/* Row r (16 bytes) of the matrix in register `slot`, gathered from
   all 32 lanes. */
static void gather_row(uint64_t (*R)[32], uint32_t slot, unsigned r,
                       int trans, uint16_t out[8])
{
    for (unsigned col = 0; col < 8; col++) {
        /* element (r, col) of the matrix in memory */
        unsigned er = trans ? col : r, ec = trans ? r : col;
        unsigned lane = er * 4 + ec / 2;
        out[col] = (uint16_t)(R[slot][lane] >> (16 * (ec % 2)));
    }
}

wm_status wmi_ptx_stmatrix(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    const char *text = mod->texts + in->text;
    uint64_t (*R)[32] = w->r;
    unsigned n = in->vec; /* .x1 .x2 .x4 */
    if (m != 0xffffffffu)
        return wmi_ptx_fault(c, w, m ? (unsigned)__builtin_ctz(m) : 0, pc,
                             WM_ERR_FAULT,
                             "stmatrix needs all 32 lanes of the warp "
                             "converged (executing lanes 0x%08x)", m);
    if ((n != 1 && n != 2 && n != 4) || wmi_vcount(mod, in->b) != n ||
        in->type != PT_B16)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "unsupported stmatrix form '%s' (m8n8 .b16 "
                             ".x1/.x2/.x4 with as many registers)", text);
    wm_access a;
    memset(&a, 0, sizeof a);
    a.site = pc;
    a.space = WM_SPACE_SHARED;
    a.op = WM_OP_ST;
    a.size = 16;
    a.mask = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
    for (unsigned l = 0; l < 8 * n; l++) {
        uint64_t addr = (uint32_t)(R[in->a][l] + (uint64_t)in->imm);
        if (addr & 15)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "misaligned stmatrix row address: shared "
                                 "offset %llu is not a multiple of 16",
                                 (unsigned long long)addr);
        if (addr + 16 > c->smem_bytes)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "out-of-bounds stmatrix row at shared "
                                 "offset %llu (the block has %llu bytes)",
                                 (unsigned long long)addr,
                                 (unsigned long long)c->smem_bytes);
        a.addr[l] = addr;
    }
    for (unsigned l = 0; l < 8 * n; l++) {
        uint16_t row[8];
        gather_row(R, wmi_vslot(mod, in->b, l / 8), l % 8,
                   (in->flags & F_TRANS) != 0, row);
        memcpy(c->smem + a.addr[l], row, 16);
    }
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_mem(c, w, pc, WMI_ACC_WRITE, 16, a.addr, (uint32_t)a.mask,
                      0);
    if (c->agg)
        return wm_agg_add(c->agg, &a, NULL);
    return WM_OK;
}
