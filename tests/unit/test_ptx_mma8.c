/*
 * test_ptx_mma8.c -- mma.sync with 8- and 4-bit inputs in the PTX
 * interpreter (m16n8k16/k32 s8/u8, m16n8k32/k64 s4/u4, m16n8k32
 * e4m3/e5m2), against a reference written from the PTX ISA's fragment
 * figures ("Matrix fragments for mma.m16n8k32" and neighbours): with
 * g = lane / 4, t = lane % 4 and E elements a register, A register j
 * holds row g + 8 (j % 2), k = E t + 4 E (j / 2) + x for its element x
 * (low bits first); B register j holds column g, k = E t + 4 E j + x; C
 * and D value j are row g + 8 (j / 2), column 2 t + j % 2.  Integer
 * results are exact; the fp8 inputs are small, so their f32 sums are too.
 * Every launch also runs with the fast paths off (ptx_twin.h).
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct form {
    const char *ptx;   /* the mma opcode */
    unsigned k, bits;  /* K, input element bits */
    int sa, sb;        /* signed A / B (fp: 2 e4m3, 3 e5m2) */
    int f16acc, sat;
} form;

static const form forms[] = {
    {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 32, 8, 1, 1, 0, 0},
    {"mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32", 32, 8, 0, 1, 0, 0},
    {"mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32", 16, 8, 1, 0, 0, 0},
    {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32", 32, 8, 0,
     0, 0, 1},
    {"mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", 64, 4, 1, 1, 0, 0},
    {"mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32", 32, 4, 0, 1, 0, 0},
    {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", 32, 8, 2, 3, 0,
     0},
    {"mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16", 32, 8, 3, 2, 1,
     0},
};

/* A random element of kind s (0 unsigned, 1 signed, 2 e4m3, 3 e5m2) of
   `bits` bits: its code into *code, its value returned. */
static double rnd_elem(int s, unsigned bits, uint32_t *code)
{
    if (s >= 2) { /* +-{0, 0.5, 1, 1.5, 2} */
        static const double v[] = {0.0, 0.5, 1.0, 1.5, 2.0};
        static const uint32_t e4[] = {0x00, 0x30, 0x38, 0x3c, 0x40};
        static const uint32_t e5[] = {0x00, 0x38, 0x3c, 0x3e, 0x40};
        int i = rand() % 5, neg = rand() % 2 && i;
        *code = (s == 2 ? e4[i] : e5[i]) | (neg ? 0x80u : 0);
        return neg ? -v[i] : v[i];
    }
    uint32_t mask = (1u << bits) - 1;
    uint32_t c = (uint32_t)rand() & mask;
    *code = c;
    if (s && (c >> (bits - 1)))
        return (double)c - (double)(1u << bits);
    return (double)c;
}

static void one(const form *f, int big_c)
{
    unsigned E = 32 / f->bits, na = f->k / (2 * E), nb = f->k / (4 * E);
    unsigned nc = f->f16acc ? 2 : 4;
    static uint32_t ar[32 * 4], br[32 * 2], cr[32 * 4];
    double A[16][64], B[64][8], C[16][8];
    memset(ar, 0, sizeof ar);
    memset(br, 0, sizeof br);
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l / 4, t = l % 4;
        for (unsigned j = 0; j < na; j++)
            for (unsigned x = 0; x < E; x++) {
                uint32_t code;
                A[g + 8 * (j % 2)][E * t + 4 * E * (j / 2) + x] =
                    rnd_elem(f->sa, f->bits, &code);
                ar[l * 4 + j] |= code << (f->bits * x);
            }
        for (unsigned j = 0; j < nb; j++)
            for (unsigned x = 0; x < E; x++) {
                uint32_t code;
                B[E * t + 4 * E * j + x][g] = rnd_elem(f->sb, f->bits, &code);
                br[l * 2 + j] |= code << (f->bits * x);
            }
        for (unsigned j = 0; j < 4; j++) {
            double v = big_c ? 2147483000.0 : (double)(rand() % 9 - 4);
            C[g + 8 * (j / 2)][2 * t + j % 2] = v;
            if (f->f16acc) { /* small integers: f16 bits by hand */
                static const uint16_t h[] = {0xc400, 0xc200, 0xc000, 0xbc00,
                                             0x0000, 0x3c00, 0x4000, 0x4200,
                                             0x4400};
                uint32_t *d = &cr[l * 4 + j / 2];
                uint32_t bits = h[(int)v + 4];
                *d = (j % 2) ? (*d & 0xffff) | bits << 16 : bits;
            } else if (f->sa >= 2) {
                float fv = (float)v;
                memcpy(&cr[l * 4 + j], &fv, 4);
            } else {
                cr[l * 4 + j] = (uint32_t)(int32_t)v;
            }
        }
    }
    char src[2048];
    size_t n = 0;
#define P(...) n += (size_t)snprintf(src + n, sizeof src - n, __VA_ARGS__)
    P(PI_HEAD ".visible .entry k(.param .u64 pa, .param .u64 pb, .param "
      ".u64 pc)\n{\n.reg .b32 %%a<4>;\n.reg .b32 %%b<2>;\n.reg .b32 %%c<4>;\n"
      ".reg .b32 %%r<2>;\n.reg .b64 %%rd<8>;\n"
      "ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\n"
      "ld.param.u64 %%rd3, [pc];\nmov.u32 %%r0, %%laneid;\n"
      "mul.wide.u32 %%rd4, %%r0, 16;\nadd.u64 %%rd5, %%rd1, %%rd4;\n"
      "add.u64 %%rd7, %%rd3, %%rd4;\nmul.wide.u32 %%rd4, %%r0, 8;\n"
      "add.u64 %%rd6, %%rd2, %%rd4;\n");
    for (unsigned j = 0; j < na; j++)
        P("ld.global.b32 %%a%u, [%%rd5+%u];\n", j, 4 * j);
    for (unsigned j = 0; j < nb; j++)
        P("ld.global.b32 %%b%u, [%%rd6+%u];\n", j, 4 * j);
    for (unsigned j = 0; j < nc; j++)
        P("ld.global.b32 %%c%u, [%%rd7+%u];\n", j, 4 * j);
    P("%s {", f->ptx);
    for (unsigned j = 0; j < nc; j++)
        P("%s%%c%u", j ? "," : "", j);
    P("}, {");
    for (unsigned j = 0; j < na; j++)
        P("%s%%a%u", j ? "," : "", j);
    P("}, {");
    for (unsigned j = 0; j < nb; j++)
        P("%s%%b%u", j ? "," : "", j);
    P("}, {");
    for (unsigned j = 0; j < nc; j++)
        P("%s%%c%u", j ? "," : "", j);
    P("};\n");
    for (unsigned j = 0; j < nc; j++)
        P("st.global.b32 [%%rd7+%u], %%c%u;\n", 4 * j, j);
    P("ret;\n}\n");
#undef P
    wm_ptx_module *m = pi_parse(src, "mma8.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, ar, sizeof ar);
    pi_buf(&l, br, sizeof br);
    pi_buf(&l, cr, sizeof cr);
    CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
    int bad = 0;
    for (unsigned l2 = 0; l2 < 32; l2++)
        for (unsigned j = 0; j < 4; j++) {
            unsigned r = l2 / 4 + 8 * (j / 2), c = 2 * (l2 % 4) + j % 2;
            double want = C[r][c];
            for (unsigned k = 0; k < f->k; k++)
                want += A[r][k] * B[k][c];
            double got;
            if (f->f16acc) {
                uint16_t h = (uint16_t)(cr[l2 * 4 + j / 2] >> (16 * (j % 2)));
                unsigned e = h >> 10 & 31, mm = h & 1023;
                got = e ? (double)(1024 + mm) * (double)(1u << e) / 33554432.0
                        : (double)mm / 16777216.0;
                if (h & 0x8000)
                    got = -got;
            } else if (f->sa >= 2) {
                float fv;
                memcpy(&fv, &cr[l2 * 4 + j], 4);
                got = (double)fv;
            } else {
                got = (double)(int32_t)cr[l2 * 4 + j];
                if (f->sat && want > 2147483647.0)
                    want = 2147483647.0;
            }
            if (got != want && bad++ < 3)
                fprintf(stderr, "%s: D[%u][%u] = %g, want %g\n", f->ptx, r, c,
                        got, want);
        }
    CHECK_EQ(bad, 0);
    wm_ptx_free(m);
}

int main(void)
{
    srand(8);
    for (size_t i = 0; i < WM_ARRAY_LEN(forms); i++)
        for (int rep = 0; rep < 3; rep++)
            one(&forms[i], 0);
    one(&forms[3], 1); /* .satfinite: C near INT32_MAX clamps */
    return check_done("test_ptx_mma8");
}
