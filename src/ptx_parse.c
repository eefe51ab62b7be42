/*
 * ptx_parse.c -- PTX text to a decoded module: a hand-written lexer and a
 * recursive-descent parser over module items and function bodies.
 *
 * The parser is tolerant where PTX drifts between releases (unknown
 * directives are skipped, unknown modifiers ignored, unknown opcodes kept
 * as OP_UNKNOWN) and strict where a mistake would change results (undeclared
 * registers, unknown labels and symbols, malformed operands are errors with
 * file:line:col).  Operands are lowered at once to register slots: an
 * immediate becomes a constant slot typed by the instruction (see
 * ptx_int.h), a symbol becomes a constant slot patched with its address at
 * function end and never shared with a literal
 * (docs/design/ptx-front-end.md 2).
 *
 * Lexing rules that matter (docs/design/ptx-front-end.md 1): .loc/.file/
 * .version/.target/.address_size end at the newline, everything else at
 * ';'; words contain dots and "::"; 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX are hex
 * floats; register ranges %r<N>; braces are both vector operands and
 * scopes.
 */
#include "ptx_int.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- growable arrays ------------------------------------------------- */

#define PUSH(arr, n, cap, ok)                                                  \
    (wmi_grow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr), 16)             \
         ? ((ok) = 1)                                                          \
         : ((ok) = 0))

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* ---- lexer --------------------------------------------------------------- */

typedef enum { T_EOF, T_NL, T_WORD, T_NUM, T_STR, T_PUNCT } tkind;

typedef struct tok {
    tkind k;
    size_t off, len;
} tok;

/* A named register or register range in scope. */
typedef struct regname {
    const char *name; /* points into the source */
    size_t len;
    uint32_t slot;
    uint32_t count; /* 0: single register, else range name<count> */
    int depth;
    uint32_t prev; /* the entry of the same name this one hides, or none */
} regname;

/* Labels are scoped by braces (inline assembly repeats its labels in
   every copy): a reference resolves to the definition in its own block or
   the nearest enclosing one.  scope: the block, an index into
   parser.sparent. */
typedef struct label_ref {
    size_t off, len; /* label text in the source */
    uint32_t insn;   /* instruction whose target it is */
    uint32_t scope;
} label_ref;

typedef struct label_def {
    size_t off, len;
    uint32_t insn;
    uint32_t scope;
} label_def;

/* A constant slot whose value is a symbol address, fixed at function end. */
typedef struct sym_fix {
    uint32_t cidx; /* index into f->cvals */
    uint32_t var;
    int64_t add;
} sym_fix;

typedef struct parser {
    wm_ptx_module *m;
    const char *s;
    size_t n, pos;
    tok t; /* current token */
    wm_diag *d;
    int oom;
    /* function being parsed */
    wmi_func *f;
    uint32_t fidx;
    regname *regs;
    size_t nregs, capregs;
    wmi_namemap rnames; /* register name -> newest entry of regs */
    int depth;
    label_ref *lrefs;
    size_t nlrefs, caplrefs;
    label_def *ldefs;
    size_t nldefs, capldefs;
    uint32_t *sparent; /* sparent[s]: the block enclosing block s (0: the
                          function body, its own parent) */
    size_t nscopes, capscopes;
    uint32_t scope;    /* the current block */
    sym_fix *fixes;
    size_t nfixes, capfixes;
    wmi_sfix *sfixes; /* shared addresses, fixed at module end */
    size_t nsfixes, capsfixes;
    /* csym[i] != 0: constant i of the function is a symbol address that
       sym_fix patches at function end; de-duplication must never hand it
       out for a literal (its value is a placeholder until then) */
    uint8_t *csym;
    size_t capcsym;
    /* frame symbols of the function being parsed: a .func's parameters
       and returns, call-sequence .param variables (newest last) */
    struct fsym {
        const char *name;
        size_t len;
        uint32_t off, size;
    } *fsyms;
    size_t nfsyms, capfsyms;
    uint32_t fcur;  /* next free frame byte in the current scope */
    int frame_ref;  /* the instruction addressed a frame symbol */
    int coords;     /* the instruction is a texture form: keep the
                       coordinates of [handle, {x, y}] (ptx_tex.c) */
    /* function names declared so far (bodies and prototypes) */
    wmi_namemap fnames;
    wmi_namemap vnames; /* variable name -> its last index in m->vars */
    /* constants holding function addresses, fixed at module end */
    struct ffix {
        uint32_t func, cidx;
        size_t off, len;
    } *ffixes;
    size_t nffixes, capffixes;
    uint32_t curloc;
    uint32_t lastline;    /* attributed line of the last .loc not on 0 */
    /* inside "// begin inline asm" ... "// end inline asm": 1, and 2 once
       a .loc was seen there (LLVM writes a .loc per line of the asm
       string, counting up from the statement's line: the whole asm block
       belongs to the statement, so only the first .loc counts) */
    int in_asm;
    uint32_t module_smem; /* bytes of module-scope .shared */
    size_t lpos;          /* line cursor: offset ... */
    uint32_t lline;       /* ... and its 1-based line */
} parser;

static int is_word_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

static int is_word_char(int c)
{
    return is_word_start(c) || (c >= '0' && c <= '9');
}

static void lex(parser *p)
{
    const char *s = p->s;
    size_t i = p->pos;
    for (;;) {
        while (i < p->n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i + 1 < p->n && s[i] == '/' && s[i + 1] == '/') {
            size_t c0 = i;
            while (i < p->n && s[i] != '\n')
                i++;
            static const char beg[] = "// begin inline asm";
            static const char end[] = "// end inline asm";
            if (i - c0 >= sizeof beg - 1 &&
                memcmp(s + c0, beg, sizeof beg - 1) == 0)
                p->in_asm = 1;
            else if (i - c0 >= sizeof end - 1 &&
                     memcmp(s + c0, end, sizeof end - 1) == 0)
                p->in_asm = 0;
            continue;
        }
        if (i + 1 < p->n && s[i] == '/' && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < p->n && !(s[i] == '*' && s[i + 1] == '/'))
                i++;
            i = i + 2 <= p->n ? i + 2 : p->n;
            continue;
        }
        break;
    }
    p->t.off = i;
    if (i >= p->n) {
        p->t.k = T_EOF;
        p->t.len = 0;
        p->pos = i;
        return;
    }
    int c = (unsigned char)s[i];
    size_t j = i + 1;
    if (c == '\n') {
        p->t.k = T_NL;
    } else if (is_word_start(c)) {
        while (j < p->n) {
            if (is_word_char((unsigned char)s[j]))
                j++;
            else if (s[j] == ':' && j + 1 < p->n && s[j + 1] == ':')
                j += 2;
            else
                break;
        }
        p->t.k = T_WORD;
    } else if (c >= '0' && c <= '9') {
        while (j < p->n && (is_word_char((unsigned char)s[j]) ||
                            ((s[j] == '-' || s[j] == '+') &&
                             (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                             !(s[i] == '0' && (s[i + 1] == 'x' ||
                                               s[i + 1] == 'X' ||
                                               s[i + 1] == 'f' ||
                                               s[i + 1] == 'd')))))
            j++;
        p->t.k = T_NUM;
    } else if (c == '"') {
        while (j < p->n && s[j] != '"' && s[j] != '\n') {
            if (s[j] == '\\' && j + 1 < p->n)
                j++;
            j++;
        }
        if (j < p->n && s[j] == '"')
            j++;
        p->t.k = T_STR;
    } else {
        p->t.k = T_PUNCT;
    }
    p->t.len = j - i;
    p->pos = j;
}

/* Next token that is not a newline. */
static void next(parser *p)
{
    do
        lex(p);
    while (p->t.k == T_NL);
}

static int is_p(const parser *p, char c)
{
    return p->t.k == T_PUNCT && p->s[p->t.off] == c;
}

static int is_w(const parser *p, const char *w)
{
    return p->t.k == T_WORD && strlen(w) == p->t.len &&
           memcmp(p->s + p->t.off, w, p->t.len) == 0;
}

static int err(parser *p, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int err(parser *p, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wm_diag_set(p->d, WM_ERR_PARSE, p->t.off, p->t.len ? p->t.len : 1, "%s",
                msg);
    return 0;
}

static int nomem(parser *p)
{
    p->oom = 1;
    wm_diag_set(p->d, WM_ERR_NOMEM, p->t.off, 1, "out of memory");
    return 0;
}

static int expect_p(parser *p, char c, const char *what)
{
    if (!is_p(p, c))
        return err(p, "expected '%c' %s", c, what);
    next(p);
    return 1;
}

/* Skip to just after the next ';' at brace depth 0 (or a '}' / EOF). */
static void skip_stmt(parser *p)
{
    int depth = 0;
    while (p->t.k != T_EOF) {
        if (is_p(p, '{'))
            depth++;
        else if (is_p(p, '}')) {
            if (depth == 0)
                return;
            depth--;
        } else if (is_p(p, ';') && depth == 0) {
            next(p);
            return;
        }
        next(p);
    }
}

/* Skip the rest of a newline-terminated directive. */
static void skip_line(parser *p)
{
    while (p->t.k != T_EOF && p->t.k != T_NL)
        lex(p);
    next(p);
}

/* ---- numbers -------------------------------------------------------------- */

typedef enum { LIT_INT, LIT_F32, LIT_F64, LIT_DEC } litkind;

typedef struct lit {
    litkind k;
    uint64_t bits; /* int value (two's complement) or float bits */
    double dval;   /* LIT_DEC */
} lit;

/* number := 0f<8 hex> | 0d<16 hex> | 0x<hex>[U] | 0<octal> | <dec>[U]
 *         | <dec>.<dec>[e[+-]<dec>] */
static int parse_number(parser *p, int neg, lit *out)
{
    const char *s = p->s + p->t.off;
    size_t n = p->t.len;
    char buf[80];
    out->k = LIT_INT;
    out->bits = 0;
    out->dval = 0;
    if (n >= sizeof buf)
        return err(p, "number too long");
    memcpy(buf, s, n);
    buf[n] = 0;
    if (n > 0 && (buf[n - 1] == 'U' || buf[n - 1] == 'u'))
        buf[--n] = 0;
    char *end;
    errno = 0;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'F') &&
        n == 10) {
        out->k = LIT_F32;
        out->bits = strtoull(buf + 2, &end, 16);
    } else if (n > 2 && buf[0] == '0' && (buf[1] == 'd' || buf[1] == 'D') &&
               n == 18) {
        out->k = LIT_F64;
        out->bits = strtoull(buf + 2, &end, 16);
    } else if (strchr(buf, '.') || ((strchr(buf, 'e') || strchr(buf, 'E')) &&
                                    !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')))) {
        out->k = LIT_DEC;
        out->dval = strtod(buf, &end);
        if (neg)
            out->dval = -out->dval;
        out->bits = 0;
    } else {
        out->k = LIT_INT;
        if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
            out->bits = strtoull(buf + 2, &end, 2);
        else
            out->bits = strtoull(buf, &end, 0);
    }
    if (*end || errno == ERANGE)
        return err(p, "malformed number '%.*s'", (int)p->t.len, s);
    if (neg && out->k == LIT_F32)
        out->bits ^= 0x80000000u;
    else if (neg && out->k == LIT_F64)
        out->bits ^= (uint64_t)1 << 63;
    else if (neg && out->k == LIT_INT)
        out->bits = (uint64_t)0 - out->bits;
    return 1;
}

static uint64_t d2u(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

static double u2d(uint64_t u)
{
    double f;
    memcpy(&f, &u, 8);
    return f;
}

/* Can lit_bits convert l to type t?  A decimal literal (1.5, 2e64) in
   an integer instruction is truncated to an integer, which must exist. */
static int lit_fits(const lit *l, wmi_type t)
{
    if (l->k != LIT_DEC || t == PT_PRED || t == PT_F32 || t == PT_TF32 ||
        t == PT_F64 || t == PT_F16 || t == PT_BF16)
        return 1;
    return l->dval >= -0x1p63 && l->dval < 0x1p63; /* NaN fails */
}

/* The raw register bits of literal l read as type t. */
static uint64_t lit_bits(const lit *l, wmi_type t)
{
    unsigned bits = wmi_type_bits(t);
    double v = 0;
    uint64_t r;
    switch (l->k) {
    case LIT_INT: v = (double)(int64_t)l->bits; break;
    case LIT_F32: v = (double)wmi_f32((uint32_t)l->bits); break;
    case LIT_F64: v = u2d(l->bits); break;
    case LIT_DEC: v = l->dval; break;
    }
    if (t == PT_PRED)
        return l->bits != 0 || v != 0.0;
    if (t == PT_F32 || t == PT_TF32)
        r = l->k == LIT_F32 ? l->bits : wmi_f32_bits((float)v);
    else if (t == PT_F64)
        r = l->k == LIT_F64 ? l->bits : d2u(v);
    else if (t == PT_F16)
        r = l->k == LIT_INT ? l->bits : wmi_float_to_half((float)v, RND_RN);
    else if (t == PT_BF16)
        r = l->k == LIT_INT ? l->bits : wmi_float_to_bf16((float)v, RND_RN);
    else if (l->k == LIT_DEC)
        r = (uint64_t)(int64_t)v;
    else
        r = l->bits; /* integer / bit types keep the bits (0f... in .b32) */
    if (bits && bits < 64)
        r &= ((uint64_t)1 << bits) - 1;
    return r;
}

/* ---- registers and constants ----------------------------------------- */

static uint32_t new_slots(parser *p, uint32_t n)
{
    uint32_t s = p->f->nslots;
    p->f->nslots += n;
    return s;
}

/*
 * The constant slot holding bits v.  Literals are de-duplicated among
 * literals only.  With cidx the slot is a fresh one whose value the caller
 * patches later (a symbol address, known at function end): it is marked in
 * p->csym so no literal ever shares it, and *cidx receives its index.
 */
static uint32_t const_slot(parser *p, uint64_t v, uint32_t *cidx)
{
    wmi_func *f = p->f;
    if (!cidx)
        for (uint32_t i = 0; i < f->nconsts; i++)
            if (f->cvals[i] == v && !p->csym[i])
                return f->cslots[i];
    if (!wmi_grow((void **)&p->csym, &p->capcsym, f->nconsts + 1,
                  sizeof *p->csym, 16)) {
        nomem(p);
        return SLOT_ZERO;
    }
    p->csym[f->nconsts] = cidx != NULL;
    size_t cap = f->capconsts;
    if (!wmi_grow((void **)&f->cvals, &cap, f->nconsts + 1, sizeof *f->cvals,
                  16)) {
        nomem(p);
        return SLOT_ZERO;
    }
    cap = f->capconsts;
    if (!wmi_grow((void **)&f->cslots, &cap, f->nconsts + 1, sizeof *f->cslots,
                  16)) {
        nomem(p);
        return SLOT_ZERO;
    }
    f->capconsts = (uint32_t)cap;
    f->cvals[f->nconsts] = v;
    f->cslots[f->nconsts] = new_slots(p, 1);
    if (cidx)
        *cidx = f->nconsts;
    return f->cslots[f->nconsts++];
}

/* wmi_func.sregs_used has one bit per special register */
_Static_assert(SR_COUNT <= 64, "too many special registers");

static const char *const sreg_names[SR_COUNT] = {
#define X(e, name) name,
    WMI_SREG_LIST(X)
#undef X
};

/* The register s names in entry r (r->name is s or a prefix of it), or
   WMI_NOREG: a single register is its name, a range name<N> covers the
   name followed by a number below N. */
static uint32_t reg_in(const regname *r, const char *s, size_t n)
{
    if (r->count == 0)
        return r->len == n && memcmp(r->name, s, n) == 0 ? r->slot : WMI_NOREG;
    if (n <= r->len || memcmp(r->name, s, r->len) != 0)
        return WMI_NOREG;
    uint32_t k = 0;
    for (size_t j = r->len; j < n; j++) {
        if (s[j] < '0' || s[j] > '9' || k > 100000000u)
            return WMI_NOREG;
        k = k * 10 + (uint32_t)(s[j] - '0');
    }
    return k < r->count ? r->slot + k : WMI_NOREG;
}

/* The newest entry naming s: entries are found by the whole name and by
   each prefix that ends where the trailing digits begin, following each
   name's chain of hidden entries. */
static long find_reg_entry(const parser *p, const char *s, size_t n)
{
    size_t d = n;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    long best = -1;
    for (size_t len = n + 1; len-- > (d ? d : 1);) {
        uint32_t i = wmi_namemap_get(&p->rnames, s, len);
        for (; i != UINT32_MAX && (long)i > best; i = p->regs[i].prev)
            if (reg_in(&p->regs[i], s, n) != WMI_NOREG) {
                best = (long)i;
                break;
            }
    }
    return best;
}

/* Resolve a register name to its slot; WMI_NOREG if undeclared.  A few
   entries (the usual function) are scanned, newest first. */
static uint32_t find_reg(parser *p, const char *s, size_t n)
{
    if (p->nregs > 16) {
        long i = find_reg_entry(p, s, n);
        if (i >= 0)
            return reg_in(&p->regs[i], s, n);
    } else {
        for (size_t i = p->nregs; i-- > 0;) {
            uint32_t slot = reg_in(&p->regs[i], s, n);
            if (slot != WMI_NOREG)
                return slot;
        }
    }
    for (unsigned i = 0; i < SR_COUNT; i++)
        if (strlen(sreg_names[i]) == n && memcmp(sreg_names[i], s, n) == 0) {
            p->f->sregs_used |= (uint64_t)1 << i;
            return SLOT_SREG0 + i;
        }
    /* %tid / %ntid without component are vectors; %envregN reads 0. */
    if (n > 7 && memcmp(s, "%envreg", 7) == 0)
        return SLOT_ZERO;
    return WMI_NOREG;
}

/* The register-slot limit of a function was passed (registers and
   distinct constants share the slots). */
static int regs_limit(parser *p)
{
    return err(p, "function '%s' needs more than %llu register slots "
                  "(registers + distinct constants; a fixed limit)",
               p->f->name, WM_LIMIT_REGS);
}

/* .reg .type name[<N>] {, name[<N>]} ; */
static int parse_reg_decl(parser *p)
{
    next(p); /* .reg */
    while (p->t.k == T_WORD && p->s[p->t.off] == '.')
        next(p); /* .b32, .v4 ... */
    for (;;) {
        if (p->t.k != T_WORD)
            return err(p, "expected a register name");
        tok name = p->t;
        uint32_t count = 0;
        next(p);
        if (is_p(p, '<')) {
            next(p);
            lit l;
            if (p->t.k != T_NUM || !parse_number(p, 0, &l) ||
                l.k != LIT_INT)
                return err(p, "expected a register count");
            if (l.bits > WM_LIMIT_REGS) /* the count alone is too many */
                return err(p, "%llu registers in '%.*s': function '%s' "
                              "may have at most %llu register slots "
                              "(registers + distinct constants; a fixed "
                              "limit)",
                           (unsigned long long)l.bits, (int)name.len,
                           p->s + name.off, p->f->name, WM_LIMIT_REGS);
            count = (uint32_t)l.bits;
            next(p);
            if (!expect_p(p, '>', "after the register count"))
                return 0;
        }
        int ok;
        PUSH(p->regs, p->nregs, p->capregs, ok);
        if (!ok)
            return nomem(p);
        regname *r = &p->regs[p->nregs++];
        r->name = p->s + name.off;
        r->len = name.len;
        r->count = count;
        r->slot = new_slots(p, count ? count : 1);
        r->depth = p->depth;
        r->prev = wmi_namemap_get(&p->rnames, r->name, r->len);
        if (!wmi_namemap_put(&p->rnames, r->name, r->len, (uint32_t)(p->nregs - 1)))
            return nomem(p);
        if (p->f->nslots > WM_LIMIT_REGS)
            return regs_limit(p);
        if (is_p(p, ','))
            next(p);
        else
            break;
    }
    return expect_p(p, ';', "after the register declaration");
}

/* ---- variables -------------------------------------------------------- */

static long find_var(const parser *p, const char *s, size_t n)
{
    const wm_ptx_module *m = p->m;
    uint32_t last = wmi_namemap_get(&p->vnames, s, n);
    if (last == UINT32_MAX)
        return -1;
    if (m->vars[last].func == WMI_NOREG || m->vars[last].func == p->fidx)
        return (long)last;
    /* the newest of the name is another function's: an older one may be
       this function's or the module's */
    for (size_t i = m->nvars; i-- > 0;) {
        const wmi_var *v = &m->vars[i];
        if ((v->func == WMI_NOREG || v->func == p->fidx) &&
            strlen(v->name) == n && memcmp(v->name, s, n) == 0)
            return (long)i;
    }
    return -1;
}

/* A variable takes its space past a limit. */
static int var_limit(parser *p, tok name, const char *what, uint64_t limit,
                     const char *raise)
{
    wm_diag_set(p->d, WM_ERR_PARSE, name.off, name.len,
                "'%.*s': %s over the limit of %llu bytes (%s)",
                (int)name.len, p->s + name.off, what,
                (unsigned long long)limit, raise);
    return 0;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
    return a > 1 ? (x + a - 1) / a * a : x;
}

/*
 * var-decl := space [.align N] [.ptr ...] .type name ['[' N? ']']*
 *             [= { init, ... } | = value] ;
 * for space .global .const .shared .local (module or function scope).
 */
/* A declaration's qualifiers up to its name: .align N, .v2/.v4 (which
   multiply *count) and the element type (*elem bytes; 0 if none). */
static int parse_var_quals(parser *p, uint32_t *align, uint32_t *elem,
                           uint64_t *count)
{
    static const struct { const char *n; uint32_t b; } ts[] = {
        {"b8", 1}, {"u8", 1}, {"s8", 1}, {"b16", 2}, {"u16", 2},
        {"s16", 2}, {"f16", 2}, {"bf16", 2}, {"b32", 4}, {"u32", 4},
        {"s32", 4}, {"f32", 4}, {"b64", 8}, {"u64", 8}, {"s64", 8},
        {"f64", 8}, {"f16x2", 4}, {"pred", 1}};
    while (p->t.k == T_WORD && p->s[p->t.off] == '.') {
        if (is_w(p, ".align")) {
            next(p);
            lit l;
            if (p->t.k != T_NUM || !parse_number(p, 0, &l) || l.k != LIT_INT)
                return err(p, "expected an alignment");
            *align = (uint32_t)l.bits;
        } else if (is_w(p, ".v2") || is_w(p, ".v4")) {
            *count *= (uint64_t)(p->s[p->t.off + 2] - '0');
        } else {
            const char *w = p->s + p->t.off + 1;
            size_t wl = p->t.len - 1;
            for (size_t i = 0; i < WM_ARRAY_LEN(ts); i++)
                if (strlen(ts[i].n) == wl && memcmp(ts[i].n, w, wl) == 0)
                    *elem = ts[i].b;
        }
        next(p);
    }
    return 1;
}

/* The array dimensions after a name, "[N]" or "[]" (*unsized), each
   multiplying *count. */
static int parse_var_dims(parser *p, uint64_t *count, int *unsized)
{
    while (is_p(p, '[')) {
        next(p);
        if (is_p(p, ']')) {
            *unsized = 1;
        } else {
            lit l;
            if (p->t.k != T_NUM || !parse_number(p, 0, &l) || l.k != LIT_INT)
                return err(p, "expected an array size");
            if (l.bits && *count > UINT64_MAX / l.bits)
                return err(p, "array size overflows 64 bits");
            *count *= l.bits;
            next(p);
        }
        if (!expect_p(p, ']', "to close the array size"))
            return 0;
    }
    return 1;
}

/* Gives v (size and alignment set) its offset in its space.  Sizes are
   checked before they are stored in 32 bits or allocated: shared and
   local against their hardware limits (a launch checks the exact totals
   again), module data against WM_LIMIT_MODULE_DATA. */
static int place_var(parser *p, wmi_var *v, tok name)
{
    uint64_t size = v->size;
    uint32_t align = v->align;
    if (v->space == SP_SHARED && !v->is_extern) {
        uint32_t *acc = p->f ? &p->f->smem_static : &p->module_smem;
        uint64_t off = align_up(*acc, align);
        if (size > WM_LIMIT_SMEM || off + size > WM_LIMIT_SMEM)
            return var_limit(p, name, "shared memory", WM_LIMIT_SMEM,
                             "a fixed limit");
        v->offset = off;
        *acc = (uint32_t)(off + size);
    } else if (v->space == SP_LOCAL && p->f) {
        uint64_t off = align_up(p->f->local_bytes, align);
        if (size > WM_LIMIT_LOCAL || off + size > WM_LIMIT_LOCAL)
            return var_limit(p, name, ".local memory per thread",
                             WM_LIMIT_LOCAL, "a fixed limit");
        v->offset = off;
        p->f->local_bytes = (uint32_t)(off + size);
    } else if (v->space == SP_GLOBAL || v->space == SP_CONST) {
        uint64_t off = align_up(p->m->gbytes, align < 16 ? 16 : align);
        if (size > WM_LIMIT_MODULE_DATA || off > WM_LIMIT_MODULE_DATA - size)
            return var_limit(p, name, "module .global/.const data",
                             WM_LIMIT_MODULE_DATA, "a fixed limit");
        /* Only initialised data is stored: a launch allocates the whole
           module data zeroed (lazily, by the OS) and copies this part. */
        if (is_p(p, '=')) {
            uint8_t *g = realloc(p->m->gdata, off + size + 1);
            if (!g)
                return nomem(p);
            memset(g + p->m->ginit, 0, off + size + 1 - p->m->ginit);
            p->m->gdata = g;
            p->m->ginit = off + size;
        }
        p->m->gbytes = off + size;
        v->offset = off;
    } else if (v->is_extern && p->f) {
        if (align > p->f->dyn_align)
            p->f->dyn_align = align;
    }
    return 1;
}

/* An initialiser after '=': a value or { v, v, ... } (nested braces
   flattened); module data keeps the elements that fit v. */
static int parse_var_init(parser *p, const wmi_var *v, uint32_t elem)
{
    int data = v->space == SP_GLOBAL || v->space == SP_CONST;
    uint64_t k = 0;
    int depth = 0;
    next(p); /* '=' */
    do {
        if (is_p(p, '{') || is_p(p, '}') || is_p(p, ',')) {
            depth += is_p(p, '{') - is_p(p, '}');
            next(p);
            continue;
        }
        int neg = is_p(p, '-');
        if (neg)
            next(p);
        lit l;
        if (p->t.k != T_NUM || !parse_number(p, neg, &l))
            return err(p, "expected a number in the initialiser");
        if (data && (k + 1) * elem <= v->size) {
            wmi_type ft = elem == 8 ? PT_F64 : PT_F32;
            uint64_t b = l.k == LIT_INT ? l.bits : lit_bits(&l, ft);
            memcpy(p->m->gdata + v->offset + k * elem, &b, elem);
        }
        k++;
        next(p);
    } while (depth > 0 && p->t.k != T_EOF);
    return 1;
}

static int parse_var(parser *p, wmi_space sp, int is_extern)
{
    uint32_t align = 0, elem = 0;
    uint64_t count = 1;
    int unsized = 0;
    next(p); /* the space word */
    if (!parse_var_quals(p, &align, &elem, &count))
        return 0;
    if (p->t.k != T_WORD || !elem)
        return err(p, "expected a type and a variable name");
    tok name = p->t;
    next(p);
    if (!parse_var_dims(p, &count, &unsized))
        return 0;
    if (!align)
        align = elem;
    if (!unsized && count > UINT64_MAX / elem)
        return err(p, "array size overflows 64 bits");
    int ok;
    PUSH(p->m->vars, p->m->nvars, p->m->capvars, ok);
    if (!ok)
        return nomem(p);
    wmi_var *v = &p->m->vars[p->m->nvars];
    memset(v, 0, sizeof *v);
    v->name = dupn(p->s + name.off, name.len);
    if (!v->name)
        return nomem(p);
    p->m->nvars++;
    if (!wmi_namemap_put(&p->vnames, v->name, name.len,
                         (uint32_t)(p->m->nvars - 1)))
        return nomem(p);
    v->space = sp;
    v->func = p->f ? p->fidx : WMI_NOREG;
    v->size = unsized ? 0 : count * elem;
    v->align = align;
    v->is_extern = is_extern && sp == SP_SHARED && unsized;
    if (!place_var(p, v, name))
        return 0;
    if (is_p(p, '=') && !parse_var_init(p, v, elem))
        return 0;
    return expect_p(p, ';', "after the variable declaration");
}

/* ---- operands --------------------------------------------------------------- */

typedef enum { O_NONE, O_REG, O_LIT, O_SYM, O_ADDR, O_VEC, O_LIST } okind;

typedef struct operand {
    okind k;
    size_t off, len;   /* source text */
    uint32_t slot;     /* O_REG; O_ADDR base (SLOT_ZERO if none) */
    uint32_t slot2;    /* second register of "a|b" */
    lit l;             /* O_LIT */
    int64_t addoff;    /* O_ADDR offset */
    size_t soff, slen; /* O_SYM / O_ADDR symbol name */
    int has_sym;
    size_t lsoff[32];  /* O_LIST symbol names (call arguments) */
    size_t lslen[32];
    uint32_t vec[WMI_MAX_VEC]; /* O_VEC slots (WMI_NOREG = literal in vlit) */
    lit vlit[16];      /* literal elements: only among the first 16 */
    unsigned nvec;
    int long_vec;      /* more than WMI_MAX_VEC elements, or a literal past
                          the 16th: only counted in nvec */
    int tensor;        /* [map, {coordinates}]: lowered for the texture
                          forms (coordinates in vec), else not */
} operand;

/* Frame symbols and calls (with the function parser below). */
static const struct fsym *find_fsym(const parser *p, const char *s, size_t n);
static int lower_call(parser *p, wmi_insn *in, const operand *ops,
                      unsigned nops);

/* A register, literal or symbol operand ("-5", "%r1", "_", "0f3F800000"). */
static int parse_simple(parser *p, operand *o)
{
    int neg = 0;
    o->off = p->t.off;
    if (is_p(p, '-')) {
        neg = 1;
        next(p);
    }
    if (is_p(p, '!')) /* !%p in a few boolean contexts: not modelled */
        return err(p, "negated operand not supported here");
    if (p->t.k == T_NUM) {
        o->k = O_LIT;
        if (!parse_number(p, neg, &o->l))
            return 0;
    } else if (p->t.k == T_WORD) {
        const char *s = p->s + p->t.off;
        if (neg)
            return err(p, "expected a number after '-'");
        if (p->t.len == 1 && s[0] == '_') {
            o->k = O_REG;
            o->slot = SLOT_SINK;
        } else if (s[0] == '%') {
            o->k = O_REG;
            o->slot = find_reg(p, s, p->t.len);
            if (o->slot == WMI_NOREG) {
                /* %SP-style names may also be plain symbols; be strict */
                return err(p, "undeclared register '%.*s'", (int)p->t.len, s);
            }
        } else {
            uint32_t r = find_reg(p, s, p->t.len); /* inline-asm names */
            if (r != WMI_NOREG) {
                o->k = O_REG;
                o->slot = r;
            } else {
                o->k = O_SYM;
                o->soff = p->t.off;
                o->slen = p->t.len;
            }
        }
    } else {
        return err(p, "expected an operand");
    }
    o->len = p->t.off + p->t.len - o->off;
    next(p);
    return 1;
}

/*
 * operand := simple ['|' simple] | '[' addr ']' | '{' simple {, simple} '}'
 *          | '(' simple {, simple} ')'
 * addr    := (reg | sym | number) [('+'|'-') number] | number
 * One branch per form of this grammar, kept together so the code reads
 * as the grammar does (hence its length).
 */
static int parse_operand(parser *p, operand *o)
{
    memset(o, 0, sizeof *o);
    o->off = p->t.off;
    if (is_p(p, '[')) {
        size_t open = p->t.off;
        next(p);
        o->k = O_ADDR;
        o->slot = SLOT_ZERO;
        if (p->t.k == T_NUM || is_p(p, '-')) {
            operand x = {0};
            if (!parse_simple(p, &x))
                return 0;
            o->addoff = (int64_t)x.l.bits;
        } else {
            operand x = {0};
            if (!parse_simple(p, &x))
                return 0;
            if (x.k == O_REG)
                o->slot = x.slot;
            else {
                o->has_sym = 1;
                o->soff = x.soff;
                o->slen = x.slen;
            }
            while (is_p(p, '+') || is_p(p, '-')) {
                int neg = is_p(p, '-');
                next(p);
                int neg2 = 0;
                if (is_p(p, '-')) {
                    neg2 = 1;
                    next(p);
                }
                lit l;
                if (p->t.k != T_NUM || !parse_number(p, neg ^ neg2, &l) ||
                    l.k != LIT_INT)
                    return err(p, "expected an offset in the address");
                o->addoff += (int64_t)l.bits;
                next(p);
            }
        }
        if (is_p(p, ',')) {
            /* [tensor_map, {x, y}]: cp.async.bulk.tensor coordinates;
               such instructions are parsed, not executed */
            o->tensor = 1;
            next(p);
            if (p->coords && is_p(p, '{')) {
                operand v;
                if (!parse_operand(p, &v))
                    return 0;
                memcpy(o->vec, v.vec, sizeof o->vec);
                memcpy(o->vlit, v.vlit, sizeof o->vlit);
                o->nvec = v.nvec;
                o->long_vec = v.long_vec;
            }
            while (!is_p(p, ']') && p->t.k != T_EOF && !is_p(p, ';'))
                next(p);
        }
        if (!is_p(p, ']')) {
            wm_diag_set(p->d, WM_ERR_PARSE, p->t.off, p->t.len ? p->t.len : 1,
                        "expected ']' to close the address (opened at "
                        "offset %zu)", open);
            (void)open;
            return 0;
        }
        o->len = p->t.off + 1 - o->off;
        next(p);
        return 1;
    }
    if (is_p(p, '{') || is_p(p, '(')) {
        char close = is_p(p, '{') ? '}' : ')';
        o->k = close == '}' ? O_VEC : O_LIST;
        next(p);
        while (!is_p(p, close)) {
            operand x;
            memset(&x, 0, sizeof x);
            if (!parse_simple(p, &x))
                return 0;
            if (x.k == O_SYM && o->nvec < 32) {
                o->lsoff[o->nvec] = x.soff;
                o->lslen[o->nvec] = x.slen;
            }
            if (o->nvec >= 16 && o->k == O_LIST && o->nvec < 32) {
                /* call lists: up to 32 names (counted below) */
            } else if (o->nvec >= WMI_MAX_VEC ||
                       (o->nvec >= 16 && x.k == O_LIT)) {
                /* longer than any instruction takes: counted only
                   (src_slot refuses it) */
                o->long_vec = 1;
                if (o->nvec < UINT32_MAX / 2)
                    o->nvec++;
            } else if (x.k == O_REG)
                o->vec[o->nvec] = x.slot;
            else if (x.k == O_LIT) {
                o->vec[o->nvec] = WMI_NOREG;
                o->vlit[o->nvec] = x.l;
            } else if (o->k == O_VEC)
                return err(p, "expected a register in the vector");
            if (!o->long_vec)
                o->nvec++;
            if (is_p(p, ','))
                next(p);
            else if (!is_p(p, close))
                return err(p, "expected ',' or '%c' in the list", close);
        }
        o->len = p->t.off + 1 - o->off;
        next(p);
        return 1;
    }
    if (!parse_simple(p, o))
        return 0;
    if (is_p(p, '|')) {
        next(p);
        operand x = {0};
        if (!parse_simple(p, &x))
            return 0;
        if (x.k != O_REG || o->k != O_REG)
            return err(p, "expected registers around '|'");
        o->slot2 = x.slot;
        o->len = x.off + x.len - o->off;
    } else {
        o->slot2 = WMI_NOREG;
    }
    return 1;
}

/* Address of a variable as seen by mov/cvta (its space's offset). */
static int sym_value(parser *p, const operand *o, size_t soff, size_t slen,
                     int64_t add, uint32_t *slot)
{
    long vi = find_var(p, p->s + soff, slen);
    if (vi >= 0) {
        uint32_t cidx = 0;
        *slot = const_slot(p, 0, &cidx);
        int ok;
        PUSH(p->fixes, p->nfixes, p->capfixes, ok);
        if (!ok)
            return nomem(p);
        p->fixes[p->nfixes].cidx = cidx;
        p->fixes[p->nfixes].var = (uint32_t)vi;
        p->fixes[p->nfixes].add = add;
        p->nfixes++;
        return 1;
    }
    const struct fsym *fs = find_fsym(p, p->s + soff, slen);
    if (fs) { /* mov.b64 %rd1, f_param_0 (-G code): a frame offset */
        *slot = const_slot(p, fs->off + (uint64_t)add, NULL);
        return !p->oom;
    }
    if (wmi_namemap_get(&p->fnames, p->s + soff, slen) != UINT32_MAX) {
            /* a function's address: fixed at module end */
            uint32_t cidx = 0;
            *slot = const_slot(p, 0, &cidx);
            int ok;
            PUSH(p->ffixes, p->nffixes, p->capffixes, ok);
            if (!ok)
                return nomem(p);
            p->ffixes[p->nffixes].func = p->fidx;
            p->ffixes[p->nffixes].cidx = cidx;
            p->ffixes[p->nffixes].off = soff;
            p->ffixes[p->nffixes++].len = slen;
            return !p->oom;
        }
    /* WARP_SZ: PTX's built-in warp-size constant (warpSize in CUDA) */
    if (slen == 7 && memcmp(p->s + soff, "WARP_SZ", 7) == 0) {
        *slot = const_slot(p, 32u + (uint64_t)add, NULL);
        return !p->oom;
    }
    /* kernel parameter names: their offset in the parameter buffer */
    for (uint32_t i = 0; i < p->f->nparams; i++)
        if (strlen(p->f->params[i].name) == slen &&
            memcmp(p->f->params[i].name, p->s + soff, slen) == 0) {
            *slot = const_slot(p, p->f->params[i].offset + (uint64_t)add, NULL);
            return 1;
        }
    wm_diag_set(p->d, WM_ERR_PARSE, o->off, slen ? slen : 1,
                "unknown symbol '%.*s'", (int)slen, p->s + soff);
    return 0;
}

static int lit_range_error(parser *p, const operand *o)
{
    wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                "decimal literal out of the range of a 64-bit integer");
    return 0;
}

/* Lower an operand that is read to a slot (or a vector pool entry). */
static int src_slot(parser *p, const operand *o, wmi_type t, uint32_t *out)
{
    switch (o->k) {
    case O_REG:
        *out = o->slot;
        return 1;
    case O_LIT:
        if (!lit_fits(&o->l, t))
            return lit_range_error(p, o);
        *out = const_slot(p, lit_bits(&o->l, t), NULL);
        return !p->oom;
    case O_SYM:
        return sym_value(p, o, o->soff, o->slen, 0, out);
    case O_VEC: {
        wm_ptx_module *m = p->m;
        if (o->long_vec) {
            wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                        "too many vector elements");
            return 0;
        }
        size_t cap = m->cappool;
        if (!wmi_grow((void **)&m->pool, &cap, m->npool + o->nvec + 1,
                      sizeof *m->pool, 16))
            return nomem(p);
        m->cappool = cap;
        uint32_t at = (uint32_t)m->npool;
        m->pool[m->npool++] = o->nvec;
        for (unsigned i = 0; i < o->nvec; i++) {
            uint32_t s = o->vec[i];
            if (s == WMI_NOREG && !lit_fits(&o->vlit[i], t))
                return lit_range_error(p, o);
            if (s == WMI_NOREG)
                s = const_slot(p, lit_bits(&o->vlit[i], t), NULL);
            m->pool[m->npool++] = s;
        }
        *out = WMI_VEC | at;
        return !p->oom;
    }
    case O_NONE:
    case O_ADDR:
    case O_LIST:
        break;
    }
    wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                "unexpected operand form");
    return 0;
}

/* Lower an address operand to base slot + offset. */
static int addr_operand(parser *p, const operand *o, wmi_space sp,
                        uint32_t *base, int64_t *off)
{
    if (o->k == O_REG || o->k == O_SYM) {
        /* `ld.param.u64 %rd1, name` without brackets is not PTX; but
           cp.async/ldmatrix never take bare names either */
        wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                    "expected an address in brackets");
        return 0;
    }
    if (o->k != O_ADDR) {
        wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                    "expected an address in brackets");
        return 0;
    }
    if (o->tensor) {
        wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                    "tensor-coordinate address outside cp.async.bulk.tensor");
        return 0;
    }
    *base = o->slot;
    *off = o->addoff;
    if (o->has_sym) {
        const struct fsym *fs = find_fsym(p, p->s + o->soff, o->slen);
        if (fs) { /* [param0], [func_retval0], [f_param_1+4] */
            *off += fs->off;
            p->frame_ref = 1;
            return 1;
        }
        long vi = find_var(p, p->s + o->soff, o->slen);
        if (vi < 0) {
            for (uint32_t i = 0; i < p->f->nparams; i++)
                if (strlen(p->f->params[i].name) == o->slen &&
                    memcmp(p->f->params[i].name, p->s + o->soff, o->slen) == 0) {
                    *off += p->f->params[i].offset;
                    return 1;
                }
            wm_diag_set(p->d, WM_ERR_PARSE, o->soff, o->slen,
                        "unknown symbol '%.*s'", (int)o->slen, p->s + o->soff);
            return 0;
        }
        /* a variable: its address is fixed at function end via a const
           slot used as the base */
        if (o->slot != SLOT_ZERO) {
            wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len,
                        "register plus symbol addresses are not supported");
            return 0;
        }
        (void)sp;
        return sym_value(p, o, o->soff, o->slen, 0, base);
    }
    return 1;
}

/* A texture form's [handle, {coordinates}]: the handle register and the
   coordinate vector (as source operands a and b). */
static int tex_address(parser *p, const operand *o, wmi_type ct,
                       uint32_t *handle, uint32_t *coords)
{
    if (o->has_sym || o->slot == SLOT_ZERO || o->addoff || !o->nvec) {
        wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                    "expected [handle, {coordinates}] with a register "
                    "holding a texture or surface object");
        return 0;
    }
    operand v = *o;
    v.k = O_VEC;
    *handle = o->slot;
    return src_slot(p, &v, ct, coords);
}

/* ---- instructions ------------------------------------------------------------ */

static int add_text(parser *p, size_t from, size_t to, uint32_t *out)
{
    wm_ptx_module *m = p->m;
    size_t cap = m->captexts;
    if (!wmi_grow((void **)&m->texts, &cap, m->ntexts + (to - from) + 1, 1, 16))
        return nomem(p);
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
    if (!is_p(p, '@'))
        return 1;
    next(p);
    if (is_p(p, '!')) {
        in->guard_neg = 1;
        next(p);
    }
    if (p->t.k != T_WORD)
        return err(p, "expected a predicate after '@'");
    in->guard = find_reg(p, p->s + p->t.off, p->t.len);
    if (in->guard == WMI_NOREG)
        return err(p, "undeclared predicate '%.*s'", (int)p->t.len,
                   p->s + p->t.off);
    next(p);
    return 1;
}

/* The comma-separated operands up to ';' (at most 8). */
static int parse_operands(parser *p, operand ops[8], unsigned *nops)
{
    *nops = 0;
    while (!is_p(p, ';')) {
        if (p->t.k == T_EOF || is_p(p, '}'))
            return err(p, "expected ';' after the instruction");
        if (*nops >= 8)
            return err(p, "too many operands");
        if (!parse_operand(p, &ops[*nops]))
            return 0;
        ++*nops;
        if (is_p(p, ','))
            next(p);
        else if (!is_p(p, ';'))
            return err(p, "expected ',' or ';' after an operand");
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
            find_var(p, p->s + o->soff, o->slen) >= 0 ||
            find_fsym(p, p->s + o->soff, o->slen))
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
        return err(p, "expected a label after bra");
    int ok;
    PUSH(p->lrefs, p->nlrefs, p->caplrefs, ok);
    if (!ok)
        return nomem(p);
    p->lrefs[p->nlrefs].off = ops[0].soff;
    p->lrefs[p->nlrefs].len = ops[0].slen;
    p->lrefs[p->nlrefs].insn = idx;
    p->lrefs[p->nlrefs].scope = p->scope;
    p->nlrefs++;
    return 1;
}

/* The destination operand: a register, "a|b", or a vector. */
static int bind_dest(parser *p, wmi_insn *in, const operand *o)
{
    if (o->k == O_REG) {
        in->d = o->slot;
        in->d2 = o->slot2;
        if (in->d2 != WMI_NOREG)
            in->flags |= F_DEST2;
        return 1;
    }
    if (o->k == O_VEC)
        return src_slot(p, o, (wmi_type)in->type, &in->d);
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
    if (!addr_operand(p, o, (wmi_space)in->space, field, &off))
        return 0;
    if (nsrc == 0)
        in->imm = off;
    else if (nsrc == 1)
        in->imm2 = off;
    else if (off) /* cp.async.bulk's [mbar]: no field */
        return err(p, "an offset in this address operand is not supported");
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
            return err(p, "too many source operands");
        if (o->k == O_ADDR && o->tensor && p->coords) {
            /* [handle, {coordinates}]: two fields */
            if (nsrc > 2)
                return err(p, "too many source operands");
            if (!tex_address(p, o, wmi_ptx_src_type(in, nsrc + 1),
                             fields[nsrc], fields[nsrc + 1]))
                return 0;
            nsrc++;
        } else if (o->k == O_ADDR) {
            if (!bind_addr(p, in, o, nsrc, fields[nsrc]))
                return 0;
        } else if (o->k == O_LIST) {
            return err(p, "unexpected parenthesised list");
        } else {
            wmi_type t = in->op == OP_SETP && nsrc == 2 && o->k == O_LIT
                             ? PT_PRED : wmi_ptx_src_type(in, nsrc);
            if (!src_slot(p, o, t, fields[nsrc]))
                return 0;
        }
    }
    return 1;
}

/* What the operands of some opcodes must be beyond their count. */
static int check_forms(parser *p, wmi_insn *in, tok optok,
                       const operand *ops, unsigned nops)
{
    wmi_op op = (wmi_op)in->op;
    wmi_type t = (wmi_type)in->type;
    if ((op == OP_MUL || op == OP_MAD) && (in->flags & F_WIDE) &&
        t != PT_U16 && t != PT_S16 && t != PT_U32 && t != PT_S32) {
        wm_diag_set(p->d, WM_ERR_PARSE, optok.off, optok.len,
                    "%.*s: .wide takes a 16- or 32-bit integer type",
                    (int)optok.len, p->s + optok.off);
        return 0;
    }
    if (op == OP_MOV && ((in->d | in->a) & WMI_VEC) &&
        (((in->d & in->a) & WMI_VEC) ||
         wmi_type_bits((wmi_type)in->type) > 64))
        return err(p, "%.*s packs or unpacks a vector of at most 64 bits "
                      "into one register", (int)optok.len,
                   p->s + optok.off);
    if (op == OP_CP_ASYNC) {
        /* cp.async [dst], [src], cp-size[, src-size] */
        if (nops < 3 || ops[2].k != O_LIT)
            return err(p, "expected cp.async [dst], [src], size");
        in->mod = (uint8_t)ops[2].l.bits;
    }
    if ((op == OP_LD || op == OP_ST || op == OP_ATOM || op == OP_RED ||
         op == OP_LDMATRIX || op == OP_STMATRIX || op == OP_WMMA_LOAD ||
         op == OP_WMMA_STORE) &&
        (nops < 2 ||
         ops[op == OP_ST || op == OP_RED || op == OP_STMATRIX ||
                     op == OP_WMMA_STORE
                 ? 0
                 : 1].k != O_ADDR))
        return err(p, "expected an address operand in brackets");
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
    /* mbarrier: arrive returns a state, the waits a predicate */
    unsigned nd = op == OP_MBAR ? (in->mod == MB_ARRIVE || in->mod == MB_WAIT)
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

static int parse_insn(parser *p, size_t start)
{
    wmi_insn in;
    memset(&in, 0, sizeof in);
    p->frame_ref = 0;
    in.guard = WMI_NOREG;
    in.d = in.d2 = in.a = in.b = in.c = in.e = WMI_NOREG;
    if (!parse_guard(p, &in))
        return 0;
    if (p->t.k != T_WORD)
        return err(p, "expected an instruction");
    tok optok = p->t;
    wmi_ptx_decode_opcode(p->s + optok.off, optok.len, &in);
    /* [handle, {coordinates}]: textures, TMA and its tensor prefetch (a
       no-op whose operands are parsed) */
    p->coords = wmi_ptx_is_tex(in.op) || in.op == OP_TMA ||
                (in.op == OP_NOP &&
                 wmi_has_word(p->s + optok.off, optok.len, "tensor"));
    next(p);
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
        ok = lower_call(p, &in, ops, nops);
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
        return nomem(p);
    p->m->code[p->m->ncode++] = in;
    next(p); /* ';' */
    return 1;
}

/* ---- .loc / .file ------------------------------------------------------------ */

static int line_number(parser *p, uint32_t *out)
{
    lit l = {LIT_INT, 0, 0.0};
    if (p->t.k != T_NUM || !parse_number(p, 0, &l) || l.k != LIT_INT)
        return err(p, "expected a number");
    *out = (uint32_t)l.bits;
    lex(p);
    return 1;
}

/* .loc file line col [, function_name label, inlined_at file line col] NL */
static int parse_loc(parser *p)
{
    wmi_loc loc = {0};
    lex(p);
    if (!line_number(p, &loc.file) || !line_number(p, &loc.line) ||
        !line_number(p, &loc.col))
        return 0;
    while (is_p(p, ',')) {
        lex(p);
        if (is_w(p, "inlined_at")) {
            lex(p);
            if (!line_number(p, &loc.ifile) || !line_number(p, &loc.iline) ||
                !line_number(p, &loc.icol))
                return 0;
        } else {
            while (p->t.k != T_NL && p->t.k != T_EOF && !is_p(p, ','))
                lex(p);
        }
    }
    if (p->t.k != T_NL && p->t.k != T_EOF)
        return err(p, "unexpected text after .loc");
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
        return nomem(p);
    p->m->locs[p->m->nlocs] = loc;
    if (p->in_asm != 2)
        p->curloc = (uint32_t)p->m->nlocs;
    p->m->nlocs++;
    if (p->in_asm)
        p->in_asm = 2;
    next(p);
    return 1;
}

/* .file num "path" [, timestamp, size] NL */
static int parse_file(parser *p)
{
    uint32_t num = 0;
    lex(p);
    if (!line_number(p, &num))
        return 0;
    if (p->t.k != T_STR)
        return err(p, "expected a file name string");
    int ok;
    PUSH(p->m->files, p->m->nfiles, p->m->capfiles, ok);
    if (!ok)
        return nomem(p);
    wmi_file *f = &p->m->files[p->m->nfiles];
    f->num = num;
    f->path = dupn(p->s + p->t.off + 1, p->t.len >= 2 ? p->t.len - 2 : 0);
    if (!f->path)
        return nomem(p);
    p->m->nfiles++;
    skip_line(p);
    return 1;
}

/* ---- functions ------------------------------------------------------------------ */

/* Demangle just the identifier of an Itanium name: _Z4copyPf -> copy,
   _ZN2ns6kernelEv -> ns::kernel. Other names are returned as is. */
static char *demangle_ident(const char *s)
{
    if (strncmp(s, "_Z", 2) != 0)
        return dupn(s, strlen(s));
    const char *q = s + 2;
    char out[256];
    size_t o = 0;
    int nested = 0;
    if (*q == 'N') {
        nested = 1;
        q++;
        while (*q == 'K' || *q == 'V' || *q == 'r')
            q++;
    }
    do {
        if (*q < '0' || *q > '9')
            break;
        size_t len = 0;
        while (*q >= '0' && *q <= '9')
            len = len * 10 + (size_t)(*q++ - '0');
        if (len == 0 || strlen(q) < len || o + len + 3 >= sizeof out)
            break;
        if (o) {
            out[o++] = ':';
            out[o++] = ':';
        }
        memcpy(out + o, q, len);
        o += len;
        q += len;
    } while (nested && *q != 'E');
    if (o == 0)
        return dupn(s, strlen(s));
    return dupn(out, o);
}

/* param-list := '(' [param {, param}] ')'
 * param      := .param [.align N] .type [.ptr [.space] [.align N]] name ['[' N ']'] */
static int parse_params(parser *p)
{
    wmi_func *f = p->f;
    if (!expect_p(p, '(', "to open the parameter list"))
        return 0;
    uint32_t off = 0;
    while (!is_p(p, ')')) {
        if (!is_w(p, ".param") && !is_w(p, ".reg"))
            return err(p, "expected .param");
        next(p);
        uint32_t align = 0, elem = 0, count = 1;
        int after_ptr = 0;
        char kind = 0;
        while (p->t.k == T_WORD && p->s[p->t.off] == '.') {
            const char *w = p->s + p->t.off + 1;
            size_t wl = p->t.len - 1;
            if (is_w(p, ".align")) {
                next(p);
                lit l;
                if (p->t.k != T_NUM || !parse_number(p, 0, &l))
                    return err(p, "expected an alignment");
                /* .ptr .align N describes the pointee, not the layout
                   (docs/design/ptx-front-end.md 1) */
                if (!after_ptr)
                    align = (uint32_t)l.bits;
            } else if (is_w(p, ".ptr")) {
                after_ptr = 1;
            } else if (wl >= 2 && (w[0] == 'b' || w[0] == 'u' || w[0] == 's' ||
                                   w[0] == 'f') && w[1] >= '0' && w[1] <= '9') {
                elem = (uint32_t)atoi(w + 1) / 8;
                kind = w[0];
            } else if (wl == 4 && memcmp(w, "pred", 4) == 0) {
                elem = 1;
                kind = 'p';
            }
            next(p);
        }
        if (p->t.k != T_WORD || !elem)
            return err(p, "expected a parameter type and name");
        tok name = p->t;
        next(p);
        if (is_p(p, '[')) {
            next(p);
            lit l;
            if (p->t.k != T_NUM || !parse_number(p, 0, &l))
                return err(p, "expected an array size");
            count = (uint32_t)l.bits;
            next(p);
            if (!expect_p(p, ']', "to close the array size"))
                return 0;
        } else {
            align = elem; /* scalars: natural alignment */
        }
        if (!align)
            align = elem;
        size_t cap = f->nparams;
        wmi_param *np = realloc(f->params, (cap + 1) * sizeof *np);
        if (!np)
            return nomem(p);
        f->params = np;
        wmi_param *pa = &f->params[f->nparams++];
        pa->name = dupn(p->s + name.off, name.len);
        if (!pa->name)
            return nomem(p);
        off = (uint32_t)align_up(off, align);
        pa->offset = off;
        pa->size = elem * count;
        pa->align = align;
        pa->kind = kind;
        pa->bits = (uint8_t)(kind == 'p' ? 1 : elem * 8);
        pa->ptr = (uint8_t)after_ptr;
        pa->count = count;
        off += pa->size;
        if (is_p(p, ','))
            next(p);
        else if (!is_p(p, ')'))
            return err(p, "expected ',' or ')' in the parameter list");
    }
    f->param_bytes = off;
    next(p);
    return 1;
}

static int parse_body(parser *p);

/* A frame symbol of the current function, or NULL. */
static const struct fsym *find_fsym(const parser *p, const char *s, size_t n)
{
    for (size_t i = p->nfsyms; i-- > 0;)
        if (p->fsyms[i].len == n && memcmp(p->fsyms[i].name, s, n) == 0)
            return &p->fsyms[i];
    return NULL;
}

static int add_fsym(parser *p, const char *name, size_t len, uint32_t off,
                    uint32_t size)
{
    int ok;
    PUSH(p->fsyms, p->nfsyms, p->capfsyms, ok);
    if (!ok)
        return nomem(p);
    struct fsym *fs = &p->fsyms[p->nfsyms++];
    fs->name = name;
    fs->len = len;
    fs->off = off;
    fs->size = size;
    return 1;
}

/*
 * The frame of a function (docs/design/ptx-calls.md): a .func's
 * parameters at their offsets, its return values from ret_base, then the
 * call-sequence .param variables of its body.
 */
static int frame_begin(parser *p)
{
    wmi_func *f = p->f;
    p->nfsyms = 0;
    if (f->is_entry) {
        p->fcur = 0;
        return 1;
    }
    uint32_t rbytes = f->ret_base;
    f->ret_base = (uint32_t)align_up(f->param_bytes, 16);
    for (uint32_t i = 0; i < f->nparams; i++)
        if (!add_fsym(p, f->params[i].name, strlen(f->params[i].name),
                      f->params[i].offset, f->params[i].size))
            return 0;
    for (uint32_t i = 0; i < f->nrets; i++)
        if (!add_fsym(p, f->rets[i].name, strlen(f->rets[i].name),
                      f->ret_base + f->rets[i].offset, f->rets[i].size))
            return 0;
    p->fcur = (uint32_t)align_up(f->ret_base + rbytes, 16);
    if (p->fcur > f->frame_bytes)
        f->frame_bytes = p->fcur;
    return 1;
}

/* Constants that hold local-variable addresses (rebased per frame). */
static int frame_end(parser *p)
{
    wmi_func *f = &p->m->funcs[p->fidx];
    for (size_t i = 0; i < p->nfixes; i++)
        if (p->m->vars[p->fixes[i].var].space == SP_LOCAL) {
            uint32_t *q = realloc(f->lconst, (f->nlconst + 1) * sizeof *q);
            if (!q)
                return nomem(p);
            f->lconst = q;
            f->lconst[f->nlconst++] = p->fixes[i].cidx;
        }
    return 1;
}

/* call-param := .param [.align N] .type name ['[' N ']'] ;  (a call
   sequence's argument or return slot in the caller's frame) */
static int parse_call_param(parser *p)
{
    uint32_t align = 0, elem = 0, count = 1;
    next(p); /* .param */
    while (p->t.k == T_WORD && p->s[p->t.off] == '.') {
        const char *w = p->s + p->t.off + 1;
        size_t wl = p->t.len - 1;
        if (is_w(p, ".align")) {
            next(p);
            lit l;
            if (p->t.k != T_NUM || !parse_number(p, 0, &l) || l.bits > 4096)
                return err(p, "expected an alignment");
            align = (uint32_t)l.bits;
        } else if (wl >= 2 && (w[0] == 'b' || w[0] == 'u' || w[0] == 's' ||
                               w[0] == 'f') && w[1] >= '0' && w[1] <= '9') {
            elem = (uint32_t)atoi(w + 1) / 8;
        }
        next(p);
    }
    if (p->t.k != T_WORD || !elem)
        return err(p, "expected a parameter type and name");
    tok name = p->t;
    next(p);
    if (is_p(p, '[')) {
        next(p);
        lit l;
        if (p->t.k != T_NUM || !parse_number(p, 0, &l) || l.bits > 65536)
            return err(p, "expected an array size");
        count = (uint32_t)l.bits;
        next(p);
        if (!expect_p(p, ']', "to close the array size"))
            return 0;
    }
    if (!align)
        align = elem;
    uint32_t off = (uint32_t)align_up(p->fcur, align);
    p->fcur = off + elem * count;
    if (p->fcur > p->f->frame_bytes)
        p->f->frame_bytes = p->fcur;
    if (!add_fsym(p, p->s + name.off, name.len, off, elem * count))
        return 0;
    return expect_p(p, ';', "after the parameter declaration");
}

/* The index of the call record of instruction `in` (OP_CALL):
 * call := call[.uni] [(ret, ...),] callee [, (arg, ...)] [, proto] ;
 * callee: a function name or a register (indirect, via a prototype). */
static int lower_call(parser *p, wmi_insn *in, const operand *ops,
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
        return err(p, "expected the called function");
    const operand *callee = &ops[k++];
    if (k < nops && ops[k].k == O_LIST)
        args = &ops[k++];
    if (callee->k == O_REG) {
        in->a = callee->slot;
        cl.name = dupn("", 0);
    } else if (callee->k == O_SYM) {
        cl.name = dupn(p->s + callee->soff, callee->slen);
    } else {
        wm_diag_set(p->d, WM_ERR_PARSE, callee->off, callee->len ? callee->len : 1,
                    "expected a function name or register");
        return 0;
    }
    if (!cl.name)
        return nomem(p);
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
                o->lslen[i] ? find_fsym(p, p->s + o->lsoff[i], o->lslen[i])
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
        return nomem(p);
    }
    in->imm = (int64_t)p->m->ncalls;
    p->m->calls[p->m->ncalls++] = cl;
    p->f->has_call = 1;
    return 1;
}

/* Module end: calls and function-address constants find their functions
   (a name without a body stays unresolved and faults if called). */
static void resolve_calls(parser *p)
{
    wm_ptx_module *m = p->m;
    /* the last function of a name wins, as in module order */
    wmi_namemap any = {0}, callable = {0};
    int ok = 1;
    for (size_t j = 0; ok && j < m->nfuncs; j++) {
        const char *name = m->funcs[j].name;
        ok = wmi_namemap_put(&any, name, strlen(name), (uint32_t)j) &&
             (m->funcs[j].is_entry ||
              wmi_namemap_put(&callable, name, strlen(name), (uint32_t)j));
    }
    if (!ok) {
        nomem(p);
    } else {
        for (size_t i = 0; i < m->ncalls; i++) {
            wmi_call *cl = &m->calls[i];
            uint32_t j = wmi_namemap_get(&callable, cl->name, strlen(cl->name));
            if (*cl->name && j != UINT32_MAX)
                cl->callee = j;
        }
        for (size_t i = 0; i < p->nffixes; i++) {
            const struct ffix *x = &p->ffixes[i];
            uint32_t j = wmi_namemap_get(&any, p->s + x->off, x->len);
            m->funcs[x->func].cvals[x->cidx] =
                WMI_FUNC_TAG | (j != UINT32_MAX ? j : 0xffffffffu);
        }
    }
    wmi_namemap_free(&any);
    wmi_namemap_free(&callable);
    for (size_t j = 0; j < m->nfuncs; j++) {
        const wmi_func *f = &m->funcs[j];
        if (f->nslots > m->max_slots)
            m->max_slots = f->nslots;
        if (f->frame_bytes > m->max_frame)
            m->max_frame = f->frame_bytes;
        if (!f->is_entry && f->local_bytes > m->max_local)
            m->max_local = f->local_bytes;
    }
}

/* Resolve the branch targets of the function just parsed. */
static int resolve_labels(parser *p)
{
    wm_ptx_module *m = p->m;
    for (size_t i = 0; i < p->nlrefs; i++) {
        label_ref *r = &p->lrefs[i];
        size_t j = p->nldefs;
        /* the reference's block, then the enclosing ones */
        for (uint32_t s = r->scope, k = 0; j == p->nldefs && k < p->nscopes;
             s = p->sparent[s], k++) {
            for (j = 0; j < p->nldefs; j++)
                if (p->ldefs[j].scope == s && p->ldefs[j].len == r->len &&
                    memcmp(p->s + p->ldefs[j].off, p->s + r->off, r->len) == 0)
                    break;
            if (s == 0)
                break;
        }
        /* not in scope (a branch into a block): any definition, as
           before blocks scoped labels */
        for (size_t k = 0; j == p->nldefs && k < p->nldefs; k++)
            if (p->ldefs[k].len == r->len &&
                memcmp(p->s + p->ldefs[k].off, p->s + r->off, r->len) == 0)
                j = k;
        if (j == p->nldefs) {
            wm_diag_set(p->d, WM_ERR_PARSE, r->off, r->len,
                        "unknown label '%.*s'", (int)r->len, p->s + r->off);
            return 0;
        }
        m->code[r->insn].target = p->ldefs[j].insn;
    }
    return 1;
}

/*
 * A parse error inside a function body is the function's, not the
 * module's: keep the located error in f->err, drop the body's
 * instructions, and go on after the body's closing brace (found again
 * from its '{' at offset body, so the error's position does not matter).
 * The other functions still list and run; running this one reports the
 * error (docs/design/ptx-front-end.md 4).  Out of memory stays fatal.
 * Returns 1 when parsing can go on.
 */
/* Line and column of d->offset from the line cursor, which only moves
   forward: a module of many broken functions is located in one pass over
   it, not one pass from the top per function. */
static void locate(parser *p, wm_diag *d)
{
    size_t end = d->offset < p->n ? d->offset : p->n, b = end;
    if (end < p->lpos) {
        wm_diag_locate(d, p->s, p->n);
        return;
    }
    for (; p->lpos < end; p->lpos++)
        p->lline += p->s[p->lpos] == '\n';
    while (b > 0 && p->s[b - 1] != '\n')
        b--;
    d->line = (int)p->lline;
    d->col = (int)(end - b + 1);
}

static int drop_body(parser *p, size_t body)
{
    wm_ptx_module *m = p->m;
    wmi_func *f = &m->funcs[p->fidx];
    if (p->oom || p->d->status == WM_OK || p->d->status == WM_ERR_NOMEM)
        return 0;
    f->err = malloc(sizeof *f->err);
    if (!f->err)
        return nomem(p);
    *f->err = *p->d;
    locate(p, f->err);
    memset(p->d, 0, sizeof *p->d);
    m->ncode = f->first;
    f->count = 0;
    p->pos = body;
    lex(p);
    assert(is_p(p, '{'));
    int depth = 0;
    do {
        if (is_p(p, '{'))
            depth++;
        else if (is_p(p, '}'))
            depth--;
        next(p);
    } while (depth > 0 && p->t.k != T_EOF);
    p->f = NULL;
    return 1;
}

/* function := (.entry | .func [ret-list]) name param-list {perf-directive}
 *             ( '{' body '}' | ';' )
 * Read in the grammar's order, one step after another (hence its length). */
static int parse_function(parser *p, int is_entry)
{
    wm_ptx_module *m = p->m;
    next(p); /* .entry / .func */
    wmi_func tmp;
    memset(&tmp, 0, sizeof tmp);
    int ok;
    PUSH(m->funcs, m->nfuncs, m->capfuncs, ok);
    if (!ok)
        return nomem(p);
    p->fidx = (uint32_t)m->nfuncs;
    m->funcs[m->nfuncs++] = tmp;
    p->f = &m->funcs[p->fidx];
    p->f->is_entry = is_entry;
    p->f->nslots = SLOT_SREG0 + SR_COUNT;
    p->f->dyn_align = 16;
    if (!is_entry && is_p(p, '(')) { /* return parameters */
        if (!parse_params(p))
            return 0;
        p->f->rets = p->f->params;
        p->f->nrets = p->f->nparams;
        p->f->ret_base = p->f->param_bytes; /* their size, for now */
        p->f->params = NULL;
        p->f->nparams = 0;
        p->f->param_bytes = 0;
    }
    if (p->t.k != T_WORD)
        return err(p, "expected a function name");
    p->f->name = dupn(p->s + p->t.off, p->t.len);
    if (!p->f->name)
        return nomem(p);
    if (!is_entry) {
        if (!wmi_namemap_put(&p->fnames, p->s + p->t.off, p->t.len, 0))
            return nomem(p);
    }
    p->f->pretty = demangle_ident(p->f->name);
    if (!p->f->pretty)
        return nomem(p);
    next(p);
    if (is_p(p, '(') && !parse_params(p))
        return 0;
    /* performance directives: .maxntid 128, 1, 1 / .reqntid 256 / ... */
    while (p->t.k == T_WORD) {
        /* clusters: .reqnctapercluster 2, 1, 1 and .explicitcluster */
        uint32_t *into = is_w(p, ".reqntid") ? p->f->reqntid
                         : is_w(p, ".reqnctapercluster") ? p->f->reqcluster
                                                         : NULL;
        if (into == p->f->reqcluster || is_w(p, ".explicitcluster"))
            p->f->explicit_cluster = 1;
        next(p);
        unsigned k = 0;
        while (p->t.k == T_NUM || is_p(p, ',')) {
            if (p->t.k == T_NUM && into && k < 3) {
                lit l;
                if (!parse_number(p, 0, &l))
                    return 0;
                into[k++] = (uint32_t)l.bits;
            }
            next(p);
        }
        for (; into == p->f->reqcluster && k && k < 3; k++)
            into[k] = 1; /* .reqnctapercluster 4 is 4, 1, 1 */
    }
    if (is_p(p, ';')) { /* a prototype: drop it */
        wmi_func *f = p->f;
        free(f->name);
        free(f->pretty);
        for (uint32_t i = 0; i < f->nparams; i++)
            free(f->params[i].name);
        free(f->params);
        free(f->cslots);
        free(f->cvals);
        free(f->err);
        for (uint32_t j = 0; j < f->nrets; j++)
            free(f->rets[j].name);
        free(f->rets);
        m->nfuncs--;
        p->f = NULL;
        next(p);
        return 1;
    }
    if (!is_p(p, '{'))
        return err(p, "expected '{' to open the function body");
    size_t body = p->t.off;
    p->f->first = (uint32_t)m->ncode;
    p->nregs = p->nlrefs = p->nldefs = p->nfixes = 0;
    wmi_namemap_free(&p->rnames);
    p->scope = 0; /* block 0: the body, its own parent */
    p->nscopes = 0;
    int ok_scope;
    PUSH(p->sparent, p->nscopes, p->capscopes, ok_scope);
    if (!ok_scope)
        return nomem(p);
    p->sparent[p->nscopes++] = 0;
    if (!frame_begin(p))
        return 0;
    p->depth = 0;
    p->curloc = 0;
    p->lastline = 0;
    if (!parse_body(p) || !resolve_labels(p))
        return drop_body(p, body);
    wmi_func *f = &m->funcs[p->fidx];
    f->count = (uint32_t)m->ncode - f->first;
    if (!frame_end(p))
        return 0;
    /* symbol addresses; shared ones wait for the module's layout
       (ptx_smem.c): a callee's variables must hold in every caller's */
    for (size_t i = 0; i < p->nfixes; i++) {
        const sym_fix *x = &p->fixes[i];
        const wmi_var *v = &m->vars[x->var];
        uint64_t a = v->offset;
        if (v->space == SP_SHARED) {
            int pushed;
            PUSH(p->sfixes, p->nsfixes, p->capsfixes, pushed);
            if (!pushed)
                return nomem(p);
            wmi_sfix s = {p->fidx, x->cidx, x->var, x->add};
            p->sfixes[p->nsfixes++] = s;
            continue;
        }
        if (v->space == SP_GLOBAL || v->space == SP_CONST)
            a = ((uint64_t)WMI_MAX_GLOBAL_BUFS << WMI_WIN_SHIFT) + v->offset;
        f->cvals[x->cidx] = a + (uint64_t)x->add;
    }
    p->f = NULL;
    return 1;
}

/* body := '{' { stmt } '}'
 * stmt := .reg ... ; | .shared/.local/.param var ; | .loc ... NL
 *       | .pragma ... ; | label ':' | '{' body-stmts '}' | instruction */
static int parse_body(parser *p)
{
    int ok;
    size_t save_nfsyms = p->nfsyms;
    uint32_t save_fcur = p->fcur;
    /* each level is a frame of this recursion: bounded before the stack */
    if ((uint64_t)p->depth >= WM_LIMIT_PTX_NESTING)
        return err(p, "blocks nested deeper than %llu levels (a fixed limit)",
                   WM_LIMIT_PTX_NESTING);
    next(p); /* '{' */
    p->depth++;
    /* a new label scope inside the function body's */
    uint32_t outer = p->scope;
    if (p->depth > 1) {
        if (p->nscopes >= UINT32_MAX / 2)
            return err(p, "too many nested blocks");
        PUSH(p->sparent, p->nscopes, p->capscopes, ok);
        if (!ok)
            return nomem(p);
        p->sparent[p->nscopes] = outer;
        p->scope = (uint32_t)p->nscopes++;
    }
    for (;;) {
        if (p->t.k == T_EOF)
            return err(p, "expected '}' to close the function body");
        if (is_p(p, '}')) {
            /* leaving a scope drops its names and frees its frame bytes */
            while (p->nregs > 0 && p->regs[p->nregs - 1].depth == p->depth) {
                const regname *r = &p->regs[--p->nregs];
                /* cannot fail: the name is in the map */
                (void)wmi_namemap_put(&p->rnames, r->name, r->len, r->prev);
            }
            p->depth--;
            p->scope = outer;
            p->nfsyms = save_nfsyms;
            p->fcur = save_fcur;
            next(p);
            return 1;
        }
        if (is_p(p, '{')) {
            if (!parse_body(p))
                return 0;
            continue;
        }
        if (is_w(p, ".reg")) {
            if (!parse_reg_decl(p))
                return 0;
        } else if (is_w(p, ".loc")) {
            if (!parse_loc(p))
                return 0;
        } else if (is_w(p, ".shared")) {
            if (!parse_var(p, SP_SHARED, 0))
                return 0;
        } else if (is_w(p, ".local")) {
            if (!parse_var(p, SP_LOCAL, 0))
                return 0;
        } else if (is_w(p, ".param")) {
            if (!parse_call_param(p))
                return 0;
        } else if (p->t.k == T_WORD && p->s[p->t.off] == '.') {
            skip_stmt(p); /* .pragma, .maxnreg, ... */
        } else if (p->t.k == T_WORD) {
            /* label or instruction */
            tok w = p->t;
            size_t save = p->pos;
            next(p);
            if (is_p(p, ':')) {
                PUSH(p->ldefs, p->nldefs, p->capldefs, ok);
                if (!ok)
                    return nomem(p);
                p->ldefs[p->nldefs].off = w.off;
                p->ldefs[p->nldefs].len = w.len;
                p->ldefs[p->nldefs].insn = (uint32_t)p->m->ncode;
                p->ldefs[p->nldefs].scope = p->scope;
                p->nldefs++;
                next(p);
                if (is_w(p, ".callprototype"))
                    skip_stmt(p);
                continue;
            }
            p->pos = save;
            p->t = w;
            if (!parse_insn(p, w.off))
                return 0;
        } else if (is_p(p, '@')) {
            if (!parse_insn(p, p->t.off))
                return 0;
        } else {
            return err(p, "expected an instruction or directive");
        }
    }
}

/* module := { .version | .target | .address_size | .file | .section
 *           | [.visible|.weak|.extern] (.entry | .func | var) } */
static int parse_module(parser *p)
{
    next(p);
    while (p->t.k != T_EOF && p->d->status == WM_OK) {
        int is_extern = 0;
        while (is_w(p, ".visible") || is_w(p, ".weak") || is_w(p, ".extern") ||
               is_w(p, ".common")) {
            if (is_w(p, ".extern"))
                is_extern = 1;
            next(p);
        }
        if (is_w(p, ".version")) {
            lex(p);
            if (p->t.k == T_NUM) {
                p->m->ptx_major = atoi(p->s + p->t.off);
                const char *dot = memchr(p->s + p->t.off, '.', p->t.len);
                p->m->ptx_minor = dot ? atoi(dot + 1) : 0;
            }
            skip_line(p);
        } else if (is_w(p, ".target")) {
            /* .target sm_80[, texmode][, debug]: keep the first word */
            lex(p);
            if (p->t.k == T_WORD && p->t.len < sizeof p->m->target) {
                memcpy(p->m->target, p->s + p->t.off, p->t.len);
                p->m->target[p->t.len] = 0;
            }
            skip_line(p);
        } else if (is_w(p, ".address_size")) {
            skip_line(p);
        } else if (is_w(p, ".file")) {
            if (!parse_file(p))
                return 0;
        } else if (is_w(p, ".section")) {
            while (!is_p(p, '{') && p->t.k != T_EOF)
                next(p);
            int depth = 0;
            do {
                if (is_p(p, '{'))
                    depth++;
                else if (is_p(p, '}'))
                    depth--;
                next(p);
            } while (depth > 0 && p->t.k != T_EOF);
        } else if (is_w(p, ".entry") || is_w(p, ".func")) {
            if (!parse_function(p, is_w(p, ".entry")))
                return 0;
        } else if (is_w(p, ".global")) {
            if (!parse_var(p, SP_GLOBAL, is_extern))
                return 0;
        } else if (is_w(p, ".const")) {
            if (!parse_var(p, SP_CONST, is_extern))
                return 0;
        } else if (is_w(p, ".shared")) {
            if (!parse_var(p, SP_SHARED, is_extern))
                return 0;
        } else if (is_w(p, ".loc")) {
            skip_line(p);
        } else if (p->t.k == T_WORD && p->s[p->t.off] == '.') {
            skip_stmt(p);
        } else {
            return err(p, "expected a directive at module scope");
        }
    }
    return p->d->status == WM_OK;
}

/* ---- public API -------------------------------------------------------------------- */

void wm_ptx_free(wm_ptx_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nfuncs; i++) {
        wmi_func *f = &m->funcs[i];
        free(f->name);
        free(f->pretty);
        for (uint32_t j = 0; j < f->nparams; j++)
            free(f->params[j].name);
        free(f->params);
        free(f->cslots);
        free(f->cvals);
        free(f->err);
        for (uint32_t j = 0; j < f->nrets; j++)
            free(f->rets[j].name);
        free(f->rets);
        free(f->lconst);
        free(f->dconst);
    }
    for (size_t i = 0; i < m->ncalls; i++)
        free(m->calls[i].name);
    free(m->calls);
    for (size_t i = 0; i < m->nfiles; i++)
        free(m->files[i].path);
    for (size_t i = 0; i < m->nvars; i++)
        free(m->vars[i].name);
    free(m->funcs);
    free(m->kern);
    free(m->files);
    free(m->file_order);
    free(m->vars);
    free(m->code);
    free(m->pool);
    free(m->locs);
    free(m->texts);
    free(m->gdata);
    free(m->src);
    free(m->path);
    free(m);
}

/* m->kern: the functions of the .entry kernels, in module order. */
static void index_kernels(wm_ptx_module *m, wm_diag *d)
{
    m->kern = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof *m->kern);
    if (!m->kern) {
        wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
        return;
    }
    for (size_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry)
            m->kern[m->nkern++] = (uint32_t)i;
}

static int by_file_num(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* m->file_order for wmi_ptx_file: (number, index) pairs sorted. */
static void index_files(wm_ptx_module *m, wm_diag *d)
{
    uint64_t *v = malloc((m->nfiles ? m->nfiles : 1) * sizeof *v);
    m->file_order = malloc((m->nfiles ? m->nfiles : 1) * sizeof *m->file_order);
    if (!v || !m->file_order) {
        free(v);
        wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
        return;
    }
    for (size_t i = 0; i < m->nfiles; i++)
        v[i] = (uint64_t)m->files[i].num << 32 | i;
    qsort(v, m->nfiles, sizeof *v, by_file_num);
    for (size_t i = 0; i < m->nfiles; i++)
        m->file_order[i] = (uint32_t)v[i];
    free(v);
}

/* A module whose every kernel failed to parse has nothing to run: it is
   rejected with the first kernel's error. */
static void all_broken(const wm_ptx_module *m, wm_diag *d)
{
    const wmi_func *first = NULL;
    size_t nk = 0;
    for (size_t i = 0; i < m->nfuncs; i++)
        nk += m->funcs[i].is_entry != 0;
    for (size_t i = 0; i < m->nfuncs; i++) {
        const wmi_func *f = &m->funcs[i];
        if (f->is_entry && !f->err)
            return;
        if (!first && f->err && (f->is_entry || !nk))
            first = f;
    }
    if (first)
        *d = *first->err;
}

wm_status wm_ptx_parse(const char *src, size_t n, const char *path,
                       wm_ptx_module **out, wm_diag *d)
{
    wm_diag local;
    if (!d)
        d = &local;
    memset(d, 0, sizeof *d);
    *out = NULL;
    if (!src)
        return wm_diag_set(d, WM_ERR_ARG, 0, 1, "no PTX text");
    wm_ptx_module *m = calloc(1, sizeof *m);
    if (!m)
        return wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
    m->src = dupn(src, n);
    m->path = dupn(path ? path : "<input>", strlen(path ? path : "<input>"));
    m->locs = calloc(16, sizeof *m->locs);
    m->caplocs = 16;
    m->nlocs = 1; /* locs[0]: no location */
    m->gdata = calloc(1, 16);
    if (!m->src || !m->path || !m->locs || !m->gdata) {
        wm_ptx_free(m);
        return wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
    }
    parser p;
    memset(&p, 0, sizeof p);
    p.m = m;
    p.s = m->src;
    p.n = n;
    p.d = d;
    p.lline = 1;
    parse_module(&p);
    if (d->status == WM_OK && m->nfuncs == 0)
        wm_diag_set(d, WM_ERR_PARSE, 0, 1, "no .entry or .func in the module");
    if (d->status == WM_OK)
        all_broken(m, d);
    if (d->status == WM_OK)
        resolve_calls(&p);
    if (d->status == WM_OK &&
        !wmi_ptx_smem_layout(m, p.module_smem, p.sfixes, p.nsfixes))
        nomem(&p);
    if (d->status == WM_OK)
        index_kernels(m, d);
    if (d->status == WM_OK)
        index_files(m, d);
    free(p.regs);
    free(p.lrefs);
    free(p.sparent);
    free(p.ldefs);
    free(p.fixes);
    free(p.sfixes);
    free(p.csym);
    free(p.fsyms);
    wmi_namemap_free(&p.fnames);
    wmi_namemap_free(&p.vnames);
    wmi_namemap_free(&p.rnames);
    free(p.ffixes);
    if (d->status != WM_OK) {
        wm_diag_locate(d, src, n);
        wm_ptx_free(m);
        return d->status;
    }
    *out = m;
    return WM_OK;
}

/* The path of .file num (the first such directive), "" if none. */
const char *wmi_ptx_file(const wm_ptx_module *m, uint32_t num)
{
    size_t lo = 0, hi = m->nfiles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->files[m->file_order[mid]].num < num)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nfiles && m->files[m->file_order[lo]].num == num
               ? m->files[m->file_order[lo]].path
               : "";
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void wmi_ptx_attr(const wm_ptx_module *m, size_t i, const char **file,
                  uint32_t *line, const char **inl_file, uint32_t *inl_line)
{
    const wmi_loc *l = &m->locs[m->code[i].loc];
    *inl_file = "";
    *inl_line = 0;
    *file = l->afile ? wmi_ptx_file(m, l->afile) : "";
    *line = l->aline;
    if (l->afile != l->file || l->aline != l->line) {
        /* code inlined from another file (a CUDA header, Triton's
           standard.py): remember the callee */
        *inl_file = base_name(wmi_ptx_file(m, l->file));
        *inl_line = l->line;
    }
}

size_t wm_ptx_nkernels(const wm_ptx_module *m)
{
    return m->nkern;
}

const wmi_func *wmi_ptx_kernel(const wm_ptx_module *m, size_t k)
{
    return k < m->nkern ? &m->funcs[m->kern[k]] : NULL;
}

const char *wm_ptx_kernel_name(const wm_ptx_module *m, size_t k)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f ? f->name : NULL;
}

const char *wm_ptx_kernel_pretty(const wm_ptx_module *m, size_t k)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f ? f->pretty : NULL;
}

int wm_ptx_kernel_error(const wm_ptx_module *m, size_t k, wm_diag *d)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    if (!f || !f->err)
        return 0;
    if (d)
        *d = *f->err;
    return 1;
}

size_t wm_ptx_kernel_nparams(const wm_ptx_module *m, size_t k)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f ? f->nparams : 0;
}

size_t wm_ptx_param_size(const wm_ptx_module *m, size_t k, size_t i)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f && i < f->nparams ? f->params[i].size : 0;
}

long wm_ptx_find_kernel(const wm_ptx_module *m, const char *name)
{
    size_t nk = wm_ptx_nkernels(m);
    long found = -1;
    if (!name || !*name)
        return nk == 1 ? 0 : (nk ? -2 : -1);
    for (size_t k = 0; k < nk; k++)
        if (strcmp(wmi_ptx_kernel(m, k)->name, name) == 0)
            return (long)k;
    for (size_t k = 0; k < nk; k++)
        if (strcmp(wmi_ptx_kernel(m, k)->pretty, name) == 0) {
            if (found >= 0)
                return -2;
            found = (long)k;
        }
    return found;
}

size_t wm_ptx_ninsns(const wm_ptx_module *m)
{
    return m->ncode;
}

int wm_ptx_where_insn(const wm_ptx_module *m, size_t insn, wm_ptx_where *out)
{
    if (insn >= m->ncode)
        return 0;
    out->ptx_line = m->code[insn].line;
    out->text = m->texts + m->code[insn].text;
    out->near_line = m->locs[m->code[insn].loc].near;
    const wmi_loc *l = &m->locs[m->code[insn].loc];
    out->call_file = l->cfile ? wmi_ptx_file(m, l->cfile) : "";
    out->call_line = l->cline;
    wmi_ptx_attr(m, insn, &out->file, &out->line, &out->inl_file,
                 &out->inl_line);
    return 1;
}
