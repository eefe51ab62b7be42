/*
 * What the benchmarks share: a clock in seconds, the machine and its load
 * (printed by each benchmark, since its figures compare only with others
 * of the same machine and load), and loading an example kernel of
 * examples/kernels/sm_80 (exits with a message when it cannot).  Header
 * only: each benchmark is one translation unit.
 */
#ifndef WM_BENCH_UTIL_H
#define WM_BENCH_UTIL_H

#include "warpmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Seconds on clock id (CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC, ...). */
static inline double bench_clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The first line of /proc/FILE that starts with key (all of it when key
   is ""), without its newline, into buf; "unknown" where there is none. */
static inline void bench_proc_line(const char *file, const char *key,
                                   char *buf, size_t n)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%s", file);
    snprintf(buf, n, "unknown");
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, strlen(key)) == 0) {
            const char *v = *key ? strchr(line, ':') : NULL;
            v = v ? v + 1 : line;
            while (*v == ' ' || *v == '\t')
                v++;
            snprintf(buf, n, "%.*s", (int)strcspn(v, "\n"), v);
            break;
        }
    fclose(f);
}

/* One line naming the machine (CPU model, online cores) and one with its
   load average, prefixed by when ("before", "after"); the machine line
   only when when is "before". */
static inline void bench_machine(const char *when)
{
    char cpu[128], load[128];
    if (strcmp(when, "before") == 0) {
        bench_proc_line("cpuinfo", "model name", cpu, sizeof cpu);
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        printf("machine: %s, %ld cores online\n", cpu, nc);
    }
    bench_proc_line("loadavg", "", load, sizeof load);
    printf("load average %s: %s\n", when, load);
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

/* qsort's order on doubles. */
static inline int bench_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The median of v[0..n) (sorts v in place). */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

#endif /* WM_BENCH_UTIL_H */
