/*
 * bench_advise.c -- cost of the advisor and the HTML report, as ratios to
 * the model in the same process.
 *
 * The advisor re-runs the model on every candidate fix (remap, align,
 * several pads and swizzles, vectorize), so its cost is reported as
 * "advise / count": how many wm_count() calls one wm_advise() is worth on
 * the same accesses.  The report is timed per site against wm_advise_site.
 * Usage: bench_advise [accesses]   (default 20000)
 */
#define _POSIX_C_SOURCE 200809L
#include "warpmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t state = 0x853c49e6748fea9bull;
static uint64_t rnd(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
}

/* The lesson's shapes: strides 1..64 elements, tiles, random gathers. */
static void make(wm_access *a, unsigned i)
{
    memset(a, 0, sizeof *a);
    a->site = i % 64;
    a->space = i % 2 ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
    a->size = 4;
    a->mask = 0xffffffffu;
    unsigned kind = i % 4;
    uint64_t stride = 1 + rnd() % 64, base = (rnd() % 1024) * 4;
    for (unsigned l = 0; l < 32; l++)
        a->addr[l] = kind == 0   ? base + l * stride * 4
                     : kind == 1 ? base + (l / 8) * 128 + (l % 8) * 4
                     : kind == 2 ? base + l * 4
                                 : (rnd() % 4096) * 4;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000;
    const wm_arch *arch = wm_arch_default();
    wm_access *acc = malloc(n * sizeof *acc);
    if (!acc || n == 0)
        return 1;
    for (unsigned i = 0; i < n; i++)
        make(&acc[i], i);

    /* Validate before timing: every access counts and advises. */
    wm_counts c;
    wm_advice v;
    for (unsigned i = 0; i < n; i++)
        if (wm_count(arch, &acc[i], &c) != WM_OK ||
            wm_advise(arch, &acc[i], &v) != WM_OK) {
            fprintf(stderr, "bench_advise: access %u rejected\n", i);
            return 1;
        }

    double best_count = 1e30, best_advise = 1e30;
    uint64_t sink = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (unsigned i = 0; i < n; i++) {
            wm_count(arch, &acc[i], &c);
            sink += c.sectors + c.wavefronts;
        }
        double t1 = now();
        for (unsigned i = 0; i < n; i++) {
            wm_advise(arch, &acc[i], &v);
            sink += v.nfixes;
        }
        double t2 = now();
        if (t1 - t0 < best_count)
            best_count = t1 - t0;
        if (t2 - t1 < best_advise)
            best_advise = t2 - t1;
    }

    /* Report: 64 sites, each with its accesses. */
    wm_agg *g = wm_agg_new(arch);
    for (unsigned i = 0; i < n; i++)
        wm_agg_add(g, &acc[i], NULL);
    size_t ns = wm_agg_nsites(g);
    wm_totals t;
    wm_agg_totals(g, &t);
    double best_sites = 1e30, best_report = 1e30;
    FILE *devnull = fopen("/dev/null", "w");
    for (int rep = 0; rep < 5 && devnull; rep++) {
        double t0 = now();
        for (size_t i = 0; i < ns; i++) {
            wm_site s;
            wm_agg_site(g, i, &s);
            wm_advise_site(arch, &s, &t, &v);
            sink += v.nfixes;
        }
        double t1 = now();
        wm_html_report(devnull, g, NULL);
        double t2 = now();
        if (t1 - t0 < best_sites)
            best_sites = t1 - t0;
        if (t2 - t1 < best_report)
            best_report = t2 - t1;
    }
    if (devnull)
        fclose(devnull);
    wm_agg_free(g);

    printf("accesses %u (best of 5)\n", n);
    printf("  wm_count          %8.3f us/access\n", 1e6 * best_count / n);
    printf("  wm_advise         %8.3f us/access   advise / count = %.1f\n",
           1e6 * best_advise / n, best_advise / best_count);
    printf("sites %zu\n", ns);
    printf("  wm_advise_site    %8.3f us/site\n", 1e6 * best_sites / (double)ns);
    printf("  wm_html_report    %8.3f us/site    report / advise = %.1f\n",
           1e6 * best_report / (double)ns, best_report / best_sites);
    return sink == 42 ? 2 : 0;
}
