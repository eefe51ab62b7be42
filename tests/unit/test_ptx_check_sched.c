/*
 * test_ptx_check_sched.c -- the schedule comparison of --check race
 * (ptx_check_sched.c): the other run runs on the saved images of the
 * inputs, or, with a texture bound (or buffers that overlap), in the
 * buffers themselves with the inputs swapped in.  Either way the same
 * difference is reported, the reported run's value first, and the
 * caller's buffers hold the reported run's outputs.
 */
#include "check.h"
#include "ptx_inline.h"

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
    "  st.global.u32 [%rd4], %r3;\n  ret;\n}\n";

/* Run `last` on 3 warps under schedule s, with a texture bound or not. */
static void run(const wm_ptx_module *m, wm_ptx_schedule s, int texture,
                uint32_t expect, uint32_t other)
{
    uint32_t out[1] = {77}, all[96];
    memset(all, 0, sizeof all);
    float texels[4] = {1, 2, 3, 4};
    wm_ptx_texture t;
    memset(&t, 0, sizeof t);
    t.data = texels;
    t.bytes = sizeof texels;
    t.dims = 1;
    t.width = 4;
    t.height = t.depth = 1;
    t.format = WM_PTX_F32;
    t.channels = 1;
    wm_ptx_arg a[2] = {pi_arg_buf(out, sizeof out),
                       pi_arg_buf(all, sizeof all)};
    wm_ptx_launch l = pi_launch_of(1, 1, 96, 0, a, 2, NULL, 0);
    if (texture) {
        l.textures = &t;
        l.ntextures = 1;
    }
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_SCHEDULES;
    chk.schedule = s;
    l.check = &chk;
    wm_ptx_fault ft;
    CHECK_EQ(wm_ptx_run(m, 0, &l, NULL, NULL, &ft), WM_OK);
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
    wm_ptx_free(m);
    return check_done("test_ptx_check_sched");
}
