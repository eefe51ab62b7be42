/*
 * cache_ptx.c -- the PTX runner's side of the hierarchy model: one recorder
 * per chunk of CTAs tapped into the chunk's aggregator, the load policy of
 * each instruction read from its cache operators, and the in-order feed
 * while the run goes on.
 */
#include "cache_int.h"
#include "ptx_int.h"

#include <pthread.h>
#include <string.h>

struct wmi_cache_feeder {
    wm_cache *c;
    wmi_ctrace *t;   /* n recorders */
    uint8_t *kind;   /* per instruction: wm_cache_ld of loads */
    uint8_t *done;   /* per chunk: its CTAs have run */
    uint32_t n, next; /* next: the first chunk not fed yet */
    int busy;         /* a thread is feeding */
    wm_status st;     /* first feeding error */
    pthread_mutex_t mu;
};

wmi_cache_feeder *wmi_cache_feeder_new(wm_cache *c, const wm_ptx_module *m,
                                       wm_agg **aggs, uint32_t n)
{
    size_t ni = wm_ptx_ninsns(m);
    wmi_cache_feeder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->c = c;
    f->n = n;
    f->t = calloc(n, sizeof *f->t);
    f->kind = calloc(ni + 1, 1);
    f->done = calloc(n, 1);
    if (!f->t || !f->kind || !f->done ||
        pthread_mutex_init(&f->mu, NULL) != 0) {
        free(f->t);
        free(f->kind);
        free(f->done);
        free(f);
        return NULL;
    }
    for (size_t i = 0; i < ni; i++) {
        wm_ptx_where w;
        f->kind[i] = (uint8_t)(wm_ptx_where_insn(m, i, &w)
                                   ? wmi_cache_ld_of_text(w.text)
                                   : WM_CACHE_LD_CA);
    }
    if (!wmi_cache_lead(m, f->kind)) {
        pthread_mutex_destroy(&f->mu);
        free(f->t);
        free(f->kind);
        free(f->done);
        free(f);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        f->t[i].ld_kind = f->kind;
        f->t[i].nld_kind = ni;
        wmi_agg_set_tap(aggs[i], wmi_ctrace_tap, &f->t[i]);
        wmi_agg_set_tap_affine(aggs[i], wmi_ctrace_tap_affine);
    }
    return f;
}

wmi_ctrace *wmi_cache_trace(wmi_cache_feeder *f, uint32_t k)
{
    assert(k < f->n);
    return &f->t[k];
}

void wmi_cache_chunk_done(wmi_cache_feeder *f, uint32_t k)
{
    pthread_mutex_lock(&f->mu);
    f->done[k] = 1;
    if (!f->busy) {
        f->busy = 1;
        /* Whoever finds the next chunk done feeds it; a chunk finished by
         * another thread meanwhile is seen at the next check. */
        while (f->next < f->n && f->done[f->next]) {
            uint32_t i = f->next++;
            pthread_mutex_unlock(&f->mu);
            wm_status st = f->st == WM_OK ? wmi_cache_feed(f->c, &f->t[i])
                                          : f->st;
            wmi_ctrace_free(&f->t[i]);
            pthread_mutex_lock(&f->mu);
            if (f->st == WM_OK)
                f->st = st;
        }
        f->busy = 0;
    }
    pthread_mutex_unlock(&f->mu);
}

wm_status wmi_cache_feeder_end(wmi_cache_feeder *f, int feed)
{
    /* the workers have joined: no lock needed */
    wm_status st = f->st;
    for (uint32_t i = f->next; i < f->n; i++) {
        if (feed && st == WM_OK)
            st = wmi_cache_feed(f->c, &f->t[i]);
        wmi_ctrace_free(&f->t[i]);
    }
    if (feed && st == WM_OK)
        st = wm_cache_finish(f->c);
    pthread_mutex_destroy(&f->mu);
    free(f->t);
    free(f->kind);
    free(f->done);
    free(f);
    return st;
}

uint64_t wm_ptx_kernel_smem(const wm_ptx_module *m, size_t k,
                            uint64_t dyn_smem)
{
    for (size_t i = 0; m && i < m->nfuncs; i++) {
        const wmi_func *f = &m->funcs[i];
        if (!f->is_entry || k-- != 0)
            continue;
        uint64_t smem = f->smem_static;
        /* the same layout as the launch (ptx_run.c) */
        if (dyn_smem && f->dyn_align)
            smem = (smem + f->dyn_align - 1) / f->dyn_align * f->dyn_align +
                   dyn_smem;
        return smem;
    }
    return 0;
}

/* The first '.'-separated word of text has modifier m. */
static int has_mod(const char *text, const char *m)
{
    size_t n = strlen(m);
    const char *end = text + strcspn(text, " \t");
    for (const char *p = strchr(text, '.'); p && p < end;
         p = strchr(p + 1, '.'))
        if ((size_t)(end - p - 1) >= n && strncmp(p + 1, m, n) == 0 &&
            (p[1 + n] == '.' || p + 1 + n == end))
            return 1;
    return 0;
}

wm_cache_ld wmi_cache_ld_of_text(const char *text)
{
    /* PTX ISA, "Cache Operators" and "ld": .cg caches in L2 only; .cs and
     * .lu (on global addresses the same as .cs) are evict-first; .cv
     * fetches again; ld.volatile is not cached either; .nc goes through
     * the L1/texture path and is cached. */
    if (!text || strncmp(text, "ld", 2) != 0)
        return WM_CACHE_LD_CA;
    if (has_mod(text, "cv") || has_mod(text, "volatile"))
        return WM_CACHE_LD_CV;
    if (has_mod(text, "cg"))
        return WM_CACHE_LD_CG;
    if (has_mod(text, "L1::no_allocate"))
        return WM_CACHE_LD_NO_ALLOCATE;
    if (has_mod(text, "cs") || has_mod(text, "lu") ||
        has_mod(text, "L1::evict_first"))
        return WM_CACHE_LD_EVICT_FIRST;
    return WM_CACHE_LD_CA;
}
