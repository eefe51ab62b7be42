/*
 * expr_int.h -- internals of the index-expression front end (expr_*.c).
 *
 * Flow: expr_lex.c turns text into tokens (byte offsets into the source
 * copy); expr_parse.c builds an AST of xnode in the program's node array
 * plus one xstmt per access statement; expr_compile.c folds constants and
 * turns each statement into scalar/vector bytecode for one launch;
 * expr_eval.c runs that bytecode for one warp (all lanes at once);
 * expr_ref.c evaluates the AST one thread at a time (the reference);
 * expr_grid.c walks the grid, forms warps as CUDA does and hands every
 * access to a sink.
 *
 * Invariants: node indices are valid positions in wm_expr.nodes; every
 * node and statement carries the source span it came from, so both parse
 * and run-time errors can point at a column.
 */
#ifndef WM_EXPR_INT_H
#define WM_EXPR_INT_H

#include "wm_int.h"

#define WMX_MAX_DIMS 8     /* array rank */
#define WMX_MAX_LOOPS WM_EXPR_MAX_LOOPS /* for-clauses per statement */
#define WMX_MAX_CONSTS 256 /* -D and const definitions */
#define WMX_NAME_MAX 32    /* identifier length */

/* ---- tokens ---------------------------------------------------------------- */

#define WMX_TOKEN_LIST(X)                                                     \
    X(TK_EOF, "end of input")                                                 \
    X(TK_NEWLINE, "end of line")                                              \
    X(TK_NUM, "number")                                                       \
    X(TK_IDENT, "name")                                                       \
    X(TK_LBRACK, "'['")                                                       \
    X(TK_RBRACK, "']'")                                                       \
    X(TK_LPAREN, "'('")                                                       \
    X(TK_RPAREN, "')'")                                                       \
    X(TK_COMMA, "','")                                                        \
    X(TK_DOT, "'.'")                                                          \
    X(TK_DOTDOT, "'..'")                                                      \
    X(TK_QUEST, "'?'")                                                        \
    X(TK_COLON, "':'")                                                        \
    X(TK_ASSIGN, "'='")                                                       \
    X(TK_SEMI, "';'")                                                         \
    X(TK_PLUS, "'+'")                                                         \
    X(TK_MINUS, "'-'")                                                        \
    X(TK_STAR, "'*'")                                                         \
    X(TK_SLASH, "'/'")                                                        \
    X(TK_PERCENT, "'%'")                                                      \
    X(TK_SHL, "'<<'")                                                         \
    X(TK_SHR, "'>>'")                                                         \
    X(TK_AMP, "'&'")                                                          \
    X(TK_PIPE, "'|'")                                                         \
    X(TK_CARET, "'^'")                                                        \
    X(TK_TILDE, "'~'")                                                        \
    X(TK_BANG, "'!'")                                                         \
    X(TK_LT, "'<'")                                                           \
    X(TK_LE, "'<='")                                                          \
    X(TK_GT, "'>'")                                                           \
    X(TK_GE, "'>='")                                                          \
    X(TK_EQ, "'=='")                                                          \
    X(TK_NE, "'!='")                                                          \
    X(TK_ANDAND, "'&&'")                                                      \
    X(TK_OROR, "'||'")

typedef enum {
#define WMX_X_ENUM(code, text) code,
    WMX_TOKEN_LIST(WMX_X_ENUM)
#undef WMX_X_ENUM
        TK_COUNT
} xtok_kind;

typedef struct xtoken {
    xtok_kind kind;
    size_t off; /* byte offset in the source */
    size_t len;
    int64_t num; /* TK_NUM value */
} xtoken;

typedef struct xlexer {
    const char *src;
    size_t n;
    size_t pos;
    wm_diag *diag;
} xlexer;

/* Text of a token kind for messages ("']'", "end of line"). */
const char *wmi_expr_tok_name(xtok_kind k);

/*
 * Scan the next token.  On a bad character or number it records the error
 * in lx->diag and returns TK_EOF.
 */
void wmi_expr_lex(xlexer *lx, xtoken *t);

/* ---- operators (one list: parser, folding, both evaluators, dumps) ------- */

/* X(name, text, C-precedence (0 = not binary)) */
#define WMX_OP_LIST(X)                                                        \
    X(XO_MUL, "*", 10)                                                        \
    X(XO_DIV, "/", 10)                                                        \
    X(XO_MOD, "%", 10)                                                        \
    X(XO_ADD, "+", 9)                                                         \
    X(XO_SUB, "-", 9)                                                         \
    X(XO_SHL, "<<", 8)                                                        \
    X(XO_SHR, ">>", 8)                                                        \
    X(XO_LT, "<", 7)                                                          \
    X(XO_LE, "<=", 7)                                                         \
    X(XO_GT, ">", 7)                                                          \
    X(XO_GE, ">=", 7)                                                         \
    X(XO_EQ, "==", 6)                                                         \
    X(XO_NE, "!=", 6)                                                         \
    X(XO_AND, "&", 5)                                                         \
    X(XO_XOR, "^", 4)                                                         \
    X(XO_OR, "|", 3)                                                          \
    X(XO_LAND, "&&", 2)                                                       \
    X(XO_LOR, "||", 1)                                                        \
    X(XO_MIN, "min", 0)                                                       \
    X(XO_MAX, "max", 0)                                                       \
    X(XO_NEG, "-", 0)                                                         \
    X(XO_NOT, "~", 0)                                                         \
    X(XO_LNOT, "!", 0)

typedef enum {
#define WMX_X_ENUM(code, text, prec) code,
    WMX_OP_LIST(WMX_X_ENUM)
#undef WMX_X_ENUM
        XO_COUNT
} xop;

/* Operator spelling for dumps and messages. */
const char *wmi_expr_op_text(xop op);

/* ---- variables ------------------------------------------------------------- */

/*
 * Variable slots.  The first XV_NBUILTIN are the PTX special registers
 * (CUDA threadIdx/blockDim/blockIdx/gridDim spell the same ones); loop
 * variables of a statement follow.  Constants never appear: the parser
 * replaces a constant by its value.
 */
enum {
    XV_TID_X, XV_TID_Y, XV_TID_Z,
    XV_NTID_X, XV_NTID_Y, XV_NTID_Z,
    XV_CTAID_X, XV_CTAID_Y, XV_CTAID_Z,
    XV_NCTAID_X, XV_NCTAID_Y, XV_NCTAID_Z,
    XV_LANEID,
    XV_WARPID,
    XV_NBUILTIN,
    XV_LOOP0 = XV_NBUILTIN,
    XV_COUNT = XV_LOOP0 + WMX_MAX_LOOPS
};

/* Does slot v differ between the lanes of one warp? */
static inline bool wmi_expr_var_varies(unsigned v)
{
    return v <= XV_TID_Z || v == XV_LANEID;
}

/* ---- AST ------------------------------------------------------------------- */

typedef enum {
    XN_NUM,    /* value */
    XN_VAR,    /* var */
    XN_UNARY,  /* op a */
    XN_BINARY, /* a op b (also min/max) */
    XN_COND    /* a ? b : c */
} xnode_kind;

typedef struct xnode {
    xnode_kind kind;
    xop op;
    unsigned var;
    int32_t a, b, c; /* children, -1 when absent */
    int64_t value;
    size_t off, len; /* source span (the operator for binaries) */
    unsigned depth;  /* height of the subtree (<= WM_LIMIT_EXPR_DEPTH, so
                        the recursive passes over it stay shallow) */
} xnode;

/* One `for NAME in LO..HI [step S]` clause: NAME takes LO, LO+S, ... < HI. */
typedef struct xloop {
    char name[WMX_NAME_MAX];
    int32_t lo, hi, step; /* nodes; step is -1 for 1 */
    size_t off, len;      /* the clause's span */
} xloop;

/* One access statement. */
typedef struct xstmt {
    wm_op op;
    wm_space space;
    unsigned esize;   /* element (= access) size in bytes */
    char type[16];    /* spelled type, e.g. "f32x4" */
    char name[WMX_NAME_MAX];
    unsigned ndims;
    int open_first;   /* 1: first dimension written [] (unbounded) */
    int64_t dims[WMX_MAX_DIMS];
    int64_t pad;      /* extra elements per row of the last dimension */
    int64_t offset;   /* base byte offset */
    uint64_t stride[WMX_MAX_DIMS]; /* elements per step of each index */
    int32_t index[WMX_MAX_DIMS];   /* nodes */
    size_t index_off[WMX_MAX_DIMS], index_len[WMX_MAX_DIMS];
    unsigned nloops;
    xloop loops[WMX_MAX_LOOPS];
    int32_t pred;     /* node, -1 for none */
    size_t off, len;  /* whole statement */
    uint32_t line;
} xstmt;

/* A named constant (-D or `const`). */
typedef struct xconst {
    char name[WMX_NAME_MAX];
    int64_t value;
    int from_cli; /* 1: -D (a later `const` of the same name is ignored) */
} xconst;

/* ---- compiled form ------------------------------------------------------- */

/*
 * Bytecode for one statement under one launch.  Registers are scalar
 * (one value for the whole warp) or vector (one value per lane); the
 * compiler decides which from the variables an expression reads, so work
 * that is the same for every lane is done once.  Masks are lane bit sets:
 * mask 0 holds the warp's live lanes, others come from `if` and from
 * ?: / && / || with lane-varying conditions; only faulting ops look at
 * them (a lane outside the mask must not fault).
 */
#define WMX_INSN_LIST(X)                                                      \
    X(XI_BIN)      /* dst = a op b */                                         \
    X(XI_UN)       /* dst = op a */                                           \
    X(XI_SEL)      /* dst = c ? a : b   (c = mask register of lanes) */       \
    X(XI_MASK_NZ)  /* mask[dst] = mask[m] & lanes where a != 0 */             \
    X(XI_MASK_Z)   /* mask[dst] = mask[m] & lanes where a == 0 */             \
    X(XI_BOOL)     /* dst = a != 0 */

typedef enum {
#define WMX_X_ENUM(code) code,
    WMX_INSN_LIST(WMX_X_ENUM)
#undef WMX_X_ENUM
        XI_COUNT
} xinsn_op;

/* Operand reference: bit 15 set = vector register, else scalar. */
#define XR_VEC 0x8000u
#define XR_IDX(r) ((r) & 0x7fffu)
#define XR_ISVEC(r) (((r) & XR_VEC) != 0)

typedef struct xinsn {
    xinsn_op kind;
    xop op;
    uint16_t dst, a, b, c;
    uint16_t mask; /* lanes that may fault */
    int32_t node;  /* source node, for fault locations */
} xinsn;

/* How the value of one index is known (see expr_compile.c). */
typedef enum {
    XD_SCALAR, /* sreg: the same for every lane */
    XD_SPLIT,  /* sreg + treg[lane]: treg depends on tid/laneid only */
    XD_VEC     /* vreg[lane] */
} xdim_kind;

typedef struct xcode {
    xinsn *insn;      /* per access */
    size_t ninsn, cap;
    xinsn *hoist;     /* per warp of a block, once per run (tid-only) */
    size_t nhoist, caphoist;
    unsigned nscalar, nvector, nmask;
    int64_t *konst;   /* scalar registers preloaded with constants */
    unsigned nkonst;
    uint16_t *tcopy;  /* hoisted vectors the access code reads */
    unsigned ntcopy;
    uint16_t pred_mask; /* mask register after `if` (0 without) */
    xdim_kind dim[WMX_MAX_DIMS];
    uint16_t sreg[WMX_MAX_DIMS], treg[WMX_MAX_DIMS], vreg[WMX_MAX_DIMS];
} xcode;

/*
 * Scalar registers the grid walk fills before running a warp's code; the
 * constant pool follows, then temporaries.  Vector registers 0..3 are
 * tid.x, tid.y, tid.z and laneid.
 */
enum {
    XS_CTAID_X, XS_CTAID_Y, XS_CTAID_Z, XS_WARPID, XS_TID_Y, XS_TID_Z,
    XS_LOOP0,
    XS_NINPUT = XS_LOOP0 + WMX_MAX_LOOPS,
    XS_KMAX = 256,                 /* constant pool size */
    XS_TEMP0 = XS_NINPUT + XS_KMAX /* first temporary */
};

/* Launch geometry, filled once per run. */
typedef struct xlaunch {
    unsigned grid[3], block[3];
    unsigned nlanes;           /* warp size of the profile */
    unsigned warps_per_block;
    uint64_t threads_per_block;
} xlaunch;

/* ---- the program object ---------------------------------------------------- */

struct wm_expr {
    char *src;
    size_t nsrc;
    char *file;
    xnode *nodes;
    size_t nnodes, capnodes;
    xstmt *stmts;
    size_t nstmts, capstmts;
    xconst consts[WMX_MAX_CONSTS];
    size_t nconsts;
    unsigned grid[3], block[3];
    int have_grid, have_block;
    size_t grid_off, block_off; /* directive spans for errors */
    char **labels;              /* statement texts (nstmts) */
    void *worst;                /* per statement, from the last run */
};

/* ---- functions shared between expr_*.c ------------------------------------ */

/* Parse src into e (statements appended).  First error goes to d. */
wm_status wmi_expr_parse(wm_expr *e, wm_diag *d);

/* Value of a builtin for a thread; used by both evaluators. */
typedef struct xenv {
    int64_t v[XV_COUNT];
} xenv;

/*
 * A run-time fault as found by an evaluator: the node (or statement part)
 * that failed, the lane, and a message.  lane is -1 when none.
 */
typedef struct xfault {
    int lane;
    int32_t node;     /* -1 when the fault is not in an expression */
    size_t off, len;  /* source span */
    char msg[160];
} xfault;

/*
 * Reference evaluation of node n for one thread (C semantics on int64,
 * left-to-right, short-circuit).  Returns 0 and fills f on a fault.
 */
int wmi_expr_ref_eval(const wm_expr *e, int32_t n, const xenv *env,
                      int64_t *out, xfault *f);

/* Compile statement s for launch L into c.  WM_OK or WM_ERR_NOMEM. */
wm_status wmi_expr_compile(const wm_expr *e, const xstmt *s,
                           const xlaunch *L, xcode *c);
void wmi_expr_code_free(xcode *c);

/* Scratch for running code over one warp. */
typedef struct xregs {
    int64_t *s;          /* nscalar */
    int64_t (*v)[WM_MAX_LANES]; /* nvector */
    uint64_t *m;         /* nmask */
    /* per-lane first fault: node and message inputs */
    uint64_t faulted;
    int32_t fnode[WM_MAX_LANES];
    int64_t fval[WM_MAX_LANES];
} xregs;

/* Operand value of lane l (a scalar is the same for all lanes). */
static inline int64_t wmi_expr_lane_value(const xregs *r, uint16_t reg,
                                          unsigned l)
{
    return XR_ISVEC(reg) ? r->v[XR_IDX(reg)][l] : r->s[reg];
}

wm_status wmi_expr_regs_alloc(const xcode *c, xregs *r);
void wmi_expr_regs_free(xregs *r);

/*
 * Run n instructions for one warp: r->s / r->v hold the inputs (scalars:
 * uniform builtins and loop variables; vectors 0..3: tid.x, tid.y, tid.z,
 * laneid, and the hoisted vectors the code reads); r->m[0] the live
 * lanes.  On return the result registers are filled and r->faulted holds
 * lanes that faulted (fnode/fval say where).
 */
void wmi_expr_run_insns(const xinsn *in, size_t n, unsigned nlanes,
                        xregs *r);

/* Source span [*lo, *hi) of node n and all its children. */
void wmi_expr_span(const wm_expr *e, int32_t n, size_t *lo, size_t *hi);

/* Message for a fault at node n with operand value v ("division by zero"). */
void wmi_expr_fault_text(const wm_expr *e, int32_t n, int64_t v,
                         xfault *f);

/* Receives every access the grid walk forms; non-WM_OK stops the walk. */
typedef wm_status (*wmi_expr_sink)(void *ctx, const wm_access *a,
                                   const wm_expr_where *w);

/*
 * Replay of block-independent statements (expr_replay.c): *out is NULL
 * when no statement qualifies.  The first block records each (statement,
 * warp) visit's accesses in order; on() says whether later blocks may
 * replay them with get() instead of evaluating.
 */
typedef struct xreplay xreplay;
wm_status wmi_expr_replay_new(const wm_expr *e, unsigned nwarps,
                              unsigned nlanes, xreplay **out);
void wmi_expr_replay_free(xreplay *r);
int wmi_expr_replay_on(const xreplay *r, size_t stmt, unsigned warp);
wm_status wmi_expr_replay_record(xreplay *r, size_t stmt, unsigned warp,
                                 const wm_access *a);
void wmi_expr_replay_get(const xreplay *r, size_t stmt, unsigned warp,
                         size_t i, wm_access *a);

/*
 * Closed-form counting of affine statements (expr_closed.c).  A statement
 * whose indices are all SCALAR or SPLIT is enabled with its quantum q (a
 * power of two, wmi_expr_quantum); the walk then keys each access by its
 * base's residue mod q per (statement, warp of a block).  note() records n
 * accesses at base b: it returns 0 when b's residue is new (the first of
 * them must then go through the ordinary path, the n - 1 others are
 * repeats) and 1 when all n are repeats; *st is set on OOM.  add() adds n
 * repeats of a residue already noted.  each() calls fn for every residue
 * with repeats, with its first base.
 */
typedef struct xcf xcf;
typedef wm_status (*wmi_expr_cf_fn)(void *ud, size_t stmt, unsigned warp,
                                    uint64_t first, uint64_t nrep);
uint64_t wmi_expr_quantum(const wm_arch *arch, wm_space space,
                          unsigned size);
wm_status wmi_expr_cf_new(size_t nstmts, unsigned nwarps, xcf **out);
void wmi_expr_cf_free(xcf *c);
void wmi_expr_cf_enable(xcf *c, size_t stmt, uint64_t q);
uint64_t wmi_expr_cf_quantum(const xcf *c, size_t stmt);
int wmi_expr_cf_note(xcf *c, size_t stmt, unsigned warp, uint64_t b,
                     uint64_t n, wm_status *st);
void wmi_expr_cf_add(xcf *c, size_t stmt, unsigned warp, uint64_t b,
                     uint64_t n);
wm_status wmi_expr_cf_each(const xcf *c, wmi_expr_cf_fn fn, void *ud);

/*
 * 1 if node n's value is affine in variable v with a constant step:
 * value(v + 1) - value(v) = *coef modulo 2^64 for every v (built from
 * + - unary -, * by a launch constant and << by one; a subtree without v
 * has coefficient 0).  0 when that is not shown.
 */
int wmi_expr_affine_in(const wm_expr *e, int32_t n, unsigned v,
                       const xlaunch *L, int64_t *coef);

/*
 * 1 if no thread of the launch can fault in statement s: every index is
 * within its dimension and no operator can fault, shown by interval
 * bounds over the variables' ranges (loop k over loop_lo[k] ..
 * loop_hi[k] - 1, its bounds constants).  0 when not shown.
 */
int wmi_expr_stmt_safe(const wm_expr *e, const xstmt *s, const xlaunch *L,
                       const int64_t *loop_lo, const int64_t *loop_hi);

/*
 * The smallest power of two p < grid.x such that every access of
 * statement s in block (x + p, y, z) is the one of block (x, y, z) moved
 * by the same multiple of q for all lanes (so it has the same counts);
 * 0 when none is shown.  For a statement that cannot fault
 * (wmi_expr_stmt_safe, same loop ranges).
 */
uint64_t wmi_expr_row_period(const wm_expr *e, const xstmt *s,
                             const xlaunch *L, const int64_t *loop_lo,
                             const int64_t *loop_hi, uint64_t q);

/* Period of the residues mod q (a power of two) of b, b + d, b + 2d ... */
uint64_t wmi_expr_cf_period(uint64_t d, uint64_t q);

/*
 * n more accesses like a (same site, mask and counts; the first was given
 * to the sink): the closed-form path's repeats.
 */
typedef wm_status (*wmi_expr_repeat)(void *ctx, const wm_access *a,
                                     uint64_t n);

/*
 * Walk the whole grid: for each block (x fastest), each warp, each
 * statement, each loop iteration, form the warp's access and give it to
 * sink.  reference = 1 uses the per-thread AST evaluator, 0 the compiled
 * vector code.  On a run-time fault returns WM_ERR_FAULT and fills *fault.
 */
wm_status wmi_expr_walk(const wm_expr *e, const wm_arch *arch,
                        int reference, uint64_t max_accesses,
                        wmi_expr_sink sink, void *ctx, wm_expr_fault *fault);

/*
 * wmi_expr_walk that counts affine statements in closed form: accesses the
 * sink would see with the same counts as one it saw for the same
 * statement are passed to rep instead, n at a time, at the end of the
 * walk (also after a fault: they all came before it).  For a sink that
 * only sums (no per-access consumer such as the hierarchy model).
 */
wm_status wmi_expr_walk_closed(const wm_expr *e, const wm_arch *arch,
                               uint64_t max_accesses, wmi_expr_sink sink,
                               wmi_expr_repeat rep, void *ctx,
                               wm_expr_fault *fault);

/* ---- arithmetic shared by both evaluators ------------------------------- */

/*
 * C's integer semantics on int64 with the undefined cases made total:
 * + - * and unary - wrap modulo 2^64 (two's complement); INT64_MIN / -1 is
 * INT64_MIN and INT64_MIN % -1 is 0; >> is arithmetic.  The faulting
 * cases (zero divisor, shift count outside 0..63) are checked by callers
 * before these run.
 */
static inline int64_t wmx_wrap(uint64_t x)
{
    return x <= (uint64_t)INT64_MAX ? (int64_t)x
                                    : -(int64_t)(~x) - 1;
}

static inline int64_t wmx_div(int64_t a, int64_t b)
{
    return b == -1 ? wmx_wrap(0 - (uint64_t)a) : a / b;
}

static inline int64_t wmx_mod(int64_t a, int64_t b)
{
    return b == -1 ? 0 : a % b;
}

static inline int64_t wmx_shr(int64_t a, int64_t b)
{
    return a < 0 ? ~(~a >> b) : a >> b;
}

/* Does op fault for right operand b?  (division by 0, bad shift) */
static inline bool wmx_faults(xop op, int64_t b)
{
    return ((op == XO_DIV || op == XO_MOD) && b == 0) ||
           ((op == XO_SHL || op == XO_SHR) && (b < 0 || b > 63));
}

/* a op b for a non-faulting (op, b); op is binary or min/max. */
static inline int64_t wmx_binop(xop op, int64_t a, int64_t b)
{
    switch (op) {
    case XO_MUL: return wmx_wrap((uint64_t)a * (uint64_t)b);
    case XO_DIV: return wmx_div(a, b);
    case XO_MOD: return wmx_mod(a, b);
    case XO_ADD: return wmx_wrap((uint64_t)a + (uint64_t)b);
    case XO_SUB: return wmx_wrap((uint64_t)a - (uint64_t)b);
    case XO_SHL: return wmx_wrap((uint64_t)a << b);
    case XO_SHR: return wmx_shr(a, b);
    case XO_LT: return a < b;
    case XO_LE: return a <= b;
    case XO_GT: return a > b;
    case XO_GE: return a >= b;
    case XO_EQ: return a == b;
    case XO_NE: return a != b;
    case XO_AND: return a & b;
    case XO_XOR: return a ^ b;
    case XO_OR: return a | b;
    case XO_LAND: return a != 0 && b != 0;
    case XO_LOR: return a != 0 || b != 0;
    case XO_MIN: return a < b ? a : b;
    case XO_MAX: return a > b ? a : b;
    case XO_NEG:
    case XO_NOT:
    case XO_LNOT:
    case XO_COUNT: break;
    }
    assert(0 && "not a binary operator");
    return 0;
}

static inline int64_t wmx_unop(xop op, int64_t a)
{
    switch (op) {
    case XO_NEG: return wmx_wrap(0 - (uint64_t)a);
    case XO_NOT: return ~a;
    case XO_LNOT: return a == 0;
    case XO_MUL: case XO_DIV: case XO_MOD: case XO_ADD: case XO_SUB:
    case XO_SHL: case XO_SHR: case XO_LT: case XO_LE: case XO_GT:
    case XO_GE: case XO_EQ: case XO_NE: case XO_AND: case XO_XOR:
    case XO_OR: case XO_LAND: case XO_LOR: case XO_MIN: case XO_MAX:
    case XO_COUNT: break;
    }
    assert(0 && "not a unary operator");
    return 0;
}

#endif /* WM_EXPR_INT_H */
