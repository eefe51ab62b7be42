/*
 * test_ptx_bar_red.c -- bar.red (__syncthreads_count / _and / _or): the
 * destination of every waiting thread gets the count of, or whether all or
 * any of, the arrived threads had the predicate; a named barrier with a
 * thread count reduces over its own warps; bar.red orders memory as
 * bar.sync does (no race between a shared write and a read after it);
 * malformed forms are refused when parsed.
 */
#include "check.h"
#include "ptx_inline.h"

#include <string.h>

/* vote(out): warps 0 and 1 (64 threads) meet at barrier 1 with a count of
   64, voting tid % 3 == 0; all 128 threads then meet at barrier 0,
   voting tid < 100 (popc), tid < 200 (and), tid > 126 (or); out[tid] holds
   the four results.  share(out): each thread writes s[tid], bar.red, reads
   s[tid ^ 32]. */
static const char *const src =
    PI_HEAD
    ".visible .entry vote(.param .u64 out)\n{\n"
    "  .reg .pred %p<8>; .reg .b32 %r<16>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r9, 0; setp.ge.u32 %p1, %r1, 64; @%p1 bra ALL;\n"
    "  rem.u32 %r2, %r1, 3; setp.eq.u32 %p2, %r2, 0;\n"
    "  bar.red.popc.u32 %r9, 1, 64, %p2;\n"
    "ALL:\n"
    "  setp.lt.u32 %p3, %r1, 100; setp.lt.u32 %p4, %r1, 200;\n"
    "  setp.gt.u32 %p5, %r1, 126;\n"
    "  bar.red.popc.u32 %r10, 0, %p3;\n"
    "  barrier.red.and.pred %p6, 0, %p4;\n"
    "  bar.red.or.pred %p7, 0, %p5;\n"
    "  selp.u32 %r11, 1, 0, %p6; selp.u32 %r12, 1, 0, %p7;\n"
    "  mul.wide.u32 %rd2, %r1, 16; add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r9, %r10, %r11, %r12};\n"
    "  ret;\n}\n"
    ".visible .entry share(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2; mov.u32 %r3, s; add.u32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1; setp.eq.u32 %p1, %r1, 0;\n"
    "  bar.red.popc.u32 %r5, 0, %p1;\n"
    "  xor.b32 %r6, %r2, 128; add.u32 %r6, %r3, %r6;\n"
    "  ld.shared.u32 %r7, [%r6]; add.u32 %r7, %r7, %r5;\n"
    "  mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r7;\n  ret;\n}\n";

static void vote(const wm_ptx_module *m)
{
    uint32_t out[128][4];
    memset(out, 0xff, sizeof out);
    pi_launch l = pi_dims(1, 128);
    pi_buf(&l, out, sizeof out);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "vote", &l, &ft), WM_OK);
    int bad = 0;
    for (unsigned t = 0; t < 128; t++) {
        bad += out[t][0] != (t < 64 ? 22u : 0u); /* 0, 3, .. 63 */
        bad += out[t][1] != 100u;
        bad += out[t][2] != 1u;
        bad += out[t][3] != 1u; /* 127 > 126 */
    }
    CHECK_EQ(bad, 0);
}

static void share(const wm_ptx_module *m)
{
    uint32_t out[64];
    pi_launch l = pi_dims(1, 64);
    pi_buf(&l, out, sizeof out);
    wm_ptx_launch x = pi_launch_of(1, 1, 64, 0, l.args, 1, NULL, 0);
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
    x.check = &chk;
    wm_ptx_fault ft;
    long k = wm_ptx_find_kernel(m, "share");
    CHECK(k >= 0);
    CHECK_EQ(wm_ptx_run(m, (size_t)k, &x, NULL, NULL, &ft), WM_OK);
    CHECK_EQ(chk.nhazards, 0u);
    int bad = 0;
    for (unsigned t = 0; t < 64; t++)
        bad += out[t] != (t ^ 32) + 1; /* one thread voted */
    CHECK_EQ(bad, 0);
    wm_ptx_check_clear(&chk);
}

static void forms(void)
{
    static const struct {
        const char *insn, *msg;
    } bad[] = {
        {"bar.red.popc.u32 %r1, 0", "bar.red.popc.u32 needs 3 or 4 operands"},
        {"bar.sync 0, 64, %r1", "bar.sync needs 1 or 2 operands, got 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ptx[512];
        snprintf(ptx, sizeof ptx,
                 PI_HEAD ".visible .entry k()\n{\n"
                         "  .reg .b32 %%r<2>;\n  %s;\n  ret;\n}\n",
                 bad[i].insn);
        pi_parse_fails(ptx, bad[i].msg, 7); /* the instruction's line */
    }
}

int main(void)
{
    wm_ptx_module *m = pi_parse(src, "bar_red.ptx");
    CHECK(m != NULL);
    if (!m)
        return check_done("test_ptx_bar_red");
    vote(m);
    share(m);
    wm_ptx_free(m);
    forms();
    return check_done("test_ptx_bar_red");
}
