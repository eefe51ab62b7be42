/*
 * io.c -- whole-file reads for the front ends (PTX, expression files,
 * source lines of reports).
 *
 * Invariants: no read returns more than WM_LIMIT_INPUT_BYTES (a stream
 * that goes on, such as /dev/zero, stops there with EFBIG); wm_read_file
 * opens regular files only, so a FIFO never blocks and a device is never
 * read; a directory fails with EISDIR rather than a read error.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include "wm_int.h"

#include <errno.h>
#include <sys/stat.h>

char *wm_read_stream(FILE *f, size_t *len)
{
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536 + 1) {
            size_t ncap = cap ? cap * 2 : 131072;
            /* one byte past the limit tells "too big" from "at it" */
            if (ncap > WM_LIMIT_INPUT_BYTES + 2)
                ncap = WM_LIMIT_INPUT_BYTES + 2;
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
        if (n > WM_LIMIT_INPUT_BYTES) {
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        errno = e ? e : EIO;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *wm_read_file(const char *path, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return NULL;
    if (S_ISDIR(sb.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    if (!S_ISREG(sb.st_mode)) {
        errno = EINVAL; /* see wm_read_error */
        return NULL;
    }
    if ((uint64_t)sb.st_size > WM_LIMIT_INPUT_BYTES) {
        errno = EFBIG;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    errno = 0;
    char *buf = wm_read_stream(f, len);
    int saved = errno;
    fclose(f);
    errno = saved;
    return buf;
}

const char *wm_read_error(int err)
{
    switch (err) {
    case EFBIG:
        return "larger than the input limit of 256 MiB (a fixed limit)";
    case EISDIR:
        return "is a directory";
    case EINVAL:
        return "not a regular file (FIFOs and devices are not read)";
    default:
        return strerror(err);
    }
}
