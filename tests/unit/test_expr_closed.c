/*
 * test_expr_closed.c -- wm_expr_run's closed-form counting (expr_closed.c:
 * residues per warp, affine loops, rows of blocks) against the per-thread
 * reference walk (expr_ref.c) with every access counted and aggregated
 * one by one: the same status and fault, and for every statement the same
 * sums, per-request histogram, worst access, and the first worst warp with
 * where it came from -- also when a run stops at a fault or the budget
 * (the aggregate then holds what came before).
 *
 * Programs are random index expressions affine in the thread, block and
 * loop indices (the closed form's domain), some wrapped in / % & << by
 * constants (rows of blocks through division), some with an `if` (among
 * them the bounds guards that cut a warp part way), some out of bounds or
 * misaligned; loads, stores and atomics in global, shared and local
 * memory; on random launches with 1-D, 2-D and 3-D blocks whose x is or
 * is not a multiple of the warp (warps that span rows and planes), partial
 * warps, and 32 or 64 lanes.  Hand-computed cases and the examples at full
 * size are in test_expr_closed_hand.c.
 */
#include "expr_int.h"
#include "check.h"

#include <stdio.h>

static uint64_t rng = 0x2545f4914f6cdd1du;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* The reference: every access counted and added, the worst kept. */
typedef struct ref {
    wm_agg *g;
    struct {
        int have;
        uint32_t v;
        wm_expr_where where;
        wm_counts c;
        wm_access a;
    } worst[8];
} ref;

static wm_status ref_sink(void *ctx, const wm_access *a,
                          const wm_expr_where *w)
{
    ref *r = ctx;
    wm_counts c;
    wm_status st = wm_agg_add(r->g, a, &c);
    if (st != WM_OK)
        return st;
    uint32_t v = a->space == WM_SPACE_SHARED ? c.wavefronts : c.sectors;
    if (a->site < 8 && (!r->worst[a->site].have || v > r->worst[a->site].v)) {
        r->worst[a->site].have = 1;
        r->worst[a->site].v = v;
        r->worst[a->site].where = *w;
        r->worst[a->site].c = c;
        r->worst[a->site].a = *a;
    }
    return WM_OK;
}

/* An affine term list over the variables, maybe wrapped. */
static void gen_index(char buf[1024], size_t cap, unsigned dim,
                      unsigned nvars)
{
    static const char *const vars[] = {"tid.x",   "tid.y",   "tid.z",
                                       "laneid",  "warpid",  "ctaid.x",
                                       "ctaid.y", "ctaid.z", "j",
                                       "k"};
    static const unsigned coefs[] = {0, 1, 1, 2, 3, 4, 8, 16, 32, 33, 64, 128};
    size_t n = (size_t)snprintf(buf, cap, "%u", rnd(3) ? 0 : rnd(8));
    unsigned nterms = 1 + rnd(4);
    for (unsigned t = 0; t < nterms; t++) {
        /* one draw per statement: the order of a call's arguments is
           unspecified, and the cases must be the same on every compiler */
        unsigned c = coefs[rnd(WM_ARRAY_LEN(coefs))];
        const char *v = vars[rnd(nvars)];
        n += (size_t)snprintf(buf + n, cap - n, " + %u*%s", c, v);
    }
    char inner[400];
    snprintf(inner, sizeof inner, "%.390s", buf);
    switch (rnd(8)) {
    case 0: snprintf(buf, cap, "(%s) %% %u", inner, dim); break;
    case 1: snprintf(buf, cap, "(%s) / %u %% %u", inner, 1u << rnd(8), dim);
        break;
    case 2: snprintf(buf, cap, "((%s) << %u) %% %u", inner, rnd(3), dim);
        break;
    case 3: snprintf(buf, cap, "(%s) & %u", inner, (1u << rnd(7)) - 1); break;
    case 4: break; /* raw: may leave the bounds */
    default: snprintf(buf, cap, "min(%s, %u)", inner, dim - 1); break;
    }
}

/* Same access: lanes outside the mask hold whatever the path left. */
static int same_access(const wm_access *a, const wm_access *b)
{
    if (a->site != b->site || a->space != b->space || a->op != b->op ||
        a->size != b->size || a->mask != b->mask)
        return 0;
    for (unsigned l = 0; l < WM_MAX_LANES; l++)
        if ((a->mask >> l & 1) && a->addr[l] != b->addr[l])
            return 0;
    return 1;
}

static void compare(const wm_expr *e, wm_agg *g, const ref *r)
{
    CHECK_EQ(wm_agg_nsites(g), wm_agg_nsites(r->g));
    for (size_t i = 0; i < wm_agg_nsites(g) && i < wm_agg_nsites(r->g); i++) {
        wm_site a, b;
        CHECK(wm_agg_site(g, i, &a) && wm_agg_site(r->g, i, &b));
        CHECK_EQ(a.site, b.site);
        CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
        CHECK(memcmp(wmi_agg_site_hist(g, i), wmi_agg_site_hist(r->g, i),
                     (WM_HIST_MAX + 1) * sizeof(uint32_t)) == 0);
        CHECK((a.worst == NULL) == (b.worst == NULL));
        if (a.worst && b.worst)
            CHECK(same_access(a.worst, b.worst));
    }
    for (size_t i = 0; i < wm_expr_nstmts(e) && i < 8; i++) {
        wm_expr_where w;
        wm_counts c;
        const wm_access *a = wm_expr_worst(e, i, &w, &c);
        CHECK((a != NULL) == r->worst[i].have);
        if (!a || !r->worst[i].have)
            continue;
        CHECK(same_access(a, &r->worst[i].a));
        CHECK(memcmp(&c, &r->worst[i].c, sizeof c) == 0);
        CHECK(memcmp(&w, &r->worst[i].where, sizeof w) == 0);
    }
}

static int nrun, nok, nfault, nother;

static void one_program(const char *src, const wm_arch *arch, uint64_t lim)
{
    wm_expr *e = wm_expr_new();
    wm_diag d;
    if (wm_expr_parse(e, src, strlen(src), "closed", &d) != WM_OK) {
        fprintf(stderr, "parse failed: %s\n%s\n", d.msg, src);
        CHECK(0);
        wm_expr_free(e);
        return;
    }
    ref r;
    memset(&r, 0, sizeof r);
    r.g = wm_agg_new(arch);
    wm_agg *g = wm_agg_new(arch);
    wm_expr_fault fr, ff;
    memset(&fr, 0, sizeof fr);
    memset(&ff, 0, sizeof ff);
    wm_status sr = wmi_expr_walk(e, arch, 1, lim, ref_sink, &r, &fr);
    wm_status sf = wm_expr_run(e, g, lim, &ff);
    int before = check_failures;
    CHECK_EQ(sf, sr);
    if (sf == WM_ERR_FAULT && sr == WM_ERR_FAULT) {
        CHECK_EQ(ff.stmt, fr.stmt);
        CHECK_EQ(ff.lane, fr.lane);
        CHECK(memcmp(&ff.where, &fr.where, sizeof ff.where) == 0);
        CHECK(strcmp(ff.diag.msg, fr.diag.msg) == 0);
    }
    /* what came before a stop is in the aggregate too */
    if (sf == sr && sf != WM_ERR_NOMEM)
        compare(e, g, &r);
    if (check_failures != before)
        fprintf(stderr, "mismatch (%s / %s) for:\n%s\n", wm_status_str(sf),
                wm_status_str(sr), src);
    nrun++;
    nok += sf == WM_OK;
    nfault += sf == WM_ERR_FAULT;
    nother += sf != WM_OK && sf != WM_ERR_FAULT;
    wm_agg_free(g);
    wm_agg_free(r.g);
    wm_expr_free(e);
}

static void random_programs(int count)
{
    static const char *const types[] = {"u8", "f16", "f32", "f64", "f32x2",
                                        "f32x4", "f16x8"};
    const wm_arch *w32 = wm_arch_default();
    wm_arch w64;
    CHECK(wm_arch_parse("amd-wave64", &w64, NULL, 0) == WM_OK);
    for (int i = 0; i < count; i++) {
        char src[8192];
        unsigned bx = 1 + rnd(70), by = 1 + rnd(rnd(2) ? 3 : 8),
                 bz = 1 + rnd(rnd(2) ? 2 : 4);
        if (rnd(2))
            bx = 32 * (1 + rnd(2)); /* whole warps in a row */
        while (bx * by * bz > 1024)
            bx /= 2;
        unsigned gx = 1 + rnd(30), gy = 1 + rnd(3), gz = 1 + rnd(2);
        int n = snprintf(src, sizeof src, "block %u, %u, %u\ngrid %u, %u, %u\n",
                         bx, by, bz, gx, gy, gz);
        unsigned nst = 1 + rnd(3);
        for (unsigned s = 0; s < nst; s++) {
            unsigned nd = 1 + rnd(3), dims[3], ty = rnd(WM_ARRAY_LEN(types));
            static const unsigned esize[] = {1, 2, 4, 8, 8, 16, 16};
            char idx[3][1024], loops[128];
            unsigned nvars = 8; /* the builtins, then j (and k) */
            switch (rnd(5)) {
            case 0: loops[0] = '\0'; break;
            case 1: {
                unsigned lo = rnd(3), hi = rnd(30), st = 1 + rnd(9);
                snprintf(loops, sizeof loops, " for j in %u..%u step %u", lo,
                         hi, st);
                nvars = 9;
                break;
            }
            case 2: {
                unsigned hj = rnd(4), hk = rnd(40);
                snprintf(loops, sizeof loops, " for j in 0..%u for k in j..%u",
                         hj, hk);
                nvars = 10;
                break;
            }
            case 3: /* a bound the block decides: no rows in closed form */
                snprintf(loops, sizeof loops, " for j in 0..ctaid.x %% 5 + %u",
                         rnd(12));
                nvars = 9;
                break;
            default: {
                unsigned hi = rnd(60), st = 1 + rnd(4);
                snprintf(loops, sizeof loops, " for j in 0..%u step %u", hi,
                         st);
                nvars = 9;
                break;
            }
            }
            for (unsigned k = 0; k < nd; k++) {
                dims[k] = rnd(2) ? 1u << (4 + rnd(10)) : 17 + rnd(3000);
                gen_index(idx[k], sizeof idx[k], dims[k], nvars);
            }
            static const char *const spaces[] = {"global", "global",
                                                 "shared", "local"};
            const char *space = spaces[rnd(WM_ARRAY_LEN(spaces))];
            unsigned op = rnd(space[0] == 'l' ? 2 : 3); /* no local atomic */
            n += snprintf(src + n, sizeof src - (size_t)n, "%s %s %s a%u",
                          op == 0 ? "load" : op == 1 ? "store" : "atomic",
                          space, types[ty], s);
            for (unsigned k = 0; k < nd; k++)
                n += snprintf(src + n, sizeof src - (size_t)n, "[%u]", dims[k]);
            if (rnd(4) == 0)
                n += snprintf(src + n, sizeof src - (size_t)n, " offset %u",
                              esize[ty] * rnd(40));
            n += snprintf(src + n, sizeof src - (size_t)n, " at ");
            for (unsigned k = 0; k < nd; k++)
                n += snprintf(src + n, sizeof src - (size_t)n, "[%s]", idx[k]);
            n += snprintf(src + n, sizeof src - (size_t)n, "%s", loops);
            if (rnd(4) == 0) {
                /* the last ones are guards that cut a warp part way; the
                   very last reads j, so only under a loop */
                static const char *const preds[] = {
                    "tid.x < 20", "ctaid.x % 3 != 1", "warpid == 0",
                    "ctaid.y == 0", "laneid % 2 == 0",
                    "tid.z == 1 || tid.x > 5",
                    "ctaid.x*ntid.x + tid.x < 700",
                    "(tid.z*ntid.y + tid.y)*ntid.x + tid.x < 45",
                    "tid.x + 8*j < 50"};
                size_t np = WM_ARRAY_LEN(preds) - (nvars < 9);
                n += snprintf(src + n, sizeof src - (size_t)n, " if %s",
                              preds[rnd((unsigned)np)]);
            }
            n += snprintf(src + n, sizeof src - (size_t)n, "\n");
        }
        uint64_t lim = rnd(6) == 0 ? 1 + rnd(3000) : 1u << 22;
        one_program(src, rnd(5) == 0 ? &w64 : w32, lim);
    }
}

/* The example programs' shapes at a small size, all closed. */
static void shapes(void)
{
    static const char *const progs[] = {
        "block 32, 8\ngrid 16, 64\nload global f32 in[512][512] at "
        "[ctaid.x*32 + tid.x][ctaid.y*8 + tid.y]\nstore global f32 "
        "out[512][512] at [ctaid.y*8 + tid.y][ctaid.x*32 + tid.x]\n",
        "block 128\ngrid 512\nload global f32 x[256][256] at [(ctaid.x*512 "
        "+ k*128 + tid.x) % 256][(ctaid.x*512 + k*128 + tid.x) / 256] for k "
        "in 0..4\nstore global f32 out[65536] at [ctaid.x*512 + k*128 + "
        "tid.x] for k in 0..4\n",
        "block 16, 16\ngrid 8, 8\nload global f32 A[128][128] at "
        "[ctaid.y*16 + tid.y][k] for k in 0..128\nload global f32 "
        "B[128][128] at [k][ctaid.x*16 + tid.x] for k in 0..128\n",
        "block 32, 8\ngrid 8, 8\nstore shared f32 t[32][32] at [tid.y + "
        "j][tid.x ^ (tid.y + j)] for j in 0..32 step 8\nload global f32 "
        "in[256][256] offset 4 at [ctaid.y*32 + tid.y + j][ctaid.x*32 + "
        "tid.x] for j in 0..32 step 8\n",
        ("block 96\ngrid 300\nload global f32x4 v[30000] at [ctaid.x*96 + "
         "tid.x]\n"),
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(progs); i++)
        one_program(progs[i], wm_arch_default(), 1u << 22);
}

int main(void)
{
    shapes();
    random_programs(600);
    printf("%d programs: %d ran, %d faulted, %d stopped otherwise\n", nrun,
           nok, nfault, nother);
    CHECK(nok > 300);
    CHECK(nfault > 50);
    CHECK(nother > 20);
    return check_done("test_expr_closed");
}
