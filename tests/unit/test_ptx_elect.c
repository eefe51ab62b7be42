/*
 * test_ptx_elect.c -- elect.sync: the leader is the lowest lane of the
 * membermask; every lane learns it, only the leader's predicate is set;
 * a membermask naming lanes not converged at the instruction faults.
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_twin.h"

#include <string.h>

/* out[lane] = leader | (is_leader << 8), with membermask param mask;
   lanes >= split skip the elect (diverged) */
static const char *const src =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 mask, .param .u32 split)\n"
    "{\n  .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [mask];\n"
    "  ld.param.u32 %r6, [split];\n"
    "  mov.u32 %r2, %laneid; mov.u32 %r3, 0; mov.u32 %r4, 0;\n"
    "  setp.ge.u32 %p2, %r2, %r6;\n  @%p2 bra SKIP;\n"
    "  elect.sync %r3|%p1, %r1;\n  selp.u32 %r4, 256, 0, %p1;\n"
    "SKIP:\n  or.b32 %r5, %r3, %r4;\n"
    "  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r5;\n  ret;\n}\n";

static wm_status run(wm_ptx_module *m, uint32_t mask, uint32_t split,
                     uint32_t *out, wm_ptx_fault *ft) {
    memset(out, 0xff, 32 * sizeof *out);
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, out, 32 * sizeof *out);
    pi_u32(&l, mask);
    pi_u32(&l, split);
    return pi_run(m, "k", &l, ft);
}

int main(void) {
    wm_ptx_module *m = pi_parse(src, "elect.ptx");
    CHECK(m != NULL);
    if (!m)
        return check_done("test_ptx_elect");
    uint32_t out[32];
    wm_ptx_fault ft;
    /* all lanes, membermask lanes 8..15: lane 8 leads */
    CHECK_EQ(run(m, 0x0000ff00u, 32, out, &ft), WM_OK);
    for (unsigned l = 0; l < 32; l++)
        CHECK_EQ(out[l], 8u | (l == 8 ? 256u : 0u));
    /* lanes 0..19 converged, membermask of them: lane 0 leads */
    CHECK_EQ(run(m, 0x000fffffu, 20, out, &ft), WM_OK);
    for (unsigned l = 0; l < 32; l++)
        CHECK_EQ(out[l], l < 20 ? (l == 0 ? 256u : 0u) : 0u);
    /* a full membermask while lanes 20..31 took the branch */
    CHECK_EQ(run(m, 0xffffffffu, 20, out, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "elect.sync: membermask 0xffffffff names lanes not "
                         "converged") != NULL);
    CHECK(strstr(ft.msg, "missing 0xfff00000") != NULL);
    wm_ptx_free(m);
    return check_done("test_ptx_elect");
}
