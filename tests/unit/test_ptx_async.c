/*
 * test_ptx_async.c -- mbarrier and cp.async.bulk on hand-written PTX:
 * a consumer warp spinning on try_wait.parity while a later warp produces
 * (the wait must yield), transaction counts completing a phase, the phase
 * parity, and the faults of a bad barrier and of a copy longer than the
 * block.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

/* Warp 0 waits for phase 0 of bar; warp 1 writes data[] to shared memory
   with a bulk copy that completes 128 bytes on bar, arrives, and then
   every thread of warp 0 copies the shared data out (+ its lane). */
static const char *pc_src =
    PI_HEAD
    ".visible .entry pc(.param .u64 pc_in, .param .u64 pc_out)\n{\n"
    "\t.shared .align 128 .b8 buf[128];\n"
    "\t.shared .align 8 .b64 bar;\n"
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, bar;\n"
    "\tmov.u32 %r3, buf;\n"
    "\tsetp.ne.s32 %p1, %r1, 0;\n"
    "\t@%p1 bra $L_sync;\n"
    "\tmbarrier.init.shared::cta.b64 [%r2], 1;\n"
    "$L_sync:\n"
    "\tbar.sync 0;\n"
    "\tsetp.lt.u32 %p2, %r1, 32;\n"
    "\t@%p2 bra $L_wait;\n"
    "\tsetp.ne.s32 %p3, %r1, 32;\n"
    "\t@%p3 bra $L_done;\n"
    "\tld.param.u64 %rd1, [pc_in];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmbarrier.expect_tx.shared::cta.b64 [%r2], 128;\n"
    "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    " [%r3], [%rd2], 128, [%r2];\n"
    "\tmbarrier.arrive.shared::cta.b64 %rd7, [%r2];\n"
    "\tbra $L_done;\n"
    "$L_wait:\n"
    "\tmbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;\n"
    "\t@!%p3 bra $L_wait;\n"
    "\tshl.b32 %r4, %r1, 2;\n"
    "\tadd.s32 %r5, %r3, %r4;\n"
    "\tld.shared.u32 %r6, [%r5];\n"
    "\tadd.s32 %r7, %r6, %r1;\n"
    "\tld.param.u64 %rd3, [pc_out];\n"
    "\tcvta.to.global.u64 %rd4, %rd3;\n"
    "\tmul.wide.u32 %rd5, %r1, 4;\n"
    "\tadd.s64 %rd6, %rd4, %rd5;\n"
    "\tst.global.u32 [%rd6], %r7;\n"
    "\tmbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 1;\n"
    "\tselp.u32 %r8, 1, 0, %p3;\n"
    "\tst.global.u32 [%rd6+128], %r8;\n"
    "$L_done:\n"
    "\tret;\n}\n";

static void test_producer_consumer(void)
{
    wm_ptx_module *m = pi_parse(pc_src, "pc.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t in[32], out[64];
    for (unsigned i = 0; i < 32; i++)
        in[i] = 1000 + 7 * i;
    memset(out, 0xff, sizeof out);
    pi_launch l = pi_dims(1, 64);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "pc", &l, NULL), WM_OK);
    for (unsigned i = 0; i < 32; i++) {
        CHECK_EQ(out[i], 1000 + 8 * i);
        CHECK_EQ(out[32 + i], 0); /* phase 1 has not completed */
    }
    wm_ptx_free(m);
}

static void test_faults(void)
{
    const char *src =
        PI_HEAD
        ".visible .entry z()\n{\n\t.shared .align 8 .b64 bar;\n"
        "\t.reg .b32 %r<2>;\n\tmov.u32 %r1, bar;\n"
        "\tmbarrier.init.shared::cta.b64 [%r1], 0;\n\tret;\n}\n"
        ".visible .entry mis()\n{\n\t.shared .align 8 .b8 bar[16];\n"
        "\t.reg .b32 %r<2>;\n\tmov.u32 %r1, bar;\n"
        "\tmbarrier.init.shared::cta.b64 [%r1+4], 1;\n\tret;\n}\n"
        ".visible .entry drop()\n{\n\t.shared .align 8 .b64 bar;\n"
        "\t.reg .b32 %r<2>;\n\tmov.u32 %r1, bar;\n"
        "\tmbarrier.arrive_drop.shared::cta.b64 _, [%r1];\n\tret;\n}\n";
    wm_ptx_module *m = pi_parse(src, "f.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    pi_launch l = pi_dims(1, 32);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "z", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "mbarrier.init count 0 out of range") != NULL);
    CHECK_EQ(pi_run(m, "mis", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "misaligned shared mbarrier access") != NULL ||
          strstr(ft.msg, "not an aligned") != NULL);
    CHECK_EQ(pi_run(m, "drop", &l, &ft), WM_ERR_UNSUPPORTED);
    CHECK(strstr(ft.msg, "unsupported instruction 'mbarrier.arrive_drop") !=
          NULL);
    CHECK_EQ(ft.ptx_line, 25);
    wm_ptx_free(m);
}

/* A bulk copy into shared memory longer than the block, in a cluster of
   two: its last byte, 2^24 + 15 bytes on, is an address of distributed
   shared memory (rank 0, the block itself, offset 15), so both ends
   resolved and the block was taken as one buffer; the copy wrote 16 MiB
   past the 256 bytes.  Found by fuzz_tma (a TMA box of 16 780 224 bytes
   in a kernel with cluster barriers). */
static void test_block_past_window(void)
{
    const char *src =
        PI_HEAD
        ".visible .entry big(.param .u64 src, .param .u32 n)\n{\n"
        "\t.shared .align 128 .b8 buf[256];\n"
        "\t.shared .align 8 .b64 bar;\n"
        "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, bar;\n\tmov.u32 %r2, buf;\n"
        "\tld.param.u32 %r3, [n];\n\tld.param.u64 %rd1, [src];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tmbarrier.init.shared::cta.b64 [%r1], 1;\n"
        "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%r2], [%rd2], %r3, [%r1];\n"
        "\tret;\n}\n";
    wm_ptx_module *m = pi_parse(src, "big.ptx");
    CHECK(m != NULL);
    size_t n = ((size_t)1 << 24) + 16;
    uint8_t *g = calloc(n, 1);
    CHECK(g != NULL);
    if (!m || !g) {
        wm_ptx_free(m);
        free(g);
        return;
    }
    wm_ptx_arg a[2] = {pi_arg_buf(g, n), pi_arg_u32((uint32_t)n)};
    wm_ptx_launch l = pi_launch_of(2, 1, 32, 2, a, 2, NULL, 0);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run_launch(m, "big", &l, NULL, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "cp.async.bulk store of 16777232 bytes at 0x0 "
                         "crosses a buffer") != NULL);
    /* a copy that fits still goes through */
    a[1].scalar = 256;
    CHECK_EQ(pi_run_launch(m, "big", &l, NULL, NULL, NULL), WM_OK);
    free(g);
    wm_ptx_free(m);
}

int main(void)
{
    test_producer_consumer();
    test_faults();
    test_block_past_window();
    return check_done("test_ptx_async");
}
