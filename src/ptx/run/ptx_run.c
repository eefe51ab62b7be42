/*
 * ptx_run.c -- one run of a kernel launch (wmi_ptx_run_once; the entry
 * that runs it once or twice compared is ptx_launch.c): argument checking,
 * the parameter buffer, CTA selection (all / first N / sample K), and the
 * parallel runner.  Each worker runs its CTAs through ptx_cta.c (one CTA's
 * state and its warp scheduler with barriers) or, for clusters,
 * ptx_cluster_run.c.
 *
 * Determinism: the selected CTAs are cut into at most 64 contiguous chunks
 * independent of the thread count; each chunk counts into its own wm_agg,
 * and the chunks are merged in chunk order at the end.  So the statistics
 * are the same with 1 or N threads.  On a fault, the chunk order also
 * decides which fault is reported (the lowest CTA in launch order).

 */
#define _POSIX_C_SOURCE 200809L
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "cache_int.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHUNKS 64
#define MAX_SMEM ((unsigned)WM_LIMIT_SMEM)

/* ---- CTA selection -------------------------------------------------------- */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* k distinct CTA indices below n (Floyd's algorithm), ascending. */
static uint64_t *sample(uint64_t n, uint64_t k, uint64_t seed)
{
    uint64_t hcap = 16;
    while (hcap < 2 * k)
        hcap *= 2;
    uint64_t *out = malloc(k * sizeof *out);
    uint64_t *h = malloc(hcap * sizeof *h);
    if (!out || !h) {
        free(out);
        free(h);
        return NULL;
    }
    for (uint64_t i = 0; i < hcap; i++)
        h[i] = UINT64_MAX;
    uint64_t st = seed, cnt = 0;
    for (uint64_t j = n - k; j < n; j++) {
        uint64_t t = mix(&st) % (j + 1), pick = t;
        for (int pass = 0; pass < 2; pass++) {
            uint64_t s = (pick * 0x9e3779b97f4a7c15ull) & (hcap - 1);
            int found = 0;
            while (h[s] != UINT64_MAX) {
                if (h[s] == pick) {
                    found = 1;
                    break;
                }
                s = (s + 1) & (hcap - 1);
            }
            if (!found) {
                h[s] = pick;
                out[cnt++] = pick;
                break;
            }
            pick = j; /* t was taken: take j, which cannot be */
        }
    }
    free(h);
    qsort(out, cnt, sizeof *out, cmp_u64);
    return out;
}

/*
 * With the hierarchy model, whole waves (the model's SMs x CTAs per SM, in
 * launch order) are drawn until they hold at least *k CTAs, so the model
 * sees each sampled CTA beside the neighbours it shares lines with; *k
 * becomes the number of CTAs taken.
 */
static uint64_t *sample_waves(const wm_cache *c, uint64_t n, uint64_t *k,
                              uint64_t seed)
{
    const wm_cache_config *cfg = wm_cache_config_of(c);
    uint64_t w = (uint64_t)cfg->nsms * cfg->ctas_per_sm;
    uint64_t nw = (n + w - 1) / w, kw = (*k + w - 1) / w;
    if (kw > nw)
        kw = nw;
    uint64_t *pick = sample(nw, kw, seed);
    uint64_t *out = pick ? malloc(kw * w * sizeof *out) : NULL, cnt = 0;
    for (uint64_t i = 0; out && i < kw; i++)
        for (uint64_t id = pick[i] * w; id < n && id < (pick[i] + 1) * w; id++)
            out[cnt++] = id;
    free(pick);
    *k = cnt;
    return out;
}

/* ---- the parallel runner ----------------------------------------------------- */

typedef struct job {
    const wm_ptx_module *m;
    const wmi_func *f;
    const wm_ptx_launch *l;
    const wmi_gbuf *gbufs;
    uint32_t ngbufs;
    const uint8_t *params;
    uint64_t smem_bytes;
    const uint64_t *list; /* selected CTAs (with clusters of more than one
                             CTA: clusters), NULL = 0..nsel-1 */
    uint64_t nsel;
    unsigned cdim[3];     /* cluster shape (1,1,1: none) */
    uint32_t csize;       /* CTAs per cluster (cooperative: the grid's) */
    int inline_progress;  /* one worker, the caller: it calls l->progress */
    int cexplicit;
    int use_clu;          /* a wmi_cluster per worker (ptx_cluster.c) */
    int coop;             /* a cooperative launch: the grid is the one
                             wmi_cluster, each CTA its own cluster of one */
    uint64_t workspace;   /* cooperative: the grid workspace's address */
    uint32_t nchunks;
    wm_agg **aggs;           /* one per chunk (NULL entries if no agg) */
    wmi_cache_feeder *feeder; /* with l->cache: per-chunk recorders */
    wm_ptx_fault *faults;    /* one per chunk */
    wm_status *status;       /* one per chunk */
    uint32_t next_chunk;     /* atomic */
    uint32_t fault_chunk;    /* atomic min: lowest chunk with a fault */
    /* per chunk, written by the worker that ran it: CTAs finished and
       their warp and thread instructions.  A launch that faults reports
       the chunks up to the faulting one: chunks after it may or may not
       have run, as the workers' timing fell. */
    uint64_t chunk_done[MAX_CHUNKS], chunk_warp[MAX_CHUNKS],
        chunk_thread[MAX_CHUNKS];
    /* and their setmaxnreg: count, largest .inc, smallest .dec */
    uint64_t chunk_nreg[MAX_CHUNKS];
    uint32_t chunk_inc[MAX_CHUNKS], chunk_dec[MAX_CHUNKS];
    wm_status oom;
    unsigned flags; /* WMI_RUN_* */
    /* whole-launch budget (l->max_total_steps, 0 = none): steps sums the
       finished CTAs' warp instructions; the first CTA to finish gives the
       estimate nsel x its steps; over (atomic, first writer wins) is the
       estimate or count that passed the budget, and stops every worker */
    uint64_t budget, over;
    wmi_check *chk; /* l->check: the launch's checker (one worker) */
    /* Written by every worker: on a cache line of their own (the last;
       the struct's size is a multiple of its 64-byte alignment), away
       from the fields each CTA reads (fault_chunk, over), which would
       otherwise move between the cores with every write.  done is added
       per chunk (for the progress line), steps per CTA only under a
       budget. */
    _Alignas(64) uint64_t done; /* atomic: CTAs finished so far */
    uint64_t steps;             /* atomic, with a budget */
    uint32_t first_done;
} job;

/* Record that the launch passes its budget (est warp instructions). */
static void budget_over(job *j, uint64_t est)
{
    uint64_t zero = 0;
    __atomic_compare_exchange_n(&j->over, &zero, est ? est : 1, 0,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* Count one finished CTA's steps against the whole-launch budget. */
static void budget_add(job *j, uint64_t d)
{
    if (!j->budget)
        return;
    uint64_t tot = __atomic_add_fetch(&j->steps, d, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&j->first_done, __ATOMIC_RELAXED) &&
        __atomic_exchange_n(&j->first_done, 1, __ATOMIC_RELAXED) == 0) {
        uint64_t est;
        if (__builtin_mul_overflow(d, j->nsel, &est))
            est = UINT64_MAX;
        if (est > j->budget)
            budget_over(j, est);
    }
    if (tot > j->budget)
        budget_over(j, tot);
}

static uint64_t run_chunk_ctas(job *j, wmi_cta *c, uint32_t k);

/* Run chunk k's CTAs into its aggregator, then add the memos' pending
   repeats to it (they belong to this chunk's aggregator), and the CTAs
   that finished to j->done. */
static void run_chunk(job *j, wmi_cta *c, uint32_t k)
{
    /* a cluster's CTAs count into the chunk's aggregator together */
    wmi_cta *const *cs = c->clu ? c->clu->cta : &c;
    uint32_t nc = c->clu ? c->clu->n : 1;
    uint64_t w0 = 0, t0 = 0, w1 = 0, t1 = 0;
    for (uint32_t r = 0; r < nc; r++)
        w0 += cs[r]->warp_insts, t0 += cs[r]->thread_insts;
    uint64_t r0 = 0, r1 = 0;
    for (uint32_t r = 0; r < nc; r++)
        r0 += cs[r]->nreg, cs[r]->nreg_inc = cs[r]->nreg_dec = 0;
    uint64_t n = run_chunk_ctas(j, c, k);
    for (uint32_t r = 0; r < nc; r++) {
        if (wmi_ptx_memo_flush(cs[r]) != WM_OK)
            j->oom = WM_ERR_NOMEM;
        w1 += cs[r]->warp_insts, t1 += cs[r]->thread_insts;
    }
    j->chunk_done[k] = n;
    uint32_t inc = 0, dec = 0;
    for (uint32_t r = 0; r < nc; r++) {
        r1 += cs[r]->nreg;
        inc = cs[r]->nreg_inc > inc ? cs[r]->nreg_inc : inc;
        if (cs[r]->nreg_dec && (!dec || cs[r]->nreg_dec < dec))
            dec = cs[r]->nreg_dec;
    }
    j->chunk_warp[k] = w1 - w0;
    j->chunk_thread[k] = t1 - t0;
    j->chunk_nreg[k] = r1 - r0;
    j->chunk_inc[k] = inc;
    j->chunk_dec[k] = dec;
    __atomic_add_fetch(&j->done, n, __ATOMIC_RELAXED); /* progress */
}

/* Run unit id of chunk k (a CTA, or a cluster with j->use_clu) and count
   it; returns its status. */
static wm_status run_unit(job *j, wmi_cta *c, uint64_t id)
{
    if (c->clu) {
        uint64_t before = 0, after = 0;
        for (uint32_t r = 0; r < c->clu->n; r++)
            before += c->clu->cta[r]->warp_insts;
        wm_status st = wmi_cluster_run(c->clu, id);
        for (uint32_t r = 0; r < c->clu->n; r++)
            after += c->clu->cta[r]->warp_insts;
        budget_add(j, after - before);
        return st;
    }
    uint64_t gx = j->l->grid[0], gy = j->l->grid[1];
    c->ctaid[0] = (unsigned)(id % gx);
    c->ctaid[1] = (unsigned)(id / gx % gy);
    c->ctaid[2] = (unsigned)(id / (gx * gy));
    uint64_t before = c->warp_insts;
    wm_status st = wmi_ptx_cta_run(c);
    budget_add(j, c->warp_insts - before);
    return st;
}

/* The CTAs of chunk k until one faults or a stop; returns how many
   finished. */
static uint64_t run_chunk_ctas(job *j, wmi_cta *c, uint32_t k)
{
    uint64_t lo = j->nsel * k / j->nchunks, hi = j->nsel * (k + 1) / j->nchunks;
    c->agg = j->aggs ? j->aggs[k] : NULL;
    c->trace = j->feeder ? wmi_cache_trace(j->feeder, k) : NULL;
    c->fault = &j->faults[k];
    for (uint32_t r = 1; c->clu && r < c->clu->n; r++) {
        c->clu->cta[r]->agg = c->agg;
        c->clu->cta[r]->trace = c->trace;
        c->clu->cta[r]->fault = c->fault;
    }
    uint64_t n = 0;
    for (uint64_t i = lo; i < hi; i++) {
        if (__atomic_load_n(&j->fault_chunk, __ATOMIC_RELAXED) < k)
            return n; /* an earlier chunk faulted: its fault is reported */
        if (__atomic_load_n(&j->over, __ATOMIC_RELAXED))
            return n; /* past the whole-launch budget */
        uint64_t id = j->list ? j->list[i] : i;
        if (c->trace && wmi_ctrace_cta(c->trace) != WM_OK) {
            j->oom = WM_ERR_NOMEM;
            return n;
        }
        wm_status st = run_unit(j, c, id);
        n += c->clu ? c->clu->n : 1;
        if (c->trace && c->clu && c->clu->n > 1 &&
            wmi_ctrace_split(c->trace, c->clu->n) != WM_OK) {
            j->oom = WM_ERR_NOMEM;
            return n;
        }
        if (st != WM_OK) {
            j->status[k] = st;
            uint32_t cur = __atomic_load_n(&j->fault_chunk, __ATOMIC_RELAXED);
            while (k < cur && !__atomic_compare_exchange_n(
                                  &j->fault_chunk, &cur, k, 0, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED))
                ;
            return n;
        }
    }
    return n;
}

/* A worker's CTA state for job j (not yet allocated). */
static void cta_init(job *j, wmi_cta *cp)
{
    wmi_cta c;
    memset(&c, 0, sizeof c);
    c.m = j->m;
    c.f = j->f;
    c.gbufs = j->gbufs;
    c.ngbufs = j->ngbufs;
    c.params = j->params;
    memcpy(c.block, j->l->block, sizeof c.block);
    memcpy(c.grid, j->l->grid, sizeof c.grid);
    c.nthreads = j->l->block[0] * j->l->block[1] * j->l->block[2];
    c.smem_bytes = j->smem_bytes;
    c.dyn_smem = j->l->dyn_smem;
    c.tex = j->l->textures;
    c.ntex = (uint32_t)j->l->ntextures;
    c.max_steps = j->l->max_steps;
    c.step_limit = c.max_steps ? c.max_steps : UINT64_MAX;
    if (j->budget && c.step_limit > j->budget)
        c.step_limit = j->budget; /* one CTA cannot pass the launch's */
    c.flags = j->flags;
    c.has_calls = c.f->has_call;
    if (c.has_calls) /* the fast paths assume one function's slots */
        c.flags |= WMI_RUN_SLOW;
    c.chk = j->chk;
    if (c.chk) {
        c.order = wmi_check_order(c.chk);
        c.flags |= wmi_check_tracks(c.chk) ? WMI_RUN_CHECK : 0;
    }
    memcpy(c.cdim, j->cdim, sizeof c.cdim);
    c.cexplicit = j->cexplicit;
    c.workspace = j->workspace;
    *cp = c;
}

/* The CTAs of a cluster (or of a cooperative grid), each allocated
   (ptx_cluster.c runs them), with the first in *c and the others in
   more[0 .. csize - 2]; 0 when out of memory (what was allocated
   freed). */
static int cluster_alloc(job *j, wmi_cta *c, wmi_cta *more)
{
    wmi_cta **cs = calloc(j->csize, sizeof *cs);
    if (!cs)
        return 0;
    int ok = 1;
    for (uint32_t r = 0; r < j->csize; r++) {
        cs[r] = r ? &more[r - 1] : c;
        cta_init(j, cs[r]);
        cs[r]->rank = j->coop ? 0 : r; /* (a cooperative CTA is a cluster
                                          of one) */
        cs[r]->unit = r; /* (the checker's unit is the whole grid) */
        ok = ok && wmi_ptx_cta_alloc(cs[r]) == WM_OK;
    }
    wmi_cluster *cl = ok ? wmi_cluster_new(cs, j->csize, j->coop) : NULL;
    for (uint32_t r = 0; r < j->csize; r++)
        cs[r]->clu = cl;
    if (!cl)
        for (uint32_t r = 0; r < j->csize; r++)
            wmi_ptx_cta_free(cs[r]);
    free(cs);
    return cl != NULL;
}

/* l->progress with the CTAs done so far and all that the launch runs. */
static void report_progress(const job *j)
{
    j->l->progress(j->l->progress_ud,
                   __atomic_load_n(&j->done, __ATOMIC_RELAXED),
                   j->nsel * j->csize);
}

static void *worker(void *arg)
{
    job *j = arg;
    wmi_cta c, *more = NULL;
    if (j->use_clu) {
        more = calloc(j->csize, sizeof *more); /* (csize - 1 used) */
        if (!more || !cluster_alloc(j, &c, more)) {
            free(more);
            j->oom = WM_ERR_NOMEM;
            return NULL;
        }
    } else {
        cta_init(j, &c);
        if (wmi_ptx_cta_alloc(&c) != WM_OK) {
            j->oom = WM_ERR_NOMEM;
            wmi_ptx_cta_free(&c);
            return NULL;
        }
    }
    for (;;) {
        uint32_t k = __atomic_fetch_add(&j->next_chunk, 1, __ATOMIC_RELAXED);
        if (k >= j->nchunks)
            break;
        if (__atomic_load_n(&j->fault_chunk, __ATOMIC_RELAXED) < k)
            continue;
        run_chunk(j, &c, k);
        if (j->feeder)
            wmi_cache_chunk_done(j->feeder, k);
        if (j->inline_progress) /* one thread: no watcher to call it */
            report_progress(j);
    }
    if (c.clu) {
        wmi_cluster_free(c.clu);
        for (uint32_t r = 0; r + 1 < j->csize; r++)
            wmi_ptx_cta_free(&more[r]);
    }
    free(more);
    wmi_ptx_cta_free(&c);
    return NULL;
}

static unsigned ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static wm_status launch_error(wm_ptx_fault *fault, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static wm_status launch_error(wm_ptx_fault *fault, const char *fmt, ...)
{
    va_list ap;
    memset(fault, 0, sizeof *fault);
    fault->status = WM_ERR_ARG;
    fault->file = "";
    va_start(ap, fmt);
    vsnprintf(fault->msg, sizeof fault->msg, fmt, ap);
    va_end(ap);
    return WM_ERR_ARG;
}

/*
 * The whole-launch budget is passed: est warp instructions (a lower bound
 * when at_least, else nsel x the first CTA's count or the count so far).
 */
static wm_status budget_fault(wm_ptx_fault *fault, uint64_t est,
                              uint64_t nsel, uint64_t budget, int at_least)
{
    memset(fault, 0, sizeof *fault);
    fault->status = WM_ERR_LIMIT;
    fault->file = "";
    fault->insn = SIZE_MAX;
    int e = 0;
    for (uint64_t x = est; x >= 10; x /= 10)
        e++;
    snprintf(fault->msg, sizeof fault->msg,
             "this launch is %s~10^%d warp instructions (%llu CTAs), over the "
             "whole-launch budget of %llu: run fewer CTAs (--ctas sample:N) "
             "or raise --max-total-steps",
             at_least ? "at least " : "", e, (unsigned long long)nsel,
             (unsigned long long)budget);
    return WM_ERR_LIMIT;
}

/* Label every site of agg with its PTX text and source location. */
static wm_status label_sites(const wm_ptx_module *m, wm_agg *agg)
{
    size_t n = wm_agg_nsites(agg);
    uint32_t last = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        wm_site s;
        if (!wm_agg_site(agg, i, &s) || s.site == last || s.site >= m->ncode)
            continue;
        last = s.site;
        wm_ptx_where w;
        wm_ptx_where_insn(m, s.site, &w);
        wm_status st = wm_agg_label(agg, s.site, w.text, w.file, w.line);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The checks of a launch that need no arguments: block size, grid,
   shared memory.  *smem_out: the CTA's shared bytes. */
/* CUDA's launch limits ("Technical Specifications per Compute
   Capability" of the CUDA C++ Programming Guide): the same for every
   compute capability of the profiles, 3.0 through 12.x. */
static const struct {
    uint32_t grid[3], block[3], threads;
} launch_limits = {{0x7fffffffu, 65535, 65535}, {1024, 1024, 64}, 1024};

/* A dimension of the grid or block over CUDA's limit: the error naming
   it, else WM_OK. */
static wm_status check_limits(const wm_ptx_launch *l, wm_ptx_fault *fault)
{
    static const char axis[] = "xyz";
    for (int d = 0; d < 3; d++) {
        if (l->grid[d] > launch_limits.grid[d])
            return launch_error(fault, "grid %c of %u exceeds CUDA's limit "
                                       "of %u (gridDim.%c)",
                                axis[d], l->grid[d], launch_limits.grid[d],
                                axis[d]);
        if (l->block[d] > launch_limits.block[d])
            return launch_error(fault, "block %c of %u exceeds CUDA's limit "
                                       "of %u (blockDim.%c)",
                                axis[d], l->block[d], launch_limits.block[d],
                                axis[d]);
    }
    return WM_OK;
}

static wm_status check_geometry(const wmi_func *f, const wm_ptx_launch *l,
                                wm_ptx_fault *fault, uint64_t *smem_out)
{
    uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t nctas;
    if (__builtin_mul_overflow((uint64_t)l->grid[0] * l->grid[1], l->grid[2],
                               &nctas))
        return launch_error(fault, "grid of more than 2^64 CTAs");
    if (nthreads == 0 || nthreads > launch_limits.threads)
        return launch_error(fault, "block has %llu threads (CUDA's limit is "
                                   "%u threads per block)",
                            (unsigned long long)nthreads,
                            launch_limits.threads);
    if (check_limits(l, fault) != WM_OK)
        return WM_ERR_ARG;
    if (nctas == 0)
        return launch_error(fault, "empty grid");
    if (l->dyn_smem > MAX_SMEM)
        return launch_error(fault, "shared memory of %zu bytes exceeds %u",
                            l->dyn_smem, MAX_SMEM);
    uint64_t smem = f->smem_static;
    if (l->dyn_smem)
        smem = ((smem + f->dyn_align - 1) / f->dyn_align) * f->dyn_align + l->dyn_smem;
    if (f->sregs_used & WMI_RSMEM_SREGS)
        smem = (smem + 15) / 16 * 16 + WMI_RESERVED_SMEM;
    if (smem > MAX_SMEM)
        return launch_error(fault, "shared memory of %llu bytes exceeds %u",
                            (unsigned long long)smem, MAX_SMEM);
    *smem_out = smem;
    return WM_OK;
}

static int is_cluster_op(const wm_ptx_module *m, const wmi_insn *in)
{
    (void)m;
    return in->op == OP_BARC || in->op == OP_MAPA;
}

/* Does the kernel use cluster instructions (barrier.cluster, mapa)? */
static int uses_cluster_ops(const wm_ptx_module *m, const wmi_func *f)
{
    return wmi_kernel_count(m, f, is_cluster_op, 1) > 0;
}

/* The launch's cluster shape (cdim) and whether it is explicit: l's, else
   the kernel's .reqnctapercluster, else 1x1x1; checked against the grid
   and the size limits. */
static wm_status check_cluster(const wmi_func *f, const wm_ptx_launch *l,
                               wm_ptx_fault *fault, unsigned cdim[3],
                               int *cexplicit)
{
    int given = l->cluster[0] || l->cluster[1] || l->cluster[2];
    int req = f->reqcluster[0] != 0;
    *cexplicit = given || f->explicit_cluster;
    for (int i = 0; i < 3; i++)
        cdim[i] = given ? l->cluster[i] : req ? f->reqcluster[i] : 1;
    if (given && req &&
        memcmp(l->cluster, f->reqcluster, sizeof l->cluster) != 0)
        return launch_error(fault, "kernel %s is compiled for clusters of "
                            "%ux%ux%u CTAs (.reqnctapercluster); the launch "
                            "asks for %ux%ux%u", f->pretty, f->reqcluster[0],
                            f->reqcluster[1], f->reqcluster[2], cdim[0],
                            cdim[1], cdim[2]);
    uint64_t size = (uint64_t)cdim[0] * cdim[1] * cdim[2];
    if (size == 0 || size > WMI_MAX_CLUSTER ||
        (size > 8 && !l->cluster_nonportable))
        return launch_error(fault, "a cluster of %ux%ux%u CTAs: at most 8 "
                            "(the portable size), 16 with the non-portable "
                            "size allowed", cdim[0], cdim[1], cdim[2]);
    for (int i = 0; i < 3; i++)
        if (l->grid[i] % cdim[i])
            return launch_error(fault, "grid %ux%ux%u is not a multiple of "
                                "the cluster %ux%ux%u", l->grid[0],
                                l->grid[1], l->grid[2], cdim[0], cdim[1],
                                cdim[2]);
    return WM_OK;
}

/* The clusters holding the *nsel CTAs selected (list, or the first *nsel
   when NULL), ascending: *nsel and *list become the clusters'. */
static wm_status select_clusters(const wm_ptx_launch *l, const unsigned cd[3],
                                 uint64_t *nsel, uint64_t **list)
{
    uint64_t csize = (uint64_t)cd[0] * cd[1] * cd[2];
    uint64_t nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!*list && *nsel == nctas) {
        *nsel = nctas / csize; /* all of them */
        return WM_OK;
    }
    uint64_t *q = malloc((*nsel ? *nsel : 1) * sizeof *q), n = 0;
    if (!q)
        return WM_ERR_NOMEM;
    uint64_t gx = l->grid[0], gy = l->grid[1];
    uint64_t ncx = gx / cd[0], ncy = gy / cd[1];
    for (uint64_t i = 0; i < *nsel; i++) {
        uint64_t id = *list ? (*list)[i] : i;
        uint64_t x = id % gx, y = id / gx % gy, z = id / (gx * gy);
        q[i] = x / cd[0] + ncx * (y / cd[1] + ncy * (z / cd[2]));
    }
    qsort(q, *nsel, sizeof *q, cmp_u64);
    for (uint64_t i = 0; i < *nsel; i++)
        if (n == 0 || q[n - 1] != q[i])
            q[n++] = q[i];
    free(*list);
    *list = q;
    *nsel = n;
    return WM_OK;
}

/* What a cooperative launch runs without: all its CTAs at once, one
   wmi_cluster of the grid (checked: geometry and clusters). */
static wm_status check_coop(const wm_ptx_module *m, const wmi_func *f,
                            const wm_ptx_launch *l, const unsigned cdim[3],
                            uint64_t smem, wm_ptx_fault *fault)
{
    if (!l->cooperative)
        return WM_OK;
    uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t t = n * l->block[0] * l->block[1] * l->block[2];
    if (n > WM_PTX_MAX_COOP_CTAS || t > WM_PTX_MAX_COOP_THREADS)
        return launch_error(fault, "a cooperative launch of %llu CTAs, %llu "
                            "threads: at most %u CTAs and %u threads run at "
                            "once (132 SMs x 32 CTAs, x 2048 threads: what "
                            "an H100 or H200 holds)",
                            (unsigned long long)n, (unsigned long long)t,
                            WM_PTX_MAX_COOP_CTAS, WM_PTX_MAX_COOP_THREADS);
    if (cdim[0] * cdim[1] * cdim[2] > 1 || uses_cluster_ops(m, f))
        return launch_error(fault, "a cooperative launch with clusters is "
                            "not run");
    if (l->ctas != WM_PTX_CTAS_ALL && l->ctas_n < n)
        return launch_error(fault, "a cooperative launch runs every CTA: "
                            "its grid barrier waits for all of them, so it "
                            "cannot be sampled");
    uint64_t warps = n * ((t / n + 31) / 32);
    if (l->check && (warps > WM_PTX_MAX_COOP_CHECK_WARPS ||
                     n * smem > WM_PTX_MAX_COOP_CHECK_SMEM))
        return launch_error(fault, "a checked cooperative launch of %llu "
                            "warps and %llu bytes of shared memory in all: "
                            "the checks follow its whole grid at once, at "
                            "most %u warps and %u bytes (a smaller grid: "
                            "grid.sync() works at any size)",
                            (unsigned long long)warps,
                            (unsigned long long)(n * smem),
                            WM_PTX_MAX_COOP_CHECK_WARPS,
                            WM_PTX_MAX_COOP_CHECK_SMEM);
    if (l->cache)
        return launch_error(fault, "the hierarchy model does not run on a "
                            "cooperative launch (its CTAs run together; the "
                            "model takes one CTA at a time)");
    return WM_OK;
}

wm_status wm_ptx_launch_check(const wm_ptx_module *m, size_t k,
                              const wm_ptx_launch *l, wm_ptx_fault *fault)
{
    const wmi_func *f = m ? wmi_ptx_kernel(m, k) : NULL;
    wm_ptx_fault dummy;
    uint64_t smem = 0;
    if (!fault)
        fault = &dummy;
    memset(fault, 0, sizeof *fault);
    fault->file = "";
    if (!f || !l)
        return launch_error(fault, "no such kernel");
    unsigned cdim[3];
    int cexplicit;
    wm_status st = check_geometry(f, l, fault, &smem);
    if (st == WM_OK)
        st = check_cluster(f, l, fault, cdim, &cexplicit);
    return st != WM_OK ? st : check_coop(m, f, l, cdim, smem, fault);
}

/* The module-scope .global/.const variable called name, or NULL. */
static const wmi_var *find_global(const wm_ptx_module *m, const char *name)
{
    for (size_t i = 0; i < m->nvars; i++) {
        const wmi_var *v = &m->vars[i];
        if (v->func == WMI_NOREG &&
            (v->space == SP_GLOBAL || v->space == SP_CONST) &&
            strcmp(v->name, name) == 0)
            return v;
    }
    return NULL;
}

long long wm_ptx_global_size(const wm_ptx_module *m, const char *name)
{
    const wmi_var *v = m && name ? find_global(m, name) : NULL;
    return v ? (long long)v->size : -1;
}

uint64_t wm_ptx_extra_address(size_t nargs, size_t j)
{
    return (uint64_t)(nargs + j + 1) << WMI_WIN_SHIFT;
}

/* The chunks whose work a launch reports: all, or those up to the first
   fault (later ones ran or not as the workers' timing fell). */
static uint32_t job_chunks_counted(const job *j)
{
    return j->fault_chunk < j->nchunks ? j->fault_chunk + 1 : j->nchunks;
}

/* Merges the counted chunks' aggregators into agg and labels its sites;
   returns st, or the first error of these steps when st is WM_OK. */
static wm_status job_merge(job *j, const wm_ptx_module *m, wm_agg *agg,
                           wm_status st)
{
    if (!agg || !j->aggs)
        return st;
    uint32_t upto = job_chunks_counted(j);
    for (uint32_t i = 0; i < upto && st != WM_ERR_NOMEM; i++)
        if (j->aggs[i]) {
            wm_status ms = wm_agg_merge(agg, j->aggs[i]);
            if (ms != WM_OK && st == WM_OK)
                st = ms;
        }
    if (st != WM_ERR_NOMEM) {
        wm_status ls = label_sites(m, agg);
        if (ls != WM_OK && st == WM_OK)
            st = ls;
    }
    return st;
}

/* CTAs run and instructions of the counted chunks into res. */
static void job_totals(const job *j, wm_ptx_result *res)
{
    uint32_t upto = job_chunks_counted(j);
    res->ctas_run = res->warp_insts = res->thread_insts = 0;
    res->setmaxnreg = 0;
    res->maxnreg_inc = res->maxnreg_dec = 0;
    for (uint32_t i = 0; i < upto; i++) {
        res->ctas_run += j->chunk_done[i];
        res->warp_insts += j->chunk_warp[i];
        res->thread_insts += j->chunk_thread[i];
        res->setmaxnreg += j->chunk_nreg[i];
        if (j->chunk_inc[i] > res->maxnreg_inc)
            res->maxnreg_inc = j->chunk_inc[i];
        if (j->chunk_dec[i] &&
            (!res->maxnreg_dec || j->chunk_dec[i] < res->maxnreg_dec))
            res->maxnreg_dec = j->chunk_dec[i];
    }
}

#define MAX_GLOBALS 64 /* l->nglobals */

/* The checks of a launch against its kernel and module before anything is
   allocated; gv[i]: the variable of l->globals[i]. */
static wm_status check_launch(const wm_ptx_module *m, const wmi_func *f,
                              const wm_ptx_launch *l, wm_ptx_fault *fault,
                              const wmi_var **gv, uint64_t *smem)
{
    wm_status st = check_geometry(f, l, fault, smem);
    if (st != WM_OK)
        return st;
    if (l->nargs != f->nparams)
        return launch_error(fault, "kernel %s takes %u parameters, %zu "
                            "arguments given", f->pretty, f->nparams, l->nargs);
    if (l->nargs >= WMI_MAX_GLOBAL_BUFS)
        return launch_error(fault, "too many arguments");
    /* parameter buffer and global windows (a cooperative launch's grid
       workspace one more) */
    if (l->nargs + l->nextra + (l->cooperative != 0) >= WMI_MAX_GLOBAL_BUFS)
        return launch_error(fault, "too many buffers");
    for (size_t i = 0; i < l->ntextures; i++) { /* ptx_tex.c */
        char why[160];
        if (!wmi_ptx_tex_check(&l->textures[i], why, sizeof why))
            return launch_error(fault, "texture %zu: %s", i, why);
    }
    if (l->ntextures > ((size_t)1 << 20))
        return launch_error(fault, "too many textures");
    if (l->nglobals > MAX_GLOBALS)
        return launch_error(fault, "at most %d globals", MAX_GLOBALS);
    for (size_t i = 0; i < l->nglobals; i++) {
        const wm_ptx_global *g = &l->globals[i];
        gv[i] = g->name ? find_global(m, g->name) : NULL;
        if (!gv[i])
            return launch_error(fault, "no __device__ or __constant__ "
                                "variable '%s' in the module",
                                g->name ? g->name : "");
        if (g->bytes > gv[i]->size)
            return launch_error(fault, "%zu bytes for '%s', which has %llu",
                                g->bytes, g->name,
                                (unsigned long long)gv[i]->size);
    }
    return WM_OK;
}

/* What a launch's threads address besides shared memory: the parameter
   bytes, the global windows (arguments, extra buffers, module data). */
typedef struct launch_mem {
    uint8_t *params;
    wmi_gbuf *gbufs;
    uint32_t ngbufs;    /* windows: arguments, extra buffers, the grid
                           workspace, the module data (the last) */
    uint8_t *gdata;     /* the module's .global/.const data */
    uint8_t *workspace; /* a cooperative launch's grid workspace, or NULL */
} launch_mem;

/* The grid workspace of a cooperative launch: zeroed bytes, the window
   after the extra buffers' (the module data's stays the last one).
   grid.sync() counts the CTAs in at byte 4. */
#define COOP_WORKSPACE 64u

static void launch_mem_free(launch_mem *lm)
{
    free(lm->params);
    free(lm->gbufs);
    free(lm->gdata);
    free(lm->workspace);
}

/* Lays out the parameter bytes and windows of l's arguments. */
static wm_status bind_args(const wmi_func *f, const wm_ptx_launch *l,
                           launch_mem *lm, wm_ptx_fault *fault)
{
    for (size_t i = 0; i < l->nargs; i++) {
        const wm_ptx_arg *a = &l->args[i];
        const wmi_param *pa = &f->params[i];
        if (a->buf) {
            if (pa->size != 8)
                return launch_error(fault,
                                    "argument %zu is a buffer but parameter "
                                    "%zu has %u bytes (a pointer has 8)",
                                    i, i, pa->size);
            uint64_t addr = (uint64_t)(i + 1) << WMI_WIN_SHIFT;
            memcpy(lm->params + pa->offset, &addr, 8);
            lm->gbufs[i].p = a->buf;
            lm->gbufs[i].bytes = a->bytes;
        } else {
            if (a->size != pa->size || (!a->value && a->size > 8))
                return launch_error(fault,
                                    "argument %zu is a %u-byte %s but "
                                    "parameter %zu has %u bytes",
                                    i, a->size, a->value ? "value" : "scalar",
                                    i, pa->size);
            memcpy(lm->params + pa->offset, a->value ? a->value : &a->scalar,
                   a->size);
        }
    }
    return WM_OK;
}

/* Allocates and fills the launch's memory; frees it on failure. */
static wm_status launch_mem_new(const wm_ptx_module *m, const wmi_func *f,
                                const wm_ptx_launch *l, const wmi_var **gv,
                                launch_mem *lm, wm_ptx_fault *fault)
{
    size_t nws = l->nargs + l->nextra, nwin = nws + 1 + (l->cooperative != 0);
    lm->params = calloc(f->param_bytes + 8, 1);
    lm->gbufs = calloc(nwin, sizeof *lm->gbufs);
    /* calloc: the zero pages of a large .global stay untouched */
    lm->gdata = calloc(m->gbytes + 16, 1);
    lm->workspace = l->cooperative ? calloc(COOP_WORKSPACE, 1) : NULL;
    if (!lm->params || !lm->gbufs || !lm->gdata ||
        (l->cooperative && !lm->workspace)) {
        launch_mem_free(lm);
        return WM_ERR_NOMEM;
    }
    memcpy(lm->gdata, m->gdata, m->ginit);
    for (size_t i = 0; i < l->nglobals; i++)
        if (l->globals[i].init)
            memcpy(lm->gdata + gv[i]->offset, l->globals[i].init,
                   l->globals[i].bytes);
    for (size_t j = 0; j < l->nextra; j++) {
        lm->gbufs[l->nargs + j].p = l->extra[j].buf;
        lm->gbufs[l->nargs + j].bytes = l->extra[j].bytes;
    }
    lm->ngbufs = (uint32_t)nwin;
    if (lm->workspace) {
        lm->gbufs[nws].p = lm->workspace;
        lm->gbufs[nws].bytes = COOP_WORKSPACE;
    }
    lm->gbufs[nwin - 1].p = lm->gdata; /* the last: WMI_MAX_GLOBAL_BUFS */
    lm->gbufs[nwin - 1].bytes = m->gbytes;
    wm_status st = bind_args(f, l, lm, fault);
    if (st != WM_OK)
        launch_mem_free(lm);
    return st;
}

/* The CTAs a launch runs: *nsel of them, the first ones (*list NULL) or a
   sample (*list, to free). */
static wm_status select_ctas(const wm_ptx_launch *l, const wm_agg *agg,
                             uint64_t nctas, uint64_t *nsel, uint64_t **list)
{
    *nsel = nctas;
    *list = NULL;
    if (l->ctas == WM_PTX_CTAS_FIRST && l->ctas_n < nctas) {
        *nsel = l->ctas_n;
    } else if (l->ctas == WM_PTX_CTAS_SAMPLE && l->ctas_n < nctas) {
        *nsel = l->ctas_n;
        *list = l->cache && agg ? sample_waves(l->cache, nctas, nsel, l->seed)
                                : sample(nctas, *nsel, l->seed);
        if (!*list)
            return WM_ERR_NOMEM;
    }
    return WM_OK;
}

static int is_ldst(const wm_ptx_module *m, const wmi_insn *in)
{
    (void)m;
    return in->op == OP_LD || in->op == OP_ST;
}

/* The sites a chunk's aggregator will most likely see: the ld and st
   instructions of kernel f and of every .func it may call, at most 60
   (2 KiB of histogram each: 120 KiB stay below glibc's 128 KiB mmap
   threshold, on malloc's heap, which launch after launch reuses, where a
   block of its own would be fresh pages each launch);
   other sites are allocated when they come (wmi_agg_reserve). */
static size_t expected_sites(const wm_ptx_module *m, const wmi_func *f)
{
    return wmi_kernel_count(m, f, is_ldst, 60);
}

/* The per-chunk state of j: faults, statuses, the checker, aggregators
   (with agg) and the hierarchy model's feeder (with l->cache). */
static wm_status job_alloc(job *j, const wm_ptx_launch *l, const wm_agg *agg)
{
    j->faults = calloc(j->nchunks, sizeof *j->faults);
    j->status = calloc(j->nchunks, sizeof *j->status);
    if (l->check)
        j->chk = wmi_check_new(j->m, l->block, j->coop ? l->grid : j->cdim,
                               j->smem_bytes, j->gbufs, j->ngbufs, l->check,
                               j->coop);
    if (!j->faults || !j->status || (l->check && !j->chk))
        return WM_ERR_NOMEM;
    if (!agg)
        return WM_OK;
    j->aggs = calloc(j->nchunks, sizeof *j->aggs);
    if (!j->aggs)
        return WM_ERR_NOMEM;
    size_t sites = expected_sites(j->m, j->f);
    for (uint32_t i = 0; i < j->nchunks; i++) {
        if (!(j->aggs[i] = wm_agg_new(wm_agg_arch(agg))) ||
            wmi_agg_reserve(j->aggs[i], sites) != WM_OK)
            return WM_ERR_NOMEM;
        wm_agg_set_sass(j->aggs[i], wmi_agg_sass_plan(agg)); /* SASS level */
    }
    if (l->cache &&
        !(j->feeder = wmi_cache_feeder_new(l->cache, j->m, j->aggs,
                                           j->nchunks)))
        return WM_ERR_NOMEM;
    return WM_OK;
}

static void job_free(job *j)
{
    if (j->chk)
        wmi_check_free(j->chk);
    if (j->aggs)
        for (uint32_t i = 0; i < j->nchunks; i++)
            wm_agg_free(j->aggs[i]);
    free(j->aggs);
    free(j->faults);
    free(j->status);
}

/* Runs j's chunks on l->threads workers (the caller's thread if one),
   calling l->progress every 0.1 s after the first half second (after
   each chunk when the caller's thread runs them). */
static wm_status job_run(job *j, const wm_ptx_launch *l)
{
    unsigned nt = l->threads ? l->threads : ncores();
    if (j->chk)
        nt = 1; /* one shadow memory, one deterministic order */
    if (nt > j->nchunks)
        nt = j->nchunks;
    if (nt > 256)
        nt = 256;
    pthread_t tids[256];
    unsigned started = 0;
    if (nt > 1)
        for (; started < nt; started++)
            if (pthread_create(&tids[started], NULL, worker, j) != 0)
                break;
    if (started == 0) {
        j->inline_progress = l->progress != NULL;
        worker(j); /* one thread: the caller's */
    } else {
        double t0 = now_s();
        while (l->progress &&
               __atomic_load_n(&j->next_chunk, __ATOMIC_RELAXED) < j->nchunks) {
            struct timespec ts = {0, 100000000};
            nanosleep(&ts, NULL);
            if (now_s() - t0 > 0.5)
                report_progress(j);
        }
        for (unsigned i = 0; i < started; i++)
            pthread_join(tids[i], NULL);
    }
    return j->oom;
}

/* The launch's outcome after its run (st): the first fault, the budget,
   then the merge, the hierarchy model and the checker's report. */
static wm_status job_end(job *j, wm_agg *agg, wm_ptx_fault *fault,
                         wm_status st)
{
    if (st == WM_OK && j->fault_chunk != UINT32_MAX) {
        *fault = j->faults[j->fault_chunk];
        st = j->status[j->fault_chunk];
    } else if (st == WM_OK && j->over) {
        st = budget_fault(fault, j->over, j->nsel * j->csize, j->budget, 0);
    }
    st = job_merge(j, j->m, agg, st);
    if (j->feeder) {
        wm_status cs = wmi_cache_feeder_end(j->feeder, st == WM_OK);
        if (cs != WM_OK && st == WM_OK)
            st = cs;
    }
    if (j->chk) {
        wm_status cs = wmi_check_finish(j->chk, j->l->check);
        if (cs != WM_OK && st == WM_OK)
            st = cs;
    }
    return st;
}

/* Runs the selected CTAs of a checked launch whose memory is laid out. */
static wm_status run_job(const wm_ptx_module *m, const wmi_func *f,
                         const wm_ptx_launch *l, const launch_mem *lm,
                         uint64_t smem, wm_agg *agg, wm_ptx_result *res,
                         wm_ptx_fault *fault, unsigned flags)
{
    /* check_geometry: no overflow */
    uint64_t nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t nsel, *list;
    unsigned cdim[3];
    int cexplicit;
    wm_status st = check_cluster(f, l, fault, cdim, &cexplicit);
    if (st == WM_OK)
        st = check_coop(m, f, l, cdim, smem, fault);
    if (st != WM_OK)
        return st;
    /* a cooperative launch: its grid is the one unit, run together */
    int coop = l->cooperative != 0;
    uint32_t csize = coop ? (uint32_t)nctas : cdim[0] * cdim[1] * cdim[2];
    int use_clu = coop || csize > 1 || uses_cluster_ops(m, f);
    st = select_ctas(l, agg, coop ? 1 : nctas, &nsel, &list);
    if (st == WM_OK && use_clu && !coop)
        st = select_clusters(l, cdim, &nsel, &list);
    if (st != WM_OK) {
        free(list);
        return st;
    }
    /* Before the run: every warp of every selected CTA executes at least
       one instruction, so nsel x warps bounds the launch from below. */
    uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t nwarps = (nthreads + 31) / 32, least;
    if (__builtin_mul_overflow(nsel * csize, nwarps, &least))
        least = UINT64_MAX;
    if (l->max_total_steps && least > l->max_total_steps) {
        free(list);
        return budget_fault(fault, least, nsel * csize, l->max_total_steps,
                            1);
    }
    job j;
    memset(&j, 0, sizeof j);
    j.budget = l->max_total_steps;
    j.m = m;
    j.f = f;
    j.l = l;
    j.gbufs = lm->gbufs;
    j.ngbufs = lm->ngbufs;
    j.coop = coop;
    if (lm->workspace) /* the window after the extra buffers' */
        j.workspace = wm_ptx_extra_address(l->nargs, l->nextra);
    j.params = lm->params;
    j.smem_bytes = smem;
    j.list = list;
    j.nsel = nsel;
    memcpy(j.cdim, cdim, sizeof j.cdim);
    j.csize = csize;
    j.cexplicit = cexplicit;
    j.use_clu = use_clu;
    j.nchunks = nsel < MAX_CHUNKS ? (uint32_t)(nsel ? nsel : 1) : MAX_CHUNKS;
    j.fault_chunk = UINT32_MAX;
    j.flags = flags;
    st = job_alloc(&j, l, agg);
    if (st == WM_OK)
        st = job_run(&j, l);
    st = job_end(&j, agg, fault, st);
    if (res) {
        job_totals(&j, res);
        res->ctas_total = nctas;
        res->sampled = nsel * csize < nctas; /* nsel: clusters */
    }
    job_free(&j);
    free(list);
    return st;
}

wm_status wmi_ptx_run_once(const wm_ptx_module *m, size_t k,
                           const wm_ptx_launch *l, wm_agg *agg,
                           wm_ptx_result *res, wm_ptx_fault *fault,
                           unsigned flags)
{
    const wmi_func *f = m ? wmi_ptx_kernel(m, k) : NULL;
    wm_ptx_fault dummy;
    if (!fault)
        fault = &dummy;
    memset(fault, 0, sizeof *fault);
    fault->file = "";
    if (res)
        memset(res, 0, sizeof *res);
    if (!f || !l)
        return launch_error(fault, "no such kernel");
    if (l->cache && !agg)
        return launch_error(fault, "the hierarchy model needs an aggregator");
    if (f->err) {
        /* its body failed to parse: report that error where it is */
        fault->status = WM_ERR_PARSE;
        fault->ptx_line = (uint32_t)f->err->line;
        snprintf(fault->msg, sizeof fault->msg, "%d:%d: %.200s",
                 f->err->line, f->err->col, f->err->msg);
        return WM_ERR_PARSE;
    }
    const wmi_var *gv[MAX_GLOBALS];
    uint64_t smem = 0;
    launch_mem lm;
    wm_status st = check_launch(m, f, l, fault, gv, &smem);
    if (st != WM_OK || (st = launch_mem_new(m, f, l, gv, &lm, fault)) != WM_OK)
        return st;
    st = run_job(m, f, l, &lm, smem, agg, res, fault, flags);
    for (size_t i = 0; i < l->nglobals; i++) /* cudaMemcpyFromSymbol */
        if (l->globals[i].out)
            memcpy(l->globals[i].out, lm.gdata + gv[i]->offset,
                   l->globals[i].bytes);
    launch_mem_free(&lm);
    return st;
}
