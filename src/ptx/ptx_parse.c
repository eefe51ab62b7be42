/*
 * ptx_parse.c -- PTX text to a decoded module: a hand-written lexer and a
 * recursive-descent parser over module items and function bodies.  This
 * file holds functions, module items and wm_ptx_parse; the lexer is
 * ptx_lex.c, registers, variables and operands ptx_operand.c, instructions
 * and line info ptx_insn.c, their shared state ptx_parse_int.h; the
 * module's accessors are ptx_module.c.
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
#include "ptx_parse_int.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- functions ----------------------------------------------------------- */

/* Demangle just the identifier of an Itanium name: _Z4copyPf -> copy,
   _ZN2ns6kernelEv -> ns::kernel. Other names are returned as is. */
static char *demangle_ident(const char *s)
{
    if (strncmp(s, "_Z", 2) != 0)
        return wmi_parse_dupn(s, strlen(s));
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
        return wmi_parse_dupn(s, strlen(s));
    return wmi_parse_dupn(out, o);
}

/* param-list := '(' [param {, param}] ')'
 * param      := .param [.align N] .type [.ptr [.space] [.align N]] name ['[' N
 * ']'] */
static int parse_params(parser *p)
{
    wmi_func *f = p->f;
    if (!wmi_lex_expect_p(p, '(', "to open the parameter list"))
        return 0;
    uint32_t off = 0;
    while (!wmi_lex_is_p(p, ')')) {
        if (!wmi_lex_is_w(p, ".param") && !wmi_lex_is_w(p, ".reg"))
            return wmi_parse_err(p, "expected .param");
        wmi_lex_next(p);
        uint32_t align = 0, elem = 0, count = 1;
        int after_ptr = 0;
        char kind = 0;
        while (p->t.k == T_WORD && p->s[p->t.off] == '.') {
            const char *w = p->s + p->t.off + 1;
            size_t wl = p->t.len - 1;
            if (wmi_lex_is_w(p, ".align")) {
                wmi_lex_next(p);
                lit l;
                if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l))
                    return wmi_parse_err(p, "expected an alignment");
                /* .ptr .align N describes the pointee, not the layout
                   (docs/design/ptx-front-end.md 1) */
                if (!after_ptr)
                    align = (uint32_t)l.bits;
            } else if (wmi_lex_is_w(p, ".ptr")) {
                after_ptr = 1;
            } else if (wl >= 2 &&
                       (w[0] == 'b' || w[0] == 'u' || w[0] == 's' ||
                        w[0] == 'f') &&
                       w[1] >= '0' && w[1] <= '9') {
                elem = (uint32_t)atoi(w + 1) / 8;
                kind = w[0];
            } else if (wl == 4 && memcmp(w, "pred", 4) == 0) {
                elem = 1;
                kind = 'p';
            }
            wmi_lex_next(p);
        }
        if (p->t.k != T_WORD || !elem)
            return wmi_parse_err(p, "expected a parameter type and name");
        tok name = p->t;
        wmi_lex_next(p);
        if (wmi_lex_is_p(p, '[')) {
            wmi_lex_next(p);
            lit l;
            if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l))
                return wmi_parse_err(p, "expected an array size");
            count = (uint32_t)l.bits;
            wmi_lex_next(p);
            if (!wmi_lex_expect_p(p, ']', "to close the array size"))
                return 0;
        } else {
            align = elem; /* scalars: natural alignment */
        }
        if (!align)
            align = elem;
        size_t cap = f->nparams;
        wmi_param *np = realloc(f->params, (cap + 1) * sizeof *np);
        if (!np)
            return wmi_parse_nomem(p);
        f->params = np;
        wmi_param *pa = &f->params[f->nparams++];
        pa->name = wmi_parse_dupn(p->s + name.off, name.len);
        if (!pa->name)
            return wmi_parse_nomem(p);
        off = (uint32_t)wmi_parse_align_up(off, align);
        pa->offset = off;
        pa->size = elem * count;
        pa->align = align;
        pa->kind = kind;
        pa->bits = (uint8_t)(kind == 'p' ? 1 : elem * 8);
        pa->ptr = (uint8_t)after_ptr;
        pa->count = count;
        off += pa->size;
        if (wmi_lex_is_p(p, ','))
            wmi_lex_next(p);
        else if (!wmi_lex_is_p(p, ')'))
            return wmi_parse_err(p,
                                 "expected ',' or ')' in the parameter list");
    }
    f->param_bytes = off;
    wmi_lex_next(p);
    return 1;
}

static int parse_body(parser *p);

static int add_fsym(parser *p, const char *name, size_t len, uint32_t off,
                    uint32_t size)
{
    int ok;
    PUSH(p->fsyms, p->nfsyms, p->capfsyms, ok);
    if (!ok)
        return wmi_parse_nomem(p);
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
    f->ret_base = (uint32_t)wmi_parse_align_up(f->param_bytes, 16);
    for (uint32_t i = 0; i < f->nparams; i++)
        if (!add_fsym(p, f->params[i].name, strlen(f->params[i].name),
                      f->params[i].offset, f->params[i].size))
            return 0;
    for (uint32_t i = 0; i < f->nrets; i++)
        if (!add_fsym(p, f->rets[i].name, strlen(f->rets[i].name),
                      f->ret_base + f->rets[i].offset, f->rets[i].size))
            return 0;
    p->fcur = (uint32_t)wmi_parse_align_up(f->ret_base + rbytes, 16);
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
                return wmi_parse_nomem(p);
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
    wmi_lex_next(p); /* .param */
    while (p->t.k == T_WORD && p->s[p->t.off] == '.') {
        const char *w = p->s + p->t.off + 1;
        size_t wl = p->t.len - 1;
        if (wmi_lex_is_w(p, ".align")) {
            wmi_lex_next(p);
            lit l;
            if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l) || l.bits > 4096)
                return wmi_parse_err(p, "expected an alignment");
            align = (uint32_t)l.bits;
        } else if (wl >= 2 &&
                   (w[0] == 'b' || w[0] == 'u' || w[0] == 's' || w[0] == 'f') &&
                   w[1] >= '0' && w[1] <= '9') {
            elem = (uint32_t)atoi(w + 1) / 8;
        }
        wmi_lex_next(p);
    }
    if (p->t.k != T_WORD || !elem)
        return wmi_parse_err(p, "expected a parameter type and name");
    tok name = p->t;
    wmi_lex_next(p);
    if (wmi_lex_is_p(p, '[')) {
        wmi_lex_next(p);
        lit l;
        if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l) || l.bits > 65536)
            return wmi_parse_err(p, "expected an array size");
        count = (uint32_t)l.bits;
        wmi_lex_next(p);
        if (!wmi_lex_expect_p(p, ']', "to close the array size"))
            return 0;
    }
    if (!align)
        align = elem;
    uint32_t off = (uint32_t)wmi_parse_align_up(p->fcur, align);
    p->fcur = off + elem * count;
    if (p->fcur > p->f->frame_bytes)
        p->f->frame_bytes = p->fcur;
    if (!add_fsym(p, p->s + name.off, name.len, off, elem * count))
        return 0;
    return wmi_lex_expect_p(p, ';', "after the parameter declaration");
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
        wmi_parse_nomem(p);
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

/* Bit s of the returned set (NULL when out of memory): an instruction of
   f reads slot s (its guard and sources, as ptx_unset.c counts them). */
static uint64_t *slots_read(const wm_ptx_module *m, const wmi_func *f)
{
    uint64_t *b = calloc((size_t)f->nslots / 64 + 1, sizeof *b);
    for (uint32_t i = 0; b && i < f->count; i++) {
        const wmi_insn *in = &m->code[f->first + i];
        const uint32_t src[5] = {in->guard, in->a, in->b, in->c, in->e};
        for (unsigned j = 0; j < (in->op == OP_BRA ? 1u : 5u); j++)
            for (unsigned k = 0;
                 src[j] != WMI_NOREG && k < wmi_vcount(m, src[j]); k++) {
                uint32_t v = wmi_vslot(m, src[j], k);
                if (v < f->nslots)
                    b[v / 64] |= 1ull << (v % 64);
            }
    }
    return b;
}

/* Mark the accesses of function f (just parsed) that a spin-wait may poll
   with (LD_POLL): its .volatile and .relaxed loads, and its atomics whose
   result something reads (a lock's atom.cas, a flag's atomicExch or
   atomicAdd(flag, 0)), that a loop of f holds (between a backward
   branch's target and the branch), and every one of a function that is
   not a kernel.  Straight-line ones (a warp-synchronous reduction's) keep
   the interpreter's fast path, and a histogram's atomics, whose results
   nothing reads, the cost of a plain atomic.  0 when out of memory. */
static int mark_polls(wm_ptx_module *m, const wmi_func *f)
{
    int32_t *open = NULL; /* loops open at each instruction, as deltas */
    if (f->is_entry && f->count) {
        if (!(open = calloc((size_t)f->count + 1, sizeof *open)))
            return 0;
        for (uint32_t i = 0; i < f->count; i++) {
            const wmi_insn *b = &m->code[f->first + i];
            if (b->op == OP_BRA && b->target >= f->first &&
                b->target <= f->first + i) {
                open[b->target - f->first]++;
                open[i + 1]--;
            }
        }
    }
    uint64_t *read = slots_read(m, f);
    int32_t loops = 0;
    for (uint32_t i = 0; read && i < f->count; i++) {
        wmi_insn *in = &m->code[f->first + i];
        loops += open ? open[i] : 0;
        if (f->is_entry && loops <= 0)
            continue;
        uint32_t d = in->d == WMI_NOREG ? WMI_NOREG : wmi_vslot(m, in->d, 0);
        if ((in->op == OP_LD && (in->sync & WMI_SYNC_STRONG) &&
             in->mod2 != LD_ACQUIRE) ||
            (in->op == OP_ATOM && in->mod2 == 0 && d < f->nslots &&
             (read[d / 64] >> (d % 64) & 1)))
            in->mod2 = LD_POLL;
    }
    free(open);
    int ok = read != NULL;
    free(read);
    return ok;
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
        return wmi_parse_nomem(p);
    *f->err = *p->d;
    locate(p, f->err);
    memset(p->d, 0, sizeof *p->d);
    m->ncode = f->first;
    f->count = 0;
    p->pos = body;
    wmi_lex_scan(p);
    assert(wmi_lex_is_p(p, '{'));
    int depth = 0;
    do {
        if (wmi_lex_is_p(p, '{'))
            depth++;
        else if (wmi_lex_is_p(p, '}'))
            depth--;
        wmi_lex_next(p);
    } while (depth > 0 && p->t.k != T_EOF);
    p->f = NULL;
    return 1;
}

/* A new function at the end of m->funcs, current (p->f, p->fidx). */
static int begin_function(parser *p, int is_entry)
{
    wm_ptx_module *m = p->m;
    wmi_func tmp;
    memset(&tmp, 0, sizeof tmp);
    int ok;
    PUSH(m->funcs, m->nfuncs, m->capfuncs, ok);
    if (!ok)
        return wmi_parse_nomem(p);
    p->fidx = (uint32_t)m->nfuncs;
    m->funcs[m->nfuncs++] = tmp;
    p->f = &m->funcs[p->fidx];
    p->f->is_entry = is_entry;
    p->f->nslots = SLOT_SREG0 + SR_COUNT;
    p->f->dyn_align = 16;
    return 1;
}

/* A .func's return parameters "(.param .b32 r)", the '(' current: parsed
   as parameters, then moved to f->rets. */
static int parse_return_params(parser *p)
{
    if (!parse_params(p))
        return 0;
    p->f->rets = p->f->params;
    p->f->nrets = p->f->nparams;
    p->f->ret_base = p->f->param_bytes; /* their size, for now */
    p->f->params = NULL;
    p->f->nparams = 0;
    p->f->param_bytes = 0;
    return 1;
}

/* The function's name (a .func's also into p->fnames) and its demangled
   form. */
static int parse_function_name(parser *p, int is_entry)
{
    if (p->t.k != T_WORD)
        return wmi_parse_err(p, "expected a function name");
    p->f->name = wmi_parse_dupn(p->s + p->t.off, p->t.len);
    if (!p->f->name)
        return wmi_parse_nomem(p);
    if (!is_entry) {
        if (!wmi_namemap_put(&p->fnames, p->s + p->t.off, p->t.len, 0))
            return wmi_parse_nomem(p);
    }
    p->f->pretty = demangle_ident(p->f->name);
    if (!p->f->pretty)
        return wmi_parse_nomem(p);
    wmi_lex_next(p);
    return 1;
}

/* performance directives: .maxntid 128, 1, 1 / .reqntid 256 / ... */
static int parse_perf_directives(parser *p)
{
    while (p->t.k == T_WORD) {
        /* clusters: .reqnctapercluster 2, 1, 1 and .explicitcluster */
        uint32_t *into = wmi_lex_is_w(p, ".reqntid") ? p->f->reqntid
                         : wmi_lex_is_w(p, ".reqnctapercluster")
                             ? p->f->reqcluster
                             : NULL;
        if (into == p->f->reqcluster || wmi_lex_is_w(p, ".explicitcluster"))
            p->f->explicit_cluster = 1;
        wmi_lex_next(p);
        unsigned k = 0;
        while (p->t.k == T_NUM || wmi_lex_is_p(p, ',')) {
            if (p->t.k == T_NUM && into && k < 3) {
                lit l;
                if (!wmi_lex_number(p, 0, &l))
                    return 0;
                into[k++] = (uint32_t)l.bits;
            }
            wmi_lex_next(p);
        }
        for (; into == p->f->reqcluster && k && k < 3; k++)
            into[k] = 1; /* .reqnctapercluster 4 is 4, 1, 1 */
    }
    return 1;
}

/* What function f owns (names, parameters, constants, its error). */
static void func_free(wmi_func *f)
{
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

/* A prototype (the ';' current): the function is dropped again. */
static int drop_prototype(parser *p)
{
    func_free(p->f);
    p->m->nfuncs--;
    p->f = NULL;
    wmi_lex_next(p);
    return 1;
}

/* The per-body state starts afresh: registers, labels, fixes, scopes, the
   frame, the line cursor. */
static int begin_body(parser *p)
{
    p->f->first = (uint32_t)p->m->ncode;
    p->nregs = p->nlrefs = p->nldefs = p->nfixes = 0;
    wmi_namemap_free(&p->rnames);
    p->scope = 0; /* block 0: the body, its own parent */
    p->nscopes = 0;
    int ok_scope;
    PUSH(p->sparent, p->nscopes, p->capscopes, ok_scope);
    if (!ok_scope)
        return wmi_parse_nomem(p);
    p->sparent[p->nscopes++] = 0;
    if (!frame_begin(p))
        return 0;
    p->depth = 0;
    p->curloc = 0;
    p->lastline = 0;
    return 1;
}

/* symbol addresses; shared ones wait for the module's layout
   (ptx_smem.c): a callee's variables must hold in every caller's */
static int patch_symbols(parser *p, wmi_func *f)
{
    const wm_ptx_module *m = p->m;
    for (size_t i = 0; i < p->nfixes; i++) {
        const sym_fix *x = &p->fixes[i];
        const wmi_var *v = &m->vars[x->var];
        uint64_t a = v->offset;
        if (v->space == SP_SHARED) {
            int pushed;
            PUSH(p->sfixes, p->nsfixes, p->capsfixes, pushed);
            if (!pushed)
                return wmi_parse_nomem(p);
            wmi_sfix s = {p->fidx, x->cidx, x->var, x->add};
            p->sfixes[p->nsfixes++] = s;
            continue;
        }
        if (v->space == SP_GLOBAL || v->space == SP_CONST)
            a = ((uint64_t)WMI_MAX_GLOBAL_BUFS << WMI_WIN_SHIFT) + v->offset;
        f->cvals[x->cidx] = a + (uint64_t)x->add;
    }
    return 1;
}

/* function := (.entry | .func [ret-list]) name param-list {perf-directive}
 *             ( '{' body '}' | ';' )
 * Read in the grammar's order, one step after another. */
static int parse_function(parser *p, int is_entry)
{
    wm_ptx_module *m = p->m;
    wmi_lex_next(p); /* .entry / .func */
    if (!begin_function(p, is_entry))
        return 0;
    if (!is_entry && wmi_lex_is_p(p, '(') && !parse_return_params(p))
        return 0;
    if (!parse_function_name(p, is_entry))
        return 0;
    if (wmi_lex_is_p(p, '(') && !parse_params(p))
        return 0;
    if (!parse_perf_directives(p))
        return 0;
    if (wmi_lex_is_p(p, ';'))
        return drop_prototype(p);
    if (!wmi_lex_is_p(p, '{'))
        return wmi_parse_err(p, "expected '{' to open the function body");
    size_t body = p->t.off;
    if (!begin_body(p))
        return 0;
    if (!parse_body(p) || !resolve_labels(p))
        return drop_body(p, body);
    wmi_func *f = &m->funcs[p->fidx];
    f->count = (uint32_t)m->ncode - f->first;
    if (!mark_polls(m, f))
        return wmi_parse_nomem(p);
    if (!frame_end(p))
        return 0;
    if (!patch_symbols(p, f))
        return 0;
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
        return wmi_parse_err(
            p, "blocks nested deeper than %llu levels (a fixed limit)",
            WM_LIMIT_PTX_NESTING);
    wmi_lex_next(p); /* '{' */
    p->depth++;
    /* a new label scope inside the function body's */
    uint32_t outer = p->scope;
    if (p->depth > 1) {
        if (p->nscopes >= UINT32_MAX / 2)
            return wmi_parse_err(p, "too many nested blocks");
        PUSH(p->sparent, p->nscopes, p->capscopes, ok);
        if (!ok)
            return wmi_parse_nomem(p);
        p->sparent[p->nscopes] = outer;
        p->scope = (uint32_t)p->nscopes++;
    }
    for (;;) {
        if (p->t.k == T_EOF)
            return wmi_parse_err(p, "expected '}' to close the function body");
        if (wmi_lex_is_p(p, '}')) {
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
            wmi_lex_next(p);
            return 1;
        }
        if (wmi_lex_is_p(p, '{')) {
            if (!parse_body(p))
                return 0;
            continue;
        }
        if (wmi_lex_is_w(p, ".reg")) {
            if (!wmi_parse_reg_decl(p))
                return 0;
        } else if (wmi_lex_is_w(p, ".loc")) {
            if (!wmi_parse_loc(p))
                return 0;
        } else if (wmi_lex_is_w(p, ".shared")) {
            if (!wmi_parse_var(p, SP_SHARED, 0))
                return 0;
        } else if (wmi_lex_is_w(p, ".local")) {
            if (!wmi_parse_var(p, SP_LOCAL, 0))
                return 0;
        } else if (wmi_lex_is_w(p, ".param")) {
            if (!parse_call_param(p))
                return 0;
        } else if (p->t.k == T_WORD && p->s[p->t.off] == '.') {
            wmi_lex_skip_stmt(p); /* .pragma, .maxnreg, ... */
        } else if (p->t.k == T_WORD) {
            /* label or instruction */
            tok w = p->t;
            size_t save = p->pos;
            wmi_lex_next(p);
            if (wmi_lex_is_p(p, ':')) {
                PUSH(p->ldefs, p->nldefs, p->capldefs, ok);
                if (!ok)
                    return wmi_parse_nomem(p);
                p->ldefs[p->nldefs].off = w.off;
                p->ldefs[p->nldefs].len = w.len;
                p->ldefs[p->nldefs].insn = (uint32_t)p->m->ncode;
                p->ldefs[p->nldefs].scope = p->scope;
                p->nldefs++;
                wmi_lex_next(p);
                if (wmi_lex_is_w(p, ".callprototype"))
                    wmi_lex_skip_stmt(p);
                continue;
            }
            p->pos = save;
            p->t = w;
            if (!wmi_parse_insn(p, w.off))
                return 0;
        } else if (wmi_lex_is_p(p, '@')) {
            if (!wmi_parse_insn(p, p->t.off))
                return 0;
        } else {
            return wmi_parse_err(p, "expected an instruction or directive");
        }
    }
}

/* module := { .version | .target | .address_size | .file | .section
 *           | [.visible|.weak|.extern] (.entry | .func | var) } */
static int parse_module(parser *p)
{
    wmi_lex_next(p);
    while (p->t.k != T_EOF && p->d->status == WM_OK) {
        int is_extern = 0;
        while (wmi_lex_is_w(p, ".visible") || wmi_lex_is_w(p, ".weak") ||
               wmi_lex_is_w(p, ".extern") || wmi_lex_is_w(p, ".common")) {
            if (wmi_lex_is_w(p, ".extern"))
                is_extern = 1;
            wmi_lex_next(p);
        }
        if (wmi_lex_is_w(p, ".version")) {
            wmi_lex_scan(p);
            if (p->t.k == T_NUM) {
                p->m->ptx_major = atoi(p->s + p->t.off);
                const char *dot = memchr(p->s + p->t.off, '.', p->t.len);
                p->m->ptx_minor = dot ? atoi(dot + 1) : 0;
            }
            wmi_lex_skip_line(p);
        } else if (wmi_lex_is_w(p, ".target")) {
            /* .target sm_80[, texmode][, debug]: keep the first word */
            wmi_lex_scan(p);
            if (p->t.k == T_WORD && p->t.len < sizeof p->m->target) {
                memcpy(p->m->target, p->s + p->t.off, p->t.len);
                p->m->target[p->t.len] = 0;
            }
            wmi_lex_skip_line(p);
        } else if (wmi_lex_is_w(p, ".address_size")) {
            wmi_lex_skip_line(p);
        } else if (wmi_lex_is_w(p, ".file")) {
            if (!wmi_parse_file(p))
                return 0;
        } else if (wmi_lex_is_w(p, ".section")) {
            while (!wmi_lex_is_p(p, '{') && p->t.k != T_EOF)
                wmi_lex_next(p);
            int depth = 0;
            do {
                if (wmi_lex_is_p(p, '{'))
                    depth++;
                else if (wmi_lex_is_p(p, '}'))
                    depth--;
                wmi_lex_next(p);
            } while (depth > 0 && p->t.k != T_EOF);
        } else if (wmi_lex_is_w(p, ".entry") || wmi_lex_is_w(p, ".func")) {
            if (!parse_function(p, wmi_lex_is_w(p, ".entry")))
                return 0;
        } else if (wmi_lex_is_w(p, ".global")) {
            if (!wmi_parse_var(p, SP_GLOBAL, is_extern))
                return 0;
        } else if (wmi_lex_is_w(p, ".const")) {
            if (!wmi_parse_var(p, SP_CONST, is_extern))
                return 0;
        } else if (wmi_lex_is_w(p, ".shared")) {
            if (!wmi_parse_var(p, SP_SHARED, is_extern))
                return 0;
        } else if (wmi_lex_is_w(p, ".loc")) {
            wmi_lex_skip_line(p);
        } else if (p->t.k == T_WORD && p->s[p->t.off] == '.') {
            wmi_lex_skip_stmt(p);
        } else {
            return wmi_parse_err(p, "expected a directive at module scope");
        }
    }
    return p->d->status == WM_OK;
}

/* ---- public API ---------------------------------------------------------- */

void wm_ptx_free(wm_ptx_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nfuncs; i++)
        func_free(&m->funcs[i]);
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
    m->src = wmi_parse_dupn(src, n);
    m->path = wmi_parse_dupn(path ? path : "<input>",
                             strlen(path ? path : "<input>"));
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
        wmi_parse_nomem(&p);
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
