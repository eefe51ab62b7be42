/*
 * ptx_lex.c -- the PTX lexer (ptx_parse.c): tokens, skipping lines and
 * statements, the parser's first-error diagnostics, and numeric literals
 * (integers, decimals, 0f/0d hex floats) with their bits per type.
 */
#include "ptx_parse_int.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- lexer --------------------------------------------------------------- */


static int is_word_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

static int is_word_char(int c)
{
    return is_word_start(c) || (c >= '0' && c <= '9');
}

void wmi_lex_scan(parser *p)
{
    const char *s = p->s;
    size_t i = p->pos;
    for (;;) {
        while (i < p->n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i + 1 < p->n && s[i] == '/' && s[i + 1] == '/') {
            size_t c0 = i;
            while (i < p->n && s[i] != '\n')
                i++;
            static const char beg[] = "// begin inline asm";
            static const char end[] = "// end inline asm";
            if (i - c0 >= sizeof beg - 1 &&
                memcmp(s + c0, beg, sizeof beg - 1) == 0)
                p->in_asm = 1;
            else if (i - c0 >= sizeof end - 1 &&
                     memcmp(s + c0, end, sizeof end - 1) == 0)
                p->in_asm = 0;
            continue;
        }
        if (i + 1 < p->n && s[i] == '/' && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < p->n && !(s[i] == '*' && s[i + 1] == '/'))
                i++;
            i = i + 2 <= p->n ? i + 2 : p->n;
            continue;
        }
        break;
    }
    p->t.off = i;
    if (i >= p->n) {
        p->t.k = T_EOF;
        p->t.len = 0;
        p->pos = i;
        return;
    }
    int c = (unsigned char)s[i];
    size_t j = i + 1;
    if (c == '\n') {
        p->t.k = T_NL;
    } else if (is_word_start(c)) {
        while (j < p->n) {
            if (is_word_char((unsigned char)s[j]))
                j++;
            else if (s[j] == ':' && j + 1 < p->n && s[j + 1] == ':')
                j += 2;
            else
                break;
        }
        p->t.k = T_WORD;
    } else if (c >= '0' && c <= '9') {
        while (j < p->n && (is_word_char((unsigned char)s[j]) ||
                            ((s[j] == '-' || s[j] == '+') &&
                             (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                             !(s[i] == '0' && (s[i + 1] == 'x' ||
                                               s[i + 1] == 'X' ||
                                               s[i + 1] == 'f' ||
                                               s[i + 1] == 'd')))))
            j++;
        p->t.k = T_NUM;
    } else if (c == '"') {
        while (j < p->n && s[j] != '"' && s[j] != '\n') {
            if (s[j] == '\\' && j + 1 < p->n)
                j++;
            j++;
        }
        if (j < p->n && s[j] == '"')
            j++;
        p->t.k = T_STR;
    } else {
        p->t.k = T_PUNCT;
    }
    p->t.len = j - i;
    p->pos = j;
}

/* Next token that is not a newline. */
void wmi_lex_next(parser *p)
{
    do
        wmi_lex_scan(p);
    while (p->t.k == T_NL);
}

int wmi_lex_is_p(const parser *p, char c)
{
    return p->t.k == T_PUNCT && p->s[p->t.off] == c;
}

int wmi_lex_is_w(const parser *p, const char *w)
{
    return p->t.k == T_WORD && strlen(w) == p->t.len &&
           memcmp(p->s + p->t.off, w, p->t.len) == 0;
}

int wmi_parse_err(parser *p, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int wmi_parse_err(parser *p, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wm_diag_set(p->d, WM_ERR_PARSE, p->t.off, p->t.len ? p->t.len : 1, "%s",
                msg);
    return 0;
}

int wmi_parse_nomem(parser *p)
{
    p->oom = 1;
    wm_diag_set(p->d, WM_ERR_NOMEM, p->t.off, 1, "out of memory");
    return 0;
}

int wmi_lex_expect_p(parser *p, char c, const char *what)
{
    if (!wmi_lex_is_p(p, c))
        return wmi_parse_err(p, "expected '%c' %s", c, what);
    wmi_lex_next(p);
    return 1;
}

/* Skip to just after the next ';' at brace depth 0 (or a '}' / EOF). */
void wmi_lex_skip_stmt(parser *p)
{
    int depth = 0;
    while (p->t.k != T_EOF) {
        if (wmi_lex_is_p(p, '{'))
            depth++;
        else if (wmi_lex_is_p(p, '}')) {
            if (depth == 0)
                return;
            depth--;
        } else if (wmi_lex_is_p(p, ';') && depth == 0) {
            wmi_lex_next(p);
            return;
        }
        wmi_lex_next(p);
    }
}

/* Skip the rest of a newline-terminated directive. */
void wmi_lex_skip_line(parser *p)
{
    while (p->t.k != T_EOF && p->t.k != T_NL)
        wmi_lex_scan(p);
    wmi_lex_next(p);
}

/* ---- numbers ------------------------------------------------------------- */

/* number := 0f<8 hex> | 0d<16 hex> | 0x<hex>[U] | 0<octal> | <dec>[U]
 *         | <dec>.<dec>[e[+-]<dec>] */
int wmi_lex_number(parser *p, int neg, lit *out)
{
    const char *s = p->s + p->t.off;
    size_t n = p->t.len;
    char buf[80];
    out->k = LIT_INT;
    out->bits = 0;
    out->dval = 0;
    if (n >= sizeof buf)
        return wmi_parse_err(p, "number too long");
    memcpy(buf, s, n);
    buf[n] = 0;
    if (n > 0 && (buf[n - 1] == 'U' || buf[n - 1] == 'u'))
        buf[--n] = 0;
    char *end;
    errno = 0;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'F') &&
        n == 10)
{
        out->k = LIT_F32;
        out->bits = strtoull(buf + 2, &end, 16);
    } else if (n > 2 && buf[0] == '0' && (buf[1] == 'd' || buf[1] == 'D') &&
               n == 18)
{
        out->k = LIT_F64;
        out->bits = strtoull(buf + 2, &end, 16);
    } else if (strchr(buf, '.') || ((strchr(buf, 'e') || strchr(buf, 'E')) &&
                                    !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))))
{
        out->k = LIT_DEC;
        out->dval = strtod(buf, &end);
        if (neg)
            out->dval = -out->dval;
        out->bits = 0;
    } else {
        out->k = LIT_INT;
        if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
            out->bits = strtoull(buf + 2, &end, 2);
        else
            out->bits = strtoull(buf, &end, 0);
    }
    if (*end || errno == ERANGE)
        return wmi_parse_err(p, "malformed number '%.*s'", (int)p->t.len, s);
    if (neg && out->k == LIT_F32)
        out->bits ^= 0x80000000u;
    else if (neg && out->k == LIT_F64)
        out->bits ^= (uint64_t)1 << 63;
    else if (neg && out->k == LIT_INT)
        out->bits = (uint64_t)0 - out->bits;
    return 1;
}

static uint64_t d2u(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

static double u2d(uint64_t u)
{
    double f;
    memcpy(&f, &u, 8);
    return f;
}

/* Can lit_bits convert l to type t?  A decimal literal (1.5, 2e64) in
   an integer instruction is truncated to an integer, which must exist. */
int wmi_lit_fits(const lit *l, wmi_type t)
{
    if (l->k != LIT_DEC || t == PT_PRED || t == PT_F32 || t == PT_TF32 ||
        t == PT_F64 || t == PT_F16 || t == PT_BF16)
        return 1;
    return l->dval >= -0x1p63 && l->dval < 0x1p63; /* NaN fails */
}

/* The raw register bits of literal l read as type t. */
uint64_t wmi_lit_bits(const lit *l, wmi_type t)
{
    unsigned bits = wmi_type_bits(t);
    double v = 0;
    uint64_t r;
    switch (l->k) {
    case LIT_INT: v = (double)(int64_t)l->bits; break;
    case LIT_F32: v = (double)wmi_f32((uint32_t)l->bits); break;
    case LIT_F64: v = u2d(l->bits); break;
    case LIT_DEC: v = l->dval; break;
    }
    if (t == PT_PRED)
        return l->bits != 0 || v != 0.0;
    if (t == PT_F32 || t == PT_TF32)
        r = l->k == LIT_F32 ? l->bits : wmi_f32_bits((float)v);
    else if (t == PT_F64)
        r = l->k == LIT_F64 ? l->bits : d2u(v);
    else if (t == PT_F16)
        r = l->k == LIT_INT ? l->bits : wmi_float_to_half((float)v, RND_RN);
    else if (t == PT_BF16)
        r = l->k == LIT_INT ? l->bits : wmi_float_to_bf16((float)v, RND_RN);
    else if (l->k == LIT_DEC)
        r = (uint64_t)(int64_t)v;
    else
        r = l->bits; /* integer / bit types keep the bits (0f... in .b32) */
    if (bits && bits < 64)
        r &= ((uint64_t)1 << bits) - 1;
    return r;
}

/* ---- strings ------------------------------------------------------------- */

char *wmi_parse_dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}
