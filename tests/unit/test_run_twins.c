/*
 * test_run_twins.c -- the same memory numbers from the two front ends:
 * each example kernel that has an expression twin is run by the PTX
 * interpreter (its committed sm_80/sm_90 PTX, launched as
 * tests/unit/kernel_cases.c launches it) and by the expression evaluator, and
 * every access must cost the same.
 *   - tests/twins/NAME.expr states the kernel's accesses with the same grid,
 *     block and sizes: requests, sectors, ideal sectors, wavefronts and
 *     ideal wavefronts must be equal in total, and so must the min and max
 *     per request (a source line's PTX instructions, e.g. an unrolled loop,
 *     are summed against the statement's loop);
 *   - examples/expr/NAME.expr (the lesson-sized programs, made small with
 *     -D) must give the same values per request.
 * docs/kernels.md lists the pairs.
 */
#include "check.h"
#include "kernel_run.h"

#include <stdlib.h>
#include <string.h>

/* One access: kernel source line, space, op <-> statement index. */
typedef struct pair {
    unsigned line;
    wm_space space;
    wm_op op;
    int twin_stmt;    /* in tests/twins/<case>.expr */
    int example_stmt; /* in the example program; -1: none */
} pair;

typedef struct twin {
    const char *kcase;    /* kernel_cases name */
    const char *example;  /* examples/expr file or NULL */
    const char *defines;  /* "N=256" etc. for the example, or "" */
    pair pairs[5];
    size_t npairs;
} twin;

#define G WM_SPACE_GLOBAL
#define S WM_SPACE_SHARED
#define LD WM_OP_LD
#define ST WM_OP_ST

static const twin twins[] = {
    {"copy", "contiguous_copy", "N=256", {{16, G, LD, 0, 0}, {16, G, ST, 1, 1}}, 2},
    {"copy_sm90", "contiguous_copy", "N=256", {{16, G, LD, 0, 0}, {16, G, ST, 1, 1}}, 2},
    {"misaligned_copy", "misaligned_copy", "N=256",
     {{19, G, LD, 0, 0}, {19, G, ST, 1, 1}}, 2},
    {"vec_copy", "vector_copy16", "N=256", {{18, G, LD, 0, 0}, {18, G, ST, 1, 1}}, 2},
    /* the naive transpose reads rows and writes columns: as
       transpose_naive.expr, and as transposed_copy.expr with the roles of
       its load (column) and store (row) swapped */
    {"transpose_naive", "transpose_naive", "N=256",
     {{32, G, LD, 0, 0}, {32, G, ST, 1, 1}}, 2},
    {"transpose_naive", "transposed_copy", "N=256",
     {{32, G, LD, 0, 1}, {32, G, ST, 1, 0}}, 2},
    {"transpose_tiled", "transpose_tiled", "N=256",
     {{42, G, LD, 0, 0}, {42, S, ST, 1, 1}, {47, S, LD, 2, 2}, {47, G, ST, 3, 3}}, 4},
    {"transpose_padded", "transpose_padded", "N=256",
     {{57, G, LD, 0, 0}, {57, S, ST, 1, 1}, {62, S, LD, 2, 2}, {62, G, ST, 3, 3}}, 4},
    {"transpose_swizzled", "transpose_swizzled", "N=256",
     {{73, G, LD, 0, 0}, {73, S, ST, 1, 1}, {80, S, LD, 2, 2}, {80, G, ST, 3, 3}}, 4},
    {"kv_cache_paged", "kv_cache", "TOKENS=64",
     {{34, G, LD, 0, -1}, {47, G, LD, 1, -1}, {47, G, ST, 2, 0}}, 3},
    {"kv_cache_flash", "kv_cache", "TOKENS=64",
     {{56, G, LD, 0, -1}, {66, G, LD, 1, -1}, {66, G, ST, 2, 1}}, 3},
};

/* What one access costs, summed, with its per-request range. */
typedef struct cost {
    uint64_t requests, sectors, ideal_sectors, wavefronts, ideal_wavefronts;
    uint32_t min, max; /* sectors or wavefronts per request */
} cost;

static void add_site(cost *c, const wm_site *s)
{
    if (c->requests == 0 || s->per_request.min < c->min)
        c->min = s->per_request.min;
    if (s->per_request.max > c->max)
        c->max = s->per_request.max;
    c->requests += s->stats.requests;
    c->sectors += s->stats.sectors;
    c->ideal_sectors += s->stats.ideal_sectors;
    c->wavefronts += s->stats.wavefronts;
    c->ideal_wavefronts += s->stats.ideal_wavefronts;
}

/* The PTX sites of one source line, space and op. */
static cost ptx_cost(const wm_agg *g, const pair *p)
{
    cost c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        if (s.line == p->line && s.space == p->space && s.op == p->op &&
            s.stats.requests)
            add_site(&c, &s);
    }
    return c;
}

/* Run an expression file (relative to the source tree) into a new agg. */
static wm_agg *run_expr(const char *rel, const char *defines)
{
    size_t n = 0;
    char *src = kr_read_source(rel, &n);
    CHECK(src != NULL);
    if (!src) {
        fprintf(stderr, "cannot read %s\n", rel);
        return NULL;
    }
    wm_expr *e = wm_expr_new();
    wm_arch arch;
    CHECK(e && wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    if (*defines) {
        const char *eq = strchr(defines, '=');
        char name[32];
        size_t l = (size_t)(eq - defines);
        memcpy(name, defines, l);
        name[l] = 0;
        CHECK_EQ(wm_expr_define(e, name, strtoll(eq + 1, NULL, 10)), WM_OK);
    }
    wm_diag d;
    wm_agg *g = NULL;
    if (wm_expr_parse(e, src, n, rel, &d) != WM_OK) {
        wm_diag_print(stderr, &d, rel, src, n);
        CHECK(0);
    } else {
        g = wm_agg_new(&arch);
        wm_expr_fault ft;
        wm_status st = wm_expr_run(e, g, 0, &ft);
        CHECK_EQ(st, WM_OK);
        if (st != WM_OK)
            fprintf(stderr, "%s: %s\n", rel, ft.diag.msg);
    }
    wm_expr_free(e);
    free(src);
    return g;
}

static cost stmt_cost(const wm_agg *g, int stmt, const pair *p)
{
    cost c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; g && i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        if (s.site == (uint32_t)stmt) {
            CHECK_EQ(s.space, p->space);
            add_site(&c, &s);
        }
    }
    return c;
}

static void report(const char *what, const twin *t, const pair *p,
                   const cost *a, const cost *b)
{
    fprintf(stderr,
            "%s %s line %u %s %s: ptx req %llu sec %llu ideal %llu wf %llu "
            "iwf %llu min %u max %u; expr req %llu sec %llu ideal %llu wf "
            "%llu iwf %llu min %u max %u\n",
            what, t->kcase, p->line, wm_space_name(p->space), wm_op_name(p->op),
            (unsigned long long)a->requests, (unsigned long long)a->sectors,
            (unsigned long long)a->ideal_sectors,
            (unsigned long long)a->wavefronts,
            (unsigned long long)a->ideal_wavefronts, a->min, a->max,
            (unsigned long long)b->requests, (unsigned long long)b->sectors,
            (unsigned long long)b->ideal_sectors,
            (unsigned long long)b->wavefronts,
            (unsigned long long)b->ideal_wavefronts, b->min, b->max);
}

/* x/r == y/s without division. */
static int same_ratio(uint64_t x, uint64_t r, uint64_t y, uint64_t s)
{
    return x * s == y * r;
}

static void check_twin(const twin *t)
{
    const kernel_case *kc = kr_find(t->kcase);
    CHECK(kc != NULL);
    if (!kc)
        return;
    kr_run r;
    int ran = kr_run_case(kc, "sm_80", 1, &r);
    CHECK(ran);
    char rel[256];
    const char *base = t->kcase;
    if (strcmp(base, "copy_sm90") == 0)
        base = "copy";
    snprintf(rel, sizeof rel, "tests/twins/%s.expr", base);
    wm_agg *tw = ran ? run_expr(rel, "") : NULL;
    wm_agg *ex = NULL;
    if (ran && t->example) {
        snprintf(rel, sizeof rel, "examples/expr/%s.expr", t->example);
        ex = run_expr(rel, t->defines);
    }
    for (size_t i = 0; ran && i < t->npairs; i++) {
        const pair *p = &t->pairs[i];
        cost a = ptx_cost(r.agg, p);
        cost b = stmt_cost(tw, p->twin_stmt, p);
        CHECK(a.requests > 0);
        int same = a.requests == b.requests && a.sectors == b.sectors &&
                   a.ideal_sectors == b.ideal_sectors &&
                   a.wavefronts == b.wavefronts &&
                   a.ideal_wavefronts == b.ideal_wavefronts &&
                   a.min == b.min && a.max == b.max;
        CHECK(same);
        if (!same)
            report("twin", t, p, &a, &b);
        if (!ex || p->example_stmt < 0)
            continue;
        cost c = stmt_cost(ex, p->example_stmt, p);
        CHECK(c.requests > 0);
        int per = same_ratio(a.sectors, a.requests, c.sectors, c.requests) &&
                  same_ratio(a.ideal_sectors, a.requests, c.ideal_sectors,
                             c.requests) &&
                  same_ratio(a.wavefronts, a.requests, c.wavefronts,
                             c.requests) &&
                  same_ratio(a.ideal_wavefronts, a.requests,
                             c.ideal_wavefronts, c.requests) &&
                  a.min == c.min && a.max == c.max;
        CHECK(per);
        if (!per)
            report(t->example, t, p, &a, &c);
    }
    wm_agg_free(tw);
    wm_agg_free(ex);
    kr_free(&r);
}

int main(void)
{
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++) {
        int before = check_failures;
        check_twin(&twins[i]);
        printf("%-20s %-20s %s\n", twins[i].kcase,
               twins[i].example ? twins[i].example : "-",
               check_failures == before ? "ok" : "FAILED");
    }
    return check_done("test_run_twins");
}
