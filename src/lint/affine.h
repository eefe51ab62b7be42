/*
 * affine.h -- symbolic integer values as sums of terms over variables, the
 * abstract domain of `warpmem lint` (ptx_lint.c) and of any other pass that
 * wants to know how a register depends on the thread index.
 *
 * A value (wmi_aff) is either top (unknown: a loaded value, a float, a
 * merge of two different values) or
 *
 *     c0 + c1*v1 + ... + cn*vn       (n <= WMI_AFF_TERMS, ci != 0)
 *
 * over variables of a context (wmi_actx).  A variable is
 *   - a base symbol: a special register (%tid.x, %ctaid.y, %ntid.x ...), a
 *     kernel parameter, the iteration count of a loop, a warp-uniform
 *     loaded value, or a loop-carried placeholder (phi);
 *   - a product of two variables (ctaid.x * ntid.x), so forms stay linear
 *     in their variables while the index arithmetic of real kernels is
 *     polynomial;
 *   - an atom: a non-linear operation (and, or, xor, shr, div, rem, min,
 *     max, selp ...) of two forms, kept symbolically so the value can still
 *     be evaluated for concrete lanes and "tid.x & 31" or an XOR swizzle
 *     is not lost.
 * Variables are hash-consed: building the same product or atom twice gives
 * the same variable, so two forms are equal iff they are the same
 * expression after normalisation (wmi_aff_eq), which the loop analysis
 * relies on to reach a fixpoint.
 *
 * Arithmetic is on mathematical integers held in int64: PTX's wrap-around
 * at 32 or 64 bits is not modelled (index arithmetic of a correct kernel
 * does not overflow).  Atoms record the width and signedness of their
 * operation and evaluate with PTX's semantics at that width.
 *
 * Every variable knows whether it is warp-uniform (the same in all lanes
 * of a warp) and the set of loops it depends on (a 64-bit mask of loop
 * ids), so a pass can split a form into its lane-varying and uniform parts
 * and recognise loop-invariant steps.
 */
#ifndef WM_AFFINE_H
#define WM_AFFINE_H

#include "wm_int.h"

#define WMI_AFF_TERMS 8

/* Why a value is top (wmi_aff.why). */
#define WMI_AFF_WHY_LIST(X)                                                    \
    X(WMI_TOP_NONE, "known")                                                   \
    X(WMI_TOP_LOAD, "a value loaded from memory")                              \
    X(WMI_TOP_FLOAT, "floating-point arithmetic")                              \
    X(WMI_TOP_OP, "an operation the analysis does not model")                  \
    X(WMI_TOP_MERGE, "different values merging after a branch")                \
    X(WMI_TOP_LOOP, "a loop-carried value that is not an induction variable")  \
    X(WMI_TOP_TERMS, "an expression too large to track")                       \
    X(WMI_TOP_SREG, "a special register without a fixed value")                \
    X(WMI_TOP_WARP, "a value exchanged between lanes (shfl, vote, atom)")

typedef enum {
#define X(e, text) e,
    WMI_AFF_WHY_LIST(X)
#undef X
        WMI_TOP_COUNT
} wmi_top_why;

/* Text of a reason ("a value loaded from memory"); never NULL. */
const char *wmi_aff_why_text(wmi_top_why w);

typedef struct wmi_aff_term {
    int64_t c;
    uint32_t v; /* variable id in the context */
} wmi_aff_term;

typedef struct wmi_aff {
    uint8_t top;    /* 1: unknown */
    uint8_t nterms; /* terms in t[], sorted by v, every c != 0 */
    uint16_t why;   /* wmi_top_why when top */
    uint32_t at;    /* instruction that made it top (WMI_NOREG: none) */
    int64_t c0;
    wmi_aff_term t[WMI_AFF_TERMS];
} wmi_aff;

/* Kinds of variables. */
typedef enum {
    WMI_AV_SREG,  /* special register: id = SR_x */
    WMI_AV_PARAM, /* kernel parameter: id = index */
    WMI_AV_ITER,  /* iteration count (0, 1, ...) of loop: id = loop id */
    WMI_AV_LOAD,  /* warp-uniform loaded value: id = instruction */
    WMI_AV_JOIN,  /* different uniform values meeting: id = instruction,
                     x = slot */
    WMI_AV_PHI,   /* loop-carried placeholder: id = loop id, x = slot */
    WMI_AV_PROD,  /* x * y (variable ids, x <= y) */
    WMI_AV_ATOM   /* op(form x, form y) (form ids, see wmi_actx_form) */
} wmi_avar_kind;

/* Operations of atoms. */
typedef enum {
    WMI_AOP_AND,
    WMI_AOP_OR,
    WMI_AOP_XOR,
    WMI_AOP_SHL,
    WMI_AOP_SHR,
    WMI_AOP_DIV,
    WMI_AOP_REM,
    WMI_AOP_MIN,
    WMI_AOP_MAX,
    WMI_AOP_SEL,
    WMI_AOP_COUNT
} wmi_aop;

typedef struct wmi_avar {
    uint8_t kind;    /* wmi_avar_kind */
    uint8_t op;      /* atoms: wmi_aop */
    uint8_t bits;    /* atoms: operation width 32 or 64 */
    uint8_t sgn;     /* atoms: signed operation */
    uint8_t uniform; /* same value in every lane of a warp */
    uint8_t height;  /* PROD, ATOM: 1 + the highest operand variable's;
                        at most WMI_AVAR_MAX_HEIGHT */
    uint32_t id;     /* see wmi_avar_kind */
    uint32_t x, y;   /* PROD: variables; ATOM: forms (SEL: x is the first
                        of four: l, r, a, b and id the wmi_cmp); PHI: x =
                        slot */
    uint64_t loops;  /* bit (loop id % 64) for each loop it depends on */
} wmi_avar;

/* Products and atoms nest at most this deep.  Evaluation and the lint's
 * marking recurse once per level, and a chain of dependent instructions
 * (100 000 "mul %r1, %r1, %r2") would otherwise run off the stack; a
 * deeper value is top (WMI_TOP_TERMS).  Index arithmetic of real kernels
 * nests a few levels. */
#define WMI_AVAR_MAX_HEIGHT 64

/* The variables and the forms that atoms refer to. */
typedef struct wmi_actx {
    wmi_avar *vars;
    size_t nvars, capvars;
    wmi_aff *forms; /* operands of atoms */
    size_t nforms, capforms;
    uint32_t *hidx; /* hash slot -> variable + 1 (0: empty), nh slots */
    size_t nh;
    int oom; /* an allocation failed: every new value is top */
} wmi_actx;

void wmi_actx_init(wmi_actx *x);
void wmi_actx_free(wmi_actx *x);

/* ---- building values ---------------------------------------------------- */

static inline wmi_aff wmi_aff_const(int64_t c)
{
    wmi_aff a;
    memset(&a, 0, sizeof a);
    a.c0 = c;
    a.at = 0xffffffffu;
    return a;
}

static inline wmi_aff wmi_aff_top(wmi_top_why why, uint32_t at)
{
    wmi_aff a = wmi_aff_const(0);
    a.top = 1;
    a.why = (uint16_t)why;
    a.at = at;
    return a;
}

/* 1*v for a base symbol (found or created); top on OOM. */
wmi_aff wmi_aff_sym(wmi_actx *x, wmi_avar_kind kind, uint32_t id, uint32_t sx,
                    int uniform, uint64_t loops);

/* The variable id of a one-term form 1*v with c0 = 0, or WMI_NOREG. */
uint32_t wmi_aff_single(const wmi_aff *a);

/* a + b, a - b, k * a.  Top when an operand is top or terms overflow. */
wmi_aff wmi_aff_add(const wmi_aff *a, const wmi_aff *b);
wmi_aff wmi_aff_sub(const wmi_aff *a, const wmi_aff *b);
wmi_aff wmi_aff_scale(const wmi_aff *a, int64_t k);

/* a * b: constants scale, otherwise terms multiply into products. */
wmi_aff wmi_aff_mul(wmi_actx *x, const wmi_aff *a, const wmi_aff *b);

/*
 * op(a, b) at the given width: folded when both are constant, simplified
 * where the algebra allows (shl by a constant is a scale; and with 2^k-1
 * of a form whose terms are multiples of 2^k keeps c0's low bits; x & 0,
 * x | 0 ...), else a new atom.  For WMI_AOP_SEL use wmi_aff_select.
 */
wmi_aff wmi_aff_op(wmi_actx *x, wmi_aop op, unsigned bits, int sgn,
                   const wmi_aff *a, const wmi_aff *b, uint32_t at);

/* cond ? a : b where cond is (l CMP r) with cmp a wmi_cmp of ptx_int.h
   on `bits`-wide (signed if sgn) operands; a == b gives a. */
wmi_aff wmi_aff_select(wmi_actx *x, unsigned cmp, unsigned bits, int sgn,
                       const wmi_aff *l, const wmi_aff *r, const wmi_aff *a,
                       const wmi_aff *b, uint32_t at);

/* ---- facts --------------------------------------------------------------- */

/* Same value (both top counts as equal only for the same reason). */
int wmi_aff_eq(const wmi_aff *a, const wmi_aff *b);

/* Every variable of a is warp-uniform (top: 0). */
int wmi_aff_uniform(const wmi_actx *x, const wmi_aff *a);

/* Union of the loop masks of a's variables. */
uint64_t wmi_aff_loops(const wmi_actx *x, const wmi_aff *a);

/* Coefficient of variable v in a (0 when absent). */
int64_t wmi_aff_coef(const wmi_aff *a, uint32_t v);

/*
 * Write a readable form ("in + 4*tid.x + 128*ctaid.x") into buf[cap].
 * name(ud, var, out, cap) names base symbols.  Returns buf.
 */
typedef void (*wmi_aff_namer)(void *ud, const wmi_avar *v, char *out,
                              size_t cap);
char *wmi_aff_print(const wmi_actx *x, const wmi_aff *a, wmi_aff_namer name,
                    void *ud, char *buf, size_t cap);

/* ---- evaluation ---------------------------------------------------------- */

/*
 * Concrete values for one lane: leaf(ud, var) gives base symbols; products
 * and atoms are computed (memoised per evaluation).  val/stamp are scratch
 * arrays of nvars entries owned by the caller; bump epoch before each new
 * assignment of the leaves.
 */
typedef struct wmi_aenv {
    int64_t (*leaf)(void *ud, const wmi_avar *v);
    void *ud;
    int64_t *val;
    uint32_t *stamp;
    uint32_t epoch;
} wmi_aenv;

/* The value of a (not top) under env. */
int64_t wmi_aff_eval(const wmi_actx *x, const wmi_aff *a, wmi_aenv *env);

/* The value of variable v under env. */
int64_t wmi_avar_eval(const wmi_actx *x, uint32_t v, wmi_aenv *env);

/* Compare l CMP r as PTX does (wmi_cmp; integers only). */
int wmi_aff_cmp_holds(unsigned cmp, unsigned bits, int sgn, int64_t l,
                      int64_t r);

#endif /* WM_AFFINE_H */
