/*
 * ptx_source.c -- the source files of an interpreted kernel for its
 * reports: find each .file of the module (as written, beside the PTX, or
 * in the PTX's parent directory where scripts/gen-ptx.sh puts the .cu),
 * read it once and index its lines.
 */
#define _POSIX_C_SOURCE 200809L
#include "ptx_report_int.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>

/* Try the .file path, then the PTX's directory with the path's base name,
   then its parent directory (examples/kernels/sm_80/x.ptx -> ../x.cu). */
static char *find_source(const char *path, const char *ptx_path, int *nomem)
{
    char *t = wm_read_file(path, NULL);
    *nomem = !t && errno == ENOMEM;
    if (t || !ptx_path || *nomem)
        return t;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *slash = strrchr(ptx_path, '/');
    size_t dl = slash ? (size_t)(slash - ptx_path) + 1 : 0;
    const char *rel[3] = {path[0] == '/' ? NULL : path, base, NULL};
    char buf[4096];
    for (int i = 0; i < 2 && !t; i++) {
        if (!rel[i])
            continue;
        snprintf(buf, sizeof buf, "%.*s%s", (int)dl, ptx_path, rel[i]);
        t = wm_read_file(buf, NULL);
        *nomem = !t && errno == ENOMEM;
        if (*nomem)
            return NULL;
    }
    if (!t) {
        snprintf(buf, sizeof buf, "%.*s../%s", (int)dl, ptx_path, base);
        t = wm_read_file(buf, NULL);
        *nomem = !t && errno == ENOMEM;
    }
    return t;
}

/* 1, or 0 when memory ran out (a file not found is no error). */
static int load(wmi_srcfile *s, const char *path, const char *ptx_path)
{
    int nomem = 0;
    s->path = path;
    s->text = *path ? find_source(path, ptx_path, &nomem) : NULL;
    s->lines = NULL;
    s->nlines = 0;
    if (!s->text)
        return !nomem;
    /* Lines end at LF, CRLF or a lone CR, as the compiler counts them,
       so .loc line numbers name the line nvcc meant. */
    size_t n = 1;
    for (char *p = s->text; *p; p++)
        n += *p == '\n' || (*p == '\r' && p[1] != '\n');
    s->lines = malloc(n * sizeof *s->lines);
    if (!s->lines) {
        free(s->text);
        s->text = NULL;
        return 0;
    }
    char *p = s->text;
    s->lines[s->nlines++] = p;
    for (; *p; p++)
        if (*p == '\n' || (*p == '\r' && p[1] != '\n')) {
            *p = 0;
            if (p > s->text && p[-1] == '\r')
                p[-1] = 0;
            s->lines[s->nlines++] = p + 1;
        }
    assert(s->nlines <= n);
    return 1;
}

int wmi_sources_load(wmi_sources *s, const wm_ptx_module *m,
                     const char *ptx_path)
{
    memset(s, 0, sizeof *s);
    s->files = calloc(m->nfiles + 1, sizeof *s->files);
    if (!s->files)
        return 0;
    for (size_t i = 0; i < m->nfiles; i++) {
        const char *path = m->files[i].path;
        size_t len = strlen(path);
        int ok = wmi_namemap_get(&s->bypath, path, len) != UINT32_MAX ||
                 wmi_namemap_put(&s->bypath, path, len, (uint32_t)s->n);
        if (!ok || !load(&s->files[s->n++], path, ptx_path)) {
            wmi_sources_free(s);
            return 0;
        }
    }
    return 1;
}

const wmi_srcfile *wmi_sources_file(const wmi_sources *s, const char *file)
{
    uint32_t i = wmi_namemap_get(&s->bypath, file, strlen(file));
    return i != UINT32_MAX && s->files[i].text ? &s->files[i] : NULL;
}

const char *wmi_sources_line(const wmi_sources *s, const char *file,
                             uint32_t line)
{
    const wmi_srcfile *sf = wmi_sources_file(s, file);
    if (!sf || line == 0 || line > sf->nlines)
        return NULL;
    const char *t = sf->lines[line - 1];
    while (*t == ' ' || *t == '\t')
        t++;
    return t;
}

void wmi_sources_free(wmi_sources *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->files[i].text);
        free((void *)(uintptr_t)s->files[i].lines);
    }
    free(s->files);
    wmi_namemap_free(&s->bypath);
    s->files = NULL;
    s->n = 0;
}
