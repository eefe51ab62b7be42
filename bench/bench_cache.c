/*
 * bench_cache.c -- the cost of `warpmem run --cache`: each example kernel
 * runs plain (statistics on, one thread, as `warpmem run -j 1`) and with
 * the L1/L2/DRAM model fed as the run goes on (H200, the launch's
 * occupancy), the two in turn, repeats times; it prints the median CPU
 * time of each and the median of the per-pair ratios, the figure the
 * model's cost is held to (docs/performance.md, "The hierarchy model's
 * cost").  Both runs must give the same result; the model's DRAM bytes
 * must cover every byte the kernel reads and writes once.
 * Usage: bench_cache [repeats] [name-substring]   (default 5)
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One case: a kernel of examples/kernels/sm_80, its launch and up to 6
 * arguments (a buffer of bytes[i] bytes, or the scalar). */
typedef struct bcase {
    const char *name, *file, *kernel;
    unsigned grid[2], block[2];
    size_t nargs;
    size_t bytes[6];
    uint32_t scalar[6];
    unsigned out; /* the argument the kernel writes */
} bcase;

#define MB8 ((size_t)8 << 20)
static const bcase cases[] = {
    {"copy 8M", "copy.ptx", "copy_f32", {32768, 1}, {256, 1}, 3,
     {4 * MB8, 4 * MB8, 0}, {0, 0, 1u << 23}, 0},
    {"transpose naive 8192^2", "transpose.ptx", "transpose_naive",
     {256, 1024}, {32, 8}, 4, {4 * MB8 * 8, 4 * MB8 * 8, 0, 0},
     {0, 0, 8192, 8192}, 0},
    {"transpose tiled 4096^2", "transpose.ptx", "transpose_tiled",
     {128, 128}, {32, 8}, 4, {4 * MB8 * 2, 4 * MB8 * 2, 0, 0},
     {0, 0, 4096, 4096}, 0},
    {"stencil 2048^2", "stencil.ptx", "stencil5_f32", {64, 256}, {32, 8}, 6,
     {4u << 22, 4u << 22, 0, 0, 0, 0},
     {0, 0, 2048, 2048, 0x3f000000, 0x3e000000}, 0}, /* 0.5f, 0.125f */
    {"reduce 16M", "reduce.ptx", "reduce_sum_f32", {65536, 1}, {256, 1}, 3,
     {4u << 16, 4u << 24, 0}, {0, 0, 1u << 24}, 0},
    {"sgemm tiled 512^3", "sgemm.ptx", "sgemm_tiled", {32, 32}, {16, 16}, 6,
     {4u << 18, 4u << 18, 4u << 18, 0, 0, 0}, {0, 0, 0, 512, 512, 512}, 0},
};

static double cpu_s(void)
{
    return bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* One run of c (with the model when cached); CPU seconds; *sum: a
 * checksum of the output, *dram: the model's DRAM bytes (0 without it). */
static double run(const bcase *c, const wm_ptx_module *m, int cached,
                  double *sum, double *dram)
{
    float *b[6] = {0};
    wm_ptx_arg a[6];
    memset(a, 0, sizeof a);
    size_t nargs = c->nargs;
    for (size_t i = 0; i < nargs; i++) {
        if (!c->bytes[i]) {
            a[i].scalar = c->scalar[i];
            a[i].size = 4;
            continue;
        }
        b[i] = malloc(c->bytes[i]);
        if (!b[i])
            exit(1);
        for (size_t k = 0; k < c->bytes[i] / 4; k++)
            b[i][k] = (float)(k & 0xffff);
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
    l.nargs = nargs;
    l.threads = 1;
    wm_cache *cache = NULL;
    size_t k = (size_t)wm_ptx_find_kernel(m, c->kernel);
    double t0 = cpu_s();
    if (cached) {
        wm_cache_config cfg;
        if (wm_cache_config_init(&cfg, wm_gpu_find("H200"),
                                 (uint64_t)c->block[0] * c->block[1],
                                 wm_ptx_kernel_smem(m, k, 0)) != WM_OK ||
            !(cache = wm_cache_new(&cfg)))
            exit(1);
        l.cache = cache;
    }
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, k, &l, g, NULL, &ft);
    double t = cpu_s() - t0;
    if (st != WM_OK) {
        fprintf(stderr, "bench_cache: %s: %s\n", c->name, ft.msg);
        exit(1);
    }
    double s = 0;
    for (size_t i = 0; i < c->bytes[c->out] / 4; i += 4099)
        s += (double)b[c->out][i];
    *sum = s;
    *dram = 0;
    if (cache) {
        wm_cache_stats tot;
        wm_cache_totals(cache, &tot);
        *dram = 32.0 * (double)(tot.dram_rd_sectors + tot.dram_wr_sectors);
        wm_cache_free(cache);
    }
    wm_agg_free(g);
    for (size_t i = 0; i < 6; i++)
        free(b[i]);
    return t;
}

/* Plain and cached in turn reps times; one table row. */
static void bench(const bcase *c, int reps)
{
    wm_ptx_module *m = bench_load("bench_cache", c->file);
    double plain[50], cached[50], ratio[50], s0 = 0, s1 = 0, dram = 0, d;
    for (int r = 0; r < reps; r++) {
        plain[r] = run(c, m, 0, &s0, &d);
        cached[r] = run(c, m, 1, &s1, &dram);
        ratio[r] = cached[r] / plain[r];
        if (s0 != s1) {
            fprintf(stderr, "bench_cache: %s: the model changed the result\n",
                    c->name);
            exit(1);
        }
    }
    double moved = 0; /* each buffer read or written once */
    for (size_t i = 0; i < c->nargs; i++)
        moved += (double)c->bytes[i];
    if (dram < moved) {
        fprintf(stderr, "bench_cache: %s: DRAM bytes %.0f below the %.0f "
                        "the kernel moves\n", c->name, dram, moved);
        exit(1);
    }
    double p = median(plain, reps), q = median(cached, reps);
    double lo = median(ratio, reps), mn = ratio[0], mx = ratio[reps - 1];
    printf("| %s | %.3f s | %.3f s | %.2f (%.2f-%.2f) |\n", c->name, p, q, lo,
           mn, mx);
    wm_ptx_free(m);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    if (reps < 1 || reps > 50)
        reps = 5;
    const char *only = argc > 2 ? argv[2] : NULL;
    FILE *la = fopen("/proc/loadavg", "r");
    char load[64] = "unknown";
    if (la) {
        if (!fgets(load, sizeof load, la))
            strcpy(load, "unknown");
        fclose(la);
        load[strcspn(load, "\n")] = '\0';
    }
    printf("--cache (H200) against a plain run, one thread, statistics on; "
           "CPU time, median of %d pairs run in turn; load %s\n\n",
           reps, load);
    printf("| kernel | plain | --cache | ratio, median of pairs (min-max) "
           "|\n|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!only || strstr(cases[i].name, only))
            bench(&cases[i], reps);
    return 0;
}
