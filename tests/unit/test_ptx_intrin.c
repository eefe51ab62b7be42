/*
 * test_ptx_intrin.c -- integer instructions behind CUDA's intrinsics:
 * sm_90's packed halfword arithmetic (add, sub, min and max on .u16x2 and
 * .s16x2, min/max .relu on .s16x2: __vadd2 and its kin), each half on its
 * own, sad (__usad, __sad: c + |a - b| at every width, signed or not) and
 * dp2a (__dp2a_lo, __dp2a_hi, every signedness), against a CPU reference
 * on random words and the edges, and so are vabsdiff2/vabsdiff4 (the one
 * SIMD video instruction nvcc still emits: __vabsdiffu4, __vsadu4 ...)
 * with .sat and .add; fns (__fns) on the ISA's examples and
 * random masks, bases and offsets; a .sat form of
 * the halfword add, which PTX does not have, is refused when run; bmsk
 * and szext without their mode or type, and isspacep without its space,
 * are refused at parse time, ld/st .b128 when run.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdio.h>
#include <string.h>

static const char *const ops[] = {
    "add.u16x2", "add.s16x2", "sub.u16x2",       "sub.s16x2",
    "min.u16x2", "max.u16x2", "min.s16x2",       "max.s16x2",
    "min.relu.s16x2", "max.relu.s16x2", "sad.u32", "sad.s32", "sad.u16",
    "sad.s16", "dp2a.lo.u32.u32", "dp2a.hi.s32.s32", "dp2a.lo.s32.u32",
    "dp2a.hi.u32.s32", "vabsdiff4.u32.u32.u32", "vabsdiff4.u32.u32.u32.add",
    "vabsdiff2.u32.u32.u32", "vabsdiff2.s32.s32.s32.add",
    "vabsdiff4.s32.s32.s32.sat", "vabsdiff2.u32.s32.u32.sat"};

/* The CPU's vabsdiffN.d.a.b{.sat,.add} d, a, b, c (default selectors and
   mask): element by element, |a_i - b_i| (a_i, b_i signed by their
   types), .sat clamping to d's element range, packed or summed onto c. */
static uint32_t ref_vabsdiff(unsigned k, uint32_t a, uint32_t b, uint32_t c)
{
    const char *o = ops[k];
    int bits = o[8] == '4' ? 8 : 16, n = 32 / bits;
    int sd = o[10] == 's', sa = o[14] == 's', sb = o[18] == 's';
    int sat = strstr(o, ".sat") != NULL, add = strstr(o, ".add") != NULL;
    int64_t sum = (int32_t)c;
    uint32_t packed = 0;
    for (int i = 0; i < n; i++) {
        int64_t x = a >> (bits * i) & ((1u << bits) - 1);
        int64_t y = b >> (bits * i) & ((1u << bits) - 1);
        if (sa && x >= 1 << (bits - 1))
            x -= 1 << bits;
        if (sb && y >= 1 << (bits - 1))
            y -= 1 << bits;
        int64_t t = x > y ? x - y : y - x;
        int64_t top = sd ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
        if (sat && t > top)
            t = top;
        sum += t;
        packed |= (uint32_t)(t & ((1 << bits) - 1)) << (bits * i);
    }
    return add ? (uint32_t)sum : packed;
}

/* The CPU's dp2a: c + a.h0 * b.byte[j] + a.h1 * b.byte[j + 1], j = 0 (.lo)
   or 2 (.hi), halfwords and bytes signed by their own type. */
static uint32_t ref_dp2a(unsigned k, uint32_t a, uint32_t b, uint32_t c)
{
    int hi = ops[k][5] == 'h', sa = ops[k][8] == 's', sb = ops[k][12] == 's';
    int64_t acc = (int32_t)c;
    for (int i = 0; i < 2; i++) {
        uint32_t h = a >> (16 * i) & 0xffff, y = b >> (8 * (2 * hi + i)) & 0xff;
        acc += (sa ? (int64_t)(int16_t)h : (int64_t)h) *
               (sb ? (int64_t)(int8_t)y : (int64_t)y);
    }
    return (uint32_t)acc;
}

/* The CPU's sad of a, b and c at bits (16 or 32), signed or not. */
static uint32_t ref_sad(unsigned k, uint32_t a, uint32_t b, uint32_t c)
{
    int sg = ops[k][4] == 's', bits = strstr(ops[k], "16") ? 16 : 32;
    uint32_t mask = bits == 16 ? 0xffffu : 0xffffffffu;
    int64_t x = sg ? (bits == 16 ? (int16_t)a : (int32_t)a) : (int64_t)(a & mask);
    int64_t y = sg ? (bits == 16 ? (int16_t)b : (int32_t)b) : (int64_t)(b & mask);
    uint32_t r = (uint32_t)((c & mask) + (uint64_t)(x < y ? y - x : x - y)) & mask;
    return sg && bits == 16 ? (uint32_t)(int32_t)(int16_t)r : r;
}

/* The CPU's halfword of ops[k]. */
static uint32_t ref(unsigned k, uint32_t a, uint32_t b)
{
    int sg = strstr(ops[k], "s16") != NULL, relu = strstr(ops[k], "relu") != NULL;
    int32_t x = sg ? (int16_t)a : (int32_t)(a & 0xffff);
    int32_t y = sg ? (int16_t)b : (int32_t)(b & 0xffff);
    int32_t r = ops[k][0] == 'a' ? x + y
                : ops[k][0] == 's' ? x - y
                : (ops[k][1] == 'a') == (x > y) ? x : y;
    return (uint32_t)(relu && r < 0 ? 0 : r) & 0xffff;
}

static void one(unsigned k)
{
    char src[1024];
    /* sad takes c = b; the 16-bit ones on 16-bit registers */
    int sad = ops[k][0] == 's' && ops[k][1] == 'a';
    int dp2a = ops[k][0] == 'd', vabs = ops[k][0] == 'v';
    int w16 = sad && strstr(ops[k], "16") != NULL;
    const char *sg = ops[k][4] == 's' ? "s" : "u";
    char insn[192];
    if (w16)
        snprintf(insn, sizeof insn,
                 "cvt.u16.u32 %%rs1, %%r2; cvt.u16.u32 %%rs2, %%r3; "
                 "%s %%rs1, %%rs1, %%rs2, %%rs2; cvt.%s32.%s16 %%r2, %%rs1",
                 ops[k], sg, sg);
    else
        snprintf(insn, sizeof insn,
                 sad || dp2a || vabs ? "%s %%r2, %%r2, %%r3, %%r3"
                             : "%s %%r2, %%r2, %%r3",
                 ops[k]);
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 o, .param .u64 a, .param .u64 b)\n{\n"
             "  .reg .b16 %%rs<3>; .reg .b32 %%r<4>; .reg .b64 %%rd<8>;\n"
             "  ld.param.u64 %%rd1, [o]; ld.param.u64 %%rd2, [a];\n"
             "  ld.param.u64 %%rd3, [b];\n"
             "  mov.u32 %%r1, %%tid.x; mul.wide.u32 %%rd4, %%r1, 4;\n"
             "  add.s64 %%rd5, %%rd2, %%rd4; add.s64 %%rd6, %%rd3, %%rd4;\n"
             "  ld.global.u32 %%r2, [%%rd5]; ld.global.u32 %%r3, [%%rd6];\n"
             "  %s;\n"
             "  add.s64 %%rd7, %%rd1, %%rd4; st.global.u32 [%%rd7], %%r2;\n"
             "  ret;\n}\n",
             insn);
    wm_ptx_module *m = pi_parse(src, "intrin.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t a[64], b[64], o[64];
    uint64_t s = 99 + k;
    for (int i = 0; i < 64; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (uint32_t)(s >> 32);
        b[i] = (uint32_t)s;
    }
    a[0] = 0x7fff8000; /* INT16_MAX, INT16_MIN; 0x7fff + 1 wraps */
    b[0] = 0x00010001;
    a[1] = 0xffff0000;
    b[1] = 0x0001ffff;
    pi_launch l = pi_dims(1, 64);
    pi_buf(&l, o, sizeof o);
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, b, sizeof b);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "k", &l, &ft), WM_OK);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += o[i] != (vabs   ? ref_vabsdiff(k, a[i], b[i], b[i])
                        : dp2a ? ref_dp2a(k, a[i], b[i], b[i])
                        : sad ? ref_sad(k, a[i], b[i], b[i])
                            : ref(k, a[i], b[i]) |
                                  ref(k, a[i] >> 16, b[i] >> 16) << 16);
    CHECK_EQ(bad, 0);
    if (bad)
        fprintf(stderr, "  %s\n", ops[k]);
    wm_ptx_free(m);
}

/* fns by counting: the set bits from base upward (off > 0) or downward
   (off < 0), the |off|-th of them. */
static uint32_t ref_fns(uint32_t mask, uint32_t base, int32_t off)
{
    if (off == 0)
        return mask >> base & 1 ? base : 0xffffffffu;
    int32_t n = 0, want = off > 0 ? off : -off;
    for (int32_t pos = 0; pos < 32; pos++) {
        int32_t p = off > 0 ? (int32_t)base + pos : (int32_t)base - pos;
        if (p < 0 || p > 31)
            break;
        if ((mask >> p & 1) && ++n == want)
            return (uint32_t)p;
    }
    return 0xffffffffu;
}

/* fns d, mask, base, offset (__fns) on the ISA's four examples, then on
   random masks, bases 0..31 and offsets -33..33. */
static void test_fns(void)
{
    enum { N = 256 };
    wm_ptx_module *m = pi_parse(
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 o, .param .u64 a)\n{\n"
        "  .reg .b32 %r<6>; .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [o]; ld.param.u64 %rd2, [a];\n"
        "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 12;\n"
        "  add.s64 %rd4, %rd2, %rd3;\n"
        "  ld.global.u32 %r2, [%rd4]; ld.global.u32 %r3, [%rd4+4];\n"
        "  ld.global.u32 %r4, [%rd4+8];\n"
        "  fns.b32 %r5, %r2, %r3, %r4;\n"
        "  mul.wide.u32 %rd3, %r1, 4; add.s64 %rd5, %rd1, %rd3;\n"
        "  st.global.u32 [%rd5], %r5;\n  ret;\n}\n", "fns.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static uint32_t in[3 * N], out[N];
    static const uint32_t isa[4][4] = {/* mask, base, offset, d */
                                       {0xaaaaaaaau, 3, 1, 3},
                                       {0xaaaaaaaau, 3, (uint32_t)-1, 3},
                                       {0xaaaaaaaau, 2, 1, 3},
                                       {0xaaaaaaaau, 2, (uint32_t)-1, 1}};
    uint64_t s = 17;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[3 * i] = i < 4 ? isa[i][0] : (uint32_t)(s >> 32) & (uint32_t)s;
        in[3 * i + 1] = i < 4 ? isa[i][1] : (uint32_t)(s >> 8) % 32;
        in[3 * i + 2] = i < 4 ? isa[i][2] : (uint32_t)((s >> 20) % 67) - 33;
    }
    pi_launch l = pi_dims(1, N);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(out[i], isa[i][3]);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != ref_fns(in[3 * i], in[3 * i + 1],
                                 (int32_t)in[3 * i + 2]);
    CHECK_EQ(bad, 0);
    wm_ptx_free(m);
}

int main(void)
{
    test_fns();
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++)
        one(k);
    /* no .sat form: unsupported when run */
    wm_ptx_module *m = pi_parse(
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
        "  add.sat.s16x2 %r1, %r2, %r2;\n  ret;\n}\n", "sat.ptx");
    CHECK(m != NULL);
    if (m) {
        pi_launch l = pi_dims(1, 32);
        wm_ptx_fault ft;
        CHECK_EQ(pi_run(m, "k", &l, &ft), WM_ERR_UNSUPPORTED);
        wm_ptx_free(m);
    }
    /* bmsk and szext need a mode and their type (the values:
       test_corpus's cub_sort) */
    static const char *const bad_forms[] = {
        "bmsk.b32 %r1, %r2, %r2;", "bmsk.clamp.u32 %r1, %r2, %r2;",
        "bmsk.clamp.wrap.b32 %r1, %r2, %r2;", "szext.s32 %r1, %r2, %r2;",
        "szext.wrap.b32 %r1, %r2, %r2;"};
    for (size_t i = 0; i < sizeof bad_forms / sizeof bad_forms[0]; i++) {
        char src[256];
        snprintf(src, sizeof src,
                 ".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k()\n{\n  .reg .b32 %%r<3>;\n  %s\n"
                 "  ret;\n}\n", bad_forms[i]);
        pi_parse_fails(src, bad_forms[i][0] == 'b' ? "expected bmsk.clamp.b32"
                                                   : "expected szext.",
                       7);
    }
    /* ld/st .b128 (a 128-bit register) is refused when run, on the slow
       and the fast paths: its store used to read 16 bytes of an 8-byte
       value (found by fuzz_cluster) */
    for (int st = 0; st < 2; st++) {
        char src[512];
        snprintf(src, sizeof src,
                 ".version 8.3\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k(.param .u64 p)\n{\n"
                 "  .reg .b32 %%r<3>; .reg .b64 %%rd<3>;\n"
                 "  .shared .align 16 .b8 box[512];\n"
                 "  mov.u32 %%r1, %%tid.x; shl.b32 %%r1, %%r1, 4;\n"
                 "  mov.u32 %%r2, box; add.u32 %%r2, %%r2, %%r1;\n"
                 "  %s;\n  ret;\n}\n",
                 st ? "st.shared.b128 [%r2], %rd1" : "ld.shared.b128 %rd1, [%r2]");
        wm_ptx_module *mb = pi_parse(src, "b128.ptx");
        CHECK(mb != NULL);
        if (mb) {
            static uint64_t unused[2];
            pi_launch l = pi_dims(1, 32);
            pi_buf(&l, unused, sizeof unused);
            wm_ptx_fault ft;
            CHECK_EQ(pi_run(mb, "k", &l, &ft), WM_ERR_UNSUPPORTED);
            wm_ptx_free(mb);
        }
    }
    /* isspacep names its space */
    pi_parse_fails(".version 8.0\n.target sm_90\n.address_size 64\n"
                   ".visible .entry k()\n{\n  .reg .pred %p<2>;\n"
                   "  .reg .b64 %rd<2>;\n  isspacep %p1, %rd1;\n  ret;\n}\n",
                   "expected isspacep.SPACE", 8);
    return check_done("test_ptx_intrin");
}
