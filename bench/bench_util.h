/*
 * What the PTX benchmarks share: a clock in seconds and loading an
 * example kernel of examples/kernels/sm_80 (exits with a message when it
 * cannot).  Header only: each benchmark is one translation unit.
 */
#ifndef WM_BENCH_UTIL_H
#define WM_BENCH_UTIL_H

#include "warpmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on clock id (CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC, ...). */
static inline double bench_clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Parse examples/kernels/sm_80/NAME; prog names the benchmark in errors. */
static inline wm_ptx_module *bench_load(const char *prog, const char *name)
{
    char path[2048];
    const char *here = __FILE__, *slash = strrchr(here, '/');
    int dl = slash ? (int)(slash - here) : 0;
    snprintf(path, sizeof path, "%.*s%s../examples/kernels/sm_80/%s", dl, here,
             dl ? "/" : "", name);
    size_t n;
    char *src = wm_read_file(path, &n);
    if (!src) {
        fprintf(stderr, "%s: cannot read %s\n", prog, path);
        exit(1);
    }
    wm_ptx_module *m;
    wm_diag d;
    if (wm_ptx_parse(src, n, path, &m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, path, src, n);
        exit(1);
    }
    free(src);
    return m;
}

#endif /* WM_BENCH_UTIL_H */
