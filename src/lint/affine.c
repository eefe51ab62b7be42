/*
 * affine.c -- the symbolic value domain of affine.h: normalised sums of
 * terms over hash-consed variables (base symbols, products, atoms), their
 * arithmetic, simplification of the bit operations index code uses, and
 * concrete evaluation for one lane.
 *
 * Invariants: a form's terms are sorted by variable id with non-zero
 * coefficients (so equal expressions have equal forms); a variable's
 * operands were created before it (ids are smaller), so evaluation
 * recursion terminates; coefficients wrap as uint64 (no undefined
 * behaviour on overflow; see the header for why that is acceptable).
 */
#include "wm_int.h"

#include "affine.h"
#include "ptx_int.h"

#include <stdarg.h>
#include <stdio.h>

const char *wmi_aff_why_text(wmi_top_why w)
{
    static const char *const text[] = {
#define X(e, t) t,
        WMI_AFF_WHY_LIST(X)
#undef X
    };
    return (unsigned)w < WMI_TOP_COUNT ? text[w] : "?";
}

void wmi_actx_init(wmi_actx *x)
{
    memset(x, 0, sizeof *x);
}

void wmi_actx_free(wmi_actx *x)
{
    if (!x)
        return;
    free(x->vars);
    free(x->forms);
    free(x->hidx);
    memset(x, 0, sizeof *x);
}

/* Wrapping arithmetic without signed overflow. */
static int64_t wadd(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
static int64_t wmul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

/* A hash of what same_var compares: the fields, and for atoms their
   first form (what wmi_aff_eq compares of it). */
static uint64_t var_hash(const wmi_actx *x, const wmi_avar *v)
{
    uint64_t h = mix(mix(mix(mix(mix(0, v->kind), v->op), v->bits), v->sgn), v->id);
    if (v->kind != WMI_AV_ATOM)
        return mix(mix(h, v->x), v->y);
    const wmi_aff *f = &x->forms[v->x];
    if (f->top)
        return mix(h, f->why);
    h = mix(mix(h, (uint64_t)f->c0), f->nterms);
    for (unsigned i = 0; i < f->nterms; i++)
        h = mix(mix(h, (uint64_t)f->t[i].c), f->t[i].v);
    return h;
}

/* Is variable u the candidate v (with its nforms forms)? */
static int same_var(const wmi_actx *x, const wmi_avar *u, const wmi_avar *v,
                    unsigned nforms)
{
    if (u->kind != v->kind || u->op != v->op || u->bits != v->bits ||
        u->sgn != v->sgn || u->id != v->id)
        return 0;
    if (v->kind != WMI_AV_ATOM)
        return u->x == v->x && u->y == v->y;
    for (unsigned k = 0; k < nforms; k++) {
        uint32_t fu = k == 1 && v->op != WMI_AOP_SEL ? u->y : u->x + k;
        uint32_t fv = k == 1 && v->op != WMI_AOP_SEL ? v->y : v->x + k;
        if (!wmi_aff_eq(&x->forms[fu], &x->forms[fv]))
            return 0;
    }
    return 1;
}

/* The table of variables by hash, doubled. */
static int rehash(wmi_actx *x)
{
    size_t n = x->nh ? x->nh * 2 : 256;
    uint32_t *t = calloc(n, sizeof *t);
    if (!t)
        return 0;
    for (size_t i = 0; i < x->nvars; i++) {
        size_t h = (size_t)var_hash(x, &x->vars[i]) & (n - 1);
        while (t[h])
            h = (h + 1) & (n - 1);
        t[h] = (uint32_t)(i + 1);
    }
    free(x->hidx);
    x->hidx = t;
    x->nh = n;
    return 1;
}

/* Find variable *v (kind, op, bits, sgn, id, x, y and for atoms the forms
   behind x, y) or append it.  WMI_NOREG on OOM. */
static uint32_t intern(wmi_actx *x, const wmi_avar *v, unsigned nforms)
{
    if (2 * (x->nvars + 1) > x->nh && !rehash(x)) {
        x->oom = 1;
        return WMI_NOREG;
    }
    size_t h = (size_t)var_hash(x, v) & (x->nh - 1);
    for (; x->hidx[h]; h = (h + 1) & (x->nh - 1)) {
        uint32_t i = x->hidx[h] - 1;
        if (same_var(x, &x->vars[i], v, nforms)) {
            if (v->kind == WMI_AV_ATOM)
                x->nforms -= nforms; /* drop the candidate's forms */
            return i;
        }
    }
    if (x->nvars >= 0x7fffffff ||
        !wmi_grow((void **)&x->vars, &x->capvars, x->nvars + 1, sizeof *x->vars,
                  64)) {
        x->oom = 1;
        return WMI_NOREG;
    }
    /* operands exist before the variable: evaluation recursion ends */
    assert(v->kind != WMI_AV_PROD || (v->x < x->nvars && v->y < x->nvars));
    assert(v->kind != WMI_AV_ATOM || v->x + nforms <= x->nforms);
    x->vars[x->nvars] = *v;
    x->hidx[h] = (uint32_t)(x->nvars + 1);
    return (uint32_t)x->nvars++;
}

static wmi_aff one_var(uint32_t v)
{
    wmi_aff a = wmi_aff_const(0);
    if (v == WMI_NOREG)
        return wmi_aff_top(WMI_TOP_TERMS, WMI_NOREG);
    a.nterms = 1;
    a.t[0].c = 1;
    a.t[0].v = v;
    return a;
}

wmi_aff wmi_aff_sym(wmi_actx *x, wmi_avar_kind kind, uint32_t id, uint32_t sx,
                    int uniform, uint64_t loops)
{
    wmi_avar v;
    memset(&v, 0, sizeof v);
    v.kind = (uint8_t)kind;
    v.id = id;
    v.x = sx;
    v.uniform = (uint8_t)(uniform != 0);
    v.loops = loops;
    return one_var(intern(x, &v, 0));
}

uint32_t wmi_aff_single(const wmi_aff *a)
{
    if (a->top || a->nterms != 1 || a->c0 != 0 || a->t[0].c != 1)
        return WMI_NOREG;
    return a->t[0].v;
}

/* a + k*b, merging the sorted term lists. */
static wmi_aff addk(const wmi_aff *a, const wmi_aff *b, int64_t k)
{
    if (a->top)
        return *a;
    if (b->top)
        return *b;
    wmi_aff r = wmi_aff_const(wadd(a->c0, wmul(k, b->c0)));
    unsigned i = 0, j = 0, n = 0;
    while (i < a->nterms || j < b->nterms) {
        wmi_aff_term t;
        if (j >= b->nterms || (i < a->nterms && a->t[i].v < b->t[j].v)) {
            t = a->t[i++];
        } else if (i >= a->nterms || b->t[j].v < a->t[i].v) {
            t.v = b->t[j].v;
            t.c = wmul(k, b->t[j].c);
            j++;
        } else {
            t.v = a->t[i].v;
            t.c = wadd(a->t[i].c, wmul(k, b->t[j].c));
            i++;
            j++;
        }
        if (t.c == 0)
            continue;
        if (n == WMI_AFF_TERMS)
            return wmi_aff_top(WMI_TOP_TERMS, WMI_NOREG);
        r.t[n++] = t;
    }
    r.nterms = (uint8_t)n;
    for (unsigned q = 1; q < n; q++)
        assert(r.t[q - 1].v < r.t[q].v);
    return r;
}

wmi_aff wmi_aff_add(const wmi_aff *a, const wmi_aff *b)
{
    return addk(a, b, 1);
}

wmi_aff wmi_aff_sub(const wmi_aff *a, const wmi_aff *b)
{
    return addk(a, b, -1);
}

wmi_aff wmi_aff_scale(const wmi_aff *a, int64_t k)
{
    if (a->top)
        return *a;
    if (k == 0)
        return wmi_aff_const(0);
    wmi_aff r = *a;
    r.c0 = wmul(r.c0, k);
    for (unsigned i = 0; i < r.nterms; i++)
        r.t[i].c = wmul(r.t[i].c, k);
    return r;
}

static uint32_t prod_var(wmi_actx *x, uint32_t u, uint32_t v)
{
    if (u == WMI_NOREG || v == WMI_NOREG)
        return WMI_NOREG;
    wmi_avar p;
    memset(&p, 0, sizeof p);
    p.kind = WMI_AV_PROD;
    p.x = u < v ? u : v;
    p.y = u < v ? v : u;
    p.uniform = x->vars[u].uniform && x->vars[v].uniform;
    p.loops = x->vars[u].loops | x->vars[v].loops;
    unsigned h = x->vars[u].height > x->vars[v].height ? x->vars[u].height
                                                       : x->vars[v].height;
    if (h >= WMI_AVAR_MAX_HEIGHT)
        return WMI_NOREG; /* top */
    p.height = (uint8_t)(h + 1);
    return intern(x, &p, 0);
}

wmi_aff wmi_aff_mul(wmi_actx *x, const wmi_aff *a, const wmi_aff *b)
{
    if (a->top)
        return *a;
    if (b->top)
        return *b;
    if (a->nterms == 0)
        return wmi_aff_scale(b, a->c0);
    if (b->nterms == 0)
        return wmi_aff_scale(a, b->c0);
    /* (a0 + A)(b0 + B) = a0*b + b0*A + A*B */
    wmi_aff r = wmi_aff_scale(b, a->c0);
    wmi_aff av = *a;
    av.c0 = 0;
    wmi_aff t = wmi_aff_scale(&av, b->c0);
    r = wmi_aff_add(&r, &t);
    for (unsigned i = 0; i < a->nterms && !r.top; i++)
        for (unsigned j = 0; j < b->nterms && !r.top; j++) {
            wmi_aff p = one_var(prod_var(x, a->t[i].v, b->t[j].v));
            p = wmi_aff_scale(&p, wmul(a->t[i].c, b->t[j].c));
            r = wmi_aff_add(&r, &p);
        }
    return r;
}

/* ---- concrete semantics ------------------------------------------------ */

static int64_t at_width(int64_t v, unsigned bits, int sgn)
{
    if (bits >= 64)
        return v;
    uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & m;
    if (sgn && (u >> (bits - 1)))
        u |= ~m;
    return (int64_t)u;
}

int wmi_aff_cmp_holds(unsigned cmp, unsigned bits, int sgn, int64_t l,
                      int64_t r)
{
    int64_t sl = at_width(l, bits, 1), sr = at_width(r, bits, 1);
    uint64_t ul = (uint64_t)at_width(l, bits, 0),
             ur = (uint64_t)at_width(r, bits, 0);
    int s = sgn != 0;
    switch ((wmi_cmp)cmp) {
    case CMP_EQ:
    case CMP_EQU: return ul == ur;
    case CMP_NE:
    case CMP_NEU: return ul != ur;
    case CMP_LT:
    case CMP_LTU: return s ? sl < sr : ul < ur;
    case CMP_LE:
    case CMP_LEU: return s ? sl <= sr : ul <= ur;
    case CMP_GT:
    case CMP_GTU: return s ? sl > sr : ul > ur;
    case CMP_GE:
    case CMP_GEU: return s ? sl >= sr : ul >= ur;
    case CMP_LO: return ul < ur;
    case CMP_LS: return ul <= ur;
    case CMP_HI: return ul > ur;
    case CMP_HS: return ul >= ur;
    case CMP_NUM: return 1;
    case CMP_NAN: return 0;
    }
    return 0;
}

/* op(a, b) at width bits as the interpreter computes it (ptx_ops.def). */
static int64_t apply(wmi_aop op, unsigned bits, int sgn, int64_t a, int64_t b)
{
    int64_t sa = at_width(a, bits, 1), sb = at_width(b, bits, 1);
    uint64_t ua = (uint64_t)at_width(a, bits, 0),
             ub = (uint64_t)at_width(b, bits, 0);
    uint64_t all = bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    switch (op) {
    case WMI_AOP_AND: return (int64_t)(ua & ub);
    case WMI_AOP_OR: return (int64_t)(ua | ub);
    case WMI_AOP_XOR: return (int64_t)(ua ^ ub);
    case WMI_AOP_SHL: return ub >= bits ? 0 : (int64_t)((ua << ub) & all);
    case WMI_AOP_SHR:
        if (sgn)
            return ub >= bits ? (sa < 0 ? -1 : 0) : sa >> ub;
        return ub >= bits ? 0 : (int64_t)(ua >> ub);
    case WMI_AOP_DIV:
        if (ub == 0)
            return (int64_t)all;
        if (sgn)
            return (sb == -1) ? (int64_t)(0 - (uint64_t)sa) : sa / sb;
        return (int64_t)(ua / ub);
    case WMI_AOP_REM:
        if (ub == 0)
            return sgn ? sa : (int64_t)ua;
        if (sgn)
            return sb == -1 ? 0 : sa % sb;
        return (int64_t)(ua % ub);
    case WMI_AOP_MIN:
        return sgn ? (sa < sb ? sa : sb) : (int64_t)(ua < ub ? ua : ub);
    case WMI_AOP_MAX:
        return sgn ? (sa > sb ? sa : sb) : (int64_t)(ua > ub ? ua : ub);
    case WMI_AOP_SEL:
    case WMI_AOP_COUNT: break;
    }
    return 0;
}

/* ---- non-linear operations ----------------------------------------------- */

/* Largest power of two dividing every coefficient of a (2^62 if none). */
static uint64_t coef_pow2(const wmi_aff *a)
{
    uint64_t g = (uint64_t)1 << 62;
    for (unsigned i = 0; i < a->nterms; i++) {
        uint64_t c = (uint64_t)a->t[i].c, low = c & (0 - c);
        if (low && low < g)
            g = low;
    }
    return g;
}

/* Every coefficient of a is a multiple of d (d > 0). */
static int coefs_multiple(const wmi_aff *a, int64_t d)
{
    for (unsigned i = 0; i < a->nterms; i++)
        if (a->t[i].c % d != 0)
            return 0;
    return 1;
}

static wmi_aff atom(wmi_actx *x, wmi_aop op, unsigned bits, int sgn,
                    const wmi_aff *f, unsigned nf, uint32_t id)
{
    if (x->oom || !wmi_grow((void **)&x->forms, &x->capforms, x->nforms + nf,
                            sizeof *x->forms, 64)) {
        x->oom = 1;
        return wmi_aff_top(WMI_TOP_TERMS, WMI_NOREG);
    }
    wmi_avar v;
    memset(&v, 0, sizeof v);
    v.kind = WMI_AV_ATOM;
    v.op = (uint8_t)op;
    v.bits = (uint8_t)bits;
    v.sgn = (uint8_t)(sgn != 0);
    v.id = id;
    v.x = (uint32_t)x->nforms;
    v.y = nf > 1 ? (uint32_t)x->nforms + 1 : v.x;
    v.uniform = 1;
    unsigned h = 0;
    for (unsigned k = 0; k < nf; k++) {
        x->forms[x->nforms + k] = f[k];
        v.uniform &= (uint8_t)wmi_aff_uniform(x, &f[k]);
        v.loops |= wmi_aff_loops(x, &f[k]);
        for (unsigned i = 0; i < f[k].nterms; i++)
            if (x->vars[f[k].t[i].v].height > h)
                h = x->vars[f[k].t[i].v].height;
    }
    if (h >= WMI_AVAR_MAX_HEIGHT)
        return wmi_aff_top(WMI_TOP_TERMS, WMI_NOREG);
    v.height = (uint8_t)(h + 1);
    x->nforms += nf;
    return one_var(intern(x, &v, nf));
}

wmi_aff wmi_aff_op(wmi_actx *x, wmi_aop op, unsigned bits, int sgn,
                   const wmi_aff *a, const wmi_aff *b, uint32_t at)
{
    assert(op != WMI_AOP_SEL && op < WMI_AOP_COUNT);
    (void)at;
    if (a->top)
        return *a;
    if (b->top)
        return *b;
    if (a->nterms == 0 && b->nterms == 0)
        return wmi_aff_const(
            at_width(apply(op, bits, sgn, a->c0, b->c0), bits, sgn));
    int bc = b->nterms == 0;
    int64_t k = b->c0;
    switch (op) {
    case WMI_AOP_SHL:
        if (bc && k >= 0 && k < (int64_t)bits && k < 62)
            return wmi_aff_scale(a, (int64_t)1 << k);
        break;
    case WMI_AOP_SHR:
        if (bc && k == 0)
            return *a;
        if (bc && k > 0 && k < 62 && coef_pow2(a) >= ((uint64_t)1 << k)) {
            /* (c0 + 2^k S) >> k = (c0 >> k) + S for the nonnegative values
               index arithmetic holds */
            wmi_aff r = *a;
            r.c0 = a->c0 >> k;
            for (unsigned i = 0; i < r.nterms; i++)
                r.t[i].c = a->t[i].c >> k;
            return r;
        }
        break;
    case WMI_AOP_AND:
        if (a->nterms == 0) /* constant first: swap */
            return wmi_aff_op(x, op, bits, sgn, b, a, at);
        if (bc) {
            uint64_t m = (uint64_t)at_width(k, bits, 0);
            uint64_t all =
                bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
            if (m == 0)
                return wmi_aff_const(0);
            if (m == all)
                return *a;
            if (((m + 1) & m) == 0 && coef_pow2(a) > m)
                return wmi_aff_const((int64_t)((uint64_t)a->c0 & m));
            uint64_t low = ~m & all;
            if (((low + 1) & low) == 0 && coef_pow2(a) > low) {
                wmi_aff r = *a;
                r.c0 = (int64_t)((uint64_t)a->c0 & ~low);
                return r;
            }
        }
        break;
    case WMI_AOP_OR:
    case WMI_AOP_XOR:
        if (a->nterms == 0)
            return wmi_aff_op(x, op, bits, sgn, b, a, at);
        if (bc && k == 0)
            return *a;
        if (bc && k > 0 && coef_pow2(a) > (uint64_t)k &&
            ((uint64_t)a->c0 & (coef_pow2(a) - 1)) == 0) {
            /* the low bits are c0's, all zero: OR/XOR adds k */
            wmi_aff r = *a;
            r.c0 = wadd(a->c0, k);
            return r;
        }
        break;
    case WMI_AOP_DIV:
        if (bc && k == 1)
            return *a;
        if (bc && k > 1 && coefs_multiple(a, k) && a->c0 % k == 0) {
            wmi_aff r = *a;
            r.c0 = a->c0 / k;
            for (unsigned i = 0; i < r.nterms; i++)
                r.t[i].c = a->t[i].c / k;
            return r;
        }
        break;
    case WMI_AOP_REM:
        if (bc && k > 0 && coefs_multiple(a, k))
            return wmi_aff_const(a->c0 % k);
        break;
    case WMI_AOP_MIN:
    case WMI_AOP_MAX:
        if (wmi_aff_eq(a, b))
            return *a;
        break;
    case WMI_AOP_SEL:
    case WMI_AOP_COUNT: break;
    }
    wmi_aff f[2] = {*a, *b};
    return atom(x, op, bits, sgn, f, 2, 0);
}

wmi_aff wmi_aff_select(wmi_actx *x, unsigned cmp, unsigned bits, int sgn,
                       const wmi_aff *l, const wmi_aff *r, const wmi_aff *a,
                       const wmi_aff *b, uint32_t at)
{
    (void)at;
    if (wmi_aff_eq(a, b))
        return *a;
    if (l->top)
        return *l;
    if (r->top)
        return *r;
    if (a->top)
        return *a;
    if (b->top)
        return *b;
    if (l->nterms == 0 && r->nterms == 0)
        return wmi_aff_cmp_holds(cmp, bits, sgn, l->c0, r->c0) ? *a : *b;
    wmi_aff f[4] = {*l, *r, *a, *b};
    return atom(x, WMI_AOP_SEL, bits, sgn, f, 4, cmp);
}

/* ---- facts --------------------------------------------------------------- */

int wmi_aff_eq(const wmi_aff *a, const wmi_aff *b)
{
    if (a->top || b->top)
        return a->top && b->top && a->why == b->why;
    if (a->c0 != b->c0 || a->nterms != b->nterms)
        return 0;
    for (unsigned i = 0; i < a->nterms; i++)
        if (a->t[i].c != b->t[i].c || a->t[i].v != b->t[i].v)
            return 0;
    return 1;
}

int wmi_aff_uniform(const wmi_actx *x, const wmi_aff *a)
{
    if (a->top)
        return 0;
    for (unsigned i = 0; i < a->nterms; i++)
        if (!x->vars[a->t[i].v].uniform)
            return 0;
    return 1;
}

uint64_t wmi_aff_loops(const wmi_actx *x, const wmi_aff *a)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < a->nterms && !a->top; i++)
        m |= x->vars[a->t[i].v].loops;
    return m;
}

int64_t wmi_aff_coef(const wmi_aff *a, uint32_t v)
{
    for (unsigned i = 0; i < a->nterms && !a->top; i++)
        if (a->t[i].v == v)
            return a->t[i].c;
    return 0;
}

/* ---- printing ------------------------------------------------------------ */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(sbuf *s, const char *fmt, ...)
{
    if (s->n + 1 >= s->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        s->n += (size_t)k < s->cap - s->n ? (size_t)k : s->cap - s->n - 1;
}

static void print_form(const wmi_actx *x, const wmi_aff *a, wmi_aff_namer nm,
                       void *ud, sbuf *s, int depth);

static void print_var(const wmi_actx *x, uint32_t id, wmi_aff_namer nm,
                      void *ud, sbuf *s, int depth)
{
    static const char *const ops[] = {"&", "|", "^",   "<<",  ">>",
                                      "/", "%", "min", "max", "?"};
    const wmi_avar *v = &x->vars[id];
    if (depth > 6) {
        put(s, "...");
        return;
    }
    switch ((wmi_avar_kind)v->kind) {
    case WMI_AV_PROD:
        print_var(x, v->x, nm, ud, s, depth + 1);
        put(s, "*");
        print_var(x, v->y, nm, ud, s, depth + 1);
        return;
    case WMI_AV_ATOM:
        if (v->op == WMI_AOP_SEL) {
            static const char *const cmps[] = {
                "==", "!=", "<",  "<=", ">",  ">=", "<",  "<=",  ">",
                ">=", "==", "!=", "<",  "<=", ">",  ">=", "num", "nan"};
            put(s, "(");
            print_form(x, &x->forms[v->x], nm, ud, s, depth + 1);
            put(s, " %s ", v->id < WM_ARRAY_LEN(cmps) ? cmps[v->id] : "?");
            print_form(x, &x->forms[v->x + 1], nm, ud, s, depth + 1);
            put(s, " ? ");
            print_form(x, &x->forms[v->x + 2], nm, ud, s, depth + 1);
            put(s, " : ");
            print_form(x, &x->forms[v->x + 3], nm, ud, s, depth + 1);
            put(s, ")");
        } else if (v->op == WMI_AOP_MIN || v->op == WMI_AOP_MAX) {
            put(s, "%s(", ops[v->op]);
            print_form(x, &x->forms[v->x], nm, ud, s, depth + 1);
            put(s, ", ");
            print_form(x, &x->forms[v->y], nm, ud, s, depth + 1);
            put(s, ")");
        } else {
            put(s, "(");
            print_form(x, &x->forms[v->x], nm, ud, s, depth + 1);
            put(s, " %s ", ops[v->op]);
            print_form(x, &x->forms[v->y], nm, ud, s, depth + 1);
            put(s, ")");
        }
        return;
    case WMI_AV_SREG:
    case WMI_AV_PARAM:
    case WMI_AV_ITER:
    case WMI_AV_LOAD:
    case WMI_AV_JOIN:
    case WMI_AV_PHI: {
        char b[64];
        b[0] = 0;
        nm(ud, v, b, sizeof b);
        put(s, "%s", b);
        return;
    }
    }
}

static void print_form(const wmi_actx *x, const wmi_aff *a, wmi_aff_namer nm,
                       void *ud, sbuf *s, int depth)
{
    if (a->top) {
        put(s, "?");
        return;
    }
    int any = 0;
    for (unsigned i = 0; i < a->nterms; i++) {
        int64_t c = a->t[i].c;
        if (any)
            put(s, c < 0 ? " - " : " + ");
        else if (c < 0)
            put(s, "-");
        uint64_t m = c < 0 ? 0 - (uint64_t)c : (uint64_t)c;
        if (m != 1)
            put(s, "%llu*", (unsigned long long)m);
        print_var(x, a->t[i].v, nm, ud, s, depth);
        any = 1;
    }
    if (a->c0 || !any) {
        int64_t c = a->c0;
        if (any)
            put(s, c < 0 ? " - %llu" : " + %llu",
                (unsigned long long)(c < 0 ? 0 - (uint64_t)c : (uint64_t)c));
        else
            put(s, "%lld", (long long)c);
    }
}

char *wmi_aff_print(const wmi_actx *x, const wmi_aff *a, wmi_aff_namer name,
                    void *ud, char *buf, size_t cap)
{
    sbuf s = {buf, 0, cap};
    if (cap)
        buf[0] = 0;
    print_form(x, a, name, ud, &s, 0);
    return buf;
}

/* ---- evaluation ---------------------------------------------------------- */

int64_t wmi_avar_eval(const wmi_actx *x, uint32_t id, wmi_aenv *env)
{
    assert(id < x->nvars);
    if (env->stamp[id] == env->epoch)
        return env->val[id];
    const wmi_avar *v = &x->vars[id];
    int64_t r = 0;
    switch ((wmi_avar_kind)v->kind) {
    case WMI_AV_PROD:
        r = wmul(wmi_avar_eval(x, v->x, env), wmi_avar_eval(x, v->y, env));
        break;
    case WMI_AV_ATOM:
        if (v->op == WMI_AOP_SEL) {
            int64_t l = wmi_aff_eval(x, &x->forms[v->x], env);
            int64_t rr = wmi_aff_eval(x, &x->forms[v->x + 1], env);
            r = wmi_aff_cmp_holds(v->id, v->bits, v->sgn, l, rr)
                    ? wmi_aff_eval(x, &x->forms[v->x + 2], env)
                    : wmi_aff_eval(x, &x->forms[v->x + 3], env);
        } else {
            int64_t a = wmi_aff_eval(x, &x->forms[v->x], env);
            int64_t b = wmi_aff_eval(x, &x->forms[v->y], env);
            r = at_width(apply((wmi_aop)v->op, v->bits, v->sgn, a, b), v->bits,
                         v->sgn);
        }
        break;
    case WMI_AV_SREG:
    case WMI_AV_PARAM:
    case WMI_AV_ITER:
    case WMI_AV_LOAD:
    case WMI_AV_JOIN:
    case WMI_AV_PHI: r = env->leaf(env->ud, v); break;
    }
    env->stamp[id] = env->epoch;
    env->val[id] = r;
    return r;
}

int64_t wmi_aff_eval(const wmi_actx *x, const wmi_aff *a, wmi_aenv *env)
{
    assert(!a->top);
    int64_t r = a->c0;
    for (unsigned i = 0; i < a->nterms; i++)
        r = wadd(r, wmul(a->t[i].c, wmi_avar_eval(x, a->t[i].v, env)));
    return r;
}
