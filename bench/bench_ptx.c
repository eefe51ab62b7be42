/*
 * bench_ptx.c -- speed of the PTX interpreter on the example kernels:
 * thread-instructions per second on one thread for copy, naive transpose,
 * reduction and tiled SGEMM (statistics on), then the lesson's 8192 x 8192
 * transposed copy on one thread and on all cores, printing the wall times
 * and the parallel speedup against the one-thread run of the same process.
 * Results are validated before a time counts (each kernel's output is
 * checked).  Usage: bench_ptx [repeats]   (median of repeats, default 3)
 */
#define _POSIX_C_SOURCE 200809L
#include "warpmem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static wm_ptx_module *load(const char *name)
{
    char path[2048];
    const char *here = __FILE__;
    const char *slash = strrchr(here, '/');
    int dl = slash ? (int)(slash - here) : 0;
    snprintf(path, sizeof path, "%.*s%s../examples/kernels/sm_80/%s", dl, here,
             dl ? "/" : "", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_ptx: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *src = malloc((size_t)n + 1);
    if (!src || fread(src, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    fclose(f);
    wm_ptx_module *m;
    wm_diag d;
    if (wm_ptx_parse(src, (size_t)n, path, &m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, path, src, (size_t)n);
        exit(1);
    }
    free(src);
    return m;
}

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

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Run once; returns seconds, thread instructions in *ti. */
static double run(const wm_ptx_module *m, const char *kernel, unsigned gx,
                  unsigned gy, unsigned bx, unsigned by, wm_ptx_arg *args,
                  size_t nargs, unsigned threads, uint64_t *ti)
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
    double t0 = now_s();
    wm_status st = wm_ptx_run(m, (size_t)wm_ptx_find_kernel(m, kernel), &l, g,
                              &res, &ft);
    double t = now_s() - t0;
    wm_agg_free(g);
    if (st != WM_OK) {
        fprintf(stderr, "bench_ptx: %s failed: %s\n", kernel, ft.msg);
        exit(1);
    }
    *ti = res.thread_insts;
    return t;
}

static void report(const char *name, double *t, int reps, uint64_t ti)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_d);
    printf("%-22s %12llu thread-insts  median %7.3f s  (min %.3f, max %.3f)  "
           "%7.1f M thread-insts/s\n",
           name, (unsigned long long)ti, t[reps / 2], t[0], t[reps - 1],
           (double)ti / t[reps / 2] / 1e6);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    if (reps < 1 || reps > 50)
        reps = 3;
    double t[50];
    uint64_t ti = 0;

    /* copy: 4 M floats */
    {
        enum { N = 1 << 22 };
        wm_ptx_module *m = load("copy.ptx");
        float *in = malloc(N * 4), *out = calloc(N, 4);
        for (int i = 0; i < N; i++)
            in[i] = (float)i;
        wm_ptx_arg a[3] = {buf(out, N * 4), buf(in, N * 4), i32(N)};
        for (int r = 0; r < reps; r++)
            t[r] = run(m, "copy_f32", N / 256, 1, 256, 1, a, 3, 1, &ti);
        if (memcmp(in, out, N * 4) != 0)
            return fprintf(stderr, "copy: wrong result\n"), 1;
        report("copy 4M (1 thread)", t, reps, ti);
        free(in);
        free(out);
        wm_ptx_free(m);
    }
    /* naive transpose 2048 x 2048 */
    {
        enum { N = 2048 };
        wm_ptx_module *m = load("transpose.ptx");
        float *in = malloc((size_t)N * N * 4), *out = calloc((size_t)N * N, 4);
        for (int i = 0; i < N * N; i++)
            in[i] = (float)i;
        wm_ptx_arg a[4] = {buf(out, (size_t)N * N * 4), buf(in, (size_t)N * N * 4),
                           i32(N), i32(N)};
        for (int r = 0; r < reps; r++)
            t[r] = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 1, &ti);
        if (out[5 * N + 7] != in[7 * N + 5])
            return fprintf(stderr, "transpose: wrong result\n"), 1;
        report("transpose 2048^2", t, reps, ti);
        free(in);
        free(out);
        wm_ptx_free(m);
    }
    /* reduction of 4 M floats: one partial sum per block */
    {
        enum { N = 1 << 22, NB = N / 256 };
        wm_ptx_module *m = load("reduce.ptx");
        float *in = malloc(N * 4), *part = calloc(NB, 4);
        for (int i = 0; i < N; i++)
            in[i] = 1.0f;
        wm_ptx_arg a[3] = {buf(part, NB * 4), buf(in, N * 4), i32(N)};
        for (int r = 0; r < reps; r++)
            t[r] = run(m, "reduce_sum_f32", NB, 1, 256, 1, a, 3, 1, &ti);
        if (part[0] != 256.0f || part[NB - 1] != 256.0f)
            return fprintf(stderr, "reduce: wrong result %g\n", (double)part[0]), 1;
        report("reduce 4M", t, reps, ti);
        free(in);
        free(part);
        wm_ptx_free(m);
    }
    /* SGEMM 256^3 */
    {
        enum { N = 256 };
        wm_ptx_module *m = load("sgemm.ptx");
        float *A = malloc(N * N * 4), *B = malloc(N * N * 4), *C = calloc(N * N, 4);
        for (int i = 0; i < N * N; i++) {
            A[i] = 1.0f;
            B[i] = 2.0f;
        }
        wm_ptx_arg a[6] = {buf(C, N * N * 4), buf(A, N * N * 4), buf(B, N * N * 4),
                           i32(N), i32(N), i32(N)};
        for (int r = 0; r < reps; r++)
            t[r] = run(m, "sgemm_tiled", N / 16, N / 16, 16, 16, a, 6, 1, &ti);
        if (C[17] != 2.0f * N)
            return fprintf(stderr, "sgemm: wrong result %g\n", (double)C[17]), 1;
        report("sgemm 256^3", t, reps, ti);
        free(A);
        free(B);
        free(C);
        wm_ptx_free(m);
    }
    /* the lesson's 8192 x 8192 transposed copy, full grid */
    {
        enum { N = 8192 };
        wm_ptx_module *m = load("transpose.ptx");
        float *in = malloc((size_t)N * N * 4), *out = calloc((size_t)N * N, 4);
        for (size_t i = 0; i < (size_t)N * N; i++)
            in[i] = (float)(i & 0xffff);
        wm_ptx_arg a[4] = {buf(out, (size_t)N * N * 4), buf(in, (size_t)N * N * 4),
                           i32(N), i32(N)};
        double t1 = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 1, &ti);
        double tn = run(m, "transpose_naive", N / 32, N / 8, 32, 8, a, 4, 0, &ti);
        if (out[(size_t)5 * N + 7] != in[(size_t)7 * N + 5])
            return fprintf(stderr, "transpose 8192: wrong result\n"), 1;
        printf("transpose 8192^2 full grid: 1 thread %.2f s (%.1f M thread-insts/s), "
               "all cores %.2f s, speedup %.2fx\n",
               t1, (double)ti / t1 / 1e6, tn, t1 / tn);
        free(in);
        free(out);
        wm_ptx_free(m);
    }
    return 0;
}
