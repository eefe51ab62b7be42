/*
 * test_kernels.c -- every example kernel of tests/kernel_cases.c through
 * the PTX interpreter: the functional result against the case's C
 * reference, and the per-source-line numbers against its hand-computed
 * kc_expect table.  One case is also run with several threads, and the
 * statistics must be identical to the one-thread run.
 */
#include "check.h"
#include "kernel_cases.h"
#include "warpmem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)sz + 1);
    if (buf && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[sz] = 0;
        *n = (size_t)sz;
    }
    return buf;
}

static wm_ptx_module *load(const char *rel)
{
    char path[1024];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    char *src = read_all(path, &n);
    if (!src) {
        fprintf(stderr, "cannot read %s\n", path);
        return NULL;
    }
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, n, path, &m, &d) != WM_OK)
        wm_diag_print(stderr, &d, path, src, n);
    free(src);
    return m;
}

/* Scalar spec "i32=64" / "f32=1.5" as argument bits. */
static int scalar(const char *spec, wm_ptx_arg *a)
{
    const char *eq = strchr(spec, '=');
    char type[8];
    if (!eq || (size_t)(eq - spec) >= sizeof type)
        return 0;
    memcpy(type, spec, (size_t)(eq - spec));
    type[eq - spec] = 0;
    wm_ptx_type t;
    if (wm_ptx_type_parse(type, &t) != WM_OK)
        return 0;
    a->size = (unsigned)wm_ptx_type_size(t);
    if (t == WM_PTX_F32) {
        float f = strtof(eq + 1, NULL);
        uint32_t u;
        memcpy(&u, &f, 4);
        a->scalar = u;
    } else if (t == WM_PTX_F64) {
        double f = strtod(eq + 1, NULL);
        memcpy(&a->scalar, &f, 8);
    } else {
        a->scalar = (uint64_t)strtoll(eq + 1, NULL, 0);
        if (a->size < 8)
            a->scalar &= ((uint64_t)1 << (a->size * 8)) - 1;
    }
    return 1;
}

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
    wm_ptx_module *m = load(kc->ptx);
    CHECK(m != NULL);
    if (!m)
        return NULL;
    long k = wm_ptx_find_kernel(m, kc->kernel);
    CHECK(k >= 0);
    if (k < 0) {
        fprintf(stderr, "%s: kernel %s not found\n", kc->name, kc->kernel);
        wm_ptx_free(m);
        return NULL;
    }
    wm_ptx_arg args[16];
    void *bufs[16];
    memset(args, 0, sizeof args);
    memset(bufs, 0, sizeof bufs);
    for (size_t i = 0; i < kc->nargs && i < 16; i++) {
        const kc_arg *a = &kc->args[i];
        if (a->is_buf) {
            size_t bytes = a->buf.count * kc_type_size(a->buf.type);
            bufs[i] = calloc(bytes + 16, 1);
            CHECK(kc_fill(bufs[i], a->buf.type, a->buf.count, a->buf.init) == 0);
            args[i].buf = bufs[i];
            args[i].bytes = bytes;
        } else {
            CHECK(scalar(a->scalar, &args[i]));
        }
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, kc->grid, sizeof l.grid);
    memcpy(l.block, kc->block, sizeof l.block);
    l.dyn_smem = kc->dyn_smem;
    l.args = args;
    l.nargs = kc->nargs;
    l.max_steps = 10000000;
    l.threads = threads;
    wm_arch arch;
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_result res;
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, (size_t)k, &l, g, &res, &ft);
    CHECK_EQ(st, WM_OK);
    if (st != WM_OK)
        fprintf(stderr, "%s: run failed: %s (PTX line %u)\n", kc->name, ft.msg,
                ft.ptx_line);
    if (check && st == WM_OK) {
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
    for (size_t i = 0; i < 16; i++)
        free(bufs[i]);
    wm_ptx_free(m);
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
    return check_done("test_kernels");
}
