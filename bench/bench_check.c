/*
 * bench_check.c -- the cost of `warpmem run --check` on the example
 * kernels: each kernel runs plain (statistics on, one thread), with the
 * race and init trackers (--check race,init without the second schedule),
 * with everything --check all does (the trackers, then the reversed
 * schedule's run and the comparison unless the tracked run proves the
 * outputs equal: the "proved" column), and with --check all,schedules
 * (the second run always).  Every run's output is validated and every
 * checked run must find nothing (the examples are race-free).
 * Usage: bench_check [repeats [kernel [mode]]]: the median CPU time of
 * repeats (default 3), the four modes run in turn repeats times (each
 * after an untimed run of its own), and the median of each repeat's ratio
 * to its plain run; only the kernels whose name contains kernel; with mode
 * (plain, trackers, all or compared) only that mode's runs, nothing
 * printed (a process to profile).
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_s(void)
{
    return bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* One benchmark case: a kernel, its grid and up to 6 arguments. */
typedef struct bcase {
    const char *name, *file, *kernel;
    unsigned grid[2], block[2];
    size_t nargs;
    size_t bytes[6]; /* buffer bytes, 0 for a scalar */
    uint32_t scalar[6];
    int (*ok)(float *const *b);
} bcase;

static int ok_copy(float *const *b)
{
    return b[0][12345] == b[1][12345] && b[0][0] == b[1][0];
}

static int ok_transpose(float *const *b)
{
    return b[0][5 * 512 + 7] == b[1][7 * 512 + 5];
}

static int ok_reduce(float *const *b)
{
    return b[0][0] == 256.0f * 255.0f / 2.0f;
}

static int ok_sgemm(float *const *b)
{
    /* A[i][k] = i * 128 + k (iota), B = iota: C[0][0] = sum k * 128 k */
    double s = 0;
    for (int k = 0; k < 128; k++)
        s += (double)k * (k * 128);
    double d = (double)b[0][0] - s;
    return (d < 0 ? -d : d) <= 1e-5 * s; /* float accumulation */
}

static int ok_stencil(float *const *b)
{
    (void)b;
    return 1; /* validated by the tests; here only that it ran */
}

static int ok_hist(float *const *b)
{
    const uint32_t *h = (const uint32_t *)(const void *)b[0];
    uint64_t s = 0;
    for (int i = 0; i < 256; i++)
        s += h[i];
    return s == 1u << 18;
}

static const bcase cases[] = {
    {"copy 1M", "copy.ptx", "copy_f32", {4096, 1}, {256, 1}, 3,
     {1 << 22, 1 << 22, 0}, {0, 0, 1 << 20}, ok_copy},
    {"transpose naive 512^2", "transpose.ptx", "transpose_naive", {16, 64},
     {32, 8}, 4, {1 << 20, 1 << 20, 0, 0}, {0, 0, 512, 512}, ok_transpose},
    {"transpose tiled 512^2", "transpose.ptx", "transpose_tiled", {16, 16},
     {32, 8}, 4, {1 << 20, 1 << 20, 0, 0}, {0, 0, 512, 512}, ok_transpose},
    {"reduce 1M", "reduce.ptx", "reduce_sum_f32", {4096, 1}, {256, 1}, 3,
     {4096 * 4, 1 << 22, 0}, {0, 0, 1 << 20}, ok_reduce},
    {"sgemm 128^3", "sgemm.ptx", "sgemm_tiled", {8, 8}, {16, 16}, 6,
     {1 << 16, 1 << 16, 1 << 16, 0, 0, 0}, {0, 0, 0, 128, 128, 128},
     ok_sgemm},
    {"stencil 512^2", "stencil.ptx", "stencil5_f32", {16, 64}, {32, 8}, 6,
     {1 << 20, 1 << 20, 0, 0, 0, 0}, {0, 0, 512, 512, 0x3f000000, 0x3e000000},
     ok_stencil},
    {"histogram 256K", "histogram.ptx", "histogram_u8", {256, 1}, {256, 1}, 3,
     {1024, 1 << 18, 0}, {0, 0, 1 << 18}, ok_hist},
};

/* One run of c with checks (0: none); returns CPU seconds, exits on a
   wrong result or a hazard; *proved (may be NULL): whether the schedule
   comparison's second run was left out. */
static double run(const bcase *c, const wm_ptx_module *m, unsigned checks,
                  int *proved)
{
    float *b[6] = {0};
    wm_ptx_arg a[6];
    memset(a, 0, sizeof a);
    for (size_t i = 0; i < c->nargs; i++) {
        if (!c->bytes[i]) {
            a[i].scalar = c->scalar[i];
            a[i].size = 4;
            continue;
        }
        b[i] = malloc(c->bytes[i]);
        if (!b[i])
            exit(1);
        /* every byte written, as the CLI fills its buffers: the output
           (argument 0) with 0xff bytes (NaN), which ok() would see where
           the kernel wrote nothing, the histogram's with 0 */
        if (i == 0)
            memset(b[i], strcmp(c->kernel, "histogram_u8") == 0 ? 0 : 0xff,
                   c->bytes[i]);
        else if (strcmp(c->kernel, "histogram_u8") == 0)
            for (size_t k = 0; k < c->bytes[i]; k++)
                ((unsigned char *)b[i])[k] = (unsigned char)(k * 7);
        else if (strcmp(c->kernel, "reduce_sum_f32") == 0)
            for (size_t k = 0; k < c->bytes[i] / 4; k++)
                b[i][k] = (float)(k % 256);
        else
            for (size_t k = 0; k < c->bytes[i] / 4; k++)
                b[i][k] = (float)k;
        a[i].buf = b[i];
        a[i].bytes = c->bytes[i];
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = c->grid[0];
    l.grid[1] = c->grid[1];
    l.grid[2] = 1;
    l.block[0] = c->block[0];
    l.block[1] = c->block[1];
    l.block[2] = 1;
    l.args = a;
    l.nargs = c->nargs;
    l.threads = 1;
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = checks;
    l.check = checks ? &chk : NULL;
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_ptx_fault ft;
    double t0 = cpu_s();
    wm_status st = wm_ptx_run(m, (size_t)wm_ptx_find_kernel(m, c->kernel), &l,
                              g, NULL, &ft);
    double t = cpu_s() - t0;
    if (st != WM_OK || !c->ok(b) || chk.nhazards || chk.differs) {
        fprintf(stderr, "bench_check: %s: %s\n", c->name,
                st != WM_OK ? ft.msg : chk.nhazards ? "hazards found"
                                     : chk.differs ? "schedules differ"
                                                   : "wrong result");
        exit(1);
    }
    if (proved)
        *proved = chk.proved;
    wm_ptx_check_clear(&chk);
    wm_agg_free(g);
    for (size_t i = 0; i < 6; i++)
        free(b[i]);
    return t;
}

/* The modes: plain, the trackers alone, --check all (the second
   schedule's run left out where the first proves it equal), and --check
   all,schedules (the second run always). */
#define NMODES 4
static const char *const mode_names[NMODES] = {"plain", "trackers", "all",
                                               "compared"};
static const unsigned mode_bits[NMODES] = {
    0, WM_CHECK_RACE | WM_CHECK_INIT,
    WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES | WM_CHECK_PROVE,
    WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES};

/* The modes of c, reps times in turn (a change of the machine's load
   falls on all alike), each timed run after an untimed one of its mode
   (which leaves the allocator as that mode leaves it, not as the mode
   before): the median time of each into t[], the median of the reps'
   ratios to their plain run into x[] (x[0] = 1). */
static void measure(const bcase *c, const wm_ptx_module *m, int reps,
                    double t[NMODES], double x[NMODES], int *proved)
{
    double s[NMODES][50], r[NMODES][50];
    for (int i = 0; i < reps; i++) {
        for (int j = 0; j < NMODES; j++) {
            run(c, m, mode_bits[j], NULL); /* untimed: the mode's own
                                              memory state */
            s[j][i] = run(c, m, mode_bits[j], j == 2 ? proved : NULL);
        }
        for (int j = 0; j < NMODES; j++)
            r[j][i] = s[j][i] / s[0][i];
    }
    for (int j = 0; j < NMODES; j++) {
        t[j] = median(s[j], reps);
        x[j] = median(r[j], reps);
    }
}

/* The checks of a mode's name; -1 for another. */
static long mode_checks(const char *mode)
{
    for (int j = 0; j < NMODES; j++)
        if (strcmp(mode, mode_names[j]) == 0)
            return mode_bits[j];
    return -1;
}

/* Run the kernels matching only in one mode, reps times each. */
static int profile(int reps, const char *only, const char *mode)
{
    long checks = mode_checks(mode);
    if (checks < 0) {
        fprintf(stderr, "bench_check: unknown mode '%s'\n", mode);
        return 2;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!strstr(cases[i].name, only))
            continue;
        wm_ptx_module *m = bench_load("bench_check", cases[i].file);
        for (int r = 0; r < reps; r++)
            run(&cases[i], m, (unsigned)checks, NULL);
        wm_ptx_free(m);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    const char *only = argc > 2 ? argv[2] : "";
    if (reps < 1 || reps > 50)
        reps = 3;
    if (argc > 3)
        return profile(reps, only, argv[3]);
    printf("one thread, statistics on, median CPU time of %d (the modes "
           "in turn; x: the median of the reps' ratios)\n\n",
           reps);
    printf("| kernel | plain | race,init trackers | x | --check all | x "
           "| proved | all,schedules | x |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bcase *c = &cases[i];
        if (!strstr(c->name, only))
            continue;
        wm_ptx_module *m = bench_load("bench_check", c->file);
        double t[NMODES], x[NMODES];
        int proved = 0;
        measure(c, m, reps, t, x, &proved);
        printf("| %s | %.3f s | %.3f s | %.2f | %.3f s | %.2f | %s | %.3f s "
               "| %.2f |\n", c->name, t[0], t[1], x[1], t[2], x[2],
               proved ? "yes" : "no", t[3], x[3]);
        wm_ptx_free(m);
    }
    return 0;
}
