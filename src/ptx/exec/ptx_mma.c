/*
 * ptx_mma.c -- warp-wide matrix instructions: ldmatrix (8x8 b16 matrices
 * from shared memory, rows addressed by lanes 0..8n-1) and mma.sync for
 * the shapes Triton and CUTLASS use on sm_80: m16n8k16 / m16n8k8 with f16
 * or bf16 inputs and f32 or f16 accumulators, and m16n8k8 / m16n8k4 tf32.
 *
 * Fragment layouts follow the PTX ISA ("Matrix fragments for mma.m16n8k16
 * with floating point type" and neighbours): groupID = lane >> 2,
 * threadID_in_group = lane % 4; A row-major, B column-major.  Both
 * instructions need the whole warp converged (".sync.aligned").
 */
#include "ptx_int.h"

#include <math.h>

static wm_status need_full(wmi_cta *c, wmi_warp *w, uint32_t pc, uint32_t m,
                           const char *what)
{
    if (m != 0xffffffffu)
        return wmi_ptx_fault(c, w, m ? (unsigned)__builtin_ctz(m) : 0, pc,
                             WM_ERR_FAULT,
                             "%s needs all 32 lanes of the warp converged "
                             "(executing lanes 0x%08x)",
                             what, m);
    return WM_OK;
}

wm_status wmi_ptx_ldmatrix(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    uint64_t (*R)[32] = w->r;
    unsigned n = in->vec; /* .x1 .x2 .x4 */
    uint16_t mat[4][8][8];
    wm_status st = need_full(c, w, pc, m, "ldmatrix");
    if (st != WM_OK)
        return st;
    if ((n != 1 && n != 2 && n != 4) || wmi_vcount(mod, in->d) != n)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "ldmatrix with %u matrices and %u registers", n,
                             wmi_vcount(mod, in->d));
    wm_access a;
    a.site = pc;
    a.space = WM_SPACE_SHARED;
    a.op = WM_OP_LDSM;
    a.size = 16;
    a.mask = (n == 4) ? 0xffffffffu : ((1u << (8 * n)) - 1);
    memset(a.addr, 0, sizeof a.addr);
    for (unsigned l = 0; l < 8 * n; l++) {
        uint64_t addr = (uint32_t)(R[in->a][l] + (uint64_t)in->imm);
        if (addr & 15)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "misaligned ldmatrix row address: shared "
                                 "offset %llu is not a multiple of 16",
                                 (unsigned long long)addr);
        if (addr + 16 > c->smem_bytes)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "out-of-bounds ldmatrix row at shared offset "
                                 "%llu (the block has %llu bytes)",
                                 (unsigned long long)addr,
                                 (unsigned long long)c->smem_bytes);
        a.addr[l] = addr;
        memcpy(mat[l / 8][l % 8], c->smem + addr, 16);
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t *D = R[wmi_vslot(mod, in->d, i)];
        for (unsigned l = 0; l < 32; l++) {
            unsigned row = l / 4, col = (l % 4) * 2;
            uint16_t lo, hi;
            if (in->flags & F_TRANS) {
                lo = mat[i][col][row];
                hi = mat[i][col + 1][row];
            } else {
                lo = mat[i][row][col];
                hi = mat[i][row][col + 1];
            }
            D[l] = (uint64_t)lo | (uint64_t)hi << 16;
        }
    }
    if (c->agg)
        return wm_agg_add(c->agg, &a, NULL);
    return WM_OK;
}

/* Element value of a 16-bit input half of a register. */
static float in16(wmi_type t, uint64_t reg, unsigned half)
{
    uint16_t h = (uint16_t)(reg >> (16 * half));
    return t == PT_BF16 ? wmi_bf16_to_float(h) : wmi_half_to_float(h);
}

/* tf32 input: the top 19 bits of an f32 (the rest is ignored). */
static float in_tf32(uint64_t reg)
{
    return wmi_f32(reg & 0xffffe000u);
}

wm_status wmi_ptx_mma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    uint64_t (*R)[32] = w->r;
    wmi_type dt = (wmi_type)in->type, at = (wmi_type)in->type2;
    unsigned K = in->mod, M = in->imm2 ? (unsigned)in->imm2 : 16;
    float A[16][16], B[16][8], C[16][8];
    wm_status st = need_full(c, w, pc, m, "mma.sync");
    if (st != WM_OK)
        return st;
    if (wmi_ptx_mma8_type(at))
        return wmi_ptx_mma8(c, w, in, pc); /* ptx_mma8.c */
    int f16in = at == PT_F16 || at == PT_BF16;
    int tf32 = at == PT_TF32;
    if (M != 16 || !(((K == 16 || K == 8) && f16in) || ((K == 8 || K == 4) && tf32)) ||
        (dt != PT_F32 && dt != PT_F16))
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "unsupported mma shape or types '%s'",
                             mod->texts + in->text);
    unsigned na = wmi_vcount(mod, in->a), nb = wmi_vcount(mod, in->b);
    unsigned nc = wmi_vcount(mod, in->c), nd = wmi_vcount(mod, in->d);
    unsigned want_a = f16in ? K / 4 : K / 2, want_b = f16in ? K / 8 : K / 4;
    unsigned want_c = dt == PT_F32 ? 4 : 2;
    if (na != want_a || nb != want_b || nc != want_c || nd != want_c)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "mma operand counts do not match the shape");
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l >> 2, t = l & 3;
        for (unsigned j = 0; j < want_a; j++) {
            uint64_t r = R[wmi_vslot(mod, in->a, j)][l];
            if (f16in) { /* reg j: row g + 8 (j & 1), col 2t + 8 (j >> 1) */
                unsigned row = g + 8 * (j & 1), col = 2 * t + 8 * (j >> 1);
                A[row][col] = in16(at, r, 0);
                A[row][col + 1] = in16(at, r, 1);
            } else { /* tf32: a0 (g, t) a1 (g+8, t) a2 (g, t+4) a3 (g+8, t+4) */
                A[g + 8 * (j & 1)][t + 4 * (j >> 1)] = in_tf32(r);
            }
        }
        for (unsigned j = 0; j < want_b; j++) {
            uint64_t r = R[wmi_vslot(mod, in->b, j)][l];
            if (f16in) { /* reg j: k = 2t + 8j (+1), n = g */
                B[2 * t + 8 * j][g] = in16(at, r, 0);
                B[2 * t + 8 * j + 1][g] = in16(at, r, 1);
            } else { /* tf32: b_j at k = t + 4j, n = g */
                B[t + 4 * j][g] = in_tf32(r);
            }
        }
        for (unsigned j = 0; j < 4; j++) { /* c_j: row g + 8 (j >> 1), col 2t + (j & 1) */
            unsigned row = g + 8 * (j >> 1), col = 2 * t + (j & 1);
            if (dt == PT_F32)
                C[row][col] = wmi_f32(R[wmi_vslot(mod, in->c, j)][l]);
            else
                C[row][col] = wmi_half_to_float(
                    (uint16_t)(R[wmi_vslot(mod, in->c, j >> 1)][l] >>
                               (16 * (j & 1))));
        }
    }
    float D[16][8];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 8; j++) {
            float acc = C[i][j];
            for (unsigned k = 0; k < K; k++)
                acc = fmaf(A[i][k], B[k][j], acc);
            D[i][j] = acc;
        }
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l >> 2, t = l & 3;
        if (dt == PT_F32) {
            for (unsigned j = 0; j < 4; j++)
                R[wmi_vslot(mod, in->d, j)][l] =
                    wmi_f32_bits(D[g + 8 * (j >> 1)][2 * t + (j & 1)]);
        } else {
            for (unsigned j = 0; j < 2; j++)
                R[wmi_vslot(mod, in->d, j)][l] =
                    (uint64_t)wmi_float_to_half(D[g + 8 * j][2 * t], RND_RN) |
                    (uint64_t)wmi_float_to_half(D[g + 8 * j][2 * t + 1], RND_RN)
                        << 16;
        }
    }
    return WM_OK;
}
