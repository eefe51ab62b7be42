/*
 * test_limits.c -- robustness of the PTX front end and interpreter
 *: the ptx_ops.def shape table is consistent, and every opcode
 * with every operand count 0..5 and several operand kinds either parses
 * into an instruction the interpreter runs without crashing (a fault is
 * fine) or is a parse error.  Run under ASan+UBSan this is the
 * deterministic twin of fuzz/fuzz_ptx.c.
 */
#include "check.h"
#include "ptx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_shapes(void)
{
    for (unsigned op = 0; op < OP_COUNT; op++) {
        const wmi_shape *s = &wmi_op_shapes[op];
        CHECK(s->ndst <= 1);
        CHECK(s->nsrc_min <= s->nsrc_max);
        CHECK(s->nsrc_max <= 8);
        if (op != OP_UNKNOWN && op != OP_CALL && op != OP_WGMMA)
            /* a b c e; wgmma's immediates: imm; TMA's [map, {coords}]
               operand fills two of them, its im2col offsets, ctaMask and
               cache policy d2, d and one not kept */
            CHECK(s->nsrc_max <= (op == OP_TMA ? 7 : 4));
    }
}

/* One operand of kind k for position i: register, predicate, vector,
   address, immediate, sink. */
static const char *operand(unsigned k, unsigned i)
{
    static const char *const kinds[][2] = {
        {"%r1", "%r2"},   {"%p1", "%p2"},     {"{%r1, %r2}", "{%r3, %r4}"},
        {"[%rd1]", "[%rd1+4]"}, {"1", "0x7"}, {"_", "%r3"},
    };
    return kinds[k][i & 1];
}

/* Parse and (when it parses) run one instruction; counts parses. */
static unsigned try_insn(const char *insn, unsigned *nparsed)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".version 9.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 k_p)\n{\n"
             "\t.reg .pred %%p<3>;\n\t.reg .b32 %%r<5>;\n"
             "\t.reg .b64 %%rd<3>;\n\t.reg .f32 %%f<3>;\n"
             "\tld.param.u64 %%rd1, [k_p];\n"
             "\tmov.u32 %%r1, %%tid.x;\n"
             "\t%s;\n\tret;\n}\n",
             insn);
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, strlen(src), "t.ptx", &m, &d) != WM_OK) {
        CHECK(m == NULL);
        CHECK(d.msg[0] != '\0');
        return 0;
    }
    (*nparsed)++;
    if (getenv("WM_TEST_VERBOSE"))
        fprintf(stderr, "run: %s\n", insn);
    static unsigned char buf[4096];
    memset(buf, 0, sizeof buf);
    wm_ptx_arg arg = {buf, sizeof buf, 0, 0, NULL};
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 32;
    l.block[1] = l.block[2] = 1;
    l.args = &arg;
    l.nargs = 1;
    l.max_steps = 100;
    l.threads = 1;
    wm_ptx_fault f;
    wm_status st = wm_ptx_run(m, 0, &l, NULL, NULL, &f);
    CHECK(st == WM_OK || st == WM_ERR_FAULT || st == WM_ERR_UNSUPPORTED ||
          st == WM_ERR_LIMIT || st == WM_ERR_ARG);
    wm_ptx_free(m);
    return 1;
}

static void test_all_shapes(void)
{
    static const char *const types[] = {"", ".b32", ".u32", ".s32", ".f32",
                                        ".pred", ".u64", ".f16x2"};
    unsigned nparsed = 0, ntried = 0;
    for (unsigned op = 1; op < OP_COUNT; op++) {
        const char *base = wmi_op_names[op];
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
            for (unsigned n = 0; n <= 5; n++)
                for (unsigned k = 0; k < 6; k++) {
                    /* kind k for every operand, and kind k for one
                       operand only (the rest registers) */
                    for (unsigned one = 0; one <= n; one++) {
                        char insn[256];
                        int len = snprintf(insn, sizeof insn, "%s%s", base,
                                           types[t]);
                        for (unsigned i = 0; i < n; i++) {
                            unsigned kk = one == n || i == one ? k : 0;
                            len += snprintf(insn + len,
                                            sizeof insn - (size_t)len, "%s%s",
                                            i ? ", " : " ", operand(kk, i));
                        }
                        ntried++;
                        try_insn(insn, &nparsed);
                        if (k == 0)
                            break; /* all registers: one variant */
                    }
                }
    }
    CHECK(nparsed > 100);
    printf("test_limits: %u instruction shapes, %u parsed and ran\n", ntried,
           nparsed);
}

/* Text that ends inside an opcode, parsed from a buffer of exactly its
   length (so ASan sees a read past it): every prefix of "cp.async.bulk",
   "cp.async.wait_all", "bar.warp.sync", "barrier.cluster.arrive" and a
   TMA copy without its rank (whose decoder looked for ".Nd." and then
   compared "global" past the end; fuzz_cluster) after a kernel header is a
   parse error, never a read past the end. */
static void test_cut_opcodes(void)
{
    static const char *const ops[] = {"cp.async.bulk.global.shared::cta",
                                      "cp.async.wait_all", "bar.warp.sync",
                                      "barrier.cluster.arrive",
                                      "cp.async.bulk.tensor.multicast::cluster"};
    static const char head[] = ".version 9.0\n.target sm_80\n"
                               ".address_size 64\n.visible .entry k()\n{\n";
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t n = 1; n <= strlen(ops[o]); n++) {
            size_t len = sizeof head - 1 + n;
            char *src = malloc(len);
            CHECK(src != NULL);
            if (!src)
                return;
            memcpy(src, head, sizeof head - 1);
            memcpy(src + sizeof head - 1, ops[o], n);
            wm_ptx_module *m = NULL;
            wm_diag d;
            CHECK(wm_ptx_parse(src, len, "cut.ptx", &m, &d) == WM_ERR_PARSE);
            CHECK(m == NULL);
            free(src);
        }
}

/* One instruction's verdict: a kernel of sm_90 whose body is insn, after
   registers %p1..2, %r1..2, %rd1 and their first values, parses (ok) or
   is refused (printed when the verdict is not the expected one). */
typedef struct {
    const char *insn;
    int ok;
} insn_case;

static void check_parses(const insn_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char src[512];
        snprintf(src, sizeof src,
                 ".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k()\n{\n.reg .pred %%p<3>;\n"
                 ".reg .b32 %%r<3>;\n.reg .b64 %%rd<2>;\n"
                 "mov.b64 %%rd1, 7;\nmov.u32 %%r1, 1;\n%s\nret;\n}\n",
                 cases[i].insn);
        wm_ptx_module *m = NULL;
        wm_diag d;
        wm_status st = wm_ptx_parse(src, strlen(src), "insn.ptx", &m, &d);
        if ((st == WM_OK) != cases[i].ok)
            fprintf(stderr, "%s: %s\n", cases[i].insn,
                    st == WM_OK ? "parsed" : d.msg);
        CHECK_EQ(st == WM_OK, cases[i].ok);
        wm_ptx_free(m);
    }
}

/* Every mbarrier operation in its PTX form parses; with an operand
   missing, one too many, or the address out of its brackets it is refused
   (a wait of one operand read a register that was none). */
static void test_mbarrier_forms(void)
{
    static const insn_case cases[] = {
        {"mbarrier.init.shared::cta.b64 [%r1], 32;", 1},
        {"mbarrier.init.shared::cta.b64 [%r1];", 0},
        {"mbarrier.init.shared::cta.b64 %r1, 32;", 0},
        {"mbarrier.arrive.shared::cta.b64 %rd1, [%r1];", 1},
        {"mbarrier.arrive.shared::cta.b64 %rd1, [%r1], %r2;", 1},
        {"mbarrier.arrive.shared::cta.b64 [%r1];", 0},
        {"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], 128;", 1},
        {"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1];", 0},
        {"mbarrier.expect_tx.shared::cta.b64 [%r1], 128;", 1},
        {"mbarrier.expect_tx.shared::cta.b64 [%r1];", 0},
        {"mbarrier.complete_tx.shared::cta.b64 [%r1], 128;", 1},
        {"mbarrier.complete_tx.shared::cta.b64 %r2, [%r1], 128;", 0},
        {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;", 1},
        {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2, 1000;", 1},
        {"mbarrier.test_wait.shared::cta.b64 %p1, [%r1], %rd1;", 1},
        {"mbarrier.try_wait.parity.shared::cta.b64 %r1;", 0},
        {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1];", 0},
        {"mbarrier.test_wait.shared::cta.b64 %p1, %r1, %rd1;", 0},
        {"mbarrier.inval.shared::cta.b64 [%r1];", 1},
        {"mbarrier.inval.shared::cta.b64 [%r1], 1;", 0},
    };
    check_parses(cases, sizeof cases / sizeof cases[0]);
}

/* Destinations: declared registers, '_' and vectors of them are written;
   a special register, %envregN (which reads the slot that is always 0)
   and a literal in a destination vector are refused. */
static void test_destinations(void)
{
    static const insn_case cases[] = {
        {"mov.u32 %r1, %tid.x;", 1},
        {"mov.u32 _, %tid.x;", 1},
        {"mov.b64 {%r1, %r2}, %rd1;", 1},
        {"mov.b64 {%r1, _}, %rd1;", 1},
        {"setp.eq.u32 %p1|%p2, %r1, 0;", 1},
        {"mov.u32 %tid.x, %r1;", 0},
        {"mov.u32 %envreg3, %r1;", 0},
        {"add.u32 %clock, %r1, 1;", 0},
        {"mov.b64 {%r1, 5}, %rd1;", 0},
        {"mov.b64 {%ctaid.x, %r1}, %rd1;", 0},
        {"setp.eq.u32 %p1|%laneid, %r1, 0;", 0},
    };
    check_parses(cases, sizeof cases / sizeof cases[0]);
}

/* tensormap.cp_fenceproxy takes [dst], [src], size: with two operands the
   copy read its size from a register that was none (found by fuzz_lint). */
static void test_tensormap_copy_form(void)
{
    static const insn_case cases[] = {
        {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
         "release.gpu.sync.aligned [%rd1], [%r1], 128;", 1},
        {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
         "release.gpu.sync.aligned [%rd1], 0;", 0},
        {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
         "release.gpu.sync.aligned %rd1, [%r1], 128;", 0},
    };
    check_parses(cases, sizeof cases / sizeof cases[0]);
}

int main(void)
{
    test_shapes();
    test_all_shapes();
    test_cut_opcodes();
    test_mbarrier_forms();
    test_destinations();
    test_tensormap_copy_form();
    return check_done("test_limits");
}
