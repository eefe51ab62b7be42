/*
 * test_ptx_check_sched.c -- the schedule comparison of --check race
 * (ptx_check_sched.c): the other run runs on saved images of the launch's
 * memory, the union of its buffers, extra buffers, by-value parameters'
 * bytes, surfaces and module variables set and read back
 * (wm_ptx_launch.globals), so that
 * buffers that alias (the same memory twice, one inside another, an
 * argument and an extra buffer of one allocation) alias in the images as
 * they do in the caller's memory.  The difference reported is the first
 * run's value first; the caller's memory holds exactly what the first
 * run left there.
 */
#include "check.h"
#include "ptx_inline.h"
#include "wm_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every thread writes its warp's number to out[0] (the last warp to run
   wins) and tid + 1 to all[tid]. */
static const char *const src =
    PI_HEAD
    ".visible .entry last(.param .u64 out, .param .u64 all)\n"
    "{\n  .reg .b32 %r<5>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [all];\n"
    "  mov.u32 %r1, %tid.x; shr.u32 %r2, %r1, 5; add.u32 %r3, %r1, 1;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r3;\n  ret;\n}\n"
    /* out[tid] = in[tid] + 100 */
    ".visible .entry shift(.param .u64 in, .param .u64 out)\n"
    "{\n  .reg .b32 %r<4>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4]; add.u32 %r3, %r2, 100;\n"
    "  st.global.u32 [%rd5], %r3;\n  ret;\n}\n"
    /* out[tid] = v + tid + 1 */
    ".visible .entry addv(.param .u64 out, .param .u32 v)\n"
    "{\n  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [v];\n"
    "  mov.u32 %r2, %tid.x; add.u32 %r3, %r1, %r2; add.u32 %r3, %r3, 1;\n"
    "  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";

/* Run kernel name of m under l with the schedule comparison, schedule s,
   into *chk (4-byte elements: nes of them given). */
static wm_status run_sched(const wm_ptx_module *m, const char *name,
                           wm_ptx_launch *l, wm_ptx_schedule s,
                           wm_ptx_check *chk)
{
    static const unsigned es[4] = {4, 4, 4, 4};
    memset(chk, 0, sizeof *chk);
    chk->checks = WM_CHECK_SCHEDULES;
    chk->schedule = s;
    chk->elem_size = es;
    chk->nelem_size = 4;
    l->check = chk;
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, k < 0 ? 0 : (size_t)k, l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s\n", name, ft.msg);
    return st;
}

/* Run `last` on 3 warps under schedule s, with a texture bound or not. */
static void run(const wm_ptx_module *m, wm_ptx_schedule s, int texture,
                uint32_t expect, uint32_t other)
{
    uint32_t out[1] = {77}, all[96];
    memset(all, 0, sizeof all);
    float texels[4] = {1, 2, 3, 4};
    wm_ptx_texture t = pi_tex_f32(texels, 4);
    wm_ptx_arg a[2] = {pi_arg_buf(out, sizeof out),
                       pi_arg_buf(all, sizeof all)};
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, a, 2, NULL, 0);
    if (texture) {
        l.textures = &t;
        l.ntextures = 1;
    }
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "last", &l, s, &chk), WM_OK);
    CHECK_EQ(chk.differs, 1);
    CHECK_EQ(chk.diff_arg, 0);
    CHECK_EQ(chk.diff_byte, 0u);
    CHECK_EQ(chk.diff_bytes[0][0], expect); /* the reported run's */
    CHECK_EQ(chk.diff_bytes[1][0], other);
    CHECK_EQ(out[0], expect);
    CHECK_EQ(all[0], 1u);
    CHECK_EQ(all[95], 96u);
    CHECK_EQ(texels[3], 4.0f);
    wm_ptx_check_clear(&chk);
}

/* `last` with out at the end of all, n words (&all[n - 1]): the
   difference is out's; all holds the first run's tid + 1, zeros up to
   out, and in out its last warp.  n = 97 puts out right after the
   threads' words; 3 MiB of words make one region whose image starts on a
   2 MiB boundary inside a larger block (big_alloc.c), the difference 3 MiB
   into it. */
static void last_at_end(const wm_ptx_module *m, wm_ptx_schedule s,
                        size_t n, uint32_t expect, uint32_t other)
{
    uint32_t *all = calloc(n, 4);
    CHECK(all != NULL);
    if (!all)
        return;
    all[n - 1] = 77;
    wm_ptx_arg a[2] = {pi_arg_buf(&all[n - 1], 4), pi_arg_buf(all, n * 4)};
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, a, 2, NULL, 0);
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "last", &l, s, &chk), WM_OK);
    CHECK_EQ(chk.differs, 1);
    CHECK_EQ(chk.diff_arg, 0);
    CHECK_EQ(chk.diff_byte, 0u);
    CHECK_EQ(chk.diff_bytes[0][0], expect);
    CHECK_EQ(chk.diff_bytes[1][0], other);
    for (uint32_t i = 0; i < 96; i++)
        CHECK_EQ(all[i], i + 1);
    size_t zeros = 96;
    while (zeros < n - 1 && all[zeros] == 0)
        zeros++;
    CHECK_EQ(zeros, n - 1);
    CHECK_EQ(all[n - 1], expect);
    wm_ptx_check_clear(&chk);
    free(all);
}

/* `shift` on 64 threads over buf[n] = 0, 1, 2, ... with in = buf (all
   of it) and out = buf + off (to the end), as one argument (off 0: the
   same buffer twice) or, extra, an extra buffer holding all of buf that
   out points into (an array and a view of it).  Threads read buf[t] and
   write buf[off + t]: 0 and 64 and more touch apart, no difference;
   buf[t] = t + 100 (off 0) or buf[off + t] = t + 100.  3 MiB of words
   make one region whose image starts on a 2 MiB boundary inside a
   larger block (big_alloc.c), which the other run reads in. */
static void shift_apart(const wm_ptx_module *m, size_t n, size_t off,
                        int extra)
{
    uint32_t *buf = malloc(n * 4);
    CHECK(buf != NULL);
    if (!buf)
        return;
    for (uint32_t i = 0; i < n; i++)
        buf[i] = i;
    wm_ptx_arg a[2] = {pi_arg_buf(buf, n * 4),
                       pi_arg_buf(buf + off, (n - off) * 4)};
    wm_ptx_arg x[1] = {pi_arg_buf(buf, n * 4)};
    if (extra) {
        memset(&a[1], 0, sizeof a[1]);
        a[1].scalar = wm_ptx_extra_address(2, 0) + off * 4;
        a[1].size = 8;
    }
    wm_ptx_launch l = pi_launch_of(1, 1, 64, 0, a, 2, x, extra ? 1 : 0);
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "shift", &l, WM_SCHED_IN_ORDER, &chk), WM_OK);
    CHECK_EQ(chk.differs, 0);
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += buf[i] != (i >= off && i < off + 64 ? i - off + 100 : i);
    CHECK_EQ(wrong, 0u);
    wm_ptx_check_clear(&chk);
    free(buf);
}

/* `shift` with out = buf + 32: thread t + 32 reads what thread t writes,
   warp 1 after warp 0 in order (buf[64 + j] = 200 + j), before it
   reversed (132 + j).  The difference is in argument 0 (in, all of buf)
   at element 64; buf holds the first run's outputs. */
static void shift_racy(const wm_ptx_module *m, wm_ptx_schedule s)
{
    uint32_t buf[128];
    for (uint32_t i = 0; i < 128; i++)
        buf[i] = i;
    wm_ptx_arg a[2] = {pi_arg_buf(buf, sizeof buf),
                       pi_arg_buf(buf + 32, 96 * 4)};
    wm_ptx_launch l = pi_launch_of(1, 1, 64, 0, a, 2, NULL, 0);
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "shift", &l, s, &chk), WM_OK);
    uint32_t hi = s == WM_SCHED_IN_ORDER ? 200 : 132;
    CHECK_EQ(chk.differs, 1);
    CHECK_EQ(chk.diff_arg, 0);
    CHECK_EQ(chk.diff_elem, 64u);
    CHECK_EQ(chk.diff_byte, 256u);
    CHECK_EQ(chk.diff_bytes[0][0], hi);
    CHECK_EQ(chk.diff_bytes[1][0], 332 - hi);
    for (uint32_t i = 0; i < 128; i++)
        CHECK_EQ(buf[i], i < 32 ? i : i < 64 ? i + 68 : i < 96 ? i - 64 + hi
                                                                : i);
    wm_ptx_check_clear(&chk);
}

/* `addv` with v's bytes (wm_ptx_arg.value) inside out, at out[0] = 7:
   both runs take v = 7, out[t] = 8 + t. */
static void value_inside(const wm_ptx_module *m)
{
    uint32_t buf[32];
    memset(buf, 0, sizeof buf);
    buf[0] = 7;
    wm_ptx_arg a[2] = {pi_arg_buf(buf, sizeof buf), pi_arg_val(buf, 4)};
    wm_ptx_launch l = pi_launch_of(1, 1, 32, 0, a, 2, NULL, 0);
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "addv", &l, WM_SCHED_IN_ORDER, &chk), WM_OK);
    CHECK_EQ(chk.differs, 0);
    for (uint32_t i = 0; i < 32; i++)
        CHECK_EQ(buf[i], 8 + i);
    wm_ptx_check_clear(&chk);
}

/* The kernels of tests/ptx/sched_state.ptx, parsed (NULL: CHECK failed). */
static wm_ptx_module *state_module(void)
{
    size_t n = 0;
    char *text = wm_read_file(WM_SOURCE_DIR "/tests/ptx/sched_state.ptx", &n);
    CHECK(text != NULL);
    wm_ptx_module *m = text ? pi_parse(text, "sched_state.ptx") : NULL;
    free(text);
    CHECK(m != NULL);
    return m;
}

/* `surf` on 3 warps with its surface in memory of its own, {0, 5}: the
   surface and out hold the first run's values ({warp that ran last, 6},
   5), and the second run, from {0, 5} too, finds the same out; the
   surface's texel 0 holds the warp that ran last in each order (last,
   other), which the comparison names. */
static void surface(const wm_ptx_module *m, wm_ptx_schedule s, uint32_t last,
                    uint32_t other)
{
    uint32_t texels[2] = {0, 5}, out[1] = {77};
    wm_ptx_texture t;
    memset(&t, 0, sizeof t);
    t.data = texels;
    t.bytes = sizeof texels;
    t.dims = 1;
    t.width = 2;
    t.height = t.depth = 1;
    t.format = WM_PTX_U32;
    t.channels = 1;
    t.surface = 1;
    wm_ptx_arg a[2] = {pi_arg_u32(0), pi_arg_buf(out, sizeof out)};
    a[0].scalar = wm_ptx_texture_handle(0);
    a[0].size = 8;
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, a, 2, NULL, 0);
    l.textures = &t;
    l.ntextures = 1;
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "surf", &l, s, &chk), WM_OK);
    CHECK_EQ(chk.differs, 1);
    CHECK_EQ(chk.diff_in, WM_DIFF_SURFACE);
    CHECK_EQ(chk.diff_arg, 0);
    CHECK_EQ(chk.diff_elem, 0u);
    CHECK_EQ(chk.diff_byte, 0u);
    CHECK_EQ(chk.diff_elem_bytes, 4u);
    CHECK_EQ(chk.diff_bytes[0][0], last);
    CHECK_EQ(chk.diff_bytes[1][0], other);
    CHECK_EQ(out[0], 5u);
    CHECK_EQ(texels[0], last);
    CHECK_EQ(texels[1], 6u);
    wm_ptx_check_clear(&chk);
}

/* `glob` on 3 warps with its module variable state = {0, 5} set before
   the run and read back after it, into memory of its own or (alias) into
   the bytes it was set from, as the CLI's --global does: they hold the
   first run's {warp that ran last, 6}, and the second run, from {0, 5}
   too, finds the same out[0]; state[0] differs (last, other), and the
   comparison names the variable. */
static void globals(const wm_ptx_module *m, wm_ptx_schedule s, int alias,
                    uint32_t last, uint32_t other)
{
    uint32_t init[2] = {0, 5}, back[2] = {77, 77}, out[1] = {77};
    uint32_t *got = alias ? init : back;
    wm_ptx_global g = {"state", init, got, sizeof init};
    wm_ptx_arg a[1] = {pi_arg_buf(out, sizeof out)};
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, a, 1, NULL, 0);
    l.globals = &g;
    l.nglobals = 1;
    wm_ptx_check chk;
    CHECK_EQ(run_sched(m, "glob", &l, s, &chk), WM_OK);
    CHECK_EQ(chk.differs, 1);
    CHECK_EQ(chk.diff_in, WM_DIFF_GLOBAL);
    CHECK_EQ(chk.diff_arg, 0);
    CHECK(chk.diff_name && strcmp(chk.diff_name, "state") == 0);
    CHECK_EQ(chk.diff_byte, 0u);
    CHECK_EQ(chk.diff_bytes[0][0], last);
    CHECK_EQ(chk.diff_bytes[1][0], other);
    CHECK_EQ(out[0], 5u);
    CHECK_EQ(got[0], last);
    CHECK_EQ(got[1], 6u);
    if (!alias) {
        CHECK_EQ(init[0], 0u);
        CHECK_EQ(init[1], 5u);
    }
    wm_ptx_check_clear(&chk);
}

/* Blocks past 2 MiB start on a 2 MiB boundary inside their allocation;
   smaller ones are the allocation itself. */
static void big_blocks(void)
{
    const size_t mib2 = (size_t)2 << 20;
    const size_t sizes[] = {0, 100, mib2 - 1, mib2, 3 * mib2 + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t bytes = sizes[i];
        wmi_big b;
        CHECK(wmi_big_alloc(&b, bytes));
        CHECK(b.p != NULL);
        uintptr_t base = (uintptr_t)b.base, p = (uintptr_t)b.p;
        if (bytes < mib2) {
            CHECK(p == base);
        } else {
            CHECK_EQ(p % mib2, 0u);
            CHECK(p >= base && p - base < mib2);
        }
        if (bytes) {
            memset(b.p, 0xab, bytes);
            CHECK_EQ(b.p[bytes - 1], 0xab);
        }
        wmi_big_free(&b);
        CHECK(b.base == NULL && b.p == NULL);
    }
    wmi_big b;
    CHECK(!wmi_big_alloc(&b, SIZE_MAX - 5)); /* no wrap-around */
    CHECK(b.base == NULL && b.p == NULL);
}

int main(void)
{
    wm_ptx_module *m = pi_parse(src, "last.ptx");
    CHECK(m != NULL);
    if (!m)
        return check_done("test_ptx_check_sched");
    for (int texture = 0; texture < 2; texture++) {
        run(m, WM_SCHED_IN_ORDER, texture, 2, 0); /* warp 2 ran last */
        run(m, WM_SCHED_REVERSE, texture, 0, 2);
    }
    for (int big = 0; big < 2; big++) {
        size_t n = big ? (size_t)3 << 18 : 97;
        last_at_end(m, WM_SCHED_IN_ORDER, n, 2, 0);
        last_at_end(m, WM_SCHED_REVERSE, n, 0, 2);
    }
    big_blocks();
    shift_apart(m, 128, 0, 0);
    shift_apart(m, 128, 64, 0);
    shift_apart(m, 128, 64, 1);
    shift_apart(m, (size_t)3 << 18, 600000, 0); /* one 3 MiB region */
    shift_racy(m, WM_SCHED_IN_ORDER);
    shift_racy(m, WM_SCHED_REVERSE);
    value_inside(m);
    wm_ptx_free(m);
    wm_ptx_module *ms = state_module();
    if (ms) {
        surface(ms, WM_SCHED_IN_ORDER, 2, 0);
        surface(ms, WM_SCHED_REVERSE, 0, 2);
        for (int alias = 0; alias < 2; alias++) {
            globals(ms, WM_SCHED_IN_ORDER, alias, 2, 0);
            globals(ms, WM_SCHED_REVERSE, alias, 0, 2);
        }
    }
    wm_ptx_free(ms);
    return check_done("test_ptx_check_sched");
}
