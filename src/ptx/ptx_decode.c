/*
 * ptx_decode.c -- opcode strings ("ld.global.nc.v4.u32") to decoded
 * instruction fields, and the operand types an instruction reads.  Unknown
 * modifiers are ignored on purpose (cache hints, .sync.aligned, memory
 * ordering scopes, L2::evict_last ...): PTX syntax drifts with every CUDA
 * release, and none of those change the lane-to-address mapping.  An
 * unknown base opcode decodes to OP_UNKNOWN, which faults only when run.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

const char *const wmi_op_names[OP_COUNT] = {
#define X(name, base, fam, nd, smin, smax, vec, sem) base,
#include "ptx_ops.def"
#undef X
};

const wmi_shape wmi_op_shapes[OP_COUNT] = {
#define X(name, base, fam, nd, smin, smax, vec, sem) {nd, smin, smax, vec},
#include "ptx_ops.def"
#undef X
};

const uint8_t wmi_op_families[OP_COUNT] = {
#define X(name, base, fam, nd, smin, smax, vec, sem) fam,
#include "ptx_ops.def"
#undef X
};

/* Names and facts of the types; wmi_type_*_tab below must agree (checked
   by an assert in wmi_ptx_decode_opcode). */
static const struct {
    const char *name;
    uint8_t bits, sign, flt;
} type_info[PT_COUNT] = {
    [PT_NONE] = {"", 0, 0, 0},        [PT_PRED] = {"pred", 1, 0, 0},
    [PT_B8] = {"b8", 8, 0, 0},        [PT_B16] = {"b16", 16, 0, 0},
    [PT_B32] = {"b32", 32, 0, 0},     [PT_B64] = {"b64", 64, 0, 0},
    [PT_B128] = {"b128", 128, 0, 0},  [PT_U8] = {"u8", 8, 0, 0},
    [PT_U16] = {"u16", 16, 0, 0},     [PT_U32] = {"u32", 32, 0, 0},
    [PT_U64] = {"u64", 64, 0, 0},     [PT_S8] = {"s8", 8, 1, 0},
    [PT_S16] = {"s16", 16, 1, 0},     [PT_S32] = {"s32", 32, 1, 0},
    [PT_S64] = {"s64", 64, 1, 0},     [PT_F16] = {"f16", 16, 0, 1},
    [PT_F16X2] = {"f16x2", 32, 0, 0}, [PT_BF16] = {"bf16", 16, 0, 1},
    [PT_BF16X2] = {"bf16x2", 32, 0, 0}, [PT_TF32] = {"tf32", 32, 0, 1},
    [PT_F32] = {"f32", 32, 0, 1},     [PT_F64] = {"f64", 64, 0, 1},
    [PT_E4M3X2] = {"e4m3x2", 16, 0, 0}, [PT_E5M2X2] = {"e5m2x2", 16, 0, 0},
    [PT_S4] = {"s4", 4, 1, 0},        [PT_U4] = {"u4", 4, 0, 0},
    [PT_U16X2] = {"u16x2", 32, 0, 0}, [PT_S16X2] = {"s16x2", 32, 0, 0},
};

const uint8_t wmi_type_bits_tab[PT_COUNT] = {
    0,  1,  8,  16, 32, 64, 128, 8,  16, 32, 64, 8, 16,
    32, 64, 16, 32, 16, 32, 32,  32, 64, 16, 16, 4, 4, 32, 32,
};

const uint8_t wmi_type_flags_tab[PT_COUNT] = {
    [PT_S8] = 1,  [PT_S16] = 1,  [PT_S32] = 1, [PT_S64] = 1, [PT_S4] = 1,
    [PT_F16] = 2, [PT_BF16] = 2, [PT_TF32] = 2, [PT_F32] = 2, [PT_F64] = 2,
};

static int eq(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* Does s (n bytes) hold lit at offset off? */
static int has_at(const char *s, size_t n, size_t off, const char *lit)
{
    size_t l = strlen(lit);
    return off <= n && n - off >= l && memcmp(s + off, lit, l) == 0;
}

static wmi_type parse_type(const char *s, size_t n)
{
    for (int t = PT_PRED; t < PT_COUNT; t++)
        if (eq(s, n, type_info[t].name))
            return (wmi_type)t;
    return PT_NONE;
}

static const struct {
    const char *name;
    wmi_op op;
} bases[] = {
    {"nop", OP_NOP},       {"mov", OP_MOV},       {"add", OP_ADD},
    {"sub", OP_SUB},       {"mul", OP_MUL},       {"mad", OP_MAD},
    {"fma", OP_FMA},       {"mul24", OP_MUL24},   {"mad24", OP_MAD24},
    {"div", OP_DIV},       {"rem", OP_REM},       {"abs", OP_ABS},
    {"neg", OP_NEG},       {"min", OP_MIN},       {"max", OP_MAX},
    {"and", OP_AND},       {"or", OP_OR},         {"xor", OP_XOR},
    {"not", OP_NOT},       {"cnot", OP_CNOT},     {"shl", OP_SHL},
    {"shr", OP_SHR},       {"shf", OP_SHF},       {"popc", OP_POPC},
    {"clz", OP_CLZ},       {"bfind", OP_BFIND},   {"brev", OP_BREV},
    {"bfe", OP_BFE},       {"bfi", OP_BFI},       {"prmt", OP_PRMT},
    {"lop3", OP_LOP3},     {"dp4a", OP_DP4A},     {"dp2a", OP_DP2A},     {"sad", OP_SAD}, {"addc", OP_CARRY}, {"subc", OP_CARRY}, {"madc", OP_CARRY},     {"bmsk", OP_BMSK}, {"vabsdiff2", OP_VABSDIFF}, {"vabsdiff4", OP_VABSDIFF},   {"fns", OP_FNS},   {"szext", OP_SZEXT}, {"isspacep", OP_ISSPACEP},     {"setp", OP_SETP},
    {"set", OP_SET},       {"selp", OP_SELP},     {"slct", OP_SLCT},
    {"cvt", OP_CVT},       {"cvta", OP_CVTA},     {"rcp", OP_RCP},
    {"sqrt", OP_SQRT},     {"rsqrt", OP_RSQRT},   {"sin", OP_SIN},
    {"cos", OP_COS},       {"lg2", OP_LG2},       {"ex2", OP_EX2},
    {"tanh", OP_TANH},     {"copysign", OP_COPYSIGN}, {"testp", OP_TESTP},
    {"ld", OP_LD},         {"ldu", OP_LD},        {"st", OP_ST},
    {"atom", OP_ATOM},     {"red", OP_RED},       {"ldmatrix", OP_LDMATRIX},
    {"mma", OP_MMA},       {"bra", OP_BRA},       {"ret", OP_RET},
    {"exit", OP_EXIT},     {"trap", OP_TRAP},     {"bar", OP_BAR},
    {"barrier", OP_BAR},   {"shfl", OP_SHFL},     {"vote", OP_VOTE},
    {"match", OP_MATCH},   {"redux", OP_REDUX},   {"activemask", OP_ACTIVEMASK},
    {"call", OP_CALL},     {"membar", OP_NOP},    {"fence", OP_NOP},
    {"prefetch", OP_NOP},  {"prefetchu", OP_NOP}, {"nanosleep", OP_NOP},
    {"pmevent", OP_NOP},   {"griddepcontrol", OP_NOP}, {"discard", OP_NOP},
    {"applypriority", OP_NOP}, {"createpolicy", OP_CREATEPOLICY},
    {"brkpt", OP_NOP},     {"mbarrier", OP_MBAR},
    /* setmaxnreg: a register-allocation request, counted (ptx_wgmma.c) */
    {"setmaxnreg", OP_SETMAXNREG},
    {"tex", OP_TEX},       {"tld4", OP_TLD4},     {"suld", OP_SULD},
    {"sust", OP_SUST},     {"txq", OP_TXQ},       {"suq", OP_TXQ},
    {"elect", OP_ELECT},   {"wgmma", OP_WGMMA_SYNC}, /* ptx_wgmma.c */
    {"mapa", OP_MAPA},     {"tensormap", OP_TENSORMAP}, /* ptx_tensormap.c */
    {"wmma", OP_WMMA_MMA}, /* ptx_wmma.c */
    {"stmatrix", OP_STMATRIX}, /* ptx_stmatrix.c */
};

/* The mbarrier variant (cp.async.mbarrier.arrive too); variants not
   modelled (arrive_drop, the noComplete forms, pending_count) stay
   unknown and fault if run. */
static void decode_mbarrier(const char *s, size_t n, wmi_insn *in)
{
    in->mod2 = 0;
    if (n >= 8 && memcmp(s, "cp.async", 8) == 0) {
        in->mod = MB_CP_ARRIVE;
        in->mod2 = (uint8_t)wmi_has_word(s, n, "noinc");
    } else if (wmi_has_word(s, n, "arrive_drop") ||
               wmi_has_word(s, n, "noComplete") ||
        wmi_has_word(s, n, "pending_count"))
        in->op = OP_UNKNOWN;
    else if (wmi_has_word(s, n, "init"))
        in->mod = MB_INIT;
    else if (wmi_has_word(s, n, "arrive")) {
        in->mod = MB_ARRIVE;
        in->mod2 = (uint8_t)wmi_has_word(s, n, "expect_tx");
    } else if (wmi_has_word(s, n, "expect_tx"))
        in->mod = MB_EXPECT;
    else if (wmi_has_word(s, n, "complete_tx"))
        in->mod = MB_COMPLETE;
    else if (wmi_has_word(s, n, "try_wait") || wmi_has_word(s, n, "test_wait"))
        in->mod = MB_WAIT, in->mod2 = (uint8_t)wmi_has_word(s, n, "parity");
    else if (wmi_has_word(s, n, "inval"))
        in->mod = MB_INVAL;
    else
        in->op = OP_UNKNOWN;
    /* a CTA is its own cluster: shared::cluster addresses are its own */
    if (wmi_has_word(s, n, "shared::cluster"))
        in->space = SP_SHARED;
}

/* The integer forms whose opcode or modifiers need more than the words:
   the carry forms (OP_CARRY), vabsdiff2/4 and isspacep. */
static void decode_int_forms(const char *s, size_t n, wmi_insn *in)
{
    /* add.cc, sub.cc, mad.cc and addc, subc, madc: OP_CARRY */
    if ((in->flags & F_CC) &&
        (in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MAD)) {
        in->mod = in->op == OP_ADD   ? CARRY_ADD
                  : in->op == OP_SUB ? CARRY_SUB
                                     : CARRY_MAD;
        in->op = OP_CARRY;
    } else if (in->op == OP_CARRY) {
        in->mod = (uint8_t)((s[0] == 'a'   ? CARRY_ADD
                             : s[0] == 's' ? CARRY_SUB
                                           : CARRY_MAD) |
                            CARRY_IN);
    }
    if (in->op == OP_VABSDIFF) /* bit 1: the 4-way form; bit 0: .add */
        in->mod = (uint8_t)((s[8] == '4') << 1 | wmi_has_word(s, n, "add"));
    if (in->op == OP_ISSPACEP) { /* param::entry is the kernel's .param */
        in->type = PT_PRED;       /* (the result; the form has no type) */
        in->mod = (uint8_t)wmi_has_word(s, n, "shared::cluster");
        if (wmi_has_word(s, n, "param::entry"))
            in->space = SP_PARAM;
    }
}

/* cp.async.bulk.DST.SRC...: the non-tensor bulk copies; the tensor (TMA)
   and reduce forms stay unknown, prefetch is a no-op. */
static void decode_bulk(const char *s, size_t n, wmi_insn *in)
{
    if (wmi_has_word(s, n, "commit_group")) {
        in->op = OP_CP_COMMIT;
        return;
    }
    if (wmi_has_word(s, n, "wait_group")) {
        in->op = OP_CP_WAIT;
        return;
    }
    if (wmi_has_word(s, n, "prefetch")) {
        in->op = OP_NOP;
        return;
    }
    if (wmi_has_word(s, n, "tensor")) { /* TMA (ptx_tma.c) */
        in->op = OP_TMA;
        wmi_ptx_tma_decode(s, n, in);
        return;
    }
    if (n < 14 || s[13] != '.') {
        in->op = OP_UNKNOWN;
        return;
    }
    /* the first space word is the destination, the second the source */
    const char *q = s + 14, *e = s + n;
    wmi_space sp[2] = {SP_GENERIC, SP_GENERIC};
    unsigned k = 0;
    while (q < e && k < 2) {
        const char *d = q;
        while (d < e && *d != '.')
            d++;
        size_t wl = (size_t)(d - q);
        if ((wl == 6 && memcmp(q, "global", 6) == 0))
            sp[k++] = SP_GLOBAL;
        else if (wl >= 6 && memcmp(q, "shared", 6) == 0)
            sp[k++] = SP_SHARED;
        q = d + 1;
    }
    if (k != 2 || wmi_has_word(s, n, "reduce") || wmi_has_word(s, n, "add")) {
        in->op = OP_UNKNOWN;
        return;
    }
    in->op = OP_CP_BULK;
    in->space = (uint8_t)sp[0];
    in->mod = (uint8_t)sp[1];
}

/* Modifier words and what they set. */
static void apply_mod(const char *s, size_t n, wmi_insn *in, int *ntypes)
{
    static const char *const cmps[] = {"eq",  "ne",  "lt",  "le",  "gt",
                                       "ge",  "lo",  "ls",  "hi",  "hs",
                                       "equ", "neu", "ltu", "leu", "gtu",
                                       "geu", "num", "nan"};
    static const char *const rnds[] = {"",    "rn",  "rz",  "rm",  "rp",
                                       "rni", "rzi", "rmi", "rpi", "rna"};
    static const char *const aops[] = {"add", "min", "max",  "inc", "dec",
                                       "and", "or",  "xor",  "exch", "cas"};
    wmi_type t = parse_type(s, n);
    if (t != PT_NONE) {
        /* cvt.dst.src, setp/set.dsttype.srctype: the first type is the
           destination, the second the source. */
        if (*ntypes == 0)
            in->type = (uint8_t)t;
        else if (*ntypes == 1)
            in->type2 = (uint8_t)t;
        else if (*ntypes == 2)
            in->mod2 = (uint8_t)t; /* mma: the type of B */
        (*ntypes)++;
        return;
    }
    if (in->op == OP_ATOM || in->op == OP_RED || in->op == OP_REDUX) {
        for (size_t i = 0; i < WM_ARRAY_LEN(aops); i++)
            if (eq(s, n, aops[i])) {
                in->mod = (uint8_t)i;
                return;
            }
    }
    if (in->op == OP_CREATEPOLICY && (eq(s, n, "range") || eq(s, n, "cvt"))) {
        in->mod = eq(s, n, "range") ? 1 : 2; /* else .fractional: 0 */
        return;
    }
    if ((in->op == OP_SETP || in->op == OP_SET) &&
        (eq(s, n, "lo") || eq(s, n, "hi"))) {
        /* the compare operators .lo/.hi, not mul's .lo/.hi halves */
        in->mod = eq(s, n, "lo") ? CMP_LO : CMP_HI;
        return;
    }
    if (eq(s, n, "global")) in->space = SP_GLOBAL;
    else if (eq(s, n, "shared") || eq(s, n, "shared::cta")) in->space = SP_SHARED;
    else if (eq(s, n, "shared::cluster")) /* ptx_cluster.c */
        in->space = SP_SHARED; /* the addresses tell whose CTA */
    else if (eq(s, n, "local")) in->space = SP_LOCAL;
    else if (eq(s, n, "param")) in->space = SP_PARAM;
    else if (eq(s, n, "const")) in->space = SP_CONST;
    else if (eq(s, n, "v2")) in->vec = 2;
    else if (eq(s, n, "v4")) in->vec = 4;
    else if (eq(s, n, "v8")) in->vec = 8;
    else if (eq(s, n, "wide")) in->flags |= F_WIDE;
    else if (eq(s, n, "hi")) in->flags |= F_HI;
    else if (eq(s, n, "lo")) in->flags |= F_LO;
    else if (eq(s, n, "sat") || eq(s, n, "satfinite")) in->flags |= F_SAT;
    else if (eq(s, n, "ftz")) in->flags |= F_FTZ;
    else if (eq(s, n, "relu")) in->flags |= F_RELU;
    else if (eq(s, n, "to")) in->flags |= F_TO;
    else if (eq(s, n, "trans")) in->flags |= F_TRANS;
    else if (eq(s, n, "clamp")) in->flags |= F_CLAMP;
    else if (eq(s, n, "wrap")) in->flags &= (uint16_t)~F_CLAMP;
    else if (eq(s, n, "cc")) in->flags |= F_CC;
    else if (eq(s, n, "shiftamt")) in->flags |= F_SHIFTAMT;
    else if (eq(s, n, "arrive")) in->flags |= F_ARRIVE;
    else if (eq(s, n, "and")) in->mod2 = BOOL_AND;
    else if (eq(s, n, "or")) in->mod2 = BOOL_OR;
    else if (eq(s, n, "xor")) in->mod2 = BOOL_XOR;
    else if (eq(s, n, "x1")) in->vec = 1;
    else if (eq(s, n, "x2")) in->vec = 2;
    else if (eq(s, n, "x4")) in->vec = 4;
    else if (eq(s, n, "l")) in->flags |= F_LEFT;
    else if (eq(s, n, "r")) in->flags &= (uint16_t)~F_LEFT;
    else if (eq(s, n, "row")) in->flags |= F_ROWA;
    else {
        for (size_t i = 0; i < WM_ARRAY_LEN(rnds); i++)
            if (i && eq(s, n, rnds[i])) {
                in->rnd = (uint8_t)i;
                return;
            }
        if (in->op == OP_SETP || in->op == OP_SET || in->op == OP_SLCT) {
            for (size_t i = 0; i < WM_ARRAY_LEN(cmps); i++)
                if (eq(s, n, cmps[i])) {
                    in->mod = (uint8_t)i;
                    return;
                }
        }
        if (in->op == OP_SHFL) {
            if (eq(s, n, "up")) in->mod = SHFL_UP;
            else if (eq(s, n, "down")) in->mod = SHFL_DOWN;
            else if (eq(s, n, "bfly")) in->mod = SHFL_BFLY;
            else if (eq(s, n, "idx")) in->mod = SHFL_IDX;
            return;
        }
        if (in->op == OP_VOTE) {
            if (eq(s, n, "all")) in->mod = VOTE_ALL;
            else if (eq(s, n, "any")) in->mod = VOTE_ANY;
            else if (eq(s, n, "uni")) in->mod = VOTE_UNI;
            else if (eq(s, n, "ballot")) in->mod = VOTE_BALLOT;
            return;
        }
        if (in->op == OP_MATCH) {
            if (eq(s, n, "all")) in->flags |= F_ALL;
            return;
        }
        if (in->op == OP_MMA && n >= 5 && s[0] == 'm' &&
            (s[1] == '1' || s[1] == '8')) {
            /* shape: m16n8k16 -> mod 16, m16n8k8 -> 8, m16n8k32 -> 32 */
            const char *k = memchr(s, 'k', n);
            if (k)
                in->mod = (uint8_t)atoi(k + 1);
            in->imm2 = (s[1] == '8') ? 8 : 16; /* M */
        }
        /* anything else: ignored (cache/ordering/scope hints) */
    }
}

void wmi_ptx_decode_opcode(const char *s, size_t n, wmi_insn *in)
{
    size_t i = 0, start;
    int ntypes = 0;
    for (int t = 0; t < PT_COUNT; t++) {
        assert(type_info[t].bits == wmi_type_bits_tab[t]);
        assert(type_info[t].sign == (wmi_type_flags_tab[t] & 1));
        assert(type_info[t].flt == (wmi_type_flags_tab[t] >> 1));
    }
    in->op = OP_UNKNOWN;
    in->vec = 1;
    in->mod2 = 0;
    while (i < n && s[i] != '.')
        i++;
    for (size_t b = 0; b < WM_ARRAY_LEN(bases); b++)
        if (eq(s, i, bases[b].name)) {
            in->op = (uint8_t)bases[b].op;
            break;
        }
    if (in->op == OP_ATOM || in->op == OP_RED || in->op == OP_REDUX)
        in->mod = AOP_NONE;
    /* cp.async forms and the bar/barrier spellings. */
    if (eq(s, i, "cp")) {
        if (has_at(s, n, 0, "cp.async")) {
            if (has_at(s, n, 8, ".bulk"))
                in->op = OP_CP_BULK; /* decode_bulk says which */
            else if (has_at(s, n, 8, ".commit_group"))
                in->op = OP_CP_COMMIT;
            else if (has_at(s, n, 8, ".wait_group") ||
                     has_at(s, n, 8, ".wait_all"))
                in->op = OP_CP_WAIT;
            else if (has_at(s, n, 8, ".mbarrier.arrive"))
                in->op = OP_MBAR; /* decode_mbarrier: MB_CP_ARRIVE */
            else if (has_at(s, n, 8, ".mbarrier"))
                in->op = OP_UNKNOWN;
            else
                in->op = OP_CP_ASYNC;
        } else if (has_at(s, n, 0, "cp.reduce.async.bulk.tensor")) {
            in->op = OP_TMA;
            wmi_ptx_tma_decode(s, n, in);
            return;
        }
    }
    if (in->op == OP_UNKNOWN)
        return;
    while (i < n) {
        i++; /* skip '.' */
        start = i;
        while (i < n && s[i] != '.') {
            if (s[i] == ':' && i + 1 < n && s[i + 1] == ':')
                i++;
            i++;
        }
        apply_mod(s + start, i - start, in, &ntypes);
    }
    if (in->op == OP_MBAR)
        decode_mbarrier(s, n, in);
    decode_int_forms(s, n, in);
    if (in->op == OP_CP_BULK)
        decode_bulk(s, n, in);
    if (wmi_ptx_is_tex(in->op))
        wmi_ptx_tex_decode(s, n, in);
    if (in->op == OP_WGMMA_SYNC)
        wmi_ptx_wgmma_decode(s, n, in);
    if (in->op == OP_TENSORMAP)
        wmi_ptx_tensormap_decode(s, n, in);
    if (in->op == OP_WMMA_MMA) {
        wmi_ptx_wmma_decode(s, n, in); /* load, store or mma */
        return;
    }
    if (in->op == OP_MMA)
        wmi_ptx_mma8_decode(s, n, in); /* 8- and 4-bit inputs */
    if (in->op == OP_STMATRIX && !wmi_has_word(s, n, "m8n8"))
        in->op = OP_UNKNOWN; /* the sm_100 m16n8 .b8 form */
    if (in->op == OP_SETMAXNREG)
        in->mod = (uint8_t)wmi_has_word(s, n, "inc");
    if (in->op == OP_LD && wmi_has_word(s, n, "acquire"))
        in->mod2 = LD_ACQUIRE;
    if ((in->op == OP_LD || in->op == OP_ST) && in->type == PT_B128)
        in->op = OP_UNKNOWN; /* a .b128 register: not modelled */
    in->sync = wmi_sync_decode(s, n, in->op);
    if (in->op == OP_BAR) {
        /* bar.sync / bar.arrive / barrier.sync, bar.red (popc, and, or) */
        if (has_at(s, n, 0, "bar.red") || has_at(s, n, 0, "barrier.red") ||
            has_at(s, n, 0, "barrier.cta.red")) {
            in->mod = wmi_has_word(s, n, "popc")  ? BAR_RED_POPC
                      : wmi_has_word(s, n, "and") ? BAR_RED_AND
                      : wmi_has_word(s, n, "or")  ? BAR_RED_OR
                                                  : 0;
            in->mod2 = 0; /* .and/.or name the reduction, not a bool op */
            if (!in->mod)
                in->op = OP_UNKNOWN;
        }
        if (has_at(s, n, 0, "bar.warp")) {
            in->op = OP_NOP; /* bar.warp.sync: lanes already in lockstep */
            in->mod2 = WMI_NOP_WARPSYNC; /* ... but it orders memory */
        }
        if (has_at(s, n, 0, "barrier.cluster")) { /* ptx_cluster.c */
            in->op = OP_BARC;
            in->mod = (uint8_t)wmi_has_word(s, n, "wait");
            in->mod2 = (uint8_t)wmi_has_word(s, n, "relaxed");
            in->flags &= (uint16_t)~F_ARRIVE;
        }
    }
    if ((in->op == OP_MOV || in->op == OP_ELECT) && in->type == PT_NONE)
        in->type = PT_B32; /* elect.sync: a lane id and a predicate */
}

wmi_type wmi_ptx_src_type(const wmi_insn *in, unsigned k)
{
    wmi_type t = (wmi_type)in->type;
    switch ((wmi_op)in->op) {
    case OP_SHL:
    case OP_SHR:
        return k == 1 ? PT_U32 : t;
    case OP_SHF:
        return k == 2 ? PT_U32 : t;
    case OP_MUL:
    case OP_MAD:
        if ((in->flags & F_WIDE) && k == 2) /* mad.wide adds a wide c */
            return wmi_type_bits(t) == 16 ? (wmi_type_signed(t) ? PT_S32 : PT_U32)
                                          : (wmi_type_signed(t) ? PT_S64 : PT_U64);
        return t;
    case OP_BFE:
        return k ? PT_U32 : t;
    case OP_BFI:
        return k >= 2 ? PT_U32 : t;
    case OP_CVT:
        return (wmi_type)in->type2;
    case OP_CREATEPOLICY: /* fraction; [a], sizes; an access property */
        return in->mod == 0 ? PT_F32 : in->mod == 1 ? (k ? PT_U32 : PT_U64)
                                                    : PT_B64;
    case OP_SETP:
    case OP_SET:
        return k == 2 ? PT_PRED : (in->op == OP_SET ? (wmi_type)in->type2 : t);
    case OP_SELP:
        return k == 2 ? PT_PRED : t;
    case OP_SLCT:
        return k == 2 ? (wmi_type)in->type2 : t;
    case OP_VOTE:
        return k == 0 ? PT_PRED : PT_U32;
    case OP_ELECT:
        return PT_U32;
    case OP_TMA:
        return wmi_ptx_tma_src_type(in, k);
    case OP_TENSORMAP:
        return wmi_ptx_tensormap_src_type(in, k);
    case OP_MAPA: /* an address, a rank */
        return k == 1 ? PT_U32 : t;
    case OP_SHFL:
    case OP_MATCH:
    case OP_REDUX:
        return k == 0 ? t : PT_U32;
    case OP_LD:
    case OP_LDMATRIX:
        return PT_U64;
    case OP_STMATRIX: /* [A], {rows} */
        return k == 0 ? PT_U64 : PT_B32;
    case OP_WMMA_LOAD: /* [A], stride */
        return k == 0 ? PT_U64 : PT_U32;
    case OP_WMMA_STORE: /* [A], {D}, stride */
        return k == 0 ? PT_U64 : k == 2 ? PT_U32 : t;
    case OP_WMMA_MMA:
        return k == 0 ? (wmi_type)in->type2 : k == 1 ? (wmi_type)in->mod2 : t;
    case OP_ST:
    case OP_ATOM:
    case OP_RED:
        return k == 0 ? PT_U64 : t;
    case OP_CP_ASYNC:
    case OP_BAR:
    case OP_LOP3:
    case OP_PRMT:
        return k == 0 && in->op == OP_CP_ASYNC ? PT_U64 : PT_U32;
    case OP_TESTP:
    case OP_COPYSIGN:
        return t;
    case OP_ISSPACEP:
        return PT_U64;
    case OP_CARRY:
        return t;
    case OP_VABSDIFF: /* a of atype, b of btype, c of dtype */
        return k == 0 ? (wmi_type)in->type2 : k == 1 ? (wmi_type)in->mod2 : t;
    case OP_FNS: /* mask, base, offset */
        return k == 2 ? PT_S32 : PT_U32;
    case OP_BMSK: /* (szext's a is of its type; counts are .u32) */
    case OP_SZEXT:
        return k == 0 && in->op == OP_SZEXT ? t : PT_U32;
    case OP_MBAR:
    case OP_CP_BULK:
        /* addresses (mbarrier [A]; bulk [A] [B] size [E]) and counts */
        return (k == 0 || (in->op == OP_CP_BULK && k != 2)) ? PT_U64 : PT_U32;
    case OP_TEX: case OP_TLD4: case OP_SULD: case OP_SUST: case OP_TXQ:
        return wmi_ptx_tex_src_type(in, k);
    case OP_WGMMA: /* descriptors (or A's registers), scale-d, immediates */
        return k < 2 ? PT_U64 : k == 2 ? PT_PRED : PT_S32;
    case OP_WGMMA_SYNC:
    case OP_SETMAXNREG:
        return PT_U32;
    case OP_UNKNOWN: case OP_NOP: case OP_MOV: case OP_ADD: case OP_SUB:
    case OP_FMA: case OP_MUL24: case OP_MAD24: case OP_DIV: case OP_REM:
    case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX: case OP_AND:
    case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_POPC:
    case OP_CLZ: case OP_BFIND: case OP_BREV: case OP_DP4A: case OP_DP2A:
    case OP_SAD:
    case OP_CVTA:
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS:
    case OP_LG2: case OP_EX2: case OP_TANH: case OP_CP_COMMIT:
    case OP_CP_WAIT: case OP_MMA: case OP_BRA: case OP_RET: case OP_EXIT:
    case OP_TRAP: case OP_ACTIVEMASK: case OP_CALL: case OP_COUNT:
    case OP_BARC:
        break;
    }
    if ((in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MIN ||
         in->op == OP_MAX) && t == PT_NONE)
        return PT_U32;
    return t;
}
