/*
 * tma_gen.h -- the generated TMA kernel of test_ptx_tma.c and
 * test_ptx_im2col.c: entry(map, out, nbytes, PARAMS) with a shared buffer
 * of SMEM bytes and an mbarrier that expects nbytes.  Thread 0 of cluster
 * rank 0 runs ISSUE (its PTX lines: the coordinates' ld.param, then the
 * copy; %rd3 holds the map's generic address, %r3 the buffer, %r2 the
 * mbarrier, %rs1 the multicast mask 3); then every CTA waits on its
 * mbarrier and copies its nbytes to out + rank * nbytes.
 */
#ifndef WM_TMA_GEN_H
#define WM_TMA_GEN_H

#include <stdio.h>

static inline void tma_gen(char *s, size_t n, const char *entry,
                           unsigned smem, const char *params,
                           const char *issue)
{
    snprintf(s, n,
        ".version 8.0\n.target sm_90a\n.address_size 64\n"
        ".visible .entry %s(.param .align 64 .b8 map[128], .param .u64 out,"
        " .param .u32 nbytes%s)\n{\n"
        "\t.shared .align 1024 .b8 buf[%u];\n"
        "\t.shared .align 8 .b64 bar;\n"
        "\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<16>;\n\t.reg .b32 %%r<20>;\n"
        "\t.reg .b64 %%rd<8>;\n"
        "\tmov.u32 %%r1, %%tid.x;\n"
        "\tmov.u32 %%r2, bar;\n"
        "\tmov.u32 %%r3, buf;\n"
        "\tld.param.u32 %%r4, [nbytes];\n"
        "\tmov.u32 %%r9, %%cluster_ctarank;\n"
        "\tsetp.ne.u32 %%p1, %%r1, 0;\n"
        "\t@%%p1 bra $sync;\n"
        "\tmbarrier.init.shared::cta.b64 [%%r2], 1;\n"
        "\tmbarrier.arrive.expect_tx.shared::cta.b64 %%rd1, [%%r2], %%r4;\n"
        "$sync:\n"
        "\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
        "\tor.b32 %%r5, %%r1, %%r9;\n"
        "\tsetp.ne.u32 %%p1, %%r5, 0;\n"
        "\t@%%p1 bra $wait;\n"
        "\tmov.b64 %%rd2, map;\n"
        "\tcvta.param.u64 %%rd3, %%rd2;\n"
        "\tmov.u16 %%rs1, 3;\n"
        "%s"
        "$wait:\n"
        "\tmbarrier.try_wait.parity.shared::cta.b64 %%p2, [%%r2], 0;\n"
        "\t@!%%p2 bra $wait;\n"
        "\tmul.lo.u32 %%r6, %%r9, %%r4;\n"
        "\tld.param.u64 %%rd4, [out];\n"
        "\tmov.u32 %%r5, %%r1;\n"
        "$copy:\n"
        "\tshl.b32 %%r7, %%r5, 2;\n"
        "\tsetp.ge.u32 %%p3, %%r7, %%r4;\n"
        "\t@%%p3 bra $done;\n"
        "\tadd.s32 %%r8, %%r3, %%r7;\n"
        "\tld.shared.u32 %%r8, [%%r8];\n"
        "\tadd.s32 %%r7, %%r7, %%r6;\n"
        "\tcvt.u64.u32 %%rd5, %%r7;\n"
        "\tadd.s64 %%rd6, %%rd4, %%rd5;\n"
        "\tst.global.u32 [%%rd6], %%r8;\n"
        "\tadd.s32 %%r5, %%r5, 32;\n"
        "\tbra $copy;\n"
        "$done:\n"
        "\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
        "\tret;\n}\n",
        entry, params, smem, issue);
}

/* Bytes of an element of CUtensorMapDataType dtype (0 .. 12). */
static inline unsigned tma_esize(unsigned dtype)
{
    static const unsigned sz[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    return sz[dtype];
}

#endif /* WM_TMA_GEN_H */
