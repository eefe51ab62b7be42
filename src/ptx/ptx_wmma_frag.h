/*
 * ptx_wmma_frag.h -- the fragment layout of the wmma instructions
 * (docs/design/wmma.md; ptx_wmma.c's header comment describes it): the
 * fields of a decoded wmma instruction, its shapes, and what a fragment
 * is in registers and in memory.  Pure functions of the decoded fields,
 * shared by the instructions (ptx_wmma.c) and by what others ask of a
 * decoded wmma load or store (ptx_wmma_frag.c: the SASS map, lint); inline,
 * as the instructions compute a lane's offset for every lane.
 */
#ifndef WM_PTX_WMMA_FRAG_H
#define WM_PTX_WMMA_FRAG_H

#include "ptx_int.h"

enum {
    SH_16_16_16, SH_32_8_16, SH_8_32_16, SH_16_16_8, SH_8_8_4, SH_8_8_32,
    SH_8_8_128
};
enum { MAT_A, MAT_B, MAT_C, MAT_D };
enum {
    WM_SHAPE = 7, WM_MAT_SHIFT = 3, WM_AND = 1 << 3, WM_POPC = 1 << 4,
    WM_COL = 1 << 5, WM_BCOL = 1 << 6, WM_CF16 = 1 << 7
};
#define PT_B1 PT_PRED /* a b1 element */

static const struct { const char *name; unsigned m, n, k; } shapes[] = {
    {"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16},
    {"m8n32k16", 8, 32, 16},   {"m16n16k8", 16, 16, 8},
    {"m8n8k4", 8, 8, 4},       {"m8n8k32", 8, 8, 32},
    {"m8n8k128", 8, 8, 128},
};

/* ---- fragment layouts ---------------------------------------------------- */

typedef struct frag {
    unsigned rows, cols; /* the matrix */
    unsigned ebits;      /* element bits: 1, 4, 8, 16, 32 or 64 */
    unsigned rw;         /* register bytes: 4, or 8 for f64 */
    int memo;            /* registers hold the matrix's columns (A, B
                            col-major; f64 B always) */
    int colmem;          /* column-major in memory */
    unsigned w;          /* bytes a lane holds of one block: 4, 8 or 16 */
    unsigned bw, lpr;    /* block row bytes; lanes per block row */
    unsigned nbr, units; /* blocks down the rows; blocks */
    unsigned nregs;      /* registers of the fragment (f16 A/B: 8) */
} frag;

static inline unsigned ebits_of(wmi_type t)
{
    return t == PT_B1 ? 1
           : t == PT_S4 || t == PT_U4 ? 4
           : t == PT_S8 || t == PT_U8 ? 8
           : t == PT_F16 || t == PT_BF16 ? 16 : t == PT_F64 ? 64 : 32;
}

/* Is element type t allowed for matrix mat of shape sh?  */
static inline int type_ok(unsigned sh, unsigned mat, wmi_type t)
{
    if (sh == SH_8_8_4)
        return t == PT_F64;
    if (mat >= MAT_C)
        return sh == SH_16_16_8 ? t == PT_F32
               : sh >= SH_8_8_32 ? t == PT_S32
                                  : t == PT_F16 || t == PT_F32 || t == PT_S32;
    if (sh == SH_16_16_8)
        return t == PT_TF32;
    if (sh == SH_8_8_32)
        return t == PT_S4 || t == PT_U4;
    if (sh == SH_8_8_128)
        return t == PT_B1;
    return t == PT_F16 || t == PT_BF16 || t == PT_S8 || t == PT_U8;
}

/* The ISA's sub-byte and single-bit forms take A row-major and B
   column-major only. */
static inline int layout_ok(unsigned sh, unsigned mat, int col)
{
    return sh < SH_8_8_32 || mat >= MAT_C || col == (mat == MAT_B);
}

/* The fragment of matrix mat (shape sh, element type t, col-major in
   memory if col); 0 if the combination is not a wmma form. */
static inline int frag_of(unsigned sh, unsigned mat, wmi_type t, int col,
                          frag *f)
{
    if (sh >= WM_ARRAY_LEN(shapes) || !type_ok(sh, mat, t) ||
        !layout_ok(sh, mat, col))
        return 0;
    unsigned M = shapes[sh].m, N = shapes[sh].n, K = shapes[sh].k;
    f->rows = mat == MAT_A ? M : mat == MAT_B ? K : M;
    f->cols = mat == MAT_A ? K : N;
    f->ebits = ebits_of(t);
    f->rw = t == PT_F64 ? 8 : 4;
    f->colmem = col;
    /* f64: mma.sync m8n8k4's registers whatever the memory layout (B by
       columns); the others follow memory for A and B */
    f->memo = t == PT_F64 ? mat == MAT_B : mat <= MAT_B && col;
    f->w = t == PT_F64 ? (mat >= MAT_C ? 16 : 8)
                       : (mat >= MAT_C && f->ebits == 32) ? 8 : 4;
    unsigned mr = f->memo ? f->cols : f->rows;  /* rows of the blocks */
    unsigned rb = (f->memo ? f->rows : f->cols) * f->ebits / 8;
    f->bw = rb < 4 * f->w ? rb : 4 * f->w;
    f->lpr = f->bw / f->w;
    f->nbr = mr / (32 / f->lpr);
    f->units = f->nbr * (rb / f->bw);
    f->nregs = (mat <= MAT_B && t == PT_F16) ? 8 : f->units * f->w / f->rw;
    return 1;
}

/* Matrix element (*i, *j) at bit `bit` of lane l's part of block u. */
static inline void elem_at(const frag *f, unsigned u, unsigned l,
                           unsigned bit, unsigned *i, unsigned *j)
{
    unsigned br = u % f->nbr, bc = u / f->nbr;
    unsigned r = br * (32 / f->lpr) + l / f->lpr;
    unsigned c = ((bc * f->bw + (l % f->lpr) * f->w) * 8 + bit) / f->ebits;
    *i = f->memo ? c : r;
    *j = f->memo ? r : c;
}

/* Bytes of one request a lane moves: one element where a lane's elements
   are a stride apart (an accumulator stored column-major, an f64 A), else
   its part of a block, 8 bytes at most. */
static inline unsigned piece_of(const frag *f)
{
    return f->colmem && !f->memo ? f->ebits / 8 : f->w < 8 ? f->w : 8;
}

/* Byte offset from the fragment's address of lane l's piece p (psz
   bytes) of block u, for a stride of ld elements. */
static inline uint64_t lane_offset(const frag *f, unsigned u, unsigned p,
                                   unsigned psz, unsigned l, uint64_t ld)
{
    unsigned i, j;
    elem_at(f, u, l, 8 * p * psz, &i, &j);
    uint64_t off = f->colmem ? (uint64_t)j * ld + i : (uint64_t)i * ld + j;
    return off * f->ebits / 8;
}

#endif
