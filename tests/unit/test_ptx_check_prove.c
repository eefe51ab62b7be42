/*
 * test_ptx_check_prove.c -- WM_CHECK_PROVE (ptx_check_prove.c): the
 * schedule comparison's second run is left out only where the tracked
 * run proves the outputs of every warp order equal.  A race-free kernel
 * of plain loads and stores is proved (also through a .func, and with
 * .volatile shared accesses); each construct the proof does not cover
 * (in the kernel or in a .func it calls)
 * keeps the second run, and four of them show why: an atomic exchange,
 * a ticket from an atomic add, a float sum by atomics (which the tracker
 * never reports against each other) and byte stores (whose first writer
 * a word forgets) leave different outputs in the two orders with no race
 * reported, and the comparison finds it.  Integer atomic adds and maxima
 * whose results nothing reads are proved.  A race the
 * tracker reports keeps the second run, as does a texture in the launch,
 * and nothing is proved without the tracker or without WM_CHECK_PROVE.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdint.h>
#include <string.h>

/* Each kernel takes (.param .u64 out) and runs on 96 threads (3 warps);
   out has 96 words.  %r1 = tid, %r2 = warp, %rd2 = &out[tid]. */
#define ENTRY(name)                                                          \
    ".visible .entry " name "(.param .u64 out)\n"                           \
    "{\n  .reg .pred %p<3>; .reg .b32 %r<9>; .reg .b64 %rd<6>;\n"           \
    "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 5;\n" \
    "  mul.wide.u32 %rd3, %r1, 4; add.s64 %rd2, %rd1, %rd3;\n"

static const char *const src1 =
    PI_HEAD
    /* out[tid] = tid: proved */
    ENTRY("plain")
    "  st.global.u32 [%rd2], %r1;\n  ret;\n}\n"
    /* the same through a .func that stores */
    ".func put(.param .b64 p, .param .b32 v)\n"
    "{\n  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [v];\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    ENTRY("called")
    "  { .param .b64 a; .param .b32 b; st.param.b64 [a], %rd2;\n"
    "    st.param.b32 [b], %r1; call.uni put, (a, b); }\n  ret;\n}\n"
    /* a shared tile through .volatile accesses, a barrier between */
    ".shared .align 4 .b8 tile[384];\n"
    ENTRY("volatile_shared")
    "  mov.u32 %r3, tile; shl.b32 %r4, %r1, 2; add.u32 %r5, %r3, %r4;\n"
    "  st.volatile.shared.u32 [%r5], %r1; bar.sync 0;\n"
    "  sub.u32 %r6, 380, %r4; add.u32 %r6, %r3, %r6;\n"
    "  ld.volatile.shared.u32 %r7, [%r6]; st.global.u32 [%rd2], %r7;\n"
    "  ret;\n}\n"
    /* every warp exchanges its number into out[0]: the last one wins, and
       atomics never race with atomics */
    ENTRY("exch_last")
    "  atom.global.exch.b32 %r3, [%rd1], %r2;\n  ret;\n}\n"
    /* lane 0 of warp 0 stores byte 0 of out[0] = 1, of warp 1 byte 1 = 2;
       lane 0 of warp 2 copies byte 0 into out[1]: 1 in order, 0 reversed
       (the word keeps only warp 1 as its writer, whose byte it is not) */
    ENTRY("bytes")
    "  and.b32 %r3, %r1, 31; setp.ne.u32 %p1, %r3, 0; @%p1 bra done;\n"
    "  setp.eq.u32 %p2, %r2, 2; @%p2 bra reader;\n"
    "  add.u32 %r4, %r2, 1; cvt.u64.u32 %rd4, %r2; add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u8 [%rd5], %r4; bra done;\n"
    "reader:\n  ld.global.u8 %r5, [%rd1]; st.global.u32 [%rd1+4], %r5;\n"
    "done:\n  ret;\n}\n";

/* An atomic whose result is read (a ticket) in a .func: its callers are
   not proved; a kernel beside them that does not call it is. */
static const char *const src3 =
    PI_HEAD
    ".func bump(.param .b64 p)\n"
    "{\n  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p]; atom.global.add.u32 %r1, [%rd1], 1;\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    ENTRY("calls_atomic")
    "  st.global.u32 [%rd2], %r1;\n"
    "  setp.ne.u32 %p1, %r1, 0; @%p1 bra done;\n"
    "  { .param .b64 a; st.param.b64 [a], %rd1; call.uni bump, (a); }\n"
    "done:\n  ret;\n}\n"
    ENTRY("plain_beside")
    "  st.global.u32 [%rd2], %r1;\n  ret;\n}\n";

/* Atomics: integer add and max whose results nothing reads end the same
   in any order (proved); a ticket taken by atomic add and a float sum do
   not, with no race reported. */
static const char *const src4 =
    PI_HEAD
    ENTRY("counts")
    "  red.global.add.u32 [%rd1], 1;\n"
    "  atom.global.max.s32 %r3, [%rd1+4], %r1;\n  ret;\n}\n"
    /* lane 0 of each warp takes a ticket t and writes its warp to out[1+t] */
    ENTRY("tickets")
    "  and.b32 %r3, %r1, 31; setp.ne.u32 %p1, %r3, 0; @%p1 bra done;\n"
    "  atom.global.add.u32 %r4, [%rd1], 1;\n"
    "  mul.wide.u32 %rd4, %r4, 4; add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u32 [%rd5+4], %r2;\n"
    "done:\n  ret;\n}\n"
    /* lane 0 of warps 0, 1, 2 adds 1, 1e8, -1e8 to a float: 0 in order
       (1e8 + 1 rounds to 1e8), 1 reversed */
    ENTRY("float_sums")
    "  .reg .f32 %f<4>;\n"
    "  and.b32 %r3, %r1, 31; setp.ne.u32 %p1, %r3, 0; @%p1 bra done;\n"
    "  setp.eq.u32 %p2, %r2, 1; selp.f32 %f1, 0f4CBEBC20, 0fCCBEBC20, %p2;\n"
    "  setp.eq.u32 %p2, %r2, 0; selp.f32 %f2, 0f3F800000, %f1, %p2;\n"
    "  red.global.add.f32 [%rd1], %f2;\n"
    "done:\n  ret;\n}\n";

/* Clean kernels, each with one construct the proof does not cover, and a
   reported race. */
static const char *const src2 =
    PI_HEAD
    ENTRY("fence")
    "  st.global.u32 [%rd2], %r1; membar.gl;\n  ret;\n}\n"
    ENTRY("acquire")
    "  ld.acquire.gpu.global.u32 %r3, [%rd2]; st.global.u32 [%rd2], %r3;\n"
    "  ret;\n}\n"
    ENTRY("volatile_global")
    "  ld.volatile.global.u32 %r3, [%rd2]; add.u32 %r3, %r3, 1;\n"
    "  st.global.u32 [%rd2], %r3;\n  ret;\n}\n"
    ENTRY("counted")
    "  st.global.u32 [%rd2], %r1; bar.sync 1, 96;\n  ret;\n}\n"
    ENTRY("half_word")
    "  st.global.u16 [%rd2], %r1;\n  ret;\n}\n"
    /* every thread stores its warp's number to out[0]: a reported race */
    ENTRY("racy")
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

static wm_ptx_module *mods[4];

/* Kernel name (of either module) on 3 warps under checks, schedule in
   order; *chk filled (cleared by the caller); out holds the run's
   outputs. */
static wm_status launch(const char *name,
                        unsigned checks, int texture, uint32_t out[96],
                        wm_ptx_check *chk)
{
    float texels[4] = {1, 2, 3, 4};
    wm_ptx_texture t = pi_tex_f32(texels, 4);
    memset(out, 0, 96 * sizeof *out);
    wm_ptx_arg a = pi_arg_buf(out, 96 * sizeof *out);
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, &a, 1, NULL, 0);
    if (texture) {
        l.textures = &t;
        l.ntextures = 1;
    }
    memset(chk, 0, sizeof *chk);
    chk->checks = checks;
    l.check = chk;
    const wm_ptx_module *m = mods[0];
    for (int i = 1; wm_ptx_find_kernel(m, name) < 0 && i < 4; i++)
        m = mods[i];
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, k < 0 ? 0 : (size_t)k, &l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s\n", name, ft.msg);
    return st;
}

static const unsigned all = WM_CHECK_RACE | WM_CHECK_INIT |
                            WM_CHECK_SCHEDULES | WM_CHECK_PROVE;

static size_t races(const wm_ptx_check *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nhazards; i++)
        n += c->hazards[i].kind != WM_HAZ_UNINIT;
    return n;
}

/* name runs clean (no race, outputs agree); proved as expected. */
static void clean(const char *name, int proved)
{
    uint32_t out[96];
    wm_ptx_check chk;
    CHECK_EQ(launch(name, all, 0, out, &chk), WM_OK);
    CHECK_EQ(races(&chk), 0u);
    CHECK_EQ(chk.differs, 0);
    CHECK_EQ(chk.proved, proved);
    if (chk.proved != proved)
        fprintf(stderr, "  ^ kernel %s\n", name);
    wm_ptx_check_clear(&chk);
}

static void proved_kernels(void)
{
    uint32_t out[96];
    wm_ptx_check chk;
    CHECK_EQ(launch("plain", all, 0, out, &chk), WM_OK);
    CHECK_EQ(chk.proved, 1);
    CHECK_EQ(chk.differs, 0);
    CHECK_EQ(chk.other, WM_SCHED_REVERSE);
    CHECK_EQ(out[0], 0u);
    CHECK_EQ(out[95], 95u); /* the first run's outputs, as always */
    wm_ptx_check_clear(&chk);
    clean("called", 1);
    clean("plain_beside", 1);
    CHECK_EQ(launch("volatile_shared", all, 0, out, &chk), WM_OK);
    CHECK_EQ(chk.proved, 1);
    CHECK_EQ(out[0], 95u); /* the tile read backwards */
    CHECK_EQ(out[95], 0u);
    wm_ptx_check_clear(&chk);
}

/* name races unreported, is not proved, and the comparison finds its
   outputs differ; *chk for the caller's checks (and to clear). */
static void unreported(const char *name, uint32_t out[96], wm_ptx_check *chk)
{
    CHECK_EQ(launch(name, all, 0, out, chk), WM_OK);
    CHECK_EQ(races(chk), 0u);
    CHECK_EQ(chk->proved, 0);
    CHECK_EQ(chk->differs, 1);
}

/* Atomics and byte stores: no race reported, the outputs differ. */
static void unproved_races(void)
{
    uint32_t out[96];
    wm_ptx_check chk;
    unreported("exch_last", out, &chk);
    CHECK_EQ(out[0], 2u); /* warp 2 ran last in order */
    CHECK_EQ(chk.diff_bytes[1][0], 0u); /* warp 0 reversed */
    wm_ptx_check_clear(&chk);
    unreported("bytes", out, &chk); /* the race the tracker misses */
    CHECK_EQ(out[1], 1u);
    CHECK_EQ(chk.diff_byte, 4u);
    CHECK_EQ(chk.diff_bytes[1][0], 0u);
    wm_ptx_check_clear(&chk);
}

static void atomics(void)
{
    uint32_t out[96];
    wm_ptx_check chk;
    CHECK_EQ(launch("counts", all, 0, out, &chk), WM_OK);
    CHECK_EQ(races(&chk), 0u);
    CHECK_EQ(chk.proved, 1);
    CHECK_EQ(out[0], 96u);
    CHECK_EQ(out[1], 95u);
    wm_ptx_check_clear(&chk);
    unreported("tickets", out, &chk);
    CHECK_EQ(out[1], 0u); /* warp 0 took ticket 0 in order */
    CHECK_EQ(out[3], 2u);
    CHECK_EQ(chk.diff_byte, 4u); /* reversed, warp 2 took it */
    CHECK_EQ(chk.diff_bytes[1][0], 2u);
    wm_ptx_check_clear(&chk);
    unreported("float_sums", out, &chk);
    float sum;
    memcpy(&sum, &out[0], 4);
    CHECK(sum == 0.0f);
    wm_ptx_check_clear(&chk);
}

/* A reported race, a texture, and checks without the tracker or without
   WM_CHECK_PROVE: the second run runs. */
static void compared(void)
{
    uint32_t out[96];
    wm_ptx_check chk;
    CHECK_EQ(launch("racy", all, 0, out, &chk), WM_OK);
    CHECK(races(&chk) > 0);
    CHECK_EQ(chk.proved, 0);
    CHECK_EQ(chk.differs, 1);
    wm_ptx_check_clear(&chk);
    CHECK_EQ(launch("plain", all, 1, out, &chk), WM_OK);
    CHECK_EQ(chk.proved, 0);
    wm_ptx_check_clear(&chk);
    CHECK_EQ(launch("plain", WM_CHECK_SCHEDULES | WM_CHECK_PROVE, 0, out,
                    &chk), WM_OK);
    CHECK_EQ(chk.proved, 0);
    wm_ptx_check_clear(&chk);
    CHECK_EQ(launch("plain", all & ~(unsigned)WM_CHECK_PROVE, 0, out, &chk),
             WM_OK);
    CHECK_EQ(chk.proved, 0);
    CHECK_EQ(chk.differs, 0);
    wm_ptx_check_clear(&chk);
}

int main(void)
{
    mods[0] = pi_parse(src1, "prove1.ptx");
    mods[1] = pi_parse(src2, "prove2.ptx");
    mods[2] = pi_parse(src3, "prove3.ptx");
    mods[3] = pi_parse(src4, "prove4.ptx");
    CHECK(mods[0] && mods[1] && mods[2] && mods[3]);
    if (!mods[0] || !mods[1] || !mods[2] || !mods[3])
        return check_done("test_ptx_check_prove");
    proved_kernels();
    unproved_races();
    atomics();
    compared();
    static const char *const blocked[] = {
        "calls_atomic", "fence", "acquire", "volatile_global", "counted",
        "half_word"};
    for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++)
        clean(blocked[i], 0);
    for (int i = 0; i < 4; i++)
        wm_ptx_free(mods[i]);
    return check_done("test_ptx_check_prove");
}
