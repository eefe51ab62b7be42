/*
 * test_ptx_consts.c -- constant slots hold what the PTX text says.
 *
 * The parser lowers every immediate to a constant slot (de-duplicated) and
 * every symbol to a slot patched with its address at function end.  If a
 * literal ever shared a symbol's slot it would read the address instead of
 * its value, silently.  This test runs the reproducer of that bug and then
 * re-reads every instruction of every committed PTX file from its own
 * text, independently of the parser: each literal operand's slot must hold
 * the literal's bits for the operand's type, and no slot may serve both a
 * literal and a symbol (or two different symbols).
 */
#include "check.h"
#include "ptx_inline.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reproducer ------------------------------------------------------ */

static const char *alias_src =
    PI_HEAD
    ".shared .align 4 .b8 pad[288];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry k(.param .u64 k_out)\n{\n"
    "\t.reg .b32 %r<6>;\n\t.reg .f32 %f<2>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [k_out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r2, dyn;\n"
    "\tmov.u32 %r4, 0;\n"
    "\tst.global.u32 [%rd2], %r2;\n"
    "\tst.global.u32 [%rd2+4], %r4;\n"
    "\tst.global.u32 [%rd2+8], 0;\n"
    "\tmov.f32 %f1, 0f00000000;\n"
    "\tst.global.f32 [%rd2+12], %f1;\n"
    "\tmov.u32 %r5, pad;\n"
    "\tst.global.u32 [%rd2+16], %r5;\n"
    "\tbar.sync 0;\n"
    "\tret;\n}\n";

static void test_reproducer(void)
{
    wm_ptx_module *m = pi_parse(alias_src, "alias.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t out[5] = {7, 7, 7, 7, 7};
    pi_launch l = pi_dims(1, 32);
    l.dyn_smem = 64;
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
    CHECK_EQ(out[0], 288); /* dyn follows the 288 static bytes */
    CHECK_EQ(out[1], 0);   /* mov.u32 %r4, 0 after the symbol */
    CHECK_EQ(out[2], 0);   /* st ... , 0 */
    CHECK_EQ(out[3], 0);   /* 0f00000000 */
    CHECK_EQ(out[4], 0);   /* pad is at 0 */
    wm_ptx_free(m);
}

/* ---- the independent re-reading ------------------------------------------ */

/* One operand of an instruction's text. */
typedef struct opnd {
    const char *s;
    size_t n;
} opnd;

/* Split "OPCODE a, b, [c+4], {d, e}" after the guard and the opcode into
   top-level operands; returns their count (at most max). */
static unsigned split_ops(const char *t, opnd *ops, unsigned max)
{
    if (*t == '@')
        t = strchr(t, ' ') ? strchr(t, ' ') + 1 : t + strlen(t);
    while (*t && *t != ' ')
        t++;
    unsigned n = 0;
    int depth = 0;
    const char *start = NULL;
    for (;; t++) {
        char c = *t;
        if (!start && c && c != ' ' && c != ',')
            start = t;
        if (c == '{' || c == '[' || c == '(')
            depth++;
        if (c == '}' || c == ']' || c == ')')
            depth--;
        if ((c == ',' && depth == 0) || !c) {
            if (start && n < max) {
                const char *e = t;
                while (e > start && e[-1] == ' ')
                    e--;
                ops[n].s = start;
                ops[n].n = (size_t)(e - start);
                n++;
            }
            start = NULL;
            if (!c)
                break;
        }
    }
    return n;
}

static int is_literal(const char *s, size_t n)
{
    if (n && *s == '-') {
        s++;
        n--;
    }
    return n && *s >= '0' && *s <= '9';
}

/* The register bits of literal text s read as type t (written from the
   PTX ISA's rules for immediates, not from the parser). */
static uint64_t literal_bits(const char *s, size_t n, wmi_type t)
{
    char buf[64];
    int neg = 0;
    if (*s == '-') {
        neg = 1;
        s++;
        n--;
    }
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (n && (buf[n - 1] == 'U' || buf[n - 1] == 'u'))
        buf[--n] = 0;
    int hexf = buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'F') && n == 10;
    int hexd = buf[0] == '0' && (buf[1] == 'd' || buf[1] == 'D') && n == 18;
    int hex = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    int dec = !hexf && !hexd && !hex &&
              (strchr(buf, '.') || strchr(buf, 'e') || strchr(buf, 'E'));
    uint64_t bits = 0, r;
    double v;
    if (hexf) {
        bits = strtoull(buf + 2, NULL, 16) ^ (neg ? 0x80000000u : 0);
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, 4);
        v = (double)f;
    } else if (hexd) {
        bits = strtoull(buf + 2, NULL, 16) ^ (neg ? (uint64_t)1 << 63 : 0);
        memcpy(&v, &bits, 8);
    } else if (dec) {
        v = strtod(buf, NULL) * (neg ? -1 : 1);
    } else {
        bits = buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')
                   ? strtoull(buf + 2, NULL, 2)
                   : strtoull(buf, NULL, 0);
        if (neg)
            bits = 0 - bits;
        v = (double)(int64_t)bits;
    }
    if (t == PT_PRED)
        return bits != 0 || v != 0.0;
    if (t == PT_F32 || t == PT_TF32) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        r = hexf ? bits : u;
    } else if (t == PT_F64) {
        uint64_t u;
        memcpy(&u, &v, 8);
        r = hexd ? bits : u;
    } else if (t == PT_F16 || t == PT_BF16) {
        int isint = !hexf && !hexd && !dec;
        r = isint ? bits
                  : (t == PT_F16 ? wmi_float_to_half((float)v, RND_RN)
                                 : wmi_float_to_bf16((float)v, RND_RN));
    } else {
        r = dec ? (uint64_t)(int64_t)v : bits;
    }
    unsigned w = wmi_type_bits(t);
    if (w && w < 64)
        r &= ((uint64_t)1 << w) - 1;
    return r;
}

/* What a constant slot has been seen standing for. */
typedef struct use {
    int kind;          /* 0 unseen, 1 literal, 2 symbol */
    const char *sym;   /* symbol text (kind 2) */
    size_t nsym;
} use;

static int check_failed_here;

static void note(const char *file, const wm_ptx_module *m, size_t i,
                 const char *why)
{
    if (check_failed_here++ < 5)
        fprintf(stderr, "%s: PTX line %u '%s': %s\n", file, m->code[i].line,
                m->texts + m->code[i].text, why);
}

/* A source field: literal text -> value check; symbol -> record. */
static void check_src(const char *file, const wm_ptx_module *m,
                      const wmi_func *f, use *uses, size_t i, uint32_t slot,
                      const char *s, size_t n, wmi_type t)
{
    long ci = -1;
    for (uint32_t k = 0; k < f->nconsts; k++)
        if (f->cslots[k] == slot)
            ci = k;
    if (ci < 0)
        return; /* a register */
    use *u = &uses[ci];
    if (is_literal(s, n)) {
        if (f->cvals[ci] != literal_bits(s, n, t))
            note(file, m, i, "a literal's slot holds another value");
        if (u->kind == 2)
            note(file, m, i, "a literal shares a symbol's slot");
        u->kind = u->kind ? u->kind : 1;
        return;
    }
    if (n == 7 && memcmp(s, "WARP_SZ", 7) == 0) { /* the constant 32 */
        if (f->cvals[ci] != 32)
            note(file, m, i, "WARP_SZ is not 32");
        if (u->kind == 2)
            note(file, m, i, "WARP_SZ shares a symbol's slot");
        u->kind = u->kind ? u->kind : 1;
        return;
    }
    for (uint32_t k = 0; k < f->nparams; k++)
        if (strlen(f->params[k].name) == n &&
            memcmp(f->params[k].name, s, n) == 0) {
            if (f->cvals[ci] != f->params[k].offset)
                note(file, m, i, "a parameter name's slot is not its offset");
            if (u->kind == 2)
                note(file, m, i, "a parameter offset shares a symbol's slot");
            u->kind = u->kind ? u->kind : 1;
            return;
        }
    if (u->kind == 1 || (u->kind == 2 && (u->nsym != n ||
                                          memcmp(u->sym, s, n) != 0)))
        note(file, m, i, "a symbol shares another operand's slot");
    u->kind = 2;
    u->sym = s;
    u->nsym = n;
}

static void check_function(const char *file, const wm_ptx_module *m,
                           const wmi_func *f)
{
    use *uses = calloc(f->nconsts + 1, sizeof *uses);
    CHECK(uses != NULL);
    if (!uses)
        return;
    for (size_t i = f->first; i < (size_t)f->first + f->count; i++) {
        const wmi_insn *in = &m->code[i];
        wmi_op op = (wmi_op)in->op;
        if (op == OP_UNKNOWN || op == OP_CALL || op == OP_BRA)
            continue;
        opnd ops[8];
        unsigned nops = split_ops(m->texts + in->text, ops, 8);
        unsigned nd = !(op == OP_ST || op == OP_RED || op == OP_BAR ||
                        op == OP_RET || op == OP_EXIT || op == OP_TRAP ||
                        op == OP_NOP || op == OP_CP_ASYNC ||
                        op == OP_CP_COMMIT || op == OP_CP_WAIT);
        const uint32_t fields[4] = {in->a, in->b, in->c, in->e};
        for (unsigned k = nd; k < nops && k - nd < 4; k++) {
            unsigned j = k - nd;
            const char *s = ops[k].s;
            size_t n = ops[k].n;
            uint32_t slot = fields[j];
            wmi_type t = wmi_ptx_src_type(in, j);
            if (op == OP_SETP && j == 2)
                t = PT_PRED;
            if (slot == WMI_NOREG)
                continue;
            if (*s == '[') {
                /* [sym], [sym+4]: the base slot is the symbol's */
                size_t e = 1;
                while (e < n && s[e] != '+' && s[e] != '-' && s[e] != ']')
                    e++;
                const char *b = s + 1;
                size_t bn = e - 1;
                while (bn && *b == ' ') {
                    b++;
                    bn--;
                }
                while (bn && b[bn - 1] == ' ')
                    bn--;
                if (bn && *b != '%' && !is_literal(b, bn))
                    check_src(file, m, f, uses, i, slot, b, bn, t);
            } else if (*s == '{' && (slot & WMI_VEC)) {
                const uint32_t *pool = m->pool + (slot & ~WMI_VEC);
                opnd el[16];
                char tmp[256];
                size_t tn = n - 2 < sizeof tmp - 2 ? n - 2 : sizeof tmp - 2;
                tmp[0] = 'x';
                tmp[1] = ' ';
                memcpy(tmp + 2, s + 1, tn);
                tmp[tn + 2] = 0;
                unsigned ne = split_ops(tmp, el, 16);
                for (unsigned v = 0; v < ne && v < pool[0]; v++)
                    if (is_literal(el[v].s, el[v].n))
                        check_src(file, m, f, uses, i, pool[1 + v], el[v].s,
                                  el[v].n, t);
            } else if (*s != '%' && *s != '{') {
                check_src(file, m, f, uses, i, slot, s, n, t);
            }
        }
    }
    free(uses);
}

static void check_module(const char *file, const wm_ptx_module *m)
{
    check_failed_here = 0;
    for (size_t k = 0; k < m->nfuncs; k++)
        check_function(file, m, &m->funcs[k]);
    CHECK_EQ(check_failed_here, 0);
}

/* Every .ptx file of directory rel (relative to the source tree). */
static unsigned check_dir(const char *rel)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", WM_SOURCE_DIR, rel);
    DIR *d = opendir(dir);
    unsigned nfiles = 0;
    CHECK(d != NULL);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0 ||
            strcmp(e->d_name, "bad.ptx") == 0)
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = 0;
        char *src = wm_read_file(path, &n);
        CHECK(src != NULL);
        wm_ptx_module *m = NULL;
        wm_diag dg;
        if (src && wm_ptx_parse(src, n, path, &m, &dg) == WM_OK) {
            check_module(path, m);
            nfiles++;
        } else if (src) {
            wm_diag_print(stderr, &dg, path, src, n);
            CHECK(0);
        }
        wm_ptx_free(m);
        free(src);
    }
    closedir(d);
    return nfiles;
}

int main(void)
{
    test_reproducer();
    wm_ptx_module *m = pi_parse(alias_src, "alias.ptx");
    if (m)
        check_module("alias.ptx", m);
    wm_ptx_free(m);
    unsigned n = check_dir("examples/kernels/sm_80") +
                 check_dir("examples/kernels/sm_90") +
                 check_dir("tests/ptx") + check_dir("tests/ptx/nvcc") +
                 check_dir("tests/corpus/ptx") +
                 check_dir("tests/corpus/triton");
    CHECK(n >= 25);
    return check_done("test_ptx_consts");
}
