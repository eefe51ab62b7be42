/*
 * html_util.c -- the bottom of the HTML report: XML text escaping, used by
 * every html_*.c file.
 */
#include "html_int.h"

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
        size_t n = wmi_utf8_len(s);
        if (n == 0) {
            fputs("\xef\xbf\xbd", f); /* U+FFFD for a bad byte */
            s++;
            continue;
        }
        fwrite(s, 1, n, f);
        s += n;
    }
}
