/*
 * sass_parse.c -- the memory instructions of `nvdisasm -gi -c` output
 * (wm_sass_parse): per instruction its function, source line (the
 * preceding "//## File" comment; for inlined code the chain's first, the
 * callee's line, and its last, the outermost call site), opcode, space,
 * op, width, address
 * register, immediate offset and guard.  Strings live in one pool that
 * the instructions index until the parse ends, then point into.
 */
#include "wm_int.h"

#include <ctype.h>

typedef struct raw_mem {
    wm_sass_mem m;
    size_t func, file, cfile, opcode, base, pred; /* pool offsets */
} raw_mem;

/* Where the next instructions come from: the line info's own file and
   line, and the outermost call site of an inlined chain (the same when
   nothing is inlined); pool offsets. */
typedef struct srcpos {
    size_t file, cfile;
    uint32_t line, cline;
    int chain; /* the last comment said "inlined at": the next is a caller */
} srcpos;

struct wm_sass {
    raw_mem *v;
    size_t n, cap;
    char *pool;
    size_t npool, cappool;
};

/* The memory opcodes, by base mnemonic (the text before the first '.'). */
static const struct {
    const char *name;
    wm_sass_space space;
    wm_op op;
} opcodes[] = {
    {"LDG", WM_SASS_GLOBAL, WM_OP_LD},     {"STG", WM_SASS_GLOBAL, WM_OP_ST},
    {"LDS", WM_SASS_SHARED, WM_OP_LD},     {"STS", WM_SASS_SHARED, WM_OP_ST},
    {"LDL", WM_SASS_LOCAL, WM_OP_LD},      {"STL", WM_SASS_LOCAL, WM_OP_ST},
    {"LD", WM_SASS_GENERIC, WM_OP_LD},     {"ST", WM_SASS_GENERIC, WM_OP_ST},
    {"ATOMG", WM_SASS_GLOBAL, WM_OP_ATOM}, {"ATOMS", WM_SASS_SHARED, WM_OP_ATOM},
    {"ATOM", WM_SASS_GENERIC, WM_OP_ATOM}, {"RED", WM_SASS_GLOBAL, WM_OP_ATOM},
    {"REDG", WM_SASS_GLOBAL, WM_OP_ATOM},  {"LDSM", WM_SASS_SHARED, WM_OP_LDSM},
    {"LDGSTS", WM_SASS_GLOBAL, WM_OP_LDGSTS},
};

const char *wm_sass_space_name(wm_sass_space sp)
{
    static const char *const names[] = {"global", "shared", "local",
                                        "generic"};
    return (unsigned)sp < WM_SASS_NSPACES ? names[sp] : "?";
}

/* s[0..n) into the pool (NUL-terminated); its offset, or SIZE_MAX on OOM. */
static size_t pool_add(wm_sass *s, const char *p, size_t n)
{
    if (s->npool + n + 1 > s->cappool) {
        size_t cap = s->cappool ? s->cappool : 4096;
        while (cap < s->npool + n + 1)
            cap *= 2;
        char *q = realloc(s->pool, cap);
        if (!q)
            return SIZE_MAX;
        s->pool = q;
        s->cappool = cap;
    }
    size_t at = s->npool;
    memcpy(s->pool + at, p, n);
    s->pool[at + n] = '\0';
    s->npool += n + 1;
    return at;
}

/* Bytes per lane from the opcode's modifiers (".U8", ".64", ".128" ...). */
static unsigned width_of(const char *opc, size_t n)
{
    unsigned w = 4;
    for (size_t i = 0; i < n; i++) {
        if (opc[i] != '.')
            continue;
        const char *t = opc + i + 1;
        size_t k = 0;
        while (i + 1 + k < n && opc[i + 1 + k] != '.')
            k++;
        if ((k == 2 && (!memcmp(t, "U8", 2) || !memcmp(t, "S8", 2))))
            w = 1;
        else if (k == 3 && (!memcmp(t, "U16", 3) || !memcmp(t, "S16", 3)))
            w = 2;
        else if (k == 2 && !memcmp(t, "64", 2))
            w = 8;
        else if (k == 3 && !memcmp(t, "128", 3))
            w = 16;
    }
    return w;
}

/* Is p[0..n) a register name (R12, RZ; not UR4)? */
static int is_reg(const char *p, size_t n)
{
    return n >= 2 && p[0] == 'R' && (p[1] == 'Z' || isdigit((unsigned char)p[1]));
}

/* The address in the bracket [lo, hi): register (with suffix) and
   immediate.  0 when a term is neither a register nor a number. */
static int parse_addr(const char *lo, const char *hi, const char **base,
                      size_t *nbase, int64_t *imm)
{
    *base = lo;
    *nbase = 0;
    *imm = 0;
    const char *p = lo;
    while (p < hi) {
        const char *e = p;
        while (e < hi && *e != '+')
            e++;
        while (p < e && *p == ' ')
            p++;
        size_t k = (size_t)(e - p);
        while (k && p[k - 1] == ' ')
            k--;
        if (is_reg(p, k) || (k >= 3 && p[0] == 'U' && p[1] == 'R')) {
            if (!*nbase || ((*base)[0] == 'U' && is_reg(p, k))) {
                *base = p;
                *nbase = k;
            }
        } else if (k) {
            char buf[32];
            if (k >= sizeof buf)
                return 0;
            memcpy(buf, p, k);
            buf[k] = '\0';
            char *end;
            long long v = strtoll(buf, &end, 0);
            if (*end)
                return 0;
            *imm += v;
        }
        p = e + 1;
    }
    return 1;
}

/* The first address bracket of the operands [p, e) (a desc[...] bracket
   names the memory descriptor, not the address). */
static int find_bracket(const char *p, const char *e, const char **lo,
                        const char **hi)
{
    for (const char *q = p; q < e; q++) {
        if (*q != '[')
            continue;
        const char *c = memchr(q, ']', (size_t)(e - q));
        if (!c)
            return 0;
        if (q - p >= 4 && !memcmp(q - 4, "desc", 4)) {
            q = c;
            continue;
        }
        *lo = q + 1;
        *hi = c;
        return 1;
    }
    return 0;
}

static wm_status parse_fail(wm_diag *d, const char *text, const char *at,
                            const char *msg)
{
    return wm_diag_set(d, WM_ERR_PARSE, (size_t)(at - text), 0, "%s", msg);
}

/* One instruction line [p, e) (after the address comment). */
static wm_status parse_insn(wm_sass *s, const char *text, const char *p,
                            const char *e, uint32_t offset, size_t func,
                            const srcpos *at, wm_diag *d)
{
    while (p < e && isspace((unsigned char)*p))
        p++;
    const char *pred = p;
    size_t npred = 0;
    if (p < e && *p == '@') {
        while (p < e && !isspace((unsigned char)*p))
            p++;
        npred = (size_t)(p - pred);
        while (p < e && isspace((unsigned char)*p))
            p++;
    }
    const char *opc = p;
    while (p < e && !isspace((unsigned char)*p) && *p != ';')
        p++;
    size_t nopc = (size_t)(p - opc), nbase_name = 0;
    while (nbase_name < nopc && opc[nbase_name] != '.')
        nbase_name++;
    size_t which = WM_ARRAY_LEN(opcodes);
    for (size_t i = 0; i < WM_ARRAY_LEN(opcodes); i++)
        if (strlen(opcodes[i].name) == nbase_name &&
            !memcmp(opcodes[i].name, opc, nbase_name))
            which = i;
    if (which == WM_ARRAY_LEN(opcodes))
        return WM_OK;
    const char *lo, *hi, *base;
    size_t nbase;
    raw_mem r;
    memset(&r, 0, sizeof r);
    if (!find_bracket(p, e, &lo, &hi) ||
        !parse_addr(lo, hi, &base, &nbase, &r.m.imm))
        return parse_fail(d, text, opc, "memory instruction without a "
                                        "readable [address]");
    r.m.space = opcodes[which].space;
    r.m.op = opcodes[which].op;
    r.m.width = r.m.op == WM_OP_LDSM ? 16 : width_of(opc, nopc);
    r.m.line = at->line;
    r.m.call_line = at->cline;
    r.m.offset = offset;
    r.func = func;
    r.file = at->file;
    r.cfile = at->cfile;
    r.opcode = pool_add(s, opc, nopc);
    r.base = pool_add(s, base, nbase);
    r.pred = pool_add(s, pred, npred);
    if (r.opcode == SIZE_MAX || r.base == SIZE_MAX || r.pred == SIZE_MAX)
        return WM_ERR_NOMEM;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        raw_mem *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return WM_ERR_NOMEM;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = r;
    return WM_OK;
}

/* "//## File "path", line N" at p: file and line, and in *inl whether
   "inlined at" follows (nvdisasm -gi: the caller's line comes next); 0 if
   not that form. */
static int parse_file_comment(wm_sass *s, const char *p, const char *e,
                              size_t *file, uint32_t *line, int *inl)
{
    static const char tag[] = "//## File \"";
    size_t nt = sizeof tag - 1;
    if ((size_t)(e - p) < nt || memcmp(p, tag, nt))
        return 0;
    const char *f = p + nt, *q = memchr(f, '"', (size_t)(e - f));
    if (!q)
        return 0;
    const char *l = q;
    static const char ltag[] = "line ";
    while (l < e && (size_t)(e - l) >= 5 && memcmp(l, ltag, 5))
        l++;
    if ((size_t)(e - l) < 5)
        return 0;
    char *after;
    *line = (uint32_t)strtoul(l + 5, &after, 10);
    static const char itag[] = " inlined at ";
    *inl = (size_t)(e - after) >= sizeof itag - 1 &&
           !memcmp(after, itag, sizeof itag - 1);
    *file = pool_add(s, f, (size_t)(q - f));
    return 1;
}

/* ".section .text.NAME," at p: the function name's pool offset. */
static int parse_section(wm_sass *s, const char *p, const char *e,
                         size_t *func)
{
    static const char tag[] = ".section";
    if ((size_t)(e - p) < 8 || memcmp(p, tag, 8))
        return 0;
    const char *q = p + 8;
    while (q < e && isspace((unsigned char)*q))
        q++;
    if ((size_t)(e - q) < 6 || memcmp(q, ".text.", 6))
        return 0;
    q += 6;
    const char *c = q;
    while (c < e && *c != ',' && !isspace((unsigned char)*c))
        c++;
    *func = pool_add(s, q, (size_t)(c - q));
    return 1;
}

static void finish(wm_sass *s)
{
    for (size_t i = 0; i < s->n; i++) {
        raw_mem *r = &s->v[i];
        r->m.func = s->pool + r->func;
        r->m.file = s->pool + r->file;
        r->m.call_file = s->pool + r->cfile;
        r->m.opcode = s->pool + r->opcode;
        r->m.base = s->pool + r->base;
        r->m.pred = s->pool + r->pred;
    }
}

/* A "//## File" comment's file and line at into *at: the line info's own
   unless it continues an inlined chain, whose last comment is the
   outermost caller. */
static void take_comment(srcpos *at, size_t file, uint32_t line, int inl)
{
    if (!at->chain) {
        at->file = file;
        at->line = line;
    }
    at->cfile = file;
    at->cline = line;
    at->chain = inl;
}

static wm_status parse_lines(wm_sass *s, const char *text, size_t n,
                             wm_diag *d)
{
    size_t func = pool_add(s, "", 0), off;
    srcpos at = {func, func, 0, 0, 0};
    if (func == SIZE_MAX)
        return WM_ERR_NOMEM;
    const char *p = text, *end = text + n;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        e = e ? e : end;
        const char *q = p;
        while (q < e && isspace((unsigned char)*q))
            q++;
        wm_status st = WM_OK;
        uint32_t line;
        int inl;
        if (parse_section(s, q, e, &off)) {
            func = off;
            at.file = at.cfile = pool_add(s, "", 0);
            at.line = at.cline = 0;
            at.chain = 0;
        } else if (parse_file_comment(s, q, e, &off, &line, &inl)) {
            take_comment(&at, off, line, inl);
        } else {
            at.chain = 0;
            if ((size_t)(e - q) > 4 && q[0] == '/' && q[1] == '*') {
                char *c;
                unsigned long addr = strtoul(q + 2, &c, 16);
                if (c + 1 < e && c[0] == '*' && c[1] == '/')
                    st = parse_insn(s, text, c + 2, e, (uint32_t)addr, func,
                                    &at, d);
            }
        }
        if (func == SIZE_MAX || at.file == SIZE_MAX || at.cfile == SIZE_MAX)
            return WM_ERR_NOMEM;
        if (st != WM_OK)
            return st;
        p = e + 1;
    }
    return WM_OK;
}

wm_status wm_sass_parse(const char *text, size_t n, wm_sass **out,
                        wm_diag *d)
{
    *out = NULL;
    if (d)
        memset(d, 0, sizeof *d);
    wm_diag local;
    wm_diag *dd = d ? d : &local;
    memset(&local, 0, sizeof local);
    wm_sass *s = calloc(1, sizeof *s);
    if (!s)
        return WM_ERR_NOMEM;
    wm_status st = parse_lines(s, text, n, dd);
    if (st != WM_OK) {
        wm_sass_free(s);
        if (st == WM_ERR_PARSE)
            wm_diag_locate(dd, text, n);
        return st;
    }
    finish(s);
    *out = s;
    return WM_OK;
}

void wm_sass_free(wm_sass *s)
{
    if (!s)
        return;
    free(s->v);
    free(s->pool);
    free(s);
}

size_t wm_sass_count(const wm_sass *s)
{
    return s ? s->n : 0;
}

const wm_sass_mem *wm_sass_at(const wm_sass *s, size_t i)
{
    return s && i < s->n ? &s->v[i].m : NULL;
}
