/*
 * sass_map.c -- kernel k's PTX memory instructions mapped onto the SASS
 * ones of the same source line (wm_sass_plan_new; docs/model.md, "SASS
 * level").
 *
 * Per source line and op, the PTX accesses form chains: one address
 * register, one space, one size, several immediate offsets (an unrolled
 * loop's As[ty][k], k = 0..15, is one chain at +0, +4, ... +60).  The
 * SASS accesses of the line form groups by address register.  A chain
 * merges at width w when a group's accesses of width w > size each cover
 * w/size consecutive chain accesses, the first at the SASS offset minus
 * one shift d for the whole group (d = 0 preferred: ptxas keeps the
 * offsets of the PTX when it keeps the base).  The run of a chain
 * starting at the covered offset is the lead (its lanes' addresses, w
 * bytes each), the others merge into it.  A chain whose size no SASS
 * access of the line has, and smaller SASS accesses do, splits.  Lines
 * where neither holds, or with no SASS access at all, are unmapped and
 * keep their PTX numbers, with the reason.
 */
#include "ptx_int.h"

typedef struct ptx_acc {
    uint32_t insn;
    const char *file;
    uint32_t line;
    uint32_t base; /* address slot */
    int64_t imm;
    unsigned size;
    wm_sass_space space; /* WM_SASS_GENERIC for a generic ld/st */
    wm_op op;
} ptx_acc;

struct wm_sass_plan {
    const wm_ptx_module *m;
    wm_sass_map *map; /* per module instruction */
    size_t n;
    wm_sass_summary sum;
};

static wm_sass_space sass_space_of(uint8_t sp)
{
    return sp == SP_GLOBAL ? WM_SASS_GLOBAL
           : sp == SP_SHARED ? WM_SASS_SHARED
           : sp == SP_LOCAL  ? WM_SASS_LOCAL
                             : WM_SASS_GENERIC;
}

/* Is in a counted memory access?  Its op into *op. */
static int ptx_mem_op(const wmi_insn *in, wm_op *op)
{
    if (in->space == SP_PARAM || in->space == SP_CONST ||
        in->space == SP_FRAME)
        return 0;
    if (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM ||
        in->op == OP_RED) {
        *op = in->op == OP_LD ? WM_OP_LD
              : in->op == OP_ST ? WM_OP_ST : WM_OP_ATOM;
        return 1;
    }
    return 0;
}

/* The file names of PTX and SASS agree up to the directory. */
static int same_file(const char *a, const char *b)
{
    const char *x = strrchr(a, '/'), *y = strrchr(b, '/');
    return strcmp(x ? x + 1 : a, y ? y + 1 : b) == 0;
}

/* A SASS access can run a PTX access of space p when the spaces agree or
   the PTX is generic (ptxas resolves a proven space). */
static int space_fits(wm_sass_space p, wm_sass_space s)
{
    return p == s || p == WM_SASS_GENERIC;
}

/* The SASS accesses of one line and op whose space fits. */
typedef struct line_sass {
    const wm_sass_mem **v;
    size_t n;
} line_sass;

static int sass_has_width(const line_sass *ls, unsigned w)
{
    for (size_t i = 0; i < ls->n; i++)
        if (ls->v[i]->width == w)
            return 1;
    return 0;
}

/* The chain's access at offset imm, or -1. */
static long chain_at(const ptx_acc *c, size_t n, int64_t imm)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].imm == imm)
            return (long)i;
    return -1;
}

/*
 * Does every access of width w of the SASS group `base` cover w/size
 * chain accesses starting at its offset - d?  The number covered, 0 if
 * one does not fit.
 */
static size_t group_fits(const line_sass *ls, const char *base, unsigned w,
                         const ptx_acc *c, size_t n, int64_t d)
{
    size_t hits = 0;
    for (size_t i = 0; i < ls->n; i++) {
        const wm_sass_mem *s = ls->v[i];
        if (s->width != w || strcmp(s->base, base) != 0)
            continue;
        for (unsigned j = 0; j < w / c[0].size; j++)
            if (chain_at(c, n, s->imm - d + (int64_t)j * c[0].size) < 0)
                return 0;
        hits++;
    }
    return hits;
}

/* A chain offset that starts a run of a merge of chain c at width w:
   with shift d = 0 when that fits, else with the shifts that fit (their
   phase mod w unique).  *ok = 0 when none fits or phases differ. */
static int64_t merge_shift(const line_sass *ls, unsigned w, const ptx_acc *c,
                           size_t n, int *ok)
{
    *ok = 0;
    int64_t found = 0;
    for (size_t i = 0; i < ls->n; i++) {
        const wm_sass_mem *s = ls->v[i];
        if (s->width != w)
            continue;
        if (group_fits(ls, s->base, w, c, n, 0)) {
            *ok = 1;
            return s->imm; /* the SASS offset is the run's first PTX one */
        }
        for (size_t j = 0; j < n; j++) {
            int64_t d = s->imm - c[j].imm;
            if (!group_fits(ls, s->base, w, c, n, d))
                continue;
            int64_t ph = ((c[j].imm % w) + w) % w;
            if (*ok && ((found % w) + w) % w != ph)
                return *ok = 0, 0; /* two phases: ambiguous */
            *ok = 1;
            found = c[j].imm;
        }
    }
    return *ok ? found : 0; /* a chain offset that starts a merged run */
}

static void set_unmapped(wm_sass_plan *p, const ptx_acc *c, size_t n,
                         const char *why)
{
    for (size_t i = 0; i < n; i++) {
        wm_sass_map *mp = &p->map[c[i].insn];
        mp->kind = WM_SASS_UNMAPPED;
        mp->width = c[i].size;
        mp->why = why;
    }
}

/* Merge chain c (sorted by offset) at width w, runs starting at offsets
   congruent to start mod w; accesses outside a full run stay as they
   are when the line has SASS of their width, else are unmapped. */
static void merge_chain(wm_sass_plan *p, const line_sass *ls, ptx_acc *c,
                        size_t n, unsigned w, int64_t start,
                        const char *opcode)
{
    unsigned per = w / c[0].size;
    for (size_t i = 0; i < n;) {
        int64_t ph = (((c[i].imm - start) % w) + w) % w;
        size_t j = 1;
        while (ph == 0 && j < per && i + j < n &&
               c[i + j].imm == c[i].imm + (int64_t)j * c[0].size)
            j++;
        if (ph == 0 && j == per) {
            wm_sass_map *lead = &p->map[c[i].insn];
            *lead = (wm_sass_map){WM_SASS_LEAD, w, per, 0, c[i].insn, opcode,
                                  ""};
            for (size_t k = 1; k < per; k++)
                p->map[c[i + k].insn] = (wm_sass_map){
                    WM_SASS_MERGED, w, 0, 0, c[i].insn, opcode, ""};
            i += per;
            continue;
        }
        if (sass_has_width(ls, c[i].size))
            p->map[c[i].insn].width = c[i].size;
        else
            set_unmapped(p, &c[i], 1, "no SASS access of its width or a "
                                      "merge of it on the line");
        i++;
    }
}

static int by_imm(const void *x, const void *y)
{
    const ptx_acc *a = x, *b = y;
    return a->imm < b->imm ? -1 : a->imm > b->imm;
}

/* A SASS opcode of width w in ls ("" if none). */
static const char *opcode_of(const line_sass *ls, unsigned w)
{
    for (size_t i = 0; i < ls->n; i++)
        if (ls->v[i]->width == w)
            return ls->v[i]->opcode;
    return "";
}

/* One chain (accesses of one base, space, size, op on one line). */
static void map_chain(wm_sass_plan *p, const line_sass *ls, ptx_acc *c,
                      size_t n)
{
    qsort(c, n, sizeof *c, by_imm);
    unsigned size = c[0].size, wider = 0, narrower = 0;
    if (!ls->n) {
        set_unmapped(p, c, n, "no SASS memory access on the line (removed, "
                              "or attributed to another line)");
        return;
    }
    for (size_t i = 0; i < ls->n; i++) {
        unsigned w = ls->v[i]->width;
        if (w > size && w % size == 0 && w > wider)
            wider = w;
        if (w < size && w > narrower)
            narrower = w;
    }
    for (unsigned w = wider; w > size; w /= 2) {
        int ok;
        int64_t start = merge_shift(ls, w, c, n, &ok);
        if (ok) {
            merge_chain(p, ls, c, n, w, start, opcode_of(ls, w));
            return;
        }
    }
    if (sass_has_width(ls, size)) {
        for (size_t i = 0; i < n; i++) {
            wm_sass_map *mp = &p->map[c[i].insn];
            mp->width = size;
            mp->opcode = opcode_of(ls, size);
        }
        return;
    }
    if (narrower && size % narrower == 0) {
        for (size_t i = 0; i < n; i++)
            p->map[c[i].insn] = (wm_sass_map){
                WM_SASS_SPLIT, narrower, 0, size / narrower, c[i].insn,
                opcode_of(ls, narrower), ""};
        return;
    }
    set_unmapped(p, c, n, wider ? "wider SASS accesses that no run of the "
                                  "PTX offsets matches"
                                : "no SASS access of a matching width");
}

/* The SASS accesses of file:line and op that fit space sp, into ls. */
static void line_sass_of(const wm_sass *s, const char *fname, const ptx_acc *a,
                         line_sass *ls)
{
    ls->n = 0;
    for (size_t i = 0; i < wm_sass_count(s); i++) {
        const wm_sass_mem *x = wm_sass_at(s, i);
        if (x->line == a->line && x->op == a->op &&
            space_fits(a->space, x->space) && same_file(x->file, a->file) &&
            (!*x->func || strcmp(x->func, fname) == 0))
            ls->v[ls->n++] = x;
    }
}

/* The PTX memory accesses of f with a source line, into *out. */
static size_t collect(const wm_ptx_module *m, const wmi_func *f,
                      ptx_acc *out)
{
    size_t n = 0;
    for (uint32_t i = f->first; i < f->first + f->count; i++) {
        const wmi_insn *in = &m->code[i];
        wm_op op;
        wm_ptx_where w;
        if (!ptx_mem_op(in, &op) || !wm_ptx_where_insn(m, i, &w) || !w.line)
            continue;
        uint32_t base = in->a;
        int64_t imm = in->imm;
        for (uint32_t c = 0; c < f->nconsts; c++)
            if (f->cslots[c] == in->a) { /* [symbol+off]: one chain */
                base = UINT32_MAX;
                imm += (int64_t)f->cvals[c];
            }
        unsigned bits = wmi_type_bits((wmi_type)in->type);
        unsigned esz = bits < 8 ? 1 : bits / 8;
        out[n++] = (ptx_acc){i, w.file, w.line, base, imm,
                             esz * (in->vec ? in->vec : 1),
                             sass_space_of(in->space), op};
    }
    return n;
}

static int same_chain(const ptx_acc *a, const ptx_acc *b)
{
    return a->line == b->line && !strcmp(a->file, b->file) &&
           a->base == b->base && a->size == b->size &&
           a->space == b->space && a->op == b->op;
}

static void summarise(wm_sass_plan *p, const ptx_acc *acc, size_t n)
{
    memset(&p->sum, 0, sizeof p->sum);
    for (size_t i = 0; i < n; i++) {
        int first = 1, merged = 0, split = 0, unmapped = 0;
        for (size_t j = 0; j < n; j++) {
            if (acc[j].line != acc[i].line || strcmp(acc[j].file, acc[i].file))
                continue;
            first &= j >= i;
            wm_sass_kind k = p->map[acc[j].insn].kind;
            merged |= k == WM_SASS_LEAD;
            split |= k == WM_SASS_SPLIT;
            unmapped |= k == WM_SASS_UNMAPPED;
        }
        if (!first)
            continue;
        p->sum.lines++;
        p->sum.merged += (size_t)merged;
        p->sum.split += (size_t)split;
        p->sum.unmapped += (size_t)unmapped;
    }
    for (size_t i = 0; i < n; i++)
        p->sum.insns_merged += p->map[acc[i].insn].kind == WM_SASS_MERGED;
}

/* SASS instructions the map predicts for access a: a lead's or an
   unchanged access's one, a split's parts, none for a merged one. */
static size_t predicted(const wm_sass_map *mp)
{
    return mp->kind == WM_SASS_SPLIT ? mp->parts
           : mp->kind == WM_SASS_MERGED ? 0 : 1;
}

/* Does the line of acc[i] agree with the disassembly: for every SASS
   opcode of the line (of the function; ls holds them), its count a whole
   multiple c of the predicted count, the same c for all (ptxas unrolls or
   duplicates loop bodies; the count per execution is the same)? */
static int line_agrees(const wm_sass_plan *p, const line_sass *ls,
                       const ptx_acc *acc, size_t n, size_t i)
{
    size_t mult = 0;
    for (size_t j = 0; j < ls->n; j++) {
        const char *opc = ls->v[j]->opcode;
        size_t have = 0, want = 0;
        for (size_t k = 0; k < ls->n; k++)
            have += !strcmp(ls->v[k]->opcode, opc);
        for (size_t k = i; k < n; k++) {
            const wm_sass_map *mp = &p->map[acc[k].insn];
            if (acc[k].line == acc[i].line &&
                !strcmp(acc[k].file, acc[i].file) &&
                mp->kind != WM_SASS_UNMAPPED && !strcmp(mp->opcode, opc))
                want += predicted(mp);
        }
        if (!want || have % want || (mult && have / want != mult))
            return 0;
        mult = have / want;
    }
    return 1;
}

/* Lines whose counts do not agree with the disassembly are unmapped. */
static void check_counts(wm_sass_plan *p, const wmi_func *f, const wm_sass *s,
                         const ptx_acc *acc, size_t n, line_sass *ls)
{
    for (size_t i = 0; i < n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = acc[j].line != acc[i].line ||
                    strcmp(acc[j].file, acc[i].file) != 0;
        if (!first)
            continue;
        ls->n = 0;
        for (size_t j = 0; j < wm_sass_count(s); j++) {
            const wm_sass_mem *x = wm_sass_at(s, j);
            if (x->line == acc[i].line && same_file(x->file, acc[i].file) &&
                (!*x->func || !strcmp(x->func, f->name)))
                ls->v[ls->n++] = x;
        }
        if (line_agrees(p, ls, acc, n, i))
            continue;
        for (size_t j = i; j < n; j++)
            if (acc[j].line == acc[i].line && !strcmp(acc[j].file, acc[i].file))
                set_unmapped(p, &acc[j], 1,
                             "the line's SASS instruction counts differ "
                             "from the map's (removed, hoisted or moved "
                             "accesses)");
    }
}

static wm_status plan_kernel(wm_sass_plan *p, const wmi_func *f,
                             const wm_sass *s)
{
    ptx_acc *acc = malloc((f->count + 1) * sizeof *acc);
    ptx_acc *chain = malloc((f->count + 1) * sizeof *chain);
    line_sass ls = {malloc((wm_sass_count(s) + 1) * sizeof *ls.v), 0};
    uint8_t *done = calloc(f->count + 1, 1);
    if (!acc || !chain || !ls.v || !done) {
        free(acc), free(chain), free(ls.v), free(done);
        return WM_ERR_NOMEM;
    }
    size_t n = collect(p->m, f, acc);
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t nc = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && same_chain(&acc[i], &acc[j])) {
                chain[nc++] = acc[j];
                done[j] = 1;
            }
        line_sass_of(s, f->name, &acc[i], &ls);
        map_chain(p, &ls, chain, nc);
    }
    check_counts(p, f, s, acc, n, &ls);
    summarise(p, acc, n);
    free(acc), free(chain), free(ls.v), free(done);
    return WM_OK;
}

wm_status wm_sass_plan_new(const wm_ptx_module *m, size_t k, const wm_sass *s,
                           wm_sass_plan **out)
{
    *out = NULL;
    const wmi_func *f = m && s ? wmi_ptx_kernel(m, k) : NULL;
    if (!f)
        return WM_ERR_ARG;
    wm_sass_plan *p = calloc(1, sizeof *p);
    if (!p)
        return WM_ERR_NOMEM;
    p->m = m;
    p->n = m->ncode;
    p->map = calloc(p->n + 1, sizeof *p->map);
    if (!p->map) {
        free(p);
        return WM_ERR_NOMEM;
    }
    for (size_t i = 0; i < p->n; i++)
        p->map[i] = (wm_sass_map){WM_SASS_SAME, 0, 0, 0, i, "", ""};
    wm_status st = plan_kernel(p, f, s);
    if (st != WM_OK) {
        wm_sass_plan_free(p);
        return st;
    }
    *out = p;
    return WM_OK;
}

void wm_sass_plan_free(wm_sass_plan *p)
{
    if (!p)
        return;
    free(p->map);
    free(p);
}

wm_sass_map wm_sass_plan_insn(const wm_sass_plan *p, size_t insn)
{
    if (!p || insn >= p->n)
        return (wm_sass_map){WM_SASS_SAME, 0, 0, 0, insn, "", ""};
    return p->map[insn];
}

const wm_sass_map *wmi_sass_plan_at(const wm_sass_plan *p, uint32_t insn)
{
    return insn < p->n ? &p->map[insn] : NULL;
}

void wm_sass_plan_summary(const wm_sass_plan *p, wm_sass_summary *out)
{
    if (p)
        *out = p->sum;
    else
        memset(out, 0, sizeof *out);
}
