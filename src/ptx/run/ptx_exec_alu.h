/*
 * ptx_exec_alu.h -- the warp interpreter's arithmetic: compares, cvt's
 * conversions, the integer and float lane loops (IBIN, FOP) and the
 * per-opcode instruction helpers (exec_*) the dispatch switch calls.
 *
 * Part of ptx_exec.c's translation unit: only ptx_exec.c includes it, so
 * that the helpers stay where the compiler inlines them into
 * wmi_ptx_warp_run (the loop's own cases expand IBIN and FOP too).  They
 * are tiny and run once per warp instruction; as calls across files they
 * would cost more than the work of the most frequent ones.  Hence plain
 * static, as they were in ptx_exec.c, with the hottest forced inline
 * (HOT): the code generated is the one it was.
 */
#ifndef WM_PTX_EXEC_ALU_H
#define WM_PTX_EXEC_ALU_H

#include "ptx_int.h"
#include "ptx_exec_int.h"

#include <math.h>

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
#endif

/* ---- arithmetic ------------------------------------------------------- */

static int cmp_int(wmi_cmp op, uint64_t a, uint64_t b, int sg)
{
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    switch (op) {
    case CMP_EQ: case CMP_EQU: return a == b;
    case CMP_NE: case CMP_NEU: return a != b;
    case CMP_LT: case CMP_LTU: return sg ? sa < sb : a < b;
    case CMP_LE: case CMP_LEU: return sg ? sa <= sb : a <= b;
    case CMP_GT: case CMP_GTU: return sg ? sa > sb : a > b;
    case CMP_GE: case CMP_GEU: return sg ? sa >= sb : a >= b;
    case CMP_LO: return a < b;
    case CMP_LS: return a <= b;
    case CMP_HI: return a > b;
    case CMP_HS: return a >= b;
    case CMP_NUM: case CMP_NAN: return 0;
    }
    return 0;
}

/*
 * Integer compare of 32- or 64-bit lanes with the operator switch hoisted
 * out of the lane loop, so each loop is a vector compare.  Same results as
 * cmp_int; returns 0 (nothing written) for .num/.nan.
 */
#define CMP_CASES(X, U)                                                      \
    switch (op) {                                                            \
    case CMP_EQ: case CMP_EQU: WMI_LOOP(res[l] = X(A[l]) == X(B[l])); return 1;  \
    case CMP_NE: case CMP_NEU: WMI_LOOP(res[l] = X(A[l]) != X(B[l])); return 1;  \
    case CMP_LT: case CMP_LTU: WMI_LOOP(res[l] = X(A[l]) < X(B[l])); return 1;   \
    case CMP_LE: case CMP_LEU: WMI_LOOP(res[l] = X(A[l]) <= X(B[l])); return 1;  \
    case CMP_GT: case CMP_GTU: WMI_LOOP(res[l] = X(A[l]) > X(B[l])); return 1;   \
    case CMP_GE: case CMP_GEU: WMI_LOOP(res[l] = X(A[l]) >= X(B[l])); return 1;  \
    case CMP_LO: WMI_LOOP(res[l] = U(A[l]) < U(B[l])); return 1;                 \
    case CMP_LS: WMI_LOOP(res[l] = U(A[l]) <= U(B[l])); return 1;                \
    case CMP_HI: WMI_LOOP(res[l] = U(A[l]) > U(B[l])); return 1;                 \
    case CMP_HS: WMI_LOOP(res[l] = U(A[l]) >= U(B[l])); return 1;                \
    case CMP_NUM: case CMP_NAN: return 0;                                     \
    }                                                                         \
    return 0

#define CMP_U32(x) ((uint32_t)(x))
#define CMP_S32(x) ((int32_t)(uint32_t)(x))
#define CMP_U64(x) ((uint64_t)(x))
#define CMP_S64(x) ((int64_t)(x))

/* .lo/.ls/.hi/.hs compare unsigned even on signed types (cmp_int compares
   the sign-extended values unsigned, which orders as the zero-extended
   ones do). */
static int cmp_lanes(wmi_cmp op, const uint64_t *A, const uint64_t *B,
                     uint32_t m, unsigned bits, int sg, uint64_t *res)
{
    if (bits == 32 && !sg) {
        CMP_CASES(CMP_U32, CMP_U32);
    } else if (bits == 32) {
        CMP_CASES(CMP_S32, CMP_U32);
    } else if (!sg) {
        CMP_CASES(CMP_U64, CMP_U64);
    } else {
        CMP_CASES(CMP_S64, CMP_U64);
    }
}

static int cmp_flt(wmi_cmp op, double a, double b)
{
    int un = isnan(a) || isnan(b);
    switch (op) {
    case CMP_EQ: return !un && a == b;
    case CMP_NE: return !un && a != b;
    case CMP_LT: case CMP_LO: return !un && a < b;
    case CMP_LE: case CMP_LS: return !un && a <= b;
    case CMP_GT: case CMP_HI: return !un && a > b;
    case CMP_GE: case CMP_HS: return !un && a >= b;
    case CMP_EQU: return un || a == b;
    case CMP_NEU: return un || a != b;
    case CMP_LTU: return un || a < b;
    case CMP_LEU: return un || a <= b;
    case CMP_GTU: return un || a > b;
    case CMP_GEU: return un || a >= b;
    case CMP_NUM: return !un;
    case CMP_NAN: return un;
    }
    return 0;
}

/* Read a value of float type t as double. */
static inline double fget(wmi_type t, uint64_t v)
{
    switch ((int)t) {
    case PT_F64: return DD(v);
    case PT_F16: return (double)H(v);
    case PT_BF16: return (double)BF(v);
    default: return (double)F(v);
    }
}

/* Store a double as float type t with rounding r. */
static inline uint64_t fput(wmi_type t, double v, wmi_rnd r)
{
    switch ((int)t) {
    case PT_F64: return UD(v);
    case PT_F16: return wmi_float_to_half((float)v, r);
    case PT_BF16: return wmi_float_to_bf16((float)v, r);
    default: return UF((float)v);
    }
}

static double round_mode(double v, wmi_rnd r)
{
    switch (r) {
    case RND_RNI: return nearbyint(v);
    case RND_RZI: return trunc(v);
    case RND_RMI: return floor(v);
    case RND_RPI: return ceil(v);
    case RND_NONE: case RND_RN: case RND_RZ: case RND_RM: case RND_RP:
    case RND_RNA: break;
    }
    return v;
}

/* Convert one value (cvt semantics, ptx ISA 9.7.9.21). */
static uint64_t cvt_one(wmi_type dt, wmi_type st, uint64_t v, wmi_rnd r,
                        int sat)
{
    unsigned db = wmi_type_bits(dt), sb = wmi_type_bits(st);
    int dfl = wmi_type_float(dt), sfl = wmi_type_float(st);
    if (!dfl && !sfl) {
        /* integer to integer: extend by the source, wrap (or clamp) */
        uint64_t x = wmi_type_signed(st) ? sext(v, sb) : trunc_bits(v, sb);
        if (sat) {
            int64_t lo, hi;
            if (wmi_type_signed(dt)) {
                hi = db >= 64 ? INT64_MAX : ((int64_t)1 << (db - 1)) - 1;
                lo = -hi - 1;
            } else {
                lo = 0;
                hi = db >= 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << db) - 1);
            }
            if (wmi_type_signed(st)) {
                int64_t s = (int64_t)x;
                x = (uint64_t)(s < lo ? lo : s > hi ? hi : s);
            } else if (x > (uint64_t)hi) {
                x = (uint64_t)hi;
            }
        }
        return trunc_bits(x, db);
    }
    if (sfl && dfl) {
        double x = fget(st, v);
        x = round_mode(x, r);
        if (sat)
            x = isnan(x) ? 0.0 : x < 0 ? 0.0 : x > 1 ? 1.0 : x;
        wmi_rnd fr = r >= RND_RNI ? RND_RN : r;
        if (dt == PT_F32 && st == PT_F64 && fr != RND_RN && fr != RND_NONE) {
            float f = (float)x;
            if ((fr == RND_RZ && fabs((double)f) > fabs(x)) ||
                (fr == RND_RM && (double)f > x) || (fr == RND_RP && (double)f < x))
                f = nextafterf(f, fr == RND_RP ? INFINITY
                                  : fr == RND_RM ? -INFINITY : 0.0f);
            return UF(f);
        }
        return fput(dt, x, fr);
    }
    if (sfl) {
        /* float to integer: round (rni default), clamp, NaN -> 0 */
        double x = fget(st, v);
        x = round_mode(x, r == RND_NONE || r == RND_RN ? RND_RNI : r);
        if (isnan(x))
            return 0;
        if (wmi_type_signed(dt)) {
            double hi = ldexp(1.0, (int)db - 1);
            if (x >= hi)
                return trunc_bits(db >= 64 ? (uint64_t)INT64_MAX
                                           : ((uint64_t)1 << (db - 1)) - 1, db);
            if (x < -hi)
                return trunc_bits((uint64_t)1 << (db - 1), db);
            return trunc_bits((uint64_t)(int64_t)x, db);
        }
        double hi = ldexp(1.0, (int)db);
        if (x <= 0)
            return 0;
        if (x >= hi)
            return db >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << db) - 1;
        return (uint64_t)x;
    }
    /* integer to float */
    double x = wmi_type_signed(st) ? (double)(int64_t)sext(v, sb)
                                   : (double)trunc_bits(v, sb);
    if (dt == PT_F32 && sb == 64 && r != RND_RN && r != RND_NONE) {
        float f = (float)x; /* close enough: directed rounding of 64-bit ints */
        return UF(f);
    }
    return fput(dt, x, r == RND_NONE ? RND_RN : r);
}

/* Integer binary ops by width.  EXPR uses a, b (uint64_t). */
#define IBIN(...)                                                            \
    do {                                                                      \
        const uint64_t *A = R[in->a];                                         \
        const uint64_t *B = R[in->b == WMI_NOREG ? SLOT_ZERO : in->b];        \
        uint64_t *D = R[in->d];                                               \
        switch (bits) {                                                       \
        case 64: WMI_LOOP(uint64_t a = A[l]; uint64_t b = B[l]; (void)b;             \
             D[l] = (__VA_ARGS__));   \
            break;                                                            \
        case 32:                                                              \
            WMI_LOOP(uint64_t a = (uint32_t)A[l]; uint64_t b = (uint32_t)B[l];    \
                 (void)b;                                                     \
                 D[l] = (uint32_t)(__VA_ARGS__));                                    \
            break;                                                            \
        default:                                                              \
            WMI_LOOP(uint64_t a = trunc_bits(A[l], bits);                         \
                 uint64_t b = trunc_bits(B[l], bits); (void)b;                \
                 D[l] = trunc_bits((__VA_ARGS__), bits));                            \
            break;                                                            \
        }                                                                     \
    } while (0)

/* A float operand's slot; an absent one reads zero. */
#define FSRC(s) ((s) == WMI_NOREG ? SLOT_ZERO : (s))

/* Float binary/ternary ops on f32/f64/f16/bf16 and the x2 forms. */
#define FOP(...)                                                             \
    do {                                                                      \
        const uint64_t *A = R[in->a];                                         \
        const uint64_t *B = R[in->b == WMI_NOREG ? SLOT_ZERO : in->b];        \
        const uint64_t *C = R[in->c == WMI_NOREG ? SLOT_ZERO : in->c];        \
        uint64_t *D = R[in->d];                                               \
        switch ((int)t) {                                                          \
        case PT_F32:                                                          \
            WMI_LOOP(float a = F(A[l]); float b = F(B[l]); float cc = F(C[l]);    \
                 (void)b; (void)cc; D[l] = UF((float)(__VA_ARGS__)));                \
            break;                                                            \
        case PT_F64:                                                          \
            WMI_LOOP(double a = DD(A[l]); double b = DD(B[l]);                    \
                 double cc = DD(C[l]); (void)b; (void)cc;                     \
                 D[l] = UD((double)(__VA_ARGS__)));                                  \
            break;                                                            \
        case PT_F16:                                                          \
            WMI_LOOP(float a = H(A[l]); float b = H(B[l]); float cc = H(C[l]);    \
                 (void)b; (void)cc; D[l] = UH((float)(__VA_ARGS__)));                \
            break;                                                            \
        case PT_BF16:                                                         \
            WMI_LOOP(float a = BF(A[l]); float b = BF(B[l]); float cc = BF(C[l]); \
                 (void)b; (void)cc; D[l] = UBF((float)(__VA_ARGS__)));               \
            break;                                                            \
        case PT_F16X2:                                                        \
            WMI_LOOP(uint64_t r0, r1; {                                           \
                float a = H(A[l]); float b = H(B[l]); float cc = H(C[l]);     \
                (void)b; (void)cc; r0 = UH((float)(__VA_ARGS__)); }                  \
                {                                                             \
                float a = H(A[l] >> 16); float b = H(B[l] >> 16);             \
                float cc = H(C[l] >> 16); (void)b; (void)cc;                  \
                r1 = UH((float)(__VA_ARGS__)); }                                     \
                D[l] = r0 | r1 << 16);                                        \
            break;                                                            \
        case PT_BF16X2:                                                       \
            WMI_LOOP(uint64_t r0, r1; {                                           \
                float a = BF(A[l]); float b = BF(B[l]); float cc = BF(C[l]);  \
                (void)b; (void)cc; r0 = UBF((float)(__VA_ARGS__)); }                 \
                {                                                             \
                float a = BF(A[l] >> 16); float b = BF(B[l] >> 16);           \
                float cc = BF(C[l] >> 16); (void)b; (void)cc;                 \
                r1 = UBF((float)(__VA_ARGS__)); }                                    \
                D[l] = r0 | r1 << 16);                                        \
            break;                                                            \
        default:                                                              \
            goto unsupported;                                                 \
        }                                                                     \
    } while (0)

static inline int is_ftype(wmi_type t)
{
    return wmi_type_float(t) || t == PT_F16X2 || t == PT_BF16X2;
}

static uint64_t mulhi_u(uint64_t a, uint64_t b, unsigned bits)
{
    if (bits < 64)
        return trunc_bits((a * b) >> bits, bits);
    return (uint64_t)(((u128)a * b) >> 64);
}

static uint64_t mulhi_s(uint64_t a, uint64_t b, unsigned bits)
{
    if (bits < 64)
        return trunc_bits((uint64_t)((int64_t)sext(a, bits) *
                                     (int64_t)sext(b, bits)) >> bits, bits);
    return (uint64_t)(((i128)(int64_t)a * (i128)(int64_t)b) >> 64);
}

static uint64_t sat_add_s32(uint64_t a, uint64_t b)
{
    int64_t s = (int64_t)(int32_t)(uint32_t)a + (int32_t)(uint32_t)b;
    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    return (uint32_t)s;
}

/* Signed division: truncates; / 0 gives all ones, MIN / -1 wraps. */
static uint64_t sdiv(uint64_t a, uint64_t b, unsigned bits)
{
    int64_t x = (int64_t)sext(a, bits), y = (int64_t)sext(b, bits);
    if (y == 0)
        return trunc_bits(~(uint64_t)0, bits);
    if (y == -1)
        return trunc_bits((uint64_t)0 - (uint64_t)x, bits);
    return trunc_bits((uint64_t)(x / y), bits);
}

/* Signed remainder: sign of the dividend; % 0 gives a. */
static uint64_t srem(uint64_t a, uint64_t b, unsigned bits)
{
    int64_t x = (int64_t)sext(a, bits), y = (int64_t)sext(b, bits);
    if (y == 0)
        return trunc_bits(a, bits);
    if (y == -1)
        return 0;
    return trunc_bits((uint64_t)(x % y), bits);
}

static uint64_t prmt(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t bytes = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned sel = (c >> (4 * k)) & 15;
        uint32_t byte = (uint32_t)(bytes >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * k);
    }
    return r;
}

static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < 8; k++)
        if (lut >> k & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned bits,
                    int sg)
{
    pos &= 0xff;
    len &= 0xff;
    uint64_t sbit;
    if (!sg || len == 0)
        sbit = 0;
    else
        sbit = (pos + len - 1 >= bits) ? (a >> (bits - 1)) & 1
                                       : (a >> (pos + len - 1)) & 1;
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++) {
        uint64_t bit = (i < len && pos + i < bits) ? (a >> (pos + i)) & 1 : sbit;
        r |= bit << i;
    }
    return r;
}

/* Bit l = bit 0 of lane l's predicate.  Masking with a table of lane bits
   instead of shifting by l keeps the loop vectorisable without variable
   per-lane shifts (SSE2 has none). */
static inline uint32_t pred_mask(const uint64_t *G)
{
    static const uint64_t bit[32] = {
#define B4(k) (1ull << (k)), (1ull << ((k) + 1)), (1ull << ((k) + 2)), \
              (1ull << ((k) + 3))
        B4(0), B4(4), B4(8), B4(12), B4(16), B4(20), B4(24), B4(28)
#undef B4
    };
    uint64_t g = 0;
    for (unsigned l = 0; l < 32; l++)
        g |= (0 - (G[l] & 1)) & bit[l];
    return (uint32_t)g;
}

/* ---- instruction helpers: one per opcode or opcode pair ----------------- */

/*
 * Each helper runs one instruction for the lanes of m on the register file
 * R.  Those returning int give 1 when done and 0 for a form the model does
 * not run, which the loop reports as unsupported; FOP jumps to their
 * `unsupported` label for a float type it does not know.
 */

/* The helpers of the most frequent opcodes are forced inline: gcc keeps
   these larger ones out of the (already large) loop function otherwise, and
   the calls cost 3 % more instructions on a transposed copy (cachegrind). */
#define HOT inline __attribute__((always_inline))

/* mov, with the vector forms that pack lanes' halves or unpack them. */
static HOT void exec_mov(const wm_ptx_module *mod, uint64_t (*R)[32],
                     const wmi_insn *in, uint32_t m)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    if (in->d & WMI_VEC) { /* unpack: mov.b32 {lo, hi}, r */
        unsigned n = wmi_vcount(mod, in->d), pb = bits / n;
        for (unsigned k = 0; k < n; k++) {
            uint64_t *D = R[wmi_vslot(mod, in->d, k)];
            const uint64_t *A = R[in->a];
            WMI_LOOP(D[l] = trunc_bits(A[l] >> (pb * k), pb));
        }
    } else if (in->a & WMI_VEC) { /* pack: mov.b32 r, {lo, hi} */
        unsigned n = wmi_vcount(mod, in->a), pb = bits / n;
        uint64_t tmp[32] = {0};
        for (unsigned k = 0; k < n; k++) {
            const uint64_t *A = R[wmi_vslot(mod, in->a, k)];
            WMI_LOOP(tmp[l] |= trunc_bits(A[l], pb) << (pb * k));
        }
        uint64_t *D = R[in->d];
        WMI_LOOP(D[l] = tmp[l]);
    } else {
        const uint64_t *A = R[in->a];
        uint64_t *D = R[in->d];
        WMI_LOOP(D[l] = A[l]);
    }
}

/* One halfword of add, sub, min or max (.relu: a negative s16 to 0). */
static uint32_t half16(wmi_op op, uint32_t a, uint32_t b, int sg, int relu)
{
    int32_t x = sg ? (int16_t)a : (int32_t)(uint16_t)a;
    int32_t y = sg ? (int16_t)b : (int32_t)(uint16_t)b;
    int32_t r = op == OP_ADD ? x + y
                : op == OP_SUB ? x - y
                : (op == OP_MAX) == (x > y) ? x : y;
    if (relu && r < 0)
        r = 0;
    return (uint32_t)r & 0xffff;
}

/* add, sub, min and max on .u16x2 / .s16x2 (sm_90): each halfword on its
   own, add and sub wrapping. */
static int pair16(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b];
    uint64_t *D = R[in->d];
    wmi_op op = (wmi_op)in->op;
    int sg = in->type == PT_S16X2, relu = (in->flags & F_RELU) != 0;
    if ((in->flags & F_SAT) || (relu && (!sg || op == OP_ADD || op == OP_SUB)))
        return 0;
    WMI_LOOP(D[l] = half16(op, (uint32_t)A[l], (uint32_t)B[l], sg, relu) |
                    half16(op, (uint32_t)(A[l] >> 16), (uint32_t)(B[l] >> 16),
                           sg, relu) << 16);
    return 1;
}

static HOT int exec_add(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    if (t == PT_U16X2 || t == PT_S16X2)
        return pair16(R, in, m);
    if (is_ftype(t))
        FOP(a + b);
    else if ((in->flags & F_SAT) && t == PT_S32)
        IBIN(sat_add_s32(a, b));
    else
        IBIN(a + b);
    return 1;
unsupported:
    return 0;
}

static HOT int exec_sub(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    if (t == PT_U16X2 || t == PT_S16X2)
        return pair16(R, in, m);
    if (is_ftype(t))
        FOP(a - b);
    else
        IBIN(a - b);
    return 1;
unsupported:
    return 0;
}

/* Integer mul and mad (C is zero for mul): .wide, .hi and .lo. */
static HOT void mul_int(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                    int fast)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int sg = wmi_type_signed(t);
    const uint64_t *A = R[in->a], *B = R[in->b];
    const uint64_t *C = R[in->op == OP_MAD ? in->c : SLOT_ZERO];
    uint64_t *D = R[in->d];
    if ((in->flags & F_WIDE) && bits == 32 && fast) {
        /* 32 x 32 -> 64: pmuldq / pmuludq */
        if (sg)
            WMI_LOOP(D[l] = (uint64_t)((int64_t)(int32_t)(uint32_t)A[l] *
                                   (int64_t)(int32_t)(uint32_t)B[l]) +
                        C[l]);
        else
            WMI_LOOP(D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l]);
    } else if (in->flags & F_WIDE) {
        unsigned wb = bits * 2;
        if (sg)
            WMI_LOOP(D[l] = trunc_bits((uint64_t)sext(A[l], bits) *
                                           (uint64_t)sext(B[l], bits) +
                                       C[l], wb));
        else
            WMI_LOOP(D[l] = trunc_bits(trunc_bits(A[l], bits) *
                                       trunc_bits(B[l], bits) + C[l], wb));
    } else if (in->flags & F_HI) {
        if (sg)
            WMI_LOOP(D[l] = trunc_bits(mulhi_s(A[l], B[l], bits) + C[l], bits));
        else
            WMI_LOOP(D[l] = trunc_bits(mulhi_u(trunc_bits(A[l], bits),
                                           trunc_bits(B[l], bits), bits) +
                                       C[l], bits));
    } else if (bits == 32) {
        WMI_LOOP(D[l] = (uint32_t)(A[l] * B[l] + C[l]));
    } else {
        WMI_LOOP(D[l] = trunc_bits(A[l] * B[l] + C[l], bits));
    }
}

/* fma, and mad on floats: one rounding (f32 through wmi_fma_f32). */
static HOT int exec_fma(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    if (t == PT_F32) {
        wmi_fma_f32(R[in->d], R[in->a], R[in->b], R[FSRC(in->c)], m);
        return 1;
    }
    FOP(t == PT_F64 ? fma((double)a, (double)b, (double)cc)
                    : (double)fmaf((float)a, (float)b, (float)cc));
    return 1;
unsupported:
    return 0;
}

static HOT int exec_mul(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                    int fast)
{
    wmi_type t = (wmi_type)in->type;
    if (!is_ftype(t)) {
        mul_int(R, in, m, fast);
        return 1;
    }
    if (in->op == OP_MAD)
        return exec_fma(R, in, m);
    FOP(a * b);
    return 1;
unsupported:
    return 0;
}

/* mul24 and mad24 (.lo): 24 x 24 bits, the low 32 of the product. */
static void exec_mul24(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b];
    const uint64_t *C = R[in->op == OP_MAD24 ? in->c : SLOT_ZERO];
    uint64_t *D = R[in->d];
    if (wmi_type_signed((wmi_type)in->type))
        WMI_LOOP(D[l] = (uint32_t)((uint64_t)((int64_t)sext(A[l], 24) *
                                          (int64_t)sext(B[l], 24)) +
                               C[l]));
    else
        WMI_LOOP(D[l] = (uint32_t)((A[l] & 0xffffff) * (B[l] & 0xffffff) +
                               C[l]));
}

static int exec_div(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    if (is_ftype(t))
        FOP(a / b);
    else if (wmi_type_signed(t))
        IBIN(sdiv(a, b, bits));
    else
        IBIN(b == 0 ? trunc_bits(~(uint64_t)0, bits) : a / b);
    return 1;
unsupported:
    return 0;
}

static void exec_rem(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    if (wmi_type_signed(t))
        IBIN(srem(a, b, bits));
    else
        IBIN(b == 0 ? a : a % b);
}

static int exec_abs(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    if (is_ftype(t))
        FOP(fabs((double)a));
    else
        IBIN((int64_t)sext(a, bits) < 0 ? (uint64_t)0 - a : a);
    return 1;
unsupported:
    return 0;
}

static int exec_neg(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    if (is_ftype(t))
        FOP(-a);
    else
        IBIN((uint64_t)0 - a);
    return 1;
unsupported:
    return 0;
}

/* min and max; .relu clamps a float result at zero. */
static int exec_minmax(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int mx = in->op == OP_MAX;
    if (t == PT_U16X2 || t == PT_S16X2)
        return pair16(R, in, m);
    if (is_ftype(t)) {
        if (mx)
            FOP(fmax((double)a, (double)b));
        else
            FOP(fmin((double)a, (double)b));
        if (in->flags & F_RELU)
            FOP(a < 0 ? 0 : a);
    } else if (wmi_type_signed(t)) {
        if (mx)
            IBIN((int64_t)sext(a, bits) > (int64_t)sext(b, bits) ? a : b);
        else
            IBIN((int64_t)sext(a, bits) < (int64_t)sext(b, bits) ? a : b);
    } else {
        if (mx)
            IBIN(a > b ? a : b);
        else
            IBIN(a < b ? a : b);
    }
    return 1;
unsupported:
    return 0;
}

/* shl: a count of the width or more gives 0 (PTX clamps it). */
static void exec_shl(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                     const uint8_t *uni)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    const uint64_t *A = R[in->a], *B = R[in->b];
    uint64_t *D = R[in->d];
    if (uni[in->b]) {
        /* one shift count for all lanes: a vector shift */
        uint32_t s = (uint32_t)B[0];
        if (s >= bits)
            WMI_LOOP(D[l] = 0);
        else if (bits == 32)
            WMI_LOOP(D[l] = (uint32_t)(A[l] << s));
        else
            WMI_LOOP(D[l] = trunc_bits(A[l] << s, bits));
        return;
    }
    WMI_LOOP(uint32_t s = (uint32_t)B[l];
         D[l] = s >= bits ? 0 : trunc_bits(A[l] << s, bits));
}

/* shr: arithmetic for signed types (a large count fills with the sign). */
static void exec_shr(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                     const uint8_t *uni)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int sg = wmi_type_signed(t);
    const uint64_t *A = R[in->a], *B = R[in->b];
    uint64_t *D = R[in->d];
    if (uni[in->b] && !sg && bits == 32) {
        uint32_t s = (uint32_t)B[0];
        if (s >= 32)
            WMI_LOOP(D[l] = 0);
        else
            WMI_LOOP(D[l] = (uint32_t)A[l] >> s);
    } else if (sg)
        WMI_LOOP(uint32_t s = (uint32_t)B[l];
             D[l] = trunc_bits((uint64_t)((int64_t)sext(A[l], bits) >>
                                          (s >= bits ? bits - 1 : s)),
                               bits));
    else
        WMI_LOOP(uint32_t s = (uint32_t)B[l];
             D[l] = s >= bits ? 0 : trunc_bits(A[l], bits) >> s);
}

/* shf.l / shf.r: a funnel shift of the 64-bit pair b:a, count .clamp'ed
   or .wrap'ed. */
static void exec_shf(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    int left = (in->flags & F_LEFT) != 0;
    int clamp = (in->flags & F_CLAMP) != 0;
    WMI_LOOP(uint32_t n = (uint32_t)C[l];
         n = clamp ? (n > 32 ? 32 : n) : (n & 31);
         uint64_t v = (uint64_t)(uint32_t)B[l] << 32 | (uint32_t)A[l];
         D[l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n));
}

/* bfind: the position of the highest set bit (highest clear bit of a
   negative signed value), 0xffffffff for none. */
static void exec_bfind(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int sg = wmi_type_signed(t);
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    WMI_LOOP(uint64_t a = trunc_bits(A[l], bits);
         if (sg && (a >> (bits - 1) & 1)) a = trunc_bits(~a, bits);
         uint32_t pos = a ? 63u - (uint32_t)__builtin_clzll(a)
                          : 0xffffffffu;
         D[l] = pos);
    /* .shiftamt: bits-1-pos */
    if (in->flags & F_SHIFTAMT)
        WMI_LOOP(D[l] = D[l] == 0xffffffffu ? D[l] : bits - 1 - D[l]);
}

static void exec_brev(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    WMI_LOOP(uint64_t a = A[l]; uint64_t r = 0;
         for (unsigned i = 0; i < bits; i++) r |= ((a >> i) & 1)
                                                  << (bits - 1 - i);
         D[l] = r);
}

static void exec_bfe(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int sg = wmi_type_signed(t);
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    WMI_LOOP(D[l] = bfe(trunc_bits(A[l], bits), (uint32_t)B[l],
                    (uint32_t)C[l], bits, sg));
}

/* bfi d, a, b, pos, len: len bits of a into b at pos. */
static void exec_bfi(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c],
                   *E = R[in->e];
    uint64_t *D = R[in->d];
    WMI_LOOP(uint32_t pos = (uint32_t)C[l] & 0xff;
         uint32_t len = (uint32_t)E[l] & 0xff; uint64_t r = B[l];
         for (uint32_t i = 0; i < len && pos + i < bits; i++) {
             r &= ~((uint64_t)1 << (pos + i));
             r |= ((A[l] >> i) & 1) << (pos + i);
         } D[l] = trunc_bits(r, bits));
}

static void exec_prmt(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    WMI_LOOP(D[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l]));
}

static void exec_lop3(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c],
                   *E = R[in->e];
    uint64_t *D = R[in->d];
    WMI_LOOP(D[l] = trunc_bits(lop3(A[l], B[l], C[l], (unsigned)E[l] & 0xff),
                           bits));
}

/* dp4a: c plus the dot product of a's and b's four bytes, each signed
   or unsigned by its own type. */
static void exec_dp4a(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    int sa = wmi_type_signed((wmi_type)in->type);
    int sb2 = wmi_type_signed((wmi_type)in->type2);
    WMI_LOOP(int64_t acc = (int32_t)(uint32_t)C[l];
         for (unsigned k = 0; k < 4; k++) {
             int64_t x = (int64_t)((A[l] >> (8 * k)) & 0xff);
             int64_t y = (int64_t)((B[l] >> (8 * k)) & 0xff);
             if (sa && x > 127) x -= 256;
             if (sb2 && y > 127) y -= 256;
             acc += x * y;
         } D[l] = (uint32_t)acc);
}

/* dp2a.lo/.hi: c plus the dot product of a's two halfwords and bytes 0-1
   (.lo) or 2-3 (.hi) of b, each signed or unsigned by its own type. */
static void exec_dp2a(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    int sa = wmi_type_signed((wmi_type)in->type);
    int sb2 = wmi_type_signed((wmi_type)in->type2);
    unsigned b0 = in->flags & F_HI ? 2 : 0;
    WMI_LOOP(int64_t acc = (int32_t)(uint32_t)C[l];
         for (unsigned k = 0; k < 2; k++) {
             int64_t x = (int64_t)((A[l] >> (16 * k)) & 0xffff);
             int64_t y = (int64_t)((B[l] >> (8 * (b0 + k))) & 0xff);
             if (sa && x > 32767) x -= 65536;
             if (sb2 && y > 127) y -= 256;
             acc += x * y;
         } D[l] = (uint32_t)acc);
}

/* sad: d = c + |a - b| at the type's width (a and b compared signed for
   .s types), wrapping. */
static void exec_sad(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    int sg = wmi_type_signed(t);
    WMI_LOOP(uint64_t a = trunc_bits(A[l], bits);
             uint64_t b = trunc_bits(B[l], bits);
             int lt = sg ? (int64_t)sext(a, bits) < (int64_t)sext(b, bits)
                         : a < b;
             uint64_t r = trunc_bits(C[l] + (lt ? b - a : a - b), bits);
             D[l] = sg ? sext(r, bits) : r);
}

/* The mask of bmsk: b bits from bit a; .clamp saturates a and b at 32,
   .wrap takes them mod 32 (PTX ISA, bmsk). */
static inline uint32_t bmsk32(uint32_t a, uint32_t b, int clamp)
{
    uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t low = ~0u << a1; /* bits from a on */
    if (clamp && a >= 32)
        return 0;
    if (sum >= 32 || (clamp && b >= 32))
        return low;
    return b1 ? low & ~(~0u << sum) : 0;
}

/* bmsk.mode.b32 d, a, b. */
static void exec_bmsk(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b];
    uint64_t *D = R[in->d];
    int clamp = (in->flags & F_CLAMP) != 0;
    WMI_LOOP(D[l] = bmsk32((uint32_t)A[l], (uint32_t)B[l], clamp));
}

/* fns (__fns): the position of the off-th set bit of mask counting from
   bit base, upward for off > 0 and downward for off < 0; off = 0 asks
   whether bit base itself is set; 0xffffffff when there is none (and for
   a base past 31, which PTX leaves undefined). */
static uint32_t fns32(uint32_t mask, uint32_t base, int32_t off)
{
    if (base > 31)
        return 0xffffffffu;
    if (off == 0)
        return mask >> base & 1 ? base : 0xffffffffu;
    int step = off > 0 ? 1 : -1;
    int64_t left = off > 0 ? (int64_t)off : -(int64_t)off;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
        if ((mask >> pos & 1) && --left == 0)
            return (uint32_t)pos;
    return 0xffffffffu;
}

static void exec_fns(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    WMI_LOOP(D[l] = fns32((uint32_t)A[l], (uint32_t)B[l],
                          (int32_t)(uint32_t)C[l]));
}

/* vabsdiff2 / vabsdiff4 of one lane (__vabsdiffu4, __vsadu4 ...), with
   the default selectors (a's and b's own elements in order) and mask (all
   of them): element i of `bits` bits is |a_i - b_i|, each read signed or
   not by its type, clamped by .sat to the destination type's element
   range; then written as element i of d or, with .add, added to c. */
static uint32_t vabsdiff(uint32_t a, uint32_t b, uint32_t c, unsigned bits,
                         int sa, int sb, int sd, int sat, int add)
{
    uint32_t mask = (1u << bits) - 1, d = add ? c : 0;
    int64_t top = sd ? (int64_t)mask >> 1 : (int64_t)mask;
    for (unsigned i = 0; i < 32 / bits; i++) {
        int64_t x = a >> (bits * i) & mask, y = b >> (bits * i) & mask;
        if (sa && x >> (bits - 1))
            x -= (int64_t)1 << bits;
        if (sb && y >> (bits - 1))
            y -= (int64_t)1 << bits;
        int64_t t = x > y ? x - y : y - x;
        if (sat && t > top)
            t = top;
        if (add)
            d += (uint32_t)t;
        else
            d |= ((uint32_t)t & mask) << (bits * i);
    }
    return d;
}

static void exec_vabsdiff(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    unsigned bits = in->mod & 2 ? 8 : 16;
    int sa = wmi_type_signed((wmi_type)in->type2);
    int sb = wmi_type_signed((wmi_type)in->mod2);
    int sd = wmi_type_signed((wmi_type)in->type);
    int sat = (in->flags & F_SAT) != 0, add = in->mod & 1;
    WMI_LOOP(D[l] = vabsdiff((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l],
                             bits, sa, sb, sd, sat, add));
}

/* The carry forms (OP_CARRY) for the lanes of m: add.cc, addc{.cc},
   sub.cc, subc{.cc}, mad{.lo,.hi}.cc, madc{.lo,.hi}{.cc} at 32 or 64 bits.
   The carry flag is a bit per lane of w->cf; for sub it is the borrow
   (subc: d = a - (b + CF)).  Signed types wrap as unsigned ones do; only
   mad.hi's product is signed. */
static void exec_carry(wmi_warp *w, uint64_t (*R)[32], const wmi_insn *in,
                       uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t), op = in->mod & 3;
    const uint64_t *A = R[in->a], *B = R[in->b];
    const uint64_t *C = op == CARRY_MAD ? R[in->c] : NULL;
    uint64_t *D = R[in->d];
    uint32_t cf = w->cf, out = 0;
    for (uint32_t left = m; left; left &= left - 1) {
        unsigned l = (unsigned)__builtin_ctz(left);
        uint64_t a = trunc_bits(A[l], bits), b = trunc_bits(B[l], bits);
        uint64_t cin = in->mod & CARRY_IN ? cf >> l & 1 : 0, x = a, y = b;
        if (op == CARRY_MAD) {
            x = in->flags & F_HI ? (wmi_type_signed(t) ? mulhi_s(a, b, bits)
                                                       : mulhi_u(a, b, bits))
                                 : trunc_bits(a * b, bits);
            y = trunc_bits(C[l], bits);
        }
        uint64_t r;
        int carry;
        if (op == CARRY_SUB) { /* the borrow of x - y - cin */
            r = trunc_bits(x - y - cin, bits);
            carry = x < y || (x == y && cin);
        } else {
            uint64_t sum = trunc_bits(x + y, bits);
            r = trunc_bits(sum + cin, bits);
            carry = sum < x || r < sum;
        }
        D[l] = r;
        out |= (uint32_t)carry << l;
    }
    if (in->flags & F_CC)
        w->cf = (cf & ~m) | out;
}

/* szext.mode.{u32,s32} d, a, b: the low N bits of a, extended (N = b,
   saturated at 32 by .clamp, mod 32 by .wrap; N = 0 gives 0). */
static void exec_szext(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b];
    uint64_t *D = R[in->d];
    int clamp = (in->flags & F_CLAMP) != 0;
    int sg = wmi_type_signed((wmi_type)in->type);
    WMI_LOOP(uint32_t a = (uint32_t)A[l]; uint32_t b = (uint32_t)B[l];
         uint32_t n = clamp && b >= 32 ? 32 : b & 31;
         uint32_t r = n == 32 ? a : n == 0 ? 0 : a & ~(~0u << n);
         if (sg && n && n < 32 && (a >> (n - 1) & 1)) r |= ~0u << n;
         D[l] = r);
}

/* Does global-window address a lie in one of mod's .const variables? */
static int in_const_var(const wm_ptx_module *mod, uint64_t a)
{
    uint64_t base = (uint64_t)WMI_MAX_GLOBAL_BUFS << WMI_WIN_SHIFT;
    for (size_t i = 0; a >= base && i < mod->nvars; i++) {
        const wmi_var *v = &mod->vars[i];
        if (v->space == SP_CONST && a - base >= v->offset &&
            a - base - v->offset < v->size)
            return 1;
    }
    return 0;
}

/* Does generic address a lie in space sp (cluster: any CTA's shared
   memory of the cluster, else the CTA's own)?  The windows are those
   resolve (ptx_resolve.h) maps generic addresses by; global memory is
   the buffers' windows and the module's variables but its .const ones. */
static int in_space(const wm_ptx_module *mod, uint64_t a, wmi_space sp,
                    int cluster)
{
    uint64_t win = a >> WMI_WIN_SHIFT, off = a & WMI_WIN_MASK;
    switch (sp) {
    case SP_SHARED:
        return win == WMI_SHARED_WIN >> WMI_WIN_SHIFT &&
               (cluster || off >> WMI_DSMEM_SHIFT == 0);
    case SP_LOCAL: return win == WMI_LOCAL_WIN >> WMI_WIN_SHIFT;
    case SP_PARAM: return win == WMI_PARAM_WIN >> WMI_WIN_SHIFT;
    case SP_CONST: return in_const_var(mod, a);
    case SP_GLOBAL:
        return win >= 1 && win <= WMI_MAX_GLOBAL_BUFS && !in_const_var(mod, a);
    case SP_GENERIC: case SP_FRAME: /* (the parser gives neither) */
        break;
    }
    return 0;
}

/* isspacep.SPACE p, a (__isGlobal, __isShared, ...). */
static void exec_isspacep(const wm_ptx_module *mod, uint64_t (*R)[32],
                          const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    wmi_space sp = (wmi_space)in->space;
    WMI_LOOP(D[l] = (uint64_t)in_space(mod, A[l], sp, in->mod));
}

/* Compare a with b in type ct for the lanes of m: res[l] = 0 or 1. */
static void compare_lanes(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                          int fast, wmi_type ct, uint64_t *res)
{
    unsigned cb = wmi_type_bits(ct);
    int csg = wmi_type_signed(ct), cfl = is_ftype(ct);
    const uint64_t *A = R[in->a], *B = R[in->b];
    wmi_cmp op = (wmi_cmp)in->mod;
    if (fast && !cfl && (cb == 32 || cb == 64) &&
        cmp_lanes(op, A, B, m, cb, csg, res))
        ; /* done: the compare hoisted out of the lane loop */
    else if (cfl)
        WMI_LOOP(res[l] = (uint64_t)cmp_flt(op, fget(ct, A[l]), fget(ct, B[l])));
    else if (cb == 32 && !csg)
        WMI_LOOP(res[l] = (uint64_t)cmp_int(op, (uint32_t)A[l], (uint32_t)B[l], 0));
    else if (cb == 32)
        WMI_LOOP(res[l] = (uint64_t)cmp_int(op, sext(A[l], 32), sext(B[l], 32), 1));
    else
        WMI_LOOP(res[l] = (uint64_t)cmp_int(
                 op, csg ? sext(A[l], cb) : trunc_bits(A[l], cb),
                 csg ? sext(B[l], cb) : trunc_bits(B[l], cb), csg));
}

/* setp's results: p = res (.and/.or/.xor with predicate c), and the
   optional second destination q = the complement. */
static void setp_store(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                       uint64_t *res)
{
    const uint64_t *C = R[in->c == WMI_NOREG ? SLOT_ZERO : in->c];
    uint64_t *D = R[in->d];
    switch ((wmi_boolop)in->mod2) {
    case BOOL_NONE:
        WMI_LOOP(D[l] = res[l]);
        if (in->d2 != WMI_NOREG)
            WMI_LOOP(R[in->d2][l] = res[l] ^ 1);
        break;
    case BOOL_AND:
    case BOOL_OR:
    case BOOL_XOR: {
        uint64_t r2[32];
        WMI_LOOP(uint64_t cc = C[l] & 1; uint64_t r = res[l];
             uint64_t nr = r ^ 1;
             if (in->mod2 == BOOL_AND) { r &= cc; nr &= cc; }
             else if (in->mod2 == BOOL_OR) { r |= cc; nr |= cc; }
             else { r ^= cc; nr ^= cc; }
             res[l] = r; r2[l] = nr);
        WMI_LOOP(D[l] = res[l]);
        if (in->d2 != WMI_NOREG)
            WMI_LOOP(R[in->d2][l] = r2[l]);
        break;
    }
    }
}

/* setp (a predicate) and set (all ones, or 1.0f for .f32, when true). */
static HOT int exec_setp(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                     int fast)
{
    wmi_type t = (wmi_type)in->type;
    wmi_type ct = in->op == OP_SET ? (wmi_type)in->type2 : t;
    uint64_t res[32];
    if (ct == PT_F16X2 || ct == PT_BF16X2)
        return 0;
    compare_lanes(R, in, m, fast, ct, res);
    if (in->op == OP_SET) {
        uint64_t *D = R[in->d];
        uint64_t one = t == PT_F32 ? 0x3f800000u
                                   : trunc_bits(~(uint64_t)0, wmi_type_bits(t));
        WMI_LOOP(D[l] = res[l] ? one : 0);
        return 1;
    }
    setp_store(R, in, m, res);
    return 1;
}

static void exec_selp(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    WMI_LOOP(D[l] = (C[l] & 1) ? A[l] : B[l]);
}

/* slct: a where c >= 0, else b (c an s32 or an f32). */
static void exec_slct(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    const uint64_t *A = R[in->a], *B = R[in->b], *C = R[in->c];
    uint64_t *D = R[in->d];
    if (in->type2 == PT_F32)
        WMI_LOOP(D[l] = F(C[l]) >= 0.0f ? A[l] : B[l]);
    else
        WMI_LOOP(D[l] = (int32_t)(uint32_t)C[l] >= 0 ? A[l] : B[l]);
}

/* cvt.rn.f16x2.f32 d, a, b (and .bf16x2): a to the upper half; the only
   pair form modelled. */
static int cvt_pair(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    wmi_rnd r = (wmi_rnd)in->rnd;
    int sat = (in->flags & F_SAT) != 0;
    if ((wmi_type)in->type2 != PT_F32 || in->b == WMI_NOREG)
        return 0;
    const uint64_t *B = R[in->b];
    wmi_type h = t == PT_F16X2 ? PT_F16 : PT_BF16;
    WMI_LOOP(D[l] = cvt_one(h, PT_F32, A[l], r, sat) << 16 |
                cvt_one(h, PT_F32, B[l], r, sat));
    return !(in->flags & F_RELU);
}

/* An fp8 (e5m2 when e5) as f16: exact; relu takes negatives to 0. */
static uint64_t f16_of_fp8(uint64_t v, int e5, int relu)
{
    float x = wmi_fp8_to_float((uint8_t)v, e5);
    return UH(relu && x < 0.0f ? 0.0f : x);
}

/* cvt with fp8 pairs (sm_89): two f32 (a to the upper byte) or an f16x2
   (its upper half to the upper byte) to e4m3x2 / e5m2x2 (.rn.satfinite,
   .relu), and e4m3x2 / e5m2x2 to f16x2 (.rn, .relu). */
static int cvt_fp8(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type, s = (wmi_type)in->type2;
    int relu = (in->flags & F_RELU) != 0;
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    if (t == PT_F16X2 && (s == PT_E4M3X2 || s == PT_E5M2X2)) {
        int e5 = s == PT_E5M2X2;
        if (in->b != WMI_NOREG) /* one source: the pair */
            return 0;
        WMI_LOOP(D[l] = f16_of_fp8(A[l] >> 8, e5, relu) << 16 |
                        f16_of_fp8(A[l], e5, relu));
        return 1;
    }
    int e5 = t == PT_E5M2X2;
    if ((t != PT_E4M3X2 && t != PT_E5M2X2) ||
        (s == PT_F32) != (in->b != WMI_NOREG))
        return 0;
    if (s == PT_F32) {
        const uint64_t *B = R[in->b];
        WMI_LOOP(D[l] = (uint64_t)wmi_float_to_fp8(F(A[l]), e5, relu) << 8 |
                        wmi_float_to_fp8(F(B[l]), e5, relu));
    } else if (s == PT_F16X2) {
        WMI_LOOP(D[l] = (uint64_t)wmi_float_to_fp8(H(A[l] >> 16), e5, relu)
                            << 8 |
                        wmi_float_to_fp8(H(A[l]), e5, relu));
    } else {
        return 0;
    }
    return 1;
}

static HOT int exec_cvt(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type, st2 = (wmi_type)in->type2;
    unsigned bits = wmi_type_bits(t);
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    wmi_rnd r = (wmi_rnd)in->rnd;
    int sat = (in->flags & F_SAT) != 0;
    if (t == PT_E4M3X2 || t == PT_E5M2X2 || st2 == PT_E4M3X2 ||
        st2 == PT_E5M2X2)
        return cvt_fp8(R, in, m);
    if (t == PT_F16X2 || t == PT_BF16X2)
        return cvt_pair(R, in, m);
    if (t >= PT_E4M3X2 || st2 >= PT_E4M3X2 || t == PT_NONE ||
        st2 == PT_NONE || t == PT_PRED)
        return 0;
    if (t == PT_F32 && st2 == PT_F32 && r == RND_NONE && !sat)
        WMI_LOOP(D[l] = (uint32_t)A[l]);
    else if (!sat && !wmi_type_float(t) && !wmi_type_float(st2)) {
        /* integer widening / narrowing: cvt_one's first case */
        unsigned sb = wmi_type_bits(st2), db = wmi_type_bits(t);
        if (wmi_type_signed(st2))
            WMI_LOOP(D[l] = trunc_bits(sext(A[l], sb), db));
        else
            WMI_LOOP(D[l] = trunc_bits(trunc_bits(A[l], sb), db));
    } else
        WMI_LOOP(D[l] = cvt_one(t, st2, A[l], r, sat));
    if (wmi_type_signed(t) && bits < 64)
        WMI_LOOP(D[l] = trunc_bits(D[l], bits));
    return 1;
}

/* cvta: a state-space address to a generic one (its window's base added)
   or back (.to). */
static void exec_cvta(uint64_t (*R)[32], const wmi_insn *in, uint32_t m,
                      int fast)
{
    unsigned bits = wmi_type_bits((wmi_type)in->type);
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    uint64_t base = in->space == SP_SHARED ? WMI_SHARED_WIN
                    : in->space == SP_LOCAL ? WMI_LOCAL_WIN
                    : in->space == SP_PARAM ? WMI_PARAM_WIN : 0;
    if ((in->flags & F_TO) && (bits == 64 || bits == 0) && fast)
        WMI_LOOP(D[l] = A[l] - base);
    else if (in->flags & F_TO)
        WMI_LOOP(D[l] = trunc_bits(A[l] - base, bits ? bits : 64));
    else
        /* .const lives in the global window, 64-bit like .global */
        WMI_LOOP(D[l] = trunc_bits(A[l], in->space == SP_GLOBAL ||
                                             in->space == SP_CONST
                                         ? 64 : 32) + base);
}

#endif
