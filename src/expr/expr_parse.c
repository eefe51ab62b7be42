/*
 * expr_parse.c -- recursive-descent parser of the index-expression
 * language (docs/expr.md has the full grammar; each function below carries
 * its production).
 *
 * The parser appends nodes to e->nodes and statements to e->stmts.
 * Constants are replaced by their values as they are read; shapes, pads,
 * offsets and launch dimensions are constant expressions evaluated here,
 * so the evaluators only ever see builtins and loop variables.  Errors go
 * to the diag (first one wins) and every function unwinds by returning.
 */
#include "expr_int.h"

#include <stdio.h>

typedef struct parser {
    wm_expr *e;
    xlexer lx;
    xtoken tok;      /* current token */
    wm_diag *d;
    /* name scope of the statement being parsed */
    xstmt *st;         /* NULL outside a statement */
    unsigned nvisible; /* loop variables usable here */
    char loopnames[WMX_MAX_LOOPS][WMX_NAME_MAX];
    unsigned nloopnames;
    int const_only;    /* 1: only numbers and constants allowed */
    unsigned nest;     /* parse_expr / prefix-operator recursion depth */
} parser;

static bool failed(const parser *p)
{
    return p->d->status != WM_OK;
}

static void next(parser *p)
{
    assert(p->lx.pos <= p->lx.n);
    wmi_expr_lex(&p->lx, &p->tok);
}

static bool tok_is(const parser *p, const char *word)
{
    size_t n = strlen(word);
    return p->tok.kind == TK_IDENT && p->tok.len == n &&
           memcmp(p->e->src + p->tok.off, word, n) == 0;
}

/* Error at the current token: "<what> expected, found <token>". */
static void expected(parser *p, const char *what)
{
    const xtoken *t = &p->tok;
    if (t->kind == TK_IDENT || t->kind == TK_NUM)
        wm_diag_set(p->d, WM_ERR_PARSE, t->off, t->len,
                    "%s expected, found '%.*s'", what, (int)t->len,
                    p->e->src + t->off);
    else
        wm_diag_set(p->d, WM_ERR_PARSE, t->off, t->len ? t->len : 1,
                    "%s expected, found %s", what,
                    wmi_expr_tok_name(t->kind));
}

/* Expect a closing token; the message names where its opener was. */
static bool close_tok(parser *p, xtok_kind k, const char *opener,
                      size_t open_off)
{
    if (p->tok.kind == k) {
        next(p);
        return true;
    }
    if (!failed(p)) {
        wm_diag at = {0};
        at.offset = open_off;
        wm_diag_locate(&at, p->e->src, p->e->nsrc);
        char what[64];
        snprintf(what, sizeof what, "%s (to close '%s' at %d:%d)",
                 wmi_expr_tok_name(k), opener, at.line, at.col);
        expected(p, what);
    }
    return false;
}

static int32_t new_node(parser *p, xnode_kind kind, size_t off, size_t len)
{
    wm_expr *e = p->e;
    if (e->nnodes == e->capnodes) {
        size_t cap = e->capnodes ? e->capnodes * 2 : 256;
        xnode *nn = realloc(e->nodes, cap * sizeof *nn);
        if (!nn) {
            wm_diag_set(p->d, WM_ERR_NOMEM, off, len, "out of memory");
            return -1;
        }
        e->nodes = nn;
        e->capnodes = cap;
    }
    if (e->nnodes >= INT32_MAX) {
        wm_diag_set(p->d, WM_ERR_RANGE, off, len, "program too large");
        return -1;
    }
    assert(e->nnodes < e->capnodes);
    xnode *n = &e->nodes[e->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->a = n->b = n->c = -1;
    n->off = off;
    n->len = len;
    return (int32_t)e->nnodes++;
}

/*
 * Depth limits (WM_LIMIT_EXPR_DEPTH): the parser's own recursion (nested
 * parentheses, prefix operators, ?:) and the height of the tree it builds
 * (a long sum is parsed by a loop but makes a deep left spine, which the
 * compiler and evaluators walk recursively).
 */
static void too_deep(parser *p, size_t off, size_t len)
{
    wm_diag_set(p->d, WM_ERR_RANGE, off, len ? len : 1,
                "expression nested deeper than %llu levels (parentheses, "
                "operators; a fixed limit)",
                WM_LIMIT_EXPR_DEPTH);
}

static bool enter(parser *p)
{
    if (++p->nest <= WM_LIMIT_EXPR_DEPTH)
        return true;
    too_deep(p, p->tok.off, p->tok.len);
    return false;
}

/* Set node nd's height from its children; false (error set) if too tall. */
static bool set_depth(parser *p, int32_t nd)
{
    xnode *x = &p->e->nodes[nd];
    unsigned h = 0;
    const int32_t kids[3] = {x->a, x->b, x->c};
    for (int i = 0; i < 3; i++)
        if (kids[i] >= 0 && p->e->nodes[kids[i]].depth > h)
            h = p->e->nodes[kids[i]].depth;
    x->depth = h + 1;
    if (x->depth <= WM_LIMIT_EXPR_DEPTH)
        return true;
    too_deep(p, x->off, x->len);
    return false;
}

/* ---- names ------------------------------------------------------------ */

static const struct {
    const char *name;
    unsigned base; /* slot of .x */
} vec_builtins[] = {
    {"tid", XV_TID_X},        {"ntid", XV_NTID_X},
    {"ctaid", XV_CTAID_X},    {"nctaid", XV_NCTAID_X},
    {"threadIdx", XV_TID_X},  {"blockDim", XV_NTID_X},
    {"blockIdx", XV_CTAID_X}, {"gridDim", XV_NCTAID_X},
};

static const char *const reserved[] = {"laneid", "warpid", "min", "max"};

static bool name_eq(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* Is s[0..n) a builtin or a reserved word? */
static bool is_reserved(const char *s, size_t n)
{
    for (size_t i = 0; i < WM_ARRAY_LEN(vec_builtins); i++)
        if (name_eq(s, n, vec_builtins[i].name))
            return true;
    for (size_t i = 0; i < WM_ARRAY_LEN(reserved); i++)
        if (name_eq(s, n, reserved[i]))
            return true;
    return false;
}

static xconst *find_const(wm_expr *e, const char *s, size_t n)
{
    for (size_t i = 0; i < e->nconsts; i++)
        if (name_eq(s, n, e->consts[i].name))
            return &e->consts[i];
    return NULL;
}

static int find_loop(const parser *p, const char *s, size_t n)
{
    for (unsigned i = 0; i < p->nloopnames; i++)
        if (name_eq(s, n, p->loopnames[i]))
            return (int)i;
    return -1;
}

/*
 * Collect the loop variable names of the statement that starts here
 * (`for NAME` pairs up to the end of the line), so that index expressions,
 * which come first, can use them.  Uses a private lexer; errors are left
 * for the real parse to find.
 */
static void prescan_loops(parser *p)
{
    wm_diag scratch = {0};
    xlexer lx = p->lx;
    xtoken t, prev = {0};
    lx.diag = &scratch;
    p->nloopnames = 0;
    prev.kind = TK_EOF;
    for (;;) {
        wmi_expr_lex(&lx, &t);
        if (t.kind == TK_EOF || t.kind == TK_NEWLINE || t.kind == TK_SEMI)
            break;
        if (t.kind == TK_IDENT && prev.kind == TK_IDENT &&
            name_eq(p->e->src + prev.off, prev.len, "for") &&
            p->nloopnames < WMX_MAX_LOOPS && t.len < WMX_NAME_MAX) {
            memcpy(p->loopnames[p->nloopnames], p->e->src + t.off, t.len);
            p->loopnames[p->nloopnames][t.len] = '\0';
            p->nloopnames++;
        }
        prev = t;
    }
}

/* ---- expressions ------------------------------------------------------- */

static int32_t parse_expr(parser *p);

/*
 * name := ('tid'|'ntid'|'ctaid'|'nctaid'|'threadIdx'|'blockDim'
 *          |'blockIdx'|'gridDim') '.' ('x'|'y'|'z')
 *       | 'laneid' | 'warpid' | loop-variable | constant
 */
static int32_t parse_name(parser *p)
{
    assert(p->tok.kind == TK_IDENT);
    const char *s = p->e->src + p->tok.off;
    size_t off = p->tok.off, n = p->tok.len;
    for (size_t i = 0; i < WM_ARRAY_LEN(vec_builtins); i++) {
        if (!name_eq(s, n, vec_builtins[i].name))
            continue;
        next(p);
        if (p->tok.kind != TK_DOT) {
            wm_diag_set(p->d, WM_ERR_PARSE, off, n,
                        "'%s' needs a component: %s.x, %s.y or %s.z",
                        vec_builtins[i].name, vec_builtins[i].name,
                        vec_builtins[i].name, vec_builtins[i].name);
            return -1;
        }
        next(p);
        const char *c = p->e->src + p->tok.off;
        if (p->tok.kind != TK_IDENT || p->tok.len != 1 || c[0] < 'x' ||
            c[0] > 'z') {
            expected(p, "'x', 'y' or 'z'");
            return -1;
        }
        size_t len = p->tok.off + 1 - off;
        unsigned var = vec_builtins[i].base + (unsigned)(c[0] - 'x');
        assert(var < XV_NBUILTIN);
        next(p);
        if (p->const_only) {
            wm_diag_set(p->d, WM_ERR_PARSE, off, len,
                        "'%.*s' is not a constant; only numbers and "
                        "constants are allowed here",
                        (int)len, s);
            return -1;
        }
        int32_t nd = new_node(p, XN_VAR, off, len);
        if (nd >= 0)
            p->e->nodes[nd].var = var;
        return nd;
    }
    unsigned var = XV_COUNT;
    if (name_eq(s, n, "laneid"))
        var = XV_LANEID;
    else if (name_eq(s, n, "warpid"))
        var = XV_WARPID;
    else if (!p->const_only) {
        int li = find_loop(p, s, n);
        if (li >= 0 && (unsigned)li >= p->nvisible) {
            wm_diag_set(p->d, WM_ERR_PARSE, off, n,
                        "loop variable '%.*s' is used before its loop "
                        "starts",
                        (int)n, s);
            return -1;
        }
        if (li >= 0)
            var = XV_LOOP0 + (unsigned)li;
        assert(li < (int)WMX_MAX_LOOPS);
    }
    if (var != XV_COUNT) {
        assert(var < XV_COUNT);
        if (p->const_only) {
            wm_diag_set(p->d, WM_ERR_PARSE, off, n,
                        "'%.*s' is not a constant; only numbers and "
                        "constants are allowed here",
                        (int)n, s);
            return -1;
        }
        next(p);
        int32_t nd = new_node(p, XN_VAR, off, n);
        if (nd >= 0)
            p->e->nodes[nd].var = var;
        return nd;
    }
    const xconst *k = find_const(p->e, s, n);
    if (!k) {
        wm_diag_set(p->d, WM_ERR_PARSE, off, n, "unknown variable '%.*s'",
                    (int)n, s);
        return -1;
    }
    next(p);
    int32_t nd = new_node(p, XN_NUM, off, n);
    if (nd >= 0)
        p->e->nodes[nd].value = k->value;
    return nd;
}

/*
 * primary := NUMBER | name | ('min'|'max') '(' expr ',' expr ')'
 *          | '(' expr ')'
 */
static int32_t parse_primary(parser *p)
{
    if (failed(p))
        return -1;
    if (p->tok.kind == TK_NUM) {
        int32_t nd = new_node(p, XN_NUM, p->tok.off, p->tok.len);
        if (nd >= 0)
            p->e->nodes[nd].value = p->tok.num;
        next(p);
        return nd;
    }
    if (p->tok.kind == TK_LPAREN) {
        size_t open = p->tok.off;
        next(p);
        int32_t inner = parse_expr(p);
        if (!close_tok(p, TK_RPAREN, "(", open))
            return -1;
        return inner;
    }
    if (p->tok.kind == TK_IDENT && (tok_is(p, "min") || tok_is(p, "max"))) {
        xop op = tok_is(p, "min") ? XO_MIN : XO_MAX;
        size_t off = p->tok.off, len = p->tok.len;
        next(p);
        size_t open = p->tok.off;
        if (p->tok.kind != TK_LPAREN) {
            expected(p, "'(' after min/max");
            return -1;
        }
        next(p);
        int32_t a = parse_expr(p);
        if (failed(p))
            return -1;
        if (p->tok.kind != TK_COMMA) {
            expected(p, "','");
            return -1;
        }
        next(p);
        int32_t b = parse_expr(p);
        if (!close_tok(p, TK_RPAREN, "(", open))
            return -1;
        assert(a >= 0 && b >= 0);
        int32_t nd = new_node(p, XN_BINARY, off, len);
        if (nd >= 0) {
            p->e->nodes[nd].op = op;
            p->e->nodes[nd].a = a;
            p->e->nodes[nd].b = b;
            if (!set_depth(p, nd))
                return -1;
        }
        return nd;
    }
    if (p->tok.kind == TK_IDENT)
        return parse_name(p);
    expected(p, "an expression");
    return -1;
}

/* unary := ('-' | '+' | '~' | '!') unary | primary */
static int32_t parse_unary(parser *p)
{
    xtok_kind k = p->tok.kind;
    if (k == TK_MINUS || k == TK_PLUS || k == TK_TILDE || k == TK_BANG) {
        size_t off = p->tok.off;
        if (!enter(p))
            return -1;
        next(p);
        int32_t a = parse_unary(p);
        p->nest--;
        if (failed(p) || k == TK_PLUS)
            return a;
        assert(a >= 0);
        int32_t nd = new_node(p, XN_UNARY, off, 1);
        if (nd >= 0) {
            p->e->nodes[nd].op = k == TK_MINUS ? XO_NEG
                                 : k == TK_TILDE ? XO_NOT
                                                 : XO_LNOT;
            p->e->nodes[nd].a = a;
            if (!set_depth(p, nd))
                return -1;
        }
        return nd;
    }
    return parse_primary(p);
}

/* Binary operator of a token, with C's precedence (0: not binary). */
static int binary_op(xtok_kind k, xop *op)
{
    static const struct {
        xtok_kind tok;
        xop op;
    } map[] = {
        {TK_STAR, XO_MUL}, {TK_SLASH, XO_DIV},  {TK_PERCENT, XO_MOD},
        {TK_PLUS, XO_ADD}, {TK_MINUS, XO_SUB},  {TK_SHL, XO_SHL},
        {TK_SHR, XO_SHR},  {TK_LT, XO_LT},      {TK_LE, XO_LE},
        {TK_GT, XO_GT},    {TK_GE, XO_GE},      {TK_EQ, XO_EQ},
        {TK_NE, XO_NE},    {TK_AMP, XO_AND},    {TK_CARET, XO_XOR},
        {TK_PIPE, XO_OR},  {TK_ANDAND, XO_LAND}, {TK_OROR, XO_LOR},
    };
    static const int prec[] = {
#define WMX_X_PREC(code, text, pr) pr,
        WMX_OP_LIST(WMX_X_PREC)
#undef WMX_X_PREC
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(map); i++)
        if (map[i].tok == k) {
            *op = map[i].op;
            return prec[map[i].op];
        }
    return 0;
}

/*
 * binary := unary { binop unary }   with C's precedence, left-assoc:
 *   * / %  >  + -  >  << >>  >  < <= > >=  >  == !=  >  &  >  ^  >  |
 *   >  &&  >  ||
 * (precedence climbing: parse operators binding tighter than min_prec)
 */
static int32_t parse_binary(parser *p, int min_prec)
{
    int32_t lhs = parse_unary(p);
    for (;;) {
        xop op;
        int prec = binary_op(p->tok.kind, &op);
        if (failed(p) || prec == 0 || prec < min_prec)
            return lhs;
        size_t off = p->tok.off, len = p->tok.len;
        next(p);
        int32_t rhs = parse_binary(p, prec + 1);
        if (failed(p))
            return -1;
        assert(lhs >= 0 && rhs >= 0 && prec >= min_prec);
        int32_t nd = new_node(p, XN_BINARY, off, len);
        if (nd < 0)
            return -1;
        p->e->nodes[nd].op = op;
        p->e->nodes[nd].a = lhs;
        p->e->nodes[nd].b = rhs;
        if (!set_depth(p, nd))
            return -1;
        lhs = nd;
    }
}

static int32_t parse_expr_body(parser *p);

/* expr := binary [ '?' expr ':' expr ] */
static int32_t parse_expr(parser *p)
{
    if (!enter(p))
        return -1;
    int32_t c = parse_expr_body(p);
    p->nest--;
    return c;
}

static int32_t parse_expr_body(parser *p)
{
    int32_t c = parse_binary(p, 1);
    if (failed(p) || p->tok.kind != TK_QUEST)
        return c;
    size_t off = p->tok.off;
    next(p);
    int32_t a = parse_expr(p);
    if (failed(p))
        return -1;
    if (p->tok.kind != TK_COLON) {
        wm_diag at = {0};
        at.offset = off;
        wm_diag_locate(&at, p->e->src, p->e->nsrc);
        char what[64];
        snprintf(what, sizeof what, "':' (to match '?' at %d:%d)", at.line,
                 at.col);
        expected(p, what);
        return -1;
    }
    next(p);
    int32_t b = parse_expr(p);
    if (failed(p))
        return -1;
    assert(c >= 0 && a >= 0 && b >= 0);
    int32_t nd = new_node(p, XN_COND, off, 1);
    if (nd >= 0) {
        p->e->nodes[nd].a = c;
        p->e->nodes[nd].b = a;
        p->e->nodes[nd].c = b;
        if (!set_depth(p, nd))
            return -1;
    }
    return nd;
}

/* cexpr := expr   (numbers and constants only; evaluated now) */
static bool parse_cexpr(parser *p, int64_t *out, size_t *off, size_t *len)
{
    int saved = p->const_only;
    p->const_only = 1;
    size_t start = p->tok.off;
    int32_t n = parse_expr(p);
    p->const_only = saved;
    if (failed(p))
        return false;
    size_t lo, hi;
    assert(n >= 0 && (size_t)n < p->e->nnodes);
    wmi_expr_span(p->e, n, &lo, &hi);
    if (off) {
        *off = lo < start ? lo : start;
        *len = hi - *off;
    }
    xenv env;
    xfault f;
    memset(&env, 0, sizeof env);
    if (!wmi_expr_ref_eval(p->e, n, &env, out, &f)) {
        wm_diag_set(p->d, WM_ERR_PARSE, f.off, f.len, "%s", f.msg);
        return false;
    }
    return true;
}

/* A constant expression that must lie in [lo, hi]; what names it. */
static bool parse_cexpr_range(parser *p, const char *what, int64_t lo,
                              int64_t hi, int64_t *out)
{
    size_t off, len;
    if (!parse_cexpr(p, out, &off, &len))
        return false;
    if (*out < lo || *out > hi) {
        wm_diag_set(p->d, WM_ERR_RANGE, off, len,
                    "%s %lld is out of range [%lld, %lld]", what,
                    (long long)*out, (long long)lo, (long long)hi);
        return false;
    }
    return true;
}

/* ---- statements ------------------------------------------------------- */

/* Element types.  Vectors: a scalar type then 'x' N (f32x4, f16x8). */
static const struct {
    const char *name;
    unsigned size;
    int cuda; /* 1: CUDA spelling, vectors as float4, int2 ... */
} types[] = {
    {"i8", 1, 0},    {"u8", 1, 0},      {"s8", 1, 0},     {"i16", 2, 0},
    {"u16", 2, 0},   {"f16", 2, 0},     {"bf16", 2, 0},   {"i32", 4, 0},
    {"u32", 4, 0},   {"f32", 4, 0},     {"i64", 8, 0},    {"u64", 8, 0},
    {"f64", 8, 0},   {"char", 1, 1},    {"uchar", 1, 1},  {"short", 2, 1},
    {"ushort", 2, 1}, {"half", 2, 1},   {"int", 4, 1},    {"uint", 4, 1},
    {"float", 4, 1}, {"double", 8, 1},
};

/* Size of a type name, 0 if unknown; *count = vector length. */
static unsigned type_size(const char *s, size_t n, unsigned *count)
{
    size_t base = n;
    unsigned cnt = 1;
    int cuda_vec = 0;
    /* f32x4: a digit run after 'x' */
    for (size_t i = 1; i + 1 < n; i++)
        if (s[i] == 'x' && s[i + 1] >= '0' && s[i + 1] <= '9') {
            base = i;
            break;
        }
    if (base == n) {
        /* float4: trailing digits on a CUDA name */
        size_t j = n;
        while (j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9')
            j--;
        for (size_t i = 0; j < n && j > 0 && i < WM_ARRAY_LEN(types); i++)
            if (types[i].cuda && name_eq(s, j, types[i].name)) {
                base = j;
                cuda_vec = 1;
            }
    }
    if (base < n) {
        size_t d = base + (cuda_vec ? 0 : 1);
        if (d >= n || n - d > 2)
            return 0;
        cnt = 0;
        for (; d < n; d++) {
            if (s[d] < '0' || s[d] > '9')
                return 0;
            cnt = cnt * 10 + (unsigned)(s[d] - '0');
        }
    }
    for (size_t i = 0; i < WM_ARRAY_LEN(types); i++)
        if (name_eq(s, base, types[i].name) &&
            (base == n || types[i].cuda == cuda_vec)) {
            *count = cnt;
            return types[i].size * cnt;
        }
    return 0;
}

/*
 * type := NAME   (i8 u8 s8 i16 u16 f16 bf16 i32 u32 f32 i64 u64 f64,
 *                 a vector of one of them: f32x2 f32x4 f16x8 ...,
 *                 or CUDA's char uchar short ushort half int uint float
 *                 double with 2/4 suffixes: float4, int2, half2)
 */
static bool parse_type(parser *p, xstmt *s)
{
    if (p->tok.kind != TK_IDENT) {
        expected(p, "an element type (f32, f16x8, float4 ...)");
        return false;
    }
    const char *t = p->e->src + p->tok.off;
    size_t n = p->tok.len;
    unsigned count = 1;
    unsigned size = type_size(t, n, &count);
    if (size == 0) {
        wm_diag_set(p->d, WM_ERR_PARSE, p->tok.off, n,
                    "unknown type '%.*s' (expected i8, u8, i16, u16, f16, "
                    "bf16, i32, u32, f32, i64, u64, f64, a vector such as "
                    "f32x4, or a CUDA name such as float4)",
                    (int)n, t);
        return false;
    }
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) {
        wm_diag_set(p->d, WM_ERR_RANGE, p->tok.off, n,
                    "type '%.*s' is %u bytes; one access is 1, 2, 4, 8 or "
                    "16 bytes",
                    (int)n, t, size);
        return false;
    }
    assert((size & (size - 1)) == 0);
    s->esize = size;
    snprintf(s->type, sizeof s->type, "%.*s", (int)(n < 15 ? n : 15), t);
    next(p);
    return true;
}

/* Compute row-major strides and check the array fits in 2^63 bytes. */
static bool layout(parser *p, xstmt *s, size_t off, size_t len)
{
    assert(s->ndims >= 1 && s->ndims <= WMX_MAX_DIMS);
    assert(s->esize >= 1 && s->esize <= 16 && s->pad >= 0 && s->offset >= 0);
    unsigned last = s->ndims - 1;
    uint64_t stride = 1;
    for (unsigned d = s->ndims; d-- > 0;) {
        s->stride[d] = stride;
        uint64_t extent = (uint64_t)s->dims[d];
        if (d == last)
            extent += (uint64_t)s->pad;
        if (d == 0 && s->open_first)
            extent = 1;
        if (extent != 0 && stride > (uint64_t)INT64_MAX / extent)
            goto too_big;
        stride *= extent;
    }
    /* stride now counts the elements of the whole array. */
    assert(s->stride[s->ndims - 1] == 1);
    if (stride > ((uint64_t)INT64_MAX - (uint64_t)s->offset) / s->esize)
        goto too_big;
    return true;
too_big:
    wm_diag_set(p->d, WM_ERR_RANGE, off, len,
                "array '%s' does not fit in 2^63 bytes", s->name);
    return false;
}

/*
 * array := NAME '[' [cexpr] ']' { '[' cexpr ']' }
 *          [ 'pad' cexpr ] [ 'offset' cexpr ]
 * (only the first dimension may be left empty: unbounded, like C's
 *  `float a[][N]` parameter)
 */
static bool parse_array(parser *p, xstmt *s)
{
    if (p->tok.kind != TK_IDENT) {
        expected(p, "an array name");
        return false;
    }
    size_t name_off = p->tok.off;
    snprintf(s->name, sizeof s->name, "%.*s",
             (int)(p->tok.len < WMX_NAME_MAX - 1 ? p->tok.len
                                                   : WMX_NAME_MAX - 1),
             p->e->src + p->tok.off);
    next(p);
    if (p->tok.kind != TK_LBRACK) {
        expected(p, "'[' and the array's shape");
        return false;
    }
    while (p->tok.kind == TK_LBRACK) {
        size_t open = p->tok.off;
        if (s->ndims == WMX_MAX_DIMS) {
            wm_diag_set(p->d, WM_ERR_RANGE, open, 1,
                        "more than %d dimensions", WMX_MAX_DIMS);
            return false;
        }
        next(p);
        if (p->tok.kind == TK_RBRACK && s->ndims == 0) {
            s->open_first = 1;
            s->dims[0] = INT64_MAX;
        } else if (!parse_cexpr_range(p, "dimension", 1, INT64_MAX,
                                      &s->dims[s->ndims])) {
            return false;
        }
        s->ndims++;
        if (!close_tok(p, TK_RBRACK, "[", open))
            return false;
    }
    if (tok_is(p, "pad")) {
        next(p);
        if (!parse_cexpr_range(p, "pad", 0, INT64_MAX / 2, &s->pad))
            return false;
    }
    if (tok_is(p, "offset")) {
        next(p);
        size_t off = p->tok.off;
        if (!parse_cexpr_range(p, "offset", 0, INT64_MAX / 2, &s->offset))
            return false;
        if (s->offset % s->esize != 0) {
            wm_diag_set(p->d, WM_ERR_RANGE, off, p->tok.off - off,
                        "offset %lld is not a multiple of the %u-byte "
                        "element ('%s')",
                        (long long)s->offset, s->esize, s->type);
            return false;
        }
    }
    return layout(p, s, name_off, p->tok.off - name_off);
}

/* index := '[' expr ']' { '[' expr ']' }   (one per dimension) */
static bool parse_index(parser *p, xstmt *s)
{
    unsigned n = 0;
    if (p->tok.kind != TK_LBRACK) {
        expected(p, "'[' starting the index");
        return false;
    }
    while (p->tok.kind == TK_LBRACK) {
        size_t open = p->tok.off;
        next(p);
        if (n == s->ndims) {
            wm_diag_set(p->d, WM_ERR_PARSE, open, 1,
                        "too many indices: '%s' has %u dimension%s",
                        s->name, s->ndims, s->ndims == 1 ? "" : "s");
            return false;
        }
        size_t start = p->tok.off;
        s->index[n] = parse_expr(p);
        if (failed(p))
            return false;
        assert(s->index[n] >= 0);
        s->index_off[n] = start;
        s->index_len[n] = p->tok.off - start;
        n++;
        if (!close_tok(p, TK_RBRACK, "[", open))
            return false;
    }
    assert(n <= s->ndims);
    if (n < s->ndims) {
        wm_diag_set(p->d, WM_ERR_PARSE, p->tok.off, p->tok.len,
                    "'%s' has %u dimensions but %u inde%s given", s->name,
                    s->ndims, n, n == 1 ? "x is" : "ices are");
        return false;
    }
    return true;
}

/* First node under n that reads a lane-varying variable, or -1. */
static int32_t find_varying(const wm_expr *e, int32_t n)
{
    if (n < 0)
        return -1;
    const xnode *x = &e->nodes[n];
    if (x->kind == XN_VAR && wmi_expr_var_varies(x->var))
        return n;
    int32_t r = find_varying(e, x->a);
    if (r < 0)
        r = find_varying(e, x->b);
    if (r < 0)
        r = find_varying(e, x->c);
    return r;
}

/* A loop bound: an expression all lanes of a warp agree on. */
static int32_t parse_bound(parser *p)
{
    int32_t n = parse_expr(p);
    if (failed(p))
        return -1;
    int32_t v = find_varying(p->e, n);
    if (v >= 0) {
        const xnode *x = &p->e->nodes[v];
        wm_diag_set(p->d, WM_ERR_PARSE, x->off, x->len,
                    "loop bounds must be the same for every lane of a "
                    "warp; '%.*s' differs between lanes",
                    (int)x->len, p->e->src + x->off);
        return -1;
    }
    return n;
}

/* loop := 'for' NAME 'in' expr '..' expr [ 'step' expr ] */
static bool parse_loop(parser *p, xstmt *s)
{
    size_t off = p->tok.off;
    next(p);
    if (s->nloops == WMX_MAX_LOOPS) {
        wm_diag_set(p->d, WM_ERR_RANGE, off, 3,
                    "more than %d loops in one statement", WMX_MAX_LOOPS);
        return false;
    }
    xloop *L = &s->loops[s->nloops];
    assert(s->nloops < WMX_MAX_LOOPS);
    if (p->tok.kind != TK_IDENT) {
        expected(p, "a loop variable name");
        return false;
    }
    const char *nm = p->e->src + p->tok.off;
    size_t n = p->tok.len;
    if (is_reserved(nm, n) || find_const(p->e, nm, n) ||
        find_loop(p, nm, n) != (int)s->nloops || n >= WMX_NAME_MAX) {
        wm_diag_set(p->d, WM_ERR_PARSE, p->tok.off, n,
                    n >= WMX_NAME_MAX
                        ? "loop variable name '%.*s' is too long"
                        : "loop variable '%.*s' is already a name here",
                    (int)n, nm);
        return false;
    }
    memcpy(L->name, nm, n);
    L->name[n] = '\0';
    next(p);
    if (!tok_is(p, "in")) {
        expected(p, "'in'");
        return false;
    }
    next(p);
    p->nvisible = s->nloops; /* bounds see the enclosing loops only */
    L->lo = parse_bound(p);
    if (failed(p))
        return false;
    if (p->tok.kind != TK_DOTDOT) {
        expected(p, "'..' (loops are written 'for j in 0..32 step 8')");
        return false;
    }
    next(p);
    L->hi = parse_bound(p);
    L->step = -1;
    if (!failed(p) && tok_is(p, "step")) {
        next(p);
        L->step = parse_bound(p);
    }
    if (failed(p))
        return false;
    assert(L->lo >= 0 && L->hi >= 0);
    L->off = off;
    L->len = p->tok.off - off;
    s->nloops++;
    p->nvisible = WMX_MAX_LOOPS;
    return true;
}

static bool push_stmt(parser *p, xstmt **out)
{
    wm_expr *e = p->e;
    if (e->nstmts == e->capstmts) {
        size_t cap = e->capstmts ? e->capstmts * 2 : 8;
        xstmt *ns = realloc(e->stmts, cap * sizeof *ns);
        if (!ns) {
            wm_diag_set(p->d, WM_ERR_NOMEM, p->tok.off, 1, "out of memory");
            return false;
        }
        e->stmts = ns;
        e->capstmts = cap;
    }
    *out = &e->stmts[e->nstmts];
    memset(*out, 0, sizeof **out);
    return true;
}

/*
 * statement := ('load' | 'store' | 'atomic') ('global' | 'shared' | 'local')
 *              type array 'at' index { loop } [ 'if' expr ]
 */
static void parse_statement(parser *p)
{
    xstmt *s;
    size_t off = p->tok.off;
    if (!push_stmt(p, &s))
        return;
    s->op = tok_is(p, "load") ? WM_OP_LD
            : tok_is(p, "store") ? WM_OP_ST
                                 : WM_OP_ATOM;
    s->pred = -1;
    p->st = s;
    prescan_loops(p);
    p->nvisible = WMX_MAX_LOOPS;
    next(p);
    if (tok_is(p, "global"))
        s->space = WM_SPACE_GLOBAL;
    else if (tok_is(p, "shared"))
        s->space = WM_SPACE_SHARED;
    else if (tok_is(p, "local"))
        s->space = WM_SPACE_LOCAL;
    else {
        expected(p, "a memory space (global, shared or local)");
        return;
    }
    if (s->op == WM_OP_ATOM && s->space == WM_SPACE_LOCAL) {
        wm_diag_set(p->d, WM_ERR_PARSE, p->tok.off, p->tok.len,
                    "atomics work on global or shared memory, not local");
        return;
    }
    next(p);
    if (!parse_type(p, s) || !parse_array(p, s))
        return;
    if (!tok_is(p, "at")) {
        expected(p, "'at' and the index");
        return;
    }
    next(p);
    if (!parse_index(p, s))
        return;
    while (tok_is(p, "for"))
        if (!parse_loop(p, s))
            return;
    if (tok_is(p, "if")) {
        next(p);
        s->pred = parse_expr(p);
        if (failed(p))
            return;
    }
    assert(s->ndims >= 1 && s->esize > 0);
    s->off = off;
    s->len = p->tok.off - off;
    while (s->len > 0 && (p->e->src[off + s->len - 1] == ' ' ||
                          p->e->src[off + s->len - 1] == '\t'))
        s->len--;
    assert(p->e->nstmts < p->e->capstmts);
    p->e->nstmts++;
    p->st = NULL;
    p->nloopnames = 0;
}

/* dims := cexpr [ ',' cexpr [ ',' cexpr ] ] */
static void parse_dims(parser *p, unsigned out[3], const char *what,
                       const int64_t max[3])
{
    static const char *const axis[3] = {"x", "y", "z"};
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        char name[32];
        int64_t v;
        snprintf(name, sizeof name, "%s.%s", what, axis[i]);
        if (!parse_cexpr_range(p, name, 1, max[i], &v))
            return;
        out[i] = (unsigned)v;
        if (p->tok.kind != TK_COMMA)
            return;
        if (i == 2) {
            expected(p, "end of line (at most 3 dimensions)");
            return;
        }
        next(p);
    }
}

/* CUDA's launch limits (Programming Guide, "Compute Capabilities" table). */
static const int64_t grid_max[3] = {INT32_MAX, 65535, 65535};
static const int64_t block_max[3] = {1024, 1024, 64};

/*
 * directive := 'grid' dims | 'block' dims | 'const' NAME '=' cexpr
 */
static void parse_directive(parser *p)
{
    if (tok_is(p, "grid") || tok_is(p, "block")) {
        int is_grid = tok_is(p, "grid");
        size_t off = p->tok.off;
        next(p);
        unsigned d[3];
        parse_dims(p, d, is_grid ? "grid" : "block",
                   is_grid ? grid_max : block_max);
        if (failed(p))
            return;
        if (!is_grid && (uint64_t)d[0] * d[1] * d[2] > 1024) {
            wm_diag_set(p->d, WM_ERR_RANGE, off, p->tok.off - off,
                        "a block has at most 1024 threads, not %llu",
                        (unsigned long long)d[0] * d[1] * d[2]);
            return;
        }
        assert(d[0] >= 1 && d[1] >= 1 && d[2] >= 1);
        memcpy(is_grid ? p->e->grid : p->e->block, d, sizeof d);
        *(is_grid ? &p->e->have_grid : &p->e->have_block) = 1;
        return;
    }
    /* const */
    next(p);
    if (p->tok.kind != TK_IDENT) {
        expected(p, "a constant name");
        return;
    }
    const char *nm = p->e->src + p->tok.off;
    size_t n = p->tok.len, noff = p->tok.off;
    xconst *k = find_const(p->e, nm, n);
    if (is_reserved(nm, n) || n >= WMX_NAME_MAX || (k && !k->from_cli)) {
        wm_diag_set(p->d, WM_ERR_PARSE, noff, n,
                    k ? "constant '%.*s' is already defined"
                      : "'%.*s' cannot be a constant name",
                    (int)n, nm);
        return;
    }
    next(p);
    if (p->tok.kind != TK_ASSIGN) {
        expected(p, "'='");
        return;
    }
    next(p);
    int64_t v;
    if (!parse_cexpr(p, &v, NULL, NULL))
        return;
    if (k)
        return; /* -D wins over the file */
    if (p->e->nconsts == WMX_MAX_CONSTS) {
        wm_diag_set(p->d, WM_ERR_RANGE, noff, n, "too many constants");
        return;
    }
    assert(p->e->nconsts < WMX_MAX_CONSTS);
    k = &p->e->consts[p->e->nconsts++];
    memcpy(k->name, nm, n);
    k->name[n] = '\0';
    k->value = v;
    k->from_cli = 0;
}

/* item := directive | statement */
static void parse_item(parser *p)
{
    if (tok_is(p, "grid") || tok_is(p, "block") || tok_is(p, "const"))
        parse_directive(p);
    else if (tok_is(p, "load") || tok_is(p, "store") || tok_is(p, "atomic"))
        parse_statement(p);
    else
        expected(p, "a statement (load, store, atomic) or a directive "
                    "(grid, block, const)");
}

/* program := { [ item { ';' item } ] NEWLINE } EOF */
wm_status wmi_expr_parse(wm_expr *e, wm_diag *d)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.e = e;
    p.d = d;
    assert(e->src != NULL && e->nstmts == 0);
    p.lx.src = e->src;
    p.lx.n = e->nsrc;
    p.lx.diag = d;
    p.nvisible = WMX_MAX_LOOPS;
    next(&p);
    while (!failed(&p) && p.tok.kind != TK_EOF) {
        if (p.tok.kind == TK_NEWLINE || p.tok.kind == TK_SEMI) {
            next(&p);
            continue;
        }
        parse_item(&p);
        if (failed(&p))
            break;
        if (p.tok.kind != TK_NEWLINE && p.tok.kind != TK_SEMI &&
            p.tok.kind != TK_EOF)
            expected(&p, "end of line");
    }
    return d->status;
}
