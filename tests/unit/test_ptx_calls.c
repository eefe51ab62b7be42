/*
 * test_ptx_calls.c -- calls on hand-written PTX: a call made by half of
 * the warp (the other half waits after it), a callee's bar.sync reached
 * by every thread through the call, a call to a function without a body,
 * and an indirect call through a value that is no function address.
 */
#include "check.h"
#include "ptx_inline.h"

#include <string.h>

static const char *src =
    PI_HEAD
    ".extern .func (.param .b32 r) missing(.param .b32 a);\n"
    ".func (.param .b32 inc_r) inc(.param .b32 inc_a)\n{\n"
    "\t.reg .b32 %r<3>;\n"
    "\tld.param.b32 %r1, [inc_a];\n"
    "\tadd.s32 %r2, %r1, 1000;\n"
    "\tst.param.b32 [inc_r], %r2;\n"
    "\tret;\n}\n"
    ".func sync_add(.param .b64 sa_p, .param .b32 sa_v)\n{\n"
    "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
    "\tld.param.b64 %rd1, [sa_p];\n"
    "\tld.param.b32 %r1, [sa_v];\n"
    "\tbar.sync 0;\n"
    "\tatom.global.add.u32 %r2, [%rd1], %r1;\n"
    "\tret;\n}\n"
    ".visible .entry half(.param .u64 h_out)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [h_out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, %r1;\n"
    "\tsetp.lt.u32 %p1, %r1, 16;\n"
    "\t@!%p1 bra $L_skip;\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], %r1;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), inc, (param0);\n"
    "\tld.param.b32 %r2, [retval0];\n\t}\n"
    "$L_skip:\n"
    "\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n"
    "\tst.global.u32 [%rd4], %r2;\n"
    "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd2;\n"
    "\t.param .b32 param1;\n\tst.param.b32 [param1], 1;\n"
    "\tcall.uni sync_add, (param0, param1);\n\t}\n"
    "\tret;\n}\n"
    ".visible .entry ext()\n{\n"
    "\t.reg .b32 %r<2>;\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], 1;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), missing, (param0);\n\t}\n"
    "\tret;\n}\n"
    ".visible .entry bad_ptr()\n{\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tmov.u64 %rd1, 12345;\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], 1;\n"
    "\t.param .b32 retval0;\n"
    "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "\tcall (retval0), %rd1, (param0), proto;\n\t}\n"
    "\tret;\n}\n";

static void test_half_and_barrier(void)
{
    wm_ptx_module *m = pi_parse(src, "calls.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t out[64];
    memset(out, 0, sizeof out);
    pi_launch l = pi_dims(1, 64);
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "half", &l, NULL), WM_OK);
    /* lanes 0..15 of each warp went through inc(); out[0] then got one
       atomic add from each of the 64 threads after the barrier */
    CHECK_EQ(out[0], 1000 + 64);
    for (unsigned i = 1; i < 64; i++)
        CHECK_EQ(out[i], i < 16 ? i + 1000 : i);

    wm_ptx_fault ft;
    l = pi_dims(1, 32);
    CHECK_EQ(pi_run(m, "ext", &l, &ft), WM_ERR_UNSUPPORTED);
    CHECK(strstr(ft.msg, "call to missing, which has no body") != NULL);
    CHECK_EQ(pi_run(m, "bad_ptr", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "indirect call through 0x3039: not the address of "
                         "a .func") != NULL);
    wm_ptx_free(m);
}

int main(void)
{
    test_half_and_barrier();
    return check_done("test_ptx_calls");
}
