/*
 * test_ptx_atom_vec.c -- the vector atomics of sm_90 (atom and red with
 * .v2/.v4/.v8): each element is an atomic of its own, in element order; add
 * on f32, add/min/max on f16 and bf16 (a NaN loses to a number) and on
 * their packed pairs; the forms PTX allows and nothing else; a generic
 * address must reach global memory.  Also the scalar bf16x2 add, which
 * adds each half.
 */
#include "check.h"
#include "ptx_inline.h"

#include <string.h>

#define HEAD ".version 8.1\n.target sm_90\n.address_size 64\n"

/* minmax(out, in): thread t takes in[t][0..7] (bf16) into out[0..7] with
   max (out) and min (out + 16), and stores what the max found to
   found[t][0..7]. */
static const char *const src =
    HEAD
    ".visible .entry minmax(.param .u64 out, .param .u64 in, "
    ".param .u64 found)\n{\n"
    "  .reg .b16 %h<24>; .reg .b32 %r<4>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in];\n"
    "  ld.param.u64 %rd7, [found];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd4, %rd2, %rd3; add.s64 %rd8, %rd7, %rd3;\n"
    "  ld.global.v4.b16 {%h1, %h2, %h3, %h4}, [%rd4];\n"
    "  ld.global.v4.b16 {%h5, %h6, %h7, %h8}, [%rd4+8];\n"
    "  atom.global.max.noftz.v8.bf16 {%h11, %h12, %h13, %h14, %h15, %h16, "
    "%h17, %h18}, [%rd1], {%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8};\n"
    "  red.global.min.noftz.v8.bf16 [%rd1+16], {%h1, %h2, %h3, %h4, %h5, "
    "%h6, %h7, %h8};\n"
    "  st.global.v4.b16 [%rd8], {%h11, %h12, %h13, %h14};\n"
    "  st.global.v4.b16 [%rd8+8], {%h15, %h16, %h17, %h18};\n"
    "  ret;\n}\n"
    /* pairs(out): 32 threads add (tid, 1.0) with red.v2.f32 into out[0..1],
       the f16x2 pairs (1.0, 0.5), (0.25, 2.0) into out[2..3] with
       atom.v2.f16x2, and the bf16x2 pair (1.0, 3.0) into out[4] */
    ".visible .entry pairs(.param .u64 out)\n{\n"
    "  .reg .b32 %r<12>; .reg .f32 %f<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x; cvt.rn.f32.u32 %f1, %r1; mov.f32 %f2, 0f3F800000;\n"
    "  red.global.add.v2.f32 [%rd1], {%f1, %f2};\n"
    "  mov.b32 %r2, 0x38003C00; mov.b32 %r3, 0x40003400;\n"
    "  atom.global.add.noftz.v2.f16x2 {%r4, %r5}, [%rd1+8], {%r2, %r3};\n"
    "  mov.b32 %r6, 0x40403F80;\n"
    "  atom.global.add.noftz.bf16x2 %r7, [%rd1+16], %r6;\n"
    "  ret;\n}\n"
    /* generic(out): a vector atomic through a generic address of shared
       memory */
    ".visible .entry generic(.param .u64 out)\n{\n"
    "  .shared .align 16 .b8 s[16];\n"
    "  .reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  mov.u64 %rd1, s; cvta.shared.u64 %rd2, %rd1;\n"
    "  atom.add.v4.f32 {%f5, %f6, %f7, %f4}, [%rd2], {%f1, %f1, %f1, %f1};\n"
    "  ret;\n}\n";

static uint16_t bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}

static void minmax(const wm_ptx_module *m)
{
    enum { T = 64 };
    uint16_t in[T][8], out[16], found[T][8], want_found[T][8];
    uint16_t mx[8], mn[8];
    for (int k = 0; k < 8; k++) {
        out[k] = bf(-100.0f);
        out[8 + k] = bf(100.0f);
        mx[k] = out[k];
        mn[k] = out[8 + k];
    }
    for (int t = 0; t < T; t++)
        for (int k = 0; k < 8; k++) {
            float v = (float)((t * 7 + k * 3) % 23) - 11.0f;
            /* a NaN in element 2 of every 5th thread loses to a number */
            in[t][k] = k == 2 && t % 5 == 0 ? 0x7fc0 : bf(v);
            want_found[t][k] = mx[k];
            if (in[t][k] != 0x7fc0) {
                float cur;
                uint32_t u = (uint32_t)mx[k] << 16;
                memcpy(&cur, &u, 4);
                if (v > cur)
                    mx[k] = in[t][k];
                u = (uint32_t)mn[k] << 16;
                memcpy(&cur, &u, 4);
                if (v < cur)
                    mn[k] = in[t][k];
            }
        }
    pi_launch l = pi_dims(1, T);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    pi_buf(&l, found, sizeof found);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "minmax", &l, &ft), WM_OK);
    CHECK_EQ(memcmp(out, mx, sizeof mx), 0);
    CHECK_EQ(memcmp(out + 8, mn, sizeof mn), 0);
    CHECK_EQ(memcmp(found, want_found, sizeof found), 0);
}

static void pairs(const wm_ptx_module *m)
{
    uint32_t out[5] = {0, 0, 0, 0, 0};
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, out, sizeof out);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "pairs", &l, &ft), WM_OK);
    float f[2];
    memcpy(f, out, sizeof f);
    CHECK(f[0] == 496.0f && f[1] == 32.0f); /* 0 + 1 + ... + 31; 32 x 1.0 */
    CHECK_EQ(out[2], 0x4C005000u); /* halves 32.0, 16.0 */
    CHECK_EQ(out[3], 0x54004800u); /* 8.0, 64.0 */
    CHECK_EQ(out[4], 0x42C04200u); /* bf16 32.0, 96.0 */
}

/* Forms outside PTX's: each refused at parse time with its reason. */
static void forms(void)
{
    static const struct {
        const char *insn, *msg;
    } bad[] = {
        {"atom.global.add.v8.f32 {%f1, %f2, %f3, %f4, %f1, %f2, %f3, %f4}, "
         "[%rd1], {%f1, %f2, %f3, %f4, %f1, %f2, %f3, %f4}",
         ".add on .v2/.v4 of .f32"},
        {"atom.global.min.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1], "
         "{%f1, %f2, %f3, %f4}",
         ".add on .v2/.v4 of .f32"},
        {"atom.global.add.v2.u32 {%r1, %r2}, [%rd1], {%r1, %r2}",
         ".add on .v2/.v4 of .f32"},
        {"atom.global.exch.v2.bf16 {%h1, %h2}, [%rd1], {%h1, %h2}",
         ".add on .v2/.v4 of .f32"},
        {"atom.global.add.noftz.v8.f16x2 {%r1, %r2, %r3, %r4, %r1, %r2, %r3, "
         "%r4}, [%rd1], {%r1, %r2, %r3, %r4, %r1, %r2, %r3, %r4}",
         ".add on .v2/.v4 of .f32"},
        {"atom.shared.add.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1], "
         "{%f1, %f2, %f3, %f4}",
         "a vector of elements in .global memory"},
        {"atom.global.add.v4.f32 {%f1, %f2}, [%rd1], {%f1, %f2, %f3, %f4}",
         "{d...}, [a], {b...} with one register per element"},
        {"atom.global.add.v4.f32 %f1, [%rd1], {%f1, %f2, %f3, %f4}",
         "{d...}, [a], {b...} with one register per element"},
        {"red.global.add.v4.f32 [%rd1], {%f1, %f2, %f3}",
         "[a], {b...} with one register per element"},
        {"atom.global.add.f32 {%f1, %f2}, [%rd1], {%f1, %f2}",
         "no vector operand without .v2, .v4 or .v8"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 HEAD ".visible .entry k(.param .u64 p)\n{\n"
                      "  .reg .b16 %%h<4>; .reg .b32 %%r<5>; "
                      ".reg .f32 %%f<5>; .reg .b64 %%rd<2>;\n"
                      "  ld.param.u64 %%rd1, [p];\n  %s;\n  ret;\n}\n",
                 bad[i].insn);
        pi_parse_fails(ptx, bad[i].msg, 8); /* the instruction's line */
    }
}

int main(void)
{
    wm_ptx_module *m = pi_parse(src, "atom_vec.ptx");
    CHECK(m != NULL);
    if (!m)
        return check_done("test_ptx_atom_vec");
    minmax(m);
    pairs(m);
    pi_launch l = pi_dims(1, 32);
    float out[4];
    pi_buf(&l, out, sizeof out);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "generic", &l, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "a vector atomic on a generic address outside "
                         "global memory") != NULL);
    wm_ptx_free(m);
    forms();
    return check_done("test_ptx_atom_vec");
}
