/*
 * json_check.h -- a strict JSON checker for the harnesses that write JSON
 * (RFC 8259): one value with white space around it; UTF-8 that is well
 * formed (no overlong forms, surrogates or code points past U+10FFFF), no
 * raw control character inside a string, only the escapes JSON defines,
 * \u escapes whose surrogates pair up, numbers of JSON's grammar, nesting
 * up to JSON_CHECK_DEPTH.  json_check returns NULL when the text is valid,
 * else a message naming the first fault; *at is its offset.
 */
#ifndef WM_FUZZ_JSON_CHECK_H
#define WM_FUZZ_JSON_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JSON_CHECK_DEPTH 256

/* The checker is the harness's, not code under test: its branches and
   comparisons would only add noise to the coverage and cost time. */
#define JSON_NOCOV __attribute__((no_sanitize("coverage")))

typedef struct json_in {
    const unsigned char *p, *end, *start;
    const char *err;
} json_in;

JSON_NOCOV static int json_fail(json_in *j, const char *msg)
{
    if (!j->err)
        j->err = msg;
    return 0;
}

JSON_NOCOV static void json_ws(json_in *j)
{
    while (j->p < j->end &&
           (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

/* One UTF-8 sequence at j->p of a byte >= 0x80 (RFC 3629, table 3-7 of
   the Unicode standard: the second byte's range depends on the first). */
JSON_NOCOV static int json_utf8(json_in *j)
{
    unsigned c = *j->p, n, lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 1;
    else if (c >= 0xe0 && c <= 0xef)
        n = 2, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 3, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else
        return json_fail(j, "invalid UTF-8 lead byte");
    if ((size_t)(j->end - j->p) <= n)
        return json_fail(j, "UTF-8 sequence cut by the end");
    if (j->p[1] < lo || j->p[1] > hi)
        return json_fail(j, "invalid UTF-8 continuation");
    for (unsigned k = 2; k <= n; k++)
        if (j->p[k] < 0x80 || j->p[k] > 0xbf)
            return json_fail(j, "invalid UTF-8 continuation");
    j->p += n + 1;
    return 1;
}

JSON_NOCOV static int json_hex4(json_in *j, unsigned *v)
{
    *v = 0;
    if (j->end - j->p < 4)
        return json_fail(j, "\\u escape cut by the end");
    for (int k = 0; k < 4; k++) {
        unsigned c = *j->p++, d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 32) >= 'a' && (c | 32) <= 'f')
            d = (c | 32) - 'a' + 10;
        else
            return json_fail(j, "bad hex digit in a \\u escape");
        *v = *v << 4 | d;
    }
    return 1;
}

/* A \u escape (after the 'u'); a high surrogate must be followed by an
   escaped low one, and a low one must not stand alone. */
JSON_NOCOV static int json_uesc(json_in *j)
{
    unsigned v, w;
    if (!json_hex4(j, &v))
        return 0;
    if (v >= 0xdc00 && v <= 0xdfff)
        return json_fail(j, "lone low surrogate escape");
    if (v < 0xd800 || v > 0xdbff)
        return 1;
    if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u')
        return json_fail(j, "high surrogate escape without its low half");
    j->p += 2;
    if (!json_hex4(j, &w))
        return 0;
    if (w < 0xdc00 || w > 0xdfff)
        return json_fail(j, "high surrogate escape without its low half");
    return 1;
}

JSON_NOCOV static int json_string(json_in *j)
{
    j->p++; /* the opening quote */
    while (j->p < j->end) {
        unsigned c = *j->p;
        if (c == '"') {
            j->p++;
            return 1;
        }
        if (c < 0x20)
            return json_fail(j, "raw control character in a string");
        if (c >= 0x80) {
            if (!json_utf8(j))
                return 0;
            continue;
        }
        j->p++;
        if (c != '\\')
            continue;
        if (j->p == j->end)
            break;
        c = *j->p++;
        if (c == 'u') {
            if (!json_uesc(j))
                return 0;
        } else if (!strchr("\"\\/bfnrt", (int)c) || c == 0) {
            return json_fail(j, "unknown escape in a string");
        }
    }
    return json_fail(j, "string cut by the end");
}

JSON_NOCOV static int json_digits(json_in *j)
{
    const unsigned char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > s;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
JSON_NOCOV static int json_number(json_in *j)
{
    if (*j->p == '-')
        j->p++;
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (!json_digits(j))
        return json_fail(j, "bad number");
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!json_digits(j))
            return json_fail(j, "bad fraction");
    }
    if (j->p < j->end && (*j->p | 32) == 'e') {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!json_digits(j))
            return json_fail(j, "bad exponent");
    }
    return 1;
}

JSON_NOCOV static int json_word(json_in *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
        return json_fail(j, "unexpected character");
    j->p += n;
    return 1;
}

JSON_NOCOV static int json_value(json_in *j, int depth);

/* The members of an object or the elements of an array (after the
   opening bracket). */
JSON_NOCOV static int json_items(json_in *j, int depth, int obj)
{
    unsigned char close = obj ? '}' : ']';
    j->p++;
    json_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 1;
    }
    for (;;) {
        json_ws(j);
        if (obj) {
            if (j->p == j->end || *j->p != '"')
                return json_fail(j, "expected a member name");
            if (!json_string(j))
                return 0;
            json_ws(j);
            if (j->p == j->end || *j->p++ != ':')
                return json_fail(j, "expected ':'");
        }
        if (!json_value(j, depth + 1))
            return 0;
        json_ws(j);
        if (j->p == j->end)
            return json_fail(j, "container cut by the end");
        if (*j->p == close) {
            j->p++;
            return 1;
        }
        if (*j->p++ != ',')
            return json_fail(j, "expected ',' or the closing bracket");
    }
}

JSON_NOCOV static int json_value(json_in *j, int depth)
{
    if (depth > JSON_CHECK_DEPTH)
        return json_fail(j, "nested too deeply");
    json_ws(j);
    if (j->p == j->end)
        return json_fail(j, "value expected");
    switch (*j->p) {
    case '{': return json_items(j, depth, 1);
    case '[': return json_items(j, depth, 0);
    case '"': return json_string(j);
    case 't': return json_word(j, "true");
    case 'f': return json_word(j, "false");
    case 'n': return json_word(j, "null");
    default:
        if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
            return json_number(j);
        return json_fail(j, "unexpected character");
    }
}

/* NULL when text[0..n) is one JSON value with white space around it,
   else the first fault, at offset *at. */
JSON_NOCOV static const char *json_check(const char *text, size_t n,
                                         size_t *at)
{
    json_in j = {(const unsigned char *)text, (const unsigned char *)text + n,
                 (const unsigned char *)text, NULL};
    if (json_value(&j, 0)) {
        json_ws(&j);
        if (j.p != j.end)
            json_fail(&j, "text after the value");
    }
    if (at)
        *at = (size_t)(j.p - j.start);
    return j.err;
}

#endif /* WM_FUZZ_JSON_CHECK_H */
