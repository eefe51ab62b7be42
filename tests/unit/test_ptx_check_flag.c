/*
 * test_ptx_check_flag.c -- `--check race` on flag protocols between the
 * warps of one CTA (ptx_check_flag.c): warp 0 writes data[lane] and raises
 * a flag, warp 1 may touch the flag in between, warp 2 reads the flag and
 * then data[lane].  The warps run in order (warp 0 to its end first), so
 * a reader sees the flag raised (an acquire load spins, yielding to the
 * other warps, until it is); whether the data race is reported depends
 * only on the release and acquire the PTX memory model gives the flag's
 * accesses, at GPU scope or at CTA scope (which orders the warps of one
 * CTA as well).  Each launch runs twice through twin_run (the slow and
 * the fast checker must report the same), and a racy verdict must be the
 * one read-after-write between warp 0's store and warp 2's load.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

/* Kernel NAME of 96 threads over buf: flag at word 0, data at words 32..63.
   P: warp 0's flag access after its data store; M: warp 1's; C: warp 2's
   before its data load. */
#define FLAG_KERNEL(NAME, P, M, C)                                            \
    ".visible .entry " NAME "(.param .u64 buf)\n{\n"                          \
    "  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"                \
    "  ld.param.u64 %rd1, [buf];\n"                                           \
    "  mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 5; and.b32 %r3, %r1, 31;\n"     \
    "  mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2;\n"                \
    "  add.s64 %rd3, %rd3, 128;\n"                                            \
    "  mov.u32 %r6, 1; mov.u32 %r7, 2;\n"                                     \
    "  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra PRODUCE;\n"                       \
    "  setp.eq.u32 %p2, %r2, 1;\n  @%p2 bra MIDDLE;\n"                        \
    "  " C "\n"                                                               \
    "  ld.global.u32 %r5, [%rd3];\n  ret;\n"                                  \
    "PRODUCE:\n  st.global.u32 [%rd3], %r1;\n  " P "\n  ret;\n"               \
    "MIDDLE:\n  " M "\n  ret;\n}\n"

#define ST_REL "st.release.gpu.global.u32 [%rd1], %r6;"
/* a spin on word OFF of the flags with acquire loads, at label L */
#define SPIN(L, OFF)                                                          \
    L ": ld.acquire.gpu.global.u32 %r4, [%rd1+" OFF "];\n"                   \
    "  setp.eq.u32 %p2, %r4, 0;\n  @%p2 bra " L ";"
#define LD_ACQ SPIN("WAIT", "0")
#define ST_VOL "st.volatile.global.u32 [%rd1], %r6;"
#define LD_VOL "ld.volatile.global.u32 %r4, [%rd1];"

/* Each case its own module (a string literal of one kernel): the
   kernel, and whether its data race is reported. */
#define CASE(NAME, P, M, C, RACY) {NAME, PI_HEAD FLAG_KERNEL(NAME, P, M, C), RACY}

static const struct {
    const char *name, *ptx;
    int racy;
} cases[] = {
    /* release store, acquire load: clean */
    CASE("rel_acq", ST_REL, "", LD_ACQ, 0),
    /* __threadfence() before the volatile flag and after reading it */
    CASE("fence_both", "membar.gl; " ST_VOL, "", LD_VOL " membar.gl;", 0),
    /* the writer fences, the reader does not: a race */
    CASE("fence_writer", "membar.gl; " ST_VOL, "", LD_VOL, 1),
    /* the reader fences, the writer does not: a race */
    CASE("fence_reader", ST_VOL, "", LD_VOL " membar.gl;", 1),
    /* relaxed on both sides: a race */
    CASE("relaxed", "st.relaxed.gpu.global.u32 [%rd1], %r6;", "",
         "ld.relaxed.gpu.global.u32 %r4, [%rd1];", 1),
    /* a release atomic add: clean */
    CASE("rmw_release", "atom.release.gpu.global.add.u32 %r4, [%rd1], %r6;",
         "", LD_ACQ, 0),
    /* warp 1's relaxed store ends warp 0's release sequence: a race */
    CASE("seq_broken", ST_REL, "st.relaxed.gpu.global.u32 [%rd1], %r7;",
         LD_ACQ, 1),
    /* warp 1's relaxed atomic add continues it: clean */
    CASE("seq_rmw", ST_REL,
         "atom.relaxed.gpu.global.add.u32 %r4, [%rd1], %r6;", LD_ACQ, 0),
    /* the reader acquires through warp 1, which acquired warp 0's flag and
       released its own (transitivity): clean */
    CASE("relay", ST_REL,
         SPIN("WAIT1", "0") " st.release.gpu.global.u32 [%rd1+4], %r7;",
         SPIN("WAIT2", "4"), 0),
    /* the same without warp 1's acquire: a race */
    CASE("relay_broken", ST_REL, "st.release.gpu.global.u32 [%rd1+4], %r7;",
         SPIN("WAIT2", "4"), 1),
    /* CTA scope orders the warps of one CTA: a release and an acquire
       at .cta, fences at .cta around volatile or relaxed accesses: clean;
       relaxed at .cta: a race */
    CASE("cta_rel_acq", "st.release.cta.global.u32 [%rd1], %r6;", "",
         "WAIT: ld.acquire.cta.global.u32 %r4, [%rd1];\n"
         "  setp.eq.u32 %p2, %r4, 0;\n  @%p2 bra WAIT;",
         0),
    CASE("cta_fence_both", "membar.cta; " ST_VOL, "", LD_VOL " membar.cta;",
         0),
    CASE("cta_fence_relaxed",
         "fence.acq_rel.cta; st.relaxed.cta.global.u32 [%rd1], %r6;", "",
         "ld.relaxed.cta.global.u32 %r4, [%rd1]; fence.acq_rel.cta;", 0),
    CASE("cta_fence_writer", "fence.sc.cta; " ST_VOL, "", LD_VOL, 1),
    CASE("cta_relaxed", "st.relaxed.cta.global.u32 [%rd1], %r6;", "",
         "ld.relaxed.cta.global.u32 %r4, [%rd1];", 1),
    /* atomics and a volatile load of one word race with nothing (the data
       race stays: no release) */
    CASE("strong_pair", "atom.global.add.u32 %r4, [%rd1], %r6;",
         "atom.global.add.u32 %r4, [%rd1], %r6;", LD_VOL, 1),
};

static void one(const char *k, const char *ptx, int racy)
{
    wm_ptx_module *m = pi_parse(ptx, "flag.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t buf[64];
    memset(buf, 0, sizeof buf);
    wm_ptx_arg a = pi_arg_buf(buf, sizeof buf);
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, &a, 1, NULL, 0);
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
    l.check = &chk;
    long ki = wm_ptx_find_kernel(m, k);
    CHECK(ki >= 0);
    wm_ptx_fault ft;
    wm_status st = ki < 0 ? WM_ERR_ARG
                          : twin_run(m, (size_t)ki, &l, NULL, NULL, &ft);
    CHECK_EQ(st, WM_OK);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s\n", k, ft.msg);
    if (chk.nhazards != (size_t)racy)
        fprintf(stderr, "%s: %zu hazards\n", k, chk.nhazards);
    CHECK_EQ(chk.nhazards, racy);
    if (racy && chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_RAW);
        CHECK_EQ(h->space, WM_SPACE_GLOBAL);
        CHECK_EQ(h->addr, 128); /* data[0] */
        CHECK_EQ(h->first.warp, 0);
        CHECK_EQ(h->second.warp, 2);
        CHECK_EQ(h->count, 32);
    }
    CHECK_EQ(buf[32 + 5], 5); /* warp 0 stored its lanes' tid */
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        one(cases[i].name, cases[i].ptx, cases[i].racy);
    return check_done("test_ptx_check_flag");
}
