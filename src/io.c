/*
 * io.c -- whole-file reads for the front ends (PTX, expression files,
 * source lines of reports).
 */
#include "wm_int.h"

#include <errno.h>

char *wm_read_stream(FILE *f, size_t *len)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536 + 1) {
            size_t ncap = cap ? cap * 2 : 131072;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *wm_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = wm_read_stream(f, len);
    int saved = errno;
    fclose(f);
    errno = saved;
    return buf;
}
