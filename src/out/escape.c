/*
 * escape.c -- strings as JSON and CSV write them: wm_json_string (public)
 * and wmi_csv_string, and the UTF-8 check they share with the HTML
 * escaper.  Beneath the output layer (out.c), the public JSON helpers
 * (json.c) and the HTML report, which all write through them.
 */
#include "wm_int.h"

size_t wmi_utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = (s[0] & 0xe0) == 0xc0   ? 2
               : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 ? 4
                                       : 0;
    if (n == 0 || s[0] == 0xc0 || s[0] == 0xc1 || s[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* Overlong 3/4-byte forms and UTF-16 surrogates are invalid. */
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

void wmi_csv_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void wm_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
         p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) {
                fprintf(f, "\\u%04x", *p);
            } else if (*p < 0x80) {
                fputc(*p, f);
            } else {
                /* JSON text is UTF-8 (RFC 8259): a byte that starts no
                   valid sequence is written as U+FFFD */
                size_t n = wmi_utf8_len(p);
                if (n == 0) {
                    fputs("\\ufffd", f);
                } else {
                    fwrite(p, 1, n, f);
                    p += n - 1;
                }
            }
        }
    }
    fputc('"', f);
}
