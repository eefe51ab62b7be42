/*
 * test_ptx_stmatrix.c -- stmatrix.m8n8.x1/.x2/.x4 (.trans) .b16 in the
 * PTX interpreter, against the PTX ISA's rule (the inverse of ldmatrix):
 * register i of lane l holds elements (l / 4, 2 (l % 4)) and (l / 4,
 * 2 (l % 4) + 1) of matrix i (.trans: each at the transposed place), and
 * lane 8 i + r gives the address of row r of matrix i.  Lane l's register
 * i holds 1000 i + 2 l (low half) and + 1 (high half), the rows are
 * `pitch` bytes apart, and the shared memory is copied out and checked
 * element by element; then ldmatrix of the same rows must give the
 * registers back, and the store's wavefronts follow the rows' banks.
 * Every launch also runs with the fast paths off (ptx_twin.h).
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdio.h>
#include <string.h>

enum { SMEM = 4096 };

static void one(unsigned n, int trans, unsigned pitch, uint64_t want_wf)
{
    char src[16384], regs[64], copy[8192];
    size_t k = 0;
    /* every lane copies 32 words of shared memory out, 128 bytes apart */
    for (unsigned j = 0; j < SMEM / 128; j++)
        k += (size_t)snprintf(copy + k, sizeof copy - k,
                              "ld.shared.u32 %%r15, [%%r14+%u];\n"
                              "st.global.u32 [%%rd2+%u], %%r15;\n",
                              128 * j, 128 * j);
    snprintf(regs, sizeof regs, n == 1 ? "%%r3" : n == 2 ? "{%%r3, %%r4}"
                                                 : "{%%r3, %%r4, %%r5, %%r6}");
    char rregs[64];
    snprintf(rregs, sizeof rregs, n == 1 ? "%%r16" : n == 2 ? "{%%r16, %%r17}"
                                                  : "{%%r16, %%r17, %%r18, %%r19}");
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u64 back)\n{\n"
             ".reg .b32 %%r<24>;\n.reg .b64 %%rd<8>;\n"
             ".shared .align 16 .b8 sm[%u];\n"
             "ld.param.u64 %%rd0, [out];\nld.param.u64 %%rd4, [back];\n"
             "mov.u32 %%r0, %%laneid;\n"
             "shl.b32 %%r1, %%r0, 1;\nadd.u32 %%r2, %%r1, 1;\n"
             "shl.b32 %%r2, %%r2, 16;\nor.b32 %%r3, %%r1, %%r2;\n"
             "add.u32 %%r4, %%r3, 0x03e803e8;\nadd.u32 %%r5, %%r4, 0x03e803e8;\n"
             "add.u32 %%r6, %%r5, 0x03e803e8;\n"
             "and.b32 %%r7, %%r0, 7;\nmul.lo.u32 %%r7, %%r7, %u;\n"
             "shr.u32 %%r8, %%r0, 3;\nmul.lo.u32 %%r8, %%r8, %u;\n"
             "add.u32 %%r9, %%r7, %%r8;\nmov.u32 %%r10, sm;\n"
             "add.u32 %%r9, %%r9, %%r10;\n"
             "stmatrix.sync.aligned.m8n8.x%u%s.shared.b16 [%%r9], %s;\n"
             "ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 %s, [%%r9];\n"
             "mul.wide.u32 %%rd5, %%r0, 16;\nadd.u64 %%rd6, %%rd4, %%rd5;\n"
             "st.global.v4.u32 [%%rd6], {%%r16, %%r17, %%r18, %%r19};\n"
             "shl.b32 %%r11, %%r0, 2;\nadd.u32 %%r14, %%r10, %%r11;\n"
             "mul.wide.u32 %%rd1, %%r0, 4;\nadd.u64 %%rd2, %%rd0, %%rd1;\n"
             "%s"
             "ret;\n}\n",
             SMEM, pitch, 8 * pitch, n, trans ? ".trans" : "", regs, n,
             trans ? ".trans" : "", rregs, copy);
    wm_ptx_module *m = pi_parse(src, "stmatrix.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static uint16_t out[SMEM / 2];
    static uint32_t back[32 * 4];
    memset(out, 0, sizeof out);
    memset(back, 0, sizeof back);
    wm_arch arch;
    CHECK(wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK);
    wm_agg *g = wm_agg_new(&arch);
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, back, sizeof back);
    CHECK_EQ(pi_run_agg(m, "k", &l, g, NULL), WM_OK);
    int bad = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned r = 0; r < 8; r++)
            for (unsigned c = 0; c < 8; c++) {
                /* element (r, c) of matrix i in memory comes from lane
                   (row 4 + col / 2), half col % 2, of the register matrix
                   element (row, col) = trans ? (c, r) : (r, c) */
                unsigned row = trans ? c : r, col = trans ? r : c;
                unsigned lane = row * 4 + col / 2;
                uint16_t want = (uint16_t)(1000 * i + 2 * lane + col % 2);
                bad += out[(8 * pitch * i + pitch * r) / 2 + c] != want;
            }
    CHECK_EQ(bad, 0);
    /* ldmatrix of the same rows gives every register back */
    bad = 0;
    for (unsigned ln = 0; ln < 32; ln++)
        for (unsigned i = 0; i < n; i++) {
            uint32_t lo = 1000 * i + 2 * ln;
            bad += back[ln * 4 + i] != (lo | (lo + 1) << 16);
        }
    CHECK_EQ(bad, 0);
    wm_stats s;
    memset(&s, 0, sizeof s);
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site x;
        wm_agg_site(g, i, &x);
        if (x.space == WM_SPACE_SHARED && x.op == WM_OP_ST) {
            s.requests += x.stats.requests;
            s.wavefronts += x.stats.wavefronts;
        }
    }
    CHECK_EQ(s.requests, 1);
    CHECK_EQ(s.wavefronts, want_wf);
    wm_agg_free(g);
    wm_ptx_free(m);
}

static void fault_case(const char *insn, const char *want)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_90\n.address_size 64\n"
             ".visible .entry k()\n{\n.reg .b32 %%r<8>;\n"
             ".shared .align 16 .b8 sm[256];\n"
             "mov.u32 %%r0, %%laneid;\nshl.b32 %%r1, %%r0, 3;\n%s\nret;\n}\n",
             insn);
    wm_ptx_module *m = pi_parse(src, "fault.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    pi_launch l = pi_dims(1, 32);
    wm_ptx_fault ft;
    CHECK(pi_run(m, "k", &l, &ft) != WM_OK);
    CHECK(strstr(ft.msg, want) != NULL);
    if (!strstr(ft.msg, want))
        fprintf(stderr, "  got: %s\n", ft.msg);
    wm_ptx_free(m);
}

int main(void)
{
    /* rows 16 bytes apart: a matrix's 8 rows in 8 bank groups, one
       wavefront per 8-lane phase (matrix) */
    one(1, 0, 16, 1);
    one(2, 1, 16, 2);
    one(4, 0, 16, 4);
    /* 32 bytes apart: 16-byte bank groups 0 2 4 6 0 2 4 6, 2-way */
    one(4, 1, 32, 8);
    /* rows 128 bytes apart: all 8 rows of a matrix on banks 0-3, 8-way */
    one(4, 0, 128, 32);
    one(2, 0, 128, 16);
    fault_case("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r1], %r2;",
               "misaligned stmatrix row address");
    fault_case("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r1], %r2;",
               "unsupported stmatrix form");
    return check_done("test_ptx_stmatrix");
}
