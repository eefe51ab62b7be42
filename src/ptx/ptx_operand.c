/*
 * ptx_operand.c -- PTX register declarations and names, constants,
 * variables (.global/.shared/.const/.local and their initialisers) and
 * operands lowered to register slots, for the parser (ptx_parse.c).
 */
#include "ptx_parse_int.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- registers and constants --------------------------------------------- */

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
        wmi_parse_nomem(p);
        return SLOT_ZERO;
    }
    p->csym[f->nconsts] = cidx != NULL;
    size_t cap = f->capconsts;
    if (!wmi_grow((void **)&f->cvals, &cap, f->nconsts + 1, sizeof *f->cvals,
                  16)) {
        wmi_parse_nomem(p);
        return SLOT_ZERO;
    }
    cap = f->capconsts;
    if (!wmi_grow((void **)&f->cslots, &cap, f->nconsts + 1, sizeof *f->cslots,
                  16)) {
        wmi_parse_nomem(p);
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
uint32_t wmi_parse_find_reg(parser *p, const char *s, size_t n)
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
    /* %tid / %ntid without component are vectors; %envregN reads 0 but
       for %envreg1 and %envreg2 (special registers above: the grid
       workspace of a cooperative launch). */
    if (n > 7 && memcmp(s, "%envreg", 7) == 0)
        return SLOT_ZERO;
    return WMI_NOREG;
}

/* The register-slot limit of a function was passed (registers and
   distinct constants share the slots). */
static int regs_limit(parser *p)
{
    return wmi_parse_err(p,
                         "function '%s' needs more than %llu register slots "
                         "(registers + distinct constants; a fixed limit)",
                         p->f->name, WM_LIMIT_REGS);
}

/* .reg .type name[<N>] {, name[<N>]} ; */
int wmi_parse_reg_decl(parser *p)
{
    wmi_lex_next(p); /* .reg */
    while (p->t.k == T_WORD && p->s[p->t.off] == '.')
        wmi_lex_next(p); /* .b32, .v4 ... */
    for (;;) {
        if (p->t.k != T_WORD)
            return wmi_parse_err(p, "expected a register name");
        tok name = p->t;
        uint32_t count = 0;
        wmi_lex_next(p);
        if (wmi_lex_is_p(p, '<')) {
            wmi_lex_next(p);
            lit l;
            if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l) || l.k != LIT_INT)
                return wmi_parse_err(p, "expected a register count");
            if (l.bits > WM_LIMIT_REGS) /* the count alone is too many */
                return wmi_parse_err(p,
                                     "%llu registers in '%.*s': function '%s' "
                                     "may have at most %llu register slots "
                                     "(registers + distinct constants; a fixed "
                                     "limit)",
                                     (unsigned long long)l.bits, (int)name.len,
                                     p->s + name.off, p->f->name,
                                     WM_LIMIT_REGS);
            count = (uint32_t)l.bits;
            wmi_lex_next(p);
            if (!wmi_lex_expect_p(p, '>', "after the register count"))
                return 0;
        }
        int ok;
        PUSH(p->regs, p->nregs, p->capregs, ok);
        if (!ok)
            return wmi_parse_nomem(p);
        regname *r = &p->regs[p->nregs++];
        r->name = p->s + name.off;
        r->len = name.len;
        r->count = count;
        r->slot = new_slots(p, count ? count : 1);
        r->depth = p->depth;
        r->prev = wmi_namemap_get(&p->rnames, r->name, r->len);
        if (!wmi_namemap_put(&p->rnames, r->name, r->len, (uint32_t)(p->nregs - 1)))
            return wmi_parse_nomem(p);
        if (p->f->nslots > WM_LIMIT_REGS)
            return regs_limit(p);
        if (wmi_lex_is_p(p, ','))
            wmi_lex_next(p);
        else
            break;
    }
    return wmi_lex_expect_p(p, ';', "after the register declaration");
}

/* ---- variables ----------------------------------------------------------- */

long wmi_parse_find_var(const parser *p, const char *s, size_t n)
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

uint64_t wmi_parse_align_up(uint64_t x, uint64_t a)
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
        if (wmi_lex_is_w(p, ".align")) {
            wmi_lex_next(p);
            lit l;
            if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l) || l.k != LIT_INT)
                return wmi_parse_err(p, "expected an alignment");
            *align = (uint32_t)l.bits;
        } else if (wmi_lex_is_w(p, ".v2") || wmi_lex_is_w(p, ".v4")) {
            *count *= (uint64_t)(p->s[p->t.off + 2] - '0');
        } else {
            const char *w = p->s + p->t.off + 1;
            size_t wl = p->t.len - 1;
            for (size_t i = 0; i < WM_ARRAY_LEN(ts); i++)
                if (strlen(ts[i].n) == wl && memcmp(ts[i].n, w, wl) == 0)
                    *elem = ts[i].b;
        }
        wmi_lex_next(p);
    }
    return 1;
}

/* The array dimensions after a name, "[N]" or "[]" (*unsized), each
   multiplying *count. */
static int parse_var_dims(parser *p, uint64_t *count, int *unsized)
{
    while (wmi_lex_is_p(p, '[')) {
        wmi_lex_next(p);
        if (wmi_lex_is_p(p, ']')) {
            *unsized = 1;
        } else {
            lit l;
            if (p->t.k != T_NUM || !wmi_lex_number(p, 0, &l) || l.k != LIT_INT)
                return wmi_parse_err(p, "expected an array size");
            if (l.bits && *count > UINT64_MAX / l.bits)
                return wmi_parse_err(p, "array size overflows 64 bits");
            *count *= l.bits;
            wmi_lex_next(p);
        }
        if (!wmi_lex_expect_p(p, ']', "to close the array size"))
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
        uint64_t off = wmi_parse_align_up(*acc, align);
        if (size > WM_LIMIT_SMEM || off + size > WM_LIMIT_SMEM)
            return var_limit(p, name, "shared memory", WM_LIMIT_SMEM,
                             "a fixed limit");
        v->offset = off;
        *acc = (uint32_t)(off + size);
    } else if (v->space == SP_LOCAL && p->f) {
        uint64_t off = wmi_parse_align_up(p->f->local_bytes, align);
        if (size > WM_LIMIT_LOCAL || off + size > WM_LIMIT_LOCAL)
            return var_limit(p, name, ".local memory per thread",
                             WM_LIMIT_LOCAL, "a fixed limit");
        v->offset = off;
        p->f->local_bytes = (uint32_t)(off + size);
    } else if (v->space == SP_GLOBAL || v->space == SP_CONST) {
        uint64_t off =
            wmi_parse_align_up(p->m->gbytes, align < 16 ? 16 : align);
        if (size > WM_LIMIT_MODULE_DATA || off > WM_LIMIT_MODULE_DATA - size)
            return var_limit(p, name, "module .global/.const data",
                             WM_LIMIT_MODULE_DATA, "a fixed limit");
        /* Only initialised data is stored: a launch allocates the whole
           module data zeroed (lazily, by the OS) and copies this part. */
        if (wmi_lex_is_p(p, '=')) {
            uint8_t *g = realloc(p->m->gdata, off + size + 1);
            if (!g)
                return wmi_parse_nomem(p);
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
    wmi_lex_next(p); /* '=' */
    do {
        if (wmi_lex_is_p(p, '{') || wmi_lex_is_p(p, '}') ||
            wmi_lex_is_p(p, ',')) {
            depth += wmi_lex_is_p(p, '{') - wmi_lex_is_p(p, '}');
            wmi_lex_next(p);
            continue;
        }
        int neg = wmi_lex_is_p(p, '-');
        if (neg)
            wmi_lex_next(p);
        lit l;
        if (p->t.k != T_NUM || !wmi_lex_number(p, neg, &l))
            return wmi_parse_err(p, "expected a number in the initialiser");
        if (data && (k + 1) * elem <= v->size) {
            wmi_type ft = elem == 8 ? PT_F64 : PT_F32;
            uint64_t b = l.k == LIT_INT ? l.bits : wmi_lit_bits(&l, ft);
            memcpy(p->m->gdata + v->offset + k * elem, &b, elem);
        }
        k++;
        wmi_lex_next(p);
    } while (depth > 0 && p->t.k != T_EOF);
    return 1;
}

int wmi_parse_var(parser *p, wmi_space sp, int is_extern)
{
    uint32_t align = 0, elem = 0;
    uint64_t count = 1;
    int unsized = 0;
    wmi_lex_next(p); /* the space word */
    if (!parse_var_quals(p, &align, &elem, &count))
        return 0;
    if (p->t.k != T_WORD || !elem)
        return wmi_parse_err(p, "expected a type and a variable name");
    tok name = p->t;
    wmi_lex_next(p);
    if (!parse_var_dims(p, &count, &unsized))
        return 0;
    if (!align)
        align = elem;
    if (!unsized && count > UINT64_MAX / elem)
        return wmi_parse_err(p, "array size overflows 64 bits");
    int ok;
    PUSH(p->m->vars, p->m->nvars, p->m->capvars, ok);
    if (!ok)
        return wmi_parse_nomem(p);
    wmi_var *v = &p->m->vars[p->m->nvars];
    memset(v, 0, sizeof *v);
    v->name = wmi_parse_dupn(p->s + name.off, name.len);
    if (!v->name)
        return wmi_parse_nomem(p);
    p->m->nvars++;
    if (!wmi_namemap_put(&p->vnames, v->name, name.len,
                         (uint32_t)(p->m->nvars - 1)))
        return wmi_parse_nomem(p);
    v->space = sp;
    v->func = p->f ? p->fidx : WMI_NOREG;
    v->size = unsized ? 0 : count * elem;
    v->align = align;
    v->is_extern = is_extern && sp == SP_SHARED && unsized;
    if (!place_var(p, v, name))
        return 0;
    if (wmi_lex_is_p(p, '=') && !parse_var_init(p, v, elem))
        return 0;
    return wmi_lex_expect_p(p, ';', "after the variable declaration");
}

/* The frame symbol (a .func parameter or a call-sequence .param) named
   s[0..n), the newest first; NULL if none. */
/* A frame symbol of the current function, or NULL. */
const struct fsym *wmi_parse_find_fsym(const parser *p, const char *s,
                                       size_t n)
{
    for (size_t i = p->nfsyms; i-- > 0;)
        if (p->fsyms[i].len == n && memcmp(p->fsyms[i].name, s, n) == 0)
            return &p->fsyms[i];
    return NULL;
}

/* ---- operands ------------------------------------------------------------ */

/* A register, literal or symbol operand ("-5", "%r1", "_", "0f3F800000"). */
static int parse_simple(parser *p, operand *o)
{
    int neg = 0;
    o->off = p->t.off;
    if (wmi_lex_is_p(p, '-')) {
        neg = 1;
        wmi_lex_next(p);
    }
    if (wmi_lex_is_p(p, '!')) /* !%p in a few boolean contexts: not modelled */
        return wmi_parse_err(p, "negated operand not supported here");
    if (p->t.k == T_NUM) {
        o->k = O_LIT;
        if (!wmi_lex_number(p, neg, &o->l))
            return 0;
    } else if (p->t.k == T_WORD) {
        const char *s = p->s + p->t.off;
        if (neg)
            return wmi_parse_err(p, "expected a number after '-'");
        if (p->t.len == 1 && s[0] == '_') {
            o->k = O_REG;
            o->slot = SLOT_SINK;
        } else if (s[0] == '%') {
            o->k = O_REG;
            o->slot = wmi_parse_find_reg(p, s, p->t.len);
            if (o->slot == WMI_NOREG) {
                /* %SP-style names may also be plain symbols; be strict */
                return wmi_parse_err(p, "undeclared register '%.*s'",
                                     (int)p->t.len, s);
            }
        } else {
            uint32_t r =
                wmi_parse_find_reg(p, s, p->t.len); /* inline-asm names */
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
        return wmi_parse_err(p, "expected an operand");
    }
    o->len = p->t.off + p->t.len - o->off;
    wmi_lex_next(p);
    return 1;
}

/* The "+ 4 - -8" offsets after the base of an address, added to o->addoff. */
static int parse_addr_offsets(parser *p, operand *o)
{
    while (wmi_lex_is_p(p, '+') || wmi_lex_is_p(p, '-')) {
        int neg = wmi_lex_is_p(p, '-');
        wmi_lex_next(p);
        int neg2 = 0;
        if (wmi_lex_is_p(p, '-')) {
            neg2 = 1;
            wmi_lex_next(p);
        }
        lit l;
        if (p->t.k != T_NUM || !wmi_lex_number(p, neg ^ neg2, &l) ||
            l.k != LIT_INT)
            return wmi_parse_err(p, "expected an offset in the address");
        o->addoff += (int64_t)l.bits;
        wmi_lex_next(p);
    }
    return 1;
}

/* The base of an address: a number alone, or a register or symbol with
   offsets. */
static int parse_addr_base(parser *p, operand *o)
{
    if (p->t.k == T_NUM || wmi_lex_is_p(p, '-')) {
        operand x = {0};
        if (!parse_simple(p, &x))
            return 0;
        o->addoff = (int64_t)x.l.bits;
        return 1;
    }
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
    return parse_addr_offsets(p, o);
}

/* After "[tensor_map,": the {x, y} coordinates when the parser keeps them,
   then everything up to the ']'. */
static int parse_tensor_coords(parser *p, operand *o)
{
    /* [tensor_map, {x, y}]: cp.async.bulk.tensor coordinates;
       such instructions are parsed, not executed */
    o->tensor = 1;
    wmi_lex_next(p);
    if (p->coords && wmi_lex_is_p(p, '{')) {
        operand v;
        if (!wmi_parse_operand(p, &v))
            return 0;
        memcpy(o->vec, v.vec, sizeof o->vec);
        memcpy(o->vlit, v.vlit, sizeof o->vlit);
        o->nvec = v.nvec;
        o->long_vec = v.long_vec;
    }
    while (!wmi_lex_is_p(p, ']') && p->t.k != T_EOF && !wmi_lex_is_p(p, ';'))
        wmi_lex_next(p);
    return 1;
}

/* '[' addr ']', the '[' current. */
static int parse_address(parser *p, operand *o)
{
    size_t open = p->t.off;
    wmi_lex_next(p);
    o->k = O_ADDR;
    o->slot = SLOT_ZERO;
    if (!parse_addr_base(p, o))
        return 0;
    if (wmi_lex_is_p(p, ',') && !parse_tensor_coords(p, o))
        return 0;
    if (!wmi_lex_is_p(p, ']')) {
        wm_diag_set(p->d, WM_ERR_PARSE, p->t.off, p->t.len ? p->t.len : 1,
                    "expected ']' to close the address (opened at "
                    "offset %zu)",
                    open);
        (void)open;
        return 0;
    }
    o->len = p->t.off + 1 - o->off;
    wmi_lex_next(p);
    return 1;
}

/* Element x of a vector or list joins o (a symbol's name kept for call
   lists; past the longest any instruction takes, only counted). */
static int add_list_element(parser *p, operand *o, const operand *x)
{
    if (x->k == O_SYM && o->nvec < 32) {
        o->lsoff[o->nvec] = x->soff;
        o->lslen[o->nvec] = x->slen;
    }
    if (o->nvec >= 16 && o->k == O_LIST && o->nvec < 32) {
        /* call lists: up to 32 names (counted below) */
    } else if (o->nvec >= WMI_MAX_VEC ||
               (o->nvec >= 16 && x->k == O_LIT)) {
        /* longer than any instruction takes: counted only
           (src_slot refuses it) */
        o->long_vec = 1;
        if (o->nvec < UINT32_MAX / 2)
            o->nvec++;
    } else if (x->k == O_REG)
        o->vec[o->nvec] = x->slot;
    else if (x->k == O_LIT) {
        o->vec[o->nvec] = WMI_NOREG;
        o->vlit[o->nvec] = x->l;
    } else if (o->k == O_VEC)
        return wmi_parse_err(p, "expected a register in the vector");
    if (!o->long_vec)
        o->nvec++;
    return 1;
}

/* '{' simple {, simple} '}' or '(' simple {, simple} ')', the opening
   bracket current. */
static int parse_list(parser *p, operand *o)
{
    char close = wmi_lex_is_p(p, '{') ? '}' : ')';
    o->k = close == '}' ? O_VEC : O_LIST;
    wmi_lex_next(p);
    while (!wmi_lex_is_p(p, close)) {
        operand x;
        memset(&x, 0, sizeof x);
        if (!parse_simple(p, &x))
            return 0;
        if (!add_list_element(p, o, &x))
            return 0;
        if (wmi_lex_is_p(p, ','))
            wmi_lex_next(p);
        else if (!wmi_lex_is_p(p, close))
            return wmi_parse_err(p, "expected ',' or '%c' in the list",
                                 close);
    }
    o->len = p->t.off + 1 - o->off;
    wmi_lex_next(p);
    return 1;
}

/* simple ['|' simple]: a register pair is two registers. */
static int parse_pair(parser *p, operand *o)
{
    if (!parse_simple(p, o))
        return 0;
    if (wmi_lex_is_p(p, '|')) {
        wmi_lex_next(p);
        operand x = {0};
        if (!parse_simple(p, &x))
            return 0;
        if (x.k != O_REG || o->k != O_REG)
            return wmi_parse_err(p, "expected registers around '|'");
        o->slot2 = x.slot;
        o->len = x.off + x.len - o->off;
    } else {
        o->slot2 = WMI_NOREG;
    }
    return 1;
}

/*
 * operand := simple ['|' simple] | '[' addr ']' | '{' simple {, simple} '}'
 *          | '(' simple {, simple} ')'
 * addr    := (reg | sym | number) [('+'|'-') number] | number
 * One helper per form of this grammar.
 */
int wmi_parse_operand(parser *p, operand *o)
{
    memset(o, 0, sizeof *o);
    o->off = p->t.off;
    if (wmi_lex_is_p(p, '['))
        return parse_address(p, o);
    if (wmi_lex_is_p(p, '{') || wmi_lex_is_p(p, '('))
        return parse_list(p, o);
    return parse_pair(p, o);
}

/* Address of a variable as seen by mov/cvta (its space's offset). */
static int sym_value(parser *p, const operand *o, size_t soff, size_t slen,
                     int64_t add, uint32_t *slot)
{
    long vi = wmi_parse_find_var(p, p->s + soff, slen);
    if (vi >= 0) {
        uint32_t cidx = 0;
        *slot = const_slot(p, 0, &cidx);
        int ok;
        PUSH(p->fixes, p->nfixes, p->capfixes, ok);
        if (!ok)
            return wmi_parse_nomem(p);
        p->fixes[p->nfixes].cidx = cidx;
        p->fixes[p->nfixes].var = (uint32_t)vi;
        p->fixes[p->nfixes].add = add;
        p->nfixes++;
        return 1;
    }
    const struct fsym *fs = wmi_parse_find_fsym(p, p->s + soff, slen);
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
                return wmi_parse_nomem(p);
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
int wmi_parse_src_slot(parser *p, const operand *o, wmi_type t, uint32_t *out)
{
    switch (o->k) {
    case O_REG: *out = o->slot; return 1;
    case O_LIT:
        if (!wmi_lit_fits(&o->l, t))
            return lit_range_error(p, o);
        *out = const_slot(p, wmi_lit_bits(&o->l, t), NULL);
        return !p->oom;
    case O_SYM: return sym_value(p, o, o->soff, o->slen, 0, out);
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
            return wmi_parse_nomem(p);
        m->cappool = cap;
        uint32_t at = (uint32_t)m->npool;
        m->pool[m->npool++] = o->nvec;
        for (unsigned i = 0; i < o->nvec; i++) {
            uint32_t s = o->vec[i];
            if (s == WMI_NOREG && !wmi_lit_fits(&o->vlit[i], t))
                return lit_range_error(p, o);
            if (s == WMI_NOREG)
                s = const_slot(p, wmi_lit_bits(&o->vlit[i], t), NULL);
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
int wmi_parse_addr_operand(parser *p, const operand *o, wmi_space sp,
                           uint32_t *base, int64_t *off) {
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
        const struct fsym *fs = wmi_parse_find_fsym(p, p->s + o->soff, o->slen);
        if (fs) { /* [param0], [func_retval0], [f_param_1+4] */
            *off += fs->off;
            p->frame_ref = 1;
            return 1;
        }
        long vi = wmi_parse_find_var(p, p->s + o->soff, o->slen);
        if (vi < 0) {
            for (uint32_t i = 0; i < p->f->nparams; i++)
                if (strlen(p->f->params[i].name) == o->slen &&
                    memcmp(p->f->params[i].name, p->s + o->soff, o->slen) ==
                        0) {
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
int wmi_parse_tex_address(parser *p, const operand *o, wmi_type ct,
                          uint32_t *handle, uint32_t *coords) {
    if (o->has_sym || o->slot == SLOT_ZERO || o->addoff || !o->nvec) {
        wm_diag_set(p->d, WM_ERR_PARSE, o->off, o->len ? o->len : 1,
                    "expected [handle, {coordinates}] with a register "
                    "holding a texture or surface object");
        return 0;
    }
    operand v = *o;
    v.k = O_VEC;
    *handle = o->slot;
    return wmi_parse_src_slot(p, &v, ct, coords);
}
