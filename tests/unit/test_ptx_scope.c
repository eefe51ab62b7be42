/*
 * test_ptx_scope.c -- labels scoped by { } blocks: two blocks defining
 * the same label each branch to their own, an inner block reaches a label
 * of an enclosing block, and an undefined label is still an error.
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_twin.h"

#include <string.h>

/* out = 1 * 3 (first block's loop) + 10 * 2 (second's) + 100 (a branch
   from a nested block to the body's END label skips the last add) */
static const char *const two_blocks =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, 0;\n"
    "  {\n    .reg .pred p;\n    mov.u32 %r2, 0;\n"
    "  L:\n    add.u32 %r1, %r1, 1;\n    add.u32 %r2, %r2, 1;\n"
    "    setp.lt.u32 p, %r2, 3;\n    @p bra L;\n  }\n"
    "  {\n    .reg .pred p;\n    mov.u32 %r2, 0;\n"
    "  L:\n    add.u32 %r1, %r1, 10;\n    add.u32 %r2, %r2, 1;\n"
    "    setp.lt.u32 p, %r2, 2;\n    @p bra L;\n"
    "    {\n      add.u32 %r1, %r1, 100;\n      bra END;\n    }\n  }\n"
    "  add.u32 %r1, %r1, 1000;\n"
    "END:\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";

static void scoped(void)
{
    wm_ptx_module *m = pi_parse(two_blocks, "scope.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t out = 0;
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, &out, sizeof out);
    CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
    CHECK_EQ(out, 123);
    wm_ptx_free(m);
}

static void unknown(void)
{
    const char *src = ".version 8.0\n.target sm_80\n.address_size 64\n"
                      ".visible .entry k()\n{\n  { bra NOWHERE; }\n  ret;\n}\n";
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_status st = wm_ptx_parse(src, strlen(src), "u.ptx", &m, &d);
    CHECK(st != WM_OK);
    CHECK(strstr(d.msg, "unknown label 'NOWHERE'") != NULL);
    wm_ptx_free(m);
}

int main(void)
{
    scoped();
    unknown();
    return check_done("test_ptx_scope");
}
