/*
 * ptx_parse_int.h -- the PTX front end's shared state: the parser, its
 * tokens, literals and operands, and the functions its parts call across
 * files: the lexer (ptx_lex.c), registers, variables and operands
 * (ptx_operand.c), instructions and line info (ptx_insn.c), and functions,
 * module items and the API (ptx_parse.c, whose head describes the whole).
 */
#ifndef WM_PTX_PARSE_INT_H
#define WM_PTX_PARSE_INT_H

#include "ptx_int.h"

/* ---- growable arrays ------------------------------------------------- */

#define PUSH(arr, n, cap, ok)                                                  \
    (wmi_grow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr), 16)             \
         ? ((ok) = 1)                                                          \
         : ((ok) = 0))

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

typedef enum { LIT_INT, LIT_F32, LIT_F64, LIT_DEC } litkind;

typedef struct lit {
    litkind k;
    uint64_t bits; /* int value (two's complement) or float bits */
    double dval;   /* LIT_DEC */
} lit;

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

/* ---- the lexer and numbers (ptx_lex.c) ----------------------------------- */

/* The next token into p->t (wmi_lex_scan reads it at p->pos); is the
   current token the punctuation c, the word w; expect c (else an error
   naming what); skip to the end of the line or of the statement. */
void wmi_lex_scan(parser *p);
void wmi_lex_next(parser *p);
int wmi_lex_is_p(const parser *p, char c);
int wmi_lex_is_w(const parser *p, const char *w);
int wmi_lex_expect_p(parser *p, char c, const char *what);
void wmi_lex_skip_line(parser *p);
void wmi_lex_skip_stmt(parser *p);
/* The first error at the current token (returns 0); out of memory. */
int wmi_parse_err(parser *p, const char *fmt, ...);
int wmi_parse_nomem(parser *p);
/* A numeric literal (negated when neg); its bits as type t; does it fit t? */
int wmi_lex_number(parser *p, int neg, lit *out);
uint64_t wmi_lit_bits(const lit *l, wmi_type t);
int wmi_lit_fits(const lit *l, wmi_type t);

/* ---- registers, variables and operands (ptx_operand.c) ------------------ */

int wmi_parse_reg_decl(parser *p);
uint32_t wmi_parse_find_reg(parser *p, const char *s, size_t n);
int wmi_parse_var(parser *p, wmi_space sp, int is_extern);
long wmi_parse_find_var(const parser *p, const char *s, size_t n);
uint64_t wmi_parse_align_up(uint64_t x, uint64_t a);
int wmi_parse_operand(parser *p, operand *o);
int wmi_parse_src_slot(parser *p, const operand *o, wmi_type t, uint32_t *out);
int wmi_parse_addr_operand(parser *p, const operand *o, wmi_space sp,
                           uint32_t *base, int64_t *off);
int wmi_parse_tex_address(parser *p, const operand *o, wmi_type ct,
                          uint32_t *handle, uint32_t *coords);

/* ---- instructions and line info (ptx_insn.c) ----------------------------- */

int wmi_parse_insn(parser *p, size_t start);
int wmi_parse_loc(parser *p);
int wmi_parse_file(parser *p);

/* ---- functions and the module (ptx_parse.c) ------------------------------ */

/* A copy of s[0..n) (NUL-terminated), NULL on OOM; a frame symbol of the
   function being parsed; a call lowered to the call sequence. */
char *wmi_parse_dupn(const char *s, size_t n);
const struct fsym *wmi_parse_find_fsym(const parser *p, const char *s,
                                       size_t n);
int wmi_parse_lower_call(parser *p, wmi_insn *in, const operand *ops,
                         unsigned nops);

#endif /* WM_PTX_PARSE_INT_H */
