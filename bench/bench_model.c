/*
 * bench_model.c -- warp accesses analysed per second by wm_count, beside a
 * straightforward implementation (sort the lanes' sector ids / bank words,
 * count the distinct ones) run in the same process on the same data.
 * Prints the machine and its load, rates (single thread, thread CPU time;
 * the best pass over the data set, the one least disturbed by other work
 * on the machine, and the median pass), the ratio to the sorting count,
 * and the ratio to the streaming floor -- the rate at which the same lane
 * addresses merely stream from memory, measured in the same process --
 * against its target (0.8 for strided and clustered accesses); it is a
 * benchmark, not a test.  Absolute rates compare only on one machine at
 * one load; the ratios travel further.
 *
 * Usage: bench_model [seconds-per-case [case-number]]   (default 0.5, all)
 */
#define _POSIX_C_SOURCE 200809L
#include "wm_int.h"
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef NACC
#define NACC 32768 /* 17 MiB of accesses: larger than the caches */
#endif

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* CPU time of this thread: steady when other jobs share the machine. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_dbl(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static unsigned distinct_sorted(uint64_t *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    unsigned k = n ? 1 : 0;
    for (unsigned i = 1; i < n; i++)
        k += v[i] != v[i - 1];
    return k;
}

/* The straightforward way: sort sector ids and line ids, count distinct;
 * for shared, per phase sort the words, then count per bank. */
static unsigned naive_count(const wm_arch *arch, const wm_access *a)
{
    uint64_t v[WM_MAX_LANES * 4];
    unsigned n = 0;
    if (a->space != WM_SPACE_SHARED) {
        for (unsigned i = 0; i < arch->warp_size; i++)
            if ((a->mask >> i) & 1u)
                v[n++] = a->addr[i] / arch->sector_bytes;
        unsigned s = distinct_sorted(v, n);
        for (unsigned i = 0; i < n; i++)
            v[i] /= arch->line_bytes / arch->sector_bytes;
        return s + 1000 * distinct_sorted(v, n);
    }
    unsigned wpl = a->size > 4 ? a->size / 4 : 1, plane = 32 / wpl, wf = 0;
    for (unsigned lo = 0; lo < 32; lo += plane) {
        n = 0;
        for (unsigned i = lo; i < lo + plane; i++)
            if ((a->mask >> i) & 1u)
                for (unsigned k = 0; k < wpl; k++)
                    v[n++] = a->addr[i] / 4 + k;
        unsigned d = distinct_sorted(v, n), per[32] = {0}, worst = 0;
        (void)d;
        for (unsigned i = 0; i < n; i++)
            if (i == 0 || v[i] != v[i - 1])
                if (++per[v[i] % 32] > worst)
                    worst = per[v[i] % 32];
        wf += worst;
    }
    return wf;
}

typedef enum { STRIDED, CLUSTERED, RANDOM, SHARED32, SHARED128 } kind;
static const char *kind_name[] = {"global strided", "global clustered",
                                  "global random 64-bit", "shared 32-bit",
                                  "shared 128-bit"};

static void fill(wm_access *acc, kind k)
{
    for (unsigned n = 0; n < NACC; n++) {
        wm_access *a = &acc[n];
        memset(a, 0, sizeof *a);
        a->mask = 0xffffffffu;
        a->space = k >= SHARED32 ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
        a->size = k == SHARED128 ? 16 : 4;
        uint64_t base = (rnd() % (1u << 24)) * 16;
        uint64_t stride = 4 * (1 + rnd() % 40);
        for (unsigned i = 0; i < 32; i++) {
            switch (k) {
            case STRIDED: a->addr[i] = base + i * stride; break;
            case CLUSTERED: /* a 2-D tile walk with jitter, within 8 KB */
                a->addr[i] = base + (i % 8) * 4 + (i / 8) * 1024 +
                             (rnd() % 4) * 256;
                break;
            case RANDOM: a->addr[i] = rnd() & ~(uint64_t)3; break;
            case SHARED32: a->addr[i] = (rnd() % 12288) * 4; break;
            case SHARED128: a->addr[i] = (rnd() % 3072) * 16; break;
            }
        }
    }
}

/* Run over all accesses repeatedly for at least `secs`; warps/s of the
 * fastest pass over the whole set (the best pass is the least disturbed by
 * other work on the machine).
 * mode 0: wm_count; 1: the sort-based count; 2: only read the 32 lane
 * addresses (the memory-streaming floor). */
static double rate(const wm_access *acc, int mode, double secs,
                   uint64_t *sink, double *median)
{
    const wm_arch *arch = wm_arch_default();
    double t0 = now(), best = 1e30, pass[4096];
    unsigned np = 0;
    do {
        double t1 = now();
        for (unsigned n = 0; n < NACC; n++) {
            if (mode == 2) {
                uint64_t x = acc[n].mask;
                for (unsigned i = 0; i < 32; i++)
                    x ^= acc[n].addr[i];
                *sink += x;
            } else if (mode == 1) {
                *sink += naive_count(arch, &acc[n]);
            } else {
                wm_counts c;
                wm_count(arch, &acc[n], &c);
                *sink += c.sectors + c.wavefronts;
            }
        }
        double t = now() - t1;
        best = t < best ? t : best;
        if (np < 4096)
            pass[np++] = t;
    } while (now() - t0 < secs);
    qsort(pass, np, sizeof *pass, cmp_dbl);
    if (median)
        *median = NACC / pass[np / 2];
    return NACC / best;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? strtod(argv[1], NULL) : 0.5;
    wm_access *acc = malloc(NACC * sizeof *acc);
    uint64_t sink = 0;
    if (!acc)
        return 1;
    /* one core, addresses streamed from memory (docs/performance.md):
       wm_count's rate over the streaming floor's */
    static const double target[] = {0.8, 0.8, 0, 0, 0};
    bench_machine("before");
    printf("%-22s %12s %9s %12s %7s %12s %9s %s\n", "case (32 lanes, sm_90)",
           "wm_count M/s", "median", "sorting M/s", "ratio", "stream M/s",
           "/ stream", "target (/ stream)");
    int only = argc > 2 ? atoi(argv[2]) : -1;
    for (unsigned k = STRIDED; k <= SHARED128; k++) {
        if (only >= 0 && (unsigned)only != k)
            continue;
        fill(acc, (kind)k);
        /* Check both agree before timing (the naive global count packs
         * sectors + 1000 * lines). */
        for (unsigned n = 0; n < 256; n++) {
            wm_counts c;
            wm_count(wm_arch_default(), &acc[n], &c);
            unsigned want = acc[n].space == WM_SPACE_SHARED
                                ? c.wavefronts
                                : c.sectors + 1000 * c.tags;
            if (naive_count(wm_arch_default(), &acc[n]) != want) {
                fprintf(stderr, "mismatch in %s\n", kind_name[k]);
                return 1;
            }
        }
        double mfast, fast = rate(acc, 0, secs, &sink, &mfast);
        double slow = rate(acc, 1, secs / 2, &sink, NULL);
        double stream = rate(acc, 2, secs / 2, &sink, NULL);
        char tg[32] = "-";
        if (target[k] > 0)
            snprintf(tg, sizeof tg, ">= %.2f: %s", target[k],
                     fast >= target[k] * stream ? "met" : "not met");
        printf("%-22s %12.1f %9.1f %12.1f %6.1fx %12.1f %9.2f %s\n",
               kind_name[k], fast / 1e6, mfast / 1e6, slow / 1e6, fast / slow,
               stream / 1e6, fast / stream, tg);
    }
    bench_machine("after");
    free(acc);
    return sink == 42 ? 2 : 0;
}
