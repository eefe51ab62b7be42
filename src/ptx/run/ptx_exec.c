/*
 * ptx_exec.c -- the warp interpreter: runs one warp's lanes in lockstep
 * until they exit or wait at a barrier, and turns every memory instruction
 * into a wm_access for the aggregator.
 *
 * Divergence (docs/design/interpreter.md §3): every lane has its own pc and
 * each step executes the instruction at the lowest pc of the ready lanes,
 * for exactly the lanes sitting there (w->act at w->cur).  nvcc and LLVM
 * place join blocks after both arms and loop exits after loops, so the
 * lowest-pc rule reconverges where an immediate-post-dominator stack would.
 * The common case -- all ready lanes at one pc -- costs nothing extra:
 * `omin` caches the lowest pc of the other ready lanes and only a step that
 * reaches it (or a branch) rescans the lanes.
 *
 * Registers: R[slot][lane], 64 raw bits each (see ptx_int.h).  Integer
 * arithmetic runs on unsigned types and wraps as PTX does; 32-lane loops
 * over a full mask are plain loops the compiler vectorises.
 *
 * Layout: the per-opcode helpers (exec_*, do_*) come first; the loop,
 * wmi_ptx_warp_run at the end, is one switch whose cases each call one
 * helper, plus the steps that move the pc (branches, calls, barriers).
 * Faults and address resolution sit beneath this file and the opcode
 * families it dispatches to: ptx_fault.c, with resolve (per lane) from
 * ptx_resolve.h.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "ptx_exec_int.h"

#include <math.h>
#include <stdio.h>

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
#endif


/* ---- scheduling --------------------------------------------------------- */

/*
 * The lowest pc among lanes: w->cur and w->act (the lanes there), and in
 * *omin the next lowest pc (UINT32_MAX if none).
 */
static inline void lowest_pc(wmi_warp *w, uint32_t lanes, uint32_t *omin)
{
    if (lanes == WMI_FULL) { /* a converged warp (its start): one pass */
        uint32_t diff = 0;
        for (unsigned l = 1; l < 32; l++)
            diff |= w->pc[l] ^ w->pc[0];
        if (!diff) {
            w->cur = w->pc[0];
            w->act = lanes;
            *omin = UINT32_MAX;
            return;
        }
    }
    uint32_t best = UINT32_MAX, second = UINT32_MAX, act = 0;
    for (uint32_t t = lanes; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        uint32_t p = w->pc[l];
        if (p < best) {
            second = best;
            best = p;
            act = 1u << l;
        } else if (p == best) {
            act |= 1u << l;
        } else if (p < second) {
            second = p;
        }
    }
    w->cur = best;
    w->act = act;
    *omin = second;
}

/* reselect with calls: the deepest lanes first (a call completes for its
   lanes before their caller goes on), then the lowest pc among them;
   *omin only counts lanes of that depth, the only ones that can merge. */
static int reselect_depth(wmi_cta *c, wmi_warp *w, uint32_t ready,
                          uint32_t *omin)
{
    uint32_t d = 0, deepest = 0;
    for (uint32_t t = ready; t; t &= t - 1) {
        unsigned l = (unsigned)__builtin_ctz(t);
        if (w->depth[l] > d) {
            d = w->depth[l];
            deepest = 0;
        }
        if (w->depth[l] == d)
            deepest |= 1u << l;
    }
    lowest_pc(w, deepest, omin);
    w->gdepth = d;
    wmi_ptx_group(c, w);
    return 1;
}

/*
 * Pick the next group: the lowest pc over ready lanes.  Lanes in w->act
 * must already have their pc stored.  Returns 0 when no lane is ready.
 */
static int reselect(wmi_cta *c, wmi_warp *w, uint32_t *omin)
{
    uint32_t ready = w->live & ~w->wait;
    if (!ready) {
        w->act = 0;
        return 0;
    }
    if (c->has_calls)
        return reselect_depth(c, w, ready, omin);
    lowest_pc(w, ready, omin);
    return 1;
}

static void store_pcs(wmi_warp *w, uint32_t lanes, uint32_t pc)
{
    for (unsigned l = 0; l < 32; l++)
        if (lanes >> l & 1)
            w->pc[l] = pc;
}

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

static HOT int exec_add(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
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

static HOT int exec_cvt(uint64_t (*R)[32], const wmi_insn *in, uint32_t m)
{
    wmi_type t = (wmi_type)in->type, st2 = (wmi_type)in->type2;
    unsigned bits = wmi_type_bits(t);
    const uint64_t *A = R[in->a];
    uint64_t *D = R[in->d];
    wmi_rnd r = (wmi_rnd)in->rnd;
    int sat = (in->flags & F_SAT) != 0;
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

/* ---- the loop's prologue and epilogue ---------------------------------- */

/* The lanes of act that run the instruction: all of them, or those whose
   guard predicate (@p, @!p) holds. */
static inline uint32_t guard_lanes(uint64_t (*R)[32], const wmi_insn *in,
                                   uint32_t act)
{
    if (in->guard == WMI_NOREG)
        return act;
    return act & (in->guard_neg ? ~pred_mask(R[in->guard])
                                : pred_mask(R[in->guard]));
}

/* Memory instructions run even with no lane active: a fully predicated-off
   one is still an executed instruction the model counts.  Every other
   instruction is skipped then. */
static inline int runs_without_lanes(wmi_op op)
{
    return op == OP_LD || op == OP_ST || op == OP_ATOM || op == OP_RED;
}

static wm_status fault_past_end(wmi_cta *c, const wmi_warp *w, uint32_t act,
                                uint32_t pc)
{
    return wmi_ptx_fault(c, w, first_lane(act), pc ? pc - 1 : 0, WM_ERR_FAULT,
                         "execution ran past the end of the kernel");
}

static wm_status fault_steps(wmi_cta *c, const wmi_warp *w, uint32_t act,
                             uint32_t pc)
{
    return wmi_ptx_fault(c, w, first_lane(act), pc, WM_ERR_LIMIT,
                         "step budget of %llu warp instructions "
                         "exhausted (an endless loop? raise "
                         "--max-steps)",
                         (unsigned long long)c->max_steps);
}

/* An instruction the model does not run, named by its text and, when the
   PTX carries line info, the source line it came from. */
static wm_status fault_unsupported(wmi_cta *c, const wmi_warp *w,
                                   const wmi_insn *in, uint32_t pc,
                                   uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    const char *txt = mod->texts + in->text, *file, *inl;
    uint32_t line, il;
    wmi_ptx_attr(mod, pc, &file, &line, &inl, &il);
    if (line) /* "... at kernel.cu:42": the source line nvcc means */
        return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_UNSUPPORTED,
                             "unsupported instruction '%.120s' at %s:%u",
                             txt, file, line);
    return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_UNSUPPORTED,
                         "unsupported instruction '%s'", txt);
}

/* A warp that waits on another (a spin-wait's poll, an mbarrier wait):
   its lanes resume after this instruction once the other warps ran. */
static void yield_warp(wmi_cta *c, wmi_warp *w, uint32_t act, uint32_t pc)
{
    store_pcs(w, act, pc + 1);
    c->yielded = 1;
}

/* ---- control flow -------------------------------------------------------- */

/* A kernel's exit (or ret) for the lanes of m: returns the lanes left. */
static uint32_t exit_lanes(wmi_cta *c, wmi_warp *w, uint32_t m, uint32_t act)
{
    w->live &= ~m;
    c->exited += wmi_popcount64(m);
    return act & ~m;
}

/*
 * bar.sync / bar.arrive for the lanes of m.  A lane that waits (not
 * .arrive) is marked waiting at barrier id and all of act resume after the
 * instruction; *wait says whether the lanes of m wait.
 */
static wm_status exec_bar(wmi_cta *c, wmi_warp *w, uint64_t (*R)[32],
                          const wmi_insn *in, uint32_t pc, uint32_t m,
                          uint32_t act, int *wait)
{
    unsigned l0 = first_lane(m);
    uint32_t id = (uint32_t)R[in->a][l0];
    uint32_t cnt = in->b != WMI_NOREG ? (uint32_t)R[in->b][l0] : 0;
    *wait = 0;
    if (id >= 16)
        return wmi_ptx_fault(c, w, l0, pc, WM_ERR_FAULT,
                             "barrier id %u out of range 0..15", id);
    wmi_barrier *b = &c->bars[id];
    if (b->arrived == 0) {
        b->pc = pc;
        b->pc2 = WMI_NOREG;
        b->expected = cnt;
    } else if (b->pc != pc) {
        b->pc2 = pc;
    }
    if (cnt && cnt % 32)
        return wmi_ptx_fault(c, w, l0, pc, WM_ERR_FAULT,
                             "barrier thread count %u is not a "
                             "multiple of the warp size", cnt);
    /* arrivals count whole warps for counted barriers (PTX ISA
       bar: "in units of warps") and threads otherwise */
    b->arrived += cnt ? 32 : wmi_popcount64(m);
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_arrive(c, w, id);
    if (in->flags & F_ARRIVE)
        return WM_OK;
    w->wait |= m;
    w->wait_at[id] |= m;
    for (unsigned l = 0; l < 32; l++)
        if (m >> l & 1)
            w->bar_of[l] = (uint8_t)id;
    store_pcs(w, act, pc + 1);
    *wait = 1;
    return WM_OK;
}

/* ---- the interpreter loop --------------------------------------------------- */

/* A helper that returns 0 met a form the model does not run. */
#define SUPPORTED(call)                                                      \
    do {                                                                      \
        if (!(call))                                                          \
            goto unsupported;                                                 \
    } while (0)

/* A helper's failure ends the run with its status. */
#define TRY(call)                                                            \
    do {                                                                      \
        st = (call);                                                          \
        if (st != WM_OK)                                                      \
            return st;                                                        \
    } while (0)

/* Pick the lanes to run next (reselect) and load their pc, mask, registers
   and code end (END: a call or return moves it); none ready ends the run. */
#define RESCHEDULE(END)                                                      \
    do {                                                                      \
        if (!reselect(c, w, &omin))                                           \
            return WM_OK;                                                     \
        pc = w->cur;                                                          \
        act = w->act;                                                         \
        R = w->r;                                                             \
        end = (END);                                                          \
    } while (0)


/* The dispatch switch: one case per opcode, each a few lines calling its
   helper (the one function allowed to be long). */
wm_status wmi_ptx_warp_run(wmi_cta *c, wmi_warp *w)
{
    const wm_ptx_module *mod = c->m;
    const wmi_insn *code = mod->code;
    uint64_t (*R)[32] = w->r;
    uint32_t omin = UINT32_MAX;
    wm_status st = WM_OK;
    if (!reselect(c, w, &omin))
        return WM_OK;
    uint32_t pc = w->cur, act = w->act;
    uint32_t end = c->has_calls ? w->gend : c->f->first + c->f->count;
    R = w->r;
    /* fast: specialised loops allowed; uni: slots uniform across lanes
       (all 0 under WMI_RUN_SLOW, which turns the uniform paths off) */
    const int fast = !(c->flags & WMI_RUN_SLOW);
    const uint8_t *uni = c->uni;
    int wait, yield;

    for (;;) {
        if (pc >= end)
            return fault_past_end(c, w, act, pc);
        const wmi_insn *in = &code[pc];
        assert(wmi_ptx_shape_ok(in));
        uint32_t m = guard_lanes(R, in, act);
        if (++c->steps > c->step_limit)
            return fault_steps(c, w, act, pc);
        /* warp_insts: run_cta adds the CTA's steps */
        c->thread_insts += wmi_popcount64(act);
        wmi_type t = (wmi_type)in->type;
        unsigned bits = wmi_type_bits(t);
        if (!m && !runs_without_lanes((wmi_op)in->op))
            goto next;
        switch ((wmi_op)in->op) {
        case OP_NOP:
            if (in->mod2 == WMI_NOP_WARPSYNC && (c->flags & WMI_RUN_CHECK))
                wmi_check_syncwarp(c, w);
            if ((in->sync & WMI_SYNC_FENCE) && (c->flags & WMI_RUN_CHECK))
                wmi_check_fence(c, w, in->sync);
            break;
        case OP_CP_COMMIT:
        case OP_CP_WAIT:
            break;
        case OP_MOV: exec_mov(mod, R, in, m); break;
        case OP_ADD: SUPPORTED(exec_add(R, in, m)); break;
        case OP_SUB: SUPPORTED(exec_sub(R, in, m)); break;
        case OP_MUL:
        case OP_MAD: SUPPORTED(exec_mul(R, in, m, fast)); break;
        case OP_FMA: SUPPORTED(exec_fma(R, in, m)); break;
        case OP_MUL24:
        case OP_MAD24: exec_mul24(R, in, m); break;
        case OP_DIV: SUPPORTED(exec_div(R, in, m)); break;
        case OP_REM: exec_rem(R, in, m); break;
        case OP_ABS: SUPPORTED(exec_abs(R, in, m)); break;
        case OP_NEG: SUPPORTED(exec_neg(R, in, m)); break;
        case OP_MIN:
        case OP_MAX: SUPPORTED(exec_minmax(R, in, m)); break;
        case OP_AND: IBIN(a & b); break;
        case OP_OR: IBIN(a | b); break;
        case OP_XOR: IBIN(a ^ b); break;
        case OP_NOT:
            if (t == PT_PRED)
                IBIN(a ^ 1);
            else
                IBIN(~a);
            break;
        case OP_CNOT: IBIN(a == 0); break;
        case OP_SHL: exec_shl(R, in, m, uni); break;
        case OP_SHR: exec_shr(R, in, m, uni); break;
        case OP_SHF: exec_shf(R, in, m); break;
        case OP_POPC: IBIN((uint64_t)__builtin_popcountll(a)); break;
        case OP_CLZ:
            IBIN(a == 0 ? bits
                        : (uint64_t)(__builtin_clzll(a) - (int)(64 - bits)));
            break;
        case OP_BFIND: exec_bfind(R, in, m); break;
        case OP_BREV: exec_brev(R, in, m); break;
        case OP_BFE: exec_bfe(R, in, m); break;
        case OP_BFI: exec_bfi(R, in, m); break;
        case OP_PRMT: exec_prmt(R, in, m); break;
        case OP_LOP3: exec_lop3(R, in, m); break;
        case OP_DP4A: exec_dp4a(R, in, m); break;
        case OP_SETP:
        case OP_SET: SUPPORTED(exec_setp(R, in, m, fast)); break;
        case OP_SELP: exec_selp(R, in, m); break;
        case OP_SLCT: exec_slct(R, in, m); break;
        case OP_CVT: SUPPORTED(exec_cvt(R, in, m)); break;
        case OP_CVTA: exec_cvta(R, in, m, fast); break;
        case OP_RCP: FOP(1.0 / (double)a); break;
        case OP_SQRT: FOP(sqrt((double)a)); break;
        case OP_RSQRT: FOP(1.0 / sqrt((double)a)); break;
        case OP_SIN: FOP(sin((double)a)); break;
        case OP_COS: FOP(cos((double)a)); break;
        case OP_LG2: FOP(log2((double)a)); break;
        case OP_EX2: FOP(exp2((double)a)); break;
        case OP_TANH: FOP(tanh((double)a)); break;
        case OP_COPYSIGN: FOP(copysign((double)b, (double)a)); break;
        case OP_TESTP: goto unsupported;
        case OP_LD:
        case OP_ST:
            if (in->space == SP_FRAME) {
                st = wmi_ptx_frame_ldst(c, w, in, pc, m, in->op == OP_ST);
                if (st != WM_OK)
                    return st;
                break;
            }
            if (in->space == SP_PARAM || in->space == SP_CONST) {
                /* parameter and constant reads: not memory traffic the
                   model counts; no access emitted */
                if (in->op == OP_ST)
                    goto unsupported;
            }
            st = wmi_ptx_ldst(c, w, in, pc, m, in->op == OP_ST);
            if (st != WM_OK)
                return st;
            if (in->mod2 == LD_ACQUIRE && in->op == OP_LD && c->nwarps > 1) {
                /* a spin-wait's poll: let the warp it waits for run */
                store_pcs(w, act, pc + 1);
                c->yielded = 1;
                return WM_OK;
            }
            break;
        case OP_ATOM:
        case OP_RED: TRY(wmi_ptx_atom(c, w, in, pc, m, in->op == OP_ATOM)); break;
        case OP_CP_ASYNC: TRY(wmi_ptx_cp_async(c, w, in, pc, m)); break;
        case OP_LDMATRIX: TRY(wmi_ptx_ldmatrix(c, w, in, pc, m)); break;
        case OP_MMA: TRY(wmi_ptx_mma(c, w, in, pc, m)); break;
        case OP_STMATRIX: TRY(wmi_ptx_stmatrix(c, w, in, pc, m)); break;
        case OP_WMMA_LOAD:
        case OP_WMMA_STORE: TRY(wmi_ptx_wmma_ldst(c, w, in, pc, m)); break;
        case OP_WMMA_MMA: TRY(wmi_ptx_wmma_mma(c, w, in, pc, m)); break;
        case OP_WGMMA: TRY(wmi_ptx_wgmma(c, w, in, pc, m)); break;
        case OP_WGMMA_SYNC: break; /* wgmma completes at issue */
        case OP_SETMAXNREG: TRY(wmi_ptx_setmaxnreg(c, w, in, pc, m)); break;
        case OP_SHFL: TRY(wmi_ptx_shfl(c, w, in, pc, m)); break;
        case OP_VOTE: TRY(wmi_ptx_vote(c, w, in, pc, m)); break;
        case OP_MATCH:
        case OP_REDUX: TRY(wmi_ptx_match_redux(c, w, in, pc, m)); break;
        case OP_ELECT:
            TRY(wmi_ptx_elect(c, w, in, pc, m)); /* ptx_elect.c */
            break;
        case OP_ACTIVEMASK:
            WMI_LOOP(R[in->d][l] = act);
            break;
        case OP_BRA:
            if (m == act) { /* uniform */
                pc = in->target;
                if (pc < omin)
                    continue;
                store_pcs(w, act, pc);
            } else { /* divergent: taken lanes go to target, the rest on */
                store_pcs(w, m, in->target);
                store_pcs(w, act & ~m, pc + 1);
            }
            RESCHEDULE(c->has_calls ? w->gend : end);
            continue;
        case OP_CALL:
            TRY(wmi_ptx_call(c, w, in, pc, m, act));
            RESCHEDULE(w->gend);
            continue;
        case OP_RET:
            if (w->gdepth > 0) { /* back to the callers */
                wmi_ptx_return(c, w, pc, m, act);
                RESCHEDULE(w->gend);
                continue;
            }
            goto exit_lanes; /* a kernel's ret ends its threads */
        case OP_EXIT:
        exit_lanes:
            act = exit_lanes(c, w, m, act);
            if (act)
                break;
            store_pcs(w, act, pc + 1);
            RESCHEDULE(c->has_calls ? w->gend : end);
            continue;
        case OP_BAR:
            TRY(exec_bar(c, w, R, in, pc, m, act, &wait));
            if (!wait)
                break;
            act &= ~m;
            if (act) {
                pc++;
                continue;
            }
            w->cur = pc + 1; /* where a blocked warp resumes */
            RESCHEDULE(c->has_calls ? w->gend : end);
            continue;
        case OP_MBAR:
            yield = 0;
            TRY(wmi_ptx_mbarrier(c, w, in, pc, m, &yield));
            if (yield) { /* a wait not complete: the producer may be */
                yield_warp(c, w, act, pc); /* another warp; let it run */
                return WM_OK;
            }
            break;
        case OP_CP_BULK: TRY(wmi_ptx_cp_bulk(c, w, in, pc, m)); break;
        case OP_BARC: /* ptx_cluster.c */
            TRY(wmi_ptx_barrier_cluster(c, w, in, pc, m, &yield));
            if (yield) { /* its lanes wait at pc, the others go on */
                store_pcs(w, act & ~m, pc + 1);
                c->yielded = 1;
                return WM_OK;
            }
            break;
        case OP_MAPA: TRY(wmi_ptx_mapa(c, w, in, pc, m)); break;
        case OP_TMA: TRY(wmi_ptx_tma(c, w, in, pc, m)); break; /* ptx_tma.c */
        case OP_TENSORMAP: /* ptx_tensormap.c */
            TRY(wmi_ptx_tensormap(c, w, in, pc, m));
            break;
        case OP_TEX: case OP_TLD4: case OP_SULD: case OP_SUST: case OP_TXQ:
            TRY(wmi_ptx_tex(c, w, in, pc, m)); /* ptx_tex.c */
            break;
        case OP_TRAP:
            return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_FAULT,
                                 "trap instruction executed");
        case OP_UNKNOWN:
        case OP_COUNT:
            goto unsupported;
        }
    next:
        pc++;
        if (pc >= omin) {
            /* reached lanes waiting further on: merge or pick anew */
            store_pcs(w, act, pc);
            RESCHEDULE(c->has_calls ? w->gend : end);
        }
        continue;
    unsupported:
        return fault_unsupported(c, w, in, pc, m);
    }
}
