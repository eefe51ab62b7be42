/*
 * test_ops_family.c -- the family column of ptx_ops.def (wmi_op_family):
 * every opcode has one of the five families and every family has
 * opcodes; what the decoder marks as an ordered memory access and what
 * lint records as an access is MEMORY (TENSOR for the matrix loads and
 * stores); and hand-checked rows.
 */
#include "check.h"
#include "ptx_int.h"

#include <stdio.h>
#include <string.h>

static void test_every_opcode(void)
{
    unsigned per[WMI_FAM_COUNT] = {0};
    for (unsigned op = 0; op < OP_COUNT; op++) {
        CHECK(wmi_op_families[op] < WMI_FAM_COUNT);
        CHECK_EQ(wmi_op_family(op), wmi_op_families[op]);
        if (wmi_op_families[op] < WMI_FAM_COUNT)
            per[wmi_op_families[op]]++;
    }
    for (unsigned f = 0; f < WMI_FAM_COUNT; f++)
        CHECK(per[f] > 0);
    CHECK_EQ(per[WMI_FAM_ARITH] + per[WMI_FAM_MEMORY] + per[WMI_FAM_TENSOR] +
                 per[WMI_FAM_COLLECTIVE] + per[WMI_FAM_CONTROL],
             OP_COUNT);
}

static void test_rows(void)
{
    static const struct {
        wmi_op op;
        wmi_family fam;
    } rows[] = {
        {OP_LD, WMI_FAM_MEMORY},        {OP_ST, WMI_FAM_MEMORY},
        {OP_ATOM, WMI_FAM_MEMORY},      {OP_RED, WMI_FAM_MEMORY},
        {OP_CP_ASYNC, WMI_FAM_MEMORY},  {OP_TEX, WMI_FAM_MEMORY},
        {OP_SUST, WMI_FAM_MEMORY},      {OP_BAR, WMI_FAM_COLLECTIVE},
        {OP_SHFL, WMI_FAM_COLLECTIVE},  {OP_VOTE, WMI_FAM_COLLECTIVE},
        {OP_ELECT, WMI_FAM_COLLECTIVE}, {OP_MBAR, WMI_FAM_COLLECTIVE},
        {OP_BRA, WMI_FAM_CONTROL},      {OP_EXIT, WMI_FAM_CONTROL},
        {OP_CALL, WMI_FAM_CONTROL},     {OP_UNKNOWN, WMI_FAM_CONTROL},
        {OP_NOP, WMI_FAM_CONTROL},      {OP_ADD, WMI_FAM_ARITH},
        {OP_MOV, WMI_FAM_ARITH},        {OP_SETP, WMI_FAM_ARITH},
        {OP_CVTA, WMI_FAM_ARITH},       {OP_MAPA, WMI_FAM_ARITH},
        {OP_WGMMA, WMI_FAM_TENSOR},     {OP_MMA, WMI_FAM_TENSOR},
        {OP_LDMATRIX, WMI_FAM_TENSOR},  {OP_WMMA_LOAD, WMI_FAM_TENSOR},
        {OP_TMA, WMI_FAM_TENSOR},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (wmi_op_family(rows[i].op) != rows[i].fam)
            fprintf(stderr, "row %s\n", wmi_op_names[rows[i].op]);
        CHECK_EQ(wmi_op_family(rows[i].op), rows[i].fam);
    }
}

/* The decoder's marks: an ordered memory access (sync bits beyond a
   fence) and the texture and surface forms are MEMORY. */
static void test_decoded(void)
{
    static const char *const texts[] = {
        "ld.global.u32",           "ld.relaxed.gpu.global.u32",
        "ld.acquire.gpu.b32",      "st.release.gpu.global.u32",
        "st.volatile.shared.f32",  "atom.global.add.u32",
        "atom.shared.cas.b32",     "red.global.add.f32",
        "ldu.global.f32",          "tex.2d.v4.f32.f32",
        "suld.b.2d.b32.trap",      "sust.b.1d.b32.trap",
        "txq.width.b32",           "suq.width.b32",
        "tld4.r.2d.v4.f32.f32",    "add.s32",
        "bar.sync",                "bra.uni",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
        "fence.acq_rel.gpu",       "membar.gl",
    };
    unsigned marked = 0;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        wmi_insn in;
        memset(&in, 0, sizeof in);
        wmi_ptx_decode_opcode(texts[i], strlen(texts[i]), &in);
        CHECK(in.op != OP_UNKNOWN);
        int access = (in.sync & (WMI_SYNC_RMW | WMI_SYNC_STRONG)) != 0;
        if (access || wmi_ptx_is_tex(in.op)) {
            marked++;
            if (wmi_op_family(in.op) != WMI_FAM_MEMORY)
                fprintf(stderr, "decoded %s\n", texts[i]);
            CHECK_EQ(wmi_op_family(in.op), WMI_FAM_MEMORY);
        }
    }
    CHECK_EQ(marked, 13); /* seven ordered accesses, six texture forms */
}

/* Lint's records: every verdict's instruction is MEMORY, or TENSOR for
   ldmatrix and wmma's loads and stores. */
static void test_lint_records(void)
{
    static const char src[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 k_p)\n{\n"
        "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<2>;\n"
        "\t.shared .align 16 .b8 sm[4096];\n"
        "\tld.param.u64 %rd1, [k_p];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tmul.wide.u32 %rd3, %r1, 4;\n"
        "\tadd.s64 %rd2, %rd2, %rd3;\n"
        "\tld.global.u32 %r2, [%rd2];\n"
        "\tst.global.u32 [%rd2], %r2;\n"
        "\tatom.global.add.u32 %r3, [%rd2], 1;\n"
        "\tred.global.add.u32 [%rd2], 1;\n"
        "\tmov.u32 %r9, sm;\n"
        "\tshl.b32 %r4, %r1, 4;\n"
        "\tadd.s32 %r9, %r9, %r4;\n"
        "\tcp.async.cg.shared.global [%r9], [%rd2], 16;\n"
        "\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r5}, [%r9];\n"
        "\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
        "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], 16;\n"
        "\twmma.store.d.sync.aligned.row.m16n16k16.global.f16 "
        "[%rd1], {%r0, %r1, %r2, %r3}, 16;\n"
        "\tret;\n}\n";
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_status st = wm_ptx_parse(src, strlen(src), "t.ptx", &m, &d);
    if (st != WM_OK)
        fprintf(stderr, "parse: %s\n", d.msg);
    CHECK_EQ(st, WM_OK);
    if (st != WM_OK)
        return;
    wm_lint *l = NULL;
    CHECK_EQ(wm_lint_kernel(m, 0, NULL, NULL, &l), WM_OK);
    unsigned seen[OP_COUNT] = {0};
    for (size_t i = 0; l && i < wm_lint_count(l); i++) {
        const wm_lint_insn *v = wm_lint_at(l, i);
        CHECK(v->insn < m->ncode);
        if (v->insn >= m->ncode)
            continue;
        wmi_op op = (wmi_op)m->code[v->insn].op;
        seen[op]++;
        int matrix =
            op == OP_LDMATRIX || op == OP_WMMA_LOAD || op == OP_WMMA_STORE;
        CHECK_EQ(wmi_op_family(op),
                 matrix ? WMI_FAM_TENSOR : WMI_FAM_MEMORY);
    }
    /* each access above was recorded (cp.async twice: global, shared) */
    CHECK_EQ(seen[OP_LD], 1);
    CHECK_EQ(seen[OP_ST], 1);
    CHECK_EQ(seen[OP_ATOM], 1);
    CHECK_EQ(seen[OP_RED], 1);
    CHECK_EQ(seen[OP_CP_ASYNC], 2);
    CHECK_EQ(seen[OP_LDMATRIX], 1);
    CHECK_EQ(seen[OP_WMMA_LOAD], 1);
    CHECK_EQ(seen[OP_WMMA_STORE], 1);
    wm_lint_free(l);
    wm_ptx_free(m);
}

int main(void)
{
    test_every_opcode();
    test_rows();
    test_decoded();
    test_lint_records();
    return check_done("test_ops_family");
}
