/*
 * ptx_sig.c -- what a kernel's signature says: its name demangled with
 * template arguments and parameter types (an Itanium C++ ABI subset), each
 * parameter's declared type and how the body uses it, the parameters that
 * Triton and numba add, kernel selection by name, and the type checks of
 * launch arguments against parameters.
 *
 * Invariants:
 *   - Nothing here returns memory to free: demangled text goes into fixed
 *     buffers of the caller's wm_ptx_kernel_info (scratch for the use scan
 *     is freed before returning); a name too long or outside the subset
 *     falls back to the parser's identifier (wmi_func.pretty).
 *   - The use scan is flow-insensitive: a register slot is "derived from
 *     parameter p" if any instruction makes it from p by ld.param, mov,
 *     cvta or a 64-bit add/sub (pointer arithmetic keeps the base; a mul or
 *     cvt makes an index, not a pointer).  It iterates to a fixed point.
 */
#include "ptx_int.h"
#include "ptx_tma_int.h"

#include <assert.h>
#include <stdio.h>

/* ---- demangler (Itanium C++ ABI 5.1, the subset kernels use) ------------ */

#define DM_SUBS 48
#define DM_LEN 256

typedef struct dm {
    const char *s;
    int bad;
    char subs[DM_SUBS][DM_LEN]; /* substitution candidates, in order */
    unsigned nsubs;
    char targs[16][DM_LEN]; /* template arguments of the function name */
    unsigned ntargs;
    unsigned depth; /* nesting of dm_type, bounded: names come from input */
} dm;

/* Copy src into dst[0..n), truncating. */
static void scpy(char *dst, size_t n, const char *src)
{
    size_t k = strlen(src);
    if (k >= n)
        k = n - 1;
    memcpy(dst, src, k);
    dst[k] = 0;
}

static void cat(char *dst, const char *src)
{
    size_t n = strlen(dst), k = strlen(src);
    if (n + k >= DM_LEN)
        k = DM_LEN - 1 - n;
    memcpy(dst + n, src, k);
    dst[n + k] = 0;
}

static void add_sub(dm *d, const char *t)
{
    if (d->nsubs < DM_SUBS)
        scpy(d->subs[d->nsubs++], DM_LEN, t);
}

static int dm_type(dm *d, char *out);

/* <number> ::= [n] <decimal>; returns -1 when none. */
static long dm_num(dm *d)
{
    long v = 0;
    if (*d->s < '0' || *d->s > '9')
        return -1;
    while (*d->s >= '0' && *d->s <= '9') {
        if (v > 100000)
            return d->bad = 1, -1;
        v = v * 10 + (*d->s++ - '0');
    }
    return v;
}

/* <source-name> ::= <length> <identifier> */
static int dm_source(dm *d, char *out)
{
    long n = dm_num(d);
    if (n <= 0 || (long)strlen(d->s) < n || n >= DM_LEN)
        return d->bad = 1, 0;
    memcpy(out, d->s, (size_t)n);
    out[n] = 0;
    d->s += n;
    /* <abi-tag> ::= B <source-name>: numba tags every function; drop */
    while (*d->s == 'B') {
        char tag[DM_LEN];
        d->s++;
        if (!dm_source(d, tag))
            return 0;
    }
    return 1;
}

/* <substitution> ::= S_ | S <seq-id> _ | St | Sa | Ss */
static int dm_subst(dm *d, char *out)
{
    d->s++; /* S */
    if (*d->s == 't') {
        d->s++;
        char n[DM_LEN];
        if (!dm_source(d, n))
            return 0;
        scpy(out, DM_LEN, "std::");
        cat(out, n);
        return 1;
    }
    unsigned idx = 0;
    if (*d->s != '_') {
        unsigned v = 0;
        while ((*d->s >= '0' && *d->s <= '9') || (*d->s >= 'A' && *d->s <= 'Z')) {
            if (v > DM_SUBS)
                return d->bad = 1, 0;
            v = v * 36 + (unsigned)(*d->s <= '9' ? *d->s - '0' : *d->s - 'A' + 10);
            d->s++;
        }
        idx = v + 1;
    }
    if (*d->s++ != '_' || idx >= d->nsubs)
        return d->bad = 1, 0;
    scpy(out, DM_LEN, d->subs[idx]);
    return 1;
}

/* <template-args> ::= I <template-arg>+ E, appended to out as <a, b> */
static int dm_targs(dm *d, char *out, int own)
{
    d->s++; /* I */
    cat(out, "<");
    for (int first = 1; *d->s && *d->s != 'E'; first = 0) {
        char a[DM_LEN] = "";
        if (*d->s == 'L') { /* <expr-primary> ::= L <type> <value> E */
            char t[DM_LEN] = "";
            d->s++;
            if (!dm_type(d, t))
                return 0;
            if (*d->s == 'n') {
                cat(a, "-");
                d->s++;
            }
            size_t n = strlen(a);
            while (*d->s && *d->s != 'E' && n + 1 < DM_LEN)
                a[n++] = *d->s++;
            a[n] = 0;
            if (*d->s++ != 'E')
                return d->bad = 1, 0;
            if (strcmp(t, "bool") == 0)
                scpy(a, sizeof a, a[0] == '1' ? "true" : "false");
            else if (strcmp(t, "int") != 0) {
                char v[DM_LEN] = "(";
                cat(v, t);
                cat(v, ")");
                cat(v, a);
                scpy(a, sizeof a, v);
            }
        } else if (!dm_type(d, a)) {
            return 0;
        }
        if (own && d->ntargs < 16)
            scpy(d->targs[d->ntargs++], DM_LEN, a);
        if (!first)
            cat(out, ", ");
        cat(out, a);
    }
    if (*d->s++ != 'E')
        return d->bad = 1, 0;
    cat(out, ">");
    return 1;
}

/*
 * <name> ::= <nested-name> | <unscoped-name> [<template-args>]
 * <nested-name> ::= N [<CV-qualifiers>] <prefix> <unqualified-name> E
 * Every prefix is a substitution candidate.  *tmpl: the last component
 * had template arguments (the function's return type is then encoded).
 */
static int dm_name(dm *d, char *out, int own, int *tmpl)
{
    out[0] = 0;
    *tmpl = 0;
    if (*d->s == 'N') {
        d->s++;
        while (*d->s == 'K' || *d->s == 'V' || *d->s == 'r')
            d->s++;
        while (*d->s && *d->s != 'E') {
            *tmpl = 0;
            if (*d->s == 'S') {
                if (!dm_subst(d, out))
                    return 0;
                continue;
            }
            if (*d->s == 'I') {
                if (!dm_targs(d, out, own))
                    return 0;
                *tmpl = 1;
                add_sub(d, out);
                continue;
            }
            char c[DM_LEN];
            if (!dm_source(d, c))
                return 0;
            if (out[0])
                cat(out, "::");
            cat(out, c);
            add_sub(d, out);
        }
        if (*d->s++ != 'E')
            return d->bad = 1, 0;
        return 1;
    }
    if (*d->s == 'S') {
        if (!dm_subst(d, out))
            return 0;
    } else if (!dm_source(d, out)) {
        return 0;
    }
    if (*d->s == 'I') {
        add_sub(d, out); /* <unscoped-template-name> */
        if (!dm_targs(d, out, own))
            return 0;
        *tmpl = 1;
    }
    return 1;
}

static const struct {
    char code;
    const char *name;
} builtins[] = {
    {'v', "void"},  {'b', "bool"},  {'c', "char"},  {'a', "signed char"},
    {'h', "unsigned char"},  {'s', "short"},  {'t', "unsigned short"},
    {'i', "int"},   {'j', "unsigned int"},  {'l', "long"},
    {'m', "unsigned long"},  {'x', "long long"},
    {'y', "unsigned long long"},  {'n', "__int128"},
    {'o', "unsigned __int128"},  {'f', "float"},  {'d', "double"},
    {'e', "long double"},  {'g', "__float128"},  {'w', "wchar_t"},
    {'z', "..."},
};

/* <type>: builtin, P/R/K/V <type>, T_ template parameter, class name,
   substitution, each optionally with template arguments. */
static int dm_type_in(dm *d, char *out);

static int dm_type(dm *d, char *out)
{
    out[0] = 0;
    if (d->depth >= 32)
        return d->bad = 1, 0;
    d->depth++;
    int ok = dm_type_in(d, out);
    assert(d->depth > 0);
    d->depth--;
    return ok;
}

static int dm_type_in(dm *d, char *out)
{
    char c = *d->s;
    for (size_t i = 0; i < WM_ARRAY_LEN(builtins); i++)
        if (builtins[i].code == c) {
            d->s++;
            scpy(out, DM_LEN, builtins[i].name);
            return 1;
        }
    if (c == 'D') { /* Dh half, DF16_ _Float16 */
        if (d->s[1] == 'h') {
            d->s += 2;
            snprintf(out, DM_LEN, "__half");
            return 1;
        }
        if (strncmp(d->s, "DF16_", 5) == 0) {
            d->s += 5;
            snprintf(out, DM_LEN, "_Float16");
            return 1;
        }
        return d->bad = 1, 0;
    }
    if (c == 'P' || c == 'R' || c == 'O' || c == 'K' || c == 'V' ||
        c == 'r') {
        char in[DM_LEN];
        d->s++;
        if (!dm_type(d, in))
            return 0;
        scpy(out, DM_LEN, in);
        cat(out, c == 'P' ? "*" : c == 'R' ? "&" : c == 'O' ? "&&"
                 : c == 'K' ? " const" : c == 'V' ? " volatile"
                            : " __restrict__");
        add_sub(d, out);
        return 1;
    }
    if (c == 'T') { /* T_ | T <n> _ */
        long n = 0;
        d->s++;
        if (*d->s != '_')
            n = dm_num(d) + 1;
        if (*d->s++ != '_' || n < 0 || (unsigned long)n >= d->ntargs)
            return d->bad = 1, 0;
        scpy(out, DM_LEN, d->targs[n]);
        add_sub(d, out);
        return 1;
    }
    int tmpl;
    if (c == 'S') {
        if (!dm_subst(d, out))
            return 0;
        if (*d->s == 'I') {
            if (!dm_targs(d, out, 0))
                return 0;
            add_sub(d, out);
        }
        return 1;
    }
    if (c == 'N' || (c >= '0' && c <= '9')) {
        if (!dm_name(d, out, 0, &tmpl))
            return 0;
        if (c != 'N' || !tmpl)
            add_sub(d, out);
        return 1;
    }
    return d->bad = 1, 0;
}

/*
 * Demangle a kernel name: display (name with template arguments) and
 * signature (display plus parameter types).  args[i] receive the first
 * cap parameter types; returns their count, or -1 when name is not in the
 * subset (display and signature then hold fallback).
 */
static long demangle(const char *name, const char *fallback, char *display,
                     size_t dlen, char *sig, size_t slen, char args[][64],
                     size_t cap)
{
    dm local;
    memset(&local, 0, sizeof local);
    scpy(display, dlen, fallback);
    scpy(sig, slen, fallback);
    if (strncmp(name, "_Z", 2) != 0)
        return -1;
    local.s = name + 2;
    char nm[DM_LEN];
    int tmpl;
    if (!dm_name(&local, nm, 1, &tmpl))
        return -1;
    char ret[DM_LEN];
    if (tmpl && !dm_type(&local, ret)) /* template functions: return type */
        return -1;
    char list[512] = "(";
    long n = 0;
    while (*local.s) {
        char t[DM_LEN];
        if (!dm_type(&local, t))
            return -1;
        if (strcmp(t, "void") == 0 && n == 0 && !*local.s)
            break;
        if ((size_t)n < cap)
            scpy(args[n], 64, t);
        if (n)
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, t, sizeof list - strlen(list) - 1);
        n++;
    }
    strncat(list, ")", sizeof list - strlen(list) - 1);
    scpy(display, dlen, nm);
    scpy(sig, slen, nm);
    if (strlen(sig) + strlen(list) < slen)
        memcpy(sig + strlen(sig), list, strlen(list) + 1);
    return n;
}

/* ---- parameter use ------------------------------------------------------ */

/* The parameter whose bytes hold param-space offset off, or -1. */
static long param_at(const wmi_func *f, uint64_t off)
{
    assert(f->nparams == 0 || f->params);
    for (uint32_t i = 0; i < f->nparams; i++)
        if (off >= f->params[i].offset &&
            off < (uint64_t)f->params[i].offset + f->params[i].size)
            return (long)i;
    return -1;
}

static int is64(uint8_t t)
{
    return t == PT_B64 || t == PT_U64 || t == PT_S64;
}

/* Set use[p] to at least u (POINTER > ESCAPES > VALUE > NONE). */
static void raise_use(wm_ptx_use *use, uint32_t p, wm_ptx_use u)
{
    assert((unsigned)u <= WM_PTX_USE_SURFACE);
    static const int rank[] = {0, 1, 3, 2, 4, 5};
    if (rank[u] > rank[use[p]])
        use[p] = u;
}

/* The origin parameter of a source slot, or WMI_NOREG. */
static uint32_t from(const uint32_t *org, uint32_t nslots, uint32_t s)
{
    return s < nslots && !(s & WMI_VEC) ? org[s] : WMI_NOREG;
}

/* What scan_uses knows while it reads a body: each slot's origin
   parameter (WMI_NOREG: none) and which slots hold constants (cval). */
typedef struct scan {
    const wm_ptx_module *m;
    const wmi_func *f;
    wm_ptx_use *use;
    uint32_t *org;
    uint64_t *cval;
    uint8_t *isc;
} scan;

/* The parameter an instruction passes on to its destination: a loaded
   parameter, a moved or converted address, a 64-bit base plus an offset
   (WMI_NOREG: none). */
static uint32_t origin_of(const scan *sc, const wmi_insn *in)
{
    const wmi_func *f = sc->f;
    const uint32_t *org = sc->org;
    uint32_t src = WMI_NOREG;
    switch (in->op) {
    case OP_LD:
        if (in->space == SP_PARAM && in->a < f->nslots && sc->isc[in->a]) {
            long p = param_at(f, sc->cval[in->a] + (uint64_t)in->imm);
            if (p >= 0)
                src = (uint32_t)p;
        }
        break;
    case OP_MOV: case OP_CVTA: src = from(org, f->nslots, in->a); break;
    case OP_ADD: case OP_SUB:
        if (is64(in->type)) {
            src = from(org, f->nslots, in->a);
            if (src == WMI_NOREG && in->op == OP_ADD)
                src = from(org, f->nslots, in->b);
        }
        break;
    case OP_MAD: /* base + i * size, as LLVM (Triton) writes it:
                    mad.wide.s32 %rd, %r, 4, %rd_base */
        if ((in->flags & F_WIDE) || is64(in->type))
            src = from(org, f->nslots, in->c);
        break;
    default: break;
    }
    return src;
}

/* Each slot's origin, to a fixed point (at most 8 passes). */
static void find_origins(scan *sc)
{
    const wmi_func *f = sc->f;
    for (int changed = 1, pass = 0; changed && pass < 8; pass++) {
        changed = 0;
        for (uint32_t pc = f->first; pc < f->first + f->count; pc++) {
            assert(pc < sc->m->ncode);
            const wmi_insn *in = &sc->m->code[pc];
            uint32_t src = origin_of(sc, in);
            if (src != WMI_NOREG && in->d < f->nslots && !(in->d & WMI_VEC) &&
                sc->org[in->d] == WMI_NOREG) {
                sc->org[in->d] = src;
                changed = 1;
            }
        }
    }
}

/* An access at address a (pa: its origin); a stored 64-bit value (pb)
   may be a pointer kept for later. */
static void use_access(scan *sc, const wmi_insn *in, uint32_t pa,
                       uint32_t pb)
{
    if (pa != WMI_NOREG)
        raise_use(sc->use, pa, in->space == SP_PARAM ? WM_PTX_USE_ESCAPES
                                                     : WM_PTX_USE_POINTER);
    if (in->op != OP_LD && pb != WMI_NOREG)
        raise_use(sc->use, pb, is64(in->type) ? WM_PTX_USE_ESCAPES
                                              : WM_PTX_USE_VALUE);
}

/* MEMORY: the address operand is a pointer (ld st atom red, by default),
   or two addresses, or a texture or surface handle. */
static void use_memory(scan *sc, const wmi_insn *in, uint32_t pa,
                       uint32_t pb)
{
    switch (in->op) {
    case OP_CP_ASYNC: case OP_CP_BULK:
        /* [dst], [src]: both addresses; the global one may come
           straight from a pointer parameter (no cvta: template
           libraries pass the pointer to their inline asm) */
        if (pa != WMI_NOREG)
            raise_use(sc->use, pa, WM_PTX_USE_POINTER);
        if (pb != WMI_NOREG)
            raise_use(sc->use, pb, WM_PTX_USE_POINTER);
        break;
    case OP_TEX: case OP_TLD4: case OP_TXQ: case OP_SULD: case OP_SUST:
        /* the handle of a texture form (ptx_tex.c); suq decodes as
           txq, so its name says which object it asks about */
        if (pa != WMI_NOREG) {
            int surf = in->op == OP_SULD || in->op == OP_SUST ||
                       (in->op == OP_TXQ && sc->m->texts[in->text] == 's');
            raise_use(sc->use, pa,
                      surf ? WM_PTX_USE_SURFACE : WM_PTX_USE_TEXTURE);
        }
        break;
    default: use_access(sc, in, pa, pb); break;
    }
}

/* TENSOR: the matrix loads and stores take an address [A]; a tensor map
   may keep a pointer; fragments and descriptors tell nothing. */
static void use_tensor(scan *sc, const wmi_insn *in, uint32_t pa,
                       uint32_t pb)
{
    switch (in->op) {
    case OP_WMMA_LOAD: case OP_WMMA_STORE: case OP_STMATRIX: /* [A] */
        if (pa != WMI_NOREG)
            raise_use(sc->use, pa, WM_PTX_USE_POINTER);
        break;
    case OP_LDMATRIX: use_access(sc, in, pa, pb); break;
    case OP_TENSORMAP: /* ptx_tensormap.c */
        /* the map's address; the global_address it writes is a
           pointer kept in the map for a later copy */
        if (pa != WMI_NOREG && in->space == SP_GLOBAL)
            raise_use(sc->use, pa, WM_PTX_USE_POINTER);
        if (in->mod == WMI_TMAP_ADDR && pb != WMI_NOREG)
            raise_use(sc->use, pb, WM_PTX_USE_ESCAPES);
        break;
    default: break;
    }
}

/* What instruction in says of the parameters, by its family. */
static void note_use(scan *sc, const wmi_insn *in)
{
    const wmi_func *f = sc->f;
    uint32_t pa = from(sc->org, f->nslots, in->a);
    uint32_t pb = from(sc->org, f->nslots, in->b);
    if (in->op == OP_LD && in->space == SP_PARAM && in->a < f->nslots &&
        sc->isc[in->a]) {
        long p = param_at(f, sc->cval[in->a] + (uint64_t)in->imm);
        if (p >= 0)
            raise_use(sc->use, (uint32_t)p, WM_PTX_USE_VALUE);
        return;
    }
    switch (wmi_op_family(in->op)) {
    case WMI_FAM_MEMORY: use_memory(sc, in, pa, pb); break;
    case WMI_FAM_TENSOR: use_tensor(sc, in, pa, pb); break;
    case WMI_FAM_ARITH: /* a generic <-> state-space address */
        if (in->op == OP_CVTA && pa != WMI_NOREG)
            raise_use(sc->use, pa, WM_PTX_USE_POINTER);
        break;
    case WMI_FAM_CONTROL: /* a callee may keep any value */
        if (in->op == OP_CALL)
            for (uint32_t p = 0; p < f->nparams; p++)
                if (sc->use[p] == WM_PTX_USE_VALUE)
                    sc->use[p] = WM_PTX_USE_ESCAPES;
        break;
    case WMI_FAM_COLLECTIVE: break; /* masks and lane values */
    case WMI_FAM_COUNT: assert(!"an opcode without a family"); break;
    }
}

/* Scan f's body; use[] gets one entry per parameter.  0 on OOM (all
   parameters are then ESCAPES: nothing is refused). */
static int scan_uses(const wm_ptx_module *m, const wmi_func *f,
                     wm_ptx_use *use)
{
    scan sc = {m, f, use, NULL, NULL, NULL};
    sc.org = malloc((f->nslots ? f->nslots : 1) * sizeof *sc.org);
    sc.cval = malloc((f->nslots ? f->nslots : 1) * sizeof *sc.cval);
    sc.isc = calloc(f->nslots ? f->nslots : 1, 1);
    for (uint32_t i = 0; i < f->nparams; i++)
        use[i] = WM_PTX_USE_NONE;
    if (!sc.org || !sc.cval || !sc.isc) {
        for (uint32_t i = 0; i < f->nparams; i++)
            use[i] = WM_PTX_USE_ESCAPES;
        free(sc.org);
        free(sc.cval);
        free(sc.isc);
        return 0;
    }
    for (uint32_t s = 0; s < f->nslots; s++)
        sc.org[s] = WMI_NOREG;
    sc.isc[SLOT_ZERO] = 1; /* [name+off] addresses have base SLOT_ZERO */
    sc.cval[SLOT_ZERO] = 0;
    for (uint32_t k = 0; k < f->nconsts; k++)
        if (f->cslots[k] < f->nslots) {
            sc.isc[f->cslots[k]] = 1;
            sc.cval[f->cslots[k]] = f->cvals[k];
        }
    find_origins(&sc);
    for (uint32_t pc = f->first; pc < f->first + f->count; pc++)
        note_use(&sc, &m->code[pc]);
    free(sc.org);
    free(sc.cval);
    free(sc.isc);
    return 1;
}

/* ---- compilers' added parameters ------------------------------------------- */

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static int has_py_file(const wm_ptx_module *m)
{
    for (size_t i = 0; i < m->nfiles; i++)
        if (ends_with(m->files[i].path, ".py"))
            return 1;
    return 0;
}

/* numba's Array<float, 1, C, ...> -> element type and ndim; 0 if not. */
static int numba_array(const char *t, wm_ptx_type *elem, unsigned *ndim)
{
    static const struct {
        const char *c;
        wm_ptx_type t;
    } el[] = {{"float", WM_PTX_F32},        {"double", WM_PTX_F64},
              {"signed char", WM_PTX_I8},   {"unsigned char", WM_PTX_U8},
              {"short", WM_PTX_I16},        {"unsigned short", WM_PTX_U16},
              {"int", WM_PTX_I32},          {"unsigned int", WM_PTX_U32},
              {"long long", WM_PTX_I64},    {"unsigned long long", WM_PTX_U64},
              {"long", WM_PTX_I64},         {"unsigned long", WM_PTX_U64},
              {"__half", WM_PTX_F16},       {"_Float16", WM_PTX_F16},
              {"bool", WM_PTX_U8},          {"char", WM_PTX_I8}};
    if (strncmp(t, "Array<", 6) != 0)
        return 0;
    const char *c = strchr(t, ',');
    if (!c)
        return 0;
    size_t n = (size_t)(c - (t + 6));
    *elem = WM_PTX_NTYPES;
    for (size_t i = 0; i < WM_ARRAY_LEN(el); i++)
        if (strlen(el[i].c) == n && memcmp(el[i].c, t + 6, n) == 0)
            *elem = el[i].t;
    *ndim = (unsigned)atoi(c + 1);
    return *elem != WM_PTX_NTYPES && *ndim >= 1 && *ndim <= 8;
}

static const char *const numba_fields[] = {"meminfo", "parent", "nitems",
                                           "itemsize", "data"};

/* Fill role/added/group/ctype of numba's flattened arguments; 0 if the
   demangled arguments do not account for every parameter. */
static int numba_roles(wm_ptx_param_info *pi, size_t np, char args[][64],
                       long nargs)
{
    size_t p = 0;
    for (long a = 0; a < nargs && a < 64; a++) {
        wm_ptx_type elem;
        unsigned nd;
        if (numba_array(args[a], &elem, &nd)) {
            size_t n = 5 + 2 * (size_t)nd;
            if (p + n > np)
                return 0;
            for (size_t j = 0; j < n; j++) {
                wm_ptx_param_info *q = &pi[p + j];
                if (j < 5)
                    snprintf(q->role, sizeof q->role, "arg%ld.%s", a,
                             numba_fields[j]);
                else
                    snprintf(q->role, sizeof q->role, "arg%ld.%s[%zu]", a,
                             j < 5 + nd ? "shape" : "strides",
                             j < 5 + nd ? j - 5 : j - 5 - nd);
                q->added = j != 4;
                q->group = a;
                q->elem = elem;
                snprintf(q->ctype, sizeof q->ctype, "%s",
                         j == 4 ? args[a] : j < 2 ? "void*" : "long long");
            }
            p += n;
        } else {
            if (p >= np)
                return 0;
            snprintf(pi[p].role, sizeof pi[p].role, "arg%ld", a);
            scpy(pi[p].ctype, sizeof pi[p].ctype, args[a]);
            pi[p].group = a;
            p++;
        }
    }
    return p == np;
}

size_t wm_ptx_kernel_describe(const wm_ptx_module *m, size_t k,
                              wm_ptx_kernel_info *info,
                              wm_ptx_param_info *params, size_t cap)
{
    const wmi_func *f = m ? wmi_ptx_kernel(m, k) : NULL;
    wm_ptx_kernel_info ki;
    if (!info)
        info = &ki;
    memset(info, 0, sizeof *info);
    if (!f)
        return 0;
    info->name = f->name;
    info->nparams = f->nparams;
    info->static_smem = f->smem_static;
    info->dyn_smem = f->dyn_used;
    char args[64][64];
    long nargs = demangle(f->name, f->pretty, info->display,
                          sizeof info->display, info->signature,
                          sizeof info->signature, args, 64);
    info->origin = WM_PTX_FROM_CUDA;
    if (strncmp(f->name, "_Z", 2) != 0 && has_py_file(m))
        info->origin = WM_PTX_FROM_TRITON;
    for (long a = 0; a < nargs && a < 64; a++) {
        wm_ptx_type e;
        unsigned nd;
        if (numba_array(args[a], &e, &nd))
            info->origin = WM_PTX_FROM_NUMBA;
    }
    wm_ptx_param_info *pi = calloc(f->nparams ? f->nparams : 1, sizeof *pi);
    wm_ptx_use *use = calloc(f->nparams ? f->nparams : 1, sizeof *use);
    if (!pi || !use) {
        free(pi);
        free(use);
        memset(info, 0, sizeof *info);
        return 0;
    }
    scan_uses(m, f, use);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const wmi_param *pa = &f->params[i];
        wm_ptx_param_info *q = &pi[i];
        q->name = pa->name;
        q->kind = pa->kind;
        q->bits = pa->bits;
        q->count = pa->count;
        q->size = pa->size;
        q->offset = pa->offset;
        q->align = pa->align;
        q->declared_ptr = pa->ptr;
        q->use = use[i];
        q->group = (long)i;
        q->elem = WM_PTX_NTYPES;
        if (pa->count > 1)
            snprintf(q->type, sizeof q->type, ".%c%u[%u]", pa->kind,
                     pa->bits & 0xffu, pa->count & 0xffffu);
        else if (pa->kind == 'p')
            snprintf(q->type, sizeof q->type, ".pred");
        else
            snprintf(q->type, sizeof q->type, ".%c%u", pa->kind, pa->bits);
        if (info->origin == WM_PTX_FROM_CUDA && nargs == (long)f->nparams)
            scpy(q->ctype, sizeof q->ctype, args[i]);
    }
    info->ngroups = f->nparams;
    if (info->origin == WM_PTX_FROM_NUMBA) {
        if (numba_roles(pi, f->nparams, args, nargs))
            info->ngroups = (size_t)nargs;
        else
            info->origin = WM_PTX_FROM_CUDA;
    } else if (info->origin == WM_PTX_FROM_TRITON && f->nparams >= 2 &&
               pi[f->nparams - 1].declared_ptr &&
               pi[f->nparams - 2].declared_ptr) {
        /* Triton 3.3+ appends global_scratch and profile_scratch pointers
           to every kernel (they stay null unless the kernel needs them) */
        static const char *const scratch[] = {"global_scratch",
                                              "profile_scratch"};
        for (int j = 0; j < 2; j++) {
            wm_ptx_param_info *q = &pi[f->nparams - 2 + (size_t)j];
            scpy(q->role, sizeof q->role, scratch[j]);
            q->added = 1;
            q->group = -1;
        }
        info->ngroups = f->nparams - 2;
        for (size_t j = 0; j + 2 < f->nparams; j++)
            snprintf(pi[j].role, sizeof pi[j].role, "arg%zu", j);
    }
    if (params)
        memcpy(params, pi, (cap < f->nparams ? cap : f->nparams) * sizeof *pi);
    free(pi);
    free(use);
    return f->nparams;
}

/* ---- kernel selection ------------------------------------------------------ */

/* The display name without template arguments: "copy_kernel<float>" ->
   "copy_kernel" (n bytes). */
static size_t base_len(const char *display)
{
    const char *lt = strchr(display, '<');
    return lt ? (size_t)(lt - display) : strlen(display);
}

size_t wm_ptx_match_kernels(const wm_ptx_module *m, const char *name,
                            size_t *out, size_t cap)
{
    size_t nk = wm_ptx_nkernels(m), hits = 0;
    for (int rule = 0; rule < 5 && hits == 0; rule++) {
        for (size_t k = 0; k < nk; k++) {
            wm_ptx_kernel_info ki;
            if (rule > 0 || !name || !*name)
                wm_ptx_kernel_describe(m, k, &ki, NULL, 0);
            else
                ki.name = wmi_ptx_kernel(m, k)->name;
            int ok;
            if (!name || !*name)
                ok = 1;
            else if (rule == 0)
                ok = strcmp(ki.name, name) == 0;
            else if (rule == 1)
                ok = strcmp(ki.display, name) == 0 ||
                     strcmp(ki.signature, name) == 0;
            else if (rule == 2)
                ok = base_len(ki.display) == strlen(name) &&
                     memcmp(ki.display, name, strlen(name)) == 0;
            else if (rule == 3) /* the identifier after any namespace */
                ok = strcmp(wmi_ptx_kernel(m, k)->pretty, name) == 0 ||
                     (strrchr(wmi_ptx_kernel(m, k)->pretty, ':') &&
                      strcmp(strrchr(wmi_ptx_kernel(m, k)->pretty, ':') + 1, name) == 0);
            else
                ok = strncmp(ki.display, name, strlen(name)) == 0 ||
                     strncmp(ki.name, name, strlen(name)) == 0;
            if (ok) {
                if (hits < cap)
                    out[hits] = k;
                hits++;
            }
        }
        if (!name || !*name)
            break;
    }
    return hits;
}

/* ---- argument checks --------------------------------------------------------- */

static int is_float(wm_ptx_type t)
{
    return t == WM_PTX_F16 || t == WM_PTX_BF16 || t == WM_PTX_F32 ||
           t == WM_PTX_F64;
}

int wm_ptx_param_accepts_scalar(const wm_ptx_param_info *p, wm_ptx_type t,
                                char *err, size_t errlen)
{
    size_t sz = wm_ptx_type_size(t);
    const char *why = NULL;
    if (sz != p->size)
        why = "size";
    else if (p->kind == 'f' && !is_float(t))
        why = "integer for float";
    else if ((p->kind == 'u' || p->kind == 's') && is_float(t))
        why = "float for integer";
    else if (p->use == WM_PTX_USE_POINTER)
        why = "pointer";
    if (!why)
        return 1;
    if (err && errlen) {
        if (p->use == WM_PTX_USE_POINTER && sz == p->size)
            snprintf(err, errlen, "%s given for pointer parameter '%s' (pass "
                     "a buffer: TYPE[N])", wm_ptx_type_name(t), p->name);
        else
            snprintf(err, errlen, "%s given for %s parameter '%s'",
                     wm_ptx_type_name(t), p->type, p->name);
    }
    return 0;
}

int wm_ptx_param_accepts_buffer(const wm_ptx_param_info *p, char *err,
                                size_t errlen)
{
    int obj = p->use == WM_PTX_USE_TEXTURE || p->use == WM_PTX_USE_SURFACE;
    if (p->size == 8 && p->count == 1 && p->use != WM_PTX_USE_VALUE && !obj)
        return 1;
    if (err && errlen)
        snprintf(err, errlen, "a buffer given for %s parameter '%s', which "
                 "the kernel %s", p->type, p->name,
                 p->size != 8 ? "cannot take as a pointer (8 bytes)"
                 : obj ? (p->use == WM_PTX_USE_TEXTURE
                              ? "uses as a texture object handle"
                              : "uses as a surface object handle")
                       : "uses as a value, not as an address");
    return 0;
}

const char *wm_ptx_target(const wm_ptx_module *m)
{
    return m ? m->target : "";
}

const wm_arch *wm_arch_for_target(const char *target)
{
    if (!target || strncmp(target, "sm_", 3) != 0)
        return NULL;
    int sm = atoi(target + 3);
    const wm_arch *best = NULL;
    if (sm <= 0)
        return NULL;
    for (size_t i = 0; i < wm_arch_count(); i++) {
        const wm_arch *a = wm_arch_at(i);
        if (a->sm && (int)a->sm <= sm && (!best || a->sm > best->sm))
            best = a;
    }
    return best;
}

void wm_ptx_pick_arch(const wm_ptx_module *m, const wm_arch *given,
                      const char *how, wm_arch *out, char *note,
                      size_t notelen)
{
    const char *target = wm_ptx_target(m);
    const wm_arch *ta = wm_arch_for_target(target);
    char buf[96];
    if (given) {
        *out = *given;
        snprintf(buf, sizeof buf, "%s (%s)", out->name, how ? how : "--arch");
    } else if (ta) {
        *out = *ta;
        snprintf(buf, sizeof buf, "%s (from .target %s)", out->name, target);
    } else {
        *out = *wm_arch_default();
        snprintf(buf, sizeof buf, "%s (default: %s)", out->name,
                 *target ? "no profile for the .target" : "no .target");
    }
    if (note && notelen)
        snprintf(note, notelen, "%s", buf);
}
