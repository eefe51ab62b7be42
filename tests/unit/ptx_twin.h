/*
 * ptx_twin.h -- differential runs of the PTX interpreter for the tests:
 * every launch runs twice, first with every fast path off (WMI_RUN_SLOW,
 * the plain per-lane interpreter) and then normally, on identical copies of
 * the argument buffers.  The two runs must agree on everything a caller
 * can see: status, fault report, instruction counts, every site's
 * statistics, per-request distribution, worst access and label, and the
 * bytes of every buffer, and, where a test asks (twin_cache), what the
 * hierarchy model reports.  The fast run's results are what the caller gets.
 * With race tracking and the schedule comparison, the slow run always runs
 * the second schedule and the fast run may prove it equal instead
 * (WM_CHECK_PROVE): both must agree on the outcome.
 * Include after check.h; needs src/ on the include path.
 */
#ifndef WM_PTX_TWIN_H
#define WM_PTX_TWIN_H

#include "ptx_int.h"

#include <stdlib.h>
#include <string.h>

static inline int twin_same_agg(const wm_agg *a, const wm_agg *b)
{
    if (!a || !b)
        return a == b;
    if (wm_agg_nsites(a) != wm_agg_nsites(b))
        return 0;
    for (size_t i = 0; i < wm_agg_nsites(a); i++) {
        wm_site x, y;
        if (!wm_agg_site(a, i, &x) || !wm_agg_site(b, i, &y))
            return 0;
        if (x.site != y.site || x.space != y.space || x.op != y.op ||
            x.size != y.size || x.line != y.line ||
            strcmp(x.label, y.label) != 0 ||
            memcmp(&x.stats, &y.stats, sizeof x.stats) != 0 ||
            x.per_request.min != y.per_request.min ||
            x.per_request.median != y.per_request.median ||
            x.per_request.max != y.per_request.max ||
            x.per_request.mean != y.per_request.mean || !x.worst != !y.worst ||
            (x.worst && memcmp(x.worst, y.worst, sizeof *x.worst) != 0)) {
            fprintf(stderr, "twin: site %u (%s) differs between the slow and "
                    "fast paths\n", x.site, x.label);
            return 0;
        }
    }
    return 1;
}

static inline int twin_same_fault(const wm_ptx_fault *a, const wm_ptx_fault *b)
{
    return a->status == b->status && strcmp(a->msg, b->msg) == 0 &&
           memcmp(a->cta, b->cta, sizeof a->cta) == 0 &&
           memcmp(a->thread, b->thread, sizeof a->thread) == 0 &&
           a->warp == b->warp && a->lane == b->lane && a->insn == b->insn &&
           a->ptx_line == b->ptx_line && a->line == b->line &&
           strcmp(a->file, b->file) == 0 &&
           a->call_ptx_line == b->call_ptx_line &&
           a->call_line == b->call_line;
}

/* The findings of two checked runs are the same: every hazard, in order,
   byte for byte, the dropped count and the schedule comparison. */
static inline int twin_same_check(const wm_ptx_check *a, const wm_ptx_check *b)
{
    if (a->differs != b->differs)
        fprintf(stderr, "twin: the schedules' outputs %s in the slow run, "
                "%s in the fast one\n", a->differs ? "differ" : "agree",
                b->differs ? "differ" : b->proved ? "proved equal" : "agree");
    if (a->nhazards != b->nhazards || a->dropped != b->dropped ||
        a->differs != b->differs || a->diff_arg != b->diff_arg ||
        a->diff_byte != b->diff_byte || a->diff_elem != b->diff_elem ||
        memcmp(a->diff_bytes, b->diff_bytes, sizeof a->diff_bytes) != 0)
        return 0;
    for (size_t i = 0; i < a->nhazards; i++)
        if (memcmp(&a->hazards[i], &b->hazards[i], sizeof a->hazards[i])) {
            fprintf(stderr, "twin: hazard %zu differs between the slow and "
                    "fast paths\n", i);
            return 0;
        }
    return 1;
}

/* Two runs of the hierarchy model report the same: every count, per site
   and in total, every interval's terms, the time estimate and every metric,
   bit for bit. */
static inline int twin_same_cache(const wm_cache *a, const wm_cache *b)
{
    wm_cache_stats x, y;
    wm_cache_totals(a, &x);
    wm_cache_totals(b, &y);
    int same = memcmp(&x, &y, sizeof x) == 0 &&
               wm_cache_nsites(a) == wm_cache_nsites(b) &&
               wm_cache_nintervals(a) == wm_cache_nintervals(b);
    for (size_t i = 0; same && i < wm_cache_nsites(a); i++) {
        uint32_t sa, sb;
        same = wm_cache_site(a, i, &sa, &x) && wm_cache_site(b, i, &sb, &y) &&
               sa == sb && memcmp(&x, &y, sizeof x) == 0;
    }
    for (size_t i = 0; same && i < wm_cache_nintervals(a); i++) {
        double la, pa, lb, pb;
        same = wm_cache_interval(a, i, &la, &pa) &&
               wm_cache_interval(b, i, &lb, &pb) &&
               memcmp(&la, &lb, sizeof la) == 0 &&
               memcmp(&pa, &pb, sizeof pa) == 0;
    }
    wm_cache_time ta, tb;
    wm_cache_predict(a, &ta);
    wm_cache_predict(b, &tb);
    same = same && memcmp(&ta, &tb, sizeof ta) == 0;
    for (size_t i = 0; same && i < wm_cache_metric_count(); i++) {
        double va = wm_cache_metric_value(a, i), vb = wm_cache_metric_value(b, i);
        same = memcmp(&va, &vb, sizeof va) == 0;
    }
    if (!same)
        fprintf(stderr, "twin: the hierarchy model differs between the slow "
                "and fast paths\n");
    return same;
}

/* Checked launches whose fast run left the schedule comparison's second
   run out as proved (the slow run compared, and agreed). */
static unsigned twin_proved;

/* A test may set twin_cache: every launch with an aggregator and without
   a model of its own then runs, slow and fast, with a model each of this
   configuration, and the two must agree (twin_same_cache). */
static const wm_cache_config *twin_cache;

/* A small model for twin_cache: the H200's figures on 2 SMs of 2 CTAs,
   4 KiB 4-way L1s and a 32 KiB 8-way L2, so that small launches take
   several waves and evict lines. */
static inline wm_cache_config twin_small_cache(void)
{
    wm_cache_config c;
    memset(&c, 0, sizeof c);
    CHECK_EQ(wm_cache_config_init(&c, wm_gpu_find("H200"), 64, 0), WM_OK);
    c.nsms = 2;
    c.ctas_per_sm = 2;
    c.l1_bytes = 4096;
    c.l1_ways = 4;
    c.l2_bytes = 32768;
    c.l2_ways = 8;
    return c;
}

/* wm_ptx_run, checked against the slow path (see the file header). */
static inline wm_status twin_run(const wm_ptx_module *m, size_t k,
                          const wm_ptx_launch *l, wm_agg *agg,
                          wm_ptx_result *res, wm_ptx_fault *ft)
{
    /* the argument buffers, then the extra buffers (struct fields) */
    size_t n = l->nargs + l->nextra;
    wm_ptx_arg *bufs = calloc(n + 1, sizeof *bufs);
    void **snap = calloc(n + 1, sizeof *snap), **slow = calloc(n + 1, sizeof *slow);
    CHECK(bufs && snap && slow);
    for (size_t i = 0; bufs && i < n; i++)
        bufs[i] = i < l->nargs ? l->args[i] : l->extra[i - l->nargs];
    for (size_t i = 0; bufs && snap && slow && i < n; i++)
        if (bufs[i].buf) {
            snap[i] = malloc(bufs[i].bytes + 1);
            slow[i] = malloc(bufs[i].bytes + 1);
            CHECK(snap[i] && slow[i]);
            if (snap[i])
                memcpy(snap[i], bufs[i].buf, bufs[i].bytes);
        }
    wm_agg *sagg = agg ? wm_agg_new(wm_agg_arch(agg)) : NULL;
    wm_ptx_result sres, fres;
    wm_ptx_fault sft, fft;
    wm_ptx_launch sl = *l;
    wm_ptx_check schk;
    unsigned checks = l->check ? l->check->checks : 0;
    const unsigned sched = WM_CHECK_RACE | WM_CHECK_SCHEDULES;
    if (l->check) { /* the slow run's findings apart (same inputs) */
        schk = *l->check;
        schk.hazards = NULL;
        schk.nhazards = 0;
        /* The slow run always compares the schedules' outputs; the fast
           one leaves its second run out where the first proves them
           equal (WM_CHECK_PROVE), so that every checked launch of the
           tests tests the proof against a real comparison. */
        schk.checks &= ~(unsigned)WM_CHECK_PROVE;
        if ((checks & sched) == sched)
            l->check->checks |= WM_CHECK_PROVE;
        sl.check = &schk;
    }
    wm_ptx_launch fl = *l;
    wm_cache *sc = NULL, *fc = NULL;
    if (twin_cache && agg && !l->cache) {
        sc = wm_cache_new(twin_cache);
        fc = wm_cache_new(twin_cache);
        CHECK(sc && fc);
        sl.cache = sc;
        fl.cache = fc;
    }
    wm_status sst = wmi_ptx_run_opts(m, k, &sl, sagg, &sres, &sft,
                                     WMI_RUN_SLOW);
    for (size_t i = 0; snap && slow && i < n; i++)
        if (snap[i] && slow[i]) {
            memcpy(slow[i], bufs[i].buf, bufs[i].bytes);
            memcpy(bufs[i].buf, snap[i], bufs[i].bytes);
        }
    wm_status fst = wmi_ptx_run_opts(m, k, &fl, agg, &fres, &fft, 0);
    if (l->check) {
        twin_proved += l->check->proved != 0;
        l->check->checks = checks;
    }
    CHECK_EQ(sst, fst);
    CHECK(twin_same_fault(&sft, &fft));
    if (sst != WM_ERR_NOMEM && fst != WM_ERR_NOMEM) {
        CHECK_EQ(sres.warp_insts, fres.warp_insts);
        CHECK_EQ(sres.thread_insts, fres.thread_insts);
        CHECK_EQ(sres.ctas_run, fres.ctas_run);
        CHECK(twin_same_agg(sagg, agg));
        if (l->check)
            CHECK(twin_same_check(&schk, l->check));
        if (sc && fc && sst == WM_OK)
            CHECK(twin_same_cache(sc, fc));
    }
    wm_cache_free(sc);
    wm_cache_free(fc);
    if (l->check)
        wm_ptx_check_clear(&schk);
    for (size_t i = 0; snap && slow && i < n; i++) {
        if (slow[i])
            CHECK(memcmp(slow[i], bufs[i].buf, bufs[i].bytes) == 0);
        free(snap[i]);
        free(slow[i]);
    }
    free(bufs);
    free(snap);
    free(slow);
    wm_agg_free(sagg);
    if (res)
        *res = fres;
    if (ft)
        *ft = fft;
    return fst;
}

/* A copy of n bytes at p (NULL for none, or when out of memory). */
static inline void *twin_save(const void *p, size_t n)
{
    void *c = p ? malloc(n + 1) : NULL;
    if (c)
        memcpy(c, p, n);
    return c;
}

/* Put the bytes of twin_save back and free the copy. */
static inline void twin_restore(void *p, void *saved, size_t n)
{
    if (saved)
        memcpy(p, saved, n);
    free(saved);
}

/*
 * Launch l (which has no checks of its own) once more under every check,
 * through twin_run: race, init and the schedule comparison, which the slow
 * run always runs in full and the fast one may prove instead.  Every
 * launch of the tests, racy or not, thereby tests that proof against a
 * real comparison.  What the checks find is not asserted here, and every
 * buffer, surface and variable read back is put back as it was; the
 * caller's model and progress callback are not given this run.
 */
static inline void twin_checked(const wm_ptx_module *m, size_t k,
                                const wm_ptx_launch *l)
{
    enum { MAXB = 64 };
    size_t n = l->nargs + l->nextra;
    if (l->check || n > MAXB || l->nglobals > MAXB || l->ntextures > MAXB)
        return;
    void *buf[MAXB], *glob[MAXB], *tex[MAXB];
    for (size_t i = 0; i < n; i++) {
        const wm_ptx_arg *a = i < l->nargs ? &l->args[i]
                                           : &l->extra[i - l->nargs];
        buf[i] = twin_save(a->buf, a->bytes);
    }
    for (size_t i = 0; i < l->nglobals; i++)
        glob[i] = twin_save(l->globals[i].out, l->globals[i].bytes);
    for (size_t i = 0; i < l->ntextures; i++)
        tex[i] = twin_save(l->textures[i].data, l->textures[i].bytes);
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES;
    wm_ptx_launch cl = *l;
    cl.check = &chk;
    cl.cache = NULL;
    cl.progress = NULL;
    wm_ptx_fault f;
    twin_run(m, k, &cl, NULL, NULL, &f);
    wm_ptx_check_clear(&chk);
    for (size_t i = 0; i < n; i++) {
        const wm_ptx_arg *a = i < l->nargs ? &l->args[i]
                                           : &l->extra[i - l->nargs];
        twin_restore(a->buf, buf[i], a->bytes);
    }
    for (size_t i = 0; i < l->nglobals; i++)
        twin_restore(l->globals[i].out, glob[i], l->globals[i].bytes);
    for (size_t i = 0; i < l->ntextures; i++)
        twin_restore(l->textures[i].data, tex[i], l->textures[i].bytes);
}

#endif /* WM_PTX_TWIN_H */
