/*
 * test_ptx_unset.c -- registers read before any instruction wrote them
 * (src/ptx/run/ptx_unset.c).  The analysis, on hand-written kernels
 * whose answer is known (straight code, guards, branches around a write,
 * if/else, loops, vectors, a branch's guard); then two kernels on 8 CTAs
 * with one and two workers, one storing a register before writing it,
 * one branching on a predicate before writing it: every CTA reads 0, in
 * the slow and the fast paths alike (ptx_twin.h compares them), where the
 * reused register file used to hand a CTA the value the worker's previous
 * CTA left there, and the fast paths another one.
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_twin.h"

#include <stdio.h>
#include <string.h>

/* How many register slots of the one kernel of body may be read unset. */
static uint32_t unset_count(const char *body)
{
    char src[2048];
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             ".reg .pred %%p<3>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<4>;\n"
             "%s\nret;\n}\n",
             body);
    wm_ptx_module *m = pi_parse(src, "unset.ptx");
    CHECK(m != NULL);
    if (!m)
        return 999;
    uint32_t *slots = NULL, n = 0;
    CHECK_EQ(wmi_ptx_unset_slots(m, wmi_ptx_kernel(m, 0), &slots, &n), WM_OK);
    free(slots);
    wm_ptx_free(m);
    return n;
}

static void test_analysis(void)
{
    static const struct {
        const char *body;
        uint32_t want;
    } cases[] = {
        /* written, then read */
        {"mov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1;", 0},
        /* read first */
        {"add.u32 %r2, %r1, 1;\nmov.u32 %r1, 5;", 1},
        /* two read first, one of them as a guard */
        {"@%p1 add.u32 %r2, %r1, 1;", 2},
        /* a guarded write does not count */
        {"setp.eq.u32 %p1, %r3, 0;\n@%p1 mov.u32 %r1, 1;\n"
         "add.u32 %r2, %r1, 1;", 2},
        /* a branch around the write */
        {"mov.u32 %r3, %tid.x;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra L;\n"
         "mov.u32 %r1, 1;\nL:\nadd.u32 %r2, %r1, 1;", 1},
        /* written in both arms */
        {"mov.u32 %r3, %tid.x;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra A;\n"
         "mov.u32 %r1, 1;\nbra J;\nA:\nmov.u32 %r1, 2;\nJ:\n"
         "add.u32 %r2, %r1, 1;", 0},
        /* a loop over an initialised sum */
        {"mov.u32 %r1, 0;\nmov.u32 %r2, 0;\nL:\nadd.u32 %r1, %r1, %r2;\n"
         "add.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n@%p1 bra L;", 0},
        /* the same loop without the sum's start */
        {"mov.u32 %r2, 0;\nL:\nadd.u32 %r1, %r1, %r2;\n"
         "add.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n@%p1 bra L;", 1},
        /* a vector load's elements are written, '_' is no register */
        {"ld.param.u64 %rd1, [out];\nld.global.v2.u32 {%r1, _}, [%rd1];\n"
         "add.u32 %r2, %r1, 1;", 0},
        /* code after ret is never reached */
        {"ret;\nadd.u32 %r2, %r1, 1;", 0},
        /* a branch's guard is a read */
        {"@%p1 bra L;\nL:\nret;", 1},
        {"setp.eq.u32 %p1, %r3, 0;\n@!%p1 bra L;\nL:\nret;", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t n = unset_count(cases[i].body);
        if (n != cases[i].want)
            fprintf(stderr, "case %zu: %u unset, want %u\n", i, n,
                    cases[i].want);
        CHECK_EQ(n, cases[i].want);
    }
}

/* out[gid] = %r2 before %r2 is written (0), then %r2 = 7 gid + 3, a
   lane-affine value the fast paths keep without writing the lanes. */
static const char store_unset[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\n"
    "mad.lo.s32 %r5, %r3, %r4, %r1;\n"
    "mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r2;\n"
    "mad.lo.s32 %r2, %r5, 7, 3;\n"
    "ret;\n}\n";

/* Kernel k of src on 8 CTAs of 64 threads, with one and two workers
   (statistics on, so the memo's paths run too): every thread must store
   want. */
static void every_cta_stores(const char *src, uint32_t want)
{
    enum { NB = 8, NT = 64 };
    wm_ptx_module *m = pi_parse(src, "unset.ptx");
    CHECK(m != NULL);
    for (unsigned threads = 1; m && threads <= 2; threads++) {
        static uint32_t out[NB * NT];
        memset(out, 0xab, sizeof out);
        pi_launch l = pi_dims(NB, NT);
        l.threads = threads;
        pi_buf(&l, out, sizeof out);
        wm_agg *g = wm_agg_new(wm_arch_default());
        CHECK_EQ(pi_run_agg(m, "k", &l, g, NULL), WM_OK);
        size_t bad = 0;
        for (size_t i = 0; i < NB * NT; i++)
            bad += out[i] != want;
        if (bad)
            fprintf(stderr, "%u workers: %zu of %d stores not %u (out[%d] = "
                    "%u)\n", threads, bad, NB * NT, want, NT + 1, out[NT + 1]);
        CHECK_EQ(bad, 0);
        wm_agg_free(g);
    }
    wm_ptx_free(m);
}

/* A branch on %p1 before %p1 is written, which each CTA then sets to
   %tid.x != 0: every lane of every CTA must find it 0 (out[gid] = 1),
   not the value the worker's previous CTA left in the file (the slow
   path read that, the fast paths 0).  The ld.param it guards off is an
   executed instruction with no lane on both paths (the lane-affine one
   skipped it; found by fuzz_cluster). */
static const char guard_unset[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<7>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\n"
    "mad.lo.s32 %r5, %r3, %r4, %r1;\n"
    "mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "mov.u32 %r6, 0;\n"
    "@%p1 ld.param.u64 %rd0, [out];\n"
    "@%p1 bra SKIP;\n"
    "mov.u32 %r6, 1;\n"
    "SKIP:\n"
    "st.global.u32 [%rd3], %r6;\n"
    "setp.ne.u32 %p1, %r1, 0;\n"
    "ret;\n}\n";

int main(void)
{
    test_analysis();
    every_cta_stores(store_unset, 0);
    every_cta_stores(guard_unset, 1);
    return check_done("test_ptx_unset");
}
