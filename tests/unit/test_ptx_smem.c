/*
 * test_ptx_smem.c -- the CTA's shared-memory layout when .shared variables
 * live in called functions (src/ptx/ptx_smem.c): hand-written PTX whose
 * kernels and callees report the addresses they see, then the corpus's
 * block reduction helper (tests/corpus/block_sum.cu, whose buf[32] nvcc
 * -G keeps inside the callee) against a CPU reference at -O3 and -G, and
 * under the race checker: clean with its barrier, the race found without.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

/*
 * odd() returns the distance from its 3-byte c to its 16-aligned q and
 * stores &c, &q; put_dyn() stores v into the dynamic array at tid.  The
 * layout: c at 0, q at 16 (end 32); kernel own[2] at 32 (static 40),
 * dynamic memory at 48.  two() also calls odd() (the same addresses, no
 * own variables: 32 bytes); none() calls nothing (0 bytes); ptr() calls
 * through a pointer, which may reach every .func (32 bytes).
 */
static const char *src =
    PI_HEAD
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func put_dyn(.param .b32 pd_v)\n{\n"
    "\t.reg .b32 %r<5>;\n"
    "\tld.param.b32 %r1, [pd_v];\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tshl.b32 %r3, %r2, 2;\n"
    "\tmov.u32 %r4, dyn;\n"
    "\tadd.s32 %r4, %r4, %r3;\n"
    "\tst.shared.u32 [%r4], %r1;\n"
    "\tret;\n}\n"
    ".func (.param .b32 od_r) odd(.param .b64 od_p)\n{\n"
    "\t.shared .align 1 .b8 c[3];\n"
    "\t.shared .align 16 .b8 q[16];\n"
    "\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<2>;\n"
    "\tld.param.b64 %rd1, [od_p];\n"
    "\tmov.u32 %r1, c;\n"
    "\tmov.u32 %r2, q;\n"
    "\tst.global.u32 [%rd1], %r1;\n"
    "\tst.global.u32 [%rd1+4], %r2;\n"
    "\tmov.u32 %r4, 5;\n"
    "\tst.shared.u8 [c+2], %r4;\n"
    "\tmov.u32 %r5, 9;\n"
    "\tst.shared.u32 [q+12], %r5;\n"
    "\tsub.s32 %r3, %r2, %r1;\n"
    "\tst.param.b32 [od_r], %r3;\n"
    "\tret;\n}\n"
    ".visible .entry one(.param .u64 o_out)\n{\n"
    "\t.shared .align 4 .b8 own[8];\n"
    "\t.reg .b32 %r<11>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [o_out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r8, 77;\n"
    "\tst.shared.u32 [own], %r8;\n"
    "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd2;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), odd, (param0);\n"
    "\tld.param.b32 %r1, [retval0];\n\t}\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], 1234;\n"
    "\tcall.uni put_dyn, (param0);\n\t}\n"
    "\tmov.u32 %r2, own;\n"
    "\tmov.u32 %r3, dyn;\n"
    "\tld.shared.u32 %r4, [dyn];\n"
    "\tld.shared.u32 %r5, [own];\n"
    "\tmov.u32 %r9, 2;\n"
    "\tld.shared.u8 %r6, [%r9];\n"
    "\tmov.u32 %r10, 28;\n"
    "\tld.shared.u32 %r7, [%r10];\n"
    "\tst.global.u32 [%rd2+8], %r1;\n"
    "\tst.global.u32 [%rd2+12], %r2;\n"
    "\tst.global.u32 [%rd2+16], %r3;\n"
    "\tst.global.u32 [%rd2+20], %r4;\n"
    "\tst.global.u32 [%rd2+24], %r5;\n"
    "\tst.global.u32 [%rd2+28], %r6;\n"
    "\tst.global.u32 [%rd2+32], %r7;\n"
    "\tret;\n}\n"
    ".visible .entry two(.param .u64 t_out)\n{\n"
    "\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [t_out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd2;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), odd, (param0);\n"
    "\tld.param.b32 %r1, [retval0];\n\t}\n"
    "\tret;\n}\n"
    ".visible .entry none()\n{\n\tret;\n}\n"
    ".visible .entry ptr()\n{\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tmov.u64 %rd1, put_dyn;\n"
    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], 1;\n"
    "\tproto: .callprototype _ (.param .b32 _);\n"
    "\tcall %rd1, (param0), proto;\n\t}\n"
    "\tret;\n}\n";

static uint64_t smem_of(const wm_ptx_module *m, const char *name,
                        uint64_t dyn)
{
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    return k >= 0 ? wm_ptx_kernel_smem(m, (size_t)k, dyn) : 0;
}

static void test_layout(void)
{
    wm_ptx_module *m = pi_parse(src, "smem.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK_EQ(smem_of(m, "one", 0), 40);
    CHECK_EQ(smem_of(m, "one", 64), 48 + 64);
    CHECK_EQ(smem_of(m, "two", 0), 32);
    CHECK_EQ(smem_of(m, "none", 0), 0);
    CHECK_EQ(smem_of(m, "ptr", 0), 32);
    uint32_t out[9];
    memset(out, 0xff, sizeof out);
    pi_launch l = pi_dims(1, 1);
    l.dyn_smem = 64;
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "one", &l, NULL), WM_OK);
    CHECK_EQ(out[0], 0);    /* &c: the first .func variable */
    CHECK_EQ(out[1], 16);   /* &q: after c, at its alignment */
    CHECK_EQ(out[2], 16);   /* q - c as the callee computed it */
    CHECK_EQ(out[3], 32);   /* the kernel's own after the callee's */
    CHECK_EQ(out[4], 48);   /* dynamic memory after 40 static bytes */
    CHECK_EQ(out[5], 1234); /* put_dyn stored into the kernel's dyn[0] */
    CHECK_EQ(out[6], 77);   /* own was not overwritten by the callee */
    CHECK_EQ(out[7], 5);    /* c[2] */
    CHECK_EQ(out[8], 9);    /* q[12..15] */
    memset(out, 0xff, sizeof out);
    l = pi_dims(1, 32);
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "two", &l, NULL), WM_OK);
    CHECK_EQ(out[0], 0); /* the same addresses from another kernel */
    CHECK_EQ(out[1], 16);
    wm_ptx_free(m);
}

/* ---- the corpus's block_sum ------------------------------------------- */

enum { NT = 256, NC = 3, N = NC * NT - 100 };

/* Run kernel `name` of m on in[N] into out[2 * NC] (NC CTAs of NT
   threads) with checks `checks` (0: none) into *chk. */
static wm_status run_sum(const wm_ptx_module *m, const char *name,
                         float *in, float *out, unsigned checks,
                         wm_ptx_check *chk)
{
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    if (k < 0)
        return WM_ERR_ARG;
    memset(out, 0, 2 * NC * sizeof *out);
    wm_ptx_arg args[3];
    memset(args, 0, sizeof args);
    args[0].buf = in;
    args[0].bytes = N * sizeof *in;
    args[1].buf = out;
    args[1].bytes = 2 * NC * sizeof *out;
    args[2].scalar = N;
    args[2].size = 4;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = NC;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = NT;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 3;
    l.threads = 1;
    memset(chk, 0, sizeof *chk);
    chk->checks = checks;
    if (checks)
        l.check = chk;
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, (size_t)k, &l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s (PTX line %u)\n", name, ft.msg, ft.ptx_line);
    return st;
}

/* The value of element i of CTA c (0 past the end). */
static double at(const float *in, unsigned c, unsigned t)
{
    unsigned i = c * NT + t;
    return i < N ? (double)in[i] : 0.0;
}

/* The source line of a hazard access. */
static unsigned line_of(const wm_ptx_module *m, size_t insn)
{
    wm_ptx_where w;
    return wm_ptx_where_insn(m, insn, &w) ? w.line : 0;
}

/* What wm_ptx_check_print says, in buf. */
static void printed(const wm_ptx_module *m, const wm_ptx_check *chk,
                    char *buf, size_t n)
{
    FILE *f = tmpfile();
    buf[0] = 0;
    CHECK(f != NULL);
    if (!f)
        return;
    wm_ptx_check_print(f, m, chk);
    rewind(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    fclose(f);
}

static void test_block_sum(const char *build)
{
    char rel[1024];
    snprintf(rel, sizeof rel, "%s/tests/corpus/ptx/block_sum_%s.ptx",
             WM_SOURCE_DIR, build);
    size_t n = 0;
    char *text = wm_read_file(rel, &n);
    CHECK(text != NULL);
    wm_ptx_module *m = text ? pi_parse(text, rel) : NULL;
    free(text);
    CHECK(m != NULL);
    if (!m)
        return;
    static float in[N];
    float out[2 * NC];
    srand(32);
    for (unsigned i = 0; i < N; i++) /* small integers: exact sums */
        in[i] = (float)(rand() % 41 - 20);
    /* one call (buf[32]: 128 bytes), the tile and two calls (1024 more),
       and the racy helper's part[32] after buf in the module's layout */
    CHECK_EQ(smem_of(m, "block_sum_kernel", 0), 128);
    CHECK_EQ(smem_of(m, "block_sum_tile", 0), 1152);
    CHECK_EQ(smem_of(m, "block_sum_racy", 0), 256);

    wm_ptx_check chk;
    for (int checked = 0; checked < 2; checked++) {
        unsigned checks = checked ? WM_CHECK_RACE | WM_CHECK_SCHEDULES : 0;
        CHECK_EQ(run_sum(m, "block_sum_kernel", in, out, checks, &chk), WM_OK);
        for (unsigned c = 0; c < NC; c++) {
            double s = 0;
            for (unsigned t = 0; t < NT; t++)
                s += at(in, c, t);
            CHECK((double)out[c] == s);
        }
        CHECK_EQ(chk.nhazards, 0);
        CHECK_EQ(chk.differs, 0);
        wm_ptx_check_clear(&chk);
        CHECK_EQ(run_sum(m, "block_sum_tile", in, out, checks, &chk), WM_OK);
        for (unsigned c = 0; c < NC; c++) {
            double s = 0, q = 0;
            for (unsigned t = 0; t < NT; t++) {
                s += at(in, c, t);
                q += at(in, c, t) * at(in, c, t);
            }
            CHECK((double)out[2 * c] == s);
            CHECK((double)out[2 * c + 1] == q);
        }
        if (chk.nhazards)
            wm_ptx_check_print(stderr, m, &chk);
        CHECK_EQ(chk.nhazards, 0);
        CHECK_EQ(chk.differs, 0);
        wm_ptx_check_clear(&chk);
    }

    /* without the barrier: warp 0 reads part[1..7] (line 35) before
       warps 1..7 store them (line 34), in every CTA; the sum is warp 0's */
    CHECK_EQ(run_sum(m, "block_sum_racy", in, out,
                     WM_CHECK_RACE | WM_CHECK_SCHEDULES, &chk), WM_OK);
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_WAR);
        CHECK_EQ(line_of(m, h->first.insn), 35);
        CHECK_EQ(line_of(m, h->second.insn), 34);
        CHECK_EQ(h->count, 7 * NC);
    }
    CHECK_EQ(chk.differs, 1);
    char buf[4096];
    printed(m, &chk, buf, sizeof buf);
    CHECK(strstr(buf, "hazard on shared part[1] (offset 132)") != NULL);
    double s0 = 0;
    for (unsigned t = 0; t < 32; t++)
        s0 += at(in, 0, t);
    CHECK((double)out[0] == s0);
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

int main(void)
{
    test_layout();
    static const char *const builds[] = {"sm_80", "sm_90", "G_sm_80",
                                         "G_sm_90"};
    for (size_t b = 0; b < 4; b++) {
        int before = check_failures;
        test_block_sum(builds[b]);
        if (check_failures != before)
            fprintf(stderr, "  ^ block_sum, build %s\n", builds[b]);
    }
    return check_done("test_ptx_smem");
}
