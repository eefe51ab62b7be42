/*
 * bench_expr.c -- speed of `warpmem expr` on every program of examples/expr
 * at the size it is written for (8192 x 8192 for the copies and
 * transposes), each figure beside baselines run in the same process on the
 * same program:
 *   - closed form: wm_expr_run as `warpmem expr` calls it, affine
 *     statements counted per warp in closed form (expr_closed.c);
 *   - per access: the same wm_expr_run made to form, count and aggregate
 *     every warp access (a no-op tap on the aggregator, as the hierarchy
 *     model's recorder forces): the path it took before the closed form;
 *   - evaluation floor: every warp access formed by the compiled evaluator
 *     and handed to a sink that does nothing -- what any method that forms
 *     each access pays before counting one;
 * and, on a 256 x 16 sub-grid of the transposed copy, the compiled
 * evaluator against the per-thread reference (expr_ref.c).
 *
 * In every repeat the closed form and the per-access run must agree on
 * every statement's sums and histogram, and the evaluation floor must
 * form as many accesses as they count, or the benchmark stops before its
 * row is printed.  The three run in turn, so a change of load hits each
 * alike.  Figures are CPU time of this single-threaded process: the
 * median (and minimum) of the repeats.  The machine and its load average
 * are printed first and last.
 *
 * Usage: bench_expr [repeats [substring]]   (default 3; the substring picks
 * programs by file name)
 */
#define _POSIX_C_SOURCE 200809L
#include "expr_int.h"

#include <dirent.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { MAX_REPS = 100, MAX_PROGS = 64 };

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_REPS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return s[n / 2];
}

static double minimum(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

/* The machine and its load, so figures are compared on the same ones. */
static void print_machine(const char *when)
{
    char model[256] = "unknown", load[64] = "unknown", line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            const char *p = strchr(line, ':');
            snprintf(model, sizeof model, "%.200s", p ? p + 2 : line);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    f = fopen("/proc/loadavg", "r");
    if (f && fgets(line, sizeof line, f))
        snprintf(load, sizeof load, "%.14s", line);
    if (f)
        fclose(f);
    printf("machine: %s, %ld cores online; load average %s (%s)\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), load, when);
}

/* The programs' directory, found from this file's path. */
static void examples_dir(char *out, size_t n)
{
    const char *here = __FILE__, *slash = strrchr(here, '/');
    int dl = slash ? (int)(slash - here) : 0;
    snprintf(out, n, "%.*s%s../examples/expr", dl, here, dl ? "/" : "");
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .expr files of dir whose names contain sub, sorted; returns how
 * many (names malloc'd). */
static int list_programs(const char *dir, const char *sub, char **names)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && n < MAX_PROGS && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len > 5 && strcmp(de->d_name + len - 5, ".expr") == 0 &&
            strstr(de->d_name, sub))
            names[n++] = strdup(de->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    return n;
}

static wm_expr *load_program(const char *path)
{
    size_t n;
    char *src = wm_read_file(path, &n);
    wm_expr *e = wm_expr_new();
    wm_diag d;
    if (!src || !e || wm_expr_parse(e, src, n, path, &d) != WM_OK) {
        fprintf(stderr, "bench_expr: cannot load %s\n", path);
        exit(1);
    }
    free(src);
    return e;
}

/* A tap that only makes the aggregator's user see every access. */
static wm_status no_tap(void *ud, const wm_access *a, const wm_counts *c)
{
    (void)ud;
    (void)a;
    (void)c;
    return WM_OK;
}

/* Sink of the evaluation floor: counts accesses, folds two addresses so
 * nothing is elided. */
typedef struct tally {
    uint64_t n, hash;
} tally;

static wm_status tally_sink(void *ctx, const wm_access *a,
                            const wm_expr_where *w)
{
    tally *t = ctx;
    (void)w;
    t->n++;
    t->hash = t->hash * 31 + a->mask + a->addr[0] + a->addr[1];
    return WM_OK;
}

/* wm_expr_run, per access (tap) or in closed form; *g is the result. */
static double time_run(wm_expr *e, int per_access, wm_agg **g)
{
    *g = wm_agg_new(wm_arch_default());
    if (!*g) {
        fprintf(stderr, "bench_expr: out of memory\n");
        exit(1);
    }
    if (per_access)
        wmi_agg_set_tap(*g, no_tap, NULL);
    double t0 = cpu_now();
    wm_status st = wm_expr_run(e, *g, 0, NULL);
    double dt = cpu_now() - t0;
    if (st != WM_OK) {
        fprintf(stderr, "bench_expr: run failed: %s\n", wm_status_str(st));
        exit(1);
    }
    return dt;
}

static double time_walk(const wm_expr *e, int reference, tally *t)
{
    memset(t, 0, sizeof *t);
    double t0 = cpu_now();
    wm_status st = wmi_expr_walk(e, wm_arch_default(), reference,
                                 WM_EXPR_DEFAULT_LIMIT, tally_sink, t, NULL);
    double dt = cpu_now() - t0;
    if (st != WM_OK) {
        fprintf(stderr, "bench_expr: walk failed: %s\n", wm_status_str(st));
        exit(1);
    }
    return dt;
}

/* Every statement's sums and histogram equal; returns the accesses. */
static uint64_t same_totals(const char *name, const wm_agg *a, const wm_agg *b)
{
    uint64_t n = 0;
    int same = wm_agg_nsites(a) == wm_agg_nsites(b);
    for (size_t i = 0; same && i < wm_agg_nsites(a); i++) {
        wm_site x, y;
        wm_agg_site(a, i, &x);
        wm_agg_site(b, i, &y);
        same = memcmp(&x.stats, &y.stats, sizeof x.stats) == 0 &&
               memcmp(wmi_agg_site_hist(a, i), wmi_agg_site_hist(b, i),
                      (WM_HIST_MAX + 1) * sizeof(uint32_t)) == 0;
        n += x.stats.inst_all;
    }
    if (!same) {
        fprintf(stderr, "bench_expr: %s: closed form and per-access totals "
                        "differ\n", name);
        exit(1);
    }
    return n;
}

/* One program: validate, then the three paths in turn; one table row. */
static void bench_program(const char *dir, const char *name, int reps)
{
    char path[1200];
    snprintf(path, sizeof path, "%.1000s/%.190s", dir, name);
    wm_expr *e = load_program(path);
    double closed[MAX_REPS], each[MAX_REPS], evalf[MAX_REPS];
    wm_agg *gc, *ga;
    tally t;
    uint64_t n = 0;
    for (int i = 0; i < reps; i++) {
        closed[i] = time_run(e, 0, &gc);
        each[i] = time_run(e, 1, &ga);
        evalf[i] = time_walk(e, 0, &t);
        n = same_totals(name, gc, ga);
        wm_agg_free(gc);
        wm_agg_free(ga);
        if (t.n != n) {
            fprintf(stderr, "bench_expr: %s: %llu accesses formed, %llu "
                            "counted\n", name, (unsigned long long)t.n,
                    (unsigned long long)n);
            exit(1);
        }
    }
    double c = median(closed, reps), a = median(each, reps);
    double f = median(evalf, reps);
    printf("| %s | %llu | %.3f (%.3f) | %.1f (%.1f) | %.1f (%.1f) | %.0fx | "
           "%.0fx |\n",
           name, (unsigned long long)n, 1e3 * c, 1e3 * minimum(closed, reps),
           1e3 * a, 1e3 * minimum(each, reps), 1e3 * f,
           1e3 * minimum(evalf, reps), a / c, f / c);
    fflush(stdout);
    wm_expr_free(e);
}

/* Compiled against the per-thread reference on a 256 x 16 sub-grid of
 * the transposed copy, after checking that both form the same accesses. */
static void bench_reference(const char *dir, int reps)
{
    char path[1200];
    snprintf(path, sizeof path, "%.1000s/transposed_copy.expr", dir);
    wm_expr *e = load_program(path);
    static const unsigned sub[3] = {256, 16, 1};
    wm_expr_set_launch(e, sub, NULL);
    double fast[MAX_REPS], ref[MAX_REPS];
    tally tf, tr;
    for (int i = 0; i < reps; i++) {
        fast[i] = time_walk(e, 0, &tf);
        ref[i] = time_walk(e, 1, &tr);
        if (tf.n != tr.n || tf.hash != tr.hash) {
            fprintf(stderr, "bench_expr: compiled and reference paths "
                            "disagree\n");
            exit(1);
        }
    }
    double fs = median(fast, reps), rf = median(ref, reps);
    printf("transposed copy, sub-grid 256 x 16 (%llu accesses): compiled "
           "evaluator %.4f s, per-thread reference %.4f s: reference / "
           "compiled %.1fx\n",
           (unsigned long long)tf.n, fs, rf, rf / fs);
    wm_expr_free(e);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    const char *sub = argc > 2 ? argv[2] : "";
    if (reps < 1 || reps > MAX_REPS)
        reps = 3;
    char dir[1024], *names[MAX_PROGS];
    examples_dir(dir, sizeof dir);
    int n = list_programs(dir, sub, names);
    if (n == 0) {
        fprintf(stderr, "bench_expr: no program in %s matches '%s'\n", dir,
                sub);
        return 1;
    }
    print_machine("start");
    printf("examples/expr, CPU ms in one process, median (min) of %d; "
           "each row checked (closed form = per access) before it is "
           "printed\n\n",
           reps);
    printf("| program | accesses | closed form | per access | evaluation "
           "floor | per access / closed | floor / closed |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        bench_program(dir, names[i], reps);
        free(names[i]);
    }
    printf("\n");
    bench_reference(dir, reps);
    print_machine("end");
    return 0;
}
