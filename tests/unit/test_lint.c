/*
 * test_lint.c -- `warpmem lint` against the dynamic truth.
 *
 * For every example-kernel case (kernel_cases.h) the kernel is run by the
 * interpreter and linted with the same launch (block, grid and the scalar
 * arguments; pointers stay symbolic).  Wherever lint gives a number for an
 * instruction, the run must measure that same figure per request:
 *   - exact: every request of the run has that figure (min = max = lint);
 *   - varies: the run's mean per request lies within lint's min..worst.
 * Lint flags an instruction exactly when the run finds excessive sectors
 * or bank conflicts there, and it must not give a number for an
 * instruction the run never issued.  Then unit
 * checks of the affine domain (affine.h).  With WM_LINT_TABLE set in the
 * environment the agreement table of docs/lint.md is printed.
 */
#include "wm_int.h"

#include "affine.h"
#include "check.h"
#include "kernel_run.h"
#include "ptx_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The run's site for (insn, space, op), or 0. */
static int find_site(const wm_agg *g, size_t insn, wm_space sp, wm_op op,
                     wm_site *out)
{
    for (size_t i = 0; i < wm_agg_nsites(g); i++)
        if (wm_agg_site(g, i, out) && out->site == insn && out->space == sp &&
            out->op == op)
            return 1;
    return 0;
}

typedef struct tally {
    unsigned insns, exact, varies, data, other, agree, flagged;
} tally;

static void lint_case(const kernel_case *kc, const char *label, tally *all,
                      int table)
{
    kr_run r;
    if (!kr_run_case(kc, "sm_80", 1, &r)) {
        CHECK(r.st == WM_OK); /* the case runs */
        kr_free(&r);
        return;
    }
    wm_lint_param params[KR_MAX_ARGS];
    char names[KR_MAX_ARGS][24];
    wm_lint_opts o;
    memset(&o, 0, sizeof o);
    memcpy(o.block, kc->block, sizeof o.block);
    memcpy(o.grid, kc->grid, sizeof o.grid);
    o.params = params;
    for (size_t i = 0; i < kc->nargs; i++) {
        const char *s = kc->args[i].scalar;
        if (kc->args[i].is_buf || s[0] == 'f')
            continue;
        snprintf(names[i], sizeof names[i], "%zu", i);
        params[o.nparams].name = names[i];
        params[o.nparams].value = strtoll(strchr(s, '=') + 1, NULL, 0);
        o.nparams++;
    }
    wm_arch arch;
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    wm_lint *l = NULL;
    wm_status st = wm_lint_kernel(r.m, (size_t)r.kernel, &arch, &o, &l);
    CHECK_EQ(st, WM_OK);
    tally t = {0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; l && i < wm_lint_count(l); i++) {
        const wm_lint_insn *v = wm_lint_at(l, i);
        wm_site s;
        int have = find_site(r.agg, v->insn, v->space, v->op, &s) &&
                   s.stats.requests > 0;
        t.insns++;
        if (v->kind == WM_LINT_EXACT) {
            t.exact++;
            CHECK(have);
            int ok = have && s.per_request.min == v->min &&
                     s.per_request.max == v->min;
            if (!ok)
                fprintf(
                    stderr, "%s: insn %zu (PTX line %u): lint %u, run %u..%u\n",
                    kc->name, v->insn, r.m->code[v->insn].line, v->min,
                    have ? s.per_request.min : 0, have ? s.per_request.max : 0);
            CHECK(ok);
            t.agree += (unsigned)ok;
        } else if (v->kind == WM_LINT_VARIES) {
            t.varies++;
            CHECK(have);
            int ok = have && s.per_request.mean >= v->min - 1e-9 &&
                     s.per_request.mean <= v->worst + 1e-9;
            if (!ok)
                fprintf(stderr, "%s: insn %zu: lint %u..%u, run mean %.3f\n",
                        kc->name, v->insn, v->min, v->worst,
                        have ? s.per_request.mean : 0.0);
            CHECK(ok);
            t.agree += (unsigned)ok;
        } else if (v->kind == WM_LINT_DATA) {
            t.data++;
        } else {
            t.other++;
        }
        /* lint flags exactly what the run finds wasteful: excessive
           sectors or bank conflicts */
        if (have && (v->kind == WM_LINT_EXACT || v->kind == WM_LINT_VARIES)) {
            int waste = v->space == WM_SPACE_SHARED
                            ? s.stats.conflicts > 0
                            : s.stats.excessive_sectors > 0;
            int flagged = v->severity != WM_SEV_NONE;
            if (waste != flagged)
                fprintf(stderr, "%s: insn %zu: run %s, lint %s\n", kc->name,
                        v->insn, waste ? "wasteful" : "clean",
                        wm_severity_name(v->severity));
            CHECK_EQ(waste, flagged);
            t.flagged += (unsigned)flagged;
        }
    }
    if (table)
        printf("| %s | %s | %u | %u | %u | %u | %u | %u/%u | %u |\n", label,
               kc->kernel, t.insns, t.exact, t.varies, t.data, t.other, t.agree,
               t.exact + t.varies, t.flagged);
    all->insns += t.insns;
    all->exact += t.exact;
    all->varies += t.varies;
    all->data += t.data;
    all->other += t.other;
    all->agree += t.agree;
    all->flagged += t.flagged;
    wm_lint_free(l);
    kr_free(&r);
}

/* ---- tests/ptx/basic.ptx: its kernels with launches like test_ptx.c's -- */

#define B(type, count, init)                                                   \
    { 1, {type, count, init}, NULL }
#define S(spec)                                                                \
    { 0, {NULL, 0, NULL}, spec }
#define NA(a) (sizeof(a) / sizeof((a)[0]))
#define BASIC "tests/ptx/basic.ptx"

static const kc_arg a_copy[] = {B("f32", 4096, "zeros"),
                                B("f32", 4096, "rand=1"), S("i32=4096")};
static const kc_arg a_tr[] = {B("f32", 4096, "zeros"), B("f32", 4096, "rand=2"),
                              S("i32=64")};
static const kc_arg a_strided[] = {B("f32", 4096, "zeros"),
                                   B("f32", 4096, "rand=3"), S("i32=256"),
                                   S("i32=3")};
static const kc_arg a_copy4[] = {B("f32", 4096, "zeros"),
                                 B("f32", 4096, "rand=4"), S("i32=1024")};
static const kc_arg a_reduce[] = {B("f32", 1, "zeros"),
                                  B("f32", 5000, "rand=5"), S("i32=5000")};
static const kc_arg a_sgemm[] = {S("i32=48"),
                                 S("f32=1.5"),
                                 B("f32", 2304, "rand=6"),
                                 B("f32", 2304, "rand=7"),
                                 S("f32=0.5"),
                                 B("f32", 2304, "rand=8")};
static const kc_arg a_stencil[] = {B("f32", 1536, "zeros"),
                                   B("f32", 1536, "rand=9"), S("i32=48"),
                                   S("i32=32")};
static const kc_arg a_generic[] = {B("f32", 128, "zeros"),
                                   B("f32", 128, "rand=10")};
static const kc_arg a_dyn[] = {B("f32", 200, "zeros"), B("f32", 200, "rand=11"),
                               S("i32=200")};
static const kc_arg a_cp[] = {B("f32", 2048, "zeros"),
                              B("f32", 2048, "rand=12")};

static const kernel_case basic_cases[] = {
    {"copy",
     BASIC,
     "copy",
     {16, 1, 1},
     {256, 1, 1},
     0,
     a_copy,
     NA(a_copy),
     NULL,
     NULL,
     0},
    {"transpose_naive",
     BASIC,
     "transpose_naive",
     {2, 2, 1},
     {32, 8, 1},
     0,
     a_tr,
     NA(a_tr),
     NULL,
     NULL,
     0},
    {"transpose_pad",
     BASIC,
     "transpose_pad",
     {2, 2, 1},
     {32, 8, 1},
     0,
     a_tr,
     NA(a_tr),
     NULL,
     NULL,
     0},
    {"transpose_nopad",
     BASIC,
     "transpose_nopad",
     {2, 2, 1},
     {32, 8, 1},
     0,
     a_tr,
     NA(a_tr),
     NULL,
     NULL,
     0},
    {"strided",
     BASIC,
     "strided",
     {1, 1, 1},
     {256, 1, 1},
     0,
     a_strided,
     NA(a_strided),
     NULL,
     NULL,
     0},
    {"copy4",
     BASIC,
     "copy4",
     {2, 1, 1},
     {64, 1, 1},
     0,
     a_copy4,
     NA(a_copy4),
     NULL,
     NULL,
     0},
    {"reduce",
     BASIC,
     "reduce",
     {7, 1, 1},
     {256, 1, 1},
     0,
     a_reduce,
     NA(a_reduce),
     NULL,
     NULL,
     0},
    {"sgemm",
     BASIC,
     "sgemm",
     {3, 3, 1},
     {16, 16, 1},
     0,
     a_sgemm,
     NA(a_sgemm),
     NULL,
     NULL,
     0},
    {"stencil",
     BASIC,
     "stencil",
     {3, 2, 1},
     {16, 16, 1},
     0,
     a_stencil,
     NA(a_stencil),
     NULL,
     NULL,
     0},
    {"generic",
     BASIC,
     "generic",
     {1, 1, 1},
     {128, 1, 1},
     0,
     a_generic,
     NA(a_generic),
     NULL,
     NULL,
     0},
    {"dynsmem",
     BASIC,
     "dynsmem",
     {2, 1, 1},
     {128, 1, 1},
     512,
     a_dyn,
     NA(a_dyn),
     NULL,
     NULL,
     0},
    {"cpasync_copy",
     BASIC,
     "cpasync_copy",
     {2, 1, 1},
     {256, 1, 1},
     0,
     a_cp,
     NA(a_cp),
     NULL,
     NULL,
     0},
};

/* ---- tests/ptx/tensor.ptx: one warp, as test_ptx_tensor.c runs them ---- */

#define TENSOR "tests/ptx/tensor.ptx"
static const kc_arg a_ldsm[] = {B("u16", 512, "iota"), B("u32", 128, "zeros")};
static const kc_arg a_mma[] = {B("u32", 128, "iota"), B("u32", 64, "iota"),
                               B("f32", 128, "rand=13"),
                               B("f32", 128, "zeros")};
#define T1(k, a)                                                               \
    { k, TENSOR, k, {1, 1, 1}, {32, 1, 1}, 0, a, NA(a), NULL, NULL, 0 }
static const kernel_case tensor_cases[] = {
    T1("mma_f16_k16", a_mma),      T1("mma_bf16_k16", a_mma),
    T1("mma_f16_k8", a_mma),       T1("mma_tf32_k8", a_mma),
    T1("ldsm_x1", a_ldsm),         T1("ldsm_x1_trans", a_ldsm),
    T1("ldsm_x2", a_ldsm),         T1("ldsm_x2_trans", a_ldsm),
    T1("ldsm_x4", a_ldsm),         T1("ldsm_x4_trans", a_ldsm),
    T1("ldsm_x4_pitch32", a_ldsm),
};

/* ---- tests/corpus/wmma_gemm.cu: nvcuda::wmma tiles (the PAD = 8 build) -- */

#define WMMA "tests/corpus/ptx/wmma_gemm_sm_80.ptx"
static const kc_arg a_wmma_h[] = {B("f32", 4096, "zeros"),
                                  B("f16", 2048, "rand=1"),
                                  B("f16", 2048, "rand=2"), S("i32=64"),
                                  S("i32=64"), S("i32=32")};
static const kc_arg a_wmma_i8[] = {B("i32", 1024, "zeros"),
                                   B("i32", 1024, "rand=3"),
                                   B("i8", 512, "rand=4"),
                                   B("i8", 2048, "rand=5"), S("i32=16"),
                                   S("i32=64"), S("i32=32")};
static const kernel_case wmma_cases[] = {
    {"wmma_gemm", WMMA, "_Z9wmma_gemmPfPK6__halfS2_iii", {2, 2, 1},
     {128, 1, 1}, 0, a_wmma_h, NA(a_wmma_h), NULL, NULL, 0},
    {"wmma_i8", WMMA, "_Z7wmma_i8PiPKiPKaS3_iii", {2, 2, 1}, {32, 1, 1}, 0,
     a_wmma_i8, NA(a_wmma_i8), NULL, NULL, 0},
};

/* ---- the analysis on small hand-written kernels -------------------------- */

static const char synth_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    /* narrow: lanes with tid.x < 16 store 4 bytes: 2 sectors */
    ".visible .entry narrow(.param .u64 p_out)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [p_out];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.ge.u32 %p1, %r1, 16;\n"
    "\t@%p1 bra DONE;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r1;\n"
    "DONE:\n\tret;\n}\n"
    /* gather: out[in[tid]] */
    ".visible .entry gather(.param .u64 p_out, .param .u64 p_in)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<10>;\n"
    "\tld.param.u64 %rd1, [p_out];\n\tld.param.u64 %rd2, [p_in];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4];\n"
    "\tmul.wide.u32 %rd5, %r2, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
    "\tst.global.u32 [%rd6], %r1;\n\tret;\n}\n"
    /* geometric: r *= 3 around a loop is not an induction variable; the
       counter i += 1 is, and out[i * 32 + tid] stays exact */
    ".visible .entry geometric(.param .u64 p_out)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<10>;\n"
    "\tld.param.u64 %rd1, [p_out];\n\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, 1;\n\tmov.u32 %r3, 0;\n"
    "LOOP:\n\tmul.lo.s32 %r2, %r2, 3;\n"
    "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r1;\n"
    "\tshl.b32 %r4, %r3, 5;\n\tadd.s32 %r5, %r4, %r1;\n"
    "\tmul.wide.u32 %rd4, %r5, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
    "\tst.global.u32 [%rd5], %r1;\n"
    "\tadd.s32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, 4;\n"
    "\t@%p1 bra LOOP;\n\tret;\n}\n"
    /* nobody: the guard tid.x >= 4096 holds for no lane */
    ".visible .entry nobody(.param .u64 p_out)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [p_out];\n\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.lt.u32 %p1, %r1, 4096;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n\t@!%p1 st.global.u32 [%rd4], %r1;\n"
    "\tret;\n}\n"
    /* wmma_pad0: unpadded f16 tiles, As 16 halves a row (32 B: rows r and
       r + 4 of a block share banks, 2 wavefronts), Bs 32 halves (64 B:
       rows 0 2 4 6 share banks, 4), and D stored column-major with a
       stride of 16 floats (each request: 4 columns of 8 rows, 32 B each,
       4 sectors); the stride of B in a register */
    ".visible .entry wmma_pad0(.param .u64 p_d)\n{\n"
    "\t.shared .align 32 .b8 tile[2048];\n"
    "\t.reg .b32 %r<24>;\n\t.reg .f32 %f<9>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [p_d];\n\tmov.u32 %r1, tile;\n"
    "\twmma.load.a.sync.aligned.row.m16n16k16.shared.f16 "
    "{%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, [%r1], 16;\n"
    "\tmov.u32 %r20, 32;\n"
    "\twmma.load.b.sync.aligned.row.m16n16k16.shared.f16 "
    "{%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, [%r1+1024], %r20;\n"
    "\twmma.store.d.sync.aligned.col.m16n16k16.global.f32 "
    "[%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;\n"
    "\tret;\n}\n";

static const wm_lint_insn *synth(wm_ptx_module *m, const char *kernel, size_t i,
                                 wm_lint **keep)
{
    long k = wm_ptx_find_kernel(m, kernel);
    CHECK(k >= 0);
    wm_lint_opts o;
    memset(&o, 0, sizeof o);
    o.block[0] = 256;
    *keep = NULL;
    if (k < 0 || wm_lint_kernel(m, (size_t)k, NULL, &o, keep) != WM_OK)
        return NULL;
    return wm_lint_at(*keep, i);
}

static void test_synthetic(void)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_status st =
        wm_ptx_parse(synth_ptx, sizeof synth_ptx - 1, "synth.ptx", &m, &d);
    CHECK_EQ(st, WM_OK);
    if (st != WM_OK) {
        wm_diag_print(stderr, &d, "synth.ptx", synth_ptx, sizeof synth_ptx);
        return;
    }
    wm_lint *l;
    const wm_lint_insn *v = synth(m, "narrow", 0, &l);
    CHECK(v && v->kind == WM_LINT_EXACT && v->access.mask == 0xffff &&
          v->min == 2 && v->warps == 1 && v->severity == WM_SEV_NONE);
    CHECK(v && strcmp(v->stride, "4") == 0);
    wm_lint_free(l);
    v = synth(m, "gather", 0, &l); /* the load of the index: exact */
    CHECK(v && v->kind == WM_LINT_EXACT && v->min == 4);
    v = wm_lint_at(l, 1);
    CHECK(v && v->kind == WM_LINT_DATA &&
          strstr(v->reason, "a value loaded from memory") &&
          strstr(v->reason, "ld.global.u32 %r2, [%rd4]"));
    wm_lint_free(l);
    v = synth(m, "geometric", 0, &l);
    CHECK(v && v->kind == WM_LINT_DATA &&
          strstr(v->reason, "not an induction variable"));
    v = wm_lint_at(l, 1);
    CHECK(v && v->kind == WM_LINT_EXACT && v->min == 4 &&
          strstr(v->form, "128*iter@") != NULL);
    wm_lint_free(l);
    v = synth(m, "nobody", 0, &l);
    CHECK(v && v->kind == WM_LINT_INACTIVE);
    wm_lint_free(l);
    /* wmma: every request of the fragment counted by its layout */
    v = synth(m, "wmma_pad0", 0, &l);
    CHECK(v && v->kind == WM_LINT_EXACT && v->space == WM_SPACE_SHARED &&
          v->size == 4 && v->min == 2 && v->per_request == 2 &&
          v->ideal == 1 && v->severity == WM_SEV_HIGH);
    v = wm_lint_at(l, 1);
    CHECK(v && v->kind == WM_LINT_EXACT && v->min == 4 && v->max == 4);
    v = wm_lint_at(l, 2);
    CHECK(v && v->kind == WM_LINT_EXACT && v->space == WM_SPACE_GLOBAL &&
          v->op == WM_OP_ST && v->min == 4 && v->per_request == 4);
    wm_lint_free(l);
    CHECK(wm_lint_kernel(m, 99, NULL, NULL, &l) == WM_ERR_ARG);
    wm_ptx_free(m);
}

/* ---- the affine domain --------------------------------------------------- */

static int64_t leaf_tid(void *ud, const wmi_avar *v)
{
    (void)v;
    return *(const int64_t *)ud;
}

static void test_affine(void)
{
    wmi_actx x;
    wmi_actx_init(&x);
    wmi_aff tid = wmi_aff_sym(&x, WMI_AV_SREG, SR_TID_X, 0, 0, 0);
    wmi_aff cta = wmi_aff_sym(&x, WMI_AV_SREG, SR_CTAID_X, 0, 1, 0);
    wmi_aff k4 = wmi_aff_const(4), k31 = wmi_aff_const(31);
    /* 4 * (cta * 32 + tid): linear, one product-free form */
    wmi_aff k32 = wmi_aff_const(32);
    wmi_aff a = wmi_aff_mul(&x, &cta, &k32);
    a = wmi_aff_add(&a, &tid);
    a = wmi_aff_mul(&x, &a, &k4);
    CHECK(!a.top && a.nterms == 2 && a.c0 == 0);
    CHECK_EQ(wmi_aff_coef(&a, wmi_aff_single(&tid)), 4);
    CHECK_EQ(wmi_aff_coef(&a, wmi_aff_single(&cta)), 128);
    /* shl by 2 is the same form as * 4 */
    wmi_aff k2 = wmi_aff_const(2);
    wmi_aff b = wmi_aff_op(&x, WMI_AOP_SHL, 32, 0, &tid, &k2, 0);
    CHECK(wmi_aff_eq(&b, &(wmi_aff){0}) == 0);
    wmi_aff c = wmi_aff_scale(&tid, 4);
    CHECK(wmi_aff_eq(&b, &c));
    /* (128*cta + 4*tid) >> 2 = 32*cta + tid exactly */
    wmi_aff d = wmi_aff_op(&x, WMI_AOP_SHR, 32, 0, &a, &k2, 0);
    CHECK_EQ(wmi_aff_coef(&d, wmi_aff_single(&tid)), 1);
    /* (32*cta + 5) & 31 = 5; tid & 31 stays an atom, hash-consed */
    wmi_aff e = wmi_aff_mul(&x, &cta, &k32);
    wmi_aff k5 = wmi_aff_const(5);
    e = wmi_aff_add(&e, &k5);
    e = wmi_aff_op(&x, WMI_AOP_AND, 32, 0, &e, &k31, 0);
    CHECK(!e.top && e.nterms == 0 && e.c0 == 5);
    wmi_aff f1 = wmi_aff_op(&x, WMI_AOP_AND, 32, 0, &tid, &k31, 0);
    wmi_aff f2 = wmi_aff_op(&x, WMI_AOP_AND, 32, 0, &tid, &k31, 0);
    CHECK(wmi_aff_eq(&f1, &f2) && wmi_aff_single(&f1) != WMI_NOREG);
    CHECK(!wmi_aff_uniform(&x, &f1) && wmi_aff_uniform(&x, &cta));
    /* evaluation: (tid & 31) ^ 3 for tid = 45 is 13 ^ 3 = 14 */
    wmi_aff k3 = wmi_aff_const(3);
    wmi_aff g = wmi_aff_op(&x, WMI_AOP_XOR, 32, 0, &f1, &k3, 0);
    int64_t val[64], tv = 45;
    uint32_t stamp[64] = {0};
    CHECK(x.nvars < 64);
    wmi_aenv env = {leaf_tid, &tv, val, stamp, 1};
    CHECK_EQ(wmi_aff_eval(&x, &g, &env), 14);
    /* top propagates; too many terms give top */
    wmi_aff top = wmi_aff_top(WMI_TOP_LOAD, 7);
    wmi_aff h = wmi_aff_add(&a, &top);
    CHECK(h.top && h.why == WMI_TOP_LOAD && h.at == 7);
    wmi_aff big = wmi_aff_const(0);
    for (uint32_t p = 0; p < WMI_AFF_TERMS + 1; p++) {
        wmi_aff s = wmi_aff_sym(&x, WMI_AV_PARAM, p, 0, 1, 0);
        big = wmi_aff_add(&big, &s);
    }
    CHECK(big.top && big.why == WMI_TOP_TERMS);
    /* select folds on constant conditions; a == b gives a */
    wmi_aff s1 = wmi_aff_select(&x, CMP_LT, 32, 1, &k2, &k3, &tid, &cta, 0);
    CHECK(wmi_aff_eq(&s1, &tid));
    wmi_aff s2 = wmi_aff_select(&x, CMP_LT, 32, 1, &tid, &k3, &cta, &cta, 0);
    CHECK(wmi_aff_eq(&s2, &cta));
    char buf[128];
    wmi_aff_print(&x, &k31, NULL, NULL, buf, sizeof buf);
    CHECK(strcmp(buf, "31") == 0);
    wmi_actx_free(&x);
}

/* Dependent chains: products and atoms nest up to WMI_AVAR_MAX_HEIGHT,
   are evaluated exactly there, and are top past it (100 000 levels would
   recurse off the stack in evaluation and in the lint's marking). */
static void test_affine_height(void)
{
    wmi_actx x;
    wmi_actx_init(&x);
    wmi_aff tid = wmi_aff_sym(&x, WMI_AV_SREG, SR_TID_X, 0, 0, 0);
    wmi_aff k7 = wmi_aff_const(7);
    /* p = tid^(n+1), one product term; q = (((tid ^ 7) & tid) ^ 7) ... */
    wmi_aff p = tid, q = tid;
    int64_t tv = 3, pv = 3, qv = 3;
    unsigned n = 0;
    for (; n < 1000; n++) {
        wmi_aff np = wmi_aff_mul(&x, &p, &tid);
        wmi_aff nq = wmi_aff_op(&x, n % 2 ? WMI_AOP_AND : WMI_AOP_XOR, 32, 0,
                                &q, n % 2 ? &tid : &k7, 0);
        CHECK(np.top == nq.top);
        if (np.top) {
            CHECK(np.why == WMI_TOP_TERMS && nq.why == WMI_TOP_TERMS);
            break;
        }
        p = np;
        q = nq;
        pv = (int64_t)((uint64_t)pv * 3); /* wraps as the domain does */
        qv = n % 2 ? qv & tv : qv ^ 7;
    }
    /* tid is height 0: levels 1..WMI_AVAR_MAX_HEIGHT are kept */
    CHECK_EQ(n, WMI_AVAR_MAX_HEIGHT);
    int64_t *val = calloc(x.nvars, sizeof *val);
    uint32_t *stamp = calloc(x.nvars, sizeof *stamp);
    CHECK(val && stamp);
    if (val && stamp) {
        wmi_aenv env = {leaf_tid, &tv, val, stamp, 1};
        CHECK_EQ(wmi_aff_eval(&x, &p, &env), pv);
        CHECK_EQ(wmi_aff_eval(&x, &q, &env), qv);
    }
    free(val);
    free(stamp);
    /* a chain far past the limit stays top and allocates nothing more */
    size_t nv = x.nvars;
    for (unsigned i = 0; i < 100000; i++)
        q = wmi_aff_op(&x, WMI_AOP_MIN, 32, 1, &q, &tid, 0);
    CHECK(q.top && q.why == WMI_TOP_TERMS);
    CHECK(x.nvars <= nv + WMI_AVAR_MAX_HEIGHT);
    wmi_actx_free(&x);
}

/* A kernel whose body did not parse has no code: WM_ERR_PARSE, and the
   module's sound kernel still lints. */
static void test_broken_kernel(void)
{
    size_t n = 0;
    char *src = wm_read_file(WM_SOURCE_DIR "/tests/limits/broken_kernel.ptx",
                             &n);
    CHECK(src != NULL);
    if (!src)
        return;
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK(wm_ptx_parse(src, n, "broken_kernel.ptx", &m, &d) == WM_OK);
    wm_lint *l = NULL;
    if (m) {
        CHECK(wm_ptx_kernel_error(m, 0, &d));
        CHECK(wm_lint_kernel(m, 0, NULL, NULL, &l) == WM_ERR_PARSE && !l);
        CHECK(wm_lint_kernel(m, 1, NULL, NULL, &l) == WM_OK && l);
        CHECK(l && wm_lint_count(l) == 2);
        wm_lint_free(l);
    }
    wm_ptx_free(m);
    free(src);
}

int main(void)
{
    int table = getenv("WM_LINT_TABLE") != NULL;
    tally all = {0, 0, 0, 0, 0, 0, 0};
    if (table)
        printf("| case | kernel | memory insns | exact | varies | "
               "data-dependent | other | agree with run | flagged |\n"
               "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nkernel_cases; i++)
        lint_case(&kernel_cases[i], kernel_cases[i].name, &all, table);
    for (size_t i = 0; i < NA(basic_cases); i++) {
        char label[64];
        snprintf(label, sizeof label, "basic.ptx %s", basic_cases[i].name);
        lint_case(&basic_cases[i], label, &all, table);
    }
    for (size_t i = 0; i < NA(tensor_cases); i++) {
        char label[64];
        snprintf(label, sizeof label, "tensor.ptx %s", tensor_cases[i].name);
        lint_case(&tensor_cases[i], label, &all, table);
    }
    for (size_t i = 0; i < NA(wmma_cases); i++) {
        char label[64];
        snprintf(label, sizeof label, "wmma_gemm.cu %s", wmma_cases[i].name);
        lint_case(&wmma_cases[i], label, &all, table);
    }
    /* nvcc's other outputs of the same sources (no line info, -G, -O0,
       other targets): the cases' launches on those PTX files.  The -G and
       -O0 reduce call a .func the interpreter does not run, so there is no
       dynamic truth for them. */
    static const char *const variants[] = {
        "copy_nolineinfo_sm_75", "histogram_nolineinfo_sm_89", "sgemm_sm_86",
        "transpose_G_sm_80", "transpose_O0_sm_80"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (size_t i = 0; i < nkernel_cases; i++) {
            const kernel_case *kc = &kernel_cases[i];
            const char *base = strrchr(kc->ptx, '/') + 1;
            size_t n = strcspn(variants[v], "_");
            if (strncmp(kc->ptx, "examples/kernels/sm_80/", 23) != 0 ||
                strncmp(base, variants[v], n) != 0 || base[n] != '.')
                continue;
            char path[128], label[128];
            snprintf(path, sizeof path, "tests/ptx/nvcc/%s.ptx", variants[v]);
            snprintf(label, sizeof label, "%s (%s)", kc->name, variants[v]);
            kernel_case c = *kc;
            c.ptx = path;
            lint_case(&c, label, &all, table);
        }
    if (table)
        printf("| **all** | | %u | %u | %u | %u | %u | %u/%u | %u |\n",
               all.insns, all.exact, all.varies, all.data, all.other, all.agree,
               all.exact + all.varies, all.flagged);
    CHECK(all.exact > 0);
    CHECK_EQ(all.agree, all.exact + all.varies);
    test_affine();
    test_affine_height();
    test_broken_kernel();
    test_synthetic();
    return check_done("test_lint");
}
