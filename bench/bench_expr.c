/*
 * bench_expr.c -- speed of `warpmem expr` on the lesson's 8192 x 8192
 * transposed copy (2-D blocks of 32 x 8, one element per thread: 2 M warps,
 * each with a strided load and a coalesced store).
 *
 * Prints, all measured in this process as CPU time (median of several
 * runs):
 *   - the full grid through wm_expr_run (evaluate + wm_count + aggregate),
 *     the figure the 1-second target is about;
 *   - evaluation alone (compiled path, null sink) on the full grid;
 *   - compiled vs per-thread reference evaluator on the same sub-grid,
 *     after checking that both form identical accesses.
 * Usage: bench_expr [repeats]   (default 5)
 */
#define _POSIX_C_SOURCE 200809L
#include "expr_int.h"

#include <stdio.h>
#include <time.h>

static const char program[] =
    "# the lesson's transposed copy: out[r][c] = in[c][r]\n"
    "const N = 8192\n"
    "block 32, 8\n"
    "grid N/32, N/8\n"
    "load  global f32 in[N][N]  at [ctaid.x*32 + tid.x][ctaid.y*8 + tid.y]\n"
    "store global f32 out[N][N] at [ctaid.y*8 + tid.y][ctaid.x*32 + tid.x]\n";

/*
 * CPU time of this (single-threaded) process: the figure for "one core",
 * and steady on a shared machine where wall time depends on the load.
 */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* Null sink: counts accesses and folds addresses so nothing is elided. */
typedef struct tally {
    uint64_t n, hash;
} tally;

static wm_status tally_sink(void *ctx, const wm_access *a,
                            const wm_expr_where *w)
{
    tally *t = ctx;
    (void)w;
    t->n++;
    t->hash = t->hash * 31 + a->mask + a->addr[0] + a->addr[31];
    return WM_OK;
}

static wm_expr *load(const unsigned *grid)
{
    wm_expr *e = wm_expr_new();
    wm_diag d;
    if (!e || wm_expr_parse(e, program, sizeof program - 1, "bench", &d) !=
                  WM_OK) {
        fprintf(stderr, "bench_expr: parse failed: %s\n", d.msg);
        exit(1);
    }
    if (grid)
        wm_expr_set_launch(e, grid, NULL);
    return e;
}

static double time_walk(const wm_expr *e, int reference, tally *t)
{
    memset(t, 0, sizeof *t);
    double t0 = now();
    wm_status st = wmi_expr_walk(e, wm_arch_default(), reference, UINT64_MAX,
                                 tally_sink, t, NULL);
    double dt = now() - t0;
    if (st != WM_OK) {
        fprintf(stderr, "bench_expr: walk failed: %s\n", wm_status_str(st));
        exit(1);
    }
    return dt;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    if (reps < 1 || reps > 100)
        reps = 5;
    double full[100], fullwall[100], eval[100], fast[100], ref[100];
    tally tf, tr;

    wm_expr *e = load(NULL);
    uint64_t accesses = 0;
    for (int i = 0; i < reps; i++) {
        wm_agg *g = wm_agg_new(wm_arch_default());
        double t0 = now(), w0 = wall();
        wm_status st = wm_expr_run(e, g, UINT64_MAX, NULL);
        full[i] = now() - t0;
        fullwall[i] = wall() - w0;
        wm_totals tot;
        wm_agg_totals(g, &tot);
        accesses = tot.s[WM_SPACE_GLOBAL][WM_OP_LD].inst_all +
                   tot.s[WM_SPACE_GLOBAL][WM_OP_ST].inst_all;
        wm_agg_free(g);
        if (st != WM_OK || accesses != 2 * 2097152u) {
            fprintf(stderr, "bench_expr: run failed (%s, %llu accesses)\n",
                    wm_status_str(st), (unsigned long long)accesses);
            return 1;
        }
        eval[i] = time_walk(e, 0, &tf);
    }
    wm_expr_free(e);

    /* Reference vs compiled on a 1/64 sub-grid (the reference is slow). */
    static const unsigned sub[3] = {256, 16, 1};
    e = load(sub);
    for (int i = 0; i < reps; i++) {
        fast[i] = time_walk(e, 0, &tf);
        ref[i] = time_walk(e, 1, &tr);
        if (tf.n != tr.n || tf.hash != tr.hash) {
            fprintf(stderr, "bench_expr: compiled and reference paths "
                            "disagree\n");
            return 1;
        }
    }
    wm_expr_free(e);

    double f = median(full, reps), ev = median(eval, reps);
    double fw = median(fullwall, reps);
    double fs = median(fast, reps), rf = median(ref, reps);
    printf("transposed copy 8192x8192, 32x8 blocks: %llu warp accesses "
           "(2 per warp)\n",
           (unsigned long long)accesses);
    printf("  full run (evaluate + count + aggregate)  %8.3f s CPU "
           "(%.1f M accesses/s; wall %.3f s)\n",
           f, (double)accesses / f / 1e6, fw);
    printf("  evaluation only (compiled)               %8.3f s CPU "
           "(%.1f M accesses/s)\n",
           ev, (double)accesses / ev / 1e6);
    printf("  sub-grid 256x16: compiled %.4f s, reference %.4f s -> "
           "compiled is %.1fx faster\n",
           fs, rf, rf / fs);
    return 0;
}
