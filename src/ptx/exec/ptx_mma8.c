/*
 * ptx_mma8.c -- mma.sync with 8-bit and 4-bit inputs: m16n8k16 / m16n8k32
 * s8/u8 (s32 accumulators), m16n8k32 / m16n8k64 s4/u4 (s32), and m16n8k32
 * e4m3/e5m2 (f32 or f16 accumulators, sm_89+).
 *
 * Fragments (PTX ISA "Matrix fragments for mma.m16n8k32" and neighbours),
 * with g = lane >> 2, t = lane % 4 and E = 32 / bits elements a register:
 *   A register j: row g + 8 (j & 1), elements k = E t + 4 E (j >> 1) ..
 *     + E - 1 from the low bits up;
 *   B register j: column n = g, k = E t + 4 E j .. + E - 1;
 *   C / D: as the f32 forms, c_j at row g + 8 (j >> 1), column 2t + (j & 1)
 *     (f16 accumulators: two a register).
 */
#include "ptx_int.h"

#include <math.h>

/* Input types in wmi_insn.type2 (A) and mod2 (B): PT_S8 PT_U8 PT_S4 PT_U4,
   and PT_E4M3X2 / PT_E5M2X2 standing for one e4m3 / e5m2 element. */
static unsigned bits_of(wmi_type t)
{
    return t == PT_S4 || t == PT_U4 ? 4 : 8;
}

int wmi_ptx_mma8_type(wmi_type t)
{
    return t == PT_S8 || t == PT_U8 || t == PT_S4 || t == PT_U4 ||
           t == PT_E4M3X2 || t == PT_E5M2X2;
}

void wmi_ptx_mma8_decode(const char *s, size_t n, wmi_insn *in)
{
    static const struct { const char *name; wmi_type t; } names[] = {
        {"s8", PT_S8},         {"u8", PT_U8},     {"s4", PT_S4},
        {"u4", PT_U4},         {"e4m3", PT_E4M3X2}, {"e5m2", PT_E5M2X2},
    };
    const char *q = s, *e = s + n;
    unsigned k = 0;
    wmi_type in_t[2] = {PT_NONE, PT_NONE};
    while (q < e && k < 2) {
        const char *d = memchr(q, '.', (size_t)(e - q));
        size_t wl = (size_t)((d ? d : e) - q);
        for (size_t i = 0; i < WM_ARRAY_LEN(names); i++)
            if (strlen(names[i].name) == wl && memcmp(q, names[i].name, wl) == 0)
                in_t[k++] = names[i].t;
        q += wl + 1;
    }
    if (k == 2) {
        in->type2 = (uint8_t)in_t[0];
        in->mod2 = (uint8_t)in_t[1];
    }
}

/* Element x of a register of type t, as a double (integers exact). */
static double elem(wmi_type t, uint32_t r, unsigned x)
{
    unsigned b = bits_of(t);
    uint32_t v = (r >> (b * x)) & ((1u << b) - 1);
    if (t == PT_S8)
        return (double)(int8_t)v;
    if (t == PT_S4)
        return (double)((int)v - ((v & 8) ? 16 : 0));
    if (t == PT_E4M3X2 || t == PT_E5M2X2)
        return (double)wmi_fp8_to_float((uint8_t)v, t == PT_E5M2X2);
    return (double)v; /* u8, u4 */
}

/* C[row][col] of lane l's accumulator value j. */
static double acc_in(const wm_ptx_module *mod, uint64_t (*R)[32],
                     const wmi_insn *in, unsigned l, unsigned j)
{
    wmi_type dt = (wmi_type)in->type;
    if (dt == PT_F16)
        return (double)wmi_half_to_float(
            (uint16_t)(R[wmi_vslot(mod, in->c, j >> 1)][l] >> (16 * (j & 1))));
    uint64_t v = R[wmi_vslot(mod, in->c, j)][l];
    return dt == PT_S32 ? (double)(int32_t)(uint32_t)v : (double)wmi_f32(v);
}

static void acc_out(const wm_ptx_module *mod, uint64_t (*R)[32],
                    const wmi_insn *in, unsigned l, unsigned j, double v)
{
    wmi_type dt = (wmi_type)in->type;
    if (dt == PT_F16) {
        uint64_t *d = &R[wmi_vslot(mod, in->d, j >> 1)][l];
        unsigned sh = 16 * (j & 1);
        uint64_t h = wmi_float_to_half((float)v, RND_RN);
        *d = (*d & ~((uint64_t)0xffff << sh) & 0xffffffffu) | h << sh;
        return;
    }
    uint32_t u;
    if (dt == PT_S32) {
        int64_t x = (int64_t)v;
        if (in->flags & F_SAT)
            x = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
        u = (uint32_t)(uint64_t)x; /* wraps mod 2^32 */
    } else {
        float f = (float)v;
        memcpy(&u, &f, 4);
    }
    R[wmi_vslot(mod, in->d, j)][l] = u;
}

wm_status wmi_ptx_mma8(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc)
{
    const wm_ptx_module *mod = c->m;
    uint64_t (*R)[32] = w->r;
    wmi_type at = (wmi_type)in->type2, bt = (wmi_type)in->mod2;
    wmi_type dt = (wmi_type)in->type;
    unsigned K = in->mod, E = 32 / bits_of(at);
    int fp = at == PT_E4M3X2 || at == PT_E5M2X2;
    int bfp = bt == PT_E4M3X2 || bt == PT_E5M2X2;
    unsigned na = K / (2 * E), nb = K / (4 * E); /* 16 x K and K x 8 */
    if (in->imm2 != 16 || bits_of(at) != bits_of(bt) || fp != bfp ||
        (K != 8 * E && K != 4 * E) || (fp && K != 32) ||
        (fp ? (dt != PT_F32 && dt != PT_F16) : dt != PT_S32) ||
        wmi_vcount(mod, in->a) != na || wmi_vcount(mod, in->b) != nb ||
        wmi_vcount(mod, in->c) != (dt == PT_F16 ? 2u : 4u) ||
        wmi_vcount(mod, in->d) != wmi_vcount(mod, in->c))
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "unsupported mma shape, types or operand counts "
                             "'%s'", mod->texts + in->text);
    double A[16][64], B[64][8], D[16][8];
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l >> 2, t = l & 3;
        for (unsigned j = 0; j < na; j++) {
            uint32_t r = (uint32_t)R[wmi_vslot(mod, in->a, j)][l];
            for (unsigned x = 0; x < E; x++)
                A[g + 8 * (j & 1)][E * t + 4 * E * (j >> 1) + x] =
                    elem(at, r, x);
        }
        for (unsigned j = 0; j < nb; j++) {
            uint32_t r = (uint32_t)R[wmi_vslot(mod, in->b, j)][l];
            for (unsigned x = 0; x < E; x++)
                B[E * t + 4 * E * j + x][g] = elem(bt, r, x);
        }
        for (unsigned j = 0; j < 4; j++)
            D[g + 8 * (j >> 1)][2 * t + (j & 1)] = acc_in(mod, R, in, l, j);
    }
    for (unsigned i = 0; i < 16; i++)
        for (unsigned n = 0; n < 8; n++) {
            double acc = D[i][n];
            if (fp) { /* f32 accumulation, in K order */
                float f = (float)acc;
                for (unsigned k = 0; k < K; k++)
                    f = fmaf((float)A[i][k], (float)B[k][n], f);
                acc = (double)f;
            } else { /* exact: |sum| < 2^53 */
                for (unsigned k = 0; k < K; k++)
                    acc += A[i][k] * B[k][n];
            }
            D[i][n] = acc;
        }
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l >> 2, t = l & 3;
        for (unsigned j = 0; j < 4; j++)
            acc_out(mod, R, in, l, j, D[g + 8 * (j >> 1)][2 * t + (j & 1)]);
    }
    return WM_OK;
}
