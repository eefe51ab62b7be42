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
 * bytes each), the others merge into it; an unrolled loop repeats an
 * offset, and its k-th access at +0 pairs with the k-th at +4.  A chain
 * whose size no SASS access of the line has, and smaller SASS accesses
 * do, splits: into the parts at the SASS offsets when every access of
 * the chain has the same ones (ptxas reads only the components used, a
 * float4's .x and .w as two 4-byte loads at +0 and +12), else into all
 * parts.  Lines where neither holds, or with no SASS access at all, are
 * unmapped and keep their PTX numbers, with the reason.  Two unmapped
 * lines with accesses from one base are tried once more as one line
 * (ptxas merges s[i] = y; s[i + 1] = x; into one STS.64 that it names by
 * the second line): kept when both then agree.
 *
 * A wmma.load / wmma.store is never mapped: its requests are those of the
 * modelled fragment layout (docs/design/wmma.md), which the SASS (LDSM,
 * LDS or LDG of other widths) need not share.  Its line is unmapped with
 * that reason and, as the opcode, the first SASS access of its op that
 * ptxas attributes to the instruction's innermost line (the mma.hpp
 * helper the wmma call inlines) or, failing that, to its own line.
 */
#include "ptx_int.h"

typedef struct ptx_acc {
    uint32_t insn;
    const char *file;
    uint32_t line;
    uint32_t grp; /* the line it is mapped with (its own, or a pair's) */
    int used;     /* merge_chain: already in a run */
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

/* Lines mapped as one: `from` with `to` (plan_kernel). */
typedef struct line_alias {
    const char *file;
    uint32_t from, to;
} line_alias;

#define MAX_ALIAS 16
typedef struct aliases {
    line_alias v[MAX_ALIAS];
    size_t n;
} aliases;

/* The line that file:line is mapped with. */
static uint32_t group_of(const aliases *al, const char *file, uint32_t line)
{
    for (size_t i = 0; i < al->n; i++)
        if (al->v[i].from == line && same_file(al->v[i].file, file))
            return al->v[i].to;
    return line;
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
        mp->opcode = "";
        mp->why = why;
    }
}

/* The first access of chain c not yet in a run at offset imm, or -1. */
static long chain_free_at(const ptx_acc *c, size_t n, int64_t imm)
{
    for (size_t i = 0; i < n; i++)
        if (!c[i].used && c[i].imm == imm)
            return (long)i;
    return -1;
}

/* Does line (of the group in ls) have a SASS access of width w? */
static int line_has_width(const line_sass *ls, uint32_t line, unsigned w)
{
    for (size_t i = 0; i < ls->n; i++)
        if (ls->v[i]->line == line && ls->v[i]->width == w)
            return 1;
    return 0;
}

/* Mark the run c[run[0..per)] merged at width w: its lead the first
   access on a line with SASS of that width (the run's first, unless the
   merge crosses lines). */
static void merge_run(wm_sass_plan *p, const line_sass *ls, ptx_acc *c,
                      const size_t *run, unsigned per, unsigned w,
                      const char *opcode)
{
    size_t lead = run[0];
    for (unsigned k = 0; k < per; k++)
        if (line_has_width(ls, c[run[k]].line, w)) {
            lead = run[k];
            break;
        }
    unsigned shift = (unsigned)(c[lead].imm - c[run[0]].imm);
    p->map[c[lead].insn] = (wm_sass_map){
        WM_SASS_LEAD, w, per, 0, c[lead].insn, opcode, "", 0, shift};
    for (unsigned k = 0; k < per; k++) {
        c[run[k]].used = 1;
        if (run[k] != lead)
            p->map[c[run[k]].insn] = (wm_sass_map){
                WM_SASS_MERGED, w, 0, 0, c[lead].insn, opcode, "", 0, 0};
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
    size_t run[16];
    for (size_t i = 0; i < n; i++)
        c[i].used = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].used)
            continue;
        int64_t ph = (((c[i].imm - start) % w) + w) % w;
        unsigned j = 1;
        run[0] = i;
        c[i].used = 1; /* not its own partner */
        for (; ph == 0 && j < per && j < 16; j++) {
            long k = chain_free_at(c, n, c[i].imm + (int64_t)j * c[0].size);
            if (k < 0)
                break;
            run[j] = (size_t)k;
        }
        if (ph == 0 && j == per) {
            merge_run(p, ls, c, run, per, w, opcode);
            continue;
        }
        if (sass_has_width(ls, c[i].size))
            p->map[c[i].insn].width = c[i].size;
        else
            set_unmapped(p, &c[i], 1, "no SASS access of its width or a "
                                      "merge of it on the line");
    }
}

/* The parts of width w that the SASS reads of each access of chain c:
   bit j for an access of width w at the chain offset + j * w; 0 when the
   accesses differ (then all parts are counted). */
static unsigned split_slots(const line_sass *ls, const ptx_acc *c, size_t n,
                            unsigned w)
{
    unsigned all = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned m = 0;
        for (unsigned j = 0; j < c[0].size / w && j < 32; j++)
            for (size_t k = 0; k < ls->n; k++)
                if (ls->v[k]->width == w &&
                    ls->v[k]->imm == c[i].imm + (int64_t)j * w)
                    m |= 1u << j;
        if (!m || (i && m != all))
            return 0;
        all = m;
    }
    return all;
}

static int by_imm(const void *x, const void *y)
{
    const ptx_acc *a = x, *b = y;
    if (a->imm != b->imm)
        return a->imm < b->imm ? -1 : 1;
    return a->insn < b->insn ? -1 : a->insn > b->insn; /* program order */
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
        unsigned slots = split_slots(ls, c, n, narrower);
        unsigned parts = slots ? (unsigned)__builtin_popcount(slots)
                               : size / narrower;
        for (size_t i = 0; i < n; i++)
            p->map[c[i].insn] = (wm_sass_map){
                WM_SASS_SPLIT, narrower, 0, parts, c[i].insn,
                opcode_of(ls, narrower), "", slots, 0};
        return;
    }
    set_unmapped(p, c, n, wider ? "wider SASS accesses that no run of the "
                                  "PTX offsets matches"
                                : "no SASS access of a matching width");
}

/* The SASS accesses of a's line group and op that fit its space, into
   ls. */
static void line_sass_of(const wm_sass *s, const char *fname, const ptx_acc *a,
                         const aliases *al, line_sass *ls)
{
    ls->n = 0;
    for (size_t i = 0; i < wm_sass_count(s); i++) {
        const wm_sass_mem *x = wm_sass_at(s, i);
        if (group_of(al, x->file, x->line) == a->grp && x->op == a->op &&
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
        out[n++] = (ptx_acc){i,    w.file, w.line, w.line, 0, base, imm,
                             esz * (in->vec ? in->vec : 1),
                             sass_space_of(in->space), op};
    }
    return n;
}

static int same_chain(const ptx_acc *a, const ptx_acc *b)
{
    return a->grp == b->grp && !strcmp(a->file, b->file) &&
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
            if (acc[k].grp == acc[i].grp &&
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

/* Line groups whose counts do not agree with the disassembly are
   unmapped. */
static void check_counts(wm_sass_plan *p, const wmi_func *f, const wm_sass *s,
                         const ptx_acc *acc, size_t n, const aliases *al,
                         line_sass *ls)
{
    for (size_t i = 0; i < n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = acc[j].grp != acc[i].grp ||
                    strcmp(acc[j].file, acc[i].file) != 0;
        if (!first)
            continue;
        ls->n = 0;
        for (size_t j = 0; j < wm_sass_count(s); j++) {
            const wm_sass_mem *x = wm_sass_at(s, j);
            if (group_of(al, x->file, x->line) == acc[i].grp &&
                same_file(x->file, acc[i].file) &&
                (!*x->func || !strcmp(x->func, f->name)))
                ls->v[ls->n++] = x;
        }
        if (line_agrees(p, ls, acc, n, i))
            continue;
        for (size_t j = i; j < n; j++)
            if (acc[j].grp == acc[i].grp && !strcmp(acc[j].file, acc[i].file))
                set_unmapped(p, &acc[j], 1,
                             "the line's SASS instruction counts differ "
                             "from the map's (removed, hoisted or moved "
                             "accesses)");
    }
}

typedef struct planner {
    wm_sass_plan *p;
    const wmi_func *f;
    const wm_sass *s;
    ptx_acc *acc, *chain;
    size_t n;
    uint8_t *done;
    line_sass ls;
    aliases al;
} planner;

/* Map every chain of the kernel with the line groups of P->al. */
static void plan_once(planner *P)
{
    ptx_acc *acc = P->acc;
    for (size_t i = 0; i < P->n; i++) {
        P->p->map[acc[i].insn] = (wm_sass_map){
            WM_SASS_SAME, 0, 0, 0, acc[i].insn, "", "", 0, 0};
        acc[i].grp = group_of(&P->al, acc[i].file, acc[i].line);
        P->done[i] = 0;
    }
    for (size_t i = 0; i < P->n; i++) {
        if (P->done[i])
            continue;
        size_t nc = 0;
        for (size_t j = i; j < P->n; j++)
            if (!P->done[j] && same_chain(&acc[i], &acc[j])) {
                P->chain[nc++] = acc[j];
                P->done[j] = 1;
            }
        line_sass_of(P->s, P->f->name, &acc[i], &P->al, &P->ls);
        map_chain(P->p, &P->ls, P->chain, nc);
    }
    check_counts(P->p, P->f, P->s, acc, P->n, &P->al, &P->ls);
}

static int is_unmapped(const planner *P, const ptx_acc *a)
{
    return P->p->map[a->insn].kind == WM_SASS_UNMAPPED;
}

/* Does file:line have an unmapped access? */
static int line_unmapped(const planner *P, const char *file, uint32_t line)
{
    for (size_t i = 0; i < P->n; i++)
        if (P->acc[i].line == line && !strcmp(P->acc[i].file, file) &&
            is_unmapped(P, &P->acc[i]))
            return 1;
    return 0;
}

static int aliased(const aliases *al, const char *file, uint32_t line)
{
    for (size_t i = 0; i < al->n; i++)
        if ((al->v[i].from == line || al->v[i].to == line) &&
            same_file(al->v[i].file, file))
            return 1;
    return 0;
}

/* Has a's or b's line a SASS access of a's op and space wider than a's
   size (a merge of theirs)? */
static int pair_widens(const planner *P, const ptx_acc *a, const ptx_acc *b)
{
    for (size_t i = 0; i < wm_sass_count(P->s); i++) {
        const wm_sass_mem *x = wm_sass_at(P->s, i);
        if ((x->line == a->line || x->line == b->line) && x->op == a->op &&
            x->width > a->size && x->width % a->size == 0 &&
            space_fits(a->space, x->space) && same_file(x->file, a->file) &&
            (!*x->func || !strcmp(x->func, P->f->name)))
            return 1;
    }
    return 0;
}

/* Could a and b (unmapped, of two lines) be one chain of a merge across
   the lines? */
static int pair_candidate(const planner *P, const ptx_acc *a, const ptx_acc *b)
{
    return a->line != b->line && !strcmp(a->file, b->file) &&
           a->base == b->base && a->size == b->size && a->space == b->space &&
           a->op == b->op && is_unmapped(P, b) &&
           !aliased(&P->al, b->file, b->line) && pair_widens(P, a, b);
}

/* Unmapped lines paired with another line of the same base: the pair is
   kept where both lines then agree with the disassembly. */
static void pair_lines(planner *P)
{
    unsigned tries = 0;
    for (size_t i = 0; i < P->n; i++) {
        const ptx_acc *a = &P->acc[i];
        if (!is_unmapped(P, a) || aliased(&P->al, a->file, a->line))
            continue;
        for (size_t j = i + 1; j < P->n; j++) {
            const ptx_acc *b = &P->acc[j];
            if (!pair_candidate(P, a, b))
                continue;
            if (P->al.n == MAX_ALIAS || tries++ == 32)
                return;
            P->al.v[P->al.n++] = (line_alias){a->file, b->line, a->line};
            plan_once(P);
            if (!line_unmapped(P, a->file, a->line) &&
                !line_unmapped(P, b->file, b->line))
                break;
            P->al.n--;
            plan_once(P);
        }
    }
}

/* The first SASS access of f with op at file:line (a load: also LDSM),
   or NULL. */
static const wm_sass_mem *sass_at(const wm_sass *s, const wmi_func *f,
                                  const char *file, uint32_t line, wm_op op)
{
    for (size_t i = 0; line && i < wm_sass_count(s); i++) {
        const wm_sass_mem *x = wm_sass_at(s, i);
        int op_ok = x->op == op || (op == WM_OP_LD && x->op == WM_OP_LDSM);
        if (x->line == line && op_ok && same_file(x->file, file) &&
            (!*x->func || !strcmp(x->func, f->name)))
            return x;
    }
    return NULL;
}

/* f's wmma loads and stores, appended to acc[0..n) as unmapped accesses
   (the comment at the top); the new count. */
static size_t add_wmma(wm_sass_plan *p, const wmi_func *f, const wm_sass *s,
                       ptx_acc *acc, size_t n)
{
    const wm_ptx_module *m = p->m;
    for (uint32_t i = f->first; i < f->first + f->count; i++) {
        const wmi_insn *in = &m->code[i];
        wm_ptx_where w;
        if ((in->op != OP_WMMA_LOAD && in->op != OP_WMMA_STORE) ||
            !wm_ptx_where_insn(m, i, &w) || !w.line)
            continue;
        wm_op op = in->op == OP_WMMA_LOAD ? WM_OP_LD : WM_OP_ST;
        acc[n] = (ptx_acc){i, w.file, w.line, w.line, 0, in->a, in->imm,
                           wmi_ptx_wmma_piece(in), sass_space_of(in->space),
                           op};
        set_unmapped(p, &acc[n], 1,
                     "a wmma fragment, counted by the modelled layout "
                     "(docs/design/wmma.md)");
        const wm_sass_mem *x = sass_at(s, f, w.inl_file, w.inl_line, op);
        if (!x)
            x = sass_at(s, f, w.file, w.line, op);
        p->map[i].opcode = x ? x->opcode : "";
        n++;
    }
    return n;
}

static wm_status plan_kernel(wm_sass_plan *p, const wmi_func *f,
                             const wm_sass *s)
{
    planner P = {p, f, s, malloc((f->count + 1) * sizeof(ptx_acc)),
                 malloc((f->count + 1) * sizeof(ptx_acc)), 0,
                 calloc(f->count + 1, 1),
                 {malloc((wm_sass_count(s) + 1) * sizeof(const wm_sass_mem *)), 0},
                 {.n = 0}};
    wm_status st = WM_ERR_NOMEM;
    if (P.acc && P.chain && P.ls.v && P.done) {
        P.n = collect(p->m, f, P.acc);
        plan_once(&P);
        pair_lines(&P);
        P.n = add_wmma(p, f, s, P.acc, P.n);
        summarise(p, P.acc, P.n);
        st = WM_OK;
    }
    free(P.acc), free(P.chain), free(P.ls.v), free(P.done);
    return st;
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
        p->map[i] = (wm_sass_map){WM_SASS_SAME, 0, 0, 0, i, "", "", 0, 0};
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
        return (wm_sass_map){WM_SASS_SAME, 0, 0, 0, insn, "", "", 0, 0};
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
