/*
 * html_util.c -- the bottom of the HTML report: XML text escaping, used by
 * every html_*.c file.
 */
#include "html_int.h"

/* Length of a valid UTF-8 sequence at s, or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
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

void wmi_html_escape(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    while (*s) {
        switch (*s) {
        case '&': fputs("&amp;", f); s++; continue;
        case '<': fputs("&lt;", f); s++; continue;
        case '>': fputs("&gt;", f); s++; continue;
        case '"': fputs("&quot;", f); s++; continue;
        case '\'': fputs("&#39;", f); s++; continue;
        default: break;
        }
        if (*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r') {
            s++; /* XML 1.0 forbids the other C0 controls */
            continue;
        }
        size_t n = utf8_len(s);
        if (n == 0) {
            fputs("\xef\xbf\xbd", f); /* U+FFFD for a bad byte */
            s++;
            continue;
        }
        fwrite(s, 1, n, f);
        s += n;
    }
}
