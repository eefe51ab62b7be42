/*
 * report_mem.c -- the library's version, and the run reports written into
 * memory instead of a FILE (for bindings that have no C stream to hand).
 */
#include "wm_int.h"

#include <errno.h>

const char *wm_version(void)
{
    return WM_VERSION;
}

void wm_free(void *p)
{
    free(p);
}

char *wm_ptx_report_string(const wm_ptx_module *m, const wm_agg *g,
                           const wm_ptx_report_opts *o, int html, size_t *len)
{
    if (len)
        *len = 0;
    if (!m || !g || !o) {
        errno = EINVAL;
        return NULL;
    }
    /* tmpfile() is ISO C: no POSIX memory streams needed */
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    int ok = 1;
    if (html)
        ok = wm_ptx_report_html(f, m, g, o) == WM_OK;
    else
        ok = wm_ptx_report(f, m, g, o) == WM_OK;
    if (fflush(f) != 0 || ferror(f))
        ok = 0;
    char *buf = NULL;
    if (ok) {
        rewind(f);
        buf = wm_read_stream(f, len);
    } else {
        errno = EIO;
    }
    fclose(f);
    return buf;
}
