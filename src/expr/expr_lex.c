/*
 * expr_lex.c -- tokens of the index-expression language.
 *
 * Tokens are byte offset + length into the program text; nothing is
 * copied.  Numbers are decimal, 0x hex or 0b binary integers (with _ as
 * a digit separator) that must fit in int64.  `#` and `//` start a comment
 * that runs to the end of the line.  Newlines are tokens: one statement
 * per line.  Keywords are ordinary names; the parser decides by position
 * (an array may be called `in`).
 */
#include "expr_int.h"

static const char *const tok_names[] = {
#define WMX_X_TEXT(code, text) text,
    WMX_TOKEN_LIST(WMX_X_TEXT)
#undef WMX_X_TEXT
};

const char *wmi_expr_tok_name(xtok_kind k)
{
    assert((unsigned)k < WM_ARRAY_LEN(tok_names));
    return tok_names[k];
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* number := digits | '0x' hexdigits | '0b' bindigits   (with '_' allowed) */
static void lex_number(xlexer *lx, xtoken *t)
{
    const char *s = lx->src;
    size_t p = lx->pos;
    unsigned base = 10;
    uint64_t v = 0;
    bool overflow = false, any = false;
    if (s[p] == '0' && p + 1 < lx->n && (s[p + 1] == 'x' || s[p + 1] == 'X'))
        base = 16, p += 2;
    else if (s[p] == '0' && p + 1 < lx->n &&
             (s[p + 1] == 'b' || s[p + 1] == 'B'))
        base = 2, p += 2;
    for (; p < lx->n && is_ident_char(s[p]); p++) {
        if (s[p] == '_')
            continue;
        int d = digit_value(s[p]);
        if (d >= (int)base) {
            t->len = p + 1 - t->off;
            wm_diag_set(lx->diag, WM_ERR_PARSE, p, 1,
                        "invalid digit '%c' in a base-%u number", s[p], base);
            t->kind = TK_EOF;
            lx->pos = p + 1;
            return;
        }
        any = true;
        if (v > (UINT64_MAX - (unsigned)d) / base)
            overflow = true;
        else
            v = v * base + (unsigned)d;
    }
    t->len = p - t->off;
    lx->pos = p;
    if (!any) {
        wm_diag_set(lx->diag, WM_ERR_PARSE, t->off, t->len,
                    "number has no digits");
        t->kind = TK_EOF;
        return;
    }
    if (overflow || v > (uint64_t)INT64_MAX) {
        wm_diag_set(lx->diag, WM_ERR_RANGE, t->off, t->len,
                    "number does not fit in 64 bits");
        t->kind = TK_EOF;
        return;
    }
    t->kind = TK_NUM;
    t->num = (int64_t)v;
}

/* Two-character operators first, then one-character ones. */
static const struct {
    char text[3];
    xtok_kind kind;
} puncts[] = {
    {"..", TK_DOTDOT}, {"<<", TK_SHL},   {">>", TK_SHR},    {"<=", TK_LE},
    {">=", TK_GE},     {"==", TK_EQ},    {"!=", TK_NE},     {"&&", TK_ANDAND},
    {"||", TK_OROR},   {"[", TK_LBRACK}, {"]", TK_RBRACK},  {"(", TK_LPAREN},
    {")", TK_RPAREN},  {",", TK_COMMA},  {".", TK_DOT},     {"?", TK_QUEST},
    {":", TK_COLON},   {"=", TK_ASSIGN}, {";", TK_SEMI},    {"+", TK_PLUS},
    {"-", TK_MINUS},   {"*", TK_STAR},   {"/", TK_SLASH},   {"%", TK_PERCENT},
    {"&", TK_AMP},     {"|", TK_PIPE},   {"^", TK_CARET},   {"~", TK_TILDE},
    {"!", TK_BANG},    {"<", TK_LT},     {">", TK_GT},
};

void wmi_expr_lex(xlexer *lx, xtoken *t)
{
    const char *s = lx->src;
    /* Skip blanks and comments (a comment ends before its newline). */
    for (;;) {
        while (lx->pos < lx->n && (s[lx->pos] == ' ' || s[lx->pos] == '\t' ||
                                   s[lx->pos] == '\r'))
            lx->pos++;
        if (lx->pos < lx->n &&
            (s[lx->pos] == '#' ||
             (s[lx->pos] == '/' && lx->pos + 1 < lx->n &&
              s[lx->pos + 1] == '/'))) {
            while (lx->pos < lx->n && s[lx->pos] != '\n')
                lx->pos++;
            continue;
        }
        break;
    }
    t->off = lx->pos;
    t->len = 1;
    t->num = 0;
    if (lx->pos >= lx->n) {
        t->kind = TK_EOF;
        t->len = 0;
        return;
    }
    char c = s[lx->pos];
    if (c == '\n') {
        t->kind = TK_NEWLINE;
        lx->pos++;
        return;
    }
    if (c >= '0' && c <= '9') {
        lex_number(lx, t);
        return;
    }
    if (is_ident_start(c)) {
        size_t p = lx->pos;
        while (p < lx->n && is_ident_char(s[p]))
            p++;
        t->kind = TK_IDENT;
        t->len = p - lx->pos;
        lx->pos = p;
        return;
    }
    for (size_t i = 0; i < WM_ARRAY_LEN(puncts); i++) {
        size_t k = puncts[i].text[1] ? 2 : 1;
        if (lx->pos + k <= lx->n && memcmp(s + lx->pos, puncts[i].text, k) == 0) {
            t->kind = puncts[i].kind;
            t->len = k;
            lx->pos += k;
            return;
        }
    }
    if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
        wm_diag_set(lx->diag, WM_ERR_PARSE, lx->pos, 1,
                    "unexpected character '%c'", c);
    else
        wm_diag_set(lx->diag, WM_ERR_PARSE, lx->pos, 1,
                    "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
    t->kind = TK_EOF;
    lx->pos++;
}
