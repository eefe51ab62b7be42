/*
 * bench_ptx.c -- speed of the PTX interpreter on the example kernels:
 * thread-instructions per second on one thread for copy, naive transpose,
 * reduction and tiled SGEMM (statistics on), each against an in-process
 * baseline (the same run with every fast path off, WMI_RUN_SLOW), then the
 * lesson's 8192 x 8192 transposed copy on one thread and on all cores.
 *
 * Every figure is given as CPU time (CLOCK_PROCESS_CPUTIME_ID, all threads:
 * robust when other jobs share the machine) and wall time; rates use CPU
 * time of one-thread runs.  Results are validated after every run (each
 * kernel's output is checked; the fast and baseline statistics must agree).
 * Usage: bench_ptx [repeats]   (median of repeats, default 3)
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "ptx_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static wm_ptx_arg buf(void *p, size_t bytes)
{
    wm_ptx_arg a;
    memset(&a, 0, sizeof a);
    a.buf = p;
    a.bytes = bytes;
    return a;
}

static wm_ptx_arg i32(int v)
{
    wm_ptx_arg a;
    memset(&a, 0, sizeof a);
    a.scalar = (uint32_t)v;
    a.size = 4;
    return a;
}

/* One timed run. */
typedef struct timing {
    double cpu, wall;
    uint64_t ti;       /* thread instructions */
    wm_counts totals;  /* global + shared totals, to compare modes */
} timing;

static timing run(const wm_ptx_module *m, const char *kernel, unsigned gx,
                  unsigned gy, unsigned bx, unsigned by, wm_ptx_arg *args,
                  size_t nargs, unsigned threads, unsigned flags)
{
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = gx;
    l.grid[1] = gy;
    l.grid[2] = 1;
    l.block[0] = bx;
    l.block[1] = by;
    l.block[2] = 1;
    l.args = args;
    l.nargs = nargs;
    l.threads = threads;
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_ptx_result res;
    wm_ptx_fault ft;
    timing t;
    memset(&t, 0, sizeof t);
    double c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = bench_clock_s(CLOCK_MONOTONIC);
    wm_status st = wmi_ptx_run_opts(m, (size_t)wm_ptx_find_kernel(m, kernel),
                                    &l, g, &res, &ft, flags);
    t.wall = bench_clock_s(CLOCK_MONOTONIC) - w0;
    t.cpu = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st != WM_OK) {
        fprintf(stderr, "bench_ptx: %s failed: %s\n", kernel, ft.msg);
        exit(1);
    }
    size_t n = wm_agg_nsites(g);
    for (size_t i = 0; i < n; i++) {
        wm_site s;
        if (!wm_agg_site(g, i, &s))
            continue;
        t.totals.requests += (uint32_t)s.stats.requests;
        t.totals.sectors += (uint32_t)s.stats.sectors;
        t.totals.wavefronts += (uint32_t)s.stats.wavefronts;
        t.totals.active += (uint32_t)s.stats.active_lanes;
    }
    wm_agg_free(g);
    t.ti = res.thread_insts;
    return t;
}

static int same_stats(const timing *a, const timing *b)
{
    return a->ti == b->ti && a->totals.requests == b->totals.requests &&
           a->totals.sectors == b->totals.sectors &&
           a->totals.wavefronts == b->totals.wavefronts &&
           a->totals.active == b->totals.active;
}

/* Median CPU and wall time of reps timings. */
static void median_timing(const timing *t, int reps, double *cpu, double *wall)
{
    double c[50], w[50];
    for (int r = 0; r < reps; r++) {
        c[r] = t[r].cpu;
        w[r] = t[r].wall;
    }
    *cpu = median(c, reps);
    *wall = median(w, reps);
}

static void report(const char *name, timing *base, timing *fast, int reps)
{
    double bc, bw, fc, fw;
    median_timing(base, reps, &bc, &bw);
    median_timing(fast, reps, &fc, &fw);
    if (!same_stats(&base[0], &fast[0])) {
        fprintf(stderr, "bench_ptx: %s: fast and baseline statistics differ\n",
                name);
        exit(1);
    }
    printf("| %-18s | %7.1f M | %7.3f s | %7.3f s | %7.3f s | %6.0f | %6.0f | "
           "%5.2fx |\n",
           name, (double)fast[0].ti / 1e6, bc, fc, fw,
           (double)fast[0].ti / bc / 1e6, (double)fast[0].ti / fc / 1e6,
           bc / fc);
}

/* Both modes of one kernel; `reset` clears the output, `ok` checks it. */
#define BENCH(name, reset, ok, ...)                                          \
    do {                                                                      \
        timing tb[50], tf[50];                                                \
        for (int r = 0; r < reps; r++) {                                      \
            reset;                                                            \
            tb[r] = run(__VA_ARGS__, 1, WMI_RUN_SLOW);                        \
            if (!(ok))                                                        \
                return fprintf(stderr, "%s: wrong result (baseline)\n", name), 1; \
            reset;                                                            \
            tf[r] = run(__VA_ARGS__, 1, 0);                                   \
            if (!(ok))                                                        \
                return fprintf(stderr, "%s: wrong result\n", name), 1;        \
        }                                                                     \
        report(name, tb, tf, reps);                                           \
    } while (0)

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    if (reps < 1 || reps > 50)
        reps = 3;

    printf("one thread, median of %d; rates are M thread-instructions per "
           "CPU second\n\n", reps);
    printf("| kernel             | thr-insts | base CPU  | fast CPU  | fast wall "
           "| base/s | fast/s | speedup |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    /* copy: 4 M floats */
    {
        enum { N = 1 << 22 };
        wm_ptx_module *m = bench_load("bench_ptx", "copy.ptx");
        float *in = malloc(N * 4), *out = calloc(N, 4);
        for (int i = 0; i < N; i++)
            in[i] = (float)i;
        wm_ptx_arg a[3] = {buf(out, N * 4), buf(in, N * 4), i32(N)};
        BENCH("copy 4M", memset(out, 0, N * 4), memcmp(in, out, N * 4) == 0,
              m, "copy_f32", N / 256, 1, 256, 1, a, 3);
        free(in);
        free(out);
        wm_ptx_free(m);
    }
    /* naive transpose 2048 x 2048 */
    {
        enum { N = 2048 };
        wm_ptx_module *m = bench_load("bench_ptx", "transpose.ptx");
        float *in = malloc((size_t)N * N * 4), *out = calloc((size_t)N * N, 4);
        for (int i = 0; i < N * N; i++)
            in[i] = (float)i;
        wm_ptx_arg a[4] = {buf(out, (size_t)N * N * 4), buf(in, (size_t)N * N * 4),
                           i32(N), i32(N)};
        BENCH("transpose 2048^2", memset(out, 0, (size_t)N * N * 4),
              out[5 * N + 7] == in[7 * N + 5] &&
                  out[(N - 1) * N + 3] == in[3 * N + N - 1],
              m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4);
        free(in);
        free(out);
        wm_ptx_free(m);
    }
    /* reduction of 4 M floats: one partial sum per block */
    {
        enum { N = 1 << 22, NB = N / 256 };
        wm_ptx_module *m = bench_load("bench_ptx", "reduce.ptx");
        float *in = malloc(N * 4), *part = calloc(NB, 4);
        for (int i = 0; i < N; i++)
            in[i] = 1.0f;
        wm_ptx_arg a[3] = {buf(part, NB * 4), buf(in, N * 4), i32(N)};
        BENCH("reduce 4M", memset(part, 0, NB * 4),
              part[0] == 256.0f && part[NB - 1] == 256.0f,
              m, "reduce_sum_f32", NB, 1, 256, 1, a, 3);
        free(in);
        free(part);
        wm_ptx_free(m);
    }
    /* SGEMM 256^3 */
    {
        enum { N = 256 };
        wm_ptx_module *m = bench_load("bench_ptx", "sgemm.ptx");
        float *A = malloc(N * N * 4), *B = malloc(N * N * 4), *C = calloc(N * N, 4);
        for (int i = 0; i < N * N; i++) {
            A[i] = 1.0f;
            B[i] = 2.0f;
        }
        wm_ptx_arg a[6] = {buf(C, N * N * 4), buf(A, N * N * 4), buf(B, N * N * 4),
                           i32(N), i32(N), i32(N)};
        BENCH("sgemm 256^3", memset(C, 0, N * N * 4),
              C[17] == 2.0f * N && C[N * N - 1] == 2.0f * N,
              m, "sgemm_tiled", N / 16, N / 16, 16, 16, a, 6);
        free(A);
        free(B);
        free(C);
        wm_ptx_free(m);
    }
    /* the lesson's 8192 x 8192 transposed copy, full grid */
    {
        enum { N = 8192 };
        wm_ptx_module *m = bench_load("bench_ptx", "transpose.ptx");
        float *in = malloc((size_t)N * N * 4), *out = calloc((size_t)N * N, 4);
        for (size_t i = 0; i < (size_t)N * N; i++)
            in[i] = (float)(i & 0xffff);
        wm_ptx_arg a[4] = {buf(out, (size_t)N * N * 4), buf(in, (size_t)N * N * 4),
                           i32(N), i32(N)};
        /* fault the output's pages in now, so no run pays for that */
        memset(out, 0, (size_t)N * N * 4);
        timing base = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 1,
                          WMI_RUN_SLOW);
        timing t1 = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 1, 0);
        timing t2 = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 2, 0);
        timing tn = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 0, 0);
        if (out[(size_t)5 * N + 7] != in[(size_t)7 * N + 5] ||
            out[(size_t)(N - 1) * N + 1] != in[(size_t)1 * N + N - 1])
            return fprintf(stderr, "transpose 8192: wrong result\n"), 1;
        if (!same_stats(&base, &t1) || !same_stats(&t1, &t2) ||
            !same_stats(&t1, &tn))
            return fprintf(stderr, "transpose 8192: statistics differ\n"), 1;
        printf("\ntranspose 8192^2 full grid (%.2f G thread-insts):\n",
               (double)t1.ti / 1e9);
        printf("| run | CPU | wall | M thread-insts/CPU s |\n|---|---|---|---|\n");
        printf("| baseline, -j 1 | %.2f s | %.2f s | %.0f |\n", base.cpu,
               base.wall, (double)base.ti / base.cpu / 1e6);
        printf("| fast, -j 1 | %.2f s | %.2f s | %.0f |\n", t1.cpu, t1.wall,
               (double)t1.ti / t1.cpu / 1e6);
        printf("| fast, -j 2 | %.2f s | %.2f s | %.0f |\n", t2.cpu, t2.wall,
               (double)t2.ti / t2.cpu / 1e6);
        printf("| fast, all cores | %.2f s | %.2f s | %.0f |\n", tn.cpu,
               tn.wall, (double)tn.ti / tn.cpu / 1e6);
        printf("speedup over baseline (CPU, -j 1): %.2fx; -j 2 wall scaling "
               "%.2fx, all cores %.2fx\n",
               base.cpu / t1.cpu, t1.wall / t2.wall, t1.wall / tn.wall);
        free(in);
        free(out);
        wm_ptx_free(m);
    }
    return 0;
}
