/*
 * ptx_insn.c -- one PTX instruction parsed into a wmi_insn (guard, opcode
 * and modifiers through ptx_decode.c, operands through ptx_operand.c), and
 * the .loc / .file line info, for the parser (ptx_parse.c).
 */
#include "ptx_parse_int.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- instructions -------------------------------------------------------- */

static int add_text(parser *p, size_t from, size_t to, uint32_t *out)
{
    wm_ptx_module *m = p->m;
    size_t cap = m->captexts;
    if (!wmi_grow((void **)&m->texts, &cap, m->ntexts + (to - from) + 1, 1, 16))
        return wmi_parse_nomem(p);
    m->captexts = cap;
    *out = (uint32_t)m->ntexts;
    int space = 0;
    for (size_t i = from; i < to; i++) {
        char c = p->s[i];
        if (c == '\n' || c == '\t' || c == ' ' || c == '\r') {
            space = 1;
            continue;
        }
        if (space && m->ntexts > *out)
            m->texts[m->ntexts++] = ' ';
        space = 0;
        m->texts[m->ntexts++] = c;
    }
    m->texts[m->ntexts++] = 0;
    return 1;
}

/*
 * Check the operand count against the opcode's ptx_ops.def row (and that
 * an instruction with a result has a type); the message names the opcode
 * as written and what it expected, at the opcode.
 */
static int check_arity(parser *p, const wmi_insn *in, tok optok,
                       unsigned nops)
{
    wmi_op op = (wmi_op)in->op;
    const wmi_shape *sh = &wmi_op_shapes[op];
    unsigned lo = sh->ndst + sh->nsrc_min, hi = sh->ndst + sh->nsrc_max;
    if (op == OP_BAR) { /* bar id[, count]; bar.red d, id, [count,] p */
        lo = in->mod ? 3 : 1;
        hi = lo + 1;
    }
    /* what computes a value or stores one needs its type (the VM reads
       the width from it) */
    if ((sh->ndst || op == OP_ST || op == OP_RED) && in->type == PT_NONE) {
        wm_diag_set(p->d, WM_ERR_PARSE, optok.off, optok.len,
                    "%.*s needs a type (.b32, .s32, .f32 ...)",
                    (int)optok.len, p->s + optok.off);
        return 0;
    }
    if (nops >= lo && nops <= hi)
        return 1;
    char want[32];
    if (lo == hi)
        snprintf(want, sizeof want, "%u operand%s", lo, lo == 1 ? "" : "s");
    else if (hi == lo + 1)
        snprintf(want, sizeof want, "%u or %u operands", lo, hi);
    else
        snprintf(want, sizeof want, "%u to %u operands", lo, hi);
    wm_diag_set(p->d, WM_ERR_PARSE, optok.off, optok.len,
                "%.*s needs %s, got %u", (int)optok.len, p->s + optok.off,
                want, nops);
    return 0;
}

/*
 * instruction := ['@' ['!'] pred] opcode [operand {, operand}] ;
 * start is the offset of the guard or opcode.
 */
/* A guard, "@%p" or "@!%p", if there is one. */
static int parse_guard(parser *p, wmi_insn *in)
{
    if (!wmi_lex_is_p(p, '@'))
        return 1;
    wmi_lex_next(p);
    if (wmi_lex_is_p(p, '!')) {
        in->guard_neg = 1;
        wmi_lex_next(p);
    }
    if (p->t.k != T_WORD)
        return wmi_parse_err(p, "expected a predicate after '@'");
    in->guard = wmi_parse_find_reg(p, p->s + p->t.off, p->t.len);
    if (in->guard == WMI_NOREG)
        return wmi_parse_err(p, "undeclared predicate '%.*s'", (int)p->t.len,
                             p->s + p->t.off);
    wmi_lex_next(p);
    return 1;
}

/* The comma-separated operands up to ';' (at most 8). */
static int parse_operands(parser *p, operand ops[8], unsigned *nops)
{
    *nops = 0;
    while (!wmi_lex_is_p(p, ';')) {
        if (p->t.k == T_EOF || wmi_lex_is_p(p, '}'))
            return wmi_parse_err(p, "expected ';' after the instruction");
        if (*nops >= 8)
            return wmi_parse_err(p, "too many operands");
        if (!wmi_parse_operand(p, &ops[*nops]))
            return 0;
        ++*nops;
        if (wmi_lex_is_p(p, ','))
            wmi_lex_next(p);
        else if (!wmi_lex_is_p(p, ';'))
            return wmi_parse_err(p, "expected ',' or ';' after an operand");
    }
    return 1;
}

/* Whether an ld/st.param names a call-sequence parameter (param0,
   func_retval0), which is not modelled: such an instruction faults as
   unsupported if run. */
static int unmodelled_param(const parser *p, const operand *ops,
                            unsigned nops)
{
    for (unsigned k = 0; k < nops; k++) {
        const operand *o = &ops[k];
        if (o->k != O_ADDR || !o->has_sym ||
            wmi_parse_find_var(p, p->s + o->soff, o->slen) >= 0 ||
            wmi_parse_find_fsym(p, p->s + o->soff, o->slen))
            continue;
        int known = 0;
        for (uint32_t i = 0; i < p->f->nparams; i++)
            known |= strlen(p->f->params[i].name) == o->slen &&
                     memcmp(p->f->params[i].name, p->s + o->soff, o->slen) == 0;
        if (!known)
            return 1;
    }
    return 0;
}

/* bra's label, resolved when its scope closes. */
static int add_label_ref(parser *p, const operand *ops, unsigned nops,
                         uint32_t idx)
{
    if (nops != 1 || ops[0].k != O_SYM)
        return wmi_parse_err(p, "expected a label after bra");
    int ok;
    PUSH(p->lrefs, p->nlrefs, p->caplrefs, ok);
    if (!ok)
        return wmi_parse_nomem(p);
    p->lrefs[p->nlrefs].off = ops[0].soff;
    p->lrefs[p->nlrefs].len = ops[0].slen;
    p->lrefs[p->nlrefs].insn = idx;
    p->lrefs[p->nlrefs].scope = p->scope;
    p->nlrefs++;
    return 1;
}

/* The destination operand: a register, "a|b", or a vector. */
/* A slot an instruction may write: a declared register or the sink "_",
   never a special register (read-only, and %envregN reads the slot that
   is always 0) nor a literal's. */
static int writable(uint32_t slot)
{
    return slot == SLOT_SINK ||
           (slot != WMI_NOREG && slot >= SLOT_SREG0 + SR_COUNT);
}

static int bind_dest(parser *p, wmi_insn *in, const operand *o)
{
    int ok = o->k == O_REG ? writable(o->slot) &&
                                 (o->slot2 == WMI_NOREG || writable(o->slot2))
                           : 1;
    for (unsigned i = 0; o->k == O_VEC && i < o->nvec && i < WMI_MAX_VEC; i++)
        ok &= writable(o->vec[i]);
    if (!ok) {
        wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len,
                    "a destination must be a declared register or '_' "
                    "(special registers and literals are read-only)");
        return 0;
    }
    if (o->k == O_REG) {
        in->d = o->slot;
        in->d2 = o->slot2;
        if (in->d2 != WMI_NOREG)
            in->flags |= F_DEST2;
        return 1;
    }
    if (o->k == O_VEC)
        return wmi_parse_src_slot(p, o, (wmi_type)in->type, &in->d);
    wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len,
                "expected a destination register");
    return 0;
}

/* An address operand as source nsrc: its base into *field and its
   offset into imm (source 0) or imm2 (source 1). */
static int bind_addr(parser *p, wmi_insn *in, const operand *o,
                     unsigned nsrc, uint32_t *field)
{
    int64_t off;
    if (!wmi_parse_addr_operand(p, o, (wmi_space)in->space, field, &off))
        return 0;
    if (nsrc == 0)
        in->imm = off;
    else if (nsrc == 1)
        in->imm2 = off;
    else if (off) /* cp.async.bulk's [mbar]: no field */
        return wmi_parse_err(
            p, "an offset in this address operand is not supported");
    return 1;
}

/* The source operands ops[k..nops) into a, b, c, e. */
static int bind_sources(parser *p, wmi_insn *in, const operand *ops,
                        unsigned k, unsigned nops)
{
    /* TMA: a multicast mask and a cache policy after [mbar], an im2col
       load's offsets before them (ptx_int.h); a 7th, an im2col multicast
       load's policy, is checked and not kept */
    uint32_t policy = WMI_NOREG;
    uint32_t *fields[7] = {&in->a, &in->b, &in->c, &in->e, &in->d2, &in->d,
                           &policy};
    unsigned nfields = in->op == OP_TMA ? 7 : 4;
    for (unsigned nsrc = 0; k < nops; k++, nsrc++) {
        const operand *o = &ops[k];
        if (nsrc >= nfields)
            return wmi_parse_err(p, "too many source operands");
        if (o->k == O_ADDR && o->tensor && p->coords) {
            /* [handle, {coordinates}]: two fields */
            if (nsrc > 2)
                return wmi_parse_err(p, "too many source operands");
            if (!wmi_parse_tex_address(p, o, wmi_ptx_src_type(in, nsrc + 1),
                                       fields[nsrc], fields[nsrc + 1]))
                return 0;
            nsrc++;
        } else if (o->k == O_ADDR) {
            if (!bind_addr(p, in, o, nsrc, fields[nsrc]))
                return 0;
        } else if (o->k == O_LIST) {
            return wmi_parse_err(p, "unexpected parenthesised list");
        } else {
            wmi_type t = in->op == OP_SETP && nsrc == 2 && o->k == O_LIT
                             ? PT_PRED
                             : wmi_ptx_src_type(in, nsrc);
            if (!wmi_parse_src_slot(p, o, t, fields[nsrc]))
                return 0;
        }
    }
    return 1;
}

/* cp.async.bulk.tensor and cp.reduce.async.bulk.tensor: the tensor
   operand [map, {coordinates}] is a load's second and a store's or a
   reduction's first, beside plain addresses ([dst] and [mbar] of a load,
   [src] of a store); a multicast load names its ctaMask.  The copy reads
   the fields these operands bind without checking (ptx_tma.c). */
static int tma_form_ok(const wmi_insn *in, const operand *ops, unsigned nops)
{
    int load = in->mod == TMA_LOAD;
    unsigned at = load ? 1 : 0, nplain = load ? 3 : 2;
    if (nops < nplain)
        return 0;
    for (unsigned k = 0; k < nplain; k++)
        if (ops[k].k != O_ADDR || (ops[k].tensor != 0) != (k == at))
            return 0;
    uint32_t mask = (in->rnd & TMA_F_IM2COL) ? in->d : in->d2;
    return !load || !(in->rnd & TMA_F_MULTICAST) ||
           (mask != WMI_NOREG && !(mask & WMI_VEC));
}

/* mbarrier: the form each operation takes (the PTX ISA's), or NULL when
   ops fit it.  The interpreter reads the result, the address and the
   count or phase from the places these forms bind without checking
   (ptx_async.c). */
static const char *mbar_form(const wmi_insn *in, const operand *ops,
                             unsigned nops)
{
    static const struct {
        unsigned mod, at, lo, hi; /* [addr] at ops[at], lo..hi operands */
        const char *form;
    } forms[] = {
        {MB_INIT, 0, 2, 2, "[addr], count"},
        {MB_ARRIVE, 1, 2, 3, "state, [addr]{, count}"},
        {MB_EXPECT, 0, 2, 2, "[addr], txCount"},
        {MB_COMPLETE, 0, 2, 2, "[addr], txCount"},
        {MB_WAIT, 1, 3, 4, "waitComplete, [addr], state|phaseParity"
                           "{, suspendTimeHint}"},
        {MB_INVAL, 0, 1, 1, "[addr]"},
        {MB_CP_ARRIVE, 0, 1, 1, "[addr]"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (forms[i].mod != in->mod)
            continue;
        unsigned lo = forms[i].lo;
        if (in->mod == MB_ARRIVE && (in->mod2 & 1))
            lo = 3; /* arrive.expect_tx: state, [addr], txCount */
        return nops >= lo && nops <= forms[i].hi &&
                       ops[forms[i].at].k == O_ADDR
                   ? NULL
                   : forms[i].form;
    }
    return NULL;
}

/* What a vector atom/red (sm_90) needs that in lacks, or NULL: .global
   (or generic) space; add on .v2/.v4 of f32, add/min/max on .v2/.v4/.v8 of
   f16 or bf16 and on .v2/.v4 of f16x2 or bf16x2; the data (and atom's
   result) as braced vectors of that many registers.  A scalar atom/red
   takes no vector. */
static const char *vec_atom_form(const wmi_insn *in, const operand *ops,
                                 unsigned nops)
{
    unsigned data = in->op == OP_ATOM ? 2 : 1; /* b's operand */
    int any = 0;
    for (unsigned k = 0; k < nops; k++)
        any |= ops[k].k == O_VEC;
    if (in->vec <= 1)
        return any ? "no vector operand without .v2, .v4 or .v8" : NULL;
    wmi_type t = (wmi_type)in->type;
    int half = t == PT_F16 || t == PT_BF16, pair = t == PT_F16X2 ||
                                                   t == PT_BF16X2;
    if (in->space != SP_GLOBAL && in->space != SP_GENERIC)
        return "a vector of elements in .global memory";
    if (!(t == PT_F32 || half || pair) ||
        (in->vec == 8 && !half) ||
        (in->mod != AOP_ADD &&
         (t == PT_F32 || (in->mod != AOP_MIN && in->mod != AOP_MAX))))
        return ".add on .v2/.v4 of .f32, or .add/.min/.max on .v2/.v4/.v8 "
               "of .f16/.bf16 and .v2/.v4 of .f16x2/.bf16x2";
    if (nops != data + 1 || ops[data].k != O_VEC ||
        ops[data].nvec != in->vec ||
        (in->op == OP_ATOM && (ops[0].k != O_VEC || ops[0].nvec != in->vec)))
        return in->op == OP_ATOM ? "{d...}, [a], {b...} with one register "
                                   "per element of the vector"
                                 : "[a], {b...} with one register per "
                                   "element of the vector";
    return NULL;
}

/* The form an integer instruction (bmsk, szext, vabsdiff, the carry
   forms, dp2a, isspacep) of opcode text s (n bytes) must have, or NULL
   when it has it. */
static const char *int_form(const wmi_insn *in, const char *s, size_t n)
{
    wmi_type t = (wmi_type)in->type;
    int w32 = t == PT_U32 || t == PT_S32;
    switch (in->op) {
    case OP_BMSK:
    case OP_SZEXT:
        if (!(wmi_has_word(s, n, "clamp") ^ wmi_has_word(s, n, "wrap")) ||
            (in->op == OP_BMSK ? t != PT_B32 : !w32))
            return in->op == OP_BMSK ? "bmsk.clamp.b32 or bmsk.wrap.b32"
                                     : "szext.{clamp,wrap}.{u32,s32}";
        return NULL;
    case OP_VABSDIFF:
        if (!w32 || (in->type2 != PT_U32 && in->type2 != PT_S32) ||
            (in->mod2 != PT_U32 && in->mod2 != PT_S32) ||
            ((in->mod & 1) && (in->flags & F_SAT)))
            return "vabsdiffN.dtype.atype.btype{.sat|.add} of .u32/.s32 "
                   "types";
        return NULL;
    case OP_CARRY: {
        int mad = (in->mod & 3) == CARRY_MAD;
        if ((!w32 && t != PT_U64 && t != PT_S64) ||
            mad != (in->c != WMI_NOREG) ||
            (mad && !(in->flags & (F_HI | F_LO))))
            return "a .u32/.s32/.u64/.s64 carry form (add.cc, addc, sub.cc, "
                   "subc: d, a, b; mad.lo.cc, madc.hi ...: d, a, b, c)";
        return NULL;
    }
    case OP_DP2A:
        return in->flags & (F_HI | F_LO) ? NULL : "dp2a.lo or dp2a.hi";
    case OP_ISSPACEP:
        return in->space != SP_GENERIC
                   ? NULL
                   : "isspacep.SPACE (global, shared, local, param, const)";
    default:
        return NULL;
    }
}

/* What the operands of some opcodes must be beyond their count. */
static int check_forms(parser *p, wmi_insn *in, tok optok,
                       const operand *ops, unsigned nops)
{
    wmi_op op = (wmi_op)in->op;
    wmi_type t = (wmi_type)in->type;
    if ((op == OP_MUL || op == OP_MAD) && (in->flags & F_WIDE) &&
        t != PT_U16 && t != PT_S16 && t != PT_U32 && t != PT_S32)
{
        wm_diag_set(p->d, WM_ERR_PARSE, optok.off, optok.len,
                    "%.*s: .wide takes a 16- or 32-bit integer type",
                    (int)optok.len, p->s + optok.off);
        return 0;
    }
    if (op == OP_MOV && ((in->d | in->a) & WMI_VEC) &&
        (((in->d & in->a) & WMI_VEC) ||
         wmi_type_bits((wmi_type)in->type) > 64))
        return wmi_parse_err(
            p,
            "%.*s packs or unpacks a vector of at most 64 bits "
            "into one register",
            (int)optok.len, p->s + optok.off);
    const char *want = int_form(in, p->s + optok.off, optok.len);
    if (want)
        return wmi_parse_err(p, "%.*s: expected %s", (int)optok.len,
                             p->s + optok.off, want);
    if (op == OP_CP_ASYNC) {
        /* cp.async [dst], [src], cp-size[, src-size] */
        if (nops < 3 || ops[2].k != O_LIT)
            return wmi_parse_err(p, "expected cp.async [dst], [src], size");
        in->mod = (uint8_t)ops[2].l.bits;
    }
    if ((op == OP_LD || op == OP_ST || op == OP_ATOM || op == OP_RED ||
         op == OP_LDMATRIX || op == OP_STMATRIX || op == OP_WMMA_LOAD ||
         op == OP_WMMA_STORE) &&
        (nops < 2 || ops[op == OP_ST || op == OP_RED || op == OP_STMATRIX ||
                                 op == OP_WMMA_STORE
                             ? 0
                             : 1]
                             .k != O_ADDR))
        return wmi_parse_err(p, "expected an address operand in brackets");
    if (op == OP_TENSORMAP &&
        wmi_has_word(p->s + optok.off, optok.len, "cp_fenceproxy") &&
        (nops != 3 || ops[0].k != O_ADDR || ops[1].k != O_ADDR))
        return wmi_parse_err(p, "%.*s takes [dst], [src], size",
                             (int)optok.len, p->s + optok.off);
    const char *mf = op == OP_MBAR ? mbar_form(in, ops, nops)
                     : op == OP_ATOM || op == OP_RED
                         ? vec_atom_form(in, ops, nops)
                         : NULL;
    if (mf)
        return wmi_parse_err(p, "%.*s takes %s", (int)optok.len,
                             p->s + optok.off, mf);
    if (op == OP_TMA && !tma_form_ok(in, ops, nops))
        return wmi_parse_err(
            p, "%s",
            in->mod != TMA_LOAD ? "a tensor store or reduction takes "
                                  "[tensorMap, {coordinates}], [src]"
            : in->rnd & TMA_F_MULTICAST
                ? "a multicast tensor load takes [dst], [tensorMap, "
                  "{coordinates}], [mbar], {im2col offsets,} ctaMask"
                : "a tensor load takes [dst], [tensorMap, {coordinates}], "
                  "[mbar]");
    return 1;
}

/* wgmma.mma_async d, a, b, scale-d [, immediates]: the immediates (scale
   1 or -1, transpose 0 or 1; which ones, ptx_wgmma.c) into in->imm. */
static int bind_wgmma(parser *p, wmi_insn *in, tok optok,
                      const operand *ops, unsigned nops)
{
    static const unsigned flags[2][4] = {
        {WG_NEG_A, WG_NEG_B, WG_TRANS_A, WG_TRANS_B},
        {WG_NEG_A, WG_NEG_B, WG_TRANS_B, 0}}; /* A from registers */
    int areg = ops[1].k == O_VEC;
    unsigned nimm = wmi_ptx_wgmma_nimm(in, areg);
    if (nops != 4 + nimm) {
        wm_diag_set(p->d, WM_ERR_PARSE, optok.off, optok.len,
                    "%.*s needs %u operands, got %u", (int)optok.len,
                    p->s + optok.off, 4 + nimm, nops);
        return 0;
    }
    if (!bind_dest(p, in, &ops[0]) || !bind_sources(p, in, ops, 1, 4))
        return 0;
    in->imm = 0;
    for (unsigned k = 0; k < nimm; k++) {
        const operand *o = &ops[4 + k];
        int scale = k < 2;
        int64_t v = o->k == O_LIT && o->l.k == LIT_INT ? (int64_t)o->l.bits : 2;
        if (scale ? (v != 1 && v != -1) : (v != 0 && v != 1)) {
            wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                        scale ? "expected a scale immediate, 1 or -1"
                              : "expected a transpose immediate, 0 or 1");
            return 0;
        }
        if (scale ? v == -1 : v == 1)
            in->imm |= flags[areg][k];
    }
    return 1;
}

/* The operands of an opcode of the shape table into the instruction. */
static int bind_operands(parser *p, wmi_insn *in, tok optok,
                         const operand *ops, unsigned nops)
{
    wmi_op op = (wmi_op)in->op;
    const wmi_shape *sh = &wmi_op_shapes[op];
    if (op == OP_WGMMA)
        return bind_wgmma(p, in, optok, ops, nops);
    for (unsigned v = 0; v < nops; v++)
        if (ops[v].k == O_VEC && ops[v].nvec > 16) {
            wm_diag_set(p->d, WM_ERR_PARSE, ops[v].off, ops[v].len,
                        "too many vector elements");
            return 0;
        }
    /* mbarrier: arrive returns a state, the waits a predicate; bar.red
       its reduction */
    unsigned nd = op == OP_MBAR ? (in->mod == MB_ARRIVE || in->mod == MB_WAIT)
                  : op == OP_BAR ? in->mod != 0
                                 : sh->ndst;
    assert(nd <= nops);
    for (unsigned v = 0; v < nops; v++)
        if (ops[v].k == O_VEC && !sh->vec) {
            wm_diag_set(p->d, WM_ERR_PARSE, ops[v].off, ops[v].len,
                        "%.*s takes no vector operand", (int)optok.len,
                        p->s + optok.off);
            return 0;
        }
    if (nd && !bind_dest(p, in, &ops[0]))
        return 0;
    if (!bind_sources(p, in, ops, nd ? 1 : 0, nops))
        return 0;
    return check_forms(p, in, optok, ops, nops);
}

int wmi_parse_insn(parser *p, size_t start)
{
    wmi_insn in;
    memset(&in, 0, sizeof in);
    p->frame_ref = 0;
    in.guard = WMI_NOREG;
    in.d = in.d2 = in.a = in.b = in.c = in.e = WMI_NOREG;
    if (!parse_guard(p, &in))
        return 0;
    if (p->t.k != T_WORD)
        return wmi_parse_err(p, "expected an instruction");
    tok optok = p->t;
    wmi_ptx_decode_opcode(p->s + optok.off, optok.len, &in);
    /* [handle, {coordinates}]: textures, TMA and its tensor prefetch (a
       no-op whose operands are parsed) */
    p->coords = wmi_ptx_is_tex(in.op) || in.op == OP_TMA ||
                (in.op == OP_NOP &&
                 wmi_has_word(p->s + optok.off, optok.len, "tensor"));
    wmi_lex_next(p);
    operand ops[8];
    unsigned nops;
    if (!parse_operands(p, ops, &nops))
        return 0;
    in.loc = p->curloc;
    if (!add_text(p, start, p->t.off, &in.text))
        return 0;
    /* PTX line of the instruction: a cursor that only moves forward */
    for (; p->lpos < optok.off; p->lpos++)
        p->lline += p->s[p->lpos] == '\n';
    in.line = p->lline;
    if ((in.op == OP_LD || in.op == OP_ST) && in.space == SP_PARAM &&
        unmodelled_param(p, ops, nops))
        in.op = OP_UNKNOWN;
    wmi_op op = (wmi_op)in.op;
    unsigned nfields = nops; /* [handle, {coordinates}] counts twice */
    for (unsigned k = 0; k < nops && p->coords; k++)
        nfields += ops[k].k == O_ADDR && ops[k].tensor;
    if (op != OP_UNKNOWN && op != OP_CALL &&
        !check_arity(p, &in, optok, nfields))
        return 0;
    int ok = 1;
    if (op == OP_CALL)
        ok = wmi_parse_lower_call(p, &in, ops, nops);
    else if (op == OP_BRA)
        ok = add_label_ref(p, ops, nops, (uint32_t)p->m->ncode);
    else if (op != OP_UNKNOWN) /* else kept: it faults only when executed */
        ok = bind_operands(p, &in, optok, ops, nops);
    if (!ok)
        return 0;
    /* a .func's ld/st.param and any call-sequence .param are frame bytes */
    if ((op == OP_LD || op == OP_ST) && in.space == SP_PARAM &&
        (!p->f->is_entry || p->frame_ref))
        in.space = SP_FRAME;
    PUSH(p->m->code, p->m->ncode, p->m->capcode, ok);
    if (!ok)
        return wmi_parse_nomem(p);
    p->m->code[p->m->ncode++] = in;
    wmi_lex_next(p); /* ';' */
    return 1;
}

/* The index of the call record of instruction `in` (OP_CALL):
 * call := call[.uni] [(ret, ...),] callee [, (arg, ...)] [, proto] ;
 * callee: a function name or a register (indirect, via a prototype). */
int wmi_parse_lower_call(parser *p, wmi_insn *in, const operand *ops,
                         unsigned nops)
{
    wmi_call cl;
    memset(&cl, 0, sizeof cl);
    cl.callee = WMI_NOREG;
    unsigned k = 0;
    const operand *rets = NULL, *args = NULL;
    if (k < nops && ops[k].k == O_LIST)
        rets = &ops[k++];
    if (k >= nops)
        return wmi_parse_err(p, "expected the called function");
    const operand *callee = &ops[k++];
    if (k < nops && ops[k].k == O_LIST)
        args = &ops[k++];
    if (callee->k == O_REG) {
        in->a = callee->slot;
        cl.name = wmi_parse_dupn("", 0);
    } else if (callee->k == O_SYM) {
        cl.name = wmi_parse_dupn(p->s + callee->soff, callee->slen);
    } else {
        wm_diag_set(p->d, WM_ERR_PARSE, callee->off,
                    callee->len ? callee->len : 1,
                    "expected a function name or register");
        return 0;
    }
    if (!cl.name)
        return wmi_parse_nomem(p);
    const operand *lists[2] = {rets, args};
    for (int li = 0; li < 2; li++) {
        const operand *o = lists[li];
        unsigned max = li ? 32 : 4;
        if (!o)
            continue;
        if (o->nvec > max || o->long_vec) {
            free(cl.name);
            wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len,
                        "too many call %s", li ? "arguments" : "returns");
            return 0;
        }
        for (unsigned i = 0; i < o->nvec; i++) {
            const struct fsym *fs =
                o->lslen[i]
                    ? wmi_parse_find_fsym(p, p->s + o->lsoff[i], o->lslen[i])
                    : NULL;
            if (!fs) {
                free(cl.name);
                wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len,
                            "call %s %u is not a .param variable",
                            li ? "argument" : "return", i);
                return 0;
            }
            if (li) {
                cl.arg_off[i] = fs->off;
                cl.arg_size[i] = fs->size;
            } else {
                cl.ret_off[i] = fs->off;
                cl.ret_size[i] = fs->size;
            }
        }
        if (li)
            cl.narg = o->nvec;
        else
            cl.nret = o->nvec;
    }
    int ok;
    PUSH(p->m->calls, p->m->ncalls, p->m->capcalls, ok);
    if (!ok) {
        free(cl.name);
        return wmi_parse_nomem(p);
    }
    in->imm = (int64_t)p->m->ncalls;
    p->m->calls[p->m->ncalls++] = cl;
    p->f->has_call = 1;
    return 1;
}

/* ---- .loc / .file -------------------------------------------------------- */

static int line_number(parser *p, uint32_t *out)
{
    lit l = {LIT_INT, 0, 0.0};
    if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l) || l.k != LIT_INT)
        return wmi_parse_err(p, "expected a number");
    *out = (uint32_t)l.bits;
    wmi_lex_scan(p);
    return 1;
}

/* .loc file line col [, function_name label, inlined_at file line col] NL */
int wmi_parse_loc(parser *p)
{
    wmi_loc loc = {0};
    wmi_lex_scan(p);
    if (!line_number(p, &loc.file) || !line_number(p, &loc.line) ||
        !line_number(p, &loc.col))
        return 0;
    while (wmi_lex_is_p(p, ',')) {
        wmi_lex_scan(p);
        if (wmi_lex_is_w(p, "inlined_at")) {
            wmi_lex_scan(p);
            if (!line_number(p, &loc.ifile) || !line_number(p, &loc.iline) ||
                !line_number(p, &loc.icol))
                return 0;
        } else {
            while (p->t.k != T_NL && p->t.k != T_EOF && !wmi_lex_is_p(p, ','))
                wmi_lex_scan(p);
        }
    }
    if (p->t.k != T_NL && p->t.k != T_EOF)
        return wmi_parse_err(p, "unexpected text after .loc");
    /* Inlined code: nvcc writes the chain callee -> caller as .loc rows,
       each inlined_at naming an earlier row.  Charge the innermost row
       that lies in the outermost caller's file: a header helper goes to
       the user's call site, a template in the user's file keeps its own
       line (docs/design/ptx-front-end.md 3). */
    loc.root = loc.file;
    loc.afile = loc.file;
    loc.aline = loc.line;
    if (loc.ifile) {
        const wmi_loc *parent = NULL;
        for (size_t i = p->m->nlocs, k = 0; i-- > 1 && k < 512; k++) {
            const wmi_loc *q = &p->m->locs[i];
            if (q->file == loc.ifile && q->line == loc.iline &&
                q->col == loc.icol) {
                parent = q;
                break;
            }
        }
        loc.root = parent ? parent->root : loc.ifile;
        /* the outermost call site: the end of the inlined_at chain */
        loc.cfile = parent && parent->cfile ? parent->cfile : loc.ifile;
        loc.cline = parent && parent->cfile ? parent->cline : loc.iline;
        if (loc.file != loc.root) {
            loc.afile = parent ? parent->afile : loc.ifile;
            loc.aline = parent ? parent->aline : loc.iline;
        }
    }
    /* .loc F 0 C: code the compiler hoisted or made up; keep the nearest
       preceding line of the function beside it
       (docs/design/ptx-front-end.md 3) */
    if (loc.aline == 0)
        loc.near = p->lastline;
    else
        p->lastline = loc.aline;
    int ok;
    PUSH(p->m->locs, p->m->nlocs, p->m->caplocs, ok);
    if (!ok)
        return wmi_parse_nomem(p);
    p->m->locs[p->m->nlocs] = loc;
    if (p->in_asm != 2)
        p->curloc = (uint32_t)p->m->nlocs;
    p->m->nlocs++;
    if (p->in_asm)
        p->in_asm = 2;
    wmi_lex_next(p);
    return 1;
}

/* .file num "path" [, timestamp, size] NL */
int wmi_parse_file(parser *p)
{
    uint32_t num = 0;
    wmi_lex_scan(p);
    if (!line_number(p, &num))
        return 0;
    if (p->t.k != T_STR)
        return wmi_parse_err(p, "expected a file name string");
    int ok;
    PUSH(p->m->files, p->m->nfiles, p->m->capfiles, ok);
    if (!ok)
        return wmi_parse_nomem(p);
    wmi_file *f = &p->m->files[p->m->nfiles];
    f->num = num;
    f->path =
        wmi_parse_dupn(p->s + p->t.off + 1, p->t.len >= 2 ? p->t.len - 2 : 0);
    if (!f->path)
        return wmi_parse_nomem(p);
    p->m->nfiles++;
    wmi_lex_skip_line(p);
    return 1;
}
