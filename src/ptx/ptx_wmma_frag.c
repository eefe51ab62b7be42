/*
 * ptx_wmma_frag.c -- what a decoded wmma load or store moves, as a pure
 * function of the instruction: the bytes a lane accesses in one request,
 * the warp requests and each lane's offset in them (ptx_int.h,
 * wmi_ptx_wmma_piece and the two below it).  Beneath the wmma
 * instructions' users that do not run them (the SASS map, sass_map.c;
 * lint, ptx_lint*.c), so these reach no opcode family; the layout is
 * ptx_wmma_frag.h's, the one the instructions (ptx_wmma.c) run by.
 */
#include "ptx_wmma_frag.h"

/* The fragment a wmma.load or wmma.store moves; 0 if in is not one. */
static int frag_of_insn(const wmi_insn *in, frag *f)
{
    unsigned sh = in->mod & WM_SHAPE, mat = (in->mod >> WM_MAT_SHIFT) & 3;
    return (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) &&
           frag_of(sh, mat, (wmi_type)in->type, (in->mod & WM_COL) != 0, f);
}

unsigned wmi_ptx_wmma_piece(const wmi_insn *in)
{
    frag f;
    return frag_of_insn(in, &f) ? piece_of(&f) : 0;
}

unsigned wmi_ptx_wmma_requests(const wmi_insn *in, uint64_t *ld)
{
    frag f;
    if (!frag_of_insn(in, &f))
        return 0;
    *ld = f.colmem ? f.rows : f.cols;
    return f.units * (f.w / piece_of(&f));
}

uint64_t wmi_ptx_wmma_offset(const wmi_insn *in, unsigned q, unsigned l,
                             uint64_t ld)
{
    frag f;
    if (!frag_of_insn(in, &f))
        return 0;
    unsigned psz = piece_of(&f), np = f.w / psz;
    return lane_offset(&f, q / np, q % np, psz, l, ld);
}
