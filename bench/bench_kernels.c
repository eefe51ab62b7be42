/*
 * bench_kernels.c -- the PTX interpreter against native C on the example
 * kernels, in one process, on the same buffers.
 *
 * For each kernel of examples/kernels (the committed sm_80 PTX):
 *   native   the kernel as plain C (native_kernels.c, -O2), CTAs and
 *            threads in the interpreter's order;
 *   interp   wmi_ptx_run on one thread with statistics on (a wm_agg, as
 *            `warpmem run` does), then on two threads;
 *   floor    one read of every input buffer and one write of every
 *            output buffer: the plain memory-streaming cost.
 * The interpreted output must equal the native one bit for bit, and the
 * -j 2 statistics the -j 1 ones, or the benchmark stops.  Times are CPU
 * time of the process (CLOCK_PROCESS_CPUTIME_ID, all threads: steady when
 * other jobs share the machine); each figure is the median (and minimum)
 * of the repeats, the four runs of one repeat back to back.  Printed: the
 * machine and its load, the ratios interp/native and interp/floor,
 * thread-instructions per CPU second, each against its target, and the
 * -j 2 scaling in wall time beside the machine's own: two threads of a
 * plain loop against one, timed right after each -j 2 run (on a machine
 * whose second core other work holds, no -j can scale, and that column
 * says so), and the kernel's floor split between two threads against one
 * thread (what the memory lets two workers gain).
 * Usage: bench_kernels [repeats [name-substring]]   (default 3, all)
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "native_kernels.h"
#include "ptx_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAXREP = 25, MAXBUF = 4, MAXARG = 6 };

/* What a kernel is held to: interp/native (memory-bound kernels) or
 * thread-instructions per CPU second (loops). */
typedef enum { TGT_NONE = 0, TGT_RATIO = 1, TGT_RATE = 2 } target_kind;
/* interp/native: 3 for the streaming kernels, 1.5 for the naive
   transpose, whose native run pays the column stores' misses too */
static const double ratio_target = 3.0, ratio_target_transpose = 1.5,
                    rate_target = 1.5e9;

typedef struct kbuf {
    void *p, *ref; /* the buffer; the native run's output (outputs) */
    size_t bytes;
    int out;
} kbuf;

typedef struct kbench kbench;
struct kbench {
    const char *name, *ptx, *kernel;
    unsigned grid[2], block[2];
    unsigned target; /* target_kind bits */
    double ratio;    /* the interp/native target (TGT_RATIO) */
    kbuf b[MAXBUF];
    unsigned nb;
    wm_ptx_arg args[MAXARG];
    size_t nargs;
    long long s[4]; /* scalars the native version takes */
    float f[2];
    void (*native)(const kbench *k);
};

/* Measurements of one kernel, one slot per repeat. */
typedef struct kfig {
    double native[MAXREP], interp[MAXREP], floor_[MAXREP], j2cpu[MAXREP],
        j1wall[MAXREP], j2wall[MAXREP], spin2[MAXREP], stream2[MAXREP];
    uint64_t ti;
} kfig;

static double cpu_s(void)
{
    return bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static double med(const double *v, int n, double *mn)
{
    double t[MAXREP];
    memcpy(t, v, (size_t)n * sizeof *t);
    double m = median(t, n); /* (sorts t) */
    *mn = t[0];
    return m;
}

static void *xalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        fprintf(stderr, "bench_kernels: out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- setup ------------------------------------------------------------- */

static void *add_buf(kbench *k, size_t bytes, int out)
{
    kbuf *b = &k->b[k->nb++];
    b->p = xalloc(bytes);
    b->bytes = bytes;
    b->out = out;
    b->ref = out ? xalloc(bytes) : NULL;
    wm_ptx_arg *a = &k->args[k->nargs++];
    memset(a, 0, sizeof *a);
    a->buf = b->p;
    a->bytes = bytes;
    return b->p;
}

static void add_scalar(kbench *k, uint64_t bits, unsigned size)
{
    wm_ptx_arg *a = &k->args[k->nargs++];
    memset(a, 0, sizeof *a);
    a->scalar = bits;
    a->size = size;
}

static void add_i32(kbench *k, int v)
{
    add_scalar(k, (uint32_t)v, 4);
}

static void add_f32(kbench *k, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    add_scalar(k, u, 4);
}

static void free_bench(kbench *k)
{
    for (unsigned i = 0; i < k->nb; i++) {
        free(k->b[i].p);
        free(k->b[i].ref);
    }
}

static void nat_copy(const kbench *k)
{
    nk_copy(k->b[0].p, k->b[1].p, (int)k->s[0], k->grid[0], k->block[0]);
}

static void nat_tnaive(const kbench *k)
{
    nk_transpose_naive(k->b[0].p, k->b[1].p, (int)k->s[0], (int)k->s[0]);
}

static void nat_ttiled(const kbench *k)
{
    nk_transpose_tiled(k->b[0].p, k->b[1].p, (int)k->s[0], (int)k->s[0]);
}

static void nat_kv(const kbench *k)
{
    nk_kv_cache(k->b[0].p, k->b[1].p, k->b[2].p, (int)k->s[0], (int)k->s[1],
                (int)k->s[2], k->grid[0], k->block[0]);
}

static void nat_stencil(const kbench *k)
{
    nk_stencil(k->b[0].p, k->b[1].p, (int)k->s[0], (int)k->s[1], k->f[0],
               k->f[1]);
}

static void nat_reduce(const kbench *k)
{
    nk_reduce(k->b[0].p, k->b[1].p, (int)k->s[0], k->grid[0]);
}

static void nat_sgemm(const kbench *k)
{
    int n = (int)k->s[0];
    nk_sgemm(k->b[0].p, k->b[1].p, k->b[2].p, n, n, n);
}

static void nat_hist(const kbench *k)
{
    nk_histogram(k->b[0].p, k->b[1].p, (int)k->s[0], k->grid[0]);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void fill_f32(float *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)(rnd() % 2048) * 0.125f - 128.0f;
}

static void init(kbench *k, const char *name, const char *ptx,
                 const char *kernel, unsigned target,
                 void (*nat)(const kbench *))
{
    memset(k, 0, sizeof *k);
    k->name = name;
    k->ptx = ptx;
    k->kernel = kernel;
    k->target = target;
    k->ratio = ratio_target;
    k->native = nat;
}

#define LAUNCH(k, gx, gy, bx, by)                                              \
    ((k)->grid[0] = (gx), (k)->grid[1] = (gy), (k)->block[0] = (bx),           \
     (k)->block[1] = (by))

/* The example kernels and their sizes (each interpreted run well under a
 * second of CPU on the 2-core development machine).  One function on
 * purpose: it is the table of cases, a few lines each (launch, buffers,
 * arguments), read side by side; a function per case would only add
 * names. */
static int make_bench(kbench *c, unsigned which)
{
    switch (which) {
    case 0: { /* copy: 8 M floats */
        enum { N = 1 << 23 };
        init(c, "copy 8M", "copy.ptx", "copy_f32", TGT_RATIO, nat_copy);
        c->s[0] = N;
        LAUNCH(c, N / 256, 1, 256, 1);
        add_buf(c, (size_t)N * 4, 1);
        fill_f32(add_buf(c, (size_t)N * 4, 0), N);
        add_i32(c, N);
        return 1;
    }
    case 1: { /* naive transpose 8192^2: the lesson's size */
        enum { N = 8192 };
        init(c, "transpose 8192^2", "transpose.ptx", "transpose_naive",
             TGT_RATIO | TGT_RATE, nat_tnaive);
        c->ratio = ratio_target_transpose;
        c->s[0] = N;
        LAUNCH(c, N / 32, N / 8, 32, 8);
        add_buf(c, (size_t)N * N * 4, 1);
        fill_f32(add_buf(c, (size_t)N * N * 4, 0), (size_t)N * N);
        add_i32(c, N);
        add_i32(c, N);
        return 1;
    }
    case 2: { /* tiled transpose 2048^2 (shared tile, barrier) */
        enum { N = 2048 };
        init(c, "transpose tiled 2048^2", "transpose.ptx", "transpose_tiled",
             TGT_RATE, nat_ttiled);
        c->s[0] = N;
        LAUNCH(c, N / 32, N / 32, 32, 8);
        add_buf(c, (size_t)N * N * 4, 1);
        fill_f32(add_buf(c, (size_t)N * N * 4, 0), (size_t)N * N);
        add_i32(c, N);
        add_i32(c, N);
        return 1;
    }
    case 3: { /* paged KV-cache write: 8192 tokens x 16 heads x 128 halves */
        enum { T = 8192, H = 16, D = 128, BS = 16 };
        init(c, "kv_cache write 8192", "kv_cache.ptx", "reshape_and_cache_f16",
             TGT_RATIO, nat_kv);
        c->s[0] = H;
        c->s[1] = D;
        c->s[2] = BS;
        LAUNCH(c, T, 1, 128, 1);
        add_buf(c, (size_t)T * H * D * 2, 1);
        uint16_t *key = add_buf(c, (size_t)T * H * D * 2, 0);
        int64_t *slots = add_buf(c, (size_t)T * 8, 0);
        for (size_t i = 0; i < (size_t)T * H * D; i++)
            key[i] = (uint16_t)rnd();
        /* the cache's blocks in a shuffled order, as a block table has */
        unsigned nblk = T / BS, *perm = xalloc(nblk * sizeof *perm);
        for (unsigned i = 0; i < nblk; i++)
            perm[i] = i;
        for (unsigned i = nblk - 1; i > 0; i--) {
            unsigned j = rnd() % (i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (unsigned t = 0; t < T; t++)
            slots[t] = (int64_t)perm[t / BS] * BS + t % BS;
        free(perm);
        add_i32(c, H);
        add_i32(c, D);
        add_i32(c, BS);
        return 1;
    }
    case 4: { /* 5-point stencil 2048^2 */
        enum { W = 2048, H = 2048 };
        init(c, "stencil 2048^2", "stencil.ptx", "stencil5_f32", TGT_RATIO,
             nat_stencil);
        c->s[0] = W;
        c->s[1] = H;
        c->f[0] = 0.5f;
        c->f[1] = 0.125f;
        LAUNCH(c, W / 32, H / 8, 32, 8);
        add_buf(c, (size_t)W * H * 4, 1);
        fill_f32(add_buf(c, (size_t)W * H * 4, 0), (size_t)W * H);
        add_i32(c, W);
        add_i32(c, H);
        add_f32(c, 0.5f);
        add_f32(c, 0.125f);
        return 1;
    }
    case 5: { /* reduction of 4 M floats: one partial sum per block */
        enum { N = 1 << 22 };
        init(c, "reduce 4M", "reduce.ptx", "reduce_sum_f32", TGT_RATE,
             nat_reduce);
        c->s[0] = N;
        LAUNCH(c, N / 256, 1, 256, 1);
        add_buf(c, (size_t)N / 256 * 4, 1);
        fill_f32(add_buf(c, (size_t)N * 4, 0), N);
        add_i32(c, N);
        return 1;
    }
    case 6: { /* tiled SGEMM 256^3 */
        enum { N = 256 };
        init(c, "sgemm 256^3", "sgemm.ptx", "sgemm_tiled", TGT_RATE, nat_sgemm);
        c->s[0] = N;
        LAUNCH(c, N / 16, N / 16, 16, 16);
        add_buf(c, (size_t)N * N * 4, 1);
        fill_f32(add_buf(c, (size_t)N * N * 4, 0), (size_t)N * N);
        fill_f32(add_buf(c, (size_t)N * N * 4, 0), (size_t)N * N);
        add_i32(c, N);
        add_i32(c, N);
        add_i32(c, N);
        return 1;
    }
    case 7: { /* byte histogram of 16 MiB, 64 CTAs striding */
        enum { N = 1 << 24, G = 64 };
        init(c, "histogram 16M", "histogram.ptx", "histogram_u8", TGT_NONE,
             nat_hist);
        c->s[0] = N;
        LAUNCH(c, G, 1, 256, 1);
        add_buf(c, 256 * 4, 1);
        unsigned char *d = add_buf(c, N, 0);
        for (size_t i = 0; i < N; i++)
            d[i] = (unsigned char)rnd();
        add_i32(c, N);
        return 1;
    }
    default: return 0;
    }
}

/* ---- runs ---------------------------------------------------------------- */

static void clear_outputs(const kbench *k)
{
    for (unsigned i = 0; i < k->nb; i++)
        if (k->b[i].out)
            memset(k->b[i].p, 0, k->b[i].bytes);
}

/* Totals over every site: what -j 1 and -j 2 must agree on. */
typedef struct ktotals {
    uint64_t ti, req, sec, wf, act;
} ktotals;

static double interp(const kbench *k, const wm_ptx_module *m, unsigned threads,
                     double *wall, ktotals *t)
{
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = k->grid[0];
    l.grid[1] = k->grid[1];
    l.grid[2] = 1;
    l.block[0] = k->block[0];
    l.block[1] = k->block[1];
    l.block[2] = 1;
    l.args = k->args;
    l.nargs = k->nargs;
    l.threads = threads;
    wm_agg *g = wm_agg_new(wm_arch_default());
    if (!g) {
        fprintf(stderr, "bench_kernels: out of memory\n");
        exit(1);
    }
    wm_ptx_result res;
    wm_ptx_fault ft;
    double c0 = cpu_s(), w0 = bench_clock_s(CLOCK_MONOTONIC);
    wm_status st = wmi_ptx_run_opts(m, (size_t)wm_ptx_find_kernel(m, k->kernel),
                                    &l, g, &res, &ft, 0);
    *wall = bench_clock_s(CLOCK_MONOTONIC) - w0;
    double cpu = cpu_s() - c0;
    if (st != WM_OK) {
        fprintf(stderr, "bench_kernels: %s failed: %s\n", k->name, ft.msg);
        exit(1);
    }
    memset(t, 0, sizeof *t);
    t->ti = res.thread_insts;
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site s;
        if (!wm_agg_site(g, i, &s))
            continue;
        t->req += s.stats.requests;
        t->sec += s.stats.sectors;
        t->wf += s.stats.wavefronts;
        t->act += s.stats.active_lanes;
    }
    wm_agg_free(g);
    return cpu;
}

static double native(const kbench *k)
{
    double c0 = cpu_s();
    k->native(k);
    return cpu_s() - c0;
}

/* Read every input once, write every output once. */
static volatile uint64_t floor_sink;
static double stream_floor(const kbench *k)
{
    double c0 = cpu_s();
    uint64_t x = 0;
    for (unsigned i = 0; i < k->nb; i++) {
        if (k->b[i].out) {
            memset(k->b[i].p, 0, k->b[i].bytes);
            continue;
        }
        const uint64_t *w = k->b[i].p;
        size_t n = k->b[i].bytes / 8;
        for (size_t j = 0; j < n; j++)
            x ^= w[j];
    }
    floor_sink = x;
    return cpu_s() - c0;
}

static int same_outputs(const kbench *k, int save)
{
    for (unsigned i = 0; i < k->nb; i++) {
        const kbuf *b = &k->b[i];
        if (!b->out)
            continue;
        if (save)
            memcpy(b->ref, b->p, b->bytes);
        else if (memcmp(b->ref, b->p, b->bytes) != 0)
            return 0;
    }
    return 1;
}

/* A plain loop of fixed length (the machine's parallel baseline). */
static volatile uint64_t spin_sink;
static void *spin(void *arg)
{
    uint64_t x = 0;
    for (uint64_t i = 0; i < 40000000; i++)
        x = x * 6364136223846793005ull + i;
    spin_sink = x;
    (void)arg;
    return NULL;
}

/* One part of the kernel's floor: of every buffer the part-th of nparts
   slices (8-byte words), read or (outputs) written, passes times. */
typedef struct fpart {
    const kbench *k;
    unsigned part, nparts, passes;
} fpart;

static void *floor_part(void *arg)
{
    const fpart *fp = arg;
    uint64_t x = 0;
    for (unsigned pass = 0; pass < fp->passes; pass++) {
        for (unsigned i = 0; i < fp->k->nb; i++) {
            const kbuf *b = &fp->k->b[i];
            size_t n = b->bytes / 8, lo = n * fp->part / fp->nparts,
                   hi = n * (fp->part + 1) / fp->nparts;
            uint64_t *w = b->p;
            if (b->out)
                memset(w + lo, 0, (hi - lo) * 8);
            else
                for (size_t j = lo; j < hi; j++)
                    x ^= w[j];
        }
    }
    floor_sink = x;
    return NULL;
}

/* Wall time of the kernel's floor on one thread against the same work
   split between two: what two workers can gain where the memory decides
   (a memory-bound kernel's ceiling; often below the spin's on a VM whose
   two vCPUs share a core's caches or a memory channel). */
static double stream_scaling(const kbench *k)
{
    fpart one = {k, 0, 1, 1};
    pthread_t t;
    double w0, w1;
    /* passes enough for 20 ms on one thread (small buffers: the threads'
       start would be the figure); the first pass warms the buffers */
    for (;;) {
        w0 = bench_clock_s(CLOCK_MONOTONIC);
        floor_part(&one);
        w1 = bench_clock_s(CLOCK_MONOTONIC);
        if (w1 - w0 >= 0.02 || one.passes >= 1u << 16)
            break;
        one.passes *= 2;
    }
    fpart half[2] = {{k, 0, 2, one.passes}, {k, 1, 2, one.passes}};
    if (pthread_create(&t, NULL, floor_part, &half[0]) != 0) {
        fprintf(stderr, "bench_kernels: cannot start a thread\n");
        exit(1);
    }
    floor_part(&half[1]);
    pthread_join(t, NULL);
    double w2 = bench_clock_s(CLOCK_MONOTONIC);
    return (w1 - w0) / (w2 - w1);
}

/* Wall time of one spin against two on two threads: what two workers can
   gain on the machine as it is (2 on two free cores). */
static double spin_scaling(void)
{
    pthread_t t[2];
    double w0 = bench_clock_s(CLOCK_MONOTONIC);
    spin(NULL);
    double w1 = bench_clock_s(CLOCK_MONOTONIC);
    int ok = pthread_create(&t[0], NULL, spin, NULL) == 0;
    ok = ok && pthread_create(&t[1], NULL, spin, NULL) == 0;
    if (!ok) {
        fprintf(stderr, "bench_kernels: cannot start a thread\n");
        exit(1);
    }
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    double w2 = bench_clock_s(CLOCK_MONOTONIC);
    return 2 * (w1 - w0) / (w2 - w1);
}

static void measure(const kbench *k, int reps, kfig *f)
{
    wm_ptx_module *m = bench_load("bench_kernels", k->ptx);
    for (int r = 0; r < reps; r++) {
        ktotals t1, t2;
        clear_outputs(k);
        f->native[r] = native(k);
        same_outputs(k, 1);
        clear_outputs(k);
        f->interp[r] = interp(k, m, 1, &f->j1wall[r], &t1);
        if (!same_outputs(k, 0)) {
            fprintf(stderr,
                    "bench_kernels: %s: interpreted output differs "
                    "from the native one\n",
                    k->name);
            exit(1);
        }
        f->floor_[r] = stream_floor(k);
        clear_outputs(k);
        f->j2cpu[r] = interp(k, m, 2, &f->j2wall[r], &t2);
        f->spin2[r] = spin_scaling();
        if (memcmp(&t1, &t2, sizeof t1) != 0 || !same_outputs(k, 0)) {
            fprintf(stderr, "bench_kernels: %s: -j 2 differs from -j 1\n",
                    k->name);
            exit(1);
        }
        f->stream2[r] = stream_scaling(k); /* (after the check: it writes
                                               the outputs) */
        f->ti = t1.ti;
    }
    wm_ptx_free(m);
}

/* The kernel's row of the main table. */
static void print_row(const kbench *k, const kfig *f, int reps)
{
    double nm, im, fm, na = med(f->native, reps, &nm),
                       in = med(f->interp, reps, &im),
                       fl = med(f->floor_, reps, &fm);
    double rate = (double)f->ti / in;
    char tgt[64] = "", met[16] = "";
    if (k->target & TGT_RATIO) {
        snprintf(tgt, sizeof tgt, "interp/native <= %.1f", k->ratio);
        snprintf(met, sizeof met, "%s", in / na <= k->ratio ? "yes" : "no");
    }
    if (k->target & TGT_RATE) {
        size_t a = strlen(tgt), b = strlen(met);
        snprintf(tgt + a, sizeof tgt - a, "%s>= %.1f G/s", a ? "; " : "",
                 rate_target / 1e9);
        snprintf(met + b, sizeof met - b, "%s%s", b ? "; " : "",
                 rate >= rate_target ? "yes" : "no");
    }
    if (!k->target)
        strcpy(tgt, "-"), strcpy(met, "-");
    printf("| %s | %.1f M | %.3f (%.3f) | %.3f (%.3f) | %.4f (%.4f) | %.2f | "
           "%.1f | %.2f | %s | %s |\n",
           k->name, (double)f->ti / 1e6, na, nm, in, im, fl, fm, in / na,
           in / fl, rate / 1e9, tgt, met);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    const char *only = argc > 2 ? argv[2] : NULL;
    if (reps < 1 || reps > MAXREP)
        reps = 3;
    enum { NMAX = 16 };
    kfig *fig = xalloc(NMAX * sizeof *fig);
    const char *names[NMAX];
    unsigned n = 0;
    bench_machine("before");
    printf("CPU seconds, median (min) of %d; native = the kernel in C at -O2; "
           "floor = read inputs + write outputs once\n\n",
           reps);
    printf("| kernel | thr-insts | native | interp | floor | interp/native "
           "| interp/floor | G thr-insts/CPU s | target | met |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    /* one kernel's buffers at a time */
    kbench k;
    for (unsigned i = 0; n < NMAX && make_bench(&k, i); i++) {
        if (!only || strstr(k.name, only)) {
            measure(&k, reps, &fig[n]);
            print_row(&k, &fig[n], reps);
            names[n++] = k.name;
        }
        free_bench(&k);
    }
    printf("\n-j 2 against -j 1 (same statistics and output checked):\n\n");
    printf("| kernel | -j 1 wall | -j 2 wall | wall speedup | -j 2 CPU / "
           "-j 1 CPU | machine: 2 threads / 1 | speedup / machine's | "
           "machine: floor on 2 threads / 1 |\n"
           "|---|---|---|---|---|---|---|---|\n");
    for (unsigned i = 0; i < n; i++) {
        const kfig *f = &fig[i];
        double mn, w1 = med(f->j1wall, reps, &mn),
                   w2 = med(f->j2wall, reps, &mn),
                   c1 = med(f->interp, reps, &mn),
                   c2 = med(f->j2cpu, reps, &mn),
                   sp = med(f->spin2, reps, &mn),
                   fs = med(f->stream2, reps, &mn);
        printf("| %s | %.3f s | %.3f s | %.2fx | %.2f | %.2fx | %.2f | "
               "%.2fx |\n",
               names[i], w1, w2, w1 / w2, c2 / c1, sp, w1 / w2 / sp, fs);
    }
    bench_machine("after");
    free(fig);
    return 0;
}
