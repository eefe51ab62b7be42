/*
 * test_kernels.c -- every example kernel of tests/unit/kernel_cases.c through
 * the PTX interpreter: the functional result against the case's C
 * reference, and the per-source-line numbers against its hand-computed
 * kc_expect table.  One case is also run with several threads, and the
 * statistics must be identical to the one-thread run.  Every case also
 * runs with the interpreter's fast paths off (WMI_RUN_SLOW), and both runs
 * must agree on statistics, worst accesses, counts and output bytes.
 */
#include "check.h"
#include "kernel_run.h"
#include "ptx_twin.h"
#include "warpmem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct line_sum {
    uint64_t requests, sectors, ideal_sectors, wavefronts, ideal_wavefronts;
} line_sum;

static void sum_line(const wm_agg *g, unsigned line, const char *space,
                     const char *op, line_sum *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site st;
        wm_agg_site(g, i, &st);
        if (st.line != line || strcmp(wm_space_name(st.space), space) != 0 ||
            strcmp(wm_op_name(st.op), op) != 0)
            continue;
        s->requests += st.stats.requests;
        s->sectors += st.stats.sectors;
        s->ideal_sectors += st.stats.ideal_sectors;
        s->wavefronts += st.stats.wavefronts;
        s->ideal_wavefronts += st.stats.ideal_wavefronts;
    }
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-6 * (fabs(want) > 1 ? fabs(want) : 1);
}

/* Run case kc; returns the aggregator (caller frees) or NULL. */
static wm_agg *run_case(const kernel_case *kc, unsigned threads, int check)
{
    kr_run r;
    int ran = kr_run_case(kc, "sm_80", threads, &r);
    CHECK(ran);
    wm_agg *g = r.agg;
    void *const *bufs = r.bufs;
    if (check && ran) {
        char why[256] = "";
        int ok = kc->check(bufs, why, sizeof why);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "%s: wrong result: %s\n", kc->name, why);
        for (size_t e = 0; e < kc->nexpect; e++) {
            const kc_expect *x = &kc->expect[e];
            line_sum s;
            sum_line(g, x->line, x->space, x->op, &s);
            int shared = strcmp(x->space, "shared") == 0;
            CHECK(s.requests > 0);
            if (!s.requests) {
                fprintf(stderr, "%s: line %u %s %s: no requests\n", kc->name,
                        x->line, x->space, x->op);
                continue;
            }
            double per_s = (double)s.sectors / (double)s.requests;
            double per_w = (double)s.wavefronts / (double)s.requests;
            double ideal = (double)(shared ? s.ideal_wavefronts : s.ideal_sectors) /
                           (double)s.requests;
            int bad = 0;
            if (x->sectors_per_req >= 0 && !near(per_s, x->sectors_per_req))
                bad = 1;
            if (x->wavefronts_per_req >= 0 && !near(per_w, x->wavefronts_per_req))
                bad = 1;
            if (x->ideal_per_req >= 0 && !near(ideal, x->ideal_per_req))
                bad = 1;
            CHECK(!bad);
            if (bad)
                fprintf(stderr,
                        "%s: line %u %s %s: sectors/req %.4f (want %.4f), "
                        "wavefronts/req %.4f (want %.4f), ideal %.4f (want "
                        "%.4f)\n",
                        kc->name, x->line, x->space, x->op, per_s,
                        x->sectors_per_req, per_w, x->wavefronts_per_req, ideal,
                        x->ideal_per_req);
        }
    }
    r.agg = NULL; /* handed to the caller */
    kr_free(&r);
    return g;
}

/* Same sites, same numbers, same worst accesses. */
static int same_agg(const wm_agg *a, const wm_agg *b)
{
    if (wm_agg_nsites(a) != wm_agg_nsites(b))
        return 0;
    for (size_t i = 0; i < wm_agg_nsites(a); i++) {
        wm_site x, y;
        wm_agg_site(a, i, &x);
        wm_agg_site(b, i, &y);
        if (x.site != y.site || memcmp(&x.stats, &y.stats, sizeof x.stats) ||
            x.per_request.median != y.per_request.median ||
            (x.worst && y.worst && memcmp(x.worst, y.worst, sizeof *x.worst))) {
            fprintf(stderr, "site %u differs: inst %llu/%llu sectors %llu/%llu worst %d\n", x.site,
                    (unsigned long long)x.stats.inst, (unsigned long long)y.stats.inst,
                    (unsigned long long)x.stats.sectors, (unsigned long long)y.stats.sectors,
                    x.worst && y.worst ? memcmp(x.worst, y.worst, sizeof *x.worst) : 99);
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    for (size_t i = 0; i < nkernel_cases; i++) {
        int before = check_failures;
        wm_agg *g = run_case(&kernel_cases[i], 1, 1);
        wm_agg_free(g);
        printf("%-22s %s\n", kernel_cases[i].name,
               check_failures == before ? "ok" : "FAILED");
    }
    /* -j determinism: the histogram has atomics and several CTAs per chunk */
    for (size_t i = 0; i < nkernel_cases; i++) {
        const kernel_case *kc = &kernel_cases[i];
        if (strcmp(kc->name, "histogram_rand") && strcmp(kc->name, "sgemm"))
            continue;
        wm_agg *a = run_case(kc, 1, 0), *b = run_case(kc, 3, 1);
        CHECK(a && b && same_agg(a, b));
        wm_agg_free(a);
        wm_agg_free(b);
    }
    /* fast paths against the slow path, case by case */
    for (size_t i = 0; i < nkernel_cases; i++) {
        const kernel_case *kc = &kernel_cases[i];
        kr_run fast, slow;
        int okf = kr_run_case_flags(kc, "sm_80", 1, 0, &fast);
        int oks = kr_run_case_flags(kc, "sm_80", 1, WMI_RUN_SLOW, &slow);
        CHECK(okf && oks);
        if (okf && oks) {
            CHECK(twin_same_agg(slow.agg, fast.agg));
            CHECK(twin_same_fault(&slow.fault, &fast.fault));
            CHECK_EQ(slow.res.warp_insts, fast.res.warp_insts);
            CHECK_EQ(slow.res.thread_insts, fast.res.thread_insts);
            for (size_t a = 0; a < kc->nargs; a++)
                if (kc->args[a].is_buf)
                    CHECK(memcmp(slow.bufs[a], fast.bufs[a],
                                 kc->args[a].buf.count *
                                     kc_type_size(kc->args[a].buf.type)) == 0);
        }
        kr_free(&fast);
        kr_free(&slow);
    }
    return check_done("test_kernels");
}
