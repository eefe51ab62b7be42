/*
 * expr_ref.c -- the reference evaluator: one thread at a time, straight
 * off the AST, left to right with C's short-circuit rules.  It is slow and
 * obviously right; tests and the benchmark compare the compiled vector
 * path (expr_eval.c) against it, and the parser uses it to evaluate
 * constant expressions.  Fault messages are made here for both paths.
 */
#include "expr_int.h"

#include <stdio.h>

void wmi_expr_span(const wm_expr *e, int32_t n, size_t *lo, size_t *hi)
{
    const xnode *x = &e->nodes[n];
    size_t a = x->off, b = x->off + x->len;
    int32_t kids[3] = {x->a, x->b, x->c};
    for (int i = 0; i < 3; i++) {
        if (kids[i] < 0)
            continue;
        size_t l, h;
        wmi_expr_span(e, kids[i], &l, &h);
        if (l < a)
            a = l;
        if (h > b)
            b = h;
    }
    *lo = a;
    *hi = b;
}

void wmi_expr_fault_text(const wm_expr *e, int32_t n, int64_t v, xfault *f)
{
    const xnode *x = &e->nodes[n];
    size_t lo, hi;
    assert(x->kind == XN_BINARY && x->b >= 0);
    wmi_expr_span(e, x->b, &lo, &hi);
    f->node = n;
    f->off = x->off;
    f->len = x->len;
    int w = (int)(hi - lo > 60 ? 60 : hi - lo);
    if (x->op == XO_DIV || x->op == XO_MOD)
        snprintf(f->msg, sizeof f->msg, "%s by zero: '%.*s' is 0",
                 x->op == XO_DIV ? "division" : "remainder", w, e->src + lo);
    else
        snprintf(f->msg, sizeof f->msg,
                 "shift count '%.*s' is %lld, outside 0..63", w, e->src + lo,
                 (long long)v);
}

int wmi_expr_ref_eval(const wm_expr *e, int32_t n, const xenv *env,
                      int64_t *out, xfault *f)
{
    const xnode *x = &e->nodes[n];
    int64_t a, b;
    switch (x->kind) {
    case XN_NUM:
        *out = x->value;
        return 1;
    case XN_VAR:
        assert(x->var < XV_COUNT);
        *out = env->v[x->var];
        return 1;
    case XN_UNARY:
        if (!wmi_expr_ref_eval(e, x->a, env, &a, f))
            return 0;
        *out = wmx_unop(x->op, a);
        return 1;
    case XN_COND:
        if (!wmi_expr_ref_eval(e, x->a, env, &a, f))
            return 0;
        return wmi_expr_ref_eval(e, a != 0 ? x->b : x->c, env, out, f);
    case XN_BINARY:
        if (!wmi_expr_ref_eval(e, x->a, env, &a, f))
            return 0;
        /* C evaluates the right side of && / || only when needed. */
        if (x->op == XO_LAND && a == 0) {
            *out = 0;
            return 1;
        }
        if (x->op == XO_LOR && a != 0) {
            *out = 1;
            return 1;
        }
        if (!wmi_expr_ref_eval(e, x->b, env, &b, f))
            return 0;
        if (wmx_faults(x->op, b)) {
            wmi_expr_fault_text(e, n, b, f);
            return 0;
        }
        *out = wmx_binop(x->op, a, b);
        return 1;
    }
    assert(0 && "bad node kind");
    return 0;
}
