/*
 * test_nomem.c -- allocation-failure injection (SQLite's approach).  The
 * test is linked with -Wl,--wrap for malloc, calloc, realloc and free, so
 * every allocation the library makes goes through nomem_alloc.c.
 * For each example (every kernel case of kernel_cases.c on a two-CTA grid,
 * every expression of examples/expr) the work is first run once to count
 * its allocations; then, for every N up to that count, it is run again
 * with the N-th allocation failing.  Each such run must return
 * WM_ERR_NOMEM from the call that failed and free everything it allocated
 * (the wrappers track live blocks); under ASan a crash or a leak fails the
 * test as well.
 */
#include "check.h"
#include "kernel_cases.h"
#include "nomem_alloc.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the work ----------------------------------------------------------- */

typedef struct ptx_work {
    const kernel_case *kc;
    char *src;
    size_t n;
    void *bufs[16];
    wm_ptx_arg args[16];
} ptx_work;

static int ptx_prepare(const kernel_case *kc, ptx_work *w)
{
    char path[1024];
    memset(w, 0, sizeof *w);
    w->kc = kc;
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, kc->ptx);
    w->src = wm_read_file(path, &w->n);
    if (!w->src || kc->nargs > 16)
        return 0;
    for (size_t i = 0; i < kc->nargs; i++) {
        const kc_arg *a = &kc->args[i];
        if (a->is_buf) {
            wm_ptx_type t;
            if (wm_ptx_type_parse(a->buf.type, &t) != WM_OK)
                return 0;
            size_t bytes = a->buf.count * wm_ptx_type_size(t);
            w->bufs[i] = calloc(bytes + 16, 1);
            if (!w->bufs[i])
                return 0;
            kc_fill(w->bufs[i], a->buf.type, a->buf.count, a->buf.init);
            w->args[i].buf = w->bufs[i];
            w->args[i].bytes = bytes;
        } else {
            /* "i32=64": the scalar's size from its type */
            const char *eq = strchr(a->scalar, '=');
            char type[8];
            size_t tl = eq ? (size_t)(eq - a->scalar) : 0;
            wm_ptx_type t;
            if (!eq || tl >= sizeof type)
                return 0;
            memcpy(type, a->scalar, tl);
            type[tl] = 0;
            if (wm_ptx_type_parse(type, &t) != WM_OK)
                return 0;
            w->args[i].size = (unsigned)wm_ptx_type_size(t);
            w->args[i].scalar = (uint64_t)strtoll(eq + 1, NULL, 0);
        }
    }
    return 1;
}

static void ptx_release(ptx_work *w)
{
    for (size_t i = 0; i < 16; i++)
        free(w->bufs[i]);
    free(w->src);
}

/* Parse and run (two CTAs, one thread); the first status that is not OK. */
static wm_status ptx_once(const ptx_work *w, const wm_arch *arch)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    memset(&d, 0, sizeof d);
    wm_status st = wm_ptx_parse(w->src, w->n, w->kc->ptx, &m, &d);
    if (st != WM_OK)
        return st;
    long k = wm_ptx_find_kernel(m, w->kc->kernel);
    wm_agg *g = wm_agg_new(arch);
    if (!g) {
        wm_ptx_free(m);
        return WM_ERR_NOMEM;
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.block, w->kc->block, sizeof l.block);
    l.grid[0] = w->kc->grid[0] < 2 ? w->kc->grid[0] : 2;
    l.grid[1] = l.grid[2] = 1;
    l.dyn_smem = w->kc->dyn_smem;
    l.args = w->args;
    l.nargs = w->kc->nargs;
    l.threads = 1;
    l.max_steps = 10000000;
    wm_ptx_result res;
    wm_ptx_fault ft;
    st = k < 0 ? WM_ERR_ARG : wm_ptx_run(m, (size_t)k, &l, g, &res, &ft);
    wm_agg_free(g);
    wm_ptx_free(m);
    return st;
}

static wm_status expr_once(const char *src, size_t n, const wm_arch *arch)
{
    wm_expr *e = wm_expr_new();
    if (!e)
        return WM_ERR_NOMEM;
    wm_diag d;
    memset(&d, 0, sizeof d);
    wm_status st = wm_expr_parse(e, src, n, "x.expr", &d);
    wm_agg *g = NULL;
    if (st == WM_OK) {
        g = wm_agg_new(arch);
        st = g ? wm_expr_run(e, g, 0, NULL) : WM_ERR_NOMEM;
    }
    wm_agg_free(g);
    wm_expr_free(e);
    return st;
}

/* ---- the loop ------------------------------------------------------------ */

typedef wm_status (*work_fn)(const void *ctx, const wm_arch *arch);

static wm_status run_ptx(const void *ctx, const wm_arch *arch)
{
    return ptx_once(ctx, arch);
}

typedef struct expr_work {
    char *src;
    size_t n;
} expr_work;

static wm_status run_expr(const void *ctx, const wm_arch *arch)
{
    const expr_work *x = ctx;
    return expr_once(x->src, x->n, arch);
}

/* Count the allocations of one run, then fail each in turn. */
static void inject_all(const char *name, work_fn fn, const void *ctx,
                       const wm_arch *arch, unsigned long *total)
{
    /* WM_NOMEM_ONLY=name restricts the test to one example (debugging) */
    const char *only = getenv("WM_NOMEM_ONLY");
    if (only && strcmp(only, name) != 0)
        return;
    nomem_arm(0);
    wm_status st = fn(ctx, arch);
    nomem_disarm();
    unsigned long count = nomem_count();
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(nomem_live(), 0);
    if (st != WM_OK) {
        fprintf(stderr, "%s: %s without injection\n", name, wm_status_str(st));
        return;
    }
    for (unsigned long at = 1; at <= count; at++) {
        nomem_arm(at);
        st = fn(ctx, arch);
        nomem_disarm();
        long live = nomem_live();
        if (st != WM_ERR_NOMEM || live != 0 || !nomem_failed())
            fprintf(stderr, "%s: allocation %lu of %lu failed: status %s, "
                            "%ld blocks left\n",
                    name, at, count, wm_status_str(st), live);
        CHECK(nomem_failed());
        CHECK_EQ(st, WM_ERR_NOMEM);
        CHECK_EQ(live, 0);
    }
    *total += count;
}

int main(void)
{
    wm_arch arch;
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    unsigned long total = 0;
    size_t nwork = 0;
    for (size_t i = 0; i < nkernel_cases; i++) {
        ptx_work w;
        if (ptx_prepare(&kernel_cases[i], &w)) {
            inject_all(kernel_cases[i].name, run_ptx, &w, &arch, &total);
            nwork++;
        } else {
            fprintf(stderr, "%s: case could not be prepared\n",
                    kernel_cases[i].name);
            CHECK(0);
        }
        ptx_release(&w);
    }
    static const char *const exprs[] = {
        "contiguous_copy", "kv_cache", "misaligned_copy", "transpose_naive",
        "transpose_padded", "transpose_swizzled", "transpose_tiled",
        "transposed_copy", "vector_copy16"};
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/examples/expr/%s.expr", WM_SOURCE_DIR,
                 exprs[i]);
        expr_work x;
        x.src = wm_read_file(path, &x.n);
        CHECK(x.src != NULL);
        if (x.src) {
            inject_all(exprs[i], run_expr, &x, &arch, &total);
            nwork++;
        }
        free(x.src);
    }
    printf("test_nomem: %zu examples, %lu allocations each failed once\n",
           nwork, total);
    return check_done("test_nomem");
}
