/*
 * test_run_advise.c -- the advisor on the example kernels run through the
 * PTX interpreter (what `warpmem run --explain` prints): diagnosis,
 * severity and what-if numbers per memory instruction and per source line,
 * against values worked out by hand from the launch shapes of
 * tests/unit/kernel_cases.c (sm_80: 32 B sectors, 32 banks of 4 B).
 */
#include "check.h"
#include "kernel_run.h"
#include "ptx_report_int.h"

#include <math.h>
#include <string.h>

/* The sites of case r on source line `line` of one space and op. */
static size_t line_sites(const kr_run *r, unsigned line, wm_space sp,
                         wm_op op, wm_site *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < wm_agg_nsites(r->agg) && k < cap; i++) {
        wm_site s;
        wm_agg_site(r->agg, i, &s);
        if (s.line == line && s.space == sp && s.op == op)
            out[k++] = s;
    }
    return k;
}

/* Advice for every site on line/space/op; returns how many (<= 8). */
static size_t advise_line(const kr_run *r, unsigned line, wm_space sp,
                          wm_op op, wm_advice *adv)
{
    wm_site s[8];
    wm_totals t;
    wm_agg_totals(r->agg, &t);
    size_t n = line_sites(r, line, sp, op, s, 8);
    for (size_t i = 0; i < n; i++)
        CHECK_EQ(wm_advise_site(wm_agg_arch(r->agg), &s[i], &t, &adv[i]),
                 WM_OK);
    return n;
}

/* The fix of a kind in adv, or NULL. */
static const wm_fix *fix_of(const wm_advice *adv, wm_fix_kind k)
{
    for (size_t i = 0; i < adv->nfixes; i++)
        if (adv->fixes[i].kind == k)
            return &adv->fixes[i];
    return NULL;
}

static int start(const char *name, kr_run *r)
{
    const kernel_case *kc = kr_find(name);
    CHECK(kc != NULL);
    if (!kc)
        return 0;
    int ok = kr_run_case(kc, "sm_80", 1, r);
    CHECK(ok);
    return ok;
}

/*
 * transpose_naive, grid 8x16 of 32x8: 128 CTAs x 8 warps = 1024 warps,
 * each storing once.  out[x * height + y]: lanes 4 * 128 = 512 B apart,
 * 32 sectors where ideal is 4: 28 excessive per request, 28672 in all.
 * The load is 4 sectors per request: the kernel moves 1024 * (4 + 32) =
 * 36864 sectors; share 28672 / 36864 = 7/9 = 77.8 % -> high.
 * Remap (lanes take consecutive elements): 128 contiguous bytes at the
 * warp's lowest address, 128-aligned: 4 sectors.
 */
static void naive_transpose(void)
{
    kr_run r;
    if (start("transpose_naive", &r)) {
        wm_advice a[8];
        CHECK_EQ(advise_line(&r, 32, WM_SPACE_GLOBAL, WM_OP_ST, a), 1);
        CHECK_EQ(a[0].pattern.kind, WM_PAT_STRIDED);
        CHECK_EQ(a[0].pattern.stride, 512);
        CHECK_EQ(a[0].counts.sectors, 32);
        CHECK_EQ(a[0].excess, 28672);
        CHECK_EQ(a[0].total, 36864);
        CHECK(fabs(a[0].share - 7.0 / 9.0) < 1e-12);
        CHECK_EQ(a[0].severity, WM_SEV_HIGH);
        CHECK(a[0].nfixes >= 1);
        CHECK_EQ(a[0].fixes[0].kind, WM_FIX_REMAP);
        CHECK_EQ(a[0].fixes[0].before.sectors, 32);
        CHECK_EQ(a[0].fixes[0].after.sectors, 4);
        CHECK_EQ(a[0].fixes[0].before.requests, 1);
        CHECK_EQ(a[0].fixes[0].after.requests, 1);
        CHECK_EQ(a[0].fixes[0].after.bytes, 128);
        /* the coalesced load on the same line has nothing excessive */
        CHECK_EQ(advise_line(&r, 32, WM_SPACE_GLOBAL, WM_OP_LD, a), 1);
        CHECK_EQ(a[0].excess, 0);
        CHECK_EQ(a[0].severity, WM_SEV_NONE);
        CHECK(fix_of(&a[0], WM_FIX_REMAP) == NULL);
        CHECK(fix_of(&a[0], WM_FIX_ALIGN) == NULL);
    }
    kr_free(&r);
}

/*
 * transpose_tiled, grid 8x4 of 32x8: 32 CTAs x 8 warps = 256 warps; the
 * j loop is unrolled into 4 instructions per access.  tile[tx][ty + j]:
 * lanes 128 B apart, all in one bank: 32 wavefronts, ideal 1, so 31
 * excessive per request: 7936 per instruction, 31744 for the line.
 * Shared wavefronts of the kernel: 4 x 256 x 1 (stores) + 4 x 256 x 32
 * (loads) = 33792.  One instruction: 7936 / 33792 = 23.5 % -> medium; the
 * line: 31744 / 33792 = 93.9 % -> high.  Pad the row by 4 bytes: stride
 * 33 words, banks (33 l) % 32 = l, 1 wavefront; XOR-swizzle: column
 * c ^ l for lane l hits bank c ^ l, a permutation: 1 wavefront.
 */
static void tiled_transpose(void)
{
    kr_run r;
    if (start("transpose_tiled", &r)) {
        wm_advice a[8];
        CHECK_EQ(advise_line(&r, 47, WM_SPACE_SHARED, WM_OP_LD, a), 4);
        for (size_t i = 0; i < 4; i++) {
            CHECK_EQ(a[i].pattern.kind, WM_PAT_STRIDED);
            CHECK_EQ(a[i].pattern.stride, 128);
            CHECK_EQ(a[i].counts.wavefronts, 32);
            CHECK_EQ(a[i].counts.ideal_wavefronts, 1);
            CHECK_EQ(a[i].excess, 7936);
            CHECK_EQ(a[i].total, 33792);
            CHECK_EQ(a[i].severity, WM_SEV_MEDIUM);
            const wm_fix *pad = fix_of(&a[i], WM_FIX_PAD);
            const wm_fix *swz = fix_of(&a[i], WM_FIX_SWIZZLE);
            CHECK(pad && swz);
            if (pad) {
                CHECK_EQ(pad->param, 4);
                CHECK_EQ(pad->before.wavefronts, 32);
                CHECK_EQ(pad->after.wavefronts, 1);
                CHECK_EQ(pad->after.requests, 1);
            }
            if (swz) {
                CHECK_EQ(swz->before.wavefronts, 32);
                CHECK_EQ(swz->after.wavefronts, 1);
            }
        }
        /* the line as --explain shows it: four instructions merged */
        wm_site s[8];
        wm_totals t;
        wm_agg_totals(r.agg, &t);
        size_t n = line_sites(&r, 47, WM_SPACE_SHARED, WM_OP_LD, s, 8);
        wmi_line_advice la[WM_NSPACES * WM_NOPS];
        CHECK_EQ(wmi_line_advise(wm_agg_arch(r.agg), s, n, &t, la,
                                 WM_NSPACES * WM_NOPS),
                 1);
        CHECK_EQ(la[0].members, 4);
        CHECK_EQ(la[0].adv.excess, 31744);
        CHECK(fabs(la[0].adv.share - 31744.0 / 33792.0) < 1e-12);
        CHECK_EQ(la[0].adv.severity, WM_SEV_HIGH);
        CHECK(fix_of(&la[0].adv, WM_FIX_PAD) != NULL);
        /* ranking: the four conflicting loads come first */
        size_t order[64];
        size_t nr = wm_advise_rank(r.agg, order);
        CHECK(nr >= 4);
        for (size_t i = 0; i < 4 && i < nr; i++) {
            wm_site x;
            wm_agg_site(r.agg, order[i], &x);
            CHECK_EQ(x.line, 47);
            CHECK_EQ(x.space, WM_SPACE_SHARED);
        }
    }
    kr_free(&r);
}

/*
 * transpose_padded / transpose_swizzled: the column read is already 1
 * wavefront (stride 33 words; c ^ tx permutes the banks): nothing
 * excessive and no fix, since none can be strictly better.
 */
static void fixed_transposes(void)
{
    static const struct {
        const char *name;
        unsigned line;
    } cases[] = {{"transpose_padded", 62}, {"transpose_swizzled", 80}};
    for (size_t c = 0; c < 2; c++) {
        kr_run r;
        if (start(cases[c].name, &r)) {
            wm_advice a[8];
            size_t n = advise_line(&r, cases[c].line, WM_SPACE_SHARED,
                                   WM_OP_LD, a);
            CHECK_EQ(n, 4);
            for (size_t i = 0; i < n; i++) {
                CHECK_EQ(a[i].counts.wavefronts, 1);
                CHECK_EQ(a[i].excess, 0);
                CHECK_EQ(a[i].severity, WM_SEV_NONE);
                CHECK_EQ(a[i].nfixes, 0);
            }
            /* the worst warp is the first one of the site (all cost 1):
               warp 0, row c = 0, where both layouts put lane l at word
               33 l (padded: 33 l + 0; swizzled: 32 l + (0 ^ l)) */
            CHECK_EQ(a[0].pattern.kind, WM_PAT_STRIDED);
            CHECK_EQ(a[0].pattern.stride, 132);
        }
        kr_free(&r);
    }
}

/*
 * misaligned_copy, offset 1, 16 CTAs x 8 warps = 128 warps: in[i + 1]
 * starts 4 B past a sector: 5 sectors, ideal 4: 128 excessive; with the
 * aligned store (4 each) the kernel moves 128 x 9 = 1152 sectors; share
 * 128 / 1152 = 11.1 % -> medium.  Aligning the start: 4 sectors.
 */
static void misaligned_copy(void)
{
    kr_run r;
    if (start("misaligned_copy", &r)) {
        wm_advice a[8];
        CHECK_EQ(advise_line(&r, 19, WM_SPACE_GLOBAL, WM_OP_LD, a), 1);
        CHECK_EQ(a[0].pattern.kind, WM_PAT_CONTIGUOUS);
        CHECK_EQ(a[0].pattern.misalign, 4);
        CHECK_EQ(a[0].excess, 128);
        CHECK_EQ(a[0].total, 1152);
        CHECK_EQ(a[0].severity, WM_SEV_MEDIUM);
        const wm_fix *al = fix_of(&a[0], WM_FIX_ALIGN);
        CHECK(al != NULL);
        CHECK(a[0].nfixes >= 1 && a[0].fixes[0].kind == WM_FIX_ALIGN);
        if (al) {
            CHECK_EQ(al->before.sectors, 5);
            CHECK_EQ(al->after.sectors, 4);
            CHECK_EQ(al->after.requests, 1);
        }
    }
    kr_free(&r);
}

/*
 * copy (scalar f32): 4 sectors, ideal: severity none, but 16-byte vectors
 * move the same 512 bytes of four executions in one request: 4 -> 1
 * requests, 16 -> 16 sectors.  vec_copy already uses 16-byte vectors: no
 * fix.
 */
static void scalar_vs_vector(void)
{
    kr_run r;
    if (start("copy", &r)) {
        wm_advice a[8];
        for (int op = WM_OP_LD; op <= WM_OP_ST; op++) {
            CHECK_EQ(advise_line(&r, 16, WM_SPACE_GLOBAL, (wm_op)op, a), 1);
            CHECK_EQ(a[0].severity, WM_SEV_NONE);
            CHECK_EQ(a[0].excess, 0);
            CHECK_EQ(a[0].nfixes, 1);
            const wm_fix *v = &a[0].fixes[0];
            CHECK_EQ(v->kind, WM_FIX_VECTORIZE);
            CHECK_EQ(v->param, 16);
            CHECK_EQ(v->copies, 4);
            CHECK_EQ(v->before.requests, 4);
            CHECK_EQ(v->after.requests, 1);
            CHECK_EQ(v->before.sectors, 16);
            CHECK_EQ(v->after.sectors, 16);
            CHECK_EQ(v->before.bytes, 512);
            CHECK_EQ(v->after.bytes, 512);
            CHECK_EQ(v->access.size, 16);
        }
    }
    kr_free(&r);
    if (start("vec_copy", &r)) {
        wm_advice a[8];
        CHECK_EQ(advise_line(&r, 18, WM_SPACE_GLOBAL, WM_OP_LD, a), 1);
        CHECK_EQ(a[0].counts.sectors, 16);
        CHECK_EQ(a[0].nfixes, 0);
    }
    kr_free(&r);
}

/* No example kernel gets a fix the model does not show strictly better. */
static void never_worse(void)
{
    for (size_t c = 0; c < nkernel_cases; c++) {
        kr_run r;
        if (!kr_run_case(&kernel_cases[c], "sm_80", 1, &r)) {
            CHECK(0);
            kr_free(&r);
            continue;
        }
        wm_totals t;
        wm_agg_totals(r.agg, &t);
        for (size_t i = 0; i < wm_agg_nsites(r.agg); i++) {
            wm_site s;
            wm_advice a;
            wm_agg_site(r.agg, i, &s);
            if (!s.worst || wm_advise_site(wm_agg_arch(r.agg), &s, &t, &a))
                continue;
            for (size_t k = 0; k < a.nfixes; k++) {
                const wm_fix *x = &a.fixes[k];
                int shared = s.space == WM_SPACE_SHARED;
                uint32_t cb = shared ? x->before.wavefronts : x->before.sectors;
                uint32_t ca = shared ? x->after.wavefronts : x->after.sectors;
                CHECK(x->after.requests <= x->before.requests && ca <= cb);
                CHECK(ca < cb || x->after.requests < x->before.requests);
                CHECK_EQ(x->after.bytes, x->before.bytes);
            }
        }
        kr_free(&r);
    }
}

int main(void)
{
    naive_transpose();
    tiled_transpose();
    fixed_transposes();
    misaligned_copy();
    scalar_vs_vector();
    never_worse();
    return check_done("test_run_advise");
}
