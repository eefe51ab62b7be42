/*
 * ptx_wmma.c -- the legacy warp-level matrix instructions that CUDA's
 * nvcuda::wmma (mma.h) compiles to: wmma.load.{a,b,c}, wmma.store.d and
 * wmma.mma, shapes m16n16k16, m32n8k16, m8n32k16 (f16, bf16, s8, u8
 * inputs) and m16n16k8 (tf32), f16 / f32 / s32 accumulators; m8n8k4
 * (f64), m8n8k32 (s4, u4: s32 accumulators) and m8n8k128 (b1, .xor.popc
 * or .and.popc: s32).
 *
 * The PTX ISA leaves the fragment layout unspecified; the one modelled
 * here (docs/design/wmma.md) is built from the unit mma.sync and
 * ldmatrix use: each register of an A or B fragment holds 4 bytes of an
 * 8-row block of the matrix as it lies in memory (row-major: its rows;
 * col: its columns), lane l the bytes 4 (l % 4) .. + 3 of block row
 * l / 4 (16-byte rows; an 8-byte row gives lanes l / 2 and 4 (l % 2)),
 * sub-byte elements from the low bits up.
 * Accumulators hold the matrix in row orientation whatever the layout of
 * the load or store, 8 bytes a lane per block (f32 / s32: two registers,
 * c_j and c_j+1 at columns 2t, 2t + 1 as mma.sync has them; f16: one
 * register).  Blocks are numbered down the rows first.  For A row-major,
 * B column-major and row-oriented accumulators this is exactly the
 * register content mma.sync m16n8k16 / m16n8k32 / m16n8k8 (and m8n8k32,
 * m8n8k128) take.  An f16 A or B fragment has 8 registers however few it
 * needs; registers past the distinct ones repeat them.  f64 fragments
 * are mma.sync m8n8k4's whatever the memory layout: A lane l holds
 * A(l / 4, l % 4), B lane l B(l % 4, l / 4), C / D lane l columns 2t and
 * 2t + 1 of row l / 4, one .f64 register each.
 *
 * The fields of a decoded wmma instruction (wmi_ptx_wmma_decode):
 *   mod   bits 0-2 the shape, bit 5 the layout (load/store; mma: A's) is
 *         col, bit 6 mma: B's is col; load/store: bits 3-4 the matrix
 *         (a b c d); mma: bit 3 .and.popc (else .xor.popc, b1 only),
 *         bit 4 .popc given, bit 7 C is f16;
 *   type  the element type (load/store) or D's type (mma);
 *   type2 mma: the type of A, mod2 the type of B; F_SAT .satfinite;
 *   rnd   mma f64: the rounding (.rn .rz .rm .rp; none: .rn).
 * b1 elements are held as PT_PRED, the one 1-bit type.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "ptx_wmma_frag.h"

#include <fenv.h>
#include <math.h>

static int word_is(const char *q, size_t wl, const char *lit)
{
    return strlen(lit) == wl && memcmp(q, lit, wl) == 0;
}

static wmi_type type_word(const char *q, size_t wl)
{
    static const struct { const char *name; wmi_type t; } names[] = {
        {"f16", PT_F16}, {"bf16", PT_BF16}, {"tf32", PT_TF32},
        {"f32", PT_F32}, {"f64", PT_F64},   {"s8", PT_S8},
        {"u8", PT_U8},   {"s4", PT_S4},     {"u4", PT_U4},
        {"b1", PT_B1},   {"s32", PT_S32},
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(names); i++)
        if (word_is(q, wl, names[i].name))
            return names[i].t;
    return PT_NONE;
}

void wmi_ptx_wmma_decode(const char *s, size_t n, wmi_insn *in)
{
    const char *q = s, *e = s + n;
    int op = -1, mat = -1, shape = -1;
    unsigned nlay = 0, nty = 0, lay[2] = {0, 0}, bop = 0;
    wmi_type ty[4] = {PT_NONE, PT_NONE, PT_NONE, PT_NONE};
    while (q < e) {
        const char *d = memchr(q, '.', (size_t)(e - q));
        size_t wl = (size_t)((d ? d : e) - q);
        wmi_type t = type_word(q, wl);
        if (word_is(q, wl, "load")) op = OP_WMMA_LOAD;
        else if (word_is(q, wl, "store")) op = OP_WMMA_STORE;
        else if (word_is(q, wl, "mma")) op = OP_WMMA_MMA;
        else if (word_is(q, wl, "and")) bop |= WM_AND;
        else if (word_is(q, wl, "popc")) bop |= WM_POPC;
        else if (wl == 1 && *q >= 'a' && *q <= 'd') mat = (int)(*q - 'a');
        else if ((word_is(q, wl, "row") || word_is(q, wl, "col")) && nlay < 2)
            lay[nlay++] = *q == 'c';
        else if (t != PT_NONE && nty < 4)
            ty[nty++] = t;
        for (size_t i = 0; i < WM_ARRAY_LEN(shapes); i++)
            if (word_is(q, wl, shapes[i].name))
                shape = (int)i;
        q += wl + 1;
    }
    in->op = OP_UNKNOWN; /* what is not below faults by name when run */
    in->flags &= (uint16_t)~F_ROWA;
    if (shape < 0 || op < 0)
        return;
    unsigned mod = (unsigned)shape | (lay[0] ? (unsigned)WM_COL : 0u) |
                   (lay[1] ? (unsigned)WM_BCOL : 0u);
    if (op == OP_WMMA_MMA) {
        /* f16 inputs: .dtype.ctype; the others .dtype.atype.btype.ctype */
        wmi_type a = nty == 2 ? PT_F16 : ty[1], b = nty == 2 ? PT_F16 : ty[2];
        wmi_type c = nty == 2 ? ty[1] : ty[3];
        if (nlay != 2 || (nty != 2 && nty != 4) || c == PT_NONE)
            return;
        /* C's type is kept only as "f16 or not": f64 and s32 D need their
           own type of C */
        if ((ty[0] == PT_F64) != (c == PT_F64) ||
            (ty[0] == PT_S32) != (c == PT_S32))
            return;
        in->type = (uint8_t)ty[0];
        in->type2 = (uint8_t)a;
        in->mod2 = (uint8_t)b;
        mod |= (c == PT_F16 ? (unsigned)WM_CF16 : 0u) | bop;
    } else {
        if (nlay != 1 || nty != 1 || mat < 0 ||
            (op == OP_WMMA_STORE) != (mat == MAT_D))
            return;
        in->type = (uint8_t)ty[0];
        mod |= (unsigned)mat << WM_MAT_SHIFT;
    }
    in->op = (uint8_t)op;
    in->mod = (uint8_t)mod;
}

/* The register of fragment `regs` and the bit in it that hold byte `at`
   of lane l's part of block u. */
static uint64_t *reg_at(const wm_ptx_module *mod, uint64_t (*R)[32],
                        const frag *f, uint32_t regs, unsigned u, unsigned l,
                        unsigned at, unsigned *shift)
{
    unsigned k = (u * f->w + at) / f->rw;
    *shift = 8 * ((u * f->w + at) % f->rw);
    return &R[wmi_vslot(mod, regs, k)][l];
}

static wm_space model_space(wmi_space s)
{
    return s == SP_SHARED ? WM_SPACE_SHARED
                          : s == SP_LOCAL ? WM_SPACE_LOCAL : WM_SPACE_GLOBAL;
}

static wm_status need_warp(wmi_cta *c, wmi_warp *w, uint32_t pc, uint32_t m,
                           const char *text)
{
    if (m != 0xffffffffu)
        return wmi_ptx_fault(c, w, m ? (unsigned)__builtin_ctz(m) : 0, pc,
                             WM_ERR_FAULT,
                             "%s needs all 32 lanes of the warp converged "
                             "(executing lanes 0x%08x)", text, m);
    return WM_OK;
}

static wm_status count_regs(wmi_cta *c, wmi_warp *w, uint32_t pc,
                            const char *text, const char *what, unsigned got,
                            unsigned want)
{
    if (got == want)
        return WM_OK;
    return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                         "%s: the %s fragment is %u registers, got %u", text,
                         what, want, got);
}

/* ---- load and store ------------------------------------------------------ */

/*
 * Move fragment f between the registers `regs` and memory at p (space
 * sp, stride `stride` elements between rows, or columns when
 * col-major): one warp request per piece, a piece being a block's bytes
 * a lane holds, 8 at most (or one element, where a lane's elements are a
 * stride apart: an accumulator stored column-major, an f64 A).
 */
static wm_status move(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, const frag *f, uint32_t regs, int store)
{
    const wm_ptx_module *mod = c->m;
    uint64_t (*R)[32] = w->r;
    const char *text = mod->texts + in->text;
    wmi_space sp = (wmi_space)in->space;
    uint32_t sreg = store ? in->c : in->b;
    uint64_t base = R[in->a][0] + (uint64_t)in->imm;
    uint64_t ld = f->colmem ? f->rows : f->cols; /* default stride */
    if (sreg != WMI_NOREG)
        ld = (uint32_t)R[sreg][0];
    for (unsigned l = 1; l < 32; l++)
        if (R[in->a][l] != R[in->a][0] ||
            (sreg != WMI_NOREG && (uint32_t)R[sreg][l] != ld))
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "%s: the address and stride must be the same "
                                 "in every lane", text);
    if (sp == SP_SHARED)
        base = (uint32_t)base;
    if ((base & 15) || (ld * f->ebits) % 128)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "%s: address 0x%llx and stride (%llu elements, "
                             "%u bits each) must be multiples of 16 bytes",
                             text, (unsigned long long)base,
                             (unsigned long long)ld, f->ebits);
    unsigned psz = piece_of(f), npieces = f->w / psz;
    for (unsigned u = 0; u < f->units; u++)
        for (unsigned p = 0; p < npieces; p++) {
            wm_access a;
            memset(&a, 0, sizeof a);
            a.site = pc;
            a.op = store ? WM_OP_ST : WM_OP_LD;
            a.size = psz;
            a.mask = 0xffffffffu;
            wmi_space rs0 = SP_GENERIC;
            for (unsigned l = 0; l < 32; l++) {
                uint64_t addr = base + lane_offset(f, u, p, psz, l, ld);
                wmi_space rs;
                uint8_t *h = wmi_ptx_block(c, w, l, pc, sp, addr, psz,
                                           store ? "wmma store" : "wmma load",
                                           &rs);
                if (!h)
                    return c->status;
                if (l == 0)
                    rs0 = rs;
                if (rs != rs0 || (rs != SP_GLOBAL && rs != SP_SHARED))
                    return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                         "%s: the fragment must lie in one "
                                         "global or shared buffer", text);
                a.addr[l] = rs == SP_SHARED && sp == SP_GENERIC
                                ? addr - WMI_SHARED_WIN : addr;
                uint64_t keep = f->rw == 8 ? ~(uint64_t)0 : 0xffffffffu;
                for (unsigned b = 0; b < psz; b++) {
                    unsigned sh;
                    uint64_t *r = reg_at(mod, R, f, regs, u, l, p * psz + b,
                                         &sh);
                    if (store)
                        h[b] = (uint8_t)(*r >> sh);
                    else
                        *r = (*r & ~((uint64_t)0xff << sh) & keep) |
                             (uint64_t)h[b] << sh;
                }
            }
            a.space = model_space(rs0);
            if (c->flags & WMI_RUN_CHECK)
                wmi_check_mem(c, w, pc, store ? WMI_ACC_WRITE : WMI_ACC_READ,
                              psz, a.addr,
                              rs0 == SP_SHARED ? 0xffffffffu : 0,
                              rs0 == SP_GLOBAL ? 0xffffffffu : 0);
            if (c->agg) {
                wm_status st = wm_agg_add(c->agg, &a, NULL);
                if (st != WM_OK)
                    return st;
            }
        }
    /* f16 A and B: the registers past the distinct ones repeat them */
    unsigned nd = f->units * f->w / f->rw;
    for (unsigned k = nd; !store && k < f->nregs; k++)
        memcpy(R[wmi_vslot(mod, regs, k)], R[wmi_vslot(mod, regs, k % nd)],
               sizeof R[0]);
    return WM_OK;
}

wm_status wmi_ptx_wmma_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                            uint32_t pc, uint32_t m)
{
    const char *text = c->m->texts + in->text;
    int store = in->op == OP_WMMA_STORE;
    uint32_t regs = store ? in->b : in->d;
    frag f;
    wm_status st = need_warp(c, w, pc, m, text);
    if (st != WM_OK)
        return st;
    unsigned sh = in->mod & WM_SHAPE, mat = (in->mod >> WM_MAT_SHIFT) & 3;
    int col = (in->mod & WM_COL) != 0;
    if (!layout_ok(sh, mat, col))
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "%s: %s takes A row-major and B column-major "
                             "only", text, shapes[sh].name);
    if (!frag_of(sh, mat, (wmi_type)in->type, col, &f))
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "unsupported wmma shape or type '%s'", text);
    st = count_regs(c, w, pc, text, "matrix", wmi_vcount(c->m, regs), f.nregs);
    if (st != WM_OK)
        return st;
    return move(c, w, in, pc, &f, regs, store);
}

/* ---- mma ----------------------------------------------------------------- */

/* Element value of type t at bit `sh` of register value r. */
static double value(wmi_type t, uint64_t r, unsigned sh)
{
    uint32_t v = (uint32_t)(r >> sh);
    double x;
    if (t == PT_F16)
        return (double)wmi_half_to_float((uint16_t)v);
    if (t == PT_BF16)
        return (double)wmi_bf16_to_float((uint16_t)v);
    if (t == PT_TF32) /* the top 19 bits of an f32 */
        return (double)wmi_f32((uint32_t)r & 0xffffe000u);
    if (t == PT_S8)
        return (double)(int8_t)(uint8_t)v;
    if (t == PT_U8)
        return (double)(uint8_t)v;
    if (t == PT_S4) /* two's complement in 4 bits */
        return (double)((int)(v & 7) - (int)(v & 8));
    if (t == PT_U4)
        return (double)(v & 15);
    if (t == PT_B1)
        return (double)(v & 1);
    if (t == PT_S32)
        return (double)(int32_t)(uint32_t)r;
    if (t == PT_F64) {
        memcpy(&x, &r, 8);
        return x;
    }
    return (double)wmi_f32((uint32_t)r); /* f32 */
}

/* Fragment f in registers `regs` into the row-major matrix X (cols f->cols). */
static void unpack(const wm_ptx_module *mod, uint64_t (*R)[32], const frag *f,
                   uint32_t regs, wmi_type t, double *X)
{
    for (unsigned u = 0; u < f->units; u++)
        for (unsigned l = 0; l < 32; l++)
            for (unsigned bit = 0; bit < 8 * f->w; bit += f->ebits) {
                unsigned i, j, sh;
                elem_at(f, u, l, bit, &i, &j);
                uint64_t *r = reg_at(mod, R, f, regs, u, l, bit / 8, &sh);
                X[i * f->cols + j] = value(t, *r, sh + bit % 8);
            }
}

static uint64_t encode(wmi_type t, double v, int sat)
{
    if (t == PT_F16)
        return wmi_float_to_half((float)v, RND_RN);
    if (t == PT_S32) {
        int64_t x = (int64_t)v;
        if (sat)
            x = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
        return (uint32_t)(uint64_t)x; /* wraps mod 2^32 */
    }
    if (t == PT_F64) {
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void pack(const wm_ptx_module *mod, uint64_t (*R)[32], const frag *f,
                 uint32_t regs, wmi_type t, const double *X, int sat)
{
    for (unsigned k = 0; k < f->nregs; k++)
        for (unsigned l = 0; l < 32; l++)
            R[wmi_vslot(mod, regs, k)][l] = 0;
    for (unsigned u = 0; u < f->units; u++)
        for (unsigned l = 0; l < 32; l++)
            for (unsigned bit = 0; bit < 8 * f->w; bit += f->ebits) {
                unsigned i, j, sh;
                elem_at(f, u, l, bit, &i, &j);
                uint64_t *r = reg_at(mod, R, f, regs, u, l, bit / 8, &sh);
                *r |= encode(t, X[i * f->cols + j], sat) << sh;
            }
}

/* The input types of A and B (at, bt) and D's (dt) for shape sh: 1 if
   they are a wmma.mma form. */
static int types_ok(unsigned sh, wmi_type at, wmi_type bt, wmi_type dt)
{
    int i8 = at == PT_S8 || at == PT_U8, i4 = at == PT_S4 || at == PT_U4;
    if (i8 || i4) /* signedness may differ between A and B */
        return dt == PT_S32 && (i8 ? bt == PT_S8 || bt == PT_U8
                                   : bt == PT_S4 || bt == PT_U4);
    if (at != bt)
        return 0;
    if (at == PT_B1)
        return dt == PT_S32;
    if (at == PT_F64)
        return dt == PT_F64;
    return sh != SH_8_8_4 && dt != PT_S32 &&
           (dt == PT_F32 || (at != PT_BF16 && at != PT_TF32));
}

/*
 * D = A B + C for the f64 shape: per element four fma in K order, each
 * rounded with rnd (.rn .rz .rm .rp), as mma.sync m8n8k4 .f64 is
 * modelled.  The dynamic rounding mode is this thread's own; the chain
 * sits in a function of its own, so the compiler cannot move an fma out
 * past the mode's change.
 */
__attribute__((noinline)) static void f64_chain(const double *A,
                                                 const double *B, double *C,
                                                 unsigned M, unsigned N,
                                                 unsigned K)
{
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            double acc = C[i * N + j];
            for (unsigned k = 0; k < K; k++)
                acc = fma(A[i * K + k], B[k * N + j], acc);
            C[i * N + j] = acc;
        }
}

static void mma_f64(const double *A, const double *B, double *C, unsigned M,
                    unsigned N, unsigned K, wmi_rnd rnd)
{
    int mode = rnd == RND_RZ ? FE_TOWARDZERO
               : rnd == RND_RM ? FE_DOWNWARD
               : rnd == RND_RP ? FE_UPWARD : FE_TONEAREST;
    int old = fegetround();
    fesetround(mode);
    f64_chain(A, B, C, M, N, K);
    fesetround(old);
}

wm_status wmi_ptx_wmma_mma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    const char *text = mod->texts + in->text;
    unsigned sh = in->mod & WM_SHAPE;
    wmi_type at = (wmi_type)in->type2, bt = (wmi_type)in->mod2;
    wmi_type dt = (wmi_type)in->type;
    wmi_type ct = (in->mod & WM_CF16) ? PT_F16
                  : dt == PT_S32 || dt == PT_F64 ? dt : PT_F32;
    int ints = at == PT_S8 || at == PT_U8 || at == PT_S4 || at == PT_U4;
    int bits = at == PT_B1;
    frag fa, fb, fc, fd;
    wm_status st = need_warp(c, w, pc, m, text);
    if (st != WM_OK)
        return st;
    int acol = (in->mod & WM_COL) != 0, bcol = (in->mod & WM_BCOL) != 0;
    if (!layout_ok(sh, MAT_A, acol) || !layout_ok(sh, MAT_B, bcol))
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "%s: %s takes A row-major and B column-major "
                             "only", text, shapes[sh].name);
    if (!frag_of(sh, MAT_A, at, acol, &fa) ||
        !frag_of(sh, MAT_B, bt, bcol, &fb) ||
        !frag_of(sh, MAT_C, ct, 0, &fc) || !frag_of(sh, MAT_D, dt, 0, &fd) ||
        !types_ok(sh, at, bt, dt) || bits != ((in->mod & WM_POPC) != 0) ||
        (in->rnd != RND_NONE && (dt != PT_F64 || in->rnd > RND_RP)))
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "unsupported wmma shape or types '%s'", text);
    if ((st = count_regs(c, w, pc, text, "A", wmi_vcount(mod, in->a),
                         fa.nregs)) ||
        (st = count_regs(c, w, pc, text, "B", wmi_vcount(mod, in->b),
                         fb.nregs)) ||
        (st = count_regs(c, w, pc, text, "C", wmi_vcount(mod, in->c),
                         fc.nregs)) ||
        (st =
             count_regs(c, w, pc, text, "D", wmi_vcount(mod, in->d), fd.nregs)))
        return st;
    unsigned M = shapes[sh].m, N = shapes[sh].n, K = shapes[sh].k;
    double A[8 * 128], B[128 * 8], C[16 * 16]; /* the largest: m8n8k128 */
    unpack(mod, w->r, &fa, in->a, at, A);
    unpack(mod, w->r, &fb, in->b, bt, B);
    unpack(mod, w->r, &fc, in->c, ct, C);
    if (dt == PT_F64) {
        mma_f64(A, B, C, M, N, K, (wmi_rnd)in->rnd);
        pack(mod, w->r, &fd, in->d, dt, C, 0);
        return WM_OK;
    }
    int use_and = (in->mod & WM_AND) != 0;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            double acc = C[i * N + j];
            if (bits) { /* popc of the K-bit row of A and column of B */
                for (unsigned k = 0; k < K; k++) {
                    double x = A[i * K + k], y = B[k * N + j];
                    acc += use_and ? x * y : x != y;
                }
            } else if (ints) { /* exact: |sum| < 2^53 */
                for (unsigned k = 0; k < K; k++)
                    acc += A[i * K + k] * B[k * N + j];
            } else { /* f32 accumulation in K order, as mma.sync */
                float f = (float)acc;
                for (unsigned k = 0; k < K; k++)
                    f = fmaf((float)A[i * K + k], (float)B[k * N + j], f);
                acc = (double)f;
            }
            C[i * N + j] = acc;
        }
    pack(mod, w->r, &fd, in->d, dt, C, (in->flags & F_SAT) != 0);
    return WM_OK;
}
